/* main.c: the ptxray command line. The only file that prints or exits.
 *
 * Subcommands and dump flags each come from one table below; --help is
 * generated from them (and a test checks the man pages against them).
 * Exit status: 0 success; 1 findings at or above the failure threshold;
 * 2 bad usage or invalid input (nothing is written to standard output then). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"

#include "ptxray.h"
#define PX_VERSION PTXRAY_VERSION

struct cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
	const char *usage;
};

static int cmd_report(int argc, char **argv);

/* Sorted by name. */
static const struct cmd commands[] = {
	{"report", "per kernel: resources, registers, shared and local memory, launch", cmd_report,
	 "usage: ptxray report [options] FILE.ptx...\n"
	 "  --format text|json   output format (default text)\n"
	 "  --block X[,Y[,Z]]    launch block for lane-level verdicts (default: .reqntid,\n"
	 "                       else .maxntid, else 256x1x1)\n"
	 "  --grid X[,Y[,Z]]     launch grid\n"
	 "  --param NAME=VALUE   value of a kernel parameter (name or index; repeatable)\n"
	 "  --kernel NAME        only this kernel, mangled or demangled (repeatable)\n"
	 "  --arch sm_XX         target (default: the file's .target)\n"
	 "  --ptxas[=PATH]       run ptxas -v for exact registers, stack and spills\n"
	 "  --dump=PASS[,PASS]   print a pass's state to standard error (see --dump=list)\n"},
};

static void usage_all(FILE *to)
{
	fprintf(to, "usage: ptxray COMMAND [options] [FILE...]\n\ncommands:\n");
	for (size_t i = 0; i < PX_COUNTOF(commands); i++)
		fprintf(to, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(to, "\n'ptxray COMMAND --help' describes a command; "
	            "exit status: 0 ok, 1 findings, 2 bad usage or input.\n");
}

static bool use_colour(FILE *f)
{
	const char *nc = getenv("NO_COLOR");
	return (!nc || !nc[0]) && isatty(fileno(f));
}

/* Finds the start and length of line `line` (1-based) in text. */
static bool find_line(const char *text, size_t len, uint32_t line, const char **start, size_t *n)
{
	if (!text || line == 0)
		return false;
	const char *p = text, *end = text + len;
	for (uint32_t l = 1; l < line; l++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return false;
		p = nl + 1;
	}
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	*start = p;
	*n = nl ? (size_t)(nl - p) : (size_t)(end - p);
	return true;
}

struct source {
	const char *path;
	const char *text;
	size_t len;
};

/* Renders diagnostics clang-style: path:line:col: severity: message [rule],
 * then the source line and a caret under the column. */
static void render_diags(FILE *to, struct px_diags *d, const struct source *srcs, size_t nsrcs)
{
	bool colour = use_colour(to);
	px_diags_sort(d);
	for (size_t i = 0; i < d->n; i++) {
		const struct px_diag *g = &d->items[i];
		const char *sevc = g->severity == PX_ERROR ? "\033[1;31m"
		                 : g->severity == PX_WARNING ? "\033[1;35m" : "\033[1;36m";
		if (g->line)
			fprintf(to, "%s%s:%u:%u:%s ", colour ? "\033[1m" : "", g->file, g->line,
			        g->column ? g->column : 1, colour ? "\033[0m" : "");
		else
			fprintf(to, "%s%s:%s ", colour ? "\033[1m" : "", g->file, colour ? "\033[0m" : "");
		fprintf(to, "%s%s:%s %s", colour ? sevc : "", px_severity_name(g->severity),
		        colour ? "\033[0m" : "", g->message);
		if (g->rule)
			fprintf(to, " [%s]", g->rule);
		fputc('\n', to);
		for (size_t s = 0; s < nsrcs; s++) {
			const char *ls;
			size_t ln;
			if (!srcs[s].path || strcmp(srcs[s].path, g->file) != 0 ||
			    !find_line(srcs[s].text, srcs[s].len, g->line, &ls, &ln))
				continue;
			if (ln > 200)  /* very long lines: show the part around the column */
				ln = 200;
			fprintf(to, "%.*s\n", (int)ln, ls);
			uint32_t col = g->column ? g->column : 1;
			for (uint32_t c = 1; c < col && c <= ln; c++)
				fputc(ls[c - 1] == '\t' ? '\t' : ' ', to);
			fprintf(to, "%s^%s\n", colour ? "\033[1;32m" : "", colour ? "\033[0m" : "");
			break;
		}
	}
}

/* Parses "X[,Y[,Z]]" of positive integers. */
static bool parse_dims(const char *s, uint32_t out[3])
{
	out[0] = out[1] = out[2] = 0;
	for (int i = 0; i < 3; i++) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(s, &end, 10);
		if (end == s || errno || v == 0 || v > 0x7fffffffUL || *s == '-' || *s == '+')
			return false;
		out[i] = (uint32_t)v;
		if (*end == 0) {
			for (int k = i + 1; k < 3; k++)
				out[k] = 1;
			return true;
		}
		if (*end != ',')
			return false;
		s = end + 1;
	}
	return false;
}

/* Matches --name=value or --name value; advances *i. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] == 0 && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "ptxray: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	return 2;
}

static int cmd_report(int argc, char **argv)
{
	struct px_report_options opt = {0};
	const char *format = "text";
	const char **files = xcalloc((size_t)argc + 1, sizeof *files);
	const char **kernels = xcalloc((size_t)argc + 1, sizeof *kernels);
	struct px_param_value *params = xcalloc((size_t)argc + 1, sizeof *params);
	uint32_t nparams = 0;
	const char *dump = NULL;
	size_t nfiles = 0, nkernels = 0;
	int rc = 0;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(commands[0].usage, stdout);
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
			if (!px_param_value_parse(v, &params[nparams])) {
				rc = bad_usage("bad --param '%s': expected NAME=VALUE (VALUE an integer)", v);
				goto out;
			}
			nparams++;
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

	struct px_diags diags = {0};
	struct px_file_report *reps = xcalloc(nfiles, sizeof *reps);
	struct source *srcs = xcalloc(nfiles, sizeof *srcs);
	bool failed = false;
	for (size_t f = 0; f < nfiles; f++) {
		size_t len = 0;
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
		if (!px_report_file(files[f], text, len, &opt, &reps[f], &diags))
			failed = true;
		if (reps[f].ptxas_error)
			px_diag_add(&diags, PX_WARNING, files[f], 0, 0, NULL, "ptxas: %s", reps[f].ptxas_error);
	}
	for (size_t f = 0; f < nfiles && !failed; f++)
		if (reps[f].dump.n)
			fwrite(reps[f].dump.p, 1, reps[f].dump.n, stderr);
	render_diags(stderr, &diags, srcs, nfiles);
	if (failed) {
		rc = 2;
	} else {
		struct px_buf out = {0};
		if (strcmp(format, "json") == 0)
			px_report_json(&out, reps, nfiles);
		else
			px_report_text(&out, reps, nfiles);
		if (fwrite(out.p, 1, out.n, stdout) != out.n || fflush(stdout) != 0)
			rc = bad_usage("cannot write the output: %s", strerror(errno));
		px_buf_free(&out);
	}
	for (size_t f = 0; f < nfiles; f++) {
		if (reps[f].module)
			px_file_report_free(&reps[f]);
		else
			free((void *)srcs[f].text);
	}
	free(reps);
	free(srcs);
	px_diags_free(&diags);
out:
	free(files);
	free(kernels);
	free(params);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage_all(stderr);
		return 2;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
		usage_all(stdout);
		return 0;
	}
	if (strcmp(name, "--version") == 0) {
		printf("ptxray %s\n", PX_VERSION);
		return 0;
	}
	for (size_t i = 0; i < PX_COUNTOF(commands); i++)
		if (strcmp(commands[i].name, name) == 0)
			return commands[i].run(argc - 2, argv + 2);
	fprintf(stderr, "ptxray: error: unknown command '%s'\n", name);
	usage_all(stderr);
	return 2;
}
