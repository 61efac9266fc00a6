/*
 * replay -o OUT: the filesystem as kernel log recovery leaves it, written
 * into a new file without mounting, on any machine and for a log of either
 * byte order.  The input is only read; OUT (and the external log's copy)
 * appear whole or not at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strfmt.h"
#include "cmd/cmd.h"
#include "replay/copy.h"
#include "replay/write.h"
#include "report/verdict.h"

struct replay_run {
	struct xls_cmd		*c;
	struct xls_newfile	out, logout;
	bool			has_logout;
	struct xls_replay_write	w;
	struct xls_recover_summary sum;
	/* what was done after recovery */
	bool			log_cleaned;
	bool			counters;
	const char		*next;		/* what the user must do next, or NULL */
};

/* -o and --log-out: where the copies go, checked before anything is read. */
static int check_outputs(const struct xls_options *opt, struct xls_error *err)
{
	if (!opt->out_path)
		return xls_error_set(err, XLS_EXIT_USAGE, "replay needs -o OUT, the file to write "
				     "the recovered filesystem to");
	if (opt->src.bare_log)
		return xls_error_set(err, XLS_EXIT_USAGE, "replay writes a filesystem: '%s' is a "
				     "bare log (-f), with no filesystem to replay it into",
				     opt->src.path);
	if (opt->log_out_path && !opt->src.logdev)
		return xls_error_set(err, XLS_EXIT_USAGE, "--log-out is the copy of an external "
				     "log (-l LOGDEV); this filesystem's log is internal");
	if (xls_newfile_check(opt->out_path, err))
		return -1;
	return opt->log_out_path ? xls_newfile_check(opt->log_out_path, err) : 0;
}

static int open_outputs(struct replay_run *rr, struct xls_error *err)
{
	struct xls_cmd *c = rr->c;
	const struct xls_geometry *g = &c->src.geo;
	int log_fd;

	if (g->external && !c->opt->log_out_path)
		return xls_error_set(err, XLS_EXIT_USAGE, "the log of '%s' is external: --log-out "
				     "OUTLOG names the file its recovered copy goes to",
				     c->src.data_path ? c->src.data_path : c->src.path);
	if (xls_newfile_open(&rr->out, c->opt->out_path, err))
		return -1;
	if (xls_replay_copy_data(&c->src, rr->out.fd, c->opt->out_path, &c->report, err))
		return -1;
	log_fd = rr->out.fd;
	if (g->external) {
		if (xls_newfile_open(&rr->logout, c->opt->log_out_path, err))
			return -1;
		rr->has_logout = true;
		if (xls_replay_copy_log(&c->src, rr->logout.fd, c->opt->log_out_path, err))
			return -1;
		log_fd = rr->logout.fd;
	}
	if (xls_replay_write_init(&rr->w, &c->src, rr->out.fd, c->opt->out_path, log_fd,
				  g->external ? c->opt->log_out_path : c->opt->out_path,
				  g->log_offset, err))
		return -1;
	rr->w.force = c->opt->replay_force;
	return 0;
}

/* Recovery run into the copy, item by item. */
static int run_recovery(struct replay_run *rr, struct xls_error *err)
{
	struct xls_cmd *c = rr->c;
	struct xls_recover_opts ro = {
		.keep_types = ~0u, .keep_inodes = true, .quiet = true,
	};
	struct xls_recover_sink sink = {
		.ctx = &rr->w, .item = xls_replay_write_item, .write = xls_replay_write_back,
		.flushed = xls_replay_write_flushed, .report = &c->report,
	};
	struct xls_recover *r = xls_recover_new(&c->src, &ro, err);
	int rc;

	if (!r)
		return -1;
	rc = xls_recover_run(r, &c->log, &c->ht, &sink, err);
	rr->sum = *xls_recover_summary(r);
	xls_recover_free(r);
	if (rc && err->status == XLS_EXIT_OK)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "recovery stopped (%d)", rc);
	return rc;
}

/*
 * After recovery, as the kernel's mount and unmount leave it -- unless
 * work is pending, which the kernel finishes at its next mount, so the
 * log stays dirty.  A forced replay past a failure cleans the log: only
 * xfs_repair can go on from there.
 */
static int finish(struct replay_run *rr, struct xls_error *err)
{
	const struct xls_recover_summary *s = &rr->sum;
	bool pending = s->pending_work && !s->fails && !rr->c->opt->finish_repair;

	if (s->fails)
		rr->next = "run xfs_repair on OUT: recovery failed, and the blocks it could not "
			   "write are left as on disk";
	else if (pending)
		rr->next = "mount OUT: the kernel finishes the work left (intents, unlinked "
			   "inodes), with the log as recovery left it";
	else if (s->pending_work)
		rr->next = "run xfs_repair on OUT: it frees what the intents left would have "
			   "freed, rebuilds the maps and clears the unlinked inodes (--finish=repair "
			   "cleaned the log)";
	if (pending || rr->c->ht.state != XLS_LOG_DIRTY)
		return 0;
	if (xls_replay_write_superblock(&rr->w))
		return -1;
	rr->counters = true;
	if (xls_replay_write_clean_log(&rr->w, &rr->c->log, &rr->c->ht))
		return -1;
	rr->log_cleaned = true;
	(void)err;
	return 0;
}

static void describe_replay(const struct replay_run *rr, struct xls_fieldset *fs)
{
	const struct xls_replay_counts *n = &rr->w.count;

	xls_field_str(fs, "out", rr->c->opt->out_path);
	if (rr->has_logout)
		xls_field_str(fs, "log_out", rr->c->opt->log_out_path);
	xls_field_uint(fs, "buffers_replayed", n->buffers);
	xls_field_uint(fs, "inodes_replayed", n->inodes);
	xls_field_uint(fs, "clusters_initialised", n->clusters);
	xls_field_uint(fs, "buffers_stamped", n->stamped);
	xls_field_uint(fs, "buffers_failed", n->failed);
	xls_field_uint(fs, "blocks_assembled", n->assembled);
	xls_field_uint(fs, "inode_errors", n->inode_errors);
	xls_field_uint(fs, "bytes_written", n->bytes);
	xls_field_bool(fs, "counters_recomputed", rr->counters);
	xls_field_bool(fs, "log_cleaned", rr->log_cleaned);
	if (rr->next)
		xls_field_str(fs, "next_step", rr->next);
}

static void print_result(struct replay_run *rr, struct xls_fieldset *fs)
{
	struct xls_cmd *c = rr->c;
	const struct xls_replay_counts *n = &rr->w.count;
	struct xls_out *o = &c->out;

	xls_fields_reset(fs);
	xls_describe_verdict(&rr->sum, XLS_VERDICT_WHOLE, false, fs);
	describe_replay(rr, fs);
	if (c->out.fmt != XLS_FMT_TEXT) {
		xls_cmd_record(c, "replay", fs);
		return;
	}
	xls_print_verdict(o, &rr->sum, c->ht.state, XLS_VERDICT_WHOLE);
	xls_out_printf(o, "\nWrote '%s'%s%s%s: %llu buffer%s and %llu inode%s replayed, %llu "
		       "inode cluster%s initialised, %llu buffer%s stamped by their write "
		       "verifiers\n", c->opt->out_path, rr->has_logout ? " and '" : "",
		       rr->has_logout ? c->opt->log_out_path : "", rr->has_logout ? "'" : "",
		       (unsigned long long)n->buffers, xls_plural(n->buffers),
		       (unsigned long long)n->inodes, xls_plural(n->inodes),
		       (unsigned long long)n->clusters, xls_plural(n->clusters),
		       (unsigned long long)n->stamped, xls_plural(n->stamped));
	if (rr->counters)
		xls_out_printf(o, "  superblock counters summed from the AG headers, as a mount "
			       "after recovery sums them\n");
	if (rr->log_cleaned)
		xls_out_printf(o, "  log clean, as an unmount leaves it: the kernel mounts the "
			       "copy without recovery\n");
	if (n->assembled)
		xls_out_printf(o, "  %llu directory block%s on discontiguous extents written whole, "
			       "though the kernel's verifier refuses %s first segment (a limit of its "
			       "recovery): each block's CRC over all its segments\n",
			       (unsigned long long)n->assembled, xls_plural(n->assembled),
			       n->assembled == 1 ? "its" : "their");
	for (uint64_t i = 0; i < n->failed && i < 8; i++)
		xls_out_printf(o, "  left as on disk: buffer 0x%llx (%u bytes), its write "
			       "verifier fails\n", (unsigned long long)rr->w.failed[i].blkno,
			       rr->w.failed[i].len * 512);
	if (rr->next)
		xls_out_printf(o, "  next: %s\n", rr->next);
}

static void abort_outputs(struct replay_run *rr)
{
	xls_newfile_abort(&rr->out);
	if (rr->has_logout)
		xls_newfile_abort(&rr->logout);
}

/* The log's copy first: OUT, named last, is then whole with its log. */
static int commit_outputs(struct replay_run *rr, struct xls_error *err)
{
	if (rr->has_logout && xls_newfile_commit(&rr->logout, err)) {
		xls_newfile_abort(&rr->out);
		return -1;
	}
	return xls_newfile_commit(&rr->out, err);
}

int xls_cmd_replay(const struct xls_options *opt, struct xls_error *err)
{
	struct xls_fieldset *fs = malloc(sizeof(*fs));
	struct replay_run rr;
	struct xls_cmd c;
	int rc;

	memset(&rr, 0, sizeof(rr));
	rr.out.fd = rr.logout.fd = -1;
	if (!fs)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory"), err->status;
	if (check_outputs(opt, err) || xls_cmd_open(&c, opt, err)) {
		free(fs);
		return err->status;
	}
	rr.c = &c;
	rc = open_outputs(&rr, err);
	if (!rc)
		rc = run_recovery(&rr, err);
	if (!rc && rr.sum.fails && !opt->replay_force)
		rc = xls_error_set(err, XLS_EXIT_FINDINGS, "'%s': the kernel fails to recover this "
				   "log (%s); nothing written: 'xfs_logscope recover' says why, "
				   "--force writes every other block", c.src.path,
				   rr.sum.fail_why);
	if (!rc)
		rc = finish(&rr, err);
	if (!rc)
		rc = commit_outputs(&rr, err);
	else
		abort_outputs(&rr);
	if (!rc)
		print_result(&rr, fs);
	xls_replay_write_release(&rr.w);
	rc = xls_cmd_status(&c, rc, err);
	xls_cmd_close(&c);
	free(fs);
	return rc;
}
