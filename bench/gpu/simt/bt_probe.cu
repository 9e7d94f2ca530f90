// bt_probe.cu: what a warp-uniform conditional branch costs on the H100/H200
// SM when it is taken and when it falls through (div_probe.cu and
// simt_heldout.cu's branch_taken time taken ones only). Eight branches an
// iteration over blocks of 8 dependent FMAs, with the predicates from
// c = i * k + m (ptxas computes all eight before the first branch):
// bt_branches with m = 0 (every branch taken, no FMA runs), m = 255 (none
// taken, all 64 FMAs run) and m = 85 (every other one); bt_straight runs
// the 64 FMAs with no branch, so that m = 255's difference from it is the
// cost of eight branches falling through. Same method as simt_heldout.cu
// ((T(2n) - T(n)) / n, best of 5). A probe: `sh bench/gpu/simt/heldout.sh bt_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define BODY a = a * 1.0001f + b; b = b * 0.9999f + a; a = a * 1.0002f + b; b = b * 0.9998f + a; \
	a = a * 1.0003f + b; b = b * 0.9997f + a; a = a * 1.0004f + b; b = b * 0.9996f + a;
#define SKIP(j) if ((c >> j) & 1) { BODY }

__global__ void bt_branches(float *o, long long *t, int n, int k, int m) {
	float a = (float)threadIdx.x, b = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		int c = i * k + m;
		SKIP(0) SKIP(1) SKIP(2) SKIP(3) SKIP(4) SKIP(5) SKIP(6) SKIP(7)
		b += 1.0f;
	}
	STOP(t);
	o[threadIdx.x] = a + b;
}

__global__ void bt_straight(float *o, long long *t, int n) {
	float a = (float)threadIdx.x, b = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		BODY BODY BODY BODY BODY BODY BODY BODY
		b += 1.0f;
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
		MEASURE(L("bt_taken"), bt_branches, blk, 256, 2, "3=0,4=0", (float *)buf2, dt, nn, 0, 0);
		MEASURE(L("bt_fallthrough"), bt_branches, blk, 256, 2, "3=0,4=255", (float *)buf2, dt, nn, 0, 255);
		MEASURE(L("bt_alternate"), bt_branches, blk, 256, 2, "3=0,4=85", (float *)buf2, dt, nn, 0, 85);
		MEASURE(L("bt_straight"), bt_straight, blk, 256, 2, "", (float *)buf2, dt, nn);
	}
	return 0;
}
