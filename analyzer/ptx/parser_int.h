/* parser_int.h: state shared by the two halves of the PTX parser
 * (parser.c: module, functions, declarations, scopes; parse_insn.c:
 * instructions, modifiers and operands). Internal to analyzer/ptx. */
#ifndef PX_PTX_PARSER_INT_H
#define PX_PTX_PARSER_INT_H

#include <string.h>

#include "../ir.h"
#include "lexer.h"

#define PX_MAX_ERRORS 50
#define PX_MAX_SCOPE_DEPTH 1024
#define PX_MAX_OPERANDS 65535
#define PX_MAX_UNKNOWN_WARNINGS 100
#define PX_TOP_OPERANDS 8   /* the most operands the fast path reads */

/* Open-addressing map from a name (a view into the text) to an int32. */
struct px_symslot {
	const char *p;       /* NULL = empty */
	uint32_t n;
	uint32_t hash;
	int32_t val;
};
struct px_symtab {
	struct px_symslot *slots;
	uint32_t cap, n;
	uint32_t *used;      /* occupied slot indices, for a cheap reset */
	uint32_t nused, capused;
};

/* One register binding: a plain name or a parameterised prefix (%r<100>). */
struct px_regent {
	px_str key;
	int32_t first;       /* dense id of %r0 (or of the plain register) */
	uint32_t count;      /* ids in a parameterised range */
	bool range;          /* declared as name<count> */
	int32_t shadow;      /* binding this one hides, -1 = none */
};

struct px_labelref {
	px_str name;
	uint32_t line, col;
};

struct px_parser {
	const char *path;
	struct px_module *m;
	struct px_arena *a;        /* the module's arena */
	struct px_arena *ba;       /* where the body being parsed goes: a, or its own arena */
	const struct px_parse_hook *hook;  /* streaming: called after each body, or NULL */
	size_t errors_at_start;    /* diags->errors when the parse began */
	struct px_diags *diags;
	struct px_lexer lx;
	/* the current token and the one before it, pointing into toks: an
	 * advance swaps them and lexes into the older one (copying the token
	 * just written would stall on its narrower stores) */
	struct px_token *tok, *prev;
	struct px_token toks[2];
	uint32_t nerrors;
	bool stop;                 /* too many errors or a fatal one: unwind */

	/* module scratch (malloc'd, copied into the arena at the end) */
	struct px_func *funcs; size_t nfuncs, capfuncs;
	struct px_var *mvars; size_t nmvars, capmvars;
	struct px_file_entry *files; size_t nfiles, capfiles;
	px_str *targets; size_t ntargets, captargets;
	struct px_symtab funcnames;
	uint64_t reg_budget;       /* register ids the module may still declare */

	/* function scratch, reused from one function to the next */
	struct px_insn *insns; size_t ninsns, capinsns;
	struct px_label *labels; size_t nlabels, caplabels;
	struct px_regdecl *regs; size_t nregs, capregs;
	struct px_var *vars; size_t nvars, capvars;
	px_str *pragmas; size_t npragmas, cappragmas;
	uint32_t *pragma_at; size_t npragma_at, cappragma_at;   /* parallel to pragmas */
	struct px_branchtargets *bts; size_t nbts, capbts;
	px_str *btnames; size_t nbtnames, capbtnames;
	struct px_labelref *refs; size_t nrefs, caprefs;
	struct px_symtab regtab, labtab;
	struct px_symtab opcodes, modtab;  /* spelling -> enum px_opcode / mods[] index */
	/* decoded opcode+modifier spellings ("ld.global.nc.v4.f32" -> templates[i]):
	 * most instructions repeat a spelling seen before */
	struct px_symtab spellings;
	struct px_insn *templates; size_t ntemplates, captemplates;
	/* in front of spellings: a direct-mapped cache from a spelling of up
	 * to 24 bytes (its words and length: spelling_key in parse_insn.c) to
	 * its template; n = 0 marks an empty entry */
	struct px_spell_hit {
		uint64_t w[3];
		uint32_t n;
		int32_t tmpl;
	} spell_cache[256];
	/* register lookups: the first bytes of the names declared in this
	 * function (a name starting otherwise, such as a label or a parameter
	 * in nvcc's output, is no register); a hash set of the shapes (first
	 * byte, byte before the trailing digits, their position: plain_shape in
	 * parser.c) of the plain names that end in a digit (%p1 or r0 in inline
	 * asm; not %r<N>); and the regtab slots of recently resolved prefixes
	 * ("%r" of %r57), keyed by length and bytes (nvcc uses about six: %r %rd
	 * %rs %p %f %fd), direct-mapped by a hash of those (prefix_slot in
	 * parser.c; n = 0 marks an empty entry). The bitmaps are cleared at each
	 * function, the cache also when a register is declared. */
	uint64_t reg_first[4], plain_digit_shapes[4];
	struct px_prefix_hit {
		uint64_t key;          /* tail_word of the prefix */
		uint32_t n;            /* its length; 0 = empty */
		struct px_symslot *slot;
	} prefix_cache[16];
	/* the same for the fast path (lookup_numbered_reg): the innermost
	 * binding of a prefix when it is a range, as its first id and count
	 * (count 0: not a range); also cleared when a scope closes */
	struct px_range_hit {
		uint64_t key;
		uint32_t n;            /* 0 = empty */
		int32_t first;
		uint32_t count;
	} range_cache[16];
	struct px_regent *regents; size_t nregents, capregents;
	uint32_t *scopes; size_t nscopes, capscopes;   /* regents index at each scope start */
	struct px_operand *ostk; size_t nostk, capostk; /* aggregates' elements being built */
	/* the function's instructions' operands, in order (an instruction's
	 * opnds is an index into them until finish_body copies them into the
	 * arena with the instructions) */
	struct px_operand *fops; size_t nfops, capfops;
	uint32_t loc_file, loc_line, loc_col;
	/* a mapped text (px_parse_hook.text_mapped): names that outlive a body
	 * are copied, and the pages before `released` have been given back */
	bool text_mapped;
	size_t released;
	struct px_arena *keys;     /* copies of the spellings table's keys */
};

static inline bool px_p_is_punct(const struct px_parser *P, char c)
{
	return P->tok->kind == PX_TK_PUNCT && P->tok->ch == c;
}

/* Whether the lexer stands at a dot token (".u32": what px_lexer_next
 * would return as PX_TK_DOT), with no blank before it: after an opcode,
 * its first modifier. */
static inline bool px_p_dots_follow(const struct px_parser *P)
{
	const char *p = P->lx.p;
	return p[0] == '.' && (px_lex_class[(unsigned char)p[1]] & PX_LC_CONT);
}

static inline void px_p_advance(struct px_parser *P)
{
	struct px_token *t = P->prev;
	P->prev = P->tok;
	P->tok = t;
	px_lexer_next(&P->lx, t);
}

/* parser.c */
bool px_p_error(struct px_parser *P, uint32_t line, uint32_t col, const char *fmt, ...) PX_PRINTF(4, 5);
/* Reports an error at token t; an error token reports its own message. */
bool px_p_error_tok(struct px_parser *P, const struct px_token *t, const char *fmt, ...) PX_PRINTF(3, 4);
/* Resolves a register name through the scope stack; -1 if undeclared. */
int32_t px_p_lookup_reg(struct px_parser *P, px_str name);
/* px_p_lookup_reg past its first-byte filter (name.n > 0), without its
 * fast path (px_p_numbered_reg). */
int32_t px_p_lookup_reg_by_name(struct px_parser *P, px_str name);
struct px_symslot *px_symtab_find(struct px_symtab *t, px_str k, bool insert);

/* The n < 8 bytes at p as one word, with overlapping loads (never reading
 * outside them): equal words mean equal bytes for the same n. */
static inline uint64_t px_p_tail_word(const char *p, uint32_t n)
{
	if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, p, 4);
		memcpy(&b, p + n - 4, 4);
		return a | (uint64_t)b << 32;
	}
	if (n == 0)
		return 0;
	return (uint64_t)(unsigned char)p[0] | (uint64_t)(unsigned char)p[n / 2] << 8 |
	       (uint64_t)(unsigned char)p[n - 1] << 16;
}

/* The shape of a name ending in digits that start at k (0 < k < n). */
static inline uint32_t px_p_plain_shape(px_str name, uint32_t k)
{
	return ((unsigned char)name.p[0] * 31u + (unsigned char)name.p[k - 1] + k * 7u) & 255;
}

/* The common case of px_p_lookup_reg, nvcc's numbered registers, given
 * the name's split: a prefix name[0..k) of 1 to 7 bytes, none a digit,
 * then 1 to 9 digits without a leading zero whose value is v; the name's
 * first byte has passed the reg_first filter. Answers when the prefix is
 * declared as a range (%r<N>) holding v and no plain register of the same
 * shape exists (lookup_reg_by_name would try that first). Returns the id, or -1 when it does not answer
 * (the caller then takes px_p_lookup_reg_by_name, which finds the same
 * answer for every name this one answers). Always inlined: gcc otherwise
 * keeps one out-of-line copy for its two callers, and the call costs more
 * than the lookup. */
static inline __attribute__((always_inline)) int32_t
px_p_numbered_reg(struct px_parser *P, px_str name, uint32_t k, uint32_t v)
{
	uint32_t shape = px_p_plain_shape(name, k);
	if (P->plain_digit_shapes[shape >> 6] >> (shape & 63) & 1)
		return -1;
	uint64_t key = px_p_tail_word(name.p, k);
	struct px_range_hit *h = &P->range_cache[((key + k) * 0x9E3779B97F4A7C15ull) >> 60];
	if (h->key != key || h->n != k) {
		struct px_symslot *s = px_symtab_find(&P->regtab, px_str_make(name.p, k), false);
		if (!s || s->val < 0)
			return -1;
		const struct px_regent *e = &P->regents[s->val];
		h->key = key;
		h->n = k;
		h->first = e->first;
		h->count = e->range ? e->count : 0;
	}
	/* beyond the innermost range, an outer one may hold it: the general
	 * path walks the shadowed bindings */
	return v < h->count ? h->first + (int32_t)v : -1;
}
/* Fills P->opcodes and P->modtab (parse_insn.c). */
void px_p_init_tables(struct px_parser *P);

/* parse_insn.c */
/* instruction := ['@' ['!'] reg] opcode {modifier} [operand {',' operand}] ';'
 * With opcode NULL, requires P->tok at '@'; otherwise the opcode token is
 * passed in: either just consumed (P->prev), or the current token (P->tok)
 * with px_p_dots_follow true. Appends to P->insns. */
bool px_p_instruction(struct px_parser *P, const struct px_token *opcode);
/* Decodes one modifier/type/space spelling (with its dot). Returns its kind:
 * 0 none, 'S' space (*val = enum px_space), 'V' vector (2/4/8), 'T' type,
 * 'C' comparison, 'F' modifier flag, 'H' .hi/.lo (flag or comparison). */
int px_p_modifier(struct px_parser *P, px_str dot, uint32_t *val);

#endif
