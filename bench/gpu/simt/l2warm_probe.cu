// l2warm_probe.cu: does a loop read its data from DRAM or from the L2 that
// earlier launches left it in? The simulator takes a line no launch of the
// simulated block touched before as a DRAM access (simt_cache.c); the
// held-out programs pass every launch the same 64 MiB buffer, so from the
// second launch on a small loop's lines are in the 50 MB L2, while
// simt_bench.cu gives global_stream a fresh region each launch. Three
// loops of the held-out sets that read global memory (clip_sum_loop and
// edge_stencil_loop of simt_heldout5.cu, norm_loop of simt_heldout6.cu,
// the same code) run here both ways: "_warm" on the held-out programs'
// buffer, "_cold" on a fresh region of a 1 GiB buffer each launch, at 128
// and 1024 threads. The model's predictions (the same for both: it has no
// warm L2) were committed before the first measurement
// (tests/fixtures/simt/probes/l2warm_probe_predicted.jsonl). A probe:
// `sh bench/gpu/simt/heldout.sh l2warm_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__global__ void clip_sum_loop(const float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float acc = 0.0f;
	int cnt = 0;
	START();
	for (int i = 0; i < n; i++) {
		float x = a[i * blockDim.x + tid];
		float v = (float)((tid * 7 + i * 3) & 15) - 7.5f;
		if (v > 0.0f) {
			acc += v * x;
			cnt++;
		} else {
			acc -= 0.5f * x;
		}
	}
	STOP(t);
	o[tid] = acc + (float)cnt;
}

__global__ void edge_stencil_loop(const float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x;
	int w = blockDim.x;
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		const float *row = a + i * w;
		float c = row[tid];
		float l = tid > 0 ? row[tid - 1] : c;
		float r = tid < w - 1 ? row[tid + 1] : c;
		acc += 0.25f * l + 0.5f * c + 0.25f * r;
	}
	STOP(t);
	o[tid] = acc;
}

__global__ void norm_loop(const float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, w = blockDim.x;
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		const float *p = a + 3 * (i * w + tid);
		float x = p[0] + 1.0f, y = p[1] + 2.0f, z = p[2] + (float)(tid & 7);
		float len = sqrtf(x * x + y * y + z * z);
		acc += x / len + y / len;
	}
	STOP(t);
	o[tid] = acc;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	fresh_init();
	float *fb = (float *)buf;
	char l[64];
	for (int blk = 128; blk <= 1024; blk *= 8) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		// (the 2n launch's reach, a page more)
		size_t b1 = (size_t)2 * 256 * blk * 4 + 4096, b3 = (size_t)3 * 2 * 64 * blk * 4 + 4096;
		MEASURE(L("clip_sum_warm"), clip_sum_loop, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("clip_sum_cold"), clip_sum_loop, blk, 256, 3, "", (const float *)fresh(b1), (float *)buf2, dt, nn);
		MEASURE(L("edge_stencil_warm"), edge_stencil_loop, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("edge_stencil_cold"), edge_stencil_loop, blk, 256, 3, "", (const float *)fresh(b1), (float *)buf2, dt, nn);
		MEASURE(L("norm_warm"), norm_loop, blk, 64, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("norm_cold"), norm_loop, blk, 64, 3, "", (const float *)fresh(b3), (float *)buf2, dt, nn);
	}
	return 0;
}
