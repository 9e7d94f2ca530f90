#!/usr/bin/env python3
"""check_carveout.py: the shared-memory capacity the driver configures at
launch (`ptxray occupancy`'s allocated.launch_shared_bytes_per_sm, and the L1
that leaves, l1_bytes_per_sm) against what an H100 configured: ncu's
launch__shared_mem_config_size for the 90 launches of
bench/gpu/simt/carveout_probe.cu (tests/fixtures/simt/carveout/, recorded by
bench/gpu/simt/carveout.sh) and the three baseline launches of
transpose_probe.cu (tests/fixtures/simt/transpose_probe/). Each launch's
registers and shared memory are the ones the runtime reported; the resident
blocks ptxray computes must equal the runtime's too.

Usage: tests/check_carveout.py BUILD_DIR
Prints `N passed, N failed`; exits 1 on a failure.
"""
import csv
import json
import os
import subprocess
import sys

from checklib import Checks

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, 'fixtures', 'simt')


def ncu_config(path, name='launch__shared_mem_config_size'):
    """ncu's CSV: launch ID -> the metric's value."""
    out, hdr = {}, None
    with open(path) as f:
        for row in csv.reader(f):
            if 'Metric Name' in row:
                hdr = row
            elif hdr and len(row) == len(hdr):
                d = dict(zip(hdr, row))
                if d['Metric Name'] == name:
                    out[int(d['ID'])] = int(d['Metric Value'].replace(',', ''))
    return out


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    cases = []   # (query, runtime blocks, configured bytes, label)
    cfg = ncu_config(os.path.join(FIX, 'carveout', 'carveout_ncu.csv'))
    with open(os.path.join(FIX, 'carveout', 'carveout_probe.jsonl')) as f:
        for line in f:
            r = json.loads(line)
            q = {'arch': 'sm_90', 'threads': r['block'], 'registers': r['registers'],
                 'shared': r['static_shared'], 'dynamic_shared': r['dynamic_shared']}
            cases.append((q, r['occupancy_blocks'], cfg[r['id']],
                          '%s/%d/%d' % (r['kernel'], r['block'], r['dynamic_shared'])))
    tp = os.path.join(FIX, 'transpose_probe')
    head = json.loads(open(os.path.join(tp, 'transpose_probe.jsonl')).readline())
    tcfg = ncu_config(os.path.join(tp, 'transpose_ncu.csv'))
    for i, blk in enumerate((128, 256, 512)):   # ncu launches 0..2: the baseline at each size
        q = {'arch': 'sm_90', 'threads': blk, 'registers': head['kernel_regs'],
             'shared': head['kernel_shared_bytes']}
        cases.append((q, head['occupancy_blocks_%d' % blk], tcfg[i], 'transpose_base/%d' % blk))
    inp = ''.join(json.dumps(q) + '\n' for q, _, _, _ in cases)
    r = subprocess.run([os.path.join(build, 'ptxray'), 'occupancy', '--batch', '-'], input=inp,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit('ptxray occupancy --batch: exit %d: %s' % (r.returncode, r.stderr))
    outs = [json.loads(l) for l in r.stdout.splitlines()]
    check = Checks()
    for (q, blocks, want, label), o in zip(cases, outs):
        a = o['allocated']
        got = a['launch_shared_bytes_per_sm']
        check(o['blocks_per_sm'] == blocks and got == want and a['l1_bytes_per_sm'] == 256 * 1024 - want,
              '%s: blocks %s (runtime %d), launch shared %s (H100 %d), L1 %s' % (
                  label, o['blocks_per_sm'], blocks, got, want, a['l1_bytes_per_sm']))
    check(len(outs) == len(cases), '%d results for %d queries' % (len(outs), len(cases)))
    return check.summary()


if __name__ == '__main__':
    sys.exit(main())
