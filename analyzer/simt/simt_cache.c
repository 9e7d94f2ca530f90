/* simt_cache.c: the simulator's caches. The L2 is a set of the 128-byte
 * lines the block has touched (50 MB: one block's loops do not fill it);
 * the L1 has the capacity the launch leaves it (simt.c sizes it from the
 * unified data cache less the shared memory the driver configures,
 * px_occ_launch_shared) and decides hit or miss from each touch's reuse
 * distance and the sectors the line holds (simt_int.h, struct sim_l1).
 *
 * Why a soft edge rather than LRU: transpose_loop at 128 threads on an
 * H100 (bench/gpu/simt/transpose_probe.cu, tests/fixtures/simt/
 * transpose_probe/) cycles through 1,024 lines (64 KiB of loads and 64 KiB
 * of stores, which allocate) in an L1 of 992 (124 KiB): LRU would miss
 * every time, the hardware hits 72% of the loads after the first pass
 * (ncu: 4,448 of the 6,144 sectors of passes 2-4), and with L1 room to
 * spare (156 and 192 KiB at 256 and 512 threads, reuse distance 0.82 C and
 * 0.67 C) every load hits, while 256 KiB of lines (2.06 C, 1.64 C, 1.33 C)
 * all miss. A hit fraction that falls linearly from 1 at 0.9 C to 0 at
 * 1.36 C put 72% at 1.03 C and agreed with every variant of the probe;
 * the two ends were fitted to it [F]. l1edge_probe (ncu) then measured a
 * loop cycling through 0.9 C: every load hits, at 128 and 512 threads
 * (the edge at 0.9 C had 14% miss at 128 threads, 115% slow); from 0.95 C
 * the transpose is within 1% (+12% before), and of check_simt's loops 18
 * move, 13 closer (ellpack_spmv_loop/128 +4% -> -25%, whose hits ncu
 * counts at 84% where the model has 95% at either end). At 1.06 C the
 * hardware hits 39% at 128 threads and 85% at 512, the model 49% and 72%;
 * at 1.33 C neither. */
#include <stdlib.h>

#include "simt_int.h"

/* Whether line is in the set; inserts it when absent and insert. */
SIM_HOT bool lineset_has(struct sim_lineset *m, uint64_t line, bool insert)
{
	uint64_t bit = 1ull << (line % 64), key = line / 64 + 1;
	struct sim_lineset_slot *p = m->last;
	if (!p || p->key != key) {
		void *t = m->p;
		p = slot_find(&t, &m->n, &m->cap, sizeof *m->p, key, insert);
		m->p = t;
		if (!p)
			return false;
		m->last = p;   /* (in the table as it is now: only slot_find moves it) */
	}
	bool had = p->bits & bit;
	if (insert)
		p->bits |= bit;
	return had;
}

void sim_lineset_free(struct sim_lineset *m)
{
	free(m->p);
	memset(m, 0, sizeof *m);
}

/* ---- the L1 ---- */
#define L1_LO 0.95    /* [F] reuse distance / capacity below which a touch hits (l1edge_probe: all at 0.9) */
#define L1_HI 1.36    /* [F] ... from which it misses */
/* A ring entry: the line + 1 in the low bits, the line's sectors the L1
 * holds in the top four (l1_touch) */
#define RING_LINE(e) ((e) & ((1ull << 60) - 1))
#define RING_SECS(e) ((unsigned)((e) >> 60))

void sim_l1_init(struct sim_l1 *c, uint32_t cap_lines)
{
	memset(c, 0, sizeof *c);
	c->cap = cap_lines;
	if (!cap_lines)
		return;
	c->lo = (uint32_t)(L1_LO * cap_lines);
	c->hi = (uint32_t)(L1_HI * cap_lines + 0.999);
	if (c->hi <= c->lo)
		c->hi = c->lo + 1;
	c->ring_n = 4096;
	while (c->ring_n < 8 * (uint64_t)c->hi)
		c->ring_n *= 2;
	c->ring = xcalloc(c->ring_n + 1, sizeof *c->ring);
	c->bits = xcalloc(c->ring_n / 64 + 1, sizeof *c->bits);
	c->mcnt = xcalloc(c->ring_n / 64 + 1, sizeof *c->mcnt);
	c->scnt = xcalloc(c->ring_n / 64 / SIM_L1_SUPER + 1, sizeof *c->scnt);
}

void sim_l1_free(struct sim_l1 *c)
{
	free(c->ring);
	free(c->bits);
	free(c->mcnt);
	free(c->scnt);
	free(c->lines);
	sim_lineset_free(&c->seen);
	memset(c, 0, sizeof *c);
}

/* Marks or unmarks stamp st (1 <= st <= ring_n). */
static inline void mark(struct sim_l1 *c, uint32_t st, bool on)
{
	uint32_t k = st / 64;
	c->bits[k] ^= 1ull << (st % 64);
	c->mcnt[k] = (uint8_t)(c->mcnt[k] + (on ? 1 : -1));
	c->scnt[k / SIM_L1_SUPER] += on ? 1 : (uint32_t)-1;
}

/* Stamp st no longer names its line (the line's touch moves on, or it
 * leaves the L1). */
static inline void unstamp(struct sim_l1 *c, uint32_t st)
{
	mark(c, st, false);
	c->ring[st] = 0;
	c->marks--;
}

/* The marks at stamps after st (st <= c->t: none after c->t). */
static uint32_t marks_after(const struct sim_l1 *c, uint32_t st)
{
	uint32_t k = st / 64, tk = c->t / 64, sk = k / SIM_L1_SUPER, tsk = tk / SIM_L1_SUPER;
	uint32_t n = sim_popcount(c->bits[k] & ~((2ull << (st % 64)) - 1));
	uint32_t end = sk == tsk ? tk : (sk + 1) * SIM_L1_SUPER - 1;
	for (uint32_t i = k + 1; i <= end; i++)
		n += c->mcnt[i];
	if (sk == tsk)
		return n;
	for (uint32_t i = sk + 1; i < tsk; i++)
		n += c->scnt[i];
	for (uint32_t i = tsk * SIM_L1_SUPER; i <= tk; i++)
		n += c->mcnt[i];
	return n;
}

/* The stamp of line: a table slot holds SIM_L1_CHUNK neighbouring lines,
 * so a stream of lines mostly finds the slot of the line before (no cache
 * miss per line in a large table). NULL when the line's slot is absent
 * and not insert. */
SIM_HOT uint32_t *l1_stamp(struct sim_l1 *c, uint64_t line, bool insert)
{
	uint64_t key = line / SIM_L1_CHUNK + 1;
	struct sim_l1chunk **np = &c->near[key % 8], *e = *np;
	if (!e || e->key != key) {
		void *t = c->lines;
		e = slot_find(&t, &c->nlines, &c->caplines, sizeof *c->lines, key, insert);
		if (t != c->lines)
			memset(c->near, 0, sizeof c->near);   /* the table grew: its slots moved */
		c->lines = t;
		*np = e;
		if (!e)
			return NULL;
	}
	return &e->stamp[line % SIM_L1_CHUNK];
}

/* The ring is full: the hi most recent lines get stamps 1..k in their
 * order, the others none (their next touch misses, as it would: their old
 * stamps no longer name them in the ring). The line table starts again
 * with the kept lines only: a line absent from it has no stamp, which
 * reads as a stamp the ring no longer names (it never will again: only
 * a touch of the line gives its stamp out again), so the table holds the
 * lines of one ring's touches at most instead of every line ever touched
 * (global_stream's 4 MB of lines: a 4.7 MB table that missed the cache
 * at nearly every new line). The table is cleared, not freed: grown again
 * from nothing after each compaction, its fresh pages were most of
 * global_stream's page faults (7% of its time in the kernel). Stamps
 * after k keep their old lines in the ring: no line in the table has one
 * of them, and each is written again (the next touches) before the next
 * compaction reads them. */
__attribute__((noinline)) static void l1_compact(struct sim_l1 *c)
{
	uint64_t *keep = xcalloc(c->hi + 1, sizeof *keep);
	uint32_t k = 0;
	for (uint32_t st = c->ring_n; st >= 1 && k < c->hi; st--)
		if (c->ring[st])
			keep[k++] = c->ring[st];   /* (with its sectors) */
	memset(c->bits, 0, (c->ring_n / 64 + 1) * sizeof *c->bits);
	memset(c->mcnt, 0, (c->ring_n / 64 + 1) * sizeof *c->mcnt);
	memset(c->scnt, 0, (c->ring_n / 64 / SIM_L1_SUPER + 1) * sizeof *c->scnt);
	if (c->lines)
		memset(c->lines, 0, c->caplines * sizeof *c->lines);
	c->nlines = 0;
	memset(c->near, 0, sizeof c->near);
	for (uint32_t i = 0; i < k; i++) {
		uint32_t st = k - i;
		c->ring[st] = keep[i];
		*l1_stamp(c, RING_LINE(keep[i]) - 1, true) = st;
		mark(c, st, true);
	}
	c->t = c->marks = k;
	free(keep);
}

/* A touch of line (a load or store that goes through the L1): how likely
 * the line is still there, 1 or 0 outside the soft edge, the fraction
 * between; *had: the sectors it held (0 when it is not there at all), *st:
 * the line's stamp, the most recent, whose sectors sim_touch_lines sets.
 * The ring has room (l1_room). (Inlined into sim_touch_lines, its only
 * caller.) */
SIM_HOT double l1_touch(struct sim_l1 *c, uint64_t line, unsigned *had, uint32_t *st)
{
	uint32_t *stamp = l1_stamp(c, line, true);
	uint64_t dist = UINT64_MAX;   /* other lines touched since: none kept = far */
	*had = 0;
	if (*stamp && RING_LINE(c->ring[*stamp]) == line + 1) {
		dist = marks_after(c, *stamp);
		*had = RING_SECS(c->ring[*stamp]);
		unstamp(c, *stamp);
	}
	*stamp = *st = ++c->t;
	c->ring[*stamp] = line + 1;
	mark(c, *stamp, true);
	c->marks++;
	if (dist < c->lo)
		return 1;
	if (dist >= c->hi)
		return 0;
	return (double)(c->hi - dist) / (double)(c->hi - c->lo);
}

/* Makes room in the ring for n touches: compacted before an access rather
 * than during one, so that the stamps its lines get stay theirs until it
 * sets their sectors. (The lines compaction drops would miss either way,
 * but a few near the soft edge fall on the other side of it: with every
 * access taken as all four sectors, 10 of check_simt's 1472 loops moved
 * by 0.1 to 2.6 points against compaction during the access.) */
static void l1_room(struct sim_l1 *c, uint32_t n)
{
	if (c->ring_n - c->t < n)
		l1_compact(c);
}

/* A global atomic's lines leave the L1 (their data changes at the L2; the
 * L1 keeps no stale copy): their next load misses. Held-out 22's
 * bellman_ford_loop gathers distances from 64 KiB (an L1 of 240 KiB) and
 * updates some by atomicMin: ncu counts 38% of the gathers' sectors as
 * hits at 128 threads, 44% at 512. */
void sim_l1_evict_lines(struct sim *s, const uint64_t *lines, uint32_t n)
{
	struct sim_l1 *c = &s->l1;
	if (!c->cap)
		return;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t *stamp = l1_stamp(c, lines[i], false);
		if (stamp && *stamp && RING_LINE(c->ring[*stamp]) == lines[i] + 1) {
			unstamp(c, *stamp);
			*stamp = 0;
		}
	}
}

/* Touches the lines of an access in the L1 (unless .cg) and the L2: the
 * latency of the slowest (at least the L1's). Stores allocate in the L1
 * (write-through): they take its lines from the loads (the soft edge
 * above); .cg ones stop at the L2. A line's first touch comes from DRAM,
 * or from the L2 when the launch's data is there (px_simt_options.l2_warm).
 *
 * The L1 fills by the 32-byte sector: a line it holds (by its reuse
 * distance) holds the sectors touched since it came in, and a load of
 * another of its sectors misses to the L2 ("The L1 cache ... 128-byte
 * lines ... divided into four 32-byte sectors", CUDA C++ Best Practices
 * Guide, Coalesced Access to Global Memory: only the sectors requested are
 * read). secs: each line's sectors (bit k: bytes 32k to 32k + 31).
 * Held-out 4's gather_loop reads one word a lane of 64 Ki random words
 * (2,048 lines, 1.07 of an L1 of 240 KiB): ncu counts 50 to 60% of its
 * sectors as hits; the model had 94 to 98% by the line, 79 to 90% by the
 * sector (its lines stay longer than the GPU's do); of the 365 loops with
 * ncu's L1 counters, 31 of the 35 whose hit rate moved came closer.
 *
 * A load of a line whose data is still on its way from the L2 or DRAM
 * waits for it: a hit in the L1 or L2 tables does not make it come sooner
 * (and the wait, longer than an L1 hit, takes a miss slot: miss_wait).
 * l2warm_probe's edge_stencil_loop on cold data: its loads of row[tid - 1]
 * and row[tid + 1] meet the lines row[tid] asked for, and an unrolled
 * body of 12 loads issued together costs 2.3 DRAM latencies (382 cycles
 * an iteration at 128 threads); taken as L1 hits, 178.5 predicted. A line
 * is forgotten when another takes its entry (SIM_FLIGHT of them): it
 * then counts as arrived. *hits (unless NULL): the lines a load found in
 * the L1 with all their sectors. n <= 32 (one line a lane at most). */
double sim_touch_lines(struct sim *s, const uint64_t *lines, const uint8_t *secs, uint32_t n, bool is_st, bool cg,
                       uint32_t *hits)
{
	struct sim_l1 *c = &s->l1;
	double worst = s->lat_l1;
	uint32_t nhit = 0;
	if (c->cap && !cg)
		l1_room(c, n);
	for (uint32_t i = 0; i < n; i++) {
		double lt;
		unsigned want = secs[i], had = 0;
		uint32_t st = 0;
		bool in = false;   /* the L1 holds the line (its sectors had) */
		if (!cg && !c->cap) {
			in = lineset_has(&c->seen, lines[i], true);
			had = in ? 15 : 0;   /* (no capacity: by the line) */
		} else if (!cg) {
			double p = l1_touch(c, lines[i], &had, &st);
			in = p >= 1;
			if (p > 0 && p < 1) {
				/* the soft edge: by error diffusion */
				c->credit += p;
				in = c->credit >= 1;
				if (in)
					c->credit -= 1;
			}
			if (!in)
				had = 0;
			c->ring[st] |= (uint64_t)(had | want) << 60;
		}
		if (is_st) {
			lineset_has(&s->l2, lines[i], true);
			continue;
		}
		if (in && (had & want) == want) {
			lt = s->lat_l1;
			nhit++;
		} else if (lineset_has(&s->l2, lines[i], true))
			lt = s->lat_l2;
		else
			lt = s->opt->l2_warm ? s->lat_l2 : s->lat_dram;
		uint32_t h = (uint32_t)(slot_hash(lines[i]) & (SIM_FLIGHT - 1));
		if (s->fly_line[h] == lines[i] + 1 && s->fly_t[h] > s->cycle) {
			double left = (double)(s->fly_t[h] - s->cycle);
			if (left > lt)
				lt = left;
		} else if (lt > s->lat_l1) {
			s->fly_line[h] = lines[i] + 1;
			s->fly_t[h] = s->cycle + (uint64_t)(lt + 0.5);
		}
		if (lt > worst)
			worst = lt;
	}
	if (hits)
		*hits = nhit;
	return worst;
}
