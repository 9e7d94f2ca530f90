// sbase_probe.cu: what it costs when ptxas rebuilds a shared variable's
// address inside a loop. On sm_90 that address is the CTA's shared window
// base (S2UR SR_CgaCtaId; UMOV 0x400; ULEA ... 0x18) plus the variable's
// offset, and in loops with a block barrier the committed SASS fixtures
// show ptxas computing it again in the loop rather than keeping it in a
// register (bar_probe's bs_*, cpasync_probe's cpa_db4, mbarrier_probe's
// mb_bulk, reduce_loop, mm2x2_loop, softmax_loop, tc_pipe_loop), every
// one of them predicted fast. The model since charges latency.shared_base
// (fitted to those loops) for the address in such a loop (simt_fuse.c's
// mark_shared_bases). The loops here test that rule on loops it was not
// fitted to, each iteration a shared read, an add and a store of the sum
// that the iteration's barrier waits for:
//  - sb_sym: reads the variable by its name ([sym]): the rule charges it
//    (nvcc unrolls the loop by 4: four reads and four barriers an iteration);
//  - sb_sym1: the same kept rolled (#pragma unroll 1);
//  - sb_two: two variables read by name, one after the other: charged twice;
//  - sb_reg: sb_sym's word through an address computed before the loop
//    from a parameter (0): a register, nothing to rebuild, not charged;
//  - sb_nobar: [sym] reads without a barrier (the reads feed a chain of
//    FMAs instead): not charged;
// at 4 to 32 warps. The loops' predictions of the model at the commit that
// adds this file are in tests/fixtures/simt/probes/sbase_probe_predicted.jsonl,
// committed before the first measurement; the SASS the run records shows
// where ptxas put S2UR SR_CgaCtaId. Same method as the held-out sets
// (loop_host.cuh); run with `sh bench/gpu/simt/heldout.sh sbase_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__global__ void sb_sym(float *o, long long *t, int n) {
	__shared__ float zero[1], sink[1024];
	int tid = threadIdx.x;
	if (tid == 0) zero[0] = 0.0f;
	float x = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		x += *(volatile float *)zero;
		sink[tid] = x;
		__syncthreads();
	}
	STOP(t);
	o[tid] = sink[tid];
}

__global__ void sb_sym1(float *o, long long *t, int n) {
	__shared__ float zero[1], sink[1024];
	int tid = threadIdx.x;
	if (tid == 0) zero[0] = 0.0f;
	float x = (float)tid;
	START();
#pragma unroll 1
	for (int i = 0; i < n; i++) {
		x += *(volatile float *)zero;
		sink[tid] = x;
		__syncthreads();
	}
	STOP(t);
	o[tid] = sink[tid];
}

__global__ void sb_two(float *o, long long *t, int n) {
	__shared__ float zero[1], one[1], sink[1024];
	int tid = threadIdx.x;
	if (tid == 0) {
		zero[0] = 0.0f;
		one[0] = 1.0f;
	}
	float x = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		x = (x + *(volatile float *)zero) * *(volatile float *)one;
		sink[tid] = x;
		__syncthreads();
	}
	STOP(t);
	o[tid] = sink[tid];
}

__global__ void sb_reg(float *o, long long *t, int n, int off) {
	__shared__ float zero[1], sink[1024];
	int tid = threadIdx.x;
	if (tid == 0) zero[0] = 0.0f;
	volatile float *z = zero + off;
	float x = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		x += *z;
		sink[tid] = x;
		__syncthreads();
	}
	STOP(t);
	o[tid] = sink[tid];
}

__global__ void sb_nobar(float *o, long long *t, int n) {
	__shared__ float zero[1];
	int tid = threadIdx.x;
	if (tid == 0) zero[0] = 0.0f;
	float x = (float)tid;
	START();
	for (int i = 0; i < n; i++)
		x = x * 0.5f + *(volatile float *)zero;
	STOP(t);
	o[tid] = x;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 1024; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("sb_sym"), sb_sym, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("sb_sym1"), sb_sym1, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("sb_two"), sb_two, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("sb_reg"), sb_reg, blk, 256, 2, "3=0", (float *)buf2, dt, nn, 0);
		MEASURE(L("sb_nobar"), sb_nobar, blk, 256, 2, "", (float *)buf2, dt, nn);
	}
	return 0;
}
