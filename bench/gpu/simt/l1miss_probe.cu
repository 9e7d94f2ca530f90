// l1miss_probe.cu: how many bytes a cycle one SM draws from L2 through
// loads that allocate in the L1 and miss it. l2bw_probe.cu showed the SM
// draws 95..118 B a cycle with loads that bypass the L1 (ld.global.cg),
// while the fourth held-out set's double-precision dot product, whose
// plain loads miss an L1 too small for its 512 KiB, got ~51 at 512 threads.
// The same loops as l2bw_probe.cu with plain loads over a 1 MiB region
// (L2-resident, every access an L1 capacity miss, each line
// touched again within the first n iterations at 128 threads, so that the
// difference of T(2n) and T(n) holds no first touches); run with
// `sh bench/gpu/simt/heldout.sh l1miss_probe`, judged by tests/check_simt.py
// with the other probes (tests/fixtures/simt/probes/). Same method as the
// held-out sets (loop_host.cuh): one block, clock64() around the loop,
// (T(2n) - T(n)) / n.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// 4 independent 8-byte loads per thread per iteration (a warp: 4 x 256 B)
__global__ void l1miss_ld64(const double *a, double *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i * 4 * nb + tid) & 131071;
		s0 += a[k];
		s1 += a[(k + nb) & 131071];
		s2 += a[(k + 2 * nb) & 131071];
		s3 += a[(k + 3 * nb) & 131071];
	}
	STOP(t);
	o[tid] = s0 + s1 + s2 + s3;
}

// 2 independent 16-byte loads per thread per iteration (a warp: 2 x 512 B)
__global__ void l1miss_ld128(const float4 *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float s0 = 0, s1 = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = (i * 2 * nb + tid) & 65535;
		float4 x = a[k], y = a[(k + nb) & 65535];
		s0 += x.x + x.y + x.z + x.w;
		s1 += y.x + y.y + y.z + y.w;
	}
	STOP(t);
	o[tid] = s0 + s1;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 1024; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("l1miss_ld64"), l1miss_ld64, blk, 256, 3, "", (const double *)buf, (double *)buf2, dt, nn);
		MEASURE(L("l1miss_ld128"), l1miss_ld128, blk, 256, 3, "", (const float4 *)buf, (float *)buf2, dt, nn);
	}
	return 0;
}
