/*
 * Source stage: compressed input, streamed front to back through the
 * field's libraries (zlib, liblzma, libzstd), in bounded buffers.
 */
#ifndef XLS_DECOMPRESS_H
#define XLS_DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "base/err.h"
#include "base/finding.h"

enum xls_zformat {
	XLS_Z_NONE,
	XLS_Z_GZIP,
	XLS_Z_XZ,
	XLS_Z_ZSTD,
};

/* "gzip", "xz", "zstd"; "" for XLS_Z_NONE. */
const char *xls_zformat_name(enum xls_zformat f);

/* The format whose magic starts @p (@n bytes of it), or XLS_Z_NONE. */
enum xls_zformat xls_zformat_detect(const uint8_t *p, size_t n);

/*
 * The name of a compression format this tool does not read (bzip2, lz4,
 * lzip, lzma, compress) whose magic starts @p, or NULL.
 */
const char *xls_zformat_unread(const uint8_t *p, size_t n);

/*
 * liblzma's memory limit: the decoder of an xz stream that asks for a
 * larger dictionary is refused (xz -9 needs 65 MiB).
 */
#define XLS_XZ_MEMLIMIT		(256ull << 20)

struct xls_zstream {
	enum xls_zformat	fmt;
	int			fd;		/* the compressed file, read with pread */
	const char		*path;		/* for messages */
	uint64_t		in_off;		/* compressed bytes read from @fd */
	uint64_t		out_total;	/* decompressed bytes handed out */
	uint8_t			*in;		/* input buffer */
	size_t			in_len, in_pos;
	bool			in_eof;
	bool			ended;		/* the stream ended where it should */
	bool			frame_open;	/* zstd: inside a frame */
	void			*state;		/* z_stream, lzma_stream or ZSTD_DStream */
	const struct xls_report_sink *report;	/* progress, or NULL */
	uint64_t		in_size;	/* of the compressed file, for progress */
	unsigned int		in_pct;		/* the last percentage reported */
};

/*
 * Start decompressing @fd (format @f), @size bytes; progress (bytes of
 * it read) to @report if not NULL.  0, or -1 with @err set.
 */
int xls_zstream_open(struct xls_zstream *z, int fd, const char *path,
		     enum xls_zformat f, uint64_t size,
		     const struct xls_report_sink *report, struct xls_error *err);

/*
 * Up to @len decompressed bytes into @buf: fewer only at the end of the
 * stream (0 once it has ended).  -1 with @err set when the stream is
 * corrupt or ends early (one sentence naming the compressed byte offset).
 */
ssize_t xls_zstream_read(struct xls_zstream *z, void *buf, size_t len,
			 struct xls_error *err);

/* Release; safe on a zeroed or closed stream.  Does not close @fd. */
void xls_zstream_close(struct xls_zstream *z);

#endif /* XLS_DECOMPRESS_H */
