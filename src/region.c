/*
 * Buffer item dirty regions, placed the way log recovery places them.
 *
 * Recovery (xlog_recover_do_reg_buffer in fs/xfs/xfs_buf_item_recover.c)
 * starts at bit 0 and, while the bitmap has a set bit at or after the
 * current one, takes the next data region, measures the run of set bits
 * from there and copies min(run, region_len >> 7) chunks of the region to
 * byte bit * 128, then moves on by that many chunks.  A region shorter than
 * the run is how the writer logs a run that crosses a discontiguity of the
 * buffer's memory (a page boundary of an unmapped buffer): the run continues
 * in the next region.  Its only loop guard is the bitmap; the region index
 * is bounded by an ASSERT after the loop.  Here the walk is bounded by both,
 * and whichever runs out first is reported.
 *
 * Runs are found independently of the regions, and each placed region is
 * matched to the run it starts in by a cursor that only moves forward, so
 * the whole reconstruction costs one pass over the runs plus one step per
 * region, with word-at-a-time bitmap scans throughout.
 */
#include <stddef.h>
#include <string.h>
#include "region.h"
#include "bitmap.h"
#include "fields.h"

#define RG_CAP		XLS_MAX_REGIONS_IN_ITEM
#define RG_PAGE		4096u
#define RG_BLF_FIXED	offsetof(struct xfs_buf_log_format, blf_data_map)
#define RG_CHUNKS_PER_BB	(BBSIZE / XFS_BLF_CHUNK)

/* Words of bitmap to scan: what was read, never more than the struct holds. */
static unsigned int
rg_map_words(const struct xls_buf_format *blf)
{
	return blf->map_words < XFS_BLF_DATAMAP_SIZE ?
		blf->map_words : XFS_BLF_DATAMAP_SIZE;
}

static uint32_t
rg_buffer_chunks(const struct xls_buf_format *blf)
{
	return (uint32_t)blf->blf_len * RG_CHUNKS_PER_BB;
}

/* Problems of the format alone: map size against the buffer and the region. */
static unsigned int
rg_format_problems(const struct xls_item *it, const struct xls_buf_format *blf)
{
	uint32_t need = (rg_buffer_chunks(blf) + XLS_BLF_BITS_PER_WORD - 1) /
			XLS_BLF_BITS_PER_WORD;
	unsigned int p = 0;
	uint32_t fit;

	if (blf->blf_map_size > XFS_BLF_DATAMAP_SIZE || blf->blf_map_size > need)
		p |= XLS_RP_MAP_TOO_BIG;

	if (it->regions && it->nregions > 0) {
		uint32_t flen = it->regions[0].len;

		fit = flen < RG_BLF_FIXED ? 0 :
			(uint32_t)((flen - RG_BLF_FIXED) / sizeof(uint32_t));
	} else {
		fit = blf->map_words;
	}
	if (fit < blf->blf_map_size)
		p |= XLS_RP_MAP_SHORT;

	if (blf->blf_size != it->nregions)
		p |= XLS_RP_SIZE_MISMATCH;
	return p;
}

/* Fill res->runs (capped) and count every run of the map. */
static void
rg_find_runs(const uint32_t *map, unsigned int words,
	     struct xls_region_result *res)
{
	unsigned int pos = 0;
	int s;

	while ((s = xls_next_bit(map, words, pos)) >= 0) {
		unsigned int n = xls_contig_bits(map, words, (unsigned int)s);

		if (res->nruns_stored < RG_CAP) {
			struct xls_run *r = &res->runs[res->nruns_stored++];

			r->first_chunk = (uint32_t)s;
			r->nchunks = n;
			r->nregions = 0;
		}
		res->nruns++;
		pos = (unsigned int)s + n;	/* n >= 1: bit s is set */
	}
}

/* The run containing the placed chunks, advanced forward only. */
struct rg_cursor {
	bool		valid;
	uint32_t	idx;
	uint32_t	start;
	uint32_t	end;		/* one past the last chunk */
	uint32_t	nregions;	/* regions placed in it so far */
};

/*
 * Account a region placed at set bit @chunk: move the cursor to the run
 * holding it, count the region in that run, and record a split point when
 * the run already had a region.
 */
static void
rg_account(const uint32_t *map, unsigned int words, struct rg_cursor *c,
	   uint32_t chunk, struct xls_region_result *res)
{
	while (!c->valid || chunk >= c->end) {
		int s = xls_next_bit(map, words, c->valid ? c->end : 0);

		if (s < 0 || (uint32_t)s > chunk)
			return;		/* not a set bit: cannot happen */
		c->idx = c->valid ? c->idx + 1 : 0;
		c->valid = true;
		c->start = (uint32_t)s;
		c->end = c->start + xls_contig_bits(map, words, c->start);
		c->nregions = 0;
	}

	c->nregions++;
	if (c->idx < res->nruns_stored)
		res->runs[c->idx].nregions++;
	if (c->nregions < 2)
		return;

	if (c->nregions == 2)
		res->nsplit_runs++;
	res->nsplits++;
	if (res->nsplits_stored < RG_CAP) {
		struct xls_split *sp = &res->splits[res->nsplits_stored++];

		sp->run = c->idx;
		sp->chunk = chunk;
		sp->offset = chunk << XFS_BLF_SHIFT;
		sp->page_boundary = sp->offset % RG_PAGE == 0;
	}
}

int
xls_region_reconstruct(const struct xls_item *it,
		       const struct xls_buf_format *blf,
		       struct xls_region_result *res)
{
	const uint32_t *map = blf->blf_data_map;
	unsigned int words = rg_map_words(blf);
	uint32_t nreg = (it->regions && it->nregions > 0) ? it->nregions : 0;
	uint32_t buf_chunks = rg_buffer_chunks(blf);
	struct rg_cursor cur = { 0 };
	unsigned int bit = 0;
	uint32_t i;

	/* The arrays are written entry by entry: clear only the counts. */
	memset(res, 0, offsetof(struct xls_region_result, places));
	res->nregions = nreg ? nreg - 1 : 0;
	res->buf_bytes = (uint64_t)blf->blf_len * BBSIZE;
	res->problems = rg_format_problems(it, blf);

	for (i = 1; i < nreg; i++) {
		uint32_t len = it->regions[i].len;

		res->data_bytes += len;
		if (len % XFS_BLF_CHUNK)
			res->problems |= XLS_RP_LEN_NOT_CHUNK;
		if (len < XFS_BLF_CHUNK)
			res->problems |= XLS_RP_EMPTY_REGION;
	}

	rg_find_runs(map, words, res);

	for (i = 1; i < nreg; i++) {
		uint32_t len = it->regions[i].len;
		unsigned int contig, nbits;
		int b = xls_next_bit(map, words, bit);

		if (b < 0) {
			res->problems |= XLS_RP_REGIONS_LEFT;
			break;
		}
		contig = xls_contig_bits(map, words, (unsigned int)b);

		/*
		 * The kernel's trim: only a region shorter than the run cuts
		 * it down, to len >> 7 whole chunks (0 for len < 128, which
		 * then copies nothing and leaves bit where it is).  A longer
		 * region is not an error there: the run is copied from its
		 * start and the rest of the region is never used.
		 */
		nbits = contig;
		if ((uint64_t)len < ((uint64_t)contig << XFS_BLF_SHIFT))
			nbits = len >> XFS_BLF_SHIFT;
		else if ((uint64_t)len > ((uint64_t)contig << XFS_BLF_SHIFT))
			res->problems |= XLS_RP_REGION_TOO_LONG;

		if (res->nplaces < RG_CAP) {
			struct xls_region_place *p = &res->places[res->nplaces++];

			p->offset = (uint32_t)b << XFS_BLF_SHIFT;
			p->len = nbits << XFS_BLF_SHIFT;
			p->first_chunk = (uint32_t)b;
			p->nchunks = nbits;
			p->region_len = len;
		}
		if (nbits > 0)
			rg_account(map, words, &cur, (uint32_t)b, res);
		bit = (unsigned int)b + nbits;
	}
	/* after a REGIONS_LEFT stop this finds nothing, by construction */
	if (xls_next_bit(map, words, bit) >= 0)
		res->problems |= XLS_RP_BITS_LEFT;

	if (xls_next_bit(map, words, buf_chunks) >= 0)
		res->problems |= XLS_RP_BITS_BEYOND_BUF;
	res->dirty_chunks = xls_popcount_bits(map, words, buf_chunks);
	res->dirty_bytes = (uint64_t)res->dirty_chunks << XFS_BLF_SHIFT;
	if (res->dirty_bytes > res->buf_bytes)
		res->dirty_bytes = res->buf_bytes;
	return 0;
}

static const struct xls_flag_name rg_problem_names[] = {
	{ XLS_RP_LEN_NOT_CHUNK,		"len_not_chunk" },
	{ XLS_RP_REGION_TOO_LONG,	"region_too_long" },
	{ XLS_RP_REGIONS_LEFT,		"regions_left" },
	{ XLS_RP_BITS_LEFT,		"bits_left" },
	{ XLS_RP_BITS_BEYOND_BUF,	"bits_beyond_buf" },
	{ XLS_RP_MAP_TOO_BIG,		"map_too_big" },
	{ XLS_RP_MAP_SHORT,		"map_short" },
	{ XLS_RP_SIZE_MISMATCH,		"size_mismatch" },
	{ XLS_RP_EMPTY_REGION,		"empty_region" },
};

void
xls_region_problems_str(unsigned int problems, char *buf, size_t bufsz)
{
	if (bufsz == 0)
		return;
	if (problems == 0) {
		buf[0] = '\0';
		return;
	}
	xls_flags_to_str(problems, rg_problem_names,
			 sizeof(rg_problem_names) / sizeof(rg_problem_names[0]),
			 buf, bufsz);
}

void
xls_region_map_str(const struct xls_buf_format *blf,
		   const struct xls_region_result *res, unsigned int width,
		   char *buf, size_t bufsz)
{
	const uint32_t *map = blf->blf_data_map;
	unsigned int words = rg_map_words(blf);
	uint32_t chunks = rg_buffer_chunks(blf);
	uint32_t group = 1, nchars, i;
	unsigned int pos = 0;
	int s;

	if (bufsz == 0)
		return;
	buf[0] = '\0';
	if (chunks == 0)
		return;
	if (width != 0 && chunks > width)
		group = (chunks + width - 1) / width;
	nchars = (chunks + group - 1) / group;
	if (nchars > bufsz - 1)
		nchars = (uint32_t)(bufsz - 1);
	memset(buf, '.', nchars);
	buf[nchars] = '\0';

	while ((s = xls_next_bit(map, words, pos)) >= 0 &&
	       (uint32_t)s < chunks) {
		uint32_t n = xls_contig_bits(map, words, (unsigned int)s);
		uint32_t end = (uint32_t)s + n < chunks ? (uint32_t)s + n : chunks;
		uint32_t c0 = (uint32_t)s / group, c1 = (end - 1) / group;

		if (c0 < nchars) {
			if (c1 >= nchars)
				c1 = nchars - 1;
			memset(buf + c0, '#', c1 - c0 + 1);
		}
		pos = (unsigned int)s + n;
	}

	if (!res)
		return;
	for (i = 0; i < res->nsplits_stored && i < RG_CAP; i++) {
		uint32_t c = res->splits[i].chunk;

		if (c < chunks && c / group < nchars)
			buf[c / group] = '|';
	}
}
