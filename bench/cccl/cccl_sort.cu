// CCCL corpus, sorting only (sm_90): radix and merge sorts for pair types not
// in cccl_big.cu.  Generated and compiled by bench/cccl/gen.py; never executed.
#include "cccl_common.cuh"

using namespace ccclbench;

void instantiate_sort(void *p, int n, const int *offs, int segs) {
  radix_sorts<long long, long long>((long long *)p, (long long *)p, (long long *)p, (long long *)p, n, offs,
                                    segs);
  radix_sorts<unsigned short, float>((unsigned short *)p, (unsigned short *)p, (float *)p, (float *)p, n, offs,
                                     segs);
  merge_sorts<double, int>((double *)p, (int *)p, n);
  merge_sorts<unsigned, unsigned>((unsigned *)p, (unsigned *)p, n);
}
