/* ftable.c: loads and validates the PTX feature table
 * (arch/ptx-features.yaml) and matches parsed PTX against it.
 *
 * Approach: as arch.c, libyaml's document loader gives a node tree with
 * positions; three sections (versions, targets, features), each a list of
 * mappings checked against a small sorted table of allowed keys. Every
 * problem becomes a `path:line:col: error:` at the offending node: unknown or
 * missing keys, malformed versions and target names, references to targets
 * the table does not list, duplicate ids, unsorted versions. Targets are
 * sorted (number, then generic < family < arch-specific), features by
 * (kind, opcode, id) so that an instruction's candidates are one binary
 * search away. Matching is token-set based: an entry `cp.async.bulk` matches
 * every `cp` whose modifiers include `async` and `bulk`, in any order; of the
 * entries an instruction matches, the ones another match refines (a strict
 * superset of tokens) are dropped, so `mma.m8n8k4` overrides `mma` while the
 * independent `ld.v8` and `ld.L2::256B` both apply. Nothing here prints or
 * exits. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "ftable.h"
#include "yaml_load.h"
#include "ir.h"   /* px_buf */

const char *px_ptx_version_str(uint32_t v, char buf[8])
{
	snprintf(buf, 8, "%u.%u", (v / 10) % 100, v % 10);
	return buf;
}

/* ---- loading ---- */

struct loader {
	const char *path;
	struct px_diags *diags;
	yaml_document_t *doc;
	struct px_ftable *t;
	bool ok;
};

static void err_at(struct loader *L, const yaml_node_t *n, const char *fmt, ...) PX_PRINTF(3, 4);
static void err_at(struct loader *L, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	px_diag_vadd(L->diags, PX_ERROR, L->path, n ? (uint32_t)n->start_mark.line + 1 : 1,
	             n ? (uint32_t)n->start_mark.column + 1 : 1, NULL, fmt, ap);
	va_end(ap);
	L->ok = false;
}

static const char *scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

static char *dup(struct loader *L, const char *s)
{
	return px_arena_strndup(L->t->arena, s, strlen(s));
}

/* version := DIGITS "." DIGIT  (1.0 .. 99.9) */
static bool parse_version(const char *s, size_t n, uint32_t *out)
{
	uint32_t maj = 0;
	size_t i = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9' && i < 2)
		maj = maj * 10 + (uint32_t)(s[i++] - '0');
	if (i == 0 || i + 2 != n || s[i] != '.' || s[i + 1] < '0' || s[i + 1] > '9' || maj == 0)
		return false;
	*out = maj * 10 + (uint32_t)(s[i + 1] - '0');
	return true;
}

static bool get_version(struct loader *L, const yaml_node_t *n, const char *key, uint32_t *out)
{
	if (n->type != YAML_SCALAR_NODE || !parse_version(scalar(n), strlen(scalar(n)), out)) {
		err_at(L, n, "'%s' must be a PTX ISA version like \"7.8\"", key);
		return false;
	}
	return true;
}

/* target := "sm_" DIGITS ("a" | "f")? */
static bool parse_target_name(const char *s, size_t n, uint32_t *number, char *suffix)
{
	if (n < 5 || n > 8 || strncmp(s, "sm_", 3) != 0)
		return false;
	uint32_t v = 0;
	size_t i = 3;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		v = v * 10 + (uint32_t)(s[i++] - '0');
	if (i - 3 < 2 || i - 3 > 3)
		return false;
	*suffix = 0;
	if (i < n) {
		if (i + 1 != n || (s[i] != 'a' && s[i] != 'f'))
			return false;
		*suffix = s[i];
	}
	*number = v;
	return true;
}

/* The keys an item of a section may have; sorted. */
struct field {
	const char *key;
	bool required;
};
static const struct field version_fields[] = {
	{"cuda", true}, {"newest", true}, {"ptx", true}, {"section", true},
};
static const struct field target_fields[] = {
	{"family", false}, {"name", true}, {"ptx", true}, {"ptxas", true}, {"section", true},
};
static const struct field feature_fields[] = {
	{"decl", false}, {"hint", false}, {"id", false}, {"kdir", false}, {"match", true},
	{"probe", false}, {"ptx", true}, {"removed", false}, {"section", true}, {"sm", true},
	{"topt", false},
};

/* Checks an item's keys; fills vals[i] with the value node of fields[i] or NULL. */
static bool item_fields(struct loader *L, const yaml_node_t *item, const struct field *fields,
                        size_t nf, const char *what, const yaml_node_t **vals)
{
	for (size_t i = 0; i < nf; i++)
		vals[i] = NULL;
	if (item->type != YAML_MAPPING_NODE) {
		err_at(L, item, "each %s must be a mapping", what);
		return false;
	}
	bool ok = true;
	for (yaml_node_pair_t *p = item->data.mapping.pairs.start; p < item->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = yaml_document_get_node(L->doc, p->key);
		yaml_node_t *vn = yaml_document_get_node(L->doc, p->value);
		if (!kn || !vn)
			continue;
		size_t i = 0;
		while (kn->type == YAML_SCALAR_NODE && i < nf && strcmp(fields[i].key, scalar(kn)) != 0)
			i++;
		if (kn->type != YAML_SCALAR_NODE || i == nf) {
			err_at(L, kn, "unknown key in a %s%s%.40s%s", what,
			       kn->type == YAML_SCALAR_NODE ? " '" : "",
			       kn->type == YAML_SCALAR_NODE ? scalar(kn) : "",
			       kn->type == YAML_SCALAR_NODE ? "'" : "");
			ok = false;
			continue;
		}
		if (vals[i]) {
			err_at(L, kn, "'%s' is given twice", fields[i].key);
			ok = false;
			continue;
		}
		if (vn->type != YAML_SCALAR_NODE && strcmp(fields[i].key, "sm") != 0) {
			err_at(L, vn, "'%s' must be a scalar", fields[i].key);
			ok = false;
			continue;
		}
		vals[i] = vn;
	}
	for (size_t i = 0; i < nf; i++) {
		if (fields[i].required && !vals[i]) {
			err_at(L, item, "a %s needs '%s'", what, fields[i].key);
			ok = false;
		}
	}
	return ok;
}

static const yaml_node_t *section_list(struct loader *L, const yaml_node_t *root, const char *name)
{
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = yaml_document_get_node(L->doc, p->key);
		yaml_node_t *vn = yaml_document_get_node(L->doc, p->value);
		if (kn && vn && kn->type == YAML_SCALAR_NODE && strcmp(scalar(kn), name) == 0) {
			if (vn->type != YAML_SEQUENCE_NODE) {
				err_at(L, vn, "'%s' must be a list", name);
				return NULL;
			}
			return vn;
		}
	}
	err_at(L, root, "missing key '%s'", name);
	return NULL;
}

static int cmp_target(const void *x, const void *y)
{
	const struct px_ft_target *a = x, *b = y;
	static const char rank[3] = {0, 'f', 'a'};
	if (a->number != b->number)
		return a->number < b->number ? -1 : 1;
	int ra = a->suffix == rank[1] ? 1 : a->suffix == rank[2] ? 2 : 0;
	int rb = b->suffix == rank[1] ? 1 : b->suffix == rank[2] ? 2 : 0;
	return ra - rb;
}

static void load_targets(struct loader *L, const yaml_node_t *list)
{
	struct px_ftable *t = L->t;
	size_t n = (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
	t->targets = px_arena_alloc(t->arena, (n ? n : 1) * sizeof *t->targets);
	/* families are resolved after every name is known */
	const yaml_node_t **fam = xcalloc(n ? n : 1, sizeof *fam);
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
		yaml_node_t *item = yaml_document_get_node(L->doc, *it);
		const yaml_node_t *v[PX_COUNTOF(target_fields)];
		if (!item || !item_fields(L, item, target_fields, PX_COUNTOF(target_fields), "target", v))
			continue;
		struct px_ft_target *g = &t->targets[t->ntargets];
		if (!parse_target_name(scalar(v[1]), strlen(scalar(v[1])), &g->number, &g->suffix)) {
			err_at(L, v[1], "'name' must look like sm_90, sm_90a or sm_100f, not '%.40s'", scalar(v[1]));
			continue;
		}
		for (uint32_t i = 0; i < t->ntargets; i++)
			if (strcmp(t->targets[i].name, scalar(v[1])) == 0)
				err_at(L, v[1], "target '%s' is listed twice", scalar(v[1]));
		g->name = dup(L, scalar(v[1]));
		if (!get_version(L, v[2], "ptx", &g->ptx))
			continue;
		const char *b = scalar(v[3]);
		if (strcmp(b, "true") && strcmp(b, "false")) {
			err_at(L, v[3], "'ptxas' must be true or false");
			continue;
		}
		g->ptxas = strcmp(b, "true") == 0;
		g->section = dup(L, scalar(v[4]));
		fam[t->ntargets] = v[0];
		t->ntargets++;
	}
	for (uint32_t i = 0; i < t->ntargets; i++) {
		struct px_ft_target *g = &t->targets[i];
		if (!fam[i]) {
			if (g->suffix == 'f')
				err_at(L, NULL, "family target '%s' needs 'family'", g->name);
			continue;
		}
		uint32_t num;
		char suf;
		const char *s = scalar(fam[i]);
		if (!parse_target_name(s, strlen(s), &num, &suf) || suf || num > g->number) {
			err_at(L, fam[i], "'family' must name the family's first generic target (sm_100), "
			       "not above the target itself, not '%.40s'", s);
			continue;
		}
		g->family = num;
	}
	free(fam);
	qsort(t->targets, t->ntargets, sizeof *t->targets, cmp_target);
}

int32_t px_ftable_find_target(const struct px_ftable *t, const char *name, size_t n)
{
	if (n > 8 && strncmp(name, "compute_", 8) == 0) {
		char buf[16];
		if (n - 8 > 5)
			return -1;
		snprintf(buf, sizeof buf, "sm_%.*s", (int)(n - 8), name + 8);
		return px_ftable_find_target(t, buf, strlen(buf));
	}
	for (uint32_t i = 0; i < t->ntargets; i++)
		if (strlen(t->targets[i].name) == n && memcmp(t->targets[i].name, name, n) == 0)
			return (int32_t)i;
	return -1;
}

int32_t px_ftable_find_version(const struct px_ftable *t, uint32_t ptx)
{
	for (uint32_t i = 0; i < t->nversions; i++)
		if (t->versions[i].ptx == ptx)
			return (int32_t)i;
	return -1;
}

uint32_t px_ftable_newest_version(const struct px_ftable *t)
{
	return t->nversions ? t->versions[t->nversions - 1].ptx : 0;
}

static void load_versions(struct loader *L, const yaml_node_t *list)
{
	struct px_ftable *t = L->t;
	size_t n = (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
	t->versions = px_arena_alloc(t->arena, (n ? n : 1) * sizeof *t->versions);
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
		yaml_node_t *item = yaml_document_get_node(L->doc, *it);
		const yaml_node_t *v[PX_COUNTOF(version_fields)];
		if (!item || !item_fields(L, item, version_fields, PX_COUNTOF(version_fields), "version", v))
			continue;
		struct px_ft_version *e = &t->versions[t->nversions];
		if (!get_version(L, v[2], "ptx", &e->ptx))
			continue;
		if (t->nversions && t->versions[t->nversions - 1].ptx >= e->ptx) {
			err_at(L, v[2], "versions must be listed in ascending order");
			continue;
		}
		uint32_t num;
		char suf;
		if (!parse_target_name(scalar(v[1]), strlen(scalar(v[1])), &num, &suf)) {
			err_at(L, v[1], "'newest' must be a target name like sm_90a, not '%.40s'", scalar(v[1]));
			continue;
		}
		int32_t nt = px_ftable_find_target(t, scalar(v[1]), strlen(scalar(v[1])));
		if (nt < 0 && t->ntargets && num >= t->targets[0].number) {
			err_at(L, v[1], "'newest' names a target the table does not list: '%.40s'", scalar(v[1]));
			continue;
		}
		if (nt >= 0 && t->targets[nt].ptx > e->ptx) {
			err_at(L, v[1], "'newest' target %s needs PTX ISA %u.%u, newer than this version",
			       t->targets[nt].name, t->targets[nt].ptx / 10, t->targets[nt].ptx % 10);
			continue;
		}
		e->newest = dup(L, scalar(v[1]));
		e->cuda = dup(L, scalar(v[0]));
		e->section = dup(L, scalar(v[3]));
		t->nversions++;
	}
	for (uint32_t i = 0; i < t->ntargets; i++)
		if (L->ok && px_ftable_find_version(t, t->targets[i].ptx) < 0)
			err_at(L, list, "target %s needs PTX ISA %u.%u, which 'versions' does not list",
			       t->targets[i].name, t->targets[i].ptx / 10, t->targets[i].ptx % 10);
}

/* alt := TARGET ("@" VERSION)? */
static bool parse_alt(struct loader *L, const yaml_node_t *n, uint32_t ptx, struct px_ft_alt *out)
{
	if (n->type != YAML_SCALAR_NODE) {
		err_at(L, n, "'sm' must be a target or a list of targets");
		return false;
	}
	const char *s = scalar(n);
	const char *at = strchr(s, '@');
	size_t len = at ? (size_t)(at - s) : strlen(s);
	int32_t ti = px_ftable_find_target(L->t, s, len);
	if (ti < 0) {
		err_at(L, n, "'sm' names a target the table does not list: '%.*s'", (int)(len > 40 ? 40 : len), s);
		return false;
	}
	out->target = (uint32_t)ti;
	const struct px_ft_target *g = &L->t->targets[ti];
	out->kind = g->suffix == 'a' ? PX_FT_EXACT : g->suffix == 'f' ? PX_FT_FAMILY : PX_FT_FROM;
	out->ptx = ptx;
	if (at && !parse_version(at + 1, strlen(at + 1), &out->ptx)) {
		err_at(L, n, "the version after '@' must look like 8.8, not '%.20s'", at + 1);
		return false;
	}
	return true;
}

/* match := OPCODE ("." TOKEN)* | "%" NAME | "." NAME | "target:" NAME
 * OPCODE is the text before the first dot, as the parser splits it. */
static bool parse_match(struct loader *L, const yaml_node_t *n, struct px_feature *f)
{
	struct px_arena *a = L->t->arena;
	const char *s = scalar(n);
	size_t len = strlen(s);
	if (!len || strchr(s, ' ')) {
		err_at(L, n, "'match' must be one word like cp.async.bulk, %%clusterid, .maxnreg or target:debug");
		return false;
	}
	f->match = dup(L, s);
	if (s[0] == '%' || s[0] == '.') {
		f->kind = s[0] == '%' ? PX_FT_SREG : PX_FT_DIRECTIVE;
		f->opcode = f->match;
		return len > 1;
	}
	if (strncmp(s, "target:", 7) == 0) {
		f->kind = PX_FT_TARGETOPT;
		f->opcode = f->match + 7;
		return len > 7;
	}
	f->kind = PX_FT_INSN;
	size_t oplen = strcspn(s, ".");
	if (px_opcode_lookup(px_str_make(s, oplen)) == PX_OP_UNKNOWN) {
		err_at(L, n, "'match' starts with an opcode the PTX parser does not know: '%.*s'",
		       (int)(oplen > 40 ? 40 : oplen), s);
		return false;
	}
	f->opcode = px_arena_strndup(a, s, oplen);
	uint32_t cap = 0;
	for (size_t i = oplen; i < len;) {
		size_t j = i + 1 + strcspn(s + i + 1, ".");
		if (j - i <= 1) {
			err_at(L, n, "'match' has an empty modifier");
			return false;
		}
		*PX_ARENA_PUSH(a, f->tokens, f->ntokens, cap) = px_arena_strndup(a, s + i + 1, j - i - 1);
		i = j;
	}
	return true;
}

static int cmp_feature(const void *x, const void *y)
{
	const struct px_feature *a = x, *b = y;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	int c = strcmp(a->opcode, b->opcode);
	return c ? c : strcmp(a->id, b->id);
}

static void load_features(struct loader *L, const yaml_node_t *list)
{
	struct px_ftable *t = L->t;
	size_t n = (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
	t->features = px_arena_alloc(t->arena, (n ? n : 1) * sizeof *t->features);
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
		yaml_node_t *item = yaml_document_get_node(L->doc, *it);
		const yaml_node_t *v[PX_COUNTOF(feature_fields)];
		if (!item || !item_fields(L, item, feature_fields, PX_COUNTOF(feature_fields), "feature", v))
			continue;
		struct px_feature *f = &t->features[t->nfeatures];
		memset(f, 0, sizeof *f);
		f->line = (uint32_t)item->start_mark.line + 1;
		if (!parse_match(L, v[4], f)) {
			if (L->ok)
				err_at(L, v[4], "'match' is malformed");
			continue;
		}
		f->id = v[2] ? dup(L, scalar(v[2])) : f->match;
		uint32_t ptx;
		if (!get_version(L, v[6], "ptx", &ptx))
			continue;
		const yaml_node_t *sm = v[9];
		uint32_t cap = 0;
		bool good = true;
		if (sm->type == YAML_SEQUENCE_NODE) {
			for (yaml_node_item_t *e = sm->data.sequence.items.start; e < sm->data.sequence.items.top; e++) {
				yaml_node_t *en = yaml_document_get_node(L->doc, *e);
				struct px_ft_alt alt;
				if (en && parse_alt(L, en, ptx, &alt))
					*PX_ARENA_PUSH(t->arena, f->alts, f->nalts, cap) = alt;
				else
					good = false;
			}
		} else {
			struct px_ft_alt alt;
			if (parse_alt(L, sm, ptx, &alt))
				*PX_ARENA_PUSH(t->arena, f->alts, f->nalts, cap) = alt;
			else
				good = false;
		}
		if (!good)
			continue;
		if (!f->nalts) {
			err_at(L, sm, "'sm' must name at least one target");
			continue;
		}
		f->ptx = f->alts[0].ptx;
		for (uint32_t i = 1; i < f->nalts; i++)
			if (f->alts[i].ptx < f->ptx)
				f->ptx = f->alts[i].ptx;
		if (f->ptx != ptx) {
			err_at(L, v[6], "'ptx' (%s) must be the least version of the 'sm' alternatives",
			       scalar(v[6]));
			continue;
		}
		if (v[7]) {
			struct px_ft_alt r;
			if (!parse_alt(L, v[7], ptx, &r))
				continue;
			if (r.kind != PX_FT_FROM || !strchr(scalar(v[7]), '@')) {
				err_at(L, v[7], "'removed' must look like sm_70@6.4 (a generic target and a version)");
				continue;
			}
			f->removed_target = r.target + 1;
			f->removed_ptx = r.ptx;
		}
		f->section = dup(L, scalar(v[8]));
		f->hint = v[1] ? dup(L, scalar(v[1])) : NULL;
		f->probe = v[5] ? dup(L, scalar(v[5])) : NULL;
		f->decl = v[0] ? dup(L, scalar(v[0])) : NULL;
		f->kdir = v[3] ? dup(L, scalar(v[3])) : NULL;
		f->topt = v[10] ? dup(L, scalar(v[10])) : NULL;
		for (uint32_t i = 0; i < t->nfeatures; i++) {
			if (strcmp(t->features[i].id, f->id) == 0) {
				err_at(L, v[2] ? v[2] : v[4], "feature id '%.60s' is used twice (first on line %u)",
				       f->id, t->features[i].line);
				break;
			}
		}
		t->nfeatures++;
	}
	qsort(t->features, t->nfeatures, sizeof *t->features, cmp_feature);
}

void px_ftable_delete(struct px_ftable *t)
{
	if (!t)
		return;
	px_arena_delete(t->arena);
	free(t);
}

struct px_ftable *px_ftable_parse(const char *path, const char *text, size_t len,
                                  struct px_diags *diags)
{
	if (len > (8u << 20)) {
		px_diag_add(diags, PX_ERROR, path, 1, 1, NULL, "the feature table is larger than 8 MiB");
		return NULL;
	}
	yaml_document_t doc;
	if (!px_yaml_load(path, text, len, &doc, diags))
		return NULL;
	struct px_ftable *t = xcalloc(1, sizeof *t);
	t->arena = px_arena_new();
	t->path = px_arena_strndup(t->arena, path, strlen(path));
	struct loader L = {.path = path, .diags = diags, .doc = &doc, .t = t, .ok = true};
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (!root) {
		px_diag_add(diags, PX_ERROR, path, 1, 1, NULL, "the feature table is empty");
		L.ok = false;
	} else if (root->type != YAML_MAPPING_NODE) {
		err_at(&L, root, "the feature table must be a mapping of versions, targets, features");
	} else {
		for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
			yaml_node_t *kn = yaml_document_get_node(&doc, p->key);
			if (kn && (kn->type != YAML_SCALAR_NODE ||
			           (strcmp(scalar(kn), "versions") && strcmp(scalar(kn), "targets") &&
			            strcmp(scalar(kn), "features"))))
				err_at(&L, kn, "unknown key (expected versions, targets, features)");
		}
		const yaml_node_t *tl = section_list(&L, root, "targets");
		const yaml_node_t *vl = section_list(&L, root, "versions");
		const yaml_node_t *fl = section_list(&L, root, "features");
		if (tl)
			load_targets(&L, tl);
		if (vl && L.ok)
			load_versions(&L, vl);
		if (fl && L.ok)
			load_features(&L, fl);
		if (L.ok && (!t->ntargets || !t->nversions))
			err_at(&L, root, "the table needs at least one target and one version");
	}
	yaml_document_delete(&doc);
	if (!L.ok) {
		px_ftable_delete(t);
		return NULL;
	}
	return t;
}

struct px_ftable *px_ftable_builtin(struct px_diags *diags)
{
	if (!px_features_builtin_count)
		return NULL;
	const struct px_arch_text *x = &px_features_builtin[0];
	return px_ftable_parse(x->path, x->text, x->len, diags);
}

/* ---- target semantics ---- */

static bool alt_admits(const struct px_ftable *tab, const struct px_ft_alt *a, uint32_t ti)
{
	const struct px_ft_target *g = &tab->targets[a->target], *t = &tab->targets[ti];
	switch (a->kind) {
	case PX_FT_FROM:
		return t->number >= g->number;
	case PX_FT_EXACT:
		return a->target == ti;
	default:
		return t->suffix && t->family && t->family == g->family && t->number >= g->number;
	}
}

uint32_t px_feature_ptx_on(const struct px_ftable *tab, const struct px_feature *f, uint32_t t)
{
	uint32_t best = 0;
	for (uint32_t i = 0; i < f->nalts; i++) {
		if (!alt_admits(tab, &f->alts[i], t))
			continue;
		uint32_t v = f->alts[i].ptx > tab->targets[t].ptx ? f->alts[i].ptx : tab->targets[t].ptx;
		if (!best || v < best)
			best = v;
	}
	if (best && f->removed_target &&
	    tab->targets[t].number >= tab->targets[f->removed_target - 1].number && best >= f->removed_ptx)
		return 0;
	return best;
}

bool px_feature_ok(const struct px_ftable *tab, const struct px_feature *f, uint32_t t, uint32_t v)
{
	uint32_t need = px_feature_ptx_on(tab, f, t);
	if (!need || v < need)
		return false;
	if (f->removed_target && tab->targets[t].number >= tab->targets[f->removed_target - 1].number &&
	    v >= f->removed_ptx)
		return false;
	return true;
}

void px_feature_requires(const struct px_ftable *tab, const struct px_feature *f, char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < f->nalts && used < n; i++) {
		int w = snprintf(buf + used, n - used, "%s%s%s", i ? (i + 1 == f->nalts ? " or " : ", ") : "",
		                 tab->targets[f->alts[i].target].name,
		                 f->alts[i].kind == PX_FT_FROM && i + 1 < f->nalts ? "+" : "");
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* ---- matching ---- */

/* Whether modifier token `want` is in the instruction's modifiers. */
static bool is_type_word(const char *p, uint32_t n)
{
	for (int t = 1; t < PX_TYPE_COUNT; t++) {
		const char *name = px_type_name((enum px_type)t) + 1;   /* skip the dot */
		if (strlen(name) == n && memcmp(name, p, n) == 0)
			return true;
	}
	return false;
}

/* The n-th (1-based) type modifier of modtext ("cvt.rn.f32.bf16": 1 = f32,
 * 2 = bf16) as a one-token modtext in *out; false when there is none. */
static bool type_at(px_str modtext, int n, px_str *out)
{
	for (uint32_t i = 0; i < modtext.n;) {
		uint32_t j = i + 1;
		while (j < modtext.n && modtext.p[j] != '.')
			j++;
		if (is_type_word(modtext.p + i + 1, j - i - 1) && --n == 0) {
			*out = px_str_make(modtext.p + i, j - i);
			return true;
		}
		i = j;
	}
	return false;
}

/* token := "!" token | DIGIT ":" alts | alts;  alts := word ("|" word)*;
 * word := NAME | NAME "*" (prefix). DIGIT ":" tests the DIGIT-th type
 * modifier only (cvt.1:f32.2:bf16 is a conversion from .bf16 to .f32). */
static bool has_token(px_str modtext, const char *want)
{
	if (want[0] == '!')
		return !has_token(modtext, want + 1);
	if (want[0] >= '1' && want[0] <= '9' && want[1] == ':') {
		px_str one;
		return type_at(modtext, want[0] - '0', &one) && has_token(one, want + 2);
	}
	const char *w = want;
	while (*w) {
		size_t wl = strcspn(w, "|");
		bool prefix = wl && w[wl - 1] == '*';
		size_t cl = prefix ? wl - 1 : wl;
		for (uint32_t i = 0; i < modtext.n;) {
			if (modtext.p[i] != '.') {
				i++;
				continue;
			}
			uint32_t j = i + 1;
			while (j < modtext.n && modtext.p[j] != '.')
				j++;
			uint32_t tl = j - i - 1;
			if ((prefix ? tl >= cl : tl == cl) && memcmp(modtext.p + i + 1, w, cl) == 0)
				return true;
			i = j;
		}
		w += wl + (w[wl] == '|');
	}
	return false;
}

static bool tokens_include(const struct px_feature *big, const struct px_feature *small)
{
	if (big->ntokens <= small->ntokens)
		return false;
	for (uint32_t i = 0; i < small->ntokens; i++) {
		bool found = false;
		for (uint32_t j = 0; j < big->ntokens && !found; j++)
			found = strcmp(big->tokens[j], small->tokens[i]) == 0;
		if (!found)
			return false;
	}
	return true;
}

/* First feature of kind with opcode >= name (binary search). */
static uint32_t lower_bound(const struct px_ftable *t, enum px_ft_kind kind, const char *name, size_t n)
{
	uint32_t lo = 0, hi = t->nfeatures;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		const struct px_feature *f = &t->features[mid];
		int c = f->kind != kind ? (f->kind < kind ? -1 : 1) : 0;
		if (!c) {
			size_t fl = strlen(f->opcode);
			c = memcmp(f->opcode, name, fl < n ? fl : n);
			if (!c)
				c = fl < n ? -1 : fl > n ? 1 : 0;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool opcode_is(const struct px_feature *f, enum px_ft_kind kind, const char *name, size_t n)
{
	return f->kind == kind && strlen(f->opcode) == n && memcmp(f->opcode, name, n) == 0;
}

uint32_t px_ftable_match_insn(const struct px_ftable *t, px_str opname, px_str modtext,
                              uint32_t *out, uint32_t max)
{
	uint32_t cand[64], nc = 0;
	for (uint32_t i = lower_bound(t, PX_FT_INSN, opname.p, opname.n);
	     i < t->nfeatures && opcode_is(&t->features[i], PX_FT_INSN, opname.p, opname.n); i++) {
		const struct px_feature *f = &t->features[i];
		bool all = true;
		for (uint32_t k = 0; k < f->ntokens && all; k++)
			all = has_token(modtext, f->tokens[k]);
		if (all && nc < PX_COUNTOF(cand))
			cand[nc++] = i;
	}
	uint32_t kept = 0;
	for (uint32_t i = 0; i < nc; i++) {
		bool refined = false;
		for (uint32_t j = 0; j < nc && !refined; j++)
			refined = j != i && tokens_include(&t->features[cand[j]], &t->features[cand[i]]);
		if (refined)
			continue;
		if (kept < max)
			out[kept] = cand[i];
		kept++;
	}
	return kept;
}

int32_t px_ftable_find_named(const struct px_ftable *t, enum px_ft_kind kind, const char *name, size_t n)
{
	uint32_t i = lower_bound(t, kind, name, n);
	return i < t->nfeatures && opcode_is(&t->features[i], kind, name, n) ? (int32_t)i : -1;
}
