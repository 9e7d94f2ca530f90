// local2_probe.cu: local stores that write their sectors in part. Since
// 19140bf a local store takes the SM's write path a cycle a sector, as
// local_probe measured for whole sectors, but without the turn a global
// store takes for each line written in part (l2st_probe), chosen by held-
// out 18's isort8_loop alone (+4% without the turn, +24% with). Each
// thread's array of 32 words (written before the loop), 16 stores an
// iteration at a run-time offset, every lane at the same one:
//  - lc2_all: every lane stores (4 sectors, whole: local_probe's case);
//  - lc2_even: the even lanes store (4 sectors, each half written);
//  - lc2_one: lane 0 alone stores (1 sector, a word of it);
//  - lc2_half: lanes 0 to 15 store (2 sectors, whole).
// At 128 and 512 threads. Run with `sh bench/gpu/simt/heldout.sh
// local2_probe`; judged by tests/check_simt.py with the other probes. Same
// method as the held-out sets (loop_host.cuh).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// COND(lane): the lanes that store
#define L2_KERNEL(NAME, COND)                                                               \
__global__ void NAME(unsigned *o, long long *t, int n) {                                    \
	unsigned a[32];                                                                     \
	unsigned lane = threadIdx.x & 31;                                                   \
	for (int k = 0; k < 32; k++)                                                        \
		a[k] = (unsigned)k * 7u + threadIdx.x;                                      \
	bool on = COND(lane);                                                               \
	START();                                                                            \
	for (int i = 0; i < n; i++) {                                                       \
		if (on) {                                                                   \
			_Pragma("unroll") for (int k = 0; k < 16; k++)                      \
				a[(i * 3 + k * 2) & 31] = (unsigned)(i + k);                \
		}                                                                           \
	}                                                                                   \
	STOP(t);                                                                            \
	unsigned s = 0;                                                                     \
	for (int k = 0; k < 32; k++)                                                        \
		s += a[k] * (unsigned)(k + 1);                                              \
	o[threadIdx.x] = s;                                                                 \
}

#define C_ALL(l) ((l) < 32u)
#define C_EVEN(l) (((l) & 1u) == 0u)
#define C_ONE(l) ((l) == 0u)
#define C_HALF(l) ((l) < 16u)

L2_KERNEL(lc2_all, C_ALL)
L2_KERNEL(lc2_even, C_EVEN)
L2_KERNEL(lc2_one, C_ONE)
L2_KERNEL(lc2_half, C_HALF)

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	unsigned *ob = (unsigned *)buf2;
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("lc2_all"), lc2_all, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("lc2_even"), lc2_even, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("lc2_one"), lc2_one, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("lc2_half"), lc2_half, blk, 256, 2, "", ob, dt, nn);
	}
	return 0;
}
