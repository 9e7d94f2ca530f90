// tests/corpus/reduce_scan.cu: reductions and scans in shared memory, with
// warp shuffles and cooperative groups.  Templates over block size and value
// type give several shared-memory sizes for the same code.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) block_reduce(const T *in, T *out, int n) {
  __shared__ T s[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  for (int w = BLOCK / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
template __global__ void block_reduce<float, 128>(const float *, float *, int);
template __global__ void block_reduce<double, 256>(const double *, double *, int);
template __global__ void block_reduce<int, 512>(const int *, int *, int);
template __global__ void block_reduce<short, 1024>(const short *, short *, int);

// Shuffle-only reduction: one shared slot per warp.
__global__ void warp_shuffle_reduce(const float *in, float *out, int n) {
  __shared__ float warp_sums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x >> 5) ? warp_sums[lane] : 0.0f;
    for (int o = 16; o; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) atomicAdd(out, v);
  }
}

// Cooperative groups: tiled partitions and cg::reduce.
__global__ void cg_tile_reduce(const int *in, int *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = block.group_index().x * block.size() + block.thread_rank();
  int v = i < n ? in[i] : 0;
  v = cg::reduce(tile, v, cg::plus<int>());
  if (tile.thread_rank() == 0) atomicAdd(out, v);
}

__global__ void cg_tile16_max(const float *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : -1e30f;
  for (int o = tile.size() / 2; o > 0; o /= 2) v = fmaxf(v, tile.shfl_down(v, o));
  block.sync();
  if (tile.thread_rank() == 0) out[i / 16] = v;
}

// Hillis-Steele inclusive scan, double-buffered in shared memory.
__global__ void scan_hillis_steele(const float *in, float *out, int n) {
  __shared__ float buf[2][512];
  int t = threadIdx.x, pout = 0, pin = 1;
  buf[pout][t] = t < n ? in[t] : 0.0f;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    pout = 1 - pout;
    pin = 1 - pout;
    buf[pout][t] = t >= off ? buf[pin][t] + buf[pin][t - off] : buf[pin][t];
    __syncthreads();
  }
  if (t < n) out[t] = buf[pout][t];
}

// Blelloch work-efficient exclusive scan with bank-conflict padding.
#define LOG_BANKS 5
#define PAD(i) ((i) >> LOG_BANKS)
__global__ void scan_blelloch(const int *in, int *out, int n) {
  __shared__ int temp[2 * 256 + (2 * 256 >> LOG_BANKS)];
  int t = threadIdx.x;
  int a = t, b = t + n / 2;
  temp[a + PAD(a)] = in[a];
  temp[b + PAD(b)] = in[b];
  int off = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
      temp[bi + PAD(bi)] += temp[ai + PAD(ai)];
    }
    off *= 2;
  }
  if (t == 0) temp[n - 1 + PAD(n - 1)] = 0;
  for (int d = 1; d < n; d *= 2) {
    off >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
      int x = temp[ai + PAD(ai)];
      temp[ai + PAD(ai)] = temp[bi + PAD(bi)];
      temp[bi + PAD(bi)] += x;
    }
  }
  __syncthreads();
  out[a] = temp[a + PAD(a)];
  out[b] = temp[b + PAD(b)];
}

// Warp-level inclusive scan with shuffles, segmented by head flags via ballot.
__global__ void warp_segmented_scan(const int *in, const int *head, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = i < n ? in[i] : 0;
  unsigned heads = __ballot_sync(0xffffffffu, i < n && head[i]);
  int seg_start = 31 - __clz(heads & ((2u << lane) - 1));
  for (int o = 1; o < 32; o <<= 1) {
    int u = __shfl_up_sync(0xffffffffu, v, o);
    if (lane - o >= seg_start) v += u;
  }
  if (i < n) out[i] = v;
}

// Two-pass mean/variance (fp64 accumulators, two shared arrays).
__global__ void mean_var(const float *x, double *stats, int n) {
  __shared__ double s1[256];
  __shared__ double s2[256];
  double a = 0, b = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    double v = x[i];
    a += v;
    b += v * v;
  }
  s1[threadIdx.x] = a;
  s2[threadIdx.x] = b;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) {
      s1[threadIdx.x] += s1[threadIdx.x + w];
      s2[threadIdx.x] += s2[threadIdx.x + w];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd(&stats[0], s1[0]);
    atomicAdd(&stats[1], s2[0]);
  }
}
