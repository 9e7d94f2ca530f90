// CUDA: consecutive lanes store consecutive floats.
__global__ void rowstore(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 1.0f;
}
void launch(float *out, int n) { rowstore<<<8, 256>>>(out, n); }

// RUN: lint --no-compile --only uncoalesced-global {file}
// EXIT: 0
