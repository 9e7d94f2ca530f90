// stencil.cu: 1D and 2D stencils with a halo staged in shared memory.
//
// Each block loads its interior points plus RADIUS halo points on each side
// into shared memory, synchronises, then every thread reads its neighbours
// from shared memory instead of global memory.  The halo loads are done by
// the first/last threads of the block only: these boundary branches diverge
// inside the first and last warps.
#include <cuda_runtime.h>

#define RADIUS 3
#define BLOCK_1D 256

// out[i] = sum_{k=-R..R} w[k+R] * in[i+k], zero outside [0, n).
__global__ void stencil_1d(const float *__restrict__ in, float *__restrict__ out,
                           const float *__restrict__ w, int n) {
  __shared__ float buf[BLOCK_1D + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;

  buf[l] = g < n ? in[g] : 0.0f;
  if (threadIdx.x < RADIUS) {  // left halo (divergent within warp 0)
    int gl = g - RADIUS;
    buf[l - RADIUS] = gl >= 0 ? in[gl] : 0.0f;
  }
  if (threadIdx.x >= blockDim.x - RADIUS) {  // right halo (divergent within the last warp)
    int gr = g + RADIUS;
    buf[l + RADIUS] = gr < n ? in[gr] : 0.0f;
  }
  __syncthreads();

  if (g < n) {
    float acc = 0.0f;
#pragma unroll
    for (int k = -RADIUS; k <= RADIUS; ++k)
      acc += w[k + RADIUS] * buf[l + k];
    out[g] = acc;
  }
}

#define BX 32
#define BY 8

// 5-point Laplacian on a width x height grid; a (BY+2) x (BX+2) tile with a
// one-point halo on each side.  Interior threads on the tile edge also load
// the halo: four divergent branches.
__global__ void stencil_2d(const float *__restrict__ in, float *__restrict__ out, int width,
                           int height) {
  __shared__ float tile[BY + 2][BX + 2];
  int x = blockIdx.x * BX + threadIdx.x;
  int y = blockIdx.y * BY + threadIdx.y;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  bool inside = x < width && y < height;

  tile[ty][tx] = inside ? in[y * width + x] : 0.0f;
  if (threadIdx.x == 0)
    tile[ty][0] = (x > 0 && y < height) ? in[y * width + x - 1] : 0.0f;
  if (threadIdx.x == BX - 1)
    tile[ty][BX + 1] = (x + 1 < width && y < height) ? in[y * width + x + 1] : 0.0f;
  if (threadIdx.y == 0)
    tile[0][tx] = (y > 0 && x < width) ? in[(y - 1) * width + x] : 0.0f;
  if (threadIdx.y == BY - 1)
    tile[BY + 1][tx] = (y + 1 < height && x < width) ? in[(y + 1) * width + x] : 0.0f;
  __syncthreads();

  if (inside)
    out[y * width + x] =
        tile[ty - 1][tx] + tile[ty + 1][tx] + tile[ty][tx - 1] + tile[ty][tx + 1] - 4.0f * tile[ty][tx];
}
