#!/usr/bin/env python3
"""icount_pack.py DIR OUTDIR [stalls]: packs icount.sh's results (DIR/NAME_ncu.csv,
ncu's CSV with a row per launch and metric, and DIR/NAME_icount.jsonl, the
program's fixture lines in launch order), or with `stalls` stalls.sh's
(DIR/NAME_stalls.csv and DIR/NAME_stalls.jsonl), into OUTDIR/NAME.jsonl: a line per
loop with its fixture fields and, per metric, the counts of its launch at n
and of its launch at 2n ("counts": {metric: [at n, at 2n]}, a metric 0 in
both left out, the metric named
without ncu's smsp__ and .sum: inst_executed, thread_inst_executed,
inst_executed_pipe_alu...). The launches
are paired with the loops in order: each loop takes the next two launches
of its kernel (loop_host.cuh's MEASURE with LOOP_HOST_REPS=1 launches it at
n, then at 2n). bench/gpu/simt/icount_compare.py reads the packed files
(tests/fixtures/simt/icount/), stalls_compare.py the stalls
(tests/fixtures/simt/stalls/: warps_issue_stalled_REASON, warps_active)."""
import csv
import glob
import json
import os
import sys


def launches(path):
    """ncu's CSV: per launch in order, its kernel's name and metrics."""
    rows, order = {}, []
    with open(path, newline='') as f:
        lines = [ln for ln in f if ln.startswith('"')]   # (ncu's own messages start with ==)
    for r in csv.DictReader(lines):
        key = r['ID']
        if key not in rows:
            rows[key] = {'kernel': r['Kernel Name']}
            order.append(key)
        try:
            rows[key][r['Metric Name']] = float(r['Metric Value'].replace(',', ''))
        except ValueError:
            pass
    return [rows[k] for k in order]


def pack(csv_path, jsonl_path):
    ls = launches(csv_path)
    out, i = [], 0
    for d in map(json.loads, filter(str.strip, open(jsonl_path))):
        if 'loop' not in d or 'kernel' not in d:
            continue   # (transpose_probe's lines name no kernel: not paired)
        pair = []
        while i < len(ls) and len(pair) < 2:
            name = ls[i]['kernel']
            if name == d['kernel'] or name.startswith(d['kernel'] + '('):
                pair.append(ls[i])
            i += 1
        if len(pair) < 2:
            raise SystemExit('%s: no launches left for %s' % (csv_path, d['loop']))
        # (the metrics' names without ncu's smsp__ and .sum; those 0 in
        # both launches left out)
        counts = {m.replace('smsp__', '').replace('.sum', ''): [int(pair[0][m]), int(pair[1][m])]
                  for m in sorted(pair[0]) if m != 'kernel' and m in pair[1] and (pair[0][m] or pair[1][m])}
        out.append({k: d[k] for k in ('loop', 'kernel', 'block', 'n', 'n_param', 'params')} |
                   {'counts': counts})
    return out


# the results' file names by the script that wrote them: (CSV, fixture lines)
SUFFIXES = {'icount': ('_ncu.csv', '_icount.jsonl'), 'stalls': ('_stalls.csv', '_stalls.jsonl')}


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] not in SUFFIXES):
        raise SystemExit('usage: icount_pack.py DIR OUTDIR [stalls]')
    src, dst = sys.argv[1:3]
    csv_suffix, jsonl_suffix = SUFFIXES[sys.argv[3] if len(sys.argv) == 4 else 'icount']
    os.makedirs(dst, exist_ok=True)
    for c in sorted(glob.glob(os.path.join(src, '*' + csv_suffix))):
        name = os.path.basename(c)[:-len(csv_suffix)]
        lines = pack(c, os.path.join(src, name + jsonl_suffix))
        if not lines:
            print('%s: no loop names its kernel, not packed' % name)
            continue
        with open(os.path.join(dst, name + '.jsonl'), 'w') as f:
            for ln in lines:
                f.write(json.dumps(ln) + '\n')
        print('%s: %d loops' % (name, len(lines)))


if __name__ == '__main__':
    main()
