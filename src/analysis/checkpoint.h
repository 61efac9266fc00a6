/*
 * Analysis stage: checkpoints.  A checkpoint is a committed transaction
 * (on CIL logs every transaction is one, th_type XFS_TRANS_CHECKPOINT), in
 * commit order -- the order of the commit records -- with the start and
 * commit LSNs the trans stage gives it.  Per checkpoint: the records that
 * carry its ops, its log bytes by category (as stats counts them), its
 * items by type, its buffers and their dirty bytes, the relog split of its
 * buffer and inode chunks (relog.h) and the formatting cost model of its
 * buffer items (costmodel.h).
 *
 * Items reach us as they are decoded, before their transaction is known to
 * commit.  What the relog table and the shadow model need of an item -- a
 * few facts and a 64-bit hash per chunk -- is kept per open transaction and
 * applied at its commit record, in commit order; the items' bytes are not
 * kept.  The pending memory is bounded; a transaction that would pass the
 * bound is dropped from the relog figures, which say so.
 *
 * A record's header, extended headers, unused space and padding are shared
 * among the transactions that have ops in it, in proportion to their op
 * bytes there (a remainder of the division goes to the one with the most,
 * when nothing untracked shares the record); a checkpoint is therefore
 * complete only after the record holding its commit, and is handed out
 * then.
 */
#ifndef XLS_CHECKPOINT_H
#define XLS_CHECKPOINT_H

#include <stdbool.h>
#include <stdint.h>
#include "items/buf_analysis.h"
#include "analysis/costmodel.h"
#include "analysis/relog.h"
#include "analysis/logbytes.h"
#include "log/log.h"
#include "log/ops.h"
#include "trans/trans.h"

/* Item types by slot: XFS_LI_EFI .. + 31, then one slot for the unknown. */
#define XLS_ITEM_TYPE_BASE	XFS_LI_EFI
#define XLS_ITEM_SLOTS		33u
#define XLS_ITEM_SLOT_UNKNOWN	(XLS_ITEM_SLOTS - 1)

/* The slot of item type @type. */
unsigned int xls_item_slot(uint16_t type);
/* The type name of a slot ("buf"), "unknown", or NULL for an unused slot. */
const char *xls_item_slot_name(unsigned int slot);

/* A committed buffer or inode item, in commit order. */
struct xls_committed_item {
	uint16_t		type;		/* XFS_LI_BUF or XFS_LI_INODE */
	/* buffers */
	int64_t			blkno;
	uint16_t		len_bb;
	uint16_t		blft;
	uint16_t		blf_flags;
	bool			parsed;		/* the format could be read */
	uint32_t		buf_bytes;	/* blf_len * 512 */
	uint32_t		dirty_bytes;
	uint32_t		log_cost;
	struct xls_cost		cost;
	struct xls_shadow_count	shadow;
	/* inodes */
	uint64_t		ino;
	/* both: its chunks, unless dropped (then all of them in unknown) */
	struct xls_relog_split	split;
	uint64_t		unknown;	/* bytes the relog table never saw */
	uint64_t		cookie;		/* the caller's, from xls_ckpt_item() */
};

struct xls_ckpt {
	uint64_t		seq;		/* 1, 2, ... in commit order */
	uint32_t		tid;
	uint64_t		lsn;		/* start */
	uint64_t		commit_lsn;
	uint32_t		th_type;
	uint32_t		records;
	uint64_t		bytes[XLS_BYTES_NCATEGORIES];
	uint64_t		log_bytes;	/* the sum of bytes[] */
	uint32_t		items;
	uint32_t		regions;
	uint32_t		items_by_type[XLS_ITEM_SLOTS];
	uint32_t		buffers;
	uint32_t		cancels;	/* buffer items with XFS_BLF_CANCEL */
	uint64_t		buffer_bytes;	/* the buffers' lengths */
	uint64_t		dirty_bytes;
	uint32_t		inodes;
	struct xls_relog_split	buf;		/* relog split of the buffer chunks */
	struct xls_relog_split	inode;		/* ... of the inode cores and forks */
	uint64_t		unknown;	/* chunk bytes dropped (memory bound) */
	struct xls_cost		cost;
	struct xls_shadow_count	shadow;
};

/* What the bounds of the relog figures did. */
struct xls_ckpt_status {
	struct xls_relog_status	relog;
	uint64_t		dropped_trans;	/* transactions over the pending bound */
	uint64_t		dropped_bytes;	/* their chunk bytes, committed or not */
	uint64_t		shadow_untracked; /* buffer items the shadow model missed */
	size_t			pending_peak;	/* bytes held for open transactions */
};

struct xls_ckpt_sink {
	void	*ctx;
	/* Each committed buffer and inode item, at its commit, in order. */
	void	(*item)(void *ctx, const struct xls_committed_item *ci);
	/* Each checkpoint, complete. */
	void	(*checkpoint)(void *ctx, const struct xls_ckpt *ck);
};

struct xls_ckpt_tracker;

/* NULL when out of memory.  @sink is copied. */
struct xls_ckpt_tracker *xls_ckpt_tracker_new(const struct xls_ckpt_sink *sink);
void xls_ckpt_tracker_free(struct xls_ckpt_tracker *tr);

/*
 * The trans stage's callbacks, as a scan hands them out; @t is the same
 * object, updated in place, from begin to end.  @ba is the analysis of a
 * buffer item (NULL for others); @cookie comes back with the item at its
 * commit (struct xls_committed_item).
 */
void xls_ckpt_begin(struct xls_ckpt_tracker *tr, const struct xls_trans *t);
void xls_ckpt_item(struct xls_ckpt_tracker *tr, const struct xls_trans *t,
		   const struct xls_item *it, const struct xls_buf_analysis *ba,
		   uint64_t cookie);
void xls_ckpt_end(struct xls_ckpt_tracker *tr, const struct xls_trans *t);
/* After the trans stage has taken the record's ops. */
void xls_ckpt_record(struct xls_ckpt_tracker *tr, const struct xls_rec *rec,
		     const struct xls_rec_summary *s);
/* End of the log: hand out what is still held. */
void xls_ckpt_finish(struct xls_ckpt_tracker *tr);

void xls_ckpt_status(const struct xls_ckpt_tracker *tr, struct xls_ckpt_status *st);

#endif /* XLS_CHECKPOINT_H */
