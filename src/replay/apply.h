/*
 * Replay stage: the one apply step.  What a replayed item writes into its
 * block, and whether recovery writes it at all, decided here and only
 * here, for every writer of replayed blocks: the image writer (replay -o
 * and --in-place), the overlay of lost and files, and history's image of
 * one buffer.  Each writer is a block provider: it hands the step the
 * blocks it keeps, and the step applies the item to them.
 */
#ifndef XLS_APPLY_H
#define XLS_APPLY_H

#include <stdbool.h>
#include <stdint.h>
#include "recover/recover.h"
#include "source/source.h"

/* What an item changes in the block a provider is asked for. */
enum xls_apply_what {
	XLS_APPLY_BUF,		/* a buffer item's logged regions */
	XLS_APPLY_INODE_BUF,	/* an inode buffer item: di_next_unlinked fields only */
	XLS_APPLY_INODE,	/* an inode item: one inode of the cluster */
	XLS_APPLY_ICREATE,	/* an icreate: a whole cluster initialised */
	XLS_APPLY_DQUOT,	/* a dquot item: one dquot of the buffer */
};

/*
 * A writer of replayed blocks.  get() hands over block @blkno of @len
 * sectors that item @ri is about to change (@what): 1 with *@buf, its
 * bytes in memory (at least @len sectors; for XLS_APPLY_INODE only the
 * item's inode need be there, at its offset); 0 when the provider keeps
 * no such block or wants no such change (nothing is applied); -1 on an
 * error the provider records.  @fresh: the old bytes are not needed (an
 * icreate overwrites them).  done() (NULL: none) follows each change (an
 * icreate's cluster: as it is handed over), @ok false when the item could
 * not be applied (an inode item recovery fails on).
 */
struct xls_block_provider {
	void	*ctx;
	int	(*get)(void *ctx, const struct xls_ritem *ri, enum xls_apply_what what,
		       int64_t blkno, uint32_t len, bool fresh, uint8_t **buf);
	void	(*done)(void *ctx, const struct xls_ritem *ri, enum xls_apply_what what,
			int64_t blkno, uint8_t *buf, bool ok);
	/* the blocks are read for their fields, never verified: no inode CRC */
	bool	no_inode_crc;
	/* buffer items recovery skips for their LSN too (the log's view), not those it cancels */
	bool	every_logged;
};

/* What the step applied. */
struct xls_apply_count {
	uint64_t	buffers;	/* buffer items */
	uint64_t	inodes;		/* inode items */
	uint64_t	inode_errors;	/* inode items that could not be applied */
	const char	*inode_why;	/* ... the last one's reason */
	uint64_t	clusters;	/* inode clusters an icreate initialised */
	uint64_t	dquots;		/* dquot items */
};

/*
 * Does recovery write item @ri (with @every_logged: would the log's view)?
 * The one decision every writer of replayed blocks takes.
 */
bool xls_apply_writes(const struct xls_ritem *ri, bool every_logged);

/*
 * Item @ri of transaction @rt, as recovery writes it (xls_apply_writes),
 * into the blocks @p provides; @n counts what was applied.  0, or -1 when
 * the provider said so.
 */
int xls_apply_item(const struct xls_geometry *g, const struct xls_rtrans *rt,
		   const struct xls_ritem *ri, const struct xls_block_provider *p,
		   struct xls_apply_count *n);

#endif /* XLS_APPLY_H */
