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

/* Offsets into struct xfs_log_dinode (host order throughout). */
#define LDI(f)		offsetof(struct xfs_log_dinode, f)
/* A v1/v2 core ends at di_next_unlinked (xfs_log_dinode_size()). */
#define LDI_V2_SIZE	LDI(di_next_unlinked)
#define LDI_V3_SIZE	sizeof(struct xfs_log_dinode)

static void describe_core(struct xls_desc *d, const struct xls_region *r,
			  uint64_t ilf_ino)
{
	enum xls_endian e = d->it->endian;
	uint16_t magic, mode;
	int8_t version;
	uint64_t flags2 = 0, nextents, anextents;

	if (!xls_reg_has(r, 0, LDI_V2_SIZE)) {
		xls_desc_finding(d, "inode core region is %u bytes, %zu needed",
				 r->len, (size_t)LDI_V2_SIZE);
		return;
	}
	magic = xls_reg_get16(r, e, LDI(di_magic));
	mode = xls_reg_get16(r, e, LDI(di_mode));
	version = (int8_t)xls_reg_get8(r, LDI(di_version));

	xls_field_strf(d->fs, "mode", "%#o", mode);
	xls_field_int(d->fs, "di_version", version);
	xls_field_uint(d->fs, "di_format", xls_reg_get8(r, LDI(di_format)));
	xls_field_uint(d->fs, "uid", xls_reg_get32(r, e, LDI(di_uid)));
	xls_field_uint(d->fs, "gid", xls_reg_get32(r, e, LDI(di_gid)));
	xls_field_uint(d->fs, "nlink", xls_reg_get32(r, e, LDI(di_nlink)));
	xls_field_int(d->fs, "di_size", (int64_t)xls_reg_get64(r, e, LDI(di_size)));
	xls_field_uint(d->fs, "nblocks", xls_reg_get64(r, e, LDI(di_nblocks)));

	if (version >= 3 && xls_reg_has(r, LDI(di_flags2), 8))
		flags2 = xls_reg_get64(r, e, LDI(di_flags2));
	if (flags2 & XFS_DIFLAG2_NREXT64) {
		nextents = xls_reg_get64(r, e, LDI(di_big_nextents));
		anextents = xls_reg_get32(r, e, LDI(di_big_anextents));
	} else {
		nextents = xls_reg_get32(r, e, LDI(di_nextents));
		anextents = xls_reg_get16(r, e, LDI(di_anextents));
	}
	xls_field_uint(d->fs, "nextents", nextents);
	xls_field_uint(d->fs, "anextents", anextents);
	xls_field_uint(d->fs, "forkoff", xls_reg_get8(r, LDI(di_forkoff)));
	xls_field_hex(d->fs, "di_flags", xls_reg_get16(r, e, LDI(di_flags)));
	xls_field_uint(d->fs, "gen", xls_reg_get32(r, e, LDI(di_gen)));

	if (version < 3) {
		xls_field_uint(d->fs, "flushiter",
			       xls_reg_get16(r, e, LDI(di_flushiter)));
	} else if (!xls_reg_has(r, 0, LDI_V3_SIZE)) {
		xls_desc_finding(d, "v%d inode core region is %u bytes, %zu needed",
				 version, r->len, (size_t)LDI_V3_SIZE);
	} else {
		uint64_t di_ino = xls_reg_get64(r, e, LDI(di_ino));

		xls_field_hex(d->fs, "di_flags2", flags2);
		xls_field_hex(d->fs, "di_ino", di_ino);
		if (di_ino != ilf_ino)
			xls_desc_finding(d, "di_ino 0x%llx differs from ilf_ino 0x%llx",
					 (unsigned long long)di_ino,
					 (unsigned long long)ilf_ino);
	}
	if (r->len > LDI_V3_SIZE)
		xls_desc_finding(d, "inode core region is %u bytes, more than %zu",
				 r->len, (size_t)LDI_V3_SIZE);
	if (magic != XFS_DINODE_MAGIC)
		xls_desc_finding(d, "di_magic 0x%04x is not 0x%04x (IN)", magic,
				 XFS_DINODE_MAGIC);
}

/* A fork region must be the fork size rounded up to 4 (xlog_calc_iovec_len). */
static void check_fork(struct xls_desc *d, uint32_t idx, const char *fork,
		       uint32_t fsize)
{
	const struct xls_region *r = xls_desc_region(d, idx);
	uint64_t want = ((uint64_t)fsize + 3) & ~(uint64_t)3;

	/* a missing region is already reported as a region-count finding */
	if (r && r->len != want)
		xls_desc_finding(d, "%s fork region is %u bytes, %llu expected for size %u",
				 fork, r->len, (unsigned long long)want, fsize);
}

void xls_describe_inode(struct xls_desc *d)
{
	const struct ilf_layout *l;
	uint32_t fields, dsize, asize, want_regions, idx;
	uint64_t ino;

	if (d->fmt->len >= ILF64_SIZE) {
		l = &ilf64;
	} else if (d->fmt->len >= ILF32_SIZE) {
		l = &ilf32;
	} else {
		xls_desc_finding(d, "inode format region is %u bytes, %zu or %zu needed",
				 d->fmt->len, ILF64_SIZE, ILF32_SIZE);
		return;
	}
	if (d->fmt->len != ILF64_SIZE && d->fmt->len != ILF32_SIZE)
		xls_desc_finding(d, "inode format region is %u bytes, recovery accepts only %zu or %zu",
				 d->fmt->len, ILF64_SIZE, ILF32_SIZE);

	fields = xls_d32(d, l->fields);
	asize = xls_d16(d, l->asize);
	dsize = xls_d16(d, l->dsize);
	ino = xls_d64(d, l->ino);

	xls_field_hex(d->fs, "ino", ino);
	xls_field_hex(d->fs, "fields", fields);
	xls_field_flags(d->fs, "field_names", fields, ilog_names,
			sizeof(ilog_names) / sizeof(ilog_names[0]));
	xls_field_uint(d->fs, "asize", asize);
	xls_field_uint(d->fs, "dsize", dsize);
	xls_field_hex(d->fs, "blkno", xls_d64(d, l->blkno));
	xls_field_int(d->fs, "buf_len", (int32_t)xls_d32(d, l->len));
	xls_field_int(d->fs, "boffset", (int32_t)xls_d32(d, l->boffset));
	if (fields & XFS_ILOG_DEV)
		xls_field_hex(d->fs, "rdev", xls_d32(d, l->rdev));

	if (fields & (XFS_ILOG_TIMESTAMP | XFS_ILOG_IVERSION))
		xls_desc_finding(d, "ilf_fields 0x%x has in-memory-only bits", fields);
	if ((fields & XFS_ILOG_DFORK) & ((fields & XFS_ILOG_DFORK) - 1))
		xls_desc_finding(d, "ilf_fields 0x%x logs the data fork more than one way", fields);
	if ((fields & XFS_ILOG_AFORK) & ((fields & XFS_ILOG_AFORK) - 1))
		xls_desc_finding(d, "ilf_fields 0x%x logs the attr fork more than one way", fields);

	/* Regions: format, core, then data fork and attr fork if logged. */
	want_regions = 2u + !!(fields & XFS_ILOG_DFORK) + !!(fields & XFS_ILOG_AFORK);
	if (d->it->size != want_regions)
		xls_desc_finding(d, "ilf_size %u, ilf_fields 0x%x imply %u regions",
				 d->it->size, fields, want_regions);

	if (d->it->nregions >= 2)
		describe_core(d, xls_desc_region(d, 1), ino);

	idx = 2;
	if (fields & XFS_ILOG_DFORK)
		check_fork(d, idx++, "data", dsize);
	if (fields & XFS_ILOG_AFORK)
		check_fork(d, idx, "attr", asize);
}
