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

#define BB	512u

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

static void put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

#define HDR_AT(hdr, field) ((hdr) + offsetof(struct xlog_rec_header, field))

/* The fields every record header of this log carries (xlog_add_record). */
static void header_common(const struct xls_log *log, uint8_t *hdr, uint32_t cycle,
			  uint32_t blk, uint64_t tail_lsn, uint32_t h_fmt)
{
	memset(hdr, 0, BB);
	put_be32(HDR_AT(hdr, h_magicno), XLOG_HEADER_MAGIC_NUM);
	put_be32(HDR_AT(hdr, h_cycle), cycle);
	put_be32(HDR_AT(hdr, h_version), log->logv2 ? XLOG_VERSION_2 : XLOG_VERSION_1);
	put_be64(HDR_AT(hdr, h_lsn), xls_lsn(cycle, blk));
	put_be64(HDR_AT(hdr, h_tail_lsn), tail_lsn);
	put_be32(HDR_AT(hdr, h_fmt), h_fmt);
	memcpy(HDR_AT(hdr, h_fs_uuid), log->src->geo.uuid, 16);
}

/* The cycle a record's block carries: the next one past the physical end. */
static uint32_t wrapped_cycle(uint32_t cycle)
{
	return ++cycle == XLOG_HEADER_MAGIC_NUM ? cycle + 1 : cycle;
}

/*
 * The shape of the record an unmount writes: the iclog the kernel mounts
 * with (its default logbsize: 32 KiB, or the log stripe unit when larger),
 * its header and extended headers (one per 32 KiB of iclog, v2), and the
 * record padded to the stripe unit (xlog_calc_iclog_size's roundoff), so
 * that the head lands where the kernel's own unmount leaves it: on a 4 KiB
 * sector log, never inside a sector.
 */
struct unmount_shape {
	uint32_t	h_size;		/* the iclog size */
	uint32_t	hblks;		/* header blocks */
	uint32_t	blks;		/* the whole record */
	uint32_t	h_len;
};

#define UNMOUNT_PAYLOAD	((uint32_t)(sizeof(struct xlog_op_header) + \
				    sizeof(struct xfs_unmount_log_format)))

static int unmount_shape(const struct xls_log *log, struct unmount_shape *s)
{
	uint32_t sunit = log->logv2 ? log->src->geo.log_sunit : 0;
	uint32_t roundoff = sunit ? sunit : BB, total;

	if (sunit % BB || sunit > XLOG_MAX_RECORD_BSIZE)
		return -1;
	s->h_size = sunit > XLOG_BIG_RECORD_BSIZE ? sunit : XLOG_BIG_RECORD_BSIZE;
	s->hblks = log->logv2 ? (s->h_size + XLOG_HEADER_CYCLE_SIZE - 1) /
				XLOG_HEADER_CYCLE_SIZE : 1;
	total = (s->hblks * BB + UNMOUNT_PAYLOAD + roundoff - 1) / roundoff * roundoff;
	s->blks = total / BB;
	/* v2: h_len counts the padding; v1: only what was logged */
	s->h_len = log->logv2 ? total - s->hblks * BB : UNMOUNT_PAYLOAD;
	return s->blks + 8 > log->nblks ? -1 : 0;
}

/*
 * xlog_pack_data: each data block's first word saved in the header (or an
 * extended header), the record's cycle in its place.
 */
static void pack_cycles(uint8_t *rec, const struct unmount_shape *s, uint32_t cycle)
{
	const uint32_t per_hdr = XLOG_HEADER_CYCLE_SIZE / BB;

	for (uint32_t i = 1; i < s->hblks; i++)
		put_be32(rec + (size_t)i * BB + offsetof(struct xlog_rec_ext_header, xh_cycle),
			 cycle);
	for (uint32_t i = 0; i + s->hblks < s->blks; i++) {
		uint8_t *blk = rec + (size_t)(s->hblks + i) * BB;
		uint8_t *save = i < per_hdr ?
			HDR_AT(rec, h_cycle_data) + 4 * i :
			rec + (size_t)(i / per_hdr) * BB +
			offsetof(struct xlog_rec_ext_header, xh_cycle_data) + 4 * (i % per_hdr);

		memcpy(save, blk, 4);
		put_be32(blk, cycle);
	}
}

/*
 * A record at @blk of @cycle into @rec (@s->blks blocks): with @unmount the
 * unmount record -- its op (XLOG_UNMOUNT_TRANS, transaction @tid) and its
 * xfs_unmount_log_format in the byte order @h_fmt says -- else a record of
 * no op, zeros; its blocks cycle-stamped, those past the physical end of
 * the log with the next cycle (xlog_split_iclog), and its CRC, as
 * xlog_sync computes it after the split, over what is written.
 */
static void log_record(const struct xls_log *log, uint8_t *rec, const struct unmount_shape *s,
		       uint32_t cycle, uint32_t blk, uint32_t prev_blk, uint32_t tid,
		       uint32_t h_fmt, bool unmount)
{
	uint8_t *hdr = rec, *data = rec + (size_t)s->hblks * BB;
	uint8_t *op = data, *ulf = data + sizeof(struct xlog_op_header);
	bool be = h_fmt == XLOG_FMT_LINUX_BE;
	uint16_t magic = XLOG_UNMOUNT_TYPE;

	memset(rec, 0, (size_t)s->blks * BB);
	header_common(log, hdr, cycle, blk, xls_lsn(cycle, blk), h_fmt);
	put_be32(HDR_AT(hdr, h_len), s->h_len);
	put_be32(HDR_AT(hdr, h_prev_block), prev_blk);
	put_be32(HDR_AT(hdr, h_num_logops), unmount ? 1 : 0);
	put_be32(HDR_AT(hdr, h_size), s->h_size);
	if (unmount) {
		put_be32(op + offsetof(struct xlog_op_header, oh_tid), tid);
		put_be32(op + offsetof(struct xlog_op_header, oh_len),
			 sizeof(struct xfs_unmount_log_format));
		op[offsetof(struct xlog_op_header, oh_clientid)] = XFS_LOG;
		op[offsetof(struct xlog_op_header, oh_flags)] = XLOG_UNMOUNT_TRANS;
		ulf[be ? 0 : 1] = (uint8_t)(magic >> 8);
		ulf[be ? 1 : 0] = (uint8_t)magic;
	}
	pack_cycles(rec, s, cycle);
	for (uint32_t i = log->nblks - blk; i < s->blks; i++)
		put_be32(rec + (size_t)i * BB, wrapped_cycle(xls_be32(rec + (size_t)i * BB)));
	if (log->src->geo.crc) {
		/* checksummed as the log's writer checksums its records */
		uint32_t crc = xls_rec_crc_as(hdr, data, s->h_len, s->hblks, log->logv2,
					      __atomic_load_n(&log->crc_i386, __ATOMIC_RELAXED));

		for (int i = 0; i < 4; i++)
			HDR_AT(hdr, h_crc)[i] = (uint8_t)(crc >> (8 * i));
	}
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
			header_common(log, hdrs + (size_t)j * BB, cycle, blk + i + j, tail_lsn,
				      h_fmt);
		rc = put(ctx, blk + i, hdrs, k);
	}
	return rc;
}

/* Where the unmount record goes, and what follows it. */
struct clean_at {
	struct unmount_shape shape;
	uint32_t	cycle, head;	/* of the record */
	uint32_t	after, after_cycle;	/* the block past it, and its cycle */
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
	at->after = at->head + at->shape.blks;
	at->after_cycle = at->cycle;
	if (at->after >= log->nblks) {
		at->after -= log->nblks;
		at->after_cycle = wrapped_cycle(at->cycle);
	}
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
	return stamp_blocks(log, 0, n - first, wrapped_cycle(cycle) - 1, tail_lsn, h_fmt, put,
			    ctx);
}

int xls_log_write_stale(const struct xls_log *log, const struct xls_head_tail *ht,
			uint32_t h_fmt, xls_log_put_fn put, void *ctx)
{
	uint64_t tail_lsn = xls_lsn(xls_lsn_cycle(ht->tail_lsn), ht->tail_blk);
	uint32_t nblks = log->nblks, max, dist, tail_dist, from;
	struct clean_at at;

	if (clean_at(log, ht, &at))
		return -1;
	/*
	 * xlog_clear_stale_blocks, from the head recovery found: as far as the
	 * I/O a crash could leave in flight reaches, never into the tail.  The
	 * unmount record then takes its first blocks; only those past it are
	 * written here.
	 */
	max = (XLOG_MAX_ICLOGS << (log->logv2 ? XLOG_MAX_RECORD_BSHIFT :
				   XLOG_BIG_RECORD_BSHIFT)) / BB;
	tail_dist = ht->tail_blk > at.head ? ht->tail_blk - at.head :
		    ht->tail_blk + (nblks - at.head);
	if (ht->tail_blk == at.head || ht->state != XLS_LOG_DIRTY)
		tail_dist = 0;
	dist = max < tail_dist ? max : tail_dist;
	if (dist <= at.shape.blks)
		return 0;
	from = at.after;
	return stamp_range(log, from, dist - at.shape.blks,
			   from < at.head ? wrapped_cycle(at.cycle) : at.cycle, tail_lsn, h_fmt,
			   put, ctx);
}

int xls_log_write_unmount(const struct xls_log *log, const struct xls_head_tail *ht,
			  uint32_t h_fmt, uint32_t tid, xls_log_put_fn put, void *ctx)
{
	struct clean_at at;
	uint32_t first;
	uint8_t *rec;
	int rc;

	if (clean_at(log, ht, &at))
		return -1;
	rec = malloc((size_t)at.shape.blks * BB);
	if (!rec)
		return -1;
	log_record(log, rec, &at.shape, at.cycle, at.head, ht->last_rec_blk, tid, h_fmt, true);
	first = log->nblks - at.head;
	if (first >= at.shape.blks) {
		rc = put(ctx, at.head, rec, at.shape.blks);
	} else {
		rc = put(ctx, at.head, rec, first);
		if (!rc)
			rc = put(ctx, 0, rec + (size_t)first * BB, at.shape.blks - first);
	}
	free(rec);
	return rc;
}

/*
 * The blocks from the head @ht found up to @lsn, where a later unmount
 * record goes: records of no op, in the cycle of the blocks they take,
 * each as long as an iclog holds at most, so that the head is found
 * past them and every record before it reads whole.  *@prev_blk: the
 * header of the last one.
 */
int xls_log_write_pad(const struct xls_log *log, const struct xls_head_tail *ht, uint64_t lsn,
		      uint32_t h_fmt, uint32_t *prev_blk, xls_log_put_fn put, void *ctx)
{
	struct unmount_shape base, s;
	uint32_t cycle = ht->curr_cycle, blk = ht->curr_block, left, most;
	uint8_t *rec;
	int rc = 0;

	*prev_blk = ht->last_rec_blk;
	if (unmount_shape(log, &base) || blk >= log->nblks)
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
		log_record(log, rec, &s, cycle, blk, *prev_blk, 0, h_fmt, false);
		rc = put(ctx, blk, rec, take);
		*prev_blk = blk;
		left -= take;
		blk += take;
		if (blk == log->nblks) {
			blk = 0;
			cycle = wrapped_cycle(cycle);
		}
	}
	free(rec);
	return rc;
}
