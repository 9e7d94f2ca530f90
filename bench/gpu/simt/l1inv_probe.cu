// l1inv_probe.cu: what a global atomic or store does to the L1 lines it
// names. Held-out 22's bellman_ford_loop gathers distances from 64 KiB (an
// L1 of 240 KiB) and updates some by atomicMin; ncu counts only 38% to 44%
// of the gathers' sectors as hits, and since bf514ee the model takes an
// atomic's lines out of the L1. Each thread gathers 8 words an iteration
// from a 16 KiB table (hashed indices, L1-resident after the first pass)
// and sums them; then, at another hashed word of the same table:
//  - inv_none: nothing (the gathers' rate alone);
//  - inv_red: an atomicAdd of 0 whose result is unused (RED);
//  - inv_atom: an atomicAdd of 0 whose result is summed (ATOMG);
//  - inv_st: a store of the word's own value (STG).
// At 128 and 512 threads. Run with `sh bench/gpu/simt/heldout.sh
// l1inv_probe`, its L1 counters with `sh bench/gpu/simt/l1stats.sh
// l1inv_probe inv_`; judged by tests/check_simt.py with the other probes.
// Same method as the held-out sets (loop_host.cuh).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

#define TW 4096   // the table's words (16 KiB)

__device__ __forceinline__ unsigned mix(unsigned x) {
	x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
	return x;
}

// the table (zeros, written by the block) and the gathers; WHAT(w) touches
// word w after them
#define INV_KERNEL(NAME, WHAT)                                                              \
__global__ void NAME(unsigned *tab, unsigned *o, long long *t, int n) {                     \
	int tid = threadIdx.x, nb = blockDim.x;                                             \
	for (int k = tid; k < TW; k += nb)                                                  \
		tab[k] = 0u;                                                                \
	__syncthreads();                                                                    \
	unsigned s = 0u, h = mix((unsigned)tid + 1u);                                       \
	START();                                                                            \
	for (int i = 0; i < n; i++) {                                                       \
		_Pragma("unroll") for (int k = 0; k < 8; k++) {                             \
			h = h * 1664525u + 1013904223u;                                     \
			s += tab[h >> 20];                                                  \
		}                                                                           \
		unsigned w = (h * 747796405u) >> 20;                                        \
		WHAT(w);                                                                    \
	}                                                                                   \
	STOP(t);                                                                            \
	o[tid] = s;                                                                         \
}

#define W_NONE(w) asm volatile("" : : "r"(w))
#define W_RED(w) atomicAdd(&tab[w], 0u)
#define W_ATOM(w) (s += atomicAdd(&tab[w], 0u))
#define W_ST(w) (tab[w] = s & 0u)

INV_KERNEL(inv_none, W_NONE)
INV_KERNEL(inv_red, W_RED)
INV_KERNEL(inv_atom, W_ATOM)
INV_KERNEL(inv_st, W_ST)

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64];
	unsigned *tb = (unsigned *)buf, *ob = (unsigned *)buf2;
	for (int blk = 128; blk <= 512; blk *= 4) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("inv_none"), inv_none, blk, 128, 3, "", tb, ob, dt, nn);
		MEASURE(L("inv_red"), inv_red, blk, 128, 3, "", tb, ob, dt, nn);
		MEASURE(L("inv_atom"), inv_atom, blk, 128, 3, "", tb, ob, dt, nn);
		MEASURE(L("inv_st"), inv_st, blk, 128, 3, "", tb, ob, dt, nn);
	}
	return 0;
}
