/*
 * Replay stage: the copy replay writes into -- the data device (and an
 * external log) copied block for block, holes kept, through a reflink or
 * copy_file_range() where the host filesystem offers them, or restored
 * from a metadump as xfs_mdrestore restores it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fullio.h"
#include "base/ondisk.h"
#include "replay/copy.h"
#include "source/extmap.h"

#define COPY_CHUNK	(1u << 20)

static int write_error(const char *path, uint64_t off, int e, struct xls_error *err)
{
	return xls_error_set(err, XLS_EXIT_INTERNAL, "cannot write '%s' at byte %llu: %s", path,
			     (unsigned long long)off, strerror(e));
}

static int read_error(const char *path, uint64_t off, int e, struct xls_error *err)
{
	return xls_error_set(err, XLS_EXIT_INPUT, "cannot read '%s' at byte %llu: %s", path,
			     (unsigned long long)off, e ? strerror(e) : "short read");
}

static int pwrite_full(int fd, const uint8_t *buf, size_t len, uint64_t off, const char *path,
		       struct xls_error *err)
{
	size_t done;
	int rc = xls_pwrite_fully(fd, off, buf, len, &done);

	return rc ? write_error(path, off + done, -rc, err) : 0;
}

static bool all_zero(const uint8_t *p, size_t len)
{
	return len == 0 || (p[0] == 0 && memcmp(p, p + 1, len - 1) == 0);
}

/*
 * Bytes [@off, @end) of the data device through the source (a metadump,
 * a decompressed input, a device): chunks of zeros left as holes.
 */
static int copy_by_reads(const struct xls_source *src, int fd, const char *path, uint64_t off,
			 uint64_t end, uint8_t *buf, size_t chunk,
			 const struct xls_report_sink *progress, struct xls_error *err)
{
	int rc = 0;

	for (; off < end && !rc; off += chunk) {
		size_t n = end - off < chunk ? (size_t)(end - off) : chunk;

		if (xls_source_read_data(src, off, buf, n)) {
			rc = read_error(src->data_path ? src->data_path : src->path, off, EIO, err);
			break;
		}
		if (!all_zero(buf, n))
			rc = pwrite_full(fd, buf, n, off, path, err);
		xls_report_progress(progress, off + n, end);
	}
	return rc;
}

/* The bytes copy_by_reads moves at a time, for at most @want bytes: no more than it needs. */
static size_t chunk_bytes(uint64_t want)
{
	return want < COPY_CHUNK ? (size_t)want : COPY_CHUNK;
}

/* [@off, @end) of @in into @out at the same offsets, by the kernel, else by reads. */
static int copy_range(int in, int out, const char *in_path, const char *path, uint64_t off,
		      uint64_t end, struct xls_error *err)
{
	uint8_t *buf = NULL;
	int rc = 0;

	while (off < end && !rc) {
		loff_t a = (loff_t)off, b = (loff_t)off;
		size_t want = end - off < (1u << 30) ? (size_t)(end - off) : (1u << 30);
		ssize_t n = copy_file_range(in, &a, out, &b, want, 0);

		if (n > 0) {
			off += (uint64_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EXDEV && errno != EINVAL && errno != ENOSYS &&
		    errno != EOPNOTSUPP)
			return write_error(path, off, errno, err);
		/* no copy_file_range between these two: read and write */
		if (!buf && !(buf = malloc(COPY_CHUNK)))
			return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for a buffer "
					     "to copy '%s' to '%s'", in_path, path);
		n = pread(in, buf, end - off < COPY_CHUNK ? (size_t)(end - off) : COPY_CHUNK,
			  (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = read_error(in_path, off, n < 0 ? errno : ENODATA, err);
			break;
		}
		rc = pwrite_full(out, buf, (size_t)n, off, path, err);
		off += (uint64_t)n;
	}
	free(buf);
	return rc;
}

/* A regular file's data extents, its holes left: SEEK_DATA and SEEK_HOLE. */
static int copy_extents(int in, int out, const char *in_path, const char *path, uint64_t size,
			struct xls_error *err)
{
	uint64_t off = 0;

	while (off < size) {
		off_t data = lseek(in, (off_t)off, SEEK_DATA), hole;

		if (data < 0 && errno == ENXIO)
			return 0;
		if (data < 0)	/* no SEEK_DATA here: all of it */
			return copy_range(in, out, in_path, path, off, size, err);
		hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0 || (uint64_t)hole > size)
			hole = (off_t)size;
		if (copy_range(in, out, in_path, path, (uint64_t)data, (uint64_t)hole, err))
			return -1;
		off = (uint64_t)hole;
	}
	return 0;
}

/*
 * A device read through a map (a metadump, a decompressed input): only its
 * extents, each through the source -- a hostile superblock's size costs a
 * sparse file, not a read of every byte of it.
 */
static int copy_mapped(const struct xls_source *src, int fd, const char *path, uint64_t size,
		       const struct xls_report_sink *progress, struct xls_error *err)
{
	const struct xls_extmap *m = src->data_map;
	uint64_t longest = 0;
	size_t chunk;
	uint8_t *buf;
	int rc = 0;

	for (size_t i = 0; i < m->n; i++)
		if (m->e[i].foff != XLS_EXTENT_ZEROS && m->e[i].len > longest)
			longest = m->e[i].len;
	chunk = chunk_bytes(longest);
	if (!chunk)
		return 0;
	if (!(buf = malloc(chunk)))
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for a buffer to copy "
				     "the extents of the data device to '%s'", path);
	for (size_t i = 0; i < m->n && !rc; i++) {
		const struct xls_extent *x = &m->e[i];
		uint64_t end = x->off + x->len < size ? x->off + x->len : size;

		if (x->foff == XLS_EXTENT_ZEROS || x->off >= size)
			continue;
		rc = copy_by_reads(src, fd, path, x->off, end, buf, chunk, NULL, err);
		xls_report_progress(progress, end, size);
	}
	free(buf);
	return rc;
}

/* A device that is no regular file: every byte read, the zero chunks left as holes. */
static int copy_device(const struct xls_source *src, int fd, const char *path, uint64_t size,
		       const struct xls_report_sink *progress, struct xls_error *err)
{
	size_t chunk = chunk_bytes(size);
	uint8_t *buf = malloc(chunk);
	int rc;

	if (!buf)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for a buffer to copy "
				     "the data device to '%s'", path);
	rc = copy_by_reads(src, fd, path, 0, size, buf, chunk, progress, err);
	free(buf);
	return rc;
}

int xls_replay_copy_data(const struct xls_source *src, int fd, const char *path,
			 const struct xls_report_sink *progress, struct xls_error *err)
{
	const struct xls_geometry *g = &src->geo;
	const char *in_path = src->data_path ? src->data_path : src->path;
	uint64_t size = g->data_bytes ? g->data_bytes : g->dblocks * g->blocksize;
	struct stat st;

	if (!size)
		return xls_error_set(err, XLS_EXIT_INPUT, "'%s': no size for the copy", in_path);
	if (ftruncate(fd, (off_t)size) != 0)
		return write_error(path, size, errno, err);
	if (src->data_map)
		return copy_mapped(src, fd, path, size, progress, err);
	if (fstat(src->data_fd, &st) != 0 || !S_ISREG(st.st_mode))
		return copy_device(src, fd, path, size, progress, err);
	/* the same host filesystem may share the blocks: nothing is copied */
	if (ioctl(fd, FICLONE, src->data_fd) == 0 && (uint64_t)st.st_size >= size)
		return ftruncate(fd, (off_t)size) == 0 ? 0 : write_error(path, size, errno, err);
	return copy_extents(src->data_fd, fd, in_path, path, size < (uint64_t)st.st_size ?
			    size : (uint64_t)st.st_size, err);
}

int xls_replay_copy_log(const struct xls_source *src, int fd, const char *path,
			struct xls_error *err)
{
	uint64_t total = (uint64_t)src->geo.log_bbs * BBSIZE, base = src->geo.log_offset;
	size_t chunk = chunk_bytes(total);
	uint8_t *buf = malloc(chunk ? chunk : 1);
	int rc = 0;

	if (!buf)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for a buffer to copy the log to '%s'", path);
	if (ftruncate(fd, (off_t)(src->log_dev_bytes > base + total ? src->log_dev_bytes :
				  base + total)) != 0)
		rc = write_error(path, base + total, errno, err);
	for (uint64_t off = 0; off < total && !rc; off += chunk) {
		size_t n = total - off < chunk ? (size_t)(total - off) : chunk;

		if (xls_source_read(src, off, buf, n))
			rc = read_error(src->path, base + off, EIO, err);
		else if (!all_zero(buf, n))
			rc = pwrite_full(fd, buf, n, base + off, path, err);
	}
	free(buf);
	return rc;
}
