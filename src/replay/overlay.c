/*
 * Replay stage: an overlay of the blocks recovery writes, of the kinds
 * asked for, over the data device: their images in memory up to a bound,
 * the least recently taken in a temporary file past it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/bigmem.h"
#include "base/fullio.h"
#include "base/ondisk.h"
#include "replay/apply.h"
#include "replay/overlay.h"

#define NO_PLACE	UINT64_MAX

/*
 * The temporary file.  Reads take a const overlay and may fail or use the
 * frame: hence a struct of its own.
 */
struct xls_ovl_spill {
	int		fd;
	const char	*dir;
	int		error;		/* errno of the first failure; 0 none */
	/*
	 * The last image read back whole for a read of part of it: reads
	 * come inode after inode of one cluster, and this saves a pread each.
	 * It holds blocks[framed] as it was when read; recovery changes a
	 * block only once resident(), which forgets the frame.
	 */
	uint32_t	framed;		/* UINT32_MAX: nothing */
	uint8_t		frame[XFS_MAX_BLOCKSIZE];
	/* an inode item applied in the file: its cluster's bytes, only the inode real */
	uint8_t		scratch[XFS_MAX_BLOCKSIZE];
};

void xls_overlay_init(struct xls_overlay *o, const struct xls_source *src,
		      uint32_t types, uint64_t mem_bytes, uint64_t max_bytes)
{
	memset(o, 0, sizeof(*o));
	o->src = src;
	o->types = types;
	o->mem_bytes = mem_bytes < max_bytes ? mem_bytes : max_bytes;
	o->max_bytes = max_bytes;
}

void xls_overlay_release(struct xls_overlay *o)
{
	xls_arena_release(&o->images);
	xls_big_free(o->blocks);
	xls_hashmap_free(&o->idx);
	if (o->spill && o->spill->fd >= 0)
		close(o->spill->fd);
	free(o->spill);
	o->spill = NULL;
	o->blocks = NULL;
	o->n = o->cap = 0;
}

int xls_overlay_error(const struct xls_overlay *o, struct xls_error *err)
{
	if (o->out_of_memory)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the block images "
				     "recovery leaves over the device");
	if (o->spill && o->spill->error)
		return xls_error_set(err, XLS_EXIT_INPUT, "cannot keep the block images past "
				     "--blocks-mem in a temporary file in '%s' (TMPDIR): %s",
				     o->spill->dir, strerror(o->spill->error));
	return 0;
}

static bool sane_daddr(int64_t blkno, uint32_t len)
{
	return blkno >= 0 && (uint64_t)blkno < (UINT64_MAX >> 10) && len &&
	       (uint64_t)len * BBSIZE <= XFS_MAX_BLOCKSIZE;
}

/* The temporary file, made the first time an image leaves memory. */
static struct xls_ovl_spill *spill_file(struct xls_overlay *o)
{
	struct xls_ovl_spill *sp = o->spill;

	if (sp)
		return sp->error ? NULL : sp;
	sp = calloc(1, sizeof(*sp));
	if (!sp) {
		o->out_of_memory = true;
		return NULL;
	}
	sp->framed = UINT32_MAX;
	sp->fd = xls_tmpfile(&sp->dir);
	if (sp->fd < 0)
		sp->error = errno ? errno : EIO;
	o->spill = sp;
	return sp->error ? NULL : sp;
}

static int spill_io(struct xls_ovl_spill *sp, bool write, uint64_t off, void *buf, size_t len)
{
	int rc;

	if (sp->error)
		return -sp->error;
	rc = write ? xls_pwrite_fully(sp->fd, off, buf, len, NULL) :
		     xls_pread_fully(sp->fd, off, buf, len, NULL);
	if (rc)
		sp->error = -rc;
	return rc;
}

/*
 * Block @b's image out of memory, into its place in the file (a new one
 * when it has none or grew) unless the file has it already.  0, or -1
 * when the file fails.
 */
static int evict(struct xls_overlay *o, struct xls_ovl_block *b)
{
	size_t bytes = (size_t)b->len * BBSIZE;

	if (b->dirty || b->spill_off == NO_PLACE) {
		struct xls_ovl_spill *sp = spill_file(o);

		if (!sp)
			return -1;
		if (b->spill_off == NO_PLACE || b->spill_len < b->len) {
			b->spill_off = o->spilled;
			b->spill_len = b->len;
			o->spilled += bytes;
		}
		if (spill_io(sp, true, b->spill_off, b->img, bytes))
			return -1;
	}
	xls_arena_put(&o->images, b->img, bytes);
	o->mem_used -= bytes;
	b->img = NULL;
	b->dirty = false;
	return 0;
}

/*
 * Room in memory for @bytes more: the clock sweeps the blocks in memory,
 * sparing once each one taken since it last passed, and never @pin.  A
 * sweep that finds nothing to evict leaves memory over the bound (a
 * single block larger than the room).
 */
static void make_room(struct xls_overlay *o, uint64_t bytes, const struct xls_ovl_block *pin)
{
	uint64_t steps = 0;

	while (o->n && o->mem_used + bytes > o->mem_bytes && steps++ < 2ull * o->n + 1) {
		struct xls_ovl_block *b = &o->blocks[o->hand];

		o->hand = o->hand + 1 < o->n ? o->hand + 1 : 0;
		if (!b->img || b == pin)
			continue;
		if (b->ref) {
			b->ref = false;
			continue;
		}
		if (evict(o, b))
			return;
	}
}

/* Memory for @bytes of an image; NULL when out of memory. */
static uint8_t *image_alloc(struct xls_overlay *o, const struct xls_ovl_block *pin,
			    size_t bytes, bool zero)
{
	uint8_t *img;

	make_room(o, bytes, pin);
	img = zero ? xls_arena_zalloc(&o->images, bytes) : xls_arena_alloc(&o->images, bytes);
	if (!img)
		o->out_of_memory = true;
	else
		o->mem_used += bytes;
	return img;
}

/* Block @b's image in memory, read back from the file if it left; false on failure. */
static bool resident(struct xls_overlay *o, struct xls_ovl_block *b)
{
	size_t bytes = (size_t)b->len * BBSIZE;
	uint8_t *img;

	b->ref = true;
	if (b->img)
		return true;
	if (o->spill->framed == (uint32_t)(b - o->blocks))
		o->spill->framed = UINT32_MAX;
	if (!(img = image_alloc(o, b, bytes, false)))
		return false;
	if (spill_io(o->spill, false, b->spill_off, img, bytes)) {
		xls_arena_put(&o->images, img, bytes);
		o->mem_used -= bytes;
		return false;
	}
	b->img = img;
	return true;
}

/* Bytes [@from, @to) of a block's image as the device has them (@fresh: zeros). */
static void fill_from_device(const struct xls_overlay *o, int64_t blkno, bool fresh,
			     uint8_t *img, size_t from, size_t to)
{
	if (from >= to)
		return;
	if (fresh || xls_source_read_data(o->src, (uint64_t)blkno * BBSIZE + from, img + from,
					  to - from))
		memset(img + from, 0, to - from);
}

/* A new entry for the block at @blkno in the table, or NULL. */
static struct xls_ovl_block *new_entry(struct xls_overlay *o, int64_t blkno)
{
	struct xls_ovl_block *b;

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
	b->spill_off = NO_PLACE;
	return b;
}

/* Block @b grown from @old to @len blocks, the rest from the device. */
static bool grow(struct xls_overlay *o, struct xls_ovl_block *b, uint32_t old, uint32_t len,
		 bool fresh)
{
	size_t bytes = (size_t)len * BBSIZE;
	/* a fresh block is zeros, which a new piece of the arena already is */
	uint8_t *img = image_alloc(o, b, bytes, fresh && !old);

	if (!img)
		return false;
	if (old) {
		memcpy(img, b->img, (size_t)old * BBSIZE);
		xls_arena_put(&o->images, b->img, (size_t)old * BBSIZE);
		o->mem_used -= (uint64_t)old * BBSIZE;
	}
	if (!fresh || old)
		fill_from_device(o, b->blkno, fresh, img, (size_t)old * BBSIZE, bytes);
	b->img = img;
	b->len = len;
	return true;
}

/*
 * The overlay's block at @blkno, at least @len blocks long, in memory and
 * about to change: made from the device (@fresh: zeroed instead) the
 * first time, grown if shorter.  NULL when the bound is hit, memory runs
 * out or the temporary file fails.  @idx: @blkno's index entry, looked
 * up by the caller (NULL: none yet).
 */
static struct xls_ovl_block *get_block_at(struct xls_overlay *o, const uint32_t *idx,
					  int64_t blkno, uint32_t len, bool fresh)
{
	struct xls_ovl_block *b;
	uint32_t old = 0;

	if (!sane_daddr(blkno, len))
		return NULL;
	if (idx) {
		b = &o->blocks[*idx];
		if (!resident(o, b))
			return NULL;
		b->dirty = true;
		if (b->len >= len)
			return b;
		old = b->len;
	} else if (!(b = new_entry(o, blkno))) {
		return NULL;
	}
	if (o->bytes + (uint64_t)(len - old) * BBSIZE > o->max_bytes) {
		o->full = true;
		return NULL;
	}
	if (!grow(o, b, old, len, fresh))
		return NULL;
	o->bytes += (uint64_t)(len - old) * BBSIZE;
	b->ref = b->dirty = true;
	if (!idx) {
		if (xls_hashmap_put(&o->idx, (uint64_t)blkno, 0, o->n)) {
			o->out_of_memory = true;
			return NULL;
		}
		o->n++;
	}
	return b;
}

static struct xls_ovl_block *get_block(struct xls_overlay *o, int64_t blkno,
				       uint32_t len, bool fresh)
{
	return get_block_at(o, xls_hashmap_find(&o->idx, (uint64_t)blkno, 0), blkno, len, fresh);
}

/* An inode buffer item: di_next_unlinked only, into a cluster the overlay holds. */
static int provide_inode_buf(struct xls_overlay *o, int64_t blkno, uint32_t len, uint8_t **buf)
{
	uint32_t *idx = xls_hashmap_find(&o->idx, (uint64_t)blkno, 0);
	struct xls_ovl_block *b = idx ? &o->blocks[*idx] : NULL;

	if (!b || b->len < len || !resident(o, b))
		return 0;
	b->dirty = true;
	*buf = b->img;
	return 1;
}

/* Whether inode item @ri goes into block @b in the file, not in memory. */
static bool in_file(const struct xls_overlay *o, const struct xls_ovl_block *b,
		    const struct xls_ritem *ri)
{
	uint32_t isize = o->src->geo.inode_size;

	return !b->img && b->spill_off != NO_PLACE && b->len >= ri->ino_len &&
	       ri->inode && ri->inode->has_core && isize && isize <= XFS_DINODE_MAX_SIZE &&
	       (uint64_t)ri->ino_boffset + isize <= (uint64_t)b->len * BBSIZE;
}

/*
 * An inode item into a cluster that waits in the temporary file: only its
 * inode is read (into the scratch, at its offset), replayed, and written
 * back there (done()).  Read back whole, the cluster would push another
 * out of memory, itself soon needed again: on an item-dense log that was
 * most of what the file read and wrote.  The file's copy stays the
 * cluster's, so the block stays clean.
 */
static int provide_inode_in_file(struct xls_overlay *o, struct xls_ovl_block *b,
				 const struct xls_ritem *ri, uint8_t **buf)
{
	struct xls_ovl_spill *sp = o->spill;

	if (sp->framed == (uint32_t)(b - o->blocks))
		sp->framed = UINT32_MAX;
	if (spill_io(sp, false, b->spill_off + ri->ino_boffset, sp->scratch + ri->ino_boffset,
		     o->src->geo.inode_size))
		return 0;
	*buf = sp->scratch;
	return 1;
}

/* The block an item changes, in memory (or its inode, from the file), or why not. */
static int provide(void *ctx, const struct xls_ritem *ri, enum xls_apply_what what,
		   int64_t blkno, uint32_t len, bool fresh, uint8_t **buf)
{
	struct xls_overlay *o = ctx;
	uint32_t *idx = NULL;
	struct xls_ovl_block *b;

	o->applying = NULL;
	/* what recovery writes of the kinds taken, kept here or not */
	if (what == XLS_APPLY_INODE)
		o->replayed_bytes += o->src->geo.inode_size;
	else if ((what == XLS_APPLY_BUF || what == XLS_APPLY_INODE_BUF) &&
		 (o->types & (1u << ri->buf->blft)))
		o->replayed_bytes += (uint64_t)ri->buf->res->dirty_bytes;
	switch (what) {
	case XLS_APPLY_INODE_BUF:
		return provide_inode_buf(o, blkno, len, buf);
	case XLS_APPLY_BUF:
		if (!(o->types & (1u << ri->buf->blft)) || !ri->buf->data)
			return 0;
		break;
	case XLS_APPLY_INODE:
		idx = xls_hashmap_find(&o->idx, (uint64_t)blkno, 0);
		if (idx && in_file(o, &o->blocks[*idx], ri)) {
			o->applying = &o->blocks[*idx];
			return provide_inode_in_file(o, o->applying, ri, buf);
		}
		break;
	case XLS_APPLY_ICREATE:
		break;
	case XLS_APPLY_DQUOT:
		return 0;
	}
	b = idx ? get_block_at(o, idx, blkno, len, fresh) : get_block(o, blkno, len, fresh);
	if (!b) {
		o->not_taken++;
		return 0;
	}
	o->applying = b;
	*buf = b->img;
	return 1;
}

/* A change made: the block (or, in the file, the inode) is recovery's now. */
static void applied(void *ctx, const struct xls_ritem *ri, enum xls_apply_what what,
		    int64_t blkno, uint8_t *buf, bool ok)
{
	struct xls_overlay *o = ctx;
	struct xls_ovl_block *b = o->applying;

	(void)blkno;
	if (!b || what == XLS_APPLY_INODE_BUF)
		return;
	/* what a failed replay left changed is kept, as in memory */
	if (o->spill && buf == o->spill->scratch)
		spill_io(o->spill, true, b->spill_off + ri->ino_boffset, buf + ri->ino_boffset,
			 o->src->geo.inode_size);
	if (ok)
		b->written = true;
}

void xls_overlay_take(struct xls_overlay *o, const struct xls_rtrans *rt,
		      const struct xls_ritem *ri)
{
	/* the overlay is read for fields, never verified: no CRC */
	const struct xls_block_provider p = {
		.ctx = o, .get = provide, .done = applied, .no_inode_crc = true,
		.every_logged = o->all_items,
	};
	struct xls_apply_count n = { 0 };

	(void)xls_apply_item(&o->src->geo, rt, ri, &p, &n);
}

bool xls_overlay_adopt(struct xls_overlay *o, int64_t blkno, uint32_t len)
{
	if (xls_hashmap_find(&o->idx, (uint64_t)blkno, 0))
		return true;
	return get_block(o, blkno, len, false) != NULL;
}

void xls_overlay_forget(struct xls_overlay *o, int64_t blkno)
{
	uint32_t *idx = xls_hashmap_find(&o->idx, (uint64_t)blkno, 0);
	struct xls_ovl_block *b = idx ? &o->blocks[*idx] : NULL;

	if (!b || !resident(o, b))
		return;
	memset(b->img, 0, (size_t)b->len * BBSIZE);
	b->written = b->dirty = true;
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

bool xls_overlay_holds(const struct xls_overlay *o, int64_t blkno, uint32_t off, uint32_t len)
{
	return held(o, blkno, off, len) != NULL;
}

/*
 * Block @b, out of memory, read back whole from the file into the frame
 * (or found there): the frame, or NULL.  Reads leave the file's images
 * where they are (the clock follows what recovery writes).
 */
static const uint8_t *spilled_frame(const struct xls_overlay *o, const struct xls_ovl_block *b)
{
	struct xls_ovl_spill *sp = o->spill;
	uint32_t i = (uint32_t)(b - o->blocks);

	if (sp->framed == i)
		return sp->frame;
	sp->framed = UINT32_MAX;
	if (spill_io(sp, false, b->spill_off, sp->frame, (size_t)b->len * BBSIZE))
		return NULL;
	sp->framed = i;
	return sp->frame;
}

const uint8_t *xls_overlay_peek(const struct xls_overlay *o, int64_t blkno, uint32_t off,
				uint32_t len, bool *written)
{
	const struct xls_ovl_block *b = held(o, blkno, off, len);
	const uint8_t *p;

	if (written)
		*written = b && b->written;
	if (!b)
		return NULL;
	if (b->img)
		return b->img + off;
	p = spilled_frame(o, b);
	return p ? p + off : NULL;
}

int xls_overlay_read(const struct xls_overlay *o, int64_t blkno, uint32_t off,
		     uint8_t *buf, uint32_t len, bool *written)
{
	const struct xls_ovl_block *b = held(o, blkno, off, len);

	if (written)
		*written = b && b->written;
	if (b) {
		const uint8_t *p = b->img ? b->img : spilled_frame(o, b);

		if (!p)
			return -o->spill->error;
		memcpy(buf, p + off, len);
		return 0;
	}
	if (blkno < 0 || (uint64_t)blkno > (UINT64_MAX >> 10))
		return -EINVAL;
	return xls_source_read_data(o->src, (uint64_t)blkno * BBSIZE + off, buf, len);
}

const uint8_t *xls_overlay_view(const struct xls_overlay *o, int64_t blkno, uint32_t len,
				uint8_t *buf, bool *held_it)
{
	const struct xls_ovl_block *b = held(o, blkno, 0, len);

	*held_it = b != NULL;
	if (b && b->img)
		return b->img;
	return xls_overlay_read(o, blkno, 0, buf, len, NULL) == 0 ? buf : NULL;
}
