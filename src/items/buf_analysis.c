/*
 * Items stage: one buffer item analysed.  xls_region_reconstruct() does
 * recovery's bitmap walk; here are the derived numbers.
 */
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "items/buf_analysis.h"

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
