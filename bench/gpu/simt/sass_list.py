#!/usr/bin/env python3
"""bench/gpu/simt/sass_list.py [-v] FILE...: what ptxas's sm_90 code does
with the loads of each loop, without cuobjdump or nvdisasm (the CUDA 13.0
toolkit on the developers' machines has nvcc and ptxas only).

FILE is a cubin (nvcc -arch=sm_90 -cubin, ptxas -arch=sm_90) or a
cuobjdump -sass listing (the committed *.sm_90.sass fixtures). Each 16-byte
instruction is named by its low 12 bits, the opcode and operand form: the
table is learned at run time from the `cuobjdump -sass` fixtures under
tests/fixtures/simt/ (every instruction there with its encoding; 89
opcodes, none ambiguous), so an opcode they lack prints as opXXX. The
control bits read (the 23 above bit 105: stall count, yield, write and
read scoreboards, wait mask) and the branch offset were checked against
the same listings.

Per innermost loop (a backward BRA) it prints the order of the loads
(L global, lds shared, numbered in issue order) and of the first
instruction that waits on each load's scoreboard: "L1 L2 wL1(DADD)" is
two loads in flight before the DADD that reads the first. -v lists every
instruction (mnemonic, the register fields, scoreboards).
Standard library only."""
import glob, os, re, struct, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..')
PAIR = re.compile(r'/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;\s*/\* 0x([0-9a-f]{16}) \*/\s*\n\s*/\* 0x([0-9a-f]{16}) \*/')


def opcode_table():
    tab = {}
    for f in glob.glob(os.path.join(ROOT, 'tests', 'fixtures', 'simt', '**', '*.sass'), recursive=True):
        for m in PAIR.finditer(open(f).read()):
            txt = re.sub(r'^@!?U?P[T0-9]\s+', '', m.group(2))
            tab.setdefault(int(m.group(3), 16) & 0xfff, txt.split()[0].split('.')[0])
    return tab


OP = opcode_table()


def decode(code):
    out = []
    for a in range(0, len(code), 16):
        lo, hi = struct.unpack_from('<QQ', code, a)
        op = lo & 0xfff
        g = (lo >> 12) & 0xf
        c = hi >> 41
        i = dict(a=a, mn=OP.get(op, 'op%03x' % op),
                 pred='' if g == 7 else '@%sP%d ' % ('!' if g & 8 else '', g & 7),
                 rd=(lo >> 16) & 0xff, ra=(lo >> 24) & 0xff, rb=(lo >> 32) & 0xff,
                 stall=c & 15, wb=(c >> 5) & 7, rbar=(c >> 8) & 7, wait=(c >> 11) & 63)
        if i['mn'] == 'BRA':
            off = lo >> 32
            off = off - (1 << 32) if off >> 31 else off
            i['tgt'] = a + 16 + off * 256 + ((lo >> 16) & 0xff) * 4
        out.append(i)
    return out


def cubin_kernels(path):
    b = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
    sh = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + k * shentsize) for k in range(shnum)]
    stro = sh[shstrndx][4]
    for s in sh:
        name = b[stro + s[0]:b.index(b'\0', stro + s[0])].decode()
        if name.startswith('.text.'):
            yield name[6:], decode(b[s[4]:s[4] + s[5]])


def sass_kernels(path):
    parts = re.split(r'\n\s*Function : (\S+)', open(path).read())
    seen = set()
    for k in range(1, len(parts), 2):
        if parts[k] in seen:
            continue
        seen.add(parts[k])
        code = b''.join(struct.pack('<QQ', int(m.group(3), 16), int(m.group(4), 16))
                        for m in PAIR.finditer(parts[k + 1]))
        yield parts[k], decode(code)


def loops(ins):
    for j, i in enumerate(ins):
        if i['mn'] == 'BRA' and i.get('tgt', 1 << 30) <= i['a']:
            yield i['tgt'] // 16, j


def summary(ins, lo, hi):
    seq, out, n = [], {}, 0
    for i in ins[lo:hi + 1]:
        if i['wait']:
            done = [x for k in range(6) if i['wait'] >> k & 1 for x in out.pop(k, [])]
            if done:
                seq.append('w%s(%s)' % (','.join(done), i['mn']))
        if i['mn'] in ('LDG', 'LDS', 'LD'):
            n += 1
            name = ('L' if i['mn'] == 'LDG' else i['mn'].lower()) + str(n)
            out.setdefault(i['wb'], []).append(name)
            seq.append(name)
    return ' '.join(seq)


def in_flight(ins, lo, hi):
    """the most loads issued and not yet waited for at any point"""
    out, cur, best = {}, 0, 0
    for i in ins[lo:hi + 1]:
        for k in range(6):
            if i['wait'] >> k & 1:
                cur -= out.pop(k, 0)
        if i['mn'] in ('LDG', 'LDS', 'LD'):
            out[i['wb']] = out.get(i['wb'], 0) + 1
            cur += 1
            best = max(best, cur)
    return best


def fmt(i):
    s = '%04x %s%-8s R%-3d R%-3d R%-3d' % (i['a'], i['pred'], i['mn'], i['rd'], i['ra'], i['rb'])
    if 'tgt' in i:
        s += ' ->%04x' % i['tgt']
    if i['wb'] != 7:
        s += ' W%d' % i['wb']
    if i['rbar'] != 7:
        s += ' R%d' % i['rbar']
    if i['wait']:
        s += ' wait{%s}' % ','.join(str(k) for k in range(6) if i['wait'] >> k & 1)
    return s


def main():
    verbose = '-v' in sys.argv
    for p in [a for a in sys.argv[1:] if a != '-v']:
        ks = sass_kernels(p) if p.endswith('.sass') else cubin_kernels(p)
        for name, ins in ks:
            print('==', name)
            if verbose:
                for i in ins:
                    print('  ', fmt(i))
            for lo, hi in loops(ins):
                s = summary(ins, lo, hi)
                if s:
                    print('  loop %04x-%04x (%d insns, %d loads in flight): %s' %
                          (lo * 16, hi * 16, hi - lo + 1, in_flight(ins, lo, hi), s))


if __name__ == '__main__':
    main()
