// l1line_probe.cu: what a warp's L1-hit load costs the SM when its lanes
// touch many lines: per line (the L1's tag stage) or per conflicting bank
// (the data stage's 32 banks: the timing model's wavefronts). Held-out
// 21's varint_decode_loop (a byte a lane from streams 256 bytes apart)
// is 45% slower at 512 threads than the model, which counts the banks;
// the known 32-line case (l1_gather_tput, 128-byte stride) puts every lane
// on one bank and so cannot tell the two apart. 4-byte loads, every warp
// reading the same 72 KiB (L1-resident after the first pass), four
// independent loads a thread an iteration, lane l at word l S + a base
// that moves with (i & 15) (64 bases 1,056 bytes apart):
//  - l1l_st33: 32 lines, every lane on a bank of its own (a 132-byte stride);
//  - l1l_st32: 32 lines, every lane on bank 0 (a 128-byte stride: l1_gather_tput's shape);
//  - l1l_st17: 17 lines, every lane on a bank of its own (68 bytes);
//  - l1l_st9: 9 lines, every lane on a bank of its own (36 bytes);
//  - l1l_st1: 1 line, coalesced (4 bytes);
// at 128 and 512 threads. Run with `sh bench/gpu/simt/heldout.sh
// l1line_probe`; judged by tests/check_simt.py with the other probes.
// Same method as the held-out sets (loop_host.cuh).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__global__ void l1l_st33(const float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, lane = tid & 31;
	float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i & 15) * 4 * 264 + lane * 33;
		s0 += a[k];
		s1 += a[k + 264];
		s2 += a[k + 2 * 264];
		s3 += a[k + 3 * 264];
	}
	STOP(t);
	o[tid] = s0 + s1 + s2 + s3;
}

__global__ void l1l_st32(const float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, lane = tid & 31;
	float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i & 15) * 4 * 264 + lane * 32;
		s0 += a[k];
		s1 += a[k + 264];
		s2 += a[k + 2 * 264];
		s3 += a[k + 3 * 264];
	}
	STOP(t);
	o[tid] = s0 + s1 + s2 + s3;
}

__global__ void l1l_st17(const float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, lane = tid & 31;
	float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i & 15) * 4 * 264 + lane * 17;
		s0 += a[k];
		s1 += a[k + 264];
		s2 += a[k + 2 * 264];
		s3 += a[k + 3 * 264];
	}
	STOP(t);
	o[tid] = s0 + s1 + s2 + s3;
}

__global__ void l1l_st9(const float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, lane = tid & 31;
	float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i & 15) * 4 * 264 + lane * 9;
		s0 += a[k];
		s1 += a[k + 264];
		s2 += a[k + 2 * 264];
		s3 += a[k + 3 * 264];
	}
	STOP(t);
	o[tid] = s0 + s1 + s2 + s3;
}

__global__ void l1l_st1(const float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, lane = tid & 31;
	float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i & 15) * 4 * 264 + lane * 1;
		s0 += a[k];
		s1 += a[k + 264];
		s2 += a[k + 2 * 264];
		s3 += a[k + 3 * 264];
	}
	STOP(t);
	o[tid] = s0 + s1 + s2 + s3;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("l1l_st33"), l1l_st33, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
		MEASURE(L("l1l_st32"), l1l_st32, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
		MEASURE(L("l1l_st17"), l1l_st17, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
		MEASURE(L("l1l_st9"), l1l_st9, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
		MEASURE(L("l1l_st1"), l1l_st1, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
	}
	return 0;
}
