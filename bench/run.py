#!/usr/bin/env python3
"""bench/run.py: runs the benchmarks (`ninja bench`); never part of `ninja test`.

Usage: python3 bench/run.py BUILD_DIR

Runs each script in BENCHMARKS as `python3 SCRIPT BUILD_DIR` from the repository
root, in order, letting its output through. A listed script that does not exist
yet is skipped with a message. Exits 1 when a benchmark script fails.
Standard library only.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Benchmark scripts (paths relative to the repository root).
BENCHMARKS = [
    'bench/speed.py',
    'bench/cuda_big.py',
    'bench/cuda_corpus.py',
    'bench/regs.py',
    'bench/occupancy.py',
    'bench/simt.py',
    'bench/lint_repo.py',
    'bench/limits.py',
]


def main(argv):
    if len(argv) != 1 or argv[0].startswith('-'):
        print('usage: python3 bench/run.py BUILD_DIR', file=sys.stderr)
        return 2
    build = os.path.abspath(argv[0])
    failed = []
    for rel in BENCHMARKS:
        path = os.path.join(ROOT, rel)
        if not os.path.isfile(path):
            print('== %s: not present, skipped' % rel, flush=True)
            continue
        print('== %s' % rel, flush=True)
        status = subprocess.run([sys.executable, path, build], cwd=ROOT,
                                stdin=subprocess.DEVNULL).returncode
        if status != 0:
            print('== %s: exit status %d' % (rel, status), flush=True)
            failed.append(rel)
    if failed:
        print('benchmarks that failed: ' + ', '.join(failed))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
