/*
 * Sorted runs in a temporary file, merged (sortspill.h).  A run is its
 * records one after another, each its key (8 bytes, host order: the file
 * lives and dies with the process), its length (4) and its bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fullio.h"
#include "base/sortspill.h"
#include "base/vec.h"

#define HEAD_BYTES	12u
#define RUN_BUF		(64u << 10)

void xls_sortspill_init(struct xls_sortspill *s, uint32_t batch_bytes)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->batch_bytes = batch_bytes;
}

void xls_sortspill_free(struct xls_sortspill *s)
{
	uint32_t batch_bytes = s->batch_bytes;

	if (s->fd >= 0)
		close(s->fd);
	free(s->batch);
	xls_vec_free(s->ref);
	if (s->src)
		for (uint32_t i = 0; i <= XLS_SORTSPILL_RUNS; i++)
			free(s->src[i].buf);
	free(s->src);
	free(s->heap);
	xls_sortspill_init(s, batch_bytes);
}

static int fail(struct xls_sortspill *s, int error)
{
	if (!s->error)
		s->error = error ? error : EIO;
	return -s->error;
}

/* ------------------------------------------------------------------ */
/* writing a run */

/* Records going to the end of a file through a buffer. */
struct run_writer {
	int		fd;
	uint64_t	off;		/* the file's end */
	uint8_t		*buf;
	uint32_t	len;
	int		rc;		/* -errno of the first failure */
};

static void writer_flush(struct run_writer *w)
{
	if (!w->rc && w->len)
		w->rc = xls_pwrite_fully(w->fd, w->off, w->buf, w->len, NULL);
	w->off += w->len;
	w->len = 0;
}

static void writer_put(struct run_writer *w, uint64_t key, const void *rec, uint32_t len)
{
	if (w->len + HEAD_BYTES + len > RUN_BUF)
		writer_flush(w);
	memcpy(w->buf + w->len, &key, 8);
	memcpy(w->buf + w->len + 8, &len, 4);
	memcpy(w->buf + w->len + HEAD_BYTES, rec, len);
	w->len += HEAD_BYTES + len;
}

/* By key, then as added: a record's bytes lie later in the batch than an earlier one's. */
static int cmp_ref(const void *a, const void *b)
{
	const struct xls_sortspill_ref *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->off > y->off) - (x->off < y->off);
}

static int merge_runs(struct xls_sortspill *s);

/* The batch, sorted, to the end of the file as a run; the batch emptied. */
static int write_run(struct xls_sortspill *s)
{
	struct run_writer w = { .fd = s->fd, .off = s->written, .buf = malloc(RUN_BUF) };

	if (!w.buf)
		return fail(s, ENOMEM);
	if (s->fd < 0 && (w.fd = s->fd = xls_tmpfile(&s->dir)) < 0) {
		free(w.buf);
		return fail(s, errno);
	}
	qsort(s->ref, s->nref, sizeof(*s->ref), cmp_ref);
	for (uint32_t i = 0; i < s->nref; i++)
		writer_put(&w, s->ref[i].key, s->batch + s->ref[i].off, s->ref[i].len);
	writer_flush(&w);
	free(w.buf);
	if (w.rc)
		return fail(s, -w.rc);
	s->written = w.off;
	s->run_end[s->nrun++] = s->written;
	s->used = 0;
	s->nref = 0;
	return s->nrun == XLS_SORTSPILL_RUNS ? merge_runs(s) : 0;
}

int xls_sortspill_add(struct xls_sortspill *s, uint64_t key, const void *rec, uint32_t len)
{
	struct xls_sortspill_ref *r;

	if (s->error)
		return -s->error;
	if (s->reading)
		return fail(s, EINVAL);
	if (len > XLS_SORTSPILL_REC_MAX)
		return fail(s, E2BIG);
	if (s->nref && (uint64_t)s->used + len + (uint64_t)(s->nref + 1) * sizeof(*r) >
		       s->batch_bytes && write_run(s))
		return -s->error;
	if (!s->batch || s->used + len > s->cap) {
		uint32_t cap = s->cap ? s->cap : 4096;
		uint8_t *p;

		while (cap < s->used + len)
			cap *= 2;
		if (!(p = realloc(s->batch, cap)))
			return fail(s, ENOMEM);
		s->batch = p;
		s->cap = cap;
	}
	if (!(r = xls_vec_push((void **)&s->ref, &s->nref, &s->capref, sizeof(*r))))
		return fail(s, ENOMEM);
	r->key = key;
	r->off = s->used;
	r->len = len;
	memcpy(s->batch + s->used, rec, len);
	s->used += len;
	s->count++;
	return 0;
}

/* ------------------------------------------------------------------ */
/* merging */

/*
 * @want bytes of source @c from its position in its buffer, read in if
 * need be (one read does: the buffer holds the largest record): 1, 0 when
 * the run ends first, -1 on a failure (s->error).
 */
static int have_bytes(struct xls_sortspill *s, struct xls_sortspill_src *c, uint32_t want)
{
	uint32_t have = c->len - c->pos, n;
	int rc;

	if (have >= want)
		return 1;
	if (c->off >= c->end)
		return 0;
	n = c->end - c->off < RUN_BUF - have ? (uint32_t)(c->end - c->off) : RUN_BUF - have;
	memmove(c->buf, c->buf + c->pos, have);
	rc = xls_pread_fully(s->fd, c->off, c->buf + have, n, NULL);
	if (rc) {
		fail(s, -rc);
		return -1;
	}
	c->off += n;
	c->pos = 0;
	c->len = have + n;
	return c->len >= want;
}

/* The next record of run @c whole in its buffer: false at the run's end. */
static bool fill(struct xls_sortspill *s, struct xls_sortspill_src *c)
{
	uint32_t len;
	int rc = have_bytes(s, c, HEAD_BYTES);

	if (rc <= 0) {
		if (!rc && c->len > c->pos)
			fail(s, EIO);	/* a run ends in the middle of a record */
		return false;
	}
	memcpy(&len, c->buf + c->pos + 8, 4);
	if (len > XLS_SORTSPILL_REC_MAX || (rc = have_bytes(s, c, HEAD_BYTES + len)) <= 0) {
		if (!rc || len > XLS_SORTSPILL_REC_MAX)
			fail(s, EIO);
		return false;
	}
	return true;
}

/* Source @c's record at hand: its key, or done. */
static void load(struct xls_sortspill *s, struct xls_sortspill_src *c)
{
	if (c->batch) {
		c->done = c->ref >= s->nref;
		if (!c->done)
			c->key = s->ref[c->ref].key;
		return;
	}
	c->done = !fill(s, c);
	if (!c->done)
		memcpy(&c->key, c->buf + c->pos, 8);
}

/* Alike keys: the earlier source first (runs in the order written, the batch last). */
static bool before(const struct xls_sortspill *s, uint32_t a, uint32_t b)
{
	const struct xls_sortspill_src *x = &s->src[a], *y = &s->src[b];

	return x->key < y->key || (x->key == y->key && a < b);
}

static void sift_down(struct xls_sortspill *s, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, m = i, t;

		if (l < s->nheap && before(s, s->heap[l], s->heap[m]))
			m = l;
		if (l + 1 < s->nheap && before(s, s->heap[l + 1], s->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = t;
		i = m;
	}
}

/* Every run from its start, and the batch when @with_batch, merged: 0, or -errno. */
static int start_merge(struct xls_sortspill *s, bool with_batch)
{
	if (!s->src) {
		s->src = calloc(XLS_SORTSPILL_RUNS + 1, sizeof(*s->src));
		s->heap = malloc(sizeof(*s->heap) * (XLS_SORTSPILL_RUNS + 1));
		if (!s->src || !s->heap)
			return fail(s, ENOMEM);
	}
	s->nheap = 0;
	for (uint32_t i = 0; i < s->nrun + with_batch; i++) {
		struct xls_sortspill_src *c = &s->src[i];

		c->batch = i == s->nrun;
		if (!c->batch && !c->buf && !(c->buf = malloc(RUN_BUF)))
			return fail(s, ENOMEM);
		c->off = i ? s->run_end[i - 1] : 0;
		c->end = c->batch ? 0 : s->run_end[i];
		c->pos = c->len = c->ref = 0;
		load(s, c);
		if (s->error)
			return -s->error;
		if (!c->done)
			s->heap[s->nheap++] = i;
	}
	for (uint32_t i = s->nheap / 2; i-- > 0;)
		sift_down(s, i);
	return 0;
}

/* The least record of the sources, taken into s->rec; NULL at the end or on a failure. */
static const void *take(struct xls_sortspill *s, uint64_t *key, uint32_t *len)
{
	struct xls_sortspill_src *c;

	if (s->error || !s->nheap)
		return NULL;
	c = &s->src[s->heap[0]];
	*key = c->key;
	if (c->batch) {
		const struct xls_sortspill_ref *r = &s->ref[c->ref++];

		*len = r->len;
		memcpy(s->rec, s->batch + r->off, r->len);
	} else {
		memcpy(len, c->buf + c->pos + 8, 4);
		memcpy(s->rec, c->buf + c->pos + HEAD_BYTES, *len);
		c->pos += HEAD_BYTES + *len;
	}
	load(s, c);
	if (s->error)
		return NULL;
	if (c->done)
		s->heap[0] = s->heap[--s->nheap];
	sift_down(s, 0);
	return s->rec;
}

/*
 * The runs of the file merged into one, in a new file that replaces it:
 * each record is written once more every XLS_SORTSPILL_RUNS runs.
 */
static int merge_runs(struct xls_sortspill *s)
{
	struct run_writer w = { .buf = malloc(RUN_BUF) };
	uint64_t key;
	uint32_t len;

	if (!w.buf)
		return fail(s, ENOMEM);
	if ((w.fd = xls_tmpfile(&s->dir)) < 0) {
		free(w.buf);
		return fail(s, errno);
	}
	if (!start_merge(s, false)) {
		const void *rec;

		while ((rec = take(s, &key, &len)))
			writer_put(&w, key, rec, len);
	}
	writer_flush(&w);
	free(w.buf);
	if (s->error || w.rc) {
		close(w.fd);
		return fail(s, -w.rc);
	}
	close(s->fd);
	s->fd = w.fd;
	s->written = w.off;
	s->run_end[0] = w.off;
	s->nrun = 1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* reading */

int xls_sortspill_rewind(struct xls_sortspill *s)
{
	if (s->error)
		return -s->error;
	if (!s->reading) {
		if (s->nref)
			qsort(s->ref, s->nref, sizeof(*s->ref), cmp_ref);
		s->reading = true;
	}
	return start_merge(s, true);
}

bool xls_sortspill_peek(const struct xls_sortspill *s, uint64_t *key)
{
	if (s->error || !s->reading || !s->nheap)
		return false;
	*key = s->src[s->heap[0]].key;
	return true;
}

const void *xls_sortspill_next(struct xls_sortspill *s, uint64_t *key, uint32_t *len)
{
	return s->reading ? take(s, key, len) : NULL;
}
