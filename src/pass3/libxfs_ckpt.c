// SPDX-License-Identifier: GPL-2.0
/*
 * Pass 3 stage: the kernel's pass-3 checkpoints, as far as the LSNs of the
 * blocks go.  A block carries the LSN of the last checkpoint that logged
 * it; the first starts at the head recovery found, each next one as many
 * blocks further as the one before takes in the log.  A checkpoint ends
 * where the kernel forces the log: once the intents are finished
 * (xlog_recover_finish); where its allocator finds only busy extents
 * (xfs_extent_busy_flush, libxfs_busy.c); where it locks again a buffer
 * made stale in a committed transaction, still pinned (xfs_buf_lock).
 * Measured on kernel journals of thousands of unlinked inodes, these are
 * all the kernel's pass-3 checkpoints, each the size computed here.
 *
 * So the items libxfs logs are followed here as the kernel's CIL would
 * hold them, a committed transaction at a time -- a buffer by its dirty
 * 128-byte chunks (xfs_buf_item_log) since it was read or made stale,
 * stale or ordered; an inode by its logged fields and forks at each commit
 * (xfs_inode_item_format); the intents and done items of deferred work
 * (from xfs_defer.c's tracepoints); the done item of each recovered intent
 * -- and each checkpoint is sized as the kernel writes it: each region
 * behind an op header, the checkpoint's start and transaction header, its
 * commit record, packed into iclogs and their continuations (xlog_write,
 * xlog_write_partial), each record rounded to the log stripe unit
 * (xlog_sync).  An intent and its done item in one checkpoint are not in
 * it (the CIL's intent whiteouts); apart, each is in its own.  The
 * superblock is left out: with lazy counters the kernel does not log it
 * here, libxfs does.
 *
 * The wraps below are reached through the link (-Wl,--wrap), in the child
 * that runs pass 3, through the one model it sets.
 */
#include "libxfs.h"

#include "base/inomap.h"
#include "base/vec.h"
#include "pass3/libxfs_work.h"

/* 64 KiB buffers at most: 512 chunks of XFS_BLF_CHUNK bytes */
#define MAP_WORDS	16
#define OPHDR		((uint32_t)sizeof(struct xlog_op_header))

/*
 * A buffer as the CIL holds it: what committed transactions logged, its
 * dirty chunks gathered since it was read or made stale -- never written
 * back during pass 3, so a later checkpoint logs the chunks of the earlier
 * ones too, as the kernel's buf log item keeps its bitmap until the
 * buffer's write.  What the transaction under way does waits in the tx_
 * fields for its commit: a log force in its middle leaves it out.
 */
struct ckpt_buf {
	uint64_t	daddr;
	uint32_t	nbb;
	uint32_t	ckpt;		/* the last checkpoint that logged it */
	uint64_t	seq;		/* when, for the CIL's order */
	bool		stale, ordered;
	uint32_t	map[MAP_WORDS];
	bool		in_tx, tx_binval, tx_stale, tx_ordered, tx_logged;
	uint64_t	tx_seq;
	uint32_t	txmap[MAP_WORDS];
};

struct ckpt_ino {
	uint64_t	ino;
	uint32_t	ckpt;
	uint64_t	seq;
	uint32_t	fields;		/* logged since the checkpoint began */
	uint32_t	dbytes, abytes;	/* its forks as the last commit formats them */
	uint32_t	before;		/* its literal area before pass 3, in before[] */
};

struct xls_ckpt_model {
	struct xls_inomap	bufidx, inoidx;	/* daddr, ino -> index + 1 */
	struct ckpt_buf		*bufs;
	uint32_t		nbufs, capbufs;
	struct ckpt_ino		*inos;
	uint32_t		ninos, capinos;
	uint32_t		cur;		/* the checkpoint being filled */
	uint64_t		seq;
	/* the intents of deferred work logged and not yet done, as the kernel logs them */
	struct ckpt_intent {
		const struct xfs_defer_pending *dfp;
		uint32_t	ibytes, dbytes;	/* intent, done item: op header and format */
		uint32_t	ckpt;		/* the intent's, UINT32_MAX: not yet committed */
		uint64_t	seq, dseq;
		bool		done_in_tx;	/* its done item in the transaction under way */
	}			*intents;
	uint32_t		nintents, capintents;
	uint32_t		*tx;		/* bufs[] the transaction under way touched */
	uint32_t		ntx, captx;
	uint64_t		*blocks;	/* each checkpoint ended: its log blocks */
	uint32_t		nblocks, capblocks;
	struct xfs_mount	*mp;
	/* the done items of the recovered intents: each its op header and format */
	struct ckpt_done {
		uint64_t	seq;
		uint32_t	bytes;
	}			*done;
	uint32_t		ndone, capdone;
	int			error;		/* ENOMEM, or EFBIG: a buffer too large to follow */
	/* the inodes' literal areas as pass 2 left them (struct ckpt_ino.before) */
	struct xls_pool		before;
	/* each inode's change counter as the kernel's keeps it: ino -> IVER_* */
	struct xls_inomap	iver;
};

/*
 * The kernel bumps an inode's change counter when a transaction first logs
 * it, if XFS_ILOG_CORE is among the flags or the counter was read since it
 * last changed -- as it is when the inode comes from disk
 * (xfs_trans_log_inode, inode_maybe_inc_iversion); libxfs bumps it at every
 * commit that logged the inode (libxfs_iflush_int).
 */
#define IVER_SEEN	1u	/* known: read from disk once, in this pass 3 */
#define IVER_SPENT	2u	/* ... and bumped since */
#define IVER_IN_TX	4u	/* logged in the transaction under way */
#define IVER_BUMP	8u	/* ... which the kernel bumps it for */

static struct xls_ckpt_model *model;

struct xls_ckpt_model *xls_libxfs_ckpt_start(struct xfs_mount *mp)
{
	model = calloc(1, sizeof(*model));
	if (model)
		model->mp = mp;
	return model;
}

void xls_libxfs_ckpt_stop(void)
{
	model = NULL;
}

void xls_libxfs_ckpt_free(struct xls_ckpt_model *m)
{
	if (!m)
		return;
	xls_inomap_free(&m->bufidx);
	xls_inomap_free(&m->inoidx);
	xls_vec_free(m->bufs);
	xls_vec_free(m->tx);
	xls_vec_free(m->intents);
	xls_vec_free(m->blocks);
	xls_vec_free(m->inos);
	xls_vec_free(m->done);
	xls_pool_free(&m->before);
	xls_inomap_free(&m->iver);
	free(m);
}

static struct ckpt_buf *buf_of(struct xls_ckpt_model *m, struct xfs_buf *bp)
{
	uint64_t daddr = (uint64_t)xfs_buf_daddr(bp);
	uint64_t *at = xls_inomap_find(&m->bufidx, daddr);
	struct ckpt_buf *b;

	if (at)
		return &m->bufs[*at - 1];
	if (BBTOB(bp->b_length) > MAP_WORDS * NBWORD * XFS_BLF_CHUNK) {
		m->error = EFBIG;
		return NULL;
	}
	b = xls_vec_push((void **)&m->bufs, &m->nbufs, &m->capbufs, sizeof(*b));
	if (!b || xls_inomap_put(&m->bufidx, daddr, m->nbufs)) {
		m->error = ENOMEM;
		return NULL;
	}
	memset(b, 0, sizeof(*b));
	b->daddr = daddr;
	b->nbb = bp->b_length;
	b->ckpt = UINT32_MAX;
	return b;
}

/* @b touched by the transaction under way: its changes wait for the commit. */
static void tx_touch(struct xls_ckpt_model *m, struct ckpt_buf *b)
{
	if (!b->in_tx) {
		uint32_t *slot = xls_vec_push((void **)&m->tx, &m->ntx, &m->captx, sizeof(*slot));

		if (!slot) {
			m->error = ENOMEM;
			return;
		}
		*slot = (uint32_t)(b - m->bufs);
		b->in_tx = true;
		b->tx_binval = b->tx_ordered = b->tx_logged = false;
		b->tx_stale = b->stale;
		memset(b->txmap, 0, sizeof(b->txmap));
		b->tx_seq = ++m->seq;
	}
}

static bool map_empty(const uint32_t *map)
{
	for (int i = 0; i < MAP_WORDS; i++)
		if (map[i])
			return false;
	return true;
}

/* The superblock: lazy counters, which the kernel does not log here. */
static bool is_sb(struct xfs_buf *bp)
{
	return xfs_buf_daddr(bp) == XFS_SB_DADDR && bp->b_target == bp->b_mount->m_ddev_targp;
}

void __real_xfs_buf_item_log(struct xfs_buf_log_item *bip, uint first, uint last);
void __wrap_xfs_buf_item_log(struct xfs_buf_log_item *bip, uint first, uint last);

void __wrap_xfs_buf_item_log(struct xfs_buf_log_item *bip, uint first, uint last)
{
	struct xls_ckpt_model *m = model;
	struct ckpt_buf *b;

	__real_xfs_buf_item_log(bip, first, last);
	if (!m || is_sb(bip->bli_buf) || !(b = buf_of(m, bip->bli_buf)))
		return;
	tx_touch(m, b);
	b->tx_logged = true;
	b->tx_stale = false;	/* logged again: xfs_trans_dirty_buf clears XFS_BLI_STALE */
	b->tx_ordered = false;
	for (uint32_t c = first / XFS_BLF_CHUNK; c <= last / XFS_BLF_CHUNK &&
	     c < MAP_WORDS * NBWORD; c++)
		b->txmap[c / NBWORD] |= 1u << (c % NBWORD);
}

/*
 * A buffer made stale by a committed transaction is pinned in the CIL
 * until its checkpoint is written, then let go: whether the one at @daddr
 * is stale, and which of the two.
 */
enum xls_stale xls_libxfs_ckpt_stale(uint64_t daddr)
{
	const struct xls_ckpt_model *m = model;
	const uint64_t *at = m ? xls_inomap_find(&m->bufidx, daddr) : NULL;

	if (!at || !m->bufs[*at - 1].stale)
		return XLS_NOT_STALE;
	return m->bufs[*at - 1].ckpt == m->cur ? XLS_STALE_PINNED : XLS_STALE_RELEASED;
}

/*
 * The kernel's intent and done items for libxfs's deferred work, from the
 * tracepoints of xfs_defer.c (libxfs_trace_hooks.h): the sizes
 * xfs_*_item_format logs.  An xattr intent's size depends on its names
 * and values: one that a checkpoint's end separates from its done item is
 * not followed (EOPNOTSUPP).
 */
static void intent_sizes(const struct xfs_defer_pending *dfp, uint32_t *ib, uint32_t *db)
{
	const struct xfs_defer_op_type *ops = dfp->dfp_ops;
	unsigned int n = dfp->dfp_count;

	*ib = *db = 0;
	if (ops == &xfs_extent_free_defer_type || ops == &xfs_agfl_free_defer_type) {
		*ib = (uint32_t)xfs_efi_log_format_sizeof(n);
		*db = (uint32_t)xfs_efd_log_format_sizeof(n);
	} else if (ops == &xfs_rmap_update_defer_type) {
		*ib = (uint32_t)xfs_rui_log_format_sizeof(n);
		*db = (uint32_t)sizeof(struct xfs_rud_log_format);
	} else if (ops == &xfs_refcount_update_defer_type) {
		*ib = (uint32_t)xfs_cui_log_format_sizeof(n);
		*db = (uint32_t)sizeof(struct xfs_cud_log_format);
	} else if (ops == &xfs_bmap_update_defer_type) {
		*ib = (uint32_t)xfs_bui_log_format_sizeof(n);
		*db = (uint32_t)sizeof(struct xfs_bud_log_format);
	} else if (ops == &xfs_exchmaps_defer_type) {
		*ib = (uint32_t)sizeof(struct xfs_xmi_log_format);
		*db = (uint32_t)sizeof(struct xfs_xmd_log_format);
	}
	if (*ib) {
		*ib += OPHDR;
		*db += OPHDR;
	}
}

/*
 * @dfp's intent whose done item is not logged yet.  (A finished dfp is
 * freed at once, and the work it adds may get its address while its done
 * item waits for the commit: that record is another's.)
 */
static struct ckpt_intent *intent_of(struct xls_ckpt_model *m, const struct xfs_defer_pending *dfp)
{
	for (uint32_t i = 0; i < m->nintents; i++)
		if (m->intents[i].dfp == dfp && !m->intents[i].done_in_tx)
			return &m->intents[i];
	return NULL;
}

/* xfs_defer_create_intents: @dfp's intent logged, unless it has one already (captured work). */
void xls_libxfs_ckpt_intent(const struct xfs_defer_pending *dfp)
{
	struct xls_ckpt_model *m = model;
	struct ckpt_intent *in;

	if (!m || intent_of(m, dfp))
		return;
	in = xls_vec_push((void **)&m->intents, &m->nintents, &m->capintents, sizeof(*in));
	if (!in) {
		m->error = ENOMEM;
		return;
	}
	memset(in, 0, sizeof(*in));
	in->dfp = dfp;
	in->ckpt = UINT32_MAX;
	in->seq = ++m->seq;
	intent_sizes(dfp, &in->ibytes, &in->dbytes);
}

/* xfs_defer_finish_one: @dfp's done item logged in the transaction under way. */
void xls_libxfs_ckpt_intent_done(const struct xfs_defer_pending *dfp)
{
	struct xls_ckpt_model *m = model;
	struct ckpt_intent *in = m ? intent_of(m, dfp) : NULL;

	if (!in)
		return;
	in->done_in_tx = true;
	in->dseq = ++m->seq;
}

static void add_done(struct xls_ckpt_model *m, uint64_t seq, uint32_t bytes)
{
	struct ckpt_done *d = xls_vec_push((void **)&m->done, &m->ndone, &m->capdone, sizeof(*d));

	if (!d) {
		m->error = ENOMEM;
		return;
	}
	d->seq = seq;
	d->bytes = bytes;
}

/*
 * At a commit: the intents it logged are in the checkpoint; a done item
 * whose intent is in the same checkpoint whites both out of it
 * (xlog_cil_process_intents), one whose intent an earlier checkpoint
 * holds is logged.
 */
static void intents_committed(struct xls_ckpt_model *m)
{
	uint32_t keep = 0;

	for (uint32_t i = 0; i < m->nintents; i++) {
		struct ckpt_intent *in = &m->intents[i];

		if (in->ckpt == UINT32_MAX)
			in->ckpt = m->cur;
		if (in->done_in_tx) {
			if (in->ckpt != m->cur) {
				if (!in->ibytes)
					m->error = EOPNOTSUPP;
				add_done(m, in->dseq, in->dbytes);
			}
			continue;
		}
		m->intents[keep++] = *in;
	}
	m->nintents = keep;
}

/* A transaction committed: what it logged goes into the CIL, pinned. */
void xls_libxfs_ckpt_committed(void)
{
	struct xls_ckpt_model *m = model;

	if (!m)
		return;
	for (uint32_t i = 0; i < m->ntx; i++) {
		struct ckpt_buf *b = &m->bufs[m->tx[i]];

		if (b->tx_binval)
			memset(b->map, 0, sizeof(b->map));
		for (int w = 0; w < MAP_WORDS; w++)
			b->map[w] |= b->txmap[w];
		b->stale = b->tx_stale;
		if (b->tx_ordered)
			b->ordered = true;
		else if (b->tx_logged || b->tx_binval)
			b->ordered = false;
		b->ckpt = m->cur;
		b->seq = b->tx_seq;
		b->in_tx = false;
	}
	m->ntx = 0;
	intents_committed(m);
}

void xls_libxfs_ckpt_unfollowed(void)
{
	if (model && !model->error)
		model->error = EOPNOTSUPP;
}

int xls_libxfs_ckpt_error(void)
{
	return model ? model->error : 0;
}

void __real_libxfs_trans_binval(struct xfs_trans *tp, struct xfs_buf *bp);
void __wrap_libxfs_trans_binval(struct xfs_trans *tp, struct xfs_buf *bp);

/* A stale buffer is logged as its format alone, its chunks forgotten (xfs_trans_binval). */
void __wrap_libxfs_trans_binval(struct xfs_trans *tp, struct xfs_buf *bp)
{
	struct xls_ckpt_model *m = model;
	struct ckpt_buf *b;

	__real_libxfs_trans_binval(tp, bp);
	if (!m || !(b = buf_of(m, bp)))
		return;
	tx_touch(m, b);
	memset(b->txmap, 0, sizeof(b->txmap));
	b->tx_binval = b->tx_stale = true;
	b->tx_logged = b->tx_ordered = false;
}

bool __real_libxfs_trans_ordered_buf(struct xfs_trans *tp, struct xfs_buf *bp);
bool __wrap_libxfs_trans_ordered_buf(struct xfs_trans *tp, struct xfs_buf *bp);

/*
 * Ordered: in the checkpoint, not in the log; libxfs logs it whole, the
 * kernel not -- unless it has dirty chunks already, which the kernel
 * refuses to order (xfs_buf_item_dirty_format): it is then logged whole.
 */
bool __wrap_libxfs_trans_ordered_buf(struct xfs_trans *tp, struct xfs_buf *bp)
{
	struct xls_ckpt_model *m = model;
	bool was_dirty = false;
	struct ckpt_buf *b = NULL;
	bool ret;

	if (m && (b = buf_of(m, bp)))
		was_dirty = (!b->tx_binval && !map_empty(b->map)) ||
			    (b->in_tx && !map_empty(b->txmap));
	ret = __real_libxfs_trans_ordered_buf(tp, bp);
	if (b && !was_dirty) {
		tx_touch(m, b);
		memset(b->txmap, 0, sizeof(b->txmap));
		b->tx_ordered = true;
		b->tx_logged = false;
	}
	return ret;
}

/* Bytes of a fork as xfs_inode_item_format logs it with @fields, 0 for none. */
static uint32_t fork_bytes(struct xfs_inode *ip, int whichfork, uint32_t fields)
{
	struct xfs_ifork *ifp = xfs_ifork_ptr(ip, whichfork);
	bool data = whichfork == XFS_DATA_FORK;

	if (!ifp)
		return 0;
	switch (ifp->if_format) {
	case XFS_DINODE_FMT_EXTENTS:
		if ((fields & (data ? XFS_ILOG_DEXT : XFS_ILOG_AEXT)) && ifp->if_nextents > 0 &&
		    ifp->if_bytes > 0)
			return (uint32_t)(ifp->if_nextents * sizeof(struct xfs_bmbt_rec));
		return 0;
	case XFS_DINODE_FMT_BTREE:
		if ((fields & (data ? XFS_ILOG_DBROOT : XFS_ILOG_ABROOT)) && ifp->if_broot_bytes > 0)
			return (uint32_t)ifp->if_broot_bytes;
		return 0;
	case XFS_DINODE_FMT_LOCAL:
		if ((fields & (data ? XFS_ILOG_DDATA : XFS_ILOG_ADATA)) && ifp->if_bytes > 0)
			return (uint32_t)roundup(ifp->if_bytes, 4);
		return 0;
	}
	return 0;
}

/* The literal area of the on-disk inode @dip: where the forks are, its length. */
static uint8_t *literal_area(struct xfs_mount *mp, struct xfs_dinode *dip, uint32_t *len)
{
	uint32_t core = xfs_dinode_size(dip->di_version);

	*len = mp->m_sb.sb_inodesize > core ? mp->m_sb.sb_inodesize - core : 0;
	return (uint8_t *)dip + core;
}

/* @n's literal area as pass 2 left it, kept the first time pass 3 flushes it. */
static void keep_before(struct xls_ckpt_model *m, struct ckpt_ino *n, struct xfs_mount *mp,
			struct xfs_dinode *dip)
{
	uint32_t len;
	const uint8_t *lit = literal_area(mp, dip, &len);

	if (!xls_pool_add(&m->before, lit, len, &n->before)) {
		n->before = UINT32_MAX;
		m->error = ENOMEM;
	}
}

/*
 * After a flush of @ip into @dip: past the extent records of each fork,
 * the bytes pass 2 left.  The kernel flushes an inode once, when its
 * checkpoint is written back, and its literal area keeps, past the
 * records it holds then, what was there; libxfs flushes at every commit,
 * leaving records a fork had in between (an exchange's ninth extent).
 */
static void put_back_before(const struct xls_ckpt_model *m, const struct ckpt_ino *n,
			    struct xfs_inode *ip, struct xfs_dinode *dip)
{
	struct xfs_mount *mp = ip->i_mount;
	uint32_t len;
	uint8_t *lit = literal_area(mp, dip, &len);

	if (n->before == UINT32_MAX)
		return;
	for (int w = XFS_DATA_FORK; w <= XFS_ATTR_FORK; w++) {
		struct xfs_ifork *ifp = xfs_ifork_ptr(ip, w);
		uint32_t start = w == XFS_DATA_FORK ? 0 : (uint32_t)XFS_DFORK_BOFF(dip);
		uint32_t size = (uint32_t)XFS_DFORK_SIZE(dip, mp, w);
		uint32_t used;

		if (!ifp || ifp->if_format != XFS_DINODE_FMT_EXTENTS ||
		    (w == XFS_ATTR_FORK && !dip->di_forkoff))
			continue;
		used = (uint32_t)(ifp->if_nextents * sizeof(struct xfs_bmbt_rec));
		if (used < size && start + size <= len)
			memcpy(lit + start + used, m->before.p + n->before + start + used,
			       size - used);
	}
}

void __real_libxfs_trans_log_inode(struct xfs_trans *tp, struct xfs_inode *ip, uint flags);
void __wrap_libxfs_trans_log_inode(struct xfs_trans *tp, struct xfs_inode *ip, uint flags);

/* @ip logged: the first time in a transaction, whether the kernel bumps its counter. */
void __wrap_libxfs_trans_log_inode(struct xfs_trans *tp, struct xfs_inode *ip, uint flags)
{
	struct xls_ckpt_model *m = model;

	if (m && ip->i_itemp && !test_bit(XFS_LI_DIRTY, &ip->i_itemp->ili_item.li_flags)) {
		const uint64_t *st = xls_inomap_find(&m->iver, ip->i_ino);
		uint64_t v = st ? *st : IVER_SEEN;

		v |= IVER_IN_TX;
		v &= ~(uint64_t)IVER_BUMP;
		if ((flags & XFS_ILOG_CORE) || !(v & IVER_SPENT))
			v |= IVER_BUMP | IVER_SPENT;
		if (xls_inomap_put(&m->iver, ip->i_ino, v))
			m->error = ENOMEM;
	}
	__real_libxfs_trans_log_inode(tp, ip, flags);
}

/* libxfs's bump of @ip's counter at this commit taken back where the kernel makes none. */
static void kernel_iversion(struct xls_ckpt_model *m, struct xfs_inode *ip)
{
	uint64_t *st = xls_inomap_find(&m->iver, ip->i_ino);

	if (!st || !(*st & IVER_IN_TX) || !xfs_has_v3inodes(ip->i_mount))
		return;
	if (!(*st & IVER_BUMP))
		VFS_I(ip)->i_version--;
	*st &= ~(uint64_t)(IVER_IN_TX | IVER_BUMP);
}

int __real_libxfs_iflush_int(struct xfs_inode *ip, struct xfs_buf *bp);
int __wrap_libxfs_iflush_int(struct xfs_inode *ip, struct xfs_buf *bp);

/* A commit that logged @ip: how the CIL would format it now. */
int __wrap_libxfs_iflush_int(struct xfs_inode *ip, struct xfs_buf *bp)
{
	struct xls_ckpt_model *m = model;
	struct ckpt_ino *n;
	uint64_t *at;
	int rc;

	if (!m || !ip->i_itemp)
		return __real_libxfs_iflush_int(ip, bp);
	at = xls_inomap_find(&m->inoidx, ip->i_ino);
	if (at) {
		n = &m->inos[*at - 1];
	} else {
		n = xls_vec_push((void **)&m->inos, &m->ninos, &m->capinos, sizeof(*n));
		if (!n || xls_inomap_put(&m->inoidx, ip->i_ino, m->ninos)) {
			m->error = ENOMEM;
			return __real_libxfs_iflush_int(ip, bp);
		}
		memset(n, 0, sizeof(*n));
		n->ino = ip->i_ino;
		n->ckpt = UINT32_MAX;
		keep_before(m, n, ip->i_mount, xfs_buf_offset(bp, ip->i_imap.im_boffset));
	}
	n->ckpt = m->cur;
	n->seq = ++m->seq;
	n->fields |= ip->i_itemp->ili_fields;
	n->dbytes = fork_bytes(ip, XFS_DATA_FORK, n->fields);
	n->abytes = fork_bytes(ip, XFS_ATTR_FORK, n->fields);
	kernel_iversion(m, ip);
	rc = __real_libxfs_iflush_int(ip, bp);
	if (!rc)
		put_back_before(m, n, ip, xfs_buf_offset(bp, ip->i_imap.im_boffset));
	return rc;
}

void xls_libxfs_ckpt_done_item(uint16_t type, uint32_t nextents)
{
	struct xls_ckpt_model *m = model;
	struct ckpt_done *d;

	if (!m)
		return;
	d = xls_vec_push((void **)&m->done, &m->ndone, &m->capdone, sizeof(*d));
	if (!d) {
		m->error = ENOMEM;
		return;
	}
	d->seq = ++m->seq;
	/* xfs_efd_log_format_sizeof, or the 16 bytes of an RUD, CUD, BUD */
	d->bytes = OPHDR + (type == XFS_LI_EFI ?
			    (uint32_t)sizeof(struct xfs_efd_log_format) +
			    nextents * (uint32_t)sizeof(struct xfs_extent) : 16u);
}

/* ------------------------------------------------------------------ */
/* the checkpoint in the log */

/* One log item of the checkpoint: its regions, each behind an op header. */
struct lv {
	uint64_t	seq;
	uint32_t	nreg;
	uint32_t	reg[2 + MAP_WORDS * NBWORD];	/* region lengths, op header included */
};

/* Where xlog_write has got to: the iclog's data offset, the blocks before it. */
struct iclogs {
	uint32_t	size;		/* ic_size: data bytes an iclog holds */
	uint32_t	hbb;		/* header blocks */
	uint32_t	sunit_bb;	/* records rounded to it */
	uint32_t	off;
	uint64_t	blocks;
};

/* xlog_state_switch_iclogs: the record of @bytes of data ends; the next begins. */
static void next_iclog(struct iclogs *c, uint32_t bytes)
{
	c->blocks += roundup(c->hbb + BTOBB(bytes), c->sunit_bb);
	c->off = 0;
}

/*
 * xlog_state_get_iclog_space: a write starts in the current iclog unless
 * two op headers no longer fit; one that does not fit takes the iclog
 * whole, and goes on in the next when it is full.
 */
static void get_space(struct iclogs *c)
{
	if (c->size - c->off < 2 * OPHDR)
		next_iclog(c, c->size);
}

/* xlog_write_partial: region by region, continued across iclogs. */
static void write_partial(struct iclogs *c, const struct lv *lv)
{
	for (uint32_t i = 0; i < lv->nreg; i++) {
		uint32_t len = lv->reg[i], done, rlen;

		if (c->size - c->off <= OPHDR)
			next_iclog(c, c->size);
		rlen = len < c->size - c->off ? len : c->size - c->off;
		c->off += rlen;
		for (done = rlen; done < len; done += rlen) {
			next_iclog(c, c->size);
			c->off += OPHDR;
			rlen = len - done;
			if (rlen > c->size - c->off)
				rlen = c->size - c->off;
			c->off += rlen;
		}
	}
}

static void write_lv(struct iclogs *c, const struct lv *lv)
{
	uint32_t bytes = 0;

	for (uint32_t i = 0; i < lv->nreg; i++)
		bytes += lv->reg[i];
	if (lv->nreg && bytes > c->size - c->off)
		write_partial(c, lv);
	else
		c->off += bytes;
}

static void buf_lv(const struct ckpt_buf *b, struct lv *lv)
{
	uint32_t chunks = BBTOB(b->nbb) / XFS_BLF_CHUNK;
	uint32_t words = (chunks + NBWORD - 1) / NBWORD;
	uint32_t base = (uint32_t)offsetof(struct xfs_buf_log_format, blf_data_map) +
			words * (uint32_t)sizeof(uint32_t);
	uint32_t run = 0;

	lv->seq = b->seq;
	lv->nreg = 0;
	if (b->ordered)
		return;
	lv->reg[lv->nreg++] = OPHDR + base;
	if (b->stale)
		return;
	for (uint32_t c = 0; c <= chunks; c++) {
		bool set = c < chunks && (b->map[c / NBWORD] >> (c % NBWORD) & 1);

		if (set) {
			run++;
		} else if (run) {
			lv->reg[lv->nreg++] = OPHDR + run * XFS_BLF_CHUNK;
			run = 0;
		}
	}
	/* a buffer logged with no chunk dirty is not formatted at all */
	if (lv->nreg == 1)
		lv->nreg = 0;
}

static void ino_lv(struct xfs_mount *mp, const struct ckpt_ino *n, struct lv *lv)
{
	lv->seq = n->seq;
	lv->nreg = 0;
	lv->reg[lv->nreg++] = OPHDR + (uint32_t)sizeof(struct xfs_inode_log_format);
	lv->reg[lv->nreg++] = OPHDR + xfs_log_dinode_size(mp);
	if (n->dbytes)
		lv->reg[lv->nreg++] = OPHDR + n->dbytes;
	if (n->abytes)
		lv->reg[lv->nreg++] = OPHDR + n->abytes;
}

static int by_seq(const void *a, const void *b)
{
	const struct lv *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The checkpoint ended: @blocks (0: nothing was logged), and a new one begins. */
static int ckpt_ended(struct xls_ckpt_model *m, uint64_t blocks)
{
	uint64_t *slot;

	if (m->cur + 1 >= XLS_PASS3_CKPTS)
		return m->error = E2BIG;
	slot = xls_vec_push((void **)&m->blocks, &m->nblocks, &m->capblocks, sizeof(*slot));
	if (!slot)
		return m->error = ENOMEM;
	*slot = blocks;
	m->cur++;
	return 0;
}

/*
 * A log force: the blocks the current checkpoint takes in the log, as the
 * force writes them (what committed transactions logged; the one under
 * way waits for the next); then a new checkpoint begins.  0, or an errno.
 */
int xls_libxfs_ckpt_force(void)
{
	struct xls_ckpt_model *m = model;
	struct xfs_mount *mp = m ? m->mp : NULL;
	uint32_t iclog_size = XLOG_BIG_RECORD_BSIZE, sunit;
	struct iclogs c = { 0 };
	struct lv *lvs, hdr = { 0, 2, { OPHDR, OPHDR + (uint32_t)sizeof(struct xfs_trans_header) } };
	uint32_t n = 0;

	if (!m)
		return 0;
	if (m->error)
		return m->error;
	sunit = mp->m_sb.sb_logsunit;
	lvs = calloc((size_t)m->nbufs + m->ninos + m->ndone + m->nintents + 1, sizeof(*lvs));
	if (!lvs)
		return ENOMEM;
	for (uint32_t i = 0; i < m->ndone; i++, n++) {
		lvs[n].seq = m->done[i].seq;
		lvs[n].nreg = 1;
		lvs[n].reg[0] = m->done[i].bytes;
	}
	m->ndone = 0;
	/* intents whose done items the checkpoint does not hold: logged */
	for (uint32_t i = 0; i < m->nintents; i++)
		if (m->intents[i].ckpt == m->cur) {
			if (!m->intents[i].ibytes)
				m->error = EOPNOTSUPP;
			lvs[n].seq = m->intents[i].seq;
			lvs[n].nreg = 1;
			lvs[n].reg[0] = m->intents[i].ibytes;
			n++;
		}
	for (uint32_t i = 0; i < m->nbufs; i++)
		if (m->bufs[i].ckpt == m->cur) {
			buf_lv(&m->bufs[i], &lvs[n]);
			n += lvs[n].nreg != 0;
		}
	for (uint32_t i = 0; i < m->ninos; i++)
		if (m->inos[i].ckpt == m->cur)
			ino_lv(mp, &m->inos[i], &lvs[n++]);
	if (!n) {
		free(lvs);
		return ckpt_ended(m, 0);
	}
	qsort(lvs, n, sizeof(*lvs), by_seq);
	/* the mount's iclogs (xlog_get_iclog_buffer_size, v2) */
	if (sunit > iclog_size)
		iclog_size = sunit;
	c.hbb = (iclog_size + XLOG_HEADER_CYCLE_SIZE - 1) / XLOG_HEADER_CYCLE_SIZE;
	c.size = iclog_size - BBTOB(c.hbb);
	c.sunit_bb = sunit > 1 ? BTOBB(sunit) : 1;
	/* the checkpoint, then its commit record: two xlog_write calls */
	get_space(&c);
	write_lv(&c, &hdr);
	for (uint32_t i = 0; i < n; i++)
		write_lv(&c, &lvs[i]);
	get_space(&c);
	c.off += OPHDR;
	/* xfs_log_force: the iclog written as far as it is filled */
	next_iclog(&c, c.off);
	free(lvs);
	return ckpt_ended(m, c.blocks);
}

uint32_t xls_libxfs_ckpt_count(const struct xls_ckpt_model *m)
{
	return m ? m->cur : 0;
}

uint64_t xls_libxfs_ckpt_blocks(const struct xls_ckpt_model *m, uint32_t k)
{
	return m && k < m->nblocks ? m->blocks[k] : 0;
}

uint32_t xls_libxfs_ckpt_of_block(const struct xls_ckpt_model *m, uint64_t daddr)
{
	const uint64_t *at = m ? xls_inomap_find(&m->bufidx, daddr) : NULL;

	return at ? m->bufs[*at - 1].ckpt : 0;
}

uint32_t xls_libxfs_ckpt_of_inode(const struct xls_ckpt_model *m, uint64_t ino)
{
	const uint64_t *at = m ? xls_inomap_find(&m->inoidx, ino) : NULL;

	return at ? m->inos[*at - 1].ckpt : 0;
}
