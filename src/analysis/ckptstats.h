/*
 * Analysis stage: statistics over checkpoints in bounded memory --
 * distributions of their size, items, buffers and relog share, and a
 * series over the log (checkpoints in commit order, in at most
 * XLS_CKPT_SERIES_BINS bins of consecutive checkpoints) for pictures.
 */
#ifndef XLS_CKPTSTATS_H
#define XLS_CKPTSTATS_H

#include <stdbool.h>
#include <stdint.h>
#include "analysis/checkpoint.h"

enum xls_ckpt_measure {
	XLS_CKM_LOG_BYTES,	/* log bytes, shares of the records' overhead included */
	XLS_CKM_ITEMS,
	XLS_CKM_BUFFERS,
	XLS_CKM_UNCHANGED_PCT,	/* unchanged share of its buffer chunk bytes */
	XLS_CKM_NMEASURES
};

/* "log_bytes", "items", "buffers", "unchanged_pct" */
const char *xls_ckpt_measure_name(enum xls_ckpt_measure m);

/*
 * A distribution.  min, max and mean are exact; the quantiles are read
 * from a histogram: to 1 % for unchanged_pct (over the checkpoints that
 * logged buffer chunks), otherwise the upper end of a bin 1/16 of a power
 * of two wide (within 6.25 %, exact below 32).
 */
struct xls_dist {
	uint64_t	n;
	uint64_t	min, max;
	double		mean;
	uint64_t	p50, p90, p99;
};

/* Consecutive checkpoints, summed. */
struct xls_ckpt_bin {
	uint64_t		first_seq;
	uint64_t		count;
	uint64_t		bytes[XLS_BYTES_NCATEGORIES];
	uint64_t		max_log_bytes;
	struct xls_relog_split	buf;
	struct xls_relog_split	inode;
};

#define XLS_CKPT_SERIES_BINS	512u

struct xls_ckpt_stats;

struct xls_ckpt_stats *xls_ckpt_stats_new(void);
void xls_ckpt_stats_free(struct xls_ckpt_stats *cs);

void xls_ckpt_stats_add(struct xls_ckpt_stats *cs, const struct xls_ckpt *ck);

uint64_t xls_ckpt_stats_count(const struct xls_ckpt_stats *cs);
void xls_ckpt_stats_dist(const struct xls_ckpt_stats *cs, enum xls_ckpt_measure m,
			 struct xls_dist *d);

/* The series: *@bins points to the bins (valid until the next add). */
uint32_t xls_ckpt_stats_series(const struct xls_ckpt_stats *cs,
			       const struct xls_ckpt_bin **bins);

#endif /* XLS_CKPTSTATS_H */
