#!/bin/sh
# measure.sh: builds simt_bench.cu for the GPU at hand and records the loop
# timings (one JSON object per line) into $OUT/simt_measured.jsonl, the SASS
# into $OUT/simt_bench.sass. Run through the device tool from the repository root:
#   sh bench/gpu/simt/measure.sh      (with OUT set to a folder)
# The committed fixture: tests/fixtures/simt/h200.jsonl (its second run
# h200_run2.jsonl, the SASS simt_bench.sm_90.sass).
set -e
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader > "$OUT/gpu.txt" || true
nvcc -arch=sm_90 -O3 -lineinfo -o /tmp/simt_bench bench/gpu/simt/simt_bench.cu
cuobjdump -sass /tmp/simt_bench > "$OUT/simt_bench.sass" || true
/tmp/simt_bench > "$OUT/simt_measured.jsonl"
/tmp/simt_bench > "$OUT/simt_measured_2.jsonl"
cat "$OUT/simt_measured.jsonl"
