// CUDA: 64 KiB of dynamic shared memory after the opt-in.
__global__ void k(float *x) { extern __shared__ float s[]; s[threadIdx.x] = x[threadIdx.x]; }
void launch(float *x) {
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
  k<<<4, 256, 65536>>>(x);
}

// RUN: lint --no-compile --only shared-memory-opt-in-missing {file}
// EXIT: 0
