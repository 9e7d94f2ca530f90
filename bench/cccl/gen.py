#!/usr/bin/env python3
"""bench/cccl/gen.py: generate the large CCCL PTX corpus and its ptxas truth.

  python3 bench/cccl/gen.py [--force]

Compiles the translation units of bench/cccl/ (which instantiate many CUB
device algorithms: reduce, segmented reduce, scan, radix sort, segmented radix
sort, merge sort, select, partition, run-length encode, histogram, for several
key/value types) with
    nvcc -ptx -arch=sm_XX -diag-suppress 186 NAME.cu -o build/corpus/NAME.ptx
(cccl_big.cu and cccl_sort.cu for sm_90, cccl_sm80.cu for sm_80), then runs
`ptxas -v -arch=TARGET FILE -o /dev/null` on each output and writes
build/corpus/truth.json in the format of tests/fixtures/ptxas/truth.json.

Everything is cached: a PTX file is rebuilt only when it is older than its
.cu or cccl_common.cuh, and ptxas runs again only for PTX files whose size or
mtime changed since the truth was written.  The seconds nvcc and ptxas took
are recorded in build/corpus/timings.json and printed.  Two jobs at a time.
Standard library only.
"""

import concurrent.futures
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "build", "corpus")
sys.path.insert(0, os.path.join(ROOT, "tests", "corpus"))
import ptxtruth  # noqa: E402

NVCC = "/usr/local/cuda/bin/nvcc"
UNITS = [("cccl_big.cu", "sm_90"), ("cccl_sort.cu", "sm_90"), ("cccl_sm80.cu", "sm_80")]
COMMON = os.path.join(HERE, "cccl_common.cuh")
TRUTH = os.path.join(OUT, "truth.json")
TIMINGS = os.path.join(OUT, "timings.json")
JOBS = 2


def rel(p):
    return os.path.relpath(p, ROOT)


def load_json(path, default):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def save_json(path, doc):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def compile_unit(src, target, force):
    out = os.path.join(OUT, src[:-3] + ".ptx")
    deps = [os.path.join(HERE, src), COMMON]
    if not force and os.path.exists(out) and os.path.getmtime(out) >= max(map(os.path.getmtime, deps)):
        return out, None
    t0 = time.monotonic()
    subprocess.run([NVCC, "-ptx", "-arch=" + target, "-diag-suppress", "186", src, "-o", out + ".tmp"],
                   cwd=HERE, check=True)
    os.replace(out + ".tmp", out)
    return out, time.monotonic() - t0


def stamp(path):
    st = os.stat(path)
    return "%d:%d" % (st.st_size, int(st.st_mtime))


def main(argv):
    force = "--force" in argv
    os.makedirs(OUT, exist_ok=True)
    timings = load_json(TIMINGS, {})
    with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
        outs = list(pool.map(lambda u: compile_unit(u[0], u[1], force), UNITS))
    for out, secs in outs:
        if secs is not None:
            timings.setdefault(rel(out), {})["nvcc_seconds"] = round(secs, 2)

    truth = load_json(TRUTH, {"files": {}})
    stamps = truth.get("stamps", {})
    todo = [out for out, _ in outs if force or stamps.get(rel(out)) != stamp(out) or rel(out) not in truth["files"]]

    def run(out):
        rec, secs = ptxtruth.truth_for_file(out)
        return out, rec, secs

    with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
        for out, rec, secs in pool.map(run, todo):
            truth["files"][rel(out)] = rec
            stamps[rel(out)] = stamp(out)
            timings.setdefault(rel(out), {})["ptxas_v_seconds"] = round(secs, 2)
    wanted = {rel(out) for out, _ in outs}
    truth["files"] = {k: v for k, v in truth["files"].items() if k in wanted}
    truth["stamps"] = {k: v for k, v in stamps.items() if k in wanted}
    truth["ptxas"] = ptxtruth.ptxas_version()
    save_json(TRUTH, truth)
    save_json(TIMINGS, timings)

    total = 0
    for out, _ in outs:
        r = rel(out)
        size = os.path.getsize(out)
        total += size
        t = timings.get(r, {})
        print("%-28s %6.1f MB  %4d kernels  nvcc %s s  ptxas -v %s s" % (
            r, size / 1e6, len(truth["files"][r]["kernels"]), t.get("nvcc_seconds", "?"),
            t.get("ptxas_v_seconds", "?")))
    print("total %.1f MB of PTX; truth in %s" % (total / 1e6, rel(TRUTH)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
