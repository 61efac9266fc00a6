/*
 * Log stage: records read ahead of the caller in a second thread, and the
 * reader scans use, which takes them from that thread or reads them itself.
 *
 * The thread runs the ordinary iterator (read, header check, CRC, cycle
 * unpack) over a ring of windows; the caller decodes each record in place
 * while the next ones are read, so on a full log both cores are busy.  The
 * records and their order are the same either way.
 */
#ifndef XLS_LOG_READAHEAD_H
#define XLS_LOG_READAHEAD_H

#include <stdbool.h>
#include "log/log.h"

struct xls_readahead;

struct xls_rec_reader {
	struct xls_rec_iter	it;	/* walked and the last gap, either way */
	struct xls_readahead	*ra;	/* NULL: records are read here */
};

/*
 * Iterate as xls_rec_iter_init() does; with @thread, in a second thread
 * when one can be started (otherwise in the caller's).  While a thread
 * runs, the log may not be used other than through @rd, and
 * xls_rec_reader_release() must end it.
 */
void xls_rec_reader_init(struct xls_rec_reader *rd, struct xls_log *log,
			 enum xls_iter_mode mode, uint32_t from, uint32_t to,
			 bool thread);

/* The same, as xls_rec_iter_init_stale() does. */
void xls_rec_reader_init_stale(struct xls_rec_reader *rd, struct xls_log *log,
			       const struct xls_head_tail *ht, bool thread);

/* As xls_rec_iter_next(); a record stays valid until the next call. */
int xls_rec_reader_next(struct xls_rec_reader *rd, struct xls_rec *rec,
			struct xls_error *err);

/* End the iteration: stops the reader thread, if any.  Always safe. */
void xls_rec_reader_release(struct xls_rec_reader *rd);

#endif /* XLS_LOG_READAHEAD_H */
