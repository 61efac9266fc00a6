/*
 * Quota log items.  XFS_LI_DQUOT: struct xfs_dq_logformat (host order) in
 * regions[0], then the dquot itself as logged, struct xfs_disk_dquot, which
 * is big-endian like the on-disk record it is copied over (recovery:
 * xlog_recover_dquot_commit_pass2 wants at least sizeof(xfs_disk_dquot)).
 * qlf_len is in filesystem blocks (recovery reads XFS_FSB_TO_BB(qlf_len)).
 * XFS_LI_QUOTAOFF: struct xfs_qoff_logformat, qf_flags in sb_qflags bits.
 */
#include <stdio.h>
#include <string.h>

#include "base/flags.h"
#include "items/item.h"
#include "items/item_priv.h"

#define QLF(f)		offsetof(struct xfs_dq_logformat, f)
#define DDQ(f)		offsetof(struct xfs_disk_dquot, f)

static const struct xls_flag_name dq_type_names[] = {
	{ XFS_DQTYPE_USER,	"user" },
	{ XFS_DQTYPE_PROJ,	"proj" },
	{ XFS_DQTYPE_GROUP,	"group" },
	{ XFS_DQTYPE_BIGTIME,	"bigtime" },
};

const struct xls_flag_table xls_dq_type_flag_table = XLS_FLAG_TABLE(dq_type_names);

int xls_dquot_item_parse(const struct xls_item *it, struct xls_dquot_item *q,
			 struct xls_item_problems *p)
{
	const struct xls_region *fmt = xls_item_region(it, 0), *r;
	const size_t ddq_size = sizeof(struct xfs_disk_dquot);
	enum xls_endian e = it->endian;
	uint32_t before = p->count;

	memset(q, 0, sizeof(*q));
	if (!xls_item_need(p, "dquot", fmt, sizeof(struct xfs_dq_logformat), NULL))
		return 1;
	q->has_format = true;
	q->qlf_id = xls_reg_get32(fmt, e, QLF(qlf_id));
	q->qlf_blkno = xls_reg_get64(fmt, e, QLF(qlf_blkno));
	q->qlf_len = (int32_t)xls_reg_get32(fmt, e, QLF(qlf_len));
	q->qlf_boffset = xls_reg_get32(fmt, e, QLF(qlf_boffset));

	r = xls_item_region(it, 1);
	if (!r)
		return p->count > before;
	if (!xls_reg_has(r, 0, DDQ(d_id) + 4)) {
		xls_item_problem(p, "dquot region is %u bytes, %zu needed",
				 r->len, ddq_size);
		return 1;
	}
	q->has_dquot = true;
	q->d_magic = xls_reg_be16(r, DDQ(d_magic));
	q->d_type = xls_reg_get8(r, DDQ(d_type));
	q->d_id = xls_reg_be32(r, DDQ(d_id));
	if (r->len < ddq_size)
		xls_item_problem(p, "dquot region is %u bytes, %zu needed",
				 r->len, ddq_size);
	if (q->d_magic != XFS_DQUOT_MAGIC)
		xls_item_problem(p, "d_magic 0x%04x is not 0x%04x (DQ)", q->d_magic,
				 XFS_DQUOT_MAGIC);
	if (q->d_id != q->qlf_id)
		xls_item_problem(p, "d_id %u differs from qlf_id %u", q->d_id, q->qlf_id);
	return p->count > before;
}

static const struct xls_flag_name qflag_names[] = {
	{ XFS_UQUOTA_ACCT,	"uquota_acct" },
	{ XFS_UQUOTA_ENFD,	"uquota_enfd" },
	{ XFS_UQUOTA_CHKD,	"uquota_chkd" },
	{ XFS_PQUOTA_ACCT,	"pquota_acct" },
	{ XFS_OQUOTA_ENFD,	"oquota_enfd" },
	{ XFS_OQUOTA_CHKD,	"oquota_chkd" },
	{ XFS_GQUOTA_ACCT,	"gquota_acct" },
	{ XFS_GQUOTA_ENFD,	"gquota_enfd" },
	{ XFS_GQUOTA_CHKD,	"gquota_chkd" },
	{ XFS_PQUOTA_ENFD,	"pquota_enfd" },
	{ XFS_PQUOTA_CHKD,	"pquota_chkd" },
};

const struct xls_flag_table xls_qflag_table = XLS_FLAG_TABLE(qflag_names);

int xls_quotaoff_item_parse(const struct xls_item *it, struct xls_quotaoff_item *q,
			    struct xls_item_problems *p)
{
	const struct xls_region *fmt = xls_item_region(it, 0);

	memset(q, 0, sizeof(*q));
	if (!xls_item_need(p, "quotaoff", fmt,
			   offsetof(struct xfs_qoff_logformat, qf_pad), NULL))
		return 1;
	q->has_format = true;
	q->qf_flags = xls_reg_get32(fmt, it->endian,
				    offsetof(struct xfs_qoff_logformat, qf_flags));
	return 0;
}
