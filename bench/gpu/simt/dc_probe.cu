// dc_probe.cu: where digit_count_loop's cycles go (simt_heldout3.cu; the
// simulator predicts it 49% too fast at 128 threads). The same loop with
// parts removed, measured as simt_heldout3.cu measures it ((T(2n) - T(n)) / n,
// best of 5): dc_full (the loop itself), dc_bars (its three barriers only),
// dc_no_serial (without the 16-thread total), dc_serial_only (the total
// without the zeroing and the atomics), dc_serial_fixed (the total over a
// constant 4 warps: no trip-count dispatch). A probe, not a held-out set:
// run by `sh bench/gpu/simt/heldout.sh dc_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__global__ void dc_full(unsigned *o, long long *t, int n) {
	__shared__ unsigned cnt[32][16];
	__shared__ unsigned tot[16];
	int tid = threadIdx.x, w = tid >> 5, nw = blockDim.x >> 5;
	if (tid < 16) tot[tid] = 0;
	START();
	for (int i = 0; i < n; i++) {
		if ((tid & 31) < 16) cnt[w][tid & 15] = 0;
		__syncthreads();
		unsigned key = (unsigned)(tid + i * 977) * 2654435761u;
		atomicAdd(&cnt[w][(key >> 12) & 15], 1u);
		__syncthreads();
		if (tid < 16) {
			unsigned s = 0;
			for (int k = 0; k < nw; k++) s += cnt[k][tid];
			tot[tid] += s;
		}
		__syncthreads();
	}
	STOP(t);
	if (tid < 16) o[tid] = tot[tid];
}

__global__ void dc_bars(unsigned *o, long long *t, int n) {
	START();
	for (int i = 0; i < n; i++) {
		__syncthreads();
		__syncthreads();
		__syncthreads();
	}
	STOP(t);
	o[threadIdx.x] = 0;
}

__global__ void dc_no_serial(unsigned *o, long long *t, int n) {
	__shared__ unsigned cnt[32][16];
	int tid = threadIdx.x, w = tid >> 5;
	START();
	for (int i = 0; i < n; i++) {
		if ((tid & 31) < 16) cnt[w][tid & 15] = 0;
		__syncthreads();
		unsigned key = (unsigned)(tid + i * 977) * 2654435761u;
		atomicAdd(&cnt[w][(key >> 12) & 15], 1u);
		__syncthreads();
		__syncthreads();
	}
	STOP(t);
	if (tid < 16) o[tid] = cnt[0][tid];
}

__global__ void dc_serial_only(unsigned *o, long long *t, int n) {
	__shared__ unsigned cnt[32][16];
	__shared__ unsigned tot[16];
	int tid = threadIdx.x, nw = blockDim.x >> 5;
	if ((tid & 31) < 16) cnt[tid >> 5][tid & 15] = tid;
	if (tid < 16) tot[tid] = 0;
	START();
	for (int i = 0; i < n; i++) {
		__syncthreads();
		__syncthreads();
		if (tid < 16) {
			unsigned s = 0;
			for (int k = 0; k < nw; k++) s += cnt[k][tid];
			tot[tid] += s;
		}
		__syncthreads();
	}
	STOP(t);
	if (tid < 16) o[tid] = tot[tid];
}

__global__ void dc_serial_fixed(unsigned *o, long long *t, int n) {
	__shared__ unsigned cnt[32][16];
	__shared__ unsigned tot[16];
	int tid = threadIdx.x;
	if ((tid & 31) < 16) cnt[tid >> 5][tid & 15] = tid;
	if (tid < 16) tot[tid] = 0;
	START();
	for (int i = 0; i < n; i++) {
		__syncthreads();
		__syncthreads();
		if (tid < 16) {
			unsigned s = 0;
#pragma unroll
			for (int k = 0; k < 4; k++) s += cnt[k][tid];
			tot[tid] += s;
		}
		__syncthreads();
	}
	STOP(t);
	if (tid < 16) o[tid] = tot[tid];
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 128; blk <= 512; blk *= 2) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("dc_full"), dc_full, blk, 256, 2, "", (unsigned *)buf2, dt, nn);
		MEASURE(L("dc_bars"), dc_bars, blk, 256, 2, "", (unsigned *)buf2, dt, nn);
		MEASURE(L("dc_no_serial"), dc_no_serial, blk, 256, 2, "", (unsigned *)buf2, dt, nn);
		MEASURE(L("dc_serial_only"), dc_serial_only, blk, 256, 2, "", (unsigned *)buf2, dt, nn);
		MEASURE(L("dc_serial_fixed"), dc_serial_fixed, blk, 256, 2, "", (unsigned *)buf2, dt, nn);
	}
	return 0;
}
