/* simt_half.c: the 16-bit floating-point formats as the GPU computes them,
 * IEEE binary16 (.f16) and bfloat16 (.bf16), one value or two packed in a
 * 32-bit word (.f16x2, .bf16x2): arithmetic, comparisons, conversions; the
 * 8-bit .e4m3 and .e5m2, two to a 16-bit word, in conversions (the only
 * instructions on them but mma); and the integer dot products dp4a and
 * dp2a. Bit-exact against the H100:
 * tests/unit/test_simt_half.c replays bench/gpu/simt/half_ops.cu's 63
 * forms over 512 operand sets each (tests/fixtures/simt/half/).
 *
 * Method: a half's value is exact in a double. A product of two halves is
 * exact too (at most 22 significant bits); a sum is made exact enough by
 * rounding it to odd (the error of the double sum, found by Knuth's
 * two-sum, sets the last bit): a double rounded to odd has more than
 * p + 2 bits, so rounding it once more to the half's p bits gives the
 * correctly rounded result (Boldo and Melquiond, "Emulation of FMA and
 * correctly rounded sums: proved algorithms using rounding to odd", 2008).
 * Semantics from the PTX ISA 9.0, sections 9.7.4 (half precision
 * arithmetic: .ftz flushes subnormal inputs and results to sign-preserving
 * zero, .sat clamps to [0, 1] with NaN to +0, .relu clamps negative
 * results to +0 and NaN results to canonical NaN) and 9.7.9.21 (cvt); a
 * NaN result is the canonical NaN 0x7fff (both formats). */
#include <math.h>
#include <string.h>

#include "simt_int.h"

struct hf_fmt {
	int p;       /* significand bits, the hidden one counted */
	int emin;    /* exponent of the smallest normal */
	int emax;    /* exponent of the largest finite */
	int ebits;   /* exponent field */
	int bias;
	int width;   /* bits: 16, or 8 */
	bool noinf;  /* no infinities: the all-ones field with the all-ones significand is the NaN, the rest normal */
};
/* (the 8-bit formats: PTX ISA 9.0, section 5.2.5.1 "Alternate Floating
 * Point Data Formats": e4m3's largest value is 448, e5m2's 57344) */
static const struct hf_fmt formats[] = {
	[SIM_HF_F16] = {11, -14, 15, 5, 15, 16, false},
	[SIM_HF_BF16] = {8, -126, 127, 8, 127, 16, false},
	[SIM_HF_E4M3] = {4, -6, 8, 4, 7, 8, true},
	[SIM_HF_E5M2] = {3, -14, 15, 5, 15, 8, false},
};

unsigned sim_half_format(unsigned t, bool *x2)
{
	*x2 = t == PX_TYPE_F16X2 || t == PX_TYPE_BF16X2 || t == PX_TYPE_E4M3X2 || t == PX_TYPE_E5M2X2;
	switch (t) {
	case PX_TYPE_F16: case PX_TYPE_F16X2: return SIM_HF_F16;
	case PX_TYPE_BF16: case PX_TYPE_BF16X2: return SIM_HF_BF16;
	case PX_TYPE_E4M3: case PX_TYPE_E4M3X2: return SIM_HF_E4M3;
	case PX_TYPE_E5M2: case PX_TYPE_E5M2X2: return SIM_HF_E5M2;
	default: return SIM_HF_NONE;
	}
}

unsigned sim_half_width(unsigned fmt)
{
	return (unsigned)formats[fmt].width;
}

double sim_half_value(uint16_t h, unsigned fmt)
{
	const struct hf_fmt *f = &formats[fmt];
	int mbits = f->p - 1, bias = f->bias;
	unsigned e = (h >> mbits) & ((1u << f->ebits) - 1), m = h & ((1u << mbits) - 1);
	double sign = h >> (f->width - 1) & 1 ? -1.0 : 1.0;
	if (f->noinf && e == (1u << f->ebits) - 1 && m == (1u << mbits) - 1)
		return NAN;
	if (!f->noinf && e == (1u << f->ebits) - 1)
		return m ? NAN : sign * INFINITY;
	if (e == 0)
		return sign * ldexp(m, f->emin - mbits);
	return sign * ldexp(m | 1u << mbits, (int)e - bias - mbits);
}

static bool is_nan(uint16_t h, unsigned fmt)
{
	const struct hf_fmt *f = &formats[fmt];
	int mbits = f->p - 1;
	unsigned emask = ((1u << f->ebits) - 1) << mbits, mmask = (1u << mbits) - 1;
	if (f->noinf)   /* (e4m3: only the all-ones pattern) */
		return (h & (emask | mmask)) == (emask | mmask);
	return (h & emask) == emask && (h & mmask);
}

static bool is_sub(uint16_t h, unsigned fmt)
{
	int mbits = formats[fmt].p - 1;
	unsigned emask = ((1u << formats[fmt].ebits) - 1) << mbits;
	return !(h & emask) && (h & ((1u << mbits) - 1));
}

/* Rounds x (exact, or rounded to odd in a double) to fmt with rounding
 * rnd (0 rn, 1 rz, 2 rm, 3 rp). satfinite: an overflow gives the largest
 * finite value instead of infinity (NaN stays NaN). */
uint16_t sim_half_round(double x, unsigned fmt, unsigned rnd, bool satfinite)
{
	const struct hf_fmt *f = &formats[fmt];
	int mbits = f->p - 1;
	uint16_t sign = signbit(x) ? (uint16_t)(1u << (f->width - 1)) : 0;
	uint16_t nan = (uint16_t)((1u << (f->width - 1)) - 1);   /* 0x7fff, 0x7f: the canonical NaN */
	uint16_t inf = f->noinf ? nan : (uint16_t)(((1u << f->ebits) - 1) << mbits);
	uint16_t maxf = (uint16_t)(inf - 1);
	if (x != x)
		return nan;
	double a = fabs(x);
	bool up_dir = sign ? rnd == 2 : rnd == 3;   /* rounds away from zero when inexact */
	if (isinf(a))
		return satfinite ? sign | maxf : sign | inf;
	if (a == 0)
		return sign;
	int e;
	frexp(a, &e);   /* a = m 2^e, 0.5 <= m < 1: the leading bit's exponent is e - 1 */
	int ulp = (e - 1 < f->emin ? f->emin : e - 1) - mbits;
	double q = ldexp(a, -ulp);   /* exact: a power of two's scaling */
	double qi = floor(q), frac = q - qi;
	if (frac != 0) {
		bool up;
		if (rnd == 0)
			up = frac > 0.5 || (frac == 0.5 && fmod(qi, 2) != 0);
		else
			up = rnd != 1 && up_dir;
		if (up)
			qi += 1;
	}
	/* qi * 2^ulp, qi < 2^p (or 2^p after a carry) */
	if (qi >= ldexp(1, f->p)) {
		qi /= 2;
		ulp++;
	}
	int exp = ulp + mbits;   /* the leading bit's exponent, if normal */
	uint32_t mmask = (1u << mbits) - 1;
	if (exp > f->emax || (f->noinf && exp == f->emax && ((uint32_t)qi & mmask) == mmask)) {
		/* overflow: rn and the rounding away from zero give infinity */
		bool to_inf = !satfinite && (rnd == 0 || up_dir);
		return sign | (to_inf ? inf : maxf);
	}
	uint32_t qn = (uint32_t)qi;
	if (qn < (1u << mbits))
		return sign | (uint16_t)qn;   /* subnormal (or zero) */
	return sign | (uint16_t)((uint32_t)(exp + f->bias) << mbits | (qn & mmask));
}

/* a + b rounded to odd */
static double add_odd(double a, double b)
{
	double s = a + b;
	if (isinf(s) || s != s)
		return s;
	double bb = s - a, err = (a - (s - bb)) + (b - bb);   /* two-sum: a + b = s + err exactly */
	if (err == 0)
		return s;
	uint64_t u;
	memcpy(&u, &s, sizeof u);
	if (u & 1)
		return s;
	return nextafter(s, err > 0 ? INFINITY : -INFINITY);
}

static uint16_t flush(uint16_t h, unsigned fmt, bool ftz)
{
	return ftz && is_sub(h, fmt) ? (uint16_t)(h & 1u << (formats[fmt].width - 1)) : h;
}

uint16_t sim_half_arith(enum px_opcode op, unsigned fmt, unsigned fl, uint16_t a, uint16_t b, uint16_t c,
                        bool *unk)
{
	bool ftz = fl & SIM_HF_FTZ;
	a = flush(a, fmt, ftz);
	b = flush(b, fmt, ftz);
	c = flush(c, fmt, ftz);
	double x = sim_half_value(a, fmt), y = sim_half_value(b, fmt), z = sim_half_value(c, fmt), r;
	switch (op) {
	case PX_OP_NEG: return is_nan(a, fmt) ? 0x7fff : a ^ 0x8000;   /* (a NaN: the canonical one) */
	case PX_OP_ABS: return is_nan(a, fmt) ? 0x7fff : a & 0x7fff;
	case PX_OP_MIN: case PX_OP_MAX: {
		bool na = is_nan(a, fmt), nb = is_nan(b, fmt);
		if (na || nb)
			return (na && nb) || (fl & SIM_HF_NAN) ? 0x7fff : na ? b : a;
		bool a_less = x < y || (x == y && (a & 0x8000) && !(b & 0x8000));   /* -0 < +0 */
		return (op == PX_OP_MIN) == a_less ? a : b;
	}
	case PX_OP_ADD: r = add_odd(x, y); break;
	case PX_OP_SUB: r = add_odd(x, -y); break;
	case PX_OP_MUL: r = x * y; break;   /* exact: at most 22 significant bits */
	case PX_OP_FMA: case PX_OP_MAD: r = add_odd(x * y, z); break;
	case PX_OP_EX2: r = exp2((double)(float)x); break;   /* .approx: the float result, rounded */
	case PX_OP_TANH: r = tanh((double)(float)x); break;
	default:
		*unk = true;
		return 0;
	}
	if (r != r)
		return fl & SIM_HF_SAT ? 0 : 0x7fff;   /* (.sat: NaN to +0) */
	uint16_t h = flush(sim_half_round(r, fmt, 0, false), fmt, ftz);
	if (fl & SIM_HF_SAT) {
		double v = sim_half_value(h, fmt);
		h = v > 1 ? sim_half_round(1.0, fmt, 0, false) : (v > 0 ? h : 0);
	}
	if ((fl & SIM_HF_RELU) && (h & 0x8000))
		h = 0;
	return h;
}

uint32_t sim_half_pair(enum px_opcode op, unsigned fmt, unsigned fl, bool x2, uint32_t a, uint32_t b, uint32_t c,
                       bool *unk)
{
	uint32_t r = sim_half_arith(op, fmt, fl, (uint16_t)a, (uint16_t)b, (uint16_t)c, unk);
	if (x2)
		r |= (uint32_t)sim_half_arith(op, fmt, fl, (uint16_t)(a >> 16), (uint16_t)(b >> 16), (uint16_t)(c >> 16),
		                              unk) << 16;
	return r;
}

uint64_t sim_half_f64_bits(uint16_t h, unsigned fmt)
{
	if (!is_nan(h, fmt)) {
		double d = sim_half_value(h, fmt);
		uint64_t u;
		memcpy(&u, &d, sizeof u);
		return u;
	}
	/* a NaN keeps its payload, quieted (H100: cvt.f64.f16) */
	int mbits = formats[fmt].p - 1;
	return (uint64_t)(h & 0x8000) << 48 | 0x7ff8000000000000ull |
	       (uint64_t)(h & ((1u << mbits) - 1)) << (52 - mbits);
}

double sim_half_operand(uint16_t h, unsigned fmt, bool ftz)
{
	return sim_half_value(flush(h, fmt, ftz), fmt);
}

/* a 64-bit integer as a double rounded to odd (exact below 2^53) */
double sim_int_odd(uint64_t v, bool sgn)
{
	bool neg = sgn && (int64_t)v < 0;
	uint64_t m = neg ? 0 - v : v;
	int k = 0;
	while (m >> 53) {
		m = (m >> 1) | (m & 1);   /* the bits shifted out stay as a sticky last bit */
		k++;
	}
	double d = ldexp((double)m, k);
	return neg ? -d : d;
}

uint32_t sim_dot(enum px_opcode op, bool a_sgn, bool b_sgn, bool hi, uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t r = c;
	if (op == PX_OP_DP4A) {
		for (int i = 0; i < 4; i++) {
			uint32_t x = a >> (8 * i) & 0xff, y = b >> (8 * i) & 0xff;
			int32_t xs = a_sgn ? (int8_t)x : (int32_t)x, ys = b_sgn ? (int8_t)y : (int32_t)y;
			r += (uint32_t)(xs * ys);
		}
		return r;
	}
	/* dp2a: a's two 16-bit halves times b's bytes 0 and 1 (.lo) or 2 and 3 (.hi) */
	for (int i = 0; i < 2; i++) {
		uint32_t x = a >> (16 * i) & 0xffff, y = b >> (8 * (i + (hi ? 2 : 0))) & 0xff;
		int32_t xs = a_sgn ? (int16_t)x : (int32_t)x, ys = b_sgn ? (int8_t)y : (int32_t)y;
		r += (uint32_t)(xs * ys);
	}
	return r;
}
