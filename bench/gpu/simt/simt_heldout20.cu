// simt_heldout20.cu: the twentieth held-out set for `ptxray simt`'s timing
// model: realistic loops of kinds no earlier set has (a register-blocked
// SGEMM micro-kernel over shared tiles, a 3x3 median filter by a min/max
// sorting network, a strided fp64 conjugate-gradient update, a warp argmax
// by shuffles with an index tie-break, Mandelbrot escape counts, a
// bit-packed Game of Life step, a half2 dot product, Fenwick-tree range
// sums).
// Written, and the model's predictions committed
// (tests/fixtures/simt/heldout20/predicted.jsonl), before the first
// measurement. Same method as the other held-out sets (loop_host.cuh): one
// block, clock64() around the loop between __syncthreads(), T(n) and T(2n),
// five launches; tests/check_simt.py simulates
// tests/fixtures/simt/heldout20/simt_heldout20.sm_90.ptx (this file through
// `nvcc -arch=sm_90 -O3 -lineinfo -ptx`); run with
// `sh bench/gpu/simt/heldout.sh simt_heldout20`.
//
// The data that steers control flow, addresses or selects (the image the
// median filter sorts, the rows whose argmax is taken, the Game of Life
// board, the Fenwick tree's query ranges) is built by the kernel itself
// before the timed loop, from a hash, because the simulator knows only
// memory the kernel wrote (the Mandelbrot points are computed from the
// pixel index, no memory at all); the data that only flows into arithmetic
// (the SGEMM's A and B, the CG vectors, the half vectors, the Fenwick
// tree's sums) is made by the host (random values in buf) or, for the
// tree, hashed by the kernel; the CG step alpha is a double kernel argument
// (0.375) that the fixture lines leave without a value, as it only flows
// into arithmetic.
//  - sgemm_tile_loop: the inner loop of a tiled SGEMM, a (blockDim/4) x 64
//    tile of C a block, 4x4 outputs a thread in registers: an iteration is
//    one K tile of 16, a float4 of A a thread (stored transposed in shared
//    memory) and the 16x64 tile of B (256 float4, spread over the threads)
//    staged, a barrier, 16 steps of two shared float4 loads (a column of A,
//    a row of B) and 16 FFMAs, a barrier;
//  - median3x3_loop: a 3x3 median filter on a 256x256 8-bit image (edges
//    clamped), a 32x32 tile an iteration: the 34x34 tile with its halo
//    staged in shared memory (byte loads from global memory, addresses
//    clamped), a barrier, a pixel's nine bytes loaded from shared memory
//    and its median found by the 19-exchange min/max network, the byte
//    stored, a barrier;
//  - cg_axpy64_loop: a conjugate-gradient update in fp64 on column vectors
//    of two row-major N x 4 matrices (a stride of 32 bytes): an element a
//    thread an iteration, p and q loaded from one matrix, x and r from the
//    other, x += alpha p, r -= alpha q (DFMAs), both stored back, r r
//    summed by a DFMA;
//  - warp_argmax_loop: the argmax of a 128-float row a warp an iteration
//    (values quantized to 1/64, so ties happen; the first index wins): a
//    float4 a lane, the lane's best of four by compares and selects, then
//    five __shfl_xor_sync steps of value and index with the tie-break;
//    lane 0 stores the index and the value;
//  - mandelbrot_loop: the Mandelbrot escape count (capped at 256) of a
//    pixel of a 256x256 grid over [-2, 0.5] x [-1.25, 1.25] a thread an
//    iteration, FP32: a data-dependent trip count a lane (a warp's 32
//    pixels adjacent in a row), the warp running its longest; the count
//    stored;
//  - life_bits_loop: Conway's Game of Life on a toroidal 256x128 board in
//    shared memory, 32 cells a 32-bit word: an iteration is a generation,
//    each word's 3x3 neighbourhood of words loaded (nine shared loads),
//    the eight neighbour masks made by funnel shifts and counted
//    bit-sliced by full adders (LOP3s), the rule applied; ping-pong
//    between two boards, a barrier after each generation;
//  - half2_dot_loop: a dot product of half vectors, eight pairs (a uint4
//    of x and one of y) a thread an iteration: one __hmul2 and three
//    __hfma2 into a half2 partial, widened to float and added to the
//    thread's float sum;
//  - fenwick_loop: range sums over a Fenwick (binary indexed) tree of 4096
//    ints in shared memory, a query [l, r] a thread an iteration (hashed
//    ranges in global memory): two prefix walks, k &= k - 1 until zero,
//    a shared load at a data-dependent address a step (a data-dependent
//    trip count a lane, the popcounts of r and l - 1); the sum stored.
// At 128 and 512 threads.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__device__ __forceinline__ unsigned mix(unsigned x) {
	x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
	return x;
}

// host A (128 x 1024, row-major) and B (1024 x 64, row-major); the block's
// C rows 0 .. blockDim / 4; iteration i the K tile i & 63; thread t's 4x4
// of C (rows 4 (t / 16) .., columns 4 (t % 16) ..) stored in c
#define GM_M 128
#define GM_K 1024
#define GM_N 64
#define GM_KT 16
__global__ void sgemm_tile_loop(const float *__restrict__ a, const float *__restrict__ b, float *c, long long *t,
                                int n) {
	__shared__ __align__(16) float as[GM_KT][GM_M];
	__shared__ __align__(16) float bs[GM_KT][GM_N];
	int tid = threadIdx.x, nb = blockDim.x;
	int tx = tid & 15, ty = tid >> 4;
	float acc[4][4];
#pragma unroll
	for (int r = 0; r < 4; r++)
#pragma unroll
		for (int q = 0; q < 4; q++)
			acc[r][q] = 0.0f;
	int ar = tid >> 2, ak = (tid & 3) * 4;   // the float4 of A this thread stages
	START();
	for (int i = 0; i < n; i++) {
		int k0 = (i & (GM_K / GM_KT - 1)) * GM_KT;
		float4 av = *reinterpret_cast<const float4 *>(a + ar * GM_K + k0 + ak);
		as[ak][ar] = av.x;
		as[ak + 1][ar] = av.y;
		as[ak + 2][ar] = av.z;
		as[ak + 3][ar] = av.w;
		for (int v = tid; v < GM_KT * GM_N / 4; v += nb) {
			int kk = v >> 4, c4 = (v & 15) * 4;
			*reinterpret_cast<float4 *>(&bs[kk][c4]) =
			    *reinterpret_cast<const float4 *>(b + (k0 + kk) * GM_N + c4);
		}
		__syncthreads();
#pragma unroll
		for (int kk = 0; kk < GM_KT; kk++) {
			float4 x = *reinterpret_cast<const float4 *>(&as[kk][ty * 4]);
			float4 y = *reinterpret_cast<const float4 *>(&bs[kk][tx * 4]);
			float xr[4] = {x.x, x.y, x.z, x.w}, yc[4] = {y.x, y.y, y.z, y.w};
#pragma unroll
			for (int r = 0; r < 4; r++)
#pragma unroll
				for (int q = 0; q < 4; q++)
					acc[r][q] = fmaf(xr[r], yc[q], acc[r][q]);
		}
		__syncthreads();
	}
	STOP(t);
#pragma unroll
	for (int r = 0; r < 4; r++)
		*reinterpret_cast<float4 *>(c + (ty * 4 + r) * GM_N + tx * 4) =
		    make_float4(acc[r][0], acc[r][1], acc[r][2], acc[r][3]);
}

// a 256x256 hashed 8-bit image (4 pixels a word); iteration i filters tile
// i & 63 (8x8 tiles of 32x32) into out
#define MD_W 256
#define MD_T 32
#define MD_S (MD_T + 2)
#define MSORT(a, b) { unsigned lo_ = min(a, b), hi_ = max(a, b); a = lo_; b = hi_; }
__global__ void median3x3_loop(unsigned *img, unsigned char *out, long long *t, int n) {
	__shared__ unsigned char s[MD_S * MD_S];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < MD_W * MD_W / 4; k += nb)
		img[k] = mix((unsigned)k + 3131u);
	const unsigned char *im = (const unsigned char *)img;
	START();
	for (int i = 0; i < n; i++) {
		int tile = i & 63;
		int y0 = (tile >> 3) * MD_T, x0 = (tile & 7) * MD_T;
		for (int k = tid; k < MD_S * MD_S; k += nb) {
			int r = k / MD_S, c = k % MD_S;
			int gy = min(max(y0 + r - 1, 0), MD_W - 1), gx = min(max(x0 + c - 1, 0), MD_W - 1);
			s[k] = im[gy * MD_W + gx];
		}
		__syncthreads();
		for (int p = tid; p < MD_T * MD_T; p += nb) {
			int y = p >> 5, x = p & 31;
			const unsigned char *w = s + y * MD_S + x;
			unsigned p0 = w[0], p1 = w[1], p2 = w[2];
			unsigned p3 = w[MD_S], p4 = w[MD_S + 1], p5 = w[MD_S + 2];
			unsigned p6 = w[2 * MD_S], p7 = w[2 * MD_S + 1], p8 = w[2 * MD_S + 2];
			MSORT(p1, p2); MSORT(p4, p5); MSORT(p7, p8);
			MSORT(p0, p1); MSORT(p3, p4); MSORT(p6, p7);
			MSORT(p1, p2); MSORT(p4, p5); MSORT(p7, p8);
			MSORT(p0, p3); MSORT(p5, p8); MSORT(p4, p7);
			MSORT(p3, p6); MSORT(p1, p4); MSORT(p2, p5);
			MSORT(p4, p7); MSORT(p4, p2); MSORT(p6, p4);
			MSORT(p4, p2);
			out[(y0 + y) * MD_W + x0 + x] = (unsigned char)p4;
		}
		__syncthreads();
	}
	STOP(t);
}

// host N x 4 row-major matrices of doubles pq (columns 1 and 2: p and q)
// and xr (columns 0 and 1: x and r), N = 16384; element (i * blockDim + t)
// & 16383; x and r updated in place, each thread's r r in rr
#define CG_N 16384
__global__ void cg_axpy64_loop(const double *__restrict__ pq, double *__restrict__ xr, double alpha, double *rr,
                               long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	double s = 0.0;
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (CG_N - 1);
		double p = pq[4 * j + 1], q = pq[4 * j + 2];
		double x = xr[4 * j], r = xr[4 * j + 1];
		x = fma(alpha, p, x);
		r = fma(-alpha, q, r);
		xr[4 * j] = x;
		xr[4 * j + 1] = r;
		s = fma(r, r, s);
	}
	STOP(t);
	rr[tid] = s;
}

// 512 hashed rows of 128 floats in [0, 4) quantized to 1/64; warp w's
// row in iteration i (i * warps + w) & 511; its argmax index and value at
// the row's place in out
#define AM_R 512
#define AM_C 128
__global__ void warp_argmax_loop(float *rows, float2 *out, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < AM_R * AM_C; k += nb)
		rows[k] = (float)(mix((unsigned)k + 4242u) & 255u) * (1.0f / 64.0f);
	const unsigned full = 0xffffffffu;
	START();
	for (int i = 0; i < n; i++) {
		int row = (i * nw + w) & (AM_R - 1);
		float4 v = reinterpret_cast<const float4 *>(rows + row * AM_C)[lane];
		float best = v.x;
		int bi = lane * 4;
		if (v.y > best) { best = v.y; bi = lane * 4 + 1; }
		if (v.z > best) { best = v.z; bi = lane * 4 + 2; }
		if (v.w > best) { best = v.w; bi = lane * 4 + 3; }
#pragma unroll
		for (int o = 16; o > 0; o >>= 1) {
			float ov = __shfl_xor_sync(full, best, o);
			int oi = __shfl_xor_sync(full, bi, o);
			if (ov > best || (ov == best && oi < bi)) { best = ov; bi = oi; }
		}
		if (lane == 0)
			out[row] = make_float2(__int_as_float(bi), best);
	}
	STOP(t);
}

// pixel (i * blockDim + t) & 65535 of a 256x256 grid; its escape count at
// the same place in cnt
#define MB_W 256
#define MB_CAP 256
__global__ void mandelbrot_loop(int *cnt, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	const float dx = 2.5f / MB_W, dy = 2.5f / MB_W;
	START();
	for (int i = 0; i < n; i++) {
		int p = (i * nb + tid) & (MB_W * MB_W - 1);
		float cx = -2.0f + (float)(p & (MB_W - 1)) * dx, cy = -1.25f + (float)(p >> 8) * dy;
		float x = 0.0f, y = 0.0f, x2 = 0.0f, y2 = 0.0f;
		int k = 0;
		while (k < MB_CAP && x2 + y2 <= 4.0f) {
			y = fmaf(2.0f * x, y, cy);
			x = x2 - y2 + cx;
			x2 = x * x;
			y2 = y * y;
			k++;
		}
		cnt[p] = k;
	}
	STOP(t);
}

// a toroidal 256 x 128 board, 4 words a row (bit b of word c the cell in
// column 32 c + b), hashed (about a third alive); the board after the last
// generation stored in out
#define LF_R 256
#define LF_WR 4
#define LF_WORDS (LF_R * LF_WR)
__global__ void life_bits_loop(unsigned *out, long long *t, int n) {
	__shared__ unsigned bd[2][LF_WORDS];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < LF_WORDS; k += nb)
		bd[0][k] = (mix((unsigned)k + 1717u) & mix((unsigned)k + 7171u)) | (mix((unsigned)k + 2525u) & 0x11111111u);
	START();
	for (int i = 0; i < n; i++) {
		const unsigned *a = bd[i & 1];
		unsigned *b = bd[(i & 1) ^ 1];
		for (int k = tid; k < LF_WORDS; k += nb) {
			int r = k >> 2, c = k & 3;
			int ru = (r - 1) & (LF_R - 1), rd = (r + 1) & (LF_R - 1);
			int cl = (c - 1) & 3, cr = (c + 1) & 3;
			unsigned uc = a[ru * LF_WR + c], ul = a[ru * LF_WR + cl], ur = a[ru * LF_WR + cr];
			unsigned mc = a[r * LF_WR + c], ml = a[r * LF_WR + cl], mr = a[r * LF_WR + cr];
			unsigned dc = a[rd * LF_WR + c], dl = a[rd * LF_WR + cl], dr = a[rd * LF_WR + cr];
			// bit b of a west mask: the cell in column b - 1; of an east mask: b + 1
			unsigned n0 = uc, n1 = __funnelshift_l(ul, uc, 1), n2 = __funnelshift_r(uc, ur, 1);
			unsigned n3 = __funnelshift_l(ml, mc, 1), n4 = __funnelshift_r(mc, mr, 1);
			unsigned n5 = dc, n6 = __funnelshift_l(dl, dc, 1), n7 = __funnelshift_r(dc, dr, 1);
			// bit-sliced count of the eight: bits s0, s1, s2 (8 reads as 4: dead either way)
			unsigned x01 = n0 ^ n1, sa = x01 ^ n2, ca = (n0 & n1) | (n2 & x01);
			unsigned x34 = n3 ^ n4, sb = x34 ^ n5, cb = (n3 & n4) | (n5 & x34);
			unsigned sc = n6 ^ n7, cc = n6 & n7;
			unsigned xab = sa ^ sb, s0 = xab ^ sc, cd = (sa & sb) | (sc & xab);
			unsigned xc = ca ^ cb, t0 = xc ^ cc, t1 = (ca & cb) | (cc & xc);
			unsigned s1 = t0 ^ cd, t2 = t0 & cd;
			unsigned s2 = t1 | t2;
			b[k] = ~s2 & s1 & (s0 | mc);
		}
		__syncthreads();
	}
	STOP(t);
	for (int k = tid; k < LF_WORDS; k += nb)
		out[k] = bd[n & 1][k];
}

// host half vectors x and y of 2^18 values (32768 uint4 each); chunk (i *
// blockDim + t) & 32767; each thread's sum in o
#define HD_C 32768
__device__ __forceinline__ __half2 h2(unsigned w) { return *reinterpret_cast<__half2 *>(&w); }
__global__ void half2_dot_loop(const uint4 *__restrict__ x, const uint4 *__restrict__ y, float *o, long long *t,
                               int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float s = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (HD_C - 1);
		uint4 xv = x[j], yv = y[j];
		__half2 p = __hmul2(h2(xv.x), h2(yv.x));
		p = __hfma2(h2(xv.y), h2(yv.y), p);
		p = __hfma2(h2(xv.z), h2(yv.z), p);
		p = __hfma2(h2(xv.w), h2(yv.w), p);
		float2 f = __half22float2(p);
		s += f.x + f.y;
	}
	STOP(t);
	o[tid] = s;
}

// a Fenwick tree of 4096 hashed ints (nodes 1 .. 4096) in shared memory;
// 8192 hashed query ranges 1 <= l <= r <= 4096; query (i * blockDim + t) &
// 8191; its sum at the same place in sums
#define FW_N 4096
#define FW_Q 8192
__global__ void fenwick_loop(int2 *qs, int *sums, long long *t, int n) {
	__shared__ int tree[FW_N + 1];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k <= FW_N; k += nb)
		tree[k] = (int)(mix((unsigned)k + 8080u) & 1023u) - 512;
	for (int k = tid; k < FW_Q; k += nb) {
		int u = (int)(mix(2u * (unsigned)k + 555u) & (FW_N - 1)) + 1;
		int v = (int)(mix(2u * (unsigned)k + 556u) & (FW_N - 1)) + 1;
		qs[k] = make_int2(min(u, v), max(u, v));
	}
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (FW_Q - 1);
		int2 q = qs[j];
		int s = 0;
		for (int k = q.y; k > 0; k &= k - 1)
			s += tree[k];
		for (int k = q.x - 1; k > 0; k &= k - 1)
			s -= tree[k];
		sums[j] = s;
	}
	STOP(t);
}

// ---- host ----
#include "loop_host.cuh"

// the host's inputs in buf (offsets in 4-byte words): the SGEMM's A and B,
// the CG matrices (p, q and x, r), the half vectors x and y
#define OFF_GA 0
#define OFF_GB (1 << 17)
#define OFF_PQ (1 << 18)
#define OFF_XR ((1 << 18) + (1 << 17))
#define OFF_HX (1 << 19)
#define OFF_HY ((1 << 19) + (1 << 17))

#define CG_ALPHA 0.375

static unsigned rng = 2654435761u;
static unsigned next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static float uni(float lo, float hi) { return lo + (hi - lo) * (float)(next() >> 8) * (1.0f / 16777216.0f); }

static void host_inputs(void) {
	const int words = 1 << 20;
	float *h = (float *)malloc((size_t)words * 4);
	for (int k = 0; k < words; k++) h[k] = 0.0f;
	for (int k = 0; k < GM_M * GM_K; k++) h[OFF_GA + k] = uni(-1.0f, 1.0f);
	for (int k = 0; k < GM_K * GM_N; k++) h[OFF_GB + k] = uni(-1.0f, 1.0f);
	double *pq = (double *)(h + OFF_PQ), *xr = (double *)(h + OFF_XR);
	for (int k = 0; k < 4 * CG_N; k++) {
		pq[k] = uni(-1.0f, 1.0f);
		xr[k] = uni(-1.0f, 1.0f);
	}
	__half *hx = (__half *)(h + OFF_HX), *hy = (__half *)(h + OFF_HY);
	for (int k = 0; k < 8 * HD_C; k++) {
		hx[k] = __float2half(uni(-1.0f, 1.0f));
		hy[k] = __float2half(uni(-1.0f, 1.0f));
	}
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
	unsigned *u2 = (unsigned *)buf2;
	unsigned *ub = (unsigned *)buf;
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("sgemm_tile_loop"), sgemm_tile_loop, blk, 64, 4, "", fb + OFF_GA, fb + OFF_GB, f2, dt, nn);
		MEASURE(L("median3x3_loop"), median3x3_loop, blk, 64, 3, "", u2, (unsigned char *)(u2 + (1 << 15)), dt,
		        nn);
		MEASURE(L("cg_axpy64_loop"), cg_axpy64_loop, blk, 256, 5, "", (const double *)(fb + OFF_PQ),
		        (double *)(fb + OFF_XR), CG_ALPHA, (double *)buf2, dt, nn);
		MEASURE(L("warp_argmax_loop"), warp_argmax_loop, blk, 256, 3, "", f2, (float2 *)(f2 + (1 << 17)), dt,
		        nn);
		MEASURE(L("mandelbrot_loop"), mandelbrot_loop, blk, 32, 2, "", i2, dt, nn);
		MEASURE(L("life_bits_loop"), life_bits_loop, blk, 64, 2, "", u2, dt, nn);
		MEASURE(L("half2_dot_loop"), half2_dot_loop, blk, 256, 4, "", (const uint4 *)(ub + OFF_HX),
		        (const uint4 *)(ub + OFF_HY), f2, dt, nn);
		MEASURE(L("fenwick_loop"), fenwick_loop, blk, 128, 3, "", (int2 *)buf2, i2 + (1 << 15), dt, nn);
	}
	return 0;
}
