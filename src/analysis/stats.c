/*
 * Analysis stage: log-wide statistics in bounded memory -- fixed tables, a
 * 1 %-resolution dirty histogram per buffer type and size, and a bounded
 * table of the most logged buffers -- read back as typed rows.
 */
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/ondisk.h"
#include "analysis/stats.h"

#define TS_ROWS			512		/* distinct (type, size) pairs */
#define HOT_CAP			(1u << 16)	/* tracked buffers, at 3/4 */
#define HOT_MAX			XLS_STATS_HOT_MAX
static_assert(HOT_MAX == HOT_CAP / 4 * 3, "the hot table tracks 3/4 of its capacity");
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
	uint64_t	committed;
	struct xls_relog_split relog;
	struct xls_cost	model;
	struct xls_shadow_count shadow;
};

struct hot {
	int64_t		blkno;
	uint32_t	len;
	uint16_t	blft;
	bool		mixed;		/* logged under more than one type */
	uint64_t	count;
	uint64_t	bytes;
	struct xls_relog_split relog;
};

struct xls_stats {
	uint64_t	records, rec_bytes, hdr_bytes, ext_bytes;
	uint64_t	op_hdr_bytes, op_payload, pad_bytes, unused_bytes;
	uint64_t	trans[XLS_TRANS_CORRUPT + 1];
	uint64_t	th_num_items, trans_regions, trans_items;
	uint64_t	trans_header_bytes, unmount_bytes;
	uint64_t	items_by_type[XLS_ITEM_SLOTS];
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
	uint32_t	hot_gen;	/* purges so far: they move the slots */
	/* committed items, in commit order */
	struct xls_relog_split relog_buf, relog_inode;
	uint64_t	relog_unknown;
	struct xls_cost	cost;
	struct xls_shadow_count shadow;
	uint64_t	cost_items;
	struct xls_ckpt_status bounds;
	struct xls_ckpt_stats *ckpts;
};

struct xls_stats *xls_stats_new(void)
{
	struct xls_stats *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->hot = calloc(HOT_MAX, sizeof(*st->hot));
	st->ckpts = xls_ckpt_stats_new();
	if (!st->hot || !st->ckpts) {
		xls_stats_free(st);
		return NULL;
	}
	return st;
}

void xls_stats_free(struct xls_stats *st)
{
	if (st) {
		free(st->hot);
		xls_hashmap_free(&st->hot_index);
		xls_ckpt_stats_free(st->ckpts);
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
	st->hot_gen++;
	xls_hashmap_clear(&st->hot_index);
	for (uint32_t i = 0; i < st->nhot; i++)
		xls_hashmap_put(&st->hot_index, (uint64_t)st->hot[i].blkno,
				st->hot[i].len, i);
}

/* Adds the buffer; returns its index, or UINT32_MAX when it goes uncounted. */
static uint32_t hot_add(struct xls_stats *st, const struct xls_buf_analysis *ba)
{
	int64_t blkno = ba->blf.blf_blkno;
	uint32_t len = ba->blf.blf_len;
	uint32_t *idx = xls_hashmap_find(&st->hot_index, (uint64_t)blkno, len);
	struct hot *h;

	if (!idx) {
		/* no memory for the index: the buffer goes uncounted */
		if (xls_hashmap_put(&st->hot_index, (uint64_t)blkno, len, st->nhot))
			return UINT32_MAX;
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
	if (st->nhot >= HOT_MAX) {
		hot_purge(st);
		return UINT32_MAX;
	}
	return (uint32_t)(h - st->hot);
}

/*
 * A cookie: the type and size row, the hot table slot and the purge
 * generation it belongs to (a purge moves the slots).
 */
static uint64_t cookie_of(const struct xls_stats *st, const struct ts_row *row, uint32_t hot)
{
	uint64_t at = row == &st->ts_other ? 0xffff : (uint64_t)(row - st->ts);

	return at << 48 | (uint64_t)(st->hot_gen & 0xffff) << 32 | hot;
}

static uint64_t stats_buf(struct xls_stats *st, const struct xls_buf_analysis *ba)
{
	const struct xls_region_result *r = &ba->res;
	struct ts_row *row;
	unsigned int pct;

	st->bufs++;
	if (!ba->parsed) {
		st->buf_unparsed++;
		return UINT64_MAX;
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
	return cookie_of(st, row, hot_add(st, ba));
}

uint64_t xls_stats_item(struct xls_stats *st, const struct xls_item *it,
			const struct xls_buf_analysis *ba)
{
	uint64_t data = 0;

	st->items_by_type[xls_item_slot(it->type)]++;
	if (it->nregions)
		st->fmt_bytes += it->regions[0].len;
	for (uint32_t i = 1; i < it->nregions; i++)
		data += it->regions[i].len;
	if (it->type == XFS_LI_BUF) {
		st->buf_data_bytes += data;
		if (ba)
			return stats_buf(st, ba);
	} else {
		st->other_data_bytes += data;
	}
	return UINT64_MAX;
}

void xls_stats_committed(struct xls_stats *st, const struct xls_committed_item *ci)
{
	uint32_t hot = (uint32_t)ci->cookie, *idx = NULL;
	uint32_t at = (uint32_t)(ci->cookie >> 48);
	struct ts_row *row;

	if (ci->type == XFS_LI_INODE) {
		xls_relog_split_add(&st->relog_inode, &ci->split);
		return;
	}
	xls_relog_split_add(&st->relog_buf, &ci->split);
	st->shadow.exact += ci->shadow.exact;
	st->shadow.rounded += ci->shadow.rounded;
	row = at < st->nts ? &st->ts[at] : ts_find(st, ci->blft, ci->buf_bytes);
	row->shadow.exact += ci->shadow.exact;
	row->shadow.rounded += ci->shadow.rounded;
	if (ci->blf_flags & XFS_BLF_CANCEL)
		return;
	st->cost_items++;
	xls_cost_add(&st->cost, &ci->cost);
	row->committed++;
	xls_relog_split_add(&row->relog, &ci->split);
	xls_cost_add(&row->model, &ci->cost);
	if (hot != UINT32_MAX && ((ci->cookie >> 32) & 0xffff) == (st->hot_gen & 0xffff))
		idx = &hot;
	else
		idx = xls_hashmap_find(&st->hot_index, (uint64_t)ci->blkno, ci->len_bb);
	if (idx)
		xls_relog_split_add(&st->hot[*idx].relog, &ci->split);
}

void xls_stats_checkpoint(struct xls_stats *st, const struct xls_ckpt *ck)
{
	st->relog_unknown += ck->unknown;
	xls_ckpt_stats_add(st->ckpts, ck);
}

void xls_stats_set_bounds(struct xls_stats *st, const struct xls_ckpt_status *b)
{
	st->bounds = *b;
}

/* ------------------------------------------------------------------ */
/* reading the statistics back */

void xls_stats_totals(const struct xls_stats *st, struct xls_stats_totals *t)
{
	*t = (struct xls_stats_totals){
		.records = st->records, .log_bytes = st->rec_bytes,
		.items = st->trans_items, .regions = st->trans_regions,
		.th_num_items = st->th_num_items, .buffers = st->bufs,
		.split_runs = st->split_runs, .splits = st->splits,
		.splits_on_page = st->splits_on_page,
		.inconsistent_buffers = st->buf_inconsistent,
		.unparsed_buffers = st->buf_unparsed,
	};
	memcpy(t->trans, st->trans, sizeof(t->trans));
}

const char *xls_byte_category_name(enum xls_byte_category c)
{
	static const char *const names[XLS_BYTES_NCATEGORIES] = {
		[XLS_BYTES_RECORD_HEADERS]	= "record_headers",
		[XLS_BYTES_EXT_HEADERS]		= "extended_headers",
		[XLS_BYTES_OP_HEADERS]		= "op_headers",
		[XLS_BYTES_TRANS_HEADERS]	= "trans_headers",
		[XLS_BYTES_ITEM_FORMATS]	= "item_formats",
		[XLS_BYTES_BUFFER_DATA]		= "buffer_data",
		[XLS_BYTES_OTHER_ITEM_DATA]	= "other_item_data",
		[XLS_BYTES_UNMOUNT_UNTRACKED]	= "unmount_and_untracked",
		[XLS_BYTES_UNUSED]		= "unused_record_space",
		[XLS_BYTES_PADDING]		= "padding",
	};

	return c < XLS_BYTES_NCATEGORIES ? names[c] : "?";
}

void xls_stats_bytes(const struct xls_stats *st, uint64_t bytes[XLS_BYTES_NCATEGORIES])
{
	uint64_t tracked = st->trans_header_bytes + st->fmt_bytes +
			   st->buf_data_bytes + st->other_data_bytes + st->unmount_bytes;
	uint64_t untracked = st->op_payload > tracked ? st->op_payload - tracked : 0;

	bytes[XLS_BYTES_RECORD_HEADERS] = st->hdr_bytes;
	bytes[XLS_BYTES_EXT_HEADERS] = st->ext_bytes;
	bytes[XLS_BYTES_OP_HEADERS] = st->op_hdr_bytes;
	bytes[XLS_BYTES_TRANS_HEADERS] = st->trans_header_bytes;
	bytes[XLS_BYTES_ITEM_FORMATS] = st->fmt_bytes;
	bytes[XLS_BYTES_BUFFER_DATA] = st->buf_data_bytes;
	bytes[XLS_BYTES_OTHER_ITEM_DATA] = st->other_data_bytes;
	bytes[XLS_BYTES_UNMOUNT_UNTRACKED] = st->unmount_bytes + untracked;
	bytes[XLS_BYTES_UNUSED] = st->unused_bytes;
	bytes[XLS_BYTES_PADDING] = st->pad_bytes;
}

void xls_stats_items(const struct xls_stats *st,
		     void (*fn)(void *ctx, const char *name, uint64_t count),
		     void *ctx)
{
	for (unsigned int i = 0; i < XLS_ITEM_SLOTS; i++) {
		const char *name = xls_item_slot_name(i);

		if (st->items_by_type[i] && name)
			fn(ctx, name, st->items_by_type[i]);
	}
}

uint64_t xls_stats_item_count(const struct xls_stats *st, unsigned int slot)
{
	return slot < XLS_ITEM_SLOTS ? st->items_by_type[slot] : 0;
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

static int ts_cmp(const void *a, const void *b)
{
	const struct ts_row *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost < y->cost ? 1 : -1;
	return x->blft != y->blft ? (int)x->blft - (int)y->blft :
	       (x->len > y->len) - (x->len < y->len);
}

static void type_row(const struct ts_row *row, const char *type,
		     struct xls_stats_type_row *out)
{
	double n = (double)row->count;

	out->type = type;
	out->size = row->len;
	out->count = row->count;
	out->dirty_pct_mean = row->pct_sum / n;
	out->dirty_pct_median = hist_quantile(row, 0.5);
	out->dirty_pct_p90 = hist_quantile(row, 0.9);
	out->regions_mean = (double)row->regions / n;
	out->runs_mean = (double)row->runs / n;
	out->split_runs = row->split_runs;
	out->dirty_bytes = row->dirty_bytes;
	out->bytes_logged = row->cost;
	memset(out->hist, 0, sizeof(out->hist));
	for (unsigned int p = 0; p < PCT_BINS; p++)
		out->hist[p == 100 ? 10 : p / 10] += row->pct_hist[p];
	out->committed = row->committed;
	out->relog = row->relog;
	out->cost = row->model;
	out->shadow = row->shadow;
}

int xls_stats_type_rows(const struct xls_stats *st, struct xls_stats_type_row **out)
{
	struct ts_row *rows = malloc(sizeof(st->ts[0]) * (st->nts ? st->nts : 1));
	struct xls_stats_type_row *r = malloc(sizeof(*r) * (st->nts + 1));
	int n = 0;

	*out = NULL;
	if (!rows || !r) {
		free(rows);
		free(r);
		return -1;
	}
	memcpy(rows, st->ts, sizeof(st->ts[0]) * st->nts);
	qsort(rows, st->nts, sizeof(rows[0]), ts_cmp);
	for (uint32_t i = 0; i < st->nts; i++)
		type_row(&rows[i], xls_blft_name(rows[i].blft), &r[n++]);
	if (st->ts_other.count)
		type_row(&st->ts_other, "other", &r[n++]);
	free(rows);
	*out = r;
	return n;
}

const char *xls_stats_hist_bin_name(unsigned int bin)
{
	static const char *const bins[XLS_STATS_HIST_BINS] = {
		"0-10", "10-20", "20-30", "30-40", "40-50", "50-60",
		"60-70", "70-80", "80-90", "90-100", "100",
	};

	return bin < XLS_STATS_HIST_BINS ? bins[bin] : "?";
}

void xls_stats_histogram(const struct xls_stats *st, uint64_t bins[XLS_STATS_HIST_BINS],
			 uint64_t *parsed_buffers)
{
	memcpy(bins, st->dirty_hist, sizeof(st->dirty_hist));
	*parsed_buffers = st->bufs - st->buf_unparsed;
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

uint32_t xls_stats_hot(const struct xls_stats *st, enum xls_hot_order order,
		       uint32_t top, struct xls_stats_hot *out, bool *exact)
{
	struct hot *h = malloc(sizeof(*h) * (st->nhot ? st->nhot : 1));
	uint32_t n = 0;

	*exact = st->hot_purged == 0;
	if (!h)
		return 0;
	memcpy(h, st->hot, sizeof(*h) * st->nhot);
	qsort(h, st->nhot, sizeof(*h),
	      order == XLS_HOT_BY_BYTES ? hot_cmp_bytes : hot_cmp_count);
	for (; n < st->nhot && n < top; n++) {
		out[n].blkno = h[n].blkno;
		out[n].len = h[n].len;
		out[n].blft = h[n].blft;
		out[n].mixed = h[n].mixed;
		out[n].appearances = h[n].count;
		out[n].bytes_logged = h[n].bytes;
		out[n].relog = h[n].relog;
	}
	free(h);
	return n;
}

void xls_stats_relog(const struct xls_stats *st, struct xls_stats_relog *r)
{
	r->buf = st->relog_buf;
	r->inode = st->relog_inode;
	r->unknown = st->relog_unknown;
	r->bounds = st->bounds;
}

void xls_stats_cost(const struct xls_stats *st, struct xls_cost *c,
		    struct xls_shadow_count *sh, uint64_t *items)
{
	*c = st->cost;
	*sh = st->shadow;
	*items = st->cost_items;
}

const struct xls_ckpt_stats *xls_stats_checkpoints(const struct xls_stats *st)
{
	return st->ckpts;
}
