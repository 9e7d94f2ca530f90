/* occ_report.c: the occupancy of each kernel in `ptxray report`, the same
 * object `ptxray occupancy` prints.
 *
 * Approach: the arch is --arch or the module's .target (sm_90a finds
 * sm_90); registers are ptxas's when --ptxas ran, else the report's
 * estimate; shared memory is ptxas's or the static layout; dynamic shared
 * memory 0 (the PTX does not say how much a launch passes); barriers
 * ptxas's count, else 1; the carveout the driver default. No table for the
 * target: no occupancy (null), never a guess. */
#include <stdio.h>
#include <string.h>

#include "report.h"

void px_report_occupancy(const struct px_report_options *opt, const struct px_module *m,
                         struct px_kernel_report *k)
{
	k->have_occ = false;
	if (!opt->archs)
		return;
	char target[32];
	if (opt->arch)
		snprintf(target, sizeof target, "%s", opt->arch);
	else
		snprintf(target, sizeof target, PX_STR_FMT, PX_STR_ARG(m->target));
	const struct px_arch *a = px_archset_find(opt->archs, target);
	if (!a)
		return;
	struct px_occ_query q = {.carveout = -1, .barriers = 1};
	uint64_t threads = (uint64_t)k->block[0] * k->block[1] * k->block[2];
	q.threads = threads > (1u << 20) ? (1u << 20) + 1 : (uint32_t)threads;
	q.registers = k->reg_estimate;
	q.shared = k->shared_static_bytes > 0x3fffffff ? 0x3fffffff : (uint32_t)k->shared_static_bytes;
	if (k->have_ptxas && k->ptxas.have_regs) {
		q.registers = k->ptxas.registers;
		q.shared = k->ptxas.smem_bytes;
		q.barriers = k->ptxas.barriers;
	}
	if (px_occ_check(a, &q))
		return;
	k->occ_arch = a;
	k->occ_q = q;
	px_occ_compute(a, &q, &k->occ);
	px_occ_advise(a, &q, &k->occ, NULL, &k->occ_adv);
	k->have_occ = true;
}
