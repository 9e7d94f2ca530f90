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
static void source_of(const struct px_func *f, uint32_t *index, uint32_t *line)
{
	for (uint32_t i = 0; i < f->ninsns; i++) {
		if (f->insns[i].loc_file) {
			*index = f->insns[i].loc_file;
			*line = f->insns[i].loc_line;
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

/* The passes to run: all but those the caller never reads (a dump may
 * name any pass, so --dump runs them all). */
static unsigned wanted(const struct px_report_options *opt)
{
	return opt->dump ? ~0u : ~opt->skip_passes;
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
	if (!px_pipeline_run_passes(m, f, wanted(c->opt), c->diags, c->verify))
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
			source_of(f, &k->source_index, &k->source_line);
			k->reg_estimate = f->reg_estimate;
			k->reg_demand = f->reg_demand;
			k->res = f->res;
		} else {
			free(dem);
		}
	}
	px_func_drop_body(f);
}

/* ---- functions analysed on several threads (opt->pool) ----
 *
 * The parser's thread (the file's owner) runs each function's
 * PX_STAGE_PRE passes in the hook, then hands the function to a pool task:
 * a private copy of its px_func (the module's entry forgets the body) and
 * a view of the module holding only what PX_STAGE_LOCAL passes may read:
 * the module variables declared so far (a snapshot that only grows, so
 * the parser may go on adding to its own array), launch and path, and the
 * task's pool slot's arena for what outlives the body (so no arena is
 * shared between threads; the slot arenas join the module's at the end).
 * Each function collects its own diagnostics. The owner commits the tasks
 * in file order: copies each function back, runs the PX_STAGE_POST passes
 * (which read the callees committed before), appends the diagnostics and
 * makes the kernel report, exactly as on_function does one at a time.
 *
 * Consecutive small functions share a task (until their bodies hold
 * BATCH_BYTES), so a file of tiny kernels pays fewer tasks (100,000
 * one-instruction kernels take 1.4x the CPU time of -j 1 even so: each
 * body is made on the parser's thread and freed on another; the wall time
 * still drops). At most one task per pool slot plus WINDOW_EXTRA are in
 * flight (parsed, not yet committed), which bounds the bodies held at
 * once: on the 29 MB CCCL file, -j 2 peaks about 10 MB above -j 1 (one
 * more body, one more thread's temporaries and malloc arena; two tasks per
 * slot cost a few MB more). The owner helps run the tasks while the
 * window is full. */
#define WINDOW_EXTRA 1
#define BATCH_BYTES (1u << 20)

struct fn_item {
	uint32_t fi;
	struct px_func f;         /* the task's own until committed */
	struct px_module view;
	struct px_diags diags;
	bool skip;                /* PX_STAGE_PRE failed: only drop the body */
	bool failed;
	bool kernel;              /* a kernel that --kernel selects */
	char *dem;
	uint32_t source_index, source_line;
};

struct fn_task {
	struct px_task t;         /* first: the pool hands it back */
	struct par_ctx *pc;
	struct fn_item *items;
	size_t n, cap;
	size_t bytes;             /* the bodies' footprint */
};

struct par_ctx {
	struct report_ctx *c;
	struct px_pool *pool;
	const struct px_task *self;
	struct px_arena **arenas;        /* per pool slot, made by that slot's thread */
	unsigned nslots;
	size_t batch_bytes;
	struct fn_task *open;            /* the batch being filled, not submitted yet */
	struct fn_task **win;            /* ring of submitted tasks in file order */
	size_t wcap, whead, wn;
	struct px_var *snap;             /* m->vars[0 .. nsnap) */
	size_t nsnap, capsnap;
	struct px_var **old;             /* outgrown snapshots: tasks may still read them */
	size_t nold, capold;
};

/* Runs on any thread: the body passes, the kernel's name and source line,
 * then frees the body. Touches only the task and its slot's arena. */
static void fn_run(struct px_task *t, unsigned slot)
{
	struct fn_task *ft = (struct fn_task *)t;
	struct par_ctx *pc = ft->pc;
	for (size_t i = 0; i < ft->n; i++) {
		struct fn_item *it = &ft->items[i];
		if (!it->skip) {
			if (!pc->arenas[slot])
				pc->arenas[slot] = px_arena_new();
			it->view.arena = pc->arenas[slot];
			if (!px_pipeline_run_stage(&it->view, &it->f, &it->diags, pc->c->verify,
			                           PX_STAGE_LOCAL, wanted(pc->c->opt)))
				it->failed = true;
			it->view.arena = NULL;
			if (it->f.is_entry) {
				char *dem = px_demangle(it->f.name);
				if (selected(pc->c->opt, &it->f, dem)) {
					it->kernel = true;
					it->dem = dem;
					source_of(&it->f, &it->source_index, &it->source_line);
				} else {
					free(dem);
				}
			}
		}
		px_func_drop_body(&it->f);
	}
}

/* The module variables declared so far, as an array no later declaration
 * moves or changes (declared variables never change). */
static const struct px_var *vars_view(struct par_ctx *pc, const struct px_module *m)
{
	if (m->nvars > pc->capsnap) {
		size_t cap = pc->capsnap ? pc->capsnap * 2 : 64;
		while (cap < m->nvars)
			cap *= 2;
		struct px_var *s = xmalloc(cap * sizeof *s);
		if (pc->nsnap)
			memcpy(s, pc->snap, pc->nsnap * sizeof *s);
		if (pc->snap)
			*PX_VEC_PUSH(pc->old, pc->nold, pc->capold) = pc->snap;
		pc->snap = s;
		pc->capsnap = cap;
	}
	if (m->nvars > pc->nsnap) {
		memcpy(pc->snap + pc->nsnap, m->vars + pc->nsnap, (m->nvars - pc->nsnap) * sizeof *pc->snap);
		pc->nsnap = m->nvars;
	}
	return pc->snap;
}

/* On the owner's thread, in file order, once ft has run. */
static void commit(struct par_ctx *pc, struct px_module *m, struct fn_task *ft)
{
	struct report_ctx *c = pc->c;
	for (size_t i = 0; i < ft->n; i++) {
		struct fn_item *it = &ft->items[i];
		struct px_func *f = &m->funcs[it->fi];
		*f = it->f;
		if (!it->skip)
			px_pipeline_run_stage(m, f, &it->diags, c->verify, PX_STAGE_POST, wanted(c->opt));
		for (size_t k = 0; k < it->diags.n; k++) {
			const struct px_diag *g = &it->diags.items[k];
			px_diag_add(c->diags, g->severity, g->file, g->line, g->column, g->rule, "%s",
			            g->message);
		}
		px_diags_free(&it->diags);
		if (it->failed)
			c->failed = true;
		if (it->kernel) {
			struct px_kernel_report *k = PX_VEC_PUSH(c->rep->kernels, c->rep->nkernels, c->cap);
			memset(k, 0, sizeof *k);
			k->func_index = it->fi;
			k->demangled = it->dem;
			k->line = f->line;
			k->source_index = it->source_index;
			k->source_line = it->source_line;
			k->reg_estimate = f->reg_estimate;
			k->reg_demand = f->reg_demand;
			k->res = f->res;
		}
	}
	free(ft->items);
	free(ft);
}

/* Commits the finished tasks at the head of the window; waits for (and
 * helps with) the head while more than keep tasks are in the window. */
static void drain(struct par_ctx *pc, struct px_module *m, size_t keep)
{
	while (pc->wn) {
		struct fn_task *ft = pc->win[pc->whead];
		if (pc->wn > keep)
			px_pool_wait(pc->pool, &ft->t, pc->self);
		else if (!px_pool_done(pc->pool, &ft->t))
			return;
		pc->win[pc->whead] = NULL;
		pc->whead = (pc->whead + 1) % pc->wcap;
		pc->wn--;
		commit(pc, m, ft);
	}
}

/* Submits the open batch, once the window has room for it. */
static void submit_open(struct par_ctx *pc, struct px_module *m)
{
	struct fn_task *ft = pc->open;
	if (!ft)
		return;
	pc->open = NULL;
	drain(pc, m, pc->wcap - 1);
	pc->win[(pc->whead + pc->wn) % pc->wcap] = ft;
	pc->wn++;
	px_pool_submit(pc->pool, &ft->t);
}

/* The parser's release limit: the text of the oldest function not yet
 * analysed (tasks read their bodies' text after the parser moved on). */
static size_t hold_text(void *vctx)
{
	const struct par_ctx *pc = vctx;
	const struct fn_task *ft = pc->wn ? pc->win[pc->whead] : pc->open;
	return ft && ft->n ? ft->items[0].f.text_from : SIZE_MAX;
}

/* The hook: PX_STAGE_PRE here, the rest on the pool. */
static void on_function_par(void *vctx, struct px_module *m, uint32_t fi)
{
	struct par_ctx *pc = vctx;
	struct px_func *f = &m->funcs[fi];
	m->launch = &pc->c->launch;
	if (!pc->open) {
		pc->open = xcalloc(1, sizeof *pc->open);
		pc->open->t.run = fn_run;
		pc->open->pc = pc;
	}
	struct fn_task *ft = pc->open;
	struct fn_item *it = PX_VEC_PUSH(ft->items, ft->n, ft->cap);
	memset(it, 0, sizeof *it);
	it->fi = fi;
	it->skip = !px_pipeline_run_stage(m, f, &it->diags, pc->c->verify, PX_STAGE_PRE,
	                                  wanted(pc->c->opt));
	it->failed = it->skip;
	if (f->body_arena)
		ft->bytes += px_arena_footprint(f->body_arena);
	it->f = *f;
	px_func_detach_body(f);  /* the task frees it */
	it->view = *m;
	it->view.arena = NULL;   /* the slot's, set when it runs */
	it->view.funcs = NULL;   /* LOCAL passes never read other functions */
	it->view.files = NULL;
	it->view.nfiles = 0;
	it->view.targets = NULL;
	it->view.ntargets = 0;
	it->view.vars = (struct px_var *)vars_view(pc, m);
	if (ft->bytes >= pc->batch_bytes)
		submit_open(pc, m);
	else
		drain(pc, m, pc->wcap);  /* commit what has finished meanwhile */
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
	struct par_ctx pc = {.c = &c, .pool = opt->pool, .self = opt->task};
	if (opt->pool && !opt->dump) {
		pc.nslots = px_pool_slots(opt->pool);
		pc.batch_bytes = opt->batch_bytes ? opt->batch_bytes : BATCH_BYTES;
		pc.arenas = xcalloc(pc.nslots, sizeof *pc.arenas);
		pc.wcap = (size_t)pc.nslots + WINDOW_EXTRA;
		pc.win = xcalloc(pc.wcap, sizeof *pc.win);
		hook.function = on_function_par;
		hook.ctx = &pc;
		hook.hold = hold_text;
	}
	struct px_module *m = px_ptx_parse_hooked(path, text, len, diags, &hook);
	rep->module = m;
	if (pc.win) {
		submit_open(&pc, m);
		drain(&pc, m, 0);
		if (m->text_mapped)  /* what the parser held back for the last tasks */
			px_text_release(m->text, m->len, 0, m->len);
		for (unsigned i = 0; i < pc.nslots; i++)
			px_arena_adopt(m->arena, pc.arenas[i]);
		for (size_t i = 0; i < pc.nold; i++)
			free(pc.old[i]);
		free(pc.old);
		free(pc.snap);
		free(pc.arenas);
		free(pc.win);
	}
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
