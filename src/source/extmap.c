/*
 * Source stage: devices read through an index of extents.
 *
 * Reads go out as preadv: the pieces of one request that lie close
 * together in the file -- a v1 metadump stores 63 sectors between index
 * blocks -- are gathered into one call, the few bytes between them
 * landing in a scratch buffer, so that a 4 MiB window of a metadump's log
 * costs one system call, as on an image.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>

#include "source/extmap.h"

#define SCRATCH_BYTES	4096u	/* the largest gap in the file a read skips over */
#define IOV_BATCH	512

bool xls_all_zero(const uint8_t *p, size_t len)
{
	uint64_t acc = 0;
	size_t i = 0;

	for (; i + 32 <= len; i += 32) {
		uint64_t w[4];

		memcpy(w, p + i, sizeof(w));
		acc |= w[0] | w[1] | w[2] | w[3];
		if (acc)
			return false;
	}
	for (; i < len; i++)
		acc |= p[i];
	return acc == 0;
}

/* ------------------------------------------------------------------ */
/* building the index */

static struct xls_extent *grow(struct xls_extent **v, size_t *cap, size_t n)
{
	if (n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		struct xls_extent *nv;

		if (ncap > SIZE_MAX / sizeof(*nv))
			return NULL;
		nv = realloc(*v, ncap * sizeof(*nv));
		if (!nv)
			return NULL;
		*v = nv;
		*cap = ncap;
	}
	return &(*v)[n];
}

static bool follows(const struct xls_extent *a, uint64_t off, uint64_t foff)
{
	if (off != a->off + a->len)
		return false;
	if (a->foff == XLS_EXTENT_ZEROS || foff == XLS_EXTENT_ZEROS)
		return a->foff == foff;
	return foff == a->foff + a->len;
}

int xls_extmap_add(struct xls_extmap *m, uint64_t off, uint64_t len, uint64_t foff)
{
	struct xls_extent *x;

	if (!len)
		return 0;
	/* the protected extents stay apart: they alone win over later copies */
	if (m->n > m->nprotect && follows(&m->e[m->n - 1], off, foff)) {
		m->e[m->n - 1].len += len;
		return 0;
	}
	x = grow(&m->e, &m->cap, m->n);
	if (!x)
		return -ENOMEM;
	x->off = off;
	x->len = len;
	x->foff = foff;
	x->seq = m->nseq++;
	m->n++;
	return 0;
}

static int cmp_extent(const void *a, const void *b)
{
	const struct xls_extent *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint64_t ext_end(const struct xls_extent *x)
{
	return x->off + x->len;
}

/* ------------------------------------------------------------------ */
/* overlaps: a sweep over the extents' ends, the latest copy on top */

struct sweep {
	const struct xls_extent	*e;
	size_t			*heap;	/* indices into e, the highest seq first */
	size_t			nheap;
	struct xls_extent	*out;
	size_t			nout, capout;
};

static void heap_push(struct sweep *s, size_t i)
{
	size_t k = s->nheap++;

	s->heap[k] = i;
	while (k) {
		size_t up = (k - 1) / 2;

		if (s->e[s->heap[up]].seq >= s->e[s->heap[k]].seq)
			break;
		s->heap[k] = s->heap[up];
		s->heap[up] = i;
		k = up;
	}
}

static void heap_pop(struct sweep *s)
{
	size_t k = 0, last = s->heap[--s->nheap];

	for (;;) {
		size_t c = 2 * k + 1;

		if (c >= s->nheap)
			break;
		if (c + 1 < s->nheap && s->e[s->heap[c + 1]].seq > s->e[s->heap[c]].seq)
			c++;
		if (s->e[s->heap[c]].seq <= s->e[last].seq)
			break;
		s->heap[k] = s->heap[c];
		k = c;
	}
	if (s->nheap)
		s->heap[k] = last;
}

/* [from, to) comes from extent @i. */
static int emit(struct sweep *s, uint64_t from, uint64_t to, size_t i)
{
	const struct xls_extent *src = &s->e[i];
	uint64_t foff = src->foff == XLS_EXTENT_ZEROS ? XLS_EXTENT_ZEROS :
			src->foff + (from - src->off);
	struct xls_extent *x;

	if (s->nout && s->out[s->nout - 1].seq == src->seq &&
	    follows(&s->out[s->nout - 1], from, foff)) {
		s->out[s->nout - 1].len += to - from;
		return 0;
	}
	x = grow(&s->out, &s->capout, s->nout);
	if (!x)
		return -ENOMEM;
	*x = (struct xls_extent){ from, to - from, foff, src->seq };
	s->nout++;
	return 0;
}

static int cmp_end(const void *a, const void *b, void *ctx)
{
	const struct xls_extent *e = ctx;
	uint64_t x = ext_end(&e[*(const size_t *)a]), y = ext_end(&e[*(const size_t *)b]);

	return x < y ? -1 : x > y;
}

static int resolve_overlaps(struct xls_extmap *m)
{
	struct sweep s = { .e = m->e };
	size_t *ends = malloc(m->n * sizeof(*ends));
	size_t ps = 0, pe = 0, active = 0;
	uint64_t at = 0;
	int rc = 0;

	s.heap = malloc(m->n * sizeof(*s.heap));
	if (!ends || !s.heap) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < m->n; i++)
		ends[i] = i;
	qsort_r(ends, m->n, sizeof(*ends), cmp_end, m->e);
	while (pe < m->n) {
		uint64_t b = ext_end(&m->e[ends[pe]]);

		if (ps < m->n && m->e[ps].off < b)
			b = m->e[ps].off;
		while (s.nheap && ext_end(&m->e[s.heap[0]]) <= at)
			heap_pop(&s);
		if (b > at && s.nheap) {
			if (active > 1)
				m->overlap_bytes += b - at;
			rc = emit(&s, at, b, s.heap[0]);
			if (rc)
				goto out;
		}
		at = b;
		for (; pe < m->n && ext_end(&m->e[ends[pe]]) == b; pe++)
			active--;
		for (; ps < m->n && m->e[ps].off == b; ps++, active++)
			heap_push(&s, ps);
	}
	free(m->e);
	m->e = s.out;
	m->n = s.nout;
	m->cap = s.capout;
	s.out = NULL;
out:
	free(s.out);
	free(s.heap);
	free(ends);
	return rc;
}

void xls_extmap_protect(struct xls_extmap *m)
{
	m->nprotect = m->n;
}

int xls_extmap_finish(struct xls_extmap *m)
{
	bool overlaps = false;

	for (size_t i = 0; i < m->nprotect; i++)
		m->e[i].seq = UINT64_MAX;
	if (m->n < 2)
		return 0;	/* nothing to sort (and qsort of NULL is undefined) */
	qsort(m->e, m->n, sizeof(*m->e), cmp_extent);
	for (size_t i = 1; i < m->n && !overlaps; i++)
		overlaps = m->e[i].off < ext_end(&m->e[i - 1]);
	return overlaps ? resolve_overlaps(m) : 0;
}

void xls_extmap_free(struct xls_extmap *m)
{
	if (!m)
		return;
	free(m->e);
	free(m);
}

/* ------------------------------------------------------------------ */
/* reading */

/* The first extent that ends after @off, or m->n. */
static size_t find(const struct xls_extmap *m, uint64_t off)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ext_end(&m->e[mid]) <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct gather {
	int		fd;
	struct iovec	iov[IOV_BATCH];
	int		n;
	uint64_t	foff;		/* where the batch starts in the file */
	uint64_t	fend;		/* and ends */
	uint8_t		scratch[SCRATCH_BYTES];
};

static int gather_flush(struct gather *g)
{
	struct iovec *v = g->iov;
	int n = g->n;
	uint64_t off = g->foff;

	g->n = 0;
	while (n) {
		ssize_t got = preadv(g->fd, v, n, (off_t)off);

		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (got == 0)
			return -ENODATA;	/* the file ends before its map says */
		off += (uint64_t)got;
		while (n && (size_t)got >= v->iov_len) {
			got -= (ssize_t)v->iov_len;
			v++;
			n--;
		}
		if (n) {
			v->iov_base = (uint8_t *)v->iov_base + got;
			v->iov_len -= (size_t)got;
		}
	}
	return 0;
}

/* Read @len bytes at file offset @foff into @p, gathered with what precedes. */
static int gather_add(struct gather *g, uint8_t *p, size_t len, uint64_t foff)
{
	if (g->n && foff == g->fend &&
	    (uint8_t *)g->iov[g->n - 1].iov_base + g->iov[g->n - 1].iov_len == p) {
		g->iov[g->n - 1].iov_len += len;
		g->fend += len;
		return 0;
	}
	if (g->n && (foff < g->fend || foff - g->fend > SCRATCH_BYTES || g->n + 2 > IOV_BATCH)) {
		int rc = gather_flush(g);

		if (rc)
			return rc;
	}
	if (!g->n) {
		g->foff = g->fend = foff;
	} else if (foff > g->fend) {
		g->iov[g->n++] = (struct iovec){ g->scratch, (size_t)(foff - g->fend) };
		g->fend = foff;
	}
	g->iov[g->n++] = (struct iovec){ p, len };
	g->fend += len;
	return 0;
}

uint64_t xls_extmap_size(const struct xls_extmap *m)
{
	return m->dev_bytes;
}

int xls_extmap_read(const struct xls_extmap *m, uint64_t off, void *buf, size_t len)
{
	struct gather g;
	uint8_t *p = buf;
	size_t i = find(m, off);
	int rc;

	if (off > m->dev_bytes || len > m->dev_bytes - off)
		return -ENODATA;
	g.fd = m->fd;
	g.n = 0;
	while (len) {
		const struct xls_extent *x = i < m->n ? &m->e[i] : NULL;
		uint64_t take;

		if (!x || x->off > off) {
			take = (x ? x->off : m->dev_bytes) - off;
			take = take < len ? take : len;
			memset(p, 0, (size_t)take);
		} else {
			take = ext_end(x) - off;
			take = take < len ? take : len;
			if (x->foff == XLS_EXTENT_ZEROS) {
				memset(p, 0, (size_t)take);
			} else {
				rc = gather_add(&g, p, (size_t)take, x->foff + (off - x->off));
				if (rc)
					return rc;
			}
			if (off + take == ext_end(x))
				i++;
		}
		p += take;
		off += take;
		len -= (size_t)take;
	}
	return g.n ? gather_flush(&g) : 0;
}

uint64_t xls_extmap_missing(const struct xls_extmap *m, uint64_t off, uint64_t len)
{
	uint64_t end, missing = 0;

	if (!m->holes_absent || off >= m->dev_bytes)
		return 0;
	end = len > m->dev_bytes - off ? m->dev_bytes : off + len;
	for (size_t i = find(m, off); off < end; i++) {
		uint64_t next = i < m->n && m->e[i].off < end ? m->e[i].off : end;

		if (next > off)
			missing += next - off;
		if (i >= m->n)
			break;
		off = ext_end(&m->e[i]);
	}
	return missing;
}
