#!/usr/bin/env python3
"""tests/corpus/gen.py: regenerate the ground-truth corpus and its ptxas truth.

  tests/corpus/gen.py            compile tests/corpus/*.cu for sm_75, sm_80,
                                 sm_86, sm_89 and sm_90 into
                                 tests/corpus/ptx/NAME.sm_XX.ptx, then write
                                 tests/fixtures/ptxas/truth.json
  tests/corpus/gen.py --truth    only rewrite truth.json from the PTX present
                                 (corpus and examples/*.ptx)

Each .cu is compiled with `nvcc -ptx -lineinfo -arch=sm_XX NAME.cu -o ...`
from inside tests/corpus/ (relative names in the .file directives, so the
output does not depend on the checkout's location).  truth.json records, per
PTX file, the target, the entries ptxas compiled, and per entry what
`ptxas -v -arch=TARGET FILE -o /dev/null` reports (registers, stack frame,
spill stores/loads, smem (0 when ptxas prints none), barriers, cmem banks)
plus dynamic_shared: whether the entry, or a function it calls, references an
`.extern .shared` array in the PTX.  Jobs run two at a time.
"""

import concurrent.futures
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import ptxtruth  # noqa: E402

NVCC = "/usr/local/cuda/bin/nvcc"
TARGETS = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90"]
SOURCES = ["elementwise.cu", "reduce_scan.cu", "gemm_stencil.cu", "fft_sort.cu", "shared_layout.cu",
           "atomics_misc.cu"]
TRUTH = os.path.join(ROOT, "tests", "fixtures", "ptxas", "truth.json")
JOBS = 2


def compile_one(src, target):
    out = os.path.join("ptx", "%s.%s.ptx" % (src[:-3], target))
    subprocess.run([NVCC, "-ptx", "-lineinfo", "-arch=" + target, src, "-o", out], cwd=HERE, check=True)
    return out


def ptx_files():
    """Repository-relative paths of every PTX file with ground truth, sorted."""
    files = []
    for d in (os.path.join("tests", "corpus", "ptx"), "examples",
              os.path.join("tests", "fixtures", "shared")):
        full = os.path.join(ROOT, d)
        if os.path.isdir(full):
            files += [os.path.join(d, f) for f in sorted(os.listdir(full)) if f.endswith(".ptx")]
    return sorted(files)


def write_truth():
    files = ptx_files()
    with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
        results = list(pool.map(lambda p: ptxtruth.truth_for_file(os.path.join(ROOT, p))[0], files))
    doc = {"ptxas": ptxtruth.ptxas_version(), "files": dict(zip(files, results))}
    os.makedirs(os.path.dirname(TRUTH), exist_ok=True)
    with open(TRUTH, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    nk = sum(len(r["kernels"]) for r in results)
    print("wrote %s: %d files, %d kernels" % (os.path.relpath(TRUTH, ROOT), len(files), nk))


def main(argv):
    if "--truth" not in argv:
        os.makedirs(os.path.join(HERE, "ptx"), exist_ok=True)
        jobs = [(s, t) for s in SOURCES for t in TARGETS]
        with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
            for out in pool.map(lambda j: compile_one(*j), jobs):
                print("nvcc ->", os.path.join("tests", "corpus", out))
    write_truth()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
