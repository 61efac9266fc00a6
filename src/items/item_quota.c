/*
 * Quota log items.  XFS_LI_DQUOT: struct xfs_dq_logformat (host order) in
 * regions[0], then the dquot itself as logged, struct xfs_disk_dquot, which
 * is big-endian like the on-disk record it is copied over (recovery:
 * xlog_recover_dquot_commit_pass2 wants at least sizeof(xfs_disk_dquot)).
 * qlf_len is in filesystem blocks (recovery reads XFS_FSB_TO_BB(qlf_len)).
 * XFS_LI_QUOTAOFF: struct xfs_qoff_logformat, qf_flags in sb_qflags bits.
 */
#include <stdio.h>
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

void xls_describe_dquot(struct xls_desc *d)
{
	const struct xls_region *r;
	const size_t ddq_size = sizeof(struct xfs_disk_dquot);
	uint32_t id;
	uint16_t magic;
	uint8_t type;

	if (!xls_desc_need(d, sizeof(struct xfs_dq_logformat), NULL))
		return;
	id = xls_d32(d, QLF(qlf_id));
	xls_field_uint(d->fs, "id", id);
	xls_field_hex(d->fs, "blkno", xls_d64(d, QLF(qlf_blkno)));
	xls_field_int(d->fs, "buf_len", (int32_t)xls_d32(d, QLF(qlf_len)));
	xls_field_uint(d->fs, "boffset", xls_d32(d, QLF(qlf_boffset)));

	r = xls_desc_region(d, 1);
	if (!r)
		return;
	if (!xls_reg_has(r, 0, DDQ(d_id) + 4)) {
		xls_desc_finding(d, "dquot region is %u bytes, %zu needed",
				 r->len, ddq_size);
		return;
	}
	magic = xls_reg_be16(r, DDQ(d_magic));
	type = xls_reg_get8(r, DDQ(d_type));
	xls_field_hex(d->fs, "d_magic", magic);
	xls_field_hex(d->fs, "d_type", type);
	xls_field_flags(d->fs, "d_type_names", type, dq_type_names,
			sizeof(dq_type_names) / sizeof(dq_type_names[0]));
	xls_field_uint(d->fs, "d_id", xls_reg_be32(r, DDQ(d_id)));

	if (r->len < ddq_size)
		xls_desc_finding(d, "dquot region is %u bytes, %zu needed",
				 r->len, ddq_size);
	if (magic != XFS_DQUOT_MAGIC)
		xls_desc_finding(d, "d_magic 0x%04x is not 0x%04x (DQ)", magic,
				 XFS_DQUOT_MAGIC);
	if (xls_reg_be32(r, DDQ(d_id)) != id)
		xls_desc_finding(d, "d_id %u differs from qlf_id %u",
				 xls_reg_be32(r, DDQ(d_id)), id);
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

void xls_describe_quotaoff(struct xls_desc *d)
{
	uint32_t flags;

	if (!xls_desc_need(d, offsetof(struct xfs_qoff_logformat, qf_pad), NULL))
		return;
	flags = xls_d32(d, offsetof(struct xfs_qoff_logformat, qf_flags));
	xls_field_hex(d->fs, "qflags", flags);
	xls_field_flags(d->fs, "qflag_names", flags, qflag_names,
			sizeof(qflag_names) / sizeof(qflag_names[0]));
}
