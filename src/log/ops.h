/*
 * Log stage: the op headers (struct xlog_op_header, big-endian) of one log
 * record, each bounds-checked against the record payload.
 */
#ifndef XLS_OPS_H
#define XLS_OPS_H

#include <stdint.h>
#include "log/log.h"

struct xls_op {
	uint32_t	oh_tid;
	uint32_t	oh_len;
	uint8_t		oh_clientid;
	uint8_t		oh_flags;
	uint16_t	oh_res2;
	uint32_t	index;		/* position in the record, from 0 */
	uint32_t	offset;		/* of the op header in the payload */
	const uint8_t	*data;		/* oh_len bytes, inside the record */
};

struct xls_op_iter {
	const struct xls_rec	*rec;
	uint32_t		pos;		/* payload offset of the next op */
	uint32_t		index;
	uint32_t		fetched;	/* payload prefetched up to here */
	const char		*why;		/* set when the walk stopped early */
	uint32_t		why_offset;
};

void xls_op_iter_init(struct xls_op_iter *it, const struct xls_rec *rec);

/*
 * Next op: 1 with *@op filled, 0 at the end of the record, -1 when the
 * next op is malformed (it->why and it->why_offset say what and where;
 * the rest of the record cannot be trusted and is not walked).
 */
int xls_op_iter_next(struct xls_op_iter *it, struct xls_op *op);

/* What the op walk of one record found, for per-record reports. */
struct xls_rec_summary {
	uint32_t	ops;		/* ops walked */
	uint32_t	op_header_bytes;
	uint32_t	op_data_bytes;
	uint32_t	unused_bytes;	/* h_len not covered by ops */
	const char	*op_problem;	/* NULL, or why the walk stopped */
};

/* Bytes of the payload after the last op walked: unused record space. */
static inline uint32_t xls_op_iter_unused(const struct xls_op_iter *it)
{
	return it->rec->h_len - it->pos;
}

#endif /* XLS_OPS_H */
