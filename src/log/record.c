/*
 * Log stage: log records, read through windows of XLS_WIN_BLKS blocks,
 * each header validated (xlog_valid_rec_header), its CRC computed as
 * xlog_cksum() does and its cycle-stamped words restored
 * (xlog_unpack_data); and the iteration over them, tail to head or in
 * physical order.  Blocks are physical block numbers within the log,
 * 0 .. nblks-1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/ondisk.h"
#include "base/crc32c.h"
#include "log/log.h"
#include "log/log_priv.h"

#define WINDOW_ALIGN		(2u << 20)	/* a huge page on x86-64 */
#define CYCLE_WORDS		(XLOG_HEADER_CYCLE_SIZE / BB)	/* 64 */
#define REC_SIZE		sizeof(xlog_rec_header_t)	/* CRC'd header bytes */
#define REC_SIZE_I386		(offsetof(xlog_rec_header_t, h_size) + 4)
#define EXT_SIZE		sizeof(xlog_rec_ext_header_t)

/* ------------------------------------------------------------------ */
/* reading */

int xls_log_read_phys(const struct xls_log *log, uint32_t blk, uint32_t n,
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

int xls_log_read_error(const struct xls_log *log, uint32_t blk, int rc,
		       struct xls_error *err)
{
	return xls_error_set(err, XLS_EXIT_INPUT,
			     "cannot read '%s' at log block %u (byte %llu): %s",
			     log->src->path, blk,
			     (unsigned long long)(log->src->geo.log_offset +
						  (uint64_t)blk * BB),
			     rc == -ENODATA ? "it ends there (cut short, or shrunk while it "
			     "was read)" : strerror(-rc));
}

/*
 * The buffer the next window is read into: a read-ahead thread must not
 * overwrite records its caller may still be decoding, so it takes a free
 * one from its ring.  NULL when that thread has been told to stop.
 */
static uint8_t *window_buffer(struct xls_log *log)
{
	if (log->window_hook)
		log->win = log->window_hook(log->window_ctx);
	return log->win;
}

/*
 * Where a record that wraps is put together: the scratch buffer, or under
 * read-ahead a window of its own, so that it lives as long as the records
 * in the other windows.  NULL when the reader thread has been told to stop.
 */
static uint8_t *wrap_buffer(struct xls_log *log)
{
	if (!log->window_hook)
		return log->scratch;
	log->win_n = 0;
	return window_buffer(log);
}

/*
 * A window is filled a piece at a time, as records ask for it, rather than
 * in one 4 MiB read: the record's CRC and cycle unpack then run on bytes
 * the copy out of the page cache has just left in the core's cache, not
 * on bytes it evicted long ago.
 */
#define WINDOW_PIECE_BLKS	512u	/* 256 KiB */

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* Read more of the window, so that it holds at least @want blocks. */
static int window_extend(struct xls_log *log, uint32_t want)
{
	uint32_t cap = min_u32(log->nblks - log->win_start, XLS_WIN_BLKS);
	uint32_t upto = min_u32(cap, log->win_n + WINDOW_PIECE_BLKS);
	int rc;

	if (upto < want)
		upto = want;
	rc = xls_log_read_phys(log, log->win_start + log->win_n,
			       upto - log->win_n,
			       log->win + (size_t)log->win_n * BB);
	if (rc == 0)
		log->win_n = upto;
	return rc;
}

/* Make the window hold @n blocks from @blk (no wrap); returns a pointer. */
static const uint8_t *window_get(struct xls_log *log, uint32_t blk, uint32_t n,
				 int *rc)
{
	*rc = 0;
	if (log->win_n && blk >= log->win_start &&
	    blk - log->win_start + n <= XLS_WIN_BLKS) {
		uint32_t want = blk - log->win_start + n;

		if (want > log->win_n) {
			*rc = window_extend(log, want);
			if (*rc) {
				log->win_n = 0;
				return NULL;
			}
		}
		return log->win + (size_t)(blk - log->win_start) * BB;
	}
	log->win_n = 0;
	log->win_start = blk;
	if (!window_buffer(log)) {
		*rc = -ECANCELED;
		return NULL;
	}
	*rc = window_extend(log, n);
	return *rc ? NULL : log->win;
}

/* A window of @blks blocks (free()); NULL if out of memory. */
static uint8_t *window_alloc(uint32_t blks)
{
	size_t bytes = (size_t)blks * BB;
	void *p = NULL;

	if (bytes < WINDOW_ALIGN)
		return malloc(bytes);
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

uint8_t *xls_log_window_get(struct xls_log *log)
{
	if (log->nspare_win)
		return log->spare_win[--log->nspare_win];
	return window_alloc(XLS_WIN_BLKS);
}

void xls_log_window_put(struct xls_log *log, uint8_t *win)
{
	if (win && log->nspare_win < XLS_WIN_SPARES)
		log->spare_win[log->nspare_win++] = win;
	else
		free(win);
}

void xls_log_window_trim(struct xls_log *log)
{
	while (log->nspare_win)
		free(log->spare_win[--log->nspare_win]);
}

int xls_log_init(struct xls_log *log, const struct xls_source *src,
		 struct xls_error *err)
{
	memset(log, 0, sizeof(*log));
	log->src = src;
	log->nblks = src->geo.log_bbs;
	/* A bare log has no superblock: trust each record's h_version. */
	log->logv2 = src->geo.logv2 || !src->geo.has_sb;
	/*
	 * The window never holds more than the log (window_extend): a small
	 * log, a fuzzer's or a test's, needs no 4 MiB of it.  Read-ahead
	 * windows, for large logs only, are whole.
	 */
	log->win_buf = window_alloc(log->nblks && log->nblks < XLS_WIN_BLKS ? log->nblks :
				    XLS_WIN_BLKS);
	log->win = log->win_buf;
	log->scratch = malloc((size_t)XLS_MAX_REC_BLKS * BB);
	log->crc_ok = calloc(((size_t)log->nblks + 63) / 64, sizeof(uint64_t));
	if (!log->win_buf || !log->scratch || !log->crc_ok) {
		xls_log_release(log);
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the window of the "
				     "log, its record buffer and its CRC marks");
	}
	return 0;
}

void xls_log_release(struct xls_log *log)
{
	free(log->win_buf);
	free(log->scratch);
	free(log->crc_ok);
	xls_log_window_trim(log);
	log->win = log->win_buf = log->scratch = NULL;
	log->crc_ok = NULL;
}

/* ------------------------------------------------------------------ */
/* record headers */

uint32_t xls_log_rec_hblks(bool logv2, uint32_t h_version, uint32_t h_size)
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

uint32_t xls_rec_crc(const uint8_t *hdr, const uint8_t *data, uint32_t h_len, uint32_t hblks,
		     bool logv2)
{
	return xls_rec_crc_as(hdr, data, h_len, hblks, logv2, false);
}

uint32_t xls_rec_crc_as(const uint8_t *hdr, const uint8_t *data, uint32_t h_len, uint32_t hblks,
			bool logv2, bool i386)
{
	uint32_t crc = crc_header(hdr, i386 ? REC_SIZE_I386 : REC_SIZE);

	if (logv2)
		crc = crc_ext_headers(crc, hdr, h_len, hblks);
	return ~xls_crc32c_update(crc, data, h_len);
}

/*
 * Relaxed atomics: a read-ahead thread may read a word of the bitmap while
 * the decoding thread, finishing a record of its own, sets another bit of
 * it; neither orders anything else by it.
 */
static bool crc_known_ok(const struct xls_log *log, uint32_t blk)
{
	return __atomic_load_n(&log->crc_ok[blk / 64], __ATOMIC_RELAXED) >>
	       (blk % 64) & 1;
}

static void crc_set_ok(struct xls_log *log, uint32_t blk)
{
	__atomic_fetch_or(&log->crc_ok[blk / 64], 1ull << (blk % 64),
			  __ATOMIC_RELAXED);
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

	crc = xls_rec_crc(hdr, data, rec->h_len, rec->hblks, log->logv2);
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
	crc = xls_rec_crc_as(hdr, data, rec->h_len, rec->hblks, log->logv2, true);
	if (crc == rec->h_crc) {
		rec->crc = XLS_CRC_OK_I386;
		__atomic_store_n(&log->crc_i386, true, __ATOMIC_RELAXED);
	}
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

void xls_rec_finish(struct xls_log *log, struct xls_rec *rec)
{
	/* the window the record lies in is the iterator's to write */
	uint8_t *data = (uint8_t *)rec->data;
	const uint8_t *hdr;

	if (!rec->packed)
		return;
	hdr = data - (size_t)rec->hblks * BB;
	rec_check_crc(log, hdr, data, rec);
	rec_unpack(log, hdr, data, rec);
	rec->packed = false;
}

/*
 * Load the record whose header is at @blk, and check and unpack it unless
 * @defer.  Returns NULL and sets *@rc = 0 with @why for an invalid header,
 * or *@rc < 0 on a read error; otherwise returns the header blocks.
 */
static const uint8_t *rec_load(struct xls_log *log, uint32_t blk, bool defer,
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
	rec->hblks = xls_log_rec_hblks(log->logv2, rec->h_version, h_size);
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
		*rc = base ? xls_log_read_phys(log, blk, total, base) : -ECANCELED;
		if (*rc)
			return NULL;
	}
	rec->data = base + (size_t)rec->hblks * BB;
	if (log->src->geo.has_sb)
		rec->uuid_mismatch = memcmp(rec->h_fs_uuid, log->src->geo.uuid, 16) != 0;
	rec->packed = true;
	if (!defer)
		xls_rec_finish(log, rec);
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

void xls_rec_iter_init_stale(struct xls_rec_iter *it, struct xls_log *log,
			     const struct xls_head_tail *ht)
{
	xls_rec_iter_init(it, log, XLS_ITER_STALE, ht->head_blk, ht->tail_blk);
	it->stale_cycle = ht->curr_cycle;
	it->stale_head = ht->head_blk;
	/* At a clean unmount head and tail meet: all of the log is behind. */
	it->done = ht->state == XLS_LOG_ZEROED;
}

uint32_t xls_log_stale_blks(const struct xls_log *log, const struct xls_head_tail *ht)
{
	if (ht->state == XLS_LOG_ZEROED)
		return 0;
	return ht->head_blk == ht->tail_blk ? log->nblks :
	       xls_log_distance(log, ht->head_blk, ht->tail_blk);
}

/*
 * xlog_clear_stale_blocks: a header alone in its block, no payload, no
 * op, stamped with the cycle its place would have had.
 */
static bool is_cleared_block(const uint8_t *b)
{
	return xls_log_is_header(b) && xls_be32(HDR_FIELD(b, h_len)) == 0 &&
	       xls_be32(HDR_FIELD(b, h_num_logops)) == 0;
}

/*
 * A stale walk trusts only a record written where the sequence of cycles
 * puts it: every block from the head to the physical end was last written
 * in the cycle before the head's, every block before the head in the
 * head's.  NULL when the header at @blk continues it, else why not.
 */
static const char *stale_header_why(const struct xls_rec_iter *it, const uint8_t *b,
				    uint32_t blk)
{
	uint32_t want = blk >= it->stale_head ? it->stale_cycle - 1 : it->stale_cycle;

	if (xls_be32(b) == 0)
		return "never written (cycle 0)";
	if (!xls_log_is_header(b))
		return "no record header (the rest of an overwritten record)";
	if (is_cleared_block(b))
		return "cleared by the kernel past the head (xlog_clear_stale_blocks)";
	if (xls_be32(HDR_FIELD(b, h_cycle)) != want ||
	    xls_lsn_cycle(xls_be64(HDR_FIELD(b, h_lsn))) != want)
		return "a record of another cycle: it does not continue the sequence";
	return NULL;
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
	bool cleared = false;
	int rc;

	it->gap_blk = blk;
	it->gap_why = why;
	if (it->mode == XLS_ITER_STALE) {
		const uint8_t *b = window_get(log, blk, 1, &rc);

		if (!b)
			return xls_log_read_error(log, blk, rc, err);
		cleared = is_cleared_block(b);
	}
	for (; skipped < left; skipped++) {
		const uint8_t *b;

		blk = (it->next_blk + skipped) % log->nblks;
		b = window_get(log, blk, 1, &rc);
		if (!b)
			return xls_log_read_error(log, blk, rc, err);
		/* the kernel's clearing and what it left are told apart */
		if (cleared && !is_cleared_block(b))
			break;
		if (it->mode == XLS_ITER_STALE && stale_header_why(it, b, blk))
			continue;
		if (xls_log_is_header(b) &&
		    !xls_rec_header_check(b, blk, log->nblks, log->logv2,
					  log->src->geo.log_sunit, &h_size))
			break;
	}
	it->gap_blks = skipped;
	it->walked += skipped;
	it->next_blk = (it->next_blk + skipped) % log->nblks;
	if (it->mode == XLS_ITER_PHYSICAL && skipped >= left)
		it->done = true;
	if (it->mode != XLS_ITER_PHYSICAL && skipped >= left)
		it->next_blk = it->end_blk;
	return XLS_ITER_GAP;
}

/* Stale mode: whether the header at next_blk continues the sequence. */
static int iter_stale_check(struct xls_rec_iter *it, const char **why,
			    struct xls_error *err)
{
	const uint8_t *b;
	int rc;

	b = window_get(it->log, it->next_blk, 1, &rc);
	if (!b)
		return xls_log_read_error(it->log, it->next_blk, rc, err);
	*why = stale_header_why(it, b, it->next_blk);
	return 0;
}

/* Physical mode: skip blocks that are not headers, silently. */
static int iter_skip_to_header(struct xls_rec_iter *it, struct xls_error *err)
{
	struct xls_log *log = it->log;
	int rc;

	while (it->next_blk < log->nblks) {
		const uint8_t *b = window_get(log, it->next_blk, 1, &rc);

		if (!b)
			return xls_log_read_error(log, it->next_blk, rc, err);
		if (xls_log_is_header(b))
			return 0;
		it->next_blk++;
		it->walked++;
	}
	it->done = true;
	return 0;
}

int xls_rec_iter_next(struct xls_rec_iter *it, struct xls_rec *rec,
		      struct xls_error *err)
{
	struct xls_log *log = it->log;
	const char *why = NULL;
	uint32_t total, remaining;
	int rc = 0;

	if (it->mode == XLS_ITER_PHYSICAL && !iter_at_end(it) &&
	    iter_skip_to_header(it, err))
		return -1;
	if (iter_at_end(it))
		return XLS_ITER_END;
	if (it->mode == XLS_ITER_STALE) {
		if (iter_stale_check(it, &why, err))
			return -1;
		if (why)
			return iter_resync(it, why, err);
	}
	if (!rec_load(log, it->next_blk, it->defer_check, rec, &why, &rc)) {
		if (rc)
			return xls_log_read_error(log, it->next_blk, rc, err);
		return iter_resync(it, why, err);
	}
	total = rec->hblks + rec->data_blks;
	remaining = iter_remaining(it);
	/* The tail is a record boundary: a record across it is not what it seems. */
	if (it->mode == XLS_ITER_STALE && total > remaining)
		return iter_resync(it, "record runs past the tail", err);
	it->walked += total;
	if (it->mode == XLS_ITER_PHYSICAL) {
		it->next_blk += total;
		if (rec->wrapped)
			it->done = true;
	} else {
		/* A record that runs past the head ends the walk. */
		if (total > remaining)
			it->done = true;
		it->next_blk = (it->next_blk + total) % log->nblks;
	}
	return XLS_ITER_RECORD;
}
