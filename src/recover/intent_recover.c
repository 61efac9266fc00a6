/*
 * Recovery stage: intents and done items, the families of deferred work
 * (EFI/EFD, RUI/RUD, CUI/CUD, BUI/BUD, ATTRI/ATTRD, XMI/XMD and their _RT
 * kinds).  An intent enters the AIL at its commit and stays pending until
 * a done item naming its id is replayed (xlog_recover_release_intent);
 * those left are what xlog_recover_process_intents() finishes after
 * replay.  files and lost keep what an ATTRI names and a BUI maps.
 */
#include <errno.h>
#include <string.h>

#include "recover/recover_priv.h"

/* @kept into the store's bytes, for @rec's commit. */
static void keep_intent(struct xls_recover *r, struct tstore *ts, struct rrec *rec,
			const struct rkept_intent *kept)
{
	rec->kept_off = xls_rstore_bytes(ts, kept, sizeof(*kept));
	if (rec->kept_off == UINT32_MAX)
		r->err = -ENOMEM;
	else
		rec->has_intent = true;
}

/* files: what an ATTRI names, what a BUI maps. */
static void capture_intent(struct xls_recover *r, struct tstore *ts, struct rrec *rec,
			   const struct xls_item *it)
{
	struct xls_item_problems p = { 0, 0, "" };
	struct rkept_intent kept;
	struct xls_rintent_data *k = &kept.intent;

	memset(&kept, 0, sizeof(kept));
	kept.name_off = kept.new_name_off = UINT32_MAX;
	k->type = it->type;
	if (it->type == XFS_LI_BUI) {
		struct xls_extent_item x;
		struct xls_map_extent e;

		if (xls_extent_item_parse(it, &x, &p) > 1 || !x.has_header || !x.count)
			return;
		xls_extent_item_map(&x, 0, &e);
		k->ino = e.owner;
		k->op = e.flags & XFS_BMAP_EXTENT_TYPE_MASK;
		k->startoff = e.startoff;
		k->startblock = e.startblock;
		k->len = e.len;
		keep_intent(r, ts, rec, &kept);
		return;
	}
	{
		struct xls_attri_item a;

		xls_attri_item_parse(it, &a, &p);
		if (!a.has_format)
			return;
		k->ino = a.ino;
		k->op = a.op;
		k->attr_filter = a.attr_filter;
		k->has_parent = a.has_parent;
		k->parent_ino = a.parent_ino;
		k->has_new_parent = a.has_new_parent;
		k->new_parent_ino = a.new_parent_ino;
		if (a.name && a.name->data && a.name_len <= a.name->len) {
			kept.name_off = xls_rstore_bytes(ts, a.name->data, a.name_len);
			k->name_len = a.name_len;
		}
		if (a.new_name && a.new_name->data && a.new_name_len <= a.new_name->len) {
			kept.new_name_off = xls_rstore_bytes(ts, a.new_name->data, a.new_name_len);
			k->new_name_len = a.new_name_len;
		}
		if ((k->name_len && kept.name_off == UINT32_MAX) ||
		    (k->new_name_len && kept.new_name_off == UINT32_MAX)) {
			r->err = -ENOMEM;
			return;
		}
		keep_intent(r, ts, rec, &kept);
	}
}

/* Extent @i of @x, whatever its family, as a mapping. */
static void extent_as_map(const struct xls_extent_item *x, enum xls_item_family fam,
			  uint32_t i, struct xls_map_extent *e)
{
	memset(e, 0, sizeof(*e));
	if (fam == XLS_FAMILY_FREE_EXTENTS) {
		struct xls_free_extent f;

		xls_extent_item_free(x, i, &f);
		e->startblock = f.start;
		e->len = f.len;
	} else if (fam == XLS_FAMILY_PHYS_EXTENTS) {
		struct xls_phys_extent p;

		xls_extent_item_phys(x, i, &p);
		e->startblock = p.startblock;
		e->len = p.len;
		e->flags = p.flags;
	} else {
		xls_extent_item_map(x, i, e);
	}
}

/*
 * Pass 3: an EFI's, RUI's, CUI's or BUI's extents, into the store's bytes
 * for its commit.  One the kernel would not take whole (its extents cut
 * short) keeps none, and pass 3 leaves it to the kernel.
 */
static void capture_extents(struct xls_recover *r, struct tstore *ts, struct rrec *rec,
			    const struct xls_item *it, enum xls_item_family fam)
{
	struct xls_item_problems p = { 0, 0, "" };
	struct xls_extent_item x;
	struct xls_map_extent e;
	uint8_t *at;

	if (xls_extent_item_parse(it, &x, &p) > 1 || !x.has_header || x.count != x.nextents)
		return;
	at = xls_rstore_reserve(ts, (uint32_t)(x.count * sizeof(e)), &rec->ext_off);
	if (!at) {
		r->err = -ENOMEM;
		return;
	}
	for (uint32_t i = 0; i < x.count; i++) {
		extent_as_map(&x, fam, i, &e);
		memcpy(at + (size_t)i * sizeof(e), &e, sizeof(e));
	}
	rec->next = x.count;
}

/* Pass 3: an XMI's exchange, into the store's bytes for its commit. */
static void capture_exchange(struct xls_recover *r, struct tstore *ts, struct rrec *rec,
			     const struct xls_item *it)
{
	struct xls_item_problems p = { 0, 0, "" };
	struct xls_xmi_item x;
	struct xls_map_exchange xe;

	if (xls_xmi_item_parse(it, &x, &p) || !x.has_format)
		return;
	xe = (struct xls_map_exchange){
		.inode1 = x.inode1, .inode2 = x.inode2,
		.startoff1 = x.startoff1, .startoff2 = x.startoff2,
		.blockcount = x.blockcount, .flags = x.flags,
		.isize1 = (uint64_t)x.isize1, .isize2 = (uint64_t)x.isize2,
		.igen1 = x.igen1, .igen2 = x.igen2,
	};
	rec->ext_off = xls_rstore_bytes(ts, &xe, sizeof(xe));
	if (rec->ext_off == UINT32_MAX)
		r->err = -ENOMEM;
	else
		rec->next = 1;
}

/* The bytes an ATTRI's names and values take: a PPTR_REPLACE logs two values. */
static uint32_t attr_bytes(const struct xls_map_attr *a)
{
	bool replace = (a->op_flags & XFS_ATTRI_OP_FLAGS_TYPE_MASK) ==
		       XFS_ATTRI_OP_FLAGS_PPTR_REPLACE;

	return a->name_len + a->new_name_len + a->value_len * (replace ? 2u : 1u);
}

/* @r's bytes, @len of them, at @at; @at moved past them. */
static uint8_t *put_bytes(uint8_t *at, const struct xls_region *r, uint32_t len)
{
	if (len)
		memcpy(at, r->data, len);
	return at + len;
}

/*
 * Pass 3: an ATTRI's format, then its name, new name, value and new value,
 * into the store's bytes for its commit.  One the kernel's pass 2 would
 * not take (xls_attri_item_parse finds a problem) keeps nothing.
 */
static void capture_attr(struct xls_recover *r, struct tstore *ts, struct rrec *rec,
			 const struct xls_item *it)
{
	struct xls_item_problems p = { 0, 0, "" };
	struct xls_attri_item a;
	struct xls_map_attr ma;
	uint32_t total;
	uint8_t *at;

	if (xls_attri_item_parse(it, &a, &p) || !a.has_format || !a.name || !a.name->data ||
	    (a.new_name_len && (!a.new_name || !a.new_name->data)) ||
	    (a.value_len && (!a.value || !a.value->data)) ||
	    (a.op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE && a.value_len &&
	     (!a.new_value || !a.new_value->data)))
		return;
	ma = (struct xls_map_attr){
		.ino = a.ino, .igen = a.igen, .op_flags = a.op_flags,
		.attr_filter = a.attr_filter, .name_len = a.name_len,
		.new_name_len = a.new_name_len, .value_len = a.value_len, .bytes = 0,
	};
	total = attr_bytes(&ma);
	at = xls_rstore_reserve(ts, (uint32_t)sizeof(ma) + total, &rec->ext_off);
	if (!at) {
		r->err = -ENOMEM;
		return;
	}
	memcpy(at, &ma, sizeof(ma));
	at = put_bytes(at + sizeof(ma), a.name, a.name_len);
	at = put_bytes(at, a.new_name, a.new_name_len);
	at = put_bytes(at, a.value, a.value_len);
	if (a.op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE)
		put_bytes(at, a.new_value, a.value_len);
	rec->next = 1;
}


/* A parent pointer's name as xfs_parent_namecheck takes it: 1..255 bytes, no '/' or NUL. */
static bool pptr_name_ok(const struct xls_region *r, uint32_t len)
{
	return r && r->data && len && len <= 255 && len <= r->len && !memchr(r->data, '/', len) &&
	       !memchr(r->data, 0, len);
}

/* Why the kernel's pass 2 refuses an item, and the function that reports it. */
struct pass2_refusal {
	const char	*why;		/* NULL: it takes the item */
	const char	*in;
};

/* Region @r holds @len bytes padded to 4 (xlog_calc_iovec_len), as the kernel wants. */
static bool iovec_len_ok(const struct xls_region *r, uint32_t len)
{
	return !len || (r && r->len == (((uint64_t)len + 3) & ~(uint64_t)3));
}

/*
 * Why the kernel's pass 2 refuses ATTRI @it (xlog_recover_attri_commit_pass2:
 * the format's size, xfs_attri_validate, the regions each op logs; then
 * xfs_attri_validate_name_iovec and _value_iovec: their lengths, the
 * names, a parent value's inode).  Whether a kernel takes an ATTRI of a
 * plain xattr at all depends on its logged-xattrs state: those are judged
 * by their layout only.
 */
static struct pass2_refusal attri_refused(const struct xls_geometry *g, const struct xls_item *it)
{
	const char *pass2 = "xlog_recover_attri_commit_pass2";
	const char *names = "xfs_attri_validate_name_iovec";
	const char *values = "xfs_attri_validate_value_iovec";
	struct xls_item_problems p = { 0, 0, "" };
	struct xls_attri_item a;
	bool sb = g->ag_count != 0, replace;

	if (xls_attri_item_parse(it, &a, &p)) {
		bool names_ok = iovec_len_ok(a.name, a.name_len) &&
				iovec_len_ok(a.new_name, a.new_name_len);

		/* in the kernel's order: the format, the regions' count, then each region */
		return (struct pass2_refusal){ "its format, op, filter or regions",
					       !a.format_ok || !a.count_ok ? pass2 :
					       !names_ok ? names : values };
	}
	/* a log read without its filesystem: the inodes and features are not known */
	if (sb && !xls_geo_ino_ok(g, a.ino))
		return (struct pass2_refusal){ "an inode number outside the filesystem's inodes",
					       pass2 };
	if (!a.pptr)
		return (struct pass2_refusal){ NULL, NULL };
	replace = a.op == XFS_ATTRI_OP_FLAGS_PPTR_REPLACE;
	if ((sb && !g->has_parent) || a.value_len != 12 || a.name_len > 255 ||
	    (replace && a.new_name_len > 255))
		return (struct pass2_refusal){ "a parent pointer update this filesystem or "
					       "xfs_attri_validate refuses", pass2 };
	if (!pptr_name_ok(a.name, a.name_len) || (replace && !pptr_name_ok(a.new_name,
									  a.new_name_len)))
		return (struct pass2_refusal){ "a parent pointer name xfs_parent_namecheck "
					       "refuses", names };
	/* xfs_parent_valuecheck: xfs_verify_dir_ino, its internal inodes aside */
	if (!a.has_parent || (sb && !xls_geo_ino_ok(g, a.parent_ino)) ||
	    (replace && (!a.has_new_parent || (sb && !xls_geo_ino_ok(g, a.new_parent_ino)))))
		return (struct pass2_refusal){ "a parent pointer value naming no inode", values };
	return (struct pass2_refusal){ NULL, NULL };
}

/*
 * Why the kernel's pass 2 refuses EFI, EFD, RUI, CUI or BUI @it, or NULL:
 * the size of its format for the extents it declares (xfs_efi_copy_format
 * and xlog_recover_efd_commit_pass2 take the 32-bit and the 64-bit
 * layouts, xfs_{rui,cui,bui}_log_format_sizeof), a BUI's one extent.
 * What the extents say is checked in pass 3.
 */
static struct pass2_refusal extents_refused(const struct xls_item *it)
{
	static const char *const in[] = {
		[XFS_LI_EFI - XFS_LI_EFI] = "xfs_efi_copy_format",
		[XFS_LI_EFD - XFS_LI_EFI] = "xlog_recover_efd_commit_pass2",
		[XFS_LI_RUI - XFS_LI_EFI] = "xlog_recover_rui_commit_pass2",
		[XFS_LI_CUI - XFS_LI_EFI] = "xlog_recover_cui_commit_pass2",
		[XFS_LI_BUI - XFS_LI_EFI] = "xlog_recover_bui_commit_pass2",
	};
	struct xls_item_problems p = { 0, 0, "" };
	struct xls_extent_item x;
	uint64_t len, n;
	bool ok;

	(void)xls_extent_item_parse(it, &x, &p);
	if (!x.has_header)
		return (struct pass2_refusal){ "its size", it->type == XFS_LI_EFI ?
					       "xlog_recover_efi_commit_pass2" :
					       in[it->type - XFS_LI_EFI] };
	len = x.fmt->len;
	n = x.nextents;
	ok = it->type == XFS_LI_EFI || it->type == XFS_LI_EFD ?
	     len == 16 + 16 * n || len == 16 + 12 * n :
	     it->type == XFS_LI_RUI ? len == 16 + 32 * n :
	     it->type == XFS_LI_CUI ? len == 16 + 16 * n : n == 1 && len == 16 + 32;
	return ok ? (struct pass2_refusal){ NULL, NULL } :
		    (struct pass2_refusal){ it->type == XFS_LI_BUI ? "its size or its count of "
					    "extents" : "its size", in[it->type - XFS_LI_EFI] };
}

/* The kernel function that reports a done item of @type it refuses. */
static const char *done_in(uint16_t type)
{
	switch (type) {
	case XFS_LI_RUD:
		return "xlog_recover_rud_commit_pass2";
	case XFS_LI_CUD:
		return "xlog_recover_cud_commit_pass2";
	case XFS_LI_BUD:
		return "xlog_recover_bud_commit_pass2";
	case XFS_LI_XMD:
		return "xlog_recover_xmd_commit_pass2";
	}
	return "xlog_recover_attrd_commit_pass2";
}

/* Why the kernel's pass 2 refuses an intent or done item @it of the data device. */
static struct pass2_refusal pass2_refused(const struct xls_geometry *g, const struct xls_item *it)
{
	struct xls_item_problems p = { 0, 0, "" };
	struct xls_done_item dn;
	struct xls_xmi_item x;

	switch (it->type) {
	case XFS_LI_XMI:
		/* its size and __pad */
		return (struct pass2_refusal){ xls_xmi_item_parse(it, &x, &p) ?
					       "its size or padding" : NULL,
					       "xlog_recover_xmi_commit_pass2" };
	case XFS_LI_ATTRI:
		return attri_refused(g, it);
	case XFS_LI_EFI:
	case XFS_LI_EFD:
	case XFS_LI_RUI:
	case XFS_LI_CUI:
	case XFS_LI_BUI:
		return extents_refused(it);
	case XFS_LI_RUD:
	case XFS_LI_CUD:
	case XFS_LI_BUD:
	case XFS_LI_XMD:
	case XFS_LI_ATTRD:
		/* struct xfs_{rud,cud,bud,xmd,attrd}_log_format: their size */
		return (struct pass2_refusal){ xls_done_item_parse(it, &dn, &p) ? "its size" : NULL,
					       done_in(it->type) };
	}
	return (struct pass2_refusal){ NULL, NULL };
}

/* An intent's or a done item's id; what files needs of an ATTRI or a BUI. */
static void rintent_capture(struct xls_recover *r, struct tstore *ts,
			    struct rrec *rec, const struct xls_item *it)
{
	const struct xls_item_type *t = xls_item_type_find(it->type);
	struct pass2_refusal refusal;

	rec->has_id = xls_item_intent_id(it, &rec->id);
	rec->ext_off = UINT32_MAX;
	refusal = pass2_refused(r->g, it);
	rec->refused = refusal.why;
	rec->refused_in = refusal.in;
	if (r->opt.keep_intents && (it->type == XFS_LI_ATTRI || it->type == XFS_LI_BUI))
		capture_intent(r, ts, rec, it);
	if (r->opt.keep_pending && t && t->role == XLS_ROLE_INTENT &&
	    (t->family == XLS_FAMILY_FREE_EXTENTS || t->family == XLS_FAMILY_MAP_EXTENTS ||
	     t->family == XLS_FAMILY_PHYS_EXTENTS))
		capture_extents(r, ts, rec, it, t->family);
	if (r->opt.keep_pending && it->type == XFS_LI_XMI)
		capture_exchange(r, ts, rec, it);
	if (r->opt.keep_pending && it->type == XFS_LI_ATTRI)
		capture_attr(r, ts, rec, it);
}

/* Pass 3: an ATTRI entering the AIL keeps its format, names and values for the run. */
static void keep_attr(struct xls_recover *r, const uint8_t *at, struct rintent *in)
{
	struct xls_map_attr *a = xls_vec_push((void **)&r->pattr, &r->npattr, &r->cappattr,
					      sizeof(*a));
	in->first = r->npattr - 1;
	if (!a) {
		in->count = 0;
		r->err = -ENOMEM;
		return;
	}
	memcpy(a, at, sizeof(*a));
	if (!xls_pool_add(&r->pbytes, at + sizeof(*a), attr_bytes(a), &a->bytes)) {
		r->err = -ENOMEM;
		return;
	}
	in->count = 1;
}

/* Pass 3: an intent entering the AIL keeps its extents (an XMI its exchange) for the run. */
static void keep_extents(struct decide_ctx *d, const struct rrec *rec, struct rintent *in)
{
	struct xls_recover *r = d->r;
	const uint8_t *at = xls_rstore_at(d->ts, rec->ext_off);
	bool xmi = rec->type == XFS_LI_XMI;
	size_t size = xmi ? sizeof(struct xls_map_exchange) : sizeof(struct xls_map_extent);

	in->first = xmi ? r->npxmi : r->npext;
	in->count = 0;
	if (!at)
		return;
	if (rec->type == XFS_LI_ATTRI) {
		keep_attr(r, at, in);
		return;
	}
	for (uint32_t i = 0; i < rec->next; i++) {
		void *e = xmi ? xls_vec_push((void **)&r->pxmi, &r->npxmi, &r->cappxmi, size)
			      : xls_vec_push((void **)&r->pext, &r->npext, &r->cappext, size);

		if (!e) {
			r->err = -ENOMEM;
			return;
		}
		memcpy(e, at + (size_t)i * size, size);
	}
	in->count = rec->next;
}

/* @a, its names and values from @bytes, onto @out; -1 when memory runs out. */
static int take_attr(struct xls_pending_intents *out, const struct xls_map_attr *a,
		     const uint8_t *bytes)
{
	struct xls_map_attr *q = xls_vec_push((void **)&out->attr, &out->nattr, &out->capattr,
					      sizeof(*q));

	if (!q)
		return -1;
	*q = *a;
	return xls_pool_add(&out->bytes, bytes + a->bytes, attr_bytes(a), &q->bytes) ? 0 : -1;
}

int xls_recover_take_pending_intents(struct xls_recover *r, struct xls_pending_intents *out)
{
	memset(out, 0, sizeof(*out));
	for (uint32_t i = 0; i < r->nintents; i++) {
		const struct rintent *p = &r->intents[i];
		struct xls_pending_intent *q;

		if (p->done)
			continue;
		q = xls_vec_push((void **)&out->in, &out->n, &out->cap, sizeof(*q));
		if (!q)
			goto nomem;
		*q = (struct xls_pending_intent){ p->type, p->id, p->lsn, out->next, 0 };
		if (p->type == XFS_LI_ATTRI) {
			if (p->count && take_attr(out, &r->pattr[p->first], r->pbytes.p))
				goto nomem;
			q->first = out->nattr - (p->count ? 1 : 0);
			q->count = p->count;
			continue;
		}
		if (p->type == XFS_LI_XMI) {
			q->first = out->nxmi;
			for (uint32_t k = 0; k < p->count; k++) {
				struct xls_map_exchange *x = xls_vec_push((void **)&out->xmi,
						&out->nxmi, &out->capxmi, sizeof(*x));

				if (!x)
					goto nomem;
				*x = r->pxmi[p->first + k];
				q->count++;
			}
			continue;
		}
		for (uint32_t k = 0; k < p->count; k++) {
			struct xls_map_extent *e = xls_vec_push((void **)&out->ext, &out->next,
								&out->capext, sizeof(*e));

			if (!e)
				goto nomem;
			*e = r->pext[p->first + k];
			q->count++;
		}
	}
	return 0;
nomem:
	xls_pending_intents_free(out);
	return -1;
}

void xls_pending_intents_free(struct xls_pending_intents *p)
{
	xls_vec_free(p->in);
	xls_vec_free(p->ext);
	xls_vec_free(p->xmi);
	xls_vec_free(p->attr);
	xls_pool_free(&p->bytes);
	memset(p, 0, sizeof(*p));
}

const char *xls_rintent_name(uint16_t type)
{
	const char *n = xls_item_type_name(type);

	return n ? n : "?";
}

/* Intents enter the AIL; a done item releases its intent. */
static void rintent_decide(struct decide_ctx *d, const struct rrec *rec)
{
	struct xls_recover *r = d->r;
	const struct xls_item_type *t = xls_item_type_find(rec->type);
	uint32_t *idx;

	if (rec->refused) {
		char says[64];

		d->ri.decision = XLS_RD_FAIL;
		d->ri.reason = XLS_RWHY_BAD_INTENT;
		d->ri.fail_why = "the kernel's pass 2 refuses the item: recovery fails";
		/* XFS_ERROR_REPORT, XFS_CORRUPTION_ERROR: the line number is the kernel's own */
		snprintf(says, sizeof(says), "Internal error %s", rec->refused_in);
		xls_recover_fail(r, d->t->lsn, (struct xls_rfail){ XLS_RSTOP_PASS2, XLS_RCAUSE_LOG,
				 XLS_EFSCORRUPTED }, says, "transaction 0x%08x: %s: %s", d->t->tid,
				 xls_rintent_name(rec->type), rec->refused);
		return;
	}
	if (!rec->has_id)
		return;
	d->ri.has_id = true;
	d->ri.id = rec->id;
	if (t->role == XLS_ROLE_INTENT) {
		struct rintent *in;

		xls_rdetail(d, "%s 0x%llx: pending until its %s", xls_rintent_name(rec->type),
			 (unsigned long long)rec->id, xls_rintent_name(t->pair));
		if (xls_hashmap_find(&r->intidx, rec->type, rec->id))
			return;
		in = xls_vec_push((void **)&r->intents, &r->nintents, &r->capintents,
				   sizeof(*in));
		if (!in || xls_hashmap_put(&r->intidx, rec->type, rec->id, r->nintents - 1)) {
			r->err = -ENOMEM;
			return;
		}
		in->type = rec->type;
		in->id = rec->id;
		in->done = false;
		in->tid = d->t->tid;
		in->lsn = d->t->lsn;
		in->first = in->count = 0;
		if (rec->ext_off != UINT32_MAX)
			keep_extents(d, rec, in);
		return;
	}
	idx = xls_hashmap_find(&r->intidx, t->pair, rec->id);
	if (!idx) {
		xls_rdetail(d, "releases %s 0x%llx, which is not in the log (logged before the tail)",
			 xls_rintent_name(t->pair), (unsigned long long)rec->id);
		return;
	}
	r->intents[*idx].done = true;
	xls_hashmap_del(&r->intidx, t->pair, rec->id);
	xls_rdetail(d, "releases %s 0x%llx",
		 xls_rintent_name(t->pair), (unsigned long long)rec->id);
}

const struct xls_recover_ops xls_rintent_ops = {
	.capture2	= rintent_capture,
	.decide		= rintent_decide,
};
