/*
 * Files the commands write: never one that exists, never half-made.  A new
 * file is written under no name (O_TMPFILE) or a hidden temporary one in
 * its directory, and given its name only when complete, without replacing
 * anything that appeared meanwhile; on any error nothing is left behind.
 * And the spool that holds output which must follow something known only
 * at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fullio.h"
#include "report/newfile.h"

int xls_newfile_check(const char *path, struct xls_error *err)
{
	struct stat st;
	char dir[4096];

	/* an output named that exists is the user's mistake; one that cannot be made, ours */
	if (lstat(path, &st) == 0)
		return xls_error_set(err, XLS_EXIT_USAGE, "'%s' exists: xfs_logscope never "
				     "overwrites a file", path);
	if (errno != ENOENT)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "cannot create '%s': %s",
				     path, strerror(errno));
	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return xls_error_set(err, XLS_EXIT_USAGE, "'%s': path too long", path);
	if (access(dirname(dir), W_OK | X_OK) != 0)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "cannot create '%s': %s",
				     path, strerror(errno));
	return 0;
}

/* The directory of @path and its last component, into @dir and @base. */
static int split_path(const char *path, char *dir, char *base, size_t size)
{
	char a[4096], b[4096];

	if (snprintf(a, sizeof(a), "%s", path) >= (int)sizeof(a) ||
	    snprintf(b, sizeof(b), "%s", path) >= (int)sizeof(b))
		return -1;
	if (snprintf(dir, size, "%s", dirname(a)) >= (int)size ||
	    snprintf(base, size, "%s", basename(b)) >= (int)size)
		return -1;
	return 0;
}

int xls_newfile_open(struct xls_newfile *nf, const char *path, struct xls_error *err)
{
	char dir[2048], base[2048];

	memset(nf, 0, sizeof(*nf));
	nf->path = path;
	nf->fd = -1;
	if (xls_newfile_check(path, err))
		return -1;
	if (split_path(path, dir, base, sizeof(dir)))
		return xls_error_set(err, XLS_EXIT_USAGE, "'%s': path too long", path);
#ifdef O_TMPFILE
	nf->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
#endif
	if (nf->fd < 0) {
		/* a filesystem without O_TMPFILE: a hidden name beside it */
		mode_t mask = umask(0);

		umask(mask);
		if (snprintf(nf->tmp, sizeof(nf->tmp), "%s/.%s.XXXXXX", dir, base) >=
		    (int)sizeof(nf->tmp))
			return xls_error_set(err, XLS_EXIT_USAGE, "'%s': path too long", path);
		nf->fd = mkstemp(nf->tmp);
		if (nf->fd < 0 || fchmod(nf->fd, 0644 & ~mask) != 0) {
			int e = errno;

			xls_newfile_abort(nf);
			return xls_error_set(err, XLS_EXIT_INPUT, "cannot create '%s': %s",
					     path, strerror(e));
		}
	}
	nf->f = fdopen(nf->fd, "w");
	if (!nf->f) {
		int e = errno;

		xls_newfile_abort(nf);
		return xls_error_set(err, XLS_EXIT_INTERNAL, "cannot create '%s': %s",
				     path, strerror(e));
	}
	return 0;
}

/* Give the complete file its name; EEXIST if one appeared meanwhile. */
static int name_it(struct xls_newfile *nf)
{
	if (!nf->tmp[0]) {
		char proc[64];

		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", nf->fd);
		return linkat(AT_FDCWD, proc, AT_FDCWD, nf->path, AT_SYMLINK_FOLLOW);
	}
	return renameat2(AT_FDCWD, nf->tmp, AT_FDCWD, nf->path, RENAME_NOREPLACE);
}

int xls_newfile_commit(struct xls_newfile *nf, struct xls_error *err)
{
	int rc = 0, e = 0;

	if (fflush(nf->f) != 0 || ferror(nf->f) || fsync(nf->fd) != 0) {
		e = errno ? errno : EIO;
		rc = -1;
	} else if (name_it(nf) != 0) {
		e = errno;
		rc = -1;
	} else {
		nf->tmp[0] = '\0';	/* it has its name: nothing to remove */
	}
	xls_newfile_abort(nf);
	if (rc)
		return xls_error_set(err, e == EEXIST ? XLS_EXIT_INPUT : XLS_EXIT_INTERNAL,
				     e == EEXIST ? "'%s' appeared while it was written: not "
				     "overwritten" : "cannot write '%s': %s", nf->path,
				     strerror(e));
	return 0;
}

void xls_newfile_abort(struct xls_newfile *nf)
{
	if (nf->f)
		fclose(nf->f);
	else if (nf->fd >= 0)
		close(nf->fd);
	if (nf->tmp[0])
		unlink(nf->tmp);
	nf->f = NULL;
	nf->fd = -1;
	nf->tmp[0] = '\0';
}

FILE *xls_spool_new(void)
{
	const char *dir;
	int fd = xls_tmpfile(&dir);
	FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

/*
 * The spool's bytes from @off on, by the kernel (sendfile): no copy
 * through this process.  Where sendfile cannot write to @to (an old
 * kernel, a socket of some kinds), false with *@off where it stopped, and
 * the rest goes through stdio.
 */
static bool spool_sendfile(int from, int to, off_t *off, off_t end)
{
	while (*off < end) {
		size_t chunk = (size_t)(end - *off) < (1u << 30) ? (size_t)(end - *off) : 1u << 30;
		ssize_t n = sendfile(to, from, off, chunk);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
	}
	return true;
}

int xls_unspool(FILE *spool, FILE *to)
{
	char buf[1 << 16];
	off_t off = 0, end;
	size_t n;

	if (fflush(spool) != 0 || fflush(to) != 0 || (end = ftello(spool)) < 0)
		return -1;
	if (spool_sendfile(fileno(spool), fileno(to), &off, end))
		return 0;
	if (fseeko(spool, off, SEEK_SET) != 0)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), spool)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return -1;
	return ferror(spool) ? -1 : 0;
}
