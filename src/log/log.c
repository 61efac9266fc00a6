/*
 * Log stage: head and tail as recovery finds them, and record iteration.
 *
 * Head and tail follow fs/xfs/xfs_log_recover.c: xlog_find_zeroed,
 * xlog_find_head (cycle binary search, xlog_find_verify_cycle,
 * xlog_find_verify_log_record), xlog_find_tail, xlog_check_unmount_rec,
 * xlog_verify_head and xlog_verify_tail.  Blocks are physical block
 * numbers within the log, 0 .. nblks-1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/ondisk.h"
#include "base/crc32c.h"
#include "log/log.h"
#include "log/log_readahead.h"

#define BB			512u
#define WINDOW_ALIGN		(2u << 20)	/* a huge page on x86-64 */
#define CYCLE_WORDS		(XLOG_HEADER_CYCLE_SIZE / BB)	/* 64 */
#define REC_SIZE		sizeof(xlog_rec_header_t)	/* CRC'd header bytes */
#define REC_SIZE_I386		(offsetof(xlog_rec_header_t, h_size) + 4)
#define EXT_SIZE		sizeof(xlog_rec_ext_header_t)
#define HDR_FIELD(h, f)		((h) + offsetof(xlog_rec_header_t, f))

/* ------------------------------------------------------------------ */
/* reading */

static int read_phys(const struct xls_log *log, uint32_t blk, uint32_t n,
		     uint8_t *buf)
{
	uint32_t first = n;
	int rc;

	if (blk >= log->nblks || n > log->nblks)
		return -EINVAL;
	if (blk + n > log->nblks)
		first = log->nblks - blk;
	rc = xls_source_read(log->src, (uint64_t)blk * BB, buf, (size_t)first * BB);
	if (rc == 0 && first < n)
		rc = xls_source_read(log->src, 0, buf + (size_t)first * BB,
				     (size_t)(n - first) * BB);
	return rc;
}

static int read_error(const struct xls_log *log, uint32_t blk, int rc,
		      struct xls_error *err)
{
	return xls_error_set(err, XLS_EXIT_INPUT,
			     "cannot read '%s' at log block %u (byte %llu): %s",
			     log->src->path, blk,
			     (unsigned long long)(log->src->geo.log_offset +
						  (uint64_t)blk * BB),
			     strerror(-rc));
}

/* The cycle a block was written in (xlog_get_cycle). */
static uint32_t block_cycle(const uint8_t *b)
{
	if (xls_be32(b) == XLOG_HEADER_MAGIC_NUM)
		return xls_be32(b + 4);
	return xls_be32(b);
}

static int read_cycle(const struct xls_log *log, uint32_t blk, uint32_t *cycle,
		      struct xls_error *err)
{
	uint8_t b[BB];
	int rc = read_phys(log, blk, 1, b);

	if (rc)
		return read_error(log, blk, rc, err);
	*cycle = block_cycle(b);
	return 0;
}

static bool is_header_block(const uint8_t *b)
{
	return xls_be32(b) == XLOG_HEADER_MAGIC_NUM;
}

/*
 * The buffer the next window is read into: a read-ahead thread must not
 * overwrite records its caller may still be decoding, so it takes a free
 * one from its ring.  NULL when that thread has been told to stop.
 */
static uint8_t *window_buffer(struct xls_log *log)
{
	if (log->ra)
		log->win = xls_readahead_window(log->ra);
	return log->win;
}

/*
 * Where a record that wraps is put together: the scratch buffer, or under
 * read-ahead a window of its own, so that it lives as long as the records
 * in the other windows.  NULL when the reader thread has been told to stop.
 */
static uint8_t *wrap_buffer(struct xls_log *log)
{
	if (!log->ra)
		return log->scratch;
	log->win_n = 0;
	return window_buffer(log);
}

/* Make the window hold @n blocks from @blk (no wrap); returns a pointer. */
static const uint8_t *window_get(struct xls_log *log, uint32_t blk, uint32_t n,
				 int *rc)
{
	*rc = 0;
	if (log->win_n && blk >= log->win_start &&
	    blk + n <= log->win_start + log->win_n)
		return log->win + (size_t)(blk - log->win_start) * BB;
	log->win_n = 0;
	log->win_start = blk;
	if (!window_buffer(log)) {
		*rc = -ECANCELED;
		return NULL;
	}
	n = log->nblks - blk < XLS_WIN_BLKS ? log->nblks - blk : XLS_WIN_BLKS;
	*rc = read_phys(log, blk, n, log->win);
	if (*rc)
		return NULL;
	log->win_n = n;
	return log->win;
}

uint8_t *xls_log_window_alloc(void)
{
	size_t bytes = (size_t)XLS_WIN_BLKS * BB;
	void *p = NULL;

	/*
	 * A window is written by the kernel and read twice per log byte: on
	 * huge pages (where the system allows them) that is two page faults
	 * instead of a thousand, and far fewer TLB misses.
	 */
	if (posix_memalign(&p, WINDOW_ALIGN, bytes) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, bytes, MADV_HUGEPAGE);
#endif
	return p;
}

int xls_log_init(struct xls_log *log, const struct xls_source *src,
		 struct xls_error *err)
{
	memset(log, 0, sizeof(*log));
	log->src = src;
	log->nblks = src->geo.log_bbs;
	/* A bare log has no superblock: trust each record's h_version. */
	log->logv2 = src->geo.logv2 || !src->geo.has_sb;
	log->win_buf = xls_log_window_alloc();
	log->win = log->win_buf;
	log->scratch = malloc((size_t)XLS_MAX_REC_BLKS * BB);
	log->crc_ok = calloc(((size_t)log->nblks + 63) / 64, sizeof(uint64_t));
	if (!log->win_buf || !log->scratch || !log->crc_ok) {
		xls_log_release(log);
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory");
	}
	return 0;
}

void xls_log_release(struct xls_log *log)
{
	free(log->win_buf);
	free(log->scratch);
	free(log->crc_ok);
	log->win = log->win_buf = log->scratch = NULL;
	log->crc_ok = NULL;
}

/* ------------------------------------------------------------------ */
/* record headers */

static uint32_t rec_hblks(bool logv2, uint32_t h_version, uint32_t h_size)
{
	if (logv2 && (h_version & XLOG_VERSION_2) && h_size > XLOG_HEADER_CYCLE_SIZE)
		return (h_size + XLOG_HEADER_CYCLE_SIZE - 1) / XLOG_HEADER_CYCLE_SIZE;
	return 1;
}

const char *xls_rec_header_check(const uint8_t *hdr, uint32_t blk,
				 uint32_t nblks, bool logv2, uint32_t log_sunit,
				 uint32_t *h_size_out)
{
	uint32_t version = xls_be32(HDR_FIELD(hdr, h_version));
	uint32_t h_len = xls_be32(HDR_FIELD(hdr, h_len));
	uint32_t h_size = xls_be32(HDR_FIELD(hdr, h_size));
	uint32_t nops = xls_be32(HDR_FIELD(hdr, h_num_logops));
	uint64_t lsn = xls_be64(HDR_FIELD(hdr, h_lsn));
	uint32_t bufsize = XLOG_BIG_RECORD_BSIZE;

	if (xls_be32(HDR_FIELD(hdr, h_magicno)) != XLOG_HEADER_MAGIC_NUM)
		return "bad magic number";
	if (version == 0 || (version & ~(uint32_t)XLOG_VERSION_OKBITS))
		return "unknown log record version";
	if (logv2 && (version & XLOG_VERSION_2)) {
		uint32_t iclog = log_sunit > XLOG_BIG_RECORD_BSIZE ?
				 log_sunit : XLOG_BIG_RECORD_BSIZE;

		/* mkfs once wrote h_size too small for its one-op record */
		if (h_len > h_size && h_len <= iclog && nops == 1)
			h_size = iclog;
		if (h_size < BB || h_size > XLOG_MAX_RECORD_BSIZE)
			return "h_size outside 512 bytes .. 256 KiB";
		bufsize = h_size;
	}
	if (h_len == 0 || h_len > bufsize)
		return "h_len is 0 or larger than the record buffer";
	if (xls_lsn_block(lsn) != blk)
		return "h_lsn block does not match the record's position";
	if (blk >= nblks)
		return "record beyond the end of the log";
	if ((uint64_t)nops * sizeof(xlog_op_header_t) > h_len)
		return "h_num_logops: more ops than h_len can hold";
	*h_size_out = h_size;
	return NULL;
}

static void rec_parse_header(const uint8_t *hdr, struct xls_rec *rec)
{
	rec->h_magicno = xls_be32(HDR_FIELD(hdr, h_magicno));
	rec->h_cycle = xls_be32(HDR_FIELD(hdr, h_cycle));
	rec->h_version = xls_be32(HDR_FIELD(hdr, h_version));
	rec->h_len = xls_be32(HDR_FIELD(hdr, h_len));
	rec->h_lsn = xls_be64(HDR_FIELD(hdr, h_lsn));
	rec->h_tail_lsn = xls_be64(HDR_FIELD(hdr, h_tail_lsn));
	rec->h_crc = xls_le32(HDR_FIELD(hdr, h_crc));
	rec->h_prev_block = xls_be32(HDR_FIELD(hdr, h_prev_block));
	rec->h_num_logops = xls_be32(HDR_FIELD(hdr, h_num_logops));
	rec->h_fmt = xls_be32(HDR_FIELD(hdr, h_fmt));
	memcpy(rec->h_fs_uuid, HDR_FIELD(hdr, h_fs_uuid), 16);
	rec->h_size = xls_be32(HDR_FIELD(hdr, h_size));
}

/* CRC of the header with h_crc taken as zero, over @size bytes. */
static uint32_t crc_header(const uint8_t *hdr, size_t size)
{
	static const uint8_t zero[4];
	size_t off = offsetof(xlog_rec_header_t, h_crc);
	uint32_t crc = ~0u;

	crc = xls_crc32c_update(crc, hdr, off);
	crc = xls_crc32c_update(crc, zero, sizeof(zero));
	return xls_crc32c_update(crc, hdr + off + 4, size - off - 4);
}

/* Extended headers' cycle data, as xlog_cksum() chains them (v2 only). */
static uint32_t crc_ext_headers(uint32_t crc, const uint8_t *hdr, uint32_t h_len,
				uint32_t hblks)
{
	uint32_t xheads = (h_len + XLOG_HEADER_CYCLE_SIZE - 1) / XLOG_HEADER_CYCLE_SIZE;

	for (uint32_t i = 1; i < xheads && i < hblks; i++)
		crc = xls_crc32c_update(crc, hdr + (size_t)i * BB, EXT_SIZE);
	return crc;
}

static bool crc_known_ok(const struct xls_log *log, uint32_t blk)
{
	return log->crc_ok[blk / 64] >> (blk % 64) & 1;
}

static void crc_set_ok(struct xls_log *log, uint32_t blk)
{
	log->crc_ok[blk / 64] |= 1ull << (blk % 64);
}

static void rec_check_crc(struct xls_log *log, const uint8_t *hdr,
			  const uint8_t *data, struct xls_rec *rec)
{
	uint32_t crc;

	if (rec->h_crc != 0 && crc_known_ok(log, rec->blk)) {
		rec->crc_calc = rec->h_crc;
		rec->crc = XLS_CRC_OK;
		return;
	}

	crc = crc_header(hdr, REC_SIZE);
	if (log->logv2)
		crc = crc_ext_headers(crc, hdr, rec->h_len, rec->hblks);
	crc = ~xls_crc32c_update(crc, data, rec->h_len);
	rec->crc_calc = crc;
	if (rec->h_crc == 0)
		rec->crc = XLS_CRC_ZERO;
	else if (crc == rec->h_crc)
		rec->crc = XLS_CRC_OK;
	else
		rec->crc = XLS_CRC_BAD;
	if (rec->crc == XLS_CRC_OK)
		crc_set_ok(log, rec->blk);
	if (rec->crc != XLS_CRC_BAD)
		return;
	/* A log written on i386 checksums a 324-byte header. */
	crc = crc_header(hdr, REC_SIZE_I386);
	if (log->logv2)
		crc = crc_ext_headers(crc, hdr, rec->h_len, rec->hblks);
	crc = ~xls_crc32c_update(crc, data, rec->h_len);
	if (crc == rec->h_crc)
		rec->crc = XLS_CRC_OK_I386;
}

/* The saved first word of payload block @i, from the header or an ext header. */
static const uint8_t *saved_cycle_word(const uint8_t *hdr, uint32_t i)
{
	uint32_t j = i / CYCLE_WORDS, k = i % CYCLE_WORDS;

	if (j == 0)
		return HDR_FIELD(hdr, h_cycle_data) + 4 * k;
	return hdr + (size_t)j * BB + offsetof(xlog_rec_ext_header_t, xh_cycle_data) + 4 * k;
}

/*
 * Check each payload block's cycle stamp and put back the word the stamp
 * replaced (xlog_unpack_data).  Blocks written past the physical end of
 * the log carry the next cycle (xlog_split_iclog).
 */
static void rec_unpack(const struct xls_log *log, const uint8_t *hdr,
		       uint8_t *data, struct xls_rec *rec)
{
	uint32_t first_wrapped = UINT32_MAX;

	/* The header blocks themselves may straddle the end: then all of the
	 * payload is past it. */
	if (rec->wrapped)
		first_wrapped = rec->blk + rec->hblks >= log->nblks ? 0 :
				log->nblks - rec->blk - rec->hblks;
	for (uint32_t i = 0; i < rec->data_blks; i++) {
		uint8_t *p = data + (size_t)i * BB;
		uint32_t want = rec->h_cycle;

		if (i >= first_wrapped && ++want == XLOG_HEADER_MAGIC_NUM)
			want++;
		if (xls_be32(p) != want && rec->bad_stamps++ == 0)
			rec->first_bad_stamp = i;
		memcpy(p, saved_cycle_word(hdr, i), 4);
	}
}

/*
 * Load, check and unpack the record whose header is at @blk.  Returns NULL
 * and sets *@rc = 0 with @why for an invalid header, or *@rc < 0 on a read
 * error; otherwise returns the (restored) header blocks.
 */
static const uint8_t *rec_load(struct xls_log *log, uint32_t blk,
			       struct xls_rec *rec, const char **why, int *rc)
{
	const uint8_t *hdr;
	uint8_t *base;
	uint32_t h_size = 0, total;

	memset(rec, 0, sizeof(*rec));
	hdr = window_get(log, blk, 1, rc);
	if (!hdr)
		return NULL;
	*why = xls_rec_header_check(hdr, blk, log->nblks, log->logv2,
				    log->src->geo.log_sunit, &h_size);
	if (*why)
		return NULL;
	rec_parse_header(hdr, rec);
	rec->blk = blk;
	rec->hblks = rec_hblks(log->logv2, rec->h_version, h_size);
	rec->data_blks = (rec->h_len + BB - 1) / BB;
	total = rec->hblks + rec->data_blks;
	if (total > log->nblks) {
		*why = "record longer than the log";
		return NULL;
	}
	if (blk + total <= log->nblks) {
		base = (uint8_t *)window_get(log, blk, total, rc);
		if (!base)
			return NULL;
	} else {
		rec->wrapped = true;
		base = wrap_buffer(log);
		*rc = base ? read_phys(log, blk, total, base) : -ECANCELED;
		if (*rc)
			return NULL;
	}
	rec->data = base + (size_t)rec->hblks * BB;
	if (log->src->geo.has_sb)
		rec->uuid_mismatch = memcmp(rec->h_fs_uuid, log->src->geo.uuid, 16) != 0;
	rec_check_crc(log, base, base + (size_t)rec->hblks * BB, rec);
	rec_unpack(log, base, base + (size_t)rec->hblks * BB, rec);
	return base;
}

/* ------------------------------------------------------------------ */
/* iteration */

void xls_rec_iter_init(struct xls_rec_iter *it, struct xls_log *log,
		       enum xls_iter_mode mode, uint32_t from, uint32_t to)
{
	memset(it, 0, sizeof(*it));
	it->log = log;
	it->mode = mode;
	it->next_blk = mode == XLS_ITER_PHYSICAL ? 0 : from;
	it->end_blk = mode == XLS_ITER_PHYSICAL ? log->nblks : to;
	it->done = mode == XLS_ITER_LSN && from == to;
	/* Unpacking writes into the window: never serve a stale one. */
	log->win_n = 0;
}

static bool iter_at_end(const struct xls_rec_iter *it)
{
	if (it->done || it->walked >= it->log->nblks)
		return true;
	if (it->mode == XLS_ITER_PHYSICAL)
		return it->next_blk >= it->log->nblks;
	return it->walked > 0 && it->next_blk == it->end_blk;
}

/* Blocks left before the end of the walk. */
static uint32_t iter_remaining(const struct xls_rec_iter *it)
{
	if (it->mode == XLS_ITER_PHYSICAL)
		return it->log->nblks - it->next_blk;
	if (it->walked == 0 && it->next_blk == it->end_blk)
		return it->log->nblks;
	return xls_log_distance(it->log, it->next_blk, it->end_blk);
}

/*
 * After an invalid header at next_blk, find the next block that holds a
 * valid header (or the end), and report the blocks in between as a gap.
 */
static int iter_resync(struct xls_rec_iter *it, const char *why,
		       struct xls_error *err)
{
	struct xls_log *log = it->log;
	uint32_t left = iter_remaining(it), skipped = 1, h_size;
	uint32_t blk = it->next_blk;
	int rc;

	it->gap_blk = blk;
	it->gap_why = why;
	for (; skipped < left; skipped++) {
		const uint8_t *b;

		blk = (it->next_blk + skipped) % log->nblks;
		b = window_get(log, blk, 1, &rc);
		if (!b)
			return read_error(log, blk, rc, err);
		if (is_header_block(b) &&
		    !xls_rec_header_check(b, blk, log->nblks, log->logv2,
					  log->src->geo.log_sunit, &h_size))
			break;
	}
	it->gap_blks = skipped;
	it->walked += skipped;
	it->next_blk = (it->next_blk + skipped) % log->nblks;
	if (it->mode == XLS_ITER_PHYSICAL && skipped >= left)
		it->done = true;
	if (it->mode == XLS_ITER_LSN && skipped >= left)
		it->next_blk = it->end_blk;
	return XLS_ITER_GAP;
}

/* Physical mode: skip blocks that are not headers, silently. */
static int iter_skip_to_header(struct xls_rec_iter *it, struct xls_error *err)
{
	struct xls_log *log = it->log;
	int rc;

	while (it->next_blk < log->nblks) {
		const uint8_t *b = window_get(log, it->next_blk, 1, &rc);

		if (!b)
			return read_error(log, it->next_blk, rc, err);
		if (is_header_block(b))
			return 0;
		it->next_blk++;
		it->walked++;
	}
	it->done = true;
	return 0;
}

void xls_rec_iter_read_ahead(struct xls_rec_iter *it)
{
	if (!it->ra && !it->log->ra)
		xls_readahead_start(it);
}

void xls_rec_iter_release(struct xls_rec_iter *it)
{
	if (it->ra)
		xls_readahead_stop(it->ra);
	it->ra = NULL;
}

int xls_rec_iter_next(struct xls_rec_iter *it, struct xls_rec *rec,
		      struct xls_error *err)
{
	struct xls_log *log = it->log;
	const char *why = NULL;
	uint32_t total;
	int rc = 0;

	if (it->ra)
		return xls_readahead_next(it->ra, it, rec, err);
	if (it->mode == XLS_ITER_PHYSICAL && !iter_at_end(it) &&
	    iter_skip_to_header(it, err))
		return -1;
	if (iter_at_end(it))
		return XLS_ITER_END;
	if (!rec_load(log, it->next_blk, rec, &why, &rc)) {
		if (rc)
			return read_error(log, it->next_blk, rc, err);
		return iter_resync(it, why, err);
	}
	total = rec->hblks + rec->data_blks;
	it->walked += total;
	if (it->mode == XLS_ITER_PHYSICAL) {
		it->next_blk += total;
		if (rec->wrapped)
			it->done = true;
	} else {
		/* A record that runs past the head ends the walk. */
		if (total > iter_remaining(it))
			it->done = true;
		it->next_blk = (it->next_blk + total) % log->nblks;
	}
	return XLS_ITER_RECORD;
}

/* ------------------------------------------------------------------ */
/* head and tail */

/* First block in [first, *last) written in @cycle, by binary search. */
static int find_cycle_start(const struct xls_log *log, uint32_t first,
			    uint32_t *last, uint32_t cycle, struct xls_error *err)
{
	uint32_t end = *last, mid = first + (end - first) / 2, c;

	while (mid != first && mid != end) {
		if (read_cycle(log, mid, &c, err))
			return -1;
		if (c == cycle)
			end = mid;
		else
			first = mid;
		mid = first + (end - first) / 2;
	}
	*last = end;
	return 0;
}

/* First block in [start, start+n) stamped @cycle, or -1 in *@found. */
static int find_verify_cycle(const struct xls_log *log, uint32_t start,
			     uint32_t n, uint32_t cycle, int64_t *found,
			     struct xls_error *err)
{
	uint8_t *buf = log->scratch;
	uint32_t chunk = XLS_MAX_REC_BLKS;

	*found = -1;
	for (uint32_t i = 0; i < n; i += chunk) {
		uint32_t cnt = n - i < chunk ? n - i : chunk;
		int rc = read_phys(log, start + i, cnt, buf);

		if (rc)
			return read_error(log, start + i, rc, err);
		for (uint32_t j = 0; j < cnt; j++) {
			if (block_cycle(buf + (size_t)j * BB) == cycle) {
				*found = (int64_t)start + i + j;
				return 0;
			}
		}
	}
	return 0;
}

/*
 * Back up over a partially written record: scan back from *@last for the
 * last header; if its record does not end exactly at *@last (counting
 * @extra blocks already seen past the physical end), the head is that
 * header.  Returns 1 when no header lies in [start, *last).
 */
static int find_verify_log_record(const struct xls_log *log, uint32_t start,
				  uint32_t *last, uint32_t extra,
				  struct xls_error *err)
{
	uint8_t b[BB];
	int64_t i;

	for (i = (int64_t)*last - 1; i >= (int64_t)start; i--) {
		int rc = read_phys(log, (uint32_t)i, 1, b);

		if (rc)
			return read_error(log, (uint32_t)i, rc, err);
		if (is_header_block(b))
			break;
	}
	if (i < (int64_t)start)
		return 1;
	{
		uint32_t h_len = xls_be32(HDR_FIELD(b, h_len));
		uint32_t hblks = rec_hblks(log->logv2, xls_be32(HDR_FIELD(b, h_version)),
					   xls_be32(HDR_FIELD(b, h_size)));

		if ((uint64_t)*last - (uint64_t)i + extra !=
		    (uint64_t)(h_len + BB - 1) / BB + hblks)
			*last = (uint32_t)i;
	}
	return 0;
}

/* Blocks of the in-core log that could be in flight at once. */
static uint32_t total_rec_blks(const struct xls_log *log)
{
	uint32_t shift = log->logv2 ? XLOG_MAX_RECORD_BSHIFT : XLOG_BIG_RECORD_BSHIFT;

	return (uint32_t)(((uint64_t)XLOG_MAX_ICLOGS << shift) / BB);
}

static uint32_t rec_blks(const struct xls_log *log)
{
	return (log->logv2 ? XLOG_MAX_RECORD_BSIZE : XLOG_BIG_RECORD_BSIZE) / BB;
}

/*
 * xlog_find_zeroed: 1 and *@blk = first zero block when the log is (partly)
 * zeroed, 0 when it is written all through, -1 on error.
 */
static int find_zeroed(const struct xls_log *log, uint32_t *blk,
		       struct xls_error *err)
{
	uint32_t first_cycle, last_cycle, last, scan, start;
	int64_t found;
	int rc;

	*blk = 0;
	if (read_cycle(log, 0, &first_cycle, err))
		return -1;
	if (first_cycle == 0)
		return 1;
	if (read_cycle(log, log->nblks - 1, &last_cycle, err))
		return -1;
	if (last_cycle != 0)
		return 0;
	/*
	 * Old kernels refused a partly zeroed log whose first cycle is not
	 * 1; current ones accept it (a log formatted at a later cycle, as
	 * xfs_repair leaves it), and so do we.
	 */
	last = log->nblks - 1;
	if (find_cycle_start(log, 0, &last, 0, err))
		return -1;
	scan = total_rec_blks(log);
	if (last < scan)
		scan = last;
	start = last - scan;
	if (find_verify_cycle(log, start, scan, 0, &found, err))
		return -1;
	if (found != -1)
		last = (uint32_t)found;
	rc = find_verify_log_record(log, start, &last, 0, err);
	if (rc < 0)
		return -1;
	if (rc == 1)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s': no record header before the zeroed part of the log (block %u)",
				     log->src->path, last);
	*blk = last;
	return 1;
}

static int no_header_error(const struct xls_log *log, uint32_t blk,
			   struct xls_error *err)
{
	return xls_error_set(err, XLS_EXIT_INPUT,
			     "'%s': log inconsistent: no record header before block %u",
			     log->src->path, blk);
}

/* Back the head up over a partial record (the validate_head step). */
static int validate_head(const struct xls_log *log, uint32_t *head,
			 struct xls_error *err)
{
	uint32_t scan = rec_blks(log), start, new_blk;
	int rc;

	if (*head >= scan) {
		rc = find_verify_log_record(log, *head - scan, head, 0, err);
		return rc == 1 ? no_header_error(log, *head, err) : rc;
	}
	rc = find_verify_log_record(log, 0, head, 0, err);
	if (rc != 1)
		return rc;
	/*
	 * The last record may wrap: look at the end of the physical log.  The
	 * kernel's signed daddr goes below 0 in a log shorter than a record
	 * buffer, and its scan then runs down to block 0: so does ours.
	 */
	start = log->nblks > scan - *head ? log->nblks - (scan - *head) : 0;
	new_blk = log->nblks;
	rc = find_verify_log_record(log, start, &new_blk, *head, err);
	if (rc == 1)
		return no_header_error(log, *head, err);
	if (rc)
		return rc;
	if (new_blk != log->nblks)
		*head = new_blk;
	return 0;
}

static int find_head(const struct xls_log *log, uint32_t *head_out, bool *zeroed,
		     struct xls_error *err)
{
	uint32_t first_cycle, last_cycle, stop, head, scan, zblk;
	int64_t found;
	int rc;

	*zeroed = false;
	rc = find_zeroed(log, &zblk, err);
	if (rc < 0)
		return -1;
	if (rc == 1) {
		*head_out = zblk;
		*zeroed = zblk == 0;
		return 0;
	}
	if (read_cycle(log, 0, &first_cycle, err) ||
	    read_cycle(log, log->nblks - 1, &last_cycle, err))
		return -1;
	head = log->nblks - 1;
	if (first_cycle == last_cycle) {
		/* One cycle all through: the head may be a hole of cycle-1. */
		head = log->nblks;
		stop = last_cycle - 1;
	} else {
		stop = last_cycle;
		if (find_cycle_start(log, 0, &head, last_cycle, err))
			return -1;
	}
	scan = total_rec_blks(log);
	if (scan > log->nblks)
		scan = log->nblks;
	if (head >= scan) {
		if (find_verify_cycle(log, head - scan, scan, stop, &found, err))
			return -1;
		if (found != -1)
			head = (uint32_t)found;
	} else {
		if (find_verify_cycle(log, log->nblks - (scan - head), scan - head,
				      stop - 1, &found, err))
			return -1;
		if (found != -1) {
			head = (uint32_t)found;
		} else {
			if (find_verify_cycle(log, 0, head, stop, &found, err))
				return -1;
			if (found != -1)
				head = (uint32_t)found;
		}
	}
	if (validate_head(log, &head, err))
		return -1;
	*head_out = head == log->nblks ? 0 : head;
	return 0;
}

/*
 * xlog_rseek_logrec_hdr: look back from @head towards @tail for up to
 * @count headers; returns how many were found, the last in *@blk.
 */
static int rseek_header(const struct xls_log *log, uint32_t head, uint32_t tail,
			int count, uint32_t *blk, struct xls_error *err)
{
	uint32_t end = head > tail ? tail : 0;
	uint8_t b[BB];
	int found = 0, rc;

	for (int64_t i = (int64_t)head - 1; i >= (int64_t)end && found < count; i--) {
		rc = read_phys(log, (uint32_t)i, 1, b);
		if (rc)
			return read_error(log, (uint32_t)i, rc, err);
		if (is_header_block(b)) {
			*blk = (uint32_t)i;
			found++;
		}
	}
	if (tail >= head && found < count) {
		for (int64_t i = (int64_t)log->nblks - 1;
		     i >= (int64_t)tail && found < count; i--) {
			rc = read_phys(log, (uint32_t)i, 1, b);
			if (rc)
				return read_error(log, (uint32_t)i, rc, err);
			if (is_header_block(b)) {
				*blk = (uint32_t)i;
				found++;
			}
		}
	}
	return found;
}

/* xlog_seek_logrec_hdr: the same, forward from @tail towards @head. */
static int seek_header(const struct xls_log *log, uint32_t head, uint32_t tail,
		       int count, uint32_t *blk, struct xls_error *err)
{
	uint32_t end = head > tail ? head : log->nblks - 1;
	uint8_t b[BB];
	int found = 0, rc;

	for (uint32_t i = tail; i <= end && found < count; i++) {
		rc = read_phys(log, i, 1, b);
		if (rc)
			return read_error(log, i, rc, err);
		if (is_header_block(b)) {
			*blk = i;
			found++;
		}
	}
	if (tail > head && found < count) {
		for (uint32_t i = 0; i < head && found < count; i++) {
			rc = read_phys(log, i, 1, b);
			if (rc)
				return read_error(log, i, rc, err);
			if (is_header_block(b)) {
				*blk = i;
				found++;
			}
		}
	}
	return found;
}

/*
 * The CRC pass of xlog_do_recovery_pass over [tail, head), looking only at
 * records that start within @limit blocks of @tail: 1 and the header block
 * of the first record with a bad CRC or header in *@bad, 0 when all are
 * good, -1 on a read error.
 */
static int crc_pass(struct xls_log *log, uint32_t head, uint32_t tail,
		    uint32_t limit, uint32_t *bad, struct xls_error *err)
{
	struct xls_rec_iter it;
	struct xls_rec rec;
	int r;

	xls_rec_iter_init(&it, log, XLS_ITER_LSN, tail, head);
	while ((r = xls_rec_iter_next(&it, &rec, err)) > 0) {
		uint32_t blk = r == XLS_ITER_GAP ? it.gap_blk : rec.blk;

		if (xls_log_distance(log, tail, blk) > limit)
			return 0;
		if (r == XLS_ITER_GAP || rec.crc == XLS_CRC_BAD) {
			*bad = blk;
			return 1;
		}
	}
	return r < 0 ? -1 : 0;
}

struct last_rec {
	uint32_t	blk;
	uint8_t		hdr[BB];
};

static int read_last_rec(const struct xls_log *log, uint32_t blk,
			 struct last_rec *lr, struct xls_error *err)
{
	int rc = read_phys(log, blk, 1, lr->hdr);

	lr->blk = blk;
	return rc ? read_error(log, blk, rc, err) : 0;
}

/* xlog_check_unmount_rec: is the last record an unmount record at the head? */
static int check_unmount(const struct xls_log *log, struct xls_head_tail *ht,
			 const struct last_rec *lr, bool *clean,
			 struct xls_error *err)
{
	const uint8_t *h = lr->hdr;
	uint32_t hblks = rec_hblks(log->logv2, xls_be32(HDR_FIELD(h, h_version)),
				   xls_be32(HDR_FIELD(h, h_size)));
	uint32_t len_blks = (xls_be32(HDR_FIELD(h, h_len)) + BB - 1) / BB;
	uint32_t after = (uint32_t)(((uint64_t)lr->blk + hblks + len_blks) % log->nblks);
	uint8_t b[BB];
	int rc;

	*clean = false;
	if (ht->head_blk != after || xls_be32(HDR_FIELD(h, h_num_logops)) != 1)
		return 0;
	rc = read_phys(log, (uint32_t)(((uint64_t)lr->blk + hblks) % log->nblks), 1, b);
	if (rc)
		return read_error(log, lr->blk + hblks, rc, err);
	if (b[offsetof(xlog_op_header_t, oh_flags)] & XLOG_UNMOUNT_TRANS) {
		ht->tail_blk = after;
		*clean = true;
	}
	return 0;
}

static void set_state_from(struct xls_head_tail *ht, const struct last_rec *lr)
{
	ht->last_rec_blk = lr->blk;
	ht->head_cycle = xls_be32(HDR_FIELD(lr->hdr, h_cycle));
	ht->last_lsn = xls_be64(HDR_FIELD(lr->hdr, h_lsn));
	ht->tail_lsn = xls_be64(HDR_FIELD(lr->hdr, h_tail_lsn));
	ht->tail_blk = xls_lsn_block(ht->tail_lsn);
}

/* xlog_verify_head: trim torn writes among the last XLOG_MAX_ICLOGS records. */
static int verify_head(struct xls_log *log, struct xls_head_tail *ht,
		       struct last_rec *lr, struct xls_error *err)
{
	uint32_t start = 0, bad, good = 0;
	int found, r;

	found = rseek_header(log, ht->head_blk, ht->tail_blk, XLOG_MAX_ICLOGS,
			     &start, err);
	if (found < 0)
		return -1;
	if (found == 0)
		return 0;
	r = crc_pass(log, ht->head_blk, start, UINT32_MAX, &bad, err);
	if (r <= 0)
		return r;
	found = rseek_header(log, bad, ht->tail_blk, 1, &good, err);
	if (found < 0)
		return -1;
	if (found == 0)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s': torn write at log block %u and no good record before it",
				     log->src->path, bad);
	ht->torn = true;
	ht->head_blk = bad;
	if (read_last_rec(log, good, lr, err))
		return -1;
	set_state_from(ht, lr);
	return 0;
}

/* xlog_tail_distance: blocks from the head forward to @blk. */
static uint32_t tail_distance(const struct xls_log *log, uint32_t head,
			      uint32_t blk)
{
	return head < blk ? blk - head : blk + (log->nblks - head);
}

/* xlog_verify_tail: move the tail past records overwritten near the head. */
static int verify_tail(struct xls_log *log, struct xls_head_tail *ht,
		       uint32_t h_size, struct xls_error *err)
{
	uint32_t window = (uint32_t)((uint64_t)XLOG_MAX_ICLOGS * h_size / BB);
	uint32_t tmp = ht->tail_blk, bad;
	int r;

	r = seek_header(log, ht->head_blk, ht->tail_blk, 1, &tmp, err);
	if (r < 0)
		return -1;
	if (r == 0)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s': no record header between the tail (block %u) and the head (block %u)",
				     log->src->path, ht->tail_blk, ht->head_blk);
	if (tmp != ht->tail_blk)
		ht->tail_blk = tmp;
	/*
	 * The kernel checks every record from tail to head, but only a bad
	 * one within 8 records' worth of blocks ahead of the head (just past
	 * the tail: overwritten by the head) moves the tail; any other fails
	 * recovery, and the scan reports it.  So only those need checking,
	 * which spares a second read of the whole log.
	 */
	for (;;) {
		uint32_t d0 = tail_distance(log, ht->head_blk, ht->tail_blk);

		if (d0 > window)
			return 0;
		r = crc_pass(log, ht->head_blk, ht->tail_blk, window - d0, &bad, err);
		if (r != 1)
			break;
		r = seek_header(log, ht->head_blk, bad, 2, &tmp, err);
		if (r < 0)
			return -1;
		if (r < 2)
			break;
		ht->tail_blk = tmp;
		ht->tail_moved = true;
	}
	return r < 0 ? -1 : 0;
}

int xls_log_find_head_tail(struct xls_log *log, struct xls_head_tail *ht,
			   struct xls_error *err)
{
	struct last_rec lr;
	bool zeroed, clean;
	uint32_t blk = 0;
	int found;

	memset(ht, 0, sizeof(*ht));
	if (find_head(log, &ht->head_blk, &zeroed, err))
		return -1;
	if (zeroed) {
		ht->state = XLS_LOG_ZEROED;
		return 0;
	}
	found = rseek_header(log, ht->head_blk, ht->head_blk, 1, &blk, err);
	if (found < 0)
		return -1;
	if (found == 0)
		return xls_error_set(err, XLS_EXIT_INPUT,
				     "'%s': no log record header anywhere in the log",
				     log->src->path);
	if (read_last_rec(log, blk, &lr, err))
		return -1;
	set_state_from(ht, &lr);
	ht->found_head_blk = ht->head_blk;
	ht->found_tail_blk = ht->tail_blk;
	if (check_unmount(log, ht, &lr, &clean, err))
		return -1;
	if (!clean) {
		uint32_t orig = ht->head_blk;

		if (verify_head(log, ht, &lr, err))
			return -1;
		if (ht->head_blk != orig && check_unmount(log, ht, &lr, &clean, err))
			return -1;
		if (!clean && ht->head_blk != ht->tail_blk &&
		    verify_tail(log, ht, xls_be32(HDR_FIELD(lr.hdr, h_size)), err))
			return -1;
	}
	ht->state = clean ? XLS_LOG_CLEAN : XLS_LOG_DIRTY;
	return 0;
}
