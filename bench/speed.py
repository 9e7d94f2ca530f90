#!/usr/bin/env python3
"""bench/speed.py BUILD_DIR: speed and memory of `ptxray report` on the largest
CCCL PTX file, against ptxas.  A benchmark, never a test (exit 0 unless it
cannot run at all).

  1. runs bench/cccl/gen.py first when build/corpus/ has no CCCL PTX or truth;
  2. times `BUILD_DIR/ptxray report --format json FILE` three times (best
     wall time; peak resident set size of the child from os.wait4);
  3. times `ptxas -O3 -arch=TARGET FILE -o /dev/null` once; the result is
     cached in build/corpus/ptxas_time.json (keyed by the file's size and
     mtime) because ptxas takes minutes on this input;
  4. prints file size, ptxray seconds and MB/s, peak RSS and its ratio to
     the file size, ptxas seconds and the speed ratio (goal: >= 50x), and the
     agreement of the report with build/corpus/truth.json: kernel names, and
     shared_static_bytes against ptxas smem for kernels without dynamic
     shared memory.
Standard library only.
"""

import glob
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
GOAL = 50.0


def timed_run(argv, stdout):
    """Run argv with stdout to a file; returns (seconds, exit status, peak RSS bytes)."""
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    secs = time.monotonic() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
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

    best, rss, out_doc = None, 0, None
    with tempfile.TemporaryFile("w+") as out:
        for _ in range(3):
            out.seek(0)
            out.truncate()
            secs, rc, peak = timed_run([ptxray, "report", "--format", "json", key], out)
            if rc != 0:
                print("ptxray exited with status %d on %s" % (rc, key))
                return 1
            best = secs if best is None else min(best, secs)
            rss = max(rss, peak)
        out.seek(0)
        try:
            out_doc = json.load(out)
        except ValueError as e:
            print("ptxray wrote invalid JSON: %s" % e)
    pt, cached = ptxas_seconds(path, target)

    print("file            %s (%.1f MB, %s)" % (key, mb, target))
    print("ptxray report   %.3f s best of 3   %.1f MB/s" % (best, mb / best))
    print("peak RSS        %.1f MB   (%.2fx the file size)" % (rss / 1e6, rss / size))
    print("ptxas -O3       %.1f s%s" % (pt, " (cached)" if cached else ""))
    ratio = pt / best
    print("speed ratio     %.1fx   (goal >= %.0fx: %s)" % (ratio, GOAL, "met" if ratio >= GOAL else "NOT met"))

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
