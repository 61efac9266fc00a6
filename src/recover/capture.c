/*
 * Recovery stage: what each item of an open transaction leaves for the
 * transaction's commit, where recovery acts on it.  Items stream past
 * once (the trans stage keeps none), so each is reduced to what its
 * decision needs -- a buffer's format, region lengths and first bytes, an
 * inode item's identity -- by its family's capture (buf_recover.c,
 * inode_recover.c), into the store of its transaction (store.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "recover/recover_priv.h"

/* ------------------------------------------------------------------ */
/* capturing items as they stream by */

/*
 * Pass 1 needs only what builds the cancel table and what fails the pass:
 * buffer formats, quotaoff flags and the item types.
 */
static void capture_pass1(struct xls_recover *r, struct rrec *rec,
			  const struct xls_item *it)
{
	struct xls_item_problems p;
	struct xls_quotaoff_item q;
	const char *why;

	(void)r;
	if (it->type == XFS_LI_BUF) {
		rec->parsed = xls_buf_format_parse(it, &rec->blf, &why) == 0;
		rec->bad_iovec = !rec->parsed || !xls_buf_format_iovec_ok(&rec->blf);
		return;
	}
	if (it->type != XFS_LI_QUOTAOFF)
		return;
	p.count = 0;
	p.len = 0;
	if (xls_quotaoff_item_parse(it, &q, &p) == 0 && q.has_format) {
		rec->has_qoff = true;
		rec->qoff_flags = q.qf_flags;
	}
}

/* files: what an ATTRI names, what a BUI maps. */
static void capture_intent(struct xls_recover *r, struct tstore *ts, struct rrec *rec,
			   const struct xls_item *it)
{
	struct xls_item_problems p = { 0, 0, "" };
	struct xls_rintent_data *k = &rec->intent;

	memset(k, 0, sizeof(*k));
	rec->iname_off = rec->inew_off = UINT32_MAX;
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
		rec->has_intent = true;
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
			rec->iname_off = xls_rstore_bytes(ts, a.name->data, a.name_len);
			k->name_len = a.name_len;
		}
		if (a.new_name && a.new_name->data && a.new_name_len <= a.new_name->len) {
			rec->inew_off = xls_rstore_bytes(ts, a.new_name->data, a.new_name_len);
			k->new_name_len = a.new_name_len;
		}
		if ((k->name_len && rec->iname_off == UINT32_MAX) ||
		    (k->new_name_len && rec->inew_off == UINT32_MAX)) {
			r->err = -ENOMEM;
			return;
		}
		rec->has_intent = true;
	}
}

static void capture_pass2(struct xls_recover *r, struct tstore *ts,
			  struct rrec *rec, const struct xls_item *it)
{
	const struct xls_item_type *t = xls_item_type_find(it->type);

	switch (t ? t->family : XLS_FAMILY_NONE) {
	case XLS_FAMILY_BUF:
		xls_rbuf_capture(r, ts, rec, it);
		return;
	case XLS_FAMILY_INODE:
		xls_rinode_capture(r, ts, rec, it);
		return;
	case XLS_FAMILY_ICREATE:
		xls_ricreate_capture(rec, it);
		return;
	case XLS_FAMILY_QUOTAOFF:
		capture_pass1(r, rec, it);
		return;
	default:
		break;
	}
	if (t && t->role != XLS_ROLE_ITEM)
		rec->has_id = xls_item_intent_id(it, &rec->id);
	if (r->opt.keep_intents && (it->type == XFS_LI_ATTRI || it->type == XFS_LI_BUI))
		capture_intent(r, ts, rec, it);
}

/*
 * xls_recover_opts.only_types: is buffer item @it one pass 2 leaves out?
 * A btree block is kept when its logged header says bmbt, or says nothing.
 */
static bool left_out(const struct xls_recover *r, const struct xls_item *it)
{
	struct xls_buf_format blf;
	const char *why;
	unsigned int blft;

	if (xls_buf_format_parse(it, &blf, &why) || (blf.blf_flags & XFS_BLF_CANCEL))
		return false;
	blft = xls_blft(blf.blf_flags);
	if (r->opt.only_types & (1u << blft))
		return false;
	if (blft == XFS_BLFT_BTREE_BUF && (r->opt.only_types & (1u << XFS_BLFT_BTREE_BUF)))
		return false;
	if (blft == XFS_BLFT_BTREE_BUF && it->nregions > 1 && (blf.blf_data_map[0] & 1) &&
	    it->regions[1].data && it->regions[1].len >= 4) {
		uint32_t m = xls_be32(it->regions[1].data);

		return m != XFS_BMAP_MAGIC && m != XFS_BMAP_CRC_MAGIC;
	}
	return blft != XFS_BLFT_BTREE_BUF;
}

int xls_recover_capture(void *ctx, const struct xls_trans *t,
			const struct xls_item *it)
{
	struct xls_recover *r = ctx;
	const struct xls_item_type *type = xls_item_type_find(it->type);
	struct tstore *ts;
	struct rrec *rec;

	/*
	 * Pass 1 looks only at buffers, quotaoff and types it cannot recover;
	 * a transaction with none of them needs no store in it.
	 */
	if (r->pass == 1 && type && type->recovers && it->type != XFS_LI_BUF &&
	    it->type != XFS_LI_QUOTAOFF)
		return 0;
	ts = xls_rstore_find(r, t, true);
	if (!ts) {
		r->stores_full = true;
		return 0;
	}
	if (r->pass == 2 && r->opt.only_types && it->type == XFS_LI_BUF && it->nregions &&
	    it->regions[0].data && left_out(r, it))
		return 0;
	rec = xls_vec_push((void **)&ts->recs, &ts->nrecs, &ts->caprecs, sizeof(*rec));
	if (!rec) {
		r->err = -ENOMEM;
		return 0;
	}
	memset(rec, 0, RREC_CLEAR);
	rec->type = it->type;
	rec->index = t->nitems + 1;
	rec->unknown_type = !type || !type->recovers;
	rec->patch_off = rec->data_off = UINT32_MAX;
	if (!it->nregions || !it->regions[0].data)
		return 0;
	if (r->pass == 1)
		capture_pass1(r, rec, it);
	else
		capture_pass2(r, ts, rec, it);
	return 0;
}
