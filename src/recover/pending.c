/*
 * Recovery stage: the work the kernel finishes after replaying the log
 * (its pass 3, xfs_log_mount_finish), counted by kind, as the dry run
 * leaves the filesystem:
 *
 *  - intents without their done item (xlog_recover_process_intents), by
 *    type, an rt form counted with its own;
 *  - the inodes on the AGIs' unlinked buckets
 *    (xlog_recover_process_iunlinks): every AG's AGI as recovery leaves it,
 *    each bucket's chain followed by di_next_unlinked -- the value an inode
 *    buffer item replayed last, NULLAGINO in a cluster an icreate
 *    initialised after it, else the device's;
 *  - on a reflink filesystem, the CoW staging extents left in each AG's
 *    refcount btree (xfs_refcount_recover_cow_leftovers): the records of
 *    the CoW domain, which sort after every shared one, counted from the
 *    right end of the btree as recovery leaves it (its blocks the device's,
 *    with every replayed refcount buffer item applied).
 *
 * Memory: a map entry per di_next_unlinked field and per icreated cluster
 * the log replays, and a block per refcount btree block it replays.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "recover/recover_priv.h"

#define NEXT_UNLINKED	offsetof(struct xfs_dinode, di_next_unlinked)
#define SBLOCK_HDR	XFS_BTREE_SBLOCK_CRC_LEN
#define REFC_PTR_SIZE	4u

/* One refcount btree block as the replays leave it. */
struct refc_block {
	int64_t		blkno;
	uint8_t		*img;
};

struct xls_pending_state {
	struct xls_inomap	next;		/* inode key -> seq << 32 | di_next_unlinked */
	struct xls_inomap	init;		/* cluster daddr -> seq of its last icreate */
	uint32_t		seq;
	struct xls_hashmap	refc_idx;	/* blkno -> refc[] */
	struct refc_block	*refc;
	uint32_t		nrefc, caprefc;
};

static enum xls_pending_kind kind_of(uint16_t type)
{
	switch (type) {
	case XFS_LI_EFI: case XFS_LI_EFI_RT:
		return XLS_PEND_EFI;
	case XFS_LI_RUI: case XFS_LI_RUI_RT:
		return XLS_PEND_RUI;
	case XFS_LI_CUI: case XFS_LI_CUI_RT:
		return XLS_PEND_CUI;
	case XFS_LI_BUI:
		return XLS_PEND_BUI;
	case XFS_LI_XMI:
		return XLS_PEND_XMI;
	case XFS_LI_ATTRI:
		return XLS_PEND_ATTRI;
	}
	return XLS_PEND_OTHER;
}

void xls_pending_intent(struct xls_recover *r, uint16_t type)
{
	r->sum.pending.intents[kind_of(type)]++;
}

static struct xls_pending_state *state(struct xls_recover *r)
{
	if (!r->pend) {
		r->pend = calloc(1, sizeof(*r->pend));
		if (!r->pend)
			r->err = -ENOMEM;
	}
	return r->pend;
}

/* An inode's key: its AG and its AG inode number (xfs_ino_t without agblklog). */
static uint64_t ino_key(uint32_t agno, uint32_t agino)
{
	return (uint64_t)agno << 32 | agino;
}

/* The inode at byte @off of the data device: its key, false if none fits. */
static bool key_at(const struct xls_geometry *g, uint64_t off, uint64_t *key)
{
	uint64_t ag_bytes = (uint64_t)g->ag_blocks << g->block_log;

	if (!ag_bytes || !g->inode_log || off / ag_bytes >= g->ag_count)
		return false;
	*key = ino_key((uint32_t)(off / ag_bytes), (uint32_t)(off % ag_bytes >> g->inode_log));
	return true;
}

void xls_pending_unlinked(struct xls_recover *r, const struct xls_rbuf *rb)
{
	struct xls_pending_state *p = state(r);
	uint64_t key;

	if (!p)
		return;
	p->seq++;
	for (uint32_t i = 0; i < rb->nunlinked; i++) {
		const struct xls_runlinked *u = &rb->unlinked[i];

		if (!u->readable ||
		    !key_at(r->g, (uint64_t)rb->blkno * BBSIZE + u->offset - NEXT_UNLINKED, &key))
			continue;
		if (xls_inomap_put(&p->next, key, (uint64_t)p->seq << 32 | u->value))
			r->err = -ENOMEM;
	}
}

static int note_cluster(void *ctx, int64_t daddr, uint32_t bb, uint8_t **buf)
{
	struct xls_recover *r = ctx;

	(void)bb;
	(void)buf;
	if (xls_inomap_put(&r->pend->init, (uint64_t)daddr, r->pend->seq))
		r->err = -ENOMEM;
	return 0;
}

void xls_pending_icreate(struct xls_recover *r, const struct xls_ritem *ri)
{
	struct xls_pending_state *p = state(r);

	if (!p)
		return;
	p->seq++;
	xls_recover_icreate_each(r->g, ri, note_cluster, r);
}

void xls_pending_refcount(struct xls_recover *r, const struct xls_rbuf *rb)
{
	struct xls_pending_state *p = state(r);
	uint64_t bytes = (uint64_t)rb->len * BBSIZE;
	const uint8_t *src = rb->data;
	struct refc_block *b;
	uint32_t *idx;

	if (!p || !src || bytes != r->g->blocksize)
		return;
	idx = xls_hashmap_find(&p->refc_idx, (uint64_t)rb->blkno, 0);
	if (idx && p->refc && *idx < p->nrefc) {
		b = &p->refc[*idx];
	} else {
		b = xls_vec_push((void **)&p->refc, &p->nrefc, &p->caprefc, sizeof(*b));
		if (!b) {
			r->err = -ENOMEM;
			return;
		}
		b->blkno = rb->blkno;
		b->img = NULL;
		if (xls_hashmap_put(&p->refc_idx, (uint64_t)rb->blkno, 0, p->nrefc - 1)) {
			r->err = -ENOMEM;
			return;
		}
		b->img = malloc(bytes);
		if (!b->img) {
			r->err = -ENOMEM;
			return;
		}
		if (xls_source_read_data(r->src, (uint64_t)rb->blkno * BBSIZE, b->img, bytes))
			memset(b->img, 0, bytes);
	}
	if (!b->img)
		return;
	/* xlog_recover_do_reg_buffer: each placed region copied */
	for (uint32_t i = 0; i < rb->res->nplaces; i++) {
		const struct xls_region_place *pl = &rb->res->places[i];

		if ((uint64_t)pl->offset + pl->len <= bytes)
			memcpy(b->img + pl->offset, src, pl->len);
		src += pl->len;
	}
}

void xls_pending_release(struct xls_recover *r)
{
	struct xls_pending_state *p = r->pend;

	if (!p)
		return;
	xls_inomap_free(&p->next);
	xls_inomap_free(&p->init);
	for (uint32_t i = 0; i < p->nrefc; i++)
		free(p->refc[i].img);
	xls_vec_free(p->refc);
	xls_hashmap_free(&p->refc_idx);
	free(p);
	r->pend = NULL;
}

/* ------------------------------------------------------------------ */
/* the census */

/*
 * @n bytes at the start of the buffer at @daddr (@len blocks), as recovery
 * leaves it: the simulated head of a buffer the log touched, else the device.
 */
static int read_head(struct xls_recover *r, int64_t daddr, uint32_t len, uint8_t *buf,
		     uint32_t n)
{
	uint32_t *idx = xls_hashmap_find(&r->bufidx, (uint64_t)daddr, len);

	if (idx) {
		struct rstate *st = &r->states[*idx];

		if (!xls_rstate_head(r, st))
			return -ENOMEM;
		if ((st->readable || st->replayed) && st->head_len >= n) {
			memcpy(buf, st->head, n);
			return 0;
		}
	}
	return xls_source_read_data(r->src, (uint64_t)daddr * BBSIZE, buf, n);
}

/* AG @agno's first block, in 512-byte blocks. */
static int64_t ag_daddr(const struct xls_geometry *g, uint32_t agno)
{
	return (int64_t)(((uint64_t)agno * g->ag_blocks) << (g->block_log - 9));
}

/* di_next_unlinked of inode @agino of AG @agno as recovery leaves it. */
static uint32_t next_unlinked(struct xls_recover *r, uint32_t agno, uint32_t agino)
{
	const struct xls_geometry *g = r->g;
	const struct xls_pending_state *p = r->pend;
	uint64_t *field = p ? xls_inomap_find(&p->next, ino_key(agno, agino)) : NULL;
	uint32_t agbno = agino >> g->inopb_log, cl = g->inode_cluster_blocks;
	int64_t cluster = ag_daddr(g, agno) +
			  ((int64_t)(agbno - (cl ? agbno % cl : 0)) << (g->block_log - 9));
	uint64_t *init = p ? xls_inomap_find(&p->init, (uint64_t)cluster) : NULL;
	uint8_t v[4];

	if (field && (!init || *field >> 32 > *init))
		return (uint32_t)*field;
	if (init)
		return NULLAGINO;
	if (xls_source_read_data(r->src, ((uint64_t)agno * g->ag_blocks << g->block_log) +
				 ((uint64_t)agino << g->inode_log) + NEXT_UNLINKED, v, 4))
		return NULLAGINO;
	return xls_be32(v);
}

/* xfs_verify_agino, roughly: inside the AG, past its headers. */
static bool agino_ok(const struct xls_geometry *g, uint32_t agino)
{
	return agino != NULLAGINO && agino >> g->inopb_log != 0 &&
	       agino >> g->inopb_log < g->ag_blocks;
}

static void count_unlinked(struct xls_recover *r)
{
	const struct xls_geometry *g = r->g;
	struct xls_pending *pd = &r->sum.pending;
	uint32_t sect = g->data_sect_bbs, off = offsetof(struct xfs_agi, agi_unlinked);
	uint8_t agi[512];

	for (uint32_t agno = 0; agno < g->ag_count; agno++) {
		if (read_head(r, ag_daddr(g, agno) + 2 * (int64_t)sect, sect, agi, sizeof(agi)) ||
		    xls_be32(agi) != XFS_AGI_MAGIC)
			continue;
		for (uint32_t b = 0; b < XFS_AGI_UNLINKED_BUCKETS; b++) {
			uint32_t agino = xls_be32(agi + off + 4 * b);
			/* a chain longer than the AG's inodes loops */
			uint64_t left = (uint64_t)g->ag_blocks << g->inopb_log;

			if (agino == NULLAGINO)
				continue;
			pd->unlinked_buckets++;
			while (agino_ok(g, agino) && left--) {
				pd->unlinked_inodes++;
				agino = next_unlinked(r, agno, agino);
			}
			if (agino != NULLAGINO)
				pd->unlinked_broken++;
		}
	}
}

/* A refcount btree block of AG @agno as recovery leaves it, into @buf. */
static bool refc_block(struct xls_recover *r, uint32_t agno, uint32_t agbno, uint8_t *buf)
{
	const struct xls_geometry *g = r->g;
	int64_t daddr = ag_daddr(g, agno) + ((int64_t)agbno << (g->block_log - 9));
	uint32_t *idx = r->pend ? xls_hashmap_find(&r->pend->refc_idx, (uint64_t)daddr, 0) : NULL;

	if (agbno >= g->ag_blocks)
		return false;
	if (idx && r->pend->refc[*idx].img)
		memcpy(buf, r->pend->refc[*idx].img, g->blocksize);
	else if (xls_source_read_data(r->src, (uint64_t)daddr * BBSIZE, buf, g->blocksize))
		return false;
	return xls_be32(buf) == XFS_REFC_CRC_MAGIC &&
	       xls_be16(buf + offsetof(struct xfs_btree_block, bb_numrecs)) != 0;
}

/* The CoW staging records of one AG's refcount btree, rooted at @root. */
static uint64_t count_cow(struct xls_recover *r, uint32_t agno, uint32_t root, uint32_t level,
			  uint8_t *buf)
{
	const struct xls_geometry *g = r->g;
	uint32_t bsize = g->blocksize, agbno = root;
	uint32_t node_max = (bsize - SBLOCK_HDR) / (4 + REFC_PTR_SIZE);
	uint32_t leaf_max = (bsize - SBLOCK_HDR) / sizeof(struct xfs_refcount_rec);
	uint64_t n = 0;

	/* down the right edge */
	for (uint32_t depth = 1; depth < level; depth++) {
		uint16_t recs;

		if (!refc_block(r, agno, agbno, buf))
			return 0;
		recs = xls_be16(buf + offsetof(struct xfs_btree_block, bb_numrecs));
		if (recs > node_max)
			return 0;
		agbno = xls_be32(buf + SBLOCK_HDR + (size_t)node_max * 4 +
				 (size_t)(recs - 1) * REFC_PTR_SIZE);
	}
	/* then leftwards while whole leaves stage CoW */
	for (uint32_t leaves = 0; leaves < g->ag_blocks && agbno != NULLAGBLOCK; leaves++) {
		uint16_t recs;
		uint32_t k;

		if (!refc_block(r, agno, agbno, buf))
			break;
		recs = xls_be16(buf + offsetof(struct xfs_btree_block, bb_numrecs));
		if (recs > leaf_max)
			break;
		for (k = recs; k > 0; k--) {
			const uint8_t *rec = buf + SBLOCK_HDR +
					     (size_t)(k - 1) * sizeof(struct xfs_refcount_rec);

			if (!(xls_be32(rec) & XFS_REFC_COWFLAG))
				break;
			n++;
		}
		if (k)
			break;
		agbno = xls_be32(buf + offsetof(struct xfs_btree_block, bb_u.s.bb_leftsib));
	}
	return n;
}

static void count_cow_staging(struct xls_recover *r)
{
	const struct xls_geometry *g = r->g;
	uint32_t sect = g->data_sect_bbs;
	uint8_t agf[512], *buf;

	if (!g->has_reflink || !g->blocksize)
		return;
	buf = malloc(g->blocksize);
	if (!buf) {
		r->err = -ENOMEM;
		return;
	}
	for (uint32_t agno = 0; agno < g->ag_count; agno++) {
		uint64_t n;

		if (read_head(r, ag_daddr(g, agno) + sect, sect, agf, sizeof(agf)) ||
		    xls_be32(agf) != XFS_AGF_MAGIC)
			continue;
		n = count_cow(r, agno, xls_be32(agf + offsetof(struct xfs_agf, agf_refcount_root)),
			      xls_be32(agf + offsetof(struct xfs_agf, agf_refcount_level)), buf);
		r->sum.pending.cow_extents += n;
		r->sum.pending.cow_ags += n ? 1 : 0;
	}
	free(buf);
}

void xls_pending_count(struct xls_recover *r)
{
	struct xls_pending *pd = &r->sum.pending;

	if (!pd->log_only) {
		count_unlinked(r);
		count_cow_staging(r);
	}
	for (int k = 0; k < XLS_PEND_KINDS; k++)
		r->sum.pending_work += pd->intents[k];
	/* without the device a bucket's chain is not known: the bucket counts */
	r->sum.pending_work += (pd->log_only ? pd->unlinked_buckets : pd->unlinked_inodes) +
			       pd->cow_extents;
}
