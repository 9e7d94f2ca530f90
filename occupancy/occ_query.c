/* occ_query.c: reads occupancy queries: one --batch line (a flat JSON
 * object) and sizes with units ("8K").
 *
 * Grammar of a batch line (JSON, restricted to what INTERFACES.md uses):
 *   line  := ws '{' ws [ pair (ws ',' ws pair)* ] ws '}' ws
 *   pair  := string ws ':' ws value
 *   value := string | integer | 'true' | 'false' | 'null'
 * Keys: arch (string), threads, registers, shared, dynamic_shared, barriers
 * (non-negative integers), carveout (integer, -1..100), optin (bool).
 * A string is taken as is up to the closing quote (backslash escapes other
 * than \" and \\ are refused). Errors give the 1-based column. */
#include <stdio.h>
#include <string.h>

#include "occupancy.h"

bool px_parse_size(const char *s, uint32_t *out)
{
	uint64_t v = 0;
	const char *p = s;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (uint64_t)(*p++ - '0');
		if (v > 0xffffffffull)
			return false;
	}
	uint64_t mul = 1;
	if (*p == 'K' || *p == 'k')
		mul = 1024;
	else if (*p == 'M' || *p == 'm')
		mul = 1024 * 1024;
	if (mul > 1) {
		p++;
		if (p[0] == 'i' && p[1] == 'B')
			p += 2;
	}
	if (*p)
		return false;
	v *= mul;
	if (v > 0xffffffffull)
		return false;
	*out = (uint32_t)v;
	return true;
}

struct cur {
	const char *s, *p, *end;
};

static void ws(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

static bool fail(struct cur *c, uint32_t *col, const char **why, const char *msg)
{
	*col = (uint32_t)(c->p - c->s) + 1;
	*why = msg;
	return false;
}

/* string: '"' chars '"'; writes up to n-1 bytes to buf. */
static bool str(struct cur *c, char *buf, size_t n, bool *truncated)
{
	if (c->p >= c->end || *c->p != '"')
		return false;
	c->p++;
	size_t k = 0;
	*truncated = false;
	while (c->p < c->end && *c->p != '"') {
		char ch = *c->p;
		if (ch == '\\') {
			if (c->p + 1 >= c->end || (c->p[1] != '"' && c->p[1] != '\\'))
				return false;
			ch = c->p[1];
			c->p++;
		} else if ((unsigned char)ch < 0x20) {
			return false;
		}
		if (k + 1 < n)
			buf[k++] = ch;
		else
			*truncated = true;
		c->p++;
	}
	if (c->p >= c->end)
		return false;
	c->p++;
	buf[k] = 0;
	return true;
}

static bool integer(struct cur *c, int64_t *v)
{
	bool neg = false;
	if (c->p < c->end && *c->p == '-') {
		neg = true;
		c->p++;
	}
	if (c->p >= c->end || *c->p < '0' || *c->p > '9')
		return false;
	int64_t x = 0;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		x = x * 10 + (*c->p++ - '0');
		if (x > 0xffffffffll)
			return false;
	}
	if (c->p < c->end && (*c->p == '.' || *c->p == 'e' || *c->p == 'E'))
		return false;
	*v = neg ? -x : x;
	return true;
}

static bool word(struct cur *c, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(c->end - c->p) >= n && memcmp(c->p, w, n) == 0) {
		c->p += n;
		return true;
	}
	return false;
}

bool px_occ_parse_line(const char *line, size_t len, char *arch, size_t archn,
                       struct px_occ_query *q, uint32_t *col, char *errbuf, size_t errn)
{
	struct cur c = {line, line, line + len};
	const char *why = NULL;
	bool have_arch = false, have_threads = false;
	q->threads = 0;
	q->registers = 0;
	q->shared = q->dynamic_shared = 0;
	q->carveout = -1;
	q->optin = false;
	q->barriers = 1;
	unsigned seen = 0;
	static const char *const names[] = {
		"arch", "barriers", "carveout", "dynamic_shared", "optin", "registers", "shared", "threads",
	};
	bool ok = true;
	ws(&c);
	if (c.p >= c.end || *c.p != '{') {
		ok = fail(&c, col, &why, "expected '{': a batch line is one JSON object");
		goto out;
	}
	c.p++;
	ws(&c);
	if (c.p < c.end && *c.p == '}') {
		c.p++;
	} else {
		for (;;) {
			ws(&c);
			const char *kstart = c.p;
			char key[32];
			bool trunc;
			if (!str(&c, key, sizeof key, &trunc)) {
				ok = fail(&c, col, &why, "expected a key in double quotes");
				goto out;
			}
			int k = -1;
			for (int i = 0; i < (int)PX_COUNTOF(names); i++)
				if (!trunc && strcmp(names[i], key) == 0)
					k = i;
			if (k < 0) {
				c.p = kstart;
				snprintf(errbuf, errn, "unknown key '%.24s' (arch, threads, registers, shared, "
				         "dynamic_shared, carveout, optin, barriers)", key);
				ok = fail(&c, col, &why, errbuf);
				goto out;
			}
			if (seen & (1u << k)) {
				c.p = kstart;
				snprintf(errbuf, errn, "'%s' is given twice", key);
				ok = fail(&c, col, &why, errbuf);
				goto out;
			}
			seen |= 1u << k;
			ws(&c);
			if (c.p >= c.end || *c.p != ':') {
				ok = fail(&c, col, &why, "expected ':'");
				goto out;
			}
			c.p++;
			ws(&c);
			const char *vstart = c.p;
			int64_t v = 0;
			if (k == 0) {
				if (!str(&c, arch, archn, &trunc)) {
					ok = fail(&c, col, &why, "'arch' must be a string such as \"sm_90\"");
					goto out;
				}
				have_arch = true;
			} else if (k == 4) {
				if (word(&c, "true"))
					q->optin = true;
				else if (word(&c, "false"))
					q->optin = false;
				else {
					ok = fail(&c, col, &why, "'optin' must be true or false");
					goto out;
				}
			} else {
				if (!integer(&c, &v) || (k != 2 && v < 0)) {
					c.p = vstart;
					snprintf(errbuf, errn, "'%s' must be a%s integer", key,
					         k == 2 ? "n" : " non-negative");
					ok = fail(&c, col, &why, errbuf);
					goto out;
				}
				if (k == 2 && (v < -1 || v > 100)) {
					c.p = vstart;
					ok = fail(&c, col, &why, "'carveout' must be -1 or 0..100");
					goto out;
				}
				switch (k) {
				case 1: q->barriers = (uint32_t)v; break;
				case 2: q->carveout = (int32_t)v; break;
				case 3: q->dynamic_shared = (uint32_t)v; break;
				case 5: q->registers = (uint32_t)v; break;
				case 6: q->shared = (uint32_t)v; break;
				case 7: q->threads = (uint32_t)v; have_threads = true; break;
				}
			}
			ws(&c);
			if (c.p < c.end && *c.p == ',') {
				c.p++;
				continue;
			}
			if (c.p < c.end && *c.p == '}') {
				c.p++;
				break;
			}
			ok = fail(&c, col, &why, "expected ',' or '}'");
			goto out;
		}
	}
	ws(&c);
	if (c.p != c.end) {
		ok = fail(&c, col, &why, "text after the object");
		goto out;
	}
	if (!have_arch || !have_threads) {
		c.p = line;
		ok = fail(&c, col, &why, !have_arch ? "missing key 'arch'" : "missing key 'threads'");
	}
out:
	if (!ok && why != errbuf)
		snprintf(errbuf, errn, "%s", why);
	return ok;
}
