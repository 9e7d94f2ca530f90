/* cuda_check.c: px_cuda_check, the source-level analyses and their rules.
 *
 * Approach. Per function with a clean body (no ERROR/MISSING node):
 *  - thread dependence: a name is thread-dependent when one of its
 *    definitions in the function reads threadIdx, a lane id, an atomic's
 *    result or a thread-dependent name (fixpoint by memoised recursion);
 *  - values: expressions become the PTX analyses' affine forms
 *    (analysis.h, px_aff_*): threadIdx.* are thread atoms, blockIdx.* and
 *    gridDim.* uniform atoms, blockDim.* the launch block (the `launch`
 *    annotation, else the kernel's only folded launch configuration, else
 *    __launch_bounds__ as x, else 256x1x1), kernel parameters parameter
 *    atoms, a variable with one definition that definition's form, an
 *    induction variable `i = init; i += step` init + step x loop atom;
 *    enclosing `for` loops whose counter is enumerable (constant start,
 *    constant or blockDim bound, step += -= *= /= <<= >>= by a constant,
 *    at most 32 values) are unrolled: the forms are built per value;
 *  - conditions are evaluated per thread of the launch block: block-
 *    uniform, warp-uniform, divergent, or unknown (a uniform value unknown);
 *  - accesses `a[i]` (and `s[i][j]`) into kernel pointer parameters
 *    (global) and __shared__ arrays: the address per lane goes through
 *    px_warp_sectors / px_warp_wavefronts, the PTX access model's own cost
 *    functions, over every warp of the block; lanes whose enclosing `if`
 *    conditions are false are inactive.
 * Rules (px_cuda_rules): divergent-barrier (a barrier under a condition
 * that is not uniform at the barrier's scope, or after a thread-dependent
 * return), legacy-warp-intrinsic, warp-sync-missing (a statement reads
 * another lane's element of a non-volatile array that an earlier statement
 * of the same sequence wrote, with no __syncwarp/barrier between),
 * shared-bank-conflict and uncoalesced-global (source accesses), and for
 * launch sites block-size-not-multiple-of-32, launch-infeasible (threads,
 * __launch_bounds__, static shared, and the occupancy engine per target:
 * registers x threads and shared memory fit an SM) and
 * shared-memory-opt-in-missing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "arch.h"
#include "cuda_int.h"
#include "occupancy.h"

enum { MAX_FORM_DEPTH = 24, MAX_BIND = 4, MAX_VALUES = 32, MAX_WARPS = 32, MAX_COMBOS = 64 };

/* Sorted by id. */
static const struct px_cuda_rule rules[] = {
	{"bad-annotation", PX_WARNING, "a ptxray annotation comment that does not parse"},
	{"block-size-not-multiple-of-32", PX_WARNING, "a launch whose block size is not a multiple of the warp size"},
	{"divergent-barrier", PX_ERROR, "a barrier reached under a thread-dependent condition"},
	{"launch-infeasible", PX_ERROR, "a launch that fails with too many resources requested (threads, registers, shared memory)"},
	{"legacy-warp-intrinsic", PX_ERROR, "__shfl/__any/__all/__ballot without _sync: removed from compute capability 7.0"},
	{"shared-bank-conflict", PX_WARNING, "a shared-memory access whose lanes collide in banks"},
	{"shared-memory-opt-in-missing", PX_ERROR, "dynamic shared memory over 48 KiB without cudaFuncSetAttribute opt-in"},
	{"uncoalesced-global", PX_WARNING, "a global access touching far more sectors than the bytes need"},
	{"warp-sync-missing", PX_WARNING, "warp-synchronous code that reads another lane's data without __syncwarp() or volatile"},
};

const struct px_cuda_rule *px_cuda_rules(size_t *n)
{
	*n = PX_COUNTOF(rules);
	return rules;
}

static enum px_severity rule_sev(const char *id)
{
	for (size_t i = 0; i < PX_COUNTOF(rules); i++)
		if (!strcmp(rules[i].id, id))
			return rules[i].severity;
	return PX_WARNING;
}

static const char *rule_id(const char *id)
{
	for (size_t i = 0; i < PX_COUNTOF(rules); i++)
		if (!strcmp(rules[i].id, id))
			return rules[i].id;
	return "";
}

static void finding(struct px_cuda_results *res, const char *rule, uint32_t line, uint32_t col,
                    const char *kernel, const char *arch, const char *fmt, ...) PX_PRINTF(7, 8);
static void finding(struct px_cuda_results *res, const char *rule, uint32_t line, uint32_t col,
                    const char *kernel, const char *arch, const char *fmt, ...)
{
	struct px_cuda_finding *x = PX_VEC_PUSH(res->items, res->n, res->cap);
	x->rule = rule_id(rule);
	x->severity = rule_sev(rule);
	x->line = line;
	x->column = col;
	x->kernel = kernel;
	x->arch = arch;
	va_list ap;
	va_start(ap, fmt);
	x->message = xvasprintf(fmt, ap);
	va_end(ap);
}

/* ---- per-function context ---- */

/* The body's index (index_body), in the order of a walk (preorder, so by
 * start byte): what the checks of statement sequences and barriers would
 * otherwise find by walking each statement's subtree, quadratic in the
 * nesting depth (issue 9). */
struct xacc {                     /* a non-volatile array access a[i] */
	uint32_t start, line, col;
	const char *arr;
	size_t alen;
	TSNode index;
	bool store, formed;
	struct px_aff idx;            /* form(index), made on first use */
};
struct xret {                     /* a return statement */
	uint32_t start, line;
	TSNode ifs;                   /* the nearest enclosing if (null: none) */
	int8_t u;                     /* its condition's uniformity, -1 before use */
};

struct ck {
	const struct px_cuda_file *f;
	const struct cu_priv *p;
	struct px_cuda_results *res;
	uint32_t fidx;                /* index + 1 */
	const struct px_cuda_func *fn;
	struct px_func_analysis an;
	struct px_arena *arena;
	uint32_t block[3];
	uint32_t tid_atom[3], ctaid_atom[3], nctaid_atom[3];
	const char *bname[MAX_BIND];
	size_t blen[MAX_BIND];
	int64_t bval[MAX_BIND];
	int nbind;
	uint8_t *taint;               /* per def: 0 unknown, 1 in progress, 2 no, 3 yes */
	struct cnode *cn;             /* compiled conditions (cond_compile) */
	size_t ncn, capcn;
	/* the walk's current path, body first: parents without ts_node_parent,
	 * which searches down from the root (linear in the file's top-level
	 * declarations, so quadratic over a file). near[K][i]: the index + 1
	 * of the nearest entry at or above i of kind K (0: none), so that the
	 * walks up to the enclosing ifs, loops or conditions skip the other
	 * ancestors: linear in the nesting depth over the whole body, where
	 * walking every ancestor from each statement was quadratic (issue 9:
	 * 100,000 nested braces took 42 s) */
	TSNode *path;
	uint32_t *near[3];
	size_t npath, cappath, capnear;
	TSNode fdef;                  /* the function_definition */
	struct xacc *xacc;            /* the body's index, by start byte */
	size_t nxacc, capxacc;
	uint32_t *xbar;               /* start bytes of barrier calls */
	size_t nxbar, capxbar;
	struct xret *xret;
	size_t nxret, capxret;
	uint32_t param_atom[64];      /* per parameter: its atom + 1 (0 = not made yet) */
};

static const char *text(const struct ck *c, TSNode n, uint32_t *len)
{
	return cu_node_text(c->p, n, len);
}

static bool text_is(const struct ck *c, TSNode n, const char *s)
{
	uint32_t len;
	const char *t = text(c, n, &len);
	return len == strlen(s) && memcmp(t, s, len) == 0;
}

static TSNode field(TSNode n, const char *name)
{
	return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

/* The kinds of ancestors the checks walk up to (struct ck's near). */
enum { NEAR_IF, NEAR_FOR, NEAR_COND };

static bool is_cond(TSNode n)
{
	return cu_node_is(n, "if_statement") || cu_node_is(n, "while_statement") || cu_node_is(n, "do_statement") ||
	       cu_node_is(n, "conditional_expression") || cu_node_is(n, "for_statement");
}

/* Fills near[*][i] for path[i] (set anew when the walk moves to a sibling). */
static void path_set(struct ck *c, size_t i)
{
	if (i >= c->capnear) {
		c->capnear = c->cappath;
		for (int k = 0; k < 3; k++)
			c->near[k] = xrealloc(c->near[k], c->capnear * sizeof *c->near[k]);
	}
	TSNode n = c->path[i];
	bool is[3] = {cu_node_is(n, "if_statement"), cu_node_is(n, "for_statement"), is_cond(n)};
	for (int k = 0; k < 3; k++)
		c->near[k][i] = is[k] ? (uint32_t)i + 1 : i ? c->near[k][i - 1] : 0;
}

/* Pushes n (a child of the path's last node) on the walk's path. */
static void path_push(struct ck *c, TSNode n)
{
	size_t i = c->npath;
	*PX_VEC_PUSH(c->path, c->npath, c->cappath) = n;
	path_set(c, i);
}

/* The index + 1 of the nearest path entry of kind k strictly above entry
 * i + 1 (pass i + 1 = the entry's index + 1; 0 ends a walk). */
static uint32_t near_above(const struct ck *c, int k, uint32_t i1)
{
	return i1 > 1 ? c->near[k][i1 - 2] : 0;
}

/* threadIdx.x (or threadIdx_x after the pre-pass) -> 't', 0..2; also b, d, g. */
static bool builtin(const struct ck *c, TSNode n, char *kind, int *comp)
{
	uint32_t len;
	const char *s;
	const char *names[4] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
	const char kinds[4] = {'t', 'b', 'd', 'g'};
	if (cu_node_is(n, "field_expression")) {
		TSNode a = field(n, "argument"), fl = field(n, "field");
		if (ts_node_is_null(a) || ts_node_is_null(fl))
			return false;
		uint32_t fl_n;
		const char *fs = text(c, fl, &fl_n);
		if (fl_n != 1 || fs[0] < 'x' || fs[0] > 'z')
			return false;
		s = text(c, a, &len);
		for (int i = 0; i < 4; i++)
			if (len == strlen(names[i]) && !memcmp(s, names[i], len)) {
				*kind = kinds[i];
				*comp = fs[0] - 'x';
				return true;
			}
		return false;
	}
	if (!cu_node_is(n, "identifier"))
		return false;
	s = text(c, n, &len);
	for (int i = 0; i < 4; i++) {
		size_t k = strlen(names[i]);
		if (len == k + 2 && !memcmp(s, names[i], k) && s[k] == '_' && s[k + 1] >= 'x' && s[k + 1] <= 'z') {
			*kind = kinds[i];
			*comp = s[k + 1] - 'x';
			return true;
		}
	}
	return false;
}

/* ---- thread dependence ---- */
static bool tainted(struct ck *c, TSNode n, int depth);

static bool var_tainted(struct ck *c, const char *s, size_t n, int depth)
{
	if (depth > MAX_FORM_DEPTH)
		return true;
	bool any = false;
	for (uint32_t di = cu_defs_first(c->p, c->fidx, s, n); di; di = c->p->defs[di - 1].next) {
		uint32_t i = di - 1;
		const struct cu_def *d = &c->p->defs[i];
		if (c->taint[i] == 1 || c->taint[i] == 2)
			continue;
		if (c->taint[i] == 3)
			return true;
		c->taint[i] = 1;
		bool t = !ts_node_is_null(d->value) && tainted(c, d->value, depth + 1);
		c->taint[i] = t ? 3 : 2;
		any |= t;
	}
	return any;
}

static bool taint_call(const struct ck *c, TSNode fn)
{
	uint32_t len;
	const char *s = text(c, fn, &len);
	if (cu_node_is(fn, "field_expression")) {
		TSNode fl = field(fn, "field");
		if (!ts_node_is_null(fl))
			s = text(c, fl, &len);
	}
	static const char *const names[] = {"__lane_id", "clock", "clock64", "lane_id", "laneid",
	                                    "thread_index", "thread_rank"};
	for (size_t i = 0; i < PX_COUNTOF(names); i++)
		if (len == strlen(names[i]) && !memcmp(s, names[i], len))
			return true;
	return len >= 6 && !memcmp(s, "atomic", 6);
}

static bool tainted(struct ck *c, TSNode n, int depth)
{
	if (ts_node_is_null(n))
		return false;
	TSTreeCursor cur = ts_tree_cursor_new(n);
	bool found = false;
	for (;;) {
		TSNode x = ts_tree_cursor_current_node(&cur);
		char k;
		int comp;
		bool descend = true;
		if (builtin(c, x, &k, &comp)) {
			if (k == 't') {
				found = true;
				break;
			}
			descend = false;
		} else if (cu_node_is(x, "identifier")) {
			uint32_t len;
			const char *s = text(c, x, &len);
			if (var_tainted(c, s, len, depth)) {
				found = true;
				break;
			}
		} else if (cu_node_is(x, "call_expression")) {
			TSNode fn = field(x, "function");
			if (!ts_node_is_null(fn) && taint_call(c, fn)) {
				found = true;
				break;
			}
		} else if (cu_node_is(x, "field_identifier")) {
			descend = false;
		}
		if (descend && ts_tree_cursor_goto_first_child(&cur))
			continue;
		bool up = false;
		while (!ts_tree_cursor_goto_next_sibling(&cur)) {
			if (!ts_tree_cursor_goto_parent(&cur) || ts_node_eq(ts_tree_cursor_current_node(&cur), n)) {
				up = true;
				break;
			}
		}
		if (up)
			break;
	}
	ts_tree_cursor_delete(&cur);
	return found;
}

/* ---- affine forms of source expressions ---- */
static struct px_aff form(struct ck *c, TSNode n, int depth);

static struct px_aff unk(void)
{
	struct px_aff a = {0};
	return a;
}

static int32_t param_index(const struct ck *c, const char *s, size_t n)
{
	for (uint32_t i = 0; i < c->fn->nparams; i++)
		if (strlen(c->fn->params[i]) == n && !memcmp(c->fn->params[i], s, n))
			return (int32_t)i;
	return -1;
}

static struct px_aff var_form(struct ck *c, TSNode id, int depth)
{
	uint32_t len;
	const char *s = text(c, id, &len);
	for (int i = c->nbind - 1; i >= 0; i--)
		if (c->blen[i] == len && !memcmp(c->bname[i], s, len))
			return px_aff_const(c->bval[i]);
	if (len == 8 && !memcmp(s, "warpSize", 8))
		return px_aff_const(32);
	const struct cu_def *init = NULL, *step = NULL;
	uint32_t ndefs = 0;
	bool all_uniform = true;
	for (uint32_t di = cu_defs_first(c->p, c->fidx, s, len); di; di = c->p->defs[di - 1].next) {
		const struct cu_def *d = &c->p->defs[di - 1];
		if (ts_node_is_null(d->value) && !d->is_compound && !d->is_assign &&
		    ts_node_start_byte(id) >= c->fn->body_start && d->off <= c->fn->body_start + 1)
			continue;   /* the parameter marker */
		ndefs++;
		if (!d->is_assign && !ts_node_is_null(d->value) && !d->is_ctor)
			init = d;
		else if (d->is_compound && (d->op == '+' || d->op == '-'))
			step = d;
		if (!ts_node_is_null(d->value) && tainted(c, d->value, depth))
			all_uniform = false;
		if (ts_node_is_null(d->value) && d->is_compound)
			all_uniform = false;   /* ++ on a thread-dependent start: see init */
	}
	if (ndefs == 0) {
		int32_t pi = param_index(c, s, len);
		if (pi >= 0 && pi < 64) {
			if (!c->param_atom[pi])
				c->param_atom[pi] = px_aff_new_atom(&c->an, c->arena, PX_ATOM_PARAM, false, (uint32_t)pi, 0, 1) + 1;
			return px_aff_term(c->param_atom[pi] - 1, 1);
		}
		struct cu_env env = {.f = c->f, .p = c->p, .at = ts_node_start_byte(id), .func = c->fidx};
		int64_t v;
		if (cu_fold_node(&env, id, &v))
			return px_aff_const(v);
		return unk();
	}
	if (ndefs == 1 && init)
		return form(c, init->value, depth + 1);
	if (ndefs == 2 && init && step && !ts_node_is_null(step->value)) {
		struct px_aff a = form(c, init->value, depth + 1), st = form(c, step->value, depth + 1);
		if (!a.known || !st.known || px_aff_has_thread(&c->an, &st))
			return unk();
		uint32_t loop = px_aff_new_atom(&c->an, c->arena, PX_ATOM_LOOP, false, 0, 0, 1);
		struct px_aff l = px_aff_mul(&c->an, c->arena, px_aff_term(loop, 1), st);
		return px_aff_add(&c->an, c->arena, a, l, step->op == '-' ? -1 : 1);
	}
	if (all_uniform && !(init && tainted(c, init->value, depth)))
		return px_aff_term(px_aff_new_atom(&c->an, c->arena, PX_ATOM_OPAQUE, false, 0, 0, 1), 1);
	return unk();
}

static struct px_aff form(struct ck *c, TSNode n, int depth)
{
	if (ts_node_is_null(n) || depth > MAX_FORM_DEPTH || ts_node_has_error(n))
		return unk();
	const char *t = ts_node_type(n);
	char k;
	int comp;
	if (builtin(c, n, &k, &comp)) {
		switch (k) {
		case 't': return px_aff_term(c->tid_atom[comp], 1);
		case 'b': return px_aff_term(c->ctaid_atom[comp], 1);
		case 'd': return px_aff_const(c->block[comp]);
		default: return px_aff_term(c->nctaid_atom[comp], 1);
		}
	}
	if (!strcmp(t, "number_literal")) {
		struct cu_env env = {.f = c->f, .p = c->p, .at = ts_node_start_byte(n), .func = c->fidx};
		int64_t v;
		return cu_fold_node(&env, n, &v) ? px_aff_const(v) : unk();
	}
	if (!strcmp(t, "identifier"))
		return var_form(c, n, depth);
	if (!strcmp(t, "parenthesized_expression") && ts_node_named_child_count(n) == 1)
		return form(c, ts_node_named_child(n, 0), depth + 1);
	if (!strcmp(t, "cast_expression"))
		return form(c, field(n, "value"), depth + 1);
	if (!strcmp(t, "unary_expression")) {
		TSNode op = field(n, "operator");
		if (!ts_node_is_null(op) && text_is(c, op, "-"))
			return px_aff_mul(&c->an, c->arena, px_aff_const(-1), form(c, field(n, "argument"), depth + 1));
		if (!ts_node_is_null(op) && text_is(c, op, "+"))
			return form(c, field(n, "argument"), depth + 1);
		return unk();
	}
	if (!strcmp(t, "binary_expression")) {
		TSNode op = field(n, "operator");
		uint32_t ol = 0;
		const char *os = ts_node_is_null(op) ? "" : text(c, op, &ol);
		struct px_aff a = form(c, field(n, "left"), depth + 1);
		struct px_aff b = form(c, field(n, "right"), depth + 1);
		if (!a.known || !b.known)
			return unk();
		bool bc = b.nterms == 0;
		if (ol == 1) {
			switch (os[0]) {
			case '+': return px_aff_add(&c->an, c->arena, a, b, 1);
			case '-': return px_aff_add(&c->an, c->arena, a, b, -1);
			case '*': return px_aff_mul(&c->an, c->arena, a, b);
			case '/': return bc ? px_aff_quasi(&c->an, c->arena, PX_Q_DIV, a, b.c) : unk();
			case '%': return bc ? px_aff_quasi(&c->an, c->arena, PX_Q_REM, a, b.c) : unk();
			case '&': return bc ? px_aff_quasi(&c->an, c->arena, PX_Q_AND, a, b.c) : unk();
			case '|': return bc ? px_aff_quasi(&c->an, c->arena, PX_Q_OR, a, b.c) : unk();
			case '^': return bc ? px_aff_quasi(&c->an, c->arena, PX_Q_XOR, a, b.c) : unk();
			}
		} else if (ol == 2 && bc && b.c >= 0 && b.c < 32) {
			if (os[0] == '<')
				return px_aff_mul(&c->an, c->arena, a, px_aff_const((int64_t)1 << b.c));
			if (os[0] == '>')
				return px_aff_quasi(&c->an, c->arena, PX_Q_DIV, a, (int64_t)1 << b.c);
		}
		return unk();
	}
	/* anything else: a constant when it folds (sizeof, macros) */
	struct cu_env env = {.f = c->f, .p = c->p, .at = ts_node_start_byte(n), .func = c->fidx};
	int64_t v;
	return cu_fold_node(&env, n, &v) ? px_aff_const(v) : unk();
}

/* ---- conditions per thread ---- */
static int eval_form(struct ck *c, const struct px_aff *a, const int64_t tid[3], int64_t *out)
{
	struct px_eval_env env = {.tid = {tid[0], tid[1], tid[2]}, .lane = 0};
	return px_aff_eval(&c->an, a, &env, out) ? 1 : 0;
}

/* A condition compiled once into affine forms (the forms depend on the
 * loop bindings, so compile under the bindings in force), then evaluated
 * per thread without going back to the tree: the per-lane evaluations
 * (32 lanes x warps x loop values) cost a form evaluation each, not a
 * walk of the condition's subtree and its definitions.
 *   cond := '!' cond | cond ('&&'|'||') cond | expr CMP expr | expr | '(' cond ')' */
enum cnode_kind { CN_UNKNOWN, CN_AND, CN_OR, CN_NOT, CN_CMP, CN_VAL };
struct cnode {
	uint8_t kind, op;             /* op for CN_CMP: '<', '>', 'l' (<=), 'g' (>=), '=', '!' */
	uint32_t a, b;                /* operand nodes (indices in ck.cn) */
	struct px_aff x, y;
};

static uint32_t cnode_new(struct ck *c, uint8_t kind)
{
	struct cnode *x = PX_VEC_PUSH(c->cn, c->ncn, c->capcn);
	memset(x, 0, sizeof *x);
	x->kind = kind;
	return (uint32_t)(c->ncn - 1);
}

/* Compiles condition n; returns its node index in c->cn. */
static uint32_t cond_compile(struct ck *c, TSNode n, int depth)
{
	if (ts_node_is_null(n) || depth > MAX_FORM_DEPTH)
		return cnode_new(c, CN_UNKNOWN);
	if (cu_node_is(n, "condition_clause") || cu_node_is(n, "parenthesized_expression")) {
		TSNode v = field(n, "value");
		if (ts_node_is_null(v) && ts_node_named_child_count(n) == 1)
			v = ts_node_named_child(n, 0);
		return cond_compile(c, v, depth + 1);
	}
	if (cu_node_is(n, "unary_expression") && text_is(c, field(n, "operator"), "!")) {
		uint32_t a = cond_compile(c, field(n, "argument"), depth + 1);
		uint32_t r = cnode_new(c, CN_NOT);
		c->cn[r].a = a;
		return r;
	}
	if (cu_node_is(n, "binary_expression")) {
		TSNode op = field(n, "operator");
		uint32_t ol;
		const char *os = text(c, op, &ol);
		if (ol == 2 && (!memcmp(os, "&&", 2) || !memcmp(os, "||", 2))) {
			uint32_t a = cond_compile(c, field(n, "left"), depth + 1);
			uint32_t b = cond_compile(c, field(n, "right"), depth + 1);
			uint32_t r = cnode_new(c, os[0] == '&' ? CN_AND : CN_OR);
			c->cn[r].a = a;
			c->cn[r].b = b;
			return r;
		}
		bool cmp = (ol == 1 && (os[0] == '<' || os[0] == '>')) ||
		           (ol == 2 && (os[1] == '=' && (os[0] == '<' || os[0] == '>' || os[0] == '=' || os[0] == '!')));
		if (cmp) {
			struct px_aff a = form(c, field(n, "left"), depth + 1);
			struct px_aff b = form(c, field(n, "right"), depth + 1);
			uint32_t r = cnode_new(c, CN_CMP);
			c->cn[r].x = a;
			c->cn[r].y = b;
			c->cn[r].op = ol == 1 ? (uint8_t)os[0] : os[0] == '<' ? 'l' : os[0] == '>' ? 'g' : (uint8_t)os[0];
			return r;
		}
	}
	struct px_aff a = form(c, n, depth + 1);
	uint32_t r = cnode_new(c, CN_VAL);
	c->cn[r].x = a;
	return r;
}

/* 1 true, 0 false, -1 unknown, for the thread tid. */
static int cond_run(struct ck *c, uint32_t i, const int64_t tid[3])
{
	const struct cnode *x = &c->cn[i];
	int64_t u, v;
	int a, b;
	switch (x->kind) {
	case CN_AND:
	case CN_OR:
		a = cond_run(c, x->a, tid);
		b = cond_run(c, x->b, tid);
		if (x->kind == CN_AND)
			return a == 0 || b == 0 ? 0 : (a < 0 || b < 0) ? -1 : 1;
		return a == 1 || b == 1 ? 1 : (a < 0 || b < 0) ? -1 : 0;
	case CN_NOT:
		a = cond_run(c, x->a, tid);
		return a < 0 ? -1 : !a;
	case CN_CMP:
		if (!eval_form(c, &x->x, tid, &u) || !eval_form(c, &x->y, tid, &v))
			return -1;
		switch (x->op) {
		case '<': return u < v;
		case '>': return u > v;
		case 'l': return u <= v;
		case 'g': return u >= v;
		case '=': return u == v;
		default: return u != v;
		}
	case CN_VAL:
		if (!eval_form(c, &x->x, tid, &u))
			return -1;
		return u != 0;
	default:
		return -1;
	}
}

enum uni { U_BLOCK, U_WARP, U_DIVERGENT, U_UNKNOWN };

/* How a condition splits the block. */
static enum uni cond_uniformity(struct ck *c, TSNode cond)
{
	if (!tainted(c, cond, 0))
		return U_BLOCK;
	uint32_t nw = px_block_warps(c->block);
	int first = -2;
	bool warp_uniform = true;
	size_t mark = c->ncn;
	uint32_t root = cond_compile(c, cond, 0);
	for (uint32_t w = 0; w < nw; w++) {
		int64_t tid[32][3];
		uint32_t nl = px_warp_lanes(c->block, w, tid);
		int wv = -2;
		for (uint32_t l = 0; l < nl; l++) {
			int v = cond_run(c, root, tid[l]);
			if (v < 0) {
				c->ncn = mark;
				return U_UNKNOWN;
			}
			if (wv == -2)
				wv = v;
			else if (wv != v)
				warp_uniform = false;
			if (first == -2)
				first = v;
			else if (first != v && warp_uniform)
				first = -3;
		}
		if (!warp_uniform) {
			c->ncn = mark;
			return U_DIVERGENT;
		}
	}
	c->ncn = mark;
	return first == -3 ? U_WARP : U_BLOCK;
}

/* ---- loop enumeration ---- */

/* Values a for-loop's counter takes (at most MAX_VALUES); 0 if not enumerable. */
static uint32_t loop_values(struct ck *c, TSNode loop, const char **name, size_t *nlen, int64_t *vals)
{
	TSNode init = field(loop, "initializer"), cond = field(loop, "condition"), upd = field(loop, "update");
	if (ts_node_is_null(init) || ts_node_is_null(cond) || ts_node_is_null(upd))
		return 0;
	TSNode var = {0}, start = {0};
	if (cu_node_is(init, "declaration")) {
		TSNode d = field(init, "declarator");
		if (ts_node_is_null(d) || !cu_node_is(d, "init_declarator"))
			return 0;
		var = field(d, "declarator");
		start = field(d, "value");
	} else if (cu_node_is(init, "assignment_expression")) {
		var = field(init, "left");
		start = field(init, "right");
	}
	if (ts_node_is_null(var) || ts_node_is_null(start) || !cu_node_is(var, "identifier"))
		return 0;
	uint32_t vl;
	const char *vs = text(c, var, &vl);
	struct px_aff s0 = form(c, start, 0);
	if (!s0.known || s0.nterms)
		return 0;
	/* the condition: var OP bound */
	if (cu_node_is(cond, "condition_clause"))
		cond = field(cond, "value");
	if (ts_node_is_null(cond) || !cu_node_is(cond, "binary_expression"))
		return 0;
	TSNode l = field(cond, "left");
	if (ts_node_is_null(l) || !cu_node_is(l, "identifier") || !text_is(c, l, "") ) {
		uint32_t ll;
		const char *ls = ts_node_is_null(l) ? "" : text(c, l, &ll);
		if (ts_node_is_null(l) || ll != vl || memcmp(ls, vs, vl))
			return 0;
	}
	uint32_t ol;
	const char *os = text(c, field(cond, "operator"), &ol);
	struct px_aff b = form(c, field(cond, "right"), 0);
	if (!b.known || b.nterms)
		return 0;
	/* the update */
	char op = 0;
	int64_t k = 1;
	if (cu_node_is(upd, "update_expression")) {
		uint32_t ul;
		const char *us = text(c, upd, &ul);
		op = memchr(us, '+', ul) ? '+' : '-';
	} else if (cu_node_is(upd, "assignment_expression")) {
		uint32_t al;
		const char *as = text(c, field(upd, "operator"), &al);
		struct px_aff kk = form(c, field(upd, "right"), 0);
		if (!kk.known || kk.nterms || al < 2)
			return 0;
		op = as[0];
		k = kk.c;
	} else {
		return 0;
	}
	uint32_t n = 0;
	int64_t v = s0.c;
	for (int guard = 0; guard < 4096 && n < MAX_VALUES; guard++) {
		bool ok;
		if (ol == 1)
			ok = os[0] == '<' ? v < b.c : v > b.c;
		else if (os[0] == '<')
			ok = v <= b.c;
		else if (os[0] == '>')
			ok = v >= b.c;
		else if (os[0] == '!')
			ok = v != b.c;
		else
			return 0;
		if (!ok)
			break;
		vals[n++] = v;
		int64_t nv;
		switch (op) {
		case '+': nv = v + k; break;
		case '-': nv = v - k; break;
		case '*': nv = v * k; break;
		case '/': nv = k ? v / k : v; break;
		case '<': nv = k >= 0 && k < 32 ? v << k : v; break;
		case '>': nv = k >= 0 && k < 32 ? v >> k : v; break;
		default: return 0;
		}
		if (nv == v)
			return 0;
		v = nv;
	}
	if (n == MAX_VALUES)
		return 0;   /* too many: not enumerated */
	*name = vs;
	*nlen = vl;
	return n;
}

/* ---- accesses ---- */

struct target {
	bool shared;
	bool is_volatile;
	uint32_t elem;
	uint32_t ndims;
	uint64_t dims[4];
	const char *name;
};

/* Is identifier n a global pointer parameter or a shared array? */
static bool access_target(struct ck *c, TSNode id, struct target *t)
{
	uint32_t len;
	const char *s = text(c, id, &len);
	memset(t, 0, sizeof *t);
	for (uint32_t i = 0; i < c->f->nshared; i++) {
		const struct px_cuda_shared *sh = &c->f->shared[i];
		if ((sh->func == (int32_t)c->fidx - 1 || sh->func < 0) && strlen(sh->name) == len &&
		    !memcmp(sh->name, s, len)) {
			t->shared = true;
			t->elem = sh->elem_bytes;
			t->ndims = sh->ndims;
			memcpy(t->dims, sh->dims, sizeof t->dims);
			t->name = sh->name;
			uint32_t ll = sh->line ? c->p->line_start[sh->line - 1] : 0;
			const char *le = memchr(c->f->text + ll, ';', c->f->len - ll);
			for (const char *q = c->f->text + ll; le && q + 8 <= le; q++)
				if (!memcmp(q, "volatile", 8))
					t->is_volatile = true;
			return t->elem != 0;
		}
	}
	int32_t pi = param_index(c, s, len);
	if (pi < 0 || c->fn->kind != PX_CUDA_KERNEL)
		return false;
	const char *pt = c->fn->param_types[pi];
	const char *star = strchr(pt, '*');
	if (!star)
		return false;
	struct cu_env env = {.f = c->f, .p = c->p};
	t->elem = (uint32_t)cu_sizeof_type(&env, pt, (size_t)(star - pt));
	t->is_volatile = strstr(pt, "volatile") != NULL;
	t->name = c->fn->params[pi];
	return t->elem != 0;
}

/* The enclosing if-statements of `at` (inside the function), their
 * conditions compiled once: the lanes that reach `at` are those for which
 * each holds (in_then) or fails (else branch). */
struct guards {
	uint32_t root[16];
	bool in_then[16];
	uint32_t n;
	bool partial;                 /* more than 16: the outer ones are ignored (lanes kept) */
};

/* Requires: the node is the walk's current one (the path's last entry). */
static void guards_of(struct ck *c, struct guards *g)
{
	g->n = 0;
	g->partial = false;
	for (uint32_t k = near_above(c, NEAR_IF, (uint32_t)c->npath); k; k = near_above(c, NEAR_IF, k)) {
		TSNode a = c->path[k - 1], child = c->path[k];
		if (g->n == PX_COUNTOF(g->root)) {
			g->partial = true;
			break;
		}
		g->in_then[g->n] = ts_node_eq(child, field(a, "consequence"));
		g->root[g->n++] = cond_compile(c, field(a, "condition"), 0);
	}
}

/* The lanes of a warp (tid[0..nl)) whose guards hold; *known false when
 * a guard could not be evaluated for some lane (the lane is kept). */
static uint32_t lane_mask(struct ck *c, const struct guards *g, int64_t tid[32][3], uint32_t nl, bool *known)
{
	uint32_t mask = nl == 32 ? 0xffffffffu : ((1u << nl) - 1);
	for (uint32_t k = 0; k < g->n; k++)
		for (uint32_t l = 0; l < nl; l++) {
			if (!(mask >> l & 1))
				continue;
			int v = cond_run(c, g->root[k], tid[l]);
			if (v < 0) {
				*known = false;
				continue;
			}
			if (v != (int)g->in_then[k])
				mask &= ~(1u << l);
		}
	return mask;
}

static void one_access(struct ck *c, TSNode sub, TSNode arr, TSNode idx[2], uint32_t nidx,
                       const struct target *t, bool store, double *worst_ratio, double *cost, double *ideal,
                       bool *any)
{
	struct px_aff a;
	if (nidx == 2 && t->ndims == 2) {
		struct px_aff i0 = form(c, idx[0], 0), i1 = form(c, idx[1], 0);
		a = px_aff_add(&c->an, c->arena, px_aff_mul(&c->an, c->arena, i0, px_aff_const((int64_t)t->dims[1])), i1, 1);
	} else if (nidx == 1 && t->ndims <= 1) {
		a = form(c, idx[0], 0);
	} else {
		return;
	}
	(void)arr;
	(void)store;
	(void)sub;
	if (!a.known || !px_aff_has_thread(&c->an, &a))
		return;
	a = px_aff_mul(&c->an, c->arena, a, px_aff_const(t->elem));
	size_t mark = c->ncn;
	struct guards g;
	guards_of(c, &g);   /* before uval: compiling may make atoms */
	/* uniform atoms: 0, with their alignment checked below */
	int64_t *uval = xcalloc(c->an.natoms + 1, sizeof *uval);
	bool *uknown = xcalloc(c->an.natoms + 1, sizeof *uknown);
	for (uint32_t i = 0; i < c->an.natoms; i++)
		uknown[i] = !c->an.atoms[i].thread;
	uint64_t A = 1u << 12;
	for (uint32_t k = 0; k < a.nterms; k++) {
		const struct px_atom *at = &c->an.atoms[a.t[k].atom];
		if (at->thread)
			continue;
		int64_t cf = a.t[k].coef < 0 ? -a.t[k].coef : a.t[k].coef;
		uint64_t v = (uint64_t)(cf & -cf) * at->align;
		if (v < A)
			A = v;
	}
	uint32_t nw = px_block_warps(c->block);
	if (nw > MAX_WARPS)
		nw = MAX_WARPS;
	double sum = 0, isum = 0;
	uint32_t counted = 0;
	bool ok = true;
	uint32_t gran = t->shared ? 4 : 32;
	for (uint32_t w = 0; w < nw && ok; w++) {
		int64_t tid[32][3], addr[32];
		uint32_t nl = px_warp_lanes(c->block, w, tid);
		bool mk = true;
		uint32_t mask = lane_mask(c, &g, tid, nl, &mk);
		if (!mask)
			continue;
		for (uint32_t l = 0; l < 32; l++) {
			addr[l] = 0;
			if (!(mask >> l & 1))
				continue;
			struct px_eval_env env = {.tid = {tid[l][0], tid[l][1], tid[l][2]}, .uval = uval, .uknown = uknown};
			if (!px_aff_eval(&c->an, &a, &env, &addr[l]))
				ok = false;
		}
		if (!ok)
			break;
		uint32_t r0 = 0, i0 = 0;
		for (uint64_t r = 0; r < gran; r += (A < gran ? A : gran)) {
			int64_t sh[32];
			for (uint32_t l = 0; l < 32; l++)
				sh[l] = addr[l] + (int64_t)r;
			uint32_t x, id;
			if (t->shared)
				px_warp_wavefronts(sh, mask, t->elem, &x, &id);
			else
				px_warp_sectors(sh, mask, t->elem, &x, &id);
			if (r == 0) {
				r0 = x;
				i0 = id;
			} else if (x != r0) {
				ok = false;
			}
		}
		sum += r0;
		isum += i0;
		counted++;
	}
	c->ncn = mark;
	free(uval);
	free(uknown);
	if (!ok || !counted)
		return;
	double m = sum / counted, im = isum / counted;
	*any = true;
	if (im > 0 && m / im > *worst_ratio) {
		*worst_ratio = m / im;
		*cost = m;
		*ideal = im;
	}
}

/* Evaluates subscript `sub` (the walk's current node) under every
 * combination of the enumerable loops around it. */
static void check_access(struct ck *c, TSNode sub)
{
	TSNode idx[2];
	uint32_t nidx = 0;
	TSNode arr = sub;
	while (cu_node_is(arr, "subscript_expression") && nidx < 2) {
		TSNode il = field(arr, "indices");
		TSNode ix = ts_node_is_null(il) ? field(arr, "index") : ts_node_named_child(il, 0);
		if (ts_node_is_null(ix))
			return;
		memmove(idx + 1, idx, nidx * sizeof *idx);
		idx[0] = ix;
		nidx++;
		arr = field(arr, "argument");
	}
	if (!cu_node_is(arr, "identifier"))
		return;
	struct target t;
	if (!access_target(c, arr, &t))
		return;
	TSNode parent = c->npath > 1 ? c->path[c->npath - 2] : c->fdef;
	bool store = !ts_node_is_null(parent) && cu_node_is(parent, "assignment_expression") &&
	             ts_node_eq(field(parent, "left"), sub);
	/* enumerable loops around it (innermost first) */
	const char *names[MAX_BIND];
	size_t lens[MAX_BIND];
	int64_t vals[MAX_BIND][MAX_VALUES];
	uint32_t nv[MAX_BIND];
	int nl = 0;
	for (uint32_t k = c->npath > 1 ? c->near[NEAR_FOR][c->npath - 2] : 0; k && nl < MAX_BIND;
	     k = near_above(c, NEAR_FOR, k)) {
		uint32_t n = loop_values(c, c->path[k - 1], &names[nl], &lens[nl], vals[nl]);
		if (n)
			nv[nl++] = n;
	}
	uint32_t combos = 1;
	for (int i = 0; i < nl; i++)
		combos = combos * nv[i] > MAX_COMBOS ? MAX_COMBOS : combos * nv[i];
	double worst = 0, cost = -1, ideal = -1;
	bool any = false;
	for (uint32_t k = 0; k < combos; k++) {
		uint32_t r = k;
		c->nbind = nl;
		for (int i = 0; i < nl; i++) {
			c->bname[i] = names[i];
			c->blen[i] = lens[i];
			c->bval[i] = vals[i][r % nv[i]];
			r /= nv[i];
		}
		one_access(c, sub, arr, idx, nidx, &t, store, &worst, &cost, &ideal, &any);
	}
	c->nbind = 0;
	if (!any)
		return;
	TSPoint pt = ts_node_start_point(sub);
	struct px_cuda_access *x = PX_VEC_PUSH(c->res->acc, c->res->nacc, c->res->capacc);
	memset(x, 0, sizeof *x);
	x->line = pt.row + 1;
	x->column = pt.column + 1;
	x->func = (int32_t)c->fidx - 1;
	x->shared = t.shared;
	x->is_store = store;
	x->bytes = t.elem;
	x->affine = true;
	x->array = t.name;
	x->sectors = x->ideal_sectors = x->wavefronts = x->ideal_wavefronts = -1;
	if (t.shared) {
		x->wavefronts = cost;
		x->ideal_wavefronts = ideal;
	} else {
		x->sectors = cost;
		x->ideal_sectors = ideal;
	}
	if (t.shared && worst >= 2)
		finding(c->res, "shared-bank-conflict", x->line, x->column, c->fn->name, NULL,
		        "%s of %s[...]: %.0f-way bank conflict (%.1f wavefronts per request, ideal %.1f) with "
		        "block (%u,%u,%u)", store ? "store" : "load", t.name, worst, cost, ideal,
		        c->block[0], c->block[1], c->block[2]);
	else if (!t.shared && worst >= 2 && cost >= ideal + 4)
		finding(c->res, "uncoalesced-global", x->line, x->column, c->fn->name, NULL,
		        "%s of %s[...] touches %.1f sectors per warp request where %.1f suffice, with block "
		        "(%u,%u,%u)", store ? "store" : "load", t.name, cost, ideal, c->block[0], c->block[1],
		        c->block[2]);
}

/* ---- barriers and intrinsics ---- */

static int barrier_kind(const struct ck *c, TSNode call)
{
	TSNode fn = field(call, "function");
	if (ts_node_is_null(fn))
		return 0;
	uint32_t len;
	const char *s = text(c, fn, &len);
	if (cu_node_is(fn, "field_expression")) {
		TSNode fl = field(fn, "field");
		if (!ts_node_is_null(fl) && text_is(c, fl, "sync")) {
			uint32_t al;
			const char *as = text(c, field(fn, "argument"), &al);
			/* tile/warp objects sync a warp; blocks and grids the block */
			for (uint32_t i = 0; i + 4 <= al; i++)
				if (!memcmp(as + i, "tile", 4) || !memcmp(as + i, "warp", 4))
					return 2;
			return 1;
		}
		return 0;
	}
	if ((len == 13 && !memcmp(s, "__syncthreads", 13)) || (len > 14 && !memcmp(s, "__syncthreads_", 14)) ||
	    (len == 15 && !memcmp(s, "__barrier_sync", 14)))
		return 1;
	if (len == 10 && !memcmp(s, "__syncwarp", 10))
		return 2;
	if ((len == 8 && !memcmp(s, "cg::sync", 8)) || (len == 4 && !memcmp(s, "sync", 4)))
		return 1;
	return 0;
}

/* Requires: call is the walk's current node. */
static void check_barrier(struct ck *c, TSNode call, int kind)
{
	TSPoint pt = ts_node_start_point(call);
	uint32_t len;
	const char *name = text(c, field(call, "function"), &len);
	for (uint32_t k = near_above(c, NEAR_COND, (uint32_t)c->npath); k; k = near_above(c, NEAR_COND, k)) {
		TSNode a = c->path[k - 1], child = c->path[k];
		TSNode cond = field(a, "condition");
		if (ts_node_is_null(cond) || ts_node_eq(cond, child))
			continue;
		enum uni u = cond_uniformity(c, cond);
		if (u == U_BLOCK || (u == U_WARP && kind == 2))
			continue;
		TSPoint cp = ts_node_start_point(cond);
		uint32_t cl;
		const char *cs = text(c, cond, &cl);
		finding(c->res, "divergent-barrier", pt.row + 1, pt.column + 1, c->fn->name, NULL,
		        "%.*s() is reached under the thread-dependent condition %.*s (line %u)%s: threads "
		        "that skip it %s", (int)len, name, (int)(cl > 60 ? 60 : cl), cs, cp.row + 1,
		        u == U_WARP ? ", uniform only within each warp" : u == U_UNKNOWN ? "" : ", which splits warps",
		        kind == 2 ? "leave the warp's barrier short of lanes" : "never arrive: deadlock or undefined behaviour");
		return;
	}
	/* an earlier thread-dependent return, the first in the text */
	uint32_t at = ts_node_start_byte(call);
	for (size_t i = 0; i < c->nxret && c->xret[i].start < at; i++) {
		struct xret *r = &c->xret[i];
		if (ts_node_is_null(r->ifs) || ts_node_end_byte(r->ifs) > at)
			continue;
		if (r->u < 0)
			r->u = (int8_t)cond_uniformity(c, field(r->ifs, "condition"));
		enum uni u = (enum uni)r->u;
		if (u != U_BLOCK && !(u == U_WARP && kind == 2)) {
			finding(c->res, "divergent-barrier", pt.row + 1, pt.column + 1, c->fn->name, NULL,
			        "%.*s() follows a thread-dependent return (line %u): the threads that "
			        "returned never arrive", (int)len, name, r->line);
			break;
		}
	}
}

static void check_legacy(struct ck *c, TSNode call)
{
	TSNode fn = field(call, "function");
	if (ts_node_is_null(fn) || !cu_node_is(fn, "identifier"))
		return;
	static const char *const legacy[] = {"__all", "__any", "__ballot", "__shfl", "__shfl_down",
	                                     "__shfl_up", "__shfl_xor"};
	for (size_t i = 0; i < PX_COUNTOF(legacy); i++)
		if (text_is(c, fn, legacy[i])) {
			TSPoint pt = ts_node_start_point(call);
			finding(c->res, "legacy-warp-intrinsic", pt.row + 1, pt.column + 1, c->fn->name, NULL,
			        "%s() was removed for compute capability 7.0 and later: use %s_sync(mask, ...)",
			        legacy[i], legacy[i]);
		}
}

/* ---- warp-synchronous sequences ---- */

struct wacc {
	const char *arr;
	size_t alen;
	struct px_aff idx;
	bool store;
	uint32_t line, col;
};

/* The first index of the sorted start bytes a[0..n) that is >= at. */
static size_t first_at(const uint32_t *a, size_t n, size_t stride, uint32_t at)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (*(const uint32_t *)((const char *)a + mid * stride) < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first cap non-volatile array accesses inside statement n, in the
 * text's order, into out; *has_barrier when n contains a barrier call. */
static void collect_accesses(struct ck *c, TSNode n, struct wacc *out, uint32_t *nout, uint32_t cap,
                             bool *has_barrier)
{
	uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
	size_t i = first_at(c->xbar, c->nxbar, sizeof *c->xbar, s);
	if (i < c->nxbar && c->xbar[i] < e)
		*has_barrier = true;
	i = c->nxacc ? first_at(&c->xacc[0].start, c->nxacc, sizeof *c->xacc, s) : 0;
	for (; i < c->nxacc && c->xacc[i].start < e && *nout < cap; i++) {
		struct xacc *x = &c->xacc[i];
		if (!x->formed) {
			x->idx = form(c, x->index, 0);
			x->formed = true;
		}
		struct wacc *w = &out[(*nout)++];
		w->arr = x->arr;
		w->alen = x->alen;
		w->idx = x->idx;
		w->store = x->store;
		w->line = x->line;
		w->col = x->col;
	}
}

/* Fills c's index of the body (struct xacc): walks it once with the path
 * (which it leaves empty). */
static void index_body(struct ck *c, TSNode body)
{
	TSTreeCursor cur = ts_tree_cursor_new(body);
	path_push(c, body);
	for (;;) {
		TSNode x = ts_tree_cursor_current_node(&cur);
		if (cu_node_is(x, "call_expression") && barrier_kind(c, x)) {
			*PX_VEC_PUSH(c->xbar, c->nxbar, c->capxbar) = ts_node_start_byte(x);
		} else if (cu_node_is(x, "return_statement")) {
			uint32_t k = near_above(c, NEAR_IF, (uint32_t)c->npath);
			struct xret *r = PX_VEC_PUSH(c->xret, c->nxret, c->capxret);
			r->start = ts_node_start_byte(x);
			r->line = ts_node_start_point(x).row + 1;
			r->ifs = k ? c->path[k - 1] : (TSNode){0};
			r->u = -1;
		} else if (cu_node_is(x, "subscript_expression")) {
			TSNode arr = field(x, "argument"), il = field(x, "indices");
			TSNode ix = ts_node_is_null(il) ? field(x, "index") : ts_node_named_child(il, 0);
			if (!ts_node_is_null(arr) && cu_node_is(arr, "identifier") && !ts_node_is_null(ix)) {
				struct target t;
				uint32_t al;
				const char *as = text(c, arr, &al);
				bool known = access_target(c, arr, &t);
				if (!known) {   /* a pointer parameter of a device function */
					int32_t pi = param_index(c, as, al);
					known = pi >= 0 && strchr(c->fn->param_types[pi], '*');
					t.is_volatile = known && strstr(c->fn->param_types[pi], "volatile");
				}
				if (known && !t.is_volatile) {
					struct xacc *w = PX_VEC_PUSH(c->xacc, c->nxacc, c->capxacc);
					memset(w, 0, sizeof *w);
					w->start = ts_node_start_byte(x);
					w->arr = as;
					w->alen = al;
					w->index = ix;
					TSNode par = c->npath > 1 ? c->path[c->npath - 2] : c->fdef;
					w->store = !ts_node_is_null(par) && cu_node_is(par, "assignment_expression") &&
					           ts_node_eq(field(par, "left"), x);
					TSPoint pt = ts_node_start_point(x);
					w->line = pt.row + 1;
					w->col = pt.column + 1;
				}
			}
		}
		if (ts_tree_cursor_goto_first_child(&cur)) {
			path_push(c, ts_tree_cursor_current_node(&cur));
			continue;
		}
		bool done = false;
		while (!ts_tree_cursor_goto_next_sibling(&cur)) {
			c->npath--;
			if (!ts_tree_cursor_goto_parent(&cur) || ts_node_eq(ts_tree_cursor_current_node(&cur), body)) {
				done = true;
				break;
			}
		}
		if (done)
			break;
		c->path[c->npath - 1] = ts_tree_cursor_current_node(&cur);
		path_set(c, c->npath - 1);
	}
	ts_tree_cursor_delete(&cur);
	c->npath = 0;
}

static void check_sequence(struct ck *c, TSNode block)
{
	struct wacc written[64];
	uint32_t nw = 0;
	bool reported = false;
	TSTreeCursor cur = ts_tree_cursor_new(block);
	for (bool more = ts_tree_cursor_goto_first_child(&cur); more && !reported;
	     more = ts_tree_cursor_goto_next_sibling(&cur)) {
		TSNode st = ts_tree_cursor_current_node(&cur);
		if (!ts_node_is_named(st))
			continue;
		if (cu_node_is(st, "for_statement") || cu_node_is(st, "while_statement") || cu_node_is(st, "do_statement") ||
		    cu_node_is(st, "compound_statement")) {
			nw = 0;
			continue;
		}
		struct wacc acc[64];
		uint32_t na = 0;
		bool bar = false;
		collect_accesses(c, st, acc, &na, 64, &bar);
		for (uint32_t r = 0; r < na && !reported; r++) {
			if (acc[r].store || !acc[r].idx.known)
				continue;
			for (uint32_t w = 0; w < nw; w++) {
				if (written[w].alen != acc[r].alen || memcmp(written[w].arr, acc[r].arr, acc[r].alen))
					continue;
				struct px_aff d = px_aff_add(&c->an, c->arena, acc[r].idx, written[w].idx, -1);
				if (!written[w].idx.known || !d.known || d.nterms || d.c == 0 || written[w].idx.nterms == 0)
					continue;
				finding(c->res, "warp-sync-missing", acc[r].line, acc[r].col, c->fn->name, NULL,
				        "reads %.*s[...] %+lld elements from what this thread wrote at line %u: another "
				        "lane's value, with no __syncwarp() between and %.*s not volatile",
				        (int)acc[r].alen, acc[r].arr, (long long)d.c, written[w].line, (int)acc[r].alen,
				        acc[r].arr);
				reported = true;
				break;
			}
		}
		if (bar) {
			nw = 0;
			continue;
		}
		for (uint32_t a = 0; a < na && nw < 64; a++)
			if (acc[a].store)
				written[nw++] = acc[a];
	}
	ts_tree_cursor_delete(&cur);
}

/* ---- per function ---- */

static void pick_block(struct ck *c)
{
	const struct px_cuda_func *fn = c->fn;
	c->block[0] = PX_DEFAULT_BLOCK_X;
	c->block[1] = c->block[2] = 1;
	if (fn->have_launch && fn->ann_block.known) {
		memcpy(c->block, fn->ann_block.v, sizeof c->block);
		return;
	}
	const struct px_cuda_launch *only = NULL;
	uint32_t n = 0;
	for (uint32_t i = 0; i < c->f->nlaunches; i++) {
		const struct px_cuda_launch *l = &c->f->launches[i];
		if (l->func == (int32_t)c->fidx - 1 && l->block.known) {
			if (!only || memcmp(only->block.v, l->block.v, sizeof l->block.v))
				n++;
			only = l;
		}
	}
	if (n == 1 && (uint64_t)only->block.v[0] * only->block.v[1] * only->block.v[2] <= 1024) {
		memcpy(c->block, only->block.v, sizeof c->block);
		return;
	}
	if (fn->has_launch_bounds && fn->launch_bounds_known && fn->max_threads && fn->max_threads <= 1024)
		c->block[0] = fn->max_threads;
}

/* Checks function fi. taint: one byte per definition of the file, shared
 * by all functions (a definition belongs to one function and its verdict
 * does not depend on the launch block), so no function pays for the
 * file's other definitions. */
static void check_function(const struct px_cuda_file *f, uint32_t fi, uint8_t *taint, struct px_cuda_results *res)
{
	const struct px_cuda_func *fn = &f->funcs[fi];
	const struct cu_priv *p = f->priv;
	if (!fn->has_body || !fn->clean || fn->kind == PX_CUDA_HOST)
		return;
	struct ck c = {.f = f, .p = p, .res = res, .fidx = fi + 1, .fn = fn};
	c.arena = px_arena_new();
	c.taint = taint;
	pick_block(&c);
	for (int i = 0; i < 3; i++) {
		c.tid_atom[i] = px_aff_new_atom(&c.an, c.arena, PX_ATOM_TID, true, (uint32_t)i, 0, 1);
		c.ctaid_atom[i] = px_aff_new_atom(&c.an, c.arena, PX_ATOM_CTAID, false, (uint32_t)i, 0, 1);
		c.nctaid_atom[i] = px_aff_new_atom(&c.an, c.arena, PX_ATOM_NCTAID, false, (uint32_t)i, 0, 1);
	}
	/* walk the body */
	TSNode root = ts_tree_root_node(p->tree);
	TSNode body = ts_node_descendant_for_byte_range(root, fn->body_start, fn->body_end);
	while (!ts_node_is_null(body) && !(cu_node_is(body, "compound_statement") &&
	                                   ts_node_start_byte(body) == fn->body_start))
		body = ts_node_parent(body);
	if (ts_node_is_null(body)) {
		px_arena_delete(c.arena);
		return;
	}
	c.fdef = ts_node_parent(body);
	index_body(&c, body);
	TSTreeCursor cur = ts_tree_cursor_new(body);
	path_push(&c, body);
	for (;;) {
		TSNode x = ts_tree_cursor_current_node(&cur);
		if (cu_node_is(x, "call_expression")) {
			int k = barrier_kind(&c, x);
			if (k)
				check_barrier(&c, x, k);
			check_legacy(&c, x);
		} else if (cu_node_is(x, "subscript_expression") && fn->kind == PX_CUDA_KERNEL) {
			TSNode par = c.npath > 1 ? c.path[c.npath - 2] : c.fdef;
			if (ts_node_is_null(par) || !cu_node_is(par, "subscript_expression"))
				check_access(&c, x);
		} else if (cu_node_is(x, "compound_statement")) {
			check_sequence(&c, x);
		}
		if (ts_tree_cursor_goto_first_child(&cur)) {
			path_push(&c, ts_tree_cursor_current_node(&cur));
			continue;
		}
		bool done = false;
		while (!ts_tree_cursor_goto_next_sibling(&cur)) {
			c.npath--;
			if (!ts_tree_cursor_goto_parent(&cur) || ts_node_eq(ts_tree_cursor_current_node(&cur), body)) {
				done = true;
				break;
			}
		}
		if (done)
			break;
		c.path[c.npath - 1] = ts_tree_cursor_current_node(&cur);
		path_set(&c, c.npath - 1);
	}
	ts_tree_cursor_delete(&cur);
	px_arena_delete(c.arena);
	free(c.cn);
	free(c.path);
	for (int k = 0; k < 3; k++)
		free(c.near[k]);
	free(c.xacc);
	free(c.xbar);
	free(c.xret);
}

void px_cuda_check(const struct px_cuda_file *f, const struct px_cuda_options *opt,
                   const struct px_cuda_regs *regs, size_t nregs, struct px_cuda_results *res)
{
	size_t first = res->n;
	const struct cu_priv *p = f->priv;
	if (p && p->tree) {
		uint8_t *taint = xcalloc(p->ndefs + 1, 1);
		for (uint32_t i = 0; i < f->nfuncs; i++)
			check_function(f, i, taint, res);
		free(taint);
	}
	for (uint32_t i = 0; i < f->nfuncs; i++) {
		const struct px_cuda_func *fn = &f->funcs[i];
		if (fn->kind == PX_CUDA_KERNEL && fn->has_body && fn->shared_static_known &&
		    fn->shared_static_bytes > 48 * 1024)
			finding(res, "launch-infeasible", fn->line, fn->column, fn->name, NULL,
			        "%s declares %llu bytes of static __shared__ memory, over the 48 KiB static limit: "
			        "ptxas rejects it; allocate it as extern __shared__ with the opt-in",
			        fn->name, (unsigned long long)fn->shared_static_bytes);
	}
	cu_check_launches(f, opt, regs, nregs, res);
	px_cuda_results_sort(res, first);
}

static int cmp_finding(const void *a, const void *b)
{
	const struct px_cuda_finding *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->column != y->column)
		return x->column < y->column ? -1 : 1;
	int c = strcmp(x->rule, y->rule);
	return c ? c : strcmp(x->message, y->message);
}

void px_cuda_results_sort(struct px_cuda_results *res, size_t first)
{
	if (res->n > first + 1)
		qsort(res->items + first, res->n - first, sizeof *res->items, cmp_finding);
}

void px_cuda_add_finding(struct px_cuda_results *res, const char *rule, uint32_t line, uint32_t col,
                         const char *kernel, const char *arch, const char *fmt, ...)
{
	struct px_cuda_finding *x = PX_VEC_PUSH(res->items, res->n, res->cap);
	x->rule = rule_id(rule);
	x->severity = rule_sev(rule);
	x->line = line;
	x->column = col;
	x->kernel = kernel;
	x->arch = arch;
	va_list ap;
	va_start(ap, fmt);
	x->message = xvasprintf(fmt, ap);
	va_end(ap);
}

void px_cuda_results_to_diags(const struct px_cuda_file *f, const struct px_cuda_results *res,
                              struct px_diags *diags)
{
	for (size_t i = 0; i < res->n; i++) {
		const struct px_cuda_finding *x = &res->items[i];
		if (x->arch)
			px_diag_add(diags, x->severity, f->path, x->line, x->column, x->rule, "%s", x->message);
		else
			px_diag_add(diags, x->severity, f->path, x->line, x->column, x->rule, "%s", x->message);
	}
}

void px_cuda_results_free(struct px_cuda_results *res)
{
	for (size_t i = 0; i < res->n; i++)
		free(res->items[i].message);
	free(res->items);
	free(res->acc);
	memset(res, 0, sizeof *res);
}
