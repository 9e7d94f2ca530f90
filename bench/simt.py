#!/usr/bin/env python3
"""bench/simt.py: `ptxray simt` interpreter speed (issue 8); run by bench/run.py.

Usage: python3 bench/simt.py BUILD_DIR

Runs BUILD_DIR/simt_bench (bench/simt_bench.c) on its default workloads:
one 256-thread block of tests/fixtures/simt/simt_bench.sm_90.ptx running a
1,000-iteration loop, for fp32_tput (arithmetic), barrier_loop (bar.sync),
global_stream (global loads) and gemm_loop (shared-memory tiles); for each
it prints warp-instructions per second by wall and by CPU time against the
20 M goal and the time against the 1 s goal. Standard library only.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(argv):
    if len(argv) != 1:
        print('usage: python3 bench/simt.py BUILD_DIR', file=sys.stderr)
        return 2
    prog = os.path.join(os.path.abspath(argv[0]), 'simt_bench')
    if not os.path.isfile(prog):
        print('%s: not built (ninja %s)' % (prog, os.path.relpath(prog, ROOT)))
        return 1
    return subprocess.run([prog], cwd=ROOT, stdin=subprocess.DEVNULL).returncode


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
