// bssy_probe.cu: what a branch costs that ptxas cannot prove warp-uniform
// when no warp diverges at it. Such a branch gets a convergence region in
// SASS (BSSY before it, BSYNC where the paths rejoin); bt_probe's branches,
// whose predicates come from the loop counter and parameters alone, get
// none. Over check_simt's loops the model is 12% fast (median) on the loops
// whose timed SASS holds a BSSY, and 0.2% on the others.
//  - bs_branches: bt_probe's bt_branches (eight branches an iteration over
//    blocks of 8 dependent FMAs) with threadIdx.x >> 10 added to the
//    predicates' value: 0 in every thread, which ptxas cannot know; run
//    with m = 0 (every branch skips its block), 255 (none does) and 85;
//    bu_branches is bt_branches itself, for the difference;
//  - bs_one, bu_one: one such branch an iteration over 16 dependent FMAs,
//    skipped (m = 0) or run (m = 1), with and without the thread's term;
//  - bs_lane: bs_one whose branch lane 0 alone takes (a real divergence,
//    for the scale: the model's latency.path_switch);
//  - ldc_chain: x = ctab[x], a chain of 16 constant-memory loads at an
//    index every lane holds (LDC at a register offset): the constant
//    cache's latency, which ptxas's reloads of parameters (LDC.64 of the
//    kernel's pointers in a loop, chain_probe's cs_link) and jump tables
//    (held-out 6's state_loop, LDC then BRX) pay.
// Run with `sh bench/gpu/simt/heldout.sh bssy_probe`; judged by
// tests/check_simt.py with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define BODY a = a * 1.0001f + b; b = b * 0.9999f + a; a = a * 1.0002f + b; b = b * 0.9998f + a; \
	a = a * 1.0003f + b; b = b * 0.9997f + a; a = a * 1.0004f + b; b = b * 0.9996f + a;
#define SKIP(j) if ((c >> j) & 1) { BODY }

__global__ void bs_branches(float *o, long long *t, int n, int k, int m) {
	float a = (float)threadIdx.x, b = 1.0f;
	int d = threadIdx.x >> 10;
	START();
	for (int i = 0; i < n; i++) {
		int c = i * k + m + d;
		SKIP(0) SKIP(1) SKIP(2) SKIP(3) SKIP(4) SKIP(5) SKIP(6) SKIP(7)
		b += 1.0f;
	}
	STOP(t);
	o[threadIdx.x] = a + b;
}

__global__ void bu_branches(float *o, long long *t, int n, int k, int m) {
	float a = (float)threadIdx.x, b = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		int c = i * k + m;
		SKIP(0) SKIP(1) SKIP(2) SKIP(3) SKIP(4) SKIP(5) SKIP(6) SKIP(7)
		b += 1.0f;
	}
	STOP(t);
	o[threadIdx.x] = a + b;
}

__global__ void bs_one(float *o, long long *t, int n, int k, int m) {
	float a = (float)threadIdx.x, b = 1.0f;
	int d = threadIdx.x >> 10;
	START();
	for (int i = 0; i < n; i++) {
		if ((i * k + m + d) & 1) { BODY BODY }
		b += 1.0f;
	}
	STOP(t);
	o[threadIdx.x] = a + b;
}

__global__ void bu_one(float *o, long long *t, int n, int k, int m) {
	float a = (float)threadIdx.x, b = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		if ((i * k + m) & 1) { BODY BODY }
		b += 1.0f;
	}
	STOP(t);
	o[threadIdx.x] = a + b;
}

__global__ void bs_lane(float *o, long long *t, int n, int k, int m) {
	float a = (float)threadIdx.x, b = 1.0f;
	int d = (threadIdx.x & 31) == 0;
	START();
	for (int i = 0; i < n; i++) {
		if ((i * k + m + d) & 1) { BODY BODY }
		b += 1.0f;
	}
	STOP(t);
	o[threadIdx.x] = a + b;
}

// entry i: the byte offset of entry (17 i + 5) mod 64
__constant__ int ctab[64] = {20, 88, 156, 224, 36, 104, 172, 240, 52, 120, 188, 0, 68, 136, 204, 16, 84, 152, 220, 32, 100, 168, 236, 48, 116, 184, 252, 64, 132, 200, 12, 80, 148, 216, 28, 96, 164, 232, 44, 112, 180, 248, 60, 128, 196, 8, 76, 144, 212, 24, 92, 160, 228, 40, 108, 176, 244, 56, 124, 192, 4, 72, 140, 208};

#define U16(s) s s s s s s s s s s s s s s s s
__global__ void ldc_chain(int *o, long long *t, int n) {
	int x = (threadIdx.x >> 10) * 4;   // 0, a byte offset into ctab
	START();
	for (int i = 0; i < n; i++) {
		U16(x = *(const int *)((const char *)ctab + x);)
	}
	STOP(t);
	o[threadIdx.x] = x;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 32; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("bs_taken"), bs_branches, blk, 256, 2, "3=0,4=0", (float *)buf2, dt, nn, 0, 0);
		MEASURE(L("bs_fallthrough"), bs_branches, blk, 256, 2, "3=0,4=255", (float *)buf2, dt, nn, 0, 255);
		MEASURE(L("bs_alternate"), bs_branches, blk, 256, 2, "3=0,4=85", (float *)buf2, dt, nn, 0, 85);
		MEASURE(L("bu_taken"), bu_branches, blk, 256, 2, "3=0,4=0", (float *)buf2, dt, nn, 0, 0);
		MEASURE(L("bu_fallthrough"), bu_branches, blk, 256, 2, "3=0,4=255", (float *)buf2, dt, nn, 0, 255);
		MEASURE(L("bs_one_skip"), bs_one, blk, 256, 2, "3=0,4=0", (float *)buf2, dt, nn, 0, 0);
		MEASURE(L("bs_one_run"), bs_one, blk, 256, 2, "3=0,4=1", (float *)buf2, dt, nn, 0, 1);
		MEASURE(L("bu_one_skip"), bu_one, blk, 256, 2, "3=0,4=0", (float *)buf2, dt, nn, 0, 0);
		MEASURE(L("bu_one_run"), bu_one, blk, 256, 2, "3=0,4=1", (float *)buf2, dt, nn, 0, 1);
		MEASURE(L("bs_lane"), bs_lane, blk, 256, 2, "3=0,4=0", (float *)buf2, dt, nn, 0, 0);
		MEASURE(L("ldc_chain"), ldc_chain, blk, 256, 2, "", (int *)buf2, dt, nn);
	}
	return 0;
}
