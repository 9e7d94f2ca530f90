// l2st_probe.cu: what a warp's store to global memory costs the SM, by
// its sectors, lines and bytes. l2sec_probe found stores far slower than
// loads of the same shape: 8 cycles of the SM a coalesced 8-byte store (8
// sectors on 2 lines; the timing model's lsu_sectors gave 2) and 40 an
// 8-byte store at a 32-byte stride (32 sectors on 8 lines, 8 bytes of
// each; 8), the same at 4 to 32 warps. Four independent stores a thread an
// iteration into a 4 MiB region that stays in L2, the index in
// l2bw_probe's form; each kind at 128 and 512 threads:
//  - st_w4_co: 4 bytes a lane, coalesced (4 sectors, 1 line);
//  - st_w16_co: 16 bytes a lane, coalesced (16 sectors, 4 lines);
//  - st_w4_s8: 4 bytes a lane at an 8-byte stride (8 half-written sectors, 2 lines);
//  - st_w8_s16: 8 bytes a lane at a 16-byte stride (16 half-written sectors, 4 lines);
//  - st_w4_s32: 4 bytes a lane at a 32-byte stride (32 sectors, 8 lines, 4 bytes of each);
//  - st_w4_s128: 4 bytes a lane at a 128-byte stride (32 sectors on 32 lines);
//  - st_w8_s128: 8 bytes a lane at a 128-byte stride (32 sectors on 32 lines);
//  - st_w4_one: 4 bytes, every lane the same word (1 sector), the four
//    stores on four lines.
// Run with `sh bench/gpu/simt/heldout.sh l2st_probe`; judged by
// tests/check_simt.py with the other probes (tests/fixtures/simt/probes/).
// Same method as the held-out sets (loop_host.cuh): one block, clock64()
// around the loop, (T(2n) - T(n)) / n.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__global__ void st_w4_co(float *a, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float v = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) * 1;
		a[k & 1048575] = v + 0;
		a[(k + 1 * nb) & 1048575] = v + 1;
		a[(k + 2 * 1 * nb) & 1048575] = v + 2;
		a[(k + 3 * 1 * nb) & 1048575] = v + 3;
		v += (float)4;
	}
	STOP(t);
}

__global__ void st_w16_co(float4 *a, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float v = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) * 1;
		a[k & 262143] = make_float4(v + 0, v, v, v);
		a[(k + 1 * nb) & 262143] = make_float4(v + 1, v, v, v);
		a[(k + 2 * 1 * nb) & 262143] = make_float4(v + 2, v, v, v);
		a[(k + 3 * 1 * nb) & 262143] = make_float4(v + 3, v, v, v);
		v += (float)4;
	}
	STOP(t);
}

__global__ void st_w4_s8(float *a, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float v = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) * 2;
		a[k & 1048575] = v + 0;
		a[(k + 2 * nb) & 1048575] = v + 1;
		a[(k + 2 * 2 * nb) & 1048575] = v + 2;
		a[(k + 3 * 2 * nb) & 1048575] = v + 3;
		v += (float)4;
	}
	STOP(t);
}

__global__ void st_w8_s16(double *a, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	double v = (double)tid;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) * 2;
		a[k & 524287] = v + 0;
		a[(k + 2 * nb) & 524287] = v + 1;
		a[(k + 2 * 2 * nb) & 524287] = v + 2;
		a[(k + 3 * 2 * nb) & 524287] = v + 3;
		v += (double)4;
	}
	STOP(t);
}

__global__ void st_w4_s32(float *a, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float v = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) * 8;
		a[k & 1048575] = v + 0;
		a[(k + 8 * nb) & 1048575] = v + 1;
		a[(k + 2 * 8 * nb) & 1048575] = v + 2;
		a[(k + 3 * 8 * nb) & 1048575] = v + 3;
		v += (float)4;
	}
	STOP(t);
}

__global__ void st_w4_s128(float *a, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float v = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) * 32;
		a[k & 1048575] = v + 0;
		a[(k + 32 * nb) & 1048575] = v + 1;
		a[(k + 2 * 32 * nb) & 1048575] = v + 2;
		a[(k + 3 * 32 * nb) & 1048575] = v + 3;
		v += (float)4;
	}
	STOP(t);
}

__global__ void st_w8_s128(double *a, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	double v = (double)tid;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) * 16;
		a[k & 524287] = v + 0;
		a[(k + 16 * nb) & 524287] = v + 1;
		a[(k + 2 * 16 * nb) & 524287] = v + 2;
		a[(k + 3 * 16 * nb) & 524287] = v + 3;
		v += (double)4;
	}
	STOP(t);
}

__global__ void st_w4_one(float *a, long long *t, int n) {
	int tid = threadIdx.x;
	float v = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i & 15) * 128;
		a[k & 1048575] = v + 0;
		a[(k + 32) & 1048575] = v + 1;
		a[(k + 64) & 1048575] = v + 2;
		a[(k + 96) & 1048575] = v + 3;
		v += (float)4;
	}
	STOP(t);
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("st_w4_co"), st_w4_co, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("st_w16_co"), st_w16_co, blk, 256, 2, "", (float4 *)buf2, dt, nn);
		MEASURE(L("st_w4_s8"), st_w4_s8, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("st_w8_s16"), st_w8_s16, blk, 256, 2, "", (double *)buf2, dt, nn);
		MEASURE(L("st_w4_s32"), st_w4_s32, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("st_w4_s128"), st_w4_s128, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("st_w8_s128"), st_w8_s128, blk, 256, 2, "", (double *)buf2, dt, nn);
		MEASURE(L("st_w4_one"), st_w4_one, blk, 256, 2, "", (float *)buf2, dt, nn);
	}
	return 0;
}
