/*
 * The formatting cost model (costmodel.h).  Counts come from the runs and
 * regions items/region.c found, not from another walk of the bitmap.
 *
 * The shadow log vector of xlog_cil_alloc_shadow_bufs() (Linux 5.12): a
 * vector is allocated when the item has none or needs more than it has,
 *
 *   need = round_up(nbytes + 8 * niovecs, 8) + 16 * niovecs
 *
 * (8 bytes of alignment slack and a 16-byte struct xfs_log_iovec a
 * vector; the struct xfs_log_vec header is the same for every size and
 * left out), where nbytes is what xfs_buf_item_size() returns: the format
 * and the dirty chunks, rounded up to 512 from 5.12 on.  A buffer is
 * followed from checkpoint to checkpoint; its dirty map only grows while
 * its log item lives, so a smaller dirty size means a new log item.
 */
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/ondisk.h"
#include "analysis/costmodel.h"

/* Runs of more than one chunk among runs[from .. to). */
static uint64_t long_runs(const struct xls_region_result *r, uint32_t from, uint32_t to)
{
	uint64_t n = 0;

	for (uint32_t i = from; i < to && i < r->nruns_stored; i++)
		n += r->runs[i].nchunks > 1;
	return n;
}

void xls_cost_buf(const struct xls_buf_analysis *ba, struct xls_cost *c)
{
	const struct xls_region_result *r = &ba->res;
	uint32_t nruns = r->nruns_stored, k = nruns;
	uint64_t n = 0, n_slow = 0, v_fast = 0;

	memset(c, 0, sizeof(*c));
	if (!ba->parsed || (ba->blf.blf_flags & XFS_BLF_CANCEL) || !nruns)
		return;
	if (r->nsplits_stored)
		k = r->splits[0].run;
	for (uint32_t i = 0; i < nruns; i++) {
		n += r->runs[i].nchunks;
		if (i >= k)
			n_slow += r->runs[i].nchunks;
		else
			v_fast += r->runs[i].nregions;
	}

	/* size and format each walk every set bit; contiguous steps check */
	c->bit_steps = 2 * n;
	c->bit_offset_calls = 4 * (n - nruns) + r->nregions;

	/* the fast loop, then (from run k) the slow one */
	if (k == nruns) {
		c->run_steps = 2 * (uint64_t)nruns;
		c->run_offset_calls = 4 * long_runs(r, 0, nruns) + nruns;
	} else {
		uint64_t r_slow = nruns - k;

		c->slow_items = 1;
		c->run_steps = 2 * ((uint64_t)k + 1 + n_slow);
		c->run_offset_calls = 4 * long_runs(r, 0, k + 1) + 4 * (n_slow - r_slow) +
				      v_fast + (r->nregions - v_fast);
	}
	c->plain_steps = 2 * (uint64_t)nruns;
}

void xls_cost_item_size(const struct xls_buf_analysis *ba, uint32_t *nbytes,
			uint32_t *niovecs)
{
	uint64_t chunks = 0;

	*nbytes = ba->blf.fmt_len;
	*niovecs = 1;
	if (!ba->parsed || (ba->blf.blf_flags & XFS_BLF_CANCEL))
		return;
	for (uint32_t i = 0; i < ba->res.nruns_stored; i++)
		chunks += ba->res.runs[i].nchunks;
	*nbytes += (uint32_t)(chunks << XFS_BLF_SHIFT);
	*niovecs += ba->res.nregions;
}

/* ------------------------------------------------------------------ */
/* shadow log vectors */

struct shadow_buf {
	uint32_t	cap_exact;
	uint32_t	cap_rounded;
	uint32_t	dirty_chunks;
};

struct xls_shadow {
	struct xls_hashmap	index;		/* (blkno, len) -> slot */
	struct shadow_buf	*buf;
	uint32_t		*free;		/* slots to reuse */
	uint32_t		nfree, nbuf, max;
	uint64_t		untracked;
};

struct xls_shadow *xls_shadow_new(uint32_t max_buffers)
{
	struct xls_shadow *sh = calloc(1, sizeof(*sh));

	if (!sh)
		return NULL;
	sh->max = max_buffers ? max_buffers : 1;
	sh->buf = malloc(sizeof(*sh->buf) * sh->max);
	sh->free = malloc(sizeof(*sh->free) * sh->max);
	if (!sh->buf || !sh->free) {
		xls_shadow_free(sh);
		return NULL;
	}
	return sh;
}

void xls_shadow_free(struct xls_shadow *sh)
{
	if (!sh)
		return;
	xls_hashmap_free(&sh->index);
	free(sh->buf);
	free(sh->free);
	free(sh);
}

static uint32_t shadow_need(uint32_t nbytes, uint32_t niovecs, bool rounded)
{
	uint64_t b = rounded ? ((uint64_t)nbytes + 511) / 512 * 512 : nbytes;

	b = (b + 8ull * niovecs + 7) / 8 * 8 + 16ull * niovecs;
	return b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
}

static void shadow_forget(struct xls_shadow *sh, int64_t blkno, uint32_t len_bb,
			  uint32_t slot)
{
	xls_hashmap_del(&sh->index, (uint64_t)blkno, len_bb);
	sh->free[sh->nfree++] = slot;
}

/* A new slot for (blkno, len_bb), or -1 when the table is full. */
static int64_t shadow_add(struct xls_shadow *sh, int64_t blkno, uint32_t len_bb)
{
	uint32_t slot;

	if (sh->nfree)
		slot = sh->free[--sh->nfree];
	else if (sh->nbuf < sh->max)
		slot = sh->nbuf++;
	else
		return -1;
	if (xls_hashmap_put(&sh->index, (uint64_t)blkno, len_bb, slot)) {
		sh->free[sh->nfree++] = slot;
		return -1;
	}
	return slot;
}

bool xls_shadow_item(struct xls_shadow *sh, int64_t blkno, uint32_t len_bb, bool cancel,
		     uint32_t nbytes, uint32_t niovecs, uint32_t dirty_chunks,
		     struct xls_shadow_count *add)
{
	uint32_t *slotp = xls_hashmap_find(&sh->index, (uint64_t)blkno, len_bb);
	uint32_t exact = shadow_need(nbytes, niovecs, false);
	uint32_t rounded = shadow_need(nbytes, niovecs, true);
	struct shadow_buf *b;
	int64_t slot;

	if (slotp && cancel) {
		/* the format alone fits what it had; then the item is freed */
		shadow_forget(sh, blkno, len_bb, *slotp);
		return true;
	}
	if (slotp && dirty_chunks >= sh->buf[*slotp].dirty_chunks) {
		b = &sh->buf[*slotp];
		if (exact > b->cap_exact) {
			add->exact++;
			b->cap_exact = exact;
		}
		if (rounded > b->cap_rounded) {
			add->rounded++;
			b->cap_rounded = rounded;
		}
		b->dirty_chunks = dirty_chunks;
		return true;
	}
	/* a new log item: its first vector */
	add->exact++;
	add->rounded++;
	if (cancel)
		return true;
	if (slotp) {
		slot = *slotp;
	} else if ((slot = shadow_add(sh, blkno, len_bb)) < 0) {
		sh->untracked++;
		return false;
	}
	b = &sh->buf[slot];
	b->cap_exact = exact;
	b->cap_rounded = rounded;
	b->dirty_chunks = dirty_chunks;
	return true;
}

uint64_t xls_shadow_untracked(const struct xls_shadow *sh)
{
	return sh->untracked;
}
