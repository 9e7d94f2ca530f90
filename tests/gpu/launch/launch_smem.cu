// launch_smem.cu: static and dynamic shared memory, with and without the
// cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, n)
// opt-in. Expected failures: cudaErrorInvalidValue (dynamic shared memory
// over what the kernel may use) or cudaErrorLaunchOutOfResources.
#include "launch_common.h"

__global__ void k_dyn(float *d)
{
	extern __shared__ float buf[];
	buf[threadIdx.x] = d[threadIdx.x];
	__syncthreads();
	d[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}

__global__ void k_dyn_optin(float *d)
{
	extern __shared__ float buf[];
	buf[threadIdx.x] = d[threadIdx.x];
	__syncthreads();
	d[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}

__global__ void k_dyn_toobig(float *d)
{
	extern __shared__ float buf[];
	buf[threadIdx.x] = d[threadIdx.x];
	__syncthreads();
	d[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}

// 40 KiB static plus dynamic
__global__ void k_static40(float *d)
{
	__shared__ float s[10240];
	extern __shared__ float buf[];
	s[threadIdx.x] = d[threadIdx.x];
	buf[threadIdx.x] = s[(threadIdx.x + 3) % 10240];
	__syncthreads();
	d[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x] + s[threadIdx.x * 2];
}

__global__ void k_static40_optin(float *d)
{
	__shared__ float s[10240];
	extern __shared__ float buf[];
	s[threadIdx.x] = d[threadIdx.x];
	buf[threadIdx.x] = s[(threadIdx.x + 3) % 10240];
	__syncthreads();
	d[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x] + s[threadIdx.x * 2];
}

// exactly 48 KiB static
__global__ void k_static48(float *d)
{
	__shared__ float s[12288];
	s[threadIdx.x * 4] = d[threadIdx.x];
	__syncthreads();
	d[threadIdx.x] = s[(threadIdx.x * 4 + 8) % 12288];
}

int main()
{
	float *d;
	cudaMalloc(&d, 1 << 24);
	cudaMemset(d, 0, 1 << 24);
	printf("{\"launches\": [");
	k_dyn<<<1, 256, 16384>>>(d); REC("k_dyn", 256, 16384);
	k_dyn<<<1, 256, 49152>>>(d); REC("k_dyn", 256, 49152);
	k_dyn<<<1, 256, 65536>>>(d); REC("k_dyn", 256, 65536);
	cudaFuncSetAttribute(k_dyn_optin, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
	optin(__FILE__, __LINE__, "k_dyn_optin", (const void *)k_dyn_optin, 200 * 1024);
	k_dyn_optin<<<1, 256, 65536>>>(d); REC("k_dyn_optin", 256, 65536);
	k_dyn_optin<<<1, 256, 200 * 1024>>>(d); REC("k_dyn_optin", 256, 204800);
	k_dyn_optin<<<1, 256, 220 * 1024>>>(d); REC("k_dyn_optin", 256, 225280);
	cudaFuncSetAttribute(k_dyn_toobig, cudaFuncAttributeMaxDynamicSharedMemorySize, 240 * 1024);
	optin(__FILE__, __LINE__, "k_dyn_toobig", (const void *)k_dyn_toobig, 240 * 1024);
	k_dyn_toobig<<<1, 256, 240 * 1024>>>(d); REC("k_dyn_toobig", 256, 245760);
	k_dyn_toobig<<<1, 256, 32768>>>(d); REC("k_dyn_toobig", 256, 32768);
	k_static40<<<1, 256, 8192>>>(d); REC("k_static40", 256, 8192);
	k_static40<<<1, 256, 16384>>>(d); REC("k_static40", 256, 16384);
	cudaFuncSetAttribute(k_static40_optin, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
	optin(__FILE__, __LINE__, "k_static40_optin", (const void *)k_static40_optin, 100 * 1024);
	k_static40_optin<<<1, 256, 16384>>>(d); REC("k_static40_optin", 256, 16384);
	k_static40_optin<<<1, 256, 100 * 1024>>>(d); REC("k_static40_optin", 256, 102400);
	k_static48<<<1, 256>>>(d); REC("k_static48", 256, 0);
	k_static48<<<1, 256, 1024>>>(d); REC("k_static48", 256, 1024);
	printf("\n  ], \"kernels\": [");
	int first = 0;
	ATTRS(k_dyn);
	ATTRS(k_dyn_optin);
	ATTRS(k_dyn_toobig);
	ATTRS(k_static40);
	ATTRS(k_static40_optin);
	ATTRS(k_static48);
	printf("\n  ]}\n");
	return 0;
}
