// simt_heldout5.cu: the fifth held-out set for `ptxray simt`'s timing model,
// on control flow. The taken-branch wait per warp of a scheduler
// (latency.branch_redirect) and the predicate feeders through a copy
// (2026-11-26) were fitted on probes (rd_probe, bt_probe, div_probe); these
// loops branch as kernels do, at 128 to 1024 threads (one to eight warps a
// scheduler), and were written, and the model's predictions for them
// committed (tests/fixtures/simt/heldout5/predicted.jsonl), before their
// first measurement. Same method as simt_heldout4.cu (one block, clock64()
// around the loop between __syncthreads(), T(n) and T(2n), five launches;
// bench/gpu/simt/loop_host.cuh); tests/check_simt.py simulates
// tests/fixtures/simt/heldout5/simt_heldout5.sm_90.ptx (this file through
// `nvcc -ptx -arch=sm_90 -O3 -lineinfo`) and reports the set apart
// ("held-out 5"). Addresses and branches depend on indices only, never on
// the data (which the simulator does not know).
//
// The loops: a binary search in a shared table, a clipped sum with an
// if/else per lane, a stencil with boundary tests, warps that skip work in
// turn, a warp-level stream compaction, and a four-way switch per lane.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// lower-bound search of a key the thread and iteration choose in a sorted
// table of 512 ints in shared memory (nine halvings, a dependent chain of
// shared loads)
__global__ void bsearch_loop(int *o, long long *t, int n) {
	__shared__ int tab[512];
	int tid = threadIdx.x;
	for (int j = tid; j < 512; j += blockDim.x)
		tab[j] = 4 * j + (j & 3);
	int found = 0;
	START();
	for (int i = 0; i < n; i++) {
		int key = (tid * 37 + i * 101) & 2047;
		int lo = 0, hi = 512;
		while (lo < hi) {
			int mid = (lo + hi) >> 1;
			if (tab[mid] < key)
				lo = mid + 1;
			else
				hi = mid;
		}
		found += lo;
	}
	STOP(t);
	o[tid] = found;
}

// a sum over a global stream where each lane takes one side of an if/else
// by a pattern of its index and the iteration
__global__ void clip_sum_loop(const float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float acc = 0.0f;
	int cnt = 0;
	START();
	for (int i = 0; i < n; i++) {
		float x = a[i * blockDim.x + tid];
		float v = (float)((tid * 7 + i * 3) & 15) - 7.5f;
		if (v > 0.0f) {
			acc += v * x;
			cnt++;
		} else {
			acc -= 0.5f * x;
		}
	}
	STOP(t);
	o[tid] = acc + (float)cnt;
}

// a three-point stencil over a row of the block's width per iteration,
// with the row's ends tested (only the first and the last lane of the block
// take the other side)
__global__ void edge_stencil_loop(const float *a, float *o, long long *t, int n) {
	int tid = threadIdx.x;
	int w = blockDim.x;
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		const float *row = a + i * w;
		float c = row[tid];
		float l = tid > 0 ? row[tid - 1] : c;
		float r = tid < w - 1 ? row[tid + 1] : c;
		acc += 0.25f * l + 0.5f * c + 0.25f * r;
	}
	STOP(t);
	o[tid] = acc;
}

// one warp in four, a different one each iteration, skips the work (a
// warp-uniform forward branch taken by some warps of a scheduler)
__global__ void skip_work_loop(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float x = (float)tid * 0.001f, y = 1.0f;
	START();
	for (int i = 0; i < n; i++) {
		if (((i + (tid >> 5)) & 3) == 0)
			continue;
		x = fmaf(x, 0.999f, y);
		y = fmaf(y, 0.998f, x);
		x = fmaf(x, 1.001f, -y);
		y = fmaf(y, 1.002f, x);
		x = fmaf(x, 0.997f, 0.5f);
		y = fmaf(y, 0.996f, -0.25f);
	}
	STOP(t);
	o[tid] = x + y;
}

// warp-level stream compaction: the lanes whose element passes write it to
// their warp's slice of shared memory at the rank a ballot gives them, and
// every lane reads one kept element back
__global__ void compact_loop(float *o, long long *t, int n) {
	__shared__ float keep[1024];
	int tid = threadIdx.x, lane = tid & 31, base = tid & ~31;
	float acc = 0.0f;
	START();
	for (int i = 0; i < n; i++) {
		float v = (float)(tid + i);
		bool pass = ((tid * 5 + i * 3) % 7) < 3;
		unsigned ballot = __ballot_sync(0xffffffffu, pass);
		int rank = __popc(ballot & ((1u << lane) - 1u));
		if (pass)
			keep[base + rank] = v;
		__syncwarp();
		int count = __popc(ballot);
		if (count)
			acc += keep[base + lane % count];
		__syncwarp();
	}
	STOP(t);
	o[tid] = acc;
}

// a four-way switch on a pattern of the lane and the iteration (an
// interpreter's dispatch: each warp runs up to four of the cases)
__global__ void switch_loop(float *o, long long *t, int n) {
	int tid = threadIdx.x;
	float x = 1.0f + (float)tid * 0.01f;
	START();
	for (int i = 0; i < n; i++) {
		switch ((tid + (i >> 1)) & 3) {
		case 0: x = x * 1.0001f + 0.5f; break;
		case 1: x = x * x * 0.25f + 1.0f; break;
		case 2: x = __fsqrt_rn(x + 2.0f); break;
		default: x = x - 0.125f * (float)(i & 7); break;
		}
	}
	STOP(t);
	o[tid] = x;
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	float *fb = (float *)buf;
	char l[64];
	for (int blk = 128; blk <= 1024; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("bsearch_loop"), bsearch_loop, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("clip_sum_loop"), clip_sum_loop, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("edge_stencil_loop"), edge_stencil_loop, blk, 256, 3, "", fb, (float *)buf2, dt, nn);
		MEASURE(L("skip_work_loop"), skip_work_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("compact_loop"), compact_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
		MEASURE(L("switch_loop"), switch_loop, blk, 256, 2, "", (float *)buf2, dt, nn);
	}
	return 0;
}
