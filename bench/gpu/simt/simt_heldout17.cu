// simt_heldout17.cu: the seventeenth held-out set for `ptxray simt`'s timing
// model: realistic loops of kinds no earlier set has (a 1-D heat equation
// in double precision, bitset set similarity, an LSTM cell, batch
// normalisation, a Rabin-Karp rolling hash, Euclid's GCD, an AoS-to-SoA
// particle gather, a half-precision dot product with top-2 tracking).
// Written, and the model's predictions committed
// (tests/fixtures/simt/heldout17/predicted.jsonl), before the first
// measurement. Same method as the other held-out sets (loop_host.cuh): one
// block, clock64() around the loop between __syncthreads(), T(n) and T(2n),
// five launches; tests/check_simt.py simulates
// tests/fixtures/simt/heldout17/simt_heldout17.sm_90.ptx (this file through
// `nvcc -arch=sm_90 -O3 -lineinfo -ptx`); run with
// `sh bench/gpu/simt/heldout.sh simt_heldout17`.
//
// The data that steers control flow, addresses or selects (the bitsets, the
// DNA text and pattern, the GCD's pairs, the gather's index list, the half
// keys and queries whose scores are ranked) is built by the kernel itself
// before the timed loop, from a hash, because the simulator knows only
// memory the kernel wrote; the data that only flows into arithmetic (the
// heat equation's initial temperatures, the LSTM's gate pre-activations
// and recurrent weights, the batch normalised, its scales and shifts, the
// particles) is made by the host (random values in buf).
//  - heat1d64_loop: explicit Euler steps of the 1-D heat equation on 2048
//    doubles in shared memory (insulated ends), double-buffered: an
//    iteration is one time step (three shared 8-byte loads, a DADD chain
//    and a DFMA a point, a shared store, a barrier);
//  - bitset_jaccard_loop: Jaccard similarity of 512-bit sets: a thread's
//    query in registers, a candidate a thread an iteration (four 16-byte
//    loads), popcounts of the AND and of the candidate, the ratio by
//    __fdividef, the best candidate kept by compare and select;
//  - lstm_cell_loop: the elementwise LSTM cell over 64 time steps (wrapped),
//    a hidden unit a thread: four gate pre-activations loaded, a diagonal
//    recurrent term from h, sigmoid and tanh by __expf and __fdividef,
//    c = f c + i g, h = o tanh(c) stored: a chain through h and c;
//  - batchnorm_loop: batch normalisation forward, a warp a channel of 256
//    values an iteration (eight coalesced loads a lane), the sum and the
//    sum of squares by __shfl_xor_sync butterflies, rsqrtf of the
//    variance, the normalised values stored, lane 0 updating the running
//    mean and variance;
//  - rabin_karp_loop: Rabin-Karp search for an 8-byte pattern in a DNA text
//    (ACGT bytes), a thread's stream 16 bytes (a uint4) an iteration: the
//    rolling hash mod 2^32 (a dependent IMAD chain of 16, the byte leaving
//    the window from the previous uint4 or this one), hits counted and the
//    last position kept by compare and select;
//  - gcd_loop: Euclid's algorithm by remainders on 20-bit pairs with a
//    common factor, a pair a thread an iteration: a data-dependent number
//    of 32-bit remainders a lane (the warp runs its longest), then the
//    fraction reduced by two divisions and stored;
//  - aos_gather_loop: an array of 28-byte particle structs (float3
//    position, float3 velocity, mass) gathered through an index list:
//    four scalar loads at the struct's stride, stored as structure of
//    arrays, and the potential sum m / r to the thread's point (rsqrtf);
//  - hdot_top2_loop: a tile of four 64-half keys staged in shared memory an
//    iteration (a half2 load by each of the first 128 threads, a barrier),
//    each thread's 64-half query dotted with each key by __hfma2 (four
//    half2 accumulators), the score to float, the best two scores and keys
//    kept by compares and selects.
// At 128 and 512 threads.
#include <cstdio>
#include <cstdlib>
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

// 2048 host doubles (the initial temperatures); u_new = u + r (u_l - 2u +
// u_r), r = 0.25, the neighbour clamped at the ends
#define HT_N 2048
__global__ void heat1d64_loop(const double *u0, double *out, long long *t, int n) {
	__shared__ double u[2][HT_N];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < HT_N; k += nb)
		u[0][k] = u0[k];
	START();
	for (int i = 0; i < n; i++) {
		const double *s = u[i & 1];
		double *d = u[(i & 1) ^ 1];
		for (int k = tid; k < HT_N; k += nb) {
			double c = s[k], l = s[max(k - 1, 0)], r = s[min(k + 1, HT_N - 1)];
			d[k] = fma(0.25, (l + r) - 2.0 * c, c);
		}
		__syncthreads();
	}
	STOP(t);
	for (int k = tid; k < HT_N; k += nb)
		out[k] = u[n & 1][k];
}

// 4096 sets of 512 bits (four uint4), set s's words the AND of one to three
// hashes (density 1/2, 1/4 or 1/8 by a hash of s); thread t's query the
// same kind of set from its own hashes; candidate (i * blockDim + t) & 4095
#define BS_SETS 4096
#define BS_W 4
__device__ __forceinline__ unsigned bs_word(unsigned k, unsigned set, unsigned seed) {
	unsigned d = mix(set + seed) & 3u;
	unsigned x = mix(k + seed + 1234567u), y = mix(k + seed + 7654321u), z = mix(k + seed + 2468013u);
	return x & (d >= 1u ? y : 0xffffffffu) & (d >= 2u ? z : 0xffffffffu);
}
__global__ void bitset_jaccard_loop(uint4 *sets, int *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	unsigned *sw = (unsigned *)sets;
	for (int k = tid; k < BS_SETS * BS_W * 4; k += nb)
		sw[k] = bs_word((unsigned)k, (unsigned)k >> 4, 99u);
	unsigned q[BS_W * 4];
	int qc = 0;
#pragma unroll
	for (int w = 0; w < BS_W * 4; w++) {
		q[w] = bs_word((unsigned)(tid * 16 + w), (unsigned)tid, 5555u);
		qc += __popc(q[w]);
	}
	float best = -1.0f;
	int bi = -1, acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		int c = (i * nb + tid) & (BS_SETS - 1);
		const uint4 *p = sets + c * BS_W;
		int inter = 0, cc = 0;
#pragma unroll
		for (int u = 0; u < BS_W; u++) {
			uint4 v = p[u];
			inter += __popc(q[4 * u] & v.x) + __popc(q[4 * u + 1] & v.y) + __popc(q[4 * u + 2] & v.z) +
			         __popc(q[4 * u + 3] & v.w);
			cc += __popc(v.x) + __popc(v.y) + __popc(v.z) + __popc(v.w);
		}
		float jac = __fdividef((float)inter, (float)(qc + cc - inter));
		bool better = jac > best;
		best = better ? jac : best;
		bi = better ? c : bi;
		acc += inter;
	}
	STOP(t);
	o[tid] = bi;
	o[nb + tid] = acc;
	((float *)o)[2 * nb + tid] = best;
}

// host pre-activations [64 steps][4 gates][512 units] in [-2, 2), the
// diagonal recurrent weights [4][512] in [-0.5, 0.5); unit = thread, step
// i & 63; the forget gate's bias 1
#define LS_T 64
#define LS_H 512
__device__ __forceinline__ float sigm(float x) { return __fdividef(1.0f, 1.0f + __expf(-x)); }
__device__ __forceinline__ float tanh_fast(float x) { return __fdividef(2.0f, 1.0f + __expf(-2.0f * x)) - 1.0f; }
__global__ void lstm_cell_loop(const float *pre, const float *uw, float *hout, long long *t, int n) {
	int j = threadIdx.x;
	float ui = uw[j], uf = uw[LS_H + j], ug = uw[2 * LS_H + j], uo = uw[3 * LS_H + j];
	float c = 0.0f, h = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		int s = i & (LS_T - 1);
		const float *p = pre + s * 4 * LS_H + j;
		float gi = sigm(fmaf(ui, h, p[0]));
		float gf = sigm(fmaf(uf, h, p[LS_H] + 1.0f));
		float gg = tanh_fast(fmaf(ug, h, p[2 * LS_H]));
		float go = sigm(fmaf(uo, h, p[3 * LS_H]));
		c = fmaf(gf, c, gi * gg);
		h = go * tanh_fast(c);
		hout[s * LS_H + j] = h;
	}
	STOP(t);
	hout[LS_T * LS_H + j] = c;
}

// host activations [256 channels][256 batch], the scales and shifts
// (gamma [256], beta [256]); warp w's channel (i * nw + w) & 255; the
// running mean and variance (momentum 0.1, unbiased variance) set to 0
// and 1 by the kernel before the loop
#define BN_C 256
#define BN_B 256
__global__ void batchnorm_loop(const float *x, const float *gb, float *y, float *rm, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < BN_C; k += nb) {
		rm[k] = 0.0f;
		rm[BN_C + k] = 1.0f;
	}
	START();
	for (int i = 0; i < n; i++) {
		int ch = (i * nw + w) & (BN_C - 1);
		const float *xc = x + ch * BN_B;
		float v[8], s = 0.0f, q = 0.0f;
#pragma unroll
		for (int k = 0; k < 8; k++) {
			v[k] = xc[lane + 32 * k];
			s += v[k];
			q = fmaf(v[k], v[k], q);
		}
#pragma unroll
		for (int o = 16; o > 0; o >>= 1) {
			s += __shfl_xor_sync(0xffffffffu, s, o);
			q += __shfl_xor_sync(0xffffffffu, q, o);
		}
		float mean = s * (1.0f / BN_B);
		float var = fmaxf(fmaf(-mean, mean, q * (1.0f / BN_B)), 0.0f);
		float g = gb[ch] * rsqrtf(var + 1e-5f), b = fmaf(-mean, g, gb[BN_C + ch]);
		float *yc = y + ch * BN_B;
#pragma unroll
		for (int k = 0; k < 8; k++)
			yc[lane + 32 * k] = fmaf(v[k], g, b);
		if (lane == 0) {
			rm[ch] = fmaf(0.9f, rm[ch], 0.1f * mean);
			rm[BN_C + ch] = fmaf(0.9f, rm[BN_C + ch], 0.1f * var * ((float)BN_B / (BN_B - 1)));
		}
	}
	STOP(t);
}

// the text: 4096 uint4 (64 KiB) of bytes 'A', 'C', 'G', 'T' from a hash's
// bit pairs; thread t's stream its uint4s (i * blockDim + t) & 4095; the
// pattern 8 hashed bases; hash = sum byte_j B^(7 - j) mod 2^32, B = 131
#define RK_B 131u
__device__ __forceinline__ unsigned dna(unsigned h2) { return (0x54474341u >> (8u * (h2 & 3u))) & 255u; }
__global__ void rabin_karp_loop(uint4 *text, int *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	unsigned *tw = (unsigned *)text;
	for (int k = tid; k < 4 * 4096; k += nb) {
		unsigned h = mix((unsigned)k + 8086u);
		tw[k] = dna(h) | dna(h >> 2) << 8 | dna(h >> 4) << 16 | dna(h >> 6) << 24;
	}
	unsigned pat = 0u, bm = 1u;
#pragma unroll
	for (int b = 0; b < 8; b++) {
		pat = pat * RK_B + dna(mix(777u + (unsigned)b));
		bm *= RK_B;
	}
	unsigned h = 0u;
	uint4 prev = make_uint4(0u, 0u, 0u, 0u);
	int cnt = 0, last = -1;
	START();
	for (int i = 0; i < n; i++) {
		uint4 q = text[(i * nb + tid) & 4095];
		unsigned cur[4] = {q.x, q.y, q.z, q.w}, old[4] = {prev.z, prev.w, q.x, q.y};
#pragma unroll
		for (int u = 0; u < 4; u++)
#pragma unroll
			for (int b = 0; b < 4; b++) {
				unsigned c = (cur[u] >> (8 * b)) & 255u, d = (old[u] >> (8 * b)) & 255u;
				h = h * RK_B + c - d * bm;
				bool hit = h == pat;
				cnt += hit ? 1 : 0;
				last = hit ? i * 16 + 4 * u + b : last;
			}
		prev = q;
	}
	STOP(t);
	o[tid] = cnt;
	o[nb + tid] = last;
	o[2 * nb + tid] = (int)h;
}

// 4096 pairs: a common factor 1 to 256 times two numbers 1 to 4096 from
// hashes; pair (i * blockDim + t) & 4095; gcd by a % b until b = 0, the
// reduced fraction stored in place of its pair's slot in red
#define GC_P 4096
__global__ void gcd_loop(uint2 *pairs, uint2 *red, unsigned *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < GC_P; k += nb) {
		unsigned h = mix((unsigned)k + 13u), g = mix(h), f = 1u + (mix(h + 1u) & 255u);
		pairs[k] = make_uint2(((h & 0xfffu) + 1u) * f, ((g & 0xfffu) + 1u) * f);
	}
	unsigned acc = 0u;
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (GC_P - 1);
		uint2 p = pairs[j];
		unsigned a = p.x, b = p.y;
		while (b != 0u) {
			unsigned r = a % b;
			a = b;
			b = r;
		}
		red[j] = make_uint2(p.x / a, p.y / a);
		acc += a;
	}
	STOP(t);
	o[tid] = acc;
}

// 16384 host particles (positions and velocities in [0, 1), masses in
// [0.5, 1.5)); the index list: 8192 hashed particle numbers; entry
// (i * blockDim + t) & 8191; x, y, z, m stored as four arrays of 8192 in
// out, the potentials after them
struct Particle {
	float3 pos;
	float3 vel;
	float mass;
};
#define AG_P 16384
#define AG_L 8192
__global__ void aos_gather_loop(const Particle *ps, int *idx, float *out, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < AG_L; k += nb)
		idx[k] = (int)(mix((unsigned)k + 5150u) & (AG_P - 1));
	float cx = hunif((unsigned)tid + 1u, 0.0f, 1.0f), cy = hunif((unsigned)tid + 1001u, 0.0f, 1.0f);
	float cz = hunif((unsigned)tid + 2001u, 0.0f, 1.0f), pot = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (AG_L - 1);
		int p = idx[j];
		float3 x = ps[p].pos;
		float m = ps[p].mass;
		out[j] = x.x;
		out[AG_L + j] = x.y;
		out[2 * AG_L + j] = x.z;
		out[3 * AG_L + j] = m;
		float dx = x.x - cx, dy = x.y - cy, dz = x.z - cz;
		float d2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, 1e-4f)));
		pot = fmaf(m, rsqrtf(d2), pot);
	}
	STOP(t);
	out[4 * AG_L + tid] = pot;
}

// 1024 keys of 64 halves (128 bytes, eight uint4) in [-1, 1) from hashes;
// thread t's query 64 hashed halves in registers; tile i: keys
// (4i .. 4i + 3) & 1023; score = the dot product (half2 accumulators
// summed, then the two halves in float)
#define HD_K 1024
#define HD_TILE 4
__global__ void hdot_top2_loop(uint4 *keys, float *o, long long *t, int n) {
	__shared__ __align__(16) __half2 tile[HD_TILE * 32];
	int tid = threadIdx.x, nb = blockDim.x;
	__half2 *kh = (__half2 *)keys;
	for (int k = tid; k < HD_K * 32; k += nb)
		kh[k] = __floats2half2_rn(hunif(2u * (unsigned)k + 31u, -1.0f, 1.0f), hunif(2u * (unsigned)k + 32u, -1.0f, 1.0f));
	__half2 q[32];
#pragma unroll
	for (int d = 0; d < 32; d++) {
		unsigned s = (unsigned)(tid * 64 + 2 * d) + 900001u;
		q[d] = __floats2half2_rn(hunif(s, -1.0f, 1.0f), hunif(s + 1u, -1.0f, 1.0f));
	}
	float b1 = -1e30f, b2 = -1e30f;
	int i1 = -1, i2 = -1;
	START();
	for (int i = 0; i < n; i++) {
		int k0 = (i * HD_TILE) & (HD_K - 1);
		for (int e = tid; e < HD_TILE * 32; e += nb)
			tile[e] = kh[k0 * 32 + e];
		__syncthreads();
#pragma unroll
		for (int kk = 0; kk < HD_TILE; kk++) {
			__half2 a0 = __float2half2_rn(0.0f), a1 = a0, a2 = a0, a3 = a0;
#pragma unroll
			for (int d = 0; d < 32; d += 4) {
				a0 = __hfma2(q[d], tile[kk * 32 + d], a0);
				a1 = __hfma2(q[d + 1], tile[kk * 32 + d + 1], a1);
				a2 = __hfma2(q[d + 2], tile[kk * 32 + d + 2], a2);
				a3 = __hfma2(q[d + 3], tile[kk * 32 + d + 3], a3);
			}
			__half2 s2 = __hadd2(__hadd2(a0, a1), __hadd2(a2, a3));
			float s = __low2float(s2) + __high2float(s2);
			int key = k0 + kk;
			if (s > b1) {
				b2 = b1;
				i2 = i1;
				b1 = s;
				i1 = key;
			} else if (s > b2) {
				b2 = s;
				i2 = key;
			}
		}
		__syncthreads();
	}
	STOP(t);
	o[tid] = b1;
	o[nb + tid] = b2;
	((int *)o)[2 * nb + tid] = i1;
	((int *)o)[3 * nb + tid] = i2;
}

// ---- host ----
#include "loop_host.cuh"

// the host's inputs in buf (offsets in 4-byte words): the temperatures
// (doubles), the LSTM's recurrent weights and pre-activations, the batch
// and its scales and shifts, the particles
#define OFF_HEAT 0
#define OFF_LSTM_U (1 << 13)
#define OFF_LSTM (1 << 16)
#define OFF_BN (1 << 18)
#define OFF_BN_GB ((1 << 18) + (1 << 16))
#define OFF_PART (1 << 19)

static unsigned rng = 2463534242u;
static unsigned next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static float uni(float lo, float hi) { return lo + (hi - lo) * (float)(next() >> 8) * (1.0f / 16777216.0f); }

static void host_inputs(void) {
	const int words = 1 << 20;
	float *h = (float *)malloc((size_t)words * 4);
	for (int k = 0; k < words; k++) h[k] = 0.0f;
	double *hd = (double *)(h + OFF_HEAT);
	for (int k = 0; k < HT_N; k++) hd[k] = (double)uni(0.0f, 100.0f) + (double)uni(0.0f, 1.0f) * 1e-6;
	for (int k = 0; k < 4 * LS_H; k++) h[OFF_LSTM_U + k] = uni(-0.5f, 0.5f);
	for (int k = 0; k < LS_T * 4 * LS_H; k++) h[OFF_LSTM + k] = uni(-2.0f, 2.0f);
	for (int k = 0; k < BN_C * BN_B; k++) h[OFF_BN + k] = uni(-3.0f, 5.0f);
	for (int k = 0; k < BN_C; k++) {
		h[OFF_BN_GB + k] = uni(0.5f, 1.5f);
		h[OFF_BN_GB + BN_C + k] = uni(-0.5f, 0.5f);
	}
	for (int k = 0; k < AG_P; k++) {
		float *p = h + OFF_PART + 7 * k;
		for (int c = 0; c < 6; c++) p[c] = uni(0.0f, 1.0f);
		p[6] = uni(0.5f, 1.5f);
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
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("heat1d64_loop"), heat1d64_loop, blk, 128, 3, "", (const double *)(fb + OFF_HEAT),
		        (double *)buf2, dt, nn);
		MEASURE(L("bitset_jaccard_loop"), bitset_jaccard_loop, blk, 128, 3, "", (uint4 *)buf2, i2 + (1 << 17),
		        dt, nn);
		MEASURE(L("lstm_cell_loop"), lstm_cell_loop, blk, 128, 4, "", fb + OFF_LSTM, fb + OFF_LSTM_U, f2, dt, nn);
		MEASURE(L("batchnorm_loop"), batchnorm_loop, blk, 128, 5, "", fb + OFF_BN, fb + OFF_BN_GB, f2,
		        f2 + (1 << 17), dt, nn);
		MEASURE(L("rabin_karp_loop"), rabin_karp_loop, blk, 256, 3, "", (uint4 *)buf2, i2 + (1 << 16), dt, nn);
		MEASURE(L("gcd_loop"), gcd_loop, blk, 64, 4, "", (uint2 *)buf2, (uint2 *)(u2 + (1 << 14)),
		        u2 + (1 << 16), dt, nn);
		MEASURE(L("aos_gather_loop"), aos_gather_loop, blk, 64, 4, "", (const Particle *)(fb + OFF_PART), i2,
		        f2 + (1 << 16), dt, nn);
		MEASURE(L("hdot_top2_loop"), hdot_top2_loop, blk, 64, 3, "", (uint4 *)buf2, f2 + (1 << 16), dt, nn);
	}
	return 0;
}
