/*
 * Replay stage: the filesystem as recovery leaves it, for the blocks of
 * the kinds asked for -- an overlay over the data device of every buffer
 * recovery replays of those types (logged regions placed as
 * xlog_recover_do_reg_buffer places them), of every inode cluster an
 * inode item or an icreate writes (xlog_recover_inode_commit_pass2,
 * xfs_ialloc_inode_init), taken in recovery order.  Reads of the overlay
 * give a block as recovery leaves it, or as it is on disk where recovery
 * does not write.
 *
 * Memory is bounded by design, not by the log: at most @mem_bytes of
 * block images are in memory, and past it the images least recently
 * used (a clock sweep) go to an unlinked temporary file (TMPDIR), to be
 * read back when recovery writes them again, so that the answer is the
 * same whatever the bound.  Only @max_bytes of images in all bounds what
 * is kept at all (a hostile log can name far more blocks than it holds);
 * past it no new block is taken, and xls_overlay.full says so.
 */
#ifndef XLS_OVERLAY_H
#define XLS_OVERLAY_H

#include <stdbool.h>
#include <stdint.h>
#include "base/bigmem.h"
#include "base/err.h"
#include "base/hashmap.h"
#include "recover/recover.h"
#include "source/source.h"

struct xls_ovl_block {
	int64_t		blkno;
	uint32_t	len;		/* 512-byte blocks */
	bool		written;	/* recovery wrote into it */
	bool		ref;		/* taken since the clock last passed it */
	bool		dirty;		/* img differs from the file's copy */
	uint8_t		*img;		/* in memory; NULL: at spill_off in the file */
	uint64_t	spill_off;	/* UINT64_MAX: no place in the file yet */
	uint32_t	spill_len;	/* 512-byte blocks that place holds */
};

struct xls_ovl_spill;

struct xls_overlay {
	const struct xls_source	*src;
	uint32_t		types;		/* 1 << XFS_BLFT_* taken */
	uint64_t		mem_bytes;	/* of images in memory; then spilled */
	uint64_t		max_bytes;	/* of images in all */
	struct xls_hashmap	idx;		/* blkno -> blocks[] */
	struct xls_ovl_block	*blocks;
	uint32_t		n, cap;
	struct xls_arena	images;		/* of the blocks */
	uint64_t		bytes;		/* of images held */
	uint64_t		mem_used;	/* of them in memory */
	uint64_t		spilled;	/* bytes of the temporary file */
	uint32_t		hand;		/* the clock's, an index in blocks[] */
	struct xls_ovl_spill	*spill;		/* that file; NULL until needed */
	uint64_t		replayed_bytes;	/* written by replays of the kinds taken */
	bool			full;		/* a block was not taken: bound hit */
	uint64_t		not_taken;	/* items that wrote a block not taken */
	/* the block provide() handed over to the apply step, for applied() */
	struct xls_ovl_block	*applying;
	bool			out_of_memory;
	/*
	 * Take every committed buffer item, replayed or skipped (what the
	 * log did, not what recovery writes): the log's view of the blocks.
	 */
	bool			all_items;
};

/* The default memory for block images, and bound of them in all. */
#define XLS_OVERLAY_MEM_BYTES	(16ull << 20)
#define XLS_OVERLAY_MAX_BYTES	(4ull << 30)

/* @mem_bytes above @max_bytes is taken as @max_bytes. */
void xls_overlay_init(struct xls_overlay *o, const struct xls_source *src,
		      uint32_t types, uint64_t mem_bytes, uint64_t max_bytes);
void xls_overlay_release(struct xls_overlay *o);

/*
 * Take the device's block (@blkno, @len 512-byte blocks) as the overlay's
 * own, unchanged, when it holds none there: a block recovery comes to
 * use that no item writes (files: a directory's block its replayed inode
 * maps anew).  False when not taken (bound, memory).
 */
bool xls_overlay_adopt(struct xls_overlay *o, int64_t blkno, uint32_t len);

/*
 * Whether the overlay failed its caller: out of memory, or its temporary
 * file not made, read or written.  Sets @err and returns -1 if so, else 0.
 */
int xls_overlay_error(const struct xls_overlay *o, struct xls_error *err);

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
 * would read the device: no copy for a caller that only reads it.  Valid
 * until the next call on the overlay (an image in the temporary file is
 * read into one frame that the next call may reuse).
 */
const uint8_t *xls_overlay_peek(const struct xls_overlay *o, int64_t blkno, uint32_t off,
				uint32_t len, bool *written);

/*
 * Whether the overlay holds @len bytes at byte @off of daddr @blkno
 * (xls_overlay_peek() would return them), without reading them.
 */
bool xls_overlay_holds(const struct xls_overlay *o, int64_t blkno, uint32_t off, uint32_t len);

/*
 * Those bytes for a caller that keeps them across other calls: the
 * overlay's own copy when it is in memory, else @buf, read from the
 * temporary file or the device.  *@held: whether the overlay holds them.
 * NULL when unreadable.
 */
const uint8_t *xls_overlay_view(const struct xls_overlay *o, int64_t blkno, uint32_t len,
				uint8_t *buf, bool *held);

#endif /* XLS_OVERLAY_H */
