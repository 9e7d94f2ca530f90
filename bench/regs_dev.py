#!/usr/bin/env python3
"""bench/regs_dev.py [N]: development harness for fill_live's register
estimate (pass_live.c). Builds a tiny driver (parser + pipeline, no CLI) into
/tmp, runs it on every PTX file of a ptxas truth file (TRUTH=path, default
tests/fixtures/ptxas/truth.json; build/corpus/truth.json for the CCCL set)
and prints N, the median absolute percentage error, the share within +-10%,
and the N worst kernels. A benchmark, never a test. Standard library only."""
import json, os, statistics, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRIVER_C = r"""/* regs driver: prints per function features for calibration */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir.h"
int main(int argc, char **argv)
{
	for (int a = 1; a < argc; a++) {
		size_t len; char *err = NULL;
		char *text = px_read_file(argv[a], &len, &err);
		if (!text) { fprintf(stderr, "%s: %s\n", argv[a], err); continue; }
		struct px_diags d = {0};
		struct px_module *m = px_ptx_parse(argv[a], text, len, &d);
		if (d.errors) { fprintf(stderr, "%s: %zu parse errors: %s:%u %s\n", argv[a], d.errors, d.items[0].file, d.items[0].line, d.items[0].message); }
		px_pipeline_run(m, &d, getenv("VERIFY") != NULL);
		for (size_t i = 0; i < d.n; i++) if (d.items[i].severity == PX_ERROR && strstr(d.items[i].message, "internal")) fprintf(stderr, "%s:%u: %s\n", argv[a], d.items[i].line, d.items[i].message);
		for (uint32_t i = 0; i < m->nfuncs; i++) {
			struct px_func *f = &m->funcs[i];
			if (!f->has_body) continue;
			uint32_t n64 = 0, n32 = 0, np = 0, ncall = 0;
			for (uint32_t r = 0; r < f->nregs; r++) { uint32_t u = px_reg_units(&f->regs[r]); if (!u) np++; else if (u == 2) n64++; else n32++; }
			for (uint32_t k = 0; k < f->ninsns; k++) if (f->insns[k].op == PX_OP_CALL) ncall++;
			uint32_t nt = (f->maxntid[0]?f->maxntid[0]:1)*(f->maxntid[1]?f->maxntid[1]:1)*(f->maxntid[2]?f->maxntid[2]:1); if(!f->maxntid[0]) nt=0;
			printf("%s\t%.*s\t%d\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%u\n", argv[a], (int)f->name.n, f->name.p, f->is_entry,
			       f->max_live, f->max_live_pred, f->reg_estimate, f->ninsns, f->nblocks, f->nloops, ncall, n32, n64, f->nparams, f->maxnreg, nt, f->minnctapersm);
		}
		px_diags_free(&d);
		px_module_delete(m);
	}
	return 0;
}
"""
DRV = os.path.join(tempfile.gettempdir(), "ptxray_regs_dev%d" % os.getpid())
src = DRV + ".c"
open(src, "w").write(DRIVER_C)
# The library as ninja built it, with pass_live.c compiled here (PASS_LIVE=path
# to try another version of it; CFLAGS, e.g. -DFREE_WEIGHT=3, to try other
# constants): its object comes first, so the archive's copy is not linked.
live = os.environ.get("PASS_LIVE", os.path.join(ROOT, "analyzer", "pass_live.c"))
archive = os.path.join(ROOT, "build", "libptxray.a")
if not os.path.exists(archive):
    sys.exit("%s: not built (run ninja)" % archive)
subprocess.run(["gcc", "-std=c11", "-O2", "-I" + os.path.join(ROOT, "analyzer"), "-o", DRV, src, live, archive]
               + os.environ.get("CFLAGS", "").split(), check=True)
truth=json.load(open(os.environ.get('TRUTH',ROOT+'/tests/fixtures/ptxas/truth.json')))['files']
files=sorted(truth)
out=subprocess.run([DRV]+[ROOT+'/'+f for f in files],capture_output=True,text=True)
os.unlink(DRV); os.unlink(src)
sys.stderr.write(out.stderr[:2000])
rows=[]
for line in out.stdout.splitlines():
    p=line.split('\t')
    path=os.path.relpath(p[0],ROOT); name=p[1]
    k=truth[path]['kernels'].get(name)
    if not k: continue
    v=dict(zip('entry live pred est ninsns nblocks nloops ncall n32 n64 nparams maxnreg maxntid minblocks'.split(),map(int,p[2:])))
    v.update(path=path,name=name,truth=k['registers'],target=truth[path]['target'],stack=k.get('stack',0),spill=k.get('spill_stores',0))
    rows.append(v)

def report(fn, show=0):
    errs=[]
    for v in rows:
        e=fn(v); t=v['truth']
        errs.append((abs(e-t)/t*100, e-t, v))
    a=sorted(x[0] for x in errs)
    med=statistics.median(a); within=sum(1 for x in a if x<=10)/len(a)*100
    print('N=%d median=%.1f%% within10=%.1f%% meanabs=%.2f bias=%.2f'%(len(a),med,within,statistics.mean(abs(x[1]) for x in errs),statistics.mean(x[1] for x in errs)))
    for x in sorted(errs,key=lambda x:-x[0])[:show]:
        v=x[2]; print('  %5.0f%% est %d truth %d live %d pred %d n64 %d call %d %s %s %s maxnreg %d nt %d'%(x[0],fn(v),v['truth'],v['live'],v['pred'],v['n64'],v['ncall'],v['target'],v['name'][:40],v['path'][-22:],v['maxnreg'],v['maxntid']))

if __name__ == "__main__":
    report(lambda v: v["est"], int(sys.argv[1]) if len(sys.argv) > 1 else 10)
