// CUDA: the pre-Volta shuffle without a mask.
__global__ void k(float *x) {
  float v = x[threadIdx.x];
  v += __shfl_down(v, 16);
  x[threadIdx.x] = v;
}

// RUN: lint --no-compile --format json {file}
// EXIT: 1
// EXPECT-BEGIN
// {"schema":"ptxray-lint/1","diagnostics":[{"rule":"legacy-warp-intrinsic","severity":"error","file":"tests/golden/rules/legacy-warp-intrinsic/default.cu","line":4,"column":8,"message":"__shfl_down() was removed for compute capability 7.0 and later: use __shfl_down_sync(mask, ...)","kernel":"k","arch":null}],"suppressed":0,"baselined":0}
// EXPECT-END
