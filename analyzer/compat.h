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
};

struct px_compat_kernel {
	px_str name;
	uint32_t line;
	int32_t min_target;        /* -1: no target of the table runs it */
	uint32_t min_ptx;          /* at min_target; 0 when none */
	struct px_compat_verdict *verdicts;   /* one per requested target */
	struct px_compat_use *uses; uint32_t nuses;   /* its own and its callees', by line */
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
};

/* Parses text (owned by the module from now on, as px_ptx_parse) and
 * judges it. Returns false with located diagnostics when the PTX does not
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
