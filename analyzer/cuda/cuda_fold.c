/* cuda_fold.c: constant folding of the integer expressions CUDA code sizes
 * and launches things with: __shared__ extents, __launch_bounds__ and
 * __maxnreg__ arguments, launch configurations, opt-in sizes, annotations.
 *
 * Approach: a precedence-climbing evaluator over the expression's text (in
 * the blanked buffer, so pragmas and attributes are already gone), so that
 * a macro body, a -D value and a tree node fold the same way. Names resolve
 * through cu_lookup: the last definition before the use in the same
 * function (`int threads = 256;`, `dim3 b(16, 16);`), file-scope
 * const/constexpr variables and enumerators, then object-like macros (the
 * file's own and -D). A compound assignment (`s *= 2`) makes a name
 * unknown, as does a definition under a loop the use is outside of
 * (approximation: the last textual definition wins). Arithmetic is in 64-bit
 * integers; division by zero, overflow of the shift count or recursion
 * deeper than 16 fail the fold rather than guess.
 *
 * Grammar (C operator precedence):
 *   expr    := lor ['?' expr ':' expr]
 *   lor     := land {'||' land}      land := bor {'&&' bor}
 *   bor     := bxor {'|' bxor}       bxor := band {'^' band}
 *   band    := eq {'&' eq}           eq   := rel {('=='|'!=') rel}
 *   rel     := shift {('<'|'>'|'<='|'>=') shift}
 *   shift   := add {('<<'|'>>') add}
 *   add     := mul {('+'|'-') mul}   mul  := unary {('*'|'/'|'%') unary}
 *   unary   := ('-'|'+'|'~'|'!') unary | 'sizeof' '(' TYPE ')' | '(' TYPE ')' unary
 *            | ('static_cast'|'reinterpret_cast') '<' TYPE '>' '(' expr ')' | primary
 *   primary := NUMBER [suffix] | CHAR | NAME {'::' NAME} ['(' args ')'] | '(' expr ')'
 * where NAME '(' args ')' is a functional cast (int(x), size_t(x)) or
 * min/max. */
#include <string.h>

#include "cuda_int.h"

enum { MAX_DEPTH = 16 };

struct lex {
	const struct cu_env *e;
	const char *s, *end;
	bool bad;
};

static bool is_id0(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_id(char c)
{
	return is_id0(c) || (c >= '0' && c <= '9');
}

static void skip_ws(struct lex *l)
{
	for (;;) {
		while (l->s < l->end && (*l->s == ' ' || *l->s == '\t' || *l->s == '\n' || *l->s == '\r' ||
		                         *l->s == '\\'))
			l->s++;
		if (l->end - l->s >= 2 && l->s[0] == '/' && l->s[1] == '*') {
			const char *c = l->s + 2;
			while (c + 1 < l->end && !(c[0] == '*' && c[1] == '/'))
				c++;
			l->s = c + 2 <= l->end ? c + 2 : l->end;
			continue;
		}
		if (l->end - l->s >= 2 && l->s[0] == '/' && l->s[1] == '/') {
			while (l->s < l->end && *l->s != '\n')
				l->s++;
			continue;
		}
		return;
	}
}

static bool accept(struct lex *l, const char *op)
{
	skip_ws(l);
	size_t n = strlen(op);
	if ((size_t)(l->end - l->s) < n || memcmp(l->s, op, n) != 0)
		return false;
	/* '<' must not take the first byte of '<<' or '<=' etc. */
	if (n == 1 && l->s + 1 < l->end) {
		char c = op[0], d = l->s[1];
		if ((c == '<' && (d == '<' || d == '=')) || (c == '>' && (d == '>' || d == '=')) ||
		    (c == '&' && d == '&') || (c == '|' && d == '|') || (c == '=' && d == '=') ||
		    (c == '!' && d == '='))
			return false;
	}
	l->s += n;
	return true;
}

static int64_t expr(struct lex *l);

/* A type name at l->s up to the closing delimiter `close`; returns its sizeof
 * (0 unknown) and leaves l->s after the type. */
static uint64_t type_until(struct lex *l, char close)
{
	skip_ws(l);
	const char *s = l->s;
	int depth = 0;
	while (l->s < l->end && !(depth == 0 && *l->s == close)) {
		if (*l->s == '(' || *l->s == '<')
			depth++;
		else if (*l->s == ')' || *l->s == '>')
			depth--;
		l->s++;
	}
	return cu_sizeof_type(l->e, s, (size_t)(l->s - s));
}

/* Does the text at l->s look like "(TYPE)" (a cast)? */
static bool looks_like_cast(const struct lex *l)
{
	const char *p = l->s + 1, *e = l->end;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	const char *w = p;
	while (p < e && (is_id(*p) || *p == ' ' || *p == '*' || *p == ':'))
		p++;
	if (p >= e || *p != ')' || p == w)
		return false;
	return cu_sizeof_type(l->e, w, (size_t)(p - w)) != 0 &&
	       !(p + 1 < e && (p[1] == ')' || p[1] == ',' || p[1] == ';'));
}

static int64_t name_value(struct lex *l, const char *s, size_t n)
{
	if (l->e->depth >= MAX_DEPTH) {
		l->bad = true;
		return 0;
	}
	struct cu_env sub = *l->e;
	sub.depth++;
	int64_t v = 0;
	const struct cu_def *d = cu_lookup(l->e, s, n);
	if (d) {
		if (d->is_enum)
			return d->enum_value;
		if (d->is_ctor || d->is_compound || ts_node_is_null(d->value)) {
			l->bad = true;
			return 0;
		}
		sub.at = ts_node_start_byte(d->value);
		sub.func = d->func;
		if (cu_fold_node(&sub, d->value, &v))
			return v;
		l->bad = true;
		return 0;
	}
	const struct cu_macro *m = cu_find_macro(l->e->p, s, n);
	if (m && (m->off == UINT32_MAX || m->off < l->e->at)) {
		if (cu_fold_text(&sub, m->body, m->blen, &v))
			return v;
	}
	if (n == 8 && memcmp(s, "warpSize", 8) == 0)
		return 32;
	l->bad = true;
	return 0;
}

static int64_t primary(struct lex *l)
{
	skip_ws(l);
	if (l->s >= l->end) {
		l->bad = true;
		return 0;
	}
	char c = *l->s;
	if (c == '(') {
		l->s++;
		int64_t v = expr(l);
		if (!accept(l, ")"))
			l->bad = true;
		return v;
	}
	if (c >= '0' && c <= '9') {
		uint64_t v = 0;
		const char *p = l->s;
		if (p + 1 < l->end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			p += 2;
			for (; p < l->end; p++) {
				int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
				      : *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : *p == '\'' ? -2 : -1;
				if (d == -2)
					continue;
				if (d < 0)
					break;
				v = v * 16 + (uint64_t)d;
			}
		} else {
			unsigned base = (p[0] == '0' && p + 1 < l->end && p[1] >= '0' && p[1] <= '7') ? 8 : 10;
			for (; p < l->end && ((*p >= '0' && *p <= '9') || *p == '\''); p++)
				if (*p != '\'')
					v = v * base + (uint64_t)(*p - '0');
			if (p < l->end && (*p == '.' || *p == 'e' || *p == 'E'))
				l->bad = true;   /* a floating-point literal */
		}
		while (p < l->end && (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L'))
			p++;
		l->s = p;
		return (int64_t)v;
	}
	if (c == '\'') {
		const char *p = l->s + 1;
		int64_t v = p < l->end ? (unsigned char)*p : 0;
		if (p < l->end && *p == '\\') {
			p++;
			v = p < l->end ? (*p == 'n' ? 10 : *p == '0' ? 0 : *p == 't' ? 9 : (unsigned char)*p) : 0;
		}
		while (p < l->end && *p != '\'')
			p++;
		l->s = p < l->end ? p + 1 : p;
		return v;
	}
	if (is_id0(c)) {
		const char *s = l->s;
		while (l->s < l->end && is_id(*l->s))
			l->s++;
		const char *last = s;
		size_t n = (size_t)(l->s - s);
		while (l->end - l->s >= 2 && l->s[0] == ':' && l->s[1] == ':') {
			l->s += 2;
			last = l->s;
			while (l->s < l->end && is_id(*l->s))
				l->s++;
			n = (size_t)(l->s - last);
		}
		skip_ws(l);
		if (l->s < l->end && *l->s == '(') {
			bool mn = n == 3 && (memcmp(last, "min", 3) == 0 || memcmp(last, "max", 3) == 0);
			if (mn) {
				l->s++;
				int64_t a = expr(l);
				if (!accept(l, ","))
					l->bad = true;
				int64_t b = expr(l);
				if (!accept(l, ")"))
					l->bad = true;
				return last[1] == 'i' ? (a < b ? a : b) : (a > b ? a : b);
			}
			if (cu_sizeof_type(l->e, s, (size_t)(last + n - s)) != 0) {   /* int(x) */
				l->s++;
				int64_t v = expr(l);
				if (!accept(l, ")"))
					l->bad = true;
				return v;
			}
			l->bad = true;   /* a call */
			return 0;
		}
		return name_value(l, last, n);
	}
	l->bad = true;
	return 0;
}

static int64_t unary(struct lex *l)
{
	skip_ws(l);
	if (l->bad || l->s >= l->end) {
		l->bad = true;
		return 0;
	}
	if (accept(l, "-"))
		return -unary(l);
	if (accept(l, "+"))
		return unary(l);
	if (accept(l, "~"))
		return ~unary(l);
	if (accept(l, "!"))
		return !unary(l);
	if ((size_t)(l->end - l->s) >= 6 && memcmp(l->s, "sizeof", 6) == 0 &&
	    !((size_t)(l->end - l->s) > 6 && is_id(l->s[6]))) {
		l->s += 6;
		if (!accept(l, "(")) {
			l->bad = true;
			return 0;
		}
		uint64_t sz = type_until(l, ')');
		if (!accept(l, ")") || !sz)
			l->bad = true;
		return (int64_t)sz;
	}
	static const char *const casts[] = {"static_cast", "reinterpret_cast", "const_cast"};
	for (size_t k = 0; k < PX_COUNTOF(casts); k++) {
		size_t n = strlen(casts[k]);
		if ((size_t)(l->end - l->s) > n && memcmp(l->s, casts[k], n) == 0 && !is_id(l->s[n])) {
			l->s += n;
			if (!accept(l, "<")) {
				l->bad = true;
				return 0;
			}
			type_until(l, '>');
			if (!accept(l, ">") || !accept(l, "(")) {
				l->bad = true;
				return 0;
			}
			int64_t v = expr(l);
			if (!accept(l, ")"))
				l->bad = true;
			return v;
		}
	}
	if (*l->s == '(' && looks_like_cast(l)) {
		while (l->s < l->end && *l->s != ')')
			l->s++;
		l->s++;
		return unary(l);
	}
	return primary(l);
}

static int64_t mul(struct lex *l)
{
	int64_t v = unary(l);
	for (;;) {
		if (accept(l, "*")) {
			v *= unary(l);
		} else if (accept(l, "/")) {
			int64_t d = unary(l);
			if (d == 0)
				l->bad = true;
			else
				v /= d;
		} else if (accept(l, "%")) {
			int64_t d = unary(l);
			if (d == 0)
				l->bad = true;
			else
				v %= d;
		} else {
			return v;
		}
	}
}

static int64_t add(struct lex *l)
{
	int64_t v = mul(l);
	for (;;) {
		if (accept(l, "+"))
			v += mul(l);
		else if (accept(l, "-"))
			v -= mul(l);
		else
			return v;
	}
}

static int64_t shift(struct lex *l)
{
	int64_t v = add(l);
	for (;;) {
		bool left = accept(l, "<<");
		if (!left && !accept(l, ">>"))
			return v;
		int64_t k = add(l);
		if (k < 0 || k > 62) {
			l->bad = true;
			return 0;
		}
		v = left ? (int64_t)((uint64_t)v << k) : v >> k;
	}
}

static int64_t rel(struct lex *l)
{
	int64_t v = shift(l);
	for (;;) {
		if (accept(l, "<="))
			v = v <= shift(l);
		else if (accept(l, ">="))
			v = v >= shift(l);
		else if (accept(l, "<"))
			v = v < shift(l);
		else if (accept(l, ">"))
			v = v > shift(l);
		else
			return v;
	}
}

static int64_t eq(struct lex *l)
{
	int64_t v = rel(l);
	for (;;) {
		if (accept(l, "=="))
			v = v == rel(l);
		else if (accept(l, "!="))
			v = v != rel(l);
		else
			return v;
	}
}

static int64_t band(struct lex *l)
{
	int64_t v = eq(l);
	while (accept(l, "&"))
		v &= eq(l);
	return v;
}

static int64_t bxor(struct lex *l)
{
	int64_t v = band(l);
	while (accept(l, "^"))
		v ^= band(l);
	return v;
}

static int64_t bor(struct lex *l)
{
	int64_t v = bxor(l);
	while (accept(l, "|"))
		v |= bxor(l);
	return v;
}

static int64_t land(struct lex *l)
{
	int64_t v = bor(l);
	while (accept(l, "&&")) {
		int64_t w = bor(l);
		v = v && w;
	}
	return v;
}

static int64_t lor(struct lex *l)
{
	int64_t v = land(l);
	while (accept(l, "||")) {
		int64_t w = land(l);
		v = v || w;
	}
	return v;
}

static int64_t expr(struct lex *l)
{
	int64_t c = lor(l);
	if (accept(l, "?")) {
		int64_t a = expr(l);
		if (!accept(l, ":"))
			l->bad = true;
		int64_t b = expr(l);
		return c ? a : b;
	}
	return c;
}

bool cu_fold_text(const struct cu_env *e, const char *s, size_t n, int64_t *out)
{
	if (e->depth > MAX_DEPTH)
		return false;
	struct lex l = {e, s, s + n, false};
	int64_t v = expr(&l);
	skip_ws(&l);
	if (l.bad || l.s != l.end)
		return false;
	*out = v;
	return true;
}

bool cu_fold_node(const struct cu_env *e, TSNode n, int64_t *out)
{
	if (ts_node_is_null(n) || ts_node_has_error(n))
		return false;
	uint32_t len;
	const char *s = cu_node_text(e->p, n, &len);
	return cu_fold_text(e, s, len, out);
}

/* ---- types ---- */

struct tsize {
	const char *name;
	uint8_t size;
};
/* Sorted by name: built-in, fixed-width and CUDA vector types (CUDA C++
 * Programming Guide, "Built-in Vector Types"; LP64). */
static const struct tsize type_sizes[] = {
	{"__half", 2}, {"__half2", 4}, {"__nv_bfloat16", 2}, {"__nv_bfloat162", 4},
	{"bool", 1}, {"char", 1}, {"char1", 1}, {"char2", 2}, {"char4", 4},
	{"double", 8}, {"double1", 8}, {"double2", 16}, {"double4", 32},
	{"float", 4}, {"float1", 4}, {"float2", 8}, {"float3", 12}, {"float4", 16},
	{"half", 2}, {"half2", 4},
	{"int", 4}, {"int1", 4}, {"int16_t", 2}, {"int2", 8}, {"int3", 12}, {"int32_t", 4},
	{"int4", 16}, {"int64_t", 8}, {"int8_t", 1},
	{"long", 8}, {"long long", 8}, {"long2", 16}, {"longlong2", 16},
	{"short", 2}, {"short2", 4}, {"short4", 8}, {"signed", 4}, {"size_t", 8},
	{"uchar2", 2}, {"uchar4", 4}, {"uint", 4}, {"uint16_t", 2}, {"uint2", 8}, {"uint3", 12},
	{"uint32_t", 4}, {"uint4", 16}, {"uint64_t", 8}, {"uint8_t", 1}, {"ulong", 8},
	{"ulonglong2", 16}, {"unsigned", 4}, {"unsigned char", 1}, {"unsigned int", 4},
	{"unsigned long", 8}, {"unsigned long long", 8}, {"unsigned short", 2}, {"ushort", 2},
	{"ushort2", 4},
};

uint64_t cu_sizeof_type(const struct cu_env *e, const char *s, size_t n)
{
	/* normalise: drop const/volatile, std::, collapse blanks */
	char t[96];
	size_t k = 0;
	bool ptr = false;
	for (size_t i = 0; i < n;) {
		if (s[i] == '*') {
			ptr = true;
			i++;
			continue;
		}
		if (s[i] == '&')
			return 0;
		if (!is_id0(s[i])) {
			if (s[i] == ':' || s[i] == ' ' || s[i] == '\t' || s[i] == '\n')
				i++;
			else
				return 0;
			continue;
		}
		size_t w = i;
		while (i < n && is_id(s[i]))
			i++;
		size_t wn = i - w;
		if ((wn == 5 && memcmp(s + w, "const", 5) == 0) || (wn == 8 && memcmp(s + w, "volatile", 8) == 0) ||
		    (wn == 3 && memcmp(s + w, "std", 3) == 0) || (wn == 6 && memcmp(s + w, "struct", 6) == 0) ||
		    (wn == 6 && memcmp(s + w, "signed", 6) == 0 && i < n))
			continue;
		if (k + wn + 1 >= sizeof t)
			return 0;
		if (k)
			t[k++] = ' ';
		memcpy(t + k, s + w, wn);
		k += wn;
	}
	if (ptr)
		return 8;
	if (!k)
		return 0;
	t[k] = 0;
	if (k > 4 && memcmp(t + k - 4, " int", 4) == 0 && memcmp(t, "unsigned", 8) != 0)
		t[k -= 4] = 0;   /* long int, short int */
	size_t lo = 0, hi = PX_COUNTOF(type_sizes);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(type_sizes[mid].name, t);
		if (c == 0)
			return type_sizes[mid].size;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!e || !e->p)
		return 0;
	for (uint32_t i = 0; i < e->p->nstructs; i++)
		if (strcmp(e->p->structs[i].name, t) == 0)
			return e->p->structs[i].size;
	/* typedef/using: a definition whose type is the aliased type */
	const struct cu_macro *m = cu_find_macro(e->p, t, k);
	if (m && e->depth < MAX_DEPTH) {
		struct cu_env sub = *e;
		sub.depth++;
		return cu_sizeof_type(&sub, m->body, m->blen);
	}
	return 0;
}

/* ---- launch dimensions ---- */

static bool fold_args(const struct cu_env *e, TSNode args, uint32_t out[3])
{
	uint32_t n = ts_node_named_child_count(args);
	if (n < 1 || n > 3)
		return false;
	out[0] = out[1] = out[2] = 1;
	for (uint32_t i = 0; i < n; i++) {
		int64_t v;
		TSNode a = ts_node_named_child(args, i);
		if (cu_node_is(a, "comment") || !cu_fold_node(e, a, &v) || v < 0 || v > 0xffffffffLL)
			return false;
		out[i] = (uint32_t)v;
	}
	return true;
}

bool cu_fold_dim3(const struct cu_env *e, TSNode n, uint32_t out[3])
{
	if (ts_node_is_null(n) || ts_node_has_error(n) || e->depth > MAX_DEPTH)
		return false;
	const char *type = ts_node_type(n);
	if (strcmp(type, "parenthesized_expression") == 0 && ts_node_named_child_count(n) == 1)
		return cu_fold_dim3(e, ts_node_named_child(n, 0), out);
	if (strcmp(type, "argument_list") == 0 || strcmp(type, "initializer_list") == 0)
		return fold_args(e, n, out);
	if (strcmp(type, "call_expression") == 0) {
		TSNode fn = ts_node_child_by_field_name(n, "function", 8);
		uint32_t len;
		const char *s = cu_node_text(e->p, fn, &len);
		if (len == 4 && memcmp(s, "dim3", 4) == 0)
			return fold_args(e, ts_node_child_by_field_name(n, "arguments", 9), out);
	}
	if (strcmp(type, "compound_literal_expression") == 0) {
		TSNode v = ts_node_child_by_field_name(n, "value", 5);
		return !ts_node_is_null(v) && fold_args(e, v, out);
	}
	if (strcmp(type, "identifier") == 0) {
		uint32_t len;
		const char *s = cu_node_text(e->p, n, &len);
		const struct cu_def *d = cu_lookup(e, s, len);
		if (d && !ts_node_is_null(d->value) && !d->is_enum && !d->is_compound) {
			struct cu_env sub = *e;
			sub.depth++;
			sub.at = ts_node_start_byte(d->value);
			sub.func = d->func;
			if (d->is_ctor)
				return fold_args(&sub, d->value, out);
			return cu_fold_dim3(&sub, d->value, out);
		}
	}
	int64_t v;
	if (!cu_fold_node(e, n, &v) || v < 0 || v > 0xffffffffLL)
		return false;
	out[0] = (uint32_t)v;
	out[1] = out[2] = 1;
	return true;
}

static uint32_t def_hash(uint32_t func, const char *name, size_t n)
{
	uint32_t h = 2166136261u ^ func * 16777619u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	return h;
}

static bool def_is(const struct cu_def *d, uint32_t func, const char *name, size_t n)
{
	return d->func == func && d->nlen == n && memcmp(d->name, name, n) == 0;
}

uint32_t cu_defs_first(const struct cu_priv *p, uint32_t func, const char *name, size_t n)
{
	if (!p->dcap)
		return 0;
	for (uint32_t h = def_hash(func, name, n) & (p->dcap - 1);; h = (h + 1) & (p->dcap - 1)) {
		uint32_t first = p->dslot[h][0];
		if (!first)
			return 0;
		if (def_is(&p->defs[first - 1], func, name, n))
			return first;
	}
}

void cu_def_index(struct px_arena *arena, struct cu_priv *p, uint32_t di)
{
	struct cu_def *d = &p->defs[di];
	if ((p->dused + 1) * 2 > p->dcap) {   /* grow: at most half full */
		uint32_t cap = p->dcap ? p->dcap * 2 : 256;
		uint32_t (*slot)[2] = px_arena_alloc(arena, cap * sizeof *slot);
		memset(slot, 0, cap * sizeof *slot);
		for (uint32_t i = 0; i < p->dcap; i++) {
			if (!p->dslot[i][0])
				continue;
			const struct cu_def *h = &p->defs[p->dslot[i][0] - 1];
			uint32_t k = def_hash(h->func, h->name, h->nlen) & (cap - 1);
			while (slot[k][0])
				k = (k + 1) & (cap - 1);
			slot[k][0] = p->dslot[i][0];
			slot[k][1] = p->dslot[i][1];
		}
		p->dslot = slot;
		p->dcap = cap;
	}
	uint32_t k = def_hash(d->func, d->name, d->nlen) & (p->dcap - 1);
	for (;; k = (k + 1) & (p->dcap - 1)) {
		uint32_t first = p->dslot[k][0];
		if (!first) {
			p->dslot[k][0] = p->dslot[k][1] = di + 1;
			p->dused++;
			return;
		}
		if (def_is(&p->defs[first - 1], d->func, d->name, d->nlen)) {
			p->defs[p->dslot[k][1] - 1].next = di + 1;
			p->dslot[k][1] = di + 1;
			return;
		}
	}
}

const struct cu_def *cu_lookup(const struct cu_env *e, const char *name, size_t n)
{
	const struct cu_priv *p = e->p;
	const struct cu_def *best = NULL;
	/* the function's own definitions before the use: the last one wins */
	if (e->func)
		for (uint32_t i = cu_defs_first(p, e->func, name, n); i; i = p->defs[i - 1].next) {
			const struct cu_def *d = &p->defs[i - 1];
			if (d->off <= e->at && (!best || d->off > best->off))
				best = d;
		}
	if (best)
		return best;
	/* else the last file-scope constant or enumerator */
	for (uint32_t i = cu_defs_first(p, 0, name, n); i; i = p->defs[i - 1].next) {
		const struct cu_def *d = &p->defs[i - 1];
		if ((d->is_const || d->is_enum) && (!best || d->off > best->off))
			best = d;
	}
	return best;
}
