/* trans: each transaction with its items decoded. */
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "report/describe_item.h"
#include "report/describe_log.h"
#include "cmd/options.h"
#include "semantics/owner.h"

struct trans_ctx {
	struct xls_cmd		*c;
	struct xls_item_decoded	d;
	struct xls_fieldset	fs;
	/* --ino: the transaction's first item of the inode opens it */
	struct xls_owner_map	owners;
	struct xls_buf_analysis	ba;
	bool			shown;
};

static int on_begin(void *ctx, const struct xls_trans *t)
{
	struct trans_ctx *tc = ctx;

	tc->shown = false;
	if (tc->c->out.fmt == XLS_FMT_TEXT && !tc->c->opt->filter.has_ino)
		xls_print_trans_begin(&tc->c->out, t);
	return 0;
}

static int on_item(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct trans_ctx *tc = ctx;
	struct xls_cmd *c = tc->c;
	struct xls_fieldset *fs = &tc->fs;

	xls_fields_reset(fs);
	xls_item_decode(it, &tc->d);
	if (c->opt->filter.has_ino) {
		if (!xls_item_concerns_ino(&tc->owners, it, &tc->d, &tc->ba, c->opt->filter.ino))
			return 0;
		if (!tc->shown && c->out.fmt == XLS_FMT_TEXT)
			xls_print_trans_begin(&tc->c->out, t);
		tc->shown = true;
	}
	c->shown++;
	if (c->out.fmt != XLS_FMT_TEXT) {
		xls_field_hex(fs, XK(tid), t->tid);
		xls_field_lsn(fs, XK(lsn), t->lsn);
		xls_field_uint(fs, XK(index), t->nitems);
		if (c->opt->stale)
			xls_field_bool(fs, XK(stale), t->stale);
	}
	if (xls_describe_item(&tc->d, fs))
		c->findings++;
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_print_item(&c->out, t->nitems, &tc->d, fs);
	else
		xls_cmd_record(c, XR(item), fs);
	return 0;
}

static int on_end(void *ctx, const struct xls_trans *t)
{
	struct trans_ctx *tc = ctx;

	if (tc->c->opt->filter.has_ino && !tc->shown)
		return 0;
	if (tc->c->out.fmt == XLS_FMT_TEXT) {
		xls_print_trans_end(&tc->c->out, t);
		return 0;
	}
	xls_fields_reset(&tc->fs);
	xls_describe_trans(t, &tc->fs);
	if (tc->c->opt->stale)
		xls_field_bool(&tc->fs, XK(stale), t->stale);
	xls_cmd_record(tc->c, XR(trans), &tc->fs);
	return 0;
}

static int run(struct xls_cmd *c, void *ctx, struct xls_error *err)
{
	struct trans_ctx *tc = ctx;
	struct xls_scan_totals tot;
	struct xls_scan_sink sink = {
		.ctx = tc, .begin = on_begin, .item = on_item, .end = on_end,
		.want_trans = true, .report = &c->report,
	};

	xls_out_csv_layout(&c->out, &xls_csv_trans);
	xls_cmd_filters(c, "item");
	tc->c = c;
	xls_owner_map_init(&tc->owners, &c->src);
	return xls_cmd_scan(c, &sink, &tot, err);
}

static void release(void *ctx)
{
	struct trans_ctx *tc = ctx;

	xls_owner_map_release(&tc->owners);
}

static int trans_main(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .ctx_size = sizeof(struct trans_ctx),
			   .run = run, .release = release }, err);
}

static const struct argp_option trans_options[] = {
	{ "ino", XLS_OPT_INO, "INO", 0, "only the items that concern this inode (decimal, or 0x hex)", 3 },
	{ 0 }
};

const struct xls_command xls_command_trans = {
	.name = "trans", .args_doc = "DEV", .nargs = 1,
	.doc = "Each transaction with every item decoded.",
	.summary = "transactions and their items",
	.takes = XLS_TAKES_LOGDEV | XLS_TAKES_OUTPUT | XLS_TAKES_MOUNTED | XLS_TAKES_STALE,
	.options = trans_options, .run = trans_main,
};
