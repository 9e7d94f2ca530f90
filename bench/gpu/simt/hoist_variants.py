#!/usr/bin/env python3
"""bench/gpu/simt/hoist_variants.py [OUTDIR]: when does ptxas (sm_90, the
local CUDA toolkit) hoist global loads above the instructions that read
earlier loads? Writes variants of l1miss_probe.cu's l1miss_ld64 to
OUTDIR/hoist_variants.cu (default /tmp/hoist_variants), compiles them with
nvcc -ptx and ptxas (default options, then --maxrregcount 255) and prints,
per kernel: the registers ptxas used, the most loads in flight in each of
its innermost loops (sass_list.py), and for each PTX loop with two or more
global loads the 32-bit units live into its header that are neither
"free" (ld.param, immediates, %ntid/%nctaid, cvta of such: constant bank or
uniform registers in the SASS) nor unread in the loop ("live"). The
findings are in this folder's README.md. Needs nvcc and ptxas on PATH or
in /usr/local/cuda/bin, and build/ptxray (./configure.py && ninja) for the
live sets. No GPU."""
import os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..', '..', '..')
sys.path.insert(0, HERE)
import sass_list  # noqa: E402

CUDA = '/usr/local/cuda/bin'

HEAD = '''#define START() __syncthreads(); long long t0 = clock64();
#define STOP(out) __syncthreads(); long long t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;
#define PLAIN(p) (*(p))
'''

# l1miss_ld64 with the load (plain, __ldcg, __ldca, __ldg), the index's
# iteration term (i, as in l1miss_probe.cu; i & 15, as in l2bw_probe.cu) and
# the mask as parameters
CACHE = '''extern "C" __global__ void %(name)s(const double *%(rs)sa, double *%(rs)so, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x; double s0 = 0, s1 = 0, s2 = 0, s3 = 0; START();
	for (int i = 0; i < n; i++) { int k = (%(it)s * 4 * nb + tid) & %(mask)s;
		s0 += %(ld)s(a + k); s1 += %(ld)s(a + ((k + nb) & %(mask)s));
		s2 += %(ld)s(a + ((k + 2 * nb) & %(mask)s)); s3 += %(ld)s(a + ((k + 3 * nb) & %(mask)s)); }
	STOP(t); o[tid] = s0 + s1 + s2 + s3; }
'''

# l2bw_ld64's loop (T: double or float) with e more 32-bit values carried
# through it: x = x * 0x9e37 + j (state), or x += nb * c + z with z loaded
# before the loop (induction variables)
PRESSURE = '''extern "C" __global__ void %(name)s(const %(T)s *a, %(T)s *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x; %(T)s s0 = 0, s1 = 0, s2 = 0, s3 = 0;%(decl)s START();
	%(unroll)sfor (int i = 0; i < n; i++) { int k = ((i & 15) * 4 * nb + tid) & 65535;%(upd)s
		s0 += a[k]; s1 += a[(k + nb) & 65535]; s2 += a[(k + 2 * nb) & 65535]; s3 += a[(k + 3 * nb) & 65535]; }
	STOP(t); o[tid] = s0 + s1 + s2 + s3%(fin)s; }
'''

# the same with e double-precision values computed before the loop and
# summed after it (live through the loop, never read in it)
HELD = '''extern "C" __global__ void %(name)s(const double *a, double *o, long long *t, int n) {
	int tid = threadIdx.x, nb = blockDim.x; double s0 = 0, s1 = 0, s2 = 0, s3 = 0;%(decl)s START();
	for (int i = 0; i < n; i++) { int k = ((i & 15) * 4 * nb + tid) & 65535;
		s0 += a[k]; s1 += a[(k + nb) & 65535]; s2 += a[(k + 2 * nb) & 65535]; s3 += a[(k + 3 * nb) & 65535]; }
	STOP(t); o[tid] = s0 + s1 + s2 + s3%(fin)s; }
'''


def variants():
    src = [HEAD]
    for ld in ('PLAIN', '__ldcg', '__ldca', '__ldg'):
        for it, mask in (('i', '131071'), ('(i & 15)', '65535')):
            name = 'cache_%s_%s' % (ld.strip('_').lower(), 'i' if it == 'i' else 'i15')
            src.append(CACHE % dict(name=name, rs='', it=it, mask=mask, ld=ld))
    src.append(CACHE % dict(name='cache_restrict_i', rs='__restrict__ ', it='i', mask='131071', ld='PLAIN'))
    for T, tag, rng in (('double', 'd', range(0, 44, 2)), ('float', 'f', range(0, 44, 3))):
        for e in rng:
            decl = ''.join(' unsigned x%d = tid * %d;' % (j, j + 3) for j in range(e))
            upd = ''.join(' x%d = x%d * 0x9e37 + %d;' % (j, j, j + 1) for j in range(e))
            fin = ''.join(' + x%d' % j for j in range(e))
            src.append(PRESSURE % dict(name='state_%s%d' % (tag, e), T=T, decl=decl, upd=upd, fin=fin,
                                       unroll='#pragma unroll 4\n\t' if e >= 12 else ''))
    for e in range(4, 28, 4):
        decl = ''.join(' unsigned x%d = tid * %d, z%d = t[%d];' % (j, j + 3, j, j + 1) for j in range(e))
        upd = ''.join(' x%d += nb * %d + z%d;' % (j, j + 5, j) for j in range(e))
        fin = ''.join(' + x%d' % j for j in range(e))
        src.append(PRESSURE % dict(name='iv_d%d' % e, T='double', decl=decl, upd=upd, fin=fin, unroll=''))
    for e in range(0, 13, 2):
        decl = ''.join(' double h%d = tid * %d.5;' % (j, j + 1) for j in range(e))
        fin = ''.join(' + h%d' % j for j in range(e))
        src.append(HELD % dict(name='held_d%d' % e, decl=decl, fin=fin))
    return '\n'.join(src)


def tool(name):
    p = os.path.join(CUDA, name)
    return p if os.path.exists(p) else name


def ptxas(ptx, cubin, extra):
    err = subprocess.run([tool('ptxas'), '-arch=sm_90', '-O3', '-v', '-o', cubin, ptx] + extra,
                         capture_output=True, text=True, check=True).stderr
    regs, fn = {}, None
    for ln in err.splitlines():
        m = re.search(r"Compiling entry function '(\S+)'", ln)
        if m:
            fn = m.group(1)
        m = re.search(r'Used (\d+) registers', ln)
        if m:
            regs[fn] = int(m.group(1))
    flights = {k: [sass_list.in_flight(ins, lo, hi) for lo, hi in sass_list.loops(ins)]
               for k, ins in sass_list.cubin_kernels(cubin)}
    return regs, flights


UNITS = {'rd': 2, 'fd': 2, 'r': 1, 'f': 1, 'rs': 1, 'p': 0}


def units(reg, vec):
    m = re.match(r'%([a-z]+)', reg)
    return UNITS.get(m.group(1), 1) if m else 1


def ptx_bases(ptx):
    """per kernel: for each loop with >= 2 global loads, (units live in, loads)"""
    dump = subprocess.run([os.path.join(ROOT, 'build', 'ptxray'), 'report', '--dump=live,loops', ptx],
                          capture_output=True, text=True).stderr
    lines = open(ptx).read().split('\n')
    text = '\n'.join(lines)
    res, fn, live = {}, None, {}
    for ln in dump.splitlines():
        m = re.search(r'live (\S+) \(\.entry', ln)
        if m:
            fn, live = m.group(1), {}
            res[fn] = []
            continue
        m = re.match(r'  (b\d+) in: (.*)', ln)
        if m and fn:
            live[m.group(1)] = [] if m.group(2) == '-' else m.group(2).split()
        m = re.match(r'  loop \d+  header (b\d+) \(line (\d+)\)', ln)
        if m and fn:
            res[fn].append((live[m.group(1)], int(m.group(2))))
    out = {}
    for m in re.finditer(r'\.entry (\S+)\((.*?)\n\}', text, re.S):
        fn, body = m.group(1), m.group(2)
        defs = {}
        for ln in body.split('\n'):
            d = re.match(r'\s*(@%p\d+\s+)?([a-z][\w.]*)\s+(%\w+)\s*,\s*(.*);', ln)
            if d:
                defs.setdefault(d.group(3), []).append((d.group(2), d.group(4).strip(), bool(d.group(1))))
        free = set(defs)
        changed = True
        while changed:
            changed = False
            for r in list(free):
                for op, rest, guarded in defs[r]:
                    ok = not guarded and (op.startswith('ld.param') or
                                          (op.startswith('mov') and re.match(r'(-?\d|0[dDfF]|%ntid|%nctaid)', rest)) or
                                          (op.startswith('cvta') and rest in free))
                    if not ok:
                        free.discard(r)
                        changed = True
                        break
        rows = []
        for lv, line in res.get(fn, []):
            i, used, nld = line - 1, set(), 0
            while i < len(lines) and not re.search(r'\bbra\b', lines[i]):
                if 'ld.global' in lines[i]:
                    nld += 1
                ops = lines[i].split(',', 1)
                if len(ops) > 1:
                    used |= set(re.findall(r'%\w+', ops[1]))
                used |= set(re.findall(r'\[(%\w+)', lines[i]))
                i += 1
            if nld >= 2:
                rows.append((sum(units(r, 1) for r in lv if r not in free and r in used), nld))
        out[fn] = rows
    return out


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else '/tmp/hoist_variants'
    os.makedirs(d, exist_ok=True)
    cu, ptx = os.path.join(d, 'hoist_variants.cu'), os.path.join(d, 'hoist_variants.ptx')
    open(cu, 'w').write(variants())
    subprocess.run([tool('nvcc'), '-arch=sm_90', '-O3', '-ptx', '-o', ptx, cu], check=True)
    r0, f0 = ptxas(ptx, os.path.join(d, 'default.cubin'), [])
    r1, f1 = ptxas(ptx, os.path.join(d, 'max255.cubin'), ['--maxrregcount', '255'])
    bases = ptx_bases(ptx)
    print('%-28s %5s %-14s %5s %-14s %s' % ('kernel', 'regs', 'in flight', 'regs', 'in flight', 'PTX loops: live units/loads'))
    print('%-28s %5s %-14s %5s %-14s' % ('', 'default', '', '--maxrregcount 255', ''))
    for k in sorted(r0, key=lambda k: (re.sub(r'\d+', '', k), int(re.sub(r'\D', '', k.split('_')[-1]) or 0))):
        print('%-28s %5d %-14s %5d %-14s %s' % (k[:28], r0[k], f0[k], r1[k], f1[k],
                                                ' '.join('%d/%d' % b for b in bases.get(k, []))))


if __name__ == '__main__':
    main()
