/*
 * Semantics stage: directory entries, from directory data and block-form
 * blocks (xfs_dir2_data_entry in the data area after the xfs_dir2_data_hdr
 * or xfs_dir3_data_hdr, up to the leaf entries and xfs_dir2_block_tail of
 * a block-form block), from byte ranges of such blocks (the entries whole
 * inside a logged region, recognised by their tag), and from shortform
 * directories in a data fork (xfs_dir2_sf_hdr, xfs_dir2_sf_entry).
 *
 * Hostile input gives problems, never a read outside the bytes given or a
 * walk that does not advance: every length is checked against the block
 * or the fork before use.
 */
#ifndef XLS_DIRENT_H
#define XLS_DIRENT_H

#include <stdbool.h>
#include <stdint.h>
#include "base/vec.h"
#include "source/source.h"

struct xls_dirent {
	uint64_t	ino;
	uint32_t	offset;		/* of the entry in the block, or in the fork */
	uint8_t		namelen;
	uint8_t		ftype;		/* XFS_DIR3_FT_*, 0 without ftype */
	const uint8_t	*name;		/* namelen bytes, not NUL-terminated */
};

/* What a walk found wrong; the walk stops at the first of the fatal ones. */
enum xls_dir_problem {
	XLS_DIRP_MAGIC		= 1 << 0,	/* no data or block magic */
	XLS_DIRP_NAMELEN	= 1 << 1,	/* a name length of 0 */
	XLS_DIRP_PAST_END	= 1 << 2,	/* an entry past the block or fork */
	XLS_DIRP_TAG		= 1 << 3,	/* an entry's tag is not its offset */
	XLS_DIRP_UNUSED_LEN	= 1 << 4,	/* a free entry's length is bad */
	XLS_DIRP_TAIL		= 1 << 5,	/* block tail count does not fit */
	XLS_DIRP_SF_COUNT	= 1 << 6,	/* shortform count past the fork */
	XLS_DIRP_SF_HDR		= 1 << 7,	/* shortform header past the fork */
};

/* "bad_magic|bad_namelen|..." of @problems into @buf. */
void xls_dir_problems_str(uint32_t problems, char *buf, size_t bufsz);

/* Called for each entry ("." and ".." included); non-zero stops the walk. */
typedef int (*xls_dirent_fn)(void *ctx, const struct xls_dirent *e);

/* An xls_dirent_fn that takes nothing: for a walk wanted for its parent or problems. */
int xls_dirent_ignore(void *ctx, const struct xls_dirent *e);

/* Is @blk (at least 4 bytes) a directory data or block-form block? */
bool xls_dir_is_data_block(const uint8_t *blk, uint32_t len);

/*
 * Every entry of the data or block-form directory block @blk of @len
 * bytes, in order.  Returns the problems found (0: none).
 */
uint32_t xls_dir_block_walk(const struct xls_geometry *g, const uint8_t *blk,
			    uint32_t len, xls_dirent_fn fn, void *ctx);

/*
 * The entries that lie whole inside bytes [@start, @end) of directory
 * block @blk of @len bytes, found without the rest of the block: at each
 * 8-byte aligned offset, an entry whose tag is its own offset (or a free
 * entry whose tag is).  Returns the problems found.
 */
uint32_t xls_dir_range_scan(const struct xls_geometry *g, const uint8_t *blk,
			    uint32_t len, uint32_t start, uint32_t end,
			    xls_dirent_fn fn, void *ctx);

/*
 * The entries whole inside one logged region: @len bytes at @data, which
 * lie at byte @base of a directory data or block-form block (the header
 * and the rest of the block need not be there).  "." and ".." are left
 * out.  An entry is taken where its tag is its own offset in the block.
 */
uint32_t xls_dir_region_scan(const struct xls_geometry *g, const uint8_t *data,
			     uint32_t len, uint32_t base, xls_dirent_fn fn, void *ctx);

/* An entry of a logged region, its name copied (bufs -v). */
struct xls_logged_dirent {
	uint32_t	offset;
	uint64_t	ino;
	char		name[256];
};

/*
 * The entries whole inside the logged regions of directory buffer item
 * @regions (@nregions data regions placed at @offsets, @lens bytes each)
 * of a buffer of @buf_bytes and type @blft: at most @max into @out; their
 * number.  The block header (at offset 0) and a block-form block's leaf
 * entries and tail (when the last region reaches the end) are not read as
 * entries.
 */
struct xls_region;
uint32_t xls_dir_logged_entries(const struct xls_geometry *g, unsigned int blft,
				uint32_t buf_bytes, const struct xls_region *regions,
				const uint32_t *offsets, uint32_t nregions,
				struct xls_logged_dirent *out, uint32_t max);

/*
 * The shortform directory in data fork @fork of @len bytes: *@parent gets
 * the parent inode, @fn each entry.  Returns the problems found.
 */
uint32_t xls_dir_sf_walk(const struct xls_geometry *g, const uint8_t *fork,
			 uint32_t len, uint64_t *parent, xls_dirent_fn fn, void *ctx);

/* Bytes of a data entry with a name of @namelen (xfs_dir2_data_entsize). */
uint32_t xls_dirent_size(const struct xls_geometry *g, uint32_t namelen);

/* Is the entry "." or ".."? */
bool xls_dirent_is_dot(const struct xls_dirent *e);

/*
 * A set of entries (one directory, one view or one moment), names copied,
 * to compare with another: filled by xls_dirent_set_add() (an
 * xls_dirent_fn, "." and ".." left out), sorted by name then inode.
 */
struct xls_dirent_rec {
	uint64_t	ino;
	uint32_t	name;		/* offset in pool */
	uint32_t	offset;		/* of the entry, as xls_dirent.offset */
	uint8_t		len;
	uint8_t		ftype;		/* as xls_dirent.ftype */
};

struct xls_dirent_set {
	struct xls_dirent_rec	*e;
	uint32_t		n, cap;
	struct xls_pool		pool;
	bool			nomem;
};

int xls_dirent_set_add(void *set, const struct xls_dirent *e);
void xls_dirent_set_sort(struct xls_dirent_set *s);
/* Empty, keeping the memory; free it all. */
void xls_dirent_set_reset(struct xls_dirent_set *s);
void xls_dirent_set_free(struct xls_dirent_set *s);
static inline const uint8_t *xls_dirent_set_name(const struct xls_dirent_set *s, uint32_t i)
{
	return s->pool.p + s->e[i].name;
}
/*
 * Drop the entries @a and @b both hold at the same offset, unchanged (both
 * sets in the order a block walk gives them): what is left may differ.
 */
void xls_dirent_set_drop_same(struct xls_dirent_set *a, struct xls_dirent_set *b);

/* Order of entry @i of @a and @j of @b: by name, then (@by_ino) inode. */
int xls_dirent_set_cmp(const struct xls_dirent_set *a, uint32_t i,
		       const struct xls_dirent_set *b, uint32_t j, bool by_ino);

#endif /* XLS_DIRENT_H */
