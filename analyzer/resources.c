/* resources.c: a kernel's static shared memory, local memory and parameter
 * space, laid out the way ptxas lays them out.
 *
 * Static shared memory. ptxas gives each kernel the .shared variables its
 * code can reach: those the kernel declares (used or not), the module-scope
 * ones the kernel or any function it calls (transitively) mentions, and those
 * the called functions declare (used or not). Module-scope variables nobody
 * reachable mentions are dropped. The order matters for padding; measured
 * with ptxas 13.0 (sm_75..sm_120; experiments in tests/golden/shared/) it is:
 *   1. the kernel's own variables that its code mentions, in declaration order;
 *   2. module-scope variables mentioned by the kernel or its callees, in
 *      declaration order;
 *   3. the callees' own variables that their code mentions, functions in file
 *      order, variables in declaration order;
 *   4. the kernel's own variables that nothing mentions;
 *   5. the callees' own variables that nothing mentions, in file order.
 * Each is placed at the next multiple of its alignment (.align, else its
 * element size), with no reuse of the holes padding leaves; the total is the
 * end of the last one. Unsized (extern) arrays are dynamic shared memory:
 * they take no static space and set the dynamic flag; but when the module
 * declares any, ptxas rounds every kernel's static total up to a multiple of
 * the largest of their alignments and 16 (the dynamic part starts there),
 * whether or not that kernel mentions them.
 * Reads only what outlives a function's body (fill_cfg's callees and
 * fill_mentions's summary), so it works after the bodies are dropped. */
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* A set of function or variable indices, in insertion order, with an open
 * hash for membership: per kernel it costs what the kernel reaches, not
 * the module's size (a module of a million kernels stays linear). */
struct idxset {
	uint32_t *items, n, cap;
	uint32_t *slots, nslots;  /* index + 1; 0 = empty */
};

static bool idxset_add(struct idxset *s, uint32_t v)
{
	if ((s->n + 1) * 2 > s->nslots) {
		uint32_t ns = s->nslots ? s->nslots * 2 : 16;
		uint32_t *slots = xcalloc(ns, sizeof *slots);
		for (uint32_t i = 0; i < s->n; i++) {
			uint32_t h = (s->items[i] * 2654435761u) & (ns - 1);
			while (slots[h])
				h = (h + 1) & (ns - 1);
			slots[h] = s->items[i] + 1;
		}
		free(s->slots);
		s->slots = slots;
		s->nslots = ns;
	}
	uint32_t h = (v * 2654435761u) & (s->nslots - 1);
	while (s->slots[h]) {
		if (s->slots[h] == v + 1)
			return false;
		h = (h + 1) & (s->nslots - 1);
	}
	s->slots[h] = v + 1;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 8;
		s->items = xrealloc(s->items, sizeof *s->items * s->cap);
	}
	s->items[s->n++] = v;
	return true;
}

static void idxset_free(struct idxset *s)
{
	free(s->items);
	free(s->slots);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Fills reach with the functions k calls, transitively, k itself excluded,
 * sorted in file order. Needs fill_cfg's callee lists. */
static void reachable_callees(const struct px_module *m, uint32_t k, struct idxset *reach)
{
	uint32_t *stack = NULL;
	uint32_t sp = 0, cap = 0;
	struct idxset seen = {0};
	idxset_add(&seen, k);
	stack = xmalloc(sizeof *stack * (cap = 16));
	stack[sp++] = k;
	while (sp > 0) {
		const struct px_func *f = &m->funcs[stack[--sp]];
		for (uint32_t i = 0; i < f->ncallees; i++) {
			uint32_t c = f->callees[i];
			if (c < m->nfuncs && idxset_add(&seen, c)) {
				idxset_add(reach, c);
				if (sp == cap)
					stack = xrealloc(stack, sizeof *stack * (cap *= 2));
				stack[sp++] = c;
			}
		}
	}
	free(stack);
	idxset_free(&seen);
	if (reach->n)
		qsort(reach->items, reach->n, sizeof *reach->items, cmp_u32);
}

static bool is_shared(const struct px_var *v)
{
	return v->space == PX_SPACE_SHARED || v->space == PX_SPACE_SHARED_CTA ||
	       v->space == PX_SPACE_SHARED_CLUSTER;
}

struct layout {
	uint64_t end;
	bool dynamic;
};

static void place(struct layout *l, const struct px_var *v)
{
	if (v->unsized) {
		l->dynamic = true;
		return;
	}
	uint64_t a = px_var_align(v);
	if (a == 0)
		a = 1;
	l->end = (l->end + a - 1) / a * a + px_var_size(v);
}

/* Places f's own shared variables whose mention flag equals want. */
static void place_own(struct layout *l, const struct px_func *f, bool want)
{
	for (uint32_t i = 0; i < f->nvars; i++)
		if (is_shared(&f->vars[i]) && f->vars[i].mentioned == want)
			place(l, &f->vars[i]);
}

uint64_t px_shared_static_bytes(const struct px_module *m, uint32_t kernel, bool *dynamic)
{
	struct layout l = {0, false};
	struct idxset reach = {0}, mod = {0};
	const struct px_func *k = &m->funcs[kernel];

	reachable_callees(m, kernel, &reach);
	for (uint32_t v = 0; v < k->nmod_mentions; v++)
		if (k->mod_mentions[v] < m->nvars)
			idxset_add(&mod, k->mod_mentions[v]);
	for (uint32_t r = 0; r < reach.n; r++) {
		const struct px_func *f = &m->funcs[reach.items[r]];
		for (uint32_t v = 0; v < f->nmod_mentions; v++)
			if (f->mod_mentions[v] < m->nvars)
				idxset_add(&mod, f->mod_mentions[v]);
	}
	if (mod.n)
		qsort(mod.items, mod.n, sizeof *mod.items, cmp_u32);

	place_own(&l, k, true);                                    /* 1 */
	for (uint32_t i = 0; i < mod.n; i++)                       /* 2 */
		if (is_shared(&m->vars[mod.items[i]]))
			place(&l, &m->vars[mod.items[i]]);
	for (uint32_t r = 0; r < reach.n; r++)                     /* 3 */
		place_own(&l, &m->funcs[reach.items[r]], true);
	place_own(&l, k, false);                                   /* 4 */
	for (uint32_t r = 0; r < reach.n; r++)                     /* 5 */
		place_own(&l, &m->funcs[reach.items[r]], false);

	uint64_t round = 0;
	for (uint32_t i = 0; i < m->nvars; i++) {
		const struct px_var *v = &m->vars[i];
		if (is_shared(v) && v->unsized) {
			uint64_t a = px_var_align(v);
			round = a > round ? a : round;
			round = round < 16 ? 16 : round;
		}
	}
	if (round)
		l.end = (l.end + round - 1) / round * round;

	idxset_free(&mod);
	idxset_free(&reach);
	if (dynamic)
		*dynamic = l.dynamic;
	return l.end;
}

uint64_t px_local_bytes(const struct px_module *m, uint32_t kernel)
{
	struct layout l = {0, false};
	struct idxset reach = {0};
	reachable_callees(m, kernel, &reach);
	idxset_add(&reach, kernel);
	if (reach.n > 1)
		qsort(reach.items, reach.n, sizeof *reach.items, cmp_u32);
	for (uint32_t r = 0; r < reach.n; r++) {
		const struct px_func *f = &m->funcs[reach.items[r]];
		for (uint32_t v = 0; v < f->nvars; v++)
			if (f->vars[v].space == PX_SPACE_LOCAL)
				place(&l, &f->vars[v]);
	}
	idxset_free(&reach);
	return l.end;
}

uint64_t px_param_bytes(const struct px_func *f)
{
	struct layout l = {0, false};
	for (uint32_t i = 0; i < f->nparams; i++)
		place(&l, &f->params[i]);
	return l.end;
}
