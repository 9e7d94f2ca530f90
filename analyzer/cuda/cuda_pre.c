/* cuda_pre.c: the pre-pass that makes everyday CUDA readable to the
 * tree-sitter-cuda grammar without moving a single byte.
 *
 * Approach: one scan over the text with a small state machine (code, line
 * comment, block comment, string, character literal, preprocessor line).
 * It copies the text into p->buf and overwrites with spaces (newlines kept,
 * so every byte offset, line and column stays that of the original):
 *  - `#pragma` lines (with continuations) and `_Pragma("...")`: the grammar
 *    rejects `#pragma unroll` between a loop header and its body;
 *  - attributes the grammar does not know, with their parenthesised
 *    arguments: __align__(16), __maxnreg__(N) (kept in p->attrs for the
 *    parser), __cluster_dims__(...), alignas(...), __declspec(...),
 *    [[...]] attribute lists, and bare words such as __forceinline__,
 *    __noinline__, __restrict__;
 *  - uses of the file's own object-like macros whose body is only such
 *    qualifiers or empty (#define DEVICE_INLINE __device__ __forceinline__):
 *    the body is copied in when it fits in the name's bytes, else blanked
 *    (the qualifier scan in cuda_parse.c reads the macro table itself);
 *  - `a.b <` and `a->b <` (not << or <=), which the grammar takes for the
 *    start of a template argument list (`threadIdx.x < 32` gives a MISSING
 *    ">"): the `.` becomes `_` (`->` becomes `__`), one identifier of the
 *    same length that the analyses recognise (threadIdx_x).
 * It also records every comment (for the annotations), every object-like
 * `#define` (for constant folding) and the line starts. */
#include <string.h>

#include "cuda_int.h"

static bool is_id0(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_id(char c)
{
	return is_id0(c) || (c >= '0' && c <= '9');
}

/* Attributes blanked with their (balanced) argument list. Sorted. */
static const char *const paren_attrs[] = {
	"_Pragma", "__align__", "__cluster_dims__", "__declspec", "__maxnreg__", "alignas",
};
/* Words blanked on their own. Sorted. */
static const char *const blank_words[] = {
	"__forceinline__", "__inline__", "__noinline__", "__nv_pure__", "__restrict", "__restrict__",
};
/* Words a qualifier-only macro may consist of. Sorted. */
static const char *const qual_words[] = {
	"__constant__", "__device__", "__forceinline__", "__global__", "__host__", "__inline__",
	"__managed__", "__noinline__", "__restrict__", "__shared__", "const", "constexpr",
	"extern", "inline", "static", "volatile",
};

static bool in_list(const char *const *list, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && memcmp(list[i], s, len) == 0)
			return true;
	return false;
}

static void blank(char *b, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++)
		if (b[i] != '\n')
			b[i] = ' ';
}

/* The end of a balanced (...) starting at or after i (whitespace first);
 * i itself when there is none. */
static uint32_t skip_parens(const char *t, uint32_t len, uint32_t i)
{
	uint32_t j = i;
	while (j < len && (t[j] == ' ' || t[j] == '\t' || t[j] == '\n' || t[j] == '\r'))
		j++;
	if (j >= len || t[j] != '(')
		return i;
	int depth = 0;
	for (; j < len; j++) {
		if (t[j] == '(')
			depth++;
		else if (t[j] == ')' && --depth == 0)
			return j + 1;
	}
	return len;
}

static uint32_t macro_hash(const char *name, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	return h;
}

/* Indexes the macros by name (each slot the last definition, index + 1):
 * lookups in big files stop scanning every macro. */
static void index_macros(struct px_cuda_file *f, struct cu_priv *p)
{
	uint32_t cap = 64;
	while (cap < p->nmacros * 2)
		cap *= 2;
	p->mslot = px_arena_alloc(f->arena, cap * sizeof *p->mslot);
	memset(p->mslot, 0, cap * sizeof *p->mslot);
	p->mcap = cap;
	for (uint32_t i = 0; i < p->nmacros; i++) {
		const struct cu_macro *m = &p->macros[i];
		uint32_t k = macro_hash(m->name, m->nlen) & (cap - 1);
		while (p->mslot[k]) {
			const struct cu_macro *o = &p->macros[p->mslot[k] - 1];
			if (o->nlen == m->nlen && memcmp(o->name, m->name, m->nlen) == 0)
				break;
			k = (k + 1) & (cap - 1);
		}
		p->mslot[k] = i + 1;   /* a later definition replaces an earlier one */
	}
}

const struct cu_macro *cu_find_macro(const struct cu_priv *p, const char *name, size_t n)
{
	if (p->mcap) {
		for (uint32_t k = macro_hash(name, n) & (p->mcap - 1);; k = (k + 1) & (p->mcap - 1)) {
			if (!p->mslot[k])
				return NULL;
			const struct cu_macro *m = &p->macros[p->mslot[k] - 1];
			if (m->nlen == n && memcmp(m->name, name, n) == 0)
				return m;
		}
	}
	/* the last definition wins (a -D comes first, the file's own later) */
	for (uint32_t i = p->nmacros; i-- > 0;)
		if (p->macros[i].nlen == n && memcmp(p->macros[i].name, name, n) == 0)
			return &p->macros[i];
	return NULL;
}

void cu_linecol(const struct cu_priv *p, uint32_t off, uint32_t *line, uint32_t *col)
{
	uint32_t lo = 0, hi = p->nlines;   /* last line start <= off */
	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;
		if (p->line_start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	*line = lo + 1;
	*col = off - p->line_start[lo] + 1;
}

/* Is the body of macro m made only of qualifier words (or empty)? */
static bool qualifier_macro(const struct cu_macro *m)
{
	const char *s = m->body, *e = m->body + m->blen;
	while (s < e) {
		if (*s == ' ' || *s == '\t') {
			s++;
			continue;
		}
		if (!is_id0(*s))
			return false;
		const char *w = s;
		while (s < e && is_id(*s))
			s++;
		if (!in_list(qual_words, PX_COUNTOF(qual_words), w, (size_t)(s - w)))
			return false;
	}
	return true;
}

/* Records `#define NAME body` (object-like only) found in directive [s, e). */
static void record_define(struct px_cuda_file *f, struct cu_priv *p, uint32_t s, uint32_t e)
{
	const char *t = f->text;
	uint32_t i = s + 1;
	while (i < e && (t[i] == ' ' || t[i] == '\t'))
		i++;
	if (e - i < 6 || memcmp(t + i, "define", 6) != 0)
		return;
	i += 6;
	if (i >= e || (t[i] != ' ' && t[i] != '\t'))
		return;
	while (i < e && (t[i] == ' ' || t[i] == '\t'))
		i++;
	uint32_t n0 = i;
	while (i < e && is_id(t[i]))
		i++;
	if (i == n0 || !is_id0(t[n0]) || (i < e && t[i] == '('))
		return;   /* function-like */
	/* the body: continuations joined, comments dropped */
	char *body = px_arena_alloc(f->arena, e - i + 1);
	uint32_t bn = 0;
	for (uint32_t k = i; k < e; k++) {
		if (t[k] == '\\' && k + 1 < e && (t[k + 1] == '\n' || t[k + 1] == '\r'))
			continue;
		if (t[k] == '/' && k + 1 < e && t[k + 1] == '/')
			break;
		if (t[k] == '/' && k + 1 < e && t[k + 1] == '*') {
			k += 2;
			while (k + 1 < e && !(t[k] == '*' && t[k + 1] == '/'))
				k++;
			k++;
			body[bn++] = ' ';
			continue;
		}
		body[bn++] = (t[k] == '\n' || t[k] == '\r' || t[k] == '\t') ? ' ' : t[k];
	}
	while (bn && body[bn - 1] == ' ')
		bn--;
	uint32_t b0 = 0;
	while (b0 < bn && body[b0] == ' ')
		b0++;
	body[bn] = 0;
	struct cu_macro *m = PX_ARENA_PUSH(f->arena, p->macros, p->nmacros, p->capmacros);
	m->name = t + n0;
	m->nlen = i - n0;
	m->body = body + b0;
	m->blen = bn - b0;
	m->off = s;
}

static void add_cmdline_defines(struct px_cuda_file *f, struct cu_priv *p,
                                const struct px_cuda_options *opt)
{
	for (size_t d = 0; opt && d < opt->ndefines; d++) {
		const char *s = opt->defines[d];
		const char *eq = strchr(s, '=');
		struct cu_macro *m = PX_ARENA_PUSH(f->arena, p->macros, p->nmacros, p->capmacros);
		m->name = s;
		m->nlen = (uint32_t)(eq ? (size_t)(eq - s) : strlen(s));
		m->body = eq ? eq + 1 : "1";
		m->blen = (uint32_t)strlen(m->body);
		m->off = UINT32_MAX;
	}
}

/* Pass 1: line starts, comments, directives (defines recorded, pragmas blanked). */
static void scan_lexical(struct px_cuda_file *f, struct cu_priv *p)
{
	const char *t = f->text;
	uint32_t len = (uint32_t)f->len;
	char *b = p->buf;
	uint32_t cap = 64;
	p->line_start = px_arena_alloc(f->arena, cap * sizeof *p->line_start);
	p->line_start[p->nlines++] = 0;
	bool code_on_line = false;
	for (uint32_t i = 0; i < len; i++) {
		char c = t[i];
		if (c == '\n') {
			if (p->nlines == cap) {
				p->line_start = px_arena_grow(f->arena, p->line_start, cap * sizeof *p->line_start,
				                              cap * 2 * sizeof *p->line_start);
				cap *= 2;
			}
			p->line_start[p->nlines++] = i + 1;
			code_on_line = false;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r')
			continue;
		if (c == '/' && i + 1 < len && (t[i + 1] == '/' || t[i + 1] == '*')) {
			uint32_t s = i;
			if (t[i + 1] == '/') {
				while (i < len && t[i] != '\n')
					i++;
			} else {
				i += 2;
				while (i + 1 < len && !(t[i] == '*' && t[i + 1] == '/'))
					i++;
				i = i + 2 <= len ? i + 2 : len;
			}
			struct cu_comment *cm = PX_ARENA_PUSH(f->arena, p->comments, p->ncomments, p->capcomments);
			cm->start = s;
			cm->end = i;
			cm->trailing = code_on_line;
			cm->line = p->nlines;
			cm->column = s - p->line_start[p->nlines - 1] + 1;
			i--;   /* the newline (or the byte after) is seen by the loop */
			/* newlines inside a block comment */
			for (uint32_t k = s; k < cm->end; k++)
				if (t[k] == '\n') {
					if (p->nlines == cap) {
						p->line_start = px_arena_grow(f->arena, p->line_start,
						                              cap * sizeof *p->line_start,
						                              cap * 2 * sizeof *p->line_start);
						cap *= 2;
					}
					p->line_start[p->nlines++] = k + 1;
				}
			continue;
		}
		if (c == '"' || c == '\'') {
			for (i++; i < len && t[i] != c && t[i] != '\n'; i++)
				if (t[i] == '\\')
					i++;
			code_on_line = true;
			continue;
		}
		if (c == '#' && !code_on_line) {
			uint32_t s = i;
			while (i < len && t[i] != '\n') {
				if (t[i] == '\\' && i + 1 < len && t[i + 1] == '\n') {
					i++;
					if (p->nlines == cap) {
						p->line_start = px_arena_grow(f->arena, p->line_start,
						                              cap * sizeof *p->line_start,
						                              cap * 2 * sizeof *p->line_start);
						cap *= 2;
					}
					p->line_start[p->nlines++] = i + 1;
				} else if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
					break;   /* a comment after the directive: the loop records it */
				}
				i++;
			}
			uint32_t k = s + 1;
			while (k < i && (t[k] == ' ' || t[k] == '\t'))
				k++;
			if (i - k >= 6 && memcmp(t + k, "pragma", 6) == 0)
				blank(b, s, i);
			else
				record_define(f, p, s, i);
			i--;
			continue;
		}
		code_on_line = true;
	}
}

/* Pass 2: identifiers (attributes, qualifier macros, `a.b <`). */
static void scan_code(struct px_cuda_file *f, struct cu_priv *p)
{
	const char *t = f->text;
	char *b = p->buf;
	uint32_t len = (uint32_t)f->len;
	uint32_t ci = 0;   /* next comment */
	for (uint32_t i = 0; i < len;) {
		if (ci < p->ncomments && i >= p->comments[ci].start) {
			i = p->comments[ci].end > i ? p->comments[ci].end : i + 1;
			ci++;
			continue;
		}
		char c = t[i];
		if (c == '"' || c == '\'') {
			/* a raw string or a digit separator would need more; rare in kernels */
			for (i++; i < len && t[i] != c && t[i] != '\n'; i++)
				if (t[i] == '\\')
					i++;
			i++;
			continue;
		}
		if (c == '#' && b[i] == '#') {   /* a directive: skip to its end */
			uint32_t j = i;
			while (j < len && t[j] != '\n') {
				if (t[j] == '\\' && j + 1 < len && t[j + 1] == '\n')
					j++;
				j++;
			}
			/* only at the start of a line */
			uint32_t k = i;
			while (k > 0 && (t[k - 1] == ' ' || t[k - 1] == '\t'))
				k--;
			if (k == 0 || t[k - 1] == '\n') {
				i = j;
				continue;
			}
			i++;
			continue;
		}
		if (c == '[' && i + 1 < len && t[i + 1] == '[') {
			uint32_t j = i + 2;
			while (j + 1 < len && !(t[j] == ']' && t[j + 1] == ']') && t[j] != ';' && t[j] != '{')
				j++;
			if (j + 1 < len && t[j] == ']' && t[j + 1] == ']') {
				blank(b, i, j + 2);
				i = j + 2;
				continue;
			}
			i++;
			continue;
		}
		if (!is_id0(c) || (i > 0 && is_id(t[i - 1]))) {
			i++;
			continue;
		}
		uint32_t s = i;
		while (i < len && is_id(t[i]))
			i++;
		uint32_t n = i - s;
		if (in_list(paren_attrs, PX_COUNTOF(paren_attrs), t + s, n)) {
			uint32_t e = skip_parens(t, len, i);
			if (n == 11 && memcmp(t + s, "__maxnreg__", 11) == 0 && e > i) {
				struct cu_attr *a = PX_ARENA_PUSH(f->arena, p->attrs, p->nattrs, p->capattrs);
				a->off = s;
				const char *lp = memchr(t + i, '(', e - i);
				a->args = lp ? lp + 1 : t + i;
				a->nargs = lp ? (uint32_t)(t + e - 1 - a->args) : 0;
			}
			blank(b, s, e);
			i = e;
			continue;
		}
		if (in_list(blank_words, PX_COUNTOF(blank_words), t + s, n)) {
			blank(b, s, i);
			continue;
		}
		const struct cu_macro *m = cu_find_macro(p, t + s, n);
		if (m && m->off != UINT32_MAX && m->off < s && qualifier_macro(m)) {
			blank(b, s, i);
			if (m->blen <= n) {
				/* copy the body, dropping words the grammar does not know */
				memcpy(b + s, m->body, m->blen);
				for (uint32_t k = s; k < s + m->blen;) {
					if (!is_id0(b[k])) {
						k++;
						continue;
					}
					uint32_t w = k;
					while (k < s + m->blen && is_id(b[k]))
						k++;
					if (in_list(blank_words, PX_COUNTOF(blank_words), b + w, k - w))
						blank(b, w, k);
				}
			}
			continue;
		}
		/* a statement macro (`#define BODY { ...; }` or `... ;`) used as a
		 * statement with no ';' after it: its last byte becomes ';' (an
		 * expression statement of the same length), so the enclosing
		 * function parses; the macro's own statements are not analysed */
		if (m && m->off != UINT32_MAX && m->off < s && m->blen &&
		    (memchr(m->body, ';', m->blen) || m->body[m->blen - 1] == '}')) {
			uint32_t q = i;
			while (q < len && (t[q] == ' ' || t[q] == '\t' || t[q] == '\n' || t[q] == '\r'))
				q++;
			if (q >= len || t[q] == '}' || is_id0(t[q])) {
				b[i - 1] = ';';
				continue;
			}
		}
		/* a.b < / a->b < : one identifier of the same length */
		uint32_t j = i;
		if (j < len && (t[j] == '.' || (t[j] == '-' && j + 1 < len && t[j + 1] == '>'))) {
			uint32_t dot = j, w = t[j] == '.' ? 1 : 2;
			uint32_t k = j + w;
			if (k < len && is_id0(t[k])) {
				while (k < len && is_id(t[k]))
					k++;
				uint32_t q = k;
				while (q < len && (t[q] == ' ' || t[q] == '\t'))
					q++;
				if (q < len && t[q] == '<' && (q + 1 >= len || (t[q + 1] != '<' && t[q + 1] != '=')) &&
				    (s == 0 || t[s - 1] != '.')) {
					b[dot] = '_';
					if (w == 2)
						b[dot + 1] = '_';
					i = k;
				}
			}
		}
	}
}

void cu_pre(struct px_cuda_file *f, struct cu_priv *p, const struct px_cuda_options *opt)
{
	p->buf = px_arena_alloc(f->arena, f->len + 1);
	memcpy(p->buf, f->text, f->len);
	add_cmdline_defines(f, p, opt);
	scan_lexical(f, p);
	index_macros(f, p);
	scan_code(f, p);
}
