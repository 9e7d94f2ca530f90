/* arch.h: the per-compute-capability tables (arch/sm_*.yaml) as plain data.
 *
 * Architecture facts live only here (DESIGN.md convention 7): every number
 * the occupancy engine, the register caps or the simulator need comes from a
 * `const struct px_arch`, loaded from YAML by arch.c. The tables in arch/ are
 * embedded in the binary at build time (arch/embed.py writes
 * build/gen/arch_tables.c) and parsed by the same loader as a user's
 * --arch-dir table, so both get the same validation.
 *
 * Ownership: a px_archset owns its tables (px_archset_delete frees them);
 * the `const struct px_arch *` it hands out live as long as the set. */
#ifndef PX_ARCH_H
#define PX_ARCH_H

#include "util.h"

#define PX_ARCH_MAX_CARVEOUTS 16

/* A named number of the latency/throughput sections (SIMT issue). */
struct px_arch_metric {
	const char *name;   /* owned by the set */
	double value;
};

struct px_arch {
	char name[16];                       /* "sm_90" */
	uint32_t major, minor;               /* compute capability */
	const char *path;                    /* where it was loaded from (owned by the set) */
	uint32_t warp_size;
	uint32_t max_threads_per_block, max_threads_per_sm;
	uint32_t max_warps_per_sm, warp_allocation_granularity;
	uint32_t max_blocks_per_sm;
	uint32_t registers_per_sm, registers_per_block, max_registers_per_thread;
	uint32_t register_allocation_unit;   /* registers per warp are rounded up to this */
	uint32_t shared_per_sm, shared_per_block, shared_per_block_optin; /* bytes */
	uint32_t shared_reserved_per_block, shared_allocation_unit;      /* bytes */
	uint32_t unified_l1_shared;          /* bytes of L1 + shared per SM; 0: separate */
	uint32_t carveouts[PX_ARCH_MAX_CARVEOUTS];  /* bytes, ascending; */
	uint32_t ncarveouts;                 /* 0: fixed capacity (no carveout choice) */
	uint32_t subpartitions;
	uint32_t named_barriers_per_block;
	uint32_t barriers_per_sm;            /* 0: barriers do not limit residency */
	uint32_t max_cluster_size;
	uint32_t banks, bank_width;
	const struct px_arch_metric *latency, *throughput;
	uint32_t nlatency, nthroughput;
};

/* One key of the YAML schema, for `ptxray arch show`, the man page check and
 * the loader itself. The table is sorted by key. */
struct px_arch_key {
	const char *key;      /* dotted path: "registers.per_sm" */
	const char *unit;     /* "", "KiB", "bytes", "registers", ... */
	const char *desc;     /* one line */
};
size_t px_arch_key_count(void);
struct px_arch_key px_arch_key_at(size_t i);   /* i < px_arch_key_count() */

/* The embedded tables (build/gen/arch_tables.c, from arch/embed.py). */
struct px_arch_text {
	const char *path;     /* "arch/sm_90.yaml" */
	const char *text;
	size_t len;
};
extern const struct px_arch_text px_arch_builtin[];
extern const size_t px_arch_builtin_count;

/* Parses and validates one table. Returns true and fills *out on success;
 * otherwise appends `path:line:col: error: ...` diagnostics and returns false.
 * Strings (path, metric names) are allocated in arena. */
bool px_arch_parse(const char *path, const char *text, size_t len, struct px_arena *arena,
                   struct px_arch *out, struct px_diags *diags);

/* A set of tables: the embedded ones, then each --arch-dir / PTXRAY_ARCH_PATH
 * directory in order, a later table of the same name replacing an earlier one. */
struct px_archset;
/* A new set holding the embedded tables. Fails (false) only if one of them
 * is invalid, which the unit tests rule out; the errors go to diags. */
struct px_archset *px_archset_new(struct px_diags *diags);
void px_archset_delete(struct px_archset *s);
/* Loads every *.yaml in dir (sorted by name). Returns false, with located
 * diagnostics, if the directory cannot be read or a table is invalid (then
 * the set is unchanged). */
bool px_archset_add_dir(struct px_archset *s, const char *dir, struct px_diags *diags);
/* Same for a ':'-separated list of directories (PTXRAY_ARCH_PATH); empty
 * entries are skipped. */
bool px_archset_add_path(struct px_archset *s, const char *path_list, struct px_diags *diags);
/* The tables, sorted by compute capability. */
const struct px_arch *px_archset_at(const struct px_archset *s, size_t i);
size_t px_archset_count(const struct px_archset *s);
/* Finds "sm_90", "sm_90a", "sm_100f", "compute_90", "90" or "9.0"; NULL if unknown. */
const struct px_arch *px_archset_find(const struct px_archset *s, const char *name);
/* The table the SIMT simulator times a target with (ptxray-simt(1),
 * Timing tables). A table with a latency section is its own. One without
 * (most targets: only measured or extrapolated tables have latencies) keeps
 * its own SM structure and throughput entries, and takes each latency and
 * throughput entry it lacks from its base: the table with a latency section
 * of its major version, the nearest minor first, else the one of the
 * nearest compute capability (the older on a tie). So an sm_86 kernel is
 * timed with sm_86's FP64 rate (2 results a cycle per SM, not sm_80's 32)
 * and L1 (128 KiB) but sm_80's latencies. */
struct px_arch_timing {
	struct px_arch arch;              /* the table to time with (arch.name: the target's) */
	const struct px_arch *base;       /* where the entries the target lacks came from; NULL: none */
	uint32_t from_base[2];            /* how many: latency, throughput entries */
	struct px_arch_metric *merged[2]; /* (allocated; px_arch_timing_free) */
};
/* Fills *out for target (a table of s or not). out->arch is target as it
 * is, and out->base NULL, when target has a latency section, s is NULL or
 * no table of s has one. */
void px_arch_timing(const struct px_archset *s, const struct px_arch *target, struct px_arch_timing *out);
void px_arch_timing_free(struct px_arch_timing *t);

/* Writes the table back as YAML (sorted keys as in the schema; the same text
 * `ptxray arch show` prints). */
struct px_buf;
void px_arch_show(struct px_buf *out, const struct px_arch *a);

#endif
