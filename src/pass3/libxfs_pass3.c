// SPDX-License-Identifier: GPL-2.0
/*
 * Pass 3 stage: the work done with xfsprogs' libxfs, in the child process
 * pass3.c starts.  The filesystem is opened as xfs_db and xfs_repair open
 * it (libxfs_init, the superblock read uncached, libxfs_mount), never its
 * log; each step is the kernel's own libxfs code where libxfs has it;
 * libxfs_umount writes every dirty buffer back (through the stamps of
 * pass3.c) and syncs.
 */
#include "libxfs.h"

#include "base/vec.h"
#include "pass3/libxfs_work.h"

/*
 * Where the extents pass 3 frees are seen: every free of an extent that
 * the kernel would hold busy goes through __xfs_free_extent (the items of
 * the defer ops: data unmapped, inode chunks, CoW leftovers, intents and
 * what they defer), which the link wraps (-Wl,--wrap) to call this first.
 * Free-list blocks go elsewhere, as in the kernel, which does not hold
 * them busy either.  Set only in the child that runs pass 3.
 */
static struct work *freeing;

int __real___xfs_free_extent(struct xfs_trans *tp, struct xfs_perag *pag, xfs_agblock_t agbno,
			     xfs_extlen_t len, const struct xfs_owner_info *oinfo,
			     enum xfs_ag_resv_type type, bool skip_discard);
int __wrap___xfs_free_extent(struct xfs_trans *tp, struct xfs_perag *pag, xfs_agblock_t agbno,
			     xfs_extlen_t len, const struct xfs_owner_info *oinfo,
			     enum xfs_ag_resv_type type, bool skip_discard);

int __wrap___xfs_free_extent(struct xfs_trans *tp, struct xfs_perag *pag, xfs_agblock_t agbno,
			     xfs_extlen_t len, const struct xfs_owner_info *oinfo,
			     enum xfs_ag_resv_type type, bool skip_discard)
{
	int error = __real___xfs_free_extent(tp, pag, agbno, len, oinfo, type, skip_discard);
	struct work *w = freeing;
	struct freed_extent *f;

	if (error || !w)
		return error;
	w->done->n.freed_extents++;
	w->done->n.freed_blocks += len;
	f = xls_vec_push((void **)&w->freed, &w->nfreed, &w->capfreed, sizeof(*f));
	if (f)
		*f = (struct freed_extent){ pag_agno(pag), agbno, len,
					    xls_libxfs_ckpt_count(w->done->ckpt) };
	else
		w->error = ENOMEM;
	return 0;
}

/*
 * The kernel's defer code logs an intent for every piece of deferred work
 * and, finding one, rolls the transaction before it finishes the first
 * (xfs_defer_finish_noroll); libxfs logs no intents, and so does not roll
 * there.  The roll is seen on disk: the inodes held across it are logged
 * once more (xfs_defer_save_resources), each a change of di_changecount,
 * and each transaction after it starts anew.  So before libxfs finishes
 * deferred work, the link (-Wl,--wrap) brings it here to roll first as
 * the kernel does: the held inodes logged, the held buffers dirtied,
 * both joined again.
 */
static int roll_as_kernel(struct xfs_trans **tpp)
{
	struct xfs_inode *ips[XFS_DEFER_OPS_NR_INODES];
	struct xfs_buf *bps[XFS_DEFER_OPS_NR_BUFS];
	const struct xfs_defer_pending *dfp;
	unsigned int nip = 0, nbp = 0, ordered = 0;
	struct xfs_log_item *lip;
	int error;

	if (list_empty(&(*tpp)->t_dfops))
		return 0;
	list_for_each_entry(lip, &(*tpp)->t_items, li_trans) {
		if (lip->li_type == XFS_LI_BUF) {
			struct xfs_buf_log_item *bli = container_of(lip, struct xfs_buf_log_item,
								    bli_item);

			if (!(bli->bli_flags & XFS_BLI_HOLD))
				continue;
			if (nbp == XFS_DEFER_OPS_NR_BUFS)
				return -EFSCORRUPTED;
			if (bli->bli_flags & XFS_BLI_ORDERED)
				ordered |= 1U << nbp;
			else
				libxfs_trans_dirty_buf(*tpp, bli->bli_buf);
			bps[nbp++] = bli->bli_buf;
		} else if (lip->li_type == XFS_LI_INODE) {
			struct xfs_inode_log_item *ili = container_of(lip, struct xfs_inode_log_item,
								      ili_item);

			if (ili->ili_lock_flags)
				continue;
			if (nip == XFS_DEFER_OPS_NR_INODES)
				return -EFSCORRUPTED;
			libxfs_trans_log_inode(*tpp, ili->ili_inode, XFS_ILOG_CORE);
			ips[nip++] = ili->ili_inode;
		}
	}
	/* the intents the kernel logs before that roll (xfs_defer_create_intents) */
	list_for_each_entry(dfp, &(*tpp)->t_dfops, dfp_list) {
		xls_libxfs_ckpt_intent(dfp);
	}
	error = libxfs_trans_roll(tpp);
	for (unsigned int i = 0; i < nip; i++)
		libxfs_trans_ijoin(*tpp, ips[i], 0);
	for (unsigned int i = 0; i < nbp; i++) {
		libxfs_trans_bjoin(*tpp, bps[i]);
		if (ordered & (1U << i))
			libxfs_trans_ordered_buf(*tpp, bps[i]);
		libxfs_trans_bhold(*tpp, bps[i]);
	}
	return error;
}

int __real_xfs_defer_finish_noroll(struct xfs_trans **tpp);
int __wrap_xfs_defer_finish_noroll(struct xfs_trans **tpp);
int __real_libxfs_defer_finish(struct xfs_trans **tpp);
int __wrap_libxfs_defer_finish(struct xfs_trans **tpp);

int __wrap_xfs_defer_finish_noroll(struct xfs_trans **tpp)
{
	int error = roll_as_kernel(tpp);

	return error ? error : __real_xfs_defer_finish_noroll(tpp);
}

int __wrap_libxfs_defer_finish(struct xfs_trans **tpp)
{
	int error = roll_as_kernel(tpp);

	return error ? error : __real_libxfs_defer_finish(tpp);
}

/* The CoW staging records of an AG, counted. */
struct cow_query {
	struct work	*w;
	uint64_t	n;
};

static int cow_rec(struct xfs_btree_cur *cur, const union xfs_btree_rec *rec, void *priv)
{
	struct xfs_refcount_irec irec;
	struct cow_query *q = priv;

	(void)cur;
	xfs_refcount_btrec_to_irec(rec, &irec);
	if (irec.rc_domain == XFS_REFC_DOMAIN_COW) {
		q->n++;
		q->w->done->n.cow_extents++;
		q->w->done->n.cow_blocks += irec.rc_blockcount;
	}
	return 0;
}

/* AG @pag's CoW staging records: @n of them. */
static int find_cow(struct xfs_mount *mp, struct xfs_perag *pag, struct work *w, uint64_t *n)
{
	struct cow_query q = { w, 0 };
	struct xfs_trans *tp;
	struct xfs_buf *agbp;
	int error = -libxfs_trans_alloc_empty(mp, &tp);

	if (error)
		return error;
	error = -libxfs_alloc_read_agf(pag, tp, 0, &agbp);
	if (!error) {
		struct xfs_btree_cur *cur = libxfs_refcountbt_init_cursor(mp, tp, agbp, pag);

		error = -xfs_btree_query_all(cur, cow_rec, &q);
		libxfs_btree_del_cursor(cur, error);
		libxfs_trans_brelse(tp, agbp);
	}
	libxfs_trans_cancel(tp);
	*n = q.n;
	return error;
}

/* xfs_reflink_recover_cow: every AG's CoW staging leftovers freed. */
static int recover_cow(struct xfs_mount *mp, struct work *w, char *why, size_t whysz)
{
	for (xfs_agnumber_t agno = 0; agno < mp->m_sb.sb_agcount; agno++) {
		struct xfs_perag *pag = libxfs_perag_get(mp, agno);
		uint64_t n = 0;
		int error = find_cow(mp, pag, w, &n);

		if (!error && n)
			error = -xfs_refcount_recover_cow_leftovers(mp, pag);
		libxfs_perag_put(pag);
		if (error) {
			failed_on(w->done, error);
			snprintf(why, whysz, "AG %u: CoW staging leftovers: %s", agno,
				 strerror(error));
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/*
 * The unlinked inodes (xlog_recover_process_iunlinks): AG by AG, bucket
 * by bucket, each chain from its head, every inode inactivated as the
 * kernel's xfs_inactive does once xlog_recover_iunlink_bucket lets it go:
 * its data truncated (xfs_inactive_truncate; a bmap btree's blocks go as
 * the tree empties, each inode's change counter as the kernel's counts
 * it: libxfs_ckpt.c; a reflinked file's shared extents only lose a
 * reference, as libxfs's bunmapi defers it) or a remote symlink's blocks
 * (xfs_inactive_symlink), its attr fork removed with its blocks, if any
 * (xfs_attr_inactive), then freed (xfs_inactive_ifree: xfs_ifree,
 * whose cluster buffers, when the whole chunk goes, are stale and never
 * written).  The shape it does not do yet -- a directory with blocks (an
 * emptied directory goes back to short form: made only by damage) -- is
 * refused before anything is written: the kernel then does them all.
 */

/* Why pass 3 does not inactivate @ip here, or NULL. */
static const char *not_here(struct xfs_inode *ip)
{
	umode_t mode = VFS_I(ip)->i_mode;

	if (VFS_I(ip)->i_nlink != 0 || !mode)
		return "an inode on an unlinked bucket still has links, or no mode";
	if (S_ISDIR(mode) && ip->i_df.if_nextents > 0)
		return "a directory with blocks on an unlinked bucket";
	if (XFS_IS_REALTIME_INODE(ip))
		return "an unlinked file on the realtime device";
	return NULL;
}

/* Every chain head of AG @pag's AGI. */
static int bucket_heads(struct xfs_perag *pag, xfs_agino_t *heads)
{
	struct xfs_buf *agibp;
	int error = -libxfs_read_agi(pag, NULL, 0, &agibp);

	if (error)
		return error;
	for (int b = 0; b < XFS_AGI_UNLINKED_BUCKETS; b++)
		heads[b] = be32_to_cpu(((struct xfs_agi *)agibp->b_addr)->agi_unlinked[b]);
	libxfs_buf_relse(agibp);
	return 0;
}

/* Walk every chain; with @fn NULL, only look: @why says what is refused. */
static int walk_unlinked(struct xfs_mount *mp, int (*fn)(struct xfs_mount *, struct xfs_inode *,
							 struct work *),
			 struct work *w, char *why, size_t whysz)
{
	for (xfs_agnumber_t agno = 0; agno < mp->m_sb.sb_agcount; agno++) {
		struct xfs_perag *pag = libxfs_perag_get(mp, agno);
		xfs_agino_t heads[XFS_AGI_UNLINKED_BUCKETS];
		int error = bucket_heads(pag, heads);

		for (int b = 0; !error && b < XFS_AGI_UNLINKED_BUCKETS; b++) {
			/* a chain longer than the AG's inodes loops */
			uint64_t left = (uint64_t)mp->m_sb.sb_agblocks << mp->m_sb.sb_inopblog;
			xfs_agino_t agino = heads[b];

			while (!error && agino != NULLAGINO && left--) {
				struct xfs_inode *ip;
				const char *no;

				error = -libxfs_iget(mp, NULL, XFS_AGINO_TO_INO(mp, agno, agino), 0,
						     &ip);
				if (error)
					break;
				agino = ip->i_next_unlinked;
				no = not_here(ip);
				if (no && !fn)
					snprintf(w->done->refused, sizeof(w->done->refused), "%s (inode "
						 "0x%llx): left to the kernel", no,
						 (unsigned long long)ip->i_ino);
				/* the head each time: the one before is off the list */
				ip->i_prev_unlinked = NULLAGINO;
				if (fn && !no)
					error = fn(mp, ip, w);
				libxfs_irele(ip);
			}
		}
		libxfs_perag_put(pag);
		if (error) {
			snprintf(why, whysz, "AG %u: unlinked inodes: %s", agno,
				 strerror(failed_on(w->done, error)));
			return -1;
		}
	}
	return 0;
}

/*
 * xfs_itruncate_extents_flags from block 0, of fork @whichfork: two
 * extents a round, each round's frees finished (and first the kernel's
 * roll for their intent: roll_as_kernel), the inode logged at the end.
 */
static int unmap_fork(struct xfs_trans **tpp, struct xfs_inode *ip, int whichfork)
{
	int flags = whichfork == XFS_ATTR_FORK ? XFS_BMAPI_ATTRFORK : 0, error = 0;

	for (int unmapped = 0, rounds = 0; !unmapped && !error; rounds++) {
		error = -xfs_bunmapi(*tpp, ip, 0, XFS_MAX_FILEOFF + 1, flags, 2, &unmapped);
		if (!error)
			error = -libxfs_defer_finish(tpp);
		if (rounds > (1 << 24))
			error = EFSCORRUPTED;
	}
	if (!error)
		libxfs_trans_log_inode(*tpp, ip, XFS_ILOG_CORE);
	return error;
}

/* xfs_inactive_truncate: the size, then the data fork unmapped. */
static int inactive_truncate(struct xfs_mount *mp, struct xfs_inode *ip, struct work *w)
{
	struct xfs_trans *tp = NULL;
	int error = -libxfs_trans_alloc(mp, &M_RES(mp)->tr_itruncate, 0, 0, 0, &tp);

	if (error)
		return error;
	libxfs_trans_ijoin(tp, ip, 0);
	/* the size first: logged before the blocks go, as the kernel does */
	ip->i_disk_size = 0;
	libxfs_trans_log_inode(tp, ip, XFS_ILOG_CORE);
	w->done->n.data_blocks += ip->i_nblocks;
	error = unmap_fork(&tp, ip, XFS_DATA_FORK);
	if (error) {
		cancel_failed(tp, error);
		return error;
	}
	return -libxfs_trans_commit(tp);
}

/*
 * xfs_inactive_symlink_rmt: a remote symlink's size zeroed and logged,
 * its blocks' buffers invalidated and unmapped (xfs_symlink_remote_truncate,
 * in libxfs since 6.10), in one transaction.
 */
static int inactive_symlink(struct xfs_mount *mp, struct xfs_inode *ip, struct work *w)
{
	struct xfs_trans *tp = NULL;
	int error;

	/* xfs_inactive_symlink: a size no symlink has is corruption */
	if (ip->i_disk_size <= 0 || ip->i_disk_size > XFS_SYMLINK_MAXLEN)
		return EFSCORRUPTED;
	/* inline: xfs_ifree drops the fork */
	if (ip->i_df.if_format == XFS_DINODE_FMT_LOCAL)
		return 0;
	error = -libxfs_trans_alloc(mp, &M_RES(mp)->tr_itruncate, 0, 0, 0, &tp);
	if (error)
		return error;
	libxfs_trans_ijoin(tp, ip, 0);
	ip->i_disk_size = 0;
	libxfs_trans_log_inode(tp, ip, XFS_ILOG_CORE);
	w->done->n.data_blocks += ip->i_nblocks;
	error = -xfs_symlink_remote_truncate(tp, ip);
	if (error) {
		cancel_failed(tp, error);
		return error;
	}
	return -libxfs_trans_commit(tp);
}

/*
 * xfs_attr3_rmt_stale: a remote value's blocks made stale where cached.
 * They are never logged, and pass 3 never reads them: the checks are
 * what it keeps of it (a value mapped in one extent, no hole).
 */
static int rmt_stale(struct xfs_inode *dp, xfs_dablk_t blkno, int blkcnt)
{
	while (blkcnt > 0) {
		struct xfs_bmbt_irec map;
		int nmap = 1;
		int error = -libxfs_bmapi_read(dp, blkno, blkcnt, &map, &nmap, XFS_BMAPI_ATTRFORK);

		if (error)
			return error;
		if (nmap != 1)
			return EFSCORRUPTED;
		error = -xfs_attr_rmtval_stale(dp, &map, 0);
		if (error)
			return error;
		blkno += map.br_blockcount;
		blkcnt -= map.br_blockcount;
	}
	return 0;
}

/* xfs_attr3_leaf_inactive: the remote values of leaf @bp, stale. */
static int leaf_inactive(struct xfs_trans *tp, struct xfs_inode *dp, struct xfs_buf *bp)
{
	struct xfs_mount *mp = dp->i_mount;
	struct xfs_attr_leafblock *leaf = bp->b_addr;
	struct xfs_attr_leaf_entry *entry = xfs_attr3_leaf_entryp(leaf);
	struct xfs_attr3_icleaf_hdr ichdr;

	xfs_attr3_leaf_hdr_from_disk(mp->m_attr_geo, &ichdr, leaf);
	for (int i = 0; i < ichdr.count; entry++, i++) {
		struct xfs_attr_leaf_name_remote *rmt;
		int error;

		if (!entry->nameidx || (entry->flags & XFS_ATTR_LOCAL))
			continue;
		rmt = xfs_attr3_leaf_name_remote(leaf, i);
		if (!rmt->valueblk)
			continue;
		error = rmt_stale(dp, be32_to_cpu(rmt->valueblk),
				  xfs_attr3_rmt_blocks(mp, be32_to_cpu(rmt->valuelen)));
		if (error)
			return error;
	}
	libxfs_trans_brelse(tp, bp);
	return 0;
}

/* The attr block at daddr @blkno invalidated in the transaction (xfs_trans_binval). */
static int attr_binval(struct xfs_trans *tp, struct xfs_inode *dp, xfs_daddr_t blkno)
{
	struct xfs_mount *mp = dp->i_mount;
	struct xfs_buf *bp;
	int error = -libxfs_trans_get_buf(tp, mp->m_ddev_targp, blkno,
					  XFS_FSB_TO_BB(mp, mp->m_attr_geo->fsbcount), 0, &bp);

	if (!error)
		libxfs_trans_binval(tp, bp);
	return error;
}

static int tree_inactive(struct xfs_trans **tpp, struct xfs_inode *dp, struct xfs_buf *bp,
			 int level);

/*
 * xfs_attr3_node_inactive: depth first, each child's subtree made
 * inactive, the child invalidated, the transaction rolled.
 */
static int node_inactive(struct xfs_trans **tpp, struct xfs_inode *dp, struct xfs_buf *bp,
			 int level)
{
	struct xfs_da3_icnode_hdr ichdr;
	xfs_daddr_t parent = xfs_buf_daddr(bp);
	xfs_dablk_t child;

	if (level > XFS_DA_NODE_MAXDEPTH) {
		libxfs_trans_brelse(*tpp, bp);
		return EFSCORRUPTED;
	}
	xfs_da3_node_hdr_from_disk(dp->i_mount, &ichdr, bp->b_addr);
	if (!ichdr.count) {
		libxfs_trans_brelse(*tpp, bp);
		return 0;
	}
	child = be32_to_cpu(ichdr.btree[0].before);
	libxfs_trans_brelse(*tpp, bp);
	for (int i = 0; i < ichdr.count; i++) {
		struct xfs_buf *cbp;
		xfs_daddr_t cblkno;
		int error = -xfs_da3_node_read(*tpp, dp, child, &cbp, XFS_ATTR_FORK);

		if (error)
			return error;
		cblkno = xfs_buf_daddr(cbp);
		error = tree_inactive(tpp, dp, cbp, level + 1);
		if (!error)
			error = attr_binval(*tpp, dp, cblkno);
		if (!error && i + 1 < ichdr.count) {
			struct xfs_da3_icnode_hdr phdr;

			error = -xfs_da3_node_read_mapped(*tpp, dp, parent, &bp, XFS_ATTR_FORK);
			if (!error) {
				xfs_da3_node_hdr_from_disk(dp->i_mount, &phdr, bp->b_addr);
				child = be32_to_cpu(phdr.btree[i + 1].before);
				libxfs_trans_brelse(*tpp, bp);
			}
		}
		if (!error)
			error = -libxfs_trans_roll_inode(tpp, dp);
		if (error)
			return error;
	}
	return 0;
}

/* A block of the attr tree by its magic: a node's subtree, a leaf's values. */
static int tree_inactive(struct xfs_trans **tpp, struct xfs_inode *dp, struct xfs_buf *bp,
			 int level)
{
	const struct xfs_da_blkinfo *info = bp->b_addr;

	switch (info->magic) {
	case cpu_to_be16(XFS_DA_NODE_MAGIC):
	case cpu_to_be16(XFS_DA3_NODE_MAGIC):
		return node_inactive(tpp, dp, bp, level);
	case cpu_to_be16(XFS_ATTR_LEAF_MAGIC):
	case cpu_to_be16(XFS_ATTR3_LEAF_MAGIC):
		return leaf_inactive(*tpp, dp, bp);
	}
	libxfs_trans_brelse(*tpp, bp);
	return EFSCORRUPTED;
}

/*
 * xfs_attr_inactive: an attr fork of blocks made inactive from its root
 * (xfs_attr3_root_inactive: the tree depth first, the root invalidated,
 * a roll) and unmapped; then the fork removed, in the last transaction.
 */
static int inactive_attr(struct xfs_mount *mp, struct xfs_inode *ip)
{
	struct xfs_trans *tp;
	int error = -libxfs_trans_alloc(mp, &M_RES(mp)->tr_attrinval, 0, 0, 0, &tp);

	if (error)
		return error;
	libxfs_trans_ijoin(tp, ip, 0);
	if (ip->i_af.if_nextents > 0) {
		struct xfs_buf *bp;
		xfs_daddr_t root;

		error = -xfs_da3_node_read(tp, ip, 0, &bp, XFS_ATTR_FORK);
		if (!error) {
			root = xfs_buf_daddr(bp);
			error = tree_inactive(&tp, ip, bp, 1);
			if (!error)
				error = attr_binval(tp, ip, root);
			if (!error)
				error = -libxfs_trans_roll_inode(&tp, ip);
		}
		if (!error)
			error = unmap_fork(&tp, ip, XFS_ATTR_FORK);
		if (error) {
			cancel_failed(tp, error);
			return error;
		}
	}
	xfs_attr_fork_remove(ip, tp);
	return -libxfs_trans_commit(tp);
}

/*
 * xfs_ifree_cluster: in the transaction that frees a chunk, each of its
 * cluster buffers is made stale, so that the checkpoint logs it as a
 * cancelled buffer (its format alone) where it held the unlinked pointers
 * changed before, and takes that room in the checkpoint where it did not;
 * the kernel never writes them, and neither does pass 3 (their ranges).
 */
static int free_clusters(struct xfs_trans *tp, const struct xfs_icluster *xic, struct work *w)
{
	struct xfs_mount *mp = tp->t_mountp;
	struct xfs_ino_geometry *igeo = M_IGEO(mp);
	xfs_ino_t inum = xic->first_ino;

	for (unsigned int j = 0; j < igeo->ialloc_blks / igeo->blocks_per_cluster;
	     j++, inum += igeo->inodes_per_cluster) {
		xfs_daddr_t daddr = XFS_FSB_TO_DADDR(mp, XFS_INO_TO_FSB(mp, inum));
		struct xls_byte_range *r;
		struct xfs_buf *bp;
		int error;

		if (!(xic->alloc & XFS_INOBT_MASK(inum - xic->first_ino)))
			continue;
		error = -libxfs_trans_get_buf(tp, mp->m_ddev_targp, daddr,
					      mp->m_bsize * igeo->blocks_per_cluster, 0, &bp);
		if (error)
			return error;
		libxfs_trans_binval(tp, bp);
		r = xls_vec_push((void **)&w->done->stale, &w->done->nstale, &w->done->capstale,
				 sizeof(*r));
		if (!r)
			return ENOMEM;
		r->off = (uint64_t)daddr << BBSHIFT;
		r->len = (uint64_t)mp->m_sb.sb_blocksize * igeo->blocks_per_cluster;
	}
	return 0;
}

/* xfs_inactive_ifree: xfs_ifree in its own transaction. */
static int inactive_ifree(struct xfs_mount *mp, struct xfs_inode *ip, struct work *w)
{
	struct xfs_perag *pag = libxfs_perag_get(mp, XFS_INO_TO_AGNO(mp, ip->i_ino));
	struct xfs_icluster xic = { 0 };
	struct xfs_trans *tp;
	int error = -libxfs_trans_alloc(mp, &M_RES(mp)->tr_ifree, 0, 0, 0, &tp);

	if (!error) {
		libxfs_trans_ijoin(tp, ip, 0);
		error = -xfs_inode_uninit(tp, pag, ip, &xic);
		if (!error && xic.deleted)
			error = free_clusters(tp, &xic, w);
		if (error)
			cancel_failed(tp, error);
		else
			error = -libxfs_trans_commit(tp);
	}
	libxfs_perag_put(pag);
	if (error)
		return error;
	if (xic.deleted)
		w->done->n.chunks_freed++;
	w->done->n.inodes_freed++;
	return 0;
}

/* xfs_inactive, of an inode with no link left. */
static int inactivate(struct xfs_mount *mp, struct xfs_inode *ip, struct work *w)
{
	int error = 0;

	if (S_ISLNK(VFS_I(ip)->i_mode))
		error = inactive_symlink(mp, ip, w);
	else if (S_ISREG(VFS_I(ip)->i_mode) &&
		 (ip->i_disk_size || XFS_ISIZE(ip) || ip->i_df.if_nextents > 0))
		error = inactive_truncate(mp, ip, w);
	if (!error && xfs_inode_has_attr_fork(ip))
		error = inactive_attr(mp, ip);
	return error ? error : inactive_ifree(mp, ip, w);
}

/* ------------------------------------------------------------------ */
/*
 * The kernel's pass 3 frees in transactions whose freed extents stay busy
 * until their checkpoint is on disk, and its allocator steps around busy
 * extents, forcing the log where it finds nothing else; so does pass 3's
 * (libxfs_busy.c).  So every extent pass 3 freed in its last checkpoint
 * (data and bmap btree blocks, inode chunks, CoW staging, what intents
 * free) must still be free at its end: checked here, with the free-space
 * btrees as libxfs left them, as a guard on that model.  (Free list
 * blocks are not in the list: the kernel reuses those too.)
 */

/*
 * The first extent of @w pass 3 freed in its last checkpoint (@last: busy
 * still; one freed before a log force the allocator may take again, as
 * the kernel's does) and then allocated again, or NULL.
 */
static const struct freed_extent *taken_back(struct xfs_mount *mp, const struct work *w,
					     uint32_t last, int *error)
{
	for (uint32_t i = 0; i < w->nfreed; i++) {
		const struct freed_extent *f = &w->freed[i];

		if (f->ckpt != last)
			continue;
		struct xfs_perag *pag = libxfs_perag_get(mp, f->agno);
		enum xbtree_recpacking outcome = XBTREE_RECPACKING_EMPTY;
		struct xfs_buf *agbp;

		*error = -libxfs_alloc_read_agf(pag, NULL, 0, &agbp);
		if (!*error) {
			struct xfs_btree_cur *cur = libxfs_bnobt_init_cursor(mp, NULL, agbp, pag);

			*error = -xfs_alloc_has_records(cur, f->agbno, f->len, &outcome);
			libxfs_btree_del_cursor(cur, *error);
			libxfs_buf_relse(agbp);
		}
		libxfs_perag_put(pag);
		if (*error)
			return NULL;
		if (outcome != XBTREE_RECPACKING_FULL)
			return f;
	}
	return NULL;
}

/*
 * xfs_mountfs holds every AG's metadata and rmap btree reservations
 * through xlog_recover_finish (xfs_fs_reserve_ag_blocks, then
 * xfs_fs_unreserve_ag_blocks): its transactions there reserve no blocks,
 * and the allocator keeps the reserved space back as it does at run time.
 * An AG without the space is warned of and recovery goes on: an errno
 * other than ENOSPC, or 0.
 */
static int reserve_ag_blocks(struct xfs_mount *mp)
{
	int error = 0;

	for (xfs_agnumber_t agno = 0; agno < mp->m_sb.sb_agcount; agno++) {
		struct xfs_perag *pag = libxfs_perag_get(mp, agno);
		int err2 = -libxfs_ag_resv_init(pag, NULL);

		libxfs_perag_put(pag);
		if (err2 && !error)
			error = err2;
	}
	return error == ENOSPC ? 0 : error;
}

static void unreserve_ag_blocks(struct xfs_mount *mp)
{
	for (xfs_agnumber_t agno = 0; agno < mp->m_sb.sb_agcount; agno++) {
		struct xfs_perag *pag = libxfs_perag_get(mp, agno);

		libxfs_ag_resv_free(pag);
		libxfs_perag_put(pag);
	}
}

/* The work, in the kernel's order, on the filesystem libxfs mounted as @mp. */
static int do_work(struct xfs_mount *mp, const struct xls_libxfs_job *job,
		   struct xls_libxfs_done *done, char *why, size_t whysz)
{
	struct work w = { .done = done };
	const struct freed_extent *f;
	int error = 0, busy_error = 0;

	/* all the work looked at first: what is refused is refused whole, untouched */
	if (job->iunlinks && walk_unlinked(mp, NULL, &w, why, whysz))
		return -1;
	if (!done->refused[0])
		xls_libxfs_intents_refused(mp, job, &w);
	if (done->refused[0])
		return 0;
	/* xfs_check_summary_counts: after a recovery, from the AG headers */
	if (xfs_has_lazysbcount(mp) &&
	    (error = -libxfs_initialize_perag_data(mp, mp->m_sb.sb_agcount))) {
		snprintf(why, whysz, "the AG headers' counters: %s",
			 strerror(failed_on(done, error)));
		return -1;
	}
	/*
	 * xlog_recover_finish: the intents, the log force that ends their
	 * checkpoint, then the unlinked inodes and the CoW leftovers; and
	 * the forces the kernel makes on its way (libxfs_busy.c, stale
	 * buffers locked again: libxfs_ckpt.c), each ending a checkpoint
	 */
	freeing = &w;
	done->ckpt = xls_libxfs_ckpt_start(mp);
	if (!done->ckpt || xls_libxfs_busy_start(mp))
		error = ENOMEM;
	else if ((error = reserve_ag_blocks(mp))) {
		snprintf(why, whysz, "the AG reservations: %s", strerror(failed_on(done, error)));
		error = -1;
	} else if (job->nintents && xls_libxfs_intents(mp, job, &w, why, whysz))
		error = -1;
	else if (job->nintents && (job->iunlinks || job->cow) && !(error = xls_libxfs_ckpt_force()))
		xls_libxfs_busy_force();
	if (!error && ((job->iunlinks && walk_unlinked(mp, inactivate, &w, why, whysz)) ||
		       (job->cow && xfs_has_reflink(mp) && recover_cow(mp, &w, why, whysz))))
		error = -1;
	if (!error)
		error = xls_libxfs_ckpt_error();
	unreserve_ag_blocks(mp);
	xls_libxfs_ckpt_stop();
	xls_libxfs_busy_stop(&busy_error);
	freeing = NULL;
	if (!error && busy_error)
		error = busy_error;
	if (error == E2BIG || error == EOPNOTSUPP) {
		if (error == E2BIG)
			snprintf(done->refused, sizeof(done->refused), "the kernel's pass 3 here "
				 "would write more than %u checkpoints: left to the kernel",
				 XLS_PASS3_CKPTS);
		else
			snprintf(done->refused, sizeof(done->refused), "deferred work the kernel "
				 "logs across a log force it makes, whose intents this pass 3 does "
				 "not size: left to the kernel");
		xls_vec_free(w.freed);
		return 0;
	}
	if (error) {
		if (error > 0)
			snprintf(why, whysz, "the pass-3 checkpoints: %s", strerror(error));
		xls_vec_free(w.freed);
		return -1;
	}
	if (w.error) {
		xls_vec_free(w.freed);
		snprintf(why, whysz, "keeping the extents it freed: %s", strerror(w.error));
		return -1;
	}
	/* checked after the work, as what is refused is left whole to the kernel */
	f = taken_back(mp, &w, xls_libxfs_ckpt_count(done->ckpt), &error);
	if (f)
		snprintf(done->refused, sizeof(done->refused), "pass 3 here takes back blocks it "
			 "freed (AG %u block %u), which the kernel, holding them busy, would not: "
			 "left to the kernel", f->agno, f->agbno);
	xls_vec_free(w.freed);
	if (error) {
		snprintf(why, whysz, "the free space btrees: %s", strerror(failed_on(done, error)));
		return -1;
	}
	return 0;
}

int xls_pass3_libxfs(const struct xls_libxfs_job *job, struct xls_libxfs_done *done,
		     char *why, size_t whysz)
{
	struct libxfs_init xi = { 0 };
	struct xfs_mount xmount = { 0 };
	struct xfs_mount *mp;
	struct xfs_buf *bp;
	struct xfs_sb sb;
	int error, rc;

	/* libxfs prefixes what it prints with it */
	progname = "xfs_logscope (pass 3, libxfs)";
	xi.data.name = (char *)job->data_path;
	xi.data.isfile = 1;
	if (job->log_path) {
		xi.log.name = (char *)job->log_path;
		xi.log.isfile = 1;
	}
	if (!libxfs_init(&xi)) {
		snprintf(why, whysz, "libxfs cannot open '%s'", job->data_path);
		return -1;
	}
	libxfs_buftarg_init(&xmount, &xi);
	error = -libxfs_buf_read_uncached(xmount.m_ddev_targp, XFS_SB_DADDR,
					  1 << (XFS_MAX_SECTORSIZE_LOG - BBSHIFT), 0, &bp, NULL);
	if (error) {
		snprintf(why, whysz, "libxfs cannot read the superblock: %s", strerror(error));
		libxfs_destroy(&xi);
		return -1;
	}
	libxfs_sb_from_disk(&sb, bp->b_addr);
	libxfs_buf_relse(bp);
	mp = libxfs_mount(&xmount, &sb, &xi, 0);
	if (!mp) {
		snprintf(why, whysz, "libxfs cannot mount '%s'", job->data_path);
		libxfs_destroy(&xi);
		return -1;
	}
	rc = do_work(mp, job, done, why, whysz);
	error = -libxfs_umount(mp);
	if (error && !rc) {
		snprintf(why, whysz, "libxfs could not write its buffers back: %s",
			 strerror(error));
		rc = -1;
	}
	libxfs_destroy(&xi);
	return rc;
}
