// spin_probe.cu: which part of the spin loop ptxas writes around a free
// shared lock (BSSY, YIELD, ATOMS.CAS, ISETP, BRA, BSYNC) costs what the
// model does not give it: lane0_probe's all_spin 144 to 153 cycles an
// iteration (67 in the model), l0_spin 195 to 211, while its_probe's
// flags, whose spin loops poll a volatile load, are within about 10%; a
// 77-cycle wait at every spin loop's head fitted the locks and broke the
// flags. Each loop: n iterations, the next waiting for the last (through
// the lock's word, the release before the next poll, or the atomic's
// result where there is no spin loop). Run with
// `sh bench/gpu/simt/heldout.sh spin_probe`; judged by tests/check_simt.py
// with the probes.
//  - all_spin_cas: every lane takes and gives back a free shared lock of
//    its own in a spin loop (lane0_probe's all_spin, the reference; SASS:
//    BSSY, YIELD, ATOMS.CAS, ISETP, BRA, BSYNC, then ATOMS.EXCH);
//  - all_spin_vol: the same loop's shape, polling with a volatile shared
//    load on a free (zero) flag of its own, released by a plain store
//    (its_probe's flags' poll): ptxas writes YIELD, LDS, ISETP, BRA and no
//    BSSY/BSYNC, then STS;
//  - all_spin_vol_xrel: the volatile poll released by an exchange: ptxas
//    then wraps the poll loop in BSSY/BSYNC as in the lock's (an atomic
//    after the loop seems to be what asks for it): the convergence
//    barrier without an atomic poll;
//  - all_spin_exch: the spin loop with an exchange for the CAS (ATOMS.EXCH
//    polls, BSSY/BSYNC as the CAS's): the CAS itself or any atomic poll;
//  - all_cas_once: the same CAS and exchange with no spin loop, the next
//    CAS's address waiting for the last's result (ptxas unrolls it four
//    times): the atomics without the loop (lane0_probe's l0_cas_exch with
//    every lane);
//  - all_spin_cas_work: all_spin_cas with a chain of four dependent FMAs
//    between the loop's exit and the release, whose address waits for the
//    chain: the model adds the chain's latency; the same on the hardware
//    if the missing cost is a wait of its own, less if the work hides it;
//  - l0_spin_cas, l0_spin_vol, l0_cas_once: lane 0 of each warp alone, in
//    a branch of its own (lane0_probe's l0_spin and l0_cas_exch), for the
//    CAS poll, the volatile poll and the atomics without a loop;
//  - g_spin_vol: every lane polls a free global flag of its own with a
//    volatile load (LDG.E.STRONG.SYS, an L2 read, as fence_probe's) and
//    releases it with a plain store (YIELD, no BSSY); g_spin_cas: the same
//    with a global CAS poll on a free lock of its own and an exchange for
//    the release (BSSY, YIELD, ATOMG.E.CAS, BSYNC, ATOMG.E.EXCH): the two
//    polls in global memory.
// The SASS named here is ptxas 13.0's (sm_90), read from the cubin with
// sass_list.py before the run.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;
__global__ void all_spin_cas(int *g, long long *t, int n) {
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
__global__ void all_spin_vol(int *g, long long *t, int n) {
	__shared__ int flag[1024];
	flag[threadIdx.x] = 0;
	START();
	for (int i = 0; i < n; i++) {
		while (((volatile int *)flag)[threadIdx.x] != 0)
			;
		flag[threadIdx.x] = 0;
	}
	STOP(t);
	g[threadIdx.x] = flag[threadIdx.x];
}
__global__ void all_spin_vol_xrel(int *g, long long *t, int n) {
	__shared__ int flag[1024];
	flag[threadIdx.x] = 0;
	START();
	for (int i = 0; i < n; i++) {
		while (((volatile int *)flag)[threadIdx.x] != 0)
			;
		atomicExch(&flag[threadIdx.x], 0);
	}
	STOP(t);
	g[threadIdx.x] = flag[threadIdx.x];
}
__global__ void all_spin_exch(int *g, long long *t, int n) {
	__shared__ int lock[1024];
	lock[threadIdx.x] = 0;
	START();
	for (int i = 0; i < n; i++) {
		while (atomicExch(&lock[threadIdx.x], 1) != 0)
			;
		atomicExch(&lock[threadIdx.x], 0);
	}
	STOP(t);
	g[threadIdx.x] = lock[threadIdx.x];
}
__global__ void all_cas_once(int *g, long long *t, int n) {
	__shared__ int lock[1024];
	int z = 0;
	lock[threadIdx.x] = 0;
	START();
	for (int i = 0; i < n; i++) {
		z = atomicCAS(&lock[threadIdx.x + (z >> 30)], 0, 1);
		atomicExch(&lock[threadIdx.x], 0);
	}
	STOP(t);
	g[threadIdx.x] = z;
}
// x stays in [0.25, 2): its bits shifted right by 30 are 0, which the
// compiler cannot know
__global__ void all_spin_cas_work(int *g, long long *t, int n) {
	__shared__ int lock[1024];
	float x = 0.25f * (float)(threadIdx.x & 3) + 0.25f;
	lock[threadIdx.x] = 0;
	START();
	for (int i = 0; i < n; i++) {
		while (atomicCAS(&lock[threadIdx.x], 0, 1) != 0)
			;
		x = fmaf(x, 0.5f, 0.5f);
		x = fmaf(x, 0.5f, 0.5f);
		x = fmaf(x, 0.5f, 0.5f);
		x = fmaf(x, 0.5f, 0.5f);
		atomicExch(&lock[threadIdx.x + (__float_as_int(x) >> 30)], 0);
	}
	STOP(t);
	g[threadIdx.x] = lock[threadIdx.x] + __float_as_int(x);
}
__global__ void l0_spin_cas(int *g, long long *t, int n) {
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
__global__ void l0_spin_vol(int *g, long long *t, int n) {
	__shared__ int flag[32];
	int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
	if (lane == 0) flag[w] = 0;
	START();
	if (lane == 0)
		for (int i = 0; i < n; i++) {
			while (((volatile int *)flag)[w] != 0)
				;
			flag[w] = 0;
		}
	STOP(t);
	g[threadIdx.x] = flag[w];
}
__global__ void l0_cas_once(int *g, long long *t, int n) {
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
// f: a zeroed global buffer of the kernel's own (buf, which no kernel here
// leaves non-zero)
__global__ void g_spin_vol(int *f, long long *t, int n) {
	START();
	for (int i = 0; i < n; i++) {
		while (((volatile int *)f)[threadIdx.x] != 0)
			;
		f[threadIdx.x] = 0;
	}
	STOP(t);
}
__global__ void g_spin_cas(int *f, long long *t, int n) {
	START();
	for (int i = 0; i < n; i++) {
		while (atomicCAS(&f[threadIdx.x], 0, 1) != 0)
			;
		atomicExch(&f[threadIdx.x], 0);
	}
	STOP(t);
}
// ---- host ----
#include "loop_host.cuh"
int main(void) {
	loop_host_init();
	char l[64];
	for (int blk = 32; blk <= 512; blk *= 16) {
#define L(s) (snprintf(l, sizeof l, "%s/%d", s, blk), l)
		MEASURE(L("all_spin_cas"), all_spin_cas, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("all_spin_vol"), all_spin_vol, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("all_spin_vol_xrel"), all_spin_vol_xrel, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("all_spin_exch"), all_spin_exch, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("all_cas_once"), all_cas_once, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("all_spin_cas_work"), all_spin_cas_work, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("l0_spin_cas"), l0_spin_cas, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("l0_spin_vol"), l0_spin_vol, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("l0_cas_once"), l0_cas_once, blk, 64, 2, "", (int *)buf2, dt, nn);
		MEASURE(L("g_spin_vol"), g_spin_vol, blk, 64, 2, "", (int *)buf, dt, nn);
		MEASURE(L("g_spin_cas"), g_spin_cas, blk, 64, 2, "", (int *)buf, dt, nn);
	}
	return 0;
}
