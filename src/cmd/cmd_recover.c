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
#include "cmd/cmd.h"
#include "items/item.h"
#include "recover/recover.h"

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
	const struct xls_rtrans	*pending;	/* header not yet printed */
	bool			cancel_heading;
	bool			items_heading;
	bool			intent_heading;
	bool			discard_heading;
	struct xls_fieldset	fs;
};

static bool text(const struct recover_ctx *rc)
{
	return rc->c->out.fmt == XLS_FMT_TEXT;
}

/* The short list names of the text table. */
static const char *list_short(enum xls_rlist l)
{
	switch (l) {
	case XLS_RL_BUFFER:	return "buf";
	case XLS_RL_ITEM:	return "item";
	case XLS_RL_INODE_BUF:	return "ibuf";
	case XLS_RL_CANCEL:	return "cancel";
	}
	return "?";
}

static bool wanted(const struct xls_options *o, const struct xls_trans *t,
		   const struct xls_ritem *ri)
{
	if (o->has_tid && t->tid != o->tid)
		return false;
	if (o->has_blkno && !(ri->buf && ri->buf->blkno == o->blkno) &&
	    !(ri->has_ino && ri->ino_blkno == o->blkno))
		return false;
	if (o->type_filter && !(ri->buf &&
				strcmp(o->type_filter, xls_blft_name(ri->buf->blft)) == 0))
		return false;
	return true;
}

static void flags_str(uint16_t flags, char *buf, size_t bufsz)
{
	xls_blf_flags_str(flags, buf, bufsz);
	if (strcmp(buf, "0") == 0)
		buf[0] = '\0';
}

/* ------------------------------------------------------------------ */
/* cancel table */

static int on_cancel(void *ctx, const struct xls_rcancel *cn)
{
	struct recover_ctx *rc = ctx;
	struct xls_fieldset *fs = &rc->fs;

	if (rc->c->opt->has_blkno && cn->blkno != rc->c->opt->blkno)
		return 0;
	if (rc->c->out.fmt == XLS_FMT_CSV)
		return 0;
	xls_fields_reset(fs);
	xls_field_hex(fs, "blkno", (uint64_t)cn->blkno);
	xls_field_uint(fs, "len", (uint64_t)cn->len * 512);
	xls_field_uint(fs, "refs", cn->refs);
	if (!text(rc)) {
		xls_out_record(&rc->c->out, "cancel", fs);
		return 0;
	}
	if (!rc->cancel_heading) {
		fprintf(rc->c->out.f, "Cancel table after pass 1 (buffers whose earlier log items are not replayed)\n");
		xls_out_table_heading(rc->c->out.f, cancel_columns, NCANCELCOLS);
		rc->cancel_heading = true;
	}
	xls_out_table_row(rc->c->out.f, cancel_columns, NCANCELCOLS, fs);
	return 0;
}

/* ------------------------------------------------------------------ */
/* transactions */

static void trans_fields(const struct xls_rtrans *rt, struct xls_fieldset *fs)
{
	const struct xls_trans *t = rt->t;

	xls_field_hex(fs, "tid", t->tid);
	xls_field_lsn(fs, "lsn", t->lsn);
	if (t->commit_lsn)
		xls_field_lsn(fs, "commit_lsn", t->commit_lsn);
	xls_field_str(fs, "state", xls_trans_state_name(t->state));
	xls_field_str(fs, "outcome", rt->replayed ? "replayed" :
		      t->state == XLS_TRANS_CORRUPT ? "corrupt" : "discarded");
	xls_field_uint(fs, "seq", rt->seq);
	xls_field_uint(fs, "items", rt->nitems);
	xls_field_uint(fs, "buffers_written_first", rt->flushed);
	if (t->why)
		xls_field_str(fs, "why", t->why);
}

static void print_trans_header(struct recover_ctx *rc, const struct xls_rtrans *rt)
{
	FILE *f = rc->c->out.f;
	const struct xls_trans *t = rt->t;

	fprintf(f, "\ntrans 0x%08x  lsn %u/%u", t->tid, xls_lsn_cycle(t->lsn),
		xls_lsn_block(t->lsn));
	if (t->commit_lsn)
		fprintf(f, "  commit %u/%u", xls_lsn_cycle(t->commit_lsn),
			xls_lsn_block(t->commit_lsn));
	fprintf(f, "  #%u  %u items", rt->seq, rt->nitems);
	if (rt->flushed)
		fprintf(f, "  (new LSN: the %u buffer%s replayed so far %s written first)",
			rt->flushed, rt->flushed == 1 ? "" : "s", rt->flushed == 1 ? "is" : "are");
	fputc('\n', f);
	xls_out_table_heading(f, item_columns, NITEMCOLS);
}

static int on_trans(void *ctx, const struct xls_rtrans *rt)
{
	struct recover_ctx *rc = ctx;
	const struct xls_options *o = rc->c->opt;
	FILE *f = rc->c->out.f;

	rc->pending = NULL;
	if (o->has_tid && rt->t->tid != o->tid)
		return 0;
	if (rc->c->out.fmt == XLS_FMT_CSV)
		return 0;
	if (!text(rc)) {
		if (o->has_blkno || o->type_filter)
			return 0;
		xls_fields_reset(&rc->fs);
		trans_fields(rt, &rc->fs);
		xls_out_record(&rc->c->out, "rtrans", &rc->fs);
		return 0;
	}
	if (rt->replayed) {
		/* printed with its first item that passes the filters */
		rc->pending = rt;
		return 0;
	}
	if (o->has_blkno || o->type_filter)
		return 0;
	fprintf(f, "\ntrans 0x%08x  lsn %u/%u  %s: %s, %u items\n", rt->t->tid,
		xls_lsn_cycle(rt->t->lsn), xls_lsn_block(rt->t->lsn),
		rt->t->state == XLS_TRANS_CORRUPT ? "corrupt" : "discarded",
		rt->t->state == XLS_TRANS_CORRUPT ?
		(rt->t->why ? rt->t->why : "recovery stops") :
		"no commit record, recovery drops it", rt->nitems);
	return 0;
}

/* ------------------------------------------------------------------ */
/* items */

static void unlinked_json(const struct xls_rbuf *b, struct xls_fieldset *fs)
{
	char json[4096], txt[1024];
	size_t jp = 0, tp = 0;

	jp += (size_t)snprintf(json, sizeof(json), "[");
	txt[0] = '\0';
	for (uint32_t i = 0; i < b->nunlinked && jp < sizeof(json) - 96; i++) {
		const struct xls_runlinked *u = &b->unlinked[i];

		jp += (size_t)snprintf(json + jp, sizeof(json) - jp,
				       "%s{\"slot\":%u,\"offset\":%u,\"value\":\"0x%x\",\"readable\":%s}",
				       i ? "," : "", u->slot, u->offset, u->value,
				       u->readable ? "true" : "false");
		if (tp < sizeof(txt) - 48)
			tp += (size_t)snprintf(txt + tp, sizeof(txt) - tp, "%s%u:0x%x",
					       i ? " " : "", u->slot, u->value);
	}
	snprintf(json + jp, sizeof(json) - jp, "]");
	xls_field_json(fs, "unlinked", json, txt);
}

static void buf_fields(const struct xls_ritem *ri, struct xls_fieldset *fs)
{
	const struct xls_rbuf *b = ri->buf;
	char flags[96];

	xls_field_hex(fs, "blkno", (uint64_t)b->blkno);
	xls_field_uint(fs, "len", (uint64_t)b->len * 512);
	xls_field_str(fs, "type", xls_blft_name(b->blft));
	flags_str(b->blf_flags, flags, sizeof(flags));
	xls_field_str(fs, "flags", flags);
	xls_field_uint(fs, "regions", b->res->nregions);
	xls_field_real(fs, "dirty_pct", b->dirty_pct);
	xls_field_str(fs, "block_state", !b->block_read ? "unread" :
		      b->from_replay ? "replayed" : "disk");
	if (b->magic_name && b->magic_name[0])
		xls_field_str(fs, "block_magic", b->magic_name);
	if (b->has_lsn)
		xls_field_lsn(fs, "block_lsn", b->block_lsn);
	xls_field_uint(fs, "cancel_refs", b->cancel_refs);
	if (b->kernel_warning)
		xls_field_str(fs, "kernel_warning", b->kernel_warning);
	if (b->compound) {
		xls_field_uint(fs, "compound", b->compound);
		xls_field_uint(fs, "seg", b->seg);
		xls_field_uint(fs, "nseg", b->nseg);
		xls_field_uint(fs, "block_bytes", b->block_bytes);
		xls_field_uint(fs, "seg_offset", b->seg_offset);
		xls_field_bool(fs, "seg_offset_exact", b->seg_offset_exact);
		xls_field_bool(fs, "block_start", b->block_start);
		if (b->seg_note)
			xls_field_str(fs, "seg_note", b->seg_note);
	}
	if (b->nunlinked)
		unlinked_json(b, fs);
}

static void item_fields(const struct xls_trans *t, const struct xls_ritem *ri,
			struct xls_fieldset *fs)
{
	const char *name = xls_item_type_name(ri->type);
	char dec[64];

	xls_field_hex(fs, "tid", t->tid);
	xls_field_lsn(fs, "lsn", t->lsn);
	xls_field_uint(fs, "order", ri->order);
	xls_field_uint(fs, "index", ri->index);
	xls_field_str(fs, "item", name ? name : "unknown");
	xls_field_str(fs, "list", xls_rlist_name(ri->list));
	xls_field_str(fs, "decision", xls_rdecision_key(ri->decision));
	xls_rdecision_text(ri, dec, sizeof(dec));
	xls_field_str(fs, "decision_text", dec);
	xls_field_str(fs, "reason", ri->reason ? ri->reason : "");
	if (ri->buf)
		buf_fields(ri, fs);
	if (ri->has_ino) {
		xls_field_hex(fs, "ino", ri->ino);
		xls_field_hex(fs, "ino_blkno", (uint64_t)ri->ino_blkno);
		xls_field_uint(fs, "ino_boffset", ri->ino_boffset);
	}
	if (ri->has_id)
		xls_field_hex(fs, "id", ri->id);
	xls_field_str(fs, "detail", ri->detail);
	if (ri->fail_why)
		xls_field_str(fs, "fail", ri->fail_why);
}

/* CSV: one fixed layout, buffer items only. */
static void csv_fields(const struct xls_rtrans *rt, const struct xls_ritem *ri,
		       struct xls_fieldset *fs)
{
	const struct xls_rbuf *b = ri->buf;
	char flags[96], dec[64];

	xls_field_hex(fs, "tid", rt->t->tid);
	xls_field_lsn(fs, "lsn", rt->t->lsn);
	xls_field_uint(fs, "seq", rt->seq);
	xls_field_uint(fs, "order", ri->order);
	xls_field_uint(fs, "index", ri->index);
	xls_field_str(fs, "list", xls_rlist_name(ri->list));
	xls_field_hex(fs, "blkno", (uint64_t)b->blkno);
	xls_field_uint(fs, "len", (uint64_t)b->len * 512);
	xls_field_str(fs, "type", xls_blft_name(b->blft));
	flags_str(b->blf_flags, flags, sizeof(flags));
	xls_field_str(fs, "flags", flags);
	xls_field_str(fs, "decision", xls_rdecision_key(ri->decision));
	xls_rdecision_text(ri, dec, sizeof(dec));
	xls_field_str(fs, "decision_text", dec);
	xls_field_str(fs, "reason", ri->reason ? ri->reason : "");
	xls_field_str(fs, "block_magic", b->magic_name ? b->magic_name : "");
	if (b->has_lsn)
		xls_field_lsn(fs, "block_lsn", b->block_lsn);
	else
		xls_field_str(fs, "block_lsn", "");
	xls_field_uint(fs, "cancel_refs", b->cancel_refs);
	xls_field_uint(fs, "compound", b->compound);
	xls_field_uint(fs, "seg", b->seg);
	xls_field_uint(fs, "nseg", b->nseg);
	xls_field_uint(fs, "seg_offset", b->seg_offset);
	xls_field_str(fs, "kernel_warning", b->kernel_warning ? b->kernel_warning : "");
	xls_field_str(fs, "fail", ri->fail_why ? ri->fail_why : "");
	xls_field_str(fs, "detail", ri->detail);
}

static void print_item_notes(struct recover_ctx *rc, const struct xls_ritem *ri)
{
	FILE *f = rc->c->out.f;
	const struct xls_rbuf *b = ri->buf;
	char map[160];

	if (b && b->compound) {
		fprintf(f, "%48s segment %u of %u of a %u-byte %s block, ", "",
			b->seg, b->nseg, b->block_bytes, xls_blft_name(b->blft));
		if (b->block_start)
			fprintf(f, "offset 0");
		else if (b->seg_offset_exact)
			fprintf(f, "offset %" PRIu64, b->seg_offset);
		else
			fprintf(f, "offset unknown (at least %" PRIu64 ")", b->seg_offset);
		fprintf(f, ": %s\n", b->seg_note ? b->seg_note : "");
	}
	if (b && b->kernel_warning)
		fprintf(f, "%48s ! kernel warns: %s\n", "", b->kernel_warning);
	if (ri->fail_why)
		fprintf(f, "%48s ! %s\n", "", ri->fail_why);
	if (b && b->nunlinked) {
		fprintf(f, "%48s di_next_unlinked to replay:", "");
		for (uint32_t i = 0; i < b->nunlinked; i++) {
			const struct xls_runlinked *u = &b->unlinked[i];

			if (u->value == 0xffffffffu)
				fprintf(f, " inode %u -> end", u->slot);
			else
				fprintf(f, " inode %u -> 0x%x", u->slot, u->value);
			if (!u->readable)
				fprintf(f, " (past its region)");
		}
		fputc('\n', f);
	}
	if (b && rc->c->opt->verbose && b->blf) {
		xls_region_map_str(b->blf, b->res, 128, map, sizeof(map));
		fprintf(f, "%48s map [%s]\n", "", map);
	}
}

static int on_item(void *ctx, const struct xls_rtrans *rt, const struct xls_ritem *ri)
{
	struct recover_ctx *rc = ctx;
	struct xls_cmd *c = rc->c;
	struct xls_fieldset *fs = &rc->fs;

	if (ri->fail_why)
		c->findings++;
	if (!wanted(c->opt, rt->t, ri))
		return 0;
	xls_fields_reset(fs);
	if (c->out.fmt == XLS_FMT_CSV) {
		if (!ri->buf)
			return 0;
		csv_fields(rt, ri, fs);
		xls_out_record(&c->out, "ritem", fs);
		return 0;
	}
	item_fields(rt->t, ri, fs);
	if (!text(rc)) {
		xls_out_record(&c->out, "ritem", fs);
		return 0;
	}
	if (rc->pending == rt) {
		print_trans_header(rc, rt);
		rc->pending = NULL;
	}
	xls_fields_reset(fs);
	xls_field_uint(fs, "order", ri->order);
	xls_field_uint(fs, "index", ri->index);
	xls_field_str(fs, "list", list_short(ri->list));
	xls_field_str(fs, "item", xls_item_type_name(ri->type) ?
		      xls_item_type_name(ri->type) : "unknown");
	if (ri->buf) {
		char dec[64];

		xls_field_hex(fs, "blkno", (uint64_t)ri->buf->blkno);
		xls_field_uint(fs, "len", (uint64_t)ri->buf->len * 512);
		xls_field_str(fs, "type", xls_blft_name(ri->buf->blft));
		xls_rdecision_text(ri, dec, sizeof(dec));
		xls_field_str(fs, "decision_text", dec);
	} else if (ri->decision != XLS_RD_NONE) {
		char dec[64];

		xls_rdecision_text(ri, dec, sizeof(dec));
		xls_field_str(fs, "decision_text", dec);
	}
	xls_field_str(fs, "detail", ri->detail);
	xls_out_table_row(c->out.f, item_columns, NITEMCOLS, fs);
	print_item_notes(rc, ri);
	return 0;
}

/* ------------------------------------------------------------------ */
/* intents, findings, summary */

static int on_intent(void *ctx, const struct xls_rintent *in)
{
	struct recover_ctx *rc = ctx;
	struct xls_fieldset *fs = &rc->fs;
	FILE *f = rc->c->out.f;

	if (rc->c->out.fmt == XLS_FMT_CSV || rc->c->opt->has_blkno ||
	    rc->c->opt->type_filter)
		return 0;
	if (rc->c->opt->has_tid && (in->type == XFS_LI_IUNLINK || in->tid != rc->c->opt->tid))
		return 0;
	xls_fields_reset(fs);
	xls_field_str(fs, "intent", in->kind);
	xls_field_hex(fs, "id", in->id);
	if (in->type != XFS_LI_IUNLINK) {
		xls_field_hex(fs, "tid", in->tid);
		xls_field_lsn(fs, "lsn", in->lsn);
	}
	xls_field_str(fs, "what", in->what);
	if (!text(rc)) {
		xls_out_record(&rc->c->out, "intent", fs);
		return 0;
	}
	if (!rc->intent_heading) {
		fprintf(f, "\nWork recovery would finish after replay\n");
		rc->intent_heading = true;
	}
	if (in->type == XFS_LI_IUNLINK)
		fprintf(f, "  %s\n", in->what);
	else
		fprintf(f, "  %s  (trans 0x%08x, lsn %u/%u)\n", in->what, in->tid,
			xls_lsn_cycle(in->lsn), xls_lsn_block(in->lsn));
	return 0;
}

static int on_finding(void *ctx, const struct xls_finding *f)
{
	struct recover_ctx *rc = ctx;

	return xls_cmd_finding(rc->c, f);
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct recover_ctx *rc = ctx;

	xls_cmd_progress(rc->c, done, total);
}

static void summary_fields(const struct xls_recover_summary *s,
			   struct xls_fieldset *fs)
{
	xls_field_uint(fs, "trans_replayed", s->trans_replayed);
	xls_field_uint(fs, "trans_discarded", s->trans_discarded);
	xls_field_uint(fs, "trans_corrupt", s->trans_corrupt);
	xls_field_uint(fs, "items", s->items);
	xls_field_uint(fs, "buffers", s->buffers);
	xls_field_uint(fs, "replay", s->decisions[XLS_RD_REPLAY]);
	xls_field_uint(fs, "replay_always", s->decisions[XLS_RD_REPLAY_ALWAYS]);
	for (unsigned int i = 0; xls_rreason_name(i); i++) {
		static const char *const keys[] = {
			"always_v4", "always_inode_buf", "always_dquot_buf",
			"always_attr_rmt", "always_unknown_magic", "always_foreign_uuid",
			"always_rt_no_header", "always_lsn_null", "always_unread",
		};

		if (i < sizeof(keys) / sizeof(keys[0]))
			xls_field_uint(fs, keys[i], s->always_by_reason[i]);
	}
	xls_field_uint(fs, "skip_cancelled", s->decisions[XLS_RD_SKIP_CANCELLED]);
	xls_field_uint(fs, "skip_lsn", s->decisions[XLS_RD_SKIP_LSN]);
	xls_field_uint(fs, "cancel", s->decisions[XLS_RD_CANCEL]);
	xls_field_uint(fs, "skip_quotaoff", s->decisions[XLS_RD_SKIP_QUOTAOFF]);
	xls_field_uint(fs, "fail", s->decisions[XLS_RD_FAIL]);
	xls_field_uint(fs, "cancel_table_entries", s->cancel_entries);
	xls_field_uint(fs, "cancel_table_refs", s->cancel_refs);
	xls_field_uint(fs, "compound_buffers", s->compound_buffers);
	xls_field_uint(fs, "compound_segments", s->compound_segments);
	xls_field_uint(fs, "kernel_warnings", s->kernel_warnings);
	xls_field_uint(fs, "unlinked_fields", s->unlinked_fields);
	xls_field_uint(fs, "pending_work", s->intents_pending);
	xls_field_uint(fs, "buffers_touched", s->buffers_touched);
	xls_field_bool(fs, "recovery_fails", s->fails);
	if (s->fails) {
		xls_field_lsn(fs, "fail_lsn", s->fail_lsn);
		xls_field_str(fs, "fail_why", s->fail_why);
	}
}

static void print_summary(struct recover_ctx *rc, const struct xls_recover_summary *s)
{
	struct xls_fieldset *fs = &rc->fs;
	FILE *f = rc->c->out.f;
	char buf[320];

	xls_fields_reset(fs);
	summary_fields(s, fs);
	if (!text(rc)) {
		if (rc->c->out.fmt == XLS_FMT_JSON)
			xls_out_record(&rc->c->out, "summary", fs);
		else if (s->fails)
			fprintf(stderr, "xfs_logscope: %s: recovery would fail: %s\n",
				rc->c->src.path, s->fail_why);
		return;
	}
	fprintf(f, "\nSummary\n");
	for (unsigned int i = 0; i < fs->n; i++) {
		xls_field_format(&fs->f[i], buf, sizeof(buf));
		fprintf(f, "  %-24s %s\n", fs->f[i].key, buf);
	}
}

int xls_cmd_recover(const struct xls_options *opt, struct xls_error *err)
{
	struct recover_ctx *rc = calloc(1, sizeof(*rc));
	struct xls_recover_sink sink = {
		.ctx = rc, .cancel = on_cancel, .trans = on_trans, .item = on_item,
		.intent = on_intent, .finding = on_finding, .progress = on_progress,
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
	r = xls_recover_new(&c.src, NULL, err);
	status = r ? xls_recover_run(r, &c.log, &c.ht, &sink, err) : -1;
	if (!status) {
		print_summary(rc, xls_recover_summary(r));
		if (xls_recover_summary(r)->fails)
			c.findings++;
	}
	status = xls_cmd_status(&c, status, err);
	xls_recover_free(r);
	xls_cmd_close(&c);
	free(rc);
	return status;
}
