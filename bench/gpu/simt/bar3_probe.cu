// bar3_probe.cu: what a block barrier (__syncthreads) costs when the warps'
// first memory access after it is a global load. bar2_probe.cu measured
// 32 warps that arrive together and then read shared memory (bt_none):
// 106.7 cycles an iteration at 32 warps, as if the barrier let the warps go
// about 2 cycles apart, while the model (12 + 2 cycles a warp after the
// last arrival, for every warp) predicts 169.5. Letting them go 2 cycles
// apart in arrival order fits bar2_probe and barrier_loop, but predicts the
// tiled loops that load global memory after a barrier (conv1d_loop,
// stencil1d_loop, transpose_loop) 10 to 15 points faster than measured.
// These loops separate the two: each warp, after the barrier,
//  - bg_lds: reads its word of shared memory, adds, writes it back (bt_none);
//  - bg_ldg: reads its word of global memory (one of two lines a warp,
//    in turn, in the L1 after the first iterations), adds, writes the sum
//    to shared memory;
//  - bg_ldg2: the same with two global loads from two lines;
//  - bg_stg: reads its shared word, adds, writes the sum to global memory;
// then the barrier; at 4 to 32 warps. Every memory access is behind the
// barrier (ptxas moves none across BAR.SYNC). The loops' predictions of the
// model at the commit that adds this file are in
// tests/fixtures/simt/probes/bar3_probe_predicted.jsonl, committed before
// the first measurement; the arrival-order release's are in
// bar3_probe_predicted_arrival.jsonl (the experiment of the tenth session,
// bench/RESULTS.md), computed from the same PTX before the measurement too.
// Same method as the held-out sets (loop_host.cuh); run with
// `sh bench/gpu/simt/heldout.sh bar3_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__global__ void bg_lds(const float *g, float *o, long long *t, int n) {
	__shared__ float s[1024];
	int tid = threadIdx.x;
	s[tid] = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		float x = s[tid];
		s[tid] = x + 1.0f;
		__syncthreads();
	}
	STOP(t);
	o[tid] = s[tid];
}

__global__ void bg_ldg(const float *g, float *o, long long *t, int n) {
	__shared__ float s[1024];
	int tid = threadIdx.x;
	s[tid] = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		float x = g[tid + (i & 1) * 1024];
		s[tid] = x + (float)i;
		__syncthreads();
	}
	STOP(t);
	o[tid] = s[tid];
}

__global__ void bg_ldg2(const float *g, float *o, long long *t, int n) {
	__shared__ float s[1024];
	int tid = threadIdx.x;
	s[tid] = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		float x = g[tid + (i & 1) * 2048], y = g[tid + 1024 + (i & 1) * 2048];
		s[tid] = x + y + (float)i;
		__syncthreads();
	}
	STOP(t);
	o[tid] = s[tid];
}

__global__ void bg_stg(const float *g, float *o, long long *t, int n) {
	__shared__ float s[1024];
	int tid = threadIdx.x;
	s[tid] = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		float x = s[tid];
		o[tid] = x + (float)i;
		__syncthreads();
	}
	STOP(t);
	o[tid] += s[tid];
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 1024; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("bg_lds"), bg_lds, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
		MEASURE(L("bg_ldg"), bg_ldg, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
		MEASURE(L("bg_ldg2"), bg_ldg2, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
		MEASURE(L("bg_stg"), bg_stg, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
	}
	return 0;
}
