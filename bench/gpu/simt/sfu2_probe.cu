// sfu2_probe.cu: what the approximate SFU instructions cost when ptxas
// expands them for denormal inputs. Without .ftz, ex2.approx.f32 (what
// __expf compiles to), lg2.approx.f32 and rsqrt.approx.f32 (rsqrtf) are a
// sequence in SASS: FSETP tests the operand's range, a predicated FMUL
// scales it, MUFU, a predicated FMUL or FADD scales the result back; with
// .ftz they are one MUFU. The simulator timed all of them as one SFU
// instruction (latency.sfu, measured with sin.approx), and held-out 2's
// softmax and nbody, held-out 12's online softmax and layer norm, which
// use __expf and rsqrtf, came out 16% to 40% fast. Each loop: n
// iterations of 8 steps; a step is the instruction and an FFMA that keeps
// the value in range (x = op(x) * a + b), each step waiting for the last:
//  - K_lat: one chain a thread (latency: 8 steps an iteration);
//  - K_tput: four chains a thread (the issue cost at one warp, the
//    SFU's rate at 16 and 32 warps).
// K: ex2 and ex2_ftz, lg2 and lg2_ftz, rsqrt and rsqrt_ftz, sin and
// sin_ftz (the reference: the table's figure), and fma alone (the FFMA
// of each step, the rest subtracted). At 32, 512 and 1024 threads. Run
// with `sh bench/gpu/simt/heldout.sh sfu2_probe`; judged by
// tests/check_simt.py with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;
#define OP(name, asm_op) \
	__device__ __forceinline__ float name(float x) { float r; asm volatile(asm_op " %0, %1;" : "=f"(r) : "f"(x)); return r; }
OP(op_ex2, "ex2.approx.f32")
OP(op_ex2_ftz, "ex2.approx.ftz.f32")
OP(op_lg2, "lg2.approx.f32")
OP(op_lg2_ftz, "lg2.approx.ftz.f32")
OP(op_rsqrt, "rsqrt.approx.f32")
OP(op_rsqrt_ftz, "rsqrt.approx.ftz.f32")
OP(op_sin, "sin.approx.f32")
OP(op_sin_ftz, "sin.approx.ftz.f32")
__device__ __forceinline__ float op_none(float x) { return x; }
// the FFMA's constants keep each chain's value in the operand's range:
// ex2 of [-1, 0] -> [0.5, 1] -> back to [-1, 0]; lg2 and rsqrt of [1, 2]
#define LAT(K, F, A, B) \
__global__ void K##_lat(float *g, long long *t, int n) { \
	float x = g[threadIdx.x] * 0.0f + 1.5f; \
	START(); \
	for (int i = 0; i < n; i++) { \
		_Pragma("unroll") for (int k = 0; k < 8; k++) x = fmaf(F(x), A, B); \
	} \
	STOP(t); \
	g[threadIdx.x] = x; \
}
#define TPUT(K, F, A, B) \
__global__ void K##_tput(float *g, long long *t, int n) { \
	float x0 = g[threadIdx.x] * 0.0f + 1.5f, x1 = x0 + 0.125f, x2 = x0 + 0.25f, x3 = x0 + 0.375f; \
	START(); \
	for (int i = 0; i < n; i++) { \
		_Pragma("unroll") for (int k = 0; k < 8; k++) { \
			x0 = fmaf(F(x0), A, B); x1 = fmaf(F(x1), A, B); \
			x2 = fmaf(F(x2), A, B); x3 = fmaf(F(x3), A, B); \
		} \
	} \
	STOP(t); \
	g[threadIdx.x] = x0 + x1 + x2 + x3; \
}
#define BOTH(K, F, A, B) LAT(K, F, A, B) TPUT(K, F, A, B)
BOTH(ex2, op_ex2, 2.0f, -2.5f)
BOTH(ex2_ftz, op_ex2_ftz, 2.0f, -2.5f)
BOTH(lg2, op_lg2, 0.5f, 1.25f)
BOTH(lg2_ftz, op_lg2_ftz, 0.5f, 1.25f)
BOTH(rsqrt, op_rsqrt, 0.5f, 1.25f)
BOTH(rsqrt_ftz, op_rsqrt_ftz, 0.5f, 1.25f)
BOTH(sin, op_sin, 0.5f, 1.0f)
BOTH(sin_ftz, op_sin_ftz, 0.5f, 1.0f)
LAT(fma, op_none, 0.999f, 0.001f)
// ---- host ----
#include "loop_host.cuh"
int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 32; blk <= 1024; blk *= 2) {
		if (blk != 32 && blk != 512 && blk != 1024)
			continue;
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
#define M(K) MEASURE(L(#K), K, blk, 64, 2, "", (float *)buf2, dt, nn)
		M(ex2_lat); M(ex2_ftz_lat); M(lg2_lat); M(lg2_ftz_lat);
		M(rsqrt_lat); M(rsqrt_ftz_lat); M(sin_lat); M(sin_ftz_lat); M(fma_lat);
		if (blk != 32) {
			M(ex2_tput); M(ex2_ftz_tput); M(lg2_tput); M(lg2_ftz_tput);
			M(rsqrt_tput); M(rsqrt_ftz_tput); M(sin_tput); M(sin_ftz_tput);
		} else {
			M(ex2_tput); M(ex2_ftz_tput); M(rsqrt_tput); M(rsqrt_ftz_tput);
		}
	}
	return 0;
}
