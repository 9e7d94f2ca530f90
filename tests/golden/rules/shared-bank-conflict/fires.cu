// CUDA: a column read of a 32x32 tile: 32-way bank conflict.
#define T 32
__global__ void transpose(const float *in, float *out) {
  __shared__ float tile[T][T];
  int x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * T + x];
  __syncthreads();
  out[y * T + x] = tile[x][y];
}
void launch(const float *in, float *out) { transpose<<<1, dim3(32, 32)>>>(in, out); }

// RUN: lint --no-compile --only shared-bank-conflict {file}
// EXIT: 1
// EXPECT-BEGIN
// tests/golden/rules/shared-bank-conflict/fires.cu:8:20: warning: load of tile[...]: 32-way bank conflict (32.0 wavefronts per request, ideal 1.0) with block (32,32,1) [shared-bank-conflict]
//   out[y * T + x] = tile[x][y];
//                    ^
// 0 errors, 1 warning, 0 notes (0 suppressed, 0 in the baseline)
// EXPECT-END
