/*
 * Items stage: name each log item type and dispatch to its decoder.  One
 * table gives the name and the decoder of every known XFS_LI_* type; an
 * unknown type is described by its common fields only, never fatal.
 */
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include "items/item.h"
#include "items/item_priv.h"

struct xls_item_type {
	uint16_t	type;
	const char	*name;
	void		(*describe)(struct xls_desc *d);	/* NULL: common fields only */
};

/*
 * Indexed by type - XFS_LI_EFI: the types are numbered from 0x1236 with
 * two gaps, so a lookup is one bounds check, not a search (it runs for
 * every item of the log).
 */
#define TYPE_BASE	XFS_LI_EFI
#define TYPE(t, n, f)	[(t) - TYPE_BASE] = { (t), (n), (f) }

static const struct xls_item_type item_types[] = {
	TYPE(XFS_LI_EFI,	"efi",	xls_describe_efi),
	TYPE(XFS_LI_EFD,	"efd",	xls_describe_efd),
	TYPE(XFS_LI_IUNLINK,	"iunlink",	NULL),
	TYPE(XFS_LI_INODE,	"inode",	xls_describe_inode),
	TYPE(XFS_LI_BUF,	"buf",	xls_describe_buf),
	TYPE(XFS_LI_DQUOT,	"dquot",	xls_describe_dquot),
	TYPE(XFS_LI_QUOTAOFF,	"quotaoff",	xls_describe_quotaoff),
	TYPE(XFS_LI_ICREATE,	"icreate",	xls_describe_icreate),
	TYPE(XFS_LI_RUI,	"rui",	xls_describe_rui),
	TYPE(XFS_LI_RUD,	"rud",	xls_describe_rud),
	TYPE(XFS_LI_CUI,	"cui",	xls_describe_cui),
	TYPE(XFS_LI_CUD,	"cud",	xls_describe_cud),
	TYPE(XFS_LI_BUI,	"bui",	xls_describe_bui),
	TYPE(XFS_LI_BUD,	"bud",	xls_describe_bud),
	TYPE(XFS_LI_ATTRI,	"attri",	xls_describe_attri),
	TYPE(XFS_LI_ATTRD,	"attrd",	xls_describe_attrd),
	TYPE(XFS_LI_XMI,	"xmi",	xls_describe_xmi),
	TYPE(XFS_LI_XMD,	"xmd",	xls_describe_xmd),
	TYPE(XFS_LI_EFI_RT,	"efi_rt",	xls_describe_efi),
	TYPE(XFS_LI_EFD_RT,	"efd_rt",	xls_describe_efd),
	TYPE(XFS_LI_RUI_RT,	"rui_rt",	xls_describe_rui),
	TYPE(XFS_LI_RUD_RT,	"rud_rt",	xls_describe_rud),
	TYPE(XFS_LI_CUI_RT,	"cui_rt",	xls_describe_cui),
	TYPE(XFS_LI_CUD_RT,	"cud_rt",	xls_describe_cud),
};

static const struct xls_item_type *item_type_find(uint16_t type)
{
	size_t i = (uint16_t)(type - TYPE_BASE);

	if (type < TYPE_BASE || i >= sizeof(item_types) / sizeof(item_types[0]) ||
	    !item_types[i].name)
		return NULL;
	return &item_types[i];
}

const char *xls_item_type_name(uint16_t type)
{
	const struct xls_item_type *t = item_type_find(type);

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
	if (item_type_find(le)) {
		*type = le;
		return 0;
	}
	if (item_type_find(be)) {
		*type = be;
		*endian = XLS_BIG_ENDIAN;
		return 0;
	}
	*type = le;
	return -1;
}

void xls_desc_finding(struct xls_desc *d, const char *fmt, ...)
{
	size_t room = sizeof(d->find) - d->nfind;
	va_list ap;
	int w;

	if (room <= 1)
		return;
	if (d->nfind) {
		w = snprintf(d->find + d->nfind, room, "; ");
		if (w < 0 || (size_t)w >= room) {
			d->nfind = sizeof(d->find) - 1;
			return;
		}
		d->nfind += (size_t)w;
		room -= (size_t)w;
	}
	va_start(ap, fmt);
	w = vsnprintf(d->find + d->nfind, room, fmt, ap);
	va_end(ap);
	if (w < 0)
		return;
	d->nfind += (size_t)w < room ? (size_t)w : room - 1;
}

bool xls_desc_need(struct xls_desc *d, uint64_t need, const char *why)
{
	uint32_t have = d->fmt ? d->fmt->len : 0;

	if (have >= need)
		return true;
	xls_desc_finding(d, "%s format region is %u bytes, %llu needed%s%s",
			 d->name, have, (unsigned long long)need,
			 why ? " " : "", why ? why : "");
	return false;
}

void xls_describe_done_item(struct xls_desc *d, const char *key)
{
	/* struct xfs_rud/cud/bud/xmd/attrd_log_format all share this shape. */
	const size_t id_off = offsetof(struct xfs_rud_log_format, rud_rui_id);
	const size_t size = sizeof(struct xfs_rud_log_format);

	if (!xls_desc_need(d, size, NULL))
		return;
	xls_field_hex(d->fs, key, xls_d64(d, id_off));
	if (d->fmt->len != size)
		xls_desc_finding(d, "%s format region is %u bytes, expected %zu",
				 d->name, d->fmt->len, size);
}

void xls_list_init(struct xls_list *l, const char *sep)
{
	l->sep = sep;
	l->json[0] = '[';
	l->json[1] = '\0';
	l->jlen = 1;
	l->text[0] = '\0';
	l->tlen = 0;
	l->shown = 0;
	l->full = false;
}

bool xls_list_add(struct xls_list *l, const char *json_obj, const char *text)
{
	size_t jn = strlen(json_obj), tn = strlen(text);
	size_t jsep = l->shown ? 1 : 0, tsep = l->shown ? strlen(l->sep) : 0;

	if (l->full || l->shown >= XLS_LIST_MAX_ENTRIES) {
		l->full = true;
		return false;
	}
	/* keep room for "]" and the terminating NUL */
	if (l->jlen + jsep + jn + 2 > sizeof(l->json) ||
	    l->tlen + tsep + tn + 1 > sizeof(l->text)) {
		l->full = true;
		return false;
	}
	if (jsep)
		l->json[l->jlen++] = ',';
	memcpy(l->json + l->jlen, json_obj, jn);
	l->jlen += jn;
	l->json[l->jlen] = '\0';
	memcpy(l->text + l->tlen, l->sep, tsep);
	l->tlen += tsep;
	memcpy(l->text + l->tlen, text, tn);
	l->tlen += tn;
	l->text[l->tlen] = '\0';
	l->shown++;
	return true;
}

void xls_list_emit(struct xls_list *l, struct xls_fieldset *fs,
		   const char *key, const char *shown_key, uint64_t total)
{
	l->json[l->jlen++] = ']';
	l->json[l->jlen] = '\0';
	xls_field_json(fs, key, l->json, l->text);
	if (l->shown < total)
		xls_field_uint(fs, shown_key, l->shown);
}

int xls_item_describe(const struct xls_item *it, struct xls_fieldset *fs)
{
	const struct xls_item_type *t = item_type_find(it->type);
	struct xls_desc d;

	d.it = it;
	d.fs = fs;
	d.fmt = (it->regions && it->nregions) ? &it->regions[0] : NULL;
	d.name = t ? t->name : "item";
	d.nfind = 0;
	d.find[0] = '\0';

	xls_field_str(fs, "item", t ? t->name : "unknown");
	xls_field_hex(fs, "type_code", it->type);
	xls_field_uint(fs, "size", it->size);
	xls_field_uint(fs, "regions", it->nregions);

	if (!d.fmt) {
		xls_desc_finding(&d, "item has no regions");
	} else if (d.fmt->len < 4 || !d.fmt->data) {
		xls_desc_finding(&d, "format region is %u bytes, 4 needed",
				 d.fmt->len);
	} else {
		if (it->size != it->nregions)
			xls_desc_finding(&d, "item declares %u regions, %u present",
					 it->size, it->nregions);
		if (t && t->describe)
			t->describe(&d);
	}

	if (d.nfind) {
		xls_field_str(fs, "finding", d.find);
		return 1;
	}
	return 0;
}
