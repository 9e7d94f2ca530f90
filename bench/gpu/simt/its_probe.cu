// its_probe.cu: code whose lanes wait for other lanes of their own warp,
// which completes under independent thread scheduling (compute capability
// 7.0 and newer: CUDA C++ Programming Guide, "Independent Thread
// Scheduling") and never under a reconvergence stack that runs one path of
// a diverged warp until it reaches the reconvergence point (the pre-Volta
// model). Run with `sh bench/gpu/simt/heldout.sh its_probe`: each kernel's
// result first (a "check" line: what every thread computed, which shows
// that the run completed and what it computed), then its loop timing by
// loop_host.cuh's MEASURE (one block, clock64() around the loop,
// (T(2n) - T(n)) / n). Judged by tests/check_simt.py with the probes
// (tests/fixtures/simt/probes/).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// a spin lock in shared memory: each thread takes it n times and adds one
// to a counter inside; the winner's lanes leave the spin loop while the
// others of its warp go round it
__global__ void its_lock_sh(int *out, long long *t, int n) {
	__shared__ int lock, counter;
	if (threadIdx.x == 0) { lock = 0; counter = 0; }
	START();
	for (int i = 0; i < n; i++) {
		while (atomicCAS(&lock, 0, 1) != 0)
			;
		volatile int *c = &counter;
		*c = *c + 1;
		__threadfence_block();
		atomicExch(&lock, 0);
	}
	STOP(t);
	if (threadIdx.x == 0) out[0] = counter;
}

// the same lock in global memory (out[1], counter out[0])
__global__ void its_lock_gl(int *out, long long *t, int n) {
	if (threadIdx.x == 0) { out[0] = 0; out[1] = 0; }
	START();
	for (int i = 0; i < n; i++) {
		while (atomicCAS(&out[1], 0, 1) != 0)
			;
		volatile int *c = &out[0];
		*c = *c + 1;
		__threadfence();
		atomicExch(&out[1], 0);
	}
	STOP(t);
}

// the lock taken with a done flag: the critical section inside the loop
// (completes under either model)
__global__ void its_lock_done(int *out, long long *t, int n) {
	__shared__ int lock, counter;
	if (threadIdx.x == 0) { lock = 0; counter = 0; }
	START();
	for (int i = 0; i < n; i++) {
		bool done = false;
		while (!done) {
			if (atomicCAS(&lock, 0, 1) == 0) {
				volatile int *c = &counter;
				*c = *c + 1;
				__threadfence_block();
				atomicExch(&lock, 0);
				done = true;
			}
		}
	}
	STOP(t);
	if (threadIdx.x == 0) out[0] = counter;
}

// lane 0 of each warp publishes step i, the other lanes wait for it
__global__ void its_flag0(int *out, long long *t, int n) {
	__shared__ volatile int flag[32];
	int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
	if (lane == 0) flag[w] = 0;
	START();
	int s = 0;
	for (int i = 1; i <= n; i++) {
		if (lane == 0)
			flag[w] = i;
		else
			while (flag[w] != i)
				;
		s += flag[w];
		__syncwarp();
	}
	STOP(t);
	out[threadIdx.x] = s;
}

// lanes 1..31 wait first in the program's order, lane 0 publishes after
__global__ void its_flag1(int *out, long long *t, int n) {
	__shared__ volatile int flag[32];
	int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
	if (lane == 0) flag[w] = 0;
	START();
	int s = 0;
	for (int i = 1; i <= n; i++) {
		if (lane != 0) {
			while (flag[w] != i)
				;
		} else {
			flag[w] = i;
		}
		s += flag[w];
		__syncwarp();
	}
	STOP(t);
	out[threadIdx.x] = s;
}

// ---- host ----
#include "loop_host.cuh"

static void check(const char *label, int block, int words) {
	int h[1024];
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(h, buf2, words * sizeof *h, cudaMemcpyDeviceToHost));
	printf("{\"check\": \"%s\", \"block\": %d, \"out\": [", label, block);
	for (int i = 0; i < words; i++)
		printf("%s%d", i ? ", " : "", h[i]);
	printf("]}\n");
	fflush(stdout);
}

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 32; blk <= 1024; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		its_lock_sh<<<1, blk>>>((int *)buf2, dt, 16); check(L("its_lock_sh"), blk, 1);
		its_lock_gl<<<1, blk>>>((int *)buf2, dt, 16); check(L("its_lock_gl"), blk, 1);
		its_lock_done<<<1, blk>>>((int *)buf2, dt, 16); check(L("its_lock_done"), blk, 1);
		its_flag0<<<1, blk>>>((int *)buf2, dt, 64); check(L("its_flag0"), blk, blk < 64 ? blk : 64);
		its_flag1<<<1, blk>>>((int *)buf2, dt, 64); check(L("its_flag1"), blk, blk < 64 ? blk : 64);
		MEASURE(L("its_lock_sh"), its_lock_sh, blk, 16, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("its_lock_gl"), its_lock_gl, blk, 16, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("its_lock_done"), its_lock_done, blk, 16, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("its_flag0"), its_flag0, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("its_flag1"), its_flag1, blk, 64, 2, "", (int *)buf2, dt, nn);
	}
	return 0;
}
