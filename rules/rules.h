/* rules.h: the lint rule catalogue, the findings rules produce, the
 * suppression list, the configuration (.ptxray.yaml) and `ptxray lint`'s
 * library side (everything but printing, which main.c does).
 *
 * One explicit table, sorted by id, holds every rule (registry.c): its
 * category, default severity, whether it is on by default, its summary and
 * documentation, its threshold, and the function that checks it (NULL for a
 * rule another analysis provides: the compatibility checks, the CUDA front
 * end). `ptxray rules`, `ptxray rules ID`, ptxray-rules(7), SARIF rule
 * metadata and the docs test all read that table.
 *
 * Rules read analysis results (struct px_kernel_report and the px_results it
 * points to); they never recompute an analysis.
 *
 * Ownership: a px_lint_result owns its findings (px_lint_result_free); a
 * px_config is owned by its px_config_set (px_config_set_delete). Nothing
 * here prints, exits or keeps global state. */
#ifndef PX_RULES_H
#define PX_RULES_H

#include "report.h"

struct px_ftable;
struct px_simt_result;

/* ---- the catalogue ---- */
enum px_rule_category { PX_CAT_CORRECTNESS, PX_CAT_PERFORMANCE, PX_CAT_PORTABILITY, PX_CAT_STYLE };
const char *px_rule_category_name(enum px_rule_category c);

struct px_rule_ctx;
struct px_rule {
	const char *id;            /* kebab-case */
	enum px_rule_category category;
	enum px_severity severity; /* default */
	bool on;                   /* on by default */
	const char *summary;       /* one line */
	const char *provider;      /* NULL: implemented here on PTX; else the analysis that
	                            * provides it ("compat", "CUDA front end") */
	/* the threshold, if the rule has one: its config key, default, meaning */
	const char *threshold_key;
	double threshold;
	const char *threshold_doc;
	/* documentation */
	const char *message;       /* an example of the message it prints */
	const char *description;
	const char *why;
	const char *fix;
	const char *before, *after;  /* CUDA C, lines separated by \n */
	void (*check)(struct px_rule_ctx *c, const struct px_rule *r);
	bool per_arch;             /* its verdict depends on the target (findings name it) */
};
/* The table, sorted by id. */
const struct px_rule *px_rules(size_t *n);
const struct px_rule *px_rule_find(const char *id);

/* ---- findings ---- */
struct px_finding {
	const char *rule;          /* static (the table) */
	enum px_severity severity;
	char *file;                /* owned */
	uint32_t line, column;
	char *message;             /* owned */
	char *kernel;              /* demangled without parameters, owned, or NULL */
	char *arch;                /* owned or NULL */
	uint32_t fingerprint;      /* hash of the line's text, whitespace removed */
};
struct px_lint_result {
	struct px_finding *items;
	size_t n, cap;
	size_t suppressed, baselined;
};
void px_lint_result_free(struct px_lint_result *r);
/* Sorts by (file, line, column, rule, message, arch). */
void px_lint_result_sort(struct px_lint_result *r);

/* ---- suppressions ----
 * `// ptxray-ignore: rule-a, rule-b — reason` in a PTX comment, or a CUDA
 * annotation (the CUDA front end fills the same list from its
 * px_cuda_suppression). A suppression applies to `line` (0 with file_wide:
 * the whole file). A suppression without a reason is itself reported
 * (bad-annotation) and still applies. */
struct px_suppression {
	uint32_t line;             /* the line whose findings it suppresses; 0 when file_wide */
	uint32_t comment_line, comment_column;
	bool file_wide;
	char **rules; uint32_t nrules;   /* owned; "all" matches every rule */
	char *reason;              /* owned; NULL when none */
	bool used;
};
struct px_suppressions {
	struct px_suppression *items;
	size_t n, cap;
};
/* Scans PTX (or any //-commented text) for `ptxray-ignore: RULE[, RULE] — reason`
 * and `ptxray-ignore-file: ...` comments. A comment after code applies to
 * its own line, a comment alone on its line to the next line holding code.
 * The reason follows a dash (—, –, -- or -); lint reports a missing reason
 * or an unknown rule as bad-annotation. */
void px_suppressions_scan(struct px_suppressions *s, const char *text, size_t len);
/* Appends one (the CUDA front end's hook); copies the strings. */
void px_suppressions_add(struct px_suppressions *s, uint32_t line, uint32_t comment_line,
                         uint32_t comment_column, bool file_wide, const char *const *rules,
                         uint32_t nrules, const char *reason);
bool px_suppressions_match(struct px_suppressions *s, const char *rule, uint32_t line);
void px_suppressions_free(struct px_suppressions *s);

/* ---- configuration (config.c) ---- */
enum px_rule_state { PX_RULE_DEFAULT, PX_RULE_OFF, PX_RULE_ON };
struct px_rule_setting {
	enum px_rule_state state;
	bool have_severity;
	enum px_severity severity;
	bool have_threshold;
	double threshold;
};
/* One override: its glob and its rule settings (indexed like px_rules). */
struct px_config_override {
	char *glob;
	uint32_t line;
	struct px_rule_setting *rules;
	char **archs; uint32_t narchs;    /* NULL: not overridden */
};
struct px_config {
	char *path;                  /* the .ptxray.yaml, NULL for the defaults */
	char *dir;                   /* its folder (globs are relative to it) */
	char **archs; uint32_t narchs;   /* targets; none: each file's .target */
	uint32_t block[3];           /* default launch block; 0 = none */
	uint32_t grid[3];
	uint32_t dynamic_shared;     /* default dynamic shared bytes per block */
	bool optin;                  /* the host opts kernels into the large shared limit */
	enum px_severity fail_on;
	bool have_fail_on;
	struct px_rule_setting *rules;   /* per rule of px_rules */
	struct px_config_override *overrides; uint32_t noverrides;
	char **ignore; uint32_t nignore; /* globs */
	char *nvcc;                  /* nvcc path; NULL default */
	char **nvcc_flags; uint32_t nnvcc_flags;
	char *compile_commands;      /* folder holding compile_commands.json */
};
/* Parses a .ptxray.yaml. Returns NULL with located errors in diags. */
struct px_config *px_config_parse(const char *path, const char *text, size_t len,
                                  struct px_diags *diags);
/* The defaults (no file). */
struct px_config *px_config_default(void);
void px_config_delete(struct px_config *c);
/* The effective settings for file path under c: the overrides whose glob
 * matches (relative to c->dir), in order, over the top level. */
struct px_effective {
	const struct px_config *config;
	const char *const *archs; uint32_t narchs;
	struct px_rule_setting *rules;   /* resolved: state ON/OFF, severity, threshold (owned) */
	bool ignored;                    /* matched an ignore glob */
};
void px_config_effective(const struct px_config *c, const char *path, struct px_effective *e);
void px_effective_free(struct px_effective *e);
/* Writes the effective configuration for a file as YAML (--show-config). */
void px_effective_show(struct px_buf *out, const struct px_effective *e, const char *file);
/* The configuration keys, sorted (for the man page check). */
size_t px_config_key_count(void);
const char *px_config_key(size_t i, const char **doc);
/* fnmatch-like glob with **: does glob match path (both relative)? */
bool px_glob_match(const char *glob, const char *path);

/* A cache of configurations by folder: each file's .ptxray.yaml is the
 * nearest one in its folder or above. */
struct px_config_set;
struct px_config_set *px_config_set_new(void);
void px_config_set_delete(struct px_config_set *s);
/* The configuration for path (explicit: --config FILE overrides the search).
 * NULL on a parse error (in diags). */
const struct px_config *px_config_for(struct px_config_set *s, const char *path,
                                      const char *explicit_path, struct px_diags *diags);

/* ---- lint (lint.c) ---- */
struct px_cuda_nvcc;
struct px_lint_options {
	const struct px_archset *archset;
	const char *const *archs; uint32_t narchs;   /* --arch: overrides the config */
	const char *config;          /* --config FILE or NULL (search upward) */
	const struct px_param_value *params; uint32_t nparams;
	const char *ptxas;
	uint32_t block[3];           /* --block: overrides the config's default */
	const char *const *only; uint32_t nonly;   /* --only: just these rules */
	const struct px_ftable *ftable;  /* the PTX feature table (compat rules); NULL: skipped */
	bool no_compile;             /* --no-compile: CUDA files get the source analyses only */
	const struct px_cuda_nvcc *nvcc;  /* the nvcc bridge for CUDA files (nvcc found); NULL: none */
	struct px_pool *pool;        /* -j: as px_report_options.pool; NULL: one function at a time */
	const struct px_task *task;  /* the pool task the caller runs in, or NULL */
};
/* The context a rule's check gets. */
struct px_rule_ctx {
	const struct px_lint_options *opt;
	const struct px_effective *eff;
	const struct px_file_report *file;
	const struct px_kernel_report *k;
	const struct px_arch *arch;      /* the target being checked; NULL if no table */
	const char *text; size_t len;    /* the file's text (for columns and fingerprints) */
	struct px_lint_result *out;
	bool first;                      /* the first target: target-independent rules run */
	/* the kernel at its launch block on arch (the occupancy engine's answer) */
	bool have_occ;
	struct px_occ_query q;
	struct px_occ_result occ;
	struct px_occ_advice adv;
	const char *reg_from;            /* "ptxas" or "estimate" */
	bool optin;                      /* the configuration says the kernel opts in */
	const struct px_suppressions *supp;
	/* the SIMT verifier's run of this kernel (lint_simt.c); NULL when not simulated */
	const struct px_simt_result *sim;
};
/* Adds a finding for rule r at line (column found from the text when 0). */
void px_rule_report(struct px_rule_ctx *c, const struct px_rule *r, uint32_t line, uint32_t column,
                    const char *fmt, ...) PX_PRINTF(5, 6);
/* The rule's threshold as configured. */
double px_rule_threshold(const struct px_rule_ctx *c, const struct px_rule *r);

/* Lints one file: reads and analyses it, runs the enabled rules for each
 * target, applies suppressions. Returns false when the file could not be
 * read or is invalid (errors in diags); findings go to out. cfg is the
 * file's configuration. */
bool px_lint_file(const char *path, const struct px_config *cfg, const struct px_lint_options *opt,
                  struct px_lint_result *out, struct px_diags *diags);

/* Baselines: one finding per line "rule<TAB>file<TAB>kernel<TAB>fingerprint",
 * sorted (`ptxray-baseline/1` header). */
void px_baseline_write(struct px_buf *out, const struct px_lint_result *r);
struct px_baseline;
struct px_baseline *px_baseline_parse(const char *path, const char *text, size_t len,
                                      struct px_diags *diags);
void px_baseline_delete(struct px_baseline *b);
/* Removes the findings the baseline holds (each entry absorbs one finding). */
void px_baseline_filter(struct px_baseline *b, struct px_lint_result *r);

/* Renderers (output.c). */
void px_lint_json(struct px_buf *out, const struct px_lint_result *r);
void px_lint_sarif(struct px_buf *out, const struct px_lint_result *r, const char *version);
void px_lint_github(struct px_buf *out, const struct px_lint_result *r);
/* `ptxray rules`: the catalogue; one rule's documentation; the man page. */
void px_rules_list(struct px_buf *out);
void px_rule_doc(struct px_buf *out, const struct px_rule *r);
void px_rules_man(struct px_buf *out, const char *date, const char *version);

#endif
