/*
 * Dirty regions of one buffer log item: where each logged region lands in
 * the buffer, reconstructed exactly as kernel recovery does it
 * (xlog_recover_do_reg_buffer), the runs of the dirty bitmap, the runs that
 * were split across several regions, and every inconsistency between the
 * format and the regions as a finding bit.
 *
 * Only region lengths are read, never region data, and every walk is bounded
 * by the number of regions or of set bits; nothing is allocated.
 */
#ifndef XLS_REGION_H
#define XLS_REGION_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "base/ondisk.h"
#include "items/item.h"

/* One logged region placed in the buffer. */
struct xls_region_place {
	uint32_t	offset;		/* byte offset in the buffer: bit * 128 */
	uint32_t	len;		/* bytes recovery copies: nchunks * 128 */
	uint32_t	first_chunk;	/* = bit */
	uint32_t	nchunks;	/* 0 for a region shorter than a chunk */
	uint32_t	region_len;	/* length of the logged region as found */
};

/* A maximal run of set bits in the bitmap. */
struct xls_run {
	uint32_t	first_chunk;
	uint32_t	nchunks;
	uint32_t	nregions;	/* regions covering it; >1 = split */
};

/* Where a split run continues in its next region. */
struct xls_split {
	uint32_t	run;		/* index into runs[] */
	uint32_t	chunk;		/* first chunk of the second+ piece */
	uint32_t	offset;		/* byte offset chunk * 128 */
	bool		page_boundary;	/* offset % 4096 == 0 */
};

/*
 * LEN_NOT_CHUNK and EMPTY_REGION are judged on every data region,
 * REGION_TOO_LONG only on the regions the walk placed.
 */
enum xls_region_problem {
	XLS_RP_LEN_NOT_CHUNK	= (1 << 0),	/* region length % 128 != 0 */
	XLS_RP_REGION_TOO_LONG	= (1 << 1),	/* region longer than its run */
	XLS_RP_REGIONS_LEFT	= (1 << 2),	/* regions after the last set bit */
	XLS_RP_BITS_LEFT	= (1 << 3),	/* set bits after the last region */
	XLS_RP_BITS_BEYOND_BUF	= (1 << 4),	/* set bits past blf_len * 4 chunks */
	XLS_RP_MAP_TOO_BIG	= (1 << 5),	/* blf_map_size > 17 or > needed */
	XLS_RP_MAP_SHORT	= (1 << 6),	/* format region short of blf_map_size words */
	XLS_RP_SIZE_MISMATCH	= (1 << 7),	/* blf_size != regions present */
	XLS_RP_EMPTY_REGION	= (1 << 8),	/* region shorter than one chunk */
};

struct xls_region_result {
	uint32_t	nregions;	/* data regions (item regions minus the format) */
	uint32_t	nruns;		/* maximal runs of set bits within the map */
	uint32_t	nsplit_runs;	/* runs covered by >1 region */
	uint32_t	nsplits;	/* split points */
	uint32_t	dirty_chunks;	/* set bits within the buffer length */
	uint64_t	dirty_bytes;	/* min(dirty_chunks * 128, buf_bytes) */
	uint64_t	buf_bytes;	/* blf_len * 512 */
	uint64_t	data_bytes;	/* sum of data region lengths */
	unsigned int	problems;	/* enum xls_region_problem bits */
	uint32_t	nplaces;	/* entries filled below (capped) */
	uint32_t	nruns_stored;
	uint32_t	nsplits_stored;
	struct xls_region_place	places[XLS_MAX_REGIONS_IN_ITEM];
	struct xls_run		runs[XLS_MAX_REGIONS_IN_ITEM];
	struct xls_split	splits[XLS_MAX_REGIONS_IN_ITEM];
};

/*
 * Reconstruct @it (a buffer item, regions[0] its format) given its parsed
 * format @blf into @res, using the blf->map_words words of bitmap that were
 * read.  Regions are placed as recovery places them: each at the next set
 * bit, covering min(contiguous set bits, region_len / 128) chunks; a region
 * shorter than one chunk is placed with 0 chunks and does not advance.  The
 * walk stops when either the regions or the set bits run out, and reports
 * the other as REGIONS_LEFT / BITS_LEFT.  Counts are exact even when the
 * arrays are capped.  Never reads region data; no allocation.  Returns 0.
 */
int xls_region_reconstruct(const struct xls_item *it,
			   const struct xls_buf_format *blf,
			   struct xls_region_result *res);

/*
 * Short names of the problem bits ("len_not_chunk|bits_left") into @buf;
 * "" when @problems is 0, UNKNOWN(0x..) for bits without a name.
 */
void xls_region_problems_str(unsigned int problems, char *buf, size_t bufsz);

/*
 * Draw the dirty map of the buffer (blf_len * 4 chunks) into @buf: one
 * character per chunk, or per group of ceil(chunks / @width) chunks when
 * there are more than @width chunks (@width 0: no grouping).  '.' clean,
 * '#' dirty (any chunk of the group), '|' where a split point of @res falls.
 * Bits beyond the buffer are not drawn.  Truncated to @bufsz - 1 characters.
 */
void xls_region_map_str(const struct xls_buf_format *blf,
			const struct xls_region_result *res, unsigned int width,
			char *buf, size_t bufsz);

#endif /* XLS_REGION_H */
