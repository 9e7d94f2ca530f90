/* fuzz_ftable.c: libFuzzer target for the PTX feature-table loader
 * (arch/ftable.c), which must answer any text with a table or located
 * errors, never a crash. A table that loads is also exercised: every
 * feature's availability on every target and version, the requirement
 * text, the matcher on a few instruction spellings, and the --list-features
 * renderers. Seed: arch/ptx-features.yaml. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct px_diags diags = {0};
	struct px_ftable *t = px_ftable_parse("fuzz.yaml", (const char *)data, size, &diags);
	if (t) {
		for (uint32_t f = 0; f < t->nfeatures; f++) {
			char req[160];
			px_feature_requires(t, &t->features[f], req, sizeof req);
			for (uint32_t g = 0; g < t->ntargets; g++) {
				uint32_t need = px_feature_ptx_on(t, &t->features[f], g);
				if (need && !px_feature_ok(t, &t->features[f], g, need) &&
				    !t->features[f].removed_target)
					abort();   /* the version it needs must be enough */
			}
		}
		static const char *const spell[][2] = {
			{"cp", ".async.bulk.tensor.2d.shared::cluster.global"}, {"ld", ".global.v8.f32"},
			{"mma", ".sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"}, {"add", ""},
		};
		for (size_t i = 0; i < sizeof spell / sizeof *spell; i++) {
			uint32_t out[8];
			uint32_t n = px_ftable_match_insn(t, px_str_c(spell[i][0]), px_str_c(spell[i][1]),
			                                  out, 8);
			for (uint32_t k = 0; k < n && k < 8; k++)
				if (out[k] >= t->nfeatures)
					abort();
		}
		struct px_buf b = {0};
		px_ftable_text(&b, t);
		px_ftable_json(&b, t);
		px_buf_free(&b);
		px_ftable_delete(t);
	}
	px_diags_free(&diags);
	return 0;
}
