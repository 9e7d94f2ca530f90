/* lexer.h: PTX tokens, produced on the fly from the input buffer.
 *
 * The lexer never allocates: a token is a view into the text plus its decoded
 * value (numbers) and its 1-based line and column. The text must end in a
 * NUL at text[len] (a sentinel the scanning loops stop at); NUL bytes
 * inside [text, text+len) are just bad characters. */
#ifndef PX_PTX_LEXER_H
#define PX_PTX_LEXER_H

#include "../util.h"

enum px_tok_kind {
	PX_TK_EOF,
	PX_TK_IDENT,   /* foo, %r1, $L__BB0_2, _ (also opcodes and labels) */
	PX_TK_DOT,     /* .entry, .u32, .shared::cta, .2d, .L2::cache_hint */
	PX_TK_INT,     /* 42, 0x2A, 052, 0b101010, 42U: value in u */
	PX_TK_FLOAT,   /* 1.5, 1e-3 (f64), 0f3F800000 (is_f32), 0d3FF0000000000000 */
	PX_TK_STRING,  /* "..." (text includes the quotes) */
	PX_TK_PUNCT,   /* one of , ; : { } [ ] ( ) < > + - ! @ | = : ch */
	PX_TK_ERROR,   /* a bad character, malformed number, unterminated string
	                * or comment: message in err */
};

enum px_tok_flag {
	PX_TKF_OVERFLOW = 1u << 0,  /* integer constant does not fit in 64 bits */
	PX_TKF_F32 = 1u << 1,       /* 0f... float */
	PX_TKF_UNSIGNED = 1u << 2,  /* U suffix */
	PX_TKF_NEWLINE = 1u << 3,   /* a newline lies between this token and the previous one */
};

struct px_token {
	uint8_t kind;      /* enum px_tok_kind */
	uint8_t flags;     /* enum px_tok_flag */
	char ch;           /* PX_TK_PUNCT: the character */
	px_str text;       /* the token as written */
	uint32_t line, col;
	union {
		uint64_t u;        /* PX_TK_INT value (two's complement wrap above INT64_MAX) */
		double f;          /* PX_TK_FLOAT value */
		const char *err;   /* PX_TK_ERROR: static message */
	};
};

struct px_lexer {
	const char *p, *end;
	const char *line_start;
	uint32_t line;
};

/* The byte classes the lexer scans by (one table, lexer.c), for scanners
 * that read the text directly: the parser's fast path for plain operand
 * lists (parse_insn.c), which must read a byte exactly as the lexer does.
 * The NUL sentinel is in no class. */
enum {
	PX_LC_SPACE = 1,   /* blank, tab, CR, FF, VT */
	PX_LC_NL = 2,
	PX_LC_START = 4,   /* may start an identifier */
	PX_LC_CONT = 8,    /* may continue an identifier */
	PX_LC_DIGIT = 16,
	PX_LC_HEX = 32,
	PX_LC_PUNCT = 64,
};
extern const unsigned char px_lex_class[256];

/* Starts lexing text[0..len); text[len] must be 0. */
void px_lexer_init(struct px_lexer *lx, const char *text, size_t len);
/* Fills *t with the next token; at the end returns PX_TK_EOF forever. */
void px_lexer_next(struct px_lexer *lx, struct px_token *t);
/* Skips the dot words that follow without a blank (".eq.s64" of
 * "setp.eq.s64"), which px_lexer_next would return one PX_TK_DOT token
 * at a time; returns where they end (where the lexer now stands). */
const char *px_lexer_skip_dots(struct px_lexer *lx);
/* Skips raw text up to and including the next '}' that lies outside strings
 * and comments (DWARF .section bodies). Returns false at end of input. */
bool px_lexer_skip_block(struct px_lexer *lx);
/* A short printable rendering of a token for messages ("';'", "'foo'",
 * "end of input"), written into buf (size n). */
const char *px_token_describe(const struct px_token *t, char *buf, size_t n);

#endif
