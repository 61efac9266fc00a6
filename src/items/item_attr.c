/*
 * Logged extended attribute items (XFS_LI_ATTRI/ATTRD).
 *
 * regions[0] is struct xfs_attri_log_format (40 bytes, host order).  The
 * xfsprogs 6.1 header calls bytes 4..7 __pad; since Linux 6.10 (parent
 * pointers) they are alfi_igen, and alfi_name_len shares its 32 bits with
 * u16 alfi_old_name_len + u16 alfi_new_name_len for PPTR_REPLACE.  The
 * regions that follow, each padded to 4 bytes (xlog_calc_iovec_len), are
 * (xfs_attri_item_format, xlog_recover_attri_commit_pass2):
 *	name, [new name: PPTR_REPLACE], [value: value_len > 0],
 *	[new value: PPTR_REPLACE with value_len > 0]
 * Parent pointer values are struct xfs_parent_rec { __be64 p_ino;
 * __be32 p_gen; }.
 */
#include <stdio.h>
#include <string.h>
#include "items/item.h"
#include "items/item_priv.h"

#define ALFI(f)		offsetof(struct xfs_attri_log_format, f)
/* __pad in xfsprogs 6.1, alfi_igen in Linux 6.10+: named by offset */
#define ALFI_IGEN	4
#define ALFI_OLD_NAME_LEN ALFI(alfi_name_len)		/* u16, PPTR_REPLACE */
#define ALFI_NEW_NAME_LEN (ALFI(alfi_name_len) + 2)	/* u16, PPTR_REPLACE */
#define ALFI_SIZE	sizeof(struct xfs_attri_log_format)

static_assert(ALFI(alfi_id) == 8 && ALFI_SIZE == 40, "xfs_attri_log_format layout");

/* struct xfs_parent_rec (xfs_da_format.h, Linux 6.10+), big-endian. */
#define PARENT_REC_INO	0
#define PARENT_REC_GEN	8
#define PARENT_REC_SIZE	12

/* Longest name shown; the rest is counted in "name_shown". */
#define ATTR_NAME_SHOW	256

static const char *const attri_ops[] = {
	[XFS_ATTRI_OP_FLAGS_SET]		= "set",
	[XFS_ATTRI_OP_FLAGS_REMOVE]		= "remove",
	[XFS_ATTRI_OP_FLAGS_REPLACE]		= "replace",
	[XFS_ATTRI_OP_FLAGS_PPTR_SET]		= "pptr_set",
	[XFS_ATTRI_OP_FLAGS_PPTR_REMOVE]	= "pptr_remove",
	[XFS_ATTRI_OP_FLAGS_PPTR_REPLACE]	= "pptr_replace",
};

static const struct xls_flag_name attr_filter_names[] = {
	{ XFS_ATTR_ROOT,	"root" },
	{ XFS_ATTR_SECURE,	"secure" },
	{ XFS_ATTR_PARENT,	"parent" },
	{ XFS_ATTR_INCOMPLETE,	"incomplete" },
};

#define ATTR_FILTER_KNOWN (XFS_ATTR_ROOT | XFS_ATTR_SECURE | XFS_ATTR_PARENT | \
			   XFS_ATTR_INCOMPLETE)

static bool is_pptr_op(uint32_t op)
{
	return op == XFS_ATTRI_OP_FLAGS_PPTR_SET ||
	       op == XFS_ATTRI_OP_FLAGS_PPTR_REMOVE ||
	       op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE;
}

/* Check that region @idx is @len padded to 4 bytes; a missing one is
 * already reported as a region-count finding. */
static const struct xls_region *attr_region(struct xls_desc *d, uint32_t idx,
					    const char *what, uint32_t len)
{
	const struct xls_region *r = xls_desc_region(d, idx);
	uint64_t want = ((uint64_t)len + 3) & ~(uint64_t)3;

	if (r && r->len != want)
		xls_desc_finding(d, "attri %s region is %u bytes, %llu expected for length %u",
				 what, r->len, (unsigned long long)want, len);
	return r;
}

/* Emit name bytes as "@key" (printable ASCII) or "@key_hex". */
static void attr_name(struct xls_desc *d, const struct xls_region *r,
		      uint32_t name_len, const char *key, const char *hex_key,
		      const char *shown_key)
{
	char buf[2 * ATTR_NAME_SHOW + 1];
	uint32_t n = name_len;
	bool printable = true;

	if (!r || !r->data)
		return;
	if (n > r->len)
		n = r->len;
	if (n > ATTR_NAME_SHOW)
		n = ATTR_NAME_SHOW;
	for (uint32_t i = 0; i < n; i++)
		if (r->data[i] < 0x20 || r->data[i] > 0x7e)
			printable = false;
	if (printable) {
		memcpy(buf, r->data, n);
		buf[n] = '\0';
		xls_field_str(d->fs, key, buf);
	} else {
		for (uint32_t i = 0; i < n; i++)
			snprintf(buf + 2 * i, 3, "%02x", r->data[i]);
		buf[2 * n] = '\0';
		xls_field_str(d->fs, hex_key, buf);
	}
	if (n < name_len)
		xls_field_uint(d->fs, shown_key, n);
}

static void parent_rec(struct xls_desc *d, const struct xls_region *r,
		       const char *ino_key, const char *gen_key)
{
	if (!xls_reg_has(r, 0, PARENT_REC_SIZE))
		return;
	xls_field_hex(d->fs, ino_key, xls_reg_be64(r, PARENT_REC_INO));
	xls_field_uint(d->fs, gen_key, xls_reg_be32(r, PARENT_REC_GEN));
}

void xls_describe_attri(struct xls_desc *d)
{
	char opname[24];
	uint32_t op_flags, op, filter, name_len, new_name_len = 0, value_len;
	const struct xls_region *name_r, *new_name_r = NULL, *value_r = NULL;
	const struct xls_region *new_value_r = NULL;
	const char *opstr;
	uint32_t idx, want;

	if (!xls_desc_need(d, ALFI_SIZE, NULL))
		return;
	if (d->fmt->len != ALFI_SIZE)
		xls_desc_finding(d, "attri format region is %u bytes, expected %zu",
				 d->fmt->len, (size_t)ALFI_SIZE);

	op_flags = xls_d32(d, ALFI(alfi_op_flags));
	op = op_flags & XFS_ATTRI_OP_FLAGS_TYPE_MASK;
	filter = xls_d32(d, ALFI(alfi_attr_filter));
	value_len = xls_d32(d, ALFI(alfi_value_len));
	if (op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE) {
		name_len = xls_d16(d, ALFI_OLD_NAME_LEN);
		new_name_len = xls_d16(d, ALFI_NEW_NAME_LEN);
	} else {
		name_len = xls_d32(d, ALFI(alfi_name_len));
	}
	opstr = op < sizeof(attri_ops) / sizeof(attri_ops[0]) ? attri_ops[op] : NULL;
	if (!opstr) {
		snprintf(opname, sizeof(opname), "op_%u", op);
		opstr = opname;
		xls_desc_finding(d, "unknown attri op %u", op);
	}

	xls_field_hex(d->fs, "id", xls_d64(d, ALFI(alfi_id)));
	xls_field_hex(d->fs, "ino", xls_d64(d, ALFI(alfi_ino)));
	xls_field_uint(d->fs, "igen", xls_d32(d, ALFI_IGEN));
	xls_field_str(d->fs, "op", opstr);
	xls_field_hex(d->fs, "op_flags", op_flags);
	xls_field_uint(d->fs, "name_len", name_len);
	if (op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE)
		xls_field_uint(d->fs, "new_name_len", new_name_len);
	xls_field_uint(d->fs, "value_len", value_len);
	xls_field_hex(d->fs, "attr_filter", filter);
	xls_field_flags(d->fs, "attr_filter_names", filter, attr_filter_names,
			sizeof(attr_filter_names) / sizeof(attr_filter_names[0]));

	if (op_flags & ~(uint32_t)XFS_ATTRI_OP_FLAGS_TYPE_MASK)
		xls_desc_finding(d, "alfi_op_flags 0x%x has bits above the op code",
				 op_flags);
	if (filter & ~ATTR_FILTER_KNOWN)
		xls_desc_finding(d, "alfi_attr_filter 0x%x has unknown bits", filter);
	if (is_pptr_op(op) && !(filter & XFS_ATTR_PARENT))
		xls_desc_finding(d, "parent pointer op without the parent filter");
	if (name_len == 0)
		xls_desc_finding(d, "attri name length is 0");

	/* Regions in the order the writer logs them. */
	idx = 1;
	name_r = attr_region(d, idx++, "name", name_len);
	if (op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE)
		new_name_r = attr_region(d, idx++, "new name", new_name_len);
	if (value_len)
		value_r = attr_region(d, idx++, "value", value_len);
	if (op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE && value_len)
		new_value_r = attr_region(d, idx++, "new value", value_len);
	want = idx;
	if (d->it->size != want)
		xls_desc_finding(d, "attri declares %u regions, op %s with these lengths needs %u",
				 d->it->size, opstr, want);

	attr_name(d, name_r, name_len, "name", "name_hex", "name_shown");
	if (new_name_r)
		attr_name(d, new_name_r, new_name_len, "new_name", "new_name_hex",
			  "new_name_shown");
	if (is_pptr_op(op)) {
		parent_rec(d, value_r, "parent_ino", "parent_gen");
		parent_rec(d, new_value_r, "new_parent_ino", "new_parent_gen");
	}
}

void xls_describe_attrd(struct xls_desc *d)
{
	xls_describe_done_item(d, "attri_id");
}
