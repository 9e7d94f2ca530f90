// simt_heldout23.cu: the twenty-third held-out set for `ptxray simt`'s
// timing model: realistic loops of kinds no earlier set has (a
// Needleman-Wunsch alignment as a block-wide systolic wavefront with a
// barrier a step, a constant-velocity Kalman filter in fp64 with a
// measurement gate, the byte-by-byte string compare of a string sort,
// connected components by union-find with shared atomicCAS hooking, the
// Black-Scholes closed form, a cascade of fixed-point biquad filters with
// 64-bit accumulators, block-matching motion estimation by __vsadu4 with a
// warp argmin, Moller-Trumbore ray-triangle tests against a shared tile).
// Written, and the model's predictions committed
// (tests/fixtures/simt/heldout23/predicted.jsonl), before the first
// measurement. Same method as the other held-out sets (loop_host.cuh): one
// block, clock64() around the loop between __syncthreads(), T(n) and T(2n),
// five launches; tests/check_simt.py simulates
// tests/fixtures/simt/heldout23/simt_heldout23.sm_90.ptx (this file through
// `nvcc -arch=sm_90 -O3 -lineinfo -ptx`); run with
// `sh bench/gpu/simt/heldout.sh simt_heldout23`.
//
// The data that steers control flow, addresses or selects (the reference
// and query residues of the alignment, the tracked targets' measurements,
// whose innovations the gate tests and whose covariances the IEEE
// division's slow path tests, the sorted strings, the graphs' edges, the
// options' prices, strikes and expiries, the video frames, the triangles
// and rays) is built by the kernel itself before the timed loop, from a
// hash, because the simulator knows only memory the kernel wrote; the data
// that only flows into arithmetic (the audio samples the biquads filter)
// is made by the host (random values in buf).
//  - nw_wavefront_loop: Needleman-Wunsch global alignment (linear gap 2, a
//    4x4 substitution matrix in shared memory) of a query of blockDim
//    residues, a row a thread, against a 4096-residue reference in shared
//    memory, as a systolic wavefront: at step s thread t fills cell
//    (t + 1, s - t + 1) from its own last cell, its upper neighbour's cell
//    of the step before (a double-buffered shared row) and the one before
//    that (kept in a register), integer maxes, a shared store and a
//    __syncthreads a step, eight steps an iteration; the last row's cells
//    stored;
//  - kalman_cv64_loop: a constant-velocity Kalman filter in double
//    precision, a 2-D track a thread (state of 4, covariance of 10
//    entries), a position measurement (a double2 load) an iteration: the
//    prediction (F P F^T + Q), the innovation's 2x2 covariance inverted by
//    an IEEE division, the Mahalanobis distance gated (a data-dependent
//    branch: outliers and the manoeuvres of the circling targets are
//    rejected), the gain, state and covariance update (DFMAs); the
//    estimate stored;
//  - strcmp_loop: the comparison step of a string sort, a pair of 32-byte
//    NUL-terminated keys (of 4096 in global memory, neighbours in a trie
//    order, so the common prefixes run 0 to 12 bytes and more) a thread an
//    iteration: a strncmp-like byte loop, two byte loads a step until the
//    bytes differ or end (a data-dependent trip count a lane, the warp
//    running its longest); the sign stored, the prefix lengths summed;
//  - union_find_loop: connected components of a random graph of 1024
//    vertices and 1024 edges an iteration (one of 64 in global memory), the
//    parent array in shared memory: initialised, a barrier, each thread's
//    edges hooked by ECL-CC's union (path-halving finds, pointer chases of
//    data-dependent length, and a shared atomicCAS retried on a race), a
//    barrier, each vertex's root found and stored, the roots counted by
//    __ballot_sync and __popc, a barrier;
//  - black_scholes_loop: the CUDA sample's Black-Scholes call and put, two
//    options (three float2 loads) a thread an iteration: an IEEE division,
//    __logf, rsqrtf, __fdividef, two cumulative normals (a polynomial,
//    __expf and a select on the sign) and __expf; two float2 stored;
//  - biquad_q30_loop: an 8th-order IIR low-pass as four direct-form-I
//    biquad sections in Q2.30 fixed point, an audio channel a thread, eight
//    16-bit samples (a uint4) an iteration: a section's five 32x32-bit
//    products accumulated in 64 bits (IMAD.WIDE, 64-bit adds), rounded,
//    shifted and clamped in 64 bits, the section's state shifted, the
//    outputs saturated to 16 bits and stored as a uint4;
//  - sad_motion_loop: block-matching motion estimation, an 8x8 block of
//    the current frame (four uint4 loads, the same for the warp) a warp an
//    iteration against 32 candidate offsets (8 by 4) in a 64x64 reference
//    frame in shared memory, a candidate a lane: eight rows of three shared
//    word loads, two funnel shifts to the candidate's byte alignment and two
//    __vsadu4; the best candidate by a five-step __shfl_xor_sync min of
//    (SAD, lane) keys, stored by lane 0;
//  - ray_tri_loop: Moller-Trumbore ray-triangle intersection, a ray (two
//    float4 loads) a thread an iteration against a tile of 32 of 256
//    triangles (vertex and two edges, SoA in shared memory, broadcast
//    loads): cross products, a determinant test, an IEEE division, the
//    barycentric tests with early continues (divergent, following the
//    data), the nearest hit kept; its distance and triangle stored.
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

// a hashed 4096-residue reference (2-bit residues a byte) and 4x4
// substitution matrix (match 3, transition -1, transversion -2) in shared
// memory; thread t's query residue hashed from t; the last row's cells at
// o[column & 4095], each thread's last cell at o[4096 + t]
#define NW_R 4096
#define NW_G 2
__global__ void nw_wavefront_loop(int *o, long long *t, int n) {
	__shared__ int hb[2][512];
	__shared__ unsigned char ref[NW_R];
	__shared__ int sub[16];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < NW_R; k += nb)
		ref[k] = (unsigned char)(mix((unsigned)k + 1313u) & 3u);
	if (tid < 16)
		sub[tid] = (tid >> 2) == (tid & 3) ? 3 : ((tid >> 2) ^ (tid & 3)) == 2 ? -1 : -2;
	const int q = (int)(mix((unsigned)tid + 4747u) & 3u);
	int h = -NW_G * (tid + 1);    // H(t + 1, 0)
	int diag = -NW_G * tid;       // H(t, 0)
	hb[1][tid] = h;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++) {
			int s = 8 * i + k, j = s - tid;
			int up = tid ? hb[(k & 1) ^ 1][tid - 1] : -NW_G * (j + 1);
			if (j >= 0) {
				int v = max(max(diag + sub[q * 4 + ref[j & (NW_R - 1)]], up - NW_G), h - NW_G);
				diag = up;
				h = v;
				if (tid == nb - 1)
					o[j & (NW_R - 1)] = v;
			}
			hb[k & 1][tid] = h;
			__syncthreads();
		}
	}
	STOP(t);
	o[NW_R + tid] = h;
}

// 512 targets circling (radius 5 to 20, a turn in 64 steps) measured with
// noise (sigma about 0.5) and, one in 16, clutter 8 away: target m's
// measurement at step s at z[s * 512 + m], s < 64; thread t tracks target
// t, at step i & 63; the estimated position at the same place in est
#define KF_M 512
#define KF_S 64
__global__ void kalman_cv64_loop(double2 *z, double2 *est, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < KF_M * KF_S; k += nb) {
		unsigned m = (unsigned)k & (KF_M - 1), s = (unsigned)k / KF_M, b = 8u * (unsigned)k + 90210u;
		float r = hunif(m + 555u, 5.0f, 20.0f), ph = hunif(m + 556u, 0.0f, 6.2831853f);
		float sn, cs;
		sincosf(ph + (float)s * (6.2831853f / KF_S), &sn, &cs);
		float ex = (hunif(b, -1.0f, 1.0f) + hunif(b + 1u, -1.0f, 1.0f) + hunif(b + 2u, -1.0f, 1.0f)) * 0.5f;
		float ey = (hunif(b + 3u, -1.0f, 1.0f) + hunif(b + 4u, -1.0f, 1.0f) + hunif(b + 5u, -1.0f, 1.0f)) * 0.5f;
		if ((mix(b + 6u) & 15u) == 0u) {
			ex += (b & 8u) ? 8.0f : -8.0f;
			ey += (b & 16u) ? 8.0f : -8.0f;
		}
		z[k] = make_double2((double)(r * cs + ex), (double)(r * sn + ey));
	}
	const double q0 = 0.01, q1 = 0.05, rr = 0.25, gate = 9.21;
	double px = 0.0, py = 0.0, vx = 0.0, vy = 0.0;
	double p00 = 100.0, p01 = 0.0, p02 = 0.0, p03 = 0.0, p11 = 100.0, p12 = 0.0, p13 = 0.0, p22 = 10.0, p23 = 0.0,
	       p33 = 10.0;
	int miss = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i & (KF_S - 1)) * KF_M + tid;
		double2 m = z[k];
		// predict: x = F x, P = F P F^T + Q (dt = 1)
		px += vx;
		py += vy;
		double n00 = p00 + 2.0 * p02 + p22 + q0, n01 = p01 + p03 + p12 + p23, n02 = p02 + p22, n03 = p03 + p23;
		double n11 = p11 + 2.0 * p13 + p33 + q0, n12 = p12 + p23, n13 = p13 + p33;
		p00 = n00; p01 = n01; p02 = n02; p03 = n03; p11 = n11; p12 = n12; p13 = n13;
		p22 += q1;
		p33 += q1;
		// innovation and its covariance S = H P H^T + R
		double yx = m.x - px, yy = m.y - py;
		double s00 = p00 + rr, s01 = p01, s11 = p11 + rr;
		double id = 1.0 / (s00 * s11 - s01 * s01);
		double i00 = s11 * id, i01 = -s01 * id, i11 = s00 * id;
		double d2 = yx * (i00 * yx + i01 * yy) + yy * (i01 * yx + i11 * yy);
		if (d2 < gate) {
			// K = P H^T S^-1 (4x2)
			double k00 = p00 * i00 + p01 * i01, k01 = p00 * i01 + p01 * i11;
			double k10 = p01 * i00 + p11 * i01, k11 = p01 * i01 + p11 * i11;
			double k20 = p02 * i00 + p12 * i01, k21 = p02 * i01 + p12 * i11;
			double k30 = p03 * i00 + p13 * i01, k31 = p03 * i01 + p13 * i11;
			px += k00 * yx + k01 * yy;
			py += k10 * yx + k11 * yy;
			vx += k20 * yx + k21 * yy;
			vy += k30 * yx + k31 * yy;
			// P -= K (H P): H P's rows are P's rows 0 and 1
			double a0 = p00, a1 = p01, a2 = p02, a3 = p03, b1 = p11, b2 = p12, b3 = p13;
			p00 -= k00 * a0 + k01 * a1;
			p01 -= k00 * a1 + k01 * b1;
			p02 -= k00 * a2 + k01 * b2;
			p03 -= k00 * a3 + k01 * b3;
			p11 -= k10 * a1 + k11 * b1;
			p12 -= k10 * a2 + k11 * b2;
			p13 -= k10 * a3 + k11 * b3;
			p22 -= k20 * a2 + k21 * b2;
			p23 -= k20 * a3 + k21 * b3;
			p33 -= k30 * a3 + k31 * b3;
		} else {
			miss++;
		}
		est[k] = make_double2(px, py);
	}
	STOP(t);
	est[KF_M * KF_S + tid] = make_double2(vx + (double)miss, vy + p00 + p11 + p22 + p33);
}

// 4096 hashed keys of 32 bytes (12 to 27 letters of a 4-letter alphabet,
// then NULs): key j's byte k < 12 hashed from j >> (12 - k), so that keys
// j and j ^ 2^b share their first 11 - b bytes at least; key j = (i *
// blockDim + t) & 4095 compared with key j ^ 2^b, b hashed from j in
// [0, 12); the sign at o[j], the thread's summed prefix lengths at
// o[4096 + t]
#define SC_K 4096
__global__ void strcmp_loop(unsigned *keys, int *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int w = tid; w < SC_K * 8; w += nb) {
		unsigned j = (unsigned)w >> 3, len = 12u + (mix(j + 555u) & 15u), word = 0u;
		for (unsigned b = 0; b < 4u; b++) {
			unsigned k = ((unsigned)w & 7u) * 4u + b, sh = k < 12u ? 12u - k : 0u;
			unsigned c = k < len ? 'a' + (mix(((j >> sh) << 5 | k) + 777u) & 3u) : 0u;
			word |= c << (8u * b);
		}
		keys[w] = word;
	}
	const unsigned char *kb = reinterpret_cast<const unsigned char *>(keys);
	int lcp = 0;
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (SC_K - 1);
		int pj = j ^ (1 << (mix((unsigned)j + 99u) % 12u));
		const unsigned char *a = kb + 32 * j, *b = kb + 32 * pj;
		int k = 0;
		unsigned ca, cb;
		do {
			ca = a[k];
			cb = b[k];
			k++;
		} while (ca == cb && ca != 0u && k < 32);
		lcp += k;
		o[j] = (int)ca - (int)cb;
	}
	STOP(t);
	o[SC_K + tid] = lcp;
}

// 64 hashed graphs of 1024 vertices and 1024 edges (u | v << 16), graph
// i & 63 an iteration; the roots at label[g * 1024 + v]; lane 0 of each
// warp's count of roots at ncomp[t]
#define UF_V 1024
#define UF_E 1024
#define UF_G 64
// ECL-CC's find with path halving (parents never above their children)
__device__ __forceinline__ int uf_rep(int *p, int x) {
	int cur = p[x];
	if (cur != x) {
		int next, prev = x;
		while (cur > (next = p[cur])) {
			p[prev] = next;
			prev = cur;
			cur = next;
		}
	}
	return cur;
}
__global__ void union_find_loop(unsigned *edges, int *label, int *ncomp, long long *t, int n) {
	__shared__ int p[UF_V];
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31;
	for (int k = tid; k < UF_G * UF_E; k += nb) {
		unsigned h = mix((unsigned)k + 123457u);
		edges[k] = (h & (UF_V - 1)) | (mix(h ^ 0x5bd1e995u) & (UF_V - 1)) << 16;
	}
	int comps = 0;
	START();
	for (int i = 0; i < n; i++) {
		int g = i & (UF_G - 1);
		for (int v = tid; v < UF_V; v += nb)
			p[v] = v;
		__syncthreads();
		for (int e = tid; e < UF_E; e += nb) {
			unsigned uv = edges[g * UF_E + e];
			int a = uf_rep(p, (int)(uv & 0xffffu)), b = uf_rep(p, (int)(uv >> 16));
			bool repeat;
			do {
				repeat = false;
				if (a != b) {
					int ret;
					if (a < b) {
						if ((ret = atomicCAS(&p[b], b, a)) != b) {
							b = ret;
							repeat = true;
						}
					} else {
						if ((ret = atomicCAS(&p[a], a, b)) != a) {
							a = ret;
							repeat = true;
						}
					}
				}
			} while (repeat);
		}
		__syncthreads();
		for (int v = tid; v < UF_V; v += nb) {
			int r = p[v], nx;
			while (r > (nx = p[r]))
				r = nx;
			p[v] = r;
			label[g * UF_V + v] = r;
			unsigned roots = __ballot_sync(0xffffffffu, r == v);
			if (lane == 0)
				comps += __popc(roots);
		}
		__syncthreads();
	}
	STOP(t);
	ncomp[tid] = comps;
}

// 16384 hashed options (price 5 to 30, strike 1 to 100, expiry 0.25 to 10
// years), two a float2 in S, X and T; rate 0.02, volatility 0.30; pair
// (i * blockDim + t) & 8191; the calls and puts at the same places
#define BS_P 8192
__device__ __forceinline__ float cnd(float d) {
	const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
	const float RSQRT2PI = 0.39894228040143267793994605993438f;
	float K = __fdividef(1.0f, 1.0f + 0.2316419f * fabsf(d));
	float c = RSQRT2PI * __expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
	if (d > 0)
		c = 1.0f - c;
	return c;
}
__device__ __forceinline__ void bs_body(float &call, float &put, float S, float X, float T, float R, float V) {
	float sqrtT = __fdividef(1.0f, rsqrtf(T));
	float d1 = __fdividef(__logf(S / X) + (R + 0.5f * V * V) * T, V * sqrtT);
	float d2 = d1 - V * sqrtT;
	float c1 = cnd(d1), c2 = cnd(d2);
	float expRT = __expf(-R * T);
	call = S * c1 - X * expRT * c2;
	put = X * expRT * (1.0f - c2) - S * (1.0f - c1);
}
__global__ void black_scholes_loop(float2 *S, float2 *X, float2 *T, float2 *call, float2 *put, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < BS_P; k += nb) {
		unsigned b = 6u * (unsigned)k + 31415u;
		S[k] = make_float2(hunif(b, 5.0f, 30.0f), hunif(b + 1u, 5.0f, 30.0f));
		X[k] = make_float2(hunif(b + 2u, 1.0f, 100.0f), hunif(b + 3u, 1.0f, 100.0f));
		T[k] = make_float2(hunif(b + 4u, 0.25f, 10.0f), hunif(b + 5u, 0.25f, 10.0f));
	}
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (BS_P - 1);
		float2 s = S[j], x = X[j], e = T[j], c, p;
		bs_body(c.x, p.x, s.x, x.x, e.x, 0.02f, 0.30f);
		bs_body(c.y, p.y, s.y, x.y, e.y, 0.02f, 0.30f);
		call[j] = c;
		put[j] = p;
	}
	STOP(t);
}

// host 16-bit samples: channel c's eight samples of block s at
// in[s * 512 + c], s < 128; thread t filters channel t, block i & 127;
// the output at the same place in out, the state summed at out[65536 + t]
#define BQ_S 128
#define BQ_C 512
#define Q30(x) ((int)((x) * 1073741824.0))
__device__ __forceinline__ int biquad(int x, int &x1, int &x2, int &y1, int &y2, int b0, int b1, int b2, int a1,
                                      int a2) {
	long long acc = (long long)b0 * x + (long long)b1 * x1 + (long long)b2 * x2 - (long long)a1 * y1 -
	                (long long)a2 * y2 + (1ll << 29);
	acc >>= 30;
	acc = max(min(acc, 2147483647ll), -2147483648ll);
	x2 = x1;
	x1 = x;
	y2 = y1;
	y1 = (int)acc;
	return y1;
}
__global__ void biquad_q30_loop(const uint4 *in, uint4 *out, long long *t, int n) {
	int tid = threadIdx.x;
	int x1[4] = {0, 0, 0, 0}, x2[4] = {0, 0, 0, 0}, y1[4] = {0, 0, 0, 0}, y2[4] = {0, 0, 0, 0};
	// b0, b1, b2, a1, a2 of four sections (a 4-pole-pair low-pass near 0.1 fs)
	const int cf[4][5] = {{Q30(0.0675), Q30(0.1350), Q30(0.0675), Q30(-1.1430), Q30(0.4128)},
	                      {Q30(0.0721), Q30(0.1442), Q30(0.0721), Q30(-1.2212), Q30(0.5097)},
	                      {Q30(0.0810), Q30(0.1620), Q30(0.0810), Q30(-1.3718), Q30(0.6958)},
	                      {Q30(0.0903), Q30(0.1806), Q30(0.0903), Q30(-1.5310), Q30(0.8923)}};
	START();
	for (int i = 0; i < n; i++) {
		int k = (i & (BQ_S - 1)) * BQ_C + tid;
		uint4 w = in[k];
		unsigned ws[4] = {w.x, w.y, w.z, w.w}, os[4];
#pragma unroll
		for (int q = 0; q < 4; q++) {
			unsigned r = 0u;
#pragma unroll
			for (int h = 0; h < 2; h++) {
				int x = (int)(short)(ws[q] >> (16 * h)) << 8;
#pragma unroll
				for (int sct = 0; sct < 4; sct++)
					x = biquad(x, x1[sct], x2[sct], y1[sct], y2[sct], cf[sct][0], cf[sct][1], cf[sct][2], cf[sct][3],
					           cf[sct][4]);
				int y = max(min(x >> 8, 32767), -32768);
				r |= ((unsigned)y & 0xffffu) << (16 * h);
			}
			os[q] = r;
		}
		out[k] = make_uint4(os[0], os[1], os[2], os[3]);
	}
	STOP(t);
	int sum = 0;
#pragma unroll
	for (int sct = 0; sct < 4; sct++)
		sum += x1[sct] + x2[sct] + y1[sct] + y2[sct];
	reinterpret_cast<int *>(out)[4 * BQ_S * BQ_C + tid] = sum;
}

// a hashed 64x64 8-bit reference frame (a smooth ramp and noise) in shared
// memory, rows of 16 words; the current frame's 64 8x8 blocks (the
// reference moved by a hashed vector of -4 to 3, -2 to 1, plus noise),
// block-major, 16 words (4 uint4) a block in cur; warp w's block (i *
// warps + w) & 63 against candidates dx = (lane & 7) - 4, dy = (lane >> 3)
// - 2 (the frame wrapped); the best (SAD << 5 | lane) at mv[(i * warps +
// w) & 4095]
#define SM_W 64
__device__ __forceinline__ unsigned sm_pix(int x, int y) {
	x &= SM_W - 1;
	y &= SM_W - 1;
	return (unsigned)(x * 3 + y * 2 + ((x * y) >> 5) + (mix((unsigned)(x + SM_W * y) + 4321u) & 15u)) & 255u;
}
__global__ void sad_motion_loop(uint4 *cur, unsigned *mv, long long *t, int n) {
	__shared__ unsigned ref[SM_W * SM_W / 4];
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	for (int k = tid; k < SM_W * SM_W / 4; k += nb) {
		int y = k >> 4, x = (k & 15) * 4;
		ref[k] = sm_pix(x, y) | sm_pix(x + 1, y) << 8 | sm_pix(x + 2, y) << 16 | sm_pix(x + 3, y) << 24;
	}
	unsigned *cw = reinterpret_cast<unsigned *>(cur);
	for (int k = tid; k < SM_W * SM_W / 4; k += nb) {
		int b = k >> 4, r = (k >> 1) & 7, c = (k & 1) * 4;
		unsigned hb = mix((unsigned)b + 8642u);
		int x = (b & 7) * 8 + c + (int)(hb & 7u) - 4, y = (b >> 3) * 8 + r + (int)((hb >> 3) & 3u) - 2;
		unsigned word = 0u;
		for (int e = 0; e < 4; e++) {
			unsigned pv = sm_pix(x + e, y) + (mix((unsigned)(4 * k + e) + 97531u) & 7u);
			word |= min(pv, 255u) << (8 * e);
		}
		cw[k] = word;
	}
	const int dx = (lane & 7) - 4, dy = (lane >> 3) - 2;
	START();
	for (int i = 0; i < n; i++) {
		int b = (i * nw + w) & 63;
		uint4 c0 = cur[4 * b], c1 = cur[4 * b + 1], c2 = cur[4 * b + 2], c3 = cur[4 * b + 3];
		unsigned cr[16] = {c0.x, c0.y, c0.z, c0.w, c1.x, c1.y, c1.z, c1.w,
		                   c2.x, c2.y, c2.z, c2.w, c3.x, c3.y, c3.z, c3.w};
		int x0 = ((b & 7) * 8 + dx) & (SM_W - 1), y0 = (b >> 3) * 8 + dy;
		int wx = x0 >> 2;
		unsigned sh = 8u * (unsigned)(x0 & 3);
		unsigned sad = 0u;
#pragma unroll
		for (int r = 0; r < 8; r++) {
			const unsigned *row = ref + ((y0 + r) & (SM_W - 1)) * 16;
			unsigned w0 = row[wx], w1 = row[(wx + 1) & 15], w2 = row[(wx + 2) & 15];
			sad = __vsadu4(__funnelshift_r(w0, w1, sh), cr[2 * r]) + sad;
			sad = __vsadu4(__funnelshift_r(w1, w2, sh), cr[2 * r + 1]) + sad;
		}
		unsigned key = sad << 5 | (unsigned)lane;
#pragma unroll
		for (int o = 16; o > 0; o >>= 1)
			key = min(key, __shfl_xor_sync(0xffffffffu, key, o));
		if (lane == 0)
			mv[(i * nw + w) & 4095] = key;
	}
	STOP(t);
}

// 256 hashed triangles (a vertex in [-1, 1)^3, two edges of up to 0.3 a
// component), SoA in shared memory; 8192 hashed rays from the plane
// z = -3 towards points of [-1, 1)^3 (origin, unit direction: two float4 in
// ray); ray (i * blockDim + t) & 8191 against triangles 32 (i & 7) to
// 32 (i & 7) + 31; the nearest hit's distance and triangle (-1: none) at
// hit[ray]
#define RT_T 256
#define RT_R 8192
#define RT_TILE 32
__global__ void ray_tri_loop(float4 *ray, float2 *hit, long long *t, int n) {
	__shared__ float tv[9][RT_T];
	int tid = threadIdx.x, nb = blockDim.x;
	for (int k = tid; k < RT_T; k += nb) {
		unsigned b = 9u * (unsigned)k + 2718u;
		for (int c = 0; c < 3; c++)
			tv[c][k] = hunif(b + (unsigned)c, -1.0f, 1.0f);
		for (int c = 3; c < 9; c++)
			tv[c][k] = hunif(b + (unsigned)c, -0.3f, 0.3f);
	}
	for (int k = tid; k < RT_R; k += nb) {
		unsigned b = 5u * (unsigned)k + 16180u;
		float ox = hunif(b, -1.0f, 1.0f), oy = hunif(b + 1u, -1.0f, 1.0f), oz = -3.0f;
		float dx = hunif(b + 2u, -1.0f, 1.0f) - ox, dy = hunif(b + 3u, -1.0f, 1.0f) - oy,
		      dz = hunif(b + 4u, -1.0f, 1.0f) - oz;
		float rn = rsqrtf(dx * dx + dy * dy + dz * dz);
		ray[2 * k] = make_float4(ox, oy, oz, 0.0f);
		ray[2 * k + 1] = make_float4(dx * rn, dy * rn, dz * rn, 0.0f);
	}
	START();
	for (int i = 0; i < n; i++) {
		int j = (i * nb + tid) & (RT_R - 1), t0k = (i & (RT_T / RT_TILE - 1)) * RT_TILE;
		float4 o = ray[2 * j], d = ray[2 * j + 1];
		float tmin = 1e30f;
		int best = -1;
		for (int k = t0k; k < t0k + RT_TILE; k++) {
			float e1x = tv[3][k], e1y = tv[4][k], e1z = tv[5][k], e2x = tv[6][k], e2y = tv[7][k], e2z = tv[8][k];
			float px = d.y * e2z - d.z * e2y, py = d.z * e2x - d.x * e2z, pz = d.x * e2y - d.y * e2x;
			float det = e1x * px + e1y * py + e1z * pz;
			if (fabsf(det) < 1e-8f)
				continue;
			float inv = 1.0f / det;
			float sx = o.x - tv[0][k], sy = o.y - tv[1][k], sz = o.z - tv[2][k];
			float u = (sx * px + sy * py + sz * pz) * inv;
			if (u < 0.0f || u > 1.0f)
				continue;
			float qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
			float v = (d.x * qx + d.y * qy + d.z * qz) * inv;
			if (v < 0.0f || u + v > 1.0f)
				continue;
			float tt = (e2x * qx + e2y * qy + e2z * qz) * inv;
			if (tt > 1e-4f && tt < tmin) {
				tmin = tt;
				best = k;
			}
		}
		hit[j] = make_float2(tmin, __int_as_float(best));
	}
	STOP(t);
}

// ---- host ----
#include "loop_host.cuh"

// the host's inputs in buf (offsets in 4-byte words): the biquads' audio
#define OFF_BQ 0

static unsigned rng = 2654435761u;
static unsigned next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }

static void host_inputs(void) {
	const int words = 4 * BQ_S * BQ_C;
	unsigned *h = (unsigned *)malloc((size_t)words * 4);
	// two 16-bit samples a word: a low-passed random walk and white noise
	int acc = 0;
	for (int k = 0; k < words; k++) {
		unsigned r = next();
		acc = (acc * 15) / 16 + (int)(r & 4095) - 2048;
		int s0 = acc + (int)((r >> 12) & 1023) - 512, s1 = acc / 2 + (int)((r >> 22) & 1023) - 512;
		h[k] = (unsigned)(s0 & 0xffff) | (unsigned)(s1 & 0xffff) << 16;
	}
	CK(cudaMemcpy((unsigned *)buf + OFF_BQ, h, (size_t)words * 4, cudaMemcpyHostToDevice));
	free(h);
}

int main(void) {
	loop_host_init();
	host_inputs();
	char l[64];
	float *f2 = (float *)buf2;
	unsigned *u2 = (unsigned *)buf2;
	unsigned *ub = (unsigned *)buf;
	int *i2 = (int *)buf2;
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("nw_wavefront_loop"), nw_wavefront_loop, blk, 64, 2, "", i2, dt, nn);
		MEASURE(L("kalman_cv64_loop"), kalman_cv64_loop, blk, 64, 3, "", (double2 *)buf2,
		        (double2 *)(u2 + (1 << 18)), dt, nn);
		MEASURE(L("strcmp_loop"), strcmp_loop, blk, 64, 3, "", u2, i2 + (1 << 16), dt, nn);
		MEASURE(L("union_find_loop"), union_find_loop, blk, 16, 4, "", u2, i2 + (1 << 16), i2 + (1 << 17), dt, nn);
		MEASURE(L("black_scholes_loop"), black_scholes_loop, blk, 64, 6, "", (float2 *)buf2,
		        (float2 *)(f2 + (1 << 14)), (float2 *)(f2 + (2 << 14)), (float2 *)(f2 + (1 << 16)),
		        (float2 *)(f2 + (1 << 16) + (1 << 14)), dt, nn);
		MEASURE(L("biquad_q30_loop"), biquad_q30_loop, blk, 32, 3, "", (const uint4 *)(ub + OFF_BQ), (uint4 *)buf2,
		        dt, nn);
		MEASURE(L("sad_motion_loop"), sad_motion_loop, blk, 64, 3, "", (uint4 *)buf2, u2 + (1 << 16), dt, nn);
		MEASURE(L("ray_tri_loop"), ray_tri_loop, blk, 16, 3, "", (float4 *)buf2, (float2 *)(f2 + (1 << 17)), dt, nn);
	}
	return 0;
}
