// transpose.cu: out = in^T for a rows x cols matrix of floats, 32x32 tiles.
//
// A block of 32x8 threads loads a 32x32 tile with coalesced row reads, and
// writes it back transposed, again with coalesced row writes; the shared tile
// does the transposition.  Reading the tile by column is the hazard:
//   - transpose_naive uses tile[32][32]: the column read tile[x][y..] hits the
//     same bank for all 32 lanes (32-way bank conflict);
//   - transpose_padded uses tile[32][33]: the extra column shifts each row by
//     one bank, so a column read is conflict-free.
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void transpose_naive(float *__restrict__ out, const float *__restrict__ in, int rows,
                                int cols) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();

  x = blockIdx.y * TILE + threadIdx.x;  // swapped block indices
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < rows && y + j < cols)
      out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];  // column read: 32-way conflict
}

__global__ void transpose_padded(float *__restrict__ out, const float *__restrict__ in, int rows,
                                 int cols) {
  __shared__ float tile[TILE][TILE + 1];  // +1 column of padding
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();

  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < rows && y + j < cols)
      out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];  // conflict-free
}
