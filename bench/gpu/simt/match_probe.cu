// match_probe.cu: what __match_any_sync (SASS MATCH.ANY) costs on the
// H100 (held-out 12's match_hist_loop 1117 cycles an iteration at 128
// threads and 1600 at 512, 281 and 315 predicted: the simulator gives
// match.any a shuffle's latency, 24, and issue, one a cycle an SM), and
// whether that cost grows with k, the number of distinct values (groups)
// in the warp. Each loop: n iterations; within one, steps unrolled, each
// match waiting for the last through its result. A step's next value is
// v = base + (peers >> 31), base = lane % K (a LEA.HI from the match's
// result): the lanes whose group holds lane 31 add 1, so the groups, and
// k = K, stay the same step after step, but ptxas cannot know it. Run
// with `sh bench/gpu/simt/heldout.sh match_probe`; judged by
// tests/check_simt.py with the probes.
//  - ma_lat_kK (K 1, 2, 4, 8, 32): one dependent chain of MATCH.ANY, 8 a
//    loop iteration (the latency of a match and a LEA.HI);
//  - ma_tput_kK (K 1, 32): four independent chains a warp interleaved,
//    4 steps each, 16 MATCH.ANY an iteration (issue, not latency, at 512
//    threads);
//  - mall_lat: ma_lat's chain with __match_all_sync (MATCH.ALL, k = 1), 8
//    an iteration;
//  - shfl_lat: the same chain shape with __shfl_xor_sync (SHFL.BFLY, a
//    cost the model knows), 8 an iteration;
//  - mh_kK (K 1, 8, 32): match_hist_loop's step, one byte a step, 4 an
//    iteration: MATCH.ANY, then the group's leader (lane ==
//    __ffs(peers) - 1) adds __popc(peers) to a shared histogram word
//    h[(v + i) & 255] (a RED, no result; all warps on the same K words),
//    the next value from the match as above: 4 MATCH.ANY and 4 atomics an
//    iteration, K lanes of the warp in each atomic.
// At 32 and 512 threads (mall_lat at 32 only); ma_lat_k1 and ma_lat_k32
// also at 128 (a warp an SM sub-partition): 25 loops.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;
template <int K> __device__ __forceinline__ void ma_lat(int *g, long long *t, int n) {
	unsigned lane = threadIdx.x & 31, base = lane % K, v = base;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int s = 0; s < 8; s++) {
			unsigned peers = __match_any_sync(0xffffffffu, v);
			v = base + (peers >> 31);
		}
	}
	STOP(t);
	g[threadIdx.x] = v;
}
__global__ void ma_lat_k1(int *g, long long *t, int n) { ma_lat<1>(g, t, n); }
__global__ void ma_lat_k2(int *g, long long *t, int n) { ma_lat<2>(g, t, n); }
__global__ void ma_lat_k4(int *g, long long *t, int n) { ma_lat<4>(g, t, n); }
__global__ void ma_lat_k8(int *g, long long *t, int n) { ma_lat<8>(g, t, n); }
__global__ void ma_lat_k32(int *g, long long *t, int n) { ma_lat<32>(g, t, n); }
template <int K> __device__ __forceinline__ void ma_tput(int *g, long long *t, int n) {
	unsigned lane = threadIdx.x & 31, b0 = lane % K, b1 = b0 + 64, b2 = b0 + 128, b3 = b0 + 192;
	unsigned v0 = b0, v1 = b1, v2 = b2, v3 = b3;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int s = 0; s < 4; s++) {
			unsigned p0 = __match_any_sync(0xffffffffu, v0);
			unsigned p1 = __match_any_sync(0xffffffffu, v1);
			unsigned p2 = __match_any_sync(0xffffffffu, v2);
			unsigned p3 = __match_any_sync(0xffffffffu, v3);
			v0 = b0 + (p0 >> 31);
			v1 = b1 + (p1 >> 31);
			v2 = b2 + (p2 >> 31);
			v3 = b3 + (p3 >> 31);
		}
	}
	STOP(t);
	g[threadIdx.x] = v0 + v1 + v2 + v3;
}
__global__ void ma_tput_k1(int *g, long long *t, int n) { ma_tput<1>(g, t, n); }
__global__ void ma_tput_k32(int *g, long long *t, int n) { ma_tput<32>(g, t, n); }
__global__ void mall_lat(int *g, long long *t, int n) {
	unsigned v = 0;
	int pred;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int s = 0; s < 8; s++) {
			unsigned m = __match_all_sync(0xffffffffu, v, &pred);
			v = (m >> 31);
		}
	}
	STOP(t);
	g[threadIdx.x] = v;
}
__global__ void shfl_lat(int *g, long long *t, int n) {
	unsigned lane = threadIdx.x & 31, v = lane;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int s = 0; s < 8; s++) {
			unsigned x = __shfl_xor_sync(0xffffffffu, v, 1);
			v = lane + (x >> 31);
		}
	}
	STOP(t);
	g[threadIdx.x] = v;
}
template <int K> __device__ __forceinline__ void mh(int *g, long long *t, int n) {
	__shared__ unsigned h[256];
	// + threadIdx.y (0): without it ptxas proves v warp-uniform at K = 1
	// and aggregates the atomic (VOTEU.ANY, UPOPC, one lane)
	unsigned lane = threadIdx.x & 31, base = lane % K + threadIdx.y, v = base;
	for (int k = threadIdx.x; k < 256; k += blockDim.x)
		h[k] = 0;
	START();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int s = 0; s < 4; s++) {
			unsigned peers = __match_any_sync(0xffffffffu, v);
			if (lane == __ffs(peers) - 1)
				atomicAdd(&h[(v + i) & 255], (unsigned)__popc(peers));
			v = base + (peers >> 31);
		}
	}
	STOP(t);
	g[threadIdx.x] = v + h[threadIdx.x & 255];
}
__global__ void mh_k1(int *g, long long *t, int n) { mh<1>(g, t, n); }
__global__ void mh_k8(int *g, long long *t, int n) { mh<8>(g, t, n); }
__global__ void mh_k32(int *g, long long *t, int n) { mh<32>(g, t, n); }
// ---- host ----
#include "loop_host.cuh"
int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 32; blk <= 512; blk *= 16) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("ma_lat_k1"), ma_lat_k1, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ma_lat_k2"), ma_lat_k2, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ma_lat_k4"), ma_lat_k4, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ma_lat_k8"), ma_lat_k8, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ma_lat_k32"), ma_lat_k32, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ma_tput_k1"), ma_tput_k1, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ma_tput_k32"), ma_tput_k32, blk, 64, 2, "", (int *)buf2, dt, nn);
		if (blk == 32)
			MEASURE(L("mall_lat"), mall_lat, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("shfl_lat"), shfl_lat, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("mh_k1"), mh_k1, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("mh_k8"), mh_k8, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("mh_k32"), mh_k32, blk, 64, 2, "", (int *)buf2, dt, nn);
	}
	{
		int blk = 128;
		MEASURE(L("ma_lat_k1"), ma_lat_k1, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("ma_lat_k32"), ma_lat_k32, blk, 64, 2, "", (int *)buf2, dt, nn);
	}
	return 0;
}
