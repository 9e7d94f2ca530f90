/* test_passes.c: the analysis passes (cfg, dom, postdom, loops, live), the
 * pass table, the IR verifier and the dumps, on small hand-written
 * functions built with irb.h (a test-only builder, so these tests do not
 * depend on the PTX parser). Each test asserts exact block numbers, edges,
 * dominators, loop shapes and live sets. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "irb.h"

/* Runs the whole pipeline with the verifier on; expects no diagnostics. */
static struct irb run(const char *text)
{
	struct irb b = irb_build(text);
	struct px_diags d = {0};
	bool ok = px_pipeline_run(b.m, &d, true);
	for (size_t i = 0; i < d.n; i++)
		cr_log_error("%u: %s", d.items[i].line, d.items[i].message);
	cr_assert(ok);
	cr_assert_eq(d.n, 0);
	px_diags_free(&d);
	return b;
}

static bool list_is(const uint32_t *l, uint32_t n, int count, ...)
{
	va_list ap;
	va_start(ap, count);
	bool ok = n == (uint32_t)count;
	for (int i = 0; ok && i < count; i++)
		ok = l[i] == (uint32_t)va_arg(ap, int);
	va_end(ap);
	return ok;
}

#define SUCCS(f, b, ...) list_is((f)->blocks[b].succs, (f)->blocks[b].nsuccs, __VA_ARGS__)
#define PREDS(f, b, ...) list_is((f)->blocks[b].preds, (f)->blocks[b].npreds, __VA_ARGS__)

Test(passes, straight_line)
{
	struct irb b = run(
		".entry k\n"
		".reg .u32 %r<3>\n"
		"mov.u32 %r0, 1\n"
		"add.u32 %r1, %r0, 2\n"
		"add.u32 %r2, %r1, %r0\n"
		"ret\n");
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(f->nblocks, 1);
	cr_assert_eq(f->blocks[0].first, 0);
	cr_assert_eq(f->blocks[0].end, 4);
	cr_assert_eq(f->blocks[0].nsuccs, 0);
	cr_assert_eq(f->blocks[0].idom, 0);
	cr_assert_eq(f->blocks[0].ipdom, 1);  /* the virtual exit */
	cr_assert_eq(f->exit_block, 1);
	cr_assert_eq(f->nloops, 0);
	cr_assert_eq(f->blocks[0].loop, -1);
	/* %r0 and %r1 both live across the second add */
	cr_assert_eq(f->max_live, 2);
	cr_assert_eq(f->max_live_pred, 0);
	cr_assert_eq(f->insns[f->max_live_insn].line, 4);
	/* every register is written before it is read: the live sets number none */
	cr_assert_eq(f->nlive_regs, 0);
	cr_assert_eq(f->blocks[0].live_in[0] | f->blocks[0].live_out[0], 0);
	irb_free(&b);
}

Test(passes, empty_body_is_one_empty_block)
{
	struct irb b = run(".entry k\n");
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(f->nblocks, 1);
	cr_assert_eq(f->blocks[0].first, 0);
	cr_assert_eq(f->blocks[0].end, 0);
	cr_assert_eq(f->blocks[0].ipdom, 1);
	cr_assert_eq(f->max_live, 0);
	cr_assert_eq(f->max_live_insn, UINT32_MAX);
	irb_free(&b);
}

Test(passes, diamond)
{
	struct irb b = run(
		".entry k\n"                        /* 1 */
		".reg .pred %p\n"                   /* 2 */
		".reg .u32 %a, %x, %y\n"            /* 3 */
		"setp.eq.u32 %p, %a, 0\n"           /* 4  b0 */
		"@%p bra ELSE\n"                    /* 5 */
		"mov.u32 %x, 1\n"                   /* 6  b1 */
		"bra.uni JOIN\n"                    /* 7 */
		"ELSE: mov.u32 %x, 2\n"             /* 8  b2 */
		"JOIN: add.u32 %y, %x, %a\n"        /* 9  b3 */
		"ret\n");                           /* 10 */
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(f->nblocks, 4);
	cr_assert(SUCCS(f, 0, 2, 2, 1));        /* taken target first, then fall-through */
	cr_assert(SUCCS(f, 1, 1, 3));
	cr_assert(SUCCS(f, 2, 1, 3));
	cr_assert(PREDS(f, 3, 2, 1, 2));
	cr_assert_eq(irb_block_at_line(f, 9), 3);
	cr_assert_eq(f->blocks[1].idom, 0);
	cr_assert_eq(f->blocks[2].idom, 0);
	cr_assert_eq(f->blocks[3].idom, 0);
	cr_assert_eq(f->blocks[0].ipdom, 3);
	cr_assert_eq(f->blocks[1].ipdom, 3);
	cr_assert_eq(f->blocks[3].ipdom, 4);
	cr_assert_eq(f->nloops, 0);
	cr_assert_eq(f->rpo_order[0], 0);
	cr_assert_eq(f->nrpo, 4);
	/* %a is live through both arms; %x into the join */
	int32_t a = irb_reg(f, "%a"), x = irb_reg(f, "%x");
	cr_assert_not(irb_live(f, f->blocks[0].live_in, a));  /* never written: not counted */
	cr_assert(irb_live(f, f->blocks[3].live_in, x));
	cr_assert(irb_live(f, f->blocks[1].live_out, x));
	cr_assert_not(irb_live(f, f->blocks[1].live_in, x));
	irb_free(&b);
}

Test(passes, guarded_return_falls_through)
{
	struct irb b = run(
		".entry k\n"
		".reg .pred %p\n"
		".reg .u32 %a\n"
		"setp.eq.u32 %p, %a, 0\n"
		"@%p ret\n"
		"mov.u32 %a, 1\n"
		"ret\n");
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(f->nblocks, 2);
	cr_assert(SUCCS(f, 0, 1, 1));
	cr_assert(SUCCS(f, 1, 0));
	cr_assert_eq(f->blocks[0].ipdom, 2);  /* exit: b0 may return directly */
	cr_assert_eq(f->blocks[1].ipdom, 2);
	cr_assert_eq(f->blocks[1].idom, 0);
	irb_free(&b);
}

Test(passes, nested_loops)
{
	struct irb b = run(
		".entry k\n"                           /* 1 */
		".reg .pred %p, %q\n"                  /* 2 */
		".reg .u32 %i, %j, %s\n"               /* 3 */
		"mov.u32 %i, 0\n"                      /* 4  b0 */
		"mov.u32 %s, 0\n"                      /* 5 */
		"OUTER: mov.u32 %j, 0\n"               /* 6  b1 */
		"INNER: add.u32 %s, %s, %j\n"          /* 7  b2 */
		"add.u32 %j, %j, 1\n"                  /* 8 */
		"setp.lt.u32 %q, %j, 8\n"              /* 9 */
		"@%q bra INNER\n"                      /* 10 */
		"add.u32 %i, %i, 1\n"                  /* 11 b3 */
		"setp.lt.u32 %p, %i, 8\n"              /* 12 */
		"@%p bra OUTER\n"                      /* 13 */
		"st.global.u32 [%i], %s\n"             /* 14 b4 */
		"ret\n");                              /* 15 */
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(f->nblocks, 5);
	cr_assert_eq(f->nloops, 2);
	cr_assert_not(f->irreducible);
	const struct px_loop *outer = &f->loops[0], *inner = &f->loops[1];
	cr_assert_eq(outer->header, 1);
	cr_assert_eq(outer->depth, 1);
	cr_assert_eq(outer->parent, -1);
	cr_assert(list_is(outer->latches, outer->nlatches, 1, 3));
	cr_assert(list_is(outer->blocks, outer->nblocks, 3, 1, 2, 3));
	cr_assert(list_is(outer->exits, outer->nexits, 1, 4));
	cr_assert_eq(inner->header, 2);
	cr_assert_eq(inner->depth, 2);
	cr_assert_eq(inner->parent, 0);
	cr_assert(list_is(inner->latches, inner->nlatches, 1, 2));  /* a self loop */
	cr_assert(list_is(inner->blocks, inner->nblocks, 1, 2));
	cr_assert(list_is(inner->exits, inner->nexits, 1, 3));
	cr_assert_eq(f->blocks[0].loop, -1);
	cr_assert_eq(f->blocks[1].loop, 0);
	cr_assert_eq(f->blocks[2].loop, 1);
	cr_assert_eq(f->blocks[3].loop, 0);
	cr_assert_eq(f->blocks[4].loop, -1);
	cr_assert_eq(f->blocks[2].idom, 1);
	cr_assert_eq(f->blocks[4].idom, 3);
	cr_assert_eq(f->blocks[2].ipdom, 3);
	irb_free(&b);
}

/* px_pipeline_run_passes: the passes asked for and what they need, no more. */
Test(passes, run_passes_runs_the_closure_only)
{
	struct irb b = irb_build(
		".entry k\n"
		".reg .pred %p\n"
		".reg .u32 %i, %s\n"
		"mov.u32 %i, 0\n"
		"mov.u32 %s, 0\n"
		"L: add.u32 %s, %s, %i\n"
		"add.u32 %i, %i, 1\n"
		"setp.lt.u32 %p, %i, 8\n"
		"@%p bra L\n"
		"st.global.u32 [%i], %s\n"
		"ret\n");
	struct px_diags d = {0};
	struct px_func *f = &b.m->funcs[0];
	cr_assert(px_pipeline_run_passes(b.m, f, PX_PASS_LOOPS, &d, true));
	cr_assert_eq(d.n, 0);
	/* loops needs cfg and dom: all three ran */
	cr_assert_eq(f->nblocks, 3);
	cr_assert_eq(f->nloops, 1);
	cr_assert_eq(f->loops[0].header, 1);
	cr_assert_eq(f->blocks[1].idom, 0);
	/* liveness and the affine analysis did not */
	cr_assert_eq(f->max_live, 0);
	cr_assert_null(f->an);
	irb_free(&b);
	/* everything: the same as px_pipeline_run_func */
	b = irb_build(".entry k\n.reg .u32 %r<2>\nmov.u32 %r0, 1\nadd.u32 %r1, %r0, 2\nst.global.u32 [%r1], %r0\nret\n");
	f = &b.m->funcs[0];
	cr_assert(px_pipeline_run_passes(b.m, f, ~0u, &d, true));
	cr_assert_eq(d.n, 0);
	cr_assert_eq(f->max_live, 2);
	cr_assert_not_null(f->an);
	irb_free(&b);
	px_diags_free(&d);
}

Test(passes, loop_with_break)
{
	struct irb b = run(
		".entry k\n"                           /* 1 */
		".reg .pred %p, %q\n"                  /* 2 */
		".reg .u32 %i\n"                       /* 3 */
		"mov.u32 %i, 0\n"                      /* 4  b0 */
		"HEAD: setp.eq.u32 %q, %i, 5\n"        /* 5  b1 */
		"@%q bra DONE\n"                       /* 6 */
		"add.u32 %i, %i, 1\n"                  /* 7  b2 */
		"setp.lt.u32 %p, %i, 10\n"             /* 8 */
		"@%p bra HEAD\n"                       /* 9 */
		"DONE: st.global.u32 [%i], %i\n"       /* 10 b3 */
		"ret\n");
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(f->nblocks, 4);
	cr_assert_eq(f->nloops, 1);
	const struct px_loop *L = &f->loops[0];
	cr_assert_eq(L->header, 1);
	cr_assert(list_is(L->latches, L->nlatches, 1, 2));
	cr_assert(list_is(L->blocks, L->nblocks, 2, 1, 2));
	cr_assert(list_is(L->exits, L->nexits, 1, 3));  /* the break and the normal exit meet */
	cr_assert(PREDS(f, 3, 2, 1, 2));
	cr_assert_eq(f->blocks[3].idom, 1);
	cr_assert_eq(f->blocks[1].ipdom, 3);
	cr_assert_eq(f->blocks[2].ipdom, 3);
	irb_free(&b);
}

Test(passes, brx_switch)
{
	struct irb b = run(
		".entry k\n"                           /* 1 */
		".reg .u32 %i, %x\n"                   /* 2 */
		"TBL: .branchtargets C0, C1, C2, C1\n" /* 3 */
		"brx.idx %i, TBL\n"                    /* 4  b0 */
		"C0: mov.u32 %x, 0\n"                  /* 5  b1 */
		"bra.uni END\n"                        /* 6 */
		"C1: mov.u32 %x, 1\n"                  /* 7  b2 */
		"bra.uni END\n"                        /* 8 */
		"C2: mov.u32 %x, 2\n"                  /* 9  b3 */
		"END: st.global.u32 [%i], %x\n"        /* 10 b4 */
		"ret\n");
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(f->nblocks, 5);
	cr_assert(SUCCS(f, 0, 3, 1, 2, 3));  /* list order, duplicate dropped, no fall-through */
	cr_assert(SUCCS(f, 3, 1, 4));        /* C2 falls through into END */
	cr_assert(PREDS(f, 4, 3, 1, 2, 3));
	for (uint32_t k = 1; k < 5; k++)
		cr_assert_eq(f->blocks[k].idom, 0);
	cr_assert_eq(f->blocks[0].ipdom, 4);
	irb_free(&b);
}

Test(passes, infinite_loop_postdom_policy)
{
	struct irb b = run(
		".entry k\n"                           /* 1 */
		".reg .pred %p\n"                      /* 2 */
		".reg .u32 %i\n"                       /* 3 */
		"mov.u32 %i, 0\n"                      /* 4  b0 */
		"L: add.u32 %i, %i, 1\n"               /* 5  b1 */
		"setp.eq.u32 %p, %i, 7\n"              /* 6 */
		"@%p bra SKIP\n"                       /* 7 */
		"st.global.u32 [%i], %i\n"             /* 8  b2 */
		"SKIP: bra.uni L\n");                  /* 9  b3 */
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(f->nblocks, 4);
	cr_assert(SUCCS(f, 3, 1, 1));
	/* nothing reaches a ret: the highest block (the latch) gets the virtual edge */
	cr_assert(f->blocks[3].exit_virtual);
	cr_assert_not(f->blocks[1].exit_virtual);
	cr_assert_eq(f->blocks[3].ipdom, 4);
	cr_assert_eq(f->blocks[1].ipdom, 3);
	cr_assert_eq(f->blocks[2].ipdom, 3);
	cr_assert_eq(f->blocks[0].ipdom, 1);
	cr_assert_eq(f->nloops, 1);
	cr_assert_eq(f->loops[0].nexits, 0);
	irb_free(&b);
}

Test(passes, unreachable_block)
{
	struct irb b = run(
		".entry k\n"
		".reg .u32 %a\n"
		"mov.u32 %a, 1\n"       /* 3 b0 */
		"ret\n"                 /* 4 */
		"DEAD: mov.u32 %a, 2\n" /* 5 b1: nothing branches here */
		"ret\n");
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(f->nblocks, 2);
	cr_assert(SUCCS(f, 0, 0));
	cr_assert(PREDS(f, 1, 0));
	cr_assert_not(f->blocks[1].reachable);
	cr_assert_eq(f->blocks[1].rpo, UINT32_MAX);
	cr_assert_eq(f->blocks[1].idom, UINT32_MAX);
	cr_assert_eq(f->blocks[1].ipdom, 2);  /* post-dominators cover every block */
	cr_assert_eq(f->nrpo, 1);
	irb_free(&b);
}

Test(passes, irreducible_cfg)
{
	/* b0 branches into both b1 and b2, which branch to each other */
	struct irb b = run(
		".entry k\n"                     /* 1 */
		".reg .pred %p, %q, %r\n"        /* 2 */
		"@%p bra B\n"                    /* 3  b0 */
		"A: @%q bra B\n"                 /* 4  b1 */
		"bra.uni OUT\n"                  /* 5  b2 */
		"B: @%r bra A\n"                 /* 6  b3 */
		"OUT: ret\n");                   /* 7  b4 */
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(f->nblocks, 5);
	cr_assert(f->irreducible);
	cr_assert_eq(f->nloops, 0);
	cr_assert_eq(f->blocks[1].idom, 0);
	cr_assert_eq(f->blocks[3].idom, 0);
	irb_free(&b);
}

Test(passes, liveness_around_back_edge)
{
	struct irb b = run(
		".entry k\n"                           /* 1 */
		".reg .pred %p\n"                      /* 2 */
		".reg .u32 %i, %n, %acc, %t\n"         /* 3 */
		"ld.param.u32 %n, [k_param_0]\n"       /* 4  b0 */
		"mov.u32 %i, 0\n"                      /* 5 */
		"mov.u32 %acc, 0\n"                    /* 6 */
		"L: mul.lo.u32 %t, %i, %i\n"           /* 7  b1 */
		"add.u32 %acc, %acc, %t\n"             /* 8 */
		"add.u32 %i, %i, 1\n"                  /* 9 */
		"setp.lt.u32 %p, %i, %n\n"             /* 10 */
		"@%p bra L\n"                          /* 11 */
		"st.global.u32 [%n], %acc\n"           /* 12 b2 */
		"ret\n");
	struct px_func *f = &b.m->funcs[0];
	int32_t i = irb_reg(f, "%i"), n = irb_reg(f, "%n"), acc = irb_reg(f, "%acc"),
	        t = irb_reg(f, "%t"), p = irb_reg(f, "%p");
	const struct px_block *L = &f->blocks[1];
	cr_assert(irb_live(f, L->live_in, i));
	cr_assert(irb_live(f, L->live_in, n));
	cr_assert(irb_live(f, L->live_in, acc));
	cr_assert_not(irb_live(f, L->live_in, t));
	cr_assert(irb_live(f, L->live_out, i));   /* around the back edge */
	cr_assert(irb_live(f, L->live_out, acc));
	cr_assert_not(irb_live(f, L->live_out, p));
	cr_assert_not(irb_live(f, f->blocks[2].live_in, i));
	cr_assert(irb_live(f, f->blocks[2].live_in, acc));
	/* at "add %acc, %acc, %t": i, n, acc, t live */
	cr_assert_eq(f->max_live, 4);
	cr_assert_eq(f->max_live_pred, 1);
	irb_free(&b);
}

/* An instruction reading more than MAXOPS (64) registers (irb's vectors
 * hold 32, so three nested ones): the liveness looks at its first 64 uses
 * only (pass_live.c), here the address and %r0..%r62, so %r63..%r69 die
 * where they are written. */
Test(passes, liveness_caps_wide_operands)
{
	struct irb b = run(
		".entry k\n"
		".reg .u64 %rd0\n"
		".reg .u32 %r<70>\n"
		"ld.param.u64 %rd0, [k_param_0]\n"
		"mov.u32 %r0, 0\n"
		"mov.u32 %r1, 1\n"
		"mov.u32 %r2, 2\n"
		"mov.u32 %r3, 3\n"
		"mov.u32 %r4, 4\n"
		"mov.u32 %r5, 5\n"
		"mov.u32 %r6, 6\n"
		"mov.u32 %r7, 7\n"
		"mov.u32 %r8, 8\n"
		"mov.u32 %r9, 9\n"
		"mov.u32 %r10, 10\n"
		"mov.u32 %r11, 11\n"
		"mov.u32 %r12, 12\n"
		"mov.u32 %r13, 13\n"
		"mov.u32 %r14, 14\n"
		"mov.u32 %r15, 15\n"
		"mov.u32 %r16, 16\n"
		"mov.u32 %r17, 17\n"
		"mov.u32 %r18, 18\n"
		"mov.u32 %r19, 19\n"
		"mov.u32 %r20, 20\n"
		"mov.u32 %r21, 21\n"
		"mov.u32 %r22, 22\n"
		"mov.u32 %r23, 23\n"
		"mov.u32 %r24, 24\n"
		"mov.u32 %r25, 25\n"
		"mov.u32 %r26, 26\n"
		"mov.u32 %r27, 27\n"
		"mov.u32 %r28, 28\n"
		"mov.u32 %r29, 29\n"
		"mov.u32 %r30, 30\n"
		"mov.u32 %r31, 31\n"
		"mov.u32 %r32, 32\n"
		"mov.u32 %r33, 33\n"
		"mov.u32 %r34, 34\n"
		"mov.u32 %r35, 35\n"
		"mov.u32 %r36, 36\n"
		"mov.u32 %r37, 37\n"
		"mov.u32 %r38, 38\n"
		"mov.u32 %r39, 39\n"
		"mov.u32 %r40, 40\n"
		"mov.u32 %r41, 41\n"
		"mov.u32 %r42, 42\n"
		"mov.u32 %r43, 43\n"
		"mov.u32 %r44, 44\n"
		"mov.u32 %r45, 45\n"
		"mov.u32 %r46, 46\n"
		"mov.u32 %r47, 47\n"
		"mov.u32 %r48, 48\n"
		"mov.u32 %r49, 49\n"
		"mov.u32 %r50, 50\n"
		"mov.u32 %r51, 51\n"
		"mov.u32 %r52, 52\n"
		"mov.u32 %r53, 53\n"
		"mov.u32 %r54, 54\n"
		"mov.u32 %r55, 55\n"
		"mov.u32 %r56, 56\n"
		"mov.u32 %r57, 57\n"
		"mov.u32 %r58, 58\n"
		"mov.u32 %r59, 59\n"
		"mov.u32 %r60, 60\n"
		"mov.u32 %r61, 61\n"
		"mov.u32 %r62, 62\n"
		"mov.u32 %r63, 63\n"
		"mov.u32 %r64, 64\n"
		"mov.u32 %r65, 65\n"
		"mov.u32 %r66, 66\n"
		"mov.u32 %r67, 67\n"
		"mov.u32 %r68, 68\n"
		"mov.u32 %r69, 69\n"
		"st.global.u32 [%rd0], {{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31}, "
		"{%r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39, %r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63}, {%r64, %r65, %r66, %r67, %r68, %r69}}\n"
		"ret\n");
	struct px_func *f = &b.m->funcs[0];
	cr_assert(irb_live(f, f->blocks[0].live_out, irb_reg(f, "%r0")) == false);
	/* at the write of %r69: %rd0 (2 units), %r0..%r62 and the dead %r69 */
	cr_assert_eq(f->max_live, 2 + 63 + 1);
	cr_assert_eq(f->insns[f->max_live_insn].line, 4 + 64);
	irb_free(&b);
}

Test(passes, predicated_def_does_not_kill)
{
	struct irb b = run(
		".entry k\n"                           /* 1 */
		".reg .pred %p\n"                      /* 2 */
		".reg .u32 %a, %x\n"                   /* 3 */
		"ld.param.u32 %a, [k_param_0]\n"       /* 4 b0 */
		"mov.u32 %x, 5\n"                      /* 5 */
		"setp.eq.u32 %p, %a, 0\n"              /* 6 */
		"bra.uni NEXT\n"                       /* 7 */
		"NEXT: @%p mov.u32 %x, 7\n"            /* 8 b1 */
		"st.global.u32 [%a], %x\n"             /* 9 */
		"ret\n");
	struct px_func *f = &b.m->funcs[0];
	int32_t x = irb_reg(f, "%x");
	/* the guarded write may not happen: the old %x flows into b1 */
	cr_assert(irb_live(f, f->blocks[1].live_in, x));
	cr_assert(irb_live(f, f->blocks[0].live_out, x));
	irb_free(&b);
}

Test(passes, unguarded_def_kills)
{
	struct irb b = run(
		".entry k\n"
		".reg .u32 %a, %x\n"
		"ld.param.u32 %a, [k_param_0]\n"
		"mov.u32 %x, 5\n"
		"bra.uni NEXT\n"
		"NEXT: mov.u32 %x, 7\n"
		"st.global.u32 [%a], %x\n"
		"ret\n");
	struct px_func *f = &b.m->funcs[0];
	cr_assert_not(irb_live(f, f->blocks[1].live_in, irb_reg(f, "%x")));
	cr_assert(irb_live(f, f->blocks[1].live_in, irb_reg(f, "%a")));
	irb_free(&b);
}

Test(passes, pressure_counts_64bit_and_vectors)
{
	struct irb b = run(
		".entry k\n"                           /* 1 */
		".reg .u64 %rd<3>\n"                   /* 2 */
		".reg .u32 %r\n"                       /* 3 */
		".reg .b16 %h\n"                       /* 4 */
		".reg .v4 .f32 %v\n"                   /* 5 */
		".reg .b128 %q\n"                      /* 6 */
		"ld.param.u64 %rd0, [k_param_0]\n"     /* 7 */
		"ld.param.u64 %rd1, [k_param_1]\n"     /* 8 */
		"ld.global.u32 %r, [%rd0]\n"           /* 9 */
		"ld.global.u16 %h, [%rd0+4]\n"         /* 10 */
		"ld.global.v4.f32 %v, [%rd1]\n"        /* 11 */
		"ld.global.b128 %q, [%rd1+16]\n"       /* 12 */
		"st.global.u32 [%rd1], %r\n"           /* 13 */
		"st.global.u16 [%rd1], %h\n"           /* 14 */
		"st.global.v4.f32 [%rd0], %v\n"        /* 15 */
		"st.global.b128 [%rd0], %q\n"          /* 16 */
		"ret\n");
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(px_reg_units(&f->regs[irb_reg(f, "%rd0")]), 2);
	cr_assert_eq(px_reg_units(&f->regs[irb_reg(f, "%h")]), 1);
	cr_assert_eq(px_reg_units(&f->regs[irb_reg(f, "%v")]), 4);
	cr_assert_eq(px_reg_units(&f->regs[irb_reg(f, "%q")]), 4);
	/* after line 12: rd0 + rd1 + r + h + v + q = 2+2+1+1+4+4 */
	cr_assert_eq(f->max_live, 14);
	cr_assert_eq(f->insns[f->max_live_insn].line, 12);
	cr_assert(f->reg_estimate >= f->max_live);
	irb_free(&b);
}

/* The register estimate (pass_live.c): a kernel with nothing live gets
 * ptxas's smallest count, 4 (as ptxas 13.0 reports for this kernel). */
Test(passes, estimate_empty_kernel)
{
	struct irb b = run(".entry k\nret\n");
	cr_assert_eq(b.m->funcs[0].max_live, 0);
	cr_assert_eq(b.m->funcs[0].reg_estimate, 4);
	irb_free(&b);
}

/* Addresses base + immediate (and base + immediate + i) share one value
 * class: they weigh as one register pair however many are live. */
static const char offsets_kernel[] =
	".entry k\n"
	".reg .u64 %rd<12>\n"
	".reg .f32 %f<5>\n"
	".reg .u32 %r0\n"
	"ld.param.u64 %rd0, [k_param_0]\n"
	"ld.global.u32 %r0, [%rd0]\n"
	"mul.wide.u32 %rd1, %r0, 4\n"
	"add.s64 %rd2, %rd0, %rd1\n"     /* p + i */
	"add.s64 %rd3, %rd0, 1024\n"     /* p + 1024 */
	"add.s64 %rd4, %rd3, %rd1\n"     /* p + 1024 + i: the class of rd2 */
	"add.s64 %rd5, %rd2, 2048\n"
	"add.s64 %rd6, %rd2, 3072\n"
	"ld.global.f32 %f1, [%rd2]\n"
	"ld.global.f32 %f2, [%rd4]\n"
	"ld.global.f32 %f3, [%rd5]\n"
	"ld.global.f32 %f4, [%rd6]\n"
	"st.global.f32 [%rd2], %f1\n"
	"st.global.f32 [%rd4], %f2\n"
	"st.global.f32 [%rd5], %f3\n"
	"st.global.f32 [%rd6], %f4\n"
	"ret\n";

/* irb leaves instruction types out: the adds of offsets_kernel are .s64 */
static struct irb run_typed(const char *text)
{
	struct irb b = irb_build(text);
	struct px_func *f = &b.m->funcs[0];
	for (uint32_t i = 0; i < f->ninsns; i++)
		if (f->insns[i].op == PX_OP_ADD) {
			f->insns[i].ntypes = 1;
			f->insns[i].types[0] = PX_TYPE_S64;
		}
	struct px_diags d = {0};
	cr_assert(px_pipeline_run(b.m, &d, true));
	px_diags_free(&d);
	return b;
}

Test(passes, estimate_offsets_share_a_class)
{
	struct irb b = run_typed(offsets_kernel);
	struct px_func *f = &b.m->funcs[0];
	/* plain liveness: rd2, rd4, rd5, rd6 (8 units) and f1..f4 (4) */
	cr_assert_eq(f->max_live, 12);
	/* one pair for the addresses, four values and the loads hoisted above
	 * them: a weighted peak of 7, + the overhead of 5 */
	cr_assert_eq(f->reg_estimate, 12);
	irb_free(&b);
	b = run(offsets_kernel);  /* untyped adds: no classes, every address counts */
	cr_assert_eq(b.m->funcs[0].reg_estimate, 17);
	irb_free(&b);
}

/* Launch bounds cap the estimate: .maxntid 1024 leaves 64 registers a
 * thread, 640 threads times 2 blocks leave 48; .maxnreg caps it too. */
Test(passes, estimate_capped_by_launch_bounds)
{
	struct irb b = run_typed(offsets_kernel);
	struct px_func *f = &b.m->funcs[0];
	f->maxntid[0] = 1024;
	fill_regs(b.m, f);  /* the caps apply where the estimate is made */
	cr_assert_eq(f->reg_estimate, 12);  /* under the cap: unchanged */
	f->maxntid[0] = 4096;  /* 16 registers a thread */
	f->minnctapersm = 2;   /* 8 */
	fill_regs(b.m, f);  /* the caps apply where the estimate is made */
	cr_assert_eq(f->reg_estimate, 8);
	f->maxntid[0] = f->minnctapersm = 0;
	f->maxnreg = 9;
	fill_regs(b.m, f);  /* the caps apply where the estimate is made */
	cr_assert_eq(f->reg_estimate, 9);
	irb_free(&b);
}

/* Store data (find_store_holds): a value that dies at a store keeps its
 * register STORE_HOLD (2) more instructions, so each stored sum below is
 * still held while the next one is computed. */
Test(passes, estimate_holds_store_data)
{
	struct irb b = run(
		".entry k\n"
		".reg .u64 %rd0\n"
		".reg .u32 %r<6>\n"
		"ld.param.u64 %rd0, [k_param_0]\n"
		"ld.global.u32 %r0, [%rd0]\n"
		"add.u32 %r1, %r0, 1\n"
		"st.global.u32 [%rd0], %r1\n"
		"add.u32 %r2, %r0, 2\n"
		"st.global.u32 [%rd0+4], %r2\n"
		"add.u32 %r3, %r0, 3\n"
		"st.global.u32 [%rd0+8], %r3\n"
		"add.u32 %r4, %r0, 4\n"
		"st.global.u32 [%rd0+12], %r4\n"
		"ret\n");
	struct px_func *f = &b.m->funcs[0];
	/* plain liveness: rd0, r0 and one sum */
	cr_assert_eq(f->max_live, 4);
	/* weighted: rd0 (2: irb sets no state space, so its ld.param is not
	 * seen as a free one), r0, the held sum and the new one: 5, + the overhead of
	 * 5 (without the hold: 9) */
	cr_assert_eq(f->reg_estimate, 10);
	irb_free(&b);
}

Test(passes, dead_result_counts_at_its_definition)
{
	struct irb b = run(
		".entry k\n"
		".reg .u64 %rd<2>\n"
		"mov.u64 %rd0, 1\n"
		"mov.u64 %rd1, 2\n"   /* dead: still needs a register for a moment */
		"st.global.u64 [%rd0], %rd0\n"
		"ret\n");
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(f->max_live, 4);
	irb_free(&b);
}

Test(passes, undefined_label_is_an_error_not_a_crash)
{
	struct irb b = irb_build(
		".entry k\n"
		".reg .pred %p\n"
		"@%p bra NOWHERE\n"
		"ret\n");
	struct px_diags d = {0};
	cr_assert_not(px_pipeline_run(b.m, &d, true));
	cr_assert_eq(d.n, 1);
	cr_assert_eq(d.items[0].line, 3);
	cr_assert(strstr(d.items[0].message, "undefined label 'NOWHERE'"));
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(f->nblocks, 2);
	cr_assert(SUCCS(f, 0, 1, 1));  /* only the fall-through */
	px_diags_free(&d);
	irb_free(&b);
}

Test(passes, branch_to_label_at_end)
{
	struct irb b = run(
		".entry k\n"
		".reg .pred %p\n"
		"@%p bra END\n"
		"trap\n"
		"END:\n");
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(f->nblocks, 3);
	cr_assert_eq(f->blocks[2].first, 2);
	cr_assert_eq(f->blocks[2].end, 2);
	cr_assert(SUCCS(f, 0, 2, 2, 1));
	cr_assert(SUCCS(f, 1, 0));    /* trap */
	cr_assert_eq(f->blocks[0].ipdom, 3);
	irb_free(&b);
}

Test(passes, callees_sorted_unique_and_indirect)
{
	struct irb b = run(
		".extern .func g\n"
		".func h\n"
		"ret\n"
		".entry k\n"
		".reg .u64 %fp\n"
		".reg .u32 %r\n"
		"call h\n"
		"call (%r), g, (%r)\n"
		"call h\n"
		"call (%r), %fp, (%r), proto\n"
		"ret\n");
	struct px_func *k = &b.m->funcs[2];
	cr_assert_eq(k->nblocks, 1);  /* calls do not end blocks */
	cr_assert(list_is(k->callees, k->ncallees, 2, 0, 1));
	cr_assert(k->has_indirect_call);
	cr_assert_not(b.m->funcs[1].has_indirect_call);
	cr_assert_eq(b.m->funcs[0].nblocks, 0);  /* no body: untouched */
	irb_free(&b);
}

Test(passes, pass_table)
{
	size_t n;
	const struct px_pass_info *p = px_passes(&n);
	const char *names[] = {"callees", "operands", "cfg", "dom", "postdom", "loops", "live",
	                       "mentions", "affine", "uniform", "access", "events", "regs"};
	cr_assert_eq(n, 13);
	unsigned done = 0;
	for (size_t i = 0; i < n; i++) {
		cr_assert_str_eq(p[i].name, names[i]);
		/* px_pipeline_run_stage runs the table in stage order */
		cr_assert(i == 0 || p[i - 1].stage <= p[i].stage, "%s is out of stage order", p[i].name);
		cr_assert((p[i].needs & ~done) == 0, "%s runs before what it needs", p[i].name);
		cr_assert(p[i].desc && p[i].fills && p[i].run && p[i].dump);
		done |= p[i].bit;
		cr_assert_eq(px_pass_find(names[i]), &p[i]);
	}
	cr_assert_null(px_pass_find("nope"));
}

Test(passes, verifier_reports_broken_invariants)
{
	struct irb b = run(
		".entry k\n"
		".reg .pred %p\n"
		"@%p bra L\n"
		"L: ret\n");
	struct px_func *f = &b.m->funcs[0];
	struct px_diags d = {0};
	cr_assert(px_ir_verify(b.m, f, PX_PASS_CFG | PX_PASS_DOM | PX_PASS_POSTDOM |
	                                   PX_PASS_LOOPS | PX_PASS_LIVE, &d));
	f->insns[1].block = 0;  /* break insn->block */
	cr_assert_not(px_ir_verify(b.m, f, PX_PASS_CFG, &d));
	cr_assert_geq(d.n, 1);
	cr_assert(strncmp(d.items[0].message, "internal: ", 10) == 0);
	f->insns[1].block = 1;
	px_diags_free(&d);
	f->blocks[1].idom = 1;  /* a cycle in the dominator tree */
	cr_assert_not(px_ir_verify(b.m, f, PX_PASS_CFG | PX_PASS_DOM, &d));
	f->blocks[1].idom = 0;
	px_diags_free(&d);
	f->insns[0].guard = 99;  /* register id out of range */
	cr_assert_not(px_ir_verify(b.m, f, 0, &d));
	px_diags_free(&d);
	irb_free(&b);
}

Test(passes, dumps_are_readable_and_deterministic)
{
	struct irb b = run(
		".entry k\n"                           /* 1 */
		".reg .pred %p\n"                      /* 2 */
		".reg .u32 %i\n"                       /* 3 */
		"mov.u32 %i, 0\n"                      /* 4 */
		"L: add.u32 %i, %i, 1\n"               /* 5 */
		"setp.lt.u32 %p, %i, 4\n"              /* 6 */
		"@%p bra L\n"                          /* 7 */
		"ret\n");                              /* 8 */
	struct px_func *f = &b.m->funcs[0];
	struct px_buf o = {0};
	px_dump_cfg(&o, b.m, f);
	cr_assert_str_eq(o.p,
		"cfg k (.entry, line 1): 3 blocks, 5 instructions\n"
		"  b0  lines 4-4 (1 insns)  succs b1  preds -  idom b0  ipdom b1\n"
		"  b1 L  lines 5-7 (3 insns)  succs b1 b2  preds b0 b1  idom b0  ipdom b2\n"
		"  b2  lines 8-8 (1 insns)  succs -  preds b1  idom b1  ipdom exit\n");
	px_buf_free(&o);
	px_dump_loops(&o, b.m, f);
	cr_assert_str_eq(o.p,
		"loops k (.entry, line 1): 1 loops\n"
		"  loop 0  header b1 (line 5)  depth 1  parent -\n"
		"    latches b1\n"
		"    blocks b1\n"
		"    exits b2\n");
	px_buf_free(&o);
	px_dump_live(&o, b.m, f);
	cr_assert(strstr(o.p, "  b1 in: %i\n  b1 out: %i\n"), "%s", o.p);
	cr_assert(strstr(o.p, "max_live 1 units at line 4, max_live_pred 1"), "%s", o.p);
	px_buf_free(&o);
	px_dump_postdom(&o, b.m, f);
	cr_assert(strstr(o.p, "  exit  children b2\n"), "%s", o.p);
	px_buf_free(&o);
	px_dump_dom(&o, b.m, f);
	cr_assert(strstr(o.p, "  b1  idom b0  children b2\n"), "%s", o.p);
	px_buf_free(&o);
	irb_free(&b);
}

/* A long chain of loops and diamonds: the passes must stay near-linear. */
Test(passes, scales_to_large_functions, .timeout = 20)
{
	struct irb b = irb_new();
	irb_asm(&b, ".entry big\n.reg .pred %p\n.reg .u32 %r<64>\n");
	char buf[256];
	for (int k = 0; k < 20000; k++) {
		snprintf(buf, sizeof buf,
		         "H%d: add.u32 %%r%d, %%r%d, 1\n"
		         "setp.lt.u32 %%p, %%r%d, 9\n"
		         "@%%p bra S%d\n"
		         "mov.u32 %%r%d, 3\n"
		         "S%d: @%%p bra H%d\n",
		         k, k % 64, (k + 1) % 64, k % 64, k, (k + 7) % 64, k, k);
		irb_asm(&b, buf);
	}
	irb_asm(&b, "ret\n");
	struct px_diags d = {0};
	cr_assert(px_pipeline_run(b.m, &d, true));
	struct px_func *f = &b.m->funcs[0];
	cr_assert_eq(f->nblocks, 60001);
	cr_assert_eq(f->nloops, 20000);
	cr_assert_eq(f->loops[19999].depth, 1);
	px_diags_free(&d);
	irb_free(&b);
}
