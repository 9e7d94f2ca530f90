// ldgsts_probe.cu: what one cp.async (LDGSTS in SASS) costs, after
// cpasync_probe found the tiles copied 4 bytes a thread 12% to 26% faster
// in the model than on the H100 (bench/RESULTS.md, seventh session). The
// model takes a copy as a global load of its lines whose data reaches
// shared memory when the thread waits for its group. Loops:
//  - ldgsts_lat_ca4 / _ca16 / _cg16: one warp copies 4 or 16 bytes a
//    thread (from 4 KiB, in L1 for .ca; from 64 KiB; nvcc 13.0 makes every
//    16-byte __pipeline_memcpy_async a cp.async.cg, which does not
//    allocate in L1), commits and waits for the copy each iteration
//    (wait_group 0): the latency;
//  - ldgsts_burst: one warp copies 16 words a thread (16 LDGSTS from L1)
//    an iteration and then waits once: how fast one warp issues them;
//  - ldgsts_burst at 128 to 512 threads: the SM's rate.
// Same method as the held-out sets (loop_host.cuh): one block, clock64()
// around the loop, (T(2n) - T(n)) / n; run with
// `sh bench/gpu/simt/heldout.sh ldgsts_probe`, judged by tests/check_simt.py
// with the other probes (tests/fixtures/simt/probes/); predictions
// committed before the first run (probes/ldgsts_probe_predicted.jsonl).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__global__ void ldgsts_lat_ca4(const float *g, float *o, long long *t, int n) {
	__shared__ float s[1024];
	int tid = threadIdx.x;
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		__pipeline_memcpy_async(&s[tid], &g[(i * 32 + tid) & 1023], 4);
		__pipeline_commit();
		__pipeline_wait_prior(0);
		acc += s[tid];
	}
	STOP(t);
	o[tid] = acc;
}

__global__ void ldgsts_lat_ca16(const float4 *g, float *o, long long *t, int n) {
	__shared__ float4 s[256];
	int tid = threadIdx.x;
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		__pipeline_memcpy_async(&s[tid], &g[(i * 32 + tid) & 255], 16);
		__pipeline_commit();
		__pipeline_wait_prior(0);
		acc += s[tid].x;
	}
	STOP(t);
	o[tid] = acc;
}

// .cg from 64 KiB that the launches before left in L2 (not in L1: .cg
// does not allocate there)
__global__ void ldgsts_lat_cg16(const float4 *g, float *o, long long *t, int n) {
	__shared__ float4 s[256];
	int tid = threadIdx.x;
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		__pipeline_memcpy_async(&s[tid], &g[(i * 32 + tid) & 4095], 16);
		__pipeline_commit();
		__pipeline_wait_prior(0);
		acc += s[tid].x;
	}
	STOP(t);
	o[tid] = acc;
}

// 16 copies of 4 bytes a thread an iteration, one wait (each thread
// copies to words of its own: no barrier needed)
__global__ void ldgsts_burst(const float *g, float *o, long long *t, int n) {
	__shared__ float s[16 * 512];
	int tid = threadIdx.x;
	float acc = 0;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 16; k++)
			__pipeline_memcpy_async(&s[k * 512 + tid], &g[(k * 64 + tid + i * 32) & 1023], 4);
		__pipeline_commit();
		__pipeline_wait_prior(0);
		acc += s[tid];
	}
	STOP(t);
	o[tid] = acc;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	const float *fb = (const float *)buf;
	int blk = 32;
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
	MEASURE(L("ldgsts_lat_ca4"), ldgsts_lat_ca4, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
	MEASURE(L("ldgsts_lat_ca16"), ldgsts_lat_ca16, blk, 256, 3, "", (const float4 *)buf, (float *)buf2, dt, nn);
	MEASURE(L("ldgsts_lat_cg16"), ldgsts_lat_cg16, blk, 256, 3, "", (const float4 *)buf, (float *)buf2, dt, nn);
	for (blk = 32; blk <= 512; blk *= 2)
		if (blk != 64)
			MEASURE(L("ldgsts_burst"), ldgsts_burst, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
	return 0;
}
