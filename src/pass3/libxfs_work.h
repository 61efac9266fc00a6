/*
 * Pass 3 stage, libxfs side: what its files share (libxfs_pass3.c, the
 * mount-time work; libxfs_intents.c, the intents).  Included only by
 * files compiled with libxfs's headers.
 */
#ifndef XLS_LIBXFS_WORK_H
#define XLS_LIBXFS_WORK_H

#include "pass3/libxfs_hooks.h"
#include "pass3/libxfs_pass3.h"

/* An extent pass 3 freed: busy, in the kernel, until its checkpoint is on disk. */
struct freed_extent {
	xfs_agnumber_t	agno;
	xfs_agblock_t	agbno;
	xfs_extlen_t	len;
	uint32_t	ckpt;		/* the checkpoint that freed it */
};

/* The work under way: what it did, and the extents it freed. */
struct work {
	struct xls_libxfs_done	*done;
	struct freed_extent	*freed;
	uint32_t		nfreed, capfreed;
	int			error;		/* ENOMEM keeping one */
};

/* @error (an errno) is libxfs finding metadata corrupt: @d says so. */
static inline int failed_on(struct xls_libxfs_done *d, int error)
{
	if (error == EFSCORRUPTED || error == EFSBADCRC)
		d->corrupt = true;
	return error;
}

/*
 * Cancel @tp after @error: a clean one as libxfs cancels it; one that
 * holds changes or deferred work ends the child as the kernel's shutdown ends its pass 3
 * (xls_pass3_child_stop).
 */
static inline void cancel_failed(struct xfs_trans *tp, int error)
{
	/* dirty as xfs_trans_cancel counts it: changes, or deferred work attached */
	if ((tp->t_flags & XFS_TRANS_DIRTY) || !list_empty(&tp->t_dfops))
		xls_pass3_child_stop(error);
	libxfs_trans_cancel(tp);
}

/* Whether each of @job's intents can be finished here: else @w->done->refused says why. */
void xls_libxfs_intents_refused(struct xfs_mount *mp, const struct xls_libxfs_job *job,
				struct work *w);

/*
 * xlog_recover_process_intents: @job's intents finished as the kernel
 * finishes them, their follow-on work after the last.  0, or -1 with
 * @why set.
 */
int xls_libxfs_intents(struct xfs_mount *mp, const struct xls_libxfs_job *job, struct work *w,
		       char *why, size_t whysz);

/*
 * The kernel's pass-3 checkpoints (libxfs_ckpt.c): what libxfs logs
 * followed from _start to _stop, a commit at a time (_committed, from the
 * wraps of the commits and rolls); the done item of each recovered intent
 * added; _force ends a checkpoint as the kernel's log force does: 0, or
 * an errno (E2BIG past XLS_PASS3_CKPTS checkpoints; _error says whether
 * one happened since).  _stale: whether the buffer at a daddr was made
 * stale by a committed transaction, of the current checkpoint (pinned:
 * the kernel's xfs_buf_lock forces the log for one) or of an earlier one
 * (released: the kernel's cache has let it go; libxfs_busy.c).
 */
struct xls_ckpt_model *xls_libxfs_ckpt_start(struct xfs_mount *mp);
void xls_libxfs_ckpt_stop(void);
void xls_libxfs_ckpt_committed(void);
void xls_libxfs_ckpt_done_item(uint16_t type, uint32_t nextents);
int xls_libxfs_ckpt_force(void);
int xls_libxfs_ckpt_error(void);
/* the kernel would log what the model does not follow: EOPNOTSUPP, refused */
void xls_libxfs_ckpt_unfollowed(void);
enum xls_stale { XLS_NOT_STALE, XLS_STALE_PINNED, XLS_STALE_RELEASED };
enum xls_stale xls_libxfs_ckpt_stale(uint64_t daddr);

/*
 * The kernel's busy extents (libxfs_busy.c), from _start to _stop: the
 * allocator libxfs runs steps around what pass 3 freed until a log force
 * (_force: each of the checkpoint model's; the allocator's own end a
 * checkpoint there too).  _stop gives an errno (ENOMEM) if one was kept
 * short.
 * The allocator's four calls (libxfs_hooks.h) are defined there too.
 */
int xls_libxfs_busy_start(struct xfs_mount *mp);
void xls_libxfs_busy_force(void);
void xls_libxfs_busy_stop(int *error);

#endif /* XLS_LIBXFS_WORK_H */
