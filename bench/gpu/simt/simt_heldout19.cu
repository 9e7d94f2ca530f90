// simt_heldout19.cu: the nineteenth held-out set for `ptxray simt`'s timing
// model: realistic loops of kinds no earlier set has (a weighted Jacobi
// smoother on a shared 2-D tile, a warp-level segmented scan by shuffles,
// Collatz step counts, an RGB to YUY2 colour conversion, base64 encoding,
// an SPH density sum over a cell list, a bfloat16 axpy, list ranking by
// pointer jumping).
// Written, and the model's predictions committed
// (tests/fixtures/simt/heldout19/predicted.jsonl), before the first
// measurement. Same method as the other held-out sets (loop_host.cuh): one
// block, clock64() around the loop between __syncthreads(), T(n) and T(2n),
// five launches; tests/check_simt.py simulates
// tests/fixtures/simt/heldout19/simt_heldout19.sm_90.ptx (this file through
// `nvcc -arch=sm_90 -O3 -lineinfo -ptx`); run with
// `sh bench/gpu/simt/heldout.sh simt_heldout19`.
//
// The data that steers control flow, addresses or selects (the scan's
// segment head flags, the Collatz starting values, the bytes encoded in
// base64, which index the alphabet, the cell list's counts, particles and
// query points, the linked lists ranked) is built by the kernel itself
// before the timed loop, from a hash, because the simulator knows only
// memory the kernel wrote; the data that only flows into arithmetic (the
// Jacobi tile and its boundary, the values scanned, the RGBA pixels, the
// axpy's vectors) is made by the host (random values in buf); the axpy's
// scale a is a float kernel argument (0.75) that the fixture lines leave
// without a value, as it only flows into arithmetic.
//  - jacobi2d_loop: a weighted Jacobi smoother (the 5-point Laplacian,
//    weight 0.8) on a 64x64 tile in shared memory with a fixed one-point
//    halo (Dirichlet boundary), ping-pong between two shared copies: an
//    iteration is two sweeps, each five shared loads, three FADDs, an FMUL
//    and an FFMA a point and a shared store, and a barrier after each;
//  - segscan_shfl_loop: an inclusive segmented sum scan of a float stream
//    a warp, four values (a float4) and their head flags (a uchar4) a lane
//    an iteration: the lane's four scanned alone by selects, the lanes'
//    totals scanned by five __shfl_up_sync steps bounded by the segment's
//    first lane (from a __ballot_sync of the lanes with a head and __clz),
//    the running sum carried to the next iteration from lane 31;
//  - collatz_loop: the Collatz step count (capped at 1000) of a 24-bit
//    start a thread an iteration, in 64 bits, an odd step 3x + 1 followed
//    by stripping all its factors of two at once (__ffsll, a variable
//    shift): a data-dependent trip count a lane, the warp running its
//    longest;
//  - rgb2yuv_loop: RGBA8 to packed YUY2 (4:2:2) by the BT.601 integer
//    formulas, four pixels (a uint4) a thread an iteration: bytes
//    unpacked, Y a pixel, U and V from each pair's average, every one
//    clamped to a byte, packed into a uint2;
//  - base64_loop: base64 encoding of 12 bytes a thread an iteration (three
//    32-bit loads, byte-swapped): four 24-bit groups, 16 sextets looked up
//    in a 64-byte alphabet in shared memory (byte loads at data-dependent
//    addresses), the 16 characters stored as a uint4;
//  - sph_cells_loop: an SPH density sum (the poly6 kernel) at a query
//    point a thread an iteration over a periodic 32x32 cell list (cells
//    holding 0 to 7 particles in slots of 8): the 3x3 neighbouring cells,
//    an inner loop of each cell's count (runtime, differing between the
//    lanes), a float2 gather a particle, the neighbours within the support
//    radius counted and weighted;
//  - bf16_axpy_loop: y = a x + y on bfloat16 vectors in place, eight values
//    (a uint4 of x and one of y) a thread an iteration, widened to float,
//    FFMA, rounded back by __floats2bfloat162_rn;
//  - list_rank_loop: Wyllie's list ranking by pointer jumping in shared
//    memory: an iteration ranks one of four forests of linked lists of
//    1024 nodes (loaded from global memory), ping-ponging successor and
//    rank arrays, each round a gather of the successor's rank and
//    successor (shared loads at data-dependent addresses) until
//    __syncthreads_or finds no node left with a successor; the ranks
//    stored.
// At 128 and 512 threads.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <cuda_bf16.h>

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

// the host's 66x66 tile (the outer ring the boundary, kept); the smoothed
// tile stored in out
#define JC_N 64
#define JC_W (JC_N + 2)
__global__ void jacobi2d_loop(const float *u0, float *out, long long *t, int n) {
	__shared__ float u[2][JC_W * JC_W];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < JC_W * JC_W; k += nb) {
		float v = u0[k];
		u[0][k] = v;
		u[1][k] = v;
	}
	const float w = 0.8f;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int s = 0; s < 2; s++) {
			const float *a = u[s];
			float *b = u[s ^ 1];
			for (int p = tid; p < JC_N * JC_N; p += nb) {
				int c = (p / JC_N + 1) * JC_W + p % JC_N + 1;
				float lap = (a[c - JC_W] + a[c + JC_W]) + (a[c - 1] + a[c + 1]);
				b[c] = fmaf(0.25f * w, lap, (1.0f - w) * a[c]);
			}
			__syncthreads();
		}
	}
	STOP(t);
	for (int k = tid; k < JC_W * JC_W; k += nb)
		out[k] = u[0][k];
}

// host values: 16384 float4; hashed head flags at the same places (an
// element a head with probability 1/16); warp w's stream the 1024 float4
// from 1024 w on, wrapping (chunk i at 1024 w + ((32 i + lane) & 1023));
// the scanned values stored at the same place in y
#define SS_C 16384
__global__ void segscan_shfl_loop(const float4 *x, uchar4 *flg, float4 *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5;
	for (int k = tid; k < SS_C; k += nb) {
		unsigned h = mix((unsigned)k + 4099u);
		flg[k] = make_uchar4((h & 15u) == 0u, ((h >> 4) & 15u) == 0u, ((h >> 8) & 15u) == 0u,
		                     ((h >> 12) & 15u) == 0u);
	}
	const unsigned full = 0xffffffffu;
	unsigned le = full >> (31 - lane);   // the lanes up to this one
	float carry = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		int j = w * 1024 + ((i * 32 + lane) & 1023);
		float4 v = x[j];
		uchar4 f = flg[j];
		// the lane's own four (lane 0 continuing the previous chunk's sum)
		float s = f.x ? v.x : (lane == 0 ? carry : 0.0f) + v.x;
		s = f.y ? v.y : s + v.y;
		s = f.z ? v.z : s + v.z;
		s = f.w ? v.w : s + v.w;
		bool head = (f.x | f.y | f.z | f.w) != 0;
		unsigned hm = __ballot_sync(full, head) & le;
		int first = hm ? 31 - __clz(hm) : 0;   // the lane where this lane's segment starts
		float tot = s;
#pragma unroll
		for (int off = 1; off < 32; off <<= 1) {
			float up = __shfl_up_sync(full, tot, off);
			if (lane - off >= first)
				tot += up;
		}
		float pre = __shfl_up_sync(full, tot, 1);
		if (lane == 0)
			pre = carry;
		float4 o;
		o.x = f.x ? v.x : pre + v.x;
		o.y = f.y ? v.y : o.x + v.y;
		o.z = f.z ? v.z : o.y + v.z;
		o.w = f.w ? v.w : o.z + v.w;
		y[j] = o;
		carry = __shfl_sync(full, tot, 31);
	}
	STOP(t);
}

// 8192 hashed starts in [1, 2^24]; start (i * blockDim + t) & 8191; the
// step counts at the same place in steps, each thread's total after them
#define CZ_N 8192
#define CZ_CAP 1000u
__global__ void collatz_loop(unsigned *start, unsigned *steps, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < CZ_N; k += nb)
		start[k] = 1u + (mix((unsigned)k + 777u) & 0xffffffu);
	unsigned total = 0u;
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (CZ_N - 1);
		unsigned long long x = start[j];
		unsigned c = (unsigned)(__ffsll((long long)x) - 1);
		x >>= c;
		while (x != 1ull && c < CZ_CAP) {
			x = 3ull * x + 1ull;
			int z = __ffsll((long long)x) - 1;
			x >>= z;
			c += 1u + (unsigned)z;
		}
		steps[j] = c;
		total += c;
	}
	STOP(t);
	steps[CZ_N + tid] = total;
}

// host RGBA8 pixels: 16384 quads (uint4); quad (i * blockDim + t) & 16383;
// its YUY2 (Y0 U Y1 V, Y2 U Y3 V) at the same place in out
#define RY_Q 16384
__device__ __forceinline__ unsigned clamp8(int v) { return (unsigned)min(max(v, 0), 255); }
__global__ void rgb2yuv_loop(const uint4 *rgba, uint2 *out, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (RY_Q - 1);
		uint4 q = rgba[j];
		unsigned px[4] = {q.x, q.y, q.z, q.w};
		unsigned yy[4], uu[2], vv[2];
#pragma unroll
		for (int k = 0; k < 4; k++) {
			int r = px[k] & 255u, g = (px[k] >> 8) & 255u, b = (px[k] >> 16) & 255u;
			yy[k] = clamp8(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
		}
#pragma unroll
		for (int k = 0; k < 2; k++) {
			unsigned p0 = px[2 * k], p1 = px[2 * k + 1];
			int r = ((p0 & 255u) + (p1 & 255u) + 1u) >> 1;
			int g = (((p0 >> 8) & 255u) + ((p1 >> 8) & 255u) + 1u) >> 1;
			int b = (((p0 >> 16) & 255u) + ((p1 >> 16) & 255u) + 1u) >> 1;
			uu[k] = clamp8(((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128);
			vv[k] = clamp8(((112 * r - 94 * g - 18 * b + 128) >> 8) + 128);
		}
		out[j] = make_uint2(yy[0] | uu[0] << 8 | yy[1] << 16 | vv[0] << 24,
		                    yy[2] | uu[1] << 8 | yy[3] << 16 | vv[1] << 24);
	}
	STOP(t);
}

// 16384 groups of 12 hashed bytes (three words each); group (i * blockDim
// + t) & 16383; its 16 characters (a uint4) at the same place in out
#define B64_G 16384
__device__ __forceinline__ unsigned bswap(unsigned x) { return __byte_perm(x, 0u, 0x0123); }
__global__ void base64_loop(unsigned *in, uint4 *out, long long *t, int n) {
	__shared__ unsigned char tab[64];
	int tid = threadIdx.x, nb = blockDim.x;
	if (tid < 64)
		tab[tid] = (unsigned char)(tid < 26 ? 'A' + tid : tid < 52 ? 'a' + tid - 26 : tid < 62 ? '0' + tid - 52
		                           : tid == 62 ? '+' : '/');
	for (int k = tid; k < 3 * B64_G; k += nb)
		in[k] = mix((unsigned)k + 6464u);
	START();
	for (int i = 0; i < n; i++) {
		int g = (i * nb + tid) & (B64_G - 1);
		unsigned a = bswap(in[3 * g]), b = bswap(in[3 * g + 1]), c = bswap(in[3 * g + 2]);
		unsigned tr[4] = {a >> 8, (a << 16 | b >> 16) & 0xffffffu, (b << 8 | c >> 24) & 0xffffffu, c & 0xffffffu};
		unsigned o[4];
#pragma unroll
		for (int k = 0; k < 4; k++) {
			unsigned v = tr[k];
			o[k] = (unsigned)tab[v >> 18] | (unsigned)tab[(v >> 12) & 63u] << 8 |
			       (unsigned)tab[(v >> 6) & 63u] << 16 | (unsigned)tab[v & 63u] << 24;
		}
		out[g] = make_uint4(o[0], o[1], o[2], o[3]);
	}
	STOP(t);
}

// a periodic 32x32 box of unit cells; cell c holds mix(c) & 7 particles
// (slots c * 8 ..), hashed inside the cell; 4096 hashed query points;
// query (i * blockDim + t) & 4095; its density and neighbour count at the
// same place in o
#define SC_C 32
#define SC_S 8
#define SC_Q 4096
__global__ void sph_cells_loop(int *cnt, float2 *pos, float2 *qp, float2 *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int c = tid; c < SC_C * SC_C; c += nb) {
		cnt[c] = (int)(mix((unsigned)c + 99u) & 7u);
		float cx = (float)(c & (SC_C - 1)), cy = (float)(c / SC_C);
		for (int s = 0; s < SC_S; s++) {
			unsigned k = 2u * (unsigned)(c * SC_S + s);
			pos[c * SC_S + s] = make_float2(cx + hunif(k + 501u, 0.0f, 1.0f), cy + hunif(k + 502u, 0.0f, 1.0f));
		}
	}
	for (int k = tid; k < SC_Q; k += nb)
		qp[k] = make_float2(hunif(2u * (unsigned)k + 90001u, 0.0f, (float)SC_C),
		                    hunif(2u * (unsigned)k + 90002u, 0.0f, (float)SC_C));
	const float h2 = 1.0f;   // the support radius, one cell, squared
	const float poly6 = 315.0f / (64.0f * 3.14159265f);
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (SC_Q - 1);
		float2 q = qp[j];
		int cx = (int)q.x, cy = (int)q.y;
		float rho = 0.0f;
		int nbrs = 0;
#pragma unroll
		for (int oy = -1; oy <= 1; oy++) {
			int ny = cy + oy, wy = ny & (SC_C - 1);
			float sy = (float)(ny - wy);   // a period across the box's edge
#pragma unroll
			for (int ox = -1; ox <= 1; ox++) {
				int nx = cx + ox, wx = nx & (SC_C - 1);
				float sx = (float)(nx - wx);
				int c = wy * SC_C + wx;
				int m = cnt[c];
				for (int s = 0; s < m; s++) {
					float2 p = pos[c * SC_S + s];
					float dx = p.x + sx - q.x, dy = p.y + sy - q.y;
					float r2 = fmaf(dx, dx, dy * dy);
					if (r2 < h2) {
						float d = h2 - r2;
						rho = fmaf(d * d, d, rho);
						nbrs++;
					}
				}
			}
		}
		o[j] = make_float2(poly6 * rho, (float)nbrs);
	}
	STOP(t);
}

// host bfloat16 vectors x and y of 2^18 values (32768 uint4 each); chunk
// (i * blockDim + t) & 32767 of y updated in place
#define BF_C 32768
__device__ __forceinline__ unsigned axpy_bf2(float a, unsigned xw, unsigned yw) {
	__nv_bfloat162 xb = *reinterpret_cast<__nv_bfloat162 *>(&xw), yb = *reinterpret_cast<__nv_bfloat162 *>(&yw);
	float2 xf = __bfloat1622float2(xb), yf = __bfloat1622float2(yb);
	__nv_bfloat162 r = __floats2bfloat162_rn(fmaf(a, xf.x, yf.x), fmaf(a, xf.y, yf.y));
	return *reinterpret_cast<unsigned *>(&r);
}
__global__ void bf16_axpy_loop(const uint4 *__restrict__ x, uint4 *__restrict__ y, float a, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (BF_C - 1);
		uint4 xv = x[j], yv = y[j];
		y[j] = make_uint4(axpy_bf2(a, xv.x, yv.x), axpy_bf2(a, xv.y, yv.y), axpy_bf2(a, xv.z, yv.z),
		                  axpy_bf2(a, xv.w, yv.w));
	}
	STOP(t);
}

// four forests of 1024 nodes: forest g's successor of node p is (p (4g + 5)
// + 2g + 1) mod 1024 (one cycle through every node), cut at node 0 and at
// nodes whose hash is 0 mod 32 (tails, successor -1); iteration i ranks
// forest i & 3 and stores the ranks (hops to the tail) at the forest's
// place in rank
#define LR_N 1024
#define LR_G 4
__global__ void list_rank_loop(int *succ, int *rank, long long *t, int n) {
	__shared__ int nx[2][LR_N], rk[2][LR_N];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < LR_G * LR_N; k += nb) {
		int g = k / LR_N, p = k % LR_N;
		bool tail = p == 0 || (mix((unsigned)k + 5150u) & 31u) == 0u;
		succ[k] = tail ? -1 : (p * (4 * g + 5) + 2 * g + 1) & (LR_N - 1);
	}
	START();
	for (int i = 0; i < n; i++) {
		const int *sg = succ + (i & (LR_G - 1)) * LR_N;
		for (int p = tid; p < LR_N; p += nb) {
			int s = sg[p];
			nx[0][p] = s;
			rk[0][p] = s < 0 ? 0 : 1;
		}
		__syncthreads();
		int cur = 0, more;
		do {
			int live = 0;
			for (int p = tid; p < LR_N; p += nb) {
				int s = nx[cur][p], r = rk[cur][p];
				if (s >= 0) {
					r += rk[cur][s];
					s = nx[cur][s];
					live |= s >= 0;
				}
				nx[cur ^ 1][p] = s;
				rk[cur ^ 1][p] = r;
			}
			cur ^= 1;
			more = __syncthreads_or(live);
		} while (more);
		for (int p = tid; p < LR_N; p += nb)
			rank[(i & (LR_G - 1)) * LR_N + p] = rk[cur][p];
	}
	STOP(t);
}

// ---- host ----
#include "loop_host.cuh"

// the host's inputs in buf (offsets in 4-byte words): the Jacobi tile, the
// values scanned, the pixels, the bfloat16 vectors x and y
#define OFF_JC 0
#define OFF_SS (1 << 13)
#define OFF_RY (1 << 17)
#define OFF_BF_X (1 << 18)
#define OFF_BF_Y ((1 << 18) + (1 << 17))

#define AXPY_A 0.75f

static unsigned rng = 2654435761u;
static unsigned next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static float uni(float lo, float hi) { return lo + (hi - lo) * (float)(next() >> 8) * (1.0f / 16777216.0f); }
// bfloat16 bits of a float (truncated)
static unsigned short bf16_bits(float f) { unsigned u; memcpy(&u, &f, 4); return (unsigned short)(u >> 16); }

static void host_inputs(void) {
	const int words = 1 << 19;
	float *h = (float *)malloc((size_t)words * 4);
	for (int k = 0; k < words; k++) h[k] = 0.0f;
	for (int r = 0; r < JC_W; r++)
		for (int c = 0; c < JC_W; c++) {
			bool edge = r == 0 || c == 0 || r == JC_W - 1 || c == JC_W - 1;
			h[OFF_JC + r * JC_W + c] = edge ? uni(0.0f, 1.0f) : uni(-0.5f, 0.5f);
		}
	for (int k = 0; k < 4 * SS_C; k++) h[OFF_SS + k] = uni(-1.0f, 1.0f);
	unsigned *hu = (unsigned *)h;
	for (int k = 0; k < 4 * RY_Q; k++) hu[OFF_RY + k] = next();
	unsigned short *hx = (unsigned short *)(hu + OFF_BF_X), *hy = (unsigned short *)(hu + OFF_BF_Y);
	for (int k = 0; k < 8 * BF_C; k++) {
		hx[k] = bf16_bits(uni(-2.0f, 2.0f));
		hy[k] = bf16_bits(uni(-2.0f, 2.0f));
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
		MEASURE(L("jacobi2d_loop"), jacobi2d_loop, blk, 128, 3, "", fb + OFF_JC, f2, dt, nn);
		MEASURE(L("segscan_shfl_loop"), segscan_shfl_loop, blk, 512, 4, "", (const float4 *)(fb + OFF_SS),
		        (uchar4 *)buf2, (float4 *)(f2 + (1 << 16)), dt, nn);
		MEASURE(L("collatz_loop"), collatz_loop, blk, 32, 3, "", u2, u2 + (1 << 14), dt, nn);
		MEASURE(L("rgb2yuv_loop"), rgb2yuv_loop, blk, 256, 3, "", (const uint4 *)(ub + OFF_RY), (uint2 *)buf2,
		        dt, nn);
		MEASURE(L("base64_loop"), base64_loop, blk, 256, 3, "", u2, (uint4 *)(u2 + (1 << 16)), dt, nn);
		MEASURE(L("sph_cells_loop"), sph_cells_loop, blk, 32, 5, "", i2, (float2 *)(f2 + (1 << 12)),
		        (float2 *)(f2 + (1 << 15)), (float2 *)(f2 + (1 << 16)), dt, nn);
		MEASURE(L("bf16_axpy_loop"), bf16_axpy_loop, blk, 256, 4, "", (const uint4 *)(ub + OFF_BF_X),
		        (uint4 *)(ub + OFF_BF_Y), AXPY_A, dt, nn);
		MEASURE(L("list_rank_loop"), list_rank_loop, blk, 64, 3, "", i2, i2 + (1 << 13), dt, nn);
	}
	return 0;
}
