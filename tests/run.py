#!/usr/bin/env python3
"""tests/run.py: the test driver that `ninja test` runs.

Usage: python3 tests/run.py BUILD_DIR [--update] [--filter TEXT]

Runs, in order:
 (a) BUILD_DIR/unit_tests, the Criterion unit tests (counts from its
     "Synthesis: Tested: N | Passing: P | Failing: F | Crashing: C" line);
 (b) the fixtures: every file under tests/golden/ (recursive, sorted) with a
     `// RUN: ARGS` comment line. ARGS are split like a shell would (no shell
     runs) and given to BUILD_DIR/ptxray, with `{file}` replaced by the
     fixture's path relative to the repository root; the command runs in the
     repository root. Optional `// EXIT: N` (default 0). The expected standard
     output sits between `// EXPECT-BEGIN` and `// EXPECT-END`, one comment line
     per output line (`// text`, or `//` for an empty line); an optional
     `// EXPECT-STDERR-BEGIN` / `// EXPECT-STDERR-END` block gives standard
     error the same way (standard error is not compared without one). The
     directives may sit at the start or at the end of the file. Comparison is
     exact; a mismatch prints a unified diff. `--update` rewrites the blocks in
     place from the actual output (for developers; review the diff).
 (c) the checker scripts in CHECKERS, each run as `python3 SCRIPT BUILD_DIR`;
     the last `N passed, N failed` line of its output gives its counts.
Then it prints `N passed, N failed` (the sums) and exits 1 when anything failed.
Standard library only.
"""

import concurrent.futures
import difflib
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = 'tests/golden'
FIXTURE_TIMEOUT = 120
UNIT_TIMEOUT = 900

# Checker scripts (paths relative to the repository root).
CHECKERS = [
    'tests/check_carveout.py',
    'tests/check_compat.py',
    'tests/check_docs.py',
    'tests/check_env.py',
    'tests/check_gpu.py',
    'tests/check_launch_hw.py',
    'tests/check_limits.py',
    'tests/check_nvcc_bridge.py',
    'tests/check_occupancy_hw.py',
    'tests/check_parallel.py',
    'tests/check_precommit.py',
    'tests/check_ptxas.py',
    'tests/check_spills.py',
    'tests/check_valgrind.py',
    'tests/check_rules.py',
    'tests/check_simt.py',
    'tests/check_simt_lint.py',
]

SUMMARY_RE = re.compile(r'(\d+) passed, (\d+) failed')
SYNTHESIS_RE = re.compile(
    r'Synthesis: Tested: (\d+) \| Passing: (\d+) \| Failing: (\d+) \| Crashing: (\d+)')
ANSI_RE = re.compile(r'\x1b\[[0-9;]*m')


def run_unit_tests(build):
    """Returns (passed, failed, report text)."""
    exe = os.path.join(build, 'unit_tests')
    if not os.path.isfile(exe):
        return 0, 1, 'unit tests: %s is missing (build it with ninja)\n' % exe
    try:
        p = subprocess.run([exe, '--jobs', '2', '--color=never', '--short-filename'],
                           cwd=ROOT, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=UNIT_TIMEOUT)
    except subprocess.TimeoutExpired:
        return 0, 1, 'unit tests: timed out after %d s\n' % UNIT_TIMEOUT
    out = ANSI_RE.sub('', p.stdout.decode('utf-8', 'replace'))
    m = None
    for m in SYNTHESIS_RE.finditer(out):
        pass
    if m is None:
        return 0, 1, out + 'unit tests: no summary line (exit status %d)\n' % p.returncode
    tested, passing = int(m.group(1)), int(m.group(2))
    failed = tested - passing
    if failed == 0 and p.returncode != 0:
        failed = 1
    report = out if failed else ''
    return passing, failed, report


# ---- fixtures ----------------------------------------------------------------

class FixtureError(Exception):
    pass


def parse_fixture(path, lines):
    """Reads the directives of one fixture. Returns None when it has no RUN line,
    else a dict: args, exit, and for 'stdout'/'stderr' the expected text and the
    (begin, end) line indexes of its block (None when absent)."""
    spec = {'args': None, 'exit': 0, 'stdout': None, 'stderr': None,
            'stdout_span': None, 'stderr_span': None, 'run_line': None}
    block, begin, body = None, None, []
    for i, raw in enumerate(lines):
        line = raw.rstrip('\n')
        if block is not None:
            end = '// EXPECT-END' if block == 'stdout' else '// EXPECT-STDERR-END'
            if line.strip() == end:
                if spec[block] is not None:
                    raise FixtureError('two %s blocks' % end[3:-4])
                spec[block] = ''.join(b + '\n' for b in body)
                spec[block + '_span'] = (begin, i)
                block = None
            elif line == '//':
                body.append('')
            elif line.startswith('// '):
                body.append(line[3:])
            else:
                raise FixtureError('line %d: expected-output lines start with "// "' % (i + 1))
            continue
        s = line.strip()
        if s.startswith('// RUN:'):
            if spec['args'] is not None:
                raise FixtureError('line %d: a second RUN line' % (i + 1))
            spec['args'] = s[len('// RUN:'):].strip()
            spec['run_line'] = i
        elif s.startswith('// EXIT:'):
            try:
                spec['exit'] = int(s[len('// EXIT:'):].strip())
            except ValueError:
                raise FixtureError('line %d: bad EXIT value' % (i + 1))
        elif s == '// EXPECT-BEGIN':
            block, begin, body = 'stdout', i, []
        elif s == '// EXPECT-STDERR-BEGIN':
            block, begin, body = 'stderr', i, []
    if block is not None:
        raise FixtureError('unterminated expectation block')
    if spec['args'] is None:
        return None
    return spec


def run_fixture(build, rel):
    """Runs one fixture. Returns (rel, status, report, new file text or None)
    where status is 'pass', 'fail' or 'skip' (no RUN line)."""
    path = os.path.join(ROOT, rel)
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        lines = f.readlines()
    try:
        spec = parse_fixture(rel, lines)
    except FixtureError as e:
        return rel, 'fail', '%s: bad fixture: %s\n' % (rel, e), None
    if spec is None:
        return rel, 'skip', '', None
    try:
        args = [a.replace('{file}', rel) for a in shlex.split(spec['args'])]
    except ValueError as e:
        return rel, 'fail', '%s: bad RUN line: %s\n' % (rel, e), None
    argv = [os.path.join(build, 'ptxray')] + args
    env = dict(os.environ, NO_COLOR='1', LC_ALL='C')
    try:
        p = subprocess.run(argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=FIXTURE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return rel, 'fail', '%s: timed out after %d s\n' % (rel, FIXTURE_TIMEOUT), None
    except OSError as e:
        return rel, 'fail', '%s: cannot run %s: %s\n' % (rel, argv[0], e), None
    out = p.stdout.decode('utf-8', 'replace')
    err = p.stderr.decode('utf-8', 'replace')
    problems = []
    if p.returncode != spec['exit']:
        problems.append('exit status %d, expected %d' % (p.returncode, spec['exit']))
    diffs = []
    for name, actual in (('stdout', out), ('stderr', err)):
        want = spec[name]
        if name == 'stdout' and want is None:
            want = ''
        if want is not None and actual != want:
            problems.append('%s differs' % name)
            diffs.append(''.join(difflib.unified_diff(
                want.splitlines(True), actual.splitlines(True),
                'expected ' + name, 'actual ' + name)))
    if not problems:
        return rel, 'pass', '', None
    report = '%s: FAIL: %s\n  command: %s\n' % (
        rel, '; '.join(problems), ' '.join(shlex.quote(a) for a in argv))
    for d in diffs:
        report += d if d.endswith('\n') else d + '\n\\ No newline at end of output\n'
    if spec['stderr'] is None and err:
        report += '  stderr:\n' + ''.join('    ' + l + '\n' for l in err.splitlines())
    return rel, 'fail', report, updated_text(lines, spec, out, err)


def block_lines(text):
    """Comment lines for an expectation block holding text. (Output that does not
    end in a newline cannot be written exactly; it gains one.)"""
    if text == '':
        return []
    if text.endswith('\n'):
        text = text[:-1]
    return [('// ' + l if l else '//') + '\n' for l in text.split('\n')]


def updated_text(lines, spec, out, err):
    """The fixture with its expectation blocks replaced by the actual output."""
    new = list(lines)
    edits = []
    if spec['stdout_span'] is not None:
        edits.append((spec['stdout_span'], out))
    if spec['stderr_span'] is not None:
        edits.append((spec['stderr_span'], err))
    for (b, e), text in sorted(edits, reverse=True):
        new[b + 1:e] = block_lines(text)
    if spec['stdout_span'] is None:
        at = spec['run_line'] + 1
        while at < len(new) and new[at].strip().startswith('// EXIT:'):
            at += 1
        new[at:at] = ['// EXPECT-BEGIN\n'] + block_lines(out) + ['// EXPECT-END\n']
    return ''.join(new)


def fixture_files():
    base = os.path.join(ROOT, GOLDEN)
    found = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        for name in filenames:
            found.append(os.path.relpath(os.path.join(dirpath, name), ROOT))
    return sorted(found)


def run_fixtures(build, update, filt):
    files = [f for f in fixture_files() if not filt or filt in f]
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda rel: run_fixture(build, rel), files))
    for rel, status, report, new_text in results:
        if status == 'skip':
            continue
        if status == 'pass':
            passed += 1
            continue
        sys.stdout.write(report)
        if update and new_text is not None:
            with open(os.path.join(ROOT, rel), 'w', encoding='utf-8',
                      errors='surrogateescape') as f:
                f.write(new_text)
            print('%s: updated' % rel)
        failed += 1
    return passed, failed


# ---- checkers ----------------------------------------------------------------

def run_checker(build, rel):
    path = os.path.join(ROOT, rel)
    if not os.path.isfile(path):
        print('%s: FAIL: checker listed in tests/run.py is missing' % rel)
        return 0, 1
    p = subprocess.run([sys.executable, path, build], cwd=ROOT,
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    out = p.stdout.decode('utf-8', 'replace')
    sys.stdout.write(out)
    m = None
    for m in SUMMARY_RE.finditer(out):
        pass
    if m is None:
        print('%s: FAIL: no "N passed, N failed" line (exit status %d)' % (rel, p.returncode))
        return 0, 1
    passed, failed = int(m.group(1)), int(m.group(2))
    if failed == 0 and p.returncode != 0:
        print('%s: FAIL: exit status %d' % (rel, p.returncode))
        failed = 1
    return passed, failed


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description='Runs the ptxray tests.')
    ap.add_argument('build', help='the build folder (build)')
    ap.add_argument('--update', action='store_true',
                    help='rewrite the fixtures\' expectation blocks from actual output')
    ap.add_argument('--filter', default='',
                    help='run only the fixtures whose path contains this text')
    args = ap.parse_args(argv)
    build = os.path.abspath(args.build)
    sys.stdout.reconfigure(line_buffering=True)

    total_pass = total_fail = 0
    parts = []
    if not args.filter:
        p, f, report = run_unit_tests(build)
        sys.stdout.write(report)
        parts.append('unit %d/%d' % (p, p + f))
        total_pass += p
        total_fail += f
    p, f = run_fixtures(build, args.update, args.filter)
    parts.append('fixtures %d/%d' % (p, p + f))
    total_pass += p
    total_fail += f
    if not args.filter:
        for rel in CHECKERS:
            p, f = run_checker(build, rel)
            parts.append('%s %d/%d' % (os.path.basename(rel), p, p + f))
            total_pass += p
            total_fail += f
    print('(%s)' % ', '.join(parts))
    print('%d passed, %d failed' % (total_pass, total_fail))
    return 1 if total_fail else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
