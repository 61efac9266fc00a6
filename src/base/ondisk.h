/*
 * On-disk structures of the XFS log, as shipped by xfsprogs (xfslibs-dev),
 * plus byte-order helpers and the few constants that are newer than the
 * installed headers.  Nothing here redefines a structure the headers define.
 */
#ifndef XLS_ONDISK_H
#define XLS_ONDISK_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <assert.h>

#include <xfs/xfs.h>
#include <xfs/xfs_log_format.h>
#include <xfs/xfs_format.h>

/* Pin the layouts this tool reads by offset; a mismatch is a build error. */
static_assert(sizeof(xlog_rec_header_t) == 328, "xlog_rec_header size");
static_assert(sizeof(xlog_rec_ext_header_t) == 260, "xlog_rec_ext_header size");
static_assert(sizeof(xlog_op_header_t) == 12, "xlog_op_header size");
static_assert(sizeof(struct xfs_trans_header) == 16, "xfs_trans_header size");
static_assert(sizeof(struct xfs_buf_log_format) == 88, "xfs_buf_log_format size");
static_assert(sizeof(struct xfs_inode_log_format) == 56, "xfs_inode_log_format size");
static_assert(sizeof(struct xfs_inode_log_format_32) == 52, "xfs_inode_log_format_32 size");
static_assert(sizeof(struct xfs_dsb) == 264, "xfs_dsb size");
static_assert(XFS_BLF_DATAMAP_SIZE == 17, "blf_data_map words");

/*
 * The inode core is read field by field at these offsets (items/item_inode.c,
 * recover/inode_recover.c): the layout the kernel logs, which is the
 * on-disk dinode's up to di_uuid.  Pinned as xfs_ondisk.h pins the kernel's.
 */
#define XLS_PIN_LDI(f, off) \
	static_assert(offsetof(struct xfs_log_dinode, f) == (off), "xfs_log_dinode " #f)
XLS_PIN_LDI(di_magic, 0);
XLS_PIN_LDI(di_mode, 2);
XLS_PIN_LDI(di_version, 4);
XLS_PIN_LDI(di_format, 5);
XLS_PIN_LDI(di_pad3, 6);
XLS_PIN_LDI(di_uid, 8);
XLS_PIN_LDI(di_gid, 12);
XLS_PIN_LDI(di_nlink, 16);
XLS_PIN_LDI(di_projid_lo, 20);
XLS_PIN_LDI(di_projid_hi, 22);
XLS_PIN_LDI(di_big_nextents, 24);
XLS_PIN_LDI(di_flushiter, 30);
XLS_PIN_LDI(di_atime, 32);
XLS_PIN_LDI(di_mtime, 40);
XLS_PIN_LDI(di_ctime, 48);
XLS_PIN_LDI(di_size, 56);
XLS_PIN_LDI(di_nblocks, 64);
XLS_PIN_LDI(di_extsize, 72);
XLS_PIN_LDI(di_nextents, 76);
XLS_PIN_LDI(di_anextents, 80);
XLS_PIN_LDI(di_forkoff, 82);
XLS_PIN_LDI(di_aformat, 83);
XLS_PIN_LDI(di_dmevmask, 84);
XLS_PIN_LDI(di_dmstate, 88);
XLS_PIN_LDI(di_flags, 90);
XLS_PIN_LDI(di_gen, 92);
XLS_PIN_LDI(di_next_unlinked, 96);	/* where a v2 core ends */
XLS_PIN_LDI(di_crc, 100);
XLS_PIN_LDI(di_changecount, 104);
XLS_PIN_LDI(di_lsn, 112);
XLS_PIN_LDI(di_flags2, 120);
XLS_PIN_LDI(di_cowextsize, 128);
XLS_PIN_LDI(di_crtime, 144);
XLS_PIN_LDI(di_ino, 152);
XLS_PIN_LDI(di_uuid, 160);
static_assert(sizeof(struct xfs_log_dinode) == 176, "xfs_log_dinode size");
#undef XLS_PIN_LDI

/* Item types newer than some installed headers (xfsprogs 6.1 stops at ATTRD). */
#ifndef XFS_LI_XMI
#define XFS_LI_XMI		0x1248	/* mapping exchange intent */
#endif
#ifndef XFS_LI_XMD
#define XFS_LI_XMD		0x1249	/* mapping exchange done */
#endif
#ifndef XFS_LI_EFI_RT
#define XFS_LI_EFI_RT		0x124a
#endif
#ifndef XFS_LI_EFD_RT
#define XFS_LI_EFD_RT		0x124b
#endif
#ifndef XFS_LI_RUI_RT
#define XFS_LI_RUI_RT		0x124c
#endif
#ifndef XFS_LI_RUD_RT
#define XFS_LI_RUD_RT		0x124d
#endif
#ifndef XFS_LI_CUI_RT
#define XFS_LI_CUI_RT		0x124e
#endif
#ifndef XFS_LI_CUD_RT
#define XFS_LI_CUD_RT		0x124f
#endif
#ifndef XFS_ATTRI_OP_FLAGS_PPTR_SET
#define XFS_ATTRI_OP_FLAGS_PPTR_SET	4
#endif
#ifndef XFS_ATTRI_OP_FLAGS_PPTR_REMOVE
#define XFS_ATTRI_OP_FLAGS_PPTR_REMOVE	5
#endif
#ifndef XFS_ATTRI_OP_FLAGS_PPTR_REPLACE
#define XFS_ATTRI_OP_FLAGS_PPTR_REPLACE	6
#endif
/*
 * Superblock features newer than xfsprogs 6.1 (Linux 6.10, 6.13): parent
 * pointers, and the metadata directory tree that rtgroups come with
 * (xfs_has_rtgroups).
 */
#ifndef XFS_SB_FEAT_INCOMPAT_PARENT
#define XFS_SB_FEAT_INCOMPAT_PARENT	(1u << 7)
#endif
#ifndef XFS_SB_FEAT_INCOMPAT_METADIR
#define XFS_SB_FEAT_INCOMPAT_METADIR	(1u << 8)
#endif
/* The parent pointer attr namespace (Linux 6.10, xfs_da_format.h). */
#ifndef XFS_ATTR_PARENT
#define XFS_ATTR_PARENT		(1u << 3)
#endif

/* BUI mapping types (xfs_bmap_intent_type, in the kernel's xfs_bmap.h). */
#ifndef XFS_BMAP_MAP
#define XFS_BMAP_MAP		1
#endif
#ifndef XFS_BMAP_UNMAP
#define XFS_BMAP_UNMAP		2
#endif
#ifndef XLOG_REC_SIZE
/* bytes of xlog_rec_header covered by the record CRC (up to h_size) */
#define XLOG_REC_SIZE		offsetof(struct xlog_rec_header, h_size) + 4
#endif

/*
 * xfs_metadump files (xfsprogs include/xfs_metadump.h, which xfslibs-dev
 * does not install).  v1: index blocks of 1 << mb_blocklog bytes --
 * be32 mb_magic, be16 mb_count, u8 mb_blocklog, u8 mb_info, then mb_count
 * be64 daddrs, each of a block that follows the index block.  v2: struct
 * xfs_metadump_header (be32 xmh_magic, xmh_version, xmh_compat_flags,
 * xmh_incompat_flags, be64 xmh_reserved), then struct xfs_meta_extent
 * (be64 xme_addr, be32 xme_len in 512-byte units), each followed by its
 * blocks.  Neither header is defined by the installed headers, so their
 * fields are read at these offsets.
 */
#ifndef XFS_MD_MAGIC_V1
#define XFS_MD_MAGIC_V1			0x5846534d	/* 'XFSM' */
#define XFS_MD_MAGIC_V2			0x584D4432	/* 'XMD2' */
#define XFS_METADUMP_INFO_FLAGS		(1 << 0)
#define XFS_METADUMP_OBFUSCATED		(1 << 1)
#define XFS_METADUMP_FULLBLOCKS		(1 << 2)
#define XFS_METADUMP_DIRTYLOG		(1 << 3)
#define XFS_MD2_COMPAT_OBFUSCATED	(1 << 0)
#define XFS_MD2_COMPAT_FULLBLOCKS	(1 << 1)
#define XFS_MD2_COMPAT_DIRTYLOG		(1 << 2)
#define XFS_MD2_COMPAT_EXTERNALLOG	(1 << 3)
#define XFS_MD2_INCOMPAT_RTDEVICE	(1U << 0)
#define XFS_MD2_INCOMPAT_ALL		(XFS_MD2_INCOMPAT_RTDEVICE)
#define XME_ADDR_DEVICE_SHIFT		54
#define XME_ADDR_DADDR_MASK		((1ULL << XME_ADDR_DEVICE_SHIFT) - 1)
#define XME_ADDR_DATA_DEVICE		(0ULL << XME_ADDR_DEVICE_SHIFT)
#define XME_ADDR_LOG_DEVICE		(1ULL << XME_ADDR_DEVICE_SHIFT)
#define XME_ADDR_RT_DEVICE		(2ULL << XME_ADDR_DEVICE_SHIFT)
#define XME_ADDR_DEVICE_MASK		(3ULL << XME_ADDR_DEVICE_SHIFT)
#endif
#define XLS_MB_MAGIC_OFF		0	/* xfs_metablock: mb_magic */
#define XLS_MB_COUNT_OFF		4	/* mb_count */
#define XLS_MB_BLOCKLOG_OFF		6	/* mb_blocklog */
#define XLS_MB_INFO_OFF			7	/* mb_info */
#define XLS_MB_HDR_BYTES		8	/* then the daddrs */
#define XLS_XMH_BYTES			24	/* sizeof(struct xfs_metadump_header) */
#define XLS_XME_BYTES			12	/* sizeof(struct xfs_meta_extent) */

/* Recovery refuses an item with more regions than a 64 KiB buffer can log. */
#define XLS_MAX_REGIONS_IN_ITEM	(XFS_MAX_BLOCKSIZE / XFS_BLF_CHUNK / 2 + 1)

/* One bitmap word per 32 chunks of 128 bytes. */
#define XLS_BLF_BITS_PER_WORD	32

/*
 * Unaligned, explicit-endian loads.  Log regions are not naturally aligned
 * (Dave Chinner, linux-xfs 2024), so every field is read through memcpy.
 */
static inline uint32_t xls_load32(const void *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t xls_load64(const void *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint16_t xls_load16(const void *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define XLS_HOST_LE 1
#else
#define XLS_HOST_LE 0
#endif

static inline uint16_t xls_be16(const void *p)
{
	return XLS_HOST_LE ? __builtin_bswap16(xls_load16(p)) : xls_load16(p);
}
static inline uint32_t xls_be32(const void *p)
{
	return XLS_HOST_LE ? __builtin_bswap32(xls_load32(p)) : xls_load32(p);
}
static inline uint64_t xls_be64(const void *p)
{
	return XLS_HOST_LE ? __builtin_bswap64(xls_load64(p)) : xls_load64(p);
}
/* Big-endian stores, byte by byte: the on-disk fields recovery writes. */
static inline void xls_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}
static inline void xls_put_be32(uint8_t *p, uint32_t v)
{
	xls_put_be16(p, (uint16_t)(v >> 16));
	xls_put_be16(p + 2, (uint16_t)v);
}
static inline void xls_put_be64(uint8_t *p, uint64_t v)
{
	xls_put_be32(p, (uint32_t)(v >> 32));
	xls_put_be32(p + 4, (uint32_t)v);
}
static inline uint16_t xls_le16(const void *p)
{
	return XLS_HOST_LE ? xls_load16(p) : __builtin_bswap16(xls_load16(p));
}
static inline uint32_t xls_le32(const void *p)
{
	return XLS_HOST_LE ? xls_load32(p) : __builtin_bswap32(xls_load32(p));
}
static inline uint64_t xls_le64(const void *p)
{
	return XLS_HOST_LE ? xls_load64(p) : __builtin_bswap64(xls_load64(p));
}

/*
 * Item payloads are in the byte order of the CPU that wrote them; which one
 * is told by the item type magic (0x12xx) in the first 16 bits.
 */
enum xls_endian {
	XLS_LITTLE_ENDIAN = 0,
	XLS_BIG_ENDIAN = 1,
};

static inline uint16_t xls_get16(enum xls_endian e, const void *p)
{
	return e == XLS_BIG_ENDIAN ? xls_be16(p) : xls_le16(p);
}
static inline uint32_t xls_get32(enum xls_endian e, const void *p)
{
	return e == XLS_BIG_ENDIAN ? xls_be32(p) : xls_le32(p);
}
static inline uint64_t xls_get64(enum xls_endian e, const void *p)
{
	return e == XLS_BIG_ENDIAN ? xls_be64(p) : xls_le64(p);
}

/* LSN helpers: cycle in the high 32 bits, block in the low 32. */
static inline uint32_t xls_lsn_cycle(uint64_t lsn) { return (uint32_t)(lsn >> 32); }
static inline uint32_t xls_lsn_block(uint64_t lsn) { return (uint32_t)lsn; }
static inline uint64_t xls_lsn(uint32_t cycle, uint32_t block)
{
	return ((uint64_t)cycle << 32) | block;
}

#endif /* XLS_ONDISK_H */
