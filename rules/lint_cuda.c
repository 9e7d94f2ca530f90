/* lint_cuda.c: `ptxray lint` on CUDA C (.cu, .cuh): the CUDA front end's
 * findings turned into lint findings through the rule registry.
 *
 * Approach: px_cuda_parse and px_cuda_check (analyzer/cuda) do the analysis
 * and name each finding by its rule id; here each one goes through the
 * file's effective configuration (the rule on or off, its severity, --only)
 * and the front end's `ptxray-ignore` annotations, copied into the lint
 * suppression list with px_suppressions_add, so baselines and every output
 * format treat CUDA findings like PTX ones. Malformed annotations come out
 * of px_cuda_parse as bad-annotation diagnostics and become findings;
 * suppressions without a reason or naming an unknown rule are checked by
 * the same code as in PTX files. The targets for launch feasibility are
 * --arch, else the configuration's archs, else the front end's default
 * (sm_90). Thresholds do not apply: the front end's findings carry no
 * measured value to compare.
 *
 * The nvcc bridge (opt->nvcc, unless --no-compile): the file is compiled
 * to PTX for each target (px_cuda_compile: nvcc -ptx -lineinfo with the
 * flags of its compile_commands.json entry under -p, cached), the PTX goes
 * through the report's pipeline and the registry's PTX rules like a .ptx
 * file (px_lint_ptx_rules), and each PTX finding moves to the .cu line of
 * the `.loc` before its instruction (the kernel's line for findings on the
 * .entry or with no .loc in this file). The registers of each kernel
 * (ptxas with --ptxas, else the PTX estimate) feed the source analyses'
 * launch feasibility. PTX findings are kept only where no finding of the
 * same rule is on the same line already (source findings first, then the
 * targets in order): one per rule and line. */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "cuda/cuda.h"

static const struct px_rule_setting *setting(const struct px_effective *eff, const char *id,
                                             const struct px_rule **rule)
{
	size_t nr;
	const struct px_rule *rules = px_rules(&nr);
	const struct px_rule *r = px_rule_find(id);
	*rule = r;
	return r ? &eff->rules[r - rules] : NULL;
}

/* ---- the nvcc bridge ---- */

/* Does the PTX `.file` name (n bytes) name the source at path (same last
 * component)? */
static bool same_source(const char *name, size_t n, const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t bn = strlen(base);
	return n >= bn && memcmp(name + n - bn, base, bn) == 0 && (n == bn || name[n - bn - 1] == '/');
}

/* The .file numbers of text that name path (files[num] set), from every
 * `.file` directive wherever it is (nvcc 13 writes them at the end). */
static void source_files(const char *text, size_t len, const char *path, uint8_t files[1024])
{
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *q = p;
		while (q < le && (*q == ' ' || *q == '\t'))
			q++;
		size_t rest = (size_t)(le - q);
		if (rest > 6 && memcmp(q, ".file", 5) == 0 && (q[5] == ' ' || q[5] == '\t')) {
			unsigned long num = strtoul(q + 5, NULL, 10);
			const char *a = memchr(q, '"', rest);
			const char *b = a ? memchr(a + 1, '"', (size_t)(le - a - 1)) : NULL;
			if (b && num < 1024)
				files[num] = same_source(a + 1, (size_t)(b - a - 1), path);
		}
		p = nl ? nl + 1 : end;
	}
}

/* For each line of the PTX text (1-based, nlines + 1 entries; caller
 * frees): the .cu line of the last `.loc` (of a `.file` naming path, or
 * inlined at a line of it: `.loc 2 397 9, function_name ..., inlined_at 1 18 2`)
 * before it in the same function, 0 when none. */
static uint32_t *loc_map(const char *text, size_t len, const char *path, uint32_t *nlines)
{
	uint32_t n = 1;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	uint32_t *map = xcalloc((size_t)n + 1, sizeof *map);
	uint8_t files[1024] = {0};   /* .file numbers that name path */
	source_files(text, len, path, files);
	const char *p = text, *end = text + len;
	uint32_t line = 0, cur = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		line++;
		const char *q = p;
		while (q < le && (*q == ' ' || *q == '\t'))
			q++;
		size_t rest = (size_t)(le - q);
		if (rest > 5 && memcmp(q, ".loc", 4) == 0 && (q[4] == ' ' || q[4] == '\t')) {
			char *e;
			unsigned long num = strtoul(q + 4, &e, 10);
			unsigned long l = strtoul(e, NULL, 10);
			cur = num < sizeof files && files[num] && l < UINT32_MAX ? (uint32_t)l : 0;
			const char *in = cur ? NULL : memmem(q, rest, "inlined_at", 10);
			if (in) {
				num = strtoul(in + 10, &e, 10);
				l = strtoul(e, NULL, 10);
				cur = num < sizeof files && files[num] && l < UINT32_MAX ? (uint32_t)l : 0;
			}
		} else if ((rest > 6 && memcmp(q, ".entry", 6) == 0) || (rest > 5 && memcmp(q, ".func", 5) == 0) ||
		           memmem(q, rest, ".entry ", 7) || memmem(q, rest, ".func ", 6)) {
			cur = 0;
		}
		if (line <= n)
			map[line] = cur;
		p = nl ? nl + 1 : end;
	}
	*nlines = n;
	return map;
}

/* The source function of a finding's kernel name ("ns::k<int>" -> "k"). */
static int32_t kernel_func(const struct px_cuda_file *f, const char *kernel)
{
	if (!kernel)
		return -1;
	size_t n = strcspn(kernel, "<(");
	const char *b = kernel;
	for (const char *q = kernel; q + 1 < kernel + n; q++)
		if (q[0] == ':' && q[1] == ':')
			b = q + 2;
	return px_cuda_find_func(f, b, (size_t)(kernel + n - b));
}

/* What the bridge gives one file: the registers per kernel and target for
 * the source analyses, and the PTX findings at .cu lines. */
struct bridge_out {
	struct px_cuda_regs *regs;
	size_t nregs, capregs;
	char **names;                 /* owned kernel names of regs */
	struct px_lint_result found;  /* PTX findings, file = path */
	uint32_t compiled, cached, failed;
};

static void bridge_out_free(struct bridge_out *b)
{
	for (size_t i = 0; i < b->nregs; i++)
		free(b->names[i]);
	free(b->names);
	free(b->regs);
	px_lint_result_free(&b->found);
}

static bool have_rule_line(const struct px_lint_result *r, const char *rule, uint32_t line)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->items[i].line == line && !strcmp(r->items[i].rule, rule))
			return true;
	return false;
}

/* The launch block of each kernel of f the source fixes (the verifier's
 * simulation needs one; caller frees). */
static struct px_lint_launch *source_launches(const struct px_cuda_file *f, size_t *n)
{
	struct px_lint_launch *l = xcalloc(f->nfuncs + 1, sizeof *l);
	*n = 0;
	for (uint32_t i = 0; i < f->nfuncs; i++) {
		if (f->funcs[i].kind != PX_CUDA_KERNEL)
			continue;
		const char *from = px_cuda_kernel_block(f, i, l[*n].block);
		if (from) {
			l[*n].kernel = f->funcs[i].name;
			l[(*n)++].from = from;
		}
	}
	return l;
}

/* Compiles path for each target, runs the PTX rules, maps their findings.
 * False (errors in diags) when -p's compile_commands.json is invalid. */
static bool bridge(const struct px_cuda_file *f, const char *path, const char *text, size_t len,
                   const struct px_config *cfg, const struct px_effective *eff,
                   const struct px_lint_options *opt, const char *const *archs, uint32_t narchs,
                   struct bridge_out *bo, char ***own_archs, uint32_t *nown, struct px_diags *diags)
{
	const struct px_cuda_nvcc *b = opt->nvcc;
	struct px_cuda_flags fl = {0};
	if (b->build_dir && !px_cuda_compile_db_flags(b->build_dir, path, &fl, diags)) {
		px_cuda_flags_free(&fl);
		return false;
	}
	static const char *const def_arch[] = {"sm_90"};
	if (!narchs) {
		archs = fl.narchs ? (const char *const *)fl.archs : def_arch;
		narchs = fl.narchs ? (uint32_t)fl.narchs : 1;
	}
	*own_archs = xcalloc((size_t)narchs + 1, sizeof **own_archs);
	*nown = narchs;
	for (uint32_t a = 0; a < narchs; a++)
		(*own_archs)[a] = xstrdup(archs[a]);
	for (uint32_t a = 0; a < narchs; a++) {
		const char *arch = (*own_archs)[a];
		bool cached = false;
		char *ptx = px_cuda_compile(b, path, text, len, arch, &fl, &cached, diags);
		if (!ptx) {
			bo->failed++;
			continue;
		}
		size_t plen;
		char *err = NULL;
		char *ptext = px_read_file(ptx, &plen, &err);
		if (!ptext) {
			px_diag_add(diags, PX_ERROR, ptx, 0, 0, NULL, "cannot read: %s", err);
			free(err);
			free(ptx);
			bo->failed++;
			continue;
		}
		bo->cached += cached;
		bo->compiled += !cached;
		struct px_report_options ropt = {0};
		memcpy(ropt.block, opt->block[0] ? opt->block : cfg->block, sizeof ropt.block);
		memcpy(ropt.grid, cfg->grid, sizeof ropt.grid);
		ropt.arch = arch;
		ropt.archs = opt->archset;
		ropt.params = opt->params;
		ropt.nparams = opt->nparams;
		ropt.ptxas = opt->ptxas;
		ropt.pool = opt->pool;
		ropt.task = opt->task;
		struct px_file_report rep;
		if (!px_report_file(ptx, ptext, plen, &ropt, &rep, diags)) {
			if (rep.module)
				px_file_report_free(&rep);
			else
				free(ptext);
			free(ptx);
			bo->failed++;
			continue;
		}
		for (size_t k = 0; k < rep.nkernels; k++) {
			const struct px_kernel_report *kr = &rep.kernels[k];
			char nm[256];
			px_cuda_kernel_base_name(kr, nm, sizeof nm);
			struct px_cuda_regs *r = PX_VEC_PUSH(bo->regs, bo->nregs, bo->capregs);
			bo->names = xrealloc(bo->names, bo->nregs * sizeof *bo->names);
			bo->names[bo->nregs - 1] = xstrdup(nm);
			r->kernel = bo->names[bo->nregs - 1];
			r->arch = arch;
			r->registers = kr->have_ptxas && kr->ptxas.have_regs ? kr->ptxas.registers : kr->reg_estimate;
			r->from_ptxas = kr->have_ptxas && kr->ptxas.have_regs;
		}
		struct px_suppressions none = {0};
		struct px_lint_result mine = {0};
		const char *one[1] = {arch};
		size_t ndiag = diags->n;
		size_t nl_;
		struct px_lint_launch *launches = source_launches(f, &nl_);
		px_lint_ptx_rules(ptx, &rep, &ropt, cfg, eff, opt, one, 1, rep.module->text, rep.module->len, &none,
		                  launches, nl_, &mine, diags);
		free(launches);
		/* arch-feature-unavailable, ptx-isa-too-old on the PTX nvcc wrote for arch */
		px_lint_compat(ptx, rep.module->text, rep.module->len, &rep, one, 1, eff, opt, &mine, diags);
		uint32_t nl;
		uint32_t *map = loc_map(rep.module->text, rep.module->len, path, &nl);
		/* the PTX side's notes (the verifier's) at the .cu line too */
		for (size_t i = ndiag; i < diags->n; i++) {
			struct px_diag *g = &diags->items[i];
			if (g->severity != PX_NOTE || strcmp(g->file, ptx) != 0)
				continue;
			uint32_t line = g->line && g->line <= nl ? map[g->line] : 0;
			char *m = xasprintf("%s (nvcc's PTX for %s%s%.0u)", g->message, arch, g->line ? ", line " : "",
			                    g->line);
			free(g->message);
			g->message = m;
			free(g->file);
			g->file = xstrdup(path);
			g->line = line;
			g->column = 0;
		}
		for (size_t i = 0; i < mine.n; i++) {
			struct px_finding *x = &mine.items[i];
			uint32_t line = x->line && x->line <= nl ? map[x->line] : 0;
			if (!line) {
				int32_t fi = kernel_func(f, x->kernel);
				line = fi >= 0 ? f->funcs[fi].line : 0;
			}
			if (!line || have_rule_line(&bo->found, x->rule, line))
				continue;
			px_lint_add_finding(&bo->found, x->rule, x->severity, path, line, 0, x->kernel, x->arch,
			                    xasprintf("%s (nvcc's PTX for %s, line %u)", x->message, arch, x->line));
		}
		free(map);
		px_lint_result_free(&mine);
		px_file_report_free(&rep);
		free(ptx);
	}
	px_cuda_flags_free(&fl);
	return true;
}

bool px_lint_cuda(const char *path, const char *text, size_t len, const struct px_config *cfg,
                  const struct px_effective *eff, const struct px_lint_options *opt,
                  struct px_lint_result *out, struct px_diags *diags)
{
	const char *const *archs = opt->narchs ? opt->archs : eff->archs;
	uint32_t narchs = opt->narchs ? opt->narchs : eff->narchs;
	struct px_cuda_options copt = {0};
	copt.archs = narchs ? archs : NULL;
	copt.narchs = narchs;
	copt.archset = opt->archset;
	uint32_t block[3];
	memcpy(block, opt->block[0] ? opt->block : cfg->block, sizeof block);
	if (block[0])
		copt.block = block;
	struct px_diags pd = {0};
	struct px_cuda_file *f = px_cuda_parse(path, text, len, &copt, &pd);
	struct px_lint_result mine = {0};
	const struct px_rule *r;
	/* the parse's diagnostics: bad annotations are findings, the rest (notes
	 * on regions that could not be parsed, errors) go on */
	for (size_t i = 0; i < pd.n; i++) {
		struct px_diag *g = &pd.items[i];
		if (g->rule && strcmp(g->rule, "bad-annotation") == 0) {
			const struct px_rule_setting *s = setting(eff, g->rule, &r);
			if (s && s->state == PX_RULE_ON && px_lint_selected(opt, r->id))
				px_lint_add_finding(&mine, r->id, s->severity, path, g->line, g->column, NULL, NULL,
				                    xstrdup(g->message));
			continue;
		}
		px_diag_add(diags, g->severity, g->file, g->line, g->column, g->rule, "%s", g->message);
	}
	px_diags_free(&pd);
	if (!f) {
		free(mine.items);
		return false;
	}
	struct bridge_out bo = {0};
	char **own = NULL;
	uint32_t nown = 0;
	if (opt->nvcc && opt->nvcc->nvcc && !opt->no_compile) {
		if (!bridge(f, path, text, len, cfg, eff, opt, copt.archs, (uint32_t)copt.narchs, &bo, &own, &nown,
		            diags)) {
			free(mine.items);
			px_cuda_file_delete(f);
			return false;
		}
		copt.archs = (const char *const *)own;   /* feasibility on the compiled targets */
		copt.narchs = nown;
		if (nown && bo.failed == nown)
			px_diag_add(diags, PX_NOTE, path, 0, 0, NULL,
			            "nvcc failed for every target: source analyses only for this file");
	}
	struct px_suppressions supp = {0};
	for (uint32_t i = 0; i < f->nsupp; i++) {
		const struct px_cuda_suppression *s = &f->supp[i];
		px_suppressions_add(&supp, s->line, s->comment_line, s->comment_column, s->file_wide, s->rules,
		                    s->nrules, s->reason);
	}
	if (px_lint_selected(opt, "bad-annotation"))
		px_lint_check_suppressions(&supp, eff, path, &mine);

	struct px_cuda_results res = {0};
	px_cuda_check(f, &copt, bo.regs, bo.nregs, &res);
	for (size_t i = 0; i < res.n; i++) {
		const struct px_cuda_finding *x = &res.items[i];
		const struct px_rule_setting *s = setting(eff, x->rule, &r);
		if (!s || s->state != PX_RULE_ON || !px_lint_selected(opt, r->id))
			continue;
		px_lint_add_finding(&mine, r->id, s->severity, path, x->line, x->column, x->kernel,
		                    x->arch, xstrdup(x->message));
	}
	px_cuda_results_free(&res);
	/* the PTX findings where the source has none of that rule on that line */
	size_t nsrc = mine.n;
	for (size_t i = 0; i < bo.found.n; i++) {
		struct px_finding *x = &bo.found.items[i];
		bool dup = false;
		for (size_t q = 0; q < nsrc && !dup; q++) {
			struct px_finding *y = &mine.items[q];
			dup = y->line == x->line && !strcmp(y->rule, x->rule);
			/* the simulation's proof of a finding the source analyses made too */
			const char *proof = dup ? strstr(x->message, "; simulated: ") : NULL;
			if (proof && !strstr(y->message, "; simulated: ")) {
				char *m = xasprintf("%s%s", y->message, proof);
				free(y->message);
				y->message = m;
			}
		}
		if (dup)
			continue;
		*PX_VEC_PUSH(mine.items, mine.n, mine.cap) = *x;
		memset(x, 0, sizeof *x);
	}
	bridge_out_free(&bo);
	for (uint32_t a = 0; a < nown; a++)
		free(own[a]);
	free(own);
	px_lint_apply_suppressions(&mine, &supp, text, len, false, out);
	px_suppressions_free(&supp);
	px_cuda_file_delete(f);
	return true;
}
