/*
 * Analysis stage: the formatting cost model of a buffer log item -- what
 * the kernel's xfs_buf_item_size() and xfs_buf_item_format() did to put
 * the item in the log, as the seed patch series "xfs: buffer log item
 * optimisations" (Linux 5.12) changed it -- and the shadow log vector
 * allocations of xlog_cil_alloc_shadow_bufs() over a buffer's successive
 * checkpoints, with and without the round-up of its size to 512 bytes.
 *
 * Per segment (one buffer format item) with N dirty chunks in R runs,
 * logged as V regions, the first split run (if any) being run k:
 *
 *   bit by bit (xfs_buf_item_size_segment / _format_segment up to Linux
 *   5.11): each pass walks the bitmap one set bit at a time, N steps, and
 *   calls xfs_buf_offset() twice for each of the N - R steps to a
 *   contiguous bit (the discontiguity check); format also calls it once
 *   per region copied.
 *
 *   run by run (Linux 5.12 to 6.14): each pass takes a run at a time with
 *   xfs_contig_bits(), one step and, for a run of more than one chunk, two
 *   xfs_buf_offset() calls (xfs_buf_item_straddle); at the first run that
 *   straddles a discontiguity -- a split run in the log -- it falls back to
 *   the bit-by-bit walk for the rest of the segment ("slow_scan").
 *
 *   Linux 6.15 on: buffers are never discontiguous, one step per run and
 *   one xfs_buf_offset() per region copied.
 */
#ifndef XLS_COSTMODEL_H
#define XLS_COSTMODEL_H

#include <stdbool.h>
#include <stdint.h>
#include "items/buf_analysis.h"

struct xls_cost {
	uint64_t	bit_steps;	/* size + format loop steps, bit by bit */
	uint64_t	bit_offset_calls;	/* xfs_buf_offset() calls, bit by bit */
	uint64_t	run_steps;	/* ... run by run, with the fallback */
	uint64_t	run_offset_calls;
	uint64_t	slow_items;	/* items that fell back to the bit walk */
	uint64_t	plain_steps;	/* Linux 6.15: one step per run */
};

static inline void xls_cost_add(struct xls_cost *to, const struct xls_cost *c)
{
	to->bit_steps += c->bit_steps;
	to->bit_offset_calls += c->bit_offset_calls;
	to->run_steps += c->run_steps;
	to->run_offset_calls += c->run_offset_calls;
	to->slow_items += c->slow_items;
	to->plain_steps += c->plain_steps;
}

/* The model of one analysed, parsed buffer item (zero for a cancel item). */
void xls_cost_buf(const struct xls_buf_analysis *ba, struct xls_cost *c);

/*
 * What xfs_buf_item_size() reports for the item: nbytes (the format and
 * the dirty chunks) and niovecs (the format and each region).
 */
void xls_cost_item_size(const struct xls_buf_analysis *ba, uint32_t *nbytes,
			uint32_t *niovecs);

/* Shadow log vector allocations, over the buffers' checkpoints. */
struct xls_shadow_count {
	uint64_t	exact;		/* sized to the item (Linux 5.11) */
	uint64_t	rounded;	/* nbytes rounded up to 512 (5.12 on) */
};

struct xls_shadow;

/* At most @max_buffers buffers tracked; NULL when out of memory. */
struct xls_shadow *xls_shadow_new(uint32_t max_buffers);
void xls_shadow_free(struct xls_shadow *sh);

/*
 * A committed buffer item, in commit order: @add gets the allocations it
 * causes.  A cancel item ends the buffer's log item (its vectors are
 * freed); so does a dirty size that shrinks (the buffer was written back
 * and its log item freed, and a new one logs a new dirty range).  Returns
 * false when the buffer could not be tracked (table full).
 */
bool xls_shadow_item(struct xls_shadow *sh, int64_t blkno, uint32_t len_bb, bool cancel,
		     uint32_t nbytes, uint32_t niovecs, uint32_t dirty_chunks,
		     struct xls_shadow_count *add);

/* Buffer items that could not be tracked: the counts are low by them. */
uint64_t xls_shadow_untracked(const struct xls_shadow *sh);

#endif /* XLS_COSTMODEL_H */
