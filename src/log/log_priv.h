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

#endif /* XLS_LOG_PRIV_H */
