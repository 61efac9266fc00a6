/*
 * recover: a dry run of log recovery.  The cancel table of pass 1, then
 * every committed transaction in recovery order with each item in the order
 * recovery takes it and, for each buffer, what recovery does and why;
 * transactions recovery drops; intents it would finish; a summary.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "base/strfmt.h"
#include "cmd/cmd.h"
#include "semantics/owner.h"
#include "recover/recover.h"
#include "report/verdict.h"

static const struct xls_column item_columns[] = {
	{ "order",	"ORDER",	5 },
	{ "index",	"ITEM",		5 },
	{ "list",	"LIST",		-6 },
	{ "item",	"TYPE",		-7 },
	{ "blkno",	"BLKNO",	12 },
	{ "len",	"LEN",		6 },
	{ "type",	"BUFTYPE",	-10 },
	{ "decision_text", "DECISION",	-30 },
	{ "detail",	"DETAIL",	-1 },
};
#define NITEMCOLS (sizeof(item_columns) / sizeof(item_columns[0]))

static const struct xls_column cancel_columns[] = {
	{ "blkno",	"BLKNO",	14 },
	{ "len",	"LEN",		8 },
	{ "refs",	"REFS",		6 },
};
#define NCANCELCOLS (sizeof(cancel_columns) / sizeof(cancel_columns[0]))

struct recover_ctx {
	struct xls_cmd		*c;
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

static bool wanted(const struct recover_ctx *rc, const struct xls_trans *t,
		   const struct xls_ritem *ri)
{
	const struct xls_options *o = rc->c->opt;

	if (o->has_tid && t->tid != o->tid)
		return false;
	if (o->has_ino && !(ri->buf && xls_owner_has_ino(&rc->owner, o->ino)) &&
	    !(ri->has_ino && ri->ino == o->ino))
		return false;
	if (o->has_blkno && !(ri->buf && ri->buf->blkno == o->blkno) &&
	    !(ri->has_ino && ri->ino_blkno == o->blkno))
		return false;
	if ((o->type_mask || o->has_size) &&
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

	if (rc->c->opt->summary || rc->c->opt->has_ino ||
	    (rc->c->opt->has_blkno && cn->blkno != rc->c->opt->blkno))
		return 0;
	if (rc->c->out.fmt == XLS_FMT_CSV)
		return 0;
	xls_fields_reset(fs);
	xls_describe_rcancel(cn, fs);
	if (!text(rc)) {
		xls_cmd_record(rc->c, "cancel", fs);
		return 0;
	}
	if (!rc->cancel_heading) {
		xls_out_printf(&rc->c->out, "Cancel table after pass 1 (buffers whose earlier log items are not replayed)\n");
		xls_out_table_heading(&rc->c->out, cancel_columns, NCANCELCOLS);
		rc->cancel_heading = true;
	}
	xls_out_table_row(&rc->c->out, cancel_columns, NCANCELCOLS, fs);
	return 0;
}

/* ------------------------------------------------------------------ */
/* transactions */

static void print_trans_header(struct recover_ctx *rc, const struct xls_rtrans *rt)
{
	struct xls_out *o = &rc->c->out;
	const struct xls_trans *t = rt->t;

	xls_out_printf(o, "\ntrans 0x%08x  lsn %u/%u", t->tid, xls_lsn_cycle(t->lsn),
		xls_lsn_block(t->lsn));
	if (t->commit_lsn)
		xls_out_printf(o, "  commit %u/%u", xls_lsn_cycle(t->commit_lsn),
			xls_lsn_block(t->commit_lsn));
	xls_out_printf(o, "  #%u  %u items", rt->seq, rt->nitems);
	if (rt->flushed)
		xls_out_printf(o, "  (new LSN: the %u buffer%s replayed so far %s written first)",
			rt->flushed, rt->flushed == 1 ? "" : "s", rt->flushed == 1 ? "is" : "are");
	xls_out_printf(o, "\n");
	xls_out_table_heading(&rc->c->out, item_columns, NITEMCOLS);
}

static int on_trans(void *ctx, const struct xls_rtrans *rt)
{
	struct recover_ctx *rc = ctx;
	const struct xls_options *opt = rc->c->opt;

	rc->pending = NULL;
	if (opt->summary || (opt->has_tid && rt->t->tid != opt->tid))
		return 0;
	if (rc->c->out.fmt == XLS_FMT_CSV)
		return 0;
	if (!text(rc)) {
		if (opt->has_blkno || opt->type_mask || opt->has_size || opt->has_ino)
			return 0;
		xls_fields_reset(&rc->fs);
		xls_describe_rtrans(rt, &rc->fs);
		xls_cmd_record(rc->c, "rtrans", &rc->fs);
		return 0;
	}
	if (rt->replayed) {
		/* printed with its first item that passes the filters */
		rc->pending = rt;
		return 0;
	}
	if (opt->has_blkno || opt->type_mask || opt->has_size || opt->has_ino)
		return 0;
	xls_out_printf(&rc->c->out, "\ntrans 0x%08x  lsn %u/%u  %s: %s, %u items\n", rt->t->tid,
		xls_lsn_cycle(rt->t->lsn), xls_lsn_block(rt->t->lsn),
		rt->t->state == XLS_TRANS_CORRUPT ? "corrupt" : "discarded",
		rt->t->state == XLS_TRANS_CORRUPT ?
		(rt->t->why ? rt->t->why : "recovery stops") :
		"no commit record, recovery drops it", rt->nitems);
	return 0;
}

/* ------------------------------------------------------------------ */
/* items */

static void print_item_notes(struct recover_ctx *rc, const struct xls_ritem *ri)
{
	struct xls_out *o = &rc->c->out;
	const struct xls_rbuf *b = ri->buf;

	if (b && b->compound) {
		xls_out_printf(o, "%48s segment %u of %u of a %u-byte %s block, ", "",
			b->seg, b->nseg, b->block_bytes, xls_blft_name(b->blft));
		if (b->block_start)
			xls_out_printf(o, "offset 0");
		else if (b->seg_offset_exact)
			xls_out_printf(o, "offset %" PRIu64, b->seg_offset);
		else
			xls_out_printf(o, "offset unknown (at least %" PRIu64 ")", b->seg_offset);
		xls_out_printf(o, ": %s\n", b->seg_note ? b->seg_note : "");
	}
	if (b && b->kernel_warning)
		xls_out_printf(o, "%48s ! kernel warns: %s\n", "", b->kernel_warning);
	if (ri->fail_why)
		xls_out_printf(o, "%48s ! %s\n", "", ri->fail_why);
	if (ri->write_fails)
		xls_out_printf(o, "%48s ! when written, its verifier fails: %s\n", "",
			       ri->write_fails);
	if (b && b->nunlinked) {
		xls_out_printf(o, "%48s di_next_unlinked to replay:", "");
		for (uint32_t i = 0; i < b->nunlinked; i++) {
			const struct xls_runlinked *u = &b->unlinked[i];

			if (u->value == 0xffffffffu)
				xls_out_printf(o, " inode %u -> end", u->slot);
			else
				xls_out_printf(o, " inode %u -> 0x%x", u->slot, u->value);
			if (!u->readable)
				xls_out_printf(o, " (past its region)");
		}
		xls_out_printf(o, "\n");
	}
	if (b && rc->c->opt->verbose && b->blf) {
		char map[160];

		xls_region_map_str(b->blf, b->res, 128, map, sizeof(map));
		xls_out_printf(o, "%48s map [%s]\n", "", map);
	}
}

static int on_item(void *ctx, const struct xls_rtrans *rt, const struct xls_ritem *ri)
{
	struct recover_ctx *rc = ctx;
	struct xls_cmd *c = rc->c;
	struct xls_fieldset *fs = &rc->fs;

	if (ri->fail_why)
		c->findings++;
	if (c->opt->summary)
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
		xls_cmd_record(c, "ritem", fs);
		return 0;
	}
	if (!text(rc)) {
		xls_describe_ritem(rt->t, ri, fs);
		if (ri->buf)
			xls_describe_owner(&rc->owner, false, fs);
		xls_cmd_record(c, "ritem", fs);
		return 0;
	}
	if (rc->pending == rt) {
		print_trans_header(rc, rt);
		rc->pending = NULL;
	}
	xls_fields_reset(fs);
	xls_describe_ritem_row(ri, fs);
	xls_out_table_row(&c->out, item_columns, NITEMCOLS, fs);
	print_item_notes(rc, ri);
	return 0;
}

/* ------------------------------------------------------------------ */
/* write-backs */

static bool writeback_wanted(const struct xls_options *o, const struct xls_rwriteback *wb)
{
	if (o->has_tid || o->type_mask || o->has_size || o->has_ino)
		return false;
	if (!o->has_blkno)
		return true;
	if (wb->fails && wb->fail.blkno == o->blkno)
		return true;
	for (uint32_t i = 0; i < wb->nnoops; i++)
		if (wb->noops[i].blkno == o->blkno)
			return true;
	return false;
}

static int on_writeback(void *ctx, const struct xls_rwriteback *wb)
{
	struct recover_ctx *rc = ctx;
	struct xls_out *o = &rc->c->out;

	if (rc->c->out.fmt == XLS_FMT_CSV || rc->c->opt->summary ||
	    !writeback_wanted(rc->c->opt, wb))
		return 0;
	if (!text(rc)) {
		xls_fields_reset(&rc->fs);
		xls_describe_rwriteback(wb, &rc->fs);
		xls_cmd_record(rc->c, "writeback", &rc->fs);
		return 0;
	}
	xls_out_printf(o, "\nwrite-back of the %u buffer%s queued at LSN %u/%u, in daddr order",
		       wb->buffers, xls_plural(wb->buffers), xls_lsn_cycle(wb->lsn),
		       xls_lsn_block(wb->lsn));
	if (wb->next_lsn)
		xls_out_printf(o, " (a transaction at LSN %u/%u commits)\n",
			       xls_lsn_cycle(wb->next_lsn), xls_lsn_block(wb->next_lsn));
	else
		xls_out_printf(o, " (end of pass 2)\n");
	for (uint32_t i = 0; i < wb->nnoops; i++)
		xls_out_printf(o, "  ! kernel warns: xfs_buf_verify_write: no buf ops on daddr 0x%llx len %u\n",
			       (unsigned long long)wb->noops[i].blkno, wb->noops[i].len);
	if (wb->fails)
		xls_out_printf(o, "  ! daddr 0x%llx: the write verifier fails: %s "
			       "(replayed by transaction 0x%08x): metadata corruption, recovery "
			       "fails; %u buffer%s after it not written\n",
			       (unsigned long long)wb->fail.blkno, wb->fail_what, wb->fail_tid,
			       wb->not_written, wb->not_written == 1 ? "" : "s");
	return 0;
}

/* ------------------------------------------------------------------ */
/* intents, findings, summary */

static int on_intent(void *ctx, const struct xls_rintent *in)
{
	struct recover_ctx *rc = ctx;
	struct xls_fieldset *fs = &rc->fs;
	struct xls_out *o = &rc->c->out;

	if (rc->c->out.fmt == XLS_FMT_CSV || rc->c->opt->summary ||
	    rc->c->opt->has_blkno || rc->c->opt->type_mask || rc->c->opt->has_size ||
	    rc->c->opt->has_ino)
		return 0;
	if (rc->c->opt->has_tid && (in->type == XFS_LI_IUNLINK || in->tid != rc->c->opt->tid))
		return 0;
	xls_fields_reset(fs);
	xls_describe_rintent(in, fs);
	if (!text(rc)) {
		xls_cmd_record(rc->c, "intent", fs);
		return 0;
	}
	if (!rc->intent_heading) {
		xls_out_printf(o, "\nWork recovery would finish after replay\n");
		rc->intent_heading = true;
	}
	if (in->type == XFS_LI_IUNLINK)
		xls_out_printf(o, "  %s\n", in->what);
	else
		xls_out_printf(o, "  %s  (trans 0x%08x, lsn %u/%u)\n", in->what, in->tid,
			xls_lsn_cycle(in->lsn), xls_lsn_block(in->lsn));
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
			xls_cmd_record(rc->c, "summary", fs);
		return;
	}
	if (rc->c->out.fmt == XLS_FMT_CSV) {
		if (rc->c->opt->summary)
			xls_cmd_record(rc->c, "summary", fs);
		else if (s->fails && at_end)
			fprintf(stderr, "xfs_logscope: %s: recovery would fail: %s\n",
				rc->c->src.path, s->fail_why);
		return;
	}
	if (!at_end) {
		xls_print_verdict(o, s, rc->c->ht.state, XLS_VERDICT_WHOLE);
		return;
	}
	xls_out_printf(o, "\nSummary\n");
	xls_cmd_print_pairs(rc->c, fs, 24, "  ");
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

	if (c->out.fmt != XLS_FMT_CSV && !c->opt->summary) {
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
	if (spooled) {
		xls_out_finish(&c->out);
		xls_out_init(&c->out, stdout, c->out.fmt);
		if (!status)
			print_summary(rc, xls_recover_summary(r), false);
		if (xls_out_finish(&c->out) || xls_cmd_unspool(spool, stdout))
			status = xls_error_set(err, XLS_EXIT_INTERNAL,
					       "cannot copy the spooled items to standard output: %s",
					       strerror(errno));
	} else if (!status && (c->opt->summary || c->out.fmt != XLS_FMT_CSV)) {
		print_summary(rc, xls_recover_summary(r), false);
	}
	if (spool)
		fclose(spool);
	if (!status && (!c->opt->summary || c->out.fmt == XLS_FMT_TEXT))
		print_summary(rc, xls_recover_summary(r), true);
	return status;
}

int xls_cmd_recover(const struct xls_options *opt, struct xls_error *err)
{
	struct recover_ctx *rc = calloc(1, sizeof(*rc));
	struct xls_recover_sink sink = {
		.ctx = rc, .cancel = on_cancel, .trans = on_trans, .item = on_item,
		.writeback = on_writeback, .intent = on_intent,
	};
	struct xls_recover *r;
	struct xls_cmd c;
	int status;

	if (!rc)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory"), err->status;
	if (xls_cmd_open(&c, opt, err)) {
		free(rc);
		return err->status;
	}
	rc->c = &c;
	if (!opt->summary)
		xls_cmd_filters(&c, "item");
	xls_owner_map_init(&rc->owners, &c.src);
	sink.report = &c.report;
	if (opt->summary)
		c.findings_mode = XLS_FINDINGS_COUNT;
	xls_out_csv_layout(&c.out, !opt->summary ? &xls_csv_ritem :
			   c.src.input.md.version ? &xls_csv_rsummary_md : &xls_csv_rsummary);
	/* the summary shows no item: their detail sentences go unwritten */
	r = xls_recover_new(&c.src, &(struct xls_recover_opts){ .quiet = opt->summary }, err);
	status = r ? run_recover(rc, r, &sink, err) : -1;
	/* a mount that fails after recovery fails as much as recovery that fails */
	if (!status && (xls_recover_summary(r)->fails || xls_recover_summary(r)->mount_fails_after))
		c.findings++;
	status = xls_cmd_status(&c, status, err);
	xls_recover_free(r);
	xls_cmd_close(&c);
	xls_owner_map_release(&rc->owners);
	free(rc);
	return status;
}
