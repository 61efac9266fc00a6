/*
 * Recovery stage: a store per open transaction, found by (tid, LSN), that
 * keeps what its items leave for its commit: their captures, region
 * lengths, bytes and unlinked fields.  Memory is bounded by what the open
 * transactions logged.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "recover/recover_priv.h"

uint32_t xls_rstore_bytes(struct tstore *ts, const void *src, uint32_t len)
{
	uint32_t off;

	/* nothing to copy, and the pool may not exist yet */
	if (len == 0)
		return ts->bytes.used;
	if ((uint64_t)ts->bytes.used + len > UINT32_MAX / 2 ||
	    !xls_pool_add(&ts->bytes, src, len, &off))
		return UINT32_MAX;
	return off;
}

const uint8_t *xls_rstore_at(const struct tstore *ts, uint32_t off)
{
	return off != UINT32_MAX && ts->bytes.p ? ts->bytes.p + off : NULL;
}

/* ------------------------------------------------------------------ */
/* stores */

static struct tstore *store_new(struct xls_recover *r)
{
	struct tstore *ts;

	for (uint32_t i = 0; i < r->nstores; i++)
		if (!r->stores[i]->used)
			return r->stores[i];
	if (r->nstores == XLS_MAX_OPEN_TRANS)
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
	struct tstore *ts = r->last_store;
	uint32_t *idx;

	if (ts && ts->used && ts->tid == t->tid && ts->lsn == t->lsn)
		return ts;
	idx = xls_hashmap_find(&r->storeidx, t->tid, t->lsn);
	if (idx)
		return r->last_store = r->stores[*idx];
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
	ts->nrecs = ts->nrlens = ts->bytes.used = ts->nunl = 0;
	return r->last_store = ts;
}

void xls_rstore_release(struct xls_recover *r, struct tstore *ts)
{
	if (!ts->used)
		return;
	xls_hashmap_del(&r->storeidx, ts->tid, ts->lsn);
	ts->used = false;
	if (r->last_store == ts)
		r->last_store = NULL;
}

void xls_rstore_release_all(struct xls_recover *r)
{
	for (uint32_t i = 0; i < r->nstores; i++)
		r->stores[i]->used = false;
	xls_hashmap_clear(&r->storeidx);
	r->last_store = NULL;
}

void xls_rstore_free_all(struct xls_recover *r)
{
	for (uint32_t i = 0; i < r->nstores; i++) {
		xls_vec_free(r->stores[i]->recs);
		xls_vec_free(r->stores[i]->rlens);
		xls_pool_free(&r->stores[i]->bytes);
		xls_vec_free(r->stores[i]->unl);
		free(r->stores[i]);
	}
	r->nstores = 0;
	xls_hashmap_free(&r->storeidx);
}
