// sbase2_probe.cu: the second test of the shared-window-base rule
// (simt_fuse.c's mark_shared_bases). sbase_probe.cu refuted its first form
// blind: in a loop with a block barrier but no inner loop ptxas keeps a
// shared variable's address in a register (sb_sym: S2UR SR_CgaCtaId before
// the loop, predicted 96 cycles at 4 warps, measured 51). Its second form,
// fitted to the committed SASS of every kernel that names a shared
// variable in a loop (11 of 11 rebuild the base there when the loop holds
// an inner loop), charges latency.shared_base in a loop that holds an
// inner loop and a block barrier. The loops here read a shared word, run
// k dependent FMAs on it in an inner loop (k a parameter, 0 or 8), store
// the result to shared memory and wait at a barrier:
//  - sn_in: the word read by the variable's name ([sym]): charged;
//  - sn_reg: through an address computed before the loop from a
//    parameter (0): a register, not charged;
//  - sn_arr: an element of a shared array at an index that changes each
//    iteration, its base computed before the loop in the PTX: not charged;
//  - sn_nobar: sn_in without the barrier: not charged;
// at 4 and 16 warps. The loops' predictions of the model at the commit that
// adds this file are in tests/fixtures/simt/probes/sbase2_probe_predicted.jsonl,
// committed before the first measurement. Same method as the held-out
// sets (loop_host.cuh); run with `sh bench/gpu/simt/heldout.sh sbase2_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__global__ void sn_in(float *o, long long *t, int n, int k) {
	__shared__ float zero[1], sink[1024];
	int tid = threadIdx.x;
	if (tid == 0) zero[0] = 0.0f;
	float x = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		float v = *(volatile float *)zero + x;
		for (int j = 0; j < k; j++)
			v = fmaf(v, 0.5f, 1.0f);
		x = v;
		sink[tid] = x;
		__syncthreads();
	}
	STOP(t);
	o[tid] = sink[tid];
}

__global__ void sn_reg(float *o, long long *t, int n, int k, int off) {
	__shared__ float zero[1], sink[1024];
	int tid = threadIdx.x;
	if (tid == 0) zero[0] = 0.0f;
	volatile float *z = zero + off;
	float x = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		float v = *z + x;
		for (int j = 0; j < k; j++)
			v = fmaf(v, 0.5f, 1.0f);
		x = v;
		sink[tid] = x;
		__syncthreads();
	}
	STOP(t);
	o[tid] = sink[tid];
}

__global__ void sn_arr(float *o, long long *t, int n, int k) {
	__shared__ float s[1024], sink[1024];
	int tid = threadIdx.x;
	s[tid] = 0.0f;
	float x = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		float v = s[(i * 33 + tid) & 1023] + x;
		for (int j = 0; j < k; j++)
			v = fmaf(v, 0.5f, 1.0f);
		x = v;
		sink[tid] = x;
		__syncthreads();
	}
	STOP(t);
	o[tid] = sink[tid];
}

__global__ void sn_nobar(float *o, long long *t, int n, int k) {
	__shared__ float zero[1], sink[1024];
	int tid = threadIdx.x;
	if (tid == 0) zero[0] = 0.0f;
	float x = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		float v = *(volatile float *)zero + x;
		for (int j = 0; j < k; j++)
			v = fmaf(v, 0.5f, 1.0f);
		x = v;
		sink[tid] = x;
	}
	STOP(t);
	o[tid] = sink[tid];
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 512; blk *= 4) {
		for (int k = 0; k <= 8; k += 8) {
#define L(s) (snprintf(l, sizeof l, "%s_k%d/%d", s, k, blk), l)
			char ex[16];
			snprintf(ex, sizeof ex, "3=%d", k);
			MEASURE(L("sn_in"), sn_in, blk, 256, 2, ex, (float *)buf2, dt, nn, k);
			snprintf(ex, sizeof ex, "3=%d,4=0", k);
			MEASURE(L("sn_reg"), sn_reg, blk, 256, 2, ex, (float *)buf2, dt, nn, k, 0);
			snprintf(ex, sizeof ex, "3=%d", k);
			MEASURE(L("sn_arr"), sn_arr, blk, 256, 2, ex, (float *)buf2, dt, nn, k);
			MEASURE(L("sn_nobar"), sn_nobar, blk, 256, 2, ex, (float *)buf2, dt, nn, k);
		}
	}
	return 0;
}
