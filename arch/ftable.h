/* ftable.h: the PTX feature table (arch/ptx-features.yaml) as plain data,
 * and the matcher that maps parsed PTX to its entries.
 *
 * Architecture facts live only in the YAML (DESIGN.md convention 7): which
 * target and which PTX ISA version each instruction variant, special
 * register, directive and .target option needs; the targets with their
 * families and the PTX version that introduced each; the PTX ISA versions
 * with the CUDA release that introduced each. The table is embedded at build
 * time (arch/embed.py writes build/gen/feature_table.c) and loaded by
 * ftable.c with the same located validation as a user's --table file.
 *
 * PTX versions are coded as major*10+minor (7.8 -> 78; every minor is one
 * digit). Ownership: a px_ftable owns everything it hands out
 * (px_ftable_delete frees it). */
#ifndef PX_FTABLE_H
#define PX_FTABLE_H

#include "arch.h"   /* struct px_arch_text */

struct px_buf;

/* One compilation target: sm_90, sm_90a (arch-specific), sm_100f (family). */
struct px_ft_target {
	const char *name;       /* "sm_100f" */
	uint32_t number;        /* 100 */
	char suffix;            /* 0, 'a' or 'f' */
	uint32_t family;        /* the family's first number (sm_103 -> 100); 0 = none */
	uint32_t ptx;           /* PTX version that introduced it */
	bool ptxas;             /* ptxas 13.0 compiles for it (else: ISA document only) */
	const char *section;
};

/* One PTX ISA version. */
struct px_ft_version {
	uint32_t ptx;           /* 78 */
	const char *cuda;       /* the CUDA release that introduced it: "11.8" */
	const char *newest;     /* the newest target it knows ("sm_13": may precede the table) */
	const char *section;
};

/* Where an entry is available: from a generic target on (every later target,
 * any suffix), on one arch-specific target only, or on a family's targets. */
enum px_ft_alt_kind { PX_FT_FROM, PX_FT_EXACT, PX_FT_FAMILY };
struct px_ft_alt {
	uint32_t target;        /* index into the targets */
	uint8_t kind;           /* enum px_ft_alt_kind */
	uint32_t ptx;           /* PTX version it needs there */
};

enum px_ft_kind {
	PX_FT_INSN,       /* match: opcode.tok.tok ("cp.async.bulk.tensor") */
	PX_FT_SREG,       /* match: %name */
	PX_FT_DIRECTIVE,  /* match: .name (kernel/function/module directive) */
	PX_FT_TARGETOPT,  /* match: target:option (texmode_independent, debug, ...) */
};

struct px_feature {
	const char *id;           /* unique; the match text unless given */
	uint8_t kind;             /* enum px_ft_kind */
	const char *match;        /* as written */
	const char *opcode;       /* INSN: opcode spelling; SREG/DIRECTIVE/TARGETOPT: the name */
	const char **tokens;      /* INSN: modifier tokens that must all be present; a token
	                           * "a|b" is any of them, "!a" means absent */
	uint32_t ntokens;
	struct px_ft_alt *alts;
	uint32_t nalts;
	uint32_t ptx;             /* the least PTX version over the alternatives */
	uint32_t removed_target;  /* generic target index + 1 from which it is gone; 0 = never */
	uint32_t removed_ptx;     /* ... at PTX versions >= this */
	const char *section;      /* PTX ISA section */
	const char *hint;         /* fix hint, or NULL */
	const char *probe;        /* for the probe generator: body PTX, or NULL */
	const char *decl;         /* module-scope declarations the probe needs, or NULL */
	const char *kdir;         /* kernel directives the probe needs, or NULL */
	const char *topt;         /* .target options the probe needs, or NULL */
	uint32_t line;            /* in the table */
};

struct px_ftable {
	struct px_arena *arena;
	const char *path;
	struct px_ft_target *targets;   /* sorted: number, then '', 'f', 'a' */
	uint32_t ntargets;
	struct px_ft_version *versions; /* ascending */
	uint32_t nversions;
	struct px_feature *features;    /* sorted by (kind, opcode, id) */
	uint32_t nfeatures;
};

/* The embedded table (build/gen/feature_table.c, from arch/embed.py). */
extern const struct px_arch_text px_features_builtin[];
extern const size_t px_features_builtin_count;

/* Parses and validates a table. Returns a new table, or NULL with located
 * `path:line:col: error:` diagnostics. The caller frees it with
 * px_ftable_delete. */
struct px_ftable *px_ftable_parse(const char *path, const char *text, size_t len,
                                  struct px_diags *diags);
/* The embedded table; NULL (errors in diags) only if it is invalid. */
struct px_ftable *px_ftable_builtin(struct px_diags *diags);
void px_ftable_delete(struct px_ftable *t);

/* Finds a target by name ("sm_90a", "compute_90a"); -1 if unknown. */
int32_t px_ftable_find_target(const struct px_ftable *t, const char *name, size_t n);
/* Finds a PTX version (78); -1 if unknown. */
int32_t px_ftable_find_version(const struct px_ftable *t, uint32_t ptx);
/* The newest PTX version of the table. */
uint32_t px_ftable_newest_version(const struct px_ftable *t);

/* The PTX version feature f needs on target t (the target's own version
 * included), or 0 when f is not available on t at any version. */
uint32_t px_feature_ptx_on(const struct px_ftable *tab, const struct px_feature *f, uint32_t t);
/* Whether f is usable on target t at PTX version v. */
bool px_feature_ok(const struct px_ftable *tab, const struct px_feature *f, uint32_t t, uint32_t v);
/* Describes where f is available ("sm_80", "sm_90a", "sm_100f or sm_120a")
 * into buf (NUL-terminated, truncated to n). */
void px_feature_requires(const struct px_ftable *tab, const struct px_feature *f, char *buf,
                         size_t n);

/* ---- matching ---- */
/* Fills out (up to max) with the indices of the entries an instruction
 * (opcode spelling + modifiers as written) matches, keeping only the most
 * specific along each chain: an entry is dropped when another match's tokens
 * include all of its tokens. Returns the count kept (may exceed max). */
uint32_t px_ftable_match_insn(const struct px_ftable *t, px_str opname, px_str modtext,
                              uint32_t *out, uint32_t max);
/* The entry for a special register, directive or target option name
 * ("%clusterid", ".reqnctapercluster", "texmode_independent"); -1 if none. */
int32_t px_ftable_find_named(const struct px_ftable *t, enum px_ft_kind kind, const char *name,
                             size_t n);

/* "7.8" for 78 into buf (at least 8 bytes). */
const char *px_ptx_version_str(uint32_t v, char buf[8]);

#endif
