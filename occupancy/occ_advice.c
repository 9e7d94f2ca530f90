/* occ_advice.c: launch advice computed with the occupancy engine.
 *
 * Approach: every answer is a small search that re-runs px_occ_compute, so
 * the advice is exactly as right as the engine:
 *  - best block size: like cudaOccupancyMaxPotentialBlockSize, try block
 *    sizes from the arch maximum down in warp-size steps (dynamic shared
 *    memory optionally growing with the block, --shared-per-thread) and keep
 *    the first that holds the most resident threads;
 *  - next register step: walk down the register allocation steps (one step
 *    = allocation unit / warp size registers per thread) to the first count
 *    that holds more blocks;
 *  - launch bounds: the blocks per SM a target occupancy needs, whether the
 *    other resources allow them (registers set to 0), and the largest
 *    register count that still does (the cap __launch_bounds__ implies);
 *  - carveout: the smallest preference (percent) whose carveout step still
 *    holds blocks_per_sm blocks' shared memory;
 *  - warnings from the query and the result.
 * About 100 engine evaluations per query; nothing allocates. */
#include <math.h>
#include <string.h>

#include "occupancy.h"

static uint32_t threads_resident(const struct px_arch *a, const struct px_occ_query *q,
                                 uint32_t *blocks)
{
	struct px_occ_result r;
	px_occ_compute(a, q, &r);
	*blocks = r.blocks_per_sm;
	return r.blocks_per_sm * q->threads;
}

static void best_block(const struct px_arch *a, const struct px_occ_query *q0,
                       const struct px_occ_advice_options *o, struct px_occ_advice *adv)
{
	struct px_occ_query q = *q0;
	uint32_t limit = a->max_threads_per_block;
	uint32_t aligned = (limit + a->warp_size - 1) / a->warp_size * a->warp_size;
	uint32_t best = 0;
	adv->best_threads = adv->best_blocks = 0;
	adv->best_occupancy = 0;
	for (uint32_t t = aligned; t > 0; t -= a->warp_size) {
		q.threads = t < limit ? t : limit;
		q.dynamic_shared = q0->dynamic_shared;
		if (o && o->have_shared_per_thread) {
			uint64_t d = (uint64_t)q0->dynamic_shared + (uint64_t)o->shared_per_thread * q.threads;
			q.dynamic_shared = d >= (1u << 30) ? (1u << 30) - 1 : (uint32_t)d;
		}
		uint32_t blocks;
		uint32_t resident = threads_resident(a, &q, &blocks);
		if (resident > best) {
			best = resident;
			adv->best_threads = q.threads;
			adv->best_blocks = blocks;
			adv->best_dynamic_shared = q.dynamic_shared;
			adv->best_occupancy = (double)(blocks * ((q.threads + a->warp_size - 1) / a->warp_size)) /
			                      a->max_warps_per_sm;
		}
		if (best == a->max_threads_per_sm)
			break;
	}
}

/* Blocks per SM with `regs` registers per thread. */
static uint32_t blocks_with(const struct px_arch *a, const struct px_occ_query *q0, uint32_t regs,
                            struct px_occ_result *r)
{
	struct px_occ_query q = *q0;
	q.registers = regs;
	px_occ_compute(a, &q, r);
	return r->blocks_per_sm;
}

static void register_step(const struct px_arch *a, const struct px_occ_query *q,
                          const struct px_occ_result *r, struct px_occ_advice *adv)
{
	adv->have_register_step = false;
	uint32_t step = a->register_allocation_unit / a->warp_size;  /* registers per thread */
	if (!step || q->registers == 0 || !(r->limiters & (1u << PX_OCC_REGISTERS)))
		return;
	/* the largest count allocated one unit less per warp, and so on down */
	uint32_t regs = (q->registers + step - 1) / step * step;
	while (regs >= step) {
		regs -= step;
		struct px_occ_result s;
		if (blocks_with(a, q, regs, &s) > r->blocks_per_sm) {
			adv->have_register_step = true;
			adv->step_registers = regs;
			adv->step_blocks = s.blocks_per_sm;
			adv->step_occupancy = s.occupancy;
			return;
		}
		if (!(s.limiters & (1u << PX_OCC_REGISTERS)))
			return;   /* something else limits now: fewer registers cannot help */
	}
}

static void launch_bounds(const struct px_arch *a, const struct px_occ_query *q,
                          const struct px_occ_result *r, const struct px_occ_advice_options *o,
                          struct px_occ_advice *adv)
{
	adv->have_bounds = false;
	uint32_t need;
	double target;
	if (o && o->target_occupancy > 0) {
		target = o->target_occupancy;
		double w = ceil(target * a->max_warps_per_sm - 1e-9);
		need = (uint32_t)((w + r->warps_per_block - 1) / r->warps_per_block);
		if (need == 0)
			need = 1;
	} else if (adv->have_register_step) {
		need = adv->step_blocks;
		target = adv->step_occupancy;
	} else {
		return;
	}
	if (q->threads > a->max_threads_per_block)
		return;
	adv->have_bounds = true;
	adv->bounds_target = target;
	adv->bounds_threads = q->threads;
	adv->bounds_min_blocks = need;
	struct px_occ_result z;
	blocks_with(a, q, 0, &z);
	if (z.blocks_per_sm < need) {
		adv->bounds_reachable = false;
		adv->bounds_blocked_by = PX_OCC_WARPS;
		for (int l = 0; l < PX_OCC_NLIMITS; l++)
			if (z.limiters & (1u << l)) {
				adv->bounds_blocked_by = (enum px_occ_limit)l;
				break;
			}
		return;
	}
	adv->bounds_reachable = true;
	uint32_t step = a->register_allocation_unit / a->warp_size;
	uint32_t regs = a->max_registers_per_thread / step * step;
	struct px_occ_result s;
	while (regs > 0 && blocks_with(a, q, regs, &s) < need)
		regs -= step;
	adv->bounds_register_cap = regs;
}

static void carveout(const struct px_arch *a, const struct px_occ_query *q,
                     const struct px_occ_result *r, struct px_occ_advice *adv)
{
	adv->have_carveout = false;
	if (!a->ncarveouts || r->blocks_per_sm == 0 || r->limit[PX_OCC_SHARED] == PX_OCC_UNLIMITED)
		return;
	uint64_t need = (uint64_t)r->blocks_per_sm * r->shared_per_block;
	for (uint32_t p = 0; p <= 100; p++) {
		uint32_t want = (uint32_t)(((uint64_t)p * a->shared_per_sm) / 100);
		uint32_t cap = px_occ_carveout_step(a, want);
		if (cap >= need) {
			adv->have_carveout = true;
			adv->carveout_percent = p;
			adv->carveout_bytes = cap;
			return;
		}
	}
	(void)q;
}

void px_occ_advise(const struct px_arch *a, const struct px_occ_query *q,
                   const struct px_occ_result *r, const struct px_occ_advice_options *o,
                   struct px_occ_advice *adv)
{
	memset(adv, 0, sizeof *adv);
	best_block(a, q, o, adv);
	register_step(a, q, r, adv);
	launch_bounds(a, q, r, o, adv);
	carveout(a, q, r, adv);
	unsigned w = 0;
	if (q->threads % a->warp_size)
		w |= PX_OCC_WARN_NOT_WARP_MULTIPLE;
	if (q->threads > a->max_threads_per_block)
		w |= PX_OCC_WARN_OVER_MAX_THREADS;
	if (q->shared > a->shared_per_block)
		w |= PX_OCC_WARN_STATIC_OVER_DEFAULT;
	if (!q->optin && (uint64_t)q->shared + q->dynamic_shared > a->shared_per_block &&
	    a->shared_per_block_optin > a->shared_per_block)
		w |= PX_OCC_WARN_SHARED_NO_OPTIN;
	if (r->blocks_per_sm == 0)
		w |= PX_OCC_WARN_CANNOT_LAUNCH;
	adv->warnings = w;
}
