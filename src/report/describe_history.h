/*
 * Report stage: history: one buffer's appearances, its replayed image and its diff (describe_history.c), as field tables
 * and text: the one place that decides what their fields are called.
 */
#ifndef XLS_DESCRIBE_HISTORY_H
#define XLS_DESCRIBE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "source/source.h"
#include "trans/trans.h"
#include "recover/recover.h"
#include "replay/replay.h"
#include "analysis/appearances.h"
#include "report/emit.h"
#include "report/fields.h"

/* history: a buffer item of the buffer, in recovery order or discarded. */
void xls_describe_appearance(const struct xls_trans *t, uint32_t seq,
			     const struct xls_ritem *ri, bool discarded,
			     struct xls_fieldset *fs);

/*
 * history --stale: an item of the buffer before the tail, which recovery
 * never reads: what it logged, and whether its transaction committed.
 */

void xls_describe_stale_appearance(const struct xls_stale_appearance *a,
				   struct xls_fieldset *fs);

/* history: an inode or icreate item that writes into the buffer. */
void xls_describe_other_appearance(const struct xls_geometry *g,
				   const struct xls_trans *t, uint32_t seq,
				   const struct xls_ritem *ri, struct xls_fieldset *fs);

/* history --diff: the chunks replay changes (@ranges live until written). */
const struct xls_field *xls_describe_diff(int64_t blkno, uint32_t nchunks, uint32_t changed,
					  const struct xls_image_range *ranges, uint32_t nranges,
					  struct xls_fieldset *fs);

/*
 * history's text: the heading of the appearances of @blkno (@stale: those
 * before the tail) and its table; a row (an appearance's fields); the
 * line when there is none.
 */
void xls_print_appearances_heading(struct xls_out *o, int64_t blkno, bool stale);
void xls_print_appearance(struct xls_out *o, const struct xls_fieldset *fs);
void xls_print_no_appearance(struct xls_out *o);
/*
 * Under an appearance's row: the buffer's write at @wb->lsn warns for
 * want of a verifier (@noops) or fails the write verifier.
 */
void xls_print_appearance_writeback(struct xls_out *o, const struct xls_rwriteback *wb,
				    int64_t blkno, bool noops);
/* --replay wrote @bytes of @im to @path. */
void xls_print_replayed_buffer(struct xls_out *o, const struct xls_image *im, const char *path,
			       uint32_t bytes);
/*
 * --diff: @changed of @nchunks differ, in @n ranges @r, listed as field
 * @ranges (xls_describe_diff()); @absent bytes of the block on disk are
 * absent from the metadump.
 */
void xls_print_diff(struct xls_out *o, uint32_t nchunks, uint32_t changed,
		    const struct xls_image_range *r, uint32_t n, const struct xls_field *ranges,
		    uint64_t absent);
/* --svg (history, bufs) wrote the heat map of @n @what(s) to @path, after a blank line if @blank. */
void xls_print_heat_map_written(struct xls_out *o, bool blank, uint32_t n, const char *what,
				const char *path);

#endif /* XLS_DESCRIBE_HISTORY_H */
