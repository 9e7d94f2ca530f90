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

/* One PTX file under -j N: read and judged on a pool thread, its
 * diagnostics merged in file order afterwards. */
struct compat_job {
	struct px_task t;           /* first: the pool hands it back */
	const char *path;
	const struct px_ftable *tab;
	const struct px_compat_options *opt;
	struct px_compat_file *res;
	struct px_diags diags;
	char *text;                 /* owned by the module once parsed */
	size_t len;
	bool ok, read;
	bool mapped;                /* px_map_file mapped it */
};

static void compat_job_run(struct px_task *t, unsigned slot)
{
	struct compat_job *j = (struct compat_job *)t;
	(void)slot;
	char *err = NULL;
	/* mapped, so the parser can give back the pages behind it */
	j->text = px_map_file(j->path, &j->len, &j->mapped, &err);
	if (!j->text) {
		px_diag_add(&j->diags, PX_ERROR, j->path, 0, 0, NULL, "cannot read: %s", err);
		free(err);
		return;
	}
	j->read = true;
	struct px_compat_options o = *j->opt;
	o.text_mapped = j->mapped;
	j->ok = px_compat_file(j->path, j->text, j->len, j->tab, &o, j->res, &j->diags);
}

static bool is_cuda(const char *p)
{
	size_t len = strlen(p);
	return (len > 3 && strcmp(p + len - 3, ".cu") == 0) || (len > 4 && strcmp(p + len - 4, ".cuh") == 0);
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
	unsigned jobs = px_cpu_count();
	int rc = 0, r;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(find_command("compat")->usage, stdout);
			goto out;
		} else if ((r = format_option(argc, argv, &i, text_json, &format)) ||
		           (r = jobs_option(argc, argv, &i, &jobs))) {
			if (r < 0) {
				rc = 2;
				goto out;
			}
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
	/* PTX files on the pool; CUDA sources (nvcc) here, in order */
	struct px_pool *pool = jobs > 1 ? px_pool_new(jobs) : NULL;
	struct compat_job *jl = xcalloc(nfiles, sizeof *jl);
	for (size_t f = 0; f < nfiles; f++) {
		jl[f] = (struct compat_job){.t = {.run = compat_job_run, .heavy = true}, .path = files[f],
		                            .tab = tab, .opt = &opt, .res = &res[f]};
		if (pool && !is_cuda(files[f]))
			px_pool_submit(pool, &jl[f].t);
	}
	for (size_t f = 0; f < nfiles; f++) {
		size_t len = strlen(files[f]);
		if (is_cuda(files[f])) {
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
		struct compat_job *j = &jl[f];
		if (pool)
			px_pool_wait(pool, &j->t, NULL);
		else
			compat_job_run(&j->t, 0);
		for (size_t k = 0; k < j->diags.n; k++) {
			const struct px_diag *g = &j->diags.items[k];
			px_diag_add(&diags, g->severity, g->file, g->line, g->column, g->rule, "%s", g->message);
		}
		px_diags_free(&j->diags);
		if (!j->read) {
			failed = true;
			continue;
		}
		srcs[f].path = files[f];
		srcs[f].text = j->text;  /* owned by the module once parsed */
		srcs[f].len = j->len;
		if (!j->ok)
			failed = true;
		fails |= res[f].any_fails;
	}
	free(jl);
	px_pool_delete(pool);
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
