/*
 * Recovery stage: the quotaoff item (xlog_recover_quotaoff_commit_pass1).
 * Pass 1 gathers the quota types every committed QUOTAOFF turns off;
 * pass 2 then skips the dquot buffers of those types (buf_recover.c).
 * Dquot items have no ops: the kernel replays them only when the
 * filesystem is mounted with quotas, and no decision here depends on it.
 */
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
