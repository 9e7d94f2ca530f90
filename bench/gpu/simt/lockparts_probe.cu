// lockparts_probe.cu: the parts of a shared-memory lock's uncontended
// handover, after fence_probe.cu's cs_sh (one lane takes the lock, adds to
// a volatile counter, fences, gives it back) took 282 cycles an iteration
// where the model gives 109. Each loop: n iterations by lane 0 of warp 0
// ("_lane0"), or by every lane on words of its own (k = 1); a chain: the
// next address waits for the result. Run with
// `sh bench/gpu/simt/heldout.sh lockparts_probe`; judged by
// tests/check_simt.py with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;
// a CAS that never swaps (the word holds 1), each lane on a word of its
// own; the results stay 1: the shift is 0, which the compiler cannot know
__global__ void cas1_lat(int *g, long long *t, int n) {
	__shared__ int w[1024];
	w[threadIdx.x] = 1;
	int z = 0;
	START();
	for (int i = 0; i < n; i++)
		z = atomicCAS(&w[threadIdx.x + (z >> 30)], 0, 2) - 1;
	STOP(t);
	g[threadIdx.x] = z;
}
// a CAS that swaps every time (0 -> 1 -> 0 ...: each lane its own word)
__global__ void cas1_swap_lat(int *g, long long *t, int n) {
	__shared__ int w[1024];
	w[threadIdx.x] = 0;
	int z = 0;
	START();
	for (int i = 0; i < n; i++)
		z = atomicCAS(&w[threadIdx.x + (z >> 30)], z, z ^ 1) ^ 1;
	STOP(t);
	g[threadIdx.x] = z;
}
// an exchange, each lane on a word of its own
__global__ void exch1_lat(int *g, long long *t, int n) {
	__shared__ int w[1024];
	w[threadIdx.x] = 0;
	int z = 0;
	START();
	for (int i = 0; i < n; i++)
		z = atomicExch(&w[threadIdx.x + (z >> 30)], i);
	STOP(t);
	g[threadIdx.x] = z;
}
// a volatile shared load, each lane on a word of its own
__global__ void ldv1_lat(int *g, long long *t, int n) {
	__shared__ int w[1024];
	w[threadIdx.x] = 0;
	volatile int *p = w;
	int z = 0;
	START();
	for (int i = 0; i < n; i++)
		z = p[threadIdx.x + (z >> 30)];
	STOP(t);
	g[threadIdx.x] = z;
}
// the lock's handover by lane 0 alone, without the fence, and without the
// counter
__global__ void cs_nofence_lane0(int *g, long long *t, int n) {
	__shared__ int lock, counter;
	if (threadIdx.x == 0) { lock = 0; counter = 0; }
	START();
	if (threadIdx.x == 0)
		for (int i = 0; i < n; i++) {
			while (atomicCAS(&lock, 0, 1) != 0)
				;
			volatile int *c = &counter;
			*c = *c + 1;
			atomicExch(&lock, 0);
		}
	STOP(t);
	if (threadIdx.x == 0) g[0] = counter;
}
__global__ void cs_nocount_lane0(int *g, long long *t, int n) {
	__shared__ int lock;
	if (threadIdx.x == 0) lock = 0;
	START();
	if (threadIdx.x == 0)
		for (int i = 0; i < n; i++) {
			while (atomicCAS(&lock, 0, 1) != 0)
				;
			__threadfence_block();
			atomicExch(&lock, 0);
		}
	STOP(t);
	if (threadIdx.x == 0) g[0] = lock;
}
// ---- host ----
#include "loop_host.cuh"
int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 32; blk <= 512; blk *= 16) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("cas1_lat"), cas1_lat, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("cas1_swap_lat"), cas1_swap_lat, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("exch1_lat"), exch1_lat, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ldv1_lat"), ldv1_lat, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("cs_nofence_lane0"), cs_nofence_lane0, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("cs_nocount_lane0"), cs_nocount_lane0, blk, 64, 2, "", (int *)buf2, dt, nn);
	}
	return 0;
}
