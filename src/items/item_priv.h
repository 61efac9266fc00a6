/*
 * Private to the items stage: what the per-family parsers (item_buf.c,
 * item_inode.c, item_extent.c, item_attr.c, item_quota.c, item_icreate.c)
 * share: bounds-checked region readers.
 *
 * Every read goes through xls_reg_has()/xls_reg_get*(), which never touch a
 * byte at or past region->len; decoders still check lengths explicitly so
 * that a short region becomes a problem with the numbers in it.
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

/*
 * True when the format region @fmt of item @name holds at least @need
 * bytes; otherwise adds "<name> format region is N bytes, @need needed
 * [@why]" to @p and returns false.  @why may be NULL.
 */
bool xls_item_need(struct xls_item_problems *p, const char *name,
		   const struct xls_region *fmt, uint64_t need, const char *why);

/* Region @i of @it, or NULL when it is not present. */
static inline const struct xls_region *xls_item_region(const struct xls_item *it,
						       uint32_t i)
{
	if (!it->regions || i >= it->nregions)
		return NULL;
	return &it->regions[i];
}

#endif /* XLS_ITEM_PRIV_H */
