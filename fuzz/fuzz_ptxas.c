/* fuzz_ptxas.c: libFuzzer target for the reader of `ptxas -v` output, which
 * must take any text (a future ptxas may print anything). */
#include <stdint.h>
#include <string.h>

#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	struct px_ptxas_result r = {0};
	px_ptxas_parse(text, &r);
	px_ptxas_result_free(&r);
	free(text);
	return 0;
}
