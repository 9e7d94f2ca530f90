// bar2_probe.cu: a block barrier (__syncthreads) some of whose warps arrive
// late. bar_probe.cu meant to measure this and did not: its loop bodies
// cost more for what ptxas made of them (a volatile read of a shared
// symbol through S2UR SR_CgaCtaId each iteration, the FMA chain's
// remainder branches) than for the barrier. Here every warp reads its word
// of a shared array after the barrier and writes it back before the next
// one (ptxas cannot move either across BAR.SYNC), and the warps marked late
// run 32 dependent FMAs on it in between (a branch uniform in each warp):
// none (bt_none), the first warp (bt_first), the last (bt_last), every
// other warp (bt_half), every warp (bt_all), at 4 to 32 warps. The model
// of 60df0ff charges 12 + 2 cycles a warp after the last arrival, for every
// warp; one that takes the arrivals one at a time as they come charges the
// early warps' share before the late ones come. The loops' predictions
// (model at the commit that adds this file) are in
// tests/fixtures/simt/probes/bar2_probe_predicted.jsonl, committed before
// the first measurement. Same method as the held-out sets (loop_host.cuh);
// run with `sh bench/gpu/simt/heldout.sh bar2_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// the loop: late warps (late != 0) run the chain; mode picks them
#define BODY(late)                                                         \
	__shared__ float s[1024];                                              \
	int tid = threadIdx.x;                                                 \
	s[tid] = (float)tid;                                                   \
	START();                                                               \
	for (int i = 0; i < n; i++) {                                          \
		float x = s[tid];                                                  \
		if (late) {                                                        \
			_Pragma("unroll") for (int j = 0; j < 32; j++)                 \
				x = fmaf(x, 1.0001f, 1.0f);                                \
		}                                                                  \
		s[tid] = x + 1.0f;                                                 \
		__syncthreads();                                                   \
	}                                                                      \
	STOP(t);                                                               \
	o[tid] = s[tid];

__global__ void bt_none(float *o, long long *t, int n) { BODY(0) }
__global__ void bt_first(float *o, long long *t, int n) { BODY((tid >> 5) == 0) }
__global__ void bt_last(float *o, long long *t, int n) { BODY((tid >> 5) == (int)(blockDim.x >> 5) - 1) }
__global__ void bt_half(float *o, long long *t, int n) { BODY((tid >> 5) & 1) }
__global__ void bt_all(float *o, long long *t, int n) { BODY(1) }

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 1024; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("bt_none"), bt_none, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("bt_first"), bt_first, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("bt_last"), bt_last, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("bt_half"), bt_half, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("bt_all"), bt_all, blk, 256, 2, "", (float *)buf2, dt, nn);
	}
	return 0;
}
