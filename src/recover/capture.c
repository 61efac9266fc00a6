/*
 * Recovery stage: what each item of an open transaction leaves for the
 * transaction's commit, where recovery acts on it.  Items stream past
 * once (the trans stage keeps none), so each is reduced here to what its
 * decision needs -- a buffer's format, region lengths and first bytes, an
 * inode item's identity -- in a store per open transaction, found by
 * (tid, LSN).  Memory is bounded by what the open transactions logged.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "recover/recover_priv.h"

void *xls_rvec_push(void **base, uint32_t *n, uint32_t *cap, size_t elem)
{
	if (*n == *cap) {
		uint32_t ncap = *cap ? *cap * 2 : 16;
		void *p;

		if (ncap < *cap || (uint64_t)ncap * elem > (1ull << 34))
			return NULL;
		p = realloc(*base, (size_t)ncap * elem);
		if (!p)
			return NULL;
		*base = p;
		*cap = ncap;
	}
	return (uint8_t *)*base + (size_t)(*n)++ * elem;
}

uint32_t xls_rstore_bytes(struct tstore *ts, const void *src, uint32_t len)
{
	uint32_t off = ts->nbytes;

	/* nothing to copy, and the pool may not exist yet */
	if (len == 0)
		return off;
	if ((uint64_t)ts->nbytes + len > UINT32_MAX / 2)
		return UINT32_MAX;
	if (ts->nbytes + len > ts->capbytes) {
		uint32_t ncap = ts->capbytes ? ts->capbytes : 65536;
		uint8_t *p;

		while (ncap < ts->nbytes + len)
			ncap *= 2;
		p = realloc(ts->bytes, ncap);
		if (!p)
			return UINT32_MAX;
		ts->bytes = p;
		ts->capbytes = ncap;
	}
	if (src)
		memcpy(ts->bytes + off, src, len);
	else
		memset(ts->bytes + off, 0, len);
	ts->nbytes += len;
	return off;
}

/* ------------------------------------------------------------------ */
/* stores */

static struct tstore *store_new(struct xls_recover *r)
{
	struct tstore *ts;

	for (uint32_t i = 0; i < r->nstores; i++)
		if (!r->stores[i]->used)
			return r->stores[i];
	if (r->nstores == MAX_STORES)
		return NULL;
	ts = calloc(1, sizeof(*ts));
	if (!ts) {
		r->err = -ENOMEM;
		return NULL;
	}
	r->stores[r->nstores++] = ts;
	return ts;
}

struct tstore *xls_rstore_find(struct xls_recover *r, const struct xls_trans *t,
			       bool create)
{
	uint32_t *idx = xls_hashmap_find(&r->storeidx, t->tid, t->lsn);
	struct tstore *ts;

	if (idx)
		return r->stores[*idx];
	if (!create)
		return NULL;
	ts = store_new(r);
	if (!ts)
		return NULL;
	for (uint32_t i = 0; i < r->nstores; i++) {
		if (r->stores[i] != ts)
			continue;
		if (xls_hashmap_put(&r->storeidx, t->tid, t->lsn, i)) {
			r->err = -ENOMEM;
			return NULL;
		}
		break;
	}
	ts->used = true;
	ts->tid = t->tid;
	ts->lsn = t->lsn;
	ts->nrecs = ts->nrlens = ts->nbytes = ts->nunl = 0;
	return ts;
}

void xls_rstore_release(struct xls_recover *r, struct tstore *ts)
{
	if (!ts->used)
		return;
	xls_hashmap_del(&r->storeidx, ts->tid, ts->lsn);
	ts->used = false;
}

void xls_rstore_release_all(struct xls_recover *r)
{
	for (uint32_t i = 0; i < r->nstores; i++)
		r->stores[i]->used = false;
	xls_hashmap_clear(&r->storeidx);
}

void xls_rstore_free_all(struct xls_recover *r)
{
	for (uint32_t i = 0; i < r->nstores; i++) {
		free(r->stores[i]->recs);
		free(r->stores[i]->rlens);
		free(r->stores[i]->bytes);
		free(r->stores[i]->unl);
		free(r->stores[i]);
	}
	r->nstores = 0;
	xls_hashmap_free(&r->storeidx);
}

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
}

int xls_recover_capture(void *ctx, const struct xls_trans *t,
			const struct xls_item *it)
{
	struct xls_recover *r = ctx;
	struct tstore *ts = xls_rstore_find(r, t, true);
	const struct xls_item_type *type = xls_item_type_find(it->type);
	struct rrec *rec;

	if (!ts) {
		r->stores_full = true;
		return 0;
	}
	rec = xls_rvec_push((void **)&ts->recs, &ts->nrecs, &ts->caprecs, sizeof(*rec));
	if (!rec) {
		r->err = -ENOMEM;
		return 0;
	}
	memset(rec, 0, sizeof(*rec));
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
