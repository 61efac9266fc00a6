/*
 * Items stage: what one buffer log item logged -- its dirty regions, runs,
 * splits, dirty bytes and log cost (buf_analysis.c, region.c).  Below both
 * analysis and recover, which each take it.
 */
#ifndef XLS_BUF_ANALYSIS_H
#define XLS_BUF_ANALYSIS_H

#include <stdint.h>
#include <stdbool.h>
#include "items/item.h"
#include "items/region.h"

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

#endif /* XLS_BUF_ANALYSIS_H */
