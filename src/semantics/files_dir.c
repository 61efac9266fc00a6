/*
 * Semantics stage, files: directory entries added and removed, from
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
#include "semantics/files_priv.h"

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
};

static int collect_logged(void *ctx, const struct xls_dirent *e)
{
	struct in_regions *r = ctx;
	uint32_t end = e->offset + xls_dirent_size(r->g, e->namelen);

	/* entries come in offset order, and so do the places */
	while (r->at < r->n && r->p[r->at].offset + r->p[r->at].len <= e->offset)
		r->at++;
	if (r->at == r->n || r->p[r->at].offset >= end)
		return 0;
	return xls_dirent_set_add(r->set, e);
}

/*
 * The 128-byte chunks of @blk (the block before the item) that the item's
 * logged bytes change, as places in @out (at most XLS_BLF_BITS_PER_WORD *
 * XFS_BLF_DATAMAP_SIZE); their number.  A relogged region mostly holds
 * what the block already has.
 */
static uint32_t changed_chunks(const struct xls_rbuf *rb, const uint8_t *blk, uint32_t bytes,
			       struct xls_region_place *out)
{
	const uint8_t *src = rb->data;
	uint32_t n = 0;

	for (uint32_t i = 0; i < rb->res->nplaces; i++) {
		const struct xls_region_place *p = &rb->res->places[i];

		for (uint32_t off = 0; off < p->len && (uint64_t)p->offset + off < bytes;
		     off += XFS_BLF_CHUNK) {
			uint32_t len = p->len - off < XFS_BLF_CHUNK ? p->len - off : XFS_BLF_CHUNK;

			if (!memcmp(blk + p->offset + off, src + off, len))
				continue;
			if (n && out[n - 1].offset + out[n - 1].len == p->offset + off) {
				out[n - 1].len += len;
				continue;
			}
			out[n].offset = p->offset + off;
			out[n].len = len;
			n++;
		}
		src += p->len;
	}
	return n;
}

/*
 * The first item of a block the disk holds a later state of: its logged
 * entries, each an unsure add (confirm_unsure keeps those the transaction
 * creates or moves).
 */
static void unsure_entries(struct xls_files *f, const struct xls_rbuf *rb, const uint8_t *blk,
			   uint32_t bytes)
{
	struct in_regions logged = { &f->after, &f->src->geo, rb->res->places, rb->res->nplaces, 0 };
	uint32_t first = f->npend;
	struct xls_owner o;

	xls_dirent_set_reset(&f->after);
	xls_dir_block_walk(&f->src->geo, blk, bytes, collect_logged, &logged);
	if (!xls_owner_from_header(&f->src->geo, rb->blkno, rb->len, blk, bytes, &o))
		o.has_ino = false;
	for (uint32_t k = 0; k < f->after.n; k++) {
		struct xls_file_event *e = xls_fevent(f, f->after.e[k].ino, XLS_FEV_DIRENT_ADD);

		if (!e)
			return;
		e->dir = o.has_ino ? o.ino : 0;
		xls_fevent_name(f, e, xls_dirent_set_name(&f->after, k), f->after.e[k].len, false);
	}
	for (uint32_t i = first; i < f->npend; i++)
		f->pend[i].unsure = true;
}

/*
 * The block @rb is logged in as the log's view has it: the overlay's own
 * copy, or (never logged, or past the view's bound) the disk's, read into
 * @scratch.  NULL when it cannot be read.
 */
static const uint8_t *view_block(struct xls_files *f, const struct xls_rbuf *rb, uint8_t *scratch,
				 uint32_t bytes, bool *seen)
{
	const uint8_t *blk = xls_overlay_peek(&f->view, rb->blkno, 0, bytes, seen);

	if (blk)
		return blk;
	return xls_overlay_read(&f->view, rb->blkno, 0, scratch, bytes, seen) == 0 ? scratch : NULL;
}

void xls_files_take_dir_buf(struct xls_files *f, const struct xls_rtrans *rt,
			 const struct xls_ritem *ri)
{
	const struct xls_rbuf *rb = ri->buf;
	const struct xls_geometry *g = &f->src->geo;
	uint32_t bytes = rb->len * BBSIZE, nchanged;
	uint8_t *scratch = xls_files_scratch(f, bytes);
	const uint8_t *blk;
	struct xls_region_place changed[XFS_BLF_DATAMAP_SIZE * XLS_BLF_BITS_PER_WORD];
	struct in_regions before = { &f->before, g, changed, 0, 0 };
	struct in_regions after = { &f->after, g, changed, 0, 0 };
	struct xls_owner o;
	bool seen, known;

	if (!scratch)
		return;
	xls_dirent_set_reset(&f->before);
	xls_dirent_set_reset(&f->after);
	/* the log's view before the item: the disk the first time, if older */
	blk = view_block(f, rb, scratch, bytes, &seen);
	known = blk != NULL;
	if (known && !seen && g->crc) {
		uint64_t lsn = header_lsn(blk, bytes);

		known = !lsn || lsn < rt->t->lsn;
	}
	nchanged = known ? changed_chunks(rb, blk, bytes, changed) : 0;
	before.n = after.n = nchanged;
	if (nchanged)
		xls_dir_block_walk(g, blk, bytes, collect_logged, &before);
	/* the overlay's copy changes here: blk is read again */
	xls_overlay_take(&f->view, rt, ri);
	if (nchanged && (blk = view_block(f, rb, scratch, bytes, NULL))) {
		xls_files_malformed(f, XLS_FILES_DIR_BLOCK, (uint64_t)rb->blkno,
				    xls_dir_block_walk(g, blk, bytes, collect_logged, &after));
		xls_owner_from_header(g, rb->blkno, rb->len, blk, bytes, &o);
		xls_files_diff_entries(f, o.has_ino ? o.ino : 0);
	} else if (!known && (blk = view_block(f, rb, scratch, bytes, NULL))) {
		unsure_entries(f, rb, blk, bytes);
	}
	if (f->before.nomem || f->after.nomem)
		f->nomem = true;
}
