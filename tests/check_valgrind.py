#!/usr/bin/env python3
"""tests/check_valgrind.py BUILD_DIR: Valgrind memcheck on a full run of
each command over the examples: no invalid access, no use of uninitialised
values, no leak (definite, indirect or possible). Skipped (0 checks) when
valgrind is not installed or the binary is built with ASan (--sanitize:
the two do not mix; ASan's own leak check covers that build). About 15 s.
Prints `N passed, N failed`."""
import glob
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VALGRIND = ['valgrind', '--tool=memcheck', '--leak-check=full',
            '--errors-for-leak-kinds=definite,indirect,possible', '--error-exitcode=99', '-q']


def main():
    exe = os.path.join(sys.argv[1], 'ptxray')
    if not shutil.which('valgrind'):
        print('check_valgrind.py: SKIPPED: valgrind is not installed')
        print('0 passed, 0 failed')
        return 0
    with open(exe, 'rb') as f:
        if b'__asan_init' in f.read():
            print('check_valgrind.py: SKIPPED: the binary is built with ASan')
            print('0 passed, 0 failed')
            return 0
    ptx = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, 'examples', '*.ptx')))
    runs = [
        ['report'] + ptx,
        ['report', '--format', 'json', '--dump=cfg,loops,live,affine,access'] + ptx,
        ['report', 'examples/reduce.cu', 'examples/matmul_tiled.cu'],
        ['lint', 'examples'],
        ['lint', '--format', 'sarif', 'examples'],
        ['compat', '--arch', 'sm_75,sm_80,sm_90,sm_100'] + ptx,
        ['occupancy', 'examples/reduce.ptx'],
        ['occupancy', '--arch', 'sm_90', '--threads', '256', '--registers', '32', '--plot', '-'],
        ['simt', 'examples/reduce.ptx', '--kernel', '_Z10reduce_sumPKfPfi', '--block', '256',
         '--param', '2=4096'],
        ['arch', 'show', 'sm_90'],
        ['rules'],
    ]
    passed = failed = 0
    for args in runs:
        p = subprocess.run(VALGRIND + [exe] + args, cwd=ROOT, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           errors='replace', timeout=300)
        what = ' '.join(a if len(a) < 40 else '...' for a in args[:4])
        if p.returncode in (0, 1) and '==' not in p.stderr:
            passed += 1
        else:
            failed += 1
            print('FAIL valgrind ptxray %s: exit %d\n%s' % (what, p.returncode, p.stderr[-3000:]))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
