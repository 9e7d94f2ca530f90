/* cmd_report.c: `ptxray report` on PTX and (through the CUDA front end and the
 * nvcc bridge) on CUDA sources. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* ---- report on CUDA sources (analyzer/cuda) ---- */

static bool is_cuda_path(const char *p)
{
	size_t n = strlen(p);
	return (n > 3 && strcmp(p + n - 3, ".cu") == 0) || (n > 4 && strcmp(p + n - 4, ".cuh") == 0);
}

/* `ptxray report FILE.cu...`: the source front end's report; findings on
 * standard error. Exit 2 when a file cannot be read. */
struct cuda_bridge_opts {
	const char *nvcc;           /* --nvcc PATH */
	const char *build_dir;      /* -p */
	bool no_compile;
};

static int report_cuda(const char **files, size_t nfiles, const struct px_report_options *opt,
                       const char *format, const struct cuda_bridge_opts *bo)
{
	struct px_diags diags = {0};
	struct px_archset *archs = load_archs(NULL, 0, &diags);
	if (!archs) {
		render_diags(stderr, &diags, NULL, 0);
		px_diags_free(&diags);
		return 2;
	}
	const char *arch[1] = {opt->arch};
	struct px_cuda_options copt = {.archset = archs, .archs = opt->arch ? arch : NULL,
	                               .narchs = opt->arch ? 1 : 0};
	struct px_cuda_nvcc nb = {0};
	char *cache = NULL, *nvcc = NULL;
	if (!bo->no_compile) {
		nvcc = px_cuda_find_nvcc(bo->nvcc);
		if (bo->nvcc && !nvcc) {
			px_archset_delete(archs);
			px_diags_free(&diags);
			return bad_usage("--nvcc '%s': not an executable file", bo->nvcc);
		}
		cache = px_cuda_cache_dir();
		nb.nvcc = nvcc;
		nb.build_dir = bo->build_dir;
		nb.cache_dir = cache;
		copt.nvcc = &nb;
	}
	if (opt->block[0])
		copt.block = opt->block;
	struct px_buf out = {0};
	bool ok = px_cuda_report(files, nfiles, &copt, strcmp(format, "json") == 0, &out, &diags);
	struct source *srcs = xcalloc(nfiles, sizeof *srcs);
	for (size_t f = 0; f < nfiles; f++) {
		size_t len = 0;
		char *err = NULL;
		srcs[f].path = files[f];
		srcs[f].text = px_read_file(files[f], &len, &err);
		srcs[f].len = len;
		free(err);
	}
	render_diags(stderr, &diags, srcs, nfiles);
	int rc = 0;
	if (!ok)
		rc = 2;
	else if (fwrite(out.p, 1, out.n, stdout) != out.n || fflush(stdout) != 0)
		rc = bad_usage("cannot write the output: %s", strerror(errno));
	for (size_t f = 0; f < nfiles; f++)
		free((void *)srcs[f].text);
	free(srcs);
	px_buf_free(&out);
	px_diags_free(&diags);
	px_archset_delete(archs);
	free(nvcc);
	free(cache);
	return rc;
}

/* One PTX file of `ptxray report`: read, analyse (px_report_file), its
 * diagnostics kept apart so that they merge in file order whatever ran
 * first. A heavy pool task under -j N. */
struct report_job {
	struct px_task t;           /* first: the pool hands it back */
	const char *path;
	const struct px_report_options *opt;
	struct px_file_report rep;
	struct px_diags diags;
	char *text;                 /* until the module owns it */
	size_t len;
	bool mapped;                /* px_map_file mapped it (release with px_text_free) */
	bool ok;
};

static void report_job_run(struct px_task *t, unsigned slot)
{
	struct report_job *j = (struct report_job *)t;
	(void)slot;
	char *err = NULL;
	/* mapped, so the parser can give back the pages behind it */
	j->text = px_map_file(j->path, &j->len, &j->mapped, &err);
	if (!j->text) {
		px_diag_add(&j->diags, PX_ERROR, j->path, 0, 0, NULL, "cannot read: %s", err);
		free(err);
		return;
	}
	struct px_report_options o = *j->opt;
	o.task = o.pool ? t : NULL;
	o.text_mapped = j->mapped;
	j->ok = px_report_file(j->path, j->text, j->len, &o, &j->rep, &j->diags);
	if (j->rep.ptxas_error)
		px_diag_add(&j->diags, PX_WARNING, j->path, 0, 0, NULL, "ptxas: %s", j->rep.ptxas_error);
}

int cmd_report(int argc, char **argv)
{
	struct px_report_options opt = {0};
	const char *format = "text";
	const char **files = xcalloc((size_t)argc + 1, sizeof *files);
	const char **kernels = xcalloc((size_t)argc + 1, sizeof *kernels);
	struct px_param_value *params = xcalloc((size_t)argc + 1, sizeof *params);
	uint32_t nparams = 0;
	const char *dump = NULL;
	size_t nfiles = 0, nkernels = 0;
	struct cuda_bridge_opts bo = {0};
	unsigned jobs = px_cpu_count();
	int rc = 0, r;
	struct launch_dest ld = {.block = opt.block, .grid = opt.grid, .params = params, .nparams = &nparams};

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(find_command("report")->usage, stdout);
			goto out;
		} else if ((r = format_option(argc, argv, &i, text_json, &format)) ||
		           (r = launch_option(argc, argv, &i, &ld)) || (r = jobs_option(argc, argv, &i, &jobs))) {
			if (r < 0) {
				rc = 2;
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--kernel"))) {
			kernels[nkernels++] = v;
		} else if ((v = opt_value(argc, argv, &i, "--arch"))) {
			if (strncmp(v, "sm_", 3) != 0 || v[3] < '0' || v[3] > '9') {
				rc = bad_usage("bad --arch '%s': expected sm_XX", v);
				goto out;
			}
			opt.arch = v;
		} else if (strcmp(a, "--ptxas") == 0) {
			opt.ptxas = "ptxas";
		} else if (strncmp(a, "--ptxas=", 8) == 0) {
			opt.ptxas = a + 8;
		} else if (strncmp(a, "--dump=", 7) == 0) {
			dump = a + 7;
		} else if ((v = opt_value(argc, argv, &i, "--nvcc"))) {
			bo.nvcc = v;
		} else if ((v = opt_value(argc, argv, &i, "-p"))) {
			bo.build_dir = v;
		} else if (strcmp(a, "--no-compile") == 0) {
			bo.no_compile = true;
		} else if (a[0] == '-' && a[1]) {
			rc = bad_usage("unknown option '%s' (see ptxray report --help)", a);
			goto out;
		} else {
			files[nfiles++] = a;
		}
	}
	if (dump && strcmp(dump, "list") == 0) {
		size_t np;
		const struct px_pass_info *passes = px_passes(&np);
		for (size_t d = 0; d < np; d++)
			printf("%-9s %s\n", passes[d].name, passes[d].desc);
		goto out;
	}
	if (dump) {
		/* validate every name before doing any work */
		const char *p = dump;
		while (*p) {
			size_t n = strcspn(p, ",");
			char *name = xstrndup(p, n);
			bool found = px_pass_find(name) != NULL;
			if (!found)
				rc = bad_usage("unknown --dump pass '%s' (see --dump=list)", name);
			free(name);
			if (!found)
				goto out;
			p += n + (p[n] == ',');
		}
	}
	if (nfiles == 0) {
		rc = bad_usage("%s", "no input files (see ptxray report --help)");
		goto out;
	}
	opt.kernels = nkernels ? kernels : NULL;
	opt.params = params;
	opt.nparams = nparams;
	opt.dump = dump;
	if (is_cuda_path(files[0])) {
		for (size_t f = 1; f < nfiles; f++)
			if (!is_cuda_path(files[f])) {
				rc = bad_usage("'%s': give CUDA sources and PTX files in separate runs", files[f]);
				goto out;
			}
		rc = report_cuda(files, nfiles, &opt, format, &bo);
		goto out;
	}

	struct px_diags diags = {0};
	/* occupancy: the embedded tables and PTXRAY_ARCH_PATH */
	struct px_archset *archs = load_archs(NULL, 0, &diags);
	if (!archs) {
		render_diags(stderr, &diags, NULL, 0);
		px_diags_free(&diags);
		rc = 2;
		goto out;
	}
	opt.archs = archs;
	/* the lint rules' input (divergent barriers, membermasks, padding):
	 * nothing in the report reads it */
	opt.skip_passes = PX_PASS_EVENTS;
	struct px_pool *pool = jobs > 1 ? px_pool_new(jobs) : NULL;
	opt.pool = pool;
	struct report_job *jl = xcalloc(nfiles, sizeof *jl);
	for (size_t f = 0; f < nfiles; f++) {
		jl[f].t.run = report_job_run;
		jl[f].t.heavy = true;
		jl[f].path = files[f];
		jl[f].opt = &opt;
		if (pool)
			px_pool_submit(pool, &jl[f].t);
		else
			report_job_run(&jl[f].t, 0);
	}
	struct px_file_report *reps = xcalloc(nfiles, sizeof *reps);
	struct source *srcs = xcalloc(nfiles, sizeof *srcs);
	bool *mapped = xcalloc(nfiles, sizeof *mapped);
	bool failed = false;
	for (size_t f = 0; f < nfiles; f++) {
		/* in file order: the diagnostics do not depend on -j */
		if (pool)
			px_pool_wait(pool, &jl[f].t, NULL);
		for (size_t k = 0; k < jl[f].diags.n; k++) {
			const struct px_diag *g = &jl[f].diags.items[k];
			px_diag_add(&diags, g->severity, g->file, g->line, g->column, g->rule, "%s", g->message);
		}
		px_diags_free(&jl[f].diags);
		reps[f] = jl[f].rep;
		if (!jl[f].ok)
			failed = true;
		if (jl[f].text) {
			srcs[f].path = files[f];
			srcs[f].text = jl[f].text;  /* owned by the module once parsed */
			srcs[f].len = jl[f].len;
			mapped[f] = jl[f].mapped;
		}
	}
	free(jl);
	for (size_t f = 0; f < nfiles && !failed; f++)
		if (reps[f].dump.n)
			fwrite(reps[f].dump.p, 1, reps[f].dump.n, stderr);
	render_diags(stderr, &diags, srcs, nfiles);
	if (failed) {
		rc = 2;
	} else {
		/* every file has been analysed: the output streams out in chunks */
		struct out_state st = {stdout, false};
		struct px_buf out = {.sink = sink_out, .sink_ctx = &st};
		if (strcmp(format, "json") == 0)
			px_report_json_pool(&out, reps, nfiles, pool);
		else
			px_report_text(&out, reps, nfiles);
		px_buf_flush(&out);
		if (st.failed || fflush(stdout) != 0)
			rc = bad_usage("cannot write the output: %s", strerror(errno));
		px_buf_free(&out);
	}
	px_pool_delete(pool);
	for (size_t f = 0; f < nfiles; f++) {
		if (reps[f].module)
			px_file_report_free(&reps[f]);
		else
			px_text_free(srcs[f].text, srcs[f].len, mapped[f]);
	}
	free(reps);
	free(srcs);
	free(mapped);
	px_diags_free(&diags);
	px_archset_delete(archs);
out:
	free(files);
	free(kernels);
	free(params);
	return rc;
}

/* ---- ptxray rules ---- */
