/*
 * Replay stage: an overlay of the blocks recovery writes, of the kinds
 * asked for, over the data device.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/bigmem.h"
#include "base/ondisk.h"
#include "replay/apply.h"
#include "replay/overlay.h"

void xls_overlay_init(struct xls_overlay *o, const struct xls_source *src,
		      uint32_t types, uint64_t max_bytes)
{
	memset(o, 0, sizeof(*o));
	o->src = src;
	o->types = types;
	o->max_bytes = max_bytes;
}

void xls_overlay_release(struct xls_overlay *o)
{
	xls_arena_release(&o->images);
	xls_big_free(o->blocks);
	xls_hashmap_free(&o->idx);
	o->blocks = NULL;
	o->n = o->cap = 0;
}

static bool sane_daddr(int64_t blkno, uint32_t len)
{
	return blkno >= 0 && (uint64_t)blkno < (UINT64_MAX >> 10) && len &&
	       (uint64_t)len * BBSIZE <= XFS_MAX_BLOCKSIZE;
}

/*
 * The overlay's block at @blkno, at least @len blocks long: made from the
 * device (@fresh: zeroed instead) the first time, grown if shorter.  NULL
 * when the bound is hit or memory runs out.
 */
static struct xls_ovl_block *get_block(struct xls_overlay *o, int64_t blkno,
				       uint32_t len, bool fresh)
{
	uint32_t *idx = xls_hashmap_find(&o->idx, (uint64_t)blkno, 0);
	struct xls_ovl_block *b;
	uint32_t old = 0;
	uint8_t *img;

	if (!sane_daddr(blkno, len))
		return NULL;
	if (idx) {
		b = &o->blocks[*idx];
		if (b->len >= len)
			return b;
		old = b->len;
	} else {
		if (o->n == o->cap) {
			uint32_t cap = o->cap ? o->cap * 2 : 256;
			struct xls_ovl_block *p = xls_big_realloc(o->blocks, sizeof(*p) * cap);

			if (!p) {
				o->out_of_memory = true;
				return NULL;
			}
			o->blocks = p;
			o->cap = cap;
		}
		b = &o->blocks[o->n];
		memset(b, 0, sizeof(*b));
		b->blkno = blkno;
	}
	if (o->bytes + (uint64_t)(len - old) * BBSIZE > o->max_bytes) {
		o->full = true;
		return NULL;
	}
	/* a fresh block is zeros, which a new piece of the arena already is */
	img = fresh ? xls_arena_zalloc(&o->images, (size_t)len * BBSIZE) :
		      xls_arena_alloc(&o->images, (size_t)len * BBSIZE);
	if (!img) {
		o->out_of_memory = true;
		return NULL;
	}
	if (old) {
		memcpy(img, b->img, (size_t)old * BBSIZE);
		xls_arena_put(&o->images, b->img, (size_t)old * BBSIZE);
	}
	b->img = img;
	if (!fresh && xls_source_read_data(o->src, ((uint64_t)blkno + old) * BBSIZE,
					   img + (size_t)old * BBSIZE,
					   (size_t)(len - old) * BBSIZE))
		memset(img + (size_t)old * BBSIZE, 0, (size_t)(len - old) * BBSIZE);
	o->bytes += (uint64_t)(len - old) * BBSIZE;
	b->len = len;
	if (!idx) {
		if (xls_hashmap_put(&o->idx, (uint64_t)blkno, 0, o->n)) {
			xls_arena_put(&o->images, b->img, (size_t)len * BBSIZE);
			o->out_of_memory = true;
			return NULL;
		}
		o->n++;
	}
	return b;
}

/* xlog_recover_do_reg_buffer(): each placed region copied. */
static void take_buf(struct xls_overlay *o, const struct xls_ritem *ri)
{
	const struct xls_rbuf *rb = ri->buf;
	uint64_t bytes = (uint64_t)rb->len * BBSIZE;
	struct xls_ovl_block *b;

	if (rb->blf_flags & XFS_BLF_INODE_BUF) {
		/* di_next_unlinked only, into a cluster the overlay holds */
		uint32_t *idx = xls_hashmap_find(&o->idx, (uint64_t)rb->blkno, 0);

		if (idx && o->blocks[*idx].len >= rb->len)
			xls_apply_buf(&o->src->geo, rb, o->blocks[*idx].img, bytes);
		return;
	}
	if (!(o->types & (1u << rb->blft)) || !rb->data)
		return;
	b = get_block(o, rb->blkno, rb->len, false);
	if (!b) {
		o->not_taken++;
		return;
	}
	b->written = true;
	xls_apply_buf(&o->src->geo, rb, b->img, bytes);
}

static void take_inode(struct xls_overlay *o, const struct xls_rtrans *rt,
		       const struct xls_ritem *ri)
{
	struct xls_ovl_block *b = get_block(o, ri->ino_blkno, ri->ino_len, false);
	const char *why;

	if (!b) {
		o->not_taken++;
		return;
	}
	/* the overlay is read for fields, never verified: no CRC */
	if (xls_recover_apply_inode(&o->src->geo, ri, rt->t->lsn, b->img,
				    b->len * BBSIZE, true, &why) == 0)
		b->written = true;
}

/* xfs_ialloc_inode_init() for every cluster of the chunk. */
static void take_icreate(struct xls_overlay *o, const struct xls_ritem *ri)
{
	const struct xls_geometry *g = &o->src->geo;
	uint32_t bb = xls_recover_cluster_bb(g);
	int64_t daddrs[64];
	uint32_t n = xls_recover_icreate_clusters(g, ri, daddrs, 64);

	for (uint32_t j = 0; j < n; j++) {
		struct xls_ovl_block *b = get_block(o, daddrs[j], bb, true);

		if (!b) {
			o->not_taken++;
			continue;
		}
		if (xls_recover_apply_icreate(g, ri, daddrs[j], b->img, bb * BBSIZE))
			b->written = true;
	}
}

void xls_overlay_take(struct xls_overlay *o, const struct xls_rtrans *rt,
		      const struct xls_ritem *ri)
{
	if (ri->buf && (xls_replays(ri->decision) ||
			(o->all_items && ri->decision != XLS_RD_CANCEL &&
			 ri->decision != XLS_RD_FAIL))) {
		if (o->types & (1u << ri->buf->blft))
			o->replayed_bytes += (uint64_t)ri->buf->res->dirty_bytes;
		take_buf(o, ri);
		return;
	}
	if (ri->has_ino && ri->decision == XLS_RD_REPLAY && ri->inode) {
		o->replayed_bytes += o->src->geo.inode_size;
		take_inode(o, rt, ri);
		return;
	}
	if (ri->icreate && ri->decision == XLS_RD_REPLAY)
		take_icreate(o, ri);
}

void xls_overlay_forget(struct xls_overlay *o, int64_t blkno)
{
	uint32_t *idx = xls_hashmap_find(&o->idx, (uint64_t)blkno, 0);

	if (!idx)
		return;
	memset(o->blocks[*idx].img, 0, (size_t)o->blocks[*idx].len * BBSIZE);
	o->blocks[*idx].written = true;
}

/* The overlay's block at @blkno when it holds @len bytes from @off. */
static const struct xls_ovl_block *held(const struct xls_overlay *o, int64_t blkno,
					uint32_t off, uint32_t len)
{
	uint32_t *idx = xls_hashmap_find(&o->idx, (uint64_t)blkno, 0);

	if (idx && (uint64_t)off + len <= (uint64_t)o->blocks[*idx].len * BBSIZE)
		return &o->blocks[*idx];
	return NULL;
}

const uint8_t *xls_overlay_peek(const struct xls_overlay *o, int64_t blkno, uint32_t off,
				uint32_t len, bool *written)
{
	const struct xls_ovl_block *b = held(o, blkno, off, len);

	if (written)
		*written = b && b->written;
	return b ? b->img + off : NULL;
}

int xls_overlay_read(const struct xls_overlay *o, int64_t blkno, uint32_t off,
		     uint8_t *buf, uint32_t len, bool *written)
{
	const struct xls_ovl_block *b = held(o, blkno, off, len);

	if (written)
		*written = b && b->written;
	if (b) {
		memcpy(buf, b->img + off, len);
		return 0;
	}
	if (blkno < 0 || (uint64_t)blkno > (UINT64_MAX >> 10))
		return -EINVAL;
	return xls_source_read_data(o->src, (uint64_t)blkno * BBSIZE + off, buf, len);
}
