/*
 * Replay stage: the end of a replay -- the superblock read back, the work
 * left, the superblock and the clean log written in their durable order.
 */
#ifndef XLS_REPLAY_FINISH_H
#define XLS_REPLAY_FINISH_H

#include <stdbool.h>
#include "log/log.h"
#include "pass3/pass3.h"
#include "recover/recover.h"
#include "replay/commit.h"
#include "replay/write.h"

/* How a replay ends. */
struct xls_replay_finish_opts {
	/* clean the log whatever is left (--finish=repair; a forced replay past a failure) */
	bool	clean_anyway;
	/* pass 3 by the tool when it can (not with --finish=kernel) */
	bool	pass3;
	/* the intents recovery left, kept for it (keep_pending) */
	const struct xls_pending_intents *intents;
};

/* What the end of a replay did. */
struct xls_replay_end {
	bool	work;		/* recovery leaves work for pass 3 */
	bool	pending;	/* ... which the kernel's next mount finishes: log dirty */
	bool	pass3_done;	/* ... which pass 3 finished here */
	const char *pass3_not;	/* why pass 3 was not done here, when work is left */
	struct xls_pass3_result pass3;
	struct xls_pass3_commit_out commit;	/* ... its writes, logged first or not */
	bool	counters;	/* the superblock's counters summed from the AG headers */
	bool	log_cleaned;
};

/*
 * After recovery has written every item into @w: the superblock read back
 * (@s gets mount_fails_after); the work left done by pass 3 where it can;
 * then, unless work is still pending (or with @o->clean_anyway), the
 * superblock and the clean log of @log as found (@ht), each durable before
 * the next.  0, or -1 with @w's error set.
 */
int xls_replay_finish(struct xls_replay_write *w, const struct xls_log *log,
		      const struct xls_head_tail *ht, struct xls_recover_summary *s,
		      const struct xls_replay_finish_opts *o, struct xls_replay_end *end);

#endif /* XLS_REPLAY_FINISH_H */
