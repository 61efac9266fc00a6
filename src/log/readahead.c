/*
 * Read-ahead for the record iterator.  A second thread runs the ordinary
 * iterator (read, header check, CRC, cycle unpack) over a ring of windows
 * and queues the records it finds; the caller decodes each record in place,
 * in the window it was read into, so no payload byte is copied twice.
 *
 * A window is reused only when no record in it is queued or held by the
 * caller (a record stays valid until the caller's next call), which is
 * counted per window.  The caller never waits for a window and the reader
 * never waits for the caller while the queue is empty, so with three
 * windows or more neither can wait for the other forever.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "log/readahead.h"

#define RA_WINDOWS	4u
#define RA_QUEUE	1024u	/* records queued ahead of the caller */
/*
 * Each sleep and wake-up of a thread costs tens of microseconds (more on a
 * virtual machine), as much as decoding a few records: wake the caller
 * only for a batch of records, the reader only for half a queue.
 */
#define RA_WAKE_CALLER	32u
#define RA_WAKE_READER	(RA_QUEUE / 2)

struct ra_entry {
	int		result;		/* enum xls_iter_result, or -1 */
	int		window;		/* holding rec.data; -1: none */
	uint64_t	walked;
	uint32_t	gap_blk;
	uint32_t	gap_blks;
	const char	*gap_why;	/* a string constant */
	struct xls_rec	rec;
};

struct xls_readahead {
	struct xls_log		*log;
	struct xls_rec_iter	it;		/* the reader's own iterator */
	pthread_t		thread;
	pthread_mutex_t		lock;
	pthread_cond_t		reader_cv;	/* a window or queue slot freed */
	pthread_cond_t		caller_cv;	/* a record queued */
	uint8_t			*window[RA_WINDOWS];
	uint32_t		refs[RA_WINDOWS];	/* records queued or held */
	int			reading;	/* the reader's window */
	int			held;		/* the caller's record's window */
	struct ra_entry		queue[RA_QUEUE];
	uint32_t		q_first;
	uint32_t		q_len;
	bool			stop;		/* the caller is done */
	bool			reader_waits;
	bool			caller_waits;
	int			last;		/* END or -1 once the caller saw it */
	struct xls_error	err;		/* the reader's error */
};

/* A window with nothing queued or held in it, other than the reader's. */
static int free_window(const struct xls_readahead *ra)
{
	for (uint32_t i = 1; i < RA_WINDOWS; i++) {
		int w = (int)((ra->reading + i) % RA_WINDOWS);

		if (ra->refs[w] == 0)
			return w;
	}
	return -1;
}

/*
 * The log's window hook while the thread runs: a window of XLS_WIN_BLKS
 * blocks no queued record lies in, waiting for the caller to release one;
 * NULL when the caller stopped.
 */
static uint8_t *readahead_window(void *ctx)
{
	struct xls_readahead *ra = ctx;
	uint8_t *buf = NULL;
	int w = -1;

	pthread_mutex_lock(&ra->lock);
	/* Reading a window takes a while: hand over what is queued first. */
	if (ra->caller_waits && ra->q_len)
		pthread_cond_signal(&ra->caller_cv);
	while (!ra->stop && (w = free_window(ra)) < 0) {
		ra->reader_waits = true;
		pthread_cond_wait(&ra->reader_cv, &ra->lock);
		ra->reader_waits = false;
	}
	if (!ra->stop) {
		ra->reading = w;
		buf = ra->window[w];
	}
	pthread_mutex_unlock(&ra->lock);
	return buf;
}

/* Queue one result; false when the caller has stopped. */
static bool queue_push(struct xls_readahead *ra, const struct ra_entry *e)
{
	bool go;

	pthread_mutex_lock(&ra->lock);
	while (!ra->stop && ra->q_len == RA_QUEUE) {
		if (ra->caller_waits)
			pthread_cond_signal(&ra->caller_cv);
		ra->reader_waits = true;
		pthread_cond_wait(&ra->reader_cv, &ra->lock);
		ra->reader_waits = false;
	}
	go = !ra->stop;
	if (go) {
		ra->queue[(ra->q_first + ra->q_len) % RA_QUEUE] = *e;
		ra->q_len++;
		if (e->window >= 0)
			ra->refs[e->window]++;
		if (ra->caller_waits &&
		    (ra->q_len >= RA_WAKE_CALLER || e->result <= 0))
			pthread_cond_signal(&ra->caller_cv);
	}
	pthread_mutex_unlock(&ra->lock);
	return go;
}

static void *reader(void *arg)
{
	struct xls_readahead *ra = arg;
	struct ra_entry e;

	/* top -H and perf then tell the reading thread from the decoding one */
	pthread_setname_np(pthread_self(), "xls-reader");

	do {
		memset(&e, 0, sizeof(e));
		e.result = xls_rec_iter_next(&ra->it, &e.rec, &ra->err);
		e.window = e.result == XLS_ITER_RECORD ? ra->reading : -1;
		e.walked = ra->it.walked;
		if (e.result == XLS_ITER_GAP) {
			e.gap_blk = ra->it.gap_blk;
			e.gap_blks = ra->it.gap_blks;
			e.gap_why = ra->it.gap_why;
		}
	} while (queue_push(ra, &e) && e.result > 0);
	return NULL;
}

static void ra_free(struct xls_readahead *ra)
{
	for (uint32_t i = 0; i < RA_WINDOWS; i++)
		xls_log_window_put(ra->log, ra->window[i]);
	free(ra);
}

/* Start the reader thread on a copy of @it; NULL if it cannot run. */
static struct xls_readahead *readahead_start(struct xls_rec_iter *it)
{
	struct xls_readahead *ra = calloc(1, sizeof(*ra));

	if (!ra)
		return NULL;
	ra->log = it->log;
	for (uint32_t i = 0; i < RA_WINDOWS; i++) {
		ra->window[i] = xls_log_window_get(it->log);
		if (!ra->window[i]) {
			ra_free(ra);
			return NULL;
		}
	}
	ra->it = *it;
	ra->held = -1;
	ra->reading = 0;
	ra->last = 1;
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->reader_cv, NULL);
	pthread_cond_init(&ra->caller_cv, NULL);
	/* From here the log's window belongs to the reader. */
	it->log->window_hook = readahead_window;
	it->log->window_ctx = ra;
	it->log->win_n = 0;
	if (pthread_create(&ra->thread, NULL, reader, ra) != 0) {
		it->log->window_hook = NULL;
		it->log->window_ctx = NULL;
		pthread_cond_destroy(&ra->caller_cv);
		pthread_cond_destroy(&ra->reader_cv);
		pthread_mutex_destroy(&ra->lock);
		ra_free(ra);
		return NULL;
	}
	return ra;
}

/* The caller's side of the iteration: the next queued result. */
static int readahead_next(struct xls_readahead *ra, struct xls_rec_iter *it,
			  struct xls_rec *rec, struct xls_error *err)
{
	struct ra_entry *e;
	int result;

	if (ra->last <= 0)
		goto again;
	pthread_mutex_lock(&ra->lock);
	if (ra->held >= 0 && --ra->refs[ra->held] == 0 && ra->reader_waits)
		pthread_cond_signal(&ra->reader_cv);
	ra->held = -1;
	while (ra->q_len == 0) {
		ra->caller_waits = true;
		pthread_cond_wait(&ra->caller_cv, &ra->lock);
		ra->caller_waits = false;
	}
	e = &ra->queue[ra->q_first];
	result = e->result;
	if (result == XLS_ITER_RECORD)
		*rec = e->rec;
	it->walked = e->walked;
	if (result == XLS_ITER_GAP) {
		it->gap_blk = e->gap_blk;
		it->gap_blks = e->gap_blks;
		it->gap_why = e->gap_why;
	}
	ra->held = e->window;
	ra->q_first = (ra->q_first + 1) % RA_QUEUE;
	if (--ra->q_len == RA_WAKE_READER && ra->reader_waits)
		pthread_cond_signal(&ra->reader_cv);
	pthread_mutex_unlock(&ra->lock);
	if (result > 0)
		return result;
	ra->last = result;
again:
	/* The reader has finished: its error, if any, is complete. */
	if (ra->last < 0 && err->status == XLS_EXIT_OK)
		*err = ra->err;
	return ra->last;
}

/* Stop and join the reader; the log gets its own window back. */
static void readahead_stop(struct xls_readahead *ra)
{
	struct xls_log *log = ra->log;

	pthread_mutex_lock(&ra->lock);
	ra->stop = true;
	pthread_cond_broadcast(&ra->reader_cv);
	pthread_mutex_unlock(&ra->lock);
	pthread_join(ra->thread, NULL);
	log->window_hook = NULL;
	log->window_ctx = NULL;
	log->win = log->win_buf;
	log->win_n = 0;
	pthread_cond_destroy(&ra->caller_cv);
	pthread_cond_destroy(&ra->reader_cv);
	pthread_mutex_destroy(&ra->lock);
	ra_free(ra);
}

void xls_rec_reader_init(struct xls_rec_reader *rd, struct xls_log *log,
			 enum xls_iter_mode mode, uint32_t from, uint32_t to,
			 bool thread)
{
	xls_rec_iter_init(&rd->it, log, mode, from, to);
	rd->ra = NULL;
	/* one reader thread per log at a time: its windows are the log's */
	if (thread && !log->window_hook)
		rd->ra = readahead_start(&rd->it);
}

int xls_rec_reader_next(struct xls_rec_reader *rd, struct xls_rec *rec,
			struct xls_error *err)
{
	if (rd->ra)
		return readahead_next(rd->ra, &rd->it, rec, err);
	return xls_rec_iter_next(&rd->it, rec, err);
}

void xls_rec_reader_release(struct xls_rec_reader *rd)
{
	if (rd->ra)
		readahead_stop(rd->ra);
	rd->ra = NULL;
}
