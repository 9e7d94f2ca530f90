// tests/corpus/elementwise.cu: element-wise kernels over several value types
// (fp32, fp64, fp16, bf16, integers, vector types).  Ground truth for the
// register estimate on simple straight-line and grid-stride code.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void daxpy_grid_stride(long n, double a, const double *__restrict__ x, double *__restrict__ y) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)blockDim.x * gridDim.x)
    y[i] = fma(a, x[i], y[i]);
}

// Packed half2 arithmetic: two lanes per 32-bit register.
__global__ void haxpy2(int n2, __half2 a, const __half2 *x, __half2 *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) y[i] = __hfma2(a, x[i], y[i]);
}

// bf16 storage, fp32 math.
__global__ void bf16_scale_bias(int n, const __nv_bfloat16 *x, __nv_bfloat16 *y, float scale, float bias) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2bfloat16(__bfloat162float(x[i]) * scale + bias);
}

// Template instantiated for several types: different register classes.
template <typename T>
__global__ void clamp_scale(int n, const T *in, T *out, T lo, T hi, T s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    T v = in[i] * s;
    out[i] = v < lo ? lo : (v > hi ? hi : v);
  }
}
template __global__ void clamp_scale<float>(int, const float *, float *, float, float, float);
template __global__ void clamp_scale<double>(int, const double *, double *, double, double, double);
template __global__ void clamp_scale<int>(int, const int *, int *, int, int, int);
template __global__ void clamp_scale<long long>(int, const long long *, long long *, long long, long long,
                                                long long);

// Transcendental-heavy kernel: many live temporaries.
__global__ void gelu_tanh(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    float t = tanhf(0.7978845608f * (v + 0.044715f * v * v * v));
    y[i] = 0.5f * v * (1.0f + t);
  }
}

// float4 loads, 16 bytes per thread.
__global__ void rgba_to_luma(int n, const float4 *rgba, float *luma) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 p = rgba[i];
    luma[i] = 0.299f * p.x + 0.587f * p.y + 0.114f * p.z;
  }
}

// fp64 math library calls (sin/cos/exp) inflate registers and may use the stack.
__global__ void fp64_special(int n, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = sin(x[i]) * exp(-x[i]) + cos(2.0 * x[i]);
}

// Integer hashing: 64-bit multiply/shift chains.
__global__ void hash_u64(int n, const unsigned long long *in, unsigned long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned long long z = in[i] + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    out[i] = z ^ (z >> 31);
  }
}

// A kernel with a big by-value struct parameter (param space > 256 bytes).
struct Coeffs {
  float c[80];
  int degree;
};
__global__ void poly_eval(int n, const float *x, float *y, Coeffs k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.0f;
    for (int d = k.degree; d >= 0; --d) acc = acc * x[i] + k.c[d];
    y[i] = acc;
  }
}

// No parameters at all.
__device__ unsigned g_counter;
__global__ void bump_counter() {
  if (threadIdx.x == 0) atomicAdd(&g_counter, 1u);
}
