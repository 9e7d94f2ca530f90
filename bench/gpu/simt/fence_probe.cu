// fence_probe.cu: what __threadfence() (membar.gl: MEMBAR.SC.GPU) and
// __threadfence_block() (membar.cta: MEMBAR.SC.CTA) cost, alone and after
// a store, and what a lock's uncontended critical section costs, after
// its_probe.cu's lock in global memory came out 58% fast at one warp (a
// handover 1,545 cycles measured; the model times a fence as a barrier
// instruction). Each loop: n iterations; "_lane0": lane 0 of each warp
// alone (as a lock's holder). Run with
// `sh bench/gpu/simt/heldout.sh fence_probe`; judged by
// tests/check_simt.py with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;
// a fence alone
__global__ void fence_gl(int *g, long long *t, int n) {
	START();
	for (int i = 0; i < n; i++)
		__threadfence();
	STOP(t);
}
__global__ void fence_cta(int *g, long long *t, int n) {
	START();
	for (int i = 0; i < n; i++)
		__threadfence_block();
	STOP(t);
}
// a global store and the fence
__global__ void st_fence_gl(int *g, long long *t, int n) {
	volatile int *p = g + threadIdx.x;
	START();
	for (int i = 0; i < n; i++) {
		*p = i;
		__threadfence();
	}
	STOP(t);
}
// the same by lane 0 of each warp alone
__global__ void st_fence_gl_lane0(int *g, long long *t, int n) {
	volatile int *p = g + threadIdx.x;
	START();
	if ((threadIdx.x & 31) == 0)
		for (int i = 0; i < n; i++) {
			*p = i;
			__threadfence();
		}
	STOP(t);
}
// a volatile global load whose value the next address needs
__global__ void ldv_gl_lat(int *g, long long *t, int n) {
	volatile int *p = g + threadIdx.x;
	g[threadIdx.x] = 0;
	int z = 0;
	START();
	for (int i = 0; i < n; i++)
		z = p[z >> 30];
	STOP(t);
	g[1024 + threadIdx.x] = z;
}
// a lock's critical section, uncontended: lane 0 of warp 0 takes a global
// (or shared) lock, adds to a volatile counter, fences, gives it back
__global__ void cs_gl(int *g, long long *t, int n) {
	if (threadIdx.x == 0) { g[0] = 0; g[1] = 0; }
	START();
	if (threadIdx.x == 0)
		for (int i = 0; i < n; i++) {
			while (atomicCAS(&g[1], 0, 1) != 0)
				;
			volatile int *c = &g[0];
			*c = *c + 1;
			__threadfence();
			atomicExch(&g[1], 0);
		}
	STOP(t);
}
__global__ void cs_sh(int *g, long long *t, int n) {
	__shared__ int lock, counter;
	if (threadIdx.x == 0) { lock = 0; counter = 0; }
	START();
	if (threadIdx.x == 0)
		for (int i = 0; i < n; i++) {
			while (atomicCAS(&lock, 0, 1) != 0)
				;
			volatile int *c = &counter;
			*c = *c + 1;
			__threadfence_block();
			atomicExch(&lock, 0);
		}
	STOP(t);
	if (threadIdx.x == 0) g[0] = counter;
}
// ---- host ----
#include "loop_host.cuh"
int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 32; blk <= 1024; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("fence_gl"), fence_gl, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("fence_cta"), fence_cta, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("st_fence_gl"), st_fence_gl, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("st_fence_gl_lane0"), st_fence_gl_lane0, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ldv_gl_lat"), ldv_gl_lat, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("cs_gl"), cs_gl, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("cs_sh"), cs_sh, blk, 64, 2, "", (int *)buf2, dt, nn);
	}
	return 0;
}
