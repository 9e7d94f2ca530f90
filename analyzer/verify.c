/* verify.c: px_ir_verify, the IR invariant checker run between passes in
 * debug builds.
 *
 * Approach: one check function per pass, each run when that pass is in
 * passes_done, each adding an error diagnostic "internal: ..." (at the
 * function's line) per broken invariant and stopping the checks that would
 * rely on it. Dominance questions use intervals of a depth-first walk of the
 * (post-)dominator tree, so the whole check stays linear in the IR size
 * (apart from the duplicate-edge test, linear in each block's degree). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

struct vctx {
	const struct px_module *m;
	const struct px_func *f;
	struct px_diags *diags;
	bool ok;
};

static void fail(struct vctx *v, const char *fmt, ...) PX_PRINTF(2, 3);
static void fail(struct vctx *v, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	px_diag_add(v->diags, PX_ERROR, v->m->path, v->f->line, v->f->col, NULL,
	            "internal: %.*s: %s", (int)v->f->name.n, v->f->name.p, buf);
	v->ok = false;
}

static bool check_operand(struct vctx *v, const struct px_operand *o, uint32_t i)
{
	if ((o->kind == PX_OPND_REG || o->kind == PX_OPND_ADDR) &&
	    o->reg >= 0 && (uint32_t)o->reg >= v->f->nregs) {
		fail(v, "instruction %u: register id %d >= nregs %u", i, o->reg, v->f->nregs);
		return false;
	}
	if (o->kind == PX_OPND_REG && o->reg < 0) {
		fail(v, "instruction %u: register operand without an id", i);
		return false;
	}
	if (o->kind == PX_OPND_VEC || o->kind == PX_OPND_LIST)
		for (uint32_t k = 0; k < o->nelems; k++)
			if (!check_operand(v, &o->elems[k], i))
				return false;
	return true;
}

/* The parser's invariants. */
static void check_parse(struct vctx *v)
{
	const struct px_func *f = v->f;
	for (uint32_t i = 0; i < f->ninsns && v->ok; i++) {
		const struct px_insn *in = &f->insns[i];
		if (in->guard >= 0 && (uint32_t)in->guard >= f->nregs)
			fail(v, "instruction %u: guard id %d >= nregs %u", i, in->guard, f->nregs);
		if (in->nopnds && !in->opnds)
			fail(v, "instruction %u: %u operands but no array", i, in->nopnds);
		for (uint32_t k = 0; k < in->nopnds && v->ok; k++)
			check_operand(v, &in->opnds[k], i);
	}
	for (uint32_t i = 0; i < f->nlabels; i++)
		if (f->labels[i].insn > f->ninsns)
			fail(v, "label " PX_STR_FMT " at instruction %u > ninsns %u",
			     PX_STR_ARG(f->labels[i].name), f->labels[i].insn, f->ninsns);
}

static bool has_edge(const uint32_t *list, uint32_t n, uint32_t x)
{
	for (uint32_t i = 0; i < n; i++)
		if (list[i] == x)
			return true;
	return false;
}

static void check_cfg(struct vctx *v)
{
	const struct px_func *f = v->f;
	uint32_t n = f->nblocks;
	if (n == 0 || !f->blocks) {
		fail(v, "no blocks");
		return;
	}
	if (f->blocks[0].first != 0 || f->blocks[n - 1].end != f->ninsns) {
		fail(v, "blocks do not cover instructions [0, %u)", f->ninsns);
		return;
	}
	for (uint32_t b = 0; b < n; b++) {
		const struct px_block *bl = &f->blocks[b];
		if (bl->first > bl->end || (b + 1 < n && bl->end != f->blocks[b + 1].first)) {
			fail(v, "b%u: range [%u, %u) does not meet the next block", b, bl->first, bl->end);
			return;
		}
		for (uint32_t i = bl->first; i < bl->end; i++)
			if (f->insns[i].block != b) {
				fail(v, "instruction %u: block %u, but it lies in b%u", i, f->insns[i].block, b);
				return;
			}
		for (uint32_t e = 0; e < bl->nsuccs; e++) {
			uint32_t s = bl->succs[e];
			if (s >= n) {
				fail(v, "b%u: successor %u out of range", b, s);
				return;
			}
			if (has_edge(bl->succs, e, s))
				fail(v, "b%u: successor b%u listed twice", b, s);
			if (!has_edge(f->blocks[s].preds, f->blocks[s].npreds, b))
				fail(v, "b%u -> b%u: missing from b%u's predecessors", b, s, s);
		}
		for (uint32_t e = 0; e < bl->npreds; e++) {
			uint32_t p = bl->preds[e];
			if (p >= n) {
				fail(v, "b%u: predecessor %u out of range", b, p);
				return;
			}
			if (!has_edge(f->blocks[p].succs, f->blocks[p].nsuccs, b))
				fail(v, "b%u <- b%u: missing from b%u's successors", b, p, p);
		}
	}
	/* reachability and rpo */
	if (!f->blocks[0].reachable || f->blocks[0].rpo != 0)
		fail(v, "entry block not reachable or not first in RPO");
	if (f->nrpo > n) {
		fail(v, "nrpo %u > nblocks %u", f->nrpo, n);
		return;
	}
	uint32_t nreach = 0;
	for (uint32_t b = 0; b < n; b++) {
		const struct px_block *bl = &f->blocks[b];
		if (bl->reachable != (bl->rpo != UINT32_MAX))
			fail(v, "b%u: reachable and rpo disagree", b);
		if (!bl->reachable)
			continue;
		nreach++;
		if (bl->rpo >= f->nrpo || f->rpo_order[bl->rpo] != b)
			fail(v, "b%u: rpo %u does not match rpo_order", b, bl->rpo);
		for (uint32_t e = 0; e < bl->nsuccs; e++)
			if (!f->blocks[bl->succs[e]].reachable)
				fail(v, "b%u reachable but its successor b%u is not", b, bl->succs[e]);
	}
	if (nreach != f->nrpo)
		fail(v, "%u reachable blocks but nrpo %u", nreach, f->nrpo);
	for (uint32_t i = 0; i < f->ncallees; i++)
		if (f->callees[i] >= v->m->nfuncs || (i && f->callees[i - 1] >= f->callees[i]))
			fail(v, "callees not sorted, unique module function indices");
}

/* Interval numbering of a tree given by parent[] over n nodes (parent of
 * root = root, UINT32_MAX = not in the tree). Fills pre/post; a node not
 * reached from root keeps UINT32_MAX (a cycle in parent[]). */
static void tree_intervals(uint32_t n, uint32_t root, const uint32_t *parent,
                           uint32_t *pre, uint32_t *post)
{
	uint32_t *coff = xcalloc(n + 2, sizeof *coff);
	uint32_t *child = xmalloc((n + 1) * sizeof *child);
	for (uint32_t v = 0; v < n; v++) {
		pre[v] = post[v] = UINT32_MAX;
		if (v != root && parent[v] < n)
			coff[parent[v] + 1]++;
	}
	for (uint32_t v = 0; v < n; v++)
		coff[v + 1] += coff[v];
	uint32_t *next = xmalloc((n + 1) * sizeof *next);
	memcpy(next, coff, n * sizeof *next);
	for (uint32_t v = 0; v < n; v++)
		if (v != root && parent[v] < n)
			child[next[parent[v]]++] = v;
	memcpy(next, coff, n * sizeof *next);
	uint32_t *stack = xmalloc((n + 1) * sizeof *stack);
	uint32_t sp = 0, clock = 0;
	stack[sp++] = root;
	pre[root] = clock++;
	while (sp) {
		uint32_t x = stack[sp - 1];
		if (next[x] < coff[x + 1]) {
			uint32_t c = child[next[x]++];
			if (pre[c] == UINT32_MAX) {
				pre[c] = clock++;
				stack[sp++] = c;
			}
		} else {
			post[x] = clock++;
			sp--;
		}
	}
	free(coff);
	free(child);
	free(next);
	free(stack);
}

static bool within(const uint32_t *pre, const uint32_t *post, uint32_t a, uint32_t b)
{
	return pre[a] != UINT32_MAX && pre[b] != UINT32_MAX &&
	       pre[a] <= pre[b] && post[b] <= post[a];
}

static void check_dom(struct vctx *v)
{
	const struct px_func *f = v->f;
	uint32_t n = f->nblocks;
	uint32_t *par = xmalloc(n * sizeof *par), *pre = xmalloc(n * sizeof *pre),
	         *post = xmalloc(n * sizeof *post);
	if (f->blocks[0].idom != 0)
		fail(v, "entry idom is b%u, not itself", f->blocks[0].idom);
	for (uint32_t b = 0; b < n; b++) {
		const struct px_block *bl = &f->blocks[b];
		par[b] = bl->idom;
		if (!bl->reachable && bl->idom != UINT32_MAX)
			fail(v, "unreachable b%u has idom b%u", b, bl->idom);
		if (bl->reachable && b != 0 &&
		    (bl->idom >= n || !f->blocks[bl->idom].reachable ||
		     f->blocks[bl->idom].rpo >= bl->rpo))
			fail(v, "b%u: idom %u is not an earlier reachable block", b, bl->idom);
	}
	if (v->ok) {
		tree_intervals(n, 0, par, pre, post);
		for (uint32_t b = 0; b < n && v->ok; b++) {
			const struct px_block *bl = &f->blocks[b];
			if (!bl->reachable)
				continue;
			if (pre[b] == UINT32_MAX) {
				fail(v, "b%u: not in the dominator tree", b);
				break;
			}
			/* idom(b) dominates every reachable predecessor of b */
			for (uint32_t e = 0; b != 0 && e < bl->npreds; e++) {
				uint32_t p = bl->preds[e];
				if (f->blocks[p].reachable && !within(pre, post, bl->idom, p))
					fail(v, "b%u: idom b%u does not dominate predecessor b%u", b, bl->idom, p);
			}
		}
	}
	free(par);
	free(pre);
	free(post);
}

static void check_postdom(struct vctx *v)
{
	const struct px_func *f = v->f;
	uint32_t n = f->nblocks;
	if (f->exit_block != n) {
		fail(v, "exit_block %u != nblocks %u", f->exit_block, n);
		return;
	}
	uint32_t *par = xmalloc((n + 1) * sizeof *par), *pre = xmalloc((n + 1) * sizeof *pre),
	         *post = xmalloc((n + 1) * sizeof *post);
	for (uint32_t b = 0; b < n; b++) {
		const struct px_block *bl = &f->blocks[b];
		par[b] = bl->ipdom;
		if (bl->ipdom > n || bl->ipdom == b)
			fail(v, "b%u: ipdom %u out of range", b, bl->ipdom);
		if (bl->nsuccs == 0 && bl->ipdom != n)
			fail(v, "b%u: no successors but ipdom is b%u, not the exit", b, bl->ipdom);
	}
	par[n] = n;
	if (v->ok) {
		tree_intervals(n + 1, n, par, pre, post);
		for (uint32_t b = 0; b < n && v->ok; b++) {
			const struct px_block *bl = &f->blocks[b];
			if (pre[b] == UINT32_MAX) {
				fail(v, "b%u: not in the post-dominator tree", b);
				break;
			}
			/* ipdom(b) post-dominates every successor of b */
			for (uint32_t e = 0; e < bl->nsuccs; e++)
				if (!within(pre, post, bl->ipdom, bl->succs[e]))
					fail(v, "b%u: ipdom %u does not post-dominate successor b%u",
					     b, bl->ipdom, bl->succs[e]);
		}
	}
	free(par);
	free(pre);
	free(post);
}

static void check_loops(struct vctx *v)
{
	const struct px_func *f = v->f;
	uint32_t n = f->nblocks;
	uint32_t *par = xmalloc(n * sizeof *par), *pre = xmalloc(n * sizeof *pre),
	         *post = xmalloc(n * sizeof *post);
	for (uint32_t b = 0; b < n; b++)
		par[b] = f->blocks[b].idom;
	tree_intervals(n, 0, par, pre, post);
	for (uint32_t l = 0; l < f->nloops && v->ok; l++) {
		const struct px_loop *L = &f->loops[l];
		if (L->header >= n || L->nblocks == 0) {
			fail(v, "loop %u: bad header or empty", l);
			break;
		}
		bool has_header = false;
		for (uint32_t i = 0; i < L->nblocks; i++) {
			uint32_t b = L->blocks[i];
			if (b >= n || (i && L->blocks[i - 1] >= b)) {
				fail(v, "loop %u: blocks not sorted, in range", l);
				break;
			}
			has_header |= b == L->header;
			if (!within(pre, post, L->header, b))
				fail(v, "loop %u: header b%u does not dominate b%u", l, L->header, b);
			int32_t in = f->blocks[b].loop;
			if (in < (int32_t)l)
				fail(v, "loop %u: b%u's innermost loop is %d", l, b, in);
		}
		if (!has_header)
			fail(v, "loop %u: header b%u not among its blocks", l, L->header);
		if (L->nlatches == 0)
			fail(v, "loop %u: no latch", l);
		for (uint32_t i = 0; i < L->nlatches; i++)
			if (L->latches[i] >= n ||
			    !has_edge(f->blocks[L->latches[i]].succs, f->blocks[L->latches[i]].nsuccs, L->header))
				fail(v, "loop %u: latch %u has no edge to the header", l, L->latches[i]);
		for (uint32_t i = 0; i < L->nexits; i++) {
			uint32_t x = L->exits[i];
			if (x >= n || f->blocks[x].loop == (int32_t)l)
				fail(v, "loop %u: exit %u inside the loop", l, x);
		}
		if (L->parent >= (int32_t)l ||
		    (L->parent < 0 ? L->depth != 1 : L->depth != f->loops[L->parent].depth + 1))
			fail(v, "loop %u: parent %d / depth %u inconsistent", l, L->parent, L->depth);
	}
	free(par);
	free(pre);
	free(post);
}

static void check_live(struct vctx *v)
{
	const struct px_func *f = v->f;
	uint32_t W = f->live_words, n = f->nlive_regs;
	if (f->nblocks && (!f->live_bit || !f->live_reg || W != (n + 63) / 64 || n > f->nregs)) {
		fail(v, "no live set numbering");
		return;
	}
	for (uint32_t k = 0; k < n && v->ok; k++)
		if (f->live_reg[k] >= f->nregs || f->live_bit[f->live_reg[k]] != (int32_t)k ||
		    (k && f->live_reg[k] <= f->live_reg[k - 1]))
			fail(v, "live bit %u: register %u out of order or unnumbered", k, f->live_reg[k]);
	for (uint32_t b = 0; b < f->nblocks && v->ok; b++) {
		const struct px_block *bl = &f->blocks[b];
		if (!bl->live_in || !bl->live_out) {
			fail(v, "b%u: no live sets", b);
			break;
		}
		if (n % 64 && W && ((bl->live_in[W - 1] | bl->live_out[W - 1]) >> (n % 64)))
			fail(v, "b%u: live bits beyond the live registers", b);
		/* live_out(b) is covered by the successors' live_in */
		for (uint32_t w = 0; w < W; w++) {
			uint64_t cover = 0;
			for (uint32_t e = 0; e < bl->nsuccs; e++)
				cover |= f->blocks[bl->succs[e]].live_in[w];
			if (bl->live_out[w] & ~cover) {
				fail(v, "b%u: live out but live into no successor (word %u)", b, w);
				break;
			}
		}
	}
	if (f->ninsns && f->max_live_insn >= f->ninsns && f->max_live)
		fail(v, "max_live_insn %u out of range", f->max_live_insn);
}

/* Requires: m and f as the parser made them, plus the passes in
 * passes_done (enum px_pass bits). Adds one "internal:" error per broken
 * invariant. Returns true when everything holds. */
bool px_ir_verify(const struct px_module *m, const struct px_func *f,
                  unsigned passes_done, struct px_diags *diags)
{
	struct vctx v = {m, f, diags, true};
	check_parse(&v);
	if (!v.ok || !(passes_done & PX_PASS_CFG))
		return v.ok;
	check_cfg(&v);
	if (v.ok && (passes_done & PX_PASS_DOM))
		check_dom(&v);
	if (v.ok && (passes_done & PX_PASS_POSTDOM))
		check_postdom(&v);
	if (v.ok && (passes_done & PX_PASS_LOOPS) && (passes_done & PX_PASS_DOM))
		check_loops(&v);
	if (v.ok && (passes_done & PX_PASS_LIVE))
		check_live(&v);
	return v.ok;
}
