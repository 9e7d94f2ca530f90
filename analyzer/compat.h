/* compat.h: `ptxray compat`: which kernels of a PTX module run on which
 * targets, which PTX ISA version they need, and why not.
 *
 * compat.c walks a parsed module, maps every instruction, special register,
 * directive and .target option to the feature table (arch/ftable.h), and
 * judges each kernel (with the functions it calls) on each requested target;
 * compat_render.c writes the text and the JSON of INTERFACES.md. The lint
 * rules arch-feature-unavailable and ptx-isa-too-old use the same uses and
 * verdicts (px_compat_file). */
#ifndef PX_COMPAT_H
#define PX_COMPAT_H

#include "ftable.h"
#include "ir.h"

struct px_compat_options {
	const uint32_t *targets;   /* feature-table target indices to judge, in output order */
	uint32_t ntargets;
	bool any_version;          /* judge at the newest PTX version, not the file's own */
	bool text_mapped;          /* px_compat_file's text is a px_map_file mapping (the parse
	                            * gives its pages back as it moves on) */
	bool text_borrowed;        /* the text stays the caller's (it must outlive the result,
	                            * which points into it): lint judges the report's text */
};

/* One use of a feature in the PTX. */
struct px_compat_use {
	uint32_t feature;          /* index into the table's features */
	uint32_t line, col;
	char *text;                /* "cp.async.ca.shared.global", "%clusterid", ".maxnreg" (arena) */
};

/* A kernel's verdict on one target. */
struct px_compat_verdict {
	uint32_t target;
	bool ok;
	const struct px_compat_use *use;  /* the first offending use; NULL when ok or for a
	                                   * file-level reason (version too old for the target) */
	char *requires;            /* "sm_80", "sm_90a", "PTX ISA 8.0"; NULL when ok (arena) */
	char *message;             /* one line, with the fix hint; NULL when ok (arena) */
	uint32_t ptx_line;         /* CUDA sources: the line in the PTX nvcc wrote (use->line is
	                            * then the .cu line of its .loc, 0 when none); else 0 */
};

struct px_compat_kernel {
	px_str name;
	uint32_t line;
	int32_t min_target;        /* -1: no target of the table runs it */
	uint32_t min_ptx;          /* at min_target; 0 when none */
	struct px_compat_verdict *verdicts;   /* one per requested target */
	struct px_compat_use *uses; uint32_t nuses;   /* its own, its callees' and the module's:
	                                               * the first use of each feature, by position
	                                               * (every verdict and minimum is decided by
	                                               * those) */
};

struct px_compat_file {
	const char *path;
	struct px_module *module;  /* owned */
	px_str declared;           /* the .target sm_ word as written */
	int32_t declared_target;   /* -1: absent or unknown */
	uint32_t ptx_version;      /* .version; 0 = absent */
	uint32_t version_line;
	int32_t min_target;        /* for every kernel at once; -1 none */
	uint32_t min_ptx;
	bool consistent;
	char *reason;              /* why not consistent; NULL when consistent (arena) */
	struct px_compat_kernel *kernels; uint32_t nkernels;
	bool any_fails;            /* some requested target cannot run some kernel */
	struct px_arena *arena;
	bool text_borrowed;        /* the module's text is the caller's (px_compat_options) */
	struct px_compat_cuda *cuda;  /* a CUDA source judged through the nvcc bridge; else NULL */
};

/* ---- CUDA sources (compat_cuda.c) ----
 * A .cu file is compiled to PTX once per requested target (px_cuda_compile,
 * cached), each PTX is judged on its own target only, and the results are
 * merged: one kernel entry per kernel name, verdict t from the PTX compiled
 * for target t, lines moved to the .cu through the PTX's .loc. A kernel's
 * min_target is the lowest over the compiled variants. The preprocessor
 * branches whose conditions name __CUDA_ARCH__ (or __CUDA_ARCH_SPECIFIC__,
 * __CUDA_ARCH_FAMILY_SPECIFIC__, __CUDA_ARCH_FEAT_SM*) are evaluated for each
 * target: taken, not taken, or unknown (another macro decides). */
struct px_cuda_nvcc;
struct px_compat_cuda_branch {
	uint32_t line;
	char *directive;           /* "#if __CUDA_ARCH__ >= 800" as written (owned) */
	int8_t taken;              /* 1 taken, 0 not, -1 unknown */
};
struct px_compat_cuda_target {
	char *ptx;                 /* the PTX file; NULL when nvcc failed (owned) */
	bool cached;
	struct px_compat_file res; /* that PTX judged on this target alone */
	struct px_compat_cuda_branch *branches; uint32_t nbranches;
};
struct px_compat_cuda {
	struct px_compat_cuda_target *targets;   /* one per requested target */
	uint32_t ntargets, compiled, cached, failed;
};
/* Judges the CUDA source at path (text, len bytes; not kept) through the
 * bridge b. False only when -p's compile_commands.json cannot be read; an
 * nvcc failure for a target leaves that target's verdicts not ok with the
 * compiler's messages in diags. out is filled either way. */
bool px_compat_cuda(const char *path, const char *text, size_t len, const struct px_cuda_nvcc *b,
                    const struct px_ftable *tab, const struct px_compat_options *opt,
                    struct px_compat_file *out, struct px_diags *diags);
/* The __CUDA_ARCH__ branches of text for target name ("sm_90a"); caller
 * frees with px_compat_cuda_branches_free. */
struct px_compat_cuda_branch *px_compat_cuda_branches(const char *text, size_t len, const char *target,
                                                      uint32_t *n);
void px_compat_cuda_branches_free(struct px_compat_cuda_branch *b, uint32_t n);

/* Parses text (owned by the module from now on, as px_ptx_parse, unless
 * opt->text_borrowed; a px_map_file mapping with opt->text_mapped) and
 * judges it, one body at a time (each is summarised and dropped as soon as
 * it is parsed: memory holds the uses that decide the verdicts, not the
 * bodies). Returns false with located diagnostics when the PTX does not
 * parse; fills *out either way (free it with px_compat_file_free). */
bool px_compat_file(const char *path, char *text, size_t len, const struct px_ftable *tab,
                    const struct px_compat_options *opt, struct px_compat_file *out,
                    struct px_diags *diags);
void px_compat_file_free(struct px_compat_file *f);

/* ---- compat_render.c ---- */
void px_compat_text(struct px_buf *out, const struct px_ftable *tab,
                    const struct px_compat_options *opt, const struct px_compat_file *files,
                    size_t n);
void px_compat_json(struct px_buf *out, const struct px_ftable *tab,
                    const struct px_compat_options *opt, const struct px_compat_file *files,
                    size_t n);
/* The table itself (`ptxray compat --list-features`), as text or JSON. */
void px_ftable_text(struct px_buf *out, const struct px_ftable *tab);
void px_ftable_json(struct px_buf *out, const struct px_ftable *tab);

#endif
