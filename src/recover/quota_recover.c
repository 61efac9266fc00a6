/*
 * Recovery stage: quotas.
 *
 *  - the quotaoff item (xlog_recover_quotaoff_commit_pass1): pass 1
 *    gathers the quota types every committed QUOTAOFF turns off; pass 2
 *    then skips the dquot items and buffers of those types;
 *  - dquot items (xlog_recover_dquot_commit_pass2): replayed only when
 *    the filesystem is mounted with quota, the logged xfs_disk_dquot
 *    copied over the one in its buffer (v5: unless the dquot's own LSN is
 *    as new), the xfs_dqblk's CRC recomputed;
 *  - the quota the mount has, in mount's words, and what it makes of the
 *    superblock's flags.
 */
#include <stdio.h>
#include <string.h>

#include "base/crc32c.h"
#include "recover/recover_priv.h"

static void rquotaoff_capture(struct xls_recover *r, struct tstore *ts,
			      struct rrec *rec, const struct xls_item *it)
{
	struct xls_item_problems p = { 0, 0, "" };
	struct xls_quotaoff_item q;

	(void)r;
	(void)ts;
	if (xls_quotaoff_item_parse(it, &q, &p) == 0 && q.has_format) {
		rec->has_qoff = true;
		rec->qoff_flags = q.qf_flags;
	}
}

static void rquotaoff_commit1(struct xls_recover *r, const struct xls_trans *t,
			      const struct rrec *rec)
{
	(void)t;
	if (!rec->has_qoff)
		return;
	if (rec->qoff_flags & XFS_UQUOTA_ACCT)
		r->quotaoffs |= XFS_DQTYPE_USER;
	if (rec->qoff_flags & XFS_PQUOTA_ACCT)
		r->quotaoffs |= XFS_DQTYPE_PROJ;
	if (rec->qoff_flags & XFS_GQUOTA_ACCT)
		r->quotaoffs |= XFS_DQTYPE_GROUP;
}

static void rquotaoff_decide(struct decide_ctx *d, const struct rrec *rec)
{
	if (rec->has_qoff)
		xls_rdetail(d, "quota off, flags 0x%x", rec->qoff_flags);
}

const struct xls_recover_ops xls_rquotaoff_ops = {
	.capture1	= rquotaoff_capture,
	.commit1	= rquotaoff_commit1,
	.capture2	= rquotaoff_capture,
	.decide		= rquotaoff_decide,
};

/* ------------------------------------------------------------------ */
/* dquot items (xlog_recover_dquot_commit_pass2) */

#define DDQ(f)		offsetof(struct xfs_disk_dquot, f)
#define DQB(f)		offsetof(struct xfs_dqblk, f)
/* what is kept of a logged dquot: the struct, and a little more of a hostile one */
#define DQUOT_KEEP_MAX	1024u

/* What a dquot item keeps for its commit, at rrec.kept_off. */
struct rkept_dquot {
	struct xls_rdquot dq;		/* ddq NULL: at ddq_off */
	uint32_t	ddq_off;
};

static void rdquot_capture(struct xls_recover *r, struct tstore *ts, struct rrec *rec,
			   const struct xls_item *it)
{
	struct xls_item_problems p = { 0, 0, "" };
	const struct xls_region *ddq = it->nregions > 1 ? &it->regions[1] : NULL;
	struct xls_dquot_item q;
	struct rkept_dquot k;

	xls_dquot_item_parse(it, &q, &p);
	if (!q.has_format)
		return;
	memset(&k, 0, sizeof(k));
	k.dq.blkno = (int64_t)q.qlf_blkno;
	/* qlf_len in filesystem blocks: XFS_FSB_TO_BB */
	k.dq.len = q.qlf_len > 0 && q.qlf_len <= 16 && r->g->block_log >= 9 ?
		   (uint32_t)q.qlf_len << (r->g->block_log - 9) : 0;
	k.dq.boffset = q.qlf_boffset;
	k.dq.id = q.qlf_id;
	k.ddq_off = UINT32_MAX;
	if (ddq && ddq->data) {
		k.dq.ddq_len = ddq->len;
		k.ddq_off = xls_rstore_bytes(ts, ddq->data,
					     ddq->len < DQUOT_KEEP_MAX ? ddq->len : DQUOT_KEEP_MAX);
		if (k.ddq_off == UINT32_MAX) {
			r->err = -ENOMEM;
			return;
		}
	}
	rec->kept_off = xls_rstore_bytes(ts, &k, sizeof(k));
	if (rec->kept_off == UINT32_MAX) {
		r->err = -ENOMEM;
		return;
	}
	rec->has_dquot = true;
}

/* xfs_dquot_verify: why the logged dquot is refused, NULL if it is not. */
static const char *dquot_refused(const struct xls_rdquot *dq)
{
	const uint8_t *d = dq->ddq;
	uint8_t type = d[DDQ(d_type)], rec = type & XFS_DQTYPE_REC_MASK;

	if (xls_be16(d + DDQ(d_magic)) != XFS_DQUOT_MAGIC)
		return "its magic is not DQ";
	if (d[DDQ(d_version)] != XFS_DQUOT_VERSION)
		return "its version is not 1";
	if (type & ~XFS_DQTYPE_ANY ||
	    (rec != XFS_DQTYPE_USER && rec != XFS_DQTYPE_PROJ && rec != XFS_DQTYPE_GROUP))
		return "its type is not one quota type";
	if ((type & XFS_DQTYPE_BIGTIME) && !xls_be32(d + DDQ(d_id)))
		return "a bigtime default dquot";
	if (xls_be32(d + DDQ(d_id)) != dq->id)
		return "its id is not the item's";
	if (!xls_be32(d + DDQ(d_id)))
		return NULL;
	if ((xls_be64(d + DDQ(d_blk_softlimit)) &&
	     xls_be64(d + DDQ(d_bcount)) > xls_be64(d + DDQ(d_blk_softlimit)) &&
	     !xls_be32(d + DDQ(d_btimer))) ||
	    (xls_be64(d + DDQ(d_ino_softlimit)) &&
	     xls_be64(d + DDQ(d_icount)) > xls_be64(d + DDQ(d_ino_softlimit)) &&
	     !xls_be32(d + DDQ(d_itimer))) ||
	    (xls_be64(d + DDQ(d_rtb_softlimit)) &&
	     xls_be64(d + DDQ(d_rtbcount)) > xls_be64(d + DDQ(d_rtb_softlimit)) &&
	     !xls_be32(d + DDQ(d_rtbtimer))))
		return "over a soft limit with no timer";
	return NULL;
}

static void dquot_fails(struct decide_ctx *d, const char *says, const char *why)
{
	d->ri.decision = XLS_RD_FAIL;
	d->ri.reason = XLS_RWHY_BAD_DQUOT;
	d->ri.fail_why = why;
	xls_recover_fail(d->r, d->t->lsn, (struct xls_rfail){ XLS_RSTOP_PASS2, XLS_RCAUSE_LOG,
			 XLS_EFSCORRUPTED }, says, "transaction 0x%08x: dquot item: %s",
			 d->t->tid, why);
}

/* dd_lsn of the dquot where recovery reads it: the device's (v5). */
static uint64_t dquot_lsn(struct xls_recover *r, const struct xls_rdquot *dq)
{
	uint8_t lsn[8];

	if (!r->data_dev || dq->blkno < 0 || (uint64_t)dq->blkno >= (UINT64_MAX >> 10) ||
	    xls_source_read_data(r->src, (uint64_t)dq->blkno * BBSIZE + dq->boffset + DQB(dd_lsn),
				 lsn, sizeof(lsn)))
		return 0;
	return xls_be64(lsn);
}

static void rdquot_decide(struct decide_ctx *d, const struct rrec *rec)
{
	struct xls_recover *r = d->r;
	struct rkept_dquot k;
	uint64_t lsn;

	if (!rec->has_dquot)
		return;
	xls_rstore_copy(r, d->ts, rec->kept_off, &k, sizeof(k));
	d->dquot = k.dq;
	d->dquot.ddq = k.ddq_off == UINT32_MAX ? NULL : xls_rstore_at(d->ts, k.ddq_off);
	d->ri.dquot = &d->dquot;
	xls_rdetail(d, "dquot %u in buffer 0x%llx+%u", k.dq.id, (unsigned long long)k.dq.blkno,
		    k.dq.boffset);
	/* Filesystems are required to send in quota flags at mount time. */
	if (!r->sum.quota_flags) {
		d->ri.decision = XLS_RD_SKIP_QUOTAOFF;
		d->ri.reason = XLS_RWHY_NOQUOTA;
		xls_rdetail_append(d, ": the mount has no quota, dquot items are not replayed");
		return;
	}
	if (!d->dquot.ddq)
		return dquot_fails(d, "NULL dquot in xlog_recover_dquot_commit_pass2.",
				   "no dquot logged after its format");
	if (d->dquot.ddq_len < sizeof(struct xfs_disk_dquot))
		return dquot_fails(d, "dquot too small in xlog_recover_dquot_commit_pass2.",
				   "the logged dquot is shorter than struct xfs_disk_dquot");
	d->dquot.type = d->dquot.ddq[DDQ(d_type)] & XFS_DQTYPE_REC_MASK;
	if (r->quotaoffs & d->dquot.type) {
		d->ri.decision = XLS_RD_SKIP_QUOTAOFF;
		d->ri.reason = XLS_RWHY_QUOTAOFF;
		xls_rdetail_append(d, ": a QUOTAOFF item turned this quota type off");
		return;
	}
	if (dquot_refused(&d->dquot))
		return dquot_fails(d, "corrupt dquot in log", dquot_refused(&d->dquot));
	if (!d->dquot.len || xls_recover_daddr_out_of_range(d, k.dq.blkno, k.dq.len,
							     "dquot buffer"))
		return;
	if ((uint64_t)k.dq.boffset + sizeof(struct xfs_dqblk) > (uint64_t)k.dq.len * BBSIZE)
		return dquot_fails(d, "corrupt dquot offset in log",
				   "the dquot lies past the end of its buffer");
	d->ri.decision = XLS_RD_REPLAY;
	d->ri.reason = XLS_RWHY_LSN_OLDER;
	lsn = r->g->crc ? dquot_lsn(r, &d->dquot) : 0;
	if (lsn && lsn != NULL_LSN && lsn >= d->t->lsn) {
		d->ri.decision = XLS_RD_SKIP_LSN;
		d->ri.reason = XLS_RWHY_LSN_NEWER;
	}
	if (lsn && lsn != NULL_LSN)
		xls_rdetail_appendf(d, ": dquot LSN %u/%u on disk %s %u/%u", xls_lsn_cycle(lsn),
				    xls_lsn_block(lsn), lsn >= d->t->lsn ? ">=" : "<",
				    xls_lsn_cycle(d->t->lsn), xls_lsn_block(d->t->lsn));
}

const struct xls_recover_ops xls_rdquot_ops = {
	.capture2	= rdquot_capture,
	.decide		= rdquot_decide,
};

/* ------------------------------------------------------------------ */
/* the mount's quota */

uint16_t xls_quota_incore_flags(uint16_t disk, bool v5)
{
	bool prj = disk & XFS_PQUOTA_ACCT;

	if (v5)
		return disk;
	/* xfs_sb_quota_from_disk: v4's "other" flags are the group's or the project's */
	if (disk & XFS_OQUOTA_ENFD)
		disk |= prj ? XFS_PQUOTA_ENFD : XFS_GQUOTA_ENFD;
	if (disk & XFS_OQUOTA_CHKD)
		disk |= prj ? XFS_PQUOTA_CHKD : XFS_GQUOTA_CHKD;
	return disk & (uint16_t)~(XFS_OQUOTA_ENFD | XFS_OQUOTA_CHKD);
}

#define QUOTA_ACCT	(XFS_UQUOTA_ACCT | XFS_GQUOTA_ACCT | XFS_PQUOTA_ACCT)
#define QUOTA_ENFD	(XFS_UQUOTA_ENFD | XFS_GQUOTA_ENFD | XFS_PQUOTA_ENFD)

static const struct {
	const char	*word;
	uint16_t	flags;
} quota_words[] = {
	{ "uquota", XFS_UQUOTA_ACCT | XFS_UQUOTA_ENFD },
	{ "usrquota", XFS_UQUOTA_ACCT | XFS_UQUOTA_ENFD },
	{ "quota", XFS_UQUOTA_ACCT | XFS_UQUOTA_ENFD },
	{ "uqnoenforce", XFS_UQUOTA_ACCT },
	{ "qnoenforce", XFS_UQUOTA_ACCT },
	{ "gquota", XFS_GQUOTA_ACCT | XFS_GQUOTA_ENFD },
	{ "grpquota", XFS_GQUOTA_ACCT | XFS_GQUOTA_ENFD },
	{ "gqnoenforce", XFS_GQUOTA_ACCT },
	{ "pquota", XFS_PQUOTA_ACCT | XFS_PQUOTA_ENFD },
	{ "prjquota", XFS_PQUOTA_ACCT | XFS_PQUOTA_ENFD },
	{ "pqnoenforce", XFS_PQUOTA_ACCT },
	{ "noquota", 0 },
};

int xls_quota_parse(const char *s, uint16_t *flags)
{
	bool none = false;

	*flags = 0;
	while (*s) {
		size_t n = strcspn(s, ",");
		size_t i;

		for (i = 0; i < sizeof(quota_words) / sizeof(quota_words[0]); i++)
			if (strlen(quota_words[i].word) == n && !strncmp(s, quota_words[i].word, n))
				break;
		if (i == sizeof(quota_words) / sizeof(quota_words[0]) || !n)
			return -1;
		*flags |= quota_words[i].flags;
		none |= !quota_words[i].flags;
		s += n + (s[n] == ',');
	}
	return none && *flags ? -1 : 0;
}

void xls_quota_words(uint16_t flags, char *buf, size_t size)
{
	static const struct { uint16_t acct, enfd; const char *on, *noenf; } t[] = {
		{ XFS_UQUOTA_ACCT, XFS_UQUOTA_ENFD, "uquota", "uqnoenforce" },
		{ XFS_GQUOTA_ACCT, XFS_GQUOTA_ENFD, "gquota", "gqnoenforce" },
		{ XFS_PQUOTA_ACCT, XFS_PQUOTA_ENFD, "pquota", "pqnoenforce" },
	};
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (flags & t[i].acct && at < size)
			at += (size_t)snprintf(buf + at, size - at, "%s%s", at ? "," : "",
					       flags & t[i].enfd ? t[i].on : t[i].noenf);
	if (!at)
		snprintf(buf, size, "noquota");
}

const char *xls_quota_mount(const struct xls_geometry *g, const struct xls_quota_opts *q,
			    uint16_t *flags, bool *reset)
{
	uint16_t sb = g->has_sb ? xls_quota_incore_flags(g->sb_qflags, g->crc) : 0;

	*flags = q->set ? q->flags : sb & (QUOTA_ACCT | QUOTA_ENFD);
	*reset = !*flags && (sb & QUOTA_ACCT);
	if (!q->set || !*flags)
		return NULL;
	/* xfs_qm_newmount: a quota type turned on unchecked needs a quotacheck */
	if ((*flags & QUOTA_ACCT) != (sb & QUOTA_ACCT))
		return "these quota types differ from those the superblock has on: the kernel "
		       "would change the quota state, quotacheck included, which replay does "
		       "not model (mount with the superblock's types, or noquota)";
	if (!g->crc && (*flags & XFS_GQUOTA_ACCT) && (*flags & XFS_PQUOTA_ACCT))
		return "a v4 filesystem cannot have group and project quotas together";
	return NULL;
}

int xls_recover_apply_dquot(const struct xls_geometry *g, const struct xls_rdquot *dq,
			    uint8_t *buf, uint32_t len)
{
	uint8_t *dqb = buf + dq->boffset;
	uint32_t n, crc;

	if (!dq->ddq || (uint64_t)dq->boffset + sizeof(struct xfs_dqblk) > len)
		return -1;
	/* what was kept of the logged dquot, within the buffer */
	n = len - dq->boffset;
	if (n > dq->ddq_len)
		n = dq->ddq_len;
	if (n > DQUOT_KEEP_MAX)
		n = DQUOT_KEEP_MAX;
	memcpy(dqb, dq->ddq, n);
	if (!g->crc)
		return 0;
	/* xfs_update_cksum over the xfs_dqblk */
	memset(dqb + XFS_DQUOT_CRC_OFF, 0, 4);
	crc = xls_crc32c(dqb, sizeof(struct xfs_dqblk));
	for (int b = 0; b < 4; b++)
		dqb[XFS_DQUOT_CRC_OFF + b] = (uint8_t)(crc >> (8 * b));
	return 0;
}
