#!/bin/sh
# examples/regen.sh: regenerate examples/NAME.ptx from examples/NAME.cu.
#
# Usage: examples/regen.sh            (from anywhere; uses nvcc from PATH or
#                                      /usr/local/cuda/bin)
# Each file is compiled as
#     nvcc -ptx -lineinfo -arch=sm_90 NAME.cu -o NAME.ptx
# from inside examples/ so that the PTX `.file` directive carries the relative
# name (NAME.cu) and the output does not depend on where the checkout lives.
# The output is deterministic for a given nvcc version; the version used is
# printed so that a diff in the .ptx can be traced to a toolkit change.
# After regenerating, refresh the ptxas ground truth with tests/corpus/gen.py.
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
"$NVCC" --version | tail -n 2
for cu in vector_add.cu reduce.cu transpose.cu stencil.cu histogram.cu matmul_tiled.cu; do
    ptx=${cu%.cu}.ptx
    echo "nvcc -ptx -lineinfo -arch=sm_90 $cu -o $ptx"
    "$NVCC" -ptx -lineinfo -arch=sm_90 "$cu" -o "$ptx"
done
