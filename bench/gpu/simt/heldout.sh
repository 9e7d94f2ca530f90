#!/bin/sh
# heldout.sh: builds simt_heldout.cu (the second held-out set) for the GPU at
# hand and records its loop timings into $OUT/simt_heldout.jsonl (twice:
# simt_heldout_2.jsonl), its PTX and SASS next to them. Run through the device
# tool from the repository root:   sh bench/gpu/simt/heldout.sh
# The committed fixtures: tests/fixtures/simt/heldout/ (the measurements, the
# PTX the simulator reads, the SASS, gpu.txt).
set -e
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader > "$OUT/gpu.txt" || true
nvcc --version | tail -2 >> "$OUT/gpu.txt"
nvcc -arch=sm_90 -O3 -lineinfo -ptx -o "$OUT/simt_heldout.sm_90.ptx" bench/gpu/simt/simt_heldout.cu
nvcc -arch=sm_90 -O3 -lineinfo -o /tmp/simt_heldout bench/gpu/simt/simt_heldout.cu
cuobjdump -sass /tmp/simt_heldout > "$OUT/simt_heldout.sm_90.sass" || true
/tmp/simt_heldout > "$OUT/simt_heldout.jsonl"
/tmp/simt_heldout > "$OUT/simt_heldout_2.jsonl"
cat "$OUT/simt_heldout.jsonl" "$OUT/simt_heldout_2.jsonl"
