// CUDA: the same tail with __syncwarp() between the steps.
__global__ void k(float *x) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = x[t];
  __syncthreads();
  if (t < 32) {
    float v = s[t] + s[t + 16];
    __syncwarp();
    s[t] = v;
    __syncwarp();
    v = s[t] + s[t + 8];
    __syncwarp();
    s[t] = v;
  }
  if (t == 0) x[0] = s[0];
}
void launch(float *x) { k<<<1, 64>>>(x); }

// RUN: lint --no-compile --only warp-sync-missing {file}
// EXIT: 0
