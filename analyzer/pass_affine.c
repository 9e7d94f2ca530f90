/* pass_affine.c: fill_affine, the affine (and exact quasi-affine) value of
 * every register, the state space an address register points into, and the
 * predicates lanes compute; plus the launch configuration helpers.
 *
 * Approach. PTX from nvcc is nearly SSA: most registers have one
 * definition. A register with one definition gets the form of that
 * definition, computed on demand (memoised, so any order works; a cycle or
 * a chain deeper than MAX_DEPTH is unknown). A register with two
 * definitions, one outside a loop and one `add r, r, step` inside it, is an
 * induction variable: init + step * n(loop), n a uniform atom. Otherwise a
 * register whose definitions are inits with one common thread part T and
 * increments by uniform steps (nvcc's counters shared by an unrolled loop
 * and its remainder loop) is T + c + U, U a JOIN atom whose alignment is
 * what divides every step and init difference (join_form). Anything else
 * with several definitions is unknown. LOOP and JOIN atoms assume that the
 * lanes running together made the same iterations; fill_uniform marks the
 * atoms for which a divergent branch or loop exit breaks that ("unsure"). Forms are c + sum(coef * atom) with
 * at most PX_AFF_TERMS atoms (analysis.h); a product is kept only when one
 * side is constant or both are uniform (then it becomes an opaque uniform
 * atom whose known power-of-two divisor is the product of the two). The
 * quasi-affine operations (div, rem, shr, and, or, xor, min, max, narrowing
 * cvt, bfe) by constants are exact: on a thread-only operand they make a
 * quasi atom evaluated per lane; on a mixed operand c + U + T they split
 * when every uniform coefficient is a multiple of the divisor (then
 * (U + T) / k = U / k + T / k and (U + T) % k = T % k); else unknown.
 * Values are mathematical integers: 32-bit wrap-around is not modelled
 * except through the narrowing quasi nodes (documented in ptxray-report(1)).
 *
 * Address provenance: cvta.to.X gives X; cvta (to generic) keeps the space
 * of its operand; the address of a variable has the variable's space; a
 * kernel's 64-bit parameter holds a global pointer (PARAM_PTR); add, sub,
 * mad, mov and cvt pass their pointer operand's provenance on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

enum { MAX_DEPTH = 48, ALIGN_CAP = 1u << 12 };

/* ---- launch configuration ---- */

const char *px_launch_from_name(enum px_launch_from f)
{
	switch (f) {
	case PX_LAUNCH_REQNTID: return "reqntid";
	case PX_LAUNCH_MAXNTID: return "maxntid";
	case PX_LAUNCH_OPTION: return "option";
	case PX_LAUNCH_ANNOTATION: return "annotation";
	case PX_LAUNCH_CONFIG: return "config";
	case PX_LAUNCH_DEFAULT: return "default";
	}
	return "default";
}

enum px_launch_from px_launch_block(const struct px_launch *l, const struct px_func *f,
                                    uint32_t block[3])
{
	if (f->reqntid[0]) {
		for (int i = 0; i < 3; i++)
			block[i] = f->reqntid[i] ? f->reqntid[i] : 1;
		return PX_LAUNCH_REQNTID;
	}
	if (l && l->block[0]) {
		for (int i = 0; i < 3; i++)
			block[i] = l->block[i] ? l->block[i] : 1;
		return PX_LAUNCH_OPTION;
	}
	if (f->maxntid[0]) {
		for (int i = 0; i < 3; i++)
			block[i] = f->maxntid[i] ? f->maxntid[i] : 1;
		return PX_LAUNCH_MAXNTID;
	}
	block[0] = PX_DEFAULT_BLOCK_X;
	block[1] = block[2] = 1;
	return PX_LAUNCH_DEFAULT;
}

bool px_param_value_parse(const char *s, struct px_param_value *out)
{
	const char *eq = strchr(s, '=');
	if (!eq || eq == s || !eq[1])
		return false;
	char *end;
	long long v = strtoll(eq + 1, &end, 0);
	if (*end)
		return false;
	out->name = s;   /* the caller keeps s alive; the name ends at '=' */
	out->value = v;
	return true;
}

/* ---- forms ---- */

static struct px_aff unk(void)
{
	struct px_aff a = {0};
	return a;
}

static struct px_aff cst(int64_t c)
{
	struct px_aff a = {.known = true, .c = c};
	return a;
}

static struct px_aff one(uint32_t atom, int64_t coef)
{
	struct px_aff a = {.known = true, .nterms = 1};
	a.t[0].atom = atom;
	a.t[0].coef = coef;
	return a;
}

static bool is_const(const struct px_aff *a)
{
	return a->known && a->nterms == 0;
}

bool px_aff_has_thread(const struct px_func_analysis *an, const struct px_aff *a)
{
	for (uint32_t i = 0; i < a->nterms; i++)
		if (an->atoms[a->t[i].atom].thread)
			return true;
	return false;
}

bool px_aff_has_uniform(const struct px_func_analysis *an, const struct px_aff *a)
{
	for (uint32_t i = 0; i < a->nterms; i++)
		if (!an->atoms[a->t[i].atom].thread)
			return true;
	return false;
}

static uint64_t low_pow2(uint64_t v)
{
	if (v == 0)
		return ALIGN_CAP;
	uint64_t p = v & (~v + 1);
	return p > ALIGN_CAP ? ALIGN_CAP : p;
}

struct actx {
	struct px_module *m;
	struct px_func *f;
	struct px_func_analysis *an;
	struct px_arena *arena;
	uint8_t *state;          /* per register: 0 not yet, 1 in progress, 2 done */
	uint32_t *def1, *def2;   /* per register: its (first two) defining instructions */
	uint32_t *dstart, *dlist; /* per register: all its defining instructions,
	                          * dlist[dstart[r] .. dstart[r + 1]) */
	bool *wide;              /* per register: defined by a vector or call result */
	int64_t *pval;           /* per parameter: --param value */
	bool *pknown;
};

static uint32_t new_atom(struct actx *c, uint8_t kind, bool thread, uint32_t a, uint32_t b,
                         uint32_t align)
{
	struct px_func_analysis *an = c->an;
	struct px_atom *t = PX_ARENA_PUSH(c->arena, an->atoms, an->natoms, an->capatoms);
	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->thread = thread;
	t->a = a;
	t->b = b;
	t->align = align ? align : 1;
	return an->natoms - 1;
}

/* The power of two known to divide sum(coef * atom) over the uniform terms. */
static uint64_t uniform_align(const struct px_func_analysis *an, const struct px_aff *a)
{
	uint64_t al = ALIGN_CAP;
	for (uint32_t i = 0; i < a->nterms; i++) {
		const struct px_atom *t = &an->atoms[a->t[i].atom];
		if (t->thread)
			continue;
		uint64_t v = low_pow2(px_uabs(a->t[i].coef)) * t->align;
		if (v < al)
			al = v;
	}
	return al > ALIGN_CAP ? ALIGN_CAP : al;
}

/* Replaces the uniform terms of a by one opaque atom (to make room). */
static struct px_aff fold_uniform(struct actx *c, struct px_aff a)
{
	uint32_t al = (uint32_t)uniform_align(c->an, &a);
	struct px_aff r = cst(a.c);
	bool any = false;
	for (uint32_t i = 0; i < a.nterms; i++) {
		if (c->an->atoms[a.t[i].atom].thread)
			r.t[r.nterms++] = a.t[i];
		else
			any = true;
	}
	if (any) {
		r.t[r.nterms].coef = 1;
		r.t[r.nterms].atom = new_atom(c, PX_ATOM_OPAQUE, false, 0, 0, al);
		r.nterms++;
	}
	return r;
}

static struct px_aff add(struct actx *c, struct px_aff a, struct px_aff b, int64_t sign)
{
	if (!a.known || !b.known)
		return unk();
	a.c = px_wadd(a.c, px_wmul(sign, b.c));
	for (uint32_t j = 0; j < b.nterms; j++) {
		int64_t coef = px_wmul(sign, b.t[j].coef);
		uint32_t i;
		for (i = 0; i < a.nterms; i++)
			if (a.t[i].atom == b.t[j].atom)
				break;
		if (i < a.nterms) {
			a.t[i].coef = px_wadd(a.t[i].coef, coef);
			if (a.t[i].coef == 0)
				a.t[i] = a.t[--a.nterms];
			continue;
		}
		if (a.nterms == PX_AFF_TERMS) {
			a = fold_uniform(c, a);
			if (a.nterms == PX_AFF_TERMS)
				return unk();
		}
		a.t[a.nterms].atom = b.t[j].atom;
		a.t[a.nterms].coef = coef;
		a.nterms++;
	}
	return a;
}

static struct px_aff scale(struct px_aff a, int64_t k)
{
	if (!a.known)
		return a;
	if (k == 0)
		return cst(0);
	a.c = px_wmul(a.c, k);
	for (uint32_t i = 0; i < a.nterms; i++)
		a.t[i].coef = px_wmul(a.t[i].coef, k);
	return a;
}

static struct px_aff mul(struct actx *c, struct px_aff a, struct px_aff b)
{
	if (!a.known || !b.known)
		return unk();
	if (is_const(&b))
		return scale(a, b.c);
	if (is_const(&a))
		return scale(b, a.c);
	if (px_aff_has_thread(c->an, &a) || px_aff_has_thread(c->an, &b))
		return unk();
	uint64_t al = low_pow2(px_uabs(a.c));
	uint64_t ua = uniform_align(c->an, &a);
	uint64_t alb = low_pow2(px_uabs(b.c));
	uint64_t ub = uniform_align(c->an, &b);
	uint64_t pa = al < ua ? al : ua, pb = alb < ub ? alb : ub;
	uint64_t p = pa * pb > ALIGN_CAP ? ALIGN_CAP : pa * pb;
	return one(new_atom(c, PX_ATOM_OPAQUE, false, 0, 0, (uint32_t)p), 1);
}

static int64_t floordiv(int64_t a, int64_t b)
{
	if (b == -1)
		return px_wsub(0, a);   /* INT64_MIN / -1 wraps (and would trap) */
	int64_t q = a / b;
	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

static int64_t floormod(int64_t a, int64_t b)
{
	return px_wsub(a, px_wmul(floordiv(a, b), b));
}

static int64_t quasi_apply(uint8_t op, int64_t x, int64_t k)
{
	switch (op) {
	case PX_Q_DIV: return k ? floordiv(x, k) : 0;
	case PX_Q_REM: return k ? floormod(x, k) : 0;
	case PX_Q_AND: return x & k;
	case PX_Q_OR: return x | k;
	case PX_Q_XOR: return x ^ k;
	case PX_Q_MIN: return x < k ? x : k;
	case PX_Q_MAX: return x > k ? x : k;
	case PX_Q_TRUNC: return k >= 64 ? x : (int64_t)((uint64_t)x & ((1ull << k) - 1));
	case PX_Q_SEXT: {
		if (k >= 64)
			return x;
		uint64_t m = 1ull << (k - 1), v = (uint64_t)x & ((1ull << k) - 1);
		return (int64_t)((v ^ m) - m);
	}
	}
	return 0;
}

/* A quasi-affine operation of a by the constant k (see the file comment). */
static struct px_aff quasi(struct actx *c, uint8_t op, struct px_aff a, int64_t k)
{
	if (!a.known)
		return a;
	if (is_const(&a))
		return cst(quasi_apply(op, a.c, k));
	if ((op == PX_Q_DIV || op == PX_Q_REM) && k <= 0)
		return unk();
	if (!px_aff_has_uniform(c->an, &a)) {
		uint32_t id = new_atom(c, PX_ATOM_QUASI, true, 0, 0, 1);
		c->an->atoms[id].qop = op;
		c->an->atoms[id].k = k;
		c->an->atoms[id].arg = a;
		return one(id, 1);
	}
	/* mixed: split off the uniform part when it is a multiple of the modulus */
	int64_t mod = 0;
	if (op == PX_Q_DIV || op == PX_Q_REM)
		mod = k;
	else if (op == PX_Q_AND && k > 0 && k < INT64_MAX && ((k + 1) & k) == 0)
		mod = k + 1;                       /* x & (2^n - 1) = x % 2^n */
	else if (op == PX_Q_AND && k < 0 && k > INT64_MIN && ((-k) & (-k - 1)) == 0)
		mod = -k;                          /* x & -2^n = x - x % 2^n */
	if (!mod)
		return px_aff_has_thread(c->an, &a) ? unk() : one(new_atom(c, PX_ATOM_OPAQUE, false, 0, 0, 1), 1);
	struct px_aff u = cst(0), t = cst(a.c);
	for (uint32_t i = 0; i < a.nterms; i++) {
		struct px_aff term = one(a.t[i].atom, a.t[i].coef);
		if (c->an->atoms[a.t[i].atom].thread) {
			t = add(c, t, term, 1);
		} else {
			if (a.t[i].coef % mod != 0)
				return px_aff_has_thread(c->an, &a) ? unk() : one(new_atom(c, PX_ATOM_OPAQUE, false, 0, 0, 1), 1);
			u = add(c, u, term, 1);
		}
	}
	if (op == PX_Q_DIV) {
		for (uint32_t i = 0; i < u.nterms; i++)
			u.t[i].coef /= k;
		return add(c, u, quasi(c, op, t, k), 1);
	}
	struct px_aff r = quasi(c, PX_Q_REM, t, mod);
	if (op == PX_Q_AND && k < 0)
		return add(c, a, r, -1);
	return r;
}

/* ---- the builder API (analysis.h): the same operations for the CUDA front end ---- */

uint32_t px_aff_new_atom(struct px_func_analysis *an, struct px_arena *arena, uint8_t kind,
                         bool thread, uint32_t a, uint32_t b, uint32_t align)
{
	struct actx c = {.an = an, .arena = arena};
	return new_atom(&c, kind, thread, a, b, align);
}

struct px_aff px_aff_const(int64_t c)
{
	return cst(c);
}

struct px_aff px_aff_term(uint32_t atom, int64_t coef)
{
	return one(atom, coef);
}

struct px_aff px_aff_add(struct px_func_analysis *an, struct px_arena *arena, struct px_aff a,
                         struct px_aff b, int64_t sign)
{
	struct actx c = {.an = an, .arena = arena};
	return add(&c, a, b, sign);
}

struct px_aff px_aff_mul(struct px_func_analysis *an, struct px_arena *arena, struct px_aff a,
                         struct px_aff b)
{
	struct actx c = {.an = an, .arena = arena};
	return mul(&c, a, b);
}

struct px_aff px_aff_quasi(struct px_func_analysis *an, struct px_arena *arena, uint8_t op,
                           struct px_aff a, int64_t k)
{
	struct actx c = {.an = an, .arena = arena};
	return quasi(&c, op, a, k);
}

/* ---- operands ---- */

static struct px_aff reg_form(struct actx *c, int32_t r, int depth);

static uint32_t sreg_atom(uint16_t sreg, int comp)
{
	switch (sreg) {
	case PX_SREG_TID: return (uint32_t)comp;
	case PX_SREG_LANEID: return 3;
	case PX_SREG_CTAID: return 4 + (uint32_t)comp;
	case PX_SREG_NCTAID: return 7 + (uint32_t)comp;
	}
	return UINT32_MAX;
}

static struct px_aff sreg_form(struct actx *c, const struct px_operand *o)
{
	int comp = o->comp < 0 ? 0 : o->comp;
	if (comp > 2)
		return unk();
	const struct px_launch *l = c->m->launch;
	if (o->sreg == PX_SREG_NTID)
		return cst(c->an->block[comp]);
	if (o->sreg == PX_SREG_NCTAID && l && l->grid[0])
		return cst(l->grid[comp] ? l->grid[comp] : 1);
	uint32_t a = sreg_atom(o->sreg, comp);
	return a == UINT32_MAX ? unk() : one(a, 1);
}

/* Finds a variable by name: the function's own, else the module's. */
static uint32_t sym_atom(struct actx *c, px_str name, uint8_t *space)
{
	for (uint32_t i = 0; i < c->f->nvars; i++)
		if (px_str_eq(c->f->vars[i].name, name)) {
			*space = c->f->vars[i].space;
			return new_atom(c, PX_ATOM_SYM, false, i, 0, px_var_align(&c->f->vars[i]));
		}
	for (uint32_t i = 0; i < c->m->nvars; i++)
		if (px_str_eq(c->m->vars[i].name, name)) {
			*space = c->m->vars[i].space;
			return new_atom(c, PX_ATOM_SYM, false, i | 1u << 31, 0, px_var_align(&c->m->vars[i]));
		}
	return UINT32_MAX;
}

static uint8_t space_prov(uint8_t space)
{
	switch (space) {
	case PX_SPACE_GLOBAL: return PX_PROV_GLOBAL;
	case PX_SPACE_SHARED: case PX_SPACE_SHARED_CTA: return PX_PROV_SHARED;
	case PX_SPACE_LOCAL: return PX_PROV_LOCAL;
	case PX_SPACE_CONST: return PX_PROV_CONST;
	}
	return PX_PROV_NONE;
}

static struct px_aff opnd_form(struct actx *c, const struct px_operand *o, int depth, uint8_t *prov)
{
	switch (o->kind) {
	case PX_OPND_REG:
		if (o->comp >= 0)
			return unk();
		if (prov && c->an->prov[o->reg])
			*prov = c->an->prov[o->reg];
		{
			struct px_aff a = reg_form(c, o->reg, depth + 1);
			if (prov && !*prov && c->an->prov[o->reg])
				*prov = c->an->prov[o->reg];
			return a;
		}
	case PX_OPND_IMM:
		return cst(o->imm);
	case PX_OPND_SREG:
		return sreg_form(c, o);
	case PX_OPND_SYM: {
		uint8_t space = 0;
		uint32_t a = sym_atom(c, o->sym, &space);
		if (a == UINT32_MAX)
			return unk();
		if (prov)
			*prov = space_prov(space);
		return one(a, 1);
	}
	default:
		return unk();
	}
}

static int32_t param_index(const struct px_func *f, const struct px_operand *addr)
{
	if (addr->kind != PX_OPND_ADDR || !addr->sym.n || addr->reg >= 0 || addr->imm != 0)
		return -1;
	for (uint32_t i = 0; i < f->nparams; i++)
		if (px_str_eq(f->params[i].name, addr->sym))
			return (int32_t)i;
	return -1;
}

static unsigned type_bits0(const struct px_insn *in)
{
	return in->ntypes ? px_type_bits(in->types[0]) : 0;
}

/* The form the definition `in` gives its destination (and its provenance). */
static struct px_aff insn_form(struct actx *c, const struct px_insn *in, int depth, uint8_t *prov)
{
	if (depth > MAX_DEPTH)
		return unk();
	const struct px_operand *o = in->opnds;
	uint32_t n = in->nopnds;
	bool sgn = in->ntypes && px_type_kind(in->types[0]) == 's';
	switch (in->op) {
	case PX_OP_MOV:
		if (n != 2 || in->vec > 1)
			return unk();
		return opnd_form(c, &o[1], depth, prov);
	case PX_OP_CVTA: {
		if (n != 2)
			return unk();
		uint8_t p0 = 0;
		struct px_aff a = opnd_form(c, &o[1], depth, &p0);
		*prov = (in->mods & PX_MOD_TO) ? space_prov(in->space) : (p0 ? p0 : space_prov(in->space));
		if (!*prov && (in->mods & PX_MOD_TO) && in->space == PX_SPACE_GLOBAL)
			*prov = PX_PROV_GLOBAL;
		/* a parameter converted to a global address is a pointer from
		 * cudaMalloc: 256-byte aligned (CUDA C++ Programming Guide,
		 * "Device Memory Accesses") */
		if (a.nterms == 1 && a.c == 0 && a.t[0].coef == 1 && *prov == PX_PROV_GLOBAL &&
		    c->an->atoms[a.t[0].atom].kind == PX_ATOM_PARAM)
			c->an->atoms[a.t[0].atom].align = 256;
		return a;
	}
	case PX_OP_CVT: {
		if (n != 2 || in->ntypes < 2)
			return unk();
		char kd = px_type_kind(in->types[0]), ks = px_type_kind(in->types[1]);
		if ((kd != 'u' && kd != 's' && kd != 'b') || (ks != 'u' && ks != 's' && ks != 'b'))
			return unk();
		unsigned bd = px_type_bits(in->types[0]), bs = px_type_bits(in->types[1]);
		struct px_aff a = opnd_form(c, &o[1], depth, prov);
		if (bs <= bd)
			return a;   /* widening: the value (assumed in range) is unchanged */
		return quasi(c, kd == 's' ? PX_Q_SEXT : PX_Q_TRUNC, a, bd);
	}
	case PX_OP_LD:
		if (in->space == PX_SPACE_PARAM && n == 2 && in->vec <= 1) {
			int32_t pi = param_index(c->f, &o[1]);
			if (pi < 0)
				return unk();
			if (type_bits0(in) == 64 && c->f->is_entry)
				*prov = PX_PROV_PARAM_PTR;
			if (c->pknown[pi])
				return cst(c->pval[pi]);
			return one(new_atom(c, PX_ATOM_PARAM, false, (uint32_t)pi, 0, 1), 1);
		}
		return unk();
	case PX_OP_ADD: case PX_OP_SUB: {
		if (n != 3 || (in->mods & PX_MOD_CC) || !in->ntypes || px_type_kind(in->types[0]) == 'f')
			return unk();
		struct px_aff a = opnd_form(c, &o[1], depth, prov);
		struct px_aff b = opnd_form(c, &o[2], depth, prov);
		return add(c, a, b, in->op == PX_OP_SUB ? -1 : 1);
	}
	case PX_OP_MUL: case PX_OP_MAD: {
		if (n < 3 || (in->mods & PX_MOD_HI) || !in->ntypes || px_type_kind(in->types[0]) == 'f')
			return unk();
		if (!(in->mods & (PX_MOD_LO | PX_MOD_WIDE)) && in->op == PX_OP_MAD)
			return unk();
		struct px_aff a = opnd_form(c, &o[1], depth, NULL);
		struct px_aff b = opnd_form(c, &o[2], depth, NULL);
		struct px_aff r = mul(c, a, b);
		if (in->op == PX_OP_MAD) {
			if (n != 4)
				return unk();
			r = add(c, r, opnd_form(c, &o[3], depth, prov), 1);
		}
		return r;
	}
	case PX_OP_SHL: {
		if (n != 3 || o[2].kind != PX_OPND_IMM || o[2].imm < 0 || o[2].imm > 40)
			return unk();
		return scale(opnd_form(c, &o[1], depth, prov), (int64_t)1 << o[2].imm);
	}
	case PX_OP_SHR: {
		if (n != 3 || o[2].kind != PX_OPND_IMM || o[2].imm < 0 || o[2].imm > 40)
			return unk();
		struct px_aff a = opnd_form(c, &o[1], depth, NULL);
		if (!sgn && type_bits0(in) <= 32 && px_aff_has_uniform(c->an, &a))
			return unk();  /* unsigned shift of a possibly negative uniform term */
		return quasi(c, PX_Q_DIV, a, (int64_t)1 << o[2].imm);
	}
	case PX_OP_DIV: case PX_OP_REM: {
		if (n != 3 || o[2].kind != PX_OPND_IMM || o[2].imm <= 0 || px_type_kind(in->types[0]) == 'f')
			return unk();
		return quasi(c, in->op == PX_OP_DIV ? PX_Q_DIV : PX_Q_REM,
		             opnd_form(c, &o[1], depth, NULL), o[2].imm);
	}
	case PX_OP_AND: case PX_OP_OR: case PX_OP_XOR: case PX_OP_MIN: case PX_OP_MAX: {
		if (n != 3 || !in->ntypes || px_type_kind(in->types[0]) == 'p' || px_type_kind(in->types[0]) == 'f')
			return unk();
		const struct px_operand *x = &o[1], *k = &o[2];
		if (x->kind == PX_OPND_IMM) {
			const struct px_operand *t = x;
			x = k;
			k = t;
		}
		uint8_t op = in->op == PX_OP_AND ? PX_Q_AND : in->op == PX_OP_OR ? PX_Q_OR
		           : in->op == PX_OP_XOR ? PX_Q_XOR : in->op == PX_OP_MIN ? PX_Q_MIN : PX_Q_MAX;
		if (k->kind != PX_OPND_IMM) {
			struct px_aff kf = opnd_form(c, k, depth, NULL);
			if (!is_const(&kf))
				return unk();
			return quasi(c, op, opnd_form(c, x, depth, NULL), kf.c);
		}
		return quasi(c, op, opnd_form(c, x, depth, NULL), k->imm);
	}
	case PX_OP_BFE: {
		if (n != 4 || o[2].kind != PX_OPND_IMM || o[3].kind != PX_OPND_IMM || sgn)
			return unk();
		if (o[3].imm <= 0 || o[3].imm >= 32 || o[2].imm < 0 || o[2].imm > 31)
			return unk();
		struct px_aff a = quasi(c, PX_Q_DIV, opnd_form(c, &o[1], depth, NULL), (int64_t)1 << o[2].imm);
		return quasi(c, PX_Q_AND, a, ((int64_t)1 << o[3].imm) - 1);
	}
	case PX_OP_NEG:
		if (n != 2 || px_type_kind(in->types[0]) == 'f')
			return unk();
		return scale(opnd_form(c, &o[1], depth, NULL), -1);
	default:
		return unk();
	}
}

/* Is b inside loop l (or one nested in it)? */
static bool in_loop(const struct px_func *f, uint32_t b, int32_t l)
{
	for (int32_t x = f->blocks[b].loop; x >= 0; x = f->loops[x].parent)
		if (x == l)
			return true;
	return false;
}

/* init + step * n(loop) for an induction variable, else unknown. */
static struct px_aff iv_form(struct actx *c, int32_t r, int depth)
{
	const struct px_func *f = c->f;
	for (int k = 0; k < 2; k++) {
		const struct px_insn *inc = &f->insns[k ? c->def2[r] : c->def1[r]];
		const struct px_insn *ini = &f->insns[k ? c->def1[r] : c->def2[r]];
		/* `add x, r, step; mov r, x` (nvcc's unrolled loops) counts as the increment */
		if (inc->op == PX_OP_MOV && inc->nopnds == 2 && inc->opnds[1].kind == PX_OPND_REG &&
		    inc->opnds[1].reg >= 0 && c->an->ndefs[inc->opnds[1].reg] == 1) {
			const struct px_insn *x = &f->insns[c->def1[inc->opnds[1].reg]];
			if (x->block == inc->block)
				inc = x;
		}
		if ((inc->op != PX_OP_ADD && inc->op != PX_OP_SUB) || inc->nopnds != 3)
			continue;
		int32_t l = f->blocks[inc->block].loop;
		if (l < 0 || in_loop(f, ini->block, l))
			continue;
		/* the innermost loop holding the increment but not the init */
		const struct px_operand *s = NULL;
		if (inc->opnds[1].kind == PX_OPND_REG && inc->opnds[1].reg == r)
			s = &inc->opnds[2];
		else if (inc->op == PX_OP_ADD && inc->opnds[2].kind == PX_OPND_REG && inc->opnds[2].reg == r)
			s = &inc->opnds[1];
		if (!s || (s->kind == PX_OPND_REG && s->reg == r))
			continue;
		while (f->loops[l].parent >= 0 && !in_loop(f, ini->block, f->loops[l].parent))
			l = f->loops[l].parent;
		uint8_t prov = 0;
		struct px_aff init = insn_form(c, ini, depth + 1, &prov);
		struct px_aff step = opnd_form(c, s, depth + 1, NULL);
		if (!init.known || !step.known || px_aff_has_thread(c->an, &step))
			return unk();
		if (inc->op == PX_OP_SUB)
			step = scale(step, -1);
		c->an->prov[r] = prov;
		uint32_t n = new_atom(c, PX_ATOM_LOOP, false, (uint32_t)l, (uint32_t)r, 1);
		return add(c, init, mul(c, step, one(n, 1)), 1);
	}
	return unk();
}

/* The power of two known to divide every value of form a (constant
 * included); ALIGN_CAP when a is 0. */
static uint64_t form_align(const struct px_func_analysis *an, const struct px_aff *a)
{
	uint64_t al = low_pow2(a->c < 0 ? 0 - (uint64_t)a->c : (uint64_t)a->c), ua = uniform_align(an, a);
	return al < ua ? al : ua;
}

/* Is `in` an increment of r: `add r, r, s`, `sub r, r, s`, `add r, s, r`,
 * or `mov r, x` with x's single definition `add x, r, s` in the same
 * block? Sets *step to the operand s and *neg for sub. */
static bool increment_of(struct actx *c, const struct px_insn *in, int32_t r,
                         const struct px_operand **step, bool *neg)
{
	const struct px_func *f = c->f;
	if (in->op == PX_OP_MOV && in->nopnds == 2 && in->opnds[1].kind == PX_OPND_REG &&
	    in->opnds[1].reg >= 0 && in->opnds[1].reg != r && c->an->ndefs[in->opnds[1].reg] == 1) {
		const struct px_insn *x = &f->insns[c->def1[in->opnds[1].reg]];
		if (x->block != in->block)
			return false;
		in = x;
	}
	if ((in->op != PX_OP_ADD && in->op != PX_OP_SUB) || in->nopnds != 3 || (in->mods & PX_MOD_CC))
		return false;
	const struct px_operand *o = in->opnds;
	if (o[1].kind == PX_OPND_REG && o[1].reg == r && !(o[2].kind == PX_OPND_REG && o[2].reg == r))
		*step = &o[2];
	else if (in->op == PX_OP_ADD && o[2].kind == PX_OPND_REG && o[2].reg == r &&
	         !(o[1].kind == PX_OPND_REG && o[1].reg == r))
		*step = &o[1];
	else
		return false;
	*neg = in->op == PX_OP_SUB;
	return true;
}

/* A register with several definitions that are either "inits" (values
 * not computed from the register itself) or increments by uniform steps
 * (nvcc reuses one counter across an unrolled loop, its remainder loop and
 * the paths around them). When every init has the same thread part T, the
 * value is T + c0 + U: c0 the first init's constant, U a uniform atom
 * (PX_ATOM_JOIN) standing for the differences between the inits' uniform
 * parts and the increments a lane has made, with the power of two that
 * divides all of them as its alignment. U is one value for the lanes that
 * run together as long as the branches around the increments do not split
 * a warp; fill_uniform checks that before it relies on a JOIN atom (its
 * register must not be divergent by sync dependence). Else unknown. */
static struct px_aff join_form(struct actx *c, int32_t r, int depth)
{
	const struct px_func *f = c->f;
	struct px_aff t = cst(0);
	bool have = false, varies = false;
	int64_t c0 = 0;
	uint64_t A = ALIGN_CAP;
	uint8_t prov = 0;
	if (c->wide[r])
		return unk();
	for (uint32_t k = c->dstart[r]; k < c->dstart[r + 1]; k++) {
		const struct px_insn *in = &f->insns[c->dlist[k]];
		const struct px_operand *s;
		bool neg;
		if (increment_of(c, in, r, &s, &neg)) {
			struct px_aff st = opnd_form(c, s, depth + 1, NULL);
			if (!st.known || px_aff_has_thread(c->an, &st))
				return unk();
			uint64_t al = form_align(c->an, &st);
			A = al < A ? al : A;
			varies = true;
			continue;
		}
		uint8_t p = 0;
		struct px_aff v = insn_form(c, in, depth + 1, &p);
		if (!v.known)
			return unk();
		struct px_aff vt = cst(0), vu = cst(v.c);
		for (uint32_t i = 0; i < v.nterms; i++) {
			struct px_aff term = one(v.t[i].atom, v.t[i].coef);
			if (c->an->atoms[v.t[i].atom].thread)
				vt = add(c, vt, term, 1);
			else
				vu = add(c, vu, term, 1);
		}
		if (!have) {
			have = true;
			t = vt;
			c0 = v.c;
			prov = p;
		} else {
			struct px_aff d = add(c, vt, t, -1);
			if (!d.known || d.nterms || d.c)
				return unk();   /* the thread parts differ */
			if (p != prov)
				prov = 0;
		}
		vu.c = px_wsub(vu.c, c0);
		if (vu.nterms || vu.c)
			varies = true;
		uint64_t al = form_align(c->an, &vu);
		A = al < A ? al : A;
	}
	if (!have)
		return unk();
	c->an->prov[r] = prov;
	struct px_aff res = add(c, t, cst(c0), 1);
	if (!varies)
		return res;
	uint32_t u = new_atom(c, PX_ATOM_JOIN, false, 0, (uint32_t)r, (uint32_t)A);
	return add(c, res, one(u, 1), 1);
}

static struct px_aff reg_form(struct actx *c, int32_t r, int depth)
{
	if (r < 0 || (uint32_t)r >= c->f->nregs)
		return unk();
	if (c->state[r] == 2)
		return c->an->form[r];
	if (c->state[r] == 1 || depth > MAX_DEPTH)
		return unk();
	struct px_aff a = unk();
	c->state[r] = 1;
	uint8_t prov = 0;
	if (c->an->ndefs[r] == 1)
		a = insn_form(c, &c->f->insns[c->def1[r]], depth, &prov);
	else if (c->an->ndefs[r] >= 2) {
		if (c->an->ndefs[r] == 2)
			a = iv_form(c, r, depth);
		if (!a.known)
			a = join_form(c, r, depth);
		prov = c->an->prov[r];
	}
	c->an->form[r] = a;
	c->an->prov[r] = prov;
	c->state[r] = 2;
	return a;
}

/* The predicate a single definition computes. */
static void fill_pred(struct actx *c, const struct px_insn *in, int32_t d)
{
	struct px_pred *p = &c->an->pred[c->an->pidx[d]];   /* d is a predicate */
	const struct px_operand *o = in->opnds;
	if (in->op == PX_OP_SETP && in->nopnds == 3 && o[0].kind == PX_OPND_REG && in->ntypes) {
		char k = px_type_kind(in->types[0]);
		if (k == 'f')
			return;
		p->kind = PX_PRED_SETP;
		p->cmp = in->cmp;
		p->is_signed = k == 's';
		p->a = opnd_form(c, &o[1], 0, NULL);
		p->b = opnd_form(c, &o[2], 0, NULL);
		return;
	}
	if ((in->op == PX_OP_AND || in->op == PX_OP_OR || in->op == PX_OP_XOR) && in->nopnds == 3 &&
	    in->ntypes && in->types[0] == PX_TYPE_PRED && o[1].kind == PX_OPND_REG && o[2].kind == PX_OPND_REG) {
		p->kind = in->op == PX_OP_AND ? PX_PRED_AND : in->op == PX_OP_OR ? PX_PRED_OR : PX_PRED_XOR;
		p->p = o[1].reg;
		p->q = o[2].reg;
		p->np = o[1].neg;
		p->nq = o[2].neg;
		return;
	}
	if (in->op == PX_OP_NOT && in->nopnds == 2 && o[1].kind == PX_OPND_REG) {
		p->kind = PX_PRED_NOT;
		p->p = o[1].reg;
		return;
	}
	if (in->op == PX_OP_MOV && in->nopnds == 2 && o[1].kind == PX_OPND_REG) {
		p->kind = PX_PRED_OR;   /* p | p */
		p->p = p->q = o[1].reg;
		return;
	}
}

/* The thread atoms' values per lane (an->tval, an->tslot; analysis.h), at
 * most TVAL_CAP values (32 MB), in atom order: a quasi atom's operand atoms
 * come before it, so its values are computed from theirs, with the same
 * arithmetic and the same depth limit as atom_eval_warp (a quasi node
 * deeper than MAX_DEPTH below the top cannot be evaluated: qh counts the
 * quasi levels, saturating). Lanes past a warp's end hold tid 0. */
#define TVAL_CAP (1u << 22)

static void fill_thread_values(struct actx *c)
{
	struct px_func_analysis *an = c->an;
	uint32_t nw = an->nwarps, n = an->natoms;
	an->tslot = px_arena_alloc(c->arena, (n + 1) * sizeof *an->tslot);
	uint32_t want = 0;
	for (uint32_t id = 0; id < n; id++)
		want += an->atoms[id].thread;
	uint32_t rows = nw ? TVAL_CAP / (nw * 32) : 0;
	if (want < rows)
		rows = want;
	an->tval = px_arena_alloc(c->arena, ((size_t)rows * nw * 32 + 1) * sizeof *an->tval);
	uint8_t *qh = xcalloc(n + 1, 1);
	uint32_t next = 0;
	for (uint32_t id = 0; id < n; id++) {
		const struct px_atom *t = &an->atoms[id];
		an->tslot[id] = PX_TSLOT_NONE;
		if (!t->thread || next == rows ||
		    (t->kind != PX_ATOM_TID && t->kind != PX_ATOM_LANEID && t->kind != PX_ATOM_QUASI))
			continue;
		if (t->kind == PX_ATOM_QUASI) {
			bool none = false, fail = false;
			unsigned h = 0;
			for (uint32_t i = 0; i < t->arg.nterms; i++) {
				uint32_t x = t->arg.t[i].atom;
				none |= x >= id || an->tslot[x] == PX_TSLOT_NONE;
				fail |= x < id && an->tslot[x] == PX_TSLOT_FAIL;
				if (x < id && qh[x] > h)
					h = qh[x];
			}
			if (none)
				continue;
			qh[id] = (uint8_t)(h + 1 > 255 ? 255 : h + 1);
			if (fail || qh[id] > MAX_DEPTH + 1) {
				an->tslot[id] = PX_TSLOT_FAIL;
				continue;
			}
		}
		int64_t *row = an->tval + (size_t)next * nw * 32;
		for (uint32_t w = 0; w < nw; w++) {
			int64_t *v = row + (size_t)w * 32;
			switch (t->kind) {
			case PX_ATOM_TID:
				for (uint32_t l = 0; l < 32; l++)
					v[l] = an->tids[w][l][t->a];
				break;
			case PX_ATOM_LANEID:
				for (uint32_t l = 0; l < 32; l++)
					v[l] = l;
				break;
			default:  /* PX_ATOM_QUASI */
				for (uint32_t l = 0; l < 32; l++)
					v[l] = t->arg.c;
				for (uint32_t i = 0; i < t->arg.nterms; i++) {
					const int64_t *x = an->tval +
					                   ((size_t)an->tslot[t->arg.t[i].atom] * nw + w) * 32;
					int64_t coef = t->arg.t[i].coef;
					for (uint32_t l = 0; l < 32; l++)
						v[l] = px_wadd(v[l], px_wmul(coef, x[l]));
				}
				for (uint32_t l = 0; l < 32; l++)
					v[l] = quasi_apply(t->qop, v[l], t->k);
				break;
			}
		}
		an->tslot[id] = (int32_t)next++;
	}
	free(qh);
}

/* Requires: fill_cfg, fill_loops. Fills: f->an (forms, provenance,
 * predicates, definition counts, the launch block used). */
void fill_affine(struct px_module *m, struct px_func *f)
{
	struct px_arena *ar = px_func_arena(m, f);
	struct px_func_analysis *an = px_arena_alloc(ar, sizeof *an);
	f->an = an;
	an->block_from = px_launch_block(m->launch, f, an->block);
	if ((uint64_t)an->block[0] * an->block[1] * an->block[2] > 1024) {
		an->block[0] = 1024;   /* over the hardware's limit: evaluate one full block's worth */
		an->block[1] = an->block[2] = 1;
	}
	uint32_t nwarps = px_block_warps(an->block);
	an->nwarps = nwarps;
	an->tids = px_arena_alloc(ar, nwarps * sizeof *an->tids);
	an->nlanes = px_arena_alloc(ar, nwarps * sizeof *an->nlanes);
	for (uint32_t w = 0; w < nwarps; w++)
		an->nlanes[w] = px_warp_lanes(an->block, w, an->tids[w]);
	uint32_t nr = f->nregs;
	an->form = px_arena_alloc(ar, (nr + 1) * sizeof *an->form);
	an->prov = px_arena_alloc(ar, nr + 1);
	an->pidx = px_arena_alloc(ar, (nr + 1) * sizeof *an->pidx);
	uint32_t npred = 0;
	for (uint32_t r = 0; r < nr; r++)
		if (f->regs[r].type == PX_TYPE_PRED)
			an->pidx[r] = ++npred;
	an->pred = px_arena_alloc(ar, (npred + 1) * sizeof *an->pred);
	an->ndefs = px_arena_alloc(ar, (nr + 1) * sizeof *an->ndefs);
	struct actx c = {.m = m, .f = f, .an = an, .arena = ar};
	c.state = xcalloc(nr + 1, 1);
	c.def1 = xcalloc(nr + 1, sizeof *c.def1);
	c.def2 = xcalloc(nr + 1, sizeof *c.def2);
	c.wide = xcalloc(nr + 1, sizeof *c.wide);
	c.pval = xcalloc(f->nparams + 1, sizeof *c.pval);
	c.pknown = xcalloc(f->nparams + 1, sizeof *c.pknown);
	/* fixed atoms: tid.xyz 0-2, laneid 3, ctaid.xyz 4-6, nctaid.xyz 7-9 */
	for (uint32_t i = 0; i < 3; i++)
		new_atom(&c, PX_ATOM_TID, true, i, 0, 1);
	new_atom(&c, PX_ATOM_LANEID, true, 0, 0, 1);
	for (uint32_t i = 0; i < 3; i++)
		new_atom(&c, PX_ATOM_CTAID, false, i, 0, 1);
	for (uint32_t i = 0; i < 3; i++)
		new_atom(&c, PX_ATOM_NCTAID, false, i, 0, 1);
	const struct px_launch *l = m->launch;
	for (uint32_t i = 0; l && i < l->nparams; i++) {
		const char *nm = l->params[i].name;
		size_t len = strcspn(nm, "=");
		char *endp;
		unsigned long idx = strtoul(nm, &endp, 10);
		for (uint32_t p = 0; p < f->nparams; p++) {
			px_str pn = f->params[p].name;
			if ((endp == nm + len && idx == p) ||
			    (pn.n == len && memcmp(pn.p, nm, len) == 0)) {
				c.pknown[p] = true;
				c.pval[p] = l->params[i].value;
			}
		}
	}

	for (uint32_t i = 0; i < f->ninsns; i++) {
		uint32_t nd;
		const int32_t *ids = px_func_defs(f, i, &nd);
		for (uint32_t k = 0; k < nd && k < 64; k++) {
			int32_t r = ids[k];
			if (r < 0 || (uint32_t)r >= nr)
				continue;
			if (an->ndefs[r] == 0)
				c.def1[r] = i;
			else if (an->ndefs[r] == 1)
				c.def2[r] = i;
			an->ndefs[r]++;
			if (nd > 1 || f->insns[i].op == PX_OP_CALL) {
				an->ndefs[r] = 3;  /* vector or call results: not modelled */
				c.wide[r] = true;
			}
		}
	}
	/* every definition of each register (join_form) */
	c.dstart = xcalloc(nr + 2, sizeof *c.dstart);
	for (uint32_t i = 0; i < f->ninsns; i++) {
		uint32_t nd;
		const int32_t *ids = px_func_defs(f, i, &nd);
		for (uint32_t k = 0; k < nd; k++)
			if (ids[k] >= 0 && (uint32_t)ids[k] < nr)
				c.dstart[ids[k] + 1]++;
	}
	for (uint32_t r = 0; r < nr; r++)
		c.dstart[r + 1] += c.dstart[r];
	c.dlist = xmalloc((c.dstart[nr] + 1) * sizeof *c.dlist);
	uint32_t *fillp = xmalloc((nr + 1) * sizeof *fillp);
	memcpy(fillp, c.dstart, (nr + 1) * sizeof *fillp);
	for (uint32_t i = 0; i < f->ninsns; i++) {
		uint32_t nd;
		const int32_t *ids = px_func_defs(f, i, &nd);
		for (uint32_t k = 0; k < nd; k++)
			if (ids[k] >= 0 && (uint32_t)ids[k] < nr)
				c.dlist[fillp[ids[k]]++] = i;
	}
	free(fillp);
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct px_insn *in = &f->insns[i];
		if (!f->blocks[in->block].reachable || !in->nopnds || in->opnds[0].kind != PX_OPND_REG)
			continue;
		int32_t d = in->opnds[0].reg;
		if (d < 0 || (uint32_t)d >= nr)
			continue;
		if (f->regs[d].type == PX_TYPE_PRED) {
			if (an->ndefs[d] == 1 && in->guard < 0)
				fill_pred(&c, in, d);
			continue;
		}
		if (in->guard < 0 || an->ndefs[d] > 1)
			reg_form(&c, d, 0);
	}
	fill_thread_values(&c);
	free(c.state);
	free(c.def1);
	free(c.def2);
	free(c.wide);
	free(c.dstart);
	free(c.dlist);
	free(c.pval);
	free(c.pknown);
}

/* ---- evaluation ---- */

static bool atom_eval(const struct px_func_analysis *an, uint32_t id, const struct px_eval_env *env,
                      int64_t *out, int depth)
{
	const struct px_atom *t = &an->atoms[id];
	switch (t->kind) {
	case PX_ATOM_TID: *out = env->tid[t->a]; return true;
	case PX_ATOM_LANEID: *out = env->lane; return true;
	case PX_ATOM_QUASI: {
		if (depth > MAX_DEPTH)
			return false;
		int64_t v = t->arg.c;
		for (uint32_t i = 0; i < t->arg.nterms; i++) {
			int64_t x;
			if (!atom_eval(an, t->arg.t[i].atom, env, &x, depth + 1))
				return false;
			v = px_wadd(v, px_wmul(t->arg.t[i].coef, x));
		}
		*out = quasi_apply(t->qop, v, t->k);
		return true;
	}
	default:
		if (!env->uval || !env->uknown || !env->uknown[id])
			return false;
		*out = env->uval[id];
		return true;
	}
}

bool px_aff_eval(const struct px_func_analysis *an, const struct px_aff *a,
                 const struct px_eval_env *env, int64_t *out)
{
	if (!a->known)
		return false;
	int64_t v = a->c;
	for (uint32_t i = 0; i < a->nterms; i++) {
		int64_t x;
		if (!atom_eval(an, a->t[i].atom, env, &x, 0))
			return false;
		v = px_wadd(v, px_wmul(a->t[i].coef, x));
	}
	*out = v;
	return true;
}

static bool compare(uint8_t cmp, int64_t a, int64_t b, bool sgn)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	switch (cmp) {
	case PX_CMP_EQ: return a == b;
	case PX_CMP_NE: return a != b;
	case PX_CMP_LT: return sgn ? a < b : ua < ub;
	case PX_CMP_LE: return sgn ? a <= b : ua <= ub;
	case PX_CMP_GT: return sgn ? a > b : ua > ub;
	case PX_CMP_GE: return sgn ? a >= b : ua >= ub;
	case PX_CMP_LO: return ua < ub;
	case PX_CMP_LS: return ua <= ub;
	case PX_CMP_HI: return ua > ub;
	case PX_CMP_HS: return ua >= ub;
	}
	return false;
}

/* compare() for 32 lanes at once: the switch outside the lane loop. */
#define LANES(e)                                \
	do {                                    \
		for (uint32_t l = 0; l < 32; l++) \
			out[l] = (int8_t)(e);      \
		return;                         \
	} while (0)
static void compare_warp(uint8_t cmp, const int64_t *a, const int64_t *b, bool sgn, int8_t out[32])
{
	switch (cmp) {
	case PX_CMP_EQ: LANES(a[l] == b[l]);
	case PX_CMP_NE: LANES(a[l] != b[l]);
	case PX_CMP_LT: if (sgn) LANES(a[l] < b[l]); LANES((uint64_t)a[l] < (uint64_t)b[l]);
	case PX_CMP_LE: if (sgn) LANES(a[l] <= b[l]); LANES((uint64_t)a[l] <= (uint64_t)b[l]);
	case PX_CMP_GT: if (sgn) LANES(a[l] > b[l]); LANES((uint64_t)a[l] > (uint64_t)b[l]);
	case PX_CMP_GE: if (sgn) LANES(a[l] >= b[l]); LANES((uint64_t)a[l] >= (uint64_t)b[l]);
	case PX_CMP_LO: LANES((uint64_t)a[l] < (uint64_t)b[l]);
	case PX_CMP_LS: LANES((uint64_t)a[l] <= (uint64_t)b[l]);
	case PX_CMP_HI: LANES((uint64_t)a[l] > (uint64_t)b[l]);
	case PX_CMP_HS: LANES((uint64_t)a[l] >= (uint64_t)b[l]);
	}
	LANES(0);
}
#undef LANES

int px_pred_eval(const struct px_func_analysis *an, int32_t p, const struct px_eval_env *env,
                 int depth)
{
	if (p < 0 || depth > 16)
		return -1;
	const struct px_pred *q = px_pred_of(an, p);
	switch (q->kind) {
	case PX_PRED_SETP: {
		int64_t a, b;
		if (q->cmp > PX_CMP_HS || q->cmp == PX_CMP_NONE)
			return -1;
		if (!px_aff_eval(an, &q->a, env, &a) || !px_aff_eval(an, &q->b, env, &b))
			return -1;
		return compare(q->cmp, a, b, q->is_signed);
	}
	case PX_PRED_NOT: {
		int v = px_pred_eval(an, q->p, env, depth + 1);
		return v < 0 ? -1 : !v;
	}
	case PX_PRED_AND: case PX_PRED_OR: case PX_PRED_XOR: {
		int x = px_pred_eval(an, q->p, env, depth + 1);
		int y = px_pred_eval(an, q->q, env, depth + 1);
		if (x >= 0 && q->np) x = !x;
		if (y >= 0 && q->nq) y = !y;
		if (q->kind == PX_PRED_AND && (x == 0 || y == 0)) return 0;
		if (q->kind == PX_PRED_OR && (x == 1 || y == 1)) return 1;
		if (x < 0 || y < 0) return -1;
		return q->kind == PX_PRED_XOR ? x ^ y : q->kind == PX_PRED_AND ? (x && y) : (x || y);
	}
	case PX_PRED_CONST:
		return q->value != 0;
	}
	return -1;
}

/* ---- evaluation for a whole warp at once ----
 * The same values as px_aff_eval / px_pred_eval for each lane of mask,
 * computed term by term over the 32 lanes (the per-lane calls dominated the
 * access and branch models' time on large inputs). */

static bool atom_eval_warp(const struct px_func_analysis *an, uint32_t id, const int64_t tid[32][3],
                           uint32_t mask, const int64_t *uval, const bool *uknown, int64_t v[32],
                           int depth)
{
	const struct px_atom *t = &an->atoms[id];
	switch (t->kind) {
	case PX_ATOM_TID:
		for (uint32_t l = 0; l < 32; l++)
			v[l] = mask >> l & 1 ? tid[l][t->a] : 0;
		return true;
	case PX_ATOM_LANEID:
		for (uint32_t l = 0; l < 32; l++)
			v[l] = l;
		return true;
	case PX_ATOM_QUASI: {
		if (depth > MAX_DEPTH)
			return false;
		int64_t x[32];
		for (uint32_t l = 0; l < 32; l++)
			v[l] = t->arg.c;
		for (uint32_t i = 0; i < t->arg.nterms; i++) {
			if (!atom_eval_warp(an, t->arg.t[i].atom, tid, mask, uval, uknown, x, depth + 1))
				return false;
			int64_t coef = t->arg.t[i].coef;
			for (uint32_t l = 0; l < 32; l++)
				v[l] = px_wadd(v[l], px_wmul(coef, x[l]));
		}
		for (uint32_t l = 0; l < 32; l++)
			v[l] = quasi_apply(t->qop, v[l], t->k);
		return true;
	}
	default:
		if (!uval || !uknown || !uknown[id])
			return false;
		for (uint32_t l = 0; l < 32; l++)
			v[l] = uval[id];
		return true;
	}
}

bool px_aff_eval_warp(const struct px_func_analysis *an, const struct px_aff *a, uint32_t w,
                      uint32_t mask, const int64_t *uval, const bool *uknown, int64_t out[32])
{
	if (!a->known)
		return false;
	int64_t x[32];
	for (uint32_t l = 0; l < 32; l++)
		out[l] = a->c;
	for (uint32_t i = 0; i < a->nterms; i++) {
		int32_t s = an->tslot ? an->tslot[a->t[i].atom] : PX_TSLOT_NONE;
		const int64_t *xv = x;
		if (s >= 0)
			xv = an->tval + ((size_t)s * an->nwarps + w) * 32;
		else if (s == PX_TSLOT_FAIL ||
		         !atom_eval_warp(an, a->t[i].atom, (const int64_t (*)[3])an->tids[w], mask, uval,
		                         uknown, x, 0))
			return false;
		int64_t coef = a->t[i].coef;
		for (uint32_t l = 0; l < 32; l++)
			out[l] = px_wadd(out[l], px_wmul(coef, xv[l]));
	}
	for (uint32_t l = 0; mask != 0xffffffffu && l < 32; l++)
		if (!(mask >> l & 1))
			out[l] = 0;
	return true;
}

void px_pred_eval_warp(const struct px_func_analysis *an, int32_t p, uint32_t w, uint32_t mask,
                       const int64_t *uval, const bool *uknown, int8_t out[32], int depth)
{
	memset(out, -1, 32);
	if (p < 0 || depth > 16)
		return;
	const struct px_pred *q = px_pred_of(an, p);
	switch (q->kind) {
	case PX_PRED_SETP: {
		int64_t a[32], b[32];
		if (q->cmp > PX_CMP_HS || q->cmp == PX_CMP_NONE)
			return;
		if (!px_aff_eval_warp(an, &q->a, w, mask, uval, uknown, a) ||
		    !px_aff_eval_warp(an, &q->b, w, mask, uval, uknown, b))
			return;
		compare_warp(q->cmp, a, b, q->is_signed, out);
		return;
	}
	case PX_PRED_NOT: {
		px_pred_eval_warp(an, q->p, w, mask, uval, uknown, out, depth + 1);
		for (uint32_t l = 0; l < 32; l++)
			out[l] = out[l] < 0 ? -1 : !out[l];
		return;
	}
	case PX_PRED_AND: case PX_PRED_OR: case PX_PRED_XOR: {
		int8_t x[32], y[32];
		px_pred_eval_warp(an, q->p, w, mask, uval, uknown, x, depth + 1);
		px_pred_eval_warp(an, q->q, w, mask, uval, uknown, y, depth + 1);
		for (uint32_t l = 0; l < 32; l++) {
			int xv = x[l], yv = y[l];
			if (xv >= 0 && q->np) xv = !xv;
			if (yv >= 0 && q->nq) yv = !yv;
			if (q->kind == PX_PRED_AND && (xv == 0 || yv == 0)) out[l] = 0;
			else if (q->kind == PX_PRED_OR && (xv == 1 || yv == 1)) out[l] = 1;
			else if (xv < 0 || yv < 0) out[l] = -1;
			else out[l] = (int8_t)(q->kind == PX_PRED_XOR ? xv ^ yv
			                       : q->kind == PX_PRED_AND ? (xv && yv) : (xv || yv));
		}
		return;
	}
	case PX_PRED_CONST:
		memset(out, q->value != 0, 32);
		return;
	}
}

/* ---- printing (--dump=affine) ---- */

static void atom_print(struct px_buf *out, const struct px_func *f, const struct px_func_analysis *an,
                       uint32_t id)
{
	static const char xyz[] = "xyz";
	static const char *const qn[] = {"/", "%", "&", "|", "^", "min", "max", "trunc", "sext"};
	const struct px_atom *t = &an->atoms[id];
	switch (t->kind) {
	case PX_ATOM_TID: px_buf_printf(out, "%%tid.%c", xyz[t->a]); break;
	case PX_ATOM_LANEID: px_buf_puts(out, "%laneid"); break;
	case PX_ATOM_CTAID: px_buf_printf(out, "%%ctaid.%c", xyz[t->a]); break;
	case PX_ATOM_NCTAID: px_buf_printf(out, "%%nctaid.%c", xyz[t->a]); break;
	case PX_ATOM_PARAM:
		px_buf_printf(out, "param(" PX_STR_FMT ")", PX_STR_ARG(f->params[t->a].name));
		break;
	case PX_ATOM_SYM: px_buf_printf(out, "&var%u%s", t->a & ~(1u << 31), t->a >> 31 ? "m" : ""); break;
	case PX_ATOM_LOOP: px_buf_printf(out, "n(loop%u)", t->a); break;
	case PX_ATOM_OPAQUE: px_buf_printf(out, "u%u", id); break;
	case PX_ATOM_JOIN: px_buf_printf(out, "j%u(" PX_STR_FMT ")", id, PX_STR_ARG(f->regs[t->b].name)); break;
	case PX_ATOM_QUASI:
		px_buf_puts(out, "(");
		px_aff_print(out, f, an, &t->arg);
		px_buf_printf(out, " %s %lld)", qn[t->qop], (long long)t->k);
		break;
	}
}

void px_aff_print(struct px_buf *out, const struct px_func *f, const struct px_func_analysis *an,
                  const struct px_aff *a)
{
	if (!a->known) {
		px_buf_puts(out, "?");
		return;
	}
	px_buf_printf(out, "%lld", (long long)a->c);
	for (uint32_t i = 0; i < a->nterms; i++) {
		px_buf_printf(out, " + %lld*", (long long)a->t[i].coef);
		atom_print(out, f, an, a->t[i].atom);
	}
}

void px_dump_affine(struct px_buf *out, const struct px_module *m, const struct px_func *f)
{
	(void)m;
	const struct px_func_analysis *an = f->an;
	px_buf_printf(out, "affine " PX_STR_FMT ": block %ux%ux%u (%s)\n", PX_STR_ARG(f->name),
	              an ? an->block[0] : 0, an ? an->block[1] : 0, an ? an->block[2] : 0,
	              an ? px_launch_from_name(an->block_from) : "-");
	if (!an)
		return;
	static const char *const pn[] = {"", " [global]", " [shared]", " [local]", " [const]", " [param ptr]"};
	for (uint32_t r = 0; r < f->nregs; r++) {
		if (!an->form[r].known)
			continue;
		px_buf_printf(out, "  " PX_STR_FMT " = ", PX_STR_ARG(f->regs[r].name));
		px_aff_print(out, f, an, &an->form[r]);
		px_buf_printf(out, "%s\n", pn[an->prov[r] < 6 ? an->prov[r] : 0]);
	}
}
