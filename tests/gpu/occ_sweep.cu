// occ_sweep.cu: measures the CUDA runtime's occupancy on a real GPU, for the
// committed fixture tests/fixtures/occupancy/h100.json that
// tests/check_occupancy_hw.py compares with `ptxray occupancy`.
//
// Kernels of varied register and static shared memory use (templates: N
// values kept live, S floats of __shared__), each queried with
// cudaOccupancyMaxActiveBlocksPerMultiprocessor over a sweep of block sizes
// (odd ones included), dynamic shared memory sizes (past the default 48 KiB
// with the opt-in attribute set) and carveout preferences. It records
// cudaGetDeviceProperties and, per kernel, cudaFuncGetAttributes (numRegs,
// sharedSizeBytes, maxThreadsPerBlock). Output: one JSON document on stdout.
// Build and run: tests/gpu/run_occ_sweep.sh (the command is in the fixture).
#include <cstdio>
#include <cuda_runtime.h>

template <int N, int S>
__global__ void kern(float *out, const float *in, int n)
{
	__shared__ float buf[S > 0 ? S : 1];
	float v[N];
	int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
	for (int i = 0; i < N; i++)
		v[i] = in[(t + i * 977) % n];
	if (S > 0) {
		buf[threadIdx.x % S] = v[0];
		__syncthreads();
		v[0] += buf[(threadIdx.x + 1) % S];
	}
	__syncthreads();
	float acc = 0;
#pragma unroll
	for (int k = 0; k < 4; k++) {
#pragma unroll
		for (int i = 0; i < N; i++) {
			v[i] = v[i] * v[(i + 1) % N] + 1.0f;
			acc += v[i];
		}
	}
	out[t % n] = acc;
}

struct entry {
	const char *name;
	const void *fn;
};

#define K(N, S) {"kern<" #N "," #S ">", (const void *)kern<N, S>}
static const entry kernels[] = {
	K(1, 0), K(8, 0), K(16, 0), K(24, 0), K(32, 0), K(48, 0), K(64, 0), K(96, 0), K(128, 0),
	K(1, 256), K(16, 1024), K(32, 3000), K(8, 8192), K(48, 12000), K(4, 12288),
};

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main()
{
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	printf("{\"device\": {\"name\": \"%s\", \"major\": %d, \"minor\": %d, \"multiProcessorCount\": %d,\n"
	       " \"maxThreadsPerBlock\": %d, \"maxThreadsPerMultiProcessor\": %d, \"maxBlocksPerMultiProcessor\": %d,\n"
	       " \"regsPerBlock\": %d, \"regsPerMultiprocessor\": %d, \"warpSize\": %d,\n"
	       " \"sharedMemPerBlock\": %zu, \"sharedMemPerMultiprocessor\": %zu, \"sharedMemPerBlockOptin\": %zu,\n"
	       " \"reservedSharedMemPerBlock\": %zu},\n",
	       p.name, p.major, p.minor, p.multiProcessorCount, p.maxThreadsPerBlock,
	       p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor, p.regsPerBlock,
	       p.regsPerMultiprocessor, p.warpSize, p.sharedMemPerBlock, p.sharedMemPerMultiprocessor,
	       p.sharedMemPerBlockOptin, p.reservedSharedMemPerBlock);
	printf("\"kernels\": [\n");
	static const int blocks[] = {1, 32, 33, 64, 96, 100, 128, 160, 192, 224, 256, 288, 320, 384,
	                             448, 512, 544, 640, 768, 896, 1000, 1024};
	static const int dyns[] = {0, 1024, 4000, 16384, 40000, 48 * 1024, 64 * 1024, 100 * 1024,
	                           150 * 1024, 200 * 1024, 227 * 1024};
	static const int carveouts[] = {-1, 0, 10, 25, 50, 75, 100};
	const int nk = sizeof kernels / sizeof *kernels;
	for (int k = 0; k < nk; k++) {
		cudaFuncAttributes a;
		CK(cudaFuncGetAttributes(&a, kernels[k].fn));
		printf("{\"name\": \"%s\", \"numRegs\": %d, \"sharedSizeBytes\": %zu, \"maxThreadsPerBlock\": %d,"
		       " \"maxDynamicSharedSizeBytes\": %d,\n \"rows\": [\n",
		       kernels[k].name, a.numRegs, a.sharedSizeBytes, a.maxThreadsPerBlock,
		       a.maxDynamicSharedSizeBytes);
		bool first = true;
		for (int c : carveouts) {
			CK(cudaFuncSetAttribute(kernels[k].fn, cudaFuncAttributePreferredSharedMemoryCarveout, c));
			for (int d : dyns) {
				int def = (int)(p.sharedMemPerBlock - a.sharedSizeBytes);
				bool optin = d > def;
				int attr = optin ? d : def;
				cudaError_t se = cudaFuncSetAttribute(kernels[k].fn,
				                                      cudaFuncAttributeMaxDynamicSharedMemorySize, attr);
				if (se != cudaSuccess) {
					cudaGetLastError();
					continue;   /* over the opt-in maximum: not a configuration */
				}
				for (int b : blocks) {
					int n = -1;
					cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernels[k].fn, b, d);
					if (e != cudaSuccess)
						cudaGetLastError();
					printf("%s  [%d, %d, %d, %d, %d, %d]", first ? "" : ",\n", b, d, c, optin ? 1 : 0,
					       e == cudaSuccess ? n : -1, (int)e);
					first = false;
				}
			}
		}
		printf("]}%s\n", k + 1 < nk ? "," : "");
	}
	printf("],\n\"row_fields\": [\"threads\", \"dynamic_shared\", \"carveout\", \"optin\", "
	       "\"blocks_per_sm\", \"cuda_error\"]}\n");
	return 0;
}
