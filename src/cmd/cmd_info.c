/* info: geometry, head and tail, and what a full scan of tail..head finds. */
#include <stdlib.h>

#include "items/buf_analysis.h"
#include "cmd/cmd.h"
#include "report/describe_log.h"
#include "cmd/options.h"

struct info_ctx {
	struct xls_cmd		*c;
	struct xls_item_decoded	d;
	struct xls_buf_analysis	ba;
};

/* Count what trans and bufs would report for an item, without printing. */
static int info_item(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct info_ctx *ic = ctx;

	(void)t;
	if (xls_item_decode(it, &ic->d))
		ic->c->findings++;
	if (it->type == XFS_LI_BUF) {
		xls_buf_analyse(it, &ic->ba);
		if (ic->ba.parsed && ic->ba.res.problems)
			ic->c->findings++;
	}
	return 0;
}

static int run(struct xls_cmd *c, void *ctx, struct xls_error *err)
{
	struct info_ctx *ic = ctx;
	struct xls_scan_totals tot;
	struct xls_scan_sink sink = {
		.ctx = ic, .item = info_item, .want_trans = true, .report = &c->report,
	};
	struct xls_fieldset fs;
	int rc;

	xls_out_csv_layout(&c->out, c->src.input.compression || c->src.input.log_compression ||
			   c->src.input.md.version ? &xls_csv_info_md : &xls_csv_info);
	/* info prints totals, not each finding */
	c->findings_mode = XLS_FINDINGS_COUNT;
	ic->c = c;
	rc = xls_scan(&c->log, &c->ht, XLS_ITER_LSN, &sink, &tot, err);
	xls_fields_reset(&fs);
	xls_describe_geometry(&c->src, &c->log, &c->ht, &fs);
	xls_describe_scan_totals(&tot, c->findings, &fs);
	if (c->opt->fmt == XLS_FMT_TEXT)
		xls_out_pairs(&c->out, &fs, 22, "");
	else
		xls_cmd_record(c, XR(info), &fs);
	return rc;
}

static int info_main(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .ctx_size = sizeof(struct info_ctx),
			   .run = run }, err);
}

const struct xls_command xls_command_info = {
	.name = "info", .args_doc = "DEV", .nargs = 1,
	.doc = "Show the log's geometry, head and tail, state and what it holds.",
	.summary = "geometry, head, tail, state, counts",
	.takes = XLS_TAKES_LOGDEV | XLS_TAKES_OUTPUT | XLS_TAKES_MOUNTED,
	.run = info_main,
};
