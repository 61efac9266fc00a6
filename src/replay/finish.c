/*
 * Replay stage: the end of a replay, as the kernel's mount and unmount
 * end a recovery -- and, in place, in the order that keeps an
 * interruption safe.
 *
 * The kernel reads the superblock back once recovery is done, pending
 * work or not; a growfs the device no longer holds then fails the mount,
 * which cancels the work left and cleans the log on its way out
 * (xfs_log_mount_cancel).  Work left (intents, unlinked inodes, CoW
 * staging extents, which the kernel frees only after it recovered a log:
 * xfs_reflink_recover_cow from xlog_recover_finish) keeps the log dirty
 * for the kernel's next mount, unless the caller cleans it anyway
 * (--finish=repair, or a forced replay past a failure: xfs_repair goes on
 * from there).  Otherwise the superblock as the unmount writes it, then
 * the clean log, each step durable before the next: every replayed block
 * before the superblock, the superblock before the log, whose unmount
 * record comes last, so that until it is written whole the log is as it
 * was found and recovers to the same.
 */
#include "replay/finish.h"

int xls_replay_finish(struct xls_replay_write *w, const struct xls_log *log,
		      const struct xls_head_tail *ht, struct xls_recover_summary *s,
		      bool clean_anyway, struct xls_replay_end *end)
{
	bool dirty = ht->state == XLS_LOG_DIRTY;

	*end = (struct xls_replay_end){ 0 };
	if (dirty && xls_replay_write_check_sb(w))
		return -1;
	/* what the copy holds decides; the dry run's simulation said the same */
	s->mount_fails_after = dirty && w->sb_past_device;
	s->mount_fail_ag = w->sb_past_ag;
	s->mount_fail_sb_bytes = w->sbgeo.dblocks * w->sbgeo.blocksize;
	w->quota_reset = s->quota_reset;
	end->work = s->pending_work != 0;
	end->pending = end->work && !s->fails && !clean_anyway && !s->mount_fails_after;
	/* every replayed block durable before the log says it is no longer needed */
	if (xls_replay_write_sync(w))
		return -1;
	if (end->pending || !dirty)
		return 0;
	if (xls_replay_write_superblock(w))
		return -1;
	end->counters = !s->mount_fails_after;
	if (xls_replay_write_clean_log(w, log, ht))
		return -1;
	end->log_cleaned = true;
	return 0;
}
