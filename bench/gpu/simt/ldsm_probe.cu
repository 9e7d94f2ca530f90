// ldsm_probe.cu: what ldmatrix costs, after 18da985 simulated it as a shared
// load of 16 bytes a lane (its wavefronts from the rows' banks, the shared
// latency). Loops, predictions committed before the first measurement
// (tests/fixtures/simt/probes/ldsm_probe_predicted.jsonl):
//  - ldsm_lat_x4: one warp, each ldmatrix.x4's row address depends on the
//    last one's result: the latency;
//  - ldsm_x4 / ldsm_x1: 16 independent ldmatrix an iteration from rows 16
//    bytes apart (conflict-free), at 32, 128 and 512 threads;
//  - ldsm_x4_conf: the same with rows 128 bytes apart (each 8 rows of a
//    matrix on the same banks), at 32 and 128 threads.
// Same method as the held-out sets (loop_host.cuh): one block, clock64()
// around the loop, (T(2n) - T(n)) / n; run with
// `sh bench/gpu/simt/heldout.sh ldsm_probe`, judged by tests/check_simt.py
// with the other probes (tests/fixtures/simt/probes/).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define LDSM_X4(a, r0, r1, r2, r3) \
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" \
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a))
#define LDSM_X1(a, r0) \
	asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a))

// the tile: 16 KiB of zeros, written by the block before the loop
#define TILE_INIT() \
	__shared__ __align__(16) unsigned tile[4096]; \
	for (int k = threadIdx.x; k < 4096; k += blockDim.x) tile[k] = 0; \
	__syncthreads(); \
	unsigned base = (unsigned)__cvta_generic_to_shared(tile);

__global__ void ldsm_lat_x4(unsigned *o, long long *t, int n) {
	TILE_INIT();
	int lane = threadIdx.x & 31;
	unsigned acc = 0, off = lane * 16;
	START();
	for (int i = 0; i < n; i++) {
		unsigned r0, r1, r2, r3;
		LDSM_X4(base + off, r0, r1, r2, r3);
		off = lane * 16 + (r0 & 0x100);   // (the tile is zeros: the same rows, after the result)
		acc += r1 ^ r2 ^ r3;
	}
	STOP(t);
	o[threadIdx.x] = acc + off;
}

// 16 ldmatrix.x4 an iteration, each warp's own 512 bytes, 16 bytes a lane
__global__ void ldsm_x4(unsigned *o, long long *t, int n) {
	TILE_INIT();
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	unsigned acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned a = warp * 512 + lane * 16 + (i & 1) * 4096;
#pragma unroll
		for (int k = 0; k < 16; k++) {
			unsigned r0, r1, r2, r3;
			LDSM_X4(base + ((a + k * 1024) & 16383), r0, r1, r2, r3);
			acc += r0 ^ r1 ^ r2 ^ r3;
		}
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

__global__ void ldsm_x1(unsigned *o, long long *t, int n) {
	TILE_INIT();
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	unsigned acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned a = warp * 512 + (lane & 7) * 16 + (i & 1) * 4096;
#pragma unroll
		for (int k = 0; k < 16; k++) {
			unsigned r0;
			LDSM_X1(base + ((a + k * 1024) & 16383), r0);
			acc += r0;
		}
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

// rows 128 bytes apart: the eight rows of each matrix on the same banks
__global__ void ldsm_x4_conf(unsigned *o, long long *t, int n) {
	TILE_INIT();
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	unsigned acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned a = warp * 64 + (lane & 7) * 128 + (lane >> 3) * 1024 + (i & 1) * 16;
#pragma unroll
		for (int k = 0; k < 16; k++) {
			unsigned r0, r1, r2, r3;
			LDSM_X4(base + ((a + k * 32) & 16383), r0, r1, r2, r3);
			acc += r0 ^ r1 ^ r2 ^ r3;
		}
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

// ldsm_x4 and ldsm_x1 load each of their addresses every other iteration
// (16 x 1024 bytes cover the tile, whatever i), and ptxas loads it once for
// both: in these the rows move by 64 bytes an iteration
__global__ void ldsm_x4_step(unsigned *o, long long *t, int n) {
	TILE_INIT();
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	unsigned acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned a = warp * 512 + lane * 16 + i * 64;
#pragma unroll
		for (int k = 0; k < 16; k++) {
			unsigned r0, r1, r2, r3;
			LDSM_X4(base + ((a + k * 1024) & 16383), r0, r1, r2, r3);
			acc += r0 ^ r1 ^ r2 ^ r3;
		}
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

__global__ void ldsm_x1_step(unsigned *o, long long *t, int n) {
	TILE_INIT();
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	unsigned acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned a = warp * 512 + (lane & 7) * 16 + i * 64;
#pragma unroll
		for (int k = 0; k < 16; k++) {
			unsigned r0;
			LDSM_X1(base + ((a + k * 1024) & 16383), r0);
			acc += r0;
		}
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	unsigned *ob = (unsigned *)buf2;
	int blk = 32;
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
	MEASURE(L("ldsm_lat_x4"), ldsm_lat_x4, blk, 256, 2, "", ob, dt, nn);
	for (blk = 32; blk <= 512; blk *= 4) {
		MEASURE(L("ldsm_x4"), ldsm_x4, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("ldsm_x1"), ldsm_x1, blk, 256, 2, "", ob, dt, nn);
		if (blk <= 128)
			MEASURE(L("ldsm_x4_conf"), ldsm_x4_conf, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("ldsm_x4_step"), ldsm_x4_step, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("ldsm_x1_step"), ldsm_x1_step, blk, 256, 2, "", ob, dt, nn);
	}
	return 0;
}
