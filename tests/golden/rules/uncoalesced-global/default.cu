// CUDA: a column-major store: every lane its own sectors.
__global__ void colstore(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * 32] = 1.0f;
}
void launch(float *out, int n) { colstore<<<8, 256>>>(out, n); }

// RUN: lint --no-compile --format json {file}
// EXIT: 1
// EXPECT-BEGIN
// {"schema":"ptxray-lint/1","diagnostics":[{"rule":"uncoalesced-global","severity":"warning","file":"tests/golden/rules/uncoalesced-global/default.cu","line":4,"column":3,"message":"store of out[...] touches 32.0 sectors per warp request where 4.0 suffice, with block (256,1,1)","kernel":"colstore","arch":null}],"suppressed":0,"baselined":0}
// EXPECT-END
