/*
 * The unmount record replay writes to clean a log (log/clean.c), read
 * back with the record layout written here by hand (xfs_log_format.h's
 * offsets) and a CRC32C computed bit by bit: the shape the kernel's
 * xlog_sync gives it for each log geometry (padded to the log stripe
 * unit, one extended header per 32 KiB of the default iclog), every data
 * block cycle-stamped with its first word saved in the header, and, at
 * the physical end of the log, the blocks past it in the next cycle with
 * the CRC over them as written.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "base/ondisk.h"
#include "log/log.h"
#include "source/source.h"

#define BB		512u
#define NBLKS		4096u
#define OFF_CYCLE	4	/* h_cycle */
#define OFF_LEN		12	/* h_len */
#define OFF_LSN		16	/* h_lsn */
#define OFF_CRC		32	/* h_crc, little-endian */
#define OFF_NOPS	40	/* h_num_logops */
#define OFF_CDATA	44	/* h_cycle_data[64] */
#define OFF_SIZE	320	/* h_size */
#define REC_BYTES	328	/* sizeof(xlog_rec_header) on x86_64 */
#define EXT_BYTES	260	/* sizeof(xlog_rec_ext_header) */
#define TID		0x12345678u

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t crc_bits(uint32_t crc, const uint8_t *p, size_t n)
{
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? crc >> 1 ^ 0x82f63b78u : crc >> 1;
	}
	return crc;
}

struct logimg {
	uint8_t	*b;
	uint32_t writes;
};

static int put(void *ctx, uint32_t blk, const uint8_t *buf, uint32_t nblks)
{
	struct logimg *l = ctx;

	if (blk + nblks > NBLKS)
		return -1;
	memcpy(l->b + (size_t)blk * BB, buf, (size_t)nblks * BB);
	l->writes++;
	return 0;
}

struct want {
	const char	*what;
	uint32_t	sunit, head;
	uint32_t	blks, hblks, h_len, h_size;
};

static void check(struct tap *t, const struct want *w)
{
	struct xls_source src = { 0 };
	struct xls_log log = { 0 };
	struct xls_head_tail ht = { 0 };
	struct logimg l = { calloc(NBLKS, BB), 0 };
	static uint8_t rec[520 * BB];
	uint32_t cycle = 7, crc;
	bool stamped = true;
	int rc;

	src.geo.crc = true;
	src.geo.log_sunit = w->sunit;
	log.src = &src;
	log.nblks = NBLKS;
	log.logv2 = true;
	ht.state = XLS_LOG_DIRTY;
	ht.curr_cycle = cycle;
	ht.curr_block = w->head;
	ht.tail_blk = 2;
	rc = xls_log_write_unmount(&log, &ht, XLOG_FMT_LINUX_LE, TID, put, &l);
	tap_ok(t, rc == 0 && l.writes == (w->head + w->blks > NBLKS ? 2u : 1u),
	       "%s: written (%u writes)", w->what, l.writes);
	/* the record, contiguous, as a reader joins a record that wraps */
	for (uint32_t i = 0; i < w->blks; i++)
		memcpy(rec + (size_t)i * BB, l.b + (size_t)((w->head + i) % NBLKS) * BB, BB);
	tap_ok(t, be32(rec) == 0xfeedbabe && be32(rec + OFF_CYCLE) == cycle &&
	       be32(rec + OFF_LSN) == cycle && be32(rec + OFF_LSN + 4) == w->head,
	       "%s: header at %u, cycle %u", w->what, w->head, cycle);
	tap_ok(t, be32(rec + OFF_LEN) == w->h_len && be32(rec + OFF_SIZE) == w->h_size &&
	       be32(rec + OFF_NOPS) == 1,
	       "%s: h_len %u (want %u), h_size %u (want %u)", w->what, be32(rec + OFF_LEN),
	       w->h_len, be32(rec + OFF_SIZE), w->h_size);
	for (uint32_t i = 1; i < w->hblks; i++)
		stamped &= be32(rec + (size_t)i * BB) ==
			   (w->head + i >= NBLKS ? cycle + 1 : cycle);
	for (uint32_t i = w->hblks; i < w->blks; i++)
		stamped &= be32(rec + (size_t)i * BB) ==
			   (w->head + i >= NBLKS ? cycle + 1 : cycle);
	tap_ok(t, stamped, "%s: every block after the header stamped with its cycle", w->what);
	tap_ok(t, be32(rec + OFF_CDATA) == TID,
	       "%s: the op header's first word (oh_tid) saved in h_cycle_data[0]", w->what);
	crc = crc_bits(~0u, rec, OFF_CRC);
	crc = crc_bits(crc, (const uint8_t *)"\0\0\0\0", 4);
	crc = crc_bits(crc, rec + OFF_CRC + 4, REC_BYTES - OFF_CRC - 4);
	for (uint32_t i = 1; i < w->hblks; i++)
		crc = crc_bits(crc, rec + (size_t)i * BB, EXT_BYTES);
	crc = ~crc_bits(crc, rec + (size_t)w->hblks * BB, w->h_len);
	tap_ok(t, crc == ((uint32_t)rec[OFF_CRC] | (uint32_t)rec[OFF_CRC + 1] << 8 |
			  (uint32_t)rec[OFF_CRC + 2] << 16 | (uint32_t)rec[OFF_CRC + 3] << 24),
	       "%s: CRC over the header, extended headers and data as written", w->what);
	free(l.b);
}

int main(void)
{
	static const struct want wants[] = {
		/* what mkfs and the kernel write, measured on their clean logs */
		{ "no stripe unit", 0, 100, 2, 1, 512, 32768 },
		{ "4 KiB sectors (stripe unit 4 KiB)", 4096, 64, 8, 1, 3584, 32768 },
		{ "32 KiB stripe unit", 32768, 128, 64, 1, 32256, 32768 },
		{ "256 KiB stripe unit", 262144, 512, 512, 8, 258048, 262144 },
		/* the physical end: the payload block in the next cycle */
		{ "no stripe unit, at the last block", 0, NBLKS - 1, 2, 1, 512, 32768 },
	};
	struct tap t = { 0 };

	for (size_t i = 0; i < sizeof(wants) / sizeof(wants[0]); i++)
		check(&t, &wants[i]);
	printf("1..%u\n", t.n);
	return t.failed ? 1 : 0;
}
