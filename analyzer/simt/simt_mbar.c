/* simt_mbar.c: mbarrier objects in shared memory (PTX ISA, "Parallel
 * Synchronization and Communication Instructions: mbarrier") and the order
 * their phases give the threads' shared-memory accesses.
 *
 * An object holds the arrivals a phase expects, the arrivals the current
 * phase still waits for (pending), a transaction count in bytes and the
 * phases completed. A phase completes when its pending and transaction
 * counts are both 0; the next phase then waits for the expected count
 * again (arrive_drop lowers it for the phases after). The state an arrive
 * returns is opaque to the program: here the phase it arrived in (bits 0
 * to 31) and the pending count after it (bits 32 to 51; pending_count
 * reads it), bit 62 set.
 *
 * Waits: test_wait tells whether the phase of its state (.parity: the
 * phase of that parity, the current one or the one before) has completed;
 * try_wait the same, but the hardware waits for a while when it has not,
 * and the loop around it tries again. Here a warp whose wait of either
 * kind finds its phase incomplete waits (W_MBAR) until a phase of the
 * object completes, and issues the wait again: a loop that polls sees the
 * same answer until then (libcu++'s waits poll with test_wait before
 * sm_90), and a warp that would wait forever is a deadlock. (A program
 * that polls with test_wait and does the work that completes the phase
 * between polls is taken as deadlocked.)
 *
 * Order: a block barrier orders every access before it with every access
 * after (the epoch of simt_exec.c's shared_access); an mbarrier orders
 * only the accesses of the threads that arrived, before their arrival,
 * with those of a thread after its wait saw the phase complete. Each
 * thread keeps a vector clock (sim.vc): an arrive releases the thread's
 * clocks into the object's and ticks the thread's own; a completed wait
 * takes the object's clocks at the phase's completion; a __syncwarp joins
 * the clocks of its lanes. Every shared access records the thread's own
 * clock, and an access of another thread since the last block barrier is
 * ordered when the clock the accessing thread holds of that thread is at
 * least the recorded one (sim_hb_ordered). The clocks are cumulative, so a
 * wait that sees a later phase than the one it asked for takes that one's
 * arrivals too.
 *
 * cp.async.mbarrier.arrive: the thread's cp.async copies land, as at a
 * wait_all (they have arrived when the arrive counts), and an arrive
 * follows; without .noinc the pending count is raised by one first, so it
 * comes on top of the arrivals the phase expects.
 * cp.async.bulk from global to shared memory with
 * .mbarrier::complete_tx::bytes: the bytes are read and written when it
 * issues, by the issuing lane with clock 0 (ordered before whoever waits
 * for the phase), and stay in flight, as cp.async copies do (an access is
 * a shared-race), until the phase completes; its size completes that many
 * transaction bytes of the object.
 *
 * Timing: each operation issues as a shared atomic (the MIO). An object
 * takes a warp's arrival (its lanes together) every
 * throughput.mbarrier_arrive cycles, and the arrival counts
 * latency.mbarrier_arrive cycles after it was taken; a phase completes
 * when its last arrival counts, or the data of the copies it waits for
 * has come, whichever is later; a wait's answer comes
 * latency.mbarrier_wait cycles after it issues, or after the completion
 * of the phase it saw complete, and a warp that waited issues its wait
 * again at the completion (mbarrier_probe, ptxray-arch(5)).
 * Not modelled: objects of other thread blocks of a cluster (a cluster
 * of one block), tensor copies (cp.async.bulk.tensor), the time limit of
 * try_wait (a phase that completes late is waited for, never timed out). */
#include <stdio.h>
#include <string.h>

#include "simt_int.h"

/* The instruction's mbarrier form, from its opcode and modifiers. */
static void decode_one(struct sim_insn *si)
{
	const struct px_insn *in = si->in;
	if (in->op == PX_OP_CP) {
		if (sim_has_mod(in, ".mbarrier") && sim_has_mod(in, ".arrive") && sim_has_mod(in, ".async")) {
			si->mbar = MB_CP_ARRIVE;
			si->mbar_fl = sim_has_mod(in, ".noinc") ? MBF_NOINC : 0;
		} else if (sim_has_mod(in, ".bulk") && sim_has_mod(in, ".global") && !sim_has_mod(in, ".tensor") &&
		           sim_has_mod(in, ".mbarrier::complete_tx::bytes") &&
		           (sim_has_mod(in, ".shared::cluster") || sim_has_mod(in, ".shared::cta")) && si->nop >= 4 &&
		           si->op[0].kind == PX_OPND_ADDR && si->op[1].kind == PX_OPND_ADDR &&
		           si->op[3].kind == PX_OPND_ADDR) {
			si->mbar = MB_BULK;
		}
		return;
	}
	if (in->op != PX_OP_MBARRIER)
		return;
	uint8_t fl = 0;
	enum sim_mb k = MB_NONE;
	if (sim_has_mod(in, ".init"))
		k = MB_INIT;
	else if (sim_has_mod(in, ".inval"))
		k = MB_INVAL;
	else if (sim_has_mod(in, ".arrive") || sim_has_mod(in, ".arrive_drop")) {
		k = MB_ARRIVE;
		fl |= sim_has_mod(in, ".arrive_drop") ? MBF_DROP : 0;
		fl |= sim_has_mod(in, ".expect_tx") ? MBF_EXPECT : 0;
		fl |= sim_has_mod(in, ".noComplete") ? MBF_NOCOMPLETE : 0;
	} else if (sim_has_mod(in, ".expect_tx"))
		k = MB_EXPECT_TX;
	else if (sim_has_mod(in, ".complete_tx"))
		k = MB_COMPLETE_TX;
	else if (sim_has_mod(in, ".test_wait"))
		k = MB_TEST_WAIT;
	else if (sim_has_mod(in, ".try_wait"))
		k = MB_TRY_WAIT;
	else if (sim_has_mod(in, ".pending_count"))
		k = MB_PENDING_COUNT;
	if (k == MB_TEST_WAIT || k == MB_TRY_WAIT)
		fl |= sim_has_mod(in, ".parity") ? MBF_PARITY : 0;
	/* the operands each form needs: the object's address, where it has
	 * one, first or after the result */
	int ao = k == MB_INIT || k == MB_INVAL || k == MB_EXPECT_TX || k == MB_COMPLETE_TX ? 0 : 1;
	bool ok = k == MB_PENDING_COUNT ? si->nop == 2
	        : k != MB_NONE && si->nop > ao && si->op[ao].kind == PX_OPND_ADDR;
	if (ok && (k == MB_INIT || k == MB_EXPECT_TX || k == MB_COMPLETE_TX || (fl & MBF_EXPECT)))
		ok = si->nop > ao + 1;
	if (ok && (k == MB_TEST_WAIT || k == MB_TRY_WAIT))
		ok = si->nop >= 3;
	if (!ok)
		return;
	si->mbar = (uint8_t)k;
	si->mbar_fl = fl;
	si->pipe = si->lat_pipe = k == MB_PENDING_COUNT ? P_ALU : P_SHARED;
}

void sim_mbar_decode(struct sim *s)
{
	for (uint32_t i = 0; i < s->nins; i++)
		decode_one(&s->ins[i]);
}

void sim_mbar_setup(struct sim *s)
{
	bool any = false;
	for (uint32_t i = 0; i < s->nins; i++)
		any |= s->ins[i].mbar != MB_NONE || s->ins[i].sync_mem;   /* (simt_its.c's sync words too) */
	if (!any || !s->nwarps)
		return;
	uint32_t n = s->nwarps * 32;
	s->nvc = n;
	s->vc = xcalloc((size_t)n * (n + 1), sizeof *s->vc);   /* (row n: sim_mbar_warp_sync's) */
	for (uint32_t t = 0; t < n; t++)
		s->vc[(size_t)t * n + t] = 1;
	s->sh.wclk = xcalloc(s->sh.nwords + 1, sizeof *s->sh.wclk);
	s->sh.rclk = xcalloc(s->sh.nwords + 1, sizeof *s->sh.rclk);
	s->sh.npend++;   /* (held for good: every access takes shared_access, which keeps the clocks) */
}

void sim_mbar_free(struct sim *s)
{
	for (uint32_t i = 0; i < s->nmbar; i++) {
		free(s->mbar[i].vc);
		free(s->mbar[i].vc_done);
		free(s->mbar[i].bulk);
	}
	free(s->mbar);
	free(s->vc);
	s->mbar = NULL;
	s->vc = NULL;
	s->nmbar = 0;
}

/* The object at shared byte offset off (NULL when none was initialised
 * there; create: a new one). */
static struct sim_mbar *find(struct sim *s, uint64_t off, bool create)
{
	for (uint32_t i = 0; i < s->nmbar; i++)
		if (s->mbar[i].off == off)
			return &s->mbar[i];
	if (!create)
		return NULL;
	struct sim_mbar *m = PX_VEC_PUSH(s->mbar, s->nmbar, s->capmbar);
	memset(m, 0, sizeof *m);
	m->off = off;
	if (s->vc) {
		m->vc = xcalloc(s->nvc, sizeof *m->vc);
		m->vc_done = xcalloc(s->nvc, sizeof *m->vc_done);
	}
	return m;
}

/* Thread t's arrival releases its clocks into m's, and ticks its own. */
static void release(struct sim *s, struct sim_mbar *m, uint32_t t)
{
	if (!s->vc || t >= s->nvc)
		return;
	uint32_t *v = &s->vc[(size_t)t * s->nvc];
	for (uint32_t u = 0; u < s->nvc; u++)
		m->vc[u] = v[u] > m->vc[u] ? v[u] : m->vc[u];
	v[t]++;
}

/* Thread t saw m's last phase complete: it takes that phase's clocks. */
static void acquire(struct sim *s, const struct sim_mbar *m, uint32_t t)
{
	if (!s->vc || t >= s->nvc)
		return;
	uint32_t *v = &s->vc[(size_t)t * s->nvc];
	for (uint32_t u = 0; u < s->nvc; u++)
		v[u] = m->vc_done[u] > v[u] ? m->vc_done[u] : v[u];
}

void sim_mbar_warp_sync(struct sim *s, const struct sim_warp *w, uint32_t mask)
{
	if (!s->vc || !mask)
		return;
	uint32_t n = s->nvc, t0 = w->id * 32;
	uint32_t *j = &s->vc[(size_t)n * n];   /* the join, in the row past the threads' */
	memset(j, 0, n * sizeof *j);
	for (uint32_t m = mask; m; m &= m - 1) {
		const uint32_t *v = &s->vc[(size_t)(t0 + (uint32_t)__builtin_ctz(m)) * n];
		for (uint32_t u = 0; u < n; u++)
			j[u] = v[u] > j[u] ? v[u] : j[u];
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t t = t0 + (uint32_t)__builtin_ctz(m);
		uint32_t own = s->vc[(size_t)t * n + t];
		memcpy(&s->vc[(size_t)t * n], j, n * sizeof *j);
		s->vc[(size_t)t * n + t] = own;
	}
}

/* The warps waiting on object m (W_MBAR, bar_id its index). */
static uint32_t waiters(const struct sim *s, const struct sim_mbar *m)
{
	uint32_t k = (uint32_t)(m - s->mbar), wake = 0;
	for (uint32_t i = 0; i < s->nwarps; i++)
		if (s->w[i].state == W_MBAR && s->w[i].bar_id == k)
			wake |= 1u << i;
	return wake;
}

/* m's phase completes when nothing is pending: the next one begins, the
 * copies it waited for land, the warps waiting on it are woken. */
static void maybe_complete(struct sim *s, struct sim_mbar *m, uint32_t *wake)
{
	if (m->pending || m->tx)
		return;
	m->phase++;
	m->pending = m->count;
	m->done_at = m->ready > s->cycle ? m->ready : s->cycle;
	if (s->vc)
		memcpy(m->vc_done, m->vc, s->nvc * sizeof *m->vc);
	for (uint32_t i = 0; i < m->nbulk; i++) {
		const struct sim_mbulk *b = &m->bulk[i];
		for (uint64_t wd = b->dst >> 2; wd < (b->dst >> 2) + b->words && wd < s->sh.nwords; wd++)
			if (s->sh.cp_pend[wd]) {
				s->sh.cp_pend[wd]--;
				s->sh.npend--;
			}
	}
	m->nbulk = 0;
	*wake |= waiters(s, m);
}

/* Lane l of warp w at pc: the object its address operand ao names, with
 * the checks of an access of its 8 bytes (init: a write; the rest: an
 * atomic update, which races with an init no barrier orders). NULL, the
 * result unknown, when the address is unknown or nothing was initialised
 * there. */
static struct sim_mbar *object(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t l, int ao, bool init)
{
	const struct sim_insn *si = &s->ins[pc];
	uint64_t off;
	if (!sim_lane_shared(s, w, &si->op[ao], si->in->space, l, &off)) {
		sim_note(s, pc, "the mbarrier's address is unknown or not in shared memory: the operation is skipped");
		sim_guess(s, pc);
		return NULL;
	}
	struct sim_mbar *m = find(s, off, false);
	uint32_t t = w->id * 32 + l;
	char t0[48], l0[160];
	if (!init && (!m || !m->valid)) {
		sim_violation(s, PX_V_UNINIT_SHARED, pc, t, t,
		              "thread %s uses an mbarrier at shared byte offset %llu at %s that %s",
		              sim_thread(s, t, t0), (unsigned long long)off, sim_where(s, pc, l0),
		              m ? "mbarrier.inval invalidated" : "no mbarrier.init has initialised");
		sim_guess(s, pc);   /* its results unknown: what follows is a guess */
		return NULL;
	}
	uint64_t v = init ? 0 : 1;
	bool unk = false;
	if (off % 8) {
		sim_note(s, pc, "an mbarrier object's address is not a multiple of 8: the operation is skipped");
		return NULL;
	}
	if (!sim_shared_access(s, w, pc, l, off, 8, true, !init, &v, &unk))
		return NULL;
	return init ? find(s, off, true) : m;
}

/* The phase of an arrive's state, or the parity given, completed: the
 * wait's answer for object m. */
static bool phase_done(const struct sim_mbar *m, uint64_t st, bool parity)
{
	if (parity)
		return (m->phase & 1) != (st & 1);
	return m->phase > (uint32_t)st;
}

/* The cycle the copies of warp w's cp.async groups end, at the latest. */
static uint64_t copies_end(const struct sim_warp *w)
{
	uint64_t t = w->cp_open_end;
	for (uint32_t g = 0; g < SIM_CP_RING; g++)
		t = w->cp_end[g] > t ? w->cp_end[g] : t;
	return t;
}

/* The cycle a warp's arrival on m issued now counts: the object takes
 * one arrival (a warp's lanes together) every throughput.mbarrier_arrive
 * cycles, and it counts latency.mbarrier_arrive after. */
static void arrival_time(struct sim *s, struct sim_mbar *m)
{
	uint64_t at = m->unit_free > s->cycle ? m->unit_free : s->cycle;
	m->unit_free = at + (uint64_t)(s->mb_gap + 0.5);
	uint64_t counts = at + (uint64_t)(s->mb_lat + 0.5);
	m->ready = counts > m->ready ? counts : m->ready;
}

/* One arrival of count (drop: arrive_drop) by thread t on m. */
static void arrive(struct sim *s, struct sim_mbar *m, uint32_t pc, uint32_t t, uint32_t count, bool drop,
                   uint32_t *wake)
{
	if (count > m->pending) {
		sim_note(s, pc, "an mbarrier arrive counts more arrivals than its phase still waits for (undefined "
		         "behaviour): the phase completes");
		count = m->pending;
	}
	release(s, m, t);
	m->pending -= count;
	if (drop)
		m->count = count > m->count ? 0 : m->count - count;
	maybe_complete(s, m, wake);
}

bool sim_mbar_exec(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t mask, double *lat, double *occ,
                   uint32_t *wake)
{
	const struct sim_insn *si = &s->ins[pc];
	unsigned k = si->mbar, fl = si->mbar_fl;
	*lat = s->lat[P_SHARED];
	*occ = s->occ[P_SHARED];
	uint32_t dst = si->nop && si->op[0].kind == PX_OPND_REG ? si->op[0].slot : UINT32_MAX;
	if (k == MB_PENDING_COUNT) {
		*lat = s->lat[P_ALU];
		*occ = s->occ[P_ALU];
		for (uint32_t mm = mask; mm; mm &= mm - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(mm);
			bool unk = false;
			uint64_t st = sim_lane_val(s, w, &si->op[1], l, &unk);
			sim_lane_write(w, dst, l, st >> 32 & 0xfffff, unk || !(st >> 62 & 1));
		}
		return false;
	}
	if (k == MB_BULK) {
		double busy = 0;
		const struct sim_opnd *so = &si->op[1];
		for (uint32_t mm = mask; mm; mm &= mm - 1) {
			uint32_t l = (uint32_t)__builtin_ctz(mm);
			bool unk = false;
			uint64_t size = sim_lane_val(s, w, &si->op[2], l, &unk), d;
			struct sim_mbar *m = object(s, w, pc, l, 3, false);
			if (!m)
				continue;
			bool su = so->slot != UINT32_MAX && (w->unk[so->slot] >> l & 1);
			uint64_t src = so->imm + (so->slot != UINT32_MAX ? w->val[(size_t)so->slot * 32 + l] : 0);
			if (unk || !sim_lane_shared(s, w, &si->op[0], PX_SPACE_SHARED, l, &d)) {
				sim_note(s, pc, "a cp.async.bulk's size or destination is unknown: the copy is skipped, its "
				         "mbarrier's phase left waiting");
				sim_guess(s, pc);
				continue;
			}
			if (size > s->sh_limit)
				size = s->sh_limit;
			s->mb_landing = true;
			for (uint64_t b = 0; b + 4 <= size; b += 4) {
				bool u = su;
				uint64_t v = su ? 0 : sim_global_read(s, src + b, 4, &u);
				if (!sim_shared_access(s, w, pc, l, d + b, 4, true, false, &v, &u))
					break;
			}
			s->mb_landing = false;
			struct sim_mbulk *bk = PX_VEC_PUSH(m->bulk, m->nbulk, m->capbulk);
			*bk = (struct sim_mbulk){.dst = d, .words = (uint32_t)(size / 4), .pc = pc};
			for (uint64_t wd = d >> 2; wd < (d + size) >> 2 && wd < s->sh.nwords; wd++) {
				s->sh.cp_pend[wd]++;
				s->sh.npend++;
			}
			/* its time: a load of its lines, 32 at a time (as one lane
			 * each, a line apart) */
			double blat = 0;
			for (uint64_t a = src & ~127ull; a < src + size && !su; a += 32 * 128) {
				int64_t addrs[32];
				uint32_t known = 0;
				for (uint32_t i = 0; i < 32 && a + 128 * i < src + size; i++) {
					addrs[i] = (int64_t)(a + 128 * i);
					known |= 1u << i;
				}
				double cl = 0, co = 0;
				sim_copy_cost(s, w, pc, addrs, known, 16, &cl, &co);
				blat = cl > blat ? cl : blat;
				busy += co;
			}
			uint64_t end = s->cycle + (uint64_t)(blat + 0.5);
			m->ready = end > m->ready ? end : m->ready;
			m->tx -= (int64_t)size;
			maybe_complete(s, m, wake);
		}
		*lat = s->lat[P_ALU];   /* no register waits for it */
		*occ = busy > 1 ? busy : 1;
		return false;
	}
	int ao = k == MB_INIT || k == MB_INVAL || k == MB_EXPECT_TX || k == MB_COMPLETE_TX || k == MB_CP_ARRIVE ? 0 : 1;
	if (k == MB_CP_ARRIVE)
		sim_cp_land_all(s, w, mask);
	bool block = false;
	uint32_t blocked_on = 0;
	const struct sim_mbar *timed = NULL;   /* the object this warp's arrival was timed on */
	bool timed_wait = false;
	for (uint32_t mm = mask; mm; mm &= mm - 1) {
		uint32_t l = (uint32_t)__builtin_ctz(mm), t = w->id * 32 + l;
		bool unk = false;
		uint64_t x = si->nop > ao + 1 ? sim_lane_val(s, w, &si->op[ao + 1], l, &unk) : 1;
		struct sim_mbar *m = object(s, w, pc, l, ao, k == MB_INIT);
		if (!m) {
			if (dst != UINT32_MAX)
				sim_lane_write(w, dst, l, 0, true);
			continue;
		}
		if (unk && k != MB_INVAL) {
			sim_note(s, pc, "an mbarrier operand depends on an unknown value: the operation is skipped");
			sim_guess(s, pc);
			if (dst != UINT32_MAX)
				sim_lane_write(w, dst, l, 0, true);
			continue;
		}
		bool arrives = k == MB_ARRIVE || k == MB_CP_ARRIVE || k == MB_COMPLETE_TX;
		if (arrives && m != timed) {
			arrival_time(s, m);
			timed = m;
		}
		switch (k) {
		case MB_INIT:
			/* (PTX ISA, mbarrier.init: the current phase 0, the
			 * pending count the expected one, tx-count 0) */
			m->count = m->pending = (uint32_t)(x & 0xfffff);
			m->tx = 0;
			m->phase = 0;
			m->valid = true;
			m->init_pc = pc;
			m->nbulk = 0;
			break;
		case MB_INVAL:
			m->valid = false;
			break;
		case MB_EXPECT_TX:
			m->tx += (int64_t)(x & 0xfffff);
			break;
		case MB_COMPLETE_TX:
			m->tx -= (int64_t)(x & 0xfffff);
			maybe_complete(s, m, wake);
			break;
		case MB_ARRIVE: {
			uint32_t phase = m->phase, count = 1;
			if (fl & MBF_EXPECT)
				m->tx += (int64_t)(x & 0xfffff);
			else if (si->nop > 2)
				count = (uint32_t)(x & 0xfffff);
			arrive(s, m, pc, t, count, fl & MBF_DROP, wake);
			uint32_t left = m->phase != phase ? 0 : m->pending;
			sim_lane_write(w, dst, l, phase | (uint64_t)left << 32 | 1ull << 62, false);
			break;
		}
		case MB_CP_ARRIVE: {
			uint64_t end = copies_end(w);
			m->ready = end > m->ready ? end : m->ready;
			if (!(fl & MBF_NOINC))
				m->pending++;
			arrive(s, m, pc, t, 1, false, wake);
			break;
		}
		case MB_TEST_WAIT: case MB_TRY_WAIT: {
			if (!timed_wait) {   /* (the answer's latency, not the shared atomic's) */
				*lat = s->mb_wait;
				timed_wait = true;
			}
			bool state_ok = (fl & MBF_PARITY) || (x >> 62 & 1);
			bool ok = state_ok && phase_done(m, x, fl & MBF_PARITY);
			if (!ok && state_ok) {
				block = true;
				blocked_on = (uint32_t)(m - s->mbar);
				break;
			}
			if (ok) {
				acquire(s, m, t);
				double l2 = (double)(m->done_at > s->cycle ? m->done_at - s->cycle : 0) + s->mb_wait;
				*lat = l2 > *lat ? l2 : *lat;
			}
			sim_lane_write(w, dst, l, ok, !state_ok);
			break;
		}
		default:
			break;
		}
		if (block)
			break;
	}
	if (block) {
		w->bar_id = blocked_on;
		w->bar_pc = pc;
	}
	return block;
}

void sim_mbar_deadlock(struct sim *s, const struct sim_warp *w)
{
	const struct sim_mbar *m = w->bar_id < s->nmbar ? &s->mbar[w->bar_id] : NULL;
	if (!m)
		return;
	char t0[48], l0[160], tx[64] = "";
	if (m->tx > 0)
		snprintf(tx, sizeof tx, " and %lld transaction bytes", (long long)m->tx);
	struct px_simt_violation *v = sim_violation(
		s, PX_V_DEADLOCK, w->bar_pc, w->id * 32, w->id * 32,
		"warp %u (thread %s) waits at %s for a phase of the mbarrier at shared byte offset %llu that never "
		"completes: its phase %u still waits for %u of %u arrivals%s, and every other warp waits or has "
		"exited", w->id, sim_thread(s, w->id * 32, t0), sim_where(s, w->bar_pc, l0),
		(unsigned long long)m->off, m->phase, m->pending, m->count, tx);
	if (v && m->init_pc < s->nins)
		v->other_line = s->ins[m->init_pc].in->line;
}

uint32_t sim_mbar_bulk_to(const struct sim *s, uint64_t wd)
{
	for (uint32_t i = 0; i < s->nmbar; i++)
		for (uint32_t k = 0; k < s->mbar[i].nbulk; k++) {
			const struct sim_mbulk *b = &s->mbar[i].bulk[k];
			if (wd >= b->dst >> 2 && wd < (b->dst >> 2) + b->words)
				return b->pc;
		}
	return UINT32_MAX;
}
