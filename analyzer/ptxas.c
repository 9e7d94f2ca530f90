/* ptxas.c: runs `ptxas -v` on a PTX file (argv exec through posix_spawnp,
 * never a shell) and reads the per-kernel resource lines it prints.
 *
 * The lines used (ptxas 13.0; anything else is ignored, so newer wording
 * degrades to "no data", never to a wrong number):
 *   ptxas info    : Compiling entry function 'NAME' for 'sm_90'
 *   ptxas info    : Function properties for NAME
 *       N bytes stack frame, N bytes spill stores, N bytes spill loads
 *   ptxas info    : Used N registers, used N barriers, N bytes smem, ...
 * "Used" belongs to the entry named by the last "Compiling entry function";
 * the stack/spill line belongs to the last "Function properties for". */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report.h"

extern char **environ;

void px_ptxas_result_free(struct px_ptxas_result *res)
{
	for (size_t i = 0; i < res->n; i++)
		free(res->kernels[i].name);
	free(res->kernels);
	memset(res, 0, sizeof *res);
}

static struct px_ptxas_kernel *find_or_add(struct px_ptxas_result *res,
                                           const char *name, size_t n)
{
	for (size_t i = 0; i < res->n; i++)
		if (strlen(res->kernels[i].name) == n && memcmp(res->kernels[i].name, name, n) == 0)
			return &res->kernels[i];
	struct px_ptxas_kernel *k = PX_VEC_PUSH(res->kernels, res->n, res->cap);
	memset(k, 0, sizeof *k);
	k->name = xstrndup(name, n);
	return k;
}

const struct px_ptxas_kernel *px_ptxas_find(const struct px_ptxas_result *res, px_str name)
{
	for (size_t i = 0; i < res->n; i++)
		if (px_str_eqc(name, res->kernels[i].name))
			return &res->kernels[i];
	return NULL;
}

/* Finds "N <word>" in line: the number just before the first occurrence of
 * word. Returns false when absent. */
static bool number_before(const char *line, const char *end, const char *word, uint32_t *out)
{
	size_t wl = strlen(word);
	for (const char *p = line; p + wl <= end; p++) {
		if (memcmp(p, word, wl) != 0)
			continue;
		const char *q = p;
		while (q > line && q[-1] == ' ')
			q--;
		const char *d = q;
		while (d > line && d[-1] >= '0' && d[-1] <= '9')
			d--;
		if (d == q)
			continue;
		unsigned long long v = 0;
		for (const char *c = d; c < q; c++) {
			v = v * 10 + (unsigned)(*c - '0');
			if (v > 0xffffffffull)
				return false;
		}
		*out = (uint32_t)v;
		return true;
	}
	return false;
}

/* Copies the text between the first pair of quotes after key, or the rest
 * of the line after key when unquoted. */
static bool name_after(const char *line, const char *end, const char *key,
                       const char **name, size_t *n)
{
	size_t kl = strlen(key);
	for (const char *p = line; p + kl <= end; p++) {
		if (memcmp(p, key, kl) != 0)
			continue;
		const char *s = p + kl;
		if (s < end && *s == '\'') {
			const char *e = memchr(s + 1, '\'', (size_t)(end - s - 1));
			if (!e)
				return false;
			*name = s + 1;
			*n = (size_t)(e - s - 1);
		} else {
			const char *e = s;
			while (e < end && *e != ' ' && *e != '\r')
				e++;
			*name = s;
			*n = (size_t)(e - s);
		}
		return *n > 0;
	}
	return false;
}

/* Kernels are referred to by index while reading: find_or_add may move
 * the array. */
void px_ptxas_parse(const char *text, struct px_ptxas_result *res)
{
	size_t entry = SIZE_MAX, props = SIZE_MAX;
	const char *p = text;
	while (*p) {
		const char *end = strchr(p, '\n');
		if (!end)
			end = p + strlen(p);
		const char *name;
		size_t n;
		uint32_t v;
		if (name_after(p, end, "Compiling entry function ", &name, &n)) {
			entry = (size_t)(find_or_add(res, name, n) - res->kernels);
		} else if (name_after(p, end, "Function properties for ", &name, &n)) {
			/* non-entry functions have properties too; keep them apart */
			props = (size_t)(find_or_add(res, name, n) - res->kernels);
		} else if (props != SIZE_MAX && number_before(p, end, "bytes stack frame", &v)) {
			struct px_ptxas_kernel *k = &res->kernels[props];
			k->have_frame = true;
			k->stack_bytes = v;
			if (number_before(p, end, "bytes spill stores", &v))
				k->spill_store_bytes = v;
			if (number_before(p, end, "bytes spill loads", &v))
				k->spill_load_bytes = v;
			props = SIZE_MAX;
		} else if (entry != SIZE_MAX && number_before(p, end, "registers", &v)) {
			struct px_ptxas_kernel *k = &res->kernels[entry];
			k->have_regs = true;
			k->registers = v;
			if (number_before(p, end, "barriers", &v))
				k->barriers = v;
			if (number_before(p, end, "bytes smem", &v))
				k->smem_bytes = v;
			entry = SIZE_MAX;
		}
		p = *end ? end + 1 : end;
	}
}

bool px_ptxas_run(const char *ptxas, const char *path, const char *arch,
                  struct px_ptxas_result *res, char **err)
{
	int fds[2];
	if (pipe(fds) != 0) {
		*err = xasprintf("cannot create a pipe: %s", strerror(errno));
		return false;
	}
	char *archarg = xasprintf("-arch=%s", arch);
	char *argv[] = {(char *)ptxas, "-v", archarg, (char *)path, "-o", "/dev/null", NULL};
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	pid_t pid;
	int rc = posix_spawnp(&pid, ptxas, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(archarg);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		*err = xasprintf("cannot run '%s': %s", ptxas, strerror(rc));
		return false;
	}
	struct px_buf out = {0};
	char chunk[8192];
	for (;;) {
		ssize_t got = read(fds[0], chunk, sizeof chunk);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		px_buf_printf(&out, "%.*s", (int)got, chunk);
	}
	close(fds[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		/* the first line ptxas printed says why */
		const char *msg = out.p ? out.p : "";
		const char *nl = strchr(msg, '\n');
		*err = xasprintf("'%s' failed on %s for %s: %.*s", ptxas, path, arch,
		                 (int)(nl ? (size_t)(nl - msg) : strlen(msg)), msg);
		px_buf_free(&out);
		return false;
	}
	px_ptxas_parse(out.p ? out.p : "", res);
	px_buf_free(&out);
	return true;
}
