#!/usr/bin/env python3
"""fuzz/run.py: seed corpora from the project's fixtures, then a libFuzzer
run of each target (built by `ninja fuzz` into build/fuzz/).

    python3 fuzz/run.py [--seconds N] [--jobs J] [TARGET...]

Seeds go to build/fuzz/seeds/TARGET (rebuilt each run); what a run finds
goes to build/fuzz/corpus/TARGET (kept between runs). Every committed
crashing input (tests/fixtures/fuzz/TARGET-without-fuzz_/*) is replayed
first. Exit 1 when a target crashes, leaks or times out (libFuzzer's
artifact is left in build/fuzz/artifacts/), 0 otherwise. .ci/run calls it
with a few seconds per target when clang with libFuzzer is available."""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_SEED = 256 * 1024


def files(*patterns):
    out = []
    for p in patterns:
        out += glob.glob(os.path.join(ROOT, p), recursive=True)
    return sorted(f for f in set(out)
                  if os.path.isfile(f) and '/build/' not in f and os.path.getsize(f) <= MAX_SEED)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


PTX = ('examples/**/*.ptx', 'tests/**/*.ptx')
BATCH_LINES = [
    b'{"arch":"sm_90","threads":256,"registers":32}',
    b'{"arch":"sm_80","threads":1024,"registers":64,"shared":49152,"dynamic_shared":"8K",'
    b'"carveout":50,"optin":true,"barriers":2}',
    b'{"arch": "sm_75", "threads": 33, "shared": "48KiB"}',
    b'{"threads":128,"arch":"sm_120","carveout":-1,"optin":false}',
    b'{"arch":"sm_90","threads":0}',
    b'{"arch":"sm_50","threads":64,"registers":255,"shared":"1M"}',
    b'  {"arch":"sm_86","threads":96}  \r',
]

# annotation comments covering the grammar of analyzer/cuda/cuda_annot.c
# (fuzz_annot's even shape: one comment per line, '*' block, '=' trailing)
ANNOT_LINES = [
    b' ptxray: launch block=(32,8) grid=(64,64) smem=4KiB',
    b' ptxray: launch block=256',
    b'* ptxray: launch block=(16,16,1) smem=48K ',
    b' ptxray: hot',
    b' ptxray: assume n % 32 == 0',
    b' ptxray: assume blockDim.x == 256',
    b' ptxray: assume gridDim.y >= 2',
    b'= ptxray-ignore: shared-bank-conflict \xe2\x80\x94 the tile is read once',
    b' ptxray-ignore: uncoalesced-global,divergent-barrier -- measured',
    b' ptxray-ignore-file: legacy-warp-intrinsic: old code',
    b' ptxray-ignore: all - generated',
    b' ptxray-hot: typo',
    b' ptxray: launch blok=3',
]


def seeds(target):
    """The seed inputs of a target, as (name, bytes)."""
    if target in ('fuzz_report', 'fuzz_simt'):
        out = []
        for i, f in enumerate(files(*PTX)):
            out.append(('%d' % i, bytes([(i * 37) & 0x7f]) + read(f)))
        return out
    if target == 'fuzz_annot':
        # whole .cu fixtures (odd first byte: the payload is the file) and
        # their annotation comments, one set per file (even: comments
        # between the lines of fuzz_annot.c's kernel)
        out = [('line%d' % i, b'\x00' + l) for i, l in enumerate(ANNOT_LINES)]
        out.append(('all', b'\x00' + b'\n'.join(ANNOT_LINES)))
        for f in files('examples/**/*.cu', 'tests/**/*.cu', 'tests/**/*.cuh', 'tests/**/*.ptx'):
            data = read(f)
            name = os.path.relpath(f, ROOT).replace('/', '_')
            if f.endswith(('.cu', '.cuh')):
                out.append((name, b'\x01' + data))
            notes = [m.group(1) for m in re.finditer(rb'//(\s*ptxray[-:][^\n]*)', data)]
            if notes:
                out.append((name + '.annot', b'\x00' + b'\n'.join(notes)))
        return out
    if target == 'fuzz_batch':
        out = [('line%d' % i, l + b'\n') for i, l in enumerate(BATCH_LINES)]
        out.append(('all', b'\n'.join(BATCH_LINES) + b'\n'))
        return out
    pats = {
        'fuzz_ptx': PTX,
        'fuzz_ptxas': ('tests/fixtures/ptxas/**/*', 'tests/fixtures/fuzz/ptxas/*'),
        'fuzz_arch': ('arch/*.yaml',),
        'fuzz_ftable': ('arch/ptx-features.yaml',),
        'fuzz_config': ('tests/golden/rules/**/*.yaml', 'tests/golden/rules/**/.ptxray.yaml',
                        'tests/fixtures/fuzz/config/*'),
        'fuzz_cuda': ('examples/**/*.cu', 'tests/**/*.cu', 'tests/**/*.cuh'),
    }.get(target, ())
    return [(os.path.relpath(f, ROOT).replace('/', '_'), read(f)) for f in files(*pats)]


def main():
    args = sys.argv[1:]
    seconds, jobs = 10, 1
    while args and args[0].startswith('--'):
        if args[0] == '--seconds':
            seconds = int(args[1])
        elif args[0] == '--jobs':
            jobs = int(args[1])
        else:
            sys.exit('usage: fuzz/run.py [--seconds N] [--jobs J] [TARGET...]')
        args = args[2:]
    fuzzdir = os.path.join(ROOT, 'build', 'fuzz')
    targets = args or sorted(os.path.basename(p) for p in glob.glob(os.path.join(fuzzdir, 'fuzz_*'))
                             if os.access(p, os.X_OK))
    if not targets:
        sys.exit('fuzz/run.py: no fuzz targets in build/fuzz (run `ninja fuzz`)')
    failed = []
    for t in targets:
        exe = os.path.join(fuzzdir, t)
        seeddir = os.path.join(fuzzdir, 'seeds', t)
        corpus = os.path.join(fuzzdir, 'corpus', t)
        arts = os.path.join(fuzzdir, 'artifacts', t) + '/'
        for d in (seeddir, corpus, arts):
            os.makedirs(d, exist_ok=True)
        for f in os.listdir(seeddir):
            os.unlink(os.path.join(seeddir, f))
        ss = seeds(t)
        for name, data in ss:
            with open(os.path.join(seeddir, name), 'wb') as f:
                f.write(data)
        env = dict(os.environ, ASAN_OPTIONS='detect_leaks=1', UBSAN_OPTIONS='halt_on_error=1:print_stacktrace=1')
        crashes = files('tests/fixtures/fuzz/%s/*' % t[len('fuzz_'):])
        if crashes:  # the committed crashing inputs must stay fixed
            p = subprocess.run([exe] + crashes, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, errors='replace')
            if p.returncode != 0:
                sys.stderr.write(p.stderr[-4000:])
                failed.append(t + ' (regression input)')
                continue
        cmd = [exe, '-max_total_time=%d' % seconds, '-timeout=10', '-rss_limit_mb=2048',
               '-max_len=65536', '-artifact_prefix=' + arts, '-print_final_stats=1']
        if jobs > 1:
            cmd += ['-jobs=%d' % jobs, '-workers=%d' % jobs]
        cmd += [corpus, seeddir]
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors='replace', cwd=fuzzdir)
        runs = [l for l in p.stdout.splitlines() if l.startswith('stat::number_of_executed_units')]
        execs = sum(int(l.split(':')[-1]) for l in runs)
        print('%-12s %d seeds, %d s: %s executions, exit %d' % (t, len(ss), seconds, execs, p.returncode))
        if p.returncode != 0:
            sys.stderr.write(p.stdout[-6000:])
            failed.append(t)
    if failed:
        print('fuzz/run.py: FAILED: ' + ', '.join(failed))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
