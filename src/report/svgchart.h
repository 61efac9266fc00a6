/*
 * Report stage, SVG writer: charts of a log's efficiency -- checkpoint size
 * and bytes by category over the log, the relog split over the log and by
 * buffer type, the dirty-% histogram by buffer type, and two logs side by
 * side.  Typed data in, self-contained SVG 1.1 with no script out.
 */
#ifndef XLS_SVGCHART_H
#define XLS_SVGCHART_H

#include <stdint.h>
#include <stdio.h>
#include "analysis/ckptstats.h"
#include "analysis/logbytes.h"
#include "analysis/relog.h"

/* One buffer type and size of a log. */
struct xls_chart_type {
	const char		*type;
	uint32_t		size;
	uint64_t		count;
	uint64_t		bytes_logged;
	uint64_t		hist[11];	/* dirty %: 10 % bins, then 100 % */
	struct xls_relog_split	relog;
};

/* What the charts of one log are drawn from. */
struct xls_chart_log {
	const char			*name;
	uint64_t			checkpoints;
	uint64_t			bytes[XLS_BYTES_NCATEGORIES];	/* of its checkpoints */
	const struct xls_ckpt_bin	*bins;		/* over the log, in commit order */
	uint32_t			nbins;
	const struct xls_chart_type	*types;		/* most bytes logged first */
	uint32_t			ntypes;
	struct xls_relog_split		relog;
};

/* Which charts a picture has. */
enum xls_chart_set {
	XLS_CHART_CHECKPOINTS,	/* size, categories, relog split over the log */
	XLS_CHART_STATS,	/* those, the dirty-% histogram, relog by type */
	XLS_CHART_COMPARE,	/* two logs: categories and types side by side */
};

/*
 * Write the charts of @set for @nlogs logs (1, or 2 for compare) to @f
 * under @title.  Returns 0, or -1 when writing failed.
 */
int xls_svg_charts(FILE *f, const char *title, enum xls_chart_set set,
		   const struct xls_chart_log *logs, unsigned int nlogs);

#endif /* XLS_SVGCHART_H */
