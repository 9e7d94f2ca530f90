/* occ_plot.c: the three graphs of NVIDIA's occupancy calculator: occupancy
 * against block size, against registers per thread, and against shared
 * memory per block, each with the current configuration marked and the
 * limiter named; as SVG (--plot FILE.svg) or as text (--plot -).
 *
 * Approach: each curve is sampled with the engine, varying one input and
 * keeping the others: block sizes in warp-size steps up to the arch's
 * maximum, every register count 0..max, and shared memory (static + dynamic,
 * as one total) in steps of the allocation unit, at most 256 samples, up to
 * the per-block limit (the opt-in one with --optin). */
#include <stdio.h>
#include <string.h>

#include "ir.h"
#include "occupancy.h"

#define MAXPTS 1100

struct curve {
	const char *title, *xlabel;
	uint32_t n;
	uint32_t x[MAXPTS];
	double y[MAXPTS];
	uint32_t cur_x;
	double cur_y;
};

static void sample(const struct px_arch *a, const struct px_occ_query *q0,
                   const struct px_occ_result *r0, int which, struct curve *c)
{
	struct px_occ_query q = *q0;
	struct px_occ_result r;
	c->n = 0;
	c->cur_y = r0->occupancy;
	if (which == 0) {
		c->title = "occupancy against block size";
		c->xlabel = "threads per block";
		c->cur_x = q0->threads;
		for (uint32_t t = a->warp_size; t <= a->max_threads_per_block && c->n < MAXPTS; t += a->warp_size) {
			q.threads = t;
			px_occ_compute(a, &q, &r);
			c->x[c->n] = t;
			c->y[c->n++] = r.occupancy;
		}
	} else if (which == 1) {
		c->title = "occupancy against registers per thread";
		c->xlabel = "registers per thread";
		c->cur_x = q0->registers;
		for (uint32_t g = 0; g <= a->max_registers_per_thread && c->n < MAXPTS; g++) {
			q.registers = g;
			px_occ_compute(a, &q, &r);
			c->x[c->n] = g;
			c->y[c->n++] = r.occupancy;
		}
	} else {
		c->title = "occupancy against shared memory per block";
		c->xlabel = "shared bytes per block";
		c->cur_x = q0->shared + q0->dynamic_shared;
		uint32_t limit = q0->optin ? a->shared_per_block_optin : a->shared_per_block;
		uint32_t step = a->shared_allocation_unit;
		while (limit / step > 256)
			step *= 2;
		for (uint32_t s = 0; s <= limit && c->n < MAXPTS; s += step) {
			q.shared = s < q0->shared ? s : q0->shared;
			q.dynamic_shared = s - q.shared;
			px_occ_compute(a, &q, &r);
			c->x[c->n] = s;
			c->y[c->n++] = r.occupancy;
		}
	}
}

static const char *limiter_text(const struct px_occ_result *r, char *buf, size_t n)
{
	buf[0] = 0;
	size_t k = 0;
	for (int l = 0; l < PX_OCC_NLIMITS; l++)
		if (r->limiters & (1u << l))
			k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? ", " : "",
			                      px_occ_limit_name((enum px_occ_limit)l));
	return buf;
}

void px_occ_plot_svg(struct px_buf *out, const struct px_arch *a, const struct px_occ_query *q,
                     const struct px_occ_result *r)
{
	static const int W = 320, H = 240, ML = 48, MR = 12, MT = 36, MB = 40;
	char lim[96];
	limiter_text(r, lim, sizeof lim);
	px_buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	              "font-family=\"sans-serif\" font-size=\"11\">\n", 3 * W, H + 20);
	px_buf_printf(out, "<text x=\"8\" y=\"14\" font-size=\"12\">%s: %u threads, %u registers, "
	              "%u B shared: %u blocks per SM, %.1f%% occupancy, limited by %s</text>\n",
	              a->name, q->threads, q->registers, q->shared + q->dynamic_shared,
	              r->blocks_per_sm, r->occupancy * 100, lim);
	struct curve *c = xmalloc(sizeof *c);
	for (int g = 0; g < 3; g++) {
		sample(a, q, r, g, c);
		int ox = g * W + ML, oy = 20 + MT, pw = W - ML - MR, ph = H - MT - MB;
		uint32_t xmax = c->n ? c->x[c->n - 1] : 1;
		if (c->cur_x > xmax)
			xmax = c->cur_x;
		if (!xmax)
			xmax = 1;
		px_buf_printf(out, "<g>\n<text x=\"%d\" y=\"%d\">%s</text>\n", ox, oy - 10, c->title);
		px_buf_printf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
		              ox, oy, pw, ph);
		for (int t = 0; t <= 4; t++)
			px_buf_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d%%</text>\n",
			              ox - 4, oy + ph - ph * t / 4 + 4, 25 * t);
		px_buf_printf(out, "<text x=\"%d\" y=\"%d\">0</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">%u</text>\n",
		              ox, oy + ph + 14, ox + pw, oy + ph + 14, xmax);
		px_buf_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
		              ox + pw / 2, oy + ph + 30, c->xlabel);
		px_buf_puts(out, "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"");
		for (uint32_t i = 0; i < c->n; i++) {
			/* a step curve: hold each value until the next sample */
			double x0 = ox + (double)c->x[i] * pw / xmax;
			double y0 = oy + ph - c->y[i] * ph;
			px_buf_printf(out, "%.1f,%.1f ", x0, y0);
			if (i + 1 < c->n)
				px_buf_printf(out, "%.1f,%.1f ", ox + (double)c->x[i + 1] * pw / xmax, y0);
		}
		px_buf_puts(out, "\"/>\n");
		px_buf_printf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#d62728\"/>\n",
		              ox + (double)c->cur_x * pw / xmax, oy + ph - c->cur_y * ph);
		px_buf_puts(out, "</g>\n");
	}
	px_buf_puts(out, "</svg>\n");
	free(c);
}

void px_occ_plot_text(struct px_buf *out, const struct px_arch *a, const struct px_occ_query *q,
                      const struct px_occ_result *r)
{
	enum { COLS = 64, ROWS = 10 };
	char lim[96];
	limiter_text(r, lim, sizeof lim);
	px_buf_printf(out, "%s: %u blocks per SM, %.1f%% occupancy, limited by %s (X: this configuration)\n",
	              a->name, r->blocks_per_sm, r->occupancy * 100, lim);
	struct curve *c = xmalloc(sizeof *c);
	for (int g = 0; g < 3; g++) {
		sample(a, q, r, g, c);
		uint32_t xmax = c->n ? c->x[c->n - 1] : 1;
		if (c->cur_x > xmax)
			xmax = c->cur_x;
		if (!xmax)
			xmax = 1;
		char grid[ROWS][COLS + 1];
		memset(grid, ' ', sizeof grid);
		for (int row = 0; row < ROWS; row++)
			grid[row][COLS] = 0;
		for (int col = 0; col < COLS; col++) {
			/* the last sample at or before this column's x */
			double x = (double)col * xmax / (COLS - 1);
			double y = -1;
			for (uint32_t i = 0; i < c->n && c->x[i] <= x + 1e-9; i++)
				y = c->y[i];
			if (y < 0)
				continue;
			int row = (int)(y * (ROWS - 1) + 0.5);
			grid[ROWS - 1 - row][col] = '*';
		}
		int cc = (int)((double)c->cur_x * (COLS - 1) / xmax + 0.5);
		int cr = (int)(c->cur_y * (ROWS - 1) + 0.5);
		if (cc >= 0 && cc < COLS && cr >= 0 && cr < ROWS)
			grid[ROWS - 1 - cr][cc] = 'X';
		px_buf_printf(out, "\n%s\n", c->title);
		for (int row = 0; row < ROWS; row++) {
			int pct = (ROWS - 1 - row) * 100 / (ROWS - 1);
			size_t end = COLS;
			while (end > 0 && grid[row][end - 1] == ' ')
				end--;
			px_buf_printf(out, "%4d%% |%.*s\n", pct, (int)end, grid[row]);
		}
		px_buf_printf(out, "      +");
		for (int col = 0; col < COLS; col++)
			px_buf_puts(out, "-");
		px_buf_printf(out, "\n       0%*u  %s\n", COLS - 1, xmax, c->xlabel);
	}
	free(c);
}
