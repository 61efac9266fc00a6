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
#include "report/describe_audit.h"
#include "cmd/options.h"

/* checkpoints' own options */
struct ckpt_opts {
	bool		verbose;	/* -v: bytes by category, items by type, relog split */
	const char	*svg_path;	/* --svg: the charts */
};

/* the columns of the text table, and with --stale whether the checkpoint is stale first */

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
			xls_out_heading(&c->out, &xls_text_checkpoints_stale);
		else
			xls_out_heading(&c->out, &xls_text_checkpoints);
		cc->heading = true;
	}
	if (c->opt->stale)
		xls_out_row(&c->out, &xls_text_checkpoints_stale, &cc->fs);
	else
		xls_out_row(&c->out, &xls_text_checkpoints, &cc->fs);
	if (((const struct ckpt_opts *)c->opt->own)->verbose)
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
				   .set = XLS_CHART_CHECKPOINTS,
				   .svg_path = ((const struct ckpt_opts *)c->opt->own)->svg_path },
				   cc, err);
}

static int check(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_check_new(((const struct ckpt_opts *)opt->own)->svg_path, err);
}

static int checkpoints_main(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .check = check,
			   .ctx_size = sizeof(struct ckpt_ctx), .run = run }, err);
}

static const struct argp_option checkpoints_options[] = {
	{ "verbose", 'v', NULL, 0, "each checkpoint's bytes by category, items by type and relog split", 3 },
	{ "tid", XLS_OPT_TID, "TID", 0, "only this checkpoint (hexadecimal, 0x optional)", 3 },
	{ "svg", XLS_OPT_OWN, "FILE", 0, "draw checkpoint size, bytes by category and relogged bytes over the log to FILE (SVG)", 3 },
	{ 0 }
};

static error_t checkpoints_parse(int key, char *arg, struct argp_state *state)
{
	struct ckpt_opts *co = xls_cmdline(state)->own;

	switch (key) {
	case 'v':		co->verbose = true; return 0;
	case XLS_OPT_OWN:	co->svg_path = arg; return 0;
	default:		return xls_opt_parse_shared(key, arg, state);
	}
}

const struct xls_command xls_command_checkpoints = {
	.name = "checkpoints", .args_doc = "DEV", .nargs = 1,
	.doc = "One line per committed checkpoint in commit order: LSNs, log bytes, items, buffers, relogged bytes.",
	.summary = "one line per checkpoint: size, items, relogged bytes",
	.takes = XLS_TAKES_LOGDEV | XLS_TAKES_OUTPUT | XLS_TAKES_MOUNTED | XLS_TAKES_STALE,
	.options = checkpoints_options, .parse = checkpoints_parse,
	.own_size = sizeof(struct ckpt_opts), .run = checkpoints_main,
};
