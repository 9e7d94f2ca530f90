// histogram.cu: byte histogram with privatised per-block bins.
//
// Global atomics on 256 bins serialise badly when many threads hit the same
// bin.  Each block therefore keeps a private copy of the bins in shared
// memory (fast shared atomics), and merges it into the global histogram once
// at the end.  The number of bins is a run-time value, so the private copy
// lives in dynamic shared memory (extern __shared__), sized at launch:
//   histogram_shared<<<grid, block, nbins * sizeof(unsigned)>>>(...)
#include <cuda_runtime.h>

__global__ void histogram_shared(const unsigned char *__restrict__ data, size_t n,
                                 unsigned *__restrict__ hist, int nbins) {
  extern __shared__ unsigned bins[];

  for (int b = threadIdx.x; b < nbins; b += blockDim.x)
    bins[b] = 0;
  __syncthreads();

  size_t stride = (size_t)blockDim.x * gridDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&bins[data[i] % nbins], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
    unsigned v = bins[b];
    if (v != 0)  // skip empty bins: saves global atomics
      atomicAdd(&hist[b], v);
  }
}

// Baseline for comparison: every increment is a global atomic.
__global__ void histogram_global(const unsigned char *__restrict__ data, size_t n,
                                 unsigned *__restrict__ hist, int nbins) {
  size_t stride = (size_t)blockDim.x * gridDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&hist[data[i] % nbins], 1u);
}
