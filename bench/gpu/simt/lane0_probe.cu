// lane0_probe.cu: where a lane's shared atomic in a branch of its own
// spends the ~130 cycles the model does not give it (lockparts_probe's
// uncontended lock 203 to 212 cycles a handover, its parts' latencies
// about 80; held-out 11's compaction 52% to 55% fast). Each loop: n
// iterations, the next waiting for the last through the atomic's result
// where there is one. Run with `sh bench/gpu/simt/heldout.sh lane0_probe`;
// judged by tests/check_simt.py with the probes.
//  - l0_add: lane 0 alone adds to a shared counter, the warp gets the
//    result by a shuffle (compaction's pattern, a branch and no loop);
//  - all_add: every lane adds to a word of its own, no branch;
//  - l0_cas_exch: lane 0 alone takes and gives back a lock, no spin loop;
//  - all_spin: every lane takes and gives back a lock of its own in a spin
//    loop (YIELD, no divergence: each lock is free);
//  - l0_spin: lane 0 alone does the same (lockparts_probe's handover
//    without the fence and the counter).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;
__global__ void l0_add(int *g, long long *t, int n) {
	__shared__ int cnt[32];
	int lane = threadIdx.x & 31, w = threadIdx.x >> 5, z = 0;
	if (lane == 0) cnt[w] = 0;
	START();
	for (int i = 0; i < n; i++) {
		int pos = 0;
		if (lane == 0)
			pos = atomicAdd(&cnt[w + (z >> 30)], 3);
		z = __shfl_sync(0xffffffffu, pos, 0);
	}
	STOP(t);
	g[threadIdx.x] = z;
}
__global__ void all_add(int *g, long long *t, int n) {
	__shared__ int cnt[1024];
	int z = 0;
	cnt[threadIdx.x] = 0;
	START();
	for (int i = 0; i < n; i++)
		z = atomicAdd(&cnt[threadIdx.x + (z >> 30)], 3);
	STOP(t);
	g[threadIdx.x] = z;
}
__global__ void l0_cas_exch(int *g, long long *t, int n) {
	__shared__ int lock[32];
	int lane = threadIdx.x & 31, w = threadIdx.x >> 5, z = 0;
	if (lane == 0) lock[w] = 0;
	START();
	if (lane == 0)
		for (int i = 0; i < n; i++) {
			z = atomicCAS(&lock[w + (z >> 30)], 0, 1);
			atomicExch(&lock[w], 0);
		}
	STOP(t);
	g[threadIdx.x] = z;
}
__global__ void all_spin(int *g, long long *t, int n) {
	__shared__ int lock[1024];
	lock[threadIdx.x] = 0;
	START();
	for (int i = 0; i < n; i++) {
		while (atomicCAS(&lock[threadIdx.x], 0, 1) != 0)
			;
		atomicExch(&lock[threadIdx.x], 0);
	}
	STOP(t);
	g[threadIdx.x] = lock[threadIdx.x];
}
__global__ void l0_spin(int *g, long long *t, int n) {
	__shared__ int lock[32];
	int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
	if (lane == 0) lock[w] = 0;
	START();
	if (lane == 0)
		for (int i = 0; i < n; i++) {
			while (atomicCAS(&lock[w], 0, 1) != 0)
				;
			atomicExch(&lock[w], 0);
		}
	STOP(t);
	g[threadIdx.x] = lock[w];
}
// ---- host ----
#include "loop_host.cuh"
int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 32; blk <= 512; blk *= 16) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("l0_add"), l0_add, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("all_add"), all_add, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("l0_cas_exch"), l0_cas_exch, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("all_spin"), all_spin, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("l0_spin"), l0_spin, blk, 64, 2, "", (int *)buf2, dt, nn);
	}
	return 0;
}
