/*
 * Items stage: one log item of a transaction (its regions as reassembled by
 * the trans stage) decoded into a typed struct of its family.  This is the
 * one place an item payload is parsed: every later stage (analysis,
 * recovery, the report) reads these structs, never the regions' bytes.
 *
 * Each family has a parse function that bounds-checks every length it
 * reads and says which check failed, as sentences in the item's problems
 * (recovery would refuse most of these items; decoding goes on).  Unknown
 * types are named by number, never fatal.
 */
#ifndef XLS_ITEM_H
#define XLS_ITEM_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "base/flags.h"
#include "base/ondisk.h"

/* One logged region (iovec) of an item, with continued ops already joined. */
struct xls_region {
	const uint8_t	*data;
	uint32_t	len;
};

struct xls_item {
	uint16_t		type;		/* XFS_LI_*, in payload byte order */
	uint16_t		size;		/* region count the format declares */
	enum xls_endian		endian;		/* byte order of the payload */
	uint32_t		nregions;	/* regions actually present */
	const struct xls_region	*regions;	/* regions[0] is the format */
	uint64_t		op_bytes;	/* op headers that carried the regions */
};

/* ------------------------------------------------------------------ */
/* the item types: one table */

enum xls_item_family {
	XLS_FAMILY_NONE,	/* no decoder (iunlink: never logged) */
	XLS_FAMILY_BUF,
	XLS_FAMILY_INODE,
	XLS_FAMILY_FREE_EXTENTS,	/* efi, efd (and _rt) */
	XLS_FAMILY_MAP_EXTENTS,	/* rui (rmap) and bui (bmap) */
	XLS_FAMILY_PHYS_EXTENTS,	/* cui (refcount) */
	XLS_FAMILY_DONE,	/* rud, cud, bud, xmd, attrd: the intent's id */
	XLS_FAMILY_ATTRI,
	XLS_FAMILY_XMI,
	XLS_FAMILY_DQUOT,
	XLS_FAMILY_QUOTAOFF,
	XLS_FAMILY_ICREATE,
	XLS_FAMILY_COUNT
};

enum xls_item_role {
	XLS_ROLE_ITEM,		/* replayed by itself */
	XLS_ROLE_INTENT,	/* stays pending until its done item */
	XLS_ROLE_DONE,		/* releases its intent */
};

struct xls_item_type {
	uint16_t		type;	/* XFS_LI_* */
	const char		*name;	/* "efi_rt" */
	enum xls_item_family	family;
	enum xls_item_role	role;
	uint16_t		pair;	/* an intent's done type, a done item's intent */
	/* xlog_recover_item_ops[] knows it; any other fails recovery's reorder */
	bool			recovers;
};

/* The type @type, or NULL when no XFS_LI_* has that number. */
const struct xls_item_type *xls_item_type_find(uint16_t type);

/* Short lower-case name of an XFS_LI_* type ("buf", "efi_rt"), or NULL. */
const char *xls_item_type_name(uint16_t type);

/*
 * Read the item type from the first 16 bits of a format region in whichever
 * byte order makes it a known XFS_LI_* magic.  Returns 0 and sets @type and
 * @endian, or -1 when neither order gives a known type (@type is then the
 * little-endian reading and @endian little).
 */
int xls_item_detect(const uint8_t *p, uint32_t len, uint16_t *type,
		    enum xls_endian *endian);

/*
 * The id intents and done items carry at byte 8 of their format (efi_id,
 * efd_efi_id, rui_id, ..., alfi_id, xmi_id): false when the region is
 * shorter than 16 bytes.
 */
bool xls_item_intent_id(const struct xls_item *it, uint64_t *id);

/* ------------------------------------------------------------------ */
/* problems: the checks an item failed, as one text */

#define XLS_PROBLEMS_MAX	512

struct xls_item_problems {
	uint32_t	count;
	size_t		len;
	char		text[XLS_PROBLEMS_MAX];	/* sentences joined by "; " */
};

/* Add a problem (printf-style); the text is cut at XLS_PROBLEMS_MAX. */
void xls_item_problem(struct xls_item_problems *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------------ */
/* the families */

/* XFS_LI_BUF: the buffer log format in host order, as recovery reads it. */
struct xls_buf_format {
	uint16_t	blf_type;
	uint16_t	blf_size;
	uint16_t	blf_flags;
	uint16_t	blf_len;		/* 512-byte basic blocks */
	int64_t		blf_blkno;		/* daddr */
	uint32_t	blf_map_size;		/* words, as logged */
	uint32_t	map_words;		/* words present in the region (<= 17) */
	uint32_t	blf_data_map[XFS_BLF_DATAMAP_SIZE];	/* zero past map_words */
	uint32_t	fmt_len;		/* bytes of the format region */
	bool		parsed;			/* the fixed part could be read */
};

/*
 * Parse regions[0] of a buffer item.  Returns 0, or -1 with @why set to a
 * static sentence when the region cannot hold the fixed part of the format.
 * A bitmap shorter than blf_map_size, or blf_map_size beyond 17 words, is
 * not an error here: map_words says how much was read, and the analysis
 * stage reports it.
 */
int xls_buf_format_parse(const struct xls_item *it, struct xls_buf_format *out,
			 const char **why);

/* xfs_buf_log_check_iovec: the region holds blf_map_size words of bitmap. */
bool xls_buf_format_iovec_ok(const struct xls_buf_format *bf);

/* Buffer type (XFS_BLFT_*) from blf_flags. */
static inline unsigned int xls_blft(uint16_t blf_flags)
{
	return (blf_flags & XFS_BLFT_MASK) >> XFS_BLFT_SHIFT;
}

/* Lower-case name of a buffer type ("dir_data", "agf"), "blft_N" if unknown. */
const char *xls_blft_name(unsigned int blft);
/*
 * The buffer types a spelling names, as a mask of 1 << XFS_BLFT_*: our
 * names ("dir_data"), the kernel's (XFS_BLFT_DIR_DATA_BUF, DIR_DATA_BUF),
 * and those xfs_logprint and xfs_db use for a kind of block ("super
 * block", "inode", "dquot", "bmbt"...), in any case.  0: none.
 */
uint32_t xls_blft_parse(const char *spelling);

/* "inode_buf|cancel|..." names of the low blf_flags bits into @buf. */
void xls_blf_flags_str(uint16_t blf_flags, char *buf, size_t bufsz);

/* A timestamp of the log dinode: both readings of its 64 bits. */
struct xls_log_ts {
	uint64_t	v;		/* bigtime: nanoseconds since 1901 */
	int32_t		sec, nsec;	/* struct xfs_log_legacy_timestamp */
};

/*
 * struct xfs_log_dinode, every field in host order.  A field the region
 * does not reach reads as 0; len says how long the region was.
 */
struct xls_log_dinode {
	uint32_t	len;
	uint16_t	di_magic;
	uint16_t	di_mode;
	int8_t		di_version;
	int8_t		di_format;
	uint16_t	di_metatype;	/* di_pad3: di_onlink, di_metatype on disk */
	uint32_t	di_uid;
	uint32_t	di_gid;
	uint32_t	di_nlink;
	uint16_t	di_projid_lo;
	uint16_t	di_projid_hi;
	uint64_t	di_big_nextents;	/* union: di_v3_pad, di_v2_pad + */
	uint16_t	di_flushiter;		/* di_flushiter */
	struct xls_log_ts di_atime, di_mtime, di_ctime;
	int64_t		di_size;
	uint64_t	di_nblocks;
	uint32_t	di_extsize;
	uint32_t	di_nextents;		/* union: di_big_anextents */
	uint16_t	di_anextents;		/* union: di_nrext64_pad */
	uint8_t		di_forkoff;
	int8_t		di_aformat;
	uint32_t	di_dmevmask;
	uint16_t	di_dmstate;
	uint16_t	di_flags;
	uint32_t	di_gen;
	uint32_t	di_next_unlinked;
	uint32_t	di_crc;
	uint64_t	di_changecount;
	uint64_t	di_lsn;
	uint64_t	di_flags2;
	uint32_t	di_cowextsize;
	struct xls_log_ts di_crtime;
	uint64_t	di_ino;
	uint8_t		di_uuid[16];
};

/* A v1/v2 core ends at di_next_unlinked (xfs_log_dinode_size()). */
#define XLS_LOG_DINODE_V2_SIZE	offsetof(struct xfs_log_dinode, di_next_unlinked)
#define XLS_LOG_DINODE_V3_SIZE	sizeof(struct xfs_log_dinode)

/* Data fork extents of the core: di_big_nextents on NREXT64 inodes. */
uint64_t xls_log_dinode_nextents(const struct xls_log_dinode *d);
uint64_t xls_log_dinode_anextents(const struct xls_log_dinode *d);
/* di_flags2 as the kernel takes it: 0 below v3. */
uint64_t xls_log_dinode_flags2(const struct xls_log_dinode *d);

/*
 * XFS_LI_INODE: struct xfs_inode_log_format (56 bytes) or its packed i386
 * layout (52 bytes), then the log dinode and the forks ilf_fields names.
 */
struct xls_inode_item {
	bool		has_format;	/* the format region holds a layout */
	bool		format_exact;	/* ... and is exactly 56 or 52 bytes */
	bool		layout32;	/* struct xfs_inode_log_format_32 */
	uint32_t	fmt_len;
	uint32_t	ilf_fields;
	uint16_t	ilf_asize;
	uint16_t	ilf_dsize;
	uint64_t	ilf_ino;
	uint32_t	ilf_rdev;	/* ilf_u.ilfu_rdev */
	int64_t		ilf_blkno;
	int32_t		ilf_len;
	int32_t		ilf_boffset;
	bool		has_core;	/* region 1 is there */
	bool		core_v2;	/* ... and holds at least a v2 core */
	bool		core_v3;	/* ... and a whole v3 core */
	struct xls_log_dinode core;
	const struct xls_region *data_fork;	/* ilf_fields & XFS_ILOG_DFORK */
	const struct xls_region *attr_fork;	/* ilf_fields & XFS_ILOG_AFORK */
	uint32_t	nregions;	/* as logged */
	const struct xls_region *regions;
};

/*
 * What an inode item logs, without decoding the core: the inode number and
 * the core, data fork and attr fork regions as ilf_fields places them
 * (NULL when not logged or not present).
 */
struct xls_inode_parts {
	uint64_t		ilf_ino;
	uint32_t		ilf_fields;
	const struct xls_region	*core;
	const struct xls_region	*data_fork;
	const struct xls_region	*attr_fork;
};

/* One extent of an EFI or EFD (struct xfs_extent_64 or _32). */
struct xls_free_extent {
	uint64_t	start;
	uint32_t	len;
};

/* One extent of an RUI or BUI (struct xfs_map_extent). */
struct xls_map_extent {
	uint64_t	owner;		/* RUI: owner or XFS_RMAP_OWN_*; BUI: inode */
	uint64_t	startblock;
	uint64_t	startoff;
	uint32_t	len;
	uint32_t	flags;
};

/* One extent of a CUI (struct xfs_phys_extent). */
struct xls_phys_extent {
	uint64_t	startblock;
	uint32_t	len;
	uint32_t	flags;
};

/*
 * EFI/EFD, RUI/BUI, CUI: u16 type, u16 size, u32 nextents, u64 id, then
 * the extents.  count extents can be read; get them with
 * xls_extent_item_{free,map,phys}().
 */
struct xls_extent_item {
	bool		has_header;	/* the region holds the 16 bytes above */
	uint64_t	id;		/* the intent's id; EFD: efd_efi_id */
	uint32_t	nextents;	/* as declared */
	uint32_t	count;		/* as many as the region holds, <= nextents */
	uint32_t	stride;		/* bytes per extent */
	bool		layout32;	/* EFI/EFD: 12-byte i386 extents */
	bool		bad_type;	/* an extent with an unknown type code */
	bool		bad_flags;	/* an extent with unknown flag bits */
	const struct xls_region	*fmt;
	enum xls_endian	endian;
};

void xls_extent_item_free(const struct xls_extent_item *x, uint32_t i,
			  struct xls_free_extent *out);
void xls_extent_item_map(const struct xls_extent_item *x, uint32_t i,
			 struct xls_map_extent *out);
void xls_extent_item_phys(const struct xls_extent_item *x, uint32_t i,
			  struct xls_phys_extent *out);

/* RUD, CUD, BUD, XMD, ATTRD: {u16 type, u16 size, u32 pad, u64 id}. */
struct xls_done_item {
	bool		has_id;
	uint64_t	id;		/* the intent's id */
};

/* ATTRI: struct xfs_attri_log_format, then names and values. */
struct xls_attri_item {
	bool		has_format;
	uint64_t	id;
	uint64_t	ino;
	uint32_t	igen;		/* Linux 6.10+, __pad before */
	uint32_t	op_flags;
	uint32_t	op;		/* op_flags & XFS_ATTRI_OP_FLAGS_TYPE_MASK */
	const char	*op_name;	/* "set", ..., NULL if unknown */
	uint32_t	name_len;	/* PPTR_REPLACE: the old name's */
	uint32_t	new_name_len;	/* PPTR_REPLACE only */
	uint32_t	value_len;
	uint32_t	attr_filter;
	bool		pptr;		/* a parent pointer op */
	/* the format, op, filter and lengths pass (xfs_attri_validate's part) */
	bool		format_ok;
	bool		count_ok;	/* ... and the item has the regions its op logs */
	const struct xls_region *name, *new_name, *value, *new_value;
	/* parent pointer values: struct xfs_parent_rec */
	bool		has_parent, has_new_parent;
	uint64_t	parent_ino, new_parent_ino;
	uint32_t	parent_gen, new_parent_gen;
};

/* XMI: struct xfs_xmi_log_format (Linux 6.10+). */
struct xls_xmi_item {
	bool		has_format;
	uint64_t	id;
	uint64_t	inode1, inode2;
	uint32_t	igen1, igen2;
	uint64_t	startoff1, startoff2;
	uint64_t	blockcount;
	uint64_t	flags;
	int64_t		isize1, isize2;
};

/* DQUOT: struct xfs_dq_logformat, then the struct xfs_disk_dquot logged. */
struct xls_dquot_item {
	bool		has_format;
	uint32_t	qlf_id;
	uint64_t	qlf_blkno;
	int32_t		qlf_len;
	uint32_t	qlf_boffset;
	bool		has_dquot;	/* region 1 holds d_id */
	uint16_t	d_magic;
	uint8_t		d_type;
	uint32_t	d_id;
};

/* QUOTAOFF: struct xfs_qoff_logformat. */
struct xls_quotaoff_item {
	bool		has_format;
	uint32_t	qf_flags;
};

/* ICREATE: struct xfs_icreate_log (big-endian fields). */
struct xls_icreate_item {
	bool		has_format;
	uint32_t	icl_ag, icl_agbno, icl_count, icl_isize, icl_length, icl_gen;
};

/* ------------------------------------------------------------------ */
/* names of on-disk codes and flag bits (base/flags.h tables) */

extern const struct xls_flag_table xls_blf_flag_table;	/* blf_flags, low bits */
extern const struct xls_flag_table xls_ilog_flag_table;	/* ilf_fields */
extern const struct xls_flag_table xls_rmap_flag_table;	/* RUI me_flags */
extern const struct xls_flag_table xls_bmap_flag_table;	/* BUI me_flags */
extern const struct xls_flag_table xls_xmi_flag_table;	/* xmi_flags */
extern const struct xls_flag_table xls_attr_filter_flag_table;
extern const struct xls_flag_table xls_dq_type_flag_table;	/* d_type */
extern const struct xls_flag_table xls_qflag_table;	/* qf_flags */

/* Names of extent type codes ("map", "alloc_cow"); NULL if unknown. */
const char *xls_rmap_type_name(uint32_t code);
const char *xls_bmap_type_name(uint32_t code);
const char *xls_refc_type_name(uint32_t code);
/* Name of a special rmap owner (XFS_RMAP_OWN_*: "ag", "inodes"), or NULL. */
const char *xls_rmap_owner_name(uint64_t owner);

/* ------------------------------------------------------------------ */
/* decoding any item */

struct xls_item_decoded {
	const struct xls_item		*item;
	const struct xls_item_type	*type;	/* NULL: unknown type */
	/* the format region holds the common 4 bytes (type and size) */
	bool				has_format;
	union {
		struct xls_buf_format	buf;
		struct xls_inode_item	inode;
		struct xls_extent_item	ext;
		struct xls_done_item	done;
		struct xls_attri_item	attri;
		struct xls_xmi_item	xmi;
		struct xls_dquot_item	dquot;
		struct xls_quotaoff_item qoff;
		struct xls_icreate_item	icreate;
	} u;
	struct xls_item_problems	problems;
};

/*
 * Decode @it by its family into @d (which keeps pointers into @it's
 * regions).  Returns 0, or 1 when a check failed (d->problems says which).
 */
int xls_item_decode(const struct xls_item *it, struct xls_item_decoded *d);

/*
 * The per-family parsers xls_item_decode() calls, for callers that want
 * one family.  Each returns 0, or 1 with @p filled when a check failed.
 */
int xls_inode_item_parse(const struct xls_item *it, struct xls_inode_item *out,
			 struct xls_item_problems *p);
int xls_extent_item_parse(const struct xls_item *it, struct xls_extent_item *out,
			  struct xls_item_problems *p);
int xls_done_item_parse(const struct xls_item *it, struct xls_done_item *out,
			struct xls_item_problems *p);
int xls_attri_item_parse(const struct xls_item *it, struct xls_attri_item *out,
			 struct xls_item_problems *p);
int xls_xmi_item_parse(const struct xls_item *it, struct xls_xmi_item *out,
		       struct xls_item_problems *p);
int xls_dquot_item_parse(const struct xls_item *it, struct xls_dquot_item *out,
			 struct xls_item_problems *p);
int xls_quotaoff_item_parse(const struct xls_item *it, struct xls_quotaoff_item *out,
			    struct xls_item_problems *p);
int xls_icreate_item_parse(const struct xls_item *it, struct xls_icreate_item *out,
			   struct xls_item_problems *p);
/* 0, or -1 when the format region holds neither layout of the format. */
int xls_inode_item_parts(const struct xls_item *it, struct xls_inode_parts *out);
int xls_buf_item_parse(const struct xls_item *it, struct xls_buf_format *out,
		       struct xls_item_problems *p);

#endif /* XLS_ITEM_H */
