/* simt.h: `ptxray simt`: a cycle-level simulation of one thread block of a
 * kernel on concrete values, its per-loop timing, and the verifier checks
 * (barrier divergence, shuffle masks, shared-memory races, out-of-bounds
 * and uninitialised shared reads, deadlocks).
 *
 * px_simt_file parses a PTX file, runs the pass pipeline, simulates the
 * chosen kernel and fills a px_simt_result (malloc'd; px_simt_result_free
 * frees it). Library code: it never prints; bad input and impossible
 * requests go to diags as path:line:col errors (false returned). */
#ifndef PX_SIMT_H
#define PX_SIMT_H

#include "../analysis.h"
#include "../ir.h"

struct px_arch;

/* Why a warp did not issue in a cycle (per loop, in warp-cycles). */
#define PX_SIMT_STALLS(X)                                             \
	X(STALL_SELECTED, "issued", "the warp issued an instruction")      \
	X(STALL_NOT_SELECTED, "not_selected", "ready, but its scheduler issued another warp") \
	X(STALL_DEPENDENCY, "dependency", "waiting for a fixed-latency result (Nsight Compute's wait)") \
	X(STALL_MEMORY, "memory", "waiting for a global or local load's result, or a fence (long_scoreboard)") \
	X(STALL_MIO, "mio", "waiting for a shared-memory, shuffle or MUFU result (short_scoreboard)") \
	X(STALL_PIPE, "pipe_busy", "its pipeline (or the shared-memory / load-store unit) was busy") \
	X(STALL_BARRIER, "barrier", "waiting at a barrier for the rest of the block, or for its release") \
	X(STALL_BRANCH, "branch", "waiting after a branch: for the taken target's instructions, or after one that fell through")
enum px_simt_stall {
#define X(e, s, d) PX_##e,
	PX_SIMT_STALLS(X)
#undef X
	PX_STALL_COUNT
};
const char *px_simt_stall_name(unsigned s);

/* The pipes a loop's issue slots go to (JSON issue_slots_by_pipe): the
 * timing model's, in the order of its arch table's latency and throughput
 * entries, and the convergence barrier's (BSSY, BSYNC, which ncu counts on
 * the CBU). An expanded instruction's slots count with its own pipe. */
#define PX_SIMT_PIPES(X)                                               \
	X(PIPE_ALU, "alu", "integer add, logic, compare, select, shift")     \
	X(PIPE_IMAD, "imad", "integer multiply and multiply-add")           \
	X(PIPE_FP32, "fp32", "FP32 add, multiply, FMA")                     \
	X(PIPE_FP64, "fp64", "FP64 arithmetic")                             \
	X(PIPE_SFU, "sfu", "special functions, conversions, bit counts")    \
	X(PIPE_SHARED, "shared", "shared-memory accesses")                  \
	X(PIPE_GLOBAL, "global", "global, local, constant and parameter accesses") \
	X(PIPE_SHFL, "shfl", "shuffles and other warp-wide operations")     \
	X(PIPE_BARRIER, "barrier", "block barriers")                        \
	X(PIPE_BRANCH, "branch", "branches, calls, exits")                  \
	X(PIPE_TENSOR, "tensor", "mma")                                     \
	X(PIPE_CONVERGENCE, "convergence", "BSSY and BSYNC around a branch not proven warp-uniform")
enum px_simt_pipe {
#define X(e, s, d) PX_##e,
	PX_SIMT_PIPES(X)
#undef X
	PX_PIPE_COUNT
};
const char *px_simt_pipe_name(unsigned p);

/* The memory accesses the simulation counts (JSON `memory`), by the
 * state space an access resolved to and its operation, as Nsight
 * Compute's l1tex counters divide them; with the counts each kind has
 * (struct px_simt_mem: S sectors, H L1 hit sectors, W wavefronts). */
#define PX_SIMT_MEMS(X)                                                 \
	X(MEM_GLOBAL_LOAD, "global_load", "SHW", "loads from global memory") \
	X(MEM_GLOBAL_STORE, "global_store", "S", "stores to global memory") \
	X(MEM_GLOBAL_ATOMIC, "global_atomic", "S", "atomics and reductions on global memory") \
	X(MEM_LOCAL_LOAD, "local_load", "SHW", "loads from local memory")  \
	X(MEM_LOCAL_STORE, "local_store", "S", "stores to local memory")   \
	X(MEM_SHARED_LOAD, "shared_load", "W", "loads from shared memory, ldmatrix") \
	X(MEM_SHARED_STORE, "shared_store", "W", "stores to shared memory, stmatrix") \
	X(MEM_SHARED_ATOMIC, "shared_atomic", "W", "atomics and reductions on shared memory")
enum px_simt_mem_kind {
#define X(e, s, c, d) PX_##e,
	PX_SIMT_MEMS(X)
#undef X
	PX_MEM_COUNT
};
const char *px_simt_mem_name(unsigned k);
/* Whether kind k has count c ('S', 'H' or 'W': PX_SIMT_MEMS). */
bool px_simt_mem_has(unsigned k, char c);

/* One kind's accesses: warp-level requests (some lane's address known),
 * the 32-byte sectors they touch (global and local memory), the sectors of
 * loads that hit the L1 (an estimate: the cache model decides a hit per
 * line, and each of an access's lines takes an equal share of its
 * sectors), and the L1 data stage's wavefronts (loads and shared memory:
 * more than one a request when lanes conflict on a bank or, for global
 * loads, spread over more lines than one wavefront serves). */
struct px_simt_mem {
	double requests, sectors, l1_hit_sectors, wavefronts;
};

/* The verifier's checks (JSON `kind`; the lint rule of the same id). */
#define PX_SIMT_KINDS(X)                          \
	X(V_BARRIER_DIVERGENCE, "barrier-divergence") \
	X(V_DEADLOCK, "deadlock")                     \
	X(V_SHARED_OOB, "shared-out-of-bounds")       \
	X(V_SHARED_RACE, "shared-race")               \
	X(V_SHUFFLE_MASK, "shuffle-mask")             \
	X(V_UNINIT_SHARED, "uninitialized-shared")
enum px_simt_kind {
#define X(e, s) PX_##e,
	PX_SIMT_KINDS(X)
#undef X
	PX_V_COUNT
};
const char *px_simt_kind_name(unsigned k);

struct px_simt_options {
	const char *const *kernels;   /* NULL-terminated; the first selected kernel is simulated */
	uint32_t block[3], grid[3];   /* 0 = not given */
	const struct px_param_value *params;
	uint32_t nparams;
	const char *loop;             /* NULL (default choice), "all", or a line number */
	/* `// ptxray: hot` loops of the CUDA source: nhot [first, last] line pairs
	 * of hot_file; the PTX loops whose header .loc falls inside are timed
	 * (unless loop is given) */
	const char *hot_file;
	const uint32_t (*hot_lines)[2];
	uint32_t nhot;
	uint32_t iters;               /* iterations assumed where a loop depends on unknown values */
	uint64_t budget;              /* warp-instructions at most (0 = 50 million) */
	uint32_t dynamic_shared;      /* bytes of dynamic shared memory (0 = 48 KiB less static when used) */
	/* the kernel's registers a thread, which size the L1 through the shared
	 * memory the driver configures for the blocks they let an SM hold:
	 * given (registers), else from `ptxas -v` (ptxas: its path; run on the
	 * file, whose .target it compiles for), else estimated from the PTX */
	uint32_t registers;
	const char *ptxas;
	bool l2_warm;                 /* the data is in the L2 (earlier launches touched it): a line's
	                               * first touch hits the L2 instead of going to DRAM */
	const struct px_arch *arch;   /* timing table; required (px_arch_timing's for a target
	                               * without a latency section) */
	const char *latency_table;    /* the table arch's latencies come from, when not arch's own
	                               * (px_arch_timing's base): the result's latency_table */
	uint32_t cc_major;            /* compute capability the block runs on, when not the timing
	                               * table's: 7 and newer schedule threads independently
	                               * (simt_its.c); 0 = arch's */
	/* the names of the `.file` entries by number (file_names[i], i < nfile_names;
	 * NULL entries unknown), for a module whose `.file` directives the parser
	 * has not reached yet (nvcc writes them at the end; lint simulates each
	 * kernel as it is parsed); px_module_file's are used first */
	const char *const *file_names;
	uint32_t nfile_names;
	bool stop_at_guess;           /* stop when the unknown-value policy first decides (lint:
	                               * what follows would not be reported) */
};

struct px_simt_loop {
	uint32_t line;                /* PTX line of the loop header's first instruction */
	uint32_t loc_line;            /* its .loc source line, 0 = none */
	const char *source_file;      /* NULL = none */
	uint32_t depth;
	double iterations;            /* header executions per warp that entered (mean) */
	double cycles;                /* cycles with at least one warp inside */
	double cycles_per_iteration, issued_per_iteration, simt_efficiency;
	/* issued_per_iteration with the SASS instructions beyond one that an
	 * instruction takes (px_simt_result.issue_slots) */
	double issue_slots_per_iteration;
	double slots_by_pipe[PX_PIPE_COUNT];   /* issue_slots_per_iteration by pipe (enum px_simt_pipe) */
	uint64_t stalls[PX_STALL_COUNT];
	struct px_simt_mem mem[PX_MEM_COUNT];  /* memory accesses per warp and iteration, by kind */
};

struct px_simt_violation {
	uint8_t kind;                 /* enum px_simt_kind */
	uint32_t line, col, loc_line;
	const char *source_file;      /* NULL = none */
	char *message;                /* owned */
	uint32_t threads[2];          /* linear thread ids; threads[1] == threads[0] when one */
	uint32_t nthreads;            /* 1 or 2 */
	uint32_t other_line;          /* the other thread's instruction (the earlier access of a
	                               * race, the other barrier of a deadlock); 0 = none */
	uint32_t other_loc_line;      /* its .loc source line, 0 = none */
	bool same_warp;               /* shared-race: both threads in one warp (ordered only by
	                               * a warp synchronisation; lint: warp-sync-missing) */
	bool guessed;                 /* found after the unknown-value policy decided something
	                               * (a branch, a guard, a skipped store): not a proof */
};

/* How far the timing model's cycles per iteration were from the hardware,
 * as tests/check_simt.py measures them on the committed fixtures (it fails
 * when these figures no longer match): every measured loop, and the loops
 * of the held-out sets (realistic kernels the model was not fitted to),
 * as predicted before they were measured. */
struct px_simt_accuracy {
	uint32_t loops;               /* measured loops */
	double median;                /* median absolute relative error, all of them */
	uint32_t held_out;            /* held-out loops */
	double held_out_median, held_out_p90, held_out_worst;
	uint32_t held_out_fast;       /* held-out loops predicted faster than measured */
};
extern const struct px_simt_accuracy px_simt_accuracy;

/* How far one of the simulation's estimates was from Nsight Compute on the
 * committed fixtures (tests/check_simt.py fails when these no longer
 * match): a per-loop difference over the measured loops that have it,
 * its median, 90th percentile and worst. */
struct px_simt_spread {
	uint32_t loops;
	double median, p90, worst;
};
/* The memory counts' one estimate, the L1's hit rate of global loads'
 * sectors: the absolute difference of the two rates (0.1: ten percentage
 * points) over the loops with global loads in both. */
extern const struct px_simt_spread px_simt_l1_accuracy;
/* The stall breakdown (the warp-cycles by reason) against Nsight Compute's
 * warp states, mapped to these reasons: the total variation distance of
 * the two breakdowns of an iteration's warp-cycles (0.1: ten percentage
 * points moved), over the loops whose warp states were counted
 * (bench/gpu/simt/stalls.sh). */
extern const struct px_simt_spread px_simt_stall_accuracy;

struct px_simt_result {
	char *path;                   /* owned copy */
	char *source_path;            /* owned; the CUDA source simulated through nvcc's PTX (the
	                               * text output locates violations there by their .loc) */
	char *kernel;                 /* mangled name, owned */
	char arch[16];
	char latency_table[16];       /* the table whose latencies timed it (arch's own, or its base) */
	uint32_t block[3];
	const char *model;            /* static text: the reconvergence model */
	/* the L1 the timing model gives the block: the unified data cache less
	 * the shared memory the driver configures at launch (px_occ_launch_shared);
	 * 0: unbounded (separate stores, or the launch was not computable) */
	uint32_t l1_bytes, launch_shared_bytes;
	uint32_t registers;           /* a thread's, as the L1 was sized with (px_simt_options.registers) */
	const char *registers_from;   /* static text: "option", "ptxas" or "estimate" */
	bool l2_warm;                 /* px_simt_options.l2_warm: the data was in the L2 at launch */
	struct px_simt_loop *loops; uint32_t nloops;
	struct px_simt_violation *viol; uint32_t nviol, capviol;
	char **notes; uint32_t nnotes, capnotes;   /* unknown values met, policies applied */
	uint64_t warp_insns, cycles;
	/* the warp-instructions that took an issue slot (warp_insns less the
	 * ones the model runs free: folded into another, as ptxas does): what
	 * the hardware's executed-instruction counter counts, give or take
	 * the SASS ptxas adds (bench/gpu/simt/icount.sh); issue_slots: with
	 * the cycles an expanded instruction's sequence holds its scheduler
	 * (the arch table's throughput.idiv_issue...) counted for it, as the
	 * counter counts the sequence's instructions */
	uint64_t issued, issue_slots;
	uint64_t slots_by_pipe[PX_PIPE_COUNT];   /* issue_slots by pipe (enum px_simt_pipe) */
	struct px_simt_mem mem[PX_MEM_COUNT];    /* the block's memory accesses, by kind */
	uint64_t stalls[PX_STALL_COUNT];         /* the block's warp-cycles by stall reason */
	/* thread 0's last clock read less its first (%clock, %clock64), what
	 * a clock64() around the code measures: a read right after a block
	 * barrier gives the warp's arrival there, not the barrier's release
	 * (BAR.SYNC.DEFER_BLOCKING); clock_reads: how many (span 0 below 2) */
	uint64_t clock_span;
	uint32_t clock_reads;
	bool completed;               /* every warp reached its exit */
	bool budget_out;              /* stopped at opt->budget */
	uint32_t guess_line;          /* PTX line of the first unknown-value policy decision, 0 none */
	struct px_module *module;     /* kept for source names; freed with the result */
};

bool px_simt_file(const char *path, char *text, size_t len, const struct px_simt_options *opt,
                  struct px_simt_result *out, struct px_diags *diags);
/* The same on function fi (an entry with a body) of m, a module px_ptx_parse
 * made (possibly holding other simulated kernels: each call runs the pass
 * pipeline on fi again, with opt's launch). out borrows m (out->module stays
 * NULL): free out with px_simt_result_free before deleting m. This is what
 * `ptxray lint` calls for each kernel, on one parse of the file. */
bool px_simt_func(struct px_module *m, uint32_t fi, const char *path, const struct px_simt_options *opt,
                  struct px_simt_result *out, struct px_diags *diags);
/* The loops of function f whose header instructions carry a .loc line in
 * [first, last] of the source file named file (its last path component is
 * compared): `// ptxray: hot` loops found through .loc. Fills sel[l] for
 * each (f->nloops entries); returns how many. */
uint32_t px_simt_loops_in_lines(const struct px_module *m, const struct px_func *f, const char *file,
                                uint32_t first, uint32_t last, bool *sel);
void px_simt_result_free(struct px_simt_result *r);
struct px_buf;
void px_simt_json(struct px_buf *out, const struct px_simt_result *r);
void px_simt_text(struct px_buf *out, const struct px_simt_result *r);

#endif
