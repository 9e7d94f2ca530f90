/* cmd_lint.c: `ptxray lint`: files and folders, -j N workers, baselines, formats. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dirent.h>
#include <sys/stat.h>

#include "cli.h"

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcmp(s + n - m, suf) == 0;
}

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends the .ptx, .cu and .cuh files under dir (sorted, recursive; hidden
 * folders skipped), counting the CUDA ones in *skipped_cu. */
static void walk_dir(const char *dir, char ***files, size_t *n, size_t *cap, size_t *skipped_cu)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	char **names = NULL;
	size_t nn = 0, nc = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		*PX_VEC_PUSH(names, nn, nc) = xstrdup(e->d_name);
	}
	closedir(d);
	if (nn)
		qsort(names, nn, sizeof *names, cmp_cstr);
	for (size_t i = 0; i < nn; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);
		struct stat st;
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			walk_dir(p, files, n, cap, skipped_cu);
			free(p);
		} else if (has_suffix(p, ".ptx") || has_suffix(p, ".cu") || has_suffix(p, ".cuh")) {
			if (!has_suffix(p, ".ptx"))
				++*skipped_cu;
			*PX_VEC_PUSH(*files, *n, *cap) = p;
		} else {
			free(p);
		}
		free(names[i]);
	}
	free(names);
}

/* One file: a heavy pool task under -j N (its functions are analysed on
 * the same pool); results merged in file order afterwards. */
struct lint_job {
	struct px_task t;           /* first: the pool hands it back */
	const char *path;
	const struct px_config *cfg;
	const struct px_lint_options *opt;
	struct px_lint_result res;
	struct px_diags diags;
	bool ok;
};

static void lint_job_run(struct px_task *t, unsigned slot)
{
	struct lint_job *j = (struct lint_job *)t;
	(void)slot;
	struct px_lint_options o = *j->opt;
	o.task = o.pool ? t : NULL;
	j->ok = px_lint_file(j->path, j->cfg, &o, &j->res, &j->diags);
}

static bool parse_severity_arg(const char *v, enum px_severity *out)
{
	if (strcmp(v, "error") == 0)
		*out = PX_ERROR;
	else if (strcmp(v, "warning") == 0)
		*out = PX_WARNING;
	else if (strcmp(v, "note") == 0)
		*out = PX_NOTE;
	else
		return false;
	return true;
}

int cmd_lint(int argc, char **argv)
{
	const char *format = "text", *config = NULL, *show = NULL, *baseline = NULL, *write_bl = NULL;
	const char **paths = xcalloc((size_t)argc + 1, sizeof *paths);
	const char **dirs = xcalloc((size_t)argc + 1, sizeof *dirs);
	char **archv = xcalloc((size_t)argc * 8 + 8, sizeof *archv);
	char **onlyv = xcalloc((size_t)argc * 8 + 8, sizeof *onlyv);
	uint32_t nonly = 0;
	struct px_param_value *params = xcalloc((size_t)argc + 1, sizeof *params);
	size_t npaths = 0, ndirs = 0;
	uint32_t narchs = 0, nparams = 0;
	unsigned jobs = px_cpu_count();
	bool have_fail_on = false;
	enum px_severity fail_on = PX_WARNING;
	struct px_lint_options opt = {0};
	int rc = 0;
	char **files = NULL;
	size_t nfiles = 0, capfiles = 0, skipped_cu = 0;
	struct px_archset *set = NULL;
	struct px_config_set *cs = NULL;
	struct px_ftable *ftab = NULL;
	struct lint_job *jl = NULL;
	struct px_diags diags = {0};
	const char *nvcc_given = NULL, *build_dir = NULL;
	char *nvcc = NULL, *cache = NULL;
	struct px_cuda_nvcc nb = {0};
	static const char *const formats[] = {"text", "json", "sarif", "github", NULL};
	/* lint takes no --grid: the grid comes from the configuration */
	struct launch_dest ld = {.block = opt.block, .params = params, .nparams = &nparams};
	int r;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(find_command("lint")->usage, stdout);
			goto out;
		} else if ((r = format_option(argc, argv, &i, formats, &format)) ||
		           (r = launch_option(argc, argv, &i, &ld)) || (r = jobs_option(argc, argv, &i, &jobs))) {
			if (r < 0) {
				rc = 2;
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--fail-on"))) {
			if (!parse_severity_arg(v, &fail_on)) {
				rc = bad_usage("bad --fail-on '%s': expected error, warning or note", v);
				goto out;
			}
			have_fail_on = true;
		} else if ((v = opt_value(argc, argv, &i, "--arch-dir"))) {
			dirs[ndirs++] = v;
		} else if ((v = opt_value(argc, argv, &i, "--arch"))) {
			for (const char *p = v; *p;) {
				size_t n = strcspn(p, ",");
				char *name = xstrndup(p, n);
				if (strncmp(name, "sm_", 3) != 0 || name[3] < '0' || name[3] > '9') {
					rc = bad_usage("bad --arch entry '%s': expected sm_XX", name);
					free(name);
					goto out;
				}
				archv[narchs++] = name;
				p += n + (p[n] == ',');
				if (narchs >= (uint32_t)argc * 8 + 7)
					break;
			}
		} else if ((v = opt_value(argc, argv, &i, "--config"))) {
			config = v;
		} else if ((v = opt_value(argc, argv, &i, "--only"))) {
			for (const char *p = v; *p;) {
				size_t n = strcspn(p, ",");
				char *id = xstrndup(p, n);
				if (!px_rule_find(id)) {
					rc = bad_usage("unknown rule '%s' in --only (see ptxray rules)", id);
					free(id);
					goto out;
				}
				if (nonly < (uint32_t)argc * 8 + 7)
					onlyv[nonly++] = id;
				else
					free(id);
				p += n + (p[n] == ',');
			}
		} else if ((v = opt_value(argc, argv, &i, "--show-config"))) {
			show = v;
		} else if ((v = opt_value(argc, argv, &i, "--baseline"))) {
			baseline = v;
		} else if ((v = opt_value(argc, argv, &i, "--write-baseline"))) {
			write_bl = v;
		} else if (strcmp(a, "--ptxas") == 0) {
			opt.ptxas = "ptxas";
		} else if (strncmp(a, "--ptxas=", 8) == 0) {
			opt.ptxas = a + 8;
		} else if (strcmp(a, "--no-compile") == 0) {
			opt.no_compile = true;   /* CUDA sources: the front end's source analyses only */
		} else if ((v = opt_value(argc, argv, &i, "-p"))) {
			build_dir = v;   /* compile_commands.json: the nvcc bridge's flags */
		} else if ((v = opt_value(argc, argv, &i, "--nvcc"))) {
			nvcc_given = v;
		} else if (a[0] == '-' && a[1]) {
			rc = bad_usage("unknown option '%s' (see ptxray lint --help)", a);
			goto out;
		} else {
			paths[npaths++] = a;
		}
	}
	cs = px_config_set_new();
	if (show) {
		if (npaths) {
			rc = bad_usage("%s", "--show-config FILE takes no other path");
			goto out;
		}
		const struct px_config *c = px_config_for(cs, show, config, &diags);
		if (!c) {
			render_diags(stderr, &diags, NULL, 0);
			rc = 2;
			goto out;
		}
		struct px_effective e;
		px_config_effective(c, show, &e);
		if (narchs) {
			e.archs = (const char *const *)archv;
			e.narchs = narchs;
		}
		struct px_buf b = {0};
		px_effective_show(&b, &e, show);
		px_effective_free(&e);
		rc = write_out(&b);
		goto out;
	}
	if (!npaths) {
		rc = bad_usage("%s", "no input paths (see ptxray lint --help)");
		goto out;
	}
	for (size_t i = 0; i < npaths; i++) {
		struct stat st;
		if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode))
			walk_dir(paths[i], &files, &nfiles, &capfiles, &skipped_cu);
		else {
			if (has_suffix(paths[i], ".cu") || has_suffix(paths[i], ".cuh"))
				skipped_cu++;
			*PX_VEC_PUSH(files, nfiles, capfiles) = xstrdup(paths[i]);
		}
	}
	/* the nvcc bridge for CUDA files */
	if (skipped_cu && !opt.no_compile) {
		nvcc = px_cuda_find_nvcc(nvcc_given);
		if (nvcc_given && !nvcc) {
			rc = bad_usage("--nvcc '%s': not an executable file", nvcc_given);
			goto out;
		}
		if (nvcc) {
			cache = px_cuda_cache_dir();
			nb.nvcc = nvcc;
			nb.build_dir = build_dir;
			nb.cache_dir = cache;
			opt.nvcc = &nb;
		}
	}
	set = load_archs(dirs, ndirs, &diags);
	if (!set) {
		render_diags(stderr, &diags, NULL, 0);
		rc = 2;
		goto out;
	}
	opt.archset = set;
	ftab = px_ftable_builtin(&diags);
	if (!ftab) {
		render_diags(stderr, &diags, NULL, 0);
		rc = 2;
		goto out;
	}
	opt.ftable = ftab;
	opt.archs = (const char *const *)archv;
	opt.narchs = narchs;
	opt.only = (const char *const *)onlyv;
	opt.nonly = nonly;
	opt.params = params;
	opt.nparams = nparams;
	opt.config = config;
	/* configurations first, in this thread (the set is not shared with workers) */
	jl = xcalloc(nfiles + 1, sizeof *jl);
	bool bad = false;
	for (size_t i = 0; i < nfiles; i++) {
		jl[i].path = files[i];
		jl[i].opt = &opt;
		jl[i].cfg = px_config_for(cs, files[i], config, &diags);
		if (!jl[i].cfg)
			bad = true;
	}
	struct px_baseline *bl = NULL;
	if (!bad && baseline) {
		size_t len;
		char *err = NULL;
		char *text = px_read_file(baseline, &len, &err);
		if (!text) {
			px_diag_add(&diags, PX_ERROR, baseline, 0, 0, NULL, "cannot read: %s", err);
			free(err);
			bad = true;
		} else {
			bl = px_baseline_parse(baseline, text, len, &diags);
			free(text);
			bad = !bl;
		}
	}
	if (bad) {
		render_diags(stderr, &diags, NULL, 0);
		rc = 2;
		goto out;
	}
	struct px_pool *pool = jobs > 1 ? px_pool_new(jobs) : NULL;
	opt.pool = pool;
	for (size_t i = 0; i < nfiles; i++) {
		jl[i].t.run = lint_job_run;
		jl[i].t.heavy = true;
		if (pool)
			px_pool_submit(pool, &jl[i].t);
		else
			lint_job_run(&jl[i].t, 0);
	}
	for (size_t i = 0; i < nfiles && pool; i++)
		px_pool_wait(pool, &jl[i].t, NULL);
	px_pool_delete(pool);
	/* merge in file order: the output does not depend on -j */
	struct px_lint_result all = {0};
	for (size_t i = 0; i < nfiles; i++) {
		for (size_t k = 0; k < jl[i].diags.n; k++) {
			struct px_diag *g = &jl[i].diags.items[k];
			px_diag_add(&diags, g->severity, g->file, g->line, g->column, g->rule, "%s", g->message);
		}
		if (!jl[i].ok)
			bad = true;
		for (size_t k = 0; k < jl[i].res.n; k++)
			*PX_VEC_PUSH(all.items, all.n, all.cap) = jl[i].res.items[k];
		all.suppressed += jl[i].res.suppressed;
		free(jl[i].res.items);
		jl[i].res.items = NULL;
		px_diags_free(&jl[i].diags);
	}
	px_lint_result_sort(&all);
	if (bad) {
		render_diags(stderr, &diags, NULL, 0);
		px_lint_result_free(&all);
		px_baseline_delete(bl);
		rc = 2;
		goto out;
	}
	if (bl) {
		px_baseline_filter(bl, &all);
		px_baseline_delete(bl);
	}
	if (skipped_cu && !opt.no_compile && !opt.nvcc)
		px_diag_add(&diags, PX_NOTE, "ptxray", 0, 0, NULL,
		            "%zu CUDA source file%s linted from source only: no nvcc found (give --nvcc PATH "
		            "or set CUDA_HOME) for registers and the PTX rules",
		            skipped_cu, skipped_cu == 1 ? "" : "s");
	render_diags(stderr, &diags, NULL, 0);
	if (write_bl) {
		struct px_buf b = {0};
		px_baseline_write(&b, &all);
		char *tmp = xasprintf("%s.tmp", write_bl);
		FILE *f = fopen(tmp, "wb");
		bool okw = f && fwrite(b.p, 1, b.n, f) == b.n;
		if (f && fclose(f) != 0)
			okw = false;
		if (okw && rename(tmp, write_bl) != 0)
			okw = false;
		if (!okw) {
			remove(tmp);
			rc = bad_usage("cannot write the baseline: %s", write_bl);
		} else {
			fprintf(stderr, "ptxray: wrote %zu finding%s to %s\n", all.n, all.n == 1 ? "" : "s", write_bl);
		}
		free(tmp);
		px_buf_free(&b);
		px_lint_result_free(&all);
		goto out;
	}
	/* the exit status: any finding at or above its file's fail_on */
	for (size_t i = 0; i < all.n; i++) {
		enum px_severity th = fail_on;
		if (!have_fail_on) {
			th = PX_WARNING;
			for (size_t k = 0; k < nfiles; k++)
				if (strcmp(jl[k].path, all.items[i].file) == 0 && jl[k].cfg->have_fail_on)
					th = jl[k].cfg->fail_on;
		}
		if (all.items[i].severity >= th)
			rc = 1;
	}
	struct px_buf b = {0};
	if (strcmp(format, "json") == 0) {
		px_lint_json(&b, &all);
	} else if (strcmp(format, "sarif") == 0) {
		px_lint_sarif(&b, &all, PX_VERSION);
	} else if (strcmp(format, "github") == 0) {
		px_lint_github(&b, &all);
	} else {
		/* text: the one emitter, with the source lines */
		struct px_diags d = {0};
		for (size_t i = 0; i < all.n; i++) {
			const struct px_finding *f = &all.items[i];
			px_diag_add(&d, f->severity, f->file, f->line, f->column, f->rule, "%s", f->message);
		}
		struct source *srcs = xcalloc(nfiles + 1, sizeof *srcs);
		for (size_t i = 0; i < nfiles; i++) {
			size_t len;
			char *err = NULL;
			srcs[i].path = files[i];
			srcs[i].text = px_read_file(files[i], &len, &err);
			srcs[i].len = srcs[i].text ? len : 0;
			free(err);
		}
		fflush(stderr);
		render_diags(stdout, &d, srcs, nfiles);
		for (size_t i = 0; i < nfiles; i++)
			free((void *)srcs[i].text);
		free(srcs);
		px_diags_free(&d);
		size_t ne = 0, nw = 0, nn = 0;
		for (size_t i = 0; i < all.n; i++)
			*(all.items[i].severity == PX_ERROR ? &ne : all.items[i].severity == PX_WARNING ? &nw : &nn) += 1;
		if (all.n || all.suppressed || all.baselined)
			px_buf_printf(&b, "%zu error%s, %zu warning%s, %zu note%s (%zu suppressed, %zu in the baseline)\n",
			              ne, ne == 1 ? "" : "s", nw, nw == 1 ? "" : "s", nn, nn == 1 ? "" : "s",
			              all.suppressed, all.baselined);
	}
	px_lint_result_free(&all);
	int wrc = write_out(&b);
	if (wrc)
		rc = wrc;
out:
	free(nvcc);
	free(cache);
	for (size_t i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	free(jl);
	for (uint32_t i = 0; i < narchs; i++)
		free(archv[i]);
	free(archv);
	for (uint32_t i = 0; i < nonly; i++)
		free(onlyv[i]);
	free(onlyv);
	px_config_set_delete(cs);
	px_archset_delete(set);
	px_ftable_delete(ftab);
	px_diags_free(&diags);
	free(paths);
	free(dirs);
	free(params);
	return rc;
}
