#!/usr/bin/env python3
"""predict.py BUILD PTX OUT.jsonl < ENTRIES.jsonl: the model's predictions for
loops before they are measured, as tests/check_simt.py will judge them.

ENTRIES.jsonl holds one loop a line, as the measuring program will print it
(loop, kernel, block, n, n_param, params; loop_host.cuh's MEASURE). PTX is
the file the simulator reads, relative to tests/fixtures/simt/ (what
`nvcc -arch=sm_90 -O3 -lineinfo -ptx` makes of the program). Each line of
OUT.jsonl is the entry with predicted_cycles_per_iteration and the model's
commit (git rev-parse --short HEAD), for check_simt's BLIND sets: commit
them before the loops are measured."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, 'tests'))
import check_simt  # noqa: E402


def main():
    if len(sys.argv) != 4:
        raise SystemExit('usage: predict.py BUILD PTX OUT.jsonl < ENTRIES.jsonl')
    build, ptx, out = sys.argv[1:]
    model = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.strip()
    ptxray = os.path.join(build, 'ptxray')
    lines = []
    for d in map(json.loads, filter(str.strip, sys.stdin)):
        d = {k: d[k] for k in ('loop', 'kernel', 'block', 'n', 'n_param', 'params')}
        p = check_simt.predict(ptxray, dict(d, ptx=ptx))
        lines.append(json.dumps(dict(d, predicted_cycles_per_iteration=round(p, 2), model=model)))
        print('%-28s %10.2f' % (d['loop'], p))
    with open(out, 'w') as f:
        f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
