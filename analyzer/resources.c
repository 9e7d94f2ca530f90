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
#include <string.h>

#include "report.h"

/* Fills reach[] (nfuncs entries) with the functions k calls, transitively,
 * k itself excluded. Needs fill_cfg's callee lists. */
static void reachable_callees(const struct px_module *m, uint32_t k, bool *reach)
{
	uint32_t *stack = xmalloc(sizeof *stack * (m->nfuncs + 1));
	uint32_t sp = 0;
	stack[sp++] = k;
	while (sp > 0) {
		const struct px_func *f = &m->funcs[stack[--sp]];
		for (uint32_t i = 0; i < f->ncallees; i++) {
			uint32_t c = f->callees[i];
			if (c < m->nfuncs && c != k && !reach[c]) {
				reach[c] = true;
				stack[sp++] = c;
			}
		}
	}
	free(stack);
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
	bool *reach = xcalloc(m->nfuncs + 1, sizeof *reach);
	bool *mod = xcalloc(m->nvars + 1, sizeof *mod);
	const struct px_func *k = &m->funcs[kernel];

	reachable_callees(m, kernel, reach);
	reach[kernel] = true;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		for (uint32_t v = 0; reach[i] && v < m->funcs[i].nmod_mentions; v++)
			mod[m->funcs[i].mod_mentions[v]] = true;

	place_own(&l, k, true);                                    /* 1 */
	for (uint32_t i = 0; i < m->nvars; i++)                    /* 2 */
		if (mod[i] && is_shared(&m->vars[i]))
			place(&l, &m->vars[i]);
	for (uint32_t i = 0; i < m->nfuncs; i++)                   /* 3 */
		if (reach[i] && i != kernel)
			place_own(&l, &m->funcs[i], true);
	place_own(&l, k, false);                                   /* 4 */
	for (uint32_t i = 0; i < m->nfuncs; i++)                   /* 5 */
		if (reach[i] && i != kernel)
			place_own(&l, &m->funcs[i], false);

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

	free(mod);
	free(reach);
	if (dynamic)
		*dynamic = l.dynamic;
	return l.end;
}

uint64_t px_local_bytes(const struct px_module *m, uint32_t kernel)
{
	struct layout l = {0, false};
	bool *reach = xcalloc(m->nfuncs + 1, sizeof *reach);
	reachable_callees(m, kernel, reach);
	reach[kernel] = true;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		if (!reach[i])
			continue;
		const struct px_func *f = &m->funcs[i];
		for (uint32_t v = 0; v < f->nvars; v++)
			if (f->vars[v].space == PX_SPACE_LOCAL)
				place(&l, &f->vars[v]);
	}
	free(reach);
	return l.end;
}

uint64_t px_param_bytes(const struct px_func *f)
{
	struct layout l = {0, false};
	for (uint32_t i = 0; i < f->nparams; i++)
		place(&l, &f->params[i]);
	return l.end;
}
