/* pass_loops.c: fill_loops, the natural loops of a function and their
 * nesting.
 *
 * Approach: number the dominator tree by a depth-first walk (pre/post
 * intervals), so "h dominates u" is an O(1) interval test. A back edge is
 * an edge u -> h between reachable blocks where h dominates u. All back
 * edges into one header make one loop; its body is the header plus every
 * block that reaches a latch backwards without passing through the header.
 * Headers are taken in reverse post-order, so an enclosing loop (whose
 * header dominates the inner header) always comes before the loops it
 * contains: loops[] is sorted by header RPO, parent < child. Assigning
 * block->loop in that order leaves each block with its innermost loop, and
 * the loop recorded at a header just before its own loop is assigned is the
 * parent.
 *
 * Irreducible control flow: a retreating edge (u -> h with rpo[h] <= rpo[u])
 * whose target does not dominate its source enters a cycle with more than
 * one entry. No loop is made for it; f->irreducible is set. Cycles that are
 * irreducible are therefore not reported as loops (their blocks keep the
 * loop of any natural loop around them).
 *
 * Cost: linear in blocks + edges, plus the sizes of the loop bodies (a
 * block is visited once per loop containing it) and the sort of each body. */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

struct domtree {
	uint32_t *pre, *post;  /* DFS interval of each reachable block */
};

/* Requires: fill_dom. Fills t with dominator-tree intervals. */
static void domtree_build(const struct px_func *f, struct domtree *t)
{
	uint32_t n = f->nblocks;
	uint32_t *coff = xcalloc(n + 1, sizeof *coff);
	uint32_t *child = xmalloc((n ? n : 1) * sizeof *child);
	t->pre = xmalloc(n * sizeof *t->pre);
	t->post = xmalloc(n * sizeof *t->post);
	for (uint32_t b = 0; b < n; b++) {
		t->pre[b] = t->post[b] = UINT32_MAX;
		uint32_t d = f->blocks[b].idom;
		if (b != 0 && d < n)
			coff[d + 1]++;
	}
	for (uint32_t b = 0; b < n; b++)
		coff[b + 1] += coff[b];
	uint32_t *fill = xmalloc((n + 1) * sizeof *fill);
	memcpy(fill, coff, (n + 1) * sizeof *fill);
	for (uint32_t b = 1; b < n; b++) {
		uint32_t d = f->blocks[b].idom;
		if (d < n)
			child[fill[d]++] = b;
	}
	uint32_t *stack = xmalloc(n * sizeof *stack);
	uint32_t *next = xmalloc(n * sizeof *next);
	uint32_t sp = 0, clock = 0;
	memcpy(next, coff, n * sizeof *next);
	stack[sp++] = 0;
	t->pre[0] = clock++;
	while (sp) {
		uint32_t v = stack[sp - 1];
		if (next[v] < coff[v + 1]) {
			uint32_t c = child[next[v]++];
			if (t->pre[c] == UINT32_MAX && sp < n) {
				t->pre[c] = clock++;
				stack[sp++] = c;
			}
		} else {
			t->post[v] = clock++;
			sp--;
		}
	}
	free(coff);
	free(child);
	free(fill);
	free(stack);
	free(next);
}

static bool dominates(const struct domtree *t, uint32_t a, uint32_t b)
{
	return t->pre[a] != UINT32_MAX && t->pre[b] != UINT32_MAX &&
	       t->pre[a] <= t->pre[b] && t->post[b] <= t->post[a];
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static uint32_t *arena_copy(struct px_arena *a, const uint32_t *p, uint32_t n)
{
	uint32_t *q = px_arena_alloc(a, (n ? n : 1) * sizeof *q);
	if (n)
		memcpy(q, p, n * sizeof *q);
	return q;
}

/* Requires: fill_cfg, fill_dom. Fills f->loops/nloops, f->irreducible and
 * block->loop. */
void fill_loops(struct px_module *m, struct px_func *f)
{
	uint32_t n = f->nblocks;
	f->loops = NULL;
	f->nloops = 0;
	f->irreducible = false;
	for (uint32_t b = 0; b < n; b++)
		f->blocks[b].loop = -1;
	if (n == 0)
		return;
	struct domtree t;
	domtree_build(f, &t);

	uint32_t *stamp = xcalloc(n, sizeof *stamp);     /* loop index + 1 of the body being built */
	uint32_t *xstamp = xcalloc(n, sizeof *xstamp);   /* same, for exits */
	uint32_t *stack = xmalloc(n * sizeof *stack);
	uint32_t *body = xmalloc(n * sizeof *body);
	uint32_t *lat = xmalloc(n * sizeof *lat);
	uint32_t *ex = NULL, nex = 0, capex = 0;
	uint32_t caploops = 0;

	for (uint32_t k = 0; k < f->nrpo; k++) {
		uint32_t h = f->rpo_order[k];
		const struct px_block *hb = &f->blocks[h];
		uint32_t nlat = 0;
		for (uint32_t e = 0; e < hb->npreds; e++) {
			uint32_t u = hb->preds[e];
			if (!f->blocks[u].reachable || f->blocks[u].rpo < hb->rpo)
				continue;  /* not a retreating edge */
			if (dominates(&t, h, u))
				lat[nlat++] = u;
			else
				f->irreducible = true;
		}
		if (nlat == 0)
			continue;

		uint32_t id = f->nloops + 1;
		uint32_t nbody = 0, sp = 0;
		stamp[h] = id;
		body[nbody++] = h;
		for (uint32_t i = 0; i < nlat; i++)
			if (stamp[lat[i]] != id) {
				stamp[lat[i]] = id;
				body[nbody++] = lat[i];
				stack[sp++] = lat[i];
			}
		while (sp) {
			const struct px_block *bl = &f->blocks[stack[--sp]];
			for (uint32_t e = 0; e < bl->npreds; e++) {
				uint32_t p = bl->preds[e];
				if (stamp[p] == id || !f->blocks[p].reachable)
					continue;
				stamp[p] = id;
				body[nbody++] = p;
				stack[sp++] = p;
			}
		}
		qsort(body, nbody, sizeof *body, cmp_u32);
		nex = 0;
		for (uint32_t i = 0; i < nbody; i++) {
			const struct px_block *bl = &f->blocks[body[i]];
			for (uint32_t e = 0; e < bl->nsuccs; e++) {
				uint32_t s = bl->succs[e];
				if (stamp[s] != id && xstamp[s] != id) {
					xstamp[s] = id;
					*PX_VEC_PUSH(ex, nex, capex) = s;
				}
			}
		}
		if (nex > 1)
			qsort(ex, nex, sizeof *ex, cmp_u32);

		if (f->nloops == caploops) {
			/* (PX_ARENA_PUSH reads and writes cap in one call: grown by hand) */
			uint32_t ncap = caploops ? 2 * caploops : 8;
			f->loops = px_arena_grow(px_func_arena(m, f), f->loops, caploops * sizeof *f->loops,
			                         ncap * sizeof *f->loops);
			caploops = ncap;
		}
		struct px_loop *L = &f->loops[f->nloops++];
		L->header = h;
		L->latches = arena_copy(px_func_arena(m, f), lat, nlat);  /* preds are sorted: so are latches */
		L->nlatches = nlat;
		L->blocks = arena_copy(px_func_arena(m, f), body, nbody);
		L->nblocks = nbody;
		L->exits = arena_copy(px_func_arena(m, f), ex, nex);
		L->nexits = nex;
		L->parent = f->blocks[h].loop;
		L->depth = L->parent < 0 ? 1 : f->loops[L->parent].depth + 1;
		for (uint32_t i = 0; i < nbody; i++)
			f->blocks[body[i]].loop = (int32_t)(f->nloops - 1);
	}
	free(stamp);
	free(xstamp);
	free(stack);
	free(body);
	free(lat);
	free(ex);
	free(t.pre);
	free(t.post);
}
