#!/bin/sh
# icount.sh NAME...: the hardware's count of the warp-instructions each loop
# of the loop-timing programs bench/gpu/simt/NAME.cu executes, to set
# against the instructions the simulator issues
# (bench/gpu/simt/icount_compare.py). Each program is built with
# -DLOOP_HOST_REPS=1 (loop_host.cuh: one launch at n, one at 2n per loop)
# and run under ncu, which counts per launch the warp-instructions executed
# (smsp__inst_executed), their active threads (smsp__thread_inst_executed)
# and, where this ncu has them, the threads whose predicate let them run
# and the instructions of each pipe; (count(2n) - count(n)) / n is an
# iteration's.
# Writes $OUT/NAME_ncu.csv (ncu's CSV, a row per launch and metric) and
# $OUT/NAME_icount.jsonl (the program's fixture lines, in launch order).
# The programs are built in parallel first. Run from the repository root
# through the device tool:   sh bench/gpu/simt/icount.sh simt_heldout18 ...
# The committed results: tests/fixtures/simt/icount/.
set -e
OUT=${OUT:-/tmp}
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
[ -n "$NCU" ] || { echo "icount.sh: no ncu" >&2; exit 1; }
BASE=smsp__inst_executed.sum,smsp__thread_inst_executed.sum
PIPES=smsp__thread_inst_executed_pred_on.sum
for p in alu fma fmaheavy fp64 fp16 xu lsu adu cbu uniform tensor; do
	PIPES="$PIPES,smsp__inst_executed_pipe_$p.sum"
done
# the pipe metrics this ncu knows (the list differs between versions)
"$NCU" --query-metrics --chip gh100 > "$OUT/ncu_metrics.txt" 2>&1 || true
METRICS=$BASE
for m in $(echo "$PIPES" | tr ',' ' '); do
	grep -q "^${m%.sum} " "$OUT/ncu_metrics.txt" && METRICS="$METRICS,$m"
done
echo "metrics: $METRICS"
for n in "$@"; do echo "$n"; done | xargs -P 16 -I{} \
	nvcc -arch=sm_90 -O3 -lineinfo -DLOOP_HOST_REPS=1 -o /tmp/icount_{} bench/gpu/simt/{}.cu
for n in "$@"; do
	"$NCU" --csv --metrics "$METRICS" --cache-control none --clock-control none \
		--log-file "$OUT/${n}_ncu.csv" "/tmp/icount_$n" > "$OUT/${n}_icount.jsonl" \
		2> "$OUT/${n}_ncu.err" || echo "$n: ncu failed (${n}_ncu.err)"
	echo "$n: $(grep -c '"loop"' "$OUT/${n}_icount.jsonl") loops, $(wc -l < "$OUT/${n}_ncu.csv") rows"
done
