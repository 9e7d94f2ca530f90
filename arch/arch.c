/* arch.c: loads and validates the per-compute-capability YAML tables and
 * keeps the set of them that a run uses.
 *
 * Approach: libyaml's document loader builds a node tree with positions;
 * one walk checks it against the schema table `keys` below (sorted by dotted
 * key; a key is a leaf with a kind, and a section is every prefix of a key).
 * Unknown keys, duplicate keys, missing keys, wrong types and impossible
 * values (each leaf's range, then the relations between leaves, such as
 * warps x warp size = threads) become `path:line:col: error:` diagnostics at
 * the offending node. The embedded tables (build/gen/arch_tables.c) go
 * through the same function. Nothing here prints or exits. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "arch.h"
#include "yaml_load.h"
#include "ir.h"   /* px_buf */

enum kind {
	K_NAME,       /* "sm_90" */
	K_CC,         /* "9.0" */
	K_U32,        /* plain unsigned integer in [min, max] */
	K_KIB,        /* unsigned integer in KiB, stored as bytes */
	K_KIB_LIST,   /* [a, b, ...] in KiB, stored as bytes (carveouts) */
	K_U32_NULL,   /* unsigned integer, or null (stored as 0) */
	K_KIB_NULL,   /* size in KiB (stored as bytes), or null (stored as 0) */
	K_WARP,       /* the word "warp" */
	K_METRICS,    /* mapping NAME: number */
};

struct key {
	const char *key;
	enum kind kind;
	size_t off;          /* into struct px_arch */
	uint32_t min, max;
	const char *unit;
	const char *desc;
};

#define OFF(f) offsetof(struct px_arch, f)
/* Sorted by key (checked by a unit test). */
static const struct key keys[] = {
	{"blocks.max_per_sm", K_U32, OFF(max_blocks_per_sm), 1, 1024, "blocks",
	 "maximum number of resident blocks per SM"},
	{"compute_capability", K_CC, 0, 0, 0, "",
	 "the compute capability, \"MAJOR.MINOR\" (quoted)"},
	{"latency", K_METRICS, OFF(latency), 0, 0, "cycles",
	 "instruction latencies for the SIMT simulator: NAME: cycles"},
	{"name", K_NAME, 0, 0, 0, "", "the target name, sm_MAJORMINOR"},
	{"registers.allocation_granularity", K_WARP, 0, 0, 0, "",
	 "what the allocation unit applies to: warp"},
	{"registers.allocation_unit", K_U32, OFF(register_allocation_unit), 1, 65536, "registers",
	 "registers per warp are rounded up to a multiple of this"},
	{"registers.max_per_block", K_U32, OFF(registers_per_block), 1, 1u << 24, "registers",
	 "maximum number of 32-bit registers per block"},
	{"registers.max_per_thread", K_U32, OFF(max_registers_per_thread), 1, 255, "registers",
	 "maximum number of 32-bit registers per thread"},
	{"registers.per_sm", K_U32, OFF(registers_per_sm), 1, 1u << 24, "registers",
	 "number of 32-bit registers per SM"},
	{"scheduling.barriers_per_sm", K_U32_NULL, OFF(barriers_per_sm), 1, 1u << 16, "barriers",
	 "named-barrier slots per SM (a block using N barriers takes N); null: not a limit"},
	{"scheduling.max_cluster_size", K_U32, OFF(max_cluster_size), 1, 64, "blocks",
	 "maximum portable thread block cluster size (1: no clusters)"},
	{"scheduling.named_barriers_per_block", K_U32, OFF(named_barriers_per_block), 1, 64, "barriers",
	 "named barriers a block may use"},
	{"scheduling.subpartitions", K_U32, OFF(subpartitions), 1, 16, "",
	 "SM sub-partitions (warp schedulers); the register file is split evenly"},
	{"shared_banks.bank_width_bytes", K_U32, OFF(bank_width), 1, 64, "bytes",
	 "width of one shared memory bank"},
	{"shared_banks.banks", K_U32, OFF(banks), 1, 256, "banks",
	 "number of shared memory banks"},
	{"shared_memory.allocation_unit_bytes", K_U32, OFF(shared_allocation_unit), 1, 1u << 20, "bytes",
	 "shared memory per block is rounded up to a multiple of this"},
	{"shared_memory.carveouts_kib", K_KIB_LIST, OFF(carveouts), 0, 1u << 20, "KiB",
	 "shared memory capacities the driver may configure, ascending ([]: fixed)"},
	{"shared_memory.per_block_kib", K_KIB, OFF(shared_per_block), 1, 1u << 20, "KiB",
	 "shared memory per block without opt-in"},
	{"shared_memory.per_block_optin_kib", K_KIB, OFF(shared_per_block_optin), 1, 1u << 20, "KiB",
	 "maximum shared memory per block with opt-in"},
	{"shared_memory.per_sm_kib", K_KIB, OFF(shared_per_sm), 1, 1u << 20, "KiB",
	 "maximum shared memory per SM"},
	{"shared_memory.reserved_per_block_bytes", K_U32, OFF(shared_reserved_per_block), 0, 1u << 20, "bytes",
	 "shared memory the driver reserves for each block"},
	{"shared_memory.unified_kib", K_KIB_NULL, OFF(unified_l1_shared), 1, 1u << 20, "KiB",
	 "combined L1 data cache and shared memory per SM (the L1 is what the configured shared capacity leaves); null: separate"},
	{"threads.max_per_block", K_U32, OFF(max_threads_per_block), 1, 1u << 16, "threads",
	 "maximum number of threads per block"},
	{"threads.max_per_sm", K_U32, OFF(max_threads_per_sm), 1, 1u << 20, "threads",
	 "maximum number of resident threads per SM"},
	{"throughput", K_METRICS, OFF(throughput), 0, 0, "per cycle",
	 "instruction throughputs for the SIMT simulator: NAME: results per cycle per SM"},
	{"warp_size", K_U32, OFF(warp_size), 1, 1024, "threads", "threads per warp"},
	{"warps.allocation_granularity", K_U32, OFF(warp_allocation_granularity), 1, 64, "warps",
	 "a block's warps are rounded up to a multiple of this for the register check"},
	{"warps.max_per_sm", K_U32, OFF(max_warps_per_sm), 1, 1u << 16, "warps",
	 "maximum number of resident warps per SM"},
};
#undef OFF
#define NKEYS PX_COUNTOF(keys)

size_t px_arch_key_count(void)
{
	return NKEYS;
}

struct px_arch_key px_arch_key_at(size_t i)
{
	struct px_arch_key k = {keys[i].key, keys[i].unit, keys[i].desc};
	return k;
}

/* ---- loading ---- */

struct loader {
	const char *path;
	struct px_diags *diags;
	struct px_arena *arena;
	yaml_document_t *doc;
	struct px_arch *a;
	bool seen[NKEYS];
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

static bool is_null(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *s = scalar(n);
	return strcmp(s, "null") == 0 || strcmp(s, "~") == 0 || s[0] == 0;
}

/* A plain decimal unsigned integer (no sign, no quotes, no exponent). */
static bool parse_uint(struct loader *L, const yaml_node_t *n, const char *key, uint64_t *out)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) {
		err_at(L, n, "'%s' must be an unsigned integer", key);
		return false;
	}
	const char *s = scalar(n);
	uint64_t v = 0;
	if (!s[0]) {
		err_at(L, n, "'%s' must be an unsigned integer, not empty", key);
		return false;
	}
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9') {
			err_at(L, n, "'%s' must be an unsigned integer, not '%.40s'", key, s);
			return false;
		}
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > 0xffffffffull) {
			err_at(L, n, "'%s' is too large: %.40s", key, s);
			return false;
		}
	}
	*out = v;
	return true;
}

static bool check_range(struct loader *L, const yaml_node_t *n, const struct key *k, uint64_t v)
{
	if (v < k->min || v > k->max) {
		err_at(L, n, "'%s' is %llu; it must be between %u and %u", k->key,
		       (unsigned long long)v, k->min, k->max);
		return false;
	}
	return true;
}

static void set_u32(struct px_arch *a, size_t off, uint32_t v)
{
	memcpy((char *)a + off, &v, sizeof v);
}

static void load_metrics(struct loader *L, const yaml_node_t *n, const struct key *k)
{
	if (n->type != YAML_MAPPING_NODE) {
		err_at(L, n, "'%s' must be a mapping of NAME: number", k->key);
		return;
	}
	size_t cnt = (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
	struct px_arch_metric *m = px_arena_alloc(L->arena, (cnt ? cnt : 1) * sizeof *m);
	uint32_t nm = 0;
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = yaml_document_get_node(L->doc, p->key);
		yaml_node_t *vn = yaml_document_get_node(L->doc, p->value);
		if (!kn || !vn)
			continue;
		if (kn->type != YAML_SCALAR_NODE || !scalar(kn)[0]) {
			err_at(L, kn, "'%s': a key must be a name", k->key);
			continue;
		}
		bool dup = false;
		for (uint32_t i = 0; i < nm; i++)
			dup |= strcmp(m[i].name, scalar(kn)) == 0;
		if (dup) {
			err_at(L, kn, "'%s.%s' is given twice", k->key, scalar(kn));
			continue;
		}
		char *end = NULL;
		double v = 0;
		if (vn->type == YAML_SCALAR_NODE && vn->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
			errno = 0;
			v = strtod(scalar(vn), &end);
		}
		if (!end || end == scalar(vn) || *end || errno || !isfinite(v) || v < 0) {
			err_at(L, vn, "'%s.%s' must be a non-negative number", k->key, scalar(kn));
			continue;
		}
		m[nm].name = px_arena_strndup(L->arena, scalar(kn), strlen(scalar(kn)));
		m[nm].value = v;
		nm++;
	}
	if (k->off == offsetof(struct px_arch, latency)) {
		L->a->latency = m;
		L->a->nlatency = nm;
	} else {
		L->a->throughput = m;
		L->a->nthroughput = nm;
	}
}

static void load_leaf(struct loader *L, const struct key *k, const yaml_node_t *n)
{
	struct px_arch *a = L->a;
	uint64_t v;
	switch (k->kind) {
	case K_NAME:
	case K_CC:
		if (n->type != YAML_SCALAR_NODE) {
			err_at(L, n, "'%s' must be a string", k->key);
			return;
		}
		if (k->kind == K_NAME) {
			const char *s = scalar(n);
			size_t len = strlen(s);
			bool good = len > 3 && len < sizeof a->name && strncmp(s, "sm_", 3) == 0;
			for (size_t i = 3; good && i < len; i++)
				good = s[i] >= '0' && s[i] <= '9';
			if (!good) {
				err_at(L, n, "'name' must look like sm_90, not '%.40s'", s);
				return;
			}
			memcpy(a->name, s, len + 1);
		} else {
			unsigned maj, min;
			int used = 0;
			if (sscanf(scalar(n), "%3u.%1u%n", &maj, &min, &used) != 2 ||
			    scalar(n)[used] != 0 || maj < 1) {
				err_at(L, n, "'compute_capability' must look like \"9.0\", not '%.40s'", scalar(n));
				return;
			}
			a->major = maj;
			a->minor = min;
		}
		return;
	case K_U32:
	case K_KIB:
		if (!parse_uint(L, n, k->key, &v) || !check_range(L, n, k, v))
			return;
		set_u32(a, k->off, (uint32_t)(k->kind == K_KIB ? v * 1024 : v));
		return;
	case K_U32_NULL:
	case K_KIB_NULL:
		if (is_null(n)) {
			set_u32(a, k->off, 0);
			return;
		}
		if (!parse_uint(L, n, k->key, &v) || !check_range(L, n, k, v))
			return;
		set_u32(a, k->off, (uint32_t)(k->kind == K_KIB_NULL ? v * 1024 : v));
		return;
	case K_WARP:
		if (n->type != YAML_SCALAR_NODE || strcmp(scalar(n), "warp") != 0)
			err_at(L, n, "'%s' must be 'warp'", k->key);
		return;
	case K_KIB_LIST: {
		if (n->type != YAML_SEQUENCE_NODE) {
			err_at(L, n, "'%s' must be a list of sizes in KiB", k->key);
			return;
		}
		a->ncarveouts = 0;
		for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
			yaml_node_t *e = yaml_document_get_node(L->doc, *it);
			if (!e)
				continue;
			if (a->ncarveouts == PX_ARCH_MAX_CARVEOUTS) {
				err_at(L, e, "'%s' has more than %d entries", k->key, PX_ARCH_MAX_CARVEOUTS);
				return;
			}
			if (!parse_uint(L, e, k->key, &v) || !check_range(L, e, k, v))
				return;
			uint32_t bytes = (uint32_t)v * 1024;
			if (a->ncarveouts && bytes <= a->carveouts[a->ncarveouts - 1]) {
				err_at(L, e, "'%s' must be strictly ascending", k->key);
				return;
			}
			a->carveouts[a->ncarveouts++] = bytes;
		}
		return;
	}
	case K_METRICS:
		load_metrics(L, n, k);
		return;
	}
}

static const struct key *find_key(const char *full)
{
	size_t lo = 0, hi = NKEYS;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(keys[mid].key, full);
		if (c == 0)
			return &keys[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static bool is_section(const char *full)
{
	size_t n = strlen(full);
	for (size_t i = 0; i < NKEYS; i++)
		if (strncmp(keys[i].key, full, n) == 0 && keys[i].key[n] == '.')
			return true;
	return false;
}

/* mapping := { KEY: value }; KEY is a leaf of `keys` or a section (recursed). */
static void walk(struct loader *L, const yaml_node_t *map, const char *prefix, int depth)
{
	if (map->type != YAML_MAPPING_NODE) {
		err_at(L, map, prefix[0] ? "'%s' must be a mapping" : "%sa table must be a mapping of keys",
		       prefix);
		return;
	}
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = yaml_document_get_node(L->doc, p->key);
		yaml_node_t *vn = yaml_document_get_node(L->doc, p->value);
		if (!kn || !vn)
			continue;
		if (kn->type != YAML_SCALAR_NODE) {
			err_at(L, kn, "a key must be a plain word");
			continue;
		}
		char full[128];
		int w = snprintf(full, sizeof full, "%s%s%s", prefix, prefix[0] ? "." : "", scalar(kn));
		if (w < 0 || (size_t)w >= sizeof full) {
			err_at(L, kn, "unknown key '%.60s...'", full);
			continue;
		}
		const struct key *k = find_key(full);
		if (k) {
			size_t idx = (size_t)(k - keys);
			if (L->seen[idx]) {
				err_at(L, kn, "'%s' is given twice", full);
				continue;
			}
			L->seen[idx] = true;
			load_leaf(L, k, vn);
		} else if (depth < 4 && is_section(full)) {
			/* a section: every key below it must be there */
			walk(L, vn, full, depth + 1);
			for (size_t i = 0; i < NKEYS; i++) {
				size_t n = strlen(full);
				if (strncmp(keys[i].key, full, n) == 0 && keys[i].key[n] == '.' &&
				    !L->seen[i] && vn->type == YAML_MAPPING_NODE) {
					err_at(L, vn, "missing key '%s'", keys[i].key);
					L->seen[i] = true;   /* reported once */
				}
			}
		} else {
			err_at(L, kn, "unknown key '%s'", full);
		}
	}
}

static uint32_t is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

/* The relations between keys that a real GPU satisfies. */
static void check_relations(struct loader *L, const yaml_node_t *root)
{
	struct px_arch *a = L->a;
	char want[16];
	snprintf(want, sizeof want, "sm_%u%u", a->major, a->minor);
	if (strcmp(want, a->name) != 0)
		err_at(L, root, "'name' is %s but 'compute_capability' %u.%u says %s",
		       a->name, a->major, a->minor, want);
	if (!is_pow2(a->warp_size))
		err_at(L, root, "'warp_size' (%u) must be a power of two", a->warp_size);
	if ((uint64_t)a->max_warps_per_sm * a->warp_size != a->max_threads_per_sm)
		err_at(L, root, "'warps.max_per_sm' x 'warp_size' (%u x %u) must equal 'threads.max_per_sm' (%u)",
		       a->max_warps_per_sm, a->warp_size, a->max_threads_per_sm);
	if (a->max_threads_per_block > a->max_threads_per_sm)
		err_at(L, root, "'threads.max_per_block' (%u) exceeds 'threads.max_per_sm' (%u)",
		       a->max_threads_per_block, a->max_threads_per_sm);
	if (a->registers_per_block > a->registers_per_sm)
		err_at(L, root, "'registers.max_per_block' (%u) exceeds 'registers.per_sm' (%u)",
		       a->registers_per_block, a->registers_per_sm);
	if (a->register_allocation_unit % a->warp_size || !is_pow2(a->register_allocation_unit))
		err_at(L, root, "'registers.allocation_unit' (%u) must be a power of two and a multiple of the warp size",
		       a->register_allocation_unit);
	if (a->registers_per_sm % a->subpartitions)
		err_at(L, root, "'registers.per_sm' (%u) must divide evenly among %u sub-partitions",
		       a->registers_per_sm, a->subpartitions);
	if (a->shared_per_block > a->shared_per_block_optin)
		err_at(L, root, "'shared_memory.per_block_kib' exceeds 'shared_memory.per_block_optin_kib'");
	if (a->shared_per_block_optin > a->shared_per_sm)
		err_at(L, root, "'shared_memory.per_block_optin_kib' exceeds 'shared_memory.per_sm_kib'");
	if (a->shared_reserved_per_block >= a->shared_per_sm)
		err_at(L, root, "'shared_memory.reserved_per_block_bytes' must be smaller than the SM's shared memory");
	if (!is_pow2(a->shared_allocation_unit))
		err_at(L, root, "'shared_memory.allocation_unit_bytes' (%u) must be a power of two",
		       a->shared_allocation_unit);
	if (a->ncarveouts && a->carveouts[a->ncarveouts - 1] != a->shared_per_sm)
		err_at(L, root, "the last of 'shared_memory.carveouts_kib' (%u KiB) must equal 'shared_memory.per_sm_kib' (%u KiB)",
		       a->carveouts[a->ncarveouts - 1] / 1024, a->shared_per_sm / 1024);
	if (a->unified_l1_shared && a->unified_l1_shared < a->shared_per_sm)
		err_at(L, root, "'shared_memory.unified_kib' (%u KiB) is smaller than 'shared_memory.per_sm_kib' (%u KiB)",
		       a->unified_l1_shared / 1024, a->shared_per_sm / 1024);
	if (!is_pow2(a->bank_width))
		err_at(L, root, "'shared_banks.bank_width_bytes' (%u) must be a power of two", a->bank_width);
}

bool px_arch_parse(const char *path, const char *text, size_t len, struct px_arena *arena,
                   struct px_arch *out, struct px_diags *diags)
{
	struct px_arch a;
	memset(&a, 0, sizeof a);
	struct loader L = {.path = path, .diags = diags, .arena = arena, .a = &a, .ok = true};
	if (len > (1u << 20)) {
		px_diag_add(diags, PX_ERROR, path, 1, 1, NULL, "the table is larger than 1 MiB");
		return false;
	}
	yaml_document_t doc;
	if (!px_yaml_load(path, text, len, &doc, diags))
		return false;
	L.doc = &doc;
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (!root) {
		px_diag_add(diags, PX_ERROR, path, 1, 1, NULL, "the table is empty");
		L.ok = false;
	} else {
		walk(&L, root, "", 0);
		if (root->type == YAML_MAPPING_NODE) {
			for (size_t i = 0; i < NKEYS; i++)
				if (!L.seen[i])
					err_at(&L, root, "missing key '%s'", keys[i].key);
		}
		if (L.ok)
			check_relations(&L, root);
	}
	yaml_document_delete(&doc);
	if (!L.ok)
		return false;
	a.path = px_arena_strndup(arena, path, strlen(path));
	*out = a;
	return true;
}

/* ---- the set ---- */

struct px_archset {
	struct px_arena *arena;
	struct px_arch *items;
	size_t n, cap;
};

static int cmp_arch(const void *x, const void *y)
{
	const struct px_arch *a = x, *b = y;
	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void set_put(struct px_archset *s, const struct px_arch *a)
{
	for (size_t i = 0; i < s->n; i++) {
		if (strcmp(s->items[i].name, a->name) == 0) {
			s->items[i] = *a;
			return;
		}
	}
	*(struct px_arch *)PX_VEC_PUSH(s->items, s->n, s->cap) = *a;
	qsort(s->items, s->n, sizeof *s->items, cmp_arch);
}

struct px_archset *px_archset_new(struct px_diags *diags)
{
	struct px_archset *s = xcalloc(1, sizeof *s);
	s->arena = px_arena_new();
	bool ok = true;
	for (size_t i = 0; i < px_arch_builtin_count; i++) {
		struct px_arch a;
		const struct px_arch_text *t = &px_arch_builtin[i];
		if (px_arch_parse(t->path, t->text, t->len, s->arena, &a, diags))
			set_put(s, &a);
		else
			ok = false;
	}
	if (!ok) {
		px_archset_delete(s);
		return NULL;
	}
	return s;
}

void px_archset_delete(struct px_archset *s)
{
	if (!s)
		return;
	px_arena_delete(s->arena);
	free(s->items);
	free(s);
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

bool px_archset_add_dir(struct px_archset *s, const char *dir, struct px_diags *diags)
{
	DIR *d = opendir(dir);
	if (!d) {
		px_diag_add(diags, PX_ERROR, dir, 0, 0, NULL, "cannot read the arch directory: %s",
		            strerror(errno));
		return false;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len > 5 && strcmp(e->d_name + len - 5, ".yaml") == 0 && e->d_name[0] != '.')
			*PX_VEC_PUSH(names, n, cap) = xasprintf("%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp_str);
	struct px_arch *loaded = xcalloc(n ? n : 1, sizeof *loaded);
	size_t nl = 0;
	bool ok = true;
	for (size_t i = 0; i < n; i++) {
		char *err = NULL;
		size_t len = 0;
		char *text = px_read_file(names[i], &len, &err);
		if (!text) {
			px_diag_add(diags, PX_ERROR, names[i], 0, 0, NULL, "cannot read: %s", err);
			free(err);
			ok = false;
		} else if (px_arch_parse(names[i], text, len, s->arena, &loaded[nl], diags)) {
			nl++;
		} else {
			ok = false;
		}
		free(text);
		free(names[i]);
	}
	free(names);
	if (ok)
		for (size_t i = 0; i < nl; i++)
			set_put(s, &loaded[i]);
	free(loaded);
	return ok;
}

bool px_archset_add_path(struct px_archset *s, const char *list, struct px_diags *diags)
{
	bool ok = true;
	const char *p = list;
	while (p && *p) {
		size_t n = strcspn(p, ":");
		if (n) {
			char *dir = xstrndup(p, n);
			ok &= px_archset_add_dir(s, dir, diags);
			free(dir);
		}
		p += n + (p[n] == ':');
	}
	return ok;
}

size_t px_archset_count(const struct px_archset *s)
{
	return s->n;
}

const struct px_arch *px_archset_at(const struct px_archset *s, size_t i)
{
	return i < s->n ? &s->items[i] : NULL;
}

const struct px_arch *px_archset_find(const struct px_archset *s, const char *name)
{
	char want[16];
	const char *digits = name;
	if (strncmp(name, "sm_", 3) == 0)
		digits = name + 3;
	else if (strncmp(name, "compute_", 8) == 0)
		digits = name + 8;
	size_t n = 0;
	while (digits[n] >= '0' && digits[n] <= '9')
		n++;
	if (n >= 2 && n <= 4 && (digits[n] == 0 || ((digits[n] == 'a' || digits[n] == 'f') && !digits[n + 1]))) {
		snprintf(want, sizeof want, "sm_%.*s", (int)n, digits);
	} else {
		unsigned maj, min;
		int used = 0;
		if (sscanf(name, "%3u.%1u%n", &maj, &min, &used) != 2 || name[used])
			return NULL;
		snprintf(want, sizeof want, "sm_%u%u", maj, min);
	}
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->items[i].name, want) == 0)
			return &s->items[i];
	return NULL;
}

/* ---- the simulator's timing table ---- */

/* The base of target (px_arch_timing): a table with a latency section, of
 * target's major version with the nearest minor, else of the nearest
 * compute capability; the older on a tie. NULL: none in s. */
static const struct px_arch *timing_base(const struct px_archset *s, const struct px_arch *target)
{
	const struct px_arch *best = NULL;
	uint32_t tcc = target->major * 10 + target->minor, best_d = 0;
	bool best_same = false;
	for (size_t i = 0; i < s->n; i++) {
		const struct px_arch *a = &s->items[i];
		if (!a->nlatency || a == target)
			continue;
		uint32_t cc = a->major * 10 + a->minor, d = cc > tcc ? cc - tcc : tcc - cc;
		bool same = a->major == target->major;
		/* (the items go by compute capability: on a tie the first is the older) */
		if (!best || (same && !best_same) || (same == best_same && d < best_d)) {
			best = a;
			best_d = d;
			best_same = same;
		}
	}
	return best;
}

/* A new array: own's entries, then those of from whose names own lacks
 * (*nout entries in all, *nadded of them from's). */
static struct px_arch_metric *merge_metrics(const struct px_arch_metric *own, uint32_t nown,
                                            const struct px_arch_metric *from, uint32_t nfrom,
                                            uint32_t *nout, uint32_t *nadded)
{
	struct px_arch_metric *m = xcalloc((size_t)nown + nfrom + 1, sizeof *m);
	uint32_t n = 0;
	for (uint32_t i = 0; i < nown; i++)
		m[n++] = own[i];
	*nadded = 0;
	for (uint32_t i = 0; i < nfrom; i++) {
		bool have = false;
		for (uint32_t j = 0; j < nown && !have; j++)
			have = strcmp(own[j].name, from[i].name) == 0;
		if (!have) {
			m[n++] = from[i];
			++*nadded;
		}
	}
	*nout = n;
	return m;
}

void px_arch_timing(const struct px_archset *s, const struct px_arch *target, struct px_arch_timing *out)
{
	memset(out, 0, sizeof *out);
	out->arch = *target;
	const struct px_arch *b = target->nlatency || !s ? NULL : timing_base(s, target);
	if (!b)
		return;
	out->base = b;
	out->merged[0] = merge_metrics(target->latency, target->nlatency, b->latency, b->nlatency,
	                               &out->arch.nlatency, &out->from_base[0]);
	out->merged[1] = merge_metrics(target->throughput, target->nthroughput, b->throughput, b->nthroughput,
	                               &out->arch.nthroughput, &out->from_base[1]);
	out->arch.latency = out->merged[0];
	out->arch.throughput = out->merged[1];
}

void px_arch_timing_free(struct px_arch_timing *t)
{
	free(t->merged[0]);
	free(t->merged[1]);
	memset(t, 0, sizeof *t);
}

/* ---- show ---- */

static void show_value(struct px_buf *out, const struct px_arch *a, const struct key *k)
{
	uint32_t v = 0;
	if (k->kind == K_U32 || k->kind == K_KIB || k->kind == K_U32_NULL || k->kind == K_KIB_NULL)
		memcpy(&v, (const char *)a + k->off, sizeof v);
	switch (k->kind) {
	case K_NAME: px_buf_printf(out, "%s", a->name); break;
	case K_CC: px_buf_printf(out, "\"%u.%u\"", a->major, a->minor); break;
	case K_U32: px_buf_printf(out, "%u", v); break;
	case K_KIB: px_buf_printf(out, "%u", v / 1024); break;
	case K_U32_NULL:
	case K_KIB_NULL:
		if (v)
			px_buf_printf(out, "%u", k->kind == K_KIB_NULL ? v / 1024 : v);
		else
			px_buf_puts(out, "null");
		break;
	case K_WARP: px_buf_puts(out, "warp"); break;
	case K_KIB_LIST:
		px_buf_puts(out, "[");
		for (uint32_t i = 0; i < a->ncarveouts; i++)
			px_buf_printf(out, "%s%u", i ? ", " : "", a->carveouts[i] / 1024);
		px_buf_puts(out, "]");
		break;
	case K_METRICS: {
		bool lat = k->off == offsetof(struct px_arch, latency);
		const struct px_arch_metric *m = lat ? a->latency : a->throughput;
		uint32_t n = lat ? a->nlatency : a->nthroughput;
		if (!n)
			px_buf_puts(out, "{}");
		for (uint32_t i = 0; i < n; i++)
			px_buf_printf(out, "\n  %s: %.17g", m[i].name, m[i].value);
		break;
	}
	}
}

void px_arch_show(struct px_buf *out, const struct px_arch *a)
{
	px_buf_printf(out, "# %s (from %s)\n", a->name, a->path);
	char section[64] = "";
	for (size_t i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];
		const char *dot = strchr(k->key, '.');
		const char *leaf = k->key;
		if (dot) {
			size_t n = (size_t)(dot - k->key);
			if (strlen(section) != n || strncmp(section, k->key, n) != 0) {
				snprintf(section, sizeof section, "%.*s", (int)n, k->key);
				px_buf_printf(out, "%s:\n", section);
			}
			leaf = dot + 1;
			px_buf_puts(out, "  ");
		} else {
			section[0] = 0;
		}
		px_buf_printf(out, "%s: ", leaf);
		show_value(out, a, k);
		px_buf_puts(out, "\n");
	}
}
