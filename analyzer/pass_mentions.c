/* pass_mentions.c: fill_mentions, which variables a function's code names.
 *
 * The shared-memory layout (resources.c) needs, for every function a kernel
 * reaches, which of its own variables and which module-scope variables its
 * instructions name (as a symbol operand or an address base). This pass
 * records that as a summary that outlives the function's body: the flag
 * px_var.mentioned on the function's own variables, and the sorted indices
 * of the module variables in f->mod_mentions (module arena).
 * A name resolves to the function's own declaration first (the innermost
 * scope wins, so the last declaration of that name), then to module scope.
 * Module names are looked up in a hash table made once per call: linear in
 * the function's operands plus the module's variables. */
#include <string.h>

#include "ir.h"

struct index {
	const struct px_module *m;
	uint32_t *slots;   /* module var index + 1; 0 = empty */
	uint32_t mask;
	bool *hit;         /* module variables named, by index */
};

static void index_make(struct index *x, const struct px_module *m)
{
	uint32_t cap = 16;
	while (cap < m->nvars * 2u + 2)
		cap *= 2;
	x->m = m;
	x->mask = cap - 1;
	x->slots = xcalloc(cap, sizeof *x->slots);
	x->hit = xcalloc(m->nvars + 1, sizeof *x->hit);
	for (uint32_t i = 0; i < m->nvars; i++) {
		uint32_t h = px_str_hash(m->vars[i].name) & x->mask;
		while (x->slots[h])
			h = (h + 1) & x->mask;
		x->slots[h] = i + 1;  /* later duplicates follow earlier ones */
	}
}

static int32_t index_find(const struct index *x, px_str name)
{
	uint32_t h = px_str_hash(name) & x->mask;
	while (x->slots[h]) {
		uint32_t i = x->slots[h] - 1;
		if (px_str_eq(x->m->vars[i].name, name))
			return (int32_t)i;
		h = (h + 1) & x->mask;
	}
	return -1;
}

static void name(struct px_func *f, struct index *x, px_str n)
{
	if (n.n == 0)
		return;
	for (uint32_t i = f->nvars; i-- > 0;) {
		if (px_str_eq(f->vars[i].name, n)) {
			f->vars[i].mentioned = true;
			return;
		}
	}
	int32_t v = index_find(x, n);
	if (v >= 0)
		x->hit[v] = true;
}

static void operand(struct px_func *f, struct index *x, const struct px_operand *o)
{
	switch (o->kind) {
	case PX_OPND_SYM:
	case PX_OPND_ADDR:
		name(f, x, o->sym);
		break;
	case PX_OPND_VEC:
	case PX_OPND_LIST:
		for (uint32_t i = 0; i < o->nelems; i++)
			operand(f, x, &o->elems[i]);
		break;
	default:
		break;
	}
}

/* Requires: a parsed body. Fills: f->vars[].mentioned, f->mod_mentions. */
void fill_mentions(struct px_module *m, struct px_func *f)
{
	struct index x;
	index_make(&x, m);
	for (uint32_t i = 0; i < f->nvars; i++)
		f->vars[i].mentioned = false;
	for (uint32_t i = 0; i < f->ninsns; i++)
		for (uint32_t k = 0; k < f->insns[i].nopnds; k++)
			operand(f, &x, &f->insns[i].opnds[k]);
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->nvars; i++)
		n += x.hit[i];
	f->nmod_mentions = n;
	f->mod_mentions = n ? px_arena_alloc(m->arena, n * sizeof *f->mod_mentions) : NULL;
	n = 0;
	for (uint32_t i = 0; i < m->nvars; i++)
		if (x.hit[i])
			f->mod_mentions[n++] = i;
	free(x.slots);
	free(x.hit);
}

/* --dump=mentions: the variables the function's code names. */
void px_dump_mentions(struct px_buf *out, const struct px_module *m, const struct px_func *f)
{
	px_buf_printf(out, "mentions " PX_STR_FMT ":", PX_STR_ARG(f->name));
	for (uint32_t i = 0; i < f->nvars; i++)
		if (f->vars[i].mentioned)
			px_buf_printf(out, " " PX_STR_FMT, PX_STR_ARG(f->vars[i].name));
	for (uint32_t i = 0; i < f->nmod_mentions; i++)
		px_buf_printf(out, " " PX_STR_FMT "(module)", PX_STR_ARG(m->vars[f->mod_mentions[i]].name));
	px_buf_puts(out, "\n");
}
