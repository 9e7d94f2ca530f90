#!/bin/sh
# bench/gpu/run_device.sh: run on the GPU machine (the device tool), from the
# repository root, with OUT set to a folder that comes back. Compiles
# kernels.cu with -lineinfo, runs it once plainly and once under ncu
# collecting per-kernel hardware counters, and (best effort) the per-SASS
# source counters. bench/gpu/extract.py turns the outputs into the committed
# fixture tests/gpu/hw_counters.json.
# The exact command used: sh bench/gpu/run_device.sh  (through the device tool, H100)
set -x
B=/tmp/pxgpu; mkdir -p $B
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt 2>&1
ncu --version >> $OUT/device.txt 2>&1
nvcc --version >> $OUT/device.txt 2>&1
nvcc -arch=sm_90 -lineinfo -O3 bench/gpu/kernels.cu -o $B/kern || exit 1
nvcc -arch=sm_90 -lineinfo -ptx bench/gpu/kernels.cu -o $OUT/kernels.ptx
$B/kern > $OUT/run.txt 2>&1
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
M=$M,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum
M=$M,smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum
M=$M,smsp__inst_executed.sum,smsp__thread_inst_executed.sum
timeout 240 ncu --metrics $M --csv --page raw $B/kern > $OUT/metrics.csv 2> $OUT/metrics.err
timeout 200 ncu --section SourceCounters --import-source yes -f -o $B/rep $B/kern > $OUT/src_run.txt 2>&1
timeout 60 ncu -i $B/rep.ncu-rep --page source --csv --print-source sass > $OUT/source_sass.csv 2> $OUT/source.err
cuobjdump -xelf all $B/kern > /dev/null 2>&1; mv *.cubin $B/ 2>/dev/null
(for c in $B/*.cubin; do nvdisasm -g -c $c; done) > $OUT/sass_lines.txt 2>&1
cd $OUT && tar czf source.tgz source_sass.csv sass_lines.txt && rm -f source_sass.csv sass_lines.txt
ls -la $OUT
