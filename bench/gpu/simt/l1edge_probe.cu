// l1edge_probe.cu: the L1's hit rate when a loop cycles through a little
// more data than the L1 holds, against how fast it goes. Under ncu the
// loops at the L1's edge hit far more at 512 threads than at 128 with the
// same data: held-out 21's thomas_loop 42% and 79%, held-out 14's
// kahan_sum_loop 47% and 76% (bench/gpu/simt/l1stats_show.py), where the
// model's reuse distance is the same at both sizes. The larger block also
// goes round its data 4 to 5 times faster. Each thread reads a float4 an
// iteration at (i * blockDim + tid) mod F, F float4 in all, and adds it
// into a sum after D dependent FFMAs on it (the time an iteration takes):
//  - le_f88_d0, le_f88_d64: F = 13,824 (216 KiB, 0.9 of an L1 of 240 KiB),
//    D = 0 and 64;
//  - le_f106_d0, le_f106_d16, le_f106_d64: F = 16,320 (255 KiB, 1.06 of
//    it), D = 0, 16 and 64;
//  - le_f133_d0: F = 20,480 (320 KiB, 1.33 of it), D = 0.
// At 128 and 512 threads. Run with `sh bench/gpu/simt/heldout.sh
// l1edge_probe`, its L1 counters with `sh bench/gpu/simt/l1stats.sh
// l1edge_probe le_`; judged by tests/check_simt.py with the other probes.
// Same method as the held-out sets (loop_host.cuh).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define LE_KERNEL(NAME, F, D)                                                               \
__global__ void NAME(const float4 *a, float *o, long long *t, int n) {                      \
	int tid = threadIdx.x, nb = blockDim.x;                                             \
	float s = 0.0f;                                                                     \
	START();                                                                            \
	for (int i = 0; i < n; i++) {                                                       \
		float4 x = a[(unsigned)(i * nb + tid) % (F)];                               \
		float v = (x.x + x.y) + (x.z + x.w);                                        \
		_Pragma("unroll") for (int k = 0; k < (D); k++)                             \
			v = fmaf(v, 0.999f, 0.001f);                                        \
		s += v;                                                                     \
	}                                                                                   \
	STOP(t);                                                                            \
	o[tid] = s;                                                                         \
}

LE_KERNEL(le_f88_d0, 13824u, 0)
LE_KERNEL(le_f88_d64, 13824u, 64)
LE_KERNEL(le_f106_d0, 16320u, 0)
LE_KERNEL(le_f106_d16, 16320u, 16)
LE_KERNEL(le_f106_d64, 16320u, 64)
LE_KERNEL(le_f133_d0, 20480u, 0)

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	const float4 *ab = (const float4 *)buf;
	float *ob = (float *)buf2;
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		// n: at least two rounds of the data at n
		int n = 2 * 20480 / blk;
		MEASURE(L("le_f88_d0"), le_f88_d0, blk, n, 3, "", ab, ob, dt, nn);
		MEASURE(L("le_f88_d64"), le_f88_d64, blk, n, 3, "", ab, ob, dt, nn);
		MEASURE(L("le_f106_d0"), le_f106_d0, blk, n, 3, "", ab, ob, dt, nn);
		MEASURE(L("le_f106_d16"), le_f106_d16, blk, n, 3, "", ab, ob, dt, nn);
		MEASURE(L("le_f106_d64"), le_f106_d64, blk, n, 3, "", ab, ob, dt, nn);
		MEASURE(L("le_f133_d0"), le_f133_d0, blk, n, 3, "", ab, ob, dt, nn);
	}
	return 0;
}
