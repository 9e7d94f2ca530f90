/* simt_int.h: the simulator's internal state, shared by simt_exec.c (one
 * warp-instruction on concrete values) and simt.c (scheduling, timing,
 * SIMT stack, verifier, results). Not a public header. */
#ifndef PX_SIMT_INT_H
#define PX_SIMT_INT_H

#include <string.h>

#include "simt.h"
#include "../util.h"

/* The scheduler's small per-cycle helpers (simt.c): always inlined into
 * run(), which is kept out of px_simt_func so that gcc's growth limits for
 * one large function do not make it give up inlining them (what it
 * inlines otherwise changed with unrelated edits, by several percent of
 * the simulator's instructions). */
#define SIM_HOT static inline __attribute__((always_inline))

/* The set bits of x, without a call (the baseline x86-64 has no popcnt
 * instruction, and gcc's __builtin_popcountll calls libgcc there). */
SIM_HOT uint32_t sim_popcount(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

/* Address windows of the simulated machine (generic addresses). */
#define SIM_SHARED_WIN 0x00007f0000000000ull   /* generic base of shared memory */
#define SIM_LOCAL_WIN 0x00007e0000000000ull    /* generic base of local memory */
#define SIM_PARAM_PTR(i) (0x0000010000000000ull * ((uint64_t)(i) + 1))  /* pointer params */
#define SIM_GLOBAL_VARS 0x0000000010000000ull  /* module .global variables */

/* A cp.async copy not yet waited for (struct sim_warp.cp): one lane's
 * cp-size bytes (4, 8 or 16), read from global memory when it issued,
 * written to shared memory when the lane waits for its group. */
struct sim_cp {
	uint32_t pc;         /* the cp.async (its line names the write) */
	uint32_t group;      /* the lane's commit count when it issued: its group */
	uint8_t lane, words; /* 1, 2 or 4 words */
	uint8_t unk;         /* per word: unknown */
	uint64_t dst;        /* shared byte offset */
	uint32_t val[4];
};

/* The groups of cp.async copies whose ends a warp keeps (a wait takes
 * older ones as ended: a pipeline waits on 2 to 4 groups) */
#define SIM_CP_RING 16
/* ... and the copies it keeps that no wait has written, at most */
#define SIM_CP_MAX 4096

/* L1 misses one warp can have in flight, at most (the arch table's
 * throughput.l1_misses_per_warp, clamped to this) */
#define SIM_MAX_MISSES 64

/* Pipelines an instruction occupies (timing classes). */
/* What a shared atomic's lanes that name one word cost each (the arch
 * table's throughput.shared_atomic*_lane; atoms_probe) */
enum sim_atom_class {
	SIM_ATOM_OTHER,   /* exch, add (but of 1 unread: simt_exec.c's atom_serial), min, max, and, or, xor, inc, dec */
	SIM_ATOM_CAS,     /* cas */
	SIM_ATOM_COUNT
};

/* The SM-wide units the schedulers share: the MIO (P_SHARED, P_SHFL) and
 * the LSU (P_GLOBAL) */
enum sim_unit { U_MIO, U_LSU, SIM_UNITS };

enum sim_pipe { P_ALU, P_IMAD, P_FP32, P_FP64, P_SFU, P_SHARED, P_GLOBAL, P_SHFL, P_BAR, P_BRANCH,
                P_TENSOR, P_COUNT };

/* PTX instructions ptxas expands into a sequence (simt_fuse.c's
 * mark_expansions): their latency and the scheduler's issue cycles come
 * from the arch table (sim.ex_lat, ex_issue) instead of their pipe's. */
enum sim_expand {
	EX_NONE,
	EX_IDIV,       /* integer div/rem by a register, 32-bit unsigned */
	EX_IDIV_S,     /* ... 32-bit (or narrower) signed */
	EX_IDIV_INV,   /* ... 32-bit, by a register the innermost loop does not change */
	EX_IDIV64,     /* ... 64-bit (a call) */
	EX_FDIV,       /* div.rn/rz/rm/rp.f32 (IEEE) */
	EX_FSQRT,      /* sqrt.rn/rz/rm/rp.f32 (IEEE) */
	EX_FRCP,       /* rcp.rn/rz/rm/rp.f32 (IEEE) */
	EX_DDIV,       /* div.rn/rz/rm/rp.f64 */
	EX_DSQRT,      /* sqrt.rn/rz/rm/rp.f64 */
	EX_COUNT
};

/* The loads that space one warp's loads (sim_insn.ld_class, sim.ld_gap,
 * sim_warp.ld_next): those with a result that take an issue slot, by
 * their pipe. Stores and atomics are not spaced. */
enum sim_ld {
	LD_NONE,
	LD_SHARED,   /* P_SHARED: ld.shared */
	LD_GLOBAL,   /* P_GLOBAL: global, local and generic loads (the LSU) */
	LD_COUNT
};

/* The branches of an if/else that ptxas writes as predicated code
 * (simt_fuse.c's mark_diamonds): all three cost nothing and go to the
 * next instruction; the conditional one sets the if/else's lane mask
 * (sim_insn.side_slot), which the instructions of its sides are guarded
 * by. */
enum sim_diamond {
	DM_NONE,
	DM_SPLIT_TAKEN,   /* the conditional branch; side 1 is the lanes that take it */
	DM_SPLIT_FALL,    /* ... side 1 is the lanes that fall through */
	DM_JUMP,          /* an unconditional branch within it (to side 2, or past it) */
};

/* How sim_exec runs an instruction (decoded once from its opcode, types
 * and modifiers). */
enum sim_ek {
	EK_OTHER,      /* the opcode switch of sim_exec (mov, setp, cvt, ...) */
	EK_MEM,        /* ld, st, atom, red and other memory operations */
	EK_WARP,       /* shfl, vote, match, redux, activemask */
	EK_NOP,        /* no register result (barriers, branches, prefetch, ...) */
	EK_UNSIM,      /* not simulated: its results become unknown */
	EK_F32,        /* add/sub/mul/fma/mad.f32 without .ftz/.sat */
	EK_INT,        /* add/sub/mul/mad/and/or/xor on 16/32/64-bit integers, modulo 2^bits */
	EK_ARITH,      /* the other arithmetic: fop/iop per lane */
};

struct sim_opnd {
	uint8_t kind;      /* enum px_operand_kind */
	uint8_t neg;
	int8_t comp;
	uint8_t nel;       /* VEC: elements */
	uint16_t sreg;
	uint32_t slot;     /* REG: register slot */
	uint64_t imm;      /* IMM/FIMM bits (per the instruction's type), SYM address */
	uint32_t *el;      /* VEC: nel slots (UINT32_MAX = sink or immediate 0), in s->ins's
	                    * block after the memos (sim_decode); the px_operand: si->in->opnds[k] */
};

/* The modifier words the interpreter tests while it runs, found once per
 * instruction (sim_insn.mw, bit MW(NAME)). */
#define SIM_MODWORDS(X)                                                                    \
	X(ADD, ".add") X(AND, ".and") X(OR, ".or") X(XOR, ".xor") X(MIN, ".min") X(MAX, ".max") \
	X(EXCH, ".exch") X(CAS, ".cas") X(INC, ".inc") X(DEC, ".dec") X(CG, ".cg") X(CV, ".cv") \
	X(UP, ".up") X(DOWN, ".down") X(BFLY, ".bfly") X(BALLOT, ".ballot") X(ALL, ".all")      \
	X(ANY, ".any") X(CLAMP, ".clamp") X(L, ".l") X(SHIFTAMT, ".shiftamt") X(RELU, ".relu")       \
	X(NAN, ".NaN") X(SATFINITE, ".satfinite") X(HI, ".hi")
enum sim_modword {
#define X(e, s) MWB_##e,
	SIM_MODWORDS(X)
#undef X
};
#define MW(e) (1u << MWB_##e)

/* The small floating-point formats (simt_half.c): .f16 (IEEE binary16)
 * and .bf16 (bfloat16), with sim_half_arith's modifier flags; the 8-bit
 * .e4m3 and .e5m2, for conversions only (sim_half_value, _operand, _round
 * take all four; the arithmetic, sim_half_f64_bits and sim_half_pair the
 * 16-bit two: PTX has no arithmetic on the 8-bit ones but mma). */
enum sim_hf { SIM_HF_NONE, SIM_HF_F16, SIM_HF_BF16, SIM_HF_E4M3, SIM_HF_E5M2 };
#define SIM_HF_FTZ 1u
#define SIM_HF_SAT 2u
#define SIM_HF_RELU 4u
#define SIM_HF_NAN 8u      /* min/max.NaN */
/* the format of PTX type t (SIM_HF_NONE: not one); *x2: two packed */
unsigned sim_half_format(unsigned t, bool *x2);
/* the bits of one value of format fmt: 16, or 8 for e4m3 and e5m2 */
unsigned sim_half_width(unsigned fmt);
/* the value of h (exact) */
double sim_half_value(uint16_t h, unsigned fmt);
/* the f64 of h (cvt.f64.f16: a NaN keeps its payload) */
uint64_t sim_half_f64_bits(uint16_t h, unsigned fmt);
/* ... with .ftz's flush of a subnormal input: a comparison's operand */
double sim_half_operand(uint16_t h, unsigned fmt, bool ftz);
/* x (exact, or rounded to odd) rounded to fmt: rnd 0 rn, 1 rz, 2 rm, 3 rp;
 * satfinite: the largest finite value for an overflow */
uint16_t sim_half_round(double x, unsigned fmt, unsigned rnd, bool satfinite);
/* op (add, sub, mul, fma, neg, abs, min, max; ex2, tanh .approx) on
 * halves; *unk set for any other op */
uint16_t sim_half_arith(enum px_opcode op, unsigned fmt, unsigned fl, uint16_t a, uint16_t b, uint16_t c,
                        bool *unk);
/* ... on the low halves of a, b and c, and (x2) on the high halves too */
uint32_t sim_half_pair(enum px_opcode op, unsigned fmt, unsigned fl, bool x2, uint32_t a, uint32_t b, uint32_t c,
                       bool *unk);
/* a 64-bit integer (signed when sgn) as a double rounded to odd */
double sim_int_odd(uint64_t v, bool sgn);
/* dp4a / dp2a (hi: dp2a.hi) on 32-bit words, modulo 2^32 */
uint32_t sim_dot(enum px_opcode op, bool a_sgn, bool b_sgn, bool hi, uint32_t a, uint32_t b, uint32_t c);

/* The f32 and f64 arithmetic beyond C's default environment
 * (simt_float.c): op (add, sub, mul, fma/mad, div, rcp, sqrt) and the
 * conversions to floating point, rounded per rnd (0 rn, 1 rz, 2 rm, 3 rp). */
double sim_f64_rounded(enum px_opcode op, unsigned rnd, double x, double y, double z);
float sim_f32_rounded(enum px_opcode op, unsigned rnd, float x, float y, float z);
float sim_f32_of_f64(double x, unsigned rnd);
float sim_f32_of_int(uint64_t v, bool sgn, unsigned rnd);
double sim_f64_of_int(uint64_t v, bool sgn, unsigned rnd);
/* The H100's NaN: what f32 arithmetic (and abs, neg, min, max, cvt of an
 * f32 to an f32) gives for a NaN result, whatever its operands' payloads
 * (bench/gpu/simt/scalar_ops.cu; the PTX ISA leaves the bits open) */
#define SIM_F32_NAN 0x7fffffffu

/* prmt's modes (sim_insn.mode): none, .f4e, .b4e, .rc8, .ecl, .ecr, .rc16 */
enum sim_prmt { PRMT_GENERIC, PRMT_F4E, PRMT_B4E, PRMT_RC8, PRMT_ECL, PRMT_ECR, PRMT_RC16 };
/* cvt's (sim_insn.mode): cvt.pack's, the packed type's bits and sign;
 * a tf32 destination's rounding */
#define CVT_PACK 0x80u
#define CVT_PACK_SIGNED 0x40u
#define CVT_PACK_BITS 0x1fu
enum { CVT_TF32_RN, CVT_TF32_RNA, CVT_TF32_RZ };
#define CVT_TF32_RND 0x3u
/* testp's tests (sim_insn.mode) */
enum sim_testp { TESTP_FINITE, TESTP_INFINITE, TESTP_NUMBER, TESTP_NOTANUMBER, TESTP_NORMAL, TESTP_SUBNORMAL };

struct sim_memo;
/* How ptxas aggregates an integer atomic add to a warp-uniform address
 * (simt_fuse.c's mark_aggregates): not at all; with a warp-uniform
 * value, the leader's one atomic of the value times the active lanes
 * (VOTEU.ANY, FLO, POPC, then SHFL.IDX of its result); with a value that
 * differs between the lanes, where the whole warp runs it, the last lane's
 * atomic of a SHFL.UP scan's total (then two SHFL), each lane's own
 * atomic otherwise. */
enum sim_agg { AGG_NONE, AGG_UNIFORM, AGG_SCAN };

/* sim_insn.bssy: none; a branch whose paths rejoin after it (the warp pays
 * when it does not split); a loop's exit (it pays when it leaves) */
enum sim_bssy { BSSY_NONE, BSSY_BRANCH, BSSY_EXIT };

/* sim_insn.shbase: none; the base's rebuild; a later access that reuses it */
enum sim_shb { SHB_NONE, SHB_BUILD, SHB_REUSE };

struct sim_insn {
	const struct px_insn *in;
	struct sim_memo *memo;   /* memory operations: simt_exec.c's access memo (in s->ins's block) */
	uint32_t mw;       /* SIM_MODWORDS present */
	unsigned flags;    /* px_opcode_flags(in->op) */
	uint8_t pipe;      /* enum sim_pipe: the pipe it issues to */
	uint8_t lat_pipe;  /* the pipe whose latency its result has */
	uint8_t ek;        /* enum sim_ek: how sim_exec runs it */
	uint8_t f32op;     /* EK_F32: simt_exec.c's F32_ADD, F32_SUB, F32_MUL or F32_FMA */
	uint8_t half;      /* enum sim_hf of its first type (arithmetic, setp/set: simt_half.c), | 0x80 for x2 */
	uint8_t nop;
	uint8_t rnd;       /* rounding: 0 rn, 1 rz, 2 rm, 3 rp; +4 for the integer rounding (rni...) */
	uint8_t mode;      /* prmt's mode (enum sim_prmt), testp's test (enum sim_testp), cvt's packing
	                    * (CVT_PACK...) or tf32 rounding (CVT_TF32_...) */
	bool is_signed;
	uint16_t tbits;    /* px_type_bits of its first type (.b32 without one): sim_exec's arithmetic */
	char tkind;        /* px_type_kind of that type */
	bool fl_op;        /* EK_ARITH: a floating-point type or operation (fop; else iop or predicates) */
	uint8_t free;      /* costs no issue slot in SASS (simt_fuse.c) */
	uint8_t hoisted;   /* loop invariant: ptxas moves it out of the loop */
	uint8_t ifconv;    /* a branch over a region ptxas predicates (simt_fuse.c) */
	uint8_t vecw;      /* ld.shared leading a vector load of this many (2 or 4), 1 for the ones
	                    * it takes in (free: their values arrive with it), else 0 (simt_fuse.c) */
	uint8_t fixup;     /* an SFU op ptxas wraps in a range fix-up (simt_fuse.c) */
	uint8_t mufu;      /* an SFU op that is one MUFU, no FMUL before it (simt_fuse.c) */
	uint8_t bitop;     /* popc, brev or bfind (POPC, BREV, FLO): 1; clz (FLO, then an IADD3 from
	                    * 31): 2; latency.bitop (simt_exec.c) */
	uint8_t ldc;       /* a constant-memory load at a register's address: LDC, sim.ldc_lat (simt_fuse.c) */
	uint8_t mask_check; /* a shfl.sync whose membermask ptxas checks at run time (simt_fuse.c) */
	bool agg_elect;    /* the first AGG_UNIFORM atomic of its block whose result nothing reads:
	                    * the leader's election (VOTEU.ANY, UFLO, ISETP) before it, which
	                    * ptxas does once for the block's atomics (simt_fuse.c's
	                    * mark_aggregates; latency.atom_aggregate_elect) */
	uint8_t agg;       /* enum sim_agg: an integer atomic add ptxas aggregates over the warp
	                    * (simt_fuse.c's mark_aggregates; simt_exec.c's exec_mem) */
	uint8_t shbase;    /* enum sim_shb: names a shared variable whose address ptxas rebuilds in the
	                    * loop from SR_CgaCtaId (simt_fuse.c's mark_shared_bases): a mov of the
	                    * address takes sim.shbase_lat, the block's first load or atomic at it
	                    * sim.shbase_lat more (SHB_BUILD), a later one waits for that base
	                    * (SHB_REUSE: sim_warp.shbase_at) */
	uint8_t expand;    /* enum sim_expand: a sequence in SASS (simt_fuse.c) */
	uint8_t diamond;   /* enum sim_diamond: a branch of an if/else ptxas predicates (simt_fuse.c) */
	uint8_t side;      /* 1 or 2: on that side of such an if/else, run by the lanes whose bit of
	                    * side_slot is 1 (side 1) or 0 (side 2); 0: not in one */
	uint32_t side_slot;   /* the if/else's lane mask (a slot its branch writes) */
	bool src_regs;     /* op[1..nop-1]: 1 to 3 registers without negation (read in place) */
	bool dst_alone;    /* op[0] a register that no source names (written in place) */
	bool guarded;      /* it has a guard predicate (px_insn.guard >= 0) or a side (sim_guard_pred) */
	bool block_bar;    /* a bar.sync of the whole block (simt.c's block_barrier) */
	bool scan_stop;    /* control, barrier or warp-wide: issue_early looks no further */
	bool wall;         /* ... and ptxas's SASS splits the block there (a loop or a call it writes
	                    * for the instruction: simt.c's cas_loop, simt_fuse.c's ex_branches):
	                    * nothing after it issues early while it waits at the top either */
	bool cas_loop;     /* a shared atomic ptxas writes as a CAS loop (simt.c's cas_loop) */
	bool reg_only;     /* simt.c's reg_only */
	uint8_t mem_class; /* simt.c's mem_space_class */
	uint8_t ld_class;  /* enum sim_ld: a load one warp issues at most every sim.ld_gap cycles */
	uint8_t ld_regs;   /* a load's: the 32-bit registers its result takes (simt.c's EARLY_LOAD_REGS) */
	bool loop_head;    /* the first instruction of a loop's header block */
	bool back_edge;    /* a branch back to its innermost loop's first instruction, the loop without inner ones (follow_back_edge) */
	bool reunroll;     /* the back edge of a loop ptxas unrolls again by 4 (simt_fuse.c's mark_reunrolled) */
	uint8_t bssy;      /* enum sim_bssy: a conditional branch ptxas gives a convergence region, BSSY
	                    * and BSYNC (simt_fuse.c's mark_convergence): sim.bssy_lat more, and their
	                    * issue slots (simt.c's convergence_slots) */
	bool cp_wait;      /* cp.async.wait_group / wait_all: issue_early looks no further (simt_exec.c's exec_cp) */
	bool cp_copy;      /* a cp.async copy: sim.cp_issue issue slots (LDGSTS and ptxas's padding) */
	bool mma64;        /* P_TENSOR: an f64 mma (sim.mma64_lat, mma64_occ) */
	bool bits64;       /* popc, clz, brev or bfind of 64 bits: two instructions on the pipe (simt_exec.c's sim_exec) */
	/* a 64-bit integer multiply ptxas writes as 32-bit IMADs (simt_exec.c's
	 * decode; sim_exec): how many IMADs and IMAD.WIDEs (sim.imad_wide_occ),
	 * and how many IMADs lie on its result's path, then an ALU add */
	uint8_t split;
	uint8_t split_wide;
	uint8_t split_chain;
	/* the SASS instructions it becomes, each taking an issue slot of its
	 * scheduler (simt_fuse.c's mark_slots); 0 or 1: one */
	uint8_t slots;
	/* an if-converted branch (ifconv): the issue slots of its region,
	 * which SASS issues predicated off when every lane skips it */
	uint8_t skip_slots;
	uint8_t mbar;      /* enum sim_mb: an mbarrier operation (simt_mbar.c), 0 none */
	uint8_t mbar_fl;   /* its MBF_* forms */
	bool plain;        /* none of the opcodes issue() handles apart (bra, ret, exit, bar, barrier, mbarrier, cp) */
	bool ct_rare;      /* mufu, fixup, mask_check, shbase, expand, ld_class or cp_copy: commit_timing's work beyond the common */
	bool sync_mem;     /* a strong shared access (atomic, volatile, relaxed, acquire, release) in a
	                    * kernel with spin_edges: it orders other threads' accesses (simt_its.c) */
	bool poll;         /* a read whose value decides whether a spin_edge goes round again: it
	                    * races with no write (the loop reads again until it sees the one
	                    * it waits for: simt_its.c) */
	bool poll_peeled;  /* a poll of a loop whose spin edge is unconditional (simt_its.c) */
	bool spin_edge;    /* the back edge of a loop that waits on memory other threads write:
	                    * an independent-thread-scheduling yield point (simt_its.c) */
	uint8_t fence;     /* membar/fence: 1 for the block, 2 for the GPU or system (simt_exec.c's
	                    * fence_wait), 0 none (fence.proxy and the like) */
	bool l2_only;      /* a global access that leaves the L1 alone: .cg or .cv, or a volatile load or a
	                    * relaxed or acquire one beyond the block (ptxas's LDG.E.STRONG.GPU/SYS:
	                    * fence_probe's ldv_gl_lat, 301 to 309 cycles a dependent load) */
	bool red;          /* an atomic whose result no instruction reads, not an exchange or CAS
	                    * (ptxas's RED; ATOMG.EXCH stays: simt_exec.c's global_atomic) */
	bool carry;        /* reads or writes the carry flag (.cc; addc, subc, madc): simt_exec.c's exec_carry */
	bool hoist_past;   /* not register-only, and a register-only instruction after it in its block that may move up past it (simt.c's mark_hoist_past) */
	/* the straight-line code it is in, [block_first, block_end)
	 * (instruction indices): its basic block, joined with the blocks of
	 * the if/else statements ptxas predicates that follow it and with the
	 * block after them (simt_fuse.c's mark_diamonds) */
	uint32_t block_first, block_end;
	/* the hazards within its basic block (simt.c's win_hazards): bit
	 * 64 - d of hold, the instruction d before it (1 <= d <= LOOKAHEAD)
	 * writes a register it reads or writes, reads one it writes, or
	 * stores to a state space it accesses; bit d of holds, the
	 * instruction d after it is held back by it so */
	uint64_t hold, holds;
	uint32_t target;   /* branch: instruction index */
	uint32_t nuses, ndefs;
	uint32_t uses[12], defs[8];   /* slots */
	struct sim_opnd op[6];
};

/* The sparse global/local memory: pages of 16 4-byte words (a page holds
 * neighbouring words, so a warp's accesses mostly share one), in an open
 * addressing table by page number. */
#define SIM_PAGE_WORDS 16
struct sim_page {
	uint64_t key;      /* page number + 1; 0 = free slot */
	uint32_t val[SIM_PAGE_WORDS];
	uint8_t known[SIM_PAGE_WORDS];   /* per word: byte mask of known bytes */
};
struct sim_mem {
	struct sim_page *p;
	uint64_t n, cap;   /* cap a power of two */
};

/* A set of 128-byte line numbers (the L1/L2 model): 64 neighbouring lines
 * per slot, one bit each. */
struct sim_lineset_slot {
	uint64_t key;      /* line number / 64 + 1; 0 = free slot */
	uint64_t bits;
};
struct sim_lineset {
	struct sim_lineset_slot *p;
	uint64_t n, cap;
	struct sim_lineset_slot *last;   /* the slot found last (NULL: none): a stream's next line's, mostly */
};

/* The L1 data cache of limited capacity (simt_cache.c): whether a touch of
 * a line hits follows its reuse distance D, the other lines touched since
 * its last touch, against the capacity C in lines: a hit below lo = 0.95 C,
 * a miss from hi = 1.36 C, in between a hit for the fraction (hi - D) /
 * (hi - lo) of touches (spread evenly by error diffusion: deterministic).
 * D comes from counts of the touches' stamps in a ring, which is
 * compacted when full (the lines beyond hi dropped: they would miss).
 * A line's stamp counts only while the ring still names the line there
 * (compaction reuses stamps without clearing the dropped lines' own).
 * A line holds the 32-byte sectors touched since it came in; a load hits
 * where it holds every sector asked for.
 * cap 0: no capacity (a line once touched always hits, by the line). */
#define SIM_L1_SUPER 64   /* words of sim_l1.bits per count of scnt */
#define SIM_L1_CHUNK 16   /* neighbouring lines per slot of the line table */
struct sim_l1chunk {
	uint64_t key;      /* line / SIM_L1_CHUNK + 1; 0 = free slot */
	uint32_t stamp[SIM_L1_CHUNK];   /* per line: its last touch, 0 = none */
};
struct sim_l1 {
	uint32_t cap, lo, hi;          /* lines */
	uint32_t ring_n;               /* stamps per ring (a power of two) */
	uint32_t t, marks;             /* the last stamp given; lines with a stamp in the ring */
	uint64_t *ring;                /* per stamp: the line + 1 whose last touch it is, 0 = none; in the
	                                * top four bits the line's sectors the L1 holds (simt_cache.c) */
	/* ring's marks (stamps whose entry is not 0) counted per 64 stamps
	 * (bit st % 64 of bits[st / 64], mcnt) and per SIM_L1_SUPER of those
	 * (scnt): a touch marks the newest stamp in O(1) (a Fenwick tree
	 * walked 15 levels), and D, the marks after a stamp, is short to sum
	 * when it is small (a hit) */
	uint64_t *bits;
	uint8_t *mcnt;
	uint32_t *scnt;
	struct sim_l1chunk *lines; uint64_t nlines, caplines;
	/* the slots of the chunks found last, by key % 8 (NULL: none): the
	 * warps of a stream touch neighbouring lines, a few chunks apart */
	struct sim_l1chunk *near[8];
	double credit;                 /* the error diffusion's running fraction */
	struct sim_lineset seen;       /* cap 0 */
};
void sim_l1_init(struct sim_l1 *c, uint32_t cap_lines);
void sim_l1_free(struct sim_l1 *c);
/* Touches the lines of a global or local access in the L1 (unless cg) and
 * the L2: the latency of the slowest, at least the L1's (simt_cache.c). */
struct sim;
#define SIM_FLIGHT 4096
double sim_touch_lines(struct sim *s, const uint64_t *lines, const uint8_t *secs, uint32_t n, bool is_st, bool cg,
                       uint32_t *hits);
void sim_mem_counts(const struct sim *s, uint32_t pc, struct px_simt_mem *out);
void sim_l1_evict_lines(struct sim *s, const uint64_t *lines, uint32_t n);

/* Shared-memory tracking per 4-byte word (verifier): an array per field,
 * indexed by the word (a warp's accesses mostly touch neighbouring words,
 * whose fields simt_exec.c then reads and writes as vectors). */
struct sim_shmem {
	uint32_t *val;
	uint8_t *known;      /* byte mask */
	uint8_t *written;    /* (bool) */
	uint8_t *watomic;    /* (bool) the last write was an atomic's */
	int32_t *wtid;       /* last writer thread, -1 none */
	uint32_t *wepoch, *wsync, *wpc;     /* wpc: the writing instruction */
	int32_t *rtid;       /* last reader (other than the writer), -1 none */
	uint32_t *repoch, *rsync, *rpc;
	/* the bytes of the word (bit 0: its first) the last write and the
	 * last read touched: threads that access different bytes of one word
	 * (a __shared__ half or char array) do not race (shared_access) */
	uint8_t *wbytes, *rbytes;
	/* cp.async copies to each word that no wait has written yet, and
	 * their sum, plus one for good with mbarriers (wclk): while it is
	 * not 0, every access takes shared_access's checks (simt_exec.c's
	 * exec_cp) */
	uint32_t *cp_pend;
	uint64_t npend, nwords;
	/* with mbarriers (simt_mbar.c): the accessing thread's own clock at
	 * the last write and the last read (0: ordered before every thread),
	 * which sim_hb_ordered compares; NULL without (with them, npend
	 * holds one more: the fast paths, shared_word, load_groups and
	 * store_run, which do not keep them, are not taken) */
	uint32_t *wclk, *rclk;
};
/* n words, none written or read (simt_exec.c) */
void sim_shmem_init(struct sim_shmem *m, uint64_t n);
void sim_shmem_free(struct sim_shmem *m);

/* A frame of a warp's reconvergence stack: its lanes run from pc until
 * rpc, where they rejoin the frame below. fl: SIM_FR_* (simt_its.c) */
struct sim_frame { uint32_t pc, rpc, mask; uint8_t fl; };
/* split off by an independent-thread-scheduling yield: lanes that run
 * ahead of the rest of their frame (simt_its.c) */
#define SIM_FR_AHEAD 1u
/* such lanes waiting at pc for the rest of the warp (below the frame that
 * brings the rest there, which takes them in when it reaches pc) */
#define SIM_FR_PARKED 2u

static inline uint64_t slot_hash(uint64_t key)
{
	return (key * 0x9e3779b97f4a7c15ull) >> 20;
}

/* The slot of key in an open-addressing table of *cap slots of `size` bytes
 * (cap a power of two) whose first member is a uint64_t key, 0 for a free
 * slot: memory pages, line sets, the L1 model's lines. When insert, the table doubles at 3/4
 * full and an absent key claims a free slot (key set, the rest zero, *n
 * counted); NULL when absent and !insert. Inlined into both callers, so
 * size is a constant there. */
static inline void *slot_find(void **tab, uint64_t *n, uint64_t *cap, size_t size, uint64_t key,
                              bool insert)
{
#define SLOT_KEY(t, i) (*(uint64_t *)((char *)(t) + (i) * size))
	if (insert && (*n + 1) * 4 >= *cap * 3) {
		uint64_t ncap = *cap ? *cap * 2 : 256;
		char *nt = xcalloc(ncap, size);
		for (uint64_t i = 0; i < *cap; i++) {
			uint64_t k = SLOT_KEY(*tab, i);
			if (!k)
				continue;
			uint64_t h = slot_hash(k);
			while (SLOT_KEY(nt, h & (ncap - 1)))
				h++;
			memcpy(nt + (h & (ncap - 1)) * size, (char *)*tab + i * size, size);
		}
		free(*tab);
		*tab = nt;
		*cap = ncap;
	}
	if (!*cap)
		return NULL;
	for (uint64_t h = slot_hash(key);; h++) {
		uint64_t i = h & (*cap - 1);
		uint64_t *k = &SLOT_KEY(*tab, i);
		if (*k == key)
			return k;
		if (!*k) {
			if (!insert)
				return NULL;
			*k = key;
			(*n)++;
			return k;
		}
	}
#undef SLOT_KEY
}

/* Whether block b is in the loop (its blocks are sorted: a binary search). */
static inline bool sim_loop_has_block(const struct px_loop *lp, uint32_t b)
{
	uint32_t lo = 0, hi = lp->nblocks;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (lp->blocks[mid] == b)
			return true;
		if (lp->blocks[mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* W_MBAR: at an mbarrier wait whose phase has not completed (simt_mbar.c;
 * the wait issues again when a phase of the object completes) */
enum sim_wstate { W_READY, W_BARRIER, W_DONE, W_MBAR };

/* Per warp (sim.tail), with a special window whose lim is a block
 * barrier: how far the full scan on from it (simt.c's full_scan) met
 * nothing that a change of the window can change, the barrier, then
 * instructions done and a back edge it followed (edge, UINT32_MAX none):
 * up to instruction k (UINT32_MAX: not known), n instructions after
 * lim, where the scan's end was end; stop: the scan stops at k. j: the
 * window's first instruction, not register-only, that was pending when
 * a scan looked, which kept the barrier behind it (UINT32_MAX: none
 * known; the ones before it were done or register-only). Kept while the
 * window is:
 * its instructions only leave it (hazards only go), the top only moves
 * on within it, and what the scan passed stays done until the top
 * reaches it. (Not in struct sim_warp: gcc's code for run() turned out
 * to depend on that struct's size by 1.5%.) */
struct sim_tail {
	uint32_t k, n, end, edge, j;
	bool stop;
};

struct sim_warp {
	/* first, together: what run() reads of every warp it looks at each
	 * step (one or two cache lines of the warp, not five) */
	uint8_t state;
	/* what the scheduler looks up each cycle about the instruction at the
	 * top of the stack, kept until the warp's state changes (simt.c's
	 * warp_changed): top_settled: neither issued early nor free (the run
	 * loop has nothing to skip or run first); top_valid: the rest holds */
	bool top_settled, top_valid;
	uint8_t top_why;          /* PX_STALL_*: what top_rt waits for */
	uint8_t top_pipe;         /* enum sim_pipe */
	bool top_bar;             /* it is a block barrier (sim_insn.block_bar) */
	bool top_store;           /* a shared store (or reduction) without a result: queues (sim.st_queue) */
	bool top_gst;             /* a st to global or local memory (not a cp.async): waits for the write path
	                           * (sim.gst_free less sim.gst_queue) */
	/* issue_early's last scan issued nothing: per pipe (P_COUNT: an
	 * if-converted branch's predicate) the earliest cycle a candidate's
	 * sources are ready, and early_unlock, the first cycle a scan could go
	 * further (a back edge's predicate ready, the barrier free); kept, like
	 * top_*, until the warp changes */
	bool early_valid;
	uint16_t early_pipes;     /* the p whose early_t[p] is set (the others count as UINT64_MAX) */
	bool scan_valid;          /* (struct sim_scan, below) */
	uint8_t resume_why;       /* PX_STALL_BARRIER, _BRANCH or _MEMORY (a fence): what set resume */
	uint8_t resume_shown;     /* the reason reported for it (shown_why: a uniform branch's, dependency) */
	uint32_t nstk, capstk;
	struct sim_frame *stk;
	uint32_t its_frames;      /* frames with SIM_FR_* flags (simt_its.c): while any, no lookahead */
	/* pre-Volta (simt_its.c's stuck): the spin edge its top frame took
	 * last while others waited, that frame's mask and depth, the times in
	 * a row */
	uint32_t spin_pc, spin_mask, spin_depth, spins;
	bool spun;                /* it went round a spin loop since its last poll (simt.c's spin_yield) */
	uint8_t unroll_n;         /* re-unrolled back edges taken in a row, mod 4 (sim_insn.reunroll) */
	/* the registers (sim_insn.ld_regs) of the loads issued early that the
	 * top has not passed yet: issue_early's budget (simt.c's EARLY_LOAD_REGS) */
	uint32_t early_ld_regs;
	/* the cycle it began to wait for an SM-wide unit with the
	 * instruction at wait_pc at its top (UINT32_MAX: none; simt.c's run) */
	uint32_t wait_pc;
	uint64_t wait_since;
	/* BAR.SYNC.DEFER_BLOCKING lets an instruction that reads no register
	 * issue before the barrier lets the warp go: a clock read right after
	 * the barrier (instruction bar_next; 0: none) gives bar_clock, the
	 * cycle after the warp's arrival (bar_probe's stamps, bx_probe);
	 * issue clears it once an instruction past it issues, so a read there
	 * reached later by a branch gives its own cycle (instructions before
	 * the barrier may still issue after an early arrival) */
	uint32_t bar_next;
	uint64_t bar_clock;
	uint64_t gst_at;          /* the cycle of its last global store + 1 (0: none; fence_wait) */
	uint64_t vec_done;        /* when its last vector load's values arrive (sim_insn.vecw) */
	uint64_t shbase_at;       /* when its last rebuilt shared window base is there (SHB_BUILD) */
	uint64_t top_rt;          /* the cycle its sources are ready (at least resume) */
	uint64_t early_unlock;
	uint8_t *done;            /* per instruction: issued early (load hoisting), skip once */
	uint64_t resume;          /* cycle a barrier release lets it go on */
	uint64_t issued_at;       /* the cycle of its last issue (the stall accounting's wait) */
	uint32_t id;
	uint32_t exists;          /* lanes that exist */
	uint32_t exited;
	/* the condition code's carry flag (CC.CF) per lane, set by the .cc
	 * forms of add, sub, mad, read by addc, subc, madc; cc_known: lanes
	 * where it is known (none before the first .cc) */
	uint32_t cc, cc_known;
	/* at a bar.red: the lanes that arrived, those whose predicate was
	 * true, and those whose predicate was unknown (simt.c's bar_arrive;
	 * check_barrier writes the reduction when it releases the block) */
	uint32_t red_lanes, red_true, red_unk;
	uint32_t bar_id;
	uint32_t bar_pc;          /* the barrier it waits at */
	uint32_t bar_seq;         /* its arrival there: sim.bar_arrived_warps then (check_barrier's order) */
	uint64_t *val;            /* nslots * 32 */
	uint32_t *unk;            /* nslots: lanes whose value is unknown */
	uint64_t *ready;          /* nslots: cycle the value is ready */
	uint8_t *res_why;         /* nslots: PX_STALL_*: what waiting for the value is (sim_result_why) */
	double ld_next;           /* the first cycle its next load (sim_insn.ld_class) may issue (fractional) */
	uint64_t ld_at;           /* ld_next rounded up (kept: ld_ready reads it for every candidate) */
	uint64_t early_t[P_COUNT + 1];
	/* issue_early's last scan issued instruction scan.k - 1 and nothing
	 * else changed the warp since (scan_valid, cleared with top_*): the
	 * scan's state after that instruction, from which the next one goes
	 * on while no instruction it passed can issue yet. Its hazards are in
	 * hz_def/hz_use: per slot, the scan (hz_gen) that last passed an
	 * instruction writing it / reading it */
	struct sim_scan {
		uint32_t k, n, end, region_end, region_mask, bar_k;
		unsigned stores;
		uint64_t t[P_COUNT];   /* early_t of the instructions passed */
		uint16_t pipes;        /* early_pipes of t (the p of t[p] that are set) */
		bool win;              /* it went on from the window (whose pending instructions it passed) */
		bool crossed;          /* it followed a back edge */
	} scan;
	uint32_t *hz_def, *hz_use, hz_gen;
	/* issue_early's window (simt.c's win_*): the instructions a scan from
	 * the top looks at, kept while the top only moves on to the next
	 * instruction of its basic block; win_wr/win_rd: per slot, the
	 * window's pending instructions that write / read it, kept while the
	 * window is special (the full scan goes on after it) */
	struct sim_win {
		bool valid;
		bool special;   /* lim is one the full scan handles itself (a block barrier, an if-converted branch) */
		bool closed;    /* lim stops every scan (control, barrier, warp-wide): nothing joins after it */
		uint32_t base, lim, end;   /* [base, lim): its instructions, base the top; end: what stops growth */
		uint32_t nstk, rpc;        /* the frame it belongs to */
		/* instruction k is bit k % 64 (the window spans at most
		 * LOOKAHEAD + 1 < 64 of them) */
		uint64_t pending;   /* neither done nor issued: scans pass them, they hold later ones back */
		uint64_t cand;      /* pending and nothing pending holds it back (the top's bit ignored) */
		uint64_t never;     /* stores and atomics: they never issue early */
		uint64_t stores[2]; /* pending stores and atomics of mem_class bit 0 (shared), bit 1 (global) */
	} win;
	uint64_t *win_wr, *win_rd;
	/* the cycles its L1-miss slots free, in a ring of misses_per_warp
	 * sorted from miss_head on (only the earliest is ever taken: a
	 * miss's slot is then the last, mostly, so keeping them in order
	 * costs a compare where a scan for the earliest cost one per slot) */
	uint64_t miss_free[SIM_MAX_MISSES];
	uint8_t miss_head;
	uint32_t prev_block;
	uint32_t sync;            /* warp-level synchronisations so far (bar.warp.sync, .sync ops) */
	int64_t tid[32][3];
	/* cp.async (simt_exec.c's exec_cp): the copies not yet waited for,
	 * each lane's groups committed, and for the timing the warp's groups'
	 * ends (a ring of SIM_CP_RING, by group number) */
	struct sim_cp *cp; uint32_t ncp, capcp;
	uint32_t cp_commits[32];
	uint64_t cp_end[SIM_CP_RING];
	uint32_t cp_groups;       /* the warp's commits (a commit by any of its lanes counts once) */
	uint64_t cp_open_end;     /* the last end of the copies since its last commit */
	uint32_t *loop_iter;      /* per loop: header executions in the current entry */
	uint64_t *hdr_count;      /* per loop: header executions */
	bool *entered;            /* per loop */
};

struct sim {
	const struct px_module *m;
	const struct px_func *f;
	const struct px_simt_options *opt;
	struct px_simt_result *res;
	struct sim_insn *ins; uint32_t nins;
	uint32_t *slot_base; uint32_t nslots;
	/* a slot past the registers' for the carry flag (CC.CF): carry chains
	 * use and define it, so that the scoreboard and the lookahead's
	 * hazards order them as ptxas's IADD3.X chains through a predicate
	 * are (its value lives in sim_warp.cc) */
	uint32_t cc_slot;
	uint32_t *block_start;    /* block -> first instruction */
	struct sim_warp *w; uint32_t nwarps;
	bool its;                 /* independent thread scheduling (compute capability 7.0 and newer): simt_its.c */
	bool dpx;                 /* the DPX instructions (compute capability 9.0 and newer): simt_fuse.c */
	/* the shared words strong writes released clocks into (with s->vc;
	 * simt_its.c's sync words): their byte offsets and clocks */
	struct sim_sync { uint64_t off; uint32_t *vc; uint32_t ver; } *sync; uint32_t nsync, capsync;
	/* per thread: the sync word (index + 1) and its release count (ver)
	 * it took the clocks of last: a spinning thread takes them again only
	 * when another release came */
	uint32_t *acq_word, *acq_ver;
	bool its_sync;            /* sim_insn.sync_mem marked (the kernel has a spin_edge) */
	uint32_t nsched;          /* warp schedulers (the arch's subpartitions, 1 to 4): warp i is scheduler i % nsched's */
	uint32_t block[3], nthreads;
	uint64_t *param_val; bool *param_known;   /* per parameter */
	uint64_t *param_off;      /* byte offset of each parameter in the param space */
	/* memories */
	struct sim_mem global;    /* global + local (local keys carry the thread) */
	struct sim_shmem sh; uint64_t sh_words, sh_static, sh_limit;
	uint64_t *var_addr;       /* per kernel var: shared offset / local offset */
	uint64_t *mvar_addr;      /* per module var */
	uint32_t epoch;           /* barriers completed by the block */
	/* L1 model of the capacity the launch leaves (res->l1_bytes, 0
	 * unknown: unbounded); L2: lines (128 B) seen */
	struct sim_l1 l1;
	struct sim_lineset l2;
	/* the lines whose data is on its way (simt_cache.c's sim_touch_lines):
	 * direct-mapped by a hash of the line, SIM_FLIGHT entries of the line
	 * + 1 (0: none) and the cycle its data arrives */
	uint64_t *fly_line, *fly_t;
	/* timing */
	uint64_t cycle;
	/* per scheduler and pipe (enum sim_pipe): the first cycle it is free.
	 * The SM-wide units' entries (P_SHARED, P_SHFL, P_GLOBAL) mirror
	 * mio_free, mio_sp_free and lsu_free (sim_units_changed), so that the
	 * scheduler's question is one load; P_COUNT (no pipe) stays 0 */
	uint64_t pipe_free[4][P_COUNT + 1];
	uint64_t mio_free, lsu_free;  /* SM-wide shared-memory and load/store throughput */
	/* per scheduler and pipe: the warp whose instruction last took it (a
	 * warp that waits for its own is reported as waiting on a dependency:
	 * shown_why) */
	uint32_t pipe_by[4][P_COUNT + 1];
	/* the SM's write path to L2: the first cycle it is free, and the
	 * cycles of it the global or local store sim_exec just ran takes
	 * (simt_exec.c's exec_mem sets it, commit_timing takes it: such a
	 * store is always on P_GLOBAL, pipe_of's; 0 otherwise) */
	uint64_t gst_free;
	double gst_cost;
	double mio_next;              /* mio_free to a fraction of a cycle */
	/* The SM-wide units (enum sim_unit), once free, go first to the
	 * scheduler that has waited longest for them (simt.c's run): per unit
	 * and scheduler the cycle its longest-waiting warp began to wait
	 * (UINT64_MAX: none), per unit the scheduler after the last one
	 * served (ties) */
	uint64_t unit_want[SIM_UNITS][4];
	uint32_t unit_rr[SIM_UNITS];
	uint64_t mio_sp_free[4];      /* per scheduler: its shared-memory requests (half the SM's rate) */
	uint32_t turn_rr;             /* the scheduler after the last the MIO or the LSU served: the first to look */
	double mio_sp_occ;            /* cycles of its scheduler's share per wavefront */
	double st_sp_occ;             /* ... at least, for a store (throughput.shared_store_interval_per_subpartition) */
	/* cycles of the shared unit each lane of a shared atomic adds past the
	 * first that names its word (enum sim_atom_class; simt_exec.c's
	 * atom_serial) */
	double atom_lane[SIM_ATOM_COUNT];
	double lat[P_COUNT], occ[P_COUNT];
	double lat_l1, lat_l2, lat_dram, lat_bar, bar_per_warp, lsu_sectors_per_clk;
	/* global atomics (simt_exec.c's global_atomic): the result's latency
	 * from an L2 hit (latency.global_atomic; 0: an L2 access's), the
	 * cycles of the L2's atomic unit per lane on a word with a result and
	 * without (throughput.global_atomic_lane, global_red_lane), the cycle
	 * that unit is free */
	double lat_gatom, gatom_lane, gred_lane;
	/* fences (simt_exec.c's fence_wait): the warp waits this long after
	 * membar.cta and membar.gl (latency.membar_cta, membar_gl), the latter
	 * from its last global store's acknowledgement (latency.store_ack
	 * after the store) */
	double fence_cta, fence_gl, store_ack;
	/* match.sync (simt_exec.c's exec_warp): the result's latency for one
	 * distinct value among the lanes (latency.match_any; 0: the
	 * shuffle's), the cycles each further one adds (match_any_group), the
	 * match unit's cycles per distinct value (throughput.match_any_group)
	 * and the cycle it is free (fractional) */
	double match_lat, match_group_lat, match_group_occ, match_free;
	/* a lone MUFU's latency and what a range fix-up around it adds
	 * (latency.sfu_mufu, sfu_fixup; sim_insn.mufu, fixup) */
	double sfu_mufu, sfu_fixup;
	double bitop_lat;          /* POPC, FLO, BREV's result (latency.bitop; sim_insn.bitop) */
	double spin_yield;  /* the cycles a spin loop's YIELD holds the warp (latency.spin_yield; simt.c's issue) */
	/* what ptxas's aggregation of an atomic add adds to its result, by
	 * enum sim_agg (latency.atom_aggregate, atom_aggregate_scan) */
	double agg_lat[AGG_SCAN + 1];
	double agg_elect;   /* latency.atom_aggregate_elect: sim_insn.agg_elect's wait */
	double f32_round;   /* a shared atom.add.f32's round (latency.shared_atomic_f32_round; simt_exec.c's shared_cas_loop) */
	double f32_gap;     /* ... and the least between two warps' swaps of a word (latency.shared_atomic_f32_gap) */
	double fence_cta_mio;   /* the MIO's cycles for a MEMBAR.CTA (throughput.membar_cta; 0: none) */
	double *f32_swapped;   /* per shared word: the cycle its last such swap lets another through (NULL until one) */
	uint64_t gatom_free;
	double lat_branch_nt;      /* a conditional branch that falls through (latency.branch_not_taken) */
	uint64_t path_switch;      /* a diverged warp's wait before its next path (latency.path_switch) */
	uint64_t stall_wait;       /* a waiting warp's cycles after an issue reported as dependency (latency.stall_wait) */
	uint64_t redirect;         /* a forward taken branch's wait per other warp waiting after a branch (latency.branch_redirect) */
	uint64_t st_queue;         /* cycles of MIO backlog a shared store may issue into (throughput.shared_store_queue) */
	double l1_hit_lines;       /* lines an L1-hit load's tag stage takes a cycle (throughput.l1_hit_lines; 0: not modelled) */
	double gst_sector;         /* cycles of the write path per sector a global store writes (throughput.global_store_sector; 0: not modelled) */
	double gst_partial;        /* ... and per line with a sector it writes in part (throughput.global_store_partial_line) */
	uint64_t gst_queue;        /* cycles of write-path backlog a global store may issue into (throughput.global_store_queue) */
	/* per enum sim_expand: the result's latency (0: the class is not
	 * modelled, the pipe's cost stands) and the cycles the scheduler
	 * spends issuing the sequence (its own pipes are busy as long) */
	double ex_lat[EX_COUNT];
	uint64_t ex_issue[EX_COUNT];
	double shbase_lat;        /* latency.shared_base (0: not modelled, sim_insn.shbase never set) */
	double bssy_lat;          /* latency.convergence_region (0: not modelled, sim_insn.bssy never set) */
	double ldc_lat;           /* latency.ldc (0: the ALU's) */
	uint8_t *sdiv;            /* per register: ptxas cannot prove it warp-uniform (simt_fuse.c's static_divergence) */
	/* per warp: the cycle the last expanded instruction it issued has
	 * issued its whole sequence (its result's latency less an FP32
	 * instruction's): the warp's next branch waits for it */
	uint64_t *ex_done;
	uint32_t misses_per_warp;
	bool cp_landing;          /* shared_access is writing a cp.async copy (exec_cp's cp_write) */
	uint64_t cp_issue;        /* throughput.cp_async_issue: a copy's issue slots on its scheduler */
	double mma64_lat, mma64_occ;   /* latency.mma_f64, throughput.mma_f64_issue (P_TENSOR's: mma, mma_issue) */
	double imad_wide_occ;         /* throughput.imad_wide: a scheduler's cycles per warp's IMAD.WIDE */
	double ld_gap[LD_COUNT];  /* per enum sim_ld: cycles between one warp's loads (throughput.*_load_interval) */
	uint32_t bar_arrived_warps;
	/* thread 0's first and last clock reads and how many (px_simt_result.
	 * clock_span: what a clock64() around the code measures) */
	uint64_t clock_first, clock_last;
	uint32_t clock_reads;
	uint32_t nlive, nwait;    /* warps not done; warps waiting at a block barrier (W_BARRIER) */
	/* loops */
	uint32_t nloops;          /* f->nloops */
	bool *loop_sel;
	int32_t *block_loop;      /* per block: innermost selected loop, -1 */
	int32_t *sel_parent;      /* per loop: the nearest selected loop that encloses it, -1 */
	struct px_simt_loop *lr;  /* per loop (f->nloops) */
	uint64_t *loop_issued, *loop_lanes, *loop_first, *loop_last, *loop_busy_until;
	uint64_t *ins_issued, *ins_lanes;   /* per instruction: warp-instructions issued, their active lanes (count_issue) */
	uint64_t *ins_slots;                /* per instruction: issue slots beyond one per issue (expand_issue) */
	uint64_t *ins_conv;                 /* ... the convergence barrier's (convergence_slots) */
	uint64_t *loop_slots;               /* per loop: issue slots, ins_issued, ins_slots and ins_conv (loop_counts) */
	uint64_t *loop_pipe;                /* per loop and enum px_simt_pipe: the same by pipe */
	struct px_simt_mem *loop_mem;       /* per loop and enum px_simt_mem_kind: its instructions' accesses */
	uint64_t *loop_cycles;
	/* unknown-value notes, once per instruction */
	uint8_t *noted;
	bool *viol_seen;          /* per (slot, insn): SIM_SEEN_SLOTS per instruction */
	/* run()'s loop accounting: the warps (bit = warp id; a block has at
	 * most 32) that changed in the current step (warp_changed sets them):
	 * their top instruction may be in another loop */
	uint32_t acct_dirty;
	/* the schedulers (bit = scheduler) that share a unit whose free
	 * cycle changed since their last pass (units_changed): run() looks
	 * at an idle scheduler's warps again then, when one of them changed,
	 * or once the cycle it could next do something has come */
	uint32_t wake;
	bool stop;
	const char *stop_reason;
	bool hw_fma;              /* the processor has fma and avx2 (simt_exec.c) */
	uint64_t *no_slots;       /* nslots + 1 zeros: the win_wr/win_rd of no window */
	uint8_t *ins_pipe;        /* per instruction: sim_insn.pipe, | 0x80 when free (win_scan: a line for many) */
	/* per instruction and one past the last: the innermost selected loop
	 * of its block, -1 none (run()'s loop accounting, without the load of
	 * the instruction's px_insn) */
	int32_t *ins_loop;
	struct sim_tail *tail;    /* per warp */
	/* mbarrier objects (simt_mbar.c) and, when the kernel has mbarrier
	 * operations, every thread's vector clock: vc[t * nvc + u], the
	 * clock of thread u that thread t has seen through the phases it
	 * waited for (its own: vc[t * nvc + t], from 1), and past them one row
	 * of scratch (sim_mbar_warp_sync); NULL without */
	struct sim_mbar *mbar; uint32_t nmbar, capmbar;
	uint32_t *vc, nvc;
	uint32_t nmwait;          /* warps in W_MBAR */
	bool mb_landing;          /* shared_access is writing a cp.async.bulk copy (clock 0) */
	double mb_lat, mb_gap, mb_wait;   /* latency.mbarrier_arrive, throughput.mbarrier_arrive, latency.mbarrier_wait */
};

/* ---- simt_mbar.c: mbarrier objects in shared memory (PTX ISA,
 * "Parallel Synchronization and Communication Instructions: mbarrier")
 * and the order their phases give the threads' shared accesses ---- */
enum sim_mb {
	MB_NONE, MB_INIT, MB_INVAL, MB_ARRIVE, MB_EXPECT_TX, MB_COMPLETE_TX, MB_TEST_WAIT, MB_TRY_WAIT,
	MB_PENDING_COUNT,
	MB_CP_ARRIVE,   /* cp.async.mbarrier.arrive: after the thread's cp.async copies */
	MB_BULK,        /* cp.async.bulk global -> shared with mbarrier::complete_tx::bytes */
};
enum { MBF_DROP = 1, MBF_EXPECT = 2, MBF_NOCOMPLETE = 4, MBF_PARITY = 8, MBF_NOINC = 16 };
/* A cp.async.bulk copy in flight until its object's phase completes */
struct sim_mbulk {
	uint64_t dst;             /* shared byte offset */
	uint32_t words, pc;
};
struct sim_mbar {
	uint64_t off;             /* shared byte offset of the 8-byte object */
	uint32_t count;           /* arrivals a phase expects (less arrive_drop's) */
	uint32_t pending;         /* arrivals the current phase still waits for */
	int64_t tx;               /* the current phase's transaction count (bytes) */
	uint32_t phase;           /* phases completed */
	uint32_t init_pc;
	bool valid;               /* initialised, not invalidated */
	uint64_t ready;           /* the cycle the arrivals so far count (their latency; cp.async's, bulk copies' data) */
	uint64_t unit_free;       /* the cycle it takes the next arrival (one at a time: throughput.mbarrier_arrive) */
	uint64_t done_at;         /* the cycle its last phase completed */
	uint32_t *vc, *vc_done;   /* (with s->vc) the clocks its arrivals released; at the last completion */
	struct sim_mbulk *bulk; uint32_t nbulk, capbulk;   /* the copies its current phase waits for */
};
/* Marks the mbarrier operations (sim_insn.mbar, their pipe; sim_decode) */
void sim_mbar_decode(struct sim *s);
/* When there are any, starts the clocks (the warps and shared memory
 * exist). */
void sim_mbar_setup(struct sim *s);
void sim_mbar_free(struct sim *s);
/* Runs mbarrier operation pc (si->mbar) for the lanes of mask: true when
 * the warp must wait for a phase (its try_wait issues again when one
 * completes: simt.c puts it in W_MBAR, with bar_id the object's index).
 * *wake: the warps in W_MBAR on an object whose phase completed. */
bool sim_mbar_exec(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t mask, double *lat, double *occ,
                   uint32_t *wake);
/* The cp.async.bulk whose copy to shared word wd is in flight, UINT32_MAX
 * if none. */
uint32_t sim_mbar_bulk_to(const struct sim *s, uint64_t wd);
/* Warp w issues nothing before cycle t (a branch, a path switch, a fence,
 * a wait for copies), for reason why (PX_STALL_*), unless it waits longer
 * already. */
static inline void sim_hold(struct sim_warp *w, uint64_t t, unsigned why)
{
	if (t > w->resume) {
		w->resume = t;
		w->resume_why = w->resume_shown = (uint8_t)why;
	}
}

/* What a warp waiting for instruction si's result waits for (PX_STALL_*),
 * as Nsight Compute names the SASS's scoreboards: a global or local load's
 * (the L1TEX's: long_scoreboard) is memory; a shared-memory access's,
 * shuffle's or MUFU's (the MIO's: short_scoreboard) is mio; a
 * fixed-latency pipe's (wait) is dependency. */
static inline uint8_t sim_result_why(const struct sim_insn *si)
{
	if (si->pipe == P_GLOBAL)
		return PX_STALL_MEMORY;
	if (si->pipe == P_SHARED || si->pipe == P_SHFL || si->pipe == P_SFU || si->lat_pipe == P_SFU)
		return PX_STALL_MIO;
	return PX_STALL_DEPENDENCY;
}

/* The deadlock finding of a warp left in W_MBAR (simt.c, after the run). */
void sim_mbar_deadlock(struct sim *s, const struct sim_warp *w);
/* __syncwarp by the lanes of mask: their clocks join. */
void sim_mbar_warp_sync(struct sim *s, const struct sim_warp *w, uint32_t mask);
/* Whether thread who's access of a shared word, at its clock clk, is
 * ordered before thread t's now by the mbarrier phases t waited for
 * (vector clocks); never without mbarriers. */
static inline bool sim_hb_ordered(const struct sim *s, uint32_t t, int32_t who, uint32_t clk)
{
	return s->vc && who >= 0 && (uint32_t)who < s->nvc && t < s->nvc &&
	       clk <= s->vc[(size_t)t * s->nvc + (uint32_t)who];
}
static inline uint32_t sim_clock(const struct sim *s, uint32_t t)
{
	return s->vc && t < s->nvc ? s->vc[(size_t)t * s->nvc + t] : 0;
}

/* simt_exec.c's operand and memory access, for simt_mbar.c */
uint64_t sim_lane_val(const struct sim *s, const struct sim_warp *w, const struct sim_opnd *o, uint32_t lane,
                      bool *unk);
void sim_lane_write(struct sim_warp *w, uint32_t slot, uint32_t lane, uint64_t v, bool unk);
/* The shared byte offset address operand o names for lane, in state
 * space space (enum px_space; generic: shared addresses only): false when
 * unknown or not shared. */
bool sim_lane_shared(const struct sim *s, const struct sim_warp *w, const struct sim_opnd *o, unsigned space,
                     uint32_t lane, uint64_t *off);
bool sim_shared_access(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t lane, uint64_t off, unsigned n,
                       bool write, bool atomic, uint64_t *v, bool *unk);
uint64_t sim_global_read(struct sim *s, uint64_t addr, unsigned n, bool *unk);
/* Lands every cp.async copy of the lanes of mask, waited for or not. */
void sim_cp_land_all(struct sim *s, struct sim_warp *w, uint32_t mask);
/* A global access's cost (exec_cp's for a copy of n bytes a lane at the
 * known addresses). */
void sim_copy_cost(struct sim *s, struct sim_warp *w, uint32_t pc, const int64_t *addrs, uint32_t known,
                   uint32_t size, double *lat, double *occ);

/* ---- simt_its.c: independent thread scheduling (compute capability 7.0
 * and newer) on the reconvergence stack ---- */
/* Marks the back edges of loops that wait on memory (sim_insn.spin_edge). */
void sim_its_mark(struct sim *s);
/* w's top frame took spin edge pc and goes round its loop again: when
 * other lanes of the warp can run, the stack changes so that they do
 * (true; the caller settles the stack and charges the switch). Pre-Volta
 * (sim.its false) it never does, and a frame that goes round too long
 * while others wait is a deadlock. */
bool sim_its_yield(struct sim *s, struct sim_warp *w, uint32_t pc);
/* With flagged frames on w's stack: the top frame takes in parked lanes
 * waiting at its pc, or parks when it runs ahead into an instruction that
 * needs lanes it does not have (true when the stack changed). */
bool sim_its_settle(struct sim *s, struct sim_warp *w);
/* A strong shared access (sim_insn.sync_mem) by the lanes of mask:
 * before it runs, those that read take the clocks of the word's releases
 * (acquire); after, those that wrote release theirs into the word (a
 * compare-and-swap only where it swapped). */
void sim_its_acquire(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t mask);
void sim_its_release(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t mask);
void sim_its_free(struct sim *s);
/* What else than a barrier could have ordered two shared accesses, for a
 * shared-race's message: "" when nothing (no mbarrier, no spin loop). */
const char *sim_order_means(const struct sim *s);

/* simt_fuse.c: marks the instructions ptxas folds, fuses or hoists */
void sim_mark_free(struct sim *s);

/* simt_exec.c */
void sim_decode(struct sim *s);
/* Executes instruction pc for the lanes in mask of warp w (guard applied
 * inside). Returns the lanes for which a branch is taken (branches only).
 * Fills *lat_extra with the memory latency and *occ with the pipe cycles. */
uint32_t sim_exec(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t mask, double *lat,
                  double *occ);
uint32_t sim_guard_pred(struct sim *s, struct sim_warp *w, const struct sim_insn *si, uint32_t mask,
                        uint32_t *unknown);
/* The lanes of mask whose guard predicate holds (all of them without a
 * guard), of the side of a predicated if/else the instruction is on;
 * *unknown: those whose predicate is unknown. */
static inline uint32_t sim_guard(struct sim *s, struct sim_warp *w, const struct sim_insn *si, uint32_t mask,
                                 uint32_t *unknown)
{
	if (!si->guarded) {
		*unknown = 0;
		return mask;
	}
	return sim_guard_pred(s, w, si, mask, unknown);
}
void sim_note(struct sim *s, uint32_t pc, const char *fmt, ...) PX_PRINTF(3, 4);
/* Whether instruction in carries modifier word m (".rn"). */
bool sim_has_mod(const struct px_insn *in, const char *m);
/* The membermask operand o of a .sync warp operation (or bar.warp.sync)
 * that the lanes in mask run at pc, checked against them and against the
 * lanes that exited (shuffle-mask violations; an unknown mask is not
 * checked: mask is returned); counts a warp-level synchronisation. */
uint32_t sim_member_mask(struct sim *s, struct sim_warp *w, const struct sim_opnd *o, uint32_t mask, uint32_t pc);
/* Kinds of sim_violation beyond enum px_simt_kind: a shared-race between
 * lanes of one warp (recorded as PX_V_SHARED_RACE with same_warp set, once
 * per instruction apart from the races between warps). */
#define SIM_SAME_WARP_RACE PX_V_COUNT
#define SIM_SEEN_SLOTS (PX_V_COUNT + 1)
/* Records a violation at pc (once per kind and instruction: NULL when
 * already recorded). Threads are linear ids (sim_thread names them). */
struct px_simt_violation *sim_violation(struct sim *s, unsigned kind, uint32_t pc, uint32_t t0, uint32_t t1,
                                        const char *fmt, ...) PX_PRINTF(6, 7);
/* The unknown-value policy decided something at pc (a branch or guard on an
 * unknown value, a store to an unknown address): later findings are marked
 * guessed. */
void sim_guess(struct sim *s, uint32_t pc);
/* The name of .file entry idx (the module's, else opt->file_names'): true
 * with *p, *n set. */
bool sim_file_name(const struct sim *s, uint32_t idx, const char **p, size_t *n);
/* "(x,y,z)" of linear thread t in the block. */
const char *sim_thread(const struct sim *s, uint32_t t, char buf[48]);
/* "PTX line N" or "file.cu:L (PTX line N)" of instruction pc. */
const char *sim_where(const struct sim *s, uint32_t pc, char buf[160]);
void sim_mem_free(struct sim_mem *m);
void sim_lineset_free(struct sim_lineset *m);

#endif
