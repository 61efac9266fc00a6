/*
 * Recovery stage: the simulated buffer heads and the delwri list, as the
 * kernel's buffer cache holds them through recovery -- a block read once,
 * replayed into, queued, and written back in daddr order at each new
 * transaction LSN (xfs_buf_delwri_submit), where its write verifier runs
 * and stamps the LSN.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recover/recover_priv.h"

/* ------------------------------------------------------------------ */
/* simulated buffer heads */

/* A new state of no head yet, or NULL when out of memory. */
static struct rstate *state_new(struct xls_recover *r, int64_t blkno, uint32_t len)
{
	struct rstate *st;
	uint64_t bytes = (uint64_t)len * BBSIZE;

	st = xls_vec_push((void **)&r->states, &r->nstates, &r->capstates, sizeof(*st));
	if (!st)
		return NULL;
	if (xls_hashmap_put(&r->bufidx, (uint64_t)blkno, len, r->nstates - 1)) {
		r->nstates--;
		return NULL;
	}
	memset(st, 0, sizeof(*st));
	st->blkno = blkno;
	st->len = len;
	st->head_len = bytes < HEAD_BYTES ? (uint32_t)bytes : HEAD_BYTES;
	return st;
}

/* Give @st its head: as the device has it, then as an icreate left it. */
static int head_make(struct xls_recover *r, struct rstate *st)
{
	uint64_t bytes = (uint64_t)st->len * BBSIZE;

	st->head = xls_arena_zalloc(&r->heads, HEAD_BYTES);
	if (!st->head)
		return -ENOMEM;
	if (r->data_dev && st->blkno >= 0 && (uint64_t)st->blkno < (UINT64_MAX >> 10) &&
	    st->head_len > 0) {
		st->readable = xls_source_read_data(r->src, (uint64_t)st->blkno * BBSIZE,
						    st->head, st->head_len) == 0;
		st->absent = st->readable &&
			     xls_source_data_missing(r->src, (uint64_t)st->blkno * BBSIZE, bytes) != 0;
	}
	if (st->icreated)
		xls_recover_init_inodes(r->g, &r->icreates[st->icl], st->icl_cluster, st->head,
					st->head_len);
	return 0;
}

uint8_t *xls_rstate_head(struct xls_recover *r, struct rstate *st)
{
	if (!st->head && head_make(r, st))
		r->err = -ENOMEM;
	return st->head;
}

struct rstate *xls_rstate_get(struct xls_recover *r, int64_t blkno, uint32_t len)
{
	uint32_t *idx = xls_hashmap_find(&r->bufidx, (uint64_t)blkno, len);
	struct rstate *st = idx ? &r->states[*idx] : state_new(r, blkno, len);

	return st && xls_rstate_head(r, st) ? st : NULL;
}

struct rstate *xls_rstate_icreate(struct xls_recover *r, int64_t blkno, uint32_t len,
				  const struct xls_ricreate *icl, uint32_t cluster)
{
	uint32_t *idx = xls_hashmap_find(&r->bufidx, (uint64_t)blkno, len);
	struct rstate *st = idx ? &r->states[*idx] : state_new(r, blkno, len);

	if (!st)
		return NULL;
	/* an icreate's clusters come one after another: it is kept once */
	if (!r->nicreates || memcmp(&r->icreates[r->nicreates - 1], icl, sizeof(*icl))) {
		struct xls_ricreate *c = xls_vec_push((void **)&r->icreates, &r->nicreates,
						      &r->capicreates, sizeof(*c));

		if (!c) {
			r->err = -ENOMEM;
			return NULL;
		}
		*c = *icl;
	}
	st->icreated = true;
	st->icl = r->nicreates - 1;
	st->icl_cluster = cluster;
	if (st->head)
		xls_recover_init_inodes(r->g, icl, cluster, st->head, st->head_len);
	return st;
}

/* The block's LSN as the write verifier leaves it. */
static void stamp_lsn(struct xls_recover *r, struct rstate *st)
{
	struct blk_id id;

	if (!st->has_ops || !st->stamp_lsn || !st->head)
		return;
	xls_blk_identify(r->g, st->head, st->head_len, &id);
	if (id.kind != BLK_LSN)
		return;
	for (int b = 0; b < 8; b++)
		st->head[id.lsn_off + b] = (uint8_t)(st->stamp_lsn >> (56 - 8 * b));
	st->stamp_lsn = 0;
}

/* xfs_buf_cmp: by the first map's daddr; list_sort keeps equal ones in order */
static int cmp_order(const void *a, const void *b)
{
	const struct rorder *x = a, *y = b;

	if (x->blkno != y->blkno)
		return x->blkno < y->blkno ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The delwri list in the order xfs_buf_delwri_submit_buffers() writes it. */
static bool sort_queue(struct xls_recover *r)
{
	r->norder = 0;
	if (!r->nqueue)
		return true;
	if (r->nqueue > r->caporder) {
		struct rorder *o = realloc(r->order, (size_t)r->nqueue * sizeof(*o));

		if (!o) {
			r->err = -ENOMEM;
			return false;
		}
		r->order = o;
		r->caporder = r->nqueue;
	}
	for (uint32_t i = 0; i < r->nqueue; i++) {
		r->order[i].blkno = r->states[r->queue[i]].blkno;
		r->order[i].pos = i;
	}
	r->norder = r->nqueue;
	qsort(r->order, r->norder, sizeof(*r->order), cmp_order);
	return true;
}

/*
 * A segment of a multi-extent directory block read as a buffer of its
 * own: what its write verifier finds, and the one write failure that is a
 * limit of the kernel's recovery rather than damage.
 */
const char xls_short_dir_fail[] = "the directory verifier checks a whole directory block "
				      "in this shorter buffer";

/*
 * What the kernel logs when buffer @st fails its write verifier: a segment
 * of a directory block fails deep in the data block check.
 */
static void write_fail_says(const struct xls_recover *r, const struct rstate *st, char *buf,
			    size_t size)
{
	struct blk_id id;

	if (st->write_fail == xls_short_dir_fail) {
		snprintf(buf, size, "Metadata corruption detected at __xfs_dir3_data_check, "
			 "xfs_dir3_data block 0x%llx", (unsigned long long)st->blkno);
		return;
	}
	/* xfs_validate_sb_common says so before the verifier's report */
	if (st->head_len >= 512 && xls_be32(st->head) == XFS_SB_MAGIC &&
	    xls_sb_geometry_refused(st->head)) {
		snprintf(buf, size, "SB sanity check failed");
		return;
	}
	xls_blk_identify(r->g, st->head, st->head_len, &id);
	xls_blk_verifier_says(&id, st->blkno, false, buf, size);
}

/* What the write-back does to @st, told to the sink that writes blocks. */
static void tell_write(struct xls_recover *r, const struct rstate *st, enum xls_rwrite_state s)
{
	struct xls_rwrite w = {
		.blkno = st->blkno, .len = st->len, .state = s,
		.stamp_lsn = st->has_ops ? st->stamp_lsn : 0,
		.limit = s == XLS_RW_FAILS && st->write_fail == xls_short_dir_fail,
	};

	if (r->sink && r->sink->write && !r->sink_rc)
		r->sink_rc = r->sink->write(r->sink->ctx, &w);
}

/* One buffer written (xfs_buf_submit -> xfs_buf_verify_write). */
static void write_one(struct xls_recover *r, struct rstate *st, struct xls_rwriteback *wb)
{
	char says[160];

	if (r->sum.fails) {
		/* what the kernel would find, had it gone on (replay --force) */
		tell_write(r, st, st->verifier && st->write_fail ? XLS_RW_FAILS :
			   XLS_RW_SHUT_DOWN);
		/*
		 * Recovery has failed, so the log is shut down: a verifier
		 * failure before, or an item's error, after which
		 * xlog_do_recovery_pass shuts the log down before it submits
		 * the list.  The buffer fails without a write.
		 */
		wb->not_written++;
		return;
	}
	if (r->g->crc && !st->verifier) {
		struct xls_rbufid *id = xls_vec_push((void **)&r->noops, &r->nnoops, &r->capnoops, sizeof(*id));
		if (!id) {
			r->err = -ENOMEM;
			return;
		}
		id->blkno = st->blkno;
		id->len = st->len;
		r->sum.kernel_warnings++;
	} else if (st->verifier && st->write_fail) {
		tell_write(r, st, XLS_RW_FAILS);
		wb->fails = true;
		wb->fail.blkno = st->blkno;
		wb->fail.len = st->len;
		wb->fail_tid = st->fail_tid;
		wb->fail_what = st->write_fail;
		write_fail_says(r, st, says, sizeof(says));
		xls_recover_fail(r, r->recovery_lsn,
				 (struct xls_rfail){ XLS_RSTOP_WRITEBACK,
				 st->write_fail == xls_short_dir_fail ? XLS_RCAUSE_LIMIT :
				 XLS_RCAUSE_METADATA, XLS_EFSCORRUPTED }, says,
				 "buffer 0x%llx (%u bytes; last replayed by transaction 0x%08x) fails "
				 "its write verifier when the buffers queued at LSN %u/%u are "
				 "written in daddr order: %s: the kernel reports metadata corruption "
				 "and recovery fails",
				 (unsigned long long)st->blkno, st->len * BBSIZE, st->fail_tid,
				 xls_lsn_cycle(r->recovery_lsn),
				 xls_lsn_block(r->recovery_lsn), st->write_fail);
		return;
	}
	tell_write(r, st, XLS_RW_WRITTEN);
	stamp_lsn(r, st);
}

void xls_rstate_flush(struct xls_recover *r, struct xls_rwriteback *wb)
{
	memset(wb, 0, sizeof(*wb));
	wb->lsn = r->recovery_lsn;
	wb->buffers = r->nqueue;
	r->nnoops = 0;
	if (!sort_queue(r))
		return;
	for (uint32_t i = 0; i < r->norder; i++) {
		struct rstate *st = &r->states[r->queue[r->order[i].pos]];

		st->queued = false;
		write_one(r, st, wb);
	}
	r->nqueue = 0;
	wb->noops = r->noops;
	wb->nnoops = r->nnoops;
}

void xls_rstate_queue(struct xls_recover *r, struct rstate *st)
{
	uint32_t *q;

	if (st->queued)
		return;
	q = xls_vec_push((void **)&r->queue, &r->nqueue, &r->capqueue, sizeof(*q));
	if (!q) {
		r->err = -ENOMEM;
		return;
	}
	*q = (uint32_t)(st - r->states);
	st->queued = true;
}

