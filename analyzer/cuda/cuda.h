/* cuda.h: the CUDA C front end: what ptxray reads from a .cu/.cuh file
 * without a compiler, the source-level findings, and the nvcc bridge.
 *
 * Flow (DESIGN.md "How data flows"):
 *   px_cuda_parse      text -> px_cuda_file: kernels and device functions,
 *                      __launch_bounds__/__maxnreg__, __shared__ sizes
 *                      (constant folded), launch sites and their folded
 *                      configurations, cudaFuncSetAttribute opt-ins, and the
 *                      annotations (launch/hot/assume/ptxray-ignore[-file]);
 *                      regions tree-sitter marks ERROR/MISSING are listed in
 *                      `skipped` and never analysed (a note says so);
 *   px_cuda_check      px_cuda_file (+ registers from PTX when known) ->
 *                      px_cuda_results: findings with rule ids (the rule ids
 *                      are the table px_cuda_rules()) and the source-level
 *                      memory accesses, evaluated with the PTX analyses' own
 *                      affine forms and warp cost model (analysis.h);
 *   px_cuda_compile    the nvcc bridge (cuda_nvcc.c): nvcc -ptx -lineinfo
 *                      per target with the file's compile_commands.json
 *                      flags, cached by a hash of everything that matters;
 *   px_cuda_report     `ptxray report FILE.cu`: the source analyses, plus
 *                      the PTX report of the compiled file when nvcc runs.
 *
 * Ownership: a px_cuda_file owns one arena (every string and array below
 * lives in it, the text included) and is freed by px_cuda_file_delete.
 * px_cuda_results owns its findings (px_cuda_results_free). Nothing here
 * prints, exits or keeps global state. Lines and columns are 1-based. */
#ifndef PX_CUDA_H
#define PX_CUDA_H

#include "util.h"

struct px_archset;

/* ---- the nvcc bridge (cuda_nvcc.c) ---- */
struct px_cuda_nvcc {
	const char *nvcc;             /* the nvcc to run (px_cuda_find_nvcc) */
	const char *build_dir;        /* -p: folder of compile_commands.json, or NULL */
	const char *cache_dir;        /* where PTX is cached (px_cuda_cache_dir) */
	const char *const *flags;     /* extra flags for every file; nflags entries */
	size_t nflags;
	unsigned timeout_s;           /* per compilation; 0: 300 s */
};

/* The flags kept from a compile_commands.json entry: -I (absolute),
 * -isystem, -D, -U, -std; the targets of -arch/-gencode (sm_XX) apart. */
struct px_cuda_flags {
	char **flags; size_t nflags;
	char **archs; size_t narchs;
};

/* nvcc: given (when not NULL: that file, NULL if not executable), else
 * $CUDA_HOME/bin/nvcc, else the first nvcc on $PATH; xmalloc'd or NULL. */
char *px_cuda_find_nvcc(const char *given);
/* The cache folder: $XDG_CACHE_HOME/ptxray, else .ptxray-cache; xmalloc'd. */
char *px_cuda_cache_dir(void);
/* Fills out (caller frees with px_cuda_flags_free) from build_dir's
 * compile_commands.json entry for file (nothing when no entry names it).
 * False, with a located error in diags, when the database cannot be read
 * or is not valid JSON. _parse does the same on text read from dbpath. */
bool px_cuda_compile_db_flags(const char *build_dir, const char *file, struct px_cuda_flags *out,
                              struct px_diags *diags);
bool px_cuda_compile_db_parse(const char *dbpath, const char *text, size_t len, const char *file,
                              struct px_cuda_flags *out, struct px_diags *diags);
void px_cuda_flags_free(struct px_cuda_flags *f);
/* Compiles path (whose text is text, len bytes) to PTX for arch with
 * `nvcc -ptx -lineinfo -arch=ARCH FLAGS`, or finds it in the cache (the
 * key hashes nvcc, arch, flags, the text and its #include "..." files;
 * *cached says which). Returns the PTX file's path (xmalloc'd) or NULL
 * with nvcc's own messages in diags. */
char *px_cuda_compile(const struct px_cuda_nvcc *b, const char *path, const char *text, size_t len,
                      const char *arch, const struct px_cuda_flags *fl, bool *cached, struct px_diags *diags);

/* ---- options ---- */
struct px_cuda_options {
	const char *const *defines;   /* -D NAME[=VALUE] (without the -D); ndefines entries */
	size_t ndefines;
	const char *const *archs;     /* targets for launch feasibility ("sm_90"); NULL: sm_90 */
	size_t narchs;
	const struct px_archset *archset;  /* the arch tables; NULL: no feasibility checks */
	const struct px_cuda_nvcc *nvcc;   /* the bridge (report); NULL: source analyses only */
	const uint32_t *block;        /* --block for the PTX report (3 values) or NULL */
};

/* ---- what the parse finds ---- */
enum px_cuda_func_kind { PX_CUDA_KERNEL, PX_CUDA_DEVICE, PX_CUDA_HOST };

/* A configuration value: known (folded to a constant) or not. */
struct px_cuda_dim3 {
	bool known;
	uint32_t v[3];
};

struct px_cuda_func {
	const char *name;             /* identifier as written (no template args) */
	uint32_t line, column, end_line;
	uint32_t start_byte, end_byte;  /* the whole definition (bytes) */
	uint32_t body_start, body_end;  /* byte offsets of the body's braces; 0 when declaration only */
	enum px_cuda_func_kind kind;
	bool is_template;
	bool has_body;
	bool clean;                   /* no ERROR/MISSING node inside: analysed */
	/* __launch_bounds__(max_threads[, min_blocks[, max_blocks_cluster]]) */
	bool has_launch_bounds, launch_bounds_known;
	uint32_t max_threads, min_blocks, max_blocks_cluster;
	uint32_t maxnreg;             /* __maxnreg__(N); 0 none */
	/* static __shared__ declared inside (bytes; known false when a size did not fold) */
	uint64_t shared_static_bytes;
	bool shared_static_known;
	bool shared_dynamic;          /* uses an extern __shared__ array */
	/* parameters, in order (names only; type text in param_types) */
	const char **params, **param_types;
	uint32_t nparams;
	/* `// ptxray: launch ...` on or above the function */
	bool have_launch;
	struct px_cuda_dim3 ann_block, ann_grid;
	bool ann_smem_known;
	uint64_t ann_smem;
};

struct px_cuda_shared {
	const char *name;
	uint32_t line, column;
	int32_t func;                 /* index in funcs, -1 at file scope */
	bool is_extern;               /* extern __shared__ T x[] (dynamic) */
	bool size_known;
	uint64_t bytes;               /* total, when size_known */
	uint32_t elem_bytes;          /* element size, 0 unknown */
	uint32_t ndims;
	uint64_t dims[4];             /* extents (0 unknown) */
};

enum px_cuda_launch_via { PX_CUDA_VIA_CHEVRONS, PX_CUDA_VIA_LAUNCH_KERNEL, PX_CUDA_VIA_LAUNCH_KERNEL_EX };

struct px_cuda_launch {
	uint32_t line, column;
	const char *kernel;           /* the callee as written (template args dropped) */
	int32_t func;                 /* index in funcs, -1 when not defined in this file */
	enum px_cuda_launch_via via;
	struct px_cuda_dim3 grid, block;
	bool smem_given, smem_known;
	uint64_t smem;
	const char *block_text, *grid_text;  /* the expressions as written */
};

struct px_cuda_optin {              /* cudaFuncSetAttribute(k, ...MaxDynamicSharedMemorySize, n) */
	uint32_t line, column;
	const char *kernel;
	bool known;
	uint64_t bytes;
};

/* `// ptxray-ignore: a, b — reason` (applies to `line`: its own line when
 * the comment follows code, else the next line with code) and
 * `// ptxray-ignore-file: a` (file_wide). */
struct px_cuda_suppression {
	uint32_t line;                /* the line whose findings it suppresses (0 for file-wide) */
	uint32_t comment_line, comment_column;
	bool file_wide;
	const char **rules;
	uint32_t nrules;
	const char *reason;           /* NULL when none was given */
};

/* `// ptxray: assume EXPR` with EXPR one of: NAME % K == 0, NAME >= K,
 * NAME <= K, NAME == K (NAME an identifier or blockDim.x/y/z, gridDim.*). */
enum px_cuda_assume_op { PX_ASSUME_MOD_ZERO, PX_ASSUME_GE, PX_ASSUME_LE, PX_ASSUME_EQ };
struct px_cuda_assume {
	uint32_t line, column;
	int32_t func;                 /* the function it sits in or above; -1 file */
	const char *name;
	enum px_cuda_assume_op op;
	int64_t k;
};

struct px_cuda_hot {                /* `// ptxray: hot` above a loop */
	uint32_t line;                /* the comment's line */
	uint32_t loop_line;           /* the loop's first line; 0 when no loop follows */
	uint32_t loop_end_line;       /* its last line (the body's closing brace, or the end of
	                               * its single statement) */
	int32_t func;
};

struct px_cuda_skip {               /* a region tree-sitter could not parse */
	uint32_t line, column, end_line;
	bool missing;                 /* a MISSING node (else ERROR) */
};

struct px_cuda_file {
	const char *path;
	const char *text;             /* the original text (arena copy, NUL-terminated) */
	size_t len;
	struct px_arena *arena;
	struct px_cuda_func *funcs; uint32_t nfuncs, capfuncs;
	struct px_cuda_shared *shared; uint32_t nshared, capshared;
	struct px_cuda_launch *launches; uint32_t nlaunches, caplaunches;
	struct px_cuda_optin *optins; uint32_t noptins, capoptins;
	struct px_cuda_suppression *supp; uint32_t nsupp, capsupp;
	struct px_cuda_assume *assumes; uint32_t nassumes, capassumes;
	struct px_cuda_hot *hot; uint32_t nhot, caphot;
	struct px_cuda_skip *skipped; uint32_t nskipped, capskipped;
	uint32_t nkernels, nkernels_clean;  /* robustness: kernels, kernels with no ERROR/MISSING */
	void *priv;                   /* front-end state kept for px_cuda_check (tree, macros) */
};

/* Parses text (len bytes, copied) read from path. Never fails on C++ it
 * cannot read (those regions are skipped, noted in diags); returns NULL
 * only when the grammar cannot be loaded (an error in diags). Malformed
 * annotations are appended to diags as `bad-annotation` findings. The
 * caller frees the result with px_cuda_file_delete. */
struct px_cuda_file *px_cuda_parse(const char *path, const char *text, size_t len,
                                   const struct px_cuda_options *opt, struct px_diags *diags);
void px_cuda_file_delete(struct px_cuda_file *f);
/* The kernel named name (template args ignored), or -1. */
int32_t px_cuda_find_func(const struct px_cuda_file *f, const char *name, size_t n);
/* The launch block the source fixes for kernel func (an index in funcs):
 * its `// ptxray: launch` annotation ("annotation"), else its launch sites
 * when every one has the same folded block ("launch site"); unset
 * dimensions are 1. NULL when neither says. */
const char *px_cuda_kernel_block(const struct px_cuda_file *f, uint32_t func, uint32_t block[3]);

/* ---- source-level findings ---- */

/* The rule ids of this front end, sorted by id (the lint registry wires
 * them as rules; `ptxray rules` documents them). */
struct px_cuda_rule {
	const char *id;
	enum px_severity severity;    /* default severity */
	const char *summary;
};
const struct px_cuda_rule *px_cuda_rules(size_t *n);

struct px_cuda_finding {
	const char *rule;             /* static (px_cuda_rules) */
	enum px_severity severity;
	uint32_t line, column;
	char *message;                /* owned */
	const char *kernel;           /* the kernel concerned (file arena) or NULL */
	const char *arch;             /* the target (launch-infeasible) or NULL */
};

/* A source-level memory access: an index expression into a global or
 * shared array, evaluated like a PTX address (analysis.h). */
struct px_cuda_access {
	uint32_t line, column;
	int32_t func;
	bool shared;                  /* else global */
	bool is_store;
	uint32_t bytes;               /* element size */
	bool affine;                  /* the index folded to an affine form */
	double sectors, ideal_sectors;        /* global; < 0 unknown */
	double wavefronts, ideal_wavefronts;  /* shared; < 0 unknown */
	const char *array;            /* file arena */
};

/* Registers per thread for kernel `kernel` (demangled base name) on arch
 * (from the PTX or ptxas); 0 when unknown. */
struct px_cuda_regs {
	const char *kernel, *arch;
	uint32_t registers;
	bool from_ptxas;
};

struct px_cuda_results {
	struct px_cuda_finding *items;
	size_t n, cap;
	struct px_cuda_access *acc;
	size_t nacc, capacc;
};

/* Runs the source analyses over f's clean regions (regs may be NULL).
 * Appends findings (sorted by line, column, rule) to res. */
void px_cuda_check(const struct px_cuda_file *f, const struct px_cuda_options *opt,
                   const struct px_cuda_regs *regs, size_t nregs, struct px_cuda_results *res);
/* Appends res's findings to diags (file = f->path, with rule ids). */
void px_cuda_results_to_diags(const struct px_cuda_file *f, const struct px_cuda_results *res,
                              struct px_diags *diags);
void px_cuda_results_free(struct px_cuda_results *res);

/* The source-level name of a PTX kernel (cuda_report.c): the demangled
 * name's last identifier before its parameters and template arguments, or
 * the PTX name (extern "C"); at most cap - 1 bytes. */
struct px_kernel_report;
void px_cuda_kernel_base_name(const struct px_kernel_report *k, char *out, size_t cap);

/* ---- report (cuda_report.c) ----
 * `ptxray report FILE.cu`: the "ptxray-report/1" document with "kind":
 * "cuda" per file. With opt->nvcc (and its nvcc) each file is compiled
 * per target and the PTX report fills registers, local/param bytes,
 * accesses and branches (the source's own accesses: "source_accesses");
 * without, those are null and a note says so once. Findings and parse
 * notes go to diags. Returns false when a file cannot be read or its
 * compile_commands.json is invalid. */
struct px_buf;
bool px_cuda_report(const char *const *paths, size_t n, const struct px_cuda_options *opt, bool json,
                    struct px_buf *out, struct px_diags *diags);

#endif
