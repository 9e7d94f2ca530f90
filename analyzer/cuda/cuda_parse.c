/* cuda_parse.c: px_cuda_parse, from .cu text to the facts the source
 * analyses and the report need.
 *
 * Approach: cuda_pre.c blanks what the grammar cannot read (offsets kept);
 * tree-sitter-cuda parses the blanked text; then two iterative walks over
 * the tree (a cursor, no recursion, so deep nesting cannot exhaust the
 * stack):
 *  1. functions (function_definition anywhere: namespaces, templates,
 *     classes), their kind (__global__/__device__ from the declaration's
 *     own words and the file's qualifier macros), name, parameters,
 *     __launch_bounds__ and __maxnreg__; simple structs and typedefs (for
 *     sizeof); enumerators; ERROR/MISSING regions (outermost only), each
 *     skipped with a note;
 *  2. definitions (declarations with initialisers, assignments, ++/--)
 *     for the constant folder, __shared__ declarations with folded sizes,
 *     launch sites (k<<<g, b, smem, stream>>>, cudaLaunchKernel,
 *     cudaLaunchKernelEx with its config's fields) and opt-ins
 *     (cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, n)).
 * Nothing inside a node with an error is extracted (ts_node_has_error).
 * Robustness is counted per kernel: nkernels counts `__global__` function
 * definitions in the text, nkernels_clean those the tree holds with no
 * ERROR/MISSING node inside (bench/cuda_corpus.py reports the share). */
#include <stdio.h>
#include <string.h>

#include "cuda_int.h"

enum { PARSE_TIMEOUT_US = 20 * 1000 * 1000 };

bool cu_node_is(TSNode n, const char *type)
{
	return strcmp(ts_node_type(n), type) == 0;
}

static TSNode field(TSNode n, const char *name)
{
	return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

static bool is_id0(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_id(char c)
{
	return is_id0(c) || (c >= '0' && c <= '9');
}

uint32_t cu_func_at(const struct px_cuda_file *f, uint32_t off)
{
	/* funcs are in text order and do not overlap: the last start <= off */
	uint32_t lo = 0, hi = f->nfuncs;
	const struct cu_priv *p = f->priv;
	(void)p;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (f->funcs[mid].start_byte <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	const struct px_cuda_func *fn = &f->funcs[lo - 1];
	return off < fn->end_byte ? lo : 0;
}

static char *dup_node(struct px_cuda_file *f, const struct cu_priv *p, TSNode n)
{
	uint32_t len;
	const char *s = cu_node_text(p, n, &len);
	return px_arena_strndup(f->arena, s, len);
}

/* The innermost name of a declarator (function_declarator, pointer_declarator,
 * array_declarator, init_declarator, qualified_identifier, template_function). */
static TSNode declarator_name(TSNode d)
{
	for (int guard = 0; guard < 64 && !ts_node_is_null(d); guard++) {
		const char *t = ts_node_type(d);
		if (!strcmp(t, "identifier") || !strcmp(t, "field_identifier") || !strcmp(t, "type_identifier") ||
		    !strcmp(t, "operator_name") || !strcmp(t, "destructor_name"))
			return d;
		TSNode next = field(d, "declarator");
		if (ts_node_is_null(next))
			next = field(d, "name");
		if (ts_node_is_null(next) && ts_node_named_child_count(d) > 0)
			next = ts_node_named_child(d, ts_node_named_child_count(d) - 1);
		d = next;
	}
	TSNode none = {0};
	return none;
}

/* Does the word list [s, e) contain `word`, directly or through a macro? */
static bool has_word(const struct cu_priv *p, const char *s, const char *e, const char *word, int depth)
{
	size_t wn = strlen(word);
	while (s < e) {
		if (!is_id0(*s) || (s > p->buf && is_id(s[-1]) && depth == 0)) {
			s++;
			continue;
		}
		const char *w = s;
		while (s < e && is_id(*s))
			s++;
		size_t n = (size_t)(s - w);
		if (n == wn && memcmp(w, word, n) == 0)
			return true;
		if (depth < 4) {
			const struct cu_macro *m = cu_find_macro(p, w, n);
			if (m && has_word(p, m->body, m->body + m->blen, word, depth + 1))
				return true;
		}
	}
	return false;
}

static void add_skip(struct px_cuda_file *f, struct cu_priv *p, TSNode n, struct px_diags *diags)
{
	struct px_cuda_skip *s = PX_ARENA_PUSH(f->arena, f->skipped, f->nskipped, f->capskipped);
	TSPoint a = ts_node_start_point(n), b = ts_node_end_point(n);
	s->line = a.row + 1;
	s->column = a.column + 1;
	s->end_line = b.row + 1;
	s->missing = ts_node_is_missing(n);
	(void)p;
	if (s->missing)
		px_diag_add(diags, PX_NOTE, f->path, s->line, s->column, NULL,
		            "the CUDA parser expected '%s' here; the enclosing region is skipped by the "
		            "source analyses", ts_node_type(n));
	else
		px_diag_add(diags, PX_NOTE, f->path, s->line, s->column, NULL,
		            "the CUDA parser could not read lines %u-%u; skipped by the source analyses",
		            s->line, s->end_line);
}

static void add_function(struct px_cuda_file *f, struct cu_priv *p, TSNode n)
{
	TSNode decl = field(n, "declarator");
	TSNode body = field(n, "body");
	TSNode parent = ts_node_parent(n);
	/* the function declarator: under pointer/reference declarators */
	TSNode fd = decl;
	for (int g = 0; g < 16 && !ts_node_is_null(fd) && !cu_node_is(fd, "function_declarator"); g++)
		fd = field(fd, "declarator");
	if (ts_node_is_null(fd))
		return;
	TSNode name = declarator_name(field(fd, "declarator"));
	if (ts_node_is_null(name))
		return;
	struct px_cuda_func *fn = PX_ARENA_PUSH(f->arena, f->funcs, f->nfuncs, f->capfuncs);
	memset(fn, 0, sizeof *fn);
	fn->name = dup_node(f, p, name);
	TSPoint a = ts_node_start_point(n);
	fn->line = a.row + 1;
	fn->column = a.column + 1;
	fn->end_line = ts_node_end_point(n).row + 1;
	fn->start_byte = ts_node_start_byte(n);
	fn->end_byte = ts_node_end_byte(n);
	fn->has_body = !ts_node_is_null(body);
	if (fn->has_body) {
		fn->body_start = ts_node_start_byte(body);
		fn->body_end = ts_node_end_byte(body);
	}
	fn->is_template = !ts_node_is_null(parent) && cu_node_is(parent, "template_declaration");
	fn->clean = !ts_node_has_error(n);
	/* qualifiers: the original words before the declarator */
	/* the grammar may leave __device__ & co. outside the definition: read
	 * from the end of the previous sibling (or the parent's start) */
	TSNode prev = ts_node_prev_sibling(n);
	uint32_t from = !ts_node_is_null(prev) ? ts_node_end_byte(prev)
	              : !ts_node_is_null(parent) ? ts_node_start_byte(parent) : 0;
	if (from > fn->start_byte)
		from = fn->start_byte;
	const char *qs = f->text + from, *qe = f->text + ts_node_start_byte(decl);
	struct cu_priv orig = *p;
	orig.buf = (char *)f->text;
	fn->kind = has_word(&orig, qs, qe, "__global__", 0) ? PX_CUDA_KERNEL
	         : has_word(&orig, qs, qe, "__device__", 0) ? PX_CUDA_DEVICE : PX_CUDA_HOST;
	struct cu_env env = {.f = f, .p = p, .at = fn->start_byte};
	/* __launch_bounds__ */
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
		TSNode c = ts_node_named_child(n, i);
		if (!cu_node_is(c, "launch_bounds"))
			continue;
		fn->has_launch_bounds = true;
		fn->launch_bounds_known = true;
		uint32_t *dst[3] = {&fn->max_threads, &fn->min_blocks, &fn->max_blocks_cluster};
		uint32_t k = 0;
		for (uint32_t j = 0; j < ts_node_named_child_count(c) && k < 3; j++) {
			TSNode arg = ts_node_named_child(c, j);
			if (cu_node_is(arg, "comment"))
				continue;
			int64_t v;
			if (cu_fold_node(&env, arg, &v) && v >= 0 && v <= 0xffffffffLL)
				*dst[k] = (uint32_t)v;
			else
				fn->launch_bounds_known = false;
			k++;
		}
	}
	/* __maxnreg__(N), blanked by the pre-pass */
	for (uint32_t i = 0; i < p->nattrs; i++)
		if (p->attrs[i].off >= fn->start_byte && p->attrs[i].off < ts_node_start_byte(decl) + 1) {
			int64_t v;
			if (cu_fold_text(&env, p->attrs[i].args, p->attrs[i].nargs, &v) && v > 0 && v < 1024)
				fn->maxnreg = (uint32_t)v;
		}
	/* parameters */
	TSNode params = field(fd, "parameters");
	uint32_t np = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
	fn->params = px_arena_alloc(f->arena, (np + 1) * sizeof *fn->params);
	fn->param_types = px_arena_alloc(f->arena, (np + 1) * sizeof *fn->param_types);
	for (uint32_t i = 0; i < np; i++) {
		TSNode pd = ts_node_named_child(params, i);
		if (!cu_node_is(pd, "parameter_declaration") && !cu_node_is(pd, "optional_parameter_declaration"))
			continue;
		TSNode pn = declarator_name(field(pd, "declarator"));
		fn->params[fn->nparams] = ts_node_is_null(pn) ? "" : dup_node(f, p, pn);
		fn->param_types[fn->nparams] = dup_node(f, p, pd);
		fn->nparams++;
	}
}

/* A simple struct: members of known sizes, laid out C-style. */
static void add_struct(struct px_cuda_file *f, struct cu_priv *p, TSNode n, const char *alias)
{
	TSNode name = field(n, "name"), body = field(n, "body");
	if (ts_node_is_null(body) || (ts_node_is_null(name) && !alias))
		return;
	struct cu_env env = {.f = f, .p = p, .at = ts_node_start_byte(n)};
	uint64_t size = 0, align = 1;
	for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
		TSNode m = ts_node_named_child(body, i);
		if (cu_node_is(m, "comment"))
			continue;
		if (!cu_node_is(m, "field_declaration"))
			return;
		uint32_t tl;
		TSNode type = field(m, "type");
		if (ts_node_is_null(type))
			return;
		const char *ts = cu_node_text(p, type, &tl);
		uint64_t es = cu_sizeof_type(&env, ts, tl);
		if (!es)
			return;
		uint64_t ea = es > 16 ? 16 : es;
		if (ea & (ea - 1))
			ea = 4;   /* float3 and friends: 4-byte aligned */
		for (uint32_t j = 0; j < ts_node_named_child_count(m); j++) {
			TSNode d = ts_node_named_child(m, j);
			if (ts_node_eq(d, type))
				continue;
			uint64_t count = 1;
			bool ptr = false;
			for (TSNode a = d; !ts_node_is_null(a); a = field(a, "declarator")) {
				if (cu_node_is(a, "array_declarator")) {
					int64_t v;
					if (!cu_fold_node(&env, field(a, "size"), &v) || v <= 0)
						return;
					count *= (uint64_t)v;
				} else if (cu_node_is(a, "pointer_declarator")) {
					ptr = true;
				}
			}
			uint64_t s1 = ptr ? 8 : es, a1 = ptr ? 8 : ea;
			size = (size + a1 - 1) / a1 * a1 + s1 * count;
			if (a1 > align)
				align = a1;
		}
	}
	size = (size + align - 1) / align * align;
	struct cu_struct *s = PX_ARENA_PUSH(f->arena, p->structs, p->nstructs, p->capstructs);
	s->name = alias ? alias : dup_node(f, p, name);
	s->size = size;
	s->align = align;
}

static void add_def(struct px_cuda_file *f, struct cu_priv *p, const char *name, uint32_t off, TSNode value,
                    bool is_ctor, bool is_const, bool is_assign, const char *type)
{
	struct cu_def *d = PX_ARENA_PUSH(f->arena, p->defs, p->ndefs, p->capdefs);
	memset(d, 0, sizeof *d);
	d->name = name;
	d->nlen = (uint32_t)strlen(name);
	d->off = off;
	d->func = cu_func_at(f, off);
	d->value = value;
	d->is_ctor = is_ctor;
	d->is_const = is_const;
	d->is_assign = is_assign;
	d->type = type;
	cu_def_index(f->arena, p, p->ndefs - 1);
}

static void add_enum(struct px_cuda_file *f, struct cu_priv *p, TSNode n)
{
	TSNode body = field(n, "body");
	if (ts_node_is_null(body))
		return;
	int64_t next = 0;
	struct cu_env env = {.f = f, .p = p, .at = ts_node_start_byte(n)};
	env.func = cu_func_at(f, env.at);
	for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
		TSNode e = ts_node_named_child(body, i);
		if (!cu_node_is(e, "enumerator"))
			continue;
		TSNode v = field(e, "value");
		int64_t val = next;
		bool ok = true;
		if (!ts_node_is_null(v)) {
			env.at = ts_node_start_byte(e);
			ok = cu_fold_node(&env, v, &val);
		}
		TSNode none = {0};
		add_def(f, p, dup_node(f, p, field(e, "name")), ts_node_end_byte(e), none, false, true, false,
		        NULL);
		struct cu_def *d = &p->defs[p->ndefs - 1];
		d->is_enum = ok;
		d->enum_value = val;
		next = val + 1;
	}
}

static bool decl_has(const struct cu_priv *p, TSNode n, const char *word)
{
	/* the words before the first declarator */
	uint32_t s = ts_node_start_byte(n);
	TSNode d = field(n, "declarator");
	uint32_t e = ts_node_is_null(d) ? ts_node_end_byte(n) : ts_node_start_byte(d);
	return has_word(p, p->buf + s, p->buf + e, word, 0);
}

static void add_shared(struct px_cuda_file *f, struct cu_priv *p, TSNode n, TSNode d, uint32_t func)
{
	struct cu_env env = {.f = f, .p = p, .at = ts_node_start_byte(n), .func = func};
	struct px_cuda_shared *s = PX_ARENA_PUSH(f->arena, f->shared, f->nshared, f->capshared);
	memset(s, 0, sizeof *s);
	TSNode name = declarator_name(d);
	s->name = ts_node_is_null(name) ? "" : dup_node(f, p, name);
	TSPoint a = ts_node_start_point(d);
	s->line = a.row + 1;
	s->column = a.column + 1;
	s->func = (int32_t)func - 1;
	s->is_extern = decl_has(p, n, "extern");
	uint32_t tl = 0;
	TSNode type = field(n, "type");
	const char *ts = ts_node_is_null(type) ? "" : cu_node_text(p, type, &tl);
	s->elem_bytes = (uint32_t)cu_sizeof_type(&env, ts, tl);
	/* extents, outermost first: array_declarator(array_declarator(x, A), B) is x[A][B] */
	uint64_t dims[4];
	uint32_t nd = 0;
	bool known = s->elem_bytes != 0, ptr = false;
	if (cu_node_is(d, "init_declarator"))
		d = field(d, "declarator");
	for (TSNode x = d; !ts_node_is_null(x) && nd < 4; x = field(x, "declarator")) {
		if (cu_node_is(x, "pointer_declarator"))
			ptr = true;
		if (!cu_node_is(x, "array_declarator"))
			continue;
		int64_t v = 0;
		TSNode sz = field(x, "size");
		if (ts_node_is_null(sz) || !cu_fold_node(&env, sz, &v) || v <= 0) {
			v = 0;
			known = false;
		}
		dims[nd++] = (uint64_t)v;
	}
	if (ptr) {
		s->elem_bytes = 8;
		known = nd == 0 || known;
	}
	s->ndims = nd;
	uint64_t total = s->elem_bytes;
	for (uint32_t i = 0; i < nd; i++) {
		s->dims[i] = dims[nd - 1 - i];
		total *= dims[i];
	}
	s->size_known = known && !s->is_extern;
	s->bytes = s->size_known ? total : 0;
	if (func) {
		struct px_cuda_func *fn = &f->funcs[func - 1];
		if (s->is_extern) {
			fn->shared_dynamic = true;
		} else {
			fn->shared_static_bytes += s->bytes;
			if (!s->size_known)
				fn->shared_static_known = false;
		}
	}
}

/* C++'s most vexing parse: inside a function, `dim3 block(TILE, ROWS)`
 * reads as a function declarator whose parameters are bare type names
 * (the macros TILE and ROWS). A local function declaration with only
 * such parameters is taken as a constructor call with those arguments. */
static bool vexing_ctor(TSNode d)
{
	if (!cu_node_is(d, "function_declarator"))
		return false;
	TSNode params = field(d, "parameters");
	uint32_t n = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
	if (n == 0)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		TSNode pd = ts_node_named_child(params, i);
		if (cu_node_is(pd, "comment"))
			continue;
		TSNode t = field(pd, "type");
		if (!cu_node_is(pd, "parameter_declaration") || !ts_node_is_null(field(pd, "declarator")) ||
		    ts_node_is_null(t) || !cu_node_is(t, "type_identifier") || ts_node_named_child_count(pd) != 1)
			return false;
	}
	return true;
}

static void add_declaration(struct px_cuda_file *f, struct cu_priv *p, TSNode n)
{
	uint32_t func = cu_func_at(f, ts_node_start_byte(n));
	bool shared = decl_has(p, n, "__shared__");
	bool is_const = decl_has(p, n, "const") || decl_has(p, n, "constexpr");
	TSNode type = field(n, "type");
	const char *tname = ts_node_is_null(type) ? NULL : dup_node(f, p, type);
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
		TSNode d = ts_node_named_child(n, i);
		if (ts_node_eq(d, type) || cu_node_is(d, "type_qualifier") || cu_node_is(d, "storage_class_specifier") ||
		    cu_node_is(d, "comment") || cu_node_is(d, "attribute_declaration") ||
		    cu_node_is(d, "launch_bounds"))
			continue;
		if (shared) {
			add_shared(f, p, n, d, func);
			continue;
		}
		TSNode name = declarator_name(d);
		if (ts_node_is_null(name))
			continue;
		TSNode value = {0};
		bool ctor = false;
		if (cu_node_is(d, "init_declarator")) {
			value = field(d, "value");
			ctor = !ts_node_is_null(value) && cu_node_is(value, "argument_list");
		} else if (func && vexing_ctor(d)) {
			value = field(d, "parameters");
			ctor = true;
		}
		add_def(f, p, dup_node(f, p, name), ts_node_end_byte(n), value, ctor, is_const, false, tname);
	}
}

/* The kernel a launch API names: the first identifier in the text that is a
 * function of this file, else the last identifier (casts and & dropped). */
static const char *kernel_of(struct px_cuda_file *f, const struct cu_priv *p, TSNode arg)
{
	uint32_t len;
	const char *s = cu_node_text(p, arg, &len), *e = s + len;
	const char *lastw = NULL;
	size_t lastn = 0;
	static const char *const skip[] = {"void", "const", "reinterpret_cast", "static_cast", "auto"};
	while (s < e) {
		if (!is_id0(*s)) {
			if (*s == '<') {   /* template args: skip */
				int depth = 0;
				for (; s < e; s++) {
					if (*s == '<')
						depth++;
					else if (*s == '>' && --depth == 0)
						break;
				}
			}
			s++;
			continue;
		}
		const char *w = s;
		while (s < e && is_id(*s))
			s++;
		size_t n = (size_t)(s - w);
		bool sk = false;
		for (size_t k = 0; k < PX_COUNTOF(skip); k++)
			sk |= strlen(skip[k]) == n && memcmp(skip[k], w, n) == 0;
		if (sk)
			continue;
		if (px_cuda_find_func(f, w, n) >= 0)
			return px_arena_strndup(f->arena, w, n);
		lastw = w;
		lastn = n;
	}
	return lastw ? px_arena_strndup(f->arena, lastw, lastn) : "";
}

static void launch_common(struct px_cuda_file *f, struct px_cuda_launch *l, TSNode call)
{
	TSPoint a = ts_node_start_point(call);
	l->line = a.row + 1;
	l->column = a.column + 1;
	l->func = px_cuda_find_func(f, l->kernel, strlen(l->kernel));
}

static void fold_smem(struct cu_env *env, TSNode n, struct px_cuda_launch *l)
{
	int64_t v;
	l->smem_given = true;
	l->smem_known = cu_fold_node(env, n, &v) && v >= 0;
	l->smem = l->smem_known ? (uint64_t)v : 0;
}

/* Config fields of cudaLaunchKernelEx: `cfg.blockDim = ...` before the call. */
static bool config_field(struct cu_env *env, const char *cfg, size_t cn, const char *fieldname,
                         TSNode *out)
{
	char key[160];
	if (cn > 100)
		return false;
	snprintf(key, sizeof key, "%.*s.%s", (int)cn, cfg, fieldname);
	const struct cu_def *d = cu_lookup(env, key, strlen(key));
	if (!d || ts_node_is_null(d->value))
		return false;
	*out = d->value;
	return true;
}

static void add_call(struct px_cuda_file *f, struct cu_priv *p, TSNode n)
{
	TSNode fnode = field(n, "function"), args = field(n, "arguments");
	if (ts_node_is_null(fnode))
		return;
	struct cu_env env = {.f = f, .p = p, .at = ts_node_start_byte(n)};
	env.func = cu_func_at(f, env.at);
	TSNode kcs = {0};
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
		if (cu_node_is(ts_node_named_child(n, i), "kernel_call_syntax"))
			kcs = ts_node_named_child(n, i);
	if (!ts_node_is_null(kcs)) {
		struct px_cuda_launch *l = PX_ARENA_PUSH(f->arena, f->launches, f->nlaunches, f->caplaunches);
		memset(l, 0, sizeof *l);
		TSNode name = fnode;
		if (cu_node_is(name, "template_function"))
			name = field(name, "name");
		if (cu_node_is(name, "qualified_identifier"))
			name = declarator_name(name);
		l->kernel = dup_node(f, p, name);
		l->via = PX_CUDA_VIA_CHEVRONS;
		launch_common(f, l, n);
		uint32_t k = 0;
		for (uint32_t i = 0; i < ts_node_named_child_count(kcs); i++) {
			TSNode c = ts_node_named_child(kcs, i);
			if (cu_node_is(c, "comment"))
				continue;
			if (k == 0) {
				l->grid.known = cu_fold_dim3(&env, c, l->grid.v);
				l->grid_text = dup_node(f, p, c);
			} else if (k == 1) {
				l->block.known = cu_fold_dim3(&env, c, l->block.v);
				l->block_text = dup_node(f, p, c);
			} else if (k == 2) {
				fold_smem(&env, c, l);
			}
			k++;
		}
		return;
	}
	uint32_t len;
	const char *fs = cu_node_text(p, fnode, &len);
	if (cu_node_is(fnode, "template_function")) {
		fs = cu_node_text(p, field(fnode, "name"), &len);
	}
	if (ts_node_is_null(args))
		return;
	uint32_t na = ts_node_named_child_count(args);
	TSNode a[8];
	uint32_t k = 0;
	for (uint32_t i = 0; i < na && k < 8; i++)
		if (!cu_node_is(ts_node_named_child(args, i), "comment"))
			a[k++] = ts_node_named_child(args, i);
	if (len == 16 && memcmp(fs, "cudaLaunchKernel", 16) == 0 && k >= 3) {
		struct px_cuda_launch *l = PX_ARENA_PUSH(f->arena, f->launches, f->nlaunches, f->caplaunches);
		memset(l, 0, sizeof *l);
		l->kernel = kernel_of(f, p, a[0]);
		l->via = PX_CUDA_VIA_LAUNCH_KERNEL;
		launch_common(f, l, n);
		l->grid.known = cu_fold_dim3(&env, a[1], l->grid.v);
		l->block.known = cu_fold_dim3(&env, a[2], l->block.v);
		l->grid_text = dup_node(f, p, a[1]);
		l->block_text = dup_node(f, p, a[2]);
		if (k >= 5)
			fold_smem(&env, a[4], l);
	} else if (len == 18 && memcmp(fs, "cudaLaunchKernelEx", 18) == 0 && k >= 2) {
		struct px_cuda_launch *l = PX_ARENA_PUSH(f->arena, f->launches, f->nlaunches, f->caplaunches);
		memset(l, 0, sizeof *l);
		l->kernel = kernel_of(f, p, a[1]);
		l->via = PX_CUDA_VIA_LAUNCH_KERNEL_EX;
		launch_common(f, l, n);
		uint32_t cl;
		const char *cs = cu_node_text(p, a[0], &cl);
		while (cl && (*cs == '&' || *cs == ' ')) {
			cs++;
			cl--;
		}
		TSNode v;
		if (config_field(&env, cs, cl, "gridDim", &v)) {
			l->grid.known = cu_fold_dim3(&env, v, l->grid.v);
			l->grid_text = dup_node(f, p, v);
		}
		if (config_field(&env, cs, cl, "blockDim", &v)) {
			l->block.known = cu_fold_dim3(&env, v, l->block.v);
			l->block_text = dup_node(f, p, v);
		}
		if (config_field(&env, cs, cl, "dynamicSmemBytes", &v))
			fold_smem(&env, v, l);
	} else if (len == 20 && memcmp(fs, "cudaFuncSetAttribute", 20) == 0 && k >= 3) {
		uint32_t al;
		const char *as = cu_node_text(p, a[1], &al);
		static const char key[] = "MaxDynamicSharedMemorySize";
		bool match = false;
		for (uint32_t i = 0; i + sizeof key - 1 <= al; i++)
			if (memcmp(as + i, key, sizeof key - 1) == 0)
				match = true;
		if (!match)
			return;
		struct px_cuda_optin *o = PX_ARENA_PUSH(f->arena, f->optins, f->noptins, f->capoptins);
		TSPoint pt = ts_node_start_point(n);
		o->line = pt.row + 1;
		o->column = pt.column + 1;
		o->kernel = kernel_of(f, p, a[0]);
		int64_t v;
		o->known = cu_fold_node(&env, a[2], &v) && v >= 0;
		o->bytes = o->known ? (uint64_t)v : 0;
	}
}

static void add_assignment(struct px_cuda_file *f, struct cu_priv *p, TSNode n, bool update)
{
	TSNode left = field(n, update ? "argument" : "left");
	if (ts_node_is_null(left))
		return;
	const char *name;
	if (cu_node_is(left, "identifier")) {
		name = dup_node(f, p, left);
	} else if (cu_node_is(left, "field_expression")) {
		TSNode obj = field(left, "argument"), fl = field(left, "field");
		if (ts_node_is_null(obj) || ts_node_is_null(fl) || !cu_node_is(obj, "identifier"))
			return;
		uint32_t on, fln;
		const char *os = cu_node_text(p, obj, &on), *fs = cu_node_text(p, fl, &fln);
		name = px_arena_printf(f->arena, "%.*s.%.*s", (int)on, os, (int)fln, fs);
	} else {
		return;
	}
	TSNode value = {0};
	char cop = '+';
	bool compound = update;
	if (!update) {
		TSNode op = field(n, "operator");
		uint32_t ol = 1;
		const char *os = ts_node_is_null(op) ? "=" : cu_node_text(p, op, &ol);
		value = field(n, "right");
		compound = !(ol == 1 && os[0] == '=');
		cop = os[0];
	} else {
		TSNode op = field(n, "operator");
		uint32_t ol = 1;
		const char *os = ts_node_is_null(op) ? "+" : cu_node_text(p, op, &ol);
		cop = os[0];
	}
	add_def(f, p, name, ts_node_end_byte(n), value, false, false, true, NULL);
	p->defs[p->ndefs - 1].is_compound = compound;
	p->defs[p->ndefs - 1].op = cop;
}

/* Walks the tree in pre-order; visit returns false to skip a node's children. */
static void walk(TSTree *tree, void *ctx, bool (*visit)(void *ctx, TSNode n))
{
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
	for (;;) {
		TSNode n = ts_tree_cursor_current_node(&c);
		if (visit(ctx, n) && ts_tree_cursor_goto_first_child(&c))
			continue;
		while (!ts_tree_cursor_goto_next_sibling(&c))
			if (!ts_tree_cursor_goto_parent(&c)) {
				ts_tree_cursor_delete(&c);
				return;
			}
	}
}

struct wctx {
	struct px_cuda_file *f;
	struct cu_priv *p;
	struct px_diags *diags;
};

static bool visit1(void *ctx, TSNode n)
{
	struct wctx *w = ctx;
	if (cu_node_is(n, "ERROR") || ts_node_is_missing(n)) {
		add_skip(w->f, w->p, n, w->diags);
		return false;
	}
	if (!ts_node_has_error(n) || cu_node_is(n, "translation_unit") || cu_node_is(n, "namespace_definition") ||
	    cu_node_is(n, "declaration_list") || cu_node_is(n, "template_declaration") ||
	    cu_node_is(n, "linkage_specification")) {
		if (cu_node_is(n, "function_definition"))
			add_function(w->f, w->p, n);
		else if (cu_node_is(n, "struct_specifier") && !ts_node_has_error(n))
			add_struct(w->f, w->p, n, NULL);
		else if (cu_node_is(n, "type_definition") && !ts_node_has_error(n)) {
			TSNode t = field(n, "type"), d = field(n, "declarator");
			if (!ts_node_is_null(t) && !ts_node_is_null(d) && cu_node_is(t, "struct_specifier"))
				add_struct(w->f, w->p, t, dup_node(w->f, w->p, d));
		}
		return true;
	}
	/* a node with an error somewhere inside: descend to find it, but a
	 * function with an error is still recorded (as not clean) */
	if (cu_node_is(n, "function_definition"))
		add_function(w->f, w->p, n);
	return true;
}

static bool visit2(void *ctx, TSNode n)
{
	struct wctx *w = ctx;
	if (cu_node_is(n, "ERROR") || ts_node_is_missing(n))
		return false;
	if (ts_node_has_error(n) && !cu_node_is(n, "translation_unit") && !cu_node_is(n, "namespace_definition") &&
	    !cu_node_is(n, "declaration_list") && !cu_node_is(n, "template_declaration") &&
	    !cu_node_is(n, "linkage_specification") && !cu_node_is(n, "function_definition") &&
	    !cu_node_is(n, "compound_statement"))
		return false;   /* never analyse inside a region with an error */
	const char *t = ts_node_type(n);
	if (!strcmp(t, "declaration") && !ts_node_has_error(n))
		add_declaration(w->f, w->p, n);
	else if (!strcmp(t, "enum_specifier") && !ts_node_has_error(n))
		add_enum(w->f, w->p, n);
	else if (!strcmp(t, "assignment_expression"))
		add_assignment(w->f, w->p, n, false);
	else if (!strcmp(t, "update_expression"))
		add_assignment(w->f, w->p, n, true);
	else if (!strcmp(t, "call_expression") && !ts_node_has_error(n))
		add_call(w->f, w->p, n);
	else if (!strcmp(t, "function_definition")) {
		/* parameters hide macros and file constants of the same name */
		TSNode fd = field(n, "declarator");
		for (int g = 0; g < 16 && !ts_node_is_null(fd) && !cu_node_is(fd, "function_declarator"); g++)
			fd = field(fd, "declarator");
		TSNode params = ts_node_is_null(fd) ? fd : field(fd, "parameters");
		for (uint32_t i = 0; !ts_node_is_null(params) && i < ts_node_named_child_count(params); i++) {
			TSNode pn = declarator_name(field(ts_node_named_child(params, i), "declarator"));
			TSNode none = {0};
			TSNode body = field(n, "body");
			if (!ts_node_is_null(pn) && !ts_node_is_null(body))
				add_def(w->f, w->p, dup_node(w->f, w->p, pn), ts_node_start_byte(body) + 1, none, false,
				        false, false, NULL);
		}
	}
	return true;
}

/* Counts `__global__` function definitions in the text (code only): the
 * denominator of the robustness measure. */
static uint32_t count_kernels(const struct px_cuda_file *f, const struct cu_priv *p)
{
	const char *t = p->buf;   /* pragmas blanked; comments still there */
	uint32_t n = 0, ci = 0;
	for (size_t i = 0; i + 10 <= f->len; i++) {
		while (ci < p->ncomments && p->comments[ci].end <= i)
			ci++;
		if (ci < p->ncomments && i >= p->comments[ci].start)
			continue;
		if (memcmp(t + i, "__global__", 10) != 0 || (i && is_id(t[i - 1])) ||
		    (i + 10 < f->len && is_id(t[i + 10])))
			continue;
		/* in a #define? */
		size_t ls = i;
		while (ls > 0 && t[ls - 1] != '\n')
			ls--;
		while (ls < i && (t[ls] == ' ' || t[ls] == '\t'))
			ls++;
		if (t[ls] == '#')
			continue;
		int depth = 0;
		for (size_t j = i + 10; j < f->len; j++) {
			if (t[j] == '(')
				depth++;
			else if (t[j] == ')')
				depth--;
			else if (t[j] == ';' && depth <= 0)
				break;
			else if (t[j] == '{' && depth <= 0) {
				n++;
				break;
			}
		}
	}
	return n;
}

int32_t px_cuda_find_func(const struct px_cuda_file *f, const char *name, size_t n)
{
	int32_t best = -1;
	for (uint32_t i = 0; i < f->nfuncs; i++)
		if (strlen(f->funcs[i].name) == n && memcmp(f->funcs[i].name, name, n) == 0) {
			if (f->funcs[i].kind == PX_CUDA_KERNEL && f->funcs[i].has_body)
				return (int32_t)i;
			if (best < 0)
				best = (int32_t)i;
		}
	return best;
}

const char *px_cuda_kernel_block(const struct px_cuda_file *f, uint32_t func, uint32_t block[3])
{
	if (func >= f->nfuncs)
		return NULL;
	const struct px_cuda_func *fn = &f->funcs[func];
	const struct px_cuda_dim3 *b = NULL;
	const char *from = NULL;
	if (fn->have_launch && fn->ann_block.known) {
		b = &fn->ann_block;
		from = "annotation";
	} else {
		for (uint32_t k = 0; k < f->nlaunches; k++) {
			const struct px_cuda_launch *x = &f->launches[k];
			if (x->func != (int32_t)func)
				continue;
			if (!x->block.known || (b && memcmp(b->v, x->block.v, sizeof b->v) != 0))
				return NULL;
			b = &x->block;
			from = "launch site";
		}
	}
	if (!b)
		return NULL;
	for (int d = 0; d < 3; d++)
		block[d] = b->v[d] ? b->v[d] : 1;
	return from;
}

struct px_cuda_file *px_cuda_parse(const char *path, const char *text, size_t len,
                                   const struct px_cuda_options *opt, struct px_diags *diags)
{
	struct px_cuda_file *f = xcalloc(1, sizeof *f);
	f->arena = px_arena_new();
	f->path = px_arena_strndup(f->arena, path, strlen(path));
	char *copy = px_arena_alloc(f->arena, len + 1);
	memcpy(copy, text, len);
	f->text = copy;
	f->len = len;
	struct cu_priv *p = px_arena_alloc(f->arena, sizeof *p);
	f->priv = p;
	p->opt = opt;
	cu_pre(f, p, opt);
	p->parser = ts_parser_new();
	if (!ts_parser_set_language(p->parser, tree_sitter_cuda())) {
		px_diag_add(diags, PX_ERROR, path, 0, 0, NULL,
		            "the tree-sitter-cuda grammar does not match the tree-sitter library (ABI %u)",
		            (unsigned)TREE_SITTER_LANGUAGE_VERSION);
		px_cuda_file_delete(f);
		return NULL;
	}
	ts_parser_set_timeout_micros(p->parser, PARSE_TIMEOUT_US);
	p->tree = ts_parser_parse_string(p->parser, NULL, p->buf, (uint32_t)len);
	if (!p->tree) {
		px_diag_add(diags, PX_WARNING, path, 1, 1, NULL,
		            "the CUDA parser gave up (time limit); source analyses skipped");
		f->nkernels = count_kernels(f, p);
		return f;
	}
	struct wctx w = {f, p, diags};
	walk(p->tree, &w, visit1);
	f->nkernels = count_kernels(f, p);
	for (uint32_t i = 0; i < f->nfuncs; i++)
		if (f->funcs[i].kind == PX_CUDA_KERNEL && f->funcs[i].has_body && f->funcs[i].clean)
			f->nkernels_clean++;
	if (f->nkernels_clean > f->nkernels)
		f->nkernels = f->nkernels_clean;   /* kernels through a qualifier macro */
	for (uint32_t i = 0; i < f->nfuncs; i++)
		f->funcs[i].shared_static_known = true;
	walk(p->tree, &w, visit2);
	cu_annotations(f, p, diags);
	return f;
}

void px_cuda_file_delete(struct px_cuda_file *f)
{
	if (!f)
		return;
	struct cu_priv *p = f->priv;
	if (p) {
		if (p->tree)
			ts_tree_delete(p->tree);
		if (p->parser)
			ts_parser_delete(p->parser);
	}
	px_arena_delete(f->arena);
	free(f);
}
