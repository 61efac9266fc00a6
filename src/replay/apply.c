/*
 * Replay stage: the one apply step (apply.h): the decision, and what each
 * kind of replayed item writes into its block (xlog_recover_do_reg_buffer,
 * xlog_recover_do_inode_buffer, xlog_recover_inode_commit_pass2,
 * xfs_ialloc_inode_init, xlog_recover_dquot_commit_pass2).
 */
#include <string.h>

#include "base/ondisk.h"
#include "replay/apply.h"

bool xls_apply_writes(const struct xls_ritem *ri, bool every_logged)
{
	if (ri->buf)
		return xls_replays(ri->decision) ||
		       (every_logged && ri->decision != XLS_RD_CANCEL &&
			ri->decision != XLS_RD_FAIL);
	if (ri->has_ino)
		return ri->decision == XLS_RD_REPLAY && ri->inode;
	return (ri->icreate || ri->dquot) && ri->decision == XLS_RD_REPLAY;
}

/*
 * An inode buffer's di_next_unlinked fields and, on v5, those inodes'
 * CRCs; any other buffer's logged regions where recovery places them,
 * when @rb carries its logged bytes.
 */
static void apply_buf(const struct xls_geometry *g, const struct xls_rbuf *rb, uint8_t *img,
		      uint64_t bytes)
{
	const uint8_t *src = rb->data;

	if (rb->blf_flags & XFS_BLF_INODE_BUF) {
		for (uint32_t i = 0; i < rb->nunlinked; i++) {
			const struct xls_runlinked *u = &rb->unlinked[i];

			if (!u->readable || (uint64_t)u->offset + 4 > bytes)
				continue;
			for (int k = 0; k < 4; k++)
				img[u->offset + k] = (uint8_t)(u->value >> (24 - 8 * k));
			if (g->crc)
				xls_recover_inode_crc(img, (uint32_t)bytes, g->inode_size, u->slot);
		}
		return;
	}
	if (!src)
		return;
	for (uint32_t i = 0; i < rb->res->nplaces; i++) {
		const struct xls_region_place *p = &rb->res->places[i];

		if ((uint64_t)p->offset + p->len <= bytes)
			memcpy(img + p->offset, src, p->len);
		src += p->len;
	}
}

static void done(const struct xls_block_provider *p, const struct xls_ritem *ri,
		 enum xls_apply_what what, int64_t blkno, uint8_t *buf, bool ok)
{
	if (p->done)
		p->done(p->ctx, ri, what, blkno, buf, ok);
}

static int buf_item(const struct xls_geometry *g, const struct xls_ritem *ri,
		    const struct xls_block_provider *p, struct xls_apply_count *n)
{
	const struct xls_rbuf *rb = ri->buf;
	enum xls_apply_what what = (rb->blf_flags & XFS_BLF_INODE_BUF) ? XLS_APPLY_INODE_BUF :
				   XLS_APPLY_BUF;
	uint8_t *img = NULL;
	int got = p->get(p->ctx, ri, what, rb->blkno, rb->len, false, &img);

	if (got <= 0)
		return got;
	apply_buf(g, rb, img, (uint64_t)rb->len * BBSIZE);
	n->buffers++;
	done(p, ri, what, rb->blkno, img, true);
	return 0;
}

static int inode_item(const struct xls_geometry *g, const struct xls_rtrans *rt,
		      const struct xls_ritem *ri, const struct xls_block_provider *p,
		      struct xls_apply_count *n)
{
	uint8_t *img = NULL;
	const char *why;
	int got = p->get(p->ctx, ri, XLS_APPLY_INODE, ri->ino_blkno, ri->ino_len, false, &img);
	bool ok;

	if (got <= 0)
		return got;
	ok = xls_recover_apply_inode(g, ri, rt->t->lsn, img, ri->ino_len * BBSIZE,
				     p->no_inode_crc, &why) == 0;
	if (ok) {
		n->inodes++;
	} else {
		n->inode_errors++;
		n->inode_why = why;
	}
	done(p, ri, XLS_APPLY_INODE, ri->ino_blkno, img, ok);
	return 0;
}

struct icreate_walk {
	const struct xls_block_provider	*p;
	const struct xls_ritem		*ri;
};

static int icreate_cluster(void *ctx, int64_t daddr, uint32_t bb, uint8_t **buf)
{
	const struct icreate_walk *iw = ctx;
	int got = iw->p->get(iw->p->ctx, iw->ri, XLS_APPLY_ICREATE, daddr, bb, true, buf);

	/* the cluster is initialised as it is handed over: said done now */
	if (got > 0)
		done(iw->p, iw->ri, XLS_APPLY_ICREATE, daddr, *buf, true);
	return got;
}

static int icreate_item(const struct xls_geometry *g, const struct xls_ritem *ri,
			const struct xls_block_provider *p, struct xls_apply_count *n)
{
	struct icreate_walk iw = { p, ri };
	int got = xls_recover_icreate_each(g, ri, icreate_cluster, &iw);

	if (got < 0)
		return -1;
	n->clusters += (uint64_t)got;
	return 0;
}

static int dquot_item(const struct xls_geometry *g, const struct xls_ritem *ri,
		      const struct xls_block_provider *p, struct xls_apply_count *n)
{
	const struct xls_rdquot *dq = ri->dquot;
	uint8_t *img = NULL;
	int got = p->get(p->ctx, ri, XLS_APPLY_DQUOT, dq->blkno, dq->len, false, &img);
	bool ok;

	if (got <= 0)
		return got;
	ok = xls_recover_apply_dquot(g, dq, img, dq->len * BBSIZE) == 0;
	if (ok)
		n->dquots++;
	done(p, ri, XLS_APPLY_DQUOT, dq->blkno, img, ok);
	return 0;
}

int xls_apply_item(const struct xls_geometry *g, const struct xls_rtrans *rt,
		   const struct xls_ritem *ri, const struct xls_block_provider *p,
		   struct xls_apply_count *n)
{
	if (!xls_apply_writes(ri, p->every_logged))
		return 0;
	if (ri->buf)
		return buf_item(g, ri, p, n);
	if (ri->has_ino)
		return inode_item(g, rt, ri, p, n);
	if (ri->icreate)
		return icreate_item(g, ri, p, n);
	return dquot_item(g, ri, p, n);
}
