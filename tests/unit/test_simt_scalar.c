/* test_simt_scalar.c: the interpreter's instructions on values against
 * the GPU: 32-, 64- and 16-bit integer and floating-point arithmetic and
 * conversions (the 8-bit floats, tf32 and packing among them), loads and
 * stores of every width, carry chains, the warp-wide ones (shfl, vote,
 * match, redux, elect) and the atomics.
 *
 * tests/fixtures/simt/scalar/scalar_ops.txt is the output of
 * bench/gpu/simt/scalar_ops.cu: for each PTX form a header
 * "= FORM SIG BODY" (BODY the inline-asm text, %0 the result, %1..%3 the
 * operands; SIG "D:ABC", the widths) and 256 lines "a b c result" (hex).
 * For each form this test writes a kernel (kernel_text) in which lane l
 * of a warp runs operand set 32 g + l, as GPU thread 32 g + l did, and
 * compares the results with the GPU's: a 32-bit half that differs is
 * stored to shared memory at 2^32 + the interpreter's value as the byte
 * offset, past what the kernel declares, so the simulator's
 * shared-out-of-bounds report at that line tells the value (a result the
 * interpreter leaves unknown is noted at the line instead). The whole path
 * runs: parser, passes, decoding, sim_exec.
 *
 * Exact forms must match bit for bit. The .approx forms (the GPU's MUFU
 * unit, whose tables NVIDIA does not publish) are computed by the
 * interpreter from the C library's correctly rounded or nearly so
 * functions; for them this test measures the difference and holds it to
 * the bound listed in approx[] (ptxray-simt(1) quotes the same).
 *
 * The fixture grows by appending forms (scalar_ops.cu's header): update
 * the count of forms below with it. For a maintainer, PX_SCALAR_ALL=1 logs
 * every differing result (not the first four of a form), PX_SCALAR_WORST=1
 * the worst differences of the .approx forms (approx[]'s figures); both
 * show with --verbose. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "simt/simt.h"

#define FIXTURE "tests/fixtures/simt/scalar/scalar_ops.txt"

struct opset {
	uint64_t a, b, c, r;
};

struct form {
	char name[48], sig[8], body[256];
	struct opset *v;
	uint32_t n, cap;
};

struct forms {
	struct form *f;
	uint32_t n, cap;
};

static void load(struct forms *fs)
{
	FILE *fp = fopen(FIXTURE, "r");
	cr_assert(fp, "cannot open %s", FIXTURE);
	char line[512];
	memset(fs, 0, sizeof *fs);
	while (fgets(line, sizeof line, fp)) {
		if (line[0] == '#')
			continue;
		if (line[0] == '=') {
			if (fs->n == fs->cap) {
				fs->cap = fs->cap ? fs->cap * 2 : 64;
				fs->f = realloc(fs->f, fs->cap * sizeof *fs->f);
			}
			struct form *f = &fs->f[fs->n++];
			memset(f, 0, sizeof *f);
			int used = 0;
			cr_assert_eq(sscanf(line, "= %47s %7s %n", f->name, f->sig, &used), 2, "bad header: %s", line);
			snprintf(f->body, sizeof f->body, "%s", line + used);
			f->body[strcspn(f->body, "\n")] = 0;
			continue;
		}
		cr_assert(fs->n > 0, "data before the first form");
		struct form *f = &fs->f[fs->n - 1];
		if (f->n == f->cap) {
			f->cap = f->cap ? f->cap * 2 : 256;
			f->v = realloc(f->v, f->cap * sizeof *f->v);
		}
		struct opset *s = &f->v[f->n++];
		unsigned long long a, b, c, r;
		cr_assert_eq(sscanf(line, "%llx %llx %llx %llx", &a, &b, &c, &r), 4, "bad line: %s", line);
		*s = (struct opset){a, b, c, r};
	}
	fclose(fp);
}

static void free_forms(struct forms *fs)
{
	for (uint32_t i = 0; i < fs->n; i++)
		free(fs->f[i].v);
	free(fs->f);
}

/* operand k's width (0 the result): 64 for the generators l, y, d */
static bool wide(const struct form *f, int k)
{
	if (k == 0)
		return f->sig[0] == 'l';
	size_t ng = strlen(f->sig) - 2;
	char g = (char)tolower(f->sig[2 + ((size_t)k - 1 < ng ? (size_t)k - 1 : ng - 1)]);
	return g == 'l' || g == 'y' || g == 'd' || g == 'n' || g == 'j';
}

struct buf {
	char *p;
	size_t n, cap;
	uint32_t line;   /* lines written */
};

static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
		va_end(ap);
		if ((size_t)k < b->cap - b->n) {
			for (int i = 0; i < k; i++)
				b->line += b->p[b->n + i] == '\n';
			b->n += (size_t)k;
			return;
		}
		b->cap = b->cap * 2 + (size_t)k + 1;
		b->p = realloc(b->p, b->cap);
	}
}

/* The register of operand k (0 the result); 4 and 5: the lane's slots of
 * global and shared memory (generic addresses; lane_ops.cu's atomics). */
static const char *reg(const struct form *f, int k)
{
	static const char *const r32[] = {"%r4", "%r1", "%r2", "%r3"}, *const r64[] = {"%rd4", "%rd1", "%rd2", "%rd3"};
	if (k >= 4)
		return k == 4 ? "%rd5" : "%rd6";
	return wide(f, k) ? r64[k] : r32[k];
}

/* The kernel for form f, one warp: the operand sets go in groups of 32,
 * set 32 g + l to lane l (the GPU ran them so: threads of one warp), which
 * lane 0 stages in shared memory and each lane loads; the results go to
 * shared memory, and every lane checks each of the group's against the
 * GPU's. line_of[2 i + h] gets the line of operand set i's check of result
 * half h (h 1: the upper 32 bits of a 64-bit one). Shared memory: the
 * operands (3 x 8 bytes a lane) at 0, the results at 768, the lanes'
 * slots at 1024; a check reports at 2^32 + the value, past it all. */
static char *kernel_text(const struct form *f, uint32_t *line_of, size_t *len)
{
	struct buf b = {malloc(1 << 16), 0, 1 << 16, 1};
	put(&b, ".version 8.0\n.target sm_90\n.address_size 64\n\n.global .align 8 .b8 gslot[256];\n\n"
	        ".visible .entry k()\n{\n\t.reg .b32 %%r<12>;\n\t.reg .b64 %%rd<12>;\n\t.reg .pred %%p<2>;\n"
	        "\t.shared .align 8 .b8 area[1280];\n"
	        "\tmov.u32 %%r10, %%laneid;\n\tsetp.eq.u32 %%p0, %%r10, 0;\n\tmov.u64 %%rd7, area;\n"
	        "\tmul.wide.u32 %%rd10, %%r10, 24;\n\tadd.u64 %%rd10, %%rd10, %%rd7;\n"
	        "\tmul.wide.u32 %%rd8, %%r10, 8;\n\tadd.u64 %%rd11, %%rd8, %%rd7;\n\tadd.u64 %%rd11, %%rd11, 768;\n"
	        "\tadd.u64 %%rd6, %%rd11, 256;\n\tcvta.shared.u64 %%rd6, %%rd6;\n"
	        "\tmov.u64 %%rd5, gslot;\n\tadd.u64 %%rd5, %%rd5, %%rd8;\n\tcvta.global.u64 %%rd5, %%rd5;\n");
	for (uint32_t g = 0; g < f->n; g += 32) {
		uint32_t n = f->n - g < 32 ? f->n - g : 32;
		put(&b, "\tbar.warp.sync -1;\n");
		for (uint32_t l = 0; l < n; l++) {
			const struct opset *s = &f->v[g + l];
			uint64_t src[3] = {s->a, s->b, s->c};
			for (int k = 1; k <= 3; k++)
				put(&b, "\t@%%p0 st.shared.b%d [area+%u], 0x%llx;\n", wide(f, k) ? 64 : 32, (l * 3 + (unsigned)k - 1) * 8,
				    (unsigned long long)src[k - 1]);
		}
		put(&b, "\tbar.warp.sync -1;\n");
		for (int k = 1; k <= 3; k++)
			put(&b, "\tld.shared.b%d %s, [%%rd10+%d];\n", wide(f, k) ? 64 : 32, reg(f, k), (k - 1) * 8);
		put(&b, "\t");
		for (const char *p = f->body; *p; p++) {
			if (p[0] == '%' && p[1] >= '0' && p[1] <= '5') {
				put(&b, "%s", reg(f, p[1] - '0'));
				p++;
			} else {
				put(&b, "%c", *p == '%' ? '%' : *p);
			}
		}
		put(&b, "\n\tst.shared.b%d [%%rd11], %s;\n\tbar.warp.sync -1;\n", wide(f, 0) ? 64 : 32, reg(f, 0));
		for (uint32_t l = 0; l < n; l++)
			for (uint32_t h = 0; h < (wide(f, 0) ? 2u : 1u); h++) {
				put(&b, "\tld.shared.b32 %%r8, [area+%u];\n\tsetp.ne.b32 %%p1, %%r8, 0x%x;\n"
				        "\tcvt.u64.u32 %%rd9, %%r8;\n\tadd.u64 %%rd9, %%rd9, 0x100000000;\n",
				    768 + l * 8 + h * 4, (unsigned)(f->v[g + l].r >> (32 * h)));
				line_of[2 * (g + l) + h] = b.line;
				put(&b, "\t@%%p1 st.shared.u8 [%%rd9], 0;\n");
			}
	}
	put(&b, "\tret;\n}\n");
	*len = b.n;
	return b.p;
}

/* Runs form f through the interpreter: model[i] its result for operand
 * set i, unknown[i] whether it left the result unknown. */
static void simulate(const struct px_arch *arch, const struct form *f, uint64_t *model, bool *unknown)
{
	uint32_t *line_of = calloc(2 * (size_t)f->n, sizeof *line_of);
	size_t len;
	char *text = kernel_text(f, line_of, &len);
	const char *kernels[] = {"k", NULL};
	struct px_simt_options opt = {0};
	opt.kernels = kernels;
	opt.block[0] = 32;
	opt.arch = arch;
	struct px_simt_result res = {0};
	struct px_diags diags = {0};
	bool ok = px_simt_file(f->name, text, len, &opt, &res, &diags);
	for (size_t i = 0; i < diags.n && !ok; i++)
		cr_log_error("%s:%u: %s", f->name, diags.items[i].line, diags.items[i].message);
	cr_assert(ok && res.completed, "%s: the simulation failed", f->name);
	/* a line's operand set and half: lines grow with i */
	for (uint32_t i = 0; i < f->n; i++) {
		model[i] = f->v[i].r;
		unknown[i] = false;
	}
	for (uint32_t k = 0; k < 2 * f->n; k++) {
		if (!line_of[k])
			continue;
		uint32_t i = k / 2, h = k % 2;
		for (uint32_t v = 0; v < res.nviol; v++) {
			const struct px_simt_violation *x = &res.viol[v];
			if (x->line != line_of[k])
				continue;
			const char *at = strstr(x->message, "byte offset ");
			cr_assert(x->kind == PX_V_SHARED_OOB && at, "%s: unexpected report: %s", f->name, x->message);
			unsigned long long off = strtoull(at + 12, NULL, 10);
			cr_assert(off >= 1ull << 32 && off < 2ull << 32, "%s: report at %llu", f->name, off);
			model[i] = (model[i] & ~(0xffffffffull << (32 * h))) | (uint64_t)(off - (1ull << 32)) << (32 * h);
		}
		char tag[32];
		snprintf(tag, sizeof tag, "line %u: ", line_of[k]);
		for (uint32_t n = 0; n < res.nnotes; n++)
			if (!strncmp(res.notes[n], tag, strlen(tag)))
				unknown[i] = true;
	}
	px_simt_result_free(&res);
	px_diags_free(&diags);
	free(line_of);
}


/* f32/f64 bits in an order that follows the values (-0 next to +0) */
static int64_t ordered(uint64_t u, bool dbl)
{
	uint64_t sign = dbl ? 1ull << 63 : 1ull << 31;
	uint64_t mag = u & (sign - 1);
	return u & sign ? -(int64_t)mag : (int64_t)mag;
}

static bool is_nan(uint64_t u, bool dbl)
{
	return dbl ? (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull : (u & 0x7fffffffu) > 0x7f800000u;
}

/* The distance of x from y in units in the last place (0 for two NaNs;
 * INT64_MAX when only one is a NaN). */
static int64_t ulps(uint64_t x, uint64_t y, bool dbl)
{
	if (is_nan(x, dbl) || is_nan(y, dbl))
		return is_nan(x, dbl) && is_nan(y, dbl) ? 0 : INT64_MAX;
	int64_t d = ordered(x, dbl) - ordered(y, dbl);
	return d < 0 ? -d : d;
}

/* The .approx forms (and div.full), with the measured bounds on the
 * difference between the interpreter and the GPU (the worst over the
 * fixture's 256 operand sets, rounded up; ptxray-simt(1) quotes them): a
 * result is within them when it is within any one of them: in units in
 * the last place (ulp), as an absolute difference (abs: sin, cos and lg2,
 * whose PTX ISA accuracy is absolute too, near 0), or relative to the
 * GPU's value (rel); -1: not used. A NaN, an infinity or a zero must be
 * one on both sides (but for a zero within abs). */
static const struct approx {
	const char *form;
	double ulp, abs, rel;
	bool half;   /* 16-bit elements (one, or two in a 32-bit result), in their own ulps */
} approx[] = {
	{"div.approx.f32", 1, -1, -1, false},
	{"div.full.f32", 1, -1, -1, false},
	{"rcp.approx.f32", 1, -1, -1, false},
	{"rcp.approx.ftz.f32", 1, -1, -1, false},
	{"sqrt.approx.f32", 1, -1, -1, false},
	{"rsqrt.approx.f32", 2, -1, -1, false},
	{"sin.approx.f32", -1, 0x1p-21, -1, false},
	{"cos.approx.f32", -1, 0x1p-21, -1, false},
	{"ex2.approx.f32", 2, -1, -1, false},
	{"ex2.approx.ftz.f32", 1, -1, -1, false},
	{"lg2.approx.f32", 1, 0x1p-22, -1, false},
	{"tanh.approx.f32", 128, -1, -1, false},
	{"rcp.approx.ftz.f64", -1, -1, 0x1p-20, false},
	{"rsqrt.approx.f64", 1, -1, -1, false},
	{"ex2.approx.f16", 1, -1, -1, true},
	{"ex2.approx.f16x2", 1, -1, -1, true},
	{"ex2.approx.ftz.bf16x2", 1, -1, -1, true},
	{"tanh.approx.f16", 1, -1, -1, true},
	{"tanh.approx.f16x2", 1, -1, -1, true},
	{"tanh.approx.bf16", 1, -1, -1, true},
};

/* Whether 16-bit float elements m and g (f16 or bf16: the all-ones
 * exponent's field is 0x7c00 or 0x7f80) are within ulp units of each
 * other, both NaNs, or the same infinity. */
static bool half_within(uint32_t m, uint32_t g, bool bf, double ulp)
{
	uint32_t e = bf ? 0x7f80 : 0x7c00;
	bool mn = (m & 0x7fff) > e, gn = (g & 0x7fff) > e, mi = (m & 0x7fff) == e, gi = (g & 0x7fff) == e;
	if (mn || gn || mi || gi)
		return (mn && gn) || m == g;
	int32_t om = m & 0x8000 ? -(int32_t)(m & 0x7fff) : (int32_t)m, og = g & 0x8000 ? -(int32_t)(g & 0x7fff) : (int32_t)g;
	return abs(om - og) <= ulp;
}

static double value(uint64_t u, bool dbl)
{
	if (dbl) {
		double d;
		memcpy(&d, &u, 8);
		return d;
	}
	uint32_t w = (uint32_t)u;
	float f;
	memcpy(&f, &w, 4);
	return f;
}

/* Whether the interpreter leaves form f's result for operand set v
 * unknown on purpose: integer division by zero and -2^63 / -1 (the PTX
 * ISA leaves them unspecified), abs.s16/neg.s16 of -32768 (ptxas's code gives +32768,
 * which a widening cvt shows). */
static bool unknown_on_purpose(const struct form *f, const struct opset *v)
{
	const char *t = strrchr(f->name, '.') + 1;   /* the type */
	if ((!strncmp(f->name, "div.", 4) || !strncmp(f->name, "rem.", 4)) && (t[0] == 's' || t[0] == 'u')) {
		int bits = atoi(t + 1);
		if (t[0] == 's' && bits == 64 && v->a == 1ull << 63 && v->b == ~0ull)
			return true;   /* -2^63 / -1 */
		return (v->b & (bits >= 64 ? ~0ull : (1ull << bits) - 1)) == 0;
	}
	if (!strcmp(f->name, "abs.s16") || !strcmp(f->name, "neg.s16"))
		return (v->a & 0xffff) == 0x8000;
	return false;
}

/* Whether model m is within ap's bounds of GPU g. */
static bool within(const struct approx *ap, uint64_t m, uint64_t g, bool dbl)
{
	if (ap->half) {
		bool bf = strstr(ap->form, "bf16") != NULL;
		return half_within((uint32_t)m & 0xffff, (uint32_t)g & 0xffff, bf, ap->ulp) &&
		       half_within((uint32_t)(m >> 16) & 0xffff, (uint32_t)(g >> 16) & 0xffff, bf, ap->ulp);
	}
	double x = value(m, dbl), y = value(g, dbl), d = fabs(x - y);
	if ((x != x) != (y != y) || (isinf(x) && x != y) || (isinf(y) && x != y))
		return false;
	if (x != x || (ap->abs >= 0 && d <= ap->abs))
		return true;
	if ((x == 0) != (y == 0))
		return false;
	return (ap->ulp >= 0 && (double)ulps(m, g, dbl) <= ap->ulp) || (ap->rel >= 0 && d <= ap->rel * fabs(y));
}

Test(simt_scalar, against_h100, .timeout = 120)
{
	struct forms fs;
	load(&fs);
	cr_assert_eq(fs.n, 413);
	struct px_diags diags = {0};
	struct px_archset *archs = px_archset_new(&diags);
	const struct px_arch *arch = archs ? px_archset_find(archs, "sm_90") : NULL;
	cr_assert(arch);
	uint32_t failed = 0, results = 0, exact = 0;
	for (uint32_t fi = 0; fi < fs.n; fi++) {
		const struct form *f = &fs.f[fi];
		cr_assert_eq(f->n, 256, "%s: %u operand sets", f->name, f->n);
		const struct approx *ap = NULL;
		for (size_t k = 0; k < sizeof approx / sizeof *approx; k++)
			if (!strcmp(approx[k].form, f->name))
				ap = &approx[k];
		uint64_t *model = calloc(f->n, sizeof *model);
		bool *unk = calloc(f->n, sizeof *unk);
		simulate(arch, f, model, unk);
		uint32_t bad = 0, nunk = 0;
		bool dbl = f->sig[0] == 'l';
		double worst[3] = {0, 0, 0};   /* ulp, abs, rel: the bounds' figures (PX_SCALAR_WORST=1 logs them) */
		for (uint32_t i = 0; i < f->n; i++) {
			results++;
			if (unk[i] != unknown_on_purpose(f, &f->v[i])) {
				if (unk[i])
					nunk++;
				else if (bad++ < 4)
					cr_log_error("%s %llx %llx %llx: known (%llx), expected unknown", f->name,
					             (unsigned long long)f->v[i].a, (unsigned long long)f->v[i].b,
					             (unsigned long long)f->v[i].c, (unsigned long long)model[i]);
				continue;
			}
			if (unk[i]) {
				exact++;   /* (unknown, as it should be) */
				continue;
			}
			if (model[i] == f->v[i].r) {
				exact++;
				continue;
			}
			if (ap) {
				double x = value(model[i], dbl), y = value(f->v[i].r, dbl), d = fabs(x - y);
				if (x == x && y == y && !ap->half) {
					worst[0] = fmax(worst[0], (double)ulps(model[i], f->v[i].r, dbl));
					worst[1] = fmax(worst[1], d);
					worst[2] = fmax(worst[2], y ? d / fabs(y) : INFINITY);
				}
				if (within(ap, model[i], f->v[i].r, dbl))
					continue;
			}
			if (bad++ < (getenv("PX_SCALAR_ALL") ? ~0u : 4u))
				cr_log_error("%s %llx %llx %llx: GPU %llx, interpreter %llx", f->name,
				             (unsigned long long)f->v[i].a, (unsigned long long)f->v[i].b,
				             (unsigned long long)f->v[i].c, (unsigned long long)f->v[i].r,
				             (unsigned long long)model[i]);
		}
		if (ap && getenv("PX_SCALAR_WORST"))
			cr_log_info("%s: worst %g ulp, %a absolute, %a relative", f->name, worst[0], worst[1], worst[2]);
		if (bad || nunk) {
			cr_log_error("%s: %u of %u results differ from the GPU's%s, %u unknown", f->name, bad, f->n,
			             ap ? " beyond the bound" : "", nunk);
			failed++;
		}
		free(model);
		free(unk);
	}
	px_archset_delete(archs);
	px_diags_free(&diags);
	free_forms(&fs);
	cr_assert_eq(failed, 0, "%u of %u forms differ from the GPU (%u of %u results bit for bit)", failed, fs.n,
	             exact, results);
}

/* The harness itself: a wrong expected result comes back as the
 * interpreter's value (both halves of a 64-bit one), an unknown as unknown. */
Test(simt_scalar, harness_reports_values)
{
	struct px_diags diags = {0};
	struct px_archset *archs = px_archset_new(&diags);
	const struct px_arch *arch = archs ? px_archset_find(archs, "sm_90") : NULL;
	cr_assert(arch);
	struct opset v[3] = {{5, 7, 0, 12}, {5, 7, 0, 13}, {0xffffffff, 1, 0, 0}};
	struct form f = {.name = "add.s32", .sig = "r:iii", .body = "add.s32 %0, %1, %2;", .v = v, .n = 3};
	uint64_t model[3];
	bool unk[3];
	simulate(arch, &f, model, unk);
	cr_assert_eq(model[0], 12);
	cr_assert_eq(model[1], 12);   /* expected 13: the report gives the interpreter's 12 */
	cr_assert_eq(model[2], 0);
	cr_assert(!unk[0] && !unk[1] && !unk[2]);
	struct opset w[1] = {{0x100000000ull, 0x100000001ull, 0, 0}};
	struct form g = {.name = "add.s64", .sig = "l:lll", .body = "add.s64 %0, %1, %2;", .v = w, .n = 1};
	simulate(arch, &g, model, unk);
	cr_assert_eq(model[0], 0x200000001ull);
	struct opset z[1] = {{9, 0, 0, 0}};
	struct form h = {.name = "div.u32", .sig = "r:iii", .body = "div.u32 %0, %1, %2;", .v = z, .n = 1};
	simulate(arch, &h, model, unk);
	cr_assert(unk[0], "division by zero: unknown");
	px_archset_delete(archs);
	px_diags_free(&diags);
}
