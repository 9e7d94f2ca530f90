/* lint.c: `ptxray lint` without the printing: analyse one file with the
 * report's pipeline, run every enabled rule of the registry for each
 * kernel and target, drop what a suppression or the baseline covers.
 *
 * Approach: px_report_file analyses each kernel as it is parsed (the rules
 * then read the results the passes kept, never the body). The targets are
 * --arch, else the configuration's archs, else the file's .target; for each
 * one the occupancy engine's answer at the kernel's launch block (the
 * configured dynamic shared memory added) goes into the rule context, the
 * per-target rules run every time and the others on the first target only.
 * Suppressions come from `ptxray-ignore` comments in the file itself (and,
 * for CUDA sources, from the front end's annotations through
 * px_suppressions_add). A finding's fingerprint is a hash of its line's text
 * without blanks, so baselines survive code moving up or down. */
#include <stdio.h>
#include <string.h>

#include "checks.h"

void px_lint_result_free(struct px_lint_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->items[i].file);
		free(r->items[i].message);
		free(r->items[i].kernel);
		free(r->items[i].arch);
	}
	free(r->items);
	memset(r, 0, sizeof *r);
}

static int strcmp0(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_finding(const void *x, const void *y)
{
	const struct px_finding *a = x, *b = y;
	int c = strcmp(a->file, b->file);
	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	if ((c = strcmp(a->rule, b->rule)))
		return c;
	if ((c = strcmp0(a->arch, b->arch)))
		return c;
	if ((c = strcmp0(a->kernel, b->kernel)))
		return c;
	return strcmp(a->message, b->message);
}

void px_lint_result_sort(struct px_lint_result *r)
{
	if (r->n)
		qsort(r->items, r->n, sizeof *r->items, cmp_finding);
}

/* ---- lines ---- */

static uint32_t fingerprint(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == ' ' || ch == '\t' || ch == '\r')
			continue;
		if (ch == '/' && i + 1 < n && s[i + 1] == '/')
			break;   /* a trailing comment (a suppression) does not change the finding */
		h = (h ^ ch) * 16777619u;
	}
	return h;
}

void px_lint_add_finding(struct px_lint_result *out, const char *rule, enum px_severity sev,
                        const char *file, uint32_t line, uint32_t column, const char *kernel,
                        const char *arch, char *message)
{
	struct px_finding *f = PX_VEC_PUSH(out->items, out->n, out->cap);
	f->rule = rule;
	f->severity = sev;
	f->file = xstrdup(file);
	f->line = line;
	f->column = column;   /* 0: px_lint_locate puts it on the line's first non-blank */
	f->message = message;
	f->kernel = kernel ? xstrdup(kernel) : NULL;
	f->arch = arch ? xstrdup(arch) : NULL;
	f->fingerprint = 0;   /* px_lint_locate */
}

struct by_line {
	uint32_t line;
	size_t i;
};

static int cmp_by_line(const void *a, const void *b)
{
	const struct by_line *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* How much of a mapped text a sequential walk holds before it gives the
 * pages behind it back (px_text_release). */
#define RELEASE_STEP ((size_t)4 << 20)

/* Fills the columns left 0 (the line's first non-blank, else 1) and the
 * fingerprints of r's findings, all on lines of text, in one pass over the
 * text in line order. (Finding each line from the start of the text, as
 * this once did per finding, made lint quadratic: 87 s on the 29 MB CCCL
 * PTX with its 8,785 findings.) A line past the end keeps fingerprint 0. */
static void locate(struct px_lint_result *r, const char *text, size_t len, bool mapped)
{
	if (!r->n)
		return;
	struct by_line *o = xmalloc(r->n * sizeof *o);
	for (size_t i = 0; i < r->n; i++)
		o[i] = (struct by_line){r->items[i].line, i};
	qsort(o, r->n, sizeof *o, cmp_by_line);
	const char *p = text, *end = text ? text + len : NULL;
	uint32_t cur = 1;   /* the line p starts; p == NULL: past the end */
	size_t released = 0;
	for (size_t k = 0; k < r->n; k++) {
		struct px_finding *f = &r->items[o[k].i];
		while (p && cur < f->line) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			p = nl ? nl + 1 : NULL;
			cur++;
		}
		/* a mapped text: the pages behind, a few MB at a time */
		if (mapped && p && (size_t)(p - text) - released >= RELEASE_STEP)
			released = px_text_release(text, len, released, (size_t)(p - text));
		if (!p || !f->line) {
			if (!f->column)
				f->column = 1;
			continue;
		}
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ln = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (!f->column) {
			uint32_t col = 1;
			while (col <= ln && (p[col - 1] == ' ' || p[col - 1] == '\t'))
				col++;
			f->column = col > ln ? 1 : col;
		}
		f->fingerprint = fingerprint(p, ln);
	}
	if (mapped && text)
		px_text_release(text, len, released, len);
	free(o);
}

void px_rule_report(struct px_rule_ctx *c, const struct px_rule *r, uint32_t line, uint32_t column,
                    const char *fmt, ...)
{
	size_t nr;
	const struct px_rule *rules = px_rules(&nr);
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	char kname[256];
	px_rule_kernel_name(c->k, kname, sizeof kname);
	px_lint_add_finding(c->out, r->id, c->eff->rules[r - rules].severity, c->file->path, line, column, kname,
	            r->per_arch && c->arch ? c->arch->name : NULL, msg);
}

double px_rule_threshold(const struct px_rule_ctx *c, const struct px_rule *r)
{
	size_t nr;
	const struct px_rule *rules = px_rules(&nr);
	return c->eff->rules[r - rules].threshold;
}

/* ---- suppressions ---- */

static bool is_id_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' ||
	       (ch >= 'A' && ch <= 'Z');
}

void px_suppressions_add(struct px_suppressions *s, uint32_t line, uint32_t comment_line,
                         uint32_t comment_column, bool file_wide, const char *const *rules,
                         uint32_t nrules, const char *reason)
{
	struct px_suppression *x = PX_VEC_PUSH(s->items, s->n, s->cap);
	memset(x, 0, sizeof *x);
	x->line = file_wide ? 0 : line;
	x->comment_line = comment_line;
	x->comment_column = comment_column;
	x->file_wide = file_wide;
	x->rules = xcalloc(nrules + 1, sizeof *x->rules);
	for (uint32_t i = 0; i < nrules; i++)
		x->rules[i] = xstrdup(rules[i]);
	x->nrules = nrules;
	x->reason = reason ? xstrdup(reason) : NULL;
}

/* Does the line hold code (anything but blanks and a // comment)? */
static bool has_code(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')
			continue;
		return !(s[i] == '/' && i + 1 < n && s[i + 1] == '/');
	}
	return false;
}

/* grammar: "//" blanks "ptxray-ignore" ["-file"] ":" ID {"," ID} [DASH REASON] */
void px_suppressions_scan(struct px_suppressions *s, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	uint32_t line = 0;
	size_t first_pending = s->n;   /* comments waiting for the next line with code */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		size_t n = (size_t)(le - p);
		line++;
		bool code = has_code(p, n);
		if (code) {
			for (size_t i = first_pending; i < s->n; i++)
				if (!s->items[i].file_wide && !s->items[i].line)
					s->items[i].line = line;
			first_pending = s->n;
		}
		const char *c = NULL;
		for (const char *q = p; q + 1 < le; q++)
			if (q[0] == '/' && q[1] == '/') {
				c = q;
				break;
			}
		const char *key = "ptxray-ignore";
		const char *k = c ? memmem(c, (size_t)(le - c), key, strlen(key)) : NULL;
		if (k && k < le) {
			const char *q = c + 2;
			while (q < le && (*q == ' ' || *q == '\t'))
				q++;
			if (q == k) {
				q += strlen(key);
				bool file_wide = false;
				if (le - q >= 5 && memcmp(q, "-file", 5) == 0) {
					file_wide = true;
					q += 5;
				}
				if (q < le && *q == ':') {
					q++;
					char *ids[16];
					uint32_t nids = 0;
					for (;;) {
						while (q < le && (*q == ' ' || *q == '\t' || *q == ','))
							q++;
						const char *st = q;
						while (q < le && is_id_char(*q))
							q++;
						/* a lone '-' starts the reason */
						if (q == st || (q - st == 1 && *st == '-') || (q - st == 2 && st[0] == '-' && st[1] == '-')) {
							q = st;
							break;
						}
						if (nids < PX_COUNTOF(ids))
							ids[nids++] = xstrndup(st, (size_t)(q - st));
					}
					while (q < le && (*q == ' ' || *q == '\t'))
						q++;
					const char *reason = NULL;
					static const char *const dashes[] = {"\xe2\x80\x94", "\xe2\x80\x93", "--", "-", ":"};
					for (size_t d = 0; d < PX_COUNTOF(dashes) && !reason; d++) {
						size_t dl = strlen(dashes[d]);
						if ((size_t)(le - q) >= dl && memcmp(q, dashes[d], dl) == 0)
							reason = q + dl;
					}
					char *rs = NULL;
					if (reason) {
						while (reason < le && (*reason == ' ' || *reason == '\t'))
							reason++;
						const char *re = le;
						while (re > reason && (re[-1] == ' ' || re[-1] == '\t' || re[-1] == '\r'))
							re--;
						if (re > reason)
							rs = xstrndup(reason, (size_t)(re - reason));
					}
					bool after_code = has_code(p, (size_t)(c - p));
					px_suppressions_add(s, after_code ? line : 0, line, (uint32_t)(c - p) + 1, file_wide,
					                    (const char *const *)ids, nids, rs);
					for (uint32_t i = 0; i < nids; i++)
						free(ids[i]);
					free(rs);
					if (after_code)
						first_pending = s->n;
				}
			}
		}
		p = nl ? nl + 1 : end;
	}
}

bool px_suppressions_match(struct px_suppressions *s, const char *rule, uint32_t line)
{
	bool hit = false;
	for (size_t i = 0; i < s->n; i++) {
		struct px_suppression *x = &s->items[i];
		if (!x->file_wide && x->line != line)
			continue;
		for (uint32_t k = 0; k < x->nrules; k++)
			if (strcmp(x->rules[k], rule) == 0 || strcmp(x->rules[k], "all") == 0) {
				x->used = true;
				hit = true;
			}
	}
	return hit;
}

void px_suppressions_free(struct px_suppressions *s)
{
	for (size_t i = 0; i < s->n; i++) {
		for (uint32_t k = 0; k < s->items[i].nrules; k++)
			free(s->items[i].rules[k]);
		free(s->items[i].rules);
		free(s->items[i].reason);
	}
	free(s->items);
	memset(s, 0, sizeof *s);
}

/* bad-annotation findings for the suppressions themselves. */
void px_lint_check_suppressions(const struct px_suppressions *s, const struct px_effective *eff,
                                 const char *path, struct px_lint_result *out)
{
	size_t nr;
	const struct px_rule *rules = px_rules(&nr);
	const struct px_rule *bad = px_rule_find("bad-annotation");
	const struct px_rule_setting *set = &eff->rules[bad - rules];
	if (set->state != PX_RULE_ON)
		return;
	for (size_t i = 0; i < s->n; i++) {
		const struct px_suppression *x = &s->items[i];
		char *msg = NULL;
		if (!x->nrules)
			msg = xstrdup("ptxray-ignore names no rule: `// ptxray-ignore: RULE — reason`");
		for (uint32_t k = 0; k < x->nrules && !msg; k++)
			if (strcmp(x->rules[k], "all") != 0 && !px_rule_find(x->rules[k]))
				msg = xasprintf("ptxray-ignore names an unknown rule '%s' (see ptxray rules)", x->rules[k]);
		if (!msg && !x->reason)
			msg = xstrdup("ptxray-ignore needs a reason: `// ptxray-ignore: RULE — why`");
		if (msg)
			px_lint_add_finding(out, bad->id, set->severity, path, x->comment_line, x->comment_column, NULL,
			            NULL, msg);
	}
}

/* Locates mine's findings in text (columns, fingerprints), then moves them
 * to out, dropping (and counting) those a suppression covers; bad-annotation
 * findings are never suppressed. Empties mine. */
void px_lint_apply_suppressions(struct px_lint_result *mine, struct px_suppressions *supp,
                                const char *text, size_t len, bool mapped, struct px_lint_result *out)
{
	locate(mine, text, len, mapped);
	for (size_t i = 0; i < mine->n; i++) {
		struct px_finding *f = &mine->items[i];
		if (strcmp(f->rule, "bad-annotation") != 0 && px_suppressions_match(supp, f->rule, f->line)) {
			out->suppressed++;
			free(f->file);
			free(f->message);
			free(f->kernel);
			free(f->arch);
			continue;
		}
		*PX_VEC_PUSH(out->items, out->n, out->cap) = *f;
	}
	free(mine->items);
	memset(mine, 0, sizeof *mine);
}

/* ---- one file ---- */

bool px_lint_selected(const struct px_lint_options *opt, const char *id)
{
	if (!opt->nonly)
		return true;
	for (uint32_t i = 0; i < opt->nonly; i++)
		if (strcmp(opt->only[i], id) == 0)
			return true;
	return false;
}

static void target_occupancy(struct px_rule_ctx *c, const struct px_report_options *ropt,
                             const struct px_config *cfg)
{
	struct px_kernel_report k = *c->k;
	c->have_occ = false;
	if (!c->arch)
		return;
	struct px_report_options o = *ropt;
	o.arch = c->arch->name;
	px_report_occupancy(&o, c->file->module, &k);
	if (!k.have_occ)
		return;
	c->q = k.occ_q;
	c->reg_from = k.have_ptxas && k.ptxas.have_regs ? "ptxas" : "estimate";
	if (cfg->dynamic_shared) {
		c->q.dynamic_shared = cfg->dynamic_shared;
		c->q.optin = cfg->optin;
		if (px_occ_check(c->arch, &c->q))
			return;
		px_occ_compute(c->arch, &c->q, &c->occ);
		px_occ_advise(c->arch, &c->q, &c->occ, NULL, &c->adv);
	} else {
		c->occ = k.occ;
		c->adv = k.occ_adv;
	}
	c->have_occ = true;
}

/* Runs every enabled rule of the registry on each kernel of rep (analysed
 * from text, len bytes) for each of the narchs targets (none: one pass
 * without an arch table); findings go to mine with rep's path. */
void px_lint_ptx_rules(const char *path, const struct px_file_report *rep, const struct px_report_options *ropt,
                       const struct px_config *cfg, const struct px_effective *eff,
                       const struct px_lint_options *opt, const char *const *archs, uint32_t narchs,
                       const char *text, size_t len, const struct px_suppressions *supp,
                       const struct px_lint_launch *launches, size_t nlaunches,
                       struct px_lint_result *mine, struct px_diags *diags)
{
	size_t nr;
	const struct px_rule *rules = px_rules(&nr);
	struct px_lint_sims *sims = px_lint_simulate(path, rep, ropt, cfg, eff, opt, archs, narchs, text, len, launches,
	                                             nlaunches, diags);
	for (size_t ki = 0; ki < rep->nkernels; ki++) {
		for (uint32_t a = 0; a < (narchs ? narchs : 1); a++) {
			struct px_rule_ctx c = {.opt = opt, .eff = eff, .file = rep, .k = &rep->kernels[ki],
			                        .text = text, .len = len, .out = mine, .first = a == 0,
			                        .optin = cfg->optin, .supp = supp, .sim = px_lint_sim_for(sims, ki)};
			c.arch = narchs && opt->archset ? px_archset_find(opt->archset, archs[a]) : NULL;
			if (narchs && !c.arch && a == 0 && ki == 0)
				px_diag_add(diags, PX_WARNING, path, 0, 0, NULL,
				            "no arch table for '%s': the rules that need one are skipped", archs[a]);
			target_occupancy(&c, ropt, cfg);
			for (size_t r = 0; r < nr; r++)
				if (rules[r].check && eff->rules[r].state == PX_RULE_ON && px_lint_selected(opt, rules[r].id))
					rules[r].check(&c, &rules[r]);
		}
	}
	px_lint_sims_free(sims);
}

bool px_lint_file(const char *path, const struct px_config *cfg, const struct px_lint_options *opt,
                  struct px_lint_result *out, struct px_diags *diags)
{
	struct px_effective eff;
	px_config_effective(cfg, path, &eff);
	if (eff.ignored) {
		px_effective_free(&eff);
		return true;
	}
	size_t len = 0;
	char *err = NULL;
	bool mapped = false;
	/* mapped, so that the parses and the scans below can give back the
	 * pages behind them: lint holds the report's results, not the file */
	char *text = px_map_file(path, &len, &mapped, &err);
	if (!text) {
		px_diag_add(diags, PX_ERROR, path, 0, 0, NULL, "cannot read: %s", err);
		free(err);
		px_effective_free(&eff);
		return false;
	}
	size_t pl = strlen(path);
	if ((pl > 3 && strcmp(path + pl - 3, ".cu") == 0) || (pl > 4 && strcmp(path + pl - 4, ".cuh") == 0)) {
		bool ok = px_lint_cuda(path, text, len, cfg, &eff, opt, out, diags);
		px_text_free(text, len, mapped);
		px_effective_free(&eff);
		return ok;
	}
	struct px_report_options ropt = {0};
	memcpy(ropt.block, opt->block[0] ? opt->block : cfg->block, sizeof ropt.block);
	memcpy(ropt.grid, cfg->grid, sizeof ropt.grid);
	ropt.archs = opt->archset;
	ropt.params = opt->params;
	ropt.nparams = opt->nparams;
	ropt.ptxas = opt->ptxas;
	ropt.pool = opt->pool;
	ropt.task = opt->task;
	ropt.text_mapped = mapped;
	/* the suppressions first, while nothing else is held */
	struct px_suppressions supp = {0};
	px_suppressions_scan(&supp, text, len);
	if (mapped)
		px_text_release(text, len, 0, len);
	struct px_file_report rep;
	bool ok = px_report_file(path, text, len, &ropt, &rep, diags);
	if (!ok) {
		if (rep.module)
			px_file_report_free(&rep);
		else
			px_text_free(text, len, mapped);
		px_suppressions_free(&supp);
		px_effective_free(&eff);
		return false;
	}
	if (rep.ptxas_error)
		px_diag_add(diags, PX_WARNING, path, 0, 0, NULL, "ptxas: %s", rep.ptxas_error);
	const char *mtext = rep.module->text;
	size_t mlen = rep.module->len;

	struct px_lint_result mine = {0};
	if (px_lint_selected(opt, "bad-annotation"))
		px_lint_check_suppressions(&supp, &eff, path, &mine);

	/* the targets */
	const char *const *archs = opt->narchs ? opt->archs : eff.archs;
	uint32_t narchs = opt->narchs ? opt->narchs : eff.narchs;
	char target[32];
	snprintf(target, sizeof target, PX_STR_FMT, PX_STR_ARG(rep.module->target));
	const char *one[1] = {target};
	if (!narchs && target[0]) {
		archs = one;
		narchs = 1;
	}
	px_lint_ptx_rules(path, &rep, &ropt, cfg, &eff, opt, archs, narchs, mtext, mlen, &supp, NULL, 0, &mine, diags);
	/* the compatibility rules: the compat engine's verdicts on the targets */
	px_lint_compat(path, mtext, mlen, &rep, archs, narchs, &eff, opt, &mine, diags);
	px_lint_apply_suppressions(&mine, &supp, mtext, mlen, mapped, out);
	px_suppressions_free(&supp);
	px_file_report_free(&rep);
	px_effective_free(&eff);
	return true;
}

/* ---- baselines ---- */

struct bl_entry {
	char *rule, *file, *kernel;
	uint32_t fp;
	bool used;
};
struct px_baseline {
	struct bl_entry *items;
	size_t n, cap;
};

void px_baseline_write(struct px_buf *out, const struct px_lint_result *r)
{
	px_buf_puts(out, "# ptxray-baseline/1: rule, file, kernel, fingerprint of the line (tab-separated)\n");
	char **lines = xcalloc(r->n + 1, sizeof *lines);
	for (size_t i = 0; i < r->n; i++) {
		const struct px_finding *f = &r->items[i];
		lines[i] = xasprintf("%s\t%s\t%s\t%08x", f->rule, f->file, f->kernel ? f->kernel : "-",
		                     f->fingerprint);
	}
	qsort(lines, r->n, sizeof *lines, (int (*)(const void *, const void *))strcmp);
	for (size_t i = 0; i < r->n; i++) {
		px_buf_printf(out, "%s\n", lines[i]);
		free(lines[i]);
	}
	free(lines);
}

static int cmp_str_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct px_baseline *px_baseline_parse(const char *path, const char *text, size_t len,
                                      struct px_diags *diags)
{
	(void)cmp_str_ptr;
	struct px_baseline *b = xcalloc(1, sizeof *b);
	const char *p = text, *end = text + len;
	uint32_t line = 0;
	bool ok = true;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		line++;
		if (le > p && *p != '#') {
			const char *f[4];
			size_t fl[4];
			int nf = 0;
			const char *q = p;
			while (nf < 4) {
				const char *tab = memchr(q, '\t', (size_t)(le - q));
				f[nf] = q;
				fl[nf] = (size_t)((tab ? tab : le) - q);
				nf++;
				if (!tab)
					break;
				q = tab + 1;
			}
			char *endp = NULL;
			char *hex = nf == 4 ? xstrndup(f[3], fl[3]) : NULL;
			unsigned long fp = hex ? strtoul(hex, &endp, 16) : 0;
			bool good = nf == 4 && fl[0] && fl[1] && endp && *endp == 0 && fl[3] == 8;
			free(hex);
			if (!good) {
				px_diag_add(diags, PX_ERROR, path, line, 1, NULL,
				            "expected RULE<TAB>FILE<TAB>KERNEL<TAB>FINGERPRINT (8 hex digits)");
				ok = false;
			} else {
				struct bl_entry *e = PX_VEC_PUSH(b->items, b->n, b->cap);
				e->rule = xstrndup(f[0], fl[0]);
				e->file = xstrndup(f[1], fl[1]);
				e->kernel = xstrndup(f[2], fl[2]);
				e->fp = (uint32_t)fp;
				e->used = false;
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (!ok) {
		px_baseline_delete(b);
		return NULL;
	}
	return b;
}

void px_baseline_delete(struct px_baseline *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n; i++) {
		free(b->items[i].rule);
		free(b->items[i].file);
		free(b->items[i].kernel);
	}
	free(b->items);
	free(b);
}

void px_baseline_filter(struct px_baseline *b, struct px_lint_result *r)
{
	size_t w = 0;
	for (size_t i = 0; i < r->n; i++) {
		struct px_finding *f = &r->items[i];
		bool hit = false;
		for (size_t k = 0; k < b->n && !hit; k++) {
			struct bl_entry *e = &b->items[k];
			if (e->used || e->fp != f->fingerprint || strcmp(e->rule, f->rule) != 0 ||
			    strcmp(e->file, f->file) != 0 || strcmp(e->kernel, f->kernel ? f->kernel : "-") != 0)
				continue;
			e->used = hit = true;
		}
		if (hit) {
			r->baselined++;
			free(f->file);
			free(f->message);
			free(f->kernel);
			free(f->arch);
		} else {
			r->items[w++] = *f;
		}
	}
	r->n = w;
}
