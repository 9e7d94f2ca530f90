#!/usr/bin/env python3
"""tests/check_compat.py: ptxray compat against ptxas 13.0, feature by feature.

Usage:
  python3 tests/check_compat.py BUILD_DIR              the checker (ninja test)
  python3 tests/check_compat.py BUILD_DIR --truth [--all] [-j N]  regenerate the truth
  python3 tests/check_compat.py BUILD_DIR --probes DIR    only write the probes

The probe generator: for every entry of the feature table (read from
`BUILD_DIR/ptxray compat --list-features --format json`, so the YAML is parsed
by the same loader as everywhere else) it writes one minimal kernel that uses
exactly that feature: its `probe` body, `decl` module declarations, `kdir`
kernel directives and `topt` .target options, around a fixed frame of
registers (%h b16, %r b32, %rd b64, %f f32, %fd f64, %p pred) and a shared
array `smem`.

--truth runs ptxas (PTXAS, default /usr/local/cuda/bin/ptxas) on every probe
for every target ptxas 13.0 compiles for, at the newest PTX ISA version, and
for each target that accepts it finds the least version that does; it writes
tests/compat/ptxas_truth.json (with each probe's text hash, ptxas's version
line and its first error message per rejection); a probe that no target
accepts at the newest version (removed features) is also run at each
target's own first version. Entries whose probe text is unchanged keep their
record unless --all is given. Slow with --all (about 20k ptxas runs, 3.5
minutes on 2 cores; -j sets the parallelism).

The checker (no ptxas needed) compares ptxray with the committed truth:
 - per (entry, target) pair: `compat --any-version` says "runs" exactly when
   ptxas accepted; a "runs" verdict where ptxas rejected is a failure on its
   own (no false "runs"), the overall agreement must be >= 99.5%;
 - per entry: at the first target ptxas accepts it on, the probe written at
   the least version ptxas accepted runs and the one at the version before
   does not (the minimum PTX version is exact) for >= 98% of the entries;
 - every entry has a truth record for its current probe text (else: stale,
   rerun --truth), and ptxas accepts every probe on some target (else the
   probe is broken, not the table).
Prints the agreement numbers and `N passed, N failed`. Standard library only.
"""

import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRUTH = os.path.join(ROOT, 'tests', 'compat', 'ptxas_truth.json')
PTXAS = os.environ.get('PTXAS', '/usr/local/cuda/bin/ptxas')

FRAME_REGS = ('.reg .b16 %h<16>; .reg .b32 %r<64>; .reg .b64 %rd<32>; .reg .f32 %f<32>;\n'
              '.reg .f64 %fd<16>; .reg .pred %p<8>;\n'
              '.shared .align 128 .b8 smem[8192];\n')


def probe_text(e, target, version):
    """The probe kernel of entry e for .target target at .version version."""
    topt = (', ' + e['topt']) if e.get('topt') else ''
    lines = ['.version %s' % version, '.target %s%s' % (target, topt), '.address_size 64', '']
    if e.get('decl'):
        lines.append(e['decl'])
    lines.append('.visible .entry probe(.param .u64 probe_param_0)%s' %
                 ((' ' + e['kdir']) if e.get('kdir') else ''))
    lines.append('{')
    lines.append(FRAME_REGS + 'ld.param.u64 %rd0, [probe_param_0];')
    if e.get('probe'):
        lines.append(e['probe'])
    lines.append('ret;')
    lines.append('}')
    return '\n'.join(lines) + '\n'


def probe_hash(e):
    return hashlib.sha256(probe_text(e, 'TARGET', 'VERSION').encode()).hexdigest()[:16]


def load_table(build):
    p = subprocess.run([os.path.join(build, 'ptxray'), 'compat', '--list-features', '--format',
                        'json'], capture_output=True, text=True, cwd=ROOT)
    if p.returncode != 0:
        raise SystemExit('ptxray compat --list-features failed: %s' % p.stderr)
    return json.loads(p.stdout)


def fname(e):
    safe = ''.join(c if c.isalnum() or c in '._-' else '_' for c in e['id'])
    return '%s.%s' % (safe, hashlib.sha256(e['id'].encode()).hexdigest()[:6])


# ---- truth ----

def ptxas_accepts(text, target, tmp):
    fd, path = tempfile.mkstemp(suffix='.ptx', dir=tmp)
    with os.fdopen(fd, 'w') as f:
        f.write(text)
    p = subprocess.run([PTXAS, '-arch=' + target, path, '-o', os.devnull],
                       capture_output=True, text=True)
    os.unlink(path)
    msg = ''
    for line in (p.stderr or '').splitlines():
        if 'error' in line or 'fatal' in line:
            msg = line.split(';', 1)[-1].strip() if ';' in line else line.strip()
            break
    return p.returncode == 0, msg


def truth_for(e, targets, versions, tmp):
    newest = versions[-1]
    rec = {'probe_hash': probe_hash(e), 'accept': {}, 'min_version': {}, 'why': {}}
    for t in targets:
        ok, msg = ptxas_accepts(probe_text(e, t['name'], newest), t['name'], tmp)
        rec['accept'][t['name']] = ok
        if not ok:
            rec['why'].setdefault(msg[:160], []).append(t['name'])
            continue
        for v in versions:
            if float(v) < float(t['ptx']):
                continue
            if v == newest:
                rec['min_version'][t['name']] = v
                break
            ok, _ = ptxas_accepts(probe_text(e, t['name'], v), t['name'], tmp)
            if ok:
                rec['min_version'][t['name']] = v
                break
    if not any(rec['accept'].values()):
        # gone at the newest version (vote, shfl without .sync): each target
        # at the version that introduced it
        rec['accept_intro'] = {}
        for t in targets:
            ok, msg = ptxas_accepts(probe_text(e, t['name'], t['ptx']), t['name'], tmp)
            rec['accept_intro'][t['name']] = ok
    return e['id'], rec


def make_truth(build, jobs, redo_all):
    tab = load_table(build)
    targets = [t for t in tab['targets'] if t['ptxas']]
    versions = [v['ptx'] for v in tab['versions']]
    ver = subprocess.run([PTXAS, '--version'], capture_output=True, text=True).stdout
    out = {'ptxas': ver.strip().splitlines()[-1] if ver.strip() else '?',
           'command': 'python3 tests/check_compat.py build --truth', 'entries': {}}
    old = {}
    if os.path.isfile(TRUTH) and not redo_all:
        with open(TRUTH) as f:
            old = json.load(f)['entries']
    todo = []
    for e in tab['features']:
        rec = old.get(e['id'])
        if rec and rec['probe_hash'] == probe_hash(e) and (
                any(rec['accept'].values()) or 'accept_intro' in rec):
            out['entries'][e['id']] = rec
        else:
            todo.append(e)
    print('%d entries to run ptxas for (%d kept)' % (len(todo), len(out['entries'])),
          file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        futs = [ex.submit(truth_for, e, targets, versions, tmp) for e in todo]
        for i, fu in enumerate(concurrent.futures.as_completed(futs)):
            k, rec = fu.result()
            out['entries'][k] = rec
            if (i + 1) % 50 == 0:
                print('%d/%d entries' % (i + 1, len(futs)), file=sys.stderr)
    out['entries'] = dict(sorted(out['entries'].items()))
    os.makedirs(os.path.dirname(TRUTH), exist_ok=True)
    with open(TRUTH, 'w') as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write('\n')
    print('wrote %s (%d entries)' % (os.path.relpath(TRUTH, ROOT), len(out['entries'])))
    return 0


# ---- the checker ----

def prev_version(versions, v):
    i = versions.index(v)
    return versions[i - 1] if i > 0 else None


def run_compat(build, files, arch, any_version):
    """{path: {target: ok}} for the first kernel of each file."""
    res = {}
    for i in range(0, len(files), 400):
        chunk = files[i:i + 400]
        cmd = [os.path.join(build, 'ptxray'), 'compat', '--format', 'json', '--arch', arch]
        if any_version:
            cmd.append('--any-version')
        p = subprocess.run(cmd + chunk, capture_output=True, text=True)
        if p.returncode not in (0, 1):
            raise SystemExit('ptxray compat failed (%d): %s' % (p.returncode, p.stderr[:2000]))
        for f in json.loads(p.stdout)['files']:
            k = f['kernels'][0]
            res[f['path']] = {t: v['ok'] for t, v in k['targets'].items()}
            res[f['path']]['_detail'] = k['targets']
    return res


def check(build):
    tab = load_table(build)
    targets = [t['name'] for t in tab['targets'] if t['ptxas']]
    versions = [v['ptx'] for v in tab['versions']]
    newest = versions[-1]
    if not os.path.isfile(TRUTH):
        print('no truth file %s: run --truth' % TRUTH)
        print('0 passed, 1 failed')
        return 1
    with open(TRUTH) as f:
        truth = json.load(f)['entries']
    passed = failed = 0
    stale, broken = [], []
    pairs = agree = 0
    false_runs, false_rejects = [], []
    vexact = vtotal = 0
    vmiss = []
    with tempfile.TemporaryDirectory() as tmp:
        newest_files, vfiles, intro_files = {}, [], {}
        for e in tab['features']:
            rec = truth.get(e['id'])
            if not rec or rec['probe_hash'] != probe_hash(e):
                stale.append(e['id'])
                continue
            if not any(rec['accept'].values()):
                intro = rec.get('accept_intro', {})
                if not any(intro.values()) and any(
                        v for t, v in e['on'].items() if t in targets):
                    broken.append(e['id'])   # ptxray thinks it runs somewhere
                for t in targets:
                    tv = next(x['ptx'] for x in tab['targets'] if x['name'] == t)
                    path = os.path.join(tmp, '%s.%s.intro.ptx' % (fname(e), t))
                    with open(path, 'w') as f:
                        f.write(probe_text(e, t, tv))
                    intro_files[(e['id'], t)] = path
                continue
            # one file per target at the newest version (the .target line is the target)
            for t in targets:
                path = os.path.join(tmp, '%s.%s.ptx' % (fname(e), t))
                with open(path, 'w') as f:
                    f.write(probe_text(e, t, newest))
                newest_files[(e['id'], t)] = path
            t0 = next(t for t in targets if rec['accept'][t])
            vmin = rec['min_version'][t0]
            vp = prev_version(versions, vmin)
            a = os.path.join(tmp, '%s.%s.min.ptx' % (fname(e), t0))
            with open(a, 'w') as f:
                f.write(probe_text(e, t0, vmin))
            b = None
            if vp:
                b = os.path.join(tmp, '%s.%s.prev.ptx' % (fname(e), t0))
                with open(b, 'w') as f:
                    f.write(probe_text(e, t0, vp))
            vfiles.append((e['id'], t0, vmin, vp, a, b))
        res = {}
        by_target = {}
        for (eid, t), path in newest_files.items():
            by_target.setdefault(t, []).append(path)
        for t, files in sorted(by_target.items()):
            res.update(run_compat(build, files, t, True))
        for (eid, t), path in sorted(newest_files.items()):
            got = res[path][t]
            want = truth[eid]['accept'][t]
            pairs += 1
            if got == want:
                agree += 1
            elif got:
                false_runs.append((eid, t))
            else:
                false_rejects.append((eid, t, res[path]['_detail'][t].get('message', '')))
        by_target = {}
        for (eid, t), path in intro_files.items():
            by_target.setdefault(t, []).append(path)
        ires = {}
        for t, files in sorted(by_target.items()):
            ires.update(run_compat(build, files, t, False))
        for (eid, t), path in sorted(intro_files.items()):
            got = ires[path][t]
            want = truth[eid].get('accept_intro', {}).get(t, False)
            pairs += 1
            if got == want:
                agree += 1
            elif got:
                false_runs.append((eid, t + '@intro'))
            else:
                false_rejects.append((eid, t + '@intro', ires[path]['_detail'][t].get('message', '')))
        vt_files = {}
        for eid, t0, vmin, vp, a, b in vfiles:
            vt_files.setdefault(t0, []).extend([x for x in (a, b) if x])
        vres = {}
        for t, files in sorted(vt_files.items()):
            vres.update(run_compat(build, files, t, False))
        for eid, t0, vmin, vp, a, b in vfiles:
            vtotal += 1
            ok_min = vres[a][t0]
            ok_prev = vres[b][t0] if b else False
            if ok_min and not ok_prev:
                vexact += 1
            else:
                vmiss.append((eid, t0, vmin, ok_min, ok_prev))
                if ok_prev:   # says "runs" at a version ptxas rejects
                    false_runs.append((eid, '%s@%s' % (t0, vp)))
    n = len(tab['features'])
    rate = agree / pairs if pairs else 0.0
    vrate = vexact / vtotal if vtotal else 0.0
    print('feature table: %d entries, %d targets checked against ptxas (%s)' %
          (n, len(targets), ', '.join(targets)))
    print('(entry, target) pairs: %d/%d agree (%.2f%%); false "runs": %d; false "no": %d' %
          (agree, pairs, 100 * rate, len(false_runs), len(false_rejects)))
    print('minimum PTX version exact: %d/%d entries (%.2f%%)' % (vexact, vtotal, 100 * vrate))
    for eid, t in false_runs[:30]:
        print('  FALSE RUNS: %s on %s (ptxas rejects)' % (eid, t))
    for eid, t, msg in false_rejects[:30]:
        print('  false no: %s on %s: %s' % (eid, t, msg))
    for eid, t0, vmin, ok_min, ok_prev in vmiss[:30]:
        print('  version: %s on %s: ptxas from %s; ptxray %s at it, %s before' %
              (eid, t0, vmin, 'runs' if ok_min else 'no', 'runs' if ok_prev else 'no'))
    for name, bad, what in (('stale or missing truth (rerun --truth)', stale, 'stale'),
                            ('probe rejected by ptxas everywhere although the table '
                             'allows it', broken, 'broken')):
        if bad:
            print('%s: %s' % (name, ', '.join(bad[:20])))
        passed, failed = (passed, failed + 1) if bad else (passed + 1, failed)
    passed, failed = (passed + 1, failed) if not false_runs else (passed, failed + 1)
    passed, failed = (passed + 1, failed) if rate >= 0.995 else (passed, failed + 1)
    passed, failed = (passed + 1, failed) if vrate >= 0.98 else (passed, failed + 1)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    build = os.path.abspath(argv[0])
    if '--truth' in argv:
        jobs = os.cpu_count() or 2
        if '-j' in argv:
            jobs = int(argv[argv.index('-j') + 1])
        return make_truth(build, jobs, '--all' in argv)
    if '--probes' in argv:
        out = argv[argv.index('--probes') + 1]
        os.makedirs(out, exist_ok=True)
        tab = load_table(build)
        for e in tab['features']:
            with open(os.path.join(out, fname(e) + '.ptx'), 'w') as f:
                f.write(probe_text(e, 'sm_90a', tab['versions'][-1]['ptx']))
        return 0
    return check(build)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
