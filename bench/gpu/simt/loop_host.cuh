// loop_host.cuh: the host side of the loop-timing programs (simt_bench.cu,
// which measure.sh runs; the held-out sets and the probes, which heldout.sh
// runs): error checks, the clock64() result read back, and MEASURE: one
// block at n and 2n iterations, five times, printed as a fixture line with
// the best of the five (T(2n) - T(n)) / n (cycles_per_iteration) and the
// fastest T(n) and T(2n) (t_n, t_2n), whose difference over n is the figure
// tests/check_simt.py judges (the best of the differences is biased low
// where a launch's time varies by more than n iterations cost), and every
// launch's T(n) and T(2n) in run order (t_n_all, t_2n_all: the spread
// between launches, which the fastest hides). Included
// after the kernels, so that their PTX line numbers do not depend on it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static long long *dt;   // the kernels' clock64() difference
static void *buf, *buf2;   // 64 MiB of zeros each for their inputs and outputs

#define CK(x) do { cudaError_t e_ = (x); if (e_) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static long long take(void) { long long h; CK(cudaDeviceSynchronize()); CK(cudaMemcpy(&h, dt, sizeof h, cudaMemcpyDeviceToHost)); return h; }

// the launches at n and at 2n: five (one pair under ncu, icount.sh's
// -DLOOP_HOST_REPS=1: instruction counts do not need the best of five;
// the ones not made print as 0)
#ifndef LOOP_HOST_REPS
#define LOOP_HOST_REPS 5
#endif

// nn is the trip count the launch arguments name
#define MEASURE(label, name, block, n, np, extra, ...) do { \
	double best = 1e30; long long m1 = -1, m2 = -1, all1[5] = {0}, all2[5] = {0}; \
	for (int r = 0; r < LOOP_HOST_REPS && r < 5; r++) { \
		int nn = n; name<<<1, block>>>(__VA_ARGS__); long long a1 = take(); \
		nn = 2 * n; name<<<1, block>>>(__VA_ARGS__); long long a2 = take(); \
		double c = (double)(a2 - a1) / n; if (c < best) best = c; \
		if (m1 < 0 || a1 < m1) m1 = a1; \
		if (m2 < 0 || a2 < m2) m2 = a2; \
		all1[r] = a1; all2[r] = a2; \
	} \
	printf("{\"loop\": \"%s\", \"kernel\": \"%s\", \"block\": %d, \"n\": %d, \"n_param\": %d, \"params\": \"%s\", " \
	       "\"cycles_per_iteration\": %.2f, \"t_n\": %lld, \"t_2n\": %lld, " \
	       "\"t_n_all\": [%lld, %lld, %lld, %lld, %lld], \"t_2n_all\": [%lld, %lld, %lld, %lld, %lld]}\n", \
	       label, #name, block, n, np, extra, best, m1, m2, all1[0], all1[1], all1[2], all1[3], all1[4], \
	       all2[0], all2[1], all2[2], all2[3], all2[4]); \
	fflush(stdout); \
} while (0)

// prints the device line and allocates dt, buf and buf2
static void loop_host_init(void) {
	cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
	int clk = 0; cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
	printf("{\"device\": \"%s\", \"cc\": \"%d.%d\", \"clock_khz\": %d}\n", p.name, p.major, p.minor, clk);
	CK(cudaMalloc(&dt, 64));
	CK(cudaMalloc(&buf, 64 << 20)); CK(cudaMemset(buf, 0, 64 << 20));
	CK(cudaMalloc(&buf2, 64 << 20)); CK(cudaMemset(buf2, 0, 64 << 20));
	CK(cudaDeviceSynchronize());
}

// fresh(): a region of a 1 GiB buffer (fresh_init allocates it) that no
// launch has read since at least 1 GiB of other regions (the L2 is 50 MB):
// its lines come from DRAM (simt_bench.cu's global_stream and dram_lat,
// l2warm_probe.cu's _cold loops; the other loops reuse buf, whose lines
// earlier launches leave in the L2)
static char *big;
static size_t bigoff;
#define BIGBYTES ((size_t)1 << 30)

static inline void fresh_init(void) {
	CK(cudaMalloc((void **)&big, BIGBYTES)); CK(cudaMemset(big, 0, BIGBYTES));
}

static inline void *fresh(size_t bytes) {
	bytes = (bytes + 4095) & ~(size_t)4095;
	if (bigoff + bytes > BIGBYTES)
		bigoff = 0;
	void *p = big + bigoff;
	bigoff += bytes;
	return p;
}
