/* json.c: a minimal streaming JSON writer over px_buf: commas and nesting
 * are tracked per level; strings are escaped per RFC 8259 section 7. */
#include <math.h>
#include <string.h>

#include "report.h"

/* Appends n bytes: inline when they fit (a report writes millions of
 * short pieces), else through px_buf_putn, which grows the buffer. */
static inline void emit(struct px_buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		px_buf_putn(b, s, n);
		return;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

static void sep(struct px_json *j)
{
	if (j->depth < PX_COUNTOF(j->need_comma)) {
		if (j->need_comma[j->depth])
			emit(j->out, ", ", j->pretty ? 2 : 1);
		j->need_comma[j->depth] = true;
	}
}

static void open_level(struct px_json *j, const char *c)
{
	sep(j);
	emit(j->out, c, 1);
	j->depth++;
	if (j->depth < PX_COUNTOF(j->need_comma))
		j->need_comma[j->depth] = false;
}

void px_json_begin_object(struct px_json *j) { open_level(j, "{"); }
void px_json_begin_array(struct px_json *j) { open_level(j, "["); }

void px_json_end_object(struct px_json *j)
{
	j->depth--;
	emit(j->out, "}", 1);
}

void px_json_end_array(struct px_json *j)
{
	j->depth--;
	emit(j->out, "]", 1);
}

/* The length of s's leading run of bytes that need no escape (all but the
 * quotation mark, the reverse solidus and U+0000..U+001F; RFC 8259 section
 * 7), looked at 8 bytes at a time: a word has such a byte exactly when one
 * of its bytes is below 0x20 or equal to '"' or '\\' (the classic tests for
 * a zero byte, (v - 0x01..) & ~v & 0x80.., of x ^ '"', x ^ '\\', and of a
 * byte below 0x20, (x - 0x20..) & ~x & 0x80..). */
static size_t plain_prefix(const char *s, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t x;
		memcpy(&x, s + i, 8);
		uint64_t q = x ^ (ones * '"'), bs = x ^ (ones * '\\');
		if ((((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((bs - ones) & ~bs)) & highs)
			break;
	}
	while (i < n && (unsigned char)s[i] >= 0x20 && s[i] != '"' && s[i] != '\\')
		i++;
	return i;
}

static void raw_string(struct px_buf *b, const char *s, size_t n)
{
	size_t start = plain_prefix(s, n);
	if (start == n && b->n + n + 3 <= b->cap) {
		/* nothing to escape (the common case): one copy */
		char *o = b->p + b->n;
		o[0] = '"';
		memcpy(o + 1, s, n);
		o[n + 1] = '"';
		o[n + 2] = 0;
		b->n += n + 2;
		return;
	}
	emit(b, "\"", 1);
	start = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		if (i > start)
			emit(b, s + start, i - start);
		switch (c) {
		case '"': px_buf_puts(b, "\\\""); break;
		case '\\': px_buf_puts(b, "\\\\"); break;
		case '\n': px_buf_puts(b, "\\n"); break;
		case '\t': px_buf_puts(b, "\\t"); break;
		case '\r': px_buf_puts(b, "\\r"); break;
		default: px_buf_printf(b, "\\u%04x", c); break;
		}
		start = i + 1;
	}
	if (n > start)
		emit(b, s + start, n - start);
	emit(b, "\"", 1);
}

void px_json_key(struct px_json *j, const char *key)
{
	/* the common case (a plain key, room in the buffer): the separator,
	 * the quoted key and the colon in one write */
	size_t n = strlen(key);
	struct px_buf *b = j->out;
	if (j->depth < PX_COUNTOF(j->need_comma) && b->n + n + 7 <= b->cap &&
	    plain_prefix(key, n) == n) {
		char *o = b->p + b->n;
		if (j->need_comma[j->depth]) {
			*o++ = ',';
			if (j->pretty)
				*o++ = ' ';
		}
		*o++ = '"';
		memcpy(o, key, n);
		o += n;
		*o++ = '"';
		*o++ = ':';
		if (j->pretty)
			*o++ = ' ';
		*o = 0;
		b->n = (size_t)(o - b->p);
		j->need_comma[j->depth] = false;  /* the value needs no comma of its own */
		return;
	}
	sep(j);
	raw_string(j->out, key, strlen(key));
	emit(j->out, ": ", j->pretty ? 2 : 1);
	/* the value that follows needs no comma of its own */
	if (j->depth < PX_COUNTOF(j->need_comma))
		j->need_comma[j->depth] = false;
}

/* After a value at this level, the next key or element needs a comma. */
static void done(struct px_json *j)
{
	if (j->depth < PX_COUNTOF(j->need_comma))
		j->need_comma[j->depth] = true;
}

void px_json_string_n(struct px_json *j, const char *s, size_t n)
{
	sep(j);
	raw_string(j->out, s, n);
	done(j);
}

void px_json_string(struct px_json *j, const char *s)
{
	px_json_string_n(j, s, strlen(s));
}

void px_json_uint(struct px_json *j, uint64_t v)
{
	sep(j);
	char d[24];
	size_t k = sizeof d;
	do {
		d[--k] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	emit(j->out, d + k, sizeof d - k);
	done(j);
}

void px_json_int(struct px_json *j, int64_t v)
{
	sep(j);
	px_buf_printf(j->out, "%lld", (long long)v);
	done(j);
}

void px_json_double(struct px_json *j, double v)
{
	sep(j);
	if (!isfinite(v))
		px_buf_puts(j->out, "null");
	else
		px_buf_printf(j->out, "%.17g", v);
	done(j);
}

void px_json_bool(struct px_json *j, bool v)
{
	sep(j);
	if (v)
		emit(j->out, "true", 4);
	else
		emit(j->out, "false", 5);
	done(j);
}

void px_json_null(struct px_json *j)
{
	sep(j);
	emit(j->out, "null", 4);
	done(j);
}
