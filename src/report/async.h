/*
 * Records formatted and written on a second thread, in the order they were
 * made (report/async.c says why).  A record is a fixed-size element and up to
 * a batch's worth of extra bytes it refers to, both copied.
 */
#ifndef XLS_ASYNC_H
#define XLS_ASYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct xls_async_sink {
	void	*ctx;
	/* One record, on the writer thread: the element, the bytes after it. */
	void	(*write)(void *ctx, const void *elem, const uint8_t *bytes);
};

struct xls_async;

/*
 * Records of @elem bytes.  Unless @threaded, or if no thread can be made,
 * each is written by xls_async_end() on the caller's thread.  NULL when
 * out of memory.
 */
struct xls_async *xls_async_new(size_t elem, bool threaded, const struct xls_async_sink *sink);

/*
 * Room for one record with @extra bytes after it (*@bytes), to be filled
 * by the caller and then given with xls_async_end(); NULL if it can never
 * fit.  May wait for the writer to free a batch.
 */
void *xls_async_begin(struct xls_async *a, uint32_t extra, uint8_t **bytes);
void xls_async_end(struct xls_async *a);

/* Wait until every record given so far is written (NULL: nothing to do). */
void xls_async_drain(struct xls_async *a);

/* Drain, end the thread, free. */
void xls_async_free(struct xls_async *a);

#endif /* XLS_ASYNC_H */
