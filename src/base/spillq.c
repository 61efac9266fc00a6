/*
 * A first-in first-out queue of records in a temporary file (spillq.h).
 * Each record is its length (8 bytes, host order: the file lives and dies
 * with the process) and its bytes, padded to 8 bytes, so that a record
 * read back lies as aligned as a struct it holds needs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fullio.h"
#include "base/spillq.h"

#define BUF_BYTES	(1u << 20)
#define LEN_BYTES	8u

/* What a record of @len bytes takes in the queue. */
static uint32_t stored(uint32_t len)
{
	return LEN_BYTES + ((len + 7u) & ~7u);
}

void xls_spillq_init(struct xls_spillq *q)
{
	memset(q, 0, sizeof(*q));
	q->fd = -1;
}

void xls_spillq_free(struct xls_spillq *q)
{
	if (q->fd >= 0)
		close(q->fd);
	free(q->wbuf);
	free(q->rbuf);
	xls_spillq_init(q);
}

static int fail(struct xls_spillq *q, int error)
{
	if (!q->error)
		q->error = error ? error : EIO;
	return -q->error;
}

/* The write buffer's bytes to the end of the file. */
static int flush(struct xls_spillq *q)
{
	int rc;

	if (!q->wlen)
		return 0;
	rc = xls_pwrite_fully(q->fd, q->written, q->wbuf, q->wlen, NULL);
	if (rc)
		return fail(q, -rc);
	q->written += q->wlen;
	q->wlen = 0;
	return 0;
}

int xls_spillq_push(struct xls_spillq *q, const void *rec, uint32_t len)
{
	uint64_t head = len;
	uint32_t need;

	if (q->error)
		return -q->error;
	if (len > XLS_SPILLQ_REC_MAX)
		return fail(q, E2BIG);
	need = stored(len);
	if (q->fd < 0) {
		q->wbuf = q->wbuf ? q->wbuf : malloc(BUF_BYTES);
		q->rbuf = q->rbuf ? q->rbuf : malloc(BUF_BYTES);
		if (!q->wbuf || !q->rbuf)
			return fail(q, ENOMEM);
		q->fd = xls_tmpfile(&q->dir);
		if (q->fd < 0)
			return fail(q, errno);
	}
	if (q->wlen + need > BUF_BYTES && flush(q))
		return -q->error;
	memcpy(q->wbuf + q->wlen, &head, LEN_BYTES);
	memcpy(q->wbuf + q->wlen + LEN_BYTES, rec, len);
	memset(q->wbuf + q->wlen + LEN_BYTES + len, 0, need - LEN_BYTES - len);
	q->wlen += need;
	q->bytes += need;
	return 0;
}

/*
 * More of the file into rbuf, after what is left of it; the write
 * buffer goes to the file first when the file has nothing more.
 */
static int refill(struct xls_spillq *q)
{
	uint32_t left = q->rlen - q->rpos;
	uint64_t avail;
	size_t take;
	int rc;

	memmove(q->rbuf, q->rbuf + q->rpos, left);
	q->rpos = 0;
	q->rlen = left;
	if (q->read == q->written && flush(q))
		return -q->error;
	avail = q->written - q->read;
	take = avail < BUF_BYTES - left ? (size_t)avail : BUF_BYTES - left;
	rc = xls_pread_fully(q->fd, q->read, q->rbuf + left, take, NULL);
	if (rc)
		return fail(q, -rc);
	q->read += take;
	q->rlen += (uint32_t)take;
	return 0;
}

const void *xls_spillq_pop(struct xls_spillq *q, uint32_t *len)
{
	const uint8_t *rec;
	uint64_t head;
	uint32_t n;

	if (q->error || !q->bytes)
		return NULL;
	if (q->rlen - q->rpos < LEN_BYTES && refill(q))
		return NULL;
	memcpy(&head, q->rbuf + q->rpos, LEN_BYTES);
	if (head > XLS_SPILLQ_REC_MAX) {
		fail(q, EIO);
		return NULL;
	}
	n = (uint32_t)head;
	if (q->rlen - q->rpos < stored(n) && refill(q))
		return NULL;
	if (q->rlen - q->rpos < stored(n)) {
		fail(q, EIO);	/* the file ended inside a record */
		return NULL;
	}
	rec = q->rbuf + q->rpos + LEN_BYTES;
	q->rpos += stored(n);
	q->bytes -= stored(n);
	*len = n;
	if (!q->bytes) {
		/* empty: the file starts again, and holds nothing meanwhile */
		q->written = q->read = 0;
		q->rlen = q->rpos = 0;
		if (ftruncate(q->fd, 0))
			fail(q, errno);
	}
	return rec;
}
