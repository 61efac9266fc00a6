/*
 * Report stage, private to the writers (emit.c, emit_csv.c): the line
 * buffer's appenders, inline because they are the writers' inner loop,
 * and what the CSV writer knows of each key.
 */
#ifndef XLS_OUTBUF_H
#define XLS_OUTBUF_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/ondisk.h"
#include "report/emit.h"
#include "report/fields.h"

/*
 * A line has reached XLS_LINE_MAX, or the buffer is full: write out what
 * it holds, the line so far included, and go on at its start.  With
 * neither FILE nor sink (xls_field_format_json) there is nowhere to
 * write: false, and the line is cut.
 */
bool xls_outbuf_spill(struct xls_out *o);

/* The CSV writer (emit_csv.c): one record, in the stream's layout. */
void xls_out_csv_record(struct xls_out *o, const char *kind, const struct xls_fieldset *fs);

/*
 * Line buffer appenders: JSON output is the hot path of "bufs --json" and
 * "trans --json", so it is formatted by hand, not by stdio per character.
 */
static inline void out_mem(struct xls_out *o, const char *p, size_t n)
{
	while (n > o->limit - o->len) {
		size_t room = o->limit - o->len;

		memcpy(o->line + o->len, p, room);
		o->len += room;
		p += room;
		n -= room;
		if (!xls_outbuf_spill(o))
			return;
	}
	memcpy(o->line + o->len, p, n);
	o->len += n;
}

/*
 * Keys, names and flag words are short: copied a byte at a time as far as
 * their NUL, with no strlen or memcpy call; what is longer, or meets the
 * end of the room, goes the long way.
 */
static inline void out_str(struct xls_out *o, const char *s)
{
	size_t room = o->limit - o->len, n = 0;
	char *p = o->line + o->len;

	for (; n < room && n < 64; n++) {
		if (!s[n]) {
			o->len += n;
			return;
		}
		p[n] = s[n];
	}
	o->len += n;
	out_mem(o, s + n, strlen(s + n));
}

static inline void out_char(struct xls_out *o, char c)
{
	if (o->len < o->limit || xls_outbuf_spill(o))
		o->line[o->len++] = c;
}

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Decimal digits of @v. */
static inline size_t dec_digits(uint64_t v)
{
	size_t n = 1;

	while (v >= 100) {
		v /= 100;
		n += 2;
	}
	return n + (v >= 10);
}

/* @v's @n decimal digits ending at @end, two per division. */
static inline void put_dec(char *end, uint64_t v)
{
	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		*--end = digit_pairs[2 * r + 1];
		*--end = digit_pairs[2 * r];
	}
	if (v >= 10) {
		*--end = digit_pairs[2 * v + 1];
		*--end = digit_pairs[2 * v];
	} else {
		*--end = (char)('0' + v);
	}
}

/*
 * Decimal: the writers' most common work.  Written in place where the
 * line has room: a copy through a buffer cost a call to memcpy per number.
 */
static inline void out_u64(struct xls_out *o, uint64_t v)
{
	size_t n = dec_digits(v);
	char buf[24];

	if (o->limit - o->len >= n) {
		put_dec(o->line + o->len + n, v);
		o->len += n;
		return;
	}
	put_dec(buf + n, v);
	out_mem(o, buf, n);
}

/* The line is done: lines are written once a few hundred KiB have gathered. */
static inline void out_end_line(struct xls_out *o)
{
	if (o->len > sizeof(o->line) - XLS_LINE_MAX)
		xls_outbuf_spill(o);
	o->line_start = o->len;
	o->limit = o->len + XLS_LINE_MAX;
}

/* As printf's %#o: "0" for zero, else a 0 and the octal digits. */
static inline void out_oct(struct xls_out *o, uint64_t v)
{
	char buf[24];
	size_t i = sizeof(buf);

	do {
		buf[--i] = (char)('0' + (v & 7));
		v >>= 3;
	} while (v);
	if (buf[i] != '0')
		buf[--i] = '0';
	out_mem(o, buf + i, sizeof(buf) - i);
}

/* "0x" and the @n - 2 hex digits of @v, at @p. */
static inline void put_hex(char *p, size_t n, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char *end = p + n;

	do {
		*--end = hex[v & 15];
		v >>= 4;
	} while (v);
	p[0] = '0';
	p[1] = 'x';
}

/* In place where the line has room, as out_u64. */
static inline void out_hex(struct xls_out *o, uint64_t v)
{
	size_t n = v ? 2 + (size_t)(67 - __builtin_clzll(v)) / 4 : 3;
	char buf[18];

	if (o->limit - o->len >= n) {
		put_hex(o->line + o->len, n, v);
		o->len += n;
		return;
	}
	put_hex(buf, n, v);
	out_mem(o, buf, n);
}


/* Where the next byte goes, counting what was written out. */
static inline uint64_t out_pos(const struct xls_out *o)
{
	return o->written + o->len;
}

/* The slot of @key, made on the first sight of its address; NULL when full. */
static inline struct xls_key_slot *key_slot(struct xls_out *o, const struct xls_key *key)
{
	uint32_t mask = XLS_KEY_SLOTS - 1;
	uint32_t h = (uint32_t)(((uintptr_t)key * 0x9e3779b97f4a7c15ull) >> 40) & mask;

	for (uint32_t probe = 0; probe <= mask; probe++, h = (h + 1) & mask) {
		struct xls_key_slot *k = &o->keys[h];

		if (k->key == key)
			return k;
		if (k->key)
			continue;
		if (o->nkeys >= XLS_KEY_SLOTS / 4 * 3)
			return NULL;
		k->key = key;
		k->col = -2;
		o->nkeys++;
		return k;
	}
	return NULL;
}

/*
 * A scalar value as xls_field_format() writes it (text and CSV), without
 * stdio but for reals: false for a string, a list or a list member.
 */
static inline bool out_scalar_text(struct xls_out *o, const struct xls_field *fld)
{
	char buf[64];

	switch (fld->kind) {
	case XLS_FIELD_UINT:
		out_u64(o, fld->v.u);
		return true;
	case XLS_FIELD_INT:
		if (fld->v.i < 0)
			out_char(o, '-');
		out_u64(o, fld->v.i < 0 ? -(uint64_t)fld->v.i : (uint64_t)fld->v.i);
		return true;
	case XLS_FIELD_HEX:
		out_hex(o, fld->v.u);
		return true;
	case XLS_FIELD_OCT:
		out_oct(o, fld->v.u);
		return true;
	case XLS_FIELD_LSN:
		out_u64(o, xls_lsn_cycle(fld->v.u));
		out_char(o, '/');
		out_u64(o, xls_lsn_block(fld->v.u));
		return true;
	case XLS_FIELD_BOOL:
		out_str(o, fld->v.b ? "yes" : "no");
		return true;
	case XLS_FIELD_REAL:
		xls_field_format(fld, buf, sizeof(buf));
		out_str(o, buf);
		return true;
	default:
		return false;
	}
}

#endif /* XLS_OUTBUF_H */
