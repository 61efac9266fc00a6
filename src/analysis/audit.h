/*
 * Analysis stage: a log audited in one scan -- the statistics (stats.h)
 * and the checkpoints (checkpoint.h) fed from the same callbacks, each
 * checkpoint also handed to the caller as it completes.  What stats,
 * checkpoints and compare share.
 */
#ifndef XLS_AUDIT_H
#define XLS_AUDIT_H

#include "items/buf_analysis.h"
#include "analysis/checkpoint.h"
#include "analysis/stats.h"

struct xls_audit;

/* @on_ckpt (may be NULL) gets each checkpoint; NULL when out of memory. */
struct xls_audit *xls_audit_new(void (*on_ckpt)(void *ctx, const struct xls_ckpt *ck),
				void *ctx);
void xls_audit_free(struct xls_audit *a);

/* A scan's callbacks (trans/scan.h), in the order it makes them. */
void xls_audit_record(struct xls_audit *a, const struct xls_rec *rec,
		      const struct xls_rec_summary *s);
void xls_audit_begin(struct xls_audit *a, const struct xls_trans *t);
void xls_audit_item(struct xls_audit *a, const struct xls_trans *t,
		    const struct xls_item *it);
void xls_audit_end(struct xls_audit *a, const struct xls_trans *t);
/* After the scan. */
void xls_audit_finish(struct xls_audit *a);

const struct xls_stats *xls_audit_stats(const struct xls_audit *a);

#endif /* XLS_AUDIT_H */
