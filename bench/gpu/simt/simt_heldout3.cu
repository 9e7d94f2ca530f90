// simt_heldout3.cu: the third held-out set for `ptxray simt`'s timing model,
// written and committed before its first measurement, while the model was
// being changed on simt_heldout.cu's results (which made that set training
// data). Same method as simt_bench.cu: one block, clock64() around the loop
// between __syncthreads(), (T(2n) - T(n)) / n per loop, best of 5;
// tests/check_simt.py simulates tests/fixtures/simt/heldout3/simt_heldout3.sm_90.ptx
// (this file through `nvcc -ptx -arch=sm_90 -O3 -lineinfo`) and reports the
// set apart ("held-out 3"). Addresses and branches depend on indices only.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// sparse rows of 4..8 entries (row length from the row index, so the inner
// loop's trip count differs between the lanes of a warp), column indices
// hashed into a 4096-entry vector
__global__ void spmv_rows_loop(const float *val, const float *x, float *y, long long *t, int n) {
	int row = threadIdx.x;
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		int len = 4 + ((row + i) % 5);
		int base = ((i & 15) * 1024 + row) * 8;
		for (int k = 0; k < len; k++) {
			unsigned c = (unsigned)(row * 2654435761u + (unsigned)k * 40503u + (unsigned)i) >> 20;
			acc += val[base + k] * x[c];
		}
	}
	STOP(t);
	y[row] = acc;
}

// per-warp 16-bin digit counts with shared atomics, then the block's totals
// summed by 16 threads
__global__ void digit_count_loop(unsigned *o, long long *t, int n) {
	__shared__ unsigned cnt[32][16];
	__shared__ unsigned tot[16];
	int tid = threadIdx.x, w = tid >> 5, nw = blockDim.x >> 5;
	if (tid < 16) tot[tid] = 0;
	START();
	for (int i = 0; i < n; i++) {
		if ((tid & 31) < 16) cnt[w][tid & 15] = 0;
		__syncthreads();
		unsigned key = (unsigned)(tid + i * 977) * 2654435761u;
		atomicAdd(&cnt[w][(key >> 12) & 15], 1u);
		__syncthreads();
		if (tid < 16) {
			unsigned s = 0;
			for (int k = 0; k < nw; k++) s += cnt[k][tid];
			tot[tid] += s;
		}
		__syncthreads();
	}
	STOP(t);
	if (tid < 16) o[tid] = tot[tid];
}

// 2x2 outputs per thread from 64x16 and 16x64 shared tiles read as float2
__global__ void mm2x2_loop(const float *A, const float *B, float *C, long long *t, int n) {
	__shared__ float2 As[16][32];   // 64 rows as 32 float2 per k
	__shared__ float2 Bs[16][32];   // 64 columns as 32 float2 per k
	int tid = threadIdx.x, tx = tid & 31, ty = (tid >> 5) & 31;
	float c00 = 0, c01 = 0, c10 = 0, c11 = 0;
	START();
	for (int i = 0; i < n; i++) {
		for (int e = tid; e < 16 * 32; e += blockDim.x) {
			As[e >> 5][e & 31] = make_float2(A[(i & 7) * 1024 + 2 * e], A[(i & 7) * 1024 + 2 * e + 1]);
			Bs[e >> 5][e & 31] = make_float2(B[(i & 7) * 1024 + 2 * e], B[(i & 7) * 1024 + 2 * e + 1]);
		}
		__syncthreads();
#pragma unroll
		for (int k = 0; k < 16; k++) {
			float2 a = As[k][ty], b = Bs[k][tx];
			c00 += a.x * b.x; c01 += a.x * b.y; c10 += a.y * b.x; c11 += a.y * b.y;
		}
		__syncthreads();
	}
	STOP(t);
	C[tid] = c00 + c01 + c10 + c11;
}

// warp sums by shuffles, one global atomic per warp per iteration into 8
// accumulators
__global__ void warp_atomic_loop(const float *a, float *acc, long long *t, int n) {
	int tid = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) {
		float v = a[(i & 31) * 512 + tid];
		for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
		if ((tid & 31) == 0) atomicAdd(&acc[(tid >> 5) & 7], v);
	}
	STOP(t);
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	float *fb = (float *)buf;
	char l[64];
	for (int blk = 128; blk <= 512; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("spmv_rows_loop"), spmv_rows_loop, blk, 128, 4, "", fb, fb + (1 << 20), (float *)buf2, dt, nn);
		MEASURE(L("digit_count_loop"), digit_count_loop, blk, 256, 2, "", (unsigned *)buf2, dt, nn);
		MEASURE(L("mm2x2_loop"), mm2x2_loop, blk, 128, 4, "", fb, fb + (1 << 20), (float *)buf2, dt, nn);
		MEASURE(L("warp_atomic_loop"), warp_atomic_loop, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
	}
	return 0;
}
