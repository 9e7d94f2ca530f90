/* simt_fuse.c: which PTX instructions cost no issue slot once ptxas has
 * compiled the loop to SASS. The simulator runs PTX; ptxas folds, fuses and
 * hoists, so a PTX-level count of issue slots and dependent steps is too
 * high where these rewrites apply. Each rule below is what ptxas 13.0 does
 * on sm_90 in tests/fixtures/simt/simt_bench.sm_90.sass (the SASS of the
 * benchmark whose PTX the timing is judged on):
 *
 *  - IADD3: an integer add/sub of 32 bits whose only use is another 32-bit
 *    add/sub (dram_lat: add.s32 + add.s32 1040 -> one IADD3).
 *  - LOP3: a 32-bit and/or/xor/not whose only use is another (any
 *    three-input logic function is one LOP3.LUT), or an and whose only
 *    use is a setp.eq/ne of it against 0 (a bit test: LOP3.LUT writes the
 *    predicate, `LOP3.LUT P3, RZ, R0, 0x1, RZ, 0xc0, !PT` in held-out 7
 *    and 8's SASS; held-out 8's select_hash_loop +30%/+38% at 512/1024
 *    threads with the and charged, +3%/+7% free).
 *  - IMAD.WIDE / IMAD / LEA: mul.wide.{u32,s32}, mul.lo of 32 bits, or shl
 *    by an immediate whose only use is an add of the product's width
 *    (dram_lat: mul.wide.u32 + add.s64 -> IMAD.WIDE.U32; global_stream's
 *    shl + add -> LEA/LEA.HI.X).
 *  - VIADDMNMX / VIMNMX3 (compute capability 9.0 on, the DPX instructions):
 *    a 32-bit integer add/sub, or a 32-bit min/max, whose only use is a
 *    min/max of the same kind and width; a consumer takes one such source
 *    and one that took one is not taken in turn (three inputs: VIADDMNMX
 *    R, A, B, C is max(A + B, C), VIMNMX3 max(A, B, C)). held-out 15's
 *    sw_align_loop: Smith-Waterman's max(E - 1, H - 3) and
 *    max(max(d, 0), max(e, f)), 121 VIADDMNMX and 96 VIMNMX3 in its SASS
 *    (+28% and +40% with each PTX add and max charged).
 *  - SHF: shl.b32 by an immediate k and shr.u32 by 32 - k whose only use
 *    is one or/add/xor of both (a rotate, or a funnel shift of two
 *    registers) are one SHF.L.U32.HI with it (hash_loop in
 *    tests/fixtures/simt/heldout4/simt_heldout4.sm_90.sass: (h << 5) |
 *    (h >> 27)); the two shifts are free.
 *  - zero extension: cvt.u64.u32 used only by 64-bit add/shl/mul.wide (a
 *    register pair with RZ as its upper half; LEA.HI.X takes it as is).
 *  - addressing modes: add.s64 of an immediate whose every use is the base
 *    of a ld/st/atom address ([R+imm]).
 *  - copies: mov of a register or an immediate (register allocation and
 *    immediate operands remove them); not special registers, not packs;
 *    and unpacks, mov of a register into a vector of its parts (SASS
 *    reads a half or a word of a pair in place: held-out 14's
 *    half2_silu_loop, 16 cvt.f32.f16 of unpacked halves, 16 HADD2.F32 and
 *    no unpack in its SASS).
 *  - vector shared loads: 2 or 4 ld.shared of 4 bytes from one base
 *    register, or at one shared variable named in the address, at
 *    consecutive offsets, the first a multiple of 8 or 16 and the base
 *    provably that aligned (its definitions: a shared variable's address
 *    plus shifted or scaled values), become one LDS.64/LDS.128 (gemm_loop:
 *    As[ty][k..k+3] -> LDS.128 [R6+0x10]; held-out 17's hdot_top2_loop:
 *    tile[kk * 32 + d], [sym+imm] in PTX, -> LDS.128 [UR4+0x10]); the
 *    first keeps the issue slot and pays the wavefronts of the wider
 *    access (vecw), the others' values arrive with its (exec_free).
 *  - if-conversion: a conditional forward branch over one basic block
 *    without branches, barriers, warp-wide operations or expansions
 *    (held-out 5's compact_loop branches around its remainder: @!P2 BRA
 *    over I2F.U32.RP, MUFU.RCP...; predicable()) becomes predicated
 *    code when the block has at most 15 instructions and the predicate may
 *    differ between the lanes of a warp (fill_uniform), or at most 7 that
 *    take an issue slot (not free) and it cannot (stencil2d_loop's halo
 *    loads under `if (tx < 2)` and `if (ty < 2)`: three LDG issued back to
 *    back, then three STS, no branch; dc_probe's `if (tid < 16)` over 8
 *    instructions, and its warp-uniform remainder steps of 2, predicated;
 *    heldout5's skip_work_loop, 6 FMAs and a neg under a warp-uniform
 *    `continue` (15 PTX instructions with the constants' movs), predicated;
 *    bt_probe's warp-uniform branches over 8 FMAs kept. A limit of 4 PTX
 *    instructions, before, predicted skip_work_loop 37% to 42% slow at 128
 *    and 256 threads; from 2 to 7 issuing ones no other measured loop
 *    moves); marked ifconv for the scheduler's lookahead, and such a
 *    branch costs nothing when it falls through.
 *  - if/else: a conditional branch to two single blocks of at most 16
 *    instructions in all (IFCONV_DIAMOND_MAX; 7 that issue under a
 *    warp-uniform condition),
 *    without control, barriers, warp-wide operations, guards or
 *    expansions, the first ending with a jump past the second, which
 *    falls through to where they join (mark_diamonds): ptxas predicates
 *    both sides (held-out 5's clip_sum_loop, held-out 6's state_loop,
 *    held-out 2's bitonic_loop: FFMA/FMNMX/IMAD.MOV under @P and @!P, no
 *    branch; held-out 7's wide_ifelse_loop, 5 FFMAs a side, and three of
 *    shared_pick_loop's four of 13 instructions; div_probe's div_ifelse,
 *    24 FFMAs, keeps its branch); its three branches are free, the warp
 *    does not split, and the code up to the join is straight-line for
 *    the lookahead.
 *  - unrolled again (mark_reunrolled): a short loop nvcc unrolled by 4
 *    with a trip count known at run time becomes 16-, 8- and 4-body parts
 *    in SASS: three of four back edges are straight-line code (no branch
 *    latency, issue_early's lookahead goes on into the next copy), and
 *    leaving the loop costs the checks that pick the parts (issue()).
 *    sbase_probe's sb_nobar/128 +84% -> +17%, kloop_probe's kl_fma_k4
 *    -39% -> -4% (86 of the 99 loops it moves closer).
 *  - predicate feeders: the register-only instructions that compute a
 *    conditional branch's predicate from earlier blocks' values, copies
 *    among them (mark_predicate_feeders).
 *  - loop invariants: a non-memory instruction of a loop whose sources are
 *    all defined outside the loop (or by such hoisted instructions), whose
 *    destination is defined by it alone (ptxas hoists it; shared_tput's
 *    loop-invariant shared loads showed the hoisting, the rule keeps to
 *    arithmetic because loads may alias stores in the loop); a pack of
 *    invariant parts too (half2_silu_loop's __float2half2_rn of
 *    constants, mov.b32 %r, {h, h} in every iteration of its PTX,
 *    immediates in its SASS: +22% and +35% with them issued, +3% and -24%
 *    hoisted, the unpacks free as well).
 *  - selects (mark_selects): a selp of two values only it reads, each
 *    computed in its block by one arithmetic instruction (ptxas writes the
 *    second over the first under the predicate), unless its predicate is
 *    computed from what the values are computed from (pred_on_chain).
 *  - expansions (mark_expansions): integer division and remainder by a
 *    register, IEEE division and square root, single-precision reciprocal,
 *    which ptxas writes as sequences; not free: sim.ex_lat and ex_issue (the
 *    arch table's latency.idiv... and throughput.idiv_issue...) cost them.
 *
 *  - shared window bases (mark_shared_bases): on a target with thread
 *    block clusters a shared variable's address is the CTA's window base,
 *    SR_CgaCtaId << 24, plus the variable's offset (S2UR SR_CgaCtaId;
 *    UMOV 0x400; ULEA). Where a loop holds another loop, ptxas rebuilds
 *    that base in the loop instead of keeping it in a register across the
 *    inner one: every kernel of the committed SASS fixtures whose PTX
 *    names a shared variable in such a loop (outside its inner loops)
 *    does (bar_probe's bs_*, cpa_db4, cpa_ring3, mb_bulk, mb_pipe,
 *    mm2x2_loop, softmax_loop, tc_pipe_loop, tc_pipe_k2_loop, and
 *    sbase2_probe's sn_in, predicted before it was compiled: 12 of 12).
 *    Where the loop also has a block barrier the rebuild is on the path
 *    after it: a mov of the address there is not hoisted and takes
 *    latency.shared_base, the block's first load or atomic at the bare
 *    variable ([sym]) takes it on top of its own, and the later ones wait
 *    for that base, not for one of their own (a store has no result to
 *    delay: its wait for the address is not modelled): ptxas rebuilds it
 *    once into a uniform register (hdot_top2_loop's SASS: one S2UR and
 *    ULEA, then 32 LDS.128 [UR4+...]; +59% with every load charged) and
 *    again after a call or loop it writes for an instruction (a
 *    division's: held-out 13's ticket_welford_loop). mb_pipe, without a
 *    barrier, is measured without it (+20% to +54% with it). Not in a loop
 *    without an inner one: sbase_probe's sb_sym, sb_sym1 and sb_two,
 *    atoms_bar and cpa_db16 keep the base in a register (the rule's
 *    first form charged every barrier loop; sbase_probe's blind run
 *    refuted it, +31% to +90%), while reduce_loop, bsearch_loop,
 *    compact_loop, shared_pick_loop and matvec_loop rebuild it in loops
 *    without inner ones. Of those, the rebuilds inside a branch that may
 *    split the warp and that ptxas does not predicate are modelled (a
 *    shared atomic's branch, which ptxas never predicates, counts
 *    always): shared_pick_loop's if/else, held-out 11's compact_loop,
 *    held-out 12's match_hist_loop, lane0_probe's l0_add, its_probe's
 *    its_lock_done; mb_pipe's warp-uniform branch, which ptxas unswitches,
 *    has none. reduce_loop's predicated stores and the rest are not.
 *
 * A free instruction still executes (its values are needed) but takes no
 * scheduler slot, no pipe and no latency of its own: its results are ready
 * when its sources are. The fused consumer keeps its own cost. */
#include <stdlib.h>
#include <string.h>

#include "../../arch/arch.h"
#include "simt_int.h"
#include "../analysis.h"

static bool is_int32_add(const struct px_insn *in)
{
	if (in->op != PX_OP_ADD && in->op != PX_OP_SUB)
		return false;
	if (!in->ntypes || in->mods & (PX_MOD_SAT | PX_MOD_CC))
		return false;
	char k = px_type_kind(in->types[0]);
	return (k == 's' || k == 'u' || k == 'b') && px_type_bits(in->types[0]) == 32;
}

/* a 32-bit integer min or max (the DPX fusions' consumer) */
static bool is_minmax32(const struct px_insn *in)
{
	if ((in->op != PX_OP_MIN && in->op != PX_OP_MAX) || !in->ntypes || in->nopnds != 3)
		return false;
	char k = px_type_kind(in->types[0]);
	return (k == 's' || k == 'u') && px_type_bits(in->types[0]) == 32;
}

static bool is_logic32(const struct px_insn *in)
{
	if (in->op != PX_OP_AND && in->op != PX_OP_OR && in->op != PX_OP_XOR && in->op != PX_OP_NOT)
		return false;
	return in->ntypes && in->types[0] != PX_TYPE_PRED && px_type_bits(in->types[0]) == 32;
}

static bool is_add_bits(const struct px_insn *in, unsigned bits)
{
	if (in->op != PX_OP_ADD || !in->ntypes || in->mods & (PX_MOD_SAT | PX_MOD_CC))
		return false;
	char k = px_type_kind(in->types[0]);
	return (k == 's' || k == 'u' || k == 'b') && px_type_bits(in->types[0]) == bits;
}

/* setp.eq or setp.ne of a 32-bit integer register against 0, without a
 * combining predicate: a LOP3.LUT that writes a predicate takes the and
 * before it (`LOP3.LUT P3, RZ, R0, 0x1, RZ, 0xc0, !PT`: held-out 7 and
 * 8's SASS) */
static bool zero_test(const struct px_insn *c)
{
	if (c->op != PX_OP_SETP || c->nopnds != 3 || !c->ntypes || px_type_bits(c->types[c->ntypes - 1]) != 32 ||
	    px_type_kind(c->types[c->ntypes - 1]) == 'f' || c->opnds[2].kind != PX_OPND_IMM || c->opnds[2].imm != 0)
		return false;
	return sim_has_mod(c, ".eq") || sim_has_mod(c, ".ne");
}

/* the register a single-destination instruction writes, -1 if not one */
static int32_t single_def(const struct px_func *f, uint32_t i)
{
	uint32_t n;
	const int32_t *d = px_func_defs(f, i, &n);
	return n == 1 ? d[0] : -1;
}

static bool special_src(const struct px_insn *in)
{
	for (uint32_t k = 0; k < in->nopnds; k++)
		if (in->opnds[k].kind == PX_OPND_SREG || in->opnds[k].kind == PX_OPND_VEC)
			return true;
	return false;
}

/* a special register among its operands (loop invariants: a pack of
 * invariant parts, mov.b32 %r, {h, h}, is one too) */
static bool sreg_src(const struct px_insn *in)
{
	for (uint32_t k = 0; k < in->nopnds; k++)
		if (in->opnds[k].kind == PX_OPND_SREG)
			return true;
	return false;
}

/* each register's users and definers (instruction indices), as CSR lists */
struct regrefs {
	uint32_t *ustart, *ulist, *dstart, *dlist;
};

static void regrefs_build(const struct px_func *f, struct regrefs *r)
{
	uint32_t nr = f->nregs;
	r->ustart = xcalloc(nr + 2, sizeof *r->ustart);
	r->dstart = xcalloc(nr + 2, sizeof *r->dstart);
	for (int pass = 0; pass < 2; pass++) {
		uint32_t *uc = pass ? xcalloc(nr + 1, sizeof *uc) : NULL, *dc = pass ? xcalloc(nr + 1, sizeof *dc) : NULL;
		for (uint32_t i = 0; i < f->ninsns; i++) {
			uint32_t n;
			const int32_t *u = px_func_uses(f, i, &n);
			for (uint32_t k = 0; k <= n; k++) {
				int32_t g = k < n ? u[k] : f->insns[i].guard;
				if (g < 0)
					continue;
				if (pass)
					r->ulist[r->ustart[g] + uc[g]++] = i;
				else
					r->ustart[g + 1]++;
			}
			const int32_t *d = px_func_defs(f, i, &n);
			for (uint32_t k = 0; k < n; k++) {
				if (pass)
					r->dlist[r->dstart[d[k]] + dc[d[k]]++] = i;
				else
					r->dstart[d[k] + 1]++;
			}
		}
		if (!pass) {
			for (uint32_t g = 0; g < nr; g++) {
				r->ustart[g + 1] += r->ustart[g];
				r->dstart[g + 1] += r->dstart[g];
			}
			r->ulist = xcalloc(r->ustart[nr] + 1, sizeof *r->ulist);
			r->dlist = xcalloc(r->dstart[nr] + 1, sizeof *r->dlist);
		}
		free(uc);
		free(dc);
	}
}

static void regrefs_free(struct regrefs *r)
{
	free(r->ustart);
	free(r->ulist);
	free(r->dstart);
	free(r->dlist);
}

/* every use of register d satisfies ok(user, d) */
static bool all_uses(const struct px_func *f, const struct regrefs *r, int32_t d,
                     bool (*ok)(const struct px_insn *, int32_t))
{
	if (r->ustart[d] == r->ustart[d + 1])
		return false;
	for (uint32_t k = r->ustart[d]; k < r->ustart[d + 1]; k++)
		if (!ok(&f->insns[r->ulist[k]], d))
			return false;
	return true;
}

static bool zext_user(const struct px_insn *c, int32_t d)
{
	(void)d;
	return is_add_bits(c, 64) || c->op == PX_OP_SHL || (c->op == PX_OP_MUL && c->mods & PX_MOD_WIDE);
}

static bool address_user(const struct px_insn *c, int32_t d)
{
	unsigned fl = px_opcode_flags(c->op);
	if (!(fl & (PX_OPF_LOAD | PX_OPF_STORE | PX_OPF_ATOMIC)) || c->guard == d)
		return false;
	for (uint32_t o = 0; o < c->nopnds; o++)
		if (c->opnds[o].kind == PX_OPND_REG && c->opnds[o].reg == d)
			return false;   /* stored as a value, not an address */
	return true;
}

/* The alignment (a power of two, at most 16) register r is known to have,
 * from its single definition; 1 when unknown. */
/* The variable named name (the function's, then the module's) and, in
 * *addr, where the simulated layout put it; NULL (*addr untouched) when
 * no variable has that name. */
static const struct px_var *find_var(const struct sim *s, px_str name, uint64_t *addr)
{
	for (uint32_t i = 0; i < s->f->nvars; i++)
		if (px_str_eq(s->f->vars[i].name, name)) {
			*addr = s->var_addr[i];
			return &s->f->vars[i];
		}
	for (uint32_t i = 0; i < s->m->nvars; i++)
		if (px_str_eq(s->m->vars[i].name, name)) {
			*addr = s->mvar_addr[i];
			return &s->m->vars[i];
		}
	return NULL;
}

static uint32_t reg_align(const struct sim *s, const struct regrefs *rr, int32_t r, int depth);

static uint32_t opnd_align(const struct sim *s, const struct regrefs *rr, const struct px_operand *o, int depth)
{
	switch (o->kind) {
	case PX_OPND_IMM: {
		uint64_t v = (uint64_t)o->imm;
		return v == 0 ? 16 : (v & -v) >= 16 ? 16 : (uint32_t)(v & -v);
	}
	case PX_OPND_SYM: {
		/* where the variable lies in the simulated layout (ptxas places
		 * a block's shared arrays on 16-byte boundaries in the same way) */
		uint64_t addr = 1;
		find_var(s, o->sym, &addr);
		return addr == 0 || (addr & -addr) >= 16 ? 16 : (uint32_t)(addr & -addr);
	}
	case PX_OPND_REG:
		return reg_align(s, rr, o->reg, depth + 1);
	default:
		return 1;
	}
}

static uint32_t reg_align(const struct sim *s, const struct regrefs *rr, int32_t r, int depth)
{
	if (depth > 8 || rr->dstart[r + 1] - rr->dstart[r] != 1)
		return 1;
	const struct px_insn *in = &s->f->insns[rr->dlist[rr->dstart[r]]];
	if (in->guard >= 0 || in->nopnds < 2)
		return 1;
	const struct px_operand *a = &in->opnds[1], *b = in->nopnds > 2 ? &in->opnds[2] : NULL;
	uint32_t x, y;
	switch (in->op) {
	case PX_OP_MOV: case PX_OP_CVTA: case PX_OP_CVT:
		return opnd_align(s, rr, a, depth);
	case PX_OP_ADD: case PX_OP_SUB:
		if (!b)
			return 1;
		x = opnd_align(s, rr, a, depth);
		y = opnd_align(s, rr, b, depth);
		return x < y ? x : y;
	case PX_OP_SHL:
		if (!b || b->kind != PX_OPND_IMM || b->imm < 0)
			return 1;
		x = opnd_align(s, rr, a, depth);
		return b->imm >= 4 ? 16 : (x << b->imm) > 16 ? 16 : x << b->imm;
	case PX_OP_MUL: case PX_OP_MAD:
		if (!b || in->op == PX_OP_MAD)
			return 1;
		x = opnd_align(s, rr, a, depth) * opnd_align(s, rr, b, depth);
		return x > 16 ? 16 : x;
	case PX_OP_AND:
		/* clears bits: as aligned as either side (held-out 12's
		 * dp4a_gemv_loop reads xs[i & 7][k] at [xs + ((i << 7) & 896) + 4k]:
		 * 8 LDS.128 an iteration in its SASS) */
		if (!b)
			return 1;
		x = opnd_align(s, rr, a, depth);
		y = opnd_align(s, rr, b, depth);
		return x > y ? x : y;
	default:
		return 1;
	}
}

/* a 4-byte ld.shared of [reg+imm] or [var+imm]: its address operand. Not
 * a volatile, relaxed or acquire one: each is an access of its own
 * (reunroll_probe's ru_ld_m2 reads zero[0] and zero[1] volatile: two LDS
 * in its SASS; merged, the loop was predicted 50% fast at 512 threads) */
static const struct px_operand *lds4(const struct px_insn *in)
{
	if (in->op != PX_OP_LD || in->vec > 1 || in->guard >= 0 || (in->mods & PX_MOD_VOLATILE) ||
	    sim_has_mod(in, ".relaxed") || sim_has_mod(in, ".acquire") ||
	    (in->space != PX_SPACE_SHARED && in->space != PX_SPACE_SHARED_CTA) || !in->ntypes ||
	    px_type_bits(in->types[in->ntypes - 1]) != 32 || in->nopnds != 2 || in->opnds[1].kind != PX_OPND_ADDR ||
	    (in->opnds[1].reg < 0) == !in->opnds[1].sym.n)
		return NULL;
	return &in->opnds[1];
}

/* Do two lds4 addresses have the same base? */
static bool same_base(const struct px_operand *a, const struct px_operand *b)
{
	return a->reg >= 0 ? a->reg == b->reg : b->reg < 0 && px_str_eq(a->sym, b->sym);
}

/* Groups of 2 or 4 ld.shared that ptxas makes one vector load: of one
 * base register, or of one shared variable named in the address
 * (held-out 17's hdot_top2_loop reads tile[kk * 32 + d] at constant
 * offsets from the array, 128 ld.shared.u32 an iteration, 32 LDS.128 in
 * its SASS). */
static void mark_vector_loads(struct sim *s, const struct regrefs *rr)
{
	const struct px_func *f = s->f;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct px_block *bl = &f->blocks[b];
		for (uint32_t i = bl->first; i < bl->end; i++) {
			const struct px_operand *base = lds4(&f->insns[i]);
			if (s->ins[i].free || s->ins[i].vecw || !base)
				continue;
			int64_t off = base->imm;
			struct px_operand sym = {.kind = PX_OPND_SYM, .sym = base->sym};
			uint32_t al = base->reg >= 0 ? reg_align(s, rr, base->reg, 0) : opnd_align(s, rr, &sym, 0);
			uint32_t want = off % 16 == 0 && al >= 16 ? 4 : off % 8 == 0 && al >= 8 ? 2 : 0;
			for (; want >= 2; want /= 2) {
				uint32_t member[4] = {i, 0, 0, 0}, got = 1;
				/* the others later in the block, before base is redefined */
				for (uint32_t j = i + 1; j < bl->end && got < want; j++) {
					const struct px_operand *b2 = lds4(&f->insns[j]);
					int64_t o2 = b2 ? b2->imm : 0;
					if (b2 && same_base(base, b2) && o2 > off && o2 < off + 4 * (int64_t)want &&
					    (o2 - off) % 4 == 0 && !s->ins[j].free && !s->ins[j].vecw) {
						bool dup = false;
						for (uint32_t q = 1; q < got; q++)
							dup |= f->insns[member[q]].opnds[1].imm == o2;
						if (!dup)
							member[got++] = j;
					}
					uint32_t nd;
					const int32_t *d = px_func_defs(f, j, &nd);
					bool redef = false;
					for (uint32_t q = 0; q < nd; q++)
						redef |= base->reg >= 0 && d[q] == base->reg;
					unsigned fl = px_opcode_flags(f->insns[j].op);
					if (redef || fl & (PX_OPF_STORE | PX_OPF_ATOMIC | PX_OPF_BARRIER | PX_OPF_BRANCH))
						break;
				}
				if (got == want) {
					s->ins[i].vecw = (uint8_t)want;
					for (uint32_t q = 1; q < got; q++) {
						s->ins[member[q]].free = 1;
						s->ins[member[q]].vecw = 1;
					}
					break;
				}
			}
		}
	}
}

/* The instructions of a block that only compute its closing branch's
 * predicate, from values of earlier blocks, become free: ptxas computes
 * such predicates as soon as their sources are ready (bt_probe's and
 * branch_taken's SASS compute the eight predicates of eight branches
 * with LOP3 before the first; dc_probe's dispatch ISETPs sit blocks
 * before their branches), so in SASS the branch finds its predicate
 * ready and costs the branch latency alone, where the PTX puts an
 * and/setp chain before it. A candidate writes one register, has no
 * guard, computes on registers only (sim_insn.reg_only, no vector
 * operand), and every reader of its result is the branch or
 * another candidate after it; one that reads a register written earlier
 * in the block by a non-candidate stays. An instruction free already (a
 * copy) is a candidate like any other: nvcc tests bit 0 with setp, a
 * mov.pred of false, xor.pred and not.pred, one LOP3 or ISETP in SASS
 * (rd_probe, bt_probe), and the copy must not stop the chain
 * (tests/golden/simt/pred_fold.ptx). Not for if-converted branches or
 * if/else statements (no branch in SASS). */
static void mark_predicate_feeders(struct sim *s, const struct regrefs *rr)
{
	const struct px_func *f = s->f;
	uint8_t *cand = xcalloc(f->ninsns + 1, 1);   /* per instruction, in the block at hand */
	for (uint32_t bi = 0; bi < f->nblocks; bi++) {
		const struct px_block *b = &f->blocks[bi];
		if (b->end <= b->first)
			continue;
		uint32_t br = b->end - 1;
		if (f->insns[br].op != PX_OP_BRA || f->insns[br].guard < 0 || s->ins[br].ifconv || s->ins[br].diamond)
			continue;
		for (uint32_t i = br; i-- > b->first;) {
			int32_t d = single_def(f, i);
			cand[i] = 0;
			if (d < 0 || f->insns[i].guard >= 0 || !s->ins[i].reg_only || special_src(&f->insns[i]))
				continue;
			bool ok = true;
			for (uint32_t k = rr->ustart[d]; k < rr->ustart[d + 1] && ok; k++) {
				uint32_t u = rr->ulist[k];
				ok = u == br || (u > i && u < br && cand[u]);
			}
			cand[i] = ok;
		}
		for (uint32_t i = b->first; i < br; i++) {
			uint32_t n;
			const int32_t *u = cand[i] ? px_func_uses(f, i, &n) : NULL;
			for (uint32_t k = 0; u && k < n && cand[i]; k++)
				for (uint32_t q = rr->dstart[u[k]]; q < rr->dstart[u[k] + 1]; q++) {
					uint32_t dd = rr->dlist[q];
					if (dd >= b->first && dd < i && !cand[dd])
						cand[i] = 0;
				}
		}
		for (uint32_t i = b->first; i < br; i++)
			if (cand[i])
				s->ins[i].free = 1;
	}
	free(cand);
}

/* Whether register r has no definition inside loop l but hoisted ones. */
static bool invariant_in(const struct sim *s, const struct regrefs *rr, int32_t r, int32_t l)
{
	const struct px_func *f = s->f;
	if (l < 0)
		return false;
	const struct px_loop *lp = &f->loops[l];
	for (uint32_t q = rr->dstart[r]; q < rr->dstart[r + 1]; q++) {
		uint32_t j = rr->dlist[q];
		if (sim_loop_has_block(lp, f->insns[j].block) && !s->ins[j].hoisted)
			return false;
	}
	return true;
}

/* The most instructions that take an issue slot in a region ptxas
 * predicates under a warp-uniform condition (the file's comment). */
#define UNIFORM_IFCONV 7
/* The most instructions of a region ptxas predicates under a branch it
 * cannot prove warp-uniform (the file's comment): bssy_probe, 8 FMAs
 * predicated, 16 kept. */
#define IFCONV_MAX 15
/* ... and of both sides of an if/else (mark_diamonds): held-out 22's
 * bitmat_transpose_loop, 8 instructions a side, predicated (its SASS has
 * no BSSY, no branch in the loop; with the branches 26% slow at 128
 * threads); div_probe's div_ifelse, 12 FFMAs a side, kept. */
#define IFCONV_DIAMOND_MAX 16

static uint8_t expansion_of(const struct sim *s, const struct regrefs *rr, uint32_t i);

/* Whether ptxas can predicate instruction j in a region it if-converts:
 * no control, barrier or warp-wide operation, no sequence in SASS (an
 * expansion: idiv_probe's div_var_u64 keeps the branch around its
 * divisions), no shared atomic and no atomic it aggregates (sim_insn.agg;
 * agg_probe's lane-0 adds, lane0_probe's l0_add and held-out 11's
 * compact_loop keep BSSY and a branch around the one lane's add). */
static bool predicable(const struct sim *s, const struct regrefs *rr, uint32_t j)
{
	const struct sim_insn *c = &s->ins[j];
	return !(c->flags & (PX_OPF_BRANCH | PX_OPF_TERM | PX_OPF_CALL | PX_OPF_BARRIER | PX_OPF_WARP)) &&
	       c->pipe != P_BAR && c->pipe != P_BRANCH && expansion_of(s, rr, j) == EX_NONE &&
	       !c->agg && !(c->pipe == P_SHARED && (c->flags & PX_OPF_ATOMIC));
}

/* Whether block bi, one side of an if/else, holds code that ptxas may
 * predicate: one predecessor, predicable instructions before its last
 * (which may be a branch: skip_last), none of them guarded (the side's
 * own guard would have to be combined with the if/else's). Adds its
 * instructions to *n and the ones that take an issue slot to *issuing. */
static bool side_block(const struct sim *s, const struct regrefs *rr, uint32_t bi, bool skip_last, uint32_t *n,
                       uint32_t *issuing)
{
	const struct px_func *f = s->f;
	const struct px_block *b = &f->blocks[bi];
	if (b->npreds != 1)
		return false;
	uint32_t end = skip_last ? b->end - 1 : b->end;
	for (uint32_t j = b->first; j < end; j++) {
		const struct sim_insn *c = &s->ins[j];
		if (!predicable(s, rr, j) || c->guarded || c->nuses >= PX_COUNTOF(c->uses))
			return false;
		*issuing += !c->free;
	}
	*n += end - b->first;
	return true;
}

/* The unconditional branch that ends block bi, or -1. */
static int32_t block_jump(const struct px_func *f, uint32_t bi)
{
	const struct px_block *b = &f->blocks[bi];
	if (b->end <= b->first)
		return -1;
	const struct px_insn *in = &f->insns[b->end - 1];
	return in->op == PX_OP_BRA && in->guard < 0 ? (int32_t)(b->end - 1) : -1;
}

/* If/else statements: a conditional branch to one of two single blocks,
 * the first (in layout) ending with a jump past the second and the second
 * falling through to where they join, after a jump to it when the branch
 * goes to the first:
 *
 *     @p bra T;  bra.uni E;  T: ...; bra.uni J;  E: ...;  J:
 *     @p bra E;  ...; bra.uni J;  E: ...;  J:
 *
 * ptxas writes both sides as code predicated on p and on !p, without a
 * branch, within the limits of if-conversion (sim_mark_free). The warp
 * then does not split: the three branches are free (DM_*), the sides'
 * instructions are guarded by the lanes of their side (a slot the
 * conditional branch writes: sim_insn.side_slot), and the code from the
 * branch's block to the join is one straight-line run for the
 * scheduler's lookahead (sim_insn.block_first/block_end). held-out 5's
 * clip_sum_loop: its SASS issues the four loads of the unrolled loop
 * together and predicates each iteration's two FFMAs; split at each
 * if/else, the warp issued them one at a time (+497% to +711%), then
 * three together (+180% to +283%: the fourth was 42 PTX instructions
 * after the first, past the lookahead of 32, and the data earlier
 * launches left in L2 came from DRAM), within 22% since (simt.c's
 * LOOKAHEAD, check_simt.py's l2_state). The limit is the one-sided
 * regions' 16 [F]: held-out 7, judged blind with a limit of 8, showed
 * ptxas predicating 10 (wide_ifelse_loop, +74% to +282% with its branch
 * kept, -0.5% to +2.8% now) and 13 (shared_pick_loop, three of the four
 * of its unrolled body: +41% to +107% kept, -17% to -57% now, the fourth
 * keeping its branch in SASS); div_probe's div_ifelse, 12 FFMAs a side,
 * keeps its branch. */
static void mark_diamonds(struct sim *s, const struct regrefs *rr)
{
	const struct px_func *f = s->f;
	uint32_t nd = 0;   /* the diamonds' branches and joins, in layout order */
	uint32_t *br = xmalloc((f->ninsns + 1) * sizeof *br), *jn = xmalloc((f->ninsns + 1) * sizeof *jn);
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		struct sim_insn *si = &s->ins[i];
		uint32_t x = si->target;
		if (in->op != PX_OP_BRA || in->guard < 0 || x == UINT32_MAX || x <= i + 1 || si->ifconv ||
		    f->blocks[in->block].end != i + 1)
			continue;
		/* the first side starts after the jump to the second (the branch
		 * goes to it) or at the instruction after the branch */
		uint32_t fb = f->insns[i + 1].block;
		int32_t tramp = block_jump(f, fb);
		bool taken_first = tramp == (int32_t)(i + 1) && x == i + 2;
		uint32_t s1 = taken_first ? i + 2 : i + 1;
		uint32_t b1 = f->insns[s1].block;
		int32_t j1 = block_jump(f, b1);
		if (j1 < 0 || s->ins[j1].target == UINT32_MAX)
			continue;
		uint32_t s2 = (uint32_t)j1 + 1, join = s->ins[j1].target;
		if (s2 >= f->ninsns || join <= s2 || (taken_first ? s->ins[i + 1].target : x) != s2)
			continue;
		uint32_t b2 = f->insns[s2].block;
		if (f->blocks[b2].end != join || f->blocks[in->block].ipdom != f->insns[join].block ||
		    (taken_first && f->blocks[fb].npreds != 1))
			continue;
		uint32_t n = 0, issuing = 0;
		bool uniform = !s->sdiv[in->guard];
		if (!side_block(s, rr, b1, true, &n, &issuing) || !side_block(s, rr, b2, false, &n, &issuing) ||
		    n > IFCONV_DIAMOND_MAX || (uniform && issuing > UNIFORM_IFCONV))
			continue;
		uint32_t slot = s->nslots++;
		si->diamond = taken_first ? DM_SPLIT_TAKEN : DM_SPLIT_FALL;
		si->free = 1;
		si->scan_stop = false;
		si->ndefs = 1;
		si->defs[0] = slot;
		uint32_t jumps[2] = {taken_first ? i + 1 : UINT32_MAX, (uint32_t)j1};
		for (uint32_t k = 0; k < 2; k++)
			if (jumps[k] != UINT32_MAX) {
				s->ins[jumps[k]].diamond = DM_JUMP;
				s->ins[jumps[k]].free = 1;
				s->ins[jumps[k]].scan_stop = false;
			}
		for (uint32_t j = s1; j < join; j++) {
			struct sim_insn *c = &s->ins[j];
			if (j == (uint32_t)j1)
				continue;
			c->side = j < s2 ? 1 : 2;
			c->side_slot = slot;
			c->guarded = true;
			c->uses[c->nuses++] = slot;
		}
		br[nd] = i;
		jn[nd++] = join;
	}
	/* the runs: from a diamond's branch block to the end of its join's
	 * run (the diamonds after it joined first), and from the start of
	 * the branch block's run on */
	for (uint32_t d = nd; d-- > 0;) {
		uint32_t a = f->blocks[f->insns[br[d]].block].first, e = s->ins[jn[d]].block_end;
		for (uint32_t k = a; k < jn[d]; k++)
			s->ins[k].block_end = e;
	}
	for (uint32_t d = 0; d < nd; d++) {
		uint32_t a = f->blocks[f->insns[br[d]].block].first, b0 = s->ins[a].block_first;
		for (uint32_t k = a; k < f->blocks[f->insns[jn[d]].block].end; k++)
			s->ins[k].block_first = b0;
	}
	free(jn);
	free(br);
}

/* A region ptxas predicates (sim_insn.ifconv) is straight-line code with
 * the block it joins, for the scheduler's lookahead, when the warp's lanes
 * all run it (a warp that splits there stops where its paths rejoin:
 * simt.c's win_rebuild): its instructions' run goes on to the join block's
 * end (sim_insn.block_end). bssy_probe's bs_fallthrough, 8 regions of 8
 * dependent FMAs, each behind an and and a setp of the loop's counter:
 * its SASS computes the eight predicates first; the model, from the top
 * within a region, could not reach the next one's until the region ended
 * (320 cycles an iteration, 286 measured). The join block's instructions'
 * run starts at the region's (block_first), as mark_diamonds does, so
 * that the window sees their hazards with the region's: without it a
 * join-block add issued ahead of the region's write of its source and
 * read the old value. */
static void join_regions(struct sim *s)
{
	for (uint32_t i = s->f->ninsns; i-- > 0;) {
		const struct sim_insn *si = &s->ins[i];
		if (!si->ifconv || si->diamond || si->target == UINT32_MAX || si->target >= s->f->ninsns)
			continue;
		uint32_t first = s->ins[i + 1].block_first, end = s->ins[si->target].block_end;
		for (uint32_t k = i + 1; k < si->target; k++)
			s->ins[k].block_end = end;
		/* (and the join block's hazards reach back into the region:
		 * simt.c's win_hazards, which the window trusts) */
		for (uint32_t k = si->target; k < end; k++)
			if (s->ins[k].block_first > first)
				s->ins[k].block_first = first;
	}
}

/* Whether instruction j reads register r, or computes from it through the
 * single definitions of its sources other than predicates (p, or an
 * earlier select's, which chooses between values that are not computed
 * from it: held-out 7's cmpxchg_loop, four selects in a row under
 * predicates from the lane index, had its selects charged, +35% to +40%),
 * depth levels deep. */
static bool reads_from(const struct px_func *f, const struct regrefs *rr, uint32_t j, int32_t r, int32_t p,
                       int depth)
{
	uint32_t n;
	const int32_t *u = px_func_uses(f, j, &n);
	for (uint32_t k = 0; k < n; k++) {
		if (u[k] == r)
			return true;
		if (depth > 0 && u[k] != p && f->regs[u[k]].type != PX_TYPE_PRED &&
		    rr->dstart[u[k] + 1] - rr->dstart[u[k]] == 1 &&
		    reads_from(f, rr, rr->dlist[rr->dstart[u[k]]], r, p, depth - 1))
			return true;
	}
	return false;
}

/* Whether selp i's predicate is computed from a register one of its two
 * values is computed from, a few instructions back (the predicate then
 * comes with the values: the predicated overwrite waits for it and adds
 * its own latency). */
static bool pred_on_chain(const struct px_func *f, const struct regrefs *rr, uint32_t i)
{
	const struct px_insn *in = &f->insns[i];
	const struct px_operand *po = &in->opnds[3];
	if (po->kind != PX_OPND_REG || po->reg < 0)
		return true;
	for (uint32_t q = rr->dstart[po->reg]; q < rr->dstart[po->reg + 1]; q++) {
		uint32_t np;
		const int32_t *pu = px_func_uses(f, rr->dlist[q], &np);
		for (uint32_t a = 0; a < np; a++)
			for (uint32_t k = 1; k <= 2; k++)
				if (reads_from(f, rr, rr->dlist[rr->dstart[in->opnds[k].reg]], pu[a], po->reg, 3))
					return true;
	}
	return false;
}

/* A selp of two values that only it uses, each computed by an arithmetic
 * instruction earlier in its block, under a predicate that does not come
 * from what they are computed from: ptxas computes one into the result's
 * register and the other over it under the predicate (sw_probe's sw2_div:
 * FFMA R11, ...; @!P1 FFMA R11, ...; no FSEL), so the select is free.
 * With the predicate on the values' chain (held-out 6's poly_select_loop,
 * x = x < 0.6f ? lo(x) : hi(x)) the overwrite waits for it: 19.5 cycles a
 * step measured at 128 threads, 11.5 predicted free, 16.5 charged. */
static void mark_selects(struct sim *s, const struct regrefs *rr)
{
	const struct px_func *f = s->f;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		if (in->op != PX_OP_SELP || in->nopnds != 4 || in->guard >= 0 || s->ins[i].free)
			continue;
		bool ok = true;
		for (uint32_t k = 1; k <= 2 && ok; k++) {
			const struct px_operand *o = &in->opnds[k];
			ok = o->kind == PX_OPND_REG && o->reg >= 0 && rr->ustart[o->reg + 1] - rr->ustart[o->reg] == 1 &&
			     rr->dstart[o->reg + 1] - rr->dstart[o->reg] == 1;
			if (!ok)
				break;
			uint32_t j = rr->dlist[rr->dstart[o->reg]];
			unsigned fl = px_opcode_flags(f->insns[j].op);
			ok = j < i && f->insns[j].block == in->block && f->insns[j].guard < 0 && !s->ins[j].free &&
			     !(fl & (PX_OPF_LOAD | PX_OPF_STORE | PX_OPF_ATOMIC | PX_OPF_BRANCH | PX_OPF_CALL |
			             PX_OPF_BARRIER | PX_OPF_WARP)) &&
			     (s->ins[j].pipe == P_ALU || s->ins[j].pipe == P_IMAD || s->ins[j].pipe == P_FP32 ||
			      s->ins[j].pipe == P_FP64);
		}
		if (ok)
			ok = !pred_on_chain(f, rr, i);
		if (ok)
			s->ins[i].free = 1;
	}
}

/* The one instruction that reads what instruction i writes, later in its
 * block, where i writes one register, the only definition of it, read
 * once: its index, else UINT32_MAX. */
static uint32_t sole_later_use(const struct px_func *f, const struct regrefs *rr, uint32_t i)
{
	int32_t d = single_def(f, i);
	if (d < 0 || rr->ustart[d + 1] - rr->ustart[d] != 1 || rr->dstart[d + 1] - rr->dstart[d] != 1)
		return UINT32_MAX;
	uint32_t j = rr->ulist[rr->ustart[d]];
	return j > i && f->insns[j].block == f->insns[i].block ? j : UINT32_MAX;
}

/* Is r defined once, by a shr.u64 (or .b64) by an immediate from 32 to
 * 63: a word of its source's high word, the other RZ? */
static bool high_word_shift(const struct px_func *f, const struct regrefs *rr, int32_t r)
{
	if (r < 0 || rr->dstart[r + 1] - rr->dstart[r] != 1)
		return false;
	const struct px_insn *d = &f->insns[rr->dlist[rr->dstart[r]]];
	return d->op == PX_OP_SHR && d->guard < 0 && d->ntypes && px_type_bits(d->types[0]) == 64 &&
	       px_type_kind(d->types[0]) != 's' && d->nopnds == 3 && d->opnds[2].kind == PX_OPND_IMM &&
	       d->opnds[2].imm >= 32 && d->opnds[2].imm < 64;
}

/* A select of a constant or 0 added to a value (selp.b32 d, c, 0, p, or
 * 0, c, whose one use is a 32-bit add or subtract later in its block):
 * ptxas adds the constant (VIADD) and puts the value back under the
 * predicate (@P IMAD.MOV), both on the FMA pipe where a SEL would take
 * the ALU (held-out 22's xorshift_walk_loop: x += (d == 0) - (d == 1),
 * four such selects a step; held-out 17's rabin_karp_loop, cnt += hit).
 * The select issues to the IMAD pipe, as the add it feeds does on sm_80
 * and later (sim_decode), with the ALU's latency, and the add issues (an
 * add into another is free otherwise: sim_mark_free's three-input add). */
static void mark_select_adds(struct sim *s, const struct regrefs *rr)
{
	const struct px_func *f = s->f;
	if (s->opt->arch->major < 8)
		return;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		if (in->op != PX_OP_SELP || in->nopnds != 4 || in->guard >= 0 || s->ins[i].free ||
		    in->opnds[1].kind != PX_OPND_IMM || in->opnds[2].kind != PX_OPND_IMM ||
		    (in->opnds[1].imm != 0 && in->opnds[2].imm != 0) || !in->ntypes ||
		    px_type_bits(in->types[0]) != 32)
			continue;
		uint32_t j = sole_later_use(f, rr, i);
		if (j != UINT32_MAX && f->insns[j].guard < 0 && is_int32_add(&f->insns[j])) {
			s->ins[i].pipe = P_IMAD;
			s->ins[j].free = 0;   /* (the VIADD: not folded into a three-input add) */
		}
	}
}

/* A predicate turned into an integer and back: `selp.b32 d, 1, 0, p`
 * (or 0, 1) whose one use is `setp.eq|ne.s32|u32|b32 q, d, 0` later in its
 * block (a bool returned from inline asm: { .reg .pred p; ...; selp
 * ... p; }, then tested): ptxas uses p itself (mbarrier_probe's waits:
 * SYNCS.PHASECHK.TRANS64.TRYWAIT P2, ...; @!P2 BRA), so both are free and
 * q is ready when p is. */
static void mark_pred_roundtrips(struct sim *s, const struct regrefs *rr)
{
	const struct px_func *f = s->f;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		if (in->op != PX_OP_SELP || in->nopnds != 4 || in->guard >= 0 || s->ins[i].free ||
		    in->opnds[1].kind != PX_OPND_IMM || in->opnds[2].kind != PX_OPND_IMM ||
		    in->opnds[1].imm + in->opnds[2].imm != 1 || in->opnds[1].imm * in->opnds[2].imm != 0 ||
		    !in->ntypes || px_type_bits(in->types[0]) != 32)
			continue;
		uint32_t j = sole_later_use(f, rr, i);
		if (j == UINT32_MAX)
			continue;
		const struct px_insn *c = &f->insns[j];
		if (c->op != PX_OP_SETP || c->guard >= 0 || c->nopnds != 3 ||
		    (c->cmp != PX_CMP_EQ && c->cmp != PX_CMP_NE) || c->opnds[2].kind != PX_OPND_IMM || c->opnds[2].imm != 0 ||
		    !c->ntypes || px_type_bits(c->types[c->ntypes - 1]) != 32)
			continue;
		s->ins[i].free = 1;
		s->ins[j].free = 1;
	}
}

/* The instructions ptxas expands into sequences (enum sim_expand):
 * integer division and remainder by a register (by an immediate nvcc
 * has already written the multiply-high sequence into the PTX; ptxas
 * keeps the divisor's reciprocal out of a loop that does not change the
 * divisor), the IEEE single-precision division, square root and
 * reciprocal and the double-precision division and square root
 * (bench/gpu/simt/idiv_probe.cu; rcp.rn.f64 was not measured). */
/* Which sequence ptxas expands instruction i into (EX_NONE: none). */
static uint8_t expansion_of(const struct sim *s, const struct regrefs *rr, uint32_t i)
{
	const struct px_func *f = s->f;
	const struct px_insn *in = &f->insns[i];
	if ((in->op != PX_OP_DIV && in->op != PX_OP_REM && in->op != PX_OP_SQRT && in->op != PX_OP_RCP) ||
	    !in->ntypes)
		return EX_NONE;
	enum px_type t = in->types[0];
	char k = px_type_kind(t);
	if (k == 'f') {
		bool ieee = !(in->mods & PX_MOD_APPROX) && (sim_has_mod(in, ".rn") || sim_has_mod(in, ".rz") ||
		                                            sim_has_mod(in, ".rm") || sim_has_mod(in, ".rp"));
		if (ieee && t == PX_TYPE_F32)
			return in->op == PX_OP_SQRT ? EX_FSQRT : in->op == PX_OP_RCP ? EX_FRCP : EX_FDIV;
		if (ieee && t == PX_TYPE_F64 && in->op != PX_OP_RCP)
			return in->op == PX_OP_SQRT ? EX_DSQRT : EX_DDIV;
	} else if ((in->op == PX_OP_DIV || in->op == PX_OP_REM) && in->nopnds == 3 &&
	           in->opnds[2].kind == PX_OPND_REG && in->opnds[2].reg >= 0) {
		if (px_type_bits(t) == 64)
			return EX_IDIV64;
		if (invariant_in(s, rr, in->opnds[2].reg, f->blocks[in->block].loop))
			return EX_IDIV_INV;
		return k == 's' ? EX_IDIV_S : EX_IDIV;
	}
	return EX_NONE;
}

/* The expansions whose sequence branches: the floating-point ones test
 * for a slow path and branch to a subroutine for it (FCHK or MUFU.RSQ's
 * check, BSSY, @!P BRA, CALL), the 64-bit division is a call. ptxas
 * moves nothing across them, and the lookahead stops there
 * (l2warm_probe's norm_loop, sqrtf and two divisions an iteration: its
 * SASS loads the next iteration's three values after the divisions'
 * BSYNC; -33% to -55% with later loads issued ahead of them, -14% to
 * -20% now). The 32-bit integer ones are straight-line. */
static const bool ex_branches[EX_COUNT] = {
	[EX_IDIV64] = true, [EX_FDIV] = true, [EX_FSQRT] = true, [EX_FRCP] = true, [EX_DDIV] = true,
	[EX_DSQRT] = true,
};

/* name is a variable of the shared state space */
static bool shared_var(const struct sim *s, px_str name)
{
	uint64_t addr;
	const struct px_var *v = find_var(s, name, &addr);
	return v && (v->space == PX_SPACE_SHARED || v->space == PX_SPACE_SHARED_CTA);
}

/* instruction in names a shared variable's address: a mov of it, or a
 * shared-memory access at [sym] or [sym+imm] */
static bool names_shared_base(const struct sim *s, const struct sim_insn *si)
{
	const struct px_insn *in = si->in;
	if (in->op == PX_OP_MOV && in->nopnds == 2 && in->opnds[1].kind == PX_OPND_SYM)
		return shared_var(s, in->opnds[1].sym);
	if (si->pipe != P_SHARED)
		return false;
	for (uint32_t k = 0; k < in->nopnds; k++)
		if (in->opnds[k].kind == PX_OPND_ADDR && in->opnds[k].reg < 0 && in->opnds[k].sym.n)
			return shared_var(s, in->opnds[k].sym);
	return false;
}

/* loop l or one inside it has a bar.sync of the whole block */
static bool loop_has_block_barrier(const struct sim *s, uint32_t l)
{
	const struct px_loop *lp = &s->f->loops[l];
	for (uint32_t bi = 0; bi < lp->nblocks; bi++) {
		const struct px_block *b = &s->f->blocks[lp->blocks[bi]];
		for (uint32_t i = b->first; i < b->end; i++)
			if (s->ins[i].block_bar)
				return true;
	}
	return false;
}

/* block b's shared-memory accesses: 0 none, 1 loads or stores, 2 an atomic */
static unsigned shared_access_in(const struct sim *s, const struct px_block *b)
{
	unsigned k = 0;
	for (uint32_t i = b->first; i < b->end; i++)
		if (s->ins[i].pipe == P_SHARED)
			k = s->ins[i].flags & PX_OPF_ATOMIC ? 2 : k ? k : 1;
	return k;
}

/* b post-dominates a (both in one function) */
static bool postdominates(const struct px_func *f, uint32_t b, uint32_t a)
{
	for (uint32_t x = a, n = 0; x < f->nblocks && n <= f->nblocks; x = f->blocks[x].ipdom, n++)
		if (x == b)
			return true;
	return false;
}

/* Block b of loop l runs under a branch of the loop whose predicate may
 * differ between a warp's lanes (fill_uniform), before the paths rejoin,
 * and that ptxas does not predicate (sim_insn.ifconv; atomic: b holds a
 * shared atomic, which ptxas branches around however short the region:
 * lane0_probe's l0_add, held-out 11's compact_loop, held-out 12's
 * match_hist_loop). */
static bool divergent_region(const struct sim *s, uint32_t l, uint32_t b, bool atomic)
{
	const struct px_func *f = s->f;
	for (uint32_t d = f->blocks[b].idom, n = 0; d < f->nblocks && f->blocks[d].loop == (int32_t)l && n <= f->nblocks;
	     d = f->blocks[d].idom, n++) {
		const struct px_block *db = &f->blocks[d];
		const struct px_insn *br = db->end > db->first ? &f->insns[db->end - 1] : NULL;
		if (br && br->op == PX_OP_BRA && br->guard >= 0 && f->an && f->an->uni &&
		    f->an->uni[br->guard] == PX_UNI_DIVERGENT && !postdominates(f, b, d))
			return atomic || !s->ins[db->end - 1].ifconv;
		if (d == f->loops[l].header || db->idom == d)
			break;
	}
	return false;
}

/* The shared window bases ptxas rebuilds in a loop (the header's rule):
 * sim_insn.shbase, run after the loop invariants were hoisted (what was
 * computed from the address stays free and waits for it). */
static void mark_shared_bases(struct sim *s)
{
	const struct px_func *f = s->f;
	if (!(s->shbase_lat > 0))
		return;   /* (sm_90's table has latency.shared_base; sm_80 has no clusters, its shared
		           * addresses are offsets with nothing to rebuild; the later ones have no timing) */
	uint8_t *every = xcalloc(f->nblocks + 1, 1);   /* per block: run in every iteration of its loop */
	for (uint32_t l = 0; l < f->nloops; l++) {
		bool inner = false;
		for (uint32_t k = 0; k < f->nloops && !inner; k++)
			inner = f->loops[k].parent == (int32_t)l;
		bool whole = inner && loop_has_block_barrier(s, l);
		const struct px_loop *lp = &f->loops[l];
		for (uint32_t b = lp->header; b < f->nblocks && f->blocks[b].loop == (int32_t)l && !every[b];
		     b = f->blocks[b].ipdom)
			every[b] = 1;
		for (uint32_t bi = 0; bi < lp->nblocks; bi++) {
			const struct px_block *b = &f->blocks[lp->blocks[bi]];
			if (b->loop != (int32_t)l)
				continue;   /* (an inner loop's block: its own rule) */
			unsigned acc = whole ? 0 : shared_access_in(s, b);
			if (!whole && (every[lp->blocks[bi]] || !acc || !divergent_region(s, l, lp->blocks[bi], acc == 2)))
				continue;
			bool built = false;   /* a load or atomic of the block rebuilt the base before */
			for (uint32_t i = b->first; i < b->end; i++) {
				struct sim_insn *si = &s->ins[i];
				if (si->wall)
					built = false;   /* (ptxas's call or loop for it ends the base's life) */
				if (si->expand || si->vecw == 1 || !names_shared_base(s, si))
					continue;   /* (a vector load's other words come with its first) */
				si->shbase = si->pipe != P_ALU && built ? SHB_REUSE : SHB_BUILD;
				built |= si->pipe != P_ALU;
				si->free = si->hoisted = 0;
			}
		}
	}
	free(every);
}

static void mark_expansions(struct sim *s, const struct regrefs *rr)
{
	for (uint32_t i = 0; i < s->f->ninsns; i++) {
		uint8_t ex = expansion_of(s, rr, i);
		s->ins[i].expand = ex;
		if (ex_branches[ex])
			s->ins[i].scan_stop = s->ins[i].wall = true;
	}
}

/* The convergence regions ptxas writes (sim_insn.bssy): a conditional
 * forward branch on a predicate it cannot prove warp-uniform (sim.sdiv)
 * that it keeps (neither if-converted nor a diamond), whose paths rejoin
 * in the loop it is in, gets BSSY before it and BSYNC where they rejoin;
 * a warp that does not split there pays latency.convergence_region on top
 * of the branch (bssy_probe: bs_one 30.7 and 94.0 cycles an iteration with
 * the branch skipping and running 16 FMAs, bu_one, the same branch on a
 * uniform predicate, 15.3 and 79.5). A warp that splits pays the path
 * switches instead (simt.c's issue, latency.path_switch, fitted where
 * the regions were there). Branches that rejoin where one that dominates
 * them does are in its region (sw_probe's sw4_uni: one BSSY for a
 * switch's three). A loop left on such a predicate has its region around
 * the whole loop (bar_probe's bs_up, an inner loop of a warp's own trip
 * count: BSSY before it, BSYNC after): a warp pays it when it leaves the
 * loop (BSSY_EXIT). BSSY and each BSYNC take an issue slot as well
 * (simt.c's convergence_slots). */
static void mark_convergence(struct sim *s)
{
	const struct px_func *f = s->f;
	if (!(s->bssy_lat > 0))
		return;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		struct sim_insn *si = &s->ins[i];
		if (in->op != PX_OP_BRA || in->guard < 0 || !s->sdiv[in->guard] || si->target == UINT32_MAX ||
		    si->ifconv || si->diamond)
			continue;
		int32_t lp = f->blocks[in->block].loop;
		const struct px_block *bb = &f->blocks[in->block];
		bool exits = false;
		for (uint32_t k = 0; k < bb->nsuccs && lp >= 0; k++)
			exits |= !sim_loop_has_block(&f->loops[lp], bb->succs[k]);
		if (exits) {
			si->bssy = BSSY_EXIT;
			continue;
		}
		if (si->target <= i)
			continue;
		uint32_t P = f->blocks[in->block].ipdom;
		if (P >= f->nblocks || f->blocks[P].loop != f->blocks[in->block].loop)
			continue;
		/* one region for the branches of a cascade that rejoin at one
		 * point (a switch's: sw_probe's sw4_uni, one BSSY for three
		 * branches): the first of them, which dominates the others
		 * (within 64 steps of the dominator chain) */
		bool outer = false;
		for (uint32_t d = f->blocks[in->block].idom, n = 0; d < f->nblocks && n < 64 && !outer;
		     d = f->blocks[d].idom, n++) {
			const struct px_block *db = &f->blocks[d];
			const struct px_insn *br = db->end > db->first ? &f->insns[db->end - 1] : NULL;
			outer = br && br->op == PX_OP_BRA && br->guard >= 0 && s->sdiv[br->guard] && db->ipdom == P;
			if (d == db->idom || db->loop != f->blocks[in->block].loop)
				break;
		}
		si->bssy = outer ? BSSY_NONE : BSSY_BRANCH;
	}
}

static bool ldc_user(const struct px_insn *c, int32_t d)
{
	return c->op == PX_OP_LD && c->space == PX_SPACE_CONST && address_user(c, d);
}

/* An LDC takes its offset from a 32-bit register (c[0x3][R]): the 64-bit
 * address PTX computes for a constant-memory load at a register's address
 * (a widening cvt of the offset, an add of the variable's address) is
 * none of ptxas's instructions (bssy_probe's ldc_chain: 16 LDCs, nothing
 * else, for 16 such loads). Those computations are free. */
static void mark_constant_offsets(struct sim *s, const struct regrefs *rr)
{
	const struct px_func *f = s->f;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		int32_t d = single_def(f, i);
		if (d < 0 || in->guard >= 0 || !is_add_bits(in, 64) || !all_uses(f, rr, d, ldc_user))
			continue;
		s->ins[i].free = 1;
		for (uint32_t k = 1; k < in->nopnds; k++) {
			int32_t r = in->opnds[k].kind == PX_OPND_REG ? in->opnds[k].reg : -1;
			if (r < 0 || rr->dstart[r + 1] - rr->dstart[r] != 1 || rr->ustart[r + 1] - rr->ustart[r] != 1)
				continue;
			const struct px_insn *c = &f->insns[rr->dlist[rr->dstart[r]]];
			if (c->op == PX_OP_CVT && c->guard < 0 && c->ntypes > 1 && px_type_bits(c->types[0]) == 64 &&
			    px_type_bits(c->types[1]) == 32)
				s->ins[rr->dlist[rr->dstart[r]]].free = 1;
		}
	}
}

/* Does a `.pragma "nounroll"` come before one of block b's instructions? */
static bool block_nounroll(const struct px_func *f, const struct px_block *b)
{
	for (uint32_t i = 0; i < f->npragmas; i++)
		if (f->pragma_at && f->pragma_at[i] >= b->first && f->pragma_at[i] < b->end &&
		    px_str_eq(f->pragmas[i], px_str_make("nounroll", 8)))
			return true;
	return false;
}

/* Is operand o of loop l's instruction an induction variable (a register
 * the loop steps by an immediate, its one definition there)? */
static bool induction(const struct sim *s, const struct regrefs *rr, const struct px_operand *o, uint32_t l)
{
	const struct px_func *f = s->f;
	if (o->kind != PX_OPND_REG)
		return false;
	int32_t r = o->reg, def = -1;
	for (uint32_t q = rr->dstart[r]; q < rr->dstart[r + 1]; q++)
		if (sim_loop_has_block(&f->loops[l], f->insns[rr->dlist[q]].block)) {
			if (def >= 0)
				return false;
			def = (int32_t)rr->dlist[q];
		}
	if (def < 0)
		return false;
	const struct px_insn *in = &f->insns[def];
	if ((in->op != PX_OP_ADD && in->op != PX_OP_SUB) || in->nopnds != 3 || in->guard >= 0)
		return false;
	const struct px_operand *a = &in->opnds[1], *b = &in->opnds[2];
	return (a->kind == PX_OPND_REG && a->reg == r && b->kind == PX_OPND_IMM) ||
	       (in->op == PX_OP_ADD && b->kind == PX_OPND_REG && b->reg == r && a->kind == PX_OPND_IMM);
}

/* Is loop l counted: its back edge's predicate a comparison of an
 * induction variable with an immediate or a loop invariant? */
static bool counted_loop(const struct sim *s, const struct regrefs *rr, uint32_t l, const struct px_insn *br)
{
	const struct px_func *f = s->f;
	if (br->guard < 0 || rr->dstart[br->guard + 1] - rr->dstart[br->guard] != 1)
		return false;
	const struct px_insn *c = &f->insns[rr->dlist[rr->dstart[br->guard]]];
	if (c->op != PX_OP_SETP || c->nopnds != 3 || !sim_loop_has_block(&f->loops[l], c->block))
		return false;
	for (int k = 1; k <= 2; k++) {
		const struct px_operand *x = &c->opnds[k], *y = &c->opnds[3 - k];
		if (induction(s, rr, x, l) &&
		    (y->kind == PX_OPND_IMM || (y->kind == PX_OPND_REG && invariant_in(s, rr, y->reg, (int32_t)l))))
			return true;
	}
	return false;
}

/* The most instructions that issue (loop invariants counted: ptxas
 * unrolls before it hoists them) in a loop ptxas unrolls again [F]: of the
 * counted single-block loops of the committed fixtures' kernels
 * (mark_reunrolled's other conditions met), the 40 with at most 23 are all
 * in kernels whose SASS has the 16-, 8- and 4-body parts, 4 of the 8 with
 * 24 to 28 (cmpxchg_loop, poly_select_loop, mb_sync and csr_vector_loop
 * not), 7 of the 98 above. */
#define REUNROLL_MAX 23

/* The loops ptxas unrolls by 4 again (sim_insn.reunroll on the back edge):
 * nvcc unrolls a loop with a trip count known at run time by 4 into a
 * loop of 4 bodies and a remainder loop it marks `.pragma "nounroll"`;
 * ptxas rewrites a short such loop into a loop of 16 bodies while more
 * than 12 remain, a block of 8 while more than 4, the loop of 4 (the
 * timed loops of conv_probe's mul_lo, sbase_probe's sb_nobar, held-out
 * 7's warp_pick_loop; the inner loops of kloop_probe, bar_probe and
 * sbase2_probe). Its loops: a single block, counted (the back edge's
 * predicate compares an induction variable with an immediate or a loop
 * invariant), without the pragma, atomics, fences, warp-wide operations,
 * calls, asynchronous copies, mbarriers or expansions, and at most
 * REUNROLL_MAX instructions that issue. What it costs: simt.c's issue(). */
static void mark_reunrolled(struct sim *s, const struct regrefs *rr)
{
	const struct px_func *f = s->f;
	for (uint32_t l = 0; l < f->nloops; l++) {
		const struct px_loop *lp = &f->loops[l];
		if (lp->nblocks != 1)
			continue;
		const struct px_block *b = &f->blocks[lp->header];
		if (b->end <= b->first || block_nounroll(f, b))
			continue;
		struct sim_insn *br = &s->ins[b->end - 1];
		if (br->in->op != PX_OP_BRA || br->target != b->first || !counted_loop(s, rr, l, br->in))
			continue;
		uint32_t n = 0;
		bool ok = true;
		for (uint32_t i = b->first; i < b->end && ok; i++) {
			const struct sim_insn *si = &s->ins[i];
			unsigned fl = si->flags;
			ok = !(fl & (PX_OPF_ATOMIC | PX_OPF_CALL | PX_OPF_WARP | PX_OPF_ASYNC | PX_OPF_TERM)) &&
			     !si->expand && si->in->op != PX_OP_MEMBAR && si->in->op != PX_OP_FENCE && !si->mbar;
			n += !si->free || si->hoisted;
		}
		if (ok && n <= REUNROLL_MAX)
			br->reunroll = true;
	}
}

/* shl.b32 i (by an immediate k) whose only use j is a 32-bit or/add/xor
 * of it and a shr.b32/u32 by 32 - k used by j alone, in the same block:
 * ptxas makes the three one funnel shift (SHF.L.U32.HI: hash_loop's
 * (h << 5) | (h >> 27), simt_heldout4.sm_90.sass). The shr's index, -1
 * when not such a pair. */
static int32_t funnel_partner(const struct px_func *f, const struct regrefs *rr, uint32_t i, uint32_t j)
{
	const struct px_insn *in = &f->insns[i], *c = &f->insns[j];
	if (px_type_bits(in->types[0]) != 32 || in->opnds[2].imm <= 0 || in->opnds[2].imm >= 32 ||
	    (c->op != PX_OP_OR && c->op != PX_OP_XOR && c->op != PX_OP_ADD) || c->guard >= 0 || !c->ntypes ||
	    px_type_bits(c->types[0]) != 32 || c->nopnds != 3 || c->opnds[1].kind != PX_OPND_REG ||
	    c->opnds[2].kind != PX_OPND_REG)
		return -1;
	int32_t mine = single_def(f, i);
	int32_t other = c->opnds[1].reg == mine ? c->opnds[2].reg : c->opnds[1].reg;
	if (other == mine || rr->dstart[other + 1] - rr->dstart[other] != 1 ||
	    rr->ustart[other + 1] - rr->ustart[other] != 1)
		return -1;
	uint32_t r = rr->dlist[rr->dstart[other]];
	const struct px_insn *sh = &f->insns[r];
	if (sh->op != PX_OP_SHR || sh->guard >= 0 || !sh->ntypes || px_type_kind(sh->types[0]) == 's' ||
	    px_type_bits(sh->types[0]) != 32 || sh->nopnds != 3 || sh->opnds[2].kind != PX_OPND_IMM ||
	    sh->opnds[2].imm != 32 - in->opnds[2].imm || sh->block != c->block || r >= j)
		return -1;
	return (int32_t)r;
}

/* shfl.sync with a membermask that is not the constant 0xffffffff (a
 * register another instruction than a mov of it writes: __activemask(),
 * a ballot): ptxas checks the named lanes have converged before the
 * shuffle (MATCH.ANY of the mask, REDUX.OR, VOTEU.ANY, LOP3, BRA.DIV to a
 * slow path: held-out 13's frontier_agg_loop, whose warp-aggregated
 * increment shuffles under __activemask()): sim_insn.mask_check. */
static void mark_mask_checks(struct sim *s, const struct regrefs *rr)
{
	const struct px_func *f = s->f;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		if (in->op != PX_OP_SHFL || !sim_has_mod(in, ".sync") || !in->nopnds)
			continue;
		const struct px_operand *m = &in->opnds[in->nopnds - 1];
		if (m->kind != PX_OPND_REG || m->reg < 0)
			continue;
		bool full = rr->dstart[m->reg + 1] - rr->dstart[m->reg] == 1;
		if (full) {
			const struct px_insn *d = &f->insns[rr->dlist[rr->dstart[m->reg]]];
			full = d->op == PX_OP_MOV && d->guard < 0 && d->nopnds == 2 && d->opnds[1].kind == PX_OPND_IMM &&
			       (uint32_t)d->opnds[1].imm == 0xffffffffu;
		}
		s->ins[i].mask_check = !full;
	}
}

/* Per register, how ptxas sees its value across a warp's lanes, for
 * mark_aggregates: lane, it comes (through definitions' sources, a guard
 * included) from a lane's own index (%tid, %laneid, %lanemask_*), and
 * differs between lanes as ptxas sees it, which does not know the block's
 * shape (where the uniformity analysis, which does, may find (%tid.x >> 10)
 * uniform in a block of at most 1024 threads); vote, every definition is a
 * vote, redux or activemask, or unguarded arithmetic of such values and
 * immediates, the same in every lane that runs it, which ptxas knows where
 * the uniformity analysis finds it divergent (compact_loop's __popc of a
 * ballot). Both by worklists over the definitions and uses, each register
 * once (a chain may be as long as the function). */
struct lane_view {
	uint8_t *lane, *vote;
};

static bool warp_same(const struct px_insn *d)
{
	return d->op == PX_OP_VOTE || d->op == PX_OP_REDUX || d->op == PX_OP_ACTIVEMASK;
}

static bool reads_lane_index(const struct px_insn *d)
{
	for (uint32_t o = 0; o < d->nopnds; o++) {
		const struct px_operand *x = &d->opnds[o];
		if (x->kind == PX_OPND_SREG && (x->sreg == PX_SREG_TID || x->sreg == PX_SREG_LANEID ||
		                                (x->sreg >= PX_SREG_LANEMASK_EQ && x->sreg <= PX_SREG_LANEMASK_GT)))
			return true;
	}
	return false;
}

/* Whether definition d keeps its registers vote-derived if its register
 * sources are. */
static bool vote_arith(const struct px_func *f, uint32_t i)
{
	const struct px_insn *d = &f->insns[i];
	if (warp_same(d))
		return true;
	uint32_t n;
	px_func_uses(f, i, &n);
	if (d->guard >= 0 || !n || (px_opcode_flags(d->op) & (PX_OPF_LOAD | PX_OPF_ATOMIC | PX_OPF_WARP | PX_OPF_CALL)))
		return false;
	for (uint32_t o = 0; o < d->nopnds; o++)
		if (d->opnds[o].kind != PX_OPND_REG && d->opnds[o].kind != PX_OPND_IMM)
			return false;
	return true;
}

/* Marks the registers instruction i defines in flag and pushes them, for
 * those not marked yet. */
static void mark_defs(const struct px_func *f, uint32_t i, uint8_t *flag, uint8_t val, int32_t *stack, uint32_t *n)
{
	uint32_t nd;
	const int32_t *d = px_func_defs(f, i, &nd);
	for (uint32_t k = 0; k < nd; k++)
		if (flag[d[k]] != val) {
			flag[d[k]] = val;
			stack[(*n)++] = d[k];
		}
}

static void lane_view_build(const struct px_func *f, const struct regrefs *rr, struct lane_view *v)
{
	v->lane = xcalloc(f->nregs + 1, 1);
	v->vote = xcalloc(f->nregs + 1, 1);
	int32_t *stack = xmalloc((f->nregs + 1) * sizeof *stack);
	uint32_t n = 0;
	/* lane: from the definitions that read a lane's index, forward */
	for (uint32_t i = 0; i < f->ninsns; i++)
		if (!warp_same(&f->insns[i]) && reads_lane_index(&f->insns[i]))
			mark_defs(f, i, v->lane, 1, stack, &n);
	while (n) {
		int32_t x = stack[--n];
		for (uint32_t j = rr->ustart[x]; j < rr->ustart[x + 1]; j++)
			if (!warp_same(&f->insns[rr->ulist[j]]))
				mark_defs(f, rr->ulist[j], v->lane, 1, stack, &n);
	}
	/* vote: every defined register, less those a definition disqualifies,
	 * less what those reach */
	for (uint32_t r = 0; r < f->nregs; r++)
		v->vote[r] = rr->dstart[r + 1] > rr->dstart[r];
	for (uint32_t i = 0; i < f->ninsns; i++)
		if (!vote_arith(f, i))
			mark_defs(f, i, v->vote, 0, stack, &n);
	while (n) {
		int32_t x = stack[--n];
		for (uint32_t j = rr->ustart[x]; j < rr->ustart[x + 1]; j++)
			if (!warp_same(&f->insns[rr->ulist[j]]))
				mark_defs(f, rr->ulist[j], v->vote, 0, stack, &n);
	}
	free(stack);
}

/* Does instruction i give its registers a value ptxas cannot prove the same
 * in every lane of a warp, whatever its sources are: a lane's or thread's
 * index, a clock, an atomic's or call's result, a local load, a match? */
static bool lane_source(const struct px_insn *in)
{
	unsigned fl = px_opcode_flags(in->op);
	if ((fl & (PX_OPF_ATOMIC | PX_OPF_CALL | PX_OPF_TEX | PX_OPF_MMA | PX_OPF_ASYNC)) ||
	    in->op == PX_OP_MATCH || in->op == PX_OP_ELECT || in->op == PX_OP_UNKNOWN ||
	    (in->op == PX_OP_LD && in->space == PX_SPACE_LOCAL))
		return true;
	for (uint32_t o = 0; o < in->nopnds; o++)
		if (in->opnds[o].kind == PX_OPND_SREG && px_sreg_level(in->opnds[o].sreg) != PX_UNI_BLOCK)
			return true;   /* (%warpid and %smid too: ptxas proves nothing of them) */
	return false;
}

/* The registers ptxas cannot prove warp-uniform (sim.sdiv, 1 each), its
 * view and not the launch's: fill_uniform knows the block's shape and
 * finds tid.x >> 5 warp-uniform and tid.x >> 10 the same in every thread
 * of a block of at most 1,024; ptxas compiles for any block and branches
 * on either with a convergence region (BSSY, BSYNC: bssy_probe's
 * bs_one, chain_probe's `if (w > 0)`) and predicates 8 FMAs under them
 * (bs_branches), as it does under a lane's own condition. Flow-insensitive,
 * to a fixpoint: lane_source's definitions; what reads such a register
 * (a load at such an address, a shuffle of such a value; not the result
 * of vote, redux or activemask, one value for the warp) or is guarded by
 * one; and what a branch on one leaves defined in different lanes: a
 * register defined between the branch and where its paths rejoin that is
 * live there. */
static uint8_t *static_divergence(const struct px_func *f, const struct regrefs *rr)
{
	uint8_t *dv = xcalloc(f->nregs + 1, 1);
	int32_t *stack = xmalloc((f->nregs + 1) * sizeof *stack);
	uint32_t *blk = xmalloc((f->nblocks + 1) * sizeof *blk);
	uint32_t *seen = xcalloc(f->nblocks + 1, sizeof *seen);   /* the branch (+1) that last reached it */
	uint8_t *done = xcalloc(f->ninsns + 1, 1);   /* branches whose region was marked */
	/* the regions' walks, bounded: past it every register with several
	 * definitions counts as defined in such a region (a large function's
	 * nested branches would make the walks quadratic) */
	uint64_t work = 0, budget = 16 * ((uint64_t)f->ninsns + f->nblocks) + 4096;
	uint32_t n = 0;
	for (uint32_t i = 0; i < f->ninsns; i++)
		if (lane_source(&f->insns[i]))
			mark_defs(f, i, dv, 1, stack, &n);
	for (bool more = true; more;) {
		while (n) {
			int32_t x = stack[--n];
			for (uint32_t j = rr->ustart[x]; j < rr->ustart[x + 1]; j++) {
				const struct px_insn *u = &f->insns[rr->ulist[j]];
				if (warp_same(u) || (u->op == PX_OP_SHFL && u->nopnds >= 2 && u->guard != x &&
				                     !(u->opnds[1].kind == PX_OPND_REG && u->opnds[1].reg == x)))
					continue;
				mark_defs(f, rr->ulist[j], dv, 1, stack, &n);
			}
		}
		more = false;
		for (uint32_t i = 0; i < f->ninsns; i++) {
			const struct px_insn *in = &f->insns[i];
			if (in->op != PX_OP_BRA || in->guard < 0 || !dv[in->guard] || done[i])
				continue;
			done[i] = 1;
			uint32_t P = f->blocks[in->block].ipdom, nb = 0;
			if (work > budget) {
				for (uint32_t r = 0; r < f->nregs; r++)
					if (!dv[r] && rr->dstart[r + 1] - rr->dstart[r] > 1) {
						dv[r] = 1;
						stack[n++] = (int32_t)r;
					}
				more |= n > 0;
				continue;
			}
			const struct px_block *b = &f->blocks[in->block];
			for (uint32_t k = 0; k < b->nsuccs; k++)
				if (b->succs[k] != P && seen[b->succs[k]] != i + 1) {
					seen[b->succs[k]] = i + 1;
					blk[nb++] = b->succs[k];
				}
			while (nb) {
				const struct px_block *r = &f->blocks[blk[--nb]];
				work += r->end - r->first + r->nsuccs + 1;
				for (uint32_t j = r->first; j < r->end; j++) {
					uint32_t nd;
					const int32_t *d = px_func_defs(f, j, &nd);
					for (uint32_t k = 0; k < nd; k++)
						if (!dv[d[k]] && (P >= f->nblocks || px_live_has(f, f->blocks[P].live_in, d[k]))) {
							dv[d[k]] = 1;
							stack[n++] = d[k];
						}
				}
				for (uint32_t k = 0; k < r->nsuccs; k++)
					if (r->succs[k] != P && seen[r->succs[k]] != i + 1) {
						seen[r->succs[k]] = i + 1;
						blk[nb++] = r->succs[k];
					}
			}
			more |= n > 0;
		}
	}
	free(stack);
	free(blk);
	free(seen);
	free(done);
	return dv;
}

/* Is operand o the same in every lane of a warp, as ptxas sees it: an
 * immediate or a variable's address, or a register (an address's base)
 * not lane-derived that the uniformity analysis does not find divergent
 * or that is vote-derived (struct lane_view)? */
static bool warp_uniform(const struct px_func *f, const struct lane_view *v, const struct px_operand *o)
{
	if (o->kind == PX_OPND_IMM || o->kind == PX_OPND_SYM || (o->kind == PX_OPND_ADDR && o->reg < 0))
		return true;
	if ((o->kind != PX_OPND_REG && o->kind != PX_OPND_ADDR) || o->reg < 0 || !f->an || !f->an->uni)
		return false;
	return !v->lane[o->reg] && (f->an->uni[o->reg] != PX_UNI_DIVERGENT || v->vote[o->reg]);
}

/* ptxas aggregates a 32-bit integer atom.add or red.add on global or
 * shared memory whose address is warp-uniform (bench/gpu/simt/
 * agg_probe.cu's SASS; held-out 11's queue_loop and compact_loop): with a
 * warp-uniform value, one atomic of the value times the lanes' count by
 * the highest active lane, its result to the others by SHFL.IDX
 * (AGG_UNIFORM; a shared one whose result nothing reads stays the lanes'
 * ATOMS); with a value that differs between lanes and a result that is
 * read, a SHFL.UP scan and the last lane's atomic of the total when all
 * 32 lanes run it (AGG_SCAN): sim_insn.agg. */
static void mark_aggregates(struct sim *s, const struct regrefs *rr)
{
	const struct px_func *f = s->f;
	struct lane_view v = {0};
	uint32_t elect_block = UINT32_MAX;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		if ((in->op != PX_OP_ATOM && in->op != PX_OP_RED) || !(s->ins[i].mw & MW(ADD)) || !in->ntypes)
			continue;
		char k = px_type_kind(in->types[0]);
		bool shared = in->space == PX_SPACE_SHARED || in->space == PX_SPACE_SHARED_CTA;
		uint32_t a = in->op == PX_OP_ATOM ? 1 : 0;   /* the address's operand, the value's after it */
		if ((k != 'u' && k != 's') || px_type_bits(in->types[0]) != 32 ||
		    (!shared && in->space != PX_SPACE_GLOBAL) || in->nopnds < a + 2 || in->opnds[a].kind != PX_OPND_ADDR)
			continue;
		if (!v.lane)
			lane_view_build(f, rr, &v);   /* (once, for the first candidate) */
		if (!warp_uniform(f, &v, &in->opnds[a]))
			continue;
		const struct px_operand *d = &in->opnds[0];
		bool read = a && d->kind == PX_OPND_REG && d->reg >= 0 && rr->ustart[d->reg + 1] > rr->ustart[d->reg];
		if (warp_uniform(f, &v, &in->opnds[a + 1])) {
			s->ins[i].agg = shared && !read ? AGG_NONE : AGG_UNIFORM;
			/* (the block's first: its election serves the others) */
			s->ins[i].agg_elect = s->ins[i].agg && !read && elect_block != in->block;
			if (s->ins[i].agg_elect)
				elect_block = in->block;
		} else
			s->ins[i].agg = read ? AGG_SCAN : AGG_NONE;
	}
	free(v.lane);
	free(v.vote);
}

/* The instructions that are several in SASS, each taking an issue slot of
 * its scheduler (sim_insn.slots; simt.c's commit_timing holds the
 * scheduler's pipes so long): a 64-bit integer add, sub, shift, logic
 * operation, min/max, compare or select is a pair of 32-bit ones (IADD3 +
 * IADD3.X, SHF + SHF, LOP3 + LOP3, ISETP + ISETP.EX, SEL + SEL), also twice
 * its pipe's time, except on addresses, which ptxas keeps as a 64-bit base
 * and 32-bit offsets (charging those too put 100 of 270 loops further,
 * rows4_loop +8% -> +51%); a 64-bit multiply its IMADs (sim_insn.split);
 * 64-bit popc/clz/brev/bfind two; a non-.ftz MUFU its range fix-up (FSETP,
 * FMUL, MUFU, FMUL). The addresses: the registers a memory access or cvta
 * reads as one, and the sources of the add, sub, mov and cvta that define
 * them. ncu's executed instructions (bench/gpu/simt/icount.sh) for 1273
 * loops: the model's count off by 13.9% at the median before, 12.8% with
 * this; collatz_loop/512 -48% -> -30%, montgomery_loop -27%/-20% ->
 * -20%/-16%, bm_option_loop/512 -20% -> -12%, nbody_loop/512 -24% -> -16%;
 * 37 loops moved, 27 closer (lo_sh/256 +20% -> -54%, a lock's order;
 * sfu_loop/256 +0% -> -14%). And a region ptxas predicates (ifconv)
 * issues when every lane's predicate is off as when any is on: its
 * branch's skip_slots (bssy_probe's bs_taken, 8 such regions of 8 FMAs:
 * 73 instructions an iteration executed where the model issued 24; counts
 * 12.8% -> 12.0%; bs_taken/512 -65% -> -20%, skip_work_loop/1024 -24% ->
 * -13%, 29 loops moved, 20 closer, its_lock_sh/512 -8% -> -62% further).
 * Only the slots: the hardware holds such an instruction for its
 * registers too (bs_taken/32, one warp, 286 cycles an iteration for the
 * 64 FMAs' chain), which the model does not (-49% there). */
static bool int64_pair_op(const struct px_insn *in)
{
	switch (in->op) {
	case PX_OP_ADD: case PX_OP_SUB: case PX_OP_SHL: case PX_OP_SHR: case PX_OP_AND: case PX_OP_OR:
	case PX_OP_XOR: case PX_OP_NOT: case PX_OP_NEG: case PX_OP_MIN: case PX_OP_MAX: case PX_OP_SELP:
	case PX_OP_SETP:
		return in->ntypes && px_type_bits(in->types[0]) == 64 && px_type_kind(in->types[0]) != 'f';
	default:
		return false;
	}
}

static void mark_slots(struct sim *s, const struct regrefs *rr)
{
	const struct px_func *f = s->f;
	uint8_t *addr = xcalloc(f->nregs + 1, 1);
	int32_t *stack = xmalloc((f->nregs + 1) * sizeof *stack);
	uint32_t n = 0;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		unsigned fl = px_opcode_flags(in->op);
		bool mem = (fl & (PX_OPF_LOAD | PX_OPF_STORE | PX_OPF_ATOMIC)) || in->op == PX_OP_CVTA;
		if (!mem)
			continue;
		for (uint32_t k = 0; k < in->nopnds; k++) {
			int32_t r = in->opnds[k].kind == PX_OPND_ADDR ? in->opnds[k].reg
			          : in->op == PX_OP_CVTA && in->opnds[k].kind == PX_OPND_REG ? in->opnds[k].reg : -1;
			if (r >= 0 && (uint32_t)r < f->nregs && !addr[r]) {
				addr[r] = 1;
				stack[n++] = r;
			}
		}
	}
	while (n) {
		int32_t r = stack[--n];
		for (uint32_t k = rr->dstart[r]; k < rr->dstart[r + 1]; k++) {
			const struct px_insn *d = &f->insns[rr->dlist[k]];
			if (d->op != PX_OP_ADD && d->op != PX_OP_SUB && d->op != PX_OP_MOV && d->op != PX_OP_CVTA)
				continue;
			uint32_t nu;
			const int32_t *u = px_func_uses(f, rr->dlist[k], &nu);
			for (uint32_t q = 0; q < nu; q++)
				if (!addr[u[q]]) {
					addr[u[q]] = 1;
					stack[n++] = u[q];
				}
		}
	}
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		struct sim_insn *si = &s->ins[i];
		if (si->free)
			continue;
		if (si->split)
			si->slots = (uint8_t)(si->split + si->split_wide);
		if (si->bits64)
			si->slots = 2;
		if (si->bitop == 2)   /* (clz: FLO and an IADD3 from 31) */
			si->slots = (uint8_t)(si->slots > 1 ? si->slots + 1 : 2);
		if (si->fixup)
			si->slots = 4;
		if (int64_pair_op(in)) {
			bool a = false;
			uint32_t nu;
			const int32_t *u = px_func_uses(f, i, &nu);
			for (uint32_t q = 0; q < nu; q++)
				a |= addr[u[q]];
			int32_t d = single_def(f, i);
			a |= d >= 0 && addr[d];
			/* a shift by 32 or more makes one word of the other: one
			 * SHF (or IMAD.SHL) in SASS, the other word RZ
			 * (xorshift_walk_loop's r >> 62: SHF.R.U32.HI); shr.s64
			 * keeps two, the other word the sign */
			a |= (in->op == PX_OP_SHL || (in->op == PX_OP_SHR && px_type_kind(in->types[0]) != 's')) &&
			     in->nopnds == 3 && in->opnds[2].kind == PX_OPND_IMM && in->opnds[2].imm >= 32;
			if (!a) {
				si->slots = 2;
				si->bits64 = 1;   /* (twice the pipe's time: sim_exec) */
			}
		}
	}
	for (uint32_t i = 0; i < f->ninsns; i++) {
		struct sim_insn *si = &s->ins[i];
		if (!si->ifconv)
			continue;
		uint32_t n = 0;
		for (uint32_t j = i + 1; j < si->target && j < f->ninsns; j++)
			n += s->ins[j].free ? 0 : s->ins[j].slots > 1 ? s->ins[j].slots : 1;
		si->skip_slots = (uint8_t)(n > 255 ? 255 : n);
	}
	free(stack);
	free(addr);
}

void sim_mark_free(struct sim *s)
{
	const struct px_func *f = s->f;
	struct regrefs rr = {0};
	regrefs_build(f, &rr);
	s->sdiv = static_divergence(f, &rr);
#define NUSE(r) (rr.ustart[(r) + 1] - rr.ustart[r])
#define NDEF(r) (rr.dstart[(r) + 1] - rr.dstart[r])
	uint8_t *dpx_took = xcalloc(f->ninsns + 1, 1);   /* a min/max that took a source (VIADDMNMX, VIMNMX3) */
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		struct sim_insn *si = &s->ins[i];
		/* rsqrt, ex2 and lg2 .approx.f32 are one MUFU (sim_insn.mufu:
		 * latency.sfu_mufu, the sfu latency being sin's FMUL and
		 * MUFU.SIN); without .ftz ptxas puts a denormal range fix-up
		 * around it (FSETP; @!P FMUL; MUFU; @!P FMUL, or FADD for lg2:
		 * tests/fixtures/simt/heldout/simt_heldout.sm_90.sass, nbody_loop
		 * and softmax_loop; probes/sfu2_probe.sm_90.sass), two FP32
		 * instructions on the pipe and latency.sfu_fixup on the chain */
		/* a constant-memory load at a register's address is an LDC, 28
		 * cycles on sm_90 (bssy_probe's ldc_chain/32: 447.6 an iteration
		 * for 16 in a chain); at an immediate one ptxas reads the bank
		 * in the instruction that uses it (c[0x3][imm]) */
		if (in->op == PX_OP_LD && in->space == PX_SPACE_CONST)
			for (uint32_t k = 0; k < in->nopnds; k++)
				si->ldc |= in->opnds[k].kind == PX_OPND_ADDR && in->opnds[k].reg >= 0;
		if ((in->op == PX_OP_RSQRT || in->op == PX_OP_EX2 || in->op == PX_OP_LG2) &&
		    (in->mods & PX_MOD_APPROX) && in->ntypes && in->types[0] == PX_TYPE_F32) {
			si->mufu = 1;
			si->fixup = !(in->mods & PX_MOD_FTZ);
		}
		/* unpacks: mov of a register into a vector of its parts (the
		 * halves of a .b32, the words of a .b64): SASS addresses the
		 * parts in place (HADD2.F32 R, -RZ, R.H1_H1; register pairs) */
		if (in->op == PX_OP_MOV && in->nopnds == 2 && in->guard < 0 &&
		    in->opnds[0].kind == PX_OPND_VEC && in->opnds[1].kind == PX_OPND_REG) {
			si->free = 1;
			continue;
		}
		int32_t d = single_def(f, i);
		if (d < 0 || in->guard >= 0 || special_src(in))
			continue;
		/* copies */
		if (in->op == PX_OP_MOV && in->nopnds == 2 &&
		    (in->opnds[1].kind == PX_OPND_REG || in->opnds[1].kind == PX_OPND_IMM ||
		     in->opnds[1].kind == PX_OPND_FIMM)) {
			si->free = 1;
			continue;
		}
		/* zero extension feeding 64-bit address arithmetic */
		if (in->op == PX_OP_CVT && in->ntypes > 1 && in->types[0] == PX_TYPE_U64 &&
		    in->types[1] == PX_TYPE_U32 && all_uses(f, &rr, d, zext_user)) {
			si->free = 1;
			continue;
		}
		/* the low word of a 64-bit shift right by 32 or more (cvt.u32.u64
		 * and its signed kinds, no saturation, of shr.u64 x, 32..63):
		 * the shift's one SHF makes it (held-out 22's
		 * xorshift_walk_loop, (unsigned)(r >> 62): SHF.R.U32.HI alone).
		 * Other truncations stay: taken as free everywhere, the SASS
		 * counts of 29 loops went further (bench/gpu/simt/
		 * icount_compare.py: the look-back chains' probes, fft_stage,
		 * cuckoo_lookup), as ptxas moves some words */
		if (in->op == PX_OP_CVT && in->ntypes > 1 && !(in->mods & PX_MOD_SAT) &&
		    px_type_bits(in->types[0]) == 32 && px_type_kind(in->types[0]) != 'f' &&
		    px_type_bits(in->types[1]) == 64 && px_type_kind(in->types[1]) != 'f' &&
		    in->nopnds == 2 && in->opnds[1].kind == PX_OPND_REG && high_word_shift(f, &rr, in->opnds[1].reg)) {
			si->free = 1;
			continue;
		}
		/* a 64-bit shift by 32 that moves one word into the other and
		 * zeroes the other (shl.b64, shr.u64/b64): RZ and the pair's
		 * other register in SASS (xorshift_walk_loop's r >> 32) */
		if (in->ntypes && px_type_bits(in->types[0]) == 64 &&
		    (in->op == PX_OP_SHL || (in->op == PX_OP_SHR && px_type_kind(in->types[0]) != 's')) &&
		    in->nopnds == 3 && in->opnds[2].kind == PX_OPND_IMM && in->opnds[2].imm == 32) {
			si->free = 1;
			continue;
		}
		/* [reg+imm] addressing */
		if (is_add_bits(in, 64) && in->nopnds == 3 && in->opnds[2].kind == PX_OPND_IMM &&
		    all_uses(f, &rr, d, address_user)) {
			si->free = 1;
			continue;
		}
		/* fusion into the single consumer, later in the same block */
		if (NUSE(d) != 1 || NDEF(d) != 1)
			continue;
		uint32_t j = rr.ulist[rr.ustart[d]];
		if (j <= i || f->insns[j].block != in->block)
			continue;
		const struct px_insn *c = &f->insns[j];
		bool fuse = false;
		if (s->dpx && is_minmax32(c) && !dpx_took[i] && !dpx_took[j] &&
		    (is_int32_add(in) || (is_minmax32(in) && in->op == c->op && in->types[0] == c->types[0]))) {
			dpx_took[j] = 1;
			fuse = true;
		} else if (is_int32_add(in))
			fuse = is_int32_add(c);
		else if (is_logic32(in))
			fuse = is_logic32(c) || (in->op == PX_OP_AND && zero_test(c));
		else if (in->op == PX_OP_MUL && in->mods & PX_MOD_WIDE && in->ntypes &&
		         px_type_bits(in->types[0]) == 32)
			fuse = is_add_bits(c, 64);
		else if (in->op == PX_OP_MUL && in->mods & PX_MOD_LO && in->ntypes &&
		         px_type_kind(in->types[0]) != 'f' && px_type_bits(in->types[0]) == 32)
			fuse = is_add_bits(c, 32);
		else if (in->op == PX_OP_SHL && in->nopnds == 3 && in->opnds[2].kind == PX_OPND_IMM && in->ntypes) {
			fuse = is_add_bits(c, px_type_bits(in->types[0]));
			int32_t r = fuse ? -1 : funnel_partner(f, &rr, i, j);
			if (r >= 0) {
				s->ins[r].free = 1;
				fuse = true;
			}
		}
		if (fuse)
			si->free = 1;
	}
	free(dpx_took);
	mark_constant_offsets(s, &rr);
	mark_aggregates(s, &rr);   /* (before the if-conversion, which reads it) */
	mark_vector_loads(s, &rr);
	mark_selects(s, &rr);
	mark_pred_roundtrips(s, &rr);
	mark_select_adds(s, &rr);
	/* if-conversion */
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		uint32_t t = s->ins[i].target;
		bool uniform = in->guard >= 0 && !s->sdiv[in->guard];
		if (in->op != PX_OP_BRA || in->guard < 0 || t == UINT32_MAX || t <= i + 1 || t - (i + 1) > IFCONV_MAX ||
		    f->blocks[in->block].end != i + 1 || f->blocks[f->insns[i + 1].block].end != t)
			continue;
		bool ok = true;
		uint32_t issuing = 0;   /* (uniform: at most UNIFORM_IFCONV of them) */
		for (uint32_t j = i + 1; j < t && ok; j++) {
			ok = predicable(s, &rr, j);
			issuing += !s->ins[j].free;
		}
		s->ins[i].ifconv = ok && (!uniform || issuing <= UNIFORM_IFCONV);
	}
	mark_diamonds(s, &rr);
	join_regions(s);
	mark_convergence(s);
	mark_predicate_feeders(s, &rr);
	/* loop invariants: repeated until nothing changes, since a hoisted
	 * instruction makes its users invariant too */
	for (uint32_t l = 0; l < f->nloops; l++) {
		const struct px_loop *lp = &f->loops[l];
		bool changed = true;
		while (changed) {
			changed = false;
			for (uint32_t bi = 0; bi < lp->nblocks; bi++) {
				const struct px_block *b = &f->blocks[lp->blocks[bi]];
				for (uint32_t i = b->first; i < b->end; i++) {
					const struct px_insn *in = &f->insns[i];
					struct sim_insn *si = &s->ins[i];
					if (si->hoisted)
						continue;
					unsigned fl = px_opcode_flags(in->op);
					if (fl & (PX_OPF_LOAD | PX_OPF_STORE | PX_OPF_ATOMIC | PX_OPF_BRANCH | PX_OPF_TERM |
					          PX_OPF_CALL | PX_OPF_BARRIER | PX_OPF_WARP) || in->guard >= 0 ||
					    sreg_src(in) || in->op == PX_OP_LD || in->op == PX_OP_LDU || si->pipe == P_SHFL)
						continue;
					int32_t d = single_def(f, i);
					if (d < 0 || NDEF(d) != 1)
						continue;
					uint32_t n;
					const int32_t *u = px_func_uses(f, i, &n);
					bool inv = true;
					for (uint32_t k = 0; k < n && inv; k++)
						inv = invariant_in(s, &rr, u[k], (int32_t)l);
					if (inv) {
						si->hoisted = 1;
						si->free = 1;
						changed = true;
					}
				}
			}
		}
	}
	mark_expansions(s, &rr);   /* (reads hoisted) */
	mark_shared_bases(s);   /* (after the hoisting, which it undoes for its movs) */
	mark_mask_checks(s, &rr);
	mark_reunrolled(s, &rr);   /* (reads free, hoisted and expand) */
	mark_slots(s, &rr);   /* (reads free, split, bits64, fixup) */
#undef NUSE
#undef NDEF
	regrefs_free(&rr);
}
