/* fuzz_simt.c: libFuzzer target for `ptxray simt`: parse, the pass pipeline
 * at a launch block, and the cycle-level simulation of every kernel of the
 * input (the interpreter, the SIMT stack, the scoreboard and memory model,
 * the verifier checks), then both renderers. The first byte picks the block
 * (1-D, 2-D, odd sizes), a kernel parameter's value and the loop choice; the
 * budget is small so that one input stays fast. Any input must end in a
 * result or located errors: never a crash, a hang, a leak or an
 * out-of-bounds read. Seeds: the project's .ptx fixtures and examples. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "ir.h"
#include "simt/simt.h"
#include "util.h"

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
	static const uint32_t blocks[8][3] = {{32, 1, 1}, {64, 1, 1}, {256, 1, 1}, {96, 2, 1},
	                                      {16, 16, 1}, {33, 1, 1}, {8, 4, 2}, {1, 1, 1}};
	struct px_param_value pv = {.name = "1", .value = (sel & 8) ? 200 : 7};
	struct px_simt_options opt = {0};
	memcpy(opt.block, blocks[sel & 7], sizeof opt.block);
	opt.params = &pv;
	opt.nparams = (sel & 16) ? 1 : 0;
	opt.loop = (sel & 32) ? "all" : NULL;
	opt.iters = 4;
	opt.budget = 20000;
	opt.arch = px_archset_find(archs, (sel & 64) ? "sm_80" : "sm_90");
	if (!opt.arch)
		abort();
	char *text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	struct px_diags d = {0};
	struct px_module *m = px_ptx_parse("fuzz.ptx", text, size, &d);
	if (d.errors == 0) {
		for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
			if (!m->funcs[fi].is_entry || !m->funcs[fi].has_body)
				continue;
			struct px_simt_result r;
			size_t before = d.errors;
			if (px_simt_func(m, fi, "fuzz.ptx", &opt, &r, &d)) {
				struct px_buf out = {0};
				if (sel & 128)
					px_simt_text(&out, &r);
				else
					px_simt_json(&out, &r);
				px_buf_free(&out);
			} else if (d.errors == before && d.n == 0) {
				abort();  /* refused without saying why */
			}
			px_simt_result_free(&r);
		}
	}
	for (size_t i = 0; i < d.n; i++)
		if (d.items[i].severity == PX_ERROR && (d.items[i].line == 0 || d.items[i].column == 0))
			abort();  /* every error must be located */
	px_module_delete(m);
	px_diags_free(&d);
	return 0;
}
