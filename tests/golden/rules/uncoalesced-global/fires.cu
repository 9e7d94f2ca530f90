// CUDA: a column-major store: every lane its own sectors.
__global__ void colstore(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * 32] = 1.0f;
}
void launch(float *out, int n) { colstore<<<8, 256>>>(out, n); }

// RUN: lint --no-compile --only uncoalesced-global {file}
// EXIT: 1
// EXPECT-BEGIN
// tests/golden/rules/uncoalesced-global/fires.cu:4:3: warning: store of out[...] touches 32.0 sectors per warp request where 4.0 suffice, with block (256,1,1) [uncoalesced-global]
//   out[i * 32] = 1.0f;
//   ^
// 0 errors, 1 warning, 0 notes (0 suppressed, 0 in the baseline)
// EXPECT-END
