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

// RUN: lint --no-compile --format json {file}
// EXIT: 1
// EXPECT-BEGIN
// {"schema":"ptxray-lint/1","diagnostics":[{"rule":"warp-sync-missing","severity":"warning","file":"tests/golden/rules/warp-sync-missing/default.cu","line":9,"column":13,"message":"reads s[...] +8 elements from what this thread wrote at line 8: another lane's value, with no __syncwarp() between and s not volatile","kernel":"k","arch":null}],"suppressed":0,"baselined":0}
// EXPECT-END
