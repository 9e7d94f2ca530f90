/* check_kernel.c: the rules about a kernel as a whole on a target: launch
 * block, feasibility, occupancy, launch bounds, registers and spills,
 * shared-memory opt-in.
 *
 * They read the report (directives, resources, spill prediction, ptxas's
 * figures) and the occupancy engine's answer for the target that lint.c put
 * in the context (c->occ, c->adv at c->arch); they never recompute either.
 * Findings sit on the kernel's .entry line. */
#include <stdio.h>
#include <string.h>

#include "checks.h"

/* The block and where it came from, when a directive fixes it. */
static bool directive_block(const struct px_kernel_report *k, const char **from)
{
	*from = k->block_from == PX_LAUNCH_REQNTID ? ".reqntid"
	      : k->block_from == PX_LAUNCH_MAXNTID ? ".maxntid"
	      : k->block_from == PX_LAUNCH_CONFIG ? "the configured launch block"
	      : k->block_from == PX_LAUNCH_OPTION ? "--block"
	      : k->block_from == PX_LAUNCH_ANNOTATION ? "the launch annotation" : NULL;
	return *from != NULL;
}

static uint64_t threads(const struct px_kernel_report *k)
{
	return (uint64_t)k->block[0] * k->block[1] * k->block[2];
}

void px_check_block_size(struct px_rule_ctx *c, const struct px_rule *r)
{
	const struct px_kernel_report *k = c->k;
	const char *from;
	uint32_t warp = c->arch ? c->arch->warp_size : 32;
	if (!c->first || !directive_block(k, &from))
		return;
	uint64_t n = threads(k);
	if (n % warp == 0)
		return;
	px_rule_report(c, r, k->line, 0,
	               "block of %llu threads (%s) is not a multiple of %u: the last warp runs %llu of %u lanes",
	               (unsigned long long)n, from, warp, (unsigned long long)(n % warp), warp);
}

void px_check_launch_infeasible(struct px_rule_ctx *c, const struct px_rule *r)
{
	const struct px_kernel_report *k = c->k;
	const struct px_arch *a = c->arch;
	const char *from;
	if (!a)
		return;
	if (!directive_block(k, &from))
		from = "the default launch block";
	uint64_t n = threads(k);
	if (n > a->max_threads_per_block || k->block[0] > 1024 || k->block[1] > 1024 || k->block[2] > 64) {
		px_rule_report(c, r, k->line, 0, "block of %ux%ux%u threads (%s) exceeds %s's %u threads per "
		               "block (and 1024x1024x64 per dimension)", k->block[0], k->block[1], k->block[2],
		               from, a->name, a->max_threads_per_block);
		return;
	}
	if (!c->have_occ || c->occ.blocks_per_sm > 0)
		return;
	switch (c->occ.fail) {
	case PX_OCC_FAIL_REGISTERS:
		px_rule_report(c, r, k->line, 0, "%u registers per thread (%s) x %llu threads need %u registers "
		               "per block; %s has %u", c->q.registers, c->reg_from, (unsigned long long)n,
		               c->occ.registers_per_block, a->name, a->registers_per_block);
		break;
	case PX_OCC_FAIL_SHARED:
		px_rule_report(c, r, k->line, 0, "%u bytes of shared memory per block (static %u, dynamic %u) "
		               "exceed %s's limit of %u", c->q.shared + c->q.dynamic_shared, c->q.shared,
		               c->q.dynamic_shared, a->name, c->occ.shared_limit_per_block);
		break;
	default:
		px_rule_report(c, r, k->line, 0, "no block of %llu threads can reside on an SM of %s",
		               (unsigned long long)n, a->name);
		break;
	}
}

void px_check_optin(struct px_rule_ctx *c, const struct px_rule *r)
{
	const struct px_kernel_report *k = c->k;
	const struct px_arch *a = c->arch;
	if (!a || !c->have_occ || c->optin)
		return;
	uint64_t total = (uint64_t)c->q.shared + c->q.dynamic_shared;
	if (total <= a->shared_per_block || total > a->shared_per_block_optin)
		return;   /* fits by default, or no opt-in helps (launch-infeasible) */
	if (c->q.shared > a->shared_per_block)
		px_rule_report(c, r, k->line, 0, "%u bytes of static shared memory on %s: above the %u-byte "
		               "default, and only dynamic shared memory can opt in", c->q.shared, a->name,
		               a->shared_per_block);
	else
		px_rule_report(c, r, k->line, 0, "needs %llu bytes of shared memory per block on %s: above the "
		               "%u-byte default, the launch fails without cudaFuncSetAttribute("
		               "MaxDynamicSharedMemorySize)", (unsigned long long)total, a->name,
		               a->shared_per_block);
}

/* "registers: 64 per thread" for the limiter. */
static void limiter_text(const struct px_rule_ctx *c, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	for (int l = 0; l < PX_OCC_NLIMITS; l++) {
		if (!(c->occ.limiters >> l & 1))
			continue;
		const char *what = px_occ_limit_name((enum px_occ_limit)l);
		char one[96];
		switch (l) {
		case PX_OCC_REGISTERS:
			snprintf(one, sizeof one, "registers: %u per thread (%s)", c->q.registers, c->reg_from);
			break;
		case PX_OCC_SHARED:
			snprintf(one, sizeof one, "shared memory: %u bytes per block", c->occ.shared_per_block);
			break;
		case PX_OCC_WARPS:
			snprintf(one, sizeof one, "warps: %u per block", c->occ.warps_per_block);
			break;
		case PX_OCC_BLOCKS:
			snprintf(one, sizeof one, "blocks per SM: %u threads per block is small", c->q.threads);
			break;
		default:
			snprintf(one, sizeof one, "%s", what);
			break;
		}
		len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s", len ? ", " : "", one);
		if (len >= n)
			break;
	}
}

void px_check_low_occupancy(struct px_rule_ctx *c, const struct px_rule *r)
{
	const struct px_kernel_report *k = c->k;
	if (!c->have_occ || c->occ.blocks_per_sm == 0)
		return;
	double th = px_rule_threshold(c, r);
	if (c->occ.occupancy >= th)
		return;
	char lim[256], fix[200] = "";
	limiter_text(c, lim, sizeof lim);
	const struct px_occ_advice *adv = &c->adv;
	if ((c->occ.limiters >> PX_OCC_REGISTERS & 1) && adv->have_register_step)
		snprintf(fix, sizeof fix, "; %u registers would give %.0f%%", adv->step_registers,
		         adv->step_occupancy * 100);
	else if (adv->best_threads && adv->best_occupancy > c->occ.occupancy)
		snprintf(fix, sizeof fix, "; a block of %u threads would give %.0f%%", adv->best_threads,
		         adv->best_occupancy * 100);
	px_rule_report(c, r, k->line, 0, "theoretical occupancy %.0f%% on %s at %u threads per block "
	               "(limited by %s)%s", c->occ.occupancy * 100, c->arch->name, c->q.threads, lim, fix);
}

void px_check_launch_bounds(struct px_rule_ctx *c, const struct px_rule *r)
{
	const struct px_kernel_report *k = c->k;
	const struct px_func *f = k->func;
	if (!c->have_occ || c->occ.blocks_per_sm == 0 || f->maxntid[0] || f->reqntid[0] || f->maxnreg)
		return;
	if (!(c->occ.limiters >> PX_OCC_REGISTERS & 1) || c->occ.occupancy >= 1.0)
		return;
	const struct px_occ_advice *adv = &c->adv;
	if (adv->have_register_step)
		px_rule_report(c, r, k->line, 0, "no launch bounds and registers (%u per thread) limit occupancy "
		               "to %.0f%% on %s: __launch_bounds__(%u, %u) caps registers at %u (%.0f%%)",
		               c->q.registers, c->occ.occupancy * 100, c->arch->name, c->q.threads,
		               adv->step_blocks, adv->step_registers, adv->step_occupancy * 100);
	else
		px_rule_report(c, r, k->line, 0, "no launch bounds and registers (%u per thread) limit occupancy "
		               "to %.0f%% on %s", c->q.registers, c->occ.occupancy * 100, c->arch->name);
}

void px_check_register_spill(struct px_rule_ctx *c, const struct px_rule *r)
{
	const struct px_kernel_report *k = c->k;
	if (!c->first)
		return;
	if (k->have_ptxas && k->ptxas.have_frame) {
		if (k->ptxas.spill_store_bytes || k->ptxas.spill_load_bytes)
			px_rule_report(c, r, k->line, 0, "registers spill: ptxas reports %u bytes of spill stores and "
			               "%u bytes of spill loads", k->ptxas.spill_store_bytes, k->ptxas.spill_load_bytes);
		return;
	}
	if (k->spills_predicted)
		px_rule_report(c, r, k->line, 0, "registers spill: the estimate needs %u registers, the cap is %u%s",
		               k->reg_demand, k->spill_cap,
		               k->func->maxnreg ? " (.maxnreg)" : k->spill_cap < 255 ? " (launch bounds)" : "");
}

const char *px_rule_kernel_name(const struct px_kernel_report *k, char *buf, size_t n)
{
	if (k->demangled) {
		const char *p = strchr(k->demangled, '(');
		size_t len = p ? (size_t)(p - k->demangled) : strlen(k->demangled);
		/* drop a return type ("void f<4>") */
		const char *sp = memchr(k->demangled, ' ', len);
		const char *lt = memchr(k->demangled, '<', len);
		const char *start = k->demangled;
		if (sp && (!lt || sp < lt)) {
			start = sp + 1;
			len -= (size_t)(start - k->demangled);
		}
		snprintf(buf, n, "%.*s", (int)len, start);
	} else {
		snprintf(buf, n, PX_STR_FMT, PX_STR_ARG(k->func->name));
	}
	return buf;
}
