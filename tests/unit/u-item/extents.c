/*
 * u-item's extent items: EFI/EFD (64-bit and i386 extents, bounded
 * lists), RUI/CUI/BUI with their realtime variants, and every done item.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "u-item.h"

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

void test_item__efi(void)
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
			   f_s("extents", "[{\"startblock\":\"0x123\",\"len_fsb\":8},{\"startblock\":\"0x456\",\"len_fsb\":1}]") &&
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
		const struct xls_field *s = field_named("extents_shown");
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

void test_item__intents(void)
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
			   f_contains("extents", "{\"owner_id\":131,\"startblock\":\"0x1230\",\"startoff\":0,\"len_fsb\":8,\"flags\":\"0xa0000001\",\"type\":\"map\",\"flag_names\":\"attr_fork|unwritten\"}") &&
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
			   f_s("extents", "[{\"startblock\":\"0x777\",\"len_fsb\":16,\"flags\":\"0x3\",\"type\":\"alloc_cow\"}]") &&
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
