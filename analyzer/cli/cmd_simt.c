/* cmd_simt.c: `ptxray simt`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* ---- ptxray simt ---- */

/* The note for a target timed with its base's latencies (px_arch_timing):
 * which of the simulation's figures are the target's own. */
static char *timing_note(const struct px_arch_timing *t, const struct px_arch *target)
{
	struct px_buf own = {0};
	for (uint32_t i = 0; i < target->nthroughput; i++)
		px_buf_printf(&own, "%s%s", i ? ", " : "", target->throughput[i].name);
	char *note = target->nthroughput
	                     ? xasprintf("%s has no latency table: the simulation uses its SM and its throughput (%s), "
	                                 "and %s's latencies and other throughput entries (ptxray-simt(1), Timing tables)",
	                                 target->name, own.p, t->base->name)
	                     : xasprintf("%s has no latency or throughput table: the simulation uses its SM, and %s's "
	                                 "latencies and throughput (ptxray-simt(1), Timing tables)",
	                                 target->name, t->base->name);
	px_buf_free(&own);
	return note;
}

static bool is_cuda(const char *p)
{
	size_t n = strlen(p);
	return (n > 3 && strcmp(p + n - 3, ".cu") == 0) || (n > 4 && strcmp(p + n - 4, ".cuh") == 0);
}

/* The name of --kernel without namespaces, template arguments or
 * parameters ("ns::k<int>(float*)" -> "k"), for the CUDA front end. */
static void base_name(const char *k, const char **b, size_t *n)
{
	size_t e = strcspn(k, "<(");
	*b = k;
	for (size_t i = 0; i + 1 < e; i++)
		if (k[i] == ':' && k[i + 1] == ':')
			*b = k + i + 2;
	*n = (size_t)(k + e - *b);
}

/* `ptxray simt FILE.cu`: compiles file with nvcc through the bridge (cached)
 * for target, and fills opt from the source: the `// ptxray: hot` loops of
 * the kernel (or of the device functions it may inline) as source line
 * ranges (hot: caller frees), the block from the kernel's launch
 * annotation or launch sites when --block is not given. Returns the PTX
 * path (xmalloc'd) or NULL with errors in diags. */
static char *simt_cuda(const char *file, const char *nvcc_opt, const char *build_dir, const char *target,
                       const char *kernel, struct px_simt_options *opt, uint32_t (**hot)[2],
                       struct px_diags *diags)
{
	size_t len = 0;
	char *err = NULL;
	char *text = px_read_file(file, &len, &err);
	if (!text) {
		px_diag_add(diags, PX_ERROR, file, 0, 0, NULL, "cannot read: %s", err);
		free(err);
		return NULL;
	}
	char *nvcc = px_cuda_find_nvcc(nvcc_opt);
	if (!nvcc) {
		px_diag_add(diags, PX_ERROR, file, 0, 0, NULL,
		            "simulating CUDA source needs nvcc (--nvcc, $CUDA_HOME/bin or PATH): none found; "
		            "give the PTX (nvcc -ptx -lineinfo) instead");
		free(text);
		return NULL;
	}
	char *ptx = NULL;
	struct px_cuda_options copt = {0};
	struct px_diags pd = {0};
	struct px_cuda_file *f = px_cuda_parse(file, text, len, &copt, &pd);
	for (size_t i = 0; i < pd.n; i++)   /* bad annotations and unparsed regions: warnings */
		px_diag_add(diags, pd.items[i].severity == PX_ERROR ? PX_ERROR : PX_WARNING, pd.items[i].file,
		            pd.items[i].line, pd.items[i].column, pd.items[i].rule, "%s", pd.items[i].message);
	px_diags_free(&pd);
	struct px_cuda_flags fl = {0};
	struct px_cuda_nvcc nb = {.nvcc = nvcc, .build_dir = build_dir, .cache_dir = px_cuda_cache_dir()};
	if (f && (!build_dir || px_cuda_compile_db_flags(build_dir, file, &fl, diags))) {
		bool cached = false;
		ptx = px_cuda_compile(&nb, file, text, len, target ? target : fl.narchs ? fl.archs[0] : "sm_90", &fl,
		                      &cached, diags);
	}
	if (ptx) {
		const char *b = NULL;
		size_t bn = 0;
		if (kernel)
			base_name(kernel, &b, &bn);
		int32_t kf = b ? px_cuda_find_func(f, b, bn) : -1;
		*hot = xcalloc(f->nhot + 1, sizeof **hot);
		for (uint32_t h = 0; h < f->nhot; h++) {
			const struct px_cuda_hot *x = &f->hot[h];
			bool mine = kf < 0 || x->func == kf || (x->func >= 0 && f->funcs[x->func].kind != PX_CUDA_KERNEL);
			if (x->loop_line && mine) {
				(*hot)[opt->nhot][0] = x->loop_line;
				(*hot)[opt->nhot][1] = x->loop_end_line ? x->loop_end_line : x->loop_line;
				opt->nhot++;
			}
		}
		opt->hot_file = file;
		opt->hot_lines = (const uint32_t (*)[2])*hot;
		if (!opt->block[0] && kf >= 0)
			px_cuda_kernel_block(f, (uint32_t)kf, opt->block);
	}
	px_cuda_flags_free(&fl);
	if (f)
		px_cuda_file_delete(f);
	free((char *)nb.cache_dir);
	free(nvcc);
	free(text);
	return ptx;
}

int cmd_simt(int argc, char **argv)
{
	struct px_simt_options opt = {0};
	const char *format = "text", *file = NULL, *arch = NULL, *nvcc = NULL, *build_dir = NULL;
	uint32_t (*hot)[2] = NULL;
	char *ptx = NULL;
	const char **kernels = xcalloc((size_t)argc + 1, sizeof *kernels);
	const char **dirs = xcalloc((size_t)argc + 1, sizeof *dirs);
	struct px_param_value *params = xcalloc((size_t)argc + 1, sizeof *params);
	size_t nkernels = 0, ndirs = 0;
	int rc = 0, r;
	struct launch_dest ld = {.block = opt.block, .grid = opt.grid, .params = params, .nparams = &opt.nparams};
	opt.iters = 64;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		char *end;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(find_command("simt")->usage, stdout);
			goto out;
		} else if ((r = format_option(argc, argv, &i, text_json, &format)) ||
		           (r = launch_option(argc, argv, &i, &ld))) {
			if (r < 0) {
				rc = 2;
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--kernel"))) {
			kernels[nkernels++] = v;
		} else if ((v = opt_value(argc, argv, &i, "--loop"))) {
			unsigned long n = strtoul(v, &end, 10);
			if (strcmp(v, "all") != 0 && (end == v || *end || n == 0)) {
				rc = bad_usage("bad --loop '%s': expected a line number or 'all'", v);
				goto out;
			}
			opt.loop = v;
		} else if ((v = opt_value(argc, argv, &i, "--iters"))) {
			unsigned long n = strtoul(v, &end, 10);
			if (end == v || *end || n == 0 || n > 100000000) {
				rc = bad_usage("bad --iters '%s': expected a positive integer", v);
				goto out;
			}
			opt.iters = (uint32_t)n;
		} else if ((v = opt_value(argc, argv, &i, "--l2"))) {
			if (strcmp(v, "warm") && strcmp(v, "cold")) {
				rc = bad_usage("bad --l2 '%s': expected warm or cold", v);
				goto out;
			}
			opt.l2_warm = strcmp(v, "warm") == 0;
		} else if ((v = opt_value(argc, argv, &i, "--budget"))) {
			unsigned long long n = strtoull(v, &end, 10);
			if (end == v || *end || n == 0) {
				rc = bad_usage("bad --budget '%s': expected a positive integer", v);
				goto out;
			}
			opt.budget = n;
		} else if ((v = opt_value(argc, argv, &i, "--dynamic-shared"))) {
			unsigned long n = strtoul(v, &end, 10);
			if (end == v || *end || n > (1ul << 20)) {
				rc = bad_usage("bad --dynamic-shared '%s': expected bytes", v);
				goto out;
			}
			opt.dynamic_shared = (uint32_t)n;
		} else if ((v = opt_value(argc, argv, &i, "--registers"))) {
			unsigned long n = strtoul(v, &end, 10);
			if (end == v || *end || n == 0 || n > 255) {
				rc = bad_usage("bad --registers '%s': expected 1 to 255", v);
				goto out;
			}
			opt.registers = (uint32_t)n;
		} else if (strcmp(a, "--ptxas") == 0) {
			opt.ptxas = "ptxas";
		} else if (strncmp(a, "--ptxas=", 8) == 0 && a[8]) {
			opt.ptxas = a + 8;
		} else if ((v = opt_value(argc, argv, &i, "--arch"))) {
			arch = v;
		} else if ((v = opt_value(argc, argv, &i, "--nvcc"))) {
			nvcc = v;
		} else if ((v = opt_value(argc, argv, &i, "-p"))) {
			build_dir = v;
		} else if ((v = opt_value(argc, argv, &i, "--arch-dir"))) {
			dirs[ndirs++] = v;
		} else if (a[0] == '-' && a[1]) {
			rc = bad_usage("unknown option or missing value '%s' (see ptxray simt --help)", a);
			goto out;
		} else if (file) {
			rc = bad_usage("one file at a time: '%s'", a);
			goto out;
		} else {
			file = a;
		}
	}
	if (!file) {
		rc = bad_usage("%s", "no input file (see ptxray simt --help)");
		goto out;
	}
	opt.kernels = nkernels ? kernels : NULL;
	opt.params = params;
	struct px_diags diags = {0};
	struct px_archset *archs = load_archs(dirs, ndirs, &diags);
	const char *cu = NULL;
	if (archs && is_cuda(file)) {
		/* CUDA source: nvcc's PTX (cached), hot loops and launch from the source */
		bool had_block = opt.block[0] != 0;
		ptx = simt_cuda(file, nvcc, build_dir, arch, nkernels ? kernels[0] : NULL, &opt, &hot, &diags);
		if (!ptx) {
			render_diags(stderr, &diags, NULL, 0);
			px_diags_free(&diags);
			px_archset_delete(archs);
			rc = 2;
			goto out;
		}
		cu = file;
		file = ptx;
		if (!had_block && opt.block[0])
			px_diag_add(&diags, PX_NOTE, cu, 0, 0, NULL, "block %ux%ux%u from the source's launch",
			            opt.block[0], opt.block[1], opt.block[2]);
	}
	size_t len = 0;
	char *err = NULL;
	char *text = archs ? px_read_file(file, &len, &err) : NULL;
	if (archs && !text) {
		px_diag_add(&diags, PX_ERROR, file, 0, 0, NULL, "cannot read: %s", err);
		free(err);
	}
	struct px_simt_result res = {0};
	struct px_arch_timing timing = {0};   /* (opt.arch: its table) */
	struct source src = {file, NULL, 0};
	if (text) {
		/* the target: --arch, else the .target (sm_90 where there is none); its
		 * timing table px_arch_timing's */
		char target[32] = "sm_90";
		if (arch)
			snprintf(target, sizeof target, "%s", arch);
		else {
			const char *t = strstr(text, ".target");
			if (t) {
				t += 7;
				while (*t == ' ' || *t == '\t')
					t++;
				size_t n = strcspn(t, " \t,\r\n");
				if (n && n < sizeof target)
					snprintf(target, sizeof target, "%.*s", (int)n, t);
			}
		}
		const struct px_arch *a = px_archset_find(archs, target);
		if (!a && arch) {
			px_diag_add(&diags, PX_ERROR, file, 0, 0, NULL, "--arch %s: no such table (see ptxray arch list)", arch);
		} else {
			const struct px_arch *known = a ? a : px_archset_find(archs, "sm_90");
			px_arch_timing(archs, known, &timing);
			opt.arch = &timing.arch;
			opt.cc_major = known->major;
			opt.latency_table = timing.base ? timing.base->name : NULL;
			src.text = text;
			src.len = len;
			if (!px_simt_file(file, text, len, &opt, &res, &diags))
				rc = 2;
			else if (cu)
				res.source_path = xstrdup(cu);
			if (rc == 0 && !a)
				*PX_VEC_PUSH(res.notes, res.nnotes, res.capnotes) = xasprintf(
					"%s: no such table: the simulation uses %s's", target, known->name);
			if (rc == 0 && timing.base)
				*PX_VEC_PUSH(res.notes, res.nnotes, res.capnotes) = timing_note(&timing, known);
		}
	}
	if (diags.errors)
		rc = 2;
	render_diags(stderr, &diags, &src, src.text ? 1 : 0);
	if (rc == 0) {
		struct out_state st = {stdout, false};
		struct px_buf out = {.sink = sink_out, .sink_ctx = &st};
		if (strcmp(format, "json") == 0)
			px_simt_json(&out, &res);
		else
			px_simt_text(&out, &res);
		px_buf_flush(&out);
		if (st.failed || fflush(stdout) != 0)
			rc = bad_usage("cannot write the output: %s", strerror(errno));
		px_buf_free(&out);
		if (rc == 0 && res.nviol)
			rc = 1;
	}
	if (res.module || res.path)
		px_simt_result_free(&res);
	else
		free(text);
	px_diags_free(&diags);
	px_arch_timing_free(&timing);
	if (archs)
		px_archset_delete(archs);
out:
	free(hot);
	free(ptx);
	free(kernels);
	free(dirs);
	free(params);
	return rc;
}
