/* dump.c: the --dump=cfg,dom,postdom,loops,live text of each pass's state.
 *
 * Approach: one function per pass, each appending plain, deterministic text
 * for one function to a px_buf: a heading line naming the function and the
 * pass, then one indented line per block or loop. Blocks are "bN" (with the
 * label that starts them, if any), the virtual exit is "exit", PTX line
 * ranges are those of the first and last instruction, lists are space
 * separated and "-" when empty. Nothing here computes an analysis: a dump of
 * a pass that has not run says so. */
#include <stdlib.h>

#include "ir.h"

static void heading(struct px_buf *out, const struct px_func *f, const char *pass)
{
	px_buf_printf(out, "%s " PX_STR_FMT " (%s, line %u): ", pass, PX_STR_ARG(f->name),
	              f->is_entry ? ".entry" : ".func", f->line);
}

/* Label starting each block (first label at its first instruction), as
 * label indices + 1; the caller frees. */
static uint32_t *block_labels(const struct px_func *f)
{
	uint32_t *lab = xcalloc(f->nblocks + 1, sizeof *lab);
	uint32_t *at = xcalloc(f->ninsns + 1, sizeof *at);
	for (uint32_t i = f->nlabels; i-- > 0;)
		if (f->labels[i].insn <= f->ninsns)
			at[f->labels[i].insn] = i + 1;
	for (uint32_t b = 0; b < f->nblocks; b++)
		lab[b] = at[f->blocks[b].first];
	free(at);
	return lab;
}

static void block_list(struct px_buf *out, const uint32_t *l, uint32_t n, uint32_t exitb)
{
	if (n == 0)
		px_buf_puts(out, " -");
	for (uint32_t i = 0; i < n; i++) {
		if (l[i] == exitb)
			px_buf_puts(out, " exit");
		else
			px_buf_printf(out, " b%u", l[i]);
	}
}

static void block_name(struct px_buf *out, const struct px_func *f, uint32_t b,
                       const uint32_t *lab)
{
	px_buf_printf(out, "  b%u", b);
	if (lab && lab[b])
		px_buf_printf(out, " " PX_STR_FMT, PX_STR_ARG(f->labels[lab[b] - 1].name));
}

static void line_range(struct px_buf *out, const struct px_func *f, const struct px_block *bl)
{
	if (bl->end == bl->first)
		px_buf_puts(out, "  (empty)");
	else
		px_buf_printf(out, "  lines %u-%u (%u insns)", f->insns[bl->first].line,
		              f->insns[bl->end - 1].line, bl->end - bl->first);
}

static void one_ref(struct px_buf *out, const char *what, uint32_t b, uint32_t exitb)
{
	if (b == UINT32_MAX)
		px_buf_printf(out, "  %s -", what);
	else if (b == exitb)
		px_buf_printf(out, "  %s exit", what);
	else
		px_buf_printf(out, "  %s b%u", what, b);
}

/* Requires: fill_cfg (idom/ipdom printed when filled). */
void px_dump_callees(struct px_buf *out, const struct px_module *m, const struct px_func *f)
{
	heading(out, f, "callees");
	px_buf_printf(out, "%u direct", f->ncallees);
	for (uint32_t i = 0; i < f->ncallees; i++)
		px_buf_printf(out, " " PX_STR_FMT, PX_STR_ARG(m->funcs[f->callees[i]].name));
	if (f->has_indirect_call)
		px_buf_puts(out, ", indirect calls");
	px_buf_puts(out, "\n");
}

void px_dump_regs(struct px_buf *out, const struct px_module *m, const struct px_func *f)
{
	(void)m;
	heading(out, f, "regs");
	if (!f->estimated) {
		px_buf_puts(out, "not computed\n");
		return;
	}
	px_buf_printf(out, "reg_estimate %u, reg_demand %u, cap %u\n", f->reg_estimate,
	              f->reg_demand, px_reg_cap(f));
}

void px_dump_cfg(struct px_buf *out, const struct px_module *m, const struct px_func *f)
{
	heading(out, f, "cfg");
	if (!f->blocks) {
		px_buf_puts(out, "not computed\n");
		return;
	}
	px_buf_printf(out, "%u blocks, %u instructions", f->nblocks, f->ninsns);
	if (f->ncallees) {
		px_buf_puts(out, ", calls");
		for (uint32_t i = 0; i < f->ncallees; i++)
			px_buf_printf(out, " " PX_STR_FMT, PX_STR_ARG(m->funcs[f->callees[i]].name));
	}
	if (f->has_indirect_call)
		px_buf_puts(out, ", indirect calls");
	px_buf_puts(out, "\n");
	uint32_t *lab = block_labels(f);
	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct px_block *bl = &f->blocks[b];
		block_name(out, f, b, lab);
		line_range(out, f, bl);
		px_buf_puts(out, "  succs");
		block_list(out, bl->succs, bl->nsuccs, UINT32_MAX);
		px_buf_puts(out, "  preds");
		block_list(out, bl->preds, bl->npreds, UINT32_MAX);
		one_ref(out, "idom", bl->idom, UINT32_MAX);
		one_ref(out, "ipdom", bl->ipdom, f->nblocks);
		if (!bl->reachable)
			px_buf_puts(out, "  unreachable");
		px_buf_puts(out, "\n");
	}
	free(lab);
}

/* Children of each node in a tree given per block by parent(b) (n blocks,
 * plus the virtual exit n when with_exit); prints one line per node. */
static void dump_tree(struct px_buf *out, const struct px_func *f, bool post)
{
	uint32_t n = f->nblocks, nn = n + 1;
	uint32_t *coff = xcalloc(nn + 1, sizeof *coff);
	uint32_t *child = xmalloc(nn * sizeof *child);
	for (uint32_t b = 0; b < n; b++) {
		uint32_t p = post ? f->blocks[b].ipdom : f->blocks[b].idom;
		if (p < nn && p != b)
			coff[p + 1]++;
	}
	for (uint32_t v = 0; v < nn; v++)
		coff[v + 1] += coff[v];
	uint32_t *fill = xmalloc((nn + 1) * sizeof *fill);
	for (uint32_t v = 0; v <= nn; v++)
		fill[v] = coff[v];
	for (uint32_t b = 0; b < n; b++) {
		uint32_t p = post ? f->blocks[b].ipdom : f->blocks[b].idom;
		if (p < nn && p != b)
			child[fill[p]++] = b;
	}
	if (post) {
		px_buf_puts(out, "  exit  children");
		block_list(out, child + coff[n], coff[n + 1] - coff[n], n);
		px_buf_puts(out, "\n");
	}
	for (uint32_t b = 0; b < n; b++) {
		const struct px_block *bl = &f->blocks[b];
		px_buf_printf(out, "  b%u", b);
		one_ref(out, post ? "ipdom" : "idom", post ? bl->ipdom : bl->idom, post ? n : UINT32_MAX);
		px_buf_puts(out, "  children");
		block_list(out, child + coff[b], coff[b + 1] - coff[b], n);
		if (post && bl->exit_virtual)
			px_buf_puts(out, "  (virtual edge to exit)");
		if (!bl->reachable)
			px_buf_puts(out, "  unreachable");
		px_buf_puts(out, "\n");
	}
	free(coff);
	free(child);
	free(fill);
}

/* Requires: fill_dom. */
void px_dump_dom(struct px_buf *out, const struct px_module *m, const struct px_func *f)
{
	(void)m;
	heading(out, f, "dom");
	if (!f->blocks || (f->nblocks && f->blocks[0].idom != 0)) {
		px_buf_puts(out, "not computed\n");
		return;
	}
	px_buf_printf(out, "dominator tree of %u blocks\n", f->nblocks);
	dump_tree(out, f, false);
}

/* Requires: fill_postdom. */
void px_dump_postdom(struct px_buf *out, const struct px_module *m, const struct px_func *f)
{
	(void)m;
	heading(out, f, "postdom");
	if (!f->blocks || (f->nblocks && f->blocks[0].ipdom == UINT32_MAX)) {
		px_buf_puts(out, "not computed\n");
		return;
	}
	px_buf_printf(out, "post-dominator tree of %u blocks, virtual exit\n", f->nblocks);
	dump_tree(out, f, true);
}

/* Requires: fill_loops. */
void px_dump_loops(struct px_buf *out, const struct px_module *m, const struct px_func *f)
{
	(void)m;
	heading(out, f, "loops");
	if (!f->blocks) {
		px_buf_puts(out, "not computed\n");
		return;
	}
	px_buf_printf(out, "%u loops%s\n", f->nloops,
	              f->irreducible ? ", irreducible control flow (not reported as loops)" : "");
	for (uint32_t l = 0; l < f->nloops; l++) {
		const struct px_loop *L = &f->loops[l];
		const struct px_block *h = &f->blocks[L->header];
		px_buf_printf(out, "  loop %u  header b%u (line %u)  depth %u  parent ", l, L->header,
		              h->end > h->first ? f->insns[h->first].line : 0, L->depth);
		if (L->parent < 0)
			px_buf_puts(out, "-");
		else
			px_buf_printf(out, "%d", L->parent);
		px_buf_puts(out, "\n    latches");
		block_list(out, L->latches, L->nlatches, UINT32_MAX);
		px_buf_puts(out, "\n    blocks");
		block_list(out, L->blocks, L->nblocks, UINT32_MAX);
		px_buf_puts(out, "\n    exits");
		block_list(out, L->exits, L->nexits, UINT32_MAX);
		px_buf_puts(out, "\n");
	}
}

static void reg_set(struct px_buf *out, const struct px_func *f, const uint64_t *s)
{
	bool any = false;
	for (uint32_t k = 0; k < f->nlive_regs; k++)
		if ((s[k >> 6] >> (k & 63)) & 1) {
			px_buf_printf(out, " " PX_STR_FMT, PX_STR_ARG(f->regs[f->live_reg[k]].name));
			any = true;
		}
	if (!any)
		px_buf_puts(out, " -");
}

/* Requires: fill_live. */
void px_dump_live(struct px_buf *out, const struct px_module *m, const struct px_func *f)
{
	(void)m;
	heading(out, f, "live");
	if (!f->blocks || (f->nblocks && !f->blocks[0].live_in)) {
		px_buf_puts(out, "not computed\n");
		return;
	}
	px_buf_printf(out, "max_live %u units", f->max_live);
	if (f->max_live_insn < f->ninsns)
		px_buf_printf(out, " at line %u", f->insns[f->max_live_insn].line);
	px_buf_printf(out, ", max_live_pred %u, reg_estimate %u\n", f->max_live_pred,
	              f->reg_estimate);
	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct px_block *bl = &f->blocks[b];
		px_buf_printf(out, "  b%u in:", b);
		reg_set(out, f, bl->live_in);
		px_buf_puts(out, "\n  b");
		px_buf_printf(out, "%u out:", b);
		reg_set(out, f, bl->live_out);
		px_buf_puts(out, "\n");
	}
}
