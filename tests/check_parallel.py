#!/usr/bin/env python3
"""tests/check_parallel.py BUILD_DIR: -j N changes nothing but the speed.

For every PTX file of the repository (examples/, tests/golden/, tests/corpus/,
tests/fixtures/) and the CUDA examples (--no-compile), runs
`ptxray report -j 1` and `report -j 4` (text and JSON) and requires the same
standard output, standard error and exit status byte for byte; then the same
for one command over all the files at once (plus a missing file, so the
error path runs too), for generated files of 3,000 small kernels (many
tasks per file; module variables between functions; calls before and after
a callee's body; an error two thirds of the way in), for `lint -j 1` / `lint -j 4` over the examples and the
rule fixtures, for `compat` over the PTX files, and for -j 2 on build/corpus/cccl_big.ptx when it is there
(bench/cccl/gen.py writes it). Under a ThreadSanitizer build (configure.py
--tsan) the same runs check for data races: TSan's reports go to standard
error and make the comparison fail. Prints `N passed, N failed`.
Standard library only.
"""

import glob
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(exe, args):
    p = subprocess.run([exe] + args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=600, env=dict(os.environ, NO_COLOR='1'))
    return p.returncode, p.stdout, p.stderr


def many(n, error_at):
    out = ['.version 8.0\n.target sm_80\n.address_size 64\n',
           '.func (.param .b32 r) f_late(.param .b32 a);\n']
    for i in range(n):
        out.append('.shared .align 4 .b8 s%d[%d];\n' % (i, 4 * (i % 64 + 1)))
        if i % 10 == 0:
            out.append('.func (.param .b32 r) f%d(.param .b32 a)\n{\n.reg .b32 %%r<%d>;\n'
                       'ld.param.b32 %%r0, [a];\n%sst.param.b32 [r], %%r%d;\nret;\n}\n'
                       % (i, i % 7 + 2, ''.join('add.s32 %%r%d, %%r%d, 1;\n' % (k + 1, k)
                                               for k in range(i % 7)), i % 7))
        callee = 'f_late' if i % 3 == 0 else 'f%d' % (i // 10 * 10)
        label = '$L_nowhere' if i == error_at else '$L_%d' % i
        out.append('.visible .entry k%d()\n{\n.reg .pred %%p<2>;\n.reg .b32 %%r<6>;\n'
                   'mov.u32 %%r0, %%tid.x;\nmov.u32 %%r1, s%d;\nshl.b32 %%r2, %%r0, %d;\n'
                   'add.s32 %%r3, %%r1, %%r2;\n{\n.param .b32 a0;\n.param .b32 r0;\n'
                   'st.param.b32 [a0], %%r0;\ncall (r0), %s, (a0);\nld.param.b32 %%r4, [r0];\n}\n'
                   'st.shared.u32 [%%r3], %%r4;\nsetp.lt.u32 %%p1, %%r0, %d;\n@%%p1 bra %s;\n'
                   'bar.sync 0;\n$L_%d:\nret;\n}\n'
                   % (i, i, i % 4, callee, i % 33, label, i))
        if i == n // 2:
            out.append('.func (.param .b32 r) f_late(.param .b32 a)\n{\n.reg .b32 %r<2>;\n'
                       'ld.param.b32 %r0, [a];\nst.param.b32 [r], %r0;\nret;\n}\n')
    return ''.join(out)


def main(argv):
    if len(argv) != 1:
        print('usage: check_parallel.py BUILD_DIR', file=sys.stderr)
        return 2
    exe = os.path.abspath(os.path.join(argv[0], 'ptxray'))
    passed = failed = 0

    def same(cmd, args, jobs):
        nonlocal passed, failed
        ref = run(exe, [cmd, '-j', '1'] + args)
        for j in jobs:
            got = run(exe, [cmd, '-j', str(j)] + args)
            what = '%s -j %d %s' % (cmd, j, ' '.join(args) if len(args) < 6 else '(%d args)' % len(args))
            if got == ref and b'ThreadSanitizer' not in got[2]:
                passed += 1
            else:
                failed += 1
                print('FAIL %s: differs from -j 1 (exit %d vs %d, stdout %d vs %d bytes)'
                      % (what, got[0], ref[0], len(got[1]), len(ref[1])))
                err = got[2].decode(errors='replace')
                if err:
                    print(err[:2000])

    ptx = sorted(set(glob.glob(os.path.join('examples', '*.ptx'))
                     + glob.glob(os.path.join('tests', 'golden', '**', '*.ptx'), recursive=True)
                     + glob.glob(os.path.join('tests', 'corpus', '**', '*.ptx'), recursive=True)
                     + glob.glob(os.path.join('tests', 'fixtures', '**', '*.ptx'), recursive=True)))
    ptx = [p for p in ptx if os.path.getsize(os.path.join(ROOT, p)) < 8 << 20]
    for p in ptx:
        same('report', [p], [4])
        same('report', ['--format', 'json', p], [4])
    for p in sorted(glob.glob(os.path.join('examples', '*.cu'))):
        same('report', ['--no-compile', '--format', 'json', p], [4])
    # every file in one run, a missing one among them: the error path
    allf = ptx[:len(ptx) // 2] + ['tests/does-not-exist.ptx'] + ptx[len(ptx) // 2:]
    same('report', ['--format', 'json'] + allf, [2, 4])
    same('report', [p for p in ptx if p.startswith('examples')], [2, 3])
    same('lint', ['--no-compile', 'examples', os.path.join('tests', 'golden', 'rules')], [2, 4])
    same('lint', ['--no-compile', '--format', 'json'] + ptx, [4])
    same('compat', ['--format', 'json'] + ptx, [2, 4])
    same('compat', ptx[:10] + ['tests/does-not-exist.ptx'] + ptx[10:20], [4])
    # many small functions: several batches per file, module variables
    # declared between functions, calls to functions before and after their
    # bodies; then the same with an error two thirds of the way in
    with tempfile.TemporaryDirectory() as tmp:
        good, bad = os.path.join(tmp, 'many.ptx'), os.path.join(tmp, 'many_bad.ptx')
        with open(good, 'w') as f:
            f.write(many(3000, None))
        with open(bad, 'w') as f:
            f.write(many(3000, 2000))
        same('report', ['--format', 'json', good], [2, 4])
        same('report', [good], [3])
        same('report', [bad], [4])
        same('report', [good, bad, good], [4])
    big = os.path.join('build', 'corpus', 'cccl_big.ptx')
    if os.path.exists(os.path.join(ROOT, big)):
        same('report', ['--format', 'json', big], [2])
    else:
        print('note: %s is absent (bench/cccl/gen.py writes it): not compared' % big)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
