// CCCL corpus for sm_80: a moderate mix of reductions, scans, selects and a
// radix sort, so that the benchmark also covers an Ampere tuning policy.
// Generated and compiled by bench/cccl/gen.py; never executed.
#include "cccl_common.cuh"

using namespace ccclbench;

void instantiate_sm80(void *p, int n, const int *offs, int segs, int *cnt, const char *flags, int *hist) {
  reductions<float>((float *)p, (float *)p, n, offs, segs);
  reductions<int>((int *)p, (int *)p, n, offs, segs);
  scans<double>((double *)p, (double *)p, n);
  scans<int>((int *)p, (int *)p, n);
  selects<int>((int *)p, (int *)p, cnt, flags, n);
  histograms<unsigned char>((unsigned char *)p, hist, n);
  radix_sorts<unsigned, int>((unsigned *)p, (unsigned *)p, (int *)p, (int *)p, n, offs, segs);
  merge_sorts<int, float>((int *)p, (float *)p, n);
}
