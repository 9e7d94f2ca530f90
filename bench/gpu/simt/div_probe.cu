// div_probe.cu: the cost of branches in a diverged warp. dc_probe.cu found
// digit_count_loop's 16-thread total ~200 cycles slower with a dynamic trip
// count (ptxas's dispatch: about five taken branches inside `if (tid < 16)`)
// than fully unrolled, at every block size; branch_taken (simt_heldout.cu)
// has the same kind of branches, warp-uniform, at ~12 cycles each. Here:
// branch_taken's eight skipped blocks inside a lane-divergent `if`
// (div_nested), inside a warp-uniform one (uni_nested), and a lane-divergent
// if/else of straight-line blocks without inner branches (div_ifelse).
// Same method as simt_heldout.cu ((T(2n) - T(n)) / n, best of 5). A probe:
// `sh bench/gpu/simt/heldout.sh div_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define SKIP(j) if ((c >> j) & 1) { a = a * 1.0001f + b; b = b * 0.9999f + a; a = a * 1.0002f + b; b = b * 0.9998f + a; \
	a = a * 1.0003f + b; b = b * 0.9997f + a; a = a * 1.0004f + b; b = b * 0.9996f + a; }

__global__ void div_nested(float *o, long long *t, int n, int k) {
	float a = (float)threadIdx.x, b = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		if ((threadIdx.x & 31) < 16) {
			int c = i * k;
			SKIP(0) SKIP(1) SKIP(2) SKIP(3) SKIP(4) SKIP(5) SKIP(6) SKIP(7)
			b += 1.0f;
		}
	}
	STOP(t);
	o[threadIdx.x] = a + b;
}

__global__ void uni_nested(float *o, long long *t, int n, int k) {
	float a = (float)threadIdx.x, b = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		if ((threadIdx.x & 32) == 0) {
			int c = i * k;
			SKIP(0) SKIP(1) SKIP(2) SKIP(3) SKIP(4) SKIP(5) SKIP(6) SKIP(7)
			b += 1.0f;
		}
	}
	STOP(t);
	o[threadIdx.x] = a + b;
}

__global__ void div_ifelse(float *o, long long *t, int n) {
	float a = (float)threadIdx.x, b = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		if (threadIdx.x & 1) {
			a = a * 1.0001f + b; b = b * 0.9999f + a; a = a * 1.0002f + b; b = b * 0.9998f + a;
			a = a * 1.0003f + b; b = b * 0.9997f + a; a = a * 1.0004f + b; b = b * 0.9996f + a;
			a = a * 1.0005f + b; b = b * 0.9995f + a; a = a * 1.0006f + b; b = b * 0.9994f + a;
		} else {
			b = b * 1.0001f + a; a = a * 0.9999f + b; b = b * 1.0002f + a; a = a * 0.9998f + b;
			b = b * 1.0003f + a; a = a * 0.9997f + b; b = b * 1.0004f + a; a = a * 0.9996f + b;
			b = b * 1.0005f + a; a = a * 0.9995f + b; b = b * 1.0006f + a; a = a * 0.9994f + b;
		}
	}
	STOP(t);
	o[threadIdx.x] = a + b;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 512; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("div_nested"), div_nested, blk, 256, 2, "3=0", (float *)buf2, dt, nn, 0);
		MEASURE(L("uni_nested"), uni_nested, blk, 256, 2, "3=0", (float *)buf2, dt, nn, 0);
		MEASURE(L("div_ifelse"), div_ifelse, blk, 256, 2, "", (float *)buf2, dt, nn);
	}
	return 0;
}
