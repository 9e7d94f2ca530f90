/* test_lexer.c: the PTX lexer: token kinds, spellings, positions, number
 * decoding, comments, strings, bad bytes and DWARF block skipping. */
#include <criterion/criterion.h>
#include <string.h>

#include "ptx/lexer.h"

/* Lexes src (a C string) into at most max tokens; returns the count (EOF
 * included). */
static size_t lex_all(const char *src, struct px_token *out, size_t max)
{
	struct px_lexer lx;
	px_lexer_init(&lx, src, strlen(src));
	size_t n = 0;
	while (n < max) {
		px_lexer_next(&lx, &out[n]);
		if (out[n++].kind == PX_TK_EOF)
			break;
	}
	return n;
}

static struct px_token one(const char *src)
{
	struct px_token t[2];
	lex_all(src, t, 2);
	return t[0];
}

#define TEXT_IS(t, s) cr_assert(px_str_eqc((t).text, s), "token text '%.*s' != '%s'", PX_STR_ARG((t).text), s)

Test(lexer, instruction_line_kinds_and_positions)
{
	struct px_token t[32];
	size_t n = lex_all("\t@!%p1 ld.global.v4.f32 {%f1, _}, [%rd1+-4];", t, 32);
	cr_assert_eq(n, 21);
	int kinds[] = {PX_TK_PUNCT, PX_TK_PUNCT, PX_TK_IDENT, PX_TK_IDENT, PX_TK_DOT, PX_TK_DOT,
	               PX_TK_DOT, PX_TK_PUNCT, PX_TK_IDENT, PX_TK_PUNCT, PX_TK_IDENT, PX_TK_PUNCT,
	               PX_TK_PUNCT, PX_TK_PUNCT, PX_TK_IDENT, PX_TK_PUNCT, PX_TK_PUNCT, PX_TK_INT,
	               PX_TK_PUNCT, PX_TK_PUNCT, PX_TK_EOF};
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(t[i].kind, kinds[i], "token %zu", i);
	cr_assert_eq(t[0].ch, '@');
	cr_assert_eq(t[0].col, 2);
	TEXT_IS(t[2], "%p1");
	cr_assert_eq(t[2].col, 4);
	TEXT_IS(t[3], "ld");
	cr_assert_eq(t[3].col, 8);
	TEXT_IS(t[4], ".global");
	cr_assert_eq(t[4].col, 10);
	TEXT_IS(t[6], ".f32");
	TEXT_IS(t[10], "_");
	TEXT_IS(t[14], "%rd1");
	cr_assert_eq(t[17].u, 4);
	cr_assert_eq(t[19].ch, ';');
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(t[i].line, 1);
}

Test(lexer, dot_tokens_keep_scope_suffixes)
{
	struct px_token t[8];
	lex_all("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes .2d.L2::cache_hint", t, 8);
	TEXT_IS(t[0], "cp");
	TEXT_IS(t[3], ".shared::cluster");
	TEXT_IS(t[5], ".mbarrier::complete_tx::bytes");
	TEXT_IS(t[6], ".2d");
	TEXT_IS(t[7], ".L2::cache_hint");
}

Test(lexer, integers)
{
	struct px_token t = one("42");
	cr_assert_eq(t.kind, PX_TK_INT);
	cr_assert_eq(t.u, 42);
	cr_assert_eq(one("0x2A").u, 42);
	cr_assert_eq(one("0X2a").u, 42);
	cr_assert_eq(one("052").u, 42);
	cr_assert_eq(one("0b101010").u, 42);
	cr_assert_eq(one("0").u, 0);
	t = one("42U");
	cr_assert_eq(t.u, 42);
	cr_assert(t.flags & PX_TKF_UNSIGNED);
	TEXT_IS(t, "42U");
	t = one("18446744073709551615");
	cr_assert_eq(t.u, UINT64_MAX);
	cr_assert_not(t.flags & PX_TKF_OVERFLOW);
	cr_assert(one("18446744073709551616").flags & PX_TKF_OVERFLOW);
	cr_assert(one("0x1FFFFFFFFFFFFFFFF").flags & PX_TKF_OVERFLOW);
	cr_assert_eq(one("0xFFFFFFFFFFFFFFFF").u, UINT64_MAX);
}

Test(lexer, floats)
{
	struct px_token t = one("0f3F800000");
	cr_assert_eq(t.kind, PX_TK_FLOAT);
	cr_assert(t.flags & PX_TKF_F32);
	cr_assert_float_eq(t.f, 1.0, 0);
	t = one("0fBF000000");
	cr_assert_float_eq(t.f, -0.5, 0);
	t = one("0d3FF8000000000000");
	cr_assert_eq(t.kind, PX_TK_FLOAT);
	cr_assert_not(t.flags & PX_TKF_F32);
	cr_assert_float_eq(t.f, 1.5, 0);
	t = one("1.5");
	cr_assert_eq(t.kind, PX_TK_FLOAT);
	cr_assert_float_eq(t.f, 1.5, 1e-15);
	cr_assert_float_eq(one("1e-3").f, 1e-3, 1e-18);
	cr_assert_float_eq(one("2.5E+2").f, 250.0, 1e-12);
	cr_assert_float_eq(one("9.0").f, 9.0, 0);
	TEXT_IS(one("9.0"), "9.0");
}

Test(lexer, malformed_numbers_are_error_tokens)
{
	struct px_token t = one("0f3F80");
	cr_assert_eq(t.kind, PX_TK_ERROR);
	cr_assert_str_eq(t.err, "malformed number");
	cr_assert_eq(one("12abc").kind, PX_TK_ERROR);
	cr_assert_eq(one("0x").kind, PX_TK_ERROR);
	cr_assert_eq(one("089").kind, PX_TK_ERROR);
	TEXT_IS(one("12abc"), "12abc");
}

Test(lexer, comments_and_lines)
{
	struct px_token t[8];
	size_t n = lex_all("a // one\n/* two\n three */ b\n\n  c", t, 8);
	cr_assert_eq(n, 4);
	TEXT_IS(t[0], "a");
	cr_assert_eq(t[0].line, 1);
	TEXT_IS(t[1], "b");
	cr_assert_eq(t[1].line, 3);
	cr_assert_eq(t[1].col, 11);
	cr_assert(t[1].flags & PX_TKF_NEWLINE);
	TEXT_IS(t[2], "c");
	cr_assert_eq(t[2].line, 5);
	cr_assert_eq(t[2].col, 3);
	cr_assert_eq(t[3].kind, PX_TK_EOF);
}

Test(lexer, unterminated_comment_is_located_at_its_start)
{
	struct px_token t[4];
	lex_all("x\n  /* never\n closed", t, 4);
	cr_assert_eq(t[1].kind, PX_TK_ERROR);
	cr_assert_str_eq(t[1].err, "unterminated comment");
	cr_assert_eq(t[1].line, 2);
	cr_assert_eq(t[1].col, 3);
	cr_assert_eq(t[2].kind, PX_TK_EOF);
}

Test(lexer, strings)
{
	struct px_token t = one("\"a\\\"b\" x");
	cr_assert_eq(t.kind, PX_TK_STRING);
	TEXT_IS(t, "\"a\\\"b\"");
	t = one("\"open\nnext");
	cr_assert_eq(t.kind, PX_TK_ERROR);
	cr_assert_str_eq(t.err, "unterminated string");
}

Test(lexer, bad_bytes_and_embedded_nul)
{
	const char src[] = "a\0b #";
	struct px_lexer lx;
	px_lexer_init(&lx, src, sizeof src - 1);
	struct px_token t;
	px_lexer_next(&lx, &t);
	TEXT_IS(t, "a");
	px_lexer_next(&lx, &t);
	cr_assert_eq(t.kind, PX_TK_ERROR);
	cr_assert_eq(t.col, 2);
	char buf[32];
	cr_assert_str_eq(px_token_describe(&t, buf, sizeof buf), "byte 0x00");
	px_lexer_next(&lx, &t);
	TEXT_IS(t, "b");
	px_lexer_next(&lx, &t);
	cr_assert_eq(t.kind, PX_TK_ERROR);
	cr_assert_eq(t.col, 5);
	cr_assert_str_eq(px_token_describe(&t, buf, sizeof buf), "'#'");
	px_lexer_next(&lx, &t);
	cr_assert_eq(t.kind, PX_TK_EOF);
	px_lexer_next(&lx, &t);
	cr_assert_eq(t.kind, PX_TK_EOF);
}

Test(lexer, describe_truncates_long_tokens)
{
	char buf[64];
	struct px_token t = one("a_very_long_identifier_that_goes_on_and_on");
	cr_assert_str_eq(px_token_describe(&t, buf, sizeof buf), "'a_very_long_identifier_that_goes...'");
	t = one("");
	cr_assert_str_eq(px_token_describe(&t, buf, sizeof buf), "end of input");
}

Test(lexer, skip_block_ignores_braces_in_strings_and_comments)
{
	const char *src = "{\n.b8 1,2 // }\n\"}\" /* }\n */ $L: .b32 3\n}\nafter";
	struct px_lexer lx;
	px_lexer_init(&lx, src, strlen(src));
	struct px_token t;
	px_lexer_next(&lx, &t);
	cr_assert_eq(t.ch, '{');
	cr_assert(px_lexer_skip_block(&lx));
	px_lexer_next(&lx, &t);
	TEXT_IS(t, "after");
	cr_assert_eq(t.line, 6);
	cr_assert_eq(t.col, 1);
	px_lexer_init(&lx, "{ .b8 1, 2", 10);
	px_lexer_next(&lx, &t);
	cr_assert_not(px_lexer_skip_block(&lx));
}
