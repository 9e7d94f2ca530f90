// CUDA: a malformed launch annotation, a suppression without a reason and
// one naming an unknown rule.
// ptxray: launch block=(abc)
__global__ void k(float *x) {
  // ptxray-ignore: legacy-warp-intrinsic
  float v = __shfl_down(x[threadIdx.x], 1);
  x[threadIdx.x] = v; // ptxray-ignore: no-such-rule — typo
}

// RUN: lint --no-compile --format json {file}
// EXIT: 1
// EXPECT-BEGIN
// {"schema":"ptxray-lint/1","diagnostics":[{"rule":"bad-annotation","severity":"error","file":"tests/golden/rules/bad-annotation/default.cu","line":3,"column":1,"message":"malformed value for 'block': expected N or (X,Y[,Z]) of positive integers","kernel":null,"arch":null},{"rule":"bad-annotation","severity":"error","file":"tests/golden/rules/bad-annotation/default.cu","line":5,"column":3,"message":"ptxray-ignore needs a reason: `// ptxray-ignore: RULE — why`","kernel":null,"arch":null},{"rule":"bad-annotation","severity":"error","file":"tests/golden/rules/bad-annotation/default.cu","line":7,"column":23,"message":"ptxray-ignore names an unknown rule 'no-such-rule' (see ptxray rules)","kernel":null,"arch":null}],"suppressed":1,"baselined":0}
// EXPECT-END
