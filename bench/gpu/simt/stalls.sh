#!/bin/sh
# stalls.sh NAME...: the warp states of each loop of the loop-timing
# programs bench/gpu/simt/NAME.cu under ncu, to set against the stall
# breakdown `ptxray simt` prints (bench/gpu/simt/stalls_compare.py).
# Each program is built with -DLOOP_HOST_REPS=1 (loop_host.cuh: one launch
# at n, one at 2n per loop) and run under ncu, which counts per launch the
# warp-cycles a warp spent in each state (smsp__warps_issue_stalled_REASON:
# selected, not_selected, wait, long_scoreboard, barrier, ...: every one
# this ncu knows) and the active warp-cycles (smsp__warps_active);
# (count(2n) - count(n)) / n is an iteration's.
# Writes $OUT/NAME_stalls.csv (ncu's CSV, a row per launch and metric),
# $OUT/NAME_stalls.jsonl (the program's fixture lines, in launch order) and
# $OUT/stall_metrics.txt (the metrics, as ncu describes them). The programs
# are built in parallel first and profiled in turn, each only while
# $STALLS_SECONDS (default: no limit) have not passed since the start.
# Run from the repository root through the device tool:
#   STALLS_SECONDS=500 sh bench/gpu/simt/stalls.sh simt_bench simt_heldout3 ...
# The committed results: tests/fixtures/simt/stalls/.
set -e
OUT=${OUT:-/tmp}
START=$(date +%s)
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
[ -n "$NCU" ] || { echo "stalls.sh: no ncu" >&2; exit 1; }
"$NCU" --query-metrics --chip gh100 > "$OUT/ncu_metrics.txt" 2>&1 || true
# the warp-state counters (not the ratios derived from them) and the
# active warp-cycles they divide
grep -E '^smsp__warps_(issue_stalled_[a-z_]+|active) ' "$OUT/ncu_metrics.txt" | grep -v '_per_' \
	> "$OUT/stall_metrics.txt" || true
METRICS=smsp__inst_executed.sum,smsp__inst_issued.sum
for m in $(cut -d' ' -f1 "$OUT/stall_metrics.txt"); do
	METRICS="$METRICS,$m.sum"
done
echo "metrics: $METRICS"
for n in "$@"; do echo "$n"; done | xargs -P 16 -I{} \
	nvcc -arch=sm_90 -O3 -lineinfo -DLOOP_HOST_REPS=1 -o /tmp/stalls_{} bench/gpu/simt/{}.cu
for n in "$@"; do
	if [ -n "$STALLS_SECONDS" ] && [ $(($(date +%s) - START)) -ge "$STALLS_SECONDS" ]; then
		echo "$n: skipped (STALLS_SECONDS)"
		continue
	fi
	"$NCU" --csv --metrics "$METRICS" --cache-control none --clock-control none \
		--log-file "$OUT/${n}_stalls.csv" "/tmp/stalls_$n" > "$OUT/${n}_stalls.jsonl" \
		2> "$OUT/${n}_stalls.err" || echo "$n: ncu failed (${n}_stalls.err)"
	echo "$n: $(grep -c '"loop"' "$OUT/${n}_stalls.jsonl") loops, $(wc -l < "$OUT/${n}_stalls.csv") rows," \
		"$(($(date +%s) - START)) s"
done
