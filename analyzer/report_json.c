/* report_json.c: renders `ptxray report --format json` exactly as
 * ../shared/INTERFACES.md specifies ("ptxray-report/1"). Knowledge ptxray
 * does not have is null, never a made-up value: the per-access and
 * per-branch verdicts and the occupancy object are null until their
 * analyses exist. */
#include <stdio.h>
#include <string.h>

#include "report.h"

static void str_or_null(struct px_json *j, const char *s)
{
	if (s)
		px_json_string(j, s);
	else
		px_json_null(j);
}

static void kernel_json(struct px_json *j, const struct px_kernel_report *k)
{
	const struct px_func *f = k->func;
	px_json_begin_object(j);
	px_json_key(j, "name");
	px_json_string_n(j, f->name.p, f->name.n);
	px_json_key(j, "demangled");
	str_or_null(j, k->demangled);
	px_json_key(j, "line");
	px_json_uint(j, k->line);
	px_json_key(j, "source");
	if (k->source_file) {
		px_json_begin_object(j);
		px_json_key(j, "file");
		px_json_string(j, k->source_file);
		px_json_key(j, "line");
		px_json_uint(j, k->source_line);
		px_json_end_object(j);
	} else {
		px_json_null(j);
	}

	px_json_key(j, "registers");
	px_json_begin_object(j);
	px_json_key(j, "estimate");
	px_json_uint(j, k->reg_estimate);
	px_json_key(j, "ptxas");
	if (k->have_ptxas && k->ptxas.have_regs)
		px_json_uint(j, k->ptxas.registers);
	else
		px_json_null(j);
	px_json_key(j, "cap");
	if (k->reg_cap)
		px_json_uint(j, k->reg_cap);
	else
		px_json_null(j);
	px_json_end_object(j);

	px_json_key(j, "shared_static_bytes");
	px_json_uint(j, k->shared_static_bytes);
	px_json_key(j, "shared_dynamic");
	px_json_bool(j, k->shared_dynamic);
	px_json_key(j, "local_bytes");
	px_json_uint(j, k->local_bytes);
	px_json_key(j, "param_bytes");
	px_json_uint(j, k->param_bytes);

	px_json_key(j, "spills");
	px_json_begin_object(j);
	px_report_json_spills(j, k);
	px_json_end_object(j);

	/* added fields (INTERFACES.md allows additions) */
	px_json_key(j, "directives");
	px_json_begin_object(j);
	static const char *const dim_names[] = {"maxntid", "reqntid", "reqnctapercluster"};
	const uint32_t *dims[] = {f->maxntid, f->reqntid, f->reqnctapercluster};
	for (int d = 0; d < 3; d++) {
		px_json_key(j, dim_names[d]);
		if (dims[d][0]) {
			px_json_begin_array(j);
			for (int i = 0; i < 3 && dims[d][i]; i++)
				px_json_uint(j, dims[d][i]);
			px_json_end_array(j);
		} else {
			px_json_null(j);
		}
	}
	static const char *const scalar_names[] = {"minnctapersm", "maxnctapersm", "maxnreg", "maxclusterrank"};
	const uint32_t scalars[] = {f->minnctapersm, f->maxnctapersm, f->maxnreg, f->maxclusterrank};
	for (int s = 0; s < 4; s++) {
		px_json_key(j, scalar_names[s]);
		if (scalars[s])
			px_json_uint(j, scalars[s]);
		else
			px_json_null(j);
	}
	px_json_key(j, "explicitcluster");
	px_json_bool(j, f->explicitcluster);
	px_json_end_object(j);
	if (k->have_ptxas) {
		px_json_key(j, "ptxas");
		px_json_begin_object(j);
		px_json_key(j, "stack_bytes");
		if (k->ptxas.have_frame)
			px_json_uint(j, k->ptxas.stack_bytes);
		else
			px_json_null(j);
		px_json_key(j, "smem_bytes");
		px_json_uint(j, k->ptxas.smem_bytes);
		px_json_key(j, "barriers");
		px_json_uint(j, k->ptxas.barriers);
		px_json_end_object(j);
	}

	px_json_key(j, "launch");
	px_json_begin_object(j);
	px_json_key(j, "block");
	px_json_begin_array(j);
	for (int i = 0; i < 3; i++)
		px_json_uint(j, k->block[i]);
	px_json_end_array(j);
	px_json_key(j, "from");
	px_json_string(j, px_launch_from_name(k->block_from));
	px_json_end_object(j);

	px_json_key(j, "occupancy");
	if (k->have_occ)
		px_occ_json(j, k->occ_arch, &k->occ_q, &k->occ, &k->occ_adv);
	else
		px_json_null(j);
	px_json_key(j, "accesses");
	px_report_json_accesses(j, k);
	px_json_key(j, "branches");
	px_report_json_branches(j, k);
	px_json_key(j, "loops");
	px_report_json_loops(j, k);
	px_json_end_object(j);
}

void px_report_json(struct px_buf *out, const struct px_file_report *files, size_t n)
{
	struct px_json j = {.out = out, .pretty = true};
	px_json_begin_object(&j);
	px_json_key(&j, "schema");
	px_json_string(&j, "ptxray-report/1");
	px_json_key(&j, "files");
	px_json_begin_array(&j);
	for (size_t i = 0; i < n; i++) {
		const struct px_file_report *r = &files[i];
		const struct px_module *m = r->module;
		px_json_begin_object(&j);
		px_json_key(&j, "path");
		px_json_string(&j, r->path);
		px_json_key(&j, "kind");
		px_json_string(&j, "ptx");
		px_json_key(&j, "ptx_version");
		if (m->version_major || m->version_minor) {
			char v[32];
			snprintf(v, sizeof v, "%u.%u", m->version_major, m->version_minor);
			px_json_string(&j, v);
		} else {
			px_json_null(&j);
		}
		px_json_key(&j, "target");
		if (m->target.n)
			px_json_string_n(&j, m->target.p, m->target.n);
		else
			px_json_null(&j);
		if (r->ptxas_error) {
			px_json_key(&j, "ptxas_error");
			px_json_string(&j, r->ptxas_error);
		}
		px_json_key(&j, "kernels");
		px_json_begin_array(&j);
		for (size_t k = 0; k < r->nkernels; k++)
			kernel_json(&j, &r->kernels[k]);
		px_json_end_array(&j);
		px_json_end_object(&j);
	}
	px_json_end_array(&j);
	px_json_end_object(&j);
	px_buf_puts(out, "\n");
}
