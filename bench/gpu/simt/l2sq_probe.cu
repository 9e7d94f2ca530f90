// l2sq_probe.cu: how much of a burst of global stores the SM takes in
// before a warp's next store waits for the write path to L2
// (throughput.global_store_sector and global_store_partial_line give the
// path's rate, l2st_probe; this, the backlog it accepts,
// throughput.global_store_queue). An iteration: every warp stores B times
// (at once: a barrier ends the iteration before), then runs a dependent
// chain of 256 FFMAs (the queue drains meanwhile), then the barrier. Where
// the backlog a burst leaves fits the queue, no warp waits and the
// iteration is the chain's; beyond it, the warps wait for the path before
// their chains start. Two kinds of store:
//  - sq_s32_bB: 8 bytes a lane at a 32-byte stride (32 sectors on 8
//    lines: 40 cycles of the path), B = 1, 2, 4, 8;
//  - sq_co_bB: 4 bytes a lane, coalesced (4 sectors: 4 cycles), B = 4,
//    16, 64;
// at 128 and 512 threads. Run with `sh bench/gpu/simt/heldout.sh
// l2sq_probe`; judged by tests/check_simt.py with the other probes
// (tests/fixtures/simt/probes/). Same method as the held-out sets
// (loop_host.cuh): one block, clock64() around the loop, (T(2n) - T(n)) / n.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define D_MASK ((1 << 19) - 1)
#define F_MASK ((1 << 20) - 1)

__global__ void sq_s32_b1(double *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float x = tid * 1e-3f, y = 1.0f + tid * 1e-9f;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 1 * nb + tid) * 4;
#pragma unroll
		for (int b = 0; b < 1; b++)
			a[(k + b * 4 * nb) & D_MASK] = x;
#pragma unroll
		for (int j = 0; j < 256; j++)
			x = fmaf(x, y, 1e-7f);
		__syncthreads();
	}
	STOP(t);
	o[tid] = x;
}

__global__ void sq_s32_b2(double *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float x = tid * 1e-3f, y = 1.0f + tid * 1e-9f;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 2 * nb + tid) * 4;
#pragma unroll
		for (int b = 0; b < 2; b++)
			a[(k + b * 4 * nb) & D_MASK] = x;
#pragma unroll
		for (int j = 0; j < 256; j++)
			x = fmaf(x, y, 1e-7f);
		__syncthreads();
	}
	STOP(t);
	o[tid] = x;
}

__global__ void sq_s32_b4(double *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float x = tid * 1e-3f, y = 1.0f + tid * 1e-9f;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) * 4;
#pragma unroll
		for (int b = 0; b < 4; b++)
			a[(k + b * 4 * nb) & D_MASK] = x;
#pragma unroll
		for (int j = 0; j < 256; j++)
			x = fmaf(x, y, 1e-7f);
		__syncthreads();
	}
	STOP(t);
	o[tid] = x;
}

__global__ void sq_s32_b8(double *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float x = tid * 1e-3f, y = 1.0f + tid * 1e-9f;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 8 * nb + tid) * 4;
#pragma unroll
		for (int b = 0; b < 8; b++)
			a[(k + b * 4 * nb) & D_MASK] = x;
#pragma unroll
		for (int j = 0; j < 256; j++)
			x = fmaf(x, y, 1e-7f);
		__syncthreads();
	}
	STOP(t);
	o[tid] = x;
}

__global__ void sq_co_b4(float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float x = tid * 1e-3f, y = 1.0f + tid * 1e-9f;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) * 1;
#pragma unroll
		for (int b = 0; b < 4; b++)
			a[(k + b * 1 * nb) & F_MASK] = x;
#pragma unroll
		for (int j = 0; j < 256; j++)
			x = fmaf(x, y, 1e-7f);
		__syncthreads();
	}
	STOP(t);
	o[tid] = x;
}

__global__ void sq_co_b16(float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float x = tid * 1e-3f, y = 1.0f + tid * 1e-9f;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 16 * nb + tid) * 1;
#pragma unroll
		for (int b = 0; b < 16; b++)
			a[(k + b * 1 * nb) & F_MASK] = x;
#pragma unroll
		for (int j = 0; j < 256; j++)
			x = fmaf(x, y, 1e-7f);
		__syncthreads();
	}
	STOP(t);
	o[tid] = x;
}

__global__ void sq_co_b64(float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float x = tid * 1e-3f, y = 1.0f + tid * 1e-9f;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 64 * nb + tid) * 1;
#pragma unroll
		for (int b = 0; b < 64; b++)
			a[(k + b * 1 * nb) & F_MASK] = x;
#pragma unroll
		for (int j = 0; j < 256; j++)
			x = fmaf(x, y, 1e-7f);
		__syncthreads();
	}
	STOP(t);
	o[tid] = x;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("sq_s32_b1"), sq_s32_b1, blk, 64, 3, "", (double *)buf2, (float *)buf, dt, nn);
		MEASURE(L("sq_s32_b2"), sq_s32_b2, blk, 64, 3, "", (double *)buf2, (float *)buf, dt, nn);
		MEASURE(L("sq_s32_b4"), sq_s32_b4, blk, 64, 3, "", (double *)buf2, (float *)buf, dt, nn);
		MEASURE(L("sq_s32_b8"), sq_s32_b8, blk, 64, 3, "", (double *)buf2, (float *)buf, dt, nn);
		MEASURE(L("sq_co_b4"), sq_co_b4, blk, 64, 3, "", (float *)buf2, (float *)buf, dt, nn);
		MEASURE(L("sq_co_b16"), sq_co_b16, blk, 64, 3, "", (float *)buf2, (float *)buf, dt, nn);
		MEASURE(L("sq_co_b64"), sq_co_b64, blk, 64, 3, "", (float *)buf2, (float *)buf, dt, nn);
	}
	return 0;
}
