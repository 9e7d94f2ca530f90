/* cuda_bench.c: the CUDA front end alone, for bench/cuda_corpus.py and
 * bench/run.py: parses each .cu/.cuh file given and runs the source
 * analyses (no nvcc), printing one line per file:
 *   FILE kernels=N clean=N skipped=N findings=N ms=T
 * and with -v the findings themselves (path:line:col: severity: msg [rule]).
 * Timing is wall-clock around parse + check, per file. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cuda/cuda.h"

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	bool verbose = false;
	int rc = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v")) {
			verbose = true;
			continue;
		}
		size_t len;
		char *err = NULL;
		char *text = px_read_file(argv[i], &len, &err);
		if (!text) {
			fprintf(stderr, "%s: error: cannot read: %s\n", argv[i], err);
			free(err);
			rc = 2;
			continue;
		}
		struct px_diags diags = {0};
		struct px_cuda_options opt = {0};
		double t0 = now_ms();
		struct px_cuda_file *f = px_cuda_parse(argv[i], text, len, &opt, &diags);
		struct px_cuda_results res = {0};
		if (f)
			px_cuda_check(f, &opt, NULL, 0, &res);
		double t1 = now_ms();
		if (f) {
			printf("%s kernels=%u clean=%u skipped=%u findings=%zu ms=%.2f\n", argv[i], f->nkernels,
			       f->nkernels_clean, f->nskipped, res.n, t1 - t0);
			if (verbose) {
				px_cuda_results_to_diags(f, &res, &diags);
				px_diags_sort(&diags);
				for (size_t k = 0; k < diags.n; k++)
					printf("%s:%u:%u: %s: %s%s%s%s\n", diags.items[k].file, diags.items[k].line,
					       diags.items[k].column, px_severity_name(diags.items[k].severity),
					       diags.items[k].message, diags.items[k].rule ? " [" : "",
					       diags.items[k].rule ? diags.items[k].rule : "", diags.items[k].rule ? "]" : "");
			}
		}
		px_cuda_results_free(&res);
		px_cuda_file_delete(f);
		px_diags_free(&diags);
		free(text);
	}
	return rc;
}
