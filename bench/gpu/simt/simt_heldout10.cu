// simt_heldout10.cu: the tenth held-out set, tensor-core tiles as an
// sm_80+ GEMM's main loop runs them, to judge this session's instructions
// (cp.async, ldmatrix, mma.sync on the tensor pipe) together in realistic
// loops. Written, and the model's predictions committed
// (tests/fixtures/simt/heldout10/predicted.jsonl), before the first
// measurement. Each warp computes a 16x32 slice of C = A B from a 64x32
// tile of A and a 32x64 tile of B (16-bit elements) in shared memory:
// per iteration one ldmatrix.x4 of A, four ldmatrix.x2.trans of B and four
// mma.sync m16n8k16 (f32 accumulators).
//  - tc_tile_loop: the tiles written once before the loop;
//  - tc_pipe_loop: the tiles copied from global memory each iteration with
//    16-byte cp.async into two buffers (the next while this one is used),
//    cp.async.wait_group 1 and a barrier before the ldmatrix, another after;
//  - tc_pipe_k2_loop: the same with two k-steps (two A and eight B
//    fragments, eight mma) an iteration.
// At 128 and 256 threads (4 and 8 warps; the 8 warps split the 64 columns
// of B in two). Same method as the other held-out sets (loop_host.cuh):
// one block, clock64() around the loop, (T(2n) - T(n)) / n; run with
// `sh bench/gpu/simt/heldout.sh simt_heldout10`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define AROW 40   // A tile row: 32 halves + 8 of padding (80 bytes)
#define BROW 72   // B tile row: 64 halves + 8 of padding (144 bytes)

__device__ __forceinline__ unsigned sptr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void ldsm_x4(unsigned a, unsigned &r0, unsigned &r1, unsigned &r2, unsigned &r3) {
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
}
__device__ __forceinline__ void ldsm_x2t(unsigned a, unsigned &r0, unsigned &r1) {
	asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
}
__device__ __forceinline__ void mma16816(float *c, unsigned a0, unsigned a1, unsigned a2, unsigned a3, unsigned b0,
                                         unsigned b1) {
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
	             "{%0,%1,%2,%3};"
	             : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
	             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// one k-step of 16 of a warp's slice: rows m0.., columns n0.. (32)
__device__ __forceinline__ void kstep(const unsigned short *As, const unsigned short *Bs, int m0, int n0, int ks,
                                      int lane, float c[4][4]) {
	unsigned a0, a1, a2, a3;
	ldsm_x4(sptr(&As[(m0 + (lane & 15)) * AROW + ks + (lane >> 4) * 8]), a0, a1, a2, a3);
#pragma unroll
	for (int j = 0; j < 4; j++) {
		unsigned b0, b1;
		ldsm_x2t(sptr(&Bs[(ks + (lane & 15)) * BROW + n0 + j * 8]), b0, b1);
		mma16816(c[j], a0, a1, a2, a3, b0, b1);
	}
}

__device__ __forceinline__ float csum(float c[4][4]) {
	float s = 0;
	for (int j = 0; j < 4; j++) s += c[j][0] + c[j][1] + c[j][2] + c[j][3];
	return s;
}

__global__ void tc_tile_loop(float *o, long long *t, int n) {
	__shared__ __align__(16) unsigned short As[64 * AROW], Bs[32 * BROW];
	int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
	for (int k = tid; k < 64 * AROW; k += blockDim.x) As[k] = (unsigned short)(k & 1023);
	for (int k = tid; k < 32 * BROW; k += blockDim.x) Bs[k] = (unsigned short)(k & 1023);
	float c[4][4] = {};
	int m0 = (warp & 3) * 16, n0 = (warp >> 2) * 32;
	START();
	for (int i = 0; i < n; i++)
		kstep(As, Bs, m0, n0, (i & 1) * 16, lane, c);
	STOP(t);
	o[tid] = csum(c);
}

// the tiles of iteration i: A rows of 32 halves and B rows of 64, from a
// 64 KiB region of global memory, in 16-byte chunks (A: 256, B: 256)
__device__ __forceinline__ void stage(unsigned short *As, unsigned short *Bs, const unsigned short *g, int i,
                                      int tid, int nb) {
	for (int ch = tid; ch < 512; ch += nb) {
		if (ch < 256) {
			int r = ch >> 2, q = ch & 3;
			__pipeline_memcpy_async(&As[r * AROW + q * 8], &g[((i * 4096) + ch * 8) & 32767], 16);
		} else {
			int b = ch - 256, r = b >> 3, q = b & 7;
			__pipeline_memcpy_async(&Bs[r * BROW + q * 8], &g[((i * 4096) + ch * 8) & 32767], 16);
		}
	}
	__pipeline_commit();
}

__global__ void tc_pipe_loop(const unsigned short *g, float *o, long long *t, int n) {
	__shared__ __align__(16) unsigned short As[2][64 * AROW], Bs[2][32 * BROW];
	int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, nb = blockDim.x;
	float c[4][4] = {};
	int m0 = (warp & 3) * 16, n0 = (warp >> 2) * 32;
	stage(As[0], Bs[0], g, 0, tid, nb);
	START();
	for (int i = 0; i < n; i++) {
		stage(As[(i + 1) & 1], Bs[(i + 1) & 1], g, i + 1, tid, nb);
		__pipeline_wait_prior(1);
		__syncthreads();
		kstep(As[i & 1], Bs[i & 1], m0, n0, 0, lane, c);
		__syncthreads();
	}
	STOP(t);
	o[tid] = csum(c);
}

__global__ void tc_pipe_k2_loop(const unsigned short *g, float *o, long long *t, int n) {
	__shared__ __align__(16) unsigned short As[2][64 * AROW], Bs[2][32 * BROW];
	int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, nb = blockDim.x;
	float c[4][4] = {};
	int m0 = (warp & 3) * 16, n0 = (warp >> 2) * 32;
	stage(As[0], Bs[0], g, 0, tid, nb);
	START();
	for (int i = 0; i < n; i++) {
		stage(As[(i + 1) & 1], Bs[(i + 1) & 1], g, i + 1, tid, nb);
		__pipeline_wait_prior(1);
		__syncthreads();
		kstep(As[i & 1], Bs[i & 1], m0, n0, 0, lane, c);
		kstep(As[i & 1], Bs[i & 1], m0, n0, 16, lane, c);
		__syncthreads();
	}
	STOP(t);
	o[tid] = csum(c);
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	const unsigned short *hb = (const unsigned short *)buf;
	for (int blk = 128; blk <= 256; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("tc_tile_loop"), tc_tile_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("tc_pipe_loop"), tc_pipe_loop, blk, 256, 3, "", hb, (float *)buf2, dt, nn);
		MEASURE(L("tc_pipe_k2_loop"), tc_pipe_k2_loop, blk, 256, 3, "", hb, (float *)buf2, dt, nn);
	}
	return 0;
}
