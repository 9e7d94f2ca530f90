#!/usr/bin/env python3
"""tests/check_simt_lint.py BUILD_DIR: the SIMT verifier inside `ptxray lint`
and `ptxray simt FILE.cu` through the nvcc bridge (issue 8).

Checks that:
 - `ptxray lint` finds the seeded bugs of tests/fixtures/simt/bugs/seeded.cu
   in its PTX (barrier under a thread-dependent condition, full-mask shuffle
   after an early exit, missing barrier between a shared write and another
   thread's read, off-by-one shared index), each with the threads as (x,y,z)
   and the lines, and that the correct versions get no correctness finding;
 - the same through the nvcc bridge on seeded.cu (a fake nvcc that writes the
   committed PTX; no CUDA needed): findings at the .cu lines of the `.loc`
   (the shuffle inside an inlined intrinsic at its `inlined_at` line);
 - no guessed verdict: without --param the kernel whose shuffle depends on
   the unknown n gets a note (at the .cu line through the bridge), no finding; without a launch block the kernels
   are not simulated (a note), so no simulated finding;
 - a budget too small for the kernel gives a note, not a verdict;
 - `ptxray simt hot.cu` (fake nvcc, committed PTX) times the loops of the
   `// ptxray: hot` loop only, at the block of the `// ptxray: launch`
   annotation, and locates them at hot.cu's lines; --loop all times more.
Prints `N passed, N failed`. Standard library only.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUGS = os.path.join('tests', 'fixtures', 'simt', 'bugs')
HOT = os.path.join('tests', 'fixtures', 'simt', 'hot')
CORRECTNESS = {'deadlock', 'divergent-barrier', 'shared-out-of-bounds', 'shared-race', 'shuffle-mask',
               'uninitialized-shared', 'warp-sync-missing'}
# kernel -> the rules its seeded bug must fire (correct versions: none of CORRECTNESS)
SEEDED = {
    'bar_divergent': {'divergent-barrier'},
    'shfl_after_exit': {'shuffle-mask'},
    'missing_barrier': {'shared-race'},
    'off_by_one': {'shared-out-of-bounds'},
    'cp_async_early': {'shared-race'},
    'bar_ok': set(), 'shfl_ok': set(), 'with_barrier': set(), 'in_bounds': set(), 'cp_async_ok': set(),
}

# A fake nvcc: writes the committed PTX of the source (NAME.cu -> NAME.sm_90.ptx
# in FAKE_PTX_DIR) to -o.
FAKE = r'''#!/usr/bin/env python3
import os, shutil, sys
args = sys.argv[1:]
src = args[-1]
stem = os.path.splitext(os.path.basename(src))[0]
shutil.copy(os.path.join(os.environ["FAKE_PTX_DIR"], stem + ".sm_90.ptx"), args[args.index("-o") + 1])
'''

check = Checks(verbose=True)




def run(build, args, env=None):
    p = subprocess.run([os.path.join(build, 'ptxray')] + args, cwd=ROOT, capture_output=True, text=True,
                       env=env, timeout=300)
    return p


def lint_json(build, args, env=None):
    p = run(build, ['lint', '--format', 'json'] + args, env)
    try:
        return p, json.loads(p.stdout)['diagnostics']
    except ValueError:
        return p, None


def by_kernel(diags):
    out = {}
    for d in diags or []:
        if d['rule'] in CORRECTNESS:
            out.setdefault(d['kernel'], []).append(d)
    return out


def seeded_checks(found, where):
    for kernel, want in sorted(SEEDED.items()):
        got = {d['rule'] for d in found.get(kernel, [])}
        if want:
            check(want <= got, '%s: %s found %s (got %s)' % (where, kernel, sorted(want), sorted(got)))
        else:
            check(not got, '%s: correct version %s has no correctness finding (got %s)' % (where, kernel, sorted(got)))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    ptx = os.path.join(BUGS, 'seeded.sm_90.ptx')

    # 1. the seeded bugs in the PTX
    p, d = lint_json(build, ['--block', '256', '--param', '1=200', ptx])
    check(p.returncode == 1 and d is not None, 'lint seeded PTX: exit 1 with findings (exit %d)' % p.returncode)
    found = by_kernel(d)
    seeded_checks(found, 'PTX')
    race = [x for x in found.get('missing_barrier', []) if x['rule'] == 'shared-race']
    # which racing pair is met first depends on the simulated timing; any
    # pair is right when thread t reads s[t + 1] that thread t + 1 wrote
    m = re.match(r'thread \((\d+),0,0\) writes shared byte offset (\d+) at seeded\.cu:28 \(PTX line 203\); '
                 r'thread \((\d+),0,0\) reads it at seeded\.cu:29 \(PTX line 208\), no barrier between',
                 race[0]['message']) if len(race) == 1 else None
    check(m is not None and int(m.group(1)) == (int(m.group(3)) + 1) % 256 and int(m.group(2)) == 4 * int(m.group(1)),
          'shared-race names both threads as (x,y,z), both lines and their source lines: %s'
          % [x['message'] for x in race])
    oob = [x for x in found.get('off_by_one', []) if x['rule'] == 'shared-out-of-bounds']
    check(len(oob) == 1 and 'thread (255,0,0)' in oob[0]['message'] and 'seeded.cu:39' in oob[0]['message'],
          'shared-out-of-bounds names the thread and the source line: %s' % [x['message'] for x in oob])

    # 2. no guessed verdicts: n unknown, no launch block
    p, d = lint_json(build, ['--block', '256', ptx])
    found = by_kernel(d)
    check(not found.get('shfl_after_exit') and 'kernel shfl_after_exit: from here the simulation follows the '
          'unknown-value policy' in p.stderr,
          'n unknown: no shuffle-mask verdict for shfl_after_exit, a note instead (%s)'
          % [x['message'] for x in found.get('shfl_after_exit', [])])
    p, d = lint_json(build, [ptx])
    sim = [x for x in d or [] if x['rule'] in ('shared-race', 'shared-out-of-bounds', 'uninitialized-shared',
                                                'deadlock')]
    check(not sim and '10 kernels were not simulated' in p.stderr,
          'no launch block known: no simulated finding, one note (%d findings; %s)'
          % (len(sim), p.stderr.strip().splitlines()[-1:]))

    with tempfile.TemporaryDirectory() as tmp:
        # 3. the budget
        cfg = os.path.join(tmp, 'budget.yaml')
        with open(cfg, 'w') as f:
            f.write('rules:\n')
            for r in ('deadlock', 'shared-out-of-bounds', 'shared-race', 'uninitialized-shared'):
                f.write('  %s: {threshold: 20}\n' % r)
        p, d = lint_json(build, ['--config', cfg, '--block', '256', '--only', 'shared-out-of-bounds', ptx])
        check('the simulation stopped at its budget (20 warp-instructions)' in p.stderr and
              not [x for x in d or [] if x['rule'] == 'shared-out-of-bounds'],
              'a budget of 20 warp-instructions: a note, no out-of-bounds verdict (%s)'
              % p.stderr.strip().splitlines()[:1])

        # 4. through the nvcc bridge (fake nvcc writing the committed PTX)
        fake = os.path.join(tmp, 'nvcc')
        with open(fake, 'w') as f:
            f.write(FAKE)
        os.chmod(fake, 0o755)
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, 'cache'), NO_COLOR='1', LC_ALL='C')
        cu = os.path.join(tmp, 'seeded.cu')
        with open(os.path.join(ROOT, BUGS, 'seeded.cu')) as f, open(cu, 'w') as g:
            g.write(f.read())
        env['FAKE_PTX_DIR'] = os.path.join(ROOT, BUGS)
        p, d = lint_json(build, ['--nvcc', fake, '--block', '256', '--param', '1=200', cu], env)
        check(d is not None and all(x['file'] == cu for x in d), 'lint seeded.cu through the bridge: findings in the .cu')
        seeded_checks(by_kernel(d), '.cu')
        lines = {(x['rule'], x['line']) for x in d or []}
        for rule, line in (('shared-race', 29), ('shared-out-of-bounds', 39), ('uninitialized-shared', 41),
                           ('shuffle-mask', 18), ('divergent-barrier', 6)):
            check((rule, line) in lines, '.cu: %s at seeded.cu:%d (.loc%s)'
                  % (rule, line, ', inlined_at' if rule == 'shuffle-mask' else ''))

        db = [x for x in d or [] if x['rule'] == 'divergent-barrier' and x['line'] == 6]
        check(len(db) == 1 and '; simulated: barrier reached by thread (96,0,0) but not by thread (100,0,0)'
              in db[0]['message'], '.cu: the source finding of divergent-barrier carries the simulation\'s proof: %s'
              % [x['message'] for x in db])
        p, d = lint_json(build, ['--nvcc', fake, '--block', '256', cu], env)
        check('%s:16:1: note: kernel shfl_after_exit: from here the simulation follows the unknown-value policy' % cu
              in p.stderr, '.cu: the verifier\'s note sits at the .cu line of the unknown branch (seeded.cu:16)')

        p = run(build, ['simt', cu, '--nvcc', fake, '--kernel', 'off_by_one', '--block', '256'], env)
        check(p.returncode == 1 and p.stdout.startswith('%s:39:1: error: thread (255,0,0) writes 4 bytes of shared '
                                                        'memory' % cu),
              'simt seeded.cu: the violation printed at its .cu line (exit %d: %s)'
              % (p.returncode, p.stdout.splitlines()[:1]))

        # 5. simt FILE.cu: hot loops and the launch annotation
        hcu = os.path.join(tmp, 'hot.cu')
        with open(os.path.join(ROOT, HOT, 'hot.cu')) as f, open(hcu, 'w') as g:
            g.write(f.read())
        env['FAKE_PTX_DIR'] = os.path.join(ROOT, HOT)
        p = run(build, ['simt', hcu, '--nvcc', fake, '--kernel', 'k', '--param', '2=20', '--param', '3=40',
                        '--format', 'json'], env)
        doc = json.loads(p.stdout) if p.returncode == 0 and p.stdout.strip() else {}
        src = sorted({(l['source'] or {}).get('line') for l in doc.get('loops', [])})
        check(p.returncode == 0 and src == [13] and doc.get('block') == [128, 1, 1],
              'simt hot.cu: the loops of the hot source loop only (lines %s), block %s from the annotation'
              % (src, doc.get('block')))
        p = run(build, ['simt', hcu, '--nvcc', fake, '--kernel', 'k', '--loop', 'all', '--format', 'json'], env)
        doc = json.loads(p.stdout) if p.returncode == 0 and p.stdout.strip() else {}
        src = sorted({(l['source'] or {}).get('line') for l in doc.get('loops', [])})
        check(src == [8, 13], 'simt hot.cu --loop all: both source loops (%s)' % src)
        p = run(build, ['simt', hcu, '--nvcc', os.path.join(tmp, 'missing'), '--kernel', 'k'], env)
        check(p.returncode == 2 and p.stdout == '', 'simt FILE.cu with a missing nvcc: exit 2, no output')
    return check.summary()


if __name__ == '__main__':
    sys.exit(main())
