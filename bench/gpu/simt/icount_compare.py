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
difference; then the same by pipe, in groups of the model's pipes and
ncu's that count the same SASS (GROUPS), each loop's GPU/model pair in
braces and their mean signed and absolute differences at the end. FILTER
keeps the loops whose name contains it. Run from the
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


# The model's pipes (issue_slots_by_pipe) against ncu's
# (smsp__inst_executed_pipe_*): groups that count the same SASS on both
# sides. fmaheavy is part of fma; ncu counts BRA on none of these pipes,
# the model's uniform datapath on none of its (so neither is compared), and
# an LDC (the model's global pipe) on the ADU.
GROUPS = [
    ('alu+fma', ('alu', 'imad', 'fp32'), ('alu', 'fma')),
    ('fp64', ('fp64',), ('fp64',)),
    ('xu', ('sfu',), ('xu',)),
    ('lsu', ('shared', 'global', 'shfl'), ('lsu',)),
    ('adu', ('barrier',), ('adu',)),
    ('cbu', ('convergence',), ('cbu',)),
    ('tensor', ('tensor',), ('tensor',)),
]


def model_counts(ptxray, d):
    """The model's issue slots per warp and iteration, in all and by pipe."""
    a = check_simt.simt_json(ptxray, d, d['n'])
    b = check_simt.simt_json(ptxray, d, 2 * d['n'])
    per = d['n'] * ((d['block'] + 31) // 32)
    pipes = {k: (b['issue_slots_by_pipe'].get(k, 0) - a['issue_slots_by_pipe'].get(k, 0)) / per
             for k in set(a['issue_slots_by_pipe']) | set(b['issue_slots_by_pipe'])}
    return (b['issue_slots'] - a['issue_slots']) / per, pipes


def groups(g, pipes):
    """[(group, GPU count, model count)] per warp and iteration."""
    return [(name, sum(g.get('inst_executed_pipe_' + k, 0) for k in hw), sum(pipes.get(k, 0) for k in mine))
            for name, mine, hw in GROUPS]


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
    gap = {name: [0.0, 0.0] for name, _, _ in GROUPS}   # group: [model - GPU, |model - GPU|] summed
    for d, (m, mp) in zip(ds, model):
        g = gpu[program(d['ptx'])][d['loop']]
        hw = g.get('inst_executed', 0)
        thr = g.get('thread_inst_executed', 0)
        if hw <= 0:
            print('%-28s gpu %8.2f: no instructions an iteration, not compared' % (d['loop'], hw))
            continue
        diffs.append(abs(m - hw) / hw)
        pipes = ' '.join('%s %.1f' % (k.split('_pipe_')[1], v)
                         for k, v in sorted(g.items()) if '_pipe_' in k and v >= 0.5)
        by = groups(g, mp)
        for name, gv, mv in by:
            gap[name][0] += (mv - gv) / hw
            gap[name][1] += abs(mv - gv) / hw
        print('%-28s gpu %8.2f model %8.2f  %+6.1f%%  threads/insn %5.1f  %s  [%s]  {%s}' % (
            d['loop'], hw, m, 100 * (m - hw) / hw, thr / hw, d['set'] or d.get('probe', ''), pipes,
            ' '.join('%s %.1f/%.1f' % (name, gv, mv) for name, gv, mv in by if gv >= 0.5 or mv >= 0.5)))
    if diffs:
        print('%d loops: median absolute difference %.1f%%, %d within 10%%' % (
            len(diffs), 100 * statistics.median(diffs), sum(x <= 0.10 for x in diffs)))
        print('by pipe (GPU/model above), the mean over the loops of (model - GPU) / GPU total: %s' % ', '.join(
            '%s %+.1f%% (abs %.1f%%)' % (name, 100 * v[0] / len(diffs), 100 * v[1] / len(diffs))
            for name, v in gap.items()))


if __name__ == '__main__':
    main()
