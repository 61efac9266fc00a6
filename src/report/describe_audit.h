/*
 * Report stage: the audit: checkpoints, the relog split, the cost model, charts, compare (describe_audit.c), as field tables
 * and text: the one place that decides what their fields are called.
 */
#ifndef XLS_DESCRIBE_AUDIT_H
#define XLS_DESCRIBE_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "analysis/checkpoint.h"
#include "analysis/ckptstats.h"
#include "analysis/stats.h"
#include "analysis/costmodel.h"
#include "report/describe_stats.h"
#include "report/svgchart.h"
#include "report/emit.h"
#include "report/fields.h"

/*
 * One checkpoint: seq, tid, lsn, commit_lsn, ..., its relog split and cost.
 * Returns its items_by_type field, for a text that lists it apart; NULL
 * when it did not fit.
 */
const struct xls_field *xls_describe_ckpt(const struct xls_ckpt *ck, struct xls_fieldset *fs);
/* checkpoints -v: where the bytes went, the items by type (@types), the relog split. */
void xls_print_ckpt_detail(struct xls_out *o, const struct xls_ckpt *ck,
			   const struct xls_field *types);

/* first_bytes, changed_bytes, unchanged_bytes, unchanged_pct. */
void xls_describe_relog_split(const struct xls_relog_split *sp, struct xls_fieldset *fs);

/* The relog split of a log, inode items too, and what the bounds made of it. */
void xls_describe_relog(const struct xls_stats_relog *r, struct xls_fieldset *fs);
/* checkpoints' text: that split (@fs) of @nckpts checkpoints of the @scope. */
void xls_print_relog(struct xls_out *o, uint64_t nckpts, const char *scope,
		     const struct xls_fieldset *fs);

/* The cost model's figures over @items buffer items. */
void xls_describe_cost(uint64_t items, const struct xls_cost *c,
		       const struct xls_shadow_count *sh, struct xls_fieldset *fs);

/*
 * What the charts of @st are drawn from, named @name (which, and @st,
 * must live as long as @out); 0, or -1 when out of memory.  Release it.
 */
int xls_describe_chart_log(const struct xls_stats *st, const char *name,
			   struct xls_chart_log *out);
void xls_describe_chart_log_release(struct xls_chart_log *l);

/* "record_headers_bytes", ...: a checkpoint's key for a byte category. */
const char *xls_byte_category_key(enum xls_byte_category c);

/*
 * Two logs' statistics side by side (describe_compare.c): "compare_total",
 * then "compare_bytes", "compare_buftype" and "compare_items" rows.
 */
void xls_describe_compare(const struct xls_stats *a, const struct xls_stats *b,
			  const char *name_a, const char *name_b,
			  xls_describe_emit_fn emit, void *ctx);

#endif /* XLS_DESCRIBE_AUDIT_H */
