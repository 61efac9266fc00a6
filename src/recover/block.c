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

/*
 * The kernel's names for a block's verifier (b_ops->name, and the
 * functions whose address a verifier failure logs: the read verifier's for
 * a bad CRC, the structure check's for corruption).
 */
#define VFY_AS(ops, fn) \
	{ "xfs_" ops, "xfs_" fn "_read_verify", "xfs_" fn "_verify" }
#define VFY(ops)	VFY_AS(ops, ops)

static const struct {
	uint32_t			magic;
	const char			*name;
	struct xls_blk_verifier		verifier;
	uint32_t			lsn_off, uuid_off, crc_off, blkno_off;
} magic32_table[] = {
	{ XFS_RTBITMAP_MAGIC,	"rtbitmap", { NULL, NULL, NULL },	RTBUF_LSN_OFF, RTBUF_UUID_OFF, 4, 16 },
	{ XFS_RTSUMMARY_MAGIC,	"rtsummary", { NULL, NULL, NULL },	RTBUF_LSN_OFF, RTBUF_UUID_OFF, 4, 16 },
	{ XFS_ABTB_CRC_MAGIC,	"AB3B", VFY_AS("bnobt", "allocbt"),	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_ABTC_CRC_MAGIC,	"AB3C", VFY_AS("cntbt", "allocbt"),	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_ABTB_MAGIC,	"ABTB", VFY_AS("bnobt", "allocbt"),	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_ABTC_MAGIC,	"ABTC", VFY_AS("cntbt", "allocbt"),	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_RMAP_CRC_MAGIC,	"RMB3", VFY("rmapbt"),	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_REFC_CRC_MAGIC,	"R3FC", VFY("refcountbt"),	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_FIBT_CRC_MAGIC,	"FIB3", VFY_AS("finobt", "inobt"),	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_FIBT_MAGIC,	"FIBT", VFY_AS("finobt", "inobt"),	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_IBT_CRC_MAGIC,	"IAB3", VFY("inobt"),	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_IBT_MAGIC,	"IABT", VFY("inobt"),	BTS(bb_lsn), BTS(bb_uuid), BTS(bb_crc), BTS(bb_blkno) },
	{ XFS_RTRMAP_CRC_MAGIC,	"MAPR", VFY("rtrmapbt"),	BTL(bb_lsn), BTL(bb_uuid), BTL(bb_crc), BTL(bb_blkno) },
	{ XFS_RTREFC_CRC_MAGIC,	"RCNT", VFY("rtrefcountbt"),	BTL(bb_lsn), BTL(bb_uuid), BTL(bb_crc), BTL(bb_blkno) },
	{ XFS_BMAP_CRC_MAGIC,	"BMA3", VFY("bmbt"),	BTL(bb_lsn), BTL(bb_uuid), BTL(bb_crc), BTL(bb_blkno) },
	{ XFS_BMAP_MAGIC,	"BMAP", VFY("bmbt"),	BTL(bb_lsn), BTL(bb_uuid), BTL(bb_crc), BTL(bb_blkno) },
	{ XFS_AGF_MAGIC,	"XAGF", VFY("agf"),	offsetof(struct xfs_agf, agf_lsn),
					offsetof(struct xfs_agf, agf_uuid),
					offsetof(struct xfs_agf, agf_crc), 0 },
	{ XFS_AGFL_MAGIC,	"XAFL", VFY("agfl"),	offsetof(struct xfs_agfl, agfl_lsn),
					offsetof(struct xfs_agfl, agfl_uuid),
					offsetof(struct xfs_agfl, agfl_crc), 0 },
	{ XFS_AGI_MAGIC,	"XAGI", VFY("agi"),	offsetof(struct xfs_agi, agi_lsn),
					offsetof(struct xfs_agi, agi_uuid),
					offsetof(struct xfs_agi, agi_crc), 0 },
	{ XFS_SYMLINK_MAGIC,	"XSLM", VFY("symlink"),	offsetof(struct xfs_dsymlink_hdr, sl_lsn),
					offsetof(struct xfs_dsymlink_hdr, sl_uuid),
					offsetof(struct xfs_dsymlink_hdr, sl_crc),
					offsetof(struct xfs_dsymlink_hdr, sl_blkno) },
	{ XFS_DIR3_BLOCK_MAGIC,	"XDB3", VFY("dir3_block"),	DIR3(lsn), DIR3(uuid), DIR3(crc), DIR3(blkno) },
	{ XFS_DIR3_DATA_MAGIC,	"XDD3", VFY("dir3_data"),	DIR3(lsn), DIR3(uuid), DIR3(crc), DIR3(blkno) },
	{ XFS_DIR3_FREE_MAGIC,	"XDF3", VFY("dir3_free"),	DIR3(lsn), DIR3(uuid), DIR3(crc), DIR3(blkno) },
};

static const struct {
	uint16_t			magic;
	const char			*name;
	struct xls_blk_verifier		verifier;
} magicda_table[] = {
	{ XFS_DIR3_LEAF1_MAGIC,	"3DF1", VFY_AS("dir3_leaf1", "dir3_leaf") },
	{ XFS_DIR3_LEAFN_MAGIC,	"3DFF", VFY_AS("dir3_leafn", "dir3_leaf") },
	{ XFS_ATTR3_LEAF_MAGIC,	"3BEE", VFY("attr3_leaf") },
	{ XFS_DA3_NODE_MAGIC,	"3EBE", VFY("da3_node") },
};

static const struct xls_blk_verifier attr3_rmt_verifier = VFY("attr3_rmt");
static const struct xls_blk_verifier sb_verifier = {
	"xfs_sb", "xfs_sb_read_verify", "xfs_sb_write_verify"
};
static const struct xls_blk_verifier dquot_verifier = {
	"xfs_dquot", "xfs_dquot_buf_read_verify", "xfs_dquot_buf_verify"
};
static const struct xls_blk_verifier dinode_verifier = {
	"xfs_inode", "xfs_inode_buf_read_verify", "xfs_inode_buf_verify"
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
		id->verifier = &magic32_table[i].verifier;
		id->lsn_off = magic32_table[i].lsn_off;
		id->uuid_off = magic32_table[i].uuid_off;
		id->crc_off = magic32_table[i].crc_off;
		id->blkno_off = magic32_table[i].blkno_off;
		goto check;
	}
	if (m32 == XFS_ATTR3_RMT_MAGIC) {
		id->kind = BLK_ATTR_RMT;
		id->name = "XARM";
		id->verifier = &attr3_rmt_verifier;
		return;
	}
	if (m32 == XFS_SB_MAGIC) {
		id->kind = BLK_LSN;
		id->name = "XFSB";
		id->verifier = &sb_verifier;
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
		id->verifier = &magicda_table[i].verifier;
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
		id->verifier = m16 == XFS_DQUOT_MAGIC ? &dquot_verifier : &dinode_verifier;
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

void xls_blk_verifier_says(const struct blk_id *id, int64_t blkno, bool crc, char *buf,
			   size_t size)
{
	const struct xls_blk_verifier *v = id->verifier;

	if (v && v->ops)
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

unsigned int xls_blk_log_type(const struct xls_geometry *g, const uint8_t *blk, uint32_t len)
{
	/* the types a magic tells; dquot and rt blocks are not told by it alone */
	static const unsigned int types[] = {
		XFS_BLFT_SB_BUF, XFS_BLFT_AGF_BUF, XFS_BLFT_AGFL_BUF, XFS_BLFT_AGI_BUF,
		XFS_BLFT_BTREE_BUF, XFS_BLFT_DINO_BUF, XFS_BLFT_SYMLINK_BUF,
		XFS_BLFT_DIR_BLOCK_BUF, XFS_BLFT_DIR_DATA_BUF, XFS_BLFT_DIR_FREE_BUF,
		XFS_BLFT_DIR_LEAF1_BUF, XFS_BLFT_DIR_LEAFN_BUF, XFS_BLFT_DA_NODE_BUF,
		XFS_BLFT_ATTR_LEAF_BUF, XFS_BLFT_ATTR_RMT_BUF,
	};
	const char *warn;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (xls_blk_validate_type(g, types[i], blk, len, &warn) == XLS_BLK_TYPE_OPS)
			return types[i];
	return XFS_BLFT_UNKNOWN_BUF;
}

uint64_t xls_blk_header_daddr(unsigned int blft, const uint8_t *head)
{
	bool da3 = blft == XFS_BLFT_DIR_LEAF1_BUF || blft == XFS_BLFT_DIR_LEAFN_BUF ||
		   blft == XFS_BLFT_DA_NODE_BUF;

	return da3 ? xls_be64(head + DA3(blkno)) : xls_be64(head + DIR3(blkno));
}

/* ------------------------------------------------------------------ */
/*
 * What recovery writes into an inode cluster's bytes, below the items
 * that write it: recovery's simulated heads (writeback.c) and the image
 * writers (replay) as much as inode_recover.c.
 */

#define DI(f)	offsetof(struct xfs_dinode, f)

void xls_recover_inode_crc(uint8_t *buf, uint32_t len, uint32_t inodesize,
			   uint32_t slot)
{
	uint64_t off = (uint64_t)slot * inodesize;
	uint8_t *dip;
	uint32_t crc;

	if (!inodesize || off + inodesize > len || inodesize < sizeof(struct xfs_dinode))
		return;
	dip = buf + off;
	if (xls_be16(dip) != XFS_DINODE_MAGIC ||
	    dip[offsetof(struct xfs_dinode, di_version)] < 3)
		return;
	/* xfs_update_cksum: crc32c with the field zeroed, stored inverted, LE */
	memset(dip + XFS_DINODE_CRC_OFF, 0, 4);
	crc = xls_crc32c(dip, inodesize);
	for (int b = 0; b < 4; b++)
		dip[XFS_DINODE_CRC_OFF + b] = (uint8_t)(crc >> (8 * b));
}

void xls_recover_init_inodes(const struct xls_geometry *g, const struct xls_ricreate *ic,
			     uint32_t index, uint8_t *buf, uint32_t len)
{
	uint32_t agbno = ic->agbno + index * g->inode_cluster_blocks;
	uint32_t per_cluster = (g->inode_cluster_blocks << g->block_log) >> g->inode_log;
	uint64_t ino = ((uint64_t)ic->ag << (g->ag_block_log + g->inopb_log)) |
		       ((uint64_t)agbno << g->inopb_log);
	uint32_t isize = g->inode_size;

	memset(buf, 0, len);
	if (!isize)
		return;
	for (uint32_t i = 0; i < per_cluster && (uint64_t)i * isize < len; i++) {
		uint8_t *dip = buf + (size_t)i * isize;
		uint32_t room = len - i * isize;

		if (room >= DI(di_version) + 1) {
			xls_put_be16(dip + DI(di_magic), XFS_DINODE_MAGIC);
			dip[DI(di_version)] = g->crc ? 3 : 2;
		}
		if (room < isize)
			continue;
		xls_put_be32(dip + DI(di_gen), ic->gen);
		xls_put_be32(dip + DI(di_next_unlinked), NULL_AGINO);
		if (g->crc) {
			xls_put_be64(dip + DI(di_ino), ino + i);
			memcpy(dip + DI(di_uuid), g->meta_uuid, 16);
			xls_recover_inode_crc(buf, len, isize, i);
		}
	}
}
