#!/bin/sh
# scalar_ops.sh: builds and runs bench/gpu/simt/scalar_ops.cu on the GPU at
# hand, twice (the second run must repeat the first bit for bit), and
# writes the output to $OUT/scalar_ops.txt (the fixture
# tests/fixtures/simt/scalar/scalar_ops.txt). Run through the device tool
# from the repository root:   sh bench/gpu/simt/scalar_ops.sh
set -e
OUT=${OUT:-/tmp}
nvcc --version | tail -2 > "$OUT/scalar_ops_gpu.txt"
nvidia-smi --query-gpu=name --format=csv,noheader >> "$OUT/scalar_ops_gpu.txt" || true
nvcc -arch=sm_90 -O3 -o /tmp/scalar_ops bench/gpu/simt/scalar_ops.cu
/tmp/scalar_ops > "$OUT/scalar_ops.txt"
/tmp/scalar_ops > /tmp/scalar_ops_again.txt
cmp "$OUT/scalar_ops.txt" /tmp/scalar_ops_again.txt && echo "second run: identical" >> "$OUT/scalar_ops_gpu.txt"
wc -l "$OUT/scalar_ops.txt"
