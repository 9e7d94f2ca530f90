/* report_access.c: renders what the value analyses found for one kernel
 * (struct px_results, analysis.h): the `spills`, `accesses`, `branches` and
 * `loops` members of `ptxray report --format json` (INTERFACES.md field names and
 * enums), and the text report's per-kernel section listing the accesses
 * that are not ideal (extra sectors, bank conflicts, dynamic local indices)
 * and the divergent branches, with their CUDA source lines.
 * Unknown numbers are null in JSON and "?" in text. */
#include <stdio.h>
#include <string.h>

#include "report.h"

static void source_json(struct px_json *j, const struct px_kernel_report *k, uint32_t file, uint32_t line)
{
	const struct px_file_entry *fe = file && k->module ? px_module_file(k->module, file) : NULL;
	if (!fe) {
		px_json_null(j);
		return;
	}
	px_json_begin_object(j);
	px_json_key(j, "file");
	px_json_string_n(j, fe->name.p, fe->name.n);
	px_json_key(j, "line");
	px_json_uint(j, line);
	px_json_end_object(j);
}

static void num_or_null(struct px_json *j, double v)
{
	if (v < 0)
		px_json_null(j);
	else if (v == (double)(uint64_t)v)
		px_json_uint(j, (uint64_t)v);
	else
		px_json_double(j, v);
}

static const char *space_word(uint8_t s)
{
	switch (s) {
	case PX_SPACE_GLOBAL: return "global";
	case PX_SPACE_SHARED: return "shared";
	case PX_SPACE_LOCAL: return "local";
	case PX_SPACE_CONST: return "const";
	case PX_SPACE_PARAM: return "param";
	}
	return "generic";
}

static const char *op_word(uint16_t op)
{
	return op == PX_OP_CP ? "cp.async" : px_opcode_name(op);
}

void px_report_json_spills(struct px_json *j, const struct px_kernel_report *k)
{
	px_json_key(j, "predicted");
	px_json_bool(j, k->spills_predicted);
	px_json_key(j, "ptxas_store_bytes");
	if (k->have_ptxas && k->ptxas.have_frame)
		px_json_uint(j, k->ptxas.spill_store_bytes);
	else
		px_json_null(j);
	px_json_key(j, "ptxas_load_bytes");
	if (k->have_ptxas && k->ptxas.have_frame)
		px_json_uint(j, k->ptxas.spill_load_bytes);
	else
		px_json_null(j);
	/* added: what the prediction compared */
	px_json_key(j, "registers_wanted");
	px_json_uint(j, k->reg_demand);
	px_json_key(j, "register_cap");
	px_json_uint(j, k->spill_cap);
	px_json_key(j, "dynamic_local_accesses");
	px_json_uint(j, k->res ? k->res->ndynamic_local : 0);
}

void px_report_json_accesses(struct px_json *j, const struct px_kernel_report *k)
{
	if (!k->res) {
		px_json_null(j);
		return;
	}
	px_json_begin_array(j);
	for (uint32_t i = 0; i < k->res->nacc; i++) {
		const struct px_access_rec *r = &k->res->acc[i];
		px_json_begin_object(j);
		px_json_key(j, "line");
		px_json_uint(j, r->line);
		px_json_key(j, "source");
		source_json(j, k, r->loc_file, r->loc_line);
		px_json_key(j, "space");
		px_json_string(j, space_word(r->space));
		px_json_key(j, "op");
		px_json_string(j, op_word(r->op));
		px_json_key(j, "bytes");
		px_json_uint(j, r->bytes);
		px_json_key(j, "pattern");
		px_json_string(j, r->pattern == PX_PATTERN_AFFINE ? "affine" : "unknown");
		px_json_key(j, "sectors_per_request");
		num_or_null(j, r->sectors);
		px_json_key(j, "ideal_sectors_per_request");
		num_or_null(j, r->ideal_sectors);
		px_json_key(j, "bank_conflict_ways");
		num_or_null(j, r->wavefronts >= 0 && r->ideal_wavefronts > 0
		                   ? r->wavefronts / r->ideal_wavefronts : -1);
		px_json_key(j, "in_loop_depth");
		px_json_uint(j, r->depth);
		/* added fields, only where they say something */
		if (r->space == PX_SPACE_SHARED) {
			px_json_key(j, "wavefronts");
			num_or_null(j, r->wavefronts);
			px_json_key(j, "ideal_wavefronts");
			num_or_null(j, r->ideal_wavefronts);
		}
		if (r->dynamic_local) {
			px_json_key(j, "dynamic_local");
			px_json_bool(j, true);
		}
		if (r->why) {
			px_json_key(j, "note");
			px_json_string(j, r->why);
		}
		px_json_end_object(j);
	}
	px_json_end_array(j);
}

void px_report_json_branches(struct px_json *j, const struct px_kernel_report *k)
{
	if (!k->res) {
		px_json_null(j);
		return;
	}
	static const char *const dn[] = {"uniform", "divergent", "unknown"};
	px_json_begin_array(j);
	for (uint32_t i = 0; i < k->res->nbr; i++) {
		const struct px_branch_rec *b = &k->res->br[i];
		px_json_begin_object(j);
		px_json_key(j, "line");
		px_json_uint(j, b->line);
		px_json_key(j, "source");
		source_json(j, k, b->loc_file, b->loc_line);
		px_json_key(j, "divergence");
		px_json_string(j, dn[b->divergence % 3]);
		px_json_key(j, "uniform_across");
		if (b->divergence == PX_DIV_UNIFORM)
			px_json_string(j, b->across == PX_UNI_BLOCK ? "block" : "warp");
		else
			px_json_null(j);
		px_json_key(j, "active_lanes");
		if (b->active_lanes >= 0)
			px_json_uint(j, (uint64_t)b->active_lanes);
		else
			px_json_null(j);
		px_json_key(j, "reason");
		px_json_string(j, b->reason ? b->reason : "");
		px_json_key(j, "in_loop_depth");
		px_json_uint(j, b->depth);
		px_json_end_object(j);
	}
	px_json_end_array(j);
}

void px_report_json_loops(struct px_json *j, const struct px_kernel_report *k)
{
	if (!k->res) {
		px_json_null(j);
		return;
	}
	px_json_begin_array(j);
	for (uint32_t i = 0; i < k->res->nloops; i++) {
		const struct px_loop_rec *l = &k->res->loops[i];
		px_json_begin_object(j);
		px_json_key(j, "line");
		px_json_uint(j, l->line);
		px_json_key(j, "source");
		source_json(j, k, l->loc_file, l->loc_line);
		px_json_key(j, "depth");
		px_json_uint(j, l->depth);
		px_json_key(j, "trip_count");
		if (l->trip >= 0)
			px_json_uint(j, (uint64_t)l->trip);
		else
			px_json_null(j);
		px_json_end_object(j);
	}
	px_json_end_array(j);
}

/* One finding line of the text report. Consecutive findings with the same
 * source line and the same words (an unrolled loop's copies) are printed
 * once, with the count of further PTX lines. */
struct pending {
	bool have;
	uint32_t line, file, sline, more;
	struct px_buf text;
};

static void flush(struct px_buf *out, const struct px_kernel_report *k, struct pending *p)
{
	if (!p->have)
		return;
	const struct px_file_entry *fe = p->file && k->module ? px_module_file(k->module, p->file) : NULL;
	px_buf_printf(out, "    line %u", p->line);
	if (fe)
		px_buf_printf(out, " (" PX_STR_FMT ":%u)", PX_STR_ARG(fe->name), p->sline);
	if (p->more)
		px_buf_printf(out, " and %u more PTX line%s", p->more, p->more == 1 ? "" : "s");
	px_buf_printf(out, ": %s\n", p->text.p);
	p->have = false;
}

/* Adds the finding at PTX line `line` whose words are in t (consumed). */
static void emit(struct px_buf *out, const struct px_kernel_report *k, struct pending *p,
                 uint32_t line, uint32_t file, uint32_t sline, struct px_buf *t)
{
	if (p->have && file && p->file == file && p->sline == sline && strcmp(p->text.p, t->p) == 0) {
		p->more++;
		t->n = 0;
		return;
	}
	flush(out, k, p);
	p->have = true;
	p->line = line;
	p->file = file;
	p->sline = sline;
	p->more = 0;
	p->text.n = 0;
	px_buf_putn(&p->text, t->p, t->n);
	t->n = 0;
}

void px_report_text_accesses(struct px_buf *out, const struct px_kernel_report *k)
{
	const struct px_results *res = k->res;
	if (!res)
		return;
	uint32_t nbad = 0, ndiv = 0;
	for (uint32_t i = 0; i < res->nacc; i++) {
		const struct px_access_rec *r = &res->acc[i];
		nbad += r->dynamic_local || (r->sectors > r->ideal_sectors && r->ideal_sectors >= 0) ||
		        (r->wavefronts > r->ideal_wavefronts && r->ideal_wavefronts >= 0);
	}
	for (uint32_t i = 0; i < res->nbr; i++)
		ndiv += res->br[i].divergence != PX_DIV_UNIFORM;
	if (k->spills_predicted)
		px_buf_printf(out, "  %s: spills predicted: wants ~%u registers, cap %u\n",
		              k->demangled ? k->demangled : "kernel", k->reg_demand, k->spill_cap);
	uint32_t ntrip = 0;
	for (uint32_t i = 0; i < res->nloops; i++)
		ntrip += res->loops[i].trip >= 0;
	if (!nbad && !ndiv && !ntrip)
		return;
	const struct px_func *f = k->func;
	if (k->demangled)
		px_buf_printf(out, "  %s:\n", k->demangled);
	else
		px_buf_printf(out, "  " PX_STR_FMT ":\n", PX_STR_ARG(f->name));
	struct pending p = {0};
	struct px_buf t = {0};
	for (uint32_t i = 0; i < res->nacc; i++) {
		const struct px_access_rec *r = &res->acc[i];
		if (r->dynamic_local)
			px_buf_printf(&t, "%s.local %uB: dynamic index into local memory", op_word(r->op), r->bytes);
		else if (r->ideal_sectors >= 0 && r->sectors > r->ideal_sectors)
			px_buf_printf(&t, "%s.%s %uB: %g sectors per request (ideal %g)%s", op_word(r->op),
			              space_word(r->space), r->bytes, r->sectors, r->ideal_sectors,
			              r->depth ? ", in a loop" : "");
		else if (r->ideal_wavefronts > 0 && r->wavefronts > r->ideal_wavefronts)
			px_buf_printf(&t, "%s.shared %uB: %g-way bank conflict (%g wavefronts, ideal %g)%s",
			              op_word(r->op), r->bytes, r->wavefronts / r->ideal_wavefronts, r->wavefronts,
			              r->ideal_wavefronts, r->depth ? ", in a loop" : "");
		else
			continue;
		emit(out, k, &p, r->line, r->loc_file, r->loc_line, &t);
	}
	flush(out, k, &p);
	for (uint32_t i = 0; i < res->nloops; i++) {
		const struct px_loop_rec *l = &res->loops[i];
		if (l->trip < 0)
			continue;
		px_buf_printf(&t, "loop (depth %u): %lld iterations per entry", l->depth, (long long)l->trip);
		emit(out, k, &p, l->line, l->loc_file, l->loc_line, &t);
	}
	flush(out, k, &p);
	for (uint32_t i = 0; i < res->nbr; i++) {
		const struct px_branch_rec *b = &res->br[i];
		if (b->divergence == PX_DIV_UNIFORM)
			continue;
		px_buf_printf(&t, "branch %s", b->divergence == PX_DIV_DIVERGENT ? "divergent" : "unknown");
		if (b->active_lanes >= 0)
			px_buf_printf(&t, " (%d lanes on the smaller side)", b->active_lanes);
		px_buf_printf(&t, ": %s", b->reason);
		emit(out, k, &p, b->line, b->loc_file, b->loc_line, &t);
	}
	flush(out, k, &p);
	px_buf_free(&t);
	px_buf_free(&p.text);
}
