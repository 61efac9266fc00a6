/*
 * Report stage: writers that print field sets as text, JSON Lines or CSV.
 * Every command feeds the same field sets to whichever writer was chosen.
 */
#ifndef XLS_EMIT_H
#define XLS_EMIT_H

#include <stdio.h>
#include <stdbool.h>
#include "report/fields.h"

enum xls_format {
	XLS_FMT_TEXT,
	XLS_FMT_JSON,
	XLS_FMT_CSV,
};

/* A column of a text table: field key, heading, width (negative: left). */
struct xls_column {
	const struct xls_key	*key;		/* XKEY(name) */
	const char		*heading;	/* NULL: the key's (report/keys.def) */
	int			width;
};

/* The column of key @name under its own heading, @width wide. */
#define XLS_COL(name, width)		{ XKEY(name), NULL, (width) }
/* The same, retitled @heading for this table. */
#define XLS_COL_AS(name, heading, width)	{ XKEY(name), (heading), (width) }

/* A text table: its columns, in order (report/rowspecs.c declares them). */
struct xls_table {
	const struct xls_column	*cols;
	unsigned int		n;
};

/*
 * Output lines are built in a buffer and written with fwrite a few hundred
 * KiB at a time, in every format: all output goes through here.  A line
 * longer than XLS_LINE_MAX is written out in pieces as it grows (so a
 * JSON record is never cut); only a writer without a FILE, formatting into
 * a caller's buffer, cuts it.
 */
#define XLS_LINE_MAX	(64 * 1024)
#define XLS_OUT_BUF	(4 * XLS_LINE_MAX)

/*
 * The columns of a CSV stream, declared before any row so that the header
 * is written even when no row follows.  Each record's fields go to the
 * columns of their keys (empty where a record has none).  In the long
 * form, each field of a record is a row of its own: kind, the values of
 * the identifying @keys, then the field's key and value -- for streams
 * whose records differ in their fields (the items of trans).
 */
struct xls_csv_layout {
	const struct xls_key *const	*keys;	/* XKEY(name) each */
	unsigned int		n;
	bool			long_form;
};

/*
 * What the CSV writer knows of a key, by the key's address: its column in
 * the stream's layout, looked up on the key's first sight.
 */
#define XLS_KEY_SLOTS	256u	/* a power of two; small, to stay in L1 */
#define XLS_CSV_COLS	256u	/* columns of a layout; past them, none (a bug, said) */

struct xls_key_slot {
	const struct xls_key	*key;	/* NULL: free */
	int16_t			col;	/* CSV column; -1 none; -2 not looked up */
};

/*
 * Where an xls_out with no FILE sends what it formats: lines in order,
 * a few hundred KiB at a time; a line longer than the buffer in pieces.
 */
struct xls_out_sink {
	void	*ctx;
	void	(*bytes)(void *ctx, const char *p, size_t n);
};

struct xls_out {
	FILE		*f;
	struct xls_out_sink sink;	/* without @f; none: one line, cut */
	enum xls_format	fmt;
	bool		csv_header_done;
	const struct xls_csv_layout *layout;
	uint64_t	csv_unplaced;	/* fields whose key is no column: a bug */
	unsigned int	nkeys;		/* slots used in keys[] */
	struct xls_key_slot keys[XLS_KEY_SLOTS];
	size_t		len;		/* bytes in line[] */
	size_t		line_start;	/* where the current line starts in line[] */
	size_t		limit;		/* line_start + XLS_LINE_MAX: spill beyond */
	uint64_t	written;	/* bytes of line[] already written out */
	char		line[XLS_OUT_BUF];
};

void xls_out_init(struct xls_out *o, FILE *f, enum xls_format fmt);
/* An xls_out whose output goes to @sink instead of a FILE. */
void xls_out_init_sink(struct xls_out *o, enum xls_format fmt, const struct xls_out_sink *sink);

/* With CSV: use @l for the rest of the stream and write its header now. */
void xls_out_csv_layout(struct xls_out *o, const struct xls_csv_layout *l);

/*
 * Write one record: JSON {"kind":@kind,...} with every field; CSV with
 * the field keys as the header on the first call (callers keep one field
 * layout per CSV stream); text as "kind key=value ..." on one line.
 */
void xls_out_record(struct xls_out *o, const struct xls_record_kind *kind,
		    const struct xls_fieldset *fs);

/*
 * Text lines built piece by piece in the line buffer, like JSON ones:
 * printf-style text, then "key=value key=value" of @fs (skipping @nskip
 * leading keys; values as xls_field_format() writes them), then the end
 * of the line, which writes it out.
 */
void xls_out_textf(struct xls_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Formatted text that may end lines, as fprintf() to the stream would. */
void xls_out_printf(struct xls_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void xls_out_text_pairs(struct xls_out *o, const struct xls_fieldset *fs,
			unsigned int nskip);
/* @s or @v padded to @width, as printf's "%*s" and "%*u" pad (negative: left). */
void xls_out_text_str(struct xls_out *o, const char *s, int width);
void xls_out_text_uint(struct xls_out *o, uint64_t v, int width);
void xls_out_text_end(struct xls_out *o);

/* A line of its own: @title, after a blank line when @blank; or the blank line alone. */
void xls_out_title(struct xls_out *o, bool blank, const char *title);
void xls_out_blank(struct xls_out *o);

/* "key   value" lines of every field of @fs, @indent in, keys padded to @width. */
void xls_out_pairs(struct xls_out *o, const struct xls_fieldset *fs, int width,
		   const char *indent);

/* Text table heading and row for @cols; missing keys print "-". */
void xls_out_table_heading(struct xls_out *o, const struct xls_column *cols,
			   unsigned int n);
void xls_out_table_row(struct xls_out *o, const struct xls_column *cols,
		       unsigned int n, const struct xls_fieldset *fs);
/* The same, of table @t. */
static inline void xls_out_heading(struct xls_out *o, const struct xls_table *t)
{
	xls_out_table_heading(o, t->cols, t->n);
}
static inline void xls_out_row(struct xls_out *o, const struct xls_table *t,
			       const struct xls_fieldset *fs)
{
	xls_out_table_row(o, t->cols, t->n, fs);
}

/* A field's value as JSON into @buf (cut to @bufsz - 1 characters). */
void xls_field_format_json(const struct xls_field *fld, char *buf, size_t bufsz);

/* Bytes another xls_out formatted (its sink's), appended as they are. */
void xls_out_lines(struct xls_out *o, const char *p, size_t n);

/* What @o holds, written to its FILE or given to its sink now. */
void xls_out_flush(struct xls_out *o);

/* Flush and check the stream; returns 0 or -1 when output failed. */
int xls_out_finish(struct xls_out *o);

#endif /* XLS_EMIT_H */
