/*
 * Report stage: two logs' statistics side by side -- "compare_total", then
 * "compare_bytes" (per category), "compare_buftype" (per buffer type and
 * size, A's rows first, then B's others), "compare_type" (per buffer type,
 * its sizes together) and "compare_items" (per item type) rows.  a_* keys
 * are the first log's, b_* the second's; a ratio is B over A and left out
 * when A has none; a mean or share of a journal that has no such buffer
 * is left out too, and with it the delta.
 */
#include <stdlib.h>
#include <string.h>

#include "report/describe_audit.h"
#include "report/describe_stats.h"

static double per(uint64_t v, uint64_t n)
{
	return n ? (double)v / (double)n : 0.0;
}

static double pct_of(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* a_@key, b_@key, their delta and ratio (NULL: none) */
struct pair_keys_uint {
	const struct xls_key_uint	*a, *b;
	const struct xls_key_int	*delta;
	const struct xls_key_real	*ratio;
};

struct pair_keys_real {
	const struct xls_key_real	*a, *b, *delta, *ratio;
};

static void pair_uint(struct xls_fieldset *fs, const struct pair_keys_uint *k, uint64_t a,
		      uint64_t b)
{
	xls_field_uint(fs, k->a, a);
	xls_field_uint(fs, k->b, b);
	if (k->delta)
		xls_field_int(fs, k->delta, (int64_t)(b - a));
	if (k->ratio && a)
		xls_field_real(fs, k->ratio, (double)b / (double)a);
}

/* A mean or share of each journal that has any (@has_a, @has_b). */
static void pair_mean(struct xls_fieldset *fs, const struct pair_keys_real *k, bool has_a,
		      double a, bool has_b, double b)
{
	if (has_a)
		xls_field_real(fs, k->a, a);
	if (has_b)
		xls_field_real(fs, k->b, b);
	if (k->delta && has_a && has_b)
		xls_field_real(fs, k->delta, b - a);
}

static void pair_real(struct xls_fieldset *fs, const struct pair_keys_real *k, double a, double b)
{
	xls_field_real(fs, k->a, a);
	xls_field_real(fs, k->b, b);
	if (k->delta)
		xls_field_real(fs, k->delta, b - a);
	if (k->ratio && a != 0.0)
		xls_field_real(fs, k->ratio, b / a);
}

static const struct pair_keys_uint K_CKPTS = {
	XK(a_checkpoints),
	XK(b_checkpoints),
	XK(checkpoints_delta),
	XK(checkpoints_ratio),
};
static const struct pair_keys_uint K_LOG = {
	XK(a_log_bytes),
	XK(b_log_bytes),
	XK(log_bytes_delta),
	XK(log_bytes_ratio),
};
static const struct pair_keys_real K_LOGPC = {
	XK(a_bytes_per_checkpoint),
	XK(b_bytes_per_checkpoint),
	XK(bytes_per_checkpoint_delta),
	XK(bytes_per_checkpoint_ratio),
};
static const struct pair_keys_uint K_ITEMS = {
	XK(a_items),
	XK(b_items),
	XK(items_delta),
	XK(items_ratio),
};
static const struct pair_keys_uint K_BUFS = {
	XK(a_buffers),
	XK(b_buffers),
	XK(buffers_delta),
	XK(buffers_ratio),
};
static const struct pair_keys_real K_UNCH = {
	XK(a_unchanged_pct),
	XK(b_unchanged_pct),
	XK(unchanged_pct_delta),
	NULL,
};
static const struct pair_keys_real K_IUNCH = {
	XK(a_inode_unchanged_pct),
	XK(b_inode_unchanged_pct),
	XK(inode_unchanged_pct_delta),
	NULL,
};
static const struct pair_keys_uint K_BYTES = {
	XK(a_bytes),
	XK(b_bytes),
	XK(bytes_delta),
	XK(bytes_ratio),
};
static const struct pair_keys_uint K_COUNT = {
	XK(a_count),
	XK(b_count),
	XK(count_delta),
	XK(count_ratio),
};
static const struct pair_keys_uint K_LOGGED = {
	XK(a_bytes_logged),
	XK(b_bytes_logged),
	XK(bytes_logged_delta),
	XK(bytes_logged_ratio),
};
static const struct pair_keys_real K_DIRTY = {
	XK(a_dirty_pct_mean),
	XK(b_dirty_pct_mean),
	XK(dirty_pct_mean_delta),
	NULL,
};
static const struct pair_keys_real K_FIRST = {
	XK(a_first_pct),
	XK(b_first_pct),
	XK(first_pct_delta),
	NULL,
};
static const struct pair_keys_real K_PERCK = {
	XK(a_per_checkpoint),
	XK(b_per_checkpoint),
	XK(per_checkpoint_delta),
	XK(per_checkpoint_ratio),
};

static void totals(const struct xls_stats *a, const struct xls_stats *b, const char *na,
		   const char *nb, struct xls_fieldset *fs)
{
	struct xls_stats_totals ta, tb;
	struct xls_stats_relog ra, rb;
	uint64_t ca = xls_ckpt_stats_count(xls_stats_checkpoints(a));
	uint64_t cb = xls_ckpt_stats_count(xls_stats_checkpoints(b));

	xls_stats_totals(a, &ta);
	xls_stats_totals(b, &tb);
	xls_stats_relog(a, &ra);
	xls_stats_relog(b, &rb);
	xls_field_str(fs, XK(a_input), na);
	xls_field_str(fs, XK(b_input), nb);
	pair_uint(fs, &K_CKPTS, ca, cb);
	pair_uint(fs, &K_LOG, ta.log_bytes, tb.log_bytes);
	pair_real(fs, &K_LOGPC, per(ta.log_bytes, ca), per(tb.log_bytes, cb));
	pair_uint(fs, &K_ITEMS, ta.items, tb.items);
	pair_uint(fs, &K_BUFS, ta.buffers, tb.buffers);
	pair_real(fs, &K_UNCH, pct_of(ra.buf.unchanged, xls_relog_split_total(&ra.buf)),
		  pct_of(rb.buf.unchanged, xls_relog_split_total(&rb.buf)));
	pair_real(fs, &K_IUNCH, pct_of(ra.inode.unchanged, xls_relog_split_total(&ra.inode)),
		  pct_of(rb.inode.unchanged, xls_relog_split_total(&rb.inode)));
	xls_field_bool(fs, XK(approximate), ra.bounds.relog.evicted || ra.bounds.dropped_trans ||
		       rb.bounds.relog.evicted || rb.bounds.dropped_trans);
}

static void byte_rows(const struct xls_stats *a, const struct xls_stats *b,
		      struct xls_fieldset *fs, xls_describe_emit_fn emit, void *ctx)
{
	uint64_t ba[XLS_BYTES_NCATEGORIES], bb[XLS_BYTES_NCATEGORIES];
	uint64_t ca = xls_ckpt_stats_count(xls_stats_checkpoints(a));
	uint64_t cb = xls_ckpt_stats_count(xls_stats_checkpoints(b));

	xls_stats_bytes(a, ba);
	xls_stats_bytes(b, bb);
	for (unsigned int c = 0; c < XLS_BYTES_NCATEGORIES; c++) {
		xls_fields_reset(fs);
		xls_field_str(fs, XK(category), xls_byte_category_name(c));
		pair_uint(fs, &K_BYTES, ba[c], bb[c]);
		pair_real(fs, &K_LOGPC, per(ba[c], ca), per(bb[c], cb));
		emit(ctx, XLS_ROW_COMPARE_BYTES, fs);
	}
}

static const struct xls_stats_type_row *find_row(const struct xls_stats_type_row *rows, int n,
						 const char *type, uint32_t size)
{
	for (int i = 0; i < n; i++)
		if (rows[i].size == size && strcmp(rows[i].type, type) == 0)
			return &rows[i];
	return NULL;
}

static void type_row(const struct xls_stats_type_row *x, const struct xls_stats_type_row *y,
		     uint64_t ca, uint64_t cb, struct xls_fieldset *fs)
{
	static const struct xls_stats_type_row none;
	const struct xls_stats_type_row *a = x ? x : &none, *b = y ? y : &none;
	const struct xls_stats_type_row *id = x ? x : y;

	if (!id)
		return;
	xls_field_str(fs, XK(type), id->type);
	if (id->size)	/* 0: the type's sizes together */
		xls_field_uint(fs, XK(len), id->size);
	pair_uint(fs, &K_COUNT, a->count, b->count);
	pair_uint(fs, &K_LOGGED, a->bytes_logged, b->bytes_logged);
	pair_real(fs, &K_LOGPC, per(a->bytes_logged, ca), per(b->bytes_logged, cb));
	pair_mean(fs, &K_DIRTY, a->count, a->dirty_pct_mean, b->count, b->dirty_pct_mean);
	pair_mean(fs, &K_UNCH, xls_relog_split_total(&a->relog),
		  pct_of(a->relog.unchanged, xls_relog_split_total(&a->relog)),
		  xls_relog_split_total(&b->relog),
		  pct_of(b->relog.unchanged, xls_relog_split_total(&b->relog)));
	pair_mean(fs, &K_FIRST, xls_relog_split_total(&a->relog),
		  pct_of(a->relog.first, xls_relog_split_total(&a->relog)),
		  xls_relog_split_total(&b->relog),
		  pct_of(b->relog.first, xls_relog_split_total(&b->relog)));
}

/* @type's rows of @rows (@n) as one, its sizes together (size 0). */
static bool type_total(const struct xls_stats_type_row *rows, int n, const char *type,
		       struct xls_stats_type_row *t)
{
	double dirty = 0.0;

	memset(t, 0, sizeof(*t));
	t->type = type;
	for (int i = 0; i < n; i++) {
		if (strcmp(rows[i].type, type) != 0)
			continue;
		t->count += rows[i].count;
		t->bytes_logged += rows[i].bytes_logged;
		dirty += rows[i].dirty_pct_mean * (double)rows[i].count;
		t->relog.first += rows[i].relog.first;
		t->relog.changed += rows[i].relog.changed;
		t->relog.unchanged += rows[i].relog.unchanged;
	}
	t->dirty_pct_mean = t->count ? dirty / (double)t->count : 0.0;
	return t->count != 0;
}

/* Has a row before @i of @rows the type of row @i? */
static bool type_seen(const struct xls_stats_type_row *rows, int i)
{
	for (int j = 0; j < i; j++)
		if (strcmp(rows[j].type, rows[i].type) == 0)
			return true;
	return false;
}

/* One row per buffer type, each journal's sizes together: A's types, then B's others. */
static void type_total_rows(const struct xls_stats_type_row *ra, int na,
			    const struct xls_stats_type_row *rb, int nb, uint64_t ca, uint64_t cb,
			    struct xls_fieldset *fs, xls_describe_emit_fn emit, void *ctx)
{
	struct xls_stats_type_row ta, tb;

	for (int i = 0; i < na + nb; i++) {
		const struct xls_stats_type_row *rows = i < na ? ra : rb;
		int at = i < na ? i : i - na;
		bool has_a, has_b;

		if (type_seen(rows, at) || (i >= na && type_total(ra, na, rb[at].type, &ta)))
			continue;
		has_a = type_total(ra, na, rows[at].type, &ta);
		has_b = type_total(rb, nb, rows[at].type, &tb);
		xls_fields_reset(fs);
		type_row(has_a ? &ta : NULL, has_b ? &tb : NULL, ca, cb, fs);
		emit(ctx, XLS_ROW_COMPARE_TYPE, fs);
	}
}

static void type_rows(const struct xls_stats *a, const struct xls_stats *b,
		      struct xls_fieldset *fs, xls_describe_emit_fn emit, void *ctx)
{
	struct xls_stats_type_row *ra, *rb;
	int na = xls_stats_type_rows(a, &ra), nb = xls_stats_type_rows(b, &rb);
	uint64_t ca = xls_ckpt_stats_count(xls_stats_checkpoints(a));
	uint64_t cb = xls_ckpt_stats_count(xls_stats_checkpoints(b));

	for (int i = 0; i < na; i++) {
		xls_fields_reset(fs);
		type_row(&ra[i], nb > 0 ? find_row(rb, nb, ra[i].type, ra[i].size) : NULL,
			 ca, cb, fs);
		emit(ctx, XLS_ROW_COMPARE_BUFTYPE, fs);
	}
	for (int i = 0; i < nb; i++) {
		if (na > 0 && find_row(ra, na, rb[i].type, rb[i].size))
			continue;
		xls_fields_reset(fs);
		type_row(NULL, &rb[i], ca, cb, fs);
		emit(ctx, XLS_ROW_COMPARE_BUFTYPE, fs);
	}
	type_total_rows(ra, na > 0 ? na : 0, rb, nb > 0 ? nb : 0, ca, cb, fs, emit, ctx);
	free(ra);
	free(rb);
}

static void item_rows(const struct xls_stats *a, const struct xls_stats *b,
		      struct xls_fieldset *fs, xls_describe_emit_fn emit, void *ctx)
{
	uint64_t ca = xls_ckpt_stats_count(xls_stats_checkpoints(a));
	uint64_t cb = xls_ckpt_stats_count(xls_stats_checkpoints(b));

	for (unsigned int s = 0; s < XLS_ITEM_SLOTS; s++) {
		uint64_t x = xls_stats_item_count(a, s), y = xls_stats_item_count(b, s);

		if ((!x && !y) || !xls_item_slot_name(s))
			continue;
		xls_fields_reset(fs);
		xls_field_str(fs, XK(item), xls_item_slot_name(s));
		pair_uint(fs, &K_COUNT, x, y);
		pair_real(fs, &K_PERCK, per(x, ca), per(y, cb));
		emit(ctx, XLS_ROW_COMPARE_ITEMS, fs);
	}
}

void xls_describe_compare(const struct xls_stats *a, const struct xls_stats *b,
			  const char *name_a, const char *name_b,
			  xls_describe_emit_fn emit, void *ctx)
{
	struct xls_fieldset *fs = malloc(sizeof(*fs));

	if (!fs)
		return;
	xls_fields_reset(fs);
	totals(a, b, name_a, name_b, fs);
	emit(ctx, XLS_ROW_COMPARE_TOTAL, fs);
	byte_rows(a, b, fs, emit, ctx);
	type_rows(a, b, fs, emit, ctx);
	item_rows(a, b, fs, emit, ctx);
	free(fs);
}
