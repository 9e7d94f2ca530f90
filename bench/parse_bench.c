/* parse_bench.c: PTX front-end and pipeline throughput, through the library.
 *
 *   build/parse_bench FILE.ptx [REPEATS]
 *
 * Times, best of REPEATS (default 5), on one file read once into memory:
 *   parse     px_ptx_parse_hooked with a hook that only drops each body
 *             (lexing, parsing, building the IR, one body at a time);
 *   pipeline  the same with every pass run on each body before it is dropped
 *             (what `ptxray report` does, less the report itself).
 * Prints MB/s for each (from the best wall time, and from the best CPU
 * time of the thread, which moves less when other processes load the
 * machine) and the arena bytes the module kept. A benchmark, never a
 * test: bench/run.py runs it from `ninja bench`. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ir.h"

static double now(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
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

/* One run; returns wall seconds (CPU seconds in *cpu), or a negative value
 * when the file has errors. */
static double run_once(const char *path, const char *data, size_t len, bool passes,
                       size_t *kept, double *cpu)
{
	char *text = xmalloc(len + 1);  /* the module takes ownership of its text */
	memcpy(text, data, len);
	text[len] = 0;
	struct px_diags diags = {0};
	struct ctx c = {passes, &diags};
	struct px_parse_hook hook = {.function = on_function, .ctx = &c, .body_arenas = true};
	double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_THREAD_CPUTIME_ID);
	struct px_module *m = px_ptx_parse_hooked(path, text, len, &diags, &hook);
	double t = now(CLOCK_MONOTONIC) - t0;
	*cpu = now(CLOCK_THREAD_CPUTIME_ID) - c0;
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
		double best = 1e30, best_cpu = 1e30;
		size_t kept = 0;
		for (int r = 0; r < repeats; r++) {
			double cpu;
			double t = run_once(argv[1], data, len, p == 1, &kept, &cpu);
			if (t < 0) {
				fprintf(stderr, "%s: error: the file does not parse cleanly\n", argv[1]);
				return 2;
			}
			best = t < best ? t : best;
			best_cpu = cpu < best_cpu ? cpu : best_cpu;
		}
		printf("%-10s %.3f s best of %d   %.0f MB/s (CPU time %.3f s: %.0f MB/s)   module kept %.1f MB",
		       names[p], best, repeats, mb / best, best_cpu, mb / best_cpu, (double)kept / 1e6);
		if (p == 0)
			printf("   (goal >= 300 MB/s, issue 2: %s; >= 500 MB/s, issue 9: %s)",
			       mb / best >= 300 ? "met" : "NOT met", mb / best >= 500 ? "met" : "NOT met");
		printf("\n");
	}
	free(data);
	return 0;
}
