/* pass_live.c: fill_live, register liveness, register pressure and the
 * estimate of the register count ptxas reports.
 *
 * Liveness: classic backward dataflow over blocks with bitsets (one bit per
 * register id, 64-bit words), solved with a worklist seeded in post-order:
 *   live_in(b)  = use(b) | (live_out(b) & ~kill(b))
 *   live_out(b) = union of live_in(s) over the successors s
 * use(b) are the registers read before any unguarded write in b; kill(b) the
 * registers written unguarded in b. A guarded (predicated) write does not
 * kill: when the guard is false the register keeps its old value.
 * A second, forward dataflow finds the registers that may have been written
 * on some path to each point ("defined"); a register that is live but never
 * written before (PTX that reads an uninitialised register, or the upward
 * path of a register only ever written under a guard) holds nothing worth a
 * physical register, so live_in/live_out store live & defined.
 *
 * Pressure: each block is walked backward once from live_out. At each
 * instruction the pressure is the larger of the 32-bit units live before it
 * and the units live after it plus its destinations (a dead result still
 * needs a register for a moment). Units per register: ceil(bits / 32) times
 * the vector width, at least 1 (b8/b16 = 1, b64 = 2, b128 = 4, .v4.f32 = 4);
 * predicates are counted apart (max_live_pred).
 *
 * Register estimate (what `ptxas -v` prints as "Used N registers"). ptxas
 * reads kernel parameters straight from the constant bank, folds immediates
 * into instructions and rematerialises cvta/address moves, so registers
 * whose every write is a kernel ld.param, a mov of an immediate or symbol,
 * or a cvta of such a register ("free" registers, find_free) cost only
 * FREE_WEIGHT tenths of their units in a second, weighted pressure. Then
 *   estimate = round(weighted peak) + EST_OVERHEAD, at least EST_MIN;
 *   a function that calls: + EST_CALL_EXTRA, and at least EST_CALL_MIN when
 *   a callee is opaque (extern such as vprintf, indirect, or itself calling:
 *   recursion), as ptxas then assumes the ABI's worst case;
 *   capped by .maxnreg. Caps from .maxntid/.minnctapersm depend on the
 *   register file (an arch fact) and are left to the report.
 * Measured (bench/regs_dev.py, tests/fixtures/ptxas/truth.json: 443 kernels,
 * sm_75..sm_90, CUDA 13.0): median absolute error 15.6%, 43.6% of kernels
 * within +-10% (a plain max_live + 2 gave 20.0% and 27.1%). The goal (10%,
 * 70%) is not reached: ptxas's scheduling (loads hoisted in unrolled code,
 * values gathered before st.local) and local-array promotion are not
 * modelled. Minimum seen: 8 on sm_80..sm_90, 4 on sm_75 (EST_MIN is 8).
 *
 * Cost: O(iterations * blocks * nregs / 64) for the dataflow (a few
 * iterations for structured code) plus one linear walk of the instructions. */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

#define MAXOPS 64  /* register operands looked at per instruction (wider ones are rare) */

/* The register-estimate model (measured: see the opening comment). */
#define FREE_WEIGHT 4      /* tenths of a unit a "free" register costs */
#define EST_OVERHEAD 5     /* registers ptxas uses beyond the weighted peak */
#define EST_MIN 8          /* the smallest count ptxas reported on sm_80..sm_90 */
#define EST_CALL_EXTRA 6   /* a function that calls: ABI argument/return registers */
#define EST_CALL_MIN 24    /* with an opaque callee (printf, recursion): at least this */

uint32_t px_reg_units(const struct px_regdecl *r)
{
	unsigned bits = px_type_bits((enum px_type)r->type);
	if (px_type_kind((enum px_type)r->type) == 'p')
		return 0;
	uint32_t u = (bits + 31) / 32;
	if (u == 0)
		u = 1;
	return u * (r->vec ? r->vec : 1);
}

static inline bool bit_get(const uint64_t *s, uint32_t r)
{
	return (s[r >> 6] >> (r & 63)) & 1;
}
static inline void bit_set(uint64_t *s, uint32_t r)
{
	s[r >> 6] |= (uint64_t)1 << (r & 63);
}
static inline void bit_clr(uint64_t *s, uint32_t r)
{
	s[r >> 6] &= ~((uint64_t)1 << (r & 63));
}

static uint32_t get_ops(const struct px_func *f, const struct px_insn *in, bool defs,
                        int32_t *out)
{
	uint32_t n = defs ? px_insn_defs(in, out, MAXOPS) : px_insn_uses(in, out, MAXOPS);
	if (n > MAXOPS)
		n = MAXOPS;
	/* drop ids the IR should never hold (the verifier reports them) */
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++)
		if (out[i] >= 0 && (uint32_t)out[i] < f->nregs)
			out[k++] = out[i];
	return k;
}

struct live_state {
	uint32_t W;                 /* words per set */
	uint64_t *use, *kill;       /* per block, W words each (malloc) */
	uint64_t *defin, *defout;   /* forward "may be defined" sets */
	uint32_t *units;            /* per register */
	uint32_t *wunits;           /* per register, tenths, weighted for the estimate */
	bool *pred;                 /* per register: a predicate */
};

/* Requires: f->blocks. Fills s->use/kill (backward) and a block's "writes"
 * into defout (all writes, guarded or not). */
static void local_sets(const struct px_func *f, struct live_state *s)
{
	int32_t ops[MAXOPS];
	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct px_block *bl = &f->blocks[b];
		uint64_t *use = s->use + (size_t)b * s->W, *kill = s->kill + (size_t)b * s->W;
		uint64_t *gen = s->defout + (size_t)b * s->W;
		for (uint32_t i = bl->end; i-- > bl->first;) {
			const struct px_insn *in = &f->insns[i];
			uint32_t nd = get_ops(f, in, true, ops);
			for (uint32_t k = 0; k < nd; k++) {
				bit_set(gen, (uint32_t)ops[k]);
				if (in->guard < 0) {
					bit_set(kill, (uint32_t)ops[k]);
					bit_clr(use, (uint32_t)ops[k]);
				}
			}
			uint32_t nu = get_ops(f, in, false, ops);
			for (uint32_t k = 0; k < nu; k++)
				bit_set(use, (uint32_t)ops[k]);
		}
	}
}

/* Requires: local_sets. Fills live_in/live_out (arena) with plain liveness. */
static void solve_live(struct px_module *m, struct px_func *f, struct live_state *s)
{
	uint32_t n = f->nblocks, W = s->W;
	for (uint32_t b = 0; b < n; b++) {
		f->blocks[b].live_in = px_arena_alloc(m->arena, W * sizeof(uint64_t) + 8);
		f->blocks[b].live_out = px_arena_alloc(m->arena, W * sizeof(uint64_t) + 8);
	}
	/* worklist: reachable blocks in post-order first, then the unreachable */
	uint32_t *work = xmalloc((n + 1) * sizeof *work);
	bool *queued = xcalloc(n, sizeof *queued);
	uint32_t head = 0, count = 0;  /* a ring of n + 1 slots */
	for (uint32_t k = f->nrpo; k-- > 0;) {
		work[count++] = f->rpo_order[k];
		queued[f->rpo_order[k]] = true;
	}
	for (uint32_t b = 0; b < n; b++)
		if (!queued[b]) {
			work[count++] = b;
			queued[b] = true;
		}
	uint32_t cap = n + 1;
	while (count) {
		uint32_t b = work[head];
		head = (head + 1) % cap;
		count--;
		queued[b] = false;
		struct px_block *bl = &f->blocks[b];
		uint64_t *out = bl->live_out, *in = bl->live_in;
		const uint64_t *use = s->use + (size_t)b * W, *kill = s->kill + (size_t)b * W;
		for (uint32_t e = 0; e < bl->nsuccs; e++) {
			const uint64_t *si = f->blocks[bl->succs[e]].live_in;
			for (uint32_t w = 0; w < W; w++)
				out[w] |= si[w];
		}
		bool changed = false;
		for (uint32_t w = 0; w < W; w++) {
			uint64_t v = use[w] | (out[w] & ~kill[w]);
			if (v != in[w]) {
				in[w] = v;
				changed = true;
			}
		}
		if (!changed)
			continue;
		for (uint32_t e = 0; e < bl->npreds; e++) {
			uint32_t p = bl->preds[e];
			if (!queued[p]) {
				queued[p] = true;
				work[(head + count) % cap] = p;
				count++;
			}
		}
	}
	free(work);
	free(queued);
}

/* Requires: local_sets (defout holds each block's own writes). Fills
 * defin/defout with "may have been written on some path from the entry". */
static void solve_defined(const struct px_func *f, struct live_state *s)
{
	uint32_t n = f->nblocks, W = s->W;
	uint64_t *gen = xmalloc((size_t)n * W * sizeof *gen);
	memcpy(gen, s->defout, (size_t)n * W * sizeof *gen);
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t k = 0; k < f->nrpo; k++) {
			uint32_t b = f->rpo_order[k];
			const struct px_block *bl = &f->blocks[b];
			uint64_t *in = s->defin + (size_t)b * W, *out = s->defout + (size_t)b * W;
			for (uint32_t e = 0; e < bl->npreds; e++) {
				const uint64_t *po = s->defout + (size_t)bl->preds[e] * W;
				for (uint32_t w = 0; w < W; w++)
					in[w] |= po[w];
			}
			for (uint32_t w = 0; w < W; w++) {
				uint64_t v = gen[(size_t)b * W + w] | in[w];
				if (v != out[w]) {
					out[w] = v;
					changed = true;
				}
			}
		}
	}
	free(gen);
}

struct pressure {
	uint32_t units, preds, wunits;  /* counted now */
	uint32_t max_units, max_preds, max_wunits, at;
};

static void p_add(struct pressure *p, const struct live_state *s, uint64_t *set, uint32_t r)
{
	if (bit_get(set, r))
		return;
	bit_set(set, r);
	if (s->pred[r])
		p->preds++;
	p->units += s->units[r];
	p->wunits += s->wunits[r];
}

static void p_del(struct pressure *p, const struct live_state *s, uint64_t *set, uint32_t r)
{
	if (!bit_get(set, r))
		return;
	bit_clr(set, r);
	if (s->pred[r])
		p->preds--;
	p->units -= s->units[r];
	p->wunits -= s->wunits[r];
}

static void p_note(struct pressure *p, uint32_t units, uint32_t preds, uint32_t wunits,
                   uint32_t insn)
{
	if (wunits > p->max_wunits)
		p->max_wunits = wunits;
	if (units > p->max_units || (units == p->max_units && insn < p->at)) {
		p->max_units = units;
		p->at = insn;
	}
	if (preds > p->max_preds)
		p->max_preds = preds;
}

/* Requires: live_in/live_out (plain liveness), defin. Intersects them with
 * "defined" and walks every block backward once. Fills the pressure. */
static void walk_pressure(const struct px_func *f, const struct live_state *s,
                          struct pressure *p)
{
	uint32_t W = s->W;
	uint64_t *cur = xcalloc(W + 1, sizeof *cur);
	/* first write of each register in the current block, for registers not
	 * in defin: a register is "defined" before insn i iff i > firstw */
	uint32_t *firstw = xmalloc((f->nregs + 1) * sizeof *firstw);
	for (uint32_t r = 0; r < f->nregs; r++)
		firstw[r] = UINT32_MAX;
	int32_t ops[MAXOPS], uops[MAXOPS];
	for (uint32_t b = 0; b < f->nblocks; b++) {
		struct px_block *bl = &f->blocks[b];
		const uint64_t *din = s->defin + (size_t)b * W, *dout = s->defout + (size_t)b * W;
		for (uint32_t w = 0; w < W; w++) {
			bl->live_out[w] &= dout[w];
			bl->live_in[w] &= din[w];
		}
		for (uint32_t i = bl->first; i < bl->end; i++) {
			uint32_t nd = get_ops(f, &f->insns[i], true, ops);
			for (uint32_t k = 0; k < nd; k++)
				if (!bit_get(din, (uint32_t)ops[k]) && firstw[ops[k]] == UINT32_MAX)
					firstw[ops[k]] = i;
		}
		memset(cur, 0, W * sizeof *cur);
		p->units = p->preds = p->wunits = 0;
		for (uint32_t w = 0; w < W; w++) {
			uint64_t x = bl->live_out[w];
			while (x) {
				uint32_t r = w * 64 + (uint32_t)__builtin_ctzll(x);
				x &= x - 1;
				p_add(p, s, cur, r);
			}
		}
		if (bl->end == bl->first)
			p_note(p, p->units, p->preds, p->wunits, bl->first);
		for (uint32_t i = bl->end; i-- > bl->first;) {
			const struct px_insn *in = &f->insns[i];
			uint32_t nd = get_ops(f, in, true, ops);
			uint32_t nu = get_ops(f, in, false, uops);
			/* after the instruction, with its (possibly dead) results */
			uint32_t au = p->units, ap = p->preds, aw = p->wunits;
			for (uint32_t k = 0; k < nd; k++) {
				uint32_t r = (uint32_t)ops[k];
				bool dup = bit_get(cur, r);
				for (uint32_t j = 0; j < k && !dup; j++)
					dup = ops[j] == ops[k];
				if (!dup) {
					ap += s->pred[r];
					au += s->units[r];
					aw += s->wunits[r];
				}
			}
			p_note(p, au, ap, aw, i);
			/* before it: results die unless the write is guarded and the
			 * register had a value before */
			for (uint32_t k = 0; k < nd; k++) {
				uint32_t r = (uint32_t)ops[k];
				bool had = bit_get(din, r) || firstw[r] < i;
				if (in->guard < 0 || !had)
					p_del(p, s, cur, r);
			}
			for (uint32_t k = 0; k < nu; k++) {
				uint32_t r = (uint32_t)uops[k];
				if (bit_get(din, r) || firstw[r] < i)
					p_add(p, s, cur, r);
			}
			p_note(p, p->units, p->preds, p->wunits, i);
		}
		for (uint32_t i = bl->first; i < bl->end; i++) {
			uint32_t nd = get_ops(f, &f->insns[i], true, ops);
			for (uint32_t k = 0; k < nd; k++)
				firstw[ops[k]] = UINT32_MAX;
		}
	}
	free(cur);
	free(firstw);
}

/* Registers ptxas does not keep in a register of their own: every write is
 * a kernel parameter load (ptxas reads the constant bank directly), an
 * immediate or address move, or a cvta of such a value. Fills free[r]. */
static void find_free(const struct px_func *f, bool *free_)
{
	uint8_t *st = xcalloc(f->nregs + 1, 1);  /* 0 unseen, 1 free so far, 2 not free */
	int32_t ops[MAXOPS];
	for (int round = 0; round < 2; round++)  /* cvta chains: two rounds suffice in practice */
		for (uint32_t i = 0; i < f->ninsns; i++) {
			const struct px_insn *in = &f->insns[i];
			uint32_t nd = get_ops(f, in, true, ops);
			if (nd == 0)
				continue;
			bool ok = nd == 1 && in->guard < 0;
			if (ok) {
				const struct px_operand *src = in->nopnds > 1 ? &in->opnds[1] : NULL;
				if (in->op == PX_OP_LD && in->space == PX_SPACE_PARAM)
					ok = f->is_entry;
				else if (in->op == PX_OP_MOV && src)
					ok = src->kind == PX_OPND_IMM || src->kind == PX_OPND_FIMM ||
					     src->kind == PX_OPND_SYM;
				else if (in->op == PX_OP_CVTA && src && src->kind == PX_OPND_REG)
					ok = src->reg >= 0 && (uint32_t)src->reg < f->nregs && st[src->reg] == 1;
				else
					ok = false;
			}
			for (uint32_t k = 0; k < nd; k++) {
				uint32_t r = (uint32_t)ops[k];
				if (round == 0)
					st[r] = ok && st[r] != 2 ? 1 : 2;
				else if (!ok)
					st[r] = 2;
			}
		}
	for (uint32_t r = 0; r < f->nregs; r++)
		free_[r] = st[r] == 1;
	free(st);
}

static bool has_call(const struct px_func *f)
{
	for (uint32_t i = 0; i < f->ninsns; i++)
		if (f->insns[i].op == PX_OP_CALL)
			return true;
	return false;
}

/* The register count ptxas reports ("Used N registers"), from the weighted
 * peak (tenths of units, see the model above). */
static uint32_t estimate(const struct px_module *m, const struct px_func *f, uint32_t wpeak)
{
	uint32_t est = (wpeak + 5) / 10 + EST_OVERHEAD;
	if (est < EST_MIN)
		est = EST_MIN;
	if (f->ncallees || f->has_indirect_call) {
		/* an opaque callee (extern, indirect, or one that calls further:
		 * recursion, printf) makes ptxas assume the ABI's worst case */
		bool opaque = f->has_indirect_call;
		for (uint32_t i = 0; i < f->ncallees && !opaque; i++) {
			const struct px_func *g = &m->funcs[f->callees[i]];
			opaque = !g->has_body || g == f || has_call(g);
		}
		est += EST_CALL_EXTRA;
		if (opaque && est < EST_CALL_MIN)
			est = EST_CALL_MIN;
	}
	if (f->maxnreg && est > f->maxnreg)
		est = f->maxnreg;
	return est;
}

/* Requires: fill_cfg (rpo_order, succs, preds). Fills live_in/live_out of
 * every block, f->max_live, max_live_pred, max_live_insn, reg_estimate. */
void fill_live(struct px_module *m, struct px_func *f)
{
	uint32_t n = f->nblocks;
	f->max_live = f->max_live_pred = 0;
	f->max_live_insn = UINT32_MAX;
	f->reg_estimate = 0;
	if (n == 0)
		return;
	struct live_state s;
	s.W = (f->nregs + 63) / 64;
	size_t words = (size_t)n * s.W + 1;
	s.use = xcalloc(words, sizeof(uint64_t));
	s.kill = xcalloc(words, sizeof(uint64_t));
	s.defin = xcalloc(words, sizeof(uint64_t));
	s.defout = xcalloc(words, sizeof(uint64_t));
	s.units = xmalloc((f->nregs + 1) * sizeof *s.units);
	s.pred = xmalloc((f->nregs + 1) * sizeof *s.pred);
	s.wunits = xmalloc((f->nregs + 1) * sizeof *s.wunits);
	for (uint32_t r = 0; r < f->nregs; r++) {
		s.pred[r] = px_type_kind((enum px_type)f->regs[r].type) == 'p';
		s.units[r] = px_reg_units(&f->regs[r]);
	}
	bool *fr = xcalloc(f->nregs + 1, 1);
	find_free(f, fr);
	for (uint32_t r = 0; r < f->nregs; r++)
		s.wunits[r] = s.units[r] * (fr[r] ? FREE_WEIGHT : 10);
	free(fr);
	local_sets(f, &s);
	solve_live(m, f, &s);
	solve_defined(f, &s);
	struct pressure p = {0, 0, 0, 0, 0, 0, UINT32_MAX};
	walk_pressure(f, &s, &p);
	f->max_live = p.max_units;
	f->max_live_pred = p.max_preds;
	f->max_live_insn = f->ninsns ? p.at : UINT32_MAX;
	f->reg_estimate = estimate(m, f, p.max_wunits);
	free(s.use);
	free(s.kill);
	free(s.defin);
	free(s.defout);
	free(s.units);
	free(s.pred);
	free(s.wunits);
}
