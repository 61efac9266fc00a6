/*
 * stats: totals and distributions over tail..head; --svg draws them.  With
 * --stale the records before the tail get statistics of their own, first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "cmd/cmd.h"
#include "report/describe_stats.h"
#include "cmd/options.h"

/* stats' own options */
struct stats_opts {
	unsigned int	top;		/* --top: the hottest buffers listed */
	const char	*svg_path;	/* --svg: the charts */
};

struct stats_ctx {
	struct xls_cmd		*c;
	const struct xls_section *section;	/* text: the table being printed */
	bool			stale;		/* the part being reported */
};


static void emit_row(void *ctx, enum xls_row_kind kind, struct xls_fieldset *fs)
{
	struct stats_ctx *sc = ctx;

	if (sc->c->opt->stale)
		xls_field_bool(fs, XK(stale), sc->stale);
	switch (sc->c->out.fmt) {
	case XLS_FMT_TEXT:
		xls_print_section_row(&sc->c->out, xls_text_stats.secs, xls_text_stats.n,
				      &sc->section, kind, fs);
		break;
	case XLS_FMT_JSON:
		xls_cmd_record(sc->c, xls_row_kind_record(kind), fs);
		break;
	case XLS_FMT_CSV:
		/* One layout per CSV stream: the buffer type table. */
		if (kind == XLS_ROW_BUFTYPE)
			xls_cmd_record(sc->c, xls_row_kind_record(kind), fs);
		break;
	}
}

/* A part of the log begins: its tables start afresh. */
static void stats_begin(void *ctx, bool stale)
{
	struct stats_ctx *sc = ctx;

	sc->stale = stale;
	sc->section = NULL;
}

/* ... and is scanned: its tables. */
static void stats_report(void *ctx, const struct xls_audit *a)
{
	struct stats_ctx *sc = ctx;

	xls_describe_stats(xls_audit_stats(a), ((const struct stats_opts *)sc->c->opt->own)->top, emit_row, sc);
}

static int run(struct xls_cmd *c, void *ctx, struct xls_error *err)
{
	struct stats_ctx *sc = ctx;

	xls_out_csv_layout(&c->out, c->opt->stale ? &xls_csv_stats_types_stale :
			   &xls_csv_stats_types);
	c->findings_mode = XLS_FINDINGS_COUNT;
	sc->c = c;
	return xls_cmd_audit_parts(c, &(struct xls_audit_parts){ .begin = stats_begin,
				   .report = stats_report, .set = XLS_CHART_STATS,
				   .svg_path = ((const struct stats_opts *)c->opt->own)->svg_path },
				   sc, err);
}

static int check(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_check_new(((const struct stats_opts *)opt->own)->svg_path, err);
}

static int stats_main(const struct xls_options *opt, struct xls_error *err)
{
	return xls_cmd_run(opt, &(struct xls_cmd_body){ .check = check,
			   .ctx_size = sizeof(struct stats_ctx), .run = run }, err);
}

static const struct argp_option stats_options[] = {
	{ "top", XLS_OPT_OWN, "N", 0, "hottest buffers to list (default 10, at most 49152: the buffers the table tracks)", 3 },
	{ "svg", XLS_OPT_OWN + 1, "FILE", 0, "draw checkpoints, bytes by category, dirty % and relogged bytes to FILE (SVG)", 3 },
	{ 0 }
};

static error_t stats_parse(int key, char *arg, struct argp_state *state)
{
	struct stats_opts *so = xls_cmdline(state)->own;

	switch (key) {
	case ARGP_KEY_INIT:	so->top = 10; return 0;
	case XLS_OPT_OWN:	so->top = xls_opt_count(state, arg, XLS_STATS_HOT_MAX); return 0;
	case XLS_OPT_OWN + 1:	so->svg_path = arg; return 0;
	default:		return ARGP_ERR_UNKNOWN;
	}
}

const struct xls_command xls_command_stats = {
	.name = "stats", .args_doc = "DEV", .nargs = 1,
	.doc = "Totals and distributions: log bytes by category, buffers by type and size, hottest buffers.",
	.summary = "totals, bytes by category, buffer types, hottest buffers",
	.takes = XLS_TAKES_LOGDEV | XLS_TAKES_OUTPUT | XLS_TAKES_MOUNTED | XLS_TAKES_STALE,
	.options = stats_options, .parse = stats_parse,
	.own_size = sizeof(struct stats_opts), .run = stats_main,
};
