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

// RUN: lint --no-compile --format json {file}
// EXIT: 1
// EXPECT-BEGIN
// {"schema":"ptxray-lint/1","diagnostics":[{"rule":"divergent-barrier","severity":"error","file":"tests/golden/rules/divergent-barrier/default.cu","line":7,"column":5,"message":"__syncthreads() is reached under the thread-dependent condition (t < 128) (line 5), uniform only within each warp: threads that skip it never arrive: deadlock or undefined behaviour","kernel":"k","arch":null}],"suppressed":0,"baselined":0}
// EXPECT-END
