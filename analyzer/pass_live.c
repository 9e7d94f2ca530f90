/* pass_live.c: fill_live, register liveness, register pressure and the
 * estimate of the register count ptxas reports.
 *
 * Liveness: classic backward dataflow over blocks with bitsets (64-bit
 * words; one bit per "global" register, one that some block reads before
 * writing it, since no other register is ever live at a block boundary;
 * the blocks' live sets keep that numbering: px_func's live_bit/live_reg,
 * px_live_has), solved with a worklist seeded in post-order:
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
 * Register estimate (what `ptxas -v` prints as "Used N registers"), a
 * second, weighted pressure in tenths of units:
 *  - "free" registers (every write a kernel ld.param, a mov of an immediate,
 *    a symbol, %ntid or %nctaid, or a cvta of such) cost FREE_WEIGHT tenths:
 *    ptxas reads the constant bank (c[0x0][0x0] for %ntid.x in the SASS)
 *    and folds immediates;
 *  - value classes (find_classes): copies, cvta.to, base + immediate and
 *    base + immediate + i share one physical register (ptxas folds the
 *    offsets into addresses), so a class is counted once while any member
 *    is live;
 *  - load hoisting (find_hoists): a load's result is also live up to
 *    HOIST_WIN instructions above it, bounded by the writes of its operands
 *    and by stores (not for ld.global.nc, which ptxas moves past stores: a
 *    test kernel of 16 load-add-store triples takes 16 registers with plain
 *    loads and 28 with .nc), atomics, barriers and calls in its block;
 *  - store data (find_store_holds): a value that dies at a store stays
 *    live STORE_HOLD more instructions (the SASS of consecutive stores
 *    rotates their data registers instead of reusing one).
 *   estimate = round(weighted peak * EST_SCALE%) + EST_OVERHEAD, at least
 *   EST_MIN; EST_MIN_EMPTY when at most one 32-bit unit is ever live;
 *   a function that calls: + EST_CALL_OWN, at least a known callee's
 *   estimate + EST_CALL_EXTRA (callees placed before it in the module, as
 *   nvcc emits them), at least EST_CALL_MIN when a callee is opaque (extern,
 *   indirect, recursive or calling further);
 *   capped by the launch bounds (64K registers / (.maxntid or .reqntid
 *   rounded to warps * .minnctapersm), in steps of 8), .maxnreg and 255.
 * The constants were fitted by grid search on tests/fixtures/ptxas/truth.json
 * (458 kernels) only; the CCCL set (bench/cccl, 533 kernels) is held out.
 * Measured with bench/regs.py (ptxas 13.0): corpus median 10.0%, 52.0%
 * within +-10% (50.2% before the store holds, %ntid/%nctaid as free and the
 * callee test that survives dropped bodies); CCCL median 11.1%, 47.3%
 * (unchanged by those; before value classes: 16.7%/42.1%
 * and 16.1%/42.2%). The goal (10%, 70%) is not reached: ptxas's scheduling
 * beyond single-load hoisting (a load moved up with its address chain, as
 * in unrolled grid-stride loops; computations gathered before stores), its
 * allocator's non-compact register numbering, the ABI registers of calls
 * and per-target code generation are not modelled. On sm_90 the SASS of
 * the same PTX loads 64-bit kernel parameters into registers (LDC.64
 * rather than c[..] operands) and builds shared-memory addresses from
 * SR_CgaCtaId (MOV 0x400; S2R; LEA), which is why sm_90 counts run higher;
 * that belongs in the arch table once the passes receive one.
 *
 * Cost: O(iterations * blocks * global registers / 64) for the dataflow (a
 * few iterations for structured code) plus a few linear walks of the
 * instructions; nothing per block is proportional to all the registers. */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

#define MAXOPS 64  /* register operands looked at per instruction (wider ones are rare) */

/* The register-estimate model (measured: see the opening comment). Each may
 * be overridden with -D for calibration runs (bench/regs_dev.py CFLAGS=...). */
#ifndef FREE_WEIGHT
#define FREE_WEIGHT 4      /* tenths of a unit a "free" register costs */
#endif
#ifndef EST_SCALE
#define EST_SCALE 100      /* percent: the weighted peak's scale */
#endif
#ifndef EST_OVERHEAD
#define EST_OVERHEAD 5     /* registers ptxas uses beyond the weighted peak */
#endif
#ifndef EST_MIN
#define EST_MIN 8          /* the smallest count ptxas reported on sm_80..sm_90 */
#endif
#ifndef EST_MIN_EMPTY
#define EST_MIN_EMPTY 4    /* a function with nothing live at all */
#endif
#ifndef EST_CALL_OWN
#define EST_CALL_OWN 6     /* a function that calls: ABI argument/return registers */
#endif
#ifndef EST_CALL_EXTRA
#define EST_CALL_EXTRA 5   /* a callee's estimate plus this bounds its caller's */
#endif
#ifndef HOIST_WIN
#define HOIST_WIN 16       /* instructions a load may move up (0: no hoisting) */
#endif
#ifndef FREE_SREG
#define FREE_SREG 1
#endif
#ifndef NC_PAST_STORES
#define NC_PAST_STORES 1
#endif
#ifndef STORE_HOLD
#define STORE_HOLD 2
#endif
#ifndef EST_CALL_MIN
#define EST_CALL_MIN 24    /* with an opaque callee (printf, recursion): at least this */
#endif

/* Targets sm_75..sm_90 all have 64K 32-bit registers per SM, allocated per
 * warp in steps of 256 (8 per thread), at most 255 per thread (CUDA C++
 * Programming Guide, "Technical Specifications per Compute Capability"). To
 * move to the arch table when the passes receive one. */
#define REGFILE_PER_SM 65536u
#define REG_GRANULE 8u
#define REG_MAX 255u

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

/* The most registers ptxas may give f: .maxnreg, 255, and the launch
 * bounds: .maxntid (or .reqntid, rounded up to whole warps) times
 * .minnctapersm blocks must fit the register file, in steps of REG_GRANULE
 * per thread. */
uint32_t px_reg_cap(const struct px_func *f)
{
	uint32_t cap = REG_MAX;
	if (f->maxnreg && f->maxnreg < cap)
		cap = f->maxnreg;
	const uint32_t *nt = f->reqntid[0] ? f->reqntid : f->maxntid;
	if (nt[0]) {
		uint64_t threads = (uint64_t)nt[0] * (nt[1] ? nt[1] : 1) * (nt[2] ? nt[2] : 1);
		threads = (threads + 31) / 32 * 32 * (f->minnctapersm ? f->minnctapersm : 1);
		uint64_t c = REGFILE_PER_SM / threads / REG_GRANULE * REG_GRANULE;
		if (c >= REG_GRANULE && c < cap)
			cap = (uint32_t)c;
	}
	return cap;
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

/* Each instruction's register defs and uses as the passes below read them:
 * at most MAXOPS of each, ids outside 0..nregs-1 dropped (the verifier
 * reports them). Normally fill_operands' own table (no copy); a filtered
 * copy only when some instruction needs capping or filtering. */
struct ops_table {
	const uint32_t *start;      /* insn i: defs at regs[start[i] ..], ndefs[i] of them, */
	const uint16_t *ndefs;      /* then its uses up to regs[start[i + 1]] */
	const int32_t *regs;
	uint32_t *own_start;        /* the filtered copy (malloc), or NULL */
	uint16_t *own_ndefs;
	int32_t *own_regs;
};

static void ops_init(const struct px_func *f, struct ops_table *t)
{
	memset(t, 0, sizeof *t);
	bool clean = true;
	for (uint32_t i = 0; i < f->ninsns && clean; i++) {
		uint32_t a = f->op_start[i], e = f->op_start[i + 1], nd = f->op_ndefs[i];
		clean = nd <= MAXOPS && e - a - nd <= MAXOPS;
		for (uint32_t k = a; k < e && clean; k++)
			clean = f->op_regs[k] >= 0 && (uint32_t)f->op_regs[k] < f->nregs;
	}
	if (clean) {
		t->start = f->op_start;
		t->ndefs = f->op_ndefs;
		t->regs = f->op_regs;
		return;
	}
	t->own_start = xmalloc((f->ninsns + 1) * sizeof *t->own_start);
	t->own_ndefs = xmalloc((f->ninsns + 1) * sizeof *t->own_ndefs);
	t->own_regs = xmalloc((f->op_start[f->ninsns] + 1) * sizeof *t->own_regs);
	uint32_t total = 0;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		t->own_start[i] = total;
		for (int defs = 1; defs >= 0; defs--) {
			uint32_t n;
			const int32_t *ops = defs ? px_func_defs(f, i, &n) : px_func_uses(f, i, &n);
			if (n > MAXOPS)
				n = MAXOPS;
			uint32_t k0 = total;
			for (uint32_t k = 0; k < n; k++)
				if (ops[k] >= 0 && (uint32_t)ops[k] < f->nregs)
					t->own_regs[total++] = ops[k];
			if (defs)
				t->own_ndefs[i] = (uint16_t)(total - k0);
		}
	}
	t->own_start[f->ninsns] = total;
	t->start = t->own_start;
	t->ndefs = t->own_ndefs;
	t->regs = t->own_regs;
}

static void ops_free(struct ops_table *t)
{
	free(t->own_start);
	free(t->own_ndefs);
	free(t->own_regs);
}

/* Insn i's register defs (*n of them). */
static inline const int32_t *defs_of(const struct ops_table *t, uint32_t i, uint32_t *n)
{
	*n = t->ndefs[i];
	return t->regs + t->start[i];
}

/* Insn i's register uses (*n of them). */
static inline const int32_t *uses_of(const struct ops_table *t, uint32_t i, uint32_t *n)
{
	*n = t->start[i + 1] - t->start[i] - t->ndefs[i];
	return t->regs + t->start[i] + t->ndefs[i];
}

/* The dataflow runs over the "global" registers only: those some block
 * reads before any unguarded write of its own (upward-exposed uses). Every
 * live set is a union of such uses, so no other register is ever live at a
 * block boundary; nor does whether one was defined on entry change the
 * walk (walk_pressure), so the forward sets skip them too. On the CCCL
 * corpus this is a small part of the registers, and the sets shrink with it. */
struct live_state {
	struct ops_table ops;
	uint32_t G, WG;             /* global registers, words per compact set */
	int32_t *gidx;              /* per register: its bit in the compact sets, or -1
	                             * (f->live_bit) */
	uint32_t *glist;            /* per compact bit: the register, ascending (f->live_reg) */
	uint32_t *mark;             /* per register: == an epoch of the walk when in its set */
	uint32_t *cepoch;           /* per class: the walk's epoch its ccount belongs to */
	uint64_t *use, *kill;       /* per block, WG words each (malloc) */
	uint64_t *livein, *liveout; /* plain liveness, per block, compact */
	uint64_t *defin, *defout;   /* forward "may be defined" sets, compact */
	uint32_t *units;            /* per register */
	uint32_t *wunits;           /* per class (indexed by its register id), tenths,
	                             * weighted for the estimate */
	uint32_t *cls;              /* per register: its value class (find_classes) */
	uint32_t *ccount;           /* per class: members live now (during the walk, valid
	                             * when cepoch is the current epoch) */
	bool *pred;                 /* per register: a predicate */
};

/* Requires: f->blocks, s->ops. Fills s->gidx, glist, G, WG. */
static void find_globals(const struct px_func *f, struct live_state *s)
{
	uint32_t *killed = xmalloc((f->nregs + 1) * sizeof *killed);  /* block of the last unguarded write */
	for (uint32_t r = 0; r < f->nregs; r++) {
		killed[r] = UINT32_MAX;
		s->gidx[r] = -1;
	}
	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct px_block *bl = &f->blocks[b];
		for (uint32_t i = bl->first; i < bl->end; i++) {
			uint32_t nu, nd;
			const int32_t *u = uses_of(&s->ops, i, &nu), *d = defs_of(&s->ops, i, &nd);
			for (uint32_t k = 0; k < nu; k++)
				if (killed[u[k]] != b)
					s->gidx[u[k]] = 0;
			if (f->insns[i].guard < 0)
				for (uint32_t k = 0; k < nd; k++)
					killed[d[k]] = b;
		}
	}
	free(killed);
	s->G = 0;
	for (uint32_t r = 0; r < f->nregs; r++)
		if (s->gidx[r] == 0) {
			s->gidx[r] = (int32_t)s->G;
			s->glist[s->G++] = r;
		}
	s->WG = (s->G + 63) / 64;
}

/* Requires: find_globals. Fills s->use/kill (backward) and a block's
 * "writes" into defout (all writes, guarded or not), compact. */
static void local_sets(const struct px_func *f, struct live_state *s)
{
	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct px_block *bl = &f->blocks[b];
		uint64_t *use = s->use + (size_t)b * s->WG, *kill = s->kill + (size_t)b * s->WG;
		uint64_t *gen = s->defout + (size_t)b * s->WG;
		for (uint32_t i = bl->end; i-- > bl->first;) {
			const struct px_insn *in = &f->insns[i];
			uint32_t nd, nu;
			const int32_t *ops = defs_of(&s->ops, i, &nd);
			for (uint32_t k = 0; k < nd; k++) {
				int32_t g = s->gidx[ops[k]];
				if (g < 0)
					continue;
				bit_set(gen, (uint32_t)g);
				if (in->guard < 0) {
					bit_set(kill, (uint32_t)g);
					bit_clr(use, (uint32_t)g);
				}
			}
			ops = uses_of(&s->ops, i, &nu);
			for (uint32_t k = 0; k < nu; k++)
				if (s->gidx[ops[k]] >= 0)
					bit_set(use, (uint32_t)s->gidx[ops[k]]);
		}
	}
}

/* Requires: local_sets. Fills s->livein/liveout with plain liveness. */
static void solve_live(const struct px_func *f, struct live_state *s)
{
	uint32_t n = f->nblocks, W = s->WG;
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
		const struct px_block *bl = &f->blocks[b];
		uint64_t *out = s->liveout + (size_t)b * W, *in = s->livein + (size_t)b * W;
		const uint64_t *use = s->use + (size_t)b * W, *kill = s->kill + (size_t)b * W;
		for (uint32_t e = 0; e < bl->nsuccs; e++) {
			const uint64_t *si = s->livein + (size_t)bl->succs[e] * W;
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
 * defin/defout with "may have been written on some path from the entry"
 * (compact: the global registers). */
static void solve_defined(const struct px_func *f, struct live_state *s)
{
	uint32_t n = f->nblocks, W = s->WG;
	uint64_t *gen = xmalloc(((size_t)n * W + 1) * sizeof *gen);
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

/* Was r (maybe) written on some path to the start of the block whose
 * compact defin set is din? Only a global register can be; for the others
 * the walk's answer does not depend on it (see walk_pressure). */
static inline bool defined_in(const struct live_state *s, const uint64_t *din, uint32_t r)
{
	return s->gidx[r] >= 0 && bit_get(din, (uint32_t)s->gidx[r]);
}

struct pressure {
	uint32_t units, preds, wunits;  /* counted now */
	uint32_t max_units, max_preds, max_wunits, at;
	uint32_t epoch;                 /* the current block's live set: mark[r] == epoch */
};

/* Members of class c live now. */
static inline uint32_t class_count(const struct live_state *s, const struct pressure *p, uint32_t c)
{
	return s->cepoch[c] == p->epoch ? s->ccount[c] : 0;
}

static void p_add(struct pressure *p, const struct live_state *s, uint32_t r)
{
	if (s->mark[r] == p->epoch)
		return;
	s->mark[r] = p->epoch;
	if (s->pred[r])
		p->preds++;
	p->units += s->units[r];
	uint32_t c = s->cls[r];
	if (s->cepoch[c] != p->epoch) {
		s->cepoch[c] = p->epoch;
		s->ccount[c] = 0;
	}
	if (s->ccount[c]++ == 0)
		p->wunits += s->wunits[c];
}

static void p_del(struct pressure *p, const struct live_state *s, uint32_t r)
{
	if (s->mark[r] != p->epoch)
		return;
	s->mark[r] = 0;
	if (s->pred[r])
		p->preds--;
	p->units -= s->units[r];
	if (--s->ccount[s->cls[r]] == 0)   /* added in this epoch: its count is current */
		p->wunits -= s->wunits[s->cls[r]];
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

/* Load hoisting: ptxas's scheduler issues a load early, to hide its latency,
 * up to HOIST_WIN instructions before it, but not above a write of one of
 * its operands, a store, an atomic, a barrier or a call in its block. The
 * loaded value is then live over [e, i) as well: fills hadd[i - 1] and
 * hsub[e] with the class weight of its result, for the backward walk
 * (running += hadd[j] before instruction j is noted, -= hsub[j] after). */
static void find_hoists(const struct px_func *f, const struct live_state *s,
                        const struct px_block *bl, uint32_t *lastdef,
                        uint32_t *hadd, uint32_t *hsub)
{
	uint32_t fence = bl->first;  /* no load moves above this instruction */
	uint32_t ncfence = bl->first;  /* nor a .nc load above this one */
	for (uint32_t i = bl->first; i < bl->end; i++) {
		const struct px_insn *in = &f->insns[i];
		unsigned fl = px_opcode_flags((enum px_opcode)in->op);
		uint32_t nd;
		const int32_t *ops = defs_of(&s->ops, i, &nd);
		if (HOIST_WIN > 0 && (fl & PX_OPF_LOAD) && !(fl & (PX_OPF_STORE | PX_OPF_ATOMIC)) &&
		    in->space != PX_SPACE_PARAM && nd == 1) {
			/* a read-only (.nc) load is not ordered against stores */
			uint32_t e = (NC_PAST_STORES && (in->mods & PX_MOD_NC)) ? ncfence : fence;
			if (i > bl->first + HOIST_WIN && i - HOIST_WIN > e)
				e = i - HOIST_WIN;
			uint32_t nu;
			const int32_t *uops = uses_of(&s->ops, i, &nu);
			for (uint32_t k = 0; k < nu; k++) {
				uint32_t d = lastdef[uops[k]];
				if (d != UINT32_MAX && d >= bl->first && d < i && d + 1 > e)
					e = d + 1;
			}
			if (e < i) {
				uint32_t w = s->wunits[s->cls[ops[0]]];
				hadd[i - 1] += w;
				hsub[e] += w;
			}
		}
		if (fl & (PX_OPF_STORE | PX_OPF_ATOMIC | PX_OPF_BARRIER | PX_OPF_CALL))
			fence = i + 1;
		if (fl & (PX_OPF_ATOMIC | PX_OPF_BARRIER | PX_OPF_CALL))
			ncfence = i + 1;
		for (uint32_t k = 0; k < nd; k++)
			lastdef[ops[k]] = i;
	}
}

/* Store data: ptxas gives the value a store reads a register that is not
 * reused for STORE_HOLD instructions (the store reads it late; SASS shows
 * the data registers of consecutive stores rotating). A stored value that
 * dies at the store is therefore live for STORE_HOLD more instructions in
 * its block: fills hadd/hsub as find_hoists does. lout: the block's plain
 * live_out (compact); seen: s->mark == epoch (a fresh epoch). */
static void find_store_holds(const struct px_func *f, const struct live_state *s,
                             const struct px_block *bl, const uint64_t *lout, uint32_t epoch,
                             uint32_t *hadd, uint32_t *hsub)
{
	for (uint32_t w = 0; w < s->WG; w++)
		for (uint64_t x = lout[w]; x; x &= x - 1)
			s->mark[s->glist[w * 64 + (uint32_t)__builtin_ctzll(x)]] = epoch;
	for (uint32_t i = bl->end; i-- > bl->first;) {
		const struct px_insn *in = &f->insns[i];
		unsigned fl = px_opcode_flags((enum px_opcode)in->op);
		if ((fl & PX_OPF_STORE) && !(fl & PX_OPF_ATOMIC) && in->nopnds >= 2 &&
		    i + 1 < bl->end) {
			const struct px_operand *d = &in->opnds[1];
			uint32_t nelem = d->kind == PX_OPND_VEC ? d->nelems : 1;
			uint32_t k = i + STORE_HOLD < bl->end - 1 ? i + STORE_HOLD : bl->end - 1;
			for (uint32_t e = 0; e < nelem; e++) {
				const struct px_operand *o = d->kind == PX_OPND_VEC ? &d->elems[e] : d;
				if (o->kind != PX_OPND_REG || o->reg < 0 || (uint32_t)o->reg >= f->nregs ||
				    s->mark[o->reg] == epoch || s->pred[o->reg])
					continue;
				uint32_t w = s->wunits[s->cls[o->reg]];
				hadd[k] += w;
				hsub[i + 1] += w;
			}
		}
		uint32_t nu;
		const int32_t *ops = uses_of(&s->ops, i, &nu);
		for (uint32_t k = 0; k < nu; k++)
			s->mark[ops[k]] = epoch;
	}
}

/* Requires: plain liveness and defin/defout (compact). Fills every block's
 * live_in/live_out (arena) with live & defined and walks every block
 * backward once. Fills the pressure. The sets of the walk are epochs of
 * s->mark (two a block: the store holds' and the live set's), so no block
 * pays for clearing them.
 * A register that is not global is never in live_out, and it is written
 * (unguarded) before any read of it in its block, so whether it was
 * defined on entry (defined_in answers false) changes nothing below: a
 * read finds it written earlier in the block (firstw < i), and a guarded
 * write finds it live only after such an earlier write. */
static void walk_pressure(struct px_module *m, struct px_func *f, const struct live_state *s,
                          struct pressure *p)
{
	uint32_t WG = s->WG, epoch = 0;
	/* first write of each register in the current block, for registers not
	 * in defin: a register is "defined" before insn i iff i > firstw */
	uint32_t *firstw = xmalloc((f->nregs + 1) * sizeof *firstw);
	for (uint32_t r = 0; r < f->nregs; r++)
		firstw[r] = UINT32_MAX;
	uint32_t *lastdef = xmalloc((f->nregs + 1) * sizeof *lastdef);
	for (uint32_t r = 0; r < f->nregs; r++)
		lastdef[r] = UINT32_MAX;
	uint32_t *hadd = xcalloc(f->ninsns + 1, sizeof *hadd);
	uint32_t *hsub = xcalloc(f->ninsns + 1, sizeof *hsub);
	for (uint32_t b = 0; b < f->nblocks; b++) {
		struct px_block *bl = &f->blocks[b];
		const uint64_t *lin = s->livein + (size_t)b * WG, *lout = s->liveout + (size_t)b * WG;
		const uint64_t *din = s->defin + (size_t)b * WG, *dout = s->defout + (size_t)b * WG;
		find_hoists(f, s, bl, lastdef, hadd, hsub);
		if (STORE_HOLD > 0)
			find_store_holds(f, s, bl, lout, ++epoch, hadd, hsub);
		uint32_t hoisted = 0;  /* weight of the hoisted loads in flight */
		bl->live_in = px_arena_alloc(px_func_arena(m, f), (WG + 1) * sizeof(uint64_t));
		bl->live_out = px_arena_alloc(px_func_arena(m, f), (WG + 1) * sizeof(uint64_t));
		for (uint32_t w = 0; w < WG; w++) {
			bl->live_in[w] = lin[w] & din[w];
			bl->live_out[w] = lout[w] & dout[w];
		}
		for (uint32_t i = bl->first; i < bl->end; i++) {
			uint32_t nd;
			const int32_t *ops = defs_of(&s->ops, i, &nd);
			for (uint32_t k = 0; k < nd; k++)
				if (!defined_in(s, din, (uint32_t)ops[k]) && firstw[ops[k]] == UINT32_MAX)
					firstw[ops[k]] = i;
		}
		p->epoch = ++epoch;
		p->units = p->preds = p->wunits = 0;
		for (uint32_t w = 0; w < WG; w++)
			for (uint64_t x = bl->live_out[w]; x; x &= x - 1)
				p_add(p, s, s->glist[w * 64 + (uint32_t)__builtin_ctzll(x)]);
		if (bl->end == bl->first)
			p_note(p, p->units, p->preds, p->wunits, bl->first);
		for (uint32_t i = bl->end; i-- > bl->first;) {
			const struct px_insn *in = &f->insns[i];
			uint32_t nd, nu;
			const int32_t *ops = defs_of(&s->ops, i, &nd), *uops = uses_of(&s->ops, i, &nu);
			/* after the instruction, with its (possibly dead) results */
			uint32_t au = p->units, ap = p->preds, aw = p->wunits;
			for (uint32_t k = 0; k < nd; k++) {
				uint32_t r = (uint32_t)ops[k];
				bool dup = s->mark[r] == p->epoch;
				for (uint32_t j = 0; j < k && !dup; j++)
					dup = ops[j] == ops[k];
				if (!dup) {
					ap += s->pred[r];
					au += s->units[r];
					/* a class already live, or counted for an earlier result */
					bool cdup = class_count(s, p, s->cls[r]) > 0;
					for (uint32_t j = 0; j < k && !cdup; j++)
						cdup = s->cls[ops[j]] == s->cls[r];
					if (!cdup)
						aw += s->wunits[s->cls[r]];
				}
			}
			hoisted += hadd[i];
			p_note(p, au, ap, aw + hoisted, i);
			/* before it: results die unless the write is guarded and the
			 * register had a value before */
			for (uint32_t k = 0; k < nd; k++) {
				uint32_t r = (uint32_t)ops[k];
				bool had = defined_in(s, din, r) || firstw[r] < i;
				if (in->guard < 0 || !had)
					p_del(p, s, r);
			}
			for (uint32_t k = 0; k < nu; k++) {
				uint32_t r = (uint32_t)uops[k];
				if (defined_in(s, din, r) || firstw[r] < i)
					p_add(p, s, r);
			}
			p_note(p, p->units, p->preds, p->wunits + hoisted, i);
			hoisted -= hsub[i];
		}
		for (uint32_t i = bl->first; i < bl->end; i++) {
			uint32_t nd;
			const int32_t *ops = defs_of(&s->ops, i, &nd);
			for (uint32_t k = 0; k < nd; k++)
				firstw[ops[k]] = UINT32_MAX;
		}
	}
	free(firstw);
	free(lastdef);
	free(hadd);
	free(hsub);
}

/* Registers ptxas does not keep in a register of their own: every write is
 * a kernel parameter load (ptxas reads the constant bank directly), an
 * immediate or address move, or a cvta of such a value. Fills free[r]. */
static void find_free(const struct px_func *f, const struct ops_table *t, bool *free_)
{
	uint8_t *st = xcalloc(f->nregs + 1, 1);  /* 0 unseen, 1 free so far, 2 not free */
	for (int round = 0; round < 2; round++)  /* cvta chains: two rounds suffice in practice */
		for (uint32_t i = 0; i < f->ninsns; i++) {
			const struct px_insn *in = &f->insns[i];
			uint32_t nd;
			const int32_t *ops = defs_of(t, i, &nd);
			if (nd == 0)
				continue;
			bool ok = nd == 1 && in->guard < 0;
			if (ok) {
				const struct px_operand *src = in->nopnds > 1 ? &in->opnds[1] : NULL;
				if (in->op == PX_OP_LD && in->space == PX_SPACE_PARAM)
					ok = f->is_entry;
				else if (in->op == PX_OP_MOV && src)
					ok = src->kind == PX_OPND_IMM || src->kind == PX_OPND_FIMM ||
					     src->kind == PX_OPND_SYM ||
					     (FREE_SREG && src->kind == PX_OPND_SREG &&
					      (src->sreg == PX_SREG_NTID || src->sreg == PX_SREG_NCTAID));
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

/* ---- value classes: registers ptxas keeps in one physical register ----
 * Value numbering over registers written exactly once (unguarded), in RPO
 * order: each gets a value (base, offset). A copy (mov of a register of the
 * same width) and cvta.to take their source's value; add/sub of an
 * immediate keeps the source's base and moves the offset (ptxas folds the
 * offset into the address of a load/store, or re-adds it where used); add of
 * two registers gets the base numbered by (width, base a, base b) and the
 * sum of the offsets, so `p + 1024 + i` and `p + i` share a base. Registers
 * with the same base form a class, counted once in the weighted pressure
 * while any member is live. */
struct vn_tab {
	uint32_t cap;       /* power of two */
	uint64_t *key;      /* 0 = empty */
	uint32_t *val;
};

static uint32_t vn_lookup(struct vn_tab *t, uint64_t key, uint32_t *next)
{
	uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (t->cap - 1);
	while (t->key[h] && t->key[h] != key)
		h = (h + 1) & (t->cap - 1);
	if (!t->key[h]) {
		t->key[h] = key;
		t->val[h] = (*next)++;
	}
	return t->val[h];
}

static bool int_type(const struct px_insn *in)
{
	if (in->ntypes < 1)
		return false;
	char k = px_type_kind((enum px_type)in->types[0]);
	return k == 'b' || k == 'u' || k == 's';
}

/* Requires: fill_cfg (rpo_order). Fills cls[r]: the lowest-numbered register
 * of r's class (r itself when alone). */
static void find_classes(const struct px_func *f, const struct ops_table *ot, uint32_t *cls)
{
	uint32_t n = f->nregs;
	uint8_t *ndefs = xcalloc(n + 1, 1);
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		uint32_t nd;
		const int32_t *ops = defs_of(ot, i, &nd);
		for (uint32_t k = 0; k < nd; k++) {
			uint32_t r = (uint32_t)ops[k];
			unsigned add = (in->guard >= 0 || nd > 1) ? 2 : 1;
			ndefs[r] = (uint8_t)(ndefs[r] + add > 2 ? 2 : ndefs[r] + add);
		}
	}
	uint32_t *base = xmalloc((n + 1) * sizeof *base);
	int64_t *off = xcalloc(n + 1, sizeof *off);
	for (uint32_t r = 0; r < n; r++)
		base[r] = r;
	struct vn_tab t;
	t.cap = 64;
	while (t.cap < 2 * f->ninsns + 2)
		t.cap *= 2;
	t.key = xcalloc(t.cap, sizeof *t.key);
	t.val = xmalloc(t.cap * sizeof *t.val);
	uint32_t next = n;
	for (uint32_t k = 0; k < f->nrpo; k++) {
		const struct px_block *bl = &f->blocks[f->rpo_order[k]];
		for (uint32_t i = bl->first; i < bl->end; i++) {
			const struct px_insn *in = &f->insns[i];
			/* only copies, cvta and add/sub join a class */
			if ((in->op != PX_OP_MOV && in->op != PX_OP_CVTA && in->op != PX_OP_ADD &&
			     in->op != PX_OP_SUB) ||
			    in->guard >= 0 || in->nopnds < 2 || in->opnds[0].kind != PX_OPND_REG ||
			    in->opnds[0].comp >= 0 || !int_type(in))
				continue;
			int32_t d = in->opnds[0].reg;
			if (d < 0 || (uint32_t)d >= n || ndefs[d] != 1)
				continue;
			const struct px_operand *a = &in->opnds[1];
			const struct px_operand *b = in->nopnds > 2 ? &in->opnds[2] : NULL;
			bool ra = a->kind == PX_OPND_REG && a->comp < 0 && a->reg >= 0 &&
			          (uint32_t)a->reg < n;
			bool rb = b && b->kind == PX_OPND_REG && b->comp < 0 && b->reg >= 0 &&
			          (uint32_t)b->reg < n;
			unsigned bits = px_type_bits((enum px_type)in->types[0]);
			uint32_t dbits = px_type_bits((enum px_type)f->regs[d].type) * (f->regs[d].vec ? f->regs[d].vec : 1);
			if ((in->op == PX_OP_MOV || in->op == PX_OP_CVTA) && in->nopnds == 2 && ra &&
			    px_type_bits((enum px_type)f->regs[a->reg].type) == dbits &&
			    (in->op == PX_OP_MOV || (in->mods & PX_MOD_TO))) {
				base[d] = base[a->reg];
				off[d] = off[a->reg];
			} else if ((in->op == PX_OP_ADD || in->op == PX_OP_SUB) && in->nopnds == 3 &&
			           !(in->mods & (PX_MOD_CC | PX_MOD_SAT)) && bits >= 32) {
				if (ra && b->kind == PX_OPND_IMM) {
					base[d] = base[a->reg];
					off[d] = off[a->reg] + (in->op == PX_OP_ADD ? b->imm : -b->imm);
				} else if (rb && a->kind == PX_OPND_IMM && in->op == PX_OP_ADD) {
					base[d] = base[b->reg];
					off[d] = off[b->reg] + a->imm;
				} else if (ra && rb && in->op == PX_OP_ADD) {
					uint64_t x = base[a->reg], y = base[b->reg];
					if (x > y) {
						uint64_t z = x;
						x = y;
						y = z;
					}
					uint64_t key = (x << 32 | y) + 1;  /* bases < 2^32 - 1 */
					base[d] = vn_lookup(&t, key, &next);
					off[d] = off[a->reg] + off[b->reg];
				}
			}
		}
	}
	uint32_t *rep = xmalloc((next + 1) * sizeof *rep);
	for (uint32_t v = 0; v < next; v++)
		rep[v] = UINT32_MAX;
	for (uint32_t r = 0; r < n; r++) {
		uint32_t v = base[r];
		if (rep[v] == UINT32_MAX)
			rep[v] = r;
		cls[r] = rep[v];
	}
	free(rep);
	free(t.key);
	free(t.val);
	free(off);
	free(base);
	free(ndefs);
}

/* The register count ptxas reports ("Used N registers"), from the weighted
 * peak (tenths of units, see the model above). Requires: the callees that
 * come before f in the module already have their reg_estimate (fill_regs
 * has run on them: estimated). */
static uint32_t estimate(const struct px_module *m, const struct px_func *f, uint32_t wpeak,
                         uint32_t peak, uint32_t *demand)
{
	uint32_t est = (wpeak * EST_SCALE / 100 + 5) / 10 + EST_OVERHEAD;
	if (peak <= 1)  /* nothing, or one 32-bit value, live at once */
		est = EST_MIN_EMPTY;
	else if (est < EST_MIN)
		est = EST_MIN;
	if (f->ncallees || f->has_indirect_call) {
		/* an opaque callee (extern, indirect, or one that calls further:
		 * recursion, printf) makes ptxas assume the ABI's worst case; a
		 * known callee's registers come on top of the ABI's */
		bool opaque = f->has_indirect_call;
		est += EST_CALL_OWN;
		for (uint32_t i = 0; i < f->ncallees; i++) {
			const struct px_func *g = &m->funcs[f->callees[i]];
			/* the call graph (fill_cfg, module arena) outlives a callee's
			 * dropped body, so the report's streaming path and a whole
			 * module analysis agree */
			if (!g->has_body || !g->estimated || g == f || g->ncallees ||
			    g->has_indirect_call)
				opaque = true;
			else if (g->reg_estimate + EST_CALL_EXTRA > est)
				est = g->reg_estimate + EST_CALL_EXTRA;
		}
		if (opaque && est < EST_CALL_MIN)
			est = EST_CALL_MIN;
	}
	*demand = est;  /* before any cap: what the code would like (spill prediction) */
	uint32_t cap = px_reg_cap(f);
	if (est > cap)
		est = cap;
	return est;
}

/* Requires: fill_cfg (rpo_order, succs, preds). Fills live_in/live_out of
 * every block, f->max_live, max_live_pred, max_live_insn, reg_wpeak and
 * live_done (fill_regs turns them into the estimate). */
void fill_live(struct px_module *m, struct px_func *f)
{
	uint32_t n = f->nblocks;
	f->max_live = f->max_live_pred = 0;
	f->max_live_insn = UINT32_MAX;
	f->reg_wpeak = 0;
	f->live_done = false;
	f->live_reg = NULL;
	f->live_bit = NULL;
	f->nlive_regs = f->live_words = 0;
	if (n == 0)
		return;
	struct live_state s;
	ops_init(f, &s.ops);
	s.gidx = f->live_bit = px_arena_alloc(px_func_arena(m, f), (f->nregs + 1) * sizeof *s.gidx);
	s.glist = f->live_reg = px_arena_alloc(px_func_arena(m, f), (f->nregs + 1) * sizeof *s.glist);
	find_globals(f, &s);
	f->nlive_regs = s.G;
	f->live_words = s.WG;
	s.mark = xcalloc(f->nregs + 1, sizeof *s.mark);
	s.cepoch = xcalloc(f->nregs + 1, sizeof *s.cepoch);
	size_t words = (size_t)n * s.WG + 1;
	s.use = xcalloc(words, sizeof(uint64_t));
	s.kill = xcalloc(words, sizeof(uint64_t));
	s.livein = xcalloc(words, sizeof(uint64_t));
	s.liveout = xcalloc(words, sizeof(uint64_t));
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
	find_free(f, &s.ops, fr);
	s.cls = xmalloc((f->nregs + 1) * sizeof *s.cls);
	s.ccount = xcalloc(f->nregs + 1, sizeof *s.ccount);
	find_classes(f, &s.ops, s.cls);
	memset(s.wunits, 0, (f->nregs + 1) * sizeof *s.wunits);
	for (uint32_t r = 0; r < f->nregs; r++) {  /* a class weighs as its heaviest member */
		uint32_t w = s.units[r] * (fr[r] ? FREE_WEIGHT : 10);
		if (w > s.wunits[s.cls[r]])
			s.wunits[s.cls[r]] = w;
	}
	free(fr);
	local_sets(f, &s);
	solve_live(f, &s);
	solve_defined(f, &s);
	struct pressure p = {0, 0, 0, 0, 0, 0, UINT32_MAX, 0};
	walk_pressure(m, f, &s, &p);
	f->max_live = p.max_units;
	f->max_live_pred = p.max_preds;
	f->max_live_insn = f->ninsns ? p.at : UINT32_MAX;
	f->reg_wpeak = p.max_wunits;
	f->live_done = true;
	ops_free(&s.ops);
	free(s.mark);
	free(s.cepoch);
	free(s.use);
	free(s.kill);
	free(s.livein);
	free(s.liveout);
	free(s.defin);
	free(s.defout);
	free(s.units);
	free(s.pred);
	free(s.wunits);
	free(s.cls);
	free(s.ccount);
}

/* Requires: fill_live and fill_callees of f; fill_regs of the callees whose
 * bodies come before f's (others count as opaque). Needs no body: reads the
 * callees' estimates (PX_STAGE_POST). Fills reg_estimate, reg_demand,
 * estimated. */
void fill_regs(struct px_module *m, struct px_func *f)
{
	f->reg_estimate = 0;
	if (f->live_done)
		f->reg_estimate = estimate(m, f, f->reg_wpeak, f->max_live, &f->reg_demand);
	f->estimated = true;
}
