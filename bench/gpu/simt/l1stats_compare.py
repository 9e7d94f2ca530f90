#!/usr/bin/env python3
"""l1stats_compare.py BUILD [FILTER]: the memory accesses an iteration of each
measured loop makes on the GPU, against the ones `ptxray simt` counts.

The GPU's counts come from bench/gpu/simt/l1stats.sh (ncu's l1tex counters
per launch, one launch at n and one at 2n per loop): the committed
l1stats*.jsonl and l1stats*_ncu.csv beside each program's fixtures
(tests/check_simt.py's l1_files). The simulator's are the `memory` totals
of `ptxray simt --format json` at the same n and 2n. Both are taken for the
whole block an iteration: (count(2n) - count(n)) / n. The loops and their
parameters are tests/check_simt.py's (SETS and PROBES).

Prints a line per loop with global loads (ncu's op_ld) and then, GPU/model,
their requests, sectors per request and the L1's hit rate of their sectors,
global stores' requests and sectors per request, and shared memory's
wavefronts (the model's with a wavefront a shuffle, as ncu counts them);
then a summary: how often the requests agree, the median error of the
sectors per request, and the L1 hit rate's absolute error in percentage
points (median, 90th percentile, worst), over the loops with global loads:
the figures `ptxray simt` quotes for its hit rates (px_simt_l1_accuracy,
simt.c; tests/check_simt.py checks them). FILTER keeps the loops whose
name contains it. Run from the repository root:
python3 bench/gpu/simt/l1stats_compare.py build."""
import concurrent.futures
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, 'tests'))
import check_simt  # noqa: E402


def model_counts(ptxray, d):
    """{memory kind: {field: count an iteration}} for the block, and its
    shuffle pipe's issue slots an iteration (ncu counts a SHFL among shared
    memory's wavefronts: held-out 17's batchnorm_loop, no shared memory,
    ten shuffles a warp an iteration, 40 wavefronts at 128 threads)."""
    ja = check_simt.simt_json(ptxray, d, d['n'])
    jb = check_simt.simt_json(ptxray, d, 2 * d['n'])
    shfl = (jb['issue_slots_by_pipe'].get('shfl', 0) - ja['issue_slots_by_pipe'].get('shfl', 0)) / d['n']
    return check_simt.memory_per_iteration(ja, jb, d['n']), shfl


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    filt = sys.argv[2] if len(sys.argv) > 2 else ''
    ptxray = os.path.join(build, 'ptxray')
    ds = [d for d in check_simt.measured_loops() if filt in d['loop']]
    gpu = {}
    for d in ds:
        if d['ptx'] not in gpu:
            gpu[d['ptx']] = check_simt.l1_counts(d['ptx'])
    ds = [d for d in ds if d['loop'] in gpu[d['ptx']]]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        model = list(ex.map(lambda d: model_counts(ptxray, d), ds))
    hits, req_eq, spr, wfs = [], 0, [], []
    for d, (m, shfl) in zip(ds, model):
        g = gpu[d['ptx']][d['loop']]
        gl = m.get('global_load', {})
        gs = m.get('global_store', {})
        msh = shfl + sum(m.get(k, {}).get('wavefronts', 0)
                         for k in ('shared_load', 'shared_store', 'shared_atomic'))
        line = '%-28s' % d['loop']
        h = check_simt.hit_rates(g, m)
        if h:
            hits.append(abs(h[1] - h[0]))
            req_eq += abs(g['gld_req'] - gl['requests']) <= 0.01 * g['gld_req']
            gspr, mspr = g['gld_sec'] / g['gld_req'], gl['sectors'] / gl['requests']
            spr.append(abs(mspr - gspr) / gspr)
            line += ' ld req %6.1f/%6.1f sec/req %5.2f/%5.2f L1 hit %3.0f/%3.0f%%' % (
                g['gld_req'], gl['requests'], gspr, mspr, 100 * h[0], 100 * h[1])
        if g.get('gst_req', 0) > 0:
            line += ' st req %6.1f/%6.1f sec/req %5.2f/%5.2f' % (
                g['gst_req'], gs.get('requests', 0), g.get('gst_sec', 0) / g['gst_req'],
                gs.get('sectors', 0) / gs['requests'] if gs.get('requests') else 0)
        if g.get('wf_sh', 0) > 0:
            wfs.append(abs(msh - g['wf_sh']) / g['wf_sh'])
            line += ' shared wf %7.1f/%7.1f' % (g['wf_sh'], msh)
        print(line + '  %s' % (d['set'] or d.get('probe', '') or ''))
    if hits:
        hits.sort()
        print('%d loops with global loads: requests equal (within 1%%) in %d; sectors per request: median '
              'error %.1f%%; L1 hit rate of their sectors: median error %.1f points, 90th percentile %.1f, '
              'worst %.1f' % (len(hits), req_eq, 100 * statistics.median(spr), 100 * statistics.median(hits),
                             100 * hits[int(0.9 * len(hits))], 100 * hits[-1]))
    if wfs:
        print('%d loops with shared accesses: wavefronts median error %.1f%%, %d within 10%%' % (
            len(wfs), 100 * statistics.median(wfs), sum(x <= 0.10 for x in wfs)))


if __name__ == '__main__':
    main()
