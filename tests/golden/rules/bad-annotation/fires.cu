// CUDA: a malformed launch annotation, a suppression without a reason and
// one naming an unknown rule.
// ptxray: launch block=(abc)
__global__ void k(float *x) {
  // ptxray-ignore: legacy-warp-intrinsic
  float v = __shfl_down(x[threadIdx.x], 1);
  x[threadIdx.x] = v; // ptxray-ignore: no-such-rule — typo
}

// RUN: lint --no-compile --only bad-annotation {file}
// EXIT: 1
// EXPECT-BEGIN
// tests/golden/rules/bad-annotation/fires.cu:3:1: error: malformed value for 'block': expected N or (X,Y[,Z]) of positive integers [bad-annotation]
// // ptxray: launch block=(abc)
// ^
// tests/golden/rules/bad-annotation/fires.cu:5:3: error: ptxray-ignore needs a reason: `// ptxray-ignore: RULE — why` [bad-annotation]
//   // ptxray-ignore: legacy-warp-intrinsic
//   ^
// tests/golden/rules/bad-annotation/fires.cu:7:23: error: ptxray-ignore names an unknown rule 'no-such-rule' (see ptxray rules) [bad-annotation]
//   x[threadIdx.x] = v; // ptxray-ignore: no-such-rule — typo
//                       ^
// 3 errors, 0 warnings, 0 notes (0 suppressed, 0 in the baseline)
// EXPECT-END
