#!/usr/bin/env python3
"""icount_compare.py BUILD [FILTER]: the warp-instructions an iteration of each
measured loop executes on the GPU, against the ones `ptxray simt` issues.

The GPU's counts come from bench/gpu/simt/icount.sh (ncu's
smsp__inst_executed per launch, one launch at n and one at 2n per loop):
tests/fixtures/simt/icount/PROGRAM.jsonl (bench/gpu/simt/icount_pack.py). The
simulator's are issue_slots of `ptxray simt --format json` at the same n
and 2n (the instructions that took an issue slot, an expanded one, such as
an integer division, counted for the cycles its sequence holds the
scheduler; the ones the model folds into others, as ptxas does, are not
counted). Both are taken per warp
and per iteration: (count(2n) - count(n)) / n / warps. The loops and their
parameters are tests/check_simt.py's (SETS and PROBES).

A loop whose simulation issues fewer instructions than the SASS executes is
predicted fast for that reason alone where it is bound by issue; where it
waits on memory or latency the count matters less. Prints a line per loop
(the GPU's count, the model's, their difference, the GPU's average
active threads per instruction and its count per pipe) and the median absolute
difference; FILTER keeps the loops whose name contains it. Run from the
repository root: python3 bench/gpu/simt/icount_compare.py build."""
import concurrent.futures
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, 'tests'))
import check_simt  # noqa: E402

ICOUNT = os.path.join(check_simt.FIX, 'icount')


def program(ptx):
    """The measuring program a fixture's PTX was made from (its file name)."""
    return os.path.basename(ptx).split('.')[0]


def gpu_counts(prog):
    """{loop label: {metric: count per warp and iteration}} from the
    program's packed counts (bench/gpu/simt/icount_pack.py), or None."""
    path = os.path.join(ICOUNT, prog + '.jsonl')
    if not os.path.exists(path):
        return None
    out = {}
    for d in map(json.loads, filter(str.strip, open(path))):
        warps = (d['block'] + 31) // 32
        out[d['loop']] = {m: (c[1] - c[0]) / d['n'] / warps for m, c in d['counts'].items()}
    return out


def model_counts(ptxray, d):
    """The model's issued instructions per warp and iteration."""
    a = check_simt.simt_json(ptxray, d, d['n'])['issue_slots']
    b = check_simt.simt_json(ptxray, d, 2 * d['n'])['issue_slots']
    return (b - a) / d['n'] / ((d['block'] + 31) // 32)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    filt = sys.argv[2] if len(sys.argv) > 2 else ''
    ptxray = os.path.join(build, 'ptxray')
    ds = [d for d in check_simt.measured_loops() if filt in d['loop']]
    gpu = {}
    for d in ds:
        prog = program(d['ptx'])
        if prog not in gpu:
            gpu[prog] = gpu_counts(prog)
    ds = [d for d in ds if gpu[program(d['ptx'])] and d['loop'] in gpu[program(d['ptx'])]]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        model = list(ex.map(lambda d: model_counts(ptxray, d), ds))
    diffs = []
    for d, m in zip(ds, model):
        g = gpu[program(d['ptx'])][d['loop']]
        hw = g.get('inst_executed', 0)
        thr = g.get('thread_inst_executed', 0)
        if hw <= 0:
            print('%-28s gpu %8.2f: no instructions an iteration, not compared' % (d['loop'], hw))
            continue
        diffs.append(abs(m - hw) / hw)
        pipes = ' '.join('%s %.1f' % (k.split('_pipe_')[1], v)
                         for k, v in sorted(g.items()) if '_pipe_' in k and v >= 0.5)
        print('%-28s gpu %8.2f model %8.2f  %+6.1f%%  threads/insn %5.1f  %s  [%s]' % (
            d['loop'], hw, m, 100 * (m - hw) / hw, thr / hw, d['set'] or d.get('probe', ''), pipes))
    if diffs:
        print('%d loops: median absolute difference %.1f%%, %d within 10%%' % (
            len(diffs), 100 * statistics.median(diffs), sum(x <= 0.10 for x in diffs)))


if __name__ == '__main__':
    main()
