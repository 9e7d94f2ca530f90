// simt_heldout12.cu: the twelfth held-out set for `ptxray simt`'s timing
// model: kinds of loop that none of the eleven sets before has (warp-per-row
// normalisations, indirect loads through a sparse matrix's structure, a
// hash table's probe chains, warp-aggregated and ballot-ranked digits,
// int8 dot products, a Monte Carlo path with a rarely taken tail), where
// branches, trip counts and addresses follow the data. Written, and the
// model's predictions committed (tests/fixtures/simt/heldout12/predicted.jsonl),
// before the first measurement. Same method as the other held-out sets
// (loop_host.cuh): one block, clock64() around the loop between
// __syncthreads(), T(n) and T(2n), five launches; tests/check_simt.py
// simulates tests/fixtures/simt/heldout12/simt_heldout12.sm_90.ptx (this file
// through `nvcc -arch=sm_90 -O3 -lineinfo -ptx`); run with
// `sh bench/gpu/simt/heldout.sh simt_heldout12`.
//
// The data that steers control flow or addresses (the sparse matrix's row
// pointers and column indices, the hash table, the bytes and the keys) is
// built by the kernel itself before the timed loop, from a hash, because
// the simulator knows only memory the kernel wrote: GPU and simulator see
// the same data, and its branches and gathers run as they would on it. The
// data that only flows into arithmetic (the rows normalised, the weights,
// the vector) is made by the host (random values in buf).
//  - ln_warp_loop: layer norm of 256-float rows, a warp a row, two-pass
//    mean and variance by shuffles, gamma and beta in registers;
//  - online_softmax_loop: softmax of 512-float rows, a warp a row, the
//    running maximum and rescaled sum in one pass (as attention kernels
//    do), the lanes' partial results merged by shuffles;
//  - csr_spmv_loop: CSR sparse matrix-vector product, a thread a row, row
//    lengths 1 to 39 (a long row one in sixteen), x read through the
//    column indices;
//  - hash_probe_loop: lookups in an open-addressing hash table (linear
//    probing, load 0.68, a fifth of the keys missing), a probe chain per
//    lane;
//  - match_hist_loop: a byte histogram of text-like data in shared memory,
//    each byte counted once a warp by the leader of its __match_any_sync
//    group;
//  - radix_rank_loop: one 4-bit digit of a radix sort a warp: lanes with
//    the same digit found by four ballots, the digit counts scanned by
//    shuffles, the keys scattered to their sorted places in shared memory;
//  - dp4a_gemv_loop: int8 matrix-vector product, a thread a row, weights
//    interleaved by 4-byte column groups, activations in shared memory,
//    __dp4a, a per-row float scale;
//  - mc_barrier_loop: Monte Carlo paths of an up-and-out barrier option:
//    xorshift, the Beasley-Springer-Moro inverse normal (a rational
//    polynomial, or for about one draw in six a log-log series), a
//    log-normal step, knock-out and maturity restarting the path.
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

// layer norm: row r of 256 floats (64 rows, 64 KiB), each lane two float4
__global__ void ln_warp_loop(const float *x, const float *gb, float *y, long long *t, int n) {
	int tid = threadIdx.x, lane = tid & 31, w = tid >> 5, nw = blockDim.x >> 5;
	const float4 *g4 = (const float4 *)gb;
	float4 g0 = g4[lane], g1 = g4[32 + lane], b0 = g4[64 + lane], b1 = g4[96 + lane];
	START();
	for (int i = 0; i < n; i++) {
		int r = (i * nw + w) & 63;
		const float4 *row = (const float4 *)(x + r * 256);
		float4 a = row[lane], b = row[32 + lane];
		float s = (a.x + a.y) + (a.z + a.w) + (b.x + b.y) + (b.z + b.w);
		for (int d = 16; d > 0; d >>= 1)
			s += __shfl_xor_sync(0xffffffffu, s, d);
		float mean = s * (1.0f / 256.0f);
		a.x -= mean; a.y -= mean; a.z -= mean; a.w -= mean;
		b.x -= mean; b.y -= mean; b.z -= mean; b.w -= mean;
		float q = a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w + b.x * b.x + b.y * b.y + b.z * b.z + b.w * b.w;
		for (int d = 16; d > 0; d >>= 1)
			q += __shfl_xor_sync(0xffffffffu, q, d);
		float rstd = rsqrtf(q * (1.0f / 256.0f) + 1e-5f);
		float4 *out = (float4 *)(y + r * 256);
		out[lane] = make_float4(a.x * rstd * g0.x + b0.x, a.y * rstd * g0.y + b0.y,
		                        a.z * rstd * g0.z + b0.z, a.w * rstd * g0.w + b0.w);
		out[32 + lane] = make_float4(b.x * rstd * g1.x + b1.x, b.y * rstd * g1.y + b1.y,
		                             b.z * rstd * g1.z + b1.z, b.w * rstd * g1.w + b1.w);
	}
	STOP(t);
}

// softmax: row r of 512 floats (32 rows, 64 KiB), each lane four float4
__global__ void online_softmax_loop(const float *x, float *y, long long *t, int n) {
	int tid = threadIdx.x, lane = tid & 31, w = tid >> 5, nw = blockDim.x >> 5;
	START();
	for (int i = 0; i < n; i++) {
		int r = (i * nw + w) & 31;
		const float4 *row = (const float4 *)(x + r * 512);
		float v[16];
#pragma unroll
		for (int k = 0; k < 4; k++) {
			float4 a = row[k * 32 + lane];
			v[4 * k] = a.x; v[4 * k + 1] = a.y; v[4 * k + 2] = a.z; v[4 * k + 3] = a.w;
		}
		float m = -1e30f, s = 0.0f;
#pragma unroll
		for (int k = 0; k < 16; k++) {
			float mn = fmaxf(m, v[k]);
			s = s * __expf(m - mn) + __expf(v[k] - mn);
			m = mn;
		}
		for (int d = 16; d > 0; d >>= 1) {
			float m2 = __shfl_xor_sync(0xffffffffu, m, d), s2 = __shfl_xor_sync(0xffffffffu, s, d);
			float mn = fmaxf(m, m2);
			s = s * __expf(m - mn) + s2 * __expf(m2 - mn);
			m = mn;
		}
		float inv = __fdividef(1.0f, s);
		float4 *out = (float4 *)(y + r * 512);
#pragma unroll
		for (int k = 0; k < 4; k++)
			out[k * 32 + lane] = make_float4(__expf(v[4 * k] - m) * inv, __expf(v[4 * k + 1] - m) * inv,
			                                 __expf(v[4 * k + 2] - m) * inv, __expf(v[4 * k + 3] - m) * inv);
	}
	STOP(t);
}

// CSR: 1024 rows of 2048 columns, about 9,700 entries, each row's columns
// ascending in a band around column 2r
#define SP_ROWS 1024
#define SP_COLS 2048
__device__ __forceinline__ int sp_row_len(int r) {
	unsigned h = mix((unsigned)r + 77u);
	return 1 + (h & 7) + ((h >> 3) & 7) + (((h >> 6) & 15) == 0 ? 24 : 0);
}
__global__ void csr_spmv_loop(int *rp, int *ci, float *va, const float *xv, float *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	if (tid == 0) {
		int p = 0;
		for (int r = 0; r < SP_ROWS; r++) {
			rp[r] = p;
			p += sp_row_len(r);
		}
		rp[SP_ROWS] = p;
	}
	__syncthreads();
	for (int r = tid; r < SP_ROWS; r += nb)
		for (int k = rp[r], e = rp[r + 1], j = 0; k < e; k++, j++) {
			unsigned h = mix((unsigned)(r * 64 + j));
			ci[k] = (2 * r - 20 + 3 * j + (int)(h & 3)) & (SP_COLS - 1);
			va[k] = 1.0f / (float)(1 + (h >> 28));
		}
	START();
	for (int i = 0; i < n; i++) {
		int r = (i * nb + tid) & (SP_ROWS - 1);
		float acc = 0.0f;
		for (int k = rp[r], e = rp[r + 1]; k < e; k++)
			acc += va[k] * xv[ci[k]];
		y[r] = acc;
	}
	STOP(t);
}

// hash table: 4096 slots of (key, value), 2800 keys inserted in order by
// one thread (the same layout on the GPU and in the simulator); queries
// draw from 3500 keys, the last 700 never inserted
#define HT_SLOTS 4096
#define HT_KEYS 2800
#define HT_QUERY 3500
__device__ __forceinline__ unsigned ht_key(unsigned j) { return mix(j + 1u) | 1u; }
__device__ __forceinline__ unsigned ht_slot(unsigned k) { return (k * 2654435761u) >> 20; }
__global__ void hash_probe_loop(uint2 *tab, unsigned *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int s = tid; s < HT_SLOTS; s += nb)
		tab[s] = make_uint2(0u, 0u);
	__syncthreads();
	if (tid == 0)
		for (unsigned j = 0; j < HT_KEYS; j++) {
			unsigned k = ht_key(j), s = ht_slot(k);
			while (tab[s].x != 0u)
				s = (s + 1u) & (HT_SLOTS - 1);
			tab[s] = make_uint2(k, j);
		}
	unsigned acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned q = ht_key(mix((unsigned)(i * nb + tid)) % HT_QUERY), s = ht_slot(q);
		for (;;) {
			uint2 e = tab[s];
			if (e.x == q) {
				acc += e.y;
				break;
			}
			if (e.x == 0u)
				break;
			s = (s + 1u) & (HT_SLOTS - 1);
		}
	}
	STOP(t);
	o[tid] = acc;
}

// byte histogram: 16 KiB of bytes, half of them spaces, 3/8 one of eight
// letters, 1/8 any byte
__global__ void match_hist_loop(unsigned *data, unsigned *o, long long *t, int n) {
	__shared__ unsigned h[256];
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31;
	for (int k = tid; k < 4096; k += nb) {
		unsigned word = 0;
		for (int b = 0; b < 4; b++) {
			unsigned x = mix((unsigned)(4 * k + b) + 12345u);
			unsigned c = (x & 1) ? 32u : (x & 6) ? 97u + ((x >> 3) & 7) : (x >> 8) & 255;
			word |= c << (8 * b);
		}
		data[k] = word;
	}
	for (int k = tid; k < 256; k += nb)
		h[k] = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned word = data[(i * nb + tid) & 4095];
#pragma unroll
		for (int b = 0; b < 4; b++) {
			unsigned v = (word >> (8 * b)) & 255;
			unsigned peers = __match_any_sync(0xffffffffu, v);
			if (lane == __ffs(peers) - 1)
				atomicAdd(&h[v], (unsigned)__popc(peers));
		}
	}
	STOP(t);
	for (int k = tid; k < 256; k += nb)
		o[k] = h[k];
}

// radix sort step: 8192 random 32-bit keys (32 KiB), the digit at bits
// 4 (i & 7) to 4 (i & 7) + 3; each warp sorts its 32 keys by it into its
// 32 words of shared memory and reads them back in order
__global__ void radix_rank_loop(unsigned *keys, unsigned *o, long long *t, int n) {
	__shared__ unsigned cnt[16][16];
	__shared__ unsigned out[512];
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5;
	for (int k = tid; k < 8192; k += nb)
		keys[k] = mix((unsigned)k * 2654435761u + 7u);
	unsigned lt = (1u << lane) - 1u, acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned key = keys[(i * nb + tid) & 8191];
		unsigned d = (key >> ((i & 7) * 4)) & 15;
		unsigned peers = 0xffffffffu;
#pragma unroll
		for (int b = 0; b < 4; b++) {
			unsigned bal = __ballot_sync(0xffffffffu, (d >> b) & 1);
			peers &= ((d >> b) & 1) ? bal : ~bal;
		}
		unsigned rank = __popc(peers & lt);
		if (lane < 16)
			cnt[w][lane] = 0;
		__syncwarp();
		if (rank == 0)
			cnt[w][d] = __popc(peers);
		__syncwarp();
		unsigned c = lane < 16 ? cnt[w][lane] : 0, sc = c;
		for (int dd = 1; dd < 16; dd <<= 1) {
			unsigned u = __shfl_up_sync(0xffffffffu, sc, dd);
			if (lane >= dd)
				sc += u;
		}
		unsigned off = __shfl_sync(0xffffffffu, sc - c, d);
		out[w * 32 + off + rank] = key;
		__syncwarp();
		acc += out[w * 32 + lane] ^ (unsigned)lane;
		__syncwarp();
	}
	STOP(t);
	o[tid] = acc;
}

// int8 GEMV: 512 rows of 128 int8 (32 words a row, word k of every row
// together: 64 KiB), 8 activation vectors of 32 words in shared memory
__global__ void dp4a_gemv_loop(const int *W, const int *xq, const float *scale, float *y, long long *t, int n) {
	__shared__ int xs[8][32];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < 256; k += nb)
		xs[k >> 5][k & 31] = xq[k];
	START();
	for (int i = 0; i < n; i++) {
		int r = (i * nb + tid) & 511;
		const int *v = xs[i & 7];
		int acc = 0;
#pragma unroll
		for (int k = 0; k < 32; k++)
			acc = __dp4a(W[k * 512 + r], v[k], acc);
		y[r] = (float)acc * scale[r];
	}
	STOP(t);
}

// the Beasley-Springer-Moro inverse of the normal distribution function
__device__ __forceinline__ float moro(float u) {
	float y = u - 0.5f;
	if (fabsf(y) < 0.42f) {
		float r = y * y;
		return y * (((-25.44106049637f * r + 41.39119773534f) * r - 18.61500062529f) * r + 2.50662823884f) /
		       ((((3.13082909833f * r - 21.06224101826f) * r + 23.08336743743f) * r - 8.47351093090f) * r + 1.0f);
	}
	float r = logf(-logf(y > 0.0f ? 1.0f - u : u));
	float x = 0.0000003960315187f;
	x = x * r + 0.0000002888167364f;
	x = x * r + 0.0000321767881768f;
	x = x * r + 0.0003951896511919f;
	x = x * r + 0.0038405729373609f;
	x = x * r + 0.0276438810333863f;
	x = x * r + 0.1607979714918209f;
	x = x * r + 0.9761690190917186f;
	x = x * r + 0.3374754822726147f;
	return y > 0.0f ? x : -x;
}
// paths of 64 steps from 100, knocked out at 130, the payoff max(S - 100, 0)
__global__ void mc_barrier_loop(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	unsigned s = mix((unsigned)tid + 1u) | 1u;
	float S = 100.0f, pay = 0.0f;
	int k = 0, ko = 0;
	START();
	for (int i = 0; i < n; i++) {
		s ^= s << 13; s ^= s >> 17; s ^= s << 5;
		float u = ((float)(s >> 8) + 0.5f) * (1.0f / 16777216.0f);
		float z = moro(u);
		S *= __expf(-0.0002f + 0.02f * z);
		if (S >= 130.0f) {
			ko++;
			S = 100.0f;
			k = 0;
		} else if (++k == 64) {
			pay += fmaxf(S - 100.0f, 0.0f);
			S = 100.0f;
			k = 0;
		}
	}
	STOP(t);
	o[tid] = pay + S + (float)ko;
}

// ---- host ----
#include "loop_host.cuh"

// the host's inputs in buf (offsets in 4-byte words): ln rows, gamma and
// beta; softmax rows; the sparse product's x; the int8 weights, activations
// and scales
#define OFF_LN 0
#define OFF_GB (1 << 16)
#define OFF_SM (1 << 17)
#define OFF_X (3 << 16)
#define OFF_W (1 << 18)
#define OFF_XQ (5 << 16)
#define OFF_SC (6 << 16)

static unsigned rng = 2463534242u;
static unsigned next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static float uni(float lo, float hi) { return lo + (hi - lo) * (float)(next() >> 8) * (1.0f / 16777216.0f); }

static void host_inputs(void) {
	const int words = 7 << 16;
	float *h = (float *)malloc((size_t)words * 4);
	unsigned *u = (unsigned *)h;
	for (int k = 0; k < words; k++) h[k] = 0.0f;
	for (int k = 0; k < 64 * 256; k++) h[OFF_LN + k] = uni(-3.0f, 3.0f);
	for (int k = 0; k < 256; k++) { h[OFF_GB + k] = uni(0.5f, 1.5f); h[OFF_GB + 256 + k] = uni(-0.1f, 0.1f); }
	for (int k = 0; k < 32 * 512; k++) h[OFF_SM + k] = uni(-8.0f, 8.0f);
	for (int k = 0; k < SP_COLS; k++) h[OFF_X + k] = uni(-1.0f, 1.0f);
	for (int k = 0; k < 32 * 512; k++) u[OFF_W + k] = next();
	for (int k = 0; k < 256; k++) u[OFF_XQ + k] = next();
	for (int k = 0; k < 512; k++) h[OFF_SC + k] = uni(0.001f, 0.01f);
	CK(cudaMemcpy(buf, h, (size_t)words * 4, cudaMemcpyHostToDevice));
	free(h);
}

int main(void) {
	loop_host_init();
	host_inputs();
	char l[64];
	float *fb = (float *)buf;
	int *ib = (int *)buf;
	int *b2 = (int *)buf2;
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("ln_warp_loop"), ln_warp_loop, blk, 64, 4, "", fb + OFF_LN, fb + OFF_GB, (float *)buf2, dt, nn);
		MEASURE(L("online_softmax_loop"), online_softmax_loop, blk, 64, 3, "", fb + OFF_SM, (float *)buf2, dt, nn);
		MEASURE(L("csr_spmv_loop"), csr_spmv_loop, blk, 64, 6, "", b2, b2 + (1 << 16), (float *)b2 + (2 << 16),
		        fb + OFF_X, (float *)b2 + (3 << 16), dt, nn);
		MEASURE(L("hash_probe_loop"), hash_probe_loop, blk, 64, 3, "", (uint2 *)buf2, (unsigned *)b2 + (1 << 16),
		        dt, nn);
		MEASURE(L("match_hist_loop"), match_hist_loop, blk, 128, 3, "", (unsigned *)buf2, (unsigned *)b2 + (1 << 16),
		        dt, nn);
		MEASURE(L("radix_rank_loop"), radix_rank_loop, blk, 128, 3, "", (unsigned *)buf2, (unsigned *)b2 + (1 << 16),
		        dt, nn);
		MEASURE(L("dp4a_gemv_loop"), dp4a_gemv_loop, blk, 64, 5, "", ib + OFF_W, ib + OFF_XQ, fb + OFF_SC,
		        (float *)buf2, dt, nn);
		MEASURE(L("mc_barrier_loop"), mc_barrier_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
	}
	return 0;
}
