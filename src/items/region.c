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
 * The runs are found once, word at a time; placing the regions then walks
 * the list of runs with a cursor that only moves forward, so the whole
 * reconstruction costs one scan of the map plus one step per region.
 */
#include <stddef.h>
#include <string.h>
#include "items/region.h"
#include "base/bitmap.h"
#include "base/flags.h"

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

/* Every run a map of at most XFS_BLF_DATAMAP_SIZE words can hold. */
#define RG_MAX_RUNS	(XFS_BLF_DATAMAP_SIZE * XLS_BLF_BITS_PER_WORD / 2)

struct rg_span {
	uint16_t	first;
	uint16_t	end;		/* one past the last chunk */
};

/*
 * Find every run of the map once, into @spans (all of them) and res->runs
 * (capped); everything after works on the spans, not on the bits.
 */
static uint32_t
rg_find_runs(const uint32_t *map, unsigned int words, struct rg_span *spans,
	     struct xls_region_result *res)
{
	unsigned int pos = 0;
	uint32_t n = 0;
	int s;

	while ((s = xls_next_bit(map, words, pos)) >= 0) {
		unsigned int len = xls_contig_bits(map, words, (unsigned int)s);

		spans[n].first = (uint16_t)s;
		spans[n].end = (uint16_t)(s + len);
		if (res->nruns_stored < RG_CAP) {
			struct xls_run *r = &res->runs[res->nruns_stored++];

			r->first_chunk = (uint32_t)s;
			r->nchunks = len;
			r->nregions = 0;
		}
		n++;
		pos = (unsigned int)s + len;	/* len >= 1: bit s is set */
	}
	res->nruns = n;
	return n;
}

/* The first run ending after @bit: the one holding the next set bit. */
static uint32_t
rg_run_after(const struct rg_span *spans, uint32_t nruns, uint32_t r,
	     uint32_t bit)
{
	while (r < nruns && spans[r].end <= bit)
		r++;
	return r;
}

/*
 * Account a region placed in run @run: count it there, and record a split
 * point when the run already had one.  @in_run counts the regions placed
 * in the current run, which only moves forward.
 */
static void
rg_account(uint32_t run, uint32_t chunk, uint32_t *cur_run, uint32_t *in_run,
	   struct xls_region_result *res)
{
	struct xls_split *sp;

	if (run != *cur_run) {
		*cur_run = run;
		*in_run = 0;
	}
	++*in_run;
	if (run < res->nruns_stored)
		res->runs[run].nregions++;
	if (*in_run < 2)
		return;

	if (*in_run == 2)
		res->nsplit_runs++;
	res->nsplits++;
	if (res->nsplits_stored >= RG_CAP)
		return;
	sp = &res->splits[res->nsplits_stored++];
	sp->run = run;
	sp->chunk = chunk;
	sp->offset = chunk << XFS_BLF_SHIFT;
	sp->page_boundary = sp->offset % RG_PAGE == 0;
}

/* Set bits below @limit: the runs' lengths, clipped. */
static uint32_t
rg_chunks_below(const struct rg_span *spans, uint32_t nruns, uint32_t limit)
{
	uint32_t n = 0;

	for (uint32_t r = 0; r < nruns && spans[r].first < limit; r++)
		n += (spans[r].end < limit ? spans[r].end : limit) - spans[r].first;
	return n;
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
	struct rg_span spans[RG_MAX_RUNS];
	uint32_t nruns, r = 0, cur_run = UINT32_MAX, in_run = 0;
	uint32_t bit = 0, i;

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

	nruns = rg_find_runs(map, words, spans, res);

	for (i = 1; i < nreg; i++) {
		uint32_t len = it->regions[i].len;
		uint32_t b, contig, nbits;

		/* the next set bit at or after bit, and its run */
		r = rg_run_after(spans, nruns, r, bit);
		if (r == nruns) {
			res->problems |= XLS_RP_REGIONS_LEFT;
			break;
		}
		b = spans[r].first > bit ? spans[r].first : bit;
		contig = spans[r].end - b;

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

			p->offset = b << XFS_BLF_SHIFT;
			p->len = nbits << XFS_BLF_SHIFT;
			p->first_chunk = b;
			p->nchunks = nbits;
			p->region_len = len;
		}
		if (nbits > 0)
			rg_account(r, b, &cur_run, &in_run, res);
		bit = b + nbits;
	}
	/* after a REGIONS_LEFT stop this finds nothing, by construction */
	if (rg_run_after(spans, nruns, r, bit) < nruns)
		res->problems |= XLS_RP_BITS_LEFT;

	if (nruns && spans[nruns - 1].end > buf_chunks)
		res->problems |= XLS_RP_BITS_BEYOND_BUF;
	res->dirty_chunks = rg_chunks_below(spans, nruns, buf_chunks);
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
	static const struct xls_flag_table t = XLS_FLAG_TABLE(rg_problem_names);

	xls_flags_to_str(problems, &t, buf, bufsz);
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
