/* cmd_occupancy.c: `ptxray occupancy`: flags, FILE.ptx, --batch, advice and plots. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

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

int cmd_occupancy(int argc, char **argv)
{
	struct occ_opts o = {.format = "text"};
	o.q.carveout = -1;
	o.q.barriers = 1;
	const char **dirs = xcalloc((size_t)argc + 1, sizeof *dirs);
	size_t ndirs = 0;
	int rc = 0, r;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		uint32_t n;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(find_command("occupancy")->usage, stdout);
			goto out;
		} else if ((r = format_option(argc, argv, &i, text_json, &o.format))) {
			if (r < 0) {
				rc = 2;
				goto out;
			}
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
