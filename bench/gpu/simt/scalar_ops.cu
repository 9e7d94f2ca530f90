// scalar_ops.cu: the oracle for the interpreter's 32- and 64-bit integer
// and floating-point instructions (analyzer/simt/simt_exec.c's iop, fop,
// convert and exec_other), its warp-wide ones (shfl, vote, match, redux)
// and its atomics: each PTX form below runs on the GPU over its own
// operands, and the output records the operands and the GPU's result.
// tests/unit/test_simt_scalar.c runs every line through the interpreter
// (a generated kernel per form, simulated by px_simt_file) and compares,
// bit for bit for the exact forms and by the measured error for the
// .approx ones. Run with `sh bench/gpu/simt/scalar_ops.sh` through the
// device tool; the output is tests/fixtures/simt/scalar/scalar_ops.txt.
// Forms are only ever appended, so that the ones before keep their
// operands (the runs so far: 223, 251, 300, 333, 375, 386, 398, 404 and 413 forms).
//
// Output: for each form a header line
//     = FORM SIG BODY
// where SIG is "D:ABC", D the result's width (r: 32 bits, l: 64) and A, B,
// C the operands' generators (below; i z s f m c q w k h: 32-bit, l y d n j:
// 64-bit) and BODY the inline-asm text (%0 the result, %1 %2 %3 the
// operands, %4 and %5 the thread's words of global and shared memory),
// then one line per operand set: "a b c result" in hex. Thread i of the
// launch takes set i: a warp, sets 32 w to 32 w + 31.
//
// Generators: i: 32-bit integers, one in three special (0, +-1, the
// extremes, byte and half-word edges); z: the same without 0 (divisors:
// the PTX ISA leaves division by zero unspecified); s: shift amounts,
// positions and lengths, mostly 0..70; f: f32 words, one in three special
// (zeros, subnormals, the extremes, infinities, NaNs of either sign and
// payload, ties for the integer roundings, powers of two near the integer
// ranges), one in three near 1, the rest any bits; l, y, d: the same at 64
// bits; n, m: f64 and f32 NaNs (various signs and payloads) two in three,
// else d or f values; c: shfl's clamp and segment mask; q, w: mostly 1,
// mostly 0; k, j: a few 32- and 64-bit values; h: two 16-bit floats
// (specials, any bits, near 1); g: f32 values in the 8-bit floats' range,
// ties among them. An upper-case generator gives the 32 threads of a warp
// one value. The operand sets come from a fixed LCG: the output is the same
// on every run of the same GPU.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>

#define N 256

#define CK(x) do { cudaError_t e_ = (x); if (e_) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

typedef unsigned long long u64;
typedef unsigned u32;

// one operation d = op(a, b, c): DC/AC/BC/CC the constraints ("r" 32-bit,
// "l" 64-bit), DT/AT/BT/CT the C types
// (%4 and %5: generic addresses of the thread's own word of global and
// shared memory, for the atomics)
#define KER(name, DC, DT, AC, AT, BC, BT, CC, CT, body)                                          \
	__global__ void name(const u64 *A, const u64 *B, const u64 *C, u64 *R) {                     \
		__shared__ u64 S[128];                                                                   \
		int i = blockIdx.x * blockDim.x + threadIdx.x;                                           \
		AT a = (AT)A[i]; BT b = (BT)B[i]; CT c = (CT)C[i]; DT d = 0;                             \
		asm volatile(body : "=" DC(d) : AC(a), BC(b), CC(c), "l"(&R[i]), "l"(&S[threadIdx.x]) : "memory"); \
		R[i] = (u64)d; }
#define R_RRR(name, body) KER(name, "r", u32, "r", u32, "r", u32, "r", u32, body)
#define L_LLL(name, body) KER(name, "l", u64, "l", u64, "l", u64, "l", u64, body)
#define L_LRR(name, body) KER(name, "l", u64, "l", u64, "r", u32, "r", u32, body)
#define L_LLR(name, body) KER(name, "l", u64, "l", u64, "l", u64, "r", u32, body)
#define L_RRL(name, body) KER(name, "l", u64, "r", u32, "r", u32, "l", u64, body)
#define R_LLL(name, body) KER(name, "r", u32, "l", u64, "l", u64, "l", u64, body)
#define L_RRR(name, body) KER(name, "l", u64, "r", u32, "r", u32, "r", u32, body)

// a predicate result as 0/1
#define P1(setp) "{ .reg .pred p; " setp " selp.u32 %0, 1, 0, p; }"

// shfl with mode m: the value and the predicate (bit 32)
#define SHFL(m) "{ .reg .pred p; .reg .b32 t, u; shfl.sync." m ".b32 t|p, %1, %2, %3, -1; selp.u32 u, 1, 0, p; mov.b64 %0, {t, u}; }"
// vote mode m on a != 0
#define VOTE(m) "{ .reg .pred p, q; setp.ne.b32 p, %1, 0; vote.sync." m ".pred q, p, -1; selp.u32 %0, 1, 0, q; }"
// an atomic on the thread's word of state space sp, which holds a first:
// the old value (bits 31..0) and the word after (63..32); ATOM64: the word after
#define ATOM32(sp, op) "{ .reg .b64 q; .reg .b32 o, n; cvta.to." #sp ".u64 q, %" P_##sp "; st." #sp ".u32 [q], %1; " \
	"atom." #sp "." op "; ld." #sp ".u32 n, [q]; mov.b64 %0, {o, n}; }"
#define ATOM64(sp, op) "{ .reg .b64 q, o; cvta.to." #sp ".u64 q, %" P_##sp "; st." #sp ".u64 [q], %1; " \
	"atom." #sp "." op "; ld." #sp ".u64 %0, [q]; }"
#define RED32(sp, op) "{ .reg .b64 q; .reg .b32 n; cvta.to." #sp ".u64 q, %" P_##sp "; st." #sp ".u32 [q], %1; " \
	"red." #sp "." op "; ld." #sp ".u32 n, [q]; mov.b64 %0, {%1, n}; }"
// a 16-bit operation op on the low halves x, y, w of a, b, c into z, widened by cvt.wt
#define H16(op, wt) "{ .reg .b16 x, y, w, z, h; mov.b32 {x, h}, %1; mov.b32 {y, h}, %2; mov.b32 {w, h}, %3; " \
	op " cvt." wt " %0, z; }"
// the thread's word of state space sp written as st.sp.wt with a, then the load op
#define LDW(sp, wt, op) "{ .reg .b64 q; cvta.to." #sp ".u64 q, %" P_##sp "; st." #sp "." wt " [q], %1; ld." #sp "." op "; }"
// an 8-bit float pair conversion into z, widened
#define F8PACK(op) "{ .reg .b16 z; " op " cvt.u32.u16 %0, z; }"
#define P_global "4"
#define P_shared "5"

// ---- the forms: X(name, sig, width macro, body) ----
#define FORMS(X)                                                                                  \
	/* 32-bit integers */                                                                           \
	X(add_sat_s32, "add.sat.s32", "r:iii", R_RRR, "add.sat.s32 %0, %1, %2;")                        \
	X(sub_sat_s32, "sub.sat.s32", "r:iii", R_RRR, "sub.sat.s32 %0, %1, %2;")                        \
	X(mul_lo_s32, "mul.lo.s32", "r:iii", R_RRR, "mul.lo.s32 %0, %1, %2;")                           \
	X(mul_hi_s32, "mul.hi.s32", "r:iii", R_RRR, "mul.hi.s32 %0, %1, %2;")                           \
	X(mul_hi_u32, "mul.hi.u32", "r:iii", R_RRR, "mul.hi.u32 %0, %1, %2;")                           \
	X(mad_lo_s32, "mad.lo.s32", "r:iii", R_RRR, "mad.lo.s32 %0, %1, %2, %3;")                       \
	X(mad_hi_s32, "mad.hi.s32", "r:iii", R_RRR, "mad.hi.s32 %0, %1, %2, %3;")                       \
	X(mad_hi_u32, "mad.hi.u32", "r:iii", R_RRR, "mad.hi.u32 %0, %1, %2, %3;")                       \
	X(mad_hi_sat_s32, "mad.hi.sat.s32", "r:iii", R_RRR, "mad.hi.sat.s32 %0, %1, %2, %3;")           \
	X(mul24_lo_u32, "mul24.lo.u32", "r:iii", R_RRR, "mul24.lo.u32 %0, %1, %2;")                     \
	X(mul24_lo_s32, "mul24.lo.s32", "r:iii", R_RRR, "mul24.lo.s32 %0, %1, %2;")                     \
	X(mul24_hi_u32, "mul24.hi.u32", "r:iii", R_RRR, "mul24.hi.u32 %0, %1, %2;")                     \
	X(mul24_hi_s32, "mul24.hi.s32", "r:iii", R_RRR, "mul24.hi.s32 %0, %1, %2;")                     \
	X(mad24_lo_s32, "mad24.lo.s32", "r:iii", R_RRR, "mad24.lo.s32 %0, %1, %2, %3;")                 \
	X(mad24_hi_u32, "mad24.hi.u32", "r:iii", R_RRR, "mad24.hi.u32 %0, %1, %2, %3;")                 \
	X(sad_u32, "sad.u32", "r:iii", R_RRR, "sad.u32 %0, %1, %2, %3;")                                \
	X(sad_s32, "sad.s32", "r:iii", R_RRR, "sad.s32 %0, %1, %2, %3;")                                \
	X(div_u32, "div.u32", "r:iz", R_RRR, "div.u32 %0, %1, %2;")                                     \
	X(div_s32, "div.s32", "r:iz", R_RRR, "div.s32 %0, %1, %2;")                                     \
	X(rem_u32, "rem.u32", "r:iz", R_RRR, "rem.u32 %0, %1, %2;")                                     \
	X(rem_s32, "rem.s32", "r:iz", R_RRR, "rem.s32 %0, %1, %2;")                                     \
	X(min_s32, "min.s32", "r:iii", R_RRR, "min.s32 %0, %1, %2;")                                    \
	X(min_u32, "min.u32", "r:iii", R_RRR, "min.u32 %0, %1, %2;")                                    \
	X(max_s32, "max.s32", "r:iii", R_RRR, "max.s32 %0, %1, %2;")                                    \
	X(max_u32, "max.u32", "r:iii", R_RRR, "max.u32 %0, %1, %2;")                                    \
	X(abs_s32, "abs.s32", "r:iii", R_RRR, "abs.s32 %0, %1;")                                        \
	X(neg_s32, "neg.s32", "r:iii", R_RRR, "neg.s32 %0, %1;")                                        \
	X(not_b32, "not.b32", "r:iii", R_RRR, "not.b32 %0, %1;")                                        \
	X(cnot_b32, "cnot.b32", "r:iii", R_RRR, "cnot.b32 %0, %1;")                                     \
	X(shl_b32, "shl.b32", "r:isi", R_RRR, "shl.b32 %0, %1, %2;")                                    \
	X(shr_u32, "shr.u32", "r:isi", R_RRR, "shr.u32 %0, %1, %2;")                                    \
	X(shr_s32, "shr.s32", "r:isi", R_RRR, "shr.s32 %0, %1, %2;")                                    \
	X(popc_b32, "popc.b32", "r:iii", R_RRR, "popc.b32 %0, %1;")                                     \
	X(clz_b32, "clz.b32", "r:iii", R_RRR, "clz.b32 %0, %1;")                                        \
	X(brev_b32, "brev.b32", "r:iii", R_RRR, "brev.b32 %0, %1;")                                     \
	X(bfind_u32, "bfind.u32", "r:iii", R_RRR, "bfind.u32 %0, %1;")                                  \
	X(bfind_s32, "bfind.s32", "r:iii", R_RRR, "bfind.s32 %0, %1;")                                  \
	X(bfind_shiftamt_u32, "bfind.shiftamt.u32", "r:iii", R_RRR, "bfind.shiftamt.u32 %0, %1;")        \
	X(bfind_shiftamt_s32, "bfind.shiftamt.s32", "r:iii", R_RRR, "bfind.shiftamt.s32 %0, %1;")        \
	X(bfe_u32, "bfe.u32", "r:iss", R_RRR, "bfe.u32 %0, %1, %2, %3;")                                \
	X(bfe_s32, "bfe.s32", "r:iss", R_RRR, "bfe.s32 %0, %1, %2, %3;")                                \
	X(bfi_b32, "bfi.b32", "r:iii", R_RRR,                                                           \
	  "{ .reg .b32 t, u; and.b32 t, %3, 255; shr.b32 u, %3, 8; and.b32 u, u, 255; bfi.b32 %0, %1, %2, t, u; }") \
	X(prmt_b32, "prmt.b32", "r:iii", R_RRR, "prmt.b32 %0, %1, %2, %3;")                             \
	X(prmt_f4e, "prmt.b32.f4e", "r:iii", R_RRR, "prmt.b32.f4e %0, %1, %2, %3;")                     \
	X(prmt_b4e, "prmt.b32.b4e", "r:iii", R_RRR, "prmt.b32.b4e %0, %1, %2, %3;")                     \
	X(prmt_rc8, "prmt.b32.rc8", "r:iii", R_RRR, "prmt.b32.rc8 %0, %1, %2, %3;")                     \
	X(prmt_ecl, "prmt.b32.ecl", "r:iii", R_RRR, "prmt.b32.ecl %0, %1, %2, %3;")                     \
	X(prmt_ecr, "prmt.b32.ecr", "r:iii", R_RRR, "prmt.b32.ecr %0, %1, %2, %3;")                     \
	X(prmt_rc16, "prmt.b32.rc16", "r:iii", R_RRR, "prmt.b32.rc16 %0, %1, %2, %3;")                  \
	X(shf_l_wrap, "shf.l.wrap.b32", "r:iis", R_RRR, "shf.l.wrap.b32 %0, %1, %2, %3;")                \
	X(shf_l_clamp, "shf.l.clamp.b32", "r:iis", R_RRR, "shf.l.clamp.b32 %0, %1, %2, %3;")             \
	X(shf_r_wrap, "shf.r.wrap.b32", "r:iis", R_RRR, "shf.r.wrap.b32 %0, %1, %2, %3;")                \
	X(shf_r_clamp, "shf.r.clamp.b32", "r:iis", R_RRR, "shf.r.clamp.b32 %0, %1, %2, %3;")             \
	X(lop3_96, "lop3.b32.0x96", "r:iii", R_RRR, "lop3.b32 %0, %1, %2, %3, 0x96;")                   \
	X(lop3_e8, "lop3.b32.0xe8", "r:iii", R_RRR, "lop3.b32 %0, %1, %2, %3, 0xe8;")                   \
	X(lop3_5b, "lop3.b32.0x5b", "r:iii", R_RRR, "lop3.b32 %0, %1, %2, %3, 0x5b;")                   \
	X(setp_lt_s32, "setp.lt.s32", "r:iii", R_RRR, P1("setp.lt.s32 p, %1, %2;"))                    \
	X(setp_hi_u32, "setp.hi.u32", "r:iii", R_RRR, P1("setp.hi.u32 p, %1, %2;"))                    \
	X(setp_ge_u32, "setp.ge.u32", "r:iii", R_RRR, P1("setp.ge.u32 p, %1, %2;"))                    \
	X(slct_s32, "slct.u32.s32", "r:iii", R_RRR, "slct.u32.s32 %0, %1, %2, %3;")                    \
	X(slct_f32, "slct.b32.f32", "r:iif", R_RRR, "slct.b32.f32 %0, %1, %2, %3;")                    \
	X(cvt_s32_s8, "cvt.s32.s8", "r:iii", R_RRR, "cvt.s32.s8 %0, %1;")                               \
	X(cvt_u32_u16, "cvt.u32.u16", "r:iii", R_RRR, "cvt.u32.u16 %0, %1;")                            \
	X(cvt_sat_s8_s32, "cvt.sat.s8.s32", "r:iii", R_RRR, "cvt.sat.s8.s32 %0, %1;")                   \
	X(cvt_sat_u16_s32, "cvt.sat.u16.s32", "r:iii", R_RRR, "cvt.sat.u16.s32 %0, %1;")                \
	X(cvt_u8_u32, "cvt.u8.u32", "r:iii", R_RRR, "cvt.u8.u32 %0, %1;")                               \
	X(cvt_s8_s32, "cvt.s8.s32", "r:iii", R_RRR, "cvt.s8.s32 %0, %1;")                               \
	/* 32-bit floats */                                                                             \
	X(add_rn_f32, "add.rn.f32", "r:fff", R_RRR, "add.rn.f32 %0, %1, %2;")                           \
	X(add_rz_f32, "add.rz.f32", "r:fff", R_RRR, "add.rz.f32 %0, %1, %2;")                           \
	X(add_rm_f32, "add.rm.f32", "r:fff", R_RRR, "add.rm.f32 %0, %1, %2;")                           \
	X(add_rp_f32, "add.rp.f32", "r:fff", R_RRR, "add.rp.f32 %0, %1, %2;")                           \
	X(sub_rn_f32, "sub.rn.f32", "r:fff", R_RRR, "sub.rn.f32 %0, %1, %2;")                           \
	X(mul_rn_f32, "mul.rn.f32", "r:fff", R_RRR, "mul.rn.f32 %0, %1, %2;")                           \
	X(mul_rz_f32, "mul.rz.f32", "r:fff", R_RRR, "mul.rz.f32 %0, %1, %2;")                           \
	X(mul_rm_f32, "mul.rm.f32", "r:fff", R_RRR, "mul.rm.f32 %0, %1, %2;")                           \
	X(mul_rp_f32, "mul.rp.f32", "r:fff", R_RRR, "mul.rp.f32 %0, %1, %2;")                           \
	X(fma_rn_f32, "fma.rn.f32", "r:fff", R_RRR, "fma.rn.f32 %0, %1, %2, %3;")                       \
	X(fma_rz_f32, "fma.rz.f32", "r:fff", R_RRR, "fma.rz.f32 %0, %1, %2, %3;")                       \
	X(fma_rm_f32, "fma.rm.f32", "r:fff", R_RRR, "fma.rm.f32 %0, %1, %2, %3;")                       \
	X(fma_rp_f32, "fma.rp.f32", "r:fff", R_RRR, "fma.rp.f32 %0, %1, %2, %3;")                       \
	X(add_ftz_f32, "add.rn.ftz.f32", "r:fff", R_RRR, "add.rn.ftz.f32 %0, %1, %2;")                  \
	X(mul_ftz_f32, "mul.rn.ftz.f32", "r:fff", R_RRR, "mul.rn.ftz.f32 %0, %1, %2;")                  \
	X(fma_ftz_f32, "fma.rn.ftz.f32", "r:fff", R_RRR, "fma.rn.ftz.f32 %0, %1, %2, %3;")              \
	X(add_sat_f32, "add.rn.sat.f32", "r:fff", R_RRR, "add.rn.sat.f32 %0, %1, %2;")                  \
	X(fma_ftz_sat_f32, "fma.rn.ftz.sat.f32", "r:fff", R_RRR, "fma.rn.ftz.sat.f32 %0, %1, %2, %3;")  \
	X(min_f32, "min.f32", "r:fff", R_RRR, "min.f32 %0, %1, %2;")                                    \
	X(max_f32, "max.f32", "r:fff", R_RRR, "max.f32 %0, %1, %2;")                                    \
	X(min_ftz_f32, "min.ftz.f32", "r:fff", R_RRR, "min.ftz.f32 %0, %1, %2;")                        \
	X(max_nan_f32, "max.NaN.f32", "r:fff", R_RRR, "max.NaN.f32 %0, %1, %2;")                        \
	X(abs_f32, "abs.f32", "r:fff", R_RRR, "abs.f32 %0, %1;")                                        \
	X(neg_f32, "neg.f32", "r:fff", R_RRR, "neg.f32 %0, %1;")                                        \
	X(abs_ftz_f32, "abs.ftz.f32", "r:fff", R_RRR, "abs.ftz.f32 %0, %1;")                            \
	X(copysign_f32, "copysign.f32", "r:fff", R_RRR, "copysign.f32 %0, %1, %2;")                     \
	X(div_rn_f32, "div.rn.f32", "r:fff", R_RRR, "div.rn.f32 %0, %1, %2;")                           \
	X(div_rz_f32, "div.rz.f32", "r:fff", R_RRR, "div.rz.f32 %0, %1, %2;")                           \
	X(div_rm_f32, "div.rm.f32", "r:fff", R_RRR, "div.rm.f32 %0, %1, %2;")                           \
	X(div_rp_f32, "div.rp.f32", "r:fff", R_RRR, "div.rp.f32 %0, %1, %2;")                           \
	X(div_rn_ftz_f32, "div.rn.ftz.f32", "r:fff", R_RRR, "div.rn.ftz.f32 %0, %1, %2;")               \
	X(div_approx_f32, "div.approx.f32", "r:fff", R_RRR, "div.approx.f32 %0, %1, %2;")               \
	X(div_full_f32, "div.full.f32", "r:fff", R_RRR, "div.full.f32 %0, %1, %2;")                     \
	X(rcp_rn_f32, "rcp.rn.f32", "r:fff", R_RRR, "rcp.rn.f32 %0, %1;")                               \
	X(rcp_rz_f32, "rcp.rz.f32", "r:fff", R_RRR, "rcp.rz.f32 %0, %1;")                               \
	X(rcp_approx_f32, "rcp.approx.f32", "r:fff", R_RRR, "rcp.approx.f32 %0, %1;")                   \
	X(rcp_approx_ftz_f32, "rcp.approx.ftz.f32", "r:fff", R_RRR, "rcp.approx.ftz.f32 %0, %1;")       \
	X(sqrt_rn_f32, "sqrt.rn.f32", "r:fff", R_RRR, "sqrt.rn.f32 %0, %1;")                            \
	X(sqrt_rz_f32, "sqrt.rz.f32", "r:fff", R_RRR, "sqrt.rz.f32 %0, %1;")                            \
	X(sqrt_rp_f32, "sqrt.rp.f32", "r:fff", R_RRR, "sqrt.rp.f32 %0, %1;")                            \
	X(sqrt_approx_f32, "sqrt.approx.f32", "r:fff", R_RRR, "sqrt.approx.f32 %0, %1;")                \
	X(rsqrt_approx_f32, "rsqrt.approx.f32", "r:fff", R_RRR, "rsqrt.approx.f32 %0, %1;")             \
	X(sin_approx_f32, "sin.approx.f32", "r:fff", R_RRR, "sin.approx.f32 %0, %1;")                   \
	X(cos_approx_f32, "cos.approx.f32", "r:fff", R_RRR, "cos.approx.f32 %0, %1;")                   \
	X(ex2_approx_f32, "ex2.approx.f32", "r:fff", R_RRR, "ex2.approx.f32 %0, %1;")                   \
	X(ex2_approx_ftz_f32, "ex2.approx.ftz.f32", "r:fff", R_RRR, "ex2.approx.ftz.f32 %0, %1;")       \
	X(lg2_approx_f32, "lg2.approx.f32", "r:fff", R_RRR, "lg2.approx.f32 %0, %1;")                   \
	X(tanh_approx_f32, "tanh.approx.f32", "r:fff", R_RRR, "tanh.approx.f32 %0, %1;")                \
	X(setp_lt_f32, "setp.lt.f32", "r:fff", R_RRR, P1("setp.lt.f32 p, %1, %2;"))                    \
	X(setp_le_ftz_f32, "setp.le.ftz.f32", "r:fff", R_RRR, P1("setp.le.ftz.f32 p, %1, %2;"))        \
	X(setp_equ_f32, "setp.equ.f32", "r:fff", R_RRR, P1("setp.equ.f32 p, %1, %2;"))                 \
	X(setp_neu_f32, "setp.neu.f32", "r:fff", R_RRR, P1("setp.neu.f32 p, %1, %2;"))                 \
	X(setp_num_f32, "setp.num.f32", "r:fff", R_RRR, P1("setp.num.f32 p, %1, %2;"))                 \
	X(testp_finite_f32, "testp.finite.f32", "r:fff", R_RRR, P1("testp.finite.f32 p, %1;"))         \
	X(testp_infinite_f32, "testp.infinite.f32", "r:fff", R_RRR, P1("testp.infinite.f32 p, %1;"))   \
	X(testp_number_f32, "testp.number.f32", "r:fff", R_RRR, P1("testp.number.f32 p, %1;"))         \
	X(testp_notanumber_f32, "testp.notanumber.f32", "r:fff", R_RRR, P1("testp.notanumber.f32 p, %1;")) \
	X(testp_normal_f32, "testp.normal.f32", "r:fff", R_RRR, P1("testp.normal.f32 p, %1;"))         \
	X(testp_subnormal_f32, "testp.subnormal.f32", "r:fff", R_RRR, P1("testp.subnormal.f32 p, %1;")) \
	X(cvt_rni_f32_f32, "cvt.rni.f32.f32", "r:fff", R_RRR, "cvt.rni.f32.f32 %0, %1;")                \
	X(cvt_rzi_f32_f32, "cvt.rzi.f32.f32", "r:fff", R_RRR, "cvt.rzi.f32.f32 %0, %1;")                \
	X(cvt_rmi_f32_f32, "cvt.rmi.f32.f32", "r:fff", R_RRR, "cvt.rmi.f32.f32 %0, %1;")                \
	X(cvt_rpi_f32_f32, "cvt.rpi.f32.f32", "r:fff", R_RRR, "cvt.rpi.f32.f32 %0, %1;")                \
	X(cvt_ftz_f32_f32, "cvt.ftz.f32.f32", "r:fff", R_RRR, "cvt.ftz.f32.f32 %0, %1;")                \
	X(cvt_sat_f32_f32, "cvt.sat.f32.f32", "r:fff", R_RRR, "cvt.sat.f32.f32 %0, %1;")                \
	X(cvt_rzi_s32_f32, "cvt.rzi.s32.f32", "r:fff", R_RRR, "cvt.rzi.s32.f32 %0, %1;")                \
	X(cvt_rni_s32_f32, "cvt.rni.s32.f32", "r:fff", R_RRR, "cvt.rni.s32.f32 %0, %1;")                \
	X(cvt_rmi_s32_f32, "cvt.rmi.s32.f32", "r:fff", R_RRR, "cvt.rmi.s32.f32 %0, %1;")                \
	X(cvt_rpi_u32_f32, "cvt.rpi.u32.f32", "r:fff", R_RRR, "cvt.rpi.u32.f32 %0, %1;")                \
	X(cvt_rzi_u32_f32, "cvt.rzi.u32.f32", "r:fff", R_RRR, "cvt.rzi.u32.f32 %0, %1;")                \
	X(cvt_rzi_s16_f32, "cvt.rzi.s16.f32", "r:fff", R_RRR, "cvt.rzi.s16.f32 %0, %1;")                \
	X(cvt_rn_f32_s32, "cvt.rn.f32.s32", "r:iii", R_RRR, "cvt.rn.f32.s32 %0, %1;")                   \
	X(cvt_rz_f32_s32, "cvt.rz.f32.s32", "r:iii", R_RRR, "cvt.rz.f32.s32 %0, %1;")                   \
	X(cvt_rm_f32_u32, "cvt.rm.f32.u32", "r:iii", R_RRR, "cvt.rm.f32.u32 %0, %1;")                   \
	X(cvt_rp_f32_u32, "cvt.rp.f32.u32", "r:iii", R_RRR, "cvt.rp.f32.u32 %0, %1;")                   \
	/* 64-bit integers */                                                                           \
	X(mul_lo_s64, "mul.lo.s64", "l:lll", L_LLL, "mul.lo.s64 %0, %1, %2;")                           \
	X(mul_hi_s64, "mul.hi.s64", "l:lll", L_LLL, "mul.hi.s64 %0, %1, %2;")                           \
	X(mul_hi_u64, "mul.hi.u64", "l:lll", L_LLL, "mul.hi.u64 %0, %1, %2;")                           \
	X(mad_hi_u64, "mad.hi.u64", "l:lll", L_LLL, "mad.hi.u64 %0, %1, %2, %3;")                       \
	X(div_u64, "div.u64", "l:ly", L_LLL, "div.u64 %0, %1, %2;")                                     \
	X(div_s64, "div.s64", "l:ly", L_LLL, "div.s64 %0, %1, %2;")                                     \
	X(rem_u64, "rem.u64", "l:ly", L_LLL, "rem.u64 %0, %1, %2;")                                     \
	X(rem_s64, "rem.s64", "l:ly", L_LLL, "rem.s64 %0, %1, %2;")                                     \
	X(min_s64, "min.s64", "l:lll", L_LLL, "min.s64 %0, %1, %2;")                                    \
	X(max_u64, "max.u64", "l:lll", L_LLL, "max.u64 %0, %1, %2;")                                    \
	X(abs_s64, "abs.s64", "l:lll", L_LLL, "abs.s64 %0, %1;")                                        \
	X(brev_b64, "brev.b64", "l:lll", L_LLL, "brev.b64 %0, %1;")                                     \
	X(shl_b64, "shl.b64", "l:lsi", L_LRR, "shl.b64 %0, %1, %2;")                                    \
	X(shr_u64, "shr.u64", "l:lsi", L_LRR, "shr.u64 %0, %1, %2;")                                    \
	X(shr_s64, "shr.s64", "l:lsi", L_LRR, "shr.s64 %0, %1, %2;")                                    \
	X(bfe_u64, "bfe.u64", "l:lss", L_LRR, "bfe.u64 %0, %1, %2, %3;")                                \
	X(bfe_s64, "bfe.s64", "l:lss", L_LRR, "bfe.s64 %0, %1, %2, %3;")                                \
	X(bfi_b64, "bfi.b64", "l:lli", L_LLR,                                                           \
	  "{ .reg .b32 t, u; and.b32 t, %3, 255; shr.b32 u, %3, 8; and.b32 u, u, 255; bfi.b64 %0, %1, %2, t, u; }") \
	X(popc_b64, "popc.b64", "r:lll", R_LLL, "popc.b64 %0, %1;")                                     \
	X(clz_b64, "clz.b64", "r:lll", R_LLL, "clz.b64 %0, %1;")                                        \
	X(bfind_u64, "bfind.u64", "r:lll", R_LLL, "bfind.u64 %0, %1;")                                  \
	X(bfind_s64, "bfind.s64", "r:lll", R_LLL, "bfind.s64 %0, %1;")                                  \
	X(setp_lt_s64, "setp.lt.s64", "r:lll", R_LLL, P1("setp.lt.s64 p, %1, %2;"))                    \
	X(setp_hi_u64, "setp.hi.u64", "r:lll", R_LLL, P1("setp.hi.u64 p, %1, %2;"))                    \
	X(mul_wide_s32, "mul.wide.s32", "l:iii", L_RRR, "mul.wide.s32 %0, %1, %2;")                     \
	X(mul_wide_u32, "mul.wide.u32", "l:iii", L_RRR, "mul.wide.u32 %0, %1, %2;")                     \
	X(mad_wide_s32, "mad.wide.s32", "l:iil", L_RRL, "mad.wide.s32 %0, %1, %2, %3;")                 \
	X(cvt_u32_u64, "cvt.u32.u64", "r:lll", R_LLL, "cvt.u32.u64 %0, %1;")                            \
	X(cvt_sat_s32_s64, "cvt.sat.s32.s64", "r:lll", R_LLL, "cvt.sat.s32.s64 %0, %1;")                \
	X(cvt_sat_u32_s64, "cvt.sat.u32.s64", "r:lll", R_LLL, "cvt.sat.u32.s64 %0, %1;")                \
	X(cvt_s64_s32, "cvt.s64.s32", "l:iii", L_RRR, "cvt.s64.s32 %0, %1;")                            \
	X(cvt_u64_u32, "cvt.u64.u32", "l:iii", L_RRR, "cvt.u64.u32 %0, %1;")                            \
	/* 64-bit floats */                                                                             \
	X(add_rn_f64, "add.rn.f64", "l:ddd", L_LLL, "add.rn.f64 %0, %1, %2;")                           \
	X(add_rz_f64, "add.rz.f64", "l:ddd", L_LLL, "add.rz.f64 %0, %1, %2;")                           \
	X(add_rm_f64, "add.rm.f64", "l:ddd", L_LLL, "add.rm.f64 %0, %1, %2;")                           \
	X(add_rp_f64, "add.rp.f64", "l:ddd", L_LLL, "add.rp.f64 %0, %1, %2;")                           \
	X(sub_rn_f64, "sub.rn.f64", "l:ddd", L_LLL, "sub.rn.f64 %0, %1, %2;")                           \
	X(mul_rn_f64, "mul.rn.f64", "l:ddd", L_LLL, "mul.rn.f64 %0, %1, %2;")                           \
	X(mul_rz_f64, "mul.rz.f64", "l:ddd", L_LLL, "mul.rz.f64 %0, %1, %2;")                           \
	X(mul_rp_f64, "mul.rp.f64", "l:ddd", L_LLL, "mul.rp.f64 %0, %1, %2;")                           \
	X(fma_rn_f64, "fma.rn.f64", "l:ddd", L_LLL, "fma.rn.f64 %0, %1, %2, %3;")                       \
	X(fma_rz_f64, "fma.rz.f64", "l:ddd", L_LLL, "fma.rz.f64 %0, %1, %2, %3;")                       \
	X(fma_rm_f64, "fma.rm.f64", "l:ddd", L_LLL, "fma.rm.f64 %0, %1, %2, %3;")                       \
	X(fma_rp_f64, "fma.rp.f64", "l:ddd", L_LLL, "fma.rp.f64 %0, %1, %2, %3;")                       \
	X(div_rn_f64, "div.rn.f64", "l:ddd", L_LLL, "div.rn.f64 %0, %1, %2;")                           \
	X(div_rz_f64, "div.rz.f64", "l:ddd", L_LLL, "div.rz.f64 %0, %1, %2;")                           \
	X(div_rm_f64, "div.rm.f64", "l:ddd", L_LLL, "div.rm.f64 %0, %1, %2;")                           \
	X(rcp_rn_f64, "rcp.rn.f64", "l:ddd", L_LLL, "rcp.rn.f64 %0, %1;")                               \
	X(rcp_rp_f64, "rcp.rp.f64", "l:ddd", L_LLL, "rcp.rp.f64 %0, %1;")                               \
	X(rcp_approx_ftz_f64, "rcp.approx.ftz.f64", "l:ddd", L_LLL, "rcp.approx.ftz.f64 %0, %1;")       \
	X(sqrt_rn_f64, "sqrt.rn.f64", "l:ddd", L_LLL, "sqrt.rn.f64 %0, %1;")                            \
	X(sqrt_rz_f64, "sqrt.rz.f64", "l:ddd", L_LLL, "sqrt.rz.f64 %0, %1;")                            \
	X(rsqrt_approx_f64, "rsqrt.approx.f64", "l:ddd", L_LLL, "rsqrt.approx.f64 %0, %1;")             \
	X(min_f64, "min.f64", "l:ddd", L_LLL, "min.f64 %0, %1, %2;")                                    \
	X(max_f64, "max.f64", "l:ddd", L_LLL, "max.f64 %0, %1, %2;")                                    \
	X(abs_f64, "abs.f64", "l:ddd", L_LLL, "abs.f64 %0, %1;")                                        \
	X(neg_f64, "neg.f64", "l:ddd", L_LLL, "neg.f64 %0, %1;")                                        \
	X(copysign_f64, "copysign.f64", "l:ddd", L_LLL, "copysign.f64 %0, %1, %2;")                     \
	X(setp_lt_f64, "setp.lt.f64", "r:ddd", R_LLL, P1("setp.lt.f64 p, %1, %2;"))                    \
	X(setp_gtu_f64, "setp.gtu.f64", "r:ddd", R_LLL, P1("setp.gtu.f64 p, %1, %2;"))                 \
	X(testp_subnormal_f64, "testp.subnormal.f64", "r:ddd", R_LLL, P1("testp.subnormal.f64 p, %1;")) \
	X(cvt_rn_f32_f64, "cvt.rn.f32.f64", "r:ddd", R_LLL, "cvt.rn.f32.f64 %0, %1;")                   \
	X(cvt_rz_f32_f64, "cvt.rz.f32.f64", "r:ddd", R_LLL, "cvt.rz.f32.f64 %0, %1;")                   \
	X(cvt_rm_f32_f64, "cvt.rm.f32.f64", "r:ddd", R_LLL, "cvt.rm.f32.f64 %0, %1;")                   \
	X(cvt_rp_f32_f64, "cvt.rp.f32.f64", "r:ddd", R_LLL, "cvt.rp.f32.f64 %0, %1;")                   \
	X(cvt_rn_ftz_f32_f64, "cvt.rn.ftz.f32.f64", "r:ddd", R_LLL, "cvt.rn.ftz.f32.f64 %0, %1;")       \
	X(cvt_rzi_s32_f64, "cvt.rzi.s32.f64", "r:ddd", R_LLL, "cvt.rzi.s32.f64 %0, %1;")                \
	X(cvt_rni_u32_f64, "cvt.rni.u32.f64", "r:ddd", R_LLL, "cvt.rni.u32.f64 %0, %1;")                \
	X(cvt_rn_f32_s64, "cvt.rn.f32.s64", "r:lll", R_LLL, "cvt.rn.f32.s64 %0, %1;")                   \
	X(cvt_rz_f32_u64, "cvt.rz.f32.u64", "r:lll", R_LLL, "cvt.rz.f32.u64 %0, %1;")                   \
	X(cvt_f64_f32, "cvt.f64.f32", "l:fff", L_RRR, "cvt.f64.f32 %0, %1;")                            \
	X(cvt_ftz_f64_f32, "cvt.ftz.f64.f32", "l:fff", L_RRR, "cvt.ftz.f64.f32 %0, %1;")                \
	X(cvt_rzi_s64_f32, "cvt.rzi.s64.f32", "l:fff", L_RRR, "cvt.rzi.s64.f32 %0, %1;")                \
	X(cvt_rni_u64_f32, "cvt.rni.u64.f32", "l:fff", L_RRR, "cvt.rni.u64.f32 %0, %1;")                \
	X(cvt_rn_f64_s32, "cvt.rn.f64.s32", "l:iii", L_RRR, "cvt.rn.f64.s32 %0, %1;")                   \
	X(cvt_rn_f64_s64, "cvt.rn.f64.s64", "l:lll", L_LLL, "cvt.rn.f64.s64 %0, %1;")                   \
	X(cvt_rz_f64_u64, "cvt.rz.f64.u64", "l:lll", L_LLL, "cvt.rz.f64.u64 %0, %1;")                   \
	X(cvt_rzi_s64_f64, "cvt.rzi.s64.f64", "l:ddd", L_LLL, "cvt.rzi.s64.f64 %0, %1;")                \
	X(cvt_rni_s64_f64, "cvt.rni.s64.f64", "l:ddd", L_LLL, "cvt.rni.s64.f64 %0, %1;")                \
	X(cvt_rpi_u64_f64, "cvt.rpi.u64.f64", "l:ddd", L_LLL, "cvt.rpi.u64.f64 %0, %1;")                \
	X(cvt_rni_f64_f64, "cvt.rni.f64.f64", "l:ddd", L_LLL, "cvt.rni.f64.f64 %0, %1;")                \
	/* the second run (appended, so that the forms above keep their operands): NaN operands       \
	 * together, and forms the first run did not cover */                                         \
	X(add_rn_f64_nan, "add.rn.f64", "l:nnn", L_LLL, "add.rn.f64 %0, %1, %2;")                       \
	X(sub_rn_f64_nan, "sub.rn.f64", "l:nnn", L_LLL, "sub.rn.f64 %0, %1, %2;")                       \
	X(mul_rn_f64_nan, "mul.rn.f64", "l:nnn", L_LLL, "mul.rn.f64 %0, %1, %2;")                       \
	X(fma_rn_f64_nan, "fma.rn.f64", "l:nnn", L_LLL, "fma.rn.f64 %0, %1, %2, %3;")                   \
	X(fma_rz_f64_nan, "fma.rz.f64", "l:nnn", L_LLL, "fma.rz.f64 %0, %1, %2, %3;")                   \
	X(div_rn_f64_nan, "div.rn.f64", "l:nnn", L_LLL, "div.rn.f64 %0, %1, %2;")                       \
	X(min_f64_nan, "min.f64", "l:nnn", L_LLL, "min.f64 %0, %1, %2;")                                \
	X(max_f64_nan, "max.f64", "l:nnn", L_LLL, "max.f64 %0, %1, %2;")                                \
	X(sqrt_rn_f64_nan, "sqrt.rn.f64", "l:nnn", L_LLL, "sqrt.rn.f64 %0, %1;")                        \
	X(cvt_rn_f32_f64_nan, "cvt.rn.f32.f64", "r:nnn", R_LLL, "cvt.rn.f32.f64 %0, %1;")               \
	X(min_f32_nan, "min.f32", "r:mmm", R_RRR, "min.f32 %0, %1, %2;")                                \
	X(fma_rn_f32_nan, "fma.rn.f32", "r:mmm", R_RRR, "fma.rn.f32 %0, %1, %2, %3;")                   \
	X(cvt_f64_f32_nan, "cvt.f64.f32", "l:mmm", L_RRR, "cvt.f64.f32 %0, %1;")                        \
	X(cvt_rzi_s16_f64, "cvt.rzi.s16.f64", "r:ddd", R_LLL, "cvt.rzi.s16.f64 %0, %1;")                \
	X(cvt_rzi_u16_f64, "cvt.rzi.u16.f64", "r:ddd", R_LLL, "cvt.rzi.u16.f64 %0, %1;")                \
	X(cvt_rni_s8_f32, "cvt.rni.s8.f32", "r:fff", R_RRR, "cvt.rni.s8.f32 %0, %1;")                   \
	X(cvt_rzi_s32_f64b, "cvt.rzi.s32.f64", "r:nnn", R_LLL, "cvt.rzi.s32.f64 %0, %1;")              \
	X(mad24_hi_sat_s32, "mad24.hi.sat.s32", "r:iii", R_RRR, "mad24.hi.sat.s32 %0, %1, %2, %3;")     \
	X(testp_normal_f64, "testp.normal.f64", "r:ddd", R_LLL, P1("testp.normal.f64 p, %1;"))         \
	X(testp_finite_f64, "testp.finite.f64", "r:ddd", R_LLL, P1("testp.finite.f64 p, %1;"))         \
	X(testp_notanumber_f64, "testp.notanumber.f64", "r:ddd", R_LLL, P1("testp.notanumber.f64 p, %1;")) \
	X(set_lt_u32_s32, "set.lt.u32.s32", "r:iii", R_RRR, "set.lt.u32.s32 %0, %1, %2;")               \
	X(set_gtu_f32_f32, "set.gtu.f32.f32", "r:fff", R_RRR, "set.gtu.f32.f32 %0, %1, %2;")            \
	X(setp_lt_and_s32, "setp.lt.and.s32", "r:iii", R_RRR,                                           \
	  "{ .reg .pred p, q, c; setp.ne.b32 c, %3, 0; setp.lt.and.s32 p|q, %1, %2, c; selp.u32 %0, 1, 0, p; @q or.b32 %0, %0, 2; }") \
	X(bmsk_clamp, "bmsk.clamp.b32", "r:sss", R_RRR, "bmsk.clamp.b32 %0, %1, %2;")                   \
	X(bmsk_wrap, "bmsk.wrap.b32", "r:sss", R_RRR, "bmsk.wrap.b32 %0, %1, %2;")                      \
	X(szext_clamp_s32, "szext.clamp.s32", "r:iss", R_RRR, "szext.clamp.s32 %0, %1, %2;")            \
	X(szext_wrap_u32, "szext.wrap.u32", "r:iss", R_RRR, "szext.wrap.u32 %0, %1, %2;")              \
	/* the third run: warp-wide operations (a warp's 32 threads take the sets 32 w .. 32 w + 31;   \
	 * an upper-case generator gives the warp one value) and atomics on each thread's own word */ \
	X(shfl_idx_u, "shfl.sync.idx.b32", "l:iSC", L_RRR, SHFL("idx"))                                \
	X(shfl_up_u, "shfl.sync.up.b32", "l:iSC", L_RRR, SHFL("up"))                                   \
	X(shfl_down_u, "shfl.sync.down.b32", "l:iSC", L_RRR, SHFL("down"))                             \
	X(shfl_bfly_u, "shfl.sync.bfly.b32", "l:iSC", L_RRR, SHFL("bfly"))                             \
	X(shfl_idx, "shfl.sync.idx.b32", "l:isc", L_RRR, SHFL("idx"))                                  \
	X(shfl_up, "shfl.sync.up.b32", "l:isc", L_RRR, SHFL("up"))                                     \
	X(shfl_down, "shfl.sync.down.b32", "l:isc", L_RRR, SHFL("down"))                               \
	X(shfl_bfly, "shfl.sync.bfly.b32", "l:isc", L_RRR, SHFL("bfly"))                               \
	X(vote_ballot, "vote.sync.ballot.b32", "r:i", R_RRR,                                           \
	  "{ .reg .pred p; setp.lt.s32 p, %1, 0; vote.sync.ballot.b32 %0, p, -1; }")                   \
	X(vote_ballot_not, "vote.sync.ballot.b32", "r:i", R_RRR,                                       \
	  "{ .reg .pred p; setp.lt.s32 p, %1, 0; vote.sync.ballot.b32 %0, !p, -1; }")                  \
	X(vote_all, "vote.sync.all.pred", "r:q", R_RRR, VOTE("all"))                                   \
	X(vote_any, "vote.sync.any.pred", "r:w", R_RRR, VOTE("any"))                                   \
	X(vote_uni, "vote.sync.uni.pred", "r:w", R_RRR, VOTE("uni"))                                   \
	X(vote_uni_u, "vote.sync.uni.pred", "r:W", R_RRR, VOTE("uni"))                                 \
	X(match_any, "match.any.sync.b32", "r:k", R_RRR, "match.any.sync.b32 %0, %1, -1;")             \
	X(match_all, "match.all.sync.b32", "l:w", L_RRR,                                               \
	  "{ .reg .pred p; .reg .b32 t, u; match.all.sync.b32 t|p, %1, -1; selp.u32 u, 1, 0, p; mov.b64 %0, {t, u}; }") \
	X(match_any_64, "match.any.sync.b64", "r:j", R_LLL, "match.any.sync.b64 %0, %1, -1;")          \
	X(redux_add_u32, "redux.sync.add.u32", "r:i", R_RRR, "redux.sync.add.u32 %0, %1, -1;")         \
	X(redux_min_u32, "redux.sync.min.u32", "r:i", R_RRR, "redux.sync.min.u32 %0, %1, -1;")         \
	X(redux_max_u32, "redux.sync.max.u32", "r:i", R_RRR, "redux.sync.max.u32 %0, %1, -1;")         \
	X(redux_min_s32, "redux.sync.min.s32", "r:i", R_RRR, "redux.sync.min.s32 %0, %1, -1;")         \
	X(redux_max_s32, "redux.sync.max.s32", "r:i", R_RRR, "redux.sync.max.s32 %0, %1, -1;")         \
	X(redux_and, "redux.sync.and.b32", "r:i", R_RRR, "redux.sync.and.b32 %0, %1, -1;")             \
	X(redux_or, "redux.sync.or.b32", "r:i", R_RRR, "redux.sync.or.b32 %0, %1, -1;")                \
	X(redux_xor, "redux.sync.xor.b32", "r:i", R_RRR, "redux.sync.xor.b32 %0, %1, -1;")             \
	X(atom_s_inc, "atom.shared.inc.u32", "l:ss", L_RRR, ATOM32(shared, "inc.u32 o, [q], %2"))     \
	X(atom_s_dec, "atom.shared.dec.u32", "l:ss", L_RRR, ATOM32(shared, "dec.u32 o, [q], %2"))     \
	X(atom_s_cas, "atom.shared.cas.b32", "l:kkk", L_RRR, ATOM32(shared, "cas.b32 o, [q], %2, %3")) \
	X(atom_s_exch, "atom.shared.exch.b32", "l:ii", L_RRR, ATOM32(shared, "exch.b32 o, [q], %2"))  \
	X(atom_s_add, "atom.shared.add.u32", "l:ii", L_RRR, ATOM32(shared, "add.u32 o, [q], %2"))     \
	X(atom_s_add_f32, "atom.shared.add.f32", "l:ff", L_RRR, ATOM32(shared, "add.f32 o, [q], %2")) \
	X(atom_s_min_s32, "atom.shared.min.s32", "l:ii", L_RRR, ATOM32(shared, "min.s32 o, [q], %2")) \
	X(atom_s_max_u32, "atom.shared.max.u32", "l:ii", L_RRR, ATOM32(shared, "max.u32 o, [q], %2")) \
	X(atom_s_and, "atom.shared.and.b32", "l:ii", L_RRR, ATOM32(shared, "and.b32 o, [q], %2"))     \
	X(atom_s_or, "atom.shared.or.b32", "l:ii", L_RRR, ATOM32(shared, "or.b32 o, [q], %2"))        \
	X(atom_s_xor, "atom.shared.xor.b32", "l:ii", L_RRR, ATOM32(shared, "xor.b32 o, [q], %2"))     \
	X(atom_s_add_f64, "atom.shared.add.f64", "l:dd", L_LLL, ATOM64(shared, "add.f64 o, [q], %2")) \
	X(atom_s_min_s64, "atom.shared.min.s64", "l:ll", L_LLL, ATOM64(shared, "min.s64 o, [q], %2")) \
	X(atom_s_max_u64, "atom.shared.max.u64", "l:ll", L_LLL, ATOM64(shared, "max.u64 o, [q], %2")) \
	X(atom_s_add_u64, "atom.shared.add.u64", "l:ll", L_LLL, ATOM64(shared, "add.u64 o, [q], %2")) \
	X(atom_s_cas_64, "atom.shared.cas.b64", "l:jjj", L_LLL, ATOM64(shared, "cas.b64 o, [q], %2, %3")) \
	X(atom_g_add_f32, "atom.global.add.f32", "l:ff", L_RRR, ATOM32(global, "add.f32 o, [q], %2")) \
	X(atom_g_inc, "atom.global.inc.u32", "l:ss", L_RRR, ATOM32(global, "inc.u32 o, [q], %2"))     \
	X(atom_g_dec, "atom.global.dec.u32", "l:ss", L_RRR, ATOM32(global, "dec.u32 o, [q], %2"))     \
	X(atom_g_cas, "atom.global.cas.b32", "l:kkk", L_RRR, ATOM32(global, "cas.b32 o, [q], %2, %3")) \
	X(atom_g_add_f64, "atom.global.add.f64", "l:dd", L_LLL, ATOM64(global, "add.f64 o, [q], %2")) \
	X(atom_g_max_s32, "atom.global.max.s32", "l:ii", L_RRR, ATOM32(global, "max.s32 o, [q], %2")) \
	X(red_s_add_f32, "red.shared.add.f32", "l:ff", L_RRR, RED32(shared, "add.f32 [q], %2"))       \
	X(red_g_add_f32, "red.global.add.f32", "l:ff", L_RRR, RED32(global, "add.f32 [q], %2"))          \
	/* the fourth run: 16-bit integers (the low halves of a, b, c; a result widened by cvt.s32   \
	 * or cvt.u32 of its type) and loads and stores of other widths than the register's */       \
	X(add_s16, "add.s16", "r:iii", R_RRR, H16("add.s16 z, x, y;", "s32.s16"))                           \
	X(sub_u16, "sub.u16", "r:iii", R_RRR, H16("sub.u16 z, x, y;", "u32.u16"))                           \
	X(mul_lo_s16, "mul.lo.s16", "r:iii", R_RRR, H16("mul.lo.s16 z, x, y;", "s32.s16"))                  \
	X(mul_hi_s16, "mul.hi.s16", "r:iii", R_RRR, H16("mul.hi.s16 z, x, y;", "s32.s16"))                  \
	X(mul_hi_u16, "mul.hi.u16", "r:iii", R_RRR, H16("mul.hi.u16 z, x, y;", "u32.u16"))                  \
	X(mad_lo_s16, "mad.lo.s16", "r:iii", R_RRR, H16("mad.lo.s16 z, x, y, w;", "s32.s16"))               \
	X(mul_wide_s16, "mul.wide.s16", "r:iii", R_RRR,                                                 \
	  "{ .reg .b16 x, y, h; mov.b32 {x, h}, %1; mov.b32 {y, h}, %2; mul.wide.s16 %0, x, y; }")      \
	X(mul_wide_u16, "mul.wide.u16", "r:iii", R_RRR,                                                 \
	  "{ .reg .b16 x, y, h; mov.b32 {x, h}, %1; mov.b32 {y, h}, %2; mul.wide.u16 %0, x, y; }")      \
	X(min_s16, "min.s16", "r:iii", R_RRR, H16("min.s16 z, x, y;", "s32.s16"))                           \
	X(max_u16, "max.u16", "r:iii", R_RRR, H16("max.u16 z, x, y;", "u32.u16"))                           \
	X(abs_s16, "abs.s16", "r:iii", R_RRR, H16("abs.s16 z, x;", "s32.s16"))                              \
	X(neg_s16, "neg.s16", "r:iii", R_RRR, H16("neg.s16 z, x;", "s32.s16"))                              \
	X(shl_b16, "shl.b16", "r:isi", R_RRR,                                                           \
	  "{ .reg .b16 x, z, h; mov.b32 {x, h}, %1; shl.b16 z, x, %2; cvt.u32.u16 %0, z; }")            \
	X(shr_s16, "shr.s16", "r:isi", R_RRR,                                                           \
	  "{ .reg .b16 x, z, h; mov.b32 {x, h}, %1; shr.s16 z, x, %2; cvt.s32.s16 %0, z; }")            \
	X(div_s16, "div.s16", "r:iz", R_RRR, H16("div.s16 z, x, y;", "s32.s16"))                            \
	X(rem_u16, "rem.u16", "r:iz", R_RRR, H16("rem.u16 z, x, y;", "u32.u16"))                            \
	X(not_b16, "not.b16", "r:iii", R_RRR, H16("not.b16 z, x;", "u32.u16"))                              \
	X(setp_lt_s16, "setp.lt.s16", "r:iii", R_RRR,                                                   \
	  "{ .reg .b16 x, y, h; .reg .pred p; mov.b32 {x, h}, %1; mov.b32 {y, h}, %2; setp.lt.s16 p, x, y; selp.u32 %0, 1, 0, p; }") \
	X(cvt_s16_s8, "cvt.s16.s8", "r:iii", R_RRR,                                                     \
	  "{ .reg .b16 x, z, h; mov.b32 {x, h}, %1; cvt.s16.s8 z, x; cvt.u32.u16 %0, z; }")             \
	X(mov_swap_halves, "mov.b32.halves", "r:iii", R_RRR,                                            \
	  "{ .reg .b16 x, y; mov.b32 {x, y}, %1; mov.b32 %0, {y, x}; }")                                \
	X(ld_s_s8_1, "ld.shared.s8", "r:iii", R_RRR, LDW(shared, "u32", "s8 %0, [q+1]"))               \
	X(ld_s_u8_3, "ld.shared.u8", "r:iii", R_RRR, LDW(shared, "u32", "u8 %0, [q+3]"))               \
	X(ld_s_s16_2, "ld.shared.s16", "r:iii", R_RRR, LDW(shared, "u32", "s16 %0, [q+2]"))            \
	X(ld_g_s8_2, "ld.global.s8", "r:iii", R_RRR, LDW(global, "u32", "s8 %0, [q+2]"))               \
	X(ld_g_u16_0, "ld.global.u16", "r:iii", R_RRR, LDW(global, "u32", "u16 %0, [q]"))              \
	X(ld_g_s8_64, "ld.global.s8.b64", "l:iii", L_RRR, LDW(global, "u32", "s8 %0, [q+3]"))          \
	X(ld_g_s32_64, "ld.global.s32.b64", "l:lll", L_LLL, LDW(global, "u64", "s32 %0, [q+4]"))       \
	X(ld_s_v2_u32, "ld.shared.v2.u32", "l:lll", L_LLL,                                              \
	  "{ .reg .b64 q; .reg .b32 t, u; cvta.to.shared.u64 q, %5; st.shared.u64 [q], %1; ld.shared.v2.u32 {t, u}, [q]; mov.b64 %0, {u, t}; }") \
	X(ld_g_v4_u16, "ld.global.v4.u16", "l:lll", L_LLL,                                              \
	  "{ .reg .b64 q; .reg .b16 a, b, c, d; cvta.to.global.u64 q, %4; st.global.u64 [q], %1; ld.global.v4.u16 {a, b, c, d}, [q]; mov.b64 %0, {d, c, b, a}; }") \
	X(st_s_u8, "st.shared.u8", "r:iii", R_RRR,                                                      \
	  "{ .reg .b64 q; cvta.to.shared.u64 q, %5; st.shared.u32 [q], %1; st.shared.u8 [q+1], %2; ld.shared.u32 %0, [q]; }") \
	X(st_g_u16, "st.global.u16", "r:iii", R_RRR,                                                    \
	  "{ .reg .b64 q; cvta.to.global.u64 q, %4; st.global.u32 [q], %1; st.global.u16 [q+2], %2; ld.global.u32 %0, [q]; }") \
	X(st_g_v2_u32, "st.global.v2.u32", "l:iii", L_RRR,                                              \
	  "{ .reg .b64 q; cvta.to.global.u64 q, %4; st.global.v2.u32 [q], {%1, %2}; ld.global.u64 %0, [q]; }") \
	X(st_s_u8_from64, "st.shared.u8.b64", "l:lll", L_LLL,                                           \
	  "{ .reg .b64 q; cvta.to.shared.u64 q, %5; st.shared.u64 [q], %1; st.shared.u8 [q+5], %2; ld.shared.u64 %0, [q]; }") \
	/* the fifth run: half_ops.cu's 16-bit float forms again, through the interpreter's own     \
	 * dispatch here (test_simt_half.c checks simt_half.c's functions alone): the low halves of   \
	 * a, b, c for a 16-bit form, the result zero-extended */                                     \
	X(h_add_f16, "add.rn.f16", "r:hhh", R_RRR, H16("add.rn.f16 z, x, y;", "u32.u16"))               \
	X(h_sub_f16, "sub.rn.f16", "r:hhh", R_RRR, H16("sub.rn.f16 z, x, y;", "u32.u16"))               \
	X(h_mul_f16, "mul.rn.f16", "r:hhh", R_RRR, H16("mul.rn.f16 z, x, y;", "u32.u16"))               \
	X(h_fma_f16, "fma.rn.f16", "r:hhh", R_RRR, H16("fma.rn.f16 z, x, y, w;", "u32.u16"))            \
	X(h_add_ftz_f16, "add.rn.ftz.f16", "r:hhh", R_RRR, H16("add.rn.ftz.f16 z, x, y;", "u32.u16"))   \
	X(h_fma_sat_f16, "fma.rn.sat.f16", "r:hhh", R_RRR, H16("fma.rn.sat.f16 z, x, y, w;", "u32.u16")) \
	X(h_fma_relu_f16, "fma.rn.relu.f16", "r:hhh", R_RRR, H16("fma.rn.relu.f16 z, x, y, w;", "u32.u16")) \
	X(h_neg_f16, "neg.f16", "r:hhh", R_RRR, H16("neg.f16 z, x;", "u32.u16"))                        \
	X(h_abs_f16, "abs.f16", "r:hhh", R_RRR, H16("abs.f16 z, x;", "u32.u16"))                        \
	X(h_min_f16, "min.f16", "r:hhh", R_RRR, H16("min.f16 z, x, y;", "u32.u16"))                     \
	X(h_max_nan_f16, "max.NaN.f16", "r:hhh", R_RRR, H16("max.NaN.f16 z, x, y;", "u32.u16"))         \
	X(h_add_f16x2, "add.rn.f16x2", "r:hhh", R_RRR, "add.rn.f16x2 %0, %1, %2;")                      \
	X(h_mul_f16x2, "mul.rn.f16x2", "r:hhh", R_RRR, "mul.rn.f16x2 %0, %1, %2;")                      \
	X(h_fma_f16x2, "fma.rn.f16x2", "r:hhh", R_RRR, "fma.rn.f16x2 %0, %1, %2, %3;")                  \
	X(h_fma_ftz_f16x2, "fma.rn.ftz.f16x2", "r:hhh", R_RRR, "fma.rn.ftz.f16x2 %0, %1, %2, %3;")      \
	X(h_min_f16x2, "min.f16x2", "r:hhh", R_RRR, "min.f16x2 %0, %1, %2;")                            \
	X(h_neg_f16x2, "neg.f16x2", "r:hhh", R_RRR, "neg.f16x2 %0, %1;")                                \
	X(h_add_bf16, "add.rn.bf16", "r:hhh", R_RRR, H16("add.rn.bf16 z, x, y;", "u32.u16"))            \
	X(h_mul_bf16, "mul.rn.bf16", "r:hhh", R_RRR, H16("mul.rn.bf16 z, x, y;", "u32.u16"))            \
	X(h_fma_bf16, "fma.rn.bf16", "r:hhh", R_RRR, H16("fma.rn.bf16 z, x, y, w;", "u32.u16"))         \
	X(h_fma_relu_bf16, "fma.rn.relu.bf16", "r:hhh", R_RRR, H16("fma.rn.relu.bf16 z, x, y, w;", "u32.u16")) \
	X(h_max_bf16, "max.bf16", "r:hhh", R_RRR, H16("max.bf16 z, x, y;", "u32.u16"))                  \
	X(h_add_bf16x2, "add.rn.bf16x2", "r:hhh", R_RRR, "add.rn.bf16x2 %0, %1, %2;")                   \
	X(h_fma_bf16x2, "fma.rn.bf16x2", "r:hhh", R_RRR, "fma.rn.bf16x2 %0, %1, %2, %3;")               \
	X(h_max_bf16x2, "max.bf16x2", "r:hhh", R_RRR, "max.bf16x2 %0, %1, %2;")                         \
	X(h_setp_lt_f16x2, "setp.lt.f16x2", "r:hhh", R_RRR,                                             \
	  "{ .reg .pred p, q; setp.lt.f16x2 p|q, %1, %2; selp.u32 %0, 1, 0, p; @q or.b32 %0, %0, 2; }") \
	X(h_setp_gtu_bf16x2, "setp.gtu.bf16x2", "r:hhh", R_RRR,                                         \
	  "{ .reg .pred p, q; setp.gtu.bf16x2 p|q, %1, %2; selp.u32 %0, 1, 0, p; @q or.b32 %0, %0, 2; }") \
	X(h_setp_eq_f16, "setp.eq.f16", "r:hhh", R_RRR,                                                 \
	  "{ .reg .pred p; .reg .b16 x, y, h; mov.b32 {x, h}, %1; mov.b32 {y, h}, %2; setp.eq.f16 p, x, y; selp.u32 %0, 1, 0, p; }") \
	X(h_cvt_f32_f16, "cvt.f32.f16", "r:hhh", R_RRR, "{ .reg .b16 x, h; mov.b32 {x, h}, %1; cvt.f32.f16 %0, x; }") \
	X(h_cvt_f32_bf16, "cvt.f32.bf16", "r:hhh", R_RRR, "{ .reg .b16 x, h; mov.b32 {x, h}, %1; cvt.f32.bf16 %0, x; }") \
	X(h_cvt_rn_f16_f32, "cvt.rn.f16.f32", "r:fff", R_RRR, "{ .reg .b16 z; cvt.rn.f16.f32 z, %1; cvt.u32.u16 %0, z; }") \
	X(h_cvt_rz_bf16_f32, "cvt.rz.bf16.f32", "r:fff", R_RRR, "{ .reg .b16 z; cvt.rz.bf16.f32 z, %1; cvt.u32.u16 %0, z; }") \
	X(h_cvt_rn_f16x2_f32, "cvt.rn.f16x2.f32", "r:fff", R_RRR, "cvt.rn.f16x2.f32 %0, %1, %2;")       \
	X(h_cvt_rn_relu_bf16x2_f32, "cvt.rn.relu.bf16x2.f32", "r:fff", R_RRR, "cvt.rn.relu.bf16x2.f32 %0, %1, %2;") \
	X(h_cvt_rzi_s32_f16, "cvt.rzi.s32.f16", "r:hhh", R_RRR, "{ .reg .b16 x, h; mov.b32 {x, h}, %1; cvt.rzi.s32.f16 %0, x; }") \
	X(h_cvt_rn_f16_s32, "cvt.rn.f16.s32", "r:iii", R_RRR, "{ .reg .b16 z; cvt.rn.f16.s32 z, %1; cvt.u32.u16 %0, z; }") \
	X(h_cvt_f64_f16, "cvt.f64.f16", "l:hhh", L_RRR, "{ .reg .b16 x, h; mov.b32 {x, h}, %1; cvt.f64.f16 %0, x; }") \
	X(h_dp4a_s32_u32, "dp4a.s32.u32", "r:iii", R_RRR, "dp4a.s32.u32 %0, %1, %2, %3;")               \
	X(h_dp2a_hi_s32_s32, "dp2a.hi.s32.s32", "r:iii", R_RRR, "dp2a.hi.s32.s32 %0, %1, %2, %3;")      \
	X(h_atom_add_f16x2, "atom.global.add.noftz.f16x2", "l:hhh", L_RRR, ATOM32(global, "add.noftz.f16x2 o, [q], %2")) \
	X(h_atom_add_bf16x2, "atom.shared.add.noftz.bf16x2", "l:hhh", L_RRR, ATOM32(shared, "add.noftz.bf16x2 o, [q], %2")) \
	X(h_red_add_f16, "red.global.add.noftz.f16", "r:hhh", R_RRR,                                    \
	  "{ .reg .b64 q; .reg .b16 y, h; mov.b32 {y, h}, %2; cvta.to.global.u64 q, %4; st.global.u32 [q], %1; red.global.add.noftz.f16 [q], y; ld.global.u32 %0, [q]; }") \
	/* the sixth run: the 8-bit floats e4m3 and e5m2, two to a 16-bit word (a's to the upper byte) */ \
	X(f8_e4m3x2_f32, "cvt.rn.satfinite.e4m3x2.f32", "r:ggg", R_RRR, F8PACK("cvt.rn.satfinite.e4m3x2.f32 z, %1, %2;")) \
	X(f8_e5m2x2_f32, "cvt.rn.satfinite.e5m2x2.f32", "r:ggg", R_RRR, F8PACK("cvt.rn.satfinite.e5m2x2.f32 z, %1, %2;")) \
	X(f8_e4m3x2_f32_any, "cvt.rn.satfinite.e4m3x2.f32", "r:fff", R_RRR, F8PACK("cvt.rn.satfinite.e4m3x2.f32 z, %1, %2;")) \
	X(f8_e5m2x2_f32_any, "cvt.rn.satfinite.e5m2x2.f32", "r:fff", R_RRR, F8PACK("cvt.rn.satfinite.e5m2x2.f32 z, %1, %2;")) \
	X(f8_relu_e4m3x2_f32, "cvt.rn.satfinite.relu.e4m3x2.f32", "r:ggg", R_RRR, F8PACK("cvt.rn.satfinite.relu.e4m3x2.f32 z, %1, %2;")) \
	X(f8_relu_e5m2x2_f32, "cvt.rn.satfinite.relu.e5m2x2.f32", "r:ggg", R_RRR, F8PACK("cvt.rn.satfinite.relu.e5m2x2.f32 z, %1, %2;")) \
	X(f8_e4m3x2_f16x2, "cvt.rn.satfinite.e4m3x2.f16x2", "r:hhh", R_RRR, F8PACK("cvt.rn.satfinite.e4m3x2.f16x2 z, %1;")) \
	X(f8_e5m2x2_f16x2, "cvt.rn.satfinite.e5m2x2.f16x2", "r:hhh", R_RRR, F8PACK("cvt.rn.satfinite.e5m2x2.f16x2 z, %1;")) \
	X(f8_f16x2_e4m3x2, "cvt.rn.f16x2.e4m3x2", "r:iii", R_RRR, "{ .reg .b16 x, h; mov.b32 {x, h}, %1; cvt.rn.f16x2.e4m3x2 %0, x; }") \
	X(f8_f16x2_e5m2x2, "cvt.rn.f16x2.e5m2x2", "r:iii", R_RRR, "{ .reg .b16 x, h; mov.b32 {x, h}, %1; cvt.rn.f16x2.e5m2x2 %0, x; }") \
	X(f8_relu_f16x2_e4m3x2, "cvt.rn.relu.f16x2.e4m3x2", "r:iii", R_RRR, "{ .reg .b16 x, h; mov.b32 {x, h}, %1; cvt.rn.relu.f16x2.e4m3x2 %0, x; }") \
	/* the seventh run: packing conversions, tf32, elect.sync */                                  \
	X(pack_u8, "cvt.pack.sat.u8.s32.b32", "r:iii", R_RRR, "cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;") \
	X(pack_s8, "cvt.pack.sat.s8.s32.b32", "r:iii", R_RRR, "cvt.pack.sat.s8.s32.b32 %0, %1, %2, %3;") \
	X(pack_u4, "cvt.pack.sat.u4.s32.b32", "r:iii", R_RRR, "cvt.pack.sat.u4.s32.b32 %0, %1, %2, %3;") \
	X(pack_s4, "cvt.pack.sat.s4.s32.b32", "r:iii", R_RRR, "cvt.pack.sat.s4.s32.b32 %0, %1, %2, %3;") \
	X(pack_u16, "cvt.pack.sat.u16.s32", "r:iii", R_RRR, "cvt.pack.sat.u16.s32 %0, %1, %2;")          \
	X(pack_s16, "cvt.pack.sat.s16.s32", "r:iii", R_RRR, "cvt.pack.sat.s16.s32 %0, %1, %2;")          \
	X(tf32_rna, "cvt.rna.tf32.f32", "r:fff", R_RRR, "cvt.rna.tf32.f32 %0, %1;")                     \
	X(tf32_rna_sat, "cvt.rna.satfinite.tf32.f32", "r:fff", R_RRR, "cvt.rna.satfinite.tf32.f32 %0, %1;") \
	X(tf32_rn, "cvt.rn.tf32.f32", "r:fff", R_RRR, "cvt.rn.tf32.f32 %0, %1;")                        \
	X(tf32_rz, "cvt.rz.tf32.f32", "r:fff", R_RRR, "cvt.rz.tf32.f32 %0, %1;")                        \
	X(elect_all, "elect.sync", "l:iii", L_RRR,                                                      \
	  "{ .reg .pred p; .reg .b32 t, u; elect.sync t|p, -1; selp.u32 u, 1, 0, p; mov.b64 %0, {t, u}; }") \
	X(elect_some, "elect.sync", "l:iii", L_RRR,                                                     \
	  "{ .reg .pred q, p; .reg .b32 m, t, u; setp.lt.s32 q, %1, 0; vote.sync.ballot.b32 m, q, -1; mov.u32 t, 99; " \
	  "setp.ne.u32 p, m, m; @q elect.sync t|p, m; selp.u32 u, 1, 0, p; mov.b64 %0, {t, u}; }") \
	/* the eighth run: the 16-bit .approx functions (their error against the interpreter's) */    \
	X(ex2_f16, "ex2.approx.f16", "r:hhh", R_RRR, H16("ex2.approx.f16 z, x;", "u32.u16"))            \
	X(ex2_f16x2, "ex2.approx.f16x2", "r:hhh", R_RRR, "ex2.approx.f16x2 %0, %1;")                    \
	X(ex2_bf16x2, "ex2.approx.ftz.bf16x2", "r:hhh", R_RRR, "ex2.approx.ftz.bf16x2 %0, %1;")         \
	X(tanh_f16, "tanh.approx.f16", "r:hhh", R_RRR, H16("tanh.approx.f16 z, x;", "u32.u16"))         \
	X(tanh_f16x2, "tanh.approx.f16x2", "r:hhh", R_RRR, "tanh.approx.f16x2 %0, %1;")                 \
	X(tanh_bf16, "tanh.approx.bf16", "r:hhh", R_RRR, H16("tanh.approx.bf16 z, x;", "u32.u16")) \
	/* the ninth run: carry chains (the condition code's carry flag, CC.CF) */                    \
	X(cc_add32, "add.cc.u32+addc.u32", "l:iii", L_RRR,                                              \
	  "{ .reg .b32 x, y; add.cc.u32 x, %1, %2; addc.u32 y, %3, 0; mov.b64 %0, {x, y}; }")         \
	X(cc_sub32, "sub.cc.u32+subc.u32", "l:iii", L_RRR,                                              \
	  "{ .reg .b32 x, y; sub.cc.u32 x, %1, %2; subc.u32 y, %3, 0; mov.b64 %0, {x, y}; }")         \
	X(cc_addc_chain, "addc.cc.u32", "l:iii", L_RRR,                                                 \
	  "{ .reg .b32 x, y, z; add.cc.u32 x, %1, %2; addc.cc.u32 y, %1, %3; addc.u32 z, 0, 0; mov.b64 %0, {y, z}; }") \
	X(cc_subc_chain, "subc.cc.u32", "l:iii", L_RRR,                                                 \
	  "{ .reg .b32 x, y, z; sub.cc.u32 x, %1, %2; subc.cc.u32 y, %3, %1; subc.u32 z, 0, 0; mov.b64 %0, {y, z}; }") \
	X(cc_mad32, "mad.lo.cc.u32+madc.hi.u32", "l:iii", L_RRR,                                        \
	  "{ .reg .b32 x, y; mad.lo.cc.u32 x, %1, %2, %3; madc.hi.u32 y, %1, %2, 0; mov.b64 %0, {x, y}; }") \
	X(cc_madc_chain, "madc.lo.cc.u32", "l:iii", L_RRR,                                              \
	  "{ .reg .b32 x, y, z; mad.lo.cc.u32 x, %1, %2, %3; madc.lo.cc.u32 y, %2, %3, %1; addc.u32 z, 0, 0; mov.b64 %0, {y, z}; }") \
	X(cc_add64, "add.cc.u64+addc.u64", "l:lll", L_LLL,                                              \
	  "{ .reg .b64 x; add.cc.u64 x, %1, %2; addc.u64 %0, %3, 0; }")                                \
	X(cc_sub64, "sub.cc.u64+subc.u64", "l:lll", L_LLL,                                              \
	  "{ .reg .b64 x; sub.cc.u64 x, %1, %2; subc.u64 %0, %3, 0; }")                                \
	X(cc_add_s32, "add.cc.s32+addc.s32", "l:iii", L_RRR,                                            \
	  "{ .reg .b32 x, y; add.cc.s32 x, %1, %2; addc.s32 y, %3, %1; mov.b64 %0, {x, y}; }")

#define DEF(id, name, sig, W, body) W(id, body)
FORMS(DEF)
#undef DEF

typedef void (*kern)(const u64 *, const u64 *, const u64 *, u64 *);
static const struct { const char *name, *sig, *body; kern k; } forms[] = {
#define ROW(id, name, sig, W, body) {name, sig, body, id},
	FORMS(ROW)
#undef ROW
};

static uint32_t lcg = 20261127u;
static uint32_t rnd(void) { lcg = lcg * 1664525u + 1013904223u; return lcg ^ (lcg >> 16); }
static u64 rnd64(void) { return (u64)rnd() << 32 | rnd(); }

static u64 gen(char g) {
	uint32_t k = rnd() % 3;
	switch (g) {
	case 'i': case 'z': {
		static const uint32_t sp[] = {0, 1, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0x80000001u, 2, 0x7f, 0x80,
		                              0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffff, 0x800000,
		                              0xffffff, 0x1000000, 0xfffffffeu, 0xff800000u, 0x01000001u, 0xaaaaaaaau,
		                              0x55555555u, 0x3f800000u};
		uint32_t v = k == 0 ? sp[rnd() % (sizeof sp / sizeof *sp)] : k == 1 ? rnd() : (rnd() % 2000) - 1000;
		if (g == 'z' && v == 0)
			v = 7;
		return v;
	}
	case 's':
		return k == 0 ? rnd() : rnd() % 71;
	case 'l': case 'y': {
		static const u64 sp[] = {0, 1, ~0ull, 0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffffull,
		                         0x100000000ull, 0x7fffffffull, 0x80000000ull, 0xffffffff80000000ull,
		                         0x20000000000001ull, 0x8000000000000001ull, 0xaaaaaaaaaaaaaaaaull, 3};
		u64 v = k == 0 ? sp[rnd() % (sizeof sp / sizeof *sp)] : k == 1 ? rnd64()
		      : (rnd() & 1) ? (u64)(int64_t)(int32_t)rnd() : (u64)((int)(rnd() % 2000) - 1000);
		if (g == 'y' && v == 0)
			v = 7;
		return v;
	}
	case 'f': {
		static const uint32_t sp[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu,
		                              0x00800000u, 0x80800000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u,
		                              0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7fffffffu, 0x7f800001u,
		                              0x7fa00000u, 0x3f800000u, 0xbf800000u, 0x3f800001u, 0x3f7fffffu,
		                              0x3f000000u, 0x3fc00000u, 0x40200000u, 0xc0200000u, 0x40600000u,
		                              0xbf000000u, 0x4b800000u, 0x4b7fffffu, 0x4effffffu, 0x4f000000u,
		                              0xcf000000u, 0xcf000001u, 0x4f800000u, 0x4f7fffffu, 0x5f000000u,
		                              0xdf000000u, 0x5f800000u, 0x40490fdbu, 0x00400000u, 0x33800000u,
		                              0x34000000u, 0x0c000000u, 0x7e800000u, 0x42b00000u, 0xc2fe0000u};
		if (k == 0)
			return sp[rnd() % (sizeof sp / sizeof *sp)];
		if (k == 1)
			return rnd();
		// near 1: exponents 120..134, either sign
		return (uint32_t)(120 + rnd() % 15) << 23 | (rnd() & 0x7fffff) | (rnd() & 0x80000000u);
	}
	case 'c': {
		// shfl's c: a width's segment mask and clamp (the CUDA __shfl_*_sync forms), or any bits
		static const uint32_t w[] = {1, 2, 4, 8, 16, 32};
		uint32_t width = w[rnd() % 6];
		return k == 0 ? (32 - width) << 8 | 0x1f : k == 1 ? (32 - width) << 8 : rnd() & 0x1f1f;
	}
	case 'q': return rnd() % 32 != 0;   // mostly 1: a warp's 32 all 1 about a third of the time
	case 'w': return rnd() % 32 == 0;   // mostly 0
	case 'k': return rnd() % 4;         // few values: matches, equal compare-and-swap operands
	case 'j': return (u64)(rnd() % 3) << 40 | (rnd() % 2);   // the same with the upper half deciding
	case 'h': {
		// two halves, f16 or bf16 alike (half_ops.cu's words): one in four both special
		// (zeros, subnormals, extremes, infinities, NaNs, one ulp around 1), one in four any
		// bits, else near 1 (sums and products round)
		static const uint16_t sp[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x7c00,
		                              0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x3c00, 0x3bff, 0x3c01, 0xbc00, 0x3800,
		                              0x4000, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x0080, 0x007f, 0x3f80,
		                              0x3f7f, 0x3f81, 0x5bff, 0x6800, 0x1400, 0x0200, 0x4b80};
		uint32_t q = rnd() % 4;
		if (q == 0)
			return sp[rnd() % 34] | (uint32_t)sp[rnd() % 34] << 16;
		if (q == 1)
			return rnd();
		uint32_t lo = 0x3000 + rnd() % 0x1800, hi = 0x3000 + rnd() % 0x1800;
		if (rnd() & 1) {
			lo = 0x3e00 + rnd() % 0x200;
			hi = 0x3e00 + rnd() % 0x200;
		}
		return lo | hi << 16 | (rnd() & 0x80008000u);
	}
	case 'g': {
		// f32 values in the 8-bit floats' range (2^-12 .. 2^17), a third of them halfway
		// between two e4m3 or e5m2 values; one in four from f
		if (rnd() % 4 == 0)
			return gen('f');
		uint32_t e = 127 - 12 + rnd() % 30, m = rnd() & 0x7fffff;
		if (k == 0)
			m = (m & (rnd() & 1 ? 0x700000u : 0x600000u)) | (rnd() & 1 ? 0x80000u : 0x100000u);
		return e << 23 | m | (rnd() & 0x80000000u);
	}
	case 'n': case 'm': {
		// NaNs of either sign and several payloads, two in three; else a 'd' or 'f' value
		static const u64 nd[] = {0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull,
		                         0xfff0000000000001ull, 0x7fffffffffffffffull, 0x7ff4000000000000ull,
		                         0xfffc000000000123ull, 0x7ff80000deadbeefull};
		static const uint32_t nf[] = {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u, 0x7fffffffu,
		                              0x7fa00000u, 0xffe00123u, 0x7fc0beefu};
		if (k < 2)
			return g == 'n' ? nd[rnd() % 8] : nf[rnd() % 8];
		return gen(g == 'n' ? 'd' : 'f');
	}
	case 'd': {
		static const u64 sp[] = {0, 0x8000000000000000ull, 1, 0x8000000000000001ull, 0x000fffffffffffffull,
		                         0x0010000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull,
		                         0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
		                         0xfff8000000000000ull, 0x7fffffffffffffffull, 0x7ff0000000000001ull,
		                         0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3ff0000000000001ull,
		                         0x3fefffffffffffffull, 0x3fe0000000000000ull, 0x3ff8000000000000ull,
		                         0x4004000000000000ull, 0xc004000000000000ull, 0x41dfffffffc00000ull,
		                         0x41e0000000000000ull, 0xc1e0000000000000ull, 0xc1e0000000200000ull,
		                         0x41efffffffe00000ull, 0x41f0000000000000ull, 0x43e0000000000000ull,
		                         0xc3e0000000000000ull, 0x43f0000000000000ull, 0x47efffffe0000000ull,
		                         0x47efffffffffffffull, 0x47f0000000000000ull, 0x36a0000000000000ull,
		                         0x3690000000000000ull, 0x380fffffffffffffull, 0x3c90000000000000ull,
		                         0x400921fb54442d18ull, 0x3ff0000010000000ull, 0x3ff0000018000000ull};
		if (k == 0)
			return sp[rnd() % (sizeof sp / sizeof *sp)];
		if (k == 1)
			return rnd64();
		// near 1, or an f32-ranged value with low bits (cvt to f32 rounds)
		return (u64)(1000 + rnd() % 48) << 52 | (rnd64() & 0xfffffffffffffull) | ((u64)(rnd() & 1) << 63);
	}
	}
	return 0;
}

int main(void) {
	u64 *h[4], *d[4];
	for (int j = 0; j < 4; j++) {
		h[j] = (u64 *)malloc(N * 8);
		CK(cudaMalloc(&d[j], N * 8));
	}
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	printf("# device %s, cc %d.%d; per form: \"= FORM SIG BODY\", then \"a b c result\" in hex\n", p.name, p.major,
	       p.minor);
	for (size_t o = 0; o < sizeof forms / sizeof *forms; o++) {
		const char *sig = forms[o].sig;   // "D:ABC" (ABC: one to three generators; the last repeats)
		size_t ng = strlen(sig) - 2;
		u64 warp[3] = {0, 0, 0};
		for (int i = 0; i < N; i++)
			for (int j = 0; j < 3; j++) {
				char g = sig[2 + (j < (int)ng ? j : (int)ng - 1)];
				if (g >= 'A' && g <= 'Z') {   // one value for the warp's 32 threads
					if (i % 32 == 0)
						warp[j] = gen((char)(g - 'A' + 'a'));
					h[j][i] = warp[j];
				} else {
					h[j][i] = gen(g);
				}
			}
		for (int j = 0; j < 3; j++)
			CK(cudaMemcpy(d[j], h[j], N * 8, cudaMemcpyHostToDevice));
		forms[o].k<<<N / 128, 128>>>(d[0], d[1], d[2], d[3]);
		CK(cudaGetLastError());
		CK(cudaMemcpy(h[3], d[3], N * 8, cudaMemcpyDeviceToHost));
		printf("= %s %s %s\n", forms[o].name, sig, forms[o].body);
		for (int i = 0; i < N; i++)
			printf("%llx %llx %llx %llx\n", h[0][i], h[1][i], h[2][i], h[3][i]);
	}
	return 0;
}
