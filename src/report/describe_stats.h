/*
 * Report stage: statistics: the rows of stats and compare and their sections (describe_stats.c), as field tables
 * and text: the one place that decides what their fields are called.
 */
#ifndef XLS_DESCRIBE_STATS_H
#define XLS_DESCRIBE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "analysis/stats.h"
#include "report/emit.h"
#include "report/fields.h"

/*
 * The kinds of the rows of stats and compare: a value the emitter tests,
 * never a name matched back; xls_row_kind_record() gives the kind of its
 * record.
 */
enum xls_row_kind {
	XLS_ROW_TOTAL, XLS_ROW_BYTES, XLS_ROW_ITEMS, XLS_ROW_BUFTYPE, XLS_ROW_HISTOGRAM,
	XLS_ROW_RELOG, XLS_ROW_CHECKPOINT_DIST, XLS_ROW_COST_MODEL, XLS_ROW_COST_BUFTYPE,
	XLS_ROW_HOT, XLS_ROW_HOT_BYTES,
	XLS_ROW_COMPARE_TOTAL, XLS_ROW_COMPARE_BYTES, XLS_ROW_COMPARE_TYPE,
	XLS_ROW_COMPARE_BUFTYPE, XLS_ROW_COMPARE_ITEMS,
	XLS_ROW_KINDS
};

const struct xls_record_kind *xls_row_kind_record(enum xls_row_kind kind);

/* A titled text table of the rows of one kind (stats, compare). */
struct xls_section {
	enum xls_row_kind		kind;
	const char			*title;
	const struct xls_column		*cols;
	unsigned int			ncols;
};

#define XLS_SECTION(k, t, c) { k, t, c, sizeof(c) / sizeof(c[0]) }
/* A titled block of "key value" lines, one row's fields (a total). */
#define XLS_SECTION_PAIRS(k, t) { k, t, NULL, 0 }

/*
 * Print @fs, a row of @kind, in its section of @secs: the title (after a
 * blank line but for the first section) and the heading first when the
 * section changes (*@current, which starts NULL).  Returns false when no
 * section has that kind.
 */
bool xls_print_section_row(struct xls_out *o, const struct xls_section *secs, size_t nsecs,
			   const struct xls_section **current, enum xls_row_kind kind,
			   const struct xls_fieldset *fs);

/* Called for each row of a report, with the row's kind. */
/* @fs is the emitter's to add to (a command's own keys) before it writes it. */
typedef void (*xls_describe_emit_fn)(void *ctx, enum xls_row_kind kind,
				     struct xls_fieldset *fs);

/*
 * The statistics as rows: "total", then "bytes", "items", "buftype",
 * "histogram", and the @top hottest buffers as "hot" and "hot_bytes".
 */
void xls_describe_stats(const struct xls_stats *st, unsigned int top,
			xls_describe_emit_fn emit, void *ctx);

#endif /* XLS_DESCRIBE_STATS_H */
