#!/bin/sh
# heldout.sh [NAME]: builds bench/gpu/simt/NAME.cu (default simt_heldout, the
# second held-out set; simt_heldout3, the third) for the GPU at hand and
# records its loop timings into $OUT/NAME.jsonl (twice: NAME_2.jsonl), its
# PTX and SASS next to them. Run through the device tool from the repository
# root:   sh bench/gpu/simt/heldout.sh [NAME]
# The committed fixtures: tests/fixtures/simt/heldout/, heldout3/, heldout4/ and
# heldout5/, and probes/ for the *_probe.cu programs (the measurements, the
# PTX the simulator reads, the SASS, gpu.txt; idiv_probe_gpu.txt).
set -e
OUT=${OUT:-/tmp}
N=${1:-simt_heldout}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader > "$OUT/gpu.txt" || true
nvcc --version | tail -2 >> "$OUT/gpu.txt"
nvcc -arch=sm_90 -O3 -lineinfo -ptx -o "$OUT/$N.sm_90.ptx" "bench/gpu/simt/$N.cu"
nvcc -arch=sm_90 -O3 -lineinfo -o "/tmp/$N" "bench/gpu/simt/$N.cu"
cuobjdump -sass "/tmp/$N" > "$OUT/$N.sm_90.sass" || true
"/tmp/$N" > "$OUT/$N.jsonl"
"/tmp/$N" > "$OUT/${N}_2.jsonl"
cat "$OUT/$N.jsonl" "$OUT/${N}_2.jsonl"
