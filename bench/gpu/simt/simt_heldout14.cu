// simt_heldout14.cu: the fourteenth held-out set for `ptxray simt`'s timing
// model: realistic loops of kinds no earlier set has (compensated sums,
// bit-code nearest neighbours, int8 quantisation, packed half arithmetic,
// a k-means step, an image filter on bytes, segmented reductions, a
// register-staged tile pipeline, a double-precision exponential).
// Written, and the model's predictions committed
// (tests/fixtures/simt/heldout14/predicted.jsonl), before the first
// measurement. Same method as the other held-out sets (loop_host.cuh): one
// block, clock64() around the loop between __syncthreads(), T(n) and T(2n),
// five launches; tests/check_simt.py simulates
// tests/fixtures/simt/heldout14/simt_heldout14.sm_90.ptx (this file through
// `nvcc -arch=sm_90 -O3 -lineinfo -ptx`); run with
// `sh bench/gpu/simt/heldout.sh simt_heldout14`.
//
// The data that steers control flow, addresses or selects (the codes, the
// points and centroids, the image, the head flags, the exponential's
// arguments, the rows quantised, the half vectors) is built by the kernel
// itself before the timed loop, from a hash, because the simulator knows
// only memory the kernel wrote; the data that only flows into arithmetic
// (the compensated sum's values, the pipelined filter's stream) is made by
// the host (random values in buf).
//  - kahan_sum_loop: Kahan-compensated float sum, two float4 of global data
//    a thread an iteration: a dependent FADD chain of 32;
//  - hamming_nn_loop: nearest 256-bit binary code by Hamming distance,
//    codes stored as four 64-bit planes (coalesced 64-bit loads), xor and
//    __popcll, the best distance and index kept by compare and select;
//  - quant_i8_loop: dynamic per-row int8 quantisation, a warp a 128-float
//    row: |max| by shuffles, 127 / amax (IEEE division), cvt.rni.sat.s8.f32
//    (inline PTX, as vLLM writes it), four bytes packed by __byte_perm;
//  - half2_silu_loop: SiLU on packed halves, the sigmoid an odd polynomial
//    in __hfma2 (Horner in x^2), 16 halves a thread an iteration (two
//    16-byte loads and stores), a float sum of the results by
//    __half22float2;
//  - kmeans_assign_loop: k-means assignment of 4-D points to the nearest
//    of 8 centroids in shared memory (broadcast 16-byte loads; one of four
//    restarts' centroid sets an iteration), argmin by compare and select;
//  - sobel_loop: 3x3 Sobel gradient magnitude of a 64x64 byte image in
//    shared memory, four pixels a thread (18 u8 loads, clamped borders),
//    |gx| + |gy| saturated to a byte, a uchar4 store, edges counted;
//  - seg_reduce_loop: segmented warp sum (reduce-by-key) with head flags:
//    __ballot_sync of the heads, each lane's segment start by __clz, a
//    shuffle-up scan bounded by it, the segment's tail lane storing;
//  - pipe_tile_loop: a register-staged pipeline: each iteration loads the
//    next tile's float4 from global memory into registers, runs an 8-tap
//    circular filter over the current tile in shared memory, then after a
//    __syncthreads stores the prefetched float4 into the tile;
//  - exp64_loop: exp in double precision: range reduction by rint and a
//    two-part ln 2 (DFMA), a degree-11 Horner polynomial (dependent DFMA
//    chain), the scale 2^k built in the exponent bits.
// At 128 and 512 threads.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__device__ __forceinline__ unsigned mix(unsigned x) {
	x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
	return x;
}
// a uniform float in [lo, hi) from a hash of k
__device__ __forceinline__ float hunif(unsigned k, float lo, float hi) {
	return lo + (hi - lo) * (float)(mix(k) >> 8) * (1.0f / 16777216.0f);
}

// Kahan summation of 65536 floats (16384 float4), a thread's two float4
// 8192 float4 apart
__global__ void kahan_sum_loop(const float *x, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	const float4 *x4 = (const float4 *)x;
	float s = 0.0f, c = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i * nb + tid) & 8191;
		float4 a = x4[k], b = x4[k + 8192];
		float v[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
#pragma unroll
		for (int j = 0; j < 8; j++) {
			float y = v[j] - c;
			float tt = s + y;
			c = (tt - s) - y;
			s = tt;
		}
	}
	STOP(t);
	o[tid] = s;
	o[tid + 512] = c;
}

// 4096 codes of 256 bits, plane p (64 bits of each code) at db[p * 4096];
// each thread's query a hash of its index; two codes a thread an iteration
__global__ void hamming_nn_loop(unsigned long long *db, int *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < 4 * 4096; k += nb)
		db[k] = ((unsigned long long)mix((unsigned)k * 2u + 11u) << 32) | mix((unsigned)k * 2u + 12u);
	__syncthreads();
	unsigned long long q0 = ((unsigned long long)mix((unsigned)tid + 900u) << 32) | mix((unsigned)tid + 901u);
	unsigned long long q1 = ((unsigned long long)mix((unsigned)tid + 902u) << 32) | mix((unsigned)tid + 903u);
	unsigned long long q2 = ((unsigned long long)mix((unsigned)tid + 904u) << 32) | mix((unsigned)tid + 905u);
	unsigned long long q3 = ((unsigned long long)mix((unsigned)tid + 906u) << 32) | mix((unsigned)tid + 907u);
	int best = 257, bi = -1;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int j = 0; j < 2; j++) {
			int e = ((2 * i + j) * nb + tid) & 4095;
			int d = __popcll(db[e] ^ q0) + __popcll(db[4096 + e] ^ q1) +
			        __popcll(db[8192 + e] ^ q2) + __popcll(db[12288 + e] ^ q3);
			if (d < best) {
				best = d;
				bi = e;
			}
		}
	}
	STOP(t);
	o[tid] = best * 65536 + bi;
}

// round to nearest, saturate to int8 (vLLM's float_to_int8_rn)
__device__ __forceinline__ int8_t float_to_int8_rn(float x) {
	uint32_t dst;
	asm volatile("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(dst) : "f"(x));
	return (int8_t)dst;
}
// 128 rows of 128 floats in [-3, 3) times a row scale in [0.25, 4); the
// row's int8 values in 32 words, its scale apart
__global__ void quant_i8_loop(float *x, unsigned *qo, float *so, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < 128 * 128; k += nb)
		x[k] = hunif((unsigned)k + 31337u, -3.0f, 3.0f) * hunif((unsigned)(k >> 7) + 555u, 0.25f, 4.0f);
	__syncthreads();
	START();
	for (int i = 0; i < n; i++) {
		int r = (i * nw + w) & 127;
		float4 a = ((const float4 *)(x + r * 128))[lane];
		float m = fmaxf(fmaxf(fabsf(a.x), fabsf(a.y)), fmaxf(fabsf(a.z), fabsf(a.w)));
		for (int d = 16; d > 0; d >>= 1)
			m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, d));
		float inv = 127.0f / m;
		int8_t b0 = float_to_int8_rn(a.x * inv), b1 = float_to_int8_rn(a.y * inv);
		int8_t b2 = float_to_int8_rn(a.z * inv), b3 = float_to_int8_rn(a.w * inv);
		qo[r * 32 + lane] = __byte_perm(__byte_perm(b0, b1, 0x0040), __byte_perm(b2, b3, 0x0040), 0x5410);
		if (lane == 0)
			so[r] = m / 127.0f;
	}
	STOP(t);
}

// x * sigmoid(x), sigmoid(x) ~ 0.5 + x (1/4 - x^2/48 + x^4/480 - 17 x^6/80640)
__device__ __forceinline__ __half2 silu2(__half2 x) {
	const __half2 c1 = __float2half2_rn(0.25f), c3 = __float2half2_rn(-1.0f / 48.0f);
	const __half2 c5 = __float2half2_rn(1.0f / 480.0f), c7 = __float2half2_rn(-17.0f / 80640.0f);
	const __half2 h = __float2half2_rn(0.5f);
	__half2 x2 = __hmul2(x, x);
	__half2 p = __hfma2(c7, x2, c5);
	p = __hfma2(p, x2, c3);
	p = __hfma2(p, x2, c1);
	return __hmul2(x, __hfma2(p, x, h));
}
// 16384 half2 in [-2, 2) (4096 uint4), a thread's two uint4 2048 apart
__global__ void half2_silu_loop(__half2 *x, __half2 *y, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < 16384; k += nb)
		x[k] = __floats2half2_rn(hunif(2u * k + 4000u, -2.0f, 2.0f), hunif(2u * k + 4001u, -2.0f, 2.0f));
	__syncthreads();
	const uint4 *x4 = (const uint4 *)x;
	uint4 *y4 = (uint4 *)y;
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i * nb + tid) & 2047;
#pragma unroll
		for (int j = 0; j < 2; j++) {
			uint4 u = x4[k + 2048 * j];
			__half2 *h = (__half2 *)&u;
#pragma unroll
			for (int e = 0; e < 4; e++) {
				h[e] = silu2(h[e]);
				float2 f = __half22float2(h[e]);
				acc += f.x + f.y;
			}
			y4[k + 2048 * j] = u;
		}
	}
	STOP(t);
	o[tid] = acc;
}

// 8192 4-D points in [0, 1)^4 around 32 centers (4 restarts of 8
// centroids, shared); two points a thread an iteration against the
// centroids of restart i & 3
__global__ void kmeans_assign_loop(float4 *pts, int *asg, float *o, long long *t, int n) {
	__shared__ float4 cen[4][8];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < 8192; k += nb) {
		unsigned g = mix((unsigned)k + 123u) & 31u;
		pts[k] = make_float4(hunif(g * 4u + 1u, 0.1f, 0.9f) + hunif((unsigned)k * 4u + 70001u, -0.1f, 0.1f),
		                     hunif(g * 4u + 2u, 0.1f, 0.9f) + hunif((unsigned)k * 4u + 70002u, -0.1f, 0.1f),
		                     hunif(g * 4u + 3u, 0.1f, 0.9f) + hunif((unsigned)k * 4u + 70003u, -0.1f, 0.1f),
		                     hunif(g * 4u + 4u, 0.1f, 0.9f) + hunif((unsigned)k * 4u + 70004u, -0.1f, 0.1f));
	}
	if (tid < 32)
		cen[tid >> 3][tid & 7] = make_float4(hunif((unsigned)tid * 4u + 901u, 0.0f, 1.0f),
		                                     hunif((unsigned)tid * 4u + 902u, 0.0f, 1.0f),
		                                     hunif((unsigned)tid * 4u + 903u, 0.0f, 1.0f),
		                                     hunif((unsigned)tid * 4u + 904u, 0.0f, 1.0f));
	__syncthreads();
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		const float4 *c = cen[i & 3];
#pragma unroll
		for (int j = 0; j < 2; j++) {
			int p = ((2 * i + j) * nb + tid) & 8191;
			float4 v = pts[p];
			float best = 1e30f;
			int bc = 0;
#pragma unroll
			for (int m = 0; m < 8; m++) {
				float4 cm = c[m];
				float dx = v.x - cm.x, dy = v.y - cm.y, dz = v.z - cm.z, dw = v.w - cm.w;
				float d = dx * dx + dy * dy + dz * dz + dw * dw;
				if (d < best) {
					best = d;
					bc = m;
				}
			}
			asg[p] = bc + 8 * (i & 3);
			acc += best;
		}
	}
	STOP(t);
	o[tid] = acc;
}

// a 64x64 byte image (gradients, a disc and noise) in shared memory; four
// horizontally adjacent pixels a thread, 1024 quads
__global__ void sobel_loop(uchar4 *out, int *o, long long *t, int n) {
	__shared__ unsigned char img[64][64];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < 4096; k += nb) {
		int x = k & 63, y = k >> 6;
		int v = 2 * x + y + (((x - 32) * (x - 32) + (y - 28) * (y - 28) < 300) ? 90 : 0) + (int)(mix((unsigned)k + 6u) & 31u);
		img[y][x] = (unsigned char)min(v, 255);
	}
	int edges = 0;
	START();
	for (int i = 0; i < n; i++) {
		int q = (i * nb + tid) & 1023;
		int x0 = (q & 15) * 4, y = q >> 4;
		int ym = max(y - 1, 0), yp = min(y + 1, 63);
		int a[6], b[6], c[6];
#pragma unroll
		for (int j = 0; j < 6; j++) {
			int xx = min(max(x0 - 1 + j, 0), 63);
			a[j] = img[ym][xx];
			b[j] = img[y][xx];
			c[j] = img[yp][xx];
		}
		unsigned char r[4];
#pragma unroll
		for (int j = 0; j < 4; j++) {
			int gx = (a[j + 2] + 2 * b[j + 2] + c[j + 2]) - (a[j] + 2 * b[j] + c[j]);
			int gy = (c[j] + 2 * c[j + 1] + c[j + 2]) - (a[j] + 2 * a[j + 1] + a[j + 2]);
			int mag = min(abs(gx) + abs(gy), 255);
			edges += mag > 128;
			r[j] = (unsigned char)mag;
		}
		out[q] = make_uchar4(r[0], r[1], r[2], r[3]);
	}
	STOP(t);
	o[tid] = edges;
}

// 8192 values in [0, 1) with head flags (a segment starts about one lane
// in five, and at every warp's lane 0); each segment's sum stored at its
// head's place
__global__ void seg_reduce_loop(float *v, int *hf, float *y, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31;
	for (int k = tid; k < 8192; k += nb) {
		v[k] = hunif((unsigned)k + 2024u, 0.0f, 1.0f);
		hf[k] = (k & 31) == 0 || mix((unsigned)k + 8080u) % 5u == 0u;
	}
	__syncthreads();
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i * nb + tid) & 8191;
		float s = v[k];
		unsigned heads = __ballot_sync(0xffffffffu, hf[k] != 0);
		int start = 31 - __clz(heads & (0xffffffffu >> (31 - lane)));
		for (int d = 1; d < 32; d <<= 1) {
			float u = __shfl_up_sync(0xffffffffu, s, d);
			if (lane - d >= start)
				s += u;
		}
		if (lane == 31 || ((heads >> (lane + 1)) & 1u)) {
			y[k - lane + start] = s;
			acc += s;
		}
	}
	STOP(t);
	o[tid] = acc;
}

// a stream of 16384 float4 (host values); the tile nb float4 in shared
// memory; each thread's 4 outputs an 8-tap filter over the tile, circular
__global__ void pipe_tile_loop(const float4 *src, float4 *y, long long *t, int n) {
	__shared__ float tile[2048];
	int tid = threadIdx.x, nb = blockDim.x, mask = 4 * nb - 1;
	const float w0 = 0.02f, w1 = -0.05f, w2 = 0.12f, w3 = 0.41f, w4 = 0.41f, w5 = 0.12f, w6 = -0.05f, w7 = 0.02f;
	((float4 *)tile)[tid] = src[tid];
	START();
	for (int i = 0; i < n; i++) {
		float4 nx = src[((i + 1) * nb + tid) & 16383];
		float f[11];
#pragma unroll
		for (int j = 0; j < 11; j++)
			f[j] = tile[(4 * tid + j) & mask];
		float4 r;
		r.x = w0 * f[0] + w1 * f[1] + w2 * f[2] + w3 * f[3] + w4 * f[4] + w5 * f[5] + w6 * f[6] + w7 * f[7];
		r.y = w0 * f[1] + w1 * f[2] + w2 * f[3] + w3 * f[4] + w4 * f[5] + w5 * f[6] + w6 * f[7] + w7 * f[8];
		r.z = w0 * f[2] + w1 * f[3] + w2 * f[4] + w3 * f[5] + w4 * f[6] + w5 * f[7] + w6 * f[8] + w7 * f[9];
		r.w = w0 * f[3] + w1 * f[4] + w2 * f[5] + w3 * f[6] + w4 * f[7] + w5 * f[8] + w6 * f[9] + w7 * f[10];
		y[(i * nb + tid) & 16383] = r;
		__syncthreads();
		((float4 *)tile)[tid] = nx;
		__syncthreads();
	}
	STOP(t);
}

// exp(x) for 4096 doubles in [-20, 20): k = rint(x / ln 2),
// r = x - k ln 2 (hi and lo parts), e^r by Taylor to degree 11, times 2^k
__global__ void exp64_loop(double *x, double *y, double *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < 4096; k += nb)
		x[k] = (double)hunif((unsigned)k + 64064u, -20.0f, 20.0f) + (double)hunif((unsigned)k + 99u, 0.0f, 1e-6f);
	__syncthreads();
	double acc = 0.0;
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & 4095;
		double a = x[j];
		double kd = rint(a * 1.4426950408889634);
		double r = fma(kd, -6.93147180369123816490e-01, a);
		r = fma(kd, -1.90821492927058770002e-10, r);
		double p = 2.5052108385441720e-08;
		p = fma(p, r, 2.7557319223985893e-07);
		p = fma(p, r, 2.7557319223985888e-06);
		p = fma(p, r, 2.4801587301587302e-05);
		p = fma(p, r, 1.9841269841269841e-04);
		p = fma(p, r, 1.3888888888888889e-03);
		p = fma(p, r, 8.3333333333333332e-03);
		p = fma(p, r, 4.1666666666666664e-02);
		p = fma(p, r, 1.6666666666666666e-01);
		p = fma(p, r, 0.5);
		p = fma(p, r, 1.0);
		p = fma(p, r, 1.0);
		double e = p * __hiloint2double(((int)kd + 1023) << 20, 0);
		y[j] = e;
		acc += e;
	}
	STOP(t);
	o[tid] = acc;
}

// ---- host ----
#include "loop_host.cuh"

// the host's inputs in buf (offsets in 4-byte words): the compensated
// sum's values; the pipelined filter's stream
#define OFF_KS 0
#define OFF_TS (1 << 16)

static unsigned rng = 2463534242u;
static unsigned next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static float uni(float lo, float hi) { return lo + (hi - lo) * (float)(next() >> 8) * (1.0f / 16777216.0f); }

static void host_inputs(void) {
	const int words = 1 << 17;
	float *h = (float *)malloc((size_t)words * 4);
	for (int k = 0; k < words; k++) h[k] = 0.0f;
	for (int k = 0; k < 1 << 16; k++) h[OFF_KS + k] = uni(0.0f, 1000.0f) * (float)(1 + (next() & 255));
	for (int k = 0; k < 1 << 16; k++) h[OFF_TS + k] = uni(-1.0f, 1.0f);
	CK(cudaMemcpy(buf, h, (size_t)words * 4, cudaMemcpyHostToDevice));
	free(h);
}

int main(void) {
	loop_host_init();
	host_inputs();
	char l[64];
	float *fb = (float *)buf;
	float *f2 = (float *)buf2;
	int *i2 = (int *)buf2;
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("kahan_sum_loop"), kahan_sum_loop, blk, 64, 3, "", fb + OFF_KS, f2, dt, nn);
		MEASURE(L("hamming_nn_loop"), hamming_nn_loop, blk, 128, 3, "", (unsigned long long *)buf2,
		        i2 + (1 << 16), dt, nn);
		MEASURE(L("quant_i8_loop"), quant_i8_loop, blk, 64, 4, "", f2, (unsigned *)buf2 + (1 << 16),
		        f2 + (1 << 17), dt, nn);
		MEASURE(L("half2_silu_loop"), half2_silu_loop, blk, 64, 4, "", (__half2 *)buf2,
		        (__half2 *)buf2 + (1 << 16), f2 + (1 << 17), dt, nn);
		MEASURE(L("kmeans_assign_loop"), kmeans_assign_loop, blk, 64, 4, "", (float4 *)buf2, i2 + (1 << 16),
		        f2 + (1 << 17), dt, nn);
		MEASURE(L("sobel_loop"), sobel_loop, blk, 128, 3, "", (uchar4 *)buf2, i2 + (1 << 16), dt, nn);
		MEASURE(L("seg_reduce_loop"), seg_reduce_loop, blk, 128, 5, "", f2, i2 + (1 << 16), f2 + (1 << 17),
		        f2 + (1 << 18), dt, nn);
		MEASURE(L("pipe_tile_loop"), pipe_tile_loop, blk, 128, 3, "", (const float4 *)(fb + OFF_TS),
		        (float4 *)buf2, dt, nn);
		MEASURE(L("exp64_loop"), exp64_loop, blk, 128, 4, "", (double *)buf2, (double *)buf2 + (1 << 16),
		        (double *)buf2 + (1 << 17), dt, nn);
	}
	return 0;
}
