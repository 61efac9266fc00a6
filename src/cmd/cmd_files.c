/*
 * files: per inode, in recovery order, what the log does to it, with
 * names: one event per line.  --ino and --path keep the events of one
 * inode, or of the inodes under a path; --stale tells first what the
 * records before the tail did.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "report/describe_semantics.h"
#include "cmd/options.h"
#include "report/async.h"
#include "files/files.h"

/* An event as the writer thread gets it: its names and path follow it. */
struct queued_event {
	struct xls_file_event	e;
	uint32_t		path_len;	/* 0: no path */
	bool			stale;		/* of the records before the tail */
};

struct files_ctx {
	struct xls_cmd		*c;
	struct xls_async	*writer;
	struct xls_report_sink	report;		/* the command's, after the writer */
	bool			files_begun;	/* the summaries' heading is out */
	bool			stale;		/* the part being read */
	/* --path: the inodes that had a path under it, in the log or after it */
	struct xls_hashmap	match;
	/* the writer thread's, and the summaries' once it is drained */
	struct xls_fieldset	fs;
};

/* Is @path @prefix or below it? */
static bool under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	while (n > 1 && prefix[n - 1] == '/')
		n--;
	if (strncmp(path, prefix, n) != 0)
		return false;
	return path[n] == '\0' || path[n] == '/' || (n == 1 && prefix[0] == '/');
}

/* On the writer thread (or the caller's, with --threads=1). */
static void write_event(void *ctx, const void *elem, const uint8_t *bytes)
{
	struct files_ctx *fc = ctx;
	const struct queued_event *q = elem;
	struct xls_cmd *c = fc->c;
	struct xls_file_event e = q->e;

	e.name = bytes;
	e.new_name = bytes + e.name_len;
	xls_fields_reset(&fc->fs);
	xls_describe_file_event(&e, q->path_len ? (const char *)e.new_name + e.new_name_len : NULL,
				c->out.fmt == XLS_FMT_TEXT, &fc->fs);
	if (c->opt->stale)
		xls_field_bool(&fc->fs, XK(stale), q->stale);
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_out_row(&c->out, &xls_text_files_events, &fc->fs);
	else
		xls_cmd_record(c, XR(event), &fc->fs);
}

static int on_event(void *ctx, const struct xls_file_event *e)
{
	struct files_ctx *fc = ctx;
	struct xls_cmd *c = fc->c;
	const struct xls_filter_opts *f = &c->opt->filter;
	struct queued_event *q;
	uint8_t *bytes;
	uint32_t path_len;
	size_t len;
	bool known;

	if (f->has_ino && e->ino != f->ino && e->dir != f->ino && e->new_dir != f->ino)
		return 0;
	if (f->path_prefix && !xls_hashmap_find(&fc->match, e->ino, 0))
		return 0;
	c->shown++;
	known = e->path != NULL;
	len = e->path_len;
	path_len = known && len ? (uint32_t)len + 1 : 0;
	q = xls_async_begin(fc->writer, e->name_len + e->new_name_len + path_len, &bytes);
	if (!q)
		return -E2BIG;	/* cannot be: 510 bytes of names and a 4 KiB path */
	q->e = *e;
	q->path_len = path_len;
	q->stale = fc->stale;
	/* an event without a name has NULL there: memcpy must not see it */
	if (e->name_len)
		memcpy(bytes, e->name, e->name_len);
	if (e->new_name_len)
		memcpy(bytes + e->name_len, e->new_name, e->new_name_len);
	if (path_len) {
		memcpy(bytes + e->name_len + e->new_name_len, e->path, len);
		bytes[e->name_len + e->new_name_len + len] = '\0';
	}
	xls_async_end(fc->writer);
	return 0;
}

/*
 * The inodes, where recovery leaves them: after every event, so written
 * here once the writer is drained (CSV has the events' columns only).
 */
static int on_file(void *ctx, const struct xls_file_summary *s)
{
	struct files_ctx *fc = ctx;
	struct xls_cmd *c = fc->c;

	if (c->opt->filter.has_ino && s->ino != c->opt->filter.ino)
		return 0;
	if (c->opt->filter.path_prefix && !xls_hashmap_find(&fc->match, s->ino, 0))
		return 0;
	if (c->out.fmt == XLS_FMT_CSV)
		return 0;
	if (!fc->files_begun) {
		xls_async_drain(fc->writer);
		fc->files_begun = true;
		if (c->out.fmt == XLS_FMT_TEXT) {
			xls_out_title(&c->out, true, fc->stale ?
				      "Where the records before the tail leave each inode" :
				      "Where recovery leaves each inode");
			xls_out_heading(&c->out, &xls_text_files_files);
		}
	}
	c->shown++;
	xls_fields_reset(&fc->fs);
	xls_describe_file_summary(s, &fc->fs);
	if (c->opt->stale)
		xls_field_bool(&fc->fs, XK(stale), fc->stale);
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_out_row(&c->out, &xls_text_files_files, &fc->fs);
	else
		xls_cmd_record(c, XR(file), &fc->fs);
	return 0;
}

/* A finding goes to the same output as the events: after those before it. */
static int on_finding(void *ctx, const struct xls_finding *f)
{
	struct files_ctx *fc = ctx;

	xls_async_drain(fc->writer);
	return xls_report_finding(&fc->c->report, f);
}

/* A stale boundary goes with the events too. */
static int on_gap(void *ctx, const struct xls_stale_gap *g)
{
	struct files_ctx *fc = ctx;

	xls_async_drain(fc->writer);
	return xls_cmd_stale_gap(fc->c, g);
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct files_ctx *fc = ctx;

	xls_report_progress(&fc->c->report, done, total);
}

/* --path, first pass: an inode matches when any path it has in the log or after it does. */
static int match_event(void *ctx, const struct xls_file_event *e)
{
	struct files_ctx *fc = ctx;

	if (e->path && under(e->path, fc->c->opt->filter.path_prefix) &&
	    !xls_hashmap_find(&fc->match, e->ino, 0) && xls_hashmap_put(&fc->match, e->ino, 0, 1))
		return -ENOMEM;
	return 0;
}

static int match_file(void *ctx, const struct xls_file_summary *s)
{
	struct files_ctx *fc = ctx;

	if (s->final_path && under(s->final_path, fc->c->opt->filter.path_prefix) &&
	    !xls_hashmap_find(&fc->match, s->ino, 0) && xls_hashmap_put(&fc->match, s->ino, 0, 1))
		return -ENOMEM;
	return 0;
}

/* The first pass's findings are the second's: said once, by the second. */
static int drop_finding(void *ctx, const struct xls_finding *f)
{
	(void)ctx;
	(void)f;
	return 0;
}

/*
 * --path: a path an inode has later (a directory named further on, a
 * rename, where recovery leaves it) must select its earlier events too,
 * so the log is read once to find the inodes, then again for them.
 */
static int match_paths(struct files_ctx *fc, struct xls_error *err)
{
	struct xls_cmd *c = fc->c;
	struct xls_report_sink quiet = { .ctx = fc, .finding = drop_finding,
					 .progress = on_progress };
	struct xls_files_sink sink = { .ctx = fc, .event = match_event, .file = match_file,
				       .report = &quiet };
	int rc = 0;

	for (int stale = c->opt->stale; stale >= 0 && !rc; stale--) {
		struct xls_files *f = xls_files_new(&c->src, c->opt->blocks.mem,
						    c->opt->blocks.max, err);

		if (!f)
			return -1;
		xls_files_set_quota(f, &c->opt->quota);
		rc = xls_files_run(f, &c->log, &c->ht, stale, &sink, err);
		xls_files_free(f);
	}
	if (rc == -ENOMEM)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the inodes --path selects");
	return rc;
}

/*
 * One part of the log: the records before the tail (@stale) or from the
 * tail to the head, each with a view of its own, written out whole
 * before the next begins.
 */
static int files_part(struct files_ctx *fc, bool stale, struct xls_error *err)
{
	struct xls_cmd *c = fc->c;
	struct xls_files_sink sink = { .ctx = fc, .event = on_event, .file = on_file,
				       .stale_gap = on_gap, .report = &fc->report };
	struct xls_files *f;
	int rc;

	fc->stale = stale;
	fc->files_begun = false;
	/* the part before is written out whole, then a blank line */
	if (c->opt->stale)
		xls_async_drain(fc->writer);
	if (!stale && c->opt->stale && c->out.fmt == XLS_FMT_TEXT)
		xls_out_blank(&c->out);
	xls_cmd_part_banner(c, stale);
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_out_heading(&c->out, &xls_text_files_events);
	f = xls_files_new(&c->src, c->opt->blocks.mem, c->opt->blocks.max, err);
	if (!f)
		return -1;
	xls_files_set_quota(f, &c->opt->quota);
	rc = xls_files_run(f, &c->log, &c->ht, stale, &sink, err);
	xls_async_drain(fc->writer);
	xls_files_free(f);
	return rc;
}

static int run(struct xls_cmd *c, void *ctx, struct xls_error *err)
{
	struct files_ctx *fc = ctx;
	struct xls_async_sink out = { .ctx = fc, .write = write_event };
	int rc;

	fc->c = c;
	xls_cmd_filters(c, "event");
	fc->report = (struct xls_report_sink){ .ctx = fc, .finding = on_finding,
					      .progress = on_progress };
	xls_out_csv_layout(&c->out, c->opt->stale ? &xls_csv_files_stale : &xls_csv_files);
	fc->writer = xls_async_new(sizeof(struct queued_event), xls_scan_threaded(&c->log, &c->ht),
				   &out);
	rc = fc->writer ? 0 : xls_error_set(err, XLS_EXIT_INTERNAL,
					    "out of memory for the queue of events to write");
	if (!rc && c->opt->filter.path_prefix)
		rc = match_paths(fc, err);
	if (!rc && c->opt->stale)
		rc = files_part(fc, true, err);
	if (!rc)
		rc = files_part(fc, false, err);
	if (rc == -E2BIG)
		rc = xls_error_set(err, XLS_EXIT_INTERNAL,
				   "an event of '%s' is larger than the writer's batch", c->src.path);
	/* the writer's last events reach the output before the status is taken */
	xls_async_free(fc->writer);
	fc->writer = NULL;
	return rc;
}

static void release(void *ctx)
{
	struct files_ctx *fc = ctx;

	xls_hashmap_free(&fc->match);
}

static int files_main(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .ctx_size = sizeof(struct files_ctx),
			   .run = run, .release = release }, err);
}

static const struct argp_option files_options[] = {
	{ "ino", XLS_OPT_INO, "INO", 0, "only the events of this inode (and of the entries of this directory)", 3 },
	{ "path", XLS_OPT_PATH, "PATH", 0, "only the events of the inodes at or under PATH (/dir/name)", 3 },
	XLS_OPTION_BLOCKS,
	XLS_OPTION_QUOTA,
	{ 0 }
};

const struct xls_command xls_command_files = {
	.name = "files", .args_doc = "DEV", .nargs = 1,
	.doc = "Per inode, in recovery order, what the log does to it: created, freed, changed, names added and removed, xattrs, extents.",
	.summary = "per inode, what the log does to it, with names",
	.takes = XLS_TAKES_LOGDEV | XLS_TAKES_OUTPUT | XLS_TAKES_MOUNTED | XLS_TAKES_STALE,
	.options = files_options, .run = files_main,
};
