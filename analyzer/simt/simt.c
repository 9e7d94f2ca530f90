/* simt.c: `ptxray simt`: runs one thread block of a kernel through the
 * interpreter (simt_exec.c) under a cycle-level timing model, tracks the
 * chosen loops and renders the result (text and ptxray-simt/1 JSON).
 *
 * Control flow: a SIMT reconvergence stack per warp, reconverging at the
 * immediate post-dominator of each divergent branch (GPGPU-Sim's model; the
 * fall-through side runs first). Exited lanes leave every entry. This is the
 * pre-Volta model; under independent thread scheduling (compute capability
 * 7.0 and newer) the paths of a warp may interleave, so code that only works
 * in lock step (warp-synchronous shared memory without __syncwarp) is
 * reported as a shared-race, and a membermask naming lanes on another path
 * as a shuffle-mask violation.
 *
 * Timing: warps go to the SM's sub-partitions round-robin (warp w to
 * scheduler w mod N); each scheduler issues at most one instruction per cycle,
 * choosing the oldest ready warp after the one it issued last (loose round
 * robin). An instruction is ready when the scoreboard says its source
 * registers are written (latency by pipeline, from the arch table's latency
 * section) and its pipeline is free (issue cycles = 32 lanes / the table's
 * per-sub-partition throughput). Shared memory occupies the SM-wide MIO for
 * one cycle per wavefront (bank conflicts from px_warp_wavefronts); global
 * and local loads occupy the load/store unit per sector (px_warp_sectors)
 * and take the L1, L2 or DRAM latency from a cache of 128-byte lines this
 * block has touched (L1: loads without .cg; L2: any access; first touch:
 * DRAM). A bar.sync releases when every live warp waits at it, after the
 * table's barrier latency plus a cost per warp. A taken branch holds the
 * warp's next issue back by the branch latency. A warp whose next
 * instruction waits may issue later independent ones first, as ptxas's
 * list scheduling and unrolling place them (issue_early).
 *
 * Unknown values (memory never written by the kernel, parameters without
 * --param, except 64-bit ones which get distinct synthetic addresses):
 * results are marked unknown and propagate. A branch on an unknown
 * predicate stays in its loop for --iters iterations and then leaves; any
 * other unknown branch falls through. Accesses at unknown addresses are
 * skipped. Each such place is listed once in the result's notes. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../arch/arch.h"
#include "../report.h"
#include "occupancy.h"
#include "simt_int.h"

/* tests/check_simt.py on its fixtures (H100 and H200, sm_90): keep in step.
 * The held-out figures are the errors of the predictions committed before
 * their loops were measured (check_simt.py's BLIND: held-out 4 to 23); the
 * L1's, those of the loops whose programs' L1 counters ncu took
 * (bench/gpu/simt/l1stats.sh). */
const struct px_simt_accuracy px_simt_accuracy = {
	.loops = 1472, .median = 0.052,
	.held_out = 340, .held_out_median = 0.150, .held_out_p90 = 0.551, .held_out_worst = 6.85,
	.held_out_fast = 225,
};

const struct px_simt_spread px_simt_l1_accuracy = {
	.loops = 365, .median = 0.0, .p90 = 0.072, .worst = 0.61,
};

const struct px_simt_spread px_simt_stall_accuracy = {
	.loops = 1466, .median = 0.141, .p90 = 0.41, .worst = 0.931,
};

const char *px_simt_stall_name(unsigned s)
{
	static const char *const n[] = {
#define X(e, s, d) s,
		PX_SIMT_STALLS(X)
#undef X
	};
	return s < PX_COUNTOF(n) ? n[s] : "?";
}

const char *px_simt_pipe_name(unsigned p)
{
	static const char *const n[] = {
#define X(e, s, d) s,
		PX_SIMT_PIPES(X)
#undef X
	};
	return p < PX_COUNTOF(n) ? n[p] : "?";
}
/* (the model's pipes, enum sim_pipe, are the first of px_simt_pipe's) */
_Static_assert((int)P_ALU == (int)PX_PIPE_ALU && (int)P_IMAD == (int)PX_PIPE_IMAD &&
               (int)P_FP32 == (int)PX_PIPE_FP32 && (int)P_FP64 == (int)PX_PIPE_FP64 &&
               (int)P_SFU == (int)PX_PIPE_SFU && (int)P_SHARED == (int)PX_PIPE_SHARED &&
               (int)P_GLOBAL == (int)PX_PIPE_GLOBAL && (int)P_SHFL == (int)PX_PIPE_SHFL &&
               (int)P_BAR == (int)PX_PIPE_BARRIER && (int)P_BRANCH == (int)PX_PIPE_BRANCH &&
               (int)P_TENSOR == (int)PX_PIPE_TENSOR && (int)P_COUNT == (int)PX_PIPE_CONVERGENCE,
               "enum sim_pipe and enum px_simt_pipe agree");

const char *px_simt_mem_name(unsigned k)
{
	static const char *const n[] = {
#define X(e, s, c, d) s,
		PX_SIMT_MEMS(X)
#undef X
	};
	return k < PX_COUNTOF(n) ? n[k] : "?";
}

bool px_simt_mem_has(unsigned k, char c)
{
	static const char *const has[] = {
#define X(e, s, cs, d) cs,
		PX_SIMT_MEMS(X)
#undef X
	};
	return k < PX_COUNTOF(has) && c && strchr(has[k], c);
}

const char *px_simt_kind_name(unsigned k)
{
	static const char *const n[] = {
#define X(e, s) s,
		PX_SIMT_KINDS(X)
#undef X
	};
	return k < PX_COUNTOF(n) ? n[k] : "?";
}

/* The largest latency or throughput a table's entry counts as: the arch
 * loader takes any finite non-negative number, and the run turns them into
 * cycle counts, which must not overflow (ptxray-arch(5)). */
#define METRIC_MAX 1e9

static double metric(const struct px_arch_metric *t, uint32_t n, const char *name, double dflt)
{
	for (uint32_t i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return t[i].value < METRIC_MAX ? t[i].value : METRIC_MAX;
	return dflt;
}

/* The arch table's entries that go as they are into a double of struct
 * sim (latency.NAME, or throughput.NAME with tp), with the value taken
 * when the table has none; the entries that need more are load_timing's
 * own code. */
static const struct plain_key {
	const char *name;
	bool tp;
	size_t field;
	double dflt;
} plain_keys[] = {
/* (a field that is not a double does not compile) */
#define PLAIN(name, tp, f, dflt) {name, tp, _Generic(((struct sim *)0)->f, double: offsetof(struct sim, f)), dflt}
#define LAT false
#define TP true
	PLAIN("l1", LAT, lat_l1, 40),
	PLAIN("l2", LAT, lat_l2, 270),
	PLAIN("dram", LAT, lat_dram, 500),
	PLAIN("global_atomic", LAT, lat_gatom, 0),
	PLAIN("global_atomic_lane", TP, gatom_lane, 0),
	PLAIN("global_red_lane", TP, gred_lane, 0),
	PLAIN("membar_cta", LAT, fence_cta, 0),
	PLAIN("membar_gl", LAT, fence_gl, 0),
	PLAIN("store_ack", LAT, store_ack, 0),
	PLAIN("shared_atomic_f32_round", LAT, f32_round, 0),
	PLAIN("shared_atomic_f32_gap", LAT, f32_gap, 0),
	PLAIN("membar_cta", TP, fence_cta_mio, 0),
	PLAIN("spin_yield", LAT, spin_yield, 0),
	PLAIN("atom_aggregate", LAT, agg_lat[AGG_UNIFORM], 0),
	PLAIN("atom_aggregate_scan", LAT, agg_lat[AGG_SCAN], 0),
	PLAIN("atom_aggregate_elect", LAT, agg_elect, 0),
	PLAIN("sfu_mufu", LAT, sfu_mufu, 0),
	PLAIN("bitop", LAT, bitop_lat, 0),
	PLAIN("match_any", LAT, match_lat, 0),
	PLAIN("match_any_group", LAT, match_group_lat, 0),
	PLAIN("match_any_group", TP, match_group_occ, 1),
	PLAIN("barrier", LAT, lat_bar, 14),
	PLAIN("barrier_per_warp", LAT, bar_per_warp, 2),
	PLAIN("branch_not_taken", LAT, lat_branch_nt, 0),
	PLAIN("shared_base", LAT, shbase_lat, 0),
	PLAIN("convergence_region", LAT, bssy_lat, 0),
	PLAIN("ldc", LAT, ldc_lat, 0),
	PLAIN("shared_store_interval_per_subpartition", TP, st_sp_occ, 0),
	PLAIN("shared_load_interval", TP, ld_gap[LD_SHARED], 0),
	PLAIN("global_load_interval", TP, ld_gap[LD_GLOBAL], 0),
	PLAIN("l1_hit_lines", TP, l1_hit_lines, 0),
	PLAIN("global_store_sector", TP, gst_sector, 0),
	PLAIN("global_store_partial_line", TP, gst_partial, 0),
#undef PLAIN
#undef LAT
#undef TP
};

/* Latencies and issue costs from the arch table (-1 = absent: the caller
 * has checked that the table has a latency section). */
static void load_timing(struct sim *s, const struct px_arch *a)
{
	static const char *const lat_names[P_COUNT] = {"alu", "imad", "fp32", "fp64", "sfu", "shared",
	                                               "l1", "shfl", "barrier", "branch", "mma"};
	static const char *const tp_names[P_COUNT] = {"alu", "imad", "fp32_fma", "fp64_fma", "sfu",
	                                              "shared_wavefronts", "lsu_sectors", "shfl", "barrier",
	                                              "branch", "mma"};
	double sub = a->subpartitions ? a->subpartitions : 4;
	s->nsched = a->subpartitions && a->subpartitions < 4 ? a->subpartitions : 4;
	memset(s->pipe_by, 0xff, sizeof s->pipe_by);   /* (no warp yet) */
	for (int p = 0; p < P_COUNT; p++) {
		s->lat[p] = metric(a->latency, a->nlatency, lat_names[p], 4);
		double tp = metric(a->throughput, a->nthroughput, tp_names[p], 32 * sub);
		/* shuffles share the SM-wide MIO: cycles of it per warp-instruction */
		s->occ[p] = tp > 0 ? 32.0 * (p == P_SHFL || p == P_SHARED ? 1 : sub) / tp : 1;
		if (s->occ[p] < 1)
			s->occ[p] = 1;
	}
	/* the tensor pipe: a scheduler's cycles per mma.sync (mma_probe), in
	 * place of the per-SM rate the loop above reads for the other pipes */
	s->occ[P_TENSOR] = metric(a->throughput, a->nthroughput, "mma_issue", 1);
	if (s->occ[P_TENSOR] < 1)
		s->occ[P_TENSOR] = 1;
	/* an IMAD.WIDE (a 64-bit result: simt_exec.c's 64-bit multiplies) */
	double tw = metric(a->throughput, a->nthroughput, "imad_wide", 0);
	s->imad_wide_occ = tw > 0 ? 32.0 * sub / tw : s->occ[P_IMAD];
	if (s->imad_wide_occ < 1)
		s->imad_wide_occ = 1;
	s->mma64_lat = metric(a->latency, a->nlatency, "mma_f64", s->lat[P_TENSOR]);
	s->mma64_occ = metric(a->throughput, a->nthroughput, "mma_f64_issue", s->occ[P_TENSOR]);
	if (s->mma64_occ < 1)
		s->mma64_occ = 1;
	for (size_t k = 0; k < sizeof plain_keys / sizeof plain_keys[0]; k++) {
		const struct plain_key *pk = &plain_keys[k];
		*(double *)((char *)s + pk->field) = pk->tp ? metric(a->throughput, a->nthroughput, pk->name, pk->dflt)
		                                           : metric(a->latency, a->nlatency, pk->name, pk->dflt);
	}
	s->sfu_fixup = metric(a->latency, a->nlatency, "sfu_fixup", 2 * s->lat[P_FP32]);
	double rd = metric(a->latency, a->nlatency, "branch_redirect", 0);
	s->redirect = rd > 0 ? (uint64_t)(rd + 0.5) : 0;
	s->stall_wait = (uint64_t)(metric(a->latency, a->nlatency, "stall_wait", 0) + 0.5);
	double ps = metric(a->latency, a->nlatency, "path_switch", 0);
	s->path_switch = ps > 0 ? (uint64_t)(ps + 0.5) : 0;
	double sq = metric(a->throughput, a->nthroughput, "shared_store_queue", 0);
	s->st_queue = sq > 0 ? (uint64_t)(sq + 0.5) : 0;
	double gq = metric(a->throughput, a->nthroughput, "global_store_queue", 0);
	s->gst_queue = gq > 0 ? (uint64_t)(gq + 0.5) : 0;
	/* what ptxas expands (enum sim_expand): latency.NAME, the result's
	 * cycles, and throughput.NAME_issue, the scheduler's cycles a
	 * warp-instruction; no latency entry: the pipe's cost */
	static const char *const ex_names[EX_COUNT] = {"", "idiv", "idiv_signed", "idiv_invariant", "idiv64",
	                                                "fdiv", "fsqrt", "frcp", "ddiv", "dsqrt"};
	for (int e = 1; e < EX_COUNT; e++) {
		char nm[48];
		s->ex_lat[e] = metric(a->latency, a->nlatency, ex_names[e], 0);
		snprintf(nm, sizeof nm, "%s_issue", ex_names[e]);
		double iss = metric(a->throughput, a->nthroughput, nm, 1);
		s->ex_issue[e] = iss > 1 ? (uint64_t)(iss + 0.5) : 1;
	}
	s->lsu_sectors_per_clk = metric(a->throughput, a->nthroughput, "lsu_sectors", 4);
	if (s->lsu_sectors_per_clk <= 0)
		s->lsu_sectors_per_clk = 4;
	double spw = metric(a->throughput, a->nthroughput, "shared_wavefronts_per_subpartition", 0);
	s->mio_sp_occ = spw > 0 ? 1.0 / spw : 0;
	static const char *const atom_names[SIM_ATOM_COUNT] = {"shared_atomic_lane", "shared_atomic_cas_lane"};
	for (int c = 0; c < SIM_ATOM_COUNT; c++)
		s->atom_lane[c] = metric(a->throughput, a->nthroughput, atom_names[c], 0);
	double mpw = metric(a->throughput, a->nthroughput, "l1_misses_per_warp", 9);
	s->misses_per_warp = mpw < 1 ? 1 : mpw > SIM_MAX_MISSES ? SIM_MAX_MISSES : (uint32_t)mpw;
	double cpi = metric(a->throughput, a->nthroughput, "cp_async_issue", 1);
	s->cp_issue = cpi > 1 ? (uint64_t)(cpi + 0.5) : 1;
	/* mbarriers (simt_mbar.c): an arrival counts this long after it
	 * issues, an object takes one this often, a wait's answer comes this
	 * long after (its phase's completion) */
	s->mb_lat = metric(a->latency, a->nlatency, "mbarrier_arrive", s->lat[P_SHARED]);
	s->mb_gap = metric(a->throughput, a->nthroughput, "mbarrier_arrive", s->occ[P_SHARED]);
	s->mb_wait = metric(a->latency, a->nlatency, "mbarrier_wait", s->lat[P_SHARED]);
}

/* ---- set-up ---- */
/* The L1 the launch leaves: the unified data cache less the shared memory
 * the driver configures for this kernel's resident blocks (registers: the
 * estimate). Unknown (separate stores, an impossible launch): unbounded. */
static void l1_size(struct sim *s, uint64_t dynamic_shared)
{
	const struct px_arch *a = s->opt->arch;
	struct px_occ_query q = {0};
	q.threads = s->nthreads;
	q.registers = s->res->registers > a->max_registers_per_thread ? a->max_registers_per_thread
	                                                                : s->res->registers;
	q.shared = (uint32_t)(s->sh_static < (1u << 30) ? s->sh_static : (1u << 30) - 1);
	q.dynamic_shared = (uint32_t)(dynamic_shared < (1u << 30) ? dynamic_shared : (1u << 30) - 1);
	q.carveout = -1;
	q.barriers = 1;
	if (a->unified_l1_shared && !px_occ_check(a, &q)) {
		struct px_occ_result r;
		px_occ_compute(a, &q, &r);
		s->res->launch_shared_bytes = r.launch_shared_per_sm;
		s->res->l1_bytes = r.l1_per_sm;
	}
	sim_l1_init(&s->l1, s->res->l1_bytes / 128);
}

static bool setup(struct sim *s, struct px_diags *diags, const char *path)
{
	const struct px_func *f = s->f;
	const struct px_simt_options *opt = s->opt;
	/* register slots */
	s->slot_base = xcalloc(f->nregs + 1, sizeof *s->slot_base);
	for (uint32_t r = 0; r < f->nregs; r++) {
		s->slot_base[r] = s->nslots;
		s->nslots += f->regs[r].vec ? f->regs[r].vec : 1;
	}
	s->cc_slot = s->nslots++;
	/* variables: shared at offsets from 0, in declaration order (kernel's own, then module's) */
	s->var_addr = xcalloc(f->nvars + 1, sizeof *s->var_addr);
	s->mvar_addr = xcalloc(s->m->nvars + 1, sizeof *s->mvar_addr);
	uint64_t sh = 0, loc = 0, glob = SIM_GLOBAL_VARS;
	bool dyn = false;
	for (int pass = 0; pass < 2; pass++) {
		uint32_t n = pass ? s->m->nvars : f->nvars;
		const struct px_var *vs = pass ? s->m->vars : f->vars;
		uint64_t *addr = pass ? s->mvar_addr : s->var_addr;
		for (uint32_t i = 0; i < n; i++) {
			const struct px_var *v = &vs[i];
			uint64_t al = px_var_align(v);
			if (!al)
				al = 1;
			if (v->space == PX_SPACE_SHARED || v->space == PX_SPACE_SHARED_CTA) {
				if (v->unsized) {
					dyn = true;
					continue;
				}
				if (pass && !v->mentioned && !f->nmod_mentions)
					continue;
				sh = (sh + al - 1) / al * al;
				addr[i] = sh;
				sh += px_var_size(v);
			} else if (v->space == PX_SPACE_LOCAL) {
				loc = (loc + al - 1) / al * al;
				addr[i] = loc;
				loc += px_var_size(v);
			} else if (v->space == PX_SPACE_GLOBAL || v->space == PX_SPACE_CONST) {
				glob = (glob + 255) / 256 * 256;
				addr[i] = glob;
				glob += px_var_size(v) + 256;
			}
		}
	}
	s->sh_static = sh;
	uint64_t dynb = opt->dynamic_shared;
	if (dyn && !dynb) {
		dynb = sh < 48 * 1024 ? 48 * 1024 - sh : 0;
		*PX_VEC_PUSH(s->res->notes, s->res->nnotes, s->res->capnotes) = xasprintf(
			"the kernel uses dynamic shared memory: %llu bytes assumed (--dynamic-shared)",
			(unsigned long long)dynb);
	}
	sh = (sh + 15) / 16 * 16;
	for (int pass = 0; pass < 2; pass++) {
		uint32_t n = pass ? s->m->nvars : f->nvars;
		const struct px_var *vs = pass ? s->m->vars : f->vars;
		uint64_t *addr = pass ? s->mvar_addr : s->var_addr;
		for (uint32_t i = 0; i < n; i++)
			if ((vs[i].space == PX_SPACE_SHARED || vs[i].space == PX_SPACE_SHARED_CTA) && vs[i].unsized)
				addr[i] = sh;
	}
	l1_size(s, dynb);
	s->fly_line = xcalloc(SIM_FLIGHT, sizeof *s->fly_line);
	s->fly_t = xcalloc(SIM_FLIGHT, sizeof *s->fly_t);
	s->sh_limit = s->sh_static + dynb;
	if (dyn)
		s->sh_limit = sh + dynb;
	s->sh_words = (s->sh_limit + 3) / 4 + 2;
	sim_shmem_init(&s->sh, s->sh_words);
	/* parameters */
	s->param_val = xcalloc(f->nparams + 1, sizeof *s->param_val);
	s->param_known = xcalloc(f->nparams + 1, sizeof *s->param_known);
	s->param_off = xcalloc(f->nparams + 1, sizeof *s->param_off);
	uint64_t poff = 0;
	for (uint32_t i = 0; i < f->nparams; i++) {
		const struct px_var *p = &f->params[i];
		uint64_t al = px_var_align(p);
		if (!al)
			al = 1;
		poff = (poff + al - 1) / al * al;
		s->param_off[i] = poff;
		poff += px_var_size(p);
		if (px_var_size(p) == 8 && px_type_kind(p->type) != 'f') {
			s->param_val[i] = SIM_PARAM_PTR(i);
			s->param_known[i] = true;
		}
	}
	for (uint32_t k = 0; k < opt->nparams; k++) {
		const char *name = opt->params[k].name;
		size_t nlen = strcspn(name, "=");
		char *end;
		unsigned long idx = strtoul(name, &end, 10);
		bool by_index = end == name + nlen && nlen > 0;
		bool found = false;
		for (uint32_t i = 0; i < f->nparams; i++) {
			if ((by_index && idx == i) ||
			    px_str_eq(f->params[i].name, px_str_make(name, nlen))) {
				s->param_val[i] = (uint64_t)opt->params[k].value;
				s->param_known[i] = true;
				found = true;
			}
		}
		if (!found) {
			px_diag_add(diags, PX_ERROR, path, f->line, f->col, NULL,
			            "--param %.*s: kernel '%.*s' has no such parameter", (int)nlen, name, PX_STR_ARG(f->name));
			return false;
		}
	}
	for (uint32_t i = 0; i < f->nparams; i++)
		if (!s->param_known[i])
			*PX_VEC_PUSH(s->res->notes, s->res->nnotes, s->res->capnotes) = xasprintf(
				"parameter %u (%.*s) has no value (--param): what depends on it is unknown", i,
				PX_STR_ARG(f->params[i].name));
	return true;
}

static void free_sim(struct sim *s)
{
	sim_its_free(s);
	sim_mbar_free(s);
	for (uint32_t i = 0; i < s->nwarps; i++) {
		struct sim_warp *w = &s->w[i];
		free(w->stk);
		free(w->cp);
		free(w->val);
		free(w->unk);
		free(w->ready);
		free(w->res_why);
		free(w->loop_iter);
		free(w->hdr_count);
		free(w->entered);
		free(w->done);
		free(w->hz_def);
		free(w->hz_use);
		free(w->win_wr);
		free(w->win_rd);
	}
	free(s->w);
	free(s->ins);
	free(s->slot_base);
	free(s->var_addr);
	free(s->mvar_addr);
	sim_shmem_free(&s->sh);
	free(s->f32_swapped);
	free(s->param_val);
	free(s->param_known);
	free(s->param_off);
	free(s->block_start);
	free(s->no_slots);
	free(s->ins_pipe);
	free(s->ins_loop);
	free(s->sdiv);
	free(s->tail);
	free(s->ex_done);
	free(s->loop_sel);
	free(s->block_loop);
	free(s->sel_parent);
	free(s->lr);
	free(s->loop_issued);
	free(s->loop_slots);
	free(s->loop_pipe);
	free(s->loop_mem);
	free(s->ins_slots);
	free(s->ins_conv);
	free(s->loop_lanes);
	free(s->ins_issued);
	free(s->ins_lanes);
	free(s->loop_first);
	free(s->loop_last);
	free(s->loop_busy_until);
	free(s->loop_cycles);
	free(s->noted);
	free(s->viol_seen);
	sim_mem_free(&s->global);
	sim_l1_free(&s->l1);
	free(s->fly_line);
	free(s->fly_t);
	sim_lineset_free(&s->l2);
}

/* ---- loops ---- */
static bool in_loop(const struct px_func *f, uint32_t l, uint32_t b)
{
	return sim_loop_has_block(&f->loops[l], b);
}

static uint32_t loop_weight(const struct px_func *f, uint32_t l)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < f->loops[l].nblocks; i++) {
		const struct px_block *b = &f->blocks[f->loops[l].blocks[i]];
		n += b->end - b->first;
	}
	uint32_t w = n;
	for (uint32_t d = 1; d < f->loops[l].depth && d < 6; d++)
		w *= 8;
	return w;
}

/* Does name (n bytes, a .file entry's) end with the last component of file? */
static bool names_file_n(const char *name, size_t n, const char *file)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	size_t bn = strlen(base);
	return n >= bn && memcmp(name + n - bn, base, bn) == 0 && (n == bn || name[n - bn - 1] == '/');
}

static bool names_file(const struct px_file_entry *fe, const char *file)
{
	return names_file_n(fe->name.p, fe->name.n, file);
}

static bool names_file_str(const char *name, const char *file)
{
	return names_file_n(name, strlen(name), file);
}

uint32_t px_simt_loops_in_lines(const struct px_module *m, const struct px_func *f, const char *file,
                                uint32_t first, uint32_t last, bool *sel)
{
	bool *in = xcalloc(f->nloops + 1, sizeof *in);
	for (uint32_t l = 0; l < f->nloops; l++) {
		const struct px_block *b = &f->blocks[f->loops[l].header];
		for (uint32_t i = b->first; i < b->end && !in[l]; i++) {
			const struct px_insn *x = &f->insns[i];
			const struct px_file_entry *fe = x->loc_file ? px_module_file(m, x->loc_file) : NULL;
			if (fe && names_file(fe, file))
				in[l] = x->loc_line >= first && x->loc_line <= last;
		}
	}
	/* the outermost PTX loops inside the source loop (an unrolled loop and
	 * its remainder loop are two) */
	uint32_t n = 0;
	for (uint32_t l = 0; l < f->nloops; l++) {
		bool outer = in[l];
		for (int32_t p = f->loops[l].parent; p >= 0 && outer; p = f->loops[p].parent)
			outer = !in[p];
		if (outer) {
			sel[l] = true;
			n++;
		}
	}
	free(in);
	return n;
}

/* Loop l waits for an mbarrier phase (its own blocks, not an inner
 * loop's, hold a test_wait or try_wait, which it tries until the phase
 * completes): the
 * default choice passes it by, and takes the loop around it as innermost. */
static bool wait_loop(const struct px_func *f, uint32_t l)
{
	const struct px_loop *lp = &f->loops[l];
	for (uint32_t k = 0; k < lp->nblocks; k++) {
		const struct px_block *b = &f->blocks[lp->blocks[k]];
		for (uint32_t i = b->first; i < b->end && b->loop == (int32_t)l; i++) {
			const struct px_insn *in = &f->insns[i];
			if (in->op == PX_OP_MBARRIER && (sim_has_mod(in, ".try_wait") || sim_has_mod(in, ".test_wait")))
				return true;
		}
	}
	return false;
}

static bool select_loops(struct sim *s, struct px_diags *diags, const char *path)
{
	const struct px_func *f = s->f;
	s->nloops = f->nloops;
	s->loop_sel = xcalloc(f->nloops + 1, sizeof *s->loop_sel);
	const char *sel = s->opt->loop;
	uint32_t nhot = 0;
	for (uint32_t h = 0; h < s->opt->nhot && !sel; h++) {
		uint32_t n = px_simt_loops_in_lines(s->m, f, s->opt->hot_file, s->opt->hot_lines[h][0],
		                                    s->opt->hot_lines[h][1], s->loop_sel);
		if (!n)
			*PX_VEC_PUSH(s->res->notes, s->res->nnotes, s->res->capnotes) = xasprintf(
				"the hot loop at %s:%u has no loop in this kernel's PTX (not in this kernel, or "
				"unrolled away)", s->opt->hot_file, s->opt->hot_lines[h][0]);
		nhot += n;
	}
	if (nhot) {
		/* the hot annotations chose */
	} else if (sel && strcmp(sel, "all") == 0) {
		for (uint32_t l = 0; l < f->nloops; l++)
			s->loop_sel[l] = true;
	} else if (sel) {
		char *end;
		unsigned long line = strtoul(sel, &end, 10);
		bool any = false;
		for (uint32_t l = 0; l < f->nloops && *end == 0; l++) {
			/* the PTX line of any instruction of the header, or its .loc line */
			const struct px_block *b = &f->blocks[f->loops[l].header];
			for (uint32_t i = b->first; i < b->end; i++)
				if (f->insns[i].line == line || f->insns[i].loc_line == line) {
					s->loop_sel[l] = true;
					any = true;
					break;
				}
			for (uint32_t k = 0; k < f->nlabels && !s->loop_sel[l]; k++)
				if (f->labels[k].insn == b->first && f->labels[k].line == line) {
					s->loop_sel[l] = any = true;
				}
		}
		if (!any) {
			px_diag_add(diags, PX_ERROR, path, f->line, f->col, NULL,
			            "--loop %s: no loop of kernel '%.*s' has its header at that line", sel,
			            PX_STR_ARG(f->name));
			return false;
		}
	} else {
		/* innermost loops, by static weight (instructions x 8^(depth-1)): the heaviest four */
		for (int k = 0; k < 4; k++) {
			int32_t best = -1;
			uint32_t bw = 0;
			for (uint32_t l = 0; l < f->nloops; l++) {
				bool inner = !wait_loop(f, l);
				for (uint32_t c = 0; c < f->nloops && inner; c++)
					if (f->loops[c].parent == (int32_t)l && !wait_loop(f, c))
						inner = false;
				uint32_t wt = loop_weight(f, l);
				if (inner && !s->loop_sel[l] && (best < 0 || wt > bw)) {
					best = (int32_t)l;
					bw = wt;
				}
			}
			if (best >= 0)
				s->loop_sel[best] = true;
		}
	}
	s->block_loop = xcalloc(f->nblocks + 1, sizeof *s->block_loop);
	for (uint32_t b = 0; b < f->nblocks; b++) {
		s->block_loop[b] = -1;
		int32_t l = f->blocks[b].loop;
		while (l >= 0 && !s->loop_sel[l])
			l = f->loops[l].parent;
		s->block_loop[b] = l;
	}
	/* per loop: the nearest selected loop around it */
	s->sel_parent = xcalloc(f->nloops + 1, sizeof *s->sel_parent);
	for (uint32_t l = 0; l < f->nloops; l++) {
		int32_t p = f->loops[l].parent;
		while (p >= 0 && !s->loop_sel[p])
			p = f->loops[p].parent;
		s->sel_parent[l] = p;
	}
	return true;
}

/* ---- the run ---- */
static void push(struct sim_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
	struct sim_frame *fr = PX_VEC_PUSH(w->stk, w->nstk, w->capstk);
	w->win.valid = false;   /* another frame on top */
	fr->pc = pc;
	fr->rpc = rpc;
	fr->mask = mask;
	fr->fl = 0;
}

/* Warp w's state (stack, registers, resume cycle) changed: what the
 * scheduler keeps about its next instruction no longer holds, and run()'s
 * loop accounting looks at the warp again (its top's loop may differ). */
static void warp_changed(struct sim *s, struct sim_warp *w)
{
	w->top_settled = w->top_valid = w->early_valid = w->scan_valid = false;
	s->acct_dirty |= 1u << w->id;
}

/* ---- issue_early's window (struct sim_win) ----
 * A scan from the top passes the same instructions again each time the top
 * moves on by one, most of them issued early already or held back by the
 * same hazards. The window keeps, per instruction the scan would look at,
 * whether it is pending (passed: it holds later ones back) and which
 * earlier pending ones hold it back, so that the top moving on costs the
 * one instruction that leaves and the ones that join, and a scan visits
 * only the candidates (pending, held back by nothing). The full scan stays
 * the reference: the window covers the straight-line code from the top to
 * where the scan stops or meets what it handles by rules of its own (a
 * block barrier, an if-converted branch), and the full scan's loop goes on
 * from there (issue_early). The window is built anew when the top moves
 * in any other way (a branch, the stack, a barrier). */

SIM_HOT uint64_t win_bit(uint32_t k)
{
	return 1ull << (k & 63);
}

/* The window bits of instructions [from, to) (to - from <= 64). */
SIM_HOT uint64_t win_range(uint32_t from, uint32_t to)
{
	uint32_t n = to - from;
	uint64_t m = n >= 64 ? ~0ull : (1ull << n) - 1;
	unsigned r = from & 63;
	return m << r | m >> ((64 - r) & 63);
}

/* Instruction k's sim_insn.hold or .holds (m) as window bits. */
SIM_HOT uint64_t win_rel(uint64_t m, uint32_t k)
{
	unsigned r = k & 63;
	return m << r | m >> ((64 - r) & 63);
}

/* Instruction k's bits join the per-slot masks of pending writers and
 * readers (a special window's). */
static void win_mark_slots(const struct sim *s, struct sim_warp *w, uint32_t k)
{
	const struct sim_insn *c = &s->ins[k];
	uint64_t b = win_bit(k);
	for (uint32_t d = 0; d < c->ndefs; d++)
		w->win_wr[c->defs[d]] |= b;
	for (uint32_t u = 0; u < c->nuses; u++)
		w->win_rd[c->uses[u]] |= b;
}

/* Instruction k's bits leave the per-slot masks of pending writers and
 * readers (a special window's). */
SIM_HOT void win_unmark_slots(const struct sim *s, struct sim_warp *w, uint32_t k)
{
	const struct sim_insn *c = &s->ins[k];
	uint64_t b = win_bit(k);
	for (uint32_t d = 0; d < c->ndefs; d++)
		w->win_wr[c->defs[d]] &= ~b;
	for (uint32_t u = 0; u < c->nuses; u++)
		w->win_rd[c->uses[u]] &= ~b;
}

/* The window's pending instruction k is pending no more (issued, run as
 * a free one, or the top issued in order): the later ones it held back
 * and nothing else holds back become candidates. */
static void win_leave(const struct sim *s, struct sim_warp *w, uint32_t k)
{
	struct sim_win *wn = &w->win;
	uint64_t b = win_bit(k);
	wn->pending &= ~b;
	wn->cand &= ~b;
	wn->never &= ~b;
	wn->stores[0] &= ~b;
	wn->stores[1] &= ~b;
	if (wn->special)
		win_unmark_slots(s, w, k);
	/* (the window spans LOOKAHEAD + 1 instructions, fewer than the 64
	 * bits; hold's and holds' bits, rotated to the window, may also name
	 * instructions that left it or are not in it yet: win_range keeps
	 * the ones between) */
	uint64_t later = wn->pending & ~wn->never & ~win_bit(wn->base);
	for (uint64_t m = win_rel(s->ins[k].holds, k) & later & win_range(k + 1, wn->lim); m; m &= m - 1) {
		unsigned j = (unsigned)__builtin_ctzll(m);
		uint32_t kj = k + ((j - k) & 63);
		if (!(win_rel(s->ins[kj].hold, kj) & wn->pending & win_range(wn->base, kj)))
			wn->cand |= 1ull << j;
	}
}

/* Instruction k of w was issued early or run as a free one: skipped when
 * the top reaches it, and no longer pending in the window. */
SIM_HOT void mark_done(const struct sim *s, struct sim_warp *w, uint32_t k)
{
	w->done[k] = 1;
	if (w->win.valid && (w->win.pending & win_bit(k)) && k >= w->win.base && k < w->win.lim)
		win_leave(s, w, k);
}

/* w's top went from pc to next in the same frame: the window slides when
 * next is the following instruction of the same basic block (the old top
 * leaves), and is built anew otherwise. */
SIM_HOT void win_moved(const struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t next)
{
	struct sim_win *wn = &w->win;
	/* (lim <= next: the new top is where the window stopped, a scan from
	 * it does not stop there) */
	if (!wn->valid || wn->base != pc || next != pc + 1 || next >= wn->end || wn->lim <= next) {
		wn->valid = false;
		return;
	}
	if (wn->pending & win_bit(pc))
		win_leave(s, w, pc);
	wn->base = next;
	wn->cand &= ~win_bit(next);   /* the top is passed, never a candidate */
}

SIM_HOT void settle(struct sim *s, struct sim_warp *w)
{
	if (w->nstk) {   /* (mostly: the top stays, nothing to do) */
		const struct sim_frame *t = &w->stk[w->nstk - 1];
		if (t->pc < s->nins && t->pc != t->rpc && (t->mask & ~w->exited) && !w->its_frames)
			return;
	}
again:
	while (w->nstk) {
		struct sim_frame *t = &w->stk[w->nstk - 1];
		/* lanes that run past the last instruction (a branch to a label
		 * at the end of the body, a body without ret) leave the kernel */
		if (t->pc != UINT32_MAX && t->pc >= s->nins)
			w->exited |= t->mask;
		if ((t->mask & ~w->exited) == 0 || t->pc == t->rpc || t->pc == UINT32_MAX) {
			bool done_path = t->pc == t->rpc && (t->mask & ~w->exited);
			uint32_t rpc = t->rpc;
			w->its_frames -= t->fl != 0;
			w->nstk--;
			w->win.valid = false;
			/* a path of a diverged warp that reaches the point where the
			 * paths rejoin hands over to the next one still to run: that
			 * one waits latency.path_switch cycles (sw_probe: a switch
			 * whose lanes take four cases, three paths, is 28% fast
			 * without it at one and four warps; 24 gives 0.0%) */
			if (done_path && w->nstk && s->path_switch) {
				struct sim_frame *o = &w->stk[w->nstk - 1];
				if (o->rpc == rpc && o->pc != rpc && (o->mask & ~w->exited)) {
					uint64_t r = s->cycle + s->path_switch;
					sim_hold(w, r, PX_STALL_BRANCH);
				}
			}
		} else {
			break;
		}
	}
	/* independent thread scheduling's frames: lanes that join the top
	 * or park (simt_its.c) */
	if (w->its_frames && sim_its_settle(s, w)) {
		w->win.valid = false;
		goto again;
	}
	if (!w->nstk && w->state != W_DONE) {
		s->nwait -= w->state == W_BARRIER;
		s->nlive--;
		w->state = W_DONE;
	}
}

/* Releases the block barrier when every live warp waits at it; reports a
 * deadlock when every live warp waits but not at the same barrier. */
/* The block's waiting warps are at one barrier, about to go: if it is a
 * bar.red, its result to every lane that came (PTX ISA, bar.red: .popc
 * counts the threads whose predicate is true, .and and .or combine them;
 * unknown when any of them is unknown). */
static void bar_reduce(struct sim *s)
{
	bool red = false;
	uint64_t count = 0;
	bool all = true, some = false, unk = false;
	for (uint32_t i = 0; i < s->nwarps; i++) {
		const struct sim_warp *w = &s->w[i];
		if (w->state != W_BARRIER || !(s->ins[w->bar_pc].in->mods & PX_MOD_RED))
			continue;
		red = true;
		count += sim_popcount(w->red_true);
		all &= w->red_true == w->red_lanes;
		some |= w->red_true != 0;
		unk |= w->red_unk != 0;
	}
	if (!red)
		return;
	for (uint32_t i = 0; i < s->nwarps; i++) {
		struct sim_warp *w = &s->w[i];
		if (w->state != W_BARRIER || !(s->ins[w->bar_pc].in->mods & PX_MOD_RED))
			continue;
		const struct sim_insn *si = &s->ins[w->bar_pc];
		uint32_t d = si->op[0].slot;
		if (si->op[0].kind != PX_OPND_REG || d == UINT32_MAX)
			continue;
		uint64_t v = si->mw & MW(AND) ? all : si->mw & MW(OR) ? some : count;
		for (uint32_t m = w->red_lanes; m; m &= m - 1)
			w->val[(size_t)d * 32 + (uint32_t)__builtin_ctz(m)] = v;
		w->unk[d] = unk ? w->unk[d] | w->red_lanes : w->unk[d] & ~w->red_lanes;
	}
}

static void check_barrier(struct sim *s)
{
	if (!s->nlive || s->nwait != s->nlive)
		return;   /* what the count below finds */
	uint32_t waiting = 0, live = 0, id = UINT32_MAX;
	bool same = true;
	int32_t first = -1, other = -1;
	for (uint32_t i = 0; i < s->nwarps; i++) {
		struct sim_warp *w = &s->w[i];
		if (w->state == W_DONE)
			continue;
		live++;
		if (w->state == W_BARRIER) {
			waiting++;
			if (id == UINT32_MAX) {
				id = w->bar_id;
				first = (int32_t)i;
			} else if (w->bar_id != id) {
				same = false;
				other = (int32_t)i;
			}
		}
	}
	if (!live || waiting != live)
		return;
	if (!same) {
		struct sim_warp *a = &s->w[first], *b = &s->w[other];
		uint32_t pa = a->bar_pc, pb = b->bar_pc;
		char t0[48], t1[48], l0[160], l1[160];
		struct px_simt_violation *v = sim_violation(
			s, PX_V_DEADLOCK, pa, a->id * 32, b->id * 32,
			"warps wait at different barriers: thread %s (warp %u) at barrier %u, %s; thread %s (warp %u) "
			"at barrier %u, %s: none can go on", sim_thread(s, a->id * 32, t0), a->id, a->bar_id,
			sim_where(s, pa, l0), sim_thread(s, b->id * 32, t1), b->id, b->bar_id, sim_where(s, pb, l1));
		if (v)
			v->other_line = s->ins[pb].in->line;
		s->stop = true;
		s->stop_reason = "deadlock";
		return;
	}
	/* The warps go in the order they arrived, barrier_per_warp cycles
	 * apart, the first latency.barrier + barrier_per_warp after the last
	 * arrival (bar2_probe: 32 warps arriving together take 106.7 cycles an
	 * iteration, 169.5 predicted when every warp went at 12 + 2 * 32; one
	 * late warp of 32 costs the whole 2 * 32 after it arrives, whether it
	 * is the first warp or the last; bar3_probe, blind: the same when the
	 * first access after the barrier is a global load or store, median
	 * 4.8% against 18.9% for every warp at once) */
	bar_reduce(s);
	uint32_t order[32], n = 0;   /* (32 warps at most: px_simt_func takes blocks of up to 1024 threads) */
	for (uint32_t i = 0; i < s->nwarps && n < 32; i++) {
		if (s->w[i].state != W_BARRIER)
			continue;
		uint32_t k = n++;
		for (; k > 0 && s->w[order[k - 1]].bar_seq > s->w[i].bar_seq; k--)
			order[k] = order[k - 1];
		order[k] = i;
	}
	for (uint32_t r = 0; r < n; r++) {
		struct sim_warp *w = &s->w[order[r]];
		w->state = W_READY;
		s->nwait--;
		w->resume = s->cycle + (uint64_t)(s->lat_bar + s->bar_per_warp * (r + 1) + 0.5);
		w->resume_why = PX_STALL_BARRIER;
		warp_changed(s, w);
		settle(s, w);   /* a barrier last in a body without ret: the lanes leave */
	}
	s->epoch++;
}

SIM_HOT void account_loop_enter(struct sim *s, struct sim_warp *w, uint32_t b, uint32_t pc)
{
	const struct px_func *f = s->f;
	/* per-loop iteration counters (every loop, for the unknown-branch policy) */
	if (s->ins[pc].loop_head) {
		int32_t il = f->blocks[b].loop;
		if (w->prev_block != b && !in_loop(f, (uint32_t)il, w->prev_block))
			w->loop_iter[il] = 0;
		w->loop_iter[il]++;
		if (s->loop_sel[il]) {
			w->hdr_count[il]++;
			w->entered[il] = true;
		}
	}
}

static uint32_t branch_taken(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t active)
{
	const struct sim_insn *si = &s->ins[pc];
	uint32_t unk;
	uint32_t taken = sim_guard(s, w, si, active, &unk);
	if (!unk)
		return taken;
	/* the documented policy: stay in the loop for --iters iterations */
	const struct px_func *f = s->f;
	uint32_t b = si->in->block;
	int32_t l = f->blocks[b].loop;
	bool take = false;
	if (l >= 0 && si->target != UINT32_MAX) {
		uint32_t tb = f->insns[si->target].block;
		uint32_t it = w->loop_iter[l];
		uint32_t lim = s->opt->iters ? s->opt->iters : 64;
		if (tb == f->loops[l].header)
			take = it < lim;
		else if (!in_loop(f, (uint32_t)l, tb))
			take = it >= lim;
	}
	sim_guess(s, pc);
	sim_note(s, pc, "branch condition depends on an unknown value: %s", l >= 0
	         ? "the loop runs --iters iterations, then leaves" : "assumed not taken");
	return taken | (take ? unk : 0);
}

/* A region ptxas predicates (sim_insn.ifconv) that every lane of warp w
 * skips takes as long as one they run: its instructions issue with their
 * predicate off, in order, one a slot from the next cycle, each when its
 * sources (and destinations) are ready, and hold their destinations for
 * their latency (bssy_probe at one warp: bs_taken, bs_fallthrough and
 * bs_alternate, 8 regions of 8 dependent FMAs skipped, run and half and
 * half, all 286 cycles an iteration; bs_taken was 145 in the model while
 * a skipped region cost its issue slots alone). The scoreboard keeps those
 * cycles (a memory access's destinations for the ALU's latency), and the
 * warp's next instruction issues after the region's last. That holds back
 * what ptxas schedules ahead of the region too (bs_branches' SASS
 * computes the next regions' predicates first: 320 cycles an iteration,
 * 291 with the warp going on meanwhile; but without the hold a warp whose
 * later code never reads the region's registers ran ahead of them, and
 * check_simt's stencils came out 2 to 3 points further off, too fast,
 * held-out loops -7.2% signed median against -6.9%). */
static void skip_region_wait(struct sim *s, struct sim_warp *w, const struct sim_insn *si)
{
	uint32_t pc = (uint32_t)(si - s->ins);
	uint64_t t = s->cycle;
	for (uint32_t j = pc + 1; j < si->target && j < s->nins; j++) {
		const struct sim_insn *c = &s->ins[j];
		if (c->free)
			continue;
		uint64_t r = t + 1;
		for (uint32_t u = 0; u < c->nuses; u++)
			if (w->ready[c->uses[u]] > r)
				r = w->ready[c->uses[u]];
		for (uint32_t d = 0; d < c->ndefs; d++)   /* (and for the writes before it) */
			if (w->ready[c->defs[d]] > r)
				r = w->ready[c->defs[d]];
		t = r + (c->slots > 1 ? c->slots - 1u : 0);
		bool mem = c->pipe == P_GLOBAL || c->pipe == P_SHARED || c->pipe == P_SHFL;
		uint64_t done = r + (uint64_t)((mem ? s->lat[P_ALU] : s->lat[c->lat_pipe]) + 0.5);
		for (uint32_t d = 0; d < c->ndefs; d++) {
			w->ready[c->defs[d]] = done;
			w->res_why[c->defs[d]] = PX_STALL_DEPENDENCY;
		}
	}
	sim_hold(w, t + 1, PX_STALL_DEPENDENCY);
}

/* Scheduler sched's own pipes are busy for n cycles from now (the SM-wide
 * MIO and LSU are not: no other warp of the scheduler could issue to
 * them either, but a lookahead load of its own goes on). */
static void sched_hold(struct sim *s, unsigned sched, uint64_t n)
{
	uint64_t until = s->cycle + n;
	for (unsigned p = 0; p < P_COUNT; p++)
		if (p != P_SHARED && p != P_SHFL && p != P_GLOBAL && s->pipe_free[sched][p] < until)
			s->pipe_free[sched][p] = until;
}

/* Scheduler sched issues the rest of an expanded instruction's sequence
 * (enum sim_expand), or of the SASS a PTX instruction becomes
 * (sim_insn.slots, skip_slots), n slots in all, for n cycles from now
 * (sched_hold); the n - 1 beyond instruction pc's own count in ins_slots. */
static void expand_issue(struct sim *s, unsigned sched, uint32_t pc, uint64_t n)
{
	if (n > 1)
		s->ins_slots[pc] += n - 1;
	sched_hold(s, sched, n);
}

/* The issue slots of branch si's convergence region (sim_insn.bssy), in
 * block b, that warp w's lanes active took (taken of them): BSSY before
 * it and a BSYNC for each group of lanes that reaches the point where
 * the paths rejoin, one when the warp goes one way, two when it splits
 * (ncu counts them on the CBU pipe: bssy_probe's bs_one_skip, 5
 * instructions an iteration where the PTX has 3). A loop's region
 * (BSSY_EXIT) is around the whole loop: its BSSY and BSYNC when the warp
 * leaves together, a BSYNC for a group that leaves before the rest,
 * counted with the instruction the lanes leave to (outside the loop, as
 * the region's BSYNC is). Issued at the branch, where the scheduler
 * issues the BSSY. */
static void convergence_slots(struct sim *s, unsigned sched, const struct sim_insn *si, uint32_t b,
                              uint32_t taken, uint32_t active)
{
	uint32_t pc = (uint32_t)(si - s->ins), at = pc;
	uint64_t n = 0;
	bool split = taken && taken != active;
	if (si->bssy == BSSY_BRANCH) {
		n = split ? 3 : 2;
	} else {
		const struct px_loop *lp = &s->f->loops[s->f->blocks[b].loop];
		bool t_out = si->target < s->nins && !sim_loop_has_block(lp, s->ins[si->target].in->block);
		bool f_out = pc + 1 < s->nins && !sim_loop_has_block(lp, s->ins[pc + 1].in->block);
		at = t_out ? si->target : pc + 1;
		if (split)
			n = t_out || f_out ? 1 : 0;
		else if (taken ? t_out : f_out)
			n = 2;
	}
	if (n) {
		s->ins_conv[at] += n;
		sched_hold(s, sched, n + 1);
	}
}

/* The SM-wide units' free cycles (mio_free, mio_sp_free, lsu_free)
 * changed: their mirrors in each scheduler's pipe_free follow. */
SIM_HOT void units_changed(struct sim *s)
{
	for (uint32_t sc = 0; sc < s->nsched; sc++) {
		uint64_t sp = s->mio_sp_free[sc & 3];
		s->pipe_free[sc][P_SHARED] = s->mio_free > sp ? s->mio_free : sp;
		s->pipe_free[sc][P_SHFL] = s->mio_free;
		s->pipe_free[sc][P_GLOBAL] = s->lsu_free;
	}
	s->wake = (1u << s->nsched) - 1;
}

/* Scheduler sched's access takes occ cycles of the SM's MIO (a shared
 * access, a shuffle, a membar.cta): the cycle its turn begins. A fraction
 * of a cycle carries over while the unit is kept busy (an atomic's lanes
 * on one word, simt_exec.c's atom_serial). */
SIM_HOT double mio_turn(struct sim *s, unsigned sched, double occ)
{
	double base = (double)s->cycle < s->mio_next + 1 ? s->mio_next : (double)s->cycle;
	s->mio_next = base + occ;
	uint64_t c = (uint64_t)s->mio_next;
	s->mio_free = (double)c < s->mio_next ? c + 1 : c;
	s->unit_rr[U_MIO] = sched + 1 < s->nsched ? sched + 1 : 0;
	s->turn_rr = s->unit_rr[U_MIO];
	units_changed(s);
	return base;
}

/* The scoreboard and the pipes after warp w issued si on scheduler sched
 * with result latency lat and issue cost occ. */
SIM_HOT void commit_timing(struct sim *s, struct sim_warp *w, unsigned sched, const struct sim_insn *si,
                     double lat, double occ)
{
	w->issued_at = s->cycle;
	if (!si->ct_rare)
		goto common;
	if (si->mufu && s->sfu_mufu > 0)
		lat = s->sfu_mufu;
	if (si->bitop && s->bitop_lat > 0)   /* (of 64 bits, the halves' sum or select after) */
		lat = s->bitop_lat + s->lat[P_ALU] * ((si->bits64 ? 1 : 0) + (si->bitop == 2 ? 1 : 0));
	if (si->ldc && s->ldc_lat > 0)
		lat = s->ldc_lat;
	if (si->mask_check && s->match_lat > 0) {
		/* the membermask's check first: MATCH.ANY, LOP3, BRA.DIV not
		 * taken (simt_fuse.c's mark_mask_checks); the warp waits */
		uint64_t x = (uint64_t)(s->match_lat + s->lat[P_ALU] + s->lat_branch_nt + 0.5);
		lat += (double)x;
		sim_hold(w, s->cycle + x, PX_STALL_DEPENDENCY);
	}
	if (si->fixup) {
		/* the fix-up's two FP32 instructions on the pipe, its time on
		 * the chain */
		lat += s->sfu_fixup;
		uint64_t *fp = &s->pipe_free[sched][P_FP32];
		*fp = (*fp > s->cycle ? *fp : s->cycle) + 2 * (uint64_t)(s->occ[P_FP32] + 0.5);
	}
	if (si->fence == 1 && s->fence_cta_mio > 0) {
		/* MEMBAR.CTA takes a turn of the SM's MIO, as a shared access
		 * does; the warp's wait (simt_exec.c's fence_wait) starts when
		 * its turn comes */
		double base = mio_turn(s, sched, s->fence_cta_mio);
		sim_hold(w, (uint64_t)(base + 0.999999) + (uint64_t)(s->fence_cta + 0.5), PX_STALL_MEMORY);
	}
	if (si->shbase == SHB_BUILD) {   /* (S2UR SR_CgaCtaId and ULEA before the address is there) */
		lat = si->pipe == P_ALU ? s->shbase_lat : lat + s->shbase_lat;
		w->shbase_at = s->cycle + (uint64_t)(s->shbase_lat + 0.5);
	} else if (si->shbase == SHB_REUSE && w->shbase_at > s->cycle) {
		lat += (double)(w->shbase_at - s->cycle);   /* (the uniform register the first rebuilt) */
	}
	if (si->expand && s->ex_lat[si->expand] > 0) {
		lat = s->ex_lat[si->expand];
		/* (a table's latency shorter than an FP32 instruction's: done at once) */
		double tail = lat > s->lat[P_FP32] ? lat - s->lat[P_FP32] : 0;
		uint64_t seq = s->cycle + (uint64_t)(tail + 0.5);
		if (seq > s->ex_done[w->id])
			s->ex_done[w->id] = seq;
	}
	if (si->ld_class && s->ld_gap[si->ld_class] > 0) {
		/* the warp's next load, of either kind, waits this one's gap (a
		 * fraction of a cycle carries over while the warp issues its
		 * loads as soon as it may) */
		double base = (double)s->cycle < w->ld_next + 1 ? w->ld_next : (double)s->cycle;
		w->ld_next = base + s->ld_gap[si->ld_class];
		uint64_t c = (uint64_t)w->ld_next;
		w->ld_at = (double)c < w->ld_next ? c + 1 : c;
	}
common:;
	uint64_t done = s->cycle + (uint64_t)(lat + 0.5);
	uint8_t why = sim_result_why(si);
	for (uint32_t d = 0; d < si->ndefs; d++) {
		w->ready[si->defs[d]] = done;
		w->res_why[si->defs[d]] = why;
	}
	if (si->vecw)
		w->vec_done = done;   /* (the vector load's other values: exec_free) */
	uint64_t o = (uint64_t)(occ + 0.5);
	if (o < 1)
		o = 1;
	if (si->pipe == P_SHARED) {
		uint64_t *sp = &s->mio_sp_free[sched & 3];
		double so = occ * s->mio_sp_occ;
		if ((si->flags & PX_OPF_STORE) && !(si->flags & PX_OPF_ATOMIC) && so < s->st_sp_occ)
			so = s->st_sp_occ;   /* (a store's least: ldgap_probe's ldgap_st) */
		*sp = (*sp > s->cycle ? *sp : s->cycle) + (uint64_t)(so + 0.5);
	}
	if (si->pipe == P_SHARED || si->pipe == P_SHFL) {
		mio_turn(s, sched, occ > 1 ? occ : 1);
	} else if (si->pipe == P_GLOBAL) {
		s->lsu_free = (s->lsu_free > s->cycle ? s->lsu_free : s->cycle) + o;
		s->unit_rr[U_LSU] = sched + 1 < s->nsched ? sched + 1 : 0;
		s->turn_rr = s->unit_rr[U_LSU];
		if ((si->flags & PX_OPF_STORE) && !(si->flags & PX_OPF_ATOMIC))
			w->gst_at = s->cycle + 1;   /* (a fence waits for it: simt_exec.c's fence_wait) */
		if (s->gst_cost > 0) {
			/* a global or local store's turn of the SM's write path
			 * to L2 (l2st_probe, local_probe), the next such store
			 * waiting for it
			 * (ready_at; units_changed wakes the schedulers) */
			uint64_t b = s->gst_free > s->cycle ? s->gst_free : s->cycle;
			s->gst_free = b + (uint64_t)(s->gst_cost + 0.5);
			s->gst_cost = 0;
		}
		units_changed(s);
	} else {
		s->pipe_free[sched][si->pipe] = s->cycle + o;
		s->pipe_by[sched][si->pipe] = w->id;
	}
	if (!si->ct_rare)
		return;
	uint32_t pc = (uint32_t)(si - s->ins);
	if (si->expand && s->ex_lat[si->expand] > 0)
		expand_issue(s, sched, pc, s->ex_issue[si->expand]);
	if (si->slots > 1)
		expand_issue(s, sched, pc, si->slots);
	if (si->cp_copy && s->cp_issue > 1)
		expand_issue(s, sched, pc, s->cp_issue);
}

/* Runs instruction pc of warp w as a free one (simt_fuse.c): its values
 * now, no issue slot, no pipe; its results are ready when its sources are. */
static void exec_free(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t active)
{
	const struct sim_insn *si = &s->ins[pc];
	if (si->diamond == DM_SPLIT_TAKEN || si->diamond == DM_SPLIT_FALL) {
		/* an if/else ptxas predicates: which lanes run its first side */
		uint32_t taken = branch_taken(s, w, pc, active);
		uint32_t one = si->diamond == DM_SPLIT_TAKEN ? taken : active & ~taken;
		uint64_t *v = &w->val[(size_t)si->defs[0] * 32];
		for (uint32_t l = 0; l < 32; l++)
			v[l] = one >> l & 1;
		w->unk[si->defs[0]] = 0;
	}
	uint32_t unk, g = sim_guard(s, w, si, active, &unk);
	double lat = 0, occ = 0;
	sim_exec(s, w, pc, g, &lat, &occ);
	s->res->warp_insns++;
	uint64_t t = 0;
	uint8_t why = PX_STALL_DEPENDENCY;
	if (si->vecw) {
		/* a vector load's other elements arrive with the first */
		t = w->vec_done;
		why = sim_result_why(si);
	} else if (si->in->op == PX_OP_LD) {
		t = s->cycle + (uint64_t)(lat + 0.5);
		why = sim_result_why(si);
	}
	for (uint32_t u = 0; u < si->nuses; u++)
		if (w->ready[si->uses[u]] > t) {
			t = w->ready[si->uses[u]];
			why = w->res_why[si->uses[u]];
		}
	for (uint32_t d = 0; d < si->ndefs; d++) {
		w->ready[si->defs[d]] = t;
		w->res_why[si->defs[d]] = why;
	}
}

/* Runs the free instruction at the top of w's stack. */
static void run_free(struct sim *s, struct sim_warp *w)
{
	struct sim_frame *top = &w->stk[w->nstk - 1];
	uint32_t pc = top->pc;
	uint32_t b = s->ins[pc].in->block;
	account_loop_enter(s, w, b, pc);
	w->prev_block = b;
	uint32_t active = top->mask & ~w->exited;
	warp_changed(s, w);
	exec_free(s, w, pc, active);
	top->pc = pc + 1;
	win_moved(s, w, pc, pc + 1);
	if (top->pc >= s->nins)
		w->exited |= active;
	settle(s, w);
	if (w->state == W_DONE)
		check_barrier(s);
}

/* Counts one issue of instruction pc with lanes active. */
SIM_HOT void count_issue(struct sim *s, uint32_t pc, uint32_t active)
{
	/* per instruction: its loops' sums come at the end (loop_counts),
	 * the issue path does not wait for the instruction's loop */
	s->ins_issued[pc]++;
	s->ins_lanes[pc] += active == 0xffffffffu ? 32 : sim_popcount(active);
}

/* Adds instruction pc's issue slots to out by pipe (enum px_simt_pipe):
 * its own and those beyond one per issue (ins_slots) on its pipe, but a
 * MUFU's range fix-up's three (sim_insn.fixup) on the ALU (FSETP) and the
 * FP32 pipe (two FMULs), and the predicated region an if-converted branch
 * stands for when every lane skips it (skip_slots) on the region's
 * instructions' pipes; the convergence barrier's (ins_conv). */
static void pipe_counts(const struct sim *s, uint32_t pc, uint64_t *out)
{
	const struct sim_insn *si = &s->ins[pc];
	uint64_t own = s->ins_issued[pc], extra = s->ins_slots[pc];
	out[PX_PIPE_CONVERGENCE] += s->ins_conv[pc];
	if (si->fixup && extra) {
		out[PX_PIPE_ALU] += extra / 3;
		out[PX_PIPE_FP32] += extra - extra / 3;
		extra = 0;
	} else if (si->ifconv && si->skip_slots > 1 && extra) {
		/* k skips, each the branch's issue and skip_slots - 1 more:
		 * the region's instructions' slots (skip_slots, unless capped) */
		uint64_t k = extra / (si->skip_slots - 1u), n = 0;
		for (uint32_t j = pc + 1; j < si->target && j < s->nins; j++)
			n += s->ins[j].free ? 0 : s->ins[j].slots > 1 ? s->ins[j].slots : 1u;
		if (n == si->skip_slots && k <= own) {
			for (uint32_t j = pc + 1; j < si->target && j < s->nins; j++)
				if (!s->ins[j].free)
					out[s->ins[j].pipe] += k * (s->ins[j].slots > 1 ? s->ins[j].slots : 1u);
			own -= k;
			extra = 0;
		}
	}
	out[si->pipe] += own + extra;
}

/* Fills loop_issued, loop_slots, loop_lanes and loop_mem from the instructions'
 * counts: each instruction's go to the selected loops around it
 * (block_loop, then sel_parent). */
static void loop_counts(struct sim *s)
{
	for (uint32_t pc = 0; pc < s->nins; pc++)
		for (int32_t l = s->block_loop[s->ins[pc].in->block]; l >= 0; l = s->sel_parent[l]) {
			uint64_t own = s->ins_issued[pc] + s->ins_slots[pc];
			s->loop_issued[l] += s->ins_issued[pc];
			s->loop_slots[l] += own + s->ins_conv[pc];
			s->loop_lanes[l] += s->ins_lanes[pc];
			pipe_counts(s, pc, &s->loop_pipe[(size_t)l * PX_PIPE_COUNT]);
			sim_mem_counts(s, pc, &s->loop_mem[(size_t)l * PX_MEM_COUNT]);
		}
}

/* bar_arrive's barrier-divergence finding: lanes g of the live ones came. */
static void bar_divergence(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t g, uint32_t live)
{
	uint32_t missing = live & ~g;
	uint32_t tin = g ? w->id * 32 + (uint32_t)__builtin_ctz(g) : w->id * 32;
	uint32_t tout = missing ? w->id * 32 + (uint32_t)__builtin_ctz(missing) : tin;
	char t0[48], t1[48];
	sim_violation(s, PX_V_BARRIER_DIVERGENCE, pc, tin, tout,
	              "barrier reached by thread %s but not by thread %s of the same warp "
	              "(active lanes 0x%08x of 0x%08x)", sim_thread(s, tin, t0), sim_thread(s, tout, t1), g, live);
}

/* Warp w arrives with lanes g at the block barrier pc (bar.sync, barrier,
 * bar.red): checks that every live lane came (barrier-divergence) and
 * makes the warp wait. False when no lane came (nothing waits). */
SIM_HOT bool bar_arrive(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t g)
{
	const struct sim_insn *si = &s->ins[pc];
	uint32_t live = w->exists & ~w->exited;
	if (g != live)
		bar_divergence(s, w, pc, g, live);
	if (!g)
		return false;
	w->bar_id = 0;
	w->bar_pc = pc;
	bool red = si->in->mods & PX_MOD_RED;
	uint32_t ia = red ? 1 : 0;   /* (bar.red d, a{, b}, {!}c: the barrier is the second operand) */
	if (si->nop > ia && si->op[ia].kind == PX_OPND_IMM)
		w->bar_id = (uint32_t)si->op[ia].imm;
	if (red) {
		/* the predicate c of each lane that came, for check_barrier's
		 * reduction; the result is unknown until then */
		const struct sim_opnd *c = &si->op[si->nop - 1];
		w->red_lanes = g;
		w->red_true = 0;
		w->red_unk = g;
		if (c->kind == PX_OPND_REG && c->slot != UINT32_MAX) {
			w->red_unk = w->unk[c->slot] & g;
			for (uint32_t m = g; m; m &= m - 1) {
				uint32_t l = (uint32_t)__builtin_ctz(m);
				w->red_true |= (uint32_t)((w->val[(size_t)c->slot * 32 + l] & 1) ^ (c->neg ? 1 : 0)) << l;
			}
		}
		for (uint32_t d = 0; d < si->ndefs; d++)
			w->unk[si->defs[d]] |= g;
	}
	w->state = W_BARRIER;
	s->nwait++;
	w->bar_seq = s->bar_arrived_warps++;
	w->bar_next = pc + 1;
	w->bar_clock = s->cycle + 1;
	return true;
}

/* The warps of w's scheduler (sched), w aside, that wait after a branch. */
static uint64_t branch_waiters(const struct sim *s, const struct sim_warp *w, unsigned sched)
{
	uint64_t n = 0;
	uint32_t nsched = s->nsched;
	for (uint32_t i = sched; i < s->nwarps; i += nsched) {
		const struct sim_warp *o = &s->w[i];
		n += o != w && o->state == W_READY && o->resume > s->cycle && o->resume_why == PX_STALL_BRANCH;
	}
	return n;
}

/* The warps of wake (bit i: warp i) waited on an mbarrier whose phase
 * completed: they go on when its data is there (simt_mbar.c), and issue
 * their wait again. */
static void mbar_wake(struct sim *s, uint32_t wake)
{
	for (uint32_t d = wake; d; d &= d - 1) {
		struct sim_warp *o = &s->w[__builtin_ctz(d)];
		const struct sim_mbar *m = &s->mbar[o->bar_id];
		o->state = W_READY;
		s->nmwait--;
		uint64_t r = m->done_at > s->cycle ? m->done_at : s->cycle;   /* (its wait's answer: latency.mbarrier_wait after) */
		if (r > o->resume) {
			o->resume = r;
			o->resume_why = PX_STALL_BARRIER;
		}
		warp_changed(s, o);
	}
}

/* Runs mbarrier operation pc (sim_insn.mbar) for the active lanes of w:
 * true when w waits for a phase (W_MBAR, pc stays its top: the wait
 * issues again when mbar_wake wakes it). */
static __attribute__((noinline)) bool mbar_issue(struct sim *s, struct sim_warp *w, uint32_t pc, uint32_t active,
                                                 double *lat, double *occ)
{
	uint32_t unk, g = sim_guard(s, w, &s->ins[pc], active, &unk), wake = 0;
	if (unk)
		sim_guess(s, pc);
	bool wait = sim_mbar_exec(s, w, pc, g, lat, occ, &wake);
	mbar_wake(s, wake);
	if (wait) {
		w->state = W_MBAR;
		s->nmwait++;
		w->win.valid = false;
	}
	return wait;
}

/* ptxas puts a YIELD in a loop that polls memory (a spin loop:
 * sim_insn.poll), next to the read it polls with: after a load, before
 * an atomic. It holds the warp latency.spin_yield cycles: from the load's
 * issue (whose result comes sooner), and before the atomic issues (its
 * result comes that much later). bench/gpu/simt/spin2_probe.cu: a
 * volatile poll of a free flag, LDS, YIELD, ISETP, BRA, 98 cycles an
 * iteration, 66 in the model without; an ATOMS.OR poll, YIELD first, 120
 * (the atomic's latency 7 cycles more than a load's). */
__attribute__((noinline)) static void spin_yield(struct sim *s, struct sim_warp *w, const struct sim_insn *si, double *lat)
{
	bool first = !w->spun;
	w->spun = false;
	if (si->poll_peeled && first)
		return;   /* (ptxas's test before the loop: its_probe's its_flag0, whose PTX loop tests at the top) */
	/* a warp with live lanes off this path (waiting where the paths
	 * rejoin, or on a path it did not yield to) goes to them and back
	 * (spin_probe: lane 0 alone in its branch, 51 cycles an iteration
	 * more than every lane, two path switches) */
	double y = s->spin_yield;
	if ((w->exists & ~w->exited) & ~w->stk[w->nstk - 1].mask)
		y += 2 * (double)s->path_switch;
	if (si->flags & PX_OPF_ATOMIC)
		*lat += y;
	else
		sim_hold(w, s->cycle + 1 + (uint64_t)(y + 0.5), PX_STALL_BRANCH);
}

/* Issues the instruction at the top of w's stack. */
SIM_HOT void issue(struct sim *s, struct sim_warp *w, unsigned sched)
{
	struct sim_frame *top = &w->stk[w->nstk - 1];
	uint32_t pc = top->pc;
	const struct sim_insn *si = &s->ins[pc];
	const struct px_insn *in = si->in;
	uint32_t active = top->mask & ~w->exited;
	uint32_t b = in->block;
	warp_changed(s, w);
	w->wait_pc = UINT32_MAX;   /* (run's first come, first served) */
	if (pc > w->bar_next)
		w->bar_next = 0;   /* (the read right after the barrier has issued, or was not one) */
	account_loop_enter(s, w, b, pc);
	w->prev_block = b;
	count_issue(s, pc, active);
	s->res->warp_insns++;
	double lat = 0, occ = 1;
	uint32_t next = pc + 1;
	if (si->plain)
		goto plain;
	switch (in->op) {
	case PX_OP_BRA: {
		uint32_t taken = branch_taken(s, w, pc, active);
		lat = s->lat[P_BRANCH];
		occ = s->occ[P_BRANCH];
		if (si->target == UINT32_MAX) {
			sim_note(s, pc, "branch target not found: treated as not taken");
			taken = 0;
		}
		/* the warp's next instruction waits for the branch: the table's
		 * branch latency when it is taken (the instruction comes from
		 * elsewhere), branch_not_taken when a conditional one falls
		 * through (bt_probe: about the same in SASS); nothing where ptxas
		 * predicates the region instead (no branch) */
		double hold = taken ? lat : in->guard >= 0 ? s->lat_branch_nt : 0;
		if (si->reunroll) {
			/* a loop ptxas unrolls again by 4 (simt_fuse.c's
			 * mark_reunrolled): three of four back edges are
			 * straight-line code in SASS; leaving it, the warp has
			 * gone through the checks that pick the 16-, 8- and
			 * 4-body parts, four more ISETP and BRA than the PTX's
			 * (kloop_probe's kl_fma: 73 cycles from k = 3 to k = 4,
			 * where the 4-body part is entered; two taken, two not,
			 * each waiting for its ISETP: 74 by the table) */
			w->unroll_n = taken == active ? (w->unroll_n + 1) & 3 : 0;
			if (w->unroll_n)
				hold = 0;
			else if (taken != active)
				hold += 2 * lat + 2 * s->lat_branch_nt + 4 * s->lat[P_ALU];
		}
		if (si->bssy && (taken == active || !taken)) {
			/* BSSY and BSYNC (simt_fuse.c's mark_convergence): a loop's
			 * when the warp leaves it */
			uint32_t to = taken ? si->target : pc + 1;
			int32_t lp = s->f->blocks[b].loop;
			if (si->bssy == BSSY_BRANCH ||
			    (to < s->nins && !sim_loop_has_block(&s->f->loops[lp], s->ins[to].in->block)))
				hold += s->bssy_lat;
		}
		if (hold > 0 && !si->ifconv) {
			uint64_t r = s->cycle + (uint64_t)(hold + 0.5);
			/* a forward taken branch also waits while its scheduler's
			 * instruction fetch serves the other warps of the scheduler
			 * that wait after a branch: branch_redirect cycles for each.
			 * Alone on its scheduler a warp never waits; bt_taken (eight
			 * such branches an iteration) measured 131 / 162 / 204 cycles
			 * at one, two and four warps a scheduler, rd_skip6 (six) 92 /
			 * 119 / 154 / 220 at one to eight: each warp more adds about
			 * three cycles a branch (bt_probe, div_probe, rd_probe). A
			 * fetch unit that serves one warp per branch_redirect cycles
			 * (a queue) fitted four warps but predicted rd_skip6/1024 at
			 * 288 and rd_div/1024 at 216 (129.5 measured): rd_probe's
			 * blind test, tests/check_simt.py. Back edges are not
			 * charged: charging them too moves 114 of the 290 loops, 54
			 * of them worse, rd_div/1024 to +38% */
			uint64_t own = r;
			if (taken && s->redirect && si->target > pc)
				r += s->redirect * branch_waiters(s, w, sched);
			sim_hold(w, r, PX_STALL_BRANCH);
			/* a warp-uniform branch's own latency is its stall count in
			 * SASS, Nsight Compute's wait (fp32_lat/32: wait 73%,
			 * branch_resolving 1%); a split warp's, and the fetch's
			 * turns after the other warps', are the branch's */
			if (w->resume == r && r == own && (taken == active || !taken))
				w->resume_shown = PX_STALL_DEPENDENCY;
		}
		if (si->bssy)
			convergence_slots(s, sched, si, b, taken, active);
		if (taken == active && si->skip_slots > 1) {
			/* ptxas's predicated region, every lane's predicate off:
			 * its instructions issue all the same (the branch's own
			 * slot one of them) */
			expand_issue(s, sched, pc, si->skip_slots);
			skip_region_wait(s, w, si);
		}
		if (taken == active) {
			next = si->target;
		} else if (taken) {
			uint32_t ip = s->f->blocks[b].ipdom;
			uint32_t rpc = ip < s->f->nblocks ? s->f->blocks[ip].first : UINT32_MAX;
			top->pc = rpc;
			uint32_t nt = active & ~taken;
			push(w, si->target, rpc, taken);
			push(w, pc + 1, rpc, nt);
			settle(s, w);
			goto timing;
		}
		break;
	}
	case PX_OP_RET: case PX_OP_EXIT: {
		uint32_t unk, g = sim_guard(s, w, si, active, &unk);
		if (unk)
			sim_guess(s, pc);
		w->exited |= g;
		top->pc = next;
		w->win.valid = false;
		settle(s, w);
		goto timing;
	}
	case PX_OP_BAR: case PX_OP_BARRIER: {
		uint32_t unk, g = sim_guard(s, w, si, active, &unk);
		if (unk)
			sim_guess(s, pc);
		if (in->mods & PX_MOD_WARP) {
			if (g) {   /* the membermask against the lanes that run it */
				sim_member_mask(s, w, si->nop ? &si->op[si->nop - 1] : NULL, g, pc);
				sim_mbar_warp_sync(s, w, g);
			}
			break;
		}
		if (in->mods & PX_MOD_ARRIVE) {
			sim_note(s, pc, "bar.arrive: producer/consumer barriers are not timed");
			break;
		}
		if (!bar_arrive(s, w, pc, g))
			break;
		top->pc = next;
		w->win.valid = false;
		lat = 0;
		occ = s->occ[P_BAR];
		goto timing_nofall;
	}
	case PX_OP_MBARRIER: case PX_OP_CP:
		if (si->mbar) {
			if (mbar_issue(s, w, pc, active, &lat, &occ))
				goto timing_nofall;
			break;
		}
		/* fall through */
	default:
	plain: {
		uint32_t unk, g = sim_guard(s, w, si, active, &unk);
		if (unk) {
			sim_guess(s, pc);
			sim_note(s, pc, "guard predicate depends on an unknown value: the instruction is skipped there");
		}
		sim_exec(s, w, pc, g, &lat, &occ);
		if (si->poll && s->its && s->spin_yield > 0)   /* (YIELD: compute capability 7.0 on) */
			spin_yield(s, w, si, &lat);
		break;
	}
	}
	top->pc = next;
	win_moved(s, w, pc, next);
	if (next >= s->nins)
		w->exited |= active;
	settle(s, w);
timing:
	/* a path that goes round a loop waiting on memory yields to the
	 * warp's other lanes (simt_its.c), at the cost of a switch */
	if (si->spin_edge) {
		w->spun = w->nstk && w->stk[w->nstk - 1].pc == si->target;
		if (!w->nstk || w->stk[w->nstk - 1].pc != si->target) {
			w->spins = 0;   /* (it left the loop: simt_its.c's stuck counts rounds in a row) */
		} else if (sim_its_yield(s, w, pc)) {
			w->spun = false;   /* (the YIELD went to the other path: the switch's cost) */
			w->win.valid = false;
			uint64_t r = s->cycle + s->path_switch;
			sim_hold(w, r, PX_STALL_BRANCH);
			settle(s, w);
		}
	}
	if (w->state == W_DONE)
		check_barrier(s);
timing_nofall:
	commit_timing(s, w, sched, si, lat, occ);
	if (w->state == W_BARRIER)
		check_barrier(s);
}

/* The first cycle pipe (enum sim_pipe; P_COUNT: none) of scheduler sched
 * is free. */
SIM_HOT uint64_t pipe_free_at(const struct sim *s, unsigned pipe, unsigned sched)
{
	return s->pipe_free[sched][pipe];   /* (the SM-wide units' mirrored: units_changed) */
}

/* The first cycle w may issue load si: one warp's loads follow each
 * other more slowly than its scheduler's share of the SM's rates allows,
 * each a gap after the one before, of either kind, by the kind of that one
 * (sim.ld_gap: the arch table's shared_load_interval and
 * global_load_interval; commit_timing moves w->ld_next on); 0 for other
 * instructions. */
SIM_HOT uint64_t ld_ready(const struct sim_warp *w, const struct sim_insn *si)
{
	return si->ld_class ? w->ld_at : 0;
}

/* Fills w's top_* facts (simt_int.h). Requires a non-empty stack. */
SIM_HOT void fill_top(const struct sim *s, struct sim_warp *w)
{
	uint32_t pc = w->stk[w->nstk - 1].pc;
	w->top_valid = true;
	if (pc >= s->nins) {
		w->top_bar = false;
		return;
	}
	const struct sim_insn *si = &s->ins[pc];
	uint64_t t = w->resume;
	unsigned why = w->resume_why;
	for (uint32_t u = 0; u < si->nuses; u++) {
		uint64_t r = w->ready[si->uses[u]];
		if (r > t) {
			t = r;
			why = w->res_why[si->uses[u]];
		}
	}
	/* a branch follows the sequences of the expanded instructions before
	 * it: ptxas cannot move their instructions past it, and each waits
	 * for the one before (sw_probe's sw4_uni_sqrt: the square root's
	 * refinement issues before the next case's tests) */
	if (si->in->op == PX_OP_BRA && !si->ifconv && s->ex_done[w->id] > t) {
		t = s->ex_done[w->id];
		why = PX_STALL_DEPENDENCY;
	}
	uint64_t lt = ld_ready(w, si);
	if (lt > t) {
		t = lt;
		why = PX_STALL_PIPE;
	}
	w->top_rt = t;
	w->top_why = (uint8_t)why;
	w->top_pipe = si->pipe;
	w->top_bar = si->block_bar;
	w->top_store = si->pipe == P_SHARED && (si->flags & (PX_OPF_STORE | PX_OPF_ATOMIC)) && !si->ndefs;
	w->top_gst = si->in->op == PX_OP_ST && si->pipe == P_GLOBAL;
}

/* The earliest cycle w's next instruction can issue, and why it waits. */
SIM_HOT uint64_t ready_at(struct sim *s, struct sim_warp *w, unsigned sched, unsigned *why)
{
	if (!w->top_valid)
		fill_top(s, w);
	uint64_t t = w->top_rt;
	*why = w->top_why;
	uint64_t p = pipe_free_at(s, w->top_pipe, sched);
	if (w->top_store)   /* nothing waits on it: it goes into the MIO's queue */
		p = p > s->st_queue ? p - s->st_queue : 0;
	if (w->top_gst && s->gst_free > s->gst_queue && s->gst_free - s->gst_queue > p)
		p = s->gst_free - s->gst_queue;   /* (the write path's backlog) */
	if (p > t) {
		t = p;
		*why = PX_STALL_PIPE;
	}
	return t;
}

/* The stall reason reported for warp w, waiting for its next instruction
 * for reason y (ready_at's; the scheduling keeps y), as Nsight Compute
 * names the warp states (stalls.sh, stalls_compare.py):
 *  - a warp-uniform branch's own latency is its stall count in SASS, wait
 *    (dependency here; fp32_lat/32: wait 73%, branch_resolving 1%): the
 *    branch reason is kept for a split warp's and for the fetch's turns
 *    (issue's resume_shown);
 *  - a scheduler's pipe its own last instruction holds is a wait of its
 *    own, which ptxas writes into that instruction's stall count (a single
 *    warp's throughput loops: int_mad_tput/32, wait 54%,
 *    math_pipe_throttle 0), dependency; another warp's is pipe_busy;
 *  - the SM-wide units (MIO, LSU) take an instruction into their queue,
 *    and the warp waits with it for its result: mio (short_scoreboard) or
 *    memory (long_scoreboard). Where the queue is full the hardware
 *    throttles the issue instead (many warps' shared stores and atomics:
 *    mio_throttle, lg_throttle), which the model, without the queue's
 *    depth, does not tell apart. */
SIM_HOT unsigned shown_why(const struct sim *s, const struct sim_warp *w, unsigned sched, unsigned y)
{
	if (y == PX_STALL_BRANCH)   /* (only resume_why gives it) */
		return w->resume_shown;
	if (y != PX_STALL_PIPE)
		return y;
	unsigned p = w->top_pipe;
	bool mio = p == P_SHARED || p == P_SHFL;
	if (mio || p == P_GLOBAL)   /* (the unit's queue takes the instruction: below) */
		return mio ? PX_STALL_MIO : PX_STALL_MEMORY;
	return s->pipe_by[sched][p] == w->id ? PX_STALL_DEPENDENCY : PX_STALL_PIPE;
}

/* ptxas list-schedules each basic block: an instruction whose sources are
 * ready goes ahead of earlier ones that wait (loads first, so that many are
 * in flight: global_stream's SASS issues 14 loads before the first add that
 * uses one). The simulator runs PTX in order, so a warp whose next
 * instruction waits may issue a later instruction of the same basic block,
 * at most LOOKAHEAD instructions ahead, when no register hazard (read after
 * write, write after read or write) separates it from the instructions it
 * passes and no branch, barrier, store, atomic or warp-wide operation lies
 * in between; a load passes a store only of another state space (ptxas
 * does not move loads across stores it cannot prove apart). A branch over
 * a short region that ptxas if-converts does not stop it: the region's
 * instructions go with the lanes that run them, and a region that follows
 * another's join is looked into too (stencil2d_loop's SASS issues the
 * loads of `if (tx < 2)` and `if (ty < 2)` with the unconditional one,
 * three LDG back to back). Free instructions on the way run at once.
 * Nor does a block barrier: ptxas moves register-only instructions across
 * BAR.SYNC both ways (gemm_loop's SASS computes the next tile's addresses
 * and the loop counter before the BAR that ends an iteration and leaves
 * the last FFMAs, which wait on the last LDS, after it, behind the next
 * tile's LDGs; stencil2d_loop's does the same with its FADDs). So the
 * lookahead passes one barrier to issue ready register-only instructions
 * after it (memory operations stay behind it), and when nothing can issue
 * and everything that waits before the barrier is register-only, the warp
 * arrives at the barrier now and runs those instructions after it; a warp
 * standing at a barrier looks past it in the same way first, and on
 * through the back edge of an innermost loop (follow_back_edge). Returns true
 * when it issued something; else lowers *retry to the first cycle one
 * could go. */
/* 62 PTX instructions, done and free ones counted, the most the window's
 * bit masks hold [F]; and the loads issued ahead of the top may hold
 * EARLY_LOAD_REGS registers (sim_insn.ld_regs) until the top passes them
 * [F]. ptxas schedules a whole block: le_f88_d64's SASS interleaves two
 * FFMA chains whose PTX starts 74 instructions apart, and l2s_co4's issues
 * 14 of its unrolled body's 16 loads (a register each) before the first
 * add, 120 PTX instructions in; but it keeps what the hoisted loads hold
 * in registers down: l2bw_ld64's (two registers each) go in groups of 5
 * and 6, each before its adds, and nbody_loop's register-heavy body
 * issued more loads ahead than its SASS with a window of 48 (-41% at 128
 * threads). The window was 40 (clip_sum_loop's four unrolled loads, the
 * fourth 42 PTX instructions after the first), and before 2026-11-26 32.
 * Of check_simt's 1472 loops with a window of 40 and no budget, 1408
 * within 35%, mean absolute error 10.19%; 62 and no budget 1409, 10.25%;
 * 62 and a budget of 4, 6, 8, 10, 12, 16, 24 registers 1395, 1408, 1417,
 * 1417, 1415, 1412, 1409 (10 the least mean error, 9.90%; the median 5.2%
 * at each): 61 loops move by more than 3 points, 36 closer (l2s_co4/128
 * +57% -> +12%, ddot_loop/512 -43% -> -3%, nbody_loop/128 -28% -> -9%,
 * sad_motion_loop/128 -37% -> -33%; le_f106_d0/128 -19% -> +41%,
 * shared_pick_loop/128 -40% -> -55%) */
#define LOOKAHEAD 62
#define EARLY_LOAD_REGS 10
/* How far after an instruction that is not register-only mark_hoist_past
 * looks for register-only work that may move up past it (the scan past a
 * block barrier): the 40 the window had [F]. With the window's 62,
 * gemm_loop's scans past its barriers walked 15 times as far (1.5 M steps
 * for 300 iterations against 0.1 M), its host time 2.7 times as long,
 * and gemm_loop/256 went from -0.5% to +0.8%; no other loop moves. */
#define HOIST_AHEAD 40
/* (a window's instructions are bits of a uint64_t: win_leave) */
_Static_assert(LOOKAHEAD <= 62, "sim_insn.hold tells a window's instructions apart");
/* 1: shared, 2: global/local/const/param, 3: generic (either); 0: no memory */
static unsigned mem_space_class(const struct sim_insn *c)
{
	if (!(c->flags & (PX_OPF_LOAD | PX_OPF_STORE | PX_OPF_ATOMIC)))
		return 0;
	switch (c->in->space) {
	case PX_SPACE_SHARED: case PX_SPACE_SHARED_CTA: return 1;
	case PX_SPACE_GENERIC: case PX_SPACE_NONE: return 3;
	default: return 2;
	}
}
/* A shared atom/red.add.f32, or .min or .max of 64-bit integers, is a
 * loop in SASS (LDS, the operation, ATOMS.CAST.SPIN and a branch back for
 * the lanes whose swap failed; held-out 21's zbuffer_loop: LDS.64, two
 * ISETP and a branch out where the word is already the lower, ATOMS.CAST.
 * SPIN.64; simt_exec.c's shared_cas_loop times it): ptxas moves nothing
 * across it, and the lookahead stops there. held-out 11's shist_f32_loop:
 * the next iteration's LDG comes after the loop's BSYNC in its SASS. */
static bool cas_loop(const struct sim_insn *c)
{
	const struct px_insn *in = c->in;
	if ((in->op != PX_OP_ATOM && in->op != PX_OP_RED) || mem_space_class(c) != 1 || !in->ntypes)
		return false;
	enum px_type t = in->types[in->ntypes - 1];
	return ((c->mw & MW(ADD)) && t == PX_TYPE_F32) ||
	       ((c->mw & (MW(MIN) | MW(MAX))) && (t == PX_TYPE_U64 || t == PX_TYPE_S64));
}

/* the decoded flags say it may be a barrier (cheap: no px_insn read) */
static bool may_be_barrier(const struct sim_insn *c)
{
	return (c->flags & PX_OPF_BARRIER) || c->pipe == P_BAR;
}

/* bar.sync / barrier.sync of the whole block (not .red, .arrive, .warp) */
static bool block_barrier(const struct sim_insn *c)
{
	return (c->in->op == PX_OP_BAR || c->in->op == PX_OP_BARRIER) &&
	       !(c->in->mods & (PX_MOD_WARP | PX_MOD_ARRIVE | PX_MOD_RED)) && c->in->guard < 0;
}

/* computes on registers only: no memory, no control, no warp-wide or
 * special-register operand (clock reads stay where they are) */
static bool reg_only(const struct sim_insn *c)
{
	if (c->flags & (PX_OPF_LOAD | PX_OPF_STORE | PX_OPF_ATOMIC | PX_OPF_BRANCH | PX_OPF_TERM | PX_OPF_CALL |
	                PX_OPF_BARRIER | PX_OPF_WARP) ||
	    c->pipe == P_SHFL || c->pipe == P_BAR || c->pipe == P_BRANCH || c->pipe == P_GLOBAL || c->pipe == P_SHARED)
		return false;
	for (uint32_t k = 0; k < c->in->nopnds; k++)
		if (c->in->opnds[k].kind == PX_OPND_SREG)
			return false;
	return true;
}

/* whether slot lists a and b share a slot */
static bool shares_slot(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
	for (uint32_t i = 0; i < na; i++)
		for (uint32_t j = 0; j < nb; j++)
			if (a[i] == b[j])
				return true;
	return false;
}

/* Fills sim_insn.hold and .holds: which instructions of its basic block,
 * up to LOOKAHEAD apart (the farthest two of a window are), one may not
 * go ahead of (register hazards, a store and a memory access of one state
 * space), as issue_early's window counts them (win_append). Needs
 * mem_class. */
static void win_hazards(struct sim *s)
{
	for (uint32_t k = 0; k < s->nins; k++)
		s->ins[k].hold = s->ins[k].holds = 0;
	for (uint32_t k = 0; k < s->nins; k++) {
		struct sim_insn *c = &s->ins[k];
		uint32_t first = c->block_first;
		for (uint32_t d = 1; d <= LOOKAHEAD && d <= k - first; d++) {
			struct sim_insn *e = &s->ins[k - d];
			if (shares_slot(e->defs, e->ndefs, c->uses, c->nuses) ||
			    shares_slot(e->defs, e->ndefs, c->defs, c->ndefs) ||
			    shares_slot(e->uses, e->nuses, c->defs, c->ndefs) ||
			    ((e->flags & (PX_OPF_STORE | PX_OPF_ATOMIC)) && (e->mem_class & c->mem_class))) {
				c->hold |= 1ull << (64 - d);
				e->holds |= 1ull << d;
			}
		}
	}
}

/* Fills sim_insn.hoist_past: for an instruction that is not register-only,
 * whether a register-only one after it, in its basic block and within
 * HOIST_AHEAD, reads no register that it or another such instruction between
 * writes (directly or through register-only ones that read them) and
 * writes none they read or write: one the scan past a block barrier might
 * move up past it (full_scan). Where none is, the scan stops there, as it
 * would find nothing (gemm_loop's 64 shared loads and their FMAs after a
 * barrier). Needs reg_only and free. */
static void mark_hoist_past(struct sim *s)
{
	uint32_t *taint = xcalloc(s->nslots + 1, sizeof *taint), *blocked = xcalloc(s->nslots + 1, sizeof *blocked);
	uint32_t gen = 0;
	for (uint32_t i = 0; i < s->nins; i++) {
		struct sim_insn *c = &s->ins[i];
		c->hoist_past = false;
		if (c->reg_only || (c->scan_stop && !c->block_bar))
			continue;
		gen++;
		uint32_t end = c->block_end, lim = i + HOIST_AHEAD + 1;
		for (uint32_t j = i; j < end && j < lim && !c->hoist_past; j++) {
			const struct sim_insn *e = &s->ins[j];
			if (e->scan_stop && !e->block_bar)
				break;
			bool tainted = false, clash = false;
			for (uint32_t u = 0; u < e->nuses; u++)
				tainted |= taint[e->uses[u]] == gen;
			for (uint32_t d = 0; d < e->ndefs; d++)
				clash |= taint[e->defs[d]] == gen || blocked[e->defs[d]] == gen;
			if (!e->reg_only) {
				for (uint32_t d = 0; d < e->ndefs; d++)
					taint[e->defs[d]] = gen;
				for (uint32_t u = 0; u < e->nuses; u++)
					blocked[e->uses[u]] = gen;
			} else if (tainted || clash) {
				for (uint32_t d = 0; d < e->ndefs; d++)
					taint[e->defs[d]] = gen;
			} else if (!e->free) {
				c->hoist_past = true;
			}
		}
	}
	free(taint);
	free(blocked);
}

/* Whether branch c goes back to the first instruction of the header of
 * its innermost loop, and that loop has no inner loops (an inner loop's
 * branches are not unrolled): follow_back_edge's sim_insn.back_edge. */
static bool inner_back_edge(const struct px_func *f, const struct sim_insn *c)
{
	if (!(c->flags & PX_OPF_BRANCH) || c->target == UINT32_MAX)
		return false;
	uint32_t hb = f->insns[c->target].block;
	int32_t l = f->blocks[c->in->block].loop;
	if (l < 0 || f->loops[l].header != hb || f->blocks[hb].first != c->target)
		return false;
	for (uint32_t i = 0; i < f->loops[l].nblocks; i++)
		if (f->blocks[f->loops[l].blocks[i]].loop != l)
			return false;
	return true;
}

/* ptxas unrolls innermost loops (gemm_loop's and stencil2d_loop's by 4),
 * so that the next iteration's address arithmetic sits before the barrier
 * that ends the current one, in straight-line code (their SASS); at the
 * remaining back edge, at a loop with inner loops (transpose_loop) and at
 * forward branches it stays after it. So the back edge of an innermost
 * loop, taken by all its lanes with a ready predicate, does not stop a
 * lookahead that has passed a barrier (only register-only instructions
 * issue from there): it goes on at the loop's header. Sets *k to the
 * instruction before the one to look at next. */
static bool follow_back_edge(struct sim *s, struct sim_warp *w, const struct sim_insn *c,
                             const struct sim_frame *top, uint32_t active, uint32_t *k)
{
	/* (a predicate not ready yet sets w->early_unlock: issue_early) */
	if (!c->back_edge || c->target == top->rpc || c->spin_edge)
		return false;
	for (uint32_t u = 0; u < c->nuses; u++)
		if (w->ready[c->uses[u]] > s->cycle) {
			if (w->ready[c->uses[u]] < w->early_unlock)
				w->early_unlock = w->ready[c->uses[u]];
			return false;
		}
	uint32_t unk, taken = sim_guard(s, w, c, active, &unk);
	if (unk || taken != active)
		return false;
	*k = c->target - 1;
	return true;
}

/* Lowers w's early_t[p] to t (early_t[p] counts as UINT64_MAX while
 * early_pipes lacks p). */
SIM_HOT void early_lower(struct sim_warp *w, unsigned p, uint64_t t)
{
	uint64_t cur = w->early_pipes >> p & 1 ? w->early_t[p] : UINT64_MAX;
	if (t < cur) {
		w->early_t[p] = t;
		w->early_pipes |= (uint16_t)(1u << p);
	}
}

/* The first cycle the sources of instruction c, a candidate of w's scan,
 * are ready (at least w->resume). */
SIM_HOT uint64_t early_sources_at(const struct sim_warp *w, const struct sim_insn *c)
{
	uint64_t t = w->resume;
	for (uint32_t u = 0; u < c->nuses; u++)
		if (w->ready[c->uses[u]] > t)
			t = w->ready[c->uses[u]];
	uint64_t lt = ld_ready(w, c);
	return lt > t ? lt : t;
}

/* The first cycle instruction c, a candidate of w's scan, could issue on
 * scheduler sched: its sources ready (*treg) and its pipe free. */
SIM_HOT uint64_t early_ready_at(const struct sim *s, const struct sim_warp *w, unsigned sched,
                                const struct sim_insn *c, uint64_t *treg)
{
	uint64_t t = *treg = early_sources_at(w, c);
	uint64_t pf = pipe_free_at(s, c->pipe, sched);
	return pf > t ? pf : t;
}

/* The scan passes candidate c, which could issue at t > now (its sources
 * at treg): the first cycle to try again and what the warp waits for. */
SIM_HOT void early_wait(struct sim_warp *w, const struct sim_insn *c, uint64_t t, uint64_t treg,
                        uint64_t *retry)
{
	if (t < *retry)
		*retry = t;
	early_lower(w, c->pipe, treg);
}

/* The scan runs free instruction k (lanes kmask) on its way. */
SIM_HOT void early_free(struct sim *s, struct sim_warp *w, uint32_t k, uint32_t kmask)
{
	exec_free(s, w, k, kmask);
	mark_done(s, w, k);
}

/* The scan issues instruction k (lanes kmask) ahead of the top. */
SIM_HOT void early_issue(struct sim *s, struct sim_warp *w, unsigned sched, uint32_t k, uint32_t kmask)
{
	const struct sim_insn *c = &s->ins[k];
	uint32_t unk;
	uint32_t g = sim_guard(s, w, c, kmask, &unk);
	double lat = 0, occ = 1;
	sim_exec(s, w, k, g, &lat, &occ);
	w->early_ld_regs += c->ld_regs;
	mark_done(s, w, k);
	s->res->warp_insns++;
	count_issue(s, k, kmask);
	commit_timing(s, w, sched, c, lat, occ);
	warp_changed(s, w);
}

/* Instruction k joins w's window at its end (k == lim), as the full scan
 * would meet it: done (skipped), where the full scan goes on by rules of
 * its own (special), where it stops (closed), else pending, held back by
 * the pending ones before it that write a register it reads, read or
 * write one it writes, or (a load) store to a state space it may read
 * (its sim_insn.hold among the pending ones; win_leave looks again). */
static void win_append(const struct sim *s, struct sim_warp *w, uint32_t k)
{
	struct sim_win *wn = &w->win;
	if (!w->done[k]) {
		const struct sim_insn *c = &s->ins[k];
		uint64_t b = win_bit(k);
		bool top = k == wn->base;
		if (c->block_bar || (!top && c->ifconv && k + 1 == c->block_end) ||
		    (!top && c->reunroll && ((w->unroll_n + 1) & 3))) {   /* (full_scan follows the back edge) */
			/* the full scan goes on after the window, past its pending
			 * instructions' registers (win_wr, win_rd) */
			wn->special = true;
			struct sim_tail *tl = &s->tail[w->id];
			tl->k = tl->j = UINT32_MAX;   /* (nothing known past it yet) */
			tl->stop = false;
			for (uint32_t j = wn->base; j < k; j++)
				if (wn->pending & win_bit(j))
					win_mark_slots(s, w, j);
			return;
		}
		if (!top && c->scan_stop) {
			wn->closed = true;
			return;
		}
		if (top && c->wall)
			wn->closed = true;   /* (the top is the window's all the same) */
		uint64_t blk = win_rel(c->hold, k) & wn->pending & win_range(wn->base, k);
		wn->pending |= b;
		if (c->flags & (PX_OPF_STORE | PX_OPF_ATOMIC)) {
			unsigned mc = c->mem_class;
			wn->never |= b;
			wn->stores[0] |= mc & 1 ? b : 0;
			wn->stores[1] |= mc & 2 ? b : 0;
		} else if (!blk && !top) {
			wn->cand |= b;
		}
	}
	wn->lim = k + 1;
}

/* w's window anew: the top alone. */
static void win_rebuild(const struct sim *s, struct sim_warp *w)
{
	struct sim_win *wn = &w->win;
	/* the slot masks hold a special window's pending instructions */
	if (wn->special)
		for (uint32_t k = wn->base; k < wn->lim; k++)
			if (wn->pending & win_bit(k))
				win_unmark_slots(s, w, k);
	const struct sim_frame *top = &w->stk[w->nstk - 1];
	uint32_t pc = top->pc;
	wn->valid = true;
	wn->special = wn->closed = false;
	wn->base = wn->lim = pc;
	/* the scan stops at the block's end and where other paths rejoin */
	wn->end = s->ins[pc].block_end;
	if (top->rpc > pc && top->rpc < wn->end)
		wn->end = top->rpc;
	wn->nstk = w->nstk;
	wn->rpc = top->rpc;
	wn->pending = wn->cand = wn->never = wn->stores[0] = wn->stores[1] = 0;
	win_append(s, w, pc);
}

/* Whether the scan from the top goes on after the window's last
 * instruction (to LOOKAHEAD instructions after the top, done ones
 * counted). The window grows as far as scans go, no further: what no
 * scan reached costs nothing when the top moves on. */
SIM_HOT bool win_open(const struct sim_win *wn)
{
	return !wn->special && !wn->closed && wn->lim < wn->end && wn->lim - wn->base <= LOOKAHEAD;
}

/* The scan from the top over the window: its candidates in program order
 * (the ones the full scan finds free of hazards), the free ones run, the
 * first ready one issued. 1: it issued; 0: nothing can issue now (the
 * full scan's outcome: it stops where the window ends); -1: nothing in
 * the window can, and the scan goes on after it by the full scan's rules
 * (issue_early's loop from lim: a block barrier, an if-converted branch). */
static int win_scan(struct sim *s, struct sim_warp *w, unsigned sched, uint64_t *retry)
{
	struct sim_win *wn = &w->win;
	const struct sim_frame *top = &w->stk[w->nstk - 1];
	if (!wn->valid || wn->base != top->pc || wn->nstk != w->nstk || wn->rpc != top->rpc)
		win_rebuild(s, w);
	uint32_t active = top->mask & ~w->exited;
	w->early_pipes = 0;
	w->early_unlock = UINT64_MAX;
	w->early_valid = true;
	unsigned r = wn->base & 63;
	/* pipes busy now whose early_t is at most their free cycle: what the
	 * scan waits for there is that cycle (early_t counts only as far as it
	 * is later: issue_early), and later candidates on them change nothing
	 * (the pipes' free cycles stay while it runs) */
	unsigned sat = 0;
	/* the candidates from the top on (bit i: instruction base + i), from
	 * from on: found again where cand may have changed (fresh) */
	uint64_t rel = 0;
	bool fresh = true;
	for (unsigned from = 1;; rel &= rel - 1) {
		if (fresh) {
			rel = (wn->cand >> r | wn->cand << ((64 - r) & 63)) & (~0ull << from);
			fresh = false;
		}
		if (!rel) {
			if (!win_open(wn))
				break;
			win_append(s, w, wn->lim);
			fresh = true;
			continue;
		}
		unsigned i = (unsigned)__builtin_ctzll(rel);
		uint32_t k = wn->base + i;
		from = i + 1;
		unsigned p = s->ins_pipe[k];
		if (p & 0x80) {
			early_free(s, w, k, active);
			fresh = true;
			continue;
		}
		if (sat >> p & 1)
			continue;
		const struct sim_insn *c = &s->ins[k];
		if (w->early_ld_regs + c->ld_regs > EARLY_LOAD_REGS)
			continue;   /* (a load past the budget: until the top passes one issued early) */
		/* early_ready_at's sources and pipe */
		uint64_t treg = early_sources_at(w, c);
		uint64_t pf = pipe_free_at(s, p, sched);
		if (treg <= s->cycle && pf <= s->cycle) {
			early_issue(s, w, sched, k, active);
			return 1;
		}
		early_wait(w, c, treg > pf ? treg : pf, treg, retry);
		if ((pf > s->cycle && w->early_t[p] <= pf) || (c->ld_class && treg == w->ld_at))
			sat |= 1u << p;   /* (the later loads on p wait for ld_at too) */
	}
	return wn->special ? -1 : 0;
}

/* A new number for w's scan to stamp hz_def/hz_use with. */
static uint32_t hz_next_gen(const struct sim *s, struct sim_warp *w)
{
	uint32_t gen = ++w->hz_gen;
	if (!gen) {
		memset(w->hz_def, 0, (s->nslots + 1) * sizeof *w->hz_def);
		memset(w->hz_use, 0, (s->nslots + 1) * sizeof *w->hz_use);
		gen = w->hz_gen = 1;
	}
	return gen;
}

/* Whether an instruction the scan passed writes (hz: hz_def, win:
 * win_wr) or reads (hz_use, win_rd) slot x. */
SIM_HOT bool hz_passed(const uint32_t *hz, const uint64_t *win, uint32_t x, uint32_t gen)
{
	return hz[x] == gen || win[x] != 0;
}

static bool full_scan(struct sim *s, struct sim_warp *w, unsigned sched, uint64_t *retry, bool resume, bool win);

/* full_scan's walk on from the window's barrier (bar_k, else nothing is
 * known) meets, at instruction k, n after the top, the first thing a
 * change of the window may change, or stops there for good (stop):
 * struct sim_tail. Returns false (the walk is no longer inert). */
SIM_HOT bool tail_mark(struct sim_tail *tl, const struct sim_warp *w, uint32_t bar_k, uint32_t pc, uint32_t k,
                       uint32_t n, uint32_t end, uint32_t edge, bool stop)
{
	if (bar_k != UINT32_MAX) {
		tl->k = k;
		tl->n = n - (w->win.lim - pc);
		tl->end = end;
		tl->edge = edge;
		tl->stop = stop;
	}
	return false;
}

static bool issue_early(struct sim *s, struct sim_warp *w, unsigned sched, uint64_t *retry)
{
	/* The scan depends on the warp's state, the cycle and the pipes' free
	 * cycles, which only grow. One that issued nothing left what it waited
	 * for (early_t, early_unlock): until the warp changes a new scan runs
	 * the same instructions (none: the free ones it ran are done), and
	 * before those cycles, early_t's raised to their pipe's free cycle now,
	 * it issues nothing and lowers *retry to exactly early_t's first. */
	if (w->early_valid) {
		uint64_t t = UINT64_MAX;
		for (unsigned m = w->early_pipes; m; m &= m - 1) {
			unsigned p = (unsigned)__builtin_ctz(m);
			uint64_t pf = pipe_free_at(s, p, sched);
			uint64_t tp = w->early_t[p] > pf ? w->early_t[p] : pf;
			if (tp < t)
				t = tp;
		}
		if (t > s->cycle && w->early_unlock > s->cycle) {
			if (t < *retry)
				*retry = t;
			return false;
		}
	}
	/* The last scan issued an instruction and the warp is as it left it
	 * (scan_valid): the instructions before that one are what the new scan
	 * would pass first, with the same hazards and the same outcome unless
	 * one of the candidates among them is ready now (its registers are
	 * as they were: the instruction issued writes none they read). While
	 * none is, the scan goes on after the issued instruction, from the
	 * state it kept, its candidates' earliest cycles lowering *retry as
	 * the full scan's would. */
	bool resume = false;
	if (w->scan_valid) {
		uint64_t t = UINT64_MAX;
		for (unsigned m = w->scan.pipes; m; m &= m - 1) {
			unsigned p = (unsigned)__builtin_ctz(m);
			uint64_t pf = pipe_free_at(s, p, sched);
			uint64_t tp = w->scan.t[p] > pf ? w->scan.t[p] : pf;
			if (tp < t)
				t = tp;
		}
		/* (a scan that went on from the window passed the window's
		 * pending instructions: as they were while the warp is as it was) */
		resume = t > s->cycle && (!w->scan.win || (w->win.valid && w->win.base == w->stk[w->nstk - 1].pc));
		if (resume && t < *retry)
			*retry = t;
		w->scan_valid = false;   /* set again when this scan issues */
	}
	struct sim_frame *top = &w->stk[w->nstk - 1];
	uint32_t pc = top->pc;
	/* A scan from the top runs over the window first (all of it when the
	 * window ends where the scan stops), and goes on below from where the
	 * window ends, past the instructions it covers. A block barrier at the
	 * top is the scan's own (bar_k). */
	bool win = false;
	const struct sim_insn *c = &s->ins[pc];
	if (!resume && !c->block_bar) {
		int r = win_scan(s, w, sched, retry);
		if (r >= 0)
			return r;
		win = true;
	} else if (!resume && (pc + 1 >= c->block_end || (!w->done[pc + 1] && c[1].block_bar))) {
		/* the full scan's outcome where another block barrier (or the
		 * block's end) follows the one at the top: nothing to pass to */
		w->early_pipes = 0;
		w->early_unlock = UINT64_MAX;
		w->early_valid = true;
		return false;
	}
	return full_scan(s, w, sched, retry, resume, win);
}

/* issue_early's scan by its own rules: from the top (a block barrier
 * there), on from where the window ends (win), or on from where the
 * last scan stopped (resume). Out of run(), where it is rare in most
 * kernels and large. */
__attribute__((noinline)) static bool full_scan(struct sim *s, struct sim_warp *w, unsigned sched,
                                                uint64_t *retry, bool resume, bool win)
{
	struct sim_frame *top = &w->stk[w->nstk - 1];
	uint32_t pc = top->pc;
	/* the registers the instructions passed over write (hz_def) and read
	 * (hz_use) hold later ones back: stamped with this scan's number, and
	 * the window's pending instructions' (win_wr, win_rd) when it went on
	 * from the window */
	uint32_t *hd = w->hz_def, *hu = w->hz_use, gen;
	uint32_t active = top->mask & ~w->exited;
	uint32_t end, k0, n0;
	uint32_t region_end, region_mask;   /* an if-converted region and its lanes */
	unsigned stores;   /* state spaces of the stores passed over */
	uint32_t bar_k;   /* a block barrier passed over */
	bool crossed = false;
	/* on from the window's barrier: inert while the walk meets only what
	 * no change of the window changes (struct sim_tail); edge: the back
	 * edge it followed */
	bool inert = false;
	uint32_t edge = UINT32_MAX;
	struct sim_tail *tl = &s->tail[w->id];
	if (resume) {
		const struct sim_scan *sc = &w->scan;
		gen = w->hz_gen;
		k0 = sc->k;
		n0 = sc->n;
		end = sc->end;
		region_end = sc->region_end;
		region_mask = sc->region_mask;
		bar_k = sc->bar_k;
		crossed = sc->crossed;
		stores = sc->stores;
		memcpy(w->early_t, sc->t, sizeof sc->t);
		w->early_pipes = sc->pipes;
		win = sc->win;
	} else if (win) {
		/* the window's scan ran its free instructions and lowered
		 * early_t for its candidates; on from lim, or from where the
		 * walk last met something (struct sim_tail) */
		const struct sim_win *wn = &w->win;
		/* (it stops where it did with nothing to issue, and the barrier
		 * still waits for tail_j: what it found) */
		if (tl->stop && tl->j != UINT32_MAX && tl->j >= pc && !w->done[tl->j])
			return false;
		gen = hz_next_gen(s, w);
		k0 = wn->lim;
		n0 = k0 - pc;
		end = s->ins[pc].block_end;
		region_end = region_mask = 0;
		bar_k = UINT32_MAX;
		stores = (wn->stores[0] ? 1u : 0) | (wn->stores[1] ? 2u : 0);
		inert = s->ins[k0].block_bar;
		if (tl->k != UINT32_MAX) {
			bar_k = k0;
			k0 = tl->k;
			n0 += tl->n;
			end = tl->end;
			edge = tl->edge;
			crossed = edge != UINT32_MAX;
			if (edge != UINT32_MAX)   /* (what following it stamped) */
				for (uint32_t u = 0; u < s->ins[edge].nuses; u++)
					hu[s->ins[edge].uses[u]] = gen;
		}
	} else {
		gen = hz_next_gen(s, w);
		k0 = pc;
		n0 = 0;
		end = s->ins[pc].block_end;
		region_end = region_mask = 0;
		bar_k = UINT32_MAX;
		stores = 0;
		w->early_pipes = 0;
	}
	const uint64_t *wd = win ? w->win_wr : s->no_slots, *wu = win ? w->win_rd : s->no_slots;
	w->early_unlock = UINT64_MAX;
	w->early_valid = true;
	uint32_t rpc = top->rpc;
	uint32_t k, n;
	for (k = k0, n = n0; k < end && n <= LOOKAHEAD; k++, n++) {
		if (k == rpc) {
			if (inert)
				inert = tail_mark(tl, w, bar_k, pc, k, n, end, edge, true);
			break;   /* where the lanes of the other paths rejoin: what
			          * follows runs with them (an if-converted branch
			          * whose lanes all jump leads here) */
		}
		if (w->done[k])
			continue;   /* (never the top: it is not done while the warp stands there) */
		if (n && k == pc) {
			if (inert)
				inert = tail_mark(tl, w, bar_k, pc, k, n, end, edge, false);
			break;   /* round a loop and back */
		}
		const struct sim_insn *c = &s->ins[k];
		uint32_t kmask = k < region_end ? region_mask : active;
		unsigned fl = c->flags;   /* px_opcode_flags(c->in->op) */
		if (n) {
			bool hazard = false;
			for (uint32_t u = 0; u < c->nuses; u++)
				hazard |= hz_passed(hd, wd, c->uses[u], gen);
			if (c->ifconv && k + 1 == end && k >= region_end) {
				/* ptxas predicates the short region this branch skips
				 * (simt_fuse.c): look on into it, with its lanes, and on
				 * to the end of the block where it rejoins */
				if (inert)
					inert = tail_mark(tl, w, bar_k, pc, k, n, end, edge, false);
				uint64_t tp = 0;
				for (uint32_t u = 0; u < c->nuses; u++)
					if (w->ready[c->uses[u]] > tp)
						tp = w->ready[c->uses[u]];
				if (hazard || tp > s->cycle) {
					if (!hazard && tp < *retry)
						*retry = tp;
					if (!hazard)
						early_lower(w, P_COUNT, tp);
					return false;
				}
				uint32_t unk, taken = sim_guard(s, w, c, active, &unk);
				if (unk)
					return false;
				end = s->ins[c->target].block_end;
				if ((active & ~taken) == 0) {
					k = c->target - 1;   /* every lane jumps over it */
				} else {
					region_end = c->target;
					region_mask = active & ~taken;
				}
				for (uint32_t u = 0; u < c->nuses; u++)
					hu[c->uses[u]] = gen;
				continue;
			}
			if (inert && c->back_edge && c->target != rpc && edge != UINT32_MAX)
				inert = tail_mark(tl, w, bar_k, pc, k, n, end, edge, false);   /* (a second one) */
			/* (and once, with anything after it, the back edge of a
			 * loop ptxas unrolls again where SASS runs on into the
			 * next copy: issue()) */
			if ((bar_k != UINT32_MAX || (c->reunroll && !crossed && ((w->unroll_n + 1) & 3))) &&
			    (fl & PX_OPF_BRANCH) && !hazard && k >= region_end &&
			    follow_back_edge(s, w, c, top, active, &k)) {
				end = s->ins[k + 1].block_end;
				for (uint32_t u = 0; u < c->nuses; u++)
					hu[c->uses[u]] = gen;
				if (inert)
					edge = (uint32_t)(c - s->ins);
				crossed = true;
				continue;
			}
			if (inert && c->back_edge && c->target != rpc)
				inert = tail_mark(tl, w, bar_k, pc, k, n, end, edge, false);   /* (it may follow it later) */
			if (bar_k == UINT32_MAX && c->block_bar) {
				bar_k = k;   /* look on past it for register-only work */
				continue;
			}
			if (bar_k != UINT32_MAX && c->hoist_past && !crossed) {
				/* ptxas moves register-only work up past the barrier and
				 * the memory accesses after it (held-out 9's
				 * stage_tile_loop computes the next step's address
				 * before the shared store, barrier, shared load and
				 * barrier of this one): passed, never a candidate, its
				 * registers holding later ones back; only where such
				 * work may follow in its block (hoist_past), and not
				 * after a back edge followed (through any number of
				 * barriers: stopping after one more put atoms_bar/128
				 * at +23% instead of +6%) */
				if (inert)
					inert = tail_mark(tl, w, bar_k, pc, k, n, end, edge, false);
				for (uint32_t d = 0; d < c->ndefs; d++)
					hd[c->defs[d]] = gen;
				for (uint32_t u = 0; u < c->nuses; u++)
					hu[c->uses[u]] = gen;
				continue;
			}
			if (c->scan_stop || (bar_k != UINT32_MAX && !c->reg_only)) {
				if (inert)
					inert = tail_mark(tl, w, bar_k, pc, k, n, end, edge, true);
				break;
			}
			if (inert)
				inert = tail_mark(tl, w, bar_k, pc, k, n, end, edge, false);
			/* a load passes stores of another state space only (global vs
			 * shared: they cannot alias; generic ones may be either) */
			unsigned sp = c->mem_class;
			hazard |= (fl & (PX_OPF_STORE | PX_OPF_ATOMIC)) != 0 || (sp & stores) != 0;
			for (uint32_t d = 0; d < c->ndefs; d++)
				hazard |= hz_passed(hd, wd, c->defs[d], gen) || hz_passed(hu, wu, c->defs[d], gen);
			if (!hazard && c->free) {
				early_free(s, w, k, kmask);
				continue;
			}
			if (!hazard && w->early_ld_regs + c->ld_regs <= EARLY_LOAD_REGS) {
				uint64_t treg, t = early_ready_at(s, w, sched, c, &treg);
				if (t <= s->cycle) {
					early_issue(s, w, sched, k, kmask);
					/* what the next scan goes on from */
					struct sim_scan *sc = &w->scan;
					sc->k = k + 1;
					sc->n = n + 1;
					sc->end = end;
					sc->region_end = region_end;
					sc->region_mask = region_mask;
					sc->bar_k = bar_k;
					sc->crossed = crossed;
					sc->stores = stores;
					memcpy(sc->t, w->early_t, sizeof sc->t);
					sc->pipes = w->early_pipes & ((1u << P_COUNT) - 1);
					sc->win = win;
					w->scan_valid = true;
					return true;
				}
				early_wait(w, c, t, treg, retry);
			}
		}
		if (!n && c->block_bar) {
			bar_k = k;
			continue;
		}
		if (fl & (PX_OPF_STORE | PX_OPF_ATOMIC))
			stores |= c->mem_class;
		for (uint32_t d = 0; d < c->ndefs; d++)
			hd[c->defs[d]] = gen;
		for (uint32_t u = 0; u < c->nuses; u++)
			hu[c->uses[u]] = gen;
	}
	if (inert)   /* (the end LOOKAHEAD sets moves with the top) */
		tail_mark(tl, w, bar_k, pc, k, n, end, edge, k >= end);
	/* nothing to issue: the barrier passed over goes ahead of the
	 * register-only instructions that wait before it (none while the
	 * window's tail_j is pending) */
	if (bar_k == UINT32_MAX || bar_k <= pc)
		return false;
	bool own = win && !resume;   /* (bar_k is the window's lim) */
	uint32_t j = pc;
	if (own && tl->j != UINT32_MAX && tl->j >= pc) {
		if (!w->done[tl->j])
			return false;
		/* (the ones before it that the top has not passed are done or
		 * register-only still: done ones stay so until the top passes) */
		j = tl->j + 1;
	}
	for (; j < bar_k; j++)
		if (!w->done[j] && !s->ins[j].reg_only) {
			if (own)
				tl->j = j;
			return false;
		}
	const struct sim_insn *c = &s->ins[bar_k];
	uint32_t unk, g = sim_guard(s, w, c, active, &unk);
	if (unk || g != active)
		return false;
	if (w->resume > s->cycle || s->pipe_free[sched][P_BAR] > s->cycle) {
		uint64_t t = w->resume > s->pipe_free[sched][P_BAR] ? w->resume : s->pipe_free[sched][P_BAR];
		if (t < w->early_unlock)
			w->early_unlock = t;
		return false;
	}
	w->done[bar_k] = 1;
	w->win.valid = false;   /* (it ends there) */
	s->res->warp_insns++;
	count_issue(s, bar_k, active);
	bar_arrive(s, w, bar_k, g);
	commit_timing(s, w, sched, c, 0, s->occ[P_BAR]);
	warp_changed(s, w);
	check_barrier(s);
	return true;
}

static bool ready_at_ok(struct sim *s, struct sim_warp *w, unsigned sched)
{
	unsigned y;
	return w->state == W_READY && w->nstk && ready_at(s, w, sched, &y) <= s->cycle;
}

/* run()'s loop accounting, kept lazily: rather than adding each step's
 * cycles to every warp's (innermost selected loop, stall reason) and to
 * every selected loop with a warp inside, it adds the current cycle to a
 * counter when a warp's pair leaves it and subtracts it when one comes in
 * (unsigned arithmetic wraps, and once every pair has left at the end each
 * counter holds exactly its sum of whole cycles); per selected loop it
 * keeps the warps inside (in it or in a loop it encloses), the loop's
 * cycles counting while there is one. A stall reason changes in the
 * scheduler's pass over the warps (set_why), a loop only when the warp
 * changed (warp_changed marks it in sim.acct_dirty). s->cycle does not move
 * within a step, so a change at any point of the step counts from the
 * step's first cycle, as the step's accounting wants. */
struct acct {
	unsigned *why;     /* per warp: PX_STALL_*, this step's once its pass is done */
	uint64_t *from;    /* per warp: the cycle why counts from, dependency before (0: now) */
	int32_t *loop;     /* per warp: its innermost selected loop, -1 none (outside, past the end), -2 done */
	uint64_t **st;     /* per warp: its loop's px_simt_loop.stalls, sink when none, gone when done */
	uint32_t *nin;     /* per loop: warps inside */
	uint64_t sink[PX_STALL_COUNT];   /* outside the selected loops (px_simt_result.stalls) */
	uint64_t gone[PX_STALL_COUNT];   /* done warps: not counted */
};

/* Warp i's reason ends at the step's cycle (before a->from[i], where it
 * had not begun, the dependency it counted as ends). */
SIM_HOT void acct_close(const struct sim *s, struct acct *a, uint32_t i)
{
	uint64_t c = s->cycle, f = a->from[i];
	if (c < f) {
		a->st[i][PX_STALL_DEPENDENCY] -= f - c;
		c = f;
	}
	a->st[i][a->why[i]] += c;
}

/* Warp i's reason is y from this step on, dependency before cycle from. */
SIM_HOT void acct_open(const struct sim *s, struct acct *a, uint32_t i, unsigned y, uint64_t from)
{
	uint64_t c = s->cycle;
	if (from > c) {
		a->st[i][PX_STALL_DEPENDENCY] += from - c;
		c = from;
	} else {
		from = 0;
	}
	a->st[i][y] -= c;
	a->why[i] = y;
	a->from[i] = from;
}

/* Warp wi's stall reason is y from this step on. A warp that waits, for
 * whatever reason, waits its last instruction's stall count first, which
 * Nsight Compute reports as wait (dependency here): latency.stall_wait
 * cycles from its issue (sim.stall_wait). */
SIM_HOT void set_why(const struct sim *s, struct acct *a, uint32_t wi, unsigned y)
{
	if (a->why[wi] != y) {
		acct_close(s, a, wi);
		uint64_t from = 0;
		if (y != PX_STALL_SELECTED && y != PX_STALL_NOT_SELECTED && y != PX_STALL_DEPENDENCY)
			from = s->w[wi].issued_at + s->stall_wait;
		acct_open(s, a, wi, y, from);
	}
}

/* Warp i's innermost selected loop is l (-1: none, -2: done) from this step on. */
static void acct_move(struct sim *s, struct acct *a, uint32_t i, int32_t l)
{
	int32_t o = a->loop[i];
	if (o == l)
		return;
	unsigned y = a->why[i];
	uint64_t from = a->from[i];
	acct_close(s, a, i);
	for (; o >= 0; o = s->sel_parent[o])
		if (--a->nin[o] == 0)
			s->loop_cycles[o] += s->cycle;
	for (int32_t p = l; p >= 0; p = s->sel_parent[p])
		if (a->nin[p]++ == 0)
			s->loop_cycles[p] -= s->cycle;
	a->loop[i] = l;
	a->st[i] = l >= 0 ? s->lr[l].stalls : l == -1 ? a->sink : a->gone;
	acct_open(s, a, i, y, from);
}

__attribute__((noinline)) static void run(struct sim *s)
{
	uint32_t nsched = s->nsched;
	uint32_t rr[4] = {0, 0, 0, 0}, nw_of[4];
	for (uint32_t sc = 0; sc < nsched; sc++)
		nw_of[sc] = (s->nwarps + nsched - 1 - sc) / nsched;   /* warps of scheduler sc */
	uint64_t budget = s->opt->budget ? s->opt->budget : 50000000ull;
	struct acct acct = {
		.why = xcalloc(s->nwarps, sizeof *acct.why),
		.from = xcalloc(s->nwarps, sizeof *acct.from),
		.loop = xmalloc(s->nwarps * sizeof *acct.loop),
		.st = xmalloc(s->nwarps * sizeof *acct.st),
		.nin = xcalloc(s->nloops + 1, sizeof *acct.nin),
	};
	for (uint32_t i = 0; i < s->nwarps; i++) {
		acct.loop[i] = -1;
		acct.st[i] = acct.sink;
	}
	s->acct_dirty = s->nwarps < 32 ? (1u << s->nwarps) - 1 : UINT32_MAX;   /* every warp's pair is unset */
	for (uint32_t u = 0; u < SIM_UNITS; u++)
		for (uint32_t sc = 0; sc < 4; sc++)
			s->unit_want[u][sc] = UINT64_MAX;
	/* A scheduler whose pass issued nothing is idle until the first cycle
	 * a pass could find otherwise (idle_to), unless one of its warps
	 * changes or a unit it shares does first (sim.wake): a pass that
	 * issues nothing changes nothing but what it notes (stall reasons,
	 * the waits for units, the warps' scans), and those stay as they are
	 * while nothing the pass reads changes; the cycle enters only by
	 * comparisons with the times it keeps. Meanwhile the scheduler's share
	 * of the step's next cycle (idle_next) and whether it has a warp
	 * still running (idle_live) stand. */
	uint64_t idle_to[4] = {0, 0, 0, 0}, idle_next[4];
	bool idle_live[4];
	uint32_t sched_warps[4] = {0, 0, 0, 0};   /* per scheduler: its warps (bit = warp id) */
	for (uint32_t i = 0; i < s->nwarps; i++)
		sched_warps[i % nsched] |= 1u << i;
	uint32_t changed = 0;   /* the warps changed in earlier steps since their scheduler's pass */
	s->wake = 0;
	while (!s->stop) {
		bool any_live = false, issued = false;
		uint64_t next = UINT64_MAX;
		/* the SM-wide units (MIO, LSU) go to the schedulers in turn: the
		 * first to look is the one after the last a unit served
		 * (sim.turn_rr); but a unit, once free, goes first to the
		 * scheduler whose warp has waited for it longest (ties: the one
		 * after the last served; the MIO's turn first). Turns by the
		 * cycle starved schedulers whenever a unit came free at a period
		 * that shares a factor with their count: a lock's holder, the
		 * waiting warps' CAS holding the unit 64 cycles at a time
		 * (its_probe's locks), and schedulers 1 and 3, shared stores
		 * taking the MIO every second cycle (held-out 8's
		 * store_sides_loop/512: warps 0 and 2 done in half the time,
		 * hidden while the block's end was the figure; thread 0's clock
		 * since, bx_probe) */
		uint32_t sc0 = s->turn_rr;
		for (uint32_t u = 0; u < SIM_UNITS; u++) {
			/* (mostly no scheduler waits for the unit: every entry is
			 * UINT64_MAX, those of absent schedulers too) */
			const uint64_t *uw = s->unit_want[u];
			if ((uw[0] & uw[1] & uw[2] & uw[3]) == UINT64_MAX ||
			    (u == U_MIO ? s->mio_free : s->lsu_free) > s->cycle)
				continue;
			uint64_t best = UINT64_MAX;
			for (uint32_t k = 0, sc = s->unit_rr[u]; k < nsched; k++, sc = sc + 1 == nsched ? 0 : sc + 1)
				if (s->unit_want[u][sc] < best) {
					best = s->unit_want[u][sc];
					sc0 = sc;
				}
			if (best != UINT64_MAX)
				break;
		}
		for (uint32_t sk = 0; sk < nsched; sk++) {
			uint32_t sc = sc0 + sk < nsched ? sc0 + sk : sc0 + sk - nsched;   /* (sk + cycle) % nsched */
			if (idle_to[sc] > s->cycle && !(s->wake & 1u << sc) &&
			    !((changed | s->acct_dirty) & sched_warps[sc])) {
				any_live |= idle_live[sc];
				if (idle_next[sc] < next)
					next = idle_next[sc];
				continue;
			}
			s->wake &= ~(1u << sc);
			changed &= ~sched_warps[sc];
			/* the pass's share of next, and when it could find otherwise */
			uint64_t snext = UINT64_MAX, swake = UINT64_MAX;
			bool slive = false;
			uint32_t nw = nw_of[sc];
			int32_t pick = -1;
			bool pick_issue = false;   /* pick issues its top now (else it issued early) */
			uint32_t rr_next = rr[sc];
			/* its warps' waits for each unit: the longest two, the first's warp */
			uint64_t want1[SIM_UNITS] = {UINT64_MAX, UINT64_MAX}, want2[SIM_UNITS] = {UINT64_MAX, UINT64_MAX};
			uint32_t want_wi[SIM_UNITS] = {UINT32_MAX, UINT32_MAX};
			for (uint32_t k = 0, idx = rr[sc]; k < nw; k++, idx = idx + 1 == nw ? 0 : idx + 1) {
				uint32_t wi = sc + idx * nsched;   /* (rr[sc] + k) % nw */
				struct sim_warp *w = &s->w[wi];
				if (w->state == W_DONE)
					continue;
				slive = true;
				if (w->state != W_READY) {   /* W_BARRIER, W_MBAR */
					set_why(s, &acct, wi, PX_STALL_BARRIER);
					continue;
				}
				/* instructions issued early are skipped when reached, free
				 * ones run without an issue slot */
				while (!w->top_settled && w->state == W_READY && w->nstk) {
					uint32_t tpc = w->stk[w->nstk - 1].pc;
					if (w->done[tpc]) {
						uint32_t tb = s->ins[tpc].in->block;
						account_loop_enter(s, w, tb, tpc);
						w->prev_block = tb;
						w->done[tpc] = 0;
						w->early_ld_regs -= s->ins[tpc].ld_regs;
						warp_changed(s, w);
						w->stk[w->nstk - 1].pc++;
						win_moved(s, w, tpc, tpc + 1);
						settle(s, w);
					} else if (s->ins[tpc].free) {
						run_free(s, w);
					} else {
						w->top_settled = true;
					}
				}
				if (w->state != W_READY)
					continue;
				unsigned y;
				uint64_t t = ready_at(s, w, sc, &y);
				unsigned u = w->top_pipe == P_GLOBAL ? U_LSU
				             : w->top_pipe == P_SHARED || w->top_pipe == P_SHFL ? U_MIO : SIM_UNITS;
				if (u < SIM_UNITS && !w->top_store && (w->top_rt > s->cycle ||
				    (w->top_pipe == P_SHARED && s->mio_sp_free[sc & 3] > s->cycle))) {
					/* (it begins to wait for the unit alone then) */
					uint64_t b = w->top_rt > s->mio_sp_free[sc & 3] || w->top_pipe != P_SHARED
					             ? w->top_rt : s->mio_sp_free[sc & 3];
					if (b < swake)
						swake = b;
				} else if (u < SIM_UNITS && !w->top_store) {
					/* it waits for the unit alone: since when */
					uint32_t tpc = w->stk[w->nstk - 1].pc;
					if (w->wait_pc != tpc) {
						w->wait_pc = tpc;
						w->wait_since = s->cycle;
					}
					if (w->wait_since < want1[u]) {
						want2[u] = want1[u];
						want1[u] = w->wait_since;
						want_wi[u] = wi;
					} else if (w->wait_since < want2[u]) {
						want2[u] = w->wait_since;
					}
				}
				/* a warp that waits, or stands at a block barrier (ptxas
				 * moves register-only work ahead of it), may issue later
				 * instructions first */
				bool early = t > s->cycle ? y != PX_STALL_PIPE && y != PX_STALL_BARRIER && y != PX_STALL_BRANCH
				                          : w->top_bar;
				early &= !w->its_frames;   /* (simt_its.c) */
				if (pick < 0 && early) {
					if (issue_early(s, w, sc, &snext)) {
						pick = (int32_t)wi;
						set_why(s, &acct, wi, PX_STALL_SELECTED);
						rr_next = idx + 1 == nw ? 0 : idx + 1;
						issued = true;
						continue;
					}
					/* (a scan goes further then: issue_early) */
					if (w->early_valid && w->early_unlock > s->cycle && w->early_unlock < swake)
						swake = w->early_unlock;
				}
				if (t <= s->cycle && pick < 0) {
					pick = (int32_t)wi;
					pick_issue = true;
					set_why(s, &acct, wi, PX_STALL_SELECTED);
					rr_next = idx + 1 == nw ? 0 : idx + 1;
				} else if (t <= s->cycle) {
					set_why(s, &acct, wi, PX_STALL_NOT_SELECTED);
					snext = s->cycle + 1;
				} else {
					set_why(s, &acct, wi, shown_why(s, w, sc, y));
					if (t < snext)
						snext = t;
				}
			}
			rr[sc] = rr_next;
			any_live |= slive;
			if (snext < next)
				next = snext;
			idle_to[sc] = 0;
			if (pick < 0) {
				idle_to[sc] = snext < swake ? snext : swake;
				idle_next[sc] = snext;
				idle_live[sc] = slive;
			}
			/* (a warp that issued early issues its top too when that is
			 * ready now: a block barrier at the top, with register-only
			 * work past it) */
			if (pick_issue || (pick >= 0 && ready_at_ok(s, &s->w[pick], sc))) {
				issue(s, &s->w[pick], sc);
				issued = true;
			}
			/* (the warp that waited longest has issued what it waited with) */
			for (uint32_t u = 0; u < SIM_UNITS; u++)
				s->unit_want[u][sc] = want_wi[u] != UINT32_MAX && s->w[want_wi[u]].wait_pc == UINT32_MAX
				                      ? want2[u] : want1[u];
		}
		if (!any_live)
			break;
		uint64_t adv = issued || next == UINT64_MAX || next <= s->cycle ? 1 : next - s->cycle;
		if (!issued && next == UINT64_MAX) {
			/* everyone waits at a barrier that cannot complete */
			check_barrier(s);
			bool moved = false;
			for (uint32_t i = 0; i < s->nwarps; i++)
				moved |= s->w[i].state == W_READY;
			if (!moved) {
				s->stop = true;
				s->stop_reason = "deadlock";
				break;
			}
		}
		/* loop accounting (struct acct): the warps that changed may be
		 * in another loop now (found from the top's pc alone: fill_top
		 * waits for the warp's next pass, which often finds the warp
		 * changed again first) */
		for (uint32_t d = s->acct_dirty; d; d &= d - 1) {
			uint32_t i = (uint32_t)__builtin_ctz(d);
			struct sim_warp *w = &s->w[i];
			int32_t l = w->state == W_DONE ? -2 : -1;
			if (w->state != W_DONE && w->nstk) {
				uint32_t tpc = w->stk[w->nstk - 1].pc;
				l = s->ins_loop[tpc < s->nins ? tpc : s->nins];
			}
			if (acct.loop[i] != l)
				acct_move(s, &acct, i, l);
		}
		changed |= s->acct_dirty;
		s->acct_dirty = 0;
		s->cycle += adv;
		if (s->res->warp_insns > budget) {
			s->stop = true;
			s->stop_reason = "budget";
			break;
		}
	}
	for (uint32_t i = 0; i < s->nwarps; i++)
		acct_move(s, &acct, i, -2);
	/* the block's: outside the selected loops and in each (a warp counts
	 * in its innermost) */
	for (unsigned k = 0; k < PX_STALL_COUNT; k++) {
		s->res->stalls[k] = acct.sink[k];
		for (uint32_t l = 0; l < s->nloops; l++)
			s->res->stalls[k] += s->lr[l].stalls[k];
	}
	free(acct.why);
	free(acct.from);
	free(acct.loop);
	free(acct.st);
	free(acct.nin);
}

/* ---- entry ---- */
/* Is f a kernel with a body that names selects (any kernel without names)? */
static bool kernel_selected(const struct px_func *f, const char *const *names)
{
	if (!f->is_entry || !f->has_body)
		return false;
	if (!names || !names[0])
		return true;
	char *dem = px_demangle(f->name);
	bool ok = false;
	for (const char *const *k = names; *k && !ok; k++) {
		ok = px_str_eqc(f->name, *k);
		if (!ok && dem) {
			const char *paren = strchr(dem, '(');
			size_t n = strlen(*k);
			ok = strcmp(dem, *k) == 0 || (paren && (size_t)(paren - dem) == n && memcmp(dem, *k, n) == 0);
		}
	}
	free(dem);
	return ok;
}

static int32_t find_kernel(const struct px_module *m, const char *const *names)
{
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (kernel_selected(&m->funcs[i], names))
			return (int32_t)i;
	return -1;
}

/* The parse hook: only the body of the kernel to simulate is kept (the
 * selected kernel of lowest index, as find_kernel picks it), so a large
 * file holds one or two bodies at a time. */
struct keep_ctx {
	const char *const *names;
	int32_t kept;                 /* index of the body kept; -1 none */
};

static void on_function(void *vctx, struct px_module *m, uint32_t fi)
{
	struct keep_ctx *c = vctx;
	if (kernel_selected(&m->funcs[fi], c->names) && (c->kept < 0 || (int32_t)fi < c->kept)) {
		if (c->kept >= 0)
			px_func_drop_body(&m->funcs[c->kept]);
		c->kept = (int32_t)fi;
		return;
	}
	px_func_drop_body(&m->funcs[fi]);
}

static int cmp_viol(const void *a, const void *b)
{
	const struct px_simt_violation *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return (int)x->same_warp - (int)y->same_warp;
}

bool px_simt_file(const char *path, char *text, size_t len, const struct px_simt_options *opt,
                  struct px_simt_result *out, struct px_diags *diags)
{
	memset(out, 0, sizeof *out);
	size_t errors = diags->errors;
	struct keep_ctx kc = {opt->kernels, -1};
	struct px_parse_hook hook = {.function = on_function, .ctx = &kc, .body_arenas = true};
	struct px_module *m = px_ptx_parse_hooked(path, text, len, diags, &hook);
	int32_t fi = diags->errors > errors ? -2 : find_kernel(m, opt->kernels);
	if (fi == -1)
		px_diag_add(diags, PX_ERROR, path, 1, 1, NULL, "no kernel named '%s' in this file",
		            opt->kernels && opt->kernels[0] ? opt->kernels[0] : "(any)");
	bool ok = fi >= 0 && px_simt_func(m, (uint32_t)fi, path, opt, out, diags);
	if (!out->path)
		out->path = xstrdup(path);
	out->module = m;
	return ok;
}

/* The instruction of f at PTX line, or NULL. */
static const struct px_insn *insn_at_line(const struct px_func *f, uint32_t line)
{
	for (uint32_t i = 0; i < f->ninsns; i++)
		if (f->insns[i].line == line)
			return &f->insns[i];
	return NULL;
}

/* The kernel's registers a thread (px_simt_result.registers): given, else
 * from ptxas -v on the file (path) for its .target (the timing table's
 * when it has none), else the PTX's estimate (pass_live.c); a ptxas that
 * fails or does not name the kernel leaves a note and the estimate. */
static void kernel_registers(struct sim *s, const char *path)
{
	const struct px_simt_options *opt = s->opt;
	struct px_simt_result *out = s->res;
	out->registers = s->f->reg_estimate;
	out->registers_from = "estimate";
	if (opt->registers) {
		out->registers = opt->registers;
		out->registers_from = "option";
		return;
	}
	if (!opt->ptxas)
		return;
	char *target = s->m->target.n ? xstrndup(s->m->target.p, s->m->target.n) : xstrdup(opt->arch->name);
	struct px_ptxas_result pr = {0};
	char *err = NULL;
	const struct px_ptxas_kernel *k = NULL;
	if (px_ptxas_run(opt->ptxas, path, target, &pr, &err)) {
		k = px_ptxas_find(&pr, s->f->name);
		if (!k || !k->have_regs)
			err = xasprintf("its output names no registers for %.*s", (int)s->f->name.n, s->f->name.p);
	}
	if (k && k->have_regs) {
		out->registers = k->registers;
		out->registers_from = "ptxas";
	} else {
		*PX_VEC_PUSH(out->notes, out->nnotes, out->capnotes) = xasprintf(
			"ptxas -v (%s): %s; the L1 is sized with the registers estimated from the PTX (%u)", opt->ptxas,
			err ? err : "failed", out->registers);
	}
	free(err);
	free(target);
	px_ptxas_result_free(&pr);
}

bool px_simt_func(struct px_module *m, uint32_t fi, const char *path, const struct px_simt_options *opt,
                  struct px_simt_result *out, struct px_diags *diags)
{
	memset(out, 0, sizeof *out);
	out->path = xstrdup(path);
	size_t errors = diags->errors;
	struct px_launch launch = {{0}, {0}, opt->params, opt->nparams};
	memcpy(launch.block, opt->block, sizeof launch.block);
	memcpy(launch.grid, opt->grid, sizeof launch.grid);
	m->launch = &launch;
	struct px_func *f = &m->funcs[fi];
	/* what the simulator reads: register defs/uses, blocks, immediate
	 * post-dominators, loops, the variables the code names, and which
	 * registers may differ between a warp's lanes (simt_fuse.c's
	 * if-conversion); not the memory accesses, which it replaces by
	 * running the code */
	bool ok = px_pipeline_run_passes(m, f, PX_PASS_OPERANDS | PX_PASS_CFG | PX_PASS_POSTDOM |
	                                 PX_PASS_LOOPS | PX_PASS_MENTIONS | PX_PASS_REGS | PX_PASS_AFFINE |
	                                 PX_PASS_UNIFORM, diags, false);
	m->launch = NULL;
	if (!ok || diags->errors > errors)
		return false;

	struct sim s = {0};
	s.m = m;
	s.f = f;
	s.opt = opt;
	s.res = out;
	out->kernel = xstrndup(f->name.p, f->name.n);
	snprintf(out->arch, sizeof out->arch, "%s", opt->arch->name);
	snprintf(out->latency_table, sizeof out->latency_table, "%s",
	         opt->latency_table ? opt->latency_table : opt->arch->name);
	out->l2_warm = opt->l2_warm;
	s.its = (opt->cc_major ? opt->cc_major : opt->arch->major) >= 7;
	s.dpx = (opt->cc_major ? opt->cc_major : opt->arch->major) >= 9;
	out->model = s.its ? "SIMT stack, reconvergence at immediate post-dominators, with independent thread "
	                     "scheduling (compute capability 7.0+): a path that spins on memory yields to the other "
	                     "lanes of its warp; warp-synchronous code is checked against independent thread scheduling"
	                   : "SIMT stack, reconvergence at immediate post-dominators (pre-Volta)";
	px_launch_block(&launch, f, s.block);
	memcpy(out->block, s.block, sizeof s.block);
	s.nthreads = s.block[0] * s.block[1] * s.block[2];
	if (s.nthreads == 0 || s.nthreads > 1024) {
		px_diag_add(diags, PX_ERROR, path, f->line, f->col, NULL,
		            "block of %u threads: a block has 1 to 1024 threads", s.nthreads);
		return false;
	}
	kernel_registers(&s, path);
	load_timing(&s, opt->arch);
	if (!setup(&s, diags, path) || !select_loops(&s, diags, path)) {
		free_sim(&s);
		return false;
	}
	sim_decode(&s);
	for (uint32_t i = 0; i < s.nins; i++) {
		struct sim_insn *si = &s.ins[i];
		const struct px_block *b = &f->blocks[si->in->block];
		si->block_bar = may_be_barrier(si) && block_barrier(si);
		si->scan_stop = (si->flags & (PX_OPF_BRANCH | PX_OPF_TERM | PX_OPF_CALL | PX_OPF_BARRIER | PX_OPF_WARP)) ||
		                si->pipe == P_BAR || si->pipe == P_BRANCH || si->cp_wait || si->mbar || cas_loop(si);
		si->wall = si->cas_loop = cas_loop(si);
		si->reg_only = reg_only(si);
		si->mem_class = (uint8_t)mem_space_class(si);
		si->block_first = b->first;
		si->block_end = b->end;
		si->loop_head = b->loop >= 0 && f->loops[b->loop].header == si->in->block && i == b->first;
		si->back_edge = inner_back_edge(f, si);
	}
	sim_its_mark(&s);
	sim_mark_free(&s);   /* (reads reg_only; adds the if/else statements' slots) */
	win_hazards(&s);   /* (reads the runs mark_diamonds joined) */
	mark_hoist_past(&s);
	s.ins_pipe = xmalloc(s.nins + 1);
	s.ins_loop = xmalloc((s.nins + 1) * sizeof *s.ins_loop);
	s.ins_loop[s.nins] = -1;   /* (past the end: none) */
	uint8_t *read = xcalloc(s.nslots + 1, 1);   /* slots some instruction reads */
	for (uint32_t i = 0; i < s.nins; i++)
		for (uint32_t u = 0; u < s.ins[i].nuses; u++)
			read[s.ins[i].uses[u]] = 1;
	for (uint32_t i = 0; i < s.nins; i++) {
		struct sim_insn *si = &s.ins[i];
		si->red = (si->flags & PX_OPF_ATOMIC) && !(si->mw & (MW(EXCH) | MW(CAS))) &&
		          (!si->ndefs || !read[si->defs[0]]);
		const struct px_insn *in = si->in;
		if (in->op == PX_OP_MEMBAR || (in->op == PX_OP_FENCE && !sim_has_mod(in, ".proxy") &&
		                               !sim_has_mod(in, ".mbarrier_init")))
			si->fence = sim_has_mod(in, ".cta") ? 1 : 2;
		si->l2_only = (si->mw & (MW(CG) | MW(CV))) ||
		              ((si->flags & PX_OPF_LOAD) && !(si->flags & PX_OPF_ATOMIC) && si->pipe == P_GLOBAL &&
		               (sim_has_mod(in, ".volatile") ||
		                ((sim_has_mod(in, ".relaxed") || sim_has_mod(in, ".acquire")) && !sim_has_mod(in, ".cta"))));
		s.ins_pipe[i] = (uint8_t)(si->pipe | (si->free ? 0x80 : 0));
		s.ins_loop[i] = s.block_loop[in->block];
		bool load = (si->flags & PX_OPF_LOAD) && !(si->flags & (PX_OPF_STORE | PX_OPF_ATOMIC)) && si->ndefs &&
		            !si->free;
		si->ld_class = !load ? LD_NONE : si->pipe == P_SHARED ? LD_SHARED : si->pipe == P_GLOBAL ? LD_GLOBAL : LD_NONE;
		si->ld_regs = si->ld_class ? (uint8_t)((si->tbits > 32 ? si->tbits / 32 : 1) * (si->ndefs ? si->ndefs : 1)) : 0;
		si->ct_rare = si->mufu || si->bitop || si->ldc || si->fixup || si->mask_check || si->shbase || si->expand || si->ld_class ||
		              si->cp_copy || si->fence == 1 || si->slots > 1;
		enum px_opcode op = si->in->op;
		si->plain = op != PX_OP_BRA && op != PX_OP_RET && op != PX_OP_EXIT && op != PX_OP_BAR &&
		            op != PX_OP_BARRIER && op != PX_OP_MBARRIER && op != PX_OP_CP;
	}
	free(read);
	s.noted = xcalloc(s.nins + 1, 1);
	s.viol_seen = xcalloc((size_t)(s.nins + 1) * SIM_SEEN_SLOTS, sizeof *s.viol_seen);
	s.nwarps = (s.nthreads + 31) / 32;
	s.w = xcalloc(s.nwarps, sizeof *s.w);
	s.no_slots = xcalloc(s.nslots + 1, sizeof *s.no_slots);
	s.tail = xcalloc(s.nwarps, sizeof *s.tail);
	s.ex_done = xcalloc(s.nwarps, sizeof *s.ex_done);
	for (uint32_t i = 0; i < s.nwarps; i++) {
		struct sim_warp *w = &s.w[i];
		w->id = i;
		w->resume_why = PX_STALL_BARRIER;   /* (resume is 0: never a reason) */
		uint32_t n = px_warp_lanes(s.block, i, w->tid);
		w->exists = n >= 32 ? 0xffffffffu : (1u << n) - 1;
		w->val = xcalloc((size_t)s.nslots * 32 + 1, sizeof *w->val);
		w->unk = xcalloc(s.nslots + 1, sizeof *w->unk);
		w->ready = xcalloc(s.nslots + 1, sizeof *w->ready);
		w->res_why = xmalloc(s.nslots + 1);
		memset(w->res_why, PX_STALL_DEPENDENCY, s.nslots + 1);
		w->loop_iter = xcalloc(f->nloops + 1, sizeof *w->loop_iter);
		w->hdr_count = xcalloc(f->nloops + 1, sizeof *w->hdr_count);
		w->entered = xcalloc(f->nloops + 1, sizeof *w->entered);
		w->prev_block = UINT32_MAX;
		w->wait_pc = UINT32_MAX;
		w->done = xcalloc(f->ninsns + 1, 1);
		w->hz_def = xcalloc(s.nslots + 1, sizeof *w->hz_def);
		w->hz_use = xcalloc(s.nslots + 1, sizeof *w->hz_use);
		w->win_wr = xcalloc(s.nslots + 1, sizeof *w->win_wr);
		w->win_rd = xcalloc(s.nslots + 1, sizeof *w->win_rd);
		/* registers start unknown: PTX gives them no initial value */
		memset(w->unk, 0xff, (s.nslots + 1) * sizeof *w->unk);
		if (f->ninsns)
			push(w, 0, UINT32_MAX, w->exists);
		else
			w->state = W_DONE;
	}
	for (uint32_t i = 0; i < s.nwarps; i++)
		s.nlive += s.w[i].state != W_DONE;
	s.lr = xcalloc(f->nloops + 1, sizeof *s.lr);
	s.loop_issued = xcalloc(f->nloops + 1, sizeof *s.loop_issued);
	s.loop_lanes = xcalloc(f->nloops + 1, sizeof *s.loop_lanes);
	s.ins_issued = xcalloc(s.nins + 1, sizeof *s.ins_issued);
	s.ins_slots = xcalloc(s.nins + 1, sizeof *s.ins_slots);
	s.ins_conv = xcalloc(s.nins + 1, sizeof *s.ins_conv);
	s.loop_slots = xcalloc(f->nloops + 1, sizeof *s.loop_slots);
	s.loop_pipe = xcalloc((size_t)(f->nloops + 1) * PX_PIPE_COUNT, sizeof *s.loop_pipe);
	s.loop_mem = xcalloc((size_t)(f->nloops + 1) * PX_MEM_COUNT, sizeof *s.loop_mem);
	s.ins_lanes = xcalloc(s.nins + 1, sizeof *s.ins_lanes);
	s.loop_cycles = xcalloc(f->nloops + 1, sizeof *s.loop_cycles);
	sim_mbar_setup(&s);
	run(&s);
	loop_counts(&s);
	for (uint32_t pc = 0; pc < s.nins; pc++) {
		out->issued += s.ins_issued[pc];
		out->issue_slots += s.ins_issued[pc] + s.ins_slots[pc] + s.ins_conv[pc];
		pipe_counts(&s, pc, out->slots_by_pipe);
		sim_mem_counts(&s, pc, out->mem);
	}
	out->cycles = s.cycle;
	out->clock_reads = s.clock_reads;
	out->clock_span = s.clock_reads >= 2 ? s.clock_last - s.clock_first : 0;
	out->completed = !s.stop;
	if (s.stop_reason && strcmp(s.stop_reason, "budget") == 0)
		*PX_VEC_PUSH(out->notes, out->nnotes, out->capnotes) = xasprintf(
			"stopped after %llu warp-instructions (the budget): figures cover the simulated part",
			(unsigned long long)out->warp_insns);
	if (s.stop_reason && strcmp(s.stop_reason, "deadlock") == 0) {
		for (uint32_t i = 0; i < s.nwarps; i++)
			if (s.w[i].state == W_MBAR) {
				sim_mbar_deadlock(&s, &s.w[i]);
				break;
			}
	}
	if (s.stop_reason && strcmp(s.stop_reason, "deadlock") == 0 && !out->nviol) {
		for (uint32_t i = 0; i < s.nwarps; i++)
			if (s.w[i].state == W_BARRIER) {
				uint32_t pc = s.w[i].stk[s.w[i].nstk - 1].pc - 1;
				char t0[48];
				sim_violation(&s, PX_V_DEADLOCK, pc, i * 32, i * 32,
				              "warp %u (thread %s) waits at this barrier forever: the other warps have "
				              "exited", i, sim_thread(&s, i * 32, t0));
				break;
			}
	}
	/* loops */
	out->loops = xcalloc(f->nloops + 1, sizeof *out->loops);
	for (uint32_t l = 0; l < f->nloops; l++) {
		if (!s.loop_sel[l])
			continue;
		struct px_simt_loop *r = &out->loops[out->nloops++];
		*r = s.lr[l];
		const struct px_block *hb = &f->blocks[f->loops[l].header];
		const struct px_insn *hi = &f->insns[hb->first];
		r->line = hi->line;
		r->loc_line = hi->loc_line;
		const struct px_file_entry *fe = hi->loc_file ? px_module_file(m, hi->loc_file) : NULL;
		r->source_file = fe ? px_arena_strndup(m->arena, fe->name.p, fe->name.n) : NULL;
		r->depth = f->loops[l].depth;
		uint64_t hdr = 0, nent = 0;
		for (uint32_t i = 0; i < s.nwarps; i++) {
			hdr += s.w[i].hdr_count[l];
			nent += s.w[i].entered[l];
		}
		r->iterations = nent ? (double)hdr / (double)nent : 0;
		r->cycles = (double)s.loop_cycles[l];
		r->cycles_per_iteration = r->iterations > 0 ? r->cycles / r->iterations : 0;
		r->issued_per_iteration = hdr ? (double)s.loop_issued[l] / (double)hdr : 0;
		r->issue_slots_per_iteration = hdr ? (double)s.loop_slots[l] / (double)hdr : 0;
		for (unsigned p = 0; p < PX_PIPE_COUNT; p++)
			r->slots_by_pipe[p] = hdr ? (double)s.loop_pipe[(size_t)l * PX_PIPE_COUNT + p] / (double)hdr : 0;
		r->simt_efficiency = s.loop_issued[l] ? (double)s.loop_lanes[l] / (32.0 * (double)s.loop_issued[l]) : 0;
		for (unsigned k = 0; k < PX_MEM_COUNT && hdr; k++) {
			const struct px_simt_mem *c = &s.loop_mem[(size_t)l * PX_MEM_COUNT + k];
			r->mem[k] = (struct px_simt_mem){c->requests / (double)hdr, c->sectors / (double)hdr,
			                                 c->l1_hit_sectors / (double)hdr, c->wavefronts / (double)hdr};
		}
	}
	for (uint32_t i = 0; i < out->nviol; i++) {
		const struct px_insn *o = out->viol[i].other_line ? insn_at_line(f, out->viol[i].other_line) : NULL;
		out->viol[i].other_loc_line = o ? o->loc_line : 0;
	}
	out->budget_out = s.stop_reason && strcmp(s.stop_reason, "budget") == 0;
	if (out->nviol > 1)
		qsort(out->viol, out->nviol, sizeof *out->viol, cmp_viol);
	free_sim(&s);
	return true;
}

void px_simt_result_free(struct px_simt_result *r)
{
	for (uint32_t i = 0; i < r->nviol; i++)
		free(r->viol[i].message);
	free(r->viol);
	for (uint32_t i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
	free(r->loops);
	free(r->kernel);
	free(r->path);
	free(r->source_path);
	if (r->module)
		px_module_delete(r->module);
	memset(r, 0, sizeof *r);
}

/* ---- output ---- */
static void json_source(struct px_json *j, const char *file, uint32_t line)
{
	if (!file || !line) {
		px_json_null(j);
		return;
	}
	px_json_begin_object(j);
	px_json_key(j, "file");
	px_json_string(j, file);
	px_json_key(j, "line");
	px_json_uint(j, line);
	px_json_end_object(j);
}

/* The memory accesses m (enum px_simt_mem_kind) as an object, the kinds
 * with any. */
static void json_mem(struct px_json *j, const struct px_simt_mem *m)
{
	px_json_begin_object(j);
	for (unsigned k = 0; k < PX_MEM_COUNT; k++) {
		if (!(m[k].requests > 0))
			continue;
		px_json_key(j, px_simt_mem_name(k));
		px_json_begin_object(j);
		px_json_key(j, "requests");
		px_json_double(j, m[k].requests);
		if (px_simt_mem_has(k, 'S')) {
			px_json_key(j, "sectors");
			px_json_double(j, m[k].sectors);
		}
		if (px_simt_mem_has(k, 'H')) {
			px_json_key(j, "l1_hit_sectors");
			px_json_double(j, m[k].l1_hit_sectors);
		}
		if (px_simt_mem_has(k, 'W')) {
			px_json_key(j, "wavefronts");
			px_json_double(j, m[k].wavefronts);
		}
		px_json_end_object(j);
	}
	px_json_end_object(j);
}

/* An estimate's error figures (struct px_simt_spread), the median, 90th
 * percentile and worst keys named with prefix */
static void json_spread(struct px_json *j, const struct px_simt_spread *sp, const char *prefix)
{
	char key[48];
	px_json_begin_object(j);
	px_json_key(j, "loops");
	px_json_uint(j, sp->loops);
	snprintf(key, sizeof key, "%smedian", prefix);
	px_json_key(j, key);
	px_json_double(j, sp->median);
	snprintf(key, sizeof key, "%sp90", prefix);
	px_json_key(j, key);
	px_json_double(j, sp->p90);
	snprintf(key, sizeof key, "%sworst", prefix);
	px_json_key(j, key);
	px_json_double(j, sp->worst);
	px_json_end_object(j);
}

/* warp-cycles by stall reason, every reason */
static void json_stalls(struct px_json *j, const uint64_t *stalls)
{
	px_json_begin_object(j);
	for (unsigned k = 0; k < PX_STALL_COUNT; k++) {
		px_json_key(j, px_simt_stall_name(k));
		px_json_uint(j, stalls[k]);
	}
	px_json_end_object(j);
}

void px_simt_json(struct px_buf *out, const struct px_simt_result *r)
{
	struct px_json j = {.out = out};
	px_json_begin_object(&j);
	px_json_key(&j, "schema");
	px_json_string(&j, "ptxray-simt/1");
	px_json_key(&j, "kernel");
	px_json_string(&j, r->kernel);
	px_json_key(&j, "arch");
	px_json_string(&j, r->arch);
	px_json_key(&j, "latency_table");
	px_json_string(&j, r->latency_table);
	px_json_key(&j, "block");
	px_json_begin_array(&j);
	for (int i = 0; i < 3; i++)
		px_json_uint(&j, r->block[i]);
	px_json_end_array(&j);
	px_json_key(&j, "model");
	px_json_string(&j, r->model);
	px_json_key(&j, "l1_bytes");
	if (r->l1_bytes)
		px_json_uint(&j, r->l1_bytes);
	else
		px_json_null(&j);
	px_json_key(&j, "registers");
	px_json_uint(&j, r->registers);
	px_json_key(&j, "registers_from");
	px_json_string(&j, r->registers_from ? r->registers_from : "estimate");
	px_json_key(&j, "l2");
	px_json_string(&j, r->l2_warm ? "warm" : "cold");
	px_json_key(&j, "launch_shared_bytes");
	if (r->launch_shared_bytes)
		px_json_uint(&j, r->launch_shared_bytes);
	else
		px_json_null(&j);
	const struct px_simt_accuracy *acc = &px_simt_accuracy;
	px_json_key(&j, "timing_error");
	px_json_begin_object(&j);
	px_json_key(&j, "loops");
	px_json_uint(&j, acc->loops);
	px_json_key(&j, "median");
	px_json_double(&j, acc->median);
	px_json_key(&j, "held_out_loops");
	px_json_uint(&j, acc->held_out);
	px_json_key(&j, "held_out_median");
	px_json_double(&j, acc->held_out_median);
	px_json_key(&j, "held_out_p90");
	px_json_double(&j, acc->held_out_p90);
	px_json_key(&j, "held_out_worst");
	px_json_double(&j, acc->held_out_worst);
	px_json_key(&j, "held_out_predicted_fast");
	px_json_uint(&j, acc->held_out_fast);
	px_json_end_object(&j);
	px_json_key(&j, "memory_error");   /* (the L1 hit rate's: memory's one estimate) */
	json_spread(&j, &px_simt_l1_accuracy, "l1_hit_rate_");
	px_json_key(&j, "stall_error");   /* (the warp-cycles by reason: total variation distance) */
	json_spread(&j, &px_simt_stall_accuracy, "");
	px_json_key(&j, "completed");
	px_json_bool(&j, r->completed);
	px_json_key(&j, "cycles");
	px_json_uint(&j, r->cycles);
	px_json_key(&j, "clock_span");
	if (r->clock_reads >= 2)
		px_json_uint(&j, r->clock_span);
	else
		px_json_null(&j);
	px_json_key(&j, "warp_instructions");
	px_json_uint(&j, r->warp_insns);
	px_json_key(&j, "issued_instructions");
	px_json_uint(&j, r->issued);
	px_json_key(&j, "issue_slots");
	px_json_uint(&j, r->issue_slots);
	px_json_key(&j, "issue_slots_by_pipe");   /* (the pipes with any) */
	px_json_begin_object(&j);
	for (unsigned p = 0; p < PX_PIPE_COUNT; p++)
		if (r->slots_by_pipe[p]) {
			px_json_key(&j, px_simt_pipe_name(p));
			px_json_uint(&j, r->slots_by_pipe[p]);
		}
	px_json_end_object(&j);
	px_json_key(&j, "memory");   /* (the kinds with any) */
	json_mem(&j, r->mem);
	px_json_key(&j, "stalls");
	json_stalls(&j, r->stalls);
	px_json_key(&j, "loops");
	px_json_begin_array(&j);
	for (uint32_t i = 0; i < r->nloops; i++) {
		const struct px_simt_loop *l = &r->loops[i];
		px_json_begin_object(&j);
		px_json_key(&j, "line");
		px_json_uint(&j, l->line);
		px_json_key(&j, "source");
		json_source(&j, l->source_file, l->loc_line);
		px_json_key(&j, "depth");
		px_json_uint(&j, l->depth);
		px_json_key(&j, "iterations");
		px_json_double(&j, l->iterations);
		px_json_key(&j, "cycles_per_iteration");
		px_json_double(&j, l->cycles_per_iteration);
		px_json_key(&j, "issued_per_iteration");
		px_json_double(&j, l->issued_per_iteration);
		px_json_key(&j, "issue_slots_per_iteration");
		px_json_double(&j, l->issue_slots_per_iteration);
		px_json_key(&j, "issue_slots_by_pipe");   /* (the pipes with any) */
		px_json_begin_object(&j);
		for (unsigned p = 0; p < PX_PIPE_COUNT; p++)
			if (l->slots_by_pipe[p] > 0) {
				px_json_key(&j, px_simt_pipe_name(p));
				px_json_double(&j, l->slots_by_pipe[p]);
			}
		px_json_end_object(&j);
		px_json_key(&j, "simt_efficiency");
		px_json_double(&j, l->simt_efficiency);
		px_json_key(&j, "memory");   /* (per warp and iteration) */
		json_mem(&j, l->mem);
		px_json_key(&j, "stalls");
		json_stalls(&j, l->stalls);
		px_json_end_object(&j);
	}
	px_json_end_array(&j);
	px_json_key(&j, "violations");
	px_json_begin_array(&j);
	for (uint32_t i = 0; i < r->nviol; i++) {
		const struct px_simt_violation *v = &r->viol[i];
		px_json_begin_object(&j);
		px_json_key(&j, "kind");
		px_json_string(&j, px_simt_kind_name(v->kind));
		px_json_key(&j, "line");
		px_json_uint(&j, v->line);
		px_json_key(&j, "source");
		json_source(&j, v->source_file, v->loc_line);
		px_json_key(&j, "message");
		px_json_string(&j, v->message);
		px_json_key(&j, "threads");
		px_json_begin_array(&j);
		for (uint32_t t = 0; t < v->nthreads; t++)
			px_json_uint(&j, v->threads[t]);
		px_json_end_array(&j);
		px_json_key(&j, "other_line");
		if (v->other_line)
			px_json_uint(&j, v->other_line);
		else
			px_json_null(&j);
		px_json_key(&j, "same_warp");
		px_json_bool(&j, v->same_warp);
		px_json_key(&j, "guessed");
		px_json_bool(&j, v->guessed);
		px_json_end_object(&j);
	}
	px_json_end_array(&j);
	px_json_key(&j, "notes");
	px_json_begin_array(&j);
	for (uint32_t i = 0; i < r->nnotes; i++)
		px_json_string(&j, r->notes[i]);
	px_json_end_array(&j);
	px_json_end_object(&j);
	px_buf_puts(out, "\n");
}

/* A loop's memory accesses (per warp and iteration), the kinds with any:
 * requests, and per request the sectors, wavefronts and L1 hit rate. */
static void text_mem(struct px_buf *out, const struct px_simt_mem *m)
{
	const char *sep = "    memory a warp-iteration:";
	for (unsigned k = 0; k < PX_MEM_COUNT; k++) {
		if (!(m[k].requests > 0))
			continue;
		px_buf_printf(out, "%s %s %.1f", sep, px_simt_mem_name(k), m[k].requests);
		const char *per = " (";
		if (px_simt_mem_has(k, 'S')) {
			px_buf_printf(out, "%s%.1f sectors", per, m[k].sectors / m[k].requests);
			per = ", ";
		}
		if (px_simt_mem_has(k, 'W')) {
			px_buf_printf(out, "%s%.1f wavefronts", per, m[k].wavefronts / m[k].requests);
			per = ", ";
		}
		if (*per == ',')
			px_buf_puts(out, " each");
		if (px_simt_mem_has(k, 'H') && m[k].sectors > 0)
			px_buf_printf(out, "%sL1 hits %.0f%% of sectors", per, 100 * m[k].l1_hit_sectors / m[k].sectors);
		if (*per == ',' || px_simt_mem_has(k, 'H'))
			px_buf_puts(out, ")");
		sep = ";";
	}
	if (*sep == ';')
		px_buf_puts(out, "\n");
}

void px_simt_text(struct px_buf *out, const struct px_simt_result *r)
{
	for (uint32_t i = 0; i < r->nviol; i++) {
		const struct px_simt_violation *v = &r->viol[i];
		bool at_source = r->source_path && v->loc_line && v->source_file &&
		                 names_file_str(v->source_file, r->source_path);
		if (at_source)
			px_buf_printf(out, "%s:%u:1: error: %s [%s] (PTX line %u; threads", r->source_path, v->loc_line,
			              v->message, px_simt_kind_name(v->kind), v->line);
		else
			px_buf_printf(out, "%s:%u:%u: error: %s [%s] (threads", r->path, v->line, v->col, v->message,
			              px_simt_kind_name(v->kind));
		for (uint32_t t = 0; t < v->nthreads; t++)
			px_buf_printf(out, " %u", v->threads[t]);
		px_buf_puts(out, ")");
		if (v->source_file && !at_source)
			px_buf_printf(out, " at %s:%u", v->source_file, v->loc_line);
		if (v->guessed)
			px_buf_puts(out, " (after the unknown-value policy decided a branch, guard or store: not a proof)");
		px_buf_puts(out, "\n");
	}
	px_buf_printf(out, "kernel %s: %s, block %ux%ux%u, %llu cycles, %llu warp-instructions%s\n", r->kernel,
	              r->arch, r->block[0], r->block[1], r->block[2], (unsigned long long)r->cycles,
	              (unsigned long long)r->warp_insns, r->completed ? "" : " (stopped early)");
	px_buf_printf(out, "  model: %s\n", r->model);
	if (r->l1_bytes) {
		const char *from = r->registers_from ? r->registers_from : "estimate";
		px_buf_printf(out, "  L1: %u KiB (the unified data cache less the %u KiB of shared memory the driver configures "
		              "for blocks of %u registers a thread, %s)\n", r->l1_bytes / 1024, r->launch_shared_bytes / 1024,
		              r->registers, strcmp(from, "ptxas") == 0 ? "from ptxas -v"
		                            : strcmp(from, "option") == 0 ? "as given" : "estimated from the PTX");
	} else {
		px_buf_printf(out, "  L1: unbounded (not a unified data cache the launch sizes: separate L1 and shared "
		              "memory before compute capability 7.0, or a launch the occupancy calculation rejects): a "
		              "line touched before hits\n");
	}
	if (r->l2_warm)
		px_buf_printf(out, "  L2: warm (the data is in the L2 at launch: a line's first touch hits it)\n");
	if (r->clock_reads >= 2)
		px_buf_printf(out, "  clock: thread 0's %u clock reads span %llu cycles (simulated, an estimate as the timing "
		              "below: what clock64() around the code measures; a read right after a block barrier is "
		              "its warp's arrival there)\n",
		              r->clock_reads, (unsigned long long)r->clock_span);
	const struct px_simt_accuracy *acc = &px_simt_accuracy;
	px_buf_printf(out, "  timing: an estimate; measured error %.1f%% median over %u loops, %.0f%% median and "
	              "%.0f%% at the 90th percentile over %u held-out realistic loops (%u of them predicted "
	              "too fast; the worst off by %.0f%%)\n",
	              100 * acc->median, acc->loops, 100 * acc->held_out_median, 100 * acc->held_out_p90,
	              acc->held_out, acc->held_out_fast, 100 * acc->held_out_worst);
	const struct px_simt_spread *l1a = &px_simt_l1_accuracy;
	px_buf_printf(out, "  memory: the accesses the simulation made; their L1 hits an estimate, %.0f points from "
	              "Nsight Compute's hit rate median, %.0f at the 90th percentile, %.0f at worst over %u loops\n",
	              100 * l1a->median, 100 * l1a->p90, 100 * l1a->worst, l1a->loops);
	const struct px_simt_spread *sa = &px_simt_stall_accuracy;
	px_buf_printf(out, "  warp-cycles: an estimate, by reason; %.0f points from Nsight Compute's warp states "
	              "median, %.0f at the 90th percentile, %.0f at worst over %u loops (the share of "
	              "warp-cycles in another reason)\n",
	              100 * sa->median, 100 * sa->p90, 100 * sa->worst, sa->loops);
	for (uint32_t i = 0; i < r->nloops; i++) {
		const struct px_simt_loop *l = &r->loops[i];
		px_buf_printf(out, "  loop at line %u", l->line);
		if (l->source_file)
			px_buf_printf(out, " (%s:%u)", l->source_file, l->loc_line);
		px_buf_printf(out, ": %.1f iterations, %.1f cycles/iteration, %.1f issued/iteration per warp",
		              l->iterations, l->cycles_per_iteration, l->issued_per_iteration);
		if (l->issue_slots_per_iteration - l->issued_per_iteration >= 0.05)
			px_buf_printf(out, " (%.1f issue slots)", l->issue_slots_per_iteration);
		px_buf_printf(out, ", simt efficiency %.2f\n", l->simt_efficiency);
		uint64_t tot = 0;
		for (unsigned k = 0; k < PX_STALL_COUNT; k++)
			tot += l->stalls[k];
		if (tot) {
			px_buf_puts(out, "    warp-cycles:");
			for (unsigned k = 0; k < PX_STALL_COUNT; k++)
				px_buf_printf(out, " %s %.0f%%", px_simt_stall_name(k), 100.0 * (double)l->stalls[k] / (double)tot);
			px_buf_puts(out, "\n");
		}
		text_mem(out, l->mem);
	}
	for (uint32_t i = 0; i < r->nnotes; i++)
		px_buf_printf(out, "  note: %s\n", r->notes[i]);
}
