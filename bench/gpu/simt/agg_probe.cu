// agg_probe.cu: ptxas aggregates an integer atomicAdd whose address and
// value it can prove warp-uniform (held-out 11's queue_loop and
// compact_loop, held-out 13's ticket_welford_loop: S2R SR_LANEID, VOTEU.ANY,
// FLO.U32 of the active mask for the leader, POPC for the count, the
// leader's ATOM/ATOMS.ADD of value * count, then SHFL.IDX of the leader's
// result and each lane's rank from SR_LTMASK), which the model does not
// know: compact_loop is 43% slower than predicted, queue_loop 6%. Pairs of
// loops that differ only in whether ptxas can see the value is uniform
// (the _div loop's value depends on threadIdx.x in a way that is the same
// for every lane that runs the atomic, so the results are the same), n
// iterations, each adding the atomic's result to an accumulator through a
// broadcast (__shfl_sync from lane 0) where only lane 0 runs it:
//  - sh_l0 / sh_l0_div: lane 0 of each warp adds (i & 3) + 1 to one shared
//    counter (compact_loop's form), the warp broadcasts the old value;
//  - gl_l0 / gl_l0_div: the same on one global counter (queue_loop's);
//  - sh_all / sh_all_div: every lane adds 1 to one shared counter and uses
//    the old value (the _div form adds (tid >> 10) + 1: 1, and the 32
//    lanes of a warp meet on the word);
//  - gl_all / gl_all_div: the same on one global counter;
//  - sh_all_red / gl_all_red: every lane adds 1, result unused (ptxas's
//    RED; the shared one it leaves as 32 lanes' ATOMS on one word).
// At 32 and 512 threads. Run with `sh bench/gpu/simt/heldout.sh
// agg_probe`; judged by tests/check_simt.py with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define L0_LOOP(ADDR, VAL) \
	for (int i = 0; i < n; i++) { \
		unsigned pos = 0; \
		if ((threadIdx.x & 31) == 0) \
			pos = atomicAdd(ADDR, VAL); \
		pos = __shfl_sync(0xffffffffu, pos, 0); \
		acc += pos; \
	}

#define ALL_LOOP(ADDR, VAL) \
	for (int i = 0; i < n; i++) \
		acc += atomicAdd(ADDR, VAL);

__global__ void sh_l0(unsigned *o, long long *t, int n) {
	__shared__ unsigned cnt;
	if (threadIdx.x == 0) cnt = 0;
	unsigned acc = 0;
	START();
	L0_LOOP(&cnt, (unsigned)(i & 3) + 1u)
	STOP(t);
	o[threadIdx.x] = acc;
}
__global__ void sh_l0_div(unsigned *o, long long *t, int n) {
	__shared__ unsigned cnt;
	if (threadIdx.x == 0) cnt = 0;
	unsigned acc = 0, d = (threadIdx.x & 31) * 7u;   // 0 on lane 0, the only lane that adds
	START();
	L0_LOOP(&cnt, (unsigned)(i & 3) + 1u + d)
	STOP(t);
	o[threadIdx.x] = acc;
}
__global__ void gl_l0(unsigned *g, unsigned *o, long long *t, int n) {
	unsigned acc = 0;
	START();
	L0_LOOP(g, (unsigned)(i & 3) + 1u)
	STOP(t);
	o[threadIdx.x] = acc;
}
__global__ void gl_l0_div(unsigned *g, unsigned *o, long long *t, int n) {
	unsigned acc = 0, d = (threadIdx.x & 31) * 7u;
	START();
	L0_LOOP(g, (unsigned)(i & 3) + 1u + d)
	STOP(t);
	o[threadIdx.x] = acc;
}
__global__ void sh_all(unsigned *o, long long *t, int n) {
	__shared__ unsigned cnt;
	if (threadIdx.x == 0) cnt = 0;
	unsigned acc = 0;
	START();
	ALL_LOOP(&cnt, 1u)
	STOP(t);
	o[threadIdx.x] = acc;
}
__global__ void sh_all_div(unsigned *o, long long *t, int n) {
	__shared__ unsigned cnt;
	if (threadIdx.x == 0) cnt = 0;
	unsigned acc = 0, d = (threadIdx.x >> 10) + 1u;   // 1 (blocks of at most 1024 threads)
	START();
	ALL_LOOP(&cnt, d)
	STOP(t);
	o[threadIdx.x] = acc;
}
__global__ void gl_all(unsigned *g, unsigned *o, long long *t, int n) {
	unsigned acc = 0;
	START();
	ALL_LOOP(g, 1u)
	STOP(t);
	o[threadIdx.x] = acc;
}
__global__ void gl_all_div(unsigned *g, unsigned *o, long long *t, int n) {
	unsigned acc = 0, d = (threadIdx.x >> 10) + 1u;
	START();
	ALL_LOOP(g, d)
	STOP(t);
	o[threadIdx.x] = acc;
}
__global__ void sh_all_red(unsigned *o, long long *t, int n) {
	__shared__ unsigned cnt;
	if (threadIdx.x == 0) cnt = 0;
	START();
	for (int i = 0; i < n; i++)
		atomicAdd(&cnt, 1u);
	STOP(t);
	o[threadIdx.x] = cnt;
}

__global__ void gl_all_red(unsigned *g, unsigned *o, long long *t, int n) {
	START();
	for (int i = 0; i < n; i++)
		atomicAdd(g, 1u);
	STOP(t);
	o[threadIdx.x] = 0;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	unsigned *g = (unsigned *)buf2, *o = (unsigned *)buf2 + 1024;
	for (int blk = 32; blk <= 512; blk *= 16) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("sh_l0"), sh_l0, blk, 128, 2, "", o, dt, nn);
		MEASURE(L("sh_l0_div"), sh_l0_div, blk, 128, 2, "", o, dt, nn);
		MEASURE(L("gl_l0"), gl_l0, blk, 64, 3, "", g, o, dt, nn);
		MEASURE(L("gl_l0_div"), gl_l0_div, blk, 64, 3, "", g, o, dt, nn);
		MEASURE(L("sh_all"), sh_all, blk, 128, 2, "", o, dt, nn);
		MEASURE(L("sh_all_div"), sh_all_div, blk, 64, 2, "", o, dt, nn);
		MEASURE(L("gl_all"), gl_all, blk, 64, 3, "", g, o, dt, nn);
		MEASURE(L("gl_all_div"), gl_all_div, blk, 16, 3, "", g, o, dt, nn);
		MEASURE(L("sh_all_red"), sh_all_red, blk, 128, 2, "", o, dt, nn);
		MEASURE(L("gl_all_red"), gl_all_red, blk, 64, 3, "", g, o, dt, nn);
	}
	return 0;
}
