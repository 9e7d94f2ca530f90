// mma_probe.cu: what a warp-level mma.sync costs on the tensor cores, for
// the simulator's tensor pipe (latency.mma_*, throughput.mma_*_issue in
// arch/sm_90.yaml). Before it, `ptxray simt` timed mma as an integer
// instruction (predictions committed before the first measurement:
// tests/fixtures/simt/probes/mma_probe_predicted.jsonl). Per kind (f16
// inputs with f32 accumulators, m16n8k16; bf16, m16n8k16; tf32, m16n8k8;
// s8, m16n8k32; f64, m8n8k4):
//  - mma_lat_KIND: one warp, each mma accumulating into the last one's
//    result: the latency;
//  - mma_tput_KIND: 8 independent accumulators an iteration, at 32, 128
//    and 512 threads: the issue rate of one scheduler and of the SM.
// Same method as the held-out sets (loop_host.cuh): one block, clock64()
// around the loop, (T(2n) - T(n)) / n; run with
// `sh bench/gpu/simt/heldout.sh mma_probe`, judged by tests/check_simt.py
// with the other probes (tests/fixtures/simt/probes/).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// D = A B + C with four 32-bit accumulator registers (f32 or s32)
#define MMA4(op, c, a0, a1, a2, a3, b0, b1) \
	asm volatile(op " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" \
	             : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3]) \
	             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1))
#define MMA_F16 "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
#define MMA_BF16 "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
#define MMA_TF32 "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"
#define MMA_S8 "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"

#define LAT_KERNEL(name, op) \
__global__ void name(unsigned *o, long long *t, int n) { \
	unsigned a = threadIdx.x * 0x3c003c00u, b = 0x3c003c00u, c[4] = {0, 0, 0, 0}; \
	START(); \
	for (int i = 0; i < n; i++) \
		MMA4(op, c, a, a, a, a, b, b); \
	STOP(t); \
	o[threadIdx.x] = c[0] ^ c[1] ^ c[2] ^ c[3]; \
}
#define TPUT_KERNEL(name, op) \
__global__ void name(unsigned *o, long long *t, int n) { \
	unsigned a = threadIdx.x * 0x3c003c00u, b = 0x3c003c00u, c[8][4] = {}; \
	START(); \
	for (int i = 0; i < n; i++) { \
		_Pragma("unroll") for (int k = 0; k < 8; k++) \
			MMA4(op, c[k], a, a, a, a, b, b); \
	} \
	STOP(t); \
	unsigned x = 0; \
	for (int k = 0; k < 8; k++) x ^= c[k][0] ^ c[k][1] ^ c[k][2] ^ c[k][3]; \
	o[threadIdx.x] = x; \
}
LAT_KERNEL(mma_lat_f16, MMA_F16)
TPUT_KERNEL(mma_tput_f16, MMA_F16)
LAT_KERNEL(mma_lat_bf16, MMA_BF16)
TPUT_KERNEL(mma_tput_bf16, MMA_BF16)
LAT_KERNEL(mma_lat_tf32, MMA_TF32)
TPUT_KERNEL(mma_tput_tf32, MMA_TF32)
LAT_KERNEL(mma_lat_s8, MMA_S8)
TPUT_KERNEL(mma_tput_s8, MMA_S8)

// f64: m8n8k4, two 64-bit accumulators, one 64-bit A and B register
__global__ void mma_lat_f64(double *o, long long *t, int n) {
	double a = threadIdx.x * 0.5, b = 1.0, c0 = 0, c1 = 0;
	START();
	for (int i = 0; i < n; i++)
		asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
		             : "+d"(c0), "+d"(c1) : "d"(a), "d"(b));
	STOP(t);
	o[threadIdx.x] = c0 + c1;
}

__global__ void mma_tput_f64(double *o, long long *t, int n) {
	double a = threadIdx.x * 0.5, b = 1.0, c[8][2] = {};
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 8; k++)
			asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
			             : "+d"(c[k][0]), "+d"(c[k][1]) : "d"(a), "d"(b));
	}
	STOP(t);
	double x = 0;
	for (int k = 0; k < 8; k++) x += c[k][0] + c[k][1];
	o[threadIdx.x] = x;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	unsigned *ob = (unsigned *)buf2;
	int blk = 32;
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
	MEASURE(L("mma_lat_f16"), mma_lat_f16, blk, 256, 2, "", ob, dt, nn);
	MEASURE(L("mma_lat_bf16"), mma_lat_bf16, blk, 256, 2, "", ob, dt, nn);
	MEASURE(L("mma_lat_tf32"), mma_lat_tf32, blk, 256, 2, "", ob, dt, nn);
	MEASURE(L("mma_lat_s8"), mma_lat_s8, blk, 256, 2, "", ob, dt, nn);
	MEASURE(L("mma_lat_f64"), mma_lat_f64, blk, 256, 2, "", (double *)buf2, dt, nn);
	for (blk = 32; blk <= 512; blk *= 4) {
		MEASURE(L("mma_tput_f16"), mma_tput_f16, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("mma_tput_bf16"), mma_tput_bf16, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("mma_tput_tf32"), mma_tput_tf32, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("mma_tput_s8"), mma_tput_s8, blk, 256, 2, "", ob, dt, nn);
		MEASURE(L("mma_tput_f64"), mma_tput_f64, blk, 256, 2, "", (double *)buf2, dt, nn);
	}
	return 0;
}
