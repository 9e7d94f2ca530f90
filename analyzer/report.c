/* report.c: builds the per-kernel report of one PTX file: parse, run the
 * pass pipeline, then read each kernel's resources, directives, launch
 * configuration and (with --ptxas) ptxas's own figures. Rendering lives in
 * report_json.c and report_text.c. */
#include <stdlib.h>
#include <string.h>

#include "report.h"

const char *px_launch_from_name(enum px_launch_from f)
{
	switch (f) {
	case PX_LAUNCH_REQNTID: return "reqntid";
	case PX_LAUNCH_MAXNTID: return "maxntid";
	case PX_LAUNCH_OPTION: return "option";
	case PX_LAUNCH_ANNOTATION: return "annotation";
	case PX_LAUNCH_CONFIG: return "config";
	case PX_LAUNCH_DEFAULT: return "default";
	}
	return "default";
}

/* Does --kernel pattern select kernel f? A pattern matches the mangled
 * name, the whole demangled name, or the demangled name without its
 * parameter list ("reduce" selects "reduce(float*, int)"). */
static bool selected(const struct px_report_options *opt, const struct px_func *f,
                     const char *demangled)
{
	if (!opt->kernels || !opt->kernels[0])
		return true;
	for (const char *const *k = opt->kernels; *k; k++) {
		if (px_str_eqc(f->name, *k))
			return true;
		if (demangled) {
			if (strcmp(demangled, *k) == 0)
				return true;
			const char *paren = strchr(demangled, '(');
			size_t n = strlen(*k);
			if (paren && (size_t)(paren - demangled) == n && memcmp(demangled, *k, n) == 0)
				return true;
		}
	}
	return false;
}

/* Chooses the block used for lane-level verdicts: .reqntid, then --block,
 * then .maxntid, else the documented default (256,1,1). */
static void choose_block(const struct px_report_options *opt, const struct px_func *f,
                         struct px_kernel_report *k)
{
	if (f->reqntid[0]) {
		for (int i = 0; i < 3; i++)
			k->block[i] = f->reqntid[i] ? f->reqntid[i] : 1;
		k->block_from = PX_LAUNCH_REQNTID;
	} else if (opt->block[0]) {
		for (int i = 0; i < 3; i++)
			k->block[i] = opt->block[i] ? opt->block[i] : 1;
		k->block_from = PX_LAUNCH_OPTION;
	} else if (f->maxntid[0]) {
		for (int i = 0; i < 3; i++)
			k->block[i] = f->maxntid[i] ? f->maxntid[i] : 1;
		k->block_from = PX_LAUNCH_MAXNTID;
	} else {
		k->block[0] = PX_DEFAULT_BLOCK_X;
		k->block[1] = k->block[2] = 1;
		k->block_from = PX_LAUNCH_DEFAULT;
	}
}

/* The kernel's source position: the first .loc in force in its body. */
static void source_of(const struct px_module *m, const struct px_func *f,
                      struct px_kernel_report *k)
{
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		if (!in->loc_file)
			continue;
		const struct px_file_entry *fe = px_module_file(m, in->loc_file);
		if (!fe)
			return;
		/* the name is a view into the module's text; NUL-terminate a copy */
		k->source_file = px_arena_strndup(m->arena, fe->name.p, fe->name.n);
		k->source_line = in->loc_line;
		return;
	}
}

bool px_report_file(const char *path, char *text, size_t len,
                    const struct px_report_options *opt,
                    struct px_file_report *rep, struct px_diags *diags)
{
	memset(rep, 0, sizeof *rep);
	rep->path = path;
	size_t errors = diags->errors;
	struct px_module *m = px_ptx_parse(path, text, len, diags);
	rep->module = m;
	if (diags->errors > errors)
		return false;
#ifdef PX_DEBUG
	bool verify = true;
#else
	bool verify = false;
#endif
	if (!px_pipeline_run(m, diags, verify))
		return false;

	struct px_ptxas_result pr = {0};
	bool have_ptxas = false;
	if (opt->ptxas) {
		char *target = opt->arch ? xstrdup(opt->arch)
		                         : xstrndup(m->target.p, m->target.n);
		char *err = NULL;
		if (!target[0])
			rep->ptxas_error = xstrdup("the file has no .target and no --arch was given");
		else if (px_ptxas_run(opt->ptxas, path, target, &pr, &err))
			have_ptxas = true;
		else
			rep->ptxas_error = err;
		free(target);
	}

	size_t cap = 0;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		const struct px_func *f = &m->funcs[i];
		if (!f->is_entry || !f->has_body)
			continue;
		char *dem = px_demangle(f->name);
		if (!selected(opt, f, dem)) {
			free(dem);
			continue;
		}
		struct px_kernel_report *k = PX_VEC_PUSH(rep->kernels, rep->nkernels, cap);
		memset(k, 0, sizeof *k);
		k->func = f;
		k->demangled = dem;
		k->line = f->line;
		source_of(m, f, k);
		k->reg_estimate = f->reg_estimate;
		k->reg_cap = f->maxnreg;
		k->shared_static_bytes = px_shared_static_bytes(m, i, &k->shared_dynamic);
		k->local_bytes = px_local_bytes(m, i);
		k->param_bytes = px_param_bytes(f);
		choose_block(opt, f, k);
		k->spills_predicted = k->reg_cap && k->reg_estimate > k->reg_cap;
		if (have_ptxas) {
			const struct px_ptxas_kernel *pk = px_ptxas_find(&pr, f->name);
			if (pk) {
				k->have_ptxas = true;
				k->ptxas = *pk;
				k->ptxas.name = NULL;
			}
		}
	}
	px_ptxas_result_free(&pr);
	return true;
}

void px_file_report_free(struct px_file_report *rep)
{
	for (size_t i = 0; i < rep->nkernels; i++)
		free(rep->kernels[i].demangled);
	free(rep->kernels);
	free(rep->ptxas_error);
	px_module_delete(rep->module);
	memset(rep, 0, sizeof *rep);
}
