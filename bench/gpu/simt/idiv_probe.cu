// idiv_probe.cu: what PTX's integer division and remainder by a register
// cost. ptxas expands rem.u32 into about fifteen instructions (I2F.U32.RP,
// MUFU.RCP, F2I, IMAD.HI, two conditional corrections: the fifth held-out
// set's compact_loop, tests/fixtures/simt/heldout5/simt_heldout5.sm_90.sass)
// and 64-bit division into a call; the timing model took each as one IMAD,
// and compact_loop came out 53% to 60% fast. A chain through the quotient
// or remainder with a divisor that changes every iteration (the whole
// expansion on the chain), one with a divisor the loop does not change
// (ptxas can keep the reciprocal out of the loop), signed division, 64-bit
// division, four independent chains per thread (the issue cost, at many
// warps), and the IEEE single-precision division, square root and
// reciprocal and double-precision division and square root, which ptxas
// expands too. Run with `sh bench/gpu/simt/heldout.sh idiv_probe`, judged
// by tests/check_simt.py with the other probes (tests/fixtures/simt/probes/).
// Same method as the held-out sets (loop_host.cuh): one block, clock64()
// around the loop, (T(2n) - T(n)) / n; values from indices only.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// unsigned remainder, the divisor from the chain (3 to 18)
__global__ void rem_var(unsigned *o, long long *t, int n) {
	unsigned x = threadIdx.x * 2654435761u;
	START();
	for (int i = 0; i < n; i++) {
		unsigned d = 3u + ((x ^ (unsigned)i) & 15u);
		x = x % d + x * 3u + (unsigned)i;
	}
	STOP(t);
	o[threadIdx.x] = x;
}

// unsigned remainder by a divisor the loop does not change (a parameter)
__global__ void rem_inv(unsigned *o, long long *t, int n, unsigned d) {
	unsigned x = threadIdx.x * 2654435761u;
	START();
	for (int i = 0; i < n; i++)
		x = (x % d) * 7u + x + (unsigned)i;
	STOP(t);
	o[threadIdx.x] = x;
}

// signed quotient, the divisor from the chain
__global__ void div_var_s32(int *o, long long *t, int n) {
	int x = (int)(threadIdx.x * 2654435761u);
	START();
	for (int i = 0; i < n; i++) {
		int d = 3 + ((x ^ i) & 15);
		x = x / d + x * 3 + i;
	}
	STOP(t);
	o[threadIdx.x] = x;
}

// unsigned 64-bit quotient, the divisor from the chain
__global__ void div_var_u64(unsigned long long *o, long long *t, int n) {
	unsigned long long x = threadIdx.x * 0x9e3779b97f4a7c15ull;
	START();
	for (int i = 0; i < n; i++) {
		unsigned long long d = 3u + ((x ^ (unsigned long long)i) & 15u);
		x = x / d + x * 3u + (unsigned long long)i;
	}
	STOP(t);
	o[threadIdx.x] = x;
}

// four independent chains like rem_var's per thread: the issue cost
__global__ void rem_var4(unsigned *o, long long *t, int n) {
	unsigned x0 = threadIdx.x * 2654435761u, x1 = x0 + 1u, x2 = x0 + 2u, x3 = x0 + 3u;
	START();
	for (int i = 0; i < n; i++) {
		unsigned u = (unsigned)i;
		x0 = x0 % (3u + ((x0 ^ u) & 15u)) + x0 * 3u + u;
		x1 = x1 % (3u + ((x1 ^ u) & 15u)) + x1 * 3u + u;
		x2 = x2 % (3u + ((x2 ^ u) & 15u)) + x2 * 3u + u;
		x3 = x3 % (3u + ((x3 ^ u) & 15u)) + x3 * 3u + u;
	}
	STOP(t);
	o[threadIdx.x] = x0 + x1 + x2 + x3;
}

// IEEE single-precision division (div.rn.f32: MUFU.RCP, FFMA refinements,
// FCHK and a call for the hard cases) on a chain
__global__ void fdiv_chain(float *o, long long *t, int n) {
	float x = 1.0f + (float)threadIdx.x * 0.001f;
	START();
	for (int i = 0; i < n; i++)
		x = x / (1.5f + (float)(i & 7)) + 0.25f;
	STOP(t);
	o[threadIdx.x] = x;
}

// IEEE single-precision square root (sqrt.rn.f32: MUFU.RSQ, a range test
// and a call for the hard cases, FMUL/FFMA refinement) on a chain
__global__ void fsqrt_chain(float *o, long long *t, int n) {
	float x = 1.0f + (float)threadIdx.x * 0.001f;
	START();
	for (int i = 0; i < n; i++)
		x = sqrtf(x + 2.0f);
	STOP(t);
	o[threadIdx.x] = x;
}

// IEEE single-precision reciprocal (rcp.rn.f32, what 1.0f / x is without
// fast math) on a chain
__global__ void frcp_chain(float *o, long long *t, int n) {
	float x = 1.0f + (float)threadIdx.x * 0.001f;
	START();
	for (int i = 0; i < n; i++)
		x = 1.0f / (x + 1.5f);
	STOP(t);
	o[threadIdx.x] = x;
}

// double-precision division (div.rn.f64: MUFU.RCP64H, DFMA refinement, a
// call for hard cases) on a chain
__global__ void ddiv_chain(double *o, long long *t, int n) {
	double x = 1.0 + (double)threadIdx.x * 0.001;
	START();
	for (int i = 0; i < n; i++)
		x = x / (1.5 + (double)(i & 7)) + 0.25;
	STOP(t);
	o[threadIdx.x] = x;
}

// double-precision square root (sqrt.rn.f64: MUFU.RSQ64H, DFMA refinement)
// on a chain
__global__ void dsqrt_chain(double *o, long long *t, int n) {
	double x = 1.0 + (double)threadIdx.x * 0.001;
	START();
	for (int i = 0; i < n; i++)
		x = sqrt(x + 2.0);
	STOP(t);
	o[threadIdx.x] = x;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 32; blk <= 1024; blk *= blk == 32 ? 4 : 8) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("rem_var"), rem_var, blk, 256, 2, "", (unsigned *)buf2, dt, nn);
		MEASURE(L("rem_inv"), rem_inv, blk, 256, 2, "3=7", (unsigned *)buf2, dt, nn, 7u);
		MEASURE(L("div_var_s32"), div_var_s32, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("div_var_u64"), div_var_u64, blk, 256, 2, "", (unsigned long long *)buf2, dt, nn);
		MEASURE(L("rem_var4"), rem_var4, blk, 256, 2, "", (unsigned *)buf2, dt, nn);
		MEASURE(L("fdiv_chain"), fdiv_chain, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("fsqrt_chain"), fsqrt_chain, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("frcp_chain"), frcp_chain, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("ddiv_chain"), ddiv_chain, blk, 256, 2, "", (double *)buf2, dt, nn);
		MEASURE(L("dsqrt_chain"), dsqrt_chain, blk, 256, 2, "", (double *)buf2, dt, nn);
	}
	return 0;
}
