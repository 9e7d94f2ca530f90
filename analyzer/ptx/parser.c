/* parser.c: the PTX front end's top half: module directives, variables,
 * functions (entries, device functions, prototypes), register declarations,
 * nested scopes, labels and the statements of a body. Instructions and
 * operands are parsed in parse_insn.c.
 *
 * Approach: recursive descent over tokens that the lexer produces on the fly
 * (one token of lookahead, plus the previous token). Nothing recurses with the
 * input: nested `{ }` scopes inside a body are a loop with an explicit scope
 * stack, and initialisers are skipped with a depth counter. Growing arrays
 * (instructions, registers, labels, ...) live in malloc'd scratch vectors that
 * are reused from one function to the next and copied, exactly sized, into the
 * module's arena when a function ends, so the arena holds no dead copies.
 * Streaming (px_ptx_parse_hooked): each body is handed to the caller's hook
 * as soon as it is parsed, optionally in an arena of its own that the caller
 * frees after analysing it, so memory holds the text plus one body.
 * Registers resolve through a hash table keyed by name; a name like %r57 that
 * is not declared itself resolves through its prefix %r when %r<N> was
 * declared (N > 57), so parameterised declarations cost O(1) per lookup.
 *
 * Errors: one diagnostic per bad statement (path:line:col), then recovery at
 * the next ';' or '}' (or, at module level, the next top-level directive);
 * after PX_MAX_ERRORS errors the parser stops and returns what it has.
 * References: PTX ISA 9.0, chapter 4 (syntax), 5 (state spaces, types,
 * variables), 7 (functions, ABI), 11 (directives). */
#include <stdio.h>
#include <string.h>

#include "parser_int.h"

/* ---- small helpers ---- */

static bool vdiag(struct px_parser *P, uint32_t line, uint32_t col, const char *fmt, va_list ap)
{
	if (P->stop)
		return false;
	px_diag_vadd(P->diags, PX_ERROR, P->path, line, col, NULL, fmt, ap);
	if (++P->nerrors >= PX_MAX_ERRORS) {
		px_diag_add(P->diags, PX_NOTE, P->path, line, col, NULL,
		            "too many errors; stopping");
		P->stop = true;
	}
	return false;
}

bool px_p_error(struct px_parser *P, uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(P, line, col, fmt, ap);
	va_end(ap);
	return false;
}

bool px_p_error_tok(struct px_parser *P, const struct px_token *t, const char *fmt, ...)
{
	if (t->kind == PX_TK_ERROR) {
		char buf[48];
		return px_p_error(P, t->line, t->col, "%s %s", t->err,
		                  px_token_describe(t, buf, sizeof buf));
	}
	va_list ap;
	va_start(ap, fmt);
	vdiag(P, t->line, t->col, fmt, ap);
	va_end(ap);
	return false;
}

/* A string that outlives the body being parsed (a name kept in the module):
 * with a mapped text, a copy in the module arena, since the text's pages are
 * given back behind the parser; otherwise the view itself. */
static px_str keep_str(struct px_parser *P, px_str s)
{
	if (!P->text_mapped || s.n == 0)
		return s;
	return px_str_make(px_arena_strndup(P->a, s.p, s.n), s.n);
}

static bool expect_punct(struct px_parser *P, char c, const char *what)
{
	if (px_p_is_punct(P, c)) {
		px_p_advance(P);
		return true;
	}
	return px_p_error_tok(P, P->tok, "expected '%c' %s", c, what);
}

/* An unsigned integer token that fits in 32 bits. */
static bool expect_u32(struct px_parser *P, uint32_t *out, const char *what)
{
	if (P->tok->kind != PX_TK_INT)
		return px_p_error_tok(P, P->tok, "expected %s", what);
	if ((P->tok->flags & PX_TKF_OVERFLOW) || P->tok->u > UINT32_MAX)
		return px_p_error_tok(P, P->tok, "%s out of range", what);
	*out = (uint32_t)P->tok->u;
	px_p_advance(P);
	return true;
}

/* ---- symbol tables ---- */

static void symtab_free(struct px_symtab *t)
{
	free(t->slots);
	free(t->used);
	memset(t, 0, sizeof *t);
}

static void symtab_reset(struct px_symtab *t)
{
	for (uint32_t i = 0; i < t->nused; i++)
		t->slots[t->used[i]].p = NULL;
	t->nused = 0;
	t->n = 0;
}

static void symtab_rehash(struct px_symtab *t, uint32_t cap)
{
	struct px_symslot *old = t->slots;
	uint32_t oldcap = t->cap;
	t->slots = xcalloc(cap, sizeof *t->slots);
	t->cap = cap;
	t->nused = 0;
	for (uint32_t i = 0; i < oldcap; i++) {
		if (!old[i].p)
			continue;
		uint32_t j = old[i].hash & (cap - 1);
		while (t->slots[j].p)
			j = (j + 1) & (cap - 1);
		t->slots[j] = old[i];
		*PX_VEC_PUSH(t->used, t->nused, t->capused) = j;
	}
	free(old);
}

/* A fast hash for short names: 8 bytes at a time, never reading past the
 * name. */
static uint32_t hash_name(const char *p, uint32_t n)
{
	uint64_t h = (uint64_t)n * 0x9E3779B97F4A7C15ull;
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
		p += 8;
		n -= 8;
	}
	h = (h ^ px_p_tail_word(p, n)) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	return (uint32_t)h;
}

static inline bool same_bytes(const char *a, const char *b, uint32_t n)
{
	for (; n >= 8; a += 8, b += 8, n -= 8) {
		uint64_t x, y;
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return false;
	}
	return px_p_tail_word(a, n) == px_p_tail_word(b, n);
}

/* Finds k; with insert, adds it (val = -1) when absent. NULL if absent. */
struct px_symslot *px_symtab_find(struct px_symtab *t, px_str k, bool insert)
{
	if (insert && (t->n + 1) * 2 > t->cap)
		symtab_rehash(t, t->cap ? t->cap * 2 : 64);
	if (!t->cap)
		return NULL;
	uint32_t h = hash_name(k.p, k.n);
	uint32_t j = h & (t->cap - 1);
	for (;;) {
		struct px_symslot *s = &t->slots[j];
		if (!s->p) {
			if (!insert)
				return NULL;
			s->p = k.p;
			s->n = k.n;
			s->hash = h;
			s->val = -1;
			t->n++;
			*PX_VEC_PUSH(t->used, t->nused, t->capused) = j;
			return s;
		}
		if (s->hash == h && s->n == k.n && same_bytes(s->p, k.p, k.n))
			return s;
		j = (j + 1) & (t->cap - 1);
	}
}

/* ---- registers and scopes ---- */

/* The regtab slot of the prefix p[0..n) of a numbered register name, NULL
 * if none, through the prefix cache for prefixes of up to 7 bytes (one
 * entry per hash of the prefix; a colliding prefix replaces it). */
static inline struct px_symslot *prefix_slot(struct px_parser *P, const char *p, uint32_t n)
{
	if (n > 7)
		return px_symtab_find(&P->regtab, px_str_make(p, n), false);
	uint64_t key = px_p_tail_word(p, n);
	struct px_prefix_hit *h =
		&P->prefix_cache[((key + n) * 0x9E3779B97F4A7C15ull) >> 60];
	if (h->key == key && h->n == n)
		return h->slot;
	struct px_symslot *s = px_symtab_find(&P->regtab, px_str_make(p, n), false);
	if (s) {
		h->key = key;
		h->n = n;
		h->slot = s;
	}
	return s;
}

static void forget_reg_lookups(struct px_parser *P)
{
	for (size_t i = 0; i < PX_COUNTOF(P->prefix_cache); i++)
		P->prefix_cache[i].n = 0;
	for (size_t i = 0; i < PX_COUNTOF(P->range_cache); i++)
		P->range_cache[i].n = 0;
}

int32_t px_p_lookup_reg_by_name(struct px_parser *P, px_str name)
{
	/* the trailing digits, and their value (used when at most 10) */
	uint32_t k = name.n;
	uint64_t tv = 0, mul = 1;
	while (k > 0 && (unsigned)(name.p[k - 1] - '0') < 10) {
		tv += (uint64_t)(name.p[k - 1] - '0') * mul;
		mul *= 10;
		k--;
	}
	/* the exact name first; nvcc's own names ending in a digit are all
	 * numbered (%r<N>), so that lookup is skipped unless a plain one of
	 * the same shape was declared (inline asm's %p1, shadowing %p<N>) */
	struct px_symslot *s;
	uint32_t shape = k > 0 && k < name.n ? px_p_plain_shape(name, k) : 0;
	if (k == name.n || (P->plain_digit_shapes[shape >> 6] >> (shape & 63) & 1)) {
		s = px_symtab_find(&P->regtab, name, false);
		if (s && s->val >= 0) {
			const struct px_regent *e = &P->regents[s->val];
			if (!e->range)
				return e->first;
		}
	}
	/* name = prefix digits: look the prefix up as a parameterised range */
	for (uint32_t split = k; split < name.n; split++) {
		if (split == 0)
			continue;
		const char *d = name.p + split;
		uint32_t nd = name.n - split;
		if (nd > 10 || (nd > 1 && d[0] == '0'))
			continue;
		uint64_t v = tv;
		if (split != k) {
			v = 0;
			for (uint32_t i = 0; i < nd; i++)
				v = v * 10 + (uint64_t)(d[i] - '0');
		}
		s = prefix_slot(P, name.p, split);
		/* an inner %r<2> hides %r0 and %r1 only: %r5 may still name an
		 * outer %r<10>, so walk the shadowed bindings outwards */
		for (int32_t i = s ? s->val : -1; i >= 0; i = P->regents[i].shadow) {
			const struct px_regent *e = &P->regents[i];
			if (e->range && v < e->count)
				return e->first + (int32_t)v;
		}
	}
	return -1;
}

/* The common case of px_p_lookup_reg, nvcc's numbered registers (see
 * px_p_numbered_reg): scans the name once, forwards, for its split. */
static inline int32_t lookup_numbered_reg(struct px_parser *P, px_str name)
{
	const char *p = name.p;
	uint32_t n = name.n, k = 1;
	while (k < n && (unsigned)(p[k] - '0') >= 10)
		k++;
	if (k >= n || k > 7 || n - k > 9 || (p[k] == '0' && n - k > 1))
		return -1;
	uint32_t v = 0;
	for (uint32_t i = k; i < n; i++) {
		unsigned d = (unsigned)(p[i] - '0');
		if (d >= 10)
			return -1;
		v = v * 10 + d;
	}
	return px_p_numbered_reg(P, name, k, v);
}

int32_t px_p_lookup_reg(struct px_parser *P, px_str name)
{
	if (name.n == 0)
		return -1;
	unsigned char c0 = (unsigned char)name.p[0];
	if (!(P->reg_first[c0 >> 6] >> (c0 & 63) & 1))
		return -1;
	if ((unsigned)(c0 - '0') >= 10) {
		int32_t id = lookup_numbered_reg(P, name);
		if (id >= 0)
			return id;
	}
	return px_p_lookup_reg_by_name(P, name);
}

static void scope_push(struct px_parser *P)
{
	*PX_VEC_PUSH(P->scopes, P->nscopes, P->capscopes) = (uint32_t)P->nregents;
}

static void scope_pop(struct px_parser *P)
{
	if (!P->nscopes)
		return;
	uint32_t mark = P->scopes[--P->nscopes];
	if (P->nregents > mark)
		forget_reg_lookups(P);
	while (P->nregents > mark) {
		struct px_regent *e = &P->regents[--P->nregents];
		struct px_symslot *s = px_symtab_find(&P->regtab, e->key, false);
		if (s)
			s->val = e->shadow;
	}
}

/* Declares a register (count ids when range) in the innermost scope. */
static bool declare_reg(struct px_parser *P, px_str name, uint32_t line, uint32_t col,
                        uint8_t type, uint8_t vec, bool range, uint32_t count)
{
	uint64_t ids = range ? count : 1;
	if (ids > P->reg_budget || P->nregs + ids > INT32_MAX / 2)
		return px_p_error(P, line, col, "too many registers declared");
	P->reg_budget -= ids;
	forget_reg_lookups(P);  /* the insert may move the slots */
	if (name.n) {
		unsigned char c0 = (unsigned char)name.p[0];
		P->reg_first[c0 >> 6] |= (uint64_t)1 << (c0 & 63);
	}
	struct px_symslot *s = px_symtab_find(&P->regtab, name, true);
	uint32_t mark = P->nscopes ? P->scopes[P->nscopes - 1] : 0;
	if (s->val >= 0 && (uint32_t)s->val >= mark)
		return px_p_error(P, line, col, "redeclaration of register '" PX_STR_FMT "'",
		                  PX_STR_ARG(name));
	struct px_regent *e = PX_VEC_PUSH(P->regents, P->nregents, P->capregents);
	e->key = name;
	e->first = (int32_t)P->nregs;
	e->count = count;
	e->range = range;
	e->shadow = s->val;
	s->val = (int32_t)(P->nregents - 1);
	if (!range) {
		uint32_t k = name.n;
		while (k > 0 && name.p[k - 1] >= '0' && name.p[k - 1] <= '9')
			k--;
		if (k < name.n) {
			uint32_t shape = k > 0 ? px_p_plain_shape(name, k) : 0;
			P->plain_digit_shapes[shape >> 6] |= (uint64_t)1 << (shape & 63);
		}
		struct px_regdecl *r = PX_VEC_PUSH(P->regs, P->nregs, P->capregs);
		r->name = name;
		r->type = type;
		r->vec = vec;
		r->line = line;
		return true;
	}
	/* %r<N>: make the names %r0..%r(N-1) in one arena block, counting in
	 * decimal text (no division per name); a short prefix and the digits
	 * are each stored with one fixed-size copy (the block has room for the
	 * bytes past the last name that those copies also write) */
	size_t bytes = (size_t)count * name.n;
	for (uint64_t lo = 0, hi = 10, d = 1; lo < count; lo = hi, hi *= 10, d++)
		bytes += (size_t)((hi < count ? hi : count) - lo) * d;
	char *buf = px_arena_alloc(P->ba, bytes + 16);
	char pre[8] = {0};
	bool short_pre = name.n <= sizeof pre;
	if (short_pre)
		memcpy(pre, name.p, name.n);
	/* up to 8 digits the counter is one word in a register, byte j its
	 * digit j (a byte array, incremented in memory and then loaded whole,
	 * stalled every name on the store of the incremented byte); past that,
	 * num holds them */
	uint64_t w = '0';
	char num[12] = {0};
	bool wide = false;
	uint32_t nd = 1;
	for (uint32_t i = 0; i < count; i++) {
		struct px_regdecl *r = PX_VEC_PUSH(P->regs, P->nregs, P->capregs);
		if (short_pre)
			memcpy(buf, pre, sizeof pre);
		else
			memcpy(buf, name.p, name.n);
		if (!wide) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			uint64_t bytes_w = __builtin_bswap64(w);
#else
			uint64_t bytes_w = w;
#endif
			memcpy(buf + name.n, &bytes_w, sizeof bytes_w);
		} else {
			memcpy(buf + name.n, num, sizeof num);
		}
		uint32_t n = name.n + nd;
		r->name = px_str_make(buf, n);
		buf += n;
		r->type = type;
		r->vec = vec;
		r->line = line;
		/* the counter += 1 */
		uint32_t j = nd;
		if (!wide) {
			while (j > 0 && (w >> (8 * (j - 1)) & 0xff) == '9') {
				j--;
				w ^= (uint64_t)('9' ^ '0') << (8 * j);
			}
			if (j > 0) {
				w += (uint64_t)1 << (8 * (j - 1));
			} else if (nd < 8) {
				w = w << 8 | '1';
				nd++;
			} else {
				memcpy(num, "100000000", 9);
				nd = 9;
				wide = true;
			}
			continue;
		}
		while (j > 0 && num[j - 1] == '9')
			num[--j] = '0';
		if (j > 0) {
			num[j - 1]++;
		} else {
			num[0] = '1';
			num[nd++] = '0';
		}
	}
	return true;
}

/* ---- directive keywords ---- */

enum dir {
	D_NONE, D_ABI_PRESERVE, D_ABI_PRESERVE_CONTROL, D_ADDRESS_SIZE, D_ALIAS, D_ALIGN,
	D_ATTRIBUTE, D_BRANCHTARGETS, D_CALLPROTOTYPE, D_COMMON, D_CONST, D_ENTRY,
	D_EXPLICITCLUSTER, D_EXTERN, D_FILE, D_FUNC, D_GLOBAL, D_LOC, D_LOCAL,
	D_MAXCLUSTERRANK, D_MAXNCTAPERSM, D_MAXNREG, D_MAXNTID, D_MINNCTAPERSM,
	D_NORETURN, D_PARAM, D_PRAGMA, D_PTR, D_REG, D_REQNCTAPERCLUSTER, D_REQNTID,
	D_SECTION, D_SHARED, D_SHARED_CLUSTER, D_SHARED_CTA, D_TARGET, D_TEX, D_VERSION,
	D_VISIBLE, D_WEAK,
};

/* Sorted by spelling (binary search). */
static const struct {
	const char *name;
	enum dir d;
} dirs[] = {
	{"abi_preserve", D_ABI_PRESERVE}, {"abi_preserve_control", D_ABI_PRESERVE_CONTROL},
	{"address_size", D_ADDRESS_SIZE}, {"alias", D_ALIAS}, {"align", D_ALIGN},
	{"attribute", D_ATTRIBUTE}, {"branchtargets", D_BRANCHTARGETS},
	{"callprototype", D_CALLPROTOTYPE}, {"common", D_COMMON}, {"const", D_CONST},
	{"entry", D_ENTRY}, {"explicitcluster", D_EXPLICITCLUSTER}, {"extern", D_EXTERN},
	{"file", D_FILE}, {"func", D_FUNC}, {"global", D_GLOBAL}, {"loc", D_LOC},
	{"local", D_LOCAL}, {"maxclusterrank", D_MAXCLUSTERRANK},
	{"maxnctapersm", D_MAXNCTAPERSM}, {"maxnreg", D_MAXNREG}, {"maxntid", D_MAXNTID},
	{"minnctapersm", D_MINNCTAPERSM}, {"noreturn", D_NORETURN}, {"param", D_PARAM},
	{"pragma", D_PRAGMA}, {"ptr", D_PTR}, {"reg", D_REG},
	{"reqnctapercluster", D_REQNCTAPERCLUSTER}, {"reqntid", D_REQNTID},
	{"section", D_SECTION}, {"shared", D_SHARED}, {"shared::cluster", D_SHARED_CLUSTER},
	{"shared::cta", D_SHARED_CTA}, {"target", D_TARGET}, {"tex", D_TEX},
	{"version", D_VERSION}, {"visible", D_VISIBLE}, {"weak", D_WEAK},
};

static enum dir dir_of(const struct px_token *t)
{
	if (t->kind != PX_TK_DOT)
		return D_NONE;
	const char *s = t->text.p + 1;
	size_t n = t->text.n - 1;
	size_t lo = 0, hi = PX_COUNTOF(dirs);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *name = dirs[mid].name;
		size_t len = strlen(name);
		int c = memcmp(s, name, n < len ? n : len);
		if (c == 0)
			c = n < len ? -1 : n > len ? 1 : 0;
		if (c == 0)
			return dirs[mid].d;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return D_NONE;
}

static int space_of_dir(enum dir d)
{
	switch (d) {
	case D_CONST: return PX_SPACE_CONST;
	case D_GLOBAL: return PX_SPACE_GLOBAL;
	case D_LOCAL: return PX_SPACE_LOCAL;
	case D_PARAM: return PX_SPACE_PARAM;
	case D_SHARED: return PX_SPACE_SHARED;
	case D_SHARED_CTA: return PX_SPACE_SHARED_CTA;
	case D_SHARED_CLUSTER: return PX_SPACE_SHARED_CLUSTER;
	case D_TEX: return PX_SPACE_TEX;
	case D_REG: return PX_SPACE_REG;
	default: return -1;
	}
}

static int linkage_of_dir(enum dir d)
{
	switch (d) {
	case D_VISIBLE: return PX_LINK_VISIBLE;
	case D_EXTERN: return PX_LINK_EXTERN;
	case D_WEAK: return PX_LINK_WEAK;
	case D_COMMON: return PX_LINK_COMMON;
	default: return -1;
	}
}

/* ---- variables ---- */

/* initializer := '=' ( '{' items '}' | item ) ; items are numbers, names,
 * generic(name), mask(...), name+offset, nested braces (PTX ISA 9.0 5.4.4).
 * Skipped with a depth counter (never recursion); returns the number of
 * items at the outermost brace level (for `a[] = {1, 2, 3}`), 1 for a scalar. */
static bool skip_initializer(struct px_parser *P, uint64_t *items)
{
	uint32_t depth = 0;
	uint64_t n = 0;
	bool any = false, braces = false;
	struct px_token open = *P->tok;
	for (;;) {
		const struct px_token *t = P->tok;
		if (t->kind == PX_TK_EOF)
			return px_p_error(P, open.line, open.col, "unterminated initializer");
		if (t->kind == PX_TK_ERROR || t->kind == PX_TK_DOT || t->kind == PX_TK_STRING)
			return px_p_error_tok(P, t, "unexpected %s in initializer",
			                      t->kind == PX_TK_DOT ? "directive" : "token");
		if (t->kind != PX_TK_PUNCT) {
			any |= depth == 1;
		} else if (t->ch == '{') {
			any |= depth == 1;
			braces = true;
			depth++;
		} else if (t->ch == '}') {
			if (depth == 0)
				return px_p_error_tok(P, t, "unbalanced '}' in initializer");
			if (depth == 1 && any)
				n++;
			if (--depth == 0) {
				px_p_advance(P);
				break;
			}
		} else if (t->ch == ',' || t->ch == ';') {
			if (depth == 0)
				break;
			if (t->ch == ';')
				return px_p_error_tok(P, t, "expected '}' in initializer");
			if (depth == 1 && any)
				n++;
			if (depth == 1)
				any = false;
		} else {
			any |= depth == 1;
		}
		px_p_advance(P);
	}
	*items = braces ? n : 1;
	return true;
}

struct declspec {
	int space;            /* enum px_space */
	int linkage;
	uint8_t type, vec;
	uint32_t align;
	bool is_ptr;
	uint8_t ptr_space;
	uint32_t ptr_align;
};

/* attrs := { .align INT | .vN | type | .ptr | space (after .ptr) } */
static bool parse_attrs(struct px_parser *P, struct declspec *ds)
{
	while (P->tok->kind == PX_TK_DOT) {
		enum dir d = dir_of(P->tok);
		if (d == D_ALIGN) {
			px_p_advance(P);
			uint32_t al;
			if (!expect_u32(P, &al, "alignment"))
				return false;
			if (al == 0 || (al & (al - 1)))
				return px_p_error_tok(P, P->prev, "alignment must be a power of two");
			if (ds->is_ptr)
				ds->ptr_align = al;
			else
				ds->align = al;
			continue;
		}
		if (d == D_PTR) {
			ds->is_ptr = true;
			px_p_advance(P);
			continue;
		}
		uint32_t val = 0;
		int k = px_p_modifier(P, P->tok->text, &val);
		if (k == 'T') {
			if (ds->type)
				return px_p_error_tok(P, P->tok, "more than one type in declaration");
			ds->type = (uint8_t)val;
		} else if (k == 'V') {
			ds->vec = (uint8_t)val;
		} else if (k == 'S' && ds->is_ptr) {
			ds->ptr_space = (uint8_t)val;
		} else {
			break;
		}
		px_p_advance(P);
	}
	if (!ds->type)
		return px_p_error_tok(P, P->tok, "expected a type in declaration");
	return true;
}

/* dims := { '[' [INT] ']' }: fills elems (product) and unsized. */
static bool parse_dims(struct px_parser *P, struct px_var *v)
{
	v->elems = 1;
	bool first = true;
	while (px_p_is_punct(P, '[')) {
		px_p_advance(P);
		if (px_p_is_punct(P, ']')) {
			if (!first)
				return px_p_error_tok(P, P->tok, "only the first array dimension may be empty");
			v->unsized = true;
		} else {
			uint32_t n;
			if (!expect_u32(P, &n, "array size"))
				return false;
			if (n && v->elems > UINT64_MAX / 2 / n)
				return px_p_error_tok(P, P->prev, "array too large");
			v->elems *= n;
		}
		if (!expect_punct(P, ']', "after array size"))
			return false;
		first = false;
	}
	return true;
}

/* A variable in the vector of variables it belongs to. */
static struct px_var *new_var(struct px_parser *P, bool module)
{
	if (module)
		return memset(PX_VEC_PUSH(P->mvars, P->nmvars, P->capmvars), 0, sizeof(struct px_var));
	return memset(PX_VEC_PUSH(P->vars, P->nvars, P->capvars), 0, sizeof(struct px_var));
}

/* decl := [linkage] space attrs declarator {',' declarator} ';'
 * declarator := name ['<' INT '>'] dims ['=' initializer]
 * Requires the linkage and space already read into ds; P->tok at the attrs. */
static bool parse_decl(struct px_parser *P, struct declspec *ds, bool module)
{
	if (!parse_attrs(P, ds))
		return false;
	for (;;) {
		if (P->tok->kind != PX_TK_IDENT)
			return px_p_error_tok(P, P->tok, "expected a name in declaration");
		struct px_token name = *P->tok;
		px_p_advance(P);
		if (ds->space == PX_SPACE_REG) {
			if (module)
				return px_p_error(P, name.line, name.col, "register declared outside a function");
			bool range = false;
			uint32_t count = 0;
			if (px_p_is_punct(P, '<')) {
				px_p_advance(P);
				if (!expect_u32(P, &count, "register count"))
					return false;
				if (!expect_punct(P, '>', "after register count"))
					return false;
				range = true;
			}
			if (!declare_reg(P, name.text, name.line, name.col, ds->type,
			                 ds->vec ? ds->vec : 1, range, count))
				return false;
		} else {
			struct px_var *v = new_var(P, module);
			v->name = keep_str(P, name.text);
			v->space = (uint8_t)ds->space;
			v->type = ds->type;
			v->vec = ds->vec ? ds->vec : 1;
			v->linkage = (uint8_t)(ds->linkage < 0 ? PX_LINK_NONE : ds->linkage);
			v->align = ds->align;
			v->is_ptr = ds->is_ptr;
			v->ptr_space = ds->ptr_space;
			v->ptr_align = ds->ptr_align;
			v->line = name.line;
			v->col = name.col;
			if (!parse_dims(P, v))
				return false;
			if (px_p_is_punct(P, '=')) {
				px_p_advance(P);
				uint64_t items = 1;
				if (!skip_initializer(P, &items))
					return false;
				/* the vector may have moved while skipping? no: nothing pushes */
				v = module ? &P->mvars[P->nmvars - 1] : &P->vars[P->nvars - 1];
				v->has_init = true;
				if (v->unsized) {
					v->unsized = false;
					if (items && v->elems > UINT64_MAX / 2 / items)
						return px_p_error(P, name.line, name.col, "array too large");
					v->elems *= items;
				}
			}
		}
		if (px_p_is_punct(P, ',')) {
			px_p_advance(P);
			continue;
		}
		return expect_punct(P, ';', "after declaration");
	}
}

/* ---- functions ---- */

/* param := (.param | .reg) attrs name dims
 * params := '(' [param {',' param}] ')' */
static bool parse_params(struct px_parser *P, struct px_var **out, uint32_t *nout, bool declare)
{
	if (!expect_punct(P, '(', "before parameter list"))
		return false;
	struct px_var *items = NULL;
	size_t n = 0, cap = 0;
	bool ok = true;
	if (!px_p_is_punct(P, ')')) {
		for (;;) {
			enum dir d = dir_of(P->tok);
			if (d != D_PARAM && d != D_REG) {
				ok = px_p_error_tok(P, P->tok, "expected .param or .reg in parameter list");
				break;
			}
			struct declspec ds = {.space = space_of_dir(d), .linkage = -1};
			px_p_advance(P);
			if (!(ok = parse_attrs(P, &ds)))
				break;
			if (P->tok->kind != PX_TK_IDENT) {
				ok = px_p_error_tok(P, P->tok, "expected a parameter name");
				break;
			}
			struct px_var *v = memset(PX_VEC_PUSH(items, n, cap), 0, sizeof *v);
			v->name = keep_str(P, P->tok->text);
			v->space = (uint8_t)ds.space;
			v->type = ds.type;
			v->vec = ds.vec ? ds.vec : 1;
			v->align = ds.align;
			v->is_ptr = ds.is_ptr;
			v->ptr_space = ds.ptr_space;
			v->ptr_align = ds.ptr_align;
			v->line = P->tok->line;
			v->col = P->tok->col;
			px_p_advance(P);
			if (!(ok = parse_dims(P, v)))
				break;
			if (d == D_REG && declare &&
			    !(ok = declare_reg(P, v->name, v->line, v->col, v->type, v->vec, false, 0)))
				break;
			if (px_p_is_punct(P, ',')) {
				px_p_advance(P);
				continue;
			}
			break;
		}
	}
	if (ok)
		ok = expect_punct(P, ')', "after parameter list");
	*out = n ? px_arena_copy(P->a, items, n * sizeof *items) : NULL;
	*nout = (uint32_t)n;
	free(items);
	return ok;
}

/* Reads 1 to max comma-separated unsigned integers into vals. */
static bool parse_dims3(struct px_parser *P, uint32_t *vals, int max, const char *what)
{
	for (int i = 0; i < max; i++) {
		if (!expect_u32(P, &vals[i], what))
			return false;
		if (!px_p_is_punct(P, ','))
			return true;
		if (i + 1 < max)
			px_p_advance(P);
	}
	return true;
}

/* pragma := .pragma STRING {',' STRING} ';'  (the strings, quotes removed);
 * at: the index of the body instruction it comes before (px_func.pragma_at) */
static bool parse_pragma(struct px_parser *P, bool keep, uint32_t at)
{
	px_p_advance(P);
	for (;;) {
		if (P->tok->kind != PX_TK_STRING)
			return px_p_error_tok(P, P->tok, "expected a string after .pragma");
		if (keep) {
			*PX_VEC_PUSH(P->pragmas, P->npragmas, P->cappragmas) =
				keep_str(P, px_str_make(P->tok->text.p + 1, P->tok->text.n - 2));
			*PX_VEC_PUSH(P->pragma_at, P->npragma_at, P->cappragma_at) = at;
		}
		px_p_advance(P);
		if (!px_p_is_punct(P, ','))
			break;
		px_p_advance(P);
	}
	return expect_punct(P, ';', "after .pragma");
}

/* Skips a balanced '(' ... ')' group (.attribute(...)); iterative. */
static bool skip_parens(struct px_parser *P)
{
	struct px_token open = *P->tok;
	if (!expect_punct(P, '(', "after .attribute"))
		return false;
	uint32_t depth = 1;
	while (depth) {
		if (P->tok->kind == PX_TK_EOF || px_p_is_punct(P, ';') || px_p_is_punct(P, '{'))
			return px_p_error(P, open.line, open.col, "unbalanced '('");
		if (px_p_is_punct(P, '('))
			depth++;
		else if (px_p_is_punct(P, ')'))
			depth--;
		px_p_advance(P);
	}
	return true;
}

/* perf := .maxntid N[,N[,N]] | .reqntid ... | .minnctapersm N | .maxnctapersm N
 *       | .maxnreg N | .noreturn | .explicitcluster | .reqnctapercluster ...
 *       | .maxclusterrank N | .pragma STRING ';' | .attribute(...)
 *       | .abi_preserve N | .abi_preserve_control N */
static bool parse_perf(struct px_parser *P, struct px_func *f)
{
	uint32_t dummy;
	switch (dir_of(P->tok)) {
	case D_MAXNTID:
		px_p_advance(P);
		return parse_dims3(P, f->maxntid, 3, ".maxntid value");
	case D_REQNTID:
		px_p_advance(P);
		return parse_dims3(P, f->reqntid, 3, ".reqntid value");
	case D_REQNCTAPERCLUSTER:
		px_p_advance(P);
		return parse_dims3(P, f->reqnctapercluster, 3, ".reqnctapercluster value");
	case D_MINNCTAPERSM:
		px_p_advance(P);
		return expect_u32(P, &f->minnctapersm, ".minnctapersm value");
	case D_MAXNCTAPERSM:
		px_p_advance(P);
		return expect_u32(P, &f->maxnctapersm, ".maxnctapersm value");
	case D_MAXNREG:
		px_p_advance(P);
		return expect_u32(P, &f->maxnreg, ".maxnreg value");
	case D_MAXCLUSTERRANK:
		px_p_advance(P);
		return expect_u32(P, &f->maxclusterrank, ".maxclusterrank value");
	case D_ABI_PRESERVE:
	case D_ABI_PRESERVE_CONTROL:
		px_p_advance(P);
		return expect_u32(P, &dummy, "register count");
	case D_NORETURN:
		f->noreturn = true;
		px_p_advance(P);
		return true;
	case D_EXPLICITCLUSTER:
		f->explicitcluster = true;
		px_p_advance(P);
		return true;
	case D_PRAGMA:
		return parse_pragma(P, true, UINT32_MAX);
	case D_ATTRIBUTE:
		px_p_advance(P);
		return skip_parens(P);
	default:
		return px_p_error_tok(P, P->tok, "unexpected %s in function declaration",
		                      P->tok->kind == PX_TK_DOT ? "directive" : "token");
	}
}

/* Skips the rest of a bad statement: to just after ';', or to (not past) a
 * brace. */
static void sync_stmt(struct px_parser *P)
{
	for (;;) {
		if (P->tok->kind == PX_TK_EOF || px_p_is_punct(P, '{') || px_p_is_punct(P, '}'))
			return;
		if (px_p_is_punct(P, ';')) {
			px_p_advance(P);
			return;
		}
		px_p_advance(P);
	}
}

/* loc := .loc INT INT INT [',' function_name NAME ['+' INT]] [',' inlined_at INT INT INT]
 * (PTX ISA 9.0 11.5.3) */
static bool parse_loc(struct px_parser *P)
{
	px_p_advance(P);
	uint32_t v[3];
	for (int i = 0; i < 3; i++)
		if (!expect_u32(P, &v[i], i == 0 ? "file index" : i == 1 ? "line number" : "column number"))
			return false;
	while (px_p_is_punct(P, ',')) {
		px_p_advance(P);
		if (P->tok->kind != PX_TK_IDENT)
			return px_p_error_tok(P, P->tok, "expected function_name or inlined_at in .loc");
		if (px_str_eqc(P->tok->text, "function_name")) {
			px_p_advance(P);
			if (P->tok->kind != PX_TK_IDENT)
				return px_p_error_tok(P, P->tok, "expected a label after function_name");
			px_p_advance(P);
			if (px_p_is_punct(P, '+')) {
				px_p_advance(P);
				uint32_t off;
				if (!expect_u32(P, &off, "offset"))
					return false;
			}
		} else if (px_str_eqc(P->tok->text, "inlined_at")) {
			px_p_advance(P);
			uint32_t w;
			for (int i = 0; i < 3; i++)
				if (!expect_u32(P, &w, "inlined_at position"))
					return false;
		} else {
			return px_p_error_tok(P, P->tok, "expected function_name or inlined_at in .loc");
		}
	}
	P->loc_file = v[0];
	P->loc_line = v[1];
	P->loc_col = v[2];
	return true;
}

/* branchtargets := NAME ':' .branchtargets LABEL {',' LABEL} ';' */
static bool parse_branchtargets(struct px_parser *P, const struct px_token *name)
{
	px_p_advance(P);
	size_t first = P->nbtnames;
	for (;;) {
		if (P->tok->kind != PX_TK_IDENT)
			return px_p_error_tok(P, P->tok, "expected a label in .branchtargets");
		*PX_VEC_PUSH(P->btnames, P->nbtnames, P->capbtnames) = P->tok->text;
		struct px_labelref *r = PX_VEC_PUSH(P->refs, P->nrefs, P->caprefs);
		r->name = P->tok->text;
		r->line = P->tok->line;
		r->col = P->tok->col;
		px_p_advance(P);
		if (!px_p_is_punct(P, ','))
			break;
		px_p_advance(P);
	}
	if (!expect_punct(P, ';', "after .branchtargets"))
		return false;
	struct px_branchtargets *bt = PX_VEC_PUSH(P->bts, P->nbts, P->capbts);
	bt->name = name->text;
	bt->line = name->line;
	/* labels point into btnames for now (index); fixed up at function end */
	bt->labels = (px_str *)(uintptr_t)first;
	bt->nlabels = (uint32_t)(P->nbtnames - first);
	return true;
}

/* callprototype := NAME ':' .callprototype ['(' param ')'] NAME '(' params ')' ';'
 * Only checked for balance: the body is not needed by any pass. */
static bool parse_callprototype(struct px_parser *P)
{
	px_p_advance(P);
	uint32_t depth = 0;
	while (!(depth == 0 && px_p_is_punct(P, ';'))) {
		if (P->tok->kind == PX_TK_EOF || px_p_is_punct(P, '{') || px_p_is_punct(P, '}'))
			return px_p_error_tok(P, P->tok, "expected ';' after .callprototype");
		if (P->tok->kind == PX_TK_ERROR)
			return px_p_error_tok(P, P->tok, "bad token");
		if (px_p_is_punct(P, '('))
			depth++;
		else if (px_p_is_punct(P, ')') && depth)
			depth--;
		px_p_advance(P);
	}
	px_p_advance(P);
	return true;
}

/* label := NAME ':' (P->prev is NAME, P->tok the ':') */
static bool define_label(struct px_parser *P, const struct px_token *name, int32_t val)
{
	struct px_symslot *s = px_symtab_find(&P->labtab, name->text, true);
	if (s->val != -1)
		return px_p_error(P, name->line, name->col, "redefinition of label '" PX_STR_FMT "'",
		                  PX_STR_ARG(name->text));
	s->val = val;
	return true;
}

/* statement := '{' | '}' | NAME ':' [.branchtargets ... | .callprototype ...]
 *            | decl | .loc ... | .pragma ... ';' | instruction | ';'
 * body := '{' {statement} '}'  -- nesting handled with the scope stack. */
static bool parse_statement(struct px_parser *P)
{
	struct px_token *t = P->tok;
	if (t->kind == PX_TK_IDENT) {
		/* a name with a modifier written right after it is an opcode, not
		 * a label: parsed from the name, without lexing the modifier */
		if (px_p_dots_follow(P))
			return px_p_instruction(P, t);
		px_p_advance(P);  /* the name is now P->prev, until the next advance */
		if (px_p_is_punct(P, ':')) {
			struct px_token name = *P->prev;
			px_p_advance(P);
			enum dir d = dir_of(P->tok);
			if (d == D_BRANCHTARGETS) {
				if (!define_label(P, &name, -2))
					return false;
				return parse_branchtargets(P, &name);
			}
			if (d == D_CALLPROTOTYPE) {
				if (!define_label(P, &name, -2))
					return false;
				return parse_callprototype(P);
			}
			if (!define_label(P, &name, (int32_t)P->nlabels))
				return false;
			struct px_label *l = PX_VEC_PUSH(P->labels, P->nlabels, P->caplabels);
			l->name = name.text;
			l->insn = (uint32_t)P->ninsns;
			l->line = name.line;
			l->col = name.col;
			return true;
		}
		return px_p_instruction(P, P->prev);
	}
	if (px_p_is_punct(P, '@'))
		return px_p_instruction(P, NULL);
	if (px_p_is_punct(P, ';')) {
		px_p_advance(P);
		return true;
	}
	enum dir d = dir_of(t);
	if (d == D_LOC)
		return parse_loc(P);
	if (d == D_PRAGMA)
		return parse_pragma(P, true, (uint32_t)P->ninsns);
	int linkage = -1;
	while (linkage_of_dir(dir_of(P->tok)) >= 0) {
		linkage = linkage_of_dir(dir_of(P->tok));
		px_p_advance(P);
	}
	int space = space_of_dir(dir_of(P->tok));
	if (space >= 0) {
		struct declspec ds = {.space = space, .linkage = linkage};
		px_p_advance(P);
		return parse_decl(P, &ds, false);
	}
	return px_p_error_tok(P, P->tok, "expected an instruction or a declaration");
}

/* Copies a scratch vector into the arena, exactly sized. */
static void *arena_copy(struct px_arena *a, const void *p, size_t n, size_t size)
{
	if (!n)
		return NULL;
	return px_arena_copy(a, p, n * size);
}

static void check_label_refs(struct px_parser *P)
{
	for (size_t i = 0; i < P->nrefs && !P->stop; i++) {
		const struct px_labelref *r = &P->refs[i];
		if (!px_symtab_find(&P->labtab, r->name, false))
			px_p_error(P, r->line, r->col, "undefined label '" PX_STR_FMT "'",
			           PX_STR_ARG(r->name));
	}
}

/* Moves the scratch vectors of the function just parsed into the arena. */
static void finish_body(struct px_parser *P, struct px_func *f)
{
	check_label_refs(P);
	f->insns = arena_copy(P->ba, P->insns, P->ninsns, sizeof *P->insns);
	f->ninsns = (uint32_t)P->ninsns;
	struct px_operand *ops = arena_copy(P->ba, P->fops, P->nfops, sizeof *P->fops);
	for (uint32_t i = 0; i < f->ninsns; i++)
		if (f->insns[i].nopnds)
			f->insns[i].opnds = ops + (uintptr_t)f->insns[i].opnds;
	f->labels = arena_copy(P->ba, P->labels, P->nlabels, sizeof *P->labels);
	f->nlabels = (uint32_t)P->nlabels;
	f->regs = arena_copy(P->ba, P->regs, P->nregs, sizeof *P->regs);
	f->nregs = (uint32_t)P->nregs;
	f->vars = arena_copy(P->a, P->vars, P->nvars, sizeof *P->vars);
	f->nvars = (uint32_t)P->nvars;
	f->pragmas = arena_copy(P->a, P->pragmas, P->npragmas, sizeof *P->pragmas);
	f->pragma_at = arena_copy(P->a, P->pragma_at, P->npragma_at, sizeof *P->pragma_at);
	f->npragmas = (uint32_t)P->npragmas;
	for (size_t i = 0; i < P->nbts; i++) {
		size_t first = (size_t)(uintptr_t)P->bts[i].labels;
		P->bts[i].labels = arena_copy(P->ba, P->btnames + first, P->bts[i].nlabels, sizeof(px_str));
	}
	f->btargets = arena_copy(P->ba, P->bts, P->nbts, sizeof *P->bts);
	f->nbtargets = (uint32_t)P->nbts;
}

static void reset_function(struct px_parser *P)
{
	P->ninsns = P->nlabels = P->nregs = P->nvars = P->npragmas = P->npragma_at = P->nfops = 0;
	P->nbts = P->nbtnames = P->nrefs = P->nregents = P->nscopes = 0;
	symtab_reset(&P->regtab);
	symtab_reset(&P->labtab);
	memset(P->reg_first, 0, sizeof P->reg_first);
	memset(P->plain_digit_shapes, 0, sizeof P->plain_digit_shapes);
	forget_reg_lookups(P);
	P->loc_file = P->loc_line = P->loc_col = 0;
}

/* Parses statements up to the brace closing the body (P->tok at its '{'). */
static void parse_body(struct px_parser *P, struct px_func *fhead)
{
	struct px_token open = *P->tok;
	uint32_t depth = 0;
	while (!P->stop) {
		if (px_p_is_punct(P, '{')) {
			if (depth >= PX_MAX_SCOPE_DEPTH) {
				px_p_error_tok(P, P->tok, "scopes nested too deeply (limit %d)",
				               PX_MAX_SCOPE_DEPTH);
				P->stop = true;
				break;
			}
			depth++;
			scope_push(P);
			px_p_advance(P);
			continue;
		}
		if (px_p_is_punct(P, '}')) {
			scope_pop(P);
			fhead->end_line = P->tok->line;
			px_p_advance(P);
			if (--depth == 0)
				break;
			continue;
		}
		if (P->tok->kind == PX_TK_EOF) {
			px_p_error(P, open.line, open.col, "unterminated function body");
			break;
		}
		if (!parse_statement(P))
			sync_stmt(P);
	}
}

/* Points the module at everything parsed so far (the scratch vectors until
 * the end, when they are copied into the arena). */
static void publish(struct px_parser *P)
{
	struct px_module *m = P->m;
	m->funcs = P->funcs;
	m->nfuncs = (uint32_t)P->nfuncs;
	m->vars = P->mvars;
	m->nvars = (uint32_t)P->nmvars;
	m->files = P->files;
	m->nfiles = (uint32_t)P->nfiles;
	m->targets = P->targets;
	m->ntargets = (uint32_t)P->ntargets;
}

/* Streaming: gives the function just parsed to the hook, while the input
 * has parsed without errors so far (a module with errors is never
 * analysed). */
static void hand_over(struct px_parser *P, uint32_t index)
{
	if (!P->hook || !P->hook->function || P->diags->errors > P->errors_at_start)
		return;
	publish(P);
	P->hook->function(P->hook->ctx, P->m, index);
}

/* func := [linkage] (.entry | .func) ['(' params ')'] NAME ['(' params ')']
 *         {perf} (';' | body)
 * Requires P->tok at .entry/.func. A body for a name already declared by a
 * prototype fills that function's entry in place. */
static bool parse_function(struct px_parser *P, int linkage)
{
	struct px_func fh = {0};
	fh.is_entry = dir_of(P->tok) == D_ENTRY;
	fh.linkage = (uint8_t)(linkage < 0 ? PX_LINK_NONE : linkage);
	fh.line = P->tok->line;
	fh.text_from = (size_t)(P->tok->text.p - P->m->text);
	fh.col = P->tok->col;
	px_p_advance(P);
	reset_function(P);
	scope_push(P);  /* scope 0: .reg parameters */
	while (P->tok->kind == PX_TK_DOT && dir_of(P->tok) != D_NONE &&
	       dir_of(P->tok) != D_PARAM && dir_of(P->tok) != D_REG)
		if (!parse_perf(P, &fh))
			return false;
	if (px_p_is_punct(P, '(')) {
		if (fh.is_entry)
			return px_p_error_tok(P, P->tok, "a kernel (.entry) has no return parameters");
		if (!parse_params(P, &fh.rets, &fh.nrets, true))
			return false;
	}
	if (P->tok->kind != PX_TK_IDENT)
		return px_p_error_tok(P, P->tok, "expected a function name");
	fh.name = keep_str(P, P->tok->text);
	px_p_advance(P);
	if (px_p_is_punct(P, '(') && !parse_params(P, &fh.params, &fh.nparams, true))
		return false;
	while (P->tok->kind == PX_TK_DOT)
		if (!parse_perf(P, &fh))
			return false;
	if (px_p_is_punct(P, ';')) {
		px_p_advance(P);
		fh.pragmas = arena_copy(P->a, P->pragmas, P->npragmas, sizeof *P->pragmas);
		fh.pragma_at = arena_copy(P->a, P->pragma_at, P->npragma_at, sizeof *P->pragma_at);
		fh.npragmas = (uint32_t)P->npragmas;
	} else if (px_p_is_punct(P, '{')) {
		fh.has_body = true;
		if (P->hook && P->hook->body_arenas)
			P->ba = fh.body_arena = px_arena_new();
		parse_body(P, &fh);
		finish_body(P, &fh);
		P->ba = P->a;
	} else {
		return px_p_error_tok(P, P->tok, "expected '{' or ';' after function declaration");
	}
	struct px_symslot *s = px_symtab_find(&P->funcnames, fh.name, true);
	int32_t index = s->val;
	if (index >= 0) {
		struct px_func *old = &P->funcs[index];
		if (fh.has_body && old->has_body) {
			px_arena_delete(fh.body_arena);
			return px_p_error(P, fh.line, fh.col, "redefinition of function '" PX_STR_FMT "'",
			                  PX_STR_ARG(fh.name));
		}
		if (fh.has_body)
			*old = fh;
	} else {
		index = s->val = (int32_t)P->nfuncs;
		*PX_VEC_PUSH(P->funcs, P->nfuncs, P->capfuncs) = fh;
	}
	if (fh.has_body)
		hand_over(P, (uint32_t)index);
	return true;
}

/* Module-level recovery: skips to the next top-level directive, past a
 * ';' or a balanced '}' at depth 0. */
static void sync_module(struct px_parser *P)
{
	uint32_t depth = 0;
	for (;;) {
		struct px_token *t = P->tok;
		if (t->kind == PX_TK_EOF)
			return;
		if (t->kind == PX_TK_PUNCT) {
			if (t->ch == '{')
				depth++;
			else if (t->ch == '}') {
				if (depth <= 1) {
					px_p_advance(P);
					return;
				}
				depth--;
			} else if (t->ch == ';' && depth == 0) {
				px_p_advance(P);
				return;
			}
		} else if (depth == 0 && t->kind == PX_TK_DOT) {
			switch (dir_of(t)) {
			case D_ENTRY: case D_FUNC: case D_VISIBLE: case D_EXTERN: case D_WEAK:
			case D_GLOBAL: case D_CONST: case D_VERSION: case D_TARGET:
			case D_ADDRESS_SIZE: case D_FILE: case D_SECTION:
				return;
			default:
				break;
			}
		}
		px_p_advance(P);
	}
}

/* version := .version INT '.' INT  (lexed as one float token "9.0") */
static bool parse_version(struct px_parser *P)
{
	px_p_advance(P);
	px_str s = P->tok->text;
	if (P->tok->kind != PX_TK_FLOAT || (P->tok->flags & PX_TKF_F32))
		return px_p_error_tok(P, P->tok, "expected a version number like 9.0");
	uint32_t maj = 0, min = 0, i = 0;
	for (; i < s.n && s.p[i] >= '0' && s.p[i] <= '9'; i++)
		maj = maj < 100000 ? maj * 10 + (uint32_t)(s.p[i] - '0') : maj;
	if (i == s.n || s.p[i] != '.' || i + 1 == s.n)
		return px_p_error_tok(P, P->tok, "expected a version number like 9.0");
	for (i++; i < s.n && s.p[i] >= '0' && s.p[i] <= '9'; i++)
		min = min < 100000 ? min * 10 + (uint32_t)(s.p[i] - '0') : min;
	if (i != s.n)
		return px_p_error_tok(P, P->tok, "expected a version number like 9.0");
	P->m->version_major = maj;
	P->m->version_minor = min;
	px_p_advance(P);
	return true;
}

/* target := .target WORD {',' WORD}  (sm_90a, texmode_independent, debug, ...) */
static bool parse_target(struct px_parser *P)
{
	px_p_advance(P);
	for (;;) {
		if (P->tok->kind != PX_TK_IDENT)
			return px_p_error_tok(P, P->tok, "expected a target name");
		px_str w = keep_str(P, P->tok->text);
		*PX_VEC_PUSH(P->targets, P->ntargets, P->captargets) = w;
		if (px_str_starts(w, "sm_") || px_str_starts(w, "compute_"))
			P->m->target = w;
		else if (px_str_eqc(w, "texmode_independent"))
			P->m->texmode_independent = true;
		else if (px_str_eqc(w, "debug"))
			P->m->target_debug = true;
		else if (px_str_eqc(w, "map_f64_to_f32"))
			P->m->map_f64_to_f32 = true;
		else if (!px_str_eqc(w, "texmode_unified"))
			return px_p_error_tok(P, P->tok, "unknown target '" PX_STR_FMT "'", PX_STR_ARG(w));
		px_p_advance(P);
		if (!px_p_is_punct(P, ','))
			return true;
		px_p_advance(P);
	}
}

/* file := .file INT STRING [',' INT ',' INT] */
static bool parse_file(struct px_parser *P)
{
	px_p_advance(P);
	uint32_t idx;
	if (!expect_u32(P, &idx, "file index"))
		return false;
	if (P->tok->kind != PX_TK_STRING)
		return px_p_error_tok(P, P->tok, "expected a file name string");
	struct px_file_entry *fe = PX_VEC_PUSH(P->files, P->nfiles, P->capfiles);
	fe->index = idx;
	fe->name = keep_str(P, px_str_make(P->tok->text.p + 1, P->tok->text.n - 2));
	px_p_advance(P);
	for (int i = 0; i < 2 && px_p_is_punct(P, ','); i++) {
		px_p_advance(P);
		if (P->tok->kind != PX_TK_INT)
			return px_p_error_tok(P, P->tok, "expected a number in .file");
		px_p_advance(P);
	}
	return true;
}

/* section := .section NAME '{' raw-data '}'  (DWARF; skipped without lexing) */
static bool parse_section(struct px_parser *P)
{
	px_p_advance(P);
	if (P->tok->kind != PX_TK_DOT && P->tok->kind != PX_TK_IDENT)
		return px_p_error_tok(P, P->tok, "expected a section name");
	px_p_advance(P);
	if (!px_p_is_punct(P, '{'))
		return px_p_error_tok(P, P->tok, "expected '{' after section name");
	struct px_token open = *P->tok;
	/* the lexer is already past '{' (P->tok is it): skip raw text */
	if (!px_lexer_skip_block(&P->lx)) {
		px_lexer_next(&P->lx, P->tok);
		return px_p_error(P, open.line, open.col, "unterminated .section");
	}
	px_p_advance(P);
	return true;
}

/* alias := .alias NAME ',' NAME ';' */
static bool parse_alias(struct px_parser *P)
{
	px_p_advance(P);
	if (P->tok->kind != PX_TK_IDENT)
		return px_p_error_tok(P, P->tok, "expected a name after .alias");
	px_p_advance(P);
	if (!expect_punct(P, ',', "in .alias"))
		return false;
	if (P->tok->kind != PX_TK_IDENT)
		return px_p_error_tok(P, P->tok, "expected a name in .alias");
	px_p_advance(P);
	return expect_punct(P, ';', "after .alias");
}

/* directive := .version ... | .target ... | .address_size INT | .file ...
 *            | .section ... | .pragma ... | .alias ... | ';'
 *            | {linkage} (func | decl) */
static bool parse_toplevel(struct px_parser *P)
{
	enum dir d = dir_of(P->tok);
	switch (d) {
	case D_VERSION:
		return parse_version(P);
	case D_TARGET:
		return parse_target(P);
	case D_ADDRESS_SIZE: {
		px_p_advance(P);
		uint32_t n;
		if (!expect_u32(P, &n, "address size"))
			return false;
		if (n != 32 && n != 64)
			return px_p_error_tok(P, P->prev, "address size must be 32 or 64");
		P->m->address_size = n;
		return true;
	}
	case D_FILE:
		return parse_file(P);
	case D_SECTION:
		return parse_section(P);
	case D_PRAGMA:
		return parse_pragma(P, false, UINT32_MAX);
	case D_ALIAS:
		return parse_alias(P);
	default:
		break;
	}
	if (px_p_is_punct(P, ';')) {
		px_p_advance(P);
		return true;
	}
	int linkage = -1;
	while (linkage_of_dir(dir_of(P->tok)) >= 0) {
		linkage = linkage_of_dir(dir_of(P->tok));
		px_p_advance(P);
	}
	d = dir_of(P->tok);
	if (d == D_ENTRY || d == D_FUNC)
		return parse_function(P, linkage);
	int space = space_of_dir(d);
	if (space >= 0) {
		struct declspec ds = {.space = space, .linkage = linkage};
		px_p_advance(P);
		return parse_decl(P, &ds, true);
	}
	return px_p_error_tok(P, P->tok, "expected a directive");
}

/* With a mapped text, gives back the pages before the current token once
 * at least PX_RELEASE_STEP bytes (or, with all, any whole page) lie behind
 * the last release. Called between top-level directives: the bodies behind
 * have been handed over, and what the module keeps of them was copied. */
#define PX_RELEASE_STEP ((size_t)1 << 20)
static void release_behind(struct px_parser *P, bool all)
{
	if (!P->text_mapped)
		return;
	size_t at = (size_t)(P->tok->text.p - P->m->text);
	if (all)
		at = P->m->len;
	if (P->hook && P->hook->hold) {
		size_t hold = P->hook->hold(P->hook->ctx);
		if (at > hold)
			at = hold;
	}
	if (at > P->released && (all || at - P->released >= PX_RELEASE_STEP))
		P->released = px_text_release(P->m->text, P->m->len, P->released, at);
}

static void parser_free(struct px_parser *P)
{
	free(P->funcs);
	free(P->mvars);
	free(P->files);
	free(P->targets);
	symtab_free(&P->funcnames);
	free(P->insns);
	free(P->labels);
	free(P->regs);
	free(P->vars);
	free(P->pragmas);
	free(P->pragma_at);
	free(P->bts);
	free(P->btnames);
	free(P->refs);
	symtab_free(&P->regtab);
	symtab_free(&P->labtab);
	symtab_free(&P->opcodes);
	symtab_free(&P->modtab);
	symtab_free(&P->spellings);
	free(P->templates);
	free(P->regents);
	free(P->scopes);
	free(P->ostk);
	free(P->fops);
	px_arena_delete(P->keys);
}

struct px_module *px_ptx_parse(const char *path, char *text, size_t len,
                               struct px_diags *diags)
{
	return px_ptx_parse_hooked(path, text, len, diags, NULL);
}

struct px_module *px_ptx_parse_hooked(const char *path, char *text, size_t len,
                                      struct px_diags *diags, const struct px_parse_hook *hook)
{
	struct px_arena *a = px_arena_new();
	struct px_module *m = px_arena_alloc(a, sizeof *m);
	m->arena = a;
	m->path = path;
	m->text = text;
	m->len = len;
	m->text_mapped = hook && hook->text_mapped;

	struct px_parser *P = xcalloc(1, sizeof *P);
	P->path = path;
	P->m = m;
	P->a = a;
	P->ba = a;
	P->hook = hook;
	P->errors_at_start = diags->errors;
	P->diags = diags;
	/* every declared register id costs IR memory: bound them by the input */
	P->reg_budget = (uint64_t)len * 4 + 65536;
	if (len > UINT32_MAX) {
		px_diag_add(diags, PX_ERROR, path, 0, 0, NULL, "input too large (4 GiB or more)");
		free(P);
		return m;
	}
	P->keys = px_arena_new();
	P->text_mapped = m->text_mapped;
	px_p_init_tables(P);
	P->tok = &P->toks[0];
	P->prev = &P->toks[1];
	px_lexer_init(&P->lx, text, len);
	px_p_advance(P);
	while (!P->stop && P->tok->kind != PX_TK_EOF) {
		if (!parse_toplevel(P))
			sync_module(P);
		release_behind(P, false);
	}
	release_behind(P, true);

	m->funcs = arena_copy(a, P->funcs, P->nfuncs, sizeof *P->funcs);
	m->nfuncs = (uint32_t)P->nfuncs;
	m->vars = arena_copy(a, P->mvars, P->nmvars, sizeof *P->mvars);
	m->nvars = (uint32_t)P->nmvars;
	m->files = arena_copy(a, P->files, P->nfiles, sizeof *P->files);
	m->nfiles = (uint32_t)P->nfiles;
	m->targets = arena_copy(a, P->targets, P->ntargets, sizeof *P->targets);
	m->ntargets = (uint32_t)P->ntargets;
	parser_free(P);
	free(P);
	return m;
}
