/*
 * Buffer log items (XFS_LI_BUF): struct xfs_buf_log_format in regions[0],
 * one data region per logged run of 128-byte chunks after it.
 *
 * The writer logs only offsetof(blf_data_map) + blf_map_size words of the
 * format (xfs_buf_log_format_size()), so the region is usually shorter than
 * the 88-byte struct; recovery (xfs_buf_log_check_iovec) accepts it when it
 * holds the fixed part and blf_map_size words of bitmap.
 */
#include <stdio.h>
#include <string.h>
#include "base/flags.h"
#include "items/item.h"
#include "items/item_priv.h"

#define BLF_FIXED	offsetof(struct xfs_buf_log_format, blf_data_map)

static const char *const blft_names[] = {
	[XFS_BLFT_UNKNOWN_BUF]		= "unknown",
	[XFS_BLFT_UDQUOT_BUF]		= "udquot",
	[XFS_BLFT_PDQUOT_BUF]		= "pdquot",
	[XFS_BLFT_GDQUOT_BUF]		= "gdquot",
	[XFS_BLFT_BTREE_BUF]		= "btree",
	[XFS_BLFT_AGF_BUF]		= "agf",
	[XFS_BLFT_AGFL_BUF]		= "agfl",
	[XFS_BLFT_AGI_BUF]		= "agi",
	[XFS_BLFT_DINO_BUF]		= "dino",
	[XFS_BLFT_SYMLINK_BUF]		= "symlink",
	[XFS_BLFT_DIR_BLOCK_BUF]	= "dir_block",
	[XFS_BLFT_DIR_DATA_BUF]		= "dir_data",
	[XFS_BLFT_DIR_FREE_BUF]		= "dir_free",
	[XFS_BLFT_DIR_LEAF1_BUF]	= "dir_leaf1",
	[XFS_BLFT_DIR_LEAFN_BUF]	= "dir_leafn",
	[XFS_BLFT_DA_NODE_BUF]		= "da_node",
	[XFS_BLFT_ATTR_LEAF_BUF]	= "attr_leaf",
	[XFS_BLFT_ATTR_RMT_BUF]		= "attr_rmt",
	[XFS_BLFT_SB_BUF]		= "sb",
	[XFS_BLFT_RTBITMAP_BUF]		= "rtbitmap",
	[XFS_BLFT_RTSUMMARY_BUF]	= "rtsummary",
};

/* "blft_N" names for the values enum xfs_blft leaves unnamed (21..31). */
static const char *const blft_unnamed[] = {
	"blft_21", "blft_22", "blft_23", "blft_24", "blft_25", "blft_26",
	"blft_27", "blft_28", "blft_29", "blft_30", "blft_31",
};

const char *xls_blft_name(unsigned int blft)
{
	const size_t nnamed = sizeof(blft_names) / sizeof(blft_names[0]);

	if (blft < nnamed && blft_names[blft])
		return blft_names[blft];
	if (blft >= nnamed && blft - nnamed < sizeof(blft_unnamed) / sizeof(blft_unnamed[0]))
		return blft_unnamed[blft - nnamed];
	return "blft_invalid";
}

/* Other tools' words for kinds of buffer, and the types each covers. */
static const struct {
	const char	*name;
	uint32_t	mask;
} blft_aliases[] = {
	{ "super block",	1u << XFS_BLFT_SB_BUF },
	{ "superblock",		1u << XFS_BLFT_SB_BUF },
	{ "super",		1u << XFS_BLFT_SB_BUF },
	{ "inode",		1u << XFS_BLFT_DINO_BUF },
	{ "inodes",		1u << XFS_BLFT_DINO_BUF },
	{ "dquot",		(1u << XFS_BLFT_UDQUOT_BUF) | (1u << XFS_BLFT_PDQUOT_BUF) |
				(1u << XFS_BLFT_GDQUOT_BUF) },
	{ "bnobt", 1u << XFS_BLFT_BTREE_BUF }, { "cntbt", 1u << XFS_BLFT_BTREE_BUF },
	{ "inobt", 1u << XFS_BLFT_BTREE_BUF }, { "finobt", 1u << XFS_BLFT_BTREE_BUF },
	{ "bmbt", 1u << XFS_BLFT_BTREE_BUF }, { "rmapbt", 1u << XFS_BLFT_BTREE_BUF },
	{ "refcntbt", 1u << XFS_BLFT_BTREE_BUF },
	{ "dir",		(1u << XFS_BLFT_DIR_BLOCK_BUF) | (1u << XFS_BLFT_DIR_DATA_BUF) |
				(1u << XFS_BLFT_DIR_FREE_BUF) | (1u << XFS_BLFT_DIR_LEAF1_BUF) |
				(1u << XFS_BLFT_DIR_LEAFN_BUF) | (1u << XFS_BLFT_DA_NODE_BUF) },
	{ "attr",		(1u << XFS_BLFT_ATTR_LEAF_BUF) | (1u << XFS_BLFT_ATTR_RMT_BUF) },
};

/* @a equals @b but for case, with spaces and dashes taken as '_'. */
static bool same_word(const char *a, size_t alen, const char *b)
{
	size_t i;

	for (i = 0; i < alen && b[i]; i++) {
		char x = a[i] == ' ' || a[i] == '-' ? '_' : a[i];
		char y = b[i] == ' ' || b[i] == '-' ? '_' : b[i];

		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (x != y)
			return false;
	}
	return i == alen && !b[i];
}

uint32_t xls_blft_parse(const char *s)
{
	size_t len = strlen(s);

	for (size_t i = 0; i < sizeof(blft_aliases) / sizeof(blft_aliases[0]); i++)
		if (same_word(s, len, blft_aliases[i].name))
			return blft_aliases[i].mask;
	/* the kernel's enum names: XFS_BLFT_..._BUF, either end optional */
	if (len > 9 && same_word(s, 9, "xfs_blft_")) {
		s += 9;
		len -= 9;
	}
	if (len > 4 && same_word(s + len - 4, 4, "_buf"))
		len -= 4;
	for (unsigned int t = 0; t < sizeof(blft_names) / sizeof(blft_names[0]); t++)
		if (blft_names[t] && same_word(s, len, blft_names[t]))
			return 1u << t;
	return 0;
}

static const struct xls_flag_name blf_flag_names[] = {
	{ XFS_BLF_INODE_BUF,	"inode_buf" },
	{ XFS_BLF_CANCEL,	"cancel" },
	{ XFS_BLF_UDQUOT_BUF,	"udquot_buf" },
	{ XFS_BLF_PDQUOT_BUF,	"pdquot_buf" },
	{ XFS_BLF_GDQUOT_BUF,	"gdquot_buf" },
};

const struct xls_flag_table xls_blf_flag_table = XLS_FLAG_TABLE(blf_flag_names);

void xls_blf_flags_str(uint16_t blf_flags, char *buf, size_t bufsz)
{
	xls_flags_to_str(blf_flags & ~(uint32_t)XFS_BLFT_MASK, &xls_blf_flag_table,
			 buf, bufsz);
}

int xls_buf_format_parse(const struct xls_item *it, struct xls_buf_format *out,
			 const char **why)
{
	const struct xls_region *r;
	enum xls_endian e = it->endian;
	uint32_t fit;

	memset(out, 0, sizeof(*out));
	if (!it->regions || it->nregions == 0 || !it->regions[0].data) {
		*why = "buffer item has no format region";
		return -1;
	}
	r = &it->regions[0];
	if (r->len < BLF_FIXED) {
		*why = "buffer format region shorter than the fixed part of xfs_buf_log_format";
		return -1;
	}
	out->blf_type = xls_reg_get16(r, e, offsetof(struct xfs_buf_log_format, blf_type));
	out->blf_size = xls_reg_get16(r, e, offsetof(struct xfs_buf_log_format, blf_size));
	out->blf_flags = xls_reg_get16(r, e, offsetof(struct xfs_buf_log_format, blf_flags));
	out->blf_len = xls_reg_get16(r, e, offsetof(struct xfs_buf_log_format, blf_len));
	out->blf_blkno = (int64_t)xls_reg_get64(r, e, offsetof(struct xfs_buf_log_format, blf_blkno));
	out->blf_map_size = xls_reg_get32(r, e, offsetof(struct xfs_buf_log_format, blf_map_size));

	fit = (uint32_t)((r->len - BLF_FIXED) / sizeof(uint32_t));
	out->map_words = out->blf_map_size;
	if (out->map_words > XFS_BLF_DATAMAP_SIZE)
		out->map_words = XFS_BLF_DATAMAP_SIZE;
	if (out->map_words > fit)
		out->map_words = fit;
	for (uint32_t i = 0; i < out->map_words; i++)
		out->blf_data_map[i] = xls_reg_get32(r, e, BLF_FIXED + 4 * (uint64_t)i);
	out->fmt_len = r->len;
	out->parsed = true;
	*why = NULL;
	return 0;
}

bool xls_buf_format_iovec_ok(const struct xls_buf_format *bf)
{
	return (uint64_t)BLF_FIXED + 4ull * bf->blf_map_size <= bf->fmt_len;
}

int xls_buf_item_parse(const struct xls_item *it, struct xls_buf_format *bf,
		       struct xls_item_problems *p)
{
	uint32_t before = p->count;
	uint64_t need;
	const char *why;

	if (xls_buf_format_parse(it, bf, &why) < 0) {
		xls_item_need(p, "buf", xls_item_region(it, 0), BLF_FIXED, NULL);
		return 1;
	}
	if (bf->blf_map_size > XFS_BLF_DATAMAP_SIZE)
		xls_item_problem(p, "blf_map_size %u exceeds %d words",
				 bf->blf_map_size, (int)XFS_BLF_DATAMAP_SIZE);
	need = BLF_FIXED + (uint64_t)bf->blf_map_size * sizeof(uint32_t);
	if (bf->fmt_len < need)
		xls_item_problem(p, "buf format region is %u bytes, %llu needed for %u map words",
				 bf->fmt_len, (unsigned long long)need,
				 bf->blf_map_size);
	return p->count > before;
}
