/*
 * Report stage: a decoded log item (items/item.h) as fields.  Always "item"
 * (type name or "unknown"), "type_code", "size" and "regions", then the
 * fields of its family, then "finding" when a check failed.
 */
#include <stdio.h>
#include <string.h>

#include "report/describe_item.h"

/* Entries of an extent list shown at most; "extents_shown" says so. */
#define EXTENTS_SHOWN_MAX	32

/* Longest name shown; the rest is counted in "name_shown". */
#define ATTR_NAME_SHOW		256

/* ---- extent lists --------------------------------------------------- */

struct free_elem {
	uint64_t	start;
	uint32_t	len;
};

static void free_text(const void *elem, char *buf, size_t bufsz)
{
	const struct free_elem *e = elem;

	snprintf(buf, bufsz, "0x%llx+%u", (unsigned long long)e->start, e->len);
}

static const struct xls_member free_members[] = {
	XLS_MEMBER(startblock, hex, struct free_elem, start),
	XLS_MEMBER(len_fsb, uint, struct free_elem, len),
};

static const struct xls_list free_list = {
	free_members, 2, sizeof(struct free_elem), free_text, " ", NULL,
};

struct map_elem {
	uint64_t	owner;
	const char	*owner_name;	/* a special rmap owner, or NULL */
	uint64_t	startblock;
	uint64_t	startoff;
	uint32_t	len;
	uint32_t	flags;
	const char	*type;
	const char	*flag_names;	/* of the bits above the type code */
	const char	*owner_label;	/* text: "owner" (RUI) or "ino" (BUI) */
};

static void map_text(const void *elem, char *buf, size_t bufsz)
{
	const struct map_elem *e = elem;
	char owner[24];

	if (e->owner_name)
		snprintf(owner, sizeof(owner), "%s", e->owner_name);
	else
		snprintf(owner, sizeof(owner), "%llu", (unsigned long long)e->owner);
	snprintf(buf, bufsz, "%s%s%s %s=%s 0x%llx+%u@%llu", e->type,
		 e->flag_names[0] ? "|" : "", e->flag_names, e->owner_label, owner,
		 (unsigned long long)e->startblock, e->len,
		 (unsigned long long)e->startoff);
}

static const struct xls_member map_members[] = {
	XLS_MEMBER(owner_id, uint, struct map_elem, owner),
	XLS_MEMBER(owner_name, str, struct map_elem, owner_name),
	XLS_MEMBER(startblock, hex, struct map_elem, startblock),
	XLS_MEMBER(startoff, uint, struct map_elem, startoff),
	XLS_MEMBER(len_fsb, uint, struct map_elem, len),
	XLS_MEMBER(flags, hex, struct map_elem, flags),
	XLS_MEMBER(type, str, struct map_elem, type),
	XLS_MEMBER(flag_names, str, struct map_elem, flag_names),
};

static const struct xls_list map_list = {
	map_members, 8, sizeof(struct map_elem), map_text, "; ", NULL,
};

struct phys_elem {
	uint64_t	startblock;
	uint32_t	len;
	uint32_t	flags;
	const char	*type;
};

static void phys_text(const void *elem, char *buf, size_t bufsz)
{
	const struct phys_elem *e = elem;

	snprintf(buf, bufsz, "%s 0x%llx+%u", e->type,
		 (unsigned long long)e->startblock, e->len);
}

static const struct xls_member phys_members[] = {
	XLS_MEMBER(startblock, hex, struct phys_elem, startblock),
	XLS_MEMBER(len_fsb, uint, struct phys_elem, len),
	XLS_MEMBER(flags, hex, struct phys_elem, flags),
	XLS_MEMBER(type, str, struct phys_elem, type),
};

static const struct xls_list phys_list = {
	phys_members, 4, sizeof(struct phys_elem), phys_text, "; ", NULL,
};

/* "type_N" for a code with no name, kept in the set. */
static const char *code_or_number(struct xls_fieldset *fs, const char *name,
				  uint32_t code)
{
	char buf[24];

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "type_%u", code);
	return xls_fields_strdup(fs, buf);
}

static uint32_t shown(const struct xls_extent_item *x)
{
	return x->count < EXTENTS_SHOWN_MAX ? x->count : EXTENTS_SHOWN_MAX;
}

/* The "extents" list and, when not all of them are in it, "extents_shown". */
static void extents_field(struct xls_fieldset *fs, const struct xls_list *l,
			  const void *elems, uint32_t n, uint32_t declared)
{
	if (!elems)
		n = 0;
	xls_field_list(fs, XK(extents), l, elems, n);
	if (n < declared)
		xls_field_uint(fs, XK(extents_shown), n);
}

/* An extent item's id (under @id_key) and count; false without its header. */
static bool extents_head(const struct xls_extent_item *x, const struct xls_key_hex *id_key,
			 struct xls_fieldset *fs)
{
	if (!x->has_header)
		return false;
	xls_field_hex(fs, id_key, x->id);
	xls_field_uint(fs, XK(nextents), x->nextents);
	return true;
}

static void free_extents(const struct xls_item_decoded *d, const struct xls_key_hex *id_key,
			 struct xls_fieldset *fs)
{
	const struct xls_extent_item *x = &d->u.ext;
	uint32_t n = shown(x);
	struct free_elem *e;
	struct xls_free_extent fe;

	if (!extents_head(x, id_key, fs))
		return;
	if (x->layout32 && x->nextents > 0)
		xls_field_str(fs, XK(extent_layout), "32-bit");
	e = xls_fields_alloc(fs, sizeof(*e) * (n ? n : 1));
	for (uint32_t i = 0; e && i < n; i++) {
		xls_extent_item_free(x, i, &fe);
		e[i].start = fe.start;
		e[i].len = fe.len;
	}
	extents_field(fs, &free_list, e, n, x->nextents);
}

static void map_extents(const struct xls_item_decoded *d, struct xls_fieldset *fs)
{
	const struct xls_extent_item *x = &d->u.ext;
	bool bui = d->item->type == XFS_LI_BUI;
	const struct xls_flag_table *ft = bui ? &xls_bmap_flag_table : &xls_rmap_flag_table;
	uint32_t n = shown(x);
	struct xls_map_extent m;
	struct map_elem *e;
	char names[96];

	if (!extents_head(x, XK(id), fs))
		return;
	e = xls_fields_alloc(fs, sizeof(*e) * (n ? n : 1));
	for (uint32_t i = 0; e && i < n; i++) {
		uint32_t code;

		xls_extent_item_map(x, i, &m);
		code = m.flags & XFS_RMAP_EXTENT_TYPE_MASK;
		e[i].owner = m.owner;
		e[i].owner_name = bui ? NULL : xls_rmap_owner_name(m.owner);
		e[i].startblock = m.startblock;
		e[i].startoff = m.startoff;
		e[i].len = m.len;
		e[i].flags = m.flags;
		e[i].type = code_or_number(fs, bui ? xls_bmap_type_name(code) :
					   xls_rmap_type_name(code), code);
		xls_flags_to_str(m.flags & ~(uint32_t)XFS_RMAP_EXTENT_TYPE_MASK, ft,
				 names, sizeof(names));
		e[i].flag_names = xls_fields_strdup(fs, names);
		e[i].owner_label = bui ? "ino" : "owner";
	}
	extents_field(fs, &map_list, e, n, x->nextents);
}

static void phys_extents(const struct xls_item_decoded *d, struct xls_fieldset *fs)
{
	const struct xls_extent_item *x = &d->u.ext;
	uint32_t n = shown(x);
	struct xls_phys_extent pe;
	struct phys_elem *e;

	if (!extents_head(x, XK(id), fs))
		return;
	e = xls_fields_alloc(fs, sizeof(*e) * (n ? n : 1));
	for (uint32_t i = 0; e && i < n; i++) {
		uint32_t code;

		xls_extent_item_phys(x, i, &pe);
		code = pe.flags & XFS_REFCOUNT_EXTENT_TYPE_MASK;
		e[i].startblock = pe.startblock;
		e[i].len = pe.len;
		e[i].flags = pe.flags;
		e[i].type = code_or_number(fs, xls_refc_type_name(code), code);
	}
	extents_field(fs, &phys_list, e, n, x->nextents);
}

/* The key of a done item's id: its intent's name ("rui_id" for rud_rt). */
static const struct xls_key_hex *done_id_key(uint16_t type)
{
	switch (type) {
	case XFS_LI_EFD: case XFS_LI_EFD_RT:	return XK(efi_id);
	case XFS_LI_RUD: case XFS_LI_RUD_RT:	return XK(rui_id);
	case XFS_LI_CUD: case XFS_LI_CUD_RT:	return XK(cui_id);
	case XFS_LI_BUD:			return XK(bui_id);
	case XFS_LI_XMD:			return XK(xmi_id);
	case XFS_LI_ATTRD:			return XK(attri_id);
	}
	return XK(id);
}

/* ---- the other families --------------------------------------------- */

static void buf_item(const struct xls_item_decoded *d, struct xls_fieldset *fs)
{
	const struct xls_buf_format *bf = &d->u.buf;
	uint64_t data_bytes = 0;

	if (!bf->parsed)
		return;
	xls_field_hex(fs, XK(blkno), (uint64_t)bf->blf_blkno);
	xls_field_uint(fs, XK(len_bb), bf->blf_len);
	xls_field_uint(fs, XK(len), (uint64_t)bf->blf_len * BBSIZE);
	xls_field_uint(fs, XK(map_size), bf->blf_map_size);
	xls_field_hex(fs, XK(flags), bf->blf_flags);
	xls_field_flags(fs, XK(flag_names), bf->blf_flags & ~(uint64_t)XFS_BLFT_MASK,
			&xls_blf_flag_table);
	xls_field_str(fs, XK(buf_type), xls_blft_name(xls_blft(bf->blf_flags)));
	for (uint32_t i = 1; i < d->item->nregions; i++)
		data_bytes += d->item->regions[i].len;
	xls_field_uint(fs, XK(data_bytes), data_bytes);
}

static void inode_core(const struct xls_inode_item *ino, struct xls_fieldset *fs)
{
	const struct xls_log_dinode *c = &ino->core;

	xls_field_oct(fs, XK(mode), c->di_mode);
	xls_field_int(fs, XK(di_version), c->di_version);
	xls_field_uint(fs, XK(di_format), (uint8_t)c->di_format);
	xls_field_uint(fs, XK(uid), c->di_uid);
	xls_field_uint(fs, XK(gid), c->di_gid);
	xls_field_uint(fs, XK(nlink), c->di_nlink);
	xls_field_int(fs, XK(di_size), c->di_size);
	xls_field_uint(fs, XK(nblocks), c->di_nblocks);
	xls_field_uint(fs, XK(nextents), xls_log_dinode_nextents(c));
	xls_field_uint(fs, XK(anextents), xls_log_dinode_anextents(c));
	xls_field_uint(fs, XK(forkoff), c->di_forkoff);
	xls_field_hex(fs, XK(di_flags), c->di_flags);
	xls_field_uint(fs, XK(gen), c->di_gen);
	if (c->di_version < 3) {
		xls_field_uint(fs, XK(flushiter), c->di_flushiter);
	} else if (ino->core_v3) {
		xls_field_hex(fs, XK(di_flags2), c->di_flags2);
		xls_field_hex(fs, XK(di_ino), c->di_ino);
	}
}

static void inode_item(const struct xls_item_decoded *d, struct xls_fieldset *fs)
{
	const struct xls_inode_item *ino = &d->u.inode;

	if (!ino->has_format)
		return;
	xls_field_hex(fs, XK(ino), ino->ilf_ino);
	xls_field_hex(fs, XK(fields), ino->ilf_fields);
	xls_field_flags(fs, XK(field_names), ino->ilf_fields, &xls_ilog_flag_table);
	xls_field_uint(fs, XK(asize), ino->ilf_asize);
	xls_field_uint(fs, XK(dsize), ino->ilf_dsize);
	xls_field_hex(fs, XK(blkno), (uint64_t)ino->ilf_blkno);
	xls_field_int(fs, XK(buf_len_bb), ino->ilf_len);
	xls_field_int(fs, XK(boffset), ino->ilf_boffset);
	if (ino->ilf_fields & XFS_ILOG_DEV)
		xls_field_hex(fs, XK(rdev), ino->ilf_rdev);
	if (ino->has_core && ino->core_v2)
		inode_core(ino, fs);
}

/* Name bytes as "@key" (printable ASCII) or "@key_hex". */
static void attr_name(struct xls_fieldset *fs, const struct xls_region *r,
		      uint32_t name_len, const struct xls_key_str *key,
		      const struct xls_key_str *hex_key, const struct xls_key_uint *shown_key)
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
		xls_field_str(fs, key, buf);
	} else {
		for (uint32_t i = 0; i < n; i++)
			snprintf(buf + 2 * i, 3, "%02x", r->data[i]);
		buf[2 * n] = '\0';
		xls_field_str(fs, hex_key, buf);
	}
	if (n < name_len)
		xls_field_uint(fs, shown_key, n);
}

static void attri_item(const struct xls_item_decoded *d, struct xls_fieldset *fs)
{
	const struct xls_attri_item *a = &d->u.attri;
	bool replace = a->op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE;

	if (!a->has_format)
		return;
	xls_field_hex(fs, XK(id), a->id);
	xls_field_hex(fs, XK(ino), a->ino);
	xls_field_uint(fs, XK(igen), a->igen);
	if (a->op_name)
		xls_field_str(fs, XK(op), a->op_name);
	else
		xls_field_strf(fs, XK(op), "op_%u", a->op);
	xls_field_hex(fs, XK(op_flags), a->op_flags);
	xls_field_uint(fs, XK(name_len), a->name_len);
	if (replace)
		xls_field_uint(fs, XK(new_name_len), a->new_name_len);
	xls_field_uint(fs, XK(value_len), a->value_len);
	/* xfs_attri_log_format: "the new and old values must have the same length" */
	if (replace)
		xls_field_uint(fs, XK(new_value_len), a->value_len);
	xls_field_hex(fs, XK(attr_filter), a->attr_filter);
	xls_field_flags(fs, XK(attr_filter_names), a->attr_filter,
			&xls_attr_filter_flag_table);
	attr_name(fs, a->name, a->name_len, XK(name), XK(name_hex), XK(name_shown));
	if (a->new_name)
		attr_name(fs, a->new_name, a->new_name_len, XK(new_name), XK(new_name_hex),
			  XK(new_name_shown));
	if (a->has_parent) {
		xls_field_hex(fs, XK(parent_ino), a->parent_ino);
		xls_field_uint(fs, XK(parent_gen), a->parent_gen);
	}
	if (a->has_new_parent) {
		xls_field_hex(fs, XK(new_parent_ino), a->new_parent_ino);
		xls_field_uint(fs, XK(new_parent_gen), a->new_parent_gen);
	}
}

static const struct xls_member xmi_members[] = {
	XLS_MEMBER(id, hex, struct xls_xmi_item, id),
	XLS_MEMBER(ino1, hex, struct xls_xmi_item, inode1),
	XLS_MEMBER(ino2, hex, struct xls_xmi_item, inode2),
	XLS_MEMBER(igen1, uint, struct xls_xmi_item, igen1),
	XLS_MEMBER(igen2, uint, struct xls_xmi_item, igen2),
	XLS_MEMBER(startoff1, uint, struct xls_xmi_item, startoff1),
	XLS_MEMBER(startoff2, uint, struct xls_xmi_item, startoff2),
	XLS_MEMBER(blockcount, uint, struct xls_xmi_item, blockcount),
	XLS_MEMBER(flags, hex, struct xls_xmi_item, flags),
};
static const struct xls_member xmi_size_members[] = {
	XLS_MEMBER(isize1, int, struct xls_xmi_item, isize1),
	XLS_MEMBER(isize2, int, struct xls_xmi_item, isize2),
};

static void xmi_item(const struct xls_item_decoded *d, struct xls_fieldset *fs)
{
	if (!d->u.xmi.has_format)
		return;
	XLS_FIELD_MEMBERS(fs, xmi_members, &d->u.xmi);
	xls_field_flags(fs, XK(flag_names), d->u.xmi.flags, &xls_xmi_flag_table);
	XLS_FIELD_MEMBERS(fs, xmi_size_members, &d->u.xmi);
}

static const struct xls_member dquot_format_members[] = {
	XLS_MEMBER(quota_id, uint, struct xls_dquot_item, qlf_id),
	XLS_MEMBER(blkno, hex, struct xls_dquot_item, qlf_blkno),
	XLS_MEMBER(buf_len_bb, int, struct xls_dquot_item, qlf_len),
};
static const struct xls_member dquot_members[] = {
	XLS_MEMBER(d_magic, hex, struct xls_dquot_item, d_magic),
	XLS_MEMBER(d_type, hex, struct xls_dquot_item, d_type),
};

static void dquot_item(const struct xls_item_decoded *d, struct xls_fieldset *fs)
{
	const struct xls_dquot_item *q = &d->u.dquot;

	if (!q->has_format)
		return;
	XLS_FIELD_MEMBERS(fs, dquot_format_members, q);
	/* unsigned: not sign-extended as an int member would be */
	xls_field_int(fs, XK(boffset), q->qlf_boffset);
	if (!q->has_dquot)
		return;
	XLS_FIELD_MEMBERS(fs, dquot_members, q);
	xls_field_flags(fs, XK(d_type_names), q->d_type, &xls_dq_type_flag_table);
	xls_field_uint(fs, XK(d_id), q->d_id);
}

static void quotaoff_item(const struct xls_item_decoded *d, struct xls_fieldset *fs)
{
	if (!d->u.qoff.has_format)
		return;
	xls_field_hex(fs, XK(qflags), d->u.qoff.qf_flags);
	xls_field_flags(fs, XK(qflag_names), d->u.qoff.qf_flags, &xls_qflag_table);
}

static const struct xls_member icreate_members[] = {
	XLS_MEMBER(ag, uint, struct xls_icreate_item, icl_ag),
	XLS_MEMBER(agbno, hex, struct xls_icreate_item, icl_agbno),
	XLS_MEMBER(count, uint, struct xls_icreate_item, icl_count),
	XLS_MEMBER(isize, uint, struct xls_icreate_item, icl_isize),
	XLS_MEMBER(length_fsb, uint, struct xls_icreate_item, icl_length),
	XLS_MEMBER(gen, uint, struct xls_icreate_item, icl_gen),
};

static void icreate_item(const struct xls_item_decoded *d, struct xls_fieldset *fs)
{
	if (d->u.icreate.has_format)
		XLS_FIELD_MEMBERS(fs, icreate_members, &d->u.icreate);
}

static void free_item(const struct xls_item_decoded *d, struct xls_fieldset *fs)
{
	free_extents(d, d->type->role == XLS_ROLE_DONE ? XK(efi_id) : XK(id), fs);
}

static void done_item(const struct xls_item_decoded *d, struct xls_fieldset *fs)
{
	if (d->u.done.has_id)
		xls_field_hex(fs, done_id_key(d->item->type), d->u.done.id);
}

/* The families, listed once: the fields of each (NULL: none). */
static void (*const family_fields[XLS_FAMILY_COUNT])(const struct xls_item_decoded *,
						      struct xls_fieldset *) = {
	[XLS_FAMILY_BUF]		= buf_item,
	[XLS_FAMILY_INODE]		= inode_item,
	[XLS_FAMILY_FREE_EXTENTS]	= free_item,
	[XLS_FAMILY_MAP_EXTENTS]	= map_extents,
	[XLS_FAMILY_PHYS_EXTENTS]	= phys_extents,
	[XLS_FAMILY_DONE]		= done_item,
	[XLS_FAMILY_ATTRI]		= attri_item,
	[XLS_FAMILY_XMI]		= xmi_item,
	[XLS_FAMILY_DQUOT]		= dquot_item,
	[XLS_FAMILY_QUOTAOFF]		= quotaoff_item,
	[XLS_FAMILY_ICREATE]		= icreate_item,
};

int xls_describe_item(const struct xls_item_decoded *d, struct xls_fieldset *fs)
{
	const struct xls_item *it = d->item;

	xls_field_str(fs, XK(item), d->type ? d->type->name : "unknown");
	xls_field_hex(fs, XK(type_code), it->type);
	xls_field_uint(fs, XK(size), it->size);
	xls_field_uint(fs, XK(regions), it->nregions);
	if (d->has_format && d->type && family_fields[d->type->family])
		family_fields[d->type->family](d, fs);
	if (d->problems.count) {
		xls_field_str(fs, XK(finding), d->problems.text);
		return 1;
	}
	return 0;
}

int xls_describe_raw_item(const struct xls_item *it, struct xls_fieldset *fs)
{
	struct xls_item_decoded d;

	xls_item_decode(it, &d);
	return xls_describe_item(&d, fs);
}

/*
 * "  12 buf      blkno=0x..." -- the common fields (item, type_code, size,
 * regions) are folded into the name, and the region count is shown only
 * when it disagrees with what the format declares.
 */
void xls_print_item(struct xls_out *o, uint32_t index, const struct xls_item_decoded *d,
		    const struct xls_fieldset *fs)
{
	const struct xls_item *it = d->item;

	xls_out_text_str(o, "  ", 0);
	xls_out_text_uint(o, index, 4);
	xls_out_text_str(o, " ", 0);
	xls_out_text_str(o, d->type ? d->type->name : "unknown", -9);
	if (it->nregions != it->size)
		xls_out_textf(o, " regions=%u/%u", it->nregions, it->size);
	if (!d->type)
		xls_out_textf(o, " type=0x%04x", it->type);
	xls_out_text_str(o, " ", 0);
	xls_out_text_pairs(o, fs, 4);
	xls_out_text_end(o);
}
