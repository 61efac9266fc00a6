/*
 * Source stage: the spool.  A compressed input is decompressed once, in
 * one pass, into 1 MiB of buffer; what it carries goes to an unlinked
 * temporary file, sector runs that are all zero to the index alone, so
 * that the file holds the non-zero blocks and nothing of the holes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fullio.h"
#include "source/spool.h"

#define SPOOL_BUF	(1u << 20)
#define ZIN_BUF		(1u << 20)
#define SECTOR		512u

static int write_fully(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int spool_open(struct xls_spool *s, struct xls_error *err)
{
	memset(s, 0, sizeof(*s));
	s->fd = xls_tmpfile(&s->dir);
	if (s->fd < 0)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "cannot make a temporary file in '%s' (TMPDIR): %s",
				     s->dir, strerror(errno));
	s->buf = malloc(SPOOL_BUF);
	if (!s->buf)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the 1 MiB buffer of the spool file");
	return 0;
}

static int spool_failed(const struct xls_spool *s, int rc, struct xls_error *err)
{
	return xls_error_set(err, XLS_EXIT_INPUT,
			     "cannot write the temporary file in '%s' (TMPDIR) at byte %llu: %s",
			     s->dir, (unsigned long long)(s->size - s->len), strerror(-rc));
}

static int spool_flush(struct xls_spool *s, struct xls_error *err)
{
	int rc = write_fully(s->fd, s->buf, s->len);

	if (rc)
		return spool_failed(s, rc, err);
	s->len = 0;
	return 0;
}

/* Append @len bytes; their offset in the file into *@foff. */
static int spool_write(struct xls_spool *s, const uint8_t *p, size_t len, uint64_t *foff,
		       struct xls_error *err)
{
	*foff = s->size;
	while (len) {
		size_t take = SPOOL_BUF - s->len;

		if (!s->len && len >= SPOOL_BUF) {
			/* a whole buffer's worth goes out as it is */
			int rc = write_fully(s->fd, p, len);

			if (rc)
				return spool_failed(s, rc, err);
			s->size += len;
			return 0;
		}
		take = take < len ? take : len;
		memcpy(s->buf + s->len, p, take);
		s->len += take;
		s->size += take;
		p += take;
		len -= take;
		if (s->len == SPOOL_BUF && spool_flush(s, err))
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */

int xls_zin_open(struct xls_zin *in, int fd, const char *path, enum xls_zformat f,
		 uint64_t size, uint64_t limit, const struct xls_report_sink *report,
		 struct xls_error *err)
{
	memset(in, 0, sizeof(*in));
	in->spool.fd = -1;
	in->path = path;
	in->limit = limit;
	if (xls_zstream_open(&in->z, fd, path, f, size, report, err))
		return -1;
	in->buf = malloc(ZIN_BUF);
	if (!in->buf)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for a 1 MiB buffer to decompress '%s'", path);
	return spool_open(&in->spool, err);
}

/* Top the buffer up to @n bytes (the unread ones moved to the front). */
static int fill(struct xls_zin *in, size_t n, struct xls_error *err)
{
	size_t have = in->len - in->pos;
	ssize_t got;

	if (have >= n || in->z.ended)
		return 0;
	memmove(in->buf, in->buf + in->pos, have);
	in->pos = 0;
	in->len = have;
	got = xls_zstream_read(&in->z, in->buf + have, ZIN_BUF - have, err);
	if (got < 0)
		return -1;
	in->len += (size_t)got;
	if (in->limit && in->z.out_total > in->limit)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s': the %s stream decompresses to more than %llu bytes",
				     in->path, xls_zformat_name(in->z.fmt),
				     (unsigned long long)in->limit);
	return 0;
}

ssize_t xls_zin_peek(struct xls_zin *in, const uint8_t **p, size_t n, struct xls_error *err)
{
	if (n > ZIN_BUF)
		n = ZIN_BUF;
	if (fill(in, n, err))
		return -1;
	*p = in->buf + in->pos;
	return (ssize_t)(in->len - in->pos < n ? in->len - in->pos : n);
}

ssize_t xls_zin_read(struct xls_zin *in, void *p, size_t n, struct xls_error *err)
{
	uint8_t *out = p;
	size_t done = 0;

	while (done < n) {
		size_t have, take;

		if (fill(in, n - done < ZIN_BUF ? n - done : ZIN_BUF, err))
			return -1;
		have = in->len - in->pos;
		if (!have)
			break;
		take = have < n - done ? have : n - done;
		memcpy(out + done, in->buf + in->pos, take);
		in->pos += take;
		in->consumed += take;
		done += take;
	}
	return (ssize_t)done;
}

/* Index @n sectors at @p (device offset @off): zero runs apart, the rest spooled. */
static int put_sectors(struct xls_zin *in, struct xls_extmap *map, uint64_t off,
		       const uint8_t *p, size_t n, bool keep_zeros, struct xls_error *err)
{
	size_t i = 0;

	while (i < n) {
		bool zero = xls_all_zero(p + i, SECTOR);
		size_t j = i + SECTOR;
		uint64_t foff = XLS_EXTENT_ZEROS;

		while (j < n && xls_all_zero(p + j, SECTOR) == zero)
			j += SECTOR;
		if (!zero && spool_write(&in->spool, p + i, j - i, &foff, err))
			return -1;
		if ((!zero || keep_zeros) && xls_extmap_add(map, off + i, j - i, foff))
			return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the index "
					     "of the decompressed sectors");
		i = j;
	}
	return 0;
}

int64_t xls_zin_extent(struct xls_zin *in, struct xls_extmap *map, uint64_t off,
		       uint64_t len, bool keep_zeros, struct xls_error *err)
{
	uint64_t done = 0;

	while (done < len) {
		uint64_t left = len - done;
		size_t want = left < ZIN_BUF ? (size_t)left : ZIN_BUF;
		size_t have, take;

		if (fill(in, want < SECTOR ? want : SECTOR, err))
			return -1;
		have = in->len - in->pos;
		if (!have)
			break;
		take = have < want ? have : want;
		if (take >= SECTOR)
			take -= take % SECTOR;	/* whole sectors, but for a last partial one */
		if (take % SECTOR) {
			/* a sector cut short by the end of the stream: spooled as it is */
			uint64_t foff;

			if (spool_write(&in->spool, in->buf + in->pos, take, &foff, err))
				return -1;
			if (xls_extmap_add(map, off + done, take, foff))
				return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for "
						     "the index of the decompressed sectors");
		} else if (put_sectors(in, map, off + done, in->buf + in->pos, take,
				       keep_zeros, err)) {
			return -1;
		}
		in->pos += take;
		in->consumed += take;
		done += take;
	}
	return (int64_t)done;
}

int xls_zin_finish(struct xls_zin *in, int *fd, struct xls_error *err)
{
	if (in->spool.len && spool_flush(&in->spool, err))
		return -1;
	*fd = in->spool.fd;
	in->spool.fd = -1;
	return 0;
}

void xls_zin_close(struct xls_zin *in)
{
	xls_zstream_close(&in->z);
	free(in->buf);
	free(in->spool.buf);
	if (in->spool.fd >= 0)
		close(in->spool.fd);
	in->buf = in->spool.buf = NULL;
	in->spool.fd = -1;
}
