#!/usr/bin/env python3
"""bench/occupancy.py BUILD_DIR: the occupancy engine's speed.

1. Evaluations per second through the library: compiles bench/occ_bench.c
   against BUILD_DIR/libptxray.a (cc, -O2, libs from pkg-config) and runs it
   (random configurations over every embedded arch; goal >= 10 M/s).
2. `ptxray occupancy --batch` over 100,000 random lines (JSON out, advice
   included): the wall time, best of 3 (goal < 1 s).
Prints both numbers and PASS/FAIL against the goals. Standard library only.
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHS = ['sm_50', 'sm_60', 'sm_70', 'sm_75', 'sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_100', 'sm_120']


def main(argv):
    build = os.path.abspath(argv[0] if argv else 'build')
    tmp = tempfile.mkdtemp(prefix='ptxray-occ-bench-')
    exe = os.path.join(tmp, 'occ_bench')
    libs = subprocess.run(['pkg-config', '--libs', 'yaml-0.1', 'tree-sitter'], stdout=subprocess.PIPE,
                          text=True, check=True).stdout.split()
    subprocess.run([os.environ.get('CC', 'cc'), '-std=c11', '-O2', '-D_GNU_SOURCE', '-Ianalyzer', '-Iarch',
                    '-Ioccupancy', 'bench/occ_bench.c', os.path.join(build, 'libptxray.a'), '-o', exe]
                   + libs + ['-liberty', '-lm'], cwd=ROOT, check=True)
    out = subprocess.run([exe], stdout=subprocess.PIPE, text=True, check=True).stdout
    rate = float(out.split('rate ')[1].split()[0])
    print('library: %.1f M occupancy evaluations/s (%s)  %s'
          % (rate / 1e6, out.strip(), 'PASS' if rate >= 10e6 else 'FAIL (goal 10 M/s)'))

    rnd = random.Random(7)
    lines = []
    for _ in range(100000):
        lines.append(json.dumps({'arch': rnd.choice(ARCHS), 'threads': rnd.randint(1, 1024),
                                 'registers': rnd.randint(0, 255), 'shared': rnd.randint(0, 48 * 1024),
                                 'dynamic_shared': rnd.randint(0, 64 * 1024),
                                 'carveout': rnd.randint(-1, 100), 'optin': rnd.random() < 0.5,
                                 'barriers': rnd.randint(0, 16)}))
    path = os.path.join(tmp, 'batch.jsonl')
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    best = None
    for _ in range(3):
        t = time.perf_counter()
        p = subprocess.run([os.path.join(build, 'ptxray'), 'occupancy', '--batch', path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        el = time.perf_counter() - t
        if p.returncode != 0:
            print('ptxray occupancy --batch failed: %s' % p.stderr.decode()[:300])
            return 1
        best = el if best is None else min(best, el)
    n = p.stdout.count(b'\n')
    print('--batch: %d lines in %.3f s (best of 3; %d results)  %s'
          % (len(lines), best, n, 'PASS' if best < 1.0 and n == len(lines) else 'FAIL (goal < 1 s)'))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
