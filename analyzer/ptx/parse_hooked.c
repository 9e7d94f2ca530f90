/* parse_hooked.c: px_ptx_parse_hooked over the whole-module parser: parse
 * everything, then hand each function with a body to the hook, in file
 * order. Same results as streaming, with every body in memory at once.
 * (Functions are handed over only when the module parsed without errors.) */
#include "../ir.h"

struct px_module *px_ptx_parse_hooked(const char *path, char *text, size_t len,
                                      struct px_diags *diags, const struct px_parse_hook *hook)
{
	size_t errors = diags->errors;
	struct px_module *m = px_ptx_parse(path, text, len, diags);
	if (!hook || !hook->function || diags->errors > errors)
		return m;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].has_body)
			hook->function(hook->ctx, m, i);
	return m;
}
