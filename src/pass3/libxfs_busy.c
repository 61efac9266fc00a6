// SPDX-License-Identifier: GPL-2.0
/*
 * Pass 3 stage: the kernel's busy extents (fs/xfs/xfs_extent_busy.c), for
 * the allocator libxfs runs in pass 3, and the log forces that clear them.  An extent freed is busy from its
 * transaction until the checkpoint holding that transaction is on disk;
 * the allocator trims busy extents off the free ones it finds
 * (xfs_extent_busy_trim), a btree block taken from the free list makes
 * its range unbusy (xfs_extent_busy_reuse), and an allocation that finds
 * only busy space forces the log (xfs_extent_busy_flush).  xfsprogs has
 * them as no-ops; tools/libxfs-busy compiles the allocator again to call
 * these, so that every block pass 3 allocates is the one the kernel's
 * allocator takes.
 *
 * Each AG keeps its busy extents in a red-black tree of the kernel's
 * shape (base/rbtree), since the trim's answer depends on the order it
 * meets them.  Pass 3 runs one transaction at a time, so the extents of
 * the transaction under way (the kernel's tp->t_busy) are those not yet
 * marked committed; a commit or a roll marks them.  A log force clears the
 * committed ones, sorted by AG and block as the kernel's checkpoint
 * completion clears them: the one after the intents (libxfs_pass3.c), and
 * those the kernel makes in the middle of its work, here -- the
 * allocator's own, and a stale buffer's -- each of which ends a checkpoint
 * of libxfs_ckpt.c's model.
 *
 * The state is set only in the child that runs pass 3.
 */
#include "libxfs.h"

#include "base/rbtree.h"
#include "base/vec.h"
#include "pass3/libxfs_work.h"

struct busy_extent {
	struct xls_rbnode	rb;		/* first: a node is its extent */
	xfs_agnumber_t		agno;
	xfs_agblock_t		bno;
	xfs_extlen_t		len;		/* 0: reused whole, out of the tree */
	bool			committed;
};

struct busy_ag {
	struct xls_rbroot	tree;
	unsigned int		gen;		/* bumped as extents clear */
};

struct busy_state {
	struct busy_ag		*ags;
	xfs_agnumber_t		nags;
	struct busy_extent	**list;		/* live extents, in the order inserted */
	uint32_t		n, cap;
	int			error;		/* ENOMEM */
};

static struct busy_state *busy;

int xls_libxfs_busy_start(struct xfs_mount *mp)
{
	busy = calloc(1, sizeof(*busy));
	if (busy)
		busy->ags = calloc(mp->m_sb.sb_agcount, sizeof(*busy->ags));
	if (!busy || !busy->ags) {
		free(busy);
		busy = NULL;
		return ENOMEM;
	}
	busy->nags = mp->m_sb.sb_agcount;
	return 0;
}

void xls_libxfs_busy_stop(int *error)
{
	if (!busy)
		return;
	*error = busy->error;
	for (uint32_t i = 0; i < busy->n; i++)
		free(busy->list[i]);
	xls_vec_free(busy->list);
	free(busy->ags);
	free(busy);
	busy = NULL;
}

/* The AG of @xg, or NULL: not followed (realtime groups, or no pass 3 running). */
static struct busy_ag *ag_of(const struct xfs_group *xg)
{
	if (!busy || xg->xg_type != XG_TYPE_AG || xg->xg_gno >= busy->nags)
		return NULL;
	return &busy->ags[xg->xg_gno];
}

static int by_ag_bno(const void *a, const void *b)
{
	const struct busy_extent *x = *(struct busy_extent *const *)a;
	const struct busy_extent *y = *(struct busy_extent *const *)b;

	if (x->agno != y->agno)
		return x->agno < y->agno ? -1 : 1;
	if (x->bno != y->bno)
		return x->bno < y->bno ? -1 : 1;
	return 0;
}

/*
 * A log force: the committed extents cleared, in AG and block order as
 * the kernel's checkpoint completion sorts them.  (Its sort is stable and
 * qsort is not, but ties cannot matter: two extents in one AG's tree
 * never start at one block, and one reused whole is out of it.)
 */
void xls_libxfs_busy_force(void)
{
	uint32_t keep = 0, ncleared = 0;
	struct busy_extent **cleared;

	if (!busy || !busy->n)
		return;
	cleared = malloc(busy->n * sizeof(*cleared));
	if (!cleared) {
		busy->error = ENOMEM;
		return;
	}
	for (uint32_t i = 0; i < busy->n; i++) {
		struct busy_extent *e = busy->list[i];

		if (e->committed)
			cleared[ncleared++] = e;
		else
			busy->list[keep++] = e;
	}
	busy->n = keep;
	if (ncleared > 1)
		qsort(cleared, ncleared, sizeof(*cleared), by_ag_bno);
	for (uint32_t i = 0; i < ncleared; i++) {
		struct busy_extent *e = cleared[i];
		struct busy_ag *ag = &busy->ags[e->agno];

		if (e->len)
			xls_rb_erase(&e->rb, &ag->tree);
		/* one wake-up a run of one AG's extents, as the kernel's clear */
		if (i + 1 == ncleared || cleared[i + 1]->agno != e->agno)
			ag->gen++;
		free(e);
	}
	free(cleared);
}

/* A force the allocator makes: its checkpoint ends there, its busy extents clear. */
static void allocator_force(void)
{
	if (xls_libxfs_ckpt_force() == 0)
		xls_libxfs_busy_force();
}

/* The transaction under way committed: its extents wait for a log force. */
static void committed(void)
{
	xls_libxfs_ckpt_committed();
	if (!busy)
		return;
	for (uint32_t i = busy->n; i-- > 0 && !busy->list[i]->committed;)
		busy->list[i]->committed = true;
}

static bool tx_holds_busy(void)
{
	return busy->n && !busy->list[busy->n - 1]->committed;
}

void xfs_extent_busy_insert(struct xfs_trans *tp, struct xfs_group *xg, xfs_agblock_t bno,
			    xfs_extlen_t len, unsigned int flags)
{
	struct busy_ag *ag = ag_of(xg);
	struct xls_rbnode **link, *parent = NULL;
	struct busy_extent *e, **slot;

	(void)tp;
	(void)flags;			/* discards: none in pass 3 */
	if (!ag)
		return;
	e = calloc(1, sizeof(*e));
	slot = e ? xls_vec_push((void **)&busy->list, &busy->n, &busy->cap, sizeof(*slot)) : NULL;
	if (!slot) {
		free(e);
		busy->error = ENOMEM;
		return;
	}
	*e = (struct busy_extent){ .agno = xg->xg_gno, .bno = bno, .len = len };
	*slot = e;
	link = &ag->tree.node;
	while (*link) {
		parent = *link;
		link = &parent->child[bno > ((struct busy_extent *)parent)->bno];
	}
	xls_rb_link(&e->rb, parent, link);
	xls_rb_insert_color(&e->rb, &ag->tree);
}

bool xfs_extent_busy_trim(struct xfs_group *xg, xfs_extlen_t minlen, xfs_extlen_t maxlen,
			  xfs_agblock_t *bno, xfs_extlen_t *len, unsigned *busy_gen)
{
	struct busy_ag *ag = ag_of(xg);
	xfs_agblock_t fbno = *bno;
	xfs_extlen_t flen = *len;
	struct xls_rbnode *n;

	if (!ag)
		return false;
	n = ag->tree.node;
	while (n && flen >= minlen) {
		const struct busy_extent *e = (const struct busy_extent *)n;
		xfs_agblock_t fend = fbno + flen, bend = e->bno + e->len;

		if (fend <= e->bno) {
			n = n->child[0];
			continue;
		}
		if (fbno >= bend) {
			n = n->child[1];
			continue;
		}
		/* the same node looked at again, once the overlap is cut off */
		if (e->bno <= fbno) {
			if (fend <= bend) {
				flen = 0;	/* all busy */
				break;
			}
			fbno = bend;
		} else if (bend >= fend) {
			fend = e->bno;
		} else if (e->bno - fbno >= maxlen) {
			fend = e->bno;		/* busy in the middle: forward allocation first */
		} else if (fend - bend >= maxlen * 4) {
			fbno = bend;
		} else if (e->bno - fbno >= minlen) {
			fend = e->bno;
		} else {
			flen = 0;
			break;
		}
		flen = fend - fbno;
	}
	if (fbno == *bno && flen == *len)
		return false;
	*bno = fbno;
	*len = flen;
	*busy_gen = ag->gen;
	return true;
}

/*
 * The busy extent @e overlapping [@fbno, @fbno + @flen) made unbusy where
 * they overlap; false when the search must start again from the root (the
 * tree changed, or the log was forced).
 */
static bool reuse_one(struct busy_ag *ag, struct busy_extent *e, xfs_agblock_t fbno,
		      xfs_extlen_t flen, bool userdata)
{
	xfs_agblock_t fend = fbno + flen, bend = e->bno + e->len;

	if (userdata || (e->bno < fbno && bend > fend)) {
		/* a user allocation, or a split the lists cannot record: force */
		bool clears = e->committed;

		allocator_force();	/* frees @e if it clears it */
		if (clears)
			return false;
		/*
		 * Still busy: the transaction under way holds it, and the
		 * kernel would force again and again.  Taken out, and the
		 * journal refused by the force counted.
		 */
	} else if (fend < bend) {
		e->len = bend - fend;
		e->bno = fend;
		return true;
	} else if (e->bno < fbno) {
		e->len = fbno - e->bno;
		return true;
	}
	xls_rb_erase(&e->rb, &ag->tree);
	e->len = 0;
	return false;
}

void xfs_extent_busy_reuse(struct xfs_group *xg, xfs_agblock_t fbno, xfs_extlen_t flen,
			   bool userdata)
{
	struct busy_ag *ag = ag_of(xg);
	struct xls_rbnode *n = ag ? ag->tree.node : NULL;

	while (n) {
		struct busy_extent *e = (struct busy_extent *)n;

		if (fbno + flen <= e->bno)
			n = n->child[0];
		else if (fbno >= e->bno + e->len)
			n = n->child[1];
		else if (!reuse_one(ag, e, fbno, flen, userdata))
			n = ag->tree.node;
	}
}

int xfs_extent_busy_flush(struct xfs_trans *tp, struct xfs_group *xg, unsigned busy_gen,
			  uint32_t alloc_flags)
{
	struct busy_ag *ag = ag_of(xg);

	(void)tp;
	if (!ag)
		return 0;
	allocator_force();
	if (ag->gen != busy_gen)
		return 0;
	/* only the transaction's own extents are busy: no wait would end */
	if (tx_holds_busy() && (alloc_flags & XFS_ALLOC_FLAG_TRYFLUSH))
		return 0;
	/*
	 * The kernel relogs the intent of the work that frees (-EAGAIN), or
	 * would wait for good: neither is followed by the checkpoint model
	 */
	xls_libxfs_ckpt_unfollowed();
	return -EAGAIN;
}

/*
 * A buffer made stale by a committed transaction is pinned in the CIL
 * until its checkpoint is written; the kernel's xfs_buf_lock, finding one
 * pinned and stale, forces the log before it waits for the lock: when
 * libxfs gets such a buffer again (a freed btree block taken back from
 * the free list), the checkpoint ends there.  The force is asynchronous;
 * its checkpoint is taken here as written before pass 3 goes on, the
 * transaction under way in the next one, the busy extents it frees
 * cleared -- as the kernel's journals measured show it.  (The waiter holds
 * the buffer: it gets it back with what it held.)
 *
 * Not an inode cluster buffer, stale as its chunk was freed: libxfs reads
 * one again when a transaction logs an inode it holds (the one whose free
 * emptied the chunk, rolled through its deferred frees), since its inode
 * log item lets go of its cluster buffer at every commit; the kernel's
 * keeps it until the inode is written back, and does not lock it there.
 */
static void stale_lock(const struct xfs_buf_map *map, int nmaps, const struct xfs_buf_ops *ops)
{
	if (busy && nmaps > 0 && ops != &xfs_inode_buf_ops &&
	    xls_libxfs_ckpt_stale((uint64_t)map[0].bm_bn) == XLS_STALE_PINNED &&
	    xls_libxfs_ckpt_force() == 0)
		xls_libxfs_busy_force();
}

int __real_libxfs_buf_get_map(struct xfs_buftarg *btp, struct xfs_buf_map *maps, int nmaps,
			      int flags, struct xfs_buf **bpp);
int __wrap_libxfs_buf_get_map(struct xfs_buftarg *btp, struct xfs_buf_map *maps, int nmaps,
			      int flags, struct xfs_buf **bpp);
int __real_libxfs_buf_read_map(struct xfs_buftarg *btp, struct xfs_buf_map *maps, int nmaps,
			       int flags, struct xfs_buf **bpp, const struct xfs_buf_ops *ops);
int __wrap_libxfs_buf_read_map(struct xfs_buftarg *btp, struct xfs_buf_map *maps, int nmaps,
			       int flags, struct xfs_buf **bpp, const struct xfs_buf_ops *ops);

/*
 * A stale buffer whose checkpoint is written is let go by the kernel's
 * cache (xfs_buf_rele) and, got again, is new memory, zeroed
 * (xfs_buf_alloc_backing_mem): the bytes a btree block taken from the
 * free list does not set stay zero on disk.  libxfs keeps it cached with
 * what it last held: zeroed here, as the kernel's.
 */
int __wrap_libxfs_buf_get_map(struct xfs_buftarg *btp, struct xfs_buf_map *maps, int nmaps,
			      int flags, struct xfs_buf **bpp)
{
	bool released = busy && nmaps > 0 &&
			xls_libxfs_ckpt_stale((uint64_t)maps[0].bm_bn) == XLS_STALE_RELEASED;
	int error;

	stale_lock(maps, nmaps, NULL);
	error = __real_libxfs_buf_get_map(btp, maps, nmaps, flags, bpp);
	if (!error && released)
		memset((*bpp)->b_addr, 0, BBTOB((*bpp)->b_length));
	return error;
}

int __wrap_libxfs_buf_read_map(struct xfs_buftarg *btp, struct xfs_buf_map *maps, int nmaps,
			       int flags, struct xfs_buf **bpp, const struct xfs_buf_ops *ops)
{
	stale_lock(maps, nmaps, ops);
	return __real_libxfs_buf_read_map(btp, maps, nmaps, flags, bpp, ops);
}

/* The commits and rolls of libxfs, reached through the link (-Wl,--wrap). */
int __real_libxfs_trans_commit(struct xfs_trans *tp);
int __wrap_libxfs_trans_commit(struct xfs_trans *tp);
int __real_libxfs_trans_roll(struct xfs_trans **tpp);
int __wrap_libxfs_trans_roll(struct xfs_trans **tpp);

int __wrap_libxfs_trans_commit(struct xfs_trans *tp)
{
	int error = __real_libxfs_trans_commit(tp);

	committed();
	return error;
}

int __wrap_libxfs_trans_roll(struct xfs_trans **tpp)
{
	int error = __real_libxfs_trans_roll(tpp);

	committed();
	return error;
}
