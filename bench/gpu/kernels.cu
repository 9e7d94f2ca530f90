// bench/gpu/kernels.cu: small kernels whose memory access and branch
// patterns ptxray predicts, measured on the GPU by bench/gpu/run_device.sh.
// Each kernel has one access (or branch) under test; the others are unit
// stride. Launch: 128 blocks of 256 threads (2-D kernels: 32x8), every
// kernel once, in the order below. No parameters but pointers, so the
// prediction needs no --param; all sizes are compile-time constants.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define G(name) extern "C" __global__ void name(float *out, const float *in, const int *idx)
#define I (blockIdx.x * blockDim.x + threadIdx.x)

// ---- global loads ----
G(g_unit) { out[I] = in[I]; }
G(g_stride2) { out[I] = in[2 * I]; }
G(g_stride3) { out[I] = in[3 * I]; }
G(g_stride4) { out[I] = in[4 * I]; }
G(g_stride8) { out[I] = in[8 * I]; }
G(g_stride32) { out[I] = in[32 * I]; }
G(g_misalign1) { out[I] = in[I + 1]; }
G(g_misalign3) { out[I] = in[I + 3]; }
G(g_misalign8) { out[I] = in[I + 8]; }
G(g_broadcast) { out[I] = in[0]; }
G(g_block_bcast) { out[I] = in[blockIdx.x]; }
G(g_warp_bcast) { out[I] = in[I / 32]; }
G(g_pairs) { out[I] = in[I / 2]; }
G(g_lane_rev) { out[I] = in[(I / 32) * 32 + 31 - threadIdx.x % 32]; }
G(g_warp_skew) { out[I] = in[(I / 32) * 33 + threadIdx.x % 32]; }
G(g_indirect) { out[I] = in[idx[I]]; }
struct S4 { float a, b, c, d; };
G(g_aos) { out[I] = ((const S4 *)in)[I].b; }
G(g_soa) { out[I] = in[32768 + I]; }
G(g_double) { ((double *)out)[I] = ((const double *)in)[I]; }
G(g_float2) { ((float2 *)out)[I] = ((const float2 *)in)[I]; }
G(g_float4) { ((float4 *)out)[I] = ((const float4 *)in)[I]; }
G(g_float4_stride2) { out[I] = ((const float4 *)in)[2 * I].x + ((const float4 *)in)[2 * I].w; }
G(g_char) { ((char *)out)[I] = ((const char *)in)[I]; }
G(g_short) { ((short *)out)[I] = ((const short *)in)[I]; }
G(g_store_stride2) { out[2 * I] = 1.0f; }
G(g_store_stride32) { out[32 * I] = 1.0f; }
G(g_atomic_unit) { atomicAdd(&out[I], 1.0f); }
G(g_atomic_same) { atomicAdd(&out[threadIdx.x % 32], 1.0f); }

// ---- 2-D (32x8 blocks, 16 x 8 grid: a 512 x 64 region of a 512-wide array) ----
#define W 512
#define X (blockIdx.x * 32 + threadIdx.x)
#define Y (blockIdx.y * 8 + threadIdx.y)
G(g2_row) { out[Y * W + X] = in[Y * W + X]; }
G(g2_col) { out[Y * W + X] = in[X * W + Y]; }
G(g2_half) { out[Y * W + X] = in[Y * W + X / 2]; }

// ---- shared memory (256 threads) ----
#define SH(name, expr)                                              \
	G(name) {                                                       \
		__shared__ float s[256 * 33];                               \
		int t = threadIdx.x;                                        \
		for (int k = t; k < 256 * 33; k += 256) s[k] = in[k % 4096]; \
		__syncthreads();                                            \
		out[I] = s[expr];                                           \
	}
SH(s_stride1, t)
SH(s_stride2, 2 * t)
SH(s_stride3, 3 * t)
SH(s_stride4, 4 * t)
SH(s_stride8, 8 * t)
SH(s_stride16, 16 * t)
SH(s_stride32, 32 * t)
SH(s_stride33, 33 * t)
SH(s_broadcast, 0)
SH(s_pairs, t / 2)
SH(s_warp_bcast, t / 32)
SH(s_lane_rev, 255 - t)
G(s_double) {
	__shared__ double s[512];
	int t = threadIdx.x;
	s[t] = in[I];
	s[t + 256] = 0;
	__syncthreads();
	out[I] = (float)s[t];
}
G(s_double_stride2) {
	__shared__ double s[512];
	int t = threadIdx.x;
	s[t] = in[I];
	s[t + 256] = 0;
	__syncthreads();
	out[I] = (float)s[(2 * t) % 512];
}
G(s_float4) {
	__shared__ float4 s[512];
	int t = threadIdx.x;
	s[t] = make_float4(in[I], 0, 0, 0);
	__syncthreads();
	float4 v = s[t];
	out[I] = v.x + v.w;
}
G(s_float4_stride2) {
	__shared__ float4 s[512];
	int t = threadIdx.x;
	s[t] = make_float4(in[I], 0, 0, 0);
	s[t + 256] = make_float4(0, 0, 0, 0);
	__syncthreads();
	float4 v = s[2 * t];
	out[I] = v.x + v.w;
}
G(s_char) {
	__shared__ char s[1024];
	int t = threadIdx.x;
	s[t] = (char)in[I];
	__syncthreads();
	out[I] = s[t];
}
G(s_transpose_naive) {
	__shared__ float tile[32][32];
	int x = X, y = blockIdx.y * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
	__syncthreads();
	x = blockIdx.y * 32 + threadIdx.x;
	y = blockIdx.x * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8) out[(y + j) * W + x] = tile[threadIdx.x][threadIdx.y + j];
}
G(s_transpose_padded) {
	__shared__ float tile[32][33];
	int x = X, y = blockIdx.y * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
	__syncthreads();
	x = blockIdx.y * 32 + threadIdx.x;
	y = blockIdx.x * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8) out[(y + j) * W + x] = tile[threadIdx.x][threadIdx.y + j];
}

// ---- branches (256 threads) ----
__device__ __noinline__ float work(float v) { return v * v + 1.0f; }
G(b_tid_mod2) { float v = in[I]; if (threadIdx.x % 2) v = work(v); out[I] = v; }
G(b_tid_lt16) { float v = in[I]; if (threadIdx.x < 16) v = work(v); out[I] = v; }
G(b_warp) { float v = in[I]; if ((threadIdx.x / 32) % 2) v = work(v); out[I] = v; }
G(b_block) { float v = in[I]; if (blockIdx.x % 2) v = work(v); out[I] = v; }
G(b_data) { float v = in[I]; if (v > 0.5f) v = work(v); out[I] = v; }
G(b_lane0) { float v = in[I]; if (threadIdx.x % 32 == 0) v = work(v); out[I] = v; }
G(b_tid_lt64) { float v = in[I]; if (threadIdx.x < 64) v = work(v); out[I] = v; }
G(b_loop_tid) { float v = 0; for (int k = 0; k < (int)(threadIdx.x % 8); k++) v += in[I + k]; out[I] = v; }
G(b_loop_uniform) { float v = 0; for (int k = 0; k < 8; k++) v += in[I * 8 + k]; out[I] = v; }
G(b_early_exit) { if (threadIdx.x >= 200) return; out[I] = work(in[I]); }
G(b_early_exit_warp) { if (threadIdx.x >= 192) return; out[I] = work(in[I]); }

struct K { const char *name; void (*fn)(float *, const float *, const int *); int twod; };
#define E(n) {#n, n, 0}
#define E2(n) {#n, n, 1}
static const K kernels[] = {
	E(g_unit), E(g_stride2), E(g_stride3), E(g_stride4), E(g_stride8), E(g_stride32),
	E(g_misalign1), E(g_misalign3), E(g_misalign8), E(g_broadcast), E(g_block_bcast),
	E(g_warp_bcast), E(g_pairs), E(g_lane_rev), E(g_warp_skew), E(g_indirect), E(g_aos),
	E(g_soa), E(g_double), E(g_float2), E(g_float4), E(g_float4_stride2), E(g_char),
	E(g_short), E(g_store_stride2), E(g_store_stride32), E(g_atomic_unit), E(g_atomic_same),
	E2(g2_row), E2(g2_col), E2(g2_half),
	E(s_stride1), E(s_stride2), E(s_stride3), E(s_stride4), E(s_stride8), E(s_stride16),
	E(s_stride32), E(s_stride33), E(s_broadcast), E(s_pairs), E(s_warp_bcast), E(s_lane_rev),
	E(s_double), E(s_double_stride2), E(s_float4), E(s_float4_stride2), E(s_char),
	E2(s_transpose_naive), E2(s_transpose_padded),
	E(b_tid_mod2), E(b_tid_lt16), E(b_warp), E(b_block), E(b_data), E(b_lane0), E(b_tid_lt64),
	E(b_loop_tid), E(b_loop_uniform), E(b_early_exit), E(b_early_exit_warp),
};

int main()
{
	const size_t n = 32u << 20;  /* floats per buffer */
	float *in, *out;
	int *idx;
	if (cudaMalloc(&in, n * 4) || cudaMalloc(&out, n * 4) || cudaMalloc(&idx, 32768 * 4)) {
		fprintf(stderr, "cudaMalloc failed\n");
		return 1;
	}
	float *h = (float *)malloc(n * 4);
	int *hi = (int *)malloc(32768 * 4);
	srand(1);
	for (size_t i = 0; i < n; i++) h[i] = (float)rand() / RAND_MAX;
	for (int i = 0; i < 32768; i++) hi[i] = rand() % 32768;
	cudaMemcpy(in, h, n * 4, cudaMemcpyHostToDevice);
	cudaMemcpy(idx, hi, 32768 * 4, cudaMemcpyHostToDevice);
	for (const K &k : kernels) {
		cudaMemset(out, 0, n * 4);
		if (k.twod)
			k.fn<<<dim3(16, 8), dim3(32, 8)>>>(out, in, idx);
		else
			k.fn<<<128, 256>>>(out, in, idx);
		cudaError_t e = cudaDeviceSynchronize();
		printf("%s %s\n", k.name, e == cudaSuccess ? "ok" : cudaGetErrorString(e));
	}
	return 0;
}
