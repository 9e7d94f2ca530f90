#!/usr/bin/env python3
"""tests/check_precommit.py BUILD_DIR: ptxray as a new user meets it, through
pre-commit (https://pre-commit.com, Debian package `pre-commit`).

In a scratch folder: a hook repository holding this repository's
.pre-commit-hooks.yaml (committed, as a fresh clone would have it), and a
user repository whose .pre-commit-config.yaml adds the hook in three lines.
Then, with BUILD_DIR's ptxray on PATH, for a repository of CUDA C files
(.cu, the issue's judge) and again for one of PTX files:
 1. a commit of a clean kernel goes through;
 2. a commit adding a shared-memory bank conflict is blocked, and the
    output names the rule;
 3. the same commit with `// ptxray-ignore: shared-bank-conflict — reason`
    above the line goes through;
 4. an old repository with existing findings adopts the hook with a
    baseline (`ptxray lint --write-baseline`, hook args `--baseline`): a
    commit that moves the old code goes through, one adding a new bank
    conflict is still blocked.
Without git or pre-commit it prints a SKIP line and counts nothing.
Prints `N passed, N failed`. Standard library only.
"""
import os
import shutil
import subprocess
import sys
import tempfile

from checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kernel(name):
    """A rule fixture (PTX or CUDA C) without its test directives."""
    text = open(os.path.join(ROOT, 'tests', 'golden', 'rules', 'shared-bank-conflict', name)).read()
    return text.split('// RUN:', 1)[0].rstrip() + '\n'


# Each variant: the file extension, and text found on the conflicting line
# (the suppression goes on the line above it).
VARIANTS = (('.cu', 'tile[x][y]'), ('.ptx', 'ld.shared'))


def main():
    build = os.path.abspath(sys.argv[1])
    check = Checks()

    for tool in ('git', 'pre-commit'):
        if not shutil.which(tool):
            print('SKIP: %s is not installed (Debian package %s): the pre-commit test did not run'
                  % (tool, tool))
            print('0 passed, 0 failed')
            return 0
    tmp = tempfile.mkdtemp(prefix='ptxray-precommit-')
    env = dict(os.environ, PATH=build + os.pathsep + os.environ.get('PATH', ''),
               PRE_COMMIT_HOME=os.path.join(tmp, 'cache'), GIT_AUTHOR_NAME='t', GIT_AUTHOR_EMAIL='t@x',
               GIT_COMMITTER_NAME='t', GIT_COMMITTER_EMAIL='t@x', NO_COLOR='1', HOME=tmp)
    env.pop('GIT_DIR', None)
    env.pop('GIT_WORK_TREE', None)

    def sh(args, cwd):
        p = subprocess.run(args, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=300)
        return p.returncode, p.stdout

    try:
        hooks = os.path.join(tmp, 'ptxray')
        os.makedirs(hooks)
        shutil.copy(os.path.join(ROOT, '.pre-commit-hooks.yaml'), hooks)
        sh(['git', 'init', '-q'], hooks)
        sh(['git', 'add', '.pre-commit-hooks.yaml'], hooks)
        sh(['git', 'commit', '-qm', 'hooks'], hooks)
        rev = sh(['git', 'rev-parse', 'HEAD'], hooks)[1].strip()

        def user_repo(name, args=None):
            repo = os.path.join(tmp, name)
            os.makedirs(repo)
            sh(['git', 'init', '-q'], repo)
            cfg = ('repos:\n  - repo: %s\n    rev: %s\n    hooks: [{id: ptxray-lint%s}]\n'
                   % (hooks, rev, (', args: [%s]' % ', '.join(args)) if args else ''))
            with open(os.path.join(repo, '.pre-commit-config.yaml'), 'w') as f:
                f.write(cfg)
            return repo

        def commit(repo, files, msg):
            sh(['git', 'add', *files], repo)
            return sh(['git', 'commit', '-m', msg], repo)

        for ext, marker in VARIANTS:
            # 1-3: a new repository
            # CUDA files: the source analyses only, so the scenario does not
            # depend on whether this machine has nvcc
            nc = ['--no-compile'] if ext == '.cu' else []
            repo = user_repo('kernels' + ext[1:], args=nc or None)
            rc, out = sh(['pre-commit', 'install'], repo)
            check(rc == 0, 'pre-commit install (%s)' % ext, out)
            with open(os.path.join(repo, 'clean' + ext), 'w') as f:
                f.write(kernel('silent' + ext))
            rc, out = commit(repo, ['.pre-commit-config.yaml', 'clean' + ext], 'clean kernel')
            check(rc == 0 and 'ptxray lint' in out, 'a clean kernel is committed (%s)' % ext, out)
            bad = kernel('fires' + ext)
            with open(os.path.join(repo, 'transpose' + ext), 'w') as f:
                f.write(bad)
            rc, out = commit(repo, ['transpose' + ext], 'bank conflict')
            check(rc != 0 and 'shared-bank-conflict' in out and 'Failed' in out,
                  'a commit adding a bank conflict is blocked (%s)' % ext, out)
            lines = bad.split('\n')
            i = next(k for k, l in enumerate(lines) if marker in l)
            indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
            lines.insert(i, indent + '// ptxray-ignore: shared-bank-conflict \u2014 read once per block, not hot')
            with open(os.path.join(repo, 'transpose' + ext), 'w') as f:
                f.write('\n'.join(lines))
            rc, out = commit(repo, ['transpose' + ext], 'bank conflict, suppressed with a reason')
            check(rc == 0, 'a suppression with a reason lets it through (%s)' % ext, out)
            lines[i] = indent + '// ptxray-ignore: shared-bank-conflict'
            with open(os.path.join(repo, 'transpose' + ext), 'w') as f:
                f.write('\n'.join(lines))
            rc, out = commit(repo, ['transpose' + ext], 'suppression without a reason')
            check(rc != 0 and 'bad-annotation' in out, 'a suppression without a reason is blocked (%s)' % ext, out)

            # 4: an old repository adopts the hook with a baseline
            old = user_repo('legacy' + ext[1:], args=['--baseline', '.ptxray-baseline'] + nc)
            with open(os.path.join(old, 'old' + ext), 'w') as f:
                f.write(bad)
            commit(old, ['old' + ext], 'old code')
            rc, out = sh(['ptxray', 'lint', '--write-baseline', '.ptxray-baseline', 'old' + ext], old)
            check(rc == 0, 'ptxray lint --write-baseline (%s)' % ext, out)
            sh(['pre-commit', 'install'], old)
            rc, out = commit(old, ['.pre-commit-config.yaml', '.ptxray-baseline'], 'adopt ptxray')
            check(rc == 0, 'the hook is adopted (%s)' % ext, out)
            with open(os.path.join(old, 'old' + ext), 'w') as f:
                f.write('// a new header moves the old code down\n\n' + bad)
            rc, out = commit(old, ['old' + ext], 'touch old code')
            check(rc == 0, 'the baseline lets an old repository commit its old findings (%s)' % ext, out)
            with open(os.path.join(old, 'new' + ext), 'w') as f:
                f.write(bad)
            rc, out = commit(old, ['new' + ext], 'new bank conflict')
            check(rc != 0 and 'shared-bank-conflict' in out, 'a new finding is still blocked (%s)' % ext, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.summary()


if __name__ == '__main__':
    sys.exit(main())
