/* What the commands share: opening the input, findings, progress, status. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/ondisk.h"
#include "cmd/cmd.h"
#include "report/describe_audit.h"
#include "report/describe_log.h"

/*
 * --threads, or by default: read-ahead pays only when the reader thread
 * gets a CPU of its own; the affinity mask is what this process may really
 * use (taskset, cgroups).
 */
static enum xls_read_ahead read_ahead_mode(unsigned int threads)
{
	cpu_set_t set;

	if (threads)
		return threads > 1 ? XLS_READ_AHEAD_ON : XLS_READ_AHEAD_OFF;
	if (sched_getaffinity(0, sizeof(set), &set) != 0 || CPU_COUNT(&set) < 2)
		return XLS_READ_AHEAD_OFF;
	return XLS_READ_AHEAD_AUTO;
}

/* The one finding sink: print, count, or ignore, as the command says. */
static int cmd_finding(void *ctx, const struct xls_finding *f)
{
	struct xls_cmd *c = ctx;
	struct xls_fieldset fs;

	if (c->findings_mode == XLS_FINDINGS_IGNORE)
		return 0;
	c->findings++;
	if (c->findings_mode == XLS_FINDINGS_COUNT)
		return 0;
	switch (c->out.fmt) {
	case XLS_FMT_CSV:
	case XLS_FMT_TEXT:
		/*
		 * Findings would break the CSV's one layout and a text table's
		 * columns: they go to stderr, where the errors go.
		 */
		fprintf(stderr, "xfs_logscope: '%s': finding: ", c->src.path);
		if (f->lsn)
			fprintf(stderr, "LSN %u/%u ", xls_lsn_cycle(f->lsn), xls_lsn_block(f->lsn));
		else
			fprintf(stderr, "block %u ", f->rec_blk);
		if (f->offset >= 0)
			fprintf(stderr, "offset %lld ", (long long)f->offset);
		fprintf(stderr, "%s: %s\n", xls_finding_kind_name(f->kind), f->msg);
		break;
	case XLS_FMT_JSON:
		xls_fields_reset(&fs);
		xls_describe_finding(f, &fs);
		xls_cmd_record(c, XR(finding), &fs);
		break;
	}
	return 0;
}

/* The one progress sink: a percentage on standard error when it is a terminal. */
static void cmd_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct xls_cmd *c = ctx;

	if (!c->opt->progress || !total)
		return;
	fprintf(stderr, "\rxfs_logscope: %3u%% of %llu log blocks",
		(unsigned int)(done * 100 / total), (unsigned long long)total);
	c->progress_shown = true;
}

/*
 * What makes the kernel refuse the log outright comes first, before the
 * thousands of lines that follow from it: a finding, and a line on
 * standard error whatever the output format.
 */
static void report_refusal(struct xls_cmd *c)
{
	const struct xls_finding_at at = { .lsn = c->ht.last_lsn, .rec_blk = c->ht.last_rec_blk };
	struct xls_finding f;
	enum xls_finding_kind kind;
	char msg[sizeof(f.msg)];

	kind = xls_log_refusal_finding(xls_log_refusal(&c->ht, &c->src.geo, msg, sizeof(msg)));
	if (kind == XLS_FIND_NONE)
		return;
	xls_finding_make(&f, kind, &at, "%s", msg);
	if (c->out.fmt == XLS_FMT_JSON)	/* elsewhere the finding itself goes to stderr */
		fprintf(stderr, "xfs_logscope: '%s': %s\n", c->src.path, f.msg);
	cmd_finding(c, &f);
}

/*
 * What a metadump holds that is not what the filesystem held: said on
 * standard error whatever the command (info has the figures as fields).
 */
static void warn_input(const struct xls_source *src)
{
	const struct xls_input *in = &src->input;
	const char *path = src->data_path ? src->data_path : src->path;

	if (in->mounted)
		fprintf(stderr, "xfs_logscope: '%s': warning: mounted, read with --force: its log "
			"is live and may change while it is read, so what follows may not hold "
			"together\n", path);
	if (in->md.log_cleared)
		fprintf(stderr, "xfs_logscope: '%s': warning: this log is not the filesystem's: "
			"xfs_metadump found it clean and cleared it (it keeps a clean log only "
			"with -a -o); there is nothing of the filesystem's to analyse\n", path);
	if (in->log_missing)
		fprintf(stderr, "xfs_logscope: '%s': warning: %llu bytes of the log are not in "
			"the metadump: they read as zeros\n", path,
			(unsigned long long)in->log_missing);
	if (in->md.overlap_bytes)
		fprintf(stderr, "xfs_logscope: '%s': warning: the metadump carries %llu bytes of "
			"blocks more than once; the later copy is read, as xfs_mdrestore writes "
			"it last\n", path, (unsigned long long)in->md.overlap_bytes);
}

/* The source stage's progress: a compressed input being decompressed. */
static void cmd_unpack_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct xls_cmd *c = ctx;

	if (!c->opt->progress || !total)
		return;
	fprintf(stderr, "\rxfs_logscope: decompressing: %3u%% of %llu bytes",
		(unsigned int)(done * 100 / total), (unsigned long long)total);
	/* the scan's progress follows on the same line: leave it empty */
	if (done >= total)
		fputs("\r\033[K", stderr);
	c->progress_shown = true;
}

int xls_cmd_open(struct xls_cmd *c, const struct xls_options *opt,
		 struct xls_error *err)
{
	struct xls_report_sink unpack = { .progress = cmd_unpack_progress };
	struct xls_source_opts so = opt->src;

	memset(c, 0, sizeof(*c));
	c->opt = opt;
	c->report.ctx = c;
	c->report.finding = cmd_finding;
	c->report.progress = cmd_progress;
	xls_out_init(&c->out, stdout, opt->fmt);
	unpack.ctx = c;
	so.report = &unpack;
	if (xls_source_open(&c->src, &so, err))
		return -1;
	warn_input(&c->src);
	if (xls_log_init(&c->log, &c->src, err)) {
		xls_source_close(&c->src);
		return -1;
	}
	c->log.read_ahead = read_ahead_mode(opt->threads);
	if (xls_log_find_head_tail(&c->log, &c->ht, err)) {
		xls_cmd_close(c);
		return -1;
	}
	report_refusal(c);
	return 0;
}

void xls_cmd_close(struct xls_cmd *c)
{
	xls_log_release(&c->log);
	xls_source_close(&c->src);
}

int xls_cmd_status(struct xls_cmd *c, int rc, const struct xls_error *err)
{
	if (c->progress_shown)
		fputs("\r\033[K", stderr);
	xls_cmd_writer_stop(c);
	errno = 0;
	if (xls_out_finish(&c->out)) {
		fprintf(stderr, "xfs_logscope: cannot write to standard output: %s\n",
			strerror(errno ? errno : EIO));
		return XLS_EXIT_INTERNAL;
	}
	if (rc)
		return err->status != XLS_EXIT_OK ? (int)err->status : XLS_EXIT_INTERNAL;
	/* a read that failed on the way: what was printed rests on it */
	if (xls_source_io_error(&c->src)) {
		char msg[600];

		xls_source_io_error_str(&c->src, xls_source_io_error(&c->src), msg, sizeof(msg));
		fprintf(stderr, "xfs_logscope: %s; what was printed before is not to be trusted\n",
			msg);
		return XLS_EXIT_INPUT;
	}
	if (c->filtered && !c->shown)
		xls_cmd_no_match(c, c->filtered);
	return c->findings ? XLS_EXIT_FINDINGS : XLS_EXIT_OK;
}

int xls_cmd_run(const struct xls_options *opt, const struct xls_cmd_body *b,
		struct xls_error *err)
{
	void *ctx = NULL;
	struct xls_cmd c;
	int rc;

	if (b->check && b->check(opt, err))
		return err->status;
	if (b->ctx_size && !(ctx = calloc(1, b->ctx_size))) {
		xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the state of the command");
		goto fail;
	}
	if (xls_cmd_open(&c, opt, err))
		goto fail;
	rc = b->run(&c, ctx, err);
	rc = xls_cmd_status(&c, rc, err);
	if (b->release)
		b->release(ctx);
	xls_cmd_close(&c);
	free(ctx);
	return rc;
fail:
	free(ctx);
	return err->status;
}

int xls_cmd_check_new(const char *path, struct xls_error *err)
{
	return path ? xls_newfile_check(path, err) : 0;
}

int xls_cmd_io_check(const struct xls_cmd *c, struct xls_error *err)
{
	const struct xls_source_ioerr *e = xls_source_io_error(&c->src);
	char msg[600];

	if (!e)
		return 0;
	xls_source_io_error_str(&c->src, e, msg, sizeof(msg));
	return xls_error_set(err, XLS_EXIT_INPUT, "%s", msg);
}

static void put_record(struct xls_out *o, const void *arg, const struct xls_fieldset *fs)
{
	const struct xls_record_kind *kind;

	memcpy(&kind, arg, sizeof(kind));
	xls_out_record(o, kind, fs);
}

void xls_cmd_record(struct xls_cmd *c, const struct xls_record_kind *kind,
		    const struct xls_fieldset *fs)
{
	xls_cmd_put(c, put_record, &kind, sizeof(kind), fs);
}

bool xls_cmd_buf_wanted(const struct xls_options *o, unsigned int blft, uint32_t bytes)
{
	if (o->filter.type_mask && (blft >= 32 || !(o->filter.type_mask & (1u << blft))))
		return false;
	return !o->filter.has_size || bytes == o->filter.size;
}

int xls_cmd_write_svg(const char *path, const char *title,
		      const struct xls_heat_panel *panels, unsigned int npanels,
		      bool decisions, struct xls_error *err)
{
	struct xls_newfile nf;

	if (xls_newfile_open(&nf, path, err))
		return -1;
	if (xls_svg_heatmap(nf.f, title, panels, npanels, decisions)) {
		xls_newfile_abort(&nf);
		return xls_error_set(err, XLS_EXIT_INTERNAL, "cannot write '%s': %s", path,
				     strerror(errno ? errno : EIO));
	}
	return xls_newfile_commit(&nf, err);
}

int xls_cmd_write_audit_svg(const char *path, enum xls_chart_set set, const char *name_a,
			    const struct xls_stats *a, const char *name_b,
			    const struct xls_stats *b, struct xls_error *err)
{
	struct xls_chart_log logs[2];
	unsigned int n = b ? 2 : 1;
	struct xls_newfile nf;
	char title[600];
	int rc = -1;

	if (xls_describe_chart_log(a, name_a, &logs[0]))
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the charts of '%s'", name_a);
	if (b && xls_describe_chart_log(b, name_b, &logs[1])) {
		xls_describe_chart_log_release(&logs[0]);
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the charts of '%s'", name_b);
	}
	if (b)
		snprintf(title, sizeof(title), "xfs_logscope compare: %s and %s", name_a, name_b);
	else
		snprintf(title, sizeof(title), "xfs_logscope %s: %s",
			 set == XLS_CHART_STATS ? "stats" : "checkpoints", name_a);
	if (!xls_newfile_open(&nf, path, err)) {
		if (xls_svg_charts(nf.f, title, set, logs, n)) {
			xls_newfile_abort(&nf);
			xls_error_set(err, XLS_EXIT_INTERNAL, "cannot write '%s': %s", path,
				      strerror(errno ? errno : EIO));
		} else {
			rc = xls_newfile_commit(&nf, err);
		}
	}
	for (unsigned int i = 0; i < n; i++)
		xls_describe_chart_log_release(&logs[i]);
	return rc;
}

int xls_cmd_stale_gap(void *ctx, const struct xls_stale_gap *g)
{
	struct xls_cmd *c = ctx;
	struct xls_fieldset fs;

	/* A CSV stream has one kind of row, a second walk says nothing again. */
	if (c->out.fmt == XLS_FMT_CSV || c->findings_mode == XLS_FINDINGS_IGNORE)
		return 0;
	if (c->out.fmt == XLS_FMT_TEXT) {
		xls_print_stale_gap(xls_cmd_out(c), g, c->log.nblks);
		return 0;
	}
	xls_fields_reset(&fs);
	xls_describe_stale_gap(g, &fs);
	xls_cmd_record(c, XR(stale_gap), &fs);
	return 0;
}

int xls_cmd_walk(struct xls_cmd *c, const struct xls_scan_sink *sink, bool stale,
		 struct xls_scan_totals *tot, struct xls_error *err)
{
	struct xls_scan_sink s = *sink;

	if (!stale)
		return xls_scan(&c->log, &c->ht, XLS_ITER_LSN, sink, tot, err);
	if (!s.stale_gap) {
		s.stale_gap = xls_cmd_stale_gap;
		s.gap_ctx = c;
	}
	return xls_scan(&c->log, &c->ht, XLS_ITER_STALE, &s, tot, err);
}

void xls_cmd_part_banner(struct xls_cmd *c, bool stale)
{
	if (!c->opt->stale || c->out.fmt != XLS_FMT_TEXT || c->findings_mode == XLS_FINDINGS_IGNORE)
		return;
	xls_print_part_banner(xls_cmd_out(c), &c->ht, stale);
}

int xls_cmd_scan(struct xls_cmd *c, const struct xls_scan_sink *sink,
		 struct xls_scan_totals *tot, struct xls_error *err)
{
	if (c->opt->stale) {
		int rc;

		xls_cmd_part_banner(c, true);
		rc = xls_cmd_walk(c, sink, true, tot, err);
		if (rc)
			return rc;
		xls_cmd_part_banner(c, false);
	}
	return xls_cmd_walk(c, sink, false, tot, err);
}

static int audit_record(void *ctx, const struct xls_rec *rec, const struct xls_rec_summary *s)
{
	xls_audit_record(ctx, rec, s);
	return 0;
}

static int audit_begin(void *ctx, const struct xls_trans *t)
{
	xls_audit_begin(ctx, t);
	return 0;
}

static int audit_item(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	xls_audit_item(ctx, t, it);
	return 0;
}

static int audit_end(void *ctx, const struct xls_trans *t)
{
	xls_audit_end(ctx, t);
	return 0;
}

int xls_cmd_audit_scan(struct xls_cmd *c, struct xls_audit *a, bool stale,
		       struct xls_error *err)
{
	struct xls_scan_sink sink = {
		.ctx = a, .record = audit_record, .begin = audit_begin, .item = audit_item,
		.end = audit_end, .want_trans = true, .report = &c->report,
	};
	struct xls_scan_totals tot;
	int rc = xls_cmd_walk(c, &sink, stale, &tot, err);

	if (!rc)
		xls_audit_finish(a);
	return rc;
}

static int audit_part(struct xls_cmd *c, const struct xls_audit_parts *p, void *ctx,
		      bool stale, struct xls_error *err)
{
	struct xls_audit *a = xls_audit_new(p->on_ckpt, ctx);
	int rc;

	if (!a)
		return xls_error_set(err, XLS_EXIT_INTERNAL,
				     "out of memory for the audit of the log");
	p->begin(ctx, stale);
	xls_cmd_part_banner(c, stale);
	rc = xls_cmd_audit_scan(c, a, stale, err);
	if (!rc) {
		p->report(ctx, a);
		if (p->svg_path && !stale)
			rc = xls_cmd_write_audit_svg(p->svg_path, p->set, c->src.path,
						     xls_audit_stats(a), NULL, NULL, err);
	}
	xls_audit_free(a);
	return rc;
}

int xls_cmd_audit_parts(struct xls_cmd *c, const struct xls_audit_parts *p, void *ctx,
			struct xls_error *err)
{
	int rc = 0;

	if (c->opt->stale) {
		rc = audit_part(c, p, ctx, true, err);
		if (!rc && c->out.fmt == XLS_FMT_TEXT)
			xls_out_blank(xls_cmd_out(c));
	}
	return rc ? rc : audit_part(c, p, ctx, false, err);
}

void xls_cmd_no_match(const struct xls_cmd *c, const char *what)
{
	const struct xls_options *o = c->opt;
	char filt[512];
	size_t n = 0;

	filt[0] = '\0';
	if (o->filter.has_ino)
		n += (size_t)snprintf(filt + n, sizeof(filt) - n, " --ino=0x%llx",
				      (unsigned long long)o->filter.ino);
	if (o->filter.path_prefix && n < sizeof(filt))
		n += (size_t)snprintf(filt + n, sizeof(filt) - n, " --path=%s", o->filter.path_prefix);
	if (o->filter.has_blkno && n < sizeof(filt))
		n += (size_t)snprintf(filt + n, sizeof(filt) - n, " --blkno=0x%llx",
				      (unsigned long long)o->filter.blkno);
	if (o->filter.has_tid && n < sizeof(filt))
		n += (size_t)snprintf(filt + n, sizeof(filt) - n, " --tid=0x%x", o->filter.tid);
	if (o->filter.has_size && n < sizeof(filt))
		n += (size_t)snprintf(filt + n, sizeof(filt) - n, " --size=%u", o->filter.size);
	if (o->filter.type_mask && n < sizeof(filt))
		(void)snprintf(filt + n, sizeof(filt) - n, " --type");
	fprintf(stderr, "xfs_logscope: '%s': no %s matches%s\n", c->src.path, what, filt);
}

void xls_cmd_filters(struct xls_cmd *c, const char *what)
{
	const struct xls_filter_opts *f = &c->opt->filter;

	if (f->has_ino || f->path_prefix || f->has_blkno || f->has_tid || f->has_size ||
	    f->type_mask)
		c->filtered = what;
}

int xls_cmd_writer_start(struct xls_cmd *c)
{
	if (c->writer || c->out.fmt == XLS_FMT_CSV || !xls_scan_threaded(&c->log, &c->ht))
		return 0;
	c->writer = xls_writer_new(&c->out);
	return c->writer ? 0 : -1;
}

void xls_cmd_writer_stop(struct xls_cmd *c)
{
	xls_writer_free(c->writer);
	c->writer = NULL;
}

struct xls_out *xls_cmd_out(struct xls_cmd *c)
{
	return c->writer ? xls_writer_out(c->writer) : &c->out;
}

void xls_cmd_put(struct xls_cmd *c, xls_put_fn fn, const void *arg, uint32_t arg_len,
		 const struct xls_fieldset *fs)
{
	if (c->writer)
		xls_writer_put(c->writer, fn, arg, arg_len, fs);
	else
		fn(&c->out, arg, fs);
}
