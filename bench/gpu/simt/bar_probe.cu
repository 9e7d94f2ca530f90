// bar_probe.cu: what a block barrier (__syncthreads, BAR.SYNC) costs when
// the warps arrive at different times. The model's figures for it
// (latency.barrier 12, barrier_per_warp 2) come from barrier_loop, whose
// warps all arrive together after one add: it charges 12 + 2 cycles a warp
// from the last arrival, for every warp. The loops here spread the
// arrivals: warp w runs w * K dependent FMAs between two barriers (bs_up),
// or (W - 1 - w) * K (bs_down: the last warp arrives first), K = 0, 2, 8,
// at 4 to 32 warps; bs_even gives every warp the same 8 FMAs. The chain of
// each stretch starts from a shared word read after the barrier and ends in
// a store to shared memory taken only for a value it never has, so that
// ptxas keeps the FMAs between the two barriers (it moves register-only
// work across BAR.SYNC otherwise, as in mbarrier_probe's mb_sync).
// The loops' predictions (model at the commit that adds this file) are in
// tests/fixtures/simt/probes/bar_probe_predicted.jsonl, committed before
// the first measurement. bs_stamps (not a loop) records, for 8 barriers in
// a row, each warp's clock64() just before its BAR.SYNC and just after it
// ({"stamps": ...} lines): the order and the spacing in which the barrier
// lets the warps go. Same loop method as the held-out sets (loop_host.cuh);
// run with `sh bench/gpu/simt/heldout.sh bar_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// m dependent FMAs from the word zero (always 0.0f) on; the result goes to
// sink only when it is exactly 12345 (never)
__device__ __forceinline__ void stretch(volatile float *zero, float *sink, float b, int m) {
	float x = zero[0] + (float)threadIdx.x;
	for (int j = 0; j < m; j++)
		x = fmaf(x, b, 1.0f);
	if (x == 12345.0f)
		sink[threadIdx.x & 31] = x;
}

// warp w: w * k FMAs between barriers
__global__ void bs_up(float *o, long long *t, int n, int k) {
	__shared__ float zero[1], sink[32];
	if (threadIdx.x == 0) zero[0] = 0.0f;
	int m = (threadIdx.x >> 5) * k;
	START();
	for (int i = 0; i < n; i++) {
		stretch(zero, sink, 1.0001f, m);
		__syncthreads();
	}
	STOP(t);
	o[threadIdx.x] = sink[threadIdx.x & 31];
}

// warp w: (W - 1 - w) * k FMAs between barriers
__global__ void bs_down(float *o, long long *t, int n, int k) {
	__shared__ float zero[1], sink[32];
	if (threadIdx.x == 0) zero[0] = 0.0f;
	int m = ((blockDim.x >> 5) - 1 - (threadIdx.x >> 5)) * k;
	START();
	for (int i = 0; i < n; i++) {
		stretch(zero, sink, 1.0001f, m);
		__syncthreads();
	}
	STOP(t);
	o[threadIdx.x] = sink[threadIdx.x & 31];
}

// every warp: k FMAs between barriers
__global__ void bs_even(float *o, long long *t, int n, int k) {
	__shared__ float zero[1], sink[32];
	if (threadIdx.x == 0) zero[0] = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		stretch(zero, sink, 1.0001f, k);
		__syncthreads();
	}
	STOP(t);
	o[threadIdx.x] = sink[threadIdx.x & 31];
}

// 8 barriers in a row after stretches of warp w * k (down: (W - 1 - w) * k)
// FMAs; lane 0 of each warp records its clock just before and just after
// each barrier: st[(b * W + w) * 2 + {0, 1}]
__global__ void bs_stamps(long long *st, int k, int down) {
	__shared__ float zero[1], sink[32];
	if (threadIdx.x == 0) zero[0] = 0.0f;
	int W = blockDim.x >> 5, w = threadIdx.x >> 5;
	int m = (down ? W - 1 - w : w) * k;
	__syncthreads();
	for (int b = 0; b < 8; b++) {
		stretch(zero, sink, 1.0001f, m);
		long long a = clock64();
		__syncthreads();
		long long l = clock64();
		if ((threadIdx.x & 31) == 0) {
			st[(b * W + w) * 2] = a;
			st[(b * W + w) * 2 + 1] = l;
		}
	}
}

// ---- host ----
#include "loop_host.cuh"

static void stamps(int blk, int k, int down) {
	int W = blk / 32;
	long long *d, h[8 * 32 * 2];
	CK(cudaMalloc(&d, sizeof h));
	for (int r = 0; r < 3; r++) {   // the third launch's: the code is warm
		bs_stamps<<<1, blk>>>(d, k, down);
		CK(cudaDeviceSynchronize());
	}
	CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	CK(cudaFree(d));
	long long base = h[0];
	for (int i = 0; i < 8 * W * 2; i++)
		if (h[i] < base) base = h[i];
	for (int b = 0; b < 8; b++) {
		printf("{\"stamps\": \"%s\", \"block\": %d, \"k\": %d, \"barrier\": %d, \"arrive\": [", down ? "down" : "up", blk, k, b);
		for (int w = 0; w < W; w++)
			printf("%s%lld", w ? ", " : "", h[(b * W + w) * 2] - base);
		printf("], \"leave\": [");
		for (int w = 0; w < W; w++)
			printf("%s%lld", w ? ", " : "", h[(b * W + w) * 2 + 1] - base);
		printf("]}\n");
	}
	fflush(stdout);
}

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 1024; blk *= 2) {
		for (int k = 0; k <= 8; k = k ? k * 4 : 2) {
#define L(s) (snprintf(l, sizeof l, "%s_k%d/%d", s, k, blk), l)
			char ex[16];
			snprintf(ex, sizeof ex, "3=%d", k);
			MEASURE(L("bs_up"), bs_up, blk, 256, 2, ex, (float *)buf2, dt, nn, k);
			if (k)
				MEASURE(L("bs_down"), bs_down, blk, 256, 2, ex, (float *)buf2, dt, nn, k);
		}
		int k = 8;
		char ex[16];
		snprintf(ex, sizeof ex, "3=%d", k);
		MEASURE(L("bs_even"), bs_even, blk, 256, 2, ex, (float *)buf2, dt, nn, k);
	}
	for (int blk = 128; blk <= 1024; blk *= 2)
		for (int k = 0; k <= 8; k = k ? k * 4 : 2)
			for (int down = 0; down <= (k ? 1 : 0); down++)
				stamps(blk, k, down);
	return 0;
}
