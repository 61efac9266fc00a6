/*
 * Read-ahead for the record iterator.  A second thread runs the ordinary
 * iterator (read, header check, CRC, cycle unpack) over a ring of windows
 * and queues the records it finds; the caller decodes each record in place,
 * in the window it was read into, so no payload byte is copied twice.
 * When the caller is the faster of the two, the reader leaves the CRC and
 * the unpack to it (RA_DEFER_BELOW), so that both cores stay busy.
 *
 * A window is reused only when no record in it is queued or held by the
 * caller (a record stays valid until the caller's next call), which is
 * counted per window.  The caller never waits for a window and the reader
 * never waits for the caller while the queue is empty, so with three
 * windows or more neither can wait for the other forever.
 *
 * Both sides move records in batches of RA_BATCH, one lock each: taking
 * the lock per record made a futex wake-up of the other thread, a system
 * call, a common event; on a virtual machine it cost 8 % of lost.  The
 * caller holds the windows of its whole batch until it takes the next one,
 * and gives them back before it waits, so the reasoning above holds.
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
#define RA_BATCH	64u	/* records moved under one lock */
/*
 * The CRC and the cycle unpack go to whichever thread has time for them.
 * A short queue says the caller keeps up and waits for the reader: then
 * the reader leaves them to the caller for its next batch
 * (xls_rec_finish()).  A long one says the caller is the slower: the
 * reader does them.  Recovery's first pass, which decodes little, and
 * stats, which decodes much, both come out balanced.
 */
#define RA_DEFER_BELOW	(RA_QUEUE / 4)

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
	struct ra_entry		queue[RA_QUEUE];
	uint32_t		q_first;
	uint32_t		q_len;
	bool			stop;		/* the caller is done */
	bool			reader_waits;
	bool			caller_waits;
	int			last;		/* END or -1 once the caller saw it */
	struct xls_error	err;		/* the reader's error */
	/* the reader's side, not yet queued (no window counted for them) */
	struct ra_entry		out[RA_BATCH];
	uint32_t		nout;
	/* the caller's side: taken from the queue, windows still counted */
	struct ra_entry		in[RA_BATCH];
	uint32_t		nin, next_in;
	uint32_t		held_refs[RA_WINDOWS];
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
 * Queue the reader's batch, lock held; false when the caller has stopped.
 * The caller is woken for a batch of RA_WAKE_CALLER records or the end.
 */
static bool flush_locked(struct xls_readahead *ra)
{
	bool last = false;

	while (!ra->stop && ra->q_len + ra->nout > RA_QUEUE) {
		if (ra->caller_waits)
			pthread_cond_signal(&ra->caller_cv);
		ra->reader_waits = true;
		pthread_cond_wait(&ra->reader_cv, &ra->lock);
		ra->reader_waits = false;
	}
	if (ra->stop)
		return false;
	for (uint32_t i = 0; i < ra->nout; i++) {
		const struct ra_entry *e = &ra->out[i];

		ra->queue[(ra->q_first + ra->q_len) % RA_QUEUE] = *e;
		ra->q_len++;
		if (e->window >= 0)
			ra->refs[e->window]++;
		last |= e->result <= 0;
	}
	ra->nout = 0;
	ra->it.defer_check = ra->q_len < RA_DEFER_BELOW;
	if (ra->caller_waits && (ra->q_len >= RA_WAKE_CALLER || last))
		pthread_cond_signal(&ra->caller_cv);
	return true;
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
	/* the batch lies in the window about to be left: count it first */
	if (!flush_locked(ra)) {
		pthread_mutex_unlock(&ra->lock);
		return NULL;
	}
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

/* Add one result to the batch, queued when full or at the end; false
 * when the caller has stopped. */
static bool queue_push(struct xls_readahead *ra, const struct ra_entry *e)
{
	bool go = true;

	ra->out[ra->nout++] = *e;
	if (ra->nout == RA_BATCH || e->result <= 0) {
		pthread_mutex_lock(&ra->lock);
		go = flush_locked(ra);
		pthread_mutex_unlock(&ra->lock);
	}
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

/*
 * Give back the windows of the caller's batch and take the next batch,
 * waiting for one when the queue is empty.
 */
static void take_batch(struct xls_readahead *ra)
{
	bool freed = false;

	pthread_mutex_lock(&ra->lock);
	for (uint32_t w = 0; w < RA_WINDOWS; w++) {
		if (!ra->held_refs[w])
			continue;
		ra->refs[w] -= ra->held_refs[w];
		ra->held_refs[w] = 0;
		freed |= ra->refs[w] == 0;
	}
	if (freed && ra->reader_waits)
		pthread_cond_signal(&ra->reader_cv);
	while (ra->q_len == 0) {
		ra->caller_waits = true;
		pthread_cond_wait(&ra->caller_cv, &ra->lock);
		ra->caller_waits = false;
	}
	ra->nin = ra->q_len < RA_BATCH ? ra->q_len : RA_BATCH;
	ra->next_in = 0;
	for (uint32_t i = 0; i < ra->nin; i++) {
		ra->in[i] = ra->queue[ra->q_first];
		if (ra->in[i].window >= 0)
			ra->held_refs[ra->in[i].window]++;
		ra->q_first = (ra->q_first + 1) % RA_QUEUE;
		/* half the queue free: worth the reader's wake-up */
		if (--ra->q_len == RA_WAKE_READER && ra->reader_waits)
			pthread_cond_signal(&ra->reader_cv);
	}
	pthread_mutex_unlock(&ra->lock);
}

/* The caller's side of the iteration: the next queued result. */
static int readahead_next(struct xls_readahead *ra, struct xls_rec_iter *it,
			  struct xls_rec *rec, struct xls_error *err)
{
	struct ra_entry *e;
	int result;

	if (ra->last <= 0)
		goto again;
	if (ra->next_in == ra->nin)
		take_batch(ra);
	e = &ra->in[ra->next_in++];
	result = e->result;
	if (result == XLS_ITER_RECORD) {
		*rec = e->rec;
		xls_rec_finish(ra->log, rec);
	}
	it->walked = e->walked;
	if (result == XLS_ITER_GAP) {
		it->gap_blk = e->gap_blk;
		it->gap_blks = e->gap_blks;
		it->gap_why = e->gap_why;
	}
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

static void reader_start(struct xls_rec_reader *rd, struct xls_log *log, bool thread)
{
	rd->ra = NULL;
	/* one reader thread per log at a time: its windows are the log's */
	if (thread && !log->window_hook)
		rd->ra = readahead_start(&rd->it);
}

void xls_rec_reader_init(struct xls_rec_reader *rd, struct xls_log *log,
			 enum xls_iter_mode mode, uint32_t from, uint32_t to,
			 bool thread)
{
	xls_rec_iter_init(&rd->it, log, mode, from, to);
	reader_start(rd, log, thread);
}

void xls_rec_reader_init_stale(struct xls_rec_reader *rd, struct xls_log *log,
			       const struct xls_head_tail *ht, bool thread)
{
	xls_rec_iter_init_stale(&rd->it, log, ht);
	reader_start(rd, log, thread);
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
