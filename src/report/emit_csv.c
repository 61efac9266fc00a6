/*
 * The CSV writer: fields per RFC 4180, in the columns of the stream's
 * layout (report/csv_layouts.c), each field's column found by its key's
 * address.
 */
#include <stdlib.h>
#include <string.h>

#include "report/outbuf.h"

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
		out_scalar_text(o, fld);
	}
}

static void csv_header(struct xls_out *o, const struct xls_csv_layout *l)
{
	if (l->long_form)
		out_str(o, "kind,");
	for (unsigned int i = 0; i < l->n; i++) {
		if (i)
			out_char(o, ',');
		csv_string(o, l->keys[i]->name);
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
	for (unsigned int i = 0; i < XLS_KEY_SLOTS; i++)
		o->keys[i].col = -2;
	if (o->fmt == XLS_FMT_CSV)
		csv_header(o, l);
}

/*
 * The layout's column named @key by a compare of names, or -1.  A column
 * past XLS_CSV_COLS is none: its fields are counted as having no column,
 * the internal error the tests watch for, rather than handled apart.
 */
static int column_named(const struct xls_csv_layout *l, const struct xls_key *key)
{
	for (unsigned int k = 0; k < l->n && k < XLS_CSV_COLS; k++)
		if (l->keys[k] == key || strcmp(l->keys[k]->name, key->name) == 0)
			return (int)k;
	return -1;
}

/* The layout's column of @key, or -1. */
static int column_of(struct xls_out *o, const struct xls_key *key)
{
	struct xls_key_slot *k = key_slot(o, key);

	if (!k)
		return column_named(o->layout, key);
	if (k->col == -2)
		k->col = (int16_t)column_named(o->layout, key);
	return k->col;
}

/* The field of each column of the layout in @cols (NULL: none), the first of its key. */
static void place_fields(struct xls_out *o, const struct xls_fieldset *fs,
			 const struct xls_field **cols)
{
	for (unsigned int k = 0; k < XLS_CSV_COLS; k++)
		cols[k] = NULL;
	for (unsigned int i = 0; i < fs->n; i++) {
		int k = column_of(o, fs->f[i].key);

		if (k >= 0 && !cols[k])
			cols[k] = &fs->f[i];
	}
}

/* The field of column @k in @cols: none past XLS_CSV_COLS. */
static const struct xls_field *col_field(const struct xls_field *const *cols, unsigned int k)
{
	return k < XLS_CSV_COLS ? cols[k] : NULL;
}

/* The identifying columns of a long-form row, each after a comma. */
static void csv_id_columns(struct xls_out *o, const struct xls_field *const *cols)
{
	for (unsigned int k = 0; k < o->layout->n; k++) {
		const struct xls_field *id = col_field(cols, k);

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
	uint64_t prefix = UINT64_MAX;
	size_t plen = 0;

	place_fields(o, fs, cols);

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
			csv_id_columns(o, cols);
			prefix = at;
			plen = (size_t)(out_pos(o) - at);
		}
		out_char(o, ',');
		csv_string(o, fs->f[i].key->name);
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
	unsigned int n = 0;

	place_fields(o, fs, cols);
	for (unsigned int k = 0; k < l->n; k++) {
		const struct xls_field *f = col_field(cols, k);

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

void xls_out_csv_record(struct xls_out *o, const char *kind, const struct xls_fieldset *fs)
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
			csv_string(o, fs->f[i].key->name);
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
