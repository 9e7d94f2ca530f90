/* occ_render.c: renders occupancy results: the JSON object of INTERFACES.md
 * ("ptxray-occupancy/1"), the text form, and the advice items both share.
 *
 * Approach: the advice is first turned into a list of items (kind, fields,
 * one message line) in a fixed order (block size, registers, launch bounds,
 * carveout, then warnings in bit order), so JSON and text say the same
 * thing. Limits that do not apply (PX_OCC_UNLIMITED) are JSON null. Appends
 * to a px_buf; never prints. */
#include <stdio.h>
#include <string.h>

#include "occupancy.h"
#include "report.h"   /* px_json */

enum item_kind { I_BLOCK, I_REGS, I_BOUNDS, I_CARVEOUT, I_WARN };

struct item {
	enum item_kind kind;
	unsigned warn;
	char msg[320];
};

static const char *warn_id(unsigned bit)
{
	switch (bit) {
	case PX_OCC_WARN_NOT_WARP_MULTIPLE: return "block-not-warp-multiple";
	case PX_OCC_WARN_OVER_MAX_THREADS: return "block-over-maximum";
	case PX_OCC_WARN_SHARED_NO_OPTIN: return "shared-over-default-without-optin";
	case PX_OCC_WARN_STATIC_OVER_DEFAULT: return "static-shared-over-default";
	case PX_OCC_WARN_CANNOT_LAUNCH: return "cannot-launch";
	}
	return "?";
}

/* Why blocks_per_sm is 0, as the CUDA runtime would refuse the launch. */
static void fail_reason(char *b, size_t n, const struct px_arch *a, const struct px_occ_query *q,
                        const struct px_occ_result *r)
{
	switch (r->fail) {
	case PX_OCC_FAIL_THREADS:
		snprintf(b, n, "%u threads per block exceed the maximum of %u on %s",
		         q->threads, a->max_threads_per_block, a->name);
		break;
	case PX_OCC_FAIL_REGISTERS:
		snprintf(b, n, "%u registers per thread x %u warps need %u registers per block "
		         "(warps rounded up to %u), over the %u a block may use on %s",
		         q->registers, r->warps_per_block,
		         r->registers_per_warp * ((r->warps_per_block + a->warp_allocation_granularity - 1) /
		                                  a->warp_allocation_granularity * a->warp_allocation_granularity),
		         a->warp_allocation_granularity, a->registers_per_block, a->name);
		break;
	case PX_OCC_FAIL_SHARED:
		snprintf(b, n, "%u bytes of shared memory per block (with %u reserved) exceed the %s limit of %u on %s",
		         r->shared_per_block, a->shared_reserved_per_block,
		         q->optin ? "opt-in" : "default", r->shared_limit_per_block, a->name);
		break;
	case PX_OCC_OK:
		snprintf(b, n, "launchable");
		break;
	}
}

static size_t items(const struct px_arch *a, const struct px_occ_query *q,
                    const struct px_occ_result *r, const struct px_occ_advice *adv,
                    struct item *it, size_t max)
{
	size_t n = 0;
	if (!adv)
		return 0;
	if (adv->best_threads && n < max) {
		it[n].kind = I_BLOCK;
		snprintf(it[n].msg, sizeof it[n].msg,
		         "block size %u maximises occupancy: %u blocks, %.1f%%%s", adv->best_threads,
		         adv->best_blocks, adv->best_occupancy * 100,
		         adv->best_threads == q->threads ? " (the current size)" : "");
		n++;
	}
	if (adv->have_register_step && n < max) {
		it[n].kind = I_REGS;
		snprintf(it[n].msg, sizeof it[n].msg, "at <= %u registers: %u blocks, %.1f%%",
		         adv->step_registers, adv->step_blocks, adv->step_occupancy * 100);
		n++;
	}
	if (adv->have_bounds && n < max) {
		it[n].kind = I_BOUNDS;
		if (adv->bounds_reachable)
			snprintf(it[n].msg, sizeof it[n].msg,
			         "__launch_bounds__(%u, %u) reaches %.1f%% and caps registers at %u",
			         adv->bounds_threads, adv->bounds_min_blocks, adv->bounds_target * 100,
			         adv->bounds_register_cap);
		else
			snprintf(it[n].msg, sizeof it[n].msg,
			         "%.1f%% (%u blocks of %u threads) is out of reach: %s allow fewer blocks",
			         adv->bounds_target * 100, adv->bounds_min_blocks, adv->bounds_threads,
			         px_occ_limit_name(adv->bounds_blocked_by));
		n++;
	}
	if (adv->have_carveout && n < max) {
		it[n].kind = I_CARVEOUT;
		snprintf(it[n].msg, sizeof it[n].msg,
		         "carveout %u%% (%u KiB of shared memory per SM) keeps %u blocks and leaves the most L1",
		         adv->carveout_percent, adv->carveout_bytes / 1024, r->blocks_per_sm);
		n++;
	}
	for (unsigned bit = 1; bit <= PX_OCC_WARN_CANNOT_LAUNCH && n < max; bit <<= 1) {
		if (!(adv->warnings & bit))
			continue;
		it[n].kind = I_WARN;
		it[n].warn = bit;
		char why[160];
		switch (bit) {
		case PX_OCC_WARN_NOT_WARP_MULTIPLE:
			snprintf(it[n].msg, sizeof it[n].msg,
			         "%u threads is not a multiple of the warp size (%u): the last warp runs %u idle lanes",
			         q->threads, a->warp_size, a->warp_size - q->threads % a->warp_size);
			break;
		case PX_OCC_WARN_OVER_MAX_THREADS:
			snprintf(it[n].msg, sizeof it[n].msg, "%u threads per block exceed the %u %s allows",
			         q->threads, a->max_threads_per_block, a->name);
			break;
		case PX_OCC_WARN_SHARED_NO_OPTIN:
			snprintf(it[n].msg, sizeof it[n].msg,
			         "%u bytes of shared memory exceed the default %u KiB per block: opt in with "
			         "cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ...) (--optin)",
			         q->shared + q->dynamic_shared, a->shared_per_block / 1024);
			break;
		case PX_OCC_WARN_STATIC_OVER_DEFAULT:
			snprintf(it[n].msg, sizeof it[n].msg,
			         "%u bytes of static shared memory exceed %u KiB: above it only dynamic shared memory may opt in",
			         q->shared, a->shared_per_block / 1024);
			break;
		case PX_OCC_WARN_CANNOT_LAUNCH:
			fail_reason(why, sizeof why, a, q, r);
			snprintf(it[n].msg, sizeof it[n].msg, "cannot launch (too many resources requested for launch): %s", why);
			break;
		}
		n++;
	}
	return n;
}

size_t px_occ_advice_lines(const struct px_arch *a, const struct px_occ_query *q,
                           const struct px_occ_result *r, const struct px_occ_advice *adv,
                           char lines[][256], size_t max)
{
	struct item it[16];
	size_t n = items(a, q, r, adv, it, max < 16 ? max : 16);
	for (size_t i = 0; i < n; i++)
		snprintf(lines[i], 256, "%.255s", it[i].msg);
	return n;
}

static void limit_json(struct px_json *j, uint32_t v)
{
	if (v == PX_OCC_UNLIMITED)
		px_json_null(j);
	else
		px_json_uint(j, v);
}

void px_occ_json(struct px_json *j, const struct px_arch *a, const struct px_occ_query *q,
                 const struct px_occ_result *r, const struct px_occ_advice *adv)
{
	px_json_begin_object(j);
	px_json_key(j, "schema");
	px_json_string(j, "ptxray-occupancy/1");
	px_json_key(j, "arch");
	px_json_string(j, a->name);
	px_json_key(j, "threads");
	px_json_uint(j, q->threads);
	px_json_key(j, "registers");
	px_json_uint(j, q->registers);
	px_json_key(j, "shared");
	px_json_uint(j, q->shared);
	px_json_key(j, "dynamic_shared");
	px_json_uint(j, q->dynamic_shared);
	px_json_key(j, "carveout");
	px_json_int(j, q->carveout);
	px_json_key(j, "optin");
	px_json_bool(j, q->optin);
	px_json_key(j, "barriers");
	px_json_uint(j, q->barriers);
	px_json_key(j, "blocks_per_sm");
	px_json_uint(j, r->blocks_per_sm);
	px_json_key(j, "warps_per_sm");
	px_json_uint(j, r->warps_per_sm);
	px_json_key(j, "occupancy");
	px_json_double(j, r->occupancy);
	px_json_key(j, "limiters");
	px_json_begin_array(j);
	for (int l = 0; l < PX_OCC_NLIMITS; l++)
		if (r->limiters & (1u << l))
			px_json_string(j, px_occ_limit_name((enum px_occ_limit)l));
	px_json_end_array(j);
	px_json_key(j, "limits");
	px_json_begin_object(j);
	for (int l = 0; l < PX_OCC_NLIMITS; l++) {
		px_json_key(j, px_occ_limit_name((enum px_occ_limit)l));
		limit_json(j, r->limit[l]);
	}
	px_json_end_object(j);
	px_json_key(j, "allocated");
	px_json_begin_object(j);
	px_json_key(j, "registers_per_block");
	px_json_uint(j, r->registers_per_block);
	px_json_key(j, "shared_bytes_per_block");
	px_json_uint(j, r->shared_per_block);
	px_json_key(j, "registers_per_warp");
	px_json_uint(j, r->registers_per_warp);
	px_json_key(j, "warps_per_block");
	px_json_uint(j, r->warps_per_block);
	px_json_key(j, "shared_reserved_bytes_per_block");
	px_json_uint(j, a->shared_reserved_per_block);
	px_json_key(j, "shared_bytes_per_sm");
	if (r->shared_per_sm)
		px_json_uint(j, r->shared_per_sm);
	else
		px_json_null(j);
	px_json_key(j, "launch_shared_bytes_per_sm");
	if (r->launch_shared_per_sm)
		px_json_uint(j, r->launch_shared_per_sm);
	else
		px_json_null(j);
	px_json_key(j, "l1_bytes_per_sm");
	if (r->l1_per_sm)
		px_json_uint(j, r->l1_per_sm);
	else
		px_json_null(j);
	px_json_end_object(j);
	px_json_key(j, "cannot_launch");
	if (r->blocks_per_sm == 0) {
		char why[200];
		fail_reason(why, sizeof why, a, q, r);
		px_json_string(j, why);
	} else {
		px_json_null(j);
	}
	px_json_key(j, "advice");
	px_json_begin_array(j);
	struct item it[16];
	size_t n = items(a, q, r, adv, it, 16);
	for (size_t i = 0; i < n; i++) {
		px_json_begin_object(j);
		px_json_key(j, "kind");
		switch (it[i].kind) {
		case I_BLOCK:
			px_json_string(j, "block-size");
			px_json_key(j, "threads");
			px_json_uint(j, adv->best_threads);
			px_json_key(j, "blocks_per_sm");
			px_json_uint(j, adv->best_blocks);
			px_json_key(j, "occupancy");
			px_json_double(j, adv->best_occupancy);
			px_json_key(j, "dynamic_shared");
			px_json_uint(j, adv->best_dynamic_shared);
			break;
		case I_REGS:
			px_json_string(j, "registers");
			px_json_key(j, "registers");
			px_json_uint(j, adv->step_registers);
			px_json_key(j, "blocks_per_sm");
			px_json_uint(j, adv->step_blocks);
			px_json_key(j, "occupancy");
			px_json_double(j, adv->step_occupancy);
			break;
		case I_BOUNDS:
			px_json_string(j, "launch-bounds");
			px_json_key(j, "threads");
			px_json_uint(j, adv->bounds_threads);
			px_json_key(j, "min_blocks");
			px_json_uint(j, adv->bounds_min_blocks);
			px_json_key(j, "target_occupancy");
			px_json_double(j, adv->bounds_target);
			px_json_key(j, "reachable");
			px_json_bool(j, adv->bounds_reachable);
			px_json_key(j, "register_cap");
			if (adv->bounds_reachable)
				px_json_uint(j, adv->bounds_register_cap);
			else
				px_json_null(j);
			break;
		case I_CARVEOUT:
			px_json_string(j, "carveout");
			px_json_key(j, "percent");
			px_json_uint(j, adv->carveout_percent);
			px_json_key(j, "shared_bytes_per_sm");
			px_json_uint(j, adv->carveout_bytes);
			break;
		case I_WARN:
			px_json_string(j, "warning");
			px_json_key(j, "id");
			px_json_string(j, warn_id(it[i].warn));
			break;
		}
		px_json_key(j, "message");
		px_json_string(j, it[i].msg);
		px_json_end_object(j);
	}
	px_json_end_array(j);
	px_json_end_object(j);
}

static void limit_text(struct px_buf *out, uint32_t v)
{
	if (v == PX_OCC_UNLIMITED)
		px_buf_puts(out, "-");
	else
		px_buf_printf(out, "%u", v);
}

void px_occ_text(struct px_buf *out, const struct px_arch *a, const struct px_occ_query *q,
                 const struct px_occ_result *r, const struct px_occ_advice *adv)
{
	px_buf_printf(out, "%s: %u threads, %u registers, %u B static + %u B dynamic shared, ",
	              a->name, q->threads, q->registers, q->shared, q->dynamic_shared);
	if (q->carveout < 0)
		px_buf_puts(out, "carveout default");
	else
		px_buf_printf(out, "carveout %d%%", q->carveout);
	px_buf_printf(out, "%s, %u barrier%s\n", q->optin ? ", opt-in" : "", q->barriers,
	              q->barriers == 1 ? "" : "s");
	px_buf_printf(out, "  blocks per SM  %u (limited by", r->blocks_per_sm);
	const char *sep = " ";
	for (int l = 0; l < PX_OCC_NLIMITS; l++)
		if (r->limiters & (1u << l)) {
			px_buf_printf(out, "%s%s", sep, px_occ_limit_name((enum px_occ_limit)l));
			sep = ", ";
		}
	px_buf_puts(out, ")\n");
	px_buf_printf(out, "  warps per SM   %u of %u\n", r->warps_per_sm, a->max_warps_per_sm);
	px_buf_printf(out, "  occupancy      %.1f%%\n", r->occupancy * 100);
	px_buf_puts(out, "  limits         ");
	for (int l = 0; l < PX_OCC_NLIMITS; l++) {
		px_buf_printf(out, "%s%s ", l ? ", " : "", px_occ_limit_name((enum px_occ_limit)l));
		limit_text(out, r->limit[l]);
	}
	px_buf_puts(out, "  (-: no limit)\n");
	px_buf_printf(out, "  registers      %u per block (%u per warp, %u warps)\n",
	              r->registers_per_block, r->registers_per_warp, r->warps_per_block);
	px_buf_printf(out, "  shared memory  %u B per block (with %u B reserved); limit %u B per block",
	              r->shared_per_block, a->shared_reserved_per_block, r->shared_limit_per_block);
	if (r->shared_per_sm)
		px_buf_printf(out, "; occupancy computed for %u KiB per SM", r->shared_per_sm / 1024);
	px_buf_puts(out, "\n");
	if (r->launch_shared_per_sm && r->launch_shared_per_sm != r->shared_per_sm)
		px_buf_printf(out, "  at launch      the driver configures %u KiB of shared memory (%s)",
		              r->launch_shared_per_sm / 1024,
		              a->major == 9 ? "a rule measured on an H100" : "the H100's rule, assumed for this arch");
	else if (r->launch_shared_per_sm)
		px_buf_printf(out, "  at launch      %u KiB of shared memory", r->launch_shared_per_sm / 1024);
	if (r->launch_shared_per_sm && r->l1_per_sm)
		px_buf_printf(out, ", leaving %u KiB of L1", r->l1_per_sm / 1024);
	if (r->launch_shared_per_sm)
		px_buf_puts(out, "\n");
	char lines[16][256];
	size_t n = px_occ_advice_lines(a, q, r, adv, lines, 16);
	if (n)
		px_buf_puts(out, "advice:\n");
	for (size_t i = 0; i < n; i++)
		px_buf_printf(out, "  %s\n", lines[i]);
}
