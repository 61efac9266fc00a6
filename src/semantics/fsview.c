/*
 * Semantics stage: inodes and directories of one view of the filesystem
 * (the device, or the device as recovery leaves it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/ondisk.h"
#include <xfs/xfs_da_format.h>
#include "semantics/fsview.h"
#include "semantics/owner.h"
#include "semantics/xattr.h"

#define DI(f)	offsetof(struct xfs_dinode, f)

int64_t xls_fsb_to_daddr(const struct xls_geometry *g, uint64_t fsb)
{
	uint64_t agno, agbno;

	if (!g->block_log || !g->ag_blocks || g->ag_block_log >= 64)
		return -1;
	agno = fsb >> g->ag_block_log;
	agbno = fsb & ((1ull << g->ag_block_log) - 1);
	if (agbno >= g->ag_blocks || agno > UINT32_MAX)
		return -1;
	return (int64_t)((agno * g->ag_blocks + agbno) << (g->block_log - 9));
}

static int disk_read(const struct xls_fsview *v, int64_t blkno, uint32_t off, uint8_t *buf,
		     uint32_t len)
{
	if (blkno < 0 || (uint64_t)blkno > (UINT64_MAX >> 10))
		return -EINVAL;
	return xls_source_read_data(v->src, (uint64_t)blkno * BBSIZE + off, buf, len);
}

static int view_read(const struct xls_fsview *v, int64_t blkno, uint32_t off, uint8_t *buf,
		     uint32_t len, bool *written)
{
	if (v->ovl)
		return xls_overlay_read(v->ovl, blkno, off, buf, len, written);
	if (written)
		*written = false;
	return disk_read(v, blkno, off, buf, len);
}

#define CLUSTER_MAX	(64u << 10)	/* 8 KiB x 8 (2 KiB inodes), or a 64 KiB block */

void xls_fsview_clusters_init(struct xls_fsview_clusters *c)
{
	for (uint32_t i = 0; i < XLS_FSVIEW_CLUSTER_SLOTS; i++) {
		c->slot[i].daddr = -1;
		c->slot[i].len = 0;
		c->slot[i].used = 0;
		c->slot[i].buf = NULL;
	}
	c->clock = 0;
	for (uint32_t i = 0; i < XLS_FSVIEW_ALONE; i++)
		c->alone[i] = -1;
	c->nalone = 0;
}

/* The slot holding the cluster at @daddr, or the least recently used one. */
static struct xls_fsview_cluster *cluster_slot(struct xls_fsview_clusters *c, int64_t daddr)
{
	struct xls_fsview_cluster *lru = &c->slot[0];

	for (uint32_t i = 0; i < XLS_FSVIEW_CLUSTER_SLOTS; i++) {
		if (c->slot[i].daddr == daddr)
			return &c->slot[i];
		if (c->slot[i].used < lru->used)
			lru = &c->slot[i];
	}
	return lru;
}

/*
 * Is the cluster at @daddr to be read whole for the inode asked?  When it
 * is not held, only if an inode of it was read alone lately; else it is
 * remembered, and the inode is read alone.
 */
static bool read_whole(struct xls_fsview_clusters *c, int64_t daddr)
{
	if (cluster_slot(c, daddr)->daddr == daddr)
		return true;
	for (uint32_t i = 0; i < XLS_FSVIEW_ALONE; i++)
		if (c->alone[i] == daddr)
			return true;
	c->alone[c->nalone++ % XLS_FSVIEW_ALONE] = daddr;
	return false;
}

void xls_fsview_clusters_release(struct xls_fsview_clusters *c)
{
	for (uint32_t i = 0; i < XLS_FSVIEW_CLUSTER_SLOTS; i++)
		free(c->slot[i].buf);
	xls_fsview_clusters_init(c);
}

/*
 * The inode at @boff of the cluster at @daddr from the device, through
 * the cluster cache; false when the cluster cannot be held or read whole
 * (then the inode alone is read, as without a cache).
 */
static bool cached_inode(const struct xls_fsview *v, int64_t daddr, uint32_t boff,
			 uint8_t *dino)
{
	const struct xls_geometry *g = &v->src->geo;
	uint32_t len = g->inode_cluster_blocks << g->block_log;
	struct xls_fsview_cluster *c;

	if (!len || len > CLUSTER_MAX || boff + g->inode_size > len ||
	    (uint64_t)daddr > (UINT64_MAX >> 10))
		return false;
	c = cluster_slot(v->clusters, daddr);
	c->used = ++v->clusters->clock;
	if (c->daddr != daddr) {
		if (!c->buf && !(c->buf = malloc(CLUSTER_MAX)))
			return false;
		c->daddr = -1;
		if (xls_source_read_data(v->src, (uint64_t)daddr * BBSIZE, c->buf, len))
			return false;
		c->daddr = daddr;
		c->len = len;
	}
	memcpy(dino, c->buf + boff, g->inode_size);
	return true;
}

int xls_fsview_read_inode(const struct xls_fsview *v, uint64_t ino, uint8_t *dino,
			  bool *written)
{
	uint32_t boff, isize = v->src->geo.inode_size;
	int64_t daddr = xls_ino_cluster_daddr(&v->src->geo, ino, &boff);
	const uint8_t *p;

	if (daddr < 0)
		return -EINVAL;
	if (v->inode && (p = v->inode(v->inode_ctx, ino))) {
		memcpy(dino, p, isize);
		if (written)
			*written = true;
		return 0;
	}
	/* one look-up of the overlay: what recovery wrote, else the disk */
	p = v->ovl ? xls_overlay_peek(v->ovl, daddr, boff, isize, written) : NULL;
	if (p) {
		memcpy(dino, p, isize);
		return 0;
	}
	if (written)
		*written = false;
	if (v->clusters && (!v->clusters_lazy || read_whole(v->clusters, daddr)) &&
	    cached_inode(v, daddr, boff, dino))
		return 0;
	return disk_read(v, daddr, boff, dino, isize);
}

/* A timestamp as nanoseconds since 1970 (bigtime counts from 1901). */
static uint64_t ts_of(const uint8_t *p, bool bigtime)
{
	if (bigtime)
		return xls_be64(p) - XLS_BIGTIME_OFFSET_NS;
	return (uint64_t)(int64_t)(int32_t)xls_be32(p) * 1000000000ull + xls_be32(p + 4);
}

void xls_fsview_core(const struct xls_geometry *g, const uint8_t *d,
		     struct xls_inode_core *c)
{
	bool bigtime;

	memset(c, 0, sizeof(*c));
	if (xls_be16(d + DI(di_magic)) != XFS_DINODE_MAGIC)
		return;
	c->valid = true;
	c->mode = xls_be16(d + DI(di_mode));
	c->version = d[DI(di_version)];
	c->format = d[DI(di_format)];
	c->uid = xls_be32(d + DI(di_uid));
	c->gid = xls_be32(d + DI(di_gid));
	c->nlink = xls_be32(d + DI(di_nlink));
	c->size = xls_be64(d + DI(di_size));
	c->nblocks = xls_be64(d + DI(di_nblocks));
	c->forkoff = d[DI(di_forkoff)];
	c->aformat = d[DI(di_aformat)];
	c->flags = xls_be16(d + DI(di_flags));
	c->gen = xls_be32(d + DI(di_gen));
	c->flags2 = c->version >= 3 && g->inode_size >= sizeof(struct xfs_dinode) ?
		    xls_be64(d + DI(di_flags2)) : 0;
	bigtime = c->flags2 & XFS_DIFLAG2_BIGTIME;
	if (c->flags2 & XFS_DIFLAG2_NREXT64) {
		c->nextents = xls_be64(d + DI(di_big_nextents));
		c->anextents = xls_be32(d + DI(di_big_anextents));
	} else {
		c->nextents = xls_be32(d + DI(di_nextents));
		c->anextents = xls_be16(d + DI(di_anextents));
	}
	c->atime = ts_of(d + DI(di_atime), bigtime);
	c->mtime = ts_of(d + DI(di_mtime), bigtime);
	c->ctime = ts_of(d + DI(di_ctime), bigtime);
	if (c->version >= 3 && g->inode_size >= sizeof(struct xfs_dinode))
		c->crtime = ts_of(d + DI(di_crtime), bigtime);
}

/* ------------------------------------------------------------------ */
/* the inode btree: allocated or free, as xfs_repair reads it */

/*
 * The inodes of the chunk of @agino the inobt leaf records @r (xfs_inobt_rec)
 * call allocated, one bit each (a sparse chunk's holes are not inodes);
 * 0 when no record holds it.  -1 when the block cannot be read.
 */
static int leaf_allocated(const struct xls_geometry *g, const uint8_t *r, uint32_t numrecs,
			  uint32_t maxrecs, uint32_t agino, uint64_t *mask)
{
	*mask = 0;
	if (numrecs > maxrecs)
		return -1;
	for (uint32_t i = 0; i < numrecs; i++, r += 16) {
		uint32_t start = xls_be32(r);
		uint64_t holes = 0;

		if (agino < start || agino >= start + XFS_INODES_PER_CHUNK)
			continue;
		/* ir_holemask: one bit for 4 inodes of a sparse chunk */
		if (g->crc)
			for (uint32_t b = 0; b < 16; b++)
				if ((xls_be16(r + 4) >> b) & 1)
					holes |= 0xfull << (4 * b);
		*mask = ~xls_be64(r + 8) & ~holes;
		/* one bit per inode from the chunk's first: shift to agino's */
		if (start % XFS_INODES_PER_CHUNK)
			return -1;
		return 1;
	}
	return 0;
}

/* The record of @agino, level by level down the inode btree from @agbno. */
static int inobt_walk(const struct xls_fsview *v, uint64_t agstart, uint32_t agbno,
		      uint32_t agino, uint64_t *mask)
{
	const struct xls_geometry *g = &v->src->geo;
	uint32_t hdr = g->crc ? XFS_BTREE_SBLOCK_CRC_LEN : XFS_BTREE_SBLOCK_LEN;
	uint8_t *b = malloc(g->blocksize ? g->blocksize : 1);
	int rc = -1;

	*mask = 0;
	for (uint32_t depth = 0; b && depth <= XLS_FSVIEW_MAX_DEPTH; depth++) {
		uint32_t level, numrecs, maxrecs, m, child = UINT32_MAX;

		if (agbno >= g->ag_blocks || view_read(v, (int64_t)((agstart + agbno) <<
							     (g->block_log - 9)), 0, b,
						       g->blocksize, NULL))
			break;
		m = xls_be32(b);
		if (m != XFS_IBT_MAGIC && m != XFS_IBT_CRC_MAGIC)
			break;
		level = xls_be16(b + 4);
		numrecs = xls_be16(b + 6);
		if (!level) {
			rc = leaf_allocated(g, b + hdr, numrecs, (g->blocksize - hdr) / 16, agino,
					    mask);
			break;
		}
		maxrecs = (g->blocksize - hdr) / 8;
		if (numrecs > maxrecs)
			break;
		/* the last key not above agino leads to its record */
		for (uint32_t i = 0; i < numrecs; i++)
			if (xls_be32(b + hdr + 4 * i) <= agino)
				child = xls_be32(b + hdr + 4 * maxrecs + 4 * i);
		if (child == UINT32_MAX) {
			rc = 0;
			break;
		}
		agbno = child;
	}
	free(b);
	return rc;
}

/* The inobt record of @ino: 1 with its mask, 0 none, -1 unreadable. */
static int chunk_record(const struct xls_fsview *v, uint64_t ino, uint64_t *mask)
{
	const struct xls_geometry *g = &v->src->geo;
	uint64_t agno = ino >> (g->ag_block_log + g->inopb_log), agstart;
	uint32_t agino = (uint32_t)(ino & ((1ull << (g->ag_block_log + g->inopb_log)) - 1));
	uint8_t agi[512];

	*mask = 0;
	agstart = agno * g->ag_blocks;
	if (view_read(v, (int64_t)((agstart << (g->block_log - 9)) + 2 * g->data_sect_bbs), 0,
		      agi, sizeof(agi), NULL) || xls_be32(agi) != XFS_AGI_MAGIC)
		return -1;
	return inobt_walk(v, agstart, xls_be32(agi + offsetof(struct xfs_agi, agi_root)), agino,
			  mask);
}

/*
 * The inobt record of the chunk of @ino, through the cache: 1 with its
 * allocation mask, 0 when no record holds it (all free), -1 unreadable.
 * A cached chunk is three entries: the mask's halves and whether a record
 * was found.
 */
static int chunk_cached(const struct xls_fsview *v, uint64_t ino, uint64_t *mask)
{
	uint64_t chunk = ino & ~(uint64_t)(XFS_INODES_PER_CHUNK - 1);
	uint32_t *lo, *hi, *found;
	int rc;

	if (v->cache && (found = xls_hashmap_find(v->cache, chunk, 2)) &&
	    (lo = xls_hashmap_find(v->cache, chunk, 0)) &&
	    (hi = xls_hashmap_find(v->cache, chunk, 1))) {
		*mask = (uint64_t)*hi << 32 | *lo;
		return (int)*found;
	}
	rc = chunk_record(v, ino, mask);
	if (rc >= 0 && v->cache && v->cache->used < XLS_FSVIEW_CACHE_MAX &&
	    (xls_hashmap_put(v->cache, chunk, 0, (uint32_t)*mask) ||
	     xls_hashmap_put(v->cache, chunk, 1, (uint32_t)(*mask >> 32)) ||
	     xls_hashmap_put(v->cache, chunk, 2, (uint32_t)rc)))
		return -1;
	return rc;
}

static bool chunk_geometry_ok(const struct xls_geometry *g)
{
	return g->block_log && g->ag_blocks && g->ag_block_log + g->inopb_log < 32 + 32;
}

int xls_fsview_inode_chunk(const struct xls_fsview *v, uint64_t ino)
{
	uint64_t mask;

	if (!chunk_geometry_ok(&v->src->geo))
		return -1;
	return chunk_cached(v, ino, &mask);
}

int xls_fsview_inode_allocated(const struct xls_fsview *v, uint64_t ino)
{
	const struct xls_geometry *g = &v->src->geo;
	uint64_t mask;

	if (!chunk_geometry_ok(g) || chunk_cached(v, ino, &mask) < 0)
		return -1;
	return (mask >> (ino & (XFS_INODES_PER_CHUNK - 1))) & 1;
}

bool xls_inode_core_free(const struct xls_inode_core *c)
{
	return !c->valid || c->mode == 0;
}

/* ------------------------------------------------------------------ */
/* the data fork: extents of a directory */

struct dir_walk {
	const struct xls_fsview	*v;
	const struct xls_geometry *g;
	xls_dirent_fn		fn;
	xls_xattr_fn		afn;	/* the attr fork: each leaf block's attrs */
	void			*ctx;
	uint64_t		limit;	/* file blocks past it hold no entries */
	uint64_t		*parent;
	uint32_t		problems;
	uint32_t		extents;	/* seen, bounded */
	uint32_t		blocks;		/* read, bounded */
	uint8_t			*blk;		/* one directory block */
	uint64_t		cur;		/* its first file block, or UINT64_MAX */
	uint32_t		filled;		/* file blocks of it read */
	uint32_t		blkfsbs;	/* file blocks per directory block */
	/*
	 * A bmap btree block per level (index: depth), taken on first use and
	 * kept for the walk: a walk descends to every leaf in turn.
	 */
	uint8_t			*bmbt[XLS_FSVIEW_MAX_DEPTH + 1];
	/* a walk of the mapping only: each written extent, no block read */
	void			(*on_extent)(struct dir_walk *w, uint64_t off, uint64_t fsb,
					     uint64_t count);
	/* xls_fsview_fork_extents(): the caller's */
	void			(*ext_fn)(void *ctx, uint64_t off, uint64_t fsb, uint64_t count);
	void			*ext_ctx;
	/* xls_fsview_dir_block_daddrs(): the block wanted and its pieces */
	int64_t			want_daddr;
	uint64_t		want_off;	/* its file block, UINT64_MAX: not found */
	int64_t			*daddrs;
};

static int skip_dots(void *ctx, const struct xls_dirent *e)
{
	struct dir_walk *w = ctx;

	if (e->namelen == 2 && e->name[0] == '.' && e->name[1] == '.') {
		*w->parent = e->ino;
		return 0;
	}
	if (xls_dirent_is_dot(e))
		return 0;
	return w->fn(w->ctx, e);
}

/* The directory block being filled is whole: walk it. */
static void flush_block(struct dir_walk *w)
{
	uint32_t bytes = w->blkfsbs << w->g->block_log;

	if (w->cur != UINT64_MAX && w->filled == w->blkfsbs) {
		/* da node blocks, leaf and free blocks have no entries to give */
		if (w->afn)
			w->problems |= xls_attr_leaf_walk(w->blk, bytes, w->afn, w->ctx) &
				       ~XLS_DIRP_MAGIC;
		else if (w->cur == 0 && !xls_dir_is_data_block(w->blk, bytes))
			w->problems |= XLS_FSVIEW_FIRST_NOT_DATA;
		else
			w->problems |= xls_dir_block_walk(w->g, w->blk, bytes, skip_dots, w) &
				       ~XLS_DIRP_MAGIC;
	}
	w->cur = UINT64_MAX;
	w->filled = 0;
}

/* File blocks [off, off+count) at filesystem block @fsb. */
static void take_extent(struct dir_walk *w, uint64_t off, uint64_t fsb, uint64_t count)
{
	const struct xls_geometry *g = w->g;
	uint64_t leaf = w->limit;

	if (off >= leaf)
		return;
	if (count > leaf - off)
		count = leaf - off;
	while (count) {
		uint64_t dblk = off / w->blkfsbs * w->blkfsbs;
		uint64_t in = off - dblk, n = w->blkfsbs - in;
		int64_t daddr = xls_fsb_to_daddr(g, fsb);

		if (n > count)
			n = count;
		if (w->cur != dblk) {
			flush_block(w);
			w->cur = dblk;
		}
		w->blocks += (uint32_t)n;
		if (w->blocks > XLS_FSVIEW_MAX_BLOCKS) {
			w->problems |= XLS_FSVIEW_TOO_BIG;
			return;
		}
		if (w->v->skip_held && daddr >= 0 &&
		    xls_overlay_holds(w->v->ovl, daddr, 0, (uint32_t)(n << g->block_log))) {
			w->cur = UINT64_MAX;	/* never whole: not walked */
		} else if (daddr < 0 || view_read(w->v, daddr, 0, w->blk + (in << g->block_log),
					   (uint32_t)(n << g->block_log), NULL)) {
			w->problems |= XLS_FSVIEW_UNREADABLE;
			w->cur = UINT64_MAX;
		} else {
			w->filled += (uint32_t)n;
		}
		if (w->filled == w->blkfsbs)
			flush_block(w);
		off += n;
		fsb += n;
		count -= n;
	}
}

bool xls_bmbt_rec_unpack(const uint8_t *rec, uint64_t *off, uint64_t *fsb, uint64_t *count)
{
	uint64_t l0 = xls_be64(rec), l1 = xls_be64(rec + 8);

	*off = (l0 & ((1ull << 63) - 1)) >> 9;
	*fsb = ((l0 & 0x1ff) << 43) | (l1 >> 21);
	*count = l1 & ((1ull << 21) - 1);
	return !(l0 >> 63);
}

/* One packed xfs_bmbt_rec. */
static void take_rec(struct dir_walk *w, const uint8_t *rec)
{
	uint64_t off, fsb, count;

	/* an unwritten extent holds no entries */
	if (!xls_bmbt_rec_unpack(rec, &off, &fsb, &count))
		return;
	if (++w->extents > XLS_FSVIEW_MAX_EXTENTS) {
		w->problems |= XLS_FSVIEW_TOO_BIG;
		return;
	}
	if (w->on_extent)
		w->on_extent(w, off, fsb, count);
	else
		take_extent(w, off, fsb, count);
}

static void walk_bmbt(struct dir_walk *w, uint64_t fsb, uint32_t depth);

/* Records or child pointers of a btree block or root. */
static void walk_btree_level(struct dir_walk *w, const uint8_t *recs, uint32_t numrecs,
			     uint32_t maxrecs, uint32_t level, uint32_t depth)
{
	if (numrecs > maxrecs) {
		w->problems |= XLS_FSVIEW_TOO_BIG;
		numrecs = maxrecs;
	}
	for (uint32_t i = 0; i < numrecs && !(w->problems & XLS_FSVIEW_TOO_BIG); i++) {
		if (!level)
			take_rec(w, recs + (size_t)i * 16);
		else
			walk_bmbt(w, xls_be64(recs + (size_t)maxrecs * 8 + (size_t)i * 8),
				  depth + 1);
	}
}

static void walk_bmbt(struct dir_walk *w, uint64_t fsb, uint32_t depth)
{
	const struct xls_geometry *g = w->g;
	uint32_t hdr = g->crc ? XFS_BTREE_LBLOCK_CRC_LEN : XFS_BTREE_LBLOCK_LEN;
	int64_t daddr = xls_fsb_to_daddr(g, fsb);
	uint32_t level, numrecs, maxrecs;
	uint8_t *b;

	/* a hostile tree of empty leaves must not be read block by block forever */
	if (depth > XLS_FSVIEW_MAX_DEPTH || daddr < 0 || ++w->blocks > XLS_FSVIEW_MAX_BLOCKS) {
		w->problems |= XLS_FSVIEW_TOO_BIG;
		return;
	}
	if (!w->bmbt[depth])
		w->bmbt[depth] = malloc(g->blocksize);
	b = w->bmbt[depth];
	if (!b || view_read(w->v, daddr, 0, b, g->blocksize, NULL) ||
	    (xls_be32(b) != XFS_BMAP_MAGIC && xls_be32(b) != XFS_BMAP_CRC_MAGIC)) {
		w->problems |= XLS_FSVIEW_UNREADABLE;
		return;
	}
	level = xls_be16(b + 4);
	numrecs = xls_be16(b + 6);
	maxrecs = (g->blocksize - hdr) / 16;
	walk_btree_level(w, b + hdr, numrecs, maxrecs, level, depth);
}

const uint8_t *xls_fsview_data_fork(const struct xls_geometry *g, const uint8_t *d,
				    uint32_t *len)
{
	uint32_t core = d[DI(di_version)] >= 3 ? sizeof(struct xfs_dinode) : DI(di_crc);
	uint32_t lit = g->inode_size > core ? g->inode_size - core : 0;
	uint32_t forkoff = (uint32_t)d[DI(di_forkoff)] << 3;

	*len = forkoff && forkoff < lit ? forkoff : lit;
	return d + core;
}

const uint8_t *xls_fsview_attr_fork(const struct xls_geometry *g, const uint8_t *d,
				    uint32_t *len)
{
	uint32_t core = d[DI(di_version)] >= 3 ? sizeof(struct xfs_dinode) : DI(di_crc);
	uint32_t forkoff = (uint32_t)d[DI(di_forkoff)] << 3;

	if (!forkoff || core + forkoff >= g->inode_size) {
		*len = 0;
		return NULL;
	}
	*len = g->inode_size - core - forkoff;
	return d + core + forkoff;
}

/* The extents or bmap btree of a fork, into @w. */
static void walk_fork(struct dir_walk *w, uint8_t format, const uint8_t *fork, uint32_t flen,
		      uint64_t nextents)
{
	if (format == XFS_DINODE_FMT_EXTENTS) {
		if (nextents > flen / 16) {
			w->problems |= XLS_FSVIEW_TOO_BIG;
			nextents = flen / 16;
		}
		for (uint64_t i = 0; i < nextents && !(w->problems & XLS_FSVIEW_TOO_BIG); i++)
			take_rec(w, fork + i * 16);
	} else if (format == XFS_DINODE_FMT_BTREE && flen >= 4) {
		walk_btree_level(w, fork + 4, xls_be16(fork + 2), (flen - 4) / 16,
				 xls_be16(fork), 0);
	}
	flush_block(w);
	for (uint32_t i = 0; i <= XLS_FSVIEW_MAX_DEPTH; i++) {
		free(w->bmbt[i]);
		w->bmbt[i] = NULL;
	}
}

uint32_t xls_fsview_attrs(const struct xls_fsview *v, uint64_t ino, xls_xattr_fn fn,
			  void *ctx)
{
	const struct xls_geometry *g = &v->src->geo;
	struct dir_walk w = { .v = v, .g = g, .afn = fn, .ctx = ctx, .cur = UINT64_MAX,
			      .blkfsbs = 1, .limit = UINT64_MAX };
	struct xls_inode_core c;
	uint8_t dino[2048];
	/*
	 * On the stack: a buffer taken from the heap per call, among the
	 * small allocations that stay, landed on fresh pages each time.
	 */
	uint8_t blk[XFS_MAX_BLOCKSIZE];
	const uint8_t *fork;
	uint32_t flen;

	if (!g->inode_size || g->inode_size > sizeof(dino) || !g->blocksize ||
	    g->blocksize > sizeof(blk) ||
	    xls_fsview_read_inode(v, ino, dino, NULL))
		return XLS_FSVIEW_UNREADABLE;
	xls_fsview_core(g, dino, &c);
	if (xls_inode_core_free(&c))
		return XLS_FSVIEW_NOT_DIR;
	fork = xls_fsview_attr_fork(g, dino, &flen);
	if (!fork)
		return 0;
	if (c.aformat == XFS_DINODE_FMT_LOCAL)
		return xls_attr_sf_walk(fork, flen, fn, ctx);
	w.blk = blk;
	walk_fork(&w, c.aformat, fork, flen, c.anextents);
	return w.problems;
}

/* The extent holding the daddr wanted: its file block. */
static void find_daddr(struct dir_walk *w, uint64_t off, uint64_t fsb, uint64_t count)
{
	int64_t first = xls_fsb_to_daddr(w->g, fsb);
	uint64_t bb;

	if (first < 0 || w->want_daddr < first || w->want_off != UINT64_MAX ||
	    w->g->block_log < 9)
		return;
	bb = (uint64_t)1 << (w->g->block_log - 9);
	if ((uint64_t)(w->want_daddr - first) < count * bb &&
	    (uint64_t)(w->want_daddr - first) % bb == 0)
		w->want_off = off + (uint64_t)(w->want_daddr - first) / bb;
}

/* The daddrs of the file blocks of the block from want_off on. */
static void fill_daddrs(struct dir_walk *w, uint64_t off, uint64_t fsb, uint64_t count)
{
	for (uint64_t i = 0; i < count; i++) {
		uint64_t fb = off + i;

		if (fb >= w->want_off && fb < w->want_off + w->blkfsbs)
			w->daddrs[fb - w->want_off] = xls_fsb_to_daddr(w->g, fsb + i);
		if (fb >= w->want_off + w->blkfsbs)
			break;
	}
}

/* The data fork of inode @ino, and its core: NULL when it has none readable. */
static const uint8_t *dir_fork(const struct xls_fsview *v, uint64_t ino, uint8_t *dino,
			       struct xls_inode_core *c, uint32_t *flen)
{
	const struct xls_geometry *g = &v->src->geo;

	if (!g->inode_size || g->inode_size > 2048 || xls_fsview_read_inode(v, ino, dino, NULL))
		return NULL;
	xls_fsview_core(g, dino, c);
	if (xls_inode_core_free(c) || !S_ISDIR(c->mode))
		return NULL;
	return xls_fsview_data_fork(g, dino, flen);
}

static void no_extent(struct dir_walk *w, uint64_t off, uint64_t fsb, uint64_t count)
{
	(void)w;
	(void)off;
	(void)fsb;
	(void)count;
}

static void to_caller(struct dir_walk *w, uint64_t off, uint64_t fsb, uint64_t count)
{
	w->ext_fn(w->ext_ctx, off, fsb, count);
}

uint32_t xls_fsview_fork_extents(const struct xls_fsview *v, const uint8_t *dino,
				 void (*fn)(void *ctx, uint64_t off, uint64_t fsb, uint64_t count),
				 void *ctx)
{
	const struct xls_geometry *g = &v->src->geo;
	struct dir_walk w = { .v = v, .g = g, .cur = UINT64_MAX, .on_extent = to_caller,
			      .ext_fn = fn, .ext_ctx = ctx };
	struct xls_inode_core c;
	const uint8_t *fork;
	uint32_t flen;

	xls_fsview_core(g, dino, &c);
	if (xls_inode_core_free(&c))
		return XLS_FSVIEW_NOT_DIR;
	fork = xls_fsview_data_fork(g, dino, &flen);
	if (!fork || (c.format != XFS_DINODE_FMT_EXTENTS && c.format != XFS_DINODE_FMT_BTREE))
		return 0;
	walk_fork(&w, c.format, fork, flen, c.nextents);
	return w.problems;
}

uint32_t xls_fsview_map_problems(const struct xls_fsview *v, uint64_t ino)
{
	const struct xls_geometry *g = &v->src->geo;
	struct dir_walk w = { .v = v, .g = g, .cur = UINT64_MAX, .on_extent = no_extent };
	struct xls_inode_core c;
	uint8_t dino[2048];
	const uint8_t *fork;
	uint32_t flen;

	if (!g->inode_size || g->inode_size > sizeof(dino) || xls_fsview_read_inode(v, ino, dino, NULL))
		return XLS_FSVIEW_UNREADABLE;
	xls_fsview_core(g, dino, &c);
	if (xls_inode_core_free(&c) || c.format != XFS_DINODE_FMT_BTREE)
		return 0;
	fork = xls_fsview_data_fork(g, dino, &flen);
	walk_fork(&w, c.format, fork, flen, c.nextents);
	return w.problems;
}

int xls_fsview_dir_block_daddrs(const struct xls_fsview *v, uint64_t ino, int64_t daddr,
				int64_t *daddrs, uint32_t max)
{
	const struct xls_geometry *g = &v->src->geo;
	struct dir_walk w = { .v = v, .g = g, .cur = UINT64_MAX, .on_extent = find_daddr,
			      .want_daddr = daddr, .want_off = UINT64_MAX, .daddrs = daddrs };
	struct xls_inode_core c;
	uint8_t dino[2048];
	const uint8_t *fork;
	uint32_t flen;

	fork = dir_fork(v, ino, dino, &c, &flen);
	if (!fork || !g->dir_block_size || g->dir_block_size < g->blocksize ||
	    (c.format != XFS_DINODE_FMT_EXTENTS && c.format != XFS_DINODE_FMT_BTREE))
		return -1;
	w.blkfsbs = g->dir_block_size >> g->block_log;
	if (w.blkfsbs > max)
		return -1;
	walk_fork(&w, c.format, fork, flen, c.nextents);
	if (w.want_off == UINT64_MAX || w.problems)
		return -1;
	w.want_off -= w.want_off % w.blkfsbs;
	for (uint32_t i = 0; i < w.blkfsbs; i++)
		daddrs[i] = -1;
	w.on_extent = fill_daddrs;
	w.extents = 0;
	walk_fork(&w, c.format, fork, flen, c.nextents);
	for (uint32_t i = 0; i < w.blkfsbs; i++)
		if (daddrs[i] < 0)
			return -1;
	return (int)w.blkfsbs;
}

/* xls_fsview_dir(), the directory blocks before file block @limit only. */
static uint32_t dir_walk_to(const struct xls_fsview *v, uint64_t ino, uint64_t *parent,
			    xls_dirent_fn fn, void *ctx, uint64_t limit)
{
	const struct xls_geometry *g = &v->src->geo;
	struct dir_walk w = { .v = v, .g = g, .fn = fn, .ctx = ctx, .parent = parent,
			      .cur = UINT64_MAX };
	struct xls_inode_core c;
	uint8_t dino[2048];
	uint8_t blk[XFS_MAX_BLOCKSIZE];		/* as in xls_fsview_attrs */
	const uint8_t *fork;
	uint32_t flen;

	*parent = 0;
	if (!g->inode_size || g->inode_size > sizeof(dino) || !g->dir_block_size ||
	    g->dir_block_size > sizeof(blk) ||
	    xls_fsview_read_inode(v, ino, dino, NULL))
		return XLS_FSVIEW_UNREADABLE;
	xls_fsview_core(g, dino, &c);
	if (xls_inode_core_free(&c) || !S_ISDIR(c.mode))
		return XLS_FSVIEW_NOT_DIR;
	fork = xls_fsview_data_fork(g, dino, &flen);
	if (c.format == XFS_DINODE_FMT_LOCAL) {
		uint32_t used = c.size < flen ? (uint32_t)c.size : flen;

		return xls_dir_sf_walk(g, fork, used, parent, fn, ctx);
	}
	w.blkfsbs = g->dir_block_size >> g->block_log;
	w.limit = limit;
	if (!w.blkfsbs)
		return XLS_FSVIEW_UNREADABLE;
	w.blk = blk;
	walk_fork(&w, c.format, fork, flen, c.nextents);
	return w.problems;
}

uint32_t xls_fsview_dir(const struct xls_fsview *v, uint64_t ino, uint64_t *parent,
			xls_dirent_fn fn, void *ctx)
{
	/* XFS_DIR2_LEAF_OFFSET: past it, leaf and free blocks, no entries */
	return dir_walk_to(v, ino, parent, fn, ctx, 1ull << (35 - v->src->geo.block_log));
}

bool xls_fsview_dir_first_not_data(const struct xls_fsview *v, uint64_t ino)
{
	const struct xls_geometry *g = &v->src->geo;
	uint64_t parent;

	return g->block_log && (dir_walk_to(v, ino, &parent, xls_dirent_ignore, NULL,
					    g->dir_block_size >> g->block_log) &
				XLS_FSVIEW_FIRST_NOT_DATA);
}
