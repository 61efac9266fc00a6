/*
 * Report stage: the statistics of a log (analysis/stats.h) as rows of
 * fields: "total", then "bytes", "items", "buftype", "histogram", "relog",
 * "checkpoint_dist", "cost_model", "cost_buftype", "hot" and "hot_bytes"
 * rows, in that order.
 */
#include <stdlib.h>

#include "report/describe_audit.h"
#include "report/describe_stats.h"

static double pct_of(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void totals(const struct xls_stats_totals *t, struct xls_fieldset *fs)
{
	xls_field_uint(fs, XK(records), t->records);
	xls_field_uint(fs, XK(log_bytes), t->log_bytes);
	xls_field_uint(fs, XK(trans_committed), t->trans[XLS_TRANS_COMMITTED]);
	xls_field_uint(fs, XK(trans_incomplete), t->trans[XLS_TRANS_INCOMPLETE]);
	xls_field_uint(fs, XK(trans_corrupt), t->trans[XLS_TRANS_CORRUPT]);
	xls_field_uint(fs, XK(unmount_records), t->trans[XLS_TRANS_UNMOUNT]);
	xls_field_uint(fs, XK(items), t->items);
	xls_field_uint(fs, XK(regions), t->regions);
	xls_field_uint(fs, XK(th_num_items), t->th_num_items);
	xls_field_uint(fs, XK(buffers), t->buffers);
	xls_field_uint(fs, XK(split_runs), t->split_runs);
	xls_field_uint(fs, XK(splits), t->splits);
	xls_field_uint(fs, XK(splits_on_page_boundary), t->splits_on_page);
	xls_field_uint(fs, XK(inconsistent_buffers), t->inconsistent_buffers);
	xls_field_uint(fs, XK(unreadable_buffer_formats), t->unparsed_buffers);
}

static const struct xls_record_kind *const row_kinds[XLS_ROW_KINDS] = {
	[XLS_ROW_TOTAL] = XR(total), [XLS_ROW_BYTES] = XR(bytes), [XLS_ROW_ITEMS] = XR(items),
	[XLS_ROW_BUFTYPE] = XR(buftype), [XLS_ROW_HISTOGRAM] = XR(histogram),
	[XLS_ROW_RELOG] = XR(relog), [XLS_ROW_CHECKPOINT_DIST] = XR(checkpoint_dist),
	[XLS_ROW_COST_MODEL] = XR(cost_model), [XLS_ROW_COST_BUFTYPE] = XR(cost_buftype),
	[XLS_ROW_HOT] = XR(hot), [XLS_ROW_HOT_BYTES] = XR(hot_bytes),
	[XLS_ROW_COMPARE_TOTAL] = XR(compare_total), [XLS_ROW_COMPARE_BYTES] = XR(compare_bytes),
	[XLS_ROW_COMPARE_TYPE] = XR(compare_type), [XLS_ROW_COMPARE_BUFTYPE] = XR(compare_buftype),
	[XLS_ROW_COMPARE_ITEMS] = XR(compare_items),
};

const struct xls_record_kind *xls_row_kind_record(enum xls_row_kind kind)
{
	static const struct xls_record_kind unknown = { "?" };

	return (unsigned int)kind < XLS_ROW_KINDS ? row_kinds[kind] : &unknown;
}

struct items_ctx {
	struct xls_fieldset	*fs;
	xls_describe_emit_fn	emit;
	void			*ctx;
};

static void item_row(void *vctx, const char *name, uint64_t count)
{
	struct items_ctx *ic = vctx;

	xls_fields_reset(ic->fs);
	xls_field_str(ic->fs, XK(item), name);
	xls_field_uint(ic->fs, XK(count), count);
	ic->emit(ic->ctx, XLS_ROW_ITEMS, ic->fs);
}

/* A buffer type table's row (xls_csv_stats_types' columns, in order). */
static const struct xls_member type_row_members[] = {
	XLS_MEMBER(type, str, struct xls_stats_type_row, type),
	XLS_MEMBER(len, uint, struct xls_stats_type_row, size),
	XLS_MEMBER(count, uint, struct xls_stats_type_row, count),
	XLS_MEMBER(dirty_pct_mean, real, struct xls_stats_type_row, dirty_pct_mean),
	XLS_MEMBER(dirty_pct_median, uint, struct xls_stats_type_row, dirty_pct_median),
	XLS_MEMBER(dirty_pct_p90, uint, struct xls_stats_type_row, dirty_pct_p90),
	XLS_MEMBER(regions_mean, real, struct xls_stats_type_row, regions_mean),
	XLS_MEMBER(runs_mean, real, struct xls_stats_type_row, runs_mean),
	XLS_MEMBER(split_runs, uint, struct xls_stats_type_row, split_runs),
	XLS_MEMBER(dirty_bytes, uint, struct xls_stats_type_row, dirty_bytes),
	XLS_MEMBER(bytes_logged, uint, struct xls_stats_type_row, bytes_logged),
	XLS_MEMBER(committed_items, uint, struct xls_stats_type_row, committed),
};

static void type_rows(const struct xls_stats *st, struct xls_fieldset *fs,
		      xls_describe_emit_fn emit, void *ctx)
{
	struct xls_stats_type_row *rows;
	int n = xls_stats_type_rows(st, &rows);

	for (int i = 0; i < n; i++) {
		xls_fields_reset(fs);
		XLS_FIELD_MEMBERS(fs, type_row_members, &rows[i]);
		xls_describe_relog_split(&rows[i].relog, fs);
		emit(ctx, XLS_ROW_BUFTYPE, fs);
	}
	free(rows);
}

static void hot_rows(const struct xls_stats *st, enum xls_hot_order order,
		     unsigned int top, enum xls_row_kind kind, struct xls_fieldset *fs,
		     xls_describe_emit_fn emit, void *ctx)
{
	struct xls_stats_hot *h = malloc(sizeof(*h) * (top ? top : 1));
	bool exact;
	uint32_t n;

	if (!h)
		return;
	n = xls_stats_hot(st, order, top, h, &exact);
	for (uint32_t i = 0; i < n; i++) {
		xls_fields_reset(fs);
		xls_field_hex(fs, XK(blkno), (uint64_t)h[i].blkno);
		xls_field_uint(fs, XK(len), (uint64_t)h[i].len * 512);
		xls_field_str(fs, XK(type), h[i].mixed ? "mixed" : xls_blft_name(h[i].blft));
		xls_field_uint(fs, XK(appearances), h[i].appearances);
		xls_field_uint(fs, XK(bytes_logged), h[i].bytes_logged);
		xls_describe_relog_split(&h[i].relog, fs);
		xls_field_bool(fs, XK(exact), exact);
		emit(ctx, kind, fs);
	}
	free(h);
}

static void relog_row(const struct xls_stats *st, struct xls_fieldset *fs,
		      xls_describe_emit_fn emit, void *ctx)
{
	struct xls_stats_relog r;

	xls_stats_relog(st, &r);
	xls_fields_reset(fs);
	xls_describe_relog(&r, fs);
	emit(ctx, XLS_ROW_RELOG, fs);
}

static void dist_rows(const struct xls_stats *st, struct xls_fieldset *fs,
		      xls_describe_emit_fn emit, void *ctx)
{
	const struct xls_ckpt_stats *cs = xls_stats_checkpoints(st);

	for (unsigned int m = 0; m < XLS_CKM_NMEASURES; m++) {
		struct xls_dist d;

		xls_ckpt_stats_dist(cs, m, &d);
		xls_fields_reset(fs);
		xls_field_str(fs, XK(measure), xls_ckpt_measure_name(m));
		xls_field_uint(fs, XK(checkpoints), d.n);
		xls_field_uint(fs, XK(min), d.min);
		xls_field_uint(fs, XK(p50), d.p50);
		xls_field_uint(fs, XK(p90), d.p90);
		xls_field_uint(fs, XK(p99), d.p99);
		xls_field_uint(fs, XK(max), d.max);
		xls_field_real(fs, XK(mean), d.mean);
		emit(ctx, XLS_ROW_CHECKPOINT_DIST, fs);
	}
}

static void cost_rows(const struct xls_stats *st, struct xls_fieldset *fs,
		      xls_describe_emit_fn emit, void *ctx)
{
	struct xls_stats_type_row *rows;
	struct xls_shadow_count sh;
	struct xls_stats_relog r;
	struct xls_cost c;
	uint64_t items;
	int n;

	xls_stats_cost(st, &c, &sh, &items);
	xls_stats_relog(st, &r);
	xls_fields_reset(fs);
	xls_describe_cost(items, &c, &sh, fs);
	xls_field_uint(fs, XK(shadow_untracked), r.bounds.shadow_untracked);
	emit(ctx, XLS_ROW_COST_MODEL, fs);
	n = xls_stats_type_rows(st, &rows);
	for (int i = 0; i < n; i++) {
		if (!rows[i].committed && !rows[i].shadow.exact)
			continue;
		xls_fields_reset(fs);
		xls_field_str(fs, XK(type), rows[i].type);
		xls_field_uint(fs, XK(len), rows[i].size);
		xls_describe_cost(rows[i].committed, &rows[i].cost, &rows[i].shadow, fs);
		emit(ctx, XLS_ROW_COST_BUFTYPE, fs);
	}
	free(rows);
}

void xls_describe_stats(const struct xls_stats *st, unsigned int top,
			xls_describe_emit_fn emit, void *ctx)
{
	struct xls_fieldset *fs = malloc(sizeof(*fs));
	struct xls_stats_totals t;
	uint64_t bytes[XLS_BYTES_NCATEGORIES], bins[XLS_STATS_HIST_BINS], parsed;
	struct items_ctx ic = { fs, emit, ctx };

	if (!fs)
		return;
	xls_stats_totals(st, &t);
	xls_fields_reset(fs);
	totals(&t, fs);
	emit(ctx, XLS_ROW_TOTAL, fs);
	xls_stats_bytes(st, bytes);
	for (unsigned int c = 0; c < XLS_BYTES_NCATEGORIES; c++) {
		xls_fields_reset(fs);
		xls_field_str(fs, XK(category), xls_byte_category_name(c));
		xls_field_uint(fs, XK(bytes), bytes[c]);
		xls_field_real(fs, XK(pct), pct_of(bytes[c], t.log_bytes));
		emit(ctx, XLS_ROW_BYTES, fs);
	}
	xls_stats_items(st, item_row, &ic);
	type_rows(st, fs, emit, ctx);
	xls_stats_histogram(st, bins, &parsed);
	for (unsigned int b = 0; b < XLS_STATS_HIST_BINS; b++) {
		xls_fields_reset(fs);
		xls_field_str(fs, XK(dirty_pct_bin), xls_stats_hist_bin_name(b));
		xls_field_uint(fs, XK(buffers), bins[b]);
		xls_field_real(fs, XK(pct), pct_of(bins[b], parsed));
		emit(ctx, XLS_ROW_HISTOGRAM, fs);
	}
	relog_row(st, fs, emit, ctx);
	dist_rows(st, fs, emit, ctx);
	cost_rows(st, fs, emit, ctx);
	hot_rows(st, XLS_HOT_BY_APPEARANCES, top, XLS_ROW_HOT, fs, emit, ctx);
	hot_rows(st, XLS_HOT_BY_BYTES, top, XLS_ROW_HOT_BYTES, fs, emit, ctx);
	free(fs);
}

bool xls_print_section_row(struct xls_out *o, const struct xls_section *secs, size_t nsecs,
			   const struct xls_section **current, enum xls_row_kind kind,
			   const struct xls_fieldset *fs)
{
	for (size_t i = 0; i < nsecs; i++) {
		const struct xls_section *s = &secs[i];

		if (kind != s->kind)
			continue;
		if (*current != s) {
			xls_out_printf(o, "%s%s\n", *current ? "\n" : "", s->title);
			if (s->cols)
				xls_out_table_heading(o, s->cols, s->ncols);
			*current = s;
		}
		if (s->cols)
			xls_out_table_row(o, s->cols, s->ncols, fs);
		else
			xls_out_pairs(o, fs, 28, "  ");
		return true;
	}
	return false;
}
