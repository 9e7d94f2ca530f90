/* cmd_compat.c: `ptxray compat`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* ---- compat ---- */

/* Fills targets[] from --arch LIST; false (and a usage message) on a bad name. */
static bool compat_targets(const struct px_ftable *tab, const char *list, uint32_t **out, uint32_t *n)
{
	uint32_t cap = 0;
	*out = NULL;
	*n = 0;
	const char *p = list;
	while (*p) {
		size_t len = strcspn(p, ",");
		bool all = len == 3 && strncmp(p, "all", 3) == 0;
		bool ptxas = len == 5 && strncmp(p, "ptxas", 5) == 0;
		if (all || ptxas) {
			for (uint32_t t = 0; t < tab->ntargets; t++)
				if (all || tab->targets[t].ptxas)
					*PX_VEC_PUSH(*out, *n, cap) = t;
		} else {
			int32_t t = px_ftable_find_target(tab, p, len);
			if (t < 0) {
				char *name = xstrndup(p, len);
				bad_usage("unknown target '%s' (see ptxray compat --list-features)", name);
				free(name);
				return false;
			}
			*PX_VEC_PUSH(*out, *n, cap) = (uint32_t)t;
		}
		p += len + (p[len] == ',');
	}
	if (!*n) {
		bad_usage("%s", "--arch needs at least one target");
		return false;
	}
	return true;
}

int cmd_compat(int argc, char **argv)
{
	const char *format = "text", *arch = "all", *table = NULL;
	bool any_version = false, list = false, no_compile = false;
	const char *nvcc_given = NULL, *build_dir = NULL;
	char *nvcc = NULL, *cache = NULL;
	struct px_cuda_nvcc nb = {0};
	const char **files = xcalloc((size_t)argc + 1, sizeof *files);
	size_t nfiles = 0;
	int rc = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(find_command("compat")->usage, stdout);
			goto out;
		} else if ((v = opt_value(argc, argv, &i, "--format"))) {
			if (strcmp(v, "text") && strcmp(v, "json")) {
				rc = bad_usage("unknown format '%s' (text, json)", v);
				goto out;
			}
			format = v;
		} else if ((v = opt_value(argc, argv, &i, "--arch"))) {
			arch = v;
		} else if ((v = opt_value(argc, argv, &i, "--table"))) {
			table = v;
		} else if (strcmp(a, "--any-version") == 0) {
			any_version = true;
		} else if ((v = opt_value(argc, argv, &i, "--nvcc"))) {
			nvcc_given = v;
		} else if ((v = opt_value(argc, argv, &i, "-p"))) {
			build_dir = v;
		} else if (strcmp(a, "--no-compile") == 0) {
			no_compile = true;
		} else if (strcmp(a, "--list-features") == 0) {
			list = true;
		} else if (a[0] == '-' && a[1]) {
			rc = bad_usage("unknown option '%s' (see ptxray compat --help)", a);
			goto out;
		} else {
			files[nfiles++] = a;
		}
	}
	if (!nfiles && !list) {
		rc = bad_usage("%s", "no input files (see ptxray compat --help)");
		goto out;
	}
	struct px_diags diags = {0};
	struct px_ftable *tab = NULL;
	if (table) {
		size_t len = 0;
		char *err = NULL;
		char *text = px_read_file(table, &len, &err);
		if (!text) {
			px_diag_add(&diags, PX_ERROR, table, 0, 0, NULL, "cannot read: %s", err);
			free(err);
		} else {
			tab = px_ftable_parse(table, text, len, &diags);
			free(text);
		}
	} else {
		tab = px_ftable_builtin(&diags);
	}
	if (!tab) {
		render_diags(stderr, &diags, NULL, 0);
		px_diags_free(&diags);
		rc = 2;
		goto out;
	}
	if (list) {
		struct px_buf out = {0};
		if (strcmp(format, "json") == 0)
			px_ftable_json(&out, tab);
		else
			px_ftable_text(&out, tab);
		rc = write_out(&out);
		px_ftable_delete(tab);
		px_diags_free(&diags);
		goto out;
	}
	struct px_compat_options opt = {.any_version = any_version};
	uint32_t *targets = NULL, ntargets = 0;
	if (!compat_targets(tab, arch, &targets, &ntargets)) {
		px_ftable_delete(tab);
		px_diags_free(&diags);
		rc = 2;
		goto out;
	}
	opt.targets = targets;
	opt.ntargets = ntargets;
	struct px_compat_file *res = xcalloc(nfiles, sizeof *res);
	struct source *srcs = xcalloc(nfiles, sizeof *srcs);
	bool failed = false, fails = false;
	for (size_t f = 0; f < nfiles; f++) {
		size_t len = strlen(files[f]);
		if ((len > 3 && strcmp(files[f] + len - 3, ".cu") == 0) ||
		    (len > 4 && strcmp(files[f] + len - 4, ".cuh") == 0)) {
			/* CUDA: through the nvcc bridge, one compilation per target */
			if (no_compile) {
				px_diag_add(&diags, PX_ERROR, files[f], 0, 0, NULL,
				            "compat judges PTX and --no-compile leaves this CUDA source without any: "
				            "drop --no-compile, or pass the .ptx");
				failed = true;
				continue;
			}
			if (!nvcc) {
				nvcc = px_cuda_find_nvcc(nvcc_given);
				if (!nvcc) {
					if (nvcc_given)
						px_diag_add(&diags, PX_ERROR, files[f], 0, 0, NULL,
						            "--nvcc '%s': not an executable file", nvcc_given);
					else
						px_diag_add(&diags, PX_ERROR, files[f], 0, 0, NULL,
						            "compat judges PTX and no nvcc was found to compile this CUDA "
						            "source (give --nvcc PATH or set CUDA_HOME), or pass the .ptx");
					failed = true;
					continue;
				}
				cache = px_cuda_cache_dir();
				nb.nvcc = nvcc;
				nb.build_dir = build_dir;
				nb.cache_dir = cache;
			}
			char *err = NULL;
			char *text = px_read_file(files[f], &len, &err);
			if (!text) {
				px_diag_add(&diags, PX_ERROR, files[f], 0, 0, NULL, "cannot read: %s", err);
				free(err);
				failed = true;
				continue;
			}
			if (!px_compat_cuda(files[f], text, len, &nb, tab, &opt, &res[f], &diags))
				failed = true;
			free(text);
			fails |= res[f].any_fails;
			continue;
		}
		char *err = NULL;
		char *text = px_read_file(files[f], &len, &err);
		if (!text) {
			px_diag_add(&diags, PX_ERROR, files[f], 0, 0, NULL, "cannot read: %s", err);
			free(err);
			failed = true;
			continue;
		}
		srcs[f].path = files[f];
		srcs[f].text = text;  /* owned by the module once parsed */
		srcs[f].len = len;
		if (!px_compat_file(files[f], text, len, tab, &opt, &res[f], &diags))
			failed = true;
		fails |= res[f].any_fails;
	}
	render_diags(stderr, &diags, srcs, nfiles);
	if (failed) {
		rc = 2;
	} else {
		struct px_buf out = {0};
		if (strcmp(format, "json") == 0)
			px_compat_json(&out, tab, &opt, res, nfiles);
		else
			px_compat_text(&out, tab, &opt, res, nfiles);
		rc = write_out(&out);
		if (!rc && fails)
			rc = 1;
	}
	for (size_t f = 0; f < nfiles; f++)
		px_compat_file_free(&res[f]);
	free(res);
	free(srcs);
	free(targets);
	px_diags_free(&diags);
	px_ftable_delete(tab);
out:
	free(nvcc);
	free(cache);
	free(files);
	return rc;
}
