/* pass_uniform.c: fill_uniform, the uniformity (divergence) of every
 * register and the verdict on every conditional branch; plus the lane
 * helpers (which threads form warp w, which lanes reach an instruction)
 * that pass_access.c shares.
 *
 * Approach. Levels block-uniform < warp-uniform < divergent, one per
 * register (flow-insensitive: the join over its definitions), computed to a
 * fixpoint over the instructions:
 *  - sources: %tid, %laneid, %lanemask_*, %clock*, %globaltimer*, elect,
 *    match, atomics' results, call results and loads from local memory are
 *    divergent; %warpid, %smid, vote, redux and activemask are warp-uniform;
 *    bar.red's result (__syncthreads_or and the like) is block-uniform;
 *    a load is as uniform as its address (every lane reading one address
 *    gets one value); shfl is as uniform as the value it moves;
 *  - data dependence: a definition is as divergent as its operands and its
 *    guard predicate;
 *  - the affine form refines it: a single-definition register whose form is
 *    known is block-uniform without thread atoms, and warp-uniform when it
 *    evaluates to one value over the lanes of each warp of the launch block
 *    (tid.x >> 5 with blockDim.x a multiple of 32, tid.y with blockDim.x a
 *    multiple of 32, ...);
 *  - sync dependence: for a branch B whose guard varies by thread, with
 *    immediate post-dominator P, a register defined in the region between
 *    B and P (reached from B without passing P) that is live into P is
 *    divergent when it has several definitions or is defined in a loop
 *    that P leaves (lanes left the loop at different iterations); and those
 *    loops' counters and those registers' JOIN atoms become "unsure".
 *    A branch the lane evaluation below proves never to split a warp makes
 *    them only warp-uniform (none when no warp differs), unless its own
 *    condition rests on an unsure atom; iterated to a fixpoint.
 * Each divergent register remembers the operand that made it so; a branch's
 * reason follows that chain to its root ("depends on %tid.x via %r4").
 * Branch verdicts: a guard that is not divergent gives "uniform"; a
 * divergent guard whose predicate the affine model can evaluate (with
 * --param values, and %ctaid enumerated over --grid when it is small) is
 * evaluated for the 32 lanes of every warp of the launch block that reach
 * it: "uniform" if no warp splits, else "divergent" with the active lanes of
 * the smaller side. When it needs unknown uniform values, "uniform" still
 * when each side is one value per warp or the turning point of a comparison
 * cannot fall inside a warp (never_splits); else "unknown" (values known
 * only at launch decide). A condition on an unsure atom is "unknown"; one
 * the affine model cannot express (loaded data, ...) "divergent". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

enum { MAX_GRID_ENUM = 4096, MAX_REGION_WORK_FACTOR = 16 };

uint32_t px_block_warps(const uint32_t block[3])
{
	uint64_t n = (uint64_t)block[0] * block[1] * block[2];
	return (uint32_t)((n + 31) / 32);
}

uint32_t px_warp_lanes(const uint32_t block[3], uint32_t w, int64_t tid[32][3])
{
	uint64_t n = (uint64_t)block[0] * block[1] * block[2];
	uint32_t k = 0;
	for (uint32_t l = 0; l < 32; l++) {
		uint64_t t = (uint64_t)w * 32 + l;
		if (t >= n)
			break;
		tid[l][0] = (int64_t)(t % block[0]);
		tid[l][1] = (int64_t)((t / block[0]) % block[1]);
		tid[l][2] = (int64_t)(t / ((uint64_t)block[0] * block[1]));
		k++;
	}
	return k;
}

/* The condition of the branch ending block b that holds for the lanes
 * reaching `child`, the block right below b on the dominator chain of the
 * instruction's block, as (predicate, negated); false if none. The lanes
 * are known to have taken one side when that side is `child` itself and is
 * entered only from b (a successor with a single predecessor b has b as
 * its immediate dominator, so it can only appear on the chain there). */
static bool controlling(const struct px_func *f, uint32_t b, uint32_t child, int32_t *pred, bool *neg)
{
	const struct px_block *bb = &f->blocks[b];
	if (bb->nsuccs != 2 || bb->end == bb->first)
		return false;
	const struct px_insn *br = &f->insns[bb->end - 1];
	if (br->op != PX_OP_BRA || br->guard < 0)
		return false;
	/* succs: the branch target first, then the fall-through (pass_cfg.c) */
	uint32_t taken = bb->succs[0], other = bb->succs[1];
	if (other == taken)
		return false;
	for (int side = 0; side < 2; side++) {
		uint32_t s = side ? other : taken;
		if (s == child && f->blocks[s].npreds == 1) {
			*pred = br->guard;
			*neg = side ? !br->guard_neg : br->guard_neg;
			return true;
		}
	}
	return false;
}

void px_reach_masks(const struct px_func *f, uint32_t insn, bool with_guard, const int64_t *uval,
                    const bool *uknown, uint32_t *masks, bool *known)
{
	const struct px_func_analysis *an = f->an;
	uint32_t nw = px_block_warps(an->block);
	*known = true;
	/* conditions that differ between lanes: the instruction's guard, then
	 * the branches controlling its block along the dominator chain */
	int32_t preds[24];
	bool negs[24];
	uint32_t np = 0;
	const struct px_insn *in = &f->insns[insn];
	if (with_guard && in->guard >= 0 && in->op != PX_OP_BRA && an->uni[in->guard] == PX_UNI_DIVERGENT) {
		preds[np] = in->guard;
		negs[np++] = in->guard_neg;
	}
	uint32_t b = in->block, child = b;
	for (uint32_t d = f->blocks[b].idom, depth = 0; depth < 64 && np < 24; d = f->blocks[d].idom, depth++) {
		int32_t p;
		bool ng;
		if (d == child)
			break;   /* the entry */
		if (controlling(f, d, child, &p, &ng) && an->uni[p] == PX_UNI_DIVERGENT) {
			preds[np] = p;
			negs[np++] = ng;
		}
		if (d == f->blocks[d].idom)
			break;
		child = d;
	}
	/* a condition that cannot be evaluated for one lane cannot for any
	 * (it lacks a uniform value): drop it, and say so */
	struct px_eval_env env0 = {.uval = uval, .uknown = uknown};
	for (uint32_t k = 0; k < np;) {
		if (px_pred_eval(an, preds[k], &env0, 0) < 0) {
			*known = false;
			preds[k] = preds[np - 1];
			negs[k] = negs[--np];
		} else {
			k++;
		}
	}
	uint64_t nthreads = (uint64_t)an->block[0] * an->block[1] * an->block[2];
	for (uint32_t w = 0; w < nw; w++) {
		uint32_t nl = (uint32_t)(nthreads - 32ull * w >= 32 ? 32 : nthreads - 32ull * w);
		uint32_t mask = nl == 32 ? 0xffffffffu : ((1u << nl) - 1);
		/* a lane leaves at the first condition that fails for it */
		uint32_t live = mask;
		for (uint32_t k = 0; k < np && live; k++) {
			int8_t v[32];
			px_pred_eval_warp(an, preds[k], w, live, uval, uknown, v, 0);
			for (uint32_t l = 0; l < nl; l++) {
				if (!(live >> l & 1))
					continue;
				if (v[l] < 0)
					*known = false;
				else if (v[l] == (int)negs[k])
					live &= ~(1u << l);
			}
		}
		masks[w] = live;
	}
}

struct uctx {
	struct px_module *m;
	struct px_func *f;
	struct px_func_analysis *an;
	uint8_t *lvl;
	int32_t *why;
	uint8_t *why_comp;
	uint8_t *bstate;    /* per block: its branch's BS_* state in the fixpoint */
	uint8_t *flc;       /* per register: form_level + 1, 0 = not computed */
	bool *loop_unsure;  /* per loop: lanes may leave it at different iterations */
	bool *reg_unsure;   /* per register: merged after a divergent branch (JOIN atoms) */
	uint64_t work;
	uint64_t gen;       /* raised levels so far (raise_to) */
	struct branch_eval *ev;  /* per block: eval_branch's last answer */
};

/* eval_branch's answer for a block's branch, and c->gen + 1 when it was
 * computed (0: never). */
struct branch_eval {
	uint64_t gen;
	bool ok, split, warp_only;
	int32_t minside;
};

/* The fixpoint's view of a conditional branch whose guard varies by thread. */
enum { BS_NONE, BS_PROVED, BS_PROVED_WARP, BS_SPLITS };

/* A special register's uniformity (enum px_uni) before any refinement. */
uint8_t px_sreg_level(uint16_t s)
{
	switch (s) {
	case PX_SREG_TID: case PX_SREG_LANEID:
	case PX_SREG_LANEMASK_EQ: case PX_SREG_LANEMASK_LE: case PX_SREG_LANEMASK_LT:
	case PX_SREG_LANEMASK_GE: case PX_SREG_LANEMASK_GT:
	case PX_SREG_CLOCK: case PX_SREG_CLOCK_HI: case PX_SREG_CLOCK64:
	case PX_SREG_GLOBALTIMER: case PX_SREG_GLOBALTIMER_LO: case PX_SREG_GLOBALTIMER_HI:
	case PX_SREG_PM: case PX_SREG_PM64:
		return PX_UNI_DIVERGENT;
	case PX_SREG_WARPID: case PX_SREG_SMID:
		return PX_UNI_WARP;
	}
	return PX_UNI_BLOCK;
}

/* The level a form implies over the launch block. */
static uint8_t form_level(const struct px_func_analysis *an, const struct px_aff *a)
{
	if (!px_aff_has_thread(an, a))
		return PX_UNI_BLOCK;
	/* linear in tid: decided by the block's shape */
	bool linear = true, div = false;
	const uint32_t *bk = an->block;
	for (uint32_t i = 0; i < a->nterms; i++) {
		const struct px_atom *t = &an->atoms[a->t[i].atom];
		if (t->kind == PX_ATOM_LANEID)
			return PX_UNI_DIVERGENT;
		if (t->kind == PX_ATOM_QUASI)
			linear = false;
		else if (t->kind == PX_ATOM_TID)
			div |= (t->a == 0 && bk[0] > 1) ||
			       (t->a == 1 && bk[1] > 1 && bk[0] % 32 != 0) ||
			       (t->a == 2 && bk[2] > 1 && (bk[0] * bk[1]) % 32 != 0);
	}
	if (linear)
		return div ? PX_UNI_DIVERGENT : PX_UNI_WARP;
	/* keep only the thread part; uniform atoms are 0 */
	struct px_aff t = *a;
	t.nterms = 0;
	t.c = 0;
	for (uint32_t i = 0; i < a->nterms; i++)
		if (an->atoms[a->t[i].atom].thread)
			t.t[t.nterms++] = a->t[i];
	uint32_t nw = px_block_warps(an->block);
	for (uint32_t w = 0; w < nw; w++) {
		uint32_t nl = an->nlanes[w];
		int64_t v[32];
		if (!nl)
			continue;
		if (!px_aff_eval_warp(an, &t, w, nl == 32 ? 0xffffffffu : (1u << nl) - 1, NULL, NULL, v))
			return PX_UNI_DIVERGENT;
		for (uint32_t l = 1; l < nl; l++)
			if (v[l] != v[0])
				return PX_UNI_DIVERGENT;
	}
	return PX_UNI_WARP;
}

static void raise_to(struct uctx *c, int32_t r, uint8_t lv, int32_t why, uint8_t comp, bool *changed)
{
	if (r < 0 || (uint32_t)r >= c->f->nregs || c->lvl[r] >= lv)
		return;
	c->lvl[r] = lv;
	c->why[r] = why;
	c->why_comp[r] = comp;
	c->gen++;
	*changed = true;
}

/* One sweep of the transfer functions over every instruction. */
static void sweep(struct uctx *c, bool *changed)
{
	struct px_func *f = c->f;
	struct px_func_analysis *an = c->an;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		uint32_t nd, nu;
		const int32_t *defs = px_func_defs(f, i, &nd);
		if (!nd)
			continue;
		if (nd > 64)
			nd = 64;
		uint8_t lv = PX_UNI_BLOCK;
		int32_t why = -1;
		uint8_t comp = 0;
		unsigned fl = px_opcode_flags(in->op);
		/* data dependence (operands, address bases, guard) */
		const int32_t *uses = px_func_uses(f, i, &nu);
		for (uint32_t k = 0; k < nu && k < 64; k++)
			if (uses[k] >= 0 && (uint32_t)uses[k] < f->nregs && c->lvl[uses[k]] > lv) {
				lv = c->lvl[uses[k]];
				why = uses[k];
			}
		for (uint32_t k = 0; k < in->nopnds; k++)
			if (in->opnds[k].kind == PX_OPND_SREG) {
				uint8_t s = px_sreg_level(in->opnds[k].sreg);
				if (s > lv) {
					lv = s;
					why = -2 - (int32_t)in->opnds[k].sreg;
					comp = (uint8_t)(in->opnds[k].comp < 0 ? 0 : in->opnds[k].comp);
				}
			}
		/* sources */
		if ((fl & PX_OPF_ATOMIC) || in->op == PX_OP_CALL || in->op == PX_OP_MATCH ||
		    in->op == PX_OP_ELECT || (in->op == PX_OP_LD && in->space == PX_SPACE_LOCAL)) {
			lv = PX_UNI_DIVERGENT;
			why = -1;
		} else if (in->op == PX_OP_VOTE || in->op == PX_OP_REDUX || in->op == PX_OP_ACTIVEMASK) {
			lv = lv > PX_UNI_WARP ? lv : PX_UNI_WARP;
			if (in->op != PX_OP_VOTE || lv <= PX_UNI_WARP)
				lv = PX_UNI_WARP;
		} else if ((in->op == PX_OP_BAR || in->op == PX_OP_BARRIER) && (in->mods & PX_MOD_RED)) {
			/* bar.red's result (__syncthreads_and/_or/_count) is the
			 * reduction over the threads that take part, the same value
			 * in each (PTX ISA, "Parallel Synchronization and
			 * Communication Instructions: bar, barrier") */
			lv = PX_UNI_BLOCK;
			why = -1;
		} else if (in->op == PX_OP_SHFL && in->nopnds >= 2) {
			/* as uniform as the value moved (operand 1) and the guard */
			const struct px_operand *v = &in->opnds[1];
			lv = PX_UNI_BLOCK;
			why = -1;
			if (v->kind == PX_OPND_REG && v->reg >= 0 && (uint32_t)v->reg < f->nregs) {
				lv = c->lvl[v->reg];
				why = v->reg;
			}
		} else if ((fl & (PX_OPF_TEX | PX_OPF_MMA | PX_OPF_ASYNC)) || in->op == PX_OP_UNKNOWN) {
			lv = PX_UNI_DIVERGENT;
			why = -1;
		}
		for (uint32_t k = 0; k < nd; k++) {
			int32_t r = defs[k];
			if (r < 0 || (uint32_t)r >= f->nregs)
				continue;
			uint8_t l = lv;
			/* the affine refinement for single definitions */
			if (l > PX_UNI_BLOCK && an->ndefs[r] == 1 && an->form[r].known && nd == 1) {
				if (!c->flc[r])
					c->flc[r] = (uint8_t)(form_level(an, &an->form[r]) + 1);
				uint8_t fl2 = (uint8_t)(c->flc[r] - 1);
				if (fl2 < l)
					l = fl2;
			}
			raise_to(c, r, l, why, comp, changed);
		}
	}
}

static bool live_in(const struct px_func *f, uint32_t b, int32_t r)
{
	return px_live_has(f, f->blocks[b].live_in, r);
}

static bool in_loop(const struct px_func *f, uint32_t b, int32_t l)
{
	for (int32_t x = f->blocks[b].loop; x >= 0; x = f->loops[x].parent)
		if (x == l)
			return true;
	return false;
}

/* Sync dependence of the divergent branch ending block b (see the file comment). */
static void region(struct uctx *c, uint32_t b, uint8_t lv, uint32_t *stack, uint8_t *seen,
                   bool *changed)
{
	struct px_func *f = c->f;
	uint32_t P = f->blocks[b].ipdom;
	if (P >= f->nblocks)
		return;  /* no join: values after it are not reached by both sides */
	bool split = lv == PX_UNI_DIVERGENT;
	memset(seen, 0, f->nblocks);
	uint32_t sp = 0;
	for (uint32_t s = 0; s < f->blocks[b].nsuccs; s++)
		if (f->blocks[b].succs[s] != P && !seen[f->blocks[b].succs[s]]) {
			seen[f->blocks[b].succs[s]] = 1;
			stack[sp++] = f->blocks[b].succs[s];
		}
	while (sp) {
		uint32_t x = stack[--sp];
		const struct px_block *xb = &f->blocks[x];
		c->work += xb->end - xb->first + 1;
		/* lanes that split here may leave the loops holding x (and not P)
		 * at different iterations */
		for (int32_t l = xb->loop; split && l >= 0 && !in_loop(f, P, l); l = f->loops[l].parent)
			if (!c->loop_unsure[l]) {
				c->loop_unsure[l] = true;
				*changed = true;
			}
		for (uint32_t i = xb->first; i < xb->end; i++) {
			uint32_t nd;
			const int32_t *defs = px_func_defs(f, i, &nd);
			for (uint32_t k = 0; k < nd && k < 64; k++) {
				int32_t r = defs[k];
				if (r < 0 || (uint32_t)r >= f->nregs || !live_in(f, P, r))
					continue;
				if (split && c->an->ndefs[r] > 1 && !c->reg_unsure[r]) {
					c->reg_unsure[r] = true;
					*changed = true;
				}
				if (c->lvl[r] >= lv)
					continue;
				if (c->an->ndefs[r] > 1 || (xb->loop >= 0 && !in_loop(f, P, xb->loop)))
					raise_to(c, r, lv, -1, 0, changed);
			}
		}
		for (uint32_t s = 0; s < xb->nsuccs; s++) {
			uint32_t y = xb->succs[s];
			if (y != P && y < f->nblocks && !seen[y]) {
				seen[y] = 1;
				stack[sp++] = y;
			}
		}
	}
}

static int32_t guard_of(const struct px_func *f, uint32_t b)
{
	const struct px_block *bb = &f->blocks[b];
	if (bb->end == bb->first || bb->nsuccs < 2)
		return -1;
	const struct px_insn *br = &f->insns[bb->end - 1];
	return br->op == PX_OP_BRA ? br->guard : -1;
}

/* "depends on %tid.x via %r4": the root of r's divergence chain. */
static const char *reason(struct uctx *c, int32_t r)
{
	static const char xyz[] = "xyz";
	const struct px_func *f = c->f;
	int32_t prev = r;
	for (int hops = 0; hops < 64; hops++) {
		int32_t w = c->why[r];
		if (w <= -2) {
			uint16_t s = (uint16_t)(-2 - w);
			char comp[3] = {0};
			if (s == PX_SREG_TID || s == PX_SREG_NTID || s == PX_SREG_CTAID || s == PX_SREG_NCTAID) {
				comp[0] = '.';
				comp[1] = xyz[c->why_comp[r] % 3];
			}
			return px_arena_printf(c->m->arena, "depends on %s%s via " PX_STR_FMT,
			                       px_sreg_name(s), comp, PX_STR_ARG(f->regs[prev == r ? r : prev].name));
		}
		if (w < 0)
			break;
		prev = r;
		r = w;
	}
	/* the root is a source instruction or a sync dependence */
	return px_arena_printf(c->m->arena, "depends on " PX_STR_FMT
	                       " (a load, atomic, call or a value merged after a divergent branch)",
	                       PX_STR_ARG(f->regs[r].name));
}

static struct px_results *results(struct px_module *m, struct px_func *f)
{
	if (!f->res)
		f->res = px_arena_alloc(m->arena, sizeof *f->res);
	return f->res;
}

static uint32_t loop_depth(const struct px_func *f, uint32_t b)
{
	int32_t l = f->blocks[b].loop;
	return l >= 0 ? f->loops[l].depth : 0;
}

/* Evaluates the branch at the end of block b over the warps of the block;
 * ctaid enumerated over the grid when needed. Returns false if it cannot. */
static bool eval_branch(struct uctx *c, uint32_t b, int32_t guard, bool *split, int32_t *minside,
                        bool *warp_only)
{
	struct px_func *f = c->f;
	struct px_func_analysis *an = c->an;
	const struct px_launch *l = c->m->launch;
	uint32_t ig = f->blocks[b].end - 1;
	int64_t *uval = xcalloc(an->natoms, sizeof *uval);
	bool *uk = xcalloc(an->natoms, sizeof *uk);
	uint64_t ngrid = 1;
	uint32_t g[3] = {1, 1, 1};
	if (l && l->grid[0]) {
		for (int i = 0; i < 3; i++)
			g[i] = l->grid[i] ? l->grid[i] : 1;
		ngrid = (uint64_t)g[0] * g[1] * g[2];
	}
	bool use_grid = ngrid <= MAX_GRID_ENUM && l && l->grid[0];
	uint32_t nw = px_block_warps(an->block);
	bool ok = true;
	*split = false;
	*minside = 33;
	*warp_only = false;
	int first_value = -1;
	uint32_t *masks = xmalloc(nw * sizeof *masks);
	for (uint64_t bi = 0; ok && bi < (use_grid ? ngrid : 1); bi++) {
		if (use_grid) {
			uval[4] = (int64_t)(bi % g[0]);
			uval[5] = (int64_t)((bi / g[0]) % g[1]);
			uval[6] = (int64_t)(bi / ((uint64_t)g[0] * g[1]));
			uk[4] = uk[5] = uk[6] = true;
		}
		bool known;
		px_reach_masks(f, ig, true, uval, uk, masks, &known);
		for (uint32_t w = 0; ok && w < nw; w++) {
			uint32_t mask = masks[w];
			uint32_t nl = an->nlanes[w];
			uint32_t taken = 0, active = 0;
			int8_t v[32];
			px_pred_eval_warp(an, guard, w, mask, uval, uk, v, 0);
			for (uint32_t ln = 0; ln < nl; ln++) {
				if (!(mask >> ln & 1))
					continue;
				if (v[ln] < 0) {
					ok = false;
					break;
				}
				active++;
				taken += (uint32_t)v[ln];
			}
			if (!ok || !active)
				continue;
			if (taken && taken < active) {
				*split = true;
				uint32_t side = taken < active - taken ? taken : active - taken;
				if ((int32_t)side < *minside)
					*minside = (int32_t)side;
			} else {
				int v = taken ? 1 : 0;
				if (first_value < 0)
					first_value = v;
				else if (first_value != v)
					*warp_only = true;
			}
		}
	}
	free(uval);
	free(uk);
	free(masks);
	return ok;
}

/* eval_branch, answered again without the work while no level has risen
 * since: it reads nothing else that changes (the levels, through
 * px_reach_masks; the rest is fill_affine's and the launch's). The branch
 * verdicts after the fixpoint ask again for most branches it evaluated. */
static bool eval_branch_memo(struct uctx *c, uint32_t b, int32_t guard, bool *split,
                             int32_t *minside, bool *warp_only)
{
	struct branch_eval *e = &c->ev[b];
	if (e->gen != c->gen + 1) {
		e->ok = eval_branch(c, b, guard, &e->split, &e->minside, &e->warp_only);
		e->gen = c->gen + 1;
	}
	*split = e->split;
	*minside = e->minside;
	*warp_only = e->warp_only;
	return e->ok;
}

/* A comparison a < b (or <=, >, >=) whose uniform part is unknown: D = a - b
 * = T(lane) + c + U, U a sum of unknown uniform terms all multiples of A.
 * The lanes of a warp split only if a threshold of the class -c (mod A)
 * lies strictly inside the warp's range of T (the comparison turns between
 * two lanes). Returns 1 when no warp can split for any value of U, 0 when
 * one may, -1 when the model does not apply. */
/* Does atom id (or a quasi atom's operand) stand for a value that lanes
 * running together may hold differently: the iteration count of a loop
 * that lanes may leave at different iterations, or the uniform part of a
 * register merged after a divergent branch? */
static bool atom_unsure(const struct uctx *c, uint32_t id, int depth)
{
	const struct px_atom *t = &c->an->atoms[id];
	if (t->kind == PX_ATOM_LOOP)
		return c->loop_unsure[t->a];
	if (t->kind == PX_ATOM_JOIN)
		return c->reg_unsure[t->b];
	if (t->kind == PX_ATOM_QUASI && depth < 16)
		for (uint32_t i = 0; i < t->arg.nterms; i++)
			if (atom_unsure(c, t->arg.t[i].atom, depth + 1))
				return true;
	return false;
}

static bool form_unsure(const struct uctx *c, const struct px_aff *a)
{
	for (uint32_t i = 0; a->known && i < a->nterms; i++)
		if (atom_unsure(c, a->t[i].atom, 0))
			return true;
	return false;
}

/* The same for every form predicate p is computed from. */
static bool pred_unsure(const struct uctx *c, int32_t p, int depth)
{
	if (p < 0 || (uint32_t)p >= c->f->nregs || depth > 16)
		return false;
	const struct px_pred *q = px_pred_of(c->an, p);
	switch (q->kind) {
	case PX_PRED_SETP:
		return form_unsure(c, &q->a) || form_unsure(c, &q->b);
	case PX_PRED_NOT:
		return pred_unsure(c, q->p, depth + 1);
	case PX_PRED_AND: case PX_PRED_OR: case PX_PRED_XOR:
		return pred_unsure(c, q->p, depth + 1) || pred_unsure(c, q->q, depth + 1);
	}
	return false;
}

/* Is the thread part of form x one value over the lanes of each warp that
 * reach the branch (masks)? Then x is the same for every lane of a warp
 * whatever its uniform terms are. */
static bool warp_constant(const struct px_func_analysis *an, const struct px_aff *x,
                          const uint32_t *masks)
{
	struct px_aff t = {.known = true};
	for (uint32_t i = 0; i < x->nterms; i++)
		if (an->atoms[x->t[i].atom].thread)
			t.t[t.nterms++] = x->t[i];
	if (!t.nterms)
		return true;
	uint32_t nw = px_block_warps(an->block);
	for (uint32_t w = 0; w < nw; w++) {
		int64_t v[32];
		if (!masks[w])
			continue;
		if (!px_aff_eval_warp(an, &t, w, masks[w], NULL, NULL, v))
			return false;
		int64_t first = 0;
		bool any = false;
		for (uint32_t l = 0; l < 32; l++) {
			if (!(masks[w] >> l & 1))
				continue;
			if (any && v[l] != first)
				return false;
			first = v[l];
			any = true;
		}
	}
	return true;
}

static int never_splits(struct uctx *c, uint32_t b, int32_t guard)
{
	const struct px_func_analysis *an = c->an;
	const struct px_pred *q = px_pred_of(an, guard);
	if (q->kind != PX_PRED_SETP || !q->a.known || !q->b.known)
		return -1;
	{
		/* both sides the same for every lane of a warp: no comparison splits it */
		uint32_t nw = px_block_warps(an->block);
		uint32_t *masks = xmalloc(nw * sizeof *masks);
		bool known;
		px_reach_masks(c->f, c->f->blocks[b].end - 1, true, NULL, NULL, masks, &known);
		bool same = warp_constant(an, &q->a, masks) && warp_constant(an, &q->b, masks);
		free(masks);
		if (same)
			return 1;
	}
	bool le = q->cmp == PX_CMP_LE || q->cmp == PX_CMP_GT || q->cmp == PX_CMP_LS || q->cmp == PX_CMP_HI;
	if (!le && q->cmp != PX_CMP_LT && q->cmp != PX_CMP_GE && q->cmp != PX_CMP_LO && q->cmp != PX_CMP_HS)
		return -1;
	/* D = a - b, split into thread part t and uniform terms */
	struct px_aff t = {.known = true};
	int64_t c0 = q->a.c - q->b.c;
	uint64_t A = 1u << 30;
	for (int side = 0; side < 2; side++) {
		const struct px_aff *x = side ? &q->b : &q->a;
		for (uint32_t i = 0; i < x->nterms; i++) {
			int64_t coef = side ? -x->t[i].coef : x->t[i].coef;
			const struct px_atom *at = &an->atoms[x->t[i].atom];
			if (at->thread) {
				if (t.nterms == PX_AFF_TERMS)
					return -1;
				t.t[t.nterms].atom = x->t[i].atom;
				t.t[t.nterms++].coef = coef;
			} else {
				uint64_t cf = coef < 0 ? 0 - (uint64_t)coef : (uint64_t)coef;
				uint64_t v = (cf & (~cf + 1)) * at->align;
				if (v < A)
					A = v;
			}
		}
	}
	if (A <= 1)
		return 0;
	/* true <=> T < thr, thr = -(c0 + U) (+1 for <=): thr = r (mod A) */
	int64_t r = -c0 + (le ? 1 : 0);
	uint32_t nw = px_block_warps(an->block);
	uint32_t *masks = xmalloc(nw * sizeof *masks);
	bool known;
	px_reach_masks(c->f, c->f->blocks[b].end - 1, true, NULL, NULL, masks, &known);
	int res = 1;
	for (uint32_t w = 0; w < nw && res == 1; w++) {
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		for (uint32_t l = 0; l < an->nlanes[w]; l++) {
			if (!(masks[w] >> l & 1))
				continue;
			struct px_eval_env env = {.tid = {an->tids[w][l][0], an->tids[w][l][1], an->tids[w][l][2]},
			                          .lane = l};
			int64_t v;
			if (!px_aff_eval(an, &t, &env, &v)) {
				res = -1;
				break;
			}
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		if (res != 1 || lo >= hi)
			continue;
		/* the smallest threshold > lo in the class */
		int64_t a = (int64_t)A, first = lo + 1 + ((((r - lo - 1) % a) + a) % a);
		if (first <= hi)
			res = 0;
	}
	free(masks);
	return res;
}

/* Requires: fill_affine, fill_postdom, fill_loops, fill_live. Fills:
 * f->an->uni/why, and f->res->br (one record per conditional branch). */
void fill_uniform(struct px_module *m, struct px_func *f)
{
	struct px_func_analysis *an = f->an;
	struct px_arena *ar = px_func_arena(m, f);
	struct uctx c = {.m = m, .f = f, .an = an};
	c.lvl = an->uni = px_arena_alloc(ar, f->nregs + 1);
	c.why = an->why = px_arena_alloc(ar, (f->nregs + 1) * sizeof *an->why);
	c.why_comp = an->why_comp = px_arena_alloc(ar, f->nregs + 1);
	for (uint32_t r = 0; r < f->nregs; r++)
		c.why[r] = -1;
	c.bstate = xcalloc(f->nblocks + 1, 1);
	c.ev = xcalloc(f->nblocks + 1, sizeof *c.ev);
	c.flc = xcalloc(f->nregs + 1, 1);
	/* read by the branch verdicts below too: body arena, freed with the body */
	c.loop_unsure = px_arena_alloc(ar, (f->nloops + 1) * sizeof *c.loop_unsure);
	c.reg_unsure = px_arena_alloc(ar, (f->nregs + 1) * sizeof *c.reg_unsure);
	uint32_t *stack = xmalloc((f->nblocks + 1) * sizeof *stack);
	uint8_t *seen = xmalloc(f->nblocks + 1);
	uint64_t budget = (uint64_t)MAX_REGION_WORK_FACTOR * (f->ninsns + f->nblocks) + 4096;
	for (int iter = 0; iter < 32; iter++) {
		bool changed = false;
		sweep(&c, &changed);
		for (uint32_t b = 0; b < f->nblocks; b++) {
			int32_t g = guard_of(f, b);
			if (g < 0 || c.bstate[b] == BS_SPLITS || c.lvl[g] != PX_UNI_DIVERGENT ||
			    !f->blocks[b].reachable)
				continue;
			/* a branch proved never to split a warp merges nothing
			 * divergent (only warp-uniform values, when warps differ) */
			uint8_t st = c.bstate[b];
			if (st == BS_NONE) {
				bool split = true, warp_only = true;
				int32_t minside;
				if (px_pred_of(an, g)->kind != PX_PRED_UNKNOWN &&
				    eval_branch_memo(&c, b, g, &split, &minside, &warp_only) && !split)
					st = warp_only ? BS_PROVED_WARP : BS_PROVED;
				else if (never_splits(&c, b, g) == 1)
					st = BS_PROVED_WARP;
				else
					st = BS_SPLITS;
			}
			if (st != BS_SPLITS && pred_unsure(&c, g, 0))
				st = BS_SPLITS;
			if (st == c.bstate[b])
				continue;
			c.bstate[b] = st;
			if (st == BS_PROVED)
				continue;
			uint8_t lv = st == BS_SPLITS ? PX_UNI_DIVERGENT : PX_UNI_WARP;
			if (c.work < budget) {
				region(&c, b, lv, stack, seen, &changed);
			} else {
				/* too much work: every multi-definition register live into the join diverges */
				uint32_t P = f->blocks[b].ipdom;
				for (uint32_t r = 0; P < f->nblocks && r < f->nregs; r++)
					if (an->ndefs[r] > 1 && live_in(f, P, r)) {
						raise_to(&c, (int32_t)r, lv, -1, 0, &changed);
						if (lv == PX_UNI_DIVERGENT && !c.reg_unsure[r])
							c.reg_unsure[r] = changed = true;
					}
				for (uint32_t l = 0; lv == PX_UNI_DIVERGENT && l < f->nloops; l++)
					if (!c.loop_unsure[l])
						c.loop_unsure[l] = changed = true;
			}
		}
		if (!changed)
			break;
	}
	free(stack);
	free(seen);
	free(c.bstate);
	free(c.flc);
	/* what fill_access must not rely on either */
	for (uint32_t i = 0; i < an->natoms; i++)
		an->atoms[i].unsure = atom_unsure(&c, i, 0);

	/* branch verdicts */
	struct px_results *res = results(m, f);
	for (uint32_t ri = 0; ri < f->nrpo; ri++) {
		uint32_t b = f->rpo_order[ri];
		int32_t g = guard_of(f, b);
		if (g < 0)
			continue;
		const struct px_insn *br = &f->insns[f->blocks[b].end - 1];
		struct px_branch_rec *rec = PX_ARENA_PUSH(m->arena, res->br, res->nbr, res->capbr);
		memset(rec, 0, sizeof *rec);
		rec->line = br->line;
		rec->loc_file = br->loc_file;
		rec->loc_line = br->loc_line;
		rec->depth = loop_depth(f, b);
		rec->active_lanes = -1;
		uint8_t lv = c.lvl[g];
		if (lv < PX_UNI_DIVERGENT) {
			rec->divergence = PX_DIV_UNIFORM;
			rec->across = lv;
			rec->reason = lv == PX_UNI_BLOCK ? "block-uniform condition"
			                                 : "warp-uniform condition";
			continue;
		}
		bool split, warp_only;
		int32_t minside;
		if (pred_unsure(&c, g, 0)) {
			rec->divergence = PX_DIV_UNKNOWN;
			rec->reason = px_arena_printf(m->arena, "%s; compares a loop counter or merged value that"
			                              " lanes may reach after different histories (a divergent"
			                              " branch or loop exit before it)", reason(&c, g));
			continue;
		}
		if (px_pred_of(an, g)->kind != PX_PRED_UNKNOWN && eval_branch_memo(&c, b, g, &split, &minside, &warp_only)) {
			if (!split) {
				rec->divergence = PX_DIV_UNIFORM;
				rec->across = warp_only ? PX_UNI_WARP : PX_UNI_BLOCK;
				rec->reason = px_arena_printf(m->arena, "%s; no warp splits (evaluated per lane)",
				                              reason(&c, g));
			} else {
				rec->divergence = PX_DIV_DIVERGENT;
				rec->active_lanes = minside;
				rec->reason = reason(&c, g);
			}
			continue;
		}
		if (never_splits(&c, b, g) == 1) {
			rec->divergence = PX_DIV_UNIFORM;
			rec->across = PX_UNI_WARP;
			rec->reason = px_arena_printf(m->arena, "%s; no warp splits for any value of the unknown"
			                              " uniform terms (each side is one value per warp, or the"
			                              " turning point is a multiple of the warp's span)",
			                              reason(&c, g));
			continue;
		}
		if (px_pred_of(an, g)->kind == PX_PRED_SETP && px_pred_of(an, g)->a.known &&
		    px_pred_of(an, g)->b.known) {
			/* the lanes' values are modelled but need values known only at launch */
			rec->divergence = PX_DIV_UNKNOWN;
			rec->reason = px_arena_printf(m->arena, "%s; whether a warp splits depends on values known"
			                              " only at launch (--param, --grid)", reason(&c, g));
			continue;
		}
		rec->divergence = PX_DIV_DIVERGENT;
		rec->reason = reason(&c, g);
	}
	free(c.ev);
}

void px_dump_uniform(struct px_buf *out, const struct px_module *m, const struct px_func *f)
{
	(void)m;
	static const char *const ln[] = {"block", "warp", "divergent"};
	px_buf_printf(out, "uniform " PX_STR_FMT ":\n", PX_STR_ARG(f->name));
	const struct px_func_analysis *an = f->an;
	if (!an || !an->uni)
		return;
	for (uint32_t r = 0; r < f->nregs; r++)
		if (an->uni[r])
			px_buf_printf(out, "  " PX_STR_FMT " %s\n", PX_STR_ARG(f->regs[r].name), ln[an->uni[r] % 3]);
	static const char *const dn[] = {"uniform", "divergent", "unknown"};
	for (uint32_t i = 0; f->res && i < f->res->nbr; i++) {
		const struct px_branch_rec *b = &f->res->br[i];
		px_buf_printf(out, "  branch line %u: %s", b->line, dn[b->divergence % 3]);
		if (b->divergence == PX_DIV_UNIFORM)
			px_buf_printf(out, " across %s", b->across == PX_UNI_BLOCK ? "block" : "warp");
		if (b->active_lanes >= 0)
			px_buf_printf(out, ", %d active lanes", b->active_lanes);
		px_buf_printf(out, " (%s)\n", b->reason);
	}
}
