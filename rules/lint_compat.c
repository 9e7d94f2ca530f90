/* lint_compat.c: the rules arch-feature-unavailable and ptx-isa-too-old,
 * read from the compatibility engine's verdicts (analyzer/compat.h).
 *
 * Approach: px_compat_file judges the file's kernels on the lint targets
 * (--arch, else the configuration's archs, else the file's .target; names
 * the feature table does not know are skipped) at the file's own .version.
 * Each kernel gets at most one finding per failing target, at the first
 * offending line, with compat's message and fix hint: ptx-isa-too-old when
 * what fails is the PTX ISA version (the target, or a feature on it, needs
 * a newer .version than the file's: the finding sits on the offending use,
 * or on the .version line when the target itself is too new for it), else
 * arch-feature-unavailable (the target does not have the feature at all, or
 * no longer has it). The compat engine parses the report's text once more
 * (borrowed, not copied): it keeps uses per kernel that the report's passes
 * do not. */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "compat.h"

void px_lint_compat(const char *path, const char *text, size_t len, const struct px_file_report *rep,
                    const char *const *archs, uint32_t narchs, const struct px_effective *eff,
                    const struct px_lint_options *opt, struct px_lint_result *out,
                    struct px_diags *diags)
{
	(void)diags;
	size_t nr;
	const struct px_rule *rules = px_rules(&nr);
	const struct px_rule *ra = px_rule_find("arch-feature-unavailable");
	const struct px_rule *rv = px_rule_find("ptx-isa-too-old");
	const struct px_rule_setting *sa = &eff->rules[ra - rules], *sv = &eff->rules[rv - rules];
	bool on_a = sa->state == PX_RULE_ON && px_lint_selected(opt, ra->id);
	bool on_v = sv->state == PX_RULE_ON && px_lint_selected(opt, rv->id);
	const struct px_ftable *tab = opt->ftable;
	if (!tab || !narchs || (!on_a && !on_v))
		return;
	uint32_t *targets = xcalloc(narchs, sizeof *targets), nt = 0;
	for (uint32_t a = 0; a < narchs; a++) {
		int32_t t = px_ftable_find_target(tab, archs[a], strlen(archs[a]));
		bool dup = false;
		for (uint32_t k = 0; k < nt; k++)
			dup |= t >= 0 && targets[k] == (uint32_t)t;
		if (t >= 0 && !dup)
			targets[nt++] = (uint32_t)t;
	}
	if (!nt) {
		free(targets);
		return;
	}
	/* the report's text, parsed once more in place (not a copy: lint would
	 * hold the file twice) */
	struct px_compat_options co = {.targets = targets, .ntargets = nt, .text_borrowed = true,
	                               .text_mapped = rep->module->text_mapped && text == rep->module->text};
	struct px_compat_file cf;
	struct px_diags cd = {0};   /* the report parsed this text already: no new errors */
	if (!px_compat_file(path, (char *)text, len, tab, &co, &cf, &cd)) {
		px_compat_file_free(&cf);
		px_diags_free(&cd);
		free(targets);
		return;
	}
	px_diags_free(&cd);
	for (uint32_t ki = 0; ki < cf.nkernels; ki++) {
		const struct px_compat_kernel *k = &cf.kernels[ki];
		char kname[256];
		snprintf(kname, sizeof kname, PX_STR_FMT, PX_STR_ARG(k->name));
		/* the report's kernel of the same name: usually at the same index
		 * (both in file order), else looked for (names are unique) */
		const struct px_kernel_report *rk = NULL;
		if (ki < rep->nkernels && rep->kernels[ki].func && px_str_eq(rep->kernels[ki].func->name, k->name))
			rk = &rep->kernels[ki];
		for (size_t i = 0; i < rep->nkernels && !rk; i++)
			if (rep->kernels[i].func && px_str_eq(rep->kernels[i].func->name, k->name))
				rk = &rep->kernels[i];
		if (rk)
			px_rule_kernel_name(rk, kname, sizeof kname);
		for (uint32_t t = 0; t < nt; t++) {
			const struct px_compat_verdict *v = &k->verdicts[t];
			if (v->ok)
				continue;
			bool isa = v->requires && strncmp(v->requires, "PTX ISA ", 8) == 0 &&
			           strncmp(v->requires, "PTX ISA below", 13) != 0;
			const struct px_rule *r = isa ? rv : ra;
			const struct px_rule_setting *s = isa ? sv : sa;
			if (!(isa ? on_v : on_a))
				continue;
			uint32_t line = v->use ? v->use->line : cf.version_line;
			uint32_t col = v->use ? v->use->col : 0;
			if (!line)
				line = k->line;
			px_lint_add_finding(out, r->id, s->severity, path, line, col, kname,
			                    tab->targets[v->target].name,
			                    xstrdup(v->message ? v->message : "not supported on this target"));
		}
	}
	px_compat_file_free(&cf);
	free(targets);
}
