// mbarrier_probe.cu: loops that synchronise through mbarrier objects (the
// split barriers of cuda::barrier, of producer/consumer pipelines and of
// cp.async.bulk copies), which `ptxray simt` simulates since f0f39b0 and
// times as shared atomics and a wait from its phase's completion, a model
// not measured before this probe. Its predictions were committed before
// the first measurement (tests/fixtures/simt/probes/
// mbarrier_probe_predicted.jsonl). The loops: every thread arrives and
// waits each iteration (mb_aw; mb_sync, the same with __syncthreads, for
// comparison); an arrive, 16 dependent FMAs, the wait (mb_split); a
// producer warp and consumer warps through a full and an empty mbarrier,
// waits by parity (mb_pipe); a cp.async.bulk of 4 KiB a iteration that
// completes its bytes on the mbarrier everyone waits for (mb_bulk).
// Same method as the held-out sets (loop_host.cuh): one block, clock64()
// around the loop, (T(2n) - T(n)) / n; run with
// `sh bench/gpu/simt/heldout.sh mbarrier_probe`, judged by
// tests/check_simt.py with the other probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(unsigned long long *b, unsigned n) {
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem(b)), "r"(n) : "memory");
}
__device__ __forceinline__ unsigned long long mb_arrive(unsigned long long *b) {
	unsigned long long st;
	asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(smem(b)) : "memory");
	return st;
}
__device__ __forceinline__ void mb_wait(unsigned long long *b, unsigned long long st) {
	unsigned ok;
	do {
		asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
		             : "=r"(ok) : "r"(smem(b)), "l"(st) : "memory");
	} while (!ok);
}
__device__ __forceinline__ void mb_wait_parity(unsigned long long *b, unsigned par) {
	unsigned ok;
	do {
		asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
		             : "=r"(ok) : "r"(smem(b)), "r"(par) : "memory");
	} while (!ok);
}

// every thread arrives and waits each iteration, 4 FMAs around it
__global__ void mb_aw(float *o, long long *t, int n) {
	__shared__ unsigned long long bar;
	int tid = threadIdx.x;
	if (tid == 0) mb_init(&bar, blockDim.x);
	float a = tid, b = 1.0001f;
	__syncthreads();
	START();
	for (int i = 0; i < n; i++) {
		a = fmaf(a, b, 1.0f);
		a = fmaf(a, b, 1.0f);
		mb_wait(&bar, mb_arrive(&bar));
		a = fmaf(a, b, 1.0f);
		a = fmaf(a, b, 1.0f);
	}
	STOP(t);
	o[tid] = a;
}

// mb_aw with __syncthreads
__global__ void mb_sync(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float a = tid, b = 1.0001f;
	START();
	for (int i = 0; i < n; i++) {
		a = fmaf(a, b, 1.0f);
		a = fmaf(a, b, 1.0f);
		__syncthreads();
		a = fmaf(a, b, 1.0f);
		a = fmaf(a, b, 1.0f);
	}
	STOP(t);
	o[tid] = a;
}

// split: the arrive, 16 dependent FMAs, the wait
__global__ void mb_split(float *o, long long *t, int n) {
	__shared__ unsigned long long bar;
	int tid = threadIdx.x;
	if (tid == 0) mb_init(&bar, blockDim.x);
	float a = tid, b = 1.0001f;
	__syncthreads();
	START();
	for (int i = 0; i < n; i++) {
		unsigned long long st = mb_arrive(&bar);
#pragma unroll
		for (int k = 0; k < 16; k++)
			a = fmaf(a, b, 1.0f);
		mb_wait(&bar, st);
	}
	STOP(t);
	o[tid] = a;
}

// warp 0 produces a slot of 32 words per iteration, the other warps read
// it: full (32 arrivals) and empty (blockDim.x - 32), waits by parity
__global__ void mb_pipe(float *o, long long *t, int n) {
	__shared__ unsigned long long full, empty;
	__shared__ float slot[32];
	int tid = threadIdx.x, lane = tid & 31;
	if (tid == 0) {
		mb_init(&full, 32);
		mb_init(&empty, blockDim.x - 32);
	}
	float a = 0;
	__syncthreads();
	START();
	if (tid < 32) {
		for (int i = 0; i < n; i++) {
			mb_wait_parity(&empty, (i + 1) & 1);
			slot[lane] = a + i;
			mb_arrive(&full);
		}
	} else {
		for (int i = 0; i < n; i++) {
			mb_wait_parity(&full, i & 1);
			a = fmaf(slot[lane], 1.0001f, a);
			mb_arrive(&empty);
		}
	}
	STOP(t);
	o[tid] = a;
}

// thread 0 copies 4 KiB a iteration with cp.async.bulk, completing its
// bytes on the mbarrier every thread arrives on and waits for by parity;
// each thread then reads 4 words of it
__global__ void mb_bulk(const float *g, float *o, long long *t, int n) {
	__shared__ alignas(128) float tile[1024];
	__shared__ unsigned long long bar;
	int tid = threadIdx.x;
	if (tid == 0) mb_init(&bar, blockDim.x);
	float a = 0;
	__syncthreads();
	START();
	for (int i = 0; i < n; i++) {
		if (tid == 0) {
			asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 4096;" :: "r"(smem(&bar)) : "memory");
			asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 4096, [%2];"
			             :: "r"(smem(tile)), "l"(g + (i & 15) * 1024), "r"(smem(&bar)) : "memory");
		} else {
			mb_arrive(&bar);
		}
		mb_wait_parity(&bar, i & 1);
		a += tile[tid & 1023] + tile[(tid + 256) & 1023] + tile[(tid + 512) & 1023] + tile[(tid + 768) & 1023];
		__syncthreads();
	}
	STOP(t);
	o[tid] = a;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 1024; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("mb_aw"), mb_aw, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("mb_sync"), mb_sync, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("mb_split"), mb_split, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("mb_pipe"), mb_pipe, blk, 256, 2, "", (float *)buf2, dt, nn);
		if (blk <= 512)
			MEASURE(L("mb_bulk"), mb_bulk, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
	}
	return 0;
}
