// l2sec_probe.cu: how many sectors a cycle one SM moves to and from L2 when
// a warp's access spreads over many sectors and lines, the limit that
// held-out 20's cg_axpy64_loop (fp64 loads and stores at a 32-byte
// stride: 32 sectors on 8 lines an instruction) and held-out 4's
// gather_loop (32 lines an instruction) ran into at 512 threads, 45% and
// 40% slower than the timing model, which moves lsu_sectors (4) a cycle,
// the L1-hit rate. l2bw_probe's loads of 8 and 16 bytes a lane (8 and 16
// sectors on 2 and 4 lines) reached 3.0 and 3.7 a cycle at 1024 threads.
// Four independent accesses a thread an iteration from a 4 MiB region that
// stays in L2 (larger than any L1), the index in l2bw_probe's form
// ((i & 15) ...: ptxas keeps the loads in flight); each kind at 128 to
// 1024 threads:
//  - l2s_co4: 4 bytes a lane, coalesced (4 sectors, 1 line), ld.global.cg;
//  - l2s_st32: 8 bytes a lane at a 32-byte stride (32 sectors, 8 lines),
//    ld.global.cg;
//  - l2s_st32_ca: the same with plain loads (the L1 allocates, and misses);
//  - l2s_st128: 4 bytes a lane at a 128-byte stride (32 sectors, 32
//    lines), ld.global.cg;
//  - l2s_stw32: 8-byte stores at a 32-byte stride (32 sectors, 8 lines);
//  - l2s_stw8: 8-byte stores, coalesced (8 sectors, 2 lines).
// Run with `sh bench/gpu/simt/heldout.sh l2sec_probe`; judged by
// tests/check_simt.py with the other probes (tests/fixtures/simt/probes/).
// Same method as the held-out sets (loop_host.cuh): one block, clock64()
// around the loop, (T(2n) - T(n)) / n.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// 4 MiB: 1 Mi floats, 512 Ki doubles
#define F_MASK ((1 << 20) - 1)
#define D_MASK ((1 << 19) - 1)

__global__ void l2s_co4(const float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) & F_MASK;
		s0 += __ldcg(a + k);
		s1 += __ldcg(a + ((k + nb) & F_MASK));
		s2 += __ldcg(a + ((k + 2 * nb) & F_MASK));
		s3 += __ldcg(a + ((k + 3 * nb) & F_MASK));
	}
	STOP(t);
	o[tid] = s0 + s1 + s2 + s3;
}

// element 4 k: a 32-byte stride
__global__ void l2s_st32(const double *a, double *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) * 4;
		s0 += __ldcg(a + (k & D_MASK));
		s1 += __ldcg(a + ((k + 4 * nb) & D_MASK));
		s2 += __ldcg(a + ((k + 8 * nb) & D_MASK));
		s3 += __ldcg(a + ((k + 12 * nb) & D_MASK));
	}
	STOP(t);
	o[tid] = s0 + s1 + s2 + s3;
}

__global__ void l2s_st32_ca(const double *a, double *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) * 4;
		s0 += a[k & D_MASK];
		s1 += a[(k + 4 * nb) & D_MASK];
		s2 += a[(k + 8 * nb) & D_MASK];
		s3 += a[(k + 12 * nb) & D_MASK];
	}
	STOP(t);
	o[tid] = s0 + s1 + s2 + s3;
}

// element 32 k: a 128-byte stride
__global__ void l2s_st128(const float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) * 32;
		s0 += __ldcg(a + (k & F_MASK));
		s1 += __ldcg(a + ((k + 32 * nb) & F_MASK));
		s2 += __ldcg(a + ((k + 64 * nb) & F_MASK));
		s3 += __ldcg(a + ((k + 96 * nb) & F_MASK));
	}
	STOP(t);
	o[tid] = s0 + s1 + s2 + s3;
}

__global__ void l2s_stw32(double *a, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	double v = tid;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) * 4;
		a[k & D_MASK] = v;
		a[(k + 4 * nb) & D_MASK] = v + 1.0;
		a[(k + 8 * nb) & D_MASK] = v + 2.0;
		a[(k + 12 * nb) & D_MASK] = v + 3.0;
		v += 4.0;
	}
	STOP(t);
}

__global__ void l2s_stw8(double *a, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x;
	double v = tid;
	START();
	for (int i = 0; i < n; i++) {
		int k = ((i & 15) * 4 * nb + tid) & D_MASK;
		a[k] = v;
		a[(k + nb) & D_MASK] = v + 1.0;
		a[(k + 2 * nb) & D_MASK] = v + 2.0;
		a[(k + 3 * nb) & D_MASK] = v + 3.0;
		v += 4.0;
	}
	STOP(t);
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 1024; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("l2s_co4"), l2s_co4, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
		MEASURE(L("l2s_st32"), l2s_st32, blk, 256, 3, "", (const double *)buf, (double *)buf2, dt, nn);
		MEASURE(L("l2s_st32_ca"), l2s_st32_ca, blk, 256, 3, "", (const double *)buf, (double *)buf2, dt, nn);
		MEASURE(L("l2s_st128"), l2s_st128, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
		MEASURE(L("l2s_stw32"), l2s_stw32, blk, 256, 2, "", (double *)buf2, dt, nn);
		MEASURE(L("l2s_stw8"), l2s_stw8, blk, 256, 2, "", (double *)buf2, dt, nn);
	}
	return 0;
}
