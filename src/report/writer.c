/*
 * A command's output formatted on the writer thread (report/async.c).
 *
 * recover prints a row per item, 187 MB of text (463 MB of JSON) for a
 * 1 GiB log, and formatting it was half of the decoding thread's time,
 * the thread that sets recover's, while the read-ahead thread idled
 * through pass 2.  So the decoding thread describes each record into a
 * field set and hands the set over, packed (xls_fields_pack): the writer
 * unpacks and formats it.  What else the decoding thread writes (headings,
 * notes, a set with a list, which does not pack) it formats itself, into
 * an xls_out whose bytes join the same queue: everything comes out in the
 * order it was made, and neither thread waits for the other.
 *
 * trans and bufs, whose reading and decoding threads are both busy on two
 * CPUs, came out 30 % slower with it (bench/run on two cores): it is for
 * a command whose second thread has time to spare.
 */
#include <stdlib.h>
#include <string.h>

#include "report/async.h"
#include "report/writer.h"

/* The largest piece of formatted bytes handed over at once. */
#define BYTES_PIECE	(64u << 10)

struct xls_writer {
	struct xls_async	*async;
	struct xls_out		*out;		/* the command's, the writer's to write */
	struct xls_fieldset	fs;		/* the writer thread's */
	struct xls_out		ahead;		/* the decoding thread's, a sink to the queue */
};

/*
 * A queued record: a field set and what formats it, or bytes.  16 bytes,
 * so that what follows it in the batch is aligned for the set's fields.
 */
struct queued {
	xls_put_fn	fn;		/* NULL: @n bytes of output */
	uint32_t	arg_len;	/* @fn's argument first, padded to 8 bytes */
	uint32_t	n;		/* then the set's fields */
};

static uint32_t pad8(uint32_t n)
{
	return (n + 7u) & ~7u;
}

static void write_queued(void *ctx, const void *elem, const uint8_t *bytes)
{
	struct xls_writer *w = ctx;
	const struct queued *q = elem;

	if (!q->fn) {
		xls_out_lines(w->out, (const char *)bytes, q->n);
		return;
	}
	xls_fields_unpack(&w->fs, q->n, bytes + pad8(q->arg_len));
	q->fn(w->out, bytes, &w->fs);
}

/* The decoding thread's bytes, queued in pieces the batches hold. */
static void queue_bytes(void *ctx, const char *p, size_t n)
{
	struct xls_writer *w = ctx;

	while (n) {
		uint32_t piece = n < BYTES_PIECE ? (uint32_t)n : BYTES_PIECE;
		struct queued *q;
		uint8_t *dst;

		q = xls_async_begin(w->async, piece, &dst);
		if (!q)		/* never: a piece fits a batch */
			return;
		q->fn = NULL;
		q->arg_len = 0;
		q->n = piece;
		memcpy(dst, p, piece);
		xls_async_end(w->async);
		p += piece;
		n -= piece;
	}
}

struct xls_writer *xls_writer_new(struct xls_out *out)
{
	struct xls_async_sink sink = { .write = write_queued };
	struct xls_writer *w = malloc(sizeof(*w));

	if (!w)
		return NULL;
	sink.ctx = w;
	w->out = out;
	w->async = xls_async_new(sizeof(struct queued), true, &sink);
	if (!w->async) {
		free(w);
		return NULL;
	}
	xls_out_init_sink(&w->ahead, out->fmt,
			  &(struct xls_out_sink){ .ctx = w, .bytes = queue_bytes });
	return w;
}

void xls_writer_free(struct xls_writer *w)
{
	if (!w)
		return;
	xls_out_flush(&w->ahead);
	xls_async_free(w->async);
	free(w);
}

struct xls_out *xls_writer_out(struct xls_writer *w)
{
	return &w->ahead;
}

void xls_writer_put(struct xls_writer *w, xls_put_fn fn, const void *arg, uint32_t arg_len,
		    const struct xls_fieldset *fs)
{
	size_t packed = xls_fields_packed_size(fs);
	struct queued *q;
	uint8_t *dst;

	if (!packed || packed > UINT32_MAX - 8 - pad8(arg_len)) {
		fn(&w->ahead, arg, fs);
		return;
	}
	/* what was formatted before it comes out before it */
	xls_out_flush(&w->ahead);
	q = xls_async_begin(w->async, pad8(arg_len) + (uint32_t)packed, &dst);
	if (!q) {
		fn(&w->ahead, arg, fs);
		return;
	}
	q->fn = fn;
	q->arg_len = arg_len;
	q->n = fs->n;
	if (arg_len)
		memcpy(dst, arg, arg_len);
	xls_fields_pack(fs, dst + pad8(arg_len));
	xls_async_end(w->async);
}
