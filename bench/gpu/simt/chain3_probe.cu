// chain3_probe.cu: chain_probe's second follow-up. chain_probe measured on
// the H100: cs_full/32 (held-out 13's look-back loop, one warp, which
// never polls: its lane 0 only publishes a volatile store,
// STG.E.64.STRONG.SYS, in a branch the warp reconverges after, BSYNC, then
// SHFL) 401 cycles an iteration against 299 predicted; cs_link, lane 0
// polling its predecessor's flag and publishing its own, 86 cycles a step,
// less than one volatile load from the L2 (323); a lane-0 poll of a word
// set before the loop 620 more an iteration, the whole warp's 220. Whether
// the publish's store holds the warp where it reconverges, and what a
// lane-0 poll costs alone (one warp, n iterations, each with what its
// comment says, then a SHFL from lane 0 into a dependent sum):
//  - l0_vst: lane 0 stores i to a word (volatile, STG.STRONG.SYS; ptxas
//    predicates the store, no branch);
//  - l0_st: the same with a plain store;
//  - l0_vst_loop, l0_st_loop: the same stores in a loop of m (1) trips, a
//    region ptxas cannot predicate: BSSY, a branch, BSYNC, as cs_full's;
//  - all_vst: every lane stores i to its own word (volatile), no branch;
//  - l0_vst_alu: l0_vst with an ALU chain after the branch in place of
//    the SHFL (no warp-wide instruction after the reconvergence);
//  - l0_poll: lane 0 polls a word set before the loop (volatile load,
//    YIELD), no store;
//  - l0_ldv: lane 0 reads the same word with a volatile load, no loop
//    around it (no YIELD);
//  - link_preset/64: cs_link's step with the poll of a word set before the
//    loop: warp 1 waits for nobody.
// Run with `sh bench/gpu/simt/heldout.sh chain3_probe`; judged by
// tests/check_simt.py with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__global__ void l0_vst(unsigned *g, long long *t, int n) {
	volatile unsigned *v = g;
	unsigned acc = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) {
		if ((threadIdx.x & 31) == 0)
			v[i & 63] = acc;
		acc += __shfl_sync(0xffffffffu, acc, 0) + 1u;
	}
	STOP(t);
	g[1024 + threadIdx.x] = acc;
}
__global__ void l0_st(unsigned *g, long long *t, int n) {
	unsigned acc = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) {
		if ((threadIdx.x & 31) == 0)
			g[i & 63] = acc;
		acc += __shfl_sync(0xffffffffu, acc, 0) + 1u;
	}
	STOP(t);
	g[1024 + threadIdx.x] = acc;
}
__global__ void l0_vst_loop(unsigned *g, long long *t, int n, int m) {
	volatile unsigned *v = g;
	unsigned acc = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) {
		if ((threadIdx.x & 31) == 0)
			for (int k = 0; k < m; k++)
				v[(i + k) & 63] = acc;
		acc += __shfl_sync(0xffffffffu, acc, 0) + 1u;
	}
	STOP(t);
	g[1024 + threadIdx.x] = acc;
}
__global__ void l0_st_loop(unsigned *g, long long *t, int n, int m) {
	unsigned acc = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) {
		if ((threadIdx.x & 31) == 0)
			for (int k = 0; k < m; k++)
				g[(i + k) & 63] = acc;
		acc += __shfl_sync(0xffffffffu, acc, 0) + 1u;
	}
	STOP(t);
	g[1024 + threadIdx.x] = acc;
}
__global__ void all_vst(unsigned *g, long long *t, int n) {
	volatile unsigned *v = g + threadIdx.x;
	unsigned acc = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) {
		v[(i & 7) * 32] = acc;
		acc += __shfl_sync(0xffffffffu, acc, 0) + 1u;
	}
	STOP(t);
	g[1024 + threadIdx.x] = acc;
}
__global__ void l0_vst_alu(unsigned *g, long long *t, int n) {
	volatile unsigned *v = g;
	unsigned acc = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) {
		if ((threadIdx.x & 31) == 0)
			v[i & 63] = acc;
		acc = (acc ^ (acc >> 7)) * 3u + 1u;
		acc = (acc ^ (acc >> 5)) * 5u + 1u;
	}
	STOP(t);
	g[1024 + threadIdx.x] = acc;
}
__global__ void l0_poll(unsigned *g, long long *t, int n) {
	volatile unsigned *v = g;
	for (int k = threadIdx.x; k < 64; k += blockDim.x)
		g[k] = 1u;
	unsigned acc = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) {
		unsigned x = 0;
		if ((threadIdx.x & 31) == 0)
			while ((x = v[i & 63]) == 0u)
				;
		acc += __shfl_sync(0xffffffffu, x, 0) + 1u;
	}
	STOP(t);
	g[1024 + threadIdx.x] = acc;
}
__global__ void l0_ldv(unsigned *g, long long *t, int n) {
	volatile unsigned *v = g;
	for (int k = threadIdx.x; k < 64; k += blockDim.x)
		g[k] = 1u;
	unsigned acc = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) {
		unsigned x = 0;
		if ((threadIdx.x & 31) == 0)
			x = v[i & 63];
		acc += __shfl_sync(0xffffffffu, x, 0) + 1u;
	}
	STOP(t);
	g[1024 + threadIdx.x] = acc;
}
__global__ void link_preset(unsigned long long *flags, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < 2 * n * nw; k += nb)
		flags[k] = k < n * nw ? (1ull << 32) | 1ull : 0ull;
	unsigned prefix = 0;
	START();
	if (lane == 0)
		for (int i = 0; i < n; i++) {
			volatile unsigned long long *f = flags + i * nw + w;
			unsigned long long fv;
			while (((fv = *f) >> 32) == 0ull)
				;
			prefix = (unsigned)fv;
			((volatile unsigned long long *)flags)[n * nw + i * nw + w] = (1ull << 32) | (unsigned long long)(prefix + 1);
		}
	STOP(t);
	y[tid] = prefix;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	unsigned *g = (unsigned *)buf2;
	unsigned long long *fl = (unsigned long long *)buf2 + 8192;
	unsigned *yy = (unsigned *)buf2 + (1 << 20);
#define L(s, b) (snprintf(l, sizeof l, "%s/%d", s, b), l)
	MEASURE(L("l0_vst", 32), l0_vst, 32, 128, 2, "", g, dt, nn);
	MEASURE(L("l0_st", 32), l0_st, 32, 128, 2, "", g, dt, nn);
	MEASURE(L("l0_vst_loop", 32), l0_vst_loop, 32, 128, 2, "3=1", g, dt, nn, 1);
	MEASURE(L("l0_st_loop", 32), l0_st_loop, 32, 128, 2, "3=1", g, dt, nn, 1);
	MEASURE(L("all_vst", 32), all_vst, 32, 128, 2, "", g, dt, nn);
	MEASURE(L("l0_vst_alu", 32), l0_vst_alu, 32, 128, 2, "", g, dt, nn);
	MEASURE(L("l0_poll", 32), l0_poll, 32, 128, 2, "", g, dt, nn);
	MEASURE(L("l0_ldv", 32), l0_ldv, 32, 128, 2, "", g, dt, nn);
	MEASURE(L("link_preset", 64), link_preset, 64, 64, 3, "", fl, yy, dt, nn);
	MEASURE(L("link_preset", 128), link_preset, 128, 64, 3, "", fl, yy, dt, nn);
	return 0;
}
