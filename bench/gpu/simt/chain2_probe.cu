// chain2_probe.cu: chain_probe's follow-up. chain_probe measured on the
// H100 (cycles an iteration) cs_link 86 at 64 and 128 threads: lane 0 of
// warp w polls warp w - 1's flag, written by a volatile store
// (STG.E.64.STRONG.SYS) of the same SM, with a volatile load
// (LDG.E.64.STRONG.SYS) and publishes its own; 64 such polls take less
// time than 64 trips to the L2 (fence_probe's ldv_gl_lat, a chain of
// volatile loads of a word a plain store wrote, 308 a step). And
// cs_preset/32, whose lane 0 polls a word a plain store set before the
// loop, 1020 against cs_full/32's 401 (no poll). Whether a volatile load
// is served by the L1 when the SM's own volatile store wrote the line last:
//  - ldv_chain_plain: ldv_gl_lat again (a plain store of the word before
//    the loop, then z = p[z >> 30], volatile);
//  - ldv_chain_vst: the same with a volatile store before the loop;
//  - vst_ldv_pair: each iteration a volatile store of z to the word, then
//    the volatile load of it (z = p[z >> 30] after p[0] = z);
//  - cs_preset_vst: chain_probe's cs_preset with the preset words written
//    by volatile stores.
// At 32 threads (one warp), cs_preset_vst also at 128. Run with
// `sh bench/gpu/simt/heldout.sh chain2_probe`; judged by
// tests/check_simt.py with the probes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__device__ __forceinline__ unsigned mix(unsigned x) {
	x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
	return x;
}

__global__ void ldv_chain_plain(int *g, long long *t, int n) {
	volatile int *p = g + threadIdx.x;
	g[threadIdx.x] = 0;
	int z = 0;
	START();
	for (int i = 0; i < n; i++)
		z = p[z >> 30];
	STOP(t);
	g[1024 + threadIdx.x] = z;
}
__global__ void ldv_chain_vst(int *g, long long *t, int n) {
	volatile int *p = g + threadIdx.x;
	p[0] = 0;
	int z = 0;
	START();
	for (int i = 0; i < n; i++)
		z = p[z >> 30];
	STOP(t);
	g[1024 + threadIdx.x] = z;
}
__global__ void vst_ldv_pair(int *g, long long *t, int n) {
	volatile int *p = g + threadIdx.x;
	p[0] = 0;
	int z = 0;
	START();
	for (int i = 0; i < n; i++) {
		p[0] = z;
		z = p[z >> 30];
	}
	STOP(t);
	g[1024 + threadIdx.x] = z;
}

__device__ __forceinline__ unsigned warp_scan(unsigned v, int lane) {
	unsigned sc = v;
	for (int d = 1; d < 32; d <<= 1) {
		unsigned u = __shfl_up_sync(0xffffffffu, sc, d);
		if (lane >= d)
			sc += u;
	}
	return sc;
}
__global__ void cs_preset_vst(unsigned long long *flags, unsigned *y, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nb >> 5;
	volatile unsigned long long *vf = flags;
	for (int k = tid; k < 2 * n * nw; k += nb)
		vf[k] = k < n * nw ? (1ull << 32) | (unsigned long long)(k & 7) : 0ull;
	START();
	for (int i = 0; i < n; i++) {
		unsigned v = mix((unsigned)(i * nb + tid)) & 255u, sc = warp_scan(v, lane);
		unsigned agg = __shfl_sync(0xffffffffu, sc, 31), prefix = 0;
		if (lane == 0) {
			volatile unsigned long long *f = flags + i * nw + w;
			unsigned long long fv;
			while (((fv = *f) >> 32) == 0ull)
				;
			prefix = (unsigned)fv;
			vf[n * nw + i * nw + w] = (1ull << 32) | (unsigned long long)(prefix + agg);
		}
		prefix = __shfl_sync(0xffffffffu, prefix, 0);
		y[(i * nb + tid) & 16383] = prefix + sc - v;
	}
	STOP(t);
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	int *g = (int *)buf2;
	unsigned long long *fl = (unsigned long long *)buf2 + 4096;
	unsigned *yy = (unsigned *)buf2 + (1 << 20);
#define L(s, b) (snprintf(l, sizeof l, "%s/%d", s, b), l)
	MEASURE(L("ldv_chain_plain", 32), ldv_chain_plain, 32, 256, 2, "", g, dt, nn);
	MEASURE(L("ldv_chain_vst", 32), ldv_chain_vst, 32, 256, 2, "", g, dt, nn);
	MEASURE(L("vst_ldv_pair", 32), vst_ldv_pair, 32, 256, 2, "", g, dt, nn);
	MEASURE(L("cs_preset_vst", 32), cs_preset_vst, 32, 64, 3, "", fl, yy, dt, nn);
	MEASURE(L("cs_preset_vst", 128), cs_preset_vst, 128, 64, 3, "", fl, yy, dt, nn);
	return 0;
}
