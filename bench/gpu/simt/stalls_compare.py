#!/usr/bin/env python3
"""stalls_compare.py BUILD [FILTER]: the warp-cycles an iteration of each
measured loop spends in each state on the GPU, against the stall breakdown
`ptxray simt` reports.

The GPU's come from bench/gpu/simt/stalls.sh (ncu's
smsp__warps_issue_stalled_REASON per launch, one launch at n and one at 2n
per loop), packed by icount_pack.py into tests/fixtures/simt/stalls/; the
simulator's are the JSON's `stalls` (the block's warp-cycles by reason) at
the same n and 2n. Both are taken for the block and per iteration:
(count(2n) - count(n)) / n. ncu's states are mapped to the simulator's
reasons by tests/check_simt.py's STALL_MAP (selected: issued; wait:
dependency; long_scoreboard and membar: memory; short_scoreboard: mio; the
throttles and dispatch_stall: pipe_busy; branch_resolving and
no_instruction: branch); the states without a reason (misc, drain,
imc_miss, sleeping) count as error.

Prints a line per loop: the distance (the total variation distance of the
two breakdowns: the share of warp-cycles that would have to move to another
reason, 0 to 1), each reason's share on the GPU and in the model
(GPU/model, percent, the reasons either has 2% of) and, after "model less
GPU", the model's warp-cycles less the GPU's in each reason that differs by
5% of the GPU's total (where a loop the timing gets wrong loses or gains
its cycles: held-out 14's hamming_nn_loop/128 lacked 22% in mio, the POPC
results bitop_probe then timed); then the median, 90th
percentile and worst distance (what `ptxray simt` prints as stall_error,
and tests/check_simt.py checks) and per reason the mean of the model's
share less the GPU's. FILTER keeps the loops whose name contains it. Run
from the repository root: python3 bench/gpu/simt/stalls_compare.py build."""
import concurrent.futures
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, 'tests'))
import check_simt  # noqa: E402


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    filt = sys.argv[2] if len(sys.argv) > 2 else ''
    ptxray = os.path.join(build, 'ptxray')
    gpu = {}
    ds = []
    for d in check_simt.measured_loops():
        if filt not in d['loop'] or check_simt.measured(d) <= 0:
            continue
        if d['ptx'] not in gpu:
            gpu[d['ptx']] = check_simt.stall_counts(d['ptx'])
        if d['loop'] in gpu[d['ptx']]:
            ds.append(d)
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        model = list(ex.map(lambda d: check_simt.predict_all(ptxray, d)[2], ds))
    dist = []
    bias = {}
    for d, stalls in zip(ds, model):
        g_all = gpu[d['ptx']][d['loop']]
        sh = check_simt.stall_shares(g_all, stalls)
        if not sh:
            print('%-28s no warp-cycles an iteration, not compared' % d['loop'])
            continue
        g, m, other = sh
        t = check_simt.stall_distance(sh)
        dist.append(t)
        for r in g:
            bias.setdefault(r, []).append(m[r] - g[r])
        shown = ' '.join('%s %.0f/%.0f' % (r, 100 * g[r], 100 * m[r]) for r in g if max(g[r], m[r]) >= 0.02)
        # (the warp-cycles, not the shares: g's are of the GPU's total)
        total = sum(g_all.values())
        less = ' '.join('%s %+.0f' % (r, 100 * (stalls[r] - g[r] * total) / total) for r in g
                        if abs(stalls[r] - g[r] * total) >= 0.05 * total)
        print('%-28s distance %.2f  %s%s%s  %s' % (d['loop'], t, shown,
                                                   '  other %.0f' % (100 * other) if other >= 0.02 else '',
                                                   '  model less GPU: ' + less if less else '',
                                                   d['set'] or d.get('probe') or ''))
    if not dist:
        return
    sp = check_simt.spread(dist)
    print('%(loops)d loops: distance median %(median).3f, 90th percentile %(p90).3f, worst %(worst).3f' % sp)
    print('the model\'s share less the GPU\'s, mean over the loops: ' +
          ', '.join('%s %+.1f%%' % (r, 100 * sum(v) / len(v)) for r, v in bias.items()))


if __name__ == '__main__':
    main()
