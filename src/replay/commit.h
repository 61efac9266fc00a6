/*
 * Replay stage: pass 3's writes, staged by it (pass3/stage.h), made as the
 * kernel makes its pass-3 work durable -- logged before they are written.
 * Each pass-3 checkpoint becomes a transaction in the log at the LSN its
 * blocks carry: the first at the head recovery found, with the done item
 * of every intent pass 3 finished; the second where the kernel's second
 * starts; in each, for every block stamped with its LSN, a buffer item of
 * the 128-byte chunks that differ from what pass 2 left.  Recovery
 * replaying them stamps each block with that LSN, as pass 3 stamped it.
 *
 * The records are written the last first: until the one at the head is
 * written the kernel finds the head where it was (what lies before the
 * rest is of the cycle before: xlog_find_verify_cycle), so an
 * interruption leaves the log as found -- whose recovery does pass 3
 * again -- or with both checkpoints whole, whose recovery writes their
 * blocks, the intents done.  Then the blocks are written.  Either way the
 * kernel, or replay run again, recovers to what an uninterrupted replay
 * leaves.
 */
#ifndef XLS_REPLAY_COMMIT_H
#define XLS_REPLAY_COMMIT_H

#include <stdbool.h>
#include <stdint.h>
#include "log/log.h"
#include "pass3/pass3.h"
#include "recover/recover.h"
#include "replay/write.h"

/* What pass 3 staged, and the log it is to go through. */
struct xls_pass3_commit_in {
	int		stage_fd;
	const struct xls_pass3_result *res;	/* its checkpoints: nckpts, ckpt_lsn[] */
	uint64_t	lsn;			/* the first checkpoint's: the head found */
	const struct xls_pending_intents *intents;	/* finished by the first */
	const struct xls_log *log;
	const struct xls_head_tail *found;	/* the log as found */
	bool		must_log;		/* in place: not logged, not written */
};

struct xls_pass3_commit_out {
	bool		logged;		/* the checkpoints are in the log ... */
	struct xls_head_tail head;	/* ... and the head is past them */
	uint64_t	log_blocks;	/* ... taking these blocks */
	char		not_logged[160];	/* why they are not, when not */
	uint64_t	blocks;		/* blocks written */
	uint64_t	dropped;	/* ... not: in ranges the kernel never writes (stale) */
};

/*
 * Pass 3's staged writes through @w: logged then written, or, where they
 * cannot be logged, written alone (into a copy) or not at all (with
 * @in->must_log: @out->not_logged says why, nothing written).  0, or -1
 * with @w's error set.
 */
int xls_pass3_commit(struct xls_replay_write *w, const struct xls_pass3_commit_in *in,
		     struct xls_pass3_commit_out *out);

#endif /* XLS_REPLAY_COMMIT_H */
