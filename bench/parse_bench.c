/* parse_bench.c: PTX front-end and pipeline throughput, through the library.
 *
 *   build/parse_bench FILE.ptx [REPEATS]
 *
 * Times, best of REPEATS (default 5), on one file read once into memory:
 *   parse     px_ptx_parse_hooked with a hook that only drops each body
 *             (lexing, parsing, building the IR, one body at a time);
 *   pipeline  the same with every pass run on each body before it is dropped
 *             (what `ptxray report` does, less the report itself).
 * Prints MB/s for each and the arena bytes the module kept. A benchmark,
 * never a test: bench/run.py runs it from `ninja bench`. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ir.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct ctx {
	bool passes;
	struct px_diags *diags;
};

static void on_function(void *vctx, struct px_module *m, uint32_t fi)
{
	struct ctx *c = vctx;
	if (c->passes)
		px_pipeline_run_func(m, &m->funcs[fi], c->diags, false);
	px_func_drop_body(&m->funcs[fi]);
}

/* One run; returns seconds, or a negative value when the file has errors. */
static double run_once(const char *path, const char *data, size_t len, bool passes,
                       size_t *kept)
{
	char *text = xmalloc(len + 1);  /* the module takes ownership of its text */
	memcpy(text, data, len);
	text[len] = 0;
	struct px_diags diags = {0};
	struct ctx c = {passes, &diags};
	struct px_parse_hook hook = {on_function, &c, true};
	double t0 = now();
	struct px_module *m = px_ptx_parse_hooked(path, text, len, &diags, &hook);
	double t = now() - t0;
	*kept = px_arena_used(m->arena);
	bool bad = diags.errors > 0;
	px_module_delete(m);
	px_diags_free(&diags);
	return bad ? -1 : t;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: parse_bench FILE.ptx [REPEATS]\n");
		return 2;
	}
	int repeats = argc > 2 ? atoi(argv[2]) : 5;
	if (repeats < 1)
		repeats = 1;
	size_t len;
	char *err = NULL;
	char *data = px_read_file(argv[1], &len, &err);
	if (!data) {
		fprintf(stderr, "%s: error: %s\n", argv[1], err);
		return 2;
	}
	double mb = (double)len / 1e6;
	printf("file       %s (%.1f MB)\n", argv[1], mb);
	static const char *const names[] = {"parse", "pipeline"};
	for (int p = 0; p < 2; p++) {
		double best = 1e30;
		size_t kept = 0;
		for (int r = 0; r < repeats; r++) {
			double t = run_once(argv[1], data, len, p == 1, &kept);
			if (t < 0) {
				fprintf(stderr, "%s: error: the file does not parse cleanly\n", argv[1]);
				return 2;
			}
			best = t < best ? t : best;
		}
		printf("%-10s %.3f s best of %d   %.0f MB/s   module kept %.1f MB%s\n", names[p], best,
		       repeats, mb / best, (double)kept / 1e6,
		       p == 0 ? (mb / best >= 300 ? "   (goal >= 300 MB/s: met)" : "   (goal >= 300 MB/s: NOT met)") : "");
	}
	free(data);
	return 0;
}
