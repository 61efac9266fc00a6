/*
 * Private to the items stage: the describe context shared by the per-family
 * decoders (item_buf.c, item_inode.c, item_extent.c, item_attr.c,
 * item_quota.c, item_icreate.c), bounds-checked region readers, and a
 * bounded JSON/text list builder for extent arrays.
 *
 * Every read goes through xls_reg_has()/xls_reg_get*(), which never touch a
 * byte at or past region->len; decoders still check lengths explicitly so
 * that a short region becomes a finding with the numbers in it.
 */
#ifndef XLS_ITEM_PRIV_H
#define XLS_ITEM_PRIV_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "items/item.h"

/* Constants newer than the xfsprogs 6.1 headers (candidates for ondisk.h). */
#ifndef XFS_BMAP_EXTENT_REALTIME
#define XFS_BMAP_EXTENT_REALTIME	(1U << 29)
#endif
/* Attr filter bits (xfs_da_format.h, which does not build standalone). */
#ifndef XFS_ATTR_ROOT
#define XFS_ATTR_ROOT			(1u << 1)
#endif
#ifndef XFS_ATTR_SECURE
#define XFS_ATTR_SECURE			(1u << 2)
#endif
#ifndef XFS_ATTR_PARENT
#define XFS_ATTR_PARENT			(1u << 3)
#endif
#ifndef XFS_ATTR_INCOMPLETE
#define XFS_ATTR_INCOMPLETE		(1u << 7)
#endif
#ifndef XFS_ILOG_IVERSION
#define XFS_ILOG_IVERSION		0x8000
#endif

/* Longest "finding" text; several findings are joined with "; ". */
#define XLS_FINDING_MAX		512

struct xls_desc {
	const struct xls_item		*it;
	struct xls_fieldset		*fs;
	const struct xls_region		*fmt;	/* regions[0] */
	const char			*name;	/* "efi", for messages */
	size_t				nfind;
	char				find[XLS_FINDING_MAX];
};

/* Add a finding (printf-style); joined with earlier ones by "; ". */
void xls_desc_finding(struct xls_desc *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * True when the format region holds at least @need bytes; otherwise adds
 * "<name> format region is N bytes, @need needed[ @why]" and returns false.
 * @why may be NULL.
 */
bool xls_desc_need(struct xls_desc *d, uint64_t need, const char *why);

/* Region @i of the item, or NULL when it is not present. */
static inline const struct xls_region *xls_desc_region(const struct xls_desc *d,
						       uint32_t i)
{
	if (!d->it->regions || i >= d->it->nregions)
		return NULL;
	return &d->it->regions[i];
}

/* Does @r hold @n bytes at @off?  Overflow-safe; NULL @r holds nothing. */
static inline bool xls_reg_has(const struct xls_region *r, uint64_t off,
			       uint64_t n)
{
	return r && r->data && off <= r->len && n <= r->len - off;
}

/* Host-order (writer's CPU order) loads; 0 when out of bounds. */
static inline uint16_t xls_reg_get16(const struct xls_region *r,
				     enum xls_endian e, uint64_t off)
{
	return xls_reg_has(r, off, 2) ? xls_get16(e, r->data + off) : 0;
}
static inline uint32_t xls_reg_get32(const struct xls_region *r,
				     enum xls_endian e, uint64_t off)
{
	return xls_reg_has(r, off, 4) ? xls_get32(e, r->data + off) : 0;
}
static inline uint64_t xls_reg_get64(const struct xls_region *r,
				     enum xls_endian e, uint64_t off)
{
	return xls_reg_has(r, off, 8) ? xls_get64(e, r->data + off) : 0;
}
static inline uint8_t xls_reg_get8(const struct xls_region *r, uint64_t off)
{
	return xls_reg_has(r, off, 1) ? r->data[off] : 0;
}
/* Big-endian (__be) loads; 0 when out of bounds. */
static inline uint16_t xls_reg_be16(const struct xls_region *r, uint64_t off)
{
	return xls_reg_has(r, off, 2) ? xls_be16(r->data + off) : 0;
}
static inline uint32_t xls_reg_be32(const struct xls_region *r, uint64_t off)
{
	return xls_reg_has(r, off, 4) ? xls_be32(r->data + off) : 0;
}
static inline uint64_t xls_reg_be64(const struct xls_region *r, uint64_t off)
{
	return xls_reg_has(r, off, 8) ? xls_be64(r->data + off) : 0;
}

/* Shorthands for the format region in the item's byte order. */
static inline uint16_t xls_d16(const struct xls_desc *d, uint64_t off)
{
	return xls_reg_get16(d->fmt, d->it->endian, off);
}
static inline uint32_t xls_d32(const struct xls_desc *d, uint64_t off)
{
	return xls_reg_get32(d->fmt, d->it->endian, off);
}
static inline uint64_t xls_d64(const struct xls_desc *d, uint64_t off)
{
	return xls_reg_get64(d->fmt, d->it->endian, off);
}

/*
 * A JSON array with its text rendering, built entry by entry within fixed
 * budgets so that the fieldset's 4 KiB string buffer always has room for
 * the rest of the item.  Entries that do not fit, or beyond
 * XLS_LIST_MAX_ENTRIES, are dropped and counted.
 */
#define XLS_LIST_MAX_ENTRIES	32
#define XLS_LIST_JSON_MAX	1536
#define XLS_LIST_TEXT_MAX	768

struct xls_list {
	const char	*sep;		/* between text entries */
	size_t		jlen;
	size_t		tlen;
	unsigned int	shown;
	bool		full;
	char		json[XLS_LIST_JSON_MAX];
	char		text[XLS_LIST_TEXT_MAX];
};

/* @sep separates entries in the text form (" ", or "; " when entries have spaces). */
void xls_list_init(struct xls_list *l, const char *sep);
/* Append one JSON object and its text; false (and nothing added) when full. */
bool xls_list_add(struct xls_list *l, const char *json_obj, const char *text);
/*
 * Emit the list as XLS_FIELD_JSON @key, then "@key_shown" (@shown_key) when
 * fewer than @total entries made it in.
 */
void xls_list_emit(struct xls_list *l, struct xls_fieldset *fs,
		   const char *key, const char *shown_key, uint64_t total);

/* Per-family decoders; each adds fields and findings to @d. */
void xls_describe_buf(struct xls_desc *d);
void xls_describe_inode(struct xls_desc *d);
void xls_describe_efi(struct xls_desc *d);
void xls_describe_efd(struct xls_desc *d);
void xls_describe_rui(struct xls_desc *d);
void xls_describe_rud(struct xls_desc *d);
void xls_describe_cui(struct xls_desc *d);
void xls_describe_cud(struct xls_desc *d);
void xls_describe_bui(struct xls_desc *d);
void xls_describe_bud(struct xls_desc *d);
void xls_describe_xmi(struct xls_desc *d);
void xls_describe_xmd(struct xls_desc *d);
void xls_describe_attri(struct xls_desc *d);
void xls_describe_attrd(struct xls_desc *d);
void xls_describe_dquot(struct xls_desc *d);
void xls_describe_quotaoff(struct xls_desc *d);
void xls_describe_icreate(struct xls_desc *d);

/*
 * "Done" items laid out as {u16 type, u16 size, u32 pad, u64 id} (RUD, CUD,
 * BUD, XMD, ATTRD): check the 16-byte length recovery insists on and emit
 * the id under @key.
 */
void xls_describe_done_item(struct xls_desc *d, const char *key);

#endif /* XLS_ITEM_PRIV_H */
