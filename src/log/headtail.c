/*
 * Log stage: head and tail as recovery finds them, following
 * fs/xfs/xfs_log_recover.c: xlog_find_zeroed, xlog_find_head (cycle binary
 * search, xlog_find_verify_cycle, xlog_find_verify_log_record),
 * xlog_find_tail, xlog_check_unmount_rec, xlog_verify_head and
 * xlog_verify_tail.  Blocks are physical block numbers within the log,
 * 0 .. nblks-1.
 */
#include <stdio.h>
#include <string.h>
#include <uuid/uuid.h>

#include "base/ondisk.h"
#include "log/log.h"
#include "log/log_priv.h"

/* h_fs_uuid of an IRIX-style log: accepted ("null uuid in log") */
static const uint8_t null_uuid[16];

static int read_cycle(const struct xls_log *log, uint32_t blk, uint32_t *cycle,
		      struct xls_error *err)
{
	uint8_t b[BB];
	int rc = xls_log_read_phys(log, blk, 1, b);

	*cycle = 0;
	if (rc)
		return xls_log_read_error(log, blk, rc, err);
	*cycle = xls_log_block_cycle(b);
	return 0;
}

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
		int rc = xls_log_read_phys(log, start + i, cnt, buf);

		if (rc)
			return xls_log_read_error(log, start + i, rc, err);
		for (uint32_t j = 0; j < cnt; j++) {
			if (xls_log_block_cycle(buf + (size_t)j * BB) == cycle) {
				*found = (int64_t)start + i + j;
				return 0;
			}
		}
	}
	return 0;
}

/*
 * The scans below step one block at a time, as the kernel's do; they read
 * a chunk at a time (on a 30 MiB log, 500 reads of 512 bytes were a
 * tenth of stats' time).  A chunk that cannot be read is read again block
 * by block, so that a read error is met at the block the kernel meets it.
 */
#define SCAN_BLKS	128u

struct scan_window {
	uint32_t	first, n;		/* log blocks [first, first + n) held */
	uint8_t		buf[SCAN_BLKS * BB];
};

/*
 * Block @blk of a scan over [@lo, @hi] going backwards (@back) or
 * forwards, or NULL with the read's error in *@rc.
 */
static const uint8_t *scan_block(const struct xls_log *log, struct scan_window *w, uint32_t blk,
				 uint32_t lo, uint32_t hi, bool back, int *rc)
{
	uint32_t first = blk, n = 1;

	if (w->n && blk >= w->first && blk - w->first < w->n)
		return w->buf + (size_t)(blk - w->first) * BB;
	/* a chunk never wraps past the log's end, where a block alone fails */
	if (blk >= log->nblks) {
		n = 1;
	} else if (back) {
		first = blk - lo >= SCAN_BLKS ? blk - SCAN_BLKS + 1 : lo;
		n = blk - first + 1;
	} else {
		n = hi - blk >= SCAN_BLKS ? SCAN_BLKS : hi - blk + 1;
		n = n < log->nblks - blk ? n : log->nblks - blk;
	}
	*rc = xls_log_read_phys(log, first, n, w->buf);
	if (*rc) {
		first = blk;
		n = 1;
		*rc = xls_log_read_phys(log, blk, 1, w->buf);
	}
	w->n = *rc ? 0 : n;
	w->first = first;
	return *rc ? NULL : w->buf + (size_t)(blk - first) * BB;
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
	struct scan_window w = { 0 };
	const uint8_t *b = NULL;
	int64_t i;

	for (i = (int64_t)*last - 1; i >= (int64_t)start; i--) {
		int rc = 0;

		b = scan_block(log, &w, (uint32_t)i, start, *last - 1, true, &rc);
		if (!b)
			return xls_log_read_error(log, (uint32_t)i, rc, err);
		if (xls_log_is_header(b))
			break;
	}
	if (i < (int64_t)start)
		return 1;
	{
		uint32_t h_len = xls_be32(HDR_FIELD(b, h_len));
		uint32_t hblks = xls_log_rec_hblks(log->logv2, xls_be32(HDR_FIELD(b, h_version)),
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
	struct scan_window w = { 0 };
	const uint8_t *b;
	int found = 0, rc = 0;

	for (int64_t i = (int64_t)head - 1; i >= (int64_t)end && found < count; i--) {
		b = scan_block(log, &w, (uint32_t)i, end, head - 1, true, &rc);
		if (!b)
			return xls_log_read_error(log, (uint32_t)i, rc, err);
		if (xls_log_is_header(b)) {
			*blk = (uint32_t)i;
			found++;
		}
	}
	if (tail >= head && found < count) {
		for (int64_t i = (int64_t)log->nblks - 1;
		     i >= (int64_t)tail && found < count; i--) {
			b = scan_block(log, &w, (uint32_t)i, tail, log->nblks - 1, true, &rc);
			if (!b)
				return xls_log_read_error(log, (uint32_t)i, rc, err);
			if (xls_log_is_header(b)) {
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
	struct scan_window w = { 0 };
	const uint8_t *b;
	int found = 0, rc = 0;

	for (uint32_t i = tail; i <= end && found < count; i++) {
		b = scan_block(log, &w, i, tail, end, false, &rc);
		if (!b)
			return xls_log_read_error(log, i, rc, err);
		if (xls_log_is_header(b)) {
			*blk = i;
			found++;
		}
	}
	if (tail > head && found < count) {
		for (uint32_t i = 0; i < head && found < count; i++) {
			b = scan_block(log, &w, i, 0, head - 1, false, &rc);
			if (!b)
				return xls_log_read_error(log, i, rc, err);
			if (xls_log_is_header(b)) {
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
	int rc = xls_log_read_phys(log, blk, 1, lr->hdr);

	lr->blk = blk;
	return rc ? xls_log_read_error(log, blk, rc, err) : 0;
}

/* xlog_check_unmount_rec: is the last record an unmount record at the head? */
static int check_unmount(const struct xls_log *log, struct xls_head_tail *ht,
			 const struct last_rec *lr, bool *clean,
			 struct xls_error *err)
{
	const uint8_t *h = lr->hdr;
	uint32_t hblks = xls_log_rec_hblks(log->logv2, xls_be32(HDR_FIELD(h, h_version)),
				   xls_be32(HDR_FIELD(h, h_size)));
	uint32_t len_blks = (xls_be32(HDR_FIELD(h, h_len)) + BB - 1) / BB;
	uint32_t after = (uint32_t)(((uint64_t)lr->blk + hblks + len_blks) % log->nblks);
	uint8_t b[BB];
	int rc;

	*clean = false;
	if (ht->head_blk != after || xls_be32(HDR_FIELD(h, h_num_logops)) != 1)
		return 0;
	rc = xls_log_read_phys(log, (uint32_t)(((uint64_t)lr->blk + hblks) % log->nblks), 1, b);
	if (rc)
		return xls_log_read_error(log, lr->blk + hblks, rc, err);
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
	ht->last_fmt = xls_be32(HDR_FIELD(lr->hdr, h_fmt));
	ht->tail_blk = xls_lsn_block(ht->tail_lsn);
	memcpy(ht->log_uuid, HDR_FIELD(lr->hdr, h_fs_uuid), sizeof(ht->log_uuid));
	ht->log_has_crc = xls_le32(HDR_FIELD(lr->hdr, h_crc)) != 0;
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
		/* xlog_find_tail leaves the log as xlog_alloc_log made it */
		ht->state = XLS_LOG_ZEROED;
		ht->curr_cycle = 1;
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
	/* xlog_set_state: the search for the last header wrapped past block 0 */
	ht->curr_cycle = ht->head_cycle + (ht->last_rec_blk >= ht->head_blk);
	ht->curr_block = ht->head_blk;
	ht->foreign_uuid = log->src->geo.has_sb &&
			   memcmp(ht->log_uuid, null_uuid, sizeof(null_uuid)) != 0 &&
			   memcmp(ht->log_uuid, log->src->geo.uuid, sizeof(null_uuid)) != 0;
	return 0;
}

enum xls_finding_kind xls_log_refusal_finding(enum xls_log_refusal r)
{
	switch (r) {
	case XLS_REFUSE_NONE:		break;
	case XLS_REFUSE_SB_GEOMETRY:	return XLS_FIND_SB_GEOMETRY;
	case XLS_REFUSE_DEVICE_SIZE:	return XLS_FIND_DEVICE_SIZE;
	case XLS_REFUSE_LOG_UUID:	return XLS_FIND_LOG_UUID;
	case XLS_REFUSE_SB_LSN:		return XLS_FIND_SB_LSN;
	}
	return XLS_FIND_NONE;
}

enum xls_log_refusal xls_log_refusal(const struct xls_head_tail *ht,
				     const struct xls_geometry *g, char *buf, size_t size)
{
	uint64_t need = xls_geo_fs_bytes(g);

	if (g->has_sb && g->sb_refused) {
		snprintf(buf, size, "the superblock fails the kernel's check (%s): the kernel "
			 "refuses to mount it before recovery (\"SB validate failed\", "
			 "EFSCORRUPTED); xfs_repair finds a good copy", g->sb_refused);
		return XLS_REFUSE_SB_GEOMETRY;
	}
	/* xfs_check_sizes, at mount, before the log: the last sector must read */
	if (g->has_sb && g->data_bytes && g->blocksize && g->dblocks &&
	    g->dblocks <= UINT64_MAX / g->blocksize && g->data_bytes < need) {
		snprintf(buf, size, "the data device holds %llu bytes, but the superblock's "
			 "sb_dblocks says %llu (%llu blocks of %u): the kernel refuses to mount "
			 "it before recovery (\"last sector read failed\"); the device or image "
			 "is cut short", (unsigned long long)g->data_bytes,
			 (unsigned long long)need, (unsigned long long)g->dblocks, g->blocksize);
		return XLS_REFUSE_DEVICE_SIZE;
	}
	if (ht->foreign_uuid) {
		char logu[40], sbu[40];

		uuid_unparse_lower(ht->log_uuid, logu);
		uuid_unparse_lower(g->uuid, sbu);
		snprintf(buf, size, "the log's records carry UUID %s, not the filesystem's %s: "
			 "this is another filesystem's log, which the kernel refuses while "
			 "looking for the head (\"log has mismatched uuid - can't recover\")",
			 logu, sbu);
		return XLS_REFUSE_LOG_UUID;
	}
	if (g->crc && xls_log_lsn_ahead(ht, g->sb_lsn)) {
		snprintf(buf, size, "the superblock's LSN %u/%u is ahead of the log's current LSN "
			 "%u/%u%s: the kernel refuses the log before replaying anything "
			 "(\"Metadata has LSN ahead of current LSN\"); xfs_repair resolves it",
			 xls_lsn_cycle(g->sb_lsn), xls_lsn_block(g->sb_lsn),
			 ht->curr_cycle, ht->curr_block,
			 ht->state == XLS_LOG_ZEROED ? " (the log is totally zeroed)" : "");
		return XLS_REFUSE_SB_LSN;
	}
	return XLS_REFUSE_NONE;
}

bool xls_log_lsn_ahead(const struct xls_head_tail *ht, uint64_t lsn)
{
	uint32_t cycle = xls_lsn_cycle(lsn), block = xls_lsn_block(lsn);

	if (lsn == (uint64_t)-1)	/* NULLCOMMITLSN: "handled by recovery" */
		return false;
	return cycle > ht->curr_cycle ||
	       (cycle == ht->curr_cycle && block > ht->curr_block);
}
