/* analysis.h: the value analyses over a function's body and what they leave
 * behind: affine forms of registers (pass_affine.c), uniformity and branch
 * verdicts (pass_uniform.c), the memory access model (pass_access.c).
 *
 * Per-body state (forms, levels) lives in the body arena and goes with the
 * body; the per-kernel results the report prints (struct px_results: one
 * record per memory access and per conditional branch) live in the module
 * arena and outlive the body.
 *
 * The launch configuration: struct px_launch carries what the user said
 * (--block, --grid, --param); px_launch_block picks each kernel's block:
 * .reqntid, else --block, else .maxntid, else 256x1x1 ("default"). */
#ifndef PX_ANALYSIS_H
#define PX_ANALYSIS_H

#include "ir.h"

/* ---- launch configuration ---- */
enum px_launch_from {
	PX_LAUNCH_REQNTID, PX_LAUNCH_MAXNTID, PX_LAUNCH_OPTION,
	PX_LAUNCH_ANNOTATION, PX_LAUNCH_CONFIG, PX_LAUNCH_DEFAULT,
};
const char *px_launch_from_name(enum px_launch_from f);

/* The default block when nothing else says (DESIGN: documented, reported as such). */
#define PX_DEFAULT_BLOCK_X 256

struct px_param_value {
	const char *name;     /* PTX parameter name, or its index in decimal */
	int64_t value;
};
struct px_launch {
	uint32_t block[3];    /* --block; 0 = not given */
	uint32_t grid[3];     /* --grid; 0 = not given */
	const struct px_param_value *params;
	uint32_t nparams;
};
/* Fills block[3] for f and returns where it came from (l may be NULL). */
enum px_launch_from px_launch_block(const struct px_launch *l, const struct px_func *f,
                                    uint32_t block[3]);
/* Parses "NAME=VALUE" (VALUE a decimal or 0x integer); false if malformed. */
bool px_param_value_parse(const char *s, struct px_param_value *out);

/* Integer arithmetic of affine forms wraps modulo 2^64, as PTX's 64-bit
 * integer instructions do (PTX ISA, "Integer Arithmetic Instructions":
 * add/sub/mul.lo keep the low bits): a form whose constants overflow still
 * describes the register's value, and C's signed overflow (undefined, found
 * by fuzz_annot on a folded CUDA index) never happens. */
static inline int64_t px_wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t px_wsub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline int64_t px_wmul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static inline uint64_t px_uabs(int64_t a) { return a < 0 ? 0 - (uint64_t)a : (uint64_t)a; }

/* ---- affine forms (pass_affine.c) ----
 * A form is c + sum(coef_i * atom_i). Atoms are per-function: thread atoms
 * vary across the threads of a block (%tid.*, %laneid, and quasi-affine
 * nodes: an exact operation by a constant on a thread-only form, such as
 * (tid.x >> 5) or (tid.x % 16)); uniform atoms are the same for every
 * thread of a block (%ctaid.*, %nctaid.* when --grid is not given,
 * parameters without --param, loop iteration counts, products of uniform
 * values). %ntid.* is a constant: the launch block. Values are treated as
 * mathematical integers (no wrap-around) except where a quasi node narrows
 * them; an operation the model cannot express exactly gives "unknown". */
#define PX_AFF_TERMS 4
enum px_atom_kind {
	PX_ATOM_TID,          /* a = component */
	PX_ATOM_LANEID,
	PX_ATOM_QUASI,        /* op applied to form `arg` with constant k */
	PX_ATOM_CTAID,        /* a = component */
	PX_ATOM_NCTAID,       /* a = component */
	PX_ATOM_PARAM,        /* a = parameter index */
	PX_ATOM_SYM,          /* address of a variable: a = index in vars (func: a | 1<<31 for module) */
	PX_ATOM_LOOP,         /* iteration count of loop a (register b) */
	PX_ATOM_OPAQUE,       /* some uniform value (product of uniforms, ...) */
	PX_ATOM_JOIN,         /* the uniform part of register b with several definitions
	                       * (pass_affine.c join_form): increments and init differences */
};
enum px_quasi_op { PX_Q_DIV, PX_Q_REM, PX_Q_AND, PX_Q_OR, PX_Q_XOR, PX_Q_MIN, PX_Q_MAX,
                   PX_Q_TRUNC, PX_Q_SEXT };

struct px_aff {
	bool known;
	uint8_t nterms;
	int64_t c;
	struct { int64_t coef; uint32_t atom; } t[PX_AFF_TERMS];
};

struct px_atom {
	uint8_t kind;         /* enum px_atom_kind */
	uint8_t qop;          /* enum px_quasi_op for QUASI */
	bool thread;          /* varies across the threads of a block */
	uint32_t a, b;
	int64_t k;            /* QUASI constant */
	uint32_t align;       /* a power of two known to divide the value (1 if nothing known) */
	bool unsure;          /* fill_uniform: a LOOP or JOIN atom (or a quasi atom over one)
	                       * that lanes running together may hold differently (after a
	                       * divergent loop exit or branch): not to be relied on */
	struct px_aff arg;    /* QUASI operand (thread-only) */
};

/* Provenance of an address held in a register. */
enum px_prov { PX_PROV_NONE, PX_PROV_GLOBAL, PX_PROV_SHARED, PX_PROV_LOCAL, PX_PROV_CONST,
               PX_PROV_PARAM_PTR };

/* A predicate as the lanes compute it: a comparison of two forms, or a
 * logical combination of other predicates. */
enum px_pred_kind { PX_PRED_UNKNOWN, PX_PRED_SETP, PX_PRED_AND, PX_PRED_OR, PX_PRED_XOR,
                    PX_PRED_NOT, PX_PRED_CONST };
struct px_pred {
	uint8_t kind;
	uint8_t cmp;          /* enum px_cmp for SETP */
	bool is_signed;
	bool np, nq;          /* AND/OR/XOR: operand written !%p */
	int32_t p, q;         /* AND/OR/XOR/NOT: predicate register ids */
	int64_t value;        /* CONST */
	struct px_aff a, b;   /* SETP: the compared values */
};

/* Uniformity levels, ordered: the join is the maximum. */
enum px_uni { PX_UNI_BLOCK = 0, PX_UNI_WARP = 1, PX_UNI_DIVERGENT = 2 };

/* Per-body analysis state (body arena). */
struct px_func_analysis {
	struct px_aff *form;  /* per register */
	uint8_t *prov;        /* per register: enum px_prov */
	struct px_pred *pred; /* per predicate register, by pidx: pred[0] is an unknown
	                       * predicate that every other register maps to (px_pred_of) */
	uint32_t *pidx;       /* per register: its entry in pred */
	uint32_t *ndefs;      /* per register: definitions in the body */
	struct px_atom *atoms; uint32_t natoms, capatoms;
	uint8_t *uni;         /* per register: enum px_uni (fill_uniform) */
	int32_t *why;         /* per register: the operand that made it divergent (reg id),
	                       * or -2 - sreg for a special register, -1 none */
	uint8_t *why_comp;    /* sreg component for why <= -2 */
	uint32_t block[3];    /* the launch block used */
	enum px_launch_from block_from;
	int64_t (*tids)[32][3];  /* per warp of the block: each lane's tid (px_warp_lanes) */
	uint32_t *nlanes;        /* per warp: lanes that exist */
	/* fill_affine: the value of every thread atom (tid, laneid, quasi) at
	 * each lane of each warp, for the warp evaluators: atom a's values in
	 * warp w are tval[(tslot[a] * nwarps + w) * 32 ..], when tslot[a] >= 0;
	 * PX_TSLOT_FAIL: it cannot be evaluated (quasi nodes nested too deep);
	 * PX_TSLOT_NONE: not in the table (a uniform atom, or past the table's
	 * size cap): evaluated as it is met. NULL tslot: no table. */
	int32_t *tslot;
	int64_t *tval;
	uint32_t nwarps;         /* px_block_warps(block) */
};
enum { PX_TSLOT_NONE = -1, PX_TSLOT_FAIL = -2 };

/* What fill_affine knows of the predicate register r (0 <= r < nregs):
 * PX_PRED_UNKNOWN for a register that is not a predicate. */
static inline const struct px_pred *px_pred_of(const struct px_func_analysis *an, int32_t r)
{
	return &an->pred[an->pidx[r]];
}

/* ---- results that outlive the body (module arena) ---- */
enum px_access_pattern { PX_PATTERN_AFFINE, PX_PATTERN_UNKNOWN };
struct px_access_rec {
	uint32_t line, loc_file, loc_line;
	uint8_t space;        /* enum px_space after provenance (GENERIC when unresolved) */
	uint8_t pattern;      /* enum px_access_pattern */
	uint16_t op;          /* enum px_opcode */
	bool is_store;
	uint32_t bytes;       /* per thread, vector width included */
	uint32_t depth;       /* loop depth */
	/* global/local: sectors per request (mean over the warps that differ), ideal;
	 * shared: wavefronts and ideal wavefronts; < 0 = unknown */
	double sectors, ideal_sectors;
	double wavefronts, ideal_wavefronts;
	bool dynamic_local;   /* a .local access whose address varies by thread or is unknown */
	const char *why;      /* why unknown; NULL otherwise (module arena) */
	uint32_t insn;        /* the instruction's index in the body (valid while it exists) */
	/* fill_events, for a shared access with a bank conflict: padding each row
	 * of pad_row_bytes by pad_bytes gives padded_ways (0 = no padding found) */
	uint32_t pad_bytes, pad_row_bytes;
	double padded_ways;
};
enum px_divergence { PX_DIV_UNIFORM, PX_DIV_DIVERGENT, PX_DIV_UNKNOWN };
struct px_branch_rec {
	uint32_t line, loc_file, loc_line;
	uint8_t divergence;   /* enum px_divergence */
	uint8_t across;       /* for uniform: PX_UNI_BLOCK or PX_UNI_WARP */
	int32_t active_lanes; /* lanes on the smaller side in the most divergent warp; -1 unknown */
	const char *reason;   /* module arena */
	uint32_t depth;
};
struct px_loop_rec {
	uint32_t line, loc_file, loc_line;
	uint32_t depth;
	int64_t trip;         /* -1 unknown */
};
/* fill_events (pass_events.c): instructions the lint rules read. */
enum px_event_kind {
	PX_EV_DIVERGENT_BARRIER,  /* a CTA barrier not every thread of the block reaches */
	PX_EV_LEGACY_WARP,        /* shfl/vote without .sync */
	PX_EV_SHUFFLE_MASK,       /* a constant membermask that does not match the active lanes */
	PX_EV_INT_DIV_LOOP,       /* integer div/rem by a non-constant inside a loop (lanes = depth) */
	PX_EV_WARP_EXCHANGE,      /* shared load of another lane's store, no warp sync between */
};
struct px_event_rec {
	uint32_t line, col, loc_file, loc_line;
	uint8_t kind;         /* enum px_event_kind */
	bool certain;         /* false: assumes conditions that could not be evaluated */
	uint16_t op;          /* enum px_opcode */
	uint32_t mask;        /* SHUFFLE_MASK: the membermask */
	uint32_t lanes;       /* kind-specific: active lanes, lane distance, loop depth */
	const char *detail;   /* module arena or static; may be NULL */
};
struct px_results {
	struct px_event_rec *ev; uint32_t nev, capev;
	uint32_t nfp64, fp64_line, fp64_col;  /* f64 arithmetic instructions, the first one */
	struct px_access_rec *acc; uint32_t nacc, capacc;
	struct px_branch_rec *br; uint32_t nbr, capbr;
	struct px_loop_rec *loops; uint32_t nloops, caploops;
	uint32_t block[3];
	enum px_launch_from block_from;
	uint32_t ndynamic_local;
};

void fill_affine(struct px_module *m, struct px_func *f);
void fill_uniform(struct px_module *m, struct px_func *f);
void fill_access(struct px_module *m, struct px_func *f);
void fill_events(struct px_module *m, struct px_func *f);
void px_dump_affine(struct px_buf *out, const struct px_module *m, const struct px_func *f);
void px_dump_uniform(struct px_buf *out, const struct px_module *m, const struct px_func *f);
void px_dump_access(struct px_buf *out, const struct px_module *m, const struct px_func *f);
void px_dump_events(struct px_buf *out, const struct px_module *m, const struct px_func *f);

/* ---- evaluation (pass_affine.c) ----
 * Values of every atom for one thread: tid, laneid, and the uniform atoms'
 * values (uval, indexed by atom; only the atoms the caller assigned). */
struct px_eval_env {
	int64_t tid[3];
	int64_t lane;
	const int64_t *uval;  /* per atom; NULL = no uniform atom known */
	const bool *uknown;   /* per atom: uval holds its value */
};
/* The value of form a in env; false when it needs an atom env lacks. */
bool px_aff_eval(const struct px_func_analysis *an, const struct px_aff *a,
                 const struct px_eval_env *env, int64_t *out);
/* Appends "c + 4*%tid.x + ..." to out. */
void px_aff_print(struct px_buf *out, const struct px_func *f, const struct px_func_analysis *an,
                  const struct px_aff *a);
/* Does form a contain a thread atom / a uniform atom? */
bool px_aff_has_thread(const struct px_func_analysis *an, const struct px_aff *a);
bool px_aff_has_uniform(const struct px_func_analysis *an, const struct px_aff *a);
/* Evaluates predicate register p for a lane: 1 true, 0 false, -1 unknown. */
int px_pred_eval(const struct px_func_analysis *an, int32_t p, const struct px_eval_env *env,
                 int depth);
/* The same for the lanes of warp w of the launch block at once (an->tids[w]
 * for lane l), lanes outside mask are ignored (their out[] is 0 /
 * unspecified); uniform atoms from uval/uknown (may be NULL).
 * px_aff_eval_warp is false when a lane needs an atom that is not known;
 * px_pred_eval_warp gives -1 there. */
bool px_aff_eval_warp(const struct px_func_analysis *an, const struct px_aff *a, uint32_t w,
                      uint32_t mask, const int64_t *uval, const bool *uknown, int64_t out[32]);
void px_pred_eval_warp(const struct px_func_analysis *an, int32_t p, uint32_t w, uint32_t mask,
                       const int64_t *uval, const bool *uknown, int8_t out[32], int depth);

/* ---- building forms outside a PTX body (the CUDA front end) ----
 * The same arithmetic fill_affine uses, for expressions built from CUDA C
 * source: an's atoms grow in arena (an needs only atoms/natoms/capatoms). */
uint32_t px_aff_new_atom(struct px_func_analysis *an, struct px_arena *arena, uint8_t kind,
                         bool thread, uint32_t a, uint32_t b, uint32_t align);
struct px_aff px_aff_const(int64_t c);
struct px_aff px_aff_term(uint32_t atom, int64_t coef);
struct px_aff px_aff_add(struct px_func_analysis *an, struct px_arena *arena, struct px_aff a,
                         struct px_aff b, int64_t sign);
struct px_aff px_aff_mul(struct px_func_analysis *an, struct px_arena *arena, struct px_aff a,
                         struct px_aff b);
struct px_aff px_aff_quasi(struct px_func_analysis *an, struct px_arena *arena, uint8_t op,
                           struct px_aff a, int64_t k);

/* ---- one warp request's cost (pass_access.c) ----
 * For the active lanes (mask) at byte addresses a[32], each accessing
 * bytes: global sectors touched and the ideal; shared wavefronts and the
 * ideal (the model in pass_access.c's comment). */
void px_warp_sectors(const int64_t a[32], uint32_t mask, uint32_t bytes, uint32_t *sec,
                     uint32_t *ideal);
void px_warp_wavefronts(const int64_t a[32], uint32_t mask, uint32_t bytes, uint32_t *wf,
                        uint32_t *ideal);

/* ---- lanes (pass_uniform.c) ----
 * The threads of warp w of the block: tid of each lane, and which lanes
 * exist (the last warp may be partial). Returns the lane count. */
uint32_t px_warp_lanes(const uint32_t block[3], uint32_t w, int64_t tid[32][3]);
/* The lanes of each warp of the block (masks[w], w < px_block_warps) that
 * reach instruction insn: the divergent conditions of insn's guard and of
 * the conditional branches controlling its block along its dominator
 * chain, evaluated per lane (uniform atoms from uval/uknown, may be NULL).
 * Sets *known false when some condition cannot be evaluated (the masks
 * then assume it holds). */
void px_reach_masks(const struct px_func *f, uint32_t insn, bool with_guard, const int64_t *uval,
                    const bool *uknown, uint32_t *masks, bool *known);
/* The number of warps in the block. */
uint32_t px_block_warps(const uint32_t block[3]);
/* enum px_uni of special register s (pass_uniform.c): %tid, %laneid, the
 * lane masks and clocks divergent, %warpid and %smid warp-uniform */
uint8_t px_sreg_level(uint16_t s);

#endif
