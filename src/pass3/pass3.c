/*
 * Pass 3 stage: the child process that runs libxfs, and the stamps on
 * what it writes.
 *
 * libxfs writes every buffer through pwrite64() and reads through
 * pread64(); its archive is linked with those symbols renamed to
 * xls_pass3_pwrite64 and xls_pass3_pread64 (Makefile).  A write is stamped
 * as the kernel's write verifier would stamp it after pass 3 -- the
 * checkpoint's LSN in the block's header, its CRC over that (the tool's
 * own xls_recover_stamp, as for pass 2's write-backs), and, in an inode
 * buffer, the LSN and CRC of each inode that changed -- then staged, not
 * made (stage.h): the caller logs it before it writes it.  A read sees
 * what was staged.  libxfs calls them with no context of ours: the
 * child's one static says what to stamp with and where to stage.
 */
#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fullio.h"
#include "base/vec.h"
#include "base/ondisk.h"
#include "pass3/child.h"
#include "pass3/libxfs_pass3.h"
#include "pass3/pass3.h"
#include "pass3/stage.h"

const char *xls_pass3_unavailable(void)
{
#ifdef XLS_HAVE_LIBXFS
	return NULL;
#else
	return "this xfs_logscope was built without xfsprogs' libxfs (configure "
	       "--with-xfsprogs=DIR, or see build/libxfs/get.log)";
#endif
}

const char *xls_pass3_build(void)
{
#ifdef XLS_HAVE_LIBXFS
	return "xfsprogs' libxfs " XLS_XFSPROGS_VERSION;
#else
	return NULL;
#endif
}

/* The intents pass 3 finishes here: the kernel's ones of the data device. */
static bool finished_here(uint16_t type)
{
	return type == XFS_LI_EFI || type == XFS_LI_RUI || type == XFS_LI_CUI ||
	       type == XFS_LI_BUI || type == XFS_LI_XMI || type == XFS_LI_ATTRI;
}

const char *xls_pass3_refuses(const struct xls_geometry *g, const struct xls_pending *p,
			      const struct xls_pending_intents *in, uint16_t quota_flags)
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
	if (intents && (!in || in->n != intents))
		return "the intents left were not kept for pass 3";
	for (uint32_t i = 0; in && i < in->n; i++)
		if (!finished_here(in->in[i].type))
			return "pass 3 of realtime intents is not in this "
			       "xfs_logscope yet";

	if (p->unlinked_broken)
		return "an unlinked chain ends on no inode or loops";
	/* the kernel's inactivation takes the inodes' blocks off their dquots; libxfs keeps none */
	if (p->unlinked_inodes &&
	    (quota_flags & (XFS_UQUOTA_ACCT | XFS_GQUOTA_ACCT | XFS_PQUOTA_ACCT)))
		return "unlinked inodes on a mount with quota: the dquots they are charged to "
		       "are not kept by this pass 3";
	return NULL;
}

/* ------------------------------------------------------------------ */
/* the stamps, in the child */

struct pass3_stamp {
	const struct xls_geometry *g;
	uint64_t		lsn;		/* the first pass-3 checkpoint's */
	struct xls_pass3_result	*res;
	/* What libxfs's pass 3 is doing, while it runs: its checkpoints */
	const struct xls_libxfs_done *done;
	struct xls_stage	*stage;
};

static struct pass3_stamp *child_stamp;

/*
 * The LSN of pass-3 checkpoint @ckpt: the first's at the head recovery
 * found, each next one as many blocks further as the one before takes in
 * the log, past its physical end in the next cycle.
 */
static uint64_t ckpt_lsn(const struct pass3_stamp *s, uint32_t ckpt)
{
	uint32_t cycle = xls_lsn_cycle(s->lsn), nblks = s->g->log_bbs;
	uint64_t blk = xls_lsn_block(s->lsn);

	if (!ckpt || !s->done || !nblks)
		return s->lsn;
#ifdef XLS_HAVE_LIBXFS
	for (uint32_t k = 0; k < ckpt; k++)
		blk += xls_libxfs_ckpt_blocks(s->done->ckpt, k);
#endif
	while (blk >= nblks) {
		blk -= nblks;
		if (++cycle == XLOG_HEADER_MAGIC_NUM)
			cycle++;
	}
	return xls_lsn(cycle, (uint32_t)blk);
}

/* Which pass-3 checkpoint last logged the block at @daddr, the inode @ino. */
static uint32_t ckpt_of_block(const struct pass3_stamp *s, uint64_t daddr)
{
#ifdef XLS_HAVE_LIBXFS
	return s->done ? xls_libxfs_ckpt_of_block(s->done->ckpt, daddr) : 0;
#else
	(void)s, (void)daddr;
	return 0;
#endif
}

static uint32_t ckpt_of_inode(const struct pass3_stamp *s, uint64_t ino)
{
#ifdef XLS_HAVE_LIBXFS
	return s->done ? xls_libxfs_ckpt_of_inode(s->done->ckpt, ino) : 0;
#else
	(void)s, (void)ino;
	return 0;
#endif
}

/*
 * The inodes of inode buffer @buf (@len bytes, @old on the device before)
 * that differ from the device's: the LSN their inode item would carry,
 * and their CRC (xfs_inode_to_disk at xfs_iflush: di_lsn, then
 * xfs_dinode_calc_crc).
 */
static void stamp_inodes(const struct pass3_stamp *s, uint8_t *buf, const uint8_t *old,
			 size_t len)
{
	uint32_t isize = s->g->inode_size;

	for (uint32_t slot = 0; (size_t)(slot + 1) * isize <= len; slot++) {
		uint8_t *dip = buf + (size_t)slot * isize;
		uint64_t lsn;

		if (!memcmp(dip, old + (size_t)slot * isize, isize) ||
		    xls_be16(dip) != XFS_DINODE_MAGIC || dip[offsetof(struct xfs_dinode, di_version)] < 3)
			continue;
		lsn = ckpt_lsn(s, ckpt_of_inode(s, xls_be64(dip + offsetof(struct xfs_dinode,
									       di_ino))));
		for (int b = 0; b < 8; b++)
			dip[offsetof(struct xfs_dinode, di_lsn) + b] = (uint8_t)(lsn >> (56 - 8 * b));
		xls_recover_inode_crc(buf, (uint32_t)len, isize, slot);
		s->res->inodes_stamped++;
	}
}

ssize_t xls_pass3_pwrite64(int fd, const void *buf, size_t len, off_t off);

ssize_t xls_pass3_pwrite64(int fd, const void *buf, size_t len, off_t off);
ssize_t xls_pass3_pread64(int fd, void *buf, size_t len, off_t off);

ssize_t xls_pass3_pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	struct pass3_stamp *s = child_stamp;
	int dev = s && off >= 0 ? xls_stage_dev(s->stage, fd) : -1;
	uint8_t *copy, *old;
	uint32_t ckpt = 0;
	ssize_t n = -1;

	/* what is not a device (libxfs's in-memory files) is written as asked */
	if (dev < 0)
		return pwrite(fd, buf, len, off);
	if (len < 2 || len > XFS_MAX_BLOCKSIZE) {
		errno = EINVAL;
		return -1;
	}
	copy = malloc(2 * len);
	if (!copy) {
		errno = ENOMEM;
		return -1;
	}
	old = copy + len;
	memcpy(copy, buf, len);
	if (xls_pass3_pread64(fd, old, len, off) != (ssize_t)len)
		memset(old, 0, len);
	if (xls_be16(copy) == XFS_DINODE_MAGIC && s->g->inode_size &&
	    len % s->g->inode_size == 0) {
		stamp_inodes(s, copy, old, len);
	} else {
		ckpt = ckpt_of_block(s, (uint64_t)off >> BBSHIFT);
		xls_recover_stamp(s->g, copy, (uint32_t)len, ckpt_lsn(s, ckpt));
	}
	if (!xls_stage_write(s->stage, dev, (uint64_t)off, copy, len, ckpt))
		n = (ssize_t)len;
	free(copy);
	return n;
}

/* libxfs's reads: of the devices, what it staged laid over what they hold. */
ssize_t xls_pass3_pread64(int fd, void *buf, size_t len, off_t off)
{
	struct pass3_stamp *s = child_stamp;
	int dev = s && off >= 0 ? xls_stage_dev(s->stage, fd) : -1;
	ssize_t n = pread(fd, buf, len, off);

	if (dev < 0 || n <= 0)
		return n;
	return xls_stage_overlay(s->stage, dev, (uint64_t)off, buf, (size_t)n) ? -1 : n;
}

/* ------------------------------------------------------------------ */
/* the child */


#ifdef XLS_HAVE_LIBXFS
/* One extent, the same for the tool as for libxfs's side: passed as it is. */
static_assert(sizeof(struct xls_map_extent) == sizeof(struct xls_libxfs_extent) &&
	      offsetof(struct xls_map_extent, owner) == offsetof(struct xls_libxfs_extent, owner) &&
	      offsetof(struct xls_map_extent, startblock) ==
	      offsetof(struct xls_libxfs_extent, startblock) &&
	      offsetof(struct xls_map_extent, startoff) ==
	      offsetof(struct xls_libxfs_extent, startoff) &&
	      offsetof(struct xls_map_extent, len) == offsetof(struct xls_libxfs_extent, len) &&
	      offsetof(struct xls_map_extent, flags) == offsetof(struct xls_libxfs_extent, flags),
	      "xls_map_extent and xls_libxfs_extent differ");
/* ... and one exchange */
#define SAME_FIELD(f) (offsetof(struct xls_map_exchange, f) == \
		       offsetof(struct xls_libxfs_exchange, f))
static_assert(sizeof(struct xls_map_exchange) == sizeof(struct xls_libxfs_exchange) &&
	      SAME_FIELD(inode1) && SAME_FIELD(inode2) && SAME_FIELD(startoff1) &&
	      SAME_FIELD(startoff2) && SAME_FIELD(blockcount) && SAME_FIELD(flags) &&
	      SAME_FIELD(isize1) && SAME_FIELD(isize2) && SAME_FIELD(igen1) && SAME_FIELD(igen2),
	      "xls_map_exchange and xls_libxfs_exchange differ");
#undef SAME_FIELD
/* ... and one ATTRI */
#define SAME_FIELD(f) (offsetof(struct xls_map_attr, f) == offsetof(struct xls_libxfs_attr, f))
static_assert(sizeof(struct xls_map_attr) == sizeof(struct xls_libxfs_attr) &&
	      SAME_FIELD(ino) && SAME_FIELD(igen) && SAME_FIELD(op_flags) &&
	      SAME_FIELD(attr_filter) && SAME_FIELD(name_len) && SAME_FIELD(new_name_len) &&
	      SAME_FIELD(value_len) && SAME_FIELD(bytes),
	      "xls_map_attr and xls_libxfs_attr differ");
#undef SAME_FIELD

/*
 * libxfs's pass 3, its writes staged; the ranges the kernel never writes
 * said last.
 */
static void run_libxfs(const struct xls_pass3_job *job, struct pass3_stamp *s,
		       struct pass3_report *rep)
{
	struct xls_libxfs_job lj = {
		.data_path = job->data_path, .log_path = job->log_path,
		.cow = job->pending->cow_extents != 0,
		.iunlinks = job->pending->unlinked_buckets != 0,
	};
	struct xls_libxfs_intent *in = NULL;
	uint32_t n = job->intents ? job->intents->n : 0;

	if (n && !(in = calloc(n, sizeof(*in)))) {
		snprintf(rep->why, sizeof(rep->why), "out of memory for the %u intents", n);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct xls_pending_intent *p = &job->intents->in[i];

		in[i] = (struct xls_libxfs_intent){ p->type, p->id, p->first, p->count };
	}
	lj.intents = in;
	lj.nintents = n;
	lj.ext = n ? (const struct xls_libxfs_extent *)job->intents->ext : NULL;
	lj.xmi = n ? (const struct xls_libxfs_exchange *)job->intents->xmi : NULL;
	lj.attr = n ? (const struct xls_libxfs_attr *)job->intents->attr : NULL;
	lj.bytes = n ? job->intents->bytes.p : NULL;
	struct xls_libxfs_done d = { 0 };

	s->done = &d;
	rep->status = xls_pass3_libxfs(&lj, &d, rep->why, sizeof(rep->why));
	rep->res.nckpts = xls_libxfs_ckpt_count(d.ckpt) + 1;
	for (uint32_t k = 0; k < rep->res.nckpts && k < XLS_PASS3_CKPTS; k++)
		rep->res.ckpt_lsn[k] = ckpt_lsn(s, k);
	rep->res.ckpt_blocks = rep->res.nckpts > 1 ? xls_libxfs_ckpt_blocks(d.ckpt, 0) : 0;
	rep->res.last_lsn = rep->res.ckpt_lsn[rep->res.nckpts - 1];
	rep->res.corrupt = d.corrupt;
	s->done = NULL;
	for (uint32_t i = 0; !rep->status && i < d.nstale; i++)
		if (xls_stage_stale(s->stage, d.stale[i].off, d.stale[i].len)) {
			snprintf(rep->why, sizeof(rep->why), "staging its writes: %s",
				 strerror(errno));
			rep->status = -1;
		}
	rep->res.n = d.n;
	xls_libxfs_ckpt_free(d.ckpt);
	free(in);
	snprintf(rep->res.refused, sizeof(rep->res.refused), "%s", d.refused);
	xls_vec_free(d.stale);
}
#endif

static void run_child(const struct xls_pass3_job *job, int out)
{
	struct pass3_report rep;
	struct xls_stage stage;
	struct pass3_stamp s = { job->g, job->lsn, &rep.res, NULL, &stage };

	memset(&rep, 0, sizeof(rep));
	rep.status = -1;
	if (xls_stage_init(&stage, job->stage_fd, job->data_fd, job->log_fd)) {
		snprintf(rep.why, sizeof(rep.why), "the devices to stage its writes for: %s",
			 strerror(errno));
	} else {
		child_stamp = &s;
		xls_pass3_child_begin(&rep, out);
#ifdef XLS_HAVE_LIBXFS
		run_libxfs(job, &s, &rep);
#endif
	}
	child_stamp = NULL;
	xls_pass3_child_send(out, &rep);
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
				     "signal %d (%s)", job->name ? job->name : job->data_path,
				     WTERMSIG(wstatus),
				     strsignal(WTERMSIG(wstatus)));
	if (got)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "pass 3 on '%s': libxfs exited "
				     "(status %d) before it reported",
				     job->name ? job->name : job->data_path,
				     WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
	if (rep.status && rep.res.corrupt)
		return xls_error_set(err, XLS_EXIT_FINDINGS, "'%s': pass 3 meets corrupt metadata "
				     "(%s), where the kernel's own pass 3 fails too; nothing written: "
				     "replay --finish=kernel writes what pass 2 leaves, for "
				     "xfs_repair", job->name ? job->name : job->data_path, rep.why);
	if (rep.status)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "'%s': pass 3: %s",
				     job->name ? job->name : job->data_path, rep.why);
	*res = rep.res;
	return 0;
}
