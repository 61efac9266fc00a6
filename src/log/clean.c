/*
 * Log stage: the log as the kernel leaves it once it has recovered it and
 * unmounted cleanly -- an unmount record at the head (xlog_unmount_write),
 * and past it the blocks a crash could have left written in the current
 * cycle stamped with the one before (xlog_clear_stale_blocks), so that the
 * head is found right after the unmount record and the log is clean.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "log/log.h"
#include "log/log_priv.h"

const char *xls_log_byte_order(uint32_t h_fmt)
{
	switch (h_fmt) {
	case XLOG_FMT_LINUX_LE:
		return "little-endian";
	case XLOG_FMT_LINUX_BE:
	case XLOG_FMT_IRIX_BE:
		return "big-endian";
	}
	return "unknown";
}

/*
 * The shape of the record an unmount writes: the iclog the kernel mounts
 * with, its header and extended headers (one per 32 KiB of iclog, v2),
 * and the record padded to the stripe unit (xlog_calc_iclog_size's
 * roundoff), so that the head lands where the kernel's own unmount leaves
 * it: on a 4 KiB sector log, never inside a sector.
 */
#define UNMOUNT_PAYLOAD	((uint32_t)(sizeof(struct xlog_op_header) + \
				    sizeof(struct xfs_unmount_log_format)))

static int unmount_shape(const struct xls_log *log, struct xls_rec_shape *s)
{
	if (xls_log_rec_shape(log, UNMOUNT_PAYLOAD, s))
		return -1;
	return s->blks + 8 > log->nblks ? -1 : 0;
}

/*
 * The unmount record at @at into @rec (@s->blks blocks): its op
 * (XLOG_UNMOUNT_TRANS, transaction @tid) and its xfs_unmount_log_format
 * in the byte order @at->h_fmt says.
 */
static void unmount_record(const struct xls_log *log, uint8_t *rec,
			   const struct xls_rec_shape *s, const struct xls_rec_at *at, uint32_t tid)
{
	uint8_t *op = rec + (size_t)s->hblks * BB, *ulf = op + sizeof(struct xlog_op_header);
	bool be = at->h_fmt == XLOG_FMT_LINUX_BE;
	uint16_t magic = XLOG_UNMOUNT_TYPE;

	memset(rec, 0, (size_t)s->blks * BB);
	xls_put_be32(op + offsetof(struct xlog_op_header, oh_tid), tid);
	xls_put_be32(op + offsetof(struct xlog_op_header, oh_len),
		     sizeof(struct xfs_unmount_log_format));
	op[offsetof(struct xlog_op_header, oh_clientid)] = XFS_LOG;
	op[offsetof(struct xlog_op_header, oh_flags)] = XLOG_UNMOUNT_TRANS;
	ulf[be ? 0 : 1] = (uint8_t)(magic >> 8);
	ulf[be ? 1 : 0] = (uint8_t)magic;
	xls_log_rec_finish(log, rec, s, at, 1);
}

/* @n blocks from @blk, each an empty header of @cycle (xlog_write_log_records). */
static int stamp_blocks(const struct xls_log *log, uint32_t blk, uint32_t n, uint32_t cycle,
			uint64_t tail_lsn, uint32_t h_fmt, xls_log_put_fn put, void *ctx)
{
	enum { BATCH = 64 };
	uint8_t hdrs[BATCH * BB];
	int rc = 0;

	for (uint32_t i = 0; i < n && !rc; i += BATCH) {
		uint32_t k = n - i;

		if (k > BATCH)
			k = BATCH;

		for (uint32_t j = 0; j < k; j++)
			xls_log_header_common(log, hdrs + (size_t)j * BB, cycle, blk + i + j, tail_lsn,
				      h_fmt);
		rc = put(ctx, blk + i, hdrs, k);
	}
	return rc;
}

/* Where the unmount record goes, and what follows it. */
struct clean_at {
	struct xls_rec_shape shape;
	uint32_t	cycle, head;	/* of the record */
};

static int clean_at(const struct xls_log *log, const struct xls_head_tail *ht,
		    struct clean_at *at)
{
	if (unmount_shape(log, &at->shape))
		return -1;
	at->cycle = ht->curr_cycle;
	at->head = ht->curr_block;
	if (at->head >= log->nblks)
		return -1;
	return 0;
}

/* Blocks @from..@to (past the end: from 0, the next cycle) stamped with @cycle - 1. */
static int stamp_range(const struct xls_log *log, uint32_t from, uint32_t n, uint32_t cycle,
		       uint64_t tail_lsn, uint32_t h_fmt, xls_log_put_fn put, void *ctx)
{
	uint32_t first = n < log->nblks - from ? n : log->nblks - from;
	int rc = stamp_blocks(log, from, first, cycle - 1, tail_lsn, h_fmt, put, ctx);

	if (rc || n <= log->nblks - from)
		return rc;
	return stamp_blocks(log, 0, n - first, xls_log_next_cycle(cycle) - 1, tail_lsn, h_fmt, put,
			    ctx);
}

uint32_t xls_log_stale_reach(const struct xls_log *log, const struct xls_head_tail *ht)
{
	uint32_t head = ht->curr_block, max, tail_dist;

	/*
	 * xlog_clear_stale_blocks, from the head recovery found: as far as the
	 * I/O a crash could leave in flight reaches, never into the tail
	 */
	max = (XLOG_MAX_ICLOGS << (log->logv2 ? XLOG_MAX_RECORD_BSHIFT :
				   XLOG_BIG_RECORD_BSHIFT)) / BB;
	tail_dist = ht->tail_blk > head ? ht->tail_blk - head : ht->tail_blk + (log->nblks - head);
	if (ht->tail_blk == head || ht->state != XLS_LOG_DIRTY)
		tail_dist = 0;
	return max < tail_dist ? max : tail_dist;
}

/* The stale blocks from @skip blocks past the head on. */
static int write_stale_past(const struct xls_log *log, const struct xls_head_tail *ht,
			    uint32_t skip, uint32_t h_fmt, xls_log_put_fn put, void *ctx)
{
	uint64_t tail_lsn = xls_lsn(xls_lsn_cycle(ht->tail_lsn), ht->tail_blk);
	uint32_t dist = xls_log_stale_reach(log, ht), from = ht->curr_block + skip, cycle;

	if (ht->curr_block >= log->nblks || dist <= skip)
		return 0;
	cycle = ht->curr_cycle;
	if (from >= log->nblks) {
		from -= log->nblks;
		cycle = xls_log_next_cycle(cycle);
	}
	return stamp_range(log, from, dist - skip, cycle, tail_lsn, h_fmt, put, ctx);
}

int xls_log_write_stale(const struct xls_log *log, const struct xls_head_tail *ht,
			uint32_t h_fmt, xls_log_put_fn put, void *ctx)
{
	struct clean_at at;

	if (clean_at(log, ht, &at))
		return -1;
	/* the unmount record then takes the first blocks: only those past it are written */
	return write_stale_past(log, ht, at.shape.blks, h_fmt, put, ctx);
}

int xls_log_write_stale_ahead(const struct xls_log *log, const struct xls_head_tail *ht,
			      uint32_t h_fmt, xls_log_put_fn put, void *ctx)
{
	return write_stale_past(log, ht, 0, h_fmt, put, ctx);
}

int xls_log_write_unmount(const struct xls_log *log, const struct xls_head_tail *ht,
			  uint32_t h_fmt, uint32_t tid, xls_log_put_fn put, void *ctx)
{
	struct clean_at at;
	uint8_t *rec;
	int rc;

	if (clean_at(log, ht, &at))
		return -1;
	rec = malloc((size_t)at.shape.blks * BB);
	if (!rec)
		return -1;
	unmount_record(log, rec, &at.shape, &(struct xls_rec_at){ at.cycle, at.head,
		       ht->last_rec_blk, xls_lsn(at.cycle, at.head), h_fmt }, tid);
	rc = xls_log_put_rec(log, at.head, rec, at.shape.blks, put, ctx);
	free(rec);
	return rc;
}
