// reunroll_probe.cu: a blind test of the rule that ptxas unrolls a short
// counted loop by 4 again (simt_fuse.c's mark_reunrolled, read off the
// committed SASS in the twentieth session: nvcc unrolls a loop with a trip
// count known at run time by 4; ptxas rewrites one of at most 23 issuing
// instructions into 16-, 8- and 4-body parts). Loops around that size:
//  - ru_in_mM: kloop_probe's kl_fma with M dependent FMAs an inner
//    iteration (4M FMAs and three more, 7 to 35, and M + 1 constants the
//    rule counts too: 9, 19, 29, 34, 44 for M = 1, 3, 5, 6, 8, the rule
//    says the first two are unrolled again; not counted, also M = 5), trip
//    count k = 4 (the part checks' cost on leaving) and 32 (the back edges
//    three of four free);
//  - ru_ld_mM: sbase_probe's sb_nobar with M volatile shared loads, each
//    added into its own FMA chain, an iteration (11, 19 and 27 for M = 1,
//    2, 3): the timed loop itself, the next copy's loads issued ahead.
// At 32 and 128 threads (ru_in), 128 and 512 (ru_ld). The loops'
// predictions of the model at the commit that adds this file are in
// tests/fixtures/simt/probes/reunroll_probe_predicted.jsonl, committed
// before the first measurement; the SASS the run records says which loops
// ptxas unrolled again. Same method as the held-out sets (loop_host.cuh);
// run with `sh bench/gpu/simt/heldout.sh reunroll_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

template <int M>
__device__ __forceinline__ void ru_in(float *o, long long *t, int n, int k, int off) {
	__shared__ float zero[1], sink[1024];
	int tid = threadIdx.x;
	if (tid == 0) zero[0] = 0.0f;
	volatile float *z = zero + off;
	float x = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		float v = *z + x;
		for (int j = 0; j < k; j++) {
#pragma unroll
			for (int q = 0; q < M; q++)
				v = fmaf(v, 0.5f, 1.0f + (float)q);
		}
		x = v;
		sink[tid] = x;
		__syncthreads();
	}
	STOP(t);
	o[tid] = sink[tid];
}

template <int M>
__device__ __forceinline__ void ru_ld(float *o, long long *t, int n) {
	__shared__ float zero[4];
	int tid = threadIdx.x;
	if (tid < 4) zero[tid] = 0.0f;
	float x[M];
#pragma unroll
	for (int q = 0; q < M; q++)
		x[q] = (float)(tid + q);
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int q = 0; q < M; q++)
			x[q] = x[q] * 0.5f + ((volatile float *)zero)[q];
	}
	STOP(t);
	float s = 0.0f;
#pragma unroll
	for (int q = 0; q < M; q++)
		s += x[q];
	o[tid] = s;
}

// (named kernels: the simulator and the SASS find them by name)
__global__ void ru_in_m1(float *o, long long *t, int n, int k, int off) { ru_in<1>(o, t, n, k, off); }
__global__ void ru_in_m3(float *o, long long *t, int n, int k, int off) { ru_in<3>(o, t, n, k, off); }
__global__ void ru_in_m5(float *o, long long *t, int n, int k, int off) { ru_in<5>(o, t, n, k, off); }
__global__ void ru_in_m6(float *o, long long *t, int n, int k, int off) { ru_in<6>(o, t, n, k, off); }
__global__ void ru_in_m8(float *o, long long *t, int n, int k, int off) { ru_in<8>(o, t, n, k, off); }
__global__ void ru_ld_m1(float *o, long long *t, int n) { ru_ld<1>(o, t, n); }
__global__ void ru_ld_m2(float *o, long long *t, int n) { ru_ld<2>(o, t, n); }
__global__ void ru_ld_m3(float *o, long long *t, int n) { ru_ld<3>(o, t, n); }

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64], ex[32];
	static const int ks[] = {4, 32};
	for (int blk = 32; blk <= 128; blk *= 4) {
		for (unsigned q = 0; q < sizeof ks / sizeof ks[0]; q++) {
			int k = ks[q];
			snprintf(ex, sizeof ex, "3=%d,4=0", k);
#define IN(M)                                                                   \
			snprintf(l, sizeof l, "ru_in_m%d_k%d/%d", M, k, blk);                  \
			MEASURE(l, ru_in_m##M, blk, 256, 2, ex, (float *)buf2, dt, nn, k, 0);
			IN(1) IN(3) IN(5) IN(6) IN(8)
		}
	}
	for (int blk = 128; blk <= 512; blk *= 4) {
		snprintf(l, sizeof l, "ru_ld_m1/%d", blk);
		MEASURE(l, ru_ld_m1, blk, 256, 2, "", (float *)buf2, dt, nn);
		snprintf(l, sizeof l, "ru_ld_m2/%d", blk);
		MEASURE(l, ru_ld_m2, blk, 256, 2, "", (float *)buf2, dt, nn);
		snprintf(l, sizeof l, "ru_ld_m3/%d", blk);
		MEASURE(l, ru_ld_m3, blk, 256, 2, "", (float *)buf2, dt, nn);
	}
	return 0;
}
