// CUDA: a launch of 100 threads per block.
__global__ void k(float *x) { x[threadIdx.x] = 0; }
void launch(float *x) { k<<<4, 100>>>(x); }

// RUN: lint --no-compile --only block-size-not-multiple-of-32 {file}
// EXIT: 1
// EXPECT-BEGIN
// tests/golden/rules/block-size-not-multiple-of-32/fires.cu:3:25: warning: block (100,1,1) has 100 threads, not a multiple of 32: the last warp of every block runs 4 of 32 lanes [block-size-not-multiple-of-32]
// void launch(float *x) { k<<<4, 100>>>(x); }
//                         ^
// 0 errors, 1 warning, 0 notes (0 suppressed, 0 in the baseline)
// EXPECT-END
