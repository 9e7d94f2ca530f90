// conv_probe.cu: the issue rate of conversions and wide multiplies, which
// the model charges as ALU (conversions) and IMAD (multiplies) instructions
// while held-out 15's bilinear_resize_loop (26 conversions an iteration)
// and philox_dropout_loop (19 IMAD.WIDE.U32) came out 26% to 32% fast at
// 512 threads. The Programming Guide's throughput table gives 16 results a
// cycle per SM for "all other type conversions" on compute capability 9.0.
// Eight independent chains a thread, n iterations:
//  - cv_i2f: u += c; acc += (float)u (cvt.rn.f32.u32: I2FP.F32.U32);
//  - cv_i2f_s: the same from a signed int (I2FP.F32.S32);
//  - cv_f2i: f += 1.25; acc ^= (int)f (cvt.rzi.s32.f32: F2I.TRUNC.NTZ);
//  - cv_f2u_rn: acc += (unsigned)rintf(f) (cvt.rni.u32.f32: F2I.U32);
//  - mul_wide: u = hi(u * c) ^ lo(u * c) (one IMAD.WIDE.U32 and a LOP3);
//  - mul_lo: u = u * c + k (IMAD), the multiply's baseline;
//  - prmt: u = __byte_perm(u, v, 0x5140) ^ k (PRMT).
// At 128 threads (one warp a scheduler) and 1024 (eight). Run with
// `sh bench/gpu/simt/heldout.sh conv_probe`; judged by tests/check_simt.py
// with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__global__ void cv_i2f(float *o, long long *t, int n) {
	unsigned u[8];
	float acc[8];
#pragma unroll
	for (int k = 0; k < 8; k++) {
		u[k] = threadIdx.x * 8u + k;
		acc[k] = 0.0f;
	}
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++) {
			u[k] += 0x9e3779b9u;
			acc[k] += (float)u[k];
		}
	}
	STOP(t);
	float s = 0.0f;
#pragma unroll
	for (int k = 0; k < 8; k++)
		s += acc[k];
	o[threadIdx.x] = s;
}

__global__ void cv_i2f_s(float *o, long long *t, int n) {
	int u[8];
	float acc[8];
#pragma unroll
	for (int k = 0; k < 8; k++) {
		u[k] = (int)threadIdx.x * 8 + k;
		acc[k] = 0.0f;
	}
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++) {
			u[k] += 0x1e3779b9;
			acc[k] += (float)u[k];
		}
	}
	STOP(t);
	float s = 0.0f;
#pragma unroll
	for (int k = 0; k < 8; k++)
		s += acc[k];
	o[threadIdx.x] = s;
}

__global__ void cv_f2i(int *o, long long *t, int n) {
	float f[8];
	int acc[8];
#pragma unroll
	for (int k = 0; k < 8; k++) {
		f[k] = threadIdx.x * 0.5f + k;
		acc[k] = 0;
	}
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++) {
			f[k] += 1.25f;
			acc[k] ^= (int)f[k];
		}
	}
	STOP(t);
	int s = 0;
#pragma unroll
	for (int k = 0; k < 8; k++)
		s ^= acc[k];
	o[threadIdx.x] = s;
}

__global__ void cv_f2u_rn(unsigned *o, long long *t, int n) {
	float f[8];
	unsigned acc[8];
#pragma unroll
	for (int k = 0; k < 8; k++) {
		f[k] = threadIdx.x * 0.5f + k;
		acc[k] = 0;
	}
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++) {
			f[k] += 1.25f;
			acc[k] ^= __float2uint_rn(f[k]);
		}
	}
	STOP(t);
	unsigned s = 0;
#pragma unroll
	for (int k = 0; k < 8; k++)
		s ^= acc[k];
	o[threadIdx.x] = s;
}

__global__ void mul_wide(unsigned *o, long long *t, int n) {
	unsigned u[8];
#pragma unroll
	for (int k = 0; k < 8; k++)
		u[k] = threadIdx.x * 8u + k + 1u;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++)
			u[k] = __umulhi(u[k], 0xd2511f53u) ^ (u[k] * 0xd2511f53u);
	}
	STOP(t);
	unsigned s = 0;
#pragma unroll
	for (int k = 0; k < 8; k++)
		s ^= u[k];
	o[threadIdx.x] = s;
}

__global__ void mul_lo(unsigned *o, long long *t, int n) {
	unsigned u[8];
#pragma unroll
	for (int k = 0; k < 8; k++)
		u[k] = threadIdx.x * 8u + k + 1u;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++)
			u[k] = u[k] * 0xd2511f53u + (unsigned)k;
	}
	STOP(t);
	unsigned s = 0;
#pragma unroll
	for (int k = 0; k < 8; k++)
		s ^= u[k];
	o[threadIdx.x] = s;
}

__global__ void prmt(unsigned *o, long long *t, int n) {
	unsigned u[8];
#pragma unroll
	for (int k = 0; k < 8; k++)
		u[k] = threadIdx.x * 0x01010101u + k;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++)
			u[k] = __byte_perm(u[k], u[(k + 1) & 7], 0x5140) ^ (unsigned)(k + 1);
	}
	STOP(t);
	unsigned s = 0;
#pragma unroll
	for (int k = 0; k < 8; k++)
		s ^= u[k];
	o[threadIdx.x] = s;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	float *fo = (float *)buf2;
	int *io = (int *)buf2;
	unsigned *uo = (unsigned *)buf2;
	for (int blk = 128; blk <= 1024; blk *= 8) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("cv_i2f"), cv_i2f, blk, 256, 2, "", fo, dt, nn);
		MEASURE(L("cv_i2f_s"), cv_i2f_s, blk, 256, 2, "", fo, dt, nn);
		MEASURE(L("cv_f2i"), cv_f2i, blk, 256, 2, "", io, dt, nn);
		MEASURE(L("cv_f2u_rn"), cv_f2u_rn, blk, 256, 2, "", uo, dt, nn);
		MEASURE(L("mul_wide"), mul_wide, blk, 256, 2, "", uo, dt, nn);
		MEASURE(L("mul_lo"), mul_lo, blk, 256, 2, "", uo, dt, nn);
		MEASURE(L("prmt"), prmt, blk, 256, 2, "", uo, dt, nn);
	}
	return 0;
}
