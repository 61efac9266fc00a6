/*
 * Pass 3 stage: what the kernel does once it has replayed the log
 * (xfs_log_mount_finish and the mount around it), done on the filesystem
 * pass 2 wrote, with xfsprogs' libxfs: the one stage that includes its
 * headers and calls it (src/pass3/libxfs_*.c), in a child process, since
 * libxfs keeps global state and exits or aborts on what it cannot handle.
 *
 * Every block it writes is stamped as the kernel's write verifiers stamp
 * it: the LSN of the pass-3 checkpoint that logged it last, its CRC over
 * that.  The kernel's first pass-3 checkpoint starts at the head recovery
 * found; where all the work fits in one, that is every block's LSN.
 */
#ifndef XLS_PASS3_H
#define XLS_PASS3_H

#include <stdbool.h>
#include <stdint.h>
#include "base/err.h"
#include "pass3/libxfs_pass3.h"
#include "recover/recover.h"
#include "source/source.h"

/* What pass 3 is asked to do, and where. */
struct xls_pass3_job {
	const struct xls_geometry *g;
	const char	*name;		/* the input, as errors name it */
	const char	*data_path;	/* the filesystem pass 2 wrote: OUT */
	const char	*log_path;	/* an external log's copy, or NULL */
	int		data_fd, log_fd;	/* the same, open (-1: none) */
	/*
	 * A temporary file, empty, where every write pass 3 makes is staged
	 * (pass3/stage.h) and not made: the caller makes them.
	 */
	int		stage_fd;
	uint64_t	lsn;		/* the pass-3 checkpoint's: the head recovery found */
	const struct xls_pending *pending;	/* the work, as recovery counted it */
	const struct xls_pending_intents *intents;	/* ... the intents, in order */
};

/* What it did. */
struct xls_pass3_result {
	struct xls_pass3_counts n;	/* kind by kind */
	uint64_t	blocks_written;	/* buffers written, each stamped (by the caller) */
	uint64_t	blocks_dropped;	/* ... not: stale, as the kernel's (by the caller) */
	uint64_t	inodes_stamped;	/* inodes of inode buffers staged, stamped */
	/*
	 * The kernel's pass-3 checkpoints: their LSNs (the first at the head
	 * recovery found; one that logged nothing has the next one's), the
	 * blocks the first takes in the log when others follow (0: one), the
	 * LSN of the last; the clean log's unmount record goes there, past
	 * every block's LSN.
	 */
	uint32_t	nckpts;
	uint64_t	ckpt_lsn[XLS_PASS3_CKPTS];
	uint64_t	ckpt_blocks;
	uint64_t	last_lsn;
	/* it failed: on metadata libxfs found corrupt, as the kernel's pass 3 would */
	bool		corrupt;
	/* nothing done: what the work holds that this pass 3 does not do */
	char		refused[160];
};

/* NULL when this build can run pass 3, else why not (a sentence). */
const char *xls_pass3_unavailable(void);

/* What pass 3 runs ("xfsprogs' libxfs 6.13.0"), or NULL: see xls_pass3_unavailable. */
const char *xls_pass3_build(void);

/*
 * NULL when pass 3 can finish all of @p's work on @g (the intents @in),
 * mounted with quota @quota_flags (m_qflags), as the kernel would, else
 * why not: the kinds it does not do yet are left to the kernel.
 */
const char *xls_pass3_refuses(const struct xls_geometry *g, const struct xls_pending *p,
			      const struct xls_pending_intents *in, uint16_t quota_flags);

/*
 * Run pass 3: 0 with @res filled, or -1 with @err set (nothing of it is
 * then to be trusted: the caller's output is dropped).
 */
int xls_pass3_run(const struct xls_pass3_job *job, struct xls_pass3_result *res,
		  struct xls_error *err);

#endif /* XLS_PASS3_H */
