#!/bin/sh
# carveout.sh: runs carveout_probe.cu under ncu and records, per launch, the
# shared-memory capacity the driver configured (launch__shared_mem_config_size)
# next to the launch's block size, shared memory, registers and the runtime's
# resident blocks per SM: $OUT/carveout_probe.jsonl (the program's lines) and
# $OUT/carveout_ncu.csv (ncu's). Run from the repository root:
#   OUT=/some/dir sh bench/gpu/simt/carveout.sh
# The committed fixture: tests/fixtures/simt/carveout/.
set -e
OUT=${OUT:-/tmp}
nvcc -arch=sm_90 -O3 -o /tmp/carveout_probe bench/gpu/simt/carveout_probe.cu
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
timeout 200 "$NCU" --csv --metrics launch__shared_mem_config_size,launch__occupancy_limit_shared_mem \
	--log-file "$OUT/carveout_ncu.csv" /tmp/carveout_probe > "$OUT/carveout_probe.jsonl"
wc -l "$OUT/carveout_probe.jsonl" "$OUT/carveout_ncu.csv"
