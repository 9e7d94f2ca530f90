#!/usr/bin/env python3
"""tests/compat_corpus.py BUILD_DIR: ptxray compat against ptxas 13.0 on the
repository's own PTX (tests/corpus/ptx, examples, tests/fixtures/ptx).

Slow (about 1000 ptxas runs, ~50 s on 2 cores); needs ptxas, so it is not a
`ninja test` checker. Each file is rewritten to `.target T` and `.version
9.0` for every target ptxas compiles for; ptxas's accept/reject is compared
with `ptxray compat --arch T` (every kernel runs). Prints the disagreements
and the agreement. Standard library only.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "build")
os.chdir(ROOT)
files = sorted([os.path.join(d, f) for d in ['tests/corpus/ptx', 'examples', 'tests/fixtures/ptx'] for f in os.listdir(d) if f.endswith('.ptx')])
tab = json.loads(subprocess.run([BUILD + '/ptxray','compat','--list-features','--format','json'],capture_output=True,text=True).stdout)
targets = [t['name'] for t in tab['targets'] if t['ptxas']]
tmp = tempfile.mkdtemp()
jobs = []
for f in files:
    text = open(f).read()
    if len(text) > 3_000_000: continue
    for t in targets:
        out = os.path.join(tmp, os.path.basename(f) + '.' + t + '.ptx')
        s = re.sub(r'^\s*\.target\s+sm_\w+', '.target ' + t, text, count=1, flags=re.M)
        s = re.sub(r'^\s*\.version\s+[0-9.]+', '.version 9.0', s, count=1, flags=re.M)
        open(out, 'w').write(s)
        jobs.append((f, t, out))
def px(job):
    f, t, out = job
    p = subprocess.run(['/usr/local/cuda/bin/ptxas', '-arch=' + t, out, '-o', os.devnull], capture_output=True, text=True)
    return job, p.returncode == 0, p.stderr[:200]
with concurrent.futures.ThreadPoolExecutor(4) as ex:
    truth = {j[2]: (ok, err) for j, ok, err in ex.map(px, jobs)}
agree = fr = fn = 0
for f, t, out in jobs:
    p = subprocess.run([BUILD + '/ptxray','compat','--format','json','--arch',t,out],capture_output=True,text=True)
    if p.returncode == 2:
        print('PARSE', out, p.stderr[:200]); continue
    d = json.loads(p.stdout)['files'][0]
    ok = all(k['targets'][t]['ok'] for k in d['kernels'])
    want = truth[out][0]
    if ok == want: agree += 1
    elif ok: fr += 1; print('FALSE RUNS', out, truth[out][1])
    else:
        fn += 1; print('false no', out, [k['targets'][t].get('message') for k in d['kernels'] if not k['targets'][t]['ok']][:1], truth[out][1][:100])
print('files %d, targets %d, pairs %d, agree %d (%.2f%%), false runs %d, false no %d' % (len(files), len(targets), len(jobs), agree, 100.0*agree/len(jobs), fr, fn))
