// The big CCCL corpus file (sm_90): every algorithm family of cccl_common.cuh
// for many value types in one translation unit, so that the PTX is one file
// of > 10 MB.  Generated and compiled by bench/cccl/gen.py; never executed.
#include "cccl_common.cuh"
#include <cuda_fp16.h>

using namespace ccclbench;

template <typename T>
void all_for(T *a, T *b, int n, const int *offs, int segs, int *cnt, const char *flags, int *hist) {
  reductions<T>(a, b, n, offs, segs);
  scans<T>(a, b, n);
  selects<T>(a, b, cnt, flags, n);
  histograms<T>(a, hist, n);
}

void instantiate_big(void *p, int n, const int *offs, int segs, int *cnt, const char *flags, int *hist) {
  all_for<int>((int *)p, (int *)p, n, offs, segs, cnt, flags, hist);
  all_for<unsigned>((unsigned *)p, (unsigned *)p, n, offs, segs, cnt, flags, hist);
  all_for<float>((float *)p, (float *)p, n, offs, segs, cnt, flags, hist);
  all_for<double>((double *)p, (double *)p, n, offs, segs, cnt, flags, hist);
  all_for<long long>((long long *)p, (long long *)p, n, offs, segs, cnt, flags, hist);
  all_for<short>((short *)p, (short *)p, n, offs, segs, cnt, flags, hist);
  all_for<unsigned char>((unsigned char *)p, (unsigned char *)p, n, offs, segs, cnt, flags, hist);

  radix_sorts<int, int>((int *)p, (int *)p, (int *)p, (int *)p, n, offs, segs);
  radix_sorts<unsigned, float>((unsigned *)p, (unsigned *)p, (float *)p, (float *)p, n, offs, segs);
  radix_sorts<float, int>((float *)p, (float *)p, (int *)p, (int *)p, n, offs, segs);
  radix_sorts<double, unsigned>((double *)p, (double *)p, (unsigned *)p, (unsigned *)p, n, offs, segs);
  radix_sorts<unsigned long long, int>((unsigned long long *)p, (unsigned long long *)p, (int *)p, (int *)p, n,
                                       offs, segs);
  radix_sorts<short, double>((short *)p, (short *)p, (double *)p, (double *)p, n, offs, segs);
  radix_sorts<unsigned char, int>((unsigned char *)p, (unsigned char *)p, (int *)p, (int *)p, n, offs, segs);
  radix_sorts<__half, int>((__half *)p, (__half *)p, (int *)p, (int *)p, n, offs, segs);

  merge_sorts<int, int>((int *)p, (int *)p, n);
  merge_sorts<float, double>((float *)p, (double *)p, n);
  merge_sorts<long long, float>((long long *)p, (float *)p, n);
}
