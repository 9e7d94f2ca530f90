// cpasync_probe.cu: loops that stage global data through shared memory
// with cp.async (sm_80+), the pipelined copy of most tiled kernels since
// Ampere, which `ptxray simt` simulated as unknown before a282394 (and
// then reported every read of the staged tiles as uninitialized-shared).
// The model's claim, written and predicted before the first measurement
// (tests/fixtures/simt/probes/cpasync_probe_predicted.jsonl): a copy costs
// what a global load of its lines costs, its group ends when its data has
// arrived, and the instruction after cp.async.wait_group waits for the
// groups the wait names. The loops: two buffers, the next tile's copies
// in flight while the current one is read (4-byte copies, .ca; 16-byte,
// .cg); the same with wait_group 0 (no overlap); three buffers (wait_group
// 2). Each iteration reads its tile with 8 FMAs a thread between two
// barriers. The data: 64 KiB of the held-out programs' reused buffer, in
// L2 from the launches before (check_simt.py's l2_state: warm).
// Same method as the held-out sets (loop_host.cuh): one block, clock64()
// around the loop, (T(2n) - T(n)) / n; run with
// `sh bench/gpu/simt/heldout.sh cpasync_probe`, judged by tests/check_simt.py
// with the other probes (tests/fixtures/simt/probes/).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define MASK 16383   // 64 KiB of floats

// the FMAs of one iteration on the tile in s (4 words a thread)
__device__ __forceinline__ float use_tile(const float *s, int tid, float acc) {
	float a = s[tid], b = s[(tid + 1) & 1023], c = s[(tid + 2) & 1023], d = s[(tid + 3) & 1023];
	acc = fmaf(a, b, acc);
	acc = fmaf(c, d, acc);
	acc = fmaf(a, d, acc);
	acc = fmaf(b, c, acc);
	acc = fmaf(a, c, acc);
	acc = fmaf(b, d, acc);
	acc = fmaf(a, a, acc);
	return fmaf(d, d, acc);
}

// two buffers of 1024 words, the block's threads a 4-byte copy a word
// (cp.async.ca)
__global__ void cpa_db4(const float *g, float *o, long long *t, int n) {
	__shared__ float s[2][1024];
	int tid = threadIdx.x, nb = blockDim.x;
	float acc = 0;
	for (int k = tid; k < 1024; k += nb)
		__pipeline_memcpy_async(&s[0][k], &g[k], 4);
	__pipeline_commit();
	START();
	for (int i = 0; i < n; i++) {
		int base = (i + 1) * 1024;
		for (int k = tid; k < 1024; k += nb)
			__pipeline_memcpy_async(&s[(i + 1) & 1][k], &g[(base + k) & MASK], 4);
		__pipeline_commit();
		__pipeline_wait_prior(1);
		__syncthreads();
		acc = use_tile(s[i & 1], tid, acc);
		__syncthreads();
	}
	STOP(t);
	o[tid] = acc;
}

// two buffers, one 16-byte copy a thread a tile (cp.async.cg)
__global__ void cpa_db16(const float4 *g, float *o, long long *t, int n) {
	__shared__ float4 s4[2][256];
	int tid = threadIdx.x;
	float acc = 0;
	if (tid < 256)
		__pipeline_memcpy_async(&s4[0][tid], &g[tid & (MASK >> 2)], 16);
	__pipeline_commit();
	START();
	for (int i = 0; i < n; i++) {
		if (tid < 256)
			__pipeline_memcpy_async(&s4[(i + 1) & 1][tid], &g[((i + 1) * 256 + tid) & (MASK >> 2)], 16);
		__pipeline_commit();
		__pipeline_wait_prior(1);
		__syncthreads();
		acc = use_tile((const float *)s4[i & 1], tid, acc);
		__syncthreads();
	}
	STOP(t);
	o[tid] = acc;
}

// cpa_db4 with one buffer, waiting for the tile it has just asked for
// (wait_group 0)
__global__ void cpa_sync4(const float *g, float *o, long long *t, int n) {
	__shared__ float s[1024];
	int tid = threadIdx.x, nb = blockDim.x;
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		int base = i * 1024;
		for (int k = tid; k < 1024; k += nb)
			__pipeline_memcpy_async(&s[k], &g[(base + k) & MASK], 4);
		__pipeline_commit();
		__pipeline_wait_prior(0);
		__syncthreads();
		acc = use_tile(s, tid, acc);
		__syncthreads();
	}
	STOP(t);
	o[tid] = acc;
}

// three buffers, two tiles in flight (wait_group 2 after the commit of
// the tile two ahead)
__global__ void cpa_ring3(const float *g, float *o, long long *t, int n) {
	__shared__ float s[3][1024];
	int tid = threadIdx.x, nb = blockDim.x;
	float acc = 0;
	for (int st = 0; st < 2; st++) {
		for (int k = tid; k < 1024; k += nb)
			__pipeline_memcpy_async(&s[st][k], &g[st * 1024 + k], 4);
		__pipeline_commit();
	}
	START();
	for (int i = 0; i < n; i++) {
		int base = (i + 2) * 1024;
		for (int k = tid; k < 1024; k += nb)
			__pipeline_memcpy_async(&s[(i + 2) % 3][k], &g[(base + k) & MASK], 4);
		__pipeline_commit();
		__pipeline_wait_prior(2);
		__syncthreads();
		acc = use_tile(s[i % 3], tid, acc);
		__syncthreads();
	}
	STOP(t);
	o[tid] = acc;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	const float *fb = (const float *)buf;
	for (int blk = 128; blk <= 512; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("cpa_db4"), cpa_db4, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("cpa_db16"), cpa_db16, blk, 256, 3, "", (const float4 *)buf, (float *)buf2, dt, nn);
		MEASURE(L("cpa_sync4"), cpa_sync4, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("cpa_ring3"), cpa_ring3, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
	}
	return 0;
}
