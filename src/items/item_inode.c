/*
 * Inode log items (XFS_LI_INODE): struct xfs_inode_log_format (56 bytes) or
 * the packed i386 struct xfs_inode_log_format_32 (52 bytes) in regions[0],
 * chosen by region length as recovery does (xlog_recover_inode_commit_pass2
 * takes 56 as native, anything else through xfs_inode_item_format_convert,
 * which accepts only 52).  Region 1 is the inode core, struct xfs_log_dinode,
 * in the writer's byte order; then the data fork and the attr fork regions
 * when ilf_fields says they were logged.
 */
#include <stdio.h>
#include <string.h>

#include "base/flags.h"
#include "items/item.h"
#include "items/item_priv.h"

#define ILF64_SIZE	sizeof(struct xfs_inode_log_format)
#define ILF32_SIZE	sizeof(struct xfs_inode_log_format_32)

/* Offsets of one layout of the inode log format. */
struct ilf_layout {
	size_t	fields, asize, dsize, ino, rdev, blkno, len, boffset;
};

#define ILF_LAYOUT(s) {							\
	offsetof(s, ilf_fields), offsetof(s, ilf_asize),		\
	offsetof(s, ilf_dsize), offsetof(s, ilf_ino),			\
	offsetof(s, ilf_u.ilfu_rdev), offsetof(s, ilf_blkno),		\
	offsetof(s, ilf_len), offsetof(s, ilf_boffset) }

static const struct ilf_layout ilf64 = ILF_LAYOUT(struct xfs_inode_log_format);
static const struct ilf_layout ilf32 = ILF_LAYOUT(struct xfs_inode_log_format_32);

static const struct xls_flag_name ilog_names[] = {
	{ XFS_ILOG_CORE,	"core" },
	{ XFS_ILOG_DDATA,	"ddata" },
	{ XFS_ILOG_DEXT,	"dext" },
	{ XFS_ILOG_DBROOT,	"dbroot" },
	{ XFS_ILOG_DEV,		"dev" },
	{ XFS_ILOG_UUID,	"uuid" },
	{ XFS_ILOG_ADATA,	"adata" },
	{ XFS_ILOG_AEXT,	"aext" },
	{ XFS_ILOG_ABROOT,	"abroot" },
	{ XFS_ILOG_DOWNER,	"downer" },
	{ XFS_ILOG_AOWNER,	"aowner" },
	/* in-memory only; a finding if seen on disk */
	{ XFS_ILOG_TIMESTAMP,	"timestamp" },
	{ XFS_ILOG_IVERSION,	"iversion" },
};

const struct xls_flag_table xls_ilog_flag_table = XLS_FLAG_TABLE(ilog_names);

/* Offsets into struct xfs_log_dinode (host order throughout). */
#define LDI(f)		offsetof(struct xfs_log_dinode, f)
#define LDI_V2_SIZE	XLS_LOG_DINODE_V2_SIZE
#define LDI_V3_SIZE	XLS_LOG_DINODE_V3_SIZE

/*
 * The integer fields of the log dinode, each as (its name in struct
 * xls_log_dinode, its name in struct xfs_log_dinode): one width in both
 * (checked when compiled), and the bits of the log's field kept.
 */
#define CORE_FIELDS(X)							\
	X(di_magic, di_magic) X(di_mode, di_mode)			\
	X(di_version, di_version) X(di_format, di_format)		\
	X(di_metatype, di_pad3) X(di_uid, di_uid) X(di_gid, di_gid)	\
	X(di_nlink, di_nlink) X(di_projid_lo, di_projid_lo)		\
	X(di_projid_hi, di_projid_hi)					\
	X(di_big_nextents, di_big_nextents)				\
	X(di_flushiter, di_flushiter) X(di_size, di_size)		\
	X(di_nblocks, di_nblocks) X(di_extsize, di_extsize)		\
	X(di_nextents, di_nextents) X(di_anextents, di_anextents)	\
	X(di_forkoff, di_forkoff) X(di_aformat, di_aformat)		\
	X(di_dmevmask, di_dmevmask) X(di_dmstate, di_dmstate)		\
	X(di_flags, di_flags) X(di_gen, di_gen)				\
	X(di_next_unlinked, di_next_unlinked) X(di_crc, di_crc)		\
	X(di_changecount, di_changecount) X(di_lsn, di_lsn)		\
	X(di_flags2, di_flags2) X(di_cowextsize, di_cowextsize)		\
	X(di_ino, di_ino)

#define CORE_SIZE(f)	sizeof(((struct xls_log_dinode *)0)->f)
#define CORE_SAME_WIDTH(f, src)						\
	_Static_assert(CORE_SIZE(f) == sizeof(((struct xfs_log_dinode *)0)->src), \
		       #f " and " #src " differ in width");
CORE_FIELDS(CORE_SAME_WIDTH)

/* Where each field goes in struct xls_log_dinode and where it is in the region. */
struct core_field {
	uint16_t	to;
	uint8_t		size;
	uint16_t	from;
};
#define CORE_ENTRY(f, src)	{ offsetof(struct xls_log_dinode, f), CORE_SIZE(f), LDI(src) },

static const struct core_field core_fields[] = { CORE_FIELDS(CORE_ENTRY) };

/* The integer of @size bytes at @p, in byte order @e: @size is a constant. */
static inline uint64_t core_get(const uint8_t *p, enum xls_endian e, unsigned int size)
{
	switch (size) {
	case 1:		return p[0];
	case 2:		return xls_get16(e, p);
	case 4:		return xls_get32(e, p);
	default:	return xls_get64(e, p);
	}
}

/* A timestamp: bigtime's 64 bits, and the legacy seconds and nanoseconds. */
static struct xls_log_ts core_ts(const uint8_t *p, enum xls_endian e)
{
	struct xls_log_ts t;

	t.v = xls_get64(e, p);
	t.sec = (int32_t)xls_get32(e, p);
	t.nsec = (int32_t)xls_get32(e, p + 4);
	return t;
}

/* The integer of @size bytes at @off of @r, in byte order @e; 0 past its end. */
static uint64_t reg_get(const struct xls_region *r, enum xls_endian e, uint64_t off,
			unsigned int size)
{
	return xls_reg_has(r, off, size) ? core_get(r->data + off, e, size) : 0;
}

/* The timestamp at @off of @r; each part 0 where @r ends before it does. */
static struct xls_log_ts get_ts(const struct xls_region *r, enum xls_endian e, uint64_t off)
{
	struct xls_log_ts t = { 0 };

	if (xls_reg_has(r, off, 8))
		return core_ts(r->data + off, e);
	t.sec = (int32_t)reg_get(r, e, off, 4);
	return t;
}

/* @v's low @size bytes into @to, as an integer of that width. */
static void put_int(void *to, uint64_t v, unsigned int size)
{
	uint8_t v8 = (uint8_t)v;
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;

	memcpy(to, size == 1 ? (void *)&v8 : size == 2 ? (void *)&v16 :
		   size == 4 ? (void *)&v32 : (void *)&v, size);
}

/*
 * A whole v3 core, the region holding every byte of it: each field loaded
 * at its constant offset and width, with no bounds check or table walk
 * (an item-dense log parses millions of these).
 */
#define CORE_LOAD(f, src)	c->f = core_get(d + LDI(src), e, CORE_SIZE(f));

static void parse_whole_core(const uint8_t *d, enum xls_endian e, struct xls_log_dinode *c)
{
	CORE_FIELDS(CORE_LOAD)
	c->di_atime = core_ts(d + LDI(di_atime), e);
	c->di_mtime = core_ts(d + LDI(di_mtime), e);
	c->di_ctime = core_ts(d + LDI(di_ctime), e);
	c->di_crtime = core_ts(d + LDI(di_crtime), e);
	memcpy(c->di_uuid, d + LDI(di_uuid), 16);
}

/* Every field of the log dinode in region @r; 0 where @r ends first. */
static void parse_core(const struct xls_region *r, enum xls_endian e,
		       struct xls_log_dinode *c)
{
	memset(c, 0, sizeof(*c));
	c->len = r->len;
	if (xls_reg_has(r, 0, LDI_V3_SIZE)) {
		parse_whole_core(r->data, e, c);
		return;
	}
	for (size_t i = 0; i < sizeof(core_fields) / sizeof(core_fields[0]); i++) {
		const struct core_field *f = &core_fields[i];

		put_int((uint8_t *)c + f->to, reg_get(r, e, f->from, f->size), f->size);
	}
	c->di_atime = get_ts(r, e, LDI(di_atime));
	c->di_mtime = get_ts(r, e, LDI(di_mtime));
	c->di_ctime = get_ts(r, e, LDI(di_ctime));
	c->di_crtime = get_ts(r, e, LDI(di_crtime));
	if (xls_reg_has(r, LDI(di_uuid), 16))
		memcpy(c->di_uuid, r->data + LDI(di_uuid), 16);
}

uint64_t xls_log_dinode_flags2(const struct xls_log_dinode *d)
{
	return d->di_version >= 3 ? d->di_flags2 : 0;
}

/* di_big_nextents and di_big_anextents share their bytes with the others. */
uint64_t xls_log_dinode_nextents(const struct xls_log_dinode *d)
{
	return (xls_log_dinode_flags2(d) & XFS_DIFLAG2_NREXT64) ?
	       d->di_big_nextents : d->di_nextents;
}

uint64_t xls_log_dinode_anextents(const struct xls_log_dinode *d)
{
	/* di_big_anextents is the u32 where di_nextents is otherwise */
	return (xls_log_dinode_flags2(d) & XFS_DIFLAG2_NREXT64) ?
	       d->di_nextents : d->di_anextents;
}

static void check_core(struct xls_inode_item *ino, struct xls_item_problems *p)
{
	const struct xls_log_dinode *c = &ino->core;

	if (!ino->core_v2) {
		xls_item_problem(p, "inode core region is %u bytes, %zu needed",
				 c->len, (size_t)LDI_V2_SIZE);
		return;
	}
	if (c->di_version >= 3 && !ino->core_v3) {
		xls_item_problem(p, "v%d inode core region is %u bytes, %zu needed",
				 c->di_version, c->len, (size_t)LDI_V3_SIZE);
	} else if (c->di_version >= 3 && c->di_ino != ino->ilf_ino) {
		xls_item_problem(p, "di_ino 0x%llx differs from ilf_ino 0x%llx",
				 (unsigned long long)c->di_ino,
				 (unsigned long long)ino->ilf_ino);
	}
	if (c->len > LDI_V3_SIZE)
		xls_item_problem(p, "inode core region is %u bytes, more than %zu",
				 c->len, (size_t)LDI_V3_SIZE);
	if (c->di_magic != XFS_DINODE_MAGIC)
		xls_item_problem(p, "di_magic 0x%04x is not 0x%04x (IN)", c->di_magic,
				 XFS_DINODE_MAGIC);
}

/* A fork region must be the fork size rounded up to 4 (xlog_calc_iovec_len). */
static void check_fork(const struct xls_region *r, const char *fork,
		       uint32_t fsize, struct xls_item_problems *p)
{
	uint64_t want = ((uint64_t)fsize + 3) & ~(uint64_t)3;

	/* a missing region is already reported as a region-count problem */
	if (r && r->len != want)
		xls_item_problem(p, "%s fork region is %u bytes, %llu expected for size %u",
				 fork, r->len, (unsigned long long)want, fsize);
}

int xls_inode_item_parse(const struct xls_item *it, struct xls_inode_item *ino,
			 struct xls_item_problems *p)
{
	const struct xls_region *fmt = xls_item_region(it, 0);
	enum xls_endian e = it->endian;
	const struct ilf_layout *l;
	uint32_t before = p->count, want_regions, idx, fields;

	memset(ino, 0, offsetof(struct xls_inode_item, core));
	ino->data_fork = ino->attr_fork = NULL;
	ino->nregions = it->nregions;
	ino->regions = it->regions;
	ino->fmt_len = fmt ? fmt->len : 0;
	if (ino->fmt_len >= ILF64_SIZE) {
		l = &ilf64;
	} else if (ino->fmt_len >= ILF32_SIZE) {
		l = &ilf32;
		ino->layout32 = true;
	} else {
		xls_item_problem(p, "inode format region is %u bytes, %zu or %zu needed",
				 ino->fmt_len, ILF64_SIZE, ILF32_SIZE);
		return 1;
	}
	ino->has_format = true;
	ino->format_exact = ino->fmt_len == ILF64_SIZE || ino->fmt_len == ILF32_SIZE;
	if (!ino->format_exact)
		xls_item_problem(p, "inode format region is %u bytes, recovery accepts only %zu or %zu",
				 ino->fmt_len, ILF64_SIZE, ILF32_SIZE);

	fields = ino->ilf_fields = xls_reg_get32(fmt, e, l->fields);
	ino->ilf_asize = xls_reg_get16(fmt, e, l->asize);
	ino->ilf_dsize = xls_reg_get16(fmt, e, l->dsize);
	ino->ilf_ino = xls_reg_get64(fmt, e, l->ino);
	ino->ilf_rdev = xls_reg_get32(fmt, e, l->rdev);
	ino->ilf_blkno = (int64_t)xls_reg_get64(fmt, e, l->blkno);
	ino->ilf_len = (int32_t)xls_reg_get32(fmt, e, l->len);
	ino->ilf_boffset = (int32_t)xls_reg_get32(fmt, e, l->boffset);

	if (fields & (XFS_ILOG_TIMESTAMP | XFS_ILOG_IVERSION))
		xls_item_problem(p, "ilf_fields 0x%x has in-memory-only bits", fields);
	if ((fields & XFS_ILOG_DFORK) & ((fields & XFS_ILOG_DFORK) - 1))
		xls_item_problem(p, "ilf_fields 0x%x logs the data fork more than one way", fields);
	if ((fields & XFS_ILOG_AFORK) & ((fields & XFS_ILOG_AFORK) - 1))
		xls_item_problem(p, "ilf_fields 0x%x logs the attr fork more than one way", fields);

	/* Regions: format, core, then data fork and attr fork if logged. */
	want_regions = 2u + !!(fields & XFS_ILOG_DFORK) + !!(fields & XFS_ILOG_AFORK);
	if (it->size != want_regions)
		xls_item_problem(p, "ilf_size %u, ilf_fields 0x%x imply %u regions",
				 it->size, fields, want_regions);

	if (it->nregions >= 2) {
		const struct xls_region *r = xls_item_region(it, 1);

		ino->has_core = true;
		ino->core_v2 = xls_reg_has(r, 0, LDI_V2_SIZE);
		ino->core_v3 = xls_reg_has(r, 0, LDI_V3_SIZE);
		parse_core(r, e, &ino->core);
		check_core(ino, p);
	} else {
		memset(&ino->core, 0, sizeof(ino->core));
	}

	idx = 2;
	if (fields & XFS_ILOG_DFORK) {
		ino->data_fork = xls_item_region(it, idx++);
		check_fork(ino->data_fork, "data", ino->ilf_dsize, p);
	}
	if (fields & XFS_ILOG_AFORK) {
		ino->attr_fork = xls_item_region(it, idx);
		check_fork(ino->attr_fork, "attr", ino->ilf_asize, p);
	}
	return p->count > before;
}

int xls_inode_item_parts(const struct xls_item *it, struct xls_inode_parts *out)
{
	const struct xls_region *fmt = xls_item_region(it, 0);
	const struct ilf_layout *l;
	uint32_t idx = 2;

	memset(out, 0, sizeof(*out));
	if (!fmt || fmt->len < ILF32_SIZE)
		return -1;
	l = fmt->len >= ILF64_SIZE ? &ilf64 : &ilf32;
	out->ilf_fields = xls_reg_get32(fmt, it->endian, l->fields);
	out->ilf_ino = xls_reg_get64(fmt, it->endian, l->ino);
	out->core = xls_item_region(it, 1);
	if (out->ilf_fields & XFS_ILOG_DFORK)
		out->data_fork = xls_item_region(it, idx++);
	if (out->ilf_fields & XFS_ILOG_AFORK)
		out->attr_fork = xls_item_region(it, idx);
	return 0;
}
