// atoms2_probe.cu: a blind test of the model atoms_probe.cu's figures
// gave (a shared atomic's lanes that name one word go one at a time: 2
// cycles of the shared unit a lane past the first for a CAS, 1 for an add
// of anything but 1, 0.25 for an add of 1), on operations and shapes that
// probe did not measure: exchange, max, an add of each lane's own value,
// a float add, a CAS that swaps for one lane a round (a lock's taking),
// and histograms whose bins collide by chance. Each loop: n iterations of
// four independent atomics (throughput), or of one whose result the next
// address waits for (latency, "_lat"); k lanes share a word. Run with
// `sh bench/gpu/simt/heldout.sh atoms2_probe`; the model's predictions
// were committed before the run (probes/atoms2_probe_predicted.jsonl, and
// the model's before the charge, atoms2_probe_predicted_before.jsonl);
// judged by tests/check_simt.py with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;
// the word of lane l of warp w when k lanes share one: each warp has 32
// words of its own
#define WORD(K) ((threadIdx.x >> 5) * 32 + (threadIdx.x & 31) / (K))
// four independent atomics OP an iteration, k lanes on a word
#define TPUT(NAME, K, T, OP) \
__global__ void NAME(int *out, long long *t, int n) { \
	__shared__ T w[1024]; \
	w[threadIdx.x] = 0; \
	int a = WORD(K); \
	T v = (T)(threadIdx.x & 31) + 2; \
	START(); \
	for (int i = 0; i < n; i++) { \
		OP(&w[a], v); \
		OP(&w[a], v + 1); \
		OP(&w[a], v + 2); \
		OP(&w[a], v + 3); \
	} \
	STOP(t); \
	out[threadIdx.x] = (int)w[threadIdx.x]; \
}
TPUT(exch_k4, 4, int, atomicExch)
TPUT(exch_k32, 32, int, atomicExch)
TPUT(max_k32, 32, int, atomicMax)
TPUT(addv_k8, 8, int, atomicAdd)
TPUT(addv_k32, 32, int, atomicAdd)
TPUT(addf_k32, 32, float, atomicAdd)
// an exchange whose result the next address waits for (the results are
// below 2^30: the shift is 0, which the compiler cannot know)
__global__ void exch_lat_k32(int *out, long long *t, int n) {
	__shared__ int w[1024];
	w[threadIdx.x] = 0;
	int a = WORD(32), z = 0;
	START();
	for (int i = 0; i < n; i++)
		z = atomicExch(&w[a + (z >> 30)], i);
	STOP(t);
	out[threadIdx.x] = z + w[threadIdx.x];
}
// every lane of a warp tries to move the warp's counter on from the value
// it read: one CAS swaps a round, the others fail (a lock's taking)
__global__ void cas_swap_k32(int *out, long long *t, int n) {
	__shared__ int w[32];
	if ((threadIdx.x & 31) == 0) w[threadIdx.x >> 5] = 0;
	__syncthreads();
	volatile int *c = &w[threadIdx.x >> 5];
	int s = 0;
	START();
	for (int i = 0; i < n; i++) {
		int v = *c;
		s += atomicCAS((int *)c, v, v + 1) == v;
	}
	STOP(t);
	out[threadIdx.x] = s;
}
// a histogram of 32 bins per warp: each lane's bin a hash of its thread
// and the iteration, so that lanes collide by chance (add of 1, and of
// the lane's weight)
#define HIST(NAME, BINS, W) \
__global__ void NAME(int *out, long long *t, int n) { \
	__shared__ int h[1024]; \
	h[threadIdx.x] = 0; \
	int base = (threadIdx.x >> 5) * 32; \
	START(); \
	for (int i = 0; i < n; i++) { \
		unsigned x = (threadIdx.x * 0x9e3779b9u) ^ ((unsigned)i * 0x85ebca6bu); \
		x ^= x >> 15; x *= 0x2c1b3c6du; x ^= x >> 12; \
		atomicAdd(&h[base + (x & (BINS - 1))], W); \
	} \
	STOP(t); \
	out[threadIdx.x] = h[threadIdx.x]; \
}
HIST(hist8_inc, 8, 1)
HIST(hist8_w, 8, (int)(threadIdx.x & 7) + 2)
HIST(hist32_inc, 32, 1)
// ---- host ----
#include "loop_host.cuh"
int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 32; blk <= 1024; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("exch_k4"), exch_k4, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("exch_k32"), exch_k32, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("max_k32"), max_k32, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("addv_k8"), addv_k8, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("addv_k32"), addv_k32, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("addf_k32"), addf_k32, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("exch_lat_k32"), exch_lat_k32, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("cas_swap_k32"), cas_swap_k32, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("hist8_inc"), hist8_inc, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("hist8_w"), hist8_w, blk, 256, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("hist32_inc"), hist32_inc, blk, 256, 2, "", (int *)buf2, dt, nn);
	}
	return 0;
}
