// Transposes and tiled matrix multiplies in the style of the CUDA
// Programming Guide and samples; seeded bugs are marked BUG.
#define TILE 32
#define ROWS 8
#define N 1024

// BUG: naive transpose, the store is strided (uncoalesced).
__global__ void transpose_naive(float *odata, const float *idata) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    odata[x * N + (y + j)] = idata[(y + j) * N + x];
}

// BUG: tiled transpose without padding: 32-way bank conflicts on the read.
__global__ void transpose_tiled(float *odata, const float *idata) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * N + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    odata[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Correct: padded tile.
__global__ void transpose_padded(float *odata, const float *idata) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * N + x];
  __syncthreads();
  int xo = blockIdx.y * TILE + threadIdx.x;
  int yo = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    odata[(yo + j) * N + xo] = tile[threadIdx.x][threadIdx.y + j];
}

// Correct: tiled matrix multiply (the Programming Guide's shared-memory version).
__global__ void matmul_tiled(const float *A, const float *B, float *C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < N / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * N + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * N + col] = sum;
}

// BUG: B tile kept transposed without padding: Bt[threadIdx.x][k] conflicts.
__global__ void matmul_transposed_tile(const float *A, const float *B, float *C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bt[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < N / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * N + t * TILE + threadIdx.x];
    Bt[threadIdx.x][threadIdx.y] = B[(t * TILE + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[threadIdx.y][k] * Bt[threadIdx.x][k];
    __syncthreads();
  }
  C[row * N + col] = sum;
}

// Correct: the same with the transposed tile padded.
__global__ void matmul_transposed_padded(const float *A, const float *B, float *C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bt[TILE][TILE + 1];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < N / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * N + t * TILE + threadIdx.x];
    Bt[threadIdx.x][threadIdx.y] = B[(t * TILE + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[threadIdx.y][k] * Bt[threadIdx.x][k];
    __syncthreads();
  }
  C[row * N + col] = sum;
}

__global__ void __launch_bounds__(256) bounded(float *p) { p[threadIdx.x] = 0; }
__global__ void dyn(float *p) { extern __shared__ float s[]; s[threadIdx.x] = p[threadIdx.x]; }

void host(float *A, float *B, float *C) {
  dim3 grid(N / TILE, N / TILE), block(TILE, ROWS), mm(TILE, TILE);
  transpose_naive<<<grid, block>>>(C, A);
  transpose_tiled<<<grid, block>>>(C, A);
  transpose_padded<<<grid, block>>>(C, A);
  matmul_tiled<<<grid, mm>>>(A, B, C);
  matmul_transposed_tile<<<grid, mm>>>(A, B, C);
  matmul_transposed_padded<<<grid, mm>>>(A, B, C);
  int threads = 1000;
  bounded<<<(N + 255) / 256, 256>>>(A);          // fits
  bounded<<<(N + threads - 1) / threads, 512>>>(A);   // BUG: over __launch_bounds__(256)
  dyn<<<1, threads>>>(A);                         // BUG: 1000 threads, not a multiple of 32
  dyn<<<1, 2048>>>(A);                            // BUG: more than 1024 threads
  dyn<<<1, 256, 64 * 1024>>>(A);                  // BUG: 64 KiB dynamic without the opt-in
  cudaFuncSetAttribute(dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
  dyn<<<1, 256, 100 * 1024>>>(A);                 // fits after the opt-in
  dyn<<<1, 256, 300 * 1024>>>(A);                 // BUG: over the SM's shared memory
}

__global__ void dyn2(float *p) { extern __shared__ float s[]; s[threadIdx.x] = p[threadIdx.x]; }

void late_optin(float *A) {
  dyn2<<<1, 256, 80 * 1024>>>(A);                 // BUG: the opt-in comes after this launch
  cudaFuncSetAttribute(dyn2, cudaFuncAttributeMaxDynamicSharedMemorySize, 80 * 1024);
  dyn2<<<1, 256, 80 * 1024>>>(A);                 // fits
}

// RUN: report --no-compile {file}
// EXIT: 0
// EXPECT-BEGIN
// tests/golden/cuda/transpose_matmul.cu (cuda source: 9 kernels, 9 analysed)
//   kernel                        line     smem dynamic block          launch sites
//   transpose_naive                  8        0      no 32x8x1(config) 1
//   transpose_tiled                 16     4096      no 32x8x1(config) 1
//   transpose_padded                30     4224      no 32x8x1(config) 1
//   matmul_tiled                    44     8192      no 32x32x1(config) 1
//   matmul_transposed_tile          61     8192      no 32x32x1(config) 1
//   matmul_transposed_padded        78     8320      no 32x32x1(config) 1
//   bounded                         94        0      no 256x1x1(maxntid) 2
//   dyn                             95        0     yes 256x1x1(default) 5
//   dyn2                           116        0     yes 256x1x1(config) 2
// EXPECT-END
// EXPECT-STDERR-BEGIN
// tests/golden/cuda/transpose_matmul.cu: note: source analyses only (--no-compile): registers, local memory and PTX accesses need nvcc
// tests/golden/cuda/transpose_matmul.cu:12:5: warning: store of odata[...] touches 32.0 sectors per warp request where 4.0 suffice, with block (32,8,1) [uncoalesced-global]
//     odata[x * N + (y + j)] = idata[(y + j) * N + x];
//     ^
// tests/golden/cuda/transpose_matmul.cu:26:30: warning: load of tile[...]: 32-way bank conflict (32.0 wavefronts per request, ideal 1.0) with block (32,8,1) [shared-bank-conflict]
//     odata[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
//                              ^
// tests/golden/cuda/transpose_matmul.cu:68:5: warning: store of Bt[...]: 32-way bank conflict (32.0 wavefronts per request, ideal 1.0) with block (32,32,1) [shared-bank-conflict]
//     Bt[threadIdx.x][threadIdx.y] = B[(t * TILE + threadIdx.y) * N + col];
//     ^
// tests/golden/cuda/transpose_matmul.cu:107:3: error: block of 512 threads exceeds bounded's __launch_bounds__(256): the launch fails with too many resources requested [launch-infeasible]
//   bounded<<<(N + threads - 1) / threads, 512>>>(A);   // BUG: over __launch_bounds__(256)
//   ^
// tests/golden/cuda/transpose_matmul.cu:108:3: warning: block (1000,1,1) has 1000 threads, not a multiple of 32: the last warp of every block runs 8 of 32 lanes [block-size-not-multiple-of-32]
//   dyn<<<1, threads>>>(A);                         // BUG: 1000 threads, not a multiple of 32
//   ^
// tests/golden/cuda/transpose_matmul.cu:109:3: error: block (2048,1,1) exceeds the 1024 threads (x, y <= 1024, z <= 64) a block may have: the launch fails with an invalid configuration [launch-infeasible]
//   dyn<<<1, 2048>>>(A);                            // BUG: more than 1024 threads
//   ^
// tests/golden/cuda/transpose_matmul.cu:110:3: error: 65536 bytes of dynamic shared memory exceed 48 KiB without cudaFuncSetAttribute(dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536): the launch fails [shared-memory-opt-in-missing]
//   dyn<<<1, 256, 64 * 1024>>>(A);                  // BUG: 64 KiB dynamic without the opt-in
//   ^
// tests/golden/cuda/transpose_matmul.cu:113:3: error: on sm_90, 307200 bytes of shared memory per block (static 0 + dynamic 307200) exceed the 232448 a block may use, even with the opt-in [launch-infeasible]
//   dyn<<<1, 256, 300 * 1024>>>(A);                 // BUG: over the SM's shared memory
//   ^
// tests/golden/cuda/transpose_matmul.cu:113:3: error: 307200 bytes of dynamic shared memory exceed 48 KiB without cudaFuncSetAttribute(dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 307200) (the opt-in found asks for less): the launch fails [shared-memory-opt-in-missing]
//   dyn<<<1, 256, 300 * 1024>>>(A);                 // BUG: over the SM's shared memory
//   ^
// tests/golden/cuda/transpose_matmul.cu:119:3: error: 81920 bytes of dynamic shared memory exceed 48 KiB without cudaFuncSetAttribute(dyn2, cudaFuncAttributeMaxDynamicSharedMemorySize, 81920): the launch fails [shared-memory-opt-in-missing]
//   dyn2<<<1, 256, 80 * 1024>>>(A);                 // BUG: the opt-in comes after this launch
//   ^
// EXPECT-STDERR-END
