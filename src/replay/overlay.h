/*
 * Replay stage: the filesystem as recovery leaves it, for the blocks of
 * the kinds asked for -- an overlay over the data device of every buffer
 * recovery replays of those types (logged regions placed as
 * xlog_recover_do_reg_buffer places them), of every inode cluster an
 * inode item or an icreate writes (xlog_recover_inode_commit_pass2,
 * xfs_ialloc_inode_init), taken in recovery order.  Reads of the overlay
 * give a block as recovery leaves it, or as it is on disk where recovery
 * does not write.  Memory is bounded by @max_bytes of block images; past
 * it no new block is taken, and xls_overlay.full says so.
 */
#ifndef XLS_OVERLAY_H
#define XLS_OVERLAY_H

#include <stdbool.h>
#include <stdint.h>
#include "base/bigmem.h"
#include "base/hashmap.h"
#include "recover/recover.h"
#include "source/source.h"

struct xls_ovl_block {
	int64_t		blkno;
	uint32_t	len;		/* 512-byte blocks */
	bool		written;	/* recovery wrote into it */
	uint8_t		*img;
};

struct xls_overlay {
	const struct xls_source	*src;
	uint32_t		types;		/* 1 << XFS_BLFT_* taken */
	uint64_t		max_bytes;
	struct xls_hashmap	idx;		/* blkno -> blocks[] */
	struct xls_ovl_block	*blocks;
	uint32_t		n, cap;
	struct xls_arena	images;		/* of the blocks */
	uint64_t		bytes;		/* of images held */
	uint64_t		replayed_bytes;	/* written by replays of the kinds taken */
	bool			full;		/* a block was not taken: bound hit */
	uint64_t		not_taken;	/* items that wrote a block not taken */
	bool			out_of_memory;
	/*
	 * Take every committed buffer item, replayed or skipped (what the
	 * log did, not what recovery writes): the log's view of the blocks.
	 */
	bool			all_items;
};

/* The default bound of block images: 512 MiB. */
#define XLS_OVERLAY_MAX_BYTES	(512ull << 20)

void xls_overlay_init(struct xls_overlay *o, const struct xls_source *src,
		      uint32_t types, uint64_t max_bytes);
void xls_overlay_release(struct xls_overlay *o);

/* Take item @ri of transaction @rt, in recovery order. */
void xls_overlay_take(struct xls_overlay *o, const struct xls_rtrans *rt,
		      const struct xls_ritem *ri);

/*
 * The block at @blkno is freed (a cancel record): it reads as zeroes from
 * here on, and as written, not as on disk.
 */
void xls_overlay_forget(struct xls_overlay *o, int64_t blkno);

/*
 * @len bytes at byte @off of daddr @blkno as recovery leaves them: from the
 * block of the overlay that starts at @blkno when it holds them, else from
 * the device.  *@written (may be NULL) says whether recovery wrote that
 * block.  Returns 0 or -errno.
 */
int xls_overlay_read(const struct xls_overlay *o, int64_t blkno, uint32_t off,
		     uint8_t *buf, uint32_t len, bool *written);

/*
 * The overlay's own copy of that range, or NULL when xls_overlay_read()
 * would read the device: no copy for a caller that only reads it, valid
 * until the next xls_overlay_take() or xls_overlay_forget().
 */
const uint8_t *xls_overlay_peek(const struct xls_overlay *o, int64_t blkno, uint32_t off,
				uint32_t len, bool *written);

#endif /* XLS_OVERLAY_H */
