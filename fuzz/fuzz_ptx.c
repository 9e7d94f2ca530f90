/* fuzz_ptx.c: libFuzzer target for the PTX front end (analyzer/ptx) and the
 * analysis pipeline with the IR verifier. Inputs of odd length go through
 * the streaming parser (px_ptx_parse_hooked: each body analysed and dropped
 * as it arrives, as `ptxray report` does); even ones through the
 * whole-module parser and px_pipeline_run. Any input must end in a module
 * plus located diagnostics: never a crash, a hang or an out-of-bounds read. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static void on_function(void *ctx, struct px_module *m, uint32_t i)
{
	struct px_diags *d = ctx;
	px_pipeline_run_func(m, &m->funcs[i], d, true);
	px_func_drop_body(&m->funcs[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	struct px_diags d = {0};
	struct px_module *m;
	if (size & 1) {
		struct px_parse_hook hook = {.function = on_function, .ctx = &d, .body_arenas = true};
		m = px_ptx_parse_hooked("fuzz.ptx", text, size, &d, &hook);
	} else {
		m = px_ptx_parse("fuzz.ptx", text, size, &d);
	}
	for (size_t i = 0; i < d.n; i++)
		if (d.items[i].severity == PX_ERROR && (d.items[i].line == 0 || d.items[i].column == 0))
			abort();  /* every parse error must be located */
	if (d.errors == 0 && !(size & 1))
		px_pipeline_run(m, &d, true);
	px_module_delete(m);
	px_diags_free(&d);
	return 0;
}
