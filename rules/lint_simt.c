/* lint_simt.c: the SIMT verifier (analyzer/simt) as an analysis of
 * `ptxray lint`, with a bounded budget; the verifier rules read its results.
 *
 * Approach: when a verifier rule is on (deadlock, shared-out-of-bounds,
 * shared-race, uninitialized-shared; divergent-barrier and shuffle-mask use
 * the simulation to prove their static findings), the file's PTX is parsed
 * once more (the report dropped the bodies) and each kernel that can show a
 * violation (it declares shared memory, or uses a barrier or a warp
 * collective) is simulated for one thread block at its launch block (the
 * one the static rules use: --block, the configuration, .reqntid, .maxntid,
 * else 256), with --param values, the configuration's grid and dynamic
 * shared size, and the unknown-value policy of ptxray-simt(1), for at most
 * the budget in warp-instructions (the largest `budget` threshold of the
 * enabled verifier rules). Rules report only violations found before the
 * policy decided anything on an unknown value (a violation after a guessed
 * branch, guard or store is no proof): for those, and when the budget runs
 * out, a note says what was not checked instead of a verdict. The second
 * parse streams (each kernel is simulated as soon as its body is parsed,
 * then the body is dropped), so memory holds one body at a time; the
 * `.file` names, which nvcc writes at the end, come from the report's
 * module. */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "simt/simt.h"

/* The verifier's findings for the rules: one result per kernel of the report. */
struct px_lint_sims {
	struct px_module *m;            /* the second parse; of the caller's text (borrowed) */
	struct px_simt_result *res;     /* per kernel of the report */
	bool *have;                     /* per kernel: res is filled */
	size_t n;
};

static const char *const sim_rules[] = {"deadlock", "shared-out-of-bounds", "shared-race",
                                        "uninitialized-shared"};
static const char *const sim_users[] = {"divergent-barrier", "shuffle-mask", "warp-sync-missing"};

#define DEFAULT_BUDGET 1000000u

static bool rule_on(const struct px_effective *eff, const struct px_lint_options *opt, const char *id,
                    double *threshold)
{
	size_t nr;
	const struct px_rule *rules = px_rules(&nr);
	const struct px_rule *r = px_rule_find(id);
	if (!r || eff->rules[r - rules].state != PX_RULE_ON || !px_lint_selected(opt, id))
		return false;
	if (threshold)
		*threshold = eff->rules[r - rules].threshold;
	return true;
}

/* Can the verifier find anything in f: shared memory, a barrier or a warp
 * collective? */
static bool worth_simulating(const struct px_kernel_report *k, const struct px_func *f)
{
	if (k->shared_static_bytes || k->shared_dynamic)
		return true;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		unsigned op = f->insns[i].op;
		if (op == PX_OP_BAR || op == PX_OP_BARRIER || op == PX_OP_SHFL || op == PX_OP_VOTE ||
		    op == PX_OP_MATCH || op == PX_OP_REDUX || f->insns[i].space == PX_SPACE_SHARED)
			return true;
	}
	return false;
}

/* Does f read the y or z component of %tid or %ntid (a 2-D or 3-D block)? */
static bool uses_block_shape(const struct px_func *f)
{
	for (uint32_t i = 0; i < f->ninsns; i++)
		for (uint16_t k = 0; k < f->insns[i].nopnds; k++) {
			const struct px_operand *o = &f->insns[i].opnds[k];
			if (o->kind == PX_OPND_SREG && (o->sreg == PX_SREG_TID || o->sreg == PX_SREG_NTID) && o->comp > 0)
				return true;
		}
	return false;
}

/* The block to simulate k at, into block: the report's when it was given
 * (--block, the configuration, .reqntid), else the CUDA front end's (a
 * `// ptxray: launch` annotation, or launch sites that agree), else
 * .maxntid's when the kernel is one-dimensional (a launch the bounds allow).
 * NULL with a reason otherwise: a guessed block would be a guessed verdict. */
static const char *sim_block(const struct px_kernel_report *k, const struct px_func *f,
                             const struct px_lint_launch *launches, size_t nlaunches, uint32_t block[3],
                             const char **why)
{
	*why = NULL;
	switch (k->block_from) {
	case PX_LAUNCH_OPTION: case PX_LAUNCH_CONFIG: case PX_LAUNCH_REQNTID: case PX_LAUNCH_ANNOTATION:
		memcpy(block, k->block, 3 * sizeof *block);
		return px_launch_from_name(k->block_from);
	default:
		break;
	}
	char name[256];
	px_rule_kernel_name(k, name, sizeof name);
	size_t n = strcspn(name, "<(");
	const char *b = name;
	for (const char *q = name; q + 1 < name + n; q++)
		if (q[0] == ':' && q[1] == ':')
			b = q + 2;
	for (size_t i = 0; i < nlaunches; i++)
		if (strlen(launches[i].kernel) == (size_t)(name + n - b) && !memcmp(launches[i].kernel, b, (size_t)(name + n - b))) {
			memcpy(block, launches[i].block, 3 * sizeof *block);
			return launches[i].from;
		}
	if (k->block_from == PX_LAUNCH_MAXNTID && !uses_block_shape(f)) {
		memcpy(block, k->block, 3 * sizeof *block);
		return "maxntid";
	}
	*why = k->block_from == PX_LAUNCH_MAXNTID
		? "its launch bounds give the block's size but not its shape, and it uses threadIdx.y/z"
		: "no launch block is known";
	return NULL;
}

/* The timing table the simulation needs (its verdicts do not depend on it;
 * the control flow follows the first target's compute capability, sim_ctx's
 * cc_major): the first target's (px_arch_timing: with its base's latencies
 * where it has none), else sm_90's. False: no table at all. */
static bool timing_arch(const struct px_lint_options *opt, const char *const *archs, uint32_t narchs,
                        struct px_arch_timing *out)
{
	if (!opt->archset)
		return false;
	const struct px_arch *a = narchs ? px_archset_find(opt->archset, archs[0]) : NULL;
	if (!a)
		a = px_archset_find(opt->archset, "sm_90");
	if (!a)
		return false;
	px_arch_timing(opt->archset, a, out);
	return true;
}

/* What simulating the kernels of one file needs (the parse hook's context). */
struct sim_ctx {
	const char *path;
	const struct px_file_report *rep;
	const struct px_report_options *ropt;
	const struct px_config *cfg;
	const struct px_lint_options *opt;
	const struct px_lint_launch *launches;
	size_t nlaunches;
	const struct px_arch *arch;
	uint32_t cc_major;              /* the first target's (px_simt_options.cc_major), 0 unknown */
	uint64_t budget;
	char **file_names;              /* by .file number (the report's: nvcc writes them last) */
	uint32_t nfile_names;
	uint32_t *kernel_of;            /* per function index: report kernel + 1, 0 none */
	uint32_t nfuncs_known;
	struct px_lint_sims *sims;
	struct px_buf skipped;          /* kernels without a launch block (one note) */
	uint32_t nskipped;
	struct px_diags *diags;
};

/* The `.file N "name"` table of the report's module (complete: the report
 * parsed the whole file; a later entry of one number wins). */
static void files_from(struct sim_ctx *c, const struct px_module *m)
{
	for (uint32_t i = 0; i < m->nfiles; i++) {
		uint32_t num = m->files[i].index;
		if (num >= 65536)
			continue;
		if (num >= c->nfile_names) {
			c->file_names = xrealloc(c->file_names, (num + 1) * sizeof *c->file_names);
			memset(c->file_names + c->nfile_names, 0, (num + 1 - c->nfile_names) * sizeof *c->file_names);
			c->nfile_names = num + 1;
		}
		free(c->file_names[num]);
		c->file_names[num] = xstrndup(m->files[i].name.p, m->files[i].name.n);
	}
}

/* Simulates function fi of m (report kernel ki) if the verifier can find
 * something in it and its block is known; notes go to c->diags. */
static void simulate_one(struct sim_ctx *c, struct px_module *m, uint32_t fi, size_t ki)
{
	const struct px_kernel_report *k = &c->rep->kernels[ki];
	const struct px_lint_options *opt = c->opt;
	struct px_func *f = &m->funcs[fi];
	const px_str kn = c->rep->module->funcs[k->func_index].name;
	if (!f->is_entry || !f->has_body || f->name.n != kn.n || memcmp(f->name.p, kn.p, kn.n) != 0 ||
	    !worth_simulating(k, f))
		return;
	char kname[256];
	px_rule_kernel_name(k, kname, sizeof kname);
	uint32_t block[3];
	const char *why, *from = sim_block(k, f, c->launches, c->nlaunches, block, &why);
	if (!from) {
		/* one note per file for these: a file of such kernels is common */
		if (c->nskipped < 3)
			px_buf_printf(&c->skipped, "%s%s (%s)", c->nskipped ? ", " : "", kname, why);
		c->nskipped++;
		return;
	}
	/* the --param values that name one of this kernel's parameters (lint
	 * applies them to every kernel of the file) */
	struct px_param_value *pv = xcalloc(opt->nparams + 1, sizeof *pv);
	uint32_t npv = 0;
	for (uint32_t p = 0; p < opt->nparams; p++) {
		const char *name = opt->params[p].name;
		size_t nlen = strcspn(name, "=");
		char *end;
		unsigned long idx = strtoul(name, &end, 10);
		bool by_index = end == name + nlen && nlen > 0, found = false;
		for (uint32_t i = 0; i < f->nparams && !found; i++)
			found = (by_index && idx == i) || px_str_eq(f->params[i].name, px_str_make(name, nlen));
		if (found)
			pv[npv++] = opt->params[p];
	}
	struct px_simt_options so = {0};
	memcpy(so.block, block, sizeof so.block);
	memcpy(so.grid, c->ropt->grid, sizeof so.grid);
	so.params = pv;
	so.nparams = npv;
	so.iters = 64;
	so.budget = c->budget;
	so.dynamic_shared = c->cfg->dynamic_shared;
	so.arch = c->arch;
	so.cc_major = c->cc_major;
	so.file_names = (const char *const *)c->file_names;
	so.nfile_names = c->nfile_names;
	so.stop_at_guess = true;   /* nothing after the first guess is reported */
	struct px_diags sd = {0};
	struct px_lint_sims *s = c->sims;
	const char *path = c->path;
	struct px_diags *diags = c->diags;
	bool ok = px_simt_func(m, fi, path, &so, &s->res[ki], &sd);
	if (!ok) {
		/* the static analyses accepted the kernel: say why it was not simulated */
		px_diag_add(diags, PX_NOTE, path, k->line, 0, NULL,
		            "kernel %s was not simulated (%s): the verifier rules did not check it", kname,
		            sd.n ? sd.items[0].message : "no reason given");
		px_simt_result_free(&s->res[ki]);
	} else {
		s->have[ki] = true;
		const struct px_simt_result *r = &s->res[ki];
		uint32_t guessed = 0;
		for (uint32_t v = 0; v < r->nviol; v++)
			guessed += r->viol[v].guessed;
		if (r->budget_out)
			px_diag_add(diags, PX_NOTE, path, k->line, 0, NULL,
			            "kernel %s: the simulation stopped at its budget (%llu warp-instructions): the "
			            "verifier rules checked only what ran (raise it: `rules: {shared-race: {threshold: N}}`)",
			            kname, (unsigned long long)so.budget);
		if (r->guess_line && guessed)
			px_diag_add(diags, PX_NOTE, path, r->guess_line, 0, NULL,
			            "kernel %s: from here the simulation follows the unknown-value policy (a value "
			            "the launch does not fix: give it with --param or the launch in .ptxray.yaml); "
			            "%u possible violation%s found after this point %s not reported", kname, guessed,
			            guessed == 1 ? "" : "s", guessed == 1 ? "is" : "are");
		else if (r->guess_line)
			px_diag_add(diags, PX_NOTE, path, r->guess_line, 0, NULL,
			            "kernel %s: from here the simulation follows the unknown-value policy (a value "
			            "the launch does not fix: give it with --param or the launch in .ptxray.yaml): "
			            "what runs after this point is not verified", kname);
	}
	px_diags_free(&sd);
	free(pv);
}

/* The parse hook: each kernel is simulated as soon as its body is parsed,
 * then the body goes (memory holds one body at a time). */
static void on_function(void *ctx, struct px_module *m, uint32_t fi)
{
	struct sim_ctx *c = ctx;
	if (fi < c->nfuncs_known && c->kernel_of[fi])
		simulate_one(c, m, fi, c->kernel_of[fi] - 1);
	px_func_drop_body(&m->funcs[fi]);
}

struct px_lint_sims *px_lint_simulate(const char *path, const struct px_file_report *rep,
                                      const struct px_report_options *ropt, const struct px_config *cfg,
                                      const struct px_effective *eff, const struct px_lint_options *opt,
                                      const char *const *archs, uint32_t narchs, const char *text,
                                      size_t len, const struct px_lint_launch *launches, size_t nlaunches,
                                      struct px_diags *diags)
{
	double budget = 0, t;
	bool any = false;
	for (size_t i = 0; i < PX_COUNTOF(sim_rules); i++)
		if (rule_on(eff, opt, sim_rules[i], &t)) {
			any = true;
			if (t > budget)
				budget = t;
		}
	for (size_t i = 0; i < PX_COUNTOF(sim_users); i++)
		any |= rule_on(eff, opt, sim_users[i], NULL);
	struct px_arch_timing timing;
	if (!any || !rep->nkernels || !timing_arch(opt, archs, narchs, &timing))
		return NULL;
	const struct px_arch *arch = &timing.arch;
	struct px_lint_sims *s = xcalloc(1, sizeof *s);
	s->n = rep->nkernels;
	s->res = xcalloc(s->n + 1, sizeof *s->res);
	s->have = xcalloc(s->n + 1, sizeof *s->have);
	struct sim_ctx c = {.path = path, .rep = rep, .ropt = ropt, .cfg = cfg, .opt = opt,
	                    .launches = launches, .nlaunches = nlaunches, .arch = arch,
	                    .budget = budget >= 1 ? (uint64_t)budget : DEFAULT_BUDGET, .sims = s,
	                    .diags = diags};
	const struct px_arch *first = narchs && opt->archset ? px_archset_find(opt->archset, archs[0]) : NULL;
	c.cc_major = first ? first->major : 0;
	c.nfuncs_known = rep->module->nfuncs;
	c.kernel_of = xcalloc(c.nfuncs_known + 1, sizeof *c.kernel_of);
	for (size_t ki = 0; ki < rep->nkernels; ki++)
		if (rep->kernels[ki].func_index < c.nfuncs_known)
			c.kernel_of[rep->kernels[ki].func_index] = (uint32_t)ki + 1;
	files_from(&c, rep->module);
	/* a second parse, streamed: the report dropped the bodies. Of the
	 * report's own text (the parser does not write into it; the module
	 * gives it back before it is deleted), not a copy; when that is a
	 * mapping, the parse gives back the pages behind it as the report's did */
	struct px_diags pd = {0};
	struct px_parse_hook hook = {.function = on_function, .ctx = &c, .body_arenas = true,
	                             .text_mapped = rep->module->text_mapped && text == rep->module->text};
	s->m = px_ptx_parse_hooked(path, (char *)text, len, &pd, &hook);
	px_diags_free(&pd);
	if (c.nskipped)
		px_diag_add(diags, PX_NOTE, path, 0, 0, NULL,
		            "%u kernel%s not simulated, so the verifier rules did not check %s: %.*s%s (give --block, "
		            "`launch:` in .ptxray.yaml, __launch_bounds__ or a `// ptxray: launch` annotation)",
		            c.nskipped, c.nskipped == 1 ? " was" : "s were", c.nskipped == 1 ? "it" : "them",
		            (int)c.skipped.n, c.skipped.p, c.nskipped > 3 ? " and others" : "");
	px_buf_free(&c.skipped);
	for (uint32_t i = 0; i < c.nfile_names; i++)
		free(c.file_names[i]);
	free(c.file_names);
	free(c.kernel_of);
	px_arch_timing_free(&timing);
	return s;
}

void px_lint_sims_free(struct px_lint_sims *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		if (s->have[i])
			px_simt_result_free(&s->res[i]);
	free(s->res);
	free(s->have);
	if (s->m) {
		px_module_release_text(s->m);   /* the report's */
		px_module_delete(s->m);
	}
	free(s);
}

const struct px_simt_result *px_lint_sim_for(const struct px_lint_sims *s, size_t kernel)
{
	return s && kernel < s->n && s->have[kernel] ? &s->res[kernel] : NULL;
}
