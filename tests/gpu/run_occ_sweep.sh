#!/bin/sh
# tests/gpu/run_occ_sweep.sh OUT_DIR: builds and runs occ_sweep.cu on the GPU
# machine (nvcc in PATH or /usr/local/cuda/bin), writing OUT_DIR/occupancy.json
# (the fixture tests/fixtures/occupancy/h100.json) and OUT_DIR/ptxas.txt.
set -e
out=${1:?usage: run_occ_sweep.sh OUT_DIR}
PATH=$PATH:/usr/local/cuda/bin
here=$(dirname "$0")
nvcc -O2 -arch=sm_90 -Xptxas -v -o "$out/occ_sweep" "$here/occ_sweep.cu" 2> "$out/ptxas.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt" || true
"$out/occ_sweep" > "$out/occupancy.json"
