/*
 * Recovery stage: what each item of an open transaction leaves for the
 * transaction's commit, where recovery acts on it.  Items stream past
 * once (the trans stage keeps none), so each is reduced to what its
 * decision needs -- a buffer's format, region lengths and first bytes, an
 * inode item's identity -- by its family's capture (its xls_recover_ops,
 * listed here), into the store of its transaction (store.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "recover/recover_priv.h"

/* ------------------------------------------------------------------ */
/* capturing items as they stream by */

/* The families, listed once: what recovery does with each (NULL: nothing). */
static const struct xls_recover_ops *const family_ops[XLS_FAMILY_COUNT] = {
	[XLS_FAMILY_BUF]		= &xls_rbuf_ops,
	[XLS_FAMILY_INODE]		= &xls_rinode_ops,
	[XLS_FAMILY_ICREATE]		= &xls_ricreate_ops,
	[XLS_FAMILY_QUOTAOFF]		= &xls_rquotaoff_ops,
	[XLS_FAMILY_DQUOT]		= &xls_rdquot_ops,
	[XLS_FAMILY_FREE_EXTENTS]	= &xls_rintent_ops,
	[XLS_FAMILY_MAP_EXTENTS]	= &xls_rintent_ops,
	[XLS_FAMILY_PHYS_EXTENTS]	= &xls_rintent_ops,
	[XLS_FAMILY_DONE]		= &xls_rintent_ops,
	[XLS_FAMILY_ATTRI]		= &xls_rintent_ops,
	[XLS_FAMILY_XMI]		= &xls_rintent_ops,
};

static const struct xls_recover_ops *ops_of_type(const struct xls_item_type *t)
{
	return t && t->recovers ? family_ops[t->family] : NULL;
}

const struct xls_recover_ops *xls_recover_ops_of(uint16_t type)
{
	return ops_of_type(xls_item_type_find(type));
}

int xls_recover_capture(void *ctx, const struct xls_trans *t,
			const struct xls_item *it)
{
	struct xls_recover *r = ctx;
	const struct xls_item_type *type = xls_item_type_find(it->type);
	const struct xls_recover_ops *ops = ops_of_type(type);
	struct tstore *ts;
	struct rrec rec;

	/*
	 * Pass 1 looks only at the families it acts on and at types it cannot
	 * recover; a transaction with none of them needs no store in it.
	 */
	if (r->pass == 1 && type && type->recovers && !(ops && ops->capture1))
		return 0;
	ts = xls_rstore_find(r, t, true);
	if (!ts) {
		r->stores_full = true;
		return 0;
	}
	if (r->pass == 2 && r->opt.only_types && ops && ops->left_out && it->nregions &&
	    it->regions[0].data && ops->left_out(r, it))
		return 0;
	xls_rrec_init(&rec);
	rec.type = it->type;
	rec.index = t->nitems + 1;
	rec.unknown_type = !type || !type->recovers;
	if (ops && it->nregions && it->regions[0].data) {
		if (r->pass == 1)
			ops->capture1(r, ts, &rec, it);
		else if (ops->capture2)
			ops->capture2(r, ts, &rec, it);
	}
	if (xls_rstore_add(ts, &rec))
		r->err = -ENOMEM;
	return 0;
}
