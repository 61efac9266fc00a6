/*
 * Items stage: decoding an item by its family (item_type.c names the
 * families; item_*.c parse them).
 */
#include <string.h>

#include "items/item.h"
#include "items/item_priv.h"

static void problems_init(struct xls_item_problems *p)
{
	p->count = 0;
	p->len = 0;
	p->text[0] = '\0';
}

int xls_item_decode(const struct xls_item *it, struct xls_item_decoded *d)
{
	const struct xls_region *fmt = it->regions && it->nregions ? &it->regions[0] : NULL;
	struct xls_item_problems *p = &d->problems;

	d->item = it;
	d->type = xls_item_type_find(it->type);
	d->has_format = false;
	problems_init(p);
	if (!fmt) {
		xls_item_problem(p, "item has no regions");
		return 1;
	}
	if (fmt->len < 4 || !fmt->data) {
		xls_item_problem(p, "format region is %u bytes, 4 needed", fmt->len);
		return 1;
	}
	d->has_format = true;
	if (it->size != it->nregions)
		xls_item_problem(p, "item declares %u regions, %u present",
				 it->size, it->nregions);
	switch (d->type ? d->type->family : XLS_FAMILY_NONE) {
	case XLS_FAMILY_BUF:
		xls_buf_item_parse(it, &d->u.buf, p);
		break;
	case XLS_FAMILY_INODE:
		xls_inode_item_parse(it, &d->u.inode, p);
		break;
	case XLS_FAMILY_FREE_EXTENTS:
	case XLS_FAMILY_MAP_EXTENTS:
	case XLS_FAMILY_PHYS_EXTENTS:
		xls_extent_item_parse(it, &d->u.ext, p);
		break;
	case XLS_FAMILY_DONE:
		xls_done_item_parse(it, &d->u.done, p);
		break;
	case XLS_FAMILY_ATTRI:
		xls_attri_item_parse(it, &d->u.attri, p);
		break;
	case XLS_FAMILY_XMI:
		xls_xmi_item_parse(it, &d->u.xmi, p);
		break;
	case XLS_FAMILY_DQUOT:
		xls_dquot_item_parse(it, &d->u.dquot, p);
		break;
	case XLS_FAMILY_QUOTAOFF:
		xls_quotaoff_item_parse(it, &d->u.qoff, p);
		break;
	case XLS_FAMILY_ICREATE:
		xls_icreate_item_parse(it, &d->u.icreate, p);
		break;
	case XLS_FAMILY_NONE:
		break;
	}
	return p->count ? 1 : 0;
}
