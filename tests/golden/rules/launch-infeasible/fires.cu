// CUDA: a launch of 2048 threads per block.
__global__ void k(float *x) { x[threadIdx.x] = 0; }
void launch(float *x) { k<<<4, 2048>>>(x); }

// RUN: lint --no-compile --only launch-infeasible {file}
// EXIT: 1
// EXPECT-BEGIN
// tests/golden/rules/launch-infeasible/fires.cu:3:25: error: block (2048,1,1) exceeds the 1024 threads (x, y <= 1024, z <= 64) a block may have: the launch fails with an invalid configuration [launch-infeasible]
// void launch(float *x) { k<<<4, 2048>>>(x); }
//                         ^
// 1 error, 0 warnings, 0 notes (0 suppressed, 0 in the baseline)
// EXPECT-END
