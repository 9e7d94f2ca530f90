#!/usr/bin/env python3
"""tests/check_ptxas.py BUILD_DIR: differential test of ptxray against ptxas.

For every PTX file in tests/fixtures/ptxas/truth.json (written by
tests/corpus/gen.py from `ptxas -v`), runs
    BUILD_DIR/ptxray report --format json FILE
(argv, no shell, from the repository root) and checks:
  files     exit status 0, valid JSON, and the set of kernel names equals the
            set of entries ptxas compiled;
  smem      for every kernel (with dynamic shared memory too: ptxas's smem
            is the static part),
            shared_static_bytes == ptxas's "N bytes smem" (0 when absent);
  dynamic   shared_dynamic == whether the kernel (or a callee) references an
            .extern .shared array;
  params    param_bytes > 0 for kernels that declare parameters (sanity);
  local     local_bytes >= the bytes of the .local arrays the entry itself
            declares, and local_bytes == 0 when neither the entry nor any
            function it calls declares .local.
Every check is one test; failures are printed with file, kernel, expected and
actual.  Ends with `N passed, N failed`; exit status 1 on any failure.
Files run two at a time.  Standard library only.
"""

import concurrent.futures
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRUTH = os.path.join(ROOT, "tests", "fixtures", "ptxas", "truth.json")
sys.path.insert(0, os.path.join(ROOT, "tests", "corpus"))
import ptxtruth  # noqa: E402

TIMEOUT = 120
_RE_ENTRY_PARAMS = re.compile(r"\.entry\s+([\w$]+)\s*\(([^)]*)\)", re.S)
_RE_LOCAL = re.compile(r"^\s*\.local\b[^;]*?\.[bsuf](8|16|32|64)\s+[\w$]+\s*(?:\[(\d+)\])?\s*;", re.M)


def ptx_facts(text):
    """Per entry: (has params, own .local bytes, any .local reachable)."""
    params = {m.group(1): ".param" in m.group(2) for m in _RE_ENTRY_PARAMS.finditer(text)}
    bodies = ptxtruth.function_bodies(text)
    funcs = set(bodies)
    own_local, callees = {}, {}
    ident = re.compile(r"[A-Za-z_$][\w$]*")
    for name, (_, body) in bodies.items():
        own_local[name] = sum(int(bits) // 8 * int(count or 1) for bits, count in _RE_LOCAL.findall(body))
        callees[name] = set(ident.findall(body)) & funcs - {name}
    facts = {}
    for name, (kind, _) in bodies.items():
        if kind != "entry":
            continue
        seen, stack, any_local = {name}, [name], False
        while stack:
            f = stack.pop()
            any_local = any_local or own_local[f] > 0
            for c in callees[f]:
                if c not in seen:
                    seen.add(c)
                    stack.append(c)
        facts[name] = (params.get(name, False), own_local[name], any_local)
    return facts


def check_file(ptxray, path, truth):
    """Returns (passed, [failure messages])."""
    passed, fails = 0, []
    try:
        proc = subprocess.run([ptxray, "report", "--format", "json", path], cwd=ROOT,
                              capture_output=True, text=True, timeout=TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as e:
        return 0, ["%s: files: could not run ptxray: %s" % (path, e)]
    if proc.returncode != 0:
        return 0, ["%s: files: exit status %d (expected 0): %s" % (path, proc.returncode, proc.stderr.strip()[:300])]
    try:
        doc = json.loads(proc.stdout)
        rfile = doc["files"][0]
        kernels = {k["name"]: k for k in rfile["kernels"]}
    except (ValueError, KeyError, IndexError, TypeError) as e:
        return 0, ["%s: files: bad JSON from ptxray: %s" % (path, e)]

    expected = set(truth["kernels"])
    if set(kernels) == expected:
        passed += 1
    else:
        fails.append("%s: files: kernel set differs: missing %s, extra %s" % (
            path, sorted(expected - set(kernels)), sorted(set(kernels) - expected)))

    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
        facts = ptx_facts(f.read())

    def check(ok, kname, what, exp, act):
        nonlocal passed
        if ok:
            passed += 1
        else:
            fails.append("%s: %s: %s: expected %s, actual %s" % (path, kname, what, exp, act))

    for kname in sorted(expected & set(kernels)):
        t, k = truth["kernels"][kname], kernels[kname]
        # ptxas's smem is the static part for kernels with dynamic shared
        # memory too, so every kernel is checked
        act = k.get("shared_static_bytes")
        check(act == t["smem"], kname, "shared_static_bytes", t["smem"], act)
        act = k.get("shared_dynamic")
        check(act == t["dynamic_shared"], kname, "shared_dynamic", t["dynamic_shared"], act)
        has_params, own_local, any_local = facts.get(kname, (False, 0, False))
        if has_params:
            act = k.get("param_bytes")
            check(isinstance(act, int) and act > 0, kname, "param_bytes", "> 0", act)
        act = k.get("local_bytes")
        if own_local:
            check(isinstance(act, int) and act >= own_local, kname, "local_bytes", ">= %d" % own_local, act)
        elif not any_local:
            check(act == 0, kname, "local_bytes", 0, act)
    return passed, fails


def main(argv):
    if len(argv) != 1:
        print("usage: tests/check_ptxas.py BUILD_DIR", file=sys.stderr)
        return 2
    ptxray = os.path.abspath(os.path.join(argv[0], "ptxray"))
    with open(TRUTH) as f:
        truth = json.load(f)["files"]
    if not os.access(ptxray, os.X_OK):
        print("%s: not built" % ptxray)
        print("0 passed, %d failed" % len(truth))
        return 1
    files = sorted(truth)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda p: check_file(ptxray, p, truth[p]), files))
    npass = sum(r[0] for r in results)
    fails = [m for r in results for m in r[1]]
    for m in fails:
        print("FAIL " + m)
    print("%d passed, %d failed" % (npass, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
