// sw_probe.cu: what a switch costs when a warp's lanes take different
// cases. The fifth held-out set's switch_loop (four cases a warp, one of
// them a square root) stayed 43% to 49% fast at 128 and 256 threads after
// the square root's expansion was modelled; its SASS tests the cases one
// after another (ISETP, BRA) inside a BSSY/BSYNC. Here the same loop with
// the case chosen per lane (_div) or per warp (_uni), with and without the
// square root, with two, four and eight cases. Same method as the held-out
// sets (loop_host.cuh): one block, clock64() around the loop,
// (T(2n) - T(n)) / n; run with `sh bench/gpu/simt/heldout.sh sw_probe`,
// judged by tests/check_simt.py with the other probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define CASES4(sel, c2)                                                   \
	switch (sel) {                                                        \
	case 0: x = x * 1.0001f + 0.5f; break;                                \
	case 1: x = x * x * 0.25f + 1.0f; break;                              \
	case 2: c2; break;                                                    \
	default: x = x - 0.125f * (float)(i & 7); break;                      \
	}

// four cases by lane: every warp runs all four
__global__ void sw4_div(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float x = 1.0f + (float)tid * 0.01f;
	START();
	for (int i = 0; i < n; i++)
		CASES4((tid + (i >> 1)) & 3, x = x * 0.5f + 2.0f)
	STOP(t);
	o[tid] = x;
}

// the same, case 2 a square root (switch_loop)
__global__ void sw4_div_sqrt(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float x = 1.0f + (float)tid * 0.01f;
	START();
	for (int i = 0; i < n; i++)
		CASES4((tid + (i >> 1)) & 3, x = __fsqrt_rn(x + 2.0f))
	STOP(t);
	o[tid] = x;
}

// four cases by warp: each warp runs one a step
__global__ void sw4_uni(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float x = 1.0f + (float)tid * 0.01f;
	START();
	for (int i = 0; i < n; i++)
		CASES4(((tid >> 5) + (i >> 1)) & 3, x = x * 0.5f + 2.0f)
	STOP(t);
	o[tid] = x;
}

// the same with the square root
__global__ void sw4_uni_sqrt(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float x = 1.0f + (float)tid * 0.01f;
	START();
	for (int i = 0; i < n; i++)
		CASES4(((tid >> 5) + (i >> 1)) & 3, x = __fsqrt_rn(x + 2.0f))
	STOP(t);
	o[tid] = x;
}

// two cases by lane (an if/else of short sides)
__global__ void sw2_div(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float x = 1.0f + (float)tid * 0.01f;
	START();
	for (int i = 0; i < n; i++) {
		switch ((tid + (i >> 1)) & 1) {
		case 0: x = x * 1.0001f + 0.5f; break;
		default: x = x * x * 0.25f + 1.0f; break;
		}
	}
	STOP(t);
	o[tid] = x;
}

// eight cases by lane
__global__ void sw8_div(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float x = 1.0f + (float)tid * 0.01f;
	START();
	for (int i = 0; i < n; i++) {
		switch ((tid + (i >> 1)) & 7) {
		case 0: x = x * 1.0001f + 0.5f; break;
		case 1: x = x * x * 0.25f + 1.0f; break;
		case 2: x = x * 0.5f + 2.0f; break;
		case 3: x = x * 0.999f - 0.25f; break;
		case 4: x = x * x * 0.125f + 0.5f; break;
		case 5: x = x * 0.75f + 1.0f; break;
		case 6: x = x * 1.001f - 0.5f; break;
		default: x = x - 0.125f * (float)(i & 7); break;
		}
	}
	STOP(t);
	o[tid] = x;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 32; blk <= 1024; blk *= blk == 32 ? 4 : 8) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("sw4_div"), sw4_div, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("sw4_div_sqrt"), sw4_div_sqrt, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("sw4_uni"), sw4_uni, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("sw4_uni_sqrt"), sw4_uni_sqrt, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("sw2_div"), sw2_div, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("sw8_div"), sw8_div, blk, 256, 2, "", (float *)buf2, dt, nn);
	}
	return 0;
}
