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
#include "cmd/cmd_async.h"
#include "semantics/owner.h"
#include "recover/recover.h"
#include "report/verdict.h"

static const struct xls_column item_columns[] = {
	XLS_COL(order, 5),
	XLS_COL(index, 5),
	XLS_COL(list, -6),
	XLS_COL_AS(item, "TYPE", -7),
	XLS_COL(blkno, 12),
	XLS_COL(len, 6),
	XLS_COL_AS(type, "BUFTYPE", -10),
	XLS_COL(decision_text, -30),
	XLS_COL(detail, -1),
};
#define NITEMCOLS (sizeof(item_columns) / sizeof(item_columns[0]))

static const struct xls_column cancel_columns[] = {
	XLS_COL(blkno, 14),
	XLS_COL(len, 8),
	XLS_COL(refs, 6),
};
#define NCANCELCOLS (sizeof(cancel_columns) / sizeof(cancel_columns[0]))

/*
 * The text is written by a thread of its own (cmd_async.h): a line per
 * item, 187 MB for a 1 GiB log, whose formatting was half of the decoding
 * thread's time while the read-ahead thread idled through pass 2.  The
 * decoding thread hands over each item's row as its fields, and the
 * transaction headers and notes as lines it formats itself (lines);
 * what else it writes (the cancel table, write-backs, intents) it writes
 * once the writer has caught up.
 */
enum queued_kind { QUEUED_ROW, QUEUED_LINES };

/* 8 bytes, so that what follows it in the batch is aligned for fields. */
struct queued_out {
	uint32_t	kind;
	uint32_t	n;		/* fields packed after it, or bytes of lines */
};

struct recover_ctx {
	struct xls_cmd		*c;
	struct xls_recover	*r;
	struct xls_owner_map	owners;
	struct xls_owner	owner;		/* of the buffer item at hand */
	const struct xls_rtrans	*pending;	/* header not yet printed */
	bool			cancel_heading;
	bool			intent_heading;
	struct xls_fieldset	fs;
	struct xls_async	*writer;	/* text items; NULL: written in place */
	struct xls_out		*lines;		/* with the writer: lines to hand over */
	struct xls_fieldset	writer_fs;	/* the writer thread's */
};

static bool text(const struct recover_ctx *rc)
{
	return rc->c->out.fmt == XLS_FMT_TEXT;
}

/* ------------------------------------------------------------------ */
/* the writer thread */

static void write_queued(void *ctx, const void *elem, const uint8_t *bytes)
{
	struct recover_ctx *rc = ctx;
	const struct queued_out *q = elem;

	if (q->kind == QUEUED_LINES) {
		xls_out_lines(&rc->c->out, (const char *)bytes, q->n);
		return;
	}
	xls_fields_unpack(&rc->writer_fs, q->n, bytes);
	xls_out_table_row(&rc->c->out, item_columns, NITEMCOLS, &rc->writer_fs);
}

/* Where the decoding thread formats the lines of an item or transaction. */
static struct xls_out *lines_out(struct recover_ctx *rc)
{
	return rc->writer ? rc->lines : &rc->c->out;
}

/* The output, for the decoding thread to write itself. */
static struct xls_out *direct_out(struct recover_ctx *rc)
{
	xls_async_drain(rc->writer);
	return &rc->c->out;
}

/* What lines_out() holds, handed over (or, too large for it, written). */
static void queue_lines(struct recover_ctx *rc)
{
	struct queued_out *q;
	const char *p;
	uint8_t *dst;
	size_t n;

	if (!rc->writer || !(n = xls_out_take(rc->lines, &p)))
		return;
	if (n <= UINT32_MAX && (q = xls_async_begin(rc->writer, (uint32_t)n, &dst))) {
		q->kind = QUEUED_LINES;
		q->n = (uint32_t)n;
		memcpy(dst, p, n);
		xls_async_end(rc->writer);
		return;
	}
	xls_out_lines(direct_out(rc), p, n);
}

/* An item's row, handed over (or, with a list or too large, written). */
static void queue_row(struct recover_ctx *rc, const struct xls_fieldset *fs)
{
	size_t bytes = rc->writer ? xls_fields_packed_size(fs) : 0;
	struct queued_out *q;
	uint8_t *dst;

	if (bytes && bytes <= UINT32_MAX &&
	    (q = xls_async_begin(rc->writer, (uint32_t)bytes, &dst))) {
		q->kind = QUEUED_ROW;
		q->n = fs->n;
		xls_fields_pack(fs, dst);
		xls_async_end(rc->writer);
		return;
	}
	xls_out_table_row(direct_out(rc), item_columns, NITEMCOLS, fs);
}

/*
 * A filter of items (--blkno, --type, --size, --ino): a transaction, an
 * intent is shown only with an item that passes it.
 */
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

	if (rc->c->opt->recover.summary || rc->c->opt->filter.has_ino ||
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
	o = direct_out(rc);
	if (!rc->cancel_heading) {
		xls_out_title(o, false, "Cancel table after pass 1 (buffers whose earlier "
			      "log items are not replayed)");
		xls_out_table_heading(o, cancel_columns, NCANCELCOLS);
		rc->cancel_heading = true;
	}
	xls_out_table_row(o, cancel_columns, NCANCELCOLS, fs);
	return 0;
}

/* ------------------------------------------------------------------ */
/* transactions */

static void print_trans_header(struct recover_ctx *rc, const struct xls_rtrans *rt)
{
	xls_print_rtrans(lines_out(rc), rt);
	xls_out_table_heading(lines_out(rc), item_columns, NITEMCOLS);
	queue_lines(rc);
}

static int on_trans(void *ctx, const struct xls_rtrans *rt)
{
	struct recover_ctx *rc = ctx;
	const struct xls_options *opt = rc->c->opt;

	rc->pending = NULL;
	if (opt->recover.summary || (opt->filter.has_tid && rt->t->tid != opt->filter.tid))
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
	xls_print_rtrans(lines_out(rc), rt);
	queue_lines(rc);
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
	if (c->opt->recover.summary)
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
	queue_row(rc, fs);
	xls_print_ritem_notes(lines_out(rc), ri, c->opt->verbose);
	queue_lines(rc);
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

	if (rc->c->out.fmt == XLS_FMT_CSV || rc->c->opt->recover.summary ||
	    !writeback_wanted(rc->c->opt, wb))
		return 0;
	if (!text(rc)) {
		xls_fields_reset(&rc->fs);
		xls_describe_rwriteback(wb, &rc->fs);
		xls_cmd_record(rc->c, XR(writeback), &rc->fs);
		return 0;
	}
	xls_print_rwriteback(direct_out(rc), wb);
	return 0;
}

/* ------------------------------------------------------------------ */
/* intents, findings, summary */

static int on_intent(void *ctx, const struct xls_rintent *in)
{
	struct recover_ctx *rc = ctx;
	struct xls_fieldset *fs = &rc->fs;
	const struct xls_filter_opts *f = &rc->c->opt->filter;

	if (rc->c->out.fmt == XLS_FMT_CSV || rc->c->opt->recover.summary || filters_items(f))
		return 0;
	if (f->has_tid && (in->type == XFS_LI_IUNLINK || in->tid != f->tid))
		return 0;
	xls_fields_reset(fs);
	xls_describe_rintent(in, fs);
	if (!text(rc)) {
		xls_cmd_record(rc->c, XR(intent), fs);
		return 0;
	}
	xls_print_rintent(direct_out(rc), in, !rc->intent_heading);
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
		if (rc->c->opt->recover.summary)
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

	if (c->out.fmt != XLS_FMT_CSV && !c->opt->recover.summary) {
		spool = xls_cmd_spool();
		if (spool && xls_out_finish(&c->out) == 0) {
			xls_out_init(&c->out, spool, c->out.fmt);
			spooled = true;
		} else {
			fprintf(stderr, "xfs_logscope: no temporary file for the items (%s): "
				"the verdict comes last\n", strerror(errno));
		}
	}
	status = xls_recover_run(r, &c->log, &c->ht, sink, err);
	xls_async_drain(rc->writer);
	if (spooled) {
		xls_out_finish(&c->out);
		xls_out_init(&c->out, stdout, c->out.fmt);
		if (!status)
			print_summary(rc, xls_recover_summary(r), false);
		if (xls_out_finish(&c->out) || xls_cmd_unspool(spool, stdout))
			status = xls_error_set(err, XLS_EXIT_INTERNAL,
					       "cannot copy the spooled items to standard output: %s",
					       strerror(errno));
	} else if (!status && (c->opt->recover.summary || c->out.fmt != XLS_FMT_CSV)) {
		print_summary(rc, xls_recover_summary(r), false);
	}
	if (spool)
		fclose(spool);
	if (!status && (!c->opt->recover.summary || c->out.fmt == XLS_FMT_TEXT))
		print_summary(rc, xls_recover_summary(r), true);
	return status;
}

/* The writer thread, for the text of the items when a thread pays. */
static int start_writer(struct recover_ctx *rc)
{
	struct xls_cmd *c = rc->c;
	struct xls_async_sink sink = { .ctx = rc, .write = write_queued };

	if (!text(rc) || c->opt->recover.summary || !xls_scan_threaded(&c->log, &c->ht))
		return 0;
	rc->lines = malloc(sizeof(*rc->lines));
	rc->writer = rc->lines ? xls_async_new(sizeof(struct queued_out), true, &sink) : NULL;
	if (!rc->writer)
		return -1;
	xls_out_init(rc->lines, NULL, XLS_FMT_TEXT);
	return 0;
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
	if (!opt->recover.summary)
		xls_cmd_filters(c, "item");
	if (start_writer(rc))
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory");
	xls_owner_map_init(&rc->owners, &c->src);
	if (opt->recover.summary)
		c->findings_mode = XLS_FINDINGS_COUNT;
	xls_out_csv_layout(&c->out, !opt->recover.summary ? &xls_csv_ritem :
			   c->src.input.md.version ? &xls_csv_rsummary_md : &xls_csv_rsummary);
	/* the summary shows no item: their detail sentences go unwritten */
	rc->r = xls_recover_new(&c->src, &(struct xls_recover_opts){ .quiet = opt->recover.summary },
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

	xls_async_free(rc->writer);
	free(rc->lines);
	xls_recover_free(rc->r);
	xls_owner_map_release(&rc->owners);
}

int xls_cmd_recover(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .ctx_size = sizeof(struct recover_ctx),
			   .run = run, .release = release }, err);
}
