// simt_heldout4.cu: the fourth held-out set for `ptxray simt`'s timing
// model. The branch model and the shared-store queue (2026-11-26) were
// fitted on probes that the first three sets' misses led to, so those sets
// no longer test the model blind. This one was written, and the model's
// predictions for it committed (tests/fixtures/simt/heldout4/predicted.jsonl),
// before its first measurement. Same method as simt_bench.cu: one block,
// clock64() around the loop between __syncthreads(), (T(2n) - T(n)) / n per
// loop, best of 5; tests/check_simt.py simulates
// tests/fixtures/simt/heldout4/simt_heldout4.sm_90.ptx (this file through
// `nvcc -ptx -arch=sm_90 -O3 -lineinfo`) and reports the set apart
// ("held-out 4"). Addresses and branches depend on indices only, never on
// the data (which the simulator does not know).
//
// The loops: a block-wide scan in shared memory, a block reduction through
// warp shuffles, an indirect gather, a 1-D stencil with a halo, a
// double-precision dot product, special-function math, an escape-time loop
// whose trip count differs between lanes, and an integer hash.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// inclusive Hillis-Steele scan of a block-sized tile from global memory,
// double-buffered in shared memory, written back
__global__ void scan_loop(const float *a, float *o, long long *t, int n) {
	__shared__ float s[2][512];
	int tid = threadIdx.x, nb = blockDim.x;
	START();
	for (int i = 0; i < n; i++) {
		int p = 0;
		s[0][tid] = a[(i & 15) * 512 + tid];
		__syncthreads();
		for (int d = 1; d < nb; d <<= 1) {
			float v = s[p][tid];
			if (tid >= d) v += s[p][tid - d];
			s[p ^ 1][tid] = v;
			p ^= 1;
			__syncthreads();
		}
		o[(i & 15) * 512 + tid] = s[p][tid];
		__syncthreads();
	}
	STOP(t);
}

// block sum: each warp reduces by shuffles, warp 0 sums the warps' partials
__global__ void block_reduce_loop(const float *a, float *o, long long *t, int n) {
	__shared__ float part[32];
	int tid = threadIdx.x, lane = tid & 31, w = tid >> 5, nw = blockDim.x >> 5;
	float total = 0;
	START();
	for (int i = 0; i < n; i++) {
		float v = a[(i & 31) * 512 + tid];
		for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffffu, v, d);
		if (lane == 0) part[w] = v;
		__syncthreads();
		if (w == 0) {
			float x = lane < nw ? part[lane] : 0.0f;
			for (int d = 16; d > 0; d >>= 1) x += __shfl_xor_sync(0xffffffffu, x, d);
			total += x;
		}
		__syncthreads();
	}
	STOP(t);
	if (tid == 0) o[0] = total;
}

// y += x[idx], the index a hash of the thread and the iteration into a
// 64 Ki-entry table (about one line per lane)
__global__ void gather_loop(const float *x, float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned h = ((unsigned)tid * 2654435761u) ^ ((unsigned)i * 40503u);
		acc += x[(h >> 8) & 65535];
	}
	STOP(t);
	o[tid] = acc;
}

// 7-point stencil: the block's tile and a halo of 3 on each side staged
// in shared memory, one output per thread
__global__ void stencil1d_loop(const float *a, float *o, long long *t, int n) {
	__shared__ float s[512 + 6];
	int tid = threadIdx.x, nb = blockDim.x;
	START();
	for (int i = 0; i < n; i++) {
		const float *g = a + (i & 15) * 1024 + 3;
		s[tid + 3] = g[tid];
		if (tid < 3) {
			s[tid] = g[tid - 3];
			s[nb + 3 + tid] = g[nb + tid];
		}
		__syncthreads();
		float v = 0.25f * s[tid + 3] + 0.125f * (s[tid + 2] + s[tid + 4]) +
		          0.0625f * (s[tid + 1] + s[tid + 5]) + 0.03125f * (s[tid] + s[tid + 6]);
		o[(i & 15) * 1024 + tid] = v;
		__syncthreads();
	}
	STOP(t);
}

// double-precision dot product of two strided streams
__global__ void ddot_loop(const double *a, const double *b, double *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	double acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i & 63) * nb + tid;
		acc = fma(a[k], b[k], acc);
	}
	STOP(t);
	o[tid] = acc;
}

// special-function math on register values: exp, sine, reciprocal root
__global__ void sfu_loop(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float x = 0.001f * tid, y = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		float e = __expf(-x);
		float sn = __sinf(x + y);
		y = fmaf(e, sn, rsqrtf(1.0f + x * x));
		x = fmaf(x, 0.999f, 0.001f);
	}
	STOP(t);
	o[tid] = x + y;
}

// escape-time iteration on a grid that the thread and iteration index
// choose: lanes leave the inner loop at different counts (at most 24)
__global__ void escape_loop(int *o, long long *t, int n) {
	int tid = threadIdx.x;
	int total = 0;
	START();
	for (int i = 0; i < n; i++) {
		float cr = -2.0f + 0.01171875f * (float)((tid * 7 + i * 13) & 255);
		float ci = -1.0f + 0.0078125f * (float)((tid * 3 + i * 5) & 255);
		float zr = 0, zi = 0;
		int k = 0;
		while (k < 24 && zr * zr + zi * zi < 4.0f) {
			float tr = zr * zr - zi * zi + cr;
			zi = 2.0f * zr * zi + ci;
			zr = tr;
			k++;
		}
		total += k;
	}
	STOP(t);
	o[tid] = total;
}

// an integer mix (multiply, shift, xor, rotate) chained through iterations
__global__ void hash_loop(unsigned *o, long long *t, int n) {
	unsigned h = threadIdx.x * 0x9e3779b9u + 1u;
	START();
	for (int i = 0; i < n; i++) {
		h ^= h >> 16;
		h *= 0x85ebca6bu;
		h ^= h >> 13;
		h = (h << 5) | (h >> 27);
		h = h * 0xc2b2ae35u + (unsigned)i;
	}
	STOP(t);
	o[threadIdx.x] = h;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	float *fb = (float *)buf;
	char l[64];
	for (int blk = 128; blk <= 512; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("scan_loop"), scan_loop, blk, 64, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("block_reduce_loop"), block_reduce_loop, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("gather_loop"), gather_loop, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("stencil1d_loop"), stencil1d_loop, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("ddot_loop"), ddot_loop, blk, 2048, 4, "", (const double *)buf, (const double *)buf + (1 << 20),
		        (double *)buf2, dt, nn);
		MEASURE(L("sfu_loop"), sfu_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("escape_loop"), escape_loop, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("hash_loop"), hash_loop, blk, 256, 2, "", (unsigned *)buf2, dt, nn);
	}
	return 0;
}
