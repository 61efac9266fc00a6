/*
 * Report stage: the log: geometry, records, transactions, stale gaps, findings (describe_log.c), as field tables
 * and text: the one place that decides what their fields are called.
 */
#ifndef XLS_DESCRIBE_LOG_H
#define XLS_DESCRIBE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "source/source.h"
#include "log/log.h"
#include "log/ops.h"
#include "trans/trans.h"
#include "trans/scan.h"
#include "items/item.h"
#include "items/region.h"
#include "base/finding.h"
#include "report/emit.h"
#include "report/fields.h"

/* "clean" (a totally zeroed log too, as the kernel mounts it) or "dirty". */
const char *xls_log_state_name(enum xls_log_state s);

/* Input, log geometry, head and tail: what info and stats begin with. */
void xls_describe_geometry(const struct xls_source *src, const struct xls_log *log,
			   const struct xls_head_tail *ht, struct xls_fieldset *fs);

/* What a scan of tail..head counted (info), and the findings reported. */
void xls_describe_scan_totals(const struct xls_scan_totals *tot, uint64_t findings,
			      struct xls_fieldset *fs);

/* One log record and what its op walk found. */
void xls_describe_record(const struct xls_rec *rec, const struct xls_rec_summary *s,
			 struct xls_fieldset *fs);

/* A stale boundary, as a text line (@nblks: the log's length in blocks). */
void xls_print_stale_gap(struct xls_out *o, const struct xls_stale_gap *g, uint32_t nblks);
/* With --stale: the line that says which part of the log follows. */
void xls_print_part_banner(struct xls_out *o, const struct xls_head_tail *ht, bool stale);

/* One transaction as it ended. */
void xls_describe_trans(const struct xls_trans *t, struct xls_fieldset *fs);
/* trans's text: "trans 0x...  lsn c/b", and the line that ends it. */
void xls_print_trans_begin(struct xls_out *o, const struct xls_trans *t);
void xls_print_trans_end(struct xls_out *o, const struct xls_trans *t);

/*
 * Text, -v: a buffer's dirty map as a line of characters, its regions
 * (offset, length, chunks) and, with @splits, its split points.
 */
void xls_print_regions(struct xls_out *o, const struct xls_buf_format *blf,
		       const struct xls_region_result *r, bool splits);

/* Where a stale walk stopped trusting the log (kind "stale_gap"). */
void xls_describe_stale_gap(const struct xls_stale_gap *g, struct xls_fieldset *fs);

/* A finding of any stage: kind, lsn, rec_blk, offset, tid, msg. */
void xls_describe_finding(const struct xls_finding *f, struct xls_fieldset *fs);

#endif /* XLS_DESCRIBE_LOG_H */
