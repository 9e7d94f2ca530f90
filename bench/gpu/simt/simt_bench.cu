// simt_bench.cu: ground truth for `ptxray simt`: loops timed with clock64()
// on the GPU. Every kernel runs one block; thread 0 reads clock64() after a
// __syncthreads() before the loop and after one following it, and the host
// reports (T(2n) - T(n)) / n, the cycles of one iteration with the set-up
// cost cancelled. The same file, compiled with `nvcc -ptx -arch=sm_90
// -lineinfo`, is what the simulator predicts (tests/golden/simt/bench.sm_90.ptx).
// Microbenchmarks (dependent chains: latency; many warps with independent
// chains: throughput) fill arch/sm_90.yaml; the realistic loops (reduction,
// stencil, tiled GEMM, scan) only judge the prediction.
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
	__shared__ int s[32 * 33];
	for (int i = threadIdx.x; i < 32 * 33; i += blockDim.x) s[i] = i;
	int j = (threadIdx.x * stride) % (32 * 33), acc = 0;
	START();
	for (int i = 0; i < n; i++) { U16(acc += s[j]; j ^= 1;) }
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
__global__ void l2_lat(int *a, long long *t, int n) {
	for (int i = threadIdx.x; i < 1024; i += blockDim.x) a[i] = (i + 33) & 1023;
	__syncthreads();
	int j = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) { U16(j = __ldcg(&a[j]);) }
	STOP(t);
	a[2048 + threadIdx.x] = j;
}
// chase over a large array initialised by fill_chase (stride 4 KiB + 64 B)
__global__ void dram_lat(const unsigned *a, unsigned *o, long long *t, int n) {
	unsigned j = 0;
	START();
	for (int i = 0; i < n; i++) { j = __ldcg(&a[j]); }
	STOP(t);
	o[threadIdx.x] = j;
}
__global__ void fill_chase(unsigned *a, size_t len, unsigned step) {
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i < len) a[i] = (unsigned)((i + step) % len);
}
// streaming loads, coalesced (each iteration: every thread loads 4 B, 16 times)
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

// ---- host ----
static long long *dt;
static void *buf, *buf2, *big;

#define CK(x) do { cudaError_t e_ = (x); if (e_) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static long long take(void) { long long h; CK(cudaDeviceSynchronize()); CK(cudaMemcpy(&h, dt, sizeof h, cudaMemcpyDeviceToHost)); return h; }

// one measurement: best of 5 of T(2n) - T(n), per iteration; the call's
// arguments name the iteration count `nn`
#define MEASURE(label, name, block, n, ...) do { \
	double best = 1e30; \
	for (int r = 0; r < 5; r++) { \
		int nn = n; name<<<1, block>>>(__VA_ARGS__); long long a1 = take(); \
		nn = 2 * n; name<<<1, block>>>(__VA_ARGS__); long long a2 = take(); \
		double c = (double)(a2 - a1) / n; if (c < best) best = c; \
	} \
	printf("{\"loop\": \"%s\", \"kernel\": \"%s\", \"block\": %d, \"n\": %d, \"cycles_per_iteration\": %.2f}\n", label, #name, block, n, best); \
} while (0)

int main(void) {
	cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
	int clk = 0; cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
	printf("{\"device\": \"%s\", \"cc\": \"%d.%d\", \"clock_khz\": %d}\n", p.name, p.major, p.minor, clk);
	CK(cudaMalloc(&dt, 64));
	CK(cudaMalloc(&buf, 64 << 20)); CK(cudaMemset(buf, 0, 64 << 20));
	CK(cudaMalloc(&buf2, 64 << 20)); CK(cudaMemset(buf2, 0, 64 << 20));
	size_t biglen = (size_t)256 << 20;  // 1 GiB of unsigned
	CK(cudaMalloc(&big, biglen * 4));
	fill_chase<<<(unsigned)((biglen + 255) / 256), 256>>>((unsigned *)big, biglen, 1040u * 16 + 7);
	CK(cudaDeviceSynchronize());
	int *ib = (int *)buf; float *fb = (float *)buf; double *db = (double *)buf;
	const int N = 256;
	char l[64];
	for (int blk = 32; blk <= 1024; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("int_add_lat"), int_add_lat, blk, N, ib, dt, nn, 3);
		MEASURE(L("int_mad_lat"), int_mad_lat, blk, N, ib, dt, nn, 3);
		MEASURE(L("int_mad_tput"), int_mad_tput, blk, N, ib, dt, nn, 3);
		MEASURE(L("fp32_lat"), fp32_lat, blk, N, fb, dt, nn, 1.0001f, 0.5f);
		MEASURE(L("fp32_tput"), fp32_tput, blk, N, fb, dt, nn, 1.0001f, 0.5f);
		MEASURE(L("fp64_lat"), fp64_lat, blk, N, db, dt, nn, 1.0001, 0.5);
		MEASURE(L("fp64_tput"), fp64_tput, blk, N, db, dt, nn, 1.0001, 0.5);
		MEASURE(L("sfu_lat"), sfu_lat, blk, N, fb, dt, nn);
		MEASURE(L("sfu_tput"), sfu_tput, blk, N, fb, dt, nn);
		MEASURE(L("shared_lat"), shared_lat, blk, N, ib, dt, nn);
		MEASURE(L("shared_tput_s1"), shared_tput, blk, N, ib, dt, nn, 1);
		MEASURE(L("shared_tput_s32"), shared_tput, blk, N, ib, dt, nn, 32);
		MEASURE(L("shared_tput_s33"), shared_tput, blk, N, ib, dt, nn, 33);
		MEASURE(L("l1_lat"), l1_lat, blk, N, ib, dt, nn);
		MEASURE(L("l2_lat"), l2_lat, blk, N, ib, dt, nn);
		MEASURE(L("barrier_loop"), barrier_loop, blk, N, ib, dt, nn);
		MEASURE(L("shfl_lat"), shfl_lat, blk, N, ib, dt, nn);
		MEASURE(L("shfl_tput"), shfl_tput, blk, N, ib, dt, nn);
		MEASURE(L("global_stream"), global_stream, blk, 64, fb, (float *)buf2, dt, nn);
	}
	MEASURE("dram_lat/32", dram_lat, 32, 4096, (const unsigned *)big, (unsigned *)buf2, dt, nn);
	MEASURE("reduce_loop/256", reduce_loop, 256, N, fb, (float *)buf2, dt, nn);
	MEASURE("stencil_loop/256", stencil_loop, 256, N, fb, (float *)buf2, dt, nn);
	MEASURE("gemm_loop/256", gemm_loop, 256, N, fb, fb + (1 << 20), (float *)buf2, dt, nn);
	MEASURE("scan_loop/256", scan_loop, 256, N, ib, (int *)buf2, dt, nn);
	return 0;
}
