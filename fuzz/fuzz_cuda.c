/* fuzz_cuda.c: libFuzzer target for the CUDA front end: the pre-pass,
 * tree-sitter parse, extraction and constant folding, the annotations
 * (launch/hot/assume/ptxray-ignore) and the source analyses
 * (px_cuda_check without arch tables), then the compile_commands.json
 * reader (px_cuda_compile_db_parse) on the same bytes. Any input must
 * neither crash nor hang; the findings are dropped. */
#include <stdint.h>
#include <string.h>

#include "cuda/cuda.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16)
		return 0;
	struct px_diags diags = {0};
	static const char *const defines[] = {"BLOCK=256", "TILE=32"};
	struct px_cuda_options opt = {.defines = defines, .ndefines = 2};
	struct px_cuda_file *f = px_cuda_parse("fuzz.cu", (const char *)data, size, &opt, &diags);
	if (f) {
		struct px_cuda_results res = {0};
		px_cuda_check(f, &opt, NULL, 0, &res);
		px_cuda_results_to_diags(f, &res, &diags);
		px_cuda_results_free(&res);
		px_cuda_file_delete(f);
	}
	struct px_cuda_flags fl = {0};
	px_cuda_compile_db_parse("compile_commands.json", (const char *)data, size, "/nonexistent/k.cu", &fl, &diags);
	px_cuda_flags_free(&fl);
	px_diags_free(&diags);
	return 0;
}
