/*
 * Log stage: the ops of a record, following xlog_recover_process_data():
 * at most h_num_logops ops, each header and each payload inside h_len,
 * client id TRANSACTION or LOG.
 */
#include "base/ondisk.h"
#include "log/ops.h"

#define OPHDR_SIZE	((uint32_t)sizeof(xlog_op_header_t))
/*
 * The payload was written by the reader thread's core: each op header is
 * a cache miss that no hardware prefetcher foresees, since the walk jumps
 * over the op data.  Asking for the payload this far ahead of the walk
 * hides that latency behind the work on the ops before.
 */
#define PREFETCH_AHEAD	2048u
#define CACHE_LINE	64u

void xls_op_iter_init(struct xls_op_iter *it, const struct xls_rec *rec)
{
	it->rec = rec;
	it->pos = 0;
	it->index = 0;
	it->fetched = 0;
	it->why = NULL;
	it->why_offset = 0;
}

static int op_stop(struct xls_op_iter *it, const char *why)
{
	it->why = why;
	it->why_offset = it->pos;
	return -1;
}

static void prefetch_ahead(struct xls_op_iter *it)
{
	uint32_t want = it->pos + PREFETCH_AHEAD;

	if (want > it->rec->h_len)
		want = it->rec->h_len;
	for (; it->fetched < want; it->fetched += CACHE_LINE)
		__builtin_prefetch(it->rec->data + it->fetched);
}

int xls_op_iter_next(struct xls_op_iter *it, struct xls_op *op)
{
	const struct xls_rec *rec = it->rec;
	const uint8_t *p;

	if (it->why || it->index >= rec->h_num_logops || it->pos >= rec->h_len)
		return 0;
	if (rec->h_len - it->pos < OPHDR_SIZE)
		return op_stop(it, "op header runs past h_len");
	prefetch_ahead(it);
	p = rec->data + it->pos;
	op->oh_tid = xls_be32(p + offsetof(xlog_op_header_t, oh_tid));
	op->oh_len = xls_be32(p + offsetof(xlog_op_header_t, oh_len));
	op->oh_clientid = p[offsetof(xlog_op_header_t, oh_clientid)];
	op->oh_flags = p[offsetof(xlog_op_header_t, oh_flags)];
	op->oh_res2 = xls_be16(p + offsetof(xlog_op_header_t, oh_res2));
	if (op->oh_clientid != XFS_TRANSACTION && op->oh_clientid != XFS_LOG)
		return op_stop(it, "op header has an unknown client id");
	if (op->oh_len > rec->h_len - it->pos - OPHDR_SIZE)
		return op_stop(it, "oh_len runs past the end of the record");
	op->index = it->index++;
	op->offset = it->pos;
	op->data = p + OPHDR_SIZE;
	it->pos += OPHDR_SIZE + op->oh_len;
	return 1;
}
