// atoms_probe.cu: what shared-memory atomics cost when lanes of a warp
// name the same word, and what membar.cta costs, after its_probe.cu's
// locks came out 49% to 96% faster in the model than on the GPU (a
// handover 360 cycles at one warp and 2,450 at 32, the model 110 and 93;
// the SASS: ATOMS.CAS by every waiting lane on one word, MEMBAR.SC.CTA).
// Each loop: n iterations of an atomic (or a fence) whose result the next
// iteration's address depends on only through a zero (a chain: latency),
// or of independent atomics (throughput). k lanes share a word (k = 1:
// 32 words, 32: one). Run with `sh bench/gpu/simt/heldout.sh atoms_probe`;
// judged by tests/check_simt.py with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// atomicAdd by every lane, k lanes on a word, each warp on words of its
// own; the next address waits for the result (times 0)
#define ADD_LAT(NAME, K) \
__global__ void NAME(int *out, long long *t, int n) { \
	__shared__ int w[1024]; \
	w[threadIdx.x] = 0; \
	int base = (threadIdx.x >> 5) * 32 + (threadIdx.x & 31) / K; \
	int z = 0; \
	START(); \
	for (int i = 0; i < n; i++) \
		z = atomicAdd(&w[base + (z & 0x40000000)], 1) & 0x40000000; \
	STOP(t); \
	out[threadIdx.x] = z + w[threadIdx.x]; \
}
ADD_LAT(atoms_add_lat_k1, 1)
ADD_LAT(atoms_add_lat_k4, 4)
ADD_LAT(atoms_add_lat_k32, 32)

// four independent atomicAdds an iteration (throughput)
#define ADD_TPUT(NAME, K) \
__global__ void NAME(int *out, long long *t, int n) { \
	__shared__ int w[1024]; \
	w[threadIdx.x] = 0; \
	int base = (threadIdx.x >> 5) * 32 + (threadIdx.x & 31) / K; \
	START(); \
	for (int i = 0; i < n; i++) { \
		atomicAdd(&w[base], 1); \
		atomicAdd(&w[base], 2); \
		atomicAdd(&w[base], 3); \
		atomicAdd(&w[base], 4); \
	} \
	STOP(t); \
	out[threadIdx.x] = w[threadIdx.x]; \
}
ADD_TPUT(atoms_add_tput_k1, 1)
ADD_TPUT(atoms_add_tput_k4, 4)
ADD_TPUT(atoms_add_tput_k32, 32)

// atomicCAS by every lane on one word per warp that never swaps (as the
// lanes that wait for a lock do), the next one waiting for the result
__global__ void atoms_cas_lat(int *out, long long *t, int n) {
	__shared__ int w[32];
	if ((threadIdx.x & 31) == 0) w[threadIdx.x >> 5] = 1;
	int z = 0;
	START();
	for (int i = 0; i < n; i++)
		z = atomicCAS(&w[(threadIdx.x >> 5) + (z & 0x40000000)], 0, 1) & 0x40000000;
	STOP(t);
	out[threadIdx.x] = z;
}

// a shared store and __threadfence_block an iteration
__global__ void membar_cta(int *out, long long *t, int n) {
	__shared__ volatile int w[1024];
	START();
	for (int i = 0; i < n; i++) {
		w[threadIdx.x] = i;
		__threadfence_block();
	}
	STOP(t);
	out[threadIdx.x] = w[threadIdx.x];
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 32; blk <= 1024; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("atoms_add_lat_k1"), atoms_add_lat_k1, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("atoms_add_lat_k4"), atoms_add_lat_k4, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("atoms_add_lat_k32"), atoms_add_lat_k32, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("atoms_add_tput_k1"), atoms_add_tput_k1, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("atoms_add_tput_k4"), atoms_add_tput_k4, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("atoms_add_tput_k32"), atoms_add_tput_k32, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("atoms_cas_lat"), atoms_cas_lat, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("membar_cta"), membar_cta, blk, 256, 2, "", (int *)buf2, dt, nn);
	}
	return 0;
}
