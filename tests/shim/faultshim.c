/*
 * faultshim.so: I/O faults for the tests, by LD_PRELOAD.  Shares no code
 * with xfs_logscope.
 *
 *   XLS_FAULT=OP:N:ACTION   the Nth call of OP on a matching file does ACTION
 *     OP      read (read, pread, preadv), write (write, pwrite,
 *             copy_file_range, FICLONE), sync (fsync, fdatasync)
 *     ACTION  eio, enospc (writes), short (half the bytes, once), shrink
 *             (reads: end of file from then on), kill (SIGKILL before it),
 *             count (nothing: the calls are counted)
 *   XLS_FAULT_PATH=S        a file matches when its path contains S
 *   XLS_FAULT_COUNT=FILE    at exit, "reads N writes N syncs N" into FILE
 *
 * FICLONE and copy_file_range are refused when XLS_FAULT is set, so that
 * every byte a copy moves goes through a write that can fail.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

enum { OP_READ, OP_WRITE, OP_SYNC, OP_N };
static const char *const op_names[OP_N] = { "read", "write", "sync" };
static long counts[OP_N];
static int fault_op = -1;
static long fault_n;
static char fault_action[16];
static int shrunk;

static void parse(void)
{
	static int done;
	const char *s = getenv("XLS_FAULT");
	char op[16];

	if (done)
		return;
	done = 1;
	if (!s || sscanf(s, "%15[a-z]:%ld:%15[a-z]", op, &fault_n, fault_action) != 3)
		return;
	for (int i = 0; i < OP_N; i++)
		if (!strcmp(op, op_names[i]))
			fault_op = i;
}

static void report(void) __attribute__((destructor));
static void report(void)
{
	const char *f = getenv("XLS_FAULT_COUNT");
	FILE *out;

	if (!f || !(out = fopen(f, "w")))
		return;
	fprintf(out, "reads %ld writes %ld syncs %ld\n", counts[OP_READ], counts[OP_WRITE],
		counts[OP_SYNC]);
	fclose(out);
}

static int matches(int fd)
{
	const char *want = getenv("XLS_FAULT_PATH");
	char link[64], path[4096];
	ssize_t n;

	if (!want || !*want)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return 0;
	path[n] = '\0';
	return strstr(path, want) != NULL;
}

/* 0: go on; else the action to take on this call */
static const char *fault(int op, int fd)
{
	long n;

	parse();
	if (!matches(fd))
		return NULL;
	n = __atomic_add_fetch(&counts[op], 1, __ATOMIC_RELAXED);
	if (op == OP_READ && shrunk)
		return "shrink";
	if (op != fault_op || n != fault_n)
		return NULL;
	if (!strcmp(fault_action, "kill"))
		raise(SIGKILL);
	if (!strcmp(fault_action, "shrink"))
		shrunk = 1;
	return strcmp(fault_action, "count") ? fault_action : NULL;
}

/* The errno an action sets, or 0 when it is no error. */
static int fault_errno(const char *a)
{
	if (!a)
		return 0;
	if (!strcmp(a, "eio"))
		return EIO;
	if (!strcmp(a, "enospc"))
		return ENOSPC;
	return 0;
}

#define REAL(name) \
	static __typeof__(name) *real_##name; \
	if (!real_##name) \
		real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

/*
 * The fault one call of @op on @fd takes, before the real call: -1 (errno
 * set) or 0 (end of file) to return at once, 1 to make the call, with
 * *@len halved for "short".
 */
static int take_fault(int op, int fd, size_t *len)
{
	const char *a = fault(op, fd);

	if (fault_errno(a))
		return errno = fault_errno(a), -1;
	if (a && !strcmp(a, "shrink"))
		return 0;
	if (a && !strcmp(a, "short") && *len > 1)
		*len /= 2;
	return 1;
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	int f = take_fault(OP_READ, fd, &len);
	REAL(pread);

	return f <= 0 ? f : real_pread(fd, buf, len, off);
}

ssize_t pread64(int fd, void *buf, size_t len, off_t off) __attribute__((alias("pread")));

ssize_t read(int fd, void *buf, size_t len)
{
	int f = take_fault(OP_READ, fd, &len);
	REAL(read);

	return f <= 0 ? f : real_read(fd, buf, len);
}

ssize_t preadv(int fd, const struct iovec *iov, int cnt, off_t off)
{
	size_t n = cnt > 0 ? (size_t)cnt : 0;
	int f = take_fault(OP_READ, fd, &n);
	REAL(preadv);

	return f <= 0 ? f : real_preadv(fd, iov, (int)n, off);
}

ssize_t preadv64(int fd, const struct iovec *iov, int cnt, off_t off)
	__attribute__((alias("preadv")));

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	int f = take_fault(OP_WRITE, fd, &len);
	REAL(pwrite);

	return f <= 0 ? f : real_pwrite(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off) __attribute__((alias("pwrite")));

ssize_t write(int fd, const void *buf, size_t len)
{
	int f = take_fault(OP_WRITE, fd, &len);
	REAL(write);

	return f <= 0 ? f : real_write(fd, buf, len);
}

ssize_t copy_file_range(int in, loff_t *a, int out, loff_t *b, size_t len, unsigned int flags)
{
	(void)in; (void)a; (void)out; (void)b; (void)len; (void)flags;
	return errno = EXDEV, -1;
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	REAL(ioctl);

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == FICLONE && getenv("XLS_FAULT"))
		return errno = EOPNOTSUPP, -1;
	return real_ioctl(fd, req, arg);
}

/*
 * stdio writes reach write(2) inside glibc, past LD_PRELOAD: a FILE's
 * fwrite and fflush are faulted here, and a FILE that failed stays in
 * error, as glibc's error flag keeps it (ferror).
 */
static FILE *failed_files[16];
static int failed_errno;

static void poison(FILE *f, int e)
{
	for (int i = 0; i < 16; i++)
		if (!failed_files[i] || failed_files[i] == f) {
			failed_files[i] = f;
			break;
		}
	failed_errno = e;
}

static int poisoned(FILE *f)
{
	for (int i = 0; i < 16; i++)
		if (f && failed_files[i] == f)
			return 1;
	return 0;
}

size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	const char *a = fault(OP_WRITE, fileno(f));
	REAL(fwrite);

	if (fault_errno(a)) {
		poison(f, fault_errno(a));
		errno = fault_errno(a);
		return 0;
	}
	return real_fwrite(p, size, n, f);
}

int fflush(FILE *f)
{
	const char *a = f ? fault(OP_WRITE, fileno(f)) : NULL;
	REAL(fflush);

	if (fault_errno(a))
		poison(f, fault_errno(a));
	if (poisoned(f)) {
		real_fflush(f);
		errno = failed_errno;
		return EOF;
	}
	return real_fflush(f);
}

int ferror(FILE *f)
{
	REAL(ferror);

	return poisoned(f) || real_ferror(f);
}

int fclose(FILE *f)
{
	int bad = poisoned(f);
	REAL(fclose);

	for (int i = 0; i < 16; i++)
		if (failed_files[i] == f)
			failed_files[i] = NULL;
	return real_fclose(f) || bad ? (errno = bad ? failed_errno : errno, EOF) : 0;
}

int fdatasync(int fd)
{
	const char *a = fault(OP_SYNC, fd);
	REAL(fdatasync);

	if (fault_errno(a))
		return errno = fault_errno(a), -1;
	return real_fdatasync(fd);
}

int fsync(int fd)
{
	const char *a = fault(OP_SYNC, fd);
	REAL(fsync);

	if (fault_errno(a))
		return errno = fault_errno(a), -1;
	return real_fsync(fd);
}
