// chain4_probe.cu: chain_probe's third follow-up, with clocks inside the
// loop. chain_probe measured cs_link (lane 0 of warp w polls warp w - 1's
// flag with a volatile load, LDG.E.64.STRONG.SYS, and publishes its own with
// a volatile store) at 86 cycles a step at 64 and 128 threads, while
// chain3_probe's link_preset, the same step polling a word set before the
// loop, takes 361 to 382 (one trip to the L2 a step): a step cannot be
// shorter than its poll's load, so a poll of a flag another warp of the SM
// has just published comes back sooner than a poll of an old one. Here each
// lane 0 records, for every step, the clock before its first poll (a),
// before the poll that saw the flag (la), after it (b), and the number of
// polls (spins), into a trace the host writes to $OUT/chain4_trace.jsonl;
// from it: each warp's step, each successful poll's latency, and the lag
// from warp w - 1's publish to warp w's seeing it.
//  - tr_link: cs_link with the clocks (64, 128 and 512 threads);
//  - tr_preset: link_preset with the clocks (every poll finds its flag);
//  - tr_slow0: tr_link with warp 0 (which never polls) running a chain of
//    32 dependent FFMAs before each publish: do the others keep its pace?
//  - tr_plain: tr_link with the publish a plain store (STG.E.64): does the
//    near service need the strong store?
// The loops also through MEASURE (their cycles an iteration with the
// clocks in them). Run with `sh bench/gpu/simt/heldout.sh chain4_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

// the step of warp w (lane 0): poll flags[i * nw + src] until set, record,
// publish flags[i * nw + dst]; tr holds 4 clocks a step, relative to t0
#define STEP(POLL, PUBLISH) \
	long long a = clock64(), la = a; unsigned spins = 0; \
	if (POLL) { \
		volatile unsigned long long *f = flags + (size_t)i * nw + src; \
		unsigned long long fv; \
		do { la = clock64(); fv = *f; spins++; } while ((fv >> 32) == 0ull); \
		prefix = (unsigned)fv; \
	} \
	long long b = clock64(); \
	PUBLISH; \
	long long *r = tr + ((size_t)w * n + i) * 4; \
	r[0] = a - t0; r[1] = la - t0; r[2] = b - t0; r[3] = spins;

__global__ void tr_link(unsigned long long *flags, long long *tr, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5, src = w - 1;
	for (int k = tid; k < n * nw; k += nb)
		flags[k] = 0ull;
	unsigned prefix = 0;
	START();
	if (lane == 0)
		for (int i = 0; i < n; i++) {
			STEP(w > 0, ((volatile unsigned long long *)flags)[i * nw + w] = (1ull << 32) | (unsigned long long)(prefix + 1));
		}
	STOP(t);
	y[tid] = prefix;
}

__global__ void tr_preset(unsigned long long *flags, long long *tr, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5, src = w;
	for (int k = tid; k < 2 * n * nw; k += nb)
		flags[k] = k < n * nw ? (1ull << 32) | 1ull : 0ull;
	unsigned prefix = 0;
	START();
	if (lane == 0)
		for (int i = 0; i < n; i++) {
			STEP(1, ((volatile unsigned long long *)flags)[n * nw + i * nw + w] = (1ull << 32) | (unsigned long long)(prefix + 1));
		}
	STOP(t);
	y[tid] = prefix;
}

__global__ void tr_slow0(unsigned long long *flags, long long *tr, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5, src = w - 1;
	for (int k = tid; k < n * nw; k += nb)
		flags[k] = 0ull;
	unsigned prefix = 0;
	float z = (float)tid * 1e-3f;
	START();
	if (lane == 0)
		for (int i = 0; i < n; i++) {
			if (w == 0) {
#pragma unroll
				for (int k = 0; k < 32; k++)
					z = fmaf(z, 0.999f, 0.001f);
				prefix += (unsigned)(z > 100.0f);
			}
			STEP(w > 0, ((volatile unsigned long long *)flags)[i * nw + w] = (1ull << 32) | (unsigned long long)(prefix + 1));
		}
	STOP(t);
	y[tid] = prefix + (unsigned)z;
}

__global__ void tr_plain(unsigned long long *flags, long long *tr, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5, src = w - 1;
	for (int k = tid; k < n * nw; k += nb)
		flags[k] = 0ull;
	unsigned prefix = 0;
	START();
	if (lane == 0)
		for (int i = 0; i < n; i++) {
			STEP(w > 0, flags[i * nw + w] = (1ull << 32) | (unsigned long long)(prefix + 1));
		}
	STOP(t);
	y[tid] = prefix;
}

// ---- host ----
#include "loop_host.cuh"

typedef void (*trk)(unsigned long long *, long long *, unsigned *, long long *, int);

// one launch at n steps; every warp's trace as JSON lines
static void trace(FILE *f, const char *name, trk k, int block, int n, unsigned long long *fl, long long *tr, unsigned *yy) {
	int nw = block / 32;
	k<<<1, block>>>(fl, tr, yy, dt, n);
	long long tot = take();
	long long *h = (long long *)malloc((size_t)nw * n * 4 * sizeof *h);
	CK(cudaMemcpy(h, tr, (size_t)nw * n * 4 * sizeof *h, cudaMemcpyDeviceToHost));
	fprintf(f, "{\"trace\": \"%s/%d\", \"n\": %d, \"total\": %lld}\n", name, block, n, tot);
	for (int w = 0; w < nw; w++)
		for (int i = 0; i < n; i++) {
			long long *r = h + ((size_t)w * n + i) * 4;
			fprintf(f, "{\"trace\": \"%s/%d\", \"w\": %d, \"i\": %d, \"a\": %lld, \"la\": %lld, \"b\": %lld, \"spins\": %lld}\n",
			        name, block, w, i, r[0], r[1], r[2], r[3]);
		}
	free(h);
}

int main(void) {
	loop_host_init();
	char l[64];
	unsigned long long *fl = (unsigned long long *)buf2 + 8192;
	long long *tr = (long long *)buf2 + (1 << 20);
	unsigned *yy = (unsigned *)buf2 + (1 << 23);
#define L(s, b) (snprintf(l, sizeof l, "%s/%d", s, b), l)
	for (int b = 64; b <= 512; b *= 2) {
		if (b == 256)
			continue;
		MEASURE(L("tr_link", b), tr_link, b, 64, 4, "", fl, tr, yy, dt, nn);
	}
	MEASURE(L("tr_preset", 64), tr_preset, 64, 64, 4, "", fl, tr, yy, dt, nn);
	MEASURE(L("tr_slow0", 64), tr_slow0, 64, 64, 4, "", fl, tr, yy, dt, nn);
	MEASURE(L("tr_slow0", 128), tr_slow0, 128, 64, 4, "", fl, tr, yy, dt, nn);
	MEASURE(L("tr_plain", 64), tr_plain, 64, 64, 4, "", fl, tr, yy, dt, nn);
	MEASURE(L("tr_plain", 128), tr_plain, 128, 64, 4, "", fl, tr, yy, dt, nn);
	const char *o = getenv("OUT");
	char p[512];
	snprintf(p, sizeof p, "%s/chain4_trace.jsonl", o ? o : "/tmp");
	FILE *f = fopen(p, "w");
	if (!f) { perror(p); return 1; }
	trace(f, "tr_link", tr_link, 64, 64, fl, tr, yy);
	trace(f, "tr_link", tr_link, 128, 64, fl, tr, yy);
	trace(f, "tr_link", tr_link, 512, 64, fl, tr, yy);
	trace(f, "tr_preset", tr_preset, 64, 64, fl, tr, yy);
	trace(f, "tr_slow0", tr_slow0, 64, 64, fl, tr, yy);
	trace(f, "tr_slow0", tr_slow0, 128, 64, fl, tr, yy);
	trace(f, "tr_plain", tr_plain, 64, 64, fl, tr, yy);
	trace(f, "tr_plain", tr_plain, 128, 64, fl, tr, yy);
	fclose(f);
	return 0;
}
