/*
 * recover: a dry run of log recovery.  The cancel table of pass 1, then
 * every committed transaction in recovery order with each item in the order
 * recovery takes it and, for each buffer, what recovery does and why;
 * transactions recovery drops; intents it would finish; a summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "cmd/cmd.h"
#include "report/describe_buf.h"
#include "report/describe_recover.h"
#include "cmd/options.h"
#include "semantics/owner.h"
#include "recover/recover.h"
#include "report/verdict.h"

struct recover_ctx {
	struct xls_cmd		*c;
	struct xls_recover	*r;
	struct xls_owner_map	owners;
	struct xls_owner	owner;		/* of the buffer item at hand */
	const struct xls_rtrans	*pending;	/* header not yet printed */
	bool			cancel_heading;
	bool			intent_heading;
	struct xls_fieldset	fs;
};

static bool text(const struct recover_ctx *rc)
{
	return rc->c->out.fmt == XLS_FMT_TEXT;
}

/* A row of the items' table, on the writer thread when there is one. */
static void put_row(struct xls_out *o, const void *arg, const struct xls_fieldset *fs)
{
	(void)arg;
	xls_out_row(o, &xls_text_ritem, fs);
}

/*
 * A filter of items (--blkno, --type, --size, --ino): a transaction, an
 * intent is shown only with an item that passes it.
 */
/* recover's own options */
struct recover_opts {
	bool	verbose;	/* -v: each buffer's dirty map */
	bool	summary;	/* --summary: the verdict and the summary only */
};

static const struct recover_opts *own(const struct xls_options *o)
{
	return o->own;
}

static bool filters_items(const struct xls_filter_opts *f)
{
	return f->has_blkno || f->type_mask || f->has_size || f->has_ino;
}

static bool wanted(const struct recover_ctx *rc, const struct xls_trans *t,
		   const struct xls_ritem *ri)
{
	const struct xls_options *o = rc->c->opt;

	if (o->filter.has_tid && t->tid != o->filter.tid)
		return false;
	if (o->filter.has_ino && !(ri->buf && xls_owner_has_ino(&rc->owner, o->filter.ino)) &&
	    !(ri->has_ino && ri->ino == o->filter.ino))
		return false;
	if (o->filter.has_blkno && !(ri->buf && ri->buf->blkno == o->filter.blkno) &&
	    !(ri->has_ino && ri->ino_blkno == o->filter.blkno))
		return false;
	if ((o->filter.type_mask || o->filter.has_size) &&
	    !(ri->buf && xls_cmd_buf_wanted(o, ri->buf->blft, ri->buf->len * 512u)))
		return false;
	return true;
}

/* ------------------------------------------------------------------ */
/* cancel table */

static int on_cancel(void *ctx, const struct xls_rcancel *cn)
{
	struct recover_ctx *rc = ctx;
	struct xls_fieldset *fs = &rc->fs;
	struct xls_out *o;

	if (own(rc->c->opt)->summary || rc->c->opt->filter.has_ino ||
	    (rc->c->opt->filter.has_blkno && cn->blkno != rc->c->opt->filter.blkno))
		return 0;
	if (rc->c->out.fmt == XLS_FMT_CSV)
		return 0;
	xls_fields_reset(fs);
	xls_describe_rcancel(cn, fs);
	if (!text(rc)) {
		xls_cmd_record(rc->c, XR(cancel), fs);
		return 0;
	}
	o = xls_cmd_out(rc->c);
	if (!rc->cancel_heading) {
		xls_out_title(o, false, "Cancel table after pass 1 (buffers whose earlier "
			      "log items are not replayed)");
		xls_out_heading(o, &xls_text_cancel);
		rc->cancel_heading = true;
	}
	xls_out_row(o, &xls_text_cancel, fs);
	return 0;
}

/* ------------------------------------------------------------------ */
/* transactions */

static void print_trans_header(struct recover_ctx *rc, const struct xls_rtrans *rt)
{
	xls_print_rtrans(xls_cmd_out(rc->c), rt);
	xls_out_heading(xls_cmd_out(rc->c), &xls_text_ritem);
}

static int on_trans(void *ctx, const struct xls_rtrans *rt)
{
	struct recover_ctx *rc = ctx;
	const struct xls_options *opt = rc->c->opt;

	rc->pending = NULL;
	if (own(opt)->summary || (opt->filter.has_tid && rt->t->tid != opt->filter.tid))
		return 0;
	if (rc->c->out.fmt == XLS_FMT_CSV)
		return 0;
	if (!text(rc)) {
		if (filters_items(&opt->filter))
			return 0;
		xls_fields_reset(&rc->fs);
		xls_describe_rtrans(rt, &rc->fs);
		xls_cmd_record(rc->c, XR(rtrans), &rc->fs);
		return 0;
	}
	if (rt->replayed) {
		/* printed with its first item that passes the filters */
		rc->pending = rt;
		return 0;
	}
	if (filters_items(&opt->filter))
		return 0;
	xls_print_rtrans(xls_cmd_out(rc->c), rt);
	return 0;
}

/* ------------------------------------------------------------------ */
/* items */

static int on_item(void *ctx, const struct xls_rtrans *rt, const struct xls_ritem *ri)
{
	struct recover_ctx *rc = ctx;
	struct xls_cmd *c = rc->c;
	struct xls_fieldset *fs = &rc->fs;

	if (ri->fail_why)
		c->findings++;
	if (own(c->opt)->summary)
		return 0;
	if (ri->buf)
		xls_owner_of(&rc->owners, ri->buf->blkno, ri->buf->len, ri->buf->blft,
			     ri->buf->head, ri->buf->head_len, &rc->owner);
	if (!wanted(rc, rt->t, ri))
		return 0;
	c->shown++;
	xls_fields_reset(fs);
	if (c->out.fmt == XLS_FMT_CSV) {
		xls_describe_ritem_csv(rt, ri, fs);
		if (ri->buf)
			xls_describe_owner(&rc->owner, false, fs);
		xls_cmd_record(c, XR(ritem), fs);
		return 0;
	}
	if (!text(rc)) {
		xls_describe_ritem(rt->t, ri, fs);
		if (ri->buf)
			xls_describe_owner(&rc->owner, false, fs);
		xls_cmd_record(c, XR(ritem), fs);
		return 0;
	}
	if (rc->pending == rt) {
		print_trans_header(rc, rt);
		rc->pending = NULL;
	}
	xls_fields_reset(fs);
	xls_describe_ritem_row(ri, fs);
	xls_cmd_put(c, put_row, NULL, 0, fs);
	xls_print_ritem_notes(xls_cmd_out(c), ri, own(c->opt)->verbose);
	return 0;
}

/* ------------------------------------------------------------------ */
/* write-backs */

static bool writeback_wanted(const struct xls_options *o, const struct xls_rwriteback *wb)
{
	if (o->filter.has_tid || o->filter.type_mask || o->filter.has_size || o->filter.has_ino)
		return false;
	if (!o->filter.has_blkno)
		return true;
	if (wb->fails && wb->fail.blkno == o->filter.blkno)
		return true;
	for (uint32_t i = 0; i < wb->nnoops; i++)
		if (wb->noops[i].blkno == o->filter.blkno)
			return true;
	return false;
}

static int on_writeback(void *ctx, const struct xls_rwriteback *wb)
{
	struct recover_ctx *rc = ctx;

	if (rc->c->out.fmt == XLS_FMT_CSV || own(rc->c->opt)->summary ||
	    !writeback_wanted(rc->c->opt, wb))
		return 0;
	if (!text(rc)) {
		xls_fields_reset(&rc->fs);
		xls_describe_rwriteback(wb, &rc->fs);
		xls_cmd_record(rc->c, XR(writeback), &rc->fs);
		return 0;
	}
	xls_print_rwriteback(xls_cmd_out(rc->c), wb);
	return 0;
}

/* ------------------------------------------------------------------ */
/* intents, findings, summary */

static int on_intent(void *ctx, const struct xls_rintent *in)
{
	struct recover_ctx *rc = ctx;
	struct xls_fieldset *fs = &rc->fs;
	const struct xls_filter_opts *f = &rc->c->opt->filter;

	if (rc->c->out.fmt == XLS_FMT_CSV || own(rc->c->opt)->summary || filters_items(f))
		return 0;
	if (f->has_tid && (in->type == XFS_LI_IUNLINK || in->tid != f->tid))
		return 0;
	xls_fields_reset(fs);
	xls_describe_rintent(in, fs);
	if (!text(rc)) {
		xls_cmd_record(rc->c, XR(intent), fs);
		return 0;
	}
	xls_print_rintent(xls_cmd_out(rc->c), in, !rc->intent_heading);
	rc->intent_heading = true;
	return 0;
}

/* The verdict first, the summary's figures at the end of the text. */
static void print_summary(struct recover_ctx *rc, const struct xls_recover_summary *s,
			  bool at_end)
{
	struct xls_fieldset *fs = &rc->fs;
	struct xls_out *o = &rc->c->out;

	xls_fields_reset(fs);
	xls_describe_rsummary(s, fs);
	if (rc->c->out.fmt == XLS_FMT_JSON) {
		if (!at_end)
			xls_cmd_record(rc->c, XR(summary), fs);
		return;
	}
	if (rc->c->out.fmt == XLS_FMT_CSV) {
		if (own(rc->c->opt)->summary)
			xls_cmd_record(rc->c, XR(summary), fs);
		else if (s->fails && at_end)
			fprintf(stderr, "xfs_logscope: %s: recovery would fail: %s\n",
				rc->c->src.path, s->fail_why);
		return;
	}
	if (!at_end) {
		xls_print_verdict(o, s, rc->c->ht.state, XLS_VERDICT_WHOLE);
		return;
	}
	xls_out_title(o, true, "Summary");
	xls_out_pairs(&rc->c->out, fs, 24, "  ");
}

/*
 * The verdict comes first, but is known only at the end: the items go to a
 * spool, which follows it.  Without a spool, the verdict ends the output.
 */
static int run_recover(struct recover_ctx *rc, struct xls_recover *r,
		       const struct xls_recover_sink *sink, struct xls_error *err)
{
	struct xls_cmd *c = rc->c;
	bool spooled = false;
	FILE *spool = NULL;
	int status;

	if (c->out.fmt != XLS_FMT_CSV && !own(c->opt)->summary) {
		spool = xls_spool_new();
		if (spool && xls_out_finish(&c->out) == 0) {
			xls_out_init(&c->out, spool, c->out.fmt);
			spooled = true;
		} else {
			fprintf(stderr, "xfs_logscope: no temporary file for the items (%s): "
				"the verdict comes last\n", strerror(errno));
		}
	}
	/* the items, and what comes between them, on the writer thread */
	if (!own(c->opt)->summary && xls_cmd_writer_start(c))
		status = xls_error_set(err, XLS_EXIT_INTERNAL,
				       "out of memory for the thread that writes the items");
	else
		status = xls_recover_run(r, &c->log, &c->ht, sink, err);
	xls_cmd_writer_stop(c);
	if (spooled) {
		xls_out_finish(&c->out);
		xls_out_init(&c->out, stdout, c->out.fmt);
		if (!status)
			print_summary(rc, xls_recover_summary(r), false);
		if (xls_out_finish(&c->out) || xls_unspool(spool, stdout))
			status = xls_error_set(err, XLS_EXIT_INTERNAL,
					       "cannot copy the spooled items to standard output: %s",
					       strerror(errno));
	} else if (!status && (own(c->opt)->summary || c->out.fmt != XLS_FMT_CSV)) {
		print_summary(rc, xls_recover_summary(r), false);
	}
	if (spool)
		fclose(spool);
	if (!status && (!own(c->opt)->summary || c->out.fmt == XLS_FMT_TEXT))
		print_summary(rc, xls_recover_summary(r), true);
	return status;
}

static int run(struct xls_cmd *c, void *ctx, struct xls_error *err)
{
	struct recover_ctx *rc = ctx;
	const struct xls_options *opt = c->opt;
	struct xls_recover_sink sink = {
		.ctx = rc, .cancel = on_cancel, .trans = on_trans, .item = on_item,
		.writeback = on_writeback, .intent = on_intent, .report = &c->report,
	};
	int status;

	rc->c = c;
	if (!own(opt)->summary)
		xls_cmd_filters(c, "item");
	xls_owner_map_init(&rc->owners, &c->src);
	if (own(opt)->summary)
		c->findings_mode = XLS_FINDINGS_COUNT;
	xls_out_csv_layout(&c->out, !own(opt)->summary ? &xls_csv_ritem :
			   c->src.input.md.version ? &xls_csv_rsummary_md : &xls_csv_rsummary);
	/* the summary shows no item: their detail sentences go unwritten */
	rc->r = xls_recover_new(&c->src, &(struct xls_recover_opts){ .quiet = own(opt)->summary,
							       .quota = opt->quota },
				err);
	status = rc->r ? run_recover(rc, rc->r, &sink, err) : -1;
	/* a mount that fails after recovery fails as much as recovery that fails */
	if (!status && (xls_recover_summary(rc->r)->fails ||
			xls_recover_summary(rc->r)->mount_fails_after))
		c->findings++;
	return status;
}

static void release(void *ctx)
{
	struct recover_ctx *rc = ctx;

	xls_recover_free(rc->r);
	xls_owner_map_release(&rc->owners);
}

static int recover_main(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .ctx_size = sizeof(struct recover_ctx),
			   .run = run, .release = release }, err);
}

static const struct argp_option recover_options[] = {
	{ "verbose", 'v', NULL, 0, "each buffer's dirty map", 3 },
	XLS_OPTION_TYPE,
	XLS_OPTION_SIZE,
	XLS_OPTION_BLKNO,
	XLS_OPTION_TID,
	{ "ino", XLS_OPT_INO, "INO", 0, "only show the items of this inode: its inode items and the buffers it owns", 3 },
	{ "summary", XLS_OPT_OWN, NULL, 0, "only the verdict and the summary", 3 },
	XLS_OPTION_QUOTA,
	{ 0 }
};

static error_t recover_parse(int key, char *arg, struct argp_state *state)
{
	struct recover_opts *ro = xls_cmdline(state)->own;

	switch (key) {
	case 'v':		ro->verbose = true; return 0;
	case XLS_OPT_OWN:	ro->summary = true; return 0;
	default:		return xls_opt_parse_shared(key, arg, state);
	}
}

const struct xls_command xls_command_recover = {
	.name = "recover", .args_doc = "DEV", .nargs = 1,
	.doc = "What log recovery would do, item by item: cancel table, replay or skip and why, pending intents.",
	.summary = "what log recovery would replay, skip or cancel, and why",
	.takes = XLS_TAKES_LOGDEV | XLS_TAKES_OUTPUT | XLS_TAKES_MOUNTED | XLS_REFUSES_STALE,
	.options = recover_options, .parse = recover_parse,
	.own_size = sizeof(struct recover_opts), .run = recover_main,
};
