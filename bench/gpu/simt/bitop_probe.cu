// bitop_probe.cu: the latency of the bit counts and reversal (popc, clz,
// brev: POPC, FLO, BREV), which the model issues at the SFU's rate (16
// lanes a cycle an SM, the Programming Guide's throughput table) with the
// ALU's latency, while Nsight Compute finds the warps of held-out 14's
// hamming_nn_loop/128 (16 __popcll a thread an iteration, 36% fast in the
// model) waiting on the MIO's scoreboard (short_scoreboard, 22% of the
// warp-cycles; the model's POPC results wait on no scoreboard). Eight
// dependent steps an iteration, each a bit operation and a LOP3 that folds
// in a shift of the last value (computed beside the operation):
//  - bo_add_lat: x = (x + k) ^ (x << 1), the ALU baseline (IADD3, LOP3);
//  - bo_popc_lat: x = popc(x) ^ (x << 1) (POPC, LOP3);
//  - bo_clz_lat: x = clz(x) ^ (x << 1) (FLO and what clz adds);
//  - bo_brev_lat: x = brev(x) ^ (x << 1) (BREV, LOP3);
//  - bo_popc64_lat: y = popc(y) ^ (y << 1) on 64 bits (two POPC and an add);
//  - bo_popc_tput: eight independent popc chains, the issue rate.
// At 32 threads (one warp), 128 (one a scheduler) and, for the rate, 1024.
// Run with `sh bench/gpu/simt/heldout.sh bitop_probe`; judged by
// tests/check_simt.py with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define BO_LAT(name, step)                                                        \
	__global__ void name(unsigned *o, long long *t, int n) {                  \
		unsigned x = threadIdx.x * 0x9e3779b9u + 12345u;                    \
		START();                                                            \
		for (int i = 0; i < n; i++) {                                       \
			_Pragma("unroll") for (int k = 0; k < 8; k++) x = step;     \
		}                                                                   \
		STOP(t);                                                            \
		o[threadIdx.x] = x;                                                 \
	}

BO_LAT(bo_add_lat, (x + 0x7f4a7c15u) ^ (x << 1))
BO_LAT(bo_popc_lat, (unsigned)__popc(x) ^ (x << 1))
BO_LAT(bo_clz_lat, (unsigned)__clz(x) ^ (x << 1))
BO_LAT(bo_brev_lat, __brev(x) ^ (x << 1))

__global__ void bo_popc64_lat(unsigned long long *o, long long *t, int n) {
	unsigned long long y = threadIdx.x * 0x9e3779b97f4a7c15ull + 12345u;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++)
			y = (unsigned long long)__popcll(y) ^ (y << 1);
	}
	STOP(t);
	o[threadIdx.x] = y;
}

__global__ void bo_popc_tput(unsigned *o, long long *t, int n) {
	unsigned x[8];
#pragma unroll
	for (int k = 0; k < 8; k++)
		x[k] = threadIdx.x * 0x9e3779b9u + 77u * k;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++)
			x[k] = (unsigned)__popc(x[k]) ^ (x[k] << 1);
	}
	STOP(t);
	unsigned s = 0;
#pragma unroll
	for (int k = 0; k < 8; k++)
		s ^= x[k];
	o[threadIdx.x] = s;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	unsigned *uo = (unsigned *)buf2;
	unsigned long long *lo = (unsigned long long *)buf2;
	for (int blk = 32; blk <= 128; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("bo_add_lat"), bo_add_lat, blk, 256, 2, "", uo, dt, nn);
		MEASURE(L("bo_popc_lat"), bo_popc_lat, blk, 256, 2, "", uo, dt, nn);
		MEASURE(L("bo_clz_lat"), bo_clz_lat, blk, 256, 2, "", uo, dt, nn);
		MEASURE(L("bo_brev_lat"), bo_brev_lat, blk, 256, 2, "", uo, dt, nn);
		MEASURE(L("bo_popc64_lat"), bo_popc64_lat, blk, 256, 2, "", lo, dt, nn);
		MEASURE(L("bo_popc_tput"), bo_popc_tput, blk, 256, 2, "", uo, dt, nn);
	}
	MEASURE("bo_popc_tput/1024", bo_popc_tput, 1024, 256, 2, "", uo, dt, nn);
	return 0;
}
