// lockorder_probe.cu: the order in which the H100 grants a spin lock to the
// threads of a block. its_probe's lock loops (its_lock_gl, its_lock_done)
// measure thread 0's clock after the barrier that ends them at about the
// whole block's time (every acquisition serialised), while the simulator's
// lock goes to one warp's lanes in turn until each has all n of its own,
// then to another warp's: thread 0 done far before the block (bx_probe
// showed that the clock read after the last barrier is thread 0's arrival,
// not the barrier's release). Each kernel here is its_probe's lock with a
// log: the holder writes its thread index and the clock into slot c of the
// log, c the count of acquisitions before it; the host writes the log to
// $OUT/lockorder_trace.jsonl.
//  - lo_gl: its_lock_gl (the lock and the count in global memory, a
//    __threadfence before the release);
//  - lo_sh: its_lock_done (the lock and the count in shared memory, the
//    critical section inside the retry loop, __threadfence_block).
// Also through MEASURE. Run with `sh bench/gpu/simt/heldout.sh
// lockorder_probe`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;

__global__ void lo_gl(int *out, long long *lg, long long *t, int n) {
	if (threadIdx.x == 0) { out[0] = 0; out[1] = 0; }
	START();
	for (int i = 0; i < n; i++) {
		while (atomicCAS(&out[1], 0, 1) != 0)
			;
		volatile int *c = &out[0];
		int k = *c;
		lg[2 * k] = threadIdx.x;
		lg[2 * k + 1] = clock64() - t0;
		*c = k + 1;
		__threadfence();
		atomicExch(&out[1], 0);
	}
	STOP(t);
}

__global__ void lo_sh(int *out, long long *lg, long long *t, int n) {
	__shared__ int lock, counter;
	if (threadIdx.x == 0) { lock = 0; counter = 0; }
	START();
	for (int i = 0; i < n; i++) {
		bool done = false;
		while (!done) {
			if (atomicCAS(&lock, 0, 1) == 0) {
				volatile int *c = &counter;
				int k = *c;
				lg[2 * k] = threadIdx.x;
				lg[2 * k + 1] = clock64() - t0;
				*c = k + 1;
				__threadfence_block();
				atomicExch(&lock, 0);
				done = true;
			}
		}
	}
	STOP(t);
	if (threadIdx.x == 0) out[0] = counter;
}

// ---- host ----
#include "loop_host.cuh"

typedef void (*lok)(int *, long long *, long long *, int);

static void trace(FILE *f, const char *name, lok k, int block, int n, int *o, long long *lg) {
	int m = block * n;
	CK(cudaMemset(lg, 0xff, (size_t)2 * m * sizeof(long long)));
	k<<<1, block>>>(o, lg, dt, n);
	long long tot = take();
	long long *h = (long long *)malloc((size_t)2 * m * sizeof *h);
	CK(cudaMemcpy(h, lg, (size_t)2 * m * sizeof *h, cudaMemcpyDeviceToHost));
	fprintf(f, "{\"trace\": \"%s/%d\", \"n\": %d, \"total\": %lld, \"tid\": [", name, block, n, tot);
	for (int i = 0; i < m; i++)
		fprintf(f, "%s%lld", i ? ", " : "", h[2 * i]);
	fprintf(f, "], \"clock\": [");
	for (int i = 0; i < m; i++)
		fprintf(f, "%s%lld", i ? ", " : "", h[2 * i + 1]);
	fprintf(f, "]}\n");
	free(h);
}

int main(void) {
	loop_host_init();
	char l[64];
	int *o = (int *)buf2;
	long long *lg = (long long *)buf2 + 1024;
#define L(s, b) (snprintf(l, sizeof l, "%s/%d", s, b), l)
	MEASURE(L("lo_gl", 64), lo_gl, 64, 16, 3, "", o, lg, dt, nn);
	MEASURE(L("lo_gl", 256), lo_gl, 256, 16, 3, "", o, lg, dt, nn);
	MEASURE(L("lo_sh", 256), lo_sh, 256, 16, 3, "", o, lg, dt, nn);
	MEASURE(L("lo_sh", 1024), lo_sh, 1024, 16, 3, "", o, lg, dt, nn);
	const char *od = getenv("OUT");
	char p[512];
	snprintf(p, sizeof p, "%s/lockorder_trace.jsonl", od ? od : "/tmp");
	FILE *f = fopen(p, "w");
	if (!f) { perror(p); return 1; }
	trace(f, "lo_gl", lo_gl, 64, 16, o, lg);
	trace(f, "lo_gl", lo_gl, 256, 16, o, lg);
	trace(f, "lo_sh", lo_sh, 256, 16, o, lg);
	trace(f, "lo_sh", lo_sh, 1024, 16, o, lg);
	fclose(f);
	return 0;
}
