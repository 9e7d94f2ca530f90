#!/usr/bin/env python3
"""tests/check_limits.py BUILD_DIR: very large and very deep inputs are
analysed, or rejected with a located message, never by crashing, overflowing
the stack or blowing up in time or memory (issue 9; the limits are in
ptxray-report(1), LIMITS).

Generated inputs (sizes chosen to keep this under ~10 s in the sanitizer
build; the full sizes of the issue were measured by hand, see the man page):
  - a 100,000-line function: a chain of 100,000 dependent adds whose end is
    a load address (the affine form and every pass walk the whole chain);
  - a loop nest 200 deep (dominators, loops, trip counts, depths);
  - 100,000 nested PTX braces: rejected at the 1,025th level with
    path:line:col; 1,000 nested braces: analysed;
  - a single 10 MB line (one kernel body of 500,000 instructions);
  - 100,000 tiny kernels in one file (per-kernel costs stay linear);
  - 2,000 nested braces in a CUDA kernel (report and lint).
Each run must exit 0 (or 2 with a located error where said), print valid
JSON with the expected kernels, take less than TIME_LIMIT seconds and say
nothing from a sanitizer. Prints `N passed, N failed`."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

TIME_LIMIT = 60
HDR = '.version 8.0\n.target sm_90\n.address_size 64\n'


def long_function(n):
    out = [HDR, '.visible .entry long_fn(.param .u64 p)\n{\n.reg .b32 %r<1>;\n',
           '.reg .b64 %%rd<%d>;\nld.param.u64 %%rd0, [p];\n' % (n + 2)]
    out += ['add.s64 %%rd%d, %%rd%d, 4;\n' % (i + 1, i) for i in range(n)]
    out.append('ld.global.u32 %%r0, [%%rd%d];\nret;\n}\n' % n)
    return ''.join(out)


def loop_nest(d):
    out = [HDR, '.visible .entry nest(.param .u64 p)\n{\n.reg .pred %p<2>;\n',
           '.reg .b32 %%r<%d>;\n.reg .b64 %%rd<2>;\nld.param.u64 %%rd0, [p];\n' % (d + 2)]
    out += ['mov.u32 %%r%d, 0;\nL%d:\n' % (i, i) for i in range(d)]
    out.append('st.global.u32 [%rd0], %r0;\n')
    out += ['add.s32 %%r%d, %%r%d, 1;\nsetp.lt.u32 %%p0, %%r%d, 4;\n@%%p0 bra L%d;\n' % (i, i, i, i)
            for i in reversed(range(d))]
    out.append('ret;\n}\n')
    return ''.join(out)


def braces(n):
    return HDR + '.visible .entry br()\n{\n' + '{\n' * n + 'ret;\n' + '}\n' * n + '}\n'


def one_line(mb):
    body = 'add.s32 %r1, %r1, 1; '
    k = mb * 1024 * 1024 // len(body)
    return (HDR + '.visible .entry line() { .reg .b32 %r<2>; mov.u32 %r1, 0; ' + body * k +
            'ret; }\n')


def kernels(n):
    return HDR + ''.join('.visible .entry k%d()\n{\nret;\n}\n' % i for i in range(n))


def cuda_braces(n):
    return ('__global__ void k(int *p)\n{\n' + '{' * n + 'p[threadIdx.x] = 1;' + '}' * n +
            '\n}\n')


def main():
    exe = os.path.join(sys.argv[1], 'ptxray')
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print('FAIL', what)

    def run(what, args):
        t = time.monotonic()
        try:
            p = subprocess.run([exe] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, errors='replace',
                               timeout=TIME_LIMIT)
        except subprocess.TimeoutExpired:
            check(False, '%s: finishes within %d s' % (what, TIME_LIMIT))
            return None
        dt = time.monotonic() - t
        check('Sanitizer' not in p.stderr and 'runtime error' not in p.stderr,
              '%s: no sanitizer report (%s)' % (what, p.stderr[-300:]))
        if os.environ.get('PX_LIMITS_VERBOSE'):
            print('%-40s %.2f s, exit %d' % (what, dt, p.returncode))
        return p

    def report(what, path, nkernels):
        p = run(what, ['report', '--format', 'json', path])
        if p is None:
            return
        check(p.returncode == 0, '%s: exit 0, got %d (%s)' % (what, p.returncode, p.stderr[-300:]))
        try:
            doc = json.loads(p.stdout)
            n = sum(len(f['kernels']) for f in doc['files'])
        except (ValueError, KeyError, TypeError):
            n = -1
        check(n == nkernels, '%s: JSON with %d kernels, got %d' % (what, nkernels, n))

    with tempfile.TemporaryDirectory() as tmp:
        def write(name, text):
            path = os.path.join(tmp, name)
            with open(path, 'w') as f:
                f.write(text)
            return path

        report('100,000-line function', write('long.ptx', long_function(100000)), 1)
        report('loop nest 200 deep', write('nest.ptx', loop_nest(200)), 1)
        report('1,000 nested braces', write('braces1k.ptx', braces(1000)), 1)
        path = write('braces.ptx', braces(100000))
        p = run('100,000 nested braces', ['report', path])
        if p is not None:
            check(p.returncode == 2, '100,000 nested braces: exit 2, got %d' % p.returncode)
            check(re.search(r'braces\.ptx:\d+:\d+: error: scopes nested too deeply', p.stderr),
                  '100,000 nested braces: a located error (%s)' % p.stderr[:300])
        report('a single 10 MB line', write('line.ptx', one_line(10)), 1)
        report('100,000 kernels', write('kernels.ptx', kernels(100000)), 100000)
        cu = write('braces.cu', cuda_braces(2000))
        report('CUDA: 2,000 nested braces', cu, 1)
        p = run('lint CUDA: 2,000 nested braces', ['lint', cu])
        if p is not None:
            check(p.returncode in (0, 1), 'lint CUDA 2,000 nested braces: exit 0 or 1, got %d (%s)'
                  % (p.returncode, p.stderr[-300:]))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
