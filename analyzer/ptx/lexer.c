/* lexer.c: turns PTX text into tokens, one at a time, without allocating.
 *
 * Approach: a pointer walks the buffer; a 256-entry class table drives
 * whitespace, identifier and digit scanning, and the NUL the text ends in
 * stops every scanning loop without an end test; line and column come from a
 * running line counter and the start of the current line. Numbers are decoded
 * here (PTX ISA 9.0 section 4.5 "Constants": decimal, hex 0x, octal 0, binary
 * 0b, U suffix; 0f/0F + 8 hex digits is an f32 bit pattern and 0d/0D + 16 hex
 * digits an f64 one; decimal floating point). Identifiers follow section 4.4:
 * [a-zA-Z][a-zA-Z0-9_$]* or [_$%][a-zA-Z0-9_$]+ (we accept a lone '_' and
 * '%' prefixes uniformly). A '.' followed by identifier characters is one
 * "dot" token (directive or modifier); `::name` suffixes belong to it
 * (.shared::cta, .L2::cache_hint). */
#include <stdio.h>
#include <string.h>

#include "lexer.h"

/* Kept out of the hot path (numbers, comments, strings, errors are rare):
 * inlined, they would make every token pay for their registers. */
#define PX_COLD __attribute__((noinline, cold))

enum {
	C_SPACE = PX_LC_SPACE,
	C_NL = PX_LC_NL,
	C_START = PX_LC_START,
	C_CONT = PX_LC_CONT,
	C_DIGIT = PX_LC_DIGIT,
	C_HEX = PX_LC_HEX,
	C_PUNCT = PX_LC_PUNCT,
};

#define L_ C_START | C_CONT
#define D_ C_CONT | C_DIGIT | C_HEX
#define H_ C_START | C_CONT | C_HEX
const unsigned char px_lex_class[256] = {
	['\t'] = C_SPACE, ['\n'] = C_NL, ['\v'] = C_SPACE, ['\f'] = C_SPACE,
	['\r'] = C_SPACE, [' '] = C_SPACE,
	['%'] = C_START, ['$'] = C_START | C_CONT, ['_'] = C_START | C_CONT,
	['0'] = D_, ['1'] = D_, ['2'] = D_, ['3'] = D_, ['4'] = D_,
	['5'] = D_, ['6'] = D_, ['7'] = D_, ['8'] = D_, ['9'] = D_,
	['a'] = H_, ['b'] = H_, ['c'] = H_, ['d'] = H_, ['e'] = H_, ['f'] = H_,
	['A'] = H_, ['B'] = H_, ['C'] = H_, ['D'] = H_, ['E'] = H_, ['F'] = H_,
	['g'] = L_, ['h'] = L_, ['i'] = L_, ['j'] = L_, ['k'] = L_, ['l'] = L_,
	['m'] = L_, ['n'] = L_, ['o'] = L_, ['p'] = L_, ['q'] = L_, ['r'] = L_,
	['s'] = L_, ['t'] = L_, ['u'] = L_, ['v'] = L_, ['w'] = L_, ['x'] = L_,
	['y'] = L_, ['z'] = L_,
	['G'] = L_, ['H'] = L_, ['I'] = L_, ['J'] = L_, ['K'] = L_, ['L'] = L_,
	['M'] = L_, ['N'] = L_, ['O'] = L_, ['P'] = L_, ['Q'] = L_, ['R'] = L_,
	['S'] = L_, ['T'] = L_, ['U'] = L_, ['V'] = L_, ['W'] = L_, ['X'] = L_,
	['Y'] = L_, ['Z'] = L_,
	[','] = C_PUNCT, [';'] = C_PUNCT, [':'] = C_PUNCT, ['{'] = C_PUNCT,
	['}'] = C_PUNCT, ['['] = C_PUNCT, [']'] = C_PUNCT, ['('] = C_PUNCT,
	[')'] = C_PUNCT, ['<'] = C_PUNCT, ['>'] = C_PUNCT, ['+'] = C_PUNCT,
	['-'] = C_PUNCT, ['!'] = C_PUNCT, ['@'] = C_PUNCT, ['|'] = C_PUNCT,
	['='] = C_PUNCT,
};
#undef L_
#undef D_
#undef H_

void px_lexer_init(struct px_lexer *lx, const char *text, size_t len)
{
	lx->p = text;
	lx->end = text + len;
	lx->line_start = text;
	lx->line = 1;
}

static void set_tok(struct px_lexer *lx, struct px_token *t, int kind,
                    const char *s, const char *e)
{
	t->kind = (uint8_t)kind;
	t->text = px_str_make(s, (size_t)(e - s));
	t->line = lx->line;
	t->col = (uint32_t)(s - lx->line_start) + 1;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decodes a decimal floating-point literal [s, e) (digits, '.', exponent)
 * without strtod, which would need a NUL-terminated copy and the locale. */
static double decimal_float(const char *s, const char *e)
{
	double mant = 0;
	int exp10 = 0;
	const char *p = s;
	int digits = 0;
	for (; p < e && px_lex_class[(unsigned char)*p] & C_DIGIT; p++) {
		if (digits < 19) {
			mant = mant * 10 + (*p - '0');
			if (mant != 0)
				digits++;
		} else {
			exp10++;
		}
	}
	if (p < e && *p == '.') {
		for (p++; p < e && px_lex_class[(unsigned char)*p] & C_DIGIT; p++) {
			if (digits < 19) {
				mant = mant * 10 + (*p - '0');
				exp10--;
				if (mant != 0)
					digits++;
			}
		}
	}
	if (p < e && (*p == 'e' || *p == 'E')) {
		p++;
		int sign = 1, x = 0;
		if (p < e && (*p == '+' || *p == '-'))
			sign = *p++ == '-' ? -1 : 1;
		for (; p < e && px_lex_class[(unsigned char)*p] & C_DIGIT; p++)
			if (x < 100000)
				x = x * 10 + (*p - '0');
		exp10 += sign * x;
	}
	if (mant == 0)
		return 0;
	/* scale by powers of ten; exact enough for a static analyser */
	double scale = 1, base = 10;
	int n = exp10 < 0 ? -exp10 : exp10;
	if (n > 400)
		n = 400;
	while (n) {
		if (n & 1)
			scale *= base;
		base *= base;
		n >>= 1;
	}
	return exp10 < 0 ? mant / scale : mant * scale;
}

/* number := 0[fF]hex{8} | 0[dD]hex{16} | 0[xX]hex+ U? | 0[bB][01]+ U?
 *         | 0[0-7]* U? | [1-9][0-9]* U? | digits . digits* ([eE][+-]?digits)?
 *         | digits [eE][+-]?digits */
PX_COLD static void lex_number(struct px_lexer *lx, struct px_token *t)
{
	const char *s = lx->p, *p = s, *e = lx->end;
	uint64_t v = 0;
	bool ovf = false;
	t->flags = 0;
	t->kind = PX_TK_INT;
	if (p + 1 < e && p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
		int want = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
		const char *q = p + 2;
		int n = 0;
		while (q < e && n < want && hexval((unsigned char)*q) >= 0) {
			v = v << 4 | (uint64_t)hexval((unsigned char)*q);
			q++, n++;
		}
		if (n != want || (q < e && px_lex_class[(unsigned char)*q] & C_CONT))
			goto bad;
		if (want == 8) {
			uint32_t b = (uint32_t)v;
			float f;
			memcpy(&f, &b, 4);
			t->f = f;
			t->flags |= PX_TKF_F32;
		} else {
			double d;
			memcpy(&d, &v, 8);
			t->f = d;
		}
		t->kind = PX_TK_FLOAT;
		p = q;
		goto done;
	}
	if (p + 1 < e && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		const char *q = p;
		for (; p < e && hexval((unsigned char)*p) >= 0; p++) {
			if (v >> 60)
				ovf = true;
			v = v << 4 | (uint64_t)hexval((unsigned char)*p);
		}
		if (p == q)
			goto bad;
	} else if (p + 1 < e && p[0] == '0' && (p[1] == 'b' || p[1] == 'B') &&
	           p + 2 < e && (p[2] == '0' || p[2] == '1')) {
		for (p += 2; p < e && (*p == '0' || *p == '1'); p++) {
			if (v >> 63)
				ovf = true;
			v = v << 1 | (uint64_t)(*p - '0');
		}
	} else {
		/* decimal, octal or float: scan the digits first */
		const char *q = p;
		while (q < e && px_lex_class[(unsigned char)*q] & C_DIGIT)
			q++;
		bool isf = false;
		if (q < e && *q == '.') {
			isf = true;
			q++;
			while (q < e && px_lex_class[(unsigned char)*q] & C_DIGIT)
				q++;
		}
		if (q < e && (*q == 'e' || *q == 'E')) {
			const char *r = q + 1;
			if (r < e && (*r == '+' || *r == '-'))
				r++;
			if (r < e && px_lex_class[(unsigned char)*r] & C_DIGIT) {
				isf = true;
				q = r;
				while (q < e && px_lex_class[(unsigned char)*q] & C_DIGIT)
					q++;
			}
		}
		if (isf) {
			if (q < e && px_lex_class[(unsigned char)*q] & C_CONT)
				goto bad;
			t->kind = PX_TK_FLOAT;
			t->f = decimal_float(s, q);
			p = q;
			goto done;
		}
		if (p[0] == '0') {
			for (p++; p < q; p++) {
				if (*p > '7')
					goto bad;
				if (v >> 61)
					ovf = true;
				v = v << 3 | (uint64_t)(*p - '0');
			}
		} else {
			for (; p < q; p++) {
				uint64_t d = (uint64_t)(*p - '0');
				if (v > (UINT64_MAX - d) / 10)
					ovf = true;
				v = v * 10 + d;
			}
		}
	}
	if (p < e && (*p == 'U' || *p == 'u')) {
		t->flags |= PX_TKF_UNSIGNED;
		p++;
	}
	if (p < e && px_lex_class[(unsigned char)*p] & C_CONT)
		goto bad;
	t->u = v;
	if (ovf)
		t->flags |= PX_TKF_OVERFLOW;
done:
	set_tok(lx, t, t->kind, s, p);
	lx->p = p;
	return;
bad:
	while (p < e && px_lex_class[(unsigned char)*p] & C_CONT)
		p++;
	set_tok(lx, t, PX_TK_ERROR, s, p);
	t->err = "malformed number";
	lx->p = p;
}

/* A block comment at p (slash, star): skips it, counting its lines. Returns the
 * position after it, or NULL (unterminated: *t is the error, lx->p at the
 * end). */
PX_COLD static const char *skip_block_comment(struct px_lexer *lx, struct px_token *t, const char *p)
{
	const char *s = p, *e = lx->end;
	uint32_t sline = lx->line;
	const char *sls = lx->line_start;
	p += 2;
	while (p + 1 < e && !(p[0] == '*' && p[1] == '/')) {
		if (*p == '\n') {
			lx->line++;
			lx->line_start = p + 1;
		}
		p++;
	}
	if (p + 1 >= e) {
		t->kind = PX_TK_ERROR;
		t->text = px_str_make(s, 2);
		t->line = sline;
		t->col = (uint32_t)(s - sls) + 1;
		t->err = "unterminated comment";
		if (p < e && *p == '\n') {
			lx->line++;
			lx->line_start = p + 1;
		}
		lx->p = e;
		return NULL;
	}
	return p + 2;
}

/* The tokens that are neither names, directives, numbers nor punctuation:
 * strings and bad characters (p < end, at the token). */
PX_COLD static void lex_other(struct px_lexer *lx, struct px_token *t, const char *p)
{
	const char *e = lx->end;
	if (*p == '"') {
		const char *s = p++;
		while (p < e && *p != '"' && *p != '\n') {
			if (*p == '\\' && p + 1 < e && p[1] != '\n')
				p++;
			p++;
		}
		if (p >= e || *p != '"') {
			set_tok(lx, t, PX_TK_ERROR, s, p);
			t->err = "unterminated string";
			lx->p = p;
			return;
		}
		p++;
		set_tok(lx, t, PX_TK_STRING, s, p);
		lx->p = p;
		return;
	}
	/* a bad character: one byte (a whole UTF-8 sequence would be nicer,
	 * but one byte keeps every position exact) */
	set_tok(lx, t, PX_TK_ERROR, p, p + 1);
	t->err = "unexpected character";
	lx->p = p + 1;
}

/* The hot path: the text ends in a NUL sentinel (text[len] == 0, which no
 * class bit matches), so the scanning loops need no end test; a NUL before
 * the end is a bad character as any other. */
void px_lexer_next(struct px_lexer *lx, struct px_token *t)
{
	const char *p = lx->p, *e = lx->end;
	uint8_t nl = 0;
	/* whitespace and comments */
	for (;;) {
		while (px_lex_class[(unsigned char)*p] & C_SPACE)
			p++;
		if (*p == '\n') {
			lx->line++;
			lx->line_start = ++p;
			nl = PX_TKF_NEWLINE;
			continue;
		}
		if (*p == '/' && p < e) {
			if (p[1] == '/') {
				const char *q = memchr(p, '\n', (size_t)(e - p));
				p = q ? q : e;
				continue;
			}
			if (p[1] == '*') {
				p = skip_block_comment(lx, t, p);
				if (!p) {
					t->flags = nl;
					return;
				}
				continue;
			}
		}
		break;
	}
	t->flags = nl;
	const char *s = p;
	unsigned char c = (unsigned char)*p;
	unsigned k = px_lex_class[c];
	if (k & C_START) {
		while (px_lex_class[(unsigned char)*++p] & C_CONT)
			;
		t->kind = PX_TK_IDENT;
	} else if (c == '.' && px_lex_class[(unsigned char)p[1]] & C_CONT) {
		while (px_lex_class[(unsigned char)*++p] & C_CONT)
			;
		while (p[0] == ':' && p[1] == ':' && px_lex_class[(unsigned char)p[2]] & C_CONT) {
			p += 2;
			while (px_lex_class[(unsigned char)*++p] & C_CONT)
				;
		}
		t->kind = PX_TK_DOT;
	} else if (k & C_PUNCT) {
		t->ch = (char)c;
		p++;
		t->kind = PX_TK_PUNCT;
	} else if (p >= e) {
		lx->p = e;
		set_tok(lx, t, PX_TK_EOF, e, e);
		return;
	} else if (k & C_DIGIT) {
		/* the common number, a decimal integer of at most 18 digits (no
		 * overflow) ended by a byte that continues neither a number nor a
		 * name: decoded here; everything else by lex_number */
		uint64_t v = c - '0';
		const char *q = p + 1;
		if (c != '0')
			while ((unsigned)(*q - '0') < 10 && q - p < 18)
				v = v * 10 + (uint64_t)(*q++ - '0');
		if (!(px_lex_class[(unsigned char)*q] & C_CONT) && *q != '.') {
			t->kind = PX_TK_INT;
			t->u = v;
			p = q;
			goto done;
		}
		lx->p = p;
		lex_number(lx, t);
		t->flags |= nl;
		return;
	} else {
		lex_other(lx, t, p);
		return;
	}
done:
	t->text = px_str_make(s, (size_t)(p - s));
	t->line = lx->line;
	t->col = (uint32_t)(s - lx->line_start) + 1;
	lx->p = p;
}

const char *px_lexer_skip_dots(struct px_lexer *lx)
{
	const char *p = lx->p;
	while (p[0] == '.' && px_lex_class[(unsigned char)p[1]] & C_CONT) {
		p++;
		while (px_lex_class[(unsigned char)*++p] & C_CONT)
			;
		while (p[0] == ':' && p[1] == ':' && px_lex_class[(unsigned char)p[2]] & C_CONT) {
			p += 2;
			while (px_lex_class[(unsigned char)*++p] & C_CONT)
				;
		}
	}
	lx->p = p;
	return p;
}

bool px_lexer_skip_block(struct px_lexer *lx)
{
	const char *p = lx->p, *e = lx->end;
	while (p < e) {
		char c = *p;
		if (c == '}') {
			lx->p = p + 1;
			return true;
		}
		if (c == '\n') {
			lx->line++;
			lx->line_start = p + 1;
		} else if (c == '"') {
			for (p++; p < e && *p != '"' && *p != '\n'; p++)
				if (*p == '\\' && p + 1 < e && p[1] != '\n')
					p++;
			if (p < e && *p == '\n')
				continue;  /* unterminated string: the newline is counted above */
		} else if (c == '/' && p + 1 < e && p[1] == '/') {
			while (p < e && *p != '\n')
				p++;
			continue;
		} else if (c == '/' && p + 1 < e && p[1] == '*') {
			for (p += 2; p + 1 < e && !(p[0] == '*' && p[1] == '/'); p++)
				if (*p == '\n') {
					lx->line++;
					lx->line_start = p + 1;
				}
			if (p + 1 >= e) {
				lx->p = e;
				return false;
			}
			p++;
		}
		p++;
	}
	lx->p = e;
	return false;
}

const char *px_token_describe(const struct px_token *t, char *buf, size_t n)
{
	switch (t->kind) {
	case PX_TK_EOF:
		return "end of input";
	case PX_TK_ERROR:
		if (t->text.n == 1 && ((unsigned char)t->text.p[0] < 32 || (unsigned char)t->text.p[0] >= 127)) {
			snprintf(buf, n, "byte 0x%02x", (unsigned char)t->text.p[0]);
			return buf;
		}
		break;
	default:
		break;
	}
	/* quote at most 32 bytes, replacing unprintable ones */
	size_t len = t->text.n < 32 ? t->text.n : 32, j = 0;
	if (n < 8)
		return "token";
	buf[j++] = '\'';
	for (size_t i = 0; i < len && j + 5 < n; i++) {
		unsigned char c = (unsigned char)t->text.p[i];
		buf[j++] = (c >= 32 && c < 127) ? (char)c : '?';
	}
	if (t->text.n > len && j + 5 < n) {
		buf[j++] = '.';
		buf[j++] = '.';
		buf[j++] = '.';
	}
	buf[j++] = '\'';
	buf[j] = 0;
	return buf;
}
