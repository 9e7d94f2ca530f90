// simt_heldout13.cu: the thirteenth held-out set for `ptxray simt`'s timing
// model: realistic loops built on the rules the sixteenth session added
// (MATCH.ANY's latency and its distinct values, the MUFU special functions
// and their denormal fix-ups, a polling loop's YIELD, a lone lane's shared
// atomic in its own branch), none of them a kind an earlier set has.
// Written, and the model's predictions committed
// (tests/fixtures/simt/heldout13/predicted.jsonl), before the first
// measurement. Same method as the other held-out sets (loop_host.cuh): one
// block, clock64() around the loop between __syncthreads(), T(n) and T(2n),
// five launches; tests/check_simt.py simulates
// tests/fixtures/simt/heldout13/simt_heldout13.sm_90.ptx (this file through
// `nvcc -arch=sm_90 -O3 -lineinfo -ptx`); run with
// `sh bench/gpu/simt/heldout.sh simt_heldout13`.
//
// The data that steers control flow, addresses or the accurate functions'
// slow paths (the activations, the logits, the keys, the graph, the values
// merged under the lock) is built by the kernel itself before the timed
// loop, from a hash, because the simulator knows only memory the kernel
// wrote; the data that only flows into arithmetic (the rotary embedding's
// vectors and weights) is made by the host (random values in buf). Flags,
// locks and counters are set by the kernel before the loop.
//  - gelu_tanh_loop: the tanh form of GELU on float4s, accurate tanhf (its
//    two paths, |x| below and above 0.6, taken by the data);
//  - xent_loop: cross-entropy of 256 logits a row, a warp a row: the row's
//    maximum by shuffles, the sum of accurate expf, the accurate logf of
//    it, the label's logit gathered;
//  - bm_option_loop: Monte Carlo of a European call: xorshift, Box-Muller
//    with __logf, sqrtf, __sinf and __cosf, two terminal prices by __expf;
//  - rope_norm_loop: a 64-wide attention head a warp: RMS norm by
//    shuffles and rsqrtf, then the rotary embedding of the token's
//    position, __sincosf a pair of dimensions a lane;
//  - agg_insert_loop: a count per distinct key in a shared open-addressing
//    table: the lanes holding one key found by __match_any_sync, their
//    leader inserting it (atomicCAS probes) and adding the group's size;
//  - frontier_agg_loop: a BFS step's filter: each lane's neighbour, if not
//    yet visited (a shared bitmap), appended to the next frontier in global
//    memory at a place counted by a warp-aggregated atomic on a shared
//    counter inside the branch (__activemask, the leader's atomicAdd,
//    __shfl_sync to the branch's lanes);
//  - spsc_ring_loop: pairs of warps, a producer and a consumer, handing
//    32-float items over through a 4-slot ring in shared memory, the head
//    and tail polled through volatile loads, __threadfence_block before
//    each is published;
//  - ticket_welford_loop: each warp's mean and M2 (Welford, by shuffles)
//    merged into the block's running statistics by its lane 0 under a
//    ticket lock in shared memory (atomicAdd for the ticket, a volatile
//    poll of the number served);
//  - chained_scan_loop: a single-pass scan's chained look-back, warps
//    standing for tiles: each warp's lane 0 polls its predecessor's packed
//    (flag, inclusive prefix) word in global memory, then publishes its
//    own; the lanes' prefixes by shuffles.
// At 128 and 512 threads. Every spin waits only for a warp that never
// waits for it (all of the block's warps are resident), and within a warp
// every lane polls the same word or one lane polls alone.
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

// GELU (tanh form) of 4096 float4s in [-4, 4)
__global__ void gelu_tanh_loop(float *x, float *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < 16384; k += nb)
		x[k] = hunif((unsigned)k + 1000u, -4.0f, 4.0f);
	__syncthreads();
	const float4 *x4 = (const float4 *)x;
	float4 *y4 = (float4 *)y;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i * nb + tid) & 4095;
		float4 a = x4[k], r;
		r.x = 0.5f * a.x * (1.0f + tanhf(0.7978845608f * (a.x + 0.044715f * a.x * a.x * a.x)));
		r.y = 0.5f * a.y * (1.0f + tanhf(0.7978845608f * (a.y + 0.044715f * a.y * a.y * a.y)));
		r.z = 0.5f * a.z * (1.0f + tanhf(0.7978845608f * (a.z + 0.044715f * a.z * a.z * a.z)));
		r.w = 0.5f * a.w * (1.0f + tanhf(0.7978845608f * (a.w + 0.044715f * a.w * a.w * a.w)));
		y4[k] = r;
	}
	STOP(t);
}

// cross-entropy: 64 rows of 256 logits in [-6, 6), each lane two float4;
// the label a hash of the row and the step
__global__ void xent_loop(float *x, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < 64 * 256; k += nb)
		x[k] = hunif((unsigned)k + 77777u, -6.0f, 6.0f);
	__syncthreads();
	float loss = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		int r = (i * nw + w) & 63;
		const float4 *row = (const float4 *)(x + r * 256);
		float4 a = row[lane], b = row[32 + lane];
		float m = fmaxf(fmaxf(fmaxf(a.x, a.y), fmaxf(a.z, a.w)), fmaxf(fmaxf(b.x, b.y), fmaxf(b.z, b.w)));
		for (int d = 16; d > 0; d >>= 1)
			m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, d));
		float s = expf(a.x - m) + expf(a.y - m) + expf(a.z - m) + expf(a.w - m) +
		          expf(b.x - m) + expf(b.y - m) + expf(b.z - m) + expf(b.w - m);
		for (int d = 16; d > 0; d >>= 1)
			s += __shfl_xor_sync(0xffffffffu, s, d);
		unsigned label = mix((unsigned)(r * 4096 + i)) & 255;
		loss += m + logf(s) - x[r * 256 + label];
	}
	STOP(t);
	o[tid] = loss;
}

// European call, S0 = K = 100, a year, r = 5%, sigma = 20%: each step two
// normals by Box-Muller, two terminal prices
__global__ void bm_option_loop(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	unsigned s = mix((unsigned)tid + 31u) | 1u;
	float pay = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		s ^= s << 13; s ^= s >> 17; s ^= s << 5;
		float u1 = ((float)(s >> 8) + 1.0f) * (1.0f / 16777216.0f);
		s ^= s << 13; s ^= s >> 17; s ^= s << 5;
		float u2 = (float)(s >> 8) * (1.0f / 16777216.0f);
		float rr = sqrtf(-2.0f * __logf(u1)), th = 6.283185307f * u2;
		float z0 = rr * __cosf(th), z1 = rr * __sinf(th);
		float s0 = 100.0f * __expf(0.03f + 0.2f * z0), s1 = 100.0f * __expf(0.03f + 0.2f * z1);
		pay += fmaxf(s0 - 100.0f, 0.0f) + fmaxf(s1 - 100.0f, 0.0f);
	}
	STOP(t);
	o[tid] = pay * 0.951229f;
}

// QK norm and rotary embedding: 256 heads of 64 floats (64 KiB), the
// token's position the head's index times 7 (mod 2048); the norm's weights
// a float2 a lane
__global__ void rope_norm_loop(const float *q, const float *gw, float *y, long long *t, int n) {
	int tid = threadIdx.x, lane = tid & 31, w = tid >> 5, nw = blockDim.x >> 5;
	float2 g = ((const float2 *)gw)[lane];
	float inv_freq = __expf(-(float)lane * (9.210340372f / 32.0f));
	START();
	for (int i = 0; i < n; i++) {
		int h = (i * nw + w) & 255;
		float2 v = ((const float2 *)(q + h * 64))[lane];
		float ss = v.x * v.x + v.y * v.y;
		for (int d = 16; d > 0; d >>= 1)
			ss += __shfl_xor_sync(0xffffffffu, ss, d);
		float rs = rsqrtf(ss * (1.0f / 64.0f) + 1e-6f);
		float x0 = v.x * rs * g.x, x1 = v.y * rs * g.y;
		float sn, cs;
		__sincosf((float)((h * 7) & 2047) * inv_freq, &sn, &cs);
		((float2 *)(y + h * 64))[lane] = make_float2(x0 * cs - x1 * sn, x0 * sn + x1 * cs);
	}
	STOP(t);
}

// keys: 8192 of them, half drawn from 16 frequent values, half from 300
// (which include the 16); the table 1024 (key, count) slots in shared memory
#define AG_SLOTS 1024
__global__ void agg_insert_loop(unsigned *keys, unsigned *o, long long *t, int n) {
	__shared__ unsigned tk[AG_SLOTS], tc[AG_SLOTS];
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31;
	for (int k = tid; k < 8192; k += nb) {
		unsigned v = mix((unsigned)k + 4242u);
		unsigned d = (v & 1) ? (v >> 1) & 15 : (v >> 1) % 300u;
		keys[k] = mix(d + 99u) | 1u;
	}
	for (int k = tid; k < AG_SLOTS; k += nb) {
		tk[k] = 0;
		tc[k] = 0;
	}
	START();
	for (int i = 0; i < n; i++) {
		unsigned key = keys[(i * nb + tid) & 8191];
		unsigned peers = __match_any_sync(0xffffffffu, key);
		if (lane == __ffs(peers) - 1) {
			unsigned s = (key * 2654435761u) >> 22;
			for (;;) {
				unsigned prev = atomicCAS(&tk[s], 0u, key);
				if (prev == 0u || prev == key)
					break;
				s = (s + 1u) & (AG_SLOTS - 1);
			}
			atomicAdd(&tc[s], (unsigned)__popc(peers));
		}
	}
	STOP(t);
	for (int k = tid; k < AG_SLOTS; k += nb)
		o[k] = tk[k] ^ tc[k];
}

// the warp-aggregated increment (CUDA's "warp-aggregated atomics"): called
// by the lanes of a branch, one atomicAdd for all of them
__device__ __forceinline__ int agg_inc(int *ctr) {
	unsigned active = __activemask();
	int lane = threadIdx.x & 31, leader = __ffs(active) - 1, base = 0;
	if (lane == leader)
		base = atomicAdd(ctr, __popc(active));
	base = __shfl_sync(active, base, leader);
	return base + __popc(active & ((1u << lane) - 1u));
}
// 8192 edges' targets among 4096 vertices, 5 in 8 of them visited; the
// frontier q room for every lane of 2n steps at 512 threads (no place
// written twice)
__global__ void frontier_agg_loop(int *adj, int *q, int *o, long long *t, int n) {
	__shared__ unsigned vis[128];
	__shared__ int qn;
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < 8192; k += nb)
		adj[k] = (int)(mix((unsigned)k * 3u + 5u) & 4095u);
	for (int k = tid; k < 128; k += nb) {
		unsigned b = 0;
		for (int j = 0; j < 32; j++)
			b |= ((mix((unsigned)(k * 32 + j) + 808u) & 7u) < 5u ? 1u : 0u) << j;
		vis[k] = b;
	}
	if (tid == 0)
		qn = 0;
	__syncthreads();
	int seen = 0;
	START();
	for (int i = 0; i < n; i++) {
		int v = adj[(i * nb + tid) & 8191];
		if (!((vis[v >> 5] >> (v & 31)) & 1u)) {
			int p = agg_inc(&qn);
			q[p & 131071] = v;
			seen++;
		}
	}
	STOP(t);
	o[tid] = seen;
}

// a producer warp (even) and its consumer (the odd one after it): item i
// in slot i & 3 of the pair's ring; head = items published, tail = items
// consumed
__global__ void spsc_ring_loop(float *o, long long *t, int n) {
	__shared__ float ring[8][4][32];
	__shared__ int head[8], tail[8];
	int tid = threadIdx.x, lane = tid & 31, w = tid >> 5, p = w >> 1;
	volatile int *vh = head, *vt = tail;
	if (tid < 8) {
		head[tid] = 0;
		tail[tid] = 0;
	}
	float acc = (float)lane;
	START();
	if ((w & 1) == 0) {
		for (int i = 0; i < n; i++) {
			float v = acc;
#pragma unroll
			for (int k = 0; k < 6; k++)
				v = fmaf(v, 0.9990f, 0.25f);
			acc = v;
			while (i - vt[p] >= 4)
				;
			ring[p][i & 3][lane] = v;
			__threadfence_block();
			__syncwarp();
			if (lane == 0)
				vh[p] = i + 1;
		}
	} else {
		for (int i = 0; i < n; i++) {
			while (vh[p] <= i)
				;
			__threadfence_block();
			float v = ((volatile float *)ring[p][i & 3])[lane];
			acc = fmaf(acc, 0.5f, v * v);
			__syncwarp();
			if (lane == 0)
				vt[p] = i + 1;
		}
	}
	STOP(t);
	o[tid] = acc;
}

// 16384 values in [0, 10); the block's count, mean and M2
__global__ void ticket_welford_loop(float *x, float *o, long long *t, int n) {
	__shared__ int ticket, serving;
	__shared__ float st[3];
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31;
	for (int k = tid; k < 16384; k += nb)
		x[k] = hunif((unsigned)k + 5150u, 0.0f, 10.0f);
	if (tid == 0) {
		ticket = 0;
		serving = 0;
		st[0] = 0.0f; st[1] = 0.0f; st[2] = 0.0f;
	}
	__syncthreads();
	START();
	for (int i = 0; i < n; i++) {
		float v = x[(i * nb + tid) & 16383];
		float s = v;
		for (int d = 16; d > 0; d >>= 1)
			s += __shfl_xor_sync(0xffffffffu, s, d);
		float mean = s * (1.0f / 32.0f), dv = v - mean, m2 = dv * dv;
		for (int d = 16; d > 0; d >>= 1)
			m2 += __shfl_xor_sync(0xffffffffu, m2, d);
		if (lane == 0) {
			int my = atomicAdd(&ticket, 1);
			while (((volatile int *)&serving)[0] != my)
				;
			volatile float *vs = st;
			float na = vs[0], nt = na + 32.0f, delta = mean - vs[1];
			vs[1] = vs[1] + delta * 32.0f / nt;
			vs[2] = vs[2] + m2 + delta * delta * na * 32.0f / nt;
			vs[0] = nt;
			__threadfence_block();
			((volatile int *)&serving)[0] = my + 1;
		}
		__syncwarp();
	}
	STOP(t);
	if (tid == 0) {
		o[0] = st[0]; o[1] = st[1]; o[2] = st[2];
	}
}

// flags: a 64-bit word per (step, warp), zeroed by the kernel for the n
// steps: (1 << 32) | the warp's inclusive prefix once published
__global__ void chained_scan_loop(unsigned long long *flags, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < n * nw; k += nb)
		flags[k] = 0ull;
	__syncthreads();
	START();
	for (int i = 0; i < n; i++) {
		unsigned v = mix((unsigned)(i * nb + tid)) & 255u, sc = v;
		for (int d = 1; d < 32; d <<= 1) {
			unsigned u = __shfl_up_sync(0xffffffffu, sc, d);
			if (lane >= d)
				sc += u;
		}
		unsigned agg = __shfl_sync(0xffffffffu, sc, 31), prefix = 0;
		if (lane == 0) {
			if (w > 0) {
				volatile unsigned long long *f = flags + i * nw + w - 1;
				unsigned long long fv;
				while (((fv = *f) >> 32) == 0ull)
					;
				prefix = (unsigned)fv;
			}
			((volatile unsigned long long *)flags)[i * nw + w] = (1ull << 32) | (unsigned long long)(prefix + agg);
		}
		prefix = __shfl_sync(0xffffffffu, prefix, 0);
		y[(i * nb + tid) & 16383] = prefix + sc - v;
	}
	STOP(t);
}

// ---- host ----
#include "loop_host.cuh"

// the host's inputs in buf (offsets in 4-byte words): the heads and the
// norm's weights
#define OFF_Q 0
#define OFF_GW (1 << 14)

static unsigned rng = 2463534242u;
static unsigned next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static float uni(float lo, float hi) { return lo + (hi - lo) * (float)(next() >> 8) * (1.0f / 16777216.0f); }

static void host_inputs(void) {
	const int words = 1 << 15;
	float *h = (float *)malloc((size_t)words * 4);
	for (int k = 0; k < words; k++) h[k] = 0.0f;
	for (int k = 0; k < 256 * 64; k++) h[OFF_Q + k] = uni(-2.0f, 2.0f);
	for (int k = 0; k < 64; k++) h[OFF_GW + k] = uni(0.8f, 1.2f);
	CK(cudaMemcpy(buf, h, (size_t)words * 4, cudaMemcpyHostToDevice));
	free(h);
}

int main(void) {
	loop_host_init();
	host_inputs();
	char l[64];
	float *fb = (float *)buf;
	float *f2 = (float *)buf2;
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("gelu_tanh_loop"), gelu_tanh_loop, blk, 64, 3, "", f2, f2 + (1 << 16), dt, nn);
		MEASURE(L("xent_loop"), xent_loop, blk, 64, 3, "", f2, f2 + (1 << 16), dt, nn);
		MEASURE(L("bm_option_loop"), bm_option_loop, blk, 128, 2, "", f2, dt, nn);
		MEASURE(L("rope_norm_loop"), rope_norm_loop, blk, 64, 4, "", fb + OFF_Q, fb + OFF_GW, f2, dt, nn);
		MEASURE(L("agg_insert_loop"), agg_insert_loop, blk, 64, 3, "", (unsigned *)buf2,
		        (unsigned *)buf2 + (1 << 16), dt, nn);
		MEASURE(L("frontier_agg_loop"), frontier_agg_loop, blk, 128, 4, "", (int *)buf2,
		        (int *)buf2 + (1 << 16), (int *)buf2 + (1 << 18), dt, nn);
		MEASURE(L("spsc_ring_loop"), spsc_ring_loop, blk, 64, 2, "", f2, dt, nn);
		MEASURE(L("ticket_welford_loop"), ticket_welford_loop, blk, 32, 3, "", f2, f2 + (1 << 16), dt, nn);
		MEASURE(L("chained_scan_loop"), chained_scan_loop, blk, 64, 3, "", (unsigned long long *)buf2,
		        (unsigned *)buf2 + (1 << 16), dt, nn);
	}
	return 0;
}
