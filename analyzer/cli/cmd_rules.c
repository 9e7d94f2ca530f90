/* cmd_rules.c: `ptxray rules [ID]` and `--man`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cmd_rules(int argc, char **argv)
{
	const char *id = NULL;
	bool man = false;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(find_command("rules")->usage, stdout);
			return 0;
		} else if (strcmp(argv[i], "--man") == 0) {
			man = true;
		} else if (argv[i][0] == '-') {
			return bad_usage("unknown option '%s' (see ptxray rules --help)", argv[i]);
		} else if (!id) {
			id = argv[i];
		} else {
			return bad_usage("unexpected argument '%s': one rule at a time", argv[i]);
		}
	}
	struct px_buf b = {0};
	if (man) {
		if (id)
			return bad_usage("%s", "--man prints the whole catalogue: no ID");
		px_rules_man(&b, "2026", PX_VERSION);
	} else if (id) {
		const struct px_rule *r = px_rule_find(id);
		if (!r)
			return bad_usage("unknown rule '%s' (see ptxray rules)", id);
		px_rule_doc(&b, r);
	} else {
		px_rules_list(&b);
	}
	return write_out(&b);
}

/* ---- ptxray lint ---- */
