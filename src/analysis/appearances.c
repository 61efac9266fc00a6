/*
 * Analysis stage: one block's appearances before the tail (appearances.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "base/vec.h"
#include "analysis/appearances.h"

void xls_stale_watch_init(struct xls_stale_watch *w, int64_t blkno, bool has_ino,
			  uint64_t ino, uint32_t inode_size)
{
	memset(w, 0, sizeof(*w));
	w->blkno = blkno;
	w->has_ino = has_ino;
	w->ino = ino;
	w->inode_size = inode_size;
}

void xls_stale_watch_release(struct xls_stale_watch *w)
{
	xls_vec_free(w->pending);
	w->pending = NULL;
	w->npending = w->cappending = 0;
}

/* What a buffer or inode item of the block logged; false when it is not one. */
static bool appearance_of(struct xls_stale_watch *w, const struct xls_item *it,
			  struct xls_stale_appearance *a)
{
	if (it->type == XFS_LI_BUF) {
		xls_buf_analyse(it, &w->ba);
		if (!w->ba.parsed || w->ba.blf.blf_blkno != w->blkno)
			return false;
		a->len_bb = w->ba.res.buf_bytes / 512;
		a->type = xls_blft_name(w->ba.blft);
		a->blf_flags = w->ba.blf.blf_flags;
		a->regions = w->ba.res.nregions;
		a->dirty_bytes = w->ba.res.dirty_bytes;
		a->dirty_pct = w->ba.dirty_pct;
		return true;
	}
	if (it->type == XFS_LI_INODE) {
		struct xls_inode_item in;
		struct xls_item_problems p = { 0 };

		xls_inode_item_parse(it, &in, &p);
		if (!in.has_format || in.ilf_blkno != w->blkno || in.ilf_len <= 0 ||
		    (w->has_ino && in.ilf_ino != w->ino))
			return false;
		a->len_bb = (uint32_t)in.ilf_len;
		a->type = "inode";
		a->dirty_bytes = w->inode_size;
		a->dirty_pct = 100.0 * w->inode_size / (a->len_bb * 512.0);
		return true;
	}
	return false;
}

int xls_stale_watch_item(struct xls_stale_watch *w, const struct xls_trans *t,
			 const struct xls_item *it)
{
	struct xls_stale_appearance a = { .tid = t->tid, .lsn = t->lsn, .index = t->nitems };
	struct xls_stale_appearance *slot;

	if (!appearance_of(w, it, &a))
		return 0;
	slot = xls_vec_push((void **)&w->pending, &w->npending, &w->cappending, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	*slot = a;
	return 0;
}

void xls_stale_watch_end(struct xls_stale_watch *w, const struct xls_trans *t,
			 void (*fn)(void *ctx, const struct xls_stale_appearance *a), void *ctx)
{
	uint32_t kept = 0;

	for (uint32_t i = 0; i < w->npending; i++) {
		struct xls_stale_appearance *a = &w->pending[i];

		if (a->tid != t->tid || a->lsn != t->lsn) {
			w->pending[kept++] = *a;
			continue;
		}
		a->committed = t->state == XLS_TRANS_COMMITTED;
		fn(ctx, a);
	}
	w->npending = kept;
}
