/* config.c: .ptxray.yaml, the lint configuration: parse it (libyaml's
 * document API, every error located at its node, as arch/arch.c does),
 * find the nearest one above each file, and resolve the settings that
 * apply to a file (top level, then each matching override in order).
 *
 * The keys are one sorted table (config_keys below) that the parser checks
 * against, --show-config prints and tests/check_rules.py compares with
 * ptxray-config(5). Globs are matched against the path relative to the
 * configuration's folder; a glob without '/' matches a file name at any
 * depth, '**' any number of folders. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rules.h"
#include "yaml_load.h"

/* The keys, sorted; `ptxray-config(5)` documents each one. */
static const struct { const char *key, *doc; } config_keys[] = {
	{"archs", "targets to check (sm_XX list); default: each file's .target"},
	{"compile_commands", "folder holding compile_commands.json (CUDA sources)"},
	{"fail_on", "error, warning or note: the lowest severity that makes the exit status 1"},
	{"ignore", "globs of paths not to lint"},
	{"launch.block", "default launch block X or [X, Y, Z] for kernels without .reqntid/.maxntid"},
	{"launch.dynamic_shared", "dynamic shared memory per block (bytes; units K, KiB, M)"},
	{"launch.grid", "launch grid X or [X, Y, Z]"},
	{"launch.optin", "true when the host opts the kernels into the large shared-memory limit"},
	{"nvcc.flags", "extra nvcc flags for CUDA sources"},
	{"nvcc.path", "the nvcc to run for CUDA sources"},
	{"overrides", "list of {paths: GLOB or [GLOB...], rules: ..., archs: ...} applied in order"},
	{"rules", "RULE: off | on | error | warning | note | {enabled, severity, threshold}"},
};

size_t px_config_key_count(void)
{
	return PX_COUNTOF(config_keys);
}
const char *px_config_key(size_t i, const char **doc)
{
	*doc = config_keys[i].doc;
	return config_keys[i].key;
}

struct cl {
	const char *path;
	yaml_document_t *doc;
	struct px_diags *diags;
	bool ok;
};

static void err_at(struct cl *L, const yaml_node_t *n, const char *fmt, ...) PX_PRINTF(3, 4);
static void err_at(struct cl *L, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	px_diag_vadd(L->diags, PX_ERROR, L->path, n ? (uint32_t)n->start_mark.line + 1 : 1,
	             n ? (uint32_t)n->start_mark.column + 1 : 1, NULL, fmt, ap);
	va_end(ap);
	L->ok = false;
}

static const char *scalar(struct cl *L, const yaml_node_t *n, const char *what)
{
	if (n->type != YAML_SCALAR_NODE) {
		err_at(L, n, "%s: expected a value", what);
		return NULL;
	}
	return (const char *)n->data.scalar.value;
}

static yaml_node_t *node(struct cl *L, int id)
{
	return yaml_document_get_node(L->doc, id);
}

static bool parse_uint(struct cl *L, const yaml_node_t *n, const char *what, uint32_t *out)
{
	const char *s = scalar(L, n, what);
	if (!s)
		return false;
	if (!px_parse_size(s, out)) {
		err_at(L, n, "%s: expected a non-negative integer, got '%s'", what, s);
		return false;
	}
	return true;
}

static bool parse_severity(const char *s, enum px_severity *out)
{
	if (strcmp(s, "error") == 0)
		*out = PX_ERROR;
	else if (strcmp(s, "warning") == 0)
		*out = PX_WARNING;
	else if (strcmp(s, "note") == 0)
		*out = PX_NOTE;
	else
		return false;
	return true;
}

/* A list of strings: one scalar or a sequence of scalars. */
static char **parse_strings(struct cl *L, const yaml_node_t *n, const char *what, uint32_t *count)
{
	*count = 0;
	if (n->type == YAML_SCALAR_NODE) {
		char **v = xcalloc(1, sizeof *v);
		v[0] = xstrdup((const char *)n->data.scalar.value);
		*count = 1;
		return v;
	}
	if (n->type != YAML_SEQUENCE_NODE) {
		err_at(L, n, "%s: expected a value or a list", what);
		return NULL;
	}
	size_t cnt = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	char **v = xcalloc(cnt + 1, sizeof *v);
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		const char *s = scalar(L, node(L, *it), what);
		if (s)
			v[(*count)++] = xstrdup(s);
	}
	return v;
}

static void free_strings(char **v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static bool parse_dims(struct cl *L, const yaml_node_t *n, const char *what, uint32_t out[3])
{
	out[0] = out[1] = out[2] = 1;
	if (n->type == YAML_SCALAR_NODE)
		return parse_uint(L, n, what, &out[0]) && (out[0] ? true : (err_at(L, n, "%s: must be positive", what), false));
	if (n->type != YAML_SEQUENCE_NODE) {
		err_at(L, n, "%s: expected X or [X, Y, Z]", what);
		return false;
	}
	int i = 0;
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++, i++) {
		if (i == 3) {
			err_at(L, node(L, *it), "%s: at most 3 dimensions", what);
			return false;
		}
		if (!parse_uint(L, node(L, *it), what, &out[i]))
			return false;
		if (!out[i]) {
			err_at(L, node(L, *it), "%s: must be positive", what);
			return false;
		}
	}
	if (i == 0) {
		err_at(L, n, "%s: empty", what);
		return false;
	}
	return true;
}

static void check_archs(struct cl *L, const yaml_node_t *n, char **v, uint32_t cnt)
{
	for (uint32_t i = 0; i < cnt; i++)
		if (strncmp(v[i], "sm_", 3) != 0 || v[i][3] < '0' || v[i][3] > '9')
			err_at(L, n, "archs: '%s' is not a target like sm_90", v[i]);
}

/* rules: { ID: off|on|SEVERITY|{enabled, severity, threshold} } into set. */
static void parse_rules(struct cl *L, const yaml_node_t *n, struct px_rule_setting *set)
{
	if (n->type != YAML_MAPPING_NODE) {
		err_at(L, n, "rules: expected a mapping of rule ids");
		return;
	}
	size_t nrules;
	const struct px_rule *rules = px_rules(&nrules);
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = node(L, p->key), *vn = node(L, p->value);
		const char *id = scalar(L, kn, "rules");
		if (!id)
			continue;
		const struct px_rule *r = px_rule_find(id);
		if (!r) {
			err_at(L, kn, "unknown rule '%s' (see ptxray rules)", id);
			continue;
		}
		struct px_rule_setting *s = &set[r - rules];
		(void)nrules;
		if (vn->type == YAML_SCALAR_NODE) {
			const char *v = (const char *)vn->data.scalar.value;
			if (strcmp(v, "off") == 0 || strcmp(v, "false") == 0)
				s->state = PX_RULE_OFF;
			else if (strcmp(v, "on") == 0 || strcmp(v, "true") == 0)
				s->state = PX_RULE_ON;
			else if (parse_severity(v, &s->severity))
				s->state = PX_RULE_ON, s->have_severity = true;
			else
				err_at(L, vn, "rule %s: expected off, on, error, warning, note or a mapping, got '%s'", id, v);
			continue;
		}
		if (vn->type != YAML_MAPPING_NODE) {
			err_at(L, vn, "rule %s: expected off, on, a severity or a mapping", id);
			continue;
		}
		for (yaml_node_pair_t *q = vn->data.mapping.pairs.start; q < vn->data.mapping.pairs.top; q++) {
			yaml_node_t *k2 = node(L, q->key), *v2 = node(L, q->value);
			const char *key = scalar(L, k2, "rule setting"), *val = scalar(L, v2, id);
			if (!key || !val)
				continue;
			if (strcmp(key, "enabled") == 0) {
				if (strcmp(val, "true") == 0)
					s->state = PX_RULE_ON;
				else if (strcmp(val, "false") == 0)
					s->state = PX_RULE_OFF;
				else
					err_at(L, v2, "rule %s: enabled: expected true or false", id);
			} else if (strcmp(key, "severity") == 0) {
				if (parse_severity(val, &s->severity))
					s->have_severity = true;
				else
					err_at(L, v2, "rule %s: severity: expected error, warning or note, got '%s'", id, val);
			} else if (strcmp(key, "threshold") == 0) {
				char *end;
				errno = 0;
				double t = strtod(val, &end);
				if (!r->threshold_key)
					err_at(L, k2, "rule %s has no threshold", id);
				else if (end == val || *end || errno || t < 0)
					err_at(L, v2, "rule %s: threshold: expected a non-negative number, got '%s'", id, val);
				else
					s->have_threshold = true, s->threshold = t;
			} else {
				err_at(L, k2, "rule %s: unknown setting '%s' (enabled, severity, threshold)", id, key);
			}
		}
	}
}

static struct px_rule_setting *new_settings(void)
{
	size_t n;
	px_rules(&n);
	return xcalloc(n, sizeof(struct px_rule_setting));
}

static void parse_override(struct cl *L, const yaml_node_t *n, struct px_config *c)
{
	if (n->type != YAML_MAPPING_NODE) {
		err_at(L, n, "overrides: each entry is a mapping with paths and rules or archs");
		return;
	}
	char **globs = NULL;
	uint32_t nglobs = 0;
	struct px_config_override o = {.line = (uint32_t)n->start_mark.line + 1, .rules = new_settings()};
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = node(L, p->key), *vn = node(L, p->value);
		const char *key = scalar(L, kn, "overrides");
		if (!key)
			continue;
		if (strcmp(key, "paths") == 0) {
			free_strings(globs, nglobs);
			globs = parse_strings(L, vn, "overrides.paths", &nglobs);
		} else if (strcmp(key, "rules") == 0) {
			parse_rules(L, vn, o.rules);
		} else if (strcmp(key, "archs") == 0) {
			free_strings(o.archs, o.narchs);   /* a repeated key: the last one counts */
			o.archs = parse_strings(L, vn, "overrides.archs", &o.narchs);
			check_archs(L, vn, o.archs, o.narchs);
		} else {
			err_at(L, kn, "overrides: unknown key '%s' (paths, rules, archs)", key);
		}
	}
	if (!nglobs) {
		err_at(L, n, "overrides: an entry needs paths");
		free(o.rules);
		free_strings(o.archs, o.narchs);
		free_strings(globs, nglobs);
		return;
	}
	/* one override per glob, sharing nothing (simple to free) */
	for (uint32_t g = 0; g < nglobs; g++) {
		struct px_config_override *dst;
		c->overrides = xrealloc(c->overrides, (c->noverrides + 1) * sizeof *c->overrides);
		dst = &c->overrides[c->noverrides++];
		*dst = o;
		dst->glob = globs[g];
		size_t nr;
		px_rules(&nr);
		dst->rules = xmalloc(nr * sizeof *dst->rules);
		memcpy(dst->rules, o.rules, nr * sizeof *dst->rules);
		dst->archs = NULL;
		if (o.archs) {
			dst->archs = xcalloc(o.narchs + 1, sizeof *dst->archs);
			for (uint32_t i = 0; i < o.narchs; i++)
				dst->archs[i] = xstrdup(o.archs[i]);
		}
	}
	free(globs);
	free(o.rules);
	free_strings(o.archs, o.narchs);
}

static void parse_root(struct cl *L, const yaml_node_t *root, struct px_config *c)
{
	if (root->type == YAML_SCALAR_NODE && !root->data.scalar.length)
		return;  /* an empty file */
	if (root->type != YAML_MAPPING_NODE) {
		err_at(L, root, "the configuration must be a mapping (see ptxray-config(5))");
		return;
	}
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = node(L, p->key), *vn = node(L, p->value);
		const char *key = scalar(L, kn, "key");
		if (!key)
			continue;
		if (strcmp(key, "archs") == 0) {
			free_strings(c->archs, c->narchs);
			c->archs = parse_strings(L, vn, "archs", &c->narchs);
			check_archs(L, vn, c->archs, c->narchs);
		} else if (strcmp(key, "launch") == 0) {
			if (vn->type != YAML_MAPPING_NODE) {
				err_at(L, vn, "launch: expected a mapping (block, grid, dynamic_shared, optin)");
				continue;
			}
			for (yaml_node_pair_t *q = vn->data.mapping.pairs.start; q < vn->data.mapping.pairs.top; q++) {
				yaml_node_t *k2 = node(L, q->key), *v2 = node(L, q->value);
				const char *k = scalar(L, k2, "launch");
				if (!k)
					continue;
				if (strcmp(k, "block") == 0) {
					parse_dims(L, v2, "launch.block", c->block);
				} else if (strcmp(k, "grid") == 0) {
					parse_dims(L, v2, "launch.grid", c->grid);
				} else if (strcmp(k, "dynamic_shared") == 0) {
					parse_uint(L, v2, "launch.dynamic_shared", &c->dynamic_shared);
				} else if (strcmp(k, "optin") == 0) {
					const char *v = scalar(L, v2, "launch.optin");
					if (v && strcmp(v, "true") != 0 && strcmp(v, "false") != 0)
						err_at(L, v2, "launch.optin: expected true or false");
					else if (v)
						c->optin = strcmp(v, "true") == 0;
				} else {
					err_at(L, k2, "launch: unknown key '%s' (block, grid, dynamic_shared, optin)", k);
				}
			}
		} else if (strcmp(key, "fail_on") == 0) {
			const char *v = scalar(L, vn, "fail_on");
			if (v && !parse_severity(v, &c->fail_on))
				err_at(L, vn, "fail_on: expected error, warning or note, got '%s'", v);
			else if (v)
				c->have_fail_on = true;
		} else if (strcmp(key, "rules") == 0) {
			parse_rules(L, vn, c->rules);
		} else if (strcmp(key, "overrides") == 0) {
			if (vn->type != YAML_SEQUENCE_NODE) {
				err_at(L, vn, "overrides: expected a list");
				continue;
			}
			for (yaml_node_item_t *it = vn->data.sequence.items.start; it < vn->data.sequence.items.top; it++)
				parse_override(L, node(L, *it), c);
		} else if (strcmp(key, "ignore") == 0) {
			free_strings(c->ignore, c->nignore);
			c->ignore = parse_strings(L, vn, "ignore", &c->nignore);
		} else if (strcmp(key, "nvcc") == 0) {
			if (vn->type != YAML_MAPPING_NODE) {
				err_at(L, vn, "nvcc: expected a mapping (path, flags)");
				continue;
			}
			for (yaml_node_pair_t *q = vn->data.mapping.pairs.start; q < vn->data.mapping.pairs.top; q++) {
				yaml_node_t *k2 = node(L, q->key), *v2 = node(L, q->value);
				const char *k = scalar(L, k2, "nvcc");
				if (!k)
					continue;
				if (strcmp(k, "path") == 0) {
					const char *v = scalar(L, v2, "nvcc.path");
					if (v) {
						free(c->nvcc);
						c->nvcc = xstrdup(v);
					}
				} else if (strcmp(k, "flags") == 0) {
					free_strings(c->nvcc_flags, c->nnvcc_flags);
					c->nvcc_flags = parse_strings(L, v2, "nvcc.flags", &c->nnvcc_flags);
				} else {
					err_at(L, k2, "nvcc: unknown key '%s' (path, flags)", k);
				}
			}
		} else if (strcmp(key, "compile_commands") == 0) {
			const char *v = scalar(L, vn, "compile_commands");
			if (v) {
				free(c->compile_commands);
				c->compile_commands = xstrdup(v);
			}
		} else {
			err_at(L, kn, "unknown key '%s' (see ptxray-config(5))", key);
		}
	}
}

struct px_config *px_config_default(void)
{
	struct px_config *c = xcalloc(1, sizeof *c);
	c->rules = new_settings();
	c->fail_on = PX_WARNING;
	return c;
}

struct px_config *px_config_parse(const char *path, const char *text, size_t len,
                                  struct px_diags *diags)
{
	struct px_config *c = px_config_default();
	c->path = xstrdup(path);
	const char *slash = strrchr(path, '/');
	c->dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	yaml_document_t doc;
	if (!px_yaml_load(path, text, len, &doc, diags)) {
		px_config_delete(c);
		return NULL;
	}
	struct cl L = {.path = path, .doc = &doc, .diags = diags, .ok = true};
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (root)
		parse_root(&L, root, c);
	yaml_document_delete(&doc);
	if (!L.ok) {
		px_config_delete(c);
		return NULL;
	}
	return c;
}

void px_config_delete(struct px_config *c)
{
	if (!c)
		return;
	free(c->path);
	free(c->dir);
	free_strings(c->archs, c->narchs);
	free(c->rules);
	for (uint32_t i = 0; i < c->noverrides; i++) {
		free(c->overrides[i].glob);
		free(c->overrides[i].rules);
		free_strings(c->overrides[i].archs, c->overrides[i].narchs);
	}
	free(c->overrides);
	free_strings(c->ignore, c->nignore);
	free(c->nvcc);
	free_strings(c->nvcc_flags, c->nnvcc_flags);
	free(c->compile_commands);
	free(c);
}

/* ---- globs ---- */

/* Does glob g match all of path p? '*' and '?' stop at '/', '**' (with the
 * '/' after it) crosses folders. Bottom-up over suffixes, row i saying which
 * path suffixes g+i matches: O(|g| * |p|) time whatever the stars, where
 * backtracking took exponential time on globs like "a*******...*b" (a hang
 * found by fuzz_config). A row needs at most the three after it. */
static bool match_here(const char *g, const char *p)
{
	size_t gl = strlen(g), pl = strlen(p);
	bool *rows = xcalloc(4 * (pl + 1), sizeof *rows);
#define ROW(i) (rows + ((i) % 4) * (pl + 1))
	for (size_t i = gl + 1; i-- > 0;) {
		bool *r = ROW(i);
		if (i == gl) {
			for (size_t j = 0; j <= pl; j++)
				r[j] = j == pl;
		} else if (g[i] == '*' && g[i + 1] == '*') {
			const bool *next = ROW(i + 2 + (g[i + 2] == '/'));
			bool any = false;
			for (size_t j = pl + 1; j-- > 0;)
				r[j] = any = any || next[j];
		} else if (g[i] == '*') {
			const bool *next = ROW(i + 1);
			r[pl] = next[pl];
			for (size_t j = pl; j-- > 0;)
				r[j] = next[j] || (p[j] != '/' && r[j + 1]);
		} else {
			const bool *next = ROW(i + 1);
			r[pl] = false;
			for (size_t j = 0; j < pl; j++)
				r[j] = (g[i] == '?' ? p[j] != '/' : g[i] == p[j]) && next[j + 1];
		}
	}
	bool m = ROW(0)[0];
#undef ROW
	free(rows);
	return m;
}

bool px_glob_match(const char *glob, const char *path)
{
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (!strchr(glob, '/')) {
		/* any component: the file name or a folder on the way */
		for (const char *p = path;;) {
			const char *slash = strchr(p, '/');
			size_t n = slash ? (size_t)(slash - p) : strlen(p);
			char *comp = xstrndup(p, n);
			bool m = match_here(glob, comp);
			free(comp);
			if (m)
				return true;
			if (!slash)
				return false;
			p = slash + 1;
		}
	}
	if (glob[0] == '/')
		glob++;
	if (match_here(glob, path))
		return true;
	/* a folder glob matches everything below it */
	size_t gl = strlen(glob);
	for (const char *p = path; (p = strchr(p, '/')); p++) {
		char *prefix = xstrndup(path, (size_t)(p - path));
		bool m = match_here(glob, prefix);
		free(prefix);
		if (m)
			return true;
	}
	(void)gl;
	return false;
}

/* path relative to dir (both made absolute); a copy of path when outside. */
static char *relative_to(const char *dir, const char *path)
{
	char da[PATH_MAX], pa[PATH_MAX];
	if (!realpath(dir, da) || !realpath(path, pa))
		return xstrdup(path);
	size_t n = strlen(da);
	if (strcmp(da, "/") == 0)
		return xstrdup(pa + 1);
	if (strncmp(pa, da, n) == 0 && pa[n] == '/')
		return xstrdup(pa + n + 1);
	return xstrdup(path);
}

void px_config_effective(const struct px_config *c, const char *path, struct px_effective *e)
{
	size_t nr;
	const struct px_rule *rules = px_rules(&nr);
	memset(e, 0, sizeof *e);
	e->config = c;
	e->archs = (const char *const *)c->archs;
	e->narchs = c->narchs;
	e->rules = xcalloc(nr, sizeof *e->rules);
	for (size_t i = 0; i < nr; i++) {
		e->rules[i].state = rules[i].on ? PX_RULE_ON : PX_RULE_OFF;
		e->rules[i].severity = rules[i].severity;
		e->rules[i].threshold = rules[i].threshold;
	}
	char *rel = c->dir ? relative_to(c->dir, path) : xstrdup(path);
	const struct px_rule_setting *layers[1 + 256];
	size_t nl = 0;
	layers[nl++] = c->rules;
	for (uint32_t o = 0; o < c->noverrides && nl < PX_COUNTOF(layers); o++) {
		if (!px_glob_match(c->overrides[o].glob, rel))
			continue;
		layers[nl++] = c->overrides[o].rules;
		if (c->overrides[o].archs) {
			e->archs = (const char *const *)c->overrides[o].archs;
			e->narchs = c->overrides[o].narchs;
		}
	}
	for (size_t l = 0; l < nl; l++) {
		for (size_t i = 0; i < nr; i++) {
			const struct px_rule_setting *s = &layers[l][i];
			if (s->state != PX_RULE_DEFAULT)
				e->rules[i].state = s->state;
			if (s->have_severity)
				e->rules[i].severity = s->severity;
			if (s->have_threshold)
				e->rules[i].threshold = s->threshold;
		}
	}
	for (uint32_t i = 0; i < c->nignore; i++)
		if (px_glob_match(c->ignore[i], rel))
			e->ignored = true;
	free(rel);
}

void px_effective_free(struct px_effective *e)
{
	free(e->rules);
	e->rules = NULL;
}

void px_effective_show(struct px_buf *out, const struct px_effective *e, const char *file)
{
	const struct px_config *c = e->config;
	size_t nr;
	const struct px_rule *rules = px_rules(&nr);
	px_buf_printf(out, "# effective configuration for %s\n", file);
	px_buf_printf(out, "# from: %s\n", c->path ? c->path : "(defaults: no .ptxray.yaml found)");
	if (e->ignored)
		px_buf_puts(out, "# this path matches an ignore glob: it is not linted\n");
	px_buf_puts(out, "archs: [");
	for (uint32_t i = 0; i < e->narchs; i++)
		px_buf_printf(out, "%s%s", i ? ", " : "", e->archs[i]);
	px_buf_printf(out, "]%s\n", e->narchs ? "" : "  # each file's .target");
	px_buf_puts(out, "launch:\n");
	if (c->block[0])
		px_buf_printf(out, "  block: [%u, %u, %u]\n", c->block[0], c->block[1], c->block[2]);
	else
		px_buf_puts(out, "  block: null  # .reqntid, else .maxntid, else 256\n");
	if (c->grid[0])
		px_buf_printf(out, "  grid: [%u, %u, %u]\n", c->grid[0], c->grid[1], c->grid[2]);
	else
		px_buf_puts(out, "  grid: null\n");
	px_buf_printf(out, "  dynamic_shared: %u\n", c->dynamic_shared);
	px_buf_printf(out, "  optin: %s\n", c->optin ? "true" : "false");
	px_buf_printf(out, "fail_on: %s\n", px_severity_name(c->fail_on));
	px_buf_puts(out, "rules:\n");
	for (size_t i = 0; i < nr; i++) {
		const struct px_rule_setting *s = &e->rules[i];
		px_buf_printf(out, "  %s: {enabled: %s, severity: %s", rules[i].id,
		              s->state == PX_RULE_ON ? "true" : "false", px_severity_name(s->severity));
		if (rules[i].threshold_key)
			px_buf_printf(out, ", threshold: %g", s->threshold);
		px_buf_puts(out, "}\n");
	}
	px_buf_puts(out, "ignore: [");
	for (uint32_t i = 0; i < c->nignore; i++)
		px_buf_printf(out, "%s\"%s\"", i ? ", " : "", c->ignore[i]);
	px_buf_puts(out, "]\n");
	px_buf_printf(out, "nvcc:\n  path: %s\n  flags: [", c->nvcc ? c->nvcc : "null");
	for (uint32_t i = 0; i < c->nnvcc_flags; i++)
		px_buf_printf(out, "%s\"%s\"", i ? ", " : "", c->nvcc_flags[i]);
	px_buf_printf(out, "]\ncompile_commands: %s\n", c->compile_commands ? c->compile_commands : "null");
}

/* ---- the nearest configuration ---- */

struct px_config_set {
	struct { char *dir; struct px_config *cfg; bool failed; } *items;
	size_t n, cap;
	struct px_config *defaults;
};

struct px_config_set *px_config_set_new(void)
{
	struct px_config_set *s = xcalloc(1, sizeof *s);
	s->defaults = px_config_default();
	return s;
}

void px_config_set_delete(struct px_config_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->items[i].dir);
		px_config_delete(s->items[i].cfg);
	}
	free(s->items);
	px_config_delete(s->defaults);
	free(s);
}

/* Loads (once) the configuration file at cpath; key is the path. */
static const struct px_config *load(struct px_config_set *s, const char *cpath, struct px_diags *diags)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->items[i].dir, cpath) == 0)
			return s->items[i].failed ? NULL : s->items[i].cfg;
	size_t len;
	char *err = NULL;
	char *text = px_read_file(cpath, &len, &err);
	struct px_config *c = NULL;
	if (!text) {
		px_diag_add(diags, PX_ERROR, cpath, 0, 0, NULL, "cannot read: %s", err);
		free(err);
	} else {
		c = px_config_parse(cpath, text, len, diags);
		free(text);
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 8;
		s->items = xrealloc(s->items, s->cap * sizeof *s->items);
	}
	s->items[s->n].dir = xstrdup(cpath);
	s->items[s->n].cfg = c;
	s->items[s->n].failed = c == NULL;
	s->n++;
	return c;
}

const struct px_config *px_config_for(struct px_config_set *s, const char *path,
                                      const char *explicit_path, struct px_diags *diags)
{
	if (explicit_path)
		return load(s, explicit_path, diags);
	/* the file's folder, then each parent, as written (relative stays relative) */
	char abs[PATH_MAX];
	if (!realpath(path, abs))
		snprintf(abs, sizeof abs, "%s", path);
	char *dir = xstrdup(abs);
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = 0;
		else
			strcpy(dir, ".");
	}
	const struct px_config *found = s->defaults;
	for (;;) {
		char *cand = xasprintf("%s/.ptxray.yaml", dir[0] ? dir : "");
		bool exists = stat(cand, &st) == 0 && S_ISREG(st.st_mode);
		if (exists) {
			found = load(s, cand, diags);
			free(cand);
			break;
		}
		free(cand);
		char *slash = strrchr(dir, '/');
		if (!slash || dir[0] == 0)
			break;
		*slash = 0;
	}
	free(dir);
	return found;
}
