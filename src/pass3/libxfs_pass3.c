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

#include "pass3/libxfs_pass3.h"

/* The CoW staging records of one AG and their blocks, counted (a query of its refcount btree). */
static int count_cow_rec(struct xfs_btree_cur *cur, const union xfs_btree_rec *rec, void *priv)
{
	struct xfs_refcount_irec irec;
	uint64_t *n = priv;

	(void)cur;
	xfs_refcount_btrec_to_irec(rec, &irec);
	if (irec.rc_domain == XFS_REFC_DOMAIN_COW) {
		n[0]++;
		n[1] += irec.rc_blockcount;
	}
	return 0;
}

static int count_cow(struct xfs_mount *mp, struct xfs_perag *pag, uint64_t *n)
{
	struct xfs_btree_cur *cur;
	struct xfs_trans *tp;
	struct xfs_buf *agbp;
	int error;

	n[0] = n[1] = 0;
	error = -libxfs_trans_alloc_empty(mp, &tp);
	if (error)
		return error;
	error = -libxfs_alloc_read_agf(pag, tp, 0, &agbp);
	if (!error) {
		cur = libxfs_refcountbt_init_cursor(mp, tp, agbp, pag);
		error = -xfs_btree_query_all(cur, count_cow_rec, n);
		libxfs_btree_del_cursor(cur, error);
		libxfs_trans_brelse(tp, agbp);
	}
	libxfs_trans_cancel(tp);
	return error;
}

/* xfs_reflink_recover_cow: every AG's CoW staging leftovers freed. */
static int recover_cow(struct xfs_mount *mp, struct xls_libxfs_done *done, char *why,
		       size_t whysz)
{
	for (xfs_agnumber_t agno = 0; agno < mp->m_sb.sb_agcount; agno++) {
		struct xfs_perag *pag = libxfs_perag_get(mp, agno);
		uint64_t n[2];
		int error = count_cow(mp, pag, n);

		if (!error && n[0])
			error = -xfs_refcount_recover_cow_leftovers(mp, pag);
		libxfs_perag_put(pag);
		if (error) {
			snprintf(why, whysz, "AG %u: CoW staging leftovers: %s", agno,
				 strerror(error));
			return -1;
		}
		done->cow_extents += n[0];
		done->cow_blocks += n[1];
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
	int error, rc = 0;

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
	/* xfs_check_summary_counts: after a recovery, from the AG headers */
	if (xfs_has_lazysbcount(mp) &&
	    (error = -libxfs_initialize_perag_data(mp, mp->m_sb.sb_agcount))) {
		snprintf(why, whysz, "the AG headers' counters: %s", strerror(error));
		rc = -1;
	}
	if (!rc && job->cow && xfs_has_reflink(mp))
		rc = recover_cow(mp, done, why, whysz);
	error = -libxfs_umount(mp);
	if (error && !rc) {
		snprintf(why, whysz, "libxfs could not write its buffers back: %s",
			 strerror(error));
		rc = -1;
	}
	libxfs_destroy(&xi);
	return rc;
}
