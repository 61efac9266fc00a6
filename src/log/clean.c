/*
 * Log stage: the log as the kernel leaves it once it has recovered it and
 * unmounted cleanly -- an unmount record at the head (xlog_unmount_write),
 * and past it the blocks a crash could have left written in the current
 * cycle stamped with the one before (xlog_clear_stale_blocks), so that the
 * head is found right after the unmount record and the log is clean.
 */
#include <stddef.h>
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
 * The unmount record at @blk of @cycle into @rec (two blocks: the header,
 * one block of payload), the op (XLOG_UNMOUNT_TRANS, transaction @tid)
 * and its xfs_unmount_log_format in the byte order @h_fmt says; its
 * payload block cycle-stamped, its CRC over what is written.
 */
static void unmount_record(const struct xls_log *log, uint8_t *rec, uint32_t cycle,
			   uint32_t blk, uint32_t prev_blk, uint32_t tid, uint32_t h_fmt)
{
	uint8_t *hdr = rec, *data = rec + BB;
	uint8_t *op = data, *ulf = data + sizeof(struct xlog_op_header);
	bool be = h_fmt == XLOG_FMT_LINUX_BE;
	uint16_t magic = XLOG_UNMOUNT_TYPE;

	header_common(log, hdr, cycle, blk, xls_lsn(cycle, blk), h_fmt);
	/* v2: the record is padded to its block, and h_len counts the padding */
	put_be32(HDR_AT(hdr, h_len), log->logv2 ? BB : (uint32_t)(sizeof(struct xlog_op_header) +
								   sizeof(struct xfs_unmount_log_format)));
	put_be32(HDR_AT(hdr, h_prev_block), prev_blk);
	put_be32(HDR_AT(hdr, h_num_logops), 1);
	put_be32(HDR_AT(hdr, h_size), XLOG_HEADER_CYCLE_SIZE);
	memset(data, 0, BB);
	put_be32(op + offsetof(struct xlog_op_header, oh_tid), tid);
	put_be32(op + offsetof(struct xlog_op_header, oh_len),
		 sizeof(struct xfs_unmount_log_format));
	op[offsetof(struct xlog_op_header, oh_clientid)] = XFS_LOG;
	op[offsetof(struct xlog_op_header, oh_flags)] = XLOG_UNMOUNT_TRANS;
	ulf[be ? 0 : 1] = (uint8_t)(magic >> 8);
	ulf[be ? 1 : 0] = (uint8_t)magic;
	/* xlog_pack_data: the block's first word saved, the cycle in its place */
	memcpy(HDR_AT(hdr, h_cycle_data), data, 4);
	put_be32(data, cycle);
	if (log->src->geo.crc) {
		uint32_t crc = xls_rec_crc(hdr, data, log->logv2 ? BB : 20, 1, log->logv2);

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
	uint32_t	cycle, head;	/* of the record */
	uint32_t	after, after_cycle;	/* the block past it, and its cycle */
};

static int clean_at(const struct xls_log *log, const struct xls_head_tail *ht,
		    struct clean_at *at)
{
	at->cycle = ht->curr_cycle;
	at->head = ht->curr_block;
	if (log->nblks < 8 || at->head >= log->nblks)
		return -1;
	at->after = at->head + 2;
	at->after_cycle = at->cycle;
	if (at->after >= log->nblks) {
		at->after -= log->nblks;
		at->after_cycle = wrapped_cycle(at->cycle);
	}
	return 0;
}

int xls_log_write_stale(const struct xls_log *log, const struct xls_head_tail *ht,
			uint32_t h_fmt, xls_log_put_fn put, void *ctx)
{
	uint64_t tail_lsn = xls_lsn(xls_lsn_cycle(ht->tail_lsn), ht->tail_blk);
	uint32_t nblks = log->nblks, max, dist, tail_dist;
	struct clean_at at;
	int rc;

	if (clean_at(log, ht, &at))
		return -1;
	/*
	 * xlog_clear_stale_blocks, from after the record: as far as the I/O
	 * a crash could leave in flight reaches, never into the tail.
	 */
	max = (XLOG_MAX_ICLOGS << (log->logv2 ? XLOG_MAX_RECORD_BSHIFT :
				   XLOG_BIG_RECORD_BSHIFT)) / BB;
	tail_dist = ht->tail_blk > at.after ? ht->tail_blk - at.after :
		    ht->tail_blk + (nblks - at.after);
	if (ht->tail_blk == at.after || ht->state != XLS_LOG_DIRTY)
		tail_dist = 0;
	dist = max < tail_dist ? max : tail_dist;
	if (at.after + dist <= nblks)
		return stamp_blocks(log, at.after, dist, at.after_cycle - 1, tail_lsn, h_fmt, put,
				    ctx);
	rc = stamp_blocks(log, at.after, nblks - at.after, at.after_cycle - 1, tail_lsn, h_fmt,
			  put, ctx);
	if (!rc)
		rc = stamp_blocks(log, 0, dist - (nblks - at.after), at.after_cycle, tail_lsn,
				  h_fmt, put, ctx);
	return rc;
}

int xls_log_write_unmount(const struct xls_log *log, const struct xls_head_tail *ht,
			  uint32_t h_fmt, uint32_t tid, xls_log_put_fn put, void *ctx)
{
	uint8_t rec[2 * BB];
	struct clean_at at;
	int rc;

	if (clean_at(log, ht, &at))
		return -1;
	unmount_record(log, rec, at.cycle, at.head, ht->last_rec_blk, tid, h_fmt);
	if (at.head + 1 < log->nblks)
		return put(ctx, at.head, rec, 2);
	/* the payload lands past the physical end: the next cycle's (xlog_split_iclog) */
	put_be32(rec + BB, wrapped_cycle(at.cycle));
	rc = put(ctx, at.head, rec, 1);
	return rc ? rc : put(ctx, 0, rec + BB, 1);
}
