// rd_probe.cu: a blind test of latency.branch_redirect (arch/sm_90.yaml),
// the scheduler's instruction fetch that a taken forward branch takes for 6
// cycles, fitted to bt_probe and div_probe at 512 threads. Written, and the
// model's predictions committed (tests/fixtures/simt/probes/
// rd_probe_predicted.jsonl), before the first measurement. Warp-uniform
// branches over blocks of 8 dependent FMAs (too long for ptxas to
// predicate), their predicates from c = i * k + m computed before the
// first branch, as in bt_probe.cu:
//   rd_skip6: six blocks, all skipped (m = 0): six taken forward branches an
//     iteration and nothing else but the loop's own counting;
//   rd_skip3_work: three skipped blocks and 16 FMAs of straight-line work
//     between them (one scheduler's queue is partly hidden by the work);
//   rd_mixed: six blocks, every other one run (m = 42: three taken, three
//     falling through);
//   rd_div: four blocks skipped inside a lane-divergent if (half of each
//     warp's lanes), as div_probe.cu's div_nested with four instead of eight.
// At 128 threads (one warp a scheduler) the rule changes nothing; at 1024
// (eight) it is an extrapolation. Same method as simt_heldout.cu: (T(2n) -
// T(n)) / n from the fastest of five launches of each. A probe:
// `sh bench/gpu/simt/heldout.sh rd_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define BODY a = a * 1.0001f + b; b = b * 0.9999f + a; a = a * 1.0002f + b; b = b * 0.9998f + a; \
	a = a * 1.0003f + b; b = b * 0.9997f + a; a = a * 1.0004f + b; b = b * 0.9996f + a;
#define SKIP(j) if ((c >> j) & 1) { BODY }

__global__ void rd_skip6(float *o, long long *t, int n, int k, int m) {
	float a = (float)threadIdx.x, b = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		int c = i * k + m;
		SKIP(0) SKIP(1) SKIP(2) SKIP(3) SKIP(4) SKIP(5)
		b += 1.0f;
	}
	STOP(t);
	o[threadIdx.x] = a + b;
}

__global__ void rd_skip3_work(float *o, long long *t, int n, int k, int m) {
	float a = (float)threadIdx.x, b = 1.0f, x = 0.5f, y = 0.25f;
	START();
	for (int i = 0; i < n; i++) {
		int c = i * k + m;
		SKIP(0)
		x = x * 0.999f + y; y = y * 0.998f + x; x = x * 0.997f + y; y = y * 0.996f + x;
		x = x * 0.995f + y; y = y * 0.994f + x; x = x * 0.993f + y; y = y * 0.992f + x;
		SKIP(1)
		x = x * 0.991f + y; y = y * 0.990f + x; x = x * 0.989f + y; y = y * 0.988f + x;
		x = x * 0.987f + y; y = y * 0.986f + x; x = x * 0.985f + y; y = y * 0.984f + x;
		SKIP(2)
		b += 1.0f;
	}
	STOP(t);
	o[threadIdx.x] = a + b + x + y;
}

__global__ void rd_div(float *o, long long *t, int n, int k) {
	float a = (float)threadIdx.x, b = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		if ((threadIdx.x & 31) < 16) {
			int c = i * k;
			SKIP(0) SKIP(1) SKIP(2) SKIP(3)
			b += 1.0f;
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
	for (int blk = 128; blk <= 1024; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("rd_skip6"), rd_skip6, blk, 256, 2, "3=0,4=0", (float *)buf2, dt, nn, 0, 0);
		MEASURE(L("rd_skip3_work"), rd_skip3_work, blk, 256, 2, "3=0,4=0", (float *)buf2, dt, nn, 0, 0);
		MEASURE(L("rd_mixed"), rd_skip6, blk, 256, 2, "3=0,4=42", (float *)buf2, dt, nn, 0, 42);
		MEASURE(L("rd_div"), rd_div, blk, 256, 2, "3=0", (float *)buf2, dt, nn, 0);
	}
	return 0;
}
