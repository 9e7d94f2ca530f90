// kloop_probe.cu: what an inner loop with a trip count known only at run
// time costs around its body. nvcc unrolls such a loop by 4 in the PTX
// (a loop of four bodies and a remainder of up to three, each behind its
// own branch); ptxas rewrites it again (sbase2_probe's SASS: a loop of 16
// bodies while more than 12 remain, a block of 8 while more than 4, the
// loop of 4, then the remainder, each entered through its own branch and
// convergence barrier). sbase2_probe's loops with k = 8 were 21% to 31%
// fast (sn_reg_k8/128: 230.0 cycles an iteration, 158.0 predicted) where
// k = 0 was within 4%. Here the outer loop reads a shared word through a
// register, runs k dependent FMAs on it in the inner loop, stores the
// result and waits at a barrier (sbase2_probe's sn_reg), for k = 1 to 32,
// at 1 and 4 warps: the cost of each path of the cascade. The loops'
// predictions of the model at the commit that adds this file are in
// tests/fixtures/simt/probes/kloop_probe_predicted.jsonl, committed
// before the first measurement. Same method as the held-out sets
// (loop_host.cuh); run with `sh bench/gpu/simt/heldout.sh kloop_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__global__ void kl_fma(float *o, long long *t, int n, int k, int off) {
	__shared__ float zero[1], sink[1024];
	int tid = threadIdx.x;
	if (tid == 0) zero[0] = 0.0f;
	volatile float *z = zero + off;
	float x = (float)tid;
	START();
	for (int i = 0; i < n; i++) {
		float v = *z + x;
		for (int j = 0; j < k; j++)
			v = fmaf(v, 0.5f, 1.0f);
		x = v;
		sink[tid] = x;
		__syncthreads();
	}
	STOP(t);
	o[tid] = sink[tid];
}

// ---- host ----
#include "loop_host.cuh"

int main(void) {
	loop_host_init();
	char l[64], ex[32];
	static const int ks[] = {1, 2, 3, 4, 5, 7, 8, 12, 13, 16, 17, 32};
	for (int blk = 32; blk <= 128; blk *= 4) {
		for (unsigned q = 0; q < sizeof ks / sizeof ks[0]; q++) {
			int k = ks[q];
			snprintf(l, sizeof l, "kl_fma_k%d/%d", k, blk);
			snprintf(ex, sizeof ex, "3=%d,4=0", k);
			MEASURE(l, kl_fma, blk, 256, 2, ex, (float *)buf2, dt, nn, k, 0);
		}
	}
	return 0;
}
