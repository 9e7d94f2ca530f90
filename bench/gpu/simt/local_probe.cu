// local_probe.cu: what a warp's local-memory access (LDL, STL: a thread's
// array indexed at run time, or a spill) costs. Held-out 18's isort8_loop,
// an insertion sort on a local array of 8 keys a thread (about 70 LDL and
// STL a warp an iteration), is 32% fast at 128 threads and 54% fast at 512
// in the model, which takes a local access as a global one that hits the
// L1 (a line's tag turn, the LSU's sectors). Each thread's array of 32
// words, written before the loop (a permutation of 0..31 from a hash of
// the thread), the index a run-time value the compiler cannot fold:
//  - lc_ld_lat: j = a[j], 16 dependent loads an iteration: the latency;
//  - lc_ld_tput: 16 independent loads a[(i + 2k) & 31], xored: the
//    throughput of uniform loads (each a line: lane l's word at l * 4);
//  - lc_st_tput: 16 stores a[(i + k) & 31] = i + k an iteration;
//  - lc_st_ld: a[x] = s; s = a[x + d] + 1 (d = 0, which the compiler cannot
//    know: the same word): a store and the load of its word, 8 an
//    iteration (a store's round trip);
//  - lc_ld_div: 16 independent loads a[(i + 2k + lane) & 31]: every lane
//    at another index, so on a line of its own (32 lines a load);
//  - lc_mix: 8 loads and 8 stores, interleaved, each load's value into the
//    next store (isort8's shifting pattern, uniform indices).
// At 32, 128 and 512 threads. Run with `sh bench/gpu/simt/heldout.sh
// local_probe`; judged by tests/check_simt.py with the other probes. Same
// method as the held-out sets (loop_host.cuh).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// a[0..31]: a permutation of 0..31 that depends on the thread (a rotation
// by a hash and an odd stride), so that every index is a run-time value
#define LOCAL_INIT(a) \
	unsigned a[32]; \
	{ \
		unsigned h = (unsigned)threadIdx.x * 2654435761u; \
		unsigned r = h >> 27, m = ((h >> 20) & 30u) | 1u; \
		for (int k = 0; k < 32; k++) \
			a[k] = (unsigned)(k * m + r) & 31u; \
	}

__global__ void lc_ld_lat(unsigned *o, long long *t, int n) {
	LOCAL_INIT(a);
	unsigned j = a[threadIdx.x & 31];
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 16; k++)
			j = a[j & 31];
	}
	STOP(t);
	o[threadIdx.x] = j;
}

__global__ void lc_ld_tput(unsigned *o, long long *t, int n) {
	LOCAL_INIT(a);
	unsigned s = 0;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 16; k++)
			s ^= a[(i + 2 * k) & 31];
	}
	STOP(t);
	o[threadIdx.x] = s;
}

__global__ void lc_st_tput(unsigned *o, long long *t, int n) {
	LOCAL_INIT(a);
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 16; k++)
			a[(i + k) & 31] = (unsigned)(i + k);
	}
	STOP(t);
	unsigned s = 0;
	for (int k = 0; k < 32; k++)
		s += a[k] * (unsigned)(k + 1);
	o[threadIdx.x] = s;
}

__global__ void lc_st_ld(unsigned *o, long long *t, int n) {
	LOCAL_INIT(a);
	unsigned s = a[threadIdx.x & 31], j = (unsigned)n, d = (unsigned)n >> 30;   /* d = 0, unknown to the compiler */
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++) {
			a[(j + k) & 31] = s;
			s = a[(j + k + d) & 31] + 1u;
		}
		j += 3u;
	}
	STOP(t);
	o[threadIdx.x] = s + a[j & 31];
}

__global__ void lc_ld_div(unsigned *o, long long *t, int n) {
	LOCAL_INIT(a);
	unsigned s = 0, lane = threadIdx.x & 31;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 16; k++)
			s ^= a[(i + 2 * k + lane) & 31];
	}
	STOP(t);
	o[threadIdx.x] = s;
}

__global__ void lc_mix(unsigned *o, long long *t, int n) {
	LOCAL_INIT(a);
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++)
			a[(i + 2 * k + 1) & 31] = a[(i + 2 * k) & 31] + 1u;
	}
	STOP(t);
	unsigned s = 0;
	for (int k = 0; k < 32; k++)
		s += a[k] * (unsigned)(k + 1);
	o[threadIdx.x] = s;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	unsigned *ob = (unsigned *)buf2;
	for (int blk = 32; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("lc_ld_lat"), lc_ld_lat, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("lc_ld_tput"), lc_ld_tput, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("lc_st_tput"), lc_st_tput, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("lc_st_ld"), lc_st_ld, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("lc_ld_div"), lc_ld_div, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("lc_mix"), lc_mix, blk, 256, 2, "", ob, dt, nn);
	}
	return 0;
}
