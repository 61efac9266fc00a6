/*
 * files: per inode, in recovery order, what the log does to it, with
 * names: one event per line.  --ino and --path keep the events of one
 * inode, or of the inodes under a path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "semantics/files.h"

static const struct xls_column event_columns[] = {
	{ "seq",	"SEQ",		6 },
	{ "lsn",	"LSN",		10 },
	{ "ino",	"INO",		12 },
	{ "event",	"EVENT",	-14 },
	{ "path",	"PATH",		-28 },
	{ "detail",	"DETAIL",	-1 },
};
#define NCOLS (sizeof(event_columns) / sizeof(event_columns[0]))

struct files_ctx {
	struct xls_cmd		*c;
	struct xls_files	*f;
	struct xls_fieldset	fs;
	char			path[4096];
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

static int on_event(void *ctx, const struct xls_file_event *e)
{
	struct files_ctx *fc = ctx;
	struct xls_cmd *c = fc->c;
	bool known;

	if (c->opt->has_ino && e->ino != c->opt->ino && e->dir != c->opt->ino &&
	    e->new_dir != c->opt->ino)
		return 0;
	known = xls_files_path(fc->f, e->ino, fc->path, sizeof(fc->path));
	if (c->opt->path_prefix && (!known || !under(fc->path, c->opt->path_prefix)))
		return 0;
	xls_fields_reset(&fc->fs);
	xls_describe_file_event(e, fc->path[0] ? fc->path : NULL, c->out.fmt == XLS_FMT_TEXT,
				&fc->fs);
	if (c->out.fmt == XLS_FMT_TEXT)
		xls_out_table_row(&c->out, event_columns, NCOLS, &fc->fs);
	else
		xls_cmd_record(c, "event", &fc->fs);
	return 0;
}

int xls_cmd_files(const struct xls_options *opt, struct xls_error *err)
{
	struct files_ctx *fc = calloc(1, sizeof(*fc));
	struct xls_files_sink sink = { .ctx = fc, .event = on_event };
	struct xls_cmd c;
	int rc;

	if (!fc)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory"), err->status;
	if (xls_cmd_open(&c, opt, err)) {
		free(fc);
		return err->status;
	}
	fc->c = &c;
	sink.report = &c.report;
	xls_out_csv_layout(&c.out, &xls_csv_files);
	if (c.out.fmt == XLS_FMT_TEXT)
		xls_out_table_heading(&c.out, event_columns, NCOLS);
	fc->f = xls_files_new(&c.src, opt->blocks_mem, err);
	rc = fc->f ? xls_files_run(fc->f, &c.log, &c.ht, &sink, err) : -1;
	rc = xls_cmd_status(&c, rc, err);
	xls_files_free(fc->f);
	xls_cmd_close(&c);
	free(fc);
	return rc;
}
