#!/bin/sh
# tests/gpu/launch/run_launch.sh OUT_DIR: builds and runs the launch
# feasibility programs (launch_block.cu, launch_regs.cu, launch_smem.cu) on
# the GPU machine (nvcc in PATH or /usr/local/cuda/bin) and writes
# OUT_DIR/launch.json: the device, and per program every launch's
# cudaGetLastError and every kernel's cudaFuncGetAttributes (the fixture
# tests/fixtures/launch/h100.json, checked by tests/check_launch_hw.py),
# plus OUT_DIR/launch_log.txt (ptxas -v, the opt-in results).
set -e
out=${1:?usage: run_launch.sh OUT_DIR}
PATH=$PATH:/usr/local/cuda/bin
here=$(cd "$(dirname "$0")" && pwd)
log="$out/launch_log.txt"
: > "$log"
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 || true)
{
	printf '{"schema": "ptxray-launch-hw/1",\n "command": "tests/gpu/launch/run_launch.sh OUT (nvcc -O2 -arch=sm_90 each program; cudaGetLastError after each launch)",\n "gpu": "%s",\n "programs": {' "$gpu"
	sep=''
	for p in launch_block launch_regs launch_smem; do
		(cd "$here" && nvcc -O2 -arch=sm_90 -Xptxas -v -o "$out/$p" "$p.cu") >> "$log" 2>&1
		printf '%s\n  "tests/gpu/launch/%s.cu": ' "$sep" "$p"
		(cd "$here" && "$out/$p" 2>> "$log")
		rm -f "$out/$p"
		sep=','
	done
	printf '}}\n'
} > "$out/launch.json"
