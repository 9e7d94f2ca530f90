// simt_heldout6.cu: the sixth held-out set for `ptxray simt`'s timing
// model. The rules added on 2026-11-26 (fourth session) were fitted on
// probes: expanded division and square root (idiv_probe), the branch after
// an expansion, folded selects and the path switch (sw_probe), the
// predication limit under a warp-uniform condition (skip_work_loop). These
// loops use the same constructs as kernels do, at 128 to 1024 threads, and
// were written, and the model's predictions for them committed
// (tests/fixtures/simt/heldout6/predicted.jsonl), before their first
// measurement. Same method as simt_heldout4.cu (one block, clock64() around
// the loop between __syncthreads(), T(n) and T(2n), five launches;
// bench/gpu/simt/loop_host.cuh); tests/check_simt.py simulates
// tests/fixtures/simt/heldout6/simt_heldout6.sm_90.ptx and reports the set
// apart ("held-out 6"). Addresses and branches depend on indices and
// parameters only, never on the data.
//
// The loops: a histogram whose bin is a remainder by a parameter, a
// normalisation by an IEEE square root and division, a piecewise function
// by selects, a per-lane state machine, a gather through a row/column split
// of a linear index, and a double-precision Newton iteration.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// shared-memory histogram; the bin is a hash modulo a bin count the kernel
// gets as a parameter
__global__ void hist_mod_loop(int *o, long long *t, int n, unsigned nbins) {
	__shared__ int h[256];
	int tid = threadIdx.x;
	for (int j = tid; j < 256; j += blockDim.x)
		h[j] = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned k = (unsigned)(tid * 2654435761u) ^ (unsigned)(i * 40503u);
		atomicAdd(&h[k % nbins], 1);
	}
	STOP(t);
	o[tid] = h[tid & 255];
}

// each iteration normalises a 3-vector that a thread reads from a stream
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

// a piecewise polynomial by a test on the running value: both pieces are
// computed and one selected
__global__ void poly_select_loop(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float x = 0.5f + (float)(tid & 31) * 0.01f;
	START();
	for (int i = 0; i < n; i++) {
		float lo = x * x * 0.5f + 0.25f;
		float hi = 1.5f - x * 0.75f;
		x = x < 0.6f ? lo : hi;
	}
	STOP(t);
	o[tid] = x;
}

// each lane steps its own three-state machine (the lanes of a warp are in
// different states)
__global__ void state_loop(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	int s = tid % 3;
	float x = 1.0f + (float)tid * 0.001f;
	START();
	for (int i = 0; i < n; i++) {
		if (s == 0) {
			x = x * 1.5f + 0.25f;
			s = 1;
		} else if (s == 1) {
			x = x * 0.5f - 0.125f;
			s = (i & 1) ? 2 : 0;
		} else {
			x = x * x * 0.0625f + 1.0f;
			s = 0;
		}
	}
	STOP(t);
	o[tid] = x;
}

// a gather through a linear index split into row and column by a width the
// kernel gets as a parameter
__global__ void rowcol_loop(const float *a, float *o, long long *t, int n, int width) {
	int tid = threadIdx.x;
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		int idx = i * blockDim.x + tid;
		int row = idx / width, col = idx % width;
		acc += a[col * 64 + (row & 63)];
	}
	STOP(t);
	o[tid] = acc;
}

// Newton steps for 1/sqrt(c) in double precision, by division
__global__ void newton64_loop(double *o, long long *t, int n) {
	int tid = threadIdx.x;
	double c = 2.0 + (double)tid * 0.01, x = 0.5;
	START();
	for (int i = 0; i < n; i++)
		x = x + (1.0 / (x * c) - x * x) / (2.0 * x + 1.0);
	STOP(t);
	o[tid] = x;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	float *fb = (float *)buf;
	char l[64];
	for (int blk = 128; blk <= 1024; blk *= blk == 128 ? 4 : 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("hist_mod_loop"), hist_mod_loop, blk, 256, 2, "3=37", (int *)buf2, dt, nn, 37u);
		MEASURE(L("norm_loop"), norm_loop, blk, 64, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("poly_select_loop"), poly_select_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("state_loop"), state_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("rowcol_loop"), rowcol_loop, blk, 256, 3, "4=96", fb, (float *)buf2, dt, nn, 96);
		MEASURE(L("newton64_loop"), newton64_loop, blk, 64, 2, "", (double *)buf2, dt, nn);
	}
	return 0;
}
