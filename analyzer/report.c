/* report.c: builds the per-kernel report of one PTX file: parse, run the
 * pass pipeline, then read each kernel's resources, directives, launch
 * configuration and (with --ptxas) ptxas's own figures. Rendering lives in
 * report_json.c and report_text.c. */
#include <stdlib.h>
#include <string.h>

#include "report.h"

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

/* Chooses the block used for lane-level verdicts (px_launch_block). */
static void choose_block(const struct px_launch *l, const struct px_func *f,
                         struct px_kernel_report *k)
{
	k->block_from = px_launch_block(l, f, k->block);
}

/* The kernel's source position: the first .loc in force in its body (the
 * .file table may come at the end of the module: resolved later). */
static void source_of(const struct px_func *f, struct px_kernel_report *k)
{
	for (uint32_t i = 0; i < f->ninsns; i++) {
		if (f->insns[i].loc_file) {
			k->source_index = f->insns[i].loc_file;
			k->source_line = f->insns[i].loc_line;
			return;
		}
	}
}

struct report_ctx {
	const struct px_report_options *opt;
	struct px_file_report *rep;
	struct px_diags *diags;
	struct px_launch launch;
	size_t cap;
	bool verify;
	bool failed;
};

/* Appends the --dump text of f for every pass named in opt->dump. */
static void dump_function(const char *dump, struct px_buf *out, const struct px_module *m,
                          const struct px_func *f)
{
	const char *p = dump;
	while (*p) {
		size_t n = strcspn(p, ",");
		char *name = xstrndup(p, n);
		const struct px_pass_info *pi = px_pass_find(name);
		free(name);
		if (pi && pi->dump)
			pi->dump(out, m, f);
		p += n + (p[n] == ',');
	}
}

/* The per-function step: runs the pipeline over f, keeps what the report
 * needs from its body, then drops the body (a no-op unless the parser gave
 * it an arena of its own). Called in file order for every function with a
 * body, while the module is being parsed or after. Refers to functions by
 * index: m->funcs may move until the parse ends. */
static void on_function(void *vctx, struct px_module *m, uint32_t fi)
{
	struct report_ctx *c = vctx;
	struct px_func *f = &m->funcs[fi];
	m->launch = &c->launch;
	if (!px_pipeline_run_func(m, f, c->diags, c->verify))
		c->failed = true;
	if (c->opt->dump)
		dump_function(c->opt->dump, &c->rep->dump, m, f);
	if (f->is_entry) {
		char *dem = px_demangle(f->name);
		if (selected(c->opt, f, dem)) {
			struct px_kernel_report *k = PX_VEC_PUSH(c->rep->kernels, c->rep->nkernels, c->cap);
			memset(k, 0, sizeof *k);
			k->func_index = fi;
			k->demangled = dem;
			k->line = f->line;
			source_of(f, k);
			k->reg_estimate = f->reg_estimate;
			k->reg_demand = f->reg_demand;
			k->res = f->res;
		} else {
			free(dem);
		}
	}
	px_func_drop_body(f);
}

bool px_report_file(const char *path, char *text, size_t len,
                    const struct px_report_options *opt,
                    struct px_file_report *rep, struct px_diags *diags)
{
	memset(rep, 0, sizeof *rep);
	rep->path = path;
	size_t errors = diags->errors;
	struct report_ctx c = {.opt = opt, .rep = rep, .diags = diags};
	memcpy(c.launch.block, opt->block, sizeof c.launch.block);
	memcpy(c.launch.grid, opt->grid, sizeof c.launch.grid);
	c.launch.params = opt->params;
	c.launch.nparams = opt->nparams;
#ifdef PX_DEBUG
	c.verify = true;
#endif
	struct px_parse_hook hook = {.function = on_function, .ctx = &c, .body_arenas = true,
	                             .text_mapped = opt->text_mapped};
	struct px_module *m = px_ptx_parse_hooked(path, text, len, diags, &hook);
	rep->module = m;
	m->launch = NULL;  /* pointed at c.launch, which ends here */
	if (diags->errors > errors || c.failed)
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

	/* what needs the whole module: layouts across calls, file names, ptxas */
	for (size_t i = 0; i < rep->nkernels; i++) {
		struct px_kernel_report *k = &rep->kernels[i];
		const struct px_func *f = &m->funcs[k->func_index];
		k->func = f;
		k->module = m;
		const struct px_file_entry *fe = k->source_index ? px_module_file(m, k->source_index) : NULL;
		if (fe)
			k->source_file = px_arena_strndup(m->arena, fe->name.p, fe->name.n);
		k->reg_cap = f->maxnreg;
		k->shared_static_bytes = px_shared_static_bytes(m, k->func_index, &k->shared_dynamic);
		k->local_bytes = px_local_bytes(m, k->func_index);
		k->param_bytes = px_param_bytes(f);
		choose_block(&c.launch, f, k);
		k->spill_cap = px_reg_cap(f);
		k->spills_predicted = k->reg_demand > k->spill_cap;
		if (have_ptxas) {
			const struct px_ptxas_kernel *pk = px_ptxas_find(&pr, f->name);
			if (pk) {
				k->have_ptxas = true;
				k->ptxas = *pk;
				k->ptxas.name = NULL;
			}
		}
	}
	for (size_t i = 0; i < rep->nkernels; i++)
		px_report_occupancy(opt, m, &rep->kernels[i]);
	px_ptxas_result_free(&pr);
	return true;
}

void px_file_report_free(struct px_file_report *rep)
{
	for (size_t i = 0; i < rep->nkernels; i++)
		free(rep->kernels[i].demangled);
	free(rep->kernels);
	free(rep->ptxas_error);
	px_buf_free(&rep->dump);
	px_module_delete(rep->module);
	memset(rep, 0, sizeof *rep);
}
