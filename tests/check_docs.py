#!/usr/bin/env python3
"""tests/check_docs.py BUILD_DIR: the man pages agree with the binary.

--help is generated from the command table and each command's option list;
this checks that every command `ptxray --help` lists has its man page and
ptxray(1) names it, that every option a command's --help lists is documented
in its page, that every pass --dump=list lists is accepted, and that no man
page still holds a placeholder. Prints `N passed, N failed`.
"""
import os
import re
import subprocess
import sys

from checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(exe, *args):
    p = subprocess.run([exe, *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    return p.returncode, p.stdout


def main():
    exe = os.path.join(sys.argv[1], 'ptxray')
    check = Checks()


    rc, out = run(exe, '--help')
    check(rc == 0, 'ptxray --help exits 0')
    commands = re.findall(r'^  (\w+)\s', out.split('commands:')[1], re.M) if 'commands:' in out else []
    check(len(commands) > 0, 'ptxray --help lists commands')
    main_page = open(os.path.join(ROOT, 'man', 'ptxray.1')).read()
    for c in commands:
        page = os.path.join(ROOT, 'man', 'ptxray-%s.1' % c)
        check(os.path.isfile(page), 'man page for %s' % c)
        check(('.B %s' % c) in main_page, 'ptxray(1) names %s' % c)
        if not os.path.isfile(page):
            continue
        text = open(page).read().replace('\\-', '-')
        rc, usage = run(exe, c, '--help')
        check(rc == 0, '%s --help exits 0' % c)
        for opt in sorted(set(re.findall(r'^  (--[a-z-]+)', usage, re.M))):
            check(opt in text, '%s: option %s documented in %s' % (c, opt, os.path.basename(page)))
    for name in sorted(os.listdir(os.path.join(ROOT, 'man'))):
        text = open(os.path.join(ROOT, 'man', name)).read()
        check('PLACEHOLDER' not in text, '%s has no placeholder' % name)
    rc, out = run(exe, 'report', '--dump=list')
    for name in re.findall(r'^(\w+)\s', out, re.M):
        rc, _ = run(exe, 'report', '--dump=' + name, os.path.join('tests', 'golden', 'report', 'directives.ptx'))
        check(rc == 0, '--dump=%s is accepted' % name)
    return check.summary()


if __name__ == '__main__':
    sys.exit(main())
