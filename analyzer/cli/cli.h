/* cli.h: what the ptxray command-line files share: the command table's
 * row, the diagnostics renderer and the option helpers (cli/common.c), and
 * one entry point per command (cli/cmd_*.c). These files are the program,
 * not the library: they alone (with main.c) print and pick exit codes. */
#ifndef PX_CLI_H
#define PX_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "arch.h"
#include "compat.h"
#include "cuda/cuda.h"
#include "occupancy.h"
#include "ptxray.h"
#include "report.h"
#include "rules.h"
#include "simt/simt.h"

#define PX_VERSION PTXRAY_VERSION

struct cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
	const char *usage;
};
/* The command table (main.c), sorted by name. */
extern const struct cmd px_commands[];
extern const size_t px_ncommands;
const struct cmd *find_command(const char *name);

struct source {
	const char *path;
	const char *text;
	size_t len;
};

/* cli/common.c */
bool use_colour(FILE *f);
bool find_line(const char *text, size_t len, uint32_t line, const char **start, size_t *n);
/* Renders diagnostics clang-style, sorted, with the source line and a caret. */
void render_diags(FILE *to, struct px_diags *d, const struct source *srcs, size_t nsrcs);
bool parse_dims(const char *s, uint32_t out[3]);
const char *opt_value(int argc, char **argv, int *i, const char *name);
int bad_usage(const char *fmt, const char *arg);
/* The option parsers several commands share. Each looks at argv[*i]:
 * 0 when it is not its option; 1 when it took it (*i then past a separate
 * value); -1 when the value is bad, after the usage message (the command
 * then exits 2). A missing value is not the option (the command's
 * "unknown option" message follows, as for any other option). */
/* --format NAME, NAME one of formats (NULL-terminated; *format then
 * points into it). */
int format_option(int argc, char **argv, int *i, const char *const *formats, const char **format);
extern const char *const text_json[];   /* {"text", "json", NULL} */
/* The launch options of report, simt and lint. A NULL destination: the
 * command does not take that option. */
struct launch_dest {
	uint32_t *block;                /* --block X[,Y[,Z]]: 3 entries */
	uint32_t *grid;                 /* --grid X[,Y[,Z]]: 3 entries */
	struct px_param_value *params;  /* --param NAME=VALUE, repeatable: room for argc */
	uint32_t *nparams;              /* with params: how many are filled */
};
int launch_option(int argc, char **argv, int *i, const struct launch_dest *d);
/* -j N, -jN, --jobs N (1..256). */
int jobs_option(int argc, char **argv, int *i, unsigned *jobs);
struct px_archset *load_archs(const char *const *dirs, size_t ndirs, struct px_diags *diags);
/* Writes out to standard output and frees it; 2 (with a message) on failure. */
int write_out(struct px_buf *out);
/* A px_buf sink streaming to a FILE; failed records a short write. */
struct out_state {
	FILE *to;
	bool failed;
};
void sink_out(void *ctx, const char *p, size_t n);

/* One per command (cli/cmd_NAME.c). */
int cmd_arch(int argc, char **argv);
int cmd_compat(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_occupancy(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_simt(int argc, char **argv);

#endif
