/* cuda_nvcc.c: the nvcc bridge: from a .cu file to PTX (nvcc -ptx -lineinfo
 * -arch=T), cached, with the file's own flags from compile_commands.json.
 *
 * Approach.
 *  - nvcc is found at --nvcc PATH, else $CUDA_HOME/bin/nvcc, else on $PATH
 *    (px_cuda_find_nvcc); without it the caller runs the source analyses
 *    alone.
 *  - compile_commands.json (-p BUILD_DIR) is read by a small JSON reader
 *    (px_cuda_compile_db_flags): the entry whose "file" (against its
 *    "directory") is the file; from its "arguments" (or its "command",
 *    split like a shell splits words) we keep -I/-isystem (made absolute
 *    against "directory"), -D/-U, -std and --std, and record the targets of
 *    -arch/-gencode/--generate-code (sm_XX/compute_XX) apart: the bridge
 *    compiles one PTX per target with its own -arch.
 *  - The cache key is a 128-bit hash (two FNV-1a 64 streams) of: a format
 *    tag, nvcc's path, size and mtime, the target, every flag, the source
 *    text, and every file reached through `#include "..."` (recursively,
 *    searched next to the including file, then in the -I folders) with
 *    its path and contents. System headers (<...>) are the toolkit's and
 *    change with nvcc, whose identity is hashed. The PTX lives in
 *    CACHE_DIR/KEY.ptx, written to a temporary name and renamed, so an
 *    unchanged file is never recompiled and an interrupted run leaves no
 *    half file.
 *  - nvcc runs through posix_spawn with an argument vector (never a shell),
 *    standard input /dev/null, its output collected through a pipe, under
 *    a time limit (the child is killed past it). On failure its own
 *    messages become diagnostics: `FILE(LINE): error: MSG` lines at
 *    FILE:LINE, anything else in one note. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuda_int.h"
#include "ir.h"

extern char **environ;

/* ---- finding nvcc ---- */

static bool executable(const char *p)
{
	struct stat st;
	return p && stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

char *px_cuda_find_nvcc(const char *given)
{
	if (given)
		return executable(given) ? xstrdup(given) : NULL;
	const char *home = getenv("CUDA_HOME");
	if (home && *home) {
		char *p = xasprintf("%s/bin/nvcc", home);
		if (executable(p))
			return p;
		free(p);
	}
	const char *path = getenv("PATH");
	while (path && *path) {
		size_t n = strcspn(path, ":");
		char *p = xasprintf("%.*s/nvcc", (int)n, n ? path : ".");
		if (executable(p))
			return p;
		free(p);
		path += n + (path[n] == ':');
	}
	return NULL;
}

char *px_cuda_cache_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME");
	if (x && *x)
		return xasprintf("%s/ptxray", x);
	return xstrdup(".ptxray-cache");
}

/* ---- compile_commands.json ----
 * The subset of JSON it needs, with located errors:
 *   value  := object | array | string | number | 'true' | 'false' | 'null'
 *   object := '{' [string ':' value {',' string ':' value}] '}'
 *   array  := '[' [value {',' value}] ']'
 *   string := '"' {char | '\' escape} '"'   (\uXXXX kept as '?' when not ASCII)
 * The document is an array of objects; of each object we read the string
 * members "directory", "file", "command" and the string array "arguments". */
struct jr {
	const char *s, *p, *end;
	const char *path;
	bool bad;
	struct px_diags *diags;
};

static void jr_err(struct jr *r, const char *what)
{
	if (r->bad)
		return;
	r->bad = true;
	uint32_t line = 1, col = 1;
	for (const char *q = r->s; q < r->p && q < r->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	px_diag_add(r->diags, PX_ERROR, r->path, line, col, NULL, "%s", what);
}

static void jr_ws(struct jr *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

/* A string at r->p; returns it xmalloc'd (NULL on error). */
static char *jr_string(struct jr *r)
{
	jr_ws(r);
	if (r->p >= r->end || *r->p != '"') {
		jr_err(r, "compile_commands.json: expected a string");
		return NULL;
	}
	r->p++;
	struct px_buf b = {0};
	px_buf_puts(&b, "");
	while (r->p < r->end && *r->p != '"') {
		char c = *r->p++;
		if (c == '\\') {
			if (r->p >= r->end)
				break;
			char e = *r->p++;
			static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
			const char *k = strchr(from, e);
			if (e == 'u') {
				unsigned v = 0;
				for (int i = 0; i < 4; i++, r->p++) {
					char h = r->p < r->end ? *r->p : 'x';
					int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
					      : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
					if (d < 0) {
						jr_err(r, "compile_commands.json: bad \\u escape");
						px_buf_free(&b);
						return NULL;
					}
					v = v * 16 + (unsigned)d;
				}
				c = v > 0 && v < 128 ? (char)v : '?';
			} else if (k && e) {
				c = to[k - from];
			} else {
				jr_err(r, "compile_commands.json: bad escape in a string");
				px_buf_free(&b);
				return NULL;
			}
		}
		px_buf_putn(&b, &c, 1);
	}
	if (r->p >= r->end) {
		jr_err(r, "compile_commands.json: unterminated string");
		px_buf_free(&b);
		return NULL;
	}
	r->p++;
	return b.p;
}

/* Skips any value (depth-limited). */
static void jr_skip(struct jr *r, int depth)
{
	jr_ws(r);
	if (r->bad || r->p >= r->end || depth > 64) {
		jr_err(r, "compile_commands.json: expected a value");
		return;
	}
	char c = *r->p;
	if (c == '"') {
		free(jr_string(r));
	} else if (c == '{' || c == '[') {
		char close = c == '{' ? '}' : ']';
		r->p++;
		jr_ws(r);
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return;
		}
		for (;;) {
			if (c == '{') {
				free(jr_string(r));
				jr_ws(r);
				if (r->p >= r->end || *r->p != ':') {
					jr_err(r, "compile_commands.json: expected ':'");
					return;
				}
				r->p++;
			}
			jr_skip(r, depth + 1);
			jr_ws(r);
			if (r->bad)
				return;
			if (r->p < r->end && *r->p == ',') {
				r->p++;
				continue;
			}
			if (r->p < r->end && *r->p == close) {
				r->p++;
				return;
			}
			jr_err(r, "compile_commands.json: expected ',' or a closing bracket");
			return;
		}
	} else {
		const char *s = r->p;
		while (r->p < r->end && (strchr("+-.eE", *r->p) || (*r->p >= '0' && *r->p <= '9') ||
		                         (*r->p >= 'a' && *r->p <= 'z')))
			r->p++;
		size_t n = (size_t)(r->p - s);
		bool num = n && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'));
		if (!num && !(n == 4 && !memcmp(s, "true", 4)) && !(n == 5 && !memcmp(s, "false", 5)) &&
		    !(n == 4 && !memcmp(s, "null", 4))) {
			r->p = s;
			jr_err(r, "compile_commands.json: expected a value");
		}
	}
}

/* Splits a command line into words the way a POSIX shell does for plain
 * words, '...' and "..." quoting and backslash escapes (no expansion). */
static void split_command(const char *s, char ***words, size_t *n)
{
	size_t cap = 0;
	while (*s) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		struct px_buf b = {0};
		px_buf_puts(&b, "");
		while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
			if (*s == '\'') {
				for (s++; *s && *s != '\''; s++)
					px_buf_putn(&b, s, 1);
				if (*s)
					s++;
			} else if (*s == '"') {
				for (s++; *s && *s != '"'; s++) {
					if (*s == '\\' && s[1])
						s++;
					px_buf_putn(&b, s, 1);
				}
				if (*s)
					s++;
			} else {
				if (*s == '\\' && s[1])
					s++;
				px_buf_putn(&b, s, 1);
				s++;
			}
		}
		*PX_VEC_PUSH(*words, *n, cap) = b.p;
	}
}

static char *absolute(const char *dir, const char *p)
{
	if (p[0] == '/' || !dir || !*dir)
		return xstrdup(p);
	return xasprintf("%s/%s", dir, p);
}

/* The target of an -arch/-gencode value: the sm_XX or compute_XX words
 * (code=sm_90 preferred over arch=compute_90); NULL when none. */
static char *target_of(const char *v)
{
	const char *best = NULL;
	size_t bn = 0;
	for (const char *q = v; *q; q++) {
		bool sm = !strncmp(q, "sm_", 3), cm = !strncmp(q, "compute_", 8);
		if (!sm && !cm)
			continue;
		const char *d = q + (sm ? 3 : 8);
		size_t n = strspn(d, "0123456789abf");
		if (!n)
			continue;
		if (!best || sm) {
			best = d;
			bn = n;
		}
	}
	return best ? xasprintf("sm_%.*s", (int)bn, best) : NULL;
}

static void keep_flags(char **w, size_t nw, const char *dir, struct px_cuda_flags *out)
{
	size_t cap = 0, acap = 0;
	for (size_t i = 1; i < nw; i++) {   /* w[0]: the compiler */
		const char *a = w[i];
		const char *v = NULL;
		bool two = false;
		if (!strcmp(a, "-I") || !strcmp(a, "-isystem") || !strcmp(a, "-D") || !strcmp(a, "-U") ||
		    !strcmp(a, "-arch") || !strcmp(a, "-gencode") || !strcmp(a, "--generate-code") ||
		    !strcmp(a, "--gpu-architecture") || !strcmp(a, "-std") || !strcmp(a, "--std") ||
		    !strcmp(a, "--include-path") || !strcmp(a, "--define-macro")) {
			if (i + 1 >= nw)
				break;
			v = w[++i];
			two = true;
		}
		char name[32];
		if (two) {
			snprintf(name, sizeof name, "%s", a);
		} else {
			size_t n = strcspn(a, "=");
			if (!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2) || !strncmp(a, "-U", 2)) {
				snprintf(name, sizeof name, "%.2s", a);
				v = a + 2;
			} else if (a[n] == '=' && n < sizeof name) {
				snprintf(name, sizeof name, "%.*s", (int)n, a);
				v = a + n + 1;
			} else {
				continue;
			}
		}
		if (!strcmp(name, "-arch") || !strcmp(name, "-gencode") || !strcmp(name, "--generate-code") ||
		    !strcmp(name, "--gpu-architecture")) {
			char *t = target_of(v);
			if (t) {
				bool dup = false;
				for (size_t k = 0; k < out->narchs; k++)
					dup |= !strcmp(out->archs[k], t);
				if (dup)
					free(t);
				else
					*PX_VEC_PUSH(out->archs, out->narchs, acap) = t;
			}
		} else if (!strcmp(name, "-I") || !strcmp(name, "-isystem") || !strcmp(name, "--include-path")) {
			char *abs = absolute(dir, v);
			*PX_VEC_PUSH(out->flags, out->nflags, cap) = xasprintf("%s%s", !strcmp(name, "-isystem") ? "-isystem=" : "-I", abs);
			free(abs);
		} else if (!strcmp(name, "-D") || !strcmp(name, "--define-macro")) {
			*PX_VEC_PUSH(out->flags, out->nflags, cap) = xasprintf("-D%s", v);
		} else if (!strcmp(name, "-U")) {
			*PX_VEC_PUSH(out->flags, out->nflags, cap) = xasprintf("-U%s", v);
		} else if (!strcmp(name, "-std") || !strcmp(name, "--std")) {
			*PX_VEC_PUSH(out->flags, out->nflags, cap) = xasprintf("-std=%s", v);
		}
	}
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	return strcmp(a, b) == 0;
}

bool px_cuda_compile_db_parse(const char *dbpath, const char *text, size_t len, const char *file,
                              struct px_cuda_flags *out, struct px_diags *diags)
{
	struct jr r = {text, text, text + len, dbpath, false, diags};
	jr_ws(&r);
	if (r.p >= r.end || *r.p != '[') {
		jr_err(&r, "compile_commands.json: expected an array of entries");
		return false;
	}
	r.p++;
	jr_ws(&r);
	bool found = false;
	if (r.p < r.end && *r.p == ']')
		return true;
	while (!r.bad) {
		jr_ws(&r);
		if (r.p >= r.end || *r.p != '{') {
			jr_err(&r, "compile_commands.json: expected an entry (an object)");
			break;
		}
		r.p++;
		char *dir = NULL, *fname = NULL, *command = NULL;
		char **args = NULL;
		size_t nargs = 0, capargs = 0;
		bool have_args = false;
		jr_ws(&r);
		if (r.p < r.end && *r.p == '}')
			r.p++;
		else
			for (;;) {
				char *key = jr_string(&r);
				jr_ws(&r);
				if (!key || r.p >= r.end || *r.p != ':') {
					free(key);
					jr_err(&r, "compile_commands.json: expected ':'");
					break;
				}
				r.p++;
				jr_ws(&r);
				if (!strcmp(key, "directory") || !strcmp(key, "file") || !strcmp(key, "command")) {
					char *v = jr_string(&r);
					char **dst = key[0] == 'd' ? &dir : key[0] == 'f' ? &fname : &command;
					free(*dst);
					*dst = v;
				} else if (!strcmp(key, "arguments") && r.p < r.end && *r.p == '[') {
					r.p++;
					have_args = true;
					jr_ws(&r);
					if (r.p < r.end && *r.p == ']')
						r.p++;
					else
						for (;;) {
							char *v = jr_string(&r);
							if (!v)
								break;
							*PX_VEC_PUSH(args, nargs, capargs) = v;
							jr_ws(&r);
							if (r.p < r.end && *r.p == ',') {
								r.p++;
								continue;
							}
							if (r.p < r.end && *r.p == ']') {
								r.p++;
								break;
							}
							jr_err(&r, "compile_commands.json: expected ',' or ']'");
							break;
						}
				} else {
					jr_skip(&r, 0);
				}
				free(key);
				jr_ws(&r);
				if (r.bad)
					break;
				if (r.p < r.end && *r.p == ',') {
					r.p++;
					continue;
				}
				if (r.p < r.end && *r.p == '}') {
					r.p++;
					break;
				}
				jr_err(&r, "compile_commands.json: expected ',' or '}'");
				break;
			}
		if (!r.bad && !found && fname) {
			char *abs = absolute(dir, fname);
			if (same_file(abs, file)) {
				found = true;
				if (!have_args && command)
					split_command(command, &args, &nargs);
				keep_flags(args, nargs, dir, out);
			}
			free(abs);
		}
		for (size_t i = 0; i < nargs; i++)
			free(args[i]);
		free(args);
		free(dir);
		free(fname);
		free(command);
		jr_ws(&r);
		if (r.bad)
			break;
		if (r.p < r.end && *r.p == ',') {
			r.p++;
			continue;
		}
		if (r.p < r.end && *r.p == ']') {
			r.p++;
			break;
		}
		jr_err(&r, "compile_commands.json: expected ',' or ']'");
	}
	return !r.bad;
}

bool px_cuda_compile_db_flags(const char *build_dir, const char *file, struct px_cuda_flags *out,
                              struct px_diags *diags)
{
	char *db = xasprintf("%s/compile_commands.json", build_dir);
	size_t len;
	char *err = NULL;
	char *text = px_read_file(db, &len, &err);
	if (!text) {
		px_diag_add(diags, PX_ERROR, db, 0, 0, NULL, "cannot read: %s", err);
		free(err);
		free(db);
		return false;
	}
	bool ok = px_cuda_compile_db_parse(db, text, len, file, out, diags);
	free(text);
	free(db);
	return ok;
}

void px_cuda_flags_free(struct px_cuda_flags *f)
{
	for (size_t i = 0; i < f->nflags; i++)
		free(f->flags[i]);
	for (size_t i = 0; i < f->narchs; i++)
		free(f->archs[i]);
	free(f->flags);
	free(f->archs);
	memset(f, 0, sizeof *f);
}

/* ---- the cache key ---- */

struct hash {
	uint64_t a, b;
};

static void hash_add(struct hash *h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++) {
		h->a = (h->a ^ s[i]) * 0x100000001b3ull;
		h->b = (h->b ^ s[i]) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
	}
	h->a ^= n;   /* length-delimited */
	h->b = (h->b ^ n) * 0x100000001b3ull;
}

static void hash_str(struct hash *h, const char *s)
{
	hash_add(h, s, strlen(s) + 1);
}

/* Hashes the files text reaches through #include "..." (depth-limited;
 * seen[] avoids cycles). */
static void hash_includes(struct hash *h, const char *dir, const char *text, size_t len,
                          const struct px_cuda_flags *fl, char ***seen, size_t *nseen, size_t *capseen, int depth)
{
	if (depth > 16)
		return;
	for (size_t i = 0; i < len; i++) {
		if (text[i] != '#' || (i && text[i - 1] != '\n' && text[i - 1] != ' ' && text[i - 1] != '\t'))
			continue;
		size_t k = i + 1;
		while (k < len && (text[k] == ' ' || text[k] == '\t'))
			k++;
		if (len - k < 7 || memcmp(text + k, "include", 7) != 0)
			continue;
		k += 7;
		while (k < len && (text[k] == ' ' || text[k] == '\t'))
			k++;
		if (k >= len || text[k] != '"')
			continue;
		size_t s = ++k;
		while (k < len && text[k] != '"' && text[k] != '\n')
			k++;
		if (k >= len || text[k] != '"' || k == s)
			continue;
		char *name = xasprintf("%.*s", (int)(k - s), text + s);
		char *found = NULL;
		char *cand = absolute(dir, name);
		if (executable(cand) || access(cand, R_OK) == 0)
			found = cand;
		else
			free(cand);
		for (size_t f = 0; !found && f < fl->nflags; f++)
			if (!strncmp(fl->flags[f], "-I", 2)) {
				cand = xasprintf("%s/%s", fl->flags[f] + 2, name);
				if (access(cand, R_OK) == 0)
					found = cand;
				else
					free(cand);
			}
		free(name);
		if (!found)
			continue;
		bool again = false;
		for (size_t q = 0; q < *nseen; q++)
			again |= !strcmp((*seen)[q], found);
		if (again) {
			free(found);
			continue;
		}
		*PX_VEC_PUSH(*seen, *nseen, *capseen) = found;
		size_t n;
		char *err = NULL;
		char *t = px_read_file(found, &n, &err);
		free(err);
		hash_str(h, found);
		if (!t)
			continue;
		hash_add(h, t, n);
		char *sub = xstrdup(found);
		char *slash = strrchr(sub, '/');
		if (slash)
			*slash = 0;
		hash_includes(h, slash ? sub : ".", t, n, fl, seen, nseen, capseen, depth + 1);
		free(sub);
		free(t);
	}
}

/* ---- running nvcc ---- */

/* Runs argv with a time limit; collects stdout+stderr into out. Returns the
 * exit status (0 ok), -1 when it could not run (why in out), -2 on timeout. */
static int run_limited(char *const argv[], unsigned timeout_s, struct px_buf *out)
{
	int fds[2];
	if (pipe(fds) != 0) {
		px_buf_printf(out, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	pid_t pid;
	int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		px_buf_printf(out, "cannot run '%s': %s", argv[0], strerror(rc));
		return -1;
	}
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	bool timed_out = false;
	for (;;) {
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		long left = (long)timeout_s * 1000 - ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0) {
			timed_out = true;
			kill(pid, SIGKILL);
			break;
		}
		struct pollfd pf = {fds[0], POLLIN, 0};
		int pr = poll(&pf, 1, (int)(left > 1000 ? 1000 : left));
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0)
			continue;
		char chunk[8192];
		ssize_t got = read(fds[0], chunk, sizeof chunk);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (out->n < (1u << 20))
			px_buf_putn(out, chunk, (size_t)got);
	}
	close(fds[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (timed_out)
		return -2;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* nvcc's messages as diagnostics: `FILE(LINE): error|warning: MSG`. */
static void nvcc_messages(const char *path, const char *text, struct px_diags *diags)
{
	bool any = false;
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		const char *paren = memchr(l, '(', n);
		unsigned line = 0;
		int used = 0;
		char sev[10] = "";
		if (paren && sscanf(paren, "(%u): %9[a-z]:%n", &line, sev, &used) == 2 && used > 0 &&
		    (!strcmp(sev, "error") || !strcmp(sev, "warning"))) {
			const char *msg = paren + used;
			while (*msg == ' ')
				msg++;
			px_diag_add(diags, sev[0] == 'e' ? PX_ERROR : PX_WARNING, path, line, 1, NULL, "nvcc: %.*s",
			            (int)(n - (size_t)(msg - l)), msg);
			any = true;
		}
		l += n + (nl != NULL);
	}
	if (!any && *text)
		px_diag_add(diags, PX_ERROR, path, 0, 0, NULL, "nvcc: %.*s", (int)strcspn(text, "\n"), text);
}

static void mkdirs(const char *dir)
{
	char *p = xstrdup(dir);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(p, 0777);
			*s = '/';
		}
	mkdir(p, 0777);
	free(p);
}

char *px_cuda_compile(const struct px_cuda_nvcc *b, const char *path, const char *text, size_t len,
                      const char *arch, const struct px_cuda_flags *fl, bool *cached, struct px_diags *diags)
{
	*cached = false;
	struct hash h = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
	hash_str(&h, "ptxray-nvcc-ptx/1");
	hash_str(&h, b->nvcc);
	struct stat st;
	if (stat(b->nvcc, &st) == 0) {
		int64_t id[2] = {(int64_t)st.st_size, (int64_t)st.st_mtime};
		hash_add(&h, id, sizeof id);
	}
	hash_str(&h, arch);
	for (size_t i = 0; i < fl->nflags; i++)
		hash_str(&h, fl->flags[i]);
	for (size_t i = 0; i < b->nflags; i++)
		hash_str(&h, b->flags[i]);
	hash_add(&h, text, len);
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	char **seen = NULL;
	size_t nseen = 0, capseen = 0;
	hash_includes(&h, slash ? dir : ".", text, len, fl, &seen, &nseen, &capseen, 0);
	for (size_t i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	free(dir);
	char *out = xasprintf("%s/%016llx%016llx.%s.ptx", b->cache_dir, (unsigned long long)h.a,
	                      (unsigned long long)h.b, arch);
	if (access(out, R_OK) == 0) {
		*cached = true;
		return out;
	}
	mkdirs(b->cache_dir);
	char *tmp = xasprintf("%s.%ld.tmp", out, (long)getpid());
	char *archarg = xasprintf("-arch=%s", arch);
	size_t na = 0, cap = 8 + fl->nflags + b->nflags;
	char **argv = xcalloc(cap, sizeof *argv);
	argv[na++] = (char *)b->nvcc;
	argv[na++] = "-ptx";
	argv[na++] = "-lineinfo";
	argv[na++] = archarg;
	for (size_t i = 0; i < fl->nflags; i++)
		argv[na++] = fl->flags[i];
	for (size_t i = 0; i < b->nflags; i++)
		argv[na++] = (char *)b->flags[i];
	argv[na++] = "-o";
	argv[na++] = tmp;
	argv[na++] = (char *)path;
	argv[na] = NULL;
	struct px_buf msg = {0};
	px_buf_puts(&msg, "");
	int rc = run_limited(argv, b->timeout_s ? b->timeout_s : 300, &msg);
	free(argv);
	free(archarg);
	bool ok = rc == 0 && access(tmp, R_OK) == 0 && rename(tmp, out) == 0;
	if (!ok) {
		if (rc == -2)
			px_diag_add(diags, PX_ERROR, path, 0, 0, NULL, "nvcc did not finish within %u s for %s; "
			            "source analyses only", b->timeout_s ? b->timeout_s : 300, arch);
		else if (rc == -1)
			px_diag_add(diags, PX_ERROR, path, 0, 0, NULL, "%s", msg.p);
		else
			nvcc_messages(path, msg.p, diags);
		unlink(tmp);
		free(out);
		out = NULL;
	}
	px_buf_free(&msg);
	free(tmp);
	return out;
}
