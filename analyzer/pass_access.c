/* pass_access.c: fill_access, the memory access model: for every ld, st,
 * atom, red, cp.async, ldmatrix and stmatrix, its state space (after
 * address provenance), bytes per thread, loop depth, and for an affine
 * address the cost one warp request has on the hardware:
 *  - global: the 32-byte sectors the request touches (Nsight Compute's "L2
 *    theoretical sectors global" per request) and the ideal for the unique
 *    bytes requested (ceil(unique bytes / 32)); misalignment shows as
 *    sectors above the ideal;
 *  - local: thread-private addresses are interleaved by the hardware, so a
 *    uniform offset is ideal; an offset that varies by thread (a dynamic
 *    index into a local array) is flagged and its sectors are unknown;
 *  - shared: 32 banks of 4 bytes (CUDA C++ Programming Guide, "Shared
 *    Memory" for compute capability 5.x and later); the lanes of one phase
 *    reading the same 32-bit word are served together; accesses of 8 bytes
 *    are split into 2 phases of 16 lanes and of 16 bytes into 4 phases of 8
 *    lanes; each phase costs as many wavefronts as the most distinct words
 *    any one bank holds; the ideal is one wavefront per active phase;
 *    ways = wavefronts / ideal, as Nsight Compute's shared wavefronts over
 *    its ideal wavefronts.
 * The lanes are those of every warp of the launch block that reaches the
 * access (px_reach_mask). An address is base + T(lane) + U, with T the
 * thread part of its form and U the uniform part, unknown but with a known
 * residue: U = c + k * A, A the power of two dividing every uniform term
 * (a 64-bit kernel parameter used as a base pointer counts as 256-aligned:
 * cudaMalloc's guarantee). The cost is evaluated for every residue of U
 * modulo the granule (32 for sectors; for word-aligned shared accesses one
 * evaluation suffices, since a uniform shift by whole words only rotates the
 * banks); when the residues disagree the answer is unknown, never a guess.
 * Per-warp results are averaged over the warps that differ (distinct thread
 * patterns); warps with no active lane are left out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

enum { SECTOR = 32, MAX_SECTORS = 128 };

static const struct px_operand *addr_operand(const struct px_insn *in)
{
	for (uint32_t i = 0; i < in->nopnds; i++)
		if (in->opnds[i].kind == PX_OPND_ADDR)
			return &in->opnds[i];
	return NULL;
}

static bool is_access(const struct px_insn *in)
{
	switch (in->op) {
	case PX_OP_LD: case PX_OP_LDU:
		return in->space != PX_SPACE_PARAM;
	case PX_OP_ST:
		return in->space != PX_SPACE_PARAM;
	case PX_OP_ATOM: case PX_OP_RED: case PX_OP_LDMATRIX: case PX_OP_STMATRIX:
		return true;
	case PX_OP_CP:
		return (px_opcode_flags(in->op) & PX_OPF_ASYNC) && px_str_starts(in->modtext, ".async") &&
		       !px_str_starts(in->modtext, ".async.bulk");
	default:
		return false;
	}
}

static uint32_t access_bytes(const struct px_insn *in)
{
	if (in->op == PX_OP_CP) {
		for (uint32_t i = 0; i < in->nopnds; i++)
			if (in->opnds[i].kind == PX_OPND_IMM)
				return (uint32_t)in->opnds[i].imm;
		return 0;
	}
	if (in->op == PX_OP_LDMATRIX || in->op == PX_OP_STMATRIX)
		return 16;   /* each lane names one 16-byte row */
	unsigned bits = 0;
	for (uint32_t i = 0; i < in->ntypes; i++) {
		unsigned b = px_type_bits(in->types[i]);
		if (b > bits)
			bits = b;
	}
	if (in->op == PX_OP_ATOM || in->op == PX_OP_RED || !in->ntypes)
		bits = in->ntypes ? px_type_bits(in->types[in->ntypes - 1]) : 0;
	return bits / 8 * (in->vec ? in->vec : 1);
}

/* Insertion sort: the lists are short (<= 128) and usually already sorted. */
static void sort_i64(int64_t *v, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		int64_t x = v[i];
		uint32_t j = i;
		while (j > 0 && v[j - 1] > x) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* The sector of byte address x (rounded down for negative ones too). */
static int64_t sector_of(int64_t x)
{
	return x >= 0 ? x / SECTOR : (x - SECTOR + 1) / SECTOR;
}

/* sectors' common case: addresses that never decrease from lane to lane
 * (a contiguous or strided warp). Each lane's sector range then starts and
 * ends no earlier than the last one's, so the distinct sectors and
 * addresses are counted in one pass without a sort. False (nothing set)
 * when the addresses go down somewhere, or the ranges would overflow the
 * list sectors() keeps (it counts only what fits). */
static bool sectors_sorted(const int64_t *a, uint32_t mask, uint32_t bytes, uint32_t *sec,
                           uint32_t *ideal)
{
	/* the commonest case first: each active lane at the byte after the
	 * last one's (a warp reading consecutive elements): its addresses are
	 * distinct and cover one range */
	if (mask) {
		int64_t x0 = a[__builtin_ctz(mask)], x = x0;
		uint32_t n = 0, m = mask;
		for (; m && a[__builtin_ctz(m)] == x; m &= m - 1, n++)
			x += bytes;
		if (!m) {
			*sec = (uint32_t)(sector_of(x - 1) - sector_of(x0) + 1);
			*ideal = (n * bytes + SECTOR - 1) / SECTOR;
			return true;
		}
	}
	int64_t prev = INT64_MIN, top = INT64_MIN;
	uint32_t d = 0, du = 0, ns = 0;
	for (uint32_t m = mask; m; m &= m - 1) {
		int64_t x = a[__builtin_ctz(m)];
		if (x < prev)
			return false;
		du += du == 0 || x != prev;
		prev = x;
		int64_t lo = sector_of(x), hi = sector_of(x + bytes - 1);
		ns += (uint32_t)(hi - lo + 1);
		if (ns > MAX_SECTORS * 2)
			return false;
		if (hi > top) {
			d += (uint32_t)(hi - (lo > top ? lo : top + 1) + 1);
			top = hi;
		}
	}
	*sec = d;
	*ideal = (du * bytes + SECTOR - 1) / SECTOR;
	return true;
}

/* Sectors and ideal sectors for the active lanes at byte addresses a[]. */
static void sectors(const int64_t *a, uint32_t mask, uint32_t bytes, uint32_t *sec, uint32_t *ideal)
{
	if (bytes >= 1 && bytes <= SECTOR * 4 && sectors_sorted(a, mask, bytes, sec, ideal))
		return;
	int64_t s[MAX_SECTORS * 2], u[32];
	uint32_t ns = 0, nu = 0;
	for (uint32_t l = 0; l < 32; l++) {
		if (!(mask >> l & 1))
			continue;
		u[nu++] = a[l];
		int64_t lo = a[l] >= 0 ? a[l] / SECTOR : (a[l] - SECTOR + 1) / SECTOR;
		int64_t e = a[l] + bytes - 1;
		int64_t hi = e >= 0 ? e / SECTOR : (e - SECTOR + 1) / SECTOR;
		for (int64_t x = lo; x <= hi && ns < PX_COUNTOF(s); x++)
			s[ns++] = x;
	}
	sort_i64(s, ns);
	sort_i64(u, nu);
	uint32_t d = 0, du = 0;
	for (uint32_t i = 0; i < ns; i++)
		d += i == 0 || s[i] != s[i - 1];
	for (uint32_t i = 0; i < nu; i++)
		du += i == 0 || u[i] != u[i - 1];
	*sec = d;
	*ideal = (du * bytes + SECTOR - 1) / SECTOR;
}

/* Shared-memory wavefronts and ideal wavefronts for the active lanes: per
 * phase, the most distinct words that fall in one bank (a word named by
 * several lanes is read once). The distinct words of each bank are kept in
 * a short list per bank (as long as that bank's conflict), so no sort. */
static void wavefronts(const int64_t *a, uint32_t mask, uint32_t bytes, uint32_t *wf, uint32_t *ideal)
{
	uint32_t lanes_per_phase = bytes <= 4 ? 32 : bytes == 8 ? 16 : 8;
	uint32_t nwords = bytes <= 4 ? 1 : bytes / 4;
	if (bytes <= 4 && mask) {
		/* the commonest: one phase whose lanes name consecutive words (at
		 * most 32: each in a bank of its own) */
		int64_t x = a[__builtin_ctz(mask)] >> 2;   /* floor(a / 4) */
		uint32_t m = mask;
		for (; m && a[__builtin_ctz(m)] >> 2 == x; m &= m - 1)
			x++;
		if (!m) {
			*wf = *ideal = 1;
			return;
		}
	}
	*wf = *ideal = 0;
	for (uint32_t p0 = 0; p0 < 32; p0 += lanes_per_phase) {
		/* the common case first: every distinct word of the phase in a
		 * bank of its own (then the worst bank holds one) */
		uint32_t banks = 0, nseen = 0;
		int64_t bank_word[32];      /* the word seen in each bank of banks */
		bool distinct = true;
		for (uint32_t l = p0; l < p0 + lanes_per_phase && distinct && nwords == 1; l++) {
			/* (one word per lane, the commonest, without the inner loop) */
			if (!(mask >> l & 1))
				continue;
			int64_t x = a[l] >> 2;   /* floor(a / 4): gcc shifts negative values arithmetically */
			uint32_t b = (uint32_t)((uint64_t)x & 31), bit = 1u << b;
			nseen++;
			if (banks & bit) {
				distinct = bank_word[b] == x;
			} else {
				banks |= bit;
				bank_word[b] = x;
			}
		}
		for (uint32_t l = p0; l < p0 + lanes_per_phase && distinct && nwords > 1; l++) {
			if (!(mask >> l & 1))
				continue;
			int64_t w0 = a[l] >= 0 ? a[l] / 4 : (a[l] - 3) / 4;
			for (uint32_t k = 0; k < nwords && nseen < 64 && distinct; k++, nseen++) {
				int64_t x = w0 + (int64_t)k;
				uint32_t b = (uint32_t)((uint64_t)x & 31), bit = 1u << b;   /* x mod 32 */
				if (banks & bit) {
					distinct = bank_word[b] == x;   /* the same word again: read once */
				} else {
					banks |= bit;
					bank_word[b] = x;
				}
			}
		}
		if (distinct) {
			if (nseen) {
				*wf += 1;
				*ideal += 1;
			}
			continue;
		}
		int64_t words[64];          /* distinct words, chained per bank */
		int8_t next[64], head[32];
		uint32_t per_bank[32] = {0}, worst = 0, nw = 0, seen = 0;
		memset(head, -1, sizeof head);
		for (uint32_t l = p0; l < p0 + lanes_per_phase; l++) {
			if (!(mask >> l & 1))
				continue;
			int64_t w0 = a[l] >= 0 ? a[l] / 4 : (a[l] - 3) / 4;
			for (uint32_t k = 0; k < nwords && seen < 64; k++, seen++) {
				int64_t x = w0 + k;
				uint32_t b = (uint32_t)(((x % 32) + 32) % 32);
				int8_t i = head[b];
				while (i >= 0 && words[i] != x)
					i = next[i];
				if (i >= 0)
					continue;
				words[nw] = x;
				next[nw] = head[b];
				head[b] = (int8_t)nw++;
				if (++per_bank[b] > worst)
					worst = per_bank[b];
			}
		}
		if (!seen)
			continue;
		*wf += worst;
		*ideal += 1;
	}
}

void px_warp_sectors(const int64_t a[32], uint32_t mask, uint32_t bytes, uint32_t *sec,
                     uint32_t *ideal)
{
	sectors(a, mask, bytes, sec, ideal);
}

void px_warp_wavefronts(const int64_t a[32], uint32_t mask, uint32_t bytes, uint32_t *wf,
                        uint32_t *ideal)
{
	wavefronts(a, mask, bytes, wf, ideal);
}

struct warp_pat {
	int64_t off[32];     /* thread part of the address, per lane */
	uint32_t mask;
	uint32_t count;      /* warps with this pattern */
};

enum { MAX_TRIP = 1 << 20 };

/* Whether v is in the sorted list a[0..n) (a loop's blocks): a binary
 * search, so that a deep loop nest stays near-linear per loop. */
static bool in_sorted(const uint32_t *a, uint32_t n, uint32_t v)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (a[mid] == v)
			return true;
		if (a[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The trip count of loop l (iterations per entry) when it is affine: the
 * loop has one latch, which is its only exit, ending in `@p bra header`
 * (the do-while shape nvcc emits); p compares forms whose only non-constant
 * atom is one LOOP atom of l (its counter n: the increments made so far)
 * and no thread atom. n at the compare is k (iteration k, 0-based) or k + 1
 * when the compare follows the counter's increment in the latch. The loop
 * runs while the branch goes back; counted up to MAX_TRIP. -1 unknown. */
static int64_t trip_count(const struct px_func *f, uint32_t l)
{
	const struct px_func_analysis *an = f->an;
	const struct px_loop *lp = &f->loops[l];
	if (lp->nlatches != 1 || lp->nexits != 1)
		return -1;
	uint32_t lb = lp->latches[0];
	const struct px_block *bb = &f->blocks[lb];
	if (bb->end == bb->first || bb->nsuccs != 2)
		return -1;
	/* every exit edge leaves from the latch */
	for (uint32_t i = 0; i < lp->nblocks; i++) {
		const struct px_block *x = &f->blocks[lp->blocks[i]];
		for (uint32_t k = 0; k < x->nsuccs; k++) {
			uint32_t y = x->succs[k];
			if (!in_sorted(lp->blocks, lp->nblocks, y) && lp->blocks[i] != lb)
				return -1;
		}
	}
	uint32_t bi = bb->end - 1;
	const struct px_insn *br = &f->insns[bi];
	if (br->op != PX_OP_BRA || br->guard < 0 || px_pred_of(an, br->guard)->kind != PX_PRED_SETP)
		return -1;
	bool back_on_true = bb->succs[0] == lp->header;   /* succs[0]: the branch target */
	const struct px_pred *q = px_pred_of(an, br->guard);
	/* the one LOOP atom of l, and no other non-constant atom */
	int64_t atom = -1;
	for (int side = 0; side < 2; side++) {
		const struct px_aff *x = side ? &q->b : &q->a;
		for (uint32_t i = 0; i < x->nterms; i++) {
			const struct px_atom *t = &an->atoms[x->t[i].atom];
			if (t->kind != PX_ATOM_LOOP || t->a != l || t->unsure ||
			    (atom >= 0 && atom != (int64_t)x->t[i].atom))
				return -1;
			atom = x->t[i].atom;
		}
	}
	if (atom < 0)
		return -1;
	/* where the compare and the counter's increment are in the latch */
	int32_t r = (int32_t)an->atoms[atom].b;
	int64_t setp_at = -1, inc_at = -1;
	for (uint32_t i = bb->first; i < bi; i++) {
		uint32_t nd;
		const int32_t *d = px_func_defs(f, i, &nd);
		for (uint32_t k = 0; k < nd; k++) {
			if (d[k] == br->guard)
				setp_at = i;
			if (d[k] == r)
				inc_at = i;
		}
	}
	if (setp_at < 0)
		return -1;
	int64_t off = inc_at >= 0 && inc_at < setp_at ? 1 : 0;
	int64_t *uval = xcalloc(an->natoms, sizeof *uval);
	bool *uk = xcalloc(an->natoms, sizeof *uk);
	uk[atom] = true;
	struct px_eval_env env = {.uval = uval, .uknown = uk};
	int64_t trip = -1;
	for (int64_t k = 0; k < MAX_TRIP; k++) {
		uval[atom] = k + off;
		int v = px_pred_eval(an, br->guard, &env, 0);
		if (v < 0)
			break;
		bool taken = v != br->guard_neg;
		if (taken != back_on_true) {
			trip = k + 1;
			break;
		}
	}
	free(uval);
	free(uk);
	return trip;
}

/* Requires: fill_affine, fill_uniform, fill_loops. Fills: f->res->loops
 * (one record per loop: header line, depth, trip count when affine). */
static void fill_loop_recs(struct px_module *m, struct px_func *f)
{
	struct px_results *res = f->res;
	for (uint32_t l = 0; l < f->nloops; l++) {
		const struct px_block *h = &f->blocks[f->loops[l].header];
		if (h->end == h->first)
			continue;
		const struct px_insn *in = &f->insns[h->first];
		struct px_loop_rec *r = PX_ARENA_PUSH(m->arena, res->loops, res->nloops, res->caploops);
		memset(r, 0, sizeof *r);
		r->line = in->line;
		r->loc_file = in->loc_file;
		r->loc_line = in->loc_line;
		r->depth = f->loops[l].depth;
		r->trip = trip_count(f, l);
	}
}

/* Requires: fill_affine, fill_uniform, fill_loops. Fills: f->res->acc,
 * f->res->loops. */
void fill_access(struct px_module *m, struct px_func *f)
{
	struct px_func_analysis *an = f->an;
	if (!f->res)
		f->res = px_arena_alloc(m->arena, sizeof *f->res);
	struct px_results *res = f->res;
	memcpy(res->block, an->block, sizeof res->block);
	res->block_from = an->block_from;
	uint32_t nwarps = px_block_warps(an->block);
	struct warp_pat *pats = xmalloc(nwarps * sizeof *pats);
	int64_t (*tids)[32][3] = an->tids;
	uint32_t *nlanes = an->nlanes;
	/* per block: the lanes that reach it (conditions of the controlling
	 * branches), computed once; bstate 0 = not yet, 1 = known, 2 = assumed */
	uint32_t *bmask = xmalloc((size_t)f->nblocks * nwarps * sizeof *bmask);
	uint8_t *bstate = xcalloc(f->nblocks + 1, 1);
	uint32_t *pmask = xmalloc(nwarps * sizeof *pmask);

	for (uint32_t ri = 0; ri < f->nrpo; ri++) {
		const struct px_block *bb = &f->blocks[f->rpo_order[ri]];
		for (uint32_t i = bb->first; i < bb->end; i++) {
			const struct px_insn *in = &f->insns[i];
			if (!is_access(in))
				continue;
			const struct px_operand *ad = addr_operand(in);
			if (!ad)
				continue;
			struct px_access_rec *r = PX_ARENA_PUSH(m->arena, res->acc, res->nacc, res->capacc);
			memset(r, 0, sizeof *r);
			r->line = in->line;
			r->insn = i;
			r->loc_file = in->loc_file;
			r->loc_line = in->loc_line;
			r->op = in->op;
			r->is_store = in->op == PX_OP_ST || in->op == PX_OP_STMATRIX || in->op == PX_OP_RED;
			r->bytes = access_bytes(in);
			r->depth = bb->loop >= 0 ? f->loops[bb->loop].depth : 0;
			r->sectors = r->ideal_sectors = r->wavefronts = r->ideal_wavefronts = -1;
			r->pattern = PX_PATTERN_UNKNOWN;

			/* the address form and its space */
			struct px_aff a = {.known = true};
			uint8_t prov = 0;
			if (ad->reg >= 0) {
				a = an->form[ad->reg];
				prov = an->prov[ad->reg];
			} else if (ad->sym.n) {
				a.known = false;  /* [sym+off]: resolved below */
				for (uint32_t k = 0; k < f->nvars && !a.known; k++)
					if (px_str_eq(f->vars[k].name, ad->sym)) {
						a.known = true;
						prov = f->vars[k].space == PX_SPACE_LOCAL ? PX_PROV_LOCAL :
						       f->vars[k].space == PX_SPACE_SHARED ? PX_PROV_SHARED : PX_PROV_NONE;
					}
				for (uint32_t k = 0; k < m->nvars && !a.known; k++)
					if (px_str_eq(m->vars[k].name, ad->sym)) {
						a.known = true;
						prov = m->vars[k].space == PX_SPACE_SHARED ? PX_PROV_SHARED :
						       m->vars[k].space == PX_SPACE_GLOBAL ? PX_PROV_GLOBAL :
						       m->vars[k].space == PX_SPACE_CONST ? PX_PROV_CONST : PX_PROV_NONE;
					}
				/* a variable's own address: aligned, uniform; only the offset counts */
			}
			uint8_t space = in->space;
			if (in->op == PX_OP_CP)
				space = PX_SPACE_GLOBAL;   /* the address operand read is the global source */
			if (space == PX_SPACE_SHARED_CTA || space == PX_SPACE_SHARED_CLUSTER)
				space = PX_SPACE_SHARED;
			if (space == PX_SPACE_NONE || space == PX_SPACE_GENERIC) {
				space = prov == PX_PROV_GLOBAL || prov == PX_PROV_PARAM_PTR ? PX_SPACE_GLOBAL
				      : prov == PX_PROV_SHARED ? PX_SPACE_SHARED
				      : prov == PX_PROV_LOCAL ? PX_SPACE_LOCAL
				      : prov == PX_PROV_CONST ? PX_SPACE_CONST : PX_SPACE_GENERIC;
			}
			if (in->op == PX_OP_LDMATRIX || in->op == PX_OP_STMATRIX)
				space = PX_SPACE_SHARED;
			r->space = space;
			if (!a.known || !r->bytes) {
				/* pattern "unknown" says it all */
				if (space == PX_SPACE_LOCAL) {
					r->dynamic_local = true;
					res->ndynamic_local++;
				}
				continue;
			}
			bool unsure = false;
			for (uint32_t k = 0; k < a.nterms; k++)
				unsure |= an->atoms[a.t[k].atom].unsure;
			if (unsure) {
				/* lanes running together may hold different counts: the
				 * per-lane pattern is not known */
				r->why = "the address uses a loop counter that lanes may hold differently"
				         " (after a divergent branch or loop exit)";
				if (space == PX_SPACE_LOCAL) {
					r->dynamic_local = true;
					res->ndynamic_local++;
				}
				continue;
			}
			r->pattern = PX_PATTERN_AFFINE;
			bool thread = px_aff_has_thread(an, &a);
			if (space == PX_SPACE_LOCAL) {
				if (thread) {
					r->dynamic_local = true;
					res->ndynamic_local++;
					r->why = "the offset into local memory varies by thread";
				} else {
					r->sectors = r->ideal_sectors = (r->bytes * 32 + SECTOR - 1) / SECTOR;
				}
				continue;
			}
			if (space != PX_SPACE_GLOBAL && space != PX_SPACE_SHARED)
				continue;
			if (in->op == PX_OP_LDMATRIX || in->op == PX_OP_STMATRIX) {
				r->why = "ldmatrix/stmatrix bank phases are not modelled";
				continue;
			}

			/* U = c + k * A; T per lane */
			int64_t c0 = a.c + ad->imm;
			uint64_t A = 1u << 12;
			struct px_aff t = {.known = true};
			for (uint32_t k = 0; k < a.nterms; k++) {
				const struct px_atom *at = &an->atoms[a.t[k].atom];
				if (at->thread) {
					t.t[t.nterms++] = a.t[k];
					continue;
				}
				uint64_t al = at->align;
				if (at->kind == PX_ATOM_PARAM && a.t[k].coef == 1 && at->a < f->nparams &&
				    px_type_bits(f->params[at->a].type) == 64)
					al = 256;
				uint64_t cf = a.t[k].coef < 0 ? 0 - (uint64_t)a.t[k].coef : (uint64_t)a.t[k].coef;
				uint64_t v = (cf & (0 - cf)) * al;
				if (v < A)
					A = v;
			}
			/* the lanes of each warp that reaches the access */
			bool needs_mask = in->guard >= 0 && an->uni[in->guard] == PX_UNI_DIVERGENT;
			for (uint32_t d = bb->idom, depth = 0; !needs_mask && depth < 64; d = f->blocks[d].idom, depth++) {
				const struct px_block *db = &f->blocks[d];
				if (db->end > db->first) {
					const struct px_insn *br = &f->insns[db->end - 1];
					if (br->op == PX_OP_BRA && br->guard >= 0 && an->uni[br->guard] == PX_UNI_DIVERGENT)
						needs_mask = true;
				}
				if (d == db->idom)
					break;
			}
			/* linear in tid with whole warps along x: every warp is lane 0's
			 * offset plus the same per-lane pattern */
			bool linear = an->block[0] % 32 == 0;
			int64_t cx = 0;
			for (uint32_t k = 0; k < t.nterms && linear; k++) {
				const struct px_atom *at = &an->atoms[t.t[k].atom];
				if (at->kind != PX_ATOM_TID)
					linear = false;
				else if (at->a == 0)
					cx = t.t[k].coef;
			}
			uint32_t npat = 0;
			bool mask_known = true, ok = true;
			const uint32_t *masks = NULL;
			if (needs_mask && in->guard >= 0 && an->uni[in->guard] == PX_UNI_DIVERGENT) {
				px_reach_masks(f, i, true, NULL, NULL, pmask, &mask_known);
				masks = pmask;
			} else if (needs_mask) {
				uint32_t b = in->block;
				if (!bstate[b]) {
					bool kn;
					px_reach_masks(f, i, false, NULL, NULL, bmask + (size_t)b * nwarps, &kn);
					bstate[b] = kn ? 1 : 2;
				}
				masks = bmask + (size_t)b * nwarps;
				mask_known = bstate[b] == 1;
			}
			for (uint32_t w = 0; w < nwarps && ok; w++) {
				uint32_t mask;
				if (needs_mask) {
					mask = masks[w];
				} else {
					mask = nlanes[w] == 32 ? 0xffffffffu : ((1u << nlanes[w]) - 1);
				}
				if (!mask)
					continue;
				struct warp_pat p = {.mask = mask, .count = 1};
				if (!thread && !needs_mask && npat == 1 && pats[0].mask == mask) {
					pats[0].count++;
					continue;
				}
				if (linear && !needs_mask) {
					struct px_eval_env env = {.tid = {tids[w][0][0], tids[w][0][1], tids[w][0][2]}};
					int64_t o0;
					ok = px_aff_eval(an, &t, &env, &o0);
					for (uint32_t l = 0; l < 32; l++)
						p.off[l] = o0 + cx * (int64_t)l;
				}
				if (ok && !(linear && !needs_mask))
					ok = px_aff_eval_warp(an, &t, w, mask, NULL, NULL, p.off);
				/* dedupe: the same offsets up to a multiple of 128 bytes */
				uint32_t q;
				for (q = 0; q < npat; q++) {
					if (pats[q].mask != p.mask)
						continue;
					int64_t d0 = 0;
					bool same = true;
					bool firstl = true;
					for (uint32_t l = 0; l < 32 && same; l++) {
						if (!(mask >> l & 1))
							continue;
						int64_t d = p.off[l] - pats[q].off[l];
						if (firstl) {
							d0 = d;
							firstl = false;
							same = d % 128 == 0;
						} else {
							same = d == d0;
						}
					}
					if (same)
						break;
				}
				if (q < npat)
					pats[q].count++;
				else
					pats[npat++] = p;
			}
			if (!ok) {
				r->pattern = PX_PATTERN_UNKNOWN;
				r->why = "a thread term of the address cannot be evaluated";
				continue;
			}
			if (!npat) {
				r->why = "no warp of the launch block reaches it";
				continue;
			}
			uint32_t total = 0;
			for (uint32_t q = 0; q < npat; q++)
				total += pats[q].count;
			bool shared = space == PX_SPACE_SHARED;
			bool word_aligned = r->bytes >= 4 && A >= 4 && c0 % 4 == 0;
			for (uint32_t q = 0; q < npat && word_aligned; q++)
				for (uint32_t l = 0; l < 32; l++)
					if ((pats[q].mask >> l & 1) && pats[q].off[l] % 4 != 0)
						word_aligned = false;
			uint64_t G = shared ? (word_aligned ? 4 : 128) : SECTOR;
			uint64_t step = A < G ? A : G;
			double sum = -1, isum = -1;
			bool agree = true;
			for (uint64_t res0 = 0; res0 < G && agree; res0 += step) {
				int64_t base = (((c0 + (int64_t)res0) % (int64_t)G) + (int64_t)G) % (int64_t)G;
				if (A >= G)
					base = ((c0 % (int64_t)G) + (int64_t)G) % (int64_t)G;
				double s = 0, is = 0;
				for (uint32_t q = 0; q < npat; q++) {
					int64_t ad2[32];
					for (uint32_t l = 0; l < 32; l++)
						ad2[l] = base + pats[q].off[l];
					uint32_t x, y;
					if (shared)
						wavefronts(ad2, pats[q].mask, r->bytes, &x, &y);
					else
						sectors(ad2, pats[q].mask, r->bytes, &x, &y);
					s += (double)x * pats[q].count;
					is += (double)y * pats[q].count;
				}
				s /= total;
				is /= total;
				if (sum < 0) {
					sum = s;
					isum = is;
				} else if (s != sum || is != isum) {
					agree = false;
				}
				if (A >= G)
					break;
			}
			if (!agree) {
				r->why = "depends on an unknown alignment";
				continue;
			}
			if (shared) {
				r->wavefronts = sum;
				r->ideal_wavefronts = isum;
			} else {
				r->sectors = sum;
				r->ideal_sectors = isum;
			}
			if (!mask_known)
				r->why = "assumes unknown conditions hold";
		}
	}
	free(pats);
	free(bmask);
	free(bstate);
	free(pmask);
	fill_loop_recs(m, f);
}

void px_dump_access(struct px_buf *out, const struct px_module *m, const struct px_func *f)
{
	(void)m;
	px_buf_printf(out, "access " PX_STR_FMT ":\n", PX_STR_ARG(f->name));
	for (uint32_t i = 0; f->res && i < f->res->nacc; i++) {
		const struct px_access_rec *r = &f->res->acc[i];
		px_buf_printf(out, "  line %u: %s %s %uB depth %u", r->line, px_opcode_name(r->op),
		              px_space_name(r->space), r->bytes, r->depth);
		if (r->sectors >= 0)
			px_buf_printf(out, " sectors %g ideal %g", r->sectors, r->ideal_sectors);
		if (r->wavefronts >= 0)
			px_buf_printf(out, " wavefronts %g ideal %g", r->wavefronts, r->ideal_wavefronts);
		if (r->why)
			px_buf_printf(out, " (%s)", r->why);
		px_buf_puts(out, "\n");
	}
}
