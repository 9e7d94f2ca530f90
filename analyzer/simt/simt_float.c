/* simt_float.c: the interpreter's f32 and f64 arithmetic where it goes
 * beyond C's default environment: the directed roundings .rz, .rm and .rp
 * of add, sub, mul, fma, div, rcp, sqrt and of the conversions to floating
 * point (PTX ISA, "Floating-Point Instructions" and "cvt": each rounds its
 * exact result once, as IEEE 754 does). simt_exec.c's fop and convert call
 * it; the H100's own rules for what the ISA leaves open (NaN results, NaN
 * to integer) are there, checked with these by tests/unit/test_simt_scalar.c.
 *
 * A directed rounding runs the host's own IEEE operation in that rounding
 * mode (fesetround around it, restored before returning; the conversions
 * from integers take C's own for .rn, the common case): the operands
 * and the result go through volatile variables so that the compiler
 * neither folds nor moves the operation out of the mode it needs. Per
 * thread, as the floating-point environment is. */
#include <fenv.h>
#include <math.h>

#include "simt_int.h"

static const int host_mode[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

double sim_f64_rounded(enum px_opcode op, unsigned rnd, double x, double y, double z)
{
	int old = fegetround();
	fesetround(host_mode[rnd & 3]);
	volatile double vx = x, vy = y, vz = z;
	double r;
	switch (op) {
	case PX_OP_ADD: r = vx + vy; break;
	case PX_OP_SUB: r = vx - vy; break;
	case PX_OP_MUL: r = vx * vy; break;
	case PX_OP_DIV: r = vx / vy; break;
	case PX_OP_RCP: r = 1.0 / vx; break;
	case PX_OP_SQRT: r = sqrt(vx); break;
	default: r = fma(vx, vy, vz); break;   /* fma, mad */
	}
	volatile double vr = r;
	fesetround(old);
	return vr;
}

float sim_f32_rounded(enum px_opcode op, unsigned rnd, float x, float y, float z)
{
	int old = fegetround();
	fesetround(host_mode[rnd & 3]);
	volatile float vx = x, vy = y, vz = z;
	float r;
	switch (op) {
	case PX_OP_ADD: r = vx + vy; break;
	case PX_OP_SUB: r = vx - vy; break;
	case PX_OP_MUL: r = vx * vy; break;
	case PX_OP_DIV: r = vx / vy; break;
	case PX_OP_RCP: r = 1.0f / vx; break;
	case PX_OP_SQRT: r = sqrtf(vx); break;
	default: r = fmaf(vx, vy, vz); break;
	}
	volatile float vr = r;
	fesetround(old);
	return vr;
}

float sim_f32_of_f64(double x, unsigned rnd)
{
	int old = fegetround();
	fesetround(host_mode[rnd & 3]);
	volatile double vx = x;
	volatile float vr = (float)vx;
	fesetround(old);
	return vr;
}

float sim_f32_of_int(uint64_t v, bool sgn, unsigned rnd)
{
	if (!(rnd & 3))   /* (the common case, without the mode switches) */
		return sgn ? (float)(int64_t)v : (float)v;
	int old = fegetround();
	fesetround(host_mode[rnd & 3]);
	volatile uint64_t vv = v;
	volatile float vr = sgn ? (float)(int64_t)vv : (float)vv;
	fesetround(old);
	return vr;
}

double sim_f64_of_int(uint64_t v, bool sgn, unsigned rnd)
{
	if (!(rnd & 3))
		return sgn ? (double)(int64_t)v : (double)v;
	int old = fegetround();
	fesetround(host_mode[rnd & 3]);
	volatile uint64_t vv = v;
	volatile double vr = sgn ? (double)(int64_t)vv : (double)vv;
	fesetround(old);
	return vr;
}
