// matmul_tiled.cu: single-precision C = A * B (row-major, M x K times K x N).
//
// sgemm_tiled: the textbook 16x16 tiling.  Each block computes a 16x16 tile of
// C; it walks over K in steps of 16, staging a 16x16 tile of A and one of B in
// shared memory (2 x 1 KiB), so each global element is read once per block
// instead of 16 times.
//
// sgemm_reg_blocked: register blocking.  Each thread computes a 4x4 micro-tile
// held in a local array acc[4][4]; fully unrolled, the array lives in 16
// registers (plus the fragments of A and B), which makes this variant
// register-heavy.  It is a template over the minimum number of resident
// blocks in __launch_bounds__(256, MIN_BLOCKS): with 4 blocks ptxas may use
// 64 registers and nothing spills; with 8 blocks it is capped at 32 registers
// and has to spill the accumulators to local memory.
//
// sgemm_dynamic_index: the accumulator array is indexed with a run-time
// value, so it cannot be promoted to registers and lives in local memory.
#include <cuda_runtime.h>

#define T 16

__global__ void sgemm_tiled(const float *__restrict__ A, const float *__restrict__ B,
                            float *__restrict__ C, int M, int N, int K) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y;
  int col = blockIdx.x * T + threadIdx.x;
  float acc = 0.0f;

  for (int k0 = 0; k0 < K; k0 += T) {
    As[threadIdx.y][threadIdx.x] = (row < M && k0 + threadIdx.x < K) ? A[row * K + k0 + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (col < N && k0 + threadIdx.y < K) ? B[(k0 + threadIdx.y) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

#define BM 64
#define BN 64
#define BK 16
#define RM 4
#define RN 4

// Block of 16x16 threads computes a 64x64 tile of C; each thread a 4x4 micro-tile.
template <int MIN_BLOCKS>
__global__ void __launch_bounds__(256, MIN_BLOCKS) sgemm_reg_blocked(const float *__restrict__ A,
                                                                     const float *__restrict__ B,
                                                                     float *__restrict__ C, int M, int N,
                                                                     int K) {
  __shared__ float As[BK][BM];  // stored transposed: As[k][m]
  __shared__ float Bs[BK][BN];
  int tx = threadIdx.x, ty = threadIdx.y;
  int tid = ty * 16 + tx;
  int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[RM][RN] = {};

  for (int k0 = 0; k0 < K; k0 += BK) {
    // 256 threads load 64x16 elements of A and 16x64 of B: 4 each.
    for (int e = tid; e < BM * BK; e += 256) {
      int m = e / BK, k = e % BK;
      As[k][m] = (m0 + m < M && k0 + k < K) ? A[(m0 + m) * K + k0 + k] : 0.0f;
      int kb = e / BN, n = e % BN;
      Bs[kb][n] = (k0 + kb < K && n0 + n < N) ? B[(k0 + kb) * N + n0 + n] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[RM], b[RN];
#pragma unroll
      for (int i = 0; i < RM; ++i) a[i] = As[k][ty * RM + i];
#pragma unroll
      for (int j = 0; j < RN; ++j) b[j] = Bs[k][tx * RN + j];
#pragma unroll
      for (int i = 0; i < RM; ++i)
#pragma unroll
        for (int j = 0; j < RN; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < RM; ++i)
#pragma unroll
    for (int j = 0; j < RN; ++j) {
      int r = m0 + ty * RM + i, c = n0 + tx * RN + j;
      if (r < M && c < N) C[r * N + c] = acc[i][j];
    }
}

template __global__ void sgemm_reg_blocked<4>(const float *, const float *, float *, int, int, int);
template __global__ void sgemm_reg_blocked<8>(const float *, const float *, float *, int, int, int);

// Each thread accumulates 8 outputs of its row in a local array; the slot
// used for column j at step k is rotated by k, an index only known at run
// time, so the array cannot live in registers: it is placed in local memory
// (a .local declaration in the PTX, a stack frame in ptxas -v).
__global__ void sgemm_dynamic_index(const float *__restrict__ A, const float *__restrict__ B,
                                    float *__restrict__ C, int M, int N, int K, int cols) {
  float acc[8];
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col0 = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  if (row >= M) return;
  for (int j = 0; j < 8; ++j) acc[j] = 0.0f;
  for (int k = 0; k < K; ++k) {
    float a = A[row * K + k];
    for (int j = 0; j < cols && j < 8; ++j)
      if (col0 + j < N) acc[(j + k) & 7] += a * B[k * N + col0 + j];
  }
  for (int j = 0; j < cols && j < 8; ++j)
    if (col0 + j < N) C[row * N + col0 + j] = acc[(j + K) & 7];
}
