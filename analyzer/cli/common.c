/* common.c: helpers every command shares: the clang-style diagnostics
 * renderer, option parsing, loading the arch tables, writing the output. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

bool use_colour(FILE *f)
{
	const char *nc = getenv("NO_COLOR");
	return (!nc || !nc[0]) && isatty(fileno(f));
}

/* Finds the start and length of line `line` (1-based) in text. */
bool find_line(const char *text, size_t len, uint32_t line, const char **start, size_t *n)
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


/* Renders diagnostics clang-style: path:line:col: severity: message [rule],
 * then the source line and a caret under the column. */
void render_diags(FILE *to, struct px_diags *d, const struct source *srcs, size_t nsrcs)
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
bool parse_dims(const char *s, uint32_t out[3])
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
const char *opt_value(int argc, char **argv, int *i, const char *name)
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

int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "ptxray: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	return 2;
}

/* ---- the options several commands share ---- */

const char *const text_json[] = {"text", "json", NULL};

int format_option(int argc, char **argv, int *i, const char *const *formats, const char **format)
{
	const char *v = opt_value(argc, argv, i, "--format");
	if (!v)
		return 0;
	for (size_t k = 0; formats[k]; k++)
		if (strcmp(v, formats[k]) == 0) {
			*format = formats[k];
			return 1;
		}
	struct px_buf msg = {0};
	px_buf_printf(&msg, "unknown format '%s' (", v);
	for (size_t k = 0; formats[k]; k++)
		px_buf_printf(&msg, "%s%s", k ? ", " : "", formats[k]);
	px_buf_puts(&msg, ")");
	char *m = xstrndup(msg.p, msg.n);
	bad_usage("%s", m);
	free(m);
	px_buf_free(&msg);
	return -1;
}

int launch_option(int argc, char **argv, int *i, const struct launch_dest *d)
{
	const char *v;
	if (d->block && (v = opt_value(argc, argv, i, "--block"))) {
		if (!parse_dims(v, d->block)) {
			bad_usage("bad --block '%s': expected X[,Y[,Z]] of positive integers", v);
			return -1;
		}
	} else if (d->grid && (v = opt_value(argc, argv, i, "--grid"))) {
		if (!parse_dims(v, d->grid)) {
			bad_usage("bad --grid '%s': expected X[,Y[,Z]] of positive integers", v);
			return -1;
		}
	} else if (d->params && (v = opt_value(argc, argv, i, "--param"))) {
		if (!px_param_value_parse(v, &d->params[*d->nparams])) {
			bad_usage("bad --param '%s': expected NAME=VALUE (VALUE an integer)", v);
			return -1;
		}
		++*d->nparams;
	} else {
		return 0;
	}
	return 1;
}

int jobs_option(int argc, char **argv, int *i, unsigned *jobs)
{
	const char *a = argv[*i], *v;
	if (!(v = opt_value(argc, argv, i, "--jobs")) && !(v = opt_value(argc, argv, i, "-j")) &&
	    !(strncmp(a, "-j", 2) == 0 && a[2] && (v = a + 2)))
		return 0;
	if (!px_jobs_parse(v, jobs)) {
		bad_usage("bad -j '%s': expected 1..256", v);
		return -1;
	}
	return 1;
}

/* ---- the arch tables: embedded, then PTXRAY_ARCH_PATH, then --arch-dir ---- */

/* Loads the tables a command uses. NULL (errors in diags) when a directory
 * or a table is bad. */
struct px_archset *load_archs(const char *const *dirs, size_t ndirs, struct px_diags *diags)
{
	struct px_archset *s = px_archset_new(diags);
	if (!s)
		return NULL;
	const char *env = getenv("PTXRAY_ARCH_PATH");
	bool ok = !env || px_archset_add_path(s, env, diags);
	for (size_t i = 0; ok && i < ndirs; i++)
		ok = px_archset_add_dir(s, dirs[i], diags);
	if (!ok) {
		px_archset_delete(s);
		return NULL;
	}
	return s;
}

int write_out(struct px_buf *out)
{
	int rc = 0;
	if (out->n && (fwrite(out->p, 1, out->n, stdout) != out->n || fflush(stdout) != 0))
		rc = bad_usage("cannot write the output: %s", strerror(errno));
	px_buf_free(out);
	return rc;
}

const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < px_ncommands; i++)
		if (strcmp(px_commands[i].name, name) == 0)
			return &px_commands[i];
	return NULL;
}

/* px_buf sink: writes a chunk of output, remembering a failure. */
void sink_out(void *ctx, const char *p, size_t n)
{
	struct out_state *st = ctx;
	if (!st->failed && fwrite(p, 1, n, st->to) != n)
		st->failed = true;
}
