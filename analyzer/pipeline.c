/* pipeline.c: the pass table and px_pipeline_run, the one function that
 * runs the analyses in order.
 *
 * The table below is the only list of passes: px_pipeline_run walks it,
 * --dump=NAME and --help read it through px_passes()/px_pass_find(). Each
 * entry states what must have run before it and what it fills. With verify
 * set, or in a build with PX_DEBUG defined, px_ir_verify checks the
 * IR before the first pass and after every pass. */
#include <string.h>

#include "analysis.h"

static void run_operands(struct px_module *m, struct px_func *f, struct px_diags *d)
{
	(void)d;
	fill_operands(m, f);
}

static void run_callees(struct px_module *m, struct px_func *f, struct px_diags *d)
{
	(void)d;
	fill_callees(m, f);
}

static void run_regs(struct px_module *m, struct px_func *f, struct px_diags *d)
{
	(void)d;
	fill_regs(m, f);
}

static void run_cfg(struct px_module *m, struct px_func *f, struct px_diags *d)
{
	fill_cfg(m, f, d);
}

static void run_dom(struct px_module *m, struct px_func *f, struct px_diags *d)
{
	(void)d;
	fill_dom(m, f);
}

static void run_postdom(struct px_module *m, struct px_func *f, struct px_diags *d)
{
	(void)d;
	fill_postdom(m, f);
}

static void run_loops(struct px_module *m, struct px_func *f, struct px_diags *d)
{
	(void)d;
	fill_loops(m, f);
}

static void run_live(struct px_module *m, struct px_func *f, struct px_diags *d)
{
	(void)d;
	fill_live(m, f);
}

static void run_mentions(struct px_module *m, struct px_func *f, struct px_diags *d)
{
	(void)d;
	fill_mentions(m, f);
}

static void run_affine(struct px_module *m, struct px_func *f, struct px_diags *d)
{
	(void)d;
	fill_affine(m, f);
}

static void run_uniform(struct px_module *m, struct px_func *f, struct px_diags *d)
{
	(void)d;
	fill_uniform(m, f);
}

static void run_access(struct px_module *m, struct px_func *f, struct px_diags *d)
{
	(void)d;
	fill_access(m, f);
}

static void run_events(struct px_module *m, struct px_func *f, struct px_diags *d)
{
	(void)d;
	fill_events(m, f);
}

static const struct px_pass_info passes[] = {
	{"callees", PX_PASS_CALLEES, 0, PX_STAGE_PRE,
	 "callees, has_indirect_call (module function indices, sorted)",
	 "the functions each function calls (reads the module's functions)", run_callees,
	 px_dump_callees},
	{"operands", PX_PASS_OPERANDS, 0, PX_STAGE_LOCAL,
	 "op_start/op_ndefs/op_regs (each instruction's register defs and uses)",
	 "register defs and uses of every instruction, decoded once", run_operands, px_dump_operands},
	{"cfg", PX_PASS_CFG, 0, PX_STAGE_LOCAL,
	 "blocks, succs/preds, insn->block, rpo, reachable, callees",
	 "basic blocks and control-flow edges", run_cfg, px_dump_cfg},
	{"dom", PX_PASS_DOM, PX_PASS_CFG, PX_STAGE_LOCAL,
	 "block->idom",
	 "immediate dominators (dominator tree)", run_dom, px_dump_dom},
	{"postdom", PX_PASS_POSTDOM, PX_PASS_CFG, PX_STAGE_LOCAL,
	 "block->ipdom, exit_virtual, exit_block",
	 "immediate post-dominators (virtual exit node)", run_postdom, px_dump_postdom},
	{"loops", PX_PASS_LOOPS, PX_PASS_CFG | PX_PASS_DOM, PX_STAGE_LOCAL,
	 "loops (header, latches, blocks, exits, nesting), block->loop, irreducible",
	 "natural loops and their nesting", run_loops, px_dump_loops},
	{"live", PX_PASS_LIVE, PX_PASS_CFG, PX_STAGE_LOCAL,
	 "live_in/live_out, max_live, max_live_pred, reg_estimate",
	 "register liveness, pressure and the register estimate", run_live, px_dump_live},
	{"mentions", PX_PASS_MENTIONS, 0, PX_STAGE_LOCAL,
	 "vars[].mentioned, mod_mentions",
	 "variables the code names (for the shared-memory layout)", run_mentions, px_dump_mentions},
	{"affine", PX_PASS_AFFINE, PX_PASS_CFG | PX_PASS_LOOPS, PX_STAGE_LOCAL,
	 "an: register forms, address provenance, predicates, launch block",
	 "affine values of registers over thread/block indices, parameters, loop counters",
	 run_affine, px_dump_affine},
	{"uniform", PX_PASS_UNIFORM, PX_PASS_AFFINE | PX_PASS_POSTDOM | PX_PASS_LIVE, PX_STAGE_LOCAL,
	 "an->uni/why, res->br (branch verdicts)",
	 "uniformity of registers and divergence of branches", run_uniform, px_dump_uniform},
	{"access", PX_PASS_ACCESS, PX_PASS_UNIFORM, PX_STAGE_LOCAL,
	 "res->acc (space, bytes, sectors, bank wavefronts, loop depth)",
	 "memory accesses: sectors per request and shared bank conflicts", run_access, px_dump_access},
	{"events", PX_PASS_EVENTS, PX_PASS_ACCESS, PX_STAGE_LOCAL,
	 "res->ev (barriers, warp collectives, divisions), res->nfp64, res->acc[].pad_*",
	 "what the lint rules read: divergent barriers, membermasks, padding", run_events,
	 px_dump_events},
	{"regs", PX_PASS_REGS, PX_PASS_LIVE | PX_PASS_CALLEES, PX_STAGE_POST,
	 "reg_estimate, reg_demand (callees' estimates included)",
	 "the register estimate (reads the callees' estimates)", run_regs, px_dump_regs},
};

const struct px_pass_info *px_passes(size_t *n)
{
	*n = PX_COUNTOF(passes);
	return passes;
}

const struct px_pass_info *px_pass_find(const char *name)
{
	for (size_t i = 0; i < PX_COUNTOF(passes); i++)
		if (strcmp(passes[i].name, name) == 0)
			return &passes[i];
	return NULL;
}

/* The closure of want (enum px_pass bits) under the passes' needs (the
 * table lists a pass after its needs). */
static unsigned closure(unsigned want)
{
	for (size_t k = PX_COUNTOF(passes); k-- > 0;)
		if (want & passes[k].bit)
			want |= passes[k].needs;
	return want;
}

/* Requires: f has a parsed body in m (the module may still be being parsed:
 * m->funcs and m->vars then hold what precedes f's end, which is all f's
 * code may name) and the stages before `stage` have run with the same
 * want; PX_STAGE_POST needs no body (and verifies nothing).
 * Fills: what the passes of that stage in want (enum px_pass bits; the
 * passes they need included) fill. Returns false when the verifier found a
 * broken invariant (reported in diags). */
bool px_pipeline_run_stage(struct px_module *m, struct px_func *f, struct px_diags *diags,
                           bool verify, enum px_stage stage, unsigned want)
{
#ifdef PX_DEBUG
	verify = true;  /* debug builds always check the IR between passes */
#endif
	if (stage == PX_STAGE_POST)
		verify = false;
	want = closure(want);
	unsigned done = 0;
	size_t k = 0;
	for (; k < PX_COUNTOF(passes) && passes[k].stage < stage; k++)
		done |= passes[k].bit & want;
	if (verify && !px_ir_verify(m, f, done, diags))
		return false;  /* the passes assume the parser's invariants */
	for (; k < PX_COUNTOF(passes) && passes[k].stage == stage; k++) {
		if (!(want & passes[k].bit))
			continue;
		passes[k].run(m, f, diags);
		done |= passes[k].bit;
		if (verify && !px_ir_verify(m, f, done, diags))
			return false;
	}
	return true;
}

/* Requires: f has a parsed body in m (as above).
 * Fills: the analysis sections of the passes in `want` (enum px_pass bits)
 * and of the passes they need, run in the table's order. Returns false when
 * the verifier found a broken invariant (reported in diags). */
bool px_pipeline_run_passes(struct px_module *m, struct px_func *f, unsigned want,
                            struct px_diags *diags, bool verify)
{
#ifdef PX_DEBUG
	verify = true;  /* debug builds always check the IR between passes */
#endif
	want = closure(want);
	unsigned done = 0;
	if (verify && !px_ir_verify(m, f, done, diags))
		return false;  /* the passes assume the parser's invariants */
	for (size_t k = 0; k < PX_COUNTOF(passes); k++) {
		if (!(want & passes[k].bit))
			continue;
		passes[k].run(m, f, diags);
		done |= passes[k].bit;
		if (verify && !px_ir_verify(m, f, done, diags))
			return false;
	}
	return true;
}

/* Requires: f has a parsed body in m (as above).
 * Fills: every analysis section of f (px_pipeline_run_passes with all).
 * Returns false when the verifier found a broken invariant. */
bool px_pipeline_run_func(struct px_module *m, struct px_func *f, struct px_diags *diags,
                          bool verify)
{
	return px_pipeline_run_passes(m, f, ~0u, diags, verify);
}

/* Requires: a parsed module (possibly with parse errors: functions are
 * analysed anyway, the parser leaves them consistent).
 * Fills: every analysis section of every function with a body. */
bool px_pipeline_run(struct px_module *m, struct px_diags *diags, bool verify)
{
	size_t errors = diags->errors;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].has_body && !m->funcs[i].body_dropped)
			px_pipeline_run_func(m, &m->funcs[i], diags, verify);
	return diags->errors == errors;
}
