// CUDA: 64 KiB of dynamic shared memory without the opt-in.
__global__ void k(float *x) { extern __shared__ float s[]; s[threadIdx.x] = x[threadIdx.x]; }
void launch(float *x) { k<<<4, 256, 65536>>>(x); }

// RUN: lint --no-compile --format json {file}
// EXIT: 1
// EXPECT-BEGIN
// {"schema":"ptxray-lint/1","diagnostics":[{"rule":"shared-memory-opt-in-missing","severity":"error","file":"tests/golden/rules/shared-memory-opt-in-missing/default.cu","line":3,"column":25,"message":"65536 bytes of dynamic shared memory exceed 48 KiB without cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536): the launch fails","kernel":"k","arch":null}],"suppressed":0,"baselined":0}
// EXPECT-END
