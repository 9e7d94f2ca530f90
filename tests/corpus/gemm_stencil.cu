// tests/corpus/gemm_stencil.cu: GEMM tiles of several sizes, register-blocked
// GEMMs (one that spills under a tight cap), and stencils with shared halos.
#include <cuda_fp16.h>

template <int TILE, typename T>
__global__ void gemm_tile(const T *A, const T *B, T *C, int M, int N, int K) {
  __shared__ T As[TILE][TILE];
  __shared__ T Bs[TILE][TILE];
  int r = blockIdx.y * TILE + threadIdx.y, c = blockIdx.x * TILE + threadIdx.x;
  T acc = 0;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = (r < M && k0 + threadIdx.x < K) ? A[r * K + k0 + threadIdx.x] : T(0);
    Bs[threadIdx.y][threadIdx.x] = (c < N && k0 + threadIdx.y < K) ? B[(k0 + threadIdx.y) * N + c] : T(0);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (r < M && c < N) C[r * N + c] = acc;
}
template __global__ void gemm_tile<8, float>(const float *, const float *, float *, int, int, int);
template __global__ void gemm_tile<16, float>(const float *, const float *, float *, int, int, int);
template __global__ void gemm_tile<32, float>(const float *, const float *, float *, int, int, int);
template __global__ void gemm_tile<16, double>(const double *, const double *, double *, int, int, int);

// Register blocking: each thread computes an RxR micro-tile.
template <int R, int MINB>
__global__ void __launch_bounds__(256, MINB) gemm_regblock(const float *A, const float *B, float *C, int N) {
  __shared__ float As[8][16 * R + 4];
  __shared__ float Bs[8][16 * R + 4];
  float acc[R][R] = {};
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  int row0 = blockIdx.y * 16 * R, col0 = blockIdx.x * 16 * R;
  for (int k0 = 0; k0 < N; k0 += 8) {
    for (int e = threadIdx.x; e < 8 * 16 * R; e += 256) {
      int k = e % 8, m = e / 8;
      As[k][m] = A[(row0 + m) * N + k0 + k];
      Bs[k][m] = B[(k0 + k) * N + col0 + m];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 8; ++k)
#pragma unroll
      for (int i = 0; i < R; ++i)
#pragma unroll
        for (int j = 0; j < R; ++j) acc[i][j] += As[k][ty * R + i] * Bs[k][tx * R + j];
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < R; ++i)
#pragma unroll
    for (int j = 0; j < R; ++j) C[(row0 + ty * R + i) * N + col0 + tx * R + j] = acc[i][j];
}
template __global__ void gemm_regblock<2, 1>(const float *, const float *, float *, int);
template __global__ void gemm_regblock<4, 2>(const float *, const float *, float *, int);
template __global__ void gemm_regblock<8, 1>(const float *, const float *, float *, int);
template __global__ void gemm_regblock<8, 4>(const float *, const float *, float *, int);  // spills

// Explicit register cap with __maxnreg__ (CUDA 12.4+).
__global__ void __maxnreg__(40) gemm_maxnreg40(const float *A, const float *B, float *C, int N) {
  float acc[6][6] = {};
  int r = (blockIdx.y * blockDim.y + threadIdx.y) * 6, c = (blockIdx.x * blockDim.x + threadIdx.x) * 6;
  for (int k = 0; k < N; ++k) {
    float a[6], b[6];
#pragma unroll
    for (int i = 0; i < 6; ++i) a[i] = A[(r + i) * N + k], b[i] = B[k * N + c + i];
#pragma unroll
    for (int i = 0; i < 6; ++i)
#pragma unroll
      for (int j = 0; j < 6; ++j) acc[i][j] += a[i] * b[j];
  }
#pragma unroll
  for (int i = 0; i < 6; ++i)
#pragma unroll
    for (int j = 0; j < 6; ++j) C[(r + i) * N + c + j] = acc[i][j];
}

// Half-precision GEMM tile with fp32 accumulate.
__global__ void hgemm_tile16(const __half *A, const __half *B, float *C, int N) {
  __shared__ __half As[16][16];
  __shared__ __half Bs[16][16];
  int r = blockIdx.y * 16 + threadIdx.y, c = blockIdx.x * 16 + threadIdx.x;
  float acc = 0;
  for (int k0 = 0; k0 < N; k0 += 16) {
    As[threadIdx.y][threadIdx.x] = A[r * N + k0 + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * N + c];
    __syncthreads();
    for (int k = 0; k < 16; ++k) acc += __half2float(As[threadIdx.y][k]) * __half2float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  C[r * N + c] = acc;
}

// 3D 7-point stencil marching in z with a 2D shared plane and register queue.
__global__ void stencil3d_7pt(const float *in, float *out, int nx, int ny, int nz) {
  __shared__ float plane[16 + 2][32 + 2];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  bool ok = x > 0 && y > 0 && x < nx - 1 && y < ny - 1;
  size_t sxy = (size_t)nx * ny;
  float below = 0, cur = in[y * nx + x], above = in[sxy + y * nx + x];
  for (int z = 1; z < nz - 1; ++z) {
    below = cur;
    cur = above;
    above = in[(z + 1) * sxy + y * nx + x];
    __syncthreads();
    plane[ty][tx] = cur;
    if (threadIdx.x == 0 && x > 0) plane[ty][0] = in[z * sxy + y * nx + x - 1];
    if (threadIdx.x == 31 && x < nx - 1) plane[ty][33] = in[z * sxy + y * nx + x + 1];
    if (threadIdx.y == 0 && y > 0) plane[0][tx] = in[z * sxy + (y - 1) * nx + x];
    if (threadIdx.y == 15 && y < ny - 1) plane[17][tx] = in[z * sxy + (y + 1) * nx + x];
    __syncthreads();
    if (ok)
      out[z * sxy + y * nx + x] = plane[ty][tx - 1] + plane[ty][tx + 1] + plane[ty - 1][tx] + plane[ty + 1][tx] +
                                  below + above - 6.0f * cur;
  }
}

// 1D convolution with the filter in __constant__ memory and a dynamic halo.
__constant__ float c_filter[65];
__global__ void conv1d_const(const float *in, float *out, int n, int radius) {
  extern __shared__ float tile[];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = threadIdx.x; j < blockDim.x + 2 * radius; j += blockDim.x) {
    int src = blockIdx.x * blockDim.x + j - radius;
    tile[j] = (src >= 0 && src < n) ? in[src] : 0.0f;
  }
  __syncthreads();
  if (g < n) {
    float acc = 0;
    for (int k = 0; k <= 2 * radius; ++k) acc += c_filter[k] * tile[threadIdx.x + k];
    out[g] = acc;
  }
}

// Jacobi 2D with a double-precision tile and divergent borders.
__global__ void jacobi2d_fp64(const double *u, double *v, int n) {
  __shared__ double t[18][18];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  t[ty][tx] = (x < n && y < n) ? u[y * n + x] : 0.0;
  if (threadIdx.x == 0) t[ty][0] = (x > 0 && y < n) ? u[y * n + x - 1] : 0.0;
  if (threadIdx.x == 15) t[ty][17] = (x + 1 < n && y < n) ? u[y * n + x + 1] : 0.0;
  if (threadIdx.y == 0) t[0][tx] = (y > 0 && x < n) ? u[(y - 1) * n + x] : 0.0;
  if (threadIdx.y == 15) t[17][tx] = (y + 1 < n && x < n) ? u[(y + 1) * n + x] : 0.0;
  __syncthreads();
  if (x > 0 && y > 0 && x < n - 1 && y < n - 1)
    v[y * n + x] = 0.25 * (t[ty - 1][tx] + t[ty + 1][tx] + t[ty][tx - 1] + t[ty][tx + 1]);
}
