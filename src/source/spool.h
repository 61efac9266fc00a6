/*
 * Source stage: what a compressed input carries, decompressed once and
 * kept in the spool -- an unlinked temporary file in $TMPDIR (or /tmp) --
 * with an index of extents (extmap.h) saying where each block went.
 * Zero sectors are not written: the index marks them.
 */
#ifndef XLS_SPOOL_H
#define XLS_SPOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "base/err.h"
#include "source/decompress.h"
#include "source/extmap.h"

struct xls_spool {
	int		fd;		/* -1 once handed over */
	uint64_t	size;		/* bytes in the file, buffered ones included */
	uint8_t		*buf;
	size_t		len;		/* bytes buffered */
	const char	*dir;		/* for messages */
};

/* A compressed input, read through a buffer of decompressed bytes. */
struct xls_zin {
	struct xls_zstream	z;
	struct xls_spool	spool;
	uint8_t			*buf;
	size_t			pos, len;	/* unread bytes of @buf */
	uint64_t		consumed;	/* decompressed bytes taken so far */
	uint64_t		limit;		/* refuse to decompress more; 0: no limit */
	const char		*path;
};

/*
 * Start reading compressed @fd (format @f, @size bytes; progress to
 * @report, which may be NULL) and make the spool.  @limit: the most bytes
 * the stream may decompress to (0: no limit).  0, or -1 with @err set.
 */
int xls_zin_open(struct xls_zin *in, int fd, const char *path, enum xls_zformat f,
		 uint64_t size, uint64_t limit, const struct xls_report_sink *report,
		 struct xls_error *err);

/*
 * Make at least @n bytes readable at *@p (fewer only at the end of the
 * stream); returns how many are there, or -1 with @err set.
 */
ssize_t xls_zin_peek(struct xls_zin *in, const uint8_t **p, size_t n, struct xls_error *err);

/* The next @n bytes into @p; returns how many (fewer only at the end), or -1. */
ssize_t xls_zin_read(struct xls_zin *in, void *p, size_t n, struct xls_error *err);

/*
 * The next @len bytes of the stream are the device's bytes at @off:
 * spool them and index them in @map (zero sectors as XLS_EXTENT_ZEROS
 * when @keep_zeros, else as holes).  Returns the bytes there were (fewer
 * than @len only at the end of the stream), or -1.
 */
int64_t xls_zin_extent(struct xls_zin *in, struct xls_extmap *map, uint64_t off,
		       uint64_t len, bool keep_zeros, struct xls_error *err);

/* Flush the spool and hand its descriptor over (the caller closes it). */
int xls_zin_finish(struct xls_zin *in, int *fd, struct xls_error *err);

/* Release everything still held; safe after xls_zin_finish or a failed open. */
void xls_zin_close(struct xls_zin *in);

#endif /* XLS_SPOOL_H */
