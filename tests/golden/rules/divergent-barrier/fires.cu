// CUDA: __syncthreads() under a thread-dependent condition.
__global__ void k(float *x) {
  __shared__ float s[256];
  int t = threadIdx.x;
  if (t < 128) {
    s[t] = x[t];
    __syncthreads();
  }
  x[t] = s[t];
}
void launch(float *x) { k<<<1, 256>>>(x); }

// RUN: lint --no-compile --only divergent-barrier {file}
// EXIT: 1
// EXPECT-BEGIN
// tests/golden/rules/divergent-barrier/fires.cu:7:5: error: __syncthreads() is reached under the thread-dependent condition (t < 128) (line 5), uniform only within each warp: threads that skip it never arrive: deadlock or undefined behaviour [divergent-barrier]
//     __syncthreads();
//     ^
// 1 error, 0 warnings, 0 notes (0 suppressed, 0 in the baseline)
// EXPECT-END
