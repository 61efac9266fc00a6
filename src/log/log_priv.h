/*
 * Private to the log stage: reading blocks of the log and looking at
 * record headers, shared by record.c (records and their iteration) and
 * headtail.c (the search for head and tail).
 */
#ifndef XLS_LOG_PRIV_H
#define XLS_LOG_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include "base/ondisk.h"
#include "log/log.h"

#define BB			512u
#define HDR_FIELD(h, f)		((h) + offsetof(xlog_rec_header_t, f))

/*
 * Read @n blocks from physical block @blk, wrapping at the end of the log.
 * Returns 0 or -errno.
 */
int xls_log_read_phys(const struct xls_log *log, uint32_t blk, uint32_t n,
		      uint8_t *buf);

/* Set @err for a failed read of block @blk (@rc: -errno); returns -1. */
int xls_log_read_error(const struct xls_log *log, uint32_t blk, int rc,
		       struct xls_error *err);

/* Header blocks of a record, extended headers included. */
uint32_t xls_log_rec_hblks(bool logv2, uint32_t h_version, uint32_t h_size);

static inline bool xls_log_is_header(const uint8_t *b)
{
	return xls_be32(b) == XLOG_HEADER_MAGIC_NUM;
}

/* The cycle a block was written in (xlog_get_cycle). */
static inline uint32_t xls_log_block_cycle(const uint8_t *b)
{
	if (xls_be32(b) == XLOG_HEADER_MAGIC_NUM)
		return xls_be32(b + 4);
	return xls_be32(b);
}

/* ------------------------------------------------------------------ */
/* format.c: records as the kernel writes them */

/* A record's shape: iclog size, header blocks, whole length, h_len. */
struct xls_rec_shape {
	uint32_t	h_size;		/* the iclog size */
	uint32_t	hblks;		/* header blocks */
	uint32_t	blks;		/* the whole record */
	uint32_t	h_len;
};

/* Where a record goes, and what its header says beside its payload. */
struct xls_rec_at {
	uint32_t	cycle, blk, prev_blk;
	uint64_t	tail_lsn;
	uint32_t	h_fmt;
};

/* The cycle after @cycle, as the log's blocks carry it (never the header magic). */
uint32_t xls_log_next_cycle(uint32_t cycle);

/* The fields every record header of this log carries (xlog_add_record), in @hdr's block. */
void xls_log_header_common(const struct xls_log *log, uint8_t *hdr, uint32_t cycle,
			   uint32_t blk, uint64_t tail_lsn, uint32_t h_fmt);

/* The shape of a record of @payload bytes on @log: 0, or -1 for a stripe unit it cannot have. */
int xls_log_rec_shape(const struct xls_log *log, uint32_t payload, struct xls_rec_shape *s);

/*
 * Record @rec (@s->blks blocks, its payload in place after the header
 * blocks) finished at @at with @nops ops: its headers, its blocks
 * cycle-stamped, those past the physical end of the log with the next
 * cycle (xlog_split_iclog), and its CRC as xlog_sync computes it after
 * the split, over what is written.
 */
void xls_log_rec_finish(const struct xls_log *log, uint8_t *rec, const struct xls_rec_shape *s,
			const struct xls_rec_at *at, uint32_t nops);

/* @blks blocks of @rec at @blk through @put, in two writes where they pass the end. */
int xls_log_put_rec(const struct xls_log *log, uint32_t blk, const uint8_t *rec, uint32_t blks,
		    xls_log_put_fn put, void *ctx);

#endif /* XLS_LOG_PRIV_H */
