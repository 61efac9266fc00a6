/*
 * Log stage: records written as the kernel writes them -- a header (and
 * extended headers), its payload, each data block's first word traded for
 * the cycle (xlog_pack_data), the record rounded to the log stripe unit
 * and checksummed (xlog_sync) -- and, on them, transactions as the CIL
 * writes a checkpoint: a start op, the transaction header, the items'
 * regions each behind an op header, a commit record (xlog_write,
 * xlog_cil_push_work).  clean.c's unmount and padding records are of the
 * same make.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "log/log.h"
#include "log/log_priv.h"

#define OPHDR	((uint32_t)sizeof(struct xlog_op_header))
#define HDR_AT(hdr, field) ((hdr) + offsetof(struct xlog_rec_header, field))

uint32_t xls_log_next_cycle(uint32_t cycle)
{
	return ++cycle == XLOG_HEADER_MAGIC_NUM ? cycle + 1 : cycle;
}

void xls_log_header_common(const struct xls_log *log, uint8_t *hdr, uint32_t cycle,
			   uint32_t blk, uint64_t tail_lsn, uint32_t h_fmt)
{
	memset(hdr, 0, BB);
	xls_put_be32(HDR_AT(hdr, h_magicno), XLOG_HEADER_MAGIC_NUM);
	xls_put_be32(HDR_AT(hdr, h_cycle), cycle);
	xls_put_be32(HDR_AT(hdr, h_version), log->logv2 ? XLOG_VERSION_2 : XLOG_VERSION_1);
	xls_put_be64(HDR_AT(hdr, h_lsn), xls_lsn(cycle, blk));
	xls_put_be64(HDR_AT(hdr, h_tail_lsn), tail_lsn);
	xls_put_be32(HDR_AT(hdr, h_fmt), h_fmt);
	memcpy(HDR_AT(hdr, h_fs_uuid), log->src->geo.uuid, 16);
}

int xls_log_rec_shape(const struct xls_log *log, uint32_t payload, struct xls_rec_shape *s)
{
	uint32_t sunit = log->logv2 ? log->src->geo.log_sunit : 0;
	uint32_t roundoff = sunit ? sunit : BB, total;

	if (sunit % BB || sunit > XLOG_MAX_RECORD_BSIZE)
		return -1;
	/* the iclog the kernel mounts with: 32 KiB, or the log stripe unit when larger */
	s->h_size = sunit > XLOG_BIG_RECORD_BSIZE ? sunit : XLOG_BIG_RECORD_BSIZE;
	s->hblks = log->logv2 ? (s->h_size + XLOG_HEADER_CYCLE_SIZE - 1) /
				XLOG_HEADER_CYCLE_SIZE : 1;
	total = (s->hblks * BB + payload + roundoff - 1) / roundoff * roundoff;
	s->blks = total / BB;
	/* v2: h_len counts the padding; v1: only what was logged */
	s->h_len = log->logv2 ? total - s->hblks * BB : payload;
	return 0;
}

/* xlog_pack_data: each data block's first word kept in a header, the cycle in its place. */
static void pack_cycles(uint8_t *rec, const struct xls_rec_shape *s, uint32_t cycle)
{
	const uint32_t per_hdr = XLOG_HEADER_CYCLE_SIZE / BB;

	for (uint32_t i = 1; i < s->hblks; i++)
		xls_put_be32(rec + (size_t)i * BB +
			     offsetof(struct xlog_rec_ext_header, xh_cycle), cycle);
	for (uint32_t i = 0; i + s->hblks < s->blks; i++) {
		uint8_t *blk = rec + (size_t)(s->hblks + i) * BB;
		uint8_t *save = i < per_hdr ?
			HDR_AT(rec, h_cycle_data) + 4 * i :
			rec + (size_t)(i / per_hdr) * BB +
			offsetof(struct xlog_rec_ext_header, xh_cycle_data) + 4 * (i % per_hdr);

		memcpy(save, blk, 4);
		xls_put_be32(blk, cycle);
	}
}

void xls_log_rec_finish(const struct xls_log *log, uint8_t *rec, const struct xls_rec_shape *s,
			const struct xls_rec_at *at, uint32_t nops)
{
	uint8_t *hdr = rec, *data = rec + (size_t)s->hblks * BB;

	memset(rec + BB, 0, (size_t)(s->hblks - 1) * BB);
	xls_log_header_common(log, hdr, at->cycle, at->blk, at->tail_lsn, at->h_fmt);
	xls_put_be32(HDR_AT(hdr, h_len), s->h_len);
	xls_put_be32(HDR_AT(hdr, h_prev_block), at->prev_blk);
	xls_put_be32(HDR_AT(hdr, h_num_logops), nops);
	xls_put_be32(HDR_AT(hdr, h_size), s->h_size);
	pack_cycles(rec, s, at->cycle);
	/* past the physical end, the next cycle (xlog_split_iclog) */
	for (uint32_t i = log->nblks - at->blk; i < s->blks; i++)
		xls_put_be32(rec + (size_t)i * BB,
			     xls_log_next_cycle(xls_be32(rec + (size_t)i * BB)));
	if (log->src->geo.crc) {
		/* checksummed as the log's writer checksums its records */
		uint32_t crc = xls_rec_crc_as(hdr, data, s->h_len, s->hblks, log->logv2,
					      __atomic_load_n(&log->crc_i386, __ATOMIC_RELAXED));

		for (int i = 0; i < 4; i++)
			HDR_AT(hdr, h_crc)[i] = (uint8_t)(crc >> (8 * i));
	}
}

int xls_log_put_rec(const struct xls_log *log, uint32_t blk, const uint8_t *rec, uint32_t blks,
		    xls_log_put_fn put, void *ctx)
{
	uint32_t first = log->nblks - blk;

	if (first >= blks)
		return put(ctx, blk, rec, blks);
	if (put(ctx, blk, rec, first))
		return -1;
	return put(ctx, 0, rec + (size_t)first * BB, blks - first);
}

/*
 * The blocks from the head @ht found up to @lsn, where a later unmount
 * record goes: records of no op, in the cycle of the blocks they take,
 * each as long as an iclog holds at most, so that the head is found
 * past them and every record before it reads whole.  *@prev_blk: the
 * header of the last one.
 */
int xls_log_write_pad(const struct xls_log *log, const struct xls_head_tail *ht, uint64_t lsn,
		      uint32_t h_fmt, uint64_t tail_lsn, uint32_t *prev_blk, xls_log_put_fn put,
		      void *ctx)
{
	struct xls_rec_shape base, s;
	uint32_t cycle = ht->curr_cycle, blk = ht->curr_block, left, most;
	uint8_t *rec;
	int rc = 0;

	*prev_blk = ht->last_rec_blk;
	if (xls_log_rec_shape(log, 0, &base) || base.blks + 8 > log->nblks ||
	    blk >= log->nblks)
		return -1;
	left = xls_lsn_cycle(lsn) == cycle ? xls_lsn_block(lsn) - blk :
	       log->nblks - blk + xls_lsn_block(lsn);
	if (xls_lsn_block(lsn) >= log->nblks || left >= log->nblks)
		return -1;
	most = base.hblks + base.h_size / BB;
	rec = malloc((size_t)most * BB);
	if (!rec)
		return -1;
	while (left && !rc) {
		/* a record ends at the physical end: the next begins the next cycle */
		uint32_t room = log->nblks - blk, take = left < most ? left : most;

		if (take > room)
			take = room;
		/* what is left must make a record of its own, a header and a block */
		if (left - take && left - take <= base.hblks)
			take -= base.hblks + 1 - (left - take);
		if (take <= base.hblks) {
			rc = -1;
			break;
		}
		s = base;
		s.blks = take;
		s.h_len = (take - s.hblks) * BB;
		memset(rec, 0, (size_t)take * BB);
		xls_log_rec_finish(log, rec, &s, &(struct xls_rec_at){ cycle, blk, *prev_blk,
				   tail_lsn ? tail_lsn : xls_lsn(cycle, blk), h_fmt }, 0);
		rc = put(ctx, blk, rec, take);
		*prev_blk = blk;
		left -= take;
		blk += take;
		if (blk == log->nblks) {
			blk = 0;
			cycle = xls_log_next_cycle(cycle);
		}
	}
	free(rec);
	return rc;
}

/* ------------------------------------------------------------------ */
/* transactions */

static void advance(struct xls_log_writer *w, uint32_t blks)
{
	w->blk += blks;
	if (w->blk >= w->log->nblks) {
		w->blk -= w->log->nblks;
		w->cycle = xls_log_next_cycle(w->cycle);
	}
	w->blocks += blks;
}

int xls_log_writer_init(struct xls_log_writer *w, const struct xls_log *log,
			const struct xls_head_tail *ht, uint32_t h_fmt, xls_log_put_fn put,
			void *ctx)
{
	struct xls_rec_shape s;

	*w = (struct xls_log_writer){
		.log = log, .h_fmt = h_fmt, .put = put, .ctx = ctx,
		.cycle = ht->curr_cycle, .blk = ht->curr_block, .prev_blk = ht->last_rec_blk,
		.last_lsn = ht->last_lsn,
		.tail_lsn = xls_lsn(xls_lsn_cycle(ht->tail_lsn), ht->tail_blk),
	};
	if (ht->curr_block >= log->nblks || xls_log_rec_shape(log, 0, &s))
		return -1;
	/* what an iclog holds past its headers (xlog_alloc_log: l_iclog_size - hsize) */
	w->room = s.h_size - s.hblks * BB;
	w->rec = malloc((size_t)s.hblks * BB + s.h_size);
	return w->rec ? 0 : -1;
}

void xls_log_writer_release(struct xls_log_writer *w)
{
	free(w->rec);
	w->rec = NULL;
}

int xls_log_writer_flush(struct xls_log_writer *w)
{
	struct xls_rec_shape s;
	struct xls_rec_at at = { w->cycle, w->blk, w->prev_blk, w->tail_lsn, w->h_fmt };

	if (!w->nops)
		return 0;
	if (xls_log_rec_shape(w->log, w->used, &s))
		return -1;
	if (w->put) {
		uint8_t *data = w->rec + (size_t)s.hblks * BB;

		memset(data + w->used, 0, (size_t)(s.blks - s.hblks) * BB - w->used);
		xls_log_rec_finish(w->log, w->rec, &s, &at, w->nops);
		if (xls_log_put_rec(w->log, w->blk, w->rec, s.blks, w->put, w->ctx))
			return -1;
	}
	w->prev_blk = w->blk;
	w->last_lsn = xls_lsn(w->cycle, w->blk);
	advance(w, s.blks);
	w->used = 0;
	w->nops = 0;
	return 0;
}

int xls_log_writer_op(struct xls_log_writer *w, uint32_t tid, uint8_t flags,
		      const void *payload, uint32_t len)
{
	uint8_t *op;

	if (OPHDR + len > w->room)
		return -1;
	if (w->used + OPHDR + len > w->room && xls_log_writer_flush(w))
		return -1;
	op = w->rec + (size_t)xls_log_writer_hblks(w) * BB + w->used;
	xls_put_be32(op + offsetof(struct xlog_op_header, oh_tid), tid);
	xls_put_be32(op + offsetof(struct xlog_op_header, oh_len), len);
	op[offsetof(struct xlog_op_header, oh_clientid)] = XFS_TRANSACTION;
	op[offsetof(struct xlog_op_header, oh_flags)] = flags;
	op[offsetof(struct xlog_op_header, oh_res2)] = 0;
	op[offsetof(struct xlog_op_header, oh_res2) + 1] = 0;
	if (len)
		memcpy(op + OPHDR, payload, len);
	w->used += OPHDR + len;
	w->nops++;
	return 0;
}

uint32_t xls_log_writer_hblks(const struct xls_log_writer *w)
{
	struct xls_rec_shape s;

	return xls_log_rec_shape(w->log, 0, &s) ? 1 : s.hblks;
}

/* Blocks from the writer's place to @lsn, or UINT32_MAX when @lsn is behind it. */
static uint32_t blocks_to(const struct xls_log_writer *w, uint64_t lsn)
{
	uint32_t c = xls_lsn_cycle(lsn), b = xls_lsn_block(lsn);

	if (b >= w->log->nblks)
		return UINT32_MAX;
	if (c == w->cycle && b >= w->blk)
		return b - w->blk;
	if (c == xls_log_next_cycle(w->cycle) && b < w->blk)
		return w->log->nblks - w->blk + b;
	return UINT32_MAX;
}

int xls_log_writer_commit(struct xls_log_writer *w, uint32_t tid)
{
	if (xls_log_writer_op(w, tid, XLOG_COMMIT_TRANS, NULL, 0))
		return -1;
	return xls_log_writer_flush(w);
}

int xls_log_writer_pad_to(struct xls_log_writer *w, uint64_t lsn)
{
	uint32_t gap = blocks_to(w, lsn);
	struct xls_head_tail here = { .curr_cycle = w->cycle, .curr_block = w->blk,
				      .last_rec_blk = w->prev_blk };

	if (xls_log_writer_flush(w) || gap == UINT32_MAX ||
	    (gap && gap <= xls_log_writer_hblks(w)))
		return -1;
	if (gap && w->put &&
	    xls_log_write_pad(w->log, &here, lsn, w->h_fmt, w->tail_lsn, &w->prev_blk, w->put,
			      w->ctx))
		return -1;
	if (gap && !w->put)
		w->prev_blk = w->blk;
	advance(w, gap);
	return 0;
}
