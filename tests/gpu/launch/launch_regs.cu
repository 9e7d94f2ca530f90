// launch_regs.cu: register pressure: kernels whose unrolled accumulators
// keep many values live (no launch bounds, so ptxas may use up to 255
// registers), launched with block sizes on both sides of
// registers x threads = 65536. Expected failure: cudaErrorLaunchOutOfResources.
#include "launch_common.h"

#define NACC 160

__global__ void k_heavy(const float *in, float *out)
{
	float acc[NACC];
#pragma unroll
	for (int i = 0; i < NACC; i++)
		acc[i] = in[threadIdx.x + i * 1024];
#pragma unroll
	for (int it = 0; it < 3; it++) {
#pragma unroll
		for (int i = 0; i < NACC; i++)
			acc[i] = acc[i] * acc[(i + 7) % NACC] + in[blockIdx.x + it];
	}
	float s = 0.0f;
#pragma unroll
	for (int i = 0; i < NACC; i++)
		s += acc[i] * (float)(i + 1);
	out[threadIdx.x] = s;
}

#define NMID 72

__global__ void k_mid(const float *in, float *out)
{
	float acc[NMID];
#pragma unroll
	for (int i = 0; i < NMID; i++)
		acc[i] = in[threadIdx.x + i * 1024];
#pragma unroll
	for (int it = 0; it < 3; it++) {
#pragma unroll
		for (int i = 0; i < NMID; i++)
			acc[i] = acc[i] * acc[(i + 5) % NMID] + in[blockIdx.x + it];
	}
	float s = 0.0f;
#pragma unroll
	for (int i = 0; i < NMID; i++)
		s += acc[i] * (float)(i + 1);
	out[threadIdx.x] = s;
}

// the same work, capped by __launch_bounds__(1024): ptxas fits 64 registers
__global__ void __launch_bounds__(1024) k_capped(const float *in, float *out)
{
	float acc[NMID];
#pragma unroll
	for (int i = 0; i < NMID; i++)
		acc[i] = in[threadIdx.x + i * 1024];
#pragma unroll
	for (int it = 0; it < 3; it++) {
#pragma unroll
		for (int i = 0; i < NMID; i++)
			acc[i] = acc[i] * acc[(i + 5) % NMID] + in[blockIdx.x + it];
	}
	float s = 0.0f;
#pragma unroll
	for (int i = 0; i < NMID; i++)
		s += acc[i] * (float)(i + 1);
	out[threadIdx.x] = s;
}

int main()
{
	float *in, *out;
	cudaMalloc(&in, 1 << 24);
	cudaMalloc(&out, 1 << 20);
	cudaMemset(in, 0, 1 << 24);
	printf("{\"launches\": [");
	k_heavy<<<2, 128>>>(in, out); REC("k_heavy", 128, 0);
	k_heavy<<<2, 256>>>(in, out); REC("k_heavy", 256, 0);
	k_heavy<<<2, 512>>>(in, out); REC("k_heavy", 512, 0);
	k_heavy<<<2, 1024>>>(in, out); REC("k_heavy", 1024, 0);
	k_mid<<<2, 256>>>(in, out); REC("k_mid", 256, 0);
	k_mid<<<2, 512>>>(in, out); REC("k_mid", 512, 0);
	k_mid<<<2, 768>>>(in, out); REC("k_mid", 768, 0);
	k_mid<<<2, 1024>>>(in, out); REC("k_mid", 1024, 0);
	k_capped<<<2, 1024>>>(in, out); REC("k_capped", 1024, 0);
	printf("\n  ], \"kernels\": [");
	int first = 0;
	ATTRS(k_heavy);
	ATTRS(k_mid);
	ATTRS(k_capped);
	printf("\n  ]}\n");
	return 0;
}
