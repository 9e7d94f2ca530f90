// reduce.cu: sum of an array, one partial sum per block.
//
// Classic two-level reduction:
//   1. each thread accumulates a grid-stride slice of the input in a register;
//   2. the block reduces its 256 partial sums in shared memory with a tree
//      (halving the active threads each step, __syncthreads() between steps);
//   3. once 64 values are left, the first warp finishes with warp shuffles,
//      which need no shared memory and no barrier.
// __launch_bounds__(256) tells the compiler the block size, so the static
// shared buffer is exactly one float per thread.
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void __launch_bounds__(BLOCK) reduce_sum(const float *__restrict__ in,
                                                    float *__restrict__ partial, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;

  float sum = 0.0f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x)
    sum += in[i];
  sdata[tid] = sum;
  __syncthreads();

  // Tree in shared memory down to 64 values (sequential addressing: no bank conflicts).
  for (unsigned s = BLOCK / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }

  // Warp-shuffle tail: warp 0 folds the last 64 values.
  if (tid < 32) {
    float v = sdata[tid] + sdata[tid + 32];
    for (int offset = 16; offset > 0; offset >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, offset);
    if (tid == 0)
      partial[blockIdx.x] = v;
  }
}
