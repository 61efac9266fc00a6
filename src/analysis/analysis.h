/*
 * Analysis stage: what one buffer log item logged (dirty regions, runs,
 * splits, dirty bytes, log cost), and running statistics over a log.
 */
#ifndef XLS_ANALYSIS_H
#define XLS_ANALYSIS_H

#include <stdint.h>
#include <stdbool.h>
#include "items/item.h"
#include "analysis/region.h"
#include "trans/trans.h"
#include "trans/scan.h"

struct xls_buf_analysis {
	bool			parsed;		/* false: format unreadable */
	const char		*why;		/* when !parsed */
	struct xls_buf_format	blf;
	struct xls_region_result res;
	unsigned int		blft;		/* buffer type */
	uint64_t		log_cost;	/* op headers + format + data */
	double			dirty_pct;	/* dirty bytes / buffer bytes */
};

/* Analyse buffer item @it into @ba (large: keep one and reuse it). */
void xls_buf_analyse(const struct xls_item *it, struct xls_buf_analysis *ba);

/* Add the bufs fields of @ba (as the bufs command prints them) to @fs. */
void xls_buf_fields(const struct xls_buf_analysis *ba, struct xls_fieldset *fs);

/*
 * Log-wide statistics in bounded memory: fixed tables, a 1%-resolution
 * dirty histogram per buffer type and size, and a bounded hot-buffer table
 * (see xls_stats_hot_exact()).
 */
struct xls_stats;

struct xls_stats *xls_stats_new(void);
void xls_stats_free(struct xls_stats *st);

void xls_stats_record(struct xls_stats *st, const struct xls_rec *rec,
		      const struct xls_rec_summary *s);
void xls_stats_item(struct xls_stats *st, const struct xls_item *it,
		    const struct xls_buf_analysis *ba);
void xls_stats_trans(struct xls_stats *st, const struct xls_trans *t);

/* Report: calls @emit for each row with a kind ("total", "bytes", ...). */
typedef void (*xls_stats_emit_fn)(void *ctx, const char *kind,
				  const struct xls_fieldset *fs);
void xls_stats_report(const struct xls_stats *st, unsigned int top,
		      xls_stats_emit_fn emit, void *ctx);

#endif /* XLS_ANALYSIS_H */
