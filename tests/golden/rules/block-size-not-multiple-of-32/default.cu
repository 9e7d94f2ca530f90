// CUDA: a launch of 100 threads per block.
__global__ void k(float *x) { x[threadIdx.x] = 0; }
void launch(float *x) { k<<<4, 100>>>(x); }

// RUN: lint --no-compile --format json {file}
// EXIT: 1
// EXPECT-BEGIN
// {"schema":"ptxray-lint/1","diagnostics":[{"rule":"block-size-not-multiple-of-32","severity":"warning","file":"tests/golden/rules/block-size-not-multiple-of-32/default.cu","line":3,"column":25,"message":"block (100,1,1) has 100 threads, not a multiple of 32: the last warp of every block runs 4 of 32 lanes","kernel":"k","arch":null}],"suppressed":0,"baselined":0}
// EXPECT-END
