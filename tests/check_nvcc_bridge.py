#!/usr/bin/env python3
"""tests/check_nvcc_bridge.py BUILD_DIR: the nvcc bridge of `ptxray report
FILE.cu` (analyzer/cuda/cuda_nvcc.c), against a fake nvcc that needs no CUDA
toolkit: a Python script that records each invocation (its argv, one JSON line
in a log) and writes a fixed PTX file (one kernel whose store is strided, with
.loc lines into the .cu) or, when the source contains FAIL, exits 1 with an
nvcc-style message.

Checks:
  1. the first report compiles once (log: 1 run; JSON compile.compiled 1);
     nvcc got -ptx -lineinfo -arch=sm_90 and -o, in an argument vector;
  2. a second report of the unchanged file does no compilation (log still 1;
     compile.cached 1): the measurement the issue asks for;
  3. changing the source, then a header it includes with #include "...",
     recompiles (2, then 3 runs); a header nobody includes does not;
  4. -p BUILD_DIR: the compile_commands.json entry's -I (made absolute), -D
     and -std reach nvcc, its -gencode/-arch targets become the compiled
     targets (sm_80 and sm_86: two runs) and the other flags do not;
  5. the PTX's registers appear in the report (registers.estimate not null),
     and the PTX finding at the .cu line that the source analyses also
     report is given once (merged, no duplicate);
  6. a failing compilation reports the compiler's own message at its line;
  7. --no-compile runs no nvcc and says so once; a bad compile_commands.json
     is a located error with exit status 2;
  8. with the real nvcc (when one is found: --nvcc, CUDA_HOME, PATH, or
     /usr/local/cuda/bin), the first report of examples/transpose.cu compiles
     and the second is served from the cache; the wall times are printed.
  9. `ptxray lint FILE.cu` through the same bridge: compiles once, then is
     cached; a PTX finding the source analyses cannot make (an index through
     an opaque device function) appears at its .cu line (.loc), and not with
     --no-compile; a finding both sides make is given once; -p's targets and
     flags reach nvcc; without any nvcc the note says so once; with the real
     nvcc (through a logging wrapper) the second lint runs no nvcc.
Ends with `N passed, N failed`. Standard library only.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FAKE = r'''#!/usr/bin/env python3
import json, os, sys
log = os.environ["FAKE_NVCC_LOG"]
with open(log, "a") as f:
    f.write(json.dumps(sys.argv[1:]) + "\n")
args = sys.argv[1:]
out = args[args.index("-o") + 1]
src = args[-1]
text = open(src).read()
if "FAIL" in text:
    sys.stderr.write("%s(3): error: identifier \"nope\" is undefined\n1 error detected.\n" % src)
    sys.exit(1)
arch = [a for a in args if a.startswith("-arch=")][0][6:]
open(out, "w").write(PTX.replace("ARCH", arch).replace("FILE", os.path.abspath(src)))
'''

PTX = r'''
.version 8.0
.target ARCH
.address_size 64
.file 1 "FILE"
.visible .entry _Z1kPf(.param .u64 _Z1kPf_param_0)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<5>;
	.loc 1 2 1
	ld.param.u64 %rd1, [_Z1kPf_param_0];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 128;
	add.s64 %rd4, %rd2, %rd3;
	.loc 1 3 3
	st.global.u32 [%rd4], %r1;
	.loc 1 4 1
	ret;
}
'''

SOURCE = '''#include "k.h"
__global__ void k(float *p) {
  p[threadIdx.x * 32] = SCALE;
}
void host(float *p) { k<<<1, 256>>>(p); }
'''

check = Checks(verbose=True)




def runs(log):
    if not os.path.exists(log):
        return []
    with open(log) as f:
        return [json.loads(l) for l in f if l.strip()]


def report(build, env, *args):
    argv = [os.path.join(build, 'ptxray'), 'report', '--format', 'json'] + list(args)
    p = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    doc = None
    if p.stdout.strip():
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = None
    return p, doc


LINT_SOURCE = '''__device__ int idx(int t);
__global__ void k(float *p) {
  p[idx(threadIdx.x)] = 1.0f;
}
'''


def lint(build, env, *args):
    argv = [os.path.join(build, 'ptxray'), 'lint', '--format', 'json'] + list(args)
    p = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    return p, (doc or {}).get('diagnostics')


def lint_checks(build, env, fake, log, src_dir, tmp, real):
    """9: ptxray lint through the nvcc bridge."""
    lk = os.path.join(src_dir, 'lk.cu')
    with open(lk, 'w') as f:
        f.write(LINT_SOURCE)
    before = len(runs(log))
    p, d = lint(build, env, '--nvcc', fake, lk)
    check(p.returncode in (0, 1) and d is not None and len(runs(log)) == before + 1,
          'lint FILE.cu runs nvcc once (exit %d, %d runs)' % (p.returncode, len(runs(log)) - before))
    unc = [x for x in d or [] if x['rule'] == 'uncoalesced-global']
    check(len(unc) == 1 and unc[0]['line'] == 3 and unc[0]['file'] == lk and "nvcc's PTX for sm_90" in
          unc[0]['message'], 'lint: the PTX\'s strided store is a finding at lk.cu:3 (.loc): %s' % unc)
    p, d = lint(build, env, '--nvcc', fake, lk)
    check(len(runs(log)) == before + 1 and d is not None,
          'a second lint of the unchanged file runs no nvcc (%d runs)' % (len(runs(log)) - before))
    p, d = lint(build, env, '--nvcc', fake, '--no-compile', lk)
    check(len(runs(log)) == before + 1 and not [x for x in d or [] if x['rule'] == 'uncoalesced-global'],
          'lint --no-compile: no nvcc run, no PTX finding')
    cu = os.path.join(src_dir, 'k.cu')
    p, d = lint(build, env, '--nvcc', fake, cu)
    keys = [(x['rule'], x['line']) for x in d or []]
    check(keys.count(('uncoalesced-global', 3)) == 1 and len(keys) == len(set(keys)),
          'lint: a finding both the source and the PTX make is given once (one per rule and line): %s' % keys)
    bdir = os.path.join(tmp, 'build-lint')
    os.makedirs(bdir)
    with open(os.path.join(bdir, 'compile_commands.json'), 'w') as f:
        json.dump([{'directory': src_dir, 'file': 'k.cu',
                    'arguments': ['nvcc', '-DBAR=2', '-arch=sm_80', '-c', 'k.cu']}], f)
    before = len(runs(log))
    p, d = lint(build, env, '--nvcc', fake, '-p', bdir, cu)
    new = runs(log)[before:]
    check(len(new) == 1 and '-arch=sm_80' in new[0] and '-DBAR=2' in new[0],
          'lint -p BUILD_DIR: the entry\'s target and -D reach nvcc: %s' % new)
    empty = os.path.join(tmp, 'empty-bin')
    os.makedirs(empty)
    env3 = dict(env, PATH=empty)
    env3.pop('CUDA_HOME', None)
    p, d = lint(build, env3, cu, lk)
    check(p.stderr.count('linted from source only: no nvcc found') == 1 and d is not None,
          'lint without any nvcc: source analyses, one note (%s)' % p.stderr.strip().splitlines()[-1:])
    if not real:
        print('skip lint with the real nvcc: none found')
        return
    wrap = os.path.join(tmp, 'nvcc-wrap')
    rlog = os.path.join(tmp, 'real.log')
    with open(wrap, 'w') as f:
        f.write('#!/bin/sh\necho run >> %s\nexec %s "$@"\n' % (rlog, real))
    os.chmod(wrap, 0o755)
    src = os.path.join(ROOT, 'examples', 'transpose.cu')
    env4 = dict(env, XDG_CACHE_HOME=os.path.join(tmp, 'cache3'))
    t0 = time.monotonic()
    p1, d1 = lint(build, env4, '--nvcc', wrap, src)
    t1 = time.monotonic()
    n1 = len(open(rlog).read().split()) if os.path.exists(rlog) else 0
    p2, d2 = lint(build, env4, '--nvcc', wrap, src)
    t2 = time.monotonic()
    n2 = len(open(rlog).read().split()) if os.path.exists(rlog) else 0
    check(d1 is not None and n1 == 1 and n2 == 1 and d1 == d2,
          'real nvcc: the first lint compiles (%.2f s), the second runs no nvcc (%.2f s), same findings '
          '(%d runs)' % (t1 - t0, t2 - t1, n2))


COMPAT_SOURCE = '''__global__ void k(float *p) {
#if __CUDA_ARCH__ >= 800
  p[threadIdx.x] = 1.0f;
#else
  p[threadIdx.x] = 2.0f;
#endif
}
'''


def compat_checks(build, env, fake, log, src_dir, tmp, real):
    """10. `ptxray compat FILE.cu`: one compilation per target, the
    __CUDA_ARCH__ branches per target, --no-compile is an error."""
    src = os.path.join(src_dir, 'c.cu')
    with open(src, 'w') as f:
        f.write(COMPAT_SOURCE)
    exe = os.path.join(build, 'ptxray')
    before = len(runs(log))
    p = subprocess.run([exe, 'compat', '--format', 'json', '--nvcc', fake, '--arch', 'sm_75,sm_90', src],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    ran = runs(log)[before:]
    archs = sorted(a for r in ran for a in r if a.startswith('-arch='))
    check(p.returncode == 0 and archs == ['-arch=sm_75', '-arch=sm_90'],
          'compat FILE.cu compiles once per target (%s, exit %d)' % (archs, p.returncode))
    fl = (doc or {}).get('files') or [{}]
    cu = fl[0].get('cuda') or {}
    br = {t: [b['taken'] for b in v['branches']] for t, v in (cu.get('targets') or {}).items()}
    check(fl[0].get('path') == src and br == {'sm_75': [False, True], 'sm_90': [True, False]},
          'compat FILE.cu: path is the .cu, __CUDA_ARCH__ branches per target (%s)' % br)
    ks = fl[0].get('kernels') or [{}]
    check(sorted((ks[0].get('targets') or {}).keys()) == ['sm_75', 'sm_90'] and
          all(v['ok'] for v in ks[0]['targets'].values()), 'compat FILE.cu: a verdict per target')
    p = subprocess.run([exe, 'compat', '--no-compile', src], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=60)
    check(p.returncode == 2 and '--no-compile' in p.stderr, 'compat FILE.cu --no-compile: a clear error')
    if real:
        p = subprocess.run([exe, 'compat', '--format', 'json', '--nvcc', real, '--arch', 'sm_80,sm_90', src],
                           capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = None
        cu = ((doc or {}).get('files') or [{}])[0].get('cuda') or {}
        check(p.returncode == 0 and cu.get('failed') == 0, 'compat FILE.cu with the real nvcc (%s)' % real)
    else:
        print('skip compat with the real nvcc: none found')


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else 'build')
    tmp = tempfile.mkdtemp(prefix='ptxray-nvcc-')
    try:
        fake = os.path.join(tmp, 'fake-nvcc')
        with open(fake, 'w') as f:
            f.write(FAKE.replace('PTX.replace', repr(PTX) + '.replace'))
        os.chmod(fake, 0o755)
        log = os.path.join(tmp, 'log.jsonl')
        src_dir = os.path.join(tmp, 'src')
        os.makedirs(src_dir)
        cu = os.path.join(src_dir, 'k.cu')
        with open(cu, 'w') as f:
            f.write(SOURCE)
        with open(os.path.join(src_dir, 'k.h'), 'w') as f:
            f.write('#define SCALE 1.0f\n')
        with open(os.path.join(src_dir, 'other.h'), 'w') as f:
            f.write('// not included\n')
        env = dict(os.environ, FAKE_NVCC_LOG=log, XDG_CACHE_HOME=os.path.join(tmp, 'cache'))

        # 1. first run compiles
        p, doc = report(build, env, '--nvcc', fake, cu)
        r = runs(log)
        check(p.returncode == 0 and doc is not None, 'first report succeeds (exit %d)' % p.returncode)
        check(len(r) == 1, 'first report runs nvcc once (%d runs)' % len(r))
        if r:
            a = r[0]
            check('-ptx' in a and '-lineinfo' in a and '-arch=sm_90' in a and '-o' in a and a[-1] == cu,
                  'nvcc argv: -ptx -lineinfo -arch=sm_90 -o OUT FILE (%s)' % ' '.join(a))
        comp = doc['files'][0]['compile'] if doc else None
        check(comp == {'targets': ['sm_90'], 'compiled': 1, 'cached': 0, 'failed': 0},
              'JSON compile object after the first run: %s' % comp)

        # 2. second run: no compilation
        t0 = time.monotonic()
        p, doc = report(build, env, '--nvcc', fake, cu)
        dt = time.monotonic() - t0
        r = runs(log)
        check(len(r) == 1, 'second report of the unchanged file runs no nvcc (%d runs in all; %.3f s)'
              % (len(r), dt))
        comp = doc['files'][0]['compile'] if doc else None
        check(comp is not None and comp['cached'] == 1 and comp['compiled'] == 0,
              'JSON compile object after the second run: %s' % comp)

        # 5. registers from the PTX, merged findings
        k = doc['files'][0]['kernels'][0] if doc else {}
        check(k.get('registers', {}).get('estimate') is not None and k.get('mangled') == '_Z1kPf',
              'the PTX kernel _Z1kPf is matched to k: registers %s' % k.get('registers'))
        lines = [l for l in p.stderr.splitlines() if '[uncoalesced-global]' in l]
        check(len(lines) == 1 and ':3:' in lines[0],
              'the strided store is reported once at k.cu:3 (source and PTX merged): %s' % lines)

        # 3. changes recompile; unrelated header does not
        with open(os.path.join(src_dir, 'other.h'), 'w') as f:
            f.write('// changed, still not included\n')
        report(build, env, '--nvcc', fake, cu)
        check(len(runs(log)) == 1, 'a header nobody includes changing: no compilation')
        with open(cu, 'a') as f:
            f.write('// edited\n')
        report(build, env, '--nvcc', fake, cu)
        check(len(runs(log)) == 2, 'an edited source recompiles (%d runs)' % len(runs(log)))
        with open(os.path.join(src_dir, 'k.h'), 'w') as f:
            f.write('#define SCALE 2.0f\n')
        report(build, env, '--nvcc', fake, cu)
        check(len(runs(log)) == 3, 'an edited #include "k.h" recompiles (%d runs)' % len(runs(log)))
        report(build, env, '--nvcc', fake, cu)
        check(len(runs(log)) == 3, 'and the next run is cached again')

        # 4. compile_commands.json
        bdir = os.path.join(tmp, 'build')
        os.makedirs(bdir)
        db = [{'directory': src_dir, 'file': 'k.cu',
               'arguments': ['nvcc', '-c', '-Iinclude', '-DFOO=1', '-std=c++17', '-O3',
                             '-gencode', 'arch=compute_80,code=sm_80', '--generate-code=arch=compute_86,code=sm_86',
                             '-o', 'k.o', 'k.cu']},
              {'directory': src_dir, 'file': 'other.cu', 'command': 'nvcc -DOTHER -c other.cu'}]
        with open(os.path.join(bdir, 'compile_commands.json'), 'w') as f:
            json.dump(db, f)
        before = len(runs(log))
        p, doc = report(build, env, '--nvcc', fake, '-p', bdir, cu)
        new = runs(log)[before:]
        check(len(new) == 2 and sorted(a for r in new for a in r if a.startswith('-arch=')) ==
              ['-arch=sm_80', '-arch=sm_86'], 'compile_commands targets sm_80, sm_86: one nvcc run each')
        if new:
            a = new[0]
            check('-I' + os.path.join(src_dir, 'include') in a and '-DFOO=1' in a and '-std=c++17' in a
                  and '-O3' not in a and '-DOTHER' not in a and 'k.o' not in a,
                  'the entry\'s -I (absolute), -D, -std reach nvcc, nothing else: %s' % ' '.join(a))
        comp = doc['files'][0]['compile'] if doc else None
        check(comp is not None and comp['targets'] == ['sm_80', 'sm_86'],
              'JSON targets from compile_commands.json: %s' % comp)
        with open(os.path.join(bdir, 'compile_commands.json'), 'w') as f:
            f.write('[{"file": "k.cu",\n  "directory" "x"}]')
        p, doc = report(build, env, '--nvcc', fake, '-p', bdir, cu)
        check(p.returncode == 2 and 'compile_commands.json:2:15: error:' in p.stderr,
              'a bad compile_commands.json: located error, exit 2 (%d: %s)'
              % (p.returncode, p.stderr.strip().splitlines()[:1]))

        # 6. compiler failure
        bad = os.path.join(src_dir, 'bad.cu')
        with open(bad, 'w') as f:
            f.write('// FAIL\n__global__ void k(float *p) {\n  nope();\n}\n')
        p, doc = report(build, env, '--nvcc', fake, bad)
        check('bad.cu:3:1: error: nvcc: identifier "nope" is undefined' in p.stderr,
              'nvcc\'s own message at its line: %s' % [l for l in p.stderr.splitlines() if 'nvcc' in l][:1])

        # 7. --no-compile
        before = len(runs(log))
        p, doc = report(build, env, '--nvcc', fake, '--no-compile', cu, cu)
        check(len(runs(log)) == before and p.stderr.count('source analyses only (--no-compile)') == 1,
              '--no-compile: no nvcc run, one note for two files')

        # 8. the real nvcc
        real = shutil.which('nvcc') or (os.path.join(os.environ['CUDA_HOME'], 'bin', 'nvcc')
                                        if os.environ.get('CUDA_HOME') else None)
        if not real and os.access('/usr/local/cuda/bin/nvcc', os.X_OK):
            real = '/usr/local/cuda/bin/nvcc'
        real = real if real and os.access(real, os.X_OK) else None
        if real:
            src = os.path.join(ROOT, 'examples', 'transpose.cu')
            env2 = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, 'cache2'))
            t0 = time.monotonic()
            p1, d1 = report(build, env2, '--nvcc', real, src)
            t1 = time.monotonic()
            p2, d2 = report(build, env2, '--nvcc', real, src)
            t2 = time.monotonic()
            c1 = d1['files'][0]['compile'] if d1 else None
            c2 = d2['files'][0]['compile'] if d2 else None
            check(c1 is not None and c1['compiled'] == 1 and c2 is not None and c2['cached'] == 1
                  and c2['compiled'] == 0,
                  'real nvcc (%s): first report compiles (%.2f s), second is cached (%.2f s)'
                  % (real, t1 - t0, t2 - t1))
        else:
            print('skip real nvcc: none found')
        lint_checks(build, env, fake, log, src_dir, tmp, real)
        compat_checks(build, env, fake, log, src_dir, tmp, real)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.summary()


if __name__ == '__main__':
    sys.exit(main())
