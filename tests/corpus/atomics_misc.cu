// tests/corpus/atomics_misc.cu: atomics of many types and spaces, warp votes
// and matches, register-pressure kernels that spill, local arrays, stack use
// (printf, recursion), and launch-bounds / maxnreg variants.
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void atomics_global_types(float *f, double *d, int *i, unsigned long long *u, __half2 *h,
                                     __nv_bfloat162 *b, const float *x, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float v = x[t];
  atomicAdd(f, v);
  atomicAdd(d, (double)v);
  atomicMax(i, (int)v);
  atomicMin(i + 1, (int)v);
  atomicAdd(u, 1ull);
  atomicOr(reinterpret_cast<unsigned *>(i + 2), 1u << (t & 31));
  atomicAdd(h, __floats2half2_rn(v, -v));
  atomicAdd(b, __floats2bfloat162_rn(v, 2 * v));
}

// Float atomicMax via a CAS loop.
__device__ float atomic_max_float(float *addr, float v) {
  int *ia = reinterpret_cast<int *>(addr);
  int old = *ia, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v) break;
    old = atomicCAS(ia, assumed, __float_as_int(v));
  } while (assumed != old);
  return __int_as_float(old);
}
__global__ void cas_max(const float *x, float *m, int n) {
  __shared__ float block_max;
  if (threadIdx.x == 0) block_max = -1e30f;
  __syncthreads();
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) atomic_max_float(&block_max, x[t]);
  __syncthreads();
  if (threadIdx.x == 0) atomic_max_float(m, block_max);
}

// Shared-memory atomics on 2D bins (privatised 2D histogram).
__global__ void hist2d_shared(const float2 *pts, unsigned *bins, int n) {
  __shared__ unsigned local[32][32];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) (&local[0][0])[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float2 p = pts[i];
    int bx = min(31, max(0, (int)(p.x * 32))), by = min(31, max(0, (int)(p.y * 32)));
    atomicInc(&local[by][bx], 0xffffffffu);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) atomicAdd(&bins[i], (&local[0][0])[i]);
}

// Warp votes and matches; __reduce_add_sync only on sm_80+.
__global__ void warp_votes(const int *keys, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int k = t < n ? keys[t] : -1;
  unsigned peers = __match_any_sync(0xffffffffu, k);
  int leader = __ffs(peers) - 1;
  int all = __all_sync(0xffffffffu, k >= 0), any = __any_sync(0xffffffffu, k == 0);
#if __CUDA_ARCH__ >= 800
  int total = __reduce_add_sync(0xffffffffu, (unsigned)k);
#else
  int total = k;
  for (int o = 16; o; o >>= 1) total += __shfl_xor_sync(0xffffffffu, total, o);
#endif
  if ((threadIdx.x & 31) == leader && t < n) out[t] = __popc(peers) + all * 2 + any * 4 + total;
}

// Many independent accumulators: high register pressure.
template <int ACC>
__global__ void many_accumulators(const float *x, float *y, int n) {
  float a[ACC];
#pragma unroll
  for (int j = 0; j < ACC; ++j) a[j] = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    float v = x[i];
#pragma unroll
    for (int j = 0; j < ACC; ++j) a[j] = fmaf(a[j], v, x[i + j + 1]);
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < ACC; ++j) s += a[j] * (j + 1);
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
template __global__ void many_accumulators<16>(const float *, float *, int);
template __global__ void many_accumulators<64>(const float *, float *, int);
template __global__ void many_accumulators<128>(const float *, float *, int);

// Same pressure under a block size that forces a 64-register cap: spills.
__global__ void __launch_bounds__(1024, 1) pressure_capped_1024(const float *x, float *y, int n) {
  float a[96];
#pragma unroll
  for (int j = 0; j < 96; ++j) a[j] = x[j * n + threadIdx.x];
  for (int it = 0; it < n; ++it) {
#pragma unroll
    for (int j = 0; j < 96; ++j) a[j] = a[j] * a[(j + 1) % 96] + 1.0f;
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < 96; ++j) s += a[j];
  y[threadIdx.x] = s;
}

__global__ void __maxnreg__(32) pressure_maxnreg32(const double *x, double *y, int n) {
  double a[24];
#pragma unroll
  for (int j = 0; j < 24; ++j) a[j] = x[j * n + threadIdx.x];
  for (int it = 0; it < n; ++it) {
#pragma unroll
    for (int j = 0; j < 24; ++j) a[j] = fma(a[j], a[(j + 5) % 24], 0.5);
  }
  double s = 0;
#pragma unroll
  for (int j = 0; j < 24; ++j) s += a[j];
  y[threadIdx.x] = s;
}

// Launch-bounds variants of the same small body.
#define LB_BODY                                                   \
  int i = blockIdx.x * blockDim.x + threadIdx.x;                  \
  if (i < n) {                                                    \
    float v = x[i], w = x[i + n], z = x[i + 2 * n];               \
    y[i] = v * w + z * sqrtf(fabsf(v - w)) + __expf(z) * v;       \
  }
__global__ void __launch_bounds__(64) lb_64(const float *x, float *y, int n) { LB_BODY }
__global__ void __launch_bounds__(128, 8) lb_128_8(const float *x, float *y, int n) { LB_BODY }
__global__ void __launch_bounds__(1024) lb_1024(const float *x, float *y, int n) { LB_BODY }
__global__ void __maxnreg__(128) lb_maxnreg128(const float *x, float *y, int n) { LB_BODY }

// Local arrays with run-time indices (stack frame, no spills).
__global__ void local_lookup(const int *idx, float *out, int n) {
  float table[64];
  for (int j = 0; j < 64; ++j) table[j] = j * 0.5f + blockIdx.x;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = table[idx[t] & 63] + table[(idx[t] >> 6) & 63];
}

__global__ void local_struct_array(const int *idx, int4 *out) {
  int4 q[16];
  for (int j = 0; j < 16; ++j) q[j] = make_int4(j, j * 2, j * 3, idx[j]);
  out[threadIdx.x] = q[idx[threadIdx.x] & 15];
}

// printf uses a local buffer for its arguments.
__global__ void debug_printf(const float *x, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && x[t] != x[t]) printf("NaN at %d (block %d, thread %d)\n", t, blockIdx.x, threadIdx.x);
}

// Recursion: ptxas cannot bound the stack statically.
__device__ int fib_rec(int k) { return k < 2 ? k : fib_rec(k - 1) + fib_rec(k - 2); }
__global__ void recursive_fib(const int *k, int *out) {
  out[threadIdx.x] = fib_rec(k[threadIdx.x] & 15);
}

// Integer division / modulo heavy kernel (64-bit): calls into slow paths.
__global__ void int64_divmod(const long long *a, const long long *b, long long *q, long long *r, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && b[t] != 0) {
    q[t] = a[t] / b[t];
    r[t] = a[t] % b[t];
  }
}
