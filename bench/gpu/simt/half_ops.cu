// half_ops.cu: the oracle for the interpreter's half-precision and
// dot-product instructions (analyzer/simt/simt_half.c): each PTX form below
// runs on the GPU over the same operands, and one line per operation set
// records the operands and the GPU's result bits. tests/unit/test_simt_half.c
// checks the interpreter against the committed output
// (tests/fixtures/simt/half/half_ops.txt), bit for bit. Run with
// `sh bench/gpu/simt/half_ops.sh` through the device tool.
//
// Operands: 32-bit words from a fixed LCG, one in four made of special
// halves (zeros, subnormals, the largest finite, infinities, NaNs, and
// values one ulp either side of 1), so that rounding ties, overflow,
// underflow and NaN handling all occur. A 16-bit form takes the low half
// of each word.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <cuda_runtime.h>

#define N 512

#define CK(x) do { cudaError_t e_ = (x); if (e_) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

// one operation: r = op(a, b, c) on 32-bit words (16-bit forms use the low half)
#define H1(name, body) __global__ void name(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *r) { \
	int i = blockIdx.x * blockDim.x + threadIdx.x; unsigned short x = a[i], y = b[i], z = c[i], d = 0; (void)y; (void)z; \
	asm(body : "=h"(d) : "h"(x), "h"(y), "h"(z)); r[i] = d; }
#define H2(name, body) __global__ void name(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *r) { \
	int i = blockIdx.x * blockDim.x + threadIdx.x; unsigned x = a[i], y = b[i], z = c[i], d = 0; (void)y; (void)z; \
	asm(body : "=r"(d) : "r"(x), "r"(y), "r"(z)); r[i] = d; }

H1(add_f16, "add.rn.f16 %0, %1, %2;")
H1(sub_f16, "sub.rn.f16 %0, %1, %2;")
H1(mul_f16, "mul.rn.f16 %0, %1, %2;")
H1(fma_f16, "fma.rn.f16 %0, %1, %2, %3;")
H1(add_ftz_f16, "add.rn.ftz.f16 %0, %1, %2;")
H1(fma_ftz_f16, "fma.rn.ftz.f16 %0, %1, %2, %3;")
H1(fma_sat_f16, "fma.rn.sat.f16 %0, %1, %2, %3;")
H1(fma_relu_f16, "fma.rn.relu.f16 %0, %1, %2, %3;")
H1(neg_f16, "neg.f16 %0, %1;")
H1(abs_f16, "abs.f16 %0, %1;")
H1(min_f16, "min.f16 %0, %1, %2;")
H1(max_f16, "max.f16 %0, %1, %2;")
H1(min_nan_f16, "min.NaN.f16 %0, %1, %2;")
H2(add_f16x2, "add.rn.f16x2 %0, %1, %2;")
H2(sub_f16x2, "sub.rn.f16x2 %0, %1, %2;")
H2(mul_f16x2, "mul.rn.f16x2 %0, %1, %2;")
H2(fma_f16x2, "fma.rn.f16x2 %0, %1, %2, %3;")
H2(fma_ftz_f16x2, "fma.rn.ftz.f16x2 %0, %1, %2, %3;")
H2(min_f16x2, "min.f16x2 %0, %1, %2;")
H2(max_f16x2, "max.f16x2 %0, %1, %2;")
H2(neg_f16x2, "neg.f16x2 %0, %1;")
H1(add_bf16, "add.rn.bf16 %0, %1, %2;")
H1(sub_bf16, "sub.rn.bf16 %0, %1, %2;")
H1(mul_bf16, "mul.rn.bf16 %0, %1, %2;")
H1(fma_bf16, "fma.rn.bf16 %0, %1, %2, %3;")
H1(fma_relu_bf16, "fma.rn.relu.bf16 %0, %1, %2, %3;")
H1(neg_bf16, "neg.bf16 %0, %1;")
H1(abs_bf16, "abs.bf16 %0, %1;")
H1(min_bf16, "min.bf16 %0, %1, %2;")
H1(max_bf16, "max.bf16 %0, %1, %2;")
H2(add_bf16x2, "add.rn.bf16x2 %0, %1, %2;")
H2(mul_bf16x2, "mul.rn.bf16x2 %0, %1, %2;")
H2(fma_bf16x2, "fma.rn.bf16x2 %0, %1, %2, %3;")
H2(max_bf16x2, "max.bf16x2 %0, %1, %2;")
// comparisons: bit 0 p, bit 1 q (the 16-bit forms compare b's upper half
// with its lower: the second mov overwrites h)
H2(setp_lt_f16x2, "{ .reg .pred p, q; setp.lt.f16x2 p|q, %1, %2; selp.u32 %0, 1, 0, p; @q or.b32 %0, %0, 2; }")
H2(setp_gtu_f16x2, "{ .reg .pred p, q; setp.gtu.f16x2 p|q, %1, %2; selp.u32 %0, 1, 0, p; @q or.b32 %0, %0, 2; }")
H2(setp_eq_f16, "{ .reg .pred p; .reg .b16 h, k; mov.b32 {h, k}, %1; mov.b32 {k, h}, %2; setp.eq.f16 p, h, k; selp.u32 %0, 1, 0, p; }")
H2(setp_le_bf16x2, "{ .reg .pred p, q; setp.le.bf16x2 p|q, %1, %2; selp.u32 %0, 1, 0, p; @q or.b32 %0, %0, 2; }")
H2(setp_nan_bf16, "{ .reg .pred p; .reg .b16 h, k; mov.b32 {h, k}, %1; mov.b32 {k, h}, %2; setp.nan.bf16 p, h, k; selp.u32 %0, 1, 0, p; }")
// conversions (a word read as f32 where the source is f32)
H2(cvt_f32_f16, "{ .reg .b16 h, k; mov.b32 {h, k}, %1; cvt.f32.f16 %0, h; }")
H2(cvt_f32_bf16, "{ .reg .b16 h, k; mov.b32 {h, k}, %1; cvt.f32.bf16 %0, h; }")
H2(cvt_rn_f16_f32, "{ .reg .b16 h; cvt.rn.f16.f32 h, %1; cvt.u32.u16 %0, h; }")
H2(cvt_rz_f16_f32, "{ .reg .b16 h; cvt.rz.f16.f32 h, %1; cvt.u32.u16 %0, h; }")
H2(cvt_rm_f16_f32, "{ .reg .b16 h; cvt.rm.f16.f32 h, %1; cvt.u32.u16 %0, h; }")
H2(cvt_rp_f16_f32, "{ .reg .b16 h; cvt.rp.f16.f32 h, %1; cvt.u32.u16 %0, h; }")
H2(cvt_rn_bf16_f32, "{ .reg .b16 h; cvt.rn.bf16.f32 h, %1; cvt.u32.u16 %0, h; }")
H2(cvt_rn_f16x2_f32, "cvt.rn.f16x2.f32 %0, %1, %2;")
H2(cvt_rn_relu_f16x2_f32, "cvt.rn.relu.f16x2.f32 %0, %1, %2;")
H2(cvt_rn_bf16x2_f32, "cvt.rn.bf16x2.f32 %0, %1, %2;")
H2(cvt_rzi_s32_f16, "{ .reg .b16 h, k; mov.b32 {h, k}, %1; cvt.rzi.s32.f16 %0, h; }")
H2(cvt_rn_f16_s32, "{ .reg .b16 h; cvt.rn.f16.s32 h, %1; cvt.u32.u16 %0, h; }")
H2(cvt_f64_f16, "{ .reg .b16 h, k; .reg .f64 d; mov.b32 {h, k}, %1; cvt.f64.f16 d, h; cvt.rn.f32.f64 %0, d; }")
// integer dot products
H2(dp4a_s32_s32, "dp4a.s32.s32 %0, %1, %2, %3;")
H2(dp4a_u32_u32, "dp4a.u32.u32 %0, %1, %2, %3;")
H2(dp4a_s32_u32, "dp4a.s32.u32 %0, %1, %2, %3;")
H2(dp4a_u32_s32, "dp4a.u32.s32 %0, %1, %2, %3;")
H2(dp2a_lo_s32_s32, "dp2a.lo.s32.s32 %0, %1, %2, %3;")
H2(dp2a_hi_u32_u32, "dp2a.hi.u32.u32 %0, %1, %2, %3;")
H2(dp2a_lo_u32_s32, "dp2a.lo.u32.s32 %0, %1, %2, %3;")

// atomics: the word starts as a, b is added (the result is the word after)
#define AT2(name, body) __global__ void name(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *r) { \
	int i = blockIdx.x * blockDim.x + threadIdx.x; unsigned old; (void)c; r[i] = a[i]; \
	asm volatile(body : "=r"(old) : "l"(&r[i]), "r"(b[i]) : "memory"); (void)old; }
#define AT1(name, body) __global__ void name(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *r) { \
	int i = blockIdx.x * blockDim.x + threadIdx.x; unsigned short old, y = b[i]; (void)c; r[i] = a[i]; \
	asm volatile(body : "=h"(old) : "l"(&r[i]), "h"(y) : "memory"); (void)old; }
AT2(atom_add_f16x2, "atom.global.add.noftz.f16x2 %0, [%1], %2;")
AT2(atom_add_bf16x2, "atom.global.add.noftz.bf16x2 %0, [%1], %2;")
AT1(atom_add_f16, "atom.global.add.noftz.f16 %0, [%1], %2;")
AT1(atom_add_bf16, "atom.global.add.noftz.bf16 %0, [%1], %2;")

typedef void (*kern)(const unsigned *, const unsigned *, const unsigned *, unsigned *);
static const struct { const char *op; kern k; } ops[] = {
#define K(ptx, name) {ptx, name},
	K("add.rn.f16", add_f16) K("sub.rn.f16", sub_f16) K("mul.rn.f16", mul_f16) K("fma.rn.f16", fma_f16)
	K("add.rn.ftz.f16", add_ftz_f16) K("fma.rn.ftz.f16", fma_ftz_f16) K("fma.rn.sat.f16", fma_sat_f16)
	K("fma.rn.relu.f16", fma_relu_f16) K("neg.f16", neg_f16) K("abs.f16", abs_f16) K("min.f16", min_f16)
	K("max.f16", max_f16) K("min.NaN.f16", min_nan_f16)
	K("add.rn.f16x2", add_f16x2) K("sub.rn.f16x2", sub_f16x2) K("mul.rn.f16x2", mul_f16x2)
	K("fma.rn.f16x2", fma_f16x2) K("fma.rn.ftz.f16x2", fma_ftz_f16x2) K("min.f16x2", min_f16x2)
	K("max.f16x2", max_f16x2) K("neg.f16x2", neg_f16x2)
	K("add.rn.bf16", add_bf16) K("sub.rn.bf16", sub_bf16) K("mul.rn.bf16", mul_bf16) K("fma.rn.bf16", fma_bf16)
	K("fma.rn.relu.bf16", fma_relu_bf16) K("neg.bf16", neg_bf16) K("abs.bf16", abs_bf16) K("min.bf16", min_bf16)
	K("max.bf16", max_bf16) K("add.rn.bf16x2", add_bf16x2) K("mul.rn.bf16x2", mul_bf16x2)
	K("fma.rn.bf16x2", fma_bf16x2) K("max.bf16x2", max_bf16x2)
	K("setp.lt.f16x2", setp_lt_f16x2) K("setp.gtu.f16x2", setp_gtu_f16x2) K("setp.eq.f16", setp_eq_f16)
	K("setp.le.bf16x2", setp_le_bf16x2) K("setp.nan.bf16", setp_nan_bf16)
	K("cvt.f32.f16", cvt_f32_f16) K("cvt.f32.bf16", cvt_f32_bf16) K("cvt.rn.f16.f32", cvt_rn_f16_f32)
	K("cvt.rz.f16.f32", cvt_rz_f16_f32) K("cvt.rm.f16.f32", cvt_rm_f16_f32) K("cvt.rp.f16.f32", cvt_rp_f16_f32)
	K("cvt.rn.bf16.f32", cvt_rn_bf16_f32) K("cvt.rn.f16x2.f32", cvt_rn_f16x2_f32)
	K("cvt.rn.relu.f16x2.f32", cvt_rn_relu_f16x2_f32) K("cvt.rn.bf16x2.f32", cvt_rn_bf16x2_f32)
	K("cvt.rzi.s32.f16", cvt_rzi_s32_f16) K("cvt.rn.f16.s32", cvt_rn_f16_s32) K("cvt.f64.f16", cvt_f64_f16)
	K("dp4a.s32.s32", dp4a_s32_s32) K("dp4a.u32.u32", dp4a_u32_u32) K("dp4a.s32.u32", dp4a_s32_u32)
	K("dp4a.u32.s32", dp4a_u32_s32) K("dp2a.lo.s32.s32", dp2a_lo_s32_s32) K("dp2a.hi.u32.u32", dp2a_hi_u32_u32)
	K("dp2a.lo.u32.s32", dp2a_lo_u32_s32)
	K("atom.add.noftz.f16x2", atom_add_f16x2) K("atom.add.noftz.bf16x2", atom_add_bf16x2)
	K("atom.add.noftz.f16", atom_add_f16) K("atom.add.noftz.bf16", atom_add_bf16)
#undef K
};

static uint32_t lcg = 12345;
static uint32_t rnd(void) { lcg = lcg * 1664525u + 1013904223u; return lcg ^ (lcg >> 16); }
// a special half (f16 or bf16 alike: the bit patterns cover both formats' cases)
static uint16_t special(void) {
	static const uint16_t s[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
	                             0x7e00, 0x7c01, 0xfe00, 0x3c00, 0x3bff, 0x3c01, 0xbc00, 0x3800, 0x4000,
	                             0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x0080, 0x007f, 0x3f80, 0x3f7f, 0x3f81,
	                             0x5bff, 0x6800, 0x1400, 0x0200, 0x4b80};
	return s[rnd() % (sizeof s / sizeof *s)];
}
static uint32_t word(void) {
	uint32_t k = rnd() % 4;
	if (k == 0) return (uint32_t)special() | (uint32_t)special() << 16;
	if (k == 1) return rnd();
	// halves near 1 (f16 exponents 13..17, bf16 126..128): sums and products round
	uint32_t lo = 0x3000 + rnd() % 0x1800, hi = 0x3000 + rnd() % 0x1800;
	if (rnd() & 1) { lo = 0x3e00 + rnd() % 0x200; hi = 0x3e00 + rnd() % 0x200; }
	return lo | hi << 16 | (rnd() & 0x80008000u);
}

int main(void) {
	unsigned *ha = (unsigned *)malloc(N * 4), *hb = (unsigned *)malloc(N * 4), *hc = (unsigned *)malloc(N * 4),
	         *hr = (unsigned *)malloc(N * 4);
	unsigned *da, *db, *dc, *dr;
	CK(cudaMalloc(&da, N * 4)); CK(cudaMalloc(&db, N * 4)); CK(cudaMalloc(&dc, N * 4)); CK(cudaMalloc(&dr, N * 4));
	cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
	printf("# device %s, cc %d.%d; op a b c result (hex words)\n", p.name, p.major, p.minor);
	for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
		int n = N;
		for (int i = 0; i < n; i++) {
			ha[i] = word(); hb[i] = word(); hc[i] = word();
			if (ops[o].op[0] == 'c' && (rnd() & 1)) {   // f32 sources: floats near the halves' range
				float f = ldexpf((float)(rnd() % 100000) / 1000.0f, (int)(rnd() % 40) - 24);
				memcpy(&ha[i], &f, 4);
				if (rnd() & 1) ha[i] ^= 0x80000000u;
			}
		}
		CK(cudaMemcpy(da, ha, n * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(db, hb, n * 4, cudaMemcpyHostToDevice));
		CK(cudaMemcpy(dc, hc, n * 4, cudaMemcpyHostToDevice));
		ops[o].k<<<n / 256, 256>>>(da, db, dc, dr);
		CK(cudaGetLastError());
		CK(cudaMemcpy(hr, dr, n * 4, cudaMemcpyDeviceToHost));
		for (int i = 0; i < n; i++)
			printf("%s %08x %08x %08x %08x\n", ops[o].op, ha[i], hb[i], hc[i], hr[i]);
	}
	return 0;
}
