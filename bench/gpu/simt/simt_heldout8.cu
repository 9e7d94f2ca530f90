// simt_heldout8.cu: the eighth held-out set for `ptxray simt`'s timing
// model. On 2026-11-26 (fifth session) the model learnt to run an if/else
// of up to 16 PTX instructions predicated, as ptxas compiles it, a limit
// taken from the one-sided regions after held-out 7 showed 10 and 13
// predicated (simt_fuse.c's mark_diamonds), and stopped taking a select's
// values to come from an earlier select's predicate (held-out 7's
// cmpxchg_loop). These loops sit on both sides of that limit and chain
// selects, at 128 to 1024 threads, and were written, and the model's
// predictions for them committed
// (tests/fixtures/simt/heldout8/predicted.jsonl), before their first
// measurement. Same method as simt_heldout7.cu (one block, clock64()
// around the loop between __syncthreads(), T(n) and T(2n), five launches;
// bench/gpu/simt/loop_host.cuh); tests/check_simt.py simulates
// tests/fixtures/simt/heldout8/simt_heldout8.sm_90.ptx and reports the set
// apart ("held-out 8"). Addresses and branches depend on indices and
// parameters only, never on the data; no loop reads global memory.
//
// The loops: if/else statements of 6, 7 and 10 FMAs a side, selects in a
// chain on integers, shared stores on both sides of an if/else, and an
// if/else whose sides use a value loaded from shared memory before it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define SIDE_A(k) a = a * (1.0f + 0.0001f * k) + b; b = b * (1.0f - 0.0001f * k) + a;
#define SIDE_B(k) b = b * (1.0f + 0.0001f * k) + a; a = a * (1.0f - 0.0001f * k) + b;

// an if/else of 6 FMAs a side, per lane
__global__ void ifelse6_loop(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float a = (float)tid, b = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		if ((tid + i) & 1) {
			SIDE_A(1) SIDE_A(2) SIDE_A(3)
		} else {
			SIDE_B(1) SIDE_B(2) SIDE_B(3)
		}
	}
	STOP(t);
	o[tid] = a + b;
}

// an if/else of 7 FMAs a side, per lane by another pattern
__global__ void ifelse7_loop(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float a = (float)tid, b = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		if (((tid >> 1) ^ i) & 1) {
			SIDE_A(1) SIDE_A(2) SIDE_A(3) a = a * 1.0004f + b;
		} else {
			SIDE_B(1) SIDE_B(2) SIDE_B(3) b = b * 1.0004f + a;
		}
	}
	STOP(t);
	o[tid] = a + b;
}

// an if/else of 10 FMAs a side, per lane
__global__ void ifelse10_loop(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float a = (float)tid, b = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		if ((tid + i) & 2) {
			SIDE_A(1) SIDE_A(2) SIDE_A(3) SIDE_A(4) SIDE_A(5)
		} else {
			SIDE_B(1) SIDE_B(2) SIDE_B(3) SIDE_B(4) SIDE_B(5)
		}
	}
	STOP(t);
	o[tid] = a + b;
}

// integer selects in a chain: each step picks one of two updates of a
// running hash by a bit of the lane index and the iteration
__global__ void select_hash_loop(unsigned *o, long long *t, int n) {
	int tid = threadIdx.x;
	unsigned h = 2166136261u ^ (unsigned)tid;
	START();
	for (int i = 0; i < n; i++) {
		unsigned k = (unsigned)(tid + i);
		h = (k & 1) ? h * 16777619u : h + 0x9e3779b9u;
		h = (k & 2) ? h ^ (h >> 7) : h * 3u;
		h = (k & 4) ? h + 12345u : h ^ 0x5bd1e995u;
	}
	STOP(t);
	o[tid] = h;
}

// shared stores on both sides of an if/else (each thread its own words)
__global__ void store_sides_loop(float *o, long long *t, int n) {
	__shared__ float s[2048];
	int tid = threadIdx.x;
	float x = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		x = x * 0.999f + 1.0f;
		if ((tid ^ i) & 1)
			s[2 * tid] = x;
		else
			s[2 * tid + 1] = x * 0.5f;
	}
	STOP(t);
	o[tid] = s[2 * tid] + s[2 * tid + 1];
}

// a shared-memory value read before an if/else whose sides use it
__global__ void load_then_pick_loop(float *o, long long *t, int n) {
	__shared__ float s[256];
	int tid = threadIdx.x;
	for (int j = tid; j < 256; j += blockDim.x)
		s[j] = (float)j * 0.01f;
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		float v = s[(tid * 3 + i) & 255];
		if ((tid + i) & 4) {
			acc = acc * 0.5f + v;
			acc = acc + v * v;
		} else {
			acc = acc - v * 0.25f;
		}
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
		MEASURE(L("ifelse6_loop"), ifelse6_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("ifelse7_loop"), ifelse7_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("ifelse10_loop"), ifelse10_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("select_hash_loop"), select_hash_loop, blk, 256, 2, "", (unsigned *)buf2, dt, nn);
		MEASURE(L("store_sides_loop"), store_sides_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("load_then_pick_loop"), load_then_pick_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
	}
	return 0;
}
