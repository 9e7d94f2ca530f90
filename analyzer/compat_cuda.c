/* compat_cuda.c: `ptxray compat FILE.cu`: the CUDA source compiled by the
 * nvcc bridge once per requested target, each PTX judged on its own target,
 * merged into one result per .cu file (compat.h), plus the __CUDA_ARCH__
 * preprocessor branches each target takes.
 *
 * Approach: px_cuda_compile (analyzer/cuda/cuda_nvcc.c: nvcc -ptx -lineinfo
 * -arch=T, cached) for each target T; px_compat_file on that PTX with T as
 * the only target; kernels merged by their (mangled) PTX names in order of
 * first appearance; every offending use moved to the .cu line of the last
 * `.loc` before it (the PTX line kept as ptx_line). The branches are read
 * from the .cu text alone: #if/#ifdef/#ifndef/#elif/#else whose conditions
 * name one of the architecture macros are evaluated with a small constant
 * expression evaluator (defined, !, &&, ||, comparisons, + - * / %, parens);
 * any other macro makes a condition unknown, and conditionals that do not
 * name an architecture macro are treated as reached. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "cuda/cuda.h"

/* ---- the architecture macros of a target ---- */

struct archv {
	long cc;        /* 900 for sm_90a */
	char suffix;    /* 'a', 'f' or 0 */
};

/* Value of identifier s (n bytes) for the target: 1 known (value in *v,
 * *def whether defined), 0 not an architecture macro, -1 unknown. */
static int arch_macro(const struct archv *a, const char *s, size_t n, bool *def, long *v)
{
#define IS(lit) (n == sizeof lit - 1 && memcmp(s, lit, n) == 0)
	*v = 0;
	if (IS("__CUDA_ARCH__")) {
		*def = true;
		*v = a->cc;
		return 1;
	}
	if (IS("__CUDA_ARCH_SPECIFIC__")) {
		*def = a->suffix == 'a';
		*v = *def ? a->cc : 0;
		return 1;
	}
	if (IS("__CUDA_ARCH_FAMILY_SPECIFIC__")) {
		if (a->suffix == 'a')
			return -1;
		*def = a->suffix == 'f';
		*v = *def ? a->cc : 0;
		return 1;
	}
#undef IS
	if (n > 21 && memcmp(s, "__CUDA_ARCH_FEAT_SM", 19) == 0 && n > 4 && memcmp(s + n - 4, "_ALL", 4) == 0) {
		long num = strtol(s + 19, NULL, 10);
		*def = a->suffix == 'a' && num * 10 == a->cc;
		*v = *def;
		return 1;
	}
	return 0;
}

struct ev {
	const char *p, *end;
	const struct archv *a;
	bool arch;      /* an architecture macro was named */
};

struct val {
	bool known;
	long v;
};

static void ws(struct ev *e)
{
	while (e->p < e->end && isspace((unsigned char)*e->p))
		e->p++;
}

static bool eat(struct ev *e, const char *op)
{
	ws(e);
	size_t n = strlen(op);
	if ((size_t)(e->end - e->p) >= n && memcmp(e->p, op, n) == 0) {
		e->p += n;
		return true;
	}
	return false;
}

static struct val ev_or(struct ev *e);

static size_t ident(struct ev *e)
{
	ws(e);
	const char *q = e->p;
	while (q < e->end && (isalnum((unsigned char)*q) || *q == '_'))
		q++;
	return (size_t)(q - e->p);
}

static struct val ev_primary(struct ev *e)
{
	static const struct val unknown = {false, 0};
	ws(e);
	if (e->p >= e->end)
		return unknown;
	if (eat(e, "(")) {
		struct val v = ev_or(e);
		if (!eat(e, ")"))
			return unknown;
		return v;
	}
	if (eat(e, "!")) {
		struct val v = ev_primary(e);
		return (struct val){v.known, !v.v};
	}
	if (eat(e, "-")) {
		struct val v = ev_primary(e);
		return (struct val){v.known, -v.v};
	}
	if (isdigit((unsigned char)*e->p)) {
		char *q;
		long v = strtol(e->p, &q, 0);
		while (q < e->end && (*q == 'u' || *q == 'U' || *q == 'l' || *q == 'L'))
			q++;
		e->p = q;
		return (struct val){true, v};
	}
	size_t n = ident(e);
	if (!n)
		return unknown;
	const char *s = e->p;
	e->p += n;
	bool def;
	long v;
	if (n == 7 && memcmp(s, "defined", 7) == 0) {
		bool paren = eat(e, "(");
		n = ident(e);
		s = e->p;
		e->p += n;
		if (paren && !eat(e, ")"))
			return unknown;
		int k = arch_macro(e->a, s, n, &def, &v);
		e->arch |= k != 0;
		return k == 1 ? (struct val){true, def} : unknown;
	}
	int k = arch_macro(e->a, s, n, &def, &v);
	e->arch |= k != 0;
	return k == 1 ? (struct val){true, v} : unknown;
}

static struct val ev_mul(struct ev *e)
{
	struct val l = ev_primary(e);
	for (;;) {
		int op = eat(e, "*") ? '*' : eat(e, "/") ? '/' : eat(e, "%") ? '%' : 0;
		if (!op)
			return l;
		struct val r = ev_primary(e);
		bool ok = l.known && r.known && (op == '*' || r.v != 0);
		l = (struct val){ok, !ok ? 0 : op == '*' ? l.v * r.v : op == '/' ? l.v / r.v : l.v % r.v};
	}
}

static struct val ev_add(struct ev *e)
{
	struct val l = ev_mul(e);
	for (;;) {
		ws(e);
		int op = e->p < e->end && (*e->p == '+' || *e->p == '-') ? *e->p : 0;
		if (!op)
			return l;
		e->p++;
		struct val r = ev_mul(e);
		l = (struct val){l.known && r.known, op == '+' ? l.v + r.v : l.v - r.v};
	}
}

static struct val ev_cmp(struct ev *e)
{
	struct val l = ev_add(e);
	for (;;) {
		int op = eat(e, ">=") ? 'G' : eat(e, "<=") ? 'L' : eat(e, "==") ? '=' : eat(e, "!=") ? '!'
		         : eat(e, ">") ? '>' : eat(e, "<") ? '<' : 0;
		if (!op)
			return l;
		struct val r = ev_add(e);
		long v = op == 'G' ? l.v >= r.v : op == 'L' ? l.v <= r.v : op == '=' ? l.v == r.v
		         : op == '!' ? l.v != r.v : op == '>' ? l.v > r.v : l.v < r.v;
		l = (struct val){l.known && r.known, v};
	}
}

static struct val ev_and(struct ev *e)
{
	struct val l = ev_cmp(e);
	while (eat(e, "&&")) {
		struct val r = ev_cmp(e);
		if ((l.known && !l.v) || (r.known && !r.v))
			l = (struct val){true, 0};
		else
			l = (struct val){l.known && r.known, 1};
	}
	return l;
}

static struct val ev_or(struct ev *e)
{
	struct val l = ev_and(e);
	while (eat(e, "||")) {
		struct val r = ev_and(e);
		if ((l.known && l.v) || (r.known && r.v))
			l = (struct val){true, 1};
		else
			l = (struct val){l.known && r.known, 0};
	}
	return l;
}

/* tri-state logic: 1, 0, -1 unknown */
static int8_t t_and(int8_t a, int8_t b)
{
	return a == 0 || b == 0 ? 0 : a == 1 && b == 1 ? 1 : -1;
}

static int8_t t_or(int8_t a, int8_t b)
{
	return a == 1 || b == 1 ? 1 : a == 0 && b == 0 ? 0 : -1;
}

static int8_t t_not(int8_t a)
{
	return a < 0 ? -1 : !a;
}

struct group {
	int8_t reach;   /* the group itself is reached */
	int8_t done;    /* an earlier branch was taken */
	int8_t cur;     /* the current branch is reached */
	bool arch;
};

struct px_compat_cuda_branch *px_compat_cuda_branches(const char *text, size_t len, const char *target,
                                                      uint32_t *n)
{
	struct archv a = {0, 0};
	if (strncmp(target, "sm_", 3) == 0) {
		char *q;
		a.cc = strtol(target + 3, &q, 10) * 10;
		a.suffix = *q == 'a' || *q == 'f' ? *q : 0;
	}
	struct px_compat_cuda_branch *out = NULL;
	uint32_t cap = 0;
	*n = 0;
	struct group *st = NULL;
	size_t nst = 0, capst = 0;
	int8_t live = 1;   /* the current branch is reached */
	const char *p = text, *end = text + len;
	uint32_t line = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		uint32_t first = ++line;
		/* backslash continuations join the next lines */
		while (le < end && le > p && le[-1] == '\\' && nl) {
			const char *nl2 = memchr(le + 1, '\n', (size_t)(end - le - 1));
			line++;
			nl = nl2;
			le = nl2 ? nl2 : end;
		}
		const char *q = p;
		p = nl ? nl + 1 : end;
		while (q < le && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= le || *q != '#')
			continue;
		const char *d = q + 1;
		while (d < le && (*d == ' ' || *d == '\t'))
			d++;
		const char *de = d;
		while (de < le && isalpha((unsigned char)*de))
			de++;
		size_t dn = (size_t)(de - d);
		/* the condition, without a trailing comment */
		const char *ce = le;
		for (const char *c = de; c + 1 < le; c++)
			if (c[0] == '/' && (c[1] == '/' || c[1] == '*')) {
				ce = c;
				break;
			}
		struct ev e = {de, ce, &a, false};
		int8_t cond = -1;
		bool is_if = dn == 2 && !memcmp(d, "if", 2), is_ifdef = dn == 5 && !memcmp(d, "ifdef", 5),
		     is_ifndef = dn == 6 && !memcmp(d, "ifndef", 6), is_elif = dn == 4 && !memcmp(d, "elif", 4),
		     is_else = dn == 4 && !memcmp(d, "else", 4), is_endif = dn == 5 && !memcmp(d, "endif", 5);
		if (is_if || is_elif) {
			struct val v = ev_or(&e);
			cond = v.known ? (int8_t)(v.v != 0) : -1;
		} else if (is_ifdef || is_ifndef) {
			size_t in = ident(&e);
			bool def;
			long v;
			int k = arch_macro(&a, e.p, in, &def, &v);
			e.arch = k != 0;
			cond = k == 1 ? (int8_t)(def != is_ifndef) : -1;
		}
		int8_t taken;
		bool record;
		if (is_if || is_ifdef || is_ifndef) {
			struct group *g = PX_VEC_PUSH(st, nst, capst);
			g->reach = live;
			g->arch = e.arch;
			/* a condition that names no architecture macro and is unknown: reached */
			taken = !e.arch && cond < 0 ? live : t_and(live, cond);
			g->done = cond;
			g->cur = taken;
			record = e.arch;
		} else if ((is_elif || is_else) && nst) {
			struct group *g = &st[nst - 1];
			g->arch |= e.arch;
			int8_t c = is_else ? 1 : cond;
			if (!g->arch && c < 0)
				taken = g->reach;
			else
				taken = t_and(g->reach, t_and(t_not(g->done), c));
			g->done = t_or(g->done, c);
			g->cur = taken;
			record = g->arch;
		} else if (is_endif && nst) {
			nst--;
			live = nst ? st[nst - 1].cur : 1;
			continue;
		} else {
			continue;
		}
		live = taken;
		if (record) {
			struct px_compat_cuda_branch *b = PX_VEC_PUSH(out, *n, cap);
			b->line = first;
			size_t tl = (size_t)(ce - q);
			while (tl && isspace((unsigned char)q[tl - 1]))
				tl--;
			b->directive = xstrndup(q, tl);
			b->taken = taken;
		}
	}
	free(st);
	return out;
}

void px_compat_cuda_branches_free(struct px_compat_cuda_branch *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(b[i].directive);
	free(b);
}

/* ---- compile, judge, merge ---- */

/* For each PTX line (1-based; *nlines + 1 entries): the line of the last
 * `.loc` before it in the same function, 0 when none. Every .file is
 * accepted: nvcc writes the .cu's own as the one with the kernel's lines. */
static uint32_t *loc_map(const char *text, size_t len, uint32_t *nlines)
{
	uint32_t n = 1;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	uint32_t *map = xcalloc((size_t)n + 1, sizeof *map);
	const char *p = text, *end = text + len;
	uint32_t line = 0, cur = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		line++;
		const char *q = p;
		while (q < le && (*q == ' ' || *q == '\t'))
			q++;
		size_t rest = (size_t)(le - q);
		if (rest > 5 && memcmp(q, ".loc", 4) == 0 && (q[4] == ' ' || q[4] == '\t')) {
			char *e;
			strtoul(q + 4, &e, 10);
			unsigned long l = strtoul(e, NULL, 10);
			cur = l < UINT32_MAX ? (uint32_t)l : 0;
		} else if (memmem(q, rest, ".entry", 6) || memmem(q, rest, ".func", 5)) {
			cur = 0;
		}
		if (line <= n)
			map[line] = cur;
		p = nl ? nl + 1 : end;
	}
	*nlines = n;
	return map;
}

static uint32_t map_line(const uint32_t *map, uint32_t n, uint32_t line)
{
	return line && line <= n ? map[line] : 0;
}

bool px_compat_cuda(const char *path, const char *text, size_t len, const struct px_cuda_nvcc *b,
                    const struct px_ftable *tab, const struct px_compat_options *opt,
                    struct px_compat_file *out, struct px_diags *diags)
{
	memset(out, 0, sizeof *out);
	out->path = path;
	out->declared_target = -1;
	out->min_target = -1;
	out->consistent = true;
	struct px_arena *a = px_arena_new();
	out->arena = a;
	struct px_compat_cuda *cu = xcalloc(1, sizeof *cu);
	out->cuda = cu;
	cu->ntargets = opt->ntargets;
	cu->targets = xcalloc((size_t)opt->ntargets + 1, sizeof *cu->targets);
	struct px_cuda_flags fl = {0};
	if (b->build_dir && !px_cuda_compile_db_flags(b->build_dir, path, &fl, diags)) {
		px_cuda_flags_free(&fl);
		return false;
	}
	uint32_t capk = 0;
	for (uint32_t t = 0; t < opt->ntargets; t++) {
		struct px_compat_cuda_target *ct = &cu->targets[t];
		const char *name = tab->targets[opt->targets[t]].name;
		ct->branches = px_compat_cuda_branches(text, len, name, &ct->nbranches);
		ct->res.declared_target = -1;
		ct->res.min_target = -1;
		ct->ptx = px_cuda_compile(b, path, text, len, name, &fl, &ct->cached, diags);
		char *ptext = NULL;
		size_t plen = 0;
		if (ct->ptx) {
			char *err = NULL;
			ptext = px_read_file(ct->ptx, &plen, &err);
			if (!ptext) {
				px_diag_add(diags, PX_ERROR, ct->ptx, 0, 0, NULL, "cannot read: %s", err);
				free(err);
			}
		}
		struct px_compat_options one = {.targets = &opt->targets[t], .ntargets = 1,
		                                .any_version = opt->any_version};
		if (!ptext || !px_compat_file(ct->ptx, ptext, plen, tab, &one, &ct->res, diags)) {
			if (ptext && !ct->res.module)
				free(ptext);
			px_compat_file_free(&ct->res);
			ct->res.declared_target = -1;
			ct->res.min_target = -1;
			free(ct->ptx);
			ct->ptx = NULL;
			cu->failed++;
			continue;
		}
		cu->cached += ct->cached;
		cu->compiled += !ct->cached;
		const struct px_compat_file *r = &ct->res;
		uint32_t nl;
		uint32_t *map = loc_map(r->module->text, r->module->len, &nl);
		if (r->min_target >= 0 && (out->min_target < 0 || r->min_target < out->min_target)) {
			out->min_target = r->min_target;
			out->min_ptx = r->min_ptx;
		}
		if (!r->consistent && out->consistent) {
			out->consistent = false;
			out->reason = px_arena_printf(a, "the PTX for %s: %s", name, r->reason ? r->reason : "?");
		}
		for (uint32_t k = 0; k < r->nkernels; k++) {
			const struct px_compat_kernel *rk = &r->kernels[k];
			struct px_compat_kernel *mk = NULL;
			for (uint32_t i = 0; i < out->nkernels && !mk; i++)
				if (px_str_eq(out->kernels[i].name, rk->name))
					mk = &out->kernels[i];
			if (!mk) {
				mk = PX_ARENA_PUSH(a, out->kernels, out->nkernels, capk);
				char *nm = px_arena_strndup(a, rk->name.p, rk->name.n);
				mk->name = (px_str){nm, rk->name.n};
				mk->min_target = -1;
				for (uint32_t l = rk->line; l <= nl && !mk->line; l++)
					mk->line = map[l];
				mk->verdicts = px_arena_alloc(a, ((size_t)opt->ntargets + 1) * sizeof *mk->verdicts);
				for (uint32_t i = 0; i < opt->ntargets; i++)
					mk->verdicts[i].target = opt->targets[i];
			}
			if (rk->min_target >= 0 && (mk->min_target < 0 || rk->min_target < mk->min_target)) {
				mk->min_target = rk->min_target;
				mk->min_ptx = rk->min_ptx;
			}
			const struct px_compat_verdict *rv = &rk->verdicts[0];
			struct px_compat_verdict *mv = &mk->verdicts[t];
			*mv = *rv;
			mv->target = opt->targets[t];
			if (rv->use) {
				struct px_compat_use *u = px_arena_alloc(a, sizeof *u);
				*u = *rv->use;
				u->line = map_line(map, nl, rv->use->line);
				u->col = 0;
				mv->use = u;
				mv->ptx_line = rv->use->line;
			} else if (!rv->ok) {
				mv->ptx_line = r->version_line;
			}
		}
		free(map);
	}
	/* kernels absent from a target's PTX, and targets nvcc failed for */
	for (uint32_t k = 0; k < out->nkernels; k++)
		for (uint32_t t = 0; t < opt->ntargets; t++) {
			struct px_compat_verdict *v = &out->kernels[k].verdicts[t];
			const char *name = tab->targets[opt->targets[t]].name;
			if (v->ok || v->message)
				continue;
			if (!cu->targets[t].ptx) {
				v->requires = px_arena_printf(a, "nvcc");
				v->message = px_arena_printf(a, "nvcc could not compile this file for %s (its messages "
				                             "are above)", name);
			} else {
				v->requires = px_arena_printf(a, "a definition for %s", name);
				v->message = px_arena_printf(a, "not in the PTX nvcc wrote for %s (a __CUDA_ARCH__ "
				                             "branch leaves it out)", name);
			}
		}
	for (uint32_t k = 0; k < out->nkernels; k++)
		for (uint32_t t = 0; t < opt->ntargets; t++)
			out->any_fails |= !out->kernels[k].verdicts[t].ok;
	if (cu->failed)
		out->any_fails = true;
	px_cuda_flags_free(&fl);
	return true;
}
