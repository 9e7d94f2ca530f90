"""ptxtruth: ptxas ground truth for PTX files (helpers for tests/corpus/gen.py
and bench/cccl/gen.py).

run_ptxas(path, target) runs `ptxas -v -arch=TARGET PATH -o /dev/null` (argv,
no shell) and parses its report into per-entry records; dynamic_shared_entries
reads the PTX itself and tells which entries reach an `.extern .shared` array,
directly or through the functions they call.  Standard library only.
"""

import re
import subprocess

PTXAS = "/usr/local/cuda/bin/ptxas"

_RE_COMPILING = re.compile(r"Compiling entry function '([^']+)' for '([^']+)'")
_RE_PROPS = re.compile(r"Function properties for (\S+)")
_RE_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_RE_USED = re.compile(r"Used (\d+) registers")
_RE_BARRIERS = re.compile(r"used (\d+) barriers")
_RE_SMEM = re.compile(r"(\d+) bytes smem")
_RE_CMEM = re.compile(r"(\d+) bytes cmem\[(\d+)\]")
_RE_TARGET = re.compile(r"^\s*\.target\s+([\w]+)", re.M)


def ptxas_version(ptxas=PTXAS):
    """The 'Cuda compilation tools, release ...' line of `ptxas --version`."""
    out = subprocess.run([ptxas, "--version"], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("Cuda compilation tools"):
            return line.strip()
    return out.strip().splitlines()[-1]


def ptx_target(text):
    """The first operand of the PTX .target directive (e.g. 'sm_80')."""
    m = _RE_TARGET.search(text)
    if not m:
        raise ValueError("no .target directive")
    return m.group(1)


def parse_ptxas_report(report):
    """Parse `ptxas -v` stderr into (entries in compile order, {name: record})."""
    order, kernels = [], {}
    current = None       # entry whose 'Used N registers' line comes next
    props_for = None     # function named by the last 'Function properties for'
    for line in report.splitlines():
        m = _RE_COMPILING.search(line)
        if m:
            current = m.group(1)
            order.append(current)
            kernels[current] = {"registers": 0, "stack": 0, "spill_stores": 0, "spill_loads": 0,
                                "smem": 0, "barriers": 0, "cmem": {}}
            continue
        m = _RE_PROPS.search(line)
        if m:
            props_for = m.group(1)
            continue
        m = _RE_FRAME.search(line)
        if m:
            if props_for in kernels:
                rec = kernels[props_for]
                rec["stack"], rec["spill_stores"], rec["spill_loads"] = map(int, m.groups())
            props_for = None
            continue
        m = _RE_USED.search(line)
        if m and current is not None:
            rec = kernels[current]
            rec["registers"] = int(m.group(1))
            b = _RE_BARRIERS.search(line)
            rec["barriers"] = int(b.group(1)) if b else 0
            s = _RE_SMEM.search(line)
            rec["smem"] = int(s.group(1)) if s else 0   # absent means 0
            rec["cmem"] = {c[1]: int(c[0]) for c in _RE_CMEM.findall(line)}
    return order, kernels


def run_ptxas(path, target, ptxas=PTXAS, extra=()):
    """Run ptxas -v on one PTX file; returns (entries, records, seconds)."""
    import time
    t0 = time.monotonic()
    proc = subprocess.run([ptxas, "-v", *extra, "-arch=" + target, path, "-o", "/dev/null"],
                          capture_output=True, text=True)
    secs = time.monotonic() - t0
    if proc.returncode != 0:
        raise RuntimeError("ptxas failed on %s:\n%s" % (path, proc.stderr[-4000:]))
    order, kernels = parse_ptxas_report(proc.stdout + proc.stderr)
    return order, kernels, secs


_RE_HEADER = re.compile(r"^\s*(?:\.(?:visible|weak|extern)\s+)*\.(entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+)")
_RE_EXTERN_SHARED = re.compile(r"^\s*\.extern\s+\.shared\b[^;]*?([\w$]+)\s*\[", re.M)
_RE_IDENT = re.compile(r"[A-Za-z_$][\w$]*")


def function_bodies(text):
    """{name: (kind, body text)} for every PTX .entry/.func that has a body."""
    bodies = {}
    lines = text.split("\n")
    i, n = 0, len(lines)
    while i < n:
        m = _RE_HEADER.match(lines[i])
        if not m:
            i += 1
            continue
        kind, name = m.groups()
        # Find the opening brace, or a ';' that ends a prototype.
        j = i
        start = None
        while j < n:
            s = lines[j]
            if "{" in s:
                start = j
                break
            if s.rstrip().endswith(";"):
                break
            j += 1
        if start is None:
            i = j + 1
            continue
        depth, k = 0, start
        while k < n:
            depth += lines[k].count("{") - lines[k].count("}")
            if depth <= 0:
                break
            k += 1
        bodies[name] = (kind, "\n".join(lines[start:k + 1]))
        i = k + 1
    return bodies


def dynamic_shared_entries(text):
    """{entry: bool}: does the entry (or a function it calls) use an .extern .shared array?"""
    externs = set(_RE_EXTERN_SHARED.findall(text))
    bodies = function_bodies(text)
    funcs = set(bodies)
    refs = {}
    for name, (_, body) in bodies.items():
        idents = set(_RE_IDENT.findall(body))
        refs[name] = (idents & funcs - {name}, bool(idents & externs))
    result = {}
    for name, (kind, _) in bodies.items():
        if kind != "entry":
            continue
        seen, stack, uses = {name}, [name], False
        while stack and not uses:
            f = stack.pop()
            callees, direct = refs[f]
            uses = uses or direct
            for c in callees:
                if c not in seen:
                    seen.add(c)
                    stack.append(c)
        result[name] = uses
    return result


def truth_for_file(path, ptxas=PTXAS):
    """The truth.json record of one PTX file: target, entries, kernels; plus ptxas seconds."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    target = ptx_target(text)
    order, kernels, secs = run_ptxas(path, target, ptxas)
    dyn = dynamic_shared_entries(text)
    for name, rec in kernels.items():
        rec["dynamic_shared"] = dyn.get(name, False)
    return {"target": target, "entries": sorted(order), "kernels": kernels}, secs
