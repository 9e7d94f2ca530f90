/* occupancy.h: the occupancy engine and launch advice.
 *
 * px_occ_compute answers, for one compute capability (a px_arch from
 * arch/sm_NN.yaml) and one launch configuration, how many blocks reside on an SM,
 * what limits them, and what is actually allocated (registers per warp and
 * block, shared memory per block with the driver's reservation, and the
 * shared-memory capacity the driver configures). It is pure arithmetic on the
 * table: no allocation, no I/O, safe on any thread. Its results equal those of
 * NVIDIA's cuda_occupancy.h on every configuration the differential test
 * tries (tests/unit/test_occ_oracle.c) and those of the H100 runtime on the
 * committed sweep (tests/fixtures/occupancy/).
 *
 * occ_advice.c builds the advice on top of it; occ_render.c renders results
 * as JSON (INTERFACES.md, "ptxray-occupancy/1"), text and plots. */
#ifndef PX_OCCUPANCY_H
#define PX_OCCUPANCY_H

#include "arch.h"

struct px_buf;

/* The resources that limit resident blocks, in the order of the JSON "limits". */
enum px_occ_limit {
	PX_OCC_WARPS, PX_OCC_REGISTERS, PX_OCC_SHARED, PX_OCC_BLOCKS, PX_OCC_BARRIERS,
	PX_OCC_NLIMITS
};
const char *px_occ_limit_name(enum px_occ_limit l);   /* "warps", ..., "shared_memory" */
#define PX_OCC_UNLIMITED UINT32_MAX

struct px_occ_query {
	uint32_t threads;          /* threads per block (x*y*z) */
	uint32_t registers;        /* per thread, 0..255 */
	uint32_t shared;           /* static shared bytes per block */
	uint32_t dynamic_shared;   /* dynamic shared bytes per block */
	int32_t carveout;          /* -1 driver default, else 0..100 percent of the SM's shared maximum */
	bool optin;                /* the kernel opted into the large dynamic shared limit */
	uint32_t barriers;         /* named barriers the kernel uses (0..16) */
};

/* Why a configuration cannot launch at all. */
enum px_occ_fail {
	PX_OCC_OK, PX_OCC_FAIL_THREADS, PX_OCC_FAIL_REGISTERS, PX_OCC_FAIL_SHARED,
};

struct px_occ_result {
	uint32_t blocks_per_sm, warps_per_sm;
	double occupancy;                 /* warps_per_sm / max warps per SM */
	uint32_t limit[PX_OCC_NLIMITS];   /* blocks each resource allows; PX_OCC_UNLIMITED: no limit */
	unsigned limiters;                /* bit 1<<l for every limit equal to blocks_per_sm */
	uint32_t warps_per_block;
	uint32_t registers_per_warp;      /* allocated (rounded to the allocation unit) */
	uint32_t registers_per_block;     /* registers_per_warp x warps_per_block */
	uint32_t shared_per_block;        /* allocated: static + dynamic + reserved, rounded */
	uint32_t shared_limit_per_block;  /* the per-block limit that applied (reserved included) */
	uint32_t shared_per_sm;           /* capacity the driver configures (carveout step); 0 if none fits */
	/* what a launch gets (px_occ_launch_shared) and the L1 data cache that
	 * leaves of the unified store (0: cannot launch, or separate stores) */
	uint32_t launch_shared_per_sm, l1_per_sm;
	enum px_occ_fail fail;            /* set when blocks_per_sm is 0 */
};

/* Checks that q is a configuration at all on a (threads >= 1, registers and
 * barriers within the arch's per-thread/per-block maxima, carveout -1..100,
 * sizes below 1 GiB). Returns NULL, or a static reason ("registers per thread
 * must be 0..255") for a query that the batch answers with {"error": ...}.
 * A configuration that is valid but cannot launch (too many threads or too
 * much shared memory) is not an error: its blocks_per_sm is 0. */
const char *px_occ_check(const struct px_arch *a, const struct px_occ_query *q);

/* Fills r for a valid query (px_occ_check returned NULL). */
void px_occ_compute(const struct px_arch *a, const struct px_occ_query *q, struct px_occ_result *r);

/* The shared-memory capacity the driver configures for a preference of
 * `want` bytes: the smallest carveout step >= want; 0 if none (fixed-capacity
 * archs answer their capacity). */
uint32_t px_occ_carveout_step(const struct px_arch *a, uint32_t want);

/* The shared-memory capacity the driver configures when it launches q (r:
 * px_occ_compute's result for q). With a carveout preference it is
 * r->shared_per_sm. Without one (the default) the driver does not take the
 * occupancy calculator's largest step: it sizes the store for the resident
 * blocks and then some, by a rule measured on an H100 (see occupancy.c).
 * 0 when q cannot launch. */
uint32_t px_occ_launch_shared(const struct px_arch *a, const struct px_occ_query *q,
                              const struct px_occ_result *r);

/* ---- advice (occ_advice.c) ---- */
enum px_occ_warning {
	PX_OCC_WARN_NOT_WARP_MULTIPLE = 1u << 0,   /* block size not a multiple of the warp size */
	PX_OCC_WARN_OVER_MAX_THREADS = 1u << 1,    /* block larger than the arch allows */
	PX_OCC_WARN_SHARED_NO_OPTIN = 1u << 2,     /* over the default per-block shared limit without opt-in */
	PX_OCC_WARN_STATIC_OVER_DEFAULT = 1u << 3, /* static shared over the default limit (only dynamic may opt in) */
	PX_OCC_WARN_CANNOT_LAUNCH = 1u << 4,       /* blocks_per_sm is 0 */
};

struct px_occ_advice_options {
	double target_occupancy;     /* 0: none (launch bounds for the next register step) */
	bool have_shared_per_thread;
	uint32_t shared_per_thread;  /* --shared-per-thread: dynamic bytes = dynamic_shared + this x threads */
};

struct px_occ_advice {
	/* the block size that maximises resident threads (cudaOccupancyMaxPotentialBlockSize) */
	uint32_t best_threads, best_blocks;      /* best_threads 0: no block size launches */
	double best_occupancy;
	uint32_t best_dynamic_shared;            /* the dynamic shared memory at that size */
	/* the register count at which the next occupancy step is reached */
	bool have_register_step;
	uint32_t step_registers, step_blocks;
	double step_occupancy;
	/* __launch_bounds__(threads, min_blocks) for the target, and the register cap it implies */
	bool have_bounds, bounds_reachable;
	double bounds_target;
	uint32_t bounds_threads, bounds_min_blocks, bounds_register_cap;
	enum px_occ_limit bounds_blocked_by;     /* when not reachable: what stops it */
	/* the smallest carveout (percent) that keeps blocks_per_sm */
	bool have_carveout;
	uint32_t carveout_percent, carveout_bytes;
	unsigned warnings;                       /* enum px_occ_warning bits */
};

void px_occ_advise(const struct px_arch *a, const struct px_occ_query *q,
                   const struct px_occ_result *r, const struct px_occ_advice_options *o,
                   struct px_occ_advice *adv);

/* ---- rendering (occ_render.c) ---- */
/* The JSON object of INTERFACES.md ("ptxray-occupancy/1"), one line when
 * !pretty. adv may be NULL (no "advice" array then: it is empty). */
struct px_json;
void px_occ_json(struct px_json *j, const struct px_arch *a, const struct px_occ_query *q,
                 const struct px_occ_result *r, const struct px_occ_advice *adv);
void px_occ_text(struct px_buf *out, const struct px_arch *a, const struct px_occ_query *q,
                 const struct px_occ_result *r, const struct px_occ_advice *adv);
/* One advice line per item, as text (also the "message" of each JSON item). */
size_t px_occ_advice_lines(const struct px_arch *a, const struct px_occ_query *q,
                           const struct px_occ_result *r, const struct px_occ_advice *adv,
                           char lines[][256], size_t max);

/* The three graphs of NVIDIA's occupancy calculator (occupancy against block
 * size, registers per thread and shared memory per block), the current
 * configuration marked and its limiter named: as SVG, or as text. */
void px_occ_plot_svg(struct px_buf *out, const struct px_arch *a, const struct px_occ_query *q,
                     const struct px_occ_result *r);
void px_occ_plot_text(struct px_buf *out, const struct px_arch *a, const struct px_occ_query *q,
                      const struct px_occ_result *r);

/* ---- batch queries (occ_query.c) ---- */
/* Parses one --batch line: a flat JSON object with the keys arch, threads,
 * registers, shared, dynamic_shared, carveout, optin, barriers (INTERFACES.md).
 * Missing keys take the command line's defaults (registers 0, shared 0,
 * dynamic_shared 0, carveout -1, optin false, barriers 1); arch and threads
 * are required. Returns false with *col (1-based) and a reason in err (a
 * static string or written into errbuf) for a line that is not such an
 * object. arch receives the arch name (NUL-terminated, truncated to archn). */
bool px_occ_parse_line(const char *line, size_t len, char *arch, size_t archn,
                       struct px_occ_query *q, uint32_t *col, char *errbuf, size_t errn);

/* Parses a size with an optional unit: 4096, 8K, 8KiB, 8k, 1M, 1MiB (K = 1024).
 * Returns false for anything else or a value over 4 GiB - 1. */
bool px_parse_size(const char *s, uint32_t *out);

#endif
