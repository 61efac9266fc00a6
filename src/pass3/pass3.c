/*
 * Pass 3 stage: the child process that runs libxfs, and the stamps on
 * what it writes.
 *
 * libxfs writes every buffer through pwrite64(); its archive is linked
 * with that symbol renamed to xls_pass3_pwrite64 (Makefile), which stamps
 * the buffer as the kernel's write verifier would after pass 3 -- the
 * checkpoint's LSN in the block's header, its CRC over that (the tool's
 * own xls_recover_stamp, as for pass 2's write-backs), and, in an inode
 * buffer, the LSN and CRC of each inode that changed -- then writes it.
 * libxfs calls it with no context of ours: the child's one static says
 * what to stamp with.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fullio.h"
#include "base/ondisk.h"
#include "pass3/libxfs_pass3.h"
#include "pass3/pass3.h"

const char *xls_pass3_unavailable(void)
{
#ifdef XLS_HAVE_LIBXFS
	return NULL;
#else
	return "this xfs_logscope was built without xfsprogs' libxfs (configure "
	       "--with-xfsprogs=DIR, or see build/libxfs/get.log)";
#endif
}

const char *xls_pass3_refuses(const struct xls_geometry *g, const struct xls_pending *p)
{
	uint64_t intents = 0;

	if (xls_pass3_unavailable())
		return xls_pass3_unavailable();
	for (int k = 0; k < XLS_PEND_KINDS; k++)
		intents += p->intents[k];
	if (p->log_only)
		return "without the data device the work left is not known";
	if (!g->crc)
		return "pass 3 is done for v5 filesystems only";
	if (intents || p->unlinked_buckets)
		return "pass 3 of intents and unlinked inodes is not in this xfs_logscope yet";
	return NULL;
}

/* ------------------------------------------------------------------ */
/* the stamps, in the child */

struct pass3_stamp {
	const struct xls_geometry *g;
	uint64_t		lsn;
	struct xls_pass3_result	*res;
};

static const struct pass3_stamp *child_stamp;

/*
 * The inodes of inode buffer @buf (@len bytes at @off of @fd) that differ
 * from the device's: the LSN their inode item would carry, and their CRC
 * (xfs_inode_to_disk at xfs_iflush: di_lsn, then xfs_dinode_calc_crc).
 */
static void stamp_inodes(const struct pass3_stamp *s, int fd, uint8_t *buf, size_t len,
			 uint64_t off)
{
	uint32_t isize = s->g->inode_size;
	uint8_t *old = malloc(len);
	size_t done;

	if (!old)
		return;
	if (xls_pread_fully(fd, off, old, len, &done) && done < len)
		memset(old + done, 0, len - done);
	for (uint32_t slot = 0; (size_t)(slot + 1) * isize <= len; slot++) {
		uint8_t *dip = buf + (size_t)slot * isize;

		if (!memcmp(dip, old + (size_t)slot * isize, isize) ||
		    xls_be16(dip) != XFS_DINODE_MAGIC || dip[offsetof(struct xfs_dinode, di_version)] < 3)
			continue;
		for (int b = 0; b < 8; b++)
			dip[offsetof(struct xfs_dinode, di_lsn) + b] =
				(uint8_t)(s->lsn >> (56 - 8 * b));
		xls_recover_inode_crc(buf, (uint32_t)len, isize, slot);
		s->res->inodes_stamped++;
	}
	free(old);
}

ssize_t xls_pass3_pwrite64(int fd, const void *buf, size_t len, off_t off);

ssize_t xls_pass3_pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	const struct pass3_stamp *s = child_stamp;
	uint8_t *copy;
	ssize_t n;

	if (!s || off < 0 || len < 2 || len > XFS_MAX_BLOCKSIZE)
		return pwrite(fd, buf, len, off);
	copy = malloc(len);
	if (!copy) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(copy, buf, len);
	if (xls_be16(copy) == XFS_DINODE_MAGIC && s->g->inode_size &&
	    len % s->g->inode_size == 0)
		stamp_inodes(s, fd, copy, len, (uint64_t)off);
	else
		xls_recover_stamp(s->g, copy, (uint32_t)len, s->lsn);
	s->res->blocks_written++;
	n = pwrite(fd, copy, len, off);
	free(copy);
	return n;
}

/* ------------------------------------------------------------------ */
/* the child */

/* The child's report: its result, and why it failed ("" when it did not). */
struct pass3_report {
	struct xls_pass3_result	res;
	int			status;
	char			why[256];
};

static void run_child(const struct xls_pass3_job *job, int out)
{
	struct pass3_report rep;
	struct pass3_stamp s = { job->g, job->lsn, &rep.res };
	size_t done = 0;

	memset(&rep, 0, sizeof(rep));
	child_stamp = &s;
#ifdef XLS_HAVE_LIBXFS
	{
		struct xls_libxfs_job lj = {
			.data_path = job->data_path, .log_path = job->log_path,
			.cow = job->pending->cow_extents != 0,
		};
		struct xls_libxfs_done d = { 0 };

		rep.status = xls_pass3_libxfs(&lj, &d, rep.why, sizeof(rep.why));
		rep.res.cow_extents = d.cow_extents;
		rep.res.cow_blocks = d.cow_blocks;
	}
#else
	rep.status = -1;
#endif
	child_stamp = NULL;
	while (done < sizeof(rep)) {
		ssize_t n = write(out, (const char *)&rep + done, sizeof(rep) - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	_exit(rep.status ? 1 : 0);
}

/* The child's report from pipe @in, whole, or -1. */
static int read_report(int in, struct pass3_report *rep)
{
	size_t got = 0;

	while (got < sizeof(*rep)) {
		ssize_t n = read(in, (char *)rep + got, sizeof(*rep) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

int xls_pass3_run(const struct xls_pass3_job *job, struct xls_pass3_result *res,
		  struct xls_error *err)
{
	struct pass3_report rep;
	int fds[2], wstatus = 0, got;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (xls_pass3_unavailable())
		return xls_error_set(err, XLS_EXIT_INTERNAL, "pass 3: %s", xls_pass3_unavailable());
	if (pipe(fds))
		return xls_error_set(err, XLS_EXIT_INTERNAL, "pass 3: pipe: %s", strerror(errno));
	/* what stdio holds is written once, not once more by the child */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return xls_error_set(err, XLS_EXIT_INTERNAL, "pass 3: fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
		run_child(job, fds[1]);
	}
	close(fds[1]);
	got = read_report(fds[0], &rep);
	close(fds[0]);
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(wstatus))
		return xls_error_set(err, XLS_EXIT_INTERNAL, "pass 3 on '%s': libxfs died of "
				     "signal %d (%s)", job->data_path, WTERMSIG(wstatus),
				     strsignal(WTERMSIG(wstatus)));
	if (got)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "pass 3 on '%s': libxfs exited "
				     "(status %d) before it reported", job->data_path,
				     WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
	if (rep.status)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "pass 3 on '%s': %s",
				     job->data_path, rep.why);
	*res = rep.res;
	return 0;
}
