#!/usr/bin/env python3
"""bench/limits.py BUILD_DIR [--size MB] [--keep]: time and peak memory of
ptxray on very large inputs (issue 9: "a 1 GB PTX file, a million kernels,
... are analysed or rejected with a clear message, never by crashing or
exhausting memory"). A benchmark, never a test: tests/check_limits.py runs
small sizes of the same shapes on every test run.

  1. writes BUILD_DIR/bench/big.ptx, --size MB (default 1024) of PTX made
     on the fly from the kernels of examples/*.ptx (nvcc 13.0 output with
     -lineinfo: loops, shared tiles, atomics, shuffles), each copy's
     .entry renamed, one .file table at the end; about 7,000 kernels per
     100 MB;
  2. runs report (JSON), compat (two targets) and simt (one kernel) on it,
     lint on a 64 MB one (lint simulates and checks every kernel: minutes
     on 1 GB; its peak, about 2x the file, is the report's results and the
     findings), and report on the other large shapes (a million tiny kernels,
     a 1,000,000-line function, a single 10 MB line, a CUDA kernel with
     100,000 nested braces);
  3. prints, per run: exit status, wall time, MB/s, peak RSS (/usr/bin/time) and
     peak RSS against the input's size. The PTX reader's goal (issue 9, on
     the CCCL corpus) is a peak of at most 2x the file.
The generated files are deleted afterwards unless --keep. Needs about
--size MB of free disk under BUILD_DIR. Standard library only.
"""

import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINT_MB = 64
HDR = '.version 9.0\n.target sm_90\n.address_size 64\n\n'


def example_entries():
    """[(name, text)] of every .entry of examples/*.ptx (sm_90, PTX 9.0)."""
    out = []
    for fn in sorted(os.listdir(os.path.join(ROOT, 'examples'))):
        if not fn.endswith('.ptx'):
            continue
        with open(os.path.join(ROOT, 'examples', fn)) as f:
            text = f.read()
        for m in re.finditer(r'^\.visible \.entry (\w+)\((?:.|\n)*?^\}\n', text, re.M):
            out.append((m.group(1), m.group(0)))
    return out


def write_big(path, mb):
    """Writes about mb MB of PTX; returns (bytes, kernels)."""
    entries = example_entries()
    target = mb * 1024 * 1024
    n = kernels = 0
    with open(path, 'w') as f:
        f.write(HDR)
        n += len(HDR)
        c = 0
        while n < target:
            chunk = []
            for name, text in entries:
                chunk.append(text.replace('.entry %s(' % name, '.entry %s_c%d(' % (name, c), 1))
                kernels += 1
            c += 1
            s = '\n'.join(chunk) + '\n'
            f.write(s)
            n += len(s)
        tail = ('\t.file\t1 "/work/main/examples/gen.cu"\n'
                '\t.file\t2 "/usr/local/cuda/include/sm_30_intrinsics.hpp"\n')
        f.write(tail)
        n += len(tail)
    return n, kernels


def run(exe, args, label, size):
    """Runs exe args with output to /dev/null; prints and returns a row.
    Peak RSS from /usr/bin/time (wait4 on a child of this process would
    count the memory this Python held when it forked)."""
    t = time.monotonic()
    with open(os.devnull, 'wb') as null:
        p = subprocess.run(['/usr/bin/time', '-f', 'PEAK %M', exe] + args, stdin=subprocess.DEVNULL,
                           stdout=null, stderr=subprocess.PIPE)
    dt = time.monotonic() - t
    rc = p.returncode
    err = p.stderr.decode(errors='replace')
    m = re.search(r'PEAK (\d+)\s*$', err)
    rss = int(m.group(1)) / 1024.0 if m else float('nan')  # MB (KiB from time)
    msg = err.strip().splitlines()
    first = msg[0][:100] if msg and rc not in (0, 1) else ''
    print('%-44s exit %3d  %7.2f s  %7.1f MB/s  peak %7.0f MB = %5.2fx the input%s'
          % (label, rc, dt, size / 1e6 / dt if dt else 0, rss, rss * 1024 * 1024 / size,
             ('  (' + first + ')') if first else ''), flush=True)
    return rc, dt, rss


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith('-'):
        print('usage: bench/limits.py BUILD_DIR [--size MB] [--keep]', file=sys.stderr)
        return 2
    build = os.path.abspath(args[0])
    mb, keep = 1024, '--keep' in args
    if '--size' in args:
        mb = int(args[args.index('--size') + 1])
    exe = os.path.join(build, 'ptxray')
    if not os.access(exe, os.X_OK):
        print('limits: %s is not built' % exe)
        return 2
    d = os.path.join(build, 'bench')
    os.makedirs(d, exist_ok=True)
    made = []

    def path(name):
        made.append(os.path.join(d, name))
        return made[-1]

    try:
        big = path('big.ptx')
        t = time.monotonic()
        size, nk = write_big(big, mb)
        print('%s: %.0f MB of PTX, %d kernels (written in %.1f s)'
              % (big, size / 1048576, nk, time.monotonic() - t), flush=True)
        first = example_entries()[0][0] + '_c0'
        run(exe, ['report', '--format', 'json', big], 'report --format json (%d MB)' % (size >> 20), size)
        run(exe, ['compat', '--arch', 'sm_80,sm_90', big], 'compat --arch sm_80,sm_90', size)
        run(exe, ['simt', big, '--kernel', first, '--block', '256', '--budget', '1000000'],
            'simt --kernel %s' % first[:20], size)
        os.unlink(big)
        made.pop()
        # lint simulates every kernel with shared memory or a barrier and
        # runs every rule: a smaller file, for time
        lmb = min(mb, LINT_MB)
        small = path('lint.ptx')
        lsize, _ = write_big(small, lmb)
        run(exe, ['lint', '--format', 'json', small], 'lint --format json (%d MB)' % (lsize >> 20), lsize)
        os.unlink(small)
        made.pop()

        shapes = []
        k = path('million_kernels.ptx')
        with open(k, 'w') as f:
            f.write(HDR + ''.join('.visible .entry k%d()\n{\nret;\n}\n' % i for i in range(1000000)))
        shapes.append(('report: 1,000,000 kernels', k))
        lf = path('long_function.ptx')
        n = 1000000
        with open(lf, 'w') as f:
            f.write(HDR + '.visible .entry long_fn(.param .u64 p)\n{\n.reg .b32 %r<1>;\n')
            f.write('.reg .b64 %%rd<%d>;\nld.param.u64 %%rd0, [p];\n' % (n + 2))
            f.write(''.join('add.s64 %%rd%d, %%rd%d, 4;\n' % (i + 1, i) for i in range(n)))
            f.write('ld.global.u32 %%r0, [%%rd%d];\nret;\n}\n' % n)
        shapes.append(('report: a 1,000,000-line function', lf))
        ln = path('long_line.ptx')
        body = 'add.s32 %r1, %r1, 1; '
        with open(ln, 'w') as f:
            f.write(HDR + '.visible .entry line() { .reg .b32 %r<2>; mov.u32 %r1, 0; ' +
                    body * (10 * 1048576 // len(body)) + 'ret; }\n')
        shapes.append(('report: a single 10 MB line', ln))
        cu = path('nested.cu')
        with open(cu, 'w') as f:
            f.write('__global__ void k(int *p)\n{\n' + '{' * 100000 + 'p[threadIdx.x] = 1;' +
                    '}' * 100000 + '\n}\n')
        shapes.append(('report --no-compile: CUDA, 100,000 braces', cu))
        for label, p in shapes:
            extra = ['--no-compile'] if p.endswith('.cu') else []
            run(exe, ['report', '--format', 'json'] + extra + [p], label, os.path.getsize(p))
        run(exe, ['lint', '--format', 'json', k], 'lint: 1,000,000 kernels', os.path.getsize(k))
        run(exe, ['lint', '--no-compile', cu], 'lint --no-compile: CUDA, 100,000 braces',
            os.path.getsize(cu))
    finally:
        if not keep:
            for p in made:
                if os.path.exists(p):
                    os.unlink(p)
    return 0


if __name__ == '__main__':
    sys.exit(main())
