/* stats: totals and distributions over tail..head. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "analysis/analysis.h"
#include "analysis/stats.h"
#include "cmd/cmd.h"

struct stats_ctx {
	struct xls_cmd		*c;
	struct xls_stats	*st;
	struct xls_buf_analysis	ba;
	const char		*section;	/* text: the table being printed */
};

static int on_record(void *ctx, const struct xls_rec *rec,
		     const struct xls_rec_summary *s)
{
	struct stats_ctx *sc = ctx;

	xls_stats_record(sc->st, rec, s);
	return 0;
}

static int on_item(void *ctx, const struct xls_trans *t, const struct xls_item *it)
{
	struct stats_ctx *sc = ctx;

	(void)t;
	if (it->type == XFS_LI_BUF) {
		xls_buf_analyse(it, &sc->ba);
		xls_stats_item(sc->st, it, &sc->ba);
	} else {
		xls_stats_item(sc->st, it, NULL);
	}
	return 0;
}

static int on_end(void *ctx, const struct xls_trans *t)
{
	struct stats_ctx *sc = ctx;

	xls_stats_trans(sc->st, t);
	return 0;
}

/* Text tables, 100 columns at most. */
static const struct xls_column byte_cols[] = {
	{ "category", "CATEGORY", -24 }, { "bytes", "BYTES", 14 }, { "pct", "%", 7 },
};
static const struct xls_column item_cols[] = {
	{ "item", "ITEM", -10 }, { "count", "COUNT", 12 },
};
static const struct xls_column type_cols[] = {
	{ "type", "TYPE", -10 }, { "size", "SIZE", 6 }, { "count", "COUNT", 9 },
	{ "dirty_pct_mean", "MEAN%", 6 }, { "dirty_pct_median", "MED%", 5 },
	{ "dirty_pct_p90", "P90%", 5 }, { "regions_mean", "REGS", 6 },
	{ "runs_mean", "RUNS", 6 }, { "split_runs", "SPLIT", 6 },
	{ "bytes_logged", "LOGGED", 13 },
};
static const struct xls_column hist_cols[] = {
	{ "dirty_pct", "DIRTY%", -7 }, { "buffers", "BUFFERS", 10 }, { "pct", "%", 7 },
};
static const struct xls_column hot_cols[] = {
	{ "blkno", "BLKNO", 14 }, { "len", "LEN", 6 }, { "type", "TYPE", -10 },
	{ "appearances", "SEEN", 8 }, { "bytes_logged", "LOGGED", 12 },
};

struct section {
	const char			*kind;
	const char			*title;
	const struct xls_column		*cols;
	unsigned int			ncols;
};

#define SEC(k, t, c) { k, t, c, sizeof(c) / sizeof(c[0]) }
static const struct section sections[] = {
	SEC("bytes", "Log bytes by category", byte_cols),
	SEC("items", "Log items by type", item_cols),
	SEC("buftype", "Buffers by type and size (dirty % to 1 % resolution)", type_cols),
	SEC("histogram", "Dirty % of buffers", hist_cols),
	SEC("hot", "Hottest buffers, by appearances", hot_cols),
	SEC("hot_bytes", "Hottest buffers, by bytes logged", hot_cols),
};

static void emit_text(struct stats_ctx *sc, const char *kind,
		      const struct xls_fieldset *fs)
{
	struct xls_out *o = &sc->c->out;

	if (strcmp(kind, "total") == 0) {
		xls_out_printf(o, "Totals\n");
		xls_cmd_print_pairs(sc->c, fs, 28, "  ");
		return;
	}
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		const struct section *s = &sections[i];

		if (strcmp(kind, s->kind) != 0)
			continue;
		if (sc->section != s->kind) {
			xls_out_printf(o, "\n%s\n", s->title);
			xls_out_table_heading(&sc->c->out, s->cols, s->ncols);
			sc->section = s->kind;
		}
		xls_out_table_row(&sc->c->out, s->cols, s->ncols, fs);
	}
}

static void emit_row(void *ctx, const char *kind, const struct xls_fieldset *fs)
{
	struct stats_ctx *sc = ctx;

	switch (sc->c->out.fmt) {
	case XLS_FMT_TEXT:
		emit_text(sc, kind, fs);
		break;
	case XLS_FMT_JSON:
		xls_cmd_record(sc->c, kind, fs);
		break;
	case XLS_FMT_CSV:
		/* One layout per CSV stream: the buffer type table. */
		if (strcmp(kind, "buftype") == 0)
			xls_cmd_record(sc->c, kind, fs);
		break;
	}
}

int xls_cmd_stats(const struct xls_options *opt, struct xls_error *err)
{
	struct xls_scan_totals tot;
	struct stats_ctx *sc = calloc(1, sizeof(*sc));
	struct xls_scan_sink sink = {
		.ctx = sc, .record = on_record, .item = on_item, .end = on_end,
		.want_trans = true,
	};
	struct xls_cmd c;
	int rc;

	if (sc)
		sc->st = xls_stats_new();
	if (!sc || !sc->st) {
		free(sc);
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory"), err->status;
	}
	if (xls_cmd_open(&c, opt, err)) {
		xls_stats_free(sc->st);
		free(sc);
		return err->status;
	}
	xls_out_csv_layout(&c.out, &xls_csv_stats_types);
	c.findings_mode = XLS_FINDINGS_COUNT;
	sc->c = &c;
	sink.report = &c.report;
	rc = xls_scan(&c.log, &c.ht, XLS_ITER_LSN, &sink, &tot, err);
	if (!rc)
		xls_describe_stats(sc->st, opt->top, emit_row, sc);
	rc = xls_cmd_status(&c, rc, err);
	xls_cmd_close(&c);
	xls_stats_free(sc->st);
	free(sc);
	return rc;
}
