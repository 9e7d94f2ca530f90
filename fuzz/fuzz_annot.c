/* fuzz_annot.c: libFuzzer target for the annotation parsers: the CUDA
 * front end's `// ptxray: launch|hot|assume` and `ptxray-ignore[-file]`
 * comments (analyzer/cuda/cuda_annot.c, reached through px_cuda_parse),
 * their use by lint (rules/lint_cuda.c: suppressions copied into the lint
 * list, bad-annotation checks, the source checks with the annotated launch
 * block, suppressions applied) and the PTX suppression scanner
 * (rules/lint.c, px_suppressions_scan) with the same checks. Any input must
 * end in findings or bad-annotation warnings, never a crash, a leak or a
 * hang.
 *
 * The first byte picks the shape of the source (the rest of the input is
 * the payload):
 *   even: each payload line becomes a comment (a line starting with '*' a
 *         block comment, one starting with '=' a trailing comment after
 *         code) between the lines of a fixed kernel with a loop, a barrier,
 *         shared and global accesses and a launch site, so that every
 *         placement rule (kernel within 3 lines, loop within 2, the next
 *         line with code) is reached;
 *   odd:  the payload is the whole .cu file.
 * Either way the same text is then scanned as a PTX file's suppressions.
 * Seeds: fuzz/run.py takes the annotation comments of the fixtures. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "checks.h"
#include "cuda/cuda.h"
#include "rules.h"

static struct px_archset *archs;  /* loaded once for the whole run */

static const char *const skeleton[] = {
	"#define TILE 32",
	"__global__ void __launch_bounds__(256) kern(float *out, const float *in, int n)",
	"{",
	"  __shared__ float tile[TILE][TILE + 1];",
	"  int x = blockIdx.x * TILE + threadIdx.x, y = threadIdx.y;",
	"  for (int j = 0; j < TILE; j += 8)",
	"    tile[y + j][threadIdx.x] = in[(y + j) * n + x];",
	"  if (threadIdx.x < 16)",
	"    __syncthreads();",
	"  while (n > 0) {",
	"    out[x * 33] = tile[threadIdx.x][y];",
	"    n--;",
	"  }",
	"}",
	"void host(float *a, float *b) { kern<<<dim3(4, 4), dim3(32, 8), 4096>>>(a, b, 128); }",
};

/* The source of the even shape (xmalloc'd, *len set). */
static char *interleave(const char *p, size_t n, size_t *len)
{
	struct px_buf b = {0};
	size_t k = 0, nsk = sizeof skeleton / sizeof *skeleton;
	const char *end = p + n;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		int w = (int)(le - p);
		if (w > 0 && *p == '*')
			px_buf_printf(&b, "/*%.*s*/\n", w - 1, p + 1);
		else if (w > 0 && *p == '=' && k < nsk)
			px_buf_printf(&b, "%s //%.*s\n", skeleton[k++], w - 1, p + 1);
		else
			px_buf_printf(&b, "//%.*s\n", w, p);
		if (k < nsk)
			px_buf_printf(&b, "%s\n", skeleton[k++]);
		p = nl ? nl + 1 : end;
	}
	while (k < nsk)
		px_buf_printf(&b, "%s\n", skeleton[k++]);
	px_buf_printf(&b, "%s", "");   /* NUL-terminated even when empty */
	*len = b.n;
	return b.p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 1 << 13)
		return 0;
	if (!archs) {
		struct px_diags d = {0};
		archs = px_archset_new(&d);
		px_diags_free(&d);
		if (!archs)
			abort();
	}
	const char *payload = (const char *)data + 1;
	size_t plen = size - 1, len;
	char *text;
	if (data[0] & 1) {
		text = malloc(plen + 1);
		memcpy(text, payload, plen);
		text[plen] = 0;
		len = plen;
	} else {
		text = interleave(payload, plen, &len);
	}

	struct px_diags diags = {0};
	struct px_config *cfg = px_config_default();
	struct px_effective eff;
	px_config_effective(cfg, "fuzz.cu", &eff);
	struct px_lint_options opt = {.archset = archs, .no_compile = true};
	struct px_lint_result out = {0};
	px_lint_cuda("fuzz.cu", text, len, cfg, &eff, &opt, &out, &diags);
	px_lint_result_free(&out);

	/* the same text as a PTX file's suppressions */
	struct px_suppressions s = {0};
	px_suppressions_scan(&s, text, len);
	struct px_lint_result mine = {0}, res = {0};
	px_lint_check_suppressions(&s, &eff, "fuzz.ptx", &mine);
	for (uint32_t line = 0; line < 16; line++)
		px_suppressions_match(&s, line & 1 ? "shared-bank-conflict" : "all", line);
	px_lint_apply_suppressions(&mine, &s, text, len, false, &res);
	px_lint_result_free(&mine);
	px_lint_result_free(&res);
	px_suppressions_free(&s);

	px_effective_free(&eff);
	px_config_delete(cfg);
	px_diags_free(&diags);
	free(text);
	return 0;
}
