/* cmd_arch.c: `ptxray arch list|show`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cmd_arch(int argc, char **argv)
{
	const char **dirs = xcalloc((size_t)argc + 1, sizeof *dirs);
	size_t ndirs = 0;
	const char *verb = NULL, *name = NULL;
	int rc = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(find_command("arch")->usage, stdout);
			goto out;
		} else if ((v = opt_value(argc, argv, &i, "--arch-dir"))) {
			dirs[ndirs++] = v;
		} else if (a[0] == '-' && a[1]) {
			rc = bad_usage("unknown option '%s' (see ptxray arch --help)", a);
			goto out;
		} else if (!verb) {
			verb = a;
		} else if (!name) {
			name = a;
		} else {
			rc = bad_usage("unexpected argument '%s' (see ptxray arch --help)", a);
			goto out;
		}
	}
	if (!verb || (strcmp(verb, "list") != 0 && strcmp(verb, "show") != 0)) {
		rc = bad_usage("%s", "expected 'list' or 'show NAME' (see ptxray arch --help)");
		goto out;
	}
	if ((strcmp(verb, "show") == 0) != (name != NULL)) {
		rc = bad_usage("%s", name ? "'list' takes no name" : "'show' needs a name, e.g. sm_90");
		goto out;
	}
	struct px_diags diags = {0};
	struct px_archset *set = load_archs(dirs, ndirs, &diags);
	render_diags(stderr, &diags, NULL, 0);
	px_diags_free(&diags);
	if (!set) {
		rc = 2;
		goto out;
	}
	struct px_buf b = {0};
	if (name) {
		const struct px_arch *a = px_archset_find(set, name);
		if (!a) {
			rc = bad_usage("unknown arch '%s' (see ptxray arch list)", name);
		} else {
			px_arch_show(&b, a);
			rc = write_out(&b);
		}
	} else {
		px_buf_printf(&b, "%-7s %-4s %7s %6s %7s %8s %9s %9s  %s\n", "name", "cc", "threads", "blocks",
		              "regs", "smem/SM", "smem/blk", "carveouts", "table");
		for (size_t i = 0; i < px_archset_count(set); i++) {
			const struct px_arch *a = px_archset_at(set, i);
			char cc[8];
			snprintf(cc, sizeof cc, "%u.%u", a->major, a->minor);
			px_buf_printf(&b, "%-7s %-4s %7u %6u %7u %7uK %8uK %9u  %s\n", a->name, cc,
			              a->max_threads_per_sm, a->max_blocks_per_sm, a->registers_per_sm,
			              a->shared_per_sm / 1024, a->shared_per_block_optin / 1024, a->ncarveouts,
			              a->path);
		}
		rc = write_out(&b);
	}
	px_archset_delete(set);
out:
	free(dirs);
	return rc;
}
