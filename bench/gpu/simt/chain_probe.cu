// chain_probe.cu: held-out 13's chained_scan_loop (a single-pass scan's
// chained look-back: lane 0 of warp w polls warp w - 1's (flag, prefix)
// word of the step in global memory, volatile, then publishes its own) took
// 401 and 441 cycles an iteration at 128 and 512 threads on the H100; the
// model gives 642 and 644: the warp's own work (the hash, five SHFL.UP
// steps, two SHFL.IDX, the lane-0 branch) 299, one warp alone, and 343 more
// for the poll (a volatile load from the L2, 293, and the YIELD's path
// switches). The loops here take it apart, each the same body but for what
// its comment says (n iterations; the flags zeroed or set by the kernel
// before the loop):
//  - cs_full: chained_scan_loop as it is (32 to 512 threads);
//  - cs_nopoll: no look-back: lane 0 publishes its warp's sum, no poll;
//  - cs_preset: every warp's lane 0 polls a word of its own that the kernel
//    set before the loop (the first read leaves the spin) and publishes to
//    a second region: the poll's cost with nothing to wait for;
//  - cs_preset_all: the same poll by all 32 lanes (one word, no branch
//    around it): the same without the divergence;
//  - cs_link: the look-back alone, lane 0 only (the loop inside
//    `if (lane == 0)`): no hash, no scan, no shuffle; a step is one link of
//    the chain.
// Run with `sh bench/gpu/simt/heldout.sh chain_probe`; judged by
// tests/check_simt.py with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__device__ __forceinline__ unsigned mix(unsigned x) {
	x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
	return x;
}

// the warp's inclusive scan of v (five SHFL.UP steps)
__device__ __forceinline__ unsigned warp_scan(unsigned v, int lane) {
	unsigned sc = v;
	for (int d = 1; d < 32; d <<= 1) {
		unsigned u = __shfl_up_sync(0xffffffffu, sc, d);
		if (lane >= d)
			sc += u;
	}
	return sc;
}

__global__ void cs_full(unsigned long long *flags, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < n * nw; k += nb)
		flags[k] = 0ull;
	START();
	for (int i = 0; i < n; i++) {
		unsigned v = mix((unsigned)(i * nb + tid)) & 255u, sc = warp_scan(v, lane);
		unsigned agg = __shfl_sync(0xffffffffu, sc, 31), prefix = 0;
		if (lane == 0) {
			if (w > 0) {
				volatile unsigned long long *f = flags + i * nw + w - 1;
				unsigned long long fv;
				while (((fv = *f) >> 32) == 0ull)
					;
				prefix = (unsigned)fv;
			}
			((volatile unsigned long long *)flags)[i * nw + w] = (1ull << 32) | (unsigned long long)(prefix + agg);
		}
		prefix = __shfl_sync(0xffffffffu, prefix, 0);
		y[(i * nb + tid) & 16383] = prefix + sc - v;
	}
	STOP(t);
}

__global__ void cs_nopoll(unsigned long long *flags, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < n * nw; k += nb)
		flags[k] = 0ull;
	START();
	for (int i = 0; i < n; i++) {
		unsigned v = mix((unsigned)(i * nb + tid)) & 255u, sc = warp_scan(v, lane);
		unsigned agg = __shfl_sync(0xffffffffu, sc, 31), prefix = 0;
		if (lane == 0) {
			prefix = agg >> 9;   // (0: agg < 32 * 256)
			((volatile unsigned long long *)flags)[i * nw + w] = (1ull << 32) | (unsigned long long)(prefix + agg);
		}
		prefix = __shfl_sync(0xffffffffu, prefix, 0);
		y[(i * nb + tid) & 16383] = prefix + sc - v;
	}
	STOP(t);
}

__global__ void cs_preset(unsigned long long *flags, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < 2 * n * nw; k += nb)
		flags[k] = k < n * nw ? (1ull << 32) | (unsigned long long)(k & 7) : 0ull;
	START();
	for (int i = 0; i < n; i++) {
		unsigned v = mix((unsigned)(i * nb + tid)) & 255u, sc = warp_scan(v, lane);
		unsigned agg = __shfl_sync(0xffffffffu, sc, 31), prefix = 0;
		if (lane == 0) {
			volatile unsigned long long *f = flags + i * nw + w;
			unsigned long long fv;
			while (((fv = *f) >> 32) == 0ull)
				;
			prefix = (unsigned)fv;
			((volatile unsigned long long *)flags)[n * nw + i * nw + w] = (1ull << 32) | (unsigned long long)(prefix + agg);
		}
		prefix = __shfl_sync(0xffffffffu, prefix, 0);
		y[(i * nb + tid) & 16383] = prefix + sc - v;
	}
	STOP(t);
}

__global__ void cs_preset_all(unsigned long long *flags, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < 2 * n * nw; k += nb)
		flags[k] = k < n * nw ? (1ull << 32) | (unsigned long long)(k & 7) : 0ull;
	START();
	for (int i = 0; i < n; i++) {
		unsigned v = mix((unsigned)(i * nb + tid)) & 255u, sc = warp_scan(v, lane);
		unsigned agg = __shfl_sync(0xffffffffu, sc, 31), prefix;
		volatile unsigned long long *f = flags + i * nw + w;
		unsigned long long fv;
		while (((fv = *f) >> 32) == 0ull)
			;
		prefix = (unsigned)fv;
		if (lane == 0)
			((volatile unsigned long long *)flags)[n * nw + i * nw + w] = (1ull << 32) | (unsigned long long)(prefix + agg);
		y[(i * nb + tid) & 16383] = prefix + sc - v;
	}
	STOP(t);
}

__global__ void cs_link(unsigned long long *flags, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < n * nw; k += nb)
		flags[k] = 0ull;
	unsigned prefix = 0;
	START();
	if (lane == 0)
		for (int i = 0; i < n; i++) {
			if (w > 0) {
				volatile unsigned long long *f = flags + i * nw + w - 1;
				unsigned long long fv;
				while (((fv = *f) >> 32) == 0ull)
					;
				prefix = (unsigned)fv;
			}
			((volatile unsigned long long *)flags)[i * nw + w] = (1ull << 32) | (unsigned long long)(prefix + 1);
		}
	STOP(t);
	y[tid] = prefix;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	unsigned long long *fl = (unsigned long long *)buf2;
	unsigned *yy = (unsigned *)buf2 + (1 << 20);
	static const int full[] = {32, 64, 128, 512}, two[] = {32, 128}, link[] = {64, 128, 512};
#define L(s, b) (snprintf(l, sizeof l, "%s/%d", s, b), l)
	for (int q = 0; q < 4; q++)
		MEASURE(L("cs_full", full[q]), cs_full, full[q], 64, 3, "", fl, yy, dt, nn);
	for (int q = 0; q < 2; q++) {
		MEASURE(L("cs_nopoll", two[q]), cs_nopoll, two[q], 64, 3, "", fl, yy, dt, nn);
		MEASURE(L("cs_preset", two[q]), cs_preset, two[q], 64, 3, "", fl, yy, dt, nn);
	}
	MEASURE(L("cs_preset_all", 32), cs_preset_all, 32, 64, 3, "", fl, yy, dt, nn);
	for (int q = 0; q < 3; q++)
		MEASURE(L("cs_link", link[q]), cs_link, link[q], 64, 3, "", fl, yy, dt, nn);
	return 0;
}
