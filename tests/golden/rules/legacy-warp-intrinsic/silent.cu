// CUDA: the _sync shuffle with the full mask.
__global__ void k(float *x) {
  float v = x[threadIdx.x];
  v += __shfl_down_sync(0xffffffffu, v, 16);
  x[threadIdx.x] = v;
}

// RUN: lint --no-compile --only legacy-warp-intrinsic {file}
// EXIT: 0
