/* json.c: a minimal streaming JSON writer over px_buf: commas and nesting
 * are tracked per level; strings are escaped per RFC 8259 section 7. */
#include <math.h>
#include <string.h>

#include "report.h"

static void sep(struct px_json *j)
{
	if (j->depth < PX_COUNTOF(j->need_comma)) {
		if (j->need_comma[j->depth])
			px_buf_puts(j->out, j->pretty ? ", " : ",");
		j->need_comma[j->depth] = true;
	}
}

static void open_level(struct px_json *j, const char *c)
{
	sep(j);
	px_buf_puts(j->out, c);
	j->depth++;
	if (j->depth < PX_COUNTOF(j->need_comma))
		j->need_comma[j->depth] = false;
}

void px_json_begin_object(struct px_json *j) { open_level(j, "{"); }
void px_json_begin_array(struct px_json *j) { open_level(j, "["); }

void px_json_end_object(struct px_json *j)
{
	j->depth--;
	px_buf_puts(j->out, "}");
}

void px_json_end_array(struct px_json *j)
{
	j->depth--;
	px_buf_puts(j->out, "]");
}

static void raw_string(struct px_buf *b, const char *s, size_t n)
{
	px_buf_puts(b, "\"");
	size_t start = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		if (i > start)
			px_buf_putn(b, s + start, i - start);
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
		px_buf_putn(b, s + start, n - start);
	px_buf_puts(b, "\"");
}

void px_json_key(struct px_json *j, const char *key)
{
	sep(j);
	raw_string(j->out, key, strlen(key));
	px_buf_puts(j->out, j->pretty ? ": " : ":");
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
	px_buf_putn(j->out, d + k, sizeof d - k);
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
	px_buf_puts(j->out, v ? "true" : "false");
	done(j);
}

void px_json_null(struct px_json *j)
{
	sep(j);
	px_buf_puts(j->out, "null");
	done(j);
}
