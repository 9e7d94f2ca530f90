// l1age_probe.cu: does a line stay in the L1 however long it waits there?
// Under ncu the loops near the L1's capacity hit more where their rounds
// of the data take less time: l1edge_probe's le_f106 (1.06 of the L1)
// hits 39% at 128 threads and 85% at 512, which goes round its data four
// times faster; held-out 19's list ranking hits 5% at 128 threads and 100%
// at 512. Here loops cycle through half and 0.8 of the L1, well inside it,
// with D dependent FFMAs on each value before the next load, so that a
// round of the data takes from a few thousand cycles to about a million:
// if lines aged out of the L1 with time, the slow loops would miss.
// Each thread reads a float4 an iteration at (i * blockDim + tid) mod F,
// F float4 in all (l1edge_probe's loop):
//  - la_f50_d0, la_f50_d256, la_f50_d1024: F = 7,680 (120 KiB, half of an
//    L1 of 240 KiB), D = 0, 256 and 1024;
//  - la_f80_d0, la_f80_d1024: F = 12,288 (192 KiB, 0.8 of it).
// At 128 and 512 threads. Run with `sh bench/gpu/simt/heldout.sh
// l1age_probe`, its L1 counters with `sh bench/gpu/simt/l1stats.sh
// l1age_probe la_`; judged by tests/check_simt.py with the other probes.
// Same method as the held-out sets (loop_host.cuh).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define LA_KERNEL(NAME, F, D)                                                               \
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

LA_KERNEL(la_f50_d0, 7680u, 0)
LA_KERNEL(la_f50_d256, 7680u, 256)
LA_KERNEL(la_f50_d1024, 7680u, 1024)
LA_KERNEL(la_f80_d0, 12288u, 0)
LA_KERNEL(la_f80_d1024, 12288u, 1024)

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
		int n50 = 2 * 7680 / blk, n80 = 2 * 12288 / blk;
		MEASURE(L("la_f50_d0"), la_f50_d0, blk, n50, 3, "", ab, ob, dt, nn);
		MEASURE(L("la_f50_d256"), la_f50_d256, blk, n50, 3, "", ab, ob, dt, nn);
		MEASURE(L("la_f50_d1024"), la_f50_d1024, blk, n50, 3, "", ab, ob, dt, nn);
		MEASURE(L("la_f80_d0"), la_f80_d0, blk, n80, 3, "", ab, ob, dt, nn);
		MEASURE(L("la_f80_d1024"), la_f80_d1024, blk, n80, 3, "", ab, ob, dt, nn);
	}
	return 0;
}
