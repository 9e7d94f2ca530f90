#!/usr/bin/env python3
"""bench/gpu/extract.py DIR: turns what bench/gpu/run_device.sh left in DIR
(source.tgz: ncu's per-SASS source counters as CSV and nvdisasm -g line
tables; device.txt) into tests/gpu/hw_counters.json, the committed
hardware truth that tests/check_gpu.py compares ptxray's predictions with.

Per kernel: every SASS memory instruction that executed, with its CUDA
source line (from nvdisasm's line table), address space, operation, access
size in bits, warp-level executions, and ncu's L2 theoretical sectors
global (and ideal) or L1 shared wavefronts (and ideal); and every SASS
branch with its executions and ncu's divergent-branch count.
Standard library only."""
import csv, io, json, os, re, sys, tarfile

def main():
    d = sys.argv[1]
    tf = tarfile.open(os.path.join(d, 'source.tgz'))
    src = tf.extractfile('source_sass.csv').read().decode()
    lines_txt = tf.extractfile('sass_lines.txt').read().decode()
    # nvdisasm -g: per function, offset -> CUDA line
    linemap, fn, cur = {}, None, 0
    for ln in lines_txt.splitlines():
        m = re.match(r'\s*\.text\.(\w+):', ln)
        if m:
            fn = m.group(1); linemap[fn] = {}; continue
        m = re.search(r'//## File "[^"]*", line (\d+)', ln)
        if m:
            cur = int(m.group(1)); continue
        m = re.match(r'\s*/\*([0-9a-f]{4,})\*/', ln)
        if m and fn:
            linemap[fn][int(m.group(1), 16)] = cur
    out, kernel, hdr, base, seen = {}, None, None, None, set()
    for r in csv.reader(io.StringIO(src)):
        if len(r) >= 2 and r[0] == 'Kernel Name':
            kernel, hdr, base = r[1], None, None; continue
        if r and r[0] == 'Address':
            hdr = {h: i for i, h in enumerate(r)}; continue
        if not hdr or not kernel or len(r) < len(hdr):
            continue
        addr = int(r[0], 16)
        if base is None:
            base = addr
        key = (kernel, addr)
        if key in seen:
            continue
        seen.add(key)
        g = lambda name: r[hdr[name]] if name in hdr else ''
        num = lambda name: int(g(name)) if g(name) not in ('', '-') else 0
        inst = num('Instructions Executed')
        if not inst:
            continue
        sass = g('Source').strip()
        line = linemap.get(kernel, {}).get(addr - base, 0)
        k = out.setdefault(kernel, {'mem': [], 'branches': []})
        space = g('Address Space')
        if space in ('Global', 'Shared', 'Local') and g('Access Operation') not in ('', '-'):
            k['mem'].append({'line': line, 'sass': sass, 'space': space.lower(),
                             'op': g('Access Operation'), 'size_bits': num('Access Size'),
                             'inst': inst, 'threads': num('Thread Instructions Executed'),
                             'sectors': num('L2 Theoretical Sectors Global'),
                             'sectors_ideal': num('L2 Theoretical Sectors Global Ideal'),
                             'wavefronts': num('L1 Wavefronts Shared'),
                             'wavefronts_ideal': num('L1 Wavefronts Shared Ideal')})
        if re.search(r'\bBRA\b', sass) and '@' in sass:
            k['branches'].append({'line': line, 'sass': sass, 'inst': inst,
                                  'threads': num('Thread Instructions Executed'),
                                  'divergent': num('Divergent Branches')})
    dev = open(os.path.join(d, 'device.txt')).read().splitlines()
    doc = {'device': dev[1] if len(dev) > 1 else '',
           'command': 'sh bench/gpu/run_device.sh (device tool, nvidia-h100-x1); '
                      'python3 bench/gpu/extract.py OUTDIR',
           'launch': {'default': {'block': [256, 1, 1], 'grid': [128, 1, 1]},
                      'twod': {'block': [32, 8, 1], 'grid': [16, 8, 1]}},
           'kernels': out}
    dst = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests', 'gpu', 'hw_counters.json')
    with open(dst, 'w') as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write('\n')
    print('%d kernels, %d memory instructions, %d branches -> %s' % (
        len(out), sum(len(k['mem']) for k in out.values()),
        sum(len(k['branches']) for k in out.values()), os.path.relpath(dst)))

main()
