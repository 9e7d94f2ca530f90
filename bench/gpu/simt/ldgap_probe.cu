// ldgap_probe.cu: how closely one warp's loads follow each other. At one
// warp a scheduler, shared_tput_s1 (16 conflict-free shared loads an
// iteration) takes 89.5 cycles an iteration and l1_tput (16 L1-hit line
// loads) 131.5: about 5.6 and 8.2 cycles a load, where the SM's rates
// (one shared wavefront a cycle, half of one per scheduler; 4 LSU sectors
// a cycle) allow 2 and 4. a8ef06c took it as an interval between one
// warp's loads of each kind (shared_load_interval, global_load_interval);
// these loops tested that blind (predictions committed first): per warp
// (160 threads: two warps on the first scheduler; confirmed), loads only
// (ldgap_st's 16 stores: 50% fast, so a store now takes 4 cycles of its
// scheduler's share), one interval per kind (ldgap_mix, 8 shared and 8
// global loads: 32-37% fast, so the next load of either kind now waits
// the last one's gap), other instructions in between (ldgap_fma, two
// independent FMAs per shared load). Figures: bench/RESULTS.md, sixth
// session of 2026-11-26; tests/check_simt.py's probe comments.
//
// Same method as the held-out sets (loop_host.cuh): one block, clock64()
// around the loop, (T(2n) - T(n)) / n; run with
// `sh bench/gpu/simt/heldout.sh ldgap_probe`, judged by tests/check_simt.py
// with the other probes (tests/fixtures/simt/probes/).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// 16 independent conflict-free shared loads an iteration, at addresses
// that move with the loop counter (ptxas can neither hoist nor merge them)
__global__ void ldgap_sh(int *o, long long *t, int n) {
	__shared__ int s[2048];
	for (int i = threadIdx.x; i < 2048; i += blockDim.x) s[i] = i;
	const int *p = s + (threadIdx.x & 31);
	int acc = 0;
	START();
	for (int i = 0; i < n; i++) {
		const int *q = p + (i & 3) * 512;
#pragma unroll
		for (int u = 0; u < 16; u++) acc += q[u * 32];
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

// 16 conflict-free shared stores an iteration
__global__ void ldgap_st(int *o, long long *t, int n) {
	__shared__ int s[2048];
	int *p = s + (threadIdx.x & 31);
	START();
	for (int i = 0; i < n; i++) {
		int *q = p + (i & 3) * 512;
#pragma unroll
		for (int u = 0; u < 16; u++) q[u * 32] = i + u;
	}
	STOP(t);
	__syncthreads();
	o[threadIdx.x] = s[threadIdx.x];
}

// 16 independent L1-hit line loads an iteration (every warp reads the
// same 8 KiB)
__global__ void ldgap_gl(const float *a, float *o, long long *t, int n) {
	float acc = 0;
	for (int i = threadIdx.x; i < 2048; i += blockDim.x) acc += a[i];
	const float *p = a + (threadIdx.x & 31);
	START();
	for (int i = 0; i < n; i++) {
		const float *q = p + (i & 3) * 512;
#pragma unroll
		for (int u = 0; u < 16; u++) acc += q[u * 32];
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

// 8 shared and 8 L1-hit global loads an iteration, alternating
__global__ void ldgap_mix(const float *a, float *o, long long *t, int n) {
	__shared__ float s[2048];
	float acc = 0;
	for (int i = threadIdx.x; i < 2048; i += blockDim.x) { s[i] = (float)i; acc += a[i]; }
	const float *p = a + (threadIdx.x & 31);
	const float *ps = s + (threadIdx.x & 31);
	START();
	for (int i = 0; i < n; i++) {
		const float *q = p + (i & 3) * 512, *qs = ps + (i & 3) * 512;
#pragma unroll
		for (int u = 0; u < 8; u++) acc += qs[u * 64] + q[u * 64 + 32];
	}
	STOP(t);
	o[threadIdx.x] = acc;
}

// 16 shared loads an iteration, each with two FMAs on chains of their own
// that do not wait for it
__global__ void ldgap_fma(float *o, long long *t, int n) {
	__shared__ float s[2048];
	for (int i = threadIdx.x; i < 2048; i += blockDim.x) s[i] = (float)i;
	const float *p = s + (threadIdx.x & 31);
	float acc = 0, x0 = threadIdx.x, x1 = 1.0f + threadIdx.x;
	START();
	for (int i = 0; i < n; i++) {
		const float *q = p + (i & 3) * 512;
#pragma unroll
		for (int u = 0; u < 16; u++) {
			acc += q[u * 32];
			x0 = x0 * 0.999f + 0.5f;
			x1 = x1 * 1.001f - 0.25f;
		}
	}
	STOP(t);
	o[threadIdx.x] = acc + x0 + x1;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	const int blocks[] = {32, 64, 160, 256};
	for (int bi = 0; bi < 4; bi++) {
		int blk = blocks[bi];
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("ldgap_sh"), ldgap_sh, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ldgap_st"), ldgap_st, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ldgap_gl"), ldgap_gl, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
		MEASURE(L("ldgap_mix"), ldgap_mix, blk, 256, 3, "", (const float *)buf, (float *)buf2, dt, nn);
		MEASURE(L("ldgap_fma"), ldgap_fma, blk, 256, 2, "", (float *)buf2, dt, nn);
	}
	return 0;
}
