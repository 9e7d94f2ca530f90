// transpose_probe.cu: why is transpose_loop/128 (simt_bench.cu) measured at
// ~2050 cycles per iteration, between the simulator's all-L1-hit (796) and
// all-L2-hit (2868) bounds, while /256 and /512 sit near the L1 bound?
// Same timing method as simt_bench.cu: one block (<<<1, block>>>), clock64
// around the loop between __syncthreads, cycles per iteration =
// (C(2n) - C(n)) / n, best of 5. Prints one JSON object per line:
//   {"loop": "transpose_probe/<variant>/<block>", "block": ..., "cycles_per_iteration": ...}
// after a header line (device, clock, cache/shared config the runtime reports).
// Run through probe.sh; `transpose_probe ncu` only launches the baseline once
// per block size (for ncu's cache counters), then the carveout copy at 128
// threads with carveout 0, 100 and with 100 KiB of dynamic shared memory.
//
// The loop reads 16 source tiles of 4 KiB at a 4 KiB stride (64 KiB) and
// writes 16 destination tiles (64 KiB, another buffer). Suspects and the
// variants that test them (READING THE RESULTS at the end of the file):
//  (1) base      transpose_loop exactly as in simt_bench.cu (must reproduce
//                ~2050/686/543); base_end: the same again at the end (drift).
//      gen       the parameterised kernel with the baseline's parameters (must
//                match base, else the other gen-derived variants are not comparable)
//  (2) cv0/cv50/cv100  carveout preference (percent shared) on a copy of the
//                kernel; dyn<K>: the copy launched with K KiB of unused dynamic
//                shared memory, which forces the shared part up and the L1 down
//                whatever the driver would prefer (capacity sweep)
//  (3) ldcg      loads bypass L1 (L2 only: the measured all-miss bound)
//      ldca      loads explicitly cached in L1 (the measured all-hit-ish case)
//  (4) st_fixed  every iteration stores to one fixed 4 KiB destination tile
//      st_none   no global stores (the shared reads still feed a sum written
//                once after the loop)
//      ldcg_st_none  L2-only loads without stores
//  (5) s1056     source and destination tiles at 1024+32 floats (4 KiB + 128 B)
//      s1056src  only the source tiles at 1024+32 floats
//      s8192     tiles at 32 KiB (a coarser power of two: worse if set conflicts)
//      t1/t4/t8/t32/t64  1, 4, 8, 32, 64 tiles (4..256 KiB of source) at 4 KiB
//  (6) warm      each timed launch preceded by an identical untimed launch
//      launch1/launch2  total cycles of two back-to-back launches with the same
//                n (is anything kept in L1 across launches?)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// (1) verbatim copy of simt_bench.cu's transpose_loop
__global__ void transpose_base(const float *a, float *o, long long *t, int n) {
	__shared__ float tile[32][33];
	int tx = threadIdx.x & 31, ty = threadIdx.x >> 5, rows = blockDim.x >> 5;
	START();
	for (int i = 0; i < n; i++) {
		const float *src = a + (i & 15) * 1024;
		float *dst = o + (i & 15) * 1024;
		for (int r = ty; r < 32; r += rows) tile[r][tx] = src[r * 32 + tx];
		__syncthreads();
		for (int r = ty; r < 32; r += rows) dst[r * 32 + tx] = tile[tx][r];
		__syncthreads();
	}
	STOP(t);
}
// (2) the same code under another name, so that the carveout attribute and
// the dynamic shared memory set on it leave transpose_base alone
__global__ void transpose_cv(const float *a, float *o, long long *t, int n) {
	__shared__ float tile[32][33];
	int tx = threadIdx.x & 31, ty = threadIdx.x >> 5, rows = blockDim.x >> 5;
	START();
	for (int i = 0; i < n; i++) {
		const float *src = a + (i & 15) * 1024;
		float *dst = o + (i & 15) * 1024;
		for (int r = ty; r < 32; r += rows) tile[r][tx] = src[r * 32 + tx];
		__syncthreads();
		for (int r = ty; r < 32; r += rows) dst[r * 32 + tx] = tile[tx][r];
		__syncthreads();
	}
	STOP(t);
}

// (3)-(5) parameterised: LD 0 plain load, 1 __ldcg (L2 only), 2 __ldca;
// ST 0 store to tile (i & tmask) at dstride, 1 store to tile 0 always,
// 2 no store in the loop (sum of the shared reads written after it).
// sstride/dstride in floats, tmask = tiles - 1 (tiles a power of two).
template <int LD>
__device__ __forceinline__ float ld(const float *p) {
	if (LD == 1) return __ldcg(p);
	if (LD == 2) return __ldca(p);
	return *p;
}
template <int LD, int ST>
__global__ void transpose_gen(const float *a, float *o, long long *t, int n,
                              int sstride, int dstride, int tmask) {
	__shared__ float tile[32][33];
	int tx = threadIdx.x & 31, ty = threadIdx.x >> 5, rows = blockDim.x >> 5;
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		const float *src = a + (i & tmask) * sstride;
		float *dst = ST == 1 ? o : o + (i & tmask) * dstride;
		for (int r = ty; r < 32; r += rows) tile[r][tx] = ld<LD>(src + r * 32 + tx);
		__syncthreads();
		for (int r = ty; r < 32; r += rows) {
			if (ST == 2) acc += tile[tx][r];
			else dst[r * 32 + tx] = tile[tx][r];
		}
		__syncthreads();
	}
	STOP(t);
	if (ST == 2) o[threadIdx.x] = acc;
}

// ---- host ----
static long long *dt;
static float *fb, *fb2;

#define CK(x) do { cudaError_t e_ = (x); if (e_) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static long long take(void) { long long h; CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(&h, dt, sizeof h, cudaMemcpyDeviceToHost)); return h; }

// best of 5 of (T(2n) - T(n)) / n; LAUNCH(nn) launches the kernel with nn
// iterations; warm != 0: an untimed identical launch before each timed one
#define MEASURE(variant, block, n, warm, extra, LAUNCH) do { \
	double best = 1e30; \
	for (int r = 0; r < 5; r++) { \
		if (warm) { LAUNCH(n); take(); } \
		LAUNCH(n); long long a1 = take(); \
		if (warm) { LAUNCH(2 * n); take(); } \
		LAUNCH(2 * n); long long a2 = take(); \
		double c = (double)(a2 - a1) / (n); if (c < best) best = c; \
	} \
	printf("{\"loop\": \"transpose_probe/%s/%d\", \"block\": %d, \"n\": %d%s, " \
	       "\"cycles_per_iteration\": %.2f}\n", variant, block, block, n, extra, best); \
	fflush(stdout); \
} while (0)

int main(int argc, char **argv) {
	cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
	int clk = 0; cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
	int resv = -1; cudaDeviceGetAttribute(&resv, cudaDevAttrReservedSharedMemoryPerBlock, 0);
	cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, transpose_base));
	printf("{\"device\": \"%s\", \"cc\": \"%d.%d\", \"clock_khz\": %d, \"sms\": %d, "
	       "\"shared_per_sm\": %zu, \"shared_per_block_optin\": %zu, \"reserved_shared_per_block\": %d, "
	       "\"l2_bytes\": %d, \"global_l1\": %d, \"kernel_shared_bytes\": %zu, "
	       "\"kernel_max_dynamic_shared\": %d, \"kernel_preferred_carveout\": %d, \"kernel_regs\": %d",
	       p.name, p.major, p.minor, clk, p.multiProcessorCount, p.sharedMemPerMultiprocessor,
	       p.sharedMemPerBlockOptin, resv, p.l2CacheSize, p.globalL1CacheSupported,
	       fa.sharedSizeBytes, fa.maxDynamicSharedSizeBytes, fa.preferredShmemCarveout, fa.numRegs);
	// blocks per SM the runtime allows at each size: the driver sizes the
	// shared carveout for this occupancy (1 KiB reserved per block), so
	// 16/8/4 blocks * (4224 + 1024) B at 128/256/512 threads ask for
	// ~84/42/21 KiB of shared memory, leaving less L1 at 128 threads
	for (int blk = 128; blk <= 512; blk *= 2) {
		int nb = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, transpose_base, blk, 0);
		printf(", \"occupancy_blocks_%d\": %d", blk, nb);
	}
	printf("}\n");
	fflush(stdout);

	CK(cudaMalloc(&dt, 64));
	CK(cudaMalloc(&fb, 64 << 20)); CK(cudaMemset(fb, 0, 64 << 20));
	CK(cudaMalloc(&fb2, 64 << 20)); CK(cudaMemset(fb2, 0, 64 << 20));
	CK(cudaDeviceSynchronize());

	if (argc > 1 && !strcmp(argv[1], "ncu")) {
		// for ncu: one launch of the baseline per block size, small n,
		// default carveout (nothing has set an attribute on transpose_base)
		for (int blk = 128; blk <= 512; blk *= 2) { transpose_base<<<1, blk>>>(fb, fb2, dt, 64); take(); }
		// then the copy at 128 threads under carveout 0 and 100 and with
		// 100 KiB of dynamic shared memory: which shared config each gets
		CK(cudaFuncSetAttribute(transpose_cv, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
		transpose_cv<<<1, 128>>>(fb, fb2, dt, 64); take();
		CK(cudaFuncSetAttribute(transpose_cv, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
		transpose_cv<<<1, 128>>>(fb, fb2, dt, 64); take();
		CK(cudaFuncSetAttribute(transpose_cv, cudaFuncAttributePreferredSharedMemoryCarveout, -1));
		CK(cudaFuncSetAttribute(transpose_cv, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
		transpose_cv<<<1, 128, 100 * 1024>>>(fb, fb2, dt, 64); take();
		return 0;
	}

	const int N = 256;
	char v[64];
	for (int blk = 128; blk <= 512; blk *= 2) {
#define BASE(nn) transpose_base<<<1, blk>>>(fb, fb2, dt, nn)
		// (1) baseline, and the parameterised kernel with the same parameters
		MEASURE("base", blk, N, 0, "", BASE);
#define GEN(LD, ST, ss, ds, tm) [&](int nn) { transpose_gen<LD, ST><<<1, blk>>>(fb, fb2, dt, nn, ss, ds, tm); }
		{ auto f = GEN(0, 0, 1024, 1024, 15); MEASURE("gen", blk, N, 0, "", f); }
		// (3) L2-only and L1-cached loads
		{ auto f = GEN(1, 0, 1024, 1024, 15); MEASURE("ldcg", blk, N, 0, "", f); }
		{ auto f = GEN(2, 0, 1024, 1024, 15); MEASURE("ldca", blk, N, 0, "", f); }
		// (4) stores to one fixed tile; no stores; L2-only loads without stores
		{ auto f = GEN(0, 1, 1024, 1024, 15); MEASURE("st_fixed", blk, N, 0, "", f); }
		{ auto f = GEN(0, 2, 1024, 1024, 15); MEASURE("st_none", blk, N, 0, "", f); }
		{ auto f = GEN(1, 2, 1024, 1024, 15); MEASURE("ldcg_st_none", blk, N, 0, "", f); }
		// (5) strides and working set sizes
		{ auto f = GEN(0, 0, 1056, 1056, 15); MEASURE("s1056", blk, N, 0, "", f); }
		{ auto f = GEN(0, 0, 1056, 1024, 15); MEASURE("s1056src", blk, N, 0, "", f); }
		{ auto f = GEN(0, 0, 8192, 8192, 15); MEASURE("s8192", blk, N, 0, "", f); }
		{ auto f = GEN(0, 0, 1024, 1024, 0); MEASURE("t1", blk, N, 0, "", f); }
		{ auto f = GEN(0, 0, 1024, 1024, 3); MEASURE("t4", blk, N, 0, "", f); }
		{ auto f = GEN(0, 0, 1024, 1024, 7); MEASURE("t8", blk, N, 0, "", f); }
		{ auto f = GEN(0, 0, 1024, 1024, 31); MEASURE("t32", blk, N, 0, "", f); }
		{ auto f = GEN(0, 0, 1024, 1024, 63); MEASURE("t64", blk, N, 0, "", f); }
		// t8/t32 without stores: is the knee set by the loads alone?
		{ auto f = GEN(0, 2, 1024, 1024, 7); MEASURE("t8_st_none", blk, N, 0, "", f); }
		{ auto f = GEN(0, 2, 1024, 1024, 31); MEASURE("t32_st_none", blk, N, 0, "", f); }
		// (6) warm-up: an identical launch before each timed launch; and the
		// totals of two back-to-back launches with the same n
		MEASURE("warm", blk, N, 1, "", BASE);
		{
			BASE(N); long long c1 = take(); BASE(N); long long c2 = take();
			printf("{\"loop\": \"transpose_probe/launch1_vs_2/%d\", \"block\": %d, \"n\": %d, "
			       "\"total_cycles_launch1\": %lld, \"total_cycles_launch2\": %lld}\n", blk, blk, N, c1, c2);
			fflush(stdout);
		}
	}
	// (2) carveout preference (percent of the unified L1/shared given to
	// shared), then forced: dynamic shared memory allocated but unused
	for (int blk = 128; blk <= 512; blk *= 2) {
#define CV(nn) transpose_cv<<<1, blk, dyn>>>(fb, fb2, dt, nn)
		int dyn = 0;
		const int cvs[3] = {0, 50, 100};
		for (int k = 0; k < 3; k++) {
			CK(cudaFuncSetAttribute(transpose_cv, cudaFuncAttributePreferredSharedMemoryCarveout, cvs[k]));
			snprintf(v, sizeof v, "cv%d", cvs[k]);
			MEASURE(v, blk, N, 0, "", CV);
		}
		CK(cudaFuncSetAttribute(transpose_cv, cudaFuncAttributePreferredSharedMemoryCarveout, -1));
		CK(cudaFuncSetAttribute(transpose_cv, cudaFuncAttributeMaxDynamicSharedMemorySize,
		                        (int)p.sharedMemPerBlockOptin - 4224));
		// dynamic shared memory in KiB; the L1 left is about 256 - shared config
		const int dyns[6] = {0, 32, 64, 100, 150, 200};
		for (int k = 0; k < 6; k++) {
			dyn = dyns[k] * 1024;
			if (dyn + 4224 > (int)p.sharedMemPerBlockOptin) continue;
			snprintf(v, sizeof v, "dyn%d", dyns[k]);
			char ex[64]; snprintf(ex, sizeof ex, ", \"dynamic_shared\": %d", dyn);
			MEASURE(v, blk, N, 0, ex, CV);
		}
	}
	for (int blk = 128; blk <= 512; blk *= 2) MEASURE("base_end", blk, N, 0, "", BASE);
	return 0;
}

// READING THE RESULTS (x = cycles per iteration; simt_bench measured
// 2050/686/543 at 128/256/512; simulator all-L1 796/481/409, all-L2 2868/1517/929)
//  - base must reproduce ~2050/686/543 (+-10%: /128 varied 8% between runs),
//    and gen must match base; otherwise the difference is in the code or in
//    the launch history (simt_bench runs other kernels in between: compare
//    warm and base_end).
//  - ldcg is the measured all-miss bound, ldca/t1 the all-hit side. base/128
//    between them => partial hit rate (ncu's hit rate says how partial).
//  - Carveout/capacity: if cv0 (max L1) brings /128 down to the /256 level and
//    cv100 or dyn>=100 pushes /256 and /512 up to /128's level, L1 capacity
//    set by the driver's carveout is the cause; launch__shared_mem_config_size
//    in transpose_ncu.csv should then be larger at 128 threads. The t-sweep
//    gives the knee: the working set at which x jumps, per block size.
//    If cv*/dyn* change nothing, capacity is not it.
//  - Set conflicts: s1056 (and s1056src) much faster than base and s8192
//    slower than base at the same working set => set-index conflicts of the
//    power-of-two stride. Equal => not conflicts.
//  - Stores: st_fixed or st_none much faster than base, while the loads still
//    miss in base => stores allocate in or evict/invalidate L1 lines (the
//    destination competes with the source). st_none close to
//    ldcg_st_none => the loads miss even without stores (not the stores).
//  - Replacement: a knee in the t-sweep well below the L1 size left after the
//    carveout (e.g. 16 tiles = 64 KiB + 64 KiB of stores miss while t8 hits)
//    with s1056 unchanged points at the replacement / allocation policy
//    rather than raw capacity; cyclic access over a set larger than the cache
//    under LRU misses everything (x near ldcg), under random replacement
//    partially (x between).
//  - Warm-up: warm ~ base => launch history does not matter; launch2 much
//    smaller than launch1 at the same n => L1 (or L2) content survives a
//    launch, so the first iterations differ but the difference method cancels
//    them only if both launches start alike.
