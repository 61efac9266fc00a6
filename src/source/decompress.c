/*
 * Source stage: gzip, xz and zstd streams, decompressed front to back.
 * The compressed file is read with pread in 1 MiB pieces, so the memory
 * held is two buffers and the library's window, whatever the file's size.
 * Concatenated streams (gzip members, xz streams, zstd frames) are read as
 * one, as gzip -dc, xz -dc and zstd -dc read them.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <lzma.h>
#include <zstd.h>

#include "source/decompress.h"

#define IN_BYTES	(1u << 20)

const char *xls_zformat_name(enum xls_zformat f)
{
	switch (f) {
	case XLS_Z_GZIP:	return "gzip";
	case XLS_Z_XZ:		return "xz";
	case XLS_Z_ZSTD:	return "zstd";
	case XLS_Z_NONE:	break;
	}
	return "";
}

static bool starts(const uint8_t *p, size_t n, const char *magic, size_t len)
{
	return n >= len && memcmp(p, magic, len) == 0;
}

enum xls_zformat xls_zformat_detect(const uint8_t *p, size_t n)
{
	if (starts(p, n, "\x1f\x8b", 2))
		return XLS_Z_GZIP;
	if (starts(p, n, "\xfd" "7zXZ\0", 6))
		return XLS_Z_XZ;
	if (starts(p, n, "\x28\xb5\x2f\xfd", 4))
		return XLS_Z_ZSTD;
	return XLS_Z_NONE;
}

const char *xls_zformat_unread(const uint8_t *p, size_t n)
{
	if (starts(p, n, "BZh", 3) && n > 3 && p[3] >= '1' && p[3] <= '9')
		return "bzip2";
	if (starts(p, n, "\x04\x22\x4d\x18", 4))
		return "lz4";
	if (starts(p, n, "LZIP", 4))
		return "lzip";
	if (starts(p, n, "\x5d\0\0", 3))
		return "lzma";
	if (starts(p, n, "\x1f\x9d", 2))
		return "compress (.Z)";
	return NULL;
}

/* Move what is left of the input to the front and read more behind it. */
static int refill(struct xls_zstream *z, struct xls_error *err)
{
	size_t left = z->in_len - z->in_pos;
	ssize_t n;

	if (z->in_eof)
		return 0;
	memmove(z->in, z->in + z->in_pos, left);
	z->in_pos = 0;
	z->in_len = left;
	do {
		n = pread(z->fd, z->in + left, IN_BYTES - left, (off_t)z->in_off);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return xls_error_set(err, XLS_EXIT_INPUT, "cannot read '%s' at byte %llu: %s",
				     z->path, (unsigned long long)z->in_off, strerror(errno));
	if (n == 0)
		z->in_eof = true;
	z->in_len += (size_t)n;
	z->in_off += (uint64_t)n;
	/* once a percent: a multi-gigabyte image takes minutes */
	if (z->report && z->in_size && z->in_off * 100 / z->in_size != z->in_pct) {
		z->in_pct = (unsigned int)(z->in_off * 100 / z->in_size);
		xls_report_progress(z->report, z->in_off, z->in_size);
	}
	return 0;
}

/* Where in the compressed file the library stands: for messages. */
static unsigned long long in_at(const struct xls_zstream *z)
{
	return (unsigned long long)(z->in_off - (z->in_len - z->in_pos));
}

static int ends_early(const struct xls_zstream *z, struct xls_error *err)
{
	return xls_error_set(err, XLS_EXIT_INPUT,
			     "'%s': the %s stream ends early, at compressed byte %llu "
			     "(%llu bytes decompressed): the file is truncated",
			     z->path, xls_zformat_name(z->fmt), in_at(z),
			     (unsigned long long)z->out_total);
}

static int corrupt(const struct xls_zstream *z, const char *why, struct xls_error *err)
{
	return xls_error_set(err, XLS_EXIT_INPUT,
			     "'%s': the %s stream is corrupt at or before compressed byte %llu "
			     "(%llu bytes decompressed): %s",
			     z->path, xls_zformat_name(z->fmt), in_at(z),
			     (unsigned long long)z->out_total, why);
}

/*
 * One step of each decoder: consume input into @out (@avail bytes of
 * room), advancing both.  Returns 1 while the stream goes on, 0 once it
 * has ended, -1 on error.  Input is refilled by the caller when empty.
 */

static int gzip_step(struct xls_zstream *z, uint8_t **out, size_t *avail,
		     struct xls_error *err)
{
	z_stream *s = z->state;
	uInt room = *avail > UINT_MAX / 2 ? UINT_MAX / 2 : (uInt)*avail;
	int rc;

	s->next_in = z->in + z->in_pos;
	s->avail_in = (uInt)(z->in_len - z->in_pos);
	s->next_out = *out;
	s->avail_out = room;
	rc = inflate(s, Z_NO_FLUSH);
	z->in_pos = (size_t)(s->next_in - z->in);
	*out += room - s->avail_out;
	*avail -= room - s->avail_out;
	switch (rc) {
	case Z_OK:
		return 1;
	case Z_BUF_ERROR:	/* no progress: the input is used up */
		if (z->in_eof && z->in_pos == z->in_len)
			return ends_early(z, err);
		return 1;
	case Z_STREAM_END:
		/* another member may follow, as gzip -dc reads them */
		if (z->in_len - z->in_pos < 2 && refill(z, err))
			return -1;
		if (z->in_len - z->in_pos >= 2 && z->in[z->in_pos] == 0x1f &&
		    z->in[z->in_pos + 1] == 0x8b) {
			inflateReset(s);
			return 1;
		}
		return 0;	/* trailing bytes are ignored, as gzip does */
	default:
		return corrupt(z, s->msg ? s->msg : "inflate failed", err);
	}
}

static int xz_step(struct xls_zstream *z, uint8_t **out, size_t *avail,
		   struct xls_error *err)
{
	lzma_stream *s = z->state;
	size_t room = *avail;
	lzma_ret rc;

	s->next_in = z->in + z->in_pos;
	s->avail_in = z->in_len - z->in_pos;
	s->next_out = *out;
	s->avail_out = room;
	rc = lzma_code(s, z->in_eof && s->avail_in == 0 ? LZMA_FINISH : LZMA_RUN);
	z->in_pos = (size_t)(s->next_in - z->in);
	*out += room - s->avail_out;
	*avail -= room - s->avail_out;
	switch (rc) {
	case LZMA_OK:
		return 1;
	case LZMA_STREAM_END:
		return 0;
	case LZMA_BUF_ERROR:
		return ends_early(z, err);
	case LZMA_MEMLIMIT_ERROR:
	case LZMA_MEM_ERROR:
		return corrupt(z, "it needs more than 256 MiB of memory to decompress", err);
	case LZMA_FORMAT_ERROR:
		return corrupt(z, "not in the xz format", err);
	case LZMA_OPTIONS_ERROR:
		return corrupt(z, "unsupported xz options", err);
	default:
		return corrupt(z, "compressed data is corrupt", err);
	}
}

static int zstd_step(struct xls_zstream *z, uint8_t **out, size_t *avail,
		     struct xls_error *err)
{
	ZSTD_inBuffer in = { z->in, z->in_len, z->in_pos };
	ZSTD_outBuffer o = { *out, *avail, 0 };
	size_t rc;

	/* between frames, the end of the file is the end of the stream */
	if (z->in_pos == z->in_len && z->in_eof && !z->frame_open)
		return 0;
	rc = ZSTD_decompressStream(z->state, &o, &in);
	z->in_pos = in.pos;
	*out += o.pos;
	*avail -= o.pos;
	if (ZSTD_isError(rc))
		return corrupt(z, ZSTD_getErrorName(rc), err);
	/* 0: a frame is complete and flushed; another may follow */
	z->frame_open = rc != 0;
	if (z->frame_open && o.pos == 0 && in.pos == in.size && z->in_eof)
		return ends_early(z, err);
	return 1;
}

int xls_zstream_open(struct xls_zstream *z, int fd, const char *path,
		     enum xls_zformat f, uint64_t size,
		     const struct xls_report_sink *report, struct xls_error *err)
{
	memset(z, 0, sizeof(*z));
	z->fmt = f;
	z->fd = fd;
	z->path = path;
	z->in_size = size;
	z->report = report;
	z->in = malloc(IN_BYTES);
	if (!z->in)
		goto nomem;
	switch (f) {
	case XLS_Z_GZIP: {
		z_stream *s = calloc(1, sizeof(*s));

		z->state = s;
		/* 16 + MAX_WBITS: gzip headers only */
		if (!s || inflateInit2(s, 16 + MAX_WBITS) != Z_OK)
			goto nomem;
		break;
	}
	case XLS_Z_XZ: {
		lzma_stream *s = calloc(1, sizeof(*s));

		z->state = s;
		if (!s || lzma_stream_decoder(s, XLS_XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK)
			goto nomem;
		break;
	}
	case XLS_Z_ZSTD:
		z->state = ZSTD_createDStream();
		if (!z->state || ZSTD_isError(ZSTD_initDStream(z->state)))
			goto nomem;
		break;
	case XLS_Z_NONE:
		xls_zstream_close(z);
		return xls_error_set(err, XLS_EXIT_INTERNAL, "'%s': not compressed", path);
	}
	return 0;
nomem:
	xls_zstream_close(z);
	return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for decompressing '%s'", path);
}

ssize_t xls_zstream_read(struct xls_zstream *z, void *buf, size_t len,
			 struct xls_error *err)
{
	uint8_t *out = buf;
	size_t avail = len > SSIZE_MAX ? SSIZE_MAX : len;
	size_t want = avail;

	while (avail && !z->ended) {
		uint8_t *before = out;
		size_t pos = z->in_pos;
		int rc;

		if (z->in_pos == z->in_len && refill(z, err))
			return -1;
		switch (z->fmt) {
		case XLS_Z_GZIP:	rc = gzip_step(z, &out, &avail, err); break;
		case XLS_Z_XZ:		rc = xz_step(z, &out, &avail, err); break;
		case XLS_Z_ZSTD:	rc = zstd_step(z, &out, &avail, err); break;
		default:		rc = -1; break;
		}
		z->out_total += (uint64_t)(out - before);
		if (rc < 0)
			return -1;
		if (rc == 0)
			z->ended = true;
		/* a decoder that neither reads nor writes with input left is stuck */
		else if (out == before && z->in_pos == pos && z->in_eof &&
			 z->in_pos == z->in_len)
			return ends_early(z, err);
	}
	return (ssize_t)(want - avail);
}

void xls_zstream_close(struct xls_zstream *z)
{
	if (z->state) {
		switch (z->fmt) {
		case XLS_Z_GZIP:
			inflateEnd(z->state);
			free(z->state);
			break;
		case XLS_Z_XZ:
			lzma_end(z->state);
			free(z->state);
			break;
		case XLS_Z_ZSTD:
			ZSTD_freeDStream(z->state);
			break;
		case XLS_Z_NONE:
			break;
		}
	}
	free(z->in);
	z->in = NULL;
	z->state = NULL;
}
