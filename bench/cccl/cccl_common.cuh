// Shared helpers for the CCCL benchmark corpus (bench/cccl/*.cu).
//
// These translation units exist only to make nvcc emit a very large amount of
// realistic PTX: every host function below calls CUB device-wide algorithms
// twice (size query + run), which instantiates the full set of tuning-policy
// kernels for the current -arch.  Nothing here is meant to be executed.
#pragma once
#include <cub/cub.cuh>
#include <cuda/std/cstdint>

namespace ccclbench {

// A custom reduction operator (absolute-value maximum) to force distinct
// kernel instantiations next to the built-in cuda::std::plus / min / max.
struct AbsMax {
  template <typename T>
  __host__ __device__ T operator()(const T &a, const T &b) const {
    T aa = a < T(0) ? T(0) - a : a;
    T bb = b < T(0) ? T(0) - b : b;
    return aa < bb ? b : a;
  }
};

// A predicate for DeviceSelect / DevicePartition.
template <typename T>
struct GreaterThan {
  T threshold;
  __host__ __device__ bool operator()(const T &x) const { return threshold < x; }
};

struct Less {
  template <typename T>
  __host__ __device__ bool operator()(const T &a, const T &b) const { return a < b; }
};

// Allocate temp storage once, then run the algorithm: the macro keeps the
// call sites short while still instantiating both code paths.
#define CCCL_RUN(call_with_temp)                                  \
  do {                                                            \
    void *d_temp_storage = nullptr;                               \
    size_t temp_storage_bytes = 0;                                \
    call_with_temp;                                               \
    cudaMalloc(&d_temp_storage, temp_storage_bytes);              \
    call_with_temp;                                               \
    cudaFree(d_temp_storage);                                     \
  } while (0)

template <typename T>
void reductions(const T *in, T *out, int n, const int *offsets, int segs) {
  CCCL_RUN(cub::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, in, out, n));
  CCCL_RUN(cub::DeviceReduce::Min(d_temp_storage, temp_storage_bytes, in, out, n));
  CCCL_RUN(cub::DeviceReduce::Max(d_temp_storage, temp_storage_bytes, in, out, n));
  CCCL_RUN(cub::DeviceReduce::Reduce(d_temp_storage, temp_storage_bytes, in, out, n, AbsMax{}, T(0)));
  int64_t *idx = nullptr;
  CCCL_RUN(cub::DeviceReduce::ArgMax(d_temp_storage, temp_storage_bytes, in, out, idx, n));
  CCCL_RUN(cub::DeviceReduce::ArgMin(d_temp_storage, temp_storage_bytes, in, out, idx, n));
  CCCL_RUN(cub::DeviceSegmentedReduce::Sum(d_temp_storage, temp_storage_bytes, in, out, segs,
                                           offsets, offsets + 1));
  CCCL_RUN(cub::DeviceSegmentedReduce::Max(d_temp_storage, temp_storage_bytes, in, out, segs,
                                           offsets, offsets + 1));
  CCCL_RUN(cub::DeviceSegmentedReduce::Reduce(d_temp_storage, temp_storage_bytes, in, out, segs,
                                              offsets, offsets + 1, AbsMax{}, T(0)));
}

template <typename T>
void scans(const T *in, T *out, int n) {
  CCCL_RUN(cub::DeviceScan::InclusiveSum(d_temp_storage, temp_storage_bytes, in, out, n));
  CCCL_RUN(cub::DeviceScan::ExclusiveSum(d_temp_storage, temp_storage_bytes, in, out, n));
  CCCL_RUN(cub::DeviceScan::InclusiveScan(d_temp_storage, temp_storage_bytes, in, out, AbsMax{}, n));
  CCCL_RUN(cub::DeviceScan::ExclusiveScan(d_temp_storage, temp_storage_bytes, in, out, AbsMax{}, T(0), n));
}

template <typename K, typename V>
void radix_sorts(const K *kin, K *kout, const V *vin, V *vout, int n, const int *offsets, int segs) {
  CCCL_RUN(cub::DeviceRadixSort::SortKeys(d_temp_storage, temp_storage_bytes, kin, kout, n));
  CCCL_RUN(cub::DeviceRadixSort::SortKeysDescending(d_temp_storage, temp_storage_bytes, kin, kout, n));
  CCCL_RUN(cub::DeviceRadixSort::SortPairs(d_temp_storage, temp_storage_bytes, kin, kout, vin, vout, n));
  CCCL_RUN(cub::DeviceRadixSort::SortPairsDescending(d_temp_storage, temp_storage_bytes, kin, kout, vin,
                                                     vout, n));
  CCCL_RUN(cub::DeviceSegmentedRadixSort::SortPairs(d_temp_storage, temp_storage_bytes, kin, kout, vin,
                                                    vout, n, segs, offsets, offsets + 1));
  CCCL_RUN(cub::DeviceSegmentedRadixSort::SortKeys(d_temp_storage, temp_storage_bytes, kin, kout, n, segs,
                                                   offsets, offsets + 1));
}

template <typename K, typename V>
void merge_sorts(K *keys, V *vals, int n) {
  CCCL_RUN(cub::DeviceMergeSort::SortPairs(d_temp_storage, temp_storage_bytes, keys, vals, n, Less{}));
  CCCL_RUN(cub::DeviceMergeSort::SortKeys(d_temp_storage, temp_storage_bytes, keys, n, Less{}));
}

template <typename T>
void selects(const T *in, T *out, int *num_out, const char *flags, int n) {
  CCCL_RUN(cub::DeviceSelect::If(d_temp_storage, temp_storage_bytes, in, out, num_out, n,
                                 GreaterThan<T>{T(1)}));
  CCCL_RUN(cub::DeviceSelect::Flagged(d_temp_storage, temp_storage_bytes, in, flags, out, num_out, n));
  CCCL_RUN(cub::DeviceSelect::Unique(d_temp_storage, temp_storage_bytes, in, out, num_out, n));
  CCCL_RUN(cub::DevicePartition::If(d_temp_storage, temp_storage_bytes, in, out, num_out, n,
                                    GreaterThan<T>{T(2)}));
  int *counts = nullptr;
  CCCL_RUN(cub::DeviceRunLengthEncode::Encode(d_temp_storage, temp_storage_bytes, in, out, counts, num_out,
                                              n));
  int *offs = nullptr;
  CCCL_RUN(cub::DeviceRunLengthEncode::NonTrivialRuns(d_temp_storage, temp_storage_bytes, in, offs, counts,
                                                      num_out, n));
}

template <typename T>
void histograms(const T *samples, int *hist, int n) {
  CCCL_RUN(cub::DeviceHistogram::HistogramEven(d_temp_storage, temp_storage_bytes, samples, hist, 65, T(0),
                                               T(64), n));
}

} // namespace ccclbench
