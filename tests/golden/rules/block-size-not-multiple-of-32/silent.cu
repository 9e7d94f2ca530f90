// CUDA: a launch of 128 threads per block.
__global__ void k(float *x) { x[threadIdx.x] = 0; }
void launch(float *x) { k<<<4, 128>>>(x); }

// RUN: lint --no-compile --only block-size-not-multiple-of-32 {file}
// EXIT: 0
