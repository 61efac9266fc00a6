/*
 * u-item's other items: XMI, ATTRI (names, values, parent pointers, bad
 * ops and filters), icreate, dquot and quotaoff.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "u-item.h"

/* ---- XMI ------------------------------------------------------------- */

void test_item__xmi(void)
{
	struct titem t;
	struct bytes b;
	int rc;

	for (int ei = 0; ei < 2; ei++) {
		enum xls_endian e = (enum xls_endian)ei;

		bytes_init(&b, e);
		put_hdr(&b, XFS_LI_XMI, 1);
		put32(&b, 4, 0);
		put64(&b, 8, 0x5555);
		put64(&b, 16, 0x83);
		put64(&b, 24, 0x84);
		put32(&b, 32, 11);
		put32(&b, 36, 12);
		put64(&b, 40, 100);
		put64(&b, 48, 200);
		put64(&b, 56, 16);
		put64(&b, 64, 0x3);
		put64(&b, 72, 65536);
		put64(&b, 80, 4096);
		titem_init(&t, e, XFS_LI_XMI, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && t.r[0].len == 88 && f_u("id", 0x5555) &&
			   f_u("ino1", 0x83) && f_u("ino2", 0x84) &&
			   f_u("igen1", 11) && f_u("igen2", 12) &&
			   f_u("startoff1", 100) && f_u("startoff2", 200) &&
			   f_u("blockcount", 16) && f_u("flags", 3) &&
			   f_s("flag_names", "attr_fork|set_sizes") &&
			   f_i("isize1", 65536) && f_i("isize2", 4096),
		       "xmi (%s): all fields", en(e));
		sweep_truncations(&t, "xmi");
		titem_free(&t);

		put32(&b, 4, 1);
		titem_init(&t, e, XFS_LI_XMI, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "xmi __pad is 0x1"),
		       "xmi (%s): nonzero pad is a finding", en(e));
		titem_free(&t);

		titem_init(&t, e, XFS_LI_XMI, 1);
		titem_add_raw(&t, b.b, 80);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "xmi format region is 80 bytes, 88 needed") &&
			   f_absent("ino1"),
		       "xmi (%s): 80-byte region is a finding", en(e));
		titem_free(&t);
	}
}

/* ---- ATTRI ------------------------------------------------------------ */

/* struct xfs_attri_log_format: igen 4, id 8, ino 16, op_flags 24,
 * name_len 28 (old 28 / new 30 for PPTR_REPLACE), value_len 32, filter 36 */
static void make_attri(struct bytes *b, enum xls_endian e, uint16_t size,
		       uint32_t op, uint32_t name_len, uint32_t value_len,
		       uint32_t filter, uint32_t igen)
{
	bytes_init(b, e);
	put_hdr(b, XFS_LI_ATTRI, size);
	put32(b, 4, igen);
	put64(b, 8, 0x6666);
	put64(b, 16, 0x99);
	put32(b, 24, op);
	put32(b, 28, name_len);
	put32(b, 32, value_len);
	put32(b, 36, filter);
}

void test_item__attri(void)
{
	static uint8_t big[300];
	struct titem t;
	struct bytes b, v;
	int rc;

	for (int ei = 0; ei < 2; ei++) {
		enum xls_endian e = (enum xls_endian)ei;

		/* set "trusted.foo" = 5 bytes: name 3 -> 4-byte region */
		make_attri(&b, e, 3, XFS_ATTRI_OP_FLAGS_SET, 3, 5, 0x2, 0);
		titem_init(&t, e, XFS_LI_ATTRI, 3);
		titem_add(&t, &b);
		titem_add_raw(&t, (const uint8_t *)"foo\0", 4);
		titem_add_raw(&t, (const uint8_t *)"hello\0\0\0", 8);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_u("id", 0x6666) && f_u("ino", 0x99) &&
			   f_u("igen", 0) && f_s("op", "set") && f_u("op_flags", 1) &&
			   f_u("name_len", 3) && f_u("value_len", 5) &&
			   f_u("attr_filter", 2) && f_s("attr_filter_names", "root") &&
			   f_s("name", "foo") && f_absent("new_name_len") &&
			   f_absent("new_value_len"),
		       "attri (%s): set with name and value", en(e));
		sweep_truncations(&t, "attri");
		titem_free(&t);

		/* remove with a binary name */
		make_attri(&b, e, 2, XFS_ATTRI_OP_FLAGS_REMOVE, 2, 0, 0x4, 0);
		titem_init(&t, e, XFS_LI_ATTRI, 2);
		titem_add(&t, &b);
		titem_add_raw(&t, (const uint8_t *)"\x01\xff\0\0", 4);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_s("op", "remove") &&
			   f_s("name_hex", "01ff") && f_absent("name") &&
			   f_s("attr_filter_names", "secure"),
		       "attri (%s): remove with a binary name", en(e));
		titem_free(&t);

		/* parent pointer replace: old name, new name, old and new value */
		make_attri(&b, e, 5, XFS_ATTRI_OP_FLAGS_PPTR_REPLACE, 0, 12, 0x8,
			   0xabcdef);
		put16(&b, 28, 5);
		put16(&b, 30, 7);
		bytes_init(&v, e);
		putbe64(&v, 0, 0x80);
		putbe32(&v, 8, 0x1234);
		titem_init(&t, e, XFS_LI_ATTRI, 5);
		titem_add(&t, &b);
		titem_add_raw(&t, (const uint8_t *)"a.txt\0\0\0", 8);
		titem_add_raw(&t, (const uint8_t *)"b.txt.1\0", 8);
		titem_add(&t, &v);
		putbe64(&v, 0, 0x81);
		titem_add(&t, &v);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_s("op", "pptr_replace") &&
			   f_u("igen", 0xabcdef) && f_u("name_len", 5) &&
			   f_u("new_name_len", 7) && f_u("value_len", 12) &&
			   f_u("new_value_len", 12) &&
			   f_s("name", "a.txt") && f_s("new_name", "b.txt.1") &&
			   f_s("attr_filter_names", "parent") &&
			   f_u("parent_ino", 0x80) && f_u("parent_gen", 0x1234) &&
			   f_u("new_parent_ino", 0x81),
		       "attri (%s): parent pointer replace", en(e));
		sweep_truncations(&t, "attri pptr");
		titem_free(&t);

		/* unknown op, high op bits, unknown filter, wrong region size */
		make_attri(&b, e, 2, 0x100 | 9, 3, 0, 0x41, 0);
		titem_init(&t, e, XFS_LI_ATTRI, 2);
		titem_add(&t, &b);
		titem_add_raw(&t, (const uint8_t *)"foo", 3);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "unknown attri op 9") && f_s("op", "op_9") &&
			   f_contains("finding", "has bits above the op code") &&
			   f_contains("finding", "alfi_attr_filter 0x41 has unknown bits") &&
			   f_contains("finding", "name region is 3 bytes, 4 expected"),
		       "attri (%s): bad op, filter and name region are findings", en(e));
		titem_free(&t);

		/* long name: shown up to 256 bytes; region shorter than name_len */
		memset(big, 'x', sizeof(big));
		make_attri(&b, e, 2, XFS_ATTRI_OP_FLAGS_REMOVE, 300, 0, 0, 0);
		titem_init(&t, e, XFS_LI_ATTRI, 2);
		titem_add(&t, &b);
		titem_add_raw(&t, big, 300);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_u("name_shown", 256) &&
			   strlen(field_named("name")->v.s) == 256,
		       "attri (%s): long name is cut at 256 bytes", en(e));
		titem_free(&t);
		make_attri(&b, e, 2, XFS_ATTRI_OP_FLAGS_REMOVE, 200, 0, 0, 0);
		titem_init(&t, e, XFS_LI_ATTRI, 2);
		titem_add(&t, &b);
		titem_add_raw(&t, big, 20);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "name region is 20 bytes, 200 expected") &&
			   f_u("name_shown", 20),
		       "attri (%s): name region shorter than name_len", en(e));
		titem_free(&t);

		/* region count that does not fit the op */
		make_attri(&b, e, 2, XFS_ATTRI_OP_FLAGS_SET, 3, 5, 0, 0);
		titem_init(&t, e, XFS_LI_ATTRI, 2);
		titem_add(&t, &b);
		titem_add_raw(&t, (const uint8_t *)"foo", 4);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "attri declares 2 regions, op set with these lengths needs 3"),
		       "attri (%s): missing value region is a finding", en(e));
		titem_free(&t);
	}
}

/* ---- icreate, dquot, quotaoff ---------------------------------------- */

void test_item__misc(void)
{
	struct titem t;
	struct bytes b, q;
	int rc;

	for (int ei = 0; ei < 2; ei++) {
		enum xls_endian e = (enum xls_endian)ei;

		/* icreate: type/size host order, the rest __be32 */
		bytes_init(&b, e);
		put_hdr(&b, XFS_LI_ICREATE, 1);
		putbe32(&b, 4, 2);
		putbe32(&b, 8, 0x18);
		putbe32(&b, 12, 64);
		putbe32(&b, 16, 512);
		putbe32(&b, 20, 8);
		putbe32(&b, 24, 0x7ffac944);
		titem_init(&t, e, XFS_LI_ICREATE, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && t.r[0].len == 28 && f_u("ag", 2) &&
			   f_u("agbno", 0x18) && f_u("count", 64) &&
			   f_u("isize", 512) && f_u("length_fsb", 8) &&
			   f_u("gen", 0x7ffac944),
		       "icreate (%s): big-endian payload", en(e));
		sweep_truncations(&t, "icreate");
		titem_free(&t);

		/* dquot: xfs_dq_logformat id 4, blkno 8, len 16, boffset 20;
		 * xfs_disk_dquot big-endian: magic 0, version 2, type 3, id 4 */
		bytes_init(&b, e);
		put_hdr(&b, XFS_LI_DQUOT, 2);
		put32(&b, 4, 1000);
		put64(&b, 8, 0x5000);
		put32(&b, 16, 1);
		put32(&b, 20, 0x300);
		bytes_init(&q, e);
		putbe16(&q, 0, 0x4451);
		put8(&q, 2, 1);
		put8(&q, 3, XFS_DQTYPE_USER);
		putbe32(&q, 4, 1000);
		grow(&q, 103, 1);
		titem_init(&t, e, XFS_LI_DQUOT, 2);
		titem_add(&t, &b);
		titem_add(&t, &q);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_u("quota_id", 1000) && f_u("blkno", 0x5000) &&
			   f_i("buf_len_bb", 1) && f_i("boffset", 0x300) &&
			   f_u("d_magic", 0x4451) && f_s("d_type_names", "user") &&
			   f_u("d_id", 1000),
		       "dquot (%s): format and dquot", en(e));
		sweep_truncations(&t, "dquot");
		titem_free(&t);

		putbe16(&q, 0, 0x5144);
		titem_init(&t, e, XFS_LI_DQUOT, 2);
		titem_add(&t, &b);
		titem_add_raw(&t, q.b, 64);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "d_magic 0x5144 is not 0x4451") &&
			   f_contains("finding", "dquot region is 64 bytes, 104 needed"),
		       "dquot (%s): bad magic and short dquot are findings", en(e));
		titem_free(&t);

		/* quotaoff: qf_flags at 4 */
		bytes_init(&b, e);
		put_hdr(&b, XFS_LI_QUOTAOFF, 1);
		put32(&b, 4, XFS_UQUOTA_ACCT | XFS_GQUOTA_ACCT | 0x8000);
		grow(&b, 19, 1);
		titem_init(&t, e, XFS_LI_QUOTAOFF, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_u("qflags", 0x8041) &&
			   f_s("qflag_names", "uquota_acct|gquota_acct|UNKNOWN(0x8000)"),
		       "quotaoff (%s): flags", en(e));
		titem_free(&t);
	}
}
