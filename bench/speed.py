#!/usr/bin/env python3
"""bench/speed.py BUILD_DIR: speed and memory of `ptxray report` on the largest
CCCL PTX file, against ptxas.  A benchmark, never a test (exit 0 unless it
cannot run at all).

  1. runs bench/cccl/gen.py first when build/corpus/ has no CCCL PTX or truth;
  2. times `BUILD_DIR/ptxray report -j 1 --format json FILE` and the same
     at -j N (N = the CPUs online, at least 2) five times each (best wall
     time, its CPU time; peak resident set size of the child from
     os.wait4), and checks that both write the same bytes;
  3. times `ptxas -O3 -arch=TARGET FILE -o /dev/null` once; the result is
     cached in build/corpus/ptxas_time.json (keyed by the file's size and
     mtime) because ptxas takes minutes on this input;
  4. prints file size, the load average before the runs (a loaded machine
     makes the wall times longer: compare CPU time with wall time), ptxray
     seconds and MB/s per -j, peak RSS and its ratio to the file size, ptxas
     seconds and the speed ratios (goals: >= 50x, issue 2; >= 100x, issue
     9), and the agreement of the report with build/corpus/truth.json:
     kernel names, and shared_static_bytes against ptxas smem for kernels
     without dynamic shared memory.
Standard library only.
"""

import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "build", "corpus")
TRUTH = os.path.join(CORPUS, "truth.json")
PTXAS_TIME = os.path.join(CORPUS, "ptxas_time.json")
PTXAS = "/usr/local/cuda/bin/ptxas"
GOAL = 50.0      # issue 2
GOAL_PAR = 100.0  # issue 9 (any -j)
RUNS = 5


def timed_run(argv, stdout, cpu=None):
    """Run argv with stdout to a file; returns (seconds, exit status, peak RSS
    bytes); appends the child's user + system CPU seconds to cpu if given."""
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    secs = time.monotonic() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if cpu is not None:
        cpu.append(usage.ru_utime + usage.ru_stime)
    return secs, proc.returncode, usage.ru_maxrss * 1024  # Linux: ru_maxrss in KiB


def stamp(path):
    st = os.stat(path)
    return "%d:%d" % (st.st_size, int(st.st_mtime))


def ptxas_seconds(path, target):
    try:
        with open(PTXAS_TIME) as f:
            cache = json.load(f)
    except (OSError, ValueError):
        cache = {}
    key = os.path.relpath(path, ROOT)
    ent = cache.get(key)
    if ent and ent.get("stamp") == stamp(path):
        return ent["seconds"], True
    print("running ptxas -O3 -arch=%s on %s once (slow; cached afterwards)..." % (target, key), flush=True)
    secs, rc, _ = timed_run([PTXAS, "-O3", "-arch=" + target, path, "-o", "/dev/null"], subprocess.DEVNULL)
    if rc != 0:
        raise SystemExit("ptxas failed on %s" % key)
    cache[key] = {"stamp": stamp(path), "seconds": round(secs, 3), "target": target}
    with open(PTXAS_TIME, "w") as f:
        json.dump(cache, f, indent=1, sort_keys=True)
        f.write("\n")
    return secs, False


def main(argv):
    if len(argv) != 1:
        print("usage: bench/speed.py BUILD_DIR", file=sys.stderr)
        return 2
    ptxray = os.path.abspath(os.path.join(argv[0], "ptxray"))
    files = glob.glob(os.path.join(CORPUS, "cccl_*.ptx"))
    if not files or not os.path.exists(TRUTH):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "cccl", "gen.py")], check=True)
        files = glob.glob(os.path.join(CORPUS, "cccl_*.ptx"))
    path = max(files, key=os.path.getsize)
    key = os.path.relpath(path, ROOT)
    with open(TRUTH) as f:
        truth = json.load(f)["files"].get(key)
    target = truth["target"] if truth else "sm_90"
    size = os.path.getsize(path)
    mb = size / 1e6

    ncpu = os.cpu_count() or 1
    jobs = [1, max(2, ncpu)]
    load = os.getloadavg()
    results, digests = {}, {}
    # Every run before this process reads any output: on Linux a child's
    # ru_maxrss starts from its parent's resident size at fork, so a parent
    # holding the 36 MB of JSON would inflate the children's peak.
    outs = {j: tempfile.TemporaryFile("w+b") for j in jobs}
    for j in jobs:
        best, best_cpu, rss = None, None, 0
        for _ in range(RUNS):
            outs[j].seek(0)
            outs[j].truncate()
            cpu = []
            secs, rc, peak = timed_run([ptxray, "report", "-j", str(j), "--format", "json", key], outs[j], cpu)
            if rc != 0:
                print("ptxray exited with status %d on %s" % (rc, key))
                return 1
            if best is None or secs < best:
                best, best_cpu = secs, cpu[0]
            rss = max(rss, peak)
        results[j] = (best, best_cpu, rss)
    for j in jobs:
        h = hashlib.sha256()
        outs[j].seek(0)
        for block in iter(lambda: outs[j].read(1 << 20), b""):
            h.update(block)
        digests[j] = h.digest()
    outs[1].seek(0)
    out_doc = None
    try:
        out_doc = json.load(outs[1])
    except ValueError as e:
        print("ptxray wrote invalid JSON: %s" % e)
    for f in outs.values():
        f.close()
    pt, cached = ptxas_seconds(path, target)

    print("file            %s (%.1f MB, %s)" % (key, mb, target))
    print("machine         %d CPUs online, load average %.2f %.2f %.2f before the runs%s" % (
        ncpu, load[0], load[1], load[2], " (LOADED: wall times are pessimistic)" if load[0] > 0.5 * ncpu else ""))
    for j in jobs:
        best, cpu, rss = results[j]
        print("ptxray -j %-5d %.3f s best of %d (CPU %.3f s)   %.1f MB/s   peak RSS %.1f MB (%.2fx the file)" % (
            j, best, RUNS, cpu, mb / best, rss / 1e6, rss / size))
    print("output          -j %d %s -j 1" % (jobs[1], "identical to" if digests[jobs[1]] == digests[1] else "DIFFERS from"))
    print("ptxas -O3       %.1f s%s" % (pt, " (cached)" if cached else ""))
    r1 = pt / results[1][0]
    rn = pt / results[jobs[1]][0]
    print("speed ratio     -j 1 %.1fx (goal >= %.0fx: %s); -j %d %.1fx (goal >= %.0fx: %s)" % (
        r1, GOAL, "met" if r1 >= GOAL else "NOT met", jobs[1], rn, GOAL_PAR,
        "met" if max(r1, rn) >= GOAL_PAR else "NOT met"))

    if truth and out_doc:
        kernels = {k["name"]: k for k in out_doc["files"][0]["kernels"]}
        tk = truth["kernels"]
        common = set(kernels) & set(tk)
        print("kernels         ptxray %d, ptxas %d, in both %d (%s)" % (
            len(kernels), len(tk), len(common), "agree" if set(kernels) == set(tk) else "DIFFER"))
        static = [n for n in common if not tk[n]["dynamic_shared"]]
        agree = sum(1 for n in static if kernels[n].get("shared_static_bytes") == tk[n]["smem"])
        print("shared static   %d/%d kernels agree with ptxas smem" % (agree, len(static)))
        bad = sorted(n for n in static if kernels[n].get("shared_static_bytes") != tk[n]["smem"])
        for n in bad[:5]:
            print("  differs: %s ptxas %d ptxray %s" % (n[:100], tk[n]["smem"], kernels[n].get("shared_static_bytes")))

    # the front end alone, and the pass pipeline, through the library
    pb = os.path.join(os.path.dirname(ptxray), "parse_bench")
    if os.path.isfile(pb):
        sys.stdout.flush()
        subprocess.run([pb, path, "3"], stdin=subprocess.DEVNULL)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
