/*
 * Writers for text, JSON Lines and CSV (CSV in emit_csv.c).  JSON strings
 * are escaped per RFC 8259.  LSNs print as "cycle/block" everywhere, as
 * xfs_logprint users read them.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "base/strfmt.h"
#include "report/outbuf.h"

void xls_out_init(struct xls_out *o, FILE *f, enum xls_format fmt)
{
	o->f = f;
	o->sink = (struct xls_out_sink){ NULL, NULL };
	o->fmt = fmt;
	o->csv_header_done = false;
	o->layout = NULL;
	o->nkeys = 0;
	memset(o->keys, 0, sizeof(o->keys));
	o->csv_unplaced = 0;
	o->len = 0;
	o->line_start = 0;
	o->limit = XLS_LINE_MAX;
	o->written = 0;
}

void xls_out_init_sink(struct xls_out *o, enum xls_format fmt, const struct xls_out_sink *sink)
{
	xls_out_init(o, NULL, fmt);
	o->sink = *sink;
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

/* ,"key": -- as keys.def made it. */
static void json_key(struct xls_out *o, const struct xls_key *key)
{
	out_mem(o, key->json, key->json_len);
}

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
			if (!xls_member_field(&l->members[k], elem, &f))
				continue;
			if (object) {
				if (!first)
					out_char(o, ',');
				json_string(o, f.key->name);
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

/*
 * The room a field may take on the fast path: a space, its key's whole
 * slot text, and a number or a string of up to 64 bytes.
 */
#define FAST_ROOM	(1u + XLS_KEY_TEXT + 64u)

/*
 * A field's key at @p, which has room for XLS_KEY_TEXT bytes: the key's
 * whole text is copied, a fixed size, and the end returned.
 */
static inline __attribute__((always_inline)) char *put_key(char *p, const struct xls_key *key,
							    bool json)
{
	memcpy(p, json ? key->json : key->text, XLS_KEY_TEXT);
	return p + (json ? key->json_len : key->text_len);
}

/*
 * @v's value, the kinds that are most of the output, at @p with room for
 * @room bytes: the end, or NULL for the general path (another kind, a
 * string longer than the room).
 */
static inline __attribute__((always_inline)) char *put_value_fast(char *p, size_t room, const struct xls_field *f, bool json)
{
	size_t n;

	switch (f->kind) {
	case XLS_FIELD_UINT:
		n = dec_digits(f->v.u);
		put_dec(p + n, f->v.u);
		return p + n;
	case XLS_FIELD_HEX:
		n = f->v.u ? 2 + (size_t)(67 - __builtin_clzll(f->v.u)) / 4 : 3;
		if (json)
			*p++ = '"';
		put_hex(p, n, f->v.u);
		p += n;
		if (json)
			*p++ = '"';
		return p;
	case XLS_FIELD_STR:
		if (json)
			*p++ = '"';
		for (n = 0; n < room; n++) {
			unsigned char c = (unsigned char)f->v.s[n];

			if (!c) {
				p += n;
				if (json)
					*p++ = '"';
				return p;
			}
			if (json && json_escape[c])
				return NULL;
			p[n] = (char)c;
		}
		return NULL;
	default:
		return NULL;
	}
}

/*
 * A field in place, when the line has room: JSON's ,"key":value or text's
 * key=value (after a space for all but the first).  False if not written.
 */
static inline __attribute__((always_inline)) bool pair_fast(struct xls_out *o,
							    const struct xls_field *f,
							    bool json, bool space)
{
	char *p = o->line + o->len;

	if (o->limit - o->len < FAST_ROOM)
		return false;
	if (space)
		*p++ = ' ';
	p = put_key(p, f->key, json);
	p = put_value_fast(p, 64, f, json);
	if (!p)
		return false;
	o->len = (size_t)(p - o->line);
	return true;
}

static void out_json(struct xls_out *o, const char *kind,
		     const struct xls_fieldset *fs)
{
	out_str(o, "{\"kind\":");
	json_string(o, kind);
	for (unsigned int i = 0; i < fs->n; i++) {
		if (pair_fast(o, &fs->f[i], true, false))
			continue;
		json_key(o, fs->f[i].key);
		json_value(o, &fs->f[i]);
	}
	out_str(o, "}\n");
	out_end_line(o);
}

/* A value as xls_field_format() writes it, without stdio but for reals. */
static void text_value(struct xls_out *o, const struct xls_field *fld)
{
	if (out_scalar_text(o, fld))
		return;
	if (fld->kind == XLS_FIELD_STR)
		out_str(o, fld->v.s);
	else if (fld->kind == XLS_FIELD_LIST)
		text_list(o, fld);
	/* XLS_FIELD_VALUE: list members only, made a field of its own kind */
}

static void out_vtextf(struct xls_out *o, const char *fmt, va_list ap)
{
	size_t room = o->limit - o->len;
	va_list again;
	int w;

	va_copy(again, ap);
	w = xls_vsnprintf(o->line + o->len, room, fmt, ap);
	/* a sentence longer than the room left: once more in a fresh buffer */
	if (w > 0 && (size_t)w >= room && o->len > o->line_start && xls_outbuf_spill(o)) {
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
		if (pair_fast(o, &fs->f[i], false, i > nskip))
			continue;
		if (i > nskip)
			out_char(o, ' ');
		out_mem(o, fs->f[i].key->text, fs->f[i].key->text_len);
		text_value(o, &fs->f[i]);
	}
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
	size_t n = dec_digits(v);
	uint64_t start;

	/* right-aligned, the common case: spaces, then the digits in place */
	if (width > 0 && width <= 64 && o->limit - o->len >= 64 + n) {
		size_t pad = (size_t)width > n ? (size_t)width - n : 0;

		memset(o->line + o->len, ' ', pad);
		put_dec(o->line + o->len + pad + n, v);
		o->len += pad + n;
		return;
	}
	start = out_pos(o);
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

void xls_out_record(struct xls_out *o, const struct xls_record_kind *kind,
		    const struct xls_fieldset *fs)
{
	switch (o->fmt) {
	case XLS_FMT_JSON:
		out_json(o, kind->name, fs);
		break;
	case XLS_FMT_CSV:
		xls_out_csv_record(o, kind->name, fs);
		break;
	case XLS_FMT_TEXT:
		out_str(o, kind->name);
		out_char(o, ' ');
		xls_out_text_pairs(o, fs, 0);
		xls_out_text_end(o);
		break;
	}
}

/* The table's heading of @c, else its key's, else its key. */
static const char *column_heading(const struct xls_column *c)
{
	if (c->heading)
		return c->heading;
	return c->key->heading ? c->key->heading : c->key->name;
}

void xls_out_table_heading(struct xls_out *o, const struct xls_column *cols,
			   unsigned int n)
{
	/* as "%s%*s" would, without a printf: recover heads every transaction */
	for (unsigned int i = 0; i < n; i++) {
		uint64_t start;

		if (i)
			out_char(o, ' ');
		start = out_pos(o);
		out_str(o, column_heading(&cols[i]));
		pad_from(o, start, cols[i].width);
	}
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

void xls_out_flush(struct xls_out *o)
{
	if (o->len)
		xls_outbuf_spill(o);
}

void xls_out_lines(struct xls_out *o, const char *p, size_t n)
{
	out_mem(o, p, n);
	out_end_line(o);
}

int xls_out_finish(struct xls_out *o)
{
	if (o->csv_unplaced) {
		fprintf(stderr, "xfs_logscope: internal error: %llu CSV fields had no column\n",
			(unsigned long long)o->csv_unplaced);
		o->csv_unplaced = 0;
	}
	xls_out_flush(o);
	o->len = 0;
	o->line_start = 0;
	o->limit = XLS_LINE_MAX;
	if (!o->f)
		return 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		return -1;
	return 0;
}

void xls_out_pairs(struct xls_out *o, const struct xls_fieldset *fs, int width,
		   const char *indent)
{
	char buf[XLS_FIELDS_STRBUF];

	for (unsigned int i = 0; i < fs->n; i++) {
		xls_field_format(&fs->f[i], buf, sizeof(buf));
		xls_out_printf(o, "%s%-*s %s\n", indent, width, fs->f[i].key->name, buf);
	}
}

void xls_out_title(struct xls_out *o, bool blank, const char *title)
{
	if (blank)
		out_char(o, '\n');
	out_str(o, title);
	out_char(o, '\n');
	out_end_line(o);
}

void xls_out_blank(struct xls_out *o)
{
	out_char(o, '\n');
	out_end_line(o);
}
