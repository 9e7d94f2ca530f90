// CUDA: the same tile padded by one column: conflict-free.
#define T 32
__global__ void transpose(const float *in, float *out) {
  __shared__ float tile[T][T + 1];
  int x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * T + x];
  __syncthreads();
  out[y * T + x] = tile[x][y];
}
void launch(const float *in, float *out) { transpose<<<1, dim3(32, 32)>>>(in, out); }

// RUN: lint --no-compile --only shared-bank-conflict {file}
// EXIT: 0
