/* pass_cfg.c: fill_cfg, the control-flow graph of one function.
 *
 * Approach: one scan marks block leaders (the first instruction, every
 * labelled instruction, the instruction after a branch or terminator), a
 * second cuts the instruction list into blocks at the leaders, a third gives
 * each block its successors from its last instruction:
 *
 *   bra L            one successor, L (bra.uni likewise)
 *   @p bra L         L, then the fall-through block
 *   brx.idx i, tbl   every label of the .branchtargets list tbl, in list
 *                    order (duplicates dropped); guarded: then fall-through
 *   ret/exit/trap    none; guarded: the fall-through block
 *   anything else    the fall-through block, if there is one
 *
 * `call` does not end a block: it returns to the next instruction.
 * fill_callees, a pass of its own because it reads the module's other
 * functions (PX_STAGE_PRE), records the direct callees (module function
 * indices, sorted, no duplicates); an indirect call (a register target)
 * sets has_indirect_call.
 *
 * Conventions: a function with a body always has at least one block; an
 * empty body has exactly one empty block [0, 0). A label placed after the
 * last instruction that some branch targets gets an empty trailing block
 * [ninsns, ninsns) (control falls off the end there). The last block may
 * fall off the end of the function; it then simply has no successor.
 * A branch to a label the function does not define is reported as an error
 * diagnostic and contributes no edge; the CFG stays well-formed.
 *
 * Predecessor lists are sorted by block index; successor lists follow the
 * order above. rpo numbers come from a depth-first search from block 0 that
 * visits successors in list order; unreachable blocks get UINT32_MAX.
 *
 * Cost: linear in instructions + labels + edges (labels are found through a
 * hash table; callees through a linear search of the module's functions). */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

/* ---- label lookup: open addressing, label index + 1 in each slot ---- */
struct labtab {
	uint32_t *slot;
	uint32_t mask;
};

static void labtab_init(struct labtab *t, const struct px_func *f)
{
	uint32_t size = 16;
	while (size < 2 * f->nlabels + 2)
		size *= 2;
	t->slot = xcalloc(size, sizeof *t->slot);
	t->mask = size - 1;
	for (uint32_t i = 0; i < f->nlabels; i++) {
		uint32_t h = px_str_hash(f->labels[i].name) & t->mask;
		while (t->slot[h] && !px_str_eq(f->labels[t->slot[h] - 1].name, f->labels[i].name))
			h = (h + 1) & t->mask;
		if (!t->slot[h])  /* a duplicate label keeps its first definition */
			t->slot[h] = i + 1;
	}
}

/* Returns the instruction index the label precedes, or UINT32_MAX. */
static uint32_t labtab_find(const struct labtab *t, const struct px_func *f, px_str name)
{
	uint32_t h = px_str_hash(name) & t->mask;
	while (t->slot[h]) {
		const struct px_label *l = &f->labels[t->slot[h] - 1];
		if (px_str_eq(l->name, name))
			return l->insn;
		h = (h + 1) & t->mask;
	}
	return UINT32_MAX;
}

static const struct px_branchtargets *find_btargets(const struct px_func *f, px_str name)
{
	for (uint32_t i = 0; i < f->nbtargets; i++)
		if (px_str_eq(f->btargets[i].name, name))
			return &f->btargets[i];
	return NULL;
}

static bool ends_block(const struct px_insn *in)
{
	return (px_opcode_flags((enum px_opcode)in->op) & (PX_OPF_BRANCH | PX_OPF_TERM)) != 0;
}

/* The label operands a branch names, each passed to fn. bra: operand 0 (or
 * the last SYM operand); brx.idx: the .branchtargets list named by its
 * second operand, or an explicit label list. */
typedef void (*label_fn)(void *ctx, const struct px_insn *in, px_str label);

static void each_target(const struct px_func *f, const struct px_insn *in,
                        label_fn fn, void *ctx, struct px_diags *diags, const char *path)
{
	if (in->op == PX_OP_BRA) {
		for (uint32_t i = in->nopnds; i-- > 0;)
			if (in->opnds[i].kind == PX_OPND_SYM) {
				fn(ctx, in, in->opnds[i].sym);
				return;
			}
		if (diags)
			px_diag_add(diags, PX_ERROR, path, in->line, in->col, NULL,
			            "branch without a label target");
		return;
	}
	/* brx.idx index, tlist */
	for (uint32_t i = 1; i < in->nopnds; i++) {
		const struct px_operand *o = &in->opnds[i];
		if (o->kind == PX_OPND_SYM) {
			const struct px_branchtargets *bt = find_btargets(f, o->sym);
			if (bt) {
				for (uint32_t k = 0; k < bt->nlabels; k++)
					fn(ctx, in, bt->labels[k]);
			} else if (diags) {
				px_diag_add(diags, PX_ERROR, path, o->line ? o->line : in->line,
				            o->line ? o->col : in->col, NULL,
				            "brx.idx names '" PX_STR_FMT "', which is not a .branchtargets list",
				            PX_STR_ARG(o->sym));
			}
			return;
		}
		if (o->kind == PX_OPND_LIST) {
			for (uint32_t k = 0; k < o->nelems; k++)
				if (o->elems[k].kind == PX_OPND_SYM)
					fn(ctx, in, o->elems[k].sym);
			return;
		}
	}
}

/* ---- pass 1: leaders ---- */
struct lead_ctx {
	const struct px_func *f;
	const struct labtab *labs;
	bool *leader;      /* ninsns + 1 entries */
};

static void mark_target(void *ctx, const struct px_insn *in, px_str label)
{
	(void)in;
	struct lead_ctx *c = ctx;
	uint32_t t = labtab_find(c->labs, c->f, label);
	if (t != UINT32_MAX && t <= c->f->ninsns)
		c->leader[t] = true;
}

/* ---- pass 3: edges ---- */
struct edge_ctx {
	const struct px_func *f;
	const struct labtab *labs;
	const uint32_t *block_at;   /* ninsns + 1 entries: block starting at insn i, or UINT32_MAX */
	uint32_t *mark;             /* per block: stamp of the last block that added it */
	uint32_t stamp;
	uint32_t *out; uint32_t nout, capout;   /* successors of the block being built */
	struct px_diags *diags;
	const char *path;
};

static void add_succ(struct edge_ctx *c, uint32_t b)
{
	if (c->mark[b] == c->stamp)
		return;
	c->mark[b] = c->stamp;
	*PX_VEC_PUSH(c->out, c->nout, c->capout) = b;
}

static void edge_target(void *ctx, const struct px_insn *in, px_str label)
{
	struct edge_ctx *c = ctx;
	uint32_t t = labtab_find(c->labs, c->f, label);
	if (t == UINT32_MAX || t > c->f->ninsns || c->block_at[t] == UINT32_MAX) {
		px_diag_add(c->diags, PX_ERROR, c->path, in->line, in->col, NULL,
		            "branch to undefined label '" PX_STR_FMT "'", PX_STR_ARG(label));
		return;
	}
	add_succ(c, c->block_at[t]);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Requires: f's instructions and labels (the parser's output).
 * Fills: f->callees/ncallees and f->has_indirect_call. Reads m->funcs
 * (the functions declared so far): PX_STAGE_PRE. */
void fill_callees(struct px_module *m, struct px_func *f)
{
	uint32_t *cs = NULL, n = 0, cap = 0;
	f->has_indirect_call = false;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		if (in->op != PX_OP_CALL || in->nopnds == 0)
			continue;
		uint32_t k = in->opnds[0].kind == PX_OPND_LIST ? 1 : 0;
		if (k >= in->nopnds)
			continue;
		const struct px_operand *t = &in->opnds[k];
		if (t->kind == PX_OPND_REG) {
			f->has_indirect_call = true;
		} else if (t->kind == PX_OPND_SYM) {
			int32_t idx = px_module_find_func(m, t->sym);
			if (idx >= 0)
				*PX_VEC_PUSH(cs, n, cap) = (uint32_t)idx;
			else
				f->has_indirect_call = true;  /* a variable holding an address */
		}
	}
	if (n > 1)
		qsort(cs, n, sizeof *cs, cmp_u32);
	uint32_t u = 0;
	for (uint32_t i = 0; i < n; i++)
		if (u == 0 || cs[u - 1] != cs[i])
			cs[u++] = cs[i];
	f->callees = u ? px_arena_alloc(m->arena, u * sizeof *f->callees) : NULL;
	if (u)
		memcpy(f->callees, cs, u * sizeof *cs);
	f->ncallees = u;
	free(cs);
}

/* Requires: f->blocks with succs/preds. Fills rpo, reachable, rpo_order. */
static void fill_rpo(struct px_module *m, struct px_func *f)
{
	uint32_t n = f->nblocks;
	uint32_t *stack = xmalloc(n * sizeof *stack);
	uint32_t *next = xcalloc(n, sizeof *next);   /* next successor to visit */
	uint32_t *post = xmalloc(n * sizeof *post);
	bool *seen = xcalloc(n, sizeof *seen);
	uint32_t sp = 0, npost = 0;
	for (uint32_t b = 0; b < n; b++) {
		f->blocks[b].rpo = UINT32_MAX;
		f->blocks[b].reachable = false;
	}
	stack[sp++] = 0;
	seen[0] = true;
	while (sp) {
		uint32_t b = stack[sp - 1];
		const struct px_block *bl = &f->blocks[b];
		if (next[b] < bl->nsuccs) {
			uint32_t s = bl->succs[next[b]++];
			if (!seen[s]) {
				seen[s] = true;
				stack[sp++] = s;
			}
		} else {
			post[npost++] = b;
			sp--;
		}
	}
	f->rpo_order = px_arena_alloc(px_func_arena(m, f), (npost ? npost : 1) * sizeof *f->rpo_order);
	f->nrpo = npost;
	for (uint32_t i = 0; i < npost; i++) {
		uint32_t b = post[npost - 1 - i];
		f->rpo_order[i] = b;
		f->blocks[b].rpo = i;
		f->blocks[b].reachable = true;
	}
	free(stack);
	free(next);
	free(post);
	free(seen);
}

/* Requires: a function with a body as the parser fills it (instructions,
 * labels, branch target lists; register ids already resolved).
 * Fills: blocks (first/end, succs, preds, rpo, reachable; the other block
 * fields are reset to "not computed"), insn->block, rpo_order. Reports undefined branch targets to diags. */
void fill_cfg(struct px_module *m, struct px_func *f, struct px_diags *diags)
{
	uint32_t ni = f->ninsns;
	struct labtab labs;
	labtab_init(&labs, f);

	/* pass 1: leaders */
	bool *leader = xcalloc(ni + 1, sizeof *leader);
	struct lead_ctx lc = {f, &labs, leader};
	leader[0] = true;
	for (uint32_t i = 0; i < f->nlabels; i++)
		if (f->labels[i].insn < ni)
			leader[f->labels[i].insn] = true;
	/* A branch to a label after the last instruction sets leader[ni]: an
	 * empty trailing block is made for it (also for an empty body, ni == 0).
	 * The instruction-after-terminator rule never makes one. */
	for (uint32_t i = 0; i < ni; i++) {
		const struct px_insn *in = &f->insns[i];
		if (!ends_block(in))
			continue;
		if (i + 1 < ni)
			leader[i + 1] = true;
		if (px_opcode_flags((enum px_opcode)in->op) & PX_OPF_BRANCH)
			each_target(f, in, mark_target, &lc, NULL, NULL);
	}

	/* pass 2: blocks */
	uint32_t nb = 0;
	for (uint32_t i = 0; i <= ni; i++)
		nb += leader[i];
	uint32_t *block_at = xmalloc((ni + 1) * sizeof *block_at);
	f->blocks = px_arena_alloc(px_func_arena(m, f), nb * sizeof *f->blocks);
	f->nblocks = nb;
	uint32_t b = 0;
	for (uint32_t i = 0; i <= ni; i++) {
		block_at[i] = UINT32_MAX;
		if (leader[i]) {
			if (b > 0)
				f->blocks[b - 1].end = i;
			block_at[i] = b;
			f->blocks[b].first = i;
			b++;
		}
		if (i < ni)
			f->insns[i].block = b - 1;
	}
	f->blocks[nb - 1].end = ni;

	/* pass 3: successors, into one arena array */
	struct edge_ctx ec = {0};
	ec.f = f;
	ec.labs = &labs;
	ec.block_at = block_at;
	ec.mark = xcalloc(nb, sizeof *ec.mark);
	ec.diags = diags;
	ec.path = m->path;
	uint32_t *soff = xmalloc((nb + 1) * sizeof *soff);
	uint32_t *all = NULL, nall = 0, capall = 0;
	for (b = 0; b < nb; b++) {
		struct px_block *bl = &f->blocks[b];
		ec.stamp = b + 1;
		ec.nout = 0;
		bool falls = true;
		if (bl->end > bl->first) {
			const struct px_insn *last = &f->insns[bl->end - 1];
			unsigned fl = px_opcode_flags((enum px_opcode)last->op);
			if (fl & PX_OPF_BRANCH) {
				each_target(f, last, edge_target, &ec, diags, m->path);
				falls = last->guard >= 0;
			} else if (fl & PX_OPF_TERM) {
				falls = last->guard >= 0;
			}
		}
		if (falls && b + 1 < nb)
			add_succ(&ec, b + 1);
		soff[b] = nall;
		for (uint32_t k = 0; k < ec.nout; k++)
			*PX_VEC_PUSH(all, nall, capall) = ec.out[k];
	}
	soff[nb] = nall;
	uint32_t *succs = px_arena_alloc(px_func_arena(m, f), (nall ? nall : 1) * sizeof *succs);
	uint32_t *preds = px_arena_alloc(px_func_arena(m, f), (nall ? nall : 1) * sizeof *preds);
	if (nall)
		memcpy(succs, all, nall * sizeof *succs);
	/* predecessors: count, then place in increasing source order */
	uint32_t *poff = xcalloc(nb + 1, sizeof *poff);
	for (uint32_t e = 0; e < nall; e++)
		poff[succs[e] + 1]++;
	for (b = 0; b < nb; b++)
		poff[b + 1] += poff[b];
	uint32_t *fillp = xmalloc((nb + 1) * sizeof *fillp);
	memcpy(fillp, poff, (nb + 1) * sizeof *fillp);
	for (b = 0; b < nb; b++)
		for (uint32_t e = soff[b]; e < soff[b + 1]; e++)
			preds[fillp[succs[e]]++] = b;
	for (b = 0; b < nb; b++) {
		struct px_block *bl = &f->blocks[b];
		bl->succs = succs + soff[b];
		bl->nsuccs = soff[b + 1] - soff[b];
		bl->preds = preds + poff[b];
		bl->npreds = poff[b + 1] - poff[b];
		bl->idom = UINT32_MAX;
		bl->ipdom = UINT32_MAX;
		bl->exit_virtual = false;
		bl->loop = -1;
		bl->live_in = bl->live_out = NULL;
	}
	fill_rpo(m, f);
	f->exit_block = nb;

	free(fillp);
	free(poff);
	free(soff);
	free(all);
	free(ec.out);
	free(ec.mark);
	free(block_at);
	free(leader);
	free(labs.slot);
}
