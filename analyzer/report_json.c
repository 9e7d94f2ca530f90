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

/* ---- kernels rendered on a pool (-j N) ----
 * A run of kernels renders into a buffer of its own from the writer state
 * the sequential loop would have there (the depth, and whether a comma
 * comes first), so the buffers, appended in order, are the same bytes.
 * At most CHUNKS_PER_SLOT chunks per pool slot are rendered ahead of the
 * one being written out, which bounds the memory they take. */
#define CHUNK_KERNELS 4
#define CHUNKS_PER_SLOT 1

struct json_chunk {
	struct px_task t;           /* first: the pool hands it back */
	const struct px_kernel_report *k;
	size_t nk;
	uint32_t depth;
	bool comma;
	struct px_buf buf;
};

static void chunk_run(struct px_task *t, unsigned slot)
{
	struct json_chunk *c = (struct json_chunk *)t;
	(void)slot;
	struct px_json j = {.out = &c->buf, .pretty = true, .depth = c->depth};
	if (j.depth < PX_COUNTOF(j.need_comma))
		j.need_comma[j.depth] = c->comma;
	for (size_t i = 0; i < c->nk; i++)
		kernel_json(&j, &c->k[i]);
}

/* The elements of a file's "kernels" array, as kernel_json would write
 * them one after the other at j's state. */
static void kernels_json(struct px_json *j, const struct px_file_report *r, struct px_pool *pool)
{
	size_t nchunks = (r->nkernels + CHUNK_KERNELS - 1) / CHUNK_KERNELS;
	if (!pool || nchunks < 2 || j->depth >= PX_COUNTOF(j->need_comma)) {
		for (size_t k = 0; k < r->nkernels; k++)
			kernel_json(j, &r->kernels[k]);
		return;
	}
	size_t ahead = (size_t)px_pool_slots(pool) * CHUNKS_PER_SLOT;
	struct json_chunk *cs = xcalloc(nchunks, sizeof *cs);
	size_t submitted = 0;
	for (size_t c = 0; c < nchunks; c++) {
		for (; submitted < nchunks && submitted <= c + ahead; submitted++) {
			struct json_chunk *x = &cs[submitted];
			x->t.run = chunk_run;
			x->k = r->kernels + submitted * CHUNK_KERNELS;
			x->nk = r->nkernels - submitted * CHUNK_KERNELS;
			if (x->nk > CHUNK_KERNELS)
				x->nk = CHUNK_KERNELS;
			x->depth = j->depth;
			x->comma = submitted ? true : j->need_comma[j->depth];
			px_pool_submit(pool, &x->t);
		}
		px_pool_wait(pool, &cs[c].t, NULL);
		px_buf_putn(j->out, cs[c].buf.p, cs[c].buf.n);
		px_buf_free(&cs[c].buf);
	}
	j->need_comma[j->depth] = true;
	free(cs);
}

void px_report_json(struct px_buf *out, const struct px_file_report *files, size_t n)
{
	px_report_json_pool(out, files, n, NULL);
}

void px_report_json_pool(struct px_buf *out, const struct px_file_report *files, size_t n,
                         struct px_pool *pool)
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
		kernels_json(&j, r, pool);
		px_json_end_array(&j);
		px_json_end_object(&j);
	}
	px_json_end_array(&j);
	px_json_end_object(&j);
	px_buf_puts(out, "\n");
}
