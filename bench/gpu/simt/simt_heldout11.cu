// simt_heldout11.cu: the eleventh held-out set, atomics as realistic
// kernels use them, to judge this session's atomic and fence model
// (a shared atomic's lanes on one word, the shared float add's CAS loop,
// global atomics through the L2's atomic unit, fences) in loops it was not
// fitted to. Written, and the model's predictions committed
// (tests/fixtures/simt/heldout11/predicted.jsonl), before the first
// measurement.
//  - shist_f32_loop: a 64-bin shared histogram of float weights read from
//    global memory, the bin a hash of the thread and the step;
//  - ghist_loop: a 256-bin histogram in global memory (counts of 1);
//  - block_sum_loop: a warp sums a value with shuffles, its lane 0 adds
//    the sum to one global float for the whole block;
//  - queue_loop: lane 0 of each warp takes 32 items from a global work
//    counter, the warp works on them (an FMA chain of 8 each);
//  - compact_loop: a warp keeps the items that pass a test, its lane 0
//    reserves room with an atomic on a shared counter, each lane writes its
//    item to shared memory at its rank;
//  - leader_lock_loop: lane 0 of each warp takes a spin lock in global
//    memory, updates a pair under it, fences and gives it back.
// At 128, 256 and 512 threads. Same method as the other held-out sets
// (loop_host.cuh): one block, clock64() around the loop, (T(2n) - T(n)) /
// n; run with `sh bench/gpu/simt/heldout.sh simt_heldout11`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__device__ __forceinline__ unsigned mix(unsigned x) {
	x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
	return x;
}

__global__ void shist_f32_loop(const float *a, float *o, long long *t, int n) {
	__shared__ float h[64];
	if (threadIdx.x < 64) h[threadIdx.x] = 0;
	START();
	for (int i = 0; i < n; i++) {
		float w = a[(i & 255) * blockDim.x + threadIdx.x];
		unsigned b = mix(threadIdx.x * 977u + (unsigned)i) & 63;
		atomicAdd(&h[b], w + 1.0f);
	}
	STOP(t);
	if (threadIdx.x < 64) o[threadIdx.x] = h[threadIdx.x];
}

__global__ void ghist_loop(unsigned *gh, long long *t, int n) {
	START();
	for (int i = 0; i < n; i++) {
		unsigned b = mix(threadIdx.x * 131u + (unsigned)i * 7919u) & 255;
		atomicAdd(&gh[b], 1u);
	}
	STOP(t);
}

__global__ void block_sum_loop(const float *a, float *sum, long long *t, int n) {
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		float v = a[(i & 255) * blockDim.x + threadIdx.x];
		for (int d = 16; d > 0; d >>= 1)
			v += __shfl_xor_sync(0xffffffffu, v, d);
		if ((threadIdx.x & 31) == 0)
			atomicAdd(sum, v);
		acc += v;
	}
	STOP(t);
	sum[1 + threadIdx.x] = acc;
}

__global__ void queue_loop(unsigned *counter, float *o, long long *t, int n) {
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned base = 0;
		if ((threadIdx.x & 31) == 0)
			base = atomicAdd(counter, 32u);
		base = __shfl_sync(0xffffffffu, base, 0);
		float x = (float)(base + (threadIdx.x & 31));
#pragma unroll
		for (int k = 0; k < 8; k++)
			x = fmaf(x, 0.999f, 1.0f);
		acc += x;
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

__global__ void compact_loop(int *o, long long *t, int n) {
	__shared__ int cnt;
	__shared__ int out[4096];
	if (threadIdx.x == 0) cnt = 0;
	int lane = threadIdx.x & 31, s = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned x = mix(threadIdx.x + (unsigned)i * 1024u);
		bool keep = x & 1;
		unsigned m = __ballot_sync(0xffffffffu, keep);
		int pos = 0;
		if (lane == 0)
			pos = atomicAdd(&cnt, __popc(m));
		pos = __shfl_sync(0xffffffffu, pos, 0);
		if (keep)
			out[(pos + __popc(m & ((1u << lane) - 1))) & 4095] = (int)x;
		s += pos;
	}
	STOP(t);
	o[threadIdx.x] = s + out[threadIdx.x];
}

__global__ void leader_lock_loop(int *g, long long *t, int n) {
	if (threadIdx.x == 0) { g[0] = 0; g[1] = 0; g[2] = 0; }
	START();
	if ((threadIdx.x & 31) == 0)
		for (int i = 0; i < n; i++) {
			while (atomicCAS(&g[0], 0, 1) != 0)
				;
			volatile int *p = g + 1;
			p[0] = p[0] + 1;
			p[1] = p[1] + 2;
			__threadfence();
			atomicExch(&g[0], 0);
		}
	STOP(t);
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	const float *fb = (const float *)buf;
	for (int blk = 128; blk <= 512; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("shist_f32_loop"), shist_f32_loop, blk, 64, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("ghist_loop"), ghist_loop, blk, 256, 2, "", (unsigned *)buf2, dt, nn);
		MEASURE(L("block_sum_loop"), block_sum_loop, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("queue_loop"), queue_loop, blk, 256, 3, "", (unsigned *)buf2, (float *)buf2 + 1024, dt, nn);
		MEASURE(L("compact_loop"), compact_loop, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("leader_lock_loop"), leader_lock_loop, blk, 16, 2, "", (int *)buf2, dt, nn);
	}
	return 0;
}
