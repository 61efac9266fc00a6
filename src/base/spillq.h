/*
 * A first-in first-out queue of records in an unlinked temporary file
 * (base/fullio.h's xls_tmpfile), for what must wait in order without
 * waiting in memory: records go out through a 1 MiB buffer and come back
 * through another, so memory stays at those 2 MiB whatever the queue
 * holds.  The file is made at the first push, and emptied each time the
 * queue is.
 */
#ifndef XLS_SPILLQ_H
#define XLS_SPILLQ_H

#include <stdbool.h>
#include <stdint.h>

/* The largest record. */
#define XLS_SPILLQ_REC_MAX	(64u << 10)

struct xls_spillq {
	int		fd;		/* -1 until the first push */
	const char	*dir;		/* where it is, for messages */
	int		error;		/* errno of the first failure; 0 none */
	uint64_t	written;	/* bytes in the file */
	uint64_t	read;		/* of them taken into rbuf */
	uint64_t	bytes;		/* of records waiting, with their lengths */
	uint8_t		*wbuf, *rbuf;
	uint32_t	wlen;		/* after the file's bytes */
	uint32_t	rpos, rlen;	/* the next record in rbuf, its end */
};

/* An empty queue: no file, no buffer yet. */
void xls_spillq_init(struct xls_spillq *q);
void xls_spillq_free(struct xls_spillq *q);

/* Append @len bytes (at most XLS_SPILLQ_REC_MAX): 0, or -errno (q->error). */
int xls_spillq_push(struct xls_spillq *q, const void *rec, uint32_t len);

/*
 * The oldest record, taken off the queue, valid until the next call,
 * aligned to 8 bytes; its length in *@len.  NULL when the queue is empty
 * or failed (q->error).
 */
const void *xls_spillq_pop(struct xls_spillq *q, uint32_t *len);

static inline bool xls_spillq_empty(const struct xls_spillq *q)
{
	return q->bytes == 0;
}

#endif /* XLS_SPILLQ_H */
