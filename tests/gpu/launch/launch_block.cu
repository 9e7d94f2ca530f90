// launch_block.cu: block sizes against the limits: 1024 threads, z <= 64,
// __launch_bounds__, and a block that is not a multiple of 32 (launchable).
// Run by run_launch.sh; expected failures are cudaErrorInvalidConfiguration
// (over 1024 threads or z > 64) and cudaErrorLaunchOutOfResources (over the
// kernel's __launch_bounds__).
#include "launch_common.h"

__global__ void k_plain(float *d)
{
	d[threadIdx.x + blockDim.x * threadIdx.y] = 1.0f;
}

__global__ void __launch_bounds__(256) k_bounded(float *d)
{
	d[threadIdx.x] = 2.0f;
}

int main()
{
	float *d;
	cudaMalloc(&d, 1 << 24);
	printf("{\"launches\": [");
	k_plain<<<1, 256>>>(d); REC("k_plain", 256, 0);
	k_plain<<<1, 1024>>>(d); REC("k_plain", 1024, 0);
	k_plain<<<1, 1025>>>(d); REC("k_plain", 1025, 0);
	k_plain<<<1, 96>>>(d); REC("k_plain", 96, 0);
	k_plain<<<1, dim3(32, 32, 2)>>>(d); REC("k_plain", 2048, 0);
	k_plain<<<1, dim3(1, 1, 65)>>>(d); REC("k_plain", 65, 0);
	k_plain<<<1, dim3(16, 1, 64)>>>(d); REC("k_plain", 1024, 0);
	k_bounded<<<4, 256>>>(d); REC("k_bounded", 256, 0);
	k_bounded<<<4, 512>>>(d); REC("k_bounded", 512, 0);
	k_bounded<<<4, 128>>>(d); REC("k_bounded", 128, 0);
	printf("\n  ], \"kernels\": [");
	int first = 0;
	ATTRS(k_plain);
	ATTRS(k_bounded);
	printf("\n  ]}\n");
	cudaFree(d);
	return 0;
}
