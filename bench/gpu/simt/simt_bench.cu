// simt_bench.cu: ground truth for `ptxray simt`: loops timed with clock64()
// on the GPU. Every kernel runs one block; thread 0 reads clock64() after a
// __syncthreads() before the loop and after one following it, and the host
// reports (T(2n) - T(n)) / n, the cycles of one iteration with the set-up
// cost cancelled. The same file, compiled with `nvcc -ptx -arch=sm_90 -O3
// -lineinfo`, is what the simulator predicts
// (tests/fixtures/simt/simt_bench.sm_90.ptx); tests/check_simt.py simulates
// the block with n and 2n iterations and takes the same difference.
// Microbenchmarks (dependent chains: latency; many warps with independent
// chains: throughput) fill arch/sm_90.yaml; the realistic loops (reductions,
// stencils, tiled GEMM, scans, transpose, histogram, matrix-vector) only judge
// the prediction, and three of them are a held-out set the model was not
// tuned on (HELD_OUT in tests/check_simt.py).
// Memory the loops read: either small (L1/L2-resident after the first
// iterations, which the difference cancels) or, for the loops that claim to
// measure DRAM (global_stream, dram_lat), a fresh region of a 1 GiB buffer
// on every launch, so that no launch finds its data in the 50 MB L2 (the
// simulator counts a line's first touch as a DRAM access).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define U16(s) s s s s s s s s s s s s s s s s

// ---- integer ----
__global__ void int_add_lat(int *o, long long *t, int n, int a) {
	int x = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) { U16(x = x + a; x ^= a;) }
	STOP(t);
	o[threadIdx.x] = x;
}
__global__ void int_mad_lat(int *o, long long *t, int n, int a) {
	int x = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) { U16(x = x * a + i;) }
	STOP(t);
	o[threadIdx.x] = x;
}
__global__ void int_mad_tput(int *o, long long *t, int n, int a) {
	int x = threadIdx.x, y = x + 1, z = x + 2, w = x + 3;
	START();
	for (int i = 0; i < n; i++) { U16(x = x * a + i; y = y * a + i; z = z * a + i; w = w * a + i;) }
	STOP(t);
	o[threadIdx.x] = x + y + z + w;
}
// ---- FP32 ----
__global__ void fp32_lat(float *o, long long *t, int n, float a, float b) {
	float x = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) { U16(x = fmaf(x, a, b);) }
	STOP(t);
	o[threadIdx.x] = x;
}
__global__ void fp32_tput(float *o, long long *t, int n, float a, float b) {
	float x = threadIdx.x, y = x + 1, z = x + 2, w = x + 3;
	START();
	for (int i = 0; i < n; i++) { U16(x = fmaf(x, a, b); y = fmaf(y, a, b); z = fmaf(z, a, b); w = fmaf(w, a, b);) }
	STOP(t);
	o[threadIdx.x] = x + y + z + w;
}
// ---- FP64 ----
__global__ void fp64_lat(double *o, long long *t, int n, double a, double b) {
	double x = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) { U16(x = fma(x, a, b);) }
	STOP(t);
	o[threadIdx.x] = x;
}
__global__ void fp64_tput(double *o, long long *t, int n, double a, double b) {
	double x = threadIdx.x, y = x + 1, z = x + 2, w = x + 3;
	START();
	for (int i = 0; i < n; i++) { U16(x = fma(x, a, b); y = fma(y, a, b); z = fma(z, a, b); w = fma(w, a, b);) }
	STOP(t);
	o[threadIdx.x] = x + y + z + w;
}
// ---- SFU ----
__global__ void sfu_lat(float *o, long long *t, int n) {
	float x = threadIdx.x * 1e-3f;
	START();
	for (int i = 0; i < n; i++) { U16(x = __sinf(x);) }
	STOP(t);
	o[threadIdx.x] = x;
}
__global__ void sfu_tput(float *o, long long *t, int n) {
	float x = threadIdx.x * 1e-3f, y = x + 1, z = x + 2, w = x + 3;
	START();
	for (int i = 0; i < n; i++) { U16(x = __sinf(x); y = __sinf(y); z = __sinf(z); w = __sinf(w);) }
	STOP(t);
	o[threadIdx.x] = x + y + z + w;
}
// ---- shared memory ----
__global__ void shared_lat(int *o, long long *t, int n) {
	__shared__ int s[1024];
	for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = (i + 33) & 1023;
	int j = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) { U16(j = s[j];) }
	STOP(t);
	o[threadIdx.x] = j;
}
__global__ void shared_tput(int *o, long long *t, int n, int stride) {
	__shared__ int s[32 * 33 + 1024 + 16];
	for (int i = threadIdx.x; i < 32 * 33 + 1024 + 16; i += blockDim.x) s[i] = i;
	int j = (threadIdx.x * stride) % (32 * 33), acc = 0;
	START();
	// 16 independent loads per iteration at addresses that move with the
	// loop counter (a warp-uniform offset keeps the bank pattern of the
	// stride), so ptxas can neither hoist nor merge them
	for (int i = 0; i < n; i++) {
		const int *p = s + j + (i & 15) * 64;
#pragma unroll
		for (int u = 0; u < 16; u++) acc += p[u];
	}
	STOP(t);
	o[threadIdx.x] = acc;
}
// ---- global loads ----
__global__ void l1_lat(int *a, long long *t, int n) {
	for (int i = threadIdx.x; i < 1024; i += blockDim.x) a[i] = (i + 33) & 1023;
	__syncthreads();
	int j = threadIdx.x;
	for (int i = 0; i < 1024; i++) j = a[j];   // warm L1
	j = threadIdx.x + (j & 0x10000);
	START();
	for (int i = 0; i < n; i++) { U16(j = a[j];) }
	STOP(t);
	a[2048 + threadIdx.x] = j;
}
// L1 throughput: 16 independent coalesced loads per iteration (one 128-byte
// line each) from a 16 KiB block that stays in L1
__global__ void l1_tput(const float *a, float *o, long long *t, int n) {
	float acc = 0;
	for (int i = threadIdx.x; i < 4096; i += blockDim.x) acc += a[i];
	const float *p = a + (threadIdx.x & 31);
	START();
	for (int i = 0; i < n; i++) {
		const float *q = p + (i & 7) * 512;
#pragma unroll
		for (int u = 0; u < 16; u++) acc += q[u * 32];
	}
	STOP(t);
	o[threadIdx.x] = acc;
}
__global__ void l2_lat(int *a, long long *t, int n) {
	for (int i = threadIdx.x; i < 1024; i += blockDim.x) a[i] = (i + 33) & 1023;
	__syncthreads();
	int j = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) { U16(j = __ldcg(&a[j]);) }
	STOP(t);
	a[2048 + threadIdx.x] = j;
}
// DRAM latency: a dependent chase through lines no launch has touched
// before (the host passes a fresh region each launch). The next index is
// j + 1040 + (loaded value & mask) with mask = 0 at run time: the load's
// result feeds the next address (a true dependence the GPU must wait for)
// while its value is known to be irrelevant (the simulator, given
// --param mask=0, knows x & 0 = 0 and follows the same addresses).
__global__ void dram_lat(const unsigned *a, unsigned *o, long long *t, int n, unsigned mask) {
	unsigned j = 0;
	START();
	for (int i = 0; i < n; i++) { unsigned v = __ldcg(&a[j]); j += 1040u + (v & mask); }
	STOP(t);
	o[threadIdx.x] = j;
}
// streaming loads, coalesced (each iteration: every thread loads 4 B, 16
// times), from a fresh region of DRAM each launch
__global__ void global_stream(const float *a, float *o, long long *t, int n) {
	float acc = 0;
	const float *p = a + threadIdx.x;
	START();
	for (int i = 0; i < n; i++) { U16(acc += *p; p += blockDim.x;) }
	STOP(t);
	o[threadIdx.x] = acc;
}
// ---- barriers and shuffles ----
__global__ void barrier_loop(int *o, long long *t, int n) {
	int x = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) { U16(__syncthreads(); x += i;) }
	STOP(t);
	o[threadIdx.x] = x;
}
__global__ void shfl_lat(int *o, long long *t, int n) {
	int x = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) { U16(x = __shfl_xor_sync(0xffffffffu, x, 1);) }
	STOP(t);
	o[threadIdx.x] = x;
}
__global__ void shfl_tput(int *o, long long *t, int n) {
	int x = threadIdx.x, y = x + 1, z = x + 2, w = x + 3;
	START();
	for (int i = 0; i < n; i++) { U16(x = __shfl_xor_sync(0xffffffffu, x, 1); y = __shfl_xor_sync(0xffffffffu, y, 2);
	                                 z = __shfl_xor_sync(0xffffffffu, z, 4); w = __shfl_xor_sync(0xffffffffu, w, 8);) }
	STOP(t);
	o[threadIdx.x] = x + y + z + w;
}
// ---- realistic loops ----
// block reduction: per iteration, a block-wide tree sum in shared memory
__global__ void reduce_loop(const float *a, float *o, long long *t, int n) {
	__shared__ float s[256];
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		s[threadIdx.x] = a[(i & 63) * 256 + threadIdx.x];
		__syncthreads();
		for (int k = 128; k > 0; k >>= 1) {
			if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
			__syncthreads();
		}
		acc += s[0];
		__syncthreads();
	}
	STOP(t);
	o[threadIdx.x] = acc;
}
// 1-D 7-point stencil through a shared tile with halo
__global__ void stencil_loop(const float *a, float *o, long long *t, int n) {
	__shared__ float s[256 + 6];
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		int base = (i & 63) * 256;
		s[threadIdx.x + 3] = a[base + threadIdx.x + 3];
		if (threadIdx.x < 3) { s[threadIdx.x] = a[base + threadIdx.x]; s[threadIdx.x + 259] = a[base + threadIdx.x + 259]; }
		__syncthreads();
		float v = 0;
#pragma unroll
		for (int k = 0; k < 7; k++) v += s[threadIdx.x + k] * (0.1f + k);
		acc += v;
		__syncthreads();
	}
	STOP(t);
	o[threadIdx.x] = acc;
}
// tiled GEMM, 16x16 tiles, 256 threads: one k-tile per iteration
__global__ void gemm_loop(const float *A, const float *B, float *C, long long *t, int n) {
	__shared__ float As[16][16], Bs[16][16];
	int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		int kt = (i & 31) * 16;
		As[ty][tx] = A[ty * 512 + kt + tx];
		Bs[ty][tx] = B[(kt + ty) * 16 + tx];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < 16; k++) acc += As[ty][k] * Bs[k][tx];
		__syncthreads();
	}
	STOP(t);
	C[threadIdx.x] = acc;
}
// Hillis-Steele inclusive scan of 256 values in shared memory per iteration
__global__ void scan_loop(const int *a, int *o, long long *t, int n) {
	__shared__ int s[256];
	int acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		s[threadIdx.x] = a[(i & 63) * 256 + threadIdx.x];
		__syncthreads();
		for (int d = 1; d < 256; d <<= 1) {
			int v = threadIdx.x >= d ? s[threadIdx.x - d] : 0;
			__syncthreads();
			s[threadIdx.x] += v;
			__syncthreads();
		}
		acc += s[threadIdx.x];
		__syncthreads();
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

// ---- more realistic loops (any block size that is a multiple of 32 unless said) ----
// shared-tile transpose of 32x32 tiles with a padded tile (held out)
__global__ void transpose_loop(const float *a, float *o, long long *t, int n) {
	__shared__ float tile[32][33];
	int tx = threadIdx.x & 31, ty = threadIdx.x >> 5, rows = blockDim.x >> 5;
	START();
	for (int i = 0; i < n; i++) {
		const float *src = a + (i & 15) * 1024;
		float *dst = o + (i & 15) * 1024;
		for (int r = ty; r < 32; r += rows) tile[r][tx] = src[r * 32 + tx];
		__syncthreads();
		for (int r = ty; r < 32; r += rows) dst[r * 32 + tx] = tile[tx][r];
		__syncthreads();
	}
	STOP(t);
}
// block sum: shuffle-based warp reduction, warp partials through shared
// memory, a second shuffle reduction in warp 0
__global__ void warp_reduce_loop(const float *a, float *o, long long *t, int n) {
	__shared__ float part[32];
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		float v = a[(i & 63) * blockDim.x + threadIdx.x];
		for (int k = 16; k > 0; k >>= 1) v += __shfl_xor_sync(0xffffffffu, v, k);
		if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;
		__syncthreads();
		if (threadIdx.x < 32) {
			float w = threadIdx.x < (blockDim.x >> 5) ? part[threadIdx.x] : 0.0f;
			for (int k = 16; k > 0; k >>= 1) w += __shfl_xor_sync(0xffffffffu, w, k);
			acc += w;
		}
		__syncthreads();
	}
	STOP(t);
	o[threadIdx.x] = acc;
}
// histogram with shared atomics; keys from a multiplicative hash of the
// element index (256 bins at shift 24; 16 bins, heavy contention, at 28) (held out)
__global__ void histogram_loop(unsigned *o, long long *t, int n, int shift) {
	__shared__ unsigned h[256];
	for (int i = threadIdx.x; i < 256; i += blockDim.x) h[i] = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned x = (threadIdx.x + (unsigned)i * blockDim.x) * 2654435761u;
		atomicAdd(&h[x >> shift], 1u);
		atomicAdd(&h[(x >> (shift - 8)) & ((1u << (32 - shift)) - 1)], 1u);
	}
	STOP(t);
	for (int i = threadIdx.x; i < 256; i += blockDim.x) o[i] = h[i];
}
// 2-D 5-point stencil over a 16-wide shared tile with a one-element halo
// (16 x blockDim/16 threads; blockDim <= 512)
__global__ void stencil2d_loop(const float *a, float *o, long long *t, int n) {
	__shared__ float s[34][18];
	int tx = threadIdx.x & 15, ty = threadIdx.x >> 4, rows = blockDim.x >> 4;
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		const float *g = a + (i & 15) * 2048;
		s[ty + 1][tx + 1] = g[(ty + 1) * 64 + tx + 1];
		if (tx < 2) s[ty + 1][tx * 17] = g[(ty + 1) * 64 + tx * 17];
		if (ty < 2) s[ty * (rows + 1)][tx + 1] = g[ty * (rows + 1) * 64 + tx + 1];
		__syncthreads();
		acc += 0.2f * (s[ty + 1][tx + 1] + s[ty][tx + 1] + s[ty + 2][tx + 1] + s[ty + 1][tx] + s[ty + 1][tx + 2]);
		__syncthreads();
	}
	STOP(t);
	o[threadIdx.x] = acc;
}
// matrix-vector product, one row per thread, column-major A, x in shared (held out)
__global__ void matvec_loop(const float *A, const float *x, float *y, long long *t, int n) {
	__shared__ float xs[256];
	for (int k = threadIdx.x; k < 256; k += blockDim.x) xs[k] = x[k];
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = i & 255;
		acc += A[(k & 63) * blockDim.x + threadIdx.x] * xs[k];
	}
	STOP(t);
	y[threadIdx.x] = acc;
}
// block-wide inclusive scan: Kogge-Stone with shfl.up in each warp, warp
// totals scanned by warp 0 through shared memory
__global__ void kscan_loop(const int *a, int *o, long long *t, int n) {
	__shared__ int wsum[32];
	int acc = 0, lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
	START();
	for (int i = 0; i < n; i++) {
		int v = a[(i & 63) * blockDim.x + threadIdx.x];
		for (int d = 1; d < 32; d <<= 1) { int u = __shfl_up_sync(0xffffffffu, v, d); if (lane >= d) v += u; }
		if (lane == 31) wsum[wid] = v;
		__syncthreads();
		if (wid == 0) {
			int w = lane < nw ? wsum[lane] : 0;
			for (int d = 1; d < 32; d <<= 1) { int u = __shfl_up_sync(0xffffffffu, w, d); if (lane >= d) w += u; }
			wsum[lane] = w;
		}
		__syncthreads();
		if (wid > 0) v += wsum[wid - 1];
		acc += v;
		__syncthreads();
	}
	STOP(t);
	o[threadIdx.x] = acc;
}
// register-blocked tiled GEMM: 32x32 output tile per block of 256 threads,
// 4 outputs per thread, 32-deep k-tiles through shared memory (256 threads only)
__global__ void gemm_rb_loop(const float *A, const float *B, float *C, long long *t, int n) {
	__shared__ float As[32][33], Bs[32][32];
	int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
	float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
	START();
	for (int i = 0; i < n; i++) {
		int kt = (i & 15) * 32;
#pragma unroll
		for (int r = 0; r < 4; r++) {
			As[ty + 8 * r][tx] = A[(ty + 8 * r) * 512 + kt + tx];
			Bs[ty + 8 * r][tx] = B[(kt + ty + 8 * r) * 32 + tx];
		}
		__syncthreads();
#pragma unroll
		for (int k = 0; k < 32; k++) {
			float b = Bs[k][tx];
			c0 += As[ty][k] * b; c1 += As[ty + 8][k] * b; c2 += As[ty + 16][k] * b; c3 += As[ty + 24][k] * b;
		}
		__syncthreads();
	}
	STOP(t);
	C[threadIdx.x] = c0 + c1 + c2 + c3;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	fresh_init();
	CK(cudaDeviceSynchronize());
	int *ib = (int *)buf; float *fb = (float *)buf; double *db = (double *)buf;
	const int N = 256;
	char l[64];
	for (int blk = 32; blk <= 1024; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("int_add_lat"), int_add_lat, blk, N, 2, "", ib, dt, nn, 3);
		MEASURE(L("int_mad_lat"), int_mad_lat, blk, N, 2, "", ib, dt, nn, 3);
		MEASURE(L("int_mad_tput"), int_mad_tput, blk, N, 2, "", ib, dt, nn, 3);
		MEASURE(L("fp32_lat"), fp32_lat, blk, N, 2, "", fb, dt, nn, 1.0001f, 0.5f);
		MEASURE(L("fp32_tput"), fp32_tput, blk, N, 2, "", fb, dt, nn, 1.0001f, 0.5f);
		MEASURE(L("fp64_lat"), fp64_lat, blk, N, 2, "", db, dt, nn, 1.0001, 0.5);
		MEASURE(L("fp64_tput"), fp64_tput, blk, N, 2, "", db, dt, nn, 1.0001, 0.5);
		MEASURE(L("sfu_lat"), sfu_lat, blk, N, 2, "", fb, dt, nn);
		MEASURE(L("sfu_tput"), sfu_tput, blk, N, 2, "", fb, dt, nn);
		MEASURE(L("shared_lat"), shared_lat, blk, N, 2, "", ib, dt, nn);
		MEASURE(L("shared_tput_s1"), shared_tput, blk, N, 2, "3=1", ib, dt, nn, 1);
		MEASURE(L("shared_tput_s32"), shared_tput, blk, N, 2, "3=32", ib, dt, nn, 32);
		MEASURE(L("shared_tput_s33"), shared_tput, blk, N, 2, "3=33", ib, dt, nn, 33);
		MEASURE(L("l1_lat"), l1_lat, blk, N, 2, "", ib, dt, nn);
		MEASURE(L("l1_tput"), l1_tput, blk, N, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("l2_lat"), l2_lat, blk, N, 2, "", ib, dt, nn);
		MEASURE(L("barrier_loop"), barrier_loop, blk, N, 2, "", ib, dt, nn);
		MEASURE(L("shfl_lat"), shfl_lat, blk, N, 2, "", ib, dt, nn);
		MEASURE(L("shfl_tput"), shfl_tput, blk, N, 2, "", ib, dt, nn);
		MEASURE(L("global_stream"), global_stream, blk, 64, 3, "",
		        (const float *)fresh((size_t)16 * nn * blk * 4 + 4096), (float *)buf2, dt, nn);
	}
	MEASURE("dram_lat/32", dram_lat, 32, 1024, 3, "4=0",
	        (const unsigned *)fresh((size_t)nn * 4160 + 4096), (unsigned *)buf2, dt, nn, 0u);
	MEASURE("reduce_loop/256", reduce_loop, 256, N, 3, "", fb, (float *)buf2, dt, nn);
	MEASURE("stencil_loop/256", stencil_loop, 256, N, 3, "", fb, (float *)buf2, dt, nn);
	MEASURE("gemm_loop/256", gemm_loop, 256, N, 4, "", fb, fb + (1 << 20), (float *)buf2, dt, nn);
	MEASURE("scan_loop/256", scan_loop, 256, N, 3, "", ib, (int *)buf2, dt, nn);
	MEASURE("gemm_rb_loop/256", gemm_rb_loop, 256, N, 4, "", fb, fb + (1 << 20), (float *)buf2, dt, nn);
	for (int blk = 128; blk <= 512; blk *= 2) {
		MEASURE(L("transpose_loop"), transpose_loop, blk, N, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("warp_reduce_loop"), warp_reduce_loop, blk, N, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("histogram_loop_256"), histogram_loop, blk, N, 2, "3=24", (unsigned *)buf2, dt, nn, 24);
		MEASURE(L("histogram_loop_16"), histogram_loop, blk, N, 2, "3=28", (unsigned *)buf2, dt, nn, 28);
		MEASURE(L("stencil2d_loop"), stencil2d_loop, blk, N, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("matvec_loop"), matvec_loop, blk, N, 4, "", fb, fb + (1 << 20), (float *)buf2, dt, nn);
		MEASURE(L("kscan_loop"), kscan_loop, blk, N, 3, "", ib, (int *)buf2, dt, nn);
	}
	return 0;
}
