/*
 * Head and tail of a small log in memory (xls_log_find_head_tail), laid
 * out here block by block: records of no op and an unmount record written
 * by log/clean.c (whose layout and CRC u-unmount checks independently),
 * h_tail_lsn set here and the CRC recomputed.  The head, tail and state
 * expected are where xlog_find_tail puts them for that layout: a zeroed
 * log, a clean one, a dirty one that wrapped, a torn write at the head
 * (xlog_verify_head), a tail overwritten by the head (xlog_verify_tail),
 * another filesystem's log.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tap.h"
#include "base/ondisk.h"
#include "log/log.h"
#include "source/source.h"

#define BB		512u
#define NBLKS		1024u
#define PAD_BLKS	65u	/* a record of no op: 1 header block, 32 KiB */
#define HDR(f)		offsetof(struct xlog_rec_header, f)

static uint8_t img[NBLKS * BB];

static int put(void *ctx, uint32_t blk, const uint8_t *buf, uint32_t nblks)
{
	(void)ctx;
	if (blk + nblks > NBLKS)
		return -1;
	memcpy(img + (size_t)blk * BB, buf, (size_t)nblks * BB);
	return 0;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (56 - 8 * i));
}

/* The record at @blk (one header block, not wrapping) given h_tail_lsn @tail. */
static void set_tail(uint32_t blk, uint64_t tail)
{
	uint8_t *hdr = img + (size_t)blk * BB;
	uint32_t crc;

	put_be64(hdr + HDR(h_tail_lsn), tail);
	crc = xls_rec_crc(hdr, hdr + BB, xls_be32(hdr + HDR(h_len)), 1, true);
	for (int i = 0; i < 4; i++)
		hdr[HDR(h_crc) + i] = (uint8_t)(crc >> (8 * i));
}

static void geo(struct xls_source *src)
{
	memset(src, 0, sizeof(*src));
	src->path = (char *)"synthetic log";
	src->data_fd = -1;
	src->log_fd = -1;
	src->log_dev_bytes = sizeof(img);
	src->geo.log_bbs = NBLKS;
	src->geo.sect_bbs = 1;
	src->geo.logv2 = true;
	src->geo.crc = true;
	src->geo.has_sb = true;
	memset(src->geo.uuid, 0x5c, 16);
}

/* Records of no op from @cycle/@blk up to @lsn; *@last: the last one's header. */
static int pad(const struct xls_source *src, uint32_t cycle, uint32_t blk, uint32_t prev,
	       uint64_t lsn, uint32_t *last)
{
	struct xls_log log;
	struct xls_head_tail ht = { 0 };
	struct xls_error err = { 0 };
	int rc;

	if (xls_log_init(&log, src, &err))
		return -1;
	ht.curr_cycle = cycle;
	ht.curr_block = blk;
	ht.last_rec_blk = prev;
	rc = xls_log_write_pad(&log, &ht, lsn, XLOG_FMT_LINUX_LE, 0, last, put, NULL);
	xls_log_release(&log);
	return rc;
}

static int unmount_at(const struct xls_source *src, uint32_t cycle, uint32_t blk, uint32_t prev)
{
	struct xls_log log;
	struct xls_head_tail ht = { 0 };
	struct xls_error err = { 0 };
	int rc;

	if (xls_log_init(&log, src, &err))
		return -1;
	ht.curr_cycle = cycle;
	ht.curr_block = blk;
	ht.last_rec_blk = prev;
	rc = xls_log_write_unmount(&log, &ht, XLOG_FMT_LINUX_LE, 0x1234, put, NULL);
	xls_log_release(&log);
	return rc;
}

/* The head and tail of img as read through a file descriptor. */
static int find(struct xls_source *src, struct xls_head_tail *ht, struct xls_error *err)
{
	struct xls_log log;
	int fd = memfd_create("u-headtail", 0), rc = -1;

	memset(err, 0, sizeof(*err));
	if (fd < 0 || write(fd, img, sizeof(img)) != (ssize_t)sizeof(img)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	src->log_fd = fd;
	if (!xls_log_init(&log, src, err)) {
		rc = xls_log_find_head_tail(&log, ht, err);
		xls_log_release(&log);
	}
	close(fd);
	src->log_fd = -1;
	return rc;
}

/*
 * Cycle 1 over the whole log, then cycle 2 from block 0 to 300: records
 * at 0, 65, ..., 910, 975 (25 blocks), 1000 (24, to the physical end),
 * then 0, 65, ..., 195, 260 (40 blocks).  Every record's tail: (1, @tail).
 */
static int wrapped(const struct xls_source *src, uint32_t tail)
{
	uint32_t last = 0;

	memset(img, 0, sizeof(img));
	if (pad(src, 1, 0, 0, xls_lsn(1, 1000), &last) ||
	    pad(src, 1, 1000, last, xls_lsn(2, 300), &last) || last != 260)
		return -1;
	for (uint32_t b = 0; b < 1000; b += PAD_BLKS)
		set_tail(b, xls_lsn(1, tail));
	set_tail(1000, xls_lsn(1, tail));
	return 0;
}

int main(void)
{
	struct tap t = { 0, 0 };
	struct xls_source src;
	struct xls_head_tail ht;
	struct xls_error err;
	uint32_t last = 0;
	int rc;

	geo(&src);

	memset(img, 0, sizeof(img));
	rc = find(&src, &ht, &err);
	tap_ok(&t, rc == 0, "zeroed: found (%s)", rc ? err.msg : "ok");
	tap_ok(&t, ht.state == XLS_LOG_ZEROED && ht.head_blk == 0 && ht.curr_cycle == 1 &&
		   ht.curr_block == 0, "zeroed: state zeroed, next LSN 1/0");

	rc = pad(&src, 1, 0, 0, xls_lsn(1, 100), &last) || unmount_at(&src, 1, 100, last);
	tap_ok(&t, rc == 0 && last == 65, "clean: two records of no op, unmount record at 100");
	rc = find(&src, &ht, &err);
	tap_ok(&t, rc == 0 && ht.state == XLS_LOG_CLEAN && ht.last_rec_blk == 100 &&
		   ht.head_cycle == 1, "clean: state clean, last record the unmount record (%s)",
	       rc ? err.msg : "ok");
	tap_ok(&t, ht.head_blk == 102 && ht.tail_blk == 102 && ht.curr_cycle == 1 &&
		   ht.curr_block == 102, "clean: head = tail = past the unmount record (%u, %u)",
	       ht.head_blk, ht.tail_blk);
	tap_ok(&t, ht.last_fmt == XLOG_FMT_LINUX_LE && ht.log_has_crc && !ht.foreign_uuid &&
		   !ht.torn && !ht.tail_moved, "clean: h_fmt, CRC, own UUID, nothing trimmed");
	src.geo.uuid[0] ^= 1;
	rc = find(&src, &ht, &err);
	tap_ok(&t, rc == 0 && ht.foreign_uuid, "another filesystem's UUID: foreign_uuid");
	src.geo.has_sb = false;
	rc = find(&src, &ht, &err);
	tap_ok(&t, rc == 0 && !ht.foreign_uuid, "a bare log: no UUID to compare");
	geo(&src);

	rc = wrapped(&src, 390) || find(&src, &ht, &err);
	tap_ok(&t, rc == 0 && ht.state == XLS_LOG_DIRTY, "wrapped: dirty (%s)",
	       rc ? err.msg : "ok");
	tap_ok(&t, ht.head_blk == 300 && ht.head_cycle == 2 && ht.last_rec_blk == 260 &&
		   ht.last_lsn == xls_lsn(2, 260), "wrapped: head 300 in cycle 2, last record 260 "
	       "(%u, %u, %u)", ht.head_blk, ht.head_cycle, ht.last_rec_blk);
	tap_ok(&t, ht.tail_blk == 390 && ht.tail_lsn == xls_lsn(1, 390) && !ht.tail_moved &&
		   !ht.torn, "wrapped: tail at the last record's h_tail_lsn, 390 (%u)", ht.tail_blk);
	tap_ok(&t, ht.curr_cycle == 2 && ht.curr_block == 300, "wrapped: next LSN 2/300");

	/* a byte of the last record's payload changed: its CRC fails */
	rc = wrapped(&src, 390);
	img[261 * BB + 100] ^= 0xff;
	rc = rc || find(&src, &ht, &err);
	tap_ok(&t, rc == 0 && ht.torn && ht.found_head_blk == 300 && ht.head_blk == 260,
	       "torn: head trimmed to the bad record, 300 -> 260 (%u)", ht.head_blk);
	tap_ok(&t, ht.last_rec_blk == 195 && ht.tail_blk == 390 && ht.state == XLS_LOG_DIRTY &&
		   ht.curr_block == 260, "torn: last record the one before, 195; tail 390");

	/* the tail's record, just past the head, overwritten: its CRC fails */
	rc = wrapped(&src, 325);
	img[326 * BB + 100] ^= 0xff;
	rc = rc || find(&src, &ht, &err);
	tap_ok(&t, rc == 0 && ht.tail_moved && ht.found_tail_blk == 325 && ht.tail_blk == 390,
	       "tail overwritten: moved past the bad record, 325 -> 390 (%u)", ht.tail_blk);
	tap_ok(&t, ht.head_blk == 300 && !ht.torn, "tail overwritten: head unchanged, 300");

	/* the same damage far from the head is not the tail's to move */
	rc = wrapped(&src, 325);
	img[846 * BB + 100] ^= 0xff;
	rc = rc || find(&src, &ht, &err);
	tap_ok(&t, rc == 0 && ht.tail_blk == 325 && !ht.tail_moved && !ht.torn,
	       "a bad record (845) beyond 8 iclogs past the head: tail not moved (%u)", ht.tail_blk);
	return tap_done(&t);
}
