/* compat_render.c: writes `ptxray compat` results as text and as the JSON
 * of INTERFACES.md (schema ptxray-compat/1), and the feature table itself
 * for --list-features.
 *
 * Approach: straight-line writers over px_buf and px_json; everything is in
 * the order of the input (files as given, kernels as in the PTX, targets as
 * requested), so the output is deterministic. */
#include <string.h>

#include "compat.h"
#include "report.h"   /* px_json */

static const char *tname(const struct px_ftable *tab, int32_t t)
{
	return t >= 0 ? tab->targets[t].name : NULL;
}

static const char *taken_word(int8_t t)
{
	return t > 0 ? "taken" : t == 0 ? "not taken" : "unknown (another macro decides)";
}

/* A CUDA source's header: per target, the PTX nvcc wrote and the
 * __CUDA_ARCH__ branches taken. */
static void cuda_text(struct px_buf *out, const struct px_ftable *tab,
                      const struct px_compat_options *opt, const struct px_compat_file *f)
{
	char vb[8];
	px_buf_printf(out, "%s: CUDA source, compiled by nvcc once per target\n", f->path);
	for (uint32_t t = 0; t < opt->ntargets; t++) {
		const struct px_compat_cuda_target *ct = &f->cuda->targets[t];
		const char *name = tab->targets[opt->targets[t]].name;
		if (!ct->ptx) {
			px_buf_printf(out, "  %s: nvcc failed\n", name);
		} else {
			px_buf_printf(out, "  %s: %s (.target " PX_STR_FMT ", .version %s%s)\n", name, ct->ptx,
			              PX_STR_ARG(ct->res.declared),
			              ct->res.ptx_version ? px_ptx_version_str(ct->res.ptx_version, vb) : "(none)",
			              ct->cached ? ", cached" : "");
		}
		for (uint32_t b = 0; b < ct->nbranches; b++)
			px_buf_printf(out, "    line %u: %s: %s\n", ct->branches[b].line, ct->branches[b].directive,
			              taken_word(ct->branches[b].taken));
	}
}

static void cuda_json(struct px_json *j, const struct px_ftable *tab,
                      const struct px_compat_options *opt, const struct px_compat_file *f)
{
	char vb[8];
	px_json_key(j, "cuda");
	px_json_begin_object(j);
	px_json_key(j, "compiled");
	px_json_uint(j, f->cuda->compiled);
	px_json_key(j, "cached");
	px_json_uint(j, f->cuda->cached);
	px_json_key(j, "failed");
	px_json_uint(j, f->cuda->failed);
	px_json_key(j, "targets");
	px_json_begin_object(j);
	for (uint32_t t = 0; t < opt->ntargets; t++) {
		const struct px_compat_cuda_target *ct = &f->cuda->targets[t];
		px_json_key(j, tab->targets[opt->targets[t]].name);
		px_json_begin_object(j);
		px_json_key(j, "ptx");
		if (ct->ptx)
			px_json_string(j, ct->ptx);
		else
			px_json_null(j);
		px_json_key(j, "declared_target");
		if (ct->ptx && ct->res.declared.n)
			px_json_string_n(j, ct->res.declared.p, ct->res.declared.n);
		else
			px_json_null(j);
		px_json_key(j, "ptx_version");
		if (ct->ptx && ct->res.ptx_version)
			px_json_string(j, px_ptx_version_str(ct->res.ptx_version, vb));
		else
			px_json_null(j);
		px_json_key(j, "consistent");
		px_json_bool(j, ct->ptx && ct->res.consistent);
		px_json_key(j, "branches");
		px_json_begin_array(j);
		for (uint32_t b = 0; b < ct->nbranches; b++) {
			px_json_begin_object(j);
			px_json_key(j, "line");
			px_json_uint(j, ct->branches[b].line);
			px_json_key(j, "directive");
			px_json_string(j, ct->branches[b].directive);
			px_json_key(j, "taken");
			if (ct->branches[b].taken < 0)
				px_json_null(j);
			else
				px_json_bool(j, ct->branches[b].taken > 0);
			px_json_end_object(j);
		}
		px_json_end_array(j);
		px_json_end_object(j);
	}
	px_json_end_object(j);
	px_json_end_object(j);
}

void px_compat_text(struct px_buf *out, const struct px_ftable *tab,
                    const struct px_compat_options *opt, const struct px_compat_file *files,
                    size_t n)
{
	char vb[8];
	for (size_t i = 0; i < n; i++) {
		const struct px_compat_file *f = &files[i];
		if (!f->module && !f->cuda)
			continue;
		if (f->cuda)
			cuda_text(out, tab, opt, f);
		else
			px_buf_printf(out, "%s: .target " PX_STR_FMT "%s, .version %s\n", f->path,
		              PX_STR_ARG(f->declared), f->declared.n ? "" : "(none)",
		              f->ptx_version ? px_ptx_version_str(f->ptx_version, vb) : "(none)");
		if (f->min_target >= 0)
			px_buf_printf(out, "  needs %s and PTX ISA %s\n", tname(tab, f->min_target),
			              px_ptx_version_str(f->min_ptx, vb));
		else
			px_buf_printf(out, "  no target of the feature table runs all of it\n");
		if (f->consistent)
			px_buf_printf(out, "  consistent: its .target and .version allow what it uses\n");
		else
			px_buf_printf(out, "  not consistent: %s\n", f->reason ? f->reason : "?");
		for (uint32_t k = 0; k < f->nkernels; k++) {
			const struct px_compat_kernel *kk = &f->kernels[k];
			px_buf_printf(out, "  kernel " PX_STR_FMT " (line %u): ", PX_STR_ARG(kk->name), kk->line);
			if (kk->min_target >= 0)
				px_buf_printf(out, "needs %s, PTX ISA %s\n", tname(tab, kk->min_target),
				              px_ptx_version_str(kk->min_ptx, vb));
			else
				px_buf_printf(out, "no target runs it\n");
			for (uint32_t t = 0; t < opt->ntargets; t++) {
				const struct px_compat_verdict *v = &kk->verdicts[t];
				const char *name = tab->targets[v->target].name;
				if (v->ok) {
					px_buf_printf(out, "    %-8s runs\n", name);
				} else if (f->cuda) {
					const char *ptx = f->cuda->targets[t].ptx;
					px_buf_printf(out, "    %-8s no: %s:%u: %s", name, f->path, v->use ? v->use->line : 0,
					              v->message);
					if (ptx && v->ptx_line)
						px_buf_printf(out, " (PTX %s:%u)", ptx, v->ptx_line);
					px_buf_printf(out, "\n");
				} else if (v->use) {
					px_buf_printf(out, "    %-8s no: %s:%u:%u: %s\n", name, f->path, v->use->line,
					              v->use->col, v->message);
				} else {
					px_buf_printf(out, "    %-8s no: %s:%u: %s\n", name, f->path, f->version_line,
					              v->message);
				}
			}
		}
	}
}

void px_compat_json(struct px_buf *out, const struct px_ftable *tab,
                    const struct px_compat_options *opt, const struct px_compat_file *files,
                    size_t n)
{
	struct px_json j = {.out = out};
	char vb[8];
	px_json_begin_object(&j);
	px_json_key(&j, "schema");
	px_json_string(&j, "ptxray-compat/1");
	px_json_key(&j, "any_version");
	px_json_bool(&j, opt->any_version);
	px_json_key(&j, "files");
	px_json_begin_array(&j);
	for (size_t i = 0; i < n; i++) {
		const struct px_compat_file *f = &files[i];
		if (!f->module && !f->cuda)
			continue;
		px_json_begin_object(&j);
		px_json_key(&j, "path");
		px_json_string(&j, f->path);
		if (f->cuda)
			cuda_json(&j, tab, opt, f);
		px_json_key(&j, "declared_target");
		if (f->declared.n)
			px_json_string_n(&j, f->declared.p, f->declared.n);
		else
			px_json_null(&j);
		px_json_key(&j, "ptx_version");
		if (f->ptx_version)
			px_json_string(&j, px_ptx_version_str(f->ptx_version, vb));
		else
			px_json_null(&j);
		px_json_key(&j, "min_target");
		if (f->min_target >= 0)
			px_json_string(&j, tname(tab, f->min_target));
		else
			px_json_null(&j);
		px_json_key(&j, "min_ptx_version");
		if (f->min_target >= 0)
			px_json_string(&j, px_ptx_version_str(f->min_ptx, vb));
		else
			px_json_null(&j);
		px_json_key(&j, "consistent");
		px_json_bool(&j, f->consistent);
		px_json_key(&j, "reason");
		if (f->reason)
			px_json_string(&j, f->reason);
		else
			px_json_null(&j);
		px_json_key(&j, "kernels");
		px_json_begin_array(&j);
		for (uint32_t k = 0; k < f->nkernels; k++) {
			const struct px_compat_kernel *kk = &f->kernels[k];
			px_json_begin_object(&j);
			px_json_key(&j, "name");
			px_json_string_n(&j, kk->name.p, kk->name.n);
			px_json_key(&j, "line");
			px_json_uint(&j, kk->line);
			px_json_key(&j, "min_target");
			if (kk->min_target >= 0)
				px_json_string(&j, tname(tab, kk->min_target));
			else
				px_json_null(&j);
			px_json_key(&j, "min_ptx_version");
			if (kk->min_target >= 0)
				px_json_string(&j, px_ptx_version_str(kk->min_ptx, vb));
			else
				px_json_null(&j);
			px_json_key(&j, "targets");
			px_json_begin_object(&j);
			for (uint32_t t = 0; t < opt->ntargets; t++) {
				const struct px_compat_verdict *v = &kk->verdicts[t];
				px_json_key(&j, tab->targets[v->target].name);
				px_json_begin_object(&j);
				px_json_key(&j, "ok");
				px_json_bool(&j, v->ok);
				if (!v->ok) {
					px_json_key(&j, "line");
					px_json_uint(&j, v->use ? v->use->line : f->version_line);
					px_json_key(&j, "column");
					px_json_uint(&j, v->use ? v->use->col : 1);
					if (f->cuda) {
						px_json_key(&j, "ptx_line");
						px_json_uint(&j, v->ptx_line);
					}
					px_json_key(&j, "instruction");
					if (v->use)
						px_json_string(&j, v->use->text);
					else
						px_json_string(&j, ".version");
					px_json_key(&j, "feature");
					if (v->use)
						px_json_string(&j, tab->features[v->use->feature].id);
					else
						px_json_null(&j);
					px_json_key(&j, "requires");
					px_json_string(&j, v->requires);
					px_json_key(&j, "message");
					px_json_string(&j, v->message);
				}
				px_json_end_object(&j);
			}
			px_json_end_object(&j);
			px_json_end_object(&j);
		}
		px_json_end_array(&j);
		px_json_end_object(&j);
	}
	px_json_end_array(&j);
	px_json_end_object(&j);
	px_buf_puts(out, "\n");
}

static const char *kind_name(uint8_t k)
{
	static const char *const names[] = {"instruction", "special register", "directive",
	                                    "target option"};
	return k < PX_COUNTOF(names) ? names[k] : "?";
}

void px_ftable_text(struct px_buf *out, const struct px_ftable *tab)
{
	char vb[8];
	px_buf_printf(out, "targets (%u):", tab->ntargets);
	for (uint32_t i = 0; i < tab->ntargets; i++)
		px_buf_printf(out, " %s", tab->targets[i].name);
	px_buf_printf(out, "\nPTX ISA versions (%u):", tab->nversions);
	for (uint32_t i = 0; i < tab->nversions; i++)
		px_buf_printf(out, " %s", px_ptx_version_str(tab->versions[i].ptx, vb));
	px_buf_printf(out, "\nfeatures (%u):\n", tab->nfeatures);
	for (uint32_t i = 0; i < tab->nfeatures; i++) {
		const struct px_feature *f = &tab->features[i];
		char req[160];
		px_feature_requires(tab, f, req, sizeof req);
		px_buf_printf(out, "  %-44s %-28s PTX %s  %s  [%s]\n", f->id, req,
		              px_ptx_version_str(f->ptx, vb), kind_name(f->kind), f->section);
	}
}

static void str_or_null(struct px_json *j, const char *key, const char *s)
{
	px_json_key(j, key);
	if (s)
		px_json_string(j, s);
	else
		px_json_null(j);
}

void px_ftable_json(struct px_buf *out, const struct px_ftable *tab)
{
	struct px_json j = {.out = out};
	char vb[8];
	px_json_begin_object(&j);
	px_json_key(&j, "schema");
	px_json_string(&j, "ptxray-features/1");
	px_json_key(&j, "targets");
	px_json_begin_array(&j);
	for (uint32_t i = 0; i < tab->ntargets; i++) {
		const struct px_ft_target *t = &tab->targets[i];
		px_json_begin_object(&j);
		px_json_key(&j, "name");
		px_json_string(&j, t->name);
		px_json_key(&j, "ptx");
		px_json_string(&j, px_ptx_version_str(t->ptx, vb));
		px_json_key(&j, "ptxas");
		px_json_bool(&j, t->ptxas);
		px_json_end_object(&j);
	}
	px_json_end_array(&j);
	px_json_key(&j, "versions");
	px_json_begin_array(&j);
	for (uint32_t i = 0; i < tab->nversions; i++) {
		const struct px_ft_version *v = &tab->versions[i];
		px_json_begin_object(&j);
		px_json_key(&j, "ptx");
		px_json_string(&j, px_ptx_version_str(v->ptx, vb));
		px_json_key(&j, "cuda");
		px_json_string(&j, v->cuda);
		px_json_key(&j, "newest_target");
		px_json_string(&j, v->newest);
		px_json_end_object(&j);
	}
	px_json_end_array(&j);
	px_json_key(&j, "features");
	px_json_begin_array(&j);
	for (uint32_t i = 0; i < tab->nfeatures; i++) {
		const struct px_feature *f = &tab->features[i];
		px_json_begin_object(&j);
		px_json_key(&j, "id");
		px_json_string(&j, f->id);
		px_json_key(&j, "kind");
		px_json_string(&j, kind_name(f->kind));
		px_json_key(&j, "match");
		px_json_string(&j, f->match);
		px_json_key(&j, "ptx");
		px_json_string(&j, px_ptx_version_str(f->ptx, vb));
		/* per target: the PTX version it needs there, or null */
		px_json_key(&j, "on");
		px_json_begin_object(&j);
		for (uint32_t t = 0; t < tab->ntargets; t++) {
			uint32_t need = px_feature_ptx_on(tab, f, t);
			px_json_key(&j, tab->targets[t].name);
			if (need)
				px_json_string(&j, px_ptx_version_str(need, vb));
			else
				px_json_null(&j);
		}
		px_json_end_object(&j);
		px_json_key(&j, "removed");
		if (f->removed_target) {
			char b2[8];
			char *s = xasprintf("%s@%s", tab->targets[f->removed_target - 1].name,
			                    px_ptx_version_str(f->removed_ptx, b2));
			px_json_string(&j, s);
			free(s);
		} else {
			px_json_null(&j);
		}
		px_json_key(&j, "section");
		px_json_string(&j, f->section);
		str_or_null(&j, "hint", f->hint);
		str_or_null(&j, "probe", f->probe);
		str_or_null(&j, "decl", f->decl);
		str_or_null(&j, "kdir", f->kdir);
		str_or_null(&j, "topt", f->topt);
		px_json_key(&j, "line");
		px_json_uint(&j, f->line);
		px_json_end_object(&j);
	}
	px_json_end_array(&j);
	px_json_end_object(&j);
	px_buf_puts(out, "\n");
}
