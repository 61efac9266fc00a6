/*
 * Analysis stage.  Per buffer: xls_region_reconstruct() does recovery's
 * bitmap walk; here are the derived numbers.  Per log: bounded tables.
 */
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/ondisk.h"
#include "analysis/analysis.h"

/* ------------------------------------------------------------------ */
/* one buffer */

void xls_buf_analyse(const struct xls_item *it, struct xls_buf_analysis *ba)
{
	ba->parsed = xls_buf_format_parse(it, &ba->blf, &ba->why) == 0;
	ba->log_cost = it->op_bytes;
	for (uint32_t i = 0; i < it->nregions; i++)
		ba->log_cost += it->regions[i].len;
	ba->dirty_pct = 0;
	ba->blft = 0;
	if (!ba->parsed) {
		memset(&ba->res, 0, offsetof(struct xls_region_result, places));
		return;
	}
	ba->blft = xls_blft(ba->blf.blf_flags);
	xls_region_reconstruct(it, &ba->blf, &ba->res);
	if (ba->res.buf_bytes)
		ba->dirty_pct = 100.0 * (double)ba->res.dirty_bytes /
				(double)ba->res.buf_bytes;
}

void xls_buf_fields(const struct xls_buf_analysis *ba, struct xls_fieldset *fs)
{
	char buf[160];

	if (!ba->parsed) {
		xls_field_str(fs, "finding", ba->why);
		return;
	}
	xls_field_hex(fs, "blkno", (uint64_t)ba->blf.blf_blkno);
	xls_field_uint(fs, "len", ba->res.buf_bytes);
	xls_field_str(fs, "type", xls_blft_name(ba->blft));
	xls_blf_flags_str(ba->blf.blf_flags, buf, sizeof(buf));
	xls_field_str(fs, "flags", buf);
	xls_field_uint(fs, "map_size", ba->blf.blf_map_size);
	xls_field_uint(fs, "regions", ba->res.nregions);
	xls_field_uint(fs, "runs", ba->res.nruns);
	xls_field_uint(fs, "split_runs", ba->res.nsplit_runs);
	xls_field_uint(fs, "dirty_bytes", ba->res.dirty_bytes);
	xls_field_real(fs, "dirty_pct", ba->dirty_pct);
	xls_field_uint(fs, "data_bytes", ba->res.data_bytes);
	xls_field_uint(fs, "log_cost", ba->log_cost);
	xls_region_problems_str(ba->res.problems, buf, sizeof(buf));
	xls_field_str(fs, "problems", ba->res.problems ? buf : "");
}

/* ------------------------------------------------------------------ */
/* statistics */

#define ITEM_TYPE_BASE		XFS_LI_EFI
#define ITEM_TYPE_SLOTS		32		/* 0x1236 .. 0x1255 */
#define TS_ROWS			512		/* distinct (type, size) pairs */
#define HOT_CAP			(1u << 16)	/* tracked buffers, at 3/4 */
#define HOT_MAX			(HOT_CAP / 4 * 3)
#define PCT_BINS		101		/* 0 .. 100 % */

struct ts_row {
	uint16_t	blft;
	uint32_t	len;		/* bytes */
	uint64_t	count;
	uint64_t	regions;
	uint64_t	runs;
	uint64_t	split_runs;
	uint64_t	dirty_bytes;
	uint64_t	cost;
	double		pct_sum;
	uint32_t	pct_hist[PCT_BINS];
};

struct hot {
	int64_t		blkno;
	uint32_t	len;
	uint16_t	blft;
	bool		mixed;		/* logged under more than one type */
	uint64_t	count;
	uint64_t	bytes;
};

struct xls_stats {
	uint64_t	records, rec_bytes, hdr_bytes, ext_bytes;
	uint64_t	op_hdr_bytes, op_payload, pad_bytes, unused_bytes;
	uint64_t	trans[XLS_TRANS_CORRUPT + 1];
	uint64_t	th_num_items, trans_regions, trans_items;
	uint64_t	trans_header_bytes, unmount_bytes;
	uint64_t	items_by_type[ITEM_TYPE_SLOTS + 1];	/* last: unknown */
	uint64_t	fmt_bytes, buf_data_bytes, other_data_bytes;
	uint64_t	bufs, buf_unparsed, buf_inconsistent;
	uint64_t	split_runs, splits, splits_on_page;
	uint64_t	dirty_hist[11];				/* 10 % bins + 100 % */
	struct ts_row	ts[TS_ROWS];
	uint32_t	nts;
	struct ts_row	ts_other;
	struct hot	*hot;		/* HOT_MAX, in the order first seen */
	uint32_t	nhot;
	struct xls_hashmap hot_index;	/* (blkno, len) -> index in hot */
	uint64_t	hot_purged;	/* counts dropped to bound the table */
};

struct xls_stats *xls_stats_new(void)
{
	struct xls_stats *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->hot = calloc(HOT_MAX, sizeof(*st->hot));
	if (!st->hot) {
		free(st);
		return NULL;
	}
	return st;
}

void xls_stats_free(struct xls_stats *st)
{
	if (st) {
		free(st->hot);
		xls_hashmap_free(&st->hot_index);
	}
	free(st);
}

void xls_stats_record(struct xls_stats *st, const struct xls_rec *rec,
		      const struct xls_rec_summary *s)
{
	st->records++;
	st->rec_bytes += (uint64_t)(rec->hblks + rec->data_blks) * 512;
	st->hdr_bytes += 512;
	st->ext_bytes += (uint64_t)(rec->hblks - 1) * 512;
	st->op_hdr_bytes += s->op_header_bytes;
	st->op_payload += s->op_data_bytes;
	st->unused_bytes += s->unused_bytes;
	st->pad_bytes += (uint64_t)rec->data_blks * 512 - rec->h_len;
}

void xls_stats_trans(struct xls_stats *st, const struct xls_trans *t)
{
	st->trans[t->state]++;
	st->th_num_items += t->th_num_items;
	st->trans_regions += t->nregions;
	st->trans_items += t->nitems;
	st->trans_header_bytes += t->header_bytes;
	if (t->state == XLS_TRANS_UNMOUNT)
		st->unmount_bytes += t->region_bytes;
}

static struct ts_row *ts_find(struct xls_stats *st, uint16_t blft, uint32_t len)
{
	for (uint32_t i = 0; i < st->nts; i++)
		if (st->ts[i].blft == blft && st->ts[i].len == len)
			return &st->ts[i];
	if (st->nts == TS_ROWS)
		return &st->ts_other;
	st->ts[st->nts].blft = blft;
	st->ts[st->nts].len = len;
	return &st->ts[st->nts++];
}

/*
 * Keep the table at most 3/4 full by dropping the least counted buffers:
 * a buffer that appears often is never dropped, so the hottest survive;
 * hot_purged tells the report that counts of dropped ones were lost.
 */
static void hot_purge(struct xls_stats *st)
{
	uint64_t limit = 1;

	while (st->nhot > HOT_CAP / 2) {
		uint32_t n = 0;

		for (uint32_t i = 0; i < st->nhot; i++) {
			if (st->hot[i].count <= limit) {
				st->hot_purged++;
				continue;
			}
			st->hot[n++] = st->hot[i];
		}
		st->nhot = n;
		limit++;
	}
	xls_hashmap_clear(&st->hot_index);
	for (uint32_t i = 0; i < st->nhot; i++)
		xls_hashmap_put(&st->hot_index, (uint64_t)st->hot[i].blkno,
				st->hot[i].len, i);
}

static void hot_add(struct xls_stats *st, const struct xls_buf_analysis *ba)
{
	int64_t blkno = ba->blf.blf_blkno;
	uint32_t len = ba->blf.blf_len;
	uint32_t *idx = xls_hashmap_find(&st->hot_index, (uint64_t)blkno, len);
	struct hot *h;

	if (!idx) {
		/* no memory for the index: the buffer goes uncounted */
		if (xls_hashmap_put(&st->hot_index, (uint64_t)blkno, len, st->nhot))
			return;
		h = &st->hot[st->nhot++];
		memset(h, 0, sizeof(*h));
		h->blkno = blkno;
		h->len = len;
		h->blft = (uint16_t)ba->blft;
	} else {
		h = &st->hot[*idx];
	}
	if (h->blft != ba->blft)
		h->mixed = true;
	h->blft = (uint16_t)ba->blft;
	h->count++;
	h->bytes += ba->log_cost;
	if (st->nhot >= HOT_MAX)
		hot_purge(st);
}

static void stats_buf(struct xls_stats *st, const struct xls_buf_analysis *ba)
{
	const struct xls_region_result *r = &ba->res;
	struct ts_row *row;
	unsigned int pct;

	st->bufs++;
	if (!ba->parsed) {
		st->buf_unparsed++;
		return;
	}
	if (r->problems)
		st->buf_inconsistent++;
	st->split_runs += r->nsplit_runs;
	st->splits += r->nsplits;
	for (uint32_t i = 0; i < r->nsplits_stored; i++)
		st->splits_on_page += r->splits[i].page_boundary;
	pct = (unsigned int)ba->dirty_pct;
	if (pct > 100)
		pct = 100;
	st->dirty_hist[pct == 100 ? 10 : pct / 10]++;
	row = ts_find(st, (uint16_t)ba->blft, (uint32_t)r->buf_bytes);
	row->count++;
	row->regions += r->nregions;
	row->runs += r->nruns;
	row->split_runs += r->nsplit_runs;
	row->dirty_bytes += r->dirty_bytes;
	row->cost += ba->log_cost;
	row->pct_sum += ba->dirty_pct;
	row->pct_hist[pct]++;
	hot_add(st, ba);
}

void xls_stats_item(struct xls_stats *st, const struct xls_item *it,
		    const struct xls_buf_analysis *ba)
{
	uint32_t slot = it->type - ITEM_TYPE_BASE;
	uint64_t data = 0;

	if (it->type < ITEM_TYPE_BASE || slot >= ITEM_TYPE_SLOTS ||
	    !xls_item_type_name(it->type))
		slot = ITEM_TYPE_SLOTS;
	st->items_by_type[slot]++;
	if (it->nregions)
		st->fmt_bytes += it->regions[0].len;
	for (uint32_t i = 1; i < it->nregions; i++)
		data += it->regions[i].len;
	if (it->type == XFS_LI_BUF) {
		st->buf_data_bytes += data;
		if (ba)
			stats_buf(st, ba);
	} else {
		st->other_data_bytes += data;
	}
}

/* ------------------------------------------------------------------ */
/* report */

static double pct_of(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Smallest percent p with at least @q of the row's buffers at or below p. */
static unsigned int hist_quantile(const struct ts_row *row, double q)
{
	uint64_t need = (uint64_t)((double)row->count * q + 0.999999), seen = 0;

	for (unsigned int p = 0; p < PCT_BINS; p++) {
		seen += row->pct_hist[p];
		if (seen >= need && seen)
			return p;
	}
	return 100;
}

static void emit_totals(const struct xls_stats *st, xls_stats_emit_fn emit, void *ctx)
{
	struct xls_fieldset fs;

	xls_fields_reset(&fs);
	xls_field_uint(&fs, "records", st->records);
	xls_field_uint(&fs, "log_bytes", st->rec_bytes);
	xls_field_uint(&fs, "trans_committed", st->trans[XLS_TRANS_COMMITTED]);
	xls_field_uint(&fs, "trans_incomplete", st->trans[XLS_TRANS_INCOMPLETE]);
	xls_field_uint(&fs, "trans_corrupt", st->trans[XLS_TRANS_CORRUPT]);
	xls_field_uint(&fs, "unmount_records", st->trans[XLS_TRANS_UNMOUNT]);
	xls_field_uint(&fs, "items", st->trans_items);
	xls_field_uint(&fs, "regions", st->trans_regions);
	xls_field_uint(&fs, "th_num_items", st->th_num_items);
	xls_field_uint(&fs, "buffers", st->bufs);
	xls_field_uint(&fs, "split_runs", st->split_runs);
	xls_field_uint(&fs, "splits", st->splits);
	xls_field_uint(&fs, "splits_on_page_boundary", st->splits_on_page);
	xls_field_uint(&fs, "inconsistent_buffers", st->buf_inconsistent);
	xls_field_uint(&fs, "unreadable_buffer_formats", st->buf_unparsed);
	emit(ctx, "total", &fs);
}

static void emit_byte_row(const struct xls_stats *st, const char *category,
			  uint64_t bytes, xls_stats_emit_fn emit, void *ctx)
{
	struct xls_fieldset fs;

	xls_fields_reset(&fs);
	xls_field_str(&fs, "category", category);
	xls_field_uint(&fs, "bytes", bytes);
	xls_field_real(&fs, "pct", pct_of(bytes, st->rec_bytes));
	emit(ctx, "bytes", &fs);
}

static void emit_bytes(const struct xls_stats *st, xls_stats_emit_fn emit, void *ctx)
{
	uint64_t tracked = st->trans_header_bytes + st->fmt_bytes +
			   st->buf_data_bytes + st->other_data_bytes + st->unmount_bytes;
	uint64_t untracked = st->op_payload > tracked ? st->op_payload - tracked : 0;

	emit_byte_row(st, "record_headers", st->hdr_bytes, emit, ctx);
	emit_byte_row(st, "extended_headers", st->ext_bytes, emit, ctx);
	emit_byte_row(st, "op_headers", st->op_hdr_bytes, emit, ctx);
	emit_byte_row(st, "trans_headers", st->trans_header_bytes, emit, ctx);
	emit_byte_row(st, "item_formats", st->fmt_bytes, emit, ctx);
	emit_byte_row(st, "buffer_data", st->buf_data_bytes, emit, ctx);
	emit_byte_row(st, "other_item_data", st->other_data_bytes, emit, ctx);
	emit_byte_row(st, "unmount_and_untracked", st->unmount_bytes + untracked, emit, ctx);
	emit_byte_row(st, "unused_record_space", st->unused_bytes, emit, ctx);
	emit_byte_row(st, "padding", st->pad_bytes, emit, ctx);
}

static void emit_items(const struct xls_stats *st, xls_stats_emit_fn emit, void *ctx)
{
	struct xls_fieldset fs;

	for (uint32_t i = 0; i <= ITEM_TYPE_SLOTS; i++) {
		const char *name = i < ITEM_TYPE_SLOTS ?
				   xls_item_type_name((uint16_t)(ITEM_TYPE_BASE + i)) :
				   "unknown";

		if (!st->items_by_type[i] || !name)
			continue;
		xls_fields_reset(&fs);
		xls_field_str(&fs, "item", name);
		xls_field_uint(&fs, "count", st->items_by_type[i]);
		emit(ctx, "items", &fs);
	}
}

static int ts_cmp(const void *a, const void *b)
{
	const struct ts_row *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost < y->cost ? 1 : -1;
	return x->blft != y->blft ? (int)x->blft - (int)y->blft :
	       (x->len > y->len) - (x->len < y->len);
}

static void emit_ts_row(const struct ts_row *row, const char *type,
			xls_stats_emit_fn emit, void *ctx)
{
	struct xls_fieldset fs;
	double n = (double)row->count;

	xls_fields_reset(&fs);
	xls_field_str(&fs, "type", type);
	xls_field_uint(&fs, "size", row->len);
	xls_field_uint(&fs, "count", row->count);
	xls_field_real(&fs, "dirty_pct_mean", row->pct_sum / n);
	xls_field_uint(&fs, "dirty_pct_median", hist_quantile(row, 0.5));
	xls_field_uint(&fs, "dirty_pct_p90", hist_quantile(row, 0.9));
	xls_field_real(&fs, "regions_mean", (double)row->regions / n);
	xls_field_real(&fs, "runs_mean", (double)row->runs / n);
	xls_field_uint(&fs, "split_runs", row->split_runs);
	xls_field_uint(&fs, "dirty_bytes", row->dirty_bytes);
	xls_field_uint(&fs, "bytes_logged", row->cost);
	emit(ctx, "buftype", &fs);
}

static void emit_types(const struct xls_stats *st, xls_stats_emit_fn emit, void *ctx)
{
	struct ts_row *rows = malloc(sizeof(st->ts[0]) * (st->nts ? st->nts : 1));

	if (!rows)
		return;
	memcpy(rows, st->ts, sizeof(st->ts[0]) * st->nts);
	qsort(rows, st->nts, sizeof(rows[0]), ts_cmp);
	for (uint32_t i = 0; i < st->nts; i++)
		emit_ts_row(&rows[i], xls_blft_name(rows[i].blft), emit, ctx);
	if (st->ts_other.count)
		emit_ts_row(&st->ts_other, "other", emit, ctx);
	free(rows);
}

static void emit_histogram(const struct xls_stats *st, xls_stats_emit_fn emit, void *ctx)
{
	static const char *bins[11] = {
		"0-10", "10-20", "20-30", "30-40", "40-50", "50-60",
		"60-70", "70-80", "80-90", "90-100", "100",
	};
	struct xls_fieldset fs;

	for (unsigned int i = 0; i < 11; i++) {
		xls_fields_reset(&fs);
		xls_field_str(&fs, "dirty_pct", bins[i]);
		xls_field_uint(&fs, "buffers", st->dirty_hist[i]);
		xls_field_real(&fs, "pct", pct_of(st->dirty_hist[i], st->bufs - st->buf_unparsed));
		emit(ctx, "histogram", &fs);
	}
}

static int hot_cmp_count(const void *a, const void *b)
{
	const struct hot *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	if (x->blkno != y->blkno)
		return x->blkno > y->blkno ? 1 : -1;
	return (x->len > y->len) - (x->len < y->len);
}

static int hot_cmp_bytes(const void *a, const void *b)
{
	const struct hot *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return hot_cmp_count(a, b);
}

/* The @top hottest buffers by @cmp, as rows of @kind. */
static void emit_hot(const struct xls_stats *st, unsigned int top,
		     int (*cmp)(const void *, const void *), const char *kind,
		     xls_stats_emit_fn emit, void *ctx)
{
	struct hot *h = malloc(sizeof(*h) * (st->nhot ? st->nhot : 1));
	struct xls_fieldset fs;
	uint32_t n = 0;

	if (!h)
		return;
	for (uint32_t i = 0; i < st->nhot; i++)
		h[n++] = st->hot[i];
	qsort(h, n, sizeof(*h), cmp);
	for (uint32_t i = 0; i < n && i < top; i++) {
		xls_fields_reset(&fs);
		xls_field_hex(&fs, "blkno", (uint64_t)h[i].blkno);
		xls_field_uint(&fs, "len", (uint64_t)h[i].len * 512);
		xls_field_str(&fs, "type", h[i].mixed ? "mixed" : xls_blft_name(h[i].blft));
		xls_field_uint(&fs, "appearances", h[i].count);
		xls_field_uint(&fs, "bytes_logged", h[i].bytes);
		xls_field_bool(&fs, "exact", st->hot_purged == 0);
		emit(ctx, kind, &fs);
	}
	free(h);
}

void xls_stats_report(const struct xls_stats *st, unsigned int top,
		      xls_stats_emit_fn emit, void *ctx)
{
	emit_totals(st, emit, ctx);
	emit_bytes(st, emit, ctx);
	emit_items(st, emit, ctx);
	emit_types(st, emit, ctx);
	emit_histogram(st, emit, ctx);
	emit_hot(st, top, hot_cmp_count, "hot", emit, ctx);
	emit_hot(st, top, hot_cmp_bytes, "hot_bytes", emit, ctx);
}
