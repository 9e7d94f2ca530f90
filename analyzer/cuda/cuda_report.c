/* cuda_report.c: `ptxray report FILE.cu`, the report of a CUDA source
 * file from the front end alone.
 *
 * Approach: parse and check each file (px_cuda_parse, px_cuda_check), then
 * render the INTERFACES.md "ptxray-report/1" document with "kind": "cuda":
 * per kernel its source line, the __launch_bounds__/__maxnreg__ cap, the
 * static shared bytes folded from the source, dynamic shared use, the
 * launch block the analyses assumed and where it came from, its launch
 * sites with their folded configurations, and the source-level accesses.
 * With the nvcc bridge (opt->nvcc with an nvcc; cuda_nvcc.c) each file is
 * compiled to PTX per target (cached) and the PTX goes through the PTX
 * report (px_report_file): registers, local and parameter bytes, the PTX
 * accesses and branches with their .cu lines (.loc); the registers feed
 * the launch-feasibility check; PTX accesses with a bank conflict or
 * uncoalesced sectors become findings at their .cu line unless the source
 * analyses already reported that rule on that line (merged, no
 * duplicates). Without nvcc (or with --no-compile) what only the PTX
 * knows is null and a note says so once. The findings go to diags
 * (rendered by main.c like every diagnostic). */
#include <stdio.h>
#include <string.h>

#include "cuda_int.h"
#include "ir.h"
#include "report.h"

/* What the bridge produced for one file: one PTX report per target. */
struct ptx_side {
	const char *const *archs;
	size_t narchs;
	struct px_file_report *reps;  /* narchs entries */
	bool *have;                   /* reps[i] filled */
	uint32_t compiled, cached, failed;
};

/* The source-level name of a PTX kernel: the demangled name's last
 * identifier before its parameter list and template arguments, or the
 * PTX name itself (extern "C"). Copies at most cap - 1 bytes. */
void px_cuda_kernel_base_name(const struct px_kernel_report *k, char *out, size_t cap)
{
	const char *d = k->demangled;
	if (!d) {
		snprintf(out, cap, "%.*s", (int)k->func->name.n, k->func->name.p);
		return;
	}
	/* the end of the name: the '(' of the parameters at template depth 0 */
	const char *end = d;
	int depth = 0;
	for (; *end; end++) {
		if (*end == '<')
			depth++;
		else if (*end == '>')
			depth--;
		else if (*end == '(' && depth == 0)
			break;
	}
	/* drop template arguments at the end */
	const char *e = end;
	if (e > d && e[-1] == '>') {
		int dd = 0;
		while (e > d) {
			e--;
			if (*e == '>')
				dd++;
			else if (*e == '<' && --dd == 0)
				break;
		}
	}
	const char *b = e;
	while (b > d && (b[-1] == '_' || (b[-1] >= 'a' && b[-1] <= 'z') || (b[-1] >= 'A' && b[-1] <= 'Z') ||
	                 (b[-1] >= '0' && b[-1] <= '9')))
		b--;
	snprintf(out, cap, "%.*s", (int)(e - b), b);
}

/* The PTX kernel of source kernel `name` in rep, or NULL. */
static const struct px_kernel_report *ptx_kernel(const struct px_file_report *rep, const char *name)
{
	char b[256];
	for (size_t i = 0; i < rep->nkernels; i++) {
		px_cuda_kernel_base_name(&rep->kernels[i], b, sizeof b);
		if (!strcmp(b, name))
			return &rep->kernels[i];
	}
	return NULL;
}

/* Does the .file entry `file` of k's module name the source at path? */
static bool same_source(const struct px_kernel_report *k, uint32_t file, const char *path)
{
	const struct px_file_entry *fe = file && k->module ? px_module_file(k->module, file) : NULL;
	if (!fe)
		return false;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t bn = strlen(base);
	return fe->name.n >= bn && memcmp(fe->name.p + fe->name.n - bn, base, bn) == 0 &&
	       (fe->name.n == bn || fe->name.p[fe->name.n - bn - 1] == '/');
}

static void dim3(struct px_json *j, const uint32_t v[3])
{
	px_json_begin_array(j);
	for (int i = 0; i < 3; i++)
		px_json_uint(j, v[i]);
	px_json_end_array(j);
}

/* The block the analyses assume for kernel fi, and where it came from. */
static const char *kernel_block(const struct px_cuda_file *f, uint32_t fi, uint32_t b[3])
{
	const struct px_cuda_func *fn = &f->funcs[fi];
	b[0] = PX_DEFAULT_BLOCK_X;
	b[1] = b[2] = 1;
	if (fn->have_launch && fn->ann_block.known) {
		memcpy(b, fn->ann_block.v, 3 * sizeof *b);
		return "annotation";
	}
	const struct px_cuda_launch *only = NULL;
	uint32_t n = 0;
	for (uint32_t i = 0; i < f->nlaunches; i++) {
		const struct px_cuda_launch *l = &f->launches[i];
		if (l->func == (int32_t)fi && l->block.known) {
			if (!only || memcmp(only->block.v, l->block.v, sizeof l->block.v))
				n++;
			only = l;
		}
	}
	if (n == 1 && (uint64_t)only->block.v[0] * only->block.v[1] * only->block.v[2] <= 1024) {
		memcpy(b, only->block.v, 3 * sizeof *b);
		return "config";
	}
	if (fn->has_launch_bounds && fn->launch_bounds_known && fn->max_threads && fn->max_threads <= 1024) {
		b[0] = fn->max_threads;
		return "maxntid";
	}
	return "default";
}

/* The source-level accesses of function i (the "accesses" of the source
 * analyses). */
static void json_source_accesses(struct px_json *j, const struct px_cuda_file *f, const struct px_cuda_results *res,
                                 uint32_t i)
{
	px_json_begin_array(j);
	for (size_t k = 0; k < res->nacc; k++) {
		const struct px_cuda_access *a = &res->acc[k];
		if (a->func != (int32_t)i)
			continue;
		px_json_begin_object(j);
		px_json_key(j, "line");
		px_json_uint(j, a->line);
		px_json_key(j, "source");
		px_json_begin_object(j);
		px_json_key(j, "file");
		px_json_string(j, f->path);
		px_json_key(j, "line");
		px_json_uint(j, a->line);
		px_json_end_object(j);
		px_json_key(j, "space");
		px_json_string(j, a->shared ? "shared" : "global");
		px_json_key(j, "op");
		px_json_string(j, a->is_store ? "st" : "ld");
		px_json_key(j, "bytes");
		px_json_uint(j, a->bytes);
		px_json_key(j, "pattern");
		px_json_string(j, "affine");
		px_json_key(j, "sectors_per_request");
		if (!a->shared)
			px_json_double(j, a->sectors);
		else
			px_json_null(j);
		px_json_key(j, "ideal_sectors_per_request");
		if (!a->shared)
			px_json_double(j, a->ideal_sectors);
		else
			px_json_null(j);
		px_json_key(j, "bank_conflict_ways");
		if (a->shared && a->ideal_wavefronts > 0)
			px_json_double(j, a->wavefronts / a->ideal_wavefronts);
		else
			px_json_null(j);
		px_json_end_object(j);
	}
	px_json_end_array(j);
}

static void json_file(struct px_json *j, const struct px_cuda_file *f, const struct px_cuda_results *res,
                      const struct ptx_side *ps)
{
	px_json_begin_object(j);
	px_json_key(j, "path");
	px_json_string(j, f->path);
	px_json_key(j, "kind");
	px_json_string(j, "cuda");
	px_json_key(j, "ptx_version");
	px_json_null(j);
	px_json_key(j, "target");
	if (ps && ps->narchs)
		px_json_string(j, ps->archs[0]);
	else
		px_json_null(j);
	px_json_key(j, "compile");
	if (ps) {
		px_json_begin_object(j);
		px_json_key(j, "targets");
		px_json_begin_array(j);
		for (size_t a = 0; a < ps->narchs; a++)
			px_json_string(j, ps->archs[a]);
		px_json_end_array(j);
		px_json_key(j, "compiled");
		px_json_uint(j, ps->compiled);
		px_json_key(j, "cached");
		px_json_uint(j, ps->cached);
		px_json_key(j, "failed");
		px_json_uint(j, ps->failed);
		px_json_end_object(j);
	} else {
		px_json_null(j);
	}
	px_json_key(j, "parse");
	px_json_begin_object(j);
	px_json_key(j, "kernels");
	px_json_uint(j, f->nkernels);
	px_json_key(j, "kernels_clean");
	px_json_uint(j, f->nkernels_clean);
	px_json_key(j, "skipped_regions");
	px_json_uint(j, f->nskipped);
	px_json_end_object(j);
	px_json_key(j, "kernels");
	px_json_begin_array(j);
	for (uint32_t i = 0; i < f->nfuncs; i++) {
		const struct px_cuda_func *fn = &f->funcs[i];
		if (fn->kind != PX_CUDA_KERNEL || !fn->has_body)
			continue;
		const struct px_kernel_report *pk = NULL;
		for (size_t a = 0; ps && !pk && a < ps->narchs; a++)
			if (ps->have[a])
				pk = ptx_kernel(&ps->reps[a], fn->name);
		px_json_begin_object(j);
		px_json_key(j, "name");
		px_json_string(j, fn->name);
		px_json_key(j, "mangled");
		if (pk)
			px_json_string_n(j, pk->func->name.p, pk->func->name.n);
		else
			px_json_null(j);
		px_json_key(j, "demangled");
		if (pk && pk->demangled)
			px_json_string(j, pk->demangled);
		else
			px_json_null(j);
		px_json_key(j, "line");
		px_json_uint(j, fn->line);
		px_json_key(j, "source");
		px_json_begin_object(j);
		px_json_key(j, "file");
		px_json_string(j, f->path);
		px_json_key(j, "line");
		px_json_uint(j, fn->line);
		px_json_end_object(j);
		px_json_key(j, "template");
		px_json_bool(j, fn->is_template);
		px_json_key(j, "analysed");
		px_json_bool(j, fn->clean);
		px_json_key(j, "registers");
		px_json_begin_object(j);
		px_json_key(j, "estimate");
		if (pk)
			px_json_uint(j, pk->reg_estimate);
		else
			px_json_null(j);
		px_json_key(j, "ptxas");
		if (pk && pk->have_ptxas)
			px_json_uint(j, pk->ptxas.registers);
		else
			px_json_null(j);
		px_json_key(j, "cap");
		if (fn->maxnreg)
			px_json_uint(j, fn->maxnreg);
		else
			px_json_null(j);
		px_json_end_object(j);
		px_json_key(j, "launch_bounds");
		if (fn->has_launch_bounds && fn->launch_bounds_known) {
			px_json_begin_array(j);
			px_json_uint(j, fn->max_threads);
			px_json_uint(j, fn->min_blocks);
			px_json_uint(j, fn->max_blocks_cluster);
			px_json_end_array(j);
		} else {
			px_json_null(j);
		}
		px_json_key(j, "shared_static_bytes");
		if (fn->shared_static_known)
			px_json_uint(j, fn->shared_static_bytes);
		else
			px_json_null(j);
		px_json_key(j, "shared_dynamic");
		px_json_bool(j, fn->shared_dynamic);
		px_json_key(j, "local_bytes");
		if (pk)
			px_json_uint(j, pk->local_bytes);
		else
			px_json_null(j);
		px_json_key(j, "param_bytes");
		if (pk)
			px_json_uint(j, pk->param_bytes);
		else
			px_json_null(j);
		px_json_key(j, "ptx");
		if (ps) {
			px_json_begin_array(j);
			for (size_t a = 0; a < ps->narchs; a++) {
				const struct px_kernel_report *ak = ps->have[a] ? ptx_kernel(&ps->reps[a], fn->name) : NULL;
				if (!ak)
					continue;
				px_json_begin_object(j);
				px_json_key(j, "arch");
				px_json_string(j, ps->archs[a]);
				px_json_key(j, "registers");
				px_json_uint(j, ak->reg_estimate);
				px_json_key(j, "local_bytes");
				px_json_uint(j, ak->local_bytes);
				px_json_key(j, "shared_static_bytes");
				px_json_uint(j, ak->shared_static_bytes);
				px_json_end_object(j);
			}
			px_json_end_array(j);
		} else {
			px_json_null(j);
		}
		uint32_t b[3];
		const char *from = kernel_block(f, i, b);
		px_json_key(j, "launch");
		px_json_begin_object(j);
		px_json_key(j, "block");
		dim3(j, b);
		px_json_key(j, "from");
		px_json_string(j, from);
		px_json_end_object(j);
		px_json_key(j, "occupancy");
		px_json_null(j);
		px_json_key(j, "launch_sites");
		px_json_begin_array(j);
		for (uint32_t k = 0; k < f->nlaunches; k++) {
			const struct px_cuda_launch *l = &f->launches[k];
			if (l->func != (int32_t)i)
				continue;
			px_json_begin_object(j);
			px_json_key(j, "line");
			px_json_uint(j, l->line);
			px_json_key(j, "via");
			px_json_string(j, l->via == PX_CUDA_VIA_CHEVRONS ? "<<<>>>" : l->via == PX_CUDA_VIA_LAUNCH_KERNEL
			                                                             ? "cudaLaunchKernel" : "cudaLaunchKernelEx");
			px_json_key(j, "grid");
			if (l->grid.known)
				dim3(j, l->grid.v);
			else
				px_json_null(j);
			px_json_key(j, "block");
			if (l->block.known)
				dim3(j, l->block.v);
			else
				px_json_null(j);
			px_json_key(j, "dynamic_shared");
			if (l->smem_known)
				px_json_uint(j, l->smem);
			else if (!l->smem_given)
				px_json_uint(j, 0);
			else
				px_json_null(j);
			px_json_end_object(j);
		}
		px_json_end_array(j);
		if (pk) {
			px_json_key(j, "accesses");
			px_report_json_accesses(j, pk);
			px_json_key(j, "branches");
			px_report_json_branches(j, pk);
			px_json_key(j, "source_accesses");
			json_source_accesses(j, f, res, i);
		} else {
			px_json_key(j, "accesses");
			json_source_accesses(j, f, res, i);
			px_json_key(j, "branches");
			px_json_begin_array(j);
			px_json_end_array(j);
		}
		px_json_end_object(j);
	}
	px_json_end_array(j);
	px_json_end_object(j);
}

static void text_file(struct px_buf *out, const struct px_cuda_file *f)
{
	px_buf_printf(out, "%s (cuda source: %u kernels, %u analysed)\n", f->path, f->nkernels, f->nkernels_clean);
	px_buf_printf(out, "  %-28s %5s %8s %7s %-14s %s\n", "kernel", "line", "smem", "dynamic", "block", "launch sites");
	for (uint32_t i = 0; i < f->nfuncs; i++) {
		const struct px_cuda_func *fn = &f->funcs[i];
		if (fn->kind != PX_CUDA_KERNEL || !fn->has_body)
			continue;
		uint32_t b[3];
		const char *from = kernel_block(f, i, b);
		char smem[24], blk[40];
		if (fn->shared_static_known)
			snprintf(smem, sizeof smem, "%llu", (unsigned long long)fn->shared_static_bytes);
		else
			snprintf(smem, sizeof smem, "?");
		snprintf(blk, sizeof blk, "%ux%ux%u(%s)", b[0], b[1], b[2], from);
		uint32_t nl = 0;
		for (uint32_t k = 0; k < f->nlaunches; k++)
			nl += f->launches[k].func == (int32_t)i;
		px_buf_printf(out, "  %-28s %5u %8s %7s %-14s %u\n", fn->name, fn->line, smem,
		              fn->shared_dynamic ? "yes" : "no", blk, nl);
	}
}

/* PTX accesses of the kernels of f (mapped to f's lines through .loc) with
 * a bank conflict or uncoalesced sectors, as findings, unless the source
 * analyses reported the same rule on the same line. */
static void merge_ptx_findings(const struct px_cuda_file *f, const struct ptx_side *ps, struct px_cuda_results *res)
{
	size_t nsrc = res->n;
	for (size_t a = 0; a < ps->narchs; a++) {
		if (!ps->have[a])
			continue;
		const struct px_file_report *rep = &ps->reps[a];
		for (size_t ki = 0; ki < rep->nkernels; ki++) {
			const struct px_kernel_report *k = &rep->kernels[ki];
			if (!k->res)
				continue;
			char kname[256];
			px_cuda_kernel_base_name(k, kname, sizeof kname);
			int32_t fi = px_cuda_find_func(f, kname, strlen(kname));
			for (uint32_t i = 0; i < k->res->nacc; i++) {
				const struct px_access_rec *r = &k->res->acc[i];
				if (!r->loc_line || !same_source(k, r->loc_file, f->path))
					continue;
				const char *rule = NULL;
				double cost = 0, ideal = 0;
				if (r->space == PX_SPACE_SHARED && r->wavefronts >= 0 && r->ideal_wavefronts > 0 &&
				    r->wavefronts / r->ideal_wavefronts >= 2) {
					rule = "shared-bank-conflict";
					cost = r->wavefronts;
					ideal = r->ideal_wavefronts;
				} else if (r->space == PX_SPACE_GLOBAL && r->sectors >= 0 && r->ideal_sectors > 0 &&
				           r->sectors / r->ideal_sectors >= 2 && r->sectors >= r->ideal_sectors + 4) {
					rule = "uncoalesced-global";
					cost = r->sectors;
					ideal = r->ideal_sectors;
				}
				if (!rule)
					continue;
				bool dup = false;
				for (size_t q = 0; q < res->n && !dup; q++)
					dup = res->items[q].line == r->loc_line && !strcmp(res->items[q].rule, rule);
				if (dup)
					continue;
				/* the column: the first non-blank of the line */
				const struct cu_priv *p = f->priv;
				uint32_t col = 1;
				if (r->loc_line <= p->nlines) {
					uint32_t o = p->line_start[r->loc_line - 1];
					while (o < f->len && (f->text[o] == ' ' || f->text[o] == '\t'))
						o++, col++;
				}
				const char *kn = fi >= 0 ? f->funcs[fi].name : NULL;
				if (rule[0] == 's')
					px_cuda_add_finding(res, rule, r->loc_line, col, kn, NULL,
					                    "%s in the PTX for %s (line %u): %.0f-way bank conflict (%.1f wavefronts "
					                    "per request, ideal %.1f) with block (%u,%u,%u)",
					                    r->is_store ? "store" : "load", ps->archs[a], r->line, cost / ideal, cost,
					                    ideal, k->block[0], k->block[1], k->block[2]);
				else
					px_cuda_add_finding(res, rule, r->loc_line, col, kn, NULL,
					                    "%s in the PTX for %s (line %u) touches %.1f sectors per warp request "
					                    "where %.1f suffice, with block (%u,%u,%u)",
					                    r->is_store ? "store" : "load", ps->archs[a], r->line, cost, ideal,
					                    k->block[0], k->block[1], k->block[2]);
			}
		}
	}
	if (res->n > nsrc)
		px_cuda_results_sort(res, 0);
}

/* Compiles f for each target and reports the PTX (ps filled); the
 * registers per kernel and target go to *regs. False on a bad
 * compile_commands.json. */
static bool bridge(const struct px_cuda_file *f, const struct px_cuda_options *opt, struct ptx_side *ps,
                   struct px_cuda_regs **regs, size_t *nregs, char ***names, struct px_diags *diags)
{
	const struct px_cuda_nvcc *b = opt->nvcc;
	struct px_cuda_flags fl = {0};
	if (b->build_dir && !px_cuda_compile_db_flags(b->build_dir, f->path, &fl, diags)) {
		px_cuda_flags_free(&fl);
		return false;
	}
	static const char *const def_arch[] = {"sm_90"};
	const char *const *archs = opt->narchs ? opt->archs : fl.narchs ? (const char *const *)fl.archs : def_arch;
	size_t narchs = opt->narchs ? opt->narchs : fl.narchs ? fl.narchs : 1;
	char **own = xcalloc(narchs + 1, sizeof *own);
	for (size_t a = 0; a < narchs; a++)
		own[a] = xstrdup(archs[a]);
	ps->archs = (const char *const *)own;
	ps->narchs = narchs;
	ps->reps = xcalloc(narchs, sizeof *ps->reps);
	ps->have = xcalloc(narchs, sizeof *ps->have);
	size_t capregs = 0, nnames = 0;
	for (size_t a = 0; a < narchs; a++) {
		bool cached = false;
		char *ptx = px_cuda_compile(b, f->path, f->text, f->len, own[a], &fl, &cached, diags);
		if (!ptx) {
			ps->failed++;
			continue;
		}
		if (cached)
			ps->cached++;
		else
			ps->compiled++;
		size_t len;
		char *err = NULL;
		char *text = px_read_file(ptx, &len, &err);
		if (!text) {
			px_diag_add(diags, PX_ERROR, ptx, 0, 0, NULL, "cannot read: %s", err);
			free(err);
			free(ptx);
			ps->failed++;
			continue;
		}
		struct px_report_options ro = {0};
		ro.arch = own[a];
		ro.archs = opt->archset;
		if (opt->block)
			memcpy(ro.block, opt->block, sizeof ro.block);
		if (px_report_file(ptx, text, len, &ro, &ps->reps[a], diags)) {
			ps->have[a] = true;
			for (size_t k = 0; k < ps->reps[a].nkernels; k++) {
				const struct px_kernel_report *kr = &ps->reps[a].kernels[k];
				char nm[256];
				px_cuda_kernel_base_name(kr, nm, sizeof nm);
				struct px_cuda_regs *r = PX_VEC_PUSH(*regs, *nregs, capregs);
				*names = xrealloc(*names, (nnames + 1) * sizeof **names);
				(*names)[nnames++] = xstrdup(nm);
				r->kernel = (*names)[nnames - 1];
				r->arch = own[a];
				r->registers = kr->have_ptxas ? kr->ptxas.registers : kr->reg_estimate;
				r->from_ptxas = kr->have_ptxas;
			}
		} else {
			ps->failed++;
		}
		free(ptx);
	}
	px_cuda_flags_free(&fl);
	return true;
}

static void ptx_side_free(struct ptx_side *ps)
{
	for (size_t a = 0; a < ps->narchs; a++) {
		if (ps->have[a])
			px_file_report_free(&ps->reps[a]);
		free((char *)ps->archs[a]);
	}
	free((void *)ps->archs);
	free(ps->reps);
	free(ps->have);
}

bool px_cuda_report(const char *const *paths, size_t n, const struct px_cuda_options *opt, bool json,
                    struct px_buf *out, struct px_diags *diags)
{
	struct px_json j = {.out = out, .pretty = true};
	bool ok = true, noted = false;
	if (json) {
		px_json_begin_object(&j);
		px_json_key(&j, "schema");
		px_json_string(&j, "ptxray-report/1");
		px_json_key(&j, "files");
		px_json_begin_array(&j);
	}
	for (size_t i = 0; i < n; i++) {
		size_t len;
		char *err = NULL;
		char *text = px_read_file(paths[i], &len, &err);
		if (!text) {
			px_diag_add(diags, PX_ERROR, paths[i], 0, 0, NULL, "cannot read: %s", err);
			free(err);
			ok = false;
			continue;
		}
		struct px_cuda_file *f = px_cuda_parse(paths[i], text, len, opt, diags);
		free(text);
		if (!f) {
			ok = false;
			continue;
		}
		struct ptx_side ps = {0};
		struct px_cuda_regs *regs = NULL;
		size_t nregs = 0;
		char **names = NULL;
		bool use = opt->nvcc && opt->nvcc->nvcc;
		if (use && !bridge(f, opt, &ps, &regs, &nregs, &names, diags)) {
			ok = false;
			use = false;
		}
		struct px_cuda_options copt = *opt;
		if (use) {   /* feasibility on the compiled targets */
			copt.archs = ps.archs;
			copt.narchs = ps.narchs;
		}
		struct px_cuda_results res = {0};
		px_cuda_check(f, &copt, regs, nregs, &res);
		if (use)
			merge_ptx_findings(f, &ps, &res);
		px_cuda_results_to_diags(f, &res, diags);
		if (use && ps.failed == ps.narchs) {
			px_diag_add(diags, PX_NOTE, f->path, 0, 0, NULL,
			            "nvcc failed for every target: source analyses only for this file");
		} else if (!use && !noted) {
			noted = true;
			px_diag_add(diags, PX_NOTE, f->path, 0, 0, NULL,
			            "source analyses only (%s): registers, local memory and PTX accesses need nvcc",
			            !opt->nvcc ? "--no-compile" : "no nvcc found: give --nvcc PATH or set CUDA_HOME");
		}
		if (json)
			json_file(&j, f, &res, use ? &ps : NULL);
		else
			text_file(out, f);
		px_cuda_results_free(&res);
		if (use)
			ptx_side_free(&ps);
		for (size_t k = 0; k < nregs; k++)
			free(names[k]);
		free(names);
		free(regs);
		px_cuda_file_delete(f);
	}
	if (json) {
		px_json_end_array(&j);
		px_json_end_object(&j);
		px_buf_puts(out, "\n");
	}
	return ok;
}
