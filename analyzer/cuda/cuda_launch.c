/* cuda_launch.c: the checks of launch sites (cu_check_launches): block
 * sizes that are not a multiple of the warp size, launches that cannot
 * start (threads, __launch_bounds__, registers x threads and shared memory
 * per block against each target's arch table through the occupancy
 * engine) and dynamic shared memory over 48 KiB without the
 * cudaFuncSetAttribute opt-in. Split out of cuda_check.c, which keeps the
 * checks of function bodies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "cuda_int.h"
#include "occupancy.h"

/* The function whose lines hold (line, col), or -1 (file scope). */
static int32_t func_of_line(const struct px_cuda_file *f, uint32_t line)
{
	for (uint32_t i = 0; i < f->nfuncs; i++)
		if (f->funcs[i].has_body && f->funcs[i].line <= line && line <= f->funcs[i].end_line)
			return (int32_t)i;
	return -1;
}

/* The largest opt-in for kernel that can have run before launch l.
 * Policy: an opt-in in the same function counts only when it comes first
 * in the text (straight-line host code runs in text order; for branches
 * this is optimistic: an opt-in under an earlier `if` counts; for loops,
 * an opt-in later in the body does not excuse the launch, whose first
 * iteration fails); an opt-in in another function counts (call order is
 * not known). */
static uint64_t optin_bytes(const struct px_cuda_file *f, const char *kernel, const struct px_cuda_launch *l,
                            bool *any)
{
	uint64_t best = 0;
	*any = false;
	int32_t lf = func_of_line(f, l->line);
	for (uint32_t i = 0; i < f->noptins; i++) {
		const struct px_cuda_optin *o = &f->optins[i];
		if (strcmp(o->kernel, kernel))
			continue;
		bool after = o->line > l->line || (o->line == l->line && o->column > l->column);
		if (after && lf >= 0 && func_of_line(f, o->line) == lf)
			continue;
		*any = true;
		uint64_t b = o->known ? o->bytes : UINT32_MAX;
		if (b > best)
			best = b;
	}
	return best;
}

static uint32_t regs_for(const struct px_cuda_regs *regs, size_t n, const char *kernel, const char *arch,
                         bool *ptxas)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(regs[i].kernel, kernel) && !strcmp(regs[i].arch, arch)) {
			*ptxas = regs[i].from_ptxas;
			return regs[i].registers;
		}
	return 0;
}

static void check_launch(const struct px_cuda_file *f, const struct px_cuda_launch *l,
                         const struct px_cuda_options *opt, const struct px_cuda_regs *regs, size_t nregs,
                         struct px_cuda_results *res)
{
	const struct px_cuda_func *fn = l->func >= 0 ? &f->funcs[l->func] : NULL;
	const char *kname = fn ? fn->name : l->kernel;
	if (l->block.known) {
		uint64_t t = (uint64_t)l->block.v[0] * l->block.v[1] * l->block.v[2];
		if (t % 32)
			px_cuda_add_finding(res, "block-size-not-multiple-of-32", l->line, l->column, kname, NULL,
			                    "block (%u,%u,%u) has %llu threads, not a multiple of 32: the last warp of every block "
			                    "runs %llu of 32 lanes", l->block.v[0], l->block.v[1], l->block.v[2],
			                    (unsigned long long)t, (unsigned long long)(t % 32));
		if (t > 1024 || l->block.v[0] > 1024 || l->block.v[1] > 1024 || l->block.v[2] > 64) {
			px_cuda_add_finding(res, "launch-infeasible", l->line, l->column, kname, NULL,
			                    "block (%u,%u,%u) exceeds the 1024 threads (x, y <= 1024, z <= 64) a block may have: "
			                    "the launch fails with an invalid configuration", l->block.v[0], l->block.v[1],
			                    l->block.v[2]);
			return;
		}
		if (fn && fn->has_launch_bounds && fn->launch_bounds_known && fn->max_threads && t > fn->max_threads) {
			px_cuda_add_finding(res, "launch-infeasible", l->line, l->column, kname, NULL,
			                    "block of %llu threads exceeds %s's __launch_bounds__(%u): the launch fails with too "
			                    "many resources requested", (unsigned long long)t, kname, fn->max_threads);
			return;
		}
	}
	bool any_optin = false;
	uint64_t opt_b = optin_bytes(f, kname, l, &any_optin);
	/* without the opt-in, static plus dynamic shared memory must fit in
	 * 48 KiB (measured: cudaErrorInvalidValue, tests/check_launch_hw.py) */
	uint64_t st = fn && fn->shared_static_known ? fn->shared_static_bytes : 0;
	if (l->smem_known && l->smem > 48 * 1024 && opt_b < l->smem)
		px_cuda_add_finding(res, "shared-memory-opt-in-missing", l->line, l->column, kname, NULL,
		                    "%llu bytes of dynamic shared memory exceed 48 KiB without cudaFuncSetAttribute(%s, "
		                    "cudaFuncAttributeMaxDynamicSharedMemorySize, %llu)%s: the launch fails",
		                    (unsigned long long)l->smem, kname, (unsigned long long)l->smem,
		                    any_optin ? " (the opt-in found asks for less)" : "");
	else if (l->smem_known && l->smem && st + l->smem > 48 * 1024 && opt_b < l->smem)
		px_cuda_add_finding(res, "shared-memory-opt-in-missing", l->line, l->column, kname, NULL,
		                    "%llu bytes of static plus %llu of dynamic shared memory exceed 48 KiB without "
		                    "cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, %llu)%s: the launch fails",
		                    (unsigned long long)st, (unsigned long long)l->smem, kname, (unsigned long long)l->smem,
		                    any_optin ? " (the opt-in found asks for less)" : "");
	if (!l->block.known || !opt || !opt->archset)
		return;
	static const char *const def_arch[] = {"sm_90"};
	const char *const *archs = opt->narchs ? opt->archs : def_arch;
	size_t narchs = opt->narchs ? opt->narchs : 1;
	for (size_t ai = 0; ai < narchs; ai++) {
		const struct px_arch *a = px_archset_find(opt->archset, archs[ai]);
		if (!a)
			continue;
		struct px_occ_query q = {0};
		q.threads = l->block.v[0] * l->block.v[1] * l->block.v[2];
		q.carveout = -1;
		q.barriers = 1;
		bool from_ptxas = false;
		uint32_t r = regs_for(regs, nregs, kname, a->name, &from_ptxas);
		const char *rfrom = from_ptxas ? "ptxas" : "the PTX estimate";
		if (!r && fn && fn->maxnreg) {
			r = 0;   /* a cap, not a count: no claim on registers */
		}
		q.registers = r > a->max_registers_per_thread ? a->max_registers_per_thread : r;
		q.shared = fn && fn->shared_static_known ? (uint32_t)fn->shared_static_bytes : 0;
		q.dynamic_shared = l->smem_known && l->smem < (1u << 30) ? (uint32_t)l->smem : 0;
		q.optin = any_optin && opt_b >= q.dynamic_shared;
		if (px_occ_check(a, &q))
			continue;
		struct px_occ_result o;
		px_occ_compute(a, &q, &o);
		if (o.blocks_per_sm > 0)
			continue;
		if (o.fail == PX_OCC_FAIL_REGISTERS)
			px_cuda_add_finding(res, "launch-infeasible", l->line, l->column, kname, a->name,
			                    "on %s, %u threads x %u registers (%s) need %u registers per block, over the %u a block "
			                    "may use: too many resources requested for launch", a->name, q.threads, q.registers,
			                    rfrom, o.registers_per_block, a->registers_per_block);
		else if (o.fail == PX_OCC_FAIL_SHARED && (q.optin || (uint64_t)q.shared + q.dynamic_shared >
		                                                     a->shared_per_block_optin))
			/* what the opt-in would fix is shared-memory-opt-in-missing's */
			px_cuda_add_finding(res, "launch-infeasible", l->line, l->column, kname, a->name,
			                    "on %s, %u bytes of shared memory per block (static %u + dynamic %u) exceed the %u a "
			                    "block may use, even with the opt-in", a->name, q.shared + q.dynamic_shared, q.shared,
			                    q.dynamic_shared, a->shared_per_block_optin);
		else if (o.fail == PX_OCC_FAIL_THREADS)
			px_cuda_add_finding(res, "launch-infeasible", l->line, l->column, kname, a->name,
			                    "on %s, %u threads per block exceed the %u allowed", a->name, q.threads,
			                    a->max_threads_per_block);
	}
}

void cu_check_launches(const struct px_cuda_file *f, const struct px_cuda_options *opt,
                       const struct px_cuda_regs *regs, size_t nregs, struct px_cuda_results *res)
{
	for (uint32_t i = 0; i < f->nlaunches; i++)
		check_launch(f, &f->launches[i], opt, regs, nregs, res);
}
