// tests/corpus/fft_sort.cu: FFT-like butterflies and sorting networks, in
// shared memory and in registers (local arrays).
#include <cuda_fp16.h>

// Radix-2 decimation-in-time FFT of N complex points per block, in shared memory.
template <int N>
__global__ void fft_radix2(float2 *data) {
  __shared__ float2 s[N];
  float2 *d = data + blockIdx.x * N;
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    int r = __brev(i) >> (32 - __ffs(N) + 1);  // bit-reversed index
    s[r] = d[i];
  }
  __syncthreads();
  for (int len = 2; len <= N; len <<= 1) {
    int half = len >> 1;
    for (int j = threadIdx.x; j < N / 2; j += blockDim.x) {
      int grp = j / half, pos = j % half;
      int a = grp * len + pos, b = a + half;
      float sn, cs;
      __sincosf(-6.2831853f * pos / len, &sn, &cs);
      float2 u = s[a], v = s[b];
      float2 t = make_float2(v.x * cs - v.y * sn, v.x * sn + v.y * cs);
      s[a] = make_float2(u.x + t.x, u.y + t.y);
      s[b] = make_float2(u.x - t.x, u.y - t.y);
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < N; i += blockDim.x) d[i] = s[i];
}
template __global__ void fft_radix2<256>(float2 *);
template __global__ void fft_radix2<1024>(float2 *);

// fp64 radix-4 butterfly stage on global memory, twiddles precomputed.
__global__ void fft_radix4_stage_fp64(double2 *x, const double2 *tw, int quarter) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= quarter) return;
  double2 a = x[j], b = x[j + quarter], c = x[j + 2 * quarter], d = x[j + 3 * quarter];
  double2 w1 = tw[j], w2 = tw[2 * j], w3 = tw[3 * j];
  double2 b2 = make_double2(b.x * w1.x - b.y * w1.y, b.x * w1.y + b.y * w1.x);
  double2 c2 = make_double2(c.x * w2.x - c.y * w2.y, c.x * w2.y + c.y * w2.x);
  double2 d2 = make_double2(d.x * w3.x - d.y * w3.y, d.x * w3.y + d.y * w3.x);
  double2 s0 = make_double2(a.x + c2.x, a.y + c2.y), s1 = make_double2(a.x - c2.x, a.y - c2.y);
  double2 s2 = make_double2(b2.x + d2.x, b2.y + d2.y), s3 = make_double2(b2.x - d2.x, b2.y - d2.y);
  x[j] = make_double2(s0.x + s2.x, s0.y + s2.y);
  x[j + quarter] = make_double2(s1.x + s3.y, s1.y - s3.x);
  x[j + 2 * quarter] = make_double2(s0.x - s2.x, s0.y - s2.y);
  x[j + 3 * quarter] = make_double2(s1.x - s3.y, s1.y + s3.x);
}

// Bitonic sort of N keys per block in shared memory.
template <typename K, int N>
__global__ void bitonic_sort_shared(K *keys) {
  __shared__ K s[N];
  K *d = keys + blockIdx.x * N;
  for (int i = threadIdx.x; i < N; i += blockDim.x) s[i] = d[i];
  __syncthreads();
#pragma unroll 1
  for (int k = 2; k <= N; k <<= 1)
#pragma unroll 1
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = threadIdx.x; i < N; i += blockDim.x) {
        int p = i ^ j;
        if (p > i) {
          bool up = (i & k) == 0;
          K a = s[i], b = s[p];
          if ((a > b) == up) { s[i] = b; s[p] = a; }
        }
      }
      __syncthreads();
    }
  for (int i = threadIdx.x; i < N; i += blockDim.x) d[i] = s[i];
}
template __global__ void bitonic_sort_shared<int, 512>(int *);
template __global__ void bitonic_sort_shared<float, 2048>(float *);
template __global__ void bitonic_sort_shared<double, 1024>(double *);
template __global__ void bitonic_sort_shared<unsigned char, 4096>(unsigned char *);

// Key-value bitonic sort: two shared arrays of different element sizes.
__global__ void bitonic_pairs(unsigned long long *keys, short *vals) {
  __shared__ unsigned long long sk[256];
  __shared__ short sv[256];
  int t = threadIdx.x;
  sk[t] = keys[blockIdx.x * 256 + t];
  sv[t] = vals[blockIdx.x * 256 + t];
  __syncthreads();
  for (int k = 2; k <= 256; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      int p = t ^ j;
      if (p > t && ((sk[t] > sk[p]) == ((t & k) == 0))) {
        unsigned long long a = sk[t]; sk[t] = sk[p]; sk[p] = a;
        short b = sv[t]; sv[t] = sv[p]; sv[p] = b;
      }
      __syncthreads();
    }
  keys[blockIdx.x * 256 + t] = sk[t];
  vals[blockIdx.x * 256 + t] = sv[t];
}

// Sorting network in registers: 8 values per thread, fully unrolled.
__device__ __forceinline__ void cswap(float &a, float &b) {
  float lo = fminf(a, b), hi = fmaxf(a, b);
  a = lo; b = hi;
}
__global__ void sort8_registers(float *data) {
  float v[8];
  float *p = data + (blockIdx.x * blockDim.x + threadIdx.x) * 8;
#pragma unroll
  for (int i = 0; i < 8; ++i) v[i] = p[i];
#pragma unroll
  for (int k = 2; k <= 8; k <<= 1)
#pragma unroll
    for (int j = k >> 1; j > 0; j >>= 1)
#pragma unroll
      for (int i = 0; i < 8; ++i)
        if ((i ^ j) > i) {
          if ((i & k) == 0) cswap(v[i], v[i ^ j]); else cswap(v[i ^ j], v[i]);
        }
#pragma unroll
  for (int i = 0; i < 8; ++i) p[i] = v[i];
}

// Odd-even transposition sort with a run-time length: local array in memory.
__global__ void odd_even_local(int *data, int len) {
  int v[32];
  int *p = data + (blockIdx.x * blockDim.x + threadIdx.x) * 32;
  for (int i = 0; i < len && i < 32; ++i) v[i] = p[i];
  for (int phase = 0; phase < len; ++phase)
    for (int i = phase & 1; i + 1 < len && i + 1 < 32; i += 2)
      if (v[i] > v[i + 1]) { int t = v[i]; v[i] = v[i + 1]; v[i + 1] = t; }
  for (int i = 0; i < len && i < 32; ++i) p[i] = v[i];
}

// Warp-wide bitonic sort with shuffles (no shared memory).
__global__ void warp_bitonic_shfl(unsigned *keys) {
  int lane = threadIdx.x & 31;
  unsigned k = keys[blockIdx.x * blockDim.x + threadIdx.x];
  for (int size = 2; size <= 32; size <<= 1)
    for (int j = size >> 1; j > 0; j >>= 1) {
      unsigned o = __shfl_xor_sync(0xffffffffu, k, j);
      bool up = (lane & size) == 0, low = (lane & j) == 0;
      k = (low == up) ? min(k, o) : max(k, o);
    }
  keys[blockIdx.x * blockDim.x + threadIdx.x] = k;
}
