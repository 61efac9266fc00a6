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
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/fullio.h"
#include "replay/finish.h"

/*
 * Pass 3 through paths to the files replay holds open (OUT has no name
 * until it is whole): the work left done as the kernel's mount does it,
 * each block it writes stamped with the LSN of its pass-3 checkpoint --
 * staged, then logged and written as the kernel commits it (commit.h).
 */
static int run_pass3(struct xls_replay_write *w, const struct xls_log *log,
		     const struct xls_head_tail *ht, const struct xls_recover_summary *s,
		     const struct xls_pending_intents *in, struct xls_replay_end *end)
{
	char data[64], logp[64];
	const char *dir;
	int stage = xls_tmpfile(&dir), rc;
	struct xls_pass3_job job = {
		.g = &w->src->geo, .name = w->src->path, .data_path = data,
		.lsn = xls_lsn(ht->curr_cycle, ht->curr_block), .pending = &s->pending,
		.intents = in, .data_fd = w->fd, .log_fd = -1, .stage_fd = stage,
	};

	if (stage < 0)
		return xls_error_set(w->err, XLS_EXIT_INTERNAL, "pass 3: a temporary file in '%s' "
				     "(TMPDIR) to stage its writes: %s", dir, strerror(errno));
	snprintf(data, sizeof(data), "/proc/self/fd/%d", w->fd);
	if (w->log_fd != w->fd) {
		snprintf(logp, sizeof(logp), "/proc/self/fd/%d", w->log_fd);
		job.log_path = logp;
		job.log_fd = w->log_fd;
	}
	rc = xls_pass3_run(&job, &end->pass3, w->err);
	if (!rc && end->pass3.refused[0])
		end->pass3_not = end->pass3.refused;
	else if (!rc)
		rc = xls_pass3_commit(w, &(struct xls_pass3_commit_in){
					.stage_fd = stage, .res = &end->pass3, .lsn = job.lsn,
					.intents = in, .log = log, .found = ht,
					.must_log = w->in_place }, &end->commit);
	close(stage);
	if (rc || end->pass3_not)
		return rc;
	/* in place, what cannot be logged first is not written: left to the kernel */
	if (w->in_place && !end->commit.logged) {
		end->pass3_not = end->commit.not_logged;
		return 0;
	}
	end->pass3.blocks_written = end->commit.blocks;
	end->pass3.blocks_dropped = end->commit.dropped;
	end->pass3_done = true;
	end->pending = false;
	return 0;
}

int xls_replay_finish(struct xls_replay_write *w, const struct xls_log *log,
		      const struct xls_head_tail *ht, struct xls_recover_summary *s,
		      const struct xls_replay_finish_opts *o, struct xls_replay_end *end)
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
	end->pending = end->work && !s->fails && !o->clean_anyway && !s->mount_fails_after;
	/* every replayed block durable before the log says it is no longer needed */
	if (xls_replay_write_sync(w))
		return -1;
	if (end->pending) {
		end->pass3_not = !o->pass3 ? NULL :
			xls_pass3_refuses(&w->src->geo, &s->pending, o->intents, s->quota_flags);
		if (o->pass3 && !end->pass3_not && (run_pass3(w, log, ht, s, o->intents, end) ||
						    xls_replay_write_sync(w)))
			return -1;
	}
	if (end->pending || !dirty)
		return 0;
	if (xls_replay_write_superblock(w))
		return -1;
	end->counters = !s->mount_fails_after;
	/* the unmount record past pass 3's checkpoints, or where the kernel's last starts */
	if (end->commit.logged ? xls_replay_write_clean_log(w, log, &end->commit.head, 0) :
	    xls_replay_write_clean_log(w, log, ht, end->pass3_done ? end->pass3.last_lsn : 0))
		return -1;
	end->log_cleaned = true;
	return 0;
}
