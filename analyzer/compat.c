/* compat.c: judges which targets can run each kernel of a PTX module.
 *
 * Approach: one walk per function collects its feature uses (instructions
 * through px_ftable_match_insn, special-register operands, the function's
 * directives) in the module's arena; a kernel's uses are its own plus those
 * of every function it calls directly or transitively, plus the module's
 * (.target options), sorted by position. A kernel runs on target T at PTX
 * version V when V knows T and every use is available on T at V
 * (px_feature_ok: the table's target semantics, arch-specific and family
 * targets included). The first failing use gives the verdict's line,
 * instruction, requirement and fix hint. The minimum target is the first
 * target in the table's order (number, then generic < family <
 * arch-specific) that runs it at the newest version; the minimum version is
 * the least one that works there. Nothing here prints or exits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"

/* Collects uses, one per feature: the first by position (line, column).
 * A verdict names the first failing use in position order, and whether a
 * use fails depends only on its feature, so the first use of each feature
 * decides every verdict and minimum; the others are never kept (a 1 GB
 * file has tens of millions of uses and a few dozen features per kernel). */
struct walker {
	struct px_arena *arena;
	const struct px_ftable *tab;
	struct px_compat_use *uses;
	uint32_t n, cap;
	int32_t *slot;             /* per feature: its index in uses, -1 none (caller's scratch) */
};

static bool before(uint32_t line, uint32_t col, const struct px_compat_use *u)
{
	return line < u->line || (line == u->line && col < u->col);
}

/* The use of feature at (line, col), unless w has that feature at an
 * earlier or the same position. Returns the use to fill in (its text
 * still to set), or NULL. */
static struct px_compat_use *keep_use(struct walker *w, uint32_t feature, uint32_t line, uint32_t col)
{
	int32_t s = w->slot[feature];
	if (s >= 0 && !before(line, col, &w->uses[s]))
		return NULL;
	if (s < 0) {
		w->slot[feature] = (int32_t)w->n;
		s = (int32_t)w->n;
		PX_ARENA_PUSH(w->arena, w->uses, w->n, w->cap);
	}
	struct px_compat_use *u = &w->uses[s];
	u->feature = feature;
	u->line = line;
	u->col = col;
	return u;
}

/* Adds an existing use (text shared) to w. */
static void merge_use(struct walker *w, const struct px_compat_use *from)
{
	struct px_compat_use *u = keep_use(w, from->feature, from->line, from->col);
	if (u)
		u->text = from->text;
}

/* Clears w's slots (for the next walk with the same scratch). */
static void walker_reset(struct walker *w)
{
	for (uint32_t i = 0; i < w->n; i++)
		w->slot[w->uses[i].feature] = -1;
}

static void add_use(struct walker *w, int32_t feature, uint32_t line, uint32_t col, const char *text,
                    size_t tn)
{
	if (feature < 0)
		return;
	struct px_compat_use *u = keep_use(w, (uint32_t)feature, line, col);
	if (u)
		u->text = px_arena_strndup(w->arena, text, tn);
}

static void add_named(struct walker *w, enum px_ft_kind kind, const char *name, uint32_t line,
                      uint32_t col)
{
	add_use(w, px_ftable_find_named(w->tab, kind, name, strlen(name)), line, col, name, strlen(name));
}

static void walk_operand(struct walker *w, const struct px_operand *o)
{
	if (o->kind == PX_OPND_SREG) {
		const char *name = px_sreg_name((enum px_sreg)o->sreg);
		add_named(w, PX_FT_SREG, name, o->line, o->col);
	}
	for (uint32_t i = 0; i < o->nelems; i++)
		walk_operand(w, &o->elems[i]);
}

/* Fills w with the uses of function f (its body and directives). */
static void walk_func(struct walker *w, const struct px_func *f)
{
	static const struct {
		const char *name;
		size_t off;
	} dirs[] = {
		{".maxclusterrank", offsetof(struct px_func, maxclusterrank)},
		{".maxnctapersm", offsetof(struct px_func, maxnctapersm)},
		{".maxnreg", offsetof(struct px_func, maxnreg)},
		{".maxntid", offsetof(struct px_func, maxntid)},
		{".minnctapersm", offsetof(struct px_func, minnctapersm)},
		{".reqnctapercluster", offsetof(struct px_func, reqnctapercluster)},
		{".reqntid", offsetof(struct px_func, reqntid)},
	};
	for (size_t i = 0; i < PX_COUNTOF(dirs); i++) {
		uint32_t v;
		memcpy(&v, (const char *)f + dirs[i].off, sizeof v);
		if (v)
			add_named(w, PX_FT_DIRECTIVE, dirs[i].name, f->line, f->col);
	}
	if (f->explicitcluster)
		add_named(w, PX_FT_DIRECTIVE, ".explicitcluster", f->line, f->col);
	if (f->noreturn)
		add_named(w, PX_FT_DIRECTIVE, ".noreturn", f->line, f->col);
	if (f->npragmas)
		add_named(w, PX_FT_DIRECTIVE, ".pragma", f->line, f->col);
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		uint32_t hits[16];
		uint32_t nh = px_ftable_match_insn(w->tab, in->opname, in->modtext, hits, PX_COUNTOF(hits));
		if (nh > PX_COUNTOF(hits))
			nh = PX_COUNTOF(hits);
		for (uint32_t k = 0; k < nh; k++) {
			struct px_compat_use *u = keep_use(w, hits[k], in->line, in->col);
			if (u)
				u->text = px_arena_printf(w->arena, PX_STR_FMT PX_STR_FMT, PX_STR_ARG(in->opname),
				                          PX_STR_ARG(in->modtext));
		}
		for (uint32_t k = 0; k < in->nopnds; k++)
			walk_operand(w, &in->opnds[k]);
	}
}

static int cmp_use(const void *x, const void *y)
{
	const struct px_compat_use *a = x, *b = y;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	return a->feature < b->feature ? -1 : a->feature > b->feature;
}

/* What the walk keeps of each function once its body is dropped: its uses
 * (one per feature) and the names it calls directly (copies in the module
 * arena: a mapped text gives its pages back as the parse moves on). */
struct fsum {
	struct px_compat_use *uses;
	uint32_t nuses;
	px_str *calls;
	uint32_t ncalls, capcalls;
	int32_t *callee;              /* calls resolved to function indices (-1: none) */
	bool walked;
};

struct parse_ctx {
	const struct px_ftable *tab;
	struct fsum *fs;
	uint32_t nfs, capfs;
	int32_t *slot;                /* the walkers' scratch: tab->nfeatures entries, all -1 */
};

/* Fills s (in arena a) from f, which still has its body; slot is the
 * walkers' scratch (all -1, left so). */
static void summarise(struct px_arena *a, const struct px_ftable *tab, int32_t *slot, const struct px_func *f,
                      struct fsum *s)
{
	struct walker fw = {.arena = a, .tab = tab, .slot = slot};
	walk_func(&fw, f);
	walker_reset(&fw);
	s->uses = fw.uses;
	s->nuses = fw.n;
	if (s->nuses > 1)
		qsort(s->uses, s->nuses, sizeof *s->uses, cmp_use);
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		if (in->op != PX_OP_CALL)
			continue;
		for (uint32_t k = 0; k < in->nopnds; k++)
			if (in->opnds[k].kind == PX_OPND_SYM) {
				px_str sym = in->opnds[k].sym;
				*PX_ARENA_PUSH(a, s->calls, s->ncalls, s->capcalls) =
					(px_str){px_arena_strndup(a, sym.p, sym.n), sym.n};
			}
	}
	s->walked = true;
}

static struct fsum *fsum_at(struct parse_ctx *c, uint32_t i)
{
	while (c->nfs <= i) {
		struct fsum *s = PX_VEC_PUSH(c->fs, c->nfs, c->capfs);
		memset(s, 0, sizeof *s);
	}
	return &c->fs[i];
}

/* The parse hook: each body is summarised, then dropped, so that the
 * module holds one body at a time (a module of 16 MB took 215 MB whole). */
static void on_function(void *vctx, struct px_module *m, uint32_t fi)
{
	struct parse_ctx *c = vctx;
	summarise(m->arena, c->tab, c->slot, &m->funcs[fi], fsum_at(c, fi));
	px_func_drop_body(&m->funcs[fi]);
}

/* Appends fi and every function it calls, directly or not, to *out (in
 * no particular order), marking each with stamp in mark[]; iterative, so a
 * long call chain cannot overflow the stack. */
static void reach_from(const struct fsum *fs, uint32_t fi, uint32_t *mark, uint32_t stamp, uint32_t **out,
                       uint32_t *n, uint32_t *cap)
{
	mark[fi] = stamp;
	*PX_VEC_PUSH(*out, *n, *cap) = fi;
	for (uint32_t next = 0; next < *n; next++) {
		const struct fsum *s = &fs[(*out)[next]];
		for (uint32_t k = 0; k < s->ncalls; k++) {
			int32_t c = s->callee[k];
			if (c >= 0 && mark[c] != stamp) {
				mark[c] = stamp;
				*PX_VEC_PUSH(*out, *n, *cap) = (uint32_t)c;
			}
		}
	}
}

/* The least PTX version at which every use runs on t; 0 when some use
 * cannot run there at any version. */
static uint32_t need_on(const struct px_ftable *tab, const struct px_compat_use *uses, uint32_t n,
                        uint32_t t)
{
	uint32_t need = tab->targets[t].ptx;
	uint32_t newest = px_ftable_newest_version(tab);
	for (uint32_t i = 0; i < n; i++) {
		const struct px_feature *f = &tab->features[uses[i].feature];
		uint32_t v = px_feature_ptx_on(tab, f, t);
		if (!v || !px_feature_ok(tab, f, t, newest))
			return 0;
		if (v > need)
			need = v;
	}
	return need;
}

static void find_min(const struct px_ftable *tab, const struct px_compat_use *uses, uint32_t n,
                     int32_t *min_target, uint32_t *min_ptx)
{
	*min_target = -1;
	*min_ptx = 0;
	for (uint32_t t = 0; t < tab->ntargets; t++) {
		uint32_t v = need_on(tab, uses, n, t);
		if (v) {
			*min_target = (int32_t)t;
			*min_ptx = v;
			return;
		}
	}
}

/* The first use that cannot run on t at version v, or NULL. */
static const struct px_compat_use *first_fail(const struct px_ftable *tab,
                                              const struct px_compat_use *uses, uint32_t n,
                                              uint32_t t, uint32_t v)
{
	for (uint32_t i = 0; i < n; i++)
		if (!px_feature_ok(tab, &tab->features[uses[i].feature], t, v))
			return &uses[i];
	return NULL;
}

/* The generic target from which f is available, or -1. */
static int32_t generic_from(const struct px_feature *f)
{
	for (uint32_t i = 0; i < f->nalts; i++)
		if (f->alts[i].kind == PX_FT_FROM)
			return (int32_t)f->alts[i].target;
	return -1;
}

/* Fills a failed verdict of use u on target t at version v. */
static void explain(struct px_arena *a, const struct px_ftable *tab, const struct px_compat_use *u,
                    uint32_t t, uint32_t v, struct px_compat_verdict *out)
{
	const struct px_feature *f = &tab->features[u->feature];
	const struct px_ft_target *g = &tab->targets[t];
	char vb[8], nb[8], req[160];
	uint32_t need = px_feature_ptx_on(tab, f, t);
	out->use = u;
	if (need && need > v) {
		out->requires = px_arena_printf(a, "PTX ISA %s", px_ptx_version_str(need, nb));
		out->message = px_arena_printf(a, "%s needs PTX ISA %s on %s (the code is at %s); "
		                               "hint: raise .version to %s", u->text, nb, g->name,
		                               px_ptx_version_str(v, vb), nb);
		return;
	}
	if (need && f->removed_target) {
		out->requires = px_arena_printf(a, "PTX ISA below %s",
		                                px_ptx_version_str(f->removed_ptx, nb));
		out->message = px_arena_printf(a, "%s is not supported on %s from PTX ISA %s; hint: %s",
		                               u->text, g->name, nb,
		                               f->hint ? f->hint : "use the current form of the instruction");
		return;
	}
	px_feature_requires(tab, f, req, sizeof req);
	out->requires = px_arena_printf(a, "%s", req);
	int32_t gen = generic_from(f);
	if (f->hint)
		out->message = px_arena_printf(a, "%s requires %s; hint: %s", u->text, req, f->hint);
	else if (gen >= 0)
		out->message = px_arena_printf(a, "%s requires %s; hint: compile for %s or newer, or guard "
		                               "it with __CUDA_ARCH__ >= %u", u->text, req,
		                               tab->targets[gen].name, tab->targets[gen].number * 10);
	else
		out->message = px_arena_printf(a, "%s requires %s; hint: compile for %s (arch-specific "
		                               "code runs only there) and guard it with "
		                               "__CUDA_ARCH_FEAT_SM%u_ALL or __CUDA_ARCH_SPECIFIC__", u->text,
		                               req, tab->targets[f->alts[0].target].name,
		                               tab->targets[f->alts[0].target].number);
}

/* Judges uses on target t at version v. */
static void judge(struct px_arena *a, const struct px_ftable *tab, const struct px_compat_use *uses,
                  uint32_t n, uint32_t t, uint32_t v, struct px_compat_verdict *out)
{
	memset(out, 0, sizeof *out);
	out->target = t;
	const struct px_ft_target *g = &tab->targets[t];
	char vb[8], nb[8];
	if (v < g->ptx) {
		out->requires = px_arena_printf(a, "PTX ISA %s", px_ptx_version_str(g->ptx, nb));
		out->message = px_arena_printf(a, "PTX ISA %s does not know %s (it needs %s); hint: raise "
		                               ".version to %s", px_ptx_version_str(v, vb), g->name, nb, nb);
		return;
	}
	const struct px_compat_use *u = first_fail(tab, uses, n, t, v);
	if (!u) {
		out->ok = true;
		return;
	}
	explain(a, tab, u, t, v, out);
}

static uint32_t find_version_line(const struct px_module *m)
{
	uint32_t line = 1;
	for (size_t i = 0; m->text && i < m->len; i++) {
		if (m->text[i] == '\n')
			line++;
		else if (m->text[i] == '.' && m->len - i > 8 && memcmp(m->text + i, ".version", 8) == 0)
			return line;
	}
	return 0;
}

bool px_compat_file(const char *path, char *text, size_t len, const struct px_ftable *tab,
                    const struct px_compat_options *opt, struct px_compat_file *out,
                    struct px_diags *diags)
{
	memset(out, 0, sizeof *out);
	out->path = path;
	out->declared_target = -1;
	out->min_target = -1;
	size_t errors = diags->errors;
	struct parse_ctx pc = {.tab = tab, .slot = xmalloc(((size_t)tab->nfeatures + 1) * sizeof *pc.slot)};
	for (uint32_t i = 0; i < tab->nfeatures; i++)
		pc.slot[i] = -1;
	struct px_parse_hook hook = {.function = on_function, .ctx = &pc, .body_arenas = true,
	                             .text_mapped = opt->text_mapped};
	struct px_module *m = px_ptx_parse_hooked(path, text, len, diags, &hook);
	out->module = m;
	out->text_borrowed = opt->text_borrowed;
	if (diags->errors > errors) {
		free(pc.fs);
		free(pc.slot);
		return false;
	}
	struct px_arena *a = m->arena;
	out->arena = a;
	out->declared = m->target;
	if (m->target.n)
		out->declared_target = px_ftable_find_target(tab, m->target.p, m->target.n);
	out->ptx_version = m->version_major * 10 + m->version_minor;
	out->version_line = find_version_line(m);
	uint32_t newest = px_ftable_newest_version(tab);
	uint32_t v = opt->any_version || !out->ptx_version ? newest : out->ptx_version;

	/* the module's own uses: .target options */
	struct walker w = {.arena = a, .tab = tab, .slot = pc.slot};
	for (uint32_t i = 0; i < m->ntargets; i++) {
		px_str s = m->targets[i];
		int32_t fi = px_ftable_find_named(tab, PX_FT_TARGETOPT, s.p, s.n);
		add_use(&w, fi, 1, 1, s.p, s.n);
	}
	walker_reset(&w);
	struct px_compat_use *mod_uses = w.uses;
	uint32_t nmod = w.n;
	/* each function's uses (functions without a body: their directives);
	 * the file's: the first of each feature over them all */
	struct walker all = {.arena = a, .tab = tab, .slot = pc.slot};
	for (uint32_t i = 0; i < nmod; i++)
		merge_use(&all, &mod_uses[i]);
	if (m->nfuncs)
		fsum_at(&pc, m->nfuncs - 1);
	struct fsum *fs = pc.fs;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		if (!fs[i].walked)
			summarise(a, tab, pc.slot, &m->funcs[i], &fs[i]);
		fs[i].callee = px_arena_alloc(a, (fs[i].ncalls + 1) * sizeof *fs[i].callee);
		for (uint32_t k = 0; k < fs[i].ncalls; k++)
			fs[i].callee[k] = px_module_find_func(m, fs[i].calls[k]);
		for (uint32_t k = 0; k < fs[i].nuses; k++)
			merge_use(&all, &fs[i].uses[k]);
	}
	walker_reset(&all);
	if (all.n)
		qsort(all.uses, all.n, sizeof *all.uses, cmp_use);
	find_min(tab, all.uses, all.n, &out->min_target, &out->min_ptx);

	/* kernels: their uses, those of the functions they reach, the module's */
	uint32_t *mark = xcalloc(m->nfuncs + 1, sizeof *mark);
	uint32_t *reached = NULL, nreached = 0, capreached = 0;
	uint32_t kcap = 0;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		const struct px_func *f = &m->funcs[i];
		if (!f->is_entry || !f->has_body)
			continue;
		struct px_compat_kernel *k = PX_ARENA_PUSH(a, out->kernels, out->nkernels, kcap);
		memset(k, 0, sizeof *k);
		k->name = f->name;
		k->line = f->line;
		nreached = 0;
		reach_from(fs, i, mark, i + 1, &reached, &nreached, &capreached);
		struct walker kw = {.arena = a, .tab = tab, .slot = pc.slot};
		if (nreached == 1 && !nmod) {
			/* calls nothing: its own uses (sorted), not a copy */
			kw.uses = fs[i].uses;
			kw.n = fs[i].nuses;
		} else {
			for (uint32_t u = 0; u < nmod; u++)
				merge_use(&kw, &mod_uses[u]);
			for (uint32_t r = 0; r < nreached; r++)
				for (uint32_t u = 0; u < fs[reached[r]].nuses; u++)
					merge_use(&kw, &fs[reached[r]].uses[u]);
			walker_reset(&kw);
			if (kw.n > 1)
				qsort(kw.uses, kw.n, sizeof *kw.uses, cmp_use);
		}
		k->uses = kw.uses;
		k->nuses = kw.n;
		find_min(tab, k->uses, k->nuses, &k->min_target, &k->min_ptx);
		k->verdicts = px_arena_alloc(a, (opt->ntargets + 1) * sizeof *k->verdicts);
		for (uint32_t t = 0; t < opt->ntargets; t++) {
			judge(a, tab, k->uses, k->nuses, opt->targets[t], v, &k->verdicts[t]);
			if (!k->verdicts[t].ok)
				out->any_fails = true;
		}
	}
	free(mark);
	free(reached);
	free(pc.fs);
	free(pc.slot);

	/* the file's own .target and .version */
	out->consistent = false;
	if (!m->target.n) {
		out->reason = px_arena_printf(a, "the file has no .target");
	} else if (out->declared_target < 0) {
		out->reason = px_arena_printf(a, ".target " PX_STR_FMT " is not a target the feature table "
		                              "knows", PX_STR_ARG(m->target));
	} else if (!out->ptx_version) {
		out->reason = px_arena_printf(a, "the file has no .version");
	} else {
		struct px_compat_verdict vd;
		judge(a, tab, all.uses, all.n, (uint32_t)out->declared_target, out->ptx_version, &vd);
		out->consistent = vd.ok;
		if (!vd.ok && vd.use)
			out->reason = px_arena_printf(a, "line %u: %s", vd.use->line, vd.message);
		else if (!vd.ok)
			out->reason = px_arena_printf(a, "%s", vd.message);
	}
	return true;
}

void px_compat_file_free(struct px_compat_file *f)
{
	if (f->cuda) {
		for (uint32_t t = 0; t < f->cuda->ntargets; t++) {
			struct px_compat_cuda_target *ct = &f->cuda->targets[t];
			free(ct->ptx);
			px_compat_file_free(&ct->res);
			px_compat_cuda_branches_free(ct->branches, ct->nbranches);
		}
		free(f->cuda->targets);
		free(f->cuda);
		if (f->arena)
			px_arena_delete(f->arena);
	}
	if (f->module && f->text_borrowed)
		px_module_release_text(f->module);   /* the caller's */
	if (f->module)
		px_module_delete(f->module);
	memset(f, 0, sizeof *f);
}
