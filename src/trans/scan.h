/*
 * The pipeline driver: records from the log stage, their ops through the
 * trans stage, every callback into one sink.  Commands are sinks.
 */
#ifndef XLS_SCAN_H
#define XLS_SCAN_H

#include <stdint.h>
#include "base/err.h"
#include "base/finding.h"
#include "log/log.h"
#include "trans/trans.h"

struct xls_scan_totals {
	uint64_t	records;
	uint64_t	crc_bad;
	uint64_t	crc_zero;
	uint64_t	gaps;
	uint64_t	gap_blks;
	uint64_t	bad_stamp_records;
	uint64_t	uuid_mismatch;
	uint64_t	wrapped;
	uint64_t	findings;
	uint64_t	trans[XLS_TRANS_CORRUPT + 1];	/* by end state */
	uint64_t	items;
};

/*
 * Where a stale walk stops trusting the log: blocks without a record that
 * continues the sequence, or a record whose CRC, cycle stamps or UUID say
 * it is not whole.  No transaction goes on across one.
 */
struct xls_stale_gap {
	uint32_t	blk;		/* first block */
	uint32_t	blks;
	uint64_t	lsn;		/* of the record not trusted; 0 for blocks */
	const char	*why;
};

struct xls_scan_sink {
	void	*ctx;
	int	(*record)(void *ctx, const struct xls_rec *rec,
			  const struct xls_rec_summary *s);
	/* The trans stage's transactions and items: it runs when want_trans says so. */
	int	(*begin)(void *ctx, const struct xls_trans *t);
	int	(*item)(void *ctx, const struct xls_trans *t,
			const struct xls_item *it);
	int	(*end)(void *ctx, const struct xls_trans *t);
	/* XLS_ITER_STALE only; may be NULL */
	int	(*stale_gap)(void *gap_ctx, const struct xls_stale_gap *g);
	void	*gap_ctx;
	/* findings of the log, ops and trans stages; blocks walked of the walk */
	const struct xls_report_sink *report;
	bool	want_trans;
};

/*
 * Whether a walk from tail to head runs a second thread (read-ahead, as
 * --threads and the log's length say): a command with a second thread of
 * its own (files' writer) follows the same rule.
 */
bool xls_scan_threaded(const struct xls_log *log, const struct xls_head_tail *ht);

/*
 * Walk the log (tail to head, physical order, or head to tail for the
 * stale records) feeding @sink; @tot
 * counts what was seen.  Returns 0, -1 with @err set on a read error or
 * allocation failure, or the non-zero value a sink callback returned.
 */
int xls_scan(struct xls_log *log, const struct xls_head_tail *ht,
	     enum xls_iter_mode mode, const struct xls_scan_sink *sink,
	     struct xls_scan_totals *tot, struct xls_error *err);

#endif /* XLS_SCAN_H */
