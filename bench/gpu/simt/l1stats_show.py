#!/usr/bin/env python3
"""l1stats_show.py CSV JSONL [FILTER]: bench/gpu/simt/l1stats.sh's counters
an iteration, a line per loop.

CSV is ncu's (NAME_l1.csv), JSONL the program's fixture lines (NAME_l1.jsonl,
every loop in launch order, the ones ncu did not profile included). Each loop
whose kernel ncu profiled takes that kernel's next two launches (at n, then
at 2n: loop_host.cuh's MEASURE with LOOP_HOST_REPS=1), and each counter is
printed as (count(2n) - count(n)) / n, for the whole block: global load
requests, sectors and the sectors that hit the L1 (gld_req, gld_sec,
gld_hit, and gld_hit% of the sectors), global store requests and sectors,
the same for local memory (lld_*, lst_*), the L1 data stage's wavefronts
(wf; wf_sh of shared memory), L2 sectors read and written for the L1
(l2_rd, l2_wr), warp-instructions (insts). FILTER keeps the loops whose
name contains it. The committed results: tests/fixtures/simt/*/l1stats*."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from icount_pack import launches  # noqa: E402   (ncu's CSV, a launch at a time)

SHORT = {
    'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum': 'gld_req',
    'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': 'gld_sec',
    'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum': 'gld_hit',
    'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum': 'gld_miss',
    'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum': 'gst_req',
    'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum': 'gst_sec',
    'l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum': 'lld_req',
    'l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum': 'lld_sec',
    'l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum': 'lld_hit',
    'l1tex__t_requests_pipe_lsu_mem_local_op_st.sum': 'lst_req',
    'l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum': 'lst_sec',
    'l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum': 'lst_hit',
    'l1tex__data_pipe_lsu_wavefronts.sum': 'wf',
    'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum': 'wf_sh',
    'lts__t_sectors_srcunit_tex_op_read.sum': 'l2_rd',
    'lts__t_sectors_srcunit_tex_op_write.sum': 'l2_wr',
    'smsp__inst_executed.sum': 'insts',
}


def per_iteration(csv, jsonl):
    """[(fixture line, {short counter name: count an iteration})] for each
    loop of the program's fixture lines (JSONL) whose kernel ncu profiled
    (CSV): (count(2n) - count(n)) / n for the whole block."""
    ls = launches(csv)
    out = []
    i = 0
    for d in map(json.loads, filter(str.strip, open(jsonl))):
        if 'loop' not in d:
            continue
        if i + 1 >= len(ls) or not ls[i]['kernel'].startswith(d['kernel'] + '('):
            continue   # (a kernel ncu did not profile)
        a, b = ls[i], ls[i + 1]
        i += 2
        out.append((d, {SHORT.get(m, m): (b[m] - a[m]) / d['n'] for m in a if m != 'kernel' and m in b}))
    return out


def main():
    if len(sys.argv) not in (3, 4):
        raise SystemExit('usage: l1stats_show.py CSV JSONL [FILTER]')
    want = sys.argv[3] if len(sys.argv) == 4 else ''
    for d, per in per_iteration(sys.argv[1], sys.argv[2]):
        if want not in d['loop']:
            continue
        out = ' '.join('%s=%.1f' % (k, v) for k, v in per.items() if v)
        if per.get('gld_sec'):
            out += ' gld_hit%%=%.0f' % (100 * per.get('gld_hit', 0) / per['gld_sec'])
        print('%-28s %s' % (d['loop'], out))


if __name__ == '__main__':
    main()
