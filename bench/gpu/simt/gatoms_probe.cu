// gatoms_probe.cu: what global-memory atomics cost when lanes of a warp,
// or warps of a block, name the same word, after its_probe.cu's lock in
// global memory came out 49% to 77% fast in the model (which charges a
// global atomic the L2's latency and its sectors, whatever its lanes
// name). Each loop: n iterations of four independent atomics
// (throughput), or of one whose result the next address waits for
// (latency, "_lat"); k lanes share a word, each warp on a 128-byte line of
// its own; "_one": every thread of the block on one word. The same
// compare-and-swap on one shared word for the whole block, for comparison
// with atoms_probe's per-warp words. Run with
// `sh bench/gpu/simt/heldout.sh gatoms_probe`; judged by
// tests/check_simt.py with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;
#define WORD(K) ((threadIdx.x >> 5) * 32 + (threadIdx.x & 31) / (K))
// four independent atomicAdds of the lane's value an iteration
#define GADD(NAME, K) \
__global__ void NAME(int *g, long long *t, int n) { \
	int a = WORD(K), v = (threadIdx.x & 31) + 2; \
	g[threadIdx.x] = 0; \
	START(); \
	for (int i = 0; i < n; i++) { \
		atomicAdd(&g[a], v); \
		atomicAdd(&g[a], v + 1); \
		atomicAdd(&g[a], v + 2); \
		atomicAdd(&g[a], v + 3); \
	} \
	STOP(t); \
}
GADD(ga_add_k1, 1)
GADD(ga_add_k4, 4)
GADD(ga_add_k32, 32)
// one atomicAdd of the lane's value an iteration, the next address waiting
// for its result (the results stay below 2^30: the shift is 0, which the
// compiler cannot know)
#define GADD_LAT(NAME, K) \
__global__ void NAME(int *g, long long *t, int n) { \
	int a = WORD(K), v = (threadIdx.x & 31) + 2, z = 0; \
	g[threadIdx.x] = 0; \
	START(); \
	for (int i = 0; i < n; i++) \
		z = atomicAdd(&g[a + (z >> 30)], v); \
	STOP(t); \
	g[1024 + threadIdx.x] = z; \
}
GADD_LAT(ga_add_lat_k1, 1)
GADD_LAT(ga_add_lat_k32, 32)
// a compare-and-swap that never swaps (the word holds 1), k = 32, chained
__global__ void ga_cas_lat_k32(int *g, long long *t, int n) {
	int a = WORD(32), z = 0;
	g[threadIdx.x] = 1;
	START();
	for (int i = 0; i < n; i++)
		z = atomicCAS(&g[a + (z >> 30)], 0, 2) - 1;
	STOP(t);
	g[1024 + threadIdx.x] = z;
}
// every thread of the block on one word (a lock's waiting lanes)
__global__ void ga_cas_one(int *g, long long *t, int n) {
	int z = 0;
	if (threadIdx.x == 0) g[0] = 1;
	START();
	for (int i = 0; i < n; i++)
		z = atomicCAS(&g[z >> 30], 0, 2) - 1;
	STOP(t);
	g[1024 + threadIdx.x] = z;
}
__global__ void sa_cas_one(int *g, long long *t, int n) {
	__shared__ int w[2];
	int z = 0;
	if (threadIdx.x == 0) w[0] = 1;
	START();
	for (int i = 0; i < n; i++)
		z = atomicCAS(&w[z >> 30], 0, 2) - 1;
	STOP(t);
	g[1024 + threadIdx.x] = z;
}
// four independent exchanges an iteration, k = 32
__global__ void ga_exch_k32(int *g, long long *t, int n) {
	int a = WORD(32), v = threadIdx.x;
	g[threadIdx.x] = 0;
	START();
	for (int i = 0; i < n; i++) {
		atomicExch(&g[a], v);
		atomicExch(&g[a], v + 1);
		atomicExch(&g[a], v + 2);
		atomicExch(&g[a], v + 3);
	}
	STOP(t);
}
// ---- host ----
#include "loop_host.cuh"
int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 32; blk <= 1024; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("ga_add_k1"), ga_add_k1, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ga_add_k4"), ga_add_k4, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ga_add_k32"), ga_add_k32, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ga_add_lat_k1"), ga_add_lat_k1, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ga_add_lat_k32"), ga_add_lat_k32, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ga_cas_lat_k32"), ga_cas_lat_k32, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ga_cas_one"), ga_cas_one, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("sa_cas_one"), sa_cas_one, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ga_exch_k32"), ga_exch_k32, blk, 256, 2, "", (int *)buf2, dt, nn);
	}
	return 0;
}
