/* util.c: allocation that aborts on exhaustion, bump arenas, string views,
 * whole-file reading (read into memory, or mapped read-only) and the
 * diagnostics list. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir.h"
#include "util.h"

static void oom(size_t n)
{
	/* The one place library code may stop the process: memory exhaustion
	 * (DESIGN.md convention 5). */
	fprintf(stderr, "ptxray: out of memory (%zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		oom(count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		n = 0;
	char *p = xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

/* ---- arenas: a list of chunks, each at least 64 KiB ---- */
struct chunk {
	struct chunk *next;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

struct px_arena {
	struct chunk *head;
	size_t total;
};

struct px_arena *px_arena_new(void)
{
	return xcalloc(1, sizeof(struct px_arena));
}

void px_arena_delete(struct px_arena *a)
{
	if (!a)
		return;
	struct chunk *c = a->head;
	while (c) {
		struct chunk *next = c->next;
		free(c);
		c = next;
	}
	free(a);
}

/* n bytes (n a multiple of 16), not cleared. */
static void *arena_raw(struct px_arena *a, size_t n)
{
	struct chunk *c = a->head;
	if (!c || c->size - c->used < n) {
		size_t size = n > 65536 - sizeof *c ? n : 65536 - sizeof *c;
		/* grow chunk sizes with the arena so big inputs make few chunks */
		if (a->total / 8 > size)
			size = a->total / 8 > n ? a->total / 8 : n;
		c = xmalloc(sizeof *c + size);
		c->size = size;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	void *p = c->data + c->used;
	c->used += n;
	a->total += n;
	return p;
}

void *px_arena_alloc(struct px_arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	return memset(arena_raw(a, n), 0, n);
}

void *px_arena_copy(struct px_arena *a, const void *p, size_t n)
{
	size_t r = (n + 15) & ~(size_t)15;
	unsigned char *q = arena_raw(a, r);
	memcpy(q, p, n);
	memset(q + n, 0, r - n);
	return q;
}

void *px_arena_grow(struct px_arena *a, void *old, size_t old_n, size_t new_n)
{
	struct chunk *c = a->head;
	size_t old_r = (old_n + 15) & ~(size_t)15;
	/* extend in place when old is the last allocation of the current chunk */
	if (old && c && (unsigned char *)old + old_r == c->data + c->used) {
		size_t new_r = (new_n + 15) & ~(size_t)15;
		if (new_r >= old_r && c->size - (c->used - old_r) >= new_r) {
			memset((unsigned char *)old + old_r, 0, new_r - old_r);
			c->used += new_r - old_r;
			a->total += new_r - old_r;
			return old;
		}
	}
	void *p = px_arena_alloc(a, new_n);
	if (old && old_n)
		memcpy(p, old, old_n < new_n ? old_n : new_n);
	return p;
}

char *px_arena_strndup(struct px_arena *a, const char *s, size_t n)
{
	char *p = px_arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *px_arena_printf(struct px_arena *a, const char *fmt, ...)
{
	/* one formatting pass into a stack buffer when the text fits (the
	 * analyses' messages do), else measure and format into the arena */
	char buf[512];
	va_list ap, aq;
	va_start(ap, fmt);
	va_copy(aq, ap);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	char *p;
	if ((size_t)n < sizeof buf) {
		p = px_arena_strndup(a, buf, (size_t)n);
	} else {
		p = px_arena_alloc(a, (size_t)n + 1);
		vsnprintf(p, (size_t)n + 1, fmt, aq);
	}
	va_end(aq);
	return p;
}

size_t px_arena_used(const struct px_arena *a)
{
	return a->total;
}

size_t px_arena_footprint(const struct px_arena *a)
{
	size_t n = 0;
	for (const struct chunk *c = a->head; c; c = c->next)
		n += sizeof *c + c->size;
	return n;
}

void px_arena_adopt(struct px_arena *dst, struct px_arena *src)
{
	if (!src)
		return;
	/* src's chunks go after dst's head, which stays the chunk dst
	 * allocates from (so px_arena_grow's in-place case is unchanged) */
	struct chunk *last = src->head;
	if (last) {
		while (last->next)
			last = last->next;
		if (dst->head) {
			last->next = dst->head->next;
			dst->head->next = src->head;
		} else {
			dst->head = src->head;
		}
		dst->total += src->total;
	}
	free(src);
}

/* ---- strings ---- */
bool px_str_eq(px_str a, px_str b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

bool px_str_eqc(px_str a, const char *c)
{
	size_t n = strlen(c);
	return a.n == n && memcmp(a.p, c, n) == 0;
}

bool px_str_starts(px_str a, const char *prefix)
{
	size_t n = strlen(prefix);
	return a.n >= n && memcmp(a.p, prefix, n) == 0;
}

uint32_t px_str_hash(px_str s)
{
	uint32_t h = 2166136261u;  /* FNV-1a */
	for (uint32_t i = 0; i < s.n; i++) {
		h ^= (unsigned char)s.p[i];
		h *= 16777619u;
	}
	return h;
}

/* ---- files ---- */

/* Reads f to its end into a new xmalloc'd buffer with a trailing NUL. */
static char *read_stream(FILE *f, size_t *len, char **err)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (cap - n < 2) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	int failed = ferror(f);
	int saved = errno;
	if (failed) {
		free(buf);
		*err = xasprintf("%s", strerror(saved ? saved : EIO));
		return NULL;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

char *px_read_file(const char *path, size_t *len, char **err)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f) {
		*err = xasprintf("%s", strerror(errno));
		return NULL;
	}
	char *buf = read_stream(f, len, err);
	if (f != stdin)
		fclose(f);
	return buf;
}

static size_t page_size(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	return pg > 0 ? (size_t)pg : 4096;
}

/* The bytes a mapping of a len-byte text spans: the file's pages and room
 * for the NUL after it. */
static size_t mapped_span(size_t len)
{
	size_t pg = page_size();
	return (len / pg + 1) * pg;
}

char *px_map_file(const char *path, size_t *len, bool *mapped, char **err)
{
	*mapped = false;
	if (strcmp(path, "-") == 0)
		return px_read_file(path, len, err);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = xasprintf("%s", strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < SIZE_MAX / 2) {
		size_t n = (size_t)st.st_size, span = mapped_span(n);
		/* reserve the span as zeroed anonymous pages, then map the file
		 * over its start: the byte after the file is a 0 either in the
		 * file's last page (zero-filled past the end, POSIX mmap) or in
		 * the anonymous page that follows */
		char *base = mmap(NULL, span, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (base != MAP_FAILED) {
			if (mmap(base, n, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) != MAP_FAILED) {
				close(fd);
				*len = n;
				*mapped = true;
				return base;
			}
			munmap(base, span);
		}
	}
	/* a pipe, a device, an empty file, or no mapping: read it */
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		*err = xasprintf("%s", strerror(errno));
		close(fd);
		return NULL;
	}
	char *buf = read_stream(f, len, err);
	fclose(f);
	return buf;
}

void px_text_free(const char *text, size_t len, bool mapped)
{
	if (!mapped)
		free((void *)text);
	else if (text)
		munmap((void *)text, mapped_span(len));
}

size_t px_text_release(const char *text, size_t len, size_t from, size_t to)
{
	size_t pg = page_size();
	from = (from + pg - 1) / pg * pg;
	/* the last, partial page goes too when to is the end */
	to = to >= len ? (len + pg - 1) / pg * pg : to / pg * pg;
	if (to <= from)
		return from;
	/* a private, never written file mapping: dropping the pages loses
	 * nothing, a later read faults them in again from the file */
	madvise((void *)(text + from), to - from, MADV_DONTNEED);
	return to;
}

/* ---- diagnostics ---- */
const char *px_severity_name(enum px_severity s)
{
	switch (s) {
	case PX_NOTE: return "note";
	case PX_WARNING: return "warning";
	case PX_ERROR: return "error";
	}
	return "error";
}

void px_diag_vadd(struct px_diags *d, enum px_severity sev, const char *file,
                  uint32_t line, uint32_t column, const char *rule,
                  const char *fmt, va_list ap)
{
	struct px_diag *g = PX_VEC_PUSH(d->items, d->n, d->cap);
	g->severity = sev;
	g->file = xstrdup(file ? file : "");
	g->line = line;
	g->column = column;
	g->rule = rule ? xstrdup(rule) : NULL;
	g->message = xvasprintf(fmt, ap);
	if (sev == PX_ERROR)
		d->errors++;
}

void px_diag_add(struct px_diags *d, enum px_severity sev, const char *file,
                 uint32_t line, uint32_t column, const char *rule,
                 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	px_diag_vadd(d, sev, file, line, column, rule, fmt, ap);
	va_end(ap);
}

static int cmp_diag(const void *pa, const void *pb)
{
	const struct px_diag *a = pa, *b = pb;
	int c = strcmp(a->file, b->file);
	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	c = strcmp(a->rule ? a->rule : "", b->rule ? b->rule : "");
	if (c)
		return c;
	c = strcmp(a->message, b->message);
	if (c)
		return c;
	/* stable: fall back to insertion order */
	return a < b ? -1 : a > b;
}

void px_diags_sort(struct px_diags *d)
{
	if (d->n > 1)
		qsort(d->items, d->n, sizeof *d->items, cmp_diag);
}

void px_diags_free(struct px_diags *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->items[i].file);
		free(d->items[i].message);
		free(d->items[i].rule);
	}
	free(d->items);
	d->items = NULL;
	d->n = d->cap = d->errors = 0;
}

/* ---- growable text buffers (dumps, JSON) ---- */
static void buf_reserve(struct px_buf *b, size_t extra)
{
	if (b->sink && b->n >= PX_BUF_CHUNK)
		px_buf_flush(b);
	if (b->n + extra + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->n + extra + 1)
			cap *= 2;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
}

/* Formats straight into the free space; only a text that does not fit is
 * formatted twice (once to measure). */
void px_buf_printf(struct px_buf *b, const char *fmt, ...)
{
	va_list ap, aq;
	va_start(ap, fmt);
	va_copy(aq, ap);
	buf_reserve(b, 64);
	int n = vsnprintf(b->p + b->n, b->cap - b->n, fmt, aq);
	va_end(aq);
	if (n > 0) {
		if ((size_t)n >= b->cap - b->n) {
			buf_reserve(b, (size_t)n);
			vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
		}
		b->n += (size_t)n;
	}
	va_end(ap);
}

void px_buf_putn(struct px_buf *b, const char *s, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

void px_buf_puts(struct px_buf *b, const char *s)
{
	px_buf_putn(b, s, strlen(s));
}

void px_buf_flush(struct px_buf *b)
{
	if (b->sink && b->n) {
		b->sink(b->sink_ctx, b->p, b->n);
		b->n = 0;
		b->p[0] = 0;
	}
}

void px_buf_free(struct px_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
}
