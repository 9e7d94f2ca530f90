/* cuda_annot.c: the annotations, structured comments next to CUDA code.
 *
 * A comment is an annotation when its text (after `//` or `/ *` and blanks)
 * starts with `ptxray:`, `ptxray-ignore:` or `ptxray-ignore-file:`; any
 * other `ptxray-WORD:` is a misspelt one. Everything that does not match
 * the grammar below is a `bad-annotation` warning (never silently ignored).
 *
 *   annotation := 'ptxray:' ( launch | 'hot' | assume )
 *               | 'ptxray-ignore:' rules [ reason ]
 *               | 'ptxray-ignore-file:' rules [ reason ]
 *   launch     := 'launch' { key '=' value }+      key := block | grid | smem
 *   value      := INT | '(' INT [',' INT [',' INT]] ')'    (smem: INT [K|KiB])
 *   assume     := 'assume' NAME '%' INT '==' '0'
 *               | 'assume' NAME ('>=' | '<=' | '==') INT
 *   NAME       := IDENT | IDENT '.' ('x'|'y'|'z')    (blockDim.x, gridDim.y, n)
 *   rules      := RULE { ',' RULE }                    RULE := [a-z0-9-]+
 *   reason     := ('—' | '--' | '-' | ':') TEXT
 *
 * Placement: `launch` applies to the kernel defined on the comment's line
 * or starting within the next 3 lines; `hot` to the loop starting within
 * the next 2 lines (its lines run to the body's closing brace, or to the end
 * of its single statement: `ptxray simt FILE.cu` times the PTX loops whose
 * header .loc falls there); `assume` to the function it is in (or the next one);
 * `ptxray-ignore` to its own line when it follows code, else to the next
 * line that holds code. */
#include <string.h>

#include "cuda_int.h"

static const char BAD[] = "bad-annotation";

struct cur {
	const char *s, *e;
};

static void ws(struct cur *c)
{
	while (c->s < c->e && (*c->s == ' ' || *c->s == '\t'))
		c->s++;
}

static bool lit(struct cur *c, const char *w)
{
	ws(c);
	size_t n = strlen(w);
	if ((size_t)(c->e - c->s) < n || memcmp(c->s, w, n) != 0)
		return false;
	c->s += n;
	return true;
}

static bool num(struct cur *c, int64_t *v)
{
	ws(c);
	const char *s = c->s;
	int64_t x = 0;
	while (c->s < c->e && *c->s >= '0' && *c->s <= '9' && x < (1LL << 40))
		x = x * 10 + (*c->s++ - '0');
	if (c->s == s)
		return false;
	if (lit(c, "KiB") || lit(c, "K") || lit(c, "k"))
		x *= 1024;
	*v = x;
	return true;
}

static bool ident(struct cur *c, const char **s, size_t *n)
{
	ws(c);
	const char *b = c->s;
	while (c->s < c->e && ((*c->s >= 'a' && *c->s <= 'z') || (*c->s >= 'A' && *c->s <= 'Z') ||
	                       *c->s == '_' || (c->s > b && *c->s >= '0' && *c->s <= '9')))
		c->s++;
	*s = b;
	*n = (size_t)(c->s - b);
	return *n > 0;
}

static bool dims(struct cur *c, struct px_cuda_dim3 *d)
{
	int64_t v;
	d->v[0] = d->v[1] = d->v[2] = 1;
	if (lit(c, "(")) {
		for (int i = 0; i < 3; i++) {
			if (!num(c, &v) || v <= 0 || v > 0x7fffffff)
				return false;
			d->v[i] = (uint32_t)v;
			if (lit(c, ")")) {
				d->known = true;
				return true;
			}
			if (!lit(c, ","))
				return false;
		}
		return false;
	}
	if (!num(c, &v) || v <= 0 || v > 0x7fffffff)
		return false;
	d->v[0] = (uint32_t)v;
	d->known = true;
	return true;
}

/* The first function whose definition starts on lines [line, line + within]. */
static int32_t func_near(const struct px_cuda_file *f, uint32_t line, uint32_t within, bool kernels)
{
	for (uint32_t i = 0; i < f->nfuncs; i++) {
		const struct px_cuda_func *fn = &f->funcs[i];
		if (kernels && fn->kind != PX_CUDA_KERNEL)
			continue;
		if (fn->line >= line && fn->line <= line + within)
			return (int32_t)i;
	}
	return -1;
}

/* The next line after `line` holding code (not blank, not only a comment). */
static uint32_t next_code_line(const struct px_cuda_file *f, const struct cu_priv *p, uint32_t line)
{
	for (uint32_t l = line + 1; l <= p->nlines; l++) {
		uint32_t s = p->line_start[l - 1], e = l < p->nlines ? p->line_start[l] : (uint32_t)f->len;
		for (uint32_t i = s; i < e; i++) {
			char ch = f->text[i];
			if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n')
				continue;
			/* a comment-only line? */
			bool comment = false;
			for (uint32_t k = 0; k < p->ncomments; k++)
				if (p->comments[k].start == i) {
					comment = true;
					i = p->comments[k].end - 1;
					break;
				}
			if (!comment)
				return l;
		}
	}
	return 0;
}

static void launch(struct px_cuda_file *f, const struct cu_comment *cm, struct cur *c, struct px_diags *d)
{
	struct px_cuda_dim3 block = {0}, grid = {0};
	bool smem_known = false;
	int64_t smem = 0;
	int keys = 0;
	for (;;) {
		const char *k;
		size_t n;
		ws(c);
		if (c->s >= c->e)
			break;
		if (!ident(c, &k, &n) || !lit(c, "=")) {
			px_diag_add(d, PX_WARNING, f->path, cm->line, cm->column, BAD,
			            "malformed launch annotation: expected KEY=VALUE with KEY block, grid or smem");
			return;
		}
		bool ok;
		if (n == 5 && !memcmp(k, "block", 5))
			ok = dims(c, &block);
		else if (n == 4 && !memcmp(k, "grid", 4))
			ok = dims(c, &grid);
		else if (n == 4 && !memcmp(k, "smem", 4))
			ok = smem_known = num(c, &smem);
		else {
			px_diag_add(d, PX_WARNING, f->path, cm->line, cm->column, BAD,
			            "unknown launch key '%.*s' (block, grid, smem)", (int)n, k);
			return;
		}
		if (!ok) {
			px_diag_add(d, PX_WARNING, f->path, cm->line, cm->column, BAD,
			            "malformed value for '%.*s': expected N or (X,Y[,Z]) of positive integers",
			            (int)n, k);
			return;
		}
		keys++;
	}
	if (!keys) {
		px_diag_add(d, PX_WARNING, f->path, cm->line, cm->column, BAD,
		            "empty launch annotation: give block=, grid= or smem=");
		return;
	}
	int32_t fi = func_near(f, cm->line, 3, true);
	if (fi < 0) {
		px_diag_add(d, PX_WARNING, f->path, cm->line, cm->column, BAD,
		            "launch annotation is not on or above a kernel");
		return;
	}
	struct px_cuda_func *fn = &f->funcs[fi];
	fn->have_launch = true;
	if (block.known)
		fn->ann_block = block;
	if (grid.known)
		fn->ann_grid = grid;
	if (smem_known) {
		fn->ann_smem_known = true;
		fn->ann_smem = (uint64_t)smem;
	}
}

/* The line holding byte offset i. */
static uint32_t line_of(const struct cu_priv *p, uint32_t i)
{
	uint32_t lo = 0, hi = p->nlines;
	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;
		if (p->line_start[mid] <= i)
			lo = mid;
		else
			hi = mid;
	}
	return lo + 1;
}

/* The last line of the loop starting on line `line`: after the header's
 * parentheses (none for `do`), the matching brace of a `{` body, else the
 * `;` ending its statement at depth 0. Comments and strings are skipped. */
static uint32_t loop_end(const struct px_cuda_file *f, const struct cu_priv *p, uint32_t line)
{
	uint32_t i = p->line_start[line - 1], n = (uint32_t)f->len;
	const char *t = f->text;
	int paren = 0, brace = 0;
	bool header = true, seen_paren = false;
	while (i < n && (t[i] == ' ' || t[i] == '\t'))
		i++;
	if (n - i >= 2 && !memcmp(t + i, "do", 2))
		header = false;
	for (; i < n; i++) {
		char ch = t[i];
		if (ch == '/' && i + 1 < n && t[i + 1] == '/') {
			while (i < n && t[i] != '\n')
				i++;
			continue;
		}
		if (ch == '/' && i + 1 < n && t[i + 1] == '*') {
			for (i += 2; i + 1 < n && !(t[i] == '*' && t[i + 1] == '/'); i++)
				;
			i++;
			continue;
		}
		if (ch == '"' || ch == '\'') {
			for (i++; i < n && t[i] != ch; i++)
				if (t[i] == '\\')
					i++;
			continue;
		}
		if (header) {
			if (ch == '(') {
				paren++;
				seen_paren = true;
			} else if (ch == ')' && --paren == 0 && seen_paren) {
				header = false;
			}
			continue;
		}
		if (ch == '{')
			brace++;
		else if (ch == '}' && --brace <= 0)
			return line_of(p, i);
		else if (ch == ';' && brace == 0)
			return line_of(p, i);
	}
	return line;
}

static void hot(struct px_cuda_file *f, struct cu_priv *p, const struct cu_comment *cm, struct cur *c,
                struct px_diags *d)
{
	ws(c);
	if (c->s < c->e) {
		px_diag_add(d, PX_WARNING, f->path, cm->line, cm->column, BAD,
		            "'hot' takes no arguments");
		return;
	}
	uint32_t loop = 0;
	for (uint32_t l = cm->line + 1; l <= cm->line + 2 && l <= p->nlines && !loop; l++) {
		uint32_t s = p->line_start[l - 1], e = l < p->nlines ? p->line_start[l] : (uint32_t)f->len;
		uint32_t i = s;
		while (i < e && (f->text[i] == ' ' || f->text[i] == '\t'))
			i++;
		if ((e - i >= 3 && !memcmp(f->text + i, "for", 3)) || (e - i >= 5 && !memcmp(f->text + i, "while", 5)) ||
		    (e - i >= 2 && !memcmp(f->text + i, "do", 2)))
			loop = l;
	}
	if (!loop) {
		px_diag_add(d, PX_WARNING, f->path, cm->line, cm->column, BAD,
		            "'hot' annotation is not above a loop");
		return;
	}
	struct px_cuda_hot *h = PX_ARENA_PUSH(f->arena, f->hot, f->nhot, f->caphot);
	h->line = cm->line;
	h->loop_line = loop;
	h->loop_end_line = loop_end(f, p, loop);
	h->func = (int32_t)cu_func_at(f, cm->start) - 1;
}

static void assume(struct px_cuda_file *f, const struct cu_comment *cm, struct cur *c, struct px_diags *d)
{
	const char *s;
	size_t n;
	int64_t k, z;
	if (!ident(c, &s, &n))
		goto bad;
	if (c->s < c->e && *c->s == '.') {
		c->s++;
		const char *s2;
		size_t n2;
		if (!ident(c, &s2, &n2) || n2 != 1 || (*s2 != 'x' && *s2 != 'y' && *s2 != 'z'))
			goto bad;
		n = (size_t)(s2 + 1 - s);
	}
	enum px_cuda_assume_op op;
	if (lit(c, "%")) {
		if (!num(c, &k) || k <= 0 || !lit(c, "==") || !num(c, &z) || z != 0)
			goto bad;
		op = PX_ASSUME_MOD_ZERO;
	} else if (lit(c, ">=")) {
		op = PX_ASSUME_GE;
	} else if (lit(c, "<=")) {
		op = PX_ASSUME_LE;
	} else if (lit(c, "==")) {
		op = PX_ASSUME_EQ;
	} else {
		goto bad;
	}
	if (op != PX_ASSUME_MOD_ZERO && !num(c, &k))
		goto bad;
	ws(c);
	if (c->s < c->e)
		goto bad;
	struct px_cuda_assume *a = PX_ARENA_PUSH(f->arena, f->assumes, f->nassumes, f->capassumes);
	a->line = cm->line;
	a->column = cm->column;
	a->name = px_arena_strndup(f->arena, s, n);
	a->op = op;
	a->k = k;
	a->func = (int32_t)cu_func_at(f, cm->start) - 1;
	if (a->func < 0)
		a->func = func_near(f, cm->line, 3, false);
	return;
bad:
	px_diag_add(d, PX_WARNING, f->path, cm->line, cm->column, BAD,
	            "malformed assume: expected NAME %% K == 0, NAME >= K, NAME <= K or NAME == K");
}

static void ignore(struct px_cuda_file *f, struct cu_priv *p, const struct cu_comment *cm, struct cur *c,
                   bool file_wide, struct px_diags *d)
{
	const char *rules[32];
	uint32_t nr = 0;
	for (;;) {
		ws(c);
		const char *s = c->s;
		while (c->s < c->e && ((*c->s >= 'a' && *c->s <= 'z') || (*c->s >= '0' && *c->s <= '9') ||
		                       (*c->s == '-' && c->s > s && c->s + 1 < c->e && c->s[1] != '-' && c->s[1] != ' ')))
			c->s++;
		if (c->s == s || nr == 32) {
			px_diag_add(d, PX_WARNING, f->path, cm->line, cm->column, BAD,
			            "malformed suppression: expected rule ids (lower-case, digits, '-') "
			            "separated by ','");
			return;
		}
		rules[nr++] = px_arena_strndup(f->arena, s, (size_t)(c->s - s));
		if (!lit(c, ","))
			break;
	}
	const char *reason = NULL;
	ws(c);
	if (c->s < c->e) {
		if (lit(c, "\xe2\x80\x94") || lit(c, "--") || lit(c, "-") || lit(c, ":")) {
			ws(c);
			const char *e = c->e;
			while (e > c->s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
				e--;
			if (e > c->s)
				reason = px_arena_strndup(f->arena, c->s, (size_t)(e - c->s));
		} else {
			px_diag_add(d, PX_WARNING, f->path, cm->line, cm->column, BAD,
			            "malformed suppression: separate the reason from the rule ids with '—' or '--'");
			return;
		}
	}
	struct px_cuda_suppression *sp = PX_ARENA_PUSH(f->arena, f->supp, f->nsupp, f->capsupp);
	sp->comment_line = cm->line;
	sp->comment_column = cm->column;
	sp->file_wide = file_wide;
	sp->line = file_wide ? 0 : cm->trailing ? cm->line : next_code_line(f, p, cm->line);
	sp->rules = px_arena_alloc(f->arena, nr * sizeof *sp->rules);
	memcpy(sp->rules, rules, nr * sizeof *rules);
	sp->nrules = nr;
	sp->reason = reason;
}

void cu_annotations(struct px_cuda_file *f, struct cu_priv *p, struct px_diags *diags)
{
	for (uint32_t i = 0; i < p->ncomments; i++) {
		const struct cu_comment *cm = &p->comments[i];
		struct cur c = {f->text + cm->start + 2, f->text + cm->end};
		bool block = f->text[cm->start + 1] == '*';
		if (block && c.e - c.s >= 2)
			c.e -= 2;
		if (block) {
			const char *nl = memchr(c.s, '\n', (size_t)(c.e - c.s));
			if (nl)
				c.e = nl;   /* annotations are one line */
		}
		while (c.e > c.s && (c.e[-1] == ' ' || c.e[-1] == '\t' || c.e[-1] == '\r'))
			c.e--;
		ws(&c);
		if (c.e - c.s < 7 || memcmp(c.s, "ptxray", 6) != 0 || (c.s[6] != ':' && c.s[6] != '-'))
			continue;
		if (lit(&c, "ptxray-ignore-file:")) {
			ignore(f, p, cm, &c, true, diags);
		} else if (lit(&c, "ptxray-ignore:")) {
			ignore(f, p, cm, &c, false, diags);
		} else if (lit(&c, "ptxray:")) {
			const char *w;
			size_t n;
			if (!ident(&c, &w, &n)) {
				px_diag_add(diags, PX_WARNING, f->path, cm->line, cm->column, BAD,
				            "empty annotation: expected launch, hot or assume");
			} else if (n == 6 && !memcmp(w, "launch", 6)) {
				launch(f, cm, &c, diags);
			} else if (n == 3 && !memcmp(w, "hot", 3)) {
				hot(f, p, cm, &c, diags);
			} else if (n == 6 && !memcmp(w, "assume", 6)) {
				assume(f, cm, &c, diags);
			} else {
				px_diag_add(diags, PX_WARNING, f->path, cm->line, cm->column, BAD,
				            "unknown annotation '%.*s' (launch, hot, assume)", (int)n, w);
			}
		} else {
			const char *e = c.s;
			while (e < c.e && *e != ':' && *e != ' ')
				e++;
			px_diag_add(diags, PX_WARNING, f->path, cm->line, cm->column, BAD,
			            "unknown annotation '%.*s' (ptxray:, ptxray-ignore:, ptxray-ignore-file:)",
			            (int)(e - c.s), c.s);
		}
	}
}
