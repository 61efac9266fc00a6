/*
 * Items stage: the one table of log item types (name, family, intent and
 * done pairing, whether recovery knows it), and what every family's parser
 * shares: problems, length checks, the intent id.
 */
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

#include "items/item.h"
#include "items/item_priv.h"

/*
 * Indexed by type - XFS_LI_EFI: the types are numbered from 0x1236 with
 * two gaps, so a lookup is one bounds check, not a search (it runs for
 * every item of the log).  Every done type is its intent's type + 1.
 */
#define TYPE_BASE	XFS_LI_EFI
#define ITEM(t, n, f)	[(t) - TYPE_BASE] = { (t), (n), (f), XLS_ROLE_ITEM, 0, true }
#define INTENT(t, n, f)	[(t) - TYPE_BASE] = { (t), (n), (f), XLS_ROLE_INTENT, (t) + 1, true }
#define DONE(t, n, f)	[(t) - TYPE_BASE] = { (t), (n), (f), XLS_ROLE_DONE, (t) - 1, true }

static const struct xls_item_type item_types[] = {
	INTENT(XFS_LI_EFI,	"efi",		XLS_FAMILY_FREE_EXTENTS),
	DONE(XFS_LI_EFD,	"efd",		XLS_FAMILY_FREE_EXTENTS),
	/* never logged: recovery has no ops for it */
	[XFS_LI_IUNLINK - TYPE_BASE] = { XFS_LI_IUNLINK, "iunlink", XLS_FAMILY_NONE,
					 XLS_ROLE_ITEM, 0, false },
	ITEM(XFS_LI_INODE,	"inode",	XLS_FAMILY_INODE),
	ITEM(XFS_LI_BUF,	"buf",		XLS_FAMILY_BUF),
	ITEM(XFS_LI_DQUOT,	"dquot",	XLS_FAMILY_DQUOT),
	ITEM(XFS_LI_QUOTAOFF,	"quotaoff",	XLS_FAMILY_QUOTAOFF),
	ITEM(XFS_LI_ICREATE,	"icreate",	XLS_FAMILY_ICREATE),
	INTENT(XFS_LI_RUI,	"rui",		XLS_FAMILY_MAP_EXTENTS),
	DONE(XFS_LI_RUD,	"rud",		XLS_FAMILY_DONE),
	INTENT(XFS_LI_CUI,	"cui",		XLS_FAMILY_PHYS_EXTENTS),
	DONE(XFS_LI_CUD,	"cud",		XLS_FAMILY_DONE),
	INTENT(XFS_LI_BUI,	"bui",		XLS_FAMILY_MAP_EXTENTS),
	DONE(XFS_LI_BUD,	"bud",		XLS_FAMILY_DONE),
	INTENT(XFS_LI_ATTRI,	"attri",	XLS_FAMILY_ATTRI),
	DONE(XFS_LI_ATTRD,	"attrd",	XLS_FAMILY_DONE),
	INTENT(XFS_LI_XMI,	"xmi",		XLS_FAMILY_XMI),
	DONE(XFS_LI_XMD,	"xmd",		XLS_FAMILY_DONE),
	INTENT(XFS_LI_EFI_RT,	"efi_rt",	XLS_FAMILY_FREE_EXTENTS),
	DONE(XFS_LI_EFD_RT,	"efd_rt",	XLS_FAMILY_FREE_EXTENTS),
	INTENT(XFS_LI_RUI_RT,	"rui_rt",	XLS_FAMILY_MAP_EXTENTS),
	DONE(XFS_LI_RUD_RT,	"rud_rt",	XLS_FAMILY_DONE),
	INTENT(XFS_LI_CUI_RT,	"cui_rt",	XLS_FAMILY_PHYS_EXTENTS),
	DONE(XFS_LI_CUD_RT,	"cud_rt",	XLS_FAMILY_DONE),
};

const struct xls_item_type *xls_item_type_find(uint16_t type)
{
	size_t i = (uint16_t)(type - TYPE_BASE);

	if (type < TYPE_BASE || i >= sizeof(item_types) / sizeof(item_types[0]) ||
	    !item_types[i].name)
		return NULL;
	return &item_types[i];
}

const char *xls_item_type_name(uint16_t type)
{
	const struct xls_item_type *t = xls_item_type_find(type);

	return t ? t->name : NULL;
}

int xls_item_detect(const uint8_t *p, uint32_t len, uint16_t *type,
		    enum xls_endian *endian)
{
	uint16_t le, be;

	*endian = XLS_LITTLE_ENDIAN;
	if (!p || len < 2) {
		*type = 0;
		return -1;
	}
	le = xls_le16(p);
	be = xls_be16(p);
	if (xls_item_type_find(le)) {
		*type = le;
		return 0;
	}
	if (xls_item_type_find(be)) {
		*type = be;
		*endian = XLS_BIG_ENDIAN;
		return 0;
	}
	*type = le;
	return -1;
}

void xls_item_problem(struct xls_item_problems *p, const char *fmt, ...)
{
	size_t room = sizeof(p->text) - p->len;
	va_list ap;
	int w;

	p->count++;
	if (room <= 1)
		return;
	if (p->len) {
		w = snprintf(p->text + p->len, room, "; ");
		if (w < 0 || (size_t)w >= room) {
			p->len = sizeof(p->text) - 1;
			return;
		}
		p->len += (size_t)w;
		room -= (size_t)w;
	}
	va_start(ap, fmt);
	w = vsnprintf(p->text + p->len, room, fmt, ap);
	va_end(ap);
	if (w < 0)
		return;
	p->len += (size_t)w < room ? (size_t)w : room - 1;
}

bool xls_item_intent_id(const struct xls_item *it, uint64_t *id)
{
	const struct xls_region *fmt = xls_item_region(it, 0);

	*id = 0;
	if (!xls_reg_has(fmt, 0, 16))
		return false;
	*id = xls_reg_get64(fmt, it->endian, 8);
	return true;
}

bool xls_item_need(struct xls_item_problems *p, const char *name,
		   const struct xls_region *fmt, uint64_t need, const char *why)
{
	uint32_t have = fmt ? fmt->len : 0;

	if (have >= need)
		return true;
	xls_item_problem(p, "%s format region is %u bytes, %llu needed%s%s",
			 name, have, (unsigned long long)need,
			 why ? " " : "", why ? why : "");
	return false;
}
