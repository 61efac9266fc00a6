/*
 * Analysis stage: the appearances of one block in the records before the
 * tail (history --stale): the buffer and inode items that log it, each
 * held until its transaction ends, committed or not.  Recovery never reads
 * those records, so nothing here decides what it would do.
 */
#ifndef XLS_APPEARANCES_H
#define XLS_APPEARANCES_H

#include <stdbool.h>
#include <stdint.h>
#include "items/buf_analysis.h"
#include "items/item.h"
#include "trans/trans.h"

/* What one item before the tail logged of the block. */
struct xls_stale_appearance {
	uint32_t	tid;
	uint64_t	lsn;
	uint32_t	index;
	uint32_t	len_bb;
	const char	*type;		/* buffer type, or "inode" */
	uint16_t	blf_flags;
	uint32_t	regions;
	uint64_t	dirty_bytes;
	double		dirty_pct;
	bool		committed;
};

struct xls_stale_watch {
	int64_t			blkno;		/* the block watched */
	bool			has_ino;	/* of its inode items, only @ino's */
	uint64_t		ino;
	uint32_t		inode_size;
	struct xls_buf_analysis	ba;		/* large: kept, reused */
	struct xls_stale_appearance *pending;	/* held until their transaction ends */
	uint32_t		npending, cappending;
};

/* Watch block @blkno (and, with @has_ino, only inode @ino's inode items). */
void xls_stale_watch_init(struct xls_stale_watch *w, int64_t blkno, bool has_ino,
			  uint64_t ino, uint32_t inode_size);
void xls_stale_watch_release(struct xls_stale_watch *w);

/* Item @it of transaction @t: held when it logs the block.  0, or -ENOMEM. */
int xls_stale_watch_item(struct xls_stale_watch *w, const struct xls_trans *t,
			 const struct xls_item *it);

/* Transaction @t ended: each appearance it held, in order, given to @fn. */
void xls_stale_watch_end(struct xls_stale_watch *w, const struct xls_trans *t,
			 void (*fn)(void *ctx, const struct xls_stale_appearance *a), void *ctx);

#endif /* XLS_APPEARANCES_H */
