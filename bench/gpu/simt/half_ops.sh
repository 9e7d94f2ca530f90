#!/bin/sh
# half_ops.sh: builds and runs bench/gpu/simt/half_ops.cu on the GPU at hand
# and writes its output to $OUT/half_ops.txt (the fixture
# tests/fixtures/simt/half/half_ops.txt). Run through the device tool from
# the repository root:   sh bench/gpu/simt/half_ops.sh
set -e
OUT=${OUT:-/tmp}
nvcc --version | tail -2 > "$OUT/half_ops_gpu.txt"
nvidia-smi --query-gpu=name --format=csv,noheader >> "$OUT/half_ops_gpu.txt" || true
nvcc -arch=sm_90 -O3 -o /tmp/half_ops bench/gpu/simt/half_ops.cu
/tmp/half_ops > "$OUT/half_ops.txt"
wc -l "$OUT/half_ops.txt"
