#!/bin/sh
# probe.sh: builds transpose_probe.cu for the GPU at hand and records why
# transpose_loop/128 misses L1 (see the comments in transpose_probe.cu for the
# variants and how to read them): timings, one JSON object per line, into
# $OUT/transpose_probe.jsonl (a second run into transpose_probe_2.jsonl), the
# SASS into $OUT/transpose_probe.sass, and ncu's L1 hit counters and shared
# memory config of the baseline at 128/256/512 threads (and of the carveout
# copy at 128 threads: carveout 0, 100, 100 KiB dynamic shared) into
# $OUT/transpose_ncu.csv. ncu is optional: its failure (no profiling
# permission, no ncu) does not fail the script. Run from the repository root:
#   OUT=/some/dir sh bench/gpu/simt/probe.sh
set -e
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader > "$OUT/gpu.txt" || true
nvcc -arch=sm_90 -O3 -lineinfo -o /tmp/transpose_probe bench/gpu/simt/transpose_probe.cu
cuobjdump -sass /tmp/transpose_probe > "$OUT/transpose_probe.sass" || true
timeout 60 /tmp/transpose_probe > "$OUT/transpose_probe.jsonl"
timeout 60 /tmp/transpose_probe > "$OUT/transpose_probe_2.jsonl" || true
cat "$OUT/transpose_probe.jsonl"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1 || true)
if [ -n "$NCU" ]; then
	timeout 100 "$NCU" --csv -k regex:transpose_ \
		--metrics l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,launch__shared_mem_config_size \
		--log-file "$OUT/transpose_ncu.csv" \
		/tmp/transpose_probe ncu > "$OUT/transpose_ncu.out" 2> "$OUT/transpose_ncu.err" || echo "ncu failed (see transpose_ncu.err, transpose_ncu.out)"
	cat "$OUT/transpose_ncu.csv" || true
else
	echo "no ncu found" > "$OUT/transpose_ncu.err"
fi
