// carveout_probe.cu: which shared-memory capacity does the driver configure
// for a launch when the kernel states no carveout preference? The simulator
// sizes the L1 from it (the unified L1/shared store less this capacity), and
// transpose_probe.cu showed it is not the occupancy calculator's figure
// (which assumes the largest). Launches one block of three kernels (dynamic
// shared memory only; 4224 B static; ~48 live registers per thread) at block
// sizes 64..1024 and dynamic shared sizes 0..40 KiB, printing one JSON object
// per launch in launch order ("id" = ncu's launch ID) with the runtime's
// resident blocks per SM; carveout.sh runs it under ncu for
// launch__shared_mem_config_size, the capacity configured at each launch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

extern __shared__ float dyn[];

__global__ void cv_dynamic(float *o, int n) {
	if (n > 0) dyn[threadIdx.x % n] = (float)threadIdx.x;
	__syncthreads();
	if (threadIdx.x == 0) o[0] = n > 0 ? dyn[0] : 0.0f;
}

__global__ void cv_static(float *o, int n) {
	__shared__ float st[1056];
	st[threadIdx.x % 1056] = (float)threadIdx.x;
	if (n > 0) dyn[threadIdx.x % n] = (float)threadIdx.x;
	__syncthreads();
	if (threadIdx.x == 0) o[0] = st[n & 1023] + (n > 0 ? dyn[0] : 0.0f);
}

__global__ void cv_regs(float *o, int n) {
	float a[48];
#pragma unroll
	for (int k = 0; k < 48; k++) a[k] = o[k * 32 + (threadIdx.x & 31)];
	for (int i = 0; i < 8; i++) {
#pragma unroll
		for (int k = 0; k < 48; k++) a[k] = a[k] * a[(k + 1) % 48] + 1.0f;
	}
	if (n > 0) dyn[threadIdx.x % n] = a[0];
	__syncthreads();
	float s = 0;
#pragma unroll
	for (int k = 0; k < 48; k++) s += a[k];
	o[4096 + threadIdx.x] = s + (n > 0 ? dyn[0] : 0.0f);
}

#define CK(x) do { cudaError_t e_ = (x); if (e_) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

int main(void) {
	float *o;
	CK(cudaMalloc(&o, 1 << 20));
	CK(cudaMemset(o, 0, 1 << 20));
	const char *names[] = {"cv_dynamic", "cv_static", "cv_regs"};
	void (*ks[])(float *, int) = {cv_dynamic, cv_static, cv_regs};
	const int blocks[] = {64, 128, 256, 512, 1024};
	const int dyns[] = {0, 2048, 6144, 12288, 24576, 40960};
	int id = 0;
	for (int k = 0; k < 3; k++) {
		cudaFuncAttributes fa;
		CK(cudaFuncGetAttributes(&fa, ks[k]));
		for (int b = 0; b < 5; b++)
			for (int d = 0; d < 6; d++) {
				int nb = 0;
				CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, ks[k], blocks[b], dyns[d]));
				ks[k]<<<1, blocks[b], dyns[d]>>>(o, dyns[d] / 4);
				CK(cudaGetLastError());
				CK(cudaDeviceSynchronize());
				printf("{\"id\": %d, \"kernel\": \"%s\", \"block\": %d, \"dynamic_shared\": %d, "
				       "\"static_shared\": %zu, \"registers\": %d, \"occupancy_blocks\": %d}\n",
				       id++, names[k], blocks[b], dyns[d], fa.sharedSizeBytes, fa.numRegs, nb);
			}
	}
	return 0;
}
