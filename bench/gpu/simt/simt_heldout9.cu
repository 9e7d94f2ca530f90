// simt_heldout9.cu: the ninth held-out set for `ptxray simt`'s timing
// model. On 2026-11-26 (sixth session) the model learnt that one warp's
// loads follow each other more slowly than its scheduler's share of the
// SM's rates allows (4 cycles after a shared load, 6 after a global one,
// either kind waiting for the last: throughput.shared_load_interval,
// global_load_interval) and that a shared store takes 4 cycles of its
// scheduler's share at least (shared_store_interval_per_subpartition),
// from microbenchmarks at one warp a scheduler (shared_tput_s1, l1_tput,
// ldgap_probe). These realistic loops read and write memory densely at 128
// to 512 threads, and were written, and the model's predictions for them
// committed (tests/fixtures/simt/heldout9/predicted.jsonl), before their
// first measurement. Same method as simt_heldout8.cu (one block, clock64()
// around the loop between __syncthreads(), T(n) and T(2n), five launches;
// bench/gpu/simt/loop_host.cuh); tests/check_simt.py simulates
// tests/fixtures/simt/heldout9/simt_heldout9.sm_90.ptx and reports the set
// apart ("held-out 9"). Addresses and branches depend on indices and
// parameters only, never on the data; global reads stay within 64 KiB
// (L1 hits once warm).
//
// The loops: a five-tap convolution from shared memory, a gather through
// a shared lookup table of indices loaded from global memory, an axpy on
// shared arrays (two loads and a store a step), a tile staged from global
// into shared memory between barriers, a sum over four global rows, and a
// running window of shared values written and read back.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// five taps from a shared array, the window moving with the loop counter
__global__ void conv5_smem_loop(float *o, long long *t, int n) {
	__shared__ float s[2048 + 8];
	for (int i = threadIdx.x; i < 2048 + 8; i += blockDim.x) s[i] = 0.001f * i;
	__syncthreads();
	int tid = threadIdx.x;
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		const float *p = s + ((tid + i * 32) & 2047);
		acc += 0.1f * p[0] + 0.2f * p[1] + 0.4f * p[2] + 0.2f * p[3] + 0.1f * p[4];
	}
	STOP(t);
	o[tid] = acc;
}

// indices loaded from global memory pick entries of a shared table
__global__ void lut_gather_loop(const int *idx, float *o, long long *t, int n) {
	__shared__ float lut[1024];
	for (int i = threadIdx.x; i < 1024; i += blockDim.x) lut[i] = 1.0f / (1.0f + i);
	__syncthreads();
	int tid = threadIdx.x;
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		int k = idx[((i & 63) * 128 + tid) & 16383] & 1023;
		acc += lut[(k + tid) & 1023];
	}
	STOP(t);
	o[tid] = acc;
}

// y = a x + y on shared arrays: two loads and a store a step, each thread
// its own column
__global__ void axpy_smem_loop(float *o, long long *t, int n) {
	__shared__ float x[2048], y[2048];
	for (int i = threadIdx.x; i < 2048; i += blockDim.x) { x[i] = 0.5f * i; y[i] = 1.0f; }
	__syncthreads();
	int tid = threadIdx.x, nb = blockDim.x;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 3) * nb + tid) & 2047;
		y[k] = 0.999f * x[k] + y[k];
	}
	STOP(t);
	o[tid] = y[tid];
}

// a 32-float row per warp staged from global into shared memory, then
// the neighbouring warp's row read back permuted, a barrier either side
__global__ void stage_tile_loop(const float *a, float *o, long long *t, int n) {
	__shared__ float tile[32][33];
	int tid = threadIdx.x, lane = tid & 31, w = (tid >> 5) & 31;
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		tile[w][lane] = a[((i & 31) * 1024 + w * 32 + lane) & 16383];
		__syncthreads();
		acc += tile[w ^ 1][(lane * 7) & 31];
		__syncthreads();
	}
	STOP(t);
	o[tid] = acc;
}

// the sum of four rows of a global array (L1 hits), coalesced
__global__ void rows4_loop(const float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		int base = ((i & 7) * 4 * nb + tid) & 16383;
		acc += a[base] + a[(base + nb) & 16383] + a[(base + 2 * nb) & 16383] + a[(base + 3 * nb) & 16383];
	}
	STOP(t);
	o[tid] = acc;
}

// each thread writes a value into its own shared slot and reads back the
// two its warp neighbours wrote the step before (a __syncwarp between)
__global__ void window_smem_loop(float *o, long long *t, int n) {
	__shared__ float s[4][1024];
	int tid = threadIdx.x, lane = tid & 31;
	float x = 1.0f + tid;
	for (int i = tid; i < 4096; i += blockDim.x) (&s[0][0])[i] = 0.0f;
	__syncthreads();
	START();
	for (int i = 0; i < n; i++) {
		s[i & 3][tid] = x;
		__syncwarp();
		int b = tid - lane;
		x = 0.5f * x + 0.25f * (s[i & 3][b + ((lane + 1) & 31)] + s[i & 3][b + ((lane + 31) & 31)]);
		__syncwarp();
	}
	STOP(t);
	o[tid] = x;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 512; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("conv5_smem_loop"), conv5_smem_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("lut_gather_loop"), lut_gather_loop, blk, 256, 3, "", (const int *)buf, (float *)buf2, dt, nn);
		MEASURE(L("axpy_smem_loop"), axpy_smem_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("stage_tile_loop"), stage_tile_loop, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
		MEASURE(L("rows4_loop"), rows4_loop, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
		MEASURE(L("window_smem_loop"), window_smem_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
	}
	return 0;
}
