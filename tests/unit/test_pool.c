/* test_pool.c: the -j thread pool (analyzer/pool.c) and px_report_file on
 * it: every task runs once, on a slot no other running task holds; a heavy
 * task that waits for its light tasks finishes with no worker at all and
 * with several; and a report made on the pool equals the one made one
 * function at a time, field for field. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "../../analyzer/pool.h"
#include "../../analyzer/report.h"

#define NSLOTS_MAX 16

struct light {
	struct px_task t;
	atomic_int *busy;   /* per slot: tasks running on it */
	atomic_int *clash;
	int runs;
	unsigned slot;
};

static void light_run(struct px_task *t, unsigned slot)
{
	struct light *l = (struct light *)t;
	if (atomic_fetch_add(&l->busy[slot], 1) != 0)
		atomic_fetch_add(l->clash, 1);
	volatile unsigned x = 0;
	for (unsigned i = 0; i < 20000; i++)
		x += i;
	l->runs++;
	l->slot = slot;
	atomic_fetch_sub(&l->busy[slot], 1);
}

struct heavy {
	struct px_task t;
	struct px_pool *pool;
	struct light *lights;
	unsigned n;
};

/* Submits its light tasks and waits for each (helping), like a file whose
 * parser hands out functions. */
static void heavy_run(struct px_task *t, unsigned slot)
{
	struct heavy *h = (struct heavy *)t;
	(void)slot;
	for (unsigned i = 0; i < h->n; i++)
		px_pool_submit(h->pool, &h->lights[i].t);
	for (unsigned i = 0; i < h->n; i++)
		px_pool_wait(h->pool, &h->lights[i].t, t);
}

static void pool_round(unsigned threads)
{
	struct px_pool *p = px_pool_new(threads);
	unsigned slots = px_pool_slots(p);
	cr_assert(slots >= 1 && slots <= threads + (threads == 0) && slots <= NSLOTS_MAX);
	atomic_int busy[NSLOTS_MAX] = {0};
	atomic_int clash = 0;
	enum { NH = 6, NL = 50 };
	static struct light lights[NH][NL];
	struct heavy hs[NH];
	memset(lights, 0, sizeof lights);
	for (unsigned h = 0; h < NH; h++) {
		for (unsigned i = 0; i < NL; i++) {
			lights[h][i].t.run = light_run;
			lights[h][i].busy = busy;
			lights[h][i].clash = &clash;
		}
		hs[h] = (struct heavy){.t = {.run = heavy_run, .heavy = true}, .pool = p,
		                       .lights = lights[h], .n = NL};
		px_pool_submit(p, &hs[h].t);
	}
	for (unsigned h = 0; h < NH; h++)
		px_pool_wait(p, &hs[h].t, NULL);
	for (unsigned h = 0; h < NH; h++) {
		cr_assert(px_pool_done(p, &hs[h].t));
		for (unsigned i = 0; i < NL; i++) {
			cr_assert_eq(lights[h][i].runs, 1, "task %u/%u ran %d times", h, i, lights[h][i].runs);
			cr_assert_lt(lights[h][i].slot, slots);
		}
	}
	cr_assert_eq(atomic_load(&clash), 0, "two tasks ran on one slot at once");
	px_pool_delete(p);
}

Test(pool, no_worker)
{
	pool_round(1);
}

Test(pool, several_workers)
{
	pool_round(4);
}

Test(pool, jobs_parse)
{
	unsigned j = 0;
	cr_assert(px_jobs_parse("1", &j) && j == 1);
	cr_assert(px_jobs_parse("256", &j) && j == 256);
	cr_assert_not(px_jobs_parse("0", &j));
	cr_assert_not(px_jobs_parse("257", &j));
	cr_assert_not(px_jobs_parse("2x", &j));
	cr_assert_not(px_jobs_parse("", &j));
	cr_assert_geq(px_cpu_count(), 1);
}

/* A module with module variables between functions, a callee with a body
 * before its caller and one prototyped then defined after it. */
static const char src[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".func (.param .b32 r) late(.param .b32 a);\n"
	".func (.param .b32 r) early(.param .b32 a)\n{\n.reg .b32 %r<4>;\n"
	"ld.param.b32 %r0, [a];\nadd.s32 %r1, %r0, 1;\nst.param.b32 [r], %r1;\nret;\n}\n"
	".shared .align 4 .b8 sA[512];\n"
	".visible .entry k1(.param .u32 n)\n{\n.reg .b32 %r<8>;\n.reg .pred %p<2>;\n"
	"mov.u32 %r0, %tid.x;\nshl.b32 %r1, %r0, 3;\nmov.u32 %r2, sA;\nadd.s32 %r3, %r2, %r1;\n"
	"{\n.param .b32 a0;\n.param .b32 r0;\nst.param.b32 [a0], %r0;\n"
	"call (r0), early, (a0);\nld.param.b32 %r4, [r0];\n}\n"
	"st.shared.u32 [%r3], %r4;\nsetp.lt.u32 %p1, %r0, 8;\n@%p1 bra L;\nbar.sync 0;\nL:\nret;\n}\n"
	".shared .align 8 .b8 sB[256];\n"
	".visible .entry k2()\n{\n.reg .b32 %r<8>;\n"
	"mov.u32 %r0, %tid.x;\nmov.u32 %r2, sB;\nadd.s32 %r3, %r2, %r0;\n"
	"{\n.param .b32 a0;\n.param .b32 r0;\nst.param.b32 [a0], %r0;\n"
	"call (r0), late, (a0);\nld.param.b32 %r4, [r0];\n}\n"
	"st.shared.u8 [%r3], %r4;\nret;\n}\n"
	".func (.param .b32 r) late(.param .b32 a)\n{\n.reg .b32 %r<4>;\n"
	"ld.param.b32 %r0, [a];\nst.param.b32 [r], %r0;\nret;\n}\n"
	".visible .entry k3()\n{\n.reg .b32 %r<8>;\n"
	"{\n.param .b32 a0;\n.param .b32 r0;\nst.param.b32 [a0], %r0;\n"
	"call (r0), late, (a0);\nld.param.b32 %r4, [r0];\n}\nret;\n}\n";

static void report_skip(struct px_pool *pool, size_t batch, unsigned skip,
                        struct px_file_report *rep)
{
	struct px_report_options opt = {.pool = pool, .batch_bytes = batch, .skip_passes = skip};
	struct px_diags d = {0};
	size_t n = strlen(src);
	char *text = xmalloc(n + 1);
	memcpy(text, src, n + 1);
	cr_assert(px_report_file("t.ptx", text, n, &opt, rep, &d));
	cr_assert_eq(d.n, 0);
	px_diags_free(&d);
}

static void report(struct px_pool *pool, size_t batch, struct px_file_report *rep)
{
	report_skip(pool, batch, 0, rep);
}

static void same_reports(const struct px_file_report *a, const struct px_file_report *b)
{
	cr_assert_eq(b->nkernels, a->nkernels);
	for (size_t i = 0; i < a->nkernels; i++) {
		const struct px_kernel_report *x = &a->kernels[i], *y = &b->kernels[i];
		cr_assert_eq(x->func_index, y->func_index);
		cr_assert_eq(x->reg_estimate, y->reg_estimate);
		cr_assert_eq(x->reg_demand, y->reg_demand);
		cr_assert_eq(x->shared_static_bytes, y->shared_static_bytes);
		cr_assert_eq(x->res->nacc, y->res->nacc);
		cr_assert_eq(x->res->nbr, y->res->nbr);
		for (uint32_t k = 0; k < x->res->nbr; k++)
			cr_assert_str_eq(x->res->br[k].reason, y->res->br[k].reason);
	}
}

Test(pool, report_equals_one_at_a_time)
{
	struct px_pool *pool = px_pool_new(3);
	struct px_file_report a, b, c;
	report(NULL, 0, &a);
	report(pool, 1, &b);   /* a task per function */
	report(pool, 0, &c);   /* the default batches */
	cr_assert_eq(a.nkernels, 3);
	same_reports(&a, &b);
	same_reports(&a, &c);
	/* k2 calls `late` before its body: opaque, so more registers than k3,
	 * which calls it after; k1's shared layout holds sA only */
	cr_assert_gt(a.kernels[1].reg_estimate, a.kernels[2].reg_estimate);
	cr_assert_eq(a.kernels[0].shared_static_bytes, 512);
	cr_assert_eq(a.kernels[1].shared_static_bytes, 256);
	px_file_report_free(&a);
	px_file_report_free(&b);
	px_file_report_free(&c);
	px_pool_delete(pool);
}

/* skip_passes: the events pass (what only lint reads) is not run, one at a
 * time or on the pool; everything the report prints stays the same. */
Test(pool, report_skips_passes)
{
	struct px_pool *pool = px_pool_new(2);
	struct px_file_report a, b, c;
	report(NULL, 0, &a);
	report_skip(NULL, 0, PX_PASS_EVENTS, &b);
	report_skip(pool, 1, PX_PASS_EVENTS, &c);
	same_reports(&a, &b);
	same_reports(&a, &c);
	/* k1's bar.sync is skipped by the threads with tid.x < 8 */
	cr_assert_geq(a.kernels[0].res->nev, 1);
	cr_assert_eq(a.kernels[0].res->ev[0].kind, PX_EV_DIVERGENT_BARRIER);
	cr_assert_eq(b.kernels[0].res->nev, 0);
	cr_assert_eq(c.kernels[0].res->nev, 0);
	px_file_report_free(&a);
	px_file_report_free(&b);
	px_file_report_free(&c);
	px_pool_delete(pool);
}
