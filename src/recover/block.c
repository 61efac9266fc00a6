/*
 * Recovery stage: what a block is, by its magic, as
 * xlog_recover_get_buf_lsn() tells it (where its LSN and UUID are), and
 * which verifier xlog_recover_validate_buf_type() attaches to a replayed
 * buffer of a given type (the one that stamps the LSN when it is written).
 */
#include <string.h>

#include "base/crc32c.h"
#include "base/ondisk.h"
#include <xfs/xfs_da_format.h>
#include "recover/recover_priv.h"

/* struct xfs_rtbuf_blkinfo: magic, crc, owner, blkno, lsn, uuid */
#define RTBUF_LSN_OFF		24
#define RTBUF_UUID_OFF		32
#define SB_OFF(f)		offsetof(struct xfs_dsb, f)

#define BTS(f)	offsetof(struct xfs_btree_block, bb_u.s.f)
#define BTL(f)	offsetof(struct xfs_btree_block, bb_u.l.f)
#define DIR3(f)	offsetof(struct xfs_dir3_blk_hdr, f)
#define DA3(f)	offsetof(struct xfs_da3_blkinfo, f)

static const struct {
	uint32_t	magic;
	const char	*name;
	uint32_t	lsn_off, uuid_off, crc_off, blkno_off;
} magic32_table[] = {
	{ XFS_RTBITMAP_MAGIC,	"rtbitmap",	RTBUF_LSN_OFF, RTBUF_UUID_OFF, 4, 16 },
	{ XFS_RTSUMMARY_MAGIC,	"rtsummary",	RTBUF_LSN_OFF, RTBUF_UUID_OFF, 4, 16 },
	{ XFS_ABTB_CRC_MAGIC,	"AB3B",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_ABTC_CRC_MAGIC,	"AB3C",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_ABTB_MAGIC,	"ABTB",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_ABTC_MAGIC,	"ABTC",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_RMAP_CRC_MAGIC,	"RMB3",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_REFC_CRC_MAGIC,	"R3FC",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_FIBT_CRC_MAGIC,	"FIB3",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_FIBT_MAGIC,	"FIBT",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_IBT_CRC_MAGIC,	"IAB3",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_IBT_MAGIC,	"IABT",	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_RTRMAP_CRC_MAGIC,	"MAPR",	BTL(bb_lsn), BTL(bb_uuid), BTL(bb_crc), BTL(bb_blkno) },
	{ XFS_RTREFC_CRC_MAGIC,	"RCNT",	BTL(bb_lsn), BTL(bb_uuid), BTL(bb_crc), BTL(bb_blkno) },
	{ XFS_BMAP_CRC_MAGIC,	"BMA3",	BTL(bb_lsn), BTL(bb_uuid), BTL(bb_crc), BTL(bb_blkno) },
	{ XFS_BMAP_MAGIC,	"BMAP",	BTL(bb_lsn), BTL(bb_uuid), BTL(bb_crc), BTL(bb_blkno) },
	{ XFS_AGF_MAGIC,	"XAGF",	offsetof(struct xfs_agf, agf_lsn),
					offsetof(struct xfs_agf, agf_uuid),
					offsetof(struct xfs_agf, agf_crc), 0 },
	{ XFS_AGFL_MAGIC,	"XAFL",	offsetof(struct xfs_agfl, agfl_lsn),
					offsetof(struct xfs_agfl, agfl_uuid),
					offsetof(struct xfs_agfl, agfl_crc), 0 },
	{ XFS_AGI_MAGIC,	"XAGI",	offsetof(struct xfs_agi, agi_lsn),
					offsetof(struct xfs_agi, agi_uuid),
					offsetof(struct xfs_agi, agi_crc), 0 },
	{ XFS_SYMLINK_MAGIC,	"XSLM",	offsetof(struct xfs_dsymlink_hdr, sl_lsn),
					offsetof(struct xfs_dsymlink_hdr, sl_uuid),
					offsetof(struct xfs_dsymlink_hdr, sl_crc),
					offsetof(struct xfs_dsymlink_hdr, sl_blkno) },
	{ XFS_DIR3_BLOCK_MAGIC,	"XDB3",	DIR3(lsn), DIR3(uuid), DIR3(crc), DIR3(blkno) },
	{ XFS_DIR3_DATA_MAGIC,	"XDD3",	DIR3(lsn), DIR3(uuid), DIR3(crc), DIR3(blkno) },
	{ XFS_DIR3_FREE_MAGIC,	"XDF3",	DIR3(lsn), DIR3(uuid), DIR3(crc), DIR3(blkno) },
};

static const struct {
	uint16_t	magic;
	const char	*name;
} magicda_table[] = {
	{ XFS_DIR3_LEAF1_MAGIC,	"3DF1" },
	{ XFS_DIR3_LEAFN_MAGIC,	"3DFF" },
	{ XFS_ATTR3_LEAF_MAGIC,	"3BEE" },
	{ XFS_DA3_NODE_MAGIC,	"3EBE" },
};

void xls_blk_identify(const struct xls_geometry *g, const uint8_t *blk, uint32_t len,
		      struct blk_id *id)
{
	uint32_t m32 = len >= 4 ? xls_be32(blk) : 0;
	uint16_t mda = len >= 10 ? xls_be16(blk + offsetof(struct xfs_da_blkinfo, magic)) : 0;
	uint16_t m16 = len >= 2 ? xls_be16(blk) : 0;

	memset(id, 0, sizeof(*id));
	id->kind = BLK_UNKNOWN;
	id->name = "unknown";
	id->magic = m32;
	for (size_t i = 0; i < sizeof(magic32_table) / sizeof(magic32_table[0]); i++) {
		if (magic32_table[i].magic != m32)
			continue;
		id->kind = BLK_LSN;
		id->name = magic32_table[i].name;
		id->lsn_off = magic32_table[i].lsn_off;
		id->uuid_off = magic32_table[i].uuid_off;
		id->crc_off = magic32_table[i].crc_off;
		id->blkno_off = magic32_table[i].blkno_off;
		goto check;
	}
	if (m32 == XFS_ATTR3_RMT_MAGIC) {
		id->kind = BLK_ATTR_RMT;
		id->name = "XARM";
		return;
	}
	if (m32 == XFS_SB_MAGIC) {
		id->kind = BLK_LSN;
		id->name = "XFSB";
		id->lsn_off = SB_OFF(sb_lsn);
		id->crc_off = SB_OFF(sb_crc);
		/* sb_meta_uuid when the filesystem has one (xfs_has_metauuid) */
		id->uuid_off = g->has_meta_uuid ? SB_OFF(sb_meta_uuid) : SB_OFF(sb_uuid);
		goto check;
	}
	for (size_t i = 0; i < sizeof(magicda_table) / sizeof(magicda_table[0]); i++) {
		if (magicda_table[i].magic != mda)
			continue;
		id->kind = BLK_LSN;
		id->magic = mda;
		id->name = magicda_table[i].name;
		id->lsn_off = DA3(lsn);
		id->uuid_off = DA3(uuid);
		id->crc_off = DA3(crc);
		id->blkno_off = DA3(blkno);
		goto check;
	}
	if (m16 == XFS_DQUOT_MAGIC || m16 == XFS_DINODE_MAGIC) {
		id->kind = m16 == XFS_DQUOT_MAGIC ? BLK_DQUOT : BLK_DINODE;
		id->magic = m16;
		id->name = m16 == XFS_DQUOT_MAGIC ? "DQ" : "IN";
	}
	return;
check:
	/* a header cut short by the buffer length is no header */
	if (id->lsn_off + 8 > len || id->uuid_off + 16 > len)
		id->kind = BLK_UNKNOWN;
}

/* xfs_update_cksum: CRC32C of @len bytes with the field zeroed, stored little-endian. */
static void update_cksum(uint8_t *buf, uint32_t len, uint32_t off)
{
	uint32_t crc;

	memset(buf + off, 0, 4);
	crc = xls_crc32c(buf, len);
	for (int b = 0; b < 4; b++)
		buf[off + b] = (uint8_t)(crc >> (8 * b));
}

void xls_recover_stamp(const struct xls_geometry *g, uint8_t *buf, uint32_t len, uint64_t lsn)
{
	struct blk_id id;

	if (!g->crc)
		return;
	xls_blk_identify(g, buf, len, &id);
	if (id.kind == BLK_ATTR_RMT) {
		/* xfs_attr3_rmt_write_verify: each block its CRC, rm_lsn left alone */
		for (uint32_t off = 0; g->blocksize && off + g->blocksize <= len;
		     off += g->blocksize)
			if (xls_be32(buf + off) == XFS_ATTR3_RMT_MAGIC)
				update_cksum(buf + off, g->blocksize,
					     offsetof(struct xfs_attr3_rmt_hdr, rm_crc));
		return;
	}
	if (id.kind != BLK_LSN || !id.crc_off || id.crc_off + 4 > len)
		return;
	/* the LSN of the log item recovery attached, when it replayed the buffer */
	if (lsn)
		for (int b = 0; b < 8; b++)
			buf[id.lsn_off + b] = (uint8_t)(lsn >> (56 - 8 * b));
	update_cksum(buf, len, id.crc_off);
}

/*
 * The kernel's names for a block's verifiers (b_ops->name, and the
 * functions whose address a verifier failure logs: the read verifier's for
 * a bad CRC, the structure check's for corruption), by the block's magic.
 */
static const struct xls_blk_verifier {
	const char *magic, *ops, *read_fn, *verify_fn;
} blk_verifiers[] = {
	{ "AB3B", "xfs_bnobt", "xfs_allocbt_read_verify", "xfs_allocbt_verify" },
	{ "AB3C", "xfs_cntbt", "xfs_allocbt_read_verify", "xfs_allocbt_verify" },
	{ "ABTB", "xfs_bnobt", "xfs_allocbt_read_verify", "xfs_allocbt_verify" },
	{ "ABTC", "xfs_cntbt", "xfs_allocbt_read_verify", "xfs_allocbt_verify" },
	{ "RMB3", "xfs_rmapbt", "xfs_rmapbt_read_verify", "xfs_rmapbt_verify" },
	{ "R3FC", "xfs_refcountbt", "xfs_refcountbt_read_verify", "xfs_refcountbt_verify" },
	{ "FIB3", "xfs_finobt", "xfs_inobt_read_verify", "xfs_inobt_verify" },
	{ "FIBT", "xfs_finobt", "xfs_inobt_read_verify", "xfs_inobt_verify" },
	{ "IAB3", "xfs_inobt", "xfs_inobt_read_verify", "xfs_inobt_verify" },
	{ "IABT", "xfs_inobt", "xfs_inobt_read_verify", "xfs_inobt_verify" },
	{ "MAPR", "xfs_rtrmapbt", "xfs_rtrmapbt_read_verify", "xfs_rtrmapbt_verify" },
	{ "RCNT", "xfs_rtrefcountbt", "xfs_rtrefcountbt_read_verify",
	  "xfs_rtrefcountbt_verify" },
	{ "BMA3", "xfs_bmbt", "xfs_bmbt_read_verify", "xfs_bmbt_verify" },
	{ "BMAP", "xfs_bmbt", "xfs_bmbt_read_verify", "xfs_bmbt_verify" },
	{ "XAGF", "xfs_agf", "xfs_agf_read_verify", "xfs_agf_verify" },
	{ "XAFL", "xfs_agfl", "xfs_agfl_read_verify", "xfs_agfl_verify" },
	{ "XAGI", "xfs_agi", "xfs_agi_read_verify", "xfs_agi_verify" },
	{ "XSLM", "xfs_symlink", "xfs_symlink_read_verify", "xfs_symlink_verify" },
	{ "XDB3", "xfs_dir3_block", "xfs_dir3_block_read_verify", "xfs_dir3_block_verify" },
	{ "XDD3", "xfs_dir3_data", "xfs_dir3_data_read_verify", "xfs_dir3_data_verify" },
	{ "XDF3", "xfs_dir3_free", "xfs_dir3_free_read_verify", "xfs_dir3_free_verify" },
	{ "3DF1", "xfs_dir3_leaf1", "xfs_dir3_leaf_read_verify", "xfs_dir3_leaf_verify" },
	{ "3DFF", "xfs_dir3_leafn", "xfs_dir3_leaf_read_verify", "xfs_dir3_leaf_verify" },
	{ "3BEE", "xfs_attr3_leaf", "xfs_attr3_leaf_read_verify", "xfs_attr3_leaf_verify" },
	{ "3EBE", "xfs_da3_node", "xfs_da3_node_read_verify", "xfs_da3_node_verify" },
	{ "XARM", "xfs_attr3_rmt", "xfs_attr3_rmt_read_verify", "xfs_attr3_rmt_verify" },
	{ "XFSB", "xfs_sb", "xfs_sb_read_verify", "xfs_sb_write_verify" },
	{ "IN", "xfs_inode", "xfs_inode_buf_read_verify", "xfs_inode_buf_verify" },
	{ "DQ", "xfs_dquot", "xfs_dquot_buf_read_verify", "xfs_dquot_buf_verify" },
};

static const struct xls_blk_verifier *blk_verifier(const struct blk_id *id)
{
	for (size_t i = 0; i < sizeof(blk_verifiers) / sizeof(blk_verifiers[0]); i++)
		if (id->name && !strcmp(blk_verifiers[i].magic, id->name))
			return &blk_verifiers[i];
	return NULL;
}

void xls_blk_verifier_says(const struct blk_id *id, int64_t blkno, bool crc, char *buf,
			   size_t size)
{
	const struct xls_blk_verifier *v = blk_verifier(id);

	if (v)
		snprintf(buf, size, "Metadata %s detected at %s, %s block 0x%llx",
			 crc ? "CRC error" : "corruption", crc ? v->read_fn : v->verify_fn,
			 v->ops, (unsigned long long)blkno);
	else
		snprintf(buf, size, "Metadata %s detected at the block's %s verifier, block 0x%llx",
			 crc ? "CRC error" : "corruption", crc ? "read" : "write",
			 (unsigned long long)blkno);
}

/* ------------------------------------------------------------------ */
/* the verifier validate_buf_type attaches, and its warning */

static bool is_m32(uint32_t m, uint32_t a, uint32_t b)
{
	return m == a || m == b;
}

enum xls_blk_type_check xls_blk_validate_type(const struct xls_geometry *g, unsigned int blft,
					      const uint8_t *blk, uint32_t len,
					      const char **warn)
{
	uint32_t m32 = len >= 4 ? xls_be32(blk) : 0;
	uint16_t m16 = len >= 2 ? xls_be16(blk) : 0;
	uint16_t mda = len >= 10 ? xls_be16(blk + offsetof(struct xfs_da_blkinfo, magic)) : 0;
	const char *w = NULL;

	*warn = NULL;
	switch (blft) {
	case XFS_BLFT_BTREE_BUF:
		switch (m32) {
		case XFS_ABTB_CRC_MAGIC: case XFS_ABTB_MAGIC:
		case XFS_ABTC_CRC_MAGIC: case XFS_ABTC_MAGIC:
		case XFS_IBT_CRC_MAGIC: case XFS_IBT_MAGIC:
		case XFS_FIBT_CRC_MAGIC: case XFS_FIBT_MAGIC:
		case XFS_BMAP_CRC_MAGIC: case XFS_BMAP_MAGIC:
		case XFS_RTRMAP_CRC_MAGIC: case XFS_RMAP_CRC_MAGIC:
		case XFS_REFC_CRC_MAGIC: case XFS_RTREFC_CRC_MAGIC:
			break;
		default:
			w = "Bad btree block magic!";
		}
		break;
	case XFS_BLFT_AGF_BUF:
		w = m32 != XFS_AGF_MAGIC ? "Bad AGF block magic!" : NULL;
		break;
	case XFS_BLFT_AGFL_BUF:
		w = m32 != XFS_AGFL_MAGIC ? "Bad AGFL block magic!" : NULL;
		break;
	case XFS_BLFT_AGI_BUF:
		w = m32 != XFS_AGI_MAGIC ? "Bad AGI block magic!" : NULL;
		break;
	case XFS_BLFT_UDQUOT_BUF:
	case XFS_BLFT_PDQUOT_BUF:
	case XFS_BLFT_GDQUOT_BUF:
		w = m16 != XFS_DQUOT_MAGIC ? "Bad DQUOT block magic!" : NULL;
		break;
	case XFS_BLFT_DINO_BUF:
		w = m16 != XFS_DINODE_MAGIC ? "Bad INODE block magic!" : NULL;
		break;
	case XFS_BLFT_SYMLINK_BUF:
		w = m32 != XFS_SYMLINK_MAGIC ? "Bad symlink block magic!" : NULL;
		break;
	case XFS_BLFT_DIR_BLOCK_BUF:
		w = !is_m32(m32, XFS_DIR2_BLOCK_MAGIC, XFS_DIR3_BLOCK_MAGIC) ?
		    "Bad dir block magic!" : NULL;
		break;
	case XFS_BLFT_DIR_DATA_BUF:
		w = !is_m32(m32, XFS_DIR2_DATA_MAGIC, XFS_DIR3_DATA_MAGIC) ?
		    "Bad dir data magic!" : NULL;
		break;
	case XFS_BLFT_DIR_FREE_BUF:
		w = !is_m32(m32, XFS_DIR2_FREE_MAGIC, XFS_DIR3_FREE_MAGIC) ?
		    "Bad dir3 free magic!" : NULL;
		break;
	case XFS_BLFT_DIR_LEAF1_BUF:
		w = !is_m32(mda, XFS_DIR2_LEAF1_MAGIC, XFS_DIR3_LEAF1_MAGIC) ?
		    "Bad dir leaf1 magic!" : NULL;
		break;
	case XFS_BLFT_DIR_LEAFN_BUF:
		w = !is_m32(mda, XFS_DIR2_LEAFN_MAGIC, XFS_DIR3_LEAFN_MAGIC) ?
		    "Bad dir leafn magic!" : NULL;
		break;
	case XFS_BLFT_DA_NODE_BUF:
		w = !is_m32(mda, XFS_DA_NODE_MAGIC, XFS_DA3_NODE_MAGIC) ?
		    "Bad da node magic!" : NULL;
		break;
	case XFS_BLFT_ATTR_LEAF_BUF:
		w = !is_m32(mda, XFS_ATTR_LEAF_MAGIC, XFS_ATTR3_LEAF_MAGIC) ?
		    "Bad attr leaf magic!" : NULL;
		break;
	case XFS_BLFT_ATTR_RMT_BUF:
		w = m32 != XFS_ATTR3_RMT_MAGIC ? "Bad attr remote magic!" : NULL;
		break;
	case XFS_BLFT_SB_BUF:
		w = m32 != XFS_SB_MAGIC ? "Bad SB block magic!" : NULL;
		break;
	case XFS_BLFT_RTBITMAP_BUF:
		w = g->has_rtgroups && m32 != XFS_RTBITMAP_MAGIC ? "Bad rtbitmap magic!" : NULL;
		break;
	case XFS_BLFT_RTSUMMARY_BUF:
		w = g->has_rtgroups && m32 != XFS_RTSUMMARY_MAGIC ? "Bad rtsummary magic!" : NULL;
		break;
	default:
		*warn = "Unknown buffer type!";
		return XLS_BLK_TYPE_UNKNOWN;
	}
	*warn = w;
	return w ? XLS_BLK_TYPE_BAD_MAGIC : XLS_BLK_TYPE_OPS;
}

uint64_t xls_blk_header_daddr(unsigned int blft, const uint8_t *head)
{
	bool da3 = blft == XFS_BLFT_DIR_LEAF1_BUF || blft == XFS_BLFT_DIR_LEAFN_BUF ||
		   blft == XFS_BLFT_DA_NODE_BUF;

	return da3 ? xls_be64(head + DA3(blkno)) : xls_be64(head + DIR3(blkno));
}
