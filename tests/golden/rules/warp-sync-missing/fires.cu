// CUDA: warp-synchronous tail of a reduction without __syncwarp().
__global__ void k(float *x) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = x[t];
  __syncthreads();
  if (t < 32) {
    s[t] += s[t + 16];
    s[t] += s[t + 8];
  }
  if (t == 0) x[0] = s[0];
}
void launch(float *x) { k<<<1, 64>>>(x); }

// RUN: lint --no-compile --only warp-sync-missing {file}
// EXIT: 1
// EXPECT-BEGIN
// tests/golden/rules/warp-sync-missing/fires.cu:9:13: warning: reads s[...] +8 elements from what this thread wrote at line 8: another lane's value, with no __syncwarp() between and s not volatile [warp-sync-missing]
//     s[t] += s[t + 8];
//             ^
// 0 errors, 1 warning, 0 notes (0 suppressed, 0 in the baseline)
// EXPECT-END
