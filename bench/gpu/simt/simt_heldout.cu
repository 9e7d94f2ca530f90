// simt_heldout.cu: a second held-out set for `ptxray simt`'s timing model,
// written and committed before its first measurement, after the model was
// changed using transpose_loop (simt_bench.cu's first held-out set), which
// is training data from then on. Same method as simt_bench.cu: one block,
// clock64() around the loop between __syncthreads(), the host prints
// (T(2n) - T(n)) / n per loop, best of 5; tests/check_simt.py simulates the
// same kernels from tests/fixtures/simt/simt_heldout.sm_90.ptx (this file
// through `nvcc -ptx -arch=sm_90 -O3 -lineinfo`) and reports them apart.
//
// The kernels are realistic loops that none of the model's fits looked at:
// a 1-D convolution through a shared tile with halo, a row softmax (two
// block reductions, exp), a bitonic sort of a shared tile, an n-body tile
// (rsqrt and FMAs), and a hash-table gather from global memory. Addresses
// and branches depend only on indices, never on the data (which the
// simulator does not know).
//
// l1_gather_tput is not held out: a microbenchmark for the cost of an L1
// hit that touches many lines (32 lanes, 32 lines). Neither are the
// kernels after it (added after the first measurement, when bitonic_loop
// at 128 threads came out 39% slower than predicted): the costs of a
// lane-divergent branch around shared-memory code (div_branch_step; the
// same code under a warp-uniform condition, uni_branch_step) and of a
// barrier right after a shared store (sts_bar). And, added after the third
// held-out set's per-warp digit counts came out 51% slower than predicted:
// shared atomics before a barrier (atoms_bar), their latency through a
// dependent chain (atoms_lat) and their throughput (atoms_tput). And the
// cost of a taken branch, which the arch table only estimated
// (branch_taken: 8 forward branches an iteration, each jumping over a block
// of FMAs the lanes skip; branch_not_taken: the same branches falling
// through into blocks of one FMA).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// 9-tap convolution: each iteration stages blockDim + 8 inputs (a halo of
// 4 on each side) in shared memory, then each thread writes one output
__global__ void conv1d_loop(const float *a, float *o, long long *t, int n) {
	__shared__ float s[512 + 8];
	int tid = threadIdx.x, nb = blockDim.x;
	START();
	for (int i = 0; i < n; i++) {
		const float *g = a + (i & 15) * 1024 + 4;
		s[tid + 4] = g[tid];
		if (tid < 8) {
			int k = tid < 4 ? tid : nb + tid;
			s[k] = g[k - 4];
		}
		__syncthreads();
		float v = 0;
#pragma unroll
		for (int k = 0; k < 9; k++) v += (0.05f + 0.01f * k) * s[tid + k];
		o[(i & 15) * 1024 + tid] = v;
		__syncthreads();
	}
	STOP(t);
}

// softmax of a row of 4 x blockDim floats: block max and block sum through
// warp shuffles and one shared partial per warp
__global__ void softmax_loop(const float *a, float *o, long long *t, int n) {
	__shared__ float red[32];
	int tid = threadIdx.x, lane = tid & 31, wid = tid >> 5, nw = blockDim.x >> 5;
	START();
	for (int i = 0; i < n; i++) {
		const float *row = a + (i & 7) * 2048;
		float x[4], m = -1e30f;
#pragma unroll
		for (int k = 0; k < 4; k++) {
			x[k] = row[k * blockDim.x + tid];
			m = fmaxf(m, x[k]);
		}
		for (int d = 16; d > 0; d >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, d));
		if (lane == 0) red[wid] = m;
		__syncthreads();
		m = red[0];
		for (int w = 1; w < nw; w++) m = fmaxf(m, red[w]);
		__syncthreads();
		float s = 0;
#pragma unroll
		for (int k = 0; k < 4; k++) {
			x[k] = __expf(x[k] - m);
			s += x[k];
		}
		for (int d = 16; d > 0; d >>= 1) s += __shfl_xor_sync(0xffffffffu, s, d);
		if (lane == 0) red[wid] = s;
		__syncthreads();
		s = 0;
		for (int w = 0; w < nw; w++) s += red[w];
		float r = __fdividef(1.0f, s);
#pragma unroll
		for (int k = 0; k < 4; k++) o[(i & 7) * 2048 + k * blockDim.x + tid] = x[k] * r;
		__syncthreads();
	}
	STOP(t);
}

// bitonic sort of blockDim floats in shared memory (blockDim a power of
// two): a barrier after every compare-exchange step
__global__ void bitonic_loop(const float *a, float *o, long long *t, int n) {
	__shared__ float s[512];
	int tid = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) {
		s[tid] = a[(i & 15) * 512 + tid];
		__syncthreads();
		for (int k = 2; k <= (int)blockDim.x; k <<= 1)
			for (int j = k >> 1; j > 0; j >>= 1) {
				int p = tid ^ j;
				if (p > tid) {
					float x = s[tid], y = s[p];
					bool up = (tid & k) == 0;
					s[tid] = up ? fminf(x, y) : fmaxf(x, y);
					s[p] = up ? fmaxf(x, y) : fminf(x, y);
				}
				__syncthreads();
			}
		o[(i & 15) * 512 + tid] = s[tid];
		__syncthreads();
	}
	STOP(t);
}

// n-body: each iteration stages 64 bodies (x, y, z, mass) in shared memory
// and every thread accumulates its body's acceleration from all of them
__global__ void nbody_loop(const float4 *p, float *o, long long *t, int n) {
	__shared__ float4 sp[64];
	float4 me = p[4096 + threadIdx.x];
	float ax = 0, ay = 0, az = 0;
	START();
	for (int i = 0; i < n; i++) {
		if (threadIdx.x < 64) sp[threadIdx.x] = p[(i & 15) * 64 + threadIdx.x];
		__syncthreads();
#pragma unroll 4
		for (int j = 0; j < 64; j++) {
			float4 q = sp[j];
			float dx = q.x - me.x, dy = q.y - me.y, dz = q.z - me.z;
			float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-3f);
			float f = q.w * inv * inv * inv;
			ax += dx * f; ay += dy * f; az += dz * f;
		}
		__syncthreads();
	}
	STOP(t);
	o[threadIdx.x] = ax + ay + az;
}

// hash-table probe: each thread walks a linear congruential sequence and
// reads a 16 KiB table at the top bits (a gather of up to 32 lines per warp)
__global__ void lut_loop(const unsigned *tab, unsigned *o, long long *t, int n) {
	unsigned h = threadIdx.x * 2654435761u + 12345u, acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		h = h * 1664525u + 1013904223u;
		acc += tab[h >> 20];
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

// not held out: 16 independent loads per iteration, each warp's 32 lanes
// on 32 different lines of an 8 KiB L1-resident region (128-byte stride)
__global__ void l1_gather_tput(const float *a, float *o, long long *t, int n) {
	const float *p = a + (threadIdx.x & 31) * 32 + (threadIdx.x >> 5);
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		int b = (i & 3) * 1024;
#pragma unroll
		for (int k = 0; k < 16; k++) acc += p[b + (k & 1) * 2048 + (k >> 1)];
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

// not held out: a step of bitonic_loop's shape with the branch divergent in
// every warp (odd lanes) and a barrier after it
__global__ void div_branch_step(float *o, long long *t, int n) {
	__shared__ float s[1024], d[1024], e[1024];
	int tid = threadIdx.x;
	s[tid] = (float)tid;
	d[tid] = e[tid] = 0.0f;
	__syncthreads();
	START();
	for (int i = 0; i < n; i++) {
		if (tid & 1) {
			float x = s[tid], y = s[tid ^ 1];
			d[tid] = fminf(x, y);
			e[tid] = fmaxf(x, y);
		}
		__syncthreads();
	}
	STOP(t);
	o[tid] = d[tid] + e[tid];
}
// the same with the condition uniform in each warp (every lane or none)
__global__ void uni_branch_step(float *o, long long *t, int n) {
	__shared__ float s[1024], d[1024], e[1024];
	int tid = threadIdx.x;
	s[tid] = (float)tid;
	d[tid] = e[tid] = 0.0f;
	__syncthreads();
	START();
	for (int i = 0; i < n; i++) {
		if ((tid + i) & 32) {
			float x = s[tid], y = s[tid ^ 1];
			d[tid] = fminf(x, y);
			e[tid] = fmaxf(x, y);
		}
		__syncthreads();
	}
	STOP(t);
	o[tid] = d[tid] + e[tid];
}
// a shared store, then a barrier, nothing else
__global__ void sts_bar(float *o, long long *t, int n) {
	__shared__ float s[1024];
	int tid = threadIdx.x;
	START();
	for (int i = 0; i < n; i++) {
		s[tid] = (float)i;
		__syncthreads();
	}
	STOP(t);
	o[tid] = s[(tid + 1) & (blockDim.x - 1)];
}

// not held out: a shared atomic increment (result unused: ATOMS.POPC.INC),
// then a barrier
__global__ void atoms_bar(unsigned *o, long long *t, int n) {
	__shared__ unsigned cnt[32][16];
	int tid = threadIdx.x;
	if ((tid & 31) < 16) cnt[tid >> 5][tid & 15] = 0;
	__syncthreads();
	START();
	for (int i = 0; i < n; i++) {
		atomicAdd(&cnt[tid >> 5][(tid * 7 + i) & 15], 1u);
		__syncthreads();
	}
	STOP(t);
	if ((tid & 31) < 16) o[tid] = cnt[tid >> 5][tid & 15];
}
// a chain of shared atomics, each at the address the previous one returned
// (every lane its own word: no conflicts)
__global__ void atoms_lat(unsigned *o, long long *t, int n) {
	__shared__ unsigned s[1024];
	int tid = threadIdx.x;
	s[tid] = 0;
	__syncthreads();
	unsigned v = 0;
	START();
	for (int i = 0; i < n; i++) v = atomicAdd(&s[(tid + (v & 1024)) & 1023], 1u);
	STOP(t);
	o[tid] = v;
}
// independent shared atomics, 8 per iteration, every lane its own word
__global__ void atoms_tput(unsigned *o, long long *t, int n) {
	__shared__ unsigned s[1024];
	int tid = threadIdx.x;
	s[tid] = 0;
	__syncthreads();
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++) atomicAdd(&s[tid], (unsigned)k);
	}
	STOP(t);
	o[tid] = s[tid];
}

// not held out: k = 0, so every branch jumps over its block
__global__ void branch_taken(float *o, long long *t, int n, int k) {
	float a = (float)threadIdx.x, b = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		int c = i * k;
#define SKIP(j) if ((c >> j) & 1) { a = a * 1.0001f + b; b = b * 0.9999f + a; a = a * 1.0002f + b; b = b * 0.9998f + a; \
		a = a * 1.0003f + b; b = b * 0.9997f + a; a = a * 1.0004f + b; b = b * 0.9996f + a; }
		SKIP(0) SKIP(1) SKIP(2) SKIP(3) SKIP(4) SKIP(5) SKIP(6) SKIP(7)
#undef SKIP
		b += 1.0f;
	}
	STOP(t);
	o[threadIdx.x] = a + b;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	float *fb = (float *)buf;
	char l[64];
	for (int blk = 128; blk <= 512; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("l1_gather_tput"), l1_gather_tput, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("conv1d_loop"), conv1d_loop, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("softmax_loop"), softmax_loop, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("bitonic_loop"), bitonic_loop, blk, 64, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("nbody_loop"), nbody_loop, blk, 64, 3, "", (const float4 *)buf, (float *)buf2, dt, nn);
		MEASURE(L("lut_loop"), lut_loop, blk, 256, 3, "", (const unsigned *)buf, (unsigned *)buf2, dt, nn);
		MEASURE(L("div_branch_step"), div_branch_step, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("uni_branch_step"), uni_branch_step, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("sts_bar"), sts_bar, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("atoms_bar"), atoms_bar, blk, 256, 2, "", (unsigned *)buf2, dt, nn);
		MEASURE(L("atoms_lat"), atoms_lat, blk, 256, 2, "", (unsigned *)buf2, dt, nn);
		MEASURE(L("atoms_tput"), atoms_tput, blk, 256, 2, "", (unsigned *)buf2, dt, nn);
		MEASURE(L("branch_taken"), branch_taken, blk, 256, 2, "3=0", (float *)buf2, dt, nn, 0);
	}
	return 0;
}
