/* pass_dom.c: fill_dom and fill_postdom, immediate dominators and
 * immediate post-dominators of every block.
 *
 * Approach: Cooper, Harvey and Kennedy, "A Simple, Fast Dominance
 * Algorithm" (2001): iterate idom[v] = intersect of the processed
 * predecessors' idoms over a reverse post-order until nothing changes,
 * walking up the partial tree by post-order numbers. One routine, chk(),
 * serves both passes; it takes the graph as two compressed adjacency
 * arrays (successors for the depth-first order, predecessors for the
 * meet), so post-dominators are dominators of the reversed graph.
 *
 * Policies:
 *  - dominators: the entry is its own idom; blocks unreachable from the
 *    entry get idom = UINT32_MAX (they are dominated by nothing).
 *  - post-dominators: a virtual exit node, numbered nblocks, succeeds every
 *    block without successors (ret, exit, trap, or falling off the end) and
 *    every block ending in a guarded ret/exit/trap (which may leave the
 *    function as well as fall through).
 *    Blocks that still cannot reach the exit (infinite loops) are linked to
 *    it too: taking blocks in decreasing index order, each one that cannot
 *    yet reach the exit gets a virtual edge to it (exit_virtual = true), and
 *    everything that reaches that block is then marked as reaching the
 *    exit. The highest-numbered block of a `for (;;)` loop is normally its
 *    latch, so the loop's latch post-dominates its body. Every block,
 *    reachable from the entry or not, thus has an ipdom (nblocks = the
 *    virtual exit); the virtual exit's own ipdom is not stored.
 *
 * Cost: near-linear in blocks + edges for CFGs from structured code (the
 * iteration converges in a few rounds over an RPO). */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

struct graph {
	uint32_t n;
	uint32_t *soff, *succ;   /* successors of v: succ[soff[v] .. soff[v+1]) */
	uint32_t *poff, *pred;   /* predecessors likewise */
};

static void graph_free(struct graph *g)
{
	free(g->soff);
	free(g->succ);
	free(g->poff);
	free(g->pred);
}

/* Requires: g with node root. Fills idom[v] for every v (UINT32_MAX for
 * nodes unreachable from root; idom[root] = root). */
static void chk(const struct graph *g, uint32_t root, uint32_t *idom)
{
	uint32_t n = g->n;
	uint32_t *num = xmalloc(n * sizeof *num);     /* post-order number */
	uint32_t *order = xmalloc(n * sizeof *order); /* nodes in post-order */
	uint32_t *stack = xmalloc(n * sizeof *stack);
	uint32_t *next = xmalloc(n * sizeof *next);
	uint32_t sp = 0, np = 0;
	for (uint32_t v = 0; v < n; v++) {
		num[v] = UINT32_MAX;
		idom[v] = UINT32_MAX;
		next[v] = g->soff[v];
	}
	/* iterative DFS; num[] doubles as "seen" (UINT32_MAX - 1 = on stack) */
	stack[sp++] = root;
	num[root] = UINT32_MAX - 1;
	while (sp) {
		uint32_t v = stack[sp - 1];
		if (next[v] < g->soff[v + 1]) {
			uint32_t s = g->succ[next[v]++];
			if (num[s] == UINT32_MAX) {
				num[s] = UINT32_MAX - 1;
				stack[sp++] = s;
			}
		} else {
			num[v] = np;
			order[np++] = v;
			sp--;
		}
	}
	idom[root] = root;
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t k = np - 1; k-- > 0;) {  /* reverse post-order, root excluded */
			uint32_t v = order[k];
			uint32_t nd = UINT32_MAX;
			for (uint32_t e = g->poff[v]; e < g->poff[v + 1]; e++) {
				uint32_t p = g->pred[e];
				if (idom[p] == UINT32_MAX)
					continue;  /* unprocessed or unreachable */
				if (nd == UINT32_MAX) {
					nd = p;
					continue;
				}
				uint32_t a = p, b = nd;
				while (a != b) {
					while (num[a] < num[b])
						a = idom[a];
					while (num[b] < num[a])
						b = idom[b];
				}
				nd = a;
			}
			if (idom[v] != nd) {
				idom[v] = nd;
				changed = true;
			}
		}
	}
	free(num);
	free(order);
	free(stack);
	free(next);
}

/* Requires: fill_cfg. Fills block->idom. */
void fill_dom(struct px_module *m, struct px_func *f)
{
	(void)m;
	uint32_t n = f->nblocks;
	if (n == 0)
		return;
	struct graph g = {n, NULL, NULL, NULL, NULL};
	g.soff = xmalloc((n + 1) * sizeof *g.soff);
	g.poff = xmalloc((n + 1) * sizeof *g.poff);
	uint32_t ns = 0, npr = 0;
	for (uint32_t b = 0; b < n; b++) {
		ns += f->blocks[b].nsuccs;
		npr += f->blocks[b].npreds;
	}
	g.succ = xmalloc((ns + 1) * sizeof *g.succ);
	g.pred = xmalloc((npr + 1) * sizeof *g.pred);
	ns = npr = 0;
	for (uint32_t b = 0; b < n; b++) {
		const struct px_block *bl = &f->blocks[b];
		g.soff[b] = ns;
		g.poff[b] = npr;
		memcpy(g.succ + ns, bl->succs, bl->nsuccs * sizeof *g.succ);
		memcpy(g.pred + npr, bl->preds, bl->npreds * sizeof *g.pred);
		ns += bl->nsuccs;
		npr += bl->npreds;
	}
	g.soff[n] = ns;
	g.poff[n] = npr;
	uint32_t *idom = xmalloc(n * sizeof *idom);
	chk(&g, 0, idom);
	for (uint32_t b = 0; b < n; b++)
		f->blocks[b].idom = idom[b];
	free(idom);
	graph_free(&g);
}

/* Marks every block that reaches `from` (following predecessors). */
static void mark_reaching(const struct px_func *f, uint32_t from, bool *mark,
                          uint32_t *stack)
{
	uint32_t sp = 0;
	if (mark[from])
		return;
	mark[from] = true;
	stack[sp++] = from;
	while (sp) {
		const struct px_block *bl = &f->blocks[stack[--sp]];
		for (uint32_t e = 0; e < bl->npreds; e++)
			if (!mark[bl->preds[e]]) {
				mark[bl->preds[e]] = true;
				stack[sp++] = bl->preds[e];
			}
	}
}

/* A block ending in `@p ret` (exit, trap) may leave the function: it is
 * linked to the virtual exit besides falling through. */
static bool ends_in_guarded_exit(const struct px_func *f, const struct px_block *bl)
{
	if (bl->end == bl->first)
		return false;
	const struct px_insn *last = &f->insns[bl->end - 1];
	return last->guard >= 0 && (px_opcode_flags((enum px_opcode)last->op) & PX_OPF_TERM);
}

/* Requires: fill_cfg. Fills block->ipdom, block->exit_virtual and
 * f->exit_block (see the policy above). */
void fill_postdom(struct px_module *m, struct px_func *f)
{
	(void)m;
	uint32_t n = f->nblocks;
	f->exit_block = n;
	if (n == 0)
		return;
	bool *linked = xcalloc(n, sizeof *linked);
	bool *reaches = xcalloc(n, sizeof *reaches);
	uint32_t *stack = xmalloc(n * sizeof *stack);
	for (uint32_t b = 0; b < n; b++) {
		f->blocks[b].exit_virtual = false;
		if (f->blocks[b].nsuccs == 0 || ends_in_guarded_exit(f, &f->blocks[b])) {
			linked[b] = true;
			mark_reaching(f, b, reaches, stack);
		}
	}
	for (uint32_t b = n; b-- > 0;)
		if (!reaches[b]) {
			linked[b] = true;
			f->blocks[b].exit_virtual = true;
			mark_reaching(f, b, reaches, stack);
		}

	/* the reversed graph, n + 1 nodes, root n */
	struct graph g = {n + 1, NULL, NULL, NULL, NULL};
	uint32_t ne = 0, nl = 0;
	for (uint32_t b = 0; b < n; b++) {
		ne += f->blocks[b].nsuccs;
		nl += linked[b];
	}
	g.soff = xmalloc((n + 2) * sizeof *g.soff);
	g.poff = xmalloc((n + 2) * sizeof *g.poff);
	g.succ = xmalloc((ne + nl + 1) * sizeof *g.succ);
	g.pred = xmalloc((ne + nl + 1) * sizeof *g.pred);
	uint32_t ns = 0, npr = 0;
	for (uint32_t b = 0; b < n; b++) {
		const struct px_block *bl = &f->blocks[b];
		g.soff[b] = ns;
		memcpy(g.succ + ns, bl->preds, bl->npreds * sizeof *g.succ);
		ns += bl->npreds;
		g.poff[b] = npr;
		memcpy(g.pred + npr, bl->succs, bl->nsuccs * sizeof *g.pred);
		npr += bl->nsuccs;
		if (linked[b])
			g.pred[npr++] = n;
	}
	g.soff[n] = ns;
	for (uint32_t b = 0; b < n; b++)
		if (linked[b])
			g.succ[ns++] = b;
	g.soff[n + 1] = ns;
	g.poff[n] = npr;
	g.poff[n + 1] = npr;

	uint32_t *ipdom = xmalloc((n + 1) * sizeof *ipdom);
	chk(&g, n, ipdom);
	for (uint32_t b = 0; b < n; b++)
		f->blocks[b].ipdom = ipdom[b];
	free(ipdom);
	graph_free(&g);
	free(linked);
	free(reaches);
	free(stack);
}
