// CUDA: 64 KiB of dynamic shared memory without the opt-in.
__global__ void k(float *x) { extern __shared__ float s[]; s[threadIdx.x] = x[threadIdx.x]; }
void launch(float *x) { k<<<4, 256, 65536>>>(x); }

// RUN: lint --no-compile --only shared-memory-opt-in-missing {file}
// EXIT: 1
// EXPECT-BEGIN
// tests/golden/rules/shared-memory-opt-in-missing/fires.cu:3:25: error: 65536 bytes of dynamic shared memory exceed 48 KiB without cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536): the launch fails [shared-memory-opt-in-missing]
// void launch(float *x) { k<<<4, 256, 65536>>>(x); }
//                         ^
// 1 error, 0 warnings, 0 notes (0 suppressed, 0 in the baseline)
// EXPECT-END
