// CUDA: well-formed annotations.
// ptxray: launch block=(256)
__global__ void k(float *x) {
  // ptxray-ignore: legacy-warp-intrinsic — pre-Volta build kept on purpose
  float v = __shfl_down(x[threadIdx.x], 1);
  x[threadIdx.x] = v;
}

// RUN: lint --no-compile {file}
// EXIT: 0
// EXPECT-BEGIN
// 0 errors, 0 warnings, 0 notes (1 suppressed, 0 in the baseline)
// EXPECT-END
