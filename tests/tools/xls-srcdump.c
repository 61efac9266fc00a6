/*
 * xls-srcdump: a device as the source stage serves it, written to a file,
 * so that the tests can compare a metadump's index byte for byte with
 * what xfs_mdrestore writes, and a compressed image with the image.
 *
 *   xls-srcdump [-l LOGDEV] [-f] [-L] INPUT OUT
 *   xls-srcdump [-l LOGDEV] [-i SKIP] -c IMAGE INPUT
 *
 * Writes the data device of INPUT (-L: the log, from its first byte to
 * its last: the external log device, or the internal log's region) to
 * OUT, a new sparse file: zero 64 KiB pieces are left as holes.  Then
 * prints one line: "bytes B missing M", M the bytes the input does not
 * carry (a metadump's absent blocks; data device only).
 *
 * -c: compare the data device with IMAGE instead, sector by sector: the
 * sectors INPUT carries must equal IMAGE's, the ones it lacks must read
 * as zeros; prints "carried C missing M missing_nonzero N differ D"
 * (bytes; N: missing sectors that are not zero in IMAGE) and exits 1 if
 * D is not 0.  -i: the first SKIP bytes are not compared (xfs_mdrestore
 * rewrites the superblock).  Holes of IMAGE are not read.
 *
 * Exit 0, or 1 with the source stage's error on standard error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/source.h"

#define PIECE	(64u * 1024)

static int dump(const struct xls_source *src, bool log, int out)
{
	uint64_t bytes = log ? (uint64_t)src->geo.log_bbs * 512 :
			 src->data_map ? src->data_map->dev_bytes : src->log_dev_bytes;
	uint8_t *buf = malloc(PIECE);
	uint64_t missing = 0;

	if (!buf)
		return -ENOMEM;
	for (uint64_t off = 0; off < bytes; off += PIECE) {
		size_t n = bytes - off < PIECE ? (size_t)(bytes - off) : PIECE;
		int rc = log ? xls_source_read(src, off, buf, n) :
			 xls_source_read_data(src, off, buf, n);

		if (rc) {
			fprintf(stderr, "xls-srcdump: read at %llu: %s\n",
				(unsigned long long)off, strerror(-rc));
			free(buf);
			return rc;
		}
		if (!log)
			missing += xls_source_data_missing(src, off, n);
		if (!xls_all_zero(buf, n) && pwrite(out, buf, n, (off_t)off) != (ssize_t)n) {
			free(buf);
			return -errno;
		}
	}
	free(buf);
	if (ftruncate(out, (off_t)bytes))
		return -errno;
	printf("bytes %llu missing %llu\n", (unsigned long long)bytes,
	       (unsigned long long)missing);
	return 0;
}

/* Is [@off, @off + @n) of @fd a hole (so zeros)? */
static bool hole(int fd, uint64_t off, size_t n)
{
	off_t data = lseek(fd, (off_t)off, SEEK_DATA);

	return (data < 0 && errno == ENXIO) || (data >= 0 && (uint64_t)data >= off + n);
}

/* Sector by sector against @image; returns the bytes that differ, or -errno. */
static int64_t compare(const struct xls_source *src, int image, uint64_t skip)
{
	uint64_t bytes = src->data_map ? src->data_map->dev_bytes : src->log_dev_bytes;
	uint64_t carried = 0, missing = 0, nonzero = 0, differ = 0;
	uint8_t *a = malloc(PIECE), *b = malloc(PIECE);

	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	for (uint64_t off = 0; off < bytes; off += PIECE) {
		size_t n = bytes - off < PIECE ? (size_t)(bytes - off) : PIECE;
		int rc = xls_source_read_data(src, off, a, n);

		if (!rc && hole(image, off, n))
			memset(b, 0, n);
		else if (!rc && pread(image, b, n, (off_t)off) != (ssize_t)n)
			rc = -EIO;
		if (rc) {
			free(a);
			free(b);
			return rc;
		}
		for (size_t s = 0; s < n; s += 512) {
			size_t len = n - s < 512 ? n - s : 512;

			if (off + s < skip)
				continue;
			if (xls_source_data_missing(src, off + s, len)) {
				missing += len;
				nonzero += xls_all_zero(b + s, len) ? 0 : len;
				differ += xls_all_zero(a + s, len) ? 0 : len;
			} else {
				carried += len;
				differ += memcmp(a + s, b + s, len) ? len : 0;
			}
		}
	}
	free(a);
	free(b);
	printf("carried %llu missing %llu missing_nonzero %llu differ %llu\n",
	       (unsigned long long)carried, (unsigned long long)missing,
	       (unsigned long long)nonzero, (unsigned long long)differ);
	return (int64_t)differ;
}

int main(int argc, char **argv)
{
	struct xls_source_opts o = { .force = true };
	struct xls_source src;
	struct xls_error err = { 0 };
	const char *cmp_with = NULL;
	uint64_t skip = 0;
	bool log = false;
	int c, out, rc;

	while ((c = getopt(argc, argv, "c:fi:l:L")) != -1) {
		switch (c) {
		case 'c': cmp_with = optarg; break;
		case 'i': skip = strtoull(optarg, NULL, 0); break;
		case 'f': o.bare_log = true; break;
		case 'l': o.logdev = optarg; break;
		case 'L': log = true; break;
		default:
			fprintf(stderr, "usage: xls-srcdump [-l LOGDEV] [-f] [-L] INPUT OUT\n");
			return 2;
		}
	}
	if (argc - optind != (cmp_with ? 1 : 2)) {
		fprintf(stderr, "usage: xls-srcdump [-l LOGDEV] [-f] [-L] INPUT OUT\n"
				"       xls-srcdump [-l LOGDEV] -c IMAGE INPUT\n");
		return 2;
	}
	o.path = argv[optind];
	if (xls_source_open(&src, &o, &err)) {
		fprintf(stderr, "xls-srcdump: %s\n", err.msg);
		return 1;
	}
	if (cmp_with) {
		int64_t differ;

		out = open(cmp_with, O_RDONLY | O_CLOEXEC);
		if (out < 0) {
			fprintf(stderr, "xls-srcdump: cannot open '%s': %s\n", cmp_with,
				strerror(errno));
			xls_source_close(&src);
			return 1;
		}
		differ = compare(&src, out, skip);
		if (differ < 0)
			fprintf(stderr, "xls-srcdump: %s\n", strerror((int)-differ));
		close(out);
		xls_source_close(&src);
		return differ ? 1 : 0;
	}
	out = open(argv[optind + 1], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		fprintf(stderr, "xls-srcdump: cannot create '%s': %s\n", argv[optind + 1],
			strerror(errno));
		xls_source_close(&src);
		return 1;
	}
	rc = dump(&src, log, out);
	if (rc)
		fprintf(stderr, "xls-srcdump: %s\n", strerror(-rc));
	close(out);
	xls_source_close(&src);
	return rc ? 1 : 0;
}
