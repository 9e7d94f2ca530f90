// red_probe.cu: the L2 atomic unit's cost of a warp's RED (atomicAdd whose
// result is unused) by how its lanes fall on words and sectors. The model
// (gatoms_probe) charges one turn per 32-byte sector for the most lanes on
// one of its words, summed, and one for the instruction: gatoms_probe's
// 32 lanes on 32 words of a line 5 cycles a warp's RED, on one word 32,
// but 4 lanes on each of 8 words of one sector 8 (5 charged). Lane l of
// warp w adds to word 256 w + (l / K) S: K lanes a word, S words apart
// (S = 1: packed, K = 4 is one sector; S = 8: a sector a word), four
// independent adds an iteration:
//  - red_kK_sS for (K, S) = (1,1), (2,1), (4,1), (8,1), (16,1), (32,1),
//    (1,8), (2,8), (4,8).
// At 128 and 512 threads. Run with `sh bench/gpu/simt/heldout.sh
// red_probe`; judged by tests/check_simt.py with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define RED(NAME, K, S)                                                              \
__global__ void NAME(int *g, long long *t, int n) {                                  \
	int a = (threadIdx.x >> 5) * 256 + ((threadIdx.x & 31) / (K)) * (S);         \
	int v = (threadIdx.x & 31) + 2;                                              \
	START();                                                                     \
	for (int i = 0; i < n; i++) {                                                \
		atomicAdd(&g[a], v);                                                 \
		atomicAdd(&g[a], v + 1);                                             \
		atomicAdd(&g[a], v + 2);                                             \
		atomicAdd(&g[a], v + 3);                                             \
	}                                                                            \
	STOP(t);                                                                     \
}
RED(red_k1_s1, 1, 1)
RED(red_k2_s1, 2, 1)
RED(red_k4_s1, 4, 1)
RED(red_k8_s1, 8, 1)
RED(red_k16_s1, 16, 1)
RED(red_k32_s1, 32, 1)
RED(red_k1_s8, 1, 8)
RED(red_k2_s8, 2, 8)
RED(red_k4_s8, 4, 8)

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	int *g = (int *)buf2;
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("red_k1_s1"), red_k1_s1, blk, 256, 2, "", g, dt, nn);
		MEASURE(L("red_k2_s1"), red_k2_s1, blk, 256, 2, "", g, dt, nn);
		MEASURE(L("red_k4_s1"), red_k4_s1, blk, 256, 2, "", g, dt, nn);
		MEASURE(L("red_k8_s1"), red_k8_s1, blk, 256, 2, "", g, dt, nn);
		MEASURE(L("red_k16_s1"), red_k16_s1, blk, 128, 2, "", g, dt, nn);
		MEASURE(L("red_k32_s1"), red_k32_s1, blk, 128, 2, "", g, dt, nn);
		MEASURE(L("red_k1_s8"), red_k1_s8, blk, 128, 2, "", g, dt, nn);
		MEASURE(L("red_k2_s8"), red_k2_s8, blk, 128, 2, "", g, dt, nn);
		MEASURE(L("red_k4_s8"), red_k4_s8, blk, 256, 2, "", g, dt, nn);
	}
	return 0;
}
