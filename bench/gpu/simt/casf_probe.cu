// casf_probe.cu: a shared-memory float atomicAdd is a compare-and-swap loop
// in SASS (LDS, FADD, ATOMS.CAST.SPIN, a branch back for the lanes whose
// swap failed). The model (c96acaf) takes a lane through the first round
// that reads its word after the last swap to it, another warp's included
// (latency.shared_atomic_f32_swap, fitted to held-out 11's shist_f32_loop),
// and lets no later instruction issue ahead of the loop. These loops test
// that blind, with no global load in the way but in the _ld loops:
//  - cf_own: lane l of warp w adds to word 32w + l: no two lanes meet;
//  - cf_same: lane l of every warp adds to word l: the warps meet on
//    every word, never two lanes of one warp;
//  - cf_bins64 / cf_bins1024: each lane to a bin hashed from its thread
//    and the step, 64 or 1024 bins shared by the block (chance meetings
//    in and between warps);
//  - cf_word: every lane of the block adds to one word (32 lanes of a
//    warp meet: 32 rounds, and the warps between them);
//  - cf_ld / cf_ld_int: a load of the next value from global memory
//    (L2-resident) after each add, the value added to a shared bin of the
//    lane's own: the float add (the loop) against an integer add (one
//    ATOMS), whose next load ptxas may issue before it.
// Each adds the old value to an accumulator, so that the loop's result is
// read. At 32, 128 and 512 threads. Run with
// `sh bench/gpu/simt/heldout.sh casf_probe`; judged by tests/check_simt.py
// with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__device__ __forceinline__ unsigned mix(unsigned x) {
	x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
	return x;
}

__global__ void cf_own(float *o, long long *t, int n) {
	__shared__ float h[1024];
	for (int k = threadIdx.x; k < 1024; k += blockDim.x)
		h[k] = 0.0f;
	float acc = 0.0f, v = 1.0f + threadIdx.x * 0.001f;
	START();
	for (int i = 0; i < n; i++)
		acc += atomicAdd(&h[threadIdx.x & 1023], v);
	STOP(t);
	o[threadIdx.x] = acc;
}

__global__ void cf_same(float *o, long long *t, int n) {
	__shared__ float h[32];
	if (threadIdx.x < 32)
		h[threadIdx.x] = 0.0f;
	float acc = 0.0f, v = 1.0f + threadIdx.x * 0.001f;
	START();
	for (int i = 0; i < n; i++)
		acc += atomicAdd(&h[threadIdx.x & 31], v);
	STOP(t);
	o[threadIdx.x] = acc;
}

__global__ void cf_bins(float *o, long long *t, int n, int nbins) {
	__shared__ float h[1024];
	for (int k = threadIdx.x; k < 1024; k += blockDim.x)
		h[k] = 0.0f;
	float acc = 0.0f, v = 1.0f + threadIdx.x * 0.001f;
	START();
	for (int i = 0; i < n; i++) {
		unsigned b = mix(threadIdx.x * 977u + (unsigned)i) & (unsigned)(nbins - 1);
		acc += atomicAdd(&h[b], v);
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

__global__ void cf_word(float *o, long long *t, int n) {
	__shared__ float h[1];
	if (threadIdx.x == 0)
		h[0] = 0.0f;
	float acc = 0.0f, v = 1.0f + threadIdx.x * 0.001f;
	START();
	for (int i = 0; i < n; i++)
		acc += atomicAdd(&h[0], v);
	STOP(t);
	o[threadIdx.x] = acc;
}

__global__ void cf_ld(const float *a, float *o, long long *t, int n) {
	__shared__ float h[1024];
	for (int k = threadIdx.x; k < 1024; k += blockDim.x)
		h[k] = 0.0f;
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		float w = a[(i & 63) * blockDim.x + threadIdx.x];
		acc += atomicAdd(&h[threadIdx.x & 1023], w + 1.0f);
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

__global__ void cf_ld_int(const int *a, int *o, long long *t, int n) {
	__shared__ int h[1024];
	for (int k = threadIdx.x; k < 1024; k += blockDim.x)
		h[k] = 0;
	int acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		int w = a[(i & 63) * blockDim.x + threadIdx.x];
		acc += atomicAdd(&h[threadIdx.x & 1023], w + 1);
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	float *fo = (float *)buf2;
	const float *fa = (const float *)buf;
	static const int blks[] = {32, 128, 512};
	for (int q = 0; q < 3; q++) {
		int blk = blks[q];
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("cf_own"), cf_own, blk, 64, 2, "", fo, dt, nn);
		MEASURE(L("cf_same"), cf_same, blk, 32, 2, "", fo, dt, nn);
		MEASURE(L("cf_bins64"), cf_bins, blk, 32, 2, "3=64", fo, dt, nn, 64);
		MEASURE(L("cf_bins1024"), cf_bins, blk, 64, 2, "3=1024", fo, dt, nn, 1024);
		MEASURE(L("cf_word"), cf_word, blk, 4, 2, "", fo, dt, nn);
		MEASURE(L("cf_ld"), cf_ld, blk, 64, 3, "", fa, fo, dt, nn);
		MEASURE(L("cf_ld_int"), cf_ld_int, blk, 64, 3, "", (const int *)fa, (int *)fo, dt, nn);
	}
	return 0;
}
