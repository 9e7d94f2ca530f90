/* api.c: the public API of include/ptxray.h over the internal report. */
#include <string.h>

#include "ptxray.h"
#include "report.h"

struct ptxray_report {
	struct px_file_report rep;
	char *path;
	char **names;   /* NUL-terminated kernel names, made on demand */
};

/* Renders diagnostics plainly (no colour, no source line) into a string. */
static char *diags_text(struct px_diags *d)
{
	if (d->n == 0)
		return NULL;
	struct px_buf b = {0};
	px_diags_sort(d);
	for (size_t i = 0; i < d->n; i++) {
		const struct px_diag *g = &d->items[i];
		px_buf_printf(&b, "%s:%u:%u: %s: %s\n", g->file, g->line, g->column ? g->column : 1,
		              px_severity_name(g->severity), g->message);
	}
	return b.p;
}

ptxray_report *ptxray_report_new(const char *path, const char *text, size_t len,
                                 const ptxray_report_options *options, char **errors)
{
	struct px_report_options opt = {0};
	if (options) {
		memcpy(opt.block, options->block, sizeof opt.block);
		memcpy(opt.grid, options->grid, sizeof opt.grid);
		opt.arch = options->arch;
		opt.ptxas = options->ptxas;
	}
	ptxray_report *r = xcalloc(1, sizeof *r);
	r->path = xstrdup(path ? path : "<input>");
	char *copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = 0;
	struct px_diags diags = {0};
	bool ok = px_report_file(r->path, copy, len, &opt, &r->rep, &diags);
	if (errors)
		*errors = diags_text(&diags);
	px_diags_free(&diags);
	if (!ok) {
		ptxray_report_delete(r);
		return NULL;
	}
	return r;
}

void ptxray_report_delete(ptxray_report *self)
{
	if (!self)
		return;
	if (self->names)
		for (size_t i = 0; i < self->rep.nkernels; i++)
			free(self->names[i]);
	free(self->names);
	if (self->rep.module)
		px_file_report_free(&self->rep);
	free(self->path);
	free(self);
}

size_t ptxray_report_kernel_count(const ptxray_report *self)
{
	return self->rep.nkernels;
}

const char *ptxray_report_kernel_name(const ptxray_report *self, size_t i)
{
	if (i >= self->rep.nkernels)
		return NULL;
	ptxray_report *r = (ptxray_report *)self;  /* names are a lazily made cache */
	if (!r->names)
		r->names = xcalloc(r->rep.nkernels, sizeof *r->names);
	if (!r->names[i]) {
		px_str n = r->rep.kernels[i].func->name;
		r->names[i] = xstrndup(n.p, n.n);
	}
	return r->names[i];
}

char *ptxray_report_json(const ptxray_report *self)
{
	struct px_buf b = {0};
	px_report_json(&b, &self->rep, 1);
	return b.p;
}
