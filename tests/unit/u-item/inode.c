/*
 * u-item's inode items: the 56-byte and i386 52-byte formats, v2 and v3
 * cores (NREXT64 counters included), forks, and the findings for bad
 * magic, di_ino, fork and region sizes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "u-item.h"

/* ---- inode ----------------------------------------------------------- */

/* struct xfs_log_dinode offsets */
enum {
	DI_MAGIC = 0, DI_MODE = 2, DI_VERSION = 4, DI_FORMAT = 5, DI_UID = 8,
	DI_GID = 12, DI_NLINK = 16, DI_BIG_NEXTENTS = 24, DI_FLUSHITER = 30,
	DI_SIZE = 56, DI_NBLOCKS = 64, DI_NEXTENTS = 76, DI_ANEXTENTS = 80,
	DI_FORKOFF = 82, DI_FLAGS = 90, DI_GEN = 92, DI_FLAGS2 = 120,
	DI_INO = 152, DI_V2_SIZE = 96, DI_V3_SIZE = 176,
};

static void make_core(struct bytes *b, enum xls_endian e, int version,
		      uint16_t mode, uint64_t ino, uint64_t flags2)
{
	bytes_init(b, e);
	put16(b, DI_MAGIC, 0x494e);
	put16(b, DI_MODE, mode);
	put8(b, DI_VERSION, (uint8_t)version);
	put8(b, DI_FORMAT, 1);
	put32(b, DI_UID, 1000);
	put32(b, DI_GID, 100);
	put32(b, DI_NLINK, 3);
	put64(b, DI_SIZE, 15);
	put64(b, DI_NBLOCKS, 7);
	put32(b, DI_NEXTENTS, 2);
	put16(b, DI_ANEXTENTS, 1);
	put8(b, DI_FORKOFF, 24);
	put16(b, DI_FLAGS, 0x10);
	put32(b, DI_GEN, 0xefc0d5f0);
	if (version >= 3) {
		put64(b, DI_FLAGS2, flags2);
		put64(b, DI_INO, ino);
		grow(b, DI_V3_SIZE - 1, 1);
	} else {
		put16(b, DI_FLUSHITER, 9);
		grow(b, DI_V2_SIZE - 1, 1);
	}
}

/* The @size-byte integer at @off of @p in byte order @e, read here, not by src/. */
static uint64_t raw_get(const uint8_t *p, enum xls_endian e, unsigned int off, unsigned int size)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < size; i++)
		v |= (uint64_t)p[off + i] << 8 * (e == XLS_BIG_ENDIAN ? size - 1 - i : i);
	return v;
}

/*
 * A v3 core whose every byte differs: parsed whole (the region holds all
 * 176 bytes) and a byte short (each field read on its own, bounds
 * checked), both paths must give every field the bytes say -- but the
 * uuid, the last 16 bytes, which the short one lacks.
 */
static void test_inode_core_paths(enum xls_endian e)
{
	uint8_t fmt[56] = { 0 }, core[DI_V3_SIZE];
	struct xls_region r[2] = { { .data = fmt, .len = 56 }, { .data = core } };
	struct xls_item it = { .type = XFS_LI_INODE, .size = 2, .nregions = 2, .regions = r,
			       .endian = e };
	struct xls_item_problems p = { 0 };
	struct xls_inode_item whole, cut;
	bool same = true, raw = true;

	for (unsigned int i = 0; i < sizeof(core); i++)
		core[i] = (uint8_t)(i * 7 + 3);
	fmt[e == XLS_BIG_ENDIAN ? 7 : 4] = XFS_ILOG_CORE;
	r[1].len = DI_V3_SIZE;
	xls_inode_item_parse(&it, &whole, &p);
	r[1].len = DI_V3_SIZE - 1;
	xls_inode_item_parse(&it, &cut, &p);
	cut.core.len = whole.core.len;
	memcpy(cut.core.di_uuid, whole.core.di_uuid, 16);
	same = memcmp(&whole.core, &cut.core, sizeof(whole.core)) == 0;
	raw = whole.core.di_mode == raw_get(core, e, DI_MODE, 2) &&
	      whole.core.di_uid == raw_get(core, e, DI_UID, 4) &&
	      whole.core.di_big_nextents == raw_get(core, e, DI_BIG_NEXTENTS, 8) &&
	      (uint64_t)whole.core.di_size == raw_get(core, e, DI_SIZE, 8) &&
	      whole.core.di_anextents == raw_get(core, e, DI_ANEXTENTS, 2) &&
	      whole.core.di_forkoff == raw_get(core, e, DI_FORKOFF, 1) &&
	      whole.core.di_gen == raw_get(core, e, DI_GEN, 4) &&
	      whole.core.di_flags2 == raw_get(core, e, DI_FLAGS2, 8) &&
	      whole.core.di_ino == raw_get(core, e, DI_INO, 8) &&
	      whole.core.di_atime.v == raw_get(core, e, 32, 8) &&
	      (uint32_t)whole.core.di_atime.nsec == raw_get(core, e, 36, 4) &&
	      (uint32_t)whole.core.di_crtime.sec == raw_get(core, e, 144, 4) &&
	      memcmp(whole.core.di_uuid, core + 160, 16) == 0;
	tap_ok(&T, same && raw, "inode (%s): a whole v3 core parsed at once equals the "
	       "field-by-field parse and the bytes", en(e));
}

void test_item__inode(void)
{
	static const uint8_t fork[16] = "dir data fork";
	struct titem t;
	struct bytes f, c;
	int rc;

	for (int ei = 0; ei < 2; ei++) {
		enum xls_endian e = (enum xls_endian)ei;

		test_inode_core_paths(e);
		/* native 56-byte format: fields 16, asize 8, dsize 10, ino 16,
		 * rdev 24, blkno 40, len 48, boffset 52 */
		bytes_init(&f, e);
		put_hdr(&f, XFS_LI_INODE, 3);
		put32(&f, 4, XFS_ILOG_CORE | XFS_ILOG_DDATA);
		put16(&f, 8, 0);
		put16(&f, 10, 15);
		put64(&f, 16, 0x80);
		put64(&f, 40, 0x60);
		put32(&f, 48, 32);
		put32(&f, 52, 0x2000);
		grow(&f, 55, 1);
		make_core(&c, e, 3, 040755, 0x80, 0x8);
		titem_init(&t, e, XFS_LI_INODE, 3);
		titem_add(&t, &f);
		titem_add(&t, &c);
		titem_add_raw(&t, fork, 16);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_u("ino", 0x80) && f_u("fields", 3) &&
			   f_s("field_names", "core|ddata") && f_u("dsize", 15) &&
			   f_u("asize", 0) && f_u("blkno", 0x60) &&
			   f_i("buf_len_bb", 32) && f_i("boffset", 0x2000) &&
			   f_absent("rdev") && f_s("mode", "040755") &&
			   f_i("di_version", 3) && f_u("di_format", 1) &&
			   f_u("uid", 1000) && f_u("gid", 100) && f_u("nlink", 3) &&
			   f_i("di_size", 15) && f_u("nblocks", 7) &&
			   f_u("nextents", 2) && f_u("anextents", 1) &&
			   f_u("gen", 0xefc0d5f0) && f_u("di_flags2", 0x8) &&
			   f_u("di_ino", 0x80) && f_absent("flushiter"),
		       "inode (%s): 56-byte format with v3 core and data fork", en(e));
		sweep_truncations(&t, "inode");

		/* bad magic, wrong fork size, di_ino mismatch */
		titem_free(&t);
		c.b[e == XLS_BIG_ENDIAN ? 1 : 0] ^= 0xff;
		put64(&c, DI_INO, 0x81);
		titem_init(&t, e, XFS_LI_INODE, 3);
		titem_add(&t, &f);
		titem_add(&t, &c);
		titem_add_raw(&t, fork, 12);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "di_magic") &&
			   f_contains("finding", "di_ino 0x81 differs") &&
			   f_contains("finding", "data fork region is 12 bytes, 16 expected"),
		       "inode (%s): bad magic, di_ino and fork size are findings", en(e));
		titem_free(&t);

		/* NREXT64 core: big extent counters */
		make_core(&c, e, 3, 0100644, 0x80, 0x18);
		put64(&c, DI_BIG_NEXTENTS, 5000000000ULL);
		put32(&c, DI_NEXTENTS, 70000);	/* di_big_anextents */
		put16(&c, DI_ANEXTENTS, 0);	/* di_nrext64_pad */
		bytes_init(&f, e);
		put_hdr(&f, XFS_LI_INODE, 2);
		put32(&f, 4, XFS_ILOG_CORE);
		put64(&f, 16, 0x80);
		grow(&f, 55, 1);
		titem_init(&t, e, XFS_LI_INODE, 2);
		titem_add(&t, &f);
		titem_add(&t, &c);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_s("mode", "0100644") &&
			   f_u("nextents", 5000000000ULL) && f_u("anextents", 70000),
		       "inode (%s): NREXT64 extent counters", en(e));
		titem_free(&t);

		/* i386 52-byte format: fields 4, asize 8, dsize 10, ino 12,
		 * rdev 20, blkno 36, len 44, boffset 48; v2 core; device */
		bytes_init(&f, e);
		put_hdr(&f, XFS_LI_INODE, 2);
		put32(&f, 4, XFS_ILOG_CORE | XFS_ILOG_DEV);
		put64(&f, 12, 0x2345);
		put32(&f, 20, 0x00400007);
		put64(&f, 36, 0x1230);
		put32(&f, 44, 16);
		put32(&f, 48, 0x600);
		grow(&f, 51, 1);
		make_core(&c, e, 2, 020644, 0, 0);
		titem_init(&t, e, XFS_LI_INODE, 2);
		titem_add(&t, &f);
		titem_add(&t, &c);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && t.r[0].len == 52 &&
			   f_u("ino", 0x2345) && f_s("field_names", "core|dev") &&
			   f_u("rdev", 0x00400007) && f_u("blkno", 0x1230) &&
			   f_i("buf_len_bb", 16) && f_i("boffset", 0x600) &&
			   f_i("di_version", 2) && f_u("flushiter", 9) &&
			   f_absent("di_ino"),
		       "inode (%s): 52-byte i386 format with v2 core", en(e));
		sweep_truncations(&t, "inode32");
		titem_free(&t);

		/* 50-byte format and a 40-byte core */
		titem_init(&t, e, XFS_LI_INODE, 2);
		titem_add_raw(&t, f.b, 50);
		titem_add_raw(&t, c.b, 40);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "inode format region is 50 bytes, 56 or 52 needed") &&
			   f_absent("ino"),
		       "inode (%s): short format region is a finding", en(e));
		titem_free(&t);
		titem_init(&t, e, XFS_LI_INODE, 2);
		titem_add(&t, &f);
		titem_add_raw(&t, c.b, 40);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "inode core region is 40 bytes, 96 needed") &&
			   f_absent("mode"),
		       "inode (%s): short core is a finding", en(e));
		titem_free(&t);
	}
}
