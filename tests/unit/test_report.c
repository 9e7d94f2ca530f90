/* test_report.c: the pieces of `ptxray report` that need no parser: reading
 * ptxas -v output, the JSON writer, demangling, the public API's errors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "ptxray.h"
#include "report.h"

/* Verbatim ptxas 13.0 output for a file with one .func and two kernels. */
static const char ptxas_out[] =
	"ptxas info    : 0 bytes gmem\n"
	"ptxas info    : Function properties for helper\n"
	"    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
	"ptxas info    : Compiling entry function '_Z1kPfPKfi' for 'sm_90'\n"
	"ptxas info    : Function properties for _Z1kPfPKfi\n"
	"    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
	"ptxas info    : Used 10 registers, used 1 barriers, 1024 bytes smem\n"
	"ptxas info    : Compile time = 24.723 ms\n"
	"ptxas info    : Compiling entry function 'k2' for 'sm_80'\n"
	"ptxas info    : Function properties for k2\n"
	"    40 bytes stack frame, 36 bytes spill stores, 32 bytes spill loads\n"
	"ptxas info    : Used 255 registers, used 0 barriers, 352 bytes cmem[0]\n"
	"ptxas warning : some future message we do not know\n";

Test(ptxas, parses_kernels_and_functions)
{
	struct px_ptxas_result r = {0};
	px_ptxas_parse(ptxas_out, &r);
	cr_assert_eq(r.n, 3);
	const struct px_ptxas_kernel *k = px_ptxas_find(&r, px_str_c("_Z1kPfPKfi"));
	cr_assert_not_null(k);
	cr_assert(k->have_regs && k->have_frame);
	cr_assert_eq(k->registers, 10);
	cr_assert_eq(k->barriers, 1);
	cr_assert_eq(k->smem_bytes, 1024);
	cr_assert_eq(k->stack_bytes, 0);
	const struct px_ptxas_kernel *k2 = px_ptxas_find(&r, px_str_c("k2"));
	cr_assert_not_null(k2);
	cr_assert_eq(k2->registers, 255);
	cr_assert_eq(k2->smem_bytes, 0);
	cr_assert_eq(k2->stack_bytes, 40);
	cr_assert_eq(k2->spill_store_bytes, 36);
	cr_assert_eq(k2->spill_load_bytes, 32);
	const struct px_ptxas_kernel *h = px_ptxas_find(&r, px_str_c("helper"));
	cr_assert_not_null(h);
	cr_assert(!h->have_regs);
	cr_assert_eq(h->spill_store_bytes, 8);
	cr_assert_null(px_ptxas_find(&r, px_str_c("nope")));
	px_ptxas_result_free(&r);
}

Test(ptxas, garbage_is_ignored)
{
	static const char *inputs[] = {
		"", "\n\n", "Used registers", "Compiling entry function '",
		"Compiling entry function 'x' for\nUsed 99999999999999 registers\n",
		"Function properties for \n bytes stack frame",
	};
	for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
		struct px_ptxas_result r = {0};
		px_ptxas_parse(inputs[i], &r);
		for (size_t k = 0; k < r.n; k++)
			cr_assert(!r.kernels[k].have_regs || r.kernels[k].registers < 100000);
		px_ptxas_result_free(&r);
	}
}

Test(json, escapes_and_nesting)
{
	struct px_buf b = {0};
	struct px_json j = {.out = &b};
	px_json_begin_object(&j);
	px_json_key(&j, "s");
	px_json_string(&j, "a\"b\\c\n\x01");
	px_json_key(&j, "a");
	px_json_begin_array(&j);
	px_json_uint(&j, 1);
	px_json_int(&j, -2);
	px_json_null(&j);
	px_json_begin_object(&j);
	px_json_end_object(&j);
	px_json_bool(&j, true);
	px_json_end_array(&j);
	px_json_key(&j, "d");
	px_json_double(&j, 0.5);
	px_json_end_object(&j);
	cr_assert_str_eq(b.p, "{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"a\":[1,-2,null,{},true],\"d\":0.5}");
	px_buf_free(&b);
}

/* Keys: a plain key is written in one piece, a key that needs escapes the
 * long way; both with the separators of compact and pretty output. */
Test(json, keys_plain_and_escaped)
{
	for (int pretty = 0; pretty < 2; pretty++) {
		struct px_buf b = {0};
		struct px_json j = {.out = &b, .pretty = pretty};
		px_json_begin_object(&j);
		px_json_key(&j, "sectors_per_request");
		px_json_uint(&j, 4);
		px_json_key(&j, "q\"k\\");
		px_json_null(&j);
		px_json_key(&j, "");
		px_json_begin_array(&j);
		px_json_end_array(&j);
		px_json_end_object(&j);
		cr_assert_str_eq(b.p, pretty ? "{\"sectors_per_request\": 4, \"q\\\"k\\\\\": null, \"\": []}"
		                              : "{\"sectors_per_request\":4,\"q\\\"k\\\\\":null,\"\":[]}");
		px_buf_free(&b);
	}
}

/* The escape scan looks at 8 bytes at a time: every byte value at every
 * position of a 21-byte string (2 words and a tail), among plain ASCII or
 * UTF-8 bytes, escapes exactly as a byte-by-byte reference does. */
Test(json, escapes_every_byte_anywhere)
{
	for (unsigned c = 1; c < 256; c++)
		for (size_t pos = 0; pos < 21; pos++)
			for (int fill = 0; fill < 2; fill++) {
				char s[22], want[64];
				for (size_t i = 0; i < 21; i++)
					s[i] = fill ? (char)0xc3 : 'x';
				s[pos] = (char)c;
				s[21] = 0;
				size_t n = 0;
				want[n++] = '"';
				for (size_t i = 0; i < 21; i++) {
					unsigned char x = (unsigned char)s[i];
					if (x == '"' || x == '\\') {
						want[n++] = '\\';
						want[n++] = (char)x;
					} else if (x == '\n') {
						n += (size_t)sprintf(want + n, "\\n");
					} else if (x == '\t') {
						n += (size_t)sprintf(want + n, "\\t");
					} else if (x == '\r') {
						n += (size_t)sprintf(want + n, "\\r");
					} else if (x < 0x20) {
						n += (size_t)sprintf(want + n, "\\u%04x", x);
					} else {
						want[n++] = (char)x;
					}
				}
				want[n++] = '"';
				want[n] = 0;
				struct px_buf b = {0};
				struct px_json j = {.out = &b};
				px_json_string(&j, s);
				cr_assert_str_eq(b.p, want, "byte 0x%02x at %zu", c, pos);
				px_buf_free(&b);
			}
}

Test(demangle, itanium_names)
{
	char *d = px_demangle(px_str_c("_Z6reducePfS_i"));
	cr_assert_str_eq(d, "reduce(float*, float*, int)");
	free(d);
	cr_assert_null(px_demangle(px_str_c("plain_c_kernel")));
	cr_assert_null(px_demangle(px_str_c("_Z")));
}

Test(api, invalid_ptx_gives_located_errors)
{
	static const char bad[] = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(\n";
	char *errors = NULL;
	ptxray_report *r = ptxray_report_new("bad.ptx", bad, sizeof bad - 1, NULL, &errors);
	cr_assert_null(r);
	cr_assert_not_null(errors);
	cr_assert(strncmp(errors, "bad.ptx:", 8) == 0, "got: %s", errors);
	cr_assert_not_null(strstr(errors, ": error: "));
	free(errors);
}

Test(api, kernels_and_json)
{
	static const char ok[] =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".shared .align 4 .b8 s[100];\n"
		".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
		"\t.reg .b32 %r<3>;\n\tmov.u32 %r1, s;\n\tst.shared.u32 [%r1], %r1;\n\tret;\n}\n";
	char *errors = NULL;
	ptxray_report *r = ptxray_report_new("ok.ptx", ok, sizeof ok - 1, NULL, &errors);
	cr_assert_not_null(r, "errors: %s", errors ? errors : "");
	cr_assert_eq(ptxray_report_kernel_count(r), 1);
	cr_assert_str_eq(ptxray_report_kernel_name(r, 0), "k");
	char *json = ptxray_report_json(r);
	cr_assert_not_null(strstr(json, "\"shared_static_bytes\": 100"), "%s", json);
	cr_assert_not_null(strstr(json, "\"param_bytes\": 12"), "%s", json);
	cr_assert_not_null(strstr(json, "\"from\": \"default\""), "%s", json);
	free(json);
	free(errors);
	ptxray_report_delete(r);
}

/* Regression (found by fuzz_ptxas): the kernel array grows while a kernel's
 * lines are being read; the reader must not keep pointers into it. */
Test(ptxas, many_kernels_grow_the_array)
{
	struct px_buf b = {0};
	for (int i = 0; i < 40; i++) {
		px_buf_printf(&b, "ptxas info    : Compiling entry function 'k%d' for 'sm_90'\n", i);
		px_buf_printf(&b, "ptxas info    : Function properties for k%d\n", i);
		px_buf_printf(&b, "    %d bytes stack frame, %d bytes spill stores, 0 bytes spill loads\n", i, i * 2);
		px_buf_printf(&b, "ptxas info    : Used %d registers, used 0 barriers, %d bytes smem\n", 10 + i, i * 16);
	}
	struct px_ptxas_result r = {0};
	px_ptxas_parse(b.p, &r);
	cr_assert_eq(r.n, 40);
	for (int i = 0; i < 40; i++) {
		char name[16];
		snprintf(name, sizeof name, "k%d", i);
		const struct px_ptxas_kernel *k = px_ptxas_find(&r, px_str_c(name));
		cr_assert_not_null(k);
		cr_assert_eq(k->registers, (uint32_t)(10 + i));
		cr_assert_eq(k->smem_bytes, (uint32_t)(i * 16));
		cr_assert_eq(k->stack_bytes, (uint32_t)i);
		cr_assert_eq(k->spill_store_bytes, (uint32_t)(i * 2));
	}
	px_ptxas_result_free(&r);
	px_buf_free(&b);
}

/* px_arena_printf formats short texts through a stack buffer and longer
 * ones (over 511 bytes) straight into the arena: both come out whole. */
Test(arena, printf_short_and_long)
{
	struct px_arena *a = px_arena_new();
	char *s = px_arena_printf(a, "depends on %s via %%r%d", "%tid.x", 4);
	cr_assert_str_eq(s, "depends on %tid.x via %r4");
	char want[2001];
	for (int n = 505; n <= 520; n++) {
		memset(want, 'q', (size_t)n);
		want[n] = 0;
		char *t = px_arena_printf(a, "%s", want);
		cr_assert_str_eq(t, want, "length %d", n);
	}
	memset(want, 'z', 2000);
	want[2000] = 0;
	cr_assert_str_eq(px_arena_printf(a, "%.1000s%s", want, want + 1000), want);
	cr_assert_str_eq(s, "depends on %tid.x via %r4");  /* untouched by the later ones */
	px_arena_delete(a);
}
