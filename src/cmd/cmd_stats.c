/*
 * stats: totals and distributions over tail..head; --svg draws them.  With
 * --stale the records before the tail get statistics of their own, first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "cmd/cmd.h"

struct stats_ctx {
	struct xls_cmd		*c;
	const struct xls_section *section;	/* text: the table being printed */
	bool			stale;		/* the part being reported */
};

/* Text tables, 100 columns at most. */
static const struct xls_column byte_cols[] = {
	XLS_COL(category, -24), XLS_COL(bytes, 14), XLS_COL(pct, 7),
};
static const struct xls_column item_cols[] = {
	XLS_COL(item, -10), XLS_COL(count, 12),
};
static const struct xls_column type_cols[] = {
	XLS_COL(type, -10), XLS_COL_AS(len, "SIZE", 6), XLS_COL(count, 9),
	XLS_COL(dirty_pct_mean, 6), XLS_COL(dirty_pct_median, 5),
	XLS_COL(dirty_pct_p90, 5), XLS_COL(unchanged_pct, 6),
	XLS_COL(regions_mean, 6),
	XLS_COL(runs_mean, 6), XLS_COL(split_runs, 6),
	XLS_COL(bytes_logged, 13),
};
static const struct xls_column hist_cols[] = {
	XLS_COL(dirty_pct_bin, -7), XLS_COL(buffers, 10), XLS_COL(pct, 7),
};
static const struct xls_column hot_cols[] = {
	XLS_COL(blkno, 14), XLS_COL(len, 6), XLS_COL(type, -10),
	XLS_COL(appearances, 8), XLS_COL(bytes_logged, 12),
	XLS_COL(unchanged_pct, 6),
};
static const struct xls_column dist_cols[] = {
	XLS_COL(measure, -14), XLS_COL(checkpoints, 8), XLS_COL(min, 9),
	XLS_COL(p50, 9), XLS_COL(p90, 9), XLS_COL(p99, 9), XLS_COL(max, 10),
	XLS_COL(mean, 12),
};
static const struct xls_column cost_cols[] = {
	XLS_COL(type, -10), XLS_COL_AS(len, "SIZE", 6), XLS_COL(items, 8),
	XLS_COL(bit_steps, 11), XLS_COL(run_steps, 10),
	XLS_COL(steps_ratio, 6), XLS_COL(bit_offset_calls, 11),
	XLS_COL(run_offset_calls, 10), XLS_COL(shadow_allocs_exact, 8),
	XLS_COL(shadow_allocs_rounded, 8),
};

#define SEC XLS_SECTION
static const struct xls_section sections[] = {
	XLS_SECTION_PAIRS(XLS_ROW_TOTAL, "Totals"),
	XLS_SECTION_PAIRS(XLS_ROW_RELOG, "Relogged bytes: each 128-byte chunk of a committed item "
			  "against the bytes\nlast logged at its address (buffers; inode_*: inode "
			  "cores and forks)"),
	XLS_SECTION_PAIRS(XLS_ROW_COST_MODEL, "Formatting cost model, all committed buffer items"),
	SEC(XLS_ROW_BYTES, "Log bytes by category", byte_cols),
	SEC(XLS_ROW_ITEMS, "Log items by type", item_cols),
	SEC(XLS_ROW_BUFTYPE, "Buffers by type and size (dirty % to 1 % resolution)", type_cols),
	SEC(XLS_ROW_HISTOGRAM, "Dirty % of buffers", hist_cols),
	SEC(XLS_ROW_CHECKPOINT_DIST, "Distributions over checkpoints (quantiles to 1/16 of a power of two, unchanged_pct to 1 %)", dist_cols),
	SEC(XLS_ROW_COST_BUFTYPE, "Formatting cost model by buffer type and size: xfs_buf_item_size+format steps\n"
	    "bit by bit (Linux <= 5.11) and run by run (5.12+); xfs_buf_offset() calls; shadow\n"
	    "log vector allocations over each buffer's checkpoints, exact and rounded up to 512", cost_cols),
	SEC(XLS_ROW_HOT, "Hottest buffers, by appearances", hot_cols),
	SEC(XLS_ROW_HOT_BYTES, "Hottest buffers, by bytes logged", hot_cols),
};

static void emit_row(void *ctx, enum xls_row_kind kind, struct xls_fieldset *fs)
{
	struct stats_ctx *sc = ctx;

	if (sc->c->opt->stale)
		xls_field_bool(fs, XK(stale), sc->stale);
	switch (sc->c->out.fmt) {
	case XLS_FMT_TEXT:
		xls_print_section_row(&sc->c->out, sections, sizeof(sections) / sizeof(sections[0]),
				      &sc->section, kind, fs);
		break;
	case XLS_FMT_JSON:
		xls_cmd_record(sc->c, xls_row_kind_record(kind), fs);
		break;
	case XLS_FMT_CSV:
		/* One layout per CSV stream: the buffer type table. */
		if (kind == XLS_ROW_BUFTYPE)
			xls_cmd_record(sc->c, xls_row_kind_record(kind), fs);
		break;
	}
}

/* A part of the log begins: its tables start afresh. */
static void stats_begin(void *ctx, bool stale)
{
	struct stats_ctx *sc = ctx;

	sc->stale = stale;
	sc->section = NULL;
}

/* ... and is scanned: its tables. */
static void stats_report(void *ctx, const struct xls_audit *a)
{
	struct stats_ctx *sc = ctx;

	xls_describe_stats(xls_audit_stats(a), sc->c->opt->chart.top, emit_row, sc);
}

static int run(struct xls_cmd *c, void *ctx, struct xls_error *err)
{
	struct stats_ctx *sc = ctx;

	xls_out_csv_layout(&c->out, c->opt->stale ? &xls_csv_stats_types_stale :
			   &xls_csv_stats_types);
	c->findings_mode = XLS_FINDINGS_COUNT;
	sc->c = c;
	return xls_cmd_audit_parts(c, &(struct xls_audit_parts){ .begin = stats_begin,
				   .report = stats_report, .set = XLS_CHART_STATS }, sc, err);
}

int xls_cmd_stats(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .check = xls_cmd_check_svg,
			   .ctx_size = sizeof(struct stats_ctx), .run = run }, err);
}
