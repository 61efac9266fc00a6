/*
 * Intent and done items that carry extents or ids: EFI/EFD (also _RT),
 * RUI/RUD (also _RT), CUI/CUD (also _RT), BUI/BUD, XMI/XMD.  Each is a single
 * format region; its length must match what recovery expects for the
 * declared extent count, and a mismatch is a problem, never a read past the
 * region.
 */
#include <stdio.h>
#include <string.h>

#include "base/flags.h"
#include "items/item.h"
#include "items/item_priv.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- the headers ------------------------------------------------------ */

/*
 * struct xfs_efi_log_format and struct xfs_efd_log_format share one layout:
 * u16 type, u16 size, u32 nextents, u64 id, then the extents, which are
 * 16 bytes (struct xfs_extent_64: u64 start, u32 len, u32 pad) from 64-bit
 * writers and 12 bytes (packed struct xfs_extent_32) from i386 ones.
 * Recovery (xfs_efi_copy_format) picks the layout by the region length.
 * RUI, CUI and BUI have the same header and one extent size each.
 */
#define EXT_HDR		offsetof(struct xfs_efi_log_format, efi_extents)
#define EXT_START	offsetof(struct xfs_extent_64, ext_start)
#define EXT_LEN		offsetof(struct xfs_extent_64, ext_len)
#define ME(f)		offsetof(struct xfs_map_extent, f)
#define PE(f)		offsetof(struct xfs_phys_extent, f)

static_assert(offsetof(struct xfs_efd_log_format, efd_extents) == EXT_HDR,
	      "efd header matches efi header");
static_assert(offsetof(struct xfs_rui_log_format, rui_extents) == EXT_HDR,
	      "rui header matches efi header");
static_assert(offsetof(struct xfs_cui_log_format, cui_extents) == EXT_HDR,
	      "cui header matches efi header");
static_assert(offsetof(struct xfs_bui_log_format, bui_extents) == EXT_HDR,
	      "bui header matches efi header");
static_assert(offsetof(struct xfs_extent_32, ext_len) == EXT_LEN,
	      "extent_32 len offset");

static uint32_t d32(const struct xls_extent_item *x, uint64_t off)
{
	return xls_reg_get32(x->fmt, x->endian, off);
}

static uint64_t d64(const struct xls_extent_item *x, uint64_t off)
{
	return xls_reg_get64(x->fmt, x->endian, off);
}

/* ---- names -------------------------------------------------------------- */

static const char *const rmap_types[] = {
	[XFS_RMAP_EXTENT_MAP]		= "map",
	[XFS_RMAP_EXTENT_MAP_SHARED]	= "map_shared",
	[XFS_RMAP_EXTENT_UNMAP]		= "unmap",
	[XFS_RMAP_EXTENT_UNMAP_SHARED]	= "unmap_shared",
	[XFS_RMAP_EXTENT_CONVERT]	= "convert",
	[XFS_RMAP_EXTENT_CONVERT_SHARED] = "convert_shared",
	[XFS_RMAP_EXTENT_ALLOC]		= "alloc",
	[XFS_RMAP_EXTENT_FREE]		= "free",
};

static const struct xls_flag_name rmap_flags[] = {
	{ XFS_RMAP_EXTENT_ATTR_FORK,	"attr_fork" },
	{ XFS_RMAP_EXTENT_BMBT_BLOCK,	"bmbt_block" },
	{ XFS_RMAP_EXTENT_UNWRITTEN,	"unwritten" },
};

/* enum xfs_bmap_intent_type (xfs_bmap.h) */
static const char *const bmap_types[] = {
	[1] = "map",
	[2] = "unmap",
};

static const struct xls_flag_name bmap_flags[] = {
	{ XFS_BMAP_EXTENT_ATTR_FORK,	"attr_fork" },
	{ XFS_BMAP_EXTENT_UNWRITTEN,	"unwritten" },
	{ XFS_BMAP_EXTENT_REALTIME,	"realtime" },
};

/* enum xfs_refcount_intent_type (xfs_refcount.h) */
static const char *const refc_types[] = {
	[1] = "increase",
	[2] = "decrease",
	[3] = "alloc_cow",
	[4] = "free_cow",
};

/* Special rmap owners (XFS_RMAP_OWN_*), by -owner. */
static const char *const rmap_owners[] = {
	[1] = "null", [2] = "unknown", [3] = "fs", [4] = "log", [5] = "ag",
	[6] = "inobt", [7] = "inodes", [8] = "refc", [9] = "cow",
};

const struct xls_flag_table xls_rmap_flag_table = XLS_FLAG_TABLE(rmap_flags);
const struct xls_flag_table xls_bmap_flag_table = XLS_FLAG_TABLE(bmap_flags);

static const char *code_name(const char *const *names, size_t n, uint64_t code)
{
	return code < n ? names[code] : NULL;
}

const char *xls_rmap_type_name(uint32_t code)
{
	return code_name(rmap_types, ARRAY_SIZE(rmap_types), code);
}

const char *xls_bmap_type_name(uint32_t code)
{
	return code_name(bmap_types, ARRAY_SIZE(bmap_types), code);
}

const char *xls_refc_type_name(uint32_t code)
{
	return code_name(refc_types, ARRAY_SIZE(refc_types), code);
}

const char *xls_rmap_owner_name(uint64_t owner)
{
	if (owner < XFS_RMAP_OWN_COW)
		return NULL;
	return code_name(rmap_owners, ARRAY_SIZE(rmap_owners), -owner);
}

/* ---- extents -------------------------------------------------------------- */

void xls_extent_item_free(const struct xls_extent_item *x, uint32_t i,
			  struct xls_free_extent *out)
{
	uint64_t off = EXT_HDR + (uint64_t)i * x->stride;

	out->start = d64(x, off + EXT_START);
	out->len = d32(x, off + EXT_LEN);
}

void xls_extent_item_map(const struct xls_extent_item *x, uint32_t i,
			 struct xls_map_extent *out)
{
	uint64_t off = EXT_HDR + (uint64_t)i * x->stride;

	out->owner = d64(x, off + ME(me_owner));
	out->startblock = d64(x, off + ME(me_startblock));
	out->startoff = d64(x, off + ME(me_startoff));
	out->len = d32(x, off + ME(me_len));
	out->flags = d32(x, off + ME(me_flags));
}

void xls_extent_item_phys(const struct xls_extent_item *x, uint32_t i,
			  struct xls_phys_extent *out)
{
	uint64_t off = EXT_HDR + (uint64_t)i * x->stride;

	out->startblock = d64(x, off + PE(pe_startblock));
	out->len = d32(x, off + PE(pe_len));
	out->flags = d32(x, off + PE(pe_flags));
}

/* ---- parsing ---------------------------------------------------------- */

/* The 16-byte header: id and declared count; false when it is cut short. */
static bool parse_header(const struct xls_item *it, const char *name,
			 struct xls_extent_item *x, struct xls_item_problems *p)
{
	memset(x, 0, sizeof(*x));
	x->fmt = xls_item_region(it, 0);
	x->endian = it->endian;
	if (!xls_item_need(p, name, x->fmt, EXT_HDR, NULL))
		return false;
	x->has_header = true;
	x->nextents = d32(x, offsetof(struct xfs_efi_log_format, efi_nextents));
	x->id = d64(x, offsetof(struct xfs_efi_log_format, efi_id));
	return true;
}

/* EFI/EFD: 64-bit or i386 extents, told apart by the region length. */
static void parse_free(const struct xls_item_type *t, struct xls_extent_item *x,
		       struct xls_item_problems *p)
{
	const uint64_t s64 = sizeof(struct xfs_extent_64);
	const uint64_t s32 = sizeof(struct xfs_extent_32);
	uint32_t n = x->nextents, len = x->fmt->len;
	uint64_t len64 = EXT_HDR + n * s64, len32 = EXT_HDR + n * s32, count;

	if (t->role == XLS_ROLE_INTENT && n == 0)
		xls_item_problem(p, "%s has no extents", t->name);
	if (len == len64) {
		x->stride = (uint32_t)s64;
	} else if (len == len32) {
		x->stride = (uint32_t)s32;
	} else {
		xls_item_problem(p, "%s format region is %u bytes, %llu (64-bit) or %llu (32-bit) needed for %u extents",
				 t->name, len, (unsigned long long)len64,
				 (unsigned long long)len32, n);
		x->stride = (uint32_t)((len - EXT_HDR) % s64 == 0 ? s64 :
				       (len - EXT_HDR) % s32 == 0 ? s32 : s64);
	}
	count = (len - EXT_HDR) / x->stride;
	x->count = (uint32_t)(count < n ? count : n);
	x->layout32 = x->stride == s32;
}

/*
 * RUI, BUI, CUI: extents of one size, and the length must be exact
 * (xfs_{rui,cui,bui}_log_format_sizeof).
 */
static void parse_fixed(const struct xls_item_type *t, struct xls_extent_item *x,
			uint32_t esize, struct xls_item_problems *p)
{
	uint32_t n = x->nextents, len = x->fmt->len;
	uint64_t want = EXT_HDR + (uint64_t)n * esize, count;

	if (n == 0)
		xls_item_problem(p, "%s has no extents", t->name);
	if (len != want)
		xls_item_problem(p, "%s format region is %u bytes, %llu needed for %u extents",
				 t->name, len, (unsigned long long)want, n);
	x->stride = esize;
	count = (len - EXT_HDR) / esize;
	x->count = (uint32_t)(count < n ? count : n);
}

/* Known type codes and flags of RUI (rmap) or BUI (bmap) extents. */
static void check_map(const struct xls_item_type *t, struct xls_extent_item *x,
		      struct xls_item_problems *p)
{
	bool bui = t->type == XFS_LI_BUI;
	uint32_t known = bui ? XFS_BMAP_EXTENT_TYPE_MASK | XFS_BMAP_EXTENT_ATTR_FORK |
			       XFS_BMAP_EXTENT_UNWRITTEN | XFS_BMAP_EXTENT_REALTIME :
			       XFS_RMAP_EXTENT_FLAGS;
	struct xls_map_extent m;

	for (uint32_t i = 0; i < x->count; i++) {
		uint32_t code;

		xls_extent_item_map(x, i, &m);
		code = m.flags & XFS_RMAP_EXTENT_TYPE_MASK;
		if (!(bui ? xls_bmap_type_name(code) : xls_rmap_type_name(code)))
			x->bad_type = true;
		if (m.flags & ~known)
			x->bad_flags = true;
	}
	if (x->bad_type)
		xls_item_problem(p, "%s has an extent with an unknown type code", t->name);
	if (x->bad_flags)
		xls_item_problem(p, "%s has an extent with unknown flag bits", t->name);
	/* Recovery takes exactly one mapping per BUI (XFS_BUI_MAX_FAST_EXTENTS). */
	if (bui && x->nextents != 1)
		xls_item_problem(p, "bui_nextents is %lld, recovery accepts only 1",
				 (long long)x->nextents);
}

static void check_phys(const struct xls_item_type *t, struct xls_extent_item *x,
		       struct xls_item_problems *p)
{
	struct xls_phys_extent e;

	for (uint32_t i = 0; i < x->count; i++) {
		xls_extent_item_phys(x, i, &e);
		if (!xls_refc_type_name(e.flags & XFS_REFCOUNT_EXTENT_TYPE_MASK) ||
		    (e.flags & ~(uint32_t)XFS_REFCOUNT_EXTENT_FLAGS))
			x->bad_type = true;
	}
	if (x->bad_type)
		xls_item_problem(p, "%s has an extent with unknown type or flags", t->name);
}

int xls_extent_item_parse(const struct xls_item *it, struct xls_extent_item *x,
			  struct xls_item_problems *p)
{
	const struct xls_item_type *t = xls_item_type_find(it->type);
	uint32_t before = p->count;

	if (!t || !parse_header(it, t->name, x, p)) {
		if (!t)
			memset(x, 0, sizeof(*x));
		return p->count > before;
	}
	switch (t->family) {
	case XLS_FAMILY_FREE_EXTENTS:
		parse_free(t, x, p);
		break;
	case XLS_FAMILY_MAP_EXTENTS:
		parse_fixed(t, x, sizeof(struct xfs_map_extent), p);
		check_map(t, x, p);
		break;
	case XLS_FAMILY_PHYS_EXTENTS:
		parse_fixed(t, x, sizeof(struct xfs_phys_extent), p);
		check_phys(t, x, p);
		break;
	default:
		break;
	}
	return p->count > before;
}

/* ---- done items -------------------------------------------------------- */

int xls_done_item_parse(const struct xls_item *it, struct xls_done_item *dn,
			struct xls_item_problems *p)
{
	/* struct xfs_rud/cud/bud/xmd/attrd_log_format all share this shape. */
	const size_t id_off = offsetof(struct xfs_rud_log_format, rud_rui_id);
	const size_t size = sizeof(struct xfs_rud_log_format);
	const struct xls_region *fmt = xls_item_region(it, 0);
	const char *name = xls_item_type_name(it->type);
	uint32_t before = p->count;

	dn->has_id = false;
	dn->id = 0;
	if (!xls_item_need(p, name ? name : "item", fmt, size, NULL))
		return 1;
	dn->has_id = true;
	dn->id = xls_reg_get64(fmt, it->endian, id_off);
	if (fmt->len != size)
		xls_item_problem(p, "%s format region is %u bytes, expected %zu",
				 name ? name : "item", fmt->len, size);
	return p->count > before;
}

/* ---- XMI ------------------------------------------------------------- */

/*
 * struct xfs_xmi_log_format (kernel fs/xfs/libxfs/xfs_log_format.h, Linux
 * 6.10+; not in the xfsprogs 6.1 headers, so read by explicit offsets):
 *	u16 xmi_type, u16 xmi_size, u32 __pad (must be zero), u64 xmi_id,
 *	u64 xmi_inode1, u64 xmi_inode2, u32 xmi_igen1, u32 xmi_igen2,
 *	u64 xmi_startoff1, u64 xmi_startoff2, u64 xmi_blockcount,
 *	u64 xmi_flags, u64 xmi_isize1, u64 xmi_isize2		= 88 bytes
 * Recovery (xlog_recover_xmi_commit_pass2) wants exactly 88 and a zero pad.
 */
enum {
	XMI_PAD		= 4,
	XMI_ID		= 8,
	XMI_INODE1	= 16,
	XMI_INODE2	= 24,
	XMI_IGEN1	= 32,
	XMI_IGEN2	= 36,
	XMI_STARTOFF1	= 40,
	XMI_STARTOFF2	= 48,
	XMI_BLOCKCOUNT	= 56,
	XMI_FLAGS	= 64,
	XMI_ISIZE1	= 72,
	XMI_ISIZE2	= 80,
	XMI_SIZE	= 88,
};

/* XFS_EXCHMAPS_* logged flags (same kernel header). */
static const struct xls_flag_name xmi_flags[] = {
	{ 1ULL << 0,	"attr_fork" },
	{ 1ULL << 1,	"set_sizes" },
	{ 1ULL << 2,	"ino1_written" },
	{ 1ULL << 3,	"clear_ino1_reflink" },
	{ 1ULL << 4,	"clear_ino2_reflink" },
};

const struct xls_flag_table xls_xmi_flag_table = XLS_FLAG_TABLE(xmi_flags);

int xls_xmi_item_parse(const struct xls_item *it, struct xls_xmi_item *x,
		       struct xls_item_problems *p)
{
	const struct xls_region *fmt = xls_item_region(it, 0);
	enum xls_endian e = it->endian;
	uint32_t before = p->count;

	memset(x, 0, sizeof(*x));
	if (!xls_item_need(p, "xmi", fmt, XMI_SIZE, NULL))
		return 1;
	x->has_format = true;
	x->id = xls_reg_get64(fmt, e, XMI_ID);
	x->inode1 = xls_reg_get64(fmt, e, XMI_INODE1);
	x->inode2 = xls_reg_get64(fmt, e, XMI_INODE2);
	x->igen1 = xls_reg_get32(fmt, e, XMI_IGEN1);
	x->igen2 = xls_reg_get32(fmt, e, XMI_IGEN2);
	x->startoff1 = xls_reg_get64(fmt, e, XMI_STARTOFF1);
	x->startoff2 = xls_reg_get64(fmt, e, XMI_STARTOFF2);
	x->blockcount = xls_reg_get64(fmt, e, XMI_BLOCKCOUNT);
	x->flags = xls_reg_get64(fmt, e, XMI_FLAGS);
	/* file sizes; the kernel keeps them as xfs_fsize_t (signed) in core */
	x->isize1 = (int64_t)xls_reg_get64(fmt, e, XMI_ISIZE1);
	x->isize2 = (int64_t)xls_reg_get64(fmt, e, XMI_ISIZE2);
	if (fmt->len != XMI_SIZE)
		xls_item_problem(p, "xmi format region is %u bytes, expected %d",
				 fmt->len, XMI_SIZE);
	if (xls_reg_get32(fmt, e, XMI_PAD) != 0)
		xls_item_problem(p, "xmi __pad is 0x%x, must be zero",
				 xls_reg_get32(fmt, e, XMI_PAD));
	return p->count > before;
}
