/*
 * Trans stage: reassemble transactions by tid across records, as log
 * recovery does (xlog_recover_process_ophdr and friends), and split each
 * into log items.  Streaming: items are handed to the sink as soon as the
 * next item starts or the transaction ends, so memory is bounded by one
 * item per open transaction, never by the size of the log.
 */
#ifndef XLS_TRANS_H
#define XLS_TRANS_H

#include <stdint.h>
#include <stdbool.h>
#include "base/finding.h"
#include "items/item.h"
#include "log/log.h"
#include "log/ops.h"

/*
 * Transactions open at once: the kernel's log holds a bounded number, and
 * a hostile log cannot make this tool hold more.  Every stage that keeps
 * per-transaction state (trans, checkpoints, recovery) has this limit.
 */
#define XLS_MAX_OPEN_TRANS	1024u

enum xls_trans_state {
	XLS_TRANS_OPEN,
	XLS_TRANS_COMMITTED,	/* commit record seen: recovery replays it */
	XLS_TRANS_UNMOUNT,	/* an unmount record */
	XLS_TRANS_INCOMPLETE,	/* no commit record before the head */
	XLS_TRANS_CORRUPT,	/* recovery would stop here (why says so) */
};

struct xls_trans {
	uint32_t		tid;
	uint64_t		lsn;		/* h_lsn of the record with the start op */
	uint64_t		commit_lsn;	/* h_lsn of the record with the commit */
	enum xls_trans_state	state;
	bool			has_header;
	enum xls_endian		header_endian;
	uint32_t		th_magic;
	uint32_t		th_type;
	uint32_t		th_tid;
	uint32_t		th_num_items;	/* regions, not items (see DESIGN.md) */
	uint32_t		nitems;		/* items handed to the sink so far */
	uint32_t		nregions;	/* item regions, trans header excluded */
	uint32_t		nrecords;	/* records that carried its ops */
	uint64_t		op_bytes;	/* op headers, start and commit included */
	uint64_t		region_bytes;	/* item region payload */
	uint32_t		header_bytes;	/* trans header region payload */
	const char		*why;		/* XLS_TRANS_CORRUPT: the reason */
	/* decoded by a stale walk (XLS_ITER_STALE): before the tail */
	bool			stale;
	/*
	 * Stale only: its start lies in blocks since overwritten.  Its items
	 * are decoded from the first op from which the item formats' region
	 * counts add up exactly to its commit; the @skipped_ops before it
	 * belong to items that are lost (all of its ops, when no commit was
	 * seen or none adds up).
	 */
	bool			partial;
	uint32_t		skipped_ops;
};

struct xls_trans_sink {
	void	*ctx;
	/* The transaction header is known (or the transaction ended first). */
	int	(*begin)(void *ctx, const struct xls_trans *t);
	int	(*item)(void *ctx, const struct xls_trans *t,
			const struct xls_item *it);
	/* t->state says how it ended. */
	int	(*end)(void *ctx, const struct xls_trans *t);
	int	(*finding)(void *ctx, const struct xls_finding *f);
};

struct xls_trans_table;

/* NULL on allocation failure. */
struct xls_trans_table *xls_trans_table_new(void);
void xls_trans_table_free(struct xls_trans_table *tt);

/*
 * Feed one record's ops; @sum (may be NULL) gets what the op walk found.
 * Returns 0, or the first non-zero value a sink callback returned (which
 * stops the walk).
 */
int xls_trans_feed(struct xls_trans_table *tt, const struct xls_rec *rec,
		   const struct xls_trans_sink *sink, struct xls_rec_summary *sum);

/* End of log: every transaction still open ends as incomplete. */
int xls_trans_finish(struct xls_trans_table *tt, const struct xls_trans_sink *sink);

/*
 * Decode a stale walk: every transaction is marked stale, and the ops of
 * one whose start op is gone open a partial transaction.  A boundary of
 * the stale walk (a gap, a record not trusted) is xls_trans_finish(): no
 * transaction goes on across it, so a tid used again is never merged.
 */
void xls_trans_table_set_stale(struct xls_trans_table *tt);

/* Name of a state ("committed", ...). */
const char *xls_trans_state_name(enum xls_trans_state s);

#endif /* XLS_TRANS_H */
