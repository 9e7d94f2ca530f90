#!/bin/sh
# l1stats.sh NAME KERNEL_REGEX: the L1's view of a loop-timing program's
# kernels under ncu, per launch (one at n, one at 2n per loop, as icount.sh
# builds them): global load requests, sectors that hit and that miss the
# L1, the data stage's wavefronts and bank conflicts, global store sectors,
# L2 read and write sectors, local loads' and stores' requests, sectors and
# L1 hits; (count(2n) - count(n)) / n is an iteration's.
# For loops the timing model gets wrong where the L1's hit rate or its
# costs decide (held-out 21's varint_decode_loop and thomas_loop).
# Writes $OUT/NAME_l1.csv (ncu's CSV) and $OUT/NAME_l1.jsonl (the program's
# fixture lines, in launch order). Run from the repository root through
# the device tool:   sh bench/gpu/simt/l1stats.sh simt_heldout21 'varint|thomas'
# More programs after the regex (the same regex for all) are built in
# parallel first and profiled in turn, each only while $L1STATS_SECONDS
# (default: no limit) have not passed since the start:
#   L1STATS_SECONDS=400 sh bench/gpu/simt/l1stats.sh simt_heldout3 . simt_heldout5 ...
set -e
OUT=${OUT:-/tmp}
NAME=$1
KRE=$2
shift 2
START=$(date +%s)
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
[ -n "$NCU" ] || { echo "l1stats.sh: no ncu" >&2; exit 1; }
WANT="l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum l1tex__data_pipe_lsu_wavefronts.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum lts__t_sectors_srcunit_tex_op_read.sum
lts__t_sectors_srcunit_tex_op_write.sum smsp__inst_executed.sum
l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum l1tex__t_requests_pipe_lsu_mem_local_op_st.sum
l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum"
"$NCU" --query-metrics --chip gh100 > "$OUT/ncu_metrics.txt" 2>&1 || true
METRICS=
for m in $WANT; do
	grep -q "^${m%.sum} " "$OUT/ncu_metrics.txt" && METRICS="$METRICS${METRICS:+,}$m"
done
echo "metrics: $METRICS"
for n in "$NAME" "$@"; do echo "$n"; done | xargs -P 16 -I{} \
	nvcc -arch=sm_90 -O3 -lineinfo -DLOOP_HOST_REPS=1 -o /tmp/l1stats_{} bench/gpu/simt/{}.cu
for n in "$NAME" "$@"; do
	if [ -n "$L1STATS_SECONDS" ] && [ $(($(date +%s) - START)) -ge "$L1STATS_SECONDS" ]; then
		echo "$n: skipped (L1STATS_SECONDS)"
		continue
	fi
	"$NCU" --csv --metrics "$METRICS" --kernel-name "regex:$KRE" --cache-control none --clock-control none \
		--log-file "$OUT/${n}_l1.csv" "/tmp/l1stats_$n" > "$OUT/${n}_l1.jsonl" 2> "$OUT/${n}_l1.err" ||
		echo "$n: ncu failed (${n}_l1.err)"
	echo "$n: $(wc -l < "$OUT/${n}_l1.csv") rows"
done
