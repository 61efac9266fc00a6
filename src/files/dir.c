/*
 * Files stage: directory entries added and removed, from
 * directory data and block-form blocks as the log leaves them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/ondisk.h"
#include "base/vec.h"
#include <xfs/xfs_da_format.h>
#include "files/run.h"

/* The entries of before and after that differ, as events of directory @dir. */
void xls_files_diff_entries(struct xls_files *f, uint64_t dir)
{
	struct xls_dirent_set *a = &f->before, *b = &f->after;
	uint32_t i = 0, j = 0;

	/* most of a block logged again is as it was: only the rest is sorted */
	xls_dirent_set_drop_same(a, b);
	xls_dirent_set_sort(a);
	xls_dirent_set_sort(b);
	while (i < a->n || j < b->n) {
		int c = i == a->n ? 1 : j == b->n ? -1 : xls_dirent_set_cmp(a, i, b, j, true);
		const struct xls_dirent_set *s = c < 0 ? a : b;
		uint32_t k = c < 0 ? i : j;
		struct xls_file_event *e;

		if (!c) {
			i++;
			j++;
			continue;
		}
		e = xls_fevent(f, s->e[k].ino, c < 0 ? XLS_FEV_DIRENT_REMOVE : XLS_FEV_DIRENT_ADD);
		if (e) {
			e->dir = dir;
			xls_fevent_name(f, e, xls_dirent_set_name(s, k), s->e[k].len, false);
		}
		if (c < 0)
			i++;
		else
			j++;
	}
	if (a->nomem || b->nomem)
		f->nomem = true;
}

bool xls_files_is_dir_data(unsigned int blft)
{
	return blft == XFS_BLFT_DIR_BLOCK_BUF || blft == XFS_BLFT_DIR_DATA_BUF;
}

/* The LSN a v5 block header records, 0 if none. */
static uint64_t header_lsn(const uint8_t *blk, uint32_t len)
{
	uint32_t m = len >= 4 ? xls_be32(blk) : 0;

	if ((m == XFS_DIR3_BLOCK_MAGIC || m == XFS_DIR3_DATA_MAGIC) &&
	    len >= offsetof(struct xfs_dir3_blk_hdr, lsn) + 8)
		return xls_be64(blk + offsetof(struct xfs_dir3_blk_hdr, lsn));
	return 0;
}

/* The entries that overlap the regions an item logs: only they can change. */
struct in_regions {
	struct xls_dirent_set		*set;
	const struct xls_geometry	*g;
	const struct xls_region_place	*p;
	uint32_t			n, at;
	/* and every entry named on the way, when not NULL (a block seen first) */
	struct xls_names_dir		*learn;
};

static int collect_logged(void *ctx, const struct xls_dirent *e)
{
	struct in_regions *r = ctx;
	uint32_t end = e->offset + xls_dirent_size(r->g, e->namelen);

	if (r->learn)
		xls_names_learn_entry(r->learn, e);
	/* entries come in offset order, and so do the places */
	while (r->at < r->n && r->p[r->at].offset + r->p[r->at].len <= e->offset)
		r->at++;
	if (r->at == r->n || r->p[r->at].offset >= end)
		return 0;
	return xls_dirent_set_add(r->set, e);
}

/* ------------------------------------------------------------------ */
/* a directory block, as one item or the segments of a compound log it */

/* The v5 owner a directory block's header names, 0 when none. */
static uint64_t owner_of(const struct xls_files *f, int64_t blkno, const uint8_t *blk,
			 uint32_t bytes)
{
	struct xls_owner o;

	if (!xls_owner_from_header(&f->src->geo, blkno, bytes / BBSIZE, blk, bytes, &o))
		return 0;
	return o.has_ino ? o.ino : 0;
}

/*
 * Is the disk's block, where the log's view has nothing yet, one recovery
 * compares with?  A directory block of this directory: yes (known), or no
 * when it carries a later LSN (the disk holds a newer state: unsure).
 * Anything else -- never written, zeroed, a stale block of another
 * directory or of a file -- holds no entry at all: *@fresh, the block is
 * new.
 */
static bool disk_state_known(struct xls_files *f, const struct xls_rtrans *rt,
			     const struct xls_rbuf *rb, const uint8_t *blk, uint32_t bytes,
			     bool *fresh)
{
	const struct xls_geometry *g = &f->src->geo;
	uint64_t lsn, logged = 0;
	struct xls_owner o;

	if (rb->head && xls_owner_from_header(g, rb->blkno, bytes / BBSIZE, rb->head,
					      rb->head_len, &o) && o.has_ino)
		logged = o.ino;
	*fresh = !xls_dir_is_data_block(blk, bytes) ||
		 (g->crc && logged && owner_of(f, rb->blkno, blk, bytes) != logged);
	/* before the tail, the disk holds a later state of every block */
	if (f->stale)
		return false;
	if (*fresh || !g->crc)
		return true;
	lsn = header_lsn(blk, bytes);
	return !lsn || lsn < rt->t->lsn;
}

/* Bytes [@offset, +@len) into @out, joined to the last place when they touch. */
static void add_place(struct xls_region_place *out, uint32_t *n, uint32_t offset, uint32_t len)
{
	if (*n && out[*n - 1].offset + out[*n - 1].len == offset) {
		out[*n - 1].len += len;
		return;
	}
	if (*n == XLS_DIR_ACC_PLACES)
		return;
	out[*n].offset = offset;
	out[*n].len = len;
	(*n)++;
}

/* ------------------------------------------------------------------ */
/*
 * Blocks the disk holds a later state of than the log's first item of
 * them (recovery skips those items): their bytes in the log's view mix
 * the disk's later state with the chunks the log logged, so a walk from
 * the block's start may follow either.  Their entries are found in the
 * chunks an item logs, each by its tag, and compared only where the log
 * logged every chunk of the entry before: elsewhere the state before
 * the item is not known.
 */

/* The later block at @blkno; with @add, made when it is not one yet. */
static uint64_t *later_block(struct xls_files *f, int64_t blkno, bool add)
{
	uint32_t *i = xls_hashmap_find(&f->later_idx, (uint64_t)blkno, 0);

	if (i)
		return f->later[*i].logged;
	if (!add)
		return NULL;
	if (!xls_vec_grow((void **)&f->later, f->nlater, &f->caplater, sizeof(*f->later)) ||
	    xls_hashmap_put(&f->later_idx, (uint64_t)blkno, 0, f->nlater)) {
		f->nomem = true;
		return NULL;
	}
	memset(&f->later[f->nlater], 0, sizeof(*f->later));
	return f->later[f->nlater++].logged;
}

static bool chunk_logged(const uint64_t *logged, uint32_t offset)
{
	uint32_t c = offset / XFS_BLF_CHUNK;

	return (logged[c / 64] >> (c % 64)) & 1;
}

/* The chunks the item logs are known from now on. */
static void later_mark_logged(const struct xls_dir_acc *a)
{
	for (uint32_t i = 0; i < a->nlogged; i++) {
		uint32_t end = a->logged[i].offset + a->logged[i].len;

		for (uint32_t o = a->logged[i].offset; o < end && o < XFS_MAX_BLOCKSIZE;
		     o += XFS_BLF_CHUNK)
			a->logged_before[o / XFS_BLF_CHUNK / 64] |= 1ull << (o / XFS_BLF_CHUNK % 64);
	}
}

struct later_scan {
	struct xls_dirent_set		*set;
	const struct xls_geometry	*g;
	const uint64_t			*logged;
	bool				known;	/* keep the entries whose chunks are, or not */
};

static int collect_later(void *ctx, const struct xls_dirent *e)
{
	struct later_scan *s = ctx;
	uint32_t end = e->offset + xls_dirent_size(s->g, e->namelen);
	bool known = true;

	if (xls_dirent_is_dot(e))
		return 0;
	for (uint32_t o = e->offset & ~(uint32_t)(XFS_BLF_CHUNK - 1); o < end && known;
	     o += XFS_BLF_CHUNK)
		known = o < XFS_MAX_BLOCKSIZE && chunk_logged(s->logged, o);
	return known == s->known ? xls_dirent_set_add(s->set, e) : 0;
}

/* The entries whole inside the chunks the item logs of @blk, into @set. */
static void later_entries(struct xls_files *f, const uint8_t *blk, struct xls_dirent_set *set,
			  bool known)
{
	struct xls_dir_acc *a = &f->dir;
	struct later_scan s = { set, &f->src->geo, a->logged_before, known };

	xls_dirent_set_reset(set);
	for (uint32_t i = 0; i < a->nlogged; i++)
		xls_dir_range_scan(&f->src->geo, blk, a->bytes, a->logged[i].offset,
				   a->logged[i].offset + a->logged[i].len, collect_later, &s);
}

/*
 * The 128-byte chunks of the block before the item (@before, the whole
 * block) that the piece at byte @base changes -- a relogged region mostly
 * holds what the block already has -- and every chunk it logs.
 */
static void piece_places(struct xls_dir_acc *a, const uint8_t *before, const struct xls_rbuf *rb,
			 uint32_t base)
{
	const uint8_t *src = rb->data;
	uint64_t end = (uint64_t)base + rb->len * BBSIZE;

	for (uint32_t i = 0; i < rb->res->nplaces; i++) {
		const struct xls_region_place *p = &rb->res->places[i];
		uint64_t at = (uint64_t)base + p->offset;

		for (uint32_t off = 0; off < p->len && at + off < end && at + off < a->bytes;
		     off += XFS_BLF_CHUNK) {
			uint32_t len = p->len - off < XFS_BLF_CHUNK ? p->len - off : XFS_BLF_CHUNK;
			uint32_t o = (uint32_t)(at + off);

			add_place(a->logged, &a->nlogged, o, len);
			if (memcmp(before + o, src + off, len))
				add_place(a->changed, &a->nchanged, o, len);
		}
		src += p->len;
	}
}

/*
 * The entries a block the disk holds a later state of has in the chunks
 * the item logs, where the state before is not known (every chunk, at
 * its first item): each an unsure add (confirm_unsure keeps those the
 * transaction creates, pair_moves those it moves).
 */
static void unsure_entries(struct xls_files *f, const uint8_t *after, uint64_t dir)
{
	uint32_t first = f->npend;

	later_entries(f, after, &f->after, false);
	for (uint32_t k = 0; k < f->after.n; k++) {
		struct xls_file_event *e = xls_fevent(f, f->after.e[k].ino, XLS_FEV_DIRENT_ADD);

		if (!e)
			return;
		e->dir = dir;
		xls_fevent_name(f, e, xls_dirent_set_name(&f->after, k), f->after.e[k].len, false);
	}
	for (uint32_t i = first; i < f->npend; i++)
		f->pend[i].unsure = true;
}

/* The entries of the block before the item that its changes touch, into f->before. */
static void walk_before(struct xls_files *f, const uint8_t *before)
{
	struct xls_dir_acc *a = &f->dir;
	struct in_regions in = { &f->before, &f->src->geo, a->changed, a->nchanged, 0, NULL };

	xls_dirent_set_reset(&f->before);
	if (a->known && a->nchanged)
		xls_dir_block_walk(&f->src->geo, before, a->bytes, collect_logged, &in);
}

/* The block is whole, @after as the items leave it: its entries compared. */
static void finish_block(struct xls_files *f, const uint8_t *after)
{
	struct xls_dir_acc *a = &f->dir;
	const struct xls_geometry *g = &f->src->geo;
	struct xls_names_dir learnt = { &f->names, owner_of(f, a->blkno, after, a->bytes) };
	/* a block seen for the first time names every inode it holds */
	bool learn = !a->seen && learnt.dir;
	struct in_regions in = { &f->after, g, a->changed, a->nchanged, 0,
				 learn ? &learnt : NULL };

	a->active = false;
	xls_dirent_set_reset(&f->after);
	if (a->logged_before) {
		later_entries(f, after, &f->after, true);
		xls_files_diff_entries(f, learnt.dir);
		unsure_entries(f, after, learnt.dir);
		learn = false;
	} else if (a->known && a->nchanged) {
		uint32_t problems = xls_dir_block_walk(g, after, a->bytes, collect_logged, &in);

		/* a segment read as a block of its own is not a block at all */
		xls_files_malformed(f, XLS_FILES_DIR_BLOCK, (uint64_t)a->blkno,
				    a->quiet ? 0 : problems);
		xls_files_diff_entries(f, learnt.dir);
		learn = false;
	}
	if (learn)
		xls_dir_block_walk(g, after, a->bytes, xls_names_learn_entry, &learnt);
	xls_names_view_changed(&f->names);
	if (f->before.nomem || f->after.nomem)
		f->nomem = true;
}

/* Room for a block of @bytes before and after. */
static bool block_room(struct xls_files *f, uint32_t bytes)
{
	struct xls_dir_acc *a = &f->dir;
	uint8_t *b, *c;

	if (bytes <= a->cap)
		return true;
	b = realloc(a->before, bytes);
	if (b)
		a->before = b;
	c = b ? realloc(a->after, bytes) : NULL;
	if (!c) {
		f->nomem = true;
		return false;
	}
	a->after = c;
	a->cap = bytes;
	return true;
}

/* A new block begins, @bytes long, at daddr @blkno. */
static bool begin_block(struct xls_files *f, int64_t blkno, uint32_t bytes, uint32_t compound)
{
	struct xls_dir_acc *a = &f->dir;

	if (!bytes || !block_room(f, bytes))
		return false;
	a->active = true;
	a->blkno = blkno;
	a->bytes = bytes;
	a->compound = compound;
	a->nchanged = a->nlogged = a->npieces = 0;
	a->logged_before = NULL;
	a->seen = true;
	a->known = true;
	a->fresh = false;
	a->quiet = false;
	return true;
}

/*
 * The log's view of @len bytes at daddr @blkno: the overlay's own copy
 * (*@seen), else the disk's read into @buf.  NULL when unreadable.
 */
static const uint8_t *view_bytes(struct xls_files *f, int64_t blkno, uint32_t len, uint8_t *buf,
				 bool *seen)
{
	return xls_overlay_view(&f->view, blkno, len, buf, seen);
}

/*
 * The state before the first piece the view has not seen: the disk's,
 * decided at the piece that carries the header; zeros when it holds no
 * block of this directory.
 */
static const uint8_t *first_state(struct xls_files *f, const struct xls_rtrans *rt,
				  const struct xls_rbuf *rb, uint32_t base, const uint8_t *p,
				  uint8_t *buf)
{
	struct xls_dir_acc *a = &f->dir;

	a->seen = false;
	if (base == 0)
		a->known = disk_state_known(f, rt, rb, p, a->bytes, &a->fresh);
	if (!a->fresh)
		return p;
	memset(buf, 0, rb->len * BBSIZE);
	return buf;
}

/*
 * The first item of a block the disk holds a later state of: the disk's
 * entries are what recovery leaves (it skips the log's older items), so
 * they name their inodes; from here on the block is a later one.
 */
static void later_first(struct xls_files *f, const uint8_t *disk)
{
	struct xls_dir_acc *a = &f->dir;
	struct xls_names_dir learnt = { &f->names, owner_of(f, a->blkno, disk, a->bytes) };

	a->logged_before = later_block(f, a->blkno, true);
	if (a->logged_before && learnt.dir)
		xls_dir_block_walk(&f->src->geo, disk, a->bytes, xls_names_learn_entry, &learnt);
	a->known = true;
}

/* A directory block logged whole by one item: compared in place, no copy. */
static void take_block(struct xls_files *f, const struct xls_rtrans *rt,
		       const struct xls_ritem *ri, bool quiet)
{
	const struct xls_rbuf *rb = ri->buf;
	struct xls_dir_acc *a = &f->dir;
	uint32_t bytes = rb->len * BBSIZE;
	const uint8_t *p;
	bool seen;

	if (!begin_block(f, rb->blkno, bytes, 0))
		return;
	a->quiet = quiet;
	p = view_bytes(f, rb->blkno, bytes, a->before, &seen);
	if (p && !seen)
		p = first_state(f, rt, rb, 0, p, a->before);
	if (p && seen)
		a->logged_before = later_block(f, rb->blkno, false);
	else if (p && !a->known && bytes <= XFS_MAX_BLOCKSIZE)
		later_first(f, p);
	if (p) {
		piece_places(a, p, rb, 0);
		if (a->logged_before)
			later_entries(f, p, &f->before, true);
		else
			walk_before(f, p);
	} else {
		a->known = false;
	}
	xls_overlay_take(&f->view, rt, ri);
	p = view_bytes(f, rb->blkno, bytes, a->after, &seen);
	if (p)
		finish_block(f, p);
	if (a->logged_before)
		later_mark_logged(a);
	a->active = false;
}

/* Which of the mapped pieces the view held before the compound: bit i. */
static bool piece_seen(const struct xls_dir_acc *a, uint32_t i)
{
	return (a->seen_pieces[i / 64] >> (i % 64)) & 1;
}

/*
 * A compound begins at its first segment, the one with the header: the
 * directory it names maps the whole block (the log's view of its fork),
 * so that each segment goes to its place and each clean extent, which no
 * segment logs, reads as the view has it.  False when nothing maps it.
 */
static bool map_compound(struct xls_files *f, const struct xls_rbuf *rb)
{
	struct xls_dir_acc *a = &f->dir;
	const struct xls_geometry *g = &f->src->geo;
	uint8_t *before = a->before;
	struct xls_owner o;
	int n;

	a->npieces = 0;
	if (!before || !a->after || !g->blocksize || !rb->block_start || !rb->head ||
	    !xls_owner_from_header(g, rb->blkno, rb->block_bytes / BBSIZE, rb->head, rb->head_len,
				   &o) || !o.has_ino)
		return false;
	n = xls_fsview_dir_block_daddrs(&f->logview, o.ino, rb->blkno, a->pieces,
					XLS_DIR_ACC_PIECES);
	if (n <= 0 || a->pieces[0] != rb->blkno || (uint64_t)n * g->blocksize != a->bytes)
		return false;
	a->npieces = (uint32_t)n;
	memset(a->seen_pieces, 0, sizeof(a->seen_pieces));
	for (uint32_t i = 0; i < a->npieces; i++) {
		uint8_t *at = before + (size_t)i * g->blocksize;
		const uint8_t *p;
		bool seen;

		p = view_bytes(f, a->pieces[i], g->blocksize, at, &seen);
		if (!p)
			memset(at, 0, g->blocksize);
		else if (p != at)
			memcpy(at, p, g->blocksize);
		if (seen)
			a->seen_pieces[i / 64] |= 1ull << (i % 64);
	}
	memcpy(a->after, a->before, a->bytes);
	return true;
}

/* Where the segment at daddr @blkno goes in the block; -1: not one of its pieces. */
static int64_t segment_base(const struct xls_files *f, const struct xls_rbuf *rb)
{
	const struct xls_dir_acc *a = &f->dir;

	if (!a->npieces)
		return rb->seg_offset_exact ? (int64_t)rb->seg_offset : -1;
	for (uint32_t i = 0; i < a->npieces; i++)
		if (a->pieces[i] == rb->blkno)
			return (int64_t)i * f->src->geo.blocksize;
	return -1;
}

/*
 * One segment at byte @base of a compound: the log's view before it and
 * after it copied into place, for the whole block's comparison.
 */
static void take_segment(struct xls_files *f, const struct xls_rtrans *rt,
			 const struct xls_ritem *ri, uint32_t base)
{
	struct xls_dir_acc *a = &f->dir;
	const struct xls_rbuf *rb = ri->buf;
	uint32_t len = rb->len * BBSIZE, bs = f->src->geo.blocksize;
	const uint8_t *p;
	bool seen;

	if ((uint64_t)base + len > a->bytes)
		return;
	p = view_bytes(f, rb->blkno, len, a->before + base, &seen);
	if (p && !seen)
		p = first_state(f, rt, rb, base, p, a->before + base);
	if (!p)
		a->known = false;
	else if (p != a->before + base)
		memcpy(a->before + base, p, len);
	/* no directory block of it on disk: the extents the view never had are empty */
	if (base == 0 && a->fresh)
		for (uint32_t i = 1; i < a->npieces; i++)
			if (!piece_seen(a, i))
				memset(a->before + (size_t)i * bs, 0, bs);
	piece_places(a, a->before, rb, base);
	xls_overlay_take(&f->view, rt, ri);
	p = view_bytes(f, rb->blkno, len, a->after + base, &seen);
	if (!p)
		a->known = false;
	else if (p != a->after + base)
		memcpy(a->after + base, p, len);
}

static void finish_compound(struct xls_files *f)
{
	walk_before(f, f->dir.before);
	finish_block(f, f->dir.after);
}

/*
 * A compound's first segment: the block begins, mapped by its directory,
 * else placed by the offsets recovery found (all segments logged, in
 * order); false when neither places it.
 */
static bool begin_compound(struct xls_files *f, const struct xls_rbuf *rb)
{
	struct xls_dir_acc *a = &f->dir;

	if (!begin_block(f, rb->blkno, rb->block_bytes, rb->compound))
		return false;
	if (map_compound(f, rb))
		return true;
	if (rb->seg_offset_exact) {
		/* a segment that never comes reads as nothing */
		memset(a->before, 0, a->bytes);
		memset(a->after, 0, a->bytes);
		return true;
	}
	a->active = false;
	return false;
}

/*
 * A directory data or block-form buffer item.  A segment of a compound
 * (a block on discontiguous extents, logged an extent at a time) is one
 * piece of its block, which is compared once the last segment is in --
 * as recovery and lost assemble it; a segment that cannot be placed is
 * read as a block of its own, whose problems say nothing.
 */
void xls_files_take_dir_buf(struct xls_files *f, const struct xls_rtrans *rt,
			    const struct xls_ritem *ri)
{
	const struct xls_rbuf *rb = ri->buf;
	struct xls_dir_acc *a = &f->dir;
	bool seg = rb->compound && rb->block_bytes && rb->block_bytes <= XLS_DIR_ACC_PIECES *
		   (uint64_t)f->src->geo.blocksize;
	int64_t base = -1;

	if (a->active && (!seg || rb->compound != a->compound || rb->seg == 1))
		finish_compound(f);
	if (seg && rb->seg == 1)
		begin_compound(f, rb);
	if (seg && a->active)
		base = segment_base(f, rb);
	if (base < 0) {
		take_block(f, rt, ri, seg);
		return;
	}
	take_segment(f, rt, ri, (uint32_t)base);
	if (rb->seg == rb->nseg)
		finish_compound(f);
}

/* A compound whose last segment did not come: compared as far as it came. */
void xls_files_dir_flush(struct xls_files *f)
{
	if (f->dir.active)
		finish_compound(f);
}

/* ------------------------------------------------------------------ */
/*
 * Directory blocks an inode item maps that the disk's inode did not: a
 * directory whose inode the log relogs without its ever being written
 * back keeps its mapping on disk as it was (shortform, fewer extents),
 * while its blocks, written back long ago, fall before the tail and the
 * log never shows them again.  Recovery replays the inode, the blocks
 * become its, and every entry in them is one recovery adds.
 */

struct remap_ext {
	uint64_t	off, fsb, count;
};

/* An inode's written data extents, in file order. */
struct remap_map {
	struct remap_ext	*e;
	uint32_t		n, cap;
	bool			nomem;
};

static void take_ext(void *ctx, uint64_t off, uint64_t fsb, uint64_t count)
{
	struct remap_map *m = ctx;
	struct remap_ext *e = xls_vec_push((void **)&m->e, &m->n, &m->cap, sizeof(*e));

	if (!e) {
		m->nomem = true;
		return;
	}
	e->off = off;
	e->fsb = fsb;
	e->count = count;
}

/*
 * Directory inode image @dino's mapping, its bmap btree read through @v:
 * false when it is no directory's (@none_empty: an empty one, as a disk
 * inode never written or freed before the log made it a directory maps
 * nothing), or the walk fails.
 */
static bool dir_map(const struct xls_fsview *v, const uint8_t *dino, bool none_empty,
		    struct remap_map *m)
{
	struct xls_inode_core c;

	xls_fsview_core(&v->src->geo, dino, &c);
	if (xls_inode_core_free(&c) || !S_ISDIR(c.mode))
		return none_empty;
	return !xls_fsview_fork_extents(v, dino, take_ext, m) && !m->nomem;
}

/* The filesystem block @m maps file block @off to, or UINT64_MAX (binary search). */
static uint64_t fsb_at(const struct remap_map *m, uint64_t off)
{
	uint32_t lo = 0, hi = m->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct remap_ext *e = &m->e[mid];

		if (off < e->off)
			hi = mid;
		else if (off - e->off >= e->count)
			lo = mid + 1;
		else
			return e->fsb + (off - e->off);
	}
	return UINT64_MAX;
}

struct remap_add {
	struct xls_files	*f;
	uint64_t		dir;
};

static int add_entry(void *ctx, const struct xls_dirent *d)
{
	struct remap_add *r = ctx;
	struct xls_file_event *e;

	if (xls_dirent_is_dot(d))
		return 0;
	e = xls_fevent(r->f, d->ino, XLS_FEV_DIRENT_ADD);
	if (e) {
		e->dir = r->dir;
		xls_fevent_name(r->f, e, d->name, d->namelen, false);
	}
	return 0;
}

/*
 * Directory block at file block @off, now mapped through @e: unless the
 * log's view has any of it (its items tell its entries), read from the
 * device, its entries added, and its pieces taken into the view as the
 * device holds them, so that a later item of it compares with them.
 */
static void remap_block(struct xls_files *f, uint64_t dir, const struct remap_map *m,
			uint64_t off)
{
	const struct xls_geometry *g = &f->src->geo;
	uint32_t fsbs = g->dir_block_size >> g->block_log, bs = g->blocksize;
	struct remap_add r = { f, dir };
	struct xls_owner o;
	uint8_t *blk = xls_files_scratch(f, g->dir_block_size);

	if (!blk)
		return;
	for (uint32_t i = 0; i < fsbs; i++) {
		int64_t daddr = xls_fsb_to_daddr(g, fsb_at(m, off + i));

		if (daddr < 0 || xls_overlay_holds(&f->view, daddr, 0, bs) ||
		    xls_source_read_data(f->src, (uint64_t)daddr * BBSIZE, blk + (size_t)i * bs, bs))
			return;
	}
	if (!xls_dir_is_data_block(blk, g->dir_block_size) ||
	    (g->crc && (!xls_owner_from_header(g, xls_fsb_to_daddr(g, fsb_at(m, off)),
					       g->dir_block_size / BBSIZE, blk, g->dir_block_size,
					       &o) || !o.has_ino || o.ino != dir)))
		return;
	xls_dir_block_walk(g, blk, g->dir_block_size, add_entry, &r);
	for (uint32_t i = 0; i < fsbs; i++)
		xls_overlay_adopt(&f->view, xls_fsb_to_daddr(g, fsb_at(m, off + i)),
				  bs / BBSIZE);
}

void xls_files_dir_remap(struct xls_files *f, uint64_t dir, const uint8_t *before,
			 bool before_disk, const uint8_t *after)
{
	const struct xls_geometry *g = &f->src->geo;
	struct remap_map a = { 0 }, b = { 0 };
	/* XFS_DIR2_LEAF_OFFSET: past it, leaf and free blocks, no entries */
	uint64_t leaf = g->block_log ? 1ull << (35 - g->block_log) : 0;
	uint32_t fsbs = g->block_log && g->dir_block_size >= g->blocksize ?
			g->dir_block_size >> g->block_log : 0;

	if (f->stale || !fsbs || g->dir_block_size > XFS_MAX_BLOCKSIZE)
		return;
	/* the mapping before from the disk's bmap btree, the one after from the log's */
	if (dir_map(before_disk ? &f->disk : &f->logview, before, before_disk, &a) &&
	    dir_map(&f->logview, after, false, &b))
		for (uint32_t i = 0; i < b.n; i++) {
			uint64_t end = b.e[i].off + b.e[i].count < leaf ?
				       b.e[i].off + b.e[i].count : leaf;

			for (uint64_t off = b.e[i].off - b.e[i].off % fsbs; off < end; off += fsbs)
				if (off >= b.e[i].off && fsb_at(&a, off) != fsb_at(&b, off))
					remap_block(f, dir, &b, off);
		}
	if (a.nomem || b.nomem)
		f->nomem = true;
	xls_vec_free(a.e);
	xls_vec_free(b.e);
}
