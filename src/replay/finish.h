/*
 * Replay stage: the end of a replay -- the superblock read back, the work
 * left, the superblock and the clean log written in their durable order.
 */
#ifndef XLS_REPLAY_FINISH_H
#define XLS_REPLAY_FINISH_H

#include <stdbool.h>
#include "log/log.h"
#include "recover/recover.h"
#include "replay/write.h"

/* What the end of a replay did. */
struct xls_replay_end {
	bool	work;		/* recovery leaves work for pass 3 */
	bool	pending;	/* ... which the kernel's next mount finishes: log dirty */
	bool	counters;	/* the superblock's counters summed from the AG headers */
	bool	log_cleaned;
};

/*
 * After recovery has written every item into @w: the superblock read back
 * (@s gets mount_fails_after), then, unless work is pending (or with
 * @clean_anyway), the superblock and the clean log of @log as found
 * (@ht), each durable before the next.  0, or -1 with @w's error set.
 */
int xls_replay_finish(struct xls_replay_write *w, const struct xls_log *log,
		      const struct xls_head_tail *ht, struct xls_recover_summary *s,
		      bool clean_anyway, struct xls_replay_end *end);

#endif /* XLS_REPLAY_FINISH_H */
