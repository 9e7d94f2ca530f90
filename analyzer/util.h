/* util.h: the allocation family, per-file arenas, string views and the
 * diagnostics list shared by every part of ptxray.
 *
 * Memory rules (DESIGN.md convention 5):
 *  - xmalloc/xcalloc/xrealloc/xstrdup abort on exhaustion, never return NULL;
 *  - an arena owns everything made while reading one input file (tokens, IR,
 *    strings); px_arena_delete frees it all in one call;
 *  - a px_str is a view (pointer + length) into the mapped input or into an
 *    arena; it is never NUL-terminated unless said so.
 * Nothing here is global or mutable: two files on two threads are fine. */
#ifndef PX_UTIL_H
#define PX_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define PX_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define PX_COUNTOF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- allocation: abort on exhaustion ---- */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Formats into a new xmalloc'd string; the caller frees it. */
char *xasprintf(const char *fmt, ...) PX_PRINTF(1, 2);
char *xvasprintf(const char *fmt, va_list ap);

/* ---- arenas ---- */
struct px_arena;
struct px_arena *px_arena_new(void);
void px_arena_delete(struct px_arena *a);
/* Zeroed, 16-byte aligned memory owned by the arena. */
void *px_arena_alloc(struct px_arena *a, size_t n);
/* Grows an arena array: returns a copy of old (old_n bytes) in new_n bytes.
 * The old block stays owned by the arena (freed with it). */
void *px_arena_grow(struct px_arena *a, void *old, size_t old_n, size_t new_n);
/* A copy of the n bytes at p, owned by the arena (aligned as px_arena_alloc;
 * cheaper than px_arena_alloc then memcpy: the bytes are written once). */
void *px_arena_copy(struct px_arena *a, const void *p, size_t n);
char *px_arena_strndup(struct px_arena *a, const char *s, size_t n);
char *px_arena_printf(struct px_arena *a, const char *fmt, ...) PX_PRINTF(2, 3);
/* Bytes handed out so far (for the memory benchmark and limits). */
size_t px_arena_used(const struct px_arena *a);
/* Bytes the arena holds from malloc (its chunks, used or not). */
size_t px_arena_footprint(const struct px_arena *a);
/* Moves everything src owns into dst (no copy: its chunks join dst's list)
 * and frees src; pointers into src stay valid for dst's lifetime. */
void px_arena_adopt(struct px_arena *dst, struct px_arena *src);

/* Appends one element to an arena-backed array (items, count n, capacity cap),
 * doubling the capacity as needed. */
#define PX_ARENA_PUSH(arena, items, n, cap)                                       \
	(((n) == (cap) ? ((items) = px_arena_grow((arena), (items),                \
	                                          (size_t)(cap) * sizeof *(items), \
	                                          (size_t)((cap) ? (cap) * 2 : 8) * sizeof *(items)), \
	                  (cap) = (cap) ? (cap) * 2 : 8, 0)                         \
	               : 0),                                                      \
	 &(items)[(n)++])

/* Same for malloc-backed arrays (freed by their owner). */
#define PX_VEC_PUSH(items, n, cap)                                              \
	(((n) == (cap) ? ((items) = xrealloc((items),                              \
	                                     (size_t)((cap) = (cap) ? (cap) * 2 : 8) * sizeof *(items))) \
	               : 0),                                                      \
	 &(items)[(n)++])

/* ---- string views ---- */
typedef struct px_str {
	const char *p;
	uint32_t n;
} px_str;

#define PX_STR_FMT "%.*s"
#define PX_STR_ARG(s) (int)(s).n, (s).p
static inline px_str px_str_c(const char *s);
bool px_str_eq(px_str a, px_str b);
bool px_str_eqc(px_str a, const char *c);
bool px_str_starts(px_str a, const char *prefix);
uint32_t px_str_hash(px_str s);

static inline px_str px_str_make(const char *p, size_t n)
{
	px_str s = {p, (uint32_t)n};
	return s;
}

/* ---- files ---- */
/* Reads a whole file into a new xmalloc'd buffer with a trailing NUL.
 * Returns NULL and sets *err (xmalloc'd, caller frees) on failure. */
char *px_read_file(const char *path, size_t *len, char **err);
/* Reads a whole file without copying it where it can: a regular file is
 * mapped read-only and private (*mapped = true); standard input ("-"),
 * pipes, devices and empty files are read as px_read_file does (*mapped =
 * false). Either way text[len] is 0 and nothing may write to the text.
 * Release it with px_text_free(text, len, *mapped). The file must not be
 * truncated while it is mapped (a read past its new end raises SIGBUS).
 * Returns NULL and sets *err (xmalloc'd) on failure, like px_read_file. */
char *px_map_file(const char *path, size_t *len, bool *mapped, char **err);
/* Frees a text from px_map_file or px_read_file (mapped = false: free()). */
void px_text_free(const char *text, size_t len, bool mapped);
/* Gives back the resident pages that lie wholly inside [from, to) of a
 * mapped text of len bytes (offsets from its start; to = len includes the
 * last, partial page); reading them again faults them in from the file, so
 * the text's content never changes. Returns the offset up to which pages
 * were given back (from rounded up, or to rounded down to a page), where
 * the next release may start. */
size_t px_text_release(const char *text, size_t len, size_t from, size_t to);

/* ---- diagnostics ----
 * One list per run or per file; library code appends, main() renders. */
enum px_severity { PX_NOTE, PX_WARNING, PX_ERROR };

struct px_diag {
	enum px_severity severity;
	char *file;       /* as given on the command line; owned */
	uint32_t line;    /* 1-based; 0 = no location */
	uint32_t column;  /* 1-based; 0 = none */
	char *message;    /* owned */
	char *rule;       /* rule id or NULL; owned */
};

struct px_diags {
	struct px_diag *items;
	size_t n, cap;
	size_t errors;    /* count of PX_ERROR entries */
};

void px_diag_add(struct px_diags *d, enum px_severity sev, const char *file,
                 uint32_t line, uint32_t column, const char *rule,
                 const char *fmt, ...) PX_PRINTF(7, 8);
void px_diag_vadd(struct px_diags *d, enum px_severity sev, const char *file,
                  uint32_t line, uint32_t column, const char *rule,
                  const char *fmt, va_list ap);
/* Sorts by (file, line, column, rule, message), stable. */
void px_diags_sort(struct px_diags *d);
void px_diags_free(struct px_diags *d);
const char *px_severity_name(enum px_severity s);

static inline px_str px_str_c(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return px_str_make(s, n);
}

#endif
