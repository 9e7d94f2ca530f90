/* report_text.c: the human-readable `ptxray report`: one table per file,
 * one row per kernel, columns sized to their contents. Estimates are
 * marked with '~'; a legend under each table says so. */
#include <stdio.h>
#include <string.h>

#include "report.h"

enum { COLS = 9 };
static const char *const headers[COLS] = {
	"kernel", "line", "regs~", "ptxas", "smem", "dyn", "local", "param", "block",
};
/* right-aligned columns */
static const bool right[COLS] = {false, true, true, true, true, false, true, true, false};

static void cells(const struct px_kernel_report *k, char c[COLS][256])
{
	const struct px_func *f = k->func;
	if (k->demangled)
		snprintf(c[0], 256, "%s", k->demangled);
	else
		snprintf(c[0], 256, PX_STR_FMT, PX_STR_ARG(f->name));
	snprintf(c[1], 256, "%u", k->line);
	if (k->reg_cap)
		snprintf(c[2], 256, "%u (cap %u)", k->reg_estimate, k->reg_cap);
	else
		snprintf(c[2], 256, "%u", k->reg_estimate);
	if (k->have_ptxas && k->ptxas.have_regs) {
		if (k->ptxas.have_frame && (k->ptxas.spill_store_bytes || k->ptxas.spill_load_bytes))
			snprintf(c[3], 256, "%u +spill %u/%u", k->ptxas.registers,
			         k->ptxas.spill_store_bytes, k->ptxas.spill_load_bytes);
		else
			snprintf(c[3], 256, "%u", k->ptxas.registers);
	} else {
		snprintf(c[3], 256, "-");
	}
	snprintf(c[4], 256, "%llu", (unsigned long long)k->shared_static_bytes);
	snprintf(c[5], 256, "%s", k->shared_dynamic ? "yes" : "no");
	snprintf(c[6], 256, "%llu", (unsigned long long)k->local_bytes);
	snprintf(c[7], 256, "%llu", (unsigned long long)k->param_bytes);
	snprintf(c[8], 256, "%ux%ux%u %s", k->block[0], k->block[1], k->block[2],
	         px_launch_from_name(k->block_from));
}

void px_report_text(struct px_buf *out, const struct px_file_report *files, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct px_file_report *r = &files[i];
		const struct px_module *m = r->module;
		if (i)
			px_buf_puts(out, "\n");
		px_buf_printf(out, "%s: PTX %u.%u, target " PX_STR_FMT ", %zu kernel%s\n",
		              r->path, m->version_major, m->version_minor,
		              PX_STR_ARG(m->target.n ? m->target : px_str_c("(none)")),
		              r->nkernels, r->nkernels == 1 ? "" : "s");
		if (r->ptxas_error)
			px_buf_printf(out, "  ptxas: %s\n", r->ptxas_error);
		if (r->nkernels == 0)
			continue;
		size_t w[COLS];
		for (int c = 0; c < COLS; c++)
			w[c] = strlen(headers[c]);
		char (*rows)[COLS][256] = xmalloc(sizeof *rows * r->nkernels);
		for (size_t k = 0; k < r->nkernels; k++) {
			cells(&r->kernels[k], rows[k]);
			for (int c = 0; c < COLS; c++)
				if (strlen(rows[k][c]) > w[c])
					w[c] = strlen(rows[k][c]);
		}
		px_buf_puts(out, " ");
		for (int c = 0; c < COLS; c++)
			px_buf_printf(out, right[c] ? " %*s" : " %-*s",
			              c == COLS - 1 && !right[c] ? 0 : (int)w[c], headers[c]);
		px_buf_puts(out, "\n");
		for (size_t k = 0; k < r->nkernels; k++) {
			px_buf_puts(out, " ");
			for (int c = 0; c < COLS; c++) {
				if (c == COLS - 1)  /* no trailing blanks */
					px_buf_printf(out, " %s", rows[k][c]);
				else
					px_buf_printf(out, right[c] ? " %*s" : " %-*s", (int)w[c], rows[k][c]);
			}
			px_buf_puts(out, "\n");
		}
		free(rows);
		for (size_t k = 0; k < r->nkernels; k++)
			px_report_text_accesses(out, &r->kernels[k]);
	}
	if (n)
		px_buf_puts(out, "\nregs~ is an estimate from PTX liveness (error bars: ptxray-report(1));"
		                 " ptxas is exact (--ptxas). smem is static shared memory in bytes, as ptxas"
		                 " allocates it.\n");
}
