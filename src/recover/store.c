/*
 * Recovery stage: a store per open transaction, found by (tid, LSN), that
 * keeps what its items leave for its commit: their captures, region
 * lengths, bytes and unlinked fields.  Records and bytes past
 * XLS_RSTORE_MEM a store wait in a temporary file, written and read back
 * in order; what stays in memory is 8 bytes a record and the region
 * lengths and unlinked fields of its buffer items.
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
	    !xls_spillpool_add(&ts->bytes, src, len, &off))
		return UINT32_MAX;
	return off;
}

uint8_t *xls_rstore_reserve(struct tstore *ts, uint32_t len, uint32_t *off)
{
	if ((uint64_t)ts->bytes.used + len > UINT32_MAX / 2)
		return NULL;
	return xls_spillpool_add(&ts->bytes, NULL, len, off);
}

const uint8_t *xls_rstore_at(struct tstore *ts, uint32_t off)
{
	return off != UINT32_MAX ? xls_spillpool_at(&ts->bytes, off, 0) : NULL;
}

void xls_rstore_copy(struct xls_recover *r, struct tstore *ts, uint32_t off, void *to,
		     size_t len)
{
	const uint8_t *at = xls_rstore_at(ts, off);

	if (at) {
		memcpy(to, at, len);
		return;
	}
	memset(to, 0, len);
	r->err = -EIO;
}

/* ------------------------------------------------------------------ */
/* records */

/* A fresh record, its padding zero as a static object's is (C11 6.7.9). */
static const struct rrec fresh_rec = { .patch_off = UINT32_MAX, .data_off = UINT32_MAX };

void xls_rrec_init(struct rrec *rec)
{
	memcpy(rec, &fresh_rec, sizeof(*rec));
}

/*
 * The bytes of @rec worth keeping: up to its last 8 bytes that differ
 * from a fresh record's.  An inode item's record ends after its part of
 * the struct, a fifth of the whole.
 */
static uint32_t rec_kept_len(const struct rrec *rec)
{
	static const size_t step = 8;
	size_t len = sizeof(*rec);

	while (len > step && memcmp((const uint8_t *)rec + len - step,
				    (const uint8_t *)&fresh_rec + len - step, step) == 0)
		len -= step;
	return (uint32_t)len;
}

/* Place @len bytes of @rec at the end of the pool as record @i's. */
static int rec_place(struct tstore *ts, uint32_t i, const struct rrec *rec, uint32_t len)
{
	uint32_t off;

	if (!xls_spillpool_add(&ts->recbytes, rec, len, &off))
		return -ENOMEM;
	ts->recoff[i] = off;
	ts->reclen[i] = len;
	return 0;
}

int xls_rstore_add(struct tstore *ts, const struct rrec *rec)
{
	uint32_t n = ts->nrecs;

	if (!xls_vec_grow((void **)&ts->recoff, n, &ts->caprecoff, sizeof(*ts->recoff)) ||
	    !xls_vec_grow((void **)&ts->reclen, n, &ts->capreclen, sizeof(*ts->reclen)) ||
	    rec_place(ts, n, rec, rec_kept_len(rec)))
		return -ENOMEM;
	ts->nrecs++;
	return 0;
}

const struct rrec *xls_rstore_rec(struct tstore *ts, uint32_t i, struct rrec *scratch)
{
	uint32_t len = ts->reclen[i];
	const uint8_t *at = xls_spillpool_at(&ts->recbytes, ts->recoff[i], len);

	/* the file failed: a record of no kind, and the commit said to have failed */
	if (!at) {
		xls_rrec_init(scratch);
		return scratch;
	}
	/* the kept bytes, then a fresh record's tail: each byte copied once */
	memcpy(scratch, at, len);
	memcpy((uint8_t *)scratch + len, (const uint8_t *)&fresh_rec + len, sizeof(*scratch) - len);
	return scratch;
}

int xls_rstore_update(struct tstore *ts, uint32_t i, const struct rrec *rec)
{
	uint32_t len = rec_kept_len(rec);

	/* longer now: a new place at the end, the old one left unused */
	if (len > ts->reclen[i])
		return rec_place(ts, i, rec, len);
	if (!xls_spillpool_write(&ts->recbytes, ts->recoff[i], rec, len))
		return -EIO;
	ts->reclen[i] = len;
	return 0;
}

/* ------------------------------------------------------------------ */
/* stores */

static struct tstore *store_new(struct xls_recover *r)
{
	struct tstore *ts;
	uint64_t mem;

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
	mem = r->opt.store_mem ? r->opt.store_mem : XLS_RSTORE_MEM;
	xls_spillpool_init(&ts->recbytes, mem);
	xls_spillpool_init(&ts->bytes, mem);
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
	ts->nrecs = ts->nrlens = ts->nunl = 0;
	xls_spillpool_reset(&ts->bytes);
	xls_spillpool_reset(&ts->recbytes);
	return r->last_store = ts;
}

/* A store whose temporary file failed: -EIO, said once, over any -ENOMEM it caused. */
static void check_file(struct xls_recover *r, const struct tstore *ts)
{
	const struct xls_spillpool *sp = ts->recbytes.error ? &ts->recbytes : &ts->bytes;

	if (!sp->error || r->spill_errno)
		return;
	r->spill_errno = sp->error;
	r->spill_dir = sp->dir;
	r->err = -EIO;
}

void xls_rstore_check_files(struct xls_recover *r)
{
	for (uint32_t i = 0; i < r->nstores; i++)
		check_file(r, r->stores[i]);
}

void xls_rstore_release(struct xls_recover *r, struct tstore *ts)
{
	if (!ts->used)
		return;
	/* what its commit read back from a failed file is not to be trusted */
	check_file(r, ts);
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
		xls_spillpool_free(&r->stores[i]->recbytes);
		xls_vec_free(r->stores[i]->recoff);
		xls_vec_free(r->stores[i]->reclen);
		xls_vec_free(r->stores[i]->rlens);
		xls_spillpool_free(&r->stores[i]->bytes);
		xls_vec_free(r->stores[i]->unl);
		free(r->stores[i]);
	}
	r->nstores = 0;
	xls_hashmap_free(&r->storeidx);
}
