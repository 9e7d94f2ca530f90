/* simt_bench.c: `ptxray simt` interpreter speed, through the library.
 *
 *   build/simt_bench [FILE.ptx [KERNEL [N [REPEATS]]]]
 *
 * Simulates one 256-thread block of KERNEL (default fp32_tput of
 * tests/fixtures/simt/simt_bench.sm_90.ptx, its trip-count parameter 2 set
 * to N = 2000, which its 2x-unrolled loop runs 1,000 times) with the sm_90
 * timing table, best of REPEATS (default 3), the file parsed once per run
 * (parse and passes included in the time, as `ptxray simt` does them).
 * Prints the loop iterations, warp-instructions, seconds, simulated
 * warp-instructions per second against the 20 M goal and the time against
 * the 1 s goal (issue 8). A benchmark, never a test: bench/run.py runs it
 * from `ninja bench`. Exits 1 when the simulation fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arch.h"
#include "ir.h"
#include "simt/simt.h"

#define GOAL_RATE 20e6
#define GOAL_SECONDS 1.0

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void print_diags(const struct px_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		fprintf(stderr, "simt_bench: %s:%u: %s\n", d->items[i].file ? d->items[i].file : "?",
		        d->items[i].line, d->items[i].message);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "tests/fixtures/simt/simt_bench.sm_90.ptx";
	const char *kernel = argc > 2 ? argv[2] : "fp32_tput";
	long n = argc > 3 ? strtol(argv[3], NULL, 10) : 2000;
	int repeats = argc > 4 ? atoi(argv[4]) : 3;
	if (n <= 0 || repeats <= 0) {
		fprintf(stderr, "usage: simt_bench [FILE.ptx [KERNEL [N [REPEATS]]]]\n");
		return 2;
	}
	size_t len = 0;
	char *err = NULL;
	char *text = px_read_file(path, &len, &err);
	if (!text) {
		fprintf(stderr, "simt_bench: %s: %s\n", path, err ? err : "cannot read");
		free(err);
		return 1;
	}
	int rc = 0;
	struct px_diags diags = {0};
	struct px_archset *archs = px_archset_new(&diags);
	const struct px_arch *arch = archs ? px_archset_find(archs, "sm_90") : NULL;
	if (!arch) {
		print_diags(&diags);
		fprintf(stderr, "simt_bench: no sm_90 table\n");
		rc = 1;
		goto out;
	}
	const char *kernels[] = {kernel, NULL};
	struct px_param_value params[] = {{"2", n}};
	struct px_simt_options opt = {0};
	opt.kernels = kernels;
	opt.block[0] = 256;
	opt.params = params;
	opt.nparams = 1;
	opt.arch = arch;
	double best = -1, iters = 0;
	uint64_t insns = 0, cycles = 0;
	for (int r = 0; r < repeats; r++) {
		/* the module takes the text (freed with the result): a copy each run */
		char *copy = malloc(len + 1);
		if (!copy) {
			rc = 1;
			break;
		}
		memcpy(copy, text, len + 1);
		struct px_simt_result res = {0};
		double t0 = now();
		bool ok = px_simt_file(path, copy, len, &opt, &res, &diags);
		double t = now() - t0;
		if (!ok || !res.completed) {
			print_diags(&diags);
			fprintf(stderr, "simt_bench: %s %s: the simulation %s\n", path, kernel,
			        ok ? "did not complete" : "failed");
			px_simt_result_free(&res);
			rc = 1;
			break;
		}
		if (best < 0 || t < best)
			best = t;
		insns = res.warp_insns;
		cycles = res.cycles;
		iters = 0;
		for (uint32_t i = 0; i < res.nloops; i++)
			if (res.loops[i].iterations > iters)
				iters = res.loops[i].iterations;
		px_simt_result_free(&res);   /* frees copy with the module */
	}
	if (rc == 0) {
		double rate = (double)insns / best;
		printf("simt            %s %s, block 256, N=%ld: %.0f loop iterations, %llu warp-instructions, %llu cycles\n",
		       path, kernel, n, iters, (unsigned long long)insns, (unsigned long long)cycles);
		printf("simt time       %.3f s best of %d   (goal <= %.0f s: %s)\n", best, repeats,
		       GOAL_SECONDS, best <= GOAL_SECONDS ? "met" : "NOT met");
		printf("simt rate       %.2f M warp-instructions/s   (goal >= %.0f M: %s)\n", rate / 1e6,
		       GOAL_RATE / 1e6, rate >= GOAL_RATE ? "met" : "NOT met");
	}
out:
	px_diags_free(&diags);
	if (archs)
		px_archset_delete(archs);
	free(text);
	return rc;
}
