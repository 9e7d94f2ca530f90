/* fuzz_report.c: libFuzzer target for the whole `ptxray report` pipeline:
 * parse, every pass, the per-kernel report (resources, register estimate,
 * spills, accesses, branches, loops, occupancy from the embedded arch
 * tables) and both renderers (JSON and text), through px_report_file as
 * `ptxray report` calls it, and through the public API (include/ptxray.h)
 * for one input in four. The first byte picks the options: a launch block,
 * an --arch, the --dump passes. Any input must end in a report or located
 * errors: never a crash, a hang, a leak or an out-of-bounds read.
 * Seeds: the project's .ptx fixtures and examples. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptxray.h"
#include "arch.h"
#include "ir.h"
#include "report.h"

static struct px_archset *archs;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t sel = data[0];
	data++;
	size--;
	if (!archs) {
		struct px_diags d = {0};
		archs = px_archset_new(&d);  /* kept for the whole run */
		px_diags_free(&d);
		if (!archs)
			abort();
	}
	if ((sel & 3) == 3) {  /* the public API */
		ptxray_report_options o = {.block = {sel & 4 ? 256 : 0, 1, 1}};
		char *errors = NULL;
		ptxray_report *r = ptxray_report_new("fuzz.ptx", (const char *)data, size, &o, &errors);
		if (r) {
			for (size_t i = 0; i < ptxray_report_kernel_count(r); i++)
				if (!ptxray_report_kernel_name(r, i))
					abort();
			free(ptxray_report_json(r));
		} else if (!errors) {
			abort();  /* a rejected input must say why */
		}
		free(errors);
		ptxray_report_delete(r);
		return 0;
	}
	static const char *const arch_names[] = {NULL, "sm_80", "sm_90", "sm_75"};
	struct px_report_options opt = {0};
	opt.archs = archs;
	opt.arch = arch_names[(sel >> 2) & 3];
	if (sel & 16) {
		opt.block[0] = 128;
		opt.block[1] = opt.block[2] = 1;
	}
	if (sel & 32)
		opt.dump = "operands,cfg,dom,postdom,loops,live,mentions,affine,uniform,access,events";
	char *text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	struct px_diags d = {0};
	struct px_file_report rep = {0};
	bool ok = px_report_file("fuzz.ptx", text, size, &opt, &rep, &d);
	for (size_t i = 0; i < d.n; i++)
		if (d.items[i].severity == PX_ERROR && (d.items[i].line == 0 || d.items[i].column == 0))
			abort();  /* every error must be located */
	if (ok) {
		struct px_buf out = {0};
		if (sel & 64)
			px_report_text(&out, &rep, 1);
		else
			px_report_json(&out, &rep, 1);
		px_buf_free(&out);
	} else if (d.errors == 0) {
		abort();  /* rejected without an error */
	}
	if (rep.module)
		px_file_report_free(&rep);
	else
		free(text);
	px_diags_free(&d);
	return 0;
}
