// bx_probe.cu: what a block barrier waits for when lanes of a warp are
// still in a divergent branch. chain4_probe's traces (H100) showed thread
// 0 reading its clock after the STOP barrier (WARPSYNC.ALL, then
// BAR.SYNC.DEFER_BLOCKING) at 8,387 cycles while lane 0 of warp 1 was
// polling until 36,131: the barrier did not wait for it. Each kernel here
// records every thread's clock after the barrier (ex, relative to t0) and
// lane 0's clock after each step (tr), which the host writes to
// $OUT/bx_trace.jsonl:
//  - bx_link: chain4_probe's tr_link (lane 0 polls warp w - 1's flag,
//    volatile, YIELD; publishes its own);
//  - bx_full: chain_probe's cs_full (the warp's scan, lane 0's look-back
//    between BSSY and BSYNC, then __shfl_sync from lane 0 each iteration);
//  - bx_fma: lane 0 alone runs n steps of a dependent FFMA chain, 8 FFMAs a
//    step in warp 0, 64 in the others (no memory, no YIELD);
//  - bx_fma_all: the same work by every lane (no divergence), the control;
//  - bx_poll: lane 0 of warps 1 and up polls a word set before the loop,
//    volatile (YIELD in the loop), n times; warp 0 does nothing;
//  - bx_two: bx_fma with a second barrier after the first, and the clock
//    after it.
// The loops also through MEASURE. Run with
// `sh bench/gpu/simt/heldout.sh bx_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;
// every thread's clock after the barrier, behind the step records
#define EXIT_CLOCK() tr[65536 + threadIdx.x] = t1 - t0;
#define STEP_CLOCK(i) if (lane == 0) tr[w * 4096 + (i)] = clock64() - t0;

__device__ __forceinline__ unsigned mix(unsigned x) {
	x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
	return x;
}

__global__ void bx_link(unsigned long long *flags, long long *tr, unsigned *y, long long *t, int n) {
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
			STEP_CLOCK(i);
		}
	STOP(t);
	EXIT_CLOCK();
	y[tid] = prefix;
}

__global__ void bx_full(unsigned long long *flags, long long *tr, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < n * nw; k += nb)
		flags[k] = 0ull;
	START();
	for (int i = 0; i < n; i++) {
		unsigned v = mix((unsigned)(i * nb + tid)) & 255u, sc = v;
		for (int d = 1; d < 32; d <<= 1) {
			unsigned u = __shfl_up_sync(0xffffffffu, sc, d);
			if (lane >= d)
				sc += u;
		}
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
		STEP_CLOCK(i);
	}
	STOP(t);
	EXIT_CLOCK();
}

__global__ void bx_fma(unsigned long long *flags, long long *tr, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
	float z = (float)tid * 1e-3f;
	START();
	if (lane == 0)
		for (int i = 0; i < n; i++) {
			if (w == 0) {
#pragma unroll
				for (int k = 0; k < 8; k++)
					z = fmaf(z, 0.999f, 0.001f);
			} else {
#pragma unroll
				for (int k = 0; k < 64; k++)
					z = fmaf(z, 0.999f, 0.001f);
			}
			STEP_CLOCK(i);
		}
	STOP(t);
	EXIT_CLOCK();
	y[tid] = (unsigned)z;
}

__global__ void bx_fma_all(unsigned long long *flags, long long *tr, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
	float z = (float)tid * 1e-3f;
	START();
	for (int i = 0; i < n; i++) {
		if (w == 0) {
#pragma unroll
			for (int k = 0; k < 8; k++)
				z = fmaf(z, 0.999f, 0.001f);
		} else {
#pragma unroll
			for (int k = 0; k < 64; k++)
				z = fmaf(z, 0.999f, 0.001f);
		}
		STEP_CLOCK(i);
	}
	STOP(t);
	EXIT_CLOCK();
	y[tid] = (unsigned)z;
}

__global__ void bx_poll(unsigned long long *flags, long long *tr, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < n * nw; k += nb)
		flags[k] = (1ull << 32) | 1ull;
	unsigned prefix = 0;
	START();
	if (lane == 0 && w > 0)
		for (int i = 0; i < n; i++) {
			volatile unsigned long long *f = flags + i * nw + w;
			unsigned long long fv;
			while (((fv = *f) >> 32) == 0ull)
				;
			prefix += (unsigned)fv;
			STEP_CLOCK(i);
		}
	STOP(t);
	EXIT_CLOCK();
	y[tid] = prefix;
}

__global__ void bx_two(unsigned long long *flags, long long *tr, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
	float z = (float)tid * 1e-3f;
	START();
	if (lane == 0)
		for (int i = 0; i < n; i++) {
			if (w == 0) {
#pragma unroll
				for (int k = 0; k < 8; k++)
					z = fmaf(z, 0.999f, 0.001f);
			} else {
#pragma unroll
				for (int k = 0; k < 64; k++)
					z = fmaf(z, 0.999f, 0.001f);
			}
			STEP_CLOCK(i);
		}
	__syncthreads();
	STOP(t);
	EXIT_CLOCK();
	y[tid] = (unsigned)z;
}

// ---- host ----
#include "loop_host.cuh"

typedef void (*bxk)(unsigned long long *, long long *, unsigned *, long long *, int);

// one launch at n steps: lane 0's step clocks of each warp and every
// thread's clock after the barrier, as JSON lines
static void trace(FILE *f, const char *name, bxk k, int block, int n, unsigned long long *fl, long long *tr, unsigned *yy) {
	int nw = block / 32;
	CK(cudaMemset(tr, 0xff, (65536 + 1024) * sizeof(long long)));
	k<<<1, block>>>(fl, tr, yy, dt, n);
	long long tot = take();
	long long *h = (long long *)malloc((65536 + 1024) * sizeof *h);
	CK(cudaMemcpy(h, tr, (65536 + 1024) * sizeof *h, cudaMemcpyDeviceToHost));
	fprintf(f, "{\"trace\": \"%s/%d\", \"n\": %d, \"total\": %lld, \"exit\": [", name, block, n, tot);
	for (int i = 0; i < block; i++)
		fprintf(f, "%s%lld", i ? ", " : "", h[65536 + i]);
	fprintf(f, "]}\n");
	for (int w = 0; w < nw; w++) {
		fprintf(f, "{\"trace\": \"%s/%d\", \"w\": %d, \"steps\": [", name, block, w);
		for (int i = 0; i < n; i++)
			fprintf(f, "%s%lld", i ? ", " : "", h[w * 4096 + i]);
		fprintf(f, "]}\n");
	}
	free(h);
}

int main(void) {
	loop_host_init();
	char l[64];
	unsigned long long *fl = (unsigned long long *)buf2 + 8192;
	long long *tr = (long long *)buf2 + (1 << 20);
	unsigned *yy = (unsigned *)buf2 + (1 << 23);
#define L(s, b) (snprintf(l, sizeof l, "%s/%d", s, b), l)
	MEASURE(L("bx_link", 64), bx_link, 64, 64, 4, "", fl, tr, yy, dt, nn);
	MEASURE(L("bx_link", 128), bx_link, 128, 64, 4, "", fl, tr, yy, dt, nn);
	MEASURE(L("bx_full", 64), bx_full, 64, 64, 4, "", fl, tr, yy, dt, nn);
	MEASURE(L("bx_full", 128), bx_full, 128, 64, 4, "", fl, tr, yy, dt, nn);
	MEASURE(L("bx_fma", 64), bx_fma, 64, 64, 4, "", fl, tr, yy, dt, nn);
	MEASURE(L("bx_fma", 128), bx_fma, 128, 64, 4, "", fl, tr, yy, dt, nn);
	MEASURE(L("bx_fma_all", 128), bx_fma_all, 128, 64, 4, "", fl, tr, yy, dt, nn);
	MEASURE(L("bx_poll", 64), bx_poll, 64, 64, 4, "", fl, tr, yy, dt, nn);
	MEASURE(L("bx_poll", 128), bx_poll, 128, 64, 4, "", fl, tr, yy, dt, nn);
	MEASURE(L("bx_two", 128), bx_two, 128, 64, 4, "", fl, tr, yy, dt, nn);
	const char *o = getenv("OUT");
	char p[512];
	snprintf(p, sizeof p, "%s/bx_trace.jsonl", o ? o : "/tmp");
	FILE *f = fopen(p, "w");
	if (!f) { perror(p); return 1; }
	trace(f, "bx_link", bx_link, 64, 64, fl, tr, yy);
	trace(f, "bx_link", bx_link, 128, 64, fl, tr, yy);
	trace(f, "bx_full", bx_full, 64, 64, fl, tr, yy);
	trace(f, "bx_full", bx_full, 128, 64, fl, tr, yy);
	trace(f, "bx_fma", bx_fma, 128, 64, fl, tr, yy);
	trace(f, "bx_fma_all", bx_fma_all, 128, 64, fl, tr, yy);
	trace(f, "bx_poll", bx_poll, 128, 64, fl, tr, yy);
	trace(f, "bx_two", bx_two, 128, 64, fl, tr, yy);
	fclose(f);
	return 0;
}
