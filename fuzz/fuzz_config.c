/* fuzz_config.c: libFuzzer target for the lint loaders of rules/: the
 * .ptxray.yaml parser (config.c), the baseline reader and the suppression
 * scanner (lint.c). Each must answer any text with a result or located
 * errors, never a crash. A configuration that loads is resolved for a few
 * paths (globs, overrides) and shown (--show-config); a suppression list is
 * matched. The first byte picks the loader. Seeds: the .yaml files under
 * tests/golden/rules/ and man/ptxray-config.5's example. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const char *text = (const char *)data + 1;
	size_t len = size - 1;
	struct px_diags diags = {0};
	switch (data[0] % 3) {
	case 0: {
		struct px_config *c = px_config_parse("dir/.ptxray.yaml", text, len, &diags);
		if (c) {
			static const char *const paths[] = {"dir/a.ptx", "dir/legacy/x/b.ptx", "c.ptx",
			                                    "dir/third_party/d.ptx"};
			for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
				struct px_effective e;
				px_config_effective(c, paths[i], &e);
				struct px_buf out = {0};
				px_effective_show(&out, &e, paths[i]);
				px_buf_free(&out);
				px_effective_free(&e);
			}
			px_config_delete(c);
		}
		break;
	}
	case 1: {
		struct px_baseline *b = px_baseline_parse("base.txt", text, len, &diags);
		px_baseline_delete(b);
		break;
	}
	default: {
		struct px_suppressions s = {0};
		px_suppressions_scan(&s, text, len);
		for (uint32_t line = 0; line < 8; line++)
			px_suppressions_match(&s, "shared-bank-conflict", line);
		px_suppressions_free(&s);
		break;
	}
	}
	px_diags_free(&diags);
	return 0;
}
