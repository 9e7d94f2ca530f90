/* test_occ_oracle.c: the differential test of the occupancy engine against
 * NVIDIA's own calculator, cuda_occupancy.h from the CUDA include folder.
 *
 * Built with the header only when configure.py finds it (then it defines
 * PX_HAVE_CUDA_OCCUPANCY and adds the folder to the include path); without it
 * the test is skipped with a message saying so. The header is NVIDIA's and
 * stays outside the project: it is included, never copied.
 *
 * For every table in arch/ the oracle gets the device numbers the table
 * gives (what cudaGetDeviceProperties reports on such a GPU), while its own
 * per-capability constants (allocation granularities, block limits, carveout
 * steps, barrier slots) are built in: so agreement checks the tables as much
 * as the engine. 100,000 random configurations per compute capability, with
 * odd block sizes and sizes over the maximum, 0 and 255 registers, static
 * and dynamic shared memory up to past the opt-in limit, every carveout
 * (-1..100), opt-in on and off, 0..16 barriers; every output field compared:
 * blocks per SM, each resource's limit, the limiting factors, and the
 * registers and shared memory allocated per block. Then 3,000 per capability
 * of cudaOccMaxPotentialOccupancyBlockSize against the block-size advice,
 * with and without shared memory per thread. */
#include <criterion/criterion.h>
#include <limits.h>
#include <string.h>

#include "arch.h"
#include "occupancy.h"

#ifdef PX_HAVE_CUDA_OCCUPANCY
#include <cuda_occupancy.h>

#define CONFIGS 100000
#define BLOCKSIZE_CONFIGS 3000

/* xorshift64*: deterministic, seeded per arch */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static uint32_t pick(uint64_t *s, uint32_t n)
{
	return (uint32_t)(rnd(s) % n);
}

static void device_of(const struct px_arch *a, cudaOccDeviceProp *p)
{
	memset(p, 0, sizeof *p);
	p->computeMajor = (int)a->major;
	p->computeMinor = (int)a->minor;
	p->maxThreadsPerBlock = (int)a->max_threads_per_block;
	p->maxThreadsPerMultiprocessor = (int)a->max_threads_per_sm;
	p->regsPerBlock = (int)a->registers_per_block;
	p->regsPerMultiprocessor = (int)a->registers_per_sm;
	p->warpSize = (int)a->warp_size;
	p->sharedMemPerBlock = a->shared_per_block;
	p->sharedMemPerMultiprocessor = a->shared_per_sm;
	p->numSms = 132;
	p->sharedMemPerBlockOptin = a->shared_per_block_optin;
	p->reservedSharedMemPerBlock = a->shared_reserved_per_block;
}

static void attrs_of(const struct px_occ_query *q, cudaOccFuncAttributes *f)
{
	memset(f, 0, sizeof *f);
	f->maxThreadsPerBlock = 1024;
	f->numRegs = (int)q->registers;
	f->sharedSizeBytes = q->shared;
	f->partitionedGCConfig = PARTITIONED_GC_OFF;
	/* opt-in: the kernel raised its dynamic limit to what it uses
	 * (cudaFuncSetAttribute(..MaxDynamicSharedMemorySize, dynamic)) */
	f->shmemLimitConfig = q->optin ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;
	f->maxDynamicSharedSizeBytes = q->optin ? q->dynamic_shared : 0;
	f->numBlockBarriers = (int)q->barriers;
	f->virtualResourceCount = 0;
}

static uint32_t lim(int v)
{
	return v == INT_MAX ? PX_OCC_UNLIMITED : (uint32_t)v;
}

static unsigned my_bits_to_occ(unsigned b)
{
	unsigned o = 0;
	if (b & (1u << PX_OCC_WARPS)) o |= OCC_LIMIT_WARPS;
	if (b & (1u << PX_OCC_REGISTERS)) o |= OCC_LIMIT_REGISTERS;
	if (b & (1u << PX_OCC_SHARED)) o |= OCC_LIMIT_SHARED_MEMORY;
	if (b & (1u << PX_OCC_BLOCKS)) o |= OCC_LIMIT_BLOCKS;
	if (b & (1u << PX_OCC_BARRIERS)) o |= OCC_LIMIT_BARRIERS;
	return o;
}

static void random_query(uint64_t *s, const struct px_arch *a, struct px_occ_query *q)
{
	uint32_t mode = pick(s, 8);
	if (mode == 0)
		q->threads = 1 + pick(s, a->max_threads_per_block + 64);           /* any, some over */
	else if (mode < 4)
		q->threads = a->warp_size * (1 + pick(s, a->max_threads_per_block / a->warp_size));
	else
		q->threads = 1 + pick(s, a->max_threads_per_block);                /* odd sizes */
	uint32_t rm = pick(s, 10);
	q->registers = rm == 0 ? 0 : rm == 1 ? a->max_registers_per_thread
	                                      : pick(s, a->max_registers_per_thread + 1);
	uint32_t sm = pick(s, 6);
	q->shared = sm == 0 ? 0 : pick(s, a->shared_per_block + 1);
	uint32_t dm = pick(s, 6);
	q->dynamic_shared = dm == 0 ? 0 : dm < 3 ? pick(s, 4096)
	                  : pick(s, a->shared_per_block_optin + 8192 - q->shared);
	q->carveout = (int32_t)pick(s, 102) - 1;
	q->optin = pick(s, 2);
	q->barriers = pick(s, a->named_barriers_per_block + 1);
}

static size_t spt_value;   /* test-only: the callback below has no context argument */
static size_t dyn_per_thread(int t)
{
	return spt_value * (size_t)t;
}

Test(occupancy_oracle, agrees_with_cuda_occupancy_h)
{
	struct px_diags d = {0};
	struct px_archset *set = px_archset_new(&d);
	cr_assert_not_null(set);
	size_t total = 0, barrier_cut = 0;
	for (size_t ai = 0; ai < px_archset_count(set); ai++) {
		const struct px_arch *a = px_archset_at(set, ai);
		cudaOccDeviceProp prop;
		device_of(a, &prop);
		uint64_t seed = 0x9E3779B97F4A7C15ULL ^ (a->major * 100 + a->minor);
		for (int i = 0; i < CONFIGS; i++) {
			struct px_occ_query q;
			random_query(&seed, a, &q);
			cr_assert_null(px_occ_check(a, &q));
			struct px_occ_result r;
			px_occ_compute(a, &q, &r);
			cudaOccFuncAttributes f;
			attrs_of(&q, &f);
			cudaOccDeviceState st;
			memset(&st, 0, sizeof st);
			st.cacheConfig = CACHE_PREFER_NONE;
			st.carveoutConfig = q.carveout;
			cudaOccResult o;
			memset(&o, 0, sizeof o);
			cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&o, &prop, &f, &st, (int)q.threads,
			                                                         q.dynamic_shared);
#define CTX "%s threads=%u regs=%u shared=%u dyn=%u carveout=%d optin=%d barriers=%u", \
	a->name, q.threads, q.registers, q.shared, q.dynamic_shared, q.carveout, q.optin, q.barriers
			cr_assert_eq(e, CUDA_OCC_SUCCESS, CTX);
			cr_assert_eq(r.blocks_per_sm, (uint32_t)o.activeBlocksPerMultiprocessor, CTX);
			cr_assert_eq(r.limit[PX_OCC_WARPS], lim(o.blockLimitWarps), CTX);
			cr_assert_eq(r.limit[PX_OCC_REGISTERS], lim(o.blockLimitRegs), CTX);
			cr_assert_eq(r.limit[PX_OCC_SHARED], lim(o.blockLimitSharedMem), CTX);
			cr_assert_eq(r.limit[PX_OCC_BLOCKS], lim(o.blockLimitBlocks), CTX);
			cr_assert_eq(r.limit[PX_OCC_BARRIERS], lim(o.blockLimitBarriers), CTX);
			cr_assert_eq(r.registers_per_block, (uint32_t)o.allocatedRegistersPerBlock, CTX);
			cr_assert_eq(r.shared_per_block, (uint32_t)o.allocatedSharedMemPerBlock, CTX);
			/* Limiting factors: the header sets its flags from the minimum
			 * before it applies the barrier limit; when barriers cut the count
			 * below that minimum it keeps the old flags as well. ptxray names
			 * exactly the limits equal to the result (INTERFACES.md). */
			unsigned mine = my_bits_to_occ(r.limiters);
			uint32_t others = r.limit[PX_OCC_WARPS];
			for (int l = 1; l < PX_OCC_BARRIERS; l++)
				if (r.limit[l] < others)
					others = r.limit[l];
			if (r.limit[PX_OCC_BARRIERS] < others) {
				barrier_cut++;
				cr_assert_eq(mine, (unsigned)OCC_LIMIT_BARRIERS, CTX);
				cr_assert(o.limitingFactors & OCC_LIMIT_BARRIERS, CTX);
			} else {
				cr_assert_eq(mine, o.limitingFactors, CTX);
			}
			total++;
		}
		/* the best block size (cudaOccupancyMaxPotentialBlockSize) */
		for (int i = 0; i < BLOCKSIZE_CONFIGS; i++) {
			struct px_occ_query q;
			random_query(&seed, a, &q);
			q.threads = 32;
			uint32_t spt_pick = pick(&seed, 4);
			static const uint32_t spts[] = {0, 4, 16, 64};
			struct px_occ_advice_options opt = {0};
			if (spt_pick) {
				opt.have_shared_per_thread = true;
				opt.shared_per_thread = spts[spt_pick];
				q.dynamic_shared = 0;
			}
			struct px_occ_result r;
			px_occ_compute(a, &q, &r);
			struct px_occ_advice adv;
			px_occ_advise(a, &q, &r, &opt, &adv);
			cudaOccFuncAttributes f;
			attrs_of(&q, &f);
			if (q.optin)   /* room for whatever the block size asks */
				f.maxDynamicSharedSizeBytes = a->shared_per_block_optin;
			cudaOccDeviceState st;
			memset(&st, 0, sizeof st);
			st.carveoutConfig = q.carveout;
			int min_grid = 0, block = 0;
			spt_value = spts[spt_pick];
			cudaOccError e = cudaOccMaxPotentialOccupancyBlockSize(
				&min_grid, &block, &prop, &f, &st, spt_pick ? dyn_per_thread : NULL, q.dynamic_shared);
			cr_assert_eq(e, CUDA_OCC_SUCCESS, CTX);
			cr_assert_eq(adv.best_threads, (uint32_t)block, CTX);
			cr_assert_eq(adv.best_blocks * 132, (uint32_t)min_grid, CTX);
		}
	}
	cr_log_info("occupancy oracle: %zu configurations over %zu compute capabilities agree "
	            "(%zu cut by barriers)", total, px_archset_count(set), barrier_cut);
	px_archset_delete(set);
	px_diags_free(&d);
}
#else
Test(occupancy_oracle, agrees_with_cuda_occupancy_h)
{
	cr_skip_test("cuda_occupancy.h not found (configure.py looks for /usr/local/cuda/include/"
	             "cuda_occupancy.h): the differential test against NVIDIA's calculator is skipped");
}
#endif
