/* output.c: lint findings as JSON (INTERFACES.md, ptxray-lint/1), SARIF
 * 2.1.0 and GitHub workflow annotations, and the rule catalogue as text
 * (`ptxray rules`, `ptxray rules ID`) and as the ptxray-rules(7) man page.
 *
 * Everything is appended to a px_buf (main.c writes it); the findings are
 * already sorted. The text form of diagnostics is main.c's one emitter. The
 * man page is generated from the registry so that it cannot drift;
 * tests/check_rules.py compares the committed page with this output. */
#include <stdio.h>
#include <string.h>

#include "rules.h"

void px_lint_json(struct px_buf *out, const struct px_lint_result *r)
{
	struct px_json j = {.out = out, .pretty = false};
	px_json_begin_object(&j);
	px_json_key(&j, "schema");
	px_json_string(&j, "ptxray-lint/1");
	px_json_key(&j, "diagnostics");
	px_json_begin_array(&j);
	for (size_t i = 0; i < r->n; i++) {
		const struct px_finding *f = &r->items[i];
		px_json_begin_object(&j);
		px_json_key(&j, "rule");
		px_json_string(&j, f->rule);
		px_json_key(&j, "severity");
		px_json_string(&j, px_severity_name(f->severity));
		px_json_key(&j, "file");
		px_json_string(&j, f->file);
		px_json_key(&j, "line");
		px_json_uint(&j, f->line);
		px_json_key(&j, "column");
		px_json_uint(&j, f->column);
		px_json_key(&j, "message");
		px_json_string(&j, f->message);
		px_json_key(&j, "kernel");
		if (f->kernel)
			px_json_string(&j, f->kernel);
		else
			px_json_null(&j);
		px_json_key(&j, "arch");
		if (f->arch)
			px_json_string(&j, f->arch);
		else
			px_json_null(&j);
		px_json_end_object(&j);
	}
	px_json_end_array(&j);
	px_json_key(&j, "suppressed");
	px_json_uint(&j, r->suppressed);
	px_json_key(&j, "baselined");
	px_json_uint(&j, r->baselined);
	px_json_end_object(&j);
	px_buf_puts(out, "\n");
}

static const char *sarif_level(enum px_severity s)
{
	return s == PX_ERROR ? "error" : s == PX_WARNING ? "warning" : "note";
}

/* The rule's full description as Markdown-free text. */
static void rule_help(struct px_buf *b, const struct px_rule *r)
{
	px_buf_printf(b, "%s\n\nWhy it matters: %s\n\nHow to fix: %s\n\nBefore:\n%s\n\nAfter:\n%s\n",
	              r->description, r->why, r->fix, r->before, r->after);
}

void px_lint_sarif(struct px_buf *out, const struct px_lint_result *r, const char *version)
{
	size_t nr;
	const struct px_rule *rules = px_rules(&nr);
	struct px_json j = {.out = out, .pretty = false};
	px_json_begin_object(&j);
	px_json_key(&j, "$schema");
	px_json_string(&j, "https://json.schemastore.org/sarif-2.1.0.json");
	px_json_key(&j, "version");
	px_json_string(&j, "2.1.0");
	px_json_key(&j, "runs");
	px_json_begin_array(&j);
	px_json_begin_object(&j);
	px_json_key(&j, "tool");
	px_json_begin_object(&j);
	px_json_key(&j, "driver");
	px_json_begin_object(&j);
	px_json_key(&j, "name");
	px_json_string(&j, "ptxray");
	px_json_key(&j, "version");
	px_json_string(&j, version);
	px_json_key(&j, "informationUri");
	px_json_string(&j, "https://example.invalid/ptxray");
	px_json_key(&j, "rules");
	px_json_begin_array(&j);
	for (size_t i = 0; i < nr; i++) {
		const struct px_rule *ru = &rules[i];
		px_json_begin_object(&j);
		px_json_key(&j, "id");
		px_json_string(&j, ru->id);
		px_json_key(&j, "name");
		px_json_string(&j, ru->id);
		px_json_key(&j, "shortDescription");
		px_json_begin_object(&j);
		px_json_key(&j, "text");
		px_json_string(&j, ru->summary);
		px_json_end_object(&j);
		px_json_key(&j, "fullDescription");
		px_json_begin_object(&j);
		px_json_key(&j, "text");
		px_json_string(&j, ru->description);
		px_json_end_object(&j);
		struct px_buf h = {0};
		rule_help(&h, ru);
		px_json_key(&j, "help");
		px_json_begin_object(&j);
		px_json_key(&j, "text");
		px_json_string_n(&j, h.p, h.n);
		px_json_end_object(&j);
		px_buf_free(&h);
		px_json_key(&j, "defaultConfiguration");
		px_json_begin_object(&j);
		px_json_key(&j, "enabled");
		px_json_bool(&j, ru->on);
		px_json_key(&j, "level");
		px_json_string(&j, sarif_level(ru->severity));
		px_json_end_object(&j);
		px_json_key(&j, "properties");
		px_json_begin_object(&j);
		px_json_key(&j, "category");
		px_json_string(&j, px_rule_category_name(ru->category));
		px_json_key(&j, "tags");
		px_json_begin_array(&j);
		px_json_string(&j, px_rule_category_name(ru->category));
		px_json_end_array(&j);
		px_json_end_object(&j);
		px_json_end_object(&j);
	}
	px_json_end_array(&j);
	px_json_end_object(&j);  /* driver */
	px_json_end_object(&j);  /* tool */
	px_json_key(&j, "results");
	px_json_begin_array(&j);
	for (size_t i = 0; i < r->n; i++) {
		const struct px_finding *f = &r->items[i];
		const struct px_rule *ru = px_rule_find(f->rule);
		px_json_begin_object(&j);
		px_json_key(&j, "ruleId");
		px_json_string(&j, f->rule);
		if (ru) {
			px_json_key(&j, "ruleIndex");
			px_json_uint(&j, (uint64_t)(ru - rules));
		}
		px_json_key(&j, "level");
		px_json_string(&j, sarif_level(f->severity));
		px_json_key(&j, "message");
		px_json_begin_object(&j);
		px_json_key(&j, "text");
		px_json_string(&j, f->message);
		px_json_end_object(&j);
		px_json_key(&j, "locations");
		px_json_begin_array(&j);
		px_json_begin_object(&j);
		px_json_key(&j, "physicalLocation");
		px_json_begin_object(&j);
		px_json_key(&j, "artifactLocation");
		px_json_begin_object(&j);
		px_json_key(&j, "uri");
		px_json_string(&j, f->file);
		px_json_end_object(&j);
		px_json_key(&j, "region");
		px_json_begin_object(&j);
		px_json_key(&j, "startLine");
		px_json_uint(&j, f->line ? f->line : 1);
		px_json_key(&j, "startColumn");
		px_json_uint(&j, f->column ? f->column : 1);
		px_json_end_object(&j);
		px_json_end_object(&j);
		if (f->kernel) {
			px_json_key(&j, "logicalLocations");
			px_json_begin_array(&j);
			px_json_begin_object(&j);
			px_json_key(&j, "name");
			px_json_string(&j, f->kernel);
			px_json_key(&j, "kind");
			px_json_string(&j, "function");
			px_json_end_object(&j);
			px_json_end_array(&j);
		}
		px_json_end_object(&j);
		px_json_end_array(&j);
		char fp[16];
		snprintf(fp, sizeof fp, "%08x", f->fingerprint);
		px_json_key(&j, "partialFingerprints");
		px_json_begin_object(&j);
		px_json_key(&j, "ptxrayLine/v1");
		px_json_string(&j, fp);
		px_json_end_object(&j);
		if (f->arch) {
			px_json_key(&j, "properties");
			px_json_begin_object(&j);
			px_json_key(&j, "arch");
			px_json_string(&j, f->arch);
			px_json_end_object(&j);
		}
		px_json_end_object(&j);
	}
	px_json_end_array(&j);
	px_json_end_object(&j);  /* run */
	px_json_end_array(&j);
	px_json_end_object(&j);
	px_buf_puts(out, "\n");
}

/* GitHub escapes: data %, \r, \n; properties also : and , */
static void gh_escape(struct px_buf *out, const char *s, bool property)
{
	for (; *s; s++) {
		if (*s == '%')
			px_buf_puts(out, "%25");
		else if (*s == '\r')
			px_buf_puts(out, "%0D");
		else if (*s == '\n')
			px_buf_puts(out, "%0A");
		else if (property && *s == ':')
			px_buf_puts(out, "%3A");
		else if (property && *s == ',')
			px_buf_puts(out, "%2C");
		else
			px_buf_putn(out, s, 1);
	}
}

void px_lint_github(struct px_buf *out, const struct px_lint_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct px_finding *f = &r->items[i];
		px_buf_printf(out, "::%s file=", f->severity == PX_ERROR ? "error"
		                                 : f->severity == PX_WARNING ? "warning" : "notice");
		gh_escape(out, f->file, true);
		px_buf_printf(out, ",line=%u,col=%u,title=", f->line, f->column);
		gh_escape(out, f->rule, true);
		px_buf_puts(out, "::");
		gh_escape(out, f->message, false);
		px_buf_printf(out, " [%s]\n", f->rule);
	}
}

/* ---- the catalogue ---- */

void px_rules_list(struct px_buf *out)
{
	size_t nr;
	const struct px_rule *rules = px_rules(&nr);
	px_buf_printf(out, "%-30s %-12s %-8s %-4s %s\n", "rule", "category", "severity", "on", "summary");
	for (size_t i = 0; i < nr; i++) {
		const struct px_rule *r = &rules[i];
		px_buf_printf(out, "%-30s %-12s %-8s %-4s %s", r->id, px_rule_category_name(r->category),
		              px_severity_name(r->severity), r->on ? "yes" : "no", r->summary);
		if (r->provider)
			px_buf_printf(out, " (provided by %s)", r->provider);
		px_buf_puts(out, "\n");
	}
}

static void indent(struct px_buf *out, const char *text, const char *pre)
{
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		px_buf_printf(out, "%s%.*s\n", pre, (int)n, p);
		p += n + (nl != NULL);
	}
}

void px_rule_doc(struct px_buf *out, const struct px_rule *r)
{
	px_buf_printf(out, "%s: %s\n", r->id, r->summary);
	px_buf_printf(out, "  category: %s; default severity: %s; on by default: %s\n",
	              px_rule_category_name(r->category), px_severity_name(r->severity), r->on ? "yes" : "no");
	if (r->provider)
		px_buf_printf(out, "  provided by: %s\n", r->provider);
	if (r->threshold_key)
		px_buf_printf(out, "  threshold: %s = %g: %s\n", r->threshold_key, r->threshold, r->threshold_doc);
	px_buf_printf(out, "\nmessage:\n  %s\n\ndescription:\n", r->message);
	indent(out, r->description, "  ");
	px_buf_puts(out, "\nwhy it matters:\n");
	indent(out, r->why, "  ");
	px_buf_puts(out, "\nhow to fix:\n");
	indent(out, r->fix, "  ");
	px_buf_puts(out, "\nbefore:\n");
	indent(out, r->before, "    ");
	px_buf_puts(out, "after:\n");
	indent(out, r->after, "    ");
}

/* roff: escape backslashes and dashes, protect a leading '.' or '\''. */
static void roff(struct px_buf *out, const char *s)
{
	bool bol = true;
	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			px_buf_puts(out, "\\&");
		bol = *s == '\n';
		if (*s == '\\')
			px_buf_puts(out, "\\e");
		else if (*s == '-')
			px_buf_puts(out, "\\-");
		else if ((unsigned char)s[0] == 0xe2 && (unsigned char)s[1] == 0x80 && (unsigned char)s[2] == 0x94) {
			px_buf_puts(out, "\\(em");
			s += 2;
		} else
			px_buf_putn(out, s, 1);
	}
}

void px_rules_man(struct px_buf *out, const char *date, const char *version)
{
	size_t nr;
	const struct px_rule *rules = px_rules(&nr);
	px_buf_printf(out, ".\\\" Generated by `ptxray rules --man` from rules/registry.c; do not edit.\n");
	px_buf_printf(out, ".TH PTXRAY\\-RULES 7 \"%s\" \"ptxray %s\" \"ptxray manual\"\n", date, version);
	px_buf_puts(out, ".SH NAME\nptxray\\-rules \\- the rules of ptxray lint\n"
	                 ".SH DESCRIPTION\n"
	                 "Every rule\n.BR ptxray\\-lint (1)\n"
	                 "knows, in the order of its registry.\nEach has a category, a default severity, "
	                 "and is on or off by default;\n.BR ptxray\\-config (5)\n"
	                 "changes these per path.\nA rule marked\n.I provided by\n"
	                 "takes its findings from the analysis named (the compatibility engine of\n"
	                 ".BR ptxray\\-compat (1));\nconfiguration, suppressions and baselines apply as to "
	                 "every rule.\nThe same text is printed by\n.BR \"ptxray rules\" \" ID\".\n"
	                 ".SH RULES\n");
	for (size_t i = 0; i < nr; i++) {
		const struct px_rule *r = &rules[i];
		px_buf_puts(out, ".SS ");
		roff(out, r->id);
		px_buf_puts(out, "\n");
		roff(out, r->summary);
		px_buf_puts(out, ".\n.br\nCategory:\n.IR ");
		px_buf_printf(out, "%s ;\ndefault severity:\n.IR %s ;\non by default: %s.\n",
		              px_rule_category_name(r->category), px_severity_name(r->severity),
		              r->on ? "yes" : "no");
		if (r->provider) {
			px_buf_puts(out, ".br\nProvided by ");
			roff(out, r->provider);
			px_buf_puts(out, ".\n");
		}
		if (r->threshold_key) {
			px_buf_puts(out, ".br\nThreshold\n.B ");
			roff(out, r->threshold_key);
			px_buf_printf(out, "\n(default %g): ", r->threshold);
			roff(out, r->threshold_doc);
			px_buf_puts(out, ".\n");
		}
		px_buf_puts(out, ".TP\nMessage\n");
		roff(out, r->message);
		px_buf_puts(out, "\n.TP\nDescription\n");
		roff(out, r->description);
		px_buf_puts(out, "\n.TP\nWhy it matters\n");
		roff(out, r->why);
		px_buf_puts(out, "\n.TP\nHow to fix\n");
		roff(out, r->fix);
		px_buf_puts(out, "\n.PP\nBefore:\n.PP\n.in +4n\n.EX\n");
		roff(out, r->before);
		px_buf_puts(out, "\n.EE\n.in\n.PP\nAfter:\n.PP\n.in +4n\n.EX\n");
		roff(out, r->after);
		px_buf_puts(out, "\n.EE\n.in\n");
	}
	px_buf_puts(out, ".SH SEE ALSO\n.BR ptxray (1),\n.BR ptxray\\-lint (1),\n.BR ptxray\\-config (5)\n");
}
