/* check_simt.c: the verifier rules: what the SIMT simulation of a kernel
 * (lint_simt.c, analyzer/simt) found, as findings. The verifier's kinds map
 * onto rules by id, except shared-race between lanes of one warp, which is
 * warp-sync-missing.
 *
 * Each check reads the kernel's simulation result (c->sim) and reports the
 * violations of its kind that were found on concrete values (not after the
 * unknown-value policy guessed); the message is the simulator's, naming the
 * threads and both lines with their source location, plus the block it
 * simulated. divergent-barrier, shuffle-mask and warp-sync-missing have static checks
 * (check_code.c) that these results strengthen: a static finding the
 * simulation reproduces says so with the threads, and a simulated one the
 * static analysis could not decide is reported alone. */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "simt/simt.h"

/* Does v, found on concrete values, belong to the rule (or verifier kind)
 * id? Races between lanes of one warp are warp-sync-missing's concern,
 * races between warps shared-race's. */
static bool kind_is(const struct px_simt_violation *v, const char *id)
{
	if (v->guessed)
		return false;
	if (v->kind == PX_V_SHARED_RACE)
		return strcmp(id, v->same_warp ? "warp-sync-missing" : "shared-race") == 0;
	return strcmp(px_simt_kind_name(v->kind), id) == 0;
}

/* The simulator's message, the block, and the source location where the
 * message names no lines of its own. */
static void report(struct px_rule_ctx *c, const struct px_rule *r, const struct px_simt_result *s,
                   const struct px_simt_violation *v)
{
	const char *src = v->source_file && v->loc_line && !v->other_line ? v->source_file : NULL;
	const char *base = src ? strrchr(src, '/') : NULL;
	base = base ? base + 1 : src;
	if (base)
		px_rule_report(c, r, v->line, v->col, "%s (simulated, block %ux%ux%u; at %s:%u)", v->message,
		               s->block[0], s->block[1], s->block[2], base, v->loc_line);
	else
		px_rule_report(c, r, v->line, v->col, "%s (simulated, block %ux%ux%u)", v->message, s->block[0],
		               s->block[1], s->block[2]);
}

void px_check_simulated(struct px_rule_ctx *c, const struct px_rule *r)
{
	const struct px_simt_result *s = c->sim;
	if (!c->first || !s)
		return;
	for (uint32_t i = 0; i < s->nviol; i++) {
		const struct px_simt_violation *v = &s->viol[i];
		if (kind_is(v, r->id))
			report(c, r, s, v);
	}
}

const char *px_check_sim_proof(const struct px_rule_ctx *c, const char *kind, uint32_t line)
{
	const struct px_simt_result *s = c->sim;
	for (uint32_t i = 0; s && i < s->nviol; i++)
		if (s->viol[i].line == line && kind_is(&s->viol[i], kind))
			return s->viol[i].message;
	return NULL;
}

void px_check_sim_rest(struct px_rule_ctx *c, const struct px_rule *r, const char *kind,
                       const uint32_t *lines, uint32_t nlines)
{
	const struct px_simt_result *s = c->sim;
	if (!c->first || !s)
		return;
	for (uint32_t i = 0; i < s->nviol; i++) {
		const struct px_simt_violation *v = &s->viol[i];
		bool reported = false;
		for (uint32_t k = 0; k < nlines && !reported; k++)
			reported = lines[k] == v->line;
		if (!reported && kind_is(v, kind))
			report(c, r, s, v);
	}
}
