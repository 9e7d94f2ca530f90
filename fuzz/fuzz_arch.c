/* fuzz_arch.c: libFuzzer target for the arch table loader (arch/arch.c),
 * which must answer any text with a table or located errors, never a crash.
 * A table that loads is also rendered (px_arch_show) and re-parsed, and must
 * load again; its occupancy is computed for a few configurations. Seeds:
 * arch/sm_*.yaml. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "ir.h"
#include "occupancy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct px_arena *arena = px_arena_new();
	struct px_diags diags = {0};
	struct px_arch a;
	if (px_arch_parse("fuzz.yaml", (const char *)data, size, arena, &a, &diags)) {
		struct px_buf out = {0};
		px_arch_show(&out, &a);
		struct px_arch b;
		if (!px_arch_parse("shown.yaml", out.p, out.n, arena, &b, &diags))
			abort();   /* what show writes must load */
		px_buf_free(&out);
		static const uint32_t threads[] = {1, 32, 255, 1024, 4096};
		for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
			struct px_occ_query q = {.threads = threads[i], .registers = 32, .shared = 1000,
			                         .dynamic_shared = 70000, .carveout = 37, .optin = i & 1,
			                         .barriers = 1};
			struct px_occ_result r;
			struct px_occ_advice adv;
			if (px_occ_check(&a, &q))
				continue;
			px_occ_compute(&a, &q, &r);
			px_occ_advise(&a, &q, &r, NULL, &adv);
		}
	}
	px_diags_free(&diags);
	px_arena_delete(arena);
	return 0;
}
