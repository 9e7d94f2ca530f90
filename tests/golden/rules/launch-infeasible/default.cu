// CUDA: a launch of 2048 threads per block.
__global__ void k(float *x) { x[threadIdx.x] = 0; }
void launch(float *x) { k<<<4, 2048>>>(x); }

// RUN: lint --no-compile --format json {file}
// EXIT: 1
// EXPECT-BEGIN
// {"schema":"ptxray-lint/1","diagnostics":[{"rule":"launch-infeasible","severity":"error","file":"tests/golden/rules/launch-infeasible/default.cu","line":3,"column":25,"message":"block (2048,1,1) exceeds the 1024 threads (x, y <= 1024, z <= 64) a block may have: the launch fails with an invalid configuration","kernel":"k","arch":null}],"suppressed":0,"baselined":0}
// EXPECT-END
