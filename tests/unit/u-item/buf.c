/*
 * u-item's buffer items: xfs_buf_log_format in both byte orders, map sizes
 * from none to past XFS_BLF_DATAMAP_SIZE, xls_buf_format_parse() on cut
 * regions, buffer type and flag names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "u-item.h"

/* ---- buf ------------------------------------------------------------- */

/* struct xfs_buf_log_format: type 0, size 2, flags 4, len 6, blkno 8,
 * map_size 16, data_map 20. */
static void make_buf(struct bytes *b, enum xls_endian e, uint16_t size,
		     uint16_t flags, uint16_t len, uint64_t blkno,
		     uint32_t map_size, const uint32_t *map, uint32_t nwords)
{
	bytes_init(b, e);
	put_hdr(b, XFS_LI_BUF, size);
	put16(b, 4, flags);
	put16(b, 6, len);
	put64(b, 8, blkno);
	put32(b, 16, map_size);
	for (uint32_t i = 0; i < nwords; i++)
		put32(b, 20 + 4 * i, map[i]);
	if (nwords == 0)
		grow(b, 20, 0);
}

void test_item__buf(void)
{
	static uint8_t data[4096];
	uint32_t map[17];
	struct xls_buf_format bf;
	const char *why;
	struct titem t;
	struct bytes b;
	int rc;

	for (int ei = 0; ei < 2; ei++) {
		enum xls_endian e = (enum xls_endian)ei;

		/* 4 KiB btree buffer, chunks 0-1 and 5 dirty: two data regions */
		map[0] = 0x23;
		make_buf(&b, e, 3, (4 << 11) | XFS_BLF_INODE_BUF | XFS_BLF_CANCEL,
			 8, 0x1234560, 1, map, 1);
		titem_init(&t, e, XFS_LI_BUF, 3);
		titem_add(&t, &b);
		titem_add_raw(&t, data, 256);
		titem_add_raw(&t, data, 128);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_s("item", "buf") &&
			   f_u("blkno", 0x1234560) && f_u("len_bb", 8) &&
			   f_u("len", 4096) && f_u("map_size", 1) &&
			   f_u("flags", 0x2003) &&
			   f_s("flag_names", "inode_buf|cancel") &&
			   f_s("buf_type", "btree") && f_u("data_bytes", 384) &&
			   f_u("size", 3) && f_u("regions", 3),
		       "buf (%s): 4 KiB buffer decodes", en(e));
		rc = xls_buf_format_parse(&t.it, &bf, &why);
		tap_ok(&T, rc == 0 && bf.blf_type == XFS_LI_BUF &&
			   bf.blf_size == 3 && bf.blf_len == 8 &&
			   bf.blf_blkno == 0x1234560 && bf.blf_map_size == 1 &&
			   bf.map_words == 1 && bf.blf_data_map[0] == 0x23 &&
			   bf.blf_data_map[1] == 0 && bf.blf_data_map[16] == 0,
		       "buf (%s): parse of a 4 KiB buffer format", en(e));
		sweep_truncations(&t, "buf");
		titem_free(&t);

		/* 64 KiB directory buffer: map_size 16, all words used */
		for (int i = 0; i < 16; i++)
			map[i] = 0x01010101u * (uint32_t)(i + 1);
		make_buf(&b, e, 1, 11 << 11, 128, 0x40, 16, map, 16);
		titem_init(&t, e, XFS_LI_BUF, 1);
		titem_add(&t, &b);
		rc = xls_buf_format_parse(&t.it, &bf, &why);
		tap_ok(&T, rc == 0 && t.r[0].len == 84 && bf.map_words == 16 &&
			   bf.blf_data_map[0] == 0x01010101u &&
			   bf.blf_data_map[15] == 0x10101010u &&
			   bf.blf_data_map[16] == 0,
		       "buf (%s): 64 KiB format, map_size 16, 84-byte region", en(e));
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_u("len", 65536) &&
			   f_s("buf_type", "dir_data") && f_s("flag_names", "") &&
			   f_u("data_bytes", 0),
		       "buf (%s): 64 KiB format describes", en(e));
		titem_free(&t);

		/* map_size 17: the whole struct, 88 bytes */
		for (int i = 0; i < 17; i++)
			map[i] = 0xffffffffu;
		make_buf(&b, e, 1, 0, 128, 0, 17, map, 17);
		titem_init(&t, e, XFS_LI_BUF, 1);
		titem_add(&t, &b);
		rc = xls_buf_format_parse(&t.it, &bf, &why);
		tap_ok(&T, rc == 0 && t.r[0].len == 88 && bf.map_words == 17 &&
			   bf.blf_data_map[16] == 0xffffffffu,
		       "buf (%s): map_size 17 reads 17 words", en(e));
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_u("map_size", 17),
		       "buf (%s): map_size 17 is not a finding", en(e));
		titem_free(&t);

		/* map_size 40 in an 88-byte region: clipped to 17 */
		make_buf(&b, e, 1, 0, 128, 0, 40, map, 17);
		titem_init(&t, e, XFS_LI_BUF, 1);
		titem_add(&t, &b);
		rc = xls_buf_format_parse(&t.it, &bf, &why);
		tap_ok(&T, rc == 0 && bf.blf_map_size == 40 && bf.map_words == 17,
		       "buf (%s): map_size 40 clipped to 17 map words", en(e));
		rc = describe(&t);
		tap_ok(&T, finding(rc, "blf_map_size 40 exceeds 17 words") &&
			   f_contains("finding", "88 bytes, 180 needed for 40 map words"),
		       "buf (%s): map_size 40 is a finding", en(e));
		titem_free(&t);

		/* region cut inside the bitmap: 16 words declared, 5 present */
		make_buf(&b, e, 1, 0, 128, 0, 16, map, 5);
		titem_init(&t, e, XFS_LI_BUF, 1);
		titem_add(&t, &b);
		rc = xls_buf_format_parse(&t.it, &bf, &why);
		tap_ok(&T, rc == 0 && t.r[0].len == 40 && bf.map_words == 5 &&
			   bf.blf_data_map[4] == 0xffffffffu &&
			   bf.blf_data_map[5] == 0,
		       "buf (%s): bitmap cut short gives map_words 5", en(e));
		rc = describe(&t);
		tap_ok(&T, finding(rc, "buf format region is 40 bytes, 84 needed for 16 map words"),
		       "buf (%s): bitmap cut short is a finding", en(e));
		titem_free(&t);

		/* bitmap cut mid-word: 22 bytes hold no complete word */
		make_buf(&b, e, 1, 0, 8, 0, 1, map, 1);
		titem_init(&t, e, XFS_LI_BUF, 1);
		titem_add_raw(&t, b.b, 22);
		rc = xls_buf_format_parse(&t.it, &bf, &why);
		tap_ok(&T, rc == 0 && bf.map_words == 0 && bf.blf_data_map[0] == 0,
		       "buf (%s): half a map word is not read", en(e));
		titem_free(&t);

		/* 10-byte region: not even the fixed part */
		titem_init(&t, e, XFS_LI_BUF, 1);
		titem_add_raw(&t, b.b, 10);
		rc = xls_buf_format_parse(&t.it, &bf, &why);
		tap_ok(&T, rc == -1 && why && *why,
		       "buf (%s): 10-byte region is an error", en(e));
		rc = describe(&t);
		tap_ok(&T, finding(rc, "buf format region is 10 bytes, 20 needed") &&
			   f_absent("blkno"),
		       "buf (%s): 10-byte region is a finding", en(e));
		titem_free(&t);

		/* blf_size disagrees with the regions present */
		map[0] = 1;
		make_buf(&b, e, 3, 0x40 | (1 << 11), 8, 0, 1, map, 1);
		titem_init(&t, e, XFS_LI_BUF, 3);
		titem_add(&t, &b);
		titem_add_raw(&t, data, 128);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "item declares 3 regions, 2 present") &&
			   f_s("flag_names", "UNKNOWN(0x40)") &&
			   f_s("buf_type", "udquot"),
		       "buf (%s): blf_size mismatch and unknown flag bits", en(e));
		titem_free(&t);
	}

	titem_init(&t, XLS_LITTLE_ENDIAN, XFS_LI_BUF, 1);
	tap_ok(&T, xls_buf_format_parse(&t.it, &bf, &why) == -1,
	       "buf: parse of an item with no regions is an error");

	tap_ok(&T, strcmp(xls_blft_name(0), "unknown") == 0 &&
		   strcmp(xls_blft_name(5), "agf") == 0 &&
		   strcmp(xls_blft_name(8), "dino") == 0 &&
		   strcmp(xls_blft_name(13), "dir_leaf1") == 0 &&
		   strcmp(xls_blft_name(20), "rtsummary") == 0 &&
		   strcmp(xls_blft_name(21), "blft_21") == 0 &&
		   strcmp(xls_blft_name(31), "blft_31") == 0 &&
		   xls_blft(0x9000) == 18,
	       "buf: buffer type names");
	{
		char s[80];

		xls_blf_flags_str(0xffff, s, sizeof(s));
		tap_ok(&T, strcmp(s, "inode_buf|cancel|udquot_buf|pdquot_buf|gdquot_buf|UNKNOWN(0x7e0)") == 0,
		       "buf: flag names ignore the type bits (%s)", s);
	}
}
