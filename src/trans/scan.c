#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/ondisk.h"
#include "log/readahead.h"
#include "log/ops.h"
#include "trans/scan.h"

/*
 * Starting the reader thread and its 16 MiB of windows costs a few
 * milliseconds: it pays from a walk of about 32 MiB (here a 29 MiB walk was
 * 3 ms slower with it, a 43 MiB one 5 ms faster).
 */
#define READ_AHEAD_MIN_BLKS	(32u << 11)

struct scan_state {
	const struct xls_scan_sink	*sink;
	struct xls_scan_totals		*tot;
};

static int finding(struct scan_state *st, const struct xls_finding *f)
{
	st->tot->findings++;
	return xls_report_finding(st->sink->report, f);
}

static int on_finding(void *ctx, const struct xls_finding *f)
{
	return finding(ctx, f);
}

static int on_begin(void *ctx, const struct xls_trans *t)
{
	struct scan_state *st = ctx;

	return st->sink->begin ? st->sink->begin(st->sink->ctx, t) : 0;
}

static int on_item(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct scan_state *st = ctx;

	st->tot->items++;
	return st->sink->item ? st->sink->item(st->sink->ctx, t, it) : 0;
}

static int on_end(void *ctx, const struct xls_trans *t)
{
	struct scan_state *st = ctx;

	st->tot->trans[t->state]++;
	return st->sink->end ? st->sink->end(st->sink->ctx, t) : 0;
}

static void summarize_ops(const struct xls_rec *rec, struct xls_rec_summary *s)
{
	struct xls_op_iter it;
	struct xls_op op;
	int r;

	memset(s, 0, sizeof(*s));
	xls_op_iter_init(&it, rec);
	while ((r = xls_op_iter_next(&it, &op)) > 0) {
		s->ops++;
		s->op_header_bytes += (uint32_t)sizeof(xlog_op_header_t);
		s->op_data_bytes += op.oh_len;
	}
	s->unused_bytes = xls_op_iter_unused(&it);
	s->op_problem = r < 0 ? it.why : NULL;
}

static int rec_finding(struct scan_state *st, const struct xls_rec *rec,
		       enum xls_finding_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int rec_finding(struct scan_state *st, const struct xls_rec *rec,
		       enum xls_finding_kind kind, const char *fmt, ...)
{
	const struct xls_finding_at at = { .lsn = rec->h_lsn, .rec_blk = rec->blk };
	struct xls_finding f;
	va_list ap;

	va_start(ap, fmt);
	xls_finding_vmake(&f, kind, &at, fmt, ap);
	va_end(ap);
	return finding(st, &f);
}

static int check_record(struct scan_state *st, const struct xls_rec *rec)
{
	int rc = 0;

	if (rec->crc == XLS_CRC_BAD) {
		st->tot->crc_bad++;
		rc = rec_finding(st, rec, XLS_FIND_CRC,
				 "record CRC mismatch: stored 0x%08x, computed 0x%08x",
				 rec->h_crc, rec->crc_calc);
	} else if (rec->crc == XLS_CRC_ZERO) {
		st->tot->crc_zero++;
	}
	if (!rc && rec->bad_stamps) {
		st->tot->bad_stamp_records++;
		rc = rec_finding(st, rec, XLS_FIND_CYCLE,
				 "%u of %u payload blocks carry the wrong cycle, the first at payload block %u",
				 rec->bad_stamps, rec->data_blks, rec->first_bad_stamp);
	}
	if (!rc && rec->uuid_mismatch) {
		st->tot->uuid_mismatch++;
		rc = rec_finding(st, rec, XLS_FIND_UUID,
				 "record belongs to another filesystem (h_fs_uuid differs from the superblock)");
	}
	if (rec->wrapped)
		st->tot->wrapped++;
	return rc;
}

static int gap_finding(struct scan_state *st, const struct xls_rec_iter *it)
{
	const struct xls_finding_at at = { .rec_blk = it->gap_blk };
	struct xls_finding f;

	st->tot->gaps++;
	st->tot->gap_blks += it->gap_blks;
	xls_finding_make(&f, XLS_FIND_HEADER, &at,
			 "invalid record header at log block %u (%s); skipped %u blocks",
			 it->gap_blk, it->gap_why, it->gap_blks);
	return finding(st, &f);
}

/* A stale walk's boundary: the transactions open end, none goes on across it. */
static int stale_boundary(struct scan_state *st, struct xls_trans_table *tt,
			  const struct xls_trans_sink *ts, const struct xls_stale_gap *g)
{
	int rc = tt ? xls_trans_finish(tt, ts) : 0;

	st->tot->gaps++;
	st->tot->gap_blks += g->blks;
	if (!rc && st->sink->stale_gap)
		rc = st->sink->stale_gap(st->sink->gap_ctx, g);
	return rc;
}

/* Why a stale record is not to be trusted, or NULL. */
static const char *stale_record_why(const struct xls_rec *rec)
{
	if (rec->crc == XLS_CRC_BAD)
		return "record CRC mismatch";
	if (rec->bad_stamps)
		return "payload blocks of another cycle: partly overwritten";
	if (rec->uuid_mismatch)
		return "record of another filesystem";
	return NULL;
}

static bool threads_pay(const struct xls_log *log, uint64_t walk_total)
{
	return log->read_ahead == XLS_READ_AHEAD_ON ||
	       (log->read_ahead == XLS_READ_AHEAD_AUTO && walk_total >= READ_AHEAD_MIN_BLKS);
}

bool xls_scan_threaded(const struct xls_log *log, const struct xls_head_tail *ht)
{
	return threads_pay(log, xls_log_distance(log, ht->tail_blk, ht->head_blk));
}

int xls_scan(struct xls_log *log, const struct xls_head_tail *ht,
	     enum xls_iter_mode mode, const struct xls_scan_sink *sink,
	     struct xls_scan_totals *tot, struct xls_error *err)
{
	struct scan_state st = { .sink = sink, .tot = tot };
	struct xls_trans_sink ts = {
		.ctx = &st, .begin = on_begin, .item = on_item, .end = on_end,
		.finding = on_finding,
	};
	struct xls_trans_table *tt = NULL;
	struct xls_rec_summary sum;
	struct xls_rec_reader rd;
	struct xls_rec rec;
	uint64_t walk_total;
	bool thread;
	int r = 0, rc = 0;

	memset(tot, 0, sizeof(*tot));
	if (sink->want_trans) {
		tt = xls_trans_table_new();
		if (!tt)
			return xls_error_set(err, XLS_EXIT_INTERNAL,
					     "out of memory for the table of open transactions");
	}
	if (tt && mode == XLS_ITER_STALE)
		xls_trans_table_set_stale(tt);
	walk_total = mode == XLS_ITER_PHYSICAL ? log->nblks :
		     mode == XLS_ITER_STALE ? xls_log_stale_blks(log, ht) :
		     xls_log_distance(log, ht->tail_blk, ht->head_blk);
	thread = threads_pay(log, walk_total);
	if (mode == XLS_ITER_STALE)
		xls_rec_reader_init_stale(&rd, log, ht, thread);
	else
		xls_rec_reader_init(&rd, log, mode, ht->tail_blk, ht->head_blk, thread);
	while (!rc && (r = xls_rec_reader_next(&rd, &rec, err)) > 0) {
		const char *untrusted;

		if (r == XLS_ITER_GAP && mode == XLS_ITER_STALE) {
			struct xls_stale_gap g = {
				rd.it.gap_blk, rd.it.gap_blks, 0, rd.it.gap_why,
			};

			rc = stale_boundary(&st, tt, &ts, &g);
			continue;
		}
		if (r == XLS_ITER_GAP) {
			rc = gap_finding(&st, &rd.it);
			continue;
		}
		tot->records++;
		if ((tot->records & 1023) == 0)
			xls_report_progress(sink->report, rd.it.walked, walk_total);
		untrusted = mode == XLS_ITER_STALE ? stale_record_why(&rec) : NULL;
		if (untrusted) {
			struct xls_stale_gap g = {
				rec.blk, rec.hblks + rec.data_blks, rec.h_lsn, untrusted,
			};

			rc = stale_boundary(&st, tt, &ts, &g);
			continue;
		}
		rc = check_record(&st, &rec);
		/* The trans stage walks the ops anyway: one walk serves both. */
		if (!rc && tt)
			rc = xls_trans_feed(tt, &rec, &ts, &sum);
		else if (!rc && sink->record)
			summarize_ops(&rec, &sum);
		if (!rc && sink->record) {
			rc = sink->record(sink->ctx, &rec, &sum);
			/* Without the trans stage, nobody else reports it. */
			if (!rc && !tt && sum.op_problem)
				rc = rec_finding(&st, &rec, XLS_FIND_OP,
						 "%s after %u ops; the rest of the record is skipped",
						 sum.op_problem, sum.ops);
		}
	}
	xls_rec_reader_release(&rd);
	if (r < 0)
		rc = -1;
	if (!rc && tt)
		rc = xls_trans_finish(tt, &ts);
	xls_trans_table_free(tt);
	return rc;
}
