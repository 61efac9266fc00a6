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

/* Each family's parser, into its member of the union. */
static void decode_buf(const struct xls_item *it, struct xls_item_decoded *d)
{
	xls_buf_item_parse(it, &d->u.buf, &d->problems);
}

static void decode_inode(const struct xls_item *it, struct xls_item_decoded *d)
{
	xls_inode_item_parse(it, &d->u.inode, &d->problems);
}

static void decode_extents(const struct xls_item *it, struct xls_item_decoded *d)
{
	xls_extent_item_parse(it, &d->u.ext, &d->problems);
}

static void decode_done(const struct xls_item *it, struct xls_item_decoded *d)
{
	xls_done_item_parse(it, &d->u.done, &d->problems);
}

static void decode_attri(const struct xls_item *it, struct xls_item_decoded *d)
{
	xls_attri_item_parse(it, &d->u.attri, &d->problems);
}

static void decode_xmi(const struct xls_item *it, struct xls_item_decoded *d)
{
	xls_xmi_item_parse(it, &d->u.xmi, &d->problems);
}

static void decode_dquot(const struct xls_item *it, struct xls_item_decoded *d)
{
	xls_dquot_item_parse(it, &d->u.dquot, &d->problems);
}

static void decode_quotaoff(const struct xls_item *it, struct xls_item_decoded *d)
{
	xls_quotaoff_item_parse(it, &d->u.qoff, &d->problems);
}

static void decode_icreate(const struct xls_item *it, struct xls_item_decoded *d)
{
	xls_icreate_item_parse(it, &d->u.icreate, &d->problems);
}

/* The families, listed once: each one's parser (NULL: none). */
static void (*const family_decode[XLS_FAMILY_COUNT])(const struct xls_item *,
						      struct xls_item_decoded *) = {
	[XLS_FAMILY_BUF]		= decode_buf,
	[XLS_FAMILY_INODE]		= decode_inode,
	[XLS_FAMILY_FREE_EXTENTS]	= decode_extents,
	[XLS_FAMILY_MAP_EXTENTS]	= decode_extents,
	[XLS_FAMILY_PHYS_EXTENTS]	= decode_extents,
	[XLS_FAMILY_DONE]		= decode_done,
	[XLS_FAMILY_ATTRI]		= decode_attri,
	[XLS_FAMILY_XMI]		= decode_xmi,
	[XLS_FAMILY_DQUOT]		= decode_dquot,
	[XLS_FAMILY_QUOTAOFF]		= decode_quotaoff,
	[XLS_FAMILY_ICREATE]		= decode_icreate,
};

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
	if (d->type && family_decode[d->type->family])
		family_decode[d->type->family](it, d);
	return p->count ? 1 : 0;
}
