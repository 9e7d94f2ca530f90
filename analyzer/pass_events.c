/* pass_events.c: fill_events, the instructions the lint rules look at,
 * recorded while the body exists so that the rules (rules/) can read them
 * after the body is dropped (analysis.h: struct px_event_rec in px_results).
 *
 * Approach: one walk over the reachable blocks in reverse post-order, each
 * instruction classified by opcode and modifiers, the verdicts taken from the
 * analyses that already ran (never recomputed here):
 *  - a CTA barrier (bar.sync, bar.red, barrier.sync; not bar.arrive, not
 *    bar.warp.sync) whose block, or guard, is controlled by a divergent
 *    condition: the lanes of each warp that reach it (px_reach_masks) decide;
 *    when they cannot be evaluated, the uniformity verdict of the controlling
 *    branches decides ("may");
 *  - shfl and vote written without .sync (removed on sm_70 and later);
 *  - a .sync warp collective whose membermask is a constant: the lanes that
 *    reach it must all be in the mask, and every lane in the mask that
 *    exists must reach it (PTX ISA: "shfl.sync": the behaviour is undefined
 *    when an executing thread is not in membermask, and all non-exited threads
 *    named in it must execute the same instruction);
 *  - integer div/rem whose divisor is neither a constant nor a uniform value
 *    known to be constant, inside a loop;
 *  - f64 arithmetic (the first line and the count);
 *  - a shared load reading what another lane of the same warp stored earlier
 *    in the block (address forms differing by a whole number of lanes, fewer
 *    than 32), with no barrier, bar.warp.sync or fence between: a warp-level
 *    exchange through shared memory with no __syncwarp, undefined since
 *    independent thread scheduling (compute capability 7.0);
 * and, for each shared access with a bank conflict, the row padding that
 * removes it: the access model (px_warp_wavefronts) re-evaluated with
 * every thread coefficient that is a multiple of a candidate row pitch R
 * grown by pad bytes per row, R taken from the access's own coefficients,
 * pad in 4-byte steps up to 32. */
#include <string.h>

#include "analysis.h"

enum { MAX_STORES = 64 };

static struct px_event_rec *push(struct px_module *m, struct px_results *res,
                                 const struct px_insn *in, uint8_t kind)
{
	struct px_event_rec *e = PX_ARENA_PUSH(m->arena, res->ev, res->nev, res->capev);
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->line = in->line;
	e->col = in->col;
	e->loc_file = in->loc_file;
	e->loc_line = in->loc_line;
	e->op = in->op;
	return e;
}

static bool is_cta_barrier(const struct px_insn *in)
{
	if (in->op != PX_OP_BAR && in->op != PX_OP_BARRIER)
		return false;
	if (in->mods & (PX_MOD_WARP | PX_MOD_ARRIVE))
		return false;
	return true;
}

/* A CTA barrier with an explicit thread count other than the block's own
 * (bar.sync a, b / barrier.sync a, b; bar.red's b): only b threads take part
 * (PTX ISA, "Parallel Synchronization and Communication Instructions: bar,
 * barrier"), so partial participation is the point (named barriers between
 * producer and consumer warps, or two sites of one barrier id that the warps
 * reach from either side of a branch). Whether the arrivals add up is the
 * simulation's question (lint's deadlock rule), not this per-site check's. */
static bool const_operand(const struct px_func *f, const struct px_operand *o, int64_t *v);

/* The operand naming a CTA barrier's id: bar.red d, a, b, c names it in a,
 * bar.sync a, b and barrier.sync a, b in the first (PTX ISA, "bar,
 * barrier"). NULL when the instruction has no such operand. */
static const struct px_operand *barrier_id(const struct px_insn *in)
{
	uint32_t k = (in->mods & PX_MOD_RED) ? 1 : 0;
	return k < in->nopnds ? &in->opnds[k] : NULL;
}

static bool partial_count(const struct px_func *f, const struct px_insn *in)
{
	bool red = in->mods & PX_MOD_RED;   /* bar.red d, a, b, c; bar.sync a, b */
	if (in->nopnds < (red ? 4 : 2))
		return false;
	const uint32_t *blk = f->an->block;
	int64_t v;
	return !const_operand(f, &in->opnds[red ? 2 : 1], &v) || v != (int64_t)blk[0] * blk[1] * blk[2];
}

/* Any conditional branch on the dominator chain (or the guard) divergent? */
static bool under_divergent(const struct px_func *f, const struct px_insn *in)
{
	const struct px_func_analysis *an = f->an;
	if (in->guard >= 0 && an->uni[in->guard] == PX_UNI_DIVERGENT)
		return true;
	uint32_t b = in->block;
	for (uint32_t d = f->blocks[b].idom, depth = 0; depth < 64; d = f->blocks[d].idom, depth++) {
		const struct px_block *db = &f->blocks[d];
		/* a branch controls b unless b post-dominates it */
		if (db->end > db->first && d != b) {
			const struct px_insn *br = &f->insns[db->end - 1];
			bool pd = false;
			for (uint32_t x = d; x < f->nblocks; x = f->blocks[x].ipdom) {
				if (x == b) {
					pd = true;
					break;
				}
				if (f->blocks[x].ipdom == x)
					break;
			}
			if (!pd && br->op == PX_OP_BRA && br->guard >= 0 && an->uni[br->guard] == PX_UNI_DIVERGENT)
				return true;
		}
		if (d == db->idom)
			break;
	}
	return false;
}

/* The lanes that exist in warp w. */
static uint32_t exist_mask(const struct px_func_analysis *an, uint32_t w)
{
	uint32_t nl = an->nlanes[w];
	return nl >= 32 ? 0xffffffffu : ((1u << nl) - 1);
}

/* The constant value of operand o, if it is one. */
static bool const_operand(const struct px_func *f, const struct px_operand *o, int64_t *v)
{
	if (o->kind == PX_OPND_IMM) {
		*v = o->imm;
		return true;
	}
	if (o->kind == PX_OPND_REG && o->reg >= 0) {
		const struct px_aff *a = &f->an->form[o->reg];
		if (a->known && a->nterms == 0) {
			*v = a->c;
			return true;
		}
	}
	return false;
}

static void barrier_event(struct px_module *m, struct px_func *f, struct px_results *res,
                          uint32_t i, uint32_t *masks)
{
	const struct px_insn *in = &f->insns[i];
	if (!under_divergent(f, in))
		return;
	const struct px_func_analysis *an = f->an;
	bool known;
	px_reach_masks(f, i, true, NULL, NULL, masks, &known);
	uint32_t nw = px_block_warps(an->block), reach = 0, partial = 0, none = 0;
	/* Sites of the same barrier id reached by disjoint threads are the two
	 * arms of one barrier (`if (c) bar.sync 1; else bar.sync 1;`): their
	 * threads meet. A site some of the same threads also reach comes before
	 * or after this one, and is another barrier. */
	int64_t id, other;
	const struct px_operand *idop = barrier_id(in);
	if (idop && const_operand(f, idop, &id)) {
		uint32_t *mine = xmalloc(2 * (nw + 1) * sizeof *mine), *more = mine + nw + 1;
		memcpy(mine, masks, nw * sizeof *mine);
		for (uint32_t j = 0; j < f->ninsns; j++) {
			const struct px_insn *o = &f->insns[j];
			const struct px_operand *oid = barrier_id(o);
			if (j == i || !is_cta_barrier(o) || partial_count(f, o) || !oid ||
			    !const_operand(f, oid, &other) || other != id)
				continue;
			bool k2, disjoint = true;
			px_reach_masks(f, j, true, NULL, NULL, more, &k2);
			for (uint32_t w = 0; w < nw; w++)
				disjoint = disjoint && !(mine[w] & more[w]);
			if (!disjoint || !k2)
				continue;
			for (uint32_t w = 0; w < nw; w++)
				masks[w] |= more[w];
		}
		free(mine);
	}
	int32_t wpart = -1;
	for (uint32_t w = 0; w < nw; w++) {
		uint32_t full = exist_mask(an, w);
		if (masks[w] == full)
			reach++;
		else if (masks[w] == 0)
			none++;
		else if (partial++ == 0)
			wpart = (int32_t)w;
	}
	if (known && !partial && (!reach || !none))
		return;   /* every thread or no thread reaches it */
	struct px_event_rec *e = push(m, res, in, PX_EV_DIVERGENT_BARRIER);
	e->certain = known;
	if (partial) {
		e->lanes = (uint32_t)__builtin_popcount(masks[wpart]);
		e->detail = px_arena_printf(m->arena, "only %u of the %u threads of warp %d reach it%s",
		                            e->lanes, an->nlanes[wpart], wpart,
		                            known ? "" : " (assuming the unknown conditions hold)");
	} else if (known) {
		e->detail = px_arena_printf(m->arena, "%u of the %u warps of the block reach it", reach, nw);
	} else {
		e->detail = "it is reached under a condition that varies by thread";
	}
}

static void mask_event(struct px_module *m, struct px_func *f, struct px_results *res,
                       uint32_t i, uint32_t *masks)
{
	const struct px_insn *in = &f->insns[i];
	/* the membermask is the last operand */
	if (!in->nopnds)
		return;
	int64_t v;
	if (!const_operand(f, &in->opnds[in->nopnds - 1], &v))
		return;
	uint32_t mask = (uint32_t)v;
	const struct px_func_analysis *an = f->an;
	bool known;
	px_reach_masks(f, i, true, NULL, NULL, masks, &known);
	uint32_t nw = px_block_warps(an->block);
	for (uint32_t w = 0; w < nw; w++) {
		uint32_t active = masks[w];
		uint32_t missing = active & ~mask;          /* execute it, not in the mask */
		uint32_t absent = known && active ? (mask & exist_mask(an, w) & ~active) : 0;  /* named, never arrive */
		if (!missing && !absent)
			continue;
		struct px_event_rec *e = push(m, res, in, PX_EV_SHUFFLE_MASK);
		e->mask = mask;
		e->lanes = active;
		e->certain = known;
		if (missing)
			e->detail = px_arena_printf(m->arena, "membermask 0x%08x leaves out lane %d of warp %u, "
			                            "which executes it (active lanes 0x%08x)",
			                            mask, __builtin_ctz(missing), w, active);
		else
			e->detail = px_arena_printf(m->arena, "membermask 0x%08x names lane %d of warp %u, "
			                            "which never executes it (active lanes 0x%08x): the "
			                            "others wait for it", mask, __builtin_ctz(absent), w, active);
		return;
	}
}

static bool is_f64_arith(const struct px_insn *in)
{
	switch (in->op) {
	case PX_OP_LD: case PX_OP_ST: case PX_OP_MOV: case PX_OP_CVT: case PX_OP_LDU:
	case PX_OP_ATOM: case PX_OP_RED: case PX_OP_SHFL: case PX_OP_SELP: case PX_OP_SETP:
		return false;
	default:
		break;
	}
	for (uint32_t t = 0; t < in->ntypes; t++)
		if (in->types[t] == PX_TYPE_F64)
			return true;
	return false;
}

struct store {
	struct px_aff a;     /* address form, offset folded in */
	uint32_t line;
};

/* The address form of an access's [reg+off] operand. */
static bool addr_form(const struct px_func *f, const struct px_insn *in, struct px_aff *out)
{
	for (uint32_t k = 0; k < in->nopnds; k++) {
		const struct px_operand *o = &in->opnds[k];
		if (o->kind != PX_OPND_ADDR)
			continue;
		if (o->reg < 0)
			return false;
		*out = f->an->form[o->reg];
		out->c += o->imm;
		return out->known;
	}
	return false;
}

/* d = a - b when both have the same terms; false otherwise. */
static bool aff_diff_const(const struct px_aff *a, const struct px_aff *b, int64_t *d)
{
	if (a->nterms != b->nterms)
		return false;
	for (uint32_t i = 0; i < a->nterms; i++) {
		bool found = false;
		for (uint32_t j = 0; j < b->nterms && !found; j++)
			found = a->t[i].atom == b->t[j].atom && a->t[i].coef == b->t[j].coef;
		if (!found)
			return false;
	}
	*d = a->c - b->c;
	return true;
}

/* The per-lane step of form a along %tid.x or %laneid, 0 if none. */
static int64_t lane_coef(const struct px_func_analysis *an, const struct px_aff *a)
{
	for (uint32_t i = 0; i < a->nterms; i++) {
		const struct px_atom *at = &an->atoms[a->t[i].atom];
		if ((at->kind == PX_ATOM_TID && at->a == 0) || at->kind == PX_ATOM_LANEID)
			return a->t[i].coef;
	}
	return 0;
}

static bool is_shared_access(const struct px_func *f, const struct px_insn *in)
{
	uint8_t sp = in->space;
	if (sp == PX_SPACE_SHARED || sp == PX_SPACE_SHARED_CTA)
		return true;
	if (sp != PX_SPACE_NONE && sp != PX_SPACE_GENERIC)
		return false;
	for (uint32_t k = 0; k < in->nopnds; k++)
		if (in->opnds[k].kind == PX_OPND_ADDR && in->opnds[k].reg >= 0)
			return f->an->prov[in->opnds[k].reg] == PX_PROV_SHARED;
	return false;
}

/* Warp exchange through shared memory without a sync, within block b. */
static void exchange_events(struct px_module *m, struct px_func *f, struct px_results *res,
                            const struct px_block *bb)
{
	struct store st[MAX_STORES];
	uint32_t nst = 0;
	const struct px_func_analysis *an = f->an;
	for (uint32_t i = bb->first; i < bb->end; i++) {
		const struct px_insn *in = &f->insns[i];
		if ((px_opcode_flags(in->op) & (PX_OPF_BARRIER | PX_OPF_WARP)) || in->op == PX_OP_MEMBAR ||
		    in->op == PX_OP_FENCE || (in->op != PX_OP_LD && in->op != PX_OP_ST &&
		                              (px_opcode_flags(in->op) & (PX_OPF_CALL | PX_OPF_ATOMIC)))) {
			nst = 0;
			continue;
		}
		if ((in->op != PX_OP_LD && in->op != PX_OP_ST) || !is_shared_access(f, in))
			continue;
		if (in->mods & PX_MOD_VOLATILE)
			continue;   /* volatile: the programmer's explicit (legacy) intent */
		struct px_aff a;
		if (!addr_form(f, in, &a) || !px_aff_has_thread(an, &a))
			continue;
		if (in->op == PX_OP_ST) {
			if (nst < MAX_STORES)
				st[nst++] = (struct store){a, in->line};
			continue;
		}
		int64_t c = lane_coef(an, &a);
		for (uint32_t s = 0; s < nst && c; s++) {
			int64_t d;
			if (!aff_diff_const(&a, &st[s].a, &d) || d == 0 || d % c != 0)
				continue;
			int64_t lanes = d / c;
			if (lanes <= -32 || lanes >= 32)
				continue;
			struct px_event_rec *e = push(m, res, in, PX_EV_WARP_EXCHANGE);
			e->lanes = (uint32_t)(lanes < 0 ? -lanes : lanes);
			e->certain = true;
			e->detail = px_arena_printf(m->arena, "each thread reads what the thread %u lane%s %s "
			                            "stored (line %u) with no __syncwarp() in between",
			                            e->lanes, e->lanes == 1 ? "" : "s",
			                            lanes > 0 ? "above" : "below", st[s].line);
			break;
		}
	}
}

/* For a conflicted shared access at instruction i: the row padding that
 * makes it conflict-free (record fields pad_bytes, padded_ways). */
static void padding(struct px_func *f, uint32_t i, struct px_access_rec *r, uint32_t *masks)
{
	const struct px_func_analysis *an = f->an;
	const struct px_insn *in = &f->insns[i];
	struct px_aff a;
	if (!addr_form(f, in, &a) || r->bytes == 0 || r->bytes > 16)
		return;
	bool known;
	px_reach_masks(f, i, true, NULL, NULL, masks, &known);
	uint32_t nw = px_block_warps(an->block);
	double best = r->wavefronts / r->ideal_wavefronts;
	for (uint32_t k = 0; k < a.nterms; k++) {
		if (a.t[k].coef == INT64_MIN)   /* (no row stride; and -coef would overflow) */
			continue;
		int64_t R = a.t[k].coef < 0 ? -a.t[k].coef : a.t[k].coef;
		if (!an->atoms[a.t[k].atom].thread || R < 32 || R % 4)
			continue;
		for (int64_t pad = 4; pad <= 32; pad += 4) {
			struct px_aff p = a;
			for (uint32_t j = 0; j < p.nterms; j++)
				if (an->atoms[p.t[j].atom].thread && p.t[j].coef % R == 0)
					p.t[j].coef += p.t[j].coef / R * pad;
			double wf = 0, ideal = 0;
			bool ok = true;
			for (uint32_t w = 0; w < nw && ok; w++) {
				int64_t addr[32] = {0};
				for (uint32_t l = 0; l < 32 && ok; l++) {
					if (!(masks[w] >> l & 1))
						continue;
					struct px_eval_env env = {.tid = {an->tids[w][l][0], an->tids[w][l][1],
					                                  an->tids[w][l][2]}, .lane = l};
					struct px_aff t = {.known = true};
					for (uint32_t j = 0; j < p.nterms; j++)
						if (an->atoms[p.t[j].atom].thread)
							t.t[t.nterms++] = p.t[j];
					ok = px_aff_eval(an, &t, &env, &addr[l]);
				}
				uint32_t x, y;
				px_warp_wavefronts(addr, masks[w], r->bytes, &x, &y);
				wf += x;
				ideal += y;
			}
			if (!ok || ideal == 0)
				break;
			if (wf / ideal < best) {
				best = wf / ideal;
				r->pad_bytes = (uint32_t)pad;
				r->pad_row_bytes = (uint32_t)R;
				r->padded_ways = best;
			}
			if (best <= 1)
				return;
		}
	}
}

/* Requires: fill_uniform, fill_access (f->res->acc), fill_loops.
 * Fills: f->res->ev (events in block RPO, instruction order), f->res->nfp64,
 * and pad_bytes/padded_ways of conflicted shared accesses. */
void fill_events(struct px_module *m, struct px_func *f)
{
	if (!f->res)
		f->res = px_arena_alloc(m->arena, sizeof *f->res);
	struct px_results *res = f->res;
	const struct px_func_analysis *an = f->an;
	uint32_t nw = px_block_warps(an->block);
	uint32_t *masks = xmalloc((nw + 1) * sizeof *masks);
	for (uint32_t ri = 0; ri < f->nrpo; ri++) {
		const struct px_block *bb = &f->blocks[f->rpo_order[ri]];
		exchange_events(m, f, res, bb);
		for (uint32_t i = bb->first; i < bb->end; i++) {
			const struct px_insn *in = &f->insns[i];
			unsigned fl = px_opcode_flags(in->op);
			if (is_cta_barrier(in) && !partial_count(f, in))
				barrier_event(m, f, res, i, masks);
			if ((in->op == PX_OP_SHFL || in->op == PX_OP_VOTE) && !(in->mods & PX_MOD_SYNC))
				push(m, res, in, PX_EV_LEGACY_WARP)->certain = true;
			else if ((fl & PX_OPF_WARP) && (in->mods & PX_MOD_SYNC))
				mask_event(m, f, res, i, masks);
			else if (in->op == PX_OP_BAR && (in->mods & PX_MOD_WARP))
				mask_event(m, f, res, i, masks);
			if ((in->op == PX_OP_DIV || in->op == PX_OP_REM) && bb->loop >= 0 && in->ntypes &&
			    (px_type_kind(in->types[0]) == 'u' || px_type_kind(in->types[0]) == 's') &&
			    in->nopnds >= 3) {
				int64_t v;
				if (!const_operand(f, &in->opnds[2], &v)) {
					struct px_event_rec *e = push(m, res, in, PX_EV_INT_DIV_LOOP);
					e->certain = true;
					e->lanes = f->loops[bb->loop].depth;
				}
			}
			if (is_f64_arith(in)) {
				if (!res->nfp64++) {
					res->fp64_line = in->line;
					res->fp64_col = in->col;
				}
			}
		}
	}
	/* padding for conflicted shared accesses: the records are in the same
	 * order as their instructions were visited (fill_access) */
	for (uint32_t k = 0; k < res->nacc; k++) {
		struct px_access_rec *r = &res->acc[k];
		if (r->space != PX_SPACE_SHARED || r->ideal_wavefronts <= 0 ||
		    r->wavefronts <= r->ideal_wavefronts || r->insn >= f->ninsns)
			continue;
		padding(f, r->insn, r, masks);
	}
	free(masks);
}

void px_dump_events(struct px_buf *out, const struct px_module *m, const struct px_func *f)
{
	(void)m;
	static const char *const names[] = {"divergent-barrier", "legacy-warp", "shuffle-mask",
	                                    "int-div-in-loop", "warp-exchange"};
	px_buf_printf(out, "events " PX_STR_FMT ":\n", PX_STR_ARG(f->name));
	for (uint32_t i = 0; f->res && i < f->res->nev; i++) {
		const struct px_event_rec *e = &f->res->ev[i];
		px_buf_printf(out, "  line %u: %s %s%s%s\n", e->line, names[e->kind], px_opcode_name(e->op),
		              e->detail ? ": " : "", e->detail ? e->detail : "");
	}
	if (f->res && f->res->nfp64)
		px_buf_printf(out, "  fp64: %u instructions, first at line %u\n", f->res->nfp64,
		              f->res->fp64_line);
	for (uint32_t i = 0; f->res && i < f->res->nacc; i++)
		if (f->res->acc[i].pad_bytes)
			px_buf_printf(out, "  line %u: padding rows of %u bytes by %u gives %g-way\n",
			              f->res->acc[i].line, f->res->acc[i].pad_row_bytes,
			              f->res->acc[i].pad_bytes, f->res->acc[i].padded_ways);
}
