/*
 * Whole reads and writes at an offset (see fullio.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/fullio.h"

int xls_pread_fully(int fd, uint64_t off, void *buf, size_t len, size_t *done)
{
	uint8_t *p = buf;
	size_t got = 0;
	int rc = 0;

	while (got < len) {
		ssize_t n = pread(fd, p + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : -ENODATA;	/* 0: past the end of the file */
			break;
		}
		got += (size_t)n;
	}
	if (done)
		*done = got;
	return rc;
}

int xls_pwrite_fully(int fd, uint64_t off, const void *buf, size_t len, size_t *done)
{
	const uint8_t *p = buf;
	size_t put = 0;
	int rc = 0;

	while (put < len) {
		ssize_t n = pwrite(fd, p + put, len - put, (off_t)(off + put));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : -ENOSPC;
			break;
		}
		put += (size_t)n;
	}
	if (done)
		*done = put;
	return rc;
}

int xls_tmpfile(const char **dir)
{
	const char *d = getenv("TMPDIR");
	char tmpl[4200];
	int fd = -1;

	if (!d || !d[0])
		d = "/tmp";
	*dir = d;
#ifdef O_TMPFILE
	fd = open(d, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
#endif
	if (snprintf(tmpl, sizeof(tmpl), "%s/xfs_logscope.XXXXXX", d) >= (int)sizeof(tmpl)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = mkostemp(tmpl, O_CLOEXEC);
	if (fd >= 0)
		unlink(tmpl);
	return fd;
}
