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
 * measured value to compare. The nvcc bridge is not used by lint yet: the
 * findings are the source analyses' (`ptxray report FILE.cu` compiles). */
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
				                    text, len, xstrdup(g->message));
			continue;
		}
		px_diag_add(diags, g->severity, g->file, g->line, g->column, g->rule, "%s", g->message);
	}
	px_diags_free(&pd);
	if (!f) {
		free(mine.items);
		return false;
	}
	struct px_suppressions supp = {0};
	for (uint32_t i = 0; i < f->nsupp; i++) {
		const struct px_cuda_suppression *s = &f->supp[i];
		px_suppressions_add(&supp, s->line, s->comment_line, s->comment_column, s->file_wide, s->rules,
		                    s->nrules, s->reason);
	}
	if (px_lint_selected(opt, "bad-annotation"))
		px_lint_check_suppressions(&supp, eff, path, text, len, &mine);

	struct px_cuda_results res = {0};
	px_cuda_check(f, &copt, NULL, 0, &res);
	for (size_t i = 0; i < res.n; i++) {
		const struct px_cuda_finding *x = &res.items[i];
		const struct px_rule_setting *s = setting(eff, x->rule, &r);
		if (!s || s->state != PX_RULE_ON || !px_lint_selected(opt, r->id))
			continue;
		px_lint_add_finding(&mine, r->id, s->severity, path, x->line, x->column, x->kernel,
		                    x->arch, text, len, xstrdup(x->message));
	}
	px_cuda_results_free(&res);
	px_lint_apply_suppressions(&mine, &supp, out);
	px_suppressions_free(&supp);
	px_cuda_file_delete(f);
	return true;
}
