/* test_arch.c: the arch tables and their loader: every embedded table
 * loads, the schema is sorted, show round-trips, and each kind of bad table
 * gets a located error; the occupancy engine on hand-checked cases, the
 * batch-line parser and sizes with units. */
#include <criterion/criterion.h>
#include <string.h>

#include "arch.h"
#include "ir.h"
#include "occupancy.h"

Test(arch, every_embedded_table_loads)
{
	struct px_diags d = {0};
	struct px_archset *s = px_archset_new(&d);
	cr_assert_not_null(s, "%s", d.n ? d.items[0].message : "");
	cr_assert_eq(px_archset_count(s), 19);
	cr_assert_eq(px_arch_builtin_count, 19);
	const struct px_arch *h = px_archset_find(s, "sm_90a");
	cr_assert_not_null(h);
	cr_assert_str_eq(h->name, "sm_90");
	cr_assert_eq(h->shared_per_sm, 228 * 1024);
	cr_assert_eq(h->shared_per_block_optin, 227 * 1024);
	cr_assert_eq(h->max_warps_per_sm, 64);
	cr_assert_eq(px_archset_find(s, "9.0"), h);
	cr_assert_eq(px_archset_find(s, "compute_90"), h);
	cr_assert_null(px_archset_find(s, "sm_99"));
	cr_assert_null(px_archset_find(s, "sm_"));
	for (size_t i = 1; i < px_archset_count(s); i++) {
		const struct px_arch *a = px_archset_at(s, i - 1), *b = px_archset_at(s, i);
		cr_assert(a->major * 10 + a->minor < b->major * 10 + b->minor);
	}
	px_archset_delete(s);
	px_diags_free(&d);
}

Test(arch, schema_is_sorted_and_show_round_trips)
{
	for (size_t i = 1; i < px_arch_key_count(); i++)
		cr_assert(strcmp(px_arch_key_at(i - 1).key, px_arch_key_at(i).key) < 0);
	struct px_diags d = {0};
	struct px_archset *s = px_archset_new(&d);
	struct px_arena *arena = px_arena_new();
	for (size_t i = 0; i < px_archset_count(s); i++) {
		struct px_buf out = {0};
		px_arch_show(&out, px_archset_at(s, i));
		struct px_arch b;
		cr_assert(px_arch_parse("shown", out.p, out.n, arena, &b, &d), "%s", out.p);
		const struct px_arch *a = px_archset_at(s, i);
		cr_assert_eq(memcmp(a->carveouts, b.carveouts, sizeof a->carveouts), 0);
		cr_assert_eq(a->registers_per_block, b.registers_per_block);
		cr_assert_eq(a->barriers_per_sm, b.barriers_per_sm);
		px_buf_free(&out);
	}
	px_arena_delete(arena);
	px_archset_delete(s);
	px_diags_free(&d);
}

/* Loads sm_90.yaml with `from` replaced by `to`; returns the first error
 * reported (in the order the loader finds them). */
static char *broken(const char *from, const char *to, uint32_t *line, uint32_t *col)
{
	const struct px_arch_text *t = NULL;
	for (size_t i = 0; i < px_arch_builtin_count; i++)
		if (strcmp(px_arch_builtin[i].path, "arch/sm_90.yaml") == 0)
			t = &px_arch_builtin[i];
	cr_assert_not_null(t);
	const char *at = strstr(t->text, from);
	cr_assert_not_null(at, "%s", from);
	char *text = xasprintf("%.*s%s%s", (int)(at - t->text), t->text, to, at + strlen(from));
	struct px_diags d = {0};
	struct px_arena *arena = px_arena_new();
	struct px_arch a;
	bool ok = px_arch_parse("x.yaml", text, strlen(text), arena, &a, &d);
	cr_assert(!ok);
	cr_assert(d.n > 0);
	char *msg = xstrdup(d.items[0].message);
	*line = d.items[0].line;
	*col = d.items[0].column;
	px_diags_free(&d);
	px_arena_delete(arena);
	free(text);
	return msg;
}

Test(arch, bad_tables_get_located_errors)
{
	uint32_t line, col;
	char *m = broken("  per_sm: 65536", "  per_smm: 65536", &line, &col);
	cr_assert_str_eq(m, "unknown key 'registers.per_smm'");
	cr_assert_eq(line, 28);
	cr_assert_eq(col, 3);
	free(m);
	m = broken("  max_per_sm: 32 ", "  max_per_sm: lots ", &line, &col);
	cr_assert(strstr(m, "'blocks.max_per_sm' must be an unsigned integer"), "%s", m);
	cr_assert_eq(col, 15);
	free(m);
	m = broken("  banks: 32", "  banks: 0", &line, &col);
	cr_assert(strstr(m, "'shared_banks.banks' is 0; it must be between 1 and 256"), "%s", m);
	free(m);
	m = broken("warp_size: 32", "warp_sized: 32", &line, &col);
	cr_assert_str_eq(m, "unknown key 'warp_sized'");
	free(m);
	m = broken("  max_per_sm: 64", "  max_per_sm: 60", &line, &col);
	cr_assert(strstr(m, "must equal 'threads.max_per_sm'"), "%s", m);
	free(m);
	m = broken("[0, 8, 16, 32, 64, 100, 132, 164, 196, 228]", "[0, 8, 16, 8]", &line, &col);
	cr_assert(strstr(m, "strictly ascending"), "%s", m);
	free(m);
	m = broken("  subpartitions: 4 ", "  subpartitions: [4] ", &line, &col);
	cr_assert(strstr(m, "must be an unsigned integer"), "%s", m);
	free(m);
	m = broken("  max_cluster_size: 8", "", &line, &col);
	cr_assert_str_eq(m, "missing key 'scheduling.max_cluster_size'");
	free(m);
	m = broken("name: sm_90", "name: sm_90\nname: sm_90", &line, &col);
	cr_assert_str_eq(m, "'name' is given twice");
	free(m);
	m = broken("name: sm_90", "name: [sm_90", &line, &col);
	cr_assert(strstr(m, "invalid YAML"), "%s", m);
	free(m);
}

static const struct px_arch *arch_of(struct px_archset *s, const char *n)
{
	const struct px_arch *a = px_archset_find(s, n);
	cr_assert_not_null(a);
	return a;
}

/* The value of entry name in t's n entries; -1 when absent. */
static double entry(const struct px_arch_metric *t, uint32_t n, const char *name)
{
	for (uint32_t i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return t[i].value;
	return -1;
}

/* px_arch_timing: a table with latencies times itself; one without keeps
 * its throughput entries and SM and takes the rest from its base (same
 * major version first, else the nearest compute capability, the older on
 * a tie). */
Test(arch, timing_tables_take_missing_entries_from_the_base)
{
	struct px_diags d = {0};
	struct px_archset *s = px_archset_new(&d);
	static const struct {
		const char *target, *base;
	} cases[] = {
		{"sm_90", NULL}, {"sm_80", NULL}, {"sm_86", "sm_80"}, {"sm_87", "sm_80"}, {"sm_89", "sm_80"},
		{"sm_75", "sm_80"}, {"sm_70", "sm_80"}, {"sm_61", "sm_80"}, {"sm_50", "sm_80"},
		{"sm_100", "sm_90"}, {"sm_120", "sm_90"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct px_arch *a = arch_of(s, cases[i].target);
		struct px_arch_timing t;
		px_arch_timing(s, a, &t);
		cr_assert_str_eq(t.arch.name, a->name);
		cr_assert_eq(t.arch.unified_l1_shared, a->unified_l1_shared);
		if (!cases[i].base) {
			cr_assert_null(t.base, "%s", a->name);
			cr_assert_eq(t.arch.latency, a->latency);
			cr_assert_eq(t.arch.nthroughput, a->nthroughput);
		} else {
			cr_assert_not_null(t.base, "%s", a->name);
			cr_assert_str_eq(t.base->name, cases[i].base, "%s: %s", a->name, t.base->name);
			cr_assert_eq(t.arch.nlatency, t.base->nlatency);
			cr_assert_eq(t.from_base[0], t.base->nlatency);
			cr_assert_eq(t.arch.nthroughput, a->nthroughput + t.from_base[1]);
			cr_assert_eq(entry(t.arch.latency, t.arch.nlatency, "l2"),
			             entry(t.base->latency, t.base->nlatency, "l2"));
		}
		px_arch_timing_free(&t);
	}
	/* the target's own rates stay: sm_86's FP64 2 results a cycle per SM
	 * (the Programming Guide's), not sm_80's 32; the rest is sm_80's */
	struct px_arch_timing t;
	px_arch_timing(s, arch_of(s, "sm_86"), &t);
	cr_assert_eq(entry(t.arch.throughput, t.arch.nthroughput, "fp64_fma"), 2);
	cr_assert_eq(entry(t.arch.throughput, t.arch.nthroughput, "fp32_fma"), 128);
	cr_assert_eq(entry(t.arch.throughput, t.arch.nthroughput, "sfu"), 16);
	cr_assert_eq(entry(t.arch.latency, t.arch.nlatency, "fp64"), 8);
	cr_assert_eq(t.from_base[1], arch_of(s, "sm_80")->nthroughput - 2);
	px_arch_timing_free(&t);
	/* without a set, or with no table that has latencies, the target as it is */
	px_arch_timing(NULL, arch_of(s, "sm_86"), &t);
	cr_assert_null(t.base);
	cr_assert_eq(t.arch.nlatency, 0);
	px_arch_timing_free(&t);
	px_archset_delete(s);
	px_diags_free(&d);
}

Test(occupancy, interfaces_example_and_hand_checked_cases)
{
	struct px_diags d = {0};
	struct px_archset *s = px_archset_new(&d);
	const struct px_arch *h = arch_of(s, "sm_90");
	/* INTERFACES.md: sm_90, 256 threads, 64 registers, 4096 B static */
	struct px_occ_query q = {.threads = 256, .registers = 64, .shared = 4096, .carveout = -1, .barriers = 1};
	struct px_occ_result r;
	cr_assert_null(px_occ_check(h, &q));
	px_occ_compute(h, &q, &r);
	cr_assert_eq(r.blocks_per_sm, 4);
	cr_assert_eq(r.warps_per_sm, 32);
	cr_assert_float_eq(r.occupancy, 0.5, 1e-12);
	cr_assert_eq(r.limiters, 1u << PX_OCC_REGISTERS);
	cr_assert_eq(r.limit[PX_OCC_WARPS], 8);
	cr_assert_eq(r.limit[PX_OCC_SHARED], 45);   /* 233472 / 5120 */
	cr_assert_eq(r.limit[PX_OCC_BLOCKS], 32);
	cr_assert_eq(r.limit[PX_OCC_BARRIERS], 64);
	cr_assert_eq(r.registers_per_block, 16384);
	cr_assert_eq(r.shared_per_block, 5120);
	/* 1025 threads cannot launch */
	q.threads = 1025;
	px_occ_compute(h, &q, &r);
	cr_assert_eq(r.blocks_per_sm, 0);
	cr_assert_eq(r.fail, PX_OCC_FAIL_THREADS);
	/* 100 KiB dynamic without opt-in cannot launch; with opt-in 2 blocks */
	q.threads = 128;
	q.registers = 32;
	q.shared = 0;
	q.dynamic_shared = 100 * 1024;
	px_occ_compute(h, &q, &r);
	cr_assert_eq(r.blocks_per_sm, 0);
	cr_assert_eq(r.fail, PX_OCC_FAIL_SHARED);
	q.optin = true;
	px_occ_compute(h, &q, &r);
	cr_assert_eq(r.blocks_per_sm, 2);
	cr_assert_eq(r.shared_per_sm, 228 * 1024);
	/* carveout 0 with a small block: the driver picks the 8 KiB step */
	q.optin = false;
	q.dynamic_shared = 2048;
	q.carveout = 0;
	px_occ_compute(h, &q, &r);
	cr_assert_eq(r.shared_per_sm, 8 * 1024);
	cr_assert_eq(r.blocks_per_sm, 2);   /* 8192 / 3072 */
	cr_assert_null(px_occ_check(h, &q));
	q.registers = 256;
	cr_assert_not_null(px_occ_check(h, &q));
	px_archset_delete(s);
	px_diags_free(&d);
}

Test(occupancy, advice)
{
	struct px_diags d = {0};
	struct px_archset *s = px_archset_new(&d);
	const struct px_arch *h = arch_of(s, "sm_90");
	struct px_occ_query q = {.threads = 256, .registers = 64, .shared = 4096, .carveout = -1, .barriers = 1};
	struct px_occ_result r;
	struct px_occ_advice adv;
	px_occ_compute(h, &q, &r);
	px_occ_advise(h, &q, &r, NULL, &adv);
	cr_assert(adv.have_register_step);
	cr_assert_eq(adv.step_registers, 48);   /* 48 x 32 = 1536 per warp: 10 warps per sub-partition */
	cr_assert_eq(adv.step_blocks, 5);
	cr_assert(adv.have_bounds && adv.bounds_reachable);
	cr_assert_eq(adv.bounds_min_blocks, 5);
	cr_assert_eq(adv.bounds_register_cap, 48);
	cr_assert(adv.have_carveout);
	cr_assert_eq(adv.carveout_bytes, 32 * 1024);   /* 4 x 5120 = 20480 -> 32 KiB */
	cr_assert_eq(adv.warnings, 0);
	px_archset_delete(s);
	px_diags_free(&d);
}

Test(occupancy, batch_lines_and_sizes)
{
	char arch[16], err[128];
	struct px_occ_query q;
	uint32_t col;
	const char *l = "{\"arch\": \"sm_86\", \"threads\": 256, \"registers\": 40, \"carveout\": 50, \"optin\": true}";
	cr_assert(px_occ_parse_line(l, strlen(l), arch, sizeof arch, &q, &col, err, sizeof err), "%s", err);
	cr_assert_str_eq(arch, "sm_86");
	cr_assert_eq(q.threads, 256);
	cr_assert_eq(q.registers, 40);
	cr_assert_eq(q.carveout, 50);
	cr_assert(q.optin);
	cr_assert_eq(q.barriers, 1);
	l = "{\"arch\": \"sm_86\", \"threds\": 256}";
	cr_assert(!px_occ_parse_line(l, strlen(l), arch, sizeof arch, &q, &col, err, sizeof err));
	cr_assert_eq(col, 19);
	cr_assert(strstr(err, "unknown key 'threds'"), "%s", err);
	l = "{\"arch\": \"sm_86\"}";
	cr_assert(!px_occ_parse_line(l, strlen(l), arch, sizeof arch, &q, &col, err, sizeof err));
	cr_assert_str_eq(err, "missing key 'threads'");
	l = "{\"arch\": \"sm_86\", \"threads\": -4}";
	cr_assert(!px_occ_parse_line(l, strlen(l), arch, sizeof arch, &q, &col, err, sizeof err));
	uint32_t v;
	cr_assert(px_parse_size("8K", &v) && v == 8192);
	cr_assert(px_parse_size("8KiB", &v) && v == 8192);
	cr_assert(px_parse_size("1M", &v) && v == 1048576);
	cr_assert(px_parse_size("4096", &v) && v == 4096);
	cr_assert(!px_parse_size("8KB", &v));
	cr_assert(!px_parse_size("-1", &v));
	cr_assert(!px_parse_size("", &v));
}
