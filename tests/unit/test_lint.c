/* test_lint.c: the lint library (rules/): suppression comments, globs,
 * configuration errors located at their node, baselines, and the crash
 * fuzz_config found (the suppression scanner read past a buffer without a
 * NUL: tests/fixtures/fuzz/config/). */
#include <criterion/criterion.h>
#include <string.h>

#include "rules.h"

Test(lint, suppressions_apply_to_their_line_or_the_next_code_line)
{
	const char *t = "a;\n// ptxray-ignore: x-y, z \xe2\x80\x94 because\n\nb;\nc; // ptxray-ignore: w -- why\n"
	                "// ptxray-ignore: q\nd;\n";
	struct px_suppressions s = {0};
	px_suppressions_scan(&s, t, strlen(t));
	cr_assert_eq(s.n, 3);
	cr_assert_eq(s.items[0].line, 4);
	cr_assert_eq(s.items[0].nrules, 2);
	cr_assert_str_eq(s.items[0].reason, "because");
	cr_assert_eq(s.items[1].line, 5);
	cr_assert_str_eq(s.items[1].reason, "why");
	cr_assert_eq(s.items[2].line, 7);
	cr_assert_null(s.items[2].reason);
	cr_assert(px_suppressions_match(&s, "z", 4));
	cr_assert(!px_suppressions_match(&s, "z", 5));
	px_suppressions_free(&s);
}

Test(lint, suppression_scan_stays_in_its_buffer)
{
	size_t len;
	char *err = NULL;
	char *data = px_read_file("tests/fixtures/fuzz/config/suppression-scan-past-end", &len, &err);
	cr_assert_not_null(data, "%s", err);
	char *copy = xmalloc(len - 1);   /* no NUL after it */
	memcpy(copy, data + 1, len - 1);
	struct px_suppressions s = {0};
	px_suppressions_scan(&s, copy, len - 1);
	px_suppressions_free(&s);
	free(copy);
	free(data);
}

Test(lint, globs)
{
	cr_assert(px_glob_match("legacy/**", "legacy/a/b.ptx"));
	cr_assert(px_glob_match("*.ptx", "x/y/z.ptx"));
	cr_assert(px_glob_match("third_party", "third_party/k.ptx"));
	cr_assert(px_glob_match("src/*/k.ptx", "src/a/k.ptx"));
	cr_assert(!px_glob_match("src/*/k.ptx", "src/a/b/k.ptx"));
	cr_assert(px_glob_match("src/**/k.ptx", "src/a/b/k.ptx"));
	cr_assert(!px_glob_match("*.cu", "k.ptx"));
	cr_assert(px_glob_match("**/k.ptx", "k.ptx"));
	cr_assert(px_glob_match("**/k.ptx", "a/b/k.ptx"));
	cr_assert(px_glob_match("src/**", "src/a/b"));
	cr_assert(px_glob_match("k?.ptx", "k1.ptx"));
	cr_assert(!px_glob_match("a?b/c", "a/b/c"));
	cr_assert(px_glob_match("*a*b*", "xxaybz"));
	cr_assert(!px_glob_match("*a*b*", "xxbyaz"));
	cr_assert(px_glob_match("/top/*.cu", "top/x.cu"));
}

/* fuzz_config found that backtracking over many stars took exponential
 * time; the match is now bounded by the glob's length times the path's. */
Test(lint, globs_with_many_stars_match_in_polynomial_time)
{
	char glob[4096];
	memset(glob, '*', sizeof glob - 2);
	glob[0] = 'b';
	glob[sizeof glob - 2] = 'z';
	glob[sizeof glob - 1] = 0;
	cr_assert(!px_glob_match(glob, "dir/legacy/x/b.ptx"));
	cr_assert(px_glob_match(glob, "dir/legacy/x/bz"));
	glob[0] = 'd';
	glob[100] = '/';
	cr_assert(px_glob_match(glob, "dir/legacy/x/b.ptxz"));
	cr_assert(!px_glob_match(glob, "dir/legacy/x/b.ptx"));
}

Test(lint, config_errors_are_located)
{
	const char *t = "archs: [sm_90]\nrules:\n  low-occupancy: {threshold: lots}\n";
	struct px_diags d = {0};
	cr_assert_null(px_config_parse("c.yaml", t, strlen(t), &d));
	cr_assert_eq(d.n, 1);
	cr_assert_eq(d.items[0].line, 3);
	cr_assert_eq(d.items[0].column, 30);
	px_diags_free(&d);
	t = "rules:\n  low-occupancy: {severity: note, threshold: 0.5}\noverrides:\n"
	    "  - paths: legacy/**\n    rules: {low-occupancy: off}\n";
	struct px_config *c = px_config_parse("dir/c.yaml", t, strlen(t), &d);
	cr_assert_not_null(c);
	const struct px_rule *r = px_rule_find("low-occupancy");
	size_t n;
	const struct px_rule *all = px_rules(&n);
	struct px_effective e;
	px_config_effective(c, "nowhere/k.ptx", &e);
	cr_assert_eq(e.rules[r - all].state, PX_RULE_ON);
	cr_assert_eq(e.rules[r - all].severity, PX_NOTE);
	cr_assert_float_eq(e.rules[r - all].threshold, 0.5, 1e-9);
	px_effective_free(&e);
	px_config_delete(c);
}

Test(lint, baseline_round_trip)
{
	struct px_lint_result r = {0};
	struct px_finding *f = PX_VEC_PUSH(r.items, r.n, r.cap);
	memset(f, 0, sizeof *f);
	f->rule = "shared-bank-conflict";
	f->file = xstrdup("k.ptx");
	f->message = xstrdup("m");
	f->kernel = xstrdup("k");
	f->fingerprint = 0xabcdef01;
	struct px_buf b = {0};
	px_baseline_write(&b, &r);
	struct px_diags d = {0};
	struct px_baseline *bl = px_baseline_parse("b", b.p, b.n, &d);
	cr_assert_not_null(bl);
	px_baseline_filter(bl, &r);
	cr_assert_eq(r.n, 0);
	cr_assert_eq(r.baselined, 1);
	px_baseline_delete(bl);
	px_buf_free(&b);
	cr_assert_null(px_baseline_parse("b", "x\ty\n", 4, &d));
	cr_assert_eq(d.items[0].line, 1);
	px_diags_free(&d);
	px_lint_result_free(&r);
}

Test(lint, registry_sorted_and_documented)
{
	size_t n;
	const struct px_rule *r = px_rules(&n);
	for (size_t i = 0; i < n; i++) {
		cr_assert(i == 0 || strcmp(r[i - 1].id, r[i].id) < 0, "%s out of order", r[i].id);
		cr_assert(r[i].summary && r[i].message && r[i].description && r[i].why && r[i].fix &&
		          r[i].before && r[i].after, "%s lacks documentation", r[i].id);
		cr_assert(r[i].check || r[i].provider || strcmp(r[i].id, "bad-annotation") == 0,
		          "%s has no check and no provider", r[i].id);
	}
}
