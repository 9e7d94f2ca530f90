// CUDA: the pre-Volta shuffle without a mask.
__global__ void k(float *x) {
  float v = x[threadIdx.x];
  v += __shfl_down(v, 16);
  x[threadIdx.x] = v;
}

// RUN: lint --no-compile --only legacy-warp-intrinsic {file}
// EXIT: 1
// EXPECT-BEGIN
// tests/golden/rules/legacy-warp-intrinsic/fires.cu:4:8: error: __shfl_down() was removed for compute capability 7.0 and later: use __shfl_down_sync(mask, ...) [legacy-warp-intrinsic]
//   v += __shfl_down(v, 16);
//        ^
// 1 error, 0 warnings, 0 notes (0 suppressed, 0 in the baseline)
// EXPECT-END
