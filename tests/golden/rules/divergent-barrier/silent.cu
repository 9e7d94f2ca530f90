// CUDA: the barrier outside the condition.
__global__ void k(float *x) {
  __shared__ float s[256];
  int t = threadIdx.x;
  if (t < 128)
    s[t] = x[t];
  __syncthreads();
  x[t] = s[t];
}
void launch(float *x) { k<<<1, 256>>>(x); }

// RUN: lint --no-compile --only divergent-barrier {file}
// EXIT: 0
