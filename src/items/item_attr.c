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

#include "base/flags.h"
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

const struct xls_flag_table xls_attr_filter_flag_table = XLS_FLAG_TABLE(attr_filter_names);

static bool is_pptr_op(uint32_t op)
{
	return op == XFS_ATTRI_OP_FLAGS_PPTR_SET ||
	       op == XFS_ATTRI_OP_FLAGS_PPTR_REMOVE ||
	       op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE;
}

/* Check that region @idx is @len padded to 4 bytes; a missing one is
 * already reported as a region-count problem. */
static const struct xls_region *attr_region(const struct xls_item *it, uint32_t idx,
					    const char *what, uint32_t len,
					    struct xls_item_problems *p)
{
	const struct xls_region *r = xls_item_region(it, idx);
	uint64_t want = ((uint64_t)len + 3) & ~(uint64_t)3;

	if (r && r->len != want)
		xls_item_problem(p, "attri %s region is %u bytes, %llu expected for length %u",
				 what, r->len, (unsigned long long)want, len);
	return r;
}

/* struct xfs_parent_rec in @r, when it holds one. */
static bool parent_rec(const struct xls_region *r, uint64_t *ino, uint32_t *gen)
{
	if (!xls_reg_has(r, 0, PARENT_REC_SIZE))
		return false;
	*ino = xls_reg_be64(r, PARENT_REC_INO);
	*gen = xls_reg_be32(r, PARENT_REC_GEN);
	return true;
}

int xls_attri_item_parse(const struct xls_item *it, struct xls_attri_item *a,
			 struct xls_item_problems *p)
{
	const struct xls_region *fmt = xls_item_region(it, 0);
	enum xls_endian e = it->endian;
	uint32_t before = p->count, idx, want, ns;

	memset(a, 0, sizeof(*a));
	if (!xls_item_need(p, "attri", fmt, ALFI_SIZE, NULL))
		return 1;
	a->has_format = true;
	if (fmt->len != ALFI_SIZE)
		xls_item_problem(p, "attri format region is %u bytes, expected %zu",
				 fmt->len, (size_t)ALFI_SIZE);

	a->op_flags = xls_reg_get32(fmt, e, ALFI(alfi_op_flags));
	a->op = a->op_flags & XFS_ATTRI_OP_FLAGS_TYPE_MASK;
	a->attr_filter = xls_reg_get32(fmt, e, ALFI(alfi_attr_filter));
	a->value_len = xls_reg_get32(fmt, e, ALFI(alfi_value_len));
	if (a->op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE) {
		a->name_len = xls_reg_get16(fmt, e, ALFI_OLD_NAME_LEN);
		a->new_name_len = xls_reg_get16(fmt, e, ALFI_NEW_NAME_LEN);
	} else {
		a->name_len = xls_reg_get32(fmt, e, ALFI(alfi_name_len));
	}
	a->op_name = a->op < sizeof(attri_ops) / sizeof(attri_ops[0]) ?
		     attri_ops[a->op] : NULL;
	if (!a->op_name)
		xls_item_problem(p, "unknown attri op %u", a->op);
	a->id = xls_reg_get64(fmt, e, ALFI(alfi_id));
	a->ino = xls_reg_get64(fmt, e, ALFI(alfi_ino));
	a->igen = xls_reg_get32(fmt, e, ALFI_IGEN);
	a->pptr = is_pptr_op(a->op);

	if (a->op_flags & ~(uint32_t)XFS_ATTRI_OP_FLAGS_TYPE_MASK)
		xls_item_problem(p, "alfi_op_flags 0x%x has bits above the op code",
				 a->op_flags);
	if (a->attr_filter & ~ATTR_FILTER_KNOWN)
		xls_item_problem(p, "alfi_attr_filter 0x%x has unknown bits", a->attr_filter);
	if (a->pptr && !(a->attr_filter & XFS_ATTR_PARENT))
		xls_item_problem(p, "parent pointer op without the parent filter");
	/* xfs_attr_check_namespace: one namespace at most */
	ns = a->attr_filter & (XFS_ATTR_ROOT | XFS_ATTR_SECURE | XFS_ATTR_PARENT);
	if (ns & (ns - 1))
		xls_item_problem(p, "alfi_attr_filter 0x%x names more than one namespace",
				 a->attr_filter);
	if (a->name_len == 0)
		xls_item_problem(p, "attri name length is 0");

	a->format_ok = p->count == before && fmt->len == ALFI_SIZE;
	/* Regions in the order the writer logs them. */
	idx = 1;
	a->name = attr_region(it, idx++, "name", a->name_len, p);
	if (a->op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE)
		a->new_name = attr_region(it, idx++, "new name", a->new_name_len, p);
	if (a->value_len)
		a->value = attr_region(it, idx++, "value", a->value_len, p);
	if (a->op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE && a->value_len)
		a->new_value = attr_region(it, idx++, "new value", a->value_len, p);
	want = idx;
	a->count_ok = it->size == want;
	if (it->size != want) {
		char opname[24];

		snprintf(opname, sizeof(opname), "op_%u", a->op);
		xls_item_problem(p, "attri declares %u regions, op %s with these lengths needs %u",
				 it->size, a->op_name ? a->op_name : opname, want);
	}
	if (a->pptr) {
		a->has_parent = parent_rec(a->value, &a->parent_ino, &a->parent_gen);
		a->has_new_parent = parent_rec(a->new_value, &a->new_parent_ino,
					       &a->new_parent_gen);
	}
	return p->count > before;
}
