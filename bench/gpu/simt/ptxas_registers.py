#!/usr/bin/env python3
"""ptxas_registers.py [PTXAS]: the registers a thread `ptxas -v` gives every
kernel of the PTX files tests/check_simt.py simulates (its SETS and PROBES),
written to tests/fixtures/simt/ptxas_registers.json ({PTX path relative to
tests/fixtures/simt: {mangled kernel name: registers}}, sorted).

check_simt.py passes each loop's kernel's count to `ptxray simt --registers`,
as `--ptxas` would take it, so that the L1 is sized as the driver sizes it
for the measured build (the shared memory configured for the blocks the
registers let an SM hold) without needing ptxas itself. The programs were
measured as nvcc -O3 built them for sm_90; ptxas compiles the committed PTX
for sm_90 with its defaults, the same registers. PTXAS: the ptxas to run
(default: $CUDA_HOME/bin/ptxas, else ptxas on PATH). Run from the repository
root: python3 bench/gpu/simt/ptxas_registers.py."""
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, 'tests'))
import check_simt  # noqa: E402

OUT = os.path.join(check_simt.FIX, 'ptxas_registers.json')


def registers(ptxas, path):
    """{mangled kernel name: registers} of `ptxas -v -arch=sm_90 path`."""
    r = subprocess.run([ptxas, '-v', '-arch=sm_90', path, '-o', os.devnull], capture_output=True, text=True)
    if r.returncode:
        raise SystemExit('%s: %s' % (path, r.stderr.strip()))
    out, cur = {}, None
    for line in r.stderr.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            cur = m.group(1)
        m = re.search(r'Used (\d+) registers', line)
        if m and cur:
            out[cur] = int(m.group(1))
    return out


def main():
    cuda = os.environ.get('CUDA_HOME')
    ptxas = sys.argv[1] if len(sys.argv) > 1 else (
        os.path.join(cuda, 'bin', 'ptxas') if cuda else shutil.which('ptxas') or '/usr/local/cuda/bin/ptxas')
    ptxs = sorted(set(d['ptx'] for d in check_simt.measured_loops()))
    table = {p: registers(ptxas, os.path.join(check_simt.FIX, p)) for p in ptxs}
    with open(OUT, 'w') as f:
        json.dump(table, f, indent=1, sort_keys=True)
        f.write('\n')
    print('%s: %d files, %d kernels' % (OUT, len(table), sum(len(v) for v in table.values())))


if __name__ == '__main__':
    main()
