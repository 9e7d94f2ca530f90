// Reductions in the style of the CUDA samples (Harris, "Optimizing Parallel
// Reduction in CUDA"): seeded bugs are marked BUG, correct versions are not.
#define BLOCK 256

// reduce1: interleaved addressing with divergent branching (correct, slow).
__global__ void reduce1(const float *in, float *out) {
  __shared__ float sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// reduce2: interleaved addressing, strided index. BUG: bank conflicts.
__global__ void reduce2(const float *in, float *out) {
  __shared__ float sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// reduce3: sequential addressing (correct).
__global__ void reduce3(const float *in, float *out) {
  __shared__ float sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// reduce3_bad: BUG: the barrier moved inside the thread-dependent branch.
__global__ void reduce3_bad(const float *in, float *out) {
  __shared__ float sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
      __syncthreads();
    }
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// The unrolled last warp. BUG: no volatile, no __syncwarp().
__device__ void warpReduceBad(float *sdata, int tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

// Correct (legacy style): volatile.
__device__ void warpReduce(volatile float *sdata, int tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

// reduce4: first add during load, unrolled last warp with __syncwarp (correct).
__global__ void reduce4(const float *in, float *out) {
  __shared__ float sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  sdata[tid] = in[i] + in[i + blockDim.x];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    float v = sdata[tid];
    v += sdata[tid + 32]; __syncwarp();
    sdata[tid] = v; __syncwarp();
    v += sdata[tid + 16]; __syncwarp();
    sdata[tid] = v; __syncwarp();
    v += sdata[tid + 8]; __syncwarp();
    sdata[tid] = v; __syncwarp();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// reduce5: BUG: the last warp unrolled in the kernel without volatile.
__global__ void reduce5(const float *in, float *out) {
  __shared__ float sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (tid < 32) {
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Warp shuffles: BUG: legacy __shfl_down; the _sync form is correct.
__global__ void shfl_old(float *data) {
  float v = data[threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down(v, o);
  data[threadIdx.x] = v;
}

__global__ void shfl_new(float *data) {
  float v = data[threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  data[threadIdx.x] = v;
}

void launch(const float *in, float *out, int n) {
  reduce1<<<n / BLOCK, BLOCK>>>(in, out);
  reduce2<<<n / BLOCK, BLOCK>>>(in, out);
  reduce3<<<n / BLOCK, BLOCK>>>(in, out);
  reduce3_bad<<<n / BLOCK, BLOCK>>>(in, out);
  reduce4<<<n / (2 * BLOCK), BLOCK>>>(in, out);
  reduce5<<<n / BLOCK, BLOCK>>>(in, out);
}

// RUN: report --no-compile {file}
// EXIT: 0
// EXPECT-BEGIN
// tests/golden/cuda/reduce.cu (cuda source: 8 kernels, 8 analysed)
//   kernel                        line     smem dynamic block          launch sites
//   reduce1                          6     1024      no 256x1x1(config) 1
//   reduce2                         20     1024      no 256x1x1(config) 1
//   reduce3                         35     1024      no 256x1x1(config) 1
//   reduce3_bad                     49     1024      no 256x1x1(config) 1
//   reduce4                         84     1024      no 256x1x1(config) 1
//   reduce5                        108     1024      no 256x1x1(config) 1
//   shfl_old                       122        0      no 256x1x1(default) 0
//   shfl_new                       129        0      no 256x1x1(default) 0
// EXPECT-END
// EXPECT-STDERR-BEGIN
// tests/golden/cuda/reduce.cu: note: source analyses only (--no-compile): registers, local memory and PTX accesses need nvcc
// tests/golden/cuda/reduce.cu:28:7: warning: store of sdata[...]: 8-way bank conflict (8.0 wavefronts per request, ideal 1.0) with block (256,1,1) [shared-bank-conflict]
//       sdata[index] += sdata[index + s];
//       ^
// tests/golden/cuda/reduce.cu:28:23: warning: load of sdata[...]: 8-way bank conflict (8.0 wavefronts per request, ideal 1.0) with block (256,1,1) [shared-bank-conflict]
//       sdata[index] += sdata[index + s];
//                       ^
// tests/golden/cuda/reduce.cu:57:7: error: __syncthreads() is reached under the thread-dependent condition (tid < s) (line 55): threads that skip it never arrive: deadlock or undefined behaviour [divergent-barrier]
//       __syncthreads();
//       ^
// tests/golden/cuda/reduce.cu:66:17: warning: reads sdata[...] +16 elements from what this thread wrote at line 65: another lane's value, with no __syncwarp() between and sdata not volatile [warp-sync-missing]
//   sdata[tid] += sdata[tid + 16];
//                 ^
// tests/golden/cuda/reduce.cu:115:19: warning: reads sdata[...] +16 elements from what this thread wrote at line 114: another lane's value, with no __syncwarp() between and sdata not volatile [warp-sync-missing]
//     sdata[tid] += sdata[tid + 16];
//                   ^
// tests/golden/cuda/reduce.cu:125:10: error: __shfl_down() was removed for compute capability 7.0 and later: use __shfl_down_sync(mask, ...) [legacy-warp-intrinsic]
//     v += __shfl_down(v, o);
//          ^
// EXPECT-STDERR-END
