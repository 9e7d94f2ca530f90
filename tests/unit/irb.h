/* irb.h: a tiny IR builder for unit tests, independent of the PTX parser.
 *
 * irb_asm() reads a PTX-like text, one statement per line (a trailing ';'
 * is ignored), and appends to a module made by irb_new():
 *
 *   .entry NAME | .func NAME       starts a function with a body
 *   .extern .func NAME             a declaration without a body
 *   .reg .TYPE %a, %b<4>           registers (%b<4> makes %b0..%b3)
 *   .reg .v4 .f32 %v               a vector register
 *   NAME:                          a label before the next instruction
 *   NAME: .branchtargets A, B      a brx.idx target list
 *   [@[!]%p] op[.mods] opnd, ...   an instruction
 *
 * Operands: %reg, [%reg], [%reg+8], integers, {%a, %b} vectors, (%a, %b)
 * lists, bare names (labels, functions). Each statement's line is its line
 * in the concatenated texts given to irb_asm (1-based). Only for tests:
 * malformed input aborts. Everything lives in the module's arena. */
#ifndef PX_TEST_IRB_H
#define PX_TEST_IRB_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyzer/ir.h"

struct irb {
	struct px_module *m;
	struct px_func *f;
	uint32_t capf, capr, capi, capl, capb;
	uint32_t line;
};

static void *irb_grow(struct px_arena *a, void *p, uint32_t n, uint32_t *cap, size_t size)
{
	if (n < *cap)
		return p;
	uint32_t ncap = *cap ? *cap * 2 : 16;
	p = px_arena_grow(a, p, (size_t)*cap * size, (size_t)ncap * size);
	*cap = ncap;
	return p;
}

static inline struct irb irb_new(void)
{
	struct irb b;
	memset(&b, 0, sizeof b);
	struct px_arena *a = px_arena_new();
	b.m = px_arena_alloc(a, sizeof *b.m);
	b.m->arena = a;
	b.m->path = "test.ptx";
	b.m->text = xstrdup("");
	b.m->address_size = 64;
	return b;
}

static inline void irb_free(struct irb *b)
{
	px_module_delete(b->m);
	b->m = NULL;
}

static char *irb_word(struct px_arena *a, const char *s, size_t n)
{
	return px_arena_strndup(a, s, n);
}

static int32_t irb_findreg(struct irb *b, const char *s, size_t n)
{
	for (uint32_t r = 0; r < b->f->nregs; r++)
		if (b->f->regs[r].name.n == n && memcmp(b->f->regs[r].name.p, s, n) == 0)
			return (int32_t)r;
	fprintf(stderr, "irb: unknown register %.*s\n", (int)n, s);
	abort();
}

static const char *irb_skip(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == ',')
		p++;
	return p;
}

/* One operand starting at *pp; advances *pp. */
static void irb_operand(struct irb *b, const char **pp, struct px_operand *o)
{
	const char *p = irb_skip(*pp);
	memset(o, 0, sizeof *o);
	o->reg = -1;
	o->comp = -1;
	o->line = b->line;
	o->col = 1;
	if (*p == '{' || *p == '(') {
		char close = *p == '{' ? '}' : ')';
		o->kind = *p == '{' ? PX_OPND_VEC : PX_OPND_LIST;
		p++;
		struct px_operand tmp[32];
		uint16_t n = 0;
		for (p = irb_skip(p); *p != close; p = irb_skip(p))
			irb_operand(b, &p, &tmp[n++]);
		p++;
		o->nelems = n;
		o->elems = px_arena_alloc(b->m->arena, (n ? n : 1) * sizeof *o->elems);
		memcpy(o->elems, tmp, n * sizeof *tmp);
	} else if (*p == '[') {
		o->kind = PX_OPND_ADDR;
		p++;
		const char *q = p;
		while (*q && *q != ']' && *q != '+')
			q++;
		if (*p == '%')
			o->reg = irb_findreg(b, p, (size_t)(q - p));
		else
			o->sym = px_str_make(irb_word(b->m->arena, p, (size_t)(q - p)), (size_t)(q - p));
		if (*q == '+')
			o->imm = strtoll(q + 1, (char **)&q, 0);
		p = q + 1;
	} else if (*p == '%') {
		const char *q = p + 1;
		while (isalnum((unsigned char)*q) || *q == '_' || *q == '.')
			q++;
		o->kind = PX_OPND_REG;
		o->reg = irb_findreg(b, p, (size_t)(q - p));
		p = q;
	} else if (isdigit((unsigned char)*p) || *p == '-') {
		o->kind = PX_OPND_IMM;
		o->imm = strtoll(p, (char **)&p, 0);
	} else {
		const char *q = p;
		while (*q && *q != ',' && *q != ' ' && *q != ')' && *q != '}' && *q != ';')
			q++;
		o->kind = PX_OPND_SYM;
		o->sym = px_str_make(irb_word(b->m->arena, p, (size_t)(q - p)), (size_t)(q - p));
		p = q;
	}
	*pp = p;
}

static void irb_newfunc(struct irb *b, const char *name, size_t n, bool body, bool entry)
{
	b->m->funcs = irb_grow(b->m->arena, b->m->funcs, b->m->nfuncs, &b->capf, sizeof *b->m->funcs);
	b->f = &b->m->funcs[b->m->nfuncs++];
	memset(b->f, 0, sizeof *b->f);
	b->f->name = px_str_make(irb_word(b->m->arena, name, n), n);
	b->f->has_body = body;
	b->f->is_entry = entry;
	b->f->line = b->line;
	b->capr = b->capi = b->capl = b->capb = 0;
}

static void irb_addreg(struct irb *b, const char *name, size_t n, enum px_type t, uint8_t vec)
{
	struct px_func *f = b->f;
	f->regs = irb_grow(b->m->arena, f->regs, f->nregs, &b->capr, sizeof *f->regs);
	struct px_regdecl *r = &f->regs[f->nregs++];
	r->name = px_str_make(irb_word(b->m->arena, name, n), n);
	r->type = (uint8_t)t;
	r->vec = vec;
	r->line = b->line;
}

static enum px_type irb_type(const char *s, size_t n)
{
	for (int t = 1; t < PX_TYPE_COUNT; t++) {
		const char *nm = px_type_name((enum px_type)t);
		if (strlen(nm) == n && memcmp(nm, s, n) == 0)
			return (enum px_type)t;
	}
	fprintf(stderr, "irb: unknown type %.*s\n", (int)n, s);
	abort();
}

static void irb_stmt(struct irb *b, const char *p)
{
	p = irb_skip(p);
	if (!*p)
		return;
	if (strncmp(p, ".entry ", 7) == 0 || strncmp(p, ".func ", 6) == 0) {
		bool entry = p[1] == 'e';
		p += entry ? 7 : 6;
		irb_newfunc(b, p, strlen(p), true, entry);
		return;
	}
	if (strncmp(p, ".extern .func ", 14) == 0) {
		irb_newfunc(b, p + 14, strlen(p + 14), false, false);
		return;
	}
	struct px_func *f = b->f;
	if (strncmp(p, ".reg ", 5) == 0) {
		p += 5;
		uint8_t vec = 1;
		if (strncmp(p, ".v", 2) == 0) {
			vec = (uint8_t)(p[2] - '0');
			p += 4;
		}
		const char *q = p;
		while (*q && *q != ' ')
			q++;
		enum px_type t = irb_type(p, (size_t)(q - p));
		for (p = irb_skip(q); *p; p = irb_skip(p)) {
			q = p;
			while (*q && *q != ',' && *q != ' ' && *q != '<')
				q++;
			if (*q == '<') {
				int cnt = atoi(q + 1);
				for (int i = 0; i < cnt; i++) {
					char buf[64];
					int len = snprintf(buf, sizeof buf, "%.*s%d", (int)(q - p), p, i);
					irb_addreg(b, buf, (size_t)len, t, vec);
				}
				while (*q != '>')
					q++;
				q++;
			} else {
				irb_addreg(b, p, (size_t)(q - p), t, vec);
			}
			p = q;
		}
		return;
	}
	/* label? */
	const char *q = p;
	while (isalnum((unsigned char)*q) || *q == '_' || *q == '$')
		q++;
	if (*q == ':') {
		const char *rest = irb_skip(q + 1);
		if (strncmp(rest, ".branchtargets", 14) == 0) {
			f->btargets = irb_grow(b->m->arena, f->btargets, f->nbtargets, &b->capb, sizeof *f->btargets);
			struct px_branchtargets *bt = &f->btargets[f->nbtargets++];
			memset(bt, 0, sizeof *bt);
			bt->name = px_str_make(irb_word(b->m->arena, p, (size_t)(q - p)), (size_t)(q - p));
			bt->line = b->line;
			bt->labels = px_arena_alloc(b->m->arena, 64 * sizeof *bt->labels);
			for (rest = irb_skip(rest + 14); *rest; rest = irb_skip(rest)) {
				const char *e = rest;
				while (*e && *e != ',' && *e != ' ')
					e++;
				bt->labels[bt->nlabels++] = px_str_make(irb_word(b->m->arena, rest, (size_t)(e - rest)), (size_t)(e - rest));
				rest = e;
			}
			return;
		}
		f->labels = irb_grow(b->m->arena, f->labels, f->nlabels, &b->capl, sizeof *f->labels);
		struct px_label *l = &f->labels[f->nlabels++];
		l->name = px_str_make(irb_word(b->m->arena, p, (size_t)(q - p)), (size_t)(q - p));
		l->insn = f->ninsns;
		l->line = b->line;
		l->col = 1;
		irb_stmt(b, rest);
		return;
	}
	/* instruction */
	f->insns = irb_grow(b->m->arena, f->insns, f->ninsns, &b->capi, sizeof *f->insns);
	struct px_insn *in = &f->insns[f->ninsns++];
	memset(in, 0, sizeof *in);
	in->guard = -1;
	in->vec = 1;
	in->line = b->line;
	in->col = 1;
	if (*p == '@') {
		p++;
		if (*p == '!') {
			in->guard_neg = 1;
			p++;
		}
		q = p;
		while (*q && *q != ' ')
			q++;
		in->guard = irb_findreg(b, p, (size_t)(q - p));
		p = irb_skip(q);
	}
	q = p;
	while (*q && *q != ' ' && *q != '.')
		q++;
	in->opname = px_str_make(irb_word(b->m->arena, p, (size_t)(q - p)), (size_t)(q - p));
	in->op = (uint16_t)px_opcode_lookup(in->opname);
	p = q;
	while (*q && *q != ' ')
		q++;
	in->modtext = px_str_make(irb_word(b->m->arena, p, (size_t)(q - p)), (size_t)(q - p));
	char *mods = irb_word(b->m->arena, p, (size_t)(q - p));
	if (strstr(mods, ".uni"))
		in->mods |= PX_MOD_UNI;
	p = irb_skip(q);
	struct px_operand tmp[16];
	uint16_t n = 0;
	while (*p) {
		irb_operand(b, &p, &tmp[n++]);
		p = irb_skip(p);
	}
	in->nopnds = n;
	in->opnds = px_arena_alloc(b->m->arena, (n ? n : 1) * sizeof *in->opnds);
	memcpy(in->opnds, tmp, n * sizeof *tmp);
}

static inline void irb_asm(struct irb *b, const char *text)
{
	const char *p = text;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char buf[1024];
		if (n >= sizeof buf)
			abort();
		memcpy(buf, p, n);
		buf[n] = 0;
		/* strip comments and the trailing ';' */
		char *c = strstr(buf, "//");
		if (c)
			*c = 0;
		size_t len = strlen(buf);
		while (len && (buf[len - 1] == ';' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
			buf[--len] = 0;
		b->line++;
		irb_stmt(b, buf);
		p = e ? e + 1 : p + n;
	}
}

/* Builds a module from text, ready for the passes. */
static inline struct irb irb_build(const char *text)
{
	struct irb b = irb_new();
	irb_asm(&b, text);
	return b;
}

/* The function's index of the block holding the instruction at PTX line. */
static inline uint32_t irb_block_at_line(const struct px_func *f, uint32_t line)
{
	for (uint32_t i = 0; i < f->ninsns; i++)
		if (f->insns[i].line == line)
			return f->insns[i].block;
	return UINT32_MAX;
}

/* The register id of a name ("%r1"), -1 if none. */
static inline int32_t irb_reg(const struct px_func *f, const char *name)
{
	size_t n = strlen(name);
	for (uint32_t r = 0; r < f->nregs; r++)
		if (f->regs[r].name.n == n && memcmp(f->regs[r].name.p, name, n) == 0)
			return (int32_t)r;
	return -1;
}

static inline bool irb_live(const struct px_func *f, const uint64_t *set, int32_t r)
{
	return px_live_has(f, set, r);
}

#endif
