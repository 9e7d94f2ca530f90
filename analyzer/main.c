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

#include "arch.h"
#include "cuda/cuda.h"
#include "compat.h"
#include "occupancy.h"
#include "report.h"
#include "rules.h"
#include "simt/simt.h"
#include <dirent.h>
#include <pthread.h>
#include <sys/stat.h>

#include "ptxray.h"
#define PX_VERSION PTXRAY_VERSION

struct cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
	const char *usage;
};

static int cmd_arch(int argc, char **argv);
static int cmd_compat(int argc, char **argv);
static int cmd_occupancy(int argc, char **argv);
static int cmd_lint(int argc, char **argv);
static int cmd_report(int argc, char **argv);
static int cmd_rules(int argc, char **argv);
static int cmd_simt(int argc, char **argv);

/* Sorted by name. */
static const struct cmd commands[] = {
	{"arch", "the per-compute-capability tables: list them, show one", cmd_arch,
	 "usage: ptxray arch list [--arch-dir DIR]\n"
	 "       ptxray arch show NAME [--arch-dir DIR]\n"
	 "  list                 every table: name, compute capability, main limits, source\n"
	 "  show NAME            one table as YAML (NAME: sm_90, sm_90a, 9.0)\n"
	 "  --arch-dir DIR       also load DIR/*.yaml, replacing tables of the same name\n"
	 "                       (repeatable; after PTXRAY_ARCH_PATH); format: ptxray-arch(5)\n"},
	{"compat", "which kernels run on which targets, which PTX ISA they need, and why not", cmd_compat,
	 "usage: ptxray compat [options] FILE.ptx...\n"
	 "       ptxray compat --list-features [--format text|json]\n"
	 "  --arch LIST          targets to judge, comma-separated (sm_80,sm_90a,sm_100f);\n"
	 "                       all: every target of the feature table; ptxas: the ones\n"
	 "                       ptxas 13.0 compiles for (default: all)\n"
	 "  --any-version        judge at the newest PTX ISA version, not the file's .version\n"
	 "  --format text|json   output format (default text)\n"
	 "  --table FILE         use this feature table instead of the embedded one\n"
	 "  --list-features      print the feature table: targets, versions, entries\n"},
	{"lint", "diagnostics from the rule catalogue: text, JSON, SARIF, GitHub annotations", cmd_lint,
	 "usage: ptxray lint [options] PATH...\n"
	 "       ptxray lint --show-config FILE\n"
	 "  PATH                 a .ptx, .cu or .cuh file, or a folder (searched for them)\n"
	 "  --format text|json|sarif|github  output format (default text)\n"
	 "  --fail-on error|warning|note  lowest severity that makes the exit status 1\n"
	 "                       (default: the configuration's fail_on, else warning)\n"
	 "  --arch LIST          targets to check, comma-separated (overrides the config)\n"
	 "  --only LIST          run only these rules (comma-separated ids)\n"
	 "  --config FILE        use FILE instead of the nearest .ptxray.yaml\n"
	 "  --show-config FILE   print the configuration that applies to FILE\n"
	 "  --baseline FILE      report only findings not in FILE\n"
	 "  --write-baseline FILE  write every finding to FILE (exit 0)\n"
	 "  -j N, --jobs N       lint N files at once (the output is the same as -j 1)\n"
	 "  --block X[,Y[,Z]]    launch block for kernels without .reqntid/.maxntid\n"
	 "  --param NAME=VALUE   value of a kernel parameter (repeatable)\n"
	 "  --ptxas[=PATH]       exact registers and spills from ptxas -v\n"
	 "  --nvcc PATH          the nvcc for CUDA files (default: $CUDA_HOME/bin/nvcc, PATH)\n"
	 "  --no-compile         source analyses only for CUDA files (no nvcc)\n"
	 "  -p BUILD_DIR         folder of compile_commands.json (CUDA files)\n"
	 "  --arch-dir DIR       also load the arch tables in DIR (repeatable)\n"},
	{"occupancy", "the occupancy calculator: blocks per SM, limiters, advice, plots", cmd_occupancy,
	 "usage: ptxray occupancy --arch sm_XX --threads N --registers N [options]\n"
	 "       ptxray occupancy FILE.ptx [--kernel NAME] [--threads N] [options]\n"
	 "       ptxray occupancy --batch FILE|-\n"
	 "  --arch sm_XX         compute capability (FILE mode: default the .target)\n"
	 "  --threads N|X,Y,Z    threads per block (FILE mode: default the report's block)\n"
	 "  --registers N        registers per thread (FILE mode: the estimate, or ptxas)\n"
	 "  --shared SIZE        static shared memory per block (units: 8K, 8KiB, 1M)\n"
	 "  --dynamic-shared SIZE  dynamic shared memory per block\n"
	 "  --shared-per-thread SIZE  for the block-size advice: dynamic shared grows by\n"
	 "                       SIZE per thread\n"
	 "  --carveout P         shared memory carveout preference, percent (-1: default)\n"
	 "  --optin              the kernel opted into the large dynamic shared limit\n"
	 "  --barriers N         named barriers the kernel uses (default 1)\n"
	 "  --target-occupancy X the occupancy (0..1 or N%) the launch-bounds advice aims at\n"
	 "  --kernel NAME        FILE mode: only this kernel\n"
	 "  --ptxas[=PATH]       FILE mode: exact registers and shared memory from ptxas -v\n"
	 "  --batch FILE|-       one JSON object per line in, one result per line out\n"
	 "  --plot FILE.svg|-    the calculator's three graphs as SVG, or as text (-)\n"
	 "  --format text|json   output format (default text)\n"
	 "  --arch-dir DIR       also load the arch tables in DIR (repeatable)\n"},
	{"report", "per kernel: resources, registers, shared and local memory, launch", cmd_report,
	 "usage: ptxray report [options] FILE.ptx...\n"
	 "       ptxray report [options] FILE.cu...   (CUDA source: kind \"cuda\")\n"
	 "  --format text|json   output format (default text)\n"
	 "  --block X[,Y[,Z]]    launch block for lane-level verdicts (default: .reqntid,\n"
	 "                       else .maxntid, else 256x1x1)\n"
	 "  --grid X[,Y[,Z]]     launch grid\n"
	 "  --param NAME=VALUE   value of a kernel parameter (name or index; repeatable)\n"
	 "  --kernel NAME        only this kernel, mangled or demangled (repeatable)\n"
	 "  --arch sm_XX         target (default: the file's .target)\n"
	 "  --ptxas[=PATH]       run ptxas -v for exact registers, stack and spills\n"
	 "  --dump=PASS[,PASS]   print a pass's state to standard error (see --dump=list)\n"
	 "  CUDA sources:\n"
	 "  --nvcc PATH          the nvcc to compile with (default: $CUDA_HOME/bin/nvcc, PATH)\n"
	 "  --no-compile         source analyses only (no nvcc)\n"
	 "  -p BUILD_DIR         folder of compile_commands.json (-I, -D, -std, -arch)\n"
	 "                       PTX is cached in $XDG_CACHE_HOME/ptxray, else .ptxray-cache\n"},
	{"rules", "the rule catalogue and each rule's documentation", cmd_rules,
	 "usage: ptxray rules [ID] [--man]\n"
	 "  (none)               every rule: id, category, default severity, on by default, summary\n"
	 "  ID                   one rule's documentation: message, description, why, fix, example\n"
	 "  --man                the ptxray-rules(7) page, generated from the registry\n"},
	{"simt", "cycle-level SIMT simulation of one block: loop timing and verifier checks", cmd_simt,
	 "usage: ptxray simt FILE.ptx --kernel NAME [options]\n"
	 "  --kernel NAME        the kernel to simulate (mangled or demangled)\n"
	 "  --block X[,Y[,Z]]    the block (default: .reqntid, .maxntid, else 256)\n"
	 "  --grid X[,Y[,Z]]     the grid (%nctaid); the simulated block is block 0\n"
	 "  --param NAME=VALUE   value of a kernel parameter, by name or index (repeatable)\n"
	 "  --loop LINE|all      the loops to report: the one whose header is at LINE (PTX\n"
	 "                       or .loc source line), or every loop (default: the four\n"
	 "                       heaviest innermost loops)\n"
	 "  --iters N            iterations assumed where a loop depends on unknown values\n"
	 "                       (default 64)\n"
	 "  --budget N           stop after N warp-instructions (default 50000000)\n"
	 "  --dynamic-shared N   bytes of dynamic shared memory (default: 48 KiB less static)\n"
	 "  --arch sm_XX         timing table (default: the PTX .target; sm_90 where the\n"
	 "                       table has no latency section)\n"
	 "  --format text|json   output format (default text)\n"
	 "  --arch-dir DIR       also load the arch tables in DIR (repeatable)\n"},
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

/* ---- the arch tables: embedded, then PTXRAY_ARCH_PATH, then --arch-dir ---- */

/* Loads the tables a command uses. NULL (errors in diags) when a directory
 * or a table is bad. */
static struct px_archset *load_archs(const char *const *dirs, size_t ndirs, struct px_diags *diags)
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

static int write_out(struct px_buf *out)
{
	int rc = 0;
	if (out->n && (fwrite(out->p, 1, out->n, stdout) != out->n || fflush(stdout) != 0))
		rc = bad_usage("cannot write the output: %s", strerror(errno));
	px_buf_free(out);
	return rc;
}

static const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < PX_COUNTOF(commands); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int cmd_arch(int argc, char **argv)
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

/* ---- ptxray occupancy ---- */

struct occ_opts {
	const char *arch, *format, *batch, *plot, *kernel, *ptxas, *file;
	struct px_occ_query q;
	bool have_threads, have_registers;
	struct px_occ_advice_options adv;
};

/* Renders one configuration as the command's output (text or one JSON object). */
static void occ_render(struct px_buf *b, const struct occ_opts *o, const struct px_arch *a,
                       const struct px_occ_query *q, const char *kernel, const char *regs_from)
{
	struct px_occ_result r;
	struct px_occ_advice adv;
	px_occ_compute(a, q, &r);
	px_occ_advise(a, q, &r, &o->adv, &adv);
	if (strcmp(o->format, "json") == 0) {
		struct px_json j = {.out = b, .pretty = false};
		px_occ_json(&j, a, q, &r, &adv);
		if (kernel) {  /* FILE mode: name the kernel and where its registers come from */
			b->n--;    /* reopen the object */
			px_buf_printf(b, ",\"kernel\":");
			struct px_json k = {.out = b, .pretty = false};
			px_json_string(&k, kernel);
			px_buf_printf(b, ",\"registers_from\":\"%s\"}", regs_from);
		}
		px_buf_puts(b, "\n");
	} else {
		if (kernel)
			px_buf_printf(b, "%s (registers: %s)\n", kernel, regs_from);
		px_occ_text(b, a, q, &r, &adv);
	}
	if (o->plot && strcmp(o->plot, "-") == 0 && strcmp(o->format, "text") == 0) {
		px_buf_puts(b, "\n");
		px_occ_plot_text(b, a, q, &r);
	}
}

/* --batch: one JSON object per line in, one result per line out. A line
 * that is not such an object is a located error (exit 2, nothing written);
 * an impossible configuration answers {"error": ...} and the batch goes on. */
static int occ_batch(const struct occ_opts *o, const struct px_archset *set)
{
	size_t len = 0;
	char *err = NULL;
	char *text;
	if (strcmp(o->batch, "-") == 0) {
		struct px_buf in = {0};
		char chunk[65536];
		size_t n;
		while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
			px_buf_printf(&in, "%.*s", (int)n, chunk);
		}
		text = in.p ? in.p : xstrdup("");
		len = in.n;
	} else {
		text = px_read_file(o->batch, &len, &err);
		if (!text) {
			fprintf(stderr, "%s: error: cannot read: %s\n", o->batch, err);
			free(err);
			return 2;
		}
	}
	const char *name = strcmp(o->batch, "-") == 0 ? "<stdin>" : o->batch;
	struct px_buf b = {0};
	int rc = 0;
	uint32_t lineno = 0;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		lineno++;
		const char *s = p;
		while (s < le && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s < le) {
			char arch[32], why[160];
			uint32_t col;
			struct px_occ_query q;
			if (!px_occ_parse_line(p, (size_t)(le - p), arch, sizeof arch, &q, &col, why, sizeof why)) {
				fprintf(stderr, "%s:%u:%u: error: %s\n", name, lineno, col, why);
				rc = 2;
				break;
			}
			const struct px_arch *a = px_archset_find(set, arch);
			const char *bad = a ? px_occ_check(a, &q) : "unknown arch (see ptxray arch list)";
			if (bad) {
				struct px_json j = {.out = &b, .pretty = false};
				px_json_begin_object(&j);
				px_json_key(&j, "error");
				px_json_string(&j, bad);
				px_json_end_object(&j);
				px_buf_puts(&b, "\n");
			} else {
				struct occ_opts one = *o;
				one.format = "json";
				one.plot = NULL;
				occ_render(&b, &one, a, &q, NULL, NULL);
			}
		}
		p = nl ? nl + 1 : end;
	}
	free(text);
	if (rc) {
		px_buf_free(&b);
		return rc;
	}
	return write_out(&b);
}

/* FILE.ptx mode: each selected kernel's resources from the report. */
static int occ_file(const struct occ_opts *o, const struct px_archset *set)
{
	struct px_report_options ropt = {0};
	const char *kernels[2] = {o->kernel, NULL};
	ropt.kernels = o->kernel ? kernels : NULL;
	ropt.ptxas = o->ptxas;
	ropt.arch = o->arch;
	ropt.archs = set;
	size_t len = 0;
	char *err = NULL;
	char *text = px_read_file(o->file, &len, &err);
	if (!text) {
		fprintf(stderr, "%s: error: cannot read: %s\n", o->file, err);
		free(err);
		return 2;
	}
	struct px_diags diags = {0};
	struct px_file_report rep;
	struct source src = {o->file, text, len};
	bool ok = px_report_file(o->file, text, len, &ropt, &rep, &diags);
	if (ok && rep.ptxas_error)
		px_diag_add(&diags, PX_WARNING, o->file, 0, 0, NULL, "ptxas: %s", rep.ptxas_error);
	int rc = 0;
	const struct px_arch *a = NULL;
	if (ok) {
		char target[32];
		if (o->arch)
			snprintf(target, sizeof target, "%s", o->arch);
		else
			snprintf(target, sizeof target, PX_STR_FMT, PX_STR_ARG(rep.module->target));
		a = px_archset_find(set, target);
		if (!a) {
			px_diag_add(&diags, PX_ERROR, o->file, 0, 0, NULL,
			            "no arch table for target '%s' (give --arch; see ptxray arch list)", target);
			ok = false;
		} else if (rep.nkernels == 0) {
			px_diag_add(&diags, PX_ERROR, o->file, 0, 0, NULL, "no kernel%s%s",
			            o->kernel ? " named " : " in the file", o->kernel ? o->kernel : "");
			ok = false;
		}
	}
	render_diags(stderr, &diags, &src, 1);
	px_diags_free(&diags);
	struct px_buf b = {0};
	for (size_t i = 0; ok && i < rep.nkernels; i++) {
		const struct px_kernel_report *k = &rep.kernels[i];
		struct px_occ_query q = o->q;
		if (!o->have_threads)
			q.threads = k->block[0] * k->block[1] * k->block[2];
		const char *from = "estimate";
		q.registers = k->reg_estimate;
		q.shared = (uint32_t)k->shared_static_bytes;
		if (k->have_ptxas && k->ptxas.have_regs) {
			q.registers = k->ptxas.registers;
			q.shared = k->ptxas.smem_bytes;
			q.barriers = k->ptxas.barriers;
			from = "ptxas";
		}
		if (o->have_registers) {
			q.registers = o->q.registers;
			from = "option";
		}
		const char *bad = px_occ_check(a, &q);
		if (bad) {
			fprintf(stderr, "%s: error: %s\n", o->file, bad);
			ok = false;
			break;
		}
		char name[512];
		if (k->demangled)
			snprintf(name, sizeof name, "%s", k->demangled);
		else
			snprintf(name, sizeof name, PX_STR_FMT, PX_STR_ARG(k->func->name));
		if (i && strcmp(o->format, "text") == 0)
			px_buf_puts(&b, "\n");
		occ_render(&b, o, a, &q, name, from);
	}
	if (rep.module)
		px_file_report_free(&rep);
	else
		free(text);
	if (!ok) {
		px_buf_free(&b);
		return 2;
	}
	rc = write_out(&b);
	return rc;
}

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

static int cmd_compat(int argc, char **argv)
{
	const char *format = "text", *arch = "all", *table = NULL;
	bool any_version = false, list = false;
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
			px_diag_add(&diags, PX_ERROR, files[f], 0, 0, NULL,
			            "compat reads PTX; compile CUDA first (nvcc -ptx -arch=compute_XX) and "
			            "pass the .ptx");
			failed = true;
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
	free(files);
	return rc;
}

static int cmd_occupancy(int argc, char **argv)
{
	struct occ_opts o = {.format = "text"};
	o.q.carveout = -1;
	o.q.barriers = 1;
	const char **dirs = xcalloc((size_t)argc + 1, sizeof *dirs);
	size_t ndirs = 0;
	int rc = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		uint32_t n;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(find_command("occupancy")->usage, stdout);
			goto out;
		} else if ((v = opt_value(argc, argv, &i, "--format"))) {
			if (strcmp(v, "text") != 0 && strcmp(v, "json") != 0) {
				rc = bad_usage("unknown format '%s' (text, json)", v);
				goto out;
			}
			o.format = v;
		} else if ((v = opt_value(argc, argv, &i, "--arch-dir"))) {
			dirs[ndirs++] = v;
		} else if ((v = opt_value(argc, argv, &i, "--arch"))) {
			o.arch = v;
		} else if ((v = opt_value(argc, argv, &i, "--threads"))) {
			uint32_t dims[3];
			if (!parse_dims(v, dims) || (uint64_t)dims[0] * dims[1] * dims[2] > (1u << 20)) {
				rc = bad_usage("bad --threads '%s': expected N or X,Y,Z (at most 1048576 in all)", v);
				goto out;
			}
			o.q.threads = dims[0] * dims[1] * dims[2];
			o.have_threads = true;
		} else if ((v = opt_value(argc, argv, &i, "--registers"))) {
			if (!px_parse_size(v, &n) || n > 1024) {
				rc = bad_usage("bad --registers '%s': expected a count per thread", v);
				goto out;
			}
			o.q.registers = n;
			o.have_registers = true;
		} else if ((v = opt_value(argc, argv, &i, "--shared-per-thread"))) {
			if (!px_parse_size(v, &n)) {
				rc = bad_usage("bad --shared-per-thread '%s': expected bytes (units K, KiB, M)", v);
				goto out;
			}
			o.adv.have_shared_per_thread = true;
			o.adv.shared_per_thread = n;
		} else if ((v = opt_value(argc, argv, &i, "--shared"))) {
			if (!px_parse_size(v, &o.q.shared)) {
				rc = bad_usage("bad --shared '%s': expected bytes (units K, KiB, M)", v);
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--dynamic-shared"))) {
			if (!px_parse_size(v, &o.q.dynamic_shared)) {
				rc = bad_usage("bad --dynamic-shared '%s': expected bytes (units K, KiB, M)", v);
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--carveout"))) {
			char *end;
			long c = strtol(v, &end, 10);
			if (end == v || *end || c < -1 || c > 100) {
				rc = bad_usage("bad --carveout '%s': expected -1 (driver default) or 0..100", v);
				goto out;
			}
			o.q.carveout = (int32_t)c;
		} else if ((v = opt_value(argc, argv, &i, "--barriers"))) {
			if (!px_parse_size(v, &n) || n > 64) {
				rc = bad_usage("bad --barriers '%s': expected 0..16", v);
				goto out;
			}
			o.q.barriers = n;
		} else if ((v = opt_value(argc, argv, &i, "--target-occupancy"))) {
			char *end;
			double t = strtod(v, &end);
			if (end != v && *end == '%')
				t /= 100, end++;
			if (end == v || *end || !(t > 0 && t <= 1)) {
				rc = bad_usage("bad --target-occupancy '%s': expected 0 < X <= 1, or a percentage", v);
				goto out;
			}
			o.adv.target_occupancy = t;
		} else if (strcmp(a, "--optin") == 0) {
			o.q.optin = true;
		} else if ((v = opt_value(argc, argv, &i, "--batch"))) {
			o.batch = v;
		} else if ((v = opt_value(argc, argv, &i, "--plot"))) {
			o.plot = v;
		} else if ((v = opt_value(argc, argv, &i, "--kernel"))) {
			o.kernel = v;
		} else if (strcmp(a, "--ptxas") == 0) {
			o.ptxas = "ptxas";
		} else if (strncmp(a, "--ptxas=", 8) == 0) {
			o.ptxas = a + 8;
		} else if (a[0] == '-' && a[1]) {
			rc = bad_usage("unknown option '%s' (see ptxray occupancy --help)", a);
			goto out;
		} else if (!o.file) {
			o.file = a;
		} else {
			rc = bad_usage("unexpected argument '%s': one FILE.ptx at a time", a);
			goto out;
		}
	}
	if (o.batch && (o.file || o.plot)) {
		rc = bad_usage("%s", "--batch takes its configurations from its input: no FILE, no --plot");
		goto out;
	}
	if (!o.batch && !o.file && (!o.arch || !o.have_threads || !o.have_registers)) {
		rc = bad_usage("%s", "give --arch, --threads and --registers, or a FILE.ptx, or --batch "
		               "(see ptxray occupancy --help)");
		goto out;
	}
	if (o.plot && strcmp(o.plot, "-") == 0 && strcmp(o.format, "json") == 0) {
		rc = bad_usage("%s", "--plot - draws on the terminal: use it with --format text");
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
	if (o.batch) {
		rc = occ_batch(&o, set);
	} else if (o.file) {
		if (o.plot && strcmp(o.plot, "-") != 0)
			rc = bad_usage("%s", "--plot FILE.svg draws one configuration: use it without FILE.ptx");
		else
			rc = occ_file(&o, set);
	} else {
		const struct px_arch *a = px_archset_find(set, o.arch);
		const char *bad = a ? px_occ_check(a, &o.q) : NULL;
		if (!a) {
			rc = bad_usage("unknown arch '%s' (see ptxray arch list)", o.arch);
		} else if (bad) {
			rc = bad_usage("impossible configuration: %s", bad);
		} else {
			struct px_buf b = {0};
			if (o.plot && strcmp(o.plot, "-") != 0) {
				struct px_occ_result r;
				px_occ_compute(a, &o.q, &r);
				struct px_buf svg = {0};
				px_occ_plot_svg(&svg, a, &o.q, &r);
				FILE *f = fopen(o.plot, "wb");
				bool written = f && fwrite(svg.p, 1, svg.n, f) == svg.n;
				if (f && fclose(f) != 0)
					written = false;
				px_buf_free(&svg);
				if (!written) {
					rc = bad_usage("cannot write the plot: %s", o.plot);
					remove(o.plot);
				}
			}
			if (!rc) {
				occ_render(&b, &o, a, &o.q, NULL, NULL);
				rc = write_out(&b);
			} else {
				px_buf_free(&b);
			}
		}
	}
	px_archset_delete(set);
out:
	free(dirs);
	return rc;
}

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

struct out_state {
	FILE *to;
	bool failed;
};

/* px_buf sink: writes a chunk of output, remembering a failure. */
static void sink_out(void *ctx, const char *p, size_t n)
{
	struct out_state *st = ctx;
	if (!st->failed && fwrite(p, 1, n, st->to) != n)
		st->failed = true;
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
	struct cuda_bridge_opts bo = {0};
	int rc = 0;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(find_command("report")->usage, stdout);
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
		/* every file has been analysed: the output streams out in chunks */
		struct out_state st = {stdout, false};
		struct px_buf out = {.sink = sink_out, .sink_ctx = &st};
		if (strcmp(format, "json") == 0)
			px_report_json(&out, reps, nfiles);
		else
			px_report_text(&out, reps, nfiles);
		px_buf_flush(&out);
		if (st.failed || fflush(stdout) != 0)
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
	px_archset_delete(archs);
out:
	free(files);
	free(kernels);
	free(params);
	return rc;
}

/* ---- ptxray rules ---- */

static int cmd_rules(int argc, char **argv)
{
	const char *id = NULL;
	bool man = false;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(find_command("rules")->usage, stdout);
			return 0;
		} else if (strcmp(argv[i], "--man") == 0) {
			man = true;
		} else if (argv[i][0] == '-') {
			return bad_usage("unknown option '%s' (see ptxray rules --help)", argv[i]);
		} else if (!id) {
			id = argv[i];
		} else {
			return bad_usage("unexpected argument '%s': one rule at a time", argv[i]);
		}
	}
	struct px_buf b = {0};
	if (man) {
		if (id)
			return bad_usage("%s", "--man prints the whole catalogue: no ID");
		px_rules_man(&b, "2026", PX_VERSION);
	} else if (id) {
		const struct px_rule *r = px_rule_find(id);
		if (!r)
			return bad_usage("unknown rule '%s' (see ptxray rules)", id);
		px_rule_doc(&b, r);
	} else {
		px_rules_list(&b);
	}
	return write_out(&b);
}

/* ---- ptxray lint ---- */

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

struct lint_job {
	const char *path;
	const struct px_config *cfg;
	const struct px_lint_options *opt;
	struct px_lint_result res;
	struct px_diags diags;
	bool ok;
};

struct lint_pool {
	struct lint_job *jobs;
	size_t n, next;
	pthread_mutex_t lock;
};

static void *lint_worker(void *arg)
{
	struct lint_pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		size_t i = p->next++;
		pthread_mutex_unlock(&p->lock);
		if (i >= p->n)
			return NULL;
		struct lint_job *j = &p->jobs[i];
		j->ok = px_lint_file(j->path, j->cfg, j->opt, &j->res, &j->diags);
	}
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

static int cmd_lint(int argc, char **argv)
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
	long jobs = 1;
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

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(find_command("lint")->usage, stdout);
			goto out;
		} else if ((v = opt_value(argc, argv, &i, "--format"))) {
			if (strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "sarif") && strcmp(v, "github")) {
				rc = bad_usage("unknown format '%s' (text, json, sarif, github)", v);
				goto out;
			}
			format = v;
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
		} else if ((v = opt_value(argc, argv, &i, "--jobs")) || (v = opt_value(argc, argv, &i, "-j"))) {
			char *end;
			jobs = strtol(v, &end, 10);
			if (end == v || *end || jobs < 1 || jobs > 256) {
				rc = bad_usage("bad -j '%s': expected 1..256", v);
				goto out;
			}
		} else if (strncmp(a, "-j", 2) == 0 && a[2]) {
			char *end;
			jobs = strtol(a + 2, &end, 10);
			if (*end || jobs < 1 || jobs > 256) {
				rc = bad_usage("bad -j '%s': expected 1..256", a + 2);
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--block"))) {
			if (!parse_dims(v, opt.block)) {
				rc = bad_usage("bad --block '%s': expected X[,Y[,Z]] of positive integers", v);
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--param"))) {
			if (!px_param_value_parse(v, &params[nparams])) {
				rc = bad_usage("bad --param '%s': expected NAME=VALUE (VALUE an integer)", v);
				goto out;
			}
			nparams++;
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
	struct lint_pool pool = {.jobs = jl, .n = nfiles};
	pthread_mutex_init(&pool.lock, NULL);
	size_t nthreads = (size_t)jobs < nfiles ? (size_t)jobs : nfiles;
	if (nthreads <= 1) {
		lint_worker(&pool);
	} else {
		pthread_t *th = xcalloc(nthreads, sizeof *th);
		size_t started = 0;
		for (; started < nthreads; started++)
			if (pthread_create(&th[started], NULL, lint_worker, &pool) != 0)
				break;
		if (!started)
			lint_worker(&pool);
		for (size_t t = 0; t < started; t++)
			pthread_join(th[t], NULL);
		free(th);
	}
	pthread_mutex_destroy(&pool.lock);
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

/* ---- ptxray simt ---- */

static int cmd_simt(int argc, char **argv)
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
