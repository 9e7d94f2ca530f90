// simt_heldout22.cu: the twenty-second held-out set for `ptxray simt`'s
// timing model: realistic loops of kinds no earlier set has (a
// particle-in-cell charge deposit by shared float atomicAdd, Bellman-Ford
// edge relaxation by global atomicMin, a string-matching DFA walk over a
// shared transition table, 3x3 symmetric eigensolves by Jacobi rotations,
// Morton codes located in a sorted shared key array, a 64-bit xorshift*
// random walk, quaternion slerp with a vector rotation, a 32x32 bit-matrix
// transpose by warp shuffles).
// Written, and the model's predictions committed
// (tests/fixtures/simt/heldout22/predicted.jsonl), before the first
// measurement. Same method as the other held-out sets (loop_host.cuh): one
// block, clock64() around the loop between __syncthreads(), T(n) and T(2n),
// five launches; tests/check_simt.py simulates
// tests/fixtures/simt/heldout22/simt_heldout22.sm_90.ptx (this file through
// `nvcc -arch=sm_90 -O3 -lineinfo -ptx`); run with
// `sh bench/gpu/simt/heldout.sh simt_heldout22`.
//
// The data that steers control flow, addresses or selects (the particles'
// positions, the graph's edges and distances, the DFA's transition table
// and text, the symmetric matrices, whose values the IEEE division's and
// square root's slow paths test, the sorted keys and the query points, the
// keyframe quaternions, whose dot product picks slerp's path) is built by
// the kernel itself before the timed loop, from a hash, because the
// simulator knows only memory the kernel wrote (the random walk's state is
// hashed from the thread's index, no memory at all); the data that only
// flows into arithmetic (the particles' charges, the vectors the slerped
// quaternions rotate, the bit matrices transposed) is made by the host
// (random values in buf).
//  - pic_deposit_loop: the charge deposit of a particle-in-cell step on a
//    periodic 64x64 grid in shared memory, a particle a thread an
//    iteration: its position (a float2) and charge loaded, the cell by
//    floorf and the cloud-in-cell weights of its four corners, four shared
//    float atomicAdds (the lanes' cells spread by the data, some shared);
//  - bellman_ford_loop: Bellman-Ford edge relaxation on a graph of 16384
//    vertices and 65536 weighted edges in global memory, two edges a
//    thread an iteration (a uint4): each source's distance gathered, the
//    destination's compared with it plus the weight and, where shorter, a
//    global atomicMin whose old value counts the improvements (a
//    data-dependent branch that thins out as the distances settle);
//  - dfa_scan_loop: an Aho-Corasick-like DFA of 64 states over 4-bit
//    symbols (a byte transition table in shared memory), 32 symbols (a
//    uint4 of text) a thread an iteration: 32 dependent steps of a shared
//    byte load at (state, symbol), each state tested against a 64-bit
//    accepting mask; the match count stored;
//  - jacobi_eig3_loop: the eigen-decomposition of a symmetric 3x3 matrix a
//    thread an iteration (six SoA loads) by two cyclic Jacobi sweeps, six
//    rotations of an IEEE division, a square root, a second division and a
//    rsqrt each, the matrix and the eigenvector matrix rotated by FFMAs;
//    three eigenvalues and nine vector components stored;
//  - morton_bsearch_loop: two points a thread an iteration (a float4),
//    each quantized to 15-bit coordinates (cvt) and Morton-coded by bit
//    interleaving (shifts, ors, masks), then located in a sorted array of
//    2048 Morton keys in shared memory by an 11-step lower-bound search
//    (two interleaved chains of shared loads at data-dependent addresses);
//  - xorshift_walk_loop: a Monte Carlo random walk on a 256x256 torus, 16
//    steps a thread an iteration, each a 64-bit xorshift* draw (three
//    64-bit shift-xors and a 64-bit multiply, a dependent chain) whose top
//    two bits pick the direction; the packed position and a checksum of
//    the draws stored;
//  - slerp_loop: spherical linear interpolation between two keyframe
//    quaternions (float4 loads) a thread an iteration, at a parameter from
//    the index: the shorter arc chosen by the dot product's sign, the
//    nearly-equal pairs (a quarter) interpolated linearly, the others by
//    acosf, three sinf and a reciprocal (divergent paths), the result
//    normalized and used to rotate a vector (cross products); both stored;
//  - bitmat_transpose_loop: the transpose of 32x32 bit matrices, a warp a
//    matrix (a word a lane), two matrices a warp an iteration: five
//    __shfl_xor_sync butterfly stages each, the lanes selecting by their
//    index which half of the word to keep and which to take from the
//    partner (masks and shifts); the transposed words stored.
// At 128 and 512 threads.
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

// a periodic 64x64 grid of charge density in shared memory; 16384 hashed
// particle positions in [0, 64)^2 (float2 in pos), host charges q;
// particle (i * blockDim + t) & 16383; the grid stored in rho_out after
// the loop
#define PC_G 64
#define PC_P 16384
__global__ void pic_deposit_loop(float2 *pos, const float *q, float *rho_out, long long *t, int n) {
	__shared__ float rho[PC_G * PC_G];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < PC_G * PC_G; k += nb)
		rho[k] = 0.0f;
	for (int k = tid; k < PC_P; k += nb)
		pos[k] = make_float2(hunif(2u * (unsigned)k + 8080u, 0.0f, (float)PC_G),
		                     hunif(2u * (unsigned)k + 8081u, 0.0f, (float)PC_G));
	START();
	for (int i = 0; i < n; i++) {
		int p = (i * nb + tid) & (PC_P - 1);
		float2 x = pos[p];
		float c = q[p];
		float fx = floorf(x.x), fy = floorf(x.y);
		float ax = x.x - fx, ay = x.y - fy;
		int ix = (int)fx & (PC_G - 1), iy = (int)fy & (PC_G - 1);
		int ix1 = (ix + 1) & (PC_G - 1), iy1 = (iy + 1) & (PC_G - 1);
		float cy0 = c * (1.0f - ay), cy1 = c * ay;
		atomicAdd(&rho[iy * PC_G + ix], cy0 * (1.0f - ax));
		atomicAdd(&rho[iy * PC_G + ix1], cy0 * ax);
		atomicAdd(&rho[iy1 * PC_G + ix], cy1 * (1.0f - ax));
		atomicAdd(&rho[iy1 * PC_G + ix1], cy1 * ax);
	}
	STOP(t);
	for (int k = tid; k < PC_G * PC_G; k += nb)
		rho_out[k] = rho[k];
}

// 65536 hashed edges (source in the low 16 bits of a word, destination in
// the high 16, a weight of 1 to 64 in the next word), two a uint4; 16384
// hashed distances in [0, 65536); edge pair (i * blockDim + t) & 32767;
// the thread's count of improvements stored in cnt after the loop
#define BF_V 16384
#define BF_E 65536
__global__ void bellman_ford_loop(uint4 *edge, int *dist, int *cnt, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < BF_E / 2; k += nb) {
		unsigned h0 = mix(2u * (unsigned)k + 4242u), h1 = mix(2u * (unsigned)k + 4243u);
		unsigned g0 = mix(h0 ^ 0x9e3779b9u), g1 = mix(h1 ^ 0x9e3779b9u);
		edge[k] = make_uint4((h0 & (BF_V - 1)) | (g0 & (BF_V - 1)) << 16, 1u + (g0 >> 26),
		                     (h1 & (BF_V - 1)) | (g1 & (BF_V - 1)) << 16, 1u + (g1 >> 26));
	}
	for (int v = tid; v < BF_V; v += nb)
		dist[v] = (int)(mix((unsigned)v + 777u) & 0xffffu);
	int c = 0;
	START();
	for (int i = 0; i < n; i++) {
		uint4 e = edge[(i * nb + tid) & (BF_E / 2 - 1)];
		unsigned v0 = e.x >> 16, v1 = e.z >> 16;
		int n0 = dist[e.x & 0xffffu] + (int)e.y, n1 = dist[e.z & 0xffffu] + (int)e.w;
		if (n0 < dist[v0] && n0 < atomicMin(&dist[v0], n0))
			c++;
		if (n1 < dist[v1] && n1 < atomicMin(&dist[v1], n1))
			c++;
	}
	STOP(t);
	cnt[tid] = c;
}

// a hashed DFA of 64 states over 16 symbols (state s, symbol x: a forward
// edge to one of the next eight states for a quarter of the symbols, a
// failure edge to a state at most s / 2 for the rest), byte entries in
// shared memory; a hashed 64-bit accepting mask; 16384 uint4 of hashed
// text; chunk (i * blockDim + t) & 16383, scanned low nibble first from
// the thread's last state; the running match count stored at the same
// place in o
#define DF_S 64
#define DF_X 16
#define DF_T 16384
__global__ void dfa_scan_loop(uint4 *text, unsigned *o, long long *t, int n) {
	__shared__ unsigned char nx[DF_S * DF_X];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < DF_S * DF_X; k += nb) {
		unsigned s = (unsigned)k / DF_X, h = mix((unsigned)k + 31337u);
		nx[k] = (unsigned char)((h & 3u) == 0u ? (s + 1u + ((h >> 2) & 7u)) & (DF_S - 1) : (h >> 8) % (s / 2u + 1u));
	}
	unsigned *tw = reinterpret_cast<unsigned *>(text);
	for (int k = tid; k < 4 * DF_T; k += nb)
		tw[k] = mix((unsigned)k + 271828u);
	const unsigned long long acc = (unsigned long long)(mix(1u) & mix(2u)) << 32 | (mix(3u) & mix(4u));
	unsigned st = 0u, cn = 0u;
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (DF_T - 1);
		uint4 w = text[j];
		unsigned ws[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
		for (int q = 0; q < 4; q++)
#pragma unroll
			for (int b = 0; b < 8; b++) {
				st = nx[st * DF_X + ((ws[q] >> (4 * b)) & 15u)];
				cn += (unsigned)(acc >> st) & 1u;
			}
		o[j] = cn;
	}
	STOP(t);
}

// 8192 hashed symmetric 3x3 matrices (diagonal in [-2, 2), off-diagonal in
// [-1, 1)), SoA: element e of matrix m at a[e * 8192 + m] (a00, a11, a22,
// a01, a02, a12); matrix (i * blockDim + t) & 8191; its eigenvalues and
// eigenvector matrix (row-major) at o[e * 8192 + m], e = 0 .. 11
#define JE_M 8192
// the rotation zeroing a_pq (r the third index): the matrix's p, q
// entries and the eigenvector matrix's columns p and q
__device__ __forceinline__ void jrot(float &app, float &aqq, float &apq, float &arp, float &arq, float &v0p,
                                     float &v0q, float &v1p, float &v1q, float &v2p, float &v2q) {
	float th = (aqq - app) / (2.0f * apq);
	float tt = copysignf(1.0f, th) / (fabsf(th) + sqrtf(fmaf(th, th, 1.0f)));
	float c = rsqrtf(fmaf(tt, tt, 1.0f)), s = tt * c;
	app = fmaf(-tt, apq, app);
	aqq = fmaf(tt, apq, aqq);
	apq = 0.0f;
	float rp = arp, rq = arq;
	arp = fmaf(c, rp, -s * rq);
	arq = fmaf(s, rp, c * rq);
	float p0 = v0p, q0 = v0q, p1 = v1p, q1 = v1q, p2 = v2p, q2 = v2q;
	v0p = fmaf(c, p0, -s * q0); v0q = fmaf(s, p0, c * q0);
	v1p = fmaf(c, p1, -s * q1); v1q = fmaf(s, p1, c * q1);
	v2p = fmaf(c, p2, -s * q2); v2q = fmaf(s, p2, c * q2);
}
__global__ void jacobi_eig3_loop(float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < 6 * JE_M; k += nb)
		a[k] = k < 3 * JE_M ? hunif((unsigned)k + 60606u, -2.0f, 2.0f) : hunif((unsigned)k + 60606u, -1.0f, 1.0f);
	START();
	for (int i = 0; i < n; i++) {
		int m = (i * nb + tid) & (JE_M - 1);
		float a00 = a[m], a11 = a[JE_M + m], a22 = a[2 * JE_M + m];
		float a01 = a[3 * JE_M + m], a02 = a[4 * JE_M + m], a12 = a[5 * JE_M + m];
		float v00 = 1.0f, v01 = 0.0f, v02 = 0.0f, v10 = 0.0f, v11 = 1.0f, v12 = 0.0f, v20 = 0.0f, v21 = 0.0f,
		      v22 = 1.0f;
#pragma unroll
		for (int sw = 0; sw < 2; sw++) {
			jrot(a00, a11, a01, a02, a12, v00, v01, v10, v11, v20, v21);
			jrot(a00, a22, a02, a01, a12, v00, v02, v10, v12, v20, v22);
			jrot(a11, a22, a12, a01, a02, v01, v02, v11, v12, v21, v22);
		}
		float r[12] = {a00, a11, a22, v00, v01, v02, v10, v11, v12, v20, v21, v22};
#pragma unroll
		for (int e = 0; e < 12; e++)
			o[e * JE_M + m] = r[e];
	}
	STOP(t);
}

// 2048 hashed sorted 30-bit Morton keys in shared memory (key k in
// [k << 19, (k + 1) << 19)); 16384 hashed points in [0, 1)^2, two a float4;
// pair (i * blockDim + t) & 8191; the two points' lower bounds (the keys
// below their codes, at most 2047) stored at the same place in o
#define MB_K 2048
#define MB_P 8192
__device__ __forceinline__ unsigned part1by1(unsigned x) {
	x &= 0x7fffu;
	x = (x | x << 8) & 0x00ff00ffu;
	x = (x | x << 4) & 0x0f0f0f0fu;
	x = (x | x << 2) & 0x33333333u;
	x = (x | x << 1) & 0x55555555u;
	return x;
}
__device__ __forceinline__ unsigned morton2(float x, float y) {
	return part1by1(__float2uint_rz(x * 32768.0f)) | part1by1(__float2uint_rz(y * 32768.0f)) << 1;
}
__global__ void morton_bsearch_loop(float4 *pts, uint2 *o, long long *t, int n) {
	__shared__ unsigned keys[MB_K];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < MB_K; k += nb)
		keys[k] = (unsigned)k << 19 | (mix((unsigned)k + 2024u) & ((1u << 19) - 1u));
	for (int k = tid; k < MB_P; k += nb) {
		unsigned b = 4u * (unsigned)k + 1234u;
		pts[k] = make_float4(hunif(b, 0.0f, 1.0f), hunif(b + 1u, 0.0f, 1.0f), hunif(b + 2u, 0.0f, 1.0f),
		                     hunif(b + 3u, 0.0f, 1.0f));
	}
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (MB_P - 1);
		float4 p = pts[j];
		unsigned c0 = morton2(p.x, p.y), c1 = morton2(p.z, p.w);
		int lo0 = 0, lo1 = 0;
#pragma unroll
		for (int step = MB_K / 2; step > 0; step >>= 1) {
			if (keys[lo0 + step - 1] < c0)
				lo0 += step;
			if (keys[lo1 + step - 1] < c1)
				lo1 += step;
		}
		o[j] = make_uint2((unsigned)lo0, (unsigned)lo1);
	}
	STOP(t);
}

// thread t's xorshift64* state hashed from t; the walker starts at (128,
// 128); iteration i's packed position and checksum stored at
// o[(i * blockDim + t) & 16383]
#define XW_O 16384
__global__ void xorshift_walk_loop(unsigned *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	unsigned long long s = (unsigned long long)mix((unsigned)tid + 1u) << 32 | mix((unsigned)tid + 99u) | 1ull;
	int x = 128, y = 128;
	unsigned long long sum = 0ull;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 16; k++) {
			s ^= s >> 12;
			s ^= s << 25;
			s ^= s >> 27;
			unsigned long long r = s * 0x2545f4914f6cdd1dull;
			unsigned d = (unsigned)(r >> 62);
			x += (d == 0u) - (d == 1u);
			y += (d == 2u) - (d == 3u);
			sum += r >> 32;
		}
		x &= 255;
		y &= 255;
		o[(i * nb + tid) & (XW_O - 1)] = (unsigned)(x | y << 8) ^ (unsigned)(sum >> 16) << 16;
	}
	STOP(t);
}

// 8192 hashed keyframe pairs of unit quaternions (a quarter of the second
// ones a small perturbation of the first, the rest independent), float4 in
// q0s and q1s; host vectors v; pair (i * blockDim + t) & 8191 at parameter
// (pair & 63) / 64; the interpolated quaternion and the rotated vector at
// the same places in ro and vo
#define SL_P 8192
__device__ __forceinline__ float4 qnorm(float4 q) {
	float r = rsqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
	return make_float4(q.x * r, q.y * r, q.z * r, q.w * r);
}
__global__ void slerp_loop(float4 *q0s, float4 *q1s, const float4 *vin, float4 *ro, float4 *vo, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < SL_P; k += nb) {
		unsigned b = 8u * (unsigned)k + 5150u;
		float4 a = qnorm(make_float4(hunif(b, -1.0f, 1.0f), hunif(b + 1u, -1.0f, 1.0f), hunif(b + 2u, -1.0f, 1.0f),
		                             hunif(b + 3u, 0.1f, 1.0f)));
		float4 c;
		if ((mix((unsigned)k + 999u) & 3u) == 0u)
			c = qnorm(make_float4(a.x + hunif(b + 4u, -0.01f, 0.01f), a.y + hunif(b + 5u, -0.01f, 0.01f),
			                      a.z + hunif(b + 6u, -0.01f, 0.01f), a.w + hunif(b + 7u, -0.01f, 0.01f)));
		else
			c = qnorm(make_float4(hunif(b + 4u, -1.0f, 1.0f), hunif(b + 5u, -1.0f, 1.0f), hunif(b + 6u, -1.0f, 1.0f),
			                      hunif(b + 7u, 0.1f, 1.0f) * ((b & 8u) ? 1.0f : -1.0f)));
		q0s[k] = a;
		q1s[k] = c;
	}
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (SL_P - 1);
		float4 a = q0s[j], b = q1s[j];
		float u = (float)(j & 63) * (1.0f / 64.0f);
		float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
		if (d < 0.0f) {
			b = make_float4(-b.x, -b.y, -b.z, -b.w);
			d = -d;
		}
		float w0, w1;
		if (d > 0.9995f) {
			w0 = 1.0f - u;
			w1 = u;
		} else {
			float th = acosf(d), rs = 1.0f / sinf(th);
			w0 = sinf((1.0f - u) * th) * rs;
			w1 = sinf(u * th) * rs;
		}
		float4 r = qnorm(make_float4(fmaf(w0, a.x, w1 * b.x), fmaf(w0, a.y, w1 * b.y), fmaf(w0, a.z, w1 * b.z),
		                             fmaf(w0, a.w, w1 * b.w)));
		float4 v = vin[j];
		// v' = v + w c + r x c, c = 2 r x v
		float cx = 2.0f * (r.y * v.z - r.z * v.y), cy = 2.0f * (r.z * v.x - r.x * v.z),
		      cz = 2.0f * (r.x * v.y - r.y * v.x);
		ro[j] = r;
		vo[j] = make_float4(v.x + r.w * cx + (r.y * cz - r.z * cy), v.y + r.w * cy + (r.z * cx - r.x * cz),
		                    v.z + r.w * cz + (r.x * cy - r.y * cx), v.w);
	}
	STOP(t);
}

// host bit matrices: 4096 of 32 words (word r's bit c the element (r, c));
// warp w's matrices 2 (i * warps + w) & 4095 and the next; their
// transposes at the same places in out
#define BT_M 4096
__global__ void bitmat_transpose_loop(const unsigned *in, unsigned *out, long long *t, int n) {
	int tid = threadIdx.x, lane = tid & 31, w = tid >> 5, nw = blockDim.x >> 5;
	const unsigned full = 0xffffffffu;
	START();
	for (int i = 0; i < n; i++) {
		int m = (2 * (i * nw + w)) & (BT_M - 1);
		unsigned x = in[m * 32 + lane], y = in[(m + 1) * 32 + lane];
#pragma unroll
		for (int j = 16; j > 0; j >>= 1) {
			// the bits c with c & j == 0
			const unsigned lm = j == 16 ? 0x0000ffffu : j == 8 ? 0x00ff00ffu : j == 4 ? 0x0f0f0f0fu
			                    : j == 2 ? 0x33333333u : 0x55555555u;
			unsigned px = __shfl_xor_sync(full, x, j), py = __shfl_xor_sync(full, y, j);
			if (lane & j) {
				x = (x & ~lm) | ((px >> j) & lm);
				y = (y & ~lm) | ((py >> j) & lm);
			} else {
				x = (x & lm) | ((px & lm) << j);
				y = (y & lm) | ((py & lm) << j);
			}
		}
		out[m * 32 + lane] = x;
		out[(m + 1) * 32 + lane] = y;
	}
	STOP(t);
}

// ---- host ----
#include "loop_host.cuh"

// the host's inputs in buf (offsets in 4-byte words): the particles'
// charges, the vectors slerp's quaternions rotate, the bit matrices
#define OFF_PC 0
#define OFF_SL (1 << 14)
#define OFF_BT (1 << 16)

static unsigned rng = 2654435761u;
static unsigned next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static float uni(float lo, float hi) { return lo + (hi - lo) * (float)(next() >> 8) * (1.0f / 16777216.0f); }

static void host_inputs(void) {
	const int words = 1 << 18;
	float *h = (float *)malloc((size_t)words * 4);
	for (int k = 0; k < words; k++) h[k] = 0.0f;
	unsigned *hu = (unsigned *)h;
	for (int k = 0; k < PC_P; k++) h[OFF_PC + k] = uni(0.5f, 1.5f);
	for (int k = 0; k < SL_P; k++) {
		for (int c = 0; c < 3; c++) h[OFF_SL + 4 * k + c] = uni(-1.0f, 1.0f);
		h[OFF_SL + 4 * k + 3] = 1.0f;
	}
	for (int k = 0; k < 32 * BT_M; k++) hu[OFF_BT + k] = next();
	CK(cudaMemcpy(buf, h, (size_t)words * 4, cudaMemcpyHostToDevice));
	free(h);
}

int main(void) {
	loop_host_init();
	host_inputs();
	char l[64];
	float *fb = (float *)buf;
	float *f2 = (float *)buf2;
	unsigned *u2 = (unsigned *)buf2;
	unsigned *ub = (unsigned *)buf;
	int *i2 = (int *)buf2;
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("pic_deposit_loop"), pic_deposit_loop, blk, 128, 4, "", (float2 *)buf2, fb + OFF_PC,
		        f2 + (1 << 16), dt, nn);
		MEASURE(L("bellman_ford_loop"), bellman_ford_loop, blk, 64, 4, "", (uint4 *)buf2, i2 + (1 << 17),
		        i2 + (1 << 18), dt, nn);
		MEASURE(L("dfa_scan_loop"), dfa_scan_loop, blk, 32, 3, "", (uint4 *)buf2, u2 + (1 << 16), dt, nn);
		MEASURE(L("jacobi_eig3_loop"), jacobi_eig3_loop, blk, 32, 3, "", f2, f2 + (1 << 16), dt, nn);
		MEASURE(L("morton_bsearch_loop"), morton_bsearch_loop, blk, 128, 3, "", (float4 *)buf2,
		        (uint2 *)(u2 + (1 << 16)), dt, nn);
		MEASURE(L("xorshift_walk_loop"), xorshift_walk_loop, blk, 32, 2, "", u2, dt, nn);
		MEASURE(L("slerp_loop"), slerp_loop, blk, 64, 6, "", (float4 *)buf2, (float4 *)(f2 + (1 << 15)),
		        (const float4 *)(fb + OFF_SL), (float4 *)(f2 + (1 << 16)), (float4 *)(f2 + (1 << 17)), dt, nn);
		MEASURE(L("bitmat_transpose_loop"), bitmat_transpose_loop, blk, 256, 3, "", ub + OFF_BT, u2, dt, nn);
	}
	return 0;
}
