// spin2_probe.cu: spin_probe's follow-up. spin_probe measured on the H100
// (cycles an iteration, 32 / 512 threads) all_spin_vol 99 / 104 (a
// volatile LDS poll of a free flag of its own, YIELD, then a plain STS
// release to the same word), all_spin_vol_xrel 114 / 121 (the same poll,
// BSSY/BSYNC, an ATOMS.EXCH release), all_spin_cas 144 / 153, all_spin_exch
// 140 / 147, all_cas_once 40 / 49 (the CAS and the exchange without a
// loop); the model gives every spin loop 67. Two explanations of the
// difference, told apart here:
//  (A) a shared load or atomic waits for the same warp's earlier shared
//      store or atomic to the SAME word to complete (a read after write
//      through shared memory, which the model does not charge);
//  (B) the spin loop itself (YIELD, the polled exit branch) costs some 30
//      cycles more than its parts.
// Every lane works on words of its own (threadIdx.x-indexed). Each loop: n
// iterations, the next waiting for the last (through the loaded or
// returned value z, which is 0, in the next address a = threadIdx.x +
// (z >> 30): the same word, which the compiler cannot know; in the spin
// loops through the poll's exit branch). Run with
// `sh bench/gpu/simt/heldout.sh spin2_probe`; judged by tests/check_simt.py
// with the probes.
// No spin loop (A's pairs, a store or atomic then a load or atomic of the
// next address; NVVM unrolls the outer loop four times in the PTX, ptxas
// the st_ld and exch_ld loops 16 times (a loop of 16 pairs, then 8, 4 and
// 1 for what is left), the exch_cas loops not further (a loop of 4 pairs
// and one of 1); no other loop, no branch but those loops'. Each pair:
// SHF, LOP3, IMAD (the address from z), then the two below):
//  - st_ld_same: STS z to h[a], then a volatile LDS of h[a] (the same
//    word): z (STS [R], z; LDS z, [R]);
//  - st_ld_diff: the same with the load of h[a + 1024] (LDS z,
//    [R+0x1000]: a word of its own no store touches): (A) says st_ld_same
//    waits, this not. The stores of both are volatile: a plain one ptxas
//    moves below st_ld_diff's load (the two addresses differ by an
//    immediate), volatile keeps STS then LDS in both;
//  - exch_cas_same: ATOMS.EXCH RZ, [R], RZ (0 to h[a], the result
//    unused), then ATOMS.CAS z, [R], 0, 0 (all_cas_once's pair the other
//    way round): z;
//  - exch_cas_diff: the CAS on h[a + 1024] ([R+0x1000]);
//  - exch_ld_same: ATOMS.EXCH RZ, [R], RZ, then a volatile LDS z, [R].
// Spin loops without a release to the polled word (B's; the poll and
// YIELD in the loop, the address threadIdx.x's as in spin_probe, nothing
// hoisted):
//  - vol_spin_norel: all_spin_vol's poll (LDS, YIELD, ISETP, BRA) on a
//    flag that stays 0, and no store at all after it (then VIADD, ISETP,
//    BRA: all_spin_vol's SASS less its STS): (B) says ~100 as
//    all_spin_vol, (A) the poll's parts alone;
//  - vol_spin_diffrel: the poll, then an STS of 0 to a word of another
//    array (other[threadIdx.x]; volatile, as NVVM sinks a plain store to
//    a word the loop does not read below the loop): all_spin_vol's SASS
//    with the STS's address another's, the store without the RAW;
//  - or_spin_norel: while (atomicOr(&lock[threadIdx.x], 0) != 0); an
//    atomic poll that changes nothing (YIELD, ATOMS.OR, ISETP, BRA, no
//    BSSY), no release: each poll waits for the last one's result;
//  - or_spin_diffrel: the same, then atomicExch on other[threadIdx.x]
//    (BSSY, YIELD, ATOMS.OR, ISETP, BRA, BSYNC, ATOMS.EXCH RZ: the
//    convergence barrier around the poll as in all_spin_exch).
// The SASS named here is ptxas 13.0's (sm_90), read from the cubin with
// sass_list.py before the run.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;
__global__ void st_ld_same(int *g, long long *t, int n) {
	__shared__ unsigned h[2048];
	unsigned z = 0;
	h[threadIdx.x] = 0;
	h[threadIdx.x + 1024] = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned a = threadIdx.x + (z >> 30);
		((volatile unsigned *)h)[a] = z;
		z = ((volatile unsigned *)h)[a];
	}
	STOP(t);
	g[threadIdx.x] = h[threadIdx.x] + z;
}
__global__ void st_ld_diff(int *g, long long *t, int n) {
	__shared__ unsigned h[2048];
	unsigned z = 0;
	h[threadIdx.x] = 0;
	h[threadIdx.x + 1024] = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned a = threadIdx.x + (z >> 30);
		((volatile unsigned *)h)[a] = z;
		z = ((volatile unsigned *)h)[a + 1024];
	}
	STOP(t);
	g[threadIdx.x] = h[threadIdx.x] + z;
}
__global__ void exch_cas_same(int *g, long long *t, int n) {
	__shared__ unsigned h[2048];
	unsigned z = 0;
	h[threadIdx.x] = 0;
	h[threadIdx.x + 1024] = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned a = threadIdx.x + (z >> 30);
		atomicExch(&h[a], 0u);
		z = atomicCAS(&h[a], 0u, 0u);
	}
	STOP(t);
	g[threadIdx.x] = h[threadIdx.x] + z;
}
__global__ void exch_cas_diff(int *g, long long *t, int n) {
	__shared__ unsigned h[2048];
	unsigned z = 0;
	h[threadIdx.x] = 0;
	h[threadIdx.x + 1024] = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned a = threadIdx.x + (z >> 30);
		atomicExch(&h[a], 0u);
		z = atomicCAS(&h[a + 1024], 0u, 0u);
	}
	STOP(t);
	g[threadIdx.x] = h[threadIdx.x] + z;
}
__global__ void exch_ld_same(int *g, long long *t, int n) {
	__shared__ unsigned h[2048];
	unsigned z = 0;
	h[threadIdx.x] = 0;
	h[threadIdx.x + 1024] = 0;
	START();
	for (int i = 0; i < n; i++) {
		unsigned a = threadIdx.x + (z >> 30);
		atomicExch(&h[a], 0u);
		z = ((volatile unsigned *)h)[a];
	}
	STOP(t);
	g[threadIdx.x] = h[threadIdx.x] + z;
}
__global__ void vol_spin_norel(int *g, long long *t, int n) {
	__shared__ int flag[1024];
	flag[threadIdx.x] = 0;
	START();
	for (int i = 0; i < n; i++) {
		while (((volatile int *)flag)[threadIdx.x] != 0)
			;
	}
	STOP(t);
	g[threadIdx.x] = flag[threadIdx.x];
}
__global__ void vol_spin_diffrel(int *g, long long *t, int n) {
	__shared__ int flag[1024];
	__shared__ int other[1024];
	flag[threadIdx.x] = 0;
	other[threadIdx.x] = 0;
	START();
	for (int i = 0; i < n; i++) {
		while (((volatile int *)flag)[threadIdx.x] != 0)
			;
		((volatile int *)other)[threadIdx.x] = 0;
	}
	STOP(t);
	g[threadIdx.x] = flag[threadIdx.x] + other[threadIdx.x];
}
__global__ void or_spin_norel(int *g, long long *t, int n) {
	__shared__ int lock[1024];
	lock[threadIdx.x] = 0;
	START();
	for (int i = 0; i < n; i++) {
		while (atomicOr(&lock[threadIdx.x], 0) != 0)
			;
	}
	STOP(t);
	g[threadIdx.x] = lock[threadIdx.x];
}
__global__ void or_spin_diffrel(int *g, long long *t, int n) {
	__shared__ int lock[1024];
	__shared__ int other[1024];
	lock[threadIdx.x] = 0;
	other[threadIdx.x] = 0;
	START();
	for (int i = 0; i < n; i++) {
		while (atomicOr(&lock[threadIdx.x], 0) != 0)
			;
		atomicExch(&other[threadIdx.x], 0);
	}
	STOP(t);
	g[threadIdx.x] = lock[threadIdx.x] + other[threadIdx.x];
}
// ---- host ----
#include "loop_host.cuh"
int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 32; blk <= 512; blk *= 16) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("st_ld_same"), st_ld_same, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("st_ld_diff"), st_ld_diff, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("exch_cas_same"), exch_cas_same, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("exch_cas_diff"), exch_cas_diff, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("exch_ld_same"), exch_ld_same, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("vol_spin_norel"), vol_spin_norel, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("vol_spin_diffrel"), vol_spin_diffrel, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("or_spin_norel"), or_spin_norel, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("or_spin_diffrel"), or_spin_diffrel, blk, 64, 2, "", (int *)buf2, dt, nn);
	}
	return 0;
}
