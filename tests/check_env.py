#!/usr/bin/env python3
"""tests/check_env.py BUILD_DIR: the output never depends on the environment
except where documented (issue 9; ptxray(1), ENVIRONMENT).

Every command below runs once in a plain environment (LC_ALL=C, TZ=UTC, a
scratch HOME, TERM=dumb, output to pipes) and again under each variation;
standard output, standard error and the exit status must be the same bytes:
  - locales: de_DE.UTF-8 (decimal comma) and tr_TR.UTF-8 (dotless i in
    case mapping), made with localedef into a scratch LOCPATH when the
    machine has the sources, else any non-C locale `locale -a` lists
    (said in the output when none is available: the check then still runs
    with the names set, which glibc ignores);
  - LANG/LC_NUMERIC/LC_CTYPE without LC_ALL;
  - TZ far from UTC, another HOME holding a .ptxray.yaml, COLUMNS/LINES,
    TERM=xterm-256color, another XDG_CACHE_HOME, CUDA_HOME unset;
  - another current directory (the files are named by absolute paths,
    which the output repeats as given).
Colour is the documented exception: on a terminal (a pty here) the text
output of lint is coloured, never with NO_COLOR set, never on a pipe.
Prints `N passed, N failed`."""
import os
import pty
import select
import shutil
import subprocess
import sys
import tempfile

from checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ex(*p):
    return os.path.join(ROOT, 'examples', *p)


COMMANDS = [
    ['report', ex('reduce.ptx'), ex('transpose.ptx')],
    ['report', '--format', 'json', '--block', '128', ex('matmul_tiled.ptx')],
    ['report', '--no-compile', ex('reduce.cu')],
    ['lint', ex('reduce.ptx'), ex('transpose.ptx'), ex('histogram.ptx')],
    ['lint', '--format', 'json', ex('stencil.ptx')],
    ['lint', '--format', 'sarif', ex('transpose.ptx')],
    ['lint', '--format', 'github', ex('reduce.ptx')],
    ['lint', '--no-compile', ex('matmul_tiled.cu'), ex('transpose.cu')],
    ['compat', '--arch', 'sm_75,sm_80,sm_90,sm_100', ex('reduce.ptx')],
    ['compat', '--format', 'json', '--arch', 'sm_75,sm_90', ex('stencil.ptx')],
    ['occupancy', ex('reduce.ptx')],
    ['occupancy', '--arch', 'sm_86', '--threads', '192', '--registers', '40', '--shared', '12K'],
    ['occupancy', '--arch', 'sm_90', '--threads', '256', '--registers', '32', '--plot', '-'],
    ['simt', ex('reduce.ptx'), '--kernel', '_Z10reduce_sumPKfPfi', '--block', '256',
     '--param', '2=4096'],
    ['simt', '--format', 'json', ex('reduce.ptx'), '--kernel', '_Z10reduce_sumPKfPfi',
     '--block', '64', '--param', '2=1024'],
    ['arch', 'show', 'sm_90'],
    ['arch', 'list'],
    ['rules'],
    ['rules', 'shared-bank-conflict'],
    ['report', '/nonexistent/missing.ptx'],
    ['occupancy', '--threads', 'lots'],
]


def locales(tmp):
    """[(name, extra env)] of the locales to try, and a note."""
    want = ['de_DE.UTF-8', 'tr_TR.UTF-8']
    src = '/usr/share/i18n/locales'
    out = []
    if shutil.which('localedef') and all(os.path.exists(os.path.join(src, w.split('.')[0])) for w in want):
        locpath = os.path.join(tmp, 'locales')
        os.makedirs(locpath)
        for w in want:
            p = subprocess.run(['localedef', '-i', w.split('.')[0], '-f', 'UTF-8',
                                os.path.join(locpath, w)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            if p.returncode in (0, 1) and os.path.isdir(os.path.join(locpath, w)):
                out.append((w, {'LOCPATH': locpath}))
        if out:
            return out, 'locales made with localedef: ' + ', '.join(n for n, _ in out)
    try:
        have = subprocess.run(['locale', '-a'], stdout=subprocess.PIPE, text=True).stdout.split()
    except OSError:
        have = []
    other = [l for l in have if l not in ('C', 'POSIX', 'C.utf8', 'C.UTF-8')]
    if other:
        return [(other[0], {})], 'locale from locale -a: ' + other[0]
    return [(w, {}) for w in want], 'no non-C locale available: names set, glibc uses C'


def main():
    exe = os.path.join(os.path.abspath(sys.argv[1]), 'ptxray')
    check = Checks()


    with tempfile.TemporaryDirectory() as tmp:
        for d in ('home1', 'home2', 'cwd1', 'cwd2', 'cache1', 'cache2'):
            os.makedirs(os.path.join(tmp, d))
        with open(os.path.join(tmp, 'home2', '.ptxray.yaml'), 'w') as f:
            f.write('fail_on: note\nrules:\n  divergent-branch: off\n')
        base = {'PATH': os.environ.get('PATH', '/usr/bin:/bin'), 'LC_ALL': 'C', 'TZ': 'UTC',
                'HOME': os.path.join(tmp, 'home1'), 'TERM': 'dumb',
                'XDG_CACHE_HOME': os.path.join(tmp, 'cache1')}
        locs, note = locales(tmp)
        print('check_env: ' + note)
        variants = []
        for name, extra in locs:
            variants.append(('LC_ALL=' + name, dict(base, LC_ALL=name, **extra), 'cwd1'))
            e = dict(base, LANG=name, LC_NUMERIC=name, LC_CTYPE=name, LC_MESSAGES=name, **extra)
            del e['LC_ALL']
            variants.append(('LANG=' + name, e, 'cwd1'))
        variants.append(('TZ, HOME, COLUMNS, TERM, XDG_CACHE_HOME, cwd',
                         dict(base, TZ='Pacific/Chatham', HOME=os.path.join(tmp, 'home2'),
                              COLUMNS='20', LINES='5', TERM='xterm-256color',
                              XDG_CACHE_HOME=os.path.join(tmp, 'cache2')), 'cwd2'))
        variants.append(('cwd /', dict(base), '/'))

        def run(args, env, cwd):
            cwd = cwd if cwd == '/' else os.path.join(tmp, cwd)
            p = subprocess.run([exe] + args, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
            return p.returncode, p.stdout, p.stderr

        for args in COMMANDS:
            want = run(args, base, 'cwd1')
            what = ' '.join(os.path.basename(a) if a.startswith('/') else a for a in args)
            check(want[0] in (0, 1, 2) and (want[1] or want[2]), '%s: runs (exit %d)' % (what, want[0]))
            for vname, env, cwd in variants:
                got = run(args, env, cwd)
                same = got == want
                diff = ''
                if not same:
                    for k, (a, b) in enumerate(zip(want[1:], got[1:])):
                        if a != b:
                            n = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]),
                                     min(len(a), len(b)))
                            diff = '%s differs at byte %d: %r vs %r' % (
                                ('stdout', 'stderr')[k], n, a[max(0, n - 40):n + 40], b[max(0, n - 40):n + 40])
                            break
                    if not diff:
                        diff = 'exit %d vs %d' % (want[0], got[0])
                check(same, 'ptxray %s under %s: same output as in the C locale (%s)' % (what, vname, diff))

        # colour: only on a terminal, never with NO_COLOR
        def on_pty(args, env):
            master, slave = pty.openpty()
            p = subprocess.Popen([exe] + args, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                 stdout=slave, stderr=slave)
            os.close(slave)
            data = b''
            while True:
                r, _, _ = select.select([master], [], [], 60)
                if not r:
                    break
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                data += chunk
            p.wait(timeout=60)
            os.close(master)
            return data

        args = ['lint', ex('transpose.ptx')]
        tty = on_pty(args, dict(base, TERM='xterm-256color'))
        check(b'\x1b[' in tty, 'lint on a terminal is coloured')
        check(b'\x1b[' not in on_pty(args, dict(base, TERM='xterm-256color', NO_COLOR='1')),
              'lint on a terminal with NO_COLOR=1 is not coloured')
        plain = run(args, dict(base, TERM='xterm-256color'), 'cwd1')
        check(b'\x1b[' not in plain[1] + plain[2], 'lint to a pipe is not coloured')
        check(tty.replace(b'\r\n', b'\n').count(b'[shared-bank-conflict]') ==
              plain[1].count(b'[shared-bank-conflict]') > 0,
              'the terminal shows the same findings as the pipe')
    return check.summary()


if __name__ == '__main__':
    sys.exit(main())
