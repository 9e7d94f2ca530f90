/* check_code.c: the rules about a kernel's code: barriers, warp
 * collectives, divisions, FP64, memory accesses, branches.
 *
 * Each check reads the records the passes left in the kernel's px_results
 * (fill_events: ev, nfp64, padding; fill_access: acc; fill_uniform: br) and
 * turns the ones past the rule's threshold into findings. None of them looks
 * at instructions or recomputes a verdict. Checks that do not depend on the
 * target return unless c->first (they run once per kernel, not per arch). */
#include <stdio.h>
#include <string.h>

#include "checks.h"

static const struct px_results *res(const struct px_rule_ctx *c)
{
	return c->k->res;
}

/* The static finding, with the simulation's proof when it reproduced the
 * violation at that line; then the simulated ones the static analysis did
 * not report. */
static void proved_events(struct px_rule_ctx *c, const struct px_rule *r, enum px_event_kind kind,
                          const char *sim_kind, const char *what)
{
	const struct px_results *s = res(c);
	if (!c->first)
		return;
	uint32_t *lines = xcalloc(s ? s->nev + 1 : 1, sizeof *lines), n = 0;
	for (uint32_t i = 0; s && i < s->nev; i++) {
		const struct px_event_rec *e = &s->ev[i];
		if (e->kind != kind)
			continue;
		const char *proof = px_check_sim_proof(c, sim_kind, e->line);
		char *msg = kind == PX_EV_SHUFFLE_MASK
			? xasprintf("%s.sync: %s", px_opcode_name(e->op), e->detail ? e->detail : "")
			: e->detail ? xasprintf("%s: %s", what, e->detail) : xstrdup(what);
		if (proof)
			px_rule_report(c, r, e->line, e->col, "%s; simulated: %s", msg, proof);
		else
			px_rule_report(c, r, e->line, e->col, "%s", msg);
		free(msg);
		lines[n++] = e->line;
	}
	px_check_sim_rest(c, r, sim_kind, lines, n);
	free(lines);
}

void px_check_warp_sync(struct px_rule_ctx *c, const struct px_rule *r)
{
	proved_events(c, r, PX_EV_WARP_EXCHANGE, "warp-sync-missing",
	              "lanes exchange data through shared memory without a warp sync");
}

void px_check_divergent_barrier(struct px_rule_ctx *c, const struct px_rule *r)
{
	proved_events(c, r, PX_EV_DIVERGENT_BARRIER, "barrier-divergence", "barrier under a divergent condition");
}



void px_check_shuffle_mask(struct px_rule_ctx *c, const struct px_rule *r)
{
	proved_events(c, r, PX_EV_SHUFFLE_MASK, "shuffle-mask", NULL);
}

void px_check_legacy_warp(struct px_rule_ctx *c, const struct px_rule *r)
{
	const struct px_results *s = res(c);
	if (!c->first || !s)
		return;
	for (uint32_t i = 0; i < s->nev; i++) {
		const struct px_event_rec *e = &s->ev[i];
		if (e->kind == PX_EV_LEGACY_WARP)
			px_rule_report(c, r, e->line, e->col,
			               "%s without .sync is not supported on sm_70 and later: use %s",
			               px_opcode_name(e->op),
			               e->op == PX_OP_SHFL ? "__shfl_sync" : "__any_sync/__all_sync/__ballot_sync");
	}
}

void px_check_int_div(struct px_rule_ctx *c, const struct px_rule *r)
{
	const struct px_results *s = res(c);
	if (!c->first || !s)
		return;
	for (uint32_t i = 0; i < s->nev; i++) {
		const struct px_event_rec *e = &s->ev[i];
		if (e->kind == PX_EV_INT_DIV_LOOP)
			px_rule_report(c, r, e->line, e->col,
			               "integer %s by a value unknown at compile time inside a loop (depth %u)",
			               px_opcode_name(e->op), e->lanes);
	}
}

void px_check_fp64(struct px_rule_ctx *c, const struct px_rule *r)
{
	const struct px_results *s = res(c);
	if (!s || !s->nfp64 || !c->arch)
		return;
	double f64 = -1, f32 = -1;
	for (uint32_t i = 0; i < c->arch->nthroughput; i++) {
		if (strcmp(c->arch->throughput[i].name, "fp64_fma") == 0)
			f64 = c->arch->throughput[i].value;
		else if (strcmp(c->arch->throughput[i].name, "fp32_fma") == 0)
			f32 = c->arch->throughput[i].value;
	}
	if (f64 < 0 || f32 <= 0)
		return;   /* the table does not say: no verdict */
	double ratio = f64 / f32;
	if (ratio > px_rule_threshold(c, r))
		return;
	px_rule_report(c, r, s->fp64_line, s->fp64_col,
	               "%u f64 instruction%s on %s, whose FP64 rate is 1/%g of FP32 (first here)",
	               s->nfp64, s->nfp64 == 1 ? "" : "s", c->arch->name, f32 / f64);
}

void px_check_uncoalesced(struct px_rule_ctx *c, const struct px_rule *r)
{
	const struct px_results *s = res(c);
	if (!c->first || !s)
		return;
	double factor = px_rule_threshold(c, r);
	for (uint32_t i = 0; i < s->nacc; i++) {
		const struct px_access_rec *a = &s->acc[i];
		if (a->space != PX_SPACE_GLOBAL || a->sectors < 0 || a->ideal_sectors <= 0)
			continue;
		if (a->sectors < factor * a->ideal_sectors)
			continue;
		px_rule_report(c, r, a->line, 0,
		               "uncoalesced global %s: %g sectors per request, ideal %g (%.3gx)%s",
		               a->is_store ? "store" : "load", a->sectors, a->ideal_sectors,
		               a->sectors / a->ideal_sectors, a->depth ? ", in a loop" : "");
	}
}

void px_check_bank_conflict(struct px_rule_ctx *c, const struct px_rule *r)
{
	const struct px_results *s = res(c);
	if (!c->first || !s)
		return;
	double ways_min = px_rule_threshold(c, r);
	for (uint32_t i = 0; i < s->nacc; i++) {
		const struct px_access_rec *a = &s->acc[i];
		if (a->space != PX_SPACE_SHARED || a->wavefronts < 0 || a->ideal_wavefronts <= 0)
			continue;
		double ways = a->wavefronts / a->ideal_wavefronts;
		if (ways < ways_min)
			continue;
		char fix[160] = "";
		if (a->pad_bytes && a->padded_ways <= 1)
			snprintf(fix, sizeof fix, "; padding each %u-byte row by %u bytes makes it conflict-free",
			         a->pad_row_bytes, a->pad_bytes);
		else if (a->pad_bytes)
			snprintf(fix, sizeof fix, "; padding each %u-byte row by %u bytes leaves %g-way",
			         a->pad_row_bytes, a->pad_bytes, a->padded_ways);
		px_rule_report(c, r, a->line, 0, "%g-way bank conflict on a shared %s (%g wavefronts, ideal %g)%s%s",
		               ways, a->is_store ? "store" : "load", a->wavefronts, a->ideal_wavefronts,
		               a->depth ? ", in a loop" : "", fix);
	}
}

void px_check_divergent_branch(struct px_rule_ctx *c, const struct px_rule *r)
{
	const struct px_results *s = res(c);
	if (!c->first || !s)
		return;
	double lanes = px_rule_threshold(c, r);
	for (uint32_t i = 0; i < s->nbr; i++) {
		const struct px_branch_rec *b = &s->br[i];
		if (b->divergence != PX_DIV_DIVERGENT || b->active_lanes < 0 || b->active_lanes >= lanes)
			continue;
		px_rule_report(c, r, b->line, 0, "branch splits warps: %d of 32 lanes take one side%s (%s)",
		               b->active_lanes, b->depth ? ", in a loop" : "", b->reason ? b->reason : "");
	}
}

void px_check_local_array(struct px_rule_ctx *c, const struct px_rule *r)
{
	const struct px_kernel_report *k = c->k;
	if (!c->first || !k->local_bytes)
		return;
	const struct px_results *s = res(c);
	uint32_t line = k->line, n = 0;
	for (uint32_t i = 0; s && i < s->nacc; i++)   /* the first dynamic access in the file */
		if (s->acc[i].dynamic_local && (n++ == 0 || s->acc[i].line < line))
			line = s->acc[i].line;
	if (n)
		px_rule_report(c, r, line, 0, "per-thread array in local memory (%llu bytes), indexed by a "
		               "value that varies at run time (%u access%s)",
		               (unsigned long long)k->local_bytes, n, n == 1 ? "" : "es");
	else
		px_rule_report(c, r, line, 0, "per-thread array in local memory (%llu bytes)",
		               (unsigned long long)k->local_bytes);
}
