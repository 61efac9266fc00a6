/*
 * Log stage internals: the read-ahead thread behind
 * xls_rec_iter_read_ahead() (log_readahead.c) and the hook log.c calls
 * for a window to read into while that thread owns the log.
 */
#ifndef XLS_LOG_READAHEAD_H
#define XLS_LOG_READAHEAD_H

#include "log/log.h"

/* Start the reader thread on a copy of @it; 0, or -1 if it cannot run. */
int xls_readahead_start(struct xls_rec_iter *it);

/* The caller's side of xls_rec_iter_next(). */
int xls_readahead_next(struct xls_readahead *ra, struct xls_rec_iter *it,
		       struct xls_rec *rec, struct xls_error *err);

/* Stop and join the reader; the log gets its own window back. */
void xls_readahead_stop(struct xls_readahead *ra);

/*
 * For the reader: a window of XLS_WIN_BLKS blocks no queued record lies
 * in, waiting for the caller to release one; NULL when the caller stopped.
 */
uint8_t *xls_readahead_window(struct xls_readahead *ra);

/* A window buffer of XLS_WIN_BLKS blocks (free()); NULL if out of memory. */
uint8_t *xls_log_window_alloc(void);

#endif /* XLS_LOG_READAHEAD_H */
