// tests/corpus/shared_layout.cu: shared-memory layouts for the static shared
// size check.  Several __shared__ arrays of different types and alignments in
// one kernel, structs with __align__, scalar shared variables, shared arrays
// declared inside device functions (PTX hoists them to module scope; ptxas
// counts each one for every kernel that reaches it through calls), and
// dynamic (extern) shared memory alone and next to static arrays.

// Mixed element types: char, double, short, int in declaration order.
__global__ void mixed_types(char *c, double *d, short *s, int *i) {
  __shared__ char sc[37];
  __shared__ double sd[17];
  __shared__ short ss[23];
  __shared__ int si[5];
  int t = threadIdx.x;
  if (t < 37) sc[t] = c[t];
  if (t < 17) sd[t] = d[t];
  if (t < 23) ss[t] = s[t];
  if (t < 5) si[t] = i[t];
  __syncthreads();
  c[t] = sc[(t + 1) % 37];
  d[t] = sd[(t + 3) % 17];
  s[t] = ss[(t + 5) % 23];
  i[t] = si[(t + 2) % 5];
}

// Vector types: float4 (16-byte aligned) after a char array.
__global__ void vec_after_char(const float4 *in, float4 *out, unsigned char *flags) {
  __shared__ unsigned char f[3];
  __shared__ float4 v[64];
  __shared__ double2 w[8];
  int t = threadIdx.x;
  if (t < 3) f[t] = flags[t];
  if (t < 64) v[t] = in[t];
  if (t < 8) w[t] = make_double2(t, -t);
  __syncthreads();
  if (t < 64) {
    float4 a = v[63 - t];
    double2 b = w[t & 7];
    out[t] = make_float4(a.x + f[t % 3], a.y + (float)b.x, a.z, a.w + (float)b.y);
  }
}

// Structs: an over-aligned one and a packed-ish one of odd size.
struct __align__(16) Particle {
  float3 pos;
  float mass;
  int id;
};
struct Rgb {
  unsigned char r, g, b;
};
__global__ void struct_arrays(const Particle *p, const Rgb *c, float *out) {
  __shared__ Rgb colors[50];
  __shared__ Particle parts[33];
  int t = threadIdx.x;
  if (t < 33) parts[t] = p[t];
  if (t < 50) colors[t] = c[t];
  __syncthreads();
  if (t < 33) out[t] = parts[t].mass * colors[t].r + parts[32 - t].pos.x + colors[t + 17].b;
}

// Scalar shared variables (flag + counter) next to an array.
__global__ void scalar_shared(const int *in, int *out, int n) {
  __shared__ int count;
  __shared__ bool done;
  __shared__ int items[128];
  if (threadIdx.x == 0) { count = 0; done = false; }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    int slot = atomicAdd(&count, 1);
    if (slot < 128) items[slot] = in[i];
    else done = true;
  }
  __syncthreads();
  if (threadIdx.x < count && threadIdx.x < 128) out[blockIdx.x * 128 + threadIdx.x] = items[threadIdx.x] + done;
}

// A large static allocation (40 KiB of the 48 KiB static limit).
__global__ void big_static(const float *in, float *out) {
  __shared__ float big[10240];
  for (int i = threadIdx.x; i < 10240; i += blockDim.x) big[i] = in[blockIdx.x * 10240 + i];
  __syncthreads();
  for (int i = threadIdx.x; i < 10240; i += blockDim.x) out[blockIdx.x * 10240 + i] = big[10239 - i];
}

// ---- shared arrays in device functions ------------------------------------

// Not inlined: its buffer is a module-scope .shared variable in PTX, referenced
// only from the function body; every kernel calling it owns a copy.
__device__ __noinline__ float dev_block_sum(float v) {
  __shared__ float partial[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  v = lane < (blockDim.x >> 5) ? partial[lane] : 0.0f;
  for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__device__ __noinline__ int dev_block_max(int v) {
  __shared__ int best[64];
  __shared__ double unused_pad[3];  // referenced below so it is kept
  best[threadIdx.x & 63] = v;
  if (threadIdx.x < 3) unused_pad[threadIdx.x] = v;
  __syncthreads();
  int m = best[0];
  for (int i = 1; i < 64; ++i) m = max(m, best[i]);
  return m + (int)unused_pad[threadIdx.x % 3];
}

// Calls another function with its own shared buffer: transitive reachability.
__device__ __noinline__ float dev_normalise(float v) {
  __shared__ float scale;
  float s = dev_block_sum(v * v);
  if (threadIdx.x == 0) scale = rsqrtf(s + 1e-6f);
  __syncthreads();
  return v * scale;
}

// Inlined helper with its own shared array (hoisted to module scope as well).
__device__ __forceinline__ int inl_prefix(int v) {
  __shared__ int pre[256];
  pre[threadIdx.x] = v;
  __syncthreads();
  int s = 0;
  for (int i = 0; i <= (int)threadIdx.x; ++i) s += pre[i];
  return s;
}

__global__ void calls_sum(const float *in, float *out) {
  float v = dev_block_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

__global__ void calls_sum_and_own(const float *in, float *out) {
  __shared__ float own[100];
  own[threadIdx.x % 100] = in[threadIdx.x];
  __syncthreads();
  float v = dev_block_sum(own[(threadIdx.x + 7) % 100]);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

__global__ void calls_two(const float *in, int *out) {
  float f = dev_block_sum(in[threadIdx.x]);
  int m = dev_block_max((int)f);
  out[blockIdx.x] = m;
}

__global__ void calls_transitive(const float *in, float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = dev_normalise(in[blockIdx.x * blockDim.x + threadIdx.x]);
}

__global__ void calls_inlined(const int *in, int *out) {
  out[threadIdx.x] = inl_prefix(in[threadIdx.x]);
}

__global__ void calls_inlined_and_max(const int *in, int *out) {
  int p = inl_prefix(in[threadIdx.x]);
  out[threadIdx.x] = dev_block_max(p);
}

// Conditional call: the callee's shared memory still counts.
__global__ void calls_conditionally(const float *in, float *out, int mode) {
  float v = in[threadIdx.x];
  if (mode == 1) v = dev_block_sum(v);
  out[threadIdx.x] = v;
}

// ---- dynamic shared memory ---------------------------------------------------

// Dynamic only.
__global__ void dyn_only(const float *in, float *out, int n) {
  extern __shared__ float dyn[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) dyn[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = dyn[n - 1 - i];
}

// Dynamic next to static arrays; the dynamic region is carved into two types.
__global__ void dyn_plus_static(const int *in, double *out, int n) {
  extern __shared__ __align__(16) unsigned char raw[];
  __shared__ int hist[64];
  __shared__ double total;
  double *dbuf = reinterpret_cast<double *>(raw);
  int *ibuf = reinterpret_cast<int *>(raw + n * sizeof(double));
  if (threadIdx.x < 64) hist[threadIdx.x] = 0;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    ibuf[i] = in[i];
    dbuf[i] = in[i] * 0.5;
    atomicAdd(&hist[in[i] & 63], 1);
  }
  __syncthreads();
  if (threadIdx.x < 64) atomicAdd(&total, dbuf[threadIdx.x] + hist[threadIdx.x] + ibuf[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

// Dynamic shared memory reached only through a device function.
__device__ __noinline__ void dyn_fill(int n, float v) {
  extern __shared__ float dyn_from_func[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) dyn_from_func[i] = v * i;
  __syncthreads();
}
__global__ void dyn_via_function(float *out, int n) {
  __shared__ float small[4];
  if (threadIdx.x < 4) small[threadIdx.x] = 1.0f;
  dyn_fill(n, 2.0f);
  extern __shared__ float dyn_from_func[];
  out[threadIdx.x] = dyn_from_func[threadIdx.x % n] + small[threadIdx.x & 3];
}

// Template over element type: same code, different alignment and size.
template <typename T, int N>
__global__ void tmpl_shared(const T *in, T *out) {
  __shared__ T a[N];
  __shared__ char tag[N / 4 + 1];
  int t = threadIdx.x;
  if (t < N) a[t] = in[t];
  if (t <= N / 4) tag[t] = (char)t;
  __syncthreads();
  if (t < N) out[t] = a[N - 1 - t] + (T)tag[t / 4];
}
template __global__ void tmpl_shared<char, 100>(const char *, char *);
template __global__ void tmpl_shared<short, 99>(const short *, short *);
template __global__ void tmpl_shared<double, 31>(const double *, double *);
template __global__ void tmpl_shared<float, 1000>(const float *, float *);
