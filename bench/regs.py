#!/usr/bin/env python3
"""bench/regs.py BUILD_DIR: error of ptxray's register estimate against ptxas.
A benchmark, never a test (exit 0 unless it cannot run at all).

For every PTX file in tests/fixtures/ptxas/truth.json (the committed corpus
and examples) and, reported separately, build/corpus/truth.json (the CCCL
corpus of bench/cccl/gen.py, when present), runs
    BUILD_DIR/ptxray report --format json FILE
(two at a time) and compares registers.estimate with ptxas's "Used N
registers".  Prints, overall and per target: N, the median absolute
percentage error, the 90th percentile absolute error in registers and in
percent, and the share of kernels within +-10%; then the 10 worst kernels.
Goal: median <= 10% and >= 70% of kernels within +-10%.
Standard library only.
"""

import concurrent.futures
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETS = [("corpus+examples", os.path.join(ROOT, "tests", "fixtures", "ptxas", "truth.json")),
        ("cccl", os.path.join(ROOT, "build", "corpus", "truth.json"))]
GOAL_MEDIAN, GOAL_WITHIN = 10.0, 70.0


def short(name, width=110):
    """Long (CUB) mangled names, shortened in the middle so that they stay distinct."""
    return name if len(name) <= width else name[:width // 2 - 2] + "..." + name[-(width // 2 - 1):]


def pct(sorted_vals, q):
    """Nearest-rank percentile (q in 0..100) of a sorted non-empty list."""
    k = max(0, min(len(sorted_vals) - 1, int(round(q / 100.0 * len(sorted_vals) + 0.5)) - 1))
    return sorted_vals[k]


def run_report(ptxray, path):
    proc = subprocess.run([ptxray, "report", "--format", "json", path], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        return path, None, "exit status %d: %s" % (proc.returncode, proc.stderr.strip()[:200])
    try:
        doc = json.loads(proc.stdout)
        return path, {k["name"]: k for k in doc["files"][0]["kernels"]}, None
    except (ValueError, KeyError, IndexError) as e:
        return path, None, "bad JSON: %s" % e


def summarise(label, rows):
    """rows: (target, file, kernel, ptxas, estimate)."""
    if not rows:
        print("  %-10s N=0" % label)
        return
    ape = sorted(abs(e - p) * 100.0 / p for _, _, _, p, e in rows)
    abserr = sorted(abs(e - p) for _, _, _, p, e in rows)
    within = sum(1 for a in ape if a <= 10.0) * 100.0 / len(ape)
    median = pct(ape, 50)
    print("  %-10s N=%-5d median APE %5.1f%%   p90 |err| %3d regs / %5.1f%%   within +-10%%: %5.1f%%" % (
        label, len(rows), median, pct(abserr, 90), pct(ape, 90), within))
    return median, within


def bench_set(name, truth_path, ptxray):
    with open(truth_path) as f:
        truth = json.load(f)["files"]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        reports = list(pool.map(lambda p: run_report(ptxray, p), sorted(truth)))
    rows, missing, errors = [], 0, []
    for path, kernels, err in reports:
        if err:
            errors.append("%s: %s" % (path, err))
            continue
        for kname, t in sorted(truth[path]["kernels"].items()):
            est = (kernels.get(kname) or {}).get("registers", {}).get("estimate")
            if not isinstance(est, (int, float)) or t["registers"] <= 0:
                missing += 1
                continue
            rows.append((truth[path]["target"], path, kname, t["registers"], est))
    print("== %s (%s): %d files, %d kernels with an estimate, %d without, %d files failed" % (
        name, os.path.relpath(truth_path, ROOT), len(truth), len(rows), missing, len(errors)))
    for e in errors[:5]:
        print("  error: " + e)
    if not rows:
        return
    res = summarise("all", rows)
    for target in sorted({r[0] for r in rows}):
        summarise(target, [r for r in rows if r[0] == target])
    if res:
        median, within = res
        print("  goal: median <= %.0f%% (%s), >= %.0f%% within +-10%% (%s)" % (
            GOAL_MEDIAN, "met" if median <= GOAL_MEDIAN else "NOT met", GOAL_WITHIN,
            "met" if within >= GOAL_WITHIN else "NOT met"))
    worst = sorted(rows, key=lambda r: (-abs(r[4] - r[3]) / r[3], r[1], r[2]))[:10]
    print("  10 worst (ptxas -> estimate):")
    for target, path, kname, p, e in worst:
        print("    %4d -> %-4d %+6.0f%%  %s  %s" % (p, e, (e - p) * 100.0 / p, path, short(kname)))


def main(argv):
    if len(argv) != 1:
        print("usage: bench/regs.py BUILD_DIR", file=sys.stderr)
        return 2
    ptxray = os.path.abspath(os.path.join(argv[0], "ptxray"))
    if not os.access(ptxray, os.X_OK):
        print("%s: not built" % ptxray, file=sys.stderr)
        return 2
    for name, path in SETS:
        if os.path.exists(path):
            bench_set(name, path, ptxray)
        else:
            print("== %s: %s absent (run bench/cccl/gen.py)" % (name, os.path.relpath(path, ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
