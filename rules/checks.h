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

/* The kernel's name for messages: demangled without parameters. */
const char *px_rule_kernel_name(const struct px_kernel_report *k, char *buf, size_t n);

#endif
