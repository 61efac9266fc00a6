/*
 * A command's records formatted and written on a thread of their own.
 *
 * files prints a million events for a 1 GiB log, and describing and
 * formatting them was a quarter of its decoding thread, the one that sets
 * its time, while the read-ahead thread idles through most of recovery's
 * second pass.  So the decoding thread copies each record (an event and
 * the bytes it points to) into a batch and goes on, and the writer thread
 * turns batches into output in the order they were filled.
 *
 * Batches are used in turn, batch k in slot k % ASYNC_BATCHES: the filler
 * takes slot k once the writer has finished batch k - ASYNC_BATCHES, and
 * the writer takes batch k once it is handed over.  Both counters move
 * under the lock, which orders the batch's bytes between the two threads.
 * Anything else written to the same output (a finding, the summary) must
 * wait for xls_async_drain() first.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "report/async.h"

#define ASYNC_BATCHES		4u
#define ASYNC_BATCH_BYTES	(256u << 10)
/*
 * A sleeping writer is woken once half the batches wait for it, not for
 * each: a wake-up is a system call on each side (futex), tens of
 * microseconds on a virtual machine, and files hands over ~800 batches
 * for real1g.
 */
#define ASYNC_WAKE_WRITER	(ASYNC_BATCHES / 2)
#define ASYNC_ALIGN		8u

/* Each record in a batch: this header, the element, its extra bytes. */
struct rec_head {
	uint64_t	size;		/* of the whole record, aligned */
};

struct xls_async {
	struct xls_async_sink	sink;
	size_t			elem;
	bool			threaded;
	pthread_t		thread;
	pthread_mutex_t		lock;
	pthread_cond_t		writer_cv;	/* a batch handed over, or stop */
	pthread_cond_t		filler_cv;	/* a batch written */
	uint8_t			*buf[ASYNC_BATCHES];
	uint32_t		used[ASYNC_BATCHES];
	uint64_t		handed;		/* batches handed over */
	uint64_t		written;	/* batches the writer has finished */
	bool			stop;
	bool			filling;	/* slot handed % ASYNC_BATCHES is ours */
};

static uint32_t rec_size(const struct xls_async *a, uint32_t extra)
{
	size_t n = sizeof(struct rec_head) + a->elem + extra;

	return (uint32_t)((n + ASYNC_ALIGN - 1) & ~(size_t)(ASYNC_ALIGN - 1));
}

static void write_batch(struct xls_async *a, const uint8_t *p, uint32_t used)
{
	for (uint32_t off = 0; off < used;) {
		const struct rec_head *h = (const struct rec_head *)(p + off);
		const uint8_t *elem = p + off + sizeof(*h);

		a->sink.write(a->sink.ctx, elem, elem + a->elem);
		off += (uint32_t)h->size;
	}
}

static void *writer(void *arg)
{
	struct xls_async *a = arg;

	pthread_mutex_lock(&a->lock);
	for (;;) {
		uint32_t slot;

		while (a->written == a->handed && !a->stop)
			pthread_cond_wait(&a->writer_cv, &a->lock);
		if (a->written == a->handed)
			break;
		slot = (uint32_t)(a->written % ASYNC_BATCHES);
		pthread_mutex_unlock(&a->lock);
		write_batch(a, a->buf[slot], a->used[slot]);
		pthread_mutex_lock(&a->lock);
		a->written++;
		pthread_cond_signal(&a->filler_cv);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

struct xls_async *xls_async_new(size_t elem, bool threaded, const struct xls_async_sink *sink)
{
	struct xls_async *a = calloc(1, sizeof(*a));
	uint32_t nbuf = threaded ? ASYNC_BATCHES : 1;

	if (!a)
		return NULL;
	a->sink = *sink;
	a->elem = elem;
	for (uint32_t i = 0; i < nbuf; i++) {
		a->buf[i] = malloc(ASYNC_BATCH_BYTES);
		if (!a->buf[i]) {
			xls_async_free(a);
			return NULL;
		}
	}
	if (!threaded)
		return a;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->writer_cv, NULL);
	pthread_cond_init(&a->filler_cv, NULL);
	a->threaded = pthread_create(&a->thread, NULL, writer, a) == 0;
	if (a->threaded) {
		pthread_setname_np(a->thread, "xls-writer");
		return a;
	}
	/* no thread: written inline, from the first batch alone */
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->writer_cv);
	pthread_cond_destroy(&a->filler_cv);
	for (uint32_t i = 1; i < ASYNC_BATCHES; i++) {
		free(a->buf[i]);
		a->buf[i] = NULL;
	}
	return a;
}

/* Hand the batch being filled to the writer; @now: wake it whatever waits. */
static void hand_over(struct xls_async *a, bool now)
{
	pthread_mutex_lock(&a->lock);
	if (a->filling) {
		a->handed++;
		a->filling = false;
	}
	if (now || a->handed - a->written >= ASYNC_WAKE_WRITER)
		pthread_cond_signal(&a->writer_cv);
	pthread_mutex_unlock(&a->lock);
}

/* The slot being filled (0 without a thread): the batch the records go to. */
static uint32_t filling_slot(const struct xls_async *a)
{
	return a->threaded ? (uint32_t)(a->handed % ASYNC_BATCHES) : 0;
}

/* Start filling the next slot, once the writer is done with it. */
static void take_slot(struct xls_async *a)
{
	pthread_mutex_lock(&a->lock);
	while (a->handed - a->written >= ASYNC_BATCHES)
		pthread_cond_wait(&a->filler_cv, &a->lock);
	pthread_mutex_unlock(&a->lock);
	a->used[filling_slot(a)] = 0;
	a->filling = true;
}

void *xls_async_begin(struct xls_async *a, uint32_t extra, uint8_t **bytes)
{
	uint32_t size = rec_size(a, extra);
	uint8_t *p;

	if (size > ASYNC_BATCH_BYTES)
		return NULL;
	if (a->threaded) {
		if (a->filling && a->used[filling_slot(a)] + size > ASYNC_BATCH_BYTES)
			hand_over(a, false);
		if (!a->filling)
			take_slot(a);
	}
	p = a->buf[filling_slot(a)] + a->used[filling_slot(a)];
	((struct rec_head *)p)->size = size;
	*bytes = p + sizeof(struct rec_head) + a->elem;
	return p + sizeof(struct rec_head);
}

void xls_async_end(struct xls_async *a)
{
	uint32_t slot = filling_slot(a);
	const struct rec_head *h = (const struct rec_head *)(a->buf[slot] + a->used[slot]);

	a->used[slot] += (uint32_t)h->size;
	if (!a->threaded) {
		write_batch(a, a->buf[0], a->used[0]);
		a->used[0] = 0;
	}
}

void xls_async_drain(struct xls_async *a)
{
	if (!a || !a->threaded)
		return;
	hand_over(a, true);
	pthread_mutex_lock(&a->lock);
	while (a->written != a->handed)
		pthread_cond_wait(&a->filler_cv, &a->lock);
	pthread_mutex_unlock(&a->lock);
}

void xls_async_free(struct xls_async *a)
{
	if (!a)
		return;
	if (a->threaded) {
		xls_async_drain(a);
		pthread_mutex_lock(&a->lock);
		a->stop = true;
		pthread_cond_signal(&a->writer_cv);
		pthread_mutex_unlock(&a->lock);
		pthread_join(a->thread, NULL);
		pthread_mutex_destroy(&a->lock);
		pthread_cond_destroy(&a->writer_cv);
		pthread_cond_destroy(&a->filler_cv);
	}
	for (uint32_t i = 0; i < ASYNC_BATCHES; i++)
		free(a->buf[i]);
	free(a);
}
