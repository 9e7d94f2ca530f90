/* test_simt_half.c: the interpreter's 16-bit floating-point formats and
 * integer dot products (analyzer/simt/simt_half.c) against the H100, bit
 * for bit: tests/fixtures/simt/half/half_ops.txt is the output of
 * bench/gpu/simt/half_ops.cu (63 PTX forms, 512 operand sets each; a line
 * is "form a b c result" in hex words). Each form is recomputed here from
 * the same building blocks simt_exec.c uses for it. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../analyzer/simt/simt_int.h"

static bool has(const char *form, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(form, word); p; p = strstr(p + 1, word))
		if ((p[n] == '.' || p[n] == 0) && p[-1] == '.')
			return true;
	return false;
}

static bool cmp(const char *form, double x, double y)
{
	bool un = x != x || y != y;
	if (has(form, "lt")) return !un && x < y;
	if (has(form, "le")) return !un && x <= y;
	if (has(form, "eq")) return !un && x == y;
	if (has(form, "gtu")) return un || x > y;
	if (has(form, "nan")) return un;
	cr_assert_fail("no comparison in %s", form);
	return false;
}

static uint32_t f32_word(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static float word_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* what the interpreter computes for one line */
static uint32_t model(const char *form, uint32_t a, uint32_t b, uint32_t c, bool *skip)
{
	*skip = false;
	unsigned fmt = strstr(form, "bf16") ? SIM_HF_BF16 : SIM_HF_F16;
	bool x2 = strstr(form, "x2") != NULL;
	if (!strncmp(form, "dp4a.", 5) || !strncmp(form, "dp2a.", 5)) {
		const char *t = form + 5 + (form[2] == '2' ? 3 : 0);   /* atype.btype */
		return sim_dot(form[2] == '4' ? PX_OP_DP4A : PX_OP_DP2A, t[0] == 's', t[4] == 's', has(form, "hi"), a, b,
		               c);
	}
	if (!strncmp(form, "setp.", 5)) {
		if (x2)
			return (uint32_t)cmp(form, sim_half_value((uint16_t)a, fmt), sim_half_value((uint16_t)b, fmt)) |
			       (uint32_t)cmp(form, sim_half_value((uint16_t)(a >> 16), fmt),
			                     sim_half_value((uint16_t)(b >> 16), fmt)) << 1;
		/* half_ops.cu's 16-bit forms compare b's upper half with its lower */
		return cmp(form, sim_half_value((uint16_t)(b >> 16), fmt), sim_half_value((uint16_t)b, fmt));
	}
	if (!strncmp(form, "cvt.", 4)) {
		unsigned rnd = has(form, "rz") ? 1 : has(form, "rm") ? 2 : has(form, "rp") ? 3 : 0;
		if (!strcmp(form, "cvt.f32.f16"))
			return isnan(sim_half_value((uint16_t)a, fmt)) ? 0x7fffffffu : f32_word((float)sim_half_value((uint16_t)a, fmt));
		if (!strcmp(form, "cvt.f32.bf16"))
			return (a & 0xffff) << 16;
		if (!strcmp(form, "cvt.f64.f16")) {
			/* then cvt.rn.f32.f64, which keeps a NaN's upper payload bits (as x86 does) */
			uint64_t u = sim_half_f64_bits((uint16_t)a, fmt);
			double d;
			memcpy(&d, &u, sizeof d);
			return f32_word((float)d);
		}
		if (!strcmp(form, "cvt.rzi.s32.f16")) {
			double v = trunc(sim_half_value((uint16_t)a, fmt));
			return v != v ? 0 : v >= 2147483647.0 ? 0x7fffffffu : v <= -2147483648.0 ? 0x80000000u : (uint32_t)(int32_t)v;
		}
		if (!strcmp(form, "cvt.rn.f16.s32"))
			return sim_half_round(sim_int_odd((uint64_t)(int64_t)(int32_t)a, true), fmt, 0, false);
		/* from f32 */
		bool relu = has(form, "relu");
		uint32_t r = 0;
		for (int k = 0; k < (x2 ? 2 : 1); k++) {
			float f = word_f32(k == 0 ? a : b);
			uint16_t h = sim_half_round((double)f, fmt, rnd, false);
			if (relu && (h & 0x8000) && f == f)
				h = 0;
			r = x2 ? r | (uint32_t)h << (k == 0 ? 16 : 0) : h;
		}
		return r;
	}
	if (!strncmp(form, "atom.add.noftz.", 15)) {
		/* the word after the add (a 16-bit form adds to its low half) */
		bool unk = false;
		uint32_t r = sim_half_pair(PX_OP_ADD, fmt, 0, x2, a, b, 0, &unk);
		cr_assert(!unk);
		return x2 ? r : (a & 0xffff0000u) | r;
	}
	enum px_opcode op = !strncmp(form, "add.", 4) ? PX_OP_ADD : !strncmp(form, "sub.", 4) ? PX_OP_SUB
	                  : !strncmp(form, "mul.", 4) ? PX_OP_MUL : !strncmp(form, "fma.", 4) ? PX_OP_FMA
	                  : !strncmp(form, "neg.", 4) ? PX_OP_NEG : !strncmp(form, "abs.", 4) ? PX_OP_ABS
	                  : !strncmp(form, "min.", 4) ? PX_OP_MIN : !strncmp(form, "max.", 4) ? PX_OP_MAX : PX_OP_UNKNOWN;
	if (op == PX_OP_UNKNOWN) {
		*skip = true;
		return 0;
	}
	unsigned fl = (has(form, "ftz") ? SIM_HF_FTZ : 0) | (has(form, "sat") ? SIM_HF_SAT : 0) |
	              (has(form, "relu") ? SIM_HF_RELU : 0) | (has(form, "NaN") ? SIM_HF_NAN : 0);
	bool unk = false;
	uint32_t r = sim_half_pair(op, fmt, fl, x2, a, b, c, &unk);
	cr_assert(!unk, "%s: unknown", form);
	return r;
}

Test(simt_half, against_h100)
{
	FILE *fp = fopen("tests/fixtures/simt/half/half_ops.txt", "r");
	cr_assert(fp);
	char line[256], form[64], worst[64] = "";
	unsigned lines = 0, bad = 0, forms = 0;
	char last[64] = "";
	while (fgets(line, sizeof line, fp)) {
		unsigned a, b, c, r;
		if (line[0] == '#')
			continue;
		cr_assert_eq(sscanf(line, "%63s %x %x %x %x", form, &a, &b, &c, &r), 5, "bad line: %s", line);
		if (strcmp(form, last)) {
			forms++;
			snprintf(last, sizeof last, "%s", form);
		}
		bool skip;
		uint32_t m = model(form, a, b, c, &skip);
		cr_assert(!skip, "form not modelled: %s", form);
		lines++;
		if (m != r) {
			if (bad < 400)
				cr_log_error("%s %08x %08x %08x: GPU %08x, model %08x", form, a, b, c, r, m);
			snprintf(worst, sizeof worst, "%s", form);
			bad++;
		}
	}
	fclose(fp);
	cr_assert_eq(forms, 63);
	cr_assert_eq(lines, 63u * 512u);
	cr_assert_eq(bad, 0, "%u of %u results differ from the H100's (last: %s)", bad, lines, worst);
}

/* the ties and edges, by hand: rounding to nearest even at binary16's and
 * bfloat16's precision, overflow, subnormals */
Test(simt_half, rounding_edges)
{
	cr_assert_eq(sim_half_round(1.0, SIM_HF_F16, 0, false), 0x3c00);
	cr_assert_eq(sim_half_round(1.0 + ldexp(1, -11), SIM_HF_F16, 0, false), 0x3c00);      /* tie: even */
	cr_assert_eq(sim_half_round(1.0 + 3 * ldexp(1, -11), SIM_HF_F16, 0, false), 0x3c02);  /* tie: even, up */
	cr_assert_eq(sim_half_round(65504.0, SIM_HF_F16, 0, false), 0x7bff);
	cr_assert_eq(sim_half_round(65520.0, SIM_HF_F16, 0, false), 0x7c00);   /* half an ulp over: infinity */
	cr_assert_eq(sim_half_round(65520.0, SIM_HF_F16, 1, false), 0x7bff);   /* rz: the largest finite */
	cr_assert_eq(sim_half_round(65520.0, SIM_HF_F16, 0, true), 0x7bff);    /* satfinite */
	cr_assert_eq(sim_half_round(ldexp(1, -24), SIM_HF_F16, 0, false), 0x0001);
	cr_assert_eq(sim_half_round(ldexp(1, -25), SIM_HF_F16, 0, false), 0x0000);   /* tie: even (zero) */
	cr_assert_eq(sim_half_round(-ldexp(3, -26), SIM_HF_F16, 0, false), 0x8001);
	cr_assert_eq(sim_half_round(1.0 + ldexp(1, -8), SIM_HF_BF16, 0, false), 0x3f80);
	cr_assert_eq(sim_half_round(NAN, SIM_HF_BF16, 0, false), 0x7fff);
	/* 2048 + 1 is a tie in binary16: it stays 2048 */
	bool unk = false;
	cr_assert_eq(sim_half_arith(PX_OP_ADD, SIM_HF_F16, 0, 0x6800, 0x3c00, 0, &unk), 0x6800);
	cr_assert_eq(sim_half_arith(PX_OP_ADD, SIM_HF_F16, 0, 0x67ff, 0x3c00, 0, &unk), 0x6800);
	cr_assert(!unk);
	cr_assert_eq(sim_dot(PX_OP_DP4A, true, true, false, 0xff02ff01, 0x01ff0203, 10), (uint32_t)(10 + 3 - 2 - 2 - 1));
}
