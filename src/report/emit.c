/*
 * Writers for text, JSON Lines and CSV.  JSON strings are escaped per RFC
 * 8259; CSV fields per RFC 4180.  LSNs print as "cycle/block" everywhere,
 * as xfs_logprint users read them.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "base/strfmt.h"
#include "report/emit.h"

void xls_out_init(struct xls_out *o, FILE *f, enum xls_format fmt)
{
	o->f = f;
	o->fmt = fmt;
	o->csv_header_done = false;
	o->layout = NULL;
	o->csv_ncols = 0;
	memset(o->csv_cols, 0, sizeof(o->csv_cols));
	o->csv_unplaced = 0;
	o->len = 0;
	o->line_start = 0;
	o->limit = XLS_LINE_MAX;
	o->written = 0;
}

/*
 * A line has reached XLS_LINE_MAX: write out what the buffer holds, the
 * line so far included, and go on at the start of the buffer.  Without a
 * FILE (xls_field_format_json) there is nowhere to write: false, and the
 * line is cut.
 */
static bool out_spill(struct xls_out *o)
{
	if (!o->f)
		return false;
	fwrite(o->line, 1, o->len, o->f);
	o->written += o->len;
	o->len = 0;
	o->line_start = 0;
	o->limit = XLS_LINE_MAX;
	return true;
}

/*
 * Line buffer appenders: JSON output is the hot path of "bufs --json" and
 * "trans --json", so it is formatted by hand, not by stdio per character.
 */
static void out_mem(struct xls_out *o, const char *p, size_t n)
{
	while (n > o->limit - o->len) {
		size_t room = o->limit - o->len;

		memcpy(o->line + o->len, p, room);
		o->len += room;
		p += room;
		n -= room;
		if (!out_spill(o))
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
static void out_str(struct xls_out *o, const char *s)
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

static void out_char(struct xls_out *o, char c)
{
	if (o->len < o->limit || out_spill(o))
		o->line[o->len++] = c;
}

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Decimal digits of @v. */
static size_t dec_digits(uint64_t v)
{
	size_t n = 1;

	while (v >= 100) {
		v /= 100;
		n += 2;
	}
	return n + (v >= 10);
}

/* @v's @n decimal digits ending at @end, two per division. */
static void put_dec(char *end, uint64_t v)
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
static void out_u64(struct xls_out *o, uint64_t v)
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
static void out_end_line(struct xls_out *o)
{
	if (o->len > sizeof(o->line) - XLS_LINE_MAX) {
		fwrite(o->line, 1, o->len, o->f);
		o->written += o->len;
		o->len = 0;
	}
	o->line_start = o->len;
	o->limit = o->len + XLS_LINE_MAX;
}

/* Bytes that JSON strings must escape: '"', '\\', the controls and DEL. */
static const unsigned char json_escape[256] = {
	[0 ... 0x1f] = 1, ['"'] = 1, ['\\'] = 1, [0x7f] = 1,
};

static void json_string(struct xls_out *o, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	out_char(o, '"');
	while (*s) {
		const char *run = s;
		unsigned char ch;

		while (*s && !json_escape[(unsigned char)*s])
			s++;
		out_mem(o, run, (size_t)(s - run));
		ch = (unsigned char)*s;
		if (!ch)
			break;
		s++;
		if (ch == '"' || ch == '\\') {
			out_char(o, '\\');
			out_char(o, (char)ch);
		} else if (ch == '\n') {
			out_str(o, "\\n");
		} else if (ch == '\t') {
			out_str(o, "\\t");
		} else {
			out_str(o, "\\u00");
			out_char(o, hex[ch >> 4]);
			out_char(o, hex[ch & 15]);
		}
	}
	out_char(o, '"');
}

/* Keys this short are copied a byte at a time, with no strlen or memcpy call. */
#define SHORT_KEY	48u

/* ,"key": -- keys are identifiers, never escaped. */
static void json_key(struct xls_out *o, const char *key)
{
	size_t n;

	if (o->limit - o->len >= SHORT_KEY + 4) {
		char *p = o->line + o->len;

		p[0] = ',';
		p[1] = '"';
		for (n = 0; n < SHORT_KEY && key[n]; n++)
			p[n + 2] = key[n];
		if (!key[n]) {
			p[n + 2] = '"';
			p[n + 3] = ':';
			o->len += n + 4;
			return;
		}
	}
	n = strlen(key);
	if (o->limit - o->len >= n + 4) {
		char *p = o->line + o->len;

		p[0] = ',';
		p[1] = '"';
		memcpy(p + 2, key, n);
		p[n + 2] = '"';
		p[n + 3] = ':';
		o->len += n + 4;
		return;
	}
	out_char(o, ',');
	out_char(o, '"');
	out_mem(o, key, n);
	out_char(o, '"');
	out_char(o, ':');
}

/* As printf's %#o: "0" for zero, else a 0 and the octal digits. */
static void out_oct(struct xls_out *o, uint64_t v)
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
static void put_hex(char *p, size_t n, uint64_t v)
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
static void out_hex(struct xls_out *o, uint64_t v)
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

/* "%.4f" for the percentages and means this tool prints, without stdio. */
static void out_real4(struct xls_out *o, double d)
{
	uint64_t scaled, frac;

	if (!(d >= 0 && d < 1e14)) {
		char buf[64];

		snprintf(buf, sizeof(buf), "%.4f", d);
		out_str(o, buf);
		return;
	}
	{
		/* round half to even, as printf does */
		double x = d * 10000.0;
		uint64_t fl = (uint64_t)x;
		double rest = x - (double)fl;

		scaled = fl + (rest > 0.5 || (rest == 0.5 && (fl & 1)));
	}
	out_u64(o, scaled / 10000);
	out_char(o, '.');
	frac = scaled % 10000;
	for (uint64_t div = 1000; div; div /= 10)
		out_char(o, (char)('0' + frac / div % 10));
}

static void json_list(struct xls_out *o, const struct xls_field *fld);

static void json_value(struct xls_out *o, const struct xls_field *fld)
{
	switch (fld->kind) {
	case XLS_FIELD_UINT:
		out_u64(o, fld->v.u);
		break;
	case XLS_FIELD_INT:
		if (fld->v.i < 0) {
			out_char(o, '-');
			out_u64(o, -(uint64_t)fld->v.i);
		} else {
			out_u64(o, (uint64_t)fld->v.i);
		}
		break;
	case XLS_FIELD_BOOL:
		out_str(o, fld->v.b ? "true" : "false");
		break;
	case XLS_FIELD_REAL:
		out_real4(o, fld->v.d);
		break;
	case XLS_FIELD_LIST:
		json_list(o, fld);
		break;
	case XLS_FIELD_VALUE:	/* list members only: made a field of its own kind */
		out_str(o, "null");
		break;
	case XLS_FIELD_STR:
		json_string(o, fld->v.s);
		break;
	case XLS_FIELD_HEX:
		out_char(o, '"');
		out_hex(o, fld->v.u);
		out_char(o, '"');
		break;
	case XLS_FIELD_OCT:
		out_char(o, '"');
		out_oct(o, fld->v.u);
		out_char(o, '"');
		break;
	case XLS_FIELD_LSN:
		out_char(o, '"');
		out_u64(o, xls_lsn_cycle(fld->v.u));
		out_char(o, '/');
		out_u64(o, xls_lsn_block(fld->v.u));
		out_char(o, '"');
		break;
	}
}

/* An integer member of @size bytes at @p, zero- or sign-extended. */
static uint64_t member_uint(const unsigned char *p, unsigned int size)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		memcpy(&v8, p, 1);
		return v8;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	default:
		memcpy(&v64, p, 8);
		return v64;
	}
}

static int64_t member_int(const unsigned char *p, unsigned int size)
{
	uint64_t v = member_uint(p, size);
	unsigned int shift = 64 - 8 * (size ? size : 8);

	return (int64_t)(v << shift) >> shift;
}

/* One member of a list element as a field, for json_value(). */
static bool member_field(const struct xls_member *m, const unsigned char *elem,
			 struct xls_field *f)
{
	const unsigned char *p = elem + m->offset;

	f->key = m->key;
	f->kind = m->kind;
	switch (m->kind) {
	case XLS_FIELD_STR:
		memcpy(&f->v.s, p, sizeof(f->v.s));
		return f->v.s != NULL;
	case XLS_FIELD_VALUE: {
		struct xls_value val;

		memcpy(&val, p, sizeof(val));
		f->kind = val.kind;
		if (val.kind == XLS_FIELD_STR)
			f->v.s = val.v.s;
		else if (val.kind == XLS_FIELD_INT)
			f->v.i = val.v.i;
		else
			f->v.u = val.v.u;
		return val.kind != XLS_FIELD_STR || val.v.s != NULL;
	}
	case XLS_FIELD_INT:
		f->v.i = member_int(p, m->size);
		return true;
	case XLS_FIELD_BOOL:
		f->v.b = member_uint(p, m->size) != 0;
		return true;
	default:
		f->v.u = member_uint(p, m->size);
		return true;
	}
}

static void json_list(struct xls_out *o, const struct xls_field *fld)
{
	const struct xls_list *l = fld->list;
	struct xls_field f;

	out_char(o, '[');
	for (uint32_t i = 0; i < fld->n; i++) {
		const unsigned char *elem = xls_field_list_elem(fld, i);
		bool object = l->nmembers && l->members[0].key, first = true;

		if (i)
			out_char(o, ',');
		if (object)
			out_char(o, '{');
		for (unsigned int k = 0; k < l->nmembers; k++) {
			if (!member_field(&l->members[k], elem, &f))
				continue;
			if (object) {
				if (!first)
					out_char(o, ',');
				json_string(o, f.key);
				out_char(o, ':');
			}
			json_value(o, &f);
			first = false;
		}
		if (object)
			out_char(o, '}');
	}
	out_char(o, ']');
}

/* The text form of a list, appended to the line. */
static void text_list(struct xls_out *o, const struct xls_field *fld)
{
	const struct xls_list *l = fld->list;
	char elem[XLS_ELEM_TEXT_MAX];

	if (l->fixed_text || !l->text) {
		out_str(o, l->fixed_text ? l->fixed_text : "");
		return;
	}
	for (uint32_t i = 0; i < fld->n; i++) {
		if (i)
			out_str(o, l->sep);
		l->text(xls_field_list_elem(fld, i), elem, sizeof(elem));
		out_str(o, elem);
	}
}

void xls_field_format_json(const struct xls_field *fld, char *buf, size_t bufsz)
{
	struct xls_out *o;
	size_t n;

	if (!bufsz)
		return;
	buf[0] = '\0';
	o = malloc(sizeof(*o));
	if (!o)
		return;
	xls_out_init(o, NULL, XLS_FMT_JSON);
	json_value(o, fld);
	n = o->len < bufsz - 1 ? o->len : bufsz - 1;
	memcpy(buf, o->line, n);
	buf[n] = '\0';
	free(o);
}

static void out_json(struct xls_out *o, const char *kind,
		     const struct xls_fieldset *fs)
{
	out_str(o, "{\"kind\":");
	json_string(o, kind);
	for (unsigned int i = 0; i < fs->n; i++) {
		json_key(o, fs->f[i].key);
		json_value(o, &fs->f[i]);
	}
	out_str(o, "}\n");
	out_end_line(o);
}

static void csv_string(struct xls_out *o, const char *s)
{
	const char *p = s;

	/* short strings: a loop beats strpbrk's setup */
	while (*p && *p != ',' && *p != '"' && *p != '\n' && *p != '\r')
		p++;
	if (!*p) {
		out_mem(o, s, (size_t)(p - s));
		return;
	}
	out_char(o, '"');
	for (; *s; s++) {
		if (*s == '"')
			out_char(o, '"');
		out_char(o, *s);
	}
	out_char(o, '"');
}

static void text_value(struct xls_out *o, const struct xls_field *fld);

/* Only strings can hold a comma, quote or newline: numbers go as they are. */
static void csv_value(struct xls_out *o, const struct xls_field *fld)
{
	char buf[XLS_LINE_MAX / 4];

	if (fld->kind == XLS_FIELD_STR) {
		csv_string(o, fld->v.s);
	} else if (fld->kind == XLS_FIELD_LIST) {
		xls_field_list_text(fld, buf, sizeof(buf));
		csv_string(o, buf);
	} else {
		text_value(o, fld);
	}
}

static void csv_header(struct xls_out *o, const struct xls_csv_layout *l)
{
	if (l->long_form)
		out_str(o, "kind,");
	for (unsigned int i = 0; i < l->n; i++) {
		if (i)
			out_char(o, ',');
		csv_string(o, l->keys[i]);
	}
	if (l->long_form)
		out_str(o, ",key,value");
	out_char(o, '\n');
	out_end_line(o);
	o->csv_header_done = true;
}

void xls_out_csv_layout(struct xls_out *o, const struct xls_csv_layout *l)
{
	o->layout = l;
	o->csv_ncols = 0;
	memset(o->csv_cols, 0, sizeof(o->csv_cols));
	if (o->fmt == XLS_FMT_CSV)
		csv_header(o, l);
}

static uint64_t out_pos(const struct xls_out *o);

/* The layout's column named @key by a compare of names, or -1. */
static int column_named(const struct xls_csv_layout *l, const char *key)
{
	for (unsigned int k = 0; k < l->n; k++)
		if (strcmp(l->keys[k], key) == 0)
			return (int)k;
	return -1;
}

/*
 * The layout's column of @key, or -1: by its address once seen (keys are
 * static strings); a full table finds the rest by name.
 */
static int column_of(struct xls_out *o, const char *key)
{
	uint32_t mask = XLS_CSV_KEYS - 1;
	uint32_t h = (uint32_t)(((uintptr_t)key >> 3) * 0x9e3779b1u) & mask;

	for (uint32_t probe = 0; probe <= mask; probe++, h = (h + 1) & mask) {
		struct xls_csv_col *c = &o->csv_cols[h];

		if (c->key == key)
			return c->col;
		if (c->key)
			continue;
		if (o->csv_ncols >= XLS_CSV_KEYS / 2)
			break;
		c->key = key;
		c->col = column_named(o->layout, key);
		o->csv_ncols++;
		return c->col;
	}
	return column_named(o->layout, key);
}

/*
 * The field of each column of the layout in @cols (NULL: none), the first
 * of its key; false when the layout has more columns than @cols holds.
 */
static bool place_fields(struct xls_out *o, const struct xls_fieldset *fs,
			 const struct xls_field **cols)
{
	if (o->layout->n > XLS_CSV_COLS)
		return false;
	for (unsigned int k = 0; k < o->layout->n; k++)
		cols[k] = NULL;
	for (unsigned int i = 0; i < fs->n; i++) {
		int k = column_of(o, fs->f[i].key);

		if (k >= 0 && !cols[k])
			cols[k] = &fs->f[i];
	}
	return true;
}

/* The field of @fs with @key, by name: layouts too wide for place_fields(). */
static const struct xls_field *find_field(const struct xls_fieldset *fs, const char *key)
{
	for (unsigned int i = 0; i < fs->n; i++)
		if (strcmp(fs->f[i].key, key) == 0)
			return &fs->f[i];
	return NULL;
}

/* The identifying columns of a long-form row, each after a comma. */
static void csv_id_columns(struct xls_out *o, const struct xls_fieldset *fs,
			   const struct xls_field *const *cols)
{
	const struct xls_csv_layout *l = o->layout;

	for (unsigned int k = 0; k < l->n; k++) {
		const struct xls_field *id = cols ? cols[k] : find_field(fs, l->keys[k]);

		out_char(o, ',');
		if (id)
			csv_value(o, id);
	}
}

/*
 * One row per field that is not an identifying column.  The rows of a
 * record share their start (kind and identifying columns): written once,
 * then copied while it is still in the line buffer.
 */
static void out_csv_long(struct xls_out *o, const char *kind, const struct xls_fieldset *fs)
{
	const struct xls_field *cols[XLS_CSV_COLS];
	bool placed = place_fields(o, fs, cols);
	uint64_t prefix = UINT64_MAX;
	size_t plen = 0;

	for (unsigned int i = 0; i < fs->n; i++) {
		uint64_t at = out_pos(o);

		if (column_of(o, fs->f[i].key) >= 0)
			continue;
		if (prefix >= o->written && prefix != UINT64_MAX &&
		    plen <= o->limit - o->len) {
			memcpy(o->line + o->len, o->line + (prefix - o->written), plen);
			o->len += plen;
		} else {
			csv_string(o, kind);
			csv_id_columns(o, fs, placed ? cols : NULL);
			prefix = at;
			plen = (size_t)(out_pos(o) - at);
		}
		out_char(o, ',');
		csv_string(o, fs->f[i].key);
		out_char(o, ',');
		csv_value(o, &fs->f[i]);
		out_char(o, '\n');
		out_end_line(o);
	}
}

/* The fields in the layout's columns, by key. */
static void out_csv_placed(struct xls_out *o, const struct xls_fieldset *fs)
{
	const struct xls_csv_layout *l = o->layout;
	const struct xls_field *cols[XLS_CSV_COLS];
	bool placed = place_fields(o, fs, cols);
	unsigned int n = 0;

	for (unsigned int k = 0; k < l->n; k++) {
		const struct xls_field *f = placed ? cols[k] : find_field(fs, l->keys[k]);

		if (k)
			out_char(o, ',');
		if (f) {
			csv_value(o, f);
			n++;
		}
	}
	o->csv_unplaced += fs->n - n;
	out_char(o, '\n');
	out_end_line(o);
}

static void out_csv(struct xls_out *o, const char *kind, const struct xls_fieldset *fs)
{
	if (o->layout) {
		if (o->layout->long_form)
			out_csv_long(o, kind, fs);
		else
			out_csv_placed(o, fs);
		return;
	}
	if (!o->csv_header_done) {
		for (unsigned int i = 0; i < fs->n; i++) {
			if (i)
				out_char(o, ',');
			csv_string(o, fs->f[i].key);
		}
		out_char(o, '\n');
		out_end_line(o);
		o->csv_header_done = true;
	}
	for (unsigned int i = 0; i < fs->n; i++) {
		if (i)
			out_char(o, ',');
		csv_value(o, &fs->f[i]);
	}
	out_char(o, '\n');
	out_end_line(o);
}

/* A value as xls_field_format() writes it, without stdio but for reals. */
static void text_value(struct xls_out *o, const struct xls_field *fld)
{
	char buf[64];

	switch (fld->kind) {
	case XLS_FIELD_UINT:
	case XLS_FIELD_INT:
		json_value(o, fld);	/* the same digits */
		break;
	case XLS_FIELD_HEX:
		out_hex(o, fld->v.u);
		break;
	case XLS_FIELD_OCT:
		out_oct(o, fld->v.u);
		break;
	case XLS_FIELD_LSN:
		out_u64(o, xls_lsn_cycle(fld->v.u));
		out_char(o, '/');
		out_u64(o, xls_lsn_block(fld->v.u));
		break;
	case XLS_FIELD_BOOL:
		out_str(o, fld->v.b ? "yes" : "no");
		break;
	case XLS_FIELD_REAL:
		xls_field_format(fld, buf, sizeof(buf));
		out_str(o, buf);
		break;
	case XLS_FIELD_STR:
		out_str(o, fld->v.s);
		break;
	case XLS_FIELD_LIST:
		text_list(o, fld);
		break;
	case XLS_FIELD_VALUE:	/* list members only: made a field of its own kind */
		break;
	}
}

static void out_vtextf(struct xls_out *o, const char *fmt, va_list ap)
{
	size_t room = o->limit - o->len;
	va_list again;
	int w;

	va_copy(again, ap);
	w = xls_vsnprintf(o->line + o->len, room, fmt, ap);
	/* a sentence longer than the room left: once more in a fresh buffer */
	if (w > 0 && (size_t)w >= room && o->len > o->line_start && out_spill(o)) {
		room = o->limit - o->len;
		w = xls_vsnprintf(o->line + o->len, room, fmt, again);
	}
	va_end(again);
	if (w > 0)
		o->len += (size_t)w < room ? (size_t)w : room - 1;
}

void xls_out_textf(struct xls_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	out_vtextf(o, fmt, ap);
	va_end(ap);
}

void xls_out_printf(struct xls_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	out_vtextf(o, fmt, ap);
	va_end(ap);
	out_end_line(o);
}

void xls_out_text_pairs(struct xls_out *o, const struct xls_fieldset *fs,
			unsigned int nskip)
{
	for (unsigned int i = nskip; i < fs->n; i++) {
		if (i > nskip)
			out_char(o, ' ');
		out_str(o, fs->f[i].key);
		out_char(o, '=');
		text_value(o, &fs->f[i]);
	}
}

/* Where the next byte goes, counting what was written out. */
static uint64_t out_pos(const struct xls_out *o)
{
	return o->written + o->len;
}

/*
 * Pad what was written since @pos (out_pos) to @width as printf's "%*s"
 * does; not when the value was spilled (a table column never is).
 */
static void pad_from(struct xls_out *o, uint64_t pos, int width)
{
	size_t start, vlen, want, pad;

	if (pos < o->written)
		return;
	start = (size_t)(pos - o->written);
	vlen = o->len - start;

	want = width < 0 ? (size_t)-(long)width : (size_t)width;
	if (vlen >= want)
		return;
	pad = want - vlen;
	if (pad > o->limit - o->len)
		return;
	if (width > 0) {
		memmove(o->line + start + pad, o->line + start, vlen);
		memset(o->line + start, ' ', pad);
	} else {
		memset(o->line + o->len, ' ', pad);
	}
	o->len += pad;
}

void xls_out_text_str(struct xls_out *o, const char *s, int width)
{
	uint64_t start = out_pos(o);

	out_str(o, s);
	pad_from(o, start, width);
}

void xls_out_text_uint(struct xls_out *o, uint64_t v, int width)
{
	uint64_t start = out_pos(o);

	out_u64(o, v);
	pad_from(o, start, width);
}

void xls_out_text_end(struct xls_out *o)
{
	/* a table's last column is padded: no line ends in spaces */
	while (o->len > o->line_start && o->line[o->len - 1] == ' ')
		o->len--;
	out_char(o, '\n');
	out_end_line(o);
}

void xls_out_record(struct xls_out *o, const char *kind,
		    const struct xls_fieldset *fs)
{
	switch (o->fmt) {
	case XLS_FMT_JSON:
		out_json(o, kind, fs);
		break;
	case XLS_FMT_CSV:
		out_csv(o, kind, fs);
		break;
	case XLS_FMT_TEXT:
		out_str(o, kind);
		out_char(o, ' ');
		xls_out_text_pairs(o, fs, 0);
		xls_out_text_end(o);
		break;
	}
}

void xls_out_table_heading(struct xls_out *o, const struct xls_column *cols,
			   unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		xls_out_textf(o, "%s%*s", i ? " " : "", cols[i].width, cols[i].heading);
	xls_out_text_end(o);
}

/* @fld's text, or "-" for none, padded to @width as printf's "%*s" pads. */
static void table_cell(struct xls_out *o, const struct xls_field *fld, int width)
{
	uint64_t start = out_pos(o);

	if (fld)
		text_value(o, fld);
	else
		out_char(o, '-');
	pad_from(o, start, width);
}

void xls_out_table_row(struct xls_out *o, const struct xls_column *cols,
		       unsigned int n, const struct xls_fieldset *fs)
{
	unsigned int next = 0;

	for (unsigned int i = 0; i < n; i++) {
		const struct xls_field *fld;

		/* describers add fields in their table's order: try the next one */
		if (next < fs->n && fs->f[next].key == cols[i].key)
			fld = &fs->f[next];
		else
			fld = xls_fields_get(fs, cols[i].key);
		if (fld)
			next = (unsigned int)(fld - fs->f) + 1;
		if (i)
			out_char(o, ' ');
		table_cell(o, fld, cols[i].width);
	}
	xls_out_text_end(o);
}

int xls_out_finish(struct xls_out *o)
{
	if (o->csv_unplaced) {
		fprintf(stderr, "xfs_logscope: internal error: %llu CSV fields had no column\n",
			(unsigned long long)o->csv_unplaced);
		o->csv_unplaced = 0;
	}
	if (o->len)
		fwrite(o->line, 1, o->len, o->f);
	o->written += o->len;
	o->len = 0;
	o->line_start = 0;
	o->limit = XLS_LINE_MAX;
	if (fflush(o->f) != 0 || ferror(o->f))
		return -1;
	return 0;
}
