/*
 * Intent and done items that carry extents or ids: EFI/EFD (also _RT),
 * RUI/RUD (also _RT), CUI/CUD (also _RT), BUI/BUD, XMI/XMD.  Each is a single
 * format region; its length must match what recovery expects for the
 * declared extent count, and a mismatch is a finding, never a read past the
 * region.
 */
#include <stdio.h>
#include <inttypes.h>
#include "items/item.h"
#include "items/item_priv.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- EFI / EFD ------------------------------------------------------ */

/*
 * struct xfs_efi_log_format and struct xfs_efd_log_format share one layout:
 * u16 type, u16 size, u32 nextents, u64 id, then the extents, which are
 * 16 bytes (struct xfs_extent_64: u64 start, u32 len, u32 pad) from 64-bit
 * writers and 12 bytes (packed struct xfs_extent_32) from i386 ones.
 * Recovery (xfs_efi_copy_format) picks the layout by the region length.
 */
#define EFI_HDR		offsetof(struct xfs_efi_log_format, efi_extents)
#define EXT_START	offsetof(struct xfs_extent_64, ext_start)
#define EXT_LEN		offsetof(struct xfs_extent_64, ext_len)

static void describe_free_extents(struct xls_desc *d, const char *id_key,
				  bool intent)
{
	static_assert(offsetof(struct xfs_efd_log_format, efd_extents) == EFI_HDR,
		      "efd header matches efi header");
	static_assert(offsetof(struct xfs_extent_32, ext_len) == EXT_LEN,
		      "extent_32 len offset");
	const uint64_t s64 = sizeof(struct xfs_extent_64);
	const uint64_t s32 = sizeof(struct xfs_extent_32);
	uint32_t n, len = d->fmt->len;
	uint64_t len64, len32, stride, count;
	struct xls_list list;
	char json[96], text[48];

	if (!xls_desc_need(d, EFI_HDR, NULL))
		return;
	n = xls_d32(d, offsetof(struct xfs_efi_log_format, efi_nextents));
	xls_field_hex(d->fs, id_key,
		      xls_d64(d, offsetof(struct xfs_efi_log_format, efi_id)));
	xls_field_uint(d->fs, "nextents", n);
	if (intent && n == 0)
		xls_desc_finding(d, "%s has no extents", d->name);

	len64 = EFI_HDR + n * s64;
	len32 = EFI_HDR + n * s32;
	if (len == len64) {
		stride = s64;
	} else if (len == len32) {
		stride = s32;
	} else {
		xls_desc_finding(d, "%s format region is %u bytes, %llu (64-bit) or %llu (32-bit) needed for %u extents",
				 d->name, len, (unsigned long long)len64,
				 (unsigned long long)len32, n);
		stride = (len - EFI_HDR) % s64 == 0 ? s64 :
			 (len - EFI_HDR) % s32 == 0 ? s32 : s64;
	}
	count = (len - EFI_HDR) / stride;
	if (count > n)
		count = n;
	if (stride == s32 && n > 0)
		xls_field_str(d->fs, "extent_layout", "32-bit");

	xls_list_init(&list, " ");
	for (uint64_t i = 0; i < count; i++) {
		uint64_t off = EFI_HDR + i * stride;
		uint64_t start = xls_d64(d, off + EXT_START);
		uint32_t elen = xls_d32(d, off + EXT_LEN);

		snprintf(json, sizeof(json), "{\"start\":%" PRIu64 ",\"len\":%" PRIu32 "}",
			 start, elen);
		snprintf(text, sizeof(text), "0x%" PRIx64 "+%" PRIu32, start, elen);
		if (!xls_list_add(&list, json, text))
			break;
	}
	xls_list_emit(&list, d->fs, "extents", "extents_shown", n);
}

void xls_describe_efi(struct xls_desc *d)
{
	describe_free_extents(d, "id", true);
}

void xls_describe_efd(struct xls_desc *d)
{
	describe_free_extents(d, "efi_id", false);
}

/* ---- RUI / BUI: struct xfs_map_extent ------------------------------- */

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

static const char *code_name(const char *const *names, size_t n, uint32_t code)
{
	return code < n ? names[code] : NULL;
}

/* Everything the map-extent decoder needs to know about one family. */
struct map_family {
	const char *const		*types;
	size_t				ntypes;
	const struct xls_flag_name	*flags;
	size_t				nflags;
	uint32_t			known_flags;
	const char			*owner_label;	/* text: "owner" / "ino" */
	bool				special_owners;
};

static const struct map_family rmap_family = {
	rmap_types, ARRAY_SIZE(rmap_types), rmap_flags, ARRAY_SIZE(rmap_flags),
	XFS_RMAP_EXTENT_FLAGS, "owner", true,
};

static const struct map_family bmap_family = {
	bmap_types, ARRAY_SIZE(bmap_types), bmap_flags, ARRAY_SIZE(bmap_flags),
	XFS_BMAP_EXTENT_TYPE_MASK | XFS_BMAP_EXTENT_ATTR_FORK |
	XFS_BMAP_EXTENT_UNWRITTEN | XFS_BMAP_EXTENT_REALTIME, "ino", false,
};

#define ME(f)		offsetof(struct xfs_map_extent, f)
#define RUI_HDR		offsetof(struct xfs_rui_log_format, rui_extents)

/*
 * Check a u16 type, u16 size, u32 nextents, u64 id, extents[] format of
 * @esize-byte extents whose length must be exact (xfs_{rui,cui,bui}_log_
 * format_sizeof); return how many extents can be read, or -1.
 */
static int64_t intent_header(struct xls_desc *d, uint64_t esize, uint32_t *np)
{
	uint32_t n, len = d->fmt->len;
	uint64_t want, count;

	if (!xls_desc_need(d, RUI_HDR, NULL))
		return -1;
	n = xls_d32(d, offsetof(struct xfs_rui_log_format, rui_nextents));
	xls_field_hex(d->fs, "id", xls_d64(d, offsetof(struct xfs_rui_log_format, rui_id)));
	xls_field_uint(d->fs, "nextents", n);
	if (n == 0)
		xls_desc_finding(d, "%s has no extents", d->name);
	want = RUI_HDR + n * esize;
	if (len != want)
		xls_desc_finding(d, "%s format region is %u bytes, %llu needed for %u extents",
				 d->name, len, (unsigned long long)want, n);
	count = (len - RUI_HDR) / esize;
	*np = n;
	return count < n ? (int64_t)count : (int64_t)n;
}

/* Decode the map extents; returns the declared count, or -1. */
static int64_t describe_map_extents(struct xls_desc *d,
				    const struct map_family *fam)
{
	static_assert(offsetof(struct xfs_bui_log_format, bui_extents) == RUI_HDR,
		      "bui header matches rui header");
	struct xls_list list;
	char json[320], text[160], fnames[96], tname[24], oname[24];
	bool bad_type = false, bad_flags = false;
	uint32_t n;
	int64_t count = intent_header(d, sizeof(struct xfs_map_extent), &n);

	if (count < 0)
		return -1;
	xls_list_init(&list, "; ");
	for (int64_t i = 0; i < count; i++) {
		uint64_t off = RUI_HDR + (uint64_t)i * sizeof(struct xfs_map_extent);
		uint64_t owner = xls_d64(d, off + ME(me_owner));
		uint64_t startblock = xls_d64(d, off + ME(me_startblock));
		uint64_t startoff = xls_d64(d, off + ME(me_startoff));
		uint32_t len = xls_d32(d, off + ME(me_len));
		uint32_t flags = xls_d32(d, off + ME(me_flags));
		uint32_t code = flags & XFS_RMAP_EXTENT_TYPE_MASK;
		uint32_t upper = flags & ~(uint32_t)XFS_RMAP_EXTENT_TYPE_MASK;
		const char *type = code_name(fam->types, fam->ntypes, code);
		const char *special = NULL;
		char ownerjson[48] = "";

		if (!type) {
			snprintf(tname, sizeof(tname), "type_%u", code);
			type = tname;
			bad_type = true;
		}
		if (flags & ~fam->known_flags)
			bad_flags = true;
		xls_flags_to_str(upper, fam->flags,
				 fam->nflags, fnames, sizeof(fnames));
		if (fam->special_owners && owner >= XFS_RMAP_OWN_COW)
			special = code_name(rmap_owners, ARRAY_SIZE(rmap_owners),
					    (uint32_t)-owner);
		if (special) {
			snprintf(ownerjson, sizeof(ownerjson), ",\"owner_name\":\"%s\"",
				 special);
			snprintf(oname, sizeof(oname), "%s", special);
		} else {
			snprintf(oname, sizeof(oname), "%" PRIu64, owner);
		}
		snprintf(json, sizeof(json),
			 "{\"owner\":%" PRIu64 "%s,\"startblock\":%" PRIu64
			 ",\"startoff\":%" PRIu64 ",\"len\":%" PRIu32
			 ",\"flags\":\"0x%" PRIx32 "\",\"type\":\"%s\",\"flag_names\":\"%s\"}",
			 owner, ownerjson, startblock, startoff, len, flags, type,
			 fnames);
		snprintf(text, sizeof(text), "%s%s%s %s=%s 0x%" PRIx64 "+%" PRIu32
			 "@%" PRIu64, type,
			 upper ? "|" : "", upper ? fnames : "",
			 fam->owner_label, oname, startblock, len, startoff);
		if (!xls_list_add(&list, json, text))
			break;
	}
	xls_list_emit(&list, d->fs, "extents", "extents_shown", n);
	if (bad_type)
		xls_desc_finding(d, "%s has an extent with an unknown type code", d->name);
	if (bad_flags)
		xls_desc_finding(d, "%s has an extent with unknown flag bits", d->name);
	return n;
}

void xls_describe_rui(struct xls_desc *d)
{
	describe_map_extents(d, &rmap_family);
}

void xls_describe_bui(struct xls_desc *d)
{
	int64_t n = describe_map_extents(d, &bmap_family);

	/* Recovery takes exactly one mapping per BUI (XFS_BUI_MAX_FAST_EXTENTS). */
	if (n >= 0 && n != 1)
		xls_desc_finding(d, "bui_nextents is %lld, recovery accepts only 1",
				 (long long)n);
}

/* ---- CUI: struct xfs_phys_extent ------------------------------------ */

#define PE(f)		offsetof(struct xfs_phys_extent, f)

void xls_describe_cui(struct xls_desc *d)
{
	static_assert(offsetof(struct xfs_cui_log_format, cui_extents) == RUI_HDR,
		      "cui header matches rui header");
	struct xls_list list;
	char json[160], text[80], tname[24];
	bool bad = false;
	uint32_t n;
	int64_t count = intent_header(d, sizeof(struct xfs_phys_extent), &n);

	if (count < 0)
		return;
	xls_list_init(&list, "; ");
	for (int64_t i = 0; i < count; i++) {
		uint64_t off = RUI_HDR + (uint64_t)i * sizeof(struct xfs_phys_extent);
		uint64_t startblock = xls_d64(d, off + PE(pe_startblock));
		uint32_t len = xls_d32(d, off + PE(pe_len));
		uint32_t flags = xls_d32(d, off + PE(pe_flags));
		uint32_t code = flags & XFS_REFCOUNT_EXTENT_TYPE_MASK;
		const char *type = code_name(refc_types, ARRAY_SIZE(refc_types), code);

		if (!type || (flags & ~(uint32_t)XFS_REFCOUNT_EXTENT_FLAGS)) {
			bad = true;
			if (!type) {
				snprintf(tname, sizeof(tname), "type_%u", code);
				type = tname;
			}
		}
		snprintf(json, sizeof(json),
			 "{\"startblock\":%" PRIu64 ",\"len\":%" PRIu32
			 ",\"flags\":\"0x%" PRIx32 "\",\"type\":\"%s\"}",
			 startblock, len, flags, type);
		snprintf(text, sizeof(text), "%s 0x%" PRIx64 "+%" PRIu32, type,
			 startblock, len);
		if (!xls_list_add(&list, json, text))
			break;
	}
	xls_list_emit(&list, d->fs, "extents", "extents_shown", n);
	if (bad)
		xls_desc_finding(d, "%s has an extent with unknown type or flags", d->name);
}

/* ---- done items ------------------------------------------------------ */

void xls_describe_rud(struct xls_desc *d)
{
	xls_describe_done_item(d, "rui_id");
}

void xls_describe_cud(struct xls_desc *d)
{
	xls_describe_done_item(d, "cui_id");
}

void xls_describe_bud(struct xls_desc *d)
{
	xls_describe_done_item(d, "bui_id");
}

void xls_describe_xmd(struct xls_desc *d)
{
	xls_describe_done_item(d, "xmi_id");
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

void xls_describe_xmi(struct xls_desc *d)
{
	uint64_t flags;

	if (!xls_desc_need(d, XMI_SIZE, NULL))
		return;
	flags = xls_d64(d, XMI_FLAGS);
	xls_field_hex(d->fs, "id", xls_d64(d, XMI_ID));
	xls_field_hex(d->fs, "ino1", xls_d64(d, XMI_INODE1));
	xls_field_hex(d->fs, "ino2", xls_d64(d, XMI_INODE2));
	xls_field_uint(d->fs, "igen1", xls_d32(d, XMI_IGEN1));
	xls_field_uint(d->fs, "igen2", xls_d32(d, XMI_IGEN2));
	xls_field_uint(d->fs, "startoff1", xls_d64(d, XMI_STARTOFF1));
	xls_field_uint(d->fs, "startoff2", xls_d64(d, XMI_STARTOFF2));
	xls_field_uint(d->fs, "blockcount", xls_d64(d, XMI_BLOCKCOUNT));
	xls_field_hex(d->fs, "flags", flags);
	xls_field_flags(d->fs, "flag_names", flags, xmi_flags, ARRAY_SIZE(xmi_flags));
	/* file sizes; the kernel keeps them as xfs_fsize_t (signed) in core */
	xls_field_int(d->fs, "isize1", (int64_t)xls_d64(d, XMI_ISIZE1));
	xls_field_int(d->fs, "isize2", (int64_t)xls_d64(d, XMI_ISIZE2));

	if (d->fmt->len != XMI_SIZE)
		xls_desc_finding(d, "xmi format region is %u bytes, expected %d",
				 d->fmt->len, XMI_SIZE);
	if (xls_d32(d, XMI_PAD) != 0)
		xls_desc_finding(d, "xmi __pad is 0x%x, must be zero",
				 xls_d32(d, XMI_PAD));
}
