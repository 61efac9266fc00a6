/*
 * Unit tests for the items stage: hand-assembled log items of every type in
 * both byte orders (explicit byte writes at the kernel layouts' offsets,
 * never struct casts), findings for short and inconsistent items,
 * xls_buf_format_parse() edge cases, and truncation/random sweeps whose
 * regions are malloc'ed at their exact length so that ASan catches any read
 * past a region.
 *
 * The tests are in pieces sharing u-item.h: helpers.c assembles items and
 * checks fields, buf.c, inode.c, extents.c and other.c test the item
 * families, and this file has detection and names, the common fields, the
 * random sweep and main(), which runs them in order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "u-item.h"

struct tap T;

/* ---- detect and names ------------------------------------------------ */

static void test_item__detect(void)
{
	static const uint16_t types[] = {
		0x1236, 0x1237, 0x1238, 0x123b, 0x123c, 0x123d, 0x123e, 0x123f,
		0x1240, 0x1241, 0x1242, 0x1243, 0x1244, 0x1245, 0x1246, 0x1247,
		0x1248, 0x1249, 0x124a, 0x124b, 0x124c, 0x124d, 0x124e, 0x124f,
	};
	static const char *const names[] = {
		"efi", "efd", "iunlink", "inode", "buf", "dquot", "quotaoff",
		"icreate", "rui", "rud", "cui", "cud", "bui", "bud", "attri",
		"attrd", "xmi", "xmd", "efi_rt", "efd_rt", "rui_rt", "rud_rt",
		"cui_rt", "cud_rt",
	};
	bool ok = true;
	uint8_t p[4];
	uint16_t type;
	enum xls_endian e;

	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		const char *n = xls_item_type_name(types[i]);

		if (!n || strcmp(n, names[i]) != 0) {
			tap_diag("type 0x%x named %s", types[i], n ? n : "(null)");
			ok = false;
		}
		p[0] = types[i] & 0xff;
		p[1] = types[i] >> 8;
		if (xls_item_detect(p, 2, &type, &e) != 0 || type != types[i] ||
		    e != XLS_LITTLE_ENDIAN)
			ok = false;
		p[0] = types[i] >> 8;
		p[1] = types[i] & 0xff;
		if (xls_item_detect(p, 2, &type, &e) != 0 || type != types[i] ||
		    e != XLS_BIG_ENDIAN)
			ok = false;
	}
	tap_ok(&T, ok, "detect: all 24 types named and detected in both byte orders");
	tap_ok(&T, xls_item_type_name(0x1239) == NULL &&
		   xls_item_type_name(0) == NULL &&
		   xls_item_type_name(0x1250) == NULL,
	       "detect: unassigned types have no name");

	p[0] = 0x34;
	p[1] = 0x12;
	tap_ok(&T, xls_item_detect(p, 4, &type, &e) == -1 && type == 0x1234 &&
		   e == XLS_LITTLE_ENDIAN,
	       "detect: garbage gives -1 and the little-endian reading");
	tap_ok(&T, xls_item_detect(p, 1, &type, &e) == -1,
	       "detect: one byte is not enough");
	tap_ok(&T, xls_item_detect(NULL, 0, &type, &e) == -1,
	       "detect: NULL is refused");
}

/* ---- common ---------------------------------------------------------- */

static void test_item__common(void)
{
	struct titem t;
	struct bytes b;
	int rc;

	titem_init(&t, XLS_LITTLE_ENDIAN, XFS_LI_BUF, 1);
	rc = describe(&t);
	tap_ok(&T, finding(rc, "no regions") && f_s("item", "buf") &&
		   f_u("type_code", 0x123c) && f_u("regions", 0) && f_u("size", 1),
	       "common: item with no regions is a finding");

	bytes_init(&b, XLS_LITTLE_ENDIAN);
	put16(&b, 0, XFS_LI_BUF);
	titem_add(&t, &b);
	rc = describe(&t);
	tap_ok(&T, finding(rc, "format region is 2 bytes, 4 needed"),
	       "common: 2-byte format region is a finding");
	titem_free(&t);

	bytes_init(&b, XLS_BIG_ENDIAN);
	put_hdr(&b, 0x1300, 2);
	put32(&b, 4, 0xdeadbeef);
	titem_init(&t, XLS_BIG_ENDIAN, 0x1300, 2);
	titem_add(&t, &b);
	titem_add(&t, &b);
	rc = describe(&t);
	tap_ok(&T, no_finding(rc) && f_s("item", "unknown") &&
		   f_u("type_code", 0x1300) && f_u("regions", 2) && FS.n == 4,
	       "common: unknown type gets only the common fields");
	titem_free(&t);

	for (int e = 0; e < 2; e++) {
		bytes_init(&b, (enum xls_endian)e);
		put_hdr(&b, XFS_LI_IUNLINK, 1);
		titem_init(&t, (enum xls_endian)e, XFS_LI_IUNLINK, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_s("item", "iunlink") && FS.n == 4,
		       "common: iunlink (%s) has only the common fields", en(e));
		titem_free(&t);
	}
}

/* ---- random input ---------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static void test_item__random(void)
{
	static const uint16_t types[] = {
		0x1236, 0x1237, 0x1238, 0x123b, 0x123c, 0x123d, 0x123e, 0x123f,
		0x1240, 0x1241, 0x1242, 0x1243, 0x1244, 0x1245, 0x1246, 0x1247,
		0x1248, 0x1249, 0x124a, 0x124b, 0x124c, 0x124d, 0x124e, 0x124f,
		0x1300,
	};
	static uint8_t buf[512];
	struct xls_buf_format bf;
	const char *why;
	struct titem t;
	bool ok = true;

	for (int iter = 0; iter < 20000; iter++) {
		enum xls_endian e = (enum xls_endian)(rnd() & 1);
		uint16_t type = types[rnd() % ARRAY_SIZE(types)];
		uint32_t nreg = rnd() % 6;

		titem_init(&t, e, type, (uint16_t)(rnd() % 7));
		for (uint32_t i = 0; i < nreg; i++) {
			uint32_t len = rnd() % (i == 0 ? 200 : 320);

			for (uint32_t j = 0; j < len; j++)
				buf[j] = (uint8_t)rnd();
			/* small counts now and then so decoders go deep */
			if (i == 0 && len >= 8 && (rnd() & 1)) {
				buf[4] = (uint8_t)(rnd() % 4);
				buf[5] = buf[6] = buf[7] = 0;
			}
			titem_add_raw(&t, buf, len);
		}
		if (describe(&t) < 0 || !field_named("item"))
			ok = false;
		if (type == XFS_LI_BUF) {
			int rc = xls_buf_format_parse(&t.it, &bf, &why);

			if (rc == 0 && bf.map_words > XFS_BLF_DATAMAP_SIZE)
				ok = false;
		}
		titem_free(&t);
	}
	tap_ok(&T, ok, "random: 20000 random items decode without overrun");
}

int main(void)
{
	test_item__detect();
	test_item__common();
	test_item__buf();
	test_item__inode();
	test_item__efi();
	test_item__intents();
	test_item__xmi();
	test_item__attri();
	test_item__misc();
	test_item__random();
	tap_ok(&T, dup_keys == 0, "no item ever has a key twice (%u seen)", dup_keys);
	return tap_done(&T);
}
