// mix_probe.cu: whether FFMA, IMAD and the ALU's instructions go through
// pipes of their own. The model gives each its own (fp32_fma 128, imad 64,
// alu 64 lanes a cycle per SM), so a warp issues an FFMA while its IMAD
// still holds the IMAD pipe; held-out 15's philox_dropout_loop (19
// IMAD.WIDE.U32 among FMULs, LOP3s and IADD3s) came out 27% fast at 512
// threads. Sixteen independent chains a thread, n iterations, the chains'
// next values depending on another chain's (no folding across iterations):
//  - mx_ffma: 16 FFMA; mx_imad: 16 IMAD; mx_alu: 16 LOP3;
//  - mx_ffma_imad: 8 FFMA and 8 IMAD; mx_ffma_alu: 8 FFMA and 8 LOP3;
//  - mx_imad_alu: 8 IMAD and 8 LOP3.
// At 128 threads (one warp a scheduler) and 1024 (eight). Run with
// `sh bench/gpu/simt/heldout.sh mix_probe`; judged by tests/check_simt.py
// with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// F: a float chain's step, I: an integer multiply-add's, A: a logic op's
#define F(a, b) a = fmaf(a, 1.0001f, b)
#define I(a, b) a = a * m + b
#define A(a, b) a = (a ^ b) & m

#define KERNEL(NAME, S0, S1)                                                                          \
__global__ void NAME(unsigned *o, long long *t, int n, unsigned m) {                                   \
	float f[16];                                                                                  \
	unsigned u[16];                                                                               \
	_Pragma("unroll") for (int k = 0; k < 16; k++) {                                              \
		f[k] = threadIdx.x * 0.001f + k;                                                      \
		u[k] = threadIdx.x * 16u + k;                                                         \
	}                                                                                             \
	START();                                                                                      \
	for (int i = 0; i < n; i++) {                                                                 \
		_Pragma("unroll") for (int k = 0; k < 8; k++) { S0; }                                  \
		_Pragma("unroll") for (int k = 8; k < 16; k++) { S1; }                                 \
	}                                                                                             \
	STOP(t);                                                                                      \
	unsigned s = 0;                                                                               \
	_Pragma("unroll") for (int k = 0; k < 16; k++) s ^= u[k] ^ __float_as_uint(f[k]);             \
	o[threadIdx.x] = s;                                                                           \
}

KERNEL(mx_ffma, F(f[k], f[(k + 1) & 15]), F(f[k], f[(k + 1) & 15]))
KERNEL(mx_imad, I(u[k], u[(k + 1) & 15]), I(u[k], u[(k + 1) & 15]))
KERNEL(mx_alu, A(u[k], u[(k + 1) & 15]), A(u[k], u[(k + 1) & 15]))
KERNEL(mx_ffma_imad, F(f[k], f[(k + 1) & 7]), I(u[k], u[((k + 1) & 7) + 8]))
KERNEL(mx_ffma_alu, F(f[k], f[(k + 1) & 7]), A(u[k], u[((k + 1) & 7) + 8]))
KERNEL(mx_imad_alu, I(u[k], u[(k + 1) & 7]), A(u[k], u[((k + 1) & 7) + 8]))

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	unsigned *uo = (unsigned *)buf2;
	for (int blk = 128; blk <= 1024; blk *= 8) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("mx_ffma"), mx_ffma, blk, 128, 2, "3=2654435769", uo, dt, nn, 2654435769u);
		MEASURE(L("mx_imad"), mx_imad, blk, 128, 2, "3=2654435769", uo, dt, nn, 2654435769u);
		MEASURE(L("mx_alu"), mx_alu, blk, 128, 2, "3=2654435769", uo, dt, nn, 2654435769u);
		MEASURE(L("mx_ffma_imad"), mx_ffma_imad, blk, 128, 2, "3=2654435769", uo, dt, nn, 2654435769u);
		MEASURE(L("mx_ffma_alu"), mx_ffma_alu, blk, 128, 2, "3=2654435769", uo, dt, nn, 2654435769u);
		MEASURE(L("mx_imad_alu"), mx_imad_alu, blk, 128, 2, "3=2654435769", uo, dt, nn, 2654435769u);
	}
	return 0;
}
