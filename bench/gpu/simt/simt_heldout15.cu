// simt_heldout15.cu: the fifteenth held-out set for `ptxray simt`'s timing
// model: realistic loops of kinds no earlier set has (FFT butterflies,
// sequence alignment, a warp top-k by REDUX, warp-per-row sparse products,
// a split-block Bloom filter, a bucketed two-choice hash table, a
// counter-based random generator, image resampling of bytes).
// Written, and the model's predictions committed
// (tests/fixtures/simt/heldout15/predicted.jsonl), before the first
// measurement. Same method as the other held-out sets (loop_host.cuh): one
// block, clock64() around the loop between __syncthreads(), T(n) and T(2n),
// five launches; tests/check_simt.py simulates
// tests/fixtures/simt/heldout15/simt_heldout15.sm_90.ptx (this file through
// `nvcc -arch=sm_90 -O3 -lineinfo -ptx`); run with
// `sh bench/gpu/simt/heldout.sh simt_heldout15`.
//
// The data that steers control flow, addresses or selects (the reference
// and query residues, the scores ranked, the sparse matrix's structure, the
// Bloom filter's keys, the hash table and its queries) is built by the
// kernel itself before the timed loop, from a hash, because the simulator
// knows only memory the kernel wrote; the data that only flows into
// arithmetic (the sparse product's vector, the activations dropped out,
// the image resampled) is made by the host (random values in buf).
//  - fft_stage_loop: one radix-2 stage of a 1024-point complex FFT an
//    iteration (the stages in turn), float2 in shared memory, the twiddle
//    by __sincosf, the butterflies halved, a barrier after each stage;
//  - sw_align_loop: Smith-Waterman with affine gaps, a 16-residue query a
//    thread held in registers against its own reference (interleaved
//    words of four residues), a dependent integer max chain down the column;
//  - warp_topk_loop: the 8 largest of a 256-key row a warp, each lane 8
//    keys from two uint4 loads, 8 rounds of __reduce_max_sync, the winner
//    dropping its key by selects, the lane's maximum again by a max tree;
//  - csr_vector_loop: CSR sparse matrix-vector product, a warp a row
//    (lengths 4 to 35, one row in eight 96 to 223), x gathered through the
//    column indices, the lanes' sums by __shfl_xor_sync;
//  - bloom_loop: a split-block Bloom filter (a key sets one bit in each of
//    the 8 words of a 32-byte block) in global memory: 8 atomicOr a key
//    inserted, a query by two uint4 loads and 8 bit tests, two filters in
//    turn with a barrier an iteration;
//  - cuckoo_lookup_loop: lookups in a bucketed two-choice hash table in
//    shared memory (4-key buckets read as uint4): the first bucket, and for
//    keys not there (absent keys, overflowed ones) the second;
//  - philox_dropout_loop: dropout of float4 activations with Philox4x32-10
//    (ten rounds of two 32x32 multiplies, high and low halves), p = 0.1;
//  - bilinear_resize_loop: bilinear resampling of a 96x96 RGBA byte image
//    to 128x128 (half-pixel centres), four uchar4 gathers, the bytes to
//    float and back, saturated.
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

// 1024 complex values in [-1, 1)^2; stage s pairs p and p + 2^s, w =
// exp(-i pi j / 2^s), both outputs halved (a scaled transform keeps the
// values bounded however many passes run)
__global__ void fft_stage_loop(float2 *o, long long *t, int n) {
	__shared__ float2 z[1024];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < 1024; k += nb)
		z[k] = make_float2(hunif(2u * k + 17u, -1.0f, 1.0f), hunif(2u * k + 18u, -1.0f, 1.0f));
	START();
	for (int i = 0; i < n; i++) {
		int s = i % 10, half = 1 << s;
		float sc = -3.14159265f * __int_as_float((127 - s) << 23);   // -pi / 2^s
		for (int b = tid; b < 512; b += nb) {
			int j = b & (half - 1);
			int p = ((b >> s) << (s + 1)) | j, q = p + half;
			float sn, cs;
			__sincosf(sc * (float)j, &sn, &cs);
			float2 u = z[p], v = z[q];
			float vr = v.x * cs - v.y * sn, vi = v.x * sn + v.y * cs;
			z[p] = make_float2(0.5f * (u.x + vr), 0.5f * (u.y + vi));
			z[q] = make_float2(0.5f * (u.x - vr), 0.5f * (u.y - vi));
		}
		__syncthreads();
	}
	STOP(t);
	for (int k = tid; k < 1024; k += nb)
		o[k] = z[k];
}

// residues 0..3; the references 8192 words of four residues (a byte each),
// thread t's k-th word at k * blockDim + t; match +2, mismatch -1, gap
// open 3, extend 1; the local alignment's best score a thread
__global__ void sw_align_loop(unsigned *ref, int *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < 8192; k += nb)
		ref[k] = mix((unsigned)k + 5555u) & 0x03030303u;
	__syncthreads();
	unsigned qw = mix((unsigned)tid + 777u);
	int q[16], H[16], E[16];
#pragma unroll
	for (int j = 0; j < 16; j++) {
		q[j] = (qw >> (2 * j)) & 3;
		H[j] = 0;
		E[j] = 0;
	}
	int best = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned w = ref[(i * nb + tid) & 8191];
#pragma unroll
		for (int c = 0; c < 4; c++) {
			int r = (w >> (8 * c)) & 3;
			int diag = 0, up = 0, f = 0;
#pragma unroll
			for (int j = 0; j < 16; j++) {
				int e = max(E[j] - 1, H[j] - 3);
				f = max(f - 1, up - 3);
				int h = max(max(diag + (q[j] == r ? 2 : -1), 0), max(e, f));
				diag = H[j];
				H[j] = h;
				E[j] = e;
				up = h;
				best = max(best, h);
			}
		}
	}
	STOP(t);
	o[tid] = best;
}

// 64 rows of 256 keys: a key is a hash's top 24 bits over its column (all
// distinct in a row); each warp's row's 8 largest keys, in order
__global__ void warp_topk_loop(unsigned *sc, unsigned *top, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < 64 * 256; k += nb)
		sc[k] = (mix((unsigned)k + 31u) & 0xffffff00u) | (unsigned)(k & 255);
	__syncthreads();
	START();
	for (int i = 0; i < n; i++) {
		int r = (i * nw + w) & 63;
		const uint4 *row = (const uint4 *)(sc + r * 256);
		uint4 a = row[lane], b = row[32 + lane];
		unsigned v[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
		unsigned m = max(max(max(v[0], v[1]), max(v[2], v[3])), max(max(v[4], v[5]), max(v[6], v[7])));
		unsigned mine = 0;
#pragma unroll
		for (int k = 0; k < 8; k++) {
			unsigned g = __reduce_max_sync(0xffffffffu, m);
			mine = lane == k ? g : mine;
#pragma unroll
			for (int e = 0; e < 8; e++)
				v[e] = v[e] == g ? 0u : v[e];
			m = max(max(max(v[0], v[1]), max(v[2], v[3])), max(max(v[4], v[5]), max(v[6], v[7])));
		}
		if (lane < 8)
			top[r * 8 + lane] = mine;
	}
	STOP(t);
}

// 1024 rows; row r's length from a hash of r (4 to 35, or 96 to 223 for
// one row in eight); columns near 3r with a hashed spread, among 4096
#define CV_ROWS 1024
__device__ __forceinline__ int cv_row_len(int r) {
	unsigned h = mix((unsigned)r + 4321u);
	return (h & 7u) == 0u ? 96 + (int)((h >> 3) & 127u) : 4 + (int)((h >> 3) & 31u);
}
__global__ void csr_vector_loop(int *rp, int *ci, float *va, const float *x, float *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	if (tid == 0) {
		int p = 0;
		for (int r = 0; r < CV_ROWS; r++) {
			rp[r] = p;
			p += cv_row_len(r);
		}
		rp[CV_ROWS] = p;
	}
	__syncthreads();
	for (int r = tid; r < CV_ROWS; r += nb)
		for (int k = rp[r], e = rp[r + 1], j = 0; k < e; k++, j++) {
			unsigned h = mix((unsigned)(r * 256 + j) + 99u);
			ci[k] = (3 * r + 5 * j + (int)(h & 63u)) & 4095;
			va[k] = hunif(h, -1.0f, 1.0f);
		}
	START();
	for (int i = 0; i < n; i++) {
		int r = (i * nw + w) & (CV_ROWS - 1);
		int b = rp[r], e = rp[r + 1];
		float acc = 0.0f;
		for (int k = b + lane; k < e; k += 32)
			acc += va[k] * x[ci[k]];
		for (int d = 16; d > 0; d >>= 1)
			acc += __shfl_xor_sync(0xffffffffu, acc, d);
		if (lane == 0)
			y[r] = acc;
	}
	STOP(t);
}

// split-block Bloom filter: 1024 blocks of 8 words; a key's hash h picks
// the block (h >> 22) and in word s the bit (h * salt_s) >> 27. Two
// filters: step i inserts into filter i & 1 and queries the other, which
// the step before filled; the query keys, lane by lane, one inserted the
// step before and one never inserted
#define BF_BLOCKS 1024
__device__ __forceinline__ unsigned bf_salt(int s) {
	const unsigned salt[8] = {0x2c1b3c6du, 0x297a2d39u, 0x9e3779b1u, 0x85ebca6bu,
	                          0xc2b2ae35u, 0x27d4eb2fu, 0x165667b1u, 0xd3a2646du};
	return salt[s];
}
__global__ void bloom_loop(unsigned *bf, int *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31;
	for (int k = tid; k < 2 * BF_BLOCKS * 8; k += nb)
		bf[k] = 0u;
	__syncthreads();
	int hits = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned *fi = bf + (i & 1) * (BF_BLOCKS * 8), *fq = bf + ((i & 1) ^ 1) * (BF_BLOCKS * 8);
		unsigned hi = mix((unsigned)(i * nb + tid) + 1u);
		unsigned *blk = fi + (hi >> 22) * 8;
#pragma unroll
		for (int s = 0; s < 8; s++)
			atomicOr(&blk[s], 1u << ((hi * bf_salt(s)) >> 27));
		unsigned id = (lane & 1) ? (unsigned)((i - 1) * nb + (tid ^ 2)) + 1u : (unsigned)(i * nb + tid) + 0x40000001u;
		unsigned hq = mix(id);
		const uint4 *qb = (const uint4 *)(fq + (hq >> 22) * 8);
		uint4 a = qb[0], b = qb[1];
		unsigned all = (a.x >> ((hq * bf_salt(0)) >> 27)) & (a.y >> ((hq * bf_salt(1)) >> 27)) &
		               (a.z >> ((hq * bf_salt(2)) >> 27)) & (a.w >> ((hq * bf_salt(3)) >> 27)) &
		               (b.x >> ((hq * bf_salt(4)) >> 27)) & (b.y >> ((hq * bf_salt(5)) >> 27)) &
		               (b.z >> ((hq * bf_salt(6)) >> 27)) & (b.w >> ((hq * bf_salt(7)) >> 27));
		hits += (int)(all & 1u);
		__syncthreads();
	}
	STOP(t);
	o[tid] = hits;
}

// two tables of 256 buckets of 4 keys (and their values) in shared memory;
// 1400 keys inserted in order by one thread, each into the first free slot
// of its first bucket, else of its second (else dropped); queries draw
// from 1866 keys, the last 466 never inserted; two lookups an iteration
#define CK_KEYS 1400
#define CK_QUERY 1866
__device__ __forceinline__ unsigned ck_key(unsigned j) { return mix(j + 9001u) | 1u; }
__device__ __forceinline__ unsigned ck_h1(unsigned k) { return (k * 2654435761u) >> 24; }
__device__ __forceinline__ unsigned ck_h2(unsigned k) { return mix(k ^ 0x5bd1e995u) & 255u; }
__device__ __forceinline__ int ck_slot(uint4 e, unsigned q) {
	return e.x == q ? 0 : e.y == q ? 1 : e.z == q ? 2 : e.w == q ? 3 : -1;
}
__global__ void cuckoo_lookup_loop(unsigned *o, long long *t, int n) {
	__shared__ __align__(16) unsigned tk[2 * 256 * 4];
	__shared__ unsigned tv[2 * 256 * 4];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < 2 * 256 * 4; k += nb) {
		tk[k] = 0u;
		tv[k] = 0u;
	}
	__syncthreads();
	if (tid == 0)
		for (unsigned j = 0; j < CK_KEYS; j++) {
			unsigned k = ck_key(j);
			unsigned b = ck_h1(k) * 4;
			int s = 0;
			while (s < 4 && tk[b + s] != 0u)
				s++;
			if (s == 4) {
				b = 1024 + ck_h2(k) * 4;
				s = 0;
				while (s < 4 && tk[b + s] != 0u)
					s++;
			}
			if (s < 4) {
				tk[b + s] = k;
				tv[b + s] = j;
			}
		}
	const uint4 *tb = (const uint4 *)tk;
	unsigned acc = 0;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int u = 0; u < 2; u++) {
			unsigned q = ck_key(mix((unsigned)((2 * i + u) * nb + tid)) % CK_QUERY);
			unsigned b = ck_h1(q);
			int s = ck_slot(tb[b], q);
			if (s < 0) {
				b = 256 + ck_h2(q);
				s = ck_slot(tb[b], q);
			}
			if (s >= 0)
				acc += tv[b * 4 + s] + 1u;
		}
	}
	STOP(t);
	o[tid] = acc;
}

// Philox4x32-10: counter (offset, 0, subsequence, 0), a fixed seed as key
__device__ __forceinline__ uint4 philox10(uint4 c, unsigned k0, unsigned k1) {
#pragma unroll
	for (int r = 0; r < 10; r++) {
		unsigned lo0 = 0xD2511F53u * c.x, hi0 = __umulhi(0xD2511F53u, c.x);
		unsigned lo1 = 0xCD9E8D57u * c.z, hi1 = __umulhi(0xCD9E8D57u, c.z);
		c = make_uint4(hi1 ^ c.y ^ k0, lo1, hi0 ^ c.w ^ k1, lo0);
		k0 += 0x9E3779B9u;
		k1 += 0xBB67AE85u;
	}
	return c;
}
// 16384 float4 activations (host values); an element kept when its
// uniform is at least p = 0.1, then scaled by 1 / (1 - p)
__global__ void philox_dropout_loop(const float4 *x, float4 *y, int *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	const float p = 0.1f, sc = 1.0f / 0.9f, u32 = 2.3283064e-10f;
	int kept = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i * nb + tid) & 16383;
		float4 a = x[k];
		uint4 r = philox10(make_uint4((unsigned)i, 0u, (unsigned)tid, 0u), 0x2545F491u, 0x8C1B3D7Eu);
		bool k0 = (float)r.x * u32 >= p, k1 = (float)r.y * u32 >= p;
		bool k2 = (float)r.z * u32 >= p, k3 = (float)r.w * u32 >= p;
		y[k] = make_float4(k0 ? a.x * sc : 0.0f, k1 ? a.y * sc : 0.0f, k2 ? a.z * sc : 0.0f, k3 ? a.w * sc : 0.0f);
		kept += (int)k0 + (int)k1 + (int)k2 + (int)k3;
	}
	STOP(t);
	o[tid] = kept;
}

// 96x96 RGBA source (host bytes) to 128x128: source coordinate
// (d + 0.5) * 0.75 - 0.5 clamped at 0, the right and lower neighbours
// clamped at 95
__device__ __forceinline__ float4 u4f(uchar4 c) { return make_float4(c.x, c.y, c.z, c.w); }
__device__ __forceinline__ float4 lerp4(float4 a, float4 b, float f) {
	return make_float4(fmaf(f, b.x - a.x, a.x), fmaf(f, b.y - a.y, a.y), fmaf(f, b.z - a.z, a.z),
	                   fmaf(f, b.w - a.w, a.w));
}
__device__ __forceinline__ unsigned char sat8(float v) { return (unsigned char)__float2uint_rn(fminf(fmaxf(v, 0.0f), 255.0f)); }
__global__ void bilinear_resize_loop(const uchar4 *src, uchar4 *dst, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	START();
	for (int i = 0; i < n; i++) {
		int p = (i * nb + tid) & 16383, ox = p & 127, oy = p >> 7;
		float sx = fmaxf(((float)ox + 0.5f) * 0.75f - 0.5f, 0.0f);
		float sy = fmaxf(((float)oy + 0.5f) * 0.75f - 0.5f, 0.0f);
		int x0 = (int)sx, y0 = (int)sy;
		int x1 = min(x0 + 1, 95), y1 = min(y0 + 1, 95);
		float fx = sx - (float)x0, fy = sy - (float)y0;
		float4 a = u4f(src[y0 * 96 + x0]), b = u4f(src[y0 * 96 + x1]);
		float4 c = u4f(src[y1 * 96 + x0]), d = u4f(src[y1 * 96 + x1]);
		float4 v = lerp4(lerp4(a, b, fx), lerp4(c, d, fx), fy);
		dst[p] = make_uchar4(sat8(v.x), sat8(v.y), sat8(v.z), sat8(v.w));
	}
	STOP(t);
}

// ---- host ----
#include "loop_host.cuh"

// the host's inputs in buf (offsets in 4-byte words): the sparse product's
// vector, the activations, the image
#define OFF_X 0
#define OFF_DROP (1 << 14)
#define OFF_IMG (1 << 17)

static unsigned rng = 2463534242u;
static unsigned next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static float uni(float lo, float hi) { return lo + (hi - lo) * (float)(next() >> 8) * (1.0f / 16777216.0f); }

static void host_inputs(void) {
	const int words = 1 << 18;
	float *h = (float *)malloc((size_t)words * 4);
	for (int k = 0; k < words; k++) h[k] = 0.0f;
	for (int k = 0; k < 4096; k++) h[OFF_X + k] = uni(-1.0f, 1.0f);
	for (int k = 0; k < 1 << 16; k++) h[OFF_DROP + k] = uni(-3.0f, 3.0f);
	unsigned *hu = (unsigned *)h;
	for (int k = 0; k < 96 * 96; k++) hu[OFF_IMG + k] = next();
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
		MEASURE(L("fft_stage_loop"), fft_stage_loop, blk, 128, 2, "", (float2 *)buf2, dt, nn);
		MEASURE(L("sw_align_loop"), sw_align_loop, blk, 32, 3, "", u2, i2 + (1 << 16), dt, nn);
		MEASURE(L("warp_topk_loop"), warp_topk_loop, blk, 64, 3, "", u2, u2 + (1 << 16), dt, nn);
		MEASURE(L("csr_vector_loop"), csr_vector_loop, blk, 64, 6, "", i2, i2 + (1 << 16), f2 + (1 << 18),
		        fb + OFF_X, f2 + (1 << 20), dt, nn);
		MEASURE(L("bloom_loop"), bloom_loop, blk, 32, 3, "", u2, i2 + (1 << 16), dt, nn);
		MEASURE(L("cuckoo_lookup_loop"), cuckoo_lookup_loop, blk, 128, 2, "", u2, dt, nn);
		MEASURE(L("philox_dropout_loop"), philox_dropout_loop, blk, 128, 4, "", (const float4 *)(fb + OFF_DROP),
		        (float4 *)buf2, i2 + (1 << 18), dt, nn);
		MEASURE(L("bilinear_resize_loop"), bilinear_resize_loop, blk, 128, 3, "", (const uchar4 *)(fb + OFF_IMG),
		        (uchar4 *)buf2, dt, nn);
	}
	return 0;
}
