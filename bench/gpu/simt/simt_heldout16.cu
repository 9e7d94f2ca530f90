// simt_heldout16.cu: the sixteenth held-out set for `ptxray simt`'s timing
// model: realistic loops of kinds no earlier set has (an image blur with a
// halo tile, a batched LU factorisation, a merge path, a table-driven
// CRC32, all-pairs shortest paths, a sliding-window maximum, a Chebyshev
// series in double precision, a Montgomery ladder in 64-bit integers).
// Written, and the model's predictions committed
// (tests/fixtures/simt/heldout16/predicted.jsonl), before the first
// measurement. Same method as the other held-out sets (loop_host.cuh): one
// block, clock64() around the loop between __syncthreads(), T(n) and T(2n),
// five launches; tests/check_simt.py simulates
// tests/fixtures/simt/heldout16/simt_heldout16.sm_90.ptx (this file through
// `nvcc -arch=sm_90 -O3 -lineinfo -ptx`); run with
// `sh bench/gpu/simt/heldout.sh simt_heldout16`.
//
// The data that steers control flow, addresses or selects (the sorted runs
// merged, the CRC's message bytes and table, the graph's distances, the
// moduli and exponents) is built by the kernel itself before the timed
// loop, from a hash, because the simulator knows only memory the kernel
// wrote; the data that only flows into arithmetic (the image blurred, the
// row whose window maxima are taken, the Chebyshev series' arguments) is
// made by the host (random values in buf). The matrices factored are built
// by the kernel too (diagonally dominant, so no pivoting).
//  - gauss_blur_loop: a 3x3 Gaussian blur (1-2-1 by 1-2-1, over 16) of a
//    256x256 float image, a 32x16 output tile an iteration: the 34x18 tile
//    with its halo (clamped at the borders) loaded into shared memory, a
//    barrier, nine shared loads an output, a barrier before the next tile;
//  - lu_rank1_loop: right-looking LU without pivoting of 64x64 float
//    matrices in shared memory, one elimination step an iteration (the
//    column below the pivot scaled by its reciprocal, a barrier, the
//    trailing rank-1 update a warp a row, a barrier); every 64 steps the
//    factored matrix stored and the next of 16 loaded;
//  - merge_path_loop: a warp merges two sorted runs of 128 ints, copied
//    into its part of shared memory (int4 loads): each lane finds its
//    diagonal's split by binary search (merge path), then merges its 8
//    outputs sequentially (two shared loads, a compare, selects), staged
//    in shared memory for a coalesced int4 store; __syncwarp between;
//  - crc32_loop: table-driven CRC-32 (reflected 0xEDB88320, one byte a
//    lookup) over a message stream a thread, a uint4 of 16 bytes an
//    iteration, the 256-entry table in shared memory: a dependent chain of
//    16 shared loads;
//  - floyd_warshall_loop: Floyd-Warshall on a 64-vertex graph (int
//    distances, one pair in eight an edge) in shared memory: an iteration
//    is one intermediate vertex k (row k and column k copied aside, a
//    barrier, min(d[r][c], d[r][k] + d[k][c]) over the 4096 entries, a
//    barrier);
//  - sliding_max_loop: the maximum of each 16-wide window of a float row,
//    a warp 32 outputs an iteration from 64 inputs (two coalesced loads),
//    by doubling windows (2, 4, 8, 16) with __shfl_sync across the two
//    halves;
//  - clenshaw64_loop: a degree-31 Chebyshev series in double precision by
//    Clenshaw's recurrence (a dependent DFMA chain of 31, the DADDs of
//    c_k - b_k+2 off it), an argument a thread an iteration; the
//    coefficients, in shared memory, are read into registers before the
//    loop (the compiler hoists the loads);
//  - montgomery_loop: modular exponentiation by a Montgomery ladder with
//    a 63-bit odd modulus a thread: an exponent bit an iteration, two
//    Montgomery products (64x64-bit products by __umul64hi, the
//    reduction's conditional subtraction) exchanged by selects on the bit.
// At 128 and 512 threads.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

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

// 256x256 source (host floats), 128 tiles of 32x16 outputs, tile i & 127;
// the halo's coordinates clamped to the image
#define GB_W 256
#define GB_TW 32
#define GB_TH 16
__global__ void gauss_blur_loop(const float *img, float *out, long long *t, int n) {
	__shared__ float s[GB_TH + 2][GB_TW + 2];
	int tid = threadIdx.x, nb = blockDim.x;
	START();
	for (int i = 0; i < n; i++) {
		int ti = i & 127, tx0 = (ti & 7) * GB_TW, ty0 = (ti >> 3) * GB_TH;
		for (int k = tid; k < (GB_TH + 2) * (GB_TW + 2); k += nb) {
			int r = k / (GB_TW + 2), c = k - r * (GB_TW + 2);
			int gx = min(max(tx0 + c - 1, 0), GB_W - 1), gy = min(max(ty0 + r - 1, 0), GB_W - 1);
			s[r][c] = img[gy * GB_W + gx];
		}
		__syncthreads();
		for (int k = tid; k < GB_TW * GB_TH; k += nb) {
			int r = k >> 5, c = k & 31;
			float a = s[r][c] + 2.0f * s[r][c + 1] + s[r][c + 2];
			float b = s[r + 1][c] + 2.0f * s[r + 1][c + 1] + s[r + 1][c + 2];
			float d = s[r + 2][c] + 2.0f * s[r + 2][c + 1] + s[r + 2][c + 2];
			out[(ty0 + r) * GB_W + tx0 + c] = (a + 2.0f * b + d) * 0.0625f;
		}
		__syncthreads();
	}
	STOP(t);
}

// 16 matrices of 64x64 in global memory (entries in [-1, 1), 64 added on
// the diagonal); step k = i & 63 of matrix (i >> 6) & 15, L's multipliers
// stored in place below the diagonal, U on and above it
#define LU_N 64
__global__ void lu_rank1_loop(float *g, float *f, long long *t, int n) {
	__shared__ float a[LU_N * LU_N];
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < 16 * LU_N * LU_N; k += nb) {
		int e = k & (LU_N * LU_N - 1);
		g[k] = hunif((unsigned)k + 2024u, -1.0f, 1.0f) + ((e >> 6) == (e & 63) ? 64.0f : 0.0f);
	}
	START();
	for (int i = 0; i < n; i++) {
		int k = i & 63, m = (i >> 6) & 15;
		if (k == 0) {
			for (int e = tid; e < LU_N * LU_N; e += nb)
				a[e] = g[m * LU_N * LU_N + e];
			__syncthreads();
		}
		float piv = 1.0f / a[k * LU_N + k];
		for (int r = k + 1 + tid; r < LU_N; r += nb)
			a[r * LU_N + k] *= piv;
		__syncthreads();
		for (int r = k + 1 + w; r < LU_N; r += nw) {
			float l = a[r * LU_N + k];
#pragma unroll
			for (int h = 0; h < LU_N; h += 32) {
				int c = h + lane;
				if (c > k)
					a[r * LU_N + c] = fmaf(-l, a[k * LU_N + c], a[r * LU_N + c]);
			}
		}
		__syncthreads();
		if (k == 63)
			for (int e = tid; e < LU_N * LU_N; e += nb)
				f[m * LU_N * LU_N + e] = a[e];
	}
	STOP(t);
}

// 64 pairs of runs of 128 keys, pair p's A at keys + 256p, its B after it:
// key j of a run is 16j plus a hash's low 4 bits (B's offset by 8), so
// the runs interleave irregularly; warp w merges pair (i * nw + w) & 63
// in its 1 KiB of shared memory, lane l outputs 8l to 8l + 7 (ties to
// A), staged back into the warp's buffer for a coalesced store
#define MP_RUN 128
__global__ void merge_path_loop(int *keys, int *o, long long *t, int n) {
	__shared__ __align__(16) int s[16][2 * MP_RUN];
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < 64 * 2 * MP_RUN; k += nb) {
		int j = k & (MP_RUN - 1), b = (k >> 7) & 1;
		keys[k] = 16 * j + 8 * b + (int)(mix((unsigned)k + 6007u) & 15u);
	}
	int *sa = s[w], *sb = sa + MP_RUN;
	START();
	for (int i = 0; i < n; i++) {
		int p = (i * nw + w) & 63;
		const int4 *src = (const int4 *)(keys + p * 2 * MP_RUN);
		for (int q = lane; q < 2 * MP_RUN / 4; q += 32)
			((int4 *)sa)[q] = src[q];
		__syncwarp();
		int d = lane * 8;
		int lo = max(0, d - MP_RUN), hi = min(d, MP_RUN);
		while (lo < hi) {
			int mid = (lo + hi) >> 1;
			if (sa[mid] <= sb[d - 1 - mid])
				lo = mid + 1;
			else
				hi = mid;
		}
		int ia = lo, ib = d - lo, v[8];
#pragma unroll
		for (int k = 0; k < 8; k++) {
			int va = ia < MP_RUN ? sa[ia] : 0x7fffffff, vb = ib < MP_RUN ? sb[ib] : 0x7fffffff;
			bool ta = va <= vb;
			v[k] = ta ? va : vb;
			ia += ta ? 1 : 0;
			ib += ta ? 0 : 1;
		}
		__syncwarp();
#pragma unroll
		for (int u = 0; u < 2; u++)
			((int4 *)sa)[lane * 2 + u] = make_int4(v[4 * u], v[4 * u + 1], v[4 * u + 2], v[4 * u + 3]);
		__syncwarp();
		int4 *dst = (int4 *)(o + p * 2 * MP_RUN);
		for (int q = lane; q < 2 * MP_RUN / 4; q += 32)
			dst[q] = ((int4 *)sa)[q];
		__syncwarp();
	}
	STOP(t);
}

// the message: 4096 uint4 (64 KiB) of hashed bytes; thread t's i-th
// 16 bytes at (i * blockDim + t) & 4095; CRC-32 initial value ~0, final xor
__global__ void crc32_loop(uint4 *msg, unsigned *o, long long *t, int n) {
	__shared__ unsigned tab[256];
	int tid = threadIdx.x, nb = blockDim.x;
	unsigned *mw = (unsigned *)msg;
	for (int k = tid; k < 4 * 4096; k += nb)
		mw[k] = mix((unsigned)k + 314159u);
	for (int k = tid; k < 256; k += nb) {
		unsigned c = (unsigned)k;
#pragma unroll
		for (int b = 0; b < 8; b++)
			c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
		tab[k] = c;
	}
	unsigned crc = 0xffffffffu;
	START();
	for (int i = 0; i < n; i++) {
		uint4 q = msg[(i * nb + tid) & 4095];
		unsigned v[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
		for (int u = 0; u < 4; u++)
#pragma unroll
			for (int b = 0; b < 4; b++)
				crc = tab[(crc ^ (v[u] >> (8 * b))) & 255u] ^ (crc >> 8);
	}
	STOP(t);
	o[tid] = ~crc;
}

// 64 vertices; d[r][c] = 0 on the diagonal, else 1 to 64 where a hash's
// low 3 bits are 0 (an edge), else 2^20 (none)
#define FW_V 64
__global__ void floyd_warshall_loop(int *o, long long *t, int n) {
	__shared__ int d[FW_V * FW_V];
	__shared__ int rowk[FW_V], colk[FW_V];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int e = tid; e < FW_V * FW_V; e += nb) {
		unsigned h = mix((unsigned)e + 4242u);
		int r = e >> 6, c = e & 63;
		d[e] = r == c ? 0 : (h & 7u) == 0u ? 1 + (int)((h >> 3) & 63u) : 1 << 20;
	}
	START();
	for (int i = 0; i < n; i++) {
		int k = i & 63;
		for (int e = tid; e < FW_V; e += nb) {
			rowk[e] = d[k * FW_V + e];
			colk[e] = d[e * FW_V + k];
		}
		__syncthreads();
		for (int e = tid; e < FW_V * FW_V; e += nb)
			d[e] = min(d[e], colk[e >> 6] + rowk[e & 63]);
		__syncthreads();
	}
	STOP(t);
	for (int e = tid; e < FW_V * FW_V; e += nb)
		o[e] = d[e];
}

// a row of 65536 host floats (circular); y[j] = max(x[j] .. x[j + 15]);
// warp w's chunk (i * nw + w) & 2047 of 32 outputs, the lane holding x at
// the chunk (a) and 32 later (b); window 2s from window s by a shuffle of
// s lanes down, taken from b where it crosses
#define SM_LEN 65536
__global__ void sliding_max_loop(const float *x, float *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	START();
	for (int i = 0; i < n; i++) {
		int base = ((i * nw + w) & 2047) * 32;
		float a = x[base + lane], b = x[(base + 32 + lane) & (SM_LEN - 1)];
#pragma unroll
		for (int s = 1; s < 16; s *= 2) {
			int src = (lane + s) & 31;
			float va = __shfl_sync(0xffffffffu, a, src), vb = __shfl_sync(0xffffffffu, b, src);
			a = fmaxf(a, lane + s < 32 ? va : vb);
			b = fmaxf(b, vb);
		}
		y[base + lane] = a;
	}
	STOP(t);
}

// 8192 host doubles in [-1, 1); coefficients c_k = u_k / (1 + k^2), u_k
// uniform in [-1, 1); f(x) = sum c_k T_k(x)
#define CH_DEG 31
__global__ void clenshaw64_loop(const double *x, double *y, long long *t, int n) {
	__shared__ double c[CH_DEG + 1];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k <= CH_DEG; k += nb)
		c[k] = (double)hunif((unsigned)k + 271u, -1.0f, 1.0f) / (1.0 + (double)(k * k));
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & 8191;
		double xv = x[j], x2 = 2.0 * xv, b1 = 0.0, b2 = 0.0;
#pragma unroll
		for (int k = CH_DEG; k >= 1; k--) {
			double b0 = fma(x2, b1, c[k] - b2);
			b2 = b1;
			b1 = b0;
		}
		y[j] = fma(xv, b1, c[0] - b2);
	}
	STOP(t);
}

// a thread's modulus N: odd, in [2^62, 2^63); Montgomery form with
// R = 2^64, ninv = -N^-1 mod R by Newton's iteration; the base a hashed
// below N, the exponent 64 hashed bits; step i takes bit 63 - (i & 63)
__device__ __forceinline__ unsigned long long mont_mul(unsigned long long a, unsigned long long b,
                                                       unsigned long long N, unsigned long long ninv) {
	unsigned long long tl = a * b, th = __umul64hi(a, b);
	unsigned long long m = tl * ninv;
	unsigned long long r = th + __umul64hi(m, N) + (tl != 0ull ? 1ull : 0ull);
	return r >= N ? r - N : r;
}
__global__ void montgomery_loop(unsigned long long *o, long long *t, int n) {
	int tid = threadIdx.x;
	unsigned h0 = mix((unsigned)tid + 8675309u), h1 = mix(h0 + 1u), h2 = mix(h0 + 2u), h3 = mix(h0 + 3u);
	unsigned h4 = mix(h0 + 4u), h5 = mix(h0 + 5u);
	unsigned long long N = ((((unsigned long long)h1 << 32) | h0) & 0x7fffffffffffffffull) | 0x4000000000000001ull;
	unsigned long long inv = N;
#pragma unroll
	for (int k = 0; k < 5; k++)
		inv *= 2ull - N * inv;
	unsigned long long ninv = 0ull - inv;
	unsigned long long r0 = (0ull - N) % N;   // R mod N: 1 in Montgomery form
	unsigned long long r1 = (((unsigned long long)h3 << 32) | h2) % N;
	unsigned long long e = ((unsigned long long)h5 << 32) | h4;
	START();
	for (int i = 0; i < n; i++) {
		bool bit = (e >> (63 - (i & 63))) & 1ull;
		unsigned long long x = bit ? r1 : r0;
		unsigned long long p = mont_mul(r0, r1, N, ninv), s = mont_mul(x, x, N, ninv);
		r0 = bit ? p : s;
		r1 = bit ? s : p;
	}
	STOP(t);
	o[tid] = r0 ^ r1;
}

// ---- host ----
#include "loop_host.cuh"

// the host's inputs in buf (offsets in 4-byte words): the image, the row,
// the Chebyshev arguments (doubles)
#define OFF_IMG 0
#define OFF_ROW (1 << 16)
#define OFF_CHEB (1 << 17)

static unsigned rng = 2463534242u;
static unsigned next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static float uni(float lo, float hi) { return lo + (hi - lo) * (float)(next() >> 8) * (1.0f / 16777216.0f); }

static void host_inputs(void) {
	const int words = 1 << 18;
	float *h = (float *)malloc((size_t)words * 4);
	for (int k = 0; k < words; k++) h[k] = 0.0f;
	for (int k = 0; k < GB_W * GB_W; k++) h[OFF_IMG + k] = uni(0.0f, 1.0f);
	for (int k = 0; k < SM_LEN; k++) h[OFF_ROW + k] = uni(-10.0f, 10.0f);
	double *hd = (double *)(h + OFF_CHEB);
	for (int k = 0; k < 8192; k++) hd[k] = (double)uni(-1.0f, 1.0f) + (double)uni(0.0f, 1.0f) * 1e-8;
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
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("gauss_blur_loop"), gauss_blur_loop, blk, 64, 3, "", fb + OFF_IMG, f2, dt, nn);
		MEASURE(L("lu_rank1_loop"), lu_rank1_loop, blk, 128, 3, "", f2, f2 + (1 << 18), dt, nn);
		MEASURE(L("merge_path_loop"), merge_path_loop, blk, 32, 3, "", i2, i2 + (1 << 16), dt, nn);
		MEASURE(L("crc32_loop"), crc32_loop, blk, 64, 3, "", (uint4 *)buf2, u2 + (1 << 16), dt, nn);
		MEASURE(L("floyd_warshall_loop"), floyd_warshall_loop, blk, 64, 2, "", i2, dt, nn);
		MEASURE(L("sliding_max_loop"), sliding_max_loop, blk, 128, 3, "", fb + OFF_ROW, f2, dt, nn);
		MEASURE(L("clenshaw64_loop"), clenshaw64_loop, blk, 64, 3, "", (const double *)(fb + OFF_CHEB),
		        (double *)buf2, dt, nn);
		MEASURE(L("montgomery_loop"), montgomery_loop, blk, 256, 2, "", (unsigned long long *)buf2, dt, nn);
	}
	return 0;
}
