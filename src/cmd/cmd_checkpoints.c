/*
 * checkpoints: one line per committed checkpoint in commit order -- its
 * LSNs, records, log bytes, items, buffers, dirty bytes and relog split --
 * then the relog table's bounds; --svg draws them over the log.  With
 * --stale the checkpoints before the tail come first, with their own relog
 * table: the two parts are never summed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"

/* the columns of the text table, and with --stale whether the checkpoint is stale first */
#define CKPT_COLUMNS \
	XLS_COL(seq, 7), XLS_COL(tid, 10), XLS_COL_AS(lsn, "START", 11), \
	XLS_COL(commit_lsn, 11), XLS_COL(records, 4), \
	XLS_COL(log_bytes, 9), XLS_COL(items, 5), XLS_COL_AS(buffers, "BUFS", 5), \
	XLS_COL(buffer_bytes, 10), XLS_COL(dirty_bytes, 8), \
	XLS_COL(unchanged_pct, 6), XLS_COL(inode_unchanged_pct, 6)
static const struct xls_column ckpt_cols[] = { CKPT_COLUMNS };
static const struct xls_column stale_ckpt_cols[] = { XLS_COL(stale, -5), CKPT_COLUMNS };
#define NCOLS (sizeof(ckpt_cols) / sizeof(ckpt_cols[0]))

struct ckpt_ctx {
	struct xls_cmd		*c;
	struct xls_fieldset	fs;
	bool			heading;
	bool			stale;		/* the part being scanned */
};

static void on_checkpoint(void *ctx, const struct xls_ckpt *ck)
{
	struct ckpt_ctx *cc = ctx;
	struct xls_cmd *c = cc->c;
	const struct xls_field *types;

	if (c->opt->filter.has_tid && ck->tid != c->opt->filter.tid)
		return;
	c->shown++;
	xls_fields_reset(&cc->fs);
	if (c->opt->stale)
		xls_field_bool(&cc->fs, XK(stale), cc->stale);
	types = xls_describe_ckpt(ck, &cc->fs);
	if (c->out.fmt != XLS_FMT_TEXT) {
		xls_cmd_record(c, XR(checkpoint), &cc->fs);
		return;
	}
	if (!cc->heading) {
		if (c->opt->stale)
			xls_out_table_heading(&c->out, stale_ckpt_cols, NCOLS + 1);
		else
			xls_out_table_heading(&c->out, ckpt_cols, NCOLS);
		cc->heading = true;
	}
	if (c->opt->stale)
		xls_out_table_row(&c->out, stale_ckpt_cols, NCOLS + 1, &cc->fs);
	else
		xls_out_table_row(&c->out, ckpt_cols, NCOLS, &cc->fs);
	if (c->opt->verbose)
		xls_print_ckpt_detail(&c->out, ck, types);
}

/* After the rows: the bounds of the relog figures, which only the end knows. */
static void print_relog(void *ctx, const struct xls_audit *a)
{
	struct ckpt_ctx *cc = ctx;
	struct xls_cmd *c = cc->c;
	struct xls_stats_relog r;

	xls_stats_relog(xls_audit_stats(a), &r);
	xls_fields_reset(&cc->fs);
	xls_describe_relog(&r, &cc->fs);
	if (c->opt->stale)
		xls_field_bool(&cc->fs, XK(stale), cc->stale);
	if (c->out.fmt == XLS_FMT_JSON) {
		xls_cmd_record(c, XR(relog), &cc->fs);
	} else if (c->out.fmt == XLS_FMT_TEXT) {
		xls_print_relog(&c->out, xls_ckpt_stats_count(xls_stats_checkpoints(xls_audit_stats(a))),
				!c->opt->stale ? "whole log" : cc->stale ? "records before the tail" :
				"records from the tail to the head", &cc->fs);
	}
}

/* A part of the log begins: its checkpoints get a heading of their own. */
static void ckpt_begin(void *ctx, bool stale)
{
	struct ckpt_ctx *cc = ctx;

	cc->stale = stale;
	cc->heading = false;
}

static int run(struct xls_cmd *c, void *ctx, struct xls_error *err)
{
	struct ckpt_ctx *cc = ctx;

	xls_out_csv_layout(&c->out, c->opt->stale ? &xls_csv_checkpoints_stale :
			   &xls_csv_checkpoints);
	xls_cmd_filters(c, "checkpoint");
	cc->c = c;
	return xls_cmd_audit_parts(c, &(struct xls_audit_parts){ .begin = ckpt_begin,
				   .report = print_relog, .on_ckpt = on_checkpoint,
				   .set = XLS_CHART_CHECKPOINTS }, cc, err);
}

int xls_cmd_checkpoints(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .check = xls_cmd_check_svg,
			   .ctx_size = sizeof(struct ckpt_ctx), .run = run }, err);
}
