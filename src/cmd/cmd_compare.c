/*
 * compare A B: the statistics of two journals side by side -- per byte
 * category, buffer type and size, and item type -- with deltas and ratios;
 * --svg draws them.  Each journal is scanned as stats scans it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"

static const struct xls_column bytes_cols[] = {
	XLS_COL_AS(category, "CATEGORY / CHECKPOINT", -24),
	XLS_COL_AS(a_bytes_per_checkpoint, "A", 12), XLS_COL_AS(b_bytes_per_checkpoint, "B", 12),
	XLS_COL(bytes_per_checkpoint_delta, 12), XLS_COL(bytes_per_checkpoint_ratio, 7),
};
static const struct xls_column type_cols[] = {
	XLS_COL(type, -10), XLS_COL_AS(len, "SIZE", 6), XLS_COL(a_count, 8),
	XLS_COL(b_count, 8), XLS_COL(a_bytes_per_checkpoint, 10),
	XLS_COL(b_bytes_per_checkpoint, 10), XLS_COL(bytes_per_checkpoint_ratio, 7),
	XLS_COL(a_dirty_pct_mean, 7), XLS_COL(b_dirty_pct_mean, 7),
	XLS_COL(a_unchanged_pct, 6), XLS_COL(b_unchanged_pct, 6),
};
static const struct xls_column type_total_cols[] = {
	XLS_COL(type, -10), XLS_COL(a_count, 8),
	XLS_COL(b_count, 8), XLS_COL(a_bytes_per_checkpoint, 10),
	XLS_COL(b_bytes_per_checkpoint, 10), XLS_COL(bytes_per_checkpoint_ratio, 7),
	XLS_COL(a_dirty_pct_mean, 7), XLS_COL(b_dirty_pct_mean, 7),
	XLS_COL(a_unchanged_pct, 6), XLS_COL(b_unchanged_pct, 6),
};
static const struct xls_column item_cols[] = {
	XLS_COL(item, -10), XLS_COL_AS(a_count, "A", 10), XLS_COL_AS(b_count, "B", 10),
	XLS_COL(count_delta, 10), XLS_COL(a_per_checkpoint, 8),
	XLS_COL(b_per_checkpoint, 8), XLS_COL(per_checkpoint_ratio, 7),
};

#define SEC XLS_SECTION
static const struct xls_section sections[] = {
	XLS_SECTION_PAIRS(XLS_ROW_COMPARE_TOTAL, "Journals (a_: A, b_: B; ratios are B over A)"),
	SEC(XLS_ROW_COMPARE_BYTES, "Log bytes per checkpoint by category", bytes_cols),
	SEC(XLS_ROW_COMPARE_BUFTYPE, "Buffers by type and size: count, log bytes per checkpoint, "
	    "dirty %, unchanged %", type_cols),
	SEC(XLS_ROW_COMPARE_TYPE, "Buffers by type, every size together", type_total_cols),
	SEC(XLS_ROW_COMPARE_ITEMS, "Log items by type, and per checkpoint", item_cols),
};

struct compare_ctx {
	struct xls_cmd		*c;
	const struct xls_section *section;
};

static void emit_row(void *ctx, enum xls_row_kind kind, struct xls_fieldset *fs)
{
	struct compare_ctx *cc = ctx;

	switch (cc->c->out.fmt) {
	case XLS_FMT_TEXT:
		xls_print_section_row(&cc->c->out, sections, sizeof(sections) / sizeof(sections[0]),
				      &cc->section, kind, fs);
		break;
	case XLS_FMT_JSON:
		xls_cmd_record(cc->c, xls_row_kind_record(kind), fs);
		break;
	case XLS_FMT_CSV:
		if (kind == XLS_ROW_COMPARE_BUFTYPE)
			xls_cmd_record(cc->c, xls_row_kind_record(kind), fs);
		break;
	}
}

int xls_cmd_compare(const struct xls_options *opt, struct xls_error *err)
{
	struct xls_options ob = *opt;
	struct xls_audit *a = xls_audit_new(NULL, NULL), *b = xls_audit_new(NULL, NULL);
	struct compare_ctx cc = { 0 };
	struct xls_cmd c, cb;
	int rc;

	if (!a || !b) {
		xls_audit_free(a);
		xls_audit_free(b);
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory"), err->status;
	}
	ob.src.path = opt->compare.path_b;
	/* no -l (the command line takes none): one external log cannot serve two journals */
	rc = 0;
	if (opt->chart.svg_path)
		rc = xls_newfile_check(opt->chart.svg_path, err);
	if (!rc)
		rc = xls_cmd_open(&c, opt, err);
	if (rc) {
		xls_audit_free(a);
		xls_audit_free(b);
		return err->status;
	}
	xls_out_csv_layout(&c.out, &xls_csv_compare);
	c.findings_mode = XLS_FINDINGS_COUNT;
	cc.c = &c;
	rc = xls_cmd_audit_scan(&c, a, false, err);
	if (!rc && !(rc = xls_cmd_open(&cb, &ob, err))) {
		/* B's findings count for the status with A's */
		cb.findings_mode = XLS_FINDINGS_COUNT;
		rc = xls_cmd_audit_scan(&cb, b, false, err);
		c.findings += cb.findings;
		if (xls_out_finish(&cb.out) && !rc)
			rc = xls_error_set(err, XLS_EXIT_INTERNAL, "cannot write to standard output");
		xls_cmd_close(&cb);
	}
	if (!rc) {
		xls_describe_compare(xls_audit_stats(a), xls_audit_stats(b), opt->src.path,
				     opt->compare.path_b, emit_row, &cc);
		if (opt->chart.svg_path)
			rc = xls_cmd_write_audit_svg(opt->chart.svg_path, XLS_CHART_COMPARE,
						     opt->src.path, xls_audit_stats(a),
						     opt->compare.path_b, xls_audit_stats(b), err);
	}
	rc = xls_cmd_status(&c, rc, err);
	xls_cmd_close(&c);
	xls_audit_free(a);
	xls_audit_free(b);
	return rc;
}
