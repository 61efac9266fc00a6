/*
 * Inode chunk creation items (XFS_LI_ICREATE): struct xfs_icreate_log.
 * Only icl_type and icl_size are in host order; every other field is
 * __be32 (xfs_icreate_log in xfs_log_format.h).
 */
#include <string.h>

#include "items/item.h"
#include "items/item_priv.h"

#define ICL(f)		offsetof(struct xfs_icreate_log, f)

int xls_icreate_item_parse(const struct xls_item *it, struct xls_icreate_item *ic,
			   struct xls_item_problems *p)
{
	const struct xls_region *r = xls_item_region(it, 0);
	uint32_t before = p->count;

	memset(ic, 0, sizeof(*ic));
	if (!xls_item_need(p, "icreate", r, sizeof(struct xfs_icreate_log), NULL))
		return 1;
	ic->has_format = true;
	ic->icl_ag = xls_reg_be32(r, ICL(icl_ag));
	ic->icl_agbno = xls_reg_be32(r, ICL(icl_agbno));
	ic->icl_count = xls_reg_be32(r, ICL(icl_count));
	ic->icl_isize = xls_reg_be32(r, ICL(icl_isize));
	ic->icl_length = xls_reg_be32(r, ICL(icl_length));
	ic->icl_gen = xls_reg_be32(r, ICL(icl_gen));
	/* xlog_recover_icreate_commit_pass2 insists on one region */
	if (it->size != 1)
		xls_item_problem(p, "icl_size is %u, expected 1", it->size);
	if (ic->icl_count == 0)
		xls_item_problem(p, "icreate count is 0");
	return p->count > before;
}
