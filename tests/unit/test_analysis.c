/* test_analysis.c: the value analyses on small PTX kernels (parsed with the
 * real front end, default launch block 256x1x1): affine forms, uniformity
 * and branch verdicts, global sectors per request, shared bank-conflict
 * ways for 4-, 8- and 16-byte accesses, broadcasts, unknown patterns, the
 * JOIN form of a counter with several definitions, and loop trip counts.
 * Every expected number is worked out by hand in the comment beside it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../../analyzer/analysis.h"

struct an {
	struct px_module *m;
	struct px_diags d;
};

/* Parses a kernel body (declarations of %p, %r, %rd, %f and a 64-bit
 * parameter `a` are added) and runs every pass. */
static struct an run(const char *body)
{
	static const char head[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry k(.param .u64 a)\n{\n"
		".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n.reg .f32 %f<8>;\n"
		".reg .f64 %fd<4>;\n.shared .align 16 .b8 sm[8192];\n"
		"ld.param.u64 %rd1, [a];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n";
	size_t n = strlen(head) + strlen(body) + 4;
	char *text = xmalloc(n);
	snprintf(text, n, "%s%s}\n", head, body);
	struct an a = {0};
	a.m = px_ptx_parse("t.ptx", text, strlen(text), &a.d);
	cr_assert_eq(a.d.errors, 0);
	cr_assert(px_pipeline_run(a.m, &a.d, true));
	return a;
}

static void done(struct an *a)
{
	px_module_delete(a->m);
	px_diags_free(&a->d);
}

static const struct px_results *res(const struct an *a)
{
	cr_assert_not_null(a->m->funcs[0].res);
	return a->m->funcs[0].res;
}

static int32_t reg(const struct an *a, const char *name)
{
	const struct px_func *f = &a->m->funcs[0];
	for (uint32_t i = 0; i < f->nregs; i++)
		if (px_str_eqc(f->regs[i].name, name))
			return (int32_t)i;
	cr_assert_fail("no register %s", name);
	return -1;
}

/* the global address a + 4 * tid.x + 16: form 16 + 4*%tid.x + param */
Test(analysis, affine_form)
{
	struct an a = run("shl.b32 %r2, %r1, 2;\nadd.s32 %r3, %r2, 16;\n"
	                  "shr.u32 %r4, %r1, 5;\nret;\n");
	const struct px_func *f = &a.m->funcs[0];
	const struct px_aff *x = &f->an->form[reg(&a, "%r3")];
	cr_assert(x->known);
	cr_assert_eq(x->c, 16);
	cr_assert_eq(x->nterms, 1);
	cr_assert_eq(x->t[0].coef, 4);
	cr_assert_eq(f->an->atoms[x->t[0].atom].kind, PX_ATOM_TID);
	/* tid.x >> 5 is a quasi atom, warp-uniform with 256 threads */
	const struct px_aff *w = &f->an->form[reg(&a, "%r4")];
	cr_assert(w->known);
	cr_assert_eq(f->an->atoms[w->t[0].atom].kind, PX_ATOM_QUASI);
	cr_assert_eq(f->an->uni[reg(&a, "%r4")], PX_UNI_WARP);
	cr_assert_eq(f->an->uni[reg(&a, "%r3")], PX_UNI_DIVERGENT);
	done(&a);
}

/* tid.x < 16: every warp splits 16/16 (only warp 0 has lanes below 16:
 * 16 on each side); tid.x >> 5 == 0: one value per warp; %ctaid.x: block */
Test(analysis, branch_verdicts)
{
	struct an a = run("setp.lt.u32 %p1, %r1, 16;\n@%p1 bra L1;\nst.global.u32 [%rd2], 1;\nL1:\n"
	                  "shr.u32 %r2, %r1, 5;\nsetp.eq.s32 %p2, %r2, 0;\n@%p2 bra L2;\nst.global.u32 [%rd2], 2;\nL2:\n"
	                  "mov.u32 %r3, %ctaid.x;\nsetp.eq.s32 %p3, %r3, 0;\n@%p3 bra L3;\nst.global.u32 [%rd2], 3;\n"
	                  "L3:\nret;\n");
	const struct px_results *r = res(&a);
	cr_assert_eq(r->nbr, 3);
	cr_assert_eq(r->br[0].divergence, PX_DIV_DIVERGENT);
	cr_assert_eq(r->br[0].active_lanes, 16);
	cr_assert(strstr(r->br[0].reason, "%tid.x"));
	cr_assert_eq(r->br[1].divergence, PX_DIV_UNIFORM);
	cr_assert_eq(r->br[1].across, PX_UNI_WARP);
	cr_assert_eq(r->br[2].divergence, PX_DIV_UNIFORM);
	cr_assert_eq(r->br[2].across, PX_UNI_BLOCK);
	done(&a);
}

/* tid.x < n (a parameter): modelled but decided only at launch: unknown */
Test(analysis, branch_unknown_at_compile_time)
{
	struct an a = run("cvt.u32.u64 %r2, %rd1;\nsetp.lt.u32 %p1, %r1, %r2;\n@%p1 bra L1;\n"
	                  "st.global.u32 [%rd2], 1;\nL1:\nret;\n");
	cr_assert_eq(res(&a)->nbr, 1);
	cr_assert_eq(res(&a)->br[0].divergence, PX_DIV_UNKNOWN);
	done(&a);
}

/* Global loads from the 256-byte aligned parameter pointer:
 * 4 bytes, unit stride: 128 bytes = 4 sectors, ideal 4;
 * 4 bytes, stride 8 bytes: 256 bytes spanned = 8 sectors, ideal 4;
 * 4 bytes, misaligned by 4: bytes 4..131 = 5 sectors, ideal 4;
 * 4 bytes, every lane the same word (broadcast): 1 sector, ideal 1. */
Test(analysis, global_sectors)
{
	struct an a = run("mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.f32 %f1, [%rd4];\n"
	                  "mul.wide.u32 %rd5, %r1, 8;\nadd.s64 %rd6, %rd2, %rd5;\nld.global.f32 %f2, [%rd6];\n"
	                  "ld.global.f32 %f3, [%rd4+4];\n"
	                  "ld.global.f32 %f4, [%rd2];\nret;\n");
	const struct px_results *r = res(&a);
	cr_assert_eq(r->nacc, 4);
	double want[4][2] = {{4, 4}, {8, 4}, {5, 4}, {1, 1}};
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(r->acc[i].space, PX_SPACE_GLOBAL);
		cr_assert_eq(r->acc[i].pattern, PX_PATTERN_AFFINE);
		cr_assert_float_eq(r->acc[i].sectors, want[i][0], 1e-9, "access %d", i);
		cr_assert_float_eq(r->acc[i].ideal_sectors, want[i][1], 1e-9, "access %d", i);
	}
	done(&a);
}

/* Shared memory, 32 banks of 4 bytes:
 *  4 B stride 1 word: conflict-free (1 wavefront, ideal 1);
 *  4 B stride 2 words: lanes l and l+16 share a bank: 2 ways;
 *  4 B stride 32 words: every lane in bank 0: 32 ways;
 *  4 B same word for every lane: a broadcast, 1 way;
 *  8 B consecutive: 2 phases of 16 lanes, each conflict-free: 2/2 = 1 way;
 *  16 B consecutive: 4 phases of 8 lanes: 4/4 = 1 way;
 *  16 B stride 32 bytes: lanes l and l+4 of a phase share banks: 8/4 = 2 ways. */
Test(analysis, shared_bank_ways)
{
	struct an a = run("mov.u32 %r2, sm;\n"
	                  "shl.b32 %r3, %r1, 2;\nadd.s32 %r4, %r2, %r3;\nld.shared.f32 %f1, [%r4];\n"
	                  "shl.b32 %r5, %r1, 3;\nadd.s32 %r6, %r2, %r5;\nld.shared.f32 %f2, [%r6];\n"
	                  "and.b32 %r7, %r1, 31;\nshl.b32 %r8, %r7, 7;\nadd.s32 %r9, %r2, %r8;\nld.shared.f32 %f3, [%r9];\n"
	                  "ld.shared.f32 %f4, [%r2];\n"
	                  "ld.shared.f64 %fd1, [%r6];\n"
	                  "shl.b32 %r10, %r1, 4;\nadd.s32 %r11, %r2, %r10;\nld.shared.v4.f32 {%f5, %f6, %f7, %f1}, [%r11];\n"
	                  "and.b32 %r12, %r1, 63;\nshl.b32 %r13, %r12, 5;\nadd.s32 %r14, %r2, %r13;\n"
	                  "ld.shared.v4.f32 {%f5, %f6, %f7, %f1}, [%r14];\nret;\n");
	const struct px_results *r = res(&a);
	cr_assert_eq(r->nacc, 7);
	double ways[7] = {1, 2, 32, 1, 1, 1, 2};
	uint32_t bytes[7] = {4, 4, 4, 4, 8, 16, 16};
	for (int i = 0; i < 7; i++) {
		cr_assert_eq(r->acc[i].space, PX_SPACE_SHARED, "access %d", i);
		cr_assert_eq(r->acc[i].bytes, bytes[i], "access %d", i);
		cr_assert(r->acc[i].ideal_wavefronts > 0, "access %d", i);
		cr_assert_float_eq(r->acc[i].wavefronts / r->acc[i].ideal_wavefronts, ways[i], 1e-9, "access %d", i);
	}
	done(&a);
}

/* An address loaded from memory is unknown, never guessed. */
Test(analysis, unknown_pattern)
{
	struct an a = run("ld.global.u64 %rd3, [%rd2];\nld.global.f32 %f1, [%rd3];\nret;\n");
	const struct px_results *r = res(&a);
	cr_assert_eq(r->nacc, 2);
	cr_assert_eq(r->acc[1].pattern, PX_PATTERN_UNKNOWN);
	cr_assert_lt(r->acc[1].sectors, 0);
	done(&a);
}

/* nvcc's counter shared by two loops (four definitions: two inits equal to
 * tid.x, increments of 256 and 1024): tid.x + U, U a JOIN atom aligned to
 * 256; `i < 7424` then never splits a warp (7424 is a multiple of 256). */
Test(analysis, join_counter)
{
	struct an a = run("mov.u32 %r2, %r1;\n"
	                  "setp.eq.s32 %p1, %r1, 1000;\n@%p1 bra L2;\n"
	                  "L1:\nadd.s32 %r2, %r2, 256;\nsetp.lt.s32 %p2, %r2, 512;\n@%p2 bra L1;\n"
	                  "L2:\nmov.u32 %r2, %r1;\n"
	                  "L3:\nadd.s32 %r3, %r2, 1024;\nsetp.lt.s32 %p3, %r2, 7424;\nmov.u32 %r2, %r3;\n@%p3 bra L3;\nret;\n");
	const struct px_func *f = &a.m->funcs[0];
	const struct px_aff *x = &f->an->form[reg(&a, "%r2")];
	cr_assert(x->known);
	cr_assert_eq(x->nterms, 2);
	bool join = false;
	for (int i = 0; i < 2; i++)
		if (f->an->atoms[x->t[i].atom].kind == PX_ATOM_JOIN) {
			join = true;
			cr_assert_eq(f->an->atoms[x->t[i].atom].align, 256);
		}
	cr_assert(join);
	const struct px_results *r = res(&a);
	cr_assert_eq(r->nbr, 3);
	cr_assert_eq(r->br[2].divergence, PX_DIV_UNIFORM);
	done(&a);
}

/* do { i++; } while (i < 10): 10 iterations; a compare before a step of
 * 4 from 0 to 60: 16 iterations; a bound from a parameter: unknown. */
Test(analysis, loop_trip_counts)
{
	struct an a = run("mov.u32 %r2, 0;\nL1:\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 10;\n@%p1 bra L1;\n"
	                  "mov.u32 %r3, 0;\nL2:\nsetp.ne.s32 %p2, %r3, 60;\nadd.s32 %r3, %r3, 4;\n@%p2 bra L2;\n"
	                  "cvt.u32.u64 %r5, %rd1;\nmov.u32 %r4, 0;\nL3:\nadd.s32 %r4, %r4, 1;\n"
	                  "setp.lt.u32 %p3, %r4, %r5;\n@%p3 bra L3;\nret;\n");
	const struct px_results *r = res(&a);
	cr_assert_eq(r->nloops, 3);
	cr_assert_eq(r->loops[0].trip, 10);
	cr_assert_eq(r->loops[1].trip, 16);
	cr_assert_eq(r->loops[2].trip, -1);
	cr_assert_eq(r->loops[0].depth, 1);
	done(&a);
}

/* Affine arithmetic wraps modulo 2^64 like PTX's 64-bit integer
 * instructions (fuzz_annot found a signed overflow, undefined in C, when a
 * CUDA index folded to a huge constant was scaled by the element size). */
Test(analysis, affine_arithmetic_wraps)
{
	struct px_func_analysis an = {0};
	struct px_arena *ar = px_arena_new();
	uint32_t x = px_aff_new_atom(&an, ar, PX_ATOM_OPAQUE, false, 0, 0, 1);
	struct px_aff big = px_aff_add(&an, ar, px_aff_term(x, INT64_MAX / 3 + 1), px_aff_const(INT64_MAX / 3 + 1), 1);
	struct px_aff m = px_aff_mul(&an, ar, big, px_aff_const(4));
	cr_assert(m.known);
	cr_assert_eq(m.c, (int64_t)((uint64_t)(INT64_MAX / 3 + 1) * 4u));
	cr_assert_eq(m.nterms, 1);
	cr_assert_eq(m.t[0].coef, m.c);
	struct px_aff s = px_aff_add(&an, ar, px_aff_const(INT64_MAX), px_aff_const(1), 1);
	cr_assert_eq(s.c, INT64_MIN);
	struct px_aff q = px_aff_quasi(&an, ar, PX_Q_DIV, px_aff_const(INT64_MIN), -1);
	cr_assert_eq(q.c, INT64_MIN);
	q = px_aff_quasi(&an, ar, PX_Q_REM, px_aff_const(INT64_MIN), -1);
	cr_assert_eq(q.c, 0);
	px_arena_delete(ar);
}

/* px_aff_eval_warp reads the thread atoms' per-warp table (fill_affine);
 * it must agree with the per-lane evaluator on every lane of every warp,
 * including where a chain of quasi nodes gets too deep for either (more
 * than MAX_DEPTH = 48 levels below the top): %q0 = tid.x >> 5, then each
 * %qk = %q(k-1) ^ k, so %qk is k + 1 nested quasi atoms. */
Test(analysis, warp_table_matches_lanes)
{
	char body[8192];
	size_t n = (size_t)snprintf(body, sizeof body, ".reg .b32 %%q<64>;\nshr.u32 %%q0, %%r1, 5;\n");
	for (int k = 1; k < 64; k++)
		n += (size_t)snprintf(body + n, sizeof body - n, "xor.b32 %%q%d, %%q%d, %d;\n", k, k - 1, k);
	snprintf(body + n, sizeof body - n, "ret;\n");
	struct an a = run(body);
	const struct px_func_analysis *an = a.m->funcs[0].an;
	cr_assert_eq(an->nwarps, 8);
	int evaluated = 0, failed = 0;
	for (int k = 0; k < 64; k++) {
		char name[8];
		snprintf(name, sizeof name, "%%q%d", k);
		const struct px_aff *x = &an->form[reg(&a, name)];
		cr_assert(x->known);
		for (uint32_t w = 0; w < an->nwarps; w++) {
			int64_t v[32];
			bool ok = px_aff_eval_warp(an, x, w, 0xffffffffu, NULL, NULL, v);
			for (uint32_t l = 0; l < 32; l++) {
				struct px_eval_env env = {.tid = {an->tids[w][l][0], an->tids[w][l][1],
				                                  an->tids[w][l][2]}, .lane = l};
				int64_t s;
				cr_assert_eq(px_aff_eval(an, x, &env, &s), ok, "%s warp %u", name, w);
				if (ok)
					cr_assert_eq(v[l], s, "%s warp %u lane %u", name, w, l);
			}
			evaluated += ok;
			failed += !ok;
		}
	}
	/* %q0..%q48 (up to 49 levels) evaluate; %q49..%q63 do not */
	cr_assert_eq(evaluated, 49 * 8);
	cr_assert_eq(failed, 15 * 8);
	/* warp 5 holds tid.x 160..191: %q0 = 5, %q1 = 5 ^ 1 = 4 */
	int64_t v[32];
	cr_assert(px_aff_eval_warp(an, &an->form[reg(&a, "%q1")], 5, 0xffffffffu, NULL, NULL, v));
	cr_assert_eq(v[0], 4);
	cr_assert_eq(v[31], 4);
	done(&a);
}

/* px_warp_wavefronts against a plain reference (per phase: the most
 * distinct 4-byte words any bank holds; one ideal wavefront per phase with
 * an active lane) on pseudo-random warps of 4-, 8- and 16-byte accesses:
 * strided (often conflict-free: wavefronts' fast path), clustered (some
 * lanes on one word: broadcasts) and negative addresses. */
Test(analysis, wavefronts_match_reference)
{
	uint64_t seed = 12345;
	for (int round = 0; round < 3000; round++) {
		uint32_t bytes = round % 3 == 0 ? 4 : round % 3 == 1 ? 8 : 16;
		int64_t a[32];
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		int64_t stride = (int64_t)(seed >> 60) * 4 - 8, base = (int64_t)(seed >> 40 & 0xfff) * 4 - 4096;
		uint32_t mask = round % 5 ? 0xffffffffu : (uint32_t)(seed >> 8);
		for (uint32_t l = 0; l < 32; l++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			a[l] = base + stride * l + (round % 4 == 3 ? (int64_t)(seed >> 61) * 4 : 0);
		}
		uint32_t wf, ideal, rwf = 0, rideal = 0;
		px_warp_wavefronts(a, mask, bytes, &wf, &ideal);
		uint32_t lanes = bytes <= 4 ? 32 : bytes == 8 ? 16 : 8, nwords = bytes <= 4 ? 1 : bytes / 4;
		for (uint32_t p0 = 0; p0 < 32; p0 += lanes) {
			int64_t words[64];
			uint32_t n = 0, worst = 0;
			for (uint32_t l = p0; l < p0 + lanes; l++)
				for (uint32_t k = 0; (mask >> l & 1) && k < nwords; k++) {
					int64_t x = (a[l] >= 0 ? a[l] / 4 : (a[l] - 3) / 4) + k;
					bool dup = false;
					for (uint32_t i = 0; i < n && !dup; i++)
						dup = words[i] == x;
					if (!dup)
						words[n++] = x;
				}
			for (uint32_t bank = 0; bank < 32; bank++) {
				uint32_t c = 0;
				for (uint32_t i = 0; i < n; i++)
					c += (uint32_t)(((words[i] % 32) + 32) % 32) == bank;
				worst = c > worst ? c : worst;
			}
			if (n) {
				rwf += worst;
				rideal++;
			}
		}
		cr_assert_eq(wf, rwf, "round %d", round);
		cr_assert_eq(ideal, rideal, "round %d", round);
	}
}

/* px_pred_eval_warp (the comparison switched once per warp) against the
 * per-lane px_pred_eval for every setp comparison, signed and unsigned, on
 * %tid.x - 128 (negative in warps 0..3) against 5. */
Test(analysis, warp_compare_matches_lanes)
{
	static const char *const cmps[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
	char body[4096];
	size_t n = (size_t)snprintf(body, sizeof body, ".reg .pred %%q<10>;\nsub.s32 %%r2, %%r1, 128;\n");
	for (int k = 0; k < 10; k++)
		n += (size_t)snprintf(body + n, sizeof body - n, "setp.%s.s32 %%q%d, %%r2, 5;\n", cmps[k], k);
	snprintf(body + n, sizeof body - n, "ret;\n");
	/* then the same with .u32 in a second kernel body */
	for (int sgn = 0; sgn < 2; sgn++) {
		char b2[4096];
		snprintf(b2, sizeof b2, "%s", body);
		if (!sgn)
			for (char *q = strstr(b2, ".s32 %q"); q; q = strstr(q + 1, ".s32 %q"))
				q[1] = 'u';
		struct an a = run(b2);
		const struct px_func_analysis *an = a.m->funcs[0].an;
		int checked = 0;
		for (int k = 0; k < 10; k++) {
			char name[8];
			snprintf(name, sizeof name, "%%q%d", k);
			int32_t p = reg(&a, name);
			cr_assert_eq(px_pred_of(an, p)->kind, PX_PRED_SETP);
			for (uint32_t w = 0; w < an->nwarps; w++) {
				int8_t v[32];
				px_pred_eval_warp(an, p, w, 0xffffffffu, NULL, NULL, v, 0);
				for (uint32_t l = 0; l < 32; l++) {
					struct px_eval_env env = {.tid = {an->tids[w][l][0], an->tids[w][l][1],
					                                  an->tids[w][l][2]}, .lane = l};
					cr_assert_eq(v[l], px_pred_eval(an, p, &env, 0), "%s w%u l%u", name, w, l);
					checked += v[l] >= 0;
				}
			}
		}
		cr_assert_eq(checked, 10 * 256);
		/* lt, signed: tid.x - 128 < 5 holds for tid.x 0..132 */
		int8_t v[32];
		px_pred_eval_warp(an, reg(&a, "%q2"), 4, 0xffffffffu, NULL, NULL, v, 0);
		cr_assert_eq(v[4], sgn ? 1 : 1);   /* tid 132: 4 < 5 either way */
		cr_assert_eq(v[5], 0);             /* tid 133: 5 < 5 is false */
		px_pred_eval_warp(an, reg(&a, "%q2"), 0, 0xffffffffu, NULL, NULL, v, 0);
		cr_assert_eq(v[0], sgn ? 1 : 0);   /* tid 0: -128 < 5 signed; as unsigned, huge */
		done(&a);
	}
}
