#!/usr/bin/env python3
"""tests/check_limits.py BUILD_DIR: very large and very deep inputs are
analysed, or rejected with a located message, never by crashing, overflowing
the stack or blowing up in time or memory (issue 9; the limits are in
ptxray-report(1), LIMITS).

Generated inputs (sizes chosen to keep this under ~10 s in the sanitizer
build; the full sizes of the issue were measured by hand, see the man page):
  - a 100,000-line function: a chain of 100,000 dependent adds whose end is
    a load address (the affine form and every pass walk the whole chain);
  - a chain of 300,000 dependent adds from %tid.x to a shared atomic's
    address, simulated (simt_fuse.c's mark_aggregates walks the chain:
    recursively it overflowed the stack), and 100,000 shared atomics along
    such a chain (a walk per atomic was quadratic: 61 s for 50,000);
  - a loop nest 200 deep (dominators, loops, trip counts, depths);
  - 100,000 nested PTX braces: rejected at the 1,025th level with
    path:line:col; 1,000 nested braces: analysed;
  - a single 10 MB line (one kernel body of 500,000 instructions);
  - 100,000 tiny kernels in one file (per-kernel costs stay linear);
  - 2,000 and 100,000 nested braces in a CUDA kernel (report and lint);
  - 8 MB of the examples' kernels, renamed copies (a proxy for the 1 GB
    file of bench/limits.py): peak memory (skipped with ASan) of report at
    most 3x the file, of compat at most 2x, of lint -j 1 at most 2.5x
    above its start-up (a run on a one-kernel file);
and lint, compat and simt on the 100,000-line function, the 100,000
kernels and the 8 MB file (lint's line lookups and compat's per-kernel
walks were quadratic). Each run must exit 0 (or 1 for findings, 2 with a
located error where said), print valid JSON with the expected kernels
where it prints JSON, take less than TIME_LIMIT seconds and say nothing
from a sanitizer. Prints `N passed, N failed`."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from checklib import Checks

TIME_LIMIT = 60
HDR = '.version 8.0\n.target sm_90\n.address_size 64\n'


def long_function(n):
    out = [HDR, '.visible .entry long_fn(.param .u64 p)\n{\n.reg .b32 %r<1>;\n',
           '.reg .b64 %%rd<%d>;\nld.param.u64 %%rd0, [p];\n' % (n + 2)]
    out += ['add.s64 %%rd%d, %%rd%d, 4;\n' % (i + 1, i) for i in range(n)]
    out.append('ld.global.u32 %%r0, [%%rd%d];\nret;\n}\n' % n)
    return ''.join(out)


def atomic_chain(n):
    out = [HDR, '.visible .entry atom_chain()\n{\n.reg .b32 %%r<%d>;\n' % (n + 4),
           '.shared .align 4 .b8 cnt[256];\nmov.u32 %r0, %tid.x;\n']
    out += ['add.u32 %%r%d, %%r%d, 1;\n' % (i + 1, i) for i in range(n)]
    out.append('and.b32 %%r%d, %%r%d, 252;\nmov.u32 %%r%d, cnt;\nadd.u32 %%r%d, %%r%d, %%r%d;\n'
               % (n + 1, n, n + 2, n + 3, n + 2, n + 1))
    out.append('atom.shared.add.u32 %%r%d, [%%r%d], 1;\nret;\n}\n' % (n + 2, n + 3))
    return ''.join(out)


def many_atomics(n):
    out = [HDR, '.visible .entry many_atoms()\n{\n.reg .b32 %%r<%d>;\n' % (2 * n + 2),
           '.shared .align 4 .b8 cnt[256];\nmov.u32 %r0, cnt;\n']
    for i in range(1, n + 1):
        out.append('add.u32 %%r%d, %%r%d, 0;\natom.shared.add.u32 %%r%d, [%%r%d], 1;\n' % (i, i - 1, n + i, i))
    out.append('ret;\n}\n')
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


def examples(mb):
    """About mb MB of the examples' kernels, each copy's .entry renamed."""
    root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'examples')
    entries = []
    for fn in sorted(os.listdir(root)):
        if fn.endswith('.ptx'):
            with open(os.path.join(root, fn)) as f:
                text = f.read()
            entries += [(m.group(1), m.group(0)) for m in
                        re.finditer(r'^\.visible \.entry (\w+)\((?:.|\n)*?^\}\n', text, re.M)]
    out, n, c = ['.version 9.0\n.target sm_90\n.address_size 64\n'], 0, 0
    while n < mb * 1024 * 1024:
        for name, text in entries:
            out.append(text.replace('.entry %s(' % name, '.entry %s_c%d(' % (name, c), 1))
            n += len(out[-1])
        c += 1
    out.append('.file 1 "gen.cu"\n.file 2 "gen.hpp"\n')
    return ''.join(out), c * len(entries), entries[0][0] + '_c%d' % (c - 1)


def cuda_braces(n):
    return ('__global__ void k(int *p)\n{\n' + '{' * n + 'p[threadIdx.x] = 1;' + '}' * n +
            '\n}\n')


def main():
    exe = os.path.join(sys.argv[1], 'ptxray')
    check = Checks()


    with open(exe, 'rb') as f:
        asan = b'__asan_init' in f.read()

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

    def peak_mb(args):
        """Peak RSS in MB of one run (output dropped; exit 0, or 1 for findings) by
        /usr/bin/time, or None.
        (Not wait4 on a child of this process: a fork starts with this
        Python's memory, which holds the generated inputs.)"""
        if not os.access('/usr/bin/time', os.X_OK):
            return None
        p = subprocess.run(['/usr/bin/time', '-f', 'PEAK %M', exe] + args, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors='replace')
        m = re.search(r'PEAK (\d+)\s*$', p.stderr)
        return int(m.group(1)) / 1024.0 if p.returncode in (0, 1) and m else None

    def others(what, path, kernel):
        """lint, compat and simt on path: exit 0/1, lint's JSON parses."""
        p = run('lint ' + what, ['lint', '--format', 'json', path])
        if p is not None:
            try:
                ok = p.returncode in (0, 1) and json.loads(p.stdout)['schema'] == 'ptxray-lint/1'
            except (ValueError, KeyError, TypeError):
                ok = False
            check(ok, 'lint %s: exit 0 or 1 with JSON, got %d (%s)' % (what, p.returncode, p.stderr[-300:]))
        p = run('compat ' + what, ['compat', '--arch', 'sm_75,sm_90', path])
        if p is not None:
            check(p.returncode in (0, 1), 'compat %s: exit 0 or 1, got %d (%s)'
                  % (what, p.returncode, p.stderr[-300:]))
        p = run('simt ' + what, ['simt', '--kernel', kernel, '--block', '64', '--budget', '200000', path])
        if p is not None:
            check(p.returncode in (0, 1), 'simt %s: exit 0 or 1, got %d (%s)'
                  % (what, p.returncode, p.stderr[-300:]))

    def report(what, path, nkernels, extra=()):
        p = run(what, ['report', '--format', 'json'] + list(extra) + [path])
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

        path = write('long.ptx', long_function(100000))
        report('100,000-line function', path, 1)
        others('100,000-line function', path, 'long_fn')

        path = write('atom_chain.ptx', atomic_chain(300000))
        p = run('simt of a 300,000-add chain to an atomic', ['simt', '--kernel', 'atom_chain', '--block', '32', path])
        if p is not None:
            check(p.returncode in (0, 1) and 'cycles' in p.stdout,
                  'simt of a 300,000-add chain to an atomic: exit 0 or 1 with a result, got %d (%s)'
                  % (p.returncode, p.stderr[-300:]))

        path = write('many_atoms.ptx', many_atomics(100000))
        p = run('simt of 100,000 atomics along a chain', ['simt', '--kernel', 'many_atoms', '--block', '32',
                                                         '--budget', '200000', path])
        if p is not None:
            check(p.returncode in (0, 1) and 'cycles' in p.stdout,
                  'simt of 100,000 atomics along a chain: exit 0 or 1 with a result, got %d (%s)'
                  % (p.returncode, p.stderr[-300:]))
        report('loop nest 200 deep', write('nest.ptx', loop_nest(200)), 1)
        report('1,000 nested braces', write('braces1k.ptx', braces(1000)), 1)
        path = write('braces.ptx', braces(100000))
        p = run('100,000 nested braces', ['report', path])
        if p is not None:
            check(p.returncode == 2, '100,000 nested braces: exit 2, got %d' % p.returncode)
            check(re.search(r'braces\.ptx:\d+:\d+: error: scopes nested too deeply', p.stderr),
                  '100,000 nested braces: a located error (%s)' % p.stderr[:300])
        report('a single 10 MB line', write('line.ptx', one_line(10)), 1)
        path = write('kernels.ptx', kernels(100000))
        report('100,000 kernels', path, 100000)
        others('100,000 kernels', path, 'k99999')
        text, nk, last = examples(8)
        path = write('examples.ptx', text)
        report('8 MB of the examples\' kernels', path, nk)
        others('8 MB of the examples\' kernels', path, last)
        mb = None if asan else peak_mb(['report', '--format', 'json', path])
        if mb is not None:
            size = os.path.getsize(path) / 1048576.0
            check(mb <= 3 * size, 'report on %.0f MB of PTX: peak RSS %.0f MB, at most 3x the file'
                  % (size, mb))
        # compat keeps the first use of each feature per function, not every
        # use (4.9x on 1 GB before); lint parses the report's mapped text
        # in place, not copies of it (7.5x on 64 MB before). Measured at
        # 8 MB: compat 0.9x, lint -j 1 2.1x above its start-up.
        mb = None if asan else peak_mb(['compat', '--arch', 'sm_75,sm_90', path])
        if mb is not None:
            check(mb <= 2 * size, 'compat on %.0f MB of PTX: peak RSS %.0f MB, at most 2x the file'
                  % (size, mb))
        if not asan:
            # lint's start-up (arch tables, rule and feature tables) on a
            # one-kernel file is a fixed cost that 8 MB does not amortise
            base = peak_mb(['lint', '-j', '1', '--format', 'json', write('one.ptx', kernels(1))])
            mb = peak_mb(['lint', '-j', '1', '--format', 'json', path])
            if mb is not None and base is not None:
                check(mb - base <= 2.5 * size,
                      'lint -j 1 on %.0f MB of PTX: peak RSS %.0f MB (%.0f MB at start-up), at most '
                      '2.5x the file above its start-up' % (size, mb, base))
        for n in (2000, 100000):
            cu = write('braces%d.cu' % n, cuda_braces(n))
            report('CUDA: %d nested braces' % n, cu, 1, ['--no-compile'])
            p = run('lint CUDA: %d nested braces' % n, ['lint', '--no-compile', cu])
            if p is not None:
                check(p.returncode in (0, 1), 'lint CUDA %d nested braces: exit 0 or 1, got %d (%s)'
                      % (n, p.returncode, p.stderr[-300:]))
    # an arch table whose latencies and throughputs are all 1e300 (the
    # loader takes any finite non-negative number): the simulator counts
    # them as 1e9 (METRIC_MAX in simt.c), the same answer as a table of 1e9
    with tempfile.TemporaryDirectory() as td:
        show = subprocess.run([exe, 'arch', 'show', 'sm_90'], capture_output=True, text=True).stdout
        answers = {}
        for big in ('1e300', '1000000000'):
            os.makedirs(os.path.join(td, big), exist_ok=True)
            lines, section = [], None
            for line in show.split('\n'):
                if not line.startswith(' '):
                    section = line.split(':')[0]
                elif section in ('latency', 'throughput') and ':' in line:
                    line = line.split(':')[0] + ': ' + big
                lines.append(line)
            with open(os.path.join(td, big, 'sm_90.yaml'), 'w') as f:
                f.write('\n'.join(lines))
            env = dict(os.environ, PTXRAY_ARCH_PATH=os.path.join(td, big))
            p = subprocess.run([exe, 'simt', os.path.join('tests', 'golden', 'simt', 'path_switch.ptx'),
                                '--kernel', 'path_switch', '--block', '64', '--param', 'n=8', '--format', 'json'],
                               capture_output=True, text=True, env=env, timeout=TIME_LIMIT)
            check(p.returncode in (0, 1) and 'Sanitizer' not in p.stderr and 'runtime error' not in p.stderr,
                  'simt with every latency and throughput %s: exit 0 or 1, no sanitizer report (%d, %s)'
                  % (big, p.returncode, p.stderr[-300:]))
            answers[big] = json.loads(p.stdout)['cycles'] if p.stdout else None
        check(answers['1e300'] is not None and answers['1e300'] == answers['1000000000'],
              'simt counts a table entry of 1e300 as 1e9: %s' % answers)
    return check.summary()


if __name__ == '__main__':
    sys.exit(main())
