/* simt_its.c: independent thread scheduling (compute capability 7.0 and
 * newer) on the simulator's reconvergence stack.
 *
 * The stack runs one path of a diverged warp until it reaches its
 * reconvergence point, as a pre-Volta GPU does. Where a path waits for
 * another lane of its own warp (a spin lock, a flag one lane publishes)
 * that never ends: the lanes it waits for run only after it. Since Volta
 * each thread has its own program counter and the GPU may "yield
 * execution at a per-thread granularity ... to allow one thread to wait
 * for data to be produced by another" (CUDA C++ Programming Guide,
 * "Independent Thread Scheduling", compute capability 7.x). ptxas marks
 * where: a YIELD instruction in each loop whose exit waits on memory
 * (bench/gpu/simt/its_probe.cu's SASS: the spin loops of atomicCAS and of
 * volatile loads; elsewhere in the committed fixtures' SASS only
 * mbarrier_probe's try_wait loops have one, which simt_mbar.c handles),
 * and the H100 and H200 complete every such probe kernel at every block
 * size.
 *
 * The model keeps the stack and adds what a yield does, at the back edge
 * of such a loop (sim_insn.spin_edge) when the path goes round again and
 * lanes of its warp outside it could run:
 * - a path still to run below it (a sibling, or another path a yield made)
 *   takes its place on top, and it goes below that one;
 * - else the lanes waiting at its reconvergence point (the frame below,
 *   parked there) run ahead of it: they leave that frame for a new one on
 *   top (SIM_FR_AHEAD), from that point on to the frame's own.
 * Lanes running ahead go back into the frame they left when they come
 * round to where it waits (the loop's head: a lock taken again), and
 * stop where they need the rest of the warp (a block barrier,
 * bar.warp.sync, a .sync warp-wide operation whose membermask names lanes
 * they do not have): they park there (SIM_FR_PARKED) below the frame they
 * left, which takes them in when it reaches that instruction
 * (sim_its_settle). Lanes running ahead that spin themselves park where
 * they spin. While any frame of a warp carries a flag, its lookahead is
 * off (simt.c): the instructions it issues early belong to the lanes of
 * one frame. Timing: a yield costs the switch of paths
 * (latency.path_switch), as a path that ends does. Pre-Volta targets keep
 * the plain stack, where such a loop that goes round while lanes of its
 * warp wait for it is reported as a deadlock (stuck).
 * The last part of the file: the order such code gives shared accesses
 * (sync words). */
#include <string.h>

#include "simt_int.h"

/* ---- which loops wait on memory ---- */

/* A strong memory operation (PTX ISA, "Memory Consistency Model",
 * "Operation types": atomics, and loads and stores with .relaxed,
 * .acquire, .release or .volatile, which has .relaxed.sys's semantics). */
static bool strong(const struct sim_insn *c)
{
	const struct px_insn *in = c->in;
	if (c->flags & PX_OPF_ATOMIC)
		return true;
	if (!(c->flags & (PX_OPF_LOAD | PX_OPF_STORE)))
		return false;
	return sim_has_mod(in, ".volatile") || sim_has_mod(in, ".relaxed") || sim_has_mod(in, ".acquire") ||
	       sim_has_mod(in, ".release");
}

/* A read whose value another thread may change while the loop runs: a
 * strong operation with a result (the loads ptxas may not keep in a
 * register from one iteration to the next). mbarrier waits are
 * simt_mbar.c's. */
static bool waits_on_memory(const struct sim_insn *c)
{
	return c->ndefs && strong(c);
}

/* Whether a register of want (true) gets its value, within loop l, from
 * such a read: through the loop's instructions that write a wanted
 * register, whose sources are wanted in turn (want is changed). */
static bool from_memory(struct sim *s, const struct px_loop *lp, bool *want)
{
	const struct px_func *f = s->f;
	bool found = false;
	for (bool more = true; more;) {
		more = false;
		for (uint32_t k = 0; k < lp->nblocks; k++) {
			const struct px_block *b = &f->blocks[lp->blocks[k]];
			for (uint32_t i = b->first; i < b->end; i++) {
				struct sim_insn *c = &s->ins[i];
				bool feeds = false;
				for (uint32_t d = 0; d < c->ndefs && !feeds; d++)
					feeds = want[c->defs[d]];
				if (!feeds)
					continue;
				if (waits_on_memory(c)) {
					c->poll = true;   /* (the loop polls with it) */
					found = true;
					continue;
				}
				for (uint32_t u = 0; u < c->nuses; u++)
					if (!want[c->uses[u]]) {
						want[c->uses[u]] = true;
						more = true;
					}
			}
		}
	}
	return found;
}

/* Whether branch c (in loop lp) leaves the loop when taken or not. */
static bool exits(const struct sim *s, const struct px_loop *lp, const struct sim_insn *c)
{
	const struct px_func *f = s->f;
	uint32_t i = (uint32_t)(c - s->ins);
	bool out = c->target == UINT32_MAX || !sim_loop_has_block(lp, f->insns[c->target].block);
	if (c->in->guard >= 0)
		out |= i + 1 >= s->nins || !sim_loop_has_block(lp, f->insns[i + 1].block);
	return out;
}

/* Whether back edge c of loop lp goes round while memory says so: its
 * predicate (a conditional one), else the predicate of a branch that
 * leaves the loop, comes from a read of memory other threads write. */
static bool spin_edge(struct sim *s, const struct px_loop *lp, const struct sim_insn *c, bool *want)
{
	const struct px_func *f = s->f;
	memset(want, 0, (s->nslots + 1) * sizeof *want);
	if (c->in->guard >= 0) {
		for (uint32_t u = 0; u < c->nuses; u++)
			want[c->uses[u]] = true;
		return from_memory(s, lp, want);
	}
	for (uint32_t k = 0; k < lp->nblocks; k++) {
		const struct px_block *b = &f->blocks[lp->blocks[k]];
		if (b->end <= b->first)
			continue;
		const struct sim_insn *e = &s->ins[b->end - 1];
		if ((e->flags & PX_OPF_BRANCH) && e->in->guard >= 0 && exits(s, lp, e))
			for (uint32_t u = 0; u < e->nuses; u++)
				want[e->uses[u]] = true;
	}
	return from_memory(s, lp, want);
}

void sim_its_mark(struct sim *s)
{
	const struct px_func *f = s->f;
	if (!f->nloops)
		return;
	bool *want = xmalloc((s->nslots + 1) * sizeof *want);
	for (uint32_t l = 0; l < f->nloops; l++) {
		const struct px_loop *lp = &f->loops[l];
		uint32_t head = f->blocks[lp->header].first;
		for (uint32_t k = 0; k < lp->nlatches; k++) {
			const struct px_block *b = &f->blocks[lp->latches[k]];
			if (b->end <= b->first)
				continue;
			struct sim_insn *c = &s->ins[b->end - 1];
			if ((c->flags & PX_OPF_BRANCH) && c->target == head && spin_edge(s, lp, c, want)) {
				c->spin_edge = true;
				/* a loop that tests at its top (an unconditional back
				 * edge): ptxas tests once before it, its YIELD runs
				 * from the first retry on (simt.c's spin_yield) */
				for (uint32_t bi = 0; c->in->guard < 0 && bi < lp->nblocks; bi++) {
					const struct px_block *pb = &f->blocks[lp->blocks[bi]];
					for (uint32_t i = pb->first; i < pb->end; i++)
						s->ins[i].poll_peeled |= s->ins[i].poll;
				}
			}
		}
	}
	free(want);
	/* a kernel that waits on memory synchronises through it: its strong
	 * shared accesses order the threads' other accesses (sync words) */
	bool spins = false;
	for (uint32_t i = 0; i < s->nins; i++)
		spins |= s->ins[i].spin_edge;
	s->its_sync = spins;
	for (uint32_t i = 0; spins && i < s->nins; i++) {
		struct sim_insn *c = &s->ins[i];
		unsigned sp = c->in->space;
		c->sync_mem = c->ek == EK_MEM && strong(c) && (sp == PX_SPACE_NONE || sp == PX_SPACE_SHARED ||
		                                                sp == PX_SPACE_SHARED_CTA);
	}
}

/* ---- the stack ---- */

static uint32_t live(const struct sim_warp *w)
{
	return w->exists & ~w->exited;
}

static void set_fl(struct sim_warp *w, struct sim_frame *fr, uint8_t fl)
{
	w->its_frames += (fl != 0) - (fr->fl != 0);
	fr->fl = fl;
}

/* Removes frame i, the frames above it moving down. */
static struct sim_frame take(struct sim_warp *w, uint32_t i)
{
	struct sim_frame fr = w->stk[i];
	memmove(&w->stk[i], &w->stk[i + 1], (w->nstk - i - 1) * sizeof *w->stk);
	w->nstk--;
	return fr;
}

/* Puts fr at index i, the frames from i on moving up (room: the caller
 * took a frame out). */
static void put(struct sim_warp *w, uint32_t i, struct sim_frame fr)
{
	memmove(&w->stk[i + 1], &w->stk[i], (w->nstk - i) * sizeof *w->stk);
	w->stk[i] = fr;
	w->nstk++;
}

/* The frame the top frame t split off from (the split took t's lanes out
 * of it and of the frames above it): the first below, not parked, with
 * t's rpc. */
static int32_t home(const struct sim_warp *w, const struct sim_frame *t)
{
	int32_t i = (int32_t)w->nstk - 2;
	while (i >= 0 && ((w->stk[i].fl & SIM_FR_PARKED) || w->stk[i].rpc != t->rpc))
		i--;
	return i;
}

/* The top frame, split off from frame h, parks at its pc: below h, or
 * with lanes parked there already. */
static void park(struct sim_warp *w, int32_t h)
{
	struct sim_frame fr = take(w, w->nstk - 1);
	w->its_frames -= fr.fl != 0;
	struct sim_frame *below = h > 0 ? &w->stk[h - 1] : NULL;
	if (below && (below->fl & SIM_FR_PARKED) && below->pc == fr.pc && below->rpc == fr.rpc) {
		below->mask |= fr.mask;
		return;
	}
	fr.fl = SIM_FR_PARKED;
	w->its_frames++;
	put(w, (uint32_t)h, fr);
}

/* Pre-Volta: spins of one path of a warp in a row while other lanes of
 * its warp wait (below it on the stack) before it is taken for one that
 * never ends: a lock or flag another warp holds is given back long before
 * (its_probe.cu's locks hand over in under 3,000 cycles at 32 warps) */
#define SIM_SPINS_STUCK 10000   /* (100,000 outlasted lint's budget of 1 M warp-instructions) */

/* Pre-Volta (no yields): w's top frame took spin edge pc while lanes of
 * its warp wait below it. The same frame going round SIM_SPINS_STUCK times
 * is a deadlock: it may be waiting for them, and they cannot run before it
 * reconverges (the run stops). */
static void stuck(struct sim *s, struct sim_warp *w, uint32_t pc)
{
	const struct sim_frame *t = &w->stk[w->nstk - 1];
	if (w->spin_pc != pc || w->spin_mask != t->mask || w->spin_depth != w->nstk) {
		w->spin_pc = pc;
		w->spin_mask = t->mask;
		w->spin_depth = w->nstk;
		w->spins = 0;
	}
	if (++w->spins < SIM_SPINS_STUCK)
		return;
	uint32_t others = live(w) & ~t->mask;
	uint32_t t0 = w->id * 32 + (uint32_t)__builtin_ctz(t->mask);
	uint32_t t1 = w->id * 32 + (uint32_t)__builtin_ctz(others);
	char n0[48], n1[48];
	sim_violation(s, PX_V_DEADLOCK, pc, t0, t1,
	              "thread %s goes round this loop %u times in a row, waiting on memory, while thread %s of "
	              "its warp waits for it to reconverge: before compute capability 7.0 a warp runs one path "
	              "until it reconverges, so a loop that waits for lanes of its own warp (a spin lock, a flag "
	              "one lane sets) never ends (independent thread scheduling, sm_70 and newer, runs them)",
	              sim_thread(s, t0, n0), SIM_SPINS_STUCK, sim_thread(s, t1, n1));
	s->stop = true;
	s->stop_reason = "deadlock";
}

bool sim_its_yield(struct sim *s, struct sim_warp *w, uint32_t pc)
{
	if (w->nstk < 2)
		return false;
	struct sim_frame *t = &w->stk[w->nstk - 1];
	if (!(live(w) & ~t->mask))
		return false;
	if (!s->its) {
		stuck(s, w, pc);
		return false;
	}
	if (t->fl & SIM_FR_AHEAD) {
		/* lanes that ran ahead wait in a loop of their own: they park
		 * there, for the lanes they left to come */
		int32_t h = home(w, t);
		if (h < 0)
			return false;
		park(w, h);
		return true;
	}
	struct sim_frame *b = &w->stk[w->nstk - 2];
	if (b->fl & SIM_FR_PARKED)
		return false;   /* (they wait for these) */
	if (!b->fl && b->rpc == t->rpc && b->pc != t->rpc) {
		/* a path still to run, which rejoins where this one does: it
		 * goes first */
		struct sim_frame x = *t;
		*t = *b;
		*b = x;
		return true;
	}
	if (b->pc != t->rpc)
		return false;
	/* b holds t's lanes until they reach its pc, where its others wait:
	 * these go on from there in the frame that takes them on (b, or,
	 * below a b whose pc is its rpc, a frame that only waits for its
	 * paths to end, the first that holds them and does not; lanes that
	 * ran ahead and split again at a lock hold theirs in one that runs
	 * ahead itself) */
	uint32_t p = b->mask & ~t->mask & live(w);
	if (!p)
		return false;
	int32_t i = (int32_t)w->nstk - 2;
	while (i >= 0 && (!(w->stk[i].mask & p) || w->stk[i].pc == w->stk[i].rpc))
		i--;
	if (i < 0 || w->stk[i].pc != b->pc || (w->stk[i].fl & SIM_FR_PARKED))
		return false;
	struct sim_frame n = {b->pc, w->stk[i].rpc, p, 0};
	for (uint32_t j = (uint32_t)i; j < w->nstk - 1; j++)
		w->stk[j].mask &= ~p;
	struct sim_frame *fr = PX_VEC_PUSH(w->stk, w->nstk, w->capstk);
	*fr = n;
	set_fl(w, fr, SIM_FR_AHEAD);
	return true;
}

/* The lanes instruction pc needs besides the ones that run it: a block
 * barrier all of the warp's, bar.warp.sync and the .sync warp-wide
 * operations those their membermask names (all when it is not an
 * immediate). */
static uint32_t needs(const struct sim *s, const struct sim_warp *w, uint32_t pc)
{
	if (pc >= s->nins)
		return 0;
	const struct sim_insn *c = &s->ins[pc];
	const struct px_insn *in = c->in;
	if (c->block_bar)
		return live(w);
	bool warp_sync = ((in->op == PX_OP_BAR || in->op == PX_OP_BARRIER) && (in->mods & PX_MOD_WARP)) ||
	                 ((c->flags & PX_OPF_WARP) && (in->mods & PX_MOD_SYNC));
	if (!warp_sync)
		return 0;
	const struct sim_opnd *mo = c->nop ? &c->op[c->nop - 1] : NULL;
	uint32_t m = mo && mo->kind == PX_OPND_IMM ? (uint32_t)mo->imm : UINT32_MAX;
	return m & live(w);
}

bool sim_its_settle(struct sim *s, struct sim_warp *w)
{
	if (!w->nstk)
		return false;
	struct sim_frame *t = &w->stk[w->nstk - 1];
	/* parked lanes on top: what they waited for left the frame they are
	 * in another way: they go on alone */
	if (t->fl & SIM_FR_PARKED) {
		set_fl(w, t, 0);
		return false;
	}
	if (w->nstk < 2)
		return false;
	struct sim_frame *b = &w->stk[w->nstk - 2];
	/* lanes parked where the top is, for it: they join it */
	if ((b->fl & SIM_FR_PARKED) && b->pc == t->pc && b->rpc == t->rpc) {
		uint32_t m = b->mask;
		set_fl(w, b, 0);
		struct sim_frame top = take(w, w->nstk - 1);
		top.mask |= m;
		w->stk[w->nstk - 1] = top;
		return true;
	}
	if (!(t->fl & SIM_FR_AHEAD))
		return false;
	int32_t h = home(w, t);
	/* lanes that ran ahead and came round to where the frame below waits
	 * (a spin loop's head): they join it, and the frames it rejoins on
	 * its way to theirs (those down to theirs that hold all its lanes;
	 * not one where lanes wait that won a round of the loop) */
	if (h >= 0 && !b->fl && b->pc == t->pc) {
		uint32_t bm = b->mask & live(w);
		for (uint32_t j = (uint32_t)h; j < w->nstk - 2; j++)
			if ((w->stk[j].mask & bm) == bm)
				w->stk[j].mask |= t->mask;
		b->mask |= t->mask;
		w->its_frames--;
		w->nstk--;
		return true;
	}
	/* ... or into what needs the lanes they left: they park there */
	if (!(needs(s, w, t->pc) & ~t->mask))
		return false;
	if (h < 0) {
		set_fl(w, t, 0);   /* (no frame to wait for: alone) */
		return false;
	}
	park(w, h);
	return true;
}

/* ---- synchronisation through memory ----
 * Code that waits on memory orders its threads through it: a lock's
 * holder writes the data and releases the lock, the next holder takes the
 * lock and reads the data; a flag published with a store is read by the
 * threads that wait for it. In the PTX memory model a release pattern (a
 * fence, then a strong write; or a .release) observed by an acquire
 * pattern (a strong read, then a fence; or an .acquire) orders what came
 * before the one with what comes after the other ("Memory Consistency
 * Model": "Release and Acquire Patterns", "Causality Order"). The
 * simulator keeps it with the threads' vector clocks (sim.vc, which
 * simt_mbar.c keeps for mbarriers): a strong shared write releases the
 * thread's clocks into its word's, a strong read takes the word's. It asks
 * for no fence, as CUDA's locks and flags commonly have none on one side
 * (its_probe.cu's locks fence before the release only): a finding that
 * needs one is not made. A compare-and-swap that did not swap neither
 * takes nor releases anything (the lock's next holder takes the clocks
 * with the swap that takes the lock; a thread that fails reads only the
 * word itself, and joining every release into every waiting thread cost
 * 48% of a 256-thread lock's run). Without spin loops no instruction is
 * marked (sim_insn.sync_mem) and the table stays empty. */

/* Most sync words kept (a lock table's worth): past it, releases into new
 * words are not kept, and accesses they would order may be reported. */
#define SIM_SYNC_MAX 4096

static struct sim_sync *sync_word(struct sim *s, uint64_t off, bool create)
{
	for (uint32_t i = 0; i < s->nsync; i++)
		if (s->sync[i].off == off)
			return &s->sync[i];
	if (!create || s->nsync >= SIM_SYNC_MAX)
		return NULL;
	if (!s->acq_word) {
		s->acq_word = xcalloc(s->nvc, sizeof *s->acq_word);
		s->acq_ver = xcalloc(s->nvc, sizeof *s->acq_ver);
	}
	struct sim_sync *y = PX_VEC_PUSH(s->sync, s->nsync, s->capsync);
	y->off = off;
	y->vc = xcalloc(s->nvc, sizeof *y->vc);
	y->ver = 0;
	return y;
}

/* The address operand of memory instruction c: a store's or reduction's
 * first, else its second. */
static const struct sim_opnd *address(const struct sim_insn *c)
{
	bool st = (c->flags & PX_OPF_STORE) && !c->ndefs;
	return c->nop > (st ? 0 : 1) ? &c->op[st ? 0 : 1] : NULL;
}

/* Thread t takes the clocks of sync word y (once per release of it). */
static void take_clocks(struct sim *s, uint32_t t, const struct sim_sync *y)
{
	uint32_t k = (uint32_t)(y - s->sync) + 1;
	if (s->acq_word[t] == k && s->acq_ver[t] == y->ver)
		return;   /* (taken already: no release since) */
	s->acq_word[t] = k;
	s->acq_ver[t] = y->ver;
	uint32_t *v = &s->vc[(size_t)t * s->nvc];
	for (uint32_t u = 0; u < s->nvc; u++)
		v[u] = y->vc[u] > v[u] ? y->vc[u] : v[u];
}

/* Whether c is a compare-and-swap (it acquires only where it swapped:
 * sim_its_release). */
static bool is_cas(const struct sim_insn *c)
{
	return (c->flags & PX_OPF_ATOMIC) && (c->mw & MW(CAS)) && c->nop >= 4;
}

void sim_its_acquire(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t mask)
{
	const struct sim_insn *c = &s->ins[pc];
	const struct sim_opnd *o = address(c);
	if (!s->vc || !o || !(c->flags & (PX_OPF_LOAD | PX_OPF_ATOMIC)) || !c->ndefs || is_cas(c))
		return;
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t lane = (uint32_t)__builtin_ctz(m), t = w->id * 32 + lane;
		uint64_t off;
		const struct sim_sync *y;
		if (t < s->nvc && sim_lane_shared(s, w, o, c->in->space, lane, &off) &&
		    (y = sync_word(s, off & ~3ull, false)))
			take_clocks(s, t, y);
	}
}

void sim_its_release(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t mask)
{
	const struct sim_insn *c = &s->ins[pc];
	const struct sim_opnd *o = address(c);
	if (!s->vc || !o || !(c->flags & (PX_OPF_STORE | PX_OPF_ATOMIC)))
		return;
	bool cas = is_cas(c);
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t lane = (uint32_t)__builtin_ctz(m), t = w->id * 32 + lane;
		uint64_t off;
		if (t >= s->nvc || !sim_lane_shared(s, w, o, c->in->space, lane, &off))
			continue;
		if (cas) {   /* (the old value against the compare operand) */
			bool u0 = false, u1 = false;
			uint64_t old = sim_lane_val(s, w, &c->op[0], lane, &u0);
			uint64_t cmp = sim_lane_val(s, w, &c->op[2], lane, &u1);
			uint64_t mk = c->tbits >= 64 ? ~0ull : (1ull << c->tbits) - 1;
			if (u0 || u1 || ((old ^ cmp) & mk))
				continue;
		}
		struct sim_sync *y = sync_word(s, off & ~3ull, true);
		if (!y)
			continue;
		if (cas)
			take_clocks(s, t, y);   /* (a swap read the word: the lock's previous releases) */
		uint32_t *v = &s->vc[(size_t)t * s->nvc];
		for (uint32_t u = 0; u < s->nvc; u++)
			y->vc[u] = v[u] > y->vc[u] ? v[u] : y->vc[u];
		y->ver++;
		v[t]++;
	}
}

const char *sim_order_means(const struct sim *s)
{
	if (s->its_sync)
		return s->nmbar ? " and no mbarrier wait, lock or flag orders them" : " and no lock or flag orders them";
	return s->vc ? " and no mbarrier wait orders them" : "";
}

void sim_its_free(struct sim *s)
{
	for (uint32_t i = 0; i < s->nsync; i++)
		free(s->sync[i].vc);
	free(s->sync);
	free(s->acq_word);
	free(s->acq_ver);
	s->sync = NULL;
	s->acq_word = s->acq_ver = NULL;
	s->nsync = s->capsync = 0;
}
