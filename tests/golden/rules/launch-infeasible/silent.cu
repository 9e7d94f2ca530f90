// CUDA: a launch of 1024 threads per block.
__global__ void k(float *x) { x[threadIdx.x] = 0; }
void launch(float *x) { k<<<4, 1024>>>(x); }

// RUN: lint --no-compile --only launch-infeasible {file}
// EXIT: 0
