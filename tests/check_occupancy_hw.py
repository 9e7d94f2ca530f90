#!/usr/bin/env python3
"""tests/check_occupancy_hw.py BUILD_DIR: ptxray's occupancy against a GPU.

The fixtures tests/fixtures/occupancy/h100.json and h200.json were measured on Hopper GPUs
(compute capability 9.0) with tests/gpu/run_occ_sweep.sh (its "command"
field says where and how): cudaGetDeviceProperties, and for 15 kernels of
varied register and static shared memory use, cudaFuncGetAttributes and
cudaOccupancyMaxActiveBlocksPerMultiprocessor over block sizes, dynamic
shared memory sizes (opt-in past 48 KiB) and carveout preferences.

This checks (1) that the device's properties equal the sm_90 table
(`ptxray arch show sm_90`), and (2) for every measured row, that
`ptxray occupancy --batch` with the kernel's measured numRegs and
sharedSizeBytes answers the same blocks per SM (one check per kernel: all of
its rows must agree). Prints `N passed, N failed`. Standard library only.
"""
import json
import os
import subprocess
import sys

from checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Every measured device; each must agree on its own.
FIXTURES = [os.path.join(ROOT, 'tests', 'fixtures', 'occupancy', name)
            for name in ('h100.json', 'h200.json')]


def arch_table(exe, name):
    """The flat key -> value map of `ptxray arch show NAME`."""
    out = subprocess.run([exe, 'arch', 'show', name], stdout=subprocess.PIPE, check=True,
                         text=True, stdin=subprocess.DEVNULL, env=clean_env()).stdout
    table, section = {}, ''
    for line in out.splitlines():
        if line.startswith('#') or not line.strip():
            continue
        key, _, value = line.strip().partition(':')
        value = value.strip()
        if not line.startswith(' '):
            section = key if value == '' else ''
            if value == '':
                continue
            table[key] = value
        else:
            table[section + '.' + key] = value
    return table


def clean_env():
    env = dict(os.environ)
    env.pop('PTXRAY_ARCH_PATH', None)
    return env


def main():
    exe = os.path.join(sys.argv[1], 'ptxray')
    check = Checks()
    for fixture in FIXTURES:
        check_fixture(exe, fixture, check)
    return check.summary()


def check_fixture(exe, fixture, check):
    """Checks one device's fixture into check (a checklib.Checks)."""
    data = json.load(open(fixture))
    dev = data['device']
    t = arch_table(exe, 'sm_%d%d' % (dev['major'], dev['minor']))
    kib = 1024
    expect = [
        ('maxThreadsPerBlock', int(t['threads.max_per_block'])),
        ('maxThreadsPerMultiProcessor', int(t['threads.max_per_sm'])),
        ('maxBlocksPerMultiProcessor', int(t['blocks.max_per_sm'])),
        ('regsPerBlock', int(t['registers.max_per_block'])),
        ('regsPerMultiprocessor', int(t['registers.per_sm'])),
        ('warpSize', int(t['warp_size'])),
        ('sharedMemPerBlock', int(t['shared_memory.per_block_kib']) * kib),
        ('sharedMemPerMultiprocessor', int(t['shared_memory.per_sm_kib']) * kib),
        ('sharedMemPerBlockOptin', int(t['shared_memory.per_block_optin_kib']) * kib),
        ('reservedSharedMemPerBlock', int(t['shared_memory.reserved_per_block_bytes'])),
    ]
    for field, value in expect:
        check(dev[field] == value, 'device %s: measured %s, sm_90 table %s' % (field, dev[field], value))

    arch = 'sm_%d%d' % (dev['major'], dev['minor'])
    lines, where = [], []
    for k in data['kernels']:
        kern = k.get('kernel', k)  # the attributes nested (h200.json) or inline (h100.json)
        for r in k['rows']:
            threads, dyn, carveout, optin, blocks, err = r
            if err != 0:
                continue
            lines.append(json.dumps({'arch': arch, 'threads': threads, 'registers': kern['numRegs'],
                                     'shared': kern['sharedSizeBytes'], 'dynamic_shared': dyn,
                                     'carveout': carveout, 'optin': bool(optin), 'barriers': 1}))
            where.append((kern['name'], r))
    p = subprocess.run([exe, 'occupancy', '--batch', '-'], input='\n'.join(lines) + '\n',
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=clean_env())
    check(p.returncode == 0, 'ptxray occupancy --batch exits 0 (%s)' % p.stderr.strip())
    results = p.stdout.splitlines()
    check(len(results) == len(lines), 'one result per measured row')
    bad = {}
    rows = {}
    for (name, r), out in zip(where, results):
        got = json.loads(out)
        rows[name] = rows.get(name, 0) + 1
        mine = got.get('blocks_per_sm', -1)
        if mine != r[4]:
            bad.setdefault(name, []).append('threads=%d dyn=%d carveout=%d optin=%d: GPU %d, ptxray %s'
                                            % (r[0], r[1], r[2], r[3], r[4], mine))
    for name in sorted(rows):
        errs = bad.get(name, [])
        check(not errs, '%s: %d of %d rows differ, e.g. %s' % (name, len(errs), rows[name],
                                                                '; '.join(errs[:3])))
    print('%s: %d rows measured on %s agree with ptxray in %d kernels'
          % (os.path.basename(fixture), len(lines) - sum(len(v) for v in bad.values()), dev['name'],
             len(rows) - len(bad)))


if __name__ == '__main__':
    sys.exit(main())
