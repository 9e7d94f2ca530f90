#!/usr/bin/env python3
"""tests/check_launch_hw.py BUILD_DIR: launch feasibility against a GPU.

The fixture tests/fixtures/launch/h200.json was measured on an H200
(compute capability 9.0, the same per-block limits as the H100; h100.json,
measured on an H100 with the same command, must match it launch for launch) by
tests/gpu/launch/run_launch.sh: three programs (launch_block.cu,
launch_regs.cu, launch_smem.cu) launch their kernels at 33 sites of varied
block size, register use, static and dynamic shared memory (with and without
the cudaFuncSetAttribute opt-in) and record cudaGetLastError after each
launch, and cudaFuncGetAttributes (numRegs) per kernel; ptxas -v's output is
in tests/fixtures/launch/h200_log.txt.

A launch site is predicted to fail when `ptxray lint --arch sm_90` reports
launch-infeasible or shared-memory-opt-in-missing on its line. Checks, one
per launch site and way:
  source   `--no-compile` (the source analyses alone) for the programs whose
           verdicts need no register count (launch_block.cu, launch_smem.cu);
  bridge   every program through lint's nvcc bridge, with a fake nvcc that
           writes the PTX committed beside the .cu (NAME.sm_90.ptx, made by
           nvcc -ptx -lineinfo -O2 -arch=sm_90) and a fake ptxas (--ptxas)
           that prints the measured ptxas -v log, so the registers are the
           hardware's numRegs.
The same bridge run with the PTX estimate instead of ptxas is printed as
information (its disagreements are the register estimate's, not counted).
Ends with `N passed, N failed`. Standard library only.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, 'tests', 'fixtures', 'launch', 'h200.json')
LOG = os.path.join(ROOT, 'tests', 'fixtures', 'launch', 'h200_log.txt')
# The same programs measured on an H100 (same command): every launch site
# must have behaved as on the H200, so the verdicts checked here hold there.
FIXTURE_H100 = os.path.join(ROOT, 'tests', 'fixtures', 'launch', 'h100.json')
FAIL_RULES = {'launch-infeasible', 'shared-memory-opt-in-missing'}
NO_REGISTERS = {'tests/gpu/launch/launch_block.cu', 'tests/gpu/launch/launch_smem.cu'}

FAKE_NVCC = r'''#!/usr/bin/env python3
import os, shutil, sys
args = sys.argv[1:]
out = args[args.index("-o") + 1]
src = args[-1]
shutil.copyfile(src[:-3] + ".sm_90.ptx", out)
'''

FAKE_PTXAS = r'''#!/usr/bin/env python3
import sys
sys.stderr.write(open(%r).read())
''' % LOG


def lint(exe, path, extra, env):
    p = subprocess.run([exe, 'lint', '--format', 'json', '--arch', 'sm_90'] + extra + [path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
                       stdin=subprocess.DEVNULL, timeout=120)
    if p.returncode not in (0, 1):
        return None, p.stderr
    doc = json.loads(p.stdout)
    return {d['line'] for d in doc['diagnostics'] if d['rule'] in FAIL_RULES}, p.stderr


def main():
    exe = os.path.join(os.path.abspath(sys.argv[1]), 'ptxray')
    data = json.load(open(FIXTURE))
    passed = failed = 0
    h100 = json.load(open(FIXTURE_H100))
    same = h100['programs'] == data['programs']
    print('%s %s: every launch and cudaFuncGetAttributes equal to the H200\'s' % (
        'ok  ' if same else 'FAIL', h100['gpu']))
    passed += same
    failed += not same
    tmp = tempfile.mkdtemp(prefix='ptxray-launch-')
    nvcc = os.path.join(tmp, 'nvcc')
    ptxas = os.path.join(tmp, 'ptxas')
    for path, text in ((nvcc, FAKE_NVCC), (ptxas, FAKE_PTXAS)):
        with open(path, 'w') as f:
            f.write(text)
        os.chmod(path, 0o755)
    env = dict(os.environ)
    env.pop('PTXRAY_ARCH_PATH', None)
    env['XDG_CACHE_HOME'] = os.path.join(tmp, 'cache')   # never the user's cache
    print('device: %s' % data['gpu'])
    for prog, rec in sorted(data['programs'].items()):
        ways = [('bridge', ['--nvcc', nvcc, '--ptxas=' + ptxas])]
        if prog in NO_REGISTERS:
            ways.insert(0, ('source', ['--no-compile']))
        regs = {k['kernel']: k['numRegs'] for k in rec['kernels']}
        for way, extra in ways + [('estimate', ['--nvcc', nvcc])]:
            lines, err = lint(exe, prog, extra, env)
            if lines is None:
                print('FAIL %s (%s): ptxray lint failed: %s' % (prog, way, err.strip()))
                failed += 1
                continue
            agree = 0
            for l in rec['launches']:
                hw_fail = l['error'] != 'cudaSuccess'
                predicted = l['line'] in lines
                ok = hw_fail == predicted
                what = '%s:%d %s<<<..., %d threads, %d B>>> (%d registers): hardware %s, ptxray %s' % (
                    prog, l['line'], l['kernel'], l['threads'], l['dynamic_shared'], regs.get(l['kernel'], -1),
                    l['error'], 'fails' if predicted else 'launches')
                agree += ok
                if way == 'estimate':
                    if not ok:
                        print('info (PTX register estimate, not counted): %s' % what)
                    continue
                if ok:
                    passed += 1
                else:
                    failed += 1
                    print('FAIL (%s) %s' % (way, what))
            print('%s (%s): %d/%d launch sites agree' % (prog, way, agree, len(rec['launches'])))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
