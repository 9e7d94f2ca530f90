// simt_heldout7.cu: the seventh held-out set for `ptxray simt`'s timing
// model. On 2026-11-26 (fifth session) the model learnt to run a short
// if/else the way ptxas compiles it, both sides predicated with no branch
// (simt_fuse.c's mark_diamonds, from the SASS of clip_sum_loop, state_loop
// and bitonic_loop). These loops put if/else statements of the shapes
// kernels have in loops, at 128 to 1024 threads, and were written, and the
// model's predictions for them committed
// (tests/fixtures/simt/heldout7/predicted.jsonl), before their first
// measurement. Same method as simt_heldout6.cu (one block, clock64()
// around the loop between __syncthreads(), T(n) and T(2n), five launches;
// bench/gpu/simt/loop_host.cuh); tests/check_simt.py simulates
// tests/fixtures/simt/heldout7/simt_heldout7.sm_90.ptx and reports the set
// apart ("held-out 7"). Addresses and branches depend on indices and
// parameters only, never on the data; no loop reads global memory (the
// L2's state between launches stays out of it).
//
// The loops: an absolute difference by if/else, a compare-exchange, two
// integer counters, an if/else on a warp-uniform condition, an if/else
// with five FMAs a side (longer than the model's limit: it keeps the
// branch), and shared-memory reads on both sides.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// |a - b| summed, the sides weighted differently; a differs per lane
__global__ void absdiff_loop(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float a = (float)tid * 0.5f, b = 3.0f, acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		b = b * 1.0001f + 0.25f;
		if (a > b) {
			acc += a - b;
		} else {
			acc += (b - a) * 0.5f;
		}
		a = a * 0.9999f + 0.125f;
	}
	STOP(t);
	o[tid] = acc;
}

// a compare-exchange of two running values, decided per lane by an index
// pattern
__global__ void cmpxchg_loop(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float x = 1.0f + (float)tid * 0.01f, y = 2.0f;
	START();
	for (int i = 0; i < n; i++) {
		if (((tid ^ i) & 3) == 0) {
			float u = x;
			x = y * 0.999f;
			y = u * 1.001f;
		} else {
			y = y + 0.01f;
		}
	}
	STOP(t);
	o[tid] = x + y;
}

// two integer counters and a sum, by a hash of the lane and the iteration
__global__ void sign_count_loop(int *o, long long *t, int n) {
	int tid = threadIdx.x;
	int pos = 0, neg = 0, sum = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned v = (unsigned)(tid * 2654435761u) ^ (unsigned)(i * 40503u);
		if (v & 0x100) {
			pos++;
			sum += (int)(v >> 20);
		} else {
			neg++;
			sum -= (int)(v & 0xff);
		}
	}
	STOP(t);
	o[tid] = pos * 3 + neg + sum;
}

// an if/else whose condition is the same for a warp's lanes (the warp
// index and the iteration)
__global__ void warp_pick_loop(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float x = 1.0f + (float)tid * 0.001f;
	START();
	for (int i = 0; i < n; i++) {
		if (((tid >> 5) + i) & 1)
			x = x * 1.5f + 0.25f;
		else
			x = x * 0.5f - 0.125f;
	}
	STOP(t);
	o[tid] = x;
}

// an if/else with a chain of five FMAs on each side, per lane
__global__ void wide_ifelse_loop(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float a = (float)tid, b = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		if ((tid + i) & 1) {
			a = a * 1.0001f + b; b = b * 0.9999f + a; a = a * 1.0002f + b; b = b * 0.9998f + a;
			a = a * 1.0003f + b;
		} else {
			b = b * 1.0001f + a; a = a * 0.9999f + b; b = b * 1.0002f + a; a = a * 0.9998f + b;
			b = b * 1.0003f + a;
		}
	}
	STOP(t);
	o[tid] = a + b;
}

// shared-memory reads on both sides of an if/else (a table written before
// the loop)
__global__ void shared_pick_loop(float *o, long long *t, int n) {
	__shared__ float s[256];
	int tid = threadIdx.x;
	for (int j = tid; j < 256; j += blockDim.x)
		s[j] = (float)j * 0.01f;
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		if ((tid + i) & 2)
			acc += s[(tid + i) & 255];
		else
			acc -= s[(tid * 5 + i) & 255] * 0.5f;
	}
	STOP(t);
	o[tid] = acc;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 1024; blk *= blk == 128 ? 4 : 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("absdiff_loop"), absdiff_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("cmpxchg_loop"), cmpxchg_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("sign_count_loop"), sign_count_loop, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("warp_pick_loop"), warp_pick_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("wide_ifelse_loop"), wide_ifelse_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("shared_pick_loop"), shared_pick_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
	}
	return 0;
}
