/*
 * The buffer type a block is logged with, by its magic (xls_blk_log_type,
 * used for pass 3's checkpoints): for each kind of v5 block, the type
 * whose verifier xlog_recover_validate_buf_type attaches to it -- the
 * expectations written here from xfs_log_format.h's XFS_BLFT_* and each
 * structure's magic, not from the tool's tables -- and none for what a
 * magic does not tell (dquots, whose type is their d_type; data).
 */
#include <string.h>

#include "tap.h"
#include "base/ondisk.h"
#include "recover/recover.h"

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

int main(void)
{
	static const struct {
		uint32_t	magic;
		unsigned int	blft;
		const char	*what;
	} at0[] = {
		{ 0x58465342, XFS_BLFT_SB_BUF,		"XFSB: superblock" },
		{ 0x58414746, XFS_BLFT_AGF_BUF,		"XAGF" },
		{ 0x58414749, XFS_BLFT_AGI_BUF,		"XAGI" },
		{ 0x5841464c, XFS_BLFT_AGFL_BUF,	"XAFL" },
		{ 0x41423342, XFS_BLFT_BTREE_BUF,	"AB3B: bnobt" },
		{ 0x41423343, XFS_BLFT_BTREE_BUF,	"AB3C: cntbt" },
		{ 0x49414233, XFS_BLFT_BTREE_BUF,	"IAB3: inobt" },
		{ 0x46494233, XFS_BLFT_BTREE_BUF,	"FIB3: finobt" },
		{ 0x524d4233, XFS_BLFT_BTREE_BUF,	"RMB3: rmapbt" },
		{ 0x52334643, XFS_BLFT_BTREE_BUF,	"R3FC: refcountbt" },
		{ 0x424d4133, XFS_BLFT_BTREE_BUF,	"BMA3: bmbt" },
		{ 0x58534c4d, XFS_BLFT_SYMLINK_BUF,	"XSLM: remote symlink" },
		{ 0x58444233, XFS_BLFT_DIR_BLOCK_BUF,	"XDB3: dir block" },
		{ 0x58444433, XFS_BLFT_DIR_DATA_BUF,	"XDD3: dir data" },
		{ 0x58444633, XFS_BLFT_DIR_FREE_BUF,	"XDF3: dir free" },
		{ 0x5841524d, XFS_BLFT_ATTR_RMT_BUF,	"XARM: remote attr value" },
	};
	static const struct {
		uint16_t	magic;
		unsigned int	blft;
		const char	*what;
	} at8[] = {
		{ 0x3df1, XFS_BLFT_DIR_LEAF1_BUF,	"3DF1: dir leaf1" },
		{ 0x3dff, XFS_BLFT_DIR_LEAFN_BUF,	"3DFF: dir leafn" },
		{ 0x3ebe, XFS_BLFT_DA_NODE_BUF,		"3EBE: da node" },
		{ 0x3bee, XFS_BLFT_ATTR_LEAF_BUF,	"3BEE: attr leaf" },
	};
	struct tap t = { 0, 0 };
	struct xls_geometry g;
	static uint8_t blk[4096];

	memset(&g, 0, sizeof(g));
	g.crc = true;
	g.blocksize = 4096;
	for (size_t i = 0; i < sizeof(at0) / sizeof(at0[0]); i++) {
		memset(blk, 0, sizeof(blk));
		put32(blk, at0[i].magic);
		tap_ok(&t, xls_blk_log_type(&g, blk, sizeof(blk)) == at0[i].blft, "%s", at0[i].what);
	}
	for (size_t i = 0; i < sizeof(at8) / sizeof(at8[0]); i++) {
		memset(blk, 0, sizeof(blk));
		put16(blk + 8, at8[i].magic);
		tap_ok(&t, xls_blk_log_type(&g, blk, sizeof(blk)) == at8[i].blft, "%s", at8[i].what);
	}
	memset(blk, 0, sizeof(blk));
	put16(blk, 0x494e);
	tap_ok(&t, xls_blk_log_type(&g, blk, 8192 > sizeof(blk) ? sizeof(blk) : 8192) ==
		   XFS_BLFT_DINO_BUF, "IN: an inode cluster");
	put16(blk, 0x4451);
	tap_ok(&t, xls_blk_log_type(&g, blk, sizeof(blk)) == XFS_BLFT_UNKNOWN_BUF,
	       "DQ: a dquot block, whose type its magic does not tell");
	memset(blk, 0xab, sizeof(blk));
	tap_ok(&t, xls_blk_log_type(&g, blk, sizeof(blk)) == XFS_BLFT_UNKNOWN_BUF,
	       "file data: no type");
	/* rt bitmap blocks carry no magic before rtgroups: never told by one */
	memset(blk, 0, sizeof(blk));
	tap_ok(&t, xls_blk_log_type(&g, blk, sizeof(blk)) == XFS_BLFT_UNKNOWN_BUF,
	       "zeros: no type (an rt bitmap block without rtgroups is not guessed)");
	return tap_done(&t);
}
