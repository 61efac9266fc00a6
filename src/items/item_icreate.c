/*
 * Inode chunk creation items (XFS_LI_ICREATE): struct xfs_icreate_log.
 * Only icl_type and icl_size are in host order; every other field is
 * __be32 (xfs_icreate_log in xfs_log_format.h).
 */
#include <stdio.h>
#include "items/item.h"
#include "items/item_priv.h"

#define ICL(f)		offsetof(struct xfs_icreate_log, f)

void xls_describe_icreate(struct xls_desc *d)
{
	const struct xls_region *r = d->fmt;

	if (!xls_desc_need(d, sizeof(struct xfs_icreate_log), NULL))
		return;
	xls_field_uint(d->fs, "ag", xls_reg_be32(r, ICL(icl_ag)));
	xls_field_hex(d->fs, "agbno", xls_reg_be32(r, ICL(icl_agbno)));
	xls_field_uint(d->fs, "count", xls_reg_be32(r, ICL(icl_count)));
	xls_field_uint(d->fs, "isize", xls_reg_be32(r, ICL(icl_isize)));
	xls_field_uint(d->fs, "length", xls_reg_be32(r, ICL(icl_length)));
	xls_field_hex(d->fs, "gen", xls_reg_be32(r, ICL(icl_gen)));

	/* xlog_recover_icreate_commit_pass2 insists on one region */
	if (d->it->size != 1)
		xls_desc_finding(d, "icl_size is %u, expected 1", d->it->size);
	if (xls_reg_be32(r, ICL(icl_count)) == 0)
		xls_desc_finding(d, "icreate count is 0");
}
