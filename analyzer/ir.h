/* ir.h: ptxray's kernel IR: module -> functions -> basic blocks -> instructions.
 *
 * The PTX parser (analyzer/ptx) fills a module; the passes (analyzer/pass_*.c,
 * each a fill_* function called from px_pipeline_run in pipeline.c) fill the
 * analysis sections at the end of struct px_func. Everything lives in the
 * module's arena and is freed by px_module_delete. Strings are views into the
 * input text (which the module keeps alive) or into the arena.
 *
 * Registers are referred to by dense per-function ids (0..nregs-1); a vector
 * register declaration `.reg .v4 .f32 %v` is one id. Parameterised
 * declarations `%r<100>` make 100 ids, %r0..%r99. Nested `{ }` scopes may
 * shadow names: each declaration gets its own id, resolution is lexical. */
#ifndef PX_IR_H
#define PX_IR_H

#include "util.h"

/* ---- state spaces ---- */
#define PX_SPACES(X)                 \
	X(SPACE_NONE, "")                \
	X(SPACE_REG, ".reg")             \
	X(SPACE_SREG, ".sreg")           \
	X(SPACE_CONST, ".const")         \
	X(SPACE_GLOBAL, ".global")       \
	X(SPACE_LOCAL, ".local")         \
	X(SPACE_PARAM, ".param")         \
	X(SPACE_SHARED, ".shared")       \
	X(SPACE_SHARED_CTA, ".shared::cta") \
	X(SPACE_SHARED_CLUSTER, ".shared::cluster") \
	X(SPACE_TEX, ".tex")             \
	X(SPACE_GENERIC, "generic")
enum px_space {
#define X(e, s) PX_##e,
	PX_SPACES(X)
#undef X
	PX_SPACE_COUNT
};
const char *px_space_name(enum px_space s); /* ".global", ...; "" for none */

/* ---- fundamental types: (enum, spelling, bits, kind) ---- */
#define PX_TYPES(X)                     \
	X(TYPE_NONE, "", 0, 0)              \
	X(TYPE_PRED, ".pred", 1, 'p')       \
	X(TYPE_B8, ".b8", 8, 'b')           \
	X(TYPE_B16, ".b16", 16, 'b')        \
	X(TYPE_B32, ".b32", 32, 'b')        \
	X(TYPE_B64, ".b64", 64, 'b')        \
	X(TYPE_B128, ".b128", 128, 'b')     \
	X(TYPE_U8, ".u8", 8, 'u')           \
	X(TYPE_U16, ".u16", 16, 'u')        \
	X(TYPE_U32, ".u32", 32, 'u')        \
	X(TYPE_U64, ".u64", 64, 'u')        \
	X(TYPE_S8, ".s8", 8, 's')           \
	X(TYPE_S16, ".s16", 16, 's')        \
	X(TYPE_S32, ".s32", 32, 's')        \
	X(TYPE_S64, ".s64", 64, 's')        \
	X(TYPE_F16, ".f16", 16, 'f')        \
	X(TYPE_F16X2, ".f16x2", 32, 'f')    \
	X(TYPE_BF16, ".bf16", 16, 'f')      \
	X(TYPE_BF16X2, ".bf16x2", 32, 'f')  \
	X(TYPE_TF32, ".tf32", 32, 'f')      \
	X(TYPE_F32, ".f32", 32, 'f')        \
	X(TYPE_F64, ".f64", 64, 'f')        \
	X(TYPE_E4M3, ".e4m3", 8, 'f')       \
	X(TYPE_E5M2, ".e5m2", 8, 'f')       \
	X(TYPE_E4M3X2, ".e4m3x2", 16, 'f')  \
	X(TYPE_E5M2X2, ".e5m2x2", 16, 'f')  \
	X(TYPE_E2M3X2, ".e2m3x2", 16, 'f')  \
	X(TYPE_E3M2X2, ".e3m2x2", 16, 'f')  \
	X(TYPE_E2M1X2, ".e2m1x2", 8, 'f')   \
	X(TYPE_UE8M0X2, ".ue8m0x2", 16, 'f') \
	X(TYPE_TEXREF, ".texref", 64, 'o')  \
	X(TYPE_SAMPLERREF, ".samplerref", 64, 'o') \
	X(TYPE_SURFREF, ".surfref", 64, 'o')
enum px_type {
#define X(e, s, bits, kind) PX_##e,
	PX_TYPES(X)
#undef X
	PX_TYPE_COUNT
};
const char *px_type_name(enum px_type t); /* ".f32", ... */
unsigned px_type_bits(enum px_type t);    /* .pred = 1 */
char px_type_kind(enum px_type t);        /* 'b' 'u' 's' 'f' 'p' 'o' or 0 */

/* ---- special registers ---- */
#define PX_SREGS(X)                                      \
	X(SREG_TID, "%tid", 1) X(SREG_NTID, "%ntid", 1)      \
	X(SREG_LANEID, "%laneid", 0) X(SREG_WARPID, "%warpid", 0) \
	X(SREG_NWARPID, "%nwarpid", 0)                       \
	X(SREG_CTAID, "%ctaid", 1) X(SREG_NCTAID, "%nctaid", 1) \
	X(SREG_SMID, "%smid", 0) X(SREG_NSMID, "%nsmid", 0)  \
	X(SREG_GRIDID, "%gridid", 0)                         \
	X(SREG_IS_EXPLICIT_CLUSTER, "%is_explicit_cluster", 0) \
	X(SREG_CLUSTERID, "%clusterid", 1) X(SREG_NCLUSTERID, "%nclusterid", 1) \
	X(SREG_CLUSTER_CTAID, "%cluster_ctaid", 1)            \
	X(SREG_CLUSTER_NCTAID, "%cluster_nctaid", 1)          \
	X(SREG_CLUSTER_CTARANK, "%cluster_ctarank", 0)        \
	X(SREG_CLUSTER_NCTARANK, "%cluster_nctarank", 0)      \
	X(SREG_LANEMASK_EQ, "%lanemask_eq", 0) X(SREG_LANEMASK_LE, "%lanemask_le", 0) \
	X(SREG_LANEMASK_LT, "%lanemask_lt", 0) X(SREG_LANEMASK_GE, "%lanemask_ge", 0) \
	X(SREG_LANEMASK_GT, "%lanemask_gt", 0)               \
	X(SREG_CLOCK, "%clock", 0) X(SREG_CLOCK_HI, "%clock_hi", 0) \
	X(SREG_CLOCK64, "%clock64", 0)                       \
	X(SREG_PM, "%pm", 2) X(SREG_PM64, "%pm_64", 2)       \
	X(SREG_ENVREG, "%envreg", 2)                         \
	X(SREG_GLOBALTIMER, "%globaltimer", 0)               \
	X(SREG_GLOBALTIMER_LO, "%globaltimer_lo", 0)         \
	X(SREG_GLOBALTIMER_HI, "%globaltimer_hi", 0)         \
	X(SREG_RESERVED_SMEM_OFFSET_BEGIN, "%reserved_smem_offset_begin", 0) \
	X(SREG_RESERVED_SMEM_OFFSET_END, "%reserved_smem_offset_end", 0) \
	X(SREG_RESERVED_SMEM_OFFSET_CAP, "%reserved_smem_offset_cap", 0) \
	X(SREG_RESERVED_SMEM_OFFSET, "%reserved_smem_offset_", 2) \
	X(SREG_TOTAL_SMEM_SIZE, "%total_smem_size", 0)       \
	X(SREG_AGGR_SMEM_SIZE, "%aggr_smem_size", 0)         \
	X(SREG_DYNAMIC_SMEM_SIZE, "%dynamic_smem_size", 0)   \
	X(SREG_CURRENT_GRAPH_EXEC, "%current_graph_exec", 0)
/* third column: 0 = scalar, 1 = has .x/.y/.z components, 2 = numbered (%pm3) */
enum px_sreg {
#define X(e, s, shape) PX_##e,
	PX_SREGS(X)
#undef X
	PX_SREG_COUNT
};
const char *px_sreg_name(enum px_sreg s);

/* ---- opcodes: one table, analyzer/ptx/opcodes.def ----
 * PX_OP(enum-suffix, "spelling", flags) */
enum px_opflag {
	PX_OPF_BRANCH = 1u << 0,   /* bra, brx.idx: ends a block, may jump */
	PX_OPF_TERM = 1u << 1,     /* ret, exit, trap: ends a block, no successor in the function */
	PX_OPF_CALL = 1u << 2,     /* call */
	PX_OPF_LOAD = 1u << 3,     /* reads memory */
	PX_OPF_STORE = 1u << 4,    /* writes memory */
	PX_OPF_ATOMIC = 1u << 5,   /* atom, red, ... */
	PX_OPF_BARRIER = 1u << 6,  /* bar, barrier, bar.warp.sync, ... */
	PX_OPF_WARP = 1u << 7,     /* shfl, vote, match, redux, ... (cross-lane) */
	PX_OPF_NODEST = 1u << 8,   /* first operand is not a destination */
	PX_OPF_ASYNC = 1u << 9,    /* cp.async & friends */
	PX_OPF_TEX = 1u << 10,     /* texture / surface */
	PX_OPF_MMA = 1u << 11,     /* mma, wmma, wgmma, tcgen05 */
};
enum px_opcode {
	PX_OP_UNKNOWN = 0,
#define PX_OP(e, s, f) PX_OP_##e,
#include "ptx/opcodes.def"
#undef PX_OP
	PX_OP_COUNT
};
const char *px_opcode_name(enum px_opcode op);
unsigned px_opcode_flags(enum px_opcode op);
/* Looks an opcode spelling up ("ld", "cp", "wgmma", ...); PX_OP_UNKNOWN if none.
 * The spelling is the part before the first '.', except for the few opcodes
 * whose name contains dots (see opcodes.def). */
enum px_opcode px_opcode_lookup(px_str s);

/* ---- operands ---- */
enum px_operand_kind {
	PX_OPND_NONE,
	PX_OPND_REG,      /* reg; comp = vector component 0..3 or -1 (%v.x) */
	PX_OPND_SREG,     /* sreg, comp = 0/1/2 for .x/.y/.z, or the number for %pm3 */
	PX_OPND_IMM,      /* imm: integer immediate (negative allowed) */
	PX_OPND_FIMM,     /* fimm: float immediate; is_f32 tells 0f from 0d */
	PX_OPND_SYM,      /* sym: a variable, function or label name (address-of) */
	PX_OPND_ADDR,     /* [base + offset]: base is reg (>= 0) or sym (sym.n > 0) or neither ([imm]) */
	PX_OPND_VEC,      /* {a, b, c, d}: elems/nelems */
	PX_OPND_LIST,     /* (a, b, ...) for call arguments and label lists; elems/nelems.
	                   * call is: [LIST rets,] SYM func|REG target, [LIST args,] [SYM proto|btargets] */
	PX_OPND_SINK,     /* _ */
};

struct px_operand {
	uint8_t kind;       /* enum px_operand_kind */
	uint8_t neg;        /* !%p (predicate negation) or -%r where PTX allows it */
	uint8_t is_f32;     /* for FIMM: 0f... (1) or 0d... (0) */
	uint8_t pair;       /* VEC written as `a|b` (setp, shfl.sync destinations) */
	int8_t comp;        /* vector/sreg component, -1 = none */
	uint8_t bracket;    /* LIST written in brackets: texture/surface operands
	                     * `[tex, sampler, {coords}]`, `[surf, {x, y}]` */
	int32_t reg;        /* dense register id, -1 = none */
	uint16_t sreg;      /* enum px_sreg */
	uint16_t nelems;
	int64_t imm;        /* IMM value; ADDR offset */
	double fimm;
	px_str sym;         /* SYM name; ADDR base symbol */
	struct px_operand *elems;
	uint32_t line, col; /* where the operand starts in the PTX */
};

/* ---- instructions ---- */
enum px_cmp {
	PX_CMP_NONE, PX_CMP_EQ, PX_CMP_NE, PX_CMP_LT, PX_CMP_LE, PX_CMP_GT, PX_CMP_GE,
	PX_CMP_LO, PX_CMP_LS, PX_CMP_HI, PX_CMP_HS,
	PX_CMP_EQU, PX_CMP_NEU, PX_CMP_LTU, PX_CMP_LEU, PX_CMP_GTU, PX_CMP_GEU,
	PX_CMP_NUM, PX_CMP_NAN,
};

/* Frequently tested modifiers, decoded once by the parser. */
enum px_modflag {
	PX_MOD_UNI = 1u << 0,      /* bra.uni, call.uni, ret.uni */
	PX_MOD_WIDE = 1u << 1,     /* mul.wide, mad.wide */
	PX_MOD_HI = 1u << 2,
	PX_MOD_LO = 1u << 3,
	PX_MOD_SYNC = 1u << 4,     /* shfl.sync, bar.sync, ... */
	PX_MOD_ALIGNED = 1u << 5,
	PX_MOD_VOLATILE = 1u << 6,
	PX_MOD_FTZ = 1u << 7,
	PX_MOD_SAT = 1u << 8,
	PX_MOD_APPROX = 1u << 9,
	PX_MOD_CC = 1u << 10,      /* add.cc, addc */
	PX_MOD_TO = 1u << 11,      /* cvta.to */
	PX_MOD_WARP = 1u << 12,    /* bar.warp.sync */
	PX_MOD_ARRIVE = 1u << 13,  /* bar.arrive, barrier.arrive */
	PX_MOD_RED = 1u << 14,     /* bar.red */
	PX_MOD_NC = 1u << 15,      /* ld.global.nc */
};

struct px_insn {
	uint16_t op;          /* enum px_opcode; PX_OP_UNKNOWN keeps opname */
	uint8_t space;        /* enum px_space from the modifiers, PX_SPACE_NONE if none */
	uint8_t vec;          /* .v2/.v4/.v8 -> 2/4/8; 1 otherwise */
	uint8_t cmp;          /* enum px_cmp (setp, set, slct, ...) */
	uint8_t ntypes;       /* type modifiers in order of appearance (cvt.f32.s32: f32, s32) */
	uint8_t types[3];     /* enum px_type */
	uint32_t mods;        /* enum px_modflag bits */
	px_str opname;        /* the opcode as written ("ld", "wgmma") */
	px_str modtext;       /* every modifier as written, dots included (".global.v4.f32") */
	int32_t guard;        /* guard predicate register id, -1 = none */
	uint8_t guard_neg;    /* @!%p */
	uint16_t nopnds;
	struct px_operand *opnds;
	uint32_t line, col;   /* the instruction's position in the PTX (opcode or guard) */
	uint32_t loc_file;    /* .loc in force: file index (0 = none) */
	uint32_t loc_line, loc_col;
	uint32_t block;       /* filled by fill_cfg: the basic block holding it */
};

/* ---- declarations ---- */
enum px_linkage { PX_LINK_NONE, PX_LINK_VISIBLE, PX_LINK_EXTERN, PX_LINK_WEAK, PX_LINK_COMMON };

struct px_var {
	px_str name;
	uint8_t space;        /* enum px_space */
	uint8_t type;         /* enum px_type */
	uint8_t vec;          /* 1, 2, 4 (or 8) */
	uint8_t linkage;      /* enum px_linkage */
	uint32_t align;       /* .align N; 0 = none given (natural alignment) */
	uint64_t elems;       /* product of the array dimensions; 1 for scalars */
	bool unsized;         /* declared with [] (extern/dynamic shared memory) */
	bool has_init;
	bool is_ptr;          /* .param .ptr */
	uint8_t ptr_space;    /* .ptr.global etc. */
	uint32_t ptr_align;   /* .ptr .align N */
	uint32_t line, col;
	bool mentioned;       /* fill_mentions: a function's own variable that its code names */
};
/* Bytes the variable occupies: elems * vec * (type bits / 8). 0 for unsized. */
uint64_t px_var_size(const struct px_var *v);
/* Alignment ptxas uses: .align if given, else the element size (vec included). */
uint32_t px_var_align(const struct px_var *v);

struct px_regdecl {
	px_str name;          /* "%r5", "%f", "%v" (for %r<100>: the arena-made "%r5") */
	uint8_t type;         /* enum px_type */
	uint8_t vec;          /* 1, 2, 4 */
	uint32_t line;
};

struct px_label {
	px_str name;
	uint32_t insn;        /* index of the instruction it precedes (== ninsns if at the end) */
	uint32_t line, col;
};

/* brx.idx target lists: `tbl: .branchtargets L1, L2;` */
struct px_branchtargets {
	px_str name;
	px_str *labels;
	uint32_t nlabels;
	uint32_t line;
};

struct px_block;
struct px_loop;

struct px_func {
	px_str name;
	bool is_entry;        /* .entry (a kernel) vs .func */
	bool has_body;        /* false for prototypes / .extern declarations */
	bool noreturn;
	uint8_t linkage;
	uint32_t line, col;   /* the .entry/.func keyword */
	size_t text_from;     /* its offset in the module's text (the body comes after it) */
	uint32_t end_line;    /* the closing brace */
	/* Where the body lives. NULL: in the module arena, for the module's
	 * lifetime. Otherwise the body (insns and their operands, labels,
	 * regs, btargets) and every per-body analysis (blocks, rpo_order,
	 * loops, live sets) are in this arena, and px_func_drop_body frees them
	 * once the function has been analysed, keeping what outlives a body:
	 * the signature, directives, vars, callees, mentions, the estimates. */
	struct px_arena *body_arena;
	bool body_dropped;

	struct px_var *params; uint32_t nparams;
	struct px_var *rets; uint32_t nrets;

	/* performance directives; 0 = absent */
	uint32_t maxntid[3], reqntid[3];
	uint32_t minnctapersm, maxnctapersm, maxnreg;
	uint32_t reqnctapercluster[3], maxclusterrank;
	bool explicitcluster;
	px_str *pragmas; uint32_t npragmas;  /* .pragma "nounroll"; etc. */
	uint32_t *pragma_at;   /* per pragma: the body instruction it comes before (ninsns: after
	                        * the last), UINT32_MAX before the body */

	struct px_regdecl *regs; uint32_t nregs;
	struct px_var *vars; uint32_t nvars;          /* .local/.shared/.param/... inside the body */
	struct px_insn *insns; uint32_t ninsns;
	struct px_label *labels; uint32_t nlabels;
	struct px_branchtargets *btargets; uint32_t nbtargets;

	/* ---- filled by fill_operands (body arena) ----
	 * Each instruction's register defs then uses (as px_insn_defs/uses
	 * give them, uncapped) decoded once for every later pass:
	 * insn i's defs are op_regs[op_start[i] .. op_start[i] + op_ndefs[i]),
	 * its uses follow up to op_start[i + 1]. See px_func_defs/px_func_uses. */
	uint32_t *op_start;   /* ninsns + 1 entries */
	uint16_t *op_ndefs;
	int32_t *op_regs;
	/* ---- filled by fill_cfg ---- */
	struct px_block *blocks; uint32_t nblocks;    /* blocks[0] is the entry */
	/* ---- filled by fill_callees (module arena) ---- */
	uint32_t *callees; uint32_t ncallees;         /* module function indices called directly */
	bool has_indirect_call;
	/* ---- filled by fill_cfg ---- */
	uint32_t *rpo_order; uint32_t nrpo;           /* reachable blocks in reverse post-order (rpo_order[0] = 0) */
	/* ---- filled by fill_dom / fill_postdom ---- */
	uint32_t exit_block;  /* virtual exit for post-dominators: == nblocks */
	/* ---- filled by fill_loops ---- */
	struct px_loop *loops; uint32_t nloops;       /* by header RPO: a loop's parent comes before it */
	bool irreducible;     /* a retreating edge that is not a back edge exists (no loop reported for it) */
	/* ---- filled by fill_live ---- */
	uint32_t max_live;          /* peak 32-bit register units live at once (64-bit = 2) */
	uint32_t max_live_pred;     /* peak predicates live at once */
	uint32_t reg_estimate;      /* estimated registers ptxas allocates (see pass_live.c) */
	uint32_t reg_demand;        /* the same before the caps (.maxnreg, launch bounds, 255):
	                             * above the cap, ptxas must spill (spill prediction) */
	uint32_t max_live_insn;     /* instruction where max_live is first reached; UINT32_MAX if none */
	uint32_t reg_wpeak;         /* fill_live: the weighted peak fill_regs estimates from */
	bool live_done;             /* fill_live found blocks to measure (else no estimate) */
	/* the numbering of the blocks' live sets (body arena): one bit per
	 * register that some block reads before writing it (no other register
	 * is ever live at a block boundary), in register order: live_reg[k] is
	 * bit k's register, live_bit[r] register r's bit or -1; live_words
	 * 64-bit words per set. Ask px_live_has whether a set holds a register. */
	uint32_t *live_reg; int32_t *live_bit;
	uint32_t nlive_regs, live_words;
	/* ---- filled by fill_regs ---- */
	bool estimated;             /* reg_estimate/reg_demand are final (callees included) */
	/* ---- filled by fill_mentions (module arena: outlives the body) ---- */
	uint32_t *mod_mentions; uint32_t nmod_mentions;  /* module variables the code names, sorted indices */
	/* ---- filled by fill_affine / fill_uniform / fill_access (analysis.h) ---- */
	struct px_func_analysis *an;   /* per-body state (body arena; dropped with the body) */
	struct px_results *res;        /* accesses, branches, loops (module arena; kept) */
};

struct px_block {
	uint32_t first, end;        /* instructions [first, end) */
	uint32_t *succs; uint32_t nsuccs;
	uint32_t *preds; uint32_t npreds;
	uint32_t idom;              /* immediate dominator; entry: itself */
	uint32_t ipdom;             /* immediate post-dominator; nblocks = the virtual exit */
	bool exit_virtual;          /* fill_postdom: linked to the virtual exit although it has
	                             * successors (it cannot reach a ret/exit: infinite loop) */
	int32_t loop;               /* innermost loop holding it, -1 = none */
	uint32_t rpo;               /* reverse post-order number; UINT32_MAX if unreachable */
	bool reachable;
	/* filled by fill_live: registers live in/out (numbered by px_func's
	 * live_bit; see px_live_has) */
	uint64_t *live_in, *live_out;
};

struct px_loop {
	uint32_t header;
	uint32_t *latches; uint32_t nlatches;   /* blocks with a back edge to header */
	uint32_t *blocks; uint32_t nblocks;     /* all blocks of the loop, sorted */
	uint32_t *exits; uint32_t nexits;       /* blocks outside the loop reached from inside */
	int32_t parent;                         /* enclosing loop, -1 = none */
	uint32_t depth;                         /* 1 = outermost */
};

/* ---- module ---- */
struct px_file_entry {
	uint32_t index;       /* as in `.file 1 "k.cu"` */
	px_str name;
};

struct px_module {
	struct px_arena *arena;
	const char *path;     /* as given; owned by the caller */
	const char *text;     /* the whole input; owned by the module (freed with it) */
	size_t len;
	bool text_mapped;     /* text is a px_map_file mapping (px_parse_hook.text_mapped) */

	uint32_t version_major, version_minor;  /* .version; 0.0 = absent */
	px_str *targets; uint32_t ntargets;     /* every word of .target, in order ("sm_90a", "texmode_independent", "debug") */
	px_str target;                          /* the sm_XX word, empty if none */
	uint32_t address_size;                  /* 32 or 64; 0 = absent */
	bool texmode_independent, target_debug, map_f64_to_f32;

	struct px_file_entry *files; uint32_t nfiles;
	struct px_var *vars; uint32_t nvars;    /* module scope */
	struct px_func *funcs; uint32_t nfuncs; /* in order of appearance */
	uint32_t nunknown_ops;                  /* instructions with an opcode not in the table */
	const struct px_launch *launch;         /* launch options for the value analyses; NULL = none
	                                         * (set by the caller before the pipeline runs) */
};

/* The arena for per-body data of f: its body arena, else the module's. */
struct px_arena *px_func_arena(struct px_module *m, struct px_func *f);
/* Frees f's body arena and clears every pointer into it (insns, labels,
 * regs, btargets, blocks, rpo_order, loops). No-op without a body arena. */
void px_func_drop_body(struct px_func *f);
/* The same without freeing: f forgets its body (as px_func_drop_body
 * leaves it) and the body arena is returned, now the caller's to free
 * (NULL without one). For handing a body to another thread. */
struct px_arena *px_func_detach_body(struct px_func *f);

/* Looks a .file index up; NULL if absent. */
const struct px_file_entry *px_module_file(const struct px_module *m, uint32_t index);
/* Finds a function by name; -1 if none. */
int32_t px_module_find_func(const struct px_module *m, px_str name);
void px_module_delete(struct px_module *m);
/* m forgets its text, which px_module_delete then leaves alone: for a
 * text parsed a second time from another module's buffer (px_ptx_parse
 * does not write into it). Returns the text, now the caller's. */
const char *px_module_release_text(struct px_module *m);

/* ---- front end (analyzer/ptx/parser.c) ----
 * Parses text (len bytes, owned by the module from now on: it is freed by
 * px_module_delete; it must be xmalloc'd and NUL-terminated at text[len]).
 * Always returns a module (possibly partial). Errors and warnings go to diags
 * as path:line:col; check diags->errors to know whether it parsed cleanly. */
struct px_module *px_ptx_parse(const char *path, char *text, size_t len,
                               struct px_diags *diags);

/* Streaming: with a hook, function(ctx, m, i) is called as soon as the
 * body of m->funcs[i] has been parsed, in file order; m->funcs and m->vars
 * hold everything declared so far (m->funcs may move between calls: keep
 * indices, not pointers). With body_arenas, each body gets its own arena
 * (px_func_drop_body frees it), so a caller that drops each body after its
 * analysis holds one body at a time. The hook is not called once the file
 * has had an error (the module is still returned, with the diagnostics). */
struct px_parse_hook {
	void (*function)(void *ctx, struct px_module *m, uint32_t func);
	void *ctx;
	bool body_arenas;
	/* text came from px_map_file with *mapped set: the module unmaps it,
	 * and the parser gives back the pages it has parsed past (between
	 * top-level directives, after the hook has had each body). The strings
	 * that outlive a body (function, parameter and variable names, pragmas,
	 * targets, file names) are then copies in the module arena, so memory
	 * holds about one body's text at a time; anything else that points back
	 * into the text (a kept body, a diagnostic's source line) still reads
	 * correctly: the pages come back from the file. */
	bool text_mapped;
	/* Optional, with text_mapped: the parser gives back no page at or
	 * after the offset hold returns (the caller still reads the text from
	 * there: bodies analysed after the parser has moved on, report.c -j). */
	size_t (*hold)(void *ctx);
};
struct px_module *px_ptx_parse_hooked(const char *path, char *text, size_t len,
                                      struct px_diags *diags, const struct px_parse_hook *hook);

/* ---- passes (pipeline.c) ---- */
enum px_pass {
	PX_PASS_CFG = 1u << 0,
	PX_PASS_DOM = 1u << 1,
	PX_PASS_POSTDOM = 1u << 2,
	PX_PASS_LOOPS = 1u << 3,
	PX_PASS_LIVE = 1u << 4,
	PX_PASS_MENTIONS = 1u << 5,
	PX_PASS_AFFINE = 1u << 6,
	PX_PASS_UNIFORM = 1u << 7,
	PX_PASS_ACCESS = 1u << 8,
	PX_PASS_OPERANDS = 1u << 10,
	PX_PASS_EVENTS = 1u << 11,
	PX_PASS_CALLEES = 1u << 12,
	PX_PASS_REGS = 1u << 13,
};
/* What a pass may read besides its own function, which decides where a
 * caller that analyses functions on several threads may run it. The table
 * is ordered by stage (a unit test checks it).
 *  PX_STAGE_PRE    other functions' declarations (m->funcs): run on the
 *                  thread that owns the module, while the body is there;
 *  PX_STAGE_LOCAL  only f, the module variables declared before f's end,
 *                  m->launch and m->path; allocates what outlives the body
 *                  in m->arena: may run on any thread against a view of
 *                  the module (report.c);
 *  PX_STAGE_POST   other functions' results (a callee's estimate): run in
 *                  file order on the owning thread; needs no body. */
enum px_stage { PX_STAGE_PRE, PX_STAGE_LOCAL, PX_STAGE_POST };
/* Runs every pass over every function with a body, in order. With verify
 * set (debug builds), checks the IR between passes; a broken invariant is
 * reported as an error diagnostic. Returns false on error. */
bool px_pipeline_run(struct px_module *m, struct px_diags *diags, bool verify);
/* The same for one function (see pipeline.c for what it requires). */
bool px_pipeline_run_func(struct px_module *m, struct px_func *f, struct px_diags *diags,
                          bool verify);
/* Only the passes of one stage that are in want (enum px_pass bits; ~0u
 * for all) or that those need, in order (verify: as above, assuming the
 * earlier stages have run with the same want; ignored for PX_STAGE_POST,
 * which runs without a body). px_pipeline_run_func == PRE, LOCAL, POST
 * with ~0u. */
bool px_pipeline_run_stage(struct px_module *m, struct px_func *f, struct px_diags *diags,
                           bool verify, enum px_stage stage, unsigned want);
/* Only the passes in want (enum px_pass bits) and those they need. */
bool px_pipeline_run_passes(struct px_module *m, struct px_func *f, unsigned want,
                            struct px_diags *diags, bool verify);

/* The pass table, in pipeline order (names as in --dump=NAME). */
struct px_buf;
struct px_pass_info {
	const char *name;       /* "cfg", "dom", "postdom", "loops", "live" */
	unsigned bit;           /* enum px_pass */
	unsigned needs;         /* enum px_pass bits that must have run before */
	uint8_t stage;          /* enum px_stage */
	const char *fills;      /* the fields it fills, in words */
	const char *desc;       /* one line for --help and --dump=list */
	void (*run)(struct px_module *m, struct px_func *f, struct px_diags *diags);
	void (*dump)(struct px_buf *out, const struct px_module *m, const struct px_func *f);
};
/* Returns the static table and sets *n to its length. Never freed. */
const struct px_pass_info *px_passes(size_t *n);
/* Finds a pass by --dump name; NULL if none. */
const struct px_pass_info *px_pass_find(const char *name);

void fill_operands(struct px_module *m, struct px_func *f);
void fill_callees(struct px_module *m, struct px_func *f);
void fill_cfg(struct px_module *m, struct px_func *f, struct px_diags *diags);
void fill_dom(struct px_module *m, struct px_func *f);
void fill_postdom(struct px_module *m, struct px_func *f);
void fill_loops(struct px_module *m, struct px_func *f);
void fill_live(struct px_module *m, struct px_func *f);
void fill_regs(struct px_module *m, struct px_func *f);
void fill_mentions(struct px_module *m, struct px_func *f);
bool px_ir_verify(const struct px_module *m, const struct px_func *f,
                  unsigned passes_done, struct px_diags *diags);

/* Dumps (--dump=cfg,loops,live): append text to a malloc'd buffer. */
struct px_buf {
	char *p;
	size_t n, cap;
	/* Optional: once the text passes PX_BUF_CHUNK bytes it is handed to
	 * sink and the buffer starts again, so a large output never sits in
	 * memory whole. The library only appends; the sink (the CLI) writes. */
	void (*sink)(void *ctx, const char *p, size_t n);
	void *sink_ctx;
};
#define PX_BUF_CHUNK (1u << 16)
/* Hands what is left to the sink, if there is one. */
void px_buf_flush(struct px_buf *b);
void px_buf_printf(struct px_buf *b, const char *fmt, ...) PX_PRINTF(2, 3);
void px_buf_puts(struct px_buf *b, const char *s);
void px_buf_putn(struct px_buf *b, const char *s, size_t n);
void px_buf_free(struct px_buf *b);
void px_dump_callees(struct px_buf *out, const struct px_module *m, const struct px_func *f);
void px_dump_regs(struct px_buf *out, const struct px_module *m, const struct px_func *f);
void px_dump_cfg(struct px_buf *out, const struct px_module *m, const struct px_func *f);
void px_dump_dom(struct px_buf *out, const struct px_module *m, const struct px_func *f);
void px_dump_postdom(struct px_buf *out, const struct px_module *m, const struct px_func *f);
void px_dump_loops(struct px_buf *out, const struct px_module *m, const struct px_func *f);
void px_dump_live(struct px_buf *out, const struct px_module *m, const struct px_func *f);
void px_dump_mentions(struct px_buf *out, const struct px_module *m, const struct px_func *f);
void px_dump_operands(struct px_buf *out, const struct px_module *m, const struct px_func *f);

/* Register operands an instruction defines and uses, in order: fills up to
 * max ids into out and returns the count (which may exceed max). Vector
 * operands contribute each element; addresses contribute their base. */
uint32_t px_insn_defs(const struct px_insn *in, int32_t *out, uint32_t max);
uint32_t px_insn_uses(const struct px_insn *in, int32_t *out, uint32_t max);
/* The same from fill_operands' table (no copy; every id, uncapped): insn
 * i of f's defs / uses and their count in *n. Requires fill_operands. */
static inline const int32_t *px_func_defs(const struct px_func *f, uint32_t i, uint32_t *n)
{
	*n = f->op_ndefs[i];
	return f->op_regs + f->op_start[i];
}
static inline const int32_t *px_func_uses(const struct px_func *f, uint32_t i, uint32_t *n)
{
	uint32_t s = f->op_start[i] + f->op_ndefs[i];
	*n = f->op_start[i + 1] - s;
	return f->op_regs + s;
}

/* Does the live set s (a block's live_in or live_out) hold register r?
 * Requires fill_live. */
static inline bool px_live_has(const struct px_func *f, const uint64_t *s, int32_t r)
{
	if (!s || !f->live_bit || r < 0 || (uint32_t)r >= f->nregs || f->live_bit[r] < 0)
		return false;
	uint32_t k = (uint32_t)f->live_bit[r];
	return (s[k >> 6] >> (k & 63)) & 1;
}

/* 32-bit register units a declared register occupies (pass_live.c):
 * ceil(bits / 32) * vec, at least 1; 0 for predicates. */
uint32_t px_reg_units(const struct px_regdecl *r);
/* The register cap of f's directives (.maxnreg, launch bounds, 255); pass_live.c. */
uint32_t px_reg_cap(const struct px_func *f);

#endif
