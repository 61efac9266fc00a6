/*
 * replay -o OUT: the filesystem as kernel log recovery leaves it, written
 * into a new file without mounting, on any machine and for a log of either
 * byte order.  The input is only read; OUT (and the external log's copy)
 * appear whole or not at all.
 *
 * replay --in-place: the same writes into the device itself, once a dry
 * run has said recovery succeeds; every block durable before the log is
 * cleaned, the log cleaned last, so that an interruption anywhere leaves
 * a log that recovers to the same filesystem.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strfmt.h"
#include "cmd/cmd.h"
#include "report/describe_recover.h"
#include "cmd/options.h"
#include "replay/copy.h"
#include "replay/finish.h"
#include "replay/write.h"
#include "report/verdict.h"

/* replay's own options */
struct replay_opts {
	const char	*out_path;	/* -o: OUT */
	const char	*log_out_path;	/* --log-out: the external log's copy */
	bool		force;		/* --force: past a failure too */
	bool		finish_repair;	/* --finish=repair: the log cleaned though work is left */
	bool		finish_kernel;	/* --finish=kernel: the work left to the kernel's mount */
	bool		in_place;	/* --in-place: into DEV itself */
};

static const struct replay_opts *own(const struct xls_options *o)
{
	return o->own;
}

struct replay_run {
	struct xls_cmd		*c;
	struct xls_newfile	out, logout;
	bool			has_logout;
	int			dev_fd, logdev_fd;	/* --in-place: read-write */
	struct xls_replay_write	w;
	struct xls_recover_summary sum;
	struct xls_pending_intents intents;	/* left by recovery, for pass 3 */
	/* what was done after recovery */
	struct xls_replay_end	end;
	const char		*next;		/* what the user must do next, or NULL */
	char			next_buf[512];
	char			next_dev[512];	/* next_buf's, OUT named DEV */
};

/* -o and --log-out: where the copies go, checked before anything is read. */
static int check_outputs(const struct xls_options *opt, struct xls_error *err)
{
	if (own(opt)->in_place && (own(opt)->out_path || own(opt)->log_out_path || own(opt)->force))
		return xls_error_set(err, XLS_EXIT_USAGE, "--in-place writes into DEV itself: no "
				     "-o, --log-out or --force with it (a recovery the kernel "
				     "would refuse is never written in place)");
	if (own(opt)->in_place && opt->src.bare_log)
		return xls_error_set(err, XLS_EXIT_USAGE, "replay writes a filesystem: '%s' is a "
				     "bare log (-f)", opt->src.path);
	if (own(opt)->in_place)
		return 0;
	if (!own(opt)->out_path)
		return xls_error_set(err, XLS_EXIT_USAGE, "replay needs -o OUT, the file to write "
				     "the recovered filesystem to");
	if (opt->src.bare_log)
		return xls_error_set(err, XLS_EXIT_USAGE, "replay writes a filesystem: '%s' is a "
				     "bare log (-f), with no filesystem to replay it into",
				     opt->src.path);
	if (xls_newfile_check(own(opt)->out_path, err))
		return -1;
	return own(opt)->log_out_path ? xls_newfile_check(own(opt)->log_out_path, err) : 0;
}

/* @path read-write, and no one else's while we write (a block device: O_EXCL). */
static int open_rw(const char *path, bool device, struct xls_error *err)
{
	int fd = open(path, O_RDWR | O_CLOEXEC | (device ? O_EXCL : 0));

	if (fd < 0)
		xls_error_set(err, XLS_EXIT_INPUT, "cannot open '%s' to write it: %s%s", path,
			      strerror(errno), errno == EBUSY ? " (in use: mounted, or open "
			      "exclusively elsewhere)" : "");
	return fd;
}

static bool is_device(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISBLK(st.st_mode);
}

/* --in-place: the input itself, which must be a plain image or a device. */
static int open_in_place(struct replay_run *rr, struct xls_error *err)
{
	struct xls_cmd *c = rr->c;
	const struct xls_source *src = &c->src;
	const struct xls_geometry *g = &src->geo;
	const char *data = src->data_path ? src->data_path : src->path;

	if (src->data_map || src->log_map || src->input.md.version)
		return xls_error_set(err, XLS_EXIT_USAGE, "--in-place: '%s' is a %s, with no "
				     "filesystem to write into: replay -o OUT restores and "
				     "recovers it", data, src->input.md.version ? "metadump" :
				     "compressed file");
	rr->dev_fd = open_rw(data, is_device(src->data_fd), err);
	if (rr->dev_fd < 0)
		return -1;
	rr->logdev_fd = rr->dev_fd;
	if (g->external) {
		rr->logdev_fd = open_rw(src->path, is_device(src->log_fd), err);
		if (rr->logdev_fd < 0)
			return -1;
	}
	if (xls_replay_write_init(&rr->w, src, rr->dev_fd, data, rr->logdev_fd,
				  g->external ? src->path : data, g->log_offset, err))
		return -1;
	rr->w.in_place = true;
	return 0;
}

static int open_outputs(struct replay_run *rr, struct xls_error *err)
{
	struct xls_cmd *c = rr->c;
	const struct xls_geometry *g = &c->src.geo;
	int log_fd;

	/* known once the superblock is read: a v2 metadump carries its external log */
	if (g->external && !own(c->opt)->log_out_path)
		return xls_error_set(err, XLS_EXIT_USAGE, "the log of '%s' is external: --log-out "
				     "OUTLOG names the file its recovered copy goes to",
				     c->src.data_path ? c->src.data_path : c->src.path);
	if (!g->external && own(c->opt)->log_out_path)
		return xls_error_set(err, XLS_EXIT_USAGE, "--log-out is the copy of an external "
				     "log; the log of '%s' is internal",
				     c->src.data_path ? c->src.data_path : c->src.path);
	if (xls_newfile_open(&rr->out, own(c->opt)->out_path, err))
		return -1;
	if (xls_replay_copy_data(&c->src, rr->out.fd, own(c->opt)->out_path, &c->report, err))
		return -1;
	log_fd = rr->out.fd;
	if (g->external) {
		if (xls_newfile_open(&rr->logout, own(c->opt)->log_out_path, err))
			return -1;
		rr->has_logout = true;
		if (xls_replay_copy_log(&c->src, rr->logout.fd, own(c->opt)->log_out_path, err))
			return -1;
		log_fd = rr->logout.fd;
	}
	if (xls_replay_write_init(&rr->w, &c->src, rr->out.fd, own(c->opt)->out_path, log_fd,
				  g->external ? own(c->opt)->log_out_path : own(c->opt)->out_path,
				  g->log_offset, err))
		return -1;
	rr->w.force = own(c->opt)->force;
	return 0;
}

/* --in-place: recovery run without writing, to see that it succeeds. */
static int dry_run(struct replay_run *rr, struct xls_error *err)
{
	struct xls_cmd *c = rr->c;
	struct xls_recover_opts ro = { .quiet = true, .quota = c->opt->quota };
	struct xls_recover_sink sink = { .report = &c->report };
	struct xls_recover *r = xls_recover_new(&c->src, &ro, err);
	int rc;

	if (!r)
		return -1;
	c->findings_mode = XLS_FINDINGS_IGNORE;
	rc = xls_recover_run(r, &c->log, &c->ht, &sink, err);
	c->findings_mode = XLS_FINDINGS_PRINT;
	rr->sum = *xls_recover_summary(r);
	xls_recover_free(r);
	if (!rc && rr->sum.fails)
		rc = xls_error_set(err, XLS_EXIT_FINDINGS, "'%s': the kernel fails to recover this "
				   "log (%s); nothing written: a recovery the kernel refuses is "
				   "never written in place ('xfs_logscope recover' says why; replay "
				   "-o OUT --force writes a copy)", c->src.path, rr->sum.fail_why);
	return rc;
}

/* Recovery run into the copy, item by item. */
static int run_recovery(struct replay_run *rr, struct xls_error *err)
{
	struct xls_cmd *c = rr->c;
	struct xls_recover_opts ro = {
		.keep_types = ~0u, .keep_inodes = true, .quiet = true, .quota = c->opt->quota,
		.keep_pending = !own(c->opt)->finish_kernel,
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
	if (!rc && ro.keep_pending && xls_recover_take_pending_intents(r, &rr->intents))
		rc = xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory keeping the intents "
				   "recovery leaves");
	xls_recover_free(r);
	if (rc && err->status == XLS_EXIT_OK)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "recovery stopped (%d)", rc);
	return rc;
}

/* A log this machine's kernel refuses: written by a CPU of the other byte order. */
static bool foreign_log(const struct xls_recover_summary *s)
{
	bool host_be = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

	return s->log_fmt == (host_be ? XLOG_FMT_LINUX_LE : XLOG_FMT_LINUX_BE);
}

/*
 * A growfs the device no longer holds: the kernel's mount, after
 * recovery, fails reading the first AG header past the device's end
 * (xfs_initialize_perag_data: EIO) and, on its way out, cancels the work
 * left and writes the unmount record (xfs_log_mount_cancel).
 */
static const char *past_device_step(struct replay_run *rr, bool work)
{
	const struct xls_replay_sbgeo *sg = &rr->w.sbgeo;

	snprintf(rr->next_buf, sizeof(rr->next_buf), "the kernel's mount fails after this "
		 "recovery, reading AG %u's headers past the end of the device (EIO), and leaves "
		 "OUT as written here, the log clean%s: give the device the %llu bytes the "
		 "superblock says, then mount; or run xfs_repair", rr->w.sb_past_ag,
		 work ? ", the work left (intents, unlinked inodes) dropped" : "",
		 (unsigned long long)sg->dblocks * sg->blocksize);
	return rr->next_buf;
}

/* @text with its OUT named DEV, for a replay in place: @buf. */
static const char *name_device(const char *text, char *buf, size_t size)
{
	const char *at = strstr(text, "OUT");

	if (!at)
		return text;
	snprintf(buf, size, "%.*sDEV%s", (int)(at - text), text, at + 3);
	return buf;
}

/* What the user must do next, once the end of the replay is known. */
static void next_step(struct replay_run *rr)
{
	const struct xls_recover_summary *s = &rr->sum;
	const struct xls_replay_end *e = &rr->end;

	if (s->mount_fails_after)
		rr->next = past_device_step(rr, s->pending_work);
	else if (s->fails)
		rr->next = "run xfs_repair on OUT: recovery failed, and the blocks it could not "
			   "write are left as on disk";
	else if (e->pending && foreign_log(s))
		rr->next = "mount OUT with a kernel of the byte order that wrote the log: it "
			   "finishes the work left (intents, unlinked inodes, CoW staging extents); "
			   "this machine's kernel refuses the log -- or replay with --finish=repair, "
			   "then xfs_repair";
	else if (e->pending)
		rr->next = "mount OUT: the kernel finishes the work left (intents, unlinked "
			   "inodes, CoW staging extents), with the log as recovery left it";
	else if (e->work && !e->pass3_done)
		rr->next = "run xfs_repair on OUT: it frees what the intents left would have "
			   "freed and the CoW staging extents, rebuilds the maps and clears the "
			   "unlinked inodes (--finish=repair cleaned the log)";
	if (own(rr->c->opt)->in_place && rr->next)
		rr->next = name_device(rr->next, rr->next_dev, sizeof(rr->next_dev));
}

static void print_result(struct replay_run *rr, struct xls_fieldset *fs)
{
	struct xls_cmd *c = rr->c;
	const struct xls_replay_outcome r = {
		.out = own(c->opt)->in_place ? rr->w.path : own(c->opt)->out_path,
		.in_place = own(c->opt)->in_place,
		.log_out = rr->has_logout ? own(c->opt)->log_out_path : NULL,
		.count = &rr->w.count,
		.failed = rr->w.failed,
		.counters = rr->end.counters,
		.log_cleaned = rr->end.log_cleaned,
		.pass3_done = rr->end.pass3_done,
		.pass3_not = rr->end.pass3_not,
		.pass3 = &rr->end.pass3,
		.pass3_logged = rr->end.commit.logged,
		.pass3_log_bbs = rr->end.commit.log_blocks,
		.pass3_not_logged = rr->end.commit.not_logged[0] ? rr->end.commit.not_logged : NULL,
		.next = rr->next,
	};

	xls_fields_reset(fs);
	xls_describe_verdict(&rr->sum, XLS_VERDICT_WHOLE, false, fs);
	xls_describe_replay(&r, fs);
	if (c->out.fmt != XLS_FMT_TEXT) {
		xls_cmd_record(c, XR(replay), fs);
		return;
	}
	xls_print_verdict(&c->out, &rr->sum, c->ht.state, XLS_VERDICT_WHOLE);
	xls_print_replay(&c->out, &r, rr->sum.mount_fails_after);
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

static int replay_main(const struct xls_options *opt, struct xls_error *err)
{
	struct xls_fieldset *fs = malloc(sizeof(*fs));
	struct replay_run rr;
	struct xls_cmd c;
	int rc;

	memset(&rr, 0, sizeof(rr));
	rr.out.fd = rr.logout.fd = rr.dev_fd = rr.logdev_fd = -1;
	if (!fs)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the fields of the "
				     "replay's result"), err->status;
	if (check_outputs(opt, err) || xls_cmd_open(&c, opt, err)) {
		free(fs);
		return err->status;
	}
	rr.c = &c;
	if (own(opt)->in_place) {
		/* held (O_EXCL) from before the dry run, so that what it saw is what is written */
		rc = open_in_place(&rr, err);
		if (!rc)
			rc = dry_run(&rr, err);
		if (!rc)
			rc = xls_cmd_io_check(&c, err);
	} else {
		rc = open_outputs(&rr, err);
	}
	if (!rc)
		rc = run_recovery(&rr, err);
	/* nothing made of a block that could not be read is written */
	if (!rc)
		rc = xls_cmd_io_check(&c, err);
	if (!rc && rr.sum.fails && !own(opt)->force)
		rc = xls_error_set(err, XLS_EXIT_FINDINGS, "'%s': the kernel fails to recover this "
				   "log (%s); nothing written: 'xfs_logscope recover' says why, "
				   "--force writes every other block", c.src.path,
				   rr.sum.fail_why);
	if (!rc)
		rc = xls_replay_finish(&rr.w, &c.log, &c.ht, &rr.sum,
				       &(struct xls_replay_finish_opts){
					       .clean_anyway = own(opt)->finish_repair || rr.sum.fails,
					       .pass3 = !own(opt)->finish_kernel,
					       .intents = &rr.intents,
				       }, &rr.end);
	if (!rc)
		next_step(&rr);
	if (!own(opt)->in_place && !rc)
		rc = commit_outputs(&rr, err);
	else if (!own(opt)->in_place)
		abort_outputs(&rr);
	if (rr.logdev_fd >= 0 && rr.logdev_fd != rr.dev_fd)
		close(rr.logdev_fd);
	if (rr.dev_fd >= 0)
		close(rr.dev_fd);
	if (!rc)
		print_result(&rr, fs);
	if (!rc && rr.sum.mount_fails_after)
		rc = xls_error_set(err, XLS_EXIT_FINDINGS, "'%s': recovered as the kernel recovers "
				   "it, but the kernel's mount then fails reading AG %u's headers "
				   "past the end of the device (EIO): the superblock recovery leaves "
				   "says %llu bytes, the device holds %llu", c.src.path,
				   rr.w.sb_past_ag,
				   (unsigned long long)rr.w.sbgeo.dblocks * rr.w.sbgeo.blocksize,
				   (unsigned long long)xls_geo_device_bytes(&c.src.geo));
	xls_replay_write_release(&rr.w);
	xls_pending_intents_free(&rr.intents);
	rc = xls_cmd_status(&c, rc, err);
	xls_cmd_close(&c);
	free(fs);
	return rc;
}

static const struct argp_option replay_options[] = {
	{ "output", 'o', "OUT", 0, "the file to write the recovered filesystem to (must not exist)", 3 },
	{ "in-place", XLS_OPT_OWN, NULL, 0, "write into DEV itself (and LOGDEV), unmounted: the blocks durable before the log is cleaned, so that an interruption leaves a log that recovers to the same", 3 },
	{ "log-out", XLS_OPT_OWN + 1, "OUTLOG", 0, "with -l: the file to write the recovered external log to (must not exist)", 3 },
	{ "force", XLS_OPT_OWN + 2, NULL, 0, "write even when the kernel would fail to recover the log: every block but the failing ones, then xfs_repair must follow", 3 },
	{ "finish", XLS_OPT_OWN + 3, "tool|kernel|repair", 0, "work left after replay (intents, unlinked inodes, CoW staging extents): done here by pass 3, with xfsprogs' libxfs, where this build has it and does that kind (tool, the default; else left to the kernel); left to the kernel's next mount, the log dirty (kernel; mount is the same); or to xfs_repair, the log clean (repair)", 3 },
	XLS_OPTION_QUOTA,
	{ 0 }
};

static error_t replay_parse(int key, char *arg, struct argp_state *state)
{
	struct replay_opts *ro = xls_cmdline(state)->own;

	switch (key) {
	case 'o':		ro->out_path = arg; return 0;
	case XLS_OPT_OWN:	ro->in_place = true; return 0;
	case XLS_OPT_OWN + 1:	ro->log_out_path = arg; return 0;
	case XLS_OPT_OWN + 2:	ro->force = true; return 0;
	case XLS_OPT_OWN + 3:
		if (strcmp(arg, "tool") && strcmp(arg, "kernel") && strcmp(arg, "mount") &&
		    strcmp(arg, "repair"))
			argp_error(state, "--finish is tool, kernel (or mount) or repair, not '%s'", arg);
		ro->finish_repair = !strcmp(arg, "repair");
		ro->finish_kernel = !strcmp(arg, "kernel") || !strcmp(arg, "mount");
		return 0;
	default:
		return xls_opt_parse_shared(key, arg, state);
	}
}

const struct xls_command xls_command_replay = {
	.name = "replay", .args_doc = "DEV", .nargs = 1,
	.doc = "Write the filesystem as kernel log recovery leaves it to a new file (-o), without mounting, for a log of either byte order.",
	.summary = "-o OUT: the filesystem as recovery leaves it, into OUT",
	.takes = XLS_TAKES_LOGDEV | XLS_TAKES_OUTPUT | XLS_REFUSES_STALE,
	.options = replay_options, .parse = replay_parse,
	.own_size = sizeof(struct replay_opts), .run = replay_main,
};
