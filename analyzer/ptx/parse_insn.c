/* parse_insn.c: the PTX front end's instruction half: guard predicates,
 * opcodes, dotted modifiers and operands (PTX ISA 9.0 section 4.3, 6 and 9).
 *
 * Approach: the opcode is the identifier before the first '.', looked up in
 * opcodes.def; the modifiers are the dot tokens written right after it (no
 * blank between), kept verbatim in modtext and decoded through one sorted
 * table into the insn's space, vector width, types, comparison and flags.
 * Operands are parsed with bounded nesting: a vector `{...}`, a list `(...)`
 * or a texture bracket `[t, s, {...}]` may hold one more level of vectors,
 * never more, so recursion depth is fixed whatever the input. Operands being
 * built sit on one malloc'd stack (P->ostk) and are copied, exactly sized,
 * into the arena when their aggregate is complete; an instruction's own
 * operands go to the function's operand vector (P->fops), copied into the
 * arena with the instructions when the function ends. Operands are parsed in place where
 * their slot cannot move meanwhile: copying a struct whose fields were just
 * written one by one stalls on those stores. Plain operand lists (registers,
 * decimal integers, symbols, simple addresses on one line: most of them)
 * are first tried by a fast path that reads the text directly, without
 * tokens (fast_operands); anything else falls back to the token path. */
#include <string.h>

#include "parser_int.h"

/* Every modifier ptxray decodes, sorted by spelling (without the dot). */
static const struct {
	const char *name;
	uint8_t len;
	char kind;
	uint32_t val;
} mods[] = {
	{"aligned", 7, 'F', PX_MOD_ALIGNED},
	{"approx", 6, 'F', PX_MOD_APPROX},
	{"arrive", 6, 'F', PX_MOD_ARRIVE},
	{"b128", 4, 'T', PX_TYPE_B128},
	{"b16", 3, 'T', PX_TYPE_B16},
	{"b32", 3, 'T', PX_TYPE_B32},
	{"b64", 3, 'T', PX_TYPE_B64},
	{"b8", 2, 'T', PX_TYPE_B8},
	{"bf16", 4, 'T', PX_TYPE_BF16},
	{"bf16x2", 6, 'T', PX_TYPE_BF16X2},
	{"cc", 2, 'F', PX_MOD_CC},
	{"const", 5, 'S', PX_SPACE_CONST},
	{"e2m1x2", 6, 'T', PX_TYPE_E2M1X2},
	{"e2m3x2", 6, 'T', PX_TYPE_E2M3X2},
	{"e3m2x2", 6, 'T', PX_TYPE_E3M2X2},
	{"e4m3", 4, 'T', PX_TYPE_E4M3},
	{"e4m3x2", 6, 'T', PX_TYPE_E4M3X2},
	{"e5m2", 4, 'T', PX_TYPE_E5M2},
	{"e5m2x2", 6, 'T', PX_TYPE_E5M2X2},
	{"eq", 2, 'C', PX_CMP_EQ},
	{"equ", 3, 'C', PX_CMP_EQU},
	{"f16", 3, 'T', PX_TYPE_F16},
	{"f16x2", 5, 'T', PX_TYPE_F16X2},
	{"f32", 3, 'T', PX_TYPE_F32},
	{"f64", 3, 'T', PX_TYPE_F64},
	{"ftz", 3, 'F', PX_MOD_FTZ},
	{"ge", 2, 'C', PX_CMP_GE},
	{"geu", 3, 'C', PX_CMP_GEU},
	{"global", 6, 'S', PX_SPACE_GLOBAL},
	{"gt", 2, 'C', PX_CMP_GT},
	{"gtu", 3, 'C', PX_CMP_GTU},
	{"hi", 2, 'H', PX_MOD_HI},
	{"hs", 2, 'C', PX_CMP_HS},
	{"le", 2, 'C', PX_CMP_LE},
	{"leu", 3, 'C', PX_CMP_LEU},
	{"lo", 2, 'H', PX_MOD_LO},
	{"local", 5, 'S', PX_SPACE_LOCAL},
	{"ls", 2, 'C', PX_CMP_LS},
	{"lt", 2, 'C', PX_CMP_LT},
	{"ltu", 3, 'C', PX_CMP_LTU},
	{"nan", 3, 'C', PX_CMP_NAN},
	{"nc", 2, 'F', PX_MOD_NC},
	{"ne", 2, 'C', PX_CMP_NE},
	{"neu", 3, 'C', PX_CMP_NEU},
	{"num", 3, 'C', PX_CMP_NUM},
	{"param", 5, 'S', PX_SPACE_PARAM},
	{"param::entry", 12, 'S', PX_SPACE_PARAM},
	{"param::func", 11, 'S', PX_SPACE_PARAM},
	{"pred", 4, 'T', PX_TYPE_PRED},
	{"red", 3, 'F', PX_MOD_RED},
	{"s16", 3, 'T', PX_TYPE_S16},
	{"s32", 3, 'T', PX_TYPE_S32},
	{"s64", 3, 'T', PX_TYPE_S64},
	{"s8", 2, 'T', PX_TYPE_S8},
	{"samplerref", 10, 'T', PX_TYPE_SAMPLERREF},
	{"sat", 3, 'F', PX_MOD_SAT},
	{"shared", 6, 'S', PX_SPACE_SHARED},
	{"shared::cluster", 15, 'S', PX_SPACE_SHARED_CLUSTER},
	{"shared::cta", 11, 'S', PX_SPACE_SHARED_CTA},
	{"surfref", 7, 'T', PX_TYPE_SURFREF},
	{"sync", 4, 'F', PX_MOD_SYNC},
	{"tex", 3, 'S', PX_SPACE_TEX},
	{"texref", 6, 'T', PX_TYPE_TEXREF},
	{"tf32", 4, 'T', PX_TYPE_TF32},
	{"to", 2, 'F', PX_MOD_TO},
	{"u16", 3, 'T', PX_TYPE_U16},
	{"u32", 3, 'T', PX_TYPE_U32},
	{"u64", 3, 'T', PX_TYPE_U64},
	{"u8", 2, 'T', PX_TYPE_U8},
	{"ue8m0x2", 7, 'T', PX_TYPE_UE8M0X2},
	{"uni", 3, 'F', PX_MOD_UNI},
	{"v2", 2, 'V', 2},
	{"v4", 2, 'V', 4},
	{"v8", 2, 'V', 8},
	{"volatile", 8, 'F', PX_MOD_VOLATILE},
	{"warp", 4, 'F', PX_MOD_WARP},
	{"wide", 4, 'F', PX_MOD_WIDE},
};

void px_p_init_tables(struct px_parser *P)
{
	for (unsigned op = 1; op < PX_OP_COUNT; op++)
		px_symtab_find(&P->opcodes, px_str_c(px_opcode_name((enum px_opcode)op)), true)->val =
			(int32_t)op;
	for (size_t i = 0; i < PX_COUNTOF(mods); i++)
		px_symtab_find(&P->modtab, px_str_make(mods[i].name, mods[i].len), true)->val =
			(int32_t)i;
}

int px_p_modifier(struct px_parser *P, px_str dot, uint32_t *val)
{
	if (dot.n < 2 || dot.p[0] != '.')
		return 0;
	struct px_symslot *s = px_symtab_find(&P->modtab, px_str_make(dot.p + 1, dot.n - 1), false);
	if (!s)
		return 0;
	*val = mods[s->val].val;
	return mods[s->val].kind;
}

/* ---- special registers ---- */

static const struct {
	const char *name;
	uint8_t len, shape;
} sregs[] = {
#define X(e, s, shape) {s, sizeof(s) - 1, shape},
	PX_SREGS(X)
#undef X
};

/* Parses the decimal digits [p, p+n) into *v (at most 127). */
static bool small_number(const char *p, size_t n, int *v)
{
	if (n == 0 || n > 3)
		return false;
	int x = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		x = x * 10 + (p[i] - '0');
	}
	if (x > 127)
		return false;
	*v = x;
	return true;
}

/* %tid, %laneid, ... (exact) or numbered %pm3, %envreg7, %pm3_64,
 * %reserved_smem_offset_0 (PTX ISA 9.0 chapter 10). Returns the sreg or -1;
 * sets *num for numbered ones. */
static int lookup_sreg(px_str name, int *num)
{
	*num = -1;
	for (size_t i = 0; i < PX_COUNTOF(sregs); i++)
		if (sregs[i].shape != 2 && name.n == sregs[i].len &&
		    memcmp(name.p, sregs[i].name, name.n) == 0)
			return (int)i;
	if (name.n > 6 && px_str_starts(name, "%pm") &&
	    memcmp(name.p + name.n - 3, "_64", 3) == 0 &&
	    small_number(name.p + 3, name.n - 6, num))
		return PX_SREG_PM64;
	for (size_t i = 0; i < PX_COUNTOF(sregs); i++)
		if (sregs[i].shape == 2 && i != PX_SREG_PM64 && name.n > sregs[i].len &&
		    memcmp(name.p, sregs[i].name, sregs[i].len) == 0 &&
		    small_number(name.p + sregs[i].len, name.n - sregs[i].len, num))
			return (int)i;
	return -1;
}

/* ---- operands ---- */

static bool adjacent(const struct px_parser *P)
{
	return P->tok->text.p == P->prev->text.p + P->prev->text.n;
}

static inline void push_operand(struct px_parser *P, const struct px_operand *o)
{
	*PX_VEC_PUSH(P->ostk, P->nostk, P->capostk) = *o;
}

/* Moves ostk[mark..] into an arena array: the elements of *o. */
static bool pop_elems(struct px_parser *P, size_t mark, struct px_operand *o)
{
	size_t n = P->nostk - mark;
	P->nostk = mark;
	if (n > PX_MAX_OPERANDS)
		return px_p_error(P, o->line, o->col, "too many elements (limit %d)", PX_MAX_OPERANDS);
	o->nelems = (uint16_t)n;
	if (n)
		o->elems = px_arena_copy(P->ba, P->ostk + mark, n * sizeof *o->elems);
	return true;
}

static void init_operand(struct px_operand *o, const struct px_token *t)
{
	memset(o, 0, sizeof *o);
	o->comp = -1;
	o->reg = -1;
	o->line = t->line;
	o->col = t->col;
}

/* component := '.' (x | y | z | w | r | g | b | a), written right after the name */
static int component(px_str dot, bool xyz_only)
{
	if (dot.n != 2)
		return -1;
	switch (dot.p[1]) {
	case 'x': case 'r': return dot.p[1] == 'r' && xyz_only ? -1 : 0;
	case 'y': case 'g': return dot.p[1] == 'g' && xyz_only ? -1 : 1;
	case 'z': case 'b': return dot.p[1] == 'b' && xyz_only ? -1 : 2;
	case 'w': case 'a': return xyz_only ? -1 : 3;
	default: return -1;
	}
}

static bool parse_operand(struct px_parser *P, struct px_operand *o, int depth);

/* A register, special register, sink or symbol (P->tok is the identifier).
 * reg := NAME [component] ['|' reg]; sreg := %NAME [component];
 * sym := NAME ['+' ['-'] INT] */
static bool parse_name(struct px_parser *P, struct px_operand *o, int depth)
{
	px_str name = P->tok->text;
	if (name.n == 1 && name.p[0] == '_') {
		o->kind = PX_OPND_SINK;
		px_p_advance(P);
		return true;
	}
	int32_t id = px_p_lookup_reg(P, name);
	if (id >= 0) {
		o->kind = PX_OPND_REG;
		o->reg = id;
		px_p_advance(P);
		if (P->tok->kind == PX_TK_DOT && adjacent(P)) {
			int c = component(P->tok->text, false);
			if (c < 0)
				return px_p_error_tok(P, P->tok, "bad vector component");
			o->comp = (int8_t)c;
			px_p_advance(P);
		}
		if (px_p_is_punct(P, '|') && depth == 0) {
			/* a|b: a predicate pair (setp, shfl destinations) */
			struct px_operand pair;
			init_operand(&pair, P->tok);
			pair.kind = PX_OPND_VEC;
			pair.pair = 1;
			pair.line = o->line;
			pair.col = o->col;
			px_p_advance(P);
			struct px_operand second;
			init_operand(&second, P->tok);
			if (P->tok->kind != PX_TK_IDENT || !parse_name(P, &second, depth + 1))
				return P->stop ? false : px_p_error_tok(P, P->prev, "expected a register after '|'");
			if (second.kind != PX_OPND_REG && second.kind != PX_OPND_SINK)
				return px_p_error(P, second.line, second.col, "expected a register after '|'");
			size_t mark = P->nostk;
			push_operand(P, o);
			push_operand(P, &second);
			if (!pop_elems(P, mark, &pair))
				return false;
			*o = pair;
		}
		return true;
	}
	if (name.p[0] == '%') {
		int num;
		int s = lookup_sreg(name, &num);
		if (s < 0)
			return px_p_error_tok(P, P->tok, "undeclared register '" PX_STR_FMT "'",
			                      PX_STR_ARG(name));
		o->kind = PX_OPND_SREG;
		o->sreg = (uint16_t)s;
		o->comp = (int8_t)num;
		px_p_advance(P);
		if (P->tok->kind == PX_TK_DOT && adjacent(P) && sregs[s].shape == 1) {
			int c = component(P->tok->text, true);
			if (c < 0)
				return px_p_error_tok(P, P->tok, "bad special register component");
			o->comp = (int8_t)c;
			px_p_advance(P);
		}
		return true;
	}
	o->kind = PX_OPND_SYM;
	o->sym = name;
	px_p_advance(P);
	if (px_p_is_punct(P, '+')) {
		px_p_advance(P);
		bool neg = false;
		if (px_p_is_punct(P, '-')) {
			neg = true;
			px_p_advance(P);
		}
		if (P->tok->kind != PX_TK_INT)
			return px_p_error_tok(P, P->tok, "expected an integer offset");
		o->imm = neg ? -(int64_t)P->tok->u : (int64_t)P->tok->u;
		px_p_advance(P);
	}
	return true;
}

/* A number (P->tok is INT or FLOAT); neg for a leading '-'. */
static bool parse_number(struct px_parser *P, struct px_operand *o, bool neg)
{
	const struct px_token *t = P->tok;
	if (t->kind == PX_TK_INT) {
		if (t->flags & PX_TKF_OVERFLOW)
			return px_p_error_tok(P, t, "integer constant too large");
		o->kind = PX_OPND_IMM;
		o->imm = (int64_t)t->u;
		if (neg)
			o->imm = (int64_t)(0 - t->u);
	} else {
		o->kind = PX_OPND_FIMM;
		o->fimm = neg ? -t->f : t->f;
		o->is_f32 = (t->flags & PX_TKF_F32) != 0;
	}
	px_p_advance(P);
	return true;
}

/* elems := operand {',' operand}, closed by close; P->tok just past the opener. */
static bool parse_elems(struct px_parser *P, struct px_operand *o, char close, int depth,
                        bool allow_empty)
{
	size_t mark = P->nostk;
	if (px_p_is_punct(P, close) && allow_empty) {
		px_p_advance(P);
		return pop_elems(P, mark, o);
	}
	for (;;) {
		/* an element that opens no aggregate pushes nothing while it is
		 * parsed, so it is parsed in place (see parse_instruction) */
		bool nests = P->tok->kind == PX_TK_PUNCT &&
		             (P->tok->ch == '{' || P->tok->ch == '(' || P->tok->ch == '[');
		struct px_operand e;
		struct px_operand *slot = &e;
		if (!nests) {
			slot = PX_VEC_PUSH(P->ostk, P->nostk, P->capostk);
			P->nostk--;
		}
		if (!parse_operand(P, slot, depth + 1)) {
			P->nostk = mark;
			return false;
		}
		if (nests)
			push_operand(P, &e);
		else
			P->nostk++;
		if (px_p_is_punct(P, ',')) {
			px_p_advance(P);
			continue;
		}
		if (px_p_is_punct(P, close)) {
			px_p_advance(P);
			return pop_elems(P, mark, o);
		}
		P->nostk = mark;
		return px_p_error_tok(P, P->tok, "expected ',' or '%c'", close);
	}
}

/* address := '[' base [('+' | '-') ['-'] INT] ']'     base := reg | NAME | INT
 *          | '[' operand ',' operand {',' operand} ']'  (texture/surface: LIST, bracket) */
static bool parse_address(struct px_parser *P, struct px_operand *o, int depth)
{
	px_p_advance(P);
	struct px_operand base;
	if (!parse_operand(P, &base, depth + 1))
		return false;
	int64_t off = 0;
	bool has_off = false;
	while (px_p_is_punct(P, '+') || px_p_is_punct(P, '-')) {
		bool neg = P->tok->ch == '-';
		px_p_advance(P);
		if (px_p_is_punct(P, '-')) {
			neg = !neg;
			px_p_advance(P);
		}
		if (P->tok->kind != PX_TK_INT || (P->tok->flags & PX_TKF_OVERFLOW))
			return px_p_error_tok(P, P->tok, "expected an integer offset in address");
		off += neg ? (int64_t)(0 - P->tok->u) : (int64_t)P->tok->u;
		has_off = true;
		px_p_advance(P);
	}
	if (px_p_is_punct(P, ']')) {
		px_p_advance(P);
		o->kind = PX_OPND_ADDR;
		switch (base.kind) {
		case PX_OPND_REG:
			if (base.comp >= 0)
				return px_p_error(P, base.line, base.col, "vector component in an address");
			o->reg = base.reg;
			o->imm = off;
			return true;
		case PX_OPND_SYM:
			o->sym = base.sym;
			o->imm = base.imm + off;
			return true;
		case PX_OPND_IMM:
			o->imm = base.imm + off;
			return true;
		default:
			return px_p_error(P, base.line, base.col, "expected a register, name or integer in address");
		}
	}
	if (!px_p_is_punct(P, ',') || has_off || depth > 0)
		return px_p_error_tok(P, P->tok, "expected ']' after address");
	/* [tex, sampler, {coords}]: a bracketed list */
	px_p_advance(P);
	size_t mark = P->nostk;
	push_operand(P, &base);
	struct px_operand rest;
	init_operand(&rest, P->tok);
	if (!parse_elems(P, &rest, ']', depth, false)) {
		P->nostk = mark;
		return false;
	}
	for (uint32_t i = 0; i < rest.nelems; i++)
		push_operand(P, &rest.elems[i]);
	o->kind = PX_OPND_LIST;
	o->bracket = 1;
	return pop_elems(P, mark, o);
}

/* operand := '!' reg | '-' (INT | FLOAT | reg) | reg | sreg | '_' | INT | FLOAT
 *          | sym | address | '{' elems '}' | '(' [elems] ')'
 * depth counts enclosing aggregates; at most one level of nesting below the
 * top (so a texture bracket may hold a vector). */
static bool parse_operand(struct px_parser *P, struct px_operand *o, int depth)
{
	init_operand(o, P->tok);
	const struct px_token *t = P->tok;
	if (t->kind == PX_TK_IDENT)
		return parse_name(P, o, depth);
	if (t->kind == PX_TK_INT || t->kind == PX_TK_FLOAT)
		return parse_number(P, o, false);
	if (t->kind == PX_TK_PUNCT) {
		char c = t->ch;
		if (c == '!' || c == '-') {
			px_p_advance(P);
			if (c == '-' && (P->tok->kind == PX_TK_INT || P->tok->kind == PX_TK_FLOAT))
				return parse_number(P, o, true);
			if (P->tok->kind != PX_TK_IDENT)
				return px_p_error_tok(P, P->tok, "expected a register after '%c'", c);
			if (!parse_name(P, o, depth + 1))
				return false;
			if (o->kind != PX_OPND_REG)
				return px_p_error(P, o->line, o->col, "expected a register after '%c'", c);
			o->neg = 1;
			return true;
		}
		if (depth < 2 && (c == '{' || c == '(' || c == '[')) {
			if (c == '[')
				return parse_address(P, o, depth);
			px_p_advance(P);
			o->kind = c == '{' ? PX_OPND_VEC : PX_OPND_LIST;
			return parse_elems(P, o, c == '{' ? '}' : ')', depth, c == '(');
		}
	}
	return px_p_error_tok(P, t, "expected an operand");
}

/* ---- the fast path: plain operand lists, read straight from the text ----
 *
 * Most operand lists are plain: registers, decimal integers, symbols and
 * addresses [base], [base+INT], written on one line and ended by ';'.
 * fast_operands reads such a list byte by byte, with the lexer's own class
 * table and decoding rules, into the operands the token-driven path would
 * build, and moves the lexer past the ';'. At anything else (a newline, a
 * comment, a component, a vector, a special register, a float, a number
 * lex_number would read, an error) it gives up having changed nothing the
 * token-driven path reads (only the register lookup caches, which never
 * change an answer), and that path parses the list from its start, with
 * the same results and messages as always. */

/* Skips blanks: what the lexer skips inside a line, less comments. */
static inline const char *skip_blanks(const char *p)
{
	while (px_lex_class[(unsigned char)*p] & PX_LC_SPACE)
		p++;
	return p;
}

/* A decimal integer at p (a digit) as px_lexer_next's hot path decodes it
 * into *v: its end, or NULL where the lexer would hand it to lex_number
 * (more than 18 digits, another base, a float, a suffix, malformed). */
static inline const char *fast_int(const char *p, uint64_t *v)
{
	unsigned char c = (unsigned char)*p;
	uint64_t x = c - '0';
	const char *q = p + 1;
	if (c != '0')
		while ((unsigned)(*q - '0') < 10 && q - p < 18)
			x = x * 10 + (uint64_t)(*q++ - '0');
	if ((px_lex_class[(unsigned char)*q] & PX_LC_CONT) || *q == '.')
		return NULL;
	*v = x;
	return q;
}

/* The identifier at p (its first byte starts one): its end in *end, and
 * px_p_lookup_reg's answer for it, the split of a numbered register
 * (prefix, digits, their value) found by the same scan. */
static inline int32_t fast_name(struct px_parser *P, const char *p, const char **end)
{
	const char *q = p + 1;
	while ((px_lex_class[(unsigned char)*q] & (PX_LC_CONT | PX_LC_DIGIT)) == PX_LC_CONT)
		q++;
	const char *d = q;
	uint32_t v = 0;  /* wraps past 9 digits, where it is not used */
	while ((unsigned)(*q - '0') < 10)
		v = v * 10 + (uint32_t)(*q++ - '0');
	bool numbered = d < q;
	while (px_lex_class[(unsigned char)*q] & PX_LC_CONT) {
		q++;
		numbered = false;
	}
	*end = q;
	unsigned char c0 = (unsigned char)*p;
	if (!(P->reg_first[c0 >> 6] >> (c0 & 63) & 1))
		return -1;
	px_str name = px_str_make(p, (size_t)(q - p));
	uint32_t k = (uint32_t)(d - p), nd = (uint32_t)(q - d);
	if (numbered && k <= 7 && nd <= 9 && !(d[0] == '0' && nd > 1)) {
		int32_t id = px_p_numbered_reg(P, name, k, v);
		if (id >= 0)
			return id;
	}
	return px_p_lookup_reg_by_name(P, name);
}

/* A lone '_' at p (the sink). */
static inline bool is_sink(const char *p)
{
	return p[0] == '_' && !(px_lex_class[(unsigned char)p[1]] & PX_LC_CONT);
}

/* operands := [operand {',' operand}] ';' on one line, each operand
 *   reg | '_' | sym | ['-'] INT | '[' (reg | sym | INT) [('+' | '-') ['-'] INT] ']'
 * (INT as fast_int reads it; '-' written right before its INT), at most
 * PX_TOP_OPERANDS of them. p: where the list starts, on the line the lexer
 * stands on (P->lx.line), with nothing but blanks before the first
 * operand. On success fills ops[0..*nout), makes P->prev the ';' and
 * P->tok the token after it; otherwise returns false (see above). */
static bool fast_operands(struct px_parser *P, struct px_operand *ops, const char *p,
                          uint32_t *nout)
{
	const char *ls = P->lx.line_start;
	uint32_t line = P->lx.line, n = 0;
	p = skip_blanks(p);
	if (*p != ';') {
		for (;;) {
			const char *q;
			unsigned char c = (unsigned char)*p;
			struct px_operand *o = &ops[n];
			*o = (struct px_operand){.comp = -1, .reg = -1, .line = line,
			                         .col = (uint32_t)(p - ls) + 1};
			if (px_lex_class[c] & PX_LC_START) {
				if (is_sink(p)) {
					o->kind = PX_OPND_SINK;
					q = p + 1;
				} else {
					int32_t id = fast_name(P, p, &q);
					if (id >= 0) {
						o->kind = PX_OPND_REG;
						o->reg = id;
					} else if (c == '%') {
						return false;  /* a special register */
					} else {
						o->kind = PX_OPND_SYM;
						o->sym = px_str_make(p, (size_t)(q - p));
					}
				}
			} else if ((unsigned)(c - '0') < 10 || (c == '-' && (unsigned)(p[1] - '0') < 10)) {
				uint64_t u;
				if (!(q = fast_int(p + (c == '-'), &u)))
					return false;
				o->kind = PX_OPND_IMM;
				o->imm = (int64_t)(c == '-' ? 0 - u : u);
			} else if (c == '[') {
				/* the address's value: its base's and its offset's (as
				 * parse_name and parse_address add them) */
				uint64_t val = 0, u;
				o->kind = PX_OPND_ADDR;
				q = skip_blanks(p + 1);
				c = (unsigned char)*q;
				if ((px_lex_class[c] & PX_LC_START) && !is_sink(q)) {
					const char *b = q;
					int32_t id = fast_name(P, b, &q);
					if (id >= 0)
						o->reg = id;
					else if (c == '%')
						return false;
					else
						o->sym = px_str_make(b, (size_t)(q - b));
				} else if ((unsigned)(c - '0') < 10) {
					if (!(q = fast_int(q, &val)))
						return false;
				} else {
					return false;
				}
				q = skip_blanks(q);
				if (*q == '+' || *q == '-') {
					bool neg = *q == '-';
					q = skip_blanks(q + 1);
					if (*q == '-') {
						neg = !neg;
						q = skip_blanks(q + 1);
					}
					if ((unsigned)(*q - '0') >= 10 || !(q = fast_int(q, &u)))
						return false;
					val += neg ? 0 - u : u;
					q = skip_blanks(q);
				}
				if (*q != ']')
					return false;
				o->imm = (int64_t)val;
				q++;
			} else {
				return false;
			}
			n++;
			p = skip_blanks(q);
			if (*p == ';')
				break;
			if (*p != ',' || n == PX_TOP_OPERANDS)
				return false;
			p = skip_blanks(p + 1);
		}
	}
	*nout = n;
	struct px_token *semi = P->prev;
	semi->kind = PX_TK_PUNCT;
	semi->flags = 0;
	semi->ch = ';';
	semi->text = px_str_make(p, 1);
	semi->line = line;
	semi->col = (uint32_t)(p - ls) + 1;
	P->lx.p = p + 1;
	px_lexer_next(&P->lx, P->tok);
	return true;
}

/* ---- instructions ---- */

static bool has_cmp_lohi(enum px_opcode op)
{
	return op == PX_OP_SETP || op == PX_OP_SET || op == PX_OP_VSET ||
	       op == PX_OP_VSET2 || op == PX_OP_VSET4;
}

static void decode_modifier(struct px_parser *P, struct px_insn *in, px_str dot)
{
	uint32_t v = 0;
	switch (px_p_modifier(P, dot, &v)) {
	case 'S':
		if (in->space == PX_SPACE_NONE)
			in->space = (uint8_t)v;
		break;
	case 'V':
		in->vec = (uint8_t)v;
		break;
	case 'T':
		if (in->ntypes < PX_COUNTOF(in->types))
			in->types[in->ntypes++] = (uint8_t)v;
		break;
	case 'C':
		if (in->cmp == PX_CMP_NONE)
			in->cmp = (uint8_t)v;
		break;
	case 'H':
		if (has_cmp_lohi(in->op)) {
			if (in->cmp == PX_CMP_NONE)
				in->cmp = v == PX_MOD_LO ? PX_CMP_LO : PX_CMP_HI;
		} else {
			in->mods |= v;
		}
		break;
	case 'F':
		if (v == PX_MOD_UNI && !(in->op == PX_OP_BRA || in->op == PX_OP_BRX ||
		                         in->op == PX_OP_CALL || in->op == PX_OP_RET))
			break;  /* vote.uni is a vote mode, not a uniformity promise */
		in->mods |= v;
		break;
	default:
		break;
	}
}

static void label_ref(struct px_parser *P, const struct px_operand *o)
{
	struct px_labelref *r = PX_VEC_PUSH(P->refs, P->nrefs, P->caprefs);
	r->name = o->sym;
	r->line = o->line;
	r->col = o->col;
}

/* The spelling of at most 24 bytes as up to three words and its length
 * (equal keys: equal bytes), for P->spell_cache; false if longer. Reads
 * only the spelling's own bytes. */
static bool spelling_key(px_str sp, struct px_spell_hit *k)
{
	const char *p = sp.p;
	uint32_t n = sp.n;
	k->n = n;
	k->w[0] = k->w[1] = k->w[2] = 0;
	if (n > 24)
		return false;
	if (n < 8) {
		for (uint32_t i = 0; i < n; i++)
			k->w[0] |= (uint64_t)(unsigned char)p[i] << (8 * i);
		return true;
	}
	memcpy(&k->w[0], p, 8);
	if (n > 16) {
		memcpy(&k->w[1], p + 8, 8);
		memcpy(&k->w[2], p + n - 8, 8);
	} else {
		memcpy(&k->w[1], p + n - 8, 8);
	}
	return true;
}

/* The template (index into P->templates) of the opcode optext with the
 * modifiers up to mend (spelling: both), decoded the first time the
 * spelling is seen. */
static int32_t spelling_template(struct px_parser *P, px_str optext, const char *mend,
                                 px_str spelling)
{
	struct px_symslot *ts = px_symtab_find(&P->spellings, spelling, true);
	if (ts->val < 0) {
		/* first time this spelling is seen: decode it (PTX modifiers are
		 * dot-separated words; `::` stays inside a word) */
		struct px_insn *t = PX_VEC_PUSH(P->templates, P->ntemplates, P->captemplates);
		memset(t, 0, sizeof *t);
		t->vec = 1;
		t->guard = -1;
		struct px_symslot *os = px_symtab_find(&P->opcodes, optext, false);
		t->op = (uint16_t)(os ? os->val : PX_OP_UNKNOWN);
		const char *q = optext.p + optext.n;
		while (q < mend) {
			const char *w = q++;
			while (q < mend && *q != '.')
				q++;
			decode_modifier(P, t, px_str_make(w, (size_t)(q - w)));
		}
		ts->val = (int32_t)(P->ntemplates - 1);
		/* the key must not point into the text: later lookups read it,
		 * and a mapped text's pages are given back behind the parser */
		ts->p = px_arena_strndup(P->keys, spelling.p, spelling.n);
	}
	return ts->val;
}

/* px_p_instruction into P->insns[at], reserved by the caller (nothing else
 * adds instructions meanwhile, so the slot does not move). */
static bool parse_instruction(struct px_parser *P, const struct px_token *opcode, size_t at)
{
	int32_t guard = -1;
	uint8_t guard_neg = 0;
	uint32_t line, col;
	px_str optext;       /* the opcode (the token itself is overwritten by the advances) */
	uint32_t opline, opcol;
	if (!opcode) {
		/* guard := '@' ['!'] reg */
		line = P->tok->line;
		col = P->tok->col;
		px_p_advance(P);
		if (px_p_is_punct(P, '!')) {
			guard_neg = 1;
			px_p_advance(P);
		}
		if (P->tok->kind != PX_TK_IDENT)
			return px_p_error_tok(P, P->tok, "expected a predicate register after '@'");
		guard = px_p_lookup_reg(P, P->tok->text);
		if (guard < 0)
			return px_p_error_tok(P, P->tok, "undeclared register '" PX_STR_FMT "'",
			                      PX_STR_ARG(P->tok->text));
		px_p_advance(P);
		if (P->tok->kind != PX_TK_IDENT)
			return px_p_error_tok(P, P->tok, "expected an instruction after the guard");
		optext = P->tok->text;
		opline = P->tok->line;
		opcol = P->tok->col;
		opcode = P->tok;
	} else {
		optext = opcode->text;
		line = opline = opcode->line;
		col = opcol = opcode->col;
	}
	/* modifiers: dot tokens written right after the opcode, skipped by
	 * the lexer without making tokens of them (the operands start where
	 * they end); with the opcode still the current token, the lexer stands
	 * right after it */
	const char *mend = optext.p + optext.n;
	bool dots;
	if (opcode == P->tok) {
		dots = px_p_dots_follow(P);
		if (!dots)
			px_p_advance(P);
	} else {
		dots = P->tok->kind == PX_TK_DOT && adjacent(P);
	}
	if (dots)
		mend = px_lexer_skip_dots(&P->lx);
	px_str spelling = px_str_make(optext.p, (size_t)(mend - optext.p));
	struct px_spell_hit *hit = NULL, probe;
	int32_t ti = -1;
	bool missed = true;
	if (spelling_key(spelling, &probe)) {
		hit = &P->spell_cache[((probe.w[0] ^ probe.w[1] * 0x9E3779B97F4A7C15ull ^ probe.w[2]) +
		                       probe.n) * 0xff51afd7ed558ccdull >> 56];
		if (hit->n == probe.n && hit->w[0] == probe.w[0] && hit->w[1] == probe.w[1] &&
		    hit->w[2] == probe.w[2])
			ti = hit->tmpl, missed = false;
	}
	if (missed)
		ti = spelling_template(P, optext, mend, spelling);
	if (hit && missed) {
		probe.tmpl = ti;
		*hit = probe;
	}
	/* the decoded modifiers (every other field zero), then the rest */
	struct px_insn *in = &P->insns[at];
	*in = P->templates[ti];
	in->guard = guard;
	in->guard_neg = guard_neg;
	in->line = line;
	in->col = col;
	in->opname = optext;
	in->modtext = px_str_make(optext.p + optext.n, (size_t)(mend - optext.p - optext.n));
	if (in->op == PX_OP_UNKNOWN) {
		/* a warning each, up to a limit: garbage must not flood the list */
		if (P->m->nunknown_ops < PX_MAX_UNKNOWN_WARNINGS)
			px_diag_add(P->diags, PX_WARNING, P->path, opline, opcol, NULL,
			            "unknown instruction '" PX_STR_FMT "'", PX_STR_ARG(optext));
		else if (P->m->nunknown_ops == PX_MAX_UNKNOWN_WARNINGS)
			px_diag_add(P->diags, PX_NOTE, P->path, opline, opcol, NULL,
			            "more unknown instructions follow; not reported one by one");
		P->m->nunknown_ops++;
	}
	/* operands: parsed straight into the function's operand vector
	 * (P->fops), each slot reserved before its operand is parsed (nothing
	 * else adds to the vector meanwhile, so the slot does not move; an
	 * operand copied right after its fields were written would stall on
	 * those narrower stores); the fast path writes up to PX_TOP_OPERANDS
	 * slots past the end, reserved here */
	size_t first = P->nfops;
	uint32_t n = 0;
	if (P->capfops - first < PX_TOP_OPERANDS) {
		P->capfops = P->capfops * 2 > first + PX_TOP_OPERANDS ? P->capfops * 2
		                                                      : first + PX_TOP_OPERANDS;
		P->fops = xrealloc(P->fops, P->capfops * sizeof *P->fops);
	}
	if (fast_operands(P, P->fops + first, dots ? mend : P->tok->text.p, &n)) {
		P->nfops = first + n;
		goto parsed;
	}
	if (dots)
		px_p_advance(P);
	if (!px_p_is_punct(P, ';')) {
		for (;;) {
			struct px_operand *o = PX_VEC_PUSH(P->fops, P->nfops, P->capfops);
			if (!parse_operand(P, o, 0)) {
				P->nfops = first;
				return false;
			}
			n++;
			if (!px_p_is_punct(P, ','))
				break;
			px_p_advance(P);
		}
	}
	if (!px_p_is_punct(P, ';')) {
		P->nfops = first;
		return px_p_error_tok(P, P->tok, "expected ';' after instruction");
	}
	if (n > PX_MAX_OPERANDS) {
		P->nfops = first;
		return px_p_error(P, line, col, "too many operands (limit %d)", PX_MAX_OPERANDS);
	}
	px_p_advance(P);
parsed:
	/* until the function ends (finish_body), opnds holds the index of the
	 * first operand in P->fops */
	in->nopnds = (uint16_t)n;
	in->opnds = n ? (struct px_operand *)(uintptr_t)first : NULL;
	const struct px_operand *ops = P->fops + first;
	/* branch targets must be labels of this function */
	if (in->op == PX_OP_BRA) {
		for (uint32_t i = 0; i < n; i++)
			if (ops[i].kind == PX_OPND_SYM)
				label_ref(P, &ops[i]);
	} else if (in->op == PX_OP_BRX && n && ops[n - 1].kind == PX_OPND_SYM) {
		label_ref(P, &ops[n - 1]);
	}
	in->loc_file = P->loc_file;
	in->loc_line = P->loc_line;
	in->loc_col = P->loc_col;
	return true;
}

bool px_p_instruction(struct px_parser *P, const struct px_token *opcode)
{
	size_t at = P->ninsns;
	PX_VEC_PUSH(P->insns, P->ninsns, P->capinsns);
	if (parse_instruction(P, opcode, at))
		return true;
	P->ninsns = at;  /* a bad statement adds no instruction */
	return false;
}
