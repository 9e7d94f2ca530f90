/* cuda_int.h: what the CUDA front end's files share and nobody else sees:
 * the pre-pass results (blanked text, macros, comments), the constant
 * folder, and the parsed tree kept for the source analyses. */
#ifndef PX_CUDA_INT_H
#define PX_CUDA_INT_H

#include <tree_sitter/api.h>

#include "cuda.h"

const TSLanguage *tree_sitter_cuda(void);

/* An object-like macro: `#define NAME body` (the file's own, or -D). */
struct cu_macro {
	const char *name, *body;      /* body trimmed, comments dropped (arena) */
	uint32_t nlen, blen;
	uint32_t off;                 /* byte offset of the directive (UINT32_MAX for -D) */
};

/* A comment: [start, end) bytes; trailing when code precedes it on its line. */
struct cu_comment {
	uint32_t start, end;
	uint32_t line, column;
	bool trailing;
};

/* __maxnreg__(N) and similar attributes the pre-pass blanks but keeps. */
struct cu_attr {
	uint32_t off;                 /* byte offset of the attribute name */
	const char *args;             /* text between the parentheses (arena) */
	uint32_t nargs;
};

/* A value a name holds at a point of a function (host or device code):
 * `T x = e`, `T x(e...)`, `x = e`, `x.field = e`. */
struct cu_def {
	const char *name;             /* arena, NUL-terminated; "cfg.blockDim" for field stores */
	uint32_t nlen;                /* strlen(name) */
	uint32_t next;                /* the next definition of the same name in the same function
	                               * (index + 1, walk order; 0: last): cu_defs_first */
	uint32_t off;                 /* where the definition ends (it holds after this) */
	uint32_t func;                /* index in pre->fn_ranges (0 = file scope) */
	TSNode value;                 /* the initialiser expression, or an argument_list */
	bool is_ctor;                 /* value is an argument_list: T x(a, b) */
	bool is_const;                /* const/constexpr/enum: usable in any function */
	bool is_assign;               /* an assignment (x = e, x += e, ...): the variable varies */
	bool is_compound;             /* x op= e (value is e), x++ (value null) */
	char op;                      /* for compound: '+', '-', '*', '/', '<' (<<=), '>' (>>=) */
	int64_t enum_value;           /* is_enum: the constant */
	bool is_enum;
	const char *type;             /* the declared type as written (arena) or NULL */
};

struct cu_struct {                  /* a struct of primitive members: its sizeof */
	const char *name;
	uint64_t size, align;
};

struct cu_priv {
	char *buf;                    /* blanked copy given to tree-sitter (arena) */
	uint32_t *line_start; uint32_t nlines;
	struct cu_macro *macros; uint32_t nmacros, capmacros;
	uint32_t *mslot; uint32_t mcap;   /* macros by name (cuda_pre.c), after the lexical scan */
	struct cu_comment *comments; uint32_t ncomments, capcomments;
	struct cu_attr *attrs; uint32_t nattrs, capattrs;
	struct cu_def *defs; uint32_t ndefs, capdefs;
	/* definitions by (function, name): open addressing, each slot the
	 * first and last definition of one chain (index + 1; 0 empty) */
	uint32_t (*dslot)[2]; uint32_t dcap, dused;
	struct cu_struct *structs; uint32_t nstructs, capstructs;
	TSParser *parser;
	TSTree *tree;
	const struct px_cuda_options *opt;
};

/* cuda_pre.c: fills p->buf, macros, comments, attrs and line starts from
 * f->text (and the -D definitions of opt). */
void cu_pre(struct px_cuda_file *f, struct cu_priv *p, const struct px_cuda_options *opt);
/* 1-based line and column of byte offset off. */
void cu_linecol(const struct cu_priv *p, uint32_t off, uint32_t *line, uint32_t *col);
const struct cu_macro *cu_find_macro(const struct cu_priv *p, const char *name, size_t n);

/* cuda_fold.c: constant folding of integer expressions.
 * The environment resolves names: a local definition before `at` in
 * function `func`, then file-scope constants, enums, then macros, -D. */
struct cu_env {
	const struct px_cuda_file *f;
	const struct cu_priv *p;
	uint32_t at;                  /* byte offset of the use */
	uint32_t func;                /* fn range index (0 = none) */
	int depth;
};
/* Folds the expression text [s, s+n). */
bool cu_fold_text(const struct cu_env *e, const char *s, size_t n, int64_t *out);
/* Folds a tree node (its text in the blanked buffer). */
bool cu_fold_node(const struct cu_env *e, TSNode n, int64_t *out);
/* sizeof of a type spelled [s, s+n) (built-in, vector types, typedefs and
 * the file's simple structs); 0 when unknown. */
uint64_t cu_sizeof_type(const struct cu_env *e, const char *s, size_t n);
/* Folds a launch dimension: an integer expression, dim3(a[,b[,c]]),
 * {a, b, c}, or a name holding one of those. */
bool cu_fold_dim3(const struct cu_env *e, TSNode n, uint32_t out[3]);
/* The definitions of name in function func (fn range index, 0 = file
 * scope), in walk order: the first one's index + 1 (0 none), then
 * p->defs[i - 1].next. Constant time per definition: lookups never scan
 * the file's other definitions. */
uint32_t cu_defs_first(const struct cu_priv *p, uint32_t func, const char *name, size_t n);
/* Adds p->defs[di] (name, nlen and func set) to the index. */
void cu_def_index(struct px_arena *arena, struct cu_priv *p, uint32_t di);
/* The last definition of name visible at e->at, or NULL. */
const struct cu_def *cu_lookup(const struct cu_env *e, const char *name, size_t n);

/* Node helpers (cuda_parse.c). */
static inline const char *cu_node_text(const struct cu_priv *p, TSNode n, uint32_t *len)
{
	uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
	*len = e - s;
	return p->buf + s;
}
bool cu_node_is(TSNode n, const char *type);
/* The fn range index containing byte offset off (0 = file scope). */
uint32_t cu_func_at(const struct px_cuda_file *f, uint32_t off);

/* cuda_annot.c: parses the annotation comments into f (launch, hot,
 * assume, ptxray-ignore[-file]); malformed ones go to diags. */
void cu_annotations(struct px_cuda_file *f, struct cu_priv *p, struct px_diags *diags);

/* cuda_check.c: appends a finding (rule: an id of px_cuda_rules) and sorts
 * res->items[first..] by line, column, rule, message. */
void px_cuda_add_finding(struct px_cuda_results *res, const char *rule, uint32_t line, uint32_t col,
                         const char *kernel, const char *arch, const char *fmt, ...) PX_PRINTF(7, 8);
void px_cuda_results_sort(struct px_cuda_results *res, size_t first);

/* cuda_launch.c: appends the findings of f's launch sites to res
 * (unsorted); regs: registers per kernel and target when known. */
void cu_check_launches(const struct px_cuda_file *f, const struct px_cuda_options *opt,
                       const struct px_cuda_regs *regs, size_t nregs, struct px_cuda_results *res);

#endif
