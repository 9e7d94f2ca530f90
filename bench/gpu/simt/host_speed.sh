#!/bin/sh
# host_speed.sh DIR: the simulator's speed on the device machine's CPU.
# bench/simt_bench.c's figures (bench/RESULTS.md) come from a 2-CPU virtual
# machine; this runs the same benchmark, a build of it in DIR (simt_bench,
# with the libyaml it links beside it, and tests/fixtures/simt/
# simt_bench.sm_90.ptx), three times on the machine at hand and writes the
# CPU (lscpu) and the runs to $OUT/host_speed.txt. Run through the device
# tool from the repository root:   sh bench/gpu/simt/host_speed.sh DIR
# The result: bench/gpu/simt/host_speed_h200.txt.
set -e
OUT=${OUT:-/tmp}
D=${1:?usage: host_speed.sh DIR}
{
	lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|CPU max MHz|CPU MHz)' || true
	uptime
	for r in 1 2 3; do
		echo "run $r"
		LD_LIBRARY_PATH="$D" "$D/simt_bench" 2>&1
	done
} > "$OUT/host_speed.txt"
cat "$OUT/host_speed.txt"
