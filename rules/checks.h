/* checks.h: the rule check functions (check_code.c, check_kernel.c), for
 * the registry table in registry.c only. */
#ifndef PX_CHECKS_H
#define PX_CHECKS_H

#include "rules.h"

void px_check_block_size(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_divergent_barrier(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_divergent_branch(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_fp64(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_launch_bounds(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_launch_infeasible(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_legacy_warp(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_local_array(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_low_occupancy(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_register_spill(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_bank_conflict(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_optin(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_shuffle_mask(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_int_div(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_uncoalesced(struct px_rule_ctx *c, const struct px_rule *r);
void px_check_warp_sync(struct px_rule_ctx *c, const struct px_rule *r);
/* deadlock, shared-out-of-bounds, shared-race, uninitialized-shared: the
 * simulation's violations of the rule's id (check_simt.c) */
void px_check_simulated(struct px_rule_ctx *c, const struct px_rule *r);
/* The simulator's message for a violation of kind (a px_simt_kind_name) it
 * found on concrete values at PTX line, or NULL. */
const char *px_check_sim_proof(const struct px_rule_ctx *c, const char *kind, uint32_t line);
/* Reports the simulated violations of kind at lines not in lines[]. */
void px_check_sim_rest(struct px_rule_ctx *c, const struct px_rule *r, const char *kind,
                       const uint32_t *lines, uint32_t nlines);

/* The kernel's name for messages: demangled without parameters. */
const char *px_rule_kernel_name(const struct px_kernel_report *k, char *buf, size_t n);

/* ---- lint internals (lint.c, lint_cuda.c, lint_compat.c, lint_simt.c) ---- */
struct px_lint_launch;
/* Adds a finding (message owned from now on; column 0: the first non-blank
 * of the line, filled with the fingerprint by px_lint_apply_suppressions). */
void px_lint_add_finding(struct px_lint_result *out, const char *rule, enum px_severity sev,
                         const char *file, uint32_t line, uint32_t column, const char *kernel,
                         const char *arch, char *message);
/* Is rule id selected by --only (every rule when --only is absent)? */
bool px_lint_selected(const struct px_lint_options *opt, const char *id);
/* Locates mine's findings in text (columns, fingerprints), then moves them
 * to out, less those a suppression covers. mapped: text is a px_map_file
 * mapping, whose pages the walk gives back behind it. */
void px_lint_apply_suppressions(struct px_lint_result *mine, struct px_suppressions *supp,
                                const char *text, size_t len, bool mapped, struct px_lint_result *out);
/* bad-annotation findings for suppressions without a rule, with an unknown
 * rule or without a reason. */
void px_lint_check_suppressions(const struct px_suppressions *s, const struct px_effective *eff,
                                const char *path, struct px_lint_result *out);
/* `.cu`/`.cuh`: the CUDA front end's findings as lint findings (lint_cuda.c). */
bool px_lint_cuda(const char *path, const char *text, size_t len, const struct px_config *cfg,
                  const struct px_effective *eff, const struct px_lint_options *opt,
                  struct px_lint_result *out, struct px_diags *diags);
/* Every enabled registry rule on each kernel of rep for each target (lint.c;
 * the PTX side of px_lint_file and of CUDA files compiled by nvcc). */
void px_lint_ptx_rules(const char *path, const struct px_file_report *rep, const struct px_report_options *ropt,
                       const struct px_config *cfg, const struct px_effective *eff,
                       const struct px_lint_options *opt, const char *const *archs, uint32_t narchs,
                       const char *text, size_t len, const struct px_suppressions *supp,
                       const struct px_lint_launch *launches, size_t nlaunches,
                       struct px_lint_result *mine, struct px_diags *diags);
/* The SIMT verifier's runs for the kernels of rep (lint_simt.c): NULL when
 * no verifier rule is on; notes (budget, unknown values) go to diags. */
struct px_lint_sims;
/* A launch block the CUDA front end knows for a kernel (by its name without
 * namespace or template arguments); from: "annotation" or "launch site". */
struct px_lint_launch {
	const char *kernel;
	uint32_t block[3];
	const char *from;
};
struct px_lint_sims *px_lint_simulate(const char *path, const struct px_file_report *rep,
                                      const struct px_report_options *ropt, const struct px_config *cfg,
                                      const struct px_effective *eff, const struct px_lint_options *opt,
                                      const char *const *archs, uint32_t narchs, const char *text,
                                      size_t len, const struct px_lint_launch *launches, size_t nlaunches,
                                      struct px_diags *diags);
void px_lint_sims_free(struct px_lint_sims *s);
/* The run of kernel index k of the report, or NULL. */
const struct px_simt_result *px_lint_sim_for(const struct px_lint_sims *s, size_t k);
/* arch-feature-unavailable and ptx-isa-too-old from the compat engine on
 * the file's text for the targets (lint_compat.c). */
void px_lint_compat(const char *path, const char *text, size_t len, const struct px_file_report *rep,
                    const char *const *archs, uint32_t narchs, const struct px_effective *eff,
                    const struct px_lint_options *opt, struct px_lint_result *out,
                    struct px_diags *diags);

#endif
