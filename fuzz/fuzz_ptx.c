/* fuzz_ptx.c: libFuzzer target for the PTX front end (analyzer/ptx) and,
 * when the input parses cleanly, the analysis pipeline with the IR verifier.
 * Any input must end in a module plus located diagnostics: never a crash, a
 * hang or an out-of-bounds read. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	struct px_diags d = {0};
	struct px_module *m = px_ptx_parse("fuzz.ptx", text, size, &d);
	for (size_t i = 0; i < d.n; i++)
		if (d.items[i].severity == PX_ERROR && (d.items[i].line == 0 || d.items[i].column == 0))
			abort();  /* every parse error must be located */
	if (d.errors == 0)
		px_pipeline_run(m, &d, true);
	px_module_delete(m);
	px_diags_free(&d);
	return 0;
}
