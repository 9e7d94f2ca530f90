/* cuda_report.c: `ptxray report FILE.cu`, the report of a CUDA source
 * file from the front end alone.
 *
 * Approach: parse and check each file (px_cuda_parse, px_cuda_check), then
 * render the INTERFACES.md "ptxray-report/1" document with "kind": "cuda":
 * per kernel its source line, the __launch_bounds__/__maxnreg__ cap, the
 * static shared bytes folded from the source, dynamic shared use, the
 * launch block the analyses assumed and where it came from, its launch
 * sites with their folded configurations, and the source-level accesses.
 * What only the PTX knows (registers, local bytes, param bytes) is null:
 * the nvcc bridge is not built yet. The findings go to diags (rendered by
 * main.c like every diagnostic); a note says once that the analyses ran
 * from the source only. */
#include <stdio.h>
#include <string.h>

#include "cuda_int.h"
#include "ir.h"
#include "report.h"

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

static void json_file(struct px_json *j, const struct px_cuda_file *f, const struct px_cuda_results *res)
{
	px_json_begin_object(j);
	px_json_key(j, "path");
	px_json_string(j, f->path);
	px_json_key(j, "kind");
	px_json_string(j, "cuda");
	px_json_key(j, "ptx_version");
	px_json_null(j);
	px_json_key(j, "target");
	px_json_null(j);
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
		px_json_begin_object(j);
		px_json_key(j, "name");
		px_json_string(j, fn->name);
		px_json_key(j, "demangled");
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
		px_json_null(j);
		px_json_key(j, "ptxas");
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
		px_json_null(j);
		px_json_key(j, "param_bytes");
		px_json_null(j);
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
		px_json_key(j, "accesses");
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
		px_json_key(j, "branches");
		px_json_begin_array(j);
		px_json_end_array(j);
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

bool px_cuda_report(const char *const *paths, size_t n, const struct px_cuda_options *opt, bool json,
                    struct px_buf *out, struct px_diags *diags)
{
	struct px_json j = {.out = out, .pretty = true};
	bool ok = true;
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
		struct px_cuda_results res = {0};
		px_cuda_check(f, opt, NULL, 0, &res);
		px_cuda_results_to_diags(f, &res, diags);
		if (i == 0)
			px_diag_add(diags, PX_NOTE, f->path, 0, 0, NULL,
			            "source analyses only: registers, local memory and PTX accesses need the nvcc "
			            "bridge, which is not available yet");
		if (json)
			json_file(&j, f, &res);
		else
			text_file(out, f);
		px_cuda_results_free(&res);
		px_cuda_file_delete(f);
	}
	if (json) {
		px_json_end_array(&j);
		px_json_end_object(&j);
		px_buf_puts(out, "\n");
	}
	return ok;
}
