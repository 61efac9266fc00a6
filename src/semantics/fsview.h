/*
 * Semantics stage: inodes and directories read from one view of the
 * filesystem -- the data device as it is (what xfs_repair -L finds), or as
 * recovery leaves it (the replay overlay over the device).  A directory is
 * read as the kernel reads it: its inode's data fork, shortform in place,
 * else the data blocks its extent list or bmap btree maps below
 * XFS_DIR2_LEAF_OFFSET.  Every walk is bounded (extents, btree depth,
 * blocks read) and every length checked; what does not fit is a problem.
 */
#ifndef XLS_FSVIEW_H
#define XLS_FSVIEW_H

#include <stdbool.h>
#include <stdint.h>
#include "base/hashmap.h"
#include "replay/overlay.h"
#include "semantics/dirent.h"
#include "semantics/xattr.h"
#include "source/source.h"

/* Bounds of one directory read. */
#define XLS_FSVIEW_MAX_EXTENTS	65536u
#define XLS_FSVIEW_MAX_DEPTH	8u
#define XLS_FSVIEW_MAX_BLOCKS	(1u << 18)	/* filesystem blocks read */

/*
 * The inode clusters last read from the device, a few, the least
 * recently used making room.  lost compares inodes in inode order, each
 * read again for its directory and its xattrs; files reads each inode's
 * baseline as the log first names it, the new inodes of several
 * allocation groups in turn: one read of a cluster saves a system call
 * per inode read, and the slots keep the clusters of each group apart.
 * Only the device's bytes are kept (they never change), so views over the
 * device and over an overlay can share them.
 */
#define XLS_FSVIEW_CLUSTER_SLOTS	16u
#define XLS_FSVIEW_ALONE		8u

struct xls_fsview_cluster {
	int64_t		daddr;		/* of the cluster held; -1: none */
	uint32_t	len;		/* bytes held */
	uint64_t	used;		/* the clock when last read */
	uint8_t		*buf;		/* free() */
};

struct xls_fsview_clusters {
	struct xls_fsview_cluster	slot[XLS_FSVIEW_CLUSTER_SLOTS];
	uint64_t			clock;
	/* the clusters of the last inodes read alone (clusters_lazy), a ring */
	int64_t				alone[XLS_FSVIEW_ALONE];
	uint32_t			nalone;
};

struct xls_fsview {
	const struct xls_source		*src;
	const struct xls_overlay	*ovl;	/* NULL: the device as it is */
	/*
	 * Inode btree answers by chunk (NULL: none kept): every entry of a
	 * big directory asks; at most XLS_FSVIEW_CACHE_MAX entries, three a
	 * chunk.
	 */
	struct xls_hashmap		*cache;
	struct xls_fsview_clusters	*clusters;	/* NULL: none kept */
	/*
	 * A cluster not held is read whole only for its second inode among
	 * the last XLS_FSVIEW_ALONE read alone, the first read alone: inodes
	 * read in no order (files' baselines on an item-dense log) cost an
	 * inode each, those read cluster after cluster (a log of new inodes,
	 * several allocation groups in turn) little more than a cluster each.
	 */
	bool				clusters_lazy;
	/*
	 * Inodes a source newer than the view holds (files: the directories
	 * as the log has left them so far): the inode's bytes, or NULL to
	 * read it from the view.  NULL: none.
	 */
	const uint8_t			*(*inode)(void *ctx, uint64_t ino);
	void				*inode_ctx;
	/*
	 * Directory walks skip the blocks the overlay holds: only what it
	 * never took, as on the disk (files' last look at the directories).
	 */
	bool				skip_held;
};

/* An empty cluster cache; xls_fsview_clusters_release() frees its buffers. */
void xls_fsview_clusters_init(struct xls_fsview_clusters *c);
void xls_fsview_clusters_release(struct xls_fsview_clusters *c);

#define XLS_FSVIEW_CACHE_MAX	(1u << 22)

/* Bigtime timestamps count nanoseconds from 1901-12-13 (-2^31 s). */
#define XLS_BIGTIME_OFFSET_NS	((1ull << 31) * 1000000000ull)

/* The core fields compared and reported, host order. */
struct xls_inode_core {
	bool		valid;		/* magic and version read */
	bool		written;	/* recovery wrote its cluster */
	uint16_t	mode;
	uint8_t		version, format, aformat, forkoff;
	uint32_t	uid, gid, nlink, gen;
	uint64_t	size, nblocks, nextents, anextents;
	uint64_t	atime, mtime, ctime, crtime;	/* ns since 1970, as int64_t */
	uint16_t	flags;
	uint64_t	flags2;
};

/* Read inode @ino into @dino (inode_size bytes); 0 or -errno. */
int xls_fsview_read_inode(const struct xls_fsview *v, uint64_t ino, uint8_t *dino,
			  bool *written);

/* The core of the inode in @dino. */
void xls_fsview_core(const struct xls_geometry *g, const uint8_t *dino,
		     struct xls_inode_core *c);

/*
 * Is inode @ino allocated in the inode btree of its AG, as xfs_repair
 * finds it: 1 yes, 0 no, -1 cannot tell.
 */
int xls_fsview_inode_allocated(const struct xls_fsview *v, uint64_t ino);

/*
 * Does a record of the inode btree of its AG cover inode @ino (free or
 * not: xfs_repair trusts the inode's core over the record's free bit)?
 * 1 yes, 0 no, -1 cannot tell.
 */
int xls_fsview_inode_chunk(const struct xls_fsview *v, uint64_t ino);

/* Is the inode free (no magic, or mode 0)? */
bool xls_inode_core_free(const struct xls_inode_core *c);

/* The data fork of inode @dino: where it is, and *@len its bytes. */
const uint8_t *xls_fsview_data_fork(const struct xls_geometry *g, const uint8_t *dino,
				    uint32_t *len);

#define XLS_FSVIEW_NOT_DIR	(1u << 16)
#define XLS_FSVIEW_TOO_BIG	(1u << 17)	/* a bound was reached */
#define XLS_FSVIEW_UNREADABLE	(1u << 18)
/* the directory's first block is no data block (xfs_repair junks it) */
#define XLS_FSVIEW_FIRST_NOT_DATA	(1u << 19)
/*
 * Every entry of directory @ino ("." and ".." left out) to @fn; *@parent
 * gets its parent where the view says (shortform header or ".."), else 0.
 * Returns the problems found (XLS_DIRP_*, and XLS_FSVIEW_* above); a
 * directory that is not one (free inode, not S_IFDIR) has no entries.
 */
uint32_t xls_fsview_dir(const struct xls_fsview *v, uint64_t ino, uint64_t *parent,
			xls_dirent_fn fn, void *ctx);

/*
 * Is the first block of directory @ino no directory data block (xfs_repair
 * junks it, finds no "." and clears the inode)?  Reads that block alone.
 */
bool xls_fsview_dir_first_not_data(const struct xls_fsview *v, uint64_t ino);

/*
 * The filesystem blocks the directory block of directory @ino holding
 * daddr @daddr (one of its blocks) is made of, in file order: their daddrs
 * into @daddrs (room for @max).  Their number, -1 when the mapping does
 * not say (not a directory, daddr not mapped, a hole inside the block).
 */
int xls_fsview_dir_block_daddrs(const struct xls_fsview *v, uint64_t ino, int64_t daddr,
				int64_t *daddrs, uint32_t max);

/*
 * The problems of the map of inode @ino's data fork: a bmap btree whose
 * blocks do not read as bmap btree blocks (what xfs_repair clears the
 * inode for: "bad data fork").  0 for a fork of any other format.
 */
uint32_t xls_fsview_map_problems(const struct xls_fsview *v, uint64_t ino);

/* The attr fork of inode @dino, or NULL when it has none. */
const uint8_t *xls_fsview_attr_fork(const struct xls_geometry *g, const uint8_t *dino,
				    uint32_t *len);

/*
 * Every attr of inode @ino to @fn: the shortform fork, or the leaf blocks
 * its attr fork maps (node blocks hold none).  Problems as xls_fsview_dir.
 */
uint32_t xls_fsview_attrs(const struct xls_fsview *v, uint64_t ino, xls_xattr_fn fn,
			  void *ctx);

/* The daddr of filesystem block @fsb (agno << agblklog | agbno), -1 if none. */
int64_t xls_fsb_to_daddr(const struct xls_geometry *g, uint64_t fsb);

/*
 * The written extents of the data fork of inode image @dino, extents or
 * bmap btree (its blocks read through @v), to @fn in file order; the
 * walk's problems (XLS_FSVIEW_*).
 */
uint32_t xls_fsview_fork_extents(const struct xls_fsview *v, const uint8_t *dino,
				 void (*fn)(void *ctx, uint64_t off, uint64_t fsb, uint64_t count),
				 void *ctx);

/* A packed xfs_bmbt_rec: file block, filesystem block, count; false if unwritten. */
bool xls_bmbt_rec_unpack(const uint8_t *rec, uint64_t *off, uint64_t *fsb, uint64_t *count);

#endif /* XLS_FSVIEW_H */
