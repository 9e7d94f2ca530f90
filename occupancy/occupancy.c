/* occupancy.c: the occupancy engine: resident blocks per SM for one
 * configuration, from the numbers of one arch table.
 *
 * Approach (the CUDA Occupancy Calculator's model, as the CUDA C++
 * Programming Guide describes it in "Occupancy Calculator" and the per-
 * capability "Shared Memory" sections): each resource gives the number of
 * blocks it can hold, and the smallest wins.
 *  - warps: max warps per SM / warps per block (0 when the block is larger
 *    than the arch allows);
 *  - registers: per warp, registers x warp size rounded up to the
 *    allocation unit; the block must fit the per-block register limit even
 *    with its warp count rounded up to the warp allocation granularity; the
 *    register file is split evenly among the SM's sub-partitions, each
 *    holding whole warps;
 *  - shared memory: static + dynamic + the driver's per-block reservation,
 *    rounded up to the allocation unit, must fit the per-block limit (the
 *    opt-in one when the kernel opted in and needs it); the SM's capacity is
 *    the carveout step the preference asks for, or, when that is too small
 *    for one block, the smallest step that holds it (the driver's choice);
 *  - blocks: the arch's maximum resident blocks;
 *  - barriers (where the table gives barrier slots per SM): slots / barriers
 *    used.
 * Every limit equal to the result is a limiter. Nothing here allocates. */
#include <string.h>

#include "occupancy.h"

const char *px_occ_limit_name(enum px_occ_limit l)
{
	switch (l) {
	case PX_OCC_WARPS: return "warps";
	case PX_OCC_REGISTERS: return "registers";
	case PX_OCC_SHARED: return "shared_memory";
	case PX_OCC_BLOCKS: return "blocks";
	case PX_OCC_BARRIERS: return "barriers";
	case PX_OCC_NLIMITS: break;
	}
	return "?";
}

static inline uint32_t div_up(uint32_t x, uint32_t y)
{
	return (x + y - 1) / y;
}

static inline uint32_t round_up(uint32_t x, uint32_t y)
{
	return div_up(x, y) * y;
}

#define MAX_BYTES (1u << 30)

const char *px_occ_check(const struct px_arch *a, const struct px_occ_query *q)
{
	if (q->threads == 0)
		return "threads per block must be at least 1";
	if (q->threads > (1u << 20))
		return "threads per block must be at most 1048576";
	if (q->registers > a->max_registers_per_thread)
		return "registers per thread exceed the arch's maximum";
	if (q->carveout < -1 || q->carveout > 100)
		return "carveout must be -1 (driver default) or 0..100 percent";
	if (q->barriers > a->named_barriers_per_block)
		return "named barriers exceed the arch's per-block maximum";
	if (q->shared >= MAX_BYTES || q->dynamic_shared >= MAX_BYTES)
		return "shared memory must be below 1 GiB";
	return NULL;
}

uint32_t px_occ_carveout_step(const struct px_arch *a, uint32_t want)
{
	if (a->ncarveouts == 0)
		return want <= a->shared_per_sm ? a->shared_per_sm : 0;
	for (uint32_t i = 0; i < a->ncarveouts; i++)
		if (a->carveouts[i] >= want)
			return a->carveouts[i];
	return 0;
}

/* The driver's choice without a preference, measured on an H100 (compute
 * capability 9.0, driver of CUDA 13.0) by bench/gpu/simt/carveout.sh: ncu's
 * launch__shared_mem_config_size for 90 launches (block sizes 64..1024,
 * 1..41 KiB of shared memory per block, a register-limited kernel;
 * tests/fixtures/simt/carveout/, checked by tests/check_carveout.py) and the
 * three of transpose_probe.cu. With B the resident blocks and S the
 * allocated shared memory per block, the capacity is the smallest step that
 * holds all of
 *  - B x S (the resident blocks),
 *  - for blocks smaller than the largest (1,024 threads), room for
 *    min(2B, the block limit) blocks, but not past 132 KiB for that reason,
 *  - min(the block limit, 4 x max threads per SM / block threads) KiB.
 * All 93 launches follow it. For other compute capabilities with a
 * carveout it is assumed, not measured. */
uint32_t px_occ_launch_shared(const struct px_arch *a, const struct px_occ_query *q,
                              const struct px_occ_result *r)
{
	if (r->blocks_per_sm == 0)
		return 0;
	if (q->carveout >= 0 || a->ncarveouts == 0)
		return r->shared_per_sm;
	uint64_t b = r->blocks_per_sm, s = r->shared_per_block;
	uint64_t want = b * s;
	uint64_t lo = (uint64_t)4 * a->max_threads_per_sm / q->threads;
	if (lo > a->max_blocks_per_sm)
		lo = a->max_blocks_per_sm;
	if (lo * 1024 > want)
		want = lo * 1024;
	if (q->threads < a->max_threads_per_block) {
		uint64_t b2 = 2 * b < a->max_blocks_per_sm ? 2 * b : a->max_blocks_per_sm;
		uint64_t room = b2 * s > a->shared_per_sm ? a->shared_per_sm : b2 * s;
		uint32_t st = px_occ_carveout_step(a, (uint32_t)room);
		if (st > 132 * 1024)
			st = 132 * 1024;
		if (st > want)
			want = st;
	}
	if (want > a->shared_per_sm)
		want = a->shared_per_sm;
	uint32_t cap = px_occ_carveout_step(a, (uint32_t)want);
	return cap ? cap : r->shared_per_sm;
}

void px_occ_compute(const struct px_arch *a, const struct px_occ_query *q, struct px_occ_result *r)
{
	uint32_t wpb = div_up(q->threads, a->warp_size);
	r->warps_per_block = wpb;
	r->fail = PX_OCC_OK;

	/* warps */
	uint32_t lw;
	if (q->threads > a->max_threads_per_block) {
		lw = 0;
		r->fail = PX_OCC_FAIL_THREADS;
	} else {
		lw = a->max_warps_per_sm / wpb;
	}

	/* registers */
	uint32_t per_warp = round_up(q->registers * a->warp_size, a->register_allocation_unit);
	uint64_t per_block = (uint64_t)per_warp * wpb;
	uint64_t checked = (uint64_t)per_warp * round_up(wpb, a->warp_allocation_granularity);
	uint32_t lr;
	if (checked > a->registers_per_block || per_block > a->registers_per_block) {
		lr = 0;
		if (r->fail == PX_OCC_OK)
			r->fail = PX_OCC_FAIL_REGISTERS;
	} else if (per_warp == 0) {
		lr = PX_OCC_UNLIMITED;
	} else {
		uint32_t warps_per_sub = a->registers_per_sm / a->subpartitions / per_warp;
		lr = warps_per_sub * a->subpartitions / wpb;
	}
	r->registers_per_warp = per_warp;
	r->registers_per_block = (uint32_t)per_block;

	/* shared memory */
	uint32_t used = q->shared + q->dynamic_shared + a->shared_reserved_per_block;
	uint32_t alloc = round_up(used, a->shared_allocation_unit);
	uint32_t limit = (q->optin && used > a->shared_per_block) ? a->shared_per_block_optin
	                                                          : a->shared_per_block;
	limit += a->shared_reserved_per_block;
	r->shared_per_block = alloc;
	r->shared_limit_per_block = limit;
	uint32_t ls;
	r->shared_per_sm = 0;
	if (alloc > limit) {
		ls = 0;
	} else {
		uint32_t want = a->shared_per_sm;
		if (q->carveout >= 0)
			want = (uint32_t)(((uint64_t)(uint32_t)q->carveout * a->shared_per_sm) / 100);
		uint32_t cap = px_occ_carveout_step(a, want);
		if (cap < alloc)
			cap = px_occ_carveout_step(a, alloc);
		r->shared_per_sm = cap;
		ls = alloc == 0 ? PX_OCC_UNLIMITED : cap / alloc;
	}
	if (ls == 0 && r->fail == PX_OCC_OK)
		r->fail = PX_OCC_FAIL_SHARED;

	/* blocks, barriers */
	uint32_t lb = a->max_blocks_per_sm;
	uint32_t lbar = PX_OCC_UNLIMITED;
	if (a->barriers_per_sm && q->barriers)
		lbar = a->barriers_per_sm / q->barriers;

	r->limit[PX_OCC_WARPS] = lw;
	r->limit[PX_OCC_REGISTERS] = lr;
	r->limit[PX_OCC_SHARED] = ls;
	r->limit[PX_OCC_BLOCKS] = lb;
	r->limit[PX_OCC_BARRIERS] = lbar;
	uint32_t blocks = lw;
	for (int l = 1; l < PX_OCC_NLIMITS; l++)
		if (r->limit[l] < blocks)
			blocks = r->limit[l];
	unsigned limiters = 0;
	for (int l = 0; l < PX_OCC_NLIMITS; l++)
		if (r->limit[l] == blocks)
			limiters |= 1u << l;
	r->limiters = limiters;
	r->blocks_per_sm = blocks;
	r->warps_per_sm = blocks * wpb;
	r->occupancy = (double)r->warps_per_sm / a->max_warps_per_sm;
	r->launch_shared_per_sm = px_occ_launch_shared(a, q, r);
	r->l1_per_sm = a->unified_l1_shared && r->launch_shared_per_sm
	                       ? a->unified_l1_shared - r->launch_shared_per_sm : 0;
}
