/* demangle.c: C++ names for kernels, through libiberty's cplus_demangle
 * (Itanium ABI, which nvcc uses for device code). */
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "report.h"

char *px_demangle(px_str name)
{
	if (name.n < 3 || name.p[0] != '_' || name.p[1] != 'Z')
		return NULL;
	char *tmp = xstrndup(name.p, name.n);
	char *d = cplus_demangle(tmp, DMGL_PARAMS | DMGL_ANSI | DMGL_TYPES);
	free(tmp);
	if (!d)
		return NULL;
	/* libiberty allocates with malloc; hand back an xmalloc'd copy so the
	 * caller's free() contract is the project's own */
	char *out = xstrdup(d);
	free(d);
	return out;
}
