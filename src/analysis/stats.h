/*
 * Analysis stage: statistics over a log in bounded memory -- log bytes by
 * category, items by type, buffers by type and size with a 1 %-resolution
 * dirty histogram each, and a bounded table of the most logged buffers;
 * over the committed items, in commit order (checkpoint.h), the relog
 * split and the formatting cost model by buffer type and size and for the
 * hottest buffers; distributions over the checkpoints (ckptstats.h) --
 * read back as typed rows for the report.
 */
#ifndef XLS_STATS_H
#define XLS_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include "items/buf_analysis.h"
#include "analysis/checkpoint.h"
#include "analysis/ckptstats.h"
#include "analysis/logbytes.h"
#include "log/log.h"
#include "log/ops.h"
#include "trans/trans.h"

struct xls_stats;

struct xls_stats *xls_stats_new(void);
void xls_stats_free(struct xls_stats *st);

void xls_stats_record(struct xls_stats *st, const struct xls_rec *rec,
		      const struct xls_rec_summary *s);
/*
 * @ba: the analysis of a buffer item, NULL for other items.  Returns where
 * the item was counted, for xls_stats_committed() to find it again (give
 * it to xls_ckpt_item() as the cookie).
 */
uint64_t xls_stats_item(struct xls_stats *st, const struct xls_item *it,
			const struct xls_buf_analysis *ba);
void xls_stats_trans(struct xls_stats *st, const struct xls_trans *t);
/* A committed buffer or inode item, and a checkpoint (checkpoint.h). */
void xls_stats_committed(struct xls_stats *st, const struct xls_committed_item *ci);
void xls_stats_checkpoint(struct xls_stats *st, const struct xls_ckpt *ck);
/* At the end of the log: how the bounds of the relog figures went. */
void xls_stats_set_bounds(struct xls_stats *st, const struct xls_ckpt_status *b);

struct xls_stats_totals {
	uint64_t	records;
	uint64_t	log_bytes;		/* record blocks, headers included */
	uint64_t	trans[XLS_TRANS_CORRUPT + 1];	/* by end state */
	uint64_t	items;
	uint64_t	regions;
	uint64_t	th_num_items;
	uint64_t	buffers;
	uint64_t	split_runs;
	uint64_t	splits;
	uint64_t	splits_on_page;
	uint64_t	inconsistent_buffers;
	uint64_t	unparsed_buffers;
};

void xls_stats_totals(const struct xls_stats *st, struct xls_stats_totals *t);

void xls_stats_bytes(const struct xls_stats *st, uint64_t bytes[XLS_BYTES_NCATEGORIES]);

/*
 * Items by type: calls @fn for each type seen, in type order, unknown
 * types last as "unknown".
 */
void xls_stats_items(const struct xls_stats *st,
		     void (*fn)(void *ctx, const char *name, uint64_t count),
		     void *ctx);

#define XLS_STATS_HIST_BINS	11

/* Items of the type of slot @slot (checkpoint.h: xls_item_slot()). */
uint64_t xls_stats_item_count(const struct xls_stats *st, unsigned int slot);

/* Buffers of one type and size. */
struct xls_stats_type_row {
	const char	*type;		/* buffer type name, or "other" */
	uint32_t	size;		/* bytes */
	uint64_t	count;
	double		dirty_pct_mean;
	unsigned int	dirty_pct_median;
	unsigned int	dirty_pct_p90;
	double		regions_mean;
	double		runs_mean;
	uint64_t	split_runs;
	uint64_t	dirty_bytes;
	uint64_t	bytes_logged;
	uint64_t	hist[XLS_STATS_HIST_BINS];	/* dirty %, 10 % bins */
	/* committed items only, cancel records left out */
	uint64_t	committed;
	struct xls_relog_split relog;
	struct xls_cost	cost;
	struct xls_shadow_count shadow;
};

/*
 * The type and size rows, most bytes logged first, into a malloc()ed array
 * (*@rows, free() it); returns how many, or -1 when out of memory.
 */
int xls_stats_type_rows(const struct xls_stats *st, struct xls_stats_type_row **rows);

/* The dirty-% histogram: 10 % bins, then exactly 100 %. */
const char *xls_stats_hist_bin_name(unsigned int bin);
void xls_stats_histogram(const struct xls_stats *st, uint64_t bins[XLS_STATS_HIST_BINS],
			 uint64_t *parsed_buffers);

/* One of the most logged buffers. */
struct xls_stats_hot {
	int64_t		blkno;
	uint32_t	len;		/* 512-byte blocks */
	unsigned int	blft;
	bool		mixed;		/* logged under more than one type */
	uint64_t	appearances;
	uint64_t	bytes_logged;
	struct xls_relog_split relog;	/* its committed items */
};

/* The buffers the hot table tracks at most: the most a --top can list. */
#define XLS_STATS_HOT_MAX	49152u

enum xls_hot_order {
	XLS_HOT_BY_APPEARANCES,	/* at most XLS_STATS_HOT_MAX tracked */
	XLS_HOT_BY_BYTES,
};

/*
 * The @top hottest buffers in @order into @out (room for @top); returns
 * how many.  *@exact is false when buffers seen less often were dropped
 * to bound the table, so that counts may be low.
 */
uint32_t xls_stats_hot(const struct xls_stats *st, enum xls_hot_order order,
		       uint32_t top, struct xls_stats_hot *out, bool *exact);

/* The relog split of the log, and what the bounds made of it. */
struct xls_stats_relog {
	struct xls_relog_split	buf;
	struct xls_relog_split	inode;
	uint64_t		unknown;	/* chunk bytes of dropped transactions */
	struct xls_ckpt_status	bounds;
};

void xls_stats_relog(const struct xls_stats *st, struct xls_stats_relog *r);

/* The cost model over every committed buffer item. */
void xls_stats_cost(const struct xls_stats *st, struct xls_cost *c,
		    struct xls_shadow_count *sh, uint64_t *items);

/* The checkpoints' statistics. */
const struct xls_ckpt_stats *xls_stats_checkpoints(const struct xls_stats *st);

#endif /* XLS_STATS_H */
