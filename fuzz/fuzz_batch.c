/* fuzz_batch.c: libFuzzer target for the `ptxray occupancy --batch` line
 * reader (occupancy/occ_query.c px_occ_parse_line) and what a batch does
 * with each line, as analyzer/main.c occ_batch does: split at newlines,
 * parse, look the arch up, check, compute, advise and render JSON and text.
 * A rejected line must give a column inside the line (or one past its end)
 * and a reason. Seeds: the project's batch fixtures. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "ir.h"
#include "occupancy.h"
#include "report.h"

static struct px_archset *archs;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!archs) {
		struct px_diags d = {0};
		archs = px_archset_new(&d);  /* kept for the whole run */
		px_diags_free(&d);
		if (!archs)
			abort();
	}
	/* a copy without a terminator: reads past the end are caught */
	char *text = xmalloc(size ? size : 1);
	memcpy(text, data, size);
	struct px_buf b = {0};
	for (const char *p = text, *end = text + size; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		char arch[32], why[160];
		uint32_t col = 0;
		struct px_occ_query q;
		why[0] = 0;
		if (!px_occ_parse_line(p, (size_t)(le - p), arch, sizeof arch, &q, &col, why, sizeof why)) {
			(void)why;
			if (col == 0 || col > (size_t)(le - p) + 1)
				abort();  /* the column must point into the line */
		} else {
			if (!memchr(arch, 0, sizeof arch))
				abort();
			const struct px_arch *a = px_archset_find(archs, arch);
			if (a && !px_occ_check(a, &q)) {
				struct px_occ_result r;
				struct px_occ_advice adv;
				px_occ_compute(a, &q, &r);
				px_occ_advise(a, &q, &r, NULL, &adv);
				struct px_json j = {.out = &b, .pretty = false};
				px_occ_json(&j, a, &q, &r, &adv);
				px_occ_text(&b, a, &q, &r, &adv);
			}
		}
		p = nl ? nl + 1 : end;
	}
	px_buf_free(&b);
	free(text);
	return 0;
}
