/* report.h: what `ptxray report` knows about each kernel, as plain data.
 *
 * report.c fills it from a parsed module whose pipeline has run
 * (resources.c does the layouts); report_json.c and report_text.c render it.
 * Every number is either exact against an oracle (shared_static_bytes and
 * param_bytes against ptxas, registers.ptxas from ptxas itself) or marked as
 * an estimate (registers.estimate, whose measured error is in ptxray-report(1)).
 * Knowledge the tool does not have yet is "absent" (rendered as JSON null). */
#ifndef PX_REPORT_H
#define PX_REPORT_H

#include "occupancy.h"
#include "analysis.h"  /* enum px_launch_from, struct px_launch, the analyses' results */
#include "pool.h"

struct px_report_options {
	uint32_t block[3];          /* --block; 0 = not given */
	uint32_t grid[3];           /* --grid; 0 = not given */
	const char *arch;           /* --arch sm_XX or NULL (the file's .target) */
	const char *const *kernels; /* --kernel (mangled or demangled); NULL-terminated or NULL */
	const char *ptxas;          /* --ptxas: path or "ptxas"; NULL = don't run it */
	const char *dump;           /* --dump=PASS,...: pass names (validated by the caller) or NULL */
	const struct px_archset *archs;  /* arch tables for the occupancy; NULL = no occupancy */
	const struct px_param_value *params;  /* --param NAME=VALUE */
	uint32_t nparams;
	bool text_mapped;           /* px_report_file's text is a px_map_file mapping (per file;
	                             * see px_parse_hook.text_mapped) */
	/* -j: the functions are analysed on this pool's threads while the file
	 * is parsed, the results kept in file order (identical to NULL: one at
	 * a time; --dump always goes one at a time) */
	struct px_pool *pool;
	const struct px_task *task; /* the pool task the caller runs in, or NULL */
	size_t batch_bytes;         /* functions per task: until their bodies hold this
	                             * many bytes (0 = report.c's default; tests use 1) */
	unsigned skip_passes;       /* enum px_pass bits of passes whose results the caller
	                             * never reads (not run unless another pass needs them,
	                             * or --dump is given); 0 = run every pass */
};

/* Results parsed from `ptxas -v` for one kernel. */
struct px_ptxas_kernel {
	char *name;                 /* mangled */
	bool have_regs, have_frame;
	uint32_t registers;
	uint32_t stack_bytes, spill_store_bytes, spill_load_bytes;
	uint32_t smem_bytes, barriers;
};
struct px_ptxas_result {
	struct px_ptxas_kernel *kernels;
	size_t n, cap;
};

/* Runs ptxas -v -arch=arch on path (argv exec, no shell) and parses its
 * report. Returns false with *err (xmalloc'd) when ptxas cannot be run or
 * rejects the file; unknown lines are ignored. Fills res (caller frees with
 * px_ptxas_result_free). */
bool px_ptxas_run(const char *ptxas, const char *path, const char *arch,
                  struct px_ptxas_result *res, char **err);
/* Parses the text ptxas -v prints (exposed for tests). */
void px_ptxas_parse(const char *text, struct px_ptxas_result *res);
void px_ptxas_result_free(struct px_ptxas_result *res);
const struct px_ptxas_kernel *px_ptxas_find(const struct px_ptxas_result *res, px_str name);

/* ---- resources.c ---- */
/* Bytes of static shared memory ptxas allocates for kernel k: every .shared
 * variable k or a function it calls (transitively) declares or references,
 * laid out as ptxas lays it out (see resources.c). Sets *dynamic when the
 * kernel reaches an unsized (extern) .shared array. Needs fill_cfg (callees). */
uint64_t px_shared_static_bytes(const struct px_module *m, uint32_t kernel, bool *dynamic);
/* Bytes of .local variables declared by k and the functions it calls. */
uint64_t px_local_bytes(const struct px_module *m, uint32_t kernel);
/* Bytes of the kernel's parameter list, each parameter at its alignment. */
uint64_t px_param_bytes(const struct px_func *f);

/* ---- one kernel ---- */
struct px_kernel_report {
	uint32_t func_index;        /* in module->funcs */
	const struct px_func *func; /* set once the parse has ended */
	uint32_t source_index;      /* .file index of the first .loc; 0 = none */
	char *demangled;            /* xmalloc'd; NULL when the name is not mangled */
	uint32_t line;
	const char *source_file;    /* from the first .loc in the body; NULL if none */
	uint32_t source_line;
	uint32_t reg_estimate;
	bool have_ptxas;
	struct px_ptxas_kernel ptxas;  /* valid when have_ptxas (name not owned) */
	uint32_t reg_cap;           /* 0 = none (.maxnreg) */
	uint64_t shared_static_bytes;
	bool shared_dynamic;
	uint64_t local_bytes, param_bytes;
	uint32_t block[3];
	enum px_launch_from block_from;
	bool spills_predicted;
	/* occupancy at the launch block (occupancy/occ_report.c); have_occ false
	 * when the target has no arch table (rendered null) */
	bool have_occ;
	const struct px_arch *occ_arch;
	struct px_occ_query occ_q;
	struct px_occ_result occ;
	struct px_occ_advice occ_adv;
	uint32_t reg_demand;        /* the register estimate before any cap (pass_live.c) */
	uint32_t spill_cap;         /* the cap the prediction used: .maxnreg, launch bounds or 255 */
	const struct px_results *res;  /* accesses, branches (module arena); NULL if none */
	const struct px_module *module;  /* for .file names of the results' source lines */
};

struct px_file_report {
	const char *path;
	struct px_module *module;   /* owned */
	struct px_kernel_report *kernels;
	size_t nkernels;
	char *ptxas_error;          /* when --ptxas failed for this file; xmalloc'd */
	struct px_buf dump;         /* --dump text, made while each body was still there */
};

/* Parses path (already read into text, which the module takes over), runs
 * the pipeline and fills rep. Returns false when the file is not valid PTX
 * (the errors are in diags). */
bool px_report_file(const char *path, char *text, size_t len,
                    const struct px_report_options *opt,
                    struct px_file_report *rep, struct px_diags *diags);
void px_file_report_free(struct px_file_report *rep);

/* Fills k's occupancy from its resources (ptxas's when known, else the
 * estimate) at its launch block, for --arch or the module's .target. */
void px_report_occupancy(const struct px_report_options *opt, const struct px_module *m,
                         struct px_kernel_report *k);

/* Renderers: append to out. */
void px_report_json(struct px_buf *out, const struct px_file_report *files, size_t n);
/* The same with the kernels rendered on pool's threads (NULL: this one);
 * the same bytes. Call it from outside any pool task. */
void px_report_json_pool(struct px_buf *out, const struct px_file_report *files, size_t n,
                         struct px_pool *pool);
void px_report_text(struct px_buf *out, const struct px_file_report *files, size_t n);
struct px_json;
/* report_access.c: the `accesses`, `branches` and `spills` members of a
 * kernel's JSON object, and the text section on non-ideal accesses and
 * divergent branches. */
void px_report_json_spills(struct px_json *j, const struct px_kernel_report *k);
void px_report_json_accesses(struct px_json *j, const struct px_kernel_report *k);
void px_report_json_branches(struct px_json *j, const struct px_kernel_report *k);
void px_report_json_loops(struct px_json *j, const struct px_kernel_report *k);
void px_report_text_accesses(struct px_buf *out, const struct px_kernel_report *k);

/* ---- json.c: a small JSON writer ---- */
struct px_json {
	struct px_buf *out;
	uint32_t depth;
	bool need_comma[64];
	bool pretty;
};
void px_json_begin_object(struct px_json *j);
void px_json_end_object(struct px_json *j);
void px_json_begin_array(struct px_json *j);
void px_json_end_array(struct px_json *j);
void px_json_key(struct px_json *j, const char *key);
void px_json_string(struct px_json *j, const char *s);
void px_json_string_n(struct px_json *j, const char *s, size_t n);
void px_json_uint(struct px_json *j, uint64_t v);
void px_json_int(struct px_json *j, int64_t v);
void px_json_double(struct px_json *j, double v);
void px_json_bool(struct px_json *j, bool v);
void px_json_null(struct px_json *j);

/* ---- demangle.c ---- */
/* Demangled C++ name, xmalloc'd; NULL when name is not a mangled name. */
char *px_demangle(px_str name);

#endif
