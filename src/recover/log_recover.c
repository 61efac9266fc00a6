/*
 * Recovery stage: a dry run of kernel log recovery, in the shape of
 * fs/xfs/xfs_log_recover.c.
 *
 *  - xlog_do_log_recovery(): pass 1 over tail..head, then pass 2; a
 *    transaction is acted on at its commit record and only then
 *    (xlog_recovery_process_trans); one without a commit record is dropped.
 *  - Each item is acted on by its family's xls_recover_ops (listed in
 *    capture.c), as the kernel's by its xlog_recover_item_ops.
 *  - Pass 1 (xlog_recover_commit_pass1): the cancel table of buffers
 *    (buf_recover.c), quotaoff (quota_recover.c), and what stops the pass: an item type with
 *    no recovery ops, a buffer format that cannot hold its bitmap
 *    (xfs_buf_log_check_iovec), a committed transaction with no items.
 *  - xlog_recover_reorder_trans(): buffers first, other items next (both in
 *    log order), then XFS_BLF_INODE_BUF buffers and cancel items, each of
 *    those two lists built by adding at the head, so last logged first.
 *  - xlog_recover_process_ophdr(): queued buffers are written (so stamped)
 *    when a commit record brings a new transaction LSN.
 *  - Intents stay in the AIL until their done item is replayed
 *    (xlog_recover_release_intent, intent_recover.c); those left are finished by
 *    xlog_recover_process_intents(), and the inodes still on AGI unlinked
 *    buckets by xlog_recover_process_iunlinks().
 *
 * Memory is bounded by the transactions open at once and by the number of
 * distinct buffers and pending intents, never by the length of the log.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recover/recover_priv.h"

/* ------------------------------------------------------------------ */
/* findings and failure */

static int recover_report(struct xls_recover *r, const struct xls_trans *t,
		  enum xls_finding_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int recover_report(struct xls_recover *r, const struct xls_trans *t,
		  enum xls_finding_kind kind, const char *fmt, ...)
{
	const struct xls_finding_at at = {
		.lsn = t ? t->lsn : 0, .has_tid = t != NULL, .tid = t ? t->tid : 0,
	};
	struct xls_finding f;
	va_list ap;

	va_start(ap, fmt);
	xls_finding_vmake(&f, kind, &at, fmt, ap);
	va_end(ap);
	return xls_report_finding(r->sink->report, &f);
}


/* ------------------------------------------------------------------ */
/* pass 1 */


static int pass1_commit(struct xls_recover *r, const struct xls_trans *t,
			struct tstore *ts);

static int pass1_end(struct xls_recover *r, const struct xls_trans *t)
{
	struct tstore *ts = xls_rstore_find(r, t, false);

	if (t->state == XLS_TRANS_CORRUPT)
		xls_recover_fail(r, t->lsn, XLS_RFAIL_PASS1_LOG, NULL,
		     "transaction 0x%08x at %u/%u is corrupt (%s): pass 1 stops",
		     t->tid, xls_lsn_cycle(t->lsn), xls_lsn_block(t->lsn),
		     t->why ? t->why : "?");
	/* the header alone is an item with no regions to the kernel */
	if (t->state == XLS_TRANS_COMMITTED && !t->nitems)
		xls_recover_fail(r, t->lsn, XLS_RFAIL_PASS1_LOG, NULL,
		     "transaction 0x%08x at %u/%u has no items: committed log item has no regions",
		     t->tid, xls_lsn_cycle(t->lsn), xls_lsn_block(t->lsn));
	if (!ts)
		return 0;
	if (t->state != XLS_TRANS_COMMITTED) {
		xls_rstore_release(r, ts);
		return 0;
	}
	return pass1_commit(r, t, ts);
}

/* A committed transaction in pass 1: cancel records, quotaoff, checks. */
static int pass1_commit(struct xls_recover *r, const struct xls_trans *t,
			struct tstore *ts)
{
	for (uint32_t i = 0; i < ts->nrecs; i++) {
		struct rrec scratch;
		const struct rrec *rec = xls_rstore_rec(ts, i, &scratch);
		const struct xls_recover_ops *ops;

		if (rec->unknown_type) {
			xls_recover_fail(r, t->lsn, XLS_RFAIL_PASS1_LOG, "unrecognized type of log operation",
			     "transaction 0x%08x: unrecognized type of log operation (0x%04x)",
			     t->tid, rec->type);
			continue;
		}
		ops = xls_recover_ops_of(rec->type);
		if (ops && ops->commit1)
			ops->commit1(r, t, rec);
	}
	xls_rstore_release(r, ts);
	return 0;
}

static int cmp_cancel(const void *a, const void *b)
{
	const struct xls_rcancel *x = a, *y = b;

	if (x->blkno != y->blkno)
		return x->blkno < y->blkno ? -1 : 1;
	return (x->len > y->len) - (x->len < y->len);
}

static int emit_cancel_table(struct xls_recover *r)
{
	struct xls_rcancel *c;
	uint32_t n = 0;
	int rc = 0;

	uint64_t blkno, len;
	uint32_t pos = 0, refs;

	r->sum.cancel_entries = r->cancel.used;
	if (!r->cancel.used)
		return 0;
	c = malloc(sizeof(*c) * r->cancel.used);
	if (!c)
		return -ENOMEM;
	while (n < r->cancel.used && xls_hashmap_next(&r->cancel, &pos, &blkno, &len, &refs)) {
		c[n].blkno = (int64_t)blkno;
		c[n].len = (uint32_t)len;
		c[n].refs = refs;
		r->sum.cancel_refs += refs;
		n++;
	}
	qsort(c, n, sizeof(*c), cmp_cancel);
	for (uint32_t i = 0; i < n && !rc && r->sink->cancel; i++)
		rc = r->sink->cancel(r->sink->ctx, &c[i]);
	free(c);
	return rc;
}


/* What recovery does with item @rec, by its family. */
static void decide_item(struct decide_ctx *d, const struct rrec *rec)
{
	const struct xls_recover_ops *ops = xls_recover_ops_of(rec->type);

	if (ops && ops->decide)
		ops->decide(d, rec);
	else if (!xls_item_type_find(rec->type))
		xls_rdetail(d, "unknown item type 0x%04x", rec->type);
}

/*
 * Does @rec write to the buffer kept for history?  Only what it writes
 * there is shown, so only those items need the detail sentence.
 */
static bool kept(const struct xls_recover *r, const struct rrec *rec)
{
	const struct xls_recover_ops *ops = xls_recover_ops_of(rec->type);

	return ops && ops->writes_kept && ops->writes_kept(r, rec);
}

/* Is buffer item @rb a refcount btree block, as it leaves the block? */
static bool is_refcount(const struct xls_rbuf *rb)
{
	if (rb->blft != XFS_BLFT_BTREE_BUF)
		return false;
	if (rb->head && rb->head_len >= 4)
		return xls_be32(rb->head) == XFS_REFC_CRC_MAGIC;
	return rb->magic == XFS_REFC_CRC_MAGIC;
}

/* What pass 3 will read of what this item replays. */
static void note_pending(struct xls_recover *r, const struct xls_ritem *ri)
{
	if (ri->buf && xls_replays(ri->decision)) {
		if (ri->buf->blf_flags & XFS_BLF_INODE_BUF)
			xls_pending_unlinked(r, ri->buf);
		else if (r->g->has_reflink && is_refcount(ri->buf))
			xls_pending_refcount(r, ri->buf);
	} else if (ri->icreate && ri->decision == XLS_RD_REPLAY) {
		xls_pending_icreate(r, ri);
	}
}

/*
 * A fresh item: all but its sentence cleared, which is emptied -- clearing
 * its 192 bytes for each of a million items was most of emit_item().
 */
static void ritem_reset(struct xls_ritem *ri)
{
	memset(ri, 0, offsetof(struct xls_ritem, detail));
	ri->detail[0] = '\0';
}

static int emit_item(struct decide_ctx *d, const struct rrec *rec, uint32_t order,
		     enum xls_rlist list)
{
	struct xls_recover *r = d->r;

	ritem_reset(&d->ri);
	d->ri.order = order;
	d->ri.index = rec->index;
	d->ri.type = rec->type;
	d->ri.list = list;
	d->ri.reason = XLS_RWHY_NONE;
	r->sum.items++;
	d->quiet = r->opt.quiet || (r->opt.keep && !kept(r, rec));
	decide_item(d, rec);
	if (rec->kept_inode) {
		struct rkept_inode k;

		/* the store's bytes are not aligned for it: copied out */
		xls_rstore_copy(r, d->ts, rec->kept_off, &k, sizeof(k));
		d->ino = k.ino;
		d->ino.dfork = xls_rstore_at(d->ts, k.dfork_off);
		d->ino.afork = xls_rstore_at(d->ts, k.afork_off);
		d->ri.inode = &d->ino;
	}
	if (rec->has_icl)
		d->ri.icreate = &rec->icl;
	if (rec->has_intent) {
		struct rkept_intent k;

		xls_rstore_copy(r, d->ts, rec->kept_off, &k, sizeof(k));
		d->intent = k.intent;
		d->intent.name = xls_rstore_at(d->ts, k.name_off);
		d->intent.new_name = xls_rstore_at(d->ts, k.new_name_off);
		d->ri.intent = &d->intent;
	}
	if (d->ri.decision < XLS_RD_COUNT)
		r->sum.decisions[d->ri.decision]++;
	if (d->ri.buf && d->ri.buf->nunlinked && d->ri.decision != XLS_RD_SKIP_CANCELLED &&
	    d->ri.decision != XLS_RD_SKIP_LSN)
		r->sum.unlinked_fields += d->ri.buf->nunlinked;
	note_pending(r, &d->ri);
	if (r->err)
		return r->err;
	return r->sink->item ? r->sink->item(r->sink->ctx, d->rt, &d->ri) : 0;
}

static enum xls_rlist rec_list(const struct rrec *rec)
{
	if (rec->type != XFS_LI_BUF || !rec->parsed)
		return rec->type == XFS_LI_BUF ? XLS_RL_BUFFER : XLS_RL_ITEM;
	if (rec->blf.blf_flags & XFS_BLF_CANCEL)
		return XLS_RL_CANCEL;
	if (rec->blf.blf_flags & XFS_BLF_INODE_BUF)
		return XLS_RL_INODE_BUF;
	return XLS_RL_BUFFER;
}

/* Emit the store's records of @list, from the first or from the last. */
static int emit_list(struct decide_ctx *d, enum xls_rlist list, bool backwards, uint32_t *order)
{
	struct tstore *ts = d->ts;
	struct rrec scratch;
	int rc = 0;

	for (uint32_t k = 0; k < ts->nrecs && !rc; k++) {
		uint32_t i = backwards ? ts->nrecs - 1 - k : k;
		const struct rrec *rec = xls_rstore_rec(ts, i, &scratch);

		if (rec_list(rec) == list)
			rc = emit_item(d, rec, ++*order, list);
	}
	return rc;
}

/* The items in the order xlog_recover_reorder_trans() leaves them. */
static int replay_trans(struct decide_ctx *d)
{
	uint32_t order = 0;
	int rc;

	rc = emit_list(d, XLS_RL_BUFFER, false, &order);
	if (!rc)
		rc = emit_list(d, XLS_RL_ITEM, false, &order);
	if (!rc)
		rc = emit_list(d, XLS_RL_INODE_BUF, true, &order);
	if (!rc)
		rc = emit_list(d, XLS_RL_CANCEL, true, &order);
	return rc;
}

/* Buffers of a transaction recovery drops, for the history of a buffer. */
static int discard_trans(struct decide_ctx *d)
{
	struct xls_recover *r = d->r;
	int rc = 0;

	for (uint32_t i = 0; i < d->ts->nrecs && !rc; i++) {
		struct rrec scratch;
		const struct rrec *rec = xls_rstore_rec(d->ts, i, &scratch);

		if (rec->type != XFS_LI_BUF || !rec->parsed || !r->sink->discarded_buf)
			continue;
		ritem_reset(&d->ri);
		d->ri.index = rec->index;
		d->ri.type = rec->type;
		d->ri.list = rec_list(rec);
		d->ri.reason = XLS_RWHY_NO_COMMIT;
		xls_rbuf_fill(d, rec);
		xls_rdetail(d, "%s",
			 d->t->state == XLS_TRANS_CORRUPT ?
			 "transaction is corrupt: recovery stops there" :
			 "transaction has no commit record: recovery drops it");
		rc = r->sink->discarded_buf(r->sink->ctx, d->t, &d->ri);
	}
	return rc;
}

/* The delwri list written; told when the kernel would say something. */
static int write_back(struct xls_recover *r, uint64_t next_lsn)
{
	struct xls_rwriteback wb;

	r->flush_before_trans = next_lsn != 0;
	xls_rstate_flush(r, &wb);
	wb.next_lsn = next_lsn;
	if (r->err)
		return r->err;
	if (r->sink_rc)
		return r->sink_rc;
	if (r->sink->flushed) {
		int rc = r->sink->flushed(r->sink->ctx);

		if (rc)
			return rc;
	}
	if ((wb.nnoops || wb.fails) && r->sink->writeback)
		return r->sink->writeback(r->sink->ctx, &wb);
	return 0;
}

static int pass2_end(struct xls_recover *r, const struct xls_trans *t)
{
	struct tstore *ts = xls_rstore_find(r, t, false);
	struct tstore empty;
	struct decide_ctx *d;
	struct xls_rtrans rt;
	int rc = 0;

	if (t->state == XLS_TRANS_UNMOUNT || t->state == XLS_TRANS_OPEN) {
		if (ts)
			xls_rstore_release(r, ts);
		return 0;
	}
	if (!ts) {
		memset(&empty, 0, sizeof(empty));
		ts = &empty;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	memset(&rt, 0, sizeof(rt));
	rt.t = t;
	rt.nitems = ts->nrecs;
	d->r = r;
	d->t = t;
	d->ts = ts;
	d->rt = &rt;
	if (t->state == XLS_TRANS_COMMITTED) {
		rt.replayed = true;
		rt.seq = ++r->seq;
		r->sum.trans_replayed++;
		/* xlog_recover_process_ophdr: write the queue on a new LSN */
		if (t->lsn != r->recovery_lsn) {
			rt.flushed = r->nqueue;
			rc = write_back(r, t->lsn);
			r->recovery_lsn = t->lsn;
		}
		xls_rbuf_find_compounds(r, ts);
		if (!rc && r->sink->trans)
			rc = r->sink->trans(r->sink->ctx, &rt);
		if (!rc)
			rc = replay_trans(d);
	} else {
		if (t->state == XLS_TRANS_CORRUPT)
			r->sum.trans_corrupt++;
		else
			r->sum.trans_discarded++;
		if (r->sink->trans)
			rc = r->sink->trans(r->sink->ctx, &rt);
		if (!rc)
			rc = discard_trans(d);
	}
	free(d);
	if (ts != &empty)
		xls_rstore_release(r, ts);
	return rc;
}

static int on_end(void *ctx, const struct xls_trans *t)
{
	struct xls_recover *r = ctx;
	int rc;

	rc = r->pass == 1 ? pass1_end(r, t) : pass2_end(r, t);
	if (!rc && r->err)
		rc = r->err;
	return rc;
}

static int on_finding(void *ctx, const struct xls_finding *f)
{
	struct xls_recover *r = ctx;

	if (r->pass != 1)
		return 0;
	/*
	 * What stops the kernel: a bad CRC (v5) or header anywhere from tail to
	 * head, beyond the records a torn write or a tail overwrite explains,
	 * already in xlog_find_tail's CRC pass; a bad op header in pass 1, or
	 * a record of another filesystem's UUID.
	 */
	if (f->kind == XLS_FIND_CRC && r->g->crc)
		xls_recover_fail(r, f->lsn, (struct xls_rfail){ XLS_RSTOP_TAIL, XLS_RCAUSE_LOG,
				 XLS_EFSBADCRC }, "failed to locate log tail", "%s", f->msg);
	else if (f->kind == XLS_FIND_HEADER)
		xls_recover_fail(r, f->lsn, (struct xls_rfail){ XLS_RSTOP_TAIL, XLS_RCAUSE_LOG,
				 XLS_EFSCORRUPTED }, "failed to locate log tail", "%s", f->msg);
	else if (f->kind == XLS_FIND_OP)
		xls_recover_fail(r, f->lsn, XLS_RFAIL_PASS1_LOG, NULL, "%s", f->msg);
	/* xlog_header_check_recover, on every record of pass 1: EIO, whatever it says */
	else if (f->kind == XLS_FIND_UUID)
		xls_recover_fail(r, f->lsn, (struct xls_rfail){ XLS_RSTOP_PASS1, XLS_RCAUSE_LOG,
				 XLS_EIO }, "dirty log entry has mismatched uuid - can't recover",
				 "%s", f->msg);
	return xls_report_finding(r->sink->report, f);
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct xls_recover *r = ctx;

	/* two scans of the same blocks: the first half, then the second */
	xls_report_progress(r->sink->report, r->pass == 1 ? done : total + done,
			    2 * total);
}

/* ------------------------------------------------------------------ */
/* after pass 2 */

static int emit_intents(struct xls_recover *r)
{
	struct xls_rintent in;
	int rc = 0;

	for (uint32_t i = 0; i < r->nintents && !rc; i++) {
		const struct rintent *p = &r->intents[i];

		if (p->done)
			continue;
		memset(&in, 0, sizeof(in));
		in.type = p->type;
		in.kind = xls_rintent_name(p->type);
		in.id = p->id;
		in.tid = p->tid;
		in.lsn = p->lsn;
		snprintf(in.what, sizeof(in.what), "%s 0x%llx has no %s: recovery finishes it",
			 xls_rintent_name(p->type), (unsigned long long)p->id,
			 xls_rintent_name((uint16_t)(p->type + 1)));
		xls_pending_intent(r, p->type);
		if (r->sink->intent)
			rc = r->sink->intent(r->sink->ctx, &in);
	}
	return rc;
}

/*
 * AGIs as recovery leaves them: inodes still on an unlinked bucket are
 * freed by xlog_recover_process_iunlinks() (only AGIs the log touched).
 */
static int emit_unlinked(struct xls_recover *r)
{
	struct xls_rintent in;
	int rc = 0;

	for (uint32_t i = 0; i < r->nstates && !rc; i++) {
		const struct rstate *st = &r->states[i];
		uint32_t off = offsetof(struct xfs_agi, agi_unlinked);

		/* no head: a cluster of new inodes, nothing else wrote it */
		if (!st->head || st->head_len < off + 4 * XFS_AGI_UNLINKED_BUCKETS ||
		    xls_be32(st->head) != XFS_AGI_MAGIC)
			continue;
		for (uint32_t b = 0; b < XFS_AGI_UNLINKED_BUCKETS && !rc; b++) {
			uint32_t agino = xls_be32(st->head + off + 4 * b);

			if (agino == NULL_AGINO)
				continue;
			memset(&in, 0, sizeof(in));
			in.type = XFS_LI_IUNLINK;
			in.kind = "unlinked";
			in.id = agino;
			snprintf(in.what, sizeof(in.what),
				 "AG %u unlinked bucket %u starts at agino 0x%x: recovery frees the inodes on it",
				 xls_be32(st->head + offsetof(struct xfs_agi, agi_seqno)), b, agino);
			if (r->sum.pending.log_only)
				r->sum.pending.unlinked_buckets++;
			if (r->sink->intent)
				rc = r->sink->intent(r->sink->ctx, &in);
		}
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* public */

struct xls_recover *xls_recover_new(const struct xls_source *src,
				    const struct xls_recover_opts *o,
				    struct xls_error *err)
{
	struct xls_recover *r = calloc(1, sizeof(*r));
	const char *quota_why;

	if (!r)
		goto nomem;
	r->src = src;
	r->g = &src->geo;
	r->sb_agcount = src->geo.ag_count;
	/* the superblock was read from the data device: its blocks can be */
	r->data_dev = src->geo.has_sb && xls_source_has_data(src);
	r->sum.no_data_device = !r->data_dev;
	r->sum.metadump = src->input.md.version != 0;
	if (o)
		r->opt = *o;
	quota_why = xls_quota_mount(r->g, &r->opt.quota, &r->sum.quota_flags,
				    &r->sum.quota_reset);
	if (quota_why) {
		char words[64];

		xls_quota_words(r->opt.quota.flags, words, sizeof(words));
		xls_recover_free(r);
		xls_error_set(err, XLS_EXIT_USAGE, "--quota=%s on '%s': %s", words, src->path,
			      quota_why);
		return NULL;
	}
	/* pass 3's CoW leftovers are counted in the refcount btree as replayed */
	if (r->g->has_reflink)
		r->opt.keep_types |= 1u << XFS_BLFT_BTREE_BUF;
	r->ba = malloc(sizeof(*r->ba));
	r->res = malloc(sizeof(*r->res));
	r->regs = calloc(XLS_MAX_REGIONS_IN_ITEM, sizeof(*r->regs));
	if (!r->ba || !r->res || !r->regs)
		goto nomem;
	return r;
nomem:
	xls_recover_free(r);
	xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the state of recovery");
	return NULL;
}

void xls_recover_free(struct xls_recover *r)
{
	if (!r)
		return;
	xls_rstore_free_all(r);
	xls_pending_release(r);
	xls_hashmap_free(&r->cancel);
	xls_hashmap_free(&r->bufidx);
	xls_hashmap_free(&r->intidx);
	xls_inoidx_free(&r->inolsn);
	xls_vec_free(r->lsns);
	xls_hashmap_free(&r->inobufs);
	free(r->diskinos);
	xls_vec_free(r->states);
	xls_vec_free(r->icreates);
	xls_arena_release(&r->heads);
	xls_vec_free(r->queue);
	free(r->order);
	xls_vec_free(r->noops);
	xls_vec_free(r->intents);
	xls_vec_free(r->pext);
	xls_vec_free(r->pxmi);
	xls_vec_free(r->pattr);
	xls_pool_free(&r->pbytes);
	free(r->ba);
	free(r->res);
	free(r->regs);
	free(r);
}

static int on_stale_gap(void *ctx, const struct xls_stale_gap *g)
{
	struct xls_recover *r = ctx;

	return r->sink->stale_gap(r->sink->ctx, g);
}

static int run_pass(struct xls_recover *r, int pass, struct xls_log *log,
		    const struct xls_head_tail *ht, struct xls_error *err)
{
	struct xls_report_sink report = {
		.ctx = r, .finding = on_finding, .progress = on_progress,
	};
	struct xls_scan_sink sink = {
		.ctx = r, .item = xls_recover_capture, .end = on_end, .report = &report,
		.want_trans = true,
	};
	struct xls_scan_totals tot;
	int rc;

	r->pass = pass;
	xls_rstore_release_all(r);
	/* the boundaries are the same in both passes: said by the second */
	if (pass == 2 && r->sink->stale_gap) {
		sink.stale_gap = on_stale_gap;
		sink.gap_ctx = r;
	}
	rc = xls_scan(log, ht, r->opt.stale ? XLS_ITER_STALE : XLS_ITER_LSN, &sink, &tot, err);
	xls_rstore_check_files(r);
	if (r->err == -EIO)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "cannot keep the items of an open "
				     "transaction in a temporary file in %s in pass %d of recovery: %s",
				     r->spill_dir ? r->spill_dir : "$TMPDIR", pass,
				     strerror(r->spill_errno ? r->spill_errno : EIO));
	if (rc == -ENOMEM || r->err == -ENOMEM)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the items held in "
				     "pass %d of recovery", pass);
	/*
	 * xlog_recover_process: a zero CRC passes the CRC verification pass
	 * (mkfs writes 0) but not the replay pass of a v5 filesystem.
	 */
	if (pass == 1 && tot.crc_zero && r->g->crc && !r->opt.stale)
		xls_recover_fail(r, 0, XLS_RFAIL_PASS1_LOG, "log record CRC mismatch: found 0x0",
		     "%llu record%s with a zero CRC: log record CRC mismatch, found 0x0",
		     (unsigned long long)tot.crc_zero, tot.crc_zero == 1 ? "" : "s");
	if (!rc && r->stores_full)
		rc = recover_report(r, NULL, XLS_FIND_TRANS_TABLE,
			    "more than %u transactions open at once: some items were not examined",
			    XLS_MAX_OPEN_TRANS);
	r->stores_full = false;
	return rc;
}

/*
 * xlog_verify_head: a bad CRC among the last records is a torn write, and
 * the head moves back before it; what committed in those records is not
 * recovered.  Which transactions those were, from the commit ops of the
 * records dropped -- a reading the kernel never makes, of records that
 * may themselves be torn: op headers that do not parse end the record.
 */
static int find_torn_commits(struct xls_recover *r, struct xls_log *log,
			     const struct xls_head_tail *ht, struct xls_error *err)
{
	struct xls_recover_summary *s = &r->sum;
	struct xls_rec_iter it;
	struct xls_rec rec;
	int res;

	if (!ht->torn || ht->found_head_blk == ht->head_blk)
		return 0;
	xls_rec_iter_init(&it, log, XLS_ITER_LSN, ht->head_blk, ht->found_head_blk);
	while ((res = xls_rec_iter_next(&it, &rec, err)) > 0) {
		struct xls_op_iter ops;
		struct xls_op op;

		if (res != XLS_ITER_RECORD)
			continue;
		if (!s->torn_records++)
			s->torn_lsn = rec.h_lsn;
		xls_op_iter_init(&ops, &rec);
		while (xls_op_iter_next(&ops, &op) > 0) {
			if (!(op.oh_flags & XLOG_COMMIT_TRANS))
				continue;
			if (s->torn_commits < XLS_TORN_TIDS)
				s->torn_tids[s->torn_commits] = op.oh_tid;
			s->torn_commits++;
		}
	}
	return res < 0 ? -1 : 0;
}

/*
 * xlog_do_recover reads the primary superblock back; the mount then sums
 * the AG headers it names (xfs_initialize_perag_data), and a superblock
 * grown past the device fails there.  Only a replayed superblock can.
 */
static void read_back_sb(struct xls_recover *r)
{
	struct xls_recover_summary *s = &r->sum;
	uint32_t len = r->g->data_sect_bbs ? r->g->data_sect_bbs : 1;
	uint32_t *idx = xls_hashmap_find(&r->bufidx, XFS_SB_DADDR, len);
	struct rstate *st = idx ? &r->states[*idx] : NULL;
	uint64_t bsize;

	if (s->fails || !st || !st->replayed || st->head_len < 512 || !r->g->data_bytes ||
	    !xls_rstate_head(r, st) || xls_sb_geometry_refused(st->head))
		return;
	s->mount_fail_ag = xls_sb_first_ag_past(st->head, r->g->data_bytes);
	s->mount_fails_after = s->mount_fail_ag != UINT32_MAX;
	bsize = xls_be32(st->head + offsetof(struct xfs_dsb, sb_blocksize));
	s->mount_fail_sb_bytes = xls_be64(st->head + offsetof(struct xfs_dsb, sb_dblocks)) * bsize;
}

/*
 * A mount that fails before it reaches the log (xfs_readsb, xfs_check_sizes)
 * says so in its own words only: no "log mount/recovery failed" follows.
 */
static void refuse_before_log(struct xls_recover *r, enum xls_rcause cause, int error,
			      const char *says, const char *why)
{
	struct xls_recover_summary *s = &r->sum;

	if (xls_recover_fail(r, 0, (struct xls_rfail){ XLS_RSTOP_MOUNT, cause, error }, says,
			     "%s", why))
		snprintf(s->kernel_says, sizeof(s->kernel_says), "\"%s\"", says);
}

/* xlog_recover: the superblock's LSN checked once the head is known. */
static void refuse_sb_lsn(struct xls_recover *r, const struct xls_head_tail *ht,
			  const char *why)
{
	char says[XLS_RECOVER_WHY];

	snprintf(says, sizeof(says), "Corruption warning: Metadata has LSN (%u:%u) ahead of "
		 "current LSN (%u:%u). Please unmount and run xfs_repair (>= v4.3) to resolve.",
		 xls_lsn_cycle(r->g->sb_lsn), xls_lsn_block(r->g->sb_lsn), ht->curr_cycle,
		 ht->curr_block);
	xls_recover_fail(r, 0, (struct xls_rfail){ XLS_RSTOP_MOUNT, XLS_RCAUSE_METADATA,
			 XLS_EINVAL }, says, "%s", why);
}

/* Refused while mounting the log, before pass 1. */
static void refuse_log(struct xls_recover *r, const struct xls_head_tail *ht)
{
	char why[XLS_RECOVER_WHY];

	switch (xls_log_refusal(ht, r->g, why, sizeof(why))) {
	case XLS_REFUSE_NONE:
		break;
	case XLS_REFUSE_SB_GEOMETRY:
		refuse_before_log(r, XLS_RCAUSE_METADATA, XLS_EFSCORRUPTED, "SB sanity check failed",
				  why);
		break;
	case XLS_REFUSE_DEVICE_SIZE:
		refuse_before_log(r, XLS_RCAUSE_DEVICE, -5, "last sector read failed", why);
		break;
	case XLS_REFUSE_LOG_UUID:
		xls_recover_fail(r, 0, (struct xls_rfail){ XLS_RSTOP_TAIL, XLS_RCAUSE_FOREIGN,
				 XLS_EFSCORRUPTED }, "log has mismatched uuid - can't recover", "%s",
				 why);
		break;
	case XLS_REFUSE_SB_LSN:
		refuse_sb_lsn(r, ht, why);
		break;
	}
}

int xls_recover_run(struct xls_recover *r, struct xls_log *log,
		    const struct xls_head_tail *ht,
		    const struct xls_recover_sink *sink, struct xls_error *err)
{
	int rc;

	r->sink = sink;
	r->curr_lsn = xls_lsn(ht->curr_cycle, ht->curr_block);
	r->sum.log_fmt = ht->last_fmt;
	/* the stale records are not recovered: nothing to refuse, no torn head */
	if (!r->opt.stale)
		refuse_log(r, ht);
	rc = r->opt.stale ? 0 : find_torn_commits(r, log, ht, err);
	if (!rc)
		rc = run_pass(r, 1, log, ht, err);
	if (!rc)
		rc = emit_cancel_table(r);
	if (!rc)
		rc = run_pass(r, 2, log, ht, err);
	/* the last walk: what follows (write-back, a caller's comparison) may
	 * use the windows' memory */
	xls_log_window_trim(log);
	/* xlog_do_recovery_pass: what is left on the list, at the end */
	if (!rc)
		rc = write_back(r, 0);
	if (!rc) {
		r->sum.buffers_touched = r->nstates;
		r->sum.pending.log_only = !r->data_dev || !r->g->ag_blocks || !r->g->inode_log ||
					  r->g->block_log < 9 || r->g->block_log < r->g->inode_log;
		rc = emit_intents(r);
	}
	if (!rc)
		rc = emit_unlinked(r);
	if (!rc) {
		xls_pending_count(r);
		read_back_sb(r);
	}
	xls_recover_stop_counts(r);
	if (rc == -ENOMEM)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the cancel table "
				     "or the buffers written back at the end of recovery");
	return rc;
}

const struct xls_recover_summary *xls_recover_summary(const struct xls_recover *r)
{
	return &r->sum;
}
