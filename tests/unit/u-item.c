/*
 * Unit tests for the items stage: hand-assembled log items of every type in
 * both byte orders (explicit byte writes at the kernel layouts' offsets,
 * never struct casts), findings for short and inconsistent items,
 * xls_buf_format_parse() edge cases, and truncation/random sweeps whose
 * regions are malloc'ed at their exact length so that ASan catches any read
 * past a region.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "items/item.h"
#include "report/describe.h"
#include "report/emit.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_REGIONS	8

static struct tap T;

/* ---- byte assembly -------------------------------------------------- */

struct bytes {
	enum xls_endian	e;
	size_t		len;
	uint8_t		b[4096];
};

static void bytes_init(struct bytes *b, enum xls_endian e)
{
	memset(b, 0, sizeof(*b));
	b->e = e;
}

static void grow(struct bytes *b, size_t off, size_t n)
{
	if (off + n > b->len)
		b->len = off + n;
}

static void put8(struct bytes *b, size_t off, uint8_t v)
{
	b->b[off] = v;
	grow(b, off, 1);
}

/* Store @n bytes of @v at @off, big-endian when @big. */
static void put_n(struct bytes *b, size_t off, uint64_t v, int n, bool big)
{
	for (int i = 0; i < n; i++) {
		int shift = big ? 8 * (n - 1 - i) : 8 * i;

		b->b[off + i] = (uint8_t)(v >> shift);
	}
	grow(b, off, n);
}

/* Host-order (writer's CPU) stores. */
static void put16(struct bytes *b, size_t off, uint16_t v)
{
	put_n(b, off, v, 2, b->e == XLS_BIG_ENDIAN);
}
static void put32(struct bytes *b, size_t off, uint32_t v)
{
	put_n(b, off, v, 4, b->e == XLS_BIG_ENDIAN);
}
static void put64(struct bytes *b, size_t off, uint64_t v)
{
	put_n(b, off, v, 8, b->e == XLS_BIG_ENDIAN);
}
/* Big-endian (__be) stores. */
static void putbe16(struct bytes *b, size_t off, uint16_t v)
{
	put_n(b, off, v, 2, true);
}
static void putbe32(struct bytes *b, size_t off, uint32_t v)
{
	put_n(b, off, v, 4, true);
}
static void putbe64(struct bytes *b, size_t off, uint64_t v)
{
	put_n(b, off, v, 8, true);
}

/* Format region header: u16 type, u16 size, host order. */
static void put_hdr(struct bytes *b, uint16_t type, uint16_t size)
{
	put16(b, 0, type);
	put16(b, 2, size);
}

/* ---- items with exactly-sized regions -------------------------------- */

struct titem {
	struct xls_item		it;
	struct xls_region	r[MAX_REGIONS];
	uint8_t			*mem[MAX_REGIONS];
};

static void titem_init(struct titem *t, enum xls_endian e, uint16_t type,
		       uint16_t size)
{
	memset(t, 0, sizeof(*t));
	t->it.type = type;
	t->it.size = size;
	t->it.endian = e;
	t->it.regions = t->r;
}

static void titem_add_raw(struct titem *t, const uint8_t *p, size_t len)
{
	uint32_t i = t->it.nregions++;

	t->mem[i] = malloc(len ? len : 1);
	if (len)
		memcpy(t->mem[i], p, len);
	t->r[i].data = t->mem[i];
	t->r[i].len = (uint32_t)len;
}

static void titem_add(struct titem *t, const struct bytes *b)
{
	titem_add_raw(t, b->b, b->len);
}

/* Replace region @i by its first @len bytes, reallocated at exact size. */
static void titem_cut(struct titem *t, uint32_t i, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	memcpy(p, t->mem[i], len);
	free(t->mem[i]);
	t->mem[i] = p;
	t->r[i].data = p;
	t->r[i].len = (uint32_t)len;
}

static void titem_free(struct titem *t)
{
	for (uint32_t i = 0; i < t->it.nregions; i++)
		free(t->mem[i]);
	t->it.nregions = 0;
}

/* ---- field checks ---------------------------------------------------- */

static struct xls_fieldset FS;
static unsigned int dup_keys;

/* Describe @t into FS; count any key that appears twice (keys are API). */
static int describe(const struct titem *t)
{
	int rc;

	xls_fields_reset(&FS);
	rc = xls_describe_raw_item(&t->it, &FS);
	for (unsigned int i = 0; i < FS.n; i++)
		for (unsigned int j = i + 1; j < FS.n; j++)
			if (strcmp(FS.f[i].key, FS.f[j].key) == 0) {
				if (!dup_keys++)
					tap_diag("duplicate key %s in %s item",
						 FS.f[i].key, FS.f[0].v.s);
			}
	return rc;
}

static bool f_u(const char *key, uint64_t want)
{
	const struct xls_field *f = xls_fields_get(&FS, key);

	if (!f || (f->kind != XLS_FIELD_UINT && f->kind != XLS_FIELD_HEX)) {
		tap_diag("field %s missing or not unsigned", key);
		return false;
	}
	if (f->v.u != want)
		tap_diag("field %s is 0x%llx, want 0x%llx", key,
			 (unsigned long long)f->v.u, (unsigned long long)want);
	return f->v.u == want;
}

static bool f_i(const char *key, int64_t want)
{
	const struct xls_field *f = xls_fields_get(&FS, key);

	if (!f || f->kind != XLS_FIELD_INT) {
		tap_diag("field %s missing or not signed", key);
		return false;
	}
	if (f->v.i != want)
		tap_diag("field %s is %lld, want %lld", key, (long long)f->v.i,
			 (long long)want);
	return f->v.i == want;
}

/* A string field as it is, a list as its JSON array; NULL if neither. */
static const char *f_string(const char *key)
{
	static char json[16384];
	const struct xls_field *f = xls_fields_get(&FS, key);

	if (!f || (f->kind != XLS_FIELD_STR && f->kind != XLS_FIELD_LIST))
		return NULL;
	if (f->kind == XLS_FIELD_STR)
		return f->v.s;
	xls_field_format_json(f, json, sizeof(json));
	return json;
}

static bool f_s(const char *key, const char *want)
{
	const char *s = f_string(key);

	if (!s) {
		tap_diag("field %s missing or not a string", key);
		return false;
	}
	if (strcmp(s, want) != 0)
		tap_diag("field %s is '%s', want '%s'", key, s, want);
	return strcmp(s, want) == 0;
}

/* The text form of a list field. */
static bool f_text(const char *key, const char *want)
{
	const struct xls_field *f = xls_fields_get(&FS, key);
	char text[4096];

	if (!f || f->kind != XLS_FIELD_LIST) {
		tap_diag("field %s missing or not a list", key);
		return false;
	}
	xls_field_format(f, text, sizeof(text));
	if (strcmp(text, want) != 0)
		tap_diag("field %s text is '%s', want '%s'", key, text, want);
	return strcmp(text, want) == 0;
}

static bool f_contains(const char *key, const char *sub)
{
	const char *s = f_string(key);

	if (!s) {
		tap_diag("field %s missing", key);
		return false;
	}
	if (!strstr(s, sub))
		tap_diag("field %s is '%s', lacks '%s'", key, s, sub);
	return strstr(s, sub) != NULL;
}

static bool f_absent(const char *key)
{
	const struct xls_field *f = xls_fields_get(&FS, key);

	if (f)
		tap_diag("field %s unexpectedly present", key);
	return f == NULL;
}

static bool no_finding(int rc)
{
	const struct xls_field *f = xls_fields_get(&FS, "finding");

	if (f)
		tap_diag("unexpected finding: %s", f->v.s);
	return rc == 0 && !f && !FS.overflow;
}

static bool finding(int rc, const char *sub)
{
	return rc == 1 && f_contains("finding", sub);
}

static const char *en(enum xls_endian e)
{
	return e == XLS_BIG_ENDIAN ? "be" : "le";
}

/*
 * Describe @t with each region in turn cut to every shorter length; any
 * read past a region is caught by ASan.  The result must always carry the
 * common fields, and a cut format region never passes silently unless the
 * type has no payload to check.
 */
static void sweep_truncations(struct titem *t, const char *what)
{
	bool ok = true;

	for (uint32_t i = 0; i < t->it.nregions; i++) {
		uint32_t full = t->r[i].len;
		uint8_t *save = malloc(full ? full : 1);

		memcpy(save, t->mem[i], full);
		for (uint32_t len = 0; len < full; len++) {
			titem_cut(t, i, len);
			describe(t);
			if (!xls_fields_get(&FS, "item") ||
			    !xls_fields_get(&FS, "regions"))
				ok = false;
			/* restore the full region for the next cut */
			free(t->mem[i]);
			t->mem[i] = malloc(full ? full : 1);
			memcpy(t->mem[i], save, full);
			t->r[i].data = t->mem[i];
			t->r[i].len = full;
		}
		free(save);
	}
	tap_ok(&T, ok, "%s: every truncation decodes without overrun", what);
}

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

static void test_item__buf(void)
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
			   f_u("blkno", 0x1234560) && f_u("len", 8) &&
			   f_u("bytes", 4096) && f_u("map_size", 1) &&
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
		tap_ok(&T, no_finding(rc) && f_u("bytes", 65536) &&
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

static void test_item__inode(void)
{
	static const uint8_t fork[16] = "dir data fork";
	struct titem t;
	struct bytes f, c;
	int rc;

	for (int ei = 0; ei < 2; ei++) {
		enum xls_endian e = (enum xls_endian)ei;

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
			   f_i("buf_len", 32) && f_i("boffset", 0x2000) &&
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
			   f_i("buf_len", 16) && f_i("boffset", 0x600) &&
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

/* ---- EFI / EFD ------------------------------------------------------- */

static void make_efi(struct bytes *b, enum xls_endian e, uint16_t type,
		     uint32_t n, uint32_t stored, uint64_t id, int stride)
{
	bytes_init(b, e);
	put_hdr(b, type, 1);
	put32(b, 4, n);
	put64(b, 8, id);
	for (uint32_t i = 0; i < stored; i++) {
		size_t off = 16 + (size_t)i * stride;

		put64(b, off, 0x123 + 0x333 * (uint64_t)i);
		put32(b, off + 8, i ? 1 : 8);
		if (stride == 16)
			put32(b, off + 12, 0);
	}
	grow(b, 15, 1);
}

static void test_item__efi(void)
{
	struct titem t;
	struct bytes b;
	int rc;

	for (int ei = 0; ei < 2; ei++) {
		enum xls_endian e = (enum xls_endian)ei;

		make_efi(&b, e, XFS_LI_EFI, 2, 2, 0xffff888012345678ULL, 16);
		titem_init(&t, e, XFS_LI_EFI, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && t.r[0].len == 48 &&
			   f_s("item", "efi") && f_u("id", 0xffff888012345678ULL) &&
			   f_u("nextents", 2) &&
			   f_s("extents", "[{\"start\":291,\"len\":8},{\"start\":1110,\"len\":1}]") &&
			   f_text("extents", "0x123+8 0x456+1") &&
			   f_absent("extents_shown") && f_absent("extent_layout"),
		       "efi (%s): two 16-byte extents", en(e));
		sweep_truncations(&t, "efi");
		titem_free(&t);

		make_efi(&b, e, XFS_LI_EFI, 2, 2, 7, 12);
		titem_init(&t, e, XFS_LI_EFI, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && t.r[0].len == 40 &&
			   f_text("extents", "0x123+8 0x456+1") &&
			   f_s("extent_layout", "32-bit"),
		       "efi (%s): two 12-byte (i386) extents", en(e));
		titem_free(&t);

		make_efi(&b, e, XFS_LI_EFI, 1, 0, 7, 16);
		titem_init(&t, e, XFS_LI_EFI, 1);
		titem_add_raw(&t, b.b, 12);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "efi format region is 12 bytes, 16 needed") &&
			   f_absent("id"),
		       "efi (%s): 12-byte region is a finding", en(e));
		titem_free(&t);

		make_efi(&b, e, XFS_LI_EFI, 3, 2, 7, 16);
		titem_init(&t, e, XFS_LI_EFI, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "efi format region is 48 bytes, 64 (64-bit) or 52 (32-bit) needed for 3 extents") &&
			   f_u("extents_shown", 2),
		       "efi (%s): region shorter than nextents is a finding", en(e));
		titem_free(&t);

		make_efi(&b, e, XFS_LI_EFI, 0xffffffffu, 1, 7, 16);
		titem_init(&t, e, XFS_LI_EFI, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, rc == 1 && f_u("nextents", 0xffffffffu) &&
			   f_u("extents_shown", 1),
		       "efi (%s): nextents 2^32-1 does not overrun", en(e));
		titem_free(&t);

		make_efi(&b, e, XFS_LI_EFI_RT, 1, 1, 9, 16);
		titem_init(&t, e, XFS_LI_EFI_RT, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_s("item", "efi_rt") && f_u("id", 9),
		       "efi_rt (%s) decodes like efi", en(e));
		titem_free(&t);

		make_efi(&b, e, XFS_LI_EFD, 1, 1, 0xabc, 16);
		titem_init(&t, e, XFS_LI_EFD, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_s("item", "efd") &&
			   f_u("efi_id", 0xabc) && f_absent("id") &&
			   f_text("extents", "0x123+8"),
		       "efd (%s): efi_id and extents", en(e));
		titem_free(&t);

		make_efi(&b, e, XFS_LI_EFD_RT, 2, 2, 0xabc, 12);
		titem_init(&t, e, XFS_LI_EFD_RT, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_s("item", "efd_rt") &&
			   f_u("nextents", 2),
		       "efd_rt (%s): 32-bit layout", en(e));
		titem_free(&t);
	}

	/* 100 extents: the list is bounded, the rest counted */
	make_efi(&b, XLS_LITTLE_ENDIAN, XFS_LI_EFI, 100, 100, 1, 16);
	titem_init(&t, XLS_LITTLE_ENDIAN, XFS_LI_EFI, 1);
	titem_add(&t, &b);
	rc = describe(&t);
	{
		const char *f = f_string("extents");
		const struct xls_field *s = xls_fields_get(&FS, "extents_shown");
		size_t l = f ? strlen(f) : 0;

		tap_ok(&T, no_finding(rc) && f && s && s->v.u > 0 && s->v.u <= 32 &&
			   l > 2 && f[0] == '[' && f[l - 1] == ']' &&
			   f[l - 2] == '}',
		       "efi: 100 extents give a bounded, closed list (%llu shown)",
		       s ? (unsigned long long)s->v.u : 0ULL);
	}
	titem_free(&t);
}

/* ---- RUI / CUI / BUI and done items ----------------------------------- */

/* struct xfs_map_extent: owner 0, startblock 8, startoff 16, len 24, flags 28 */
static void put_map(struct bytes *b, size_t off, uint64_t owner, uint64_t sb,
		    uint64_t so, uint32_t len, uint32_t flags)
{
	put64(b, off, owner);
	put64(b, off + 8, sb);
	put64(b, off + 16, so);
	put32(b, off + 24, len);
	put32(b, off + 28, flags);
}

static void make_done(struct bytes *b, enum xls_endian e, uint16_t type,
		      uint64_t id)
{
	bytes_init(b, e);
	put_hdr(b, type, 1);
	put32(b, 4, 0);
	put64(b, 8, id);
}

static void test_item__intents(void)
{
	static const struct {
		uint16_t	type;
		const char	*name;
		const char	*key;
	} dones[] = {
		{ XFS_LI_RUD,		"rud",		"rui_id" },
		{ XFS_LI_RUD_RT,	"rud_rt",	"rui_id" },
		{ XFS_LI_CUD,		"cud",		"cui_id" },
		{ XFS_LI_CUD_RT,	"cud_rt",	"cui_id" },
		{ XFS_LI_BUD,		"bud",		"bui_id" },
		{ XFS_LI_XMD,		"xmd",		"xmi_id" },
		{ XFS_LI_ATTRD,		"attrd",	"attri_id" },
	};
	struct titem t;
	struct bytes b;
	int rc;

	for (int ei = 0; ei < 2; ei++) {
		enum xls_endian e = (enum xls_endian)ei;

		/* RUI: two extents, one with a special owner */
		bytes_init(&b, e);
		put_hdr(&b, XFS_LI_RUI, 1);
		put32(&b, 4, 2);
		put64(&b, 8, 0x1111);
		put_map(&b, 16, 131, 0x1230, 0, 8,
			XFS_RMAP_EXTENT_MAP | XFS_RMAP_EXTENT_ATTR_FORK |
			XFS_RMAP_EXTENT_UNWRITTEN);
		put_map(&b, 48, (uint64_t)-5, 0x40, 0, 1, XFS_RMAP_EXTENT_ALLOC);
		titem_init(&t, e, XFS_LI_RUI, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && t.r[0].len == 80 && f_u("id", 0x1111) &&
			   f_u("nextents", 2) &&
			   f_contains("extents", "{\"owner\":131,\"startblock\":4656,\"startoff\":0,\"len\":8,\"flags\":\"0xa0000001\",\"type\":\"map\",\"flag_names\":\"attr_fork|unwritten\"}") &&
			   f_contains("extents", "\"owner_name\":\"ag\"") &&
			   f_text("extents", "map|attr_fork|unwritten owner=131 0x1230+8@0; alloc owner=ag 0x40+1@0"),
		       "rui (%s): map extents with flags and a special owner", en(e));
		sweep_truncations(&t, "rui");
		titem_free(&t);

		/* RUI_RT with a bad length and an unknown type code */
		bytes_init(&b, e);
		put_hdr(&b, XFS_LI_RUI_RT, 1);
		put32(&b, 4, 2);
		put64(&b, 8, 0x2222);
		put_map(&b, 16, 131, 0x1230, 0, 8, 9);
		titem_init(&t, e, XFS_LI_RUI_RT, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "rui_rt format region is 48 bytes, 80 needed for 2 extents") &&
			   f_contains("finding", "unknown type code") &&
			   f_s("item", "rui_rt") && f_u("extents_shown", 1) &&
			   f_contains("extents", "\"type\":\"type_9\""),
		       "rui_rt (%s): short region and bad type are findings", en(e));
		titem_free(&t);

		/* CUI: struct xfs_phys_extent: startblock 0, len 8, flags 12 */
		bytes_init(&b, e);
		put_hdr(&b, XFS_LI_CUI, 1);
		put32(&b, 4, 1);
		put64(&b, 8, 0x3333);
		put64(&b, 16, 0x777);
		put32(&b, 24, 16);
		put32(&b, 28, 3);
		titem_init(&t, e, XFS_LI_CUI, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_u("id", 0x3333) &&
			   f_s("extents", "[{\"startblock\":1911,\"len\":16,\"flags\":\"0x3\",\"type\":\"alloc_cow\"}]") &&
			   f_text("extents", "alloc_cow 0x777+16"),
		       "cui (%s): one refcount extent", en(e));
		sweep_truncations(&t, "cui");
		titem_free(&t);

		put_hdr(&b, XFS_LI_CUI_RT, 1);
		put32(&b, 28, 0x100 | 1);
		titem_init(&t, e, XFS_LI_CUI_RT, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "unknown type or flags") &&
			   f_s("item", "cui_rt"),
		       "cui_rt (%s): flag bits above the type code are a finding", en(e));
		titem_free(&t);

		/* BUI: one mapping, unmap of a realtime attr-fork extent */
		bytes_init(&b, e);
		put_hdr(&b, XFS_LI_BUI, 1);
		put32(&b, 4, 1);
		put64(&b, 8, 0x4444);
		put_map(&b, 16, 0x85, 0x9000, 12, 4,
			2 | XFS_BMAP_EXTENT_ATTR_FORK | (1U << 29));
		titem_init(&t, e, XFS_LI_BUI, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, no_finding(rc) && f_u("id", 0x4444) &&
			   f_contains("extents", "\"type\":\"unmap\",\"flag_names\":\"attr_fork|realtime\"") &&
			   f_text("extents", "unmap|attr_fork|realtime ino=133 0x9000+4@12"),
		       "bui (%s): one bmap extent", en(e));
		titem_free(&t);

		/* BUI with two mappings: recovery takes only one */
		put32(&b, 4, 2);
		put_map(&b, 48, 0x85, 0x9100, 16, 4, 1);
		titem_init(&t, e, XFS_LI_BUI, 1);
		titem_add(&t, &b);
		rc = describe(&t);
		tap_ok(&T, finding(rc, "bui_nextents is 2, recovery accepts only 1"),
		       "bui (%s): two mappings are a finding", en(e));
		titem_free(&t);

		for (size_t i = 0; i < ARRAY_SIZE(dones); i++) {
			make_done(&b, e, dones[i].type, 0xfeed0000 + i);
			titem_init(&t, e, dones[i].type, 1);
			titem_add(&t, &b);
			rc = describe(&t);
			tap_ok(&T, no_finding(rc) && f_s("item", dones[i].name) &&
				   f_u(dones[i].key, 0xfeed0000 + i),
			       "%s (%s): %s", dones[i].name, en(e), dones[i].key);
			titem_free(&t);
			titem_init(&t, e, dones[i].type, 1);
			titem_add_raw(&t, b.b, 12);
			rc = describe(&t);
			tap_ok(&T, rc == 1 && f_absent(dones[i].key),
			       "%s (%s): 12-byte region is a finding", dones[i].name,
			       en(e));
			titem_free(&t);
		}
	}
}

/* ---- XMI ------------------------------------------------------------- */

static void test_item__xmi(void)
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

static void test_item__attri(void)
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
			   f_s("name", "foo") && f_absent("new_name_len"),
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
			   strlen(xls_fields_get(&FS, "name")->v.s) == 256,
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

static void test_item__misc(void)
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
			   f_u("isize", 512) && f_u("length", 8) &&
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
		tap_ok(&T, no_finding(rc) && f_u("id", 1000) && f_u("blkno", 0x5000) &&
			   f_i("buf_len", 1) && f_u("boffset", 0x300) &&
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
		if (describe(&t) < 0 || !xls_fields_get(&FS, "item"))
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
