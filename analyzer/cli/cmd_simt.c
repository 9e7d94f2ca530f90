/* cmd_simt.c: `ptxray simt`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* ---- ptxray simt ---- */

int cmd_simt(int argc, char **argv)
{
	struct px_simt_options opt = {0};
	const char *format = "text", *file = NULL, *arch = NULL;
	const char **kernels = xcalloc((size_t)argc + 1, sizeof *kernels);
	const char **dirs = xcalloc((size_t)argc + 1, sizeof *dirs);
	struct px_param_value *params = xcalloc((size_t)argc + 1, sizeof *params);
	size_t nkernels = 0, ndirs = 0;
	int rc = 0;
	opt.iters = 64;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		char *end;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(find_command("simt")->usage, stdout);
			goto out;
		} else if ((v = opt_value(argc, argv, &i, "--format"))) {
			if (strcmp(v, "text") != 0 && strcmp(v, "json") != 0) {
				rc = bad_usage("unknown format '%s' (text, json)", v);
				goto out;
			}
			format = v;
		} else if ((v = opt_value(argc, argv, &i, "--block"))) {
			if (!parse_dims(v, opt.block)) {
				rc = bad_usage("bad --block '%s': expected X[,Y[,Z]] of positive integers", v);
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--grid"))) {
			if (!parse_dims(v, opt.grid)) {
				rc = bad_usage("bad --grid '%s': expected X[,Y[,Z]] of positive integers", v);
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--param"))) {
			if (!px_param_value_parse(v, &params[opt.nparams])) {
				rc = bad_usage("bad --param '%s': expected NAME=VALUE (VALUE an integer)", v);
				goto out;
			}
			opt.nparams++;
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
		} else if ((v = opt_value(argc, argv, &i, "--arch"))) {
			arch = v;
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
	size_t len = 0;
	char *err = NULL;
	char *text = archs ? px_read_file(file, &len, &err) : NULL;
	if (archs && !text) {
		px_diag_add(&diags, PX_ERROR, file, 0, 0, NULL, "cannot read: %s", err);
		free(err);
	}
	struct px_simt_result res = {0};
	struct source src = {file, NULL, 0};
	if (text) {
		/* the timing table: --arch, else the .target; sm_90's where it has none */
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
			if (!a || !a->nlatency)
				a = px_archset_find(archs, "sm_90");
			opt.arch = a;
			src.text = text;
			src.len = len;
			if (!px_simt_file(file, text, len, &opt, &res, &diags))
				rc = 2;
			if (strcmp(a->name, target) != 0 && rc == 0)
				*PX_VEC_PUSH(res.notes, res.nnotes, res.capnotes) = xasprintf(
					"%s has no latency table: the timing uses %s's", target, a->name);
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
	if (archs)
		px_archset_delete(archs);
out:
	free(kernels);
	free(dirs);
	free(params);
	return rc;
}
