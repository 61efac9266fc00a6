/*
 * xls-seedgen: cut small, valid bare logs out of a real XFS journal, for the
 * fuzz corpus (make fuzz) and the mutation test (t0610).
 *
 *   xls-seedgen [-f] [-l LOGDEV] [-n MAX] INPUT OUTDIR NAME
 *   xls-seedgen -S OUTDIR NAME
 *
 * INPUT is read as xfs_logscope reads it (an image, -l for an external log,
 * -f for a bare log).  Its records from tail to head are decoded with the
 * log stage; windows of consecutive records are then written, each as a new
 * bare log OUTDIR/NAME-<window>-<layout>.log:
 *
 *   plain    records relocated to block 0 onwards in cycle 1, followed by
 *            zeroed blocks: a log whose head is found by xlog_find_zeroed;
 *   wrap     the same records placed so that they cross the physical end of
 *            the log: cycle 1 before the end, cycle 2 after it (a record
 *            that straddles the end has its tail blocks stamped cycle 2),
 *            and cycle-1 filler blocks between the head and the tail.
 *
 * Every record is re-packed for its new place: h_lsn, h_tail_lsn,
 * h_prev_block, h_cycle and extended headers' xh_cycle rewritten, the first
 * word of each payload block saved into the cycle data and replaced by the
 * block's cycle stamp, and the CRC recomputed (or set to 0, which is
 * accepted: a mutated record then still passes its CRC check, so a fuzzer
 * gets past the torn-write check into the op, transaction and item stages).
 * The log is at least 128 blocks and at least 64 blocks longer than the
 * records, so a seed is a valid log on its own (xfs_logscope -f finds the
 * same records between tail and head).
 *
 * -S writes synthetic seeds instead: three records holding transactions
 * with one item of every type the items stage decodes (EFI/EFD, RUI/RUD,
 * CUI/CUD, BUI/BUD, ATTRI/ATTRD, XMI/XMD, ICREATE, dquot, quotaoff, iunlink,
 * the realtime variants, a buffer, an unknown type), in little-endian and
 * big-endian payload order, and a region continued across records.  Real
 * journals of the test images hold only some of these types.  With them
 * come the hostile names seeds (NAME-names-*): shortform directories and
 * attr forks with a name of length 0, entries past the fork and counts
 * past it, directory data blocks with a name past the block, a free entry
 * of length 0 and a bad tag, an attr leaf claiming 65535 entries, and two
 * directories that are each other's parent -- what files must report as
 * malformed and stop reading at, never crash or loop on.
 *
 * -n MAX limits the number of seeds written.  Output names are stable for a
 * given input, so reruns overwrite rather than accumulate.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/ondisk.h"
#include "base/crc32c.h"
#include <xfs/xfs_da_format.h>
#include "log/log.h"
#include "source/source.h"

#define BB		512u
#define CYCLE_WORDS	(XLOG_HEADER_CYCLE_SIZE / BB)	/* 64 */
#define MAX_SEED_BLKS	2048u	/* 1 MiB: one 256 KiB record fits with room */
#define MIN_LOG_BLKS	128u

struct rec {
	uint32_t	hblks;
	uint32_t	data_blks;
	uint32_t	h_len;
	uint8_t		*hdr;		/* hblks blocks, as on disk */
	uint8_t		*data;		/* data_blks blocks, restored */
};

static struct rec *recs;
static size_t nrecs, caprecs;
static unsigned int written, max_seeds = 1000;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "xls-seedgen: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

#define HDR(h, f)	((h) + offsetof(xlog_rec_header_t, f))

/*
 * Read every record tail..head into recs[]; for a clean log, whose tail is
 * its head, every record before the head in physical order instead.
 */
static void load(const struct xls_source_opts *o)
{
	struct xls_error err = { XLS_EXIT_OK, "" };
	struct xls_source src;
	struct xls_log log;
	struct xls_head_tail ht;
	struct xls_rec_iter it;
	struct xls_rec rec;
	int r;

	if (xls_source_open(&src, o, &err) || xls_log_init(&log, &src, &err) ||
	    xls_log_find_head_tail(&log, &ht, &err))
		die("%s", err.msg);
	if (ht.tail_blk != ht.head_blk)
		xls_rec_iter_init(&it, &log, XLS_ITER_LSN, ht.tail_blk, ht.head_blk);
	else
		xls_rec_iter_init(&it, &log, XLS_ITER_PHYSICAL, 0, 0);
	while ((r = xls_rec_iter_next(&it, &rec, &err)) > 0) {
		struct rec *x;

		if (r != XLS_ITER_RECORD)
			continue;
		if (it.mode == XLS_ITER_PHYSICAL &&
		    (rec.blk >= ht.head_blk || rec.wrapped))
			break;
		if (rec.hblks + rec.data_blks > MAX_SEED_BLKS - 64)
			continue;
		if (nrecs == caprecs) {
			caprecs = caprecs ? 2 * caprecs : 256;
			recs = realloc(recs, caprecs * sizeof(*recs));
			if (!recs)
				die("out of memory");
		}
		x = &recs[nrecs++];
		x->hblks = rec.hblks;
		x->data_blks = rec.data_blks;
		x->h_len = rec.h_len;
		x->hdr = xmalloc((size_t)rec.hblks * BB);
		x->data = xmalloc((size_t)rec.data_blks * BB);
		memcpy(x->data, rec.data, rec.h_len);
		for (uint32_t i = 0; i < rec.hblks; i++)
			if (xls_source_read(&src, (uint64_t)((rec.blk + i) % log.nblks) * BB,
					    x->hdr + (size_t)i * BB, BB))
				die("cannot read header block %u", rec.blk + i);
	}
	if (r < 0)
		die("%s", err.msg);
	xls_log_release(&log);
	xls_source_close(&src);
}

/* The word slot that saves payload block @i's first word. */
static uint8_t *cycle_slot(uint8_t *hdr, uint32_t i)
{
	uint32_t j = i / CYCLE_WORDS, k = i % CYCLE_WORDS;

	if (j == 0)
		return HDR(hdr, h_cycle_data) + 4 * k;
	return hdr + (size_t)j * BB + offsetof(xlog_rec_ext_header_t, xh_cycle_data) + 4 * k;
}

/*
 * Write record @r at block @blk of the new log @img (@nblks blocks), in
 * @cycle; blocks past the physical end get cycle + 1.
 */
static void place(uint8_t *img, uint32_t nblks, const struct rec *r,
		  uint32_t blk, uint32_t cycle, uint64_t tail_lsn,
		  uint32_t prev_blk, bool zero_crc)
{
	uint32_t total = r->hblks + r->data_blks;
	uint8_t *buf = xmalloc((size_t)total * BB);
	uint8_t *hdr = buf, *data = buf + (size_t)r->hblks * BB;
	uint32_t xheads, crc;

	memcpy(hdr, r->hdr, (size_t)r->hblks * BB);
	memcpy(data, r->data, (size_t)r->data_blks * BB);
	put_be32(HDR(hdr, h_cycle), cycle);
	put_be64(HDR(hdr, h_lsn), xls_lsn(cycle, blk));
	put_be64(HDR(hdr, h_tail_lsn), tail_lsn);
	put_be32(HDR(hdr, h_prev_block), prev_blk);
	for (uint32_t j = 1; j < r->hblks; j++)
		put_be32(hdr + (size_t)j * BB + offsetof(xlog_rec_ext_header_t, xh_cycle),
			 cycle);
	for (uint32_t i = 0; i < r->data_blks; i++) {
		uint32_t pos = blk + r->hblks + i;
		uint32_t c = pos >= nblks ? cycle + 1 : cycle;

		memcpy(cycle_slot(hdr, i), data + (size_t)i * BB, 4);
		put_be32(data + (size_t)i * BB, c);
	}
	put_le32(HDR(hdr, h_crc), 0);
	if (!zero_crc) {
		crc = xls_crc32c_update(~0u, hdr, sizeof(xlog_rec_header_t));
		xheads = (r->h_len + XLOG_HEADER_CYCLE_SIZE - 1) / XLOG_HEADER_CYCLE_SIZE;
		for (uint32_t j = 1; j < xheads && j < r->hblks; j++)
			crc = xls_crc32c_update(crc, hdr + (size_t)j * BB,
						sizeof(xlog_rec_ext_header_t));
		crc = ~xls_crc32c_update(crc, data, r->h_len);
		put_le32(HDR(hdr, h_crc), crc);
	}
	for (uint32_t i = 0; i < total; i++)
		memcpy(img + (size_t)((blk + i) % nblks) * BB, buf + (size_t)i * BB, BB);
	free(buf);
}

static void write_file(const char *path, const uint8_t *img, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(img, 1, len, f) != len || fclose(f))
		die("cannot write '%s': %s", path, strerror(errno));
	written++;
}

/*
 * Records [first, first + n) as one seed of @layout.  Returns false when the
 * window does not fit a seed.
 */
static bool seed(const char *dir, const char *name, size_t first, size_t n,
		 bool wrap, bool zero_crc)
{
	uint32_t used = 0, nblks, start, blk, prev;
	char path[4096];
	uint8_t *img;

	if (written >= max_seeds || n == 0 || first + n > nrecs)
		return false;
	for (size_t i = first; i < first + n; i++)
		used += recs[i].hblks + recs[i].data_blks;
	if (used + 64 > MAX_SEED_BLKS)
		return false;
	nblks = used + 64 < MIN_LOG_BLKS ? MIN_LOG_BLKS : used + 64;
	img = xmalloc((size_t)nblks * BB);
	start = 0;
	if (wrap) {
		/*
		 * Cross the physical end in the middle of the payload of the
		 * last-but-one record, so that the last record's header lies
		 * after the end; a single record is cut in the middle of its
		 * own payload, so that the head is found only by looking back
		 * past block 0 to its header (in logs shorter than one maximal
		 * record this needed the fix in a9de17a).
		 */
		size_t k = n >= 2 ? first + n - 2 : first;
		uint32_t off = 0;

		for (size_t i = first; i < k; i++)
			off += recs[i].hblks + recs[i].data_blks;
		off += recs[k].hblks + (recs[k].data_blks + 1) / 2;
		start = nblks - off;
		/* Older blocks between head and tail: cycle 1 filler. */
		for (uint32_t b = (start + used) % nblks; b != start; b = (b + 1) % nblks)
			put_be32(img + (size_t)b * BB, 1);
	}
	blk = start;
	prev = 0;
	for (size_t i = first; i < first + n; i++) {
		uint32_t pblk = blk % nblks;
		uint32_t cycle = wrap && blk >= nblks ? 2 : 1;

		place(img, nblks, &recs[i], pblk, cycle, xls_lsn(1, start), prev,
		      zero_crc);
		prev = pblk;
		blk += recs[i].hblks + recs[i].data_blks;
	}
	snprintf(path, sizeof(path), "%s/%s-r%zu+%zu-%s%s.log", dir, name, first, n,
		 wrap ? "wrap" : "plain", zero_crc ? "-crc0" : "");
	write_file(path, img, (size_t)nblks * BB);
	free(img);
	return true;
}

/* Windows worth fuzzing: the start, the end (at the head), the middle. */
static void seeds(const char *dir, const char *name)
{
	static const size_t head_n[] = { 1, 3, 8 };
	static const size_t start_n[] = { 1, 2, 4, 16 };
	size_t w = 0;

	for (size_t i = 0; i < sizeof(start_n) / sizeof(start_n[0]); i++, w++) {
		seed(dir, name, 0, start_n[i], false, w % 2);
		seed(dir, name, 0, start_n[i], true, !(w % 2));
	}
	for (size_t i = 0; i < sizeof(head_n) / sizeof(head_n[0]); i++, w++) {
		size_t n = head_n[i] < nrecs ? head_n[i] : nrecs;

		seed(dir, name, nrecs - n, n, false, w % 2);
		seed(dir, name, nrecs - n, n, true, !(w % 2));
	}
	for (size_t k = 1; k <= 3 && nrecs > 8; k++, w++) {
		size_t at = nrecs * k / 4;

		seed(dir, name, at, 4, false, w % 2);
		seed(dir, name, at, 4, true, !(w % 2));
	}
	/* Records with extended headers, on their own. */
	for (size_t i = 0, done = 0; i < nrecs && done < 2; i++) {
		if (recs[i].hblks > 1 && seed(dir, name, i, 1, false, false))
			done++;
	}
}


/* ------------------------------------------------------------------ */
/* synthetic records (-S) */

struct obuf {
	uint8_t	*p;
	size_t	len, cap;
	uint32_t nops;
};

static void ob_put(struct obuf *b, const void *p, size_t n)
{
	if (!n)
		return;		/* an op without payload passes NULL */
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			die("out of memory");
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* One op: header (big-endian) and @len bytes of payload. */
static void op(struct obuf *b, uint32_t tid, uint8_t flags, const void *p,
	       uint32_t len)
{
	uint8_t h[12] = { 0 };

	put_be32(h, tid);
	put_be32(h + 4, len);
	h[8] = XFS_TRANSACTION;
	h[9] = flags;
	ob_put(b, h, sizeof(h));
	ob_put(b, p, len);
	b->nops++;
}

/* Little- or big-endian stores for item payloads. */
static bool synth_be;

static void st16(uint8_t *p, uint16_t v)
{
	if (synth_be) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
	else { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
}

static void st32(uint8_t *p, uint32_t v)
{
	if (synth_be)
		put_be32(p, v);
	else
		put_le32(p, v);
}

static void st64(uint8_t *p, uint64_t v)
{
	if (synth_be) {
		put_be32(p, (uint32_t)(v >> 32));
		put_be32(p + 4, (uint32_t)v);
	} else {
		put_le32(p, (uint32_t)v);
		put_le32(p + 4, (uint32_t)(v >> 32));
	}
}

/* A format region of @len bytes starting with type and region count. */
static uint8_t *fmt(uint8_t *buf, size_t len, uint16_t type, uint16_t size)
{
	memset(buf, 0, len);
	st16(buf, type);
	st16(buf + 2, size);
	return buf;
}

/* The start op and transaction header of @tid, which holds @nitems items. */
static void trans_begin(struct obuf *b, uint32_t tid, uint32_t nitems)
{
	uint8_t th[16];

	op(b, tid, XLOG_START_TRANS, NULL, 0);
	st32(th, XFS_TRANS_HEADER_MAGIC);
	st32(th + 4, 42);
	st32(th + 8, tid);
	st32(th + 12, nitems);
	op(b, tid, 0, th, sizeof(th));
}

/* One transaction with an item of every type, as ops of @tid. */
static void synth_trans(struct obuf *b, uint32_t tid)
{
	static const uint16_t efi_types[] = { XFS_LI_EFI, XFS_LI_EFI_RT };
	static const uint16_t efd_types[] = { XFS_LI_EFD, XFS_LI_EFD_RT };
	static const uint16_t mapi_types[] = { XFS_LI_RUI, XFS_LI_BUI, XFS_LI_RUI_RT };
	static const uint16_t cui_types[] = { XFS_LI_CUI, XFS_LI_CUI_RT };
	static const uint16_t done_types[] = {
		XFS_LI_RUD, XFS_LI_CUD, XFS_LI_BUD, XFS_LI_ATTRD, XFS_LI_XMD,
		XFS_LI_RUD_RT, XFS_LI_CUD_RT,
	};
	uint8_t r[512];

	trans_begin(b, tid, 40);

	for (size_t i = 0; i < sizeof(efi_types) / sizeof(efi_types[0]); i++) {
		/* 64-bit extents: 16-byte header + 16 per extent */
		fmt(r, 48, efi_types[i], 1);
		st32(r + 4, 2);
		st64(r + 8, 0xffff888012345678ull + i);
		st64(r + 16, 1000); st32(r + 24, 8);
		st64(r + 32, 5000); st32(r + 40, 1);
		op(b, tid, 0, r, 48);
		fmt(r, 48, efd_types[i], 1);
		st32(r + 4, 2);
		st64(r + 8, 0xffff888012345678ull + i);
		st64(r + 16, 1000); st32(r + 24, 8);
		st64(r + 32, 5000); st32(r + 40, 1);
		op(b, tid, 0, r, 48);
	}
	/* 32-bit EFI extents: 12 per extent */
	fmt(r, 40, XFS_LI_EFI, 1);
	st32(r + 4, 2);
	st64(r + 16, 77); st32(r + 24, 3);
	st64(r + 28, 99); st32(r + 36, 4);
	op(b, tid, 0, r, 40);
	for (size_t i = 0; i < sizeof(mapi_types) / sizeof(mapi_types[0]); i++) {
		/* struct xfs_map_extent: owner, startoff, startblock, len, flags */
		fmt(r, 80, mapi_types[i], 1);
		st32(r + 4, 2);
		st64(r + 8, 0xffff888000001000ull + i);
		st64(r + 16, 131); st64(r + 24, 0); st64(r + 32, 2000);
		st32(r + 40, 16); st32(r + 44, 1);
		st64(r + 48, (uint64_t)-2); st64(r + 56, 8); st64(r + 64, 3000);
		st32(r + 72, 4); st32(r + 76, 0x80000002u);
		op(b, tid, 0, r, 80);
	}
	for (size_t i = 0; i < sizeof(cui_types) / sizeof(cui_types[0]); i++) {
		/* struct xfs_phys_extent: startblock, len, flags */
		fmt(r, 48, cui_types[i], 1);
		st32(r + 4, 2);
		st64(r + 8, 0xffff888000002000ull + i);
		st64(r + 16, 4000); st32(r + 24, 2); st32(r + 28, 1);
		st64(r + 32, 4100); st32(r + 40, 1); st32(r + 44, 4);
		op(b, tid, 0, r, 48);
	}
	for (size_t i = 0; i < sizeof(done_types) / sizeof(done_types[0]); i++) {
		fmt(r, 16, done_types[i], 1);
		st64(r + 8, 0xffff888000003000ull + i);
		op(b, tid, 0, r, 16);
	}
	/* ATTRI set: format, name, value */
	fmt(r, sizeof(struct xfs_attri_log_format), XFS_LI_ATTRI, 3);
	st64(r + 8, 0xffff888000004000ull);
	st64(r + 16, 131);
	st32(r + 24, 1);		/* XFS_ATTRI_OP_FLAGS_SET */
	st32(r + 28, 9);
	st32(r + 32, 5);
	st32(r + 36, 1u << 2);		/* secure */
	op(b, tid, 0, r, (uint32_t)sizeof(struct xfs_attri_log_format));
	op(b, tid, 0, "user.test\0\0\0", 12);	/* padded to 4 bytes */
	op(b, tid, 0, "value\0\0\0", 8);
	/* ATTRI remove: format, name */
	fmt(r, sizeof(struct xfs_attri_log_format), XFS_LI_ATTRI, 2);
	st64(r + 8, 0xffff888000004001ull);
	st32(r + 24, 2);		/* XFS_ATTRI_OP_FLAGS_REMOVE */
	st32(r + 28, 4);
	op(b, tid, 0, r, (uint32_t)sizeof(struct xfs_attri_log_format));
	op(b, tid, 0, "name", 4);
	/* XMI: 88 bytes */
	fmt(r, 88, XFS_LI_XMI, 1);
	st64(r + 8, 0xffff888000005000ull);
	st64(r + 16, 131); st64(r + 24, 132);
	st32(r + 32, 1); st32(r + 36, 2);
	st64(r + 56, 10); st64(r + 64, 3);
	op(b, tid, 0, r, 88);
	/* ICREATE (fields big-endian whatever the CPU) */
	fmt(r, sizeof(struct xfs_icreate_log), XFS_LI_ICREATE, 1);
	put_be32(r + 4, 1); put_be32(r + 8, 128); put_be32(r + 12, 64);
	put_be32(r + 16, 512); put_be32(r + 20, 8); put_be32(r + 24, 7);
	op(b, tid, 0, r, (uint32_t)sizeof(struct xfs_icreate_log));
	/* dquot: format and the on-disk dquot */
	fmt(r, sizeof(struct xfs_dq_logformat), XFS_LI_DQUOT, 2);
	st32(r + 4, 1000);
	st64(r + 8, 96);
	st32(r + 16, 8);
	st32(r + 20, 0);
	op(b, tid, 0, r, (uint32_t)sizeof(struct xfs_dq_logformat));
	memset(r, 0, sizeof(struct xfs_disk_dquot));
	put_be32(r, 0x44510101u);	/* "DQ", version 1, user */
	put_be32(r + 4, 1000);		/* d_id */
	op(b, tid, 0, r, (uint32_t)sizeof(struct xfs_disk_dquot));
	/* quotaoff */
	fmt(r, sizeof(struct xfs_qoff_logformat), XFS_LI_QUOTAOFF, 1);
	st32(r + 4, 0x0001 | 0x0040);
	op(b, tid, 0, r, (uint32_t)sizeof(struct xfs_qoff_logformat));
	/* iunlink, and a type nobody knows */
	fmt(r, 16, XFS_LI_IUNLINK, 1);
	op(b, tid, 0, r, 16);
	fmt(r, 24, 0x1300, 1);
	op(b, tid, 0, r, 24);
	/* a buffer: 4 KiB, chunks 0-1 and 8 dirty, two data regions */
	fmt(r, 32, XFS_LI_BUF, 3);
	st16(r + 4, (uint16_t)(XFS_BLFT_DIR_DATA_BUF << XFS_BLFT_SHIFT));
	st16(r + 6, 8);
	st64(r + 8, 4096);
	st32(r + 16, 3);
	st32(r + 20, 0x103);
	op(b, tid, 0, r, 32);
	memset(r, 0xab, 256);
	op(b, tid, 0, r, 256);
	op(b, tid, 0, r, 128);
	op(b, tid, XLOG_COMMIT_TRANS, NULL, 0);
}

/* A record header block for a synthetic payload @b. */
static void synth_rec(struct obuf *b)
{
	struct rec *x;

	if (nrecs == caprecs) {
		caprecs = caprecs ? 2 * caprecs : 16;
		recs = realloc(recs, caprecs * sizeof(*recs));
		if (!recs)
			die("out of memory");
	}
	x = &recs[nrecs++];
	x->hblks = 1;
	x->h_len = (uint32_t)b->len;
	x->data_blks = (x->h_len + BB - 1) / BB;
	x->hdr = xmalloc(BB);
	x->data = xmalloc((size_t)x->data_blks * BB);
	memcpy(x->data, b->p, b->len);
	put_be32(HDR(x->hdr, h_magicno), XLOG_HEADER_MAGIC_NUM);
	put_be32(HDR(x->hdr, h_version), XLOG_VERSION_2);
	put_be32(HDR(x->hdr, h_len), x->h_len);
	put_be32(HDR(x->hdr, h_num_logops), b->nops);
	put_be32(HDR(x->hdr, h_fmt), XLOG_FMT_LINUX_LE);
	memcpy(HDR(x->hdr, h_fs_uuid), "xls-seedgen-uuid", 16);
	put_be32(HDR(x->hdr, h_size), XLOG_HEADER_CYCLE_SIZE);
	b->len = 0;
	b->nops = 0;
}

/*
 * Hostile names (-S): shortform directories and attr forks, directory data
 * blocks and an attr leaf that files must read only up to their first
 * problem, and a loop in the parent chain.  The blocks are logged whole
 * first, then with the damage, since files checks a block only where an
 * item changes what the log's view already holds.  A bare log has no
 * superblock, so entries carry no file type byte.
 */
#define NAMES_DIR_DADDR		0x1000u	/* three 4 KiB directory blocks */
#define NAMES_ATTR_DADDR	0x1018u	/* one 4 KiB attr leaf */
#define NAMES_BLOCK		4096u
#define LDI(f)			offsetof(struct xfs_log_dinode, f)
#define ILF(f)			offsetof(struct xfs_inode_log_format, f)

struct names_inode {
	uint64_t	ino;
	uint16_t	mode;
	const uint8_t	*dfork;		/* shortform directory, or NULL */
	uint32_t	dlen;
	const uint8_t	*afork;		/* shortform attr fork, or NULL */
	uint32_t	alen;
};

/* An inode item: format, a v3 core, then the local forks it has. */
static void names_inode_item(struct obuf *b, uint32_t tid, const struct names_inode *in)
{
	uint8_t f[sizeof(struct xfs_inode_log_format)], d[sizeof(struct xfs_log_dinode)];
	uint32_t fields = XFS_ILOG_CORE | (in->dfork ? XFS_ILOG_DDATA : 0) |
			  (in->afork ? XFS_ILOG_ADATA : 0);

	fmt(f, sizeof(f), XFS_LI_INODE, (uint16_t)(2 + !!in->dfork + !!in->afork));
	st32(f + ILF(ilf_fields), fields);
	st16(f + ILF(ilf_asize), (uint16_t)((in->alen + 3) & ~3u));
	st16(f + ILF(ilf_dsize), (uint16_t)((in->dlen + 3) & ~3u));
	st64(f + ILF(ilf_ino), in->ino);
	st64(f + ILF(ilf_blkno), 0x40);
	st32(f + ILF(ilf_len), 32);
	st32(f + ILF(ilf_boffset), (uint32_t)(in->ino & 31) * 512);
	op(b, tid, 0, f, sizeof(f));
	memset(d, 0, sizeof(d));
	st16(d + LDI(di_magic), XFS_DINODE_MAGIC);
	st16(d + LDI(di_mode), in->mode);
	d[LDI(di_version)] = 3;
	d[LDI(di_format)] = in->dfork ? XFS_DINODE_FMT_LOCAL : XFS_DINODE_FMT_EXTENTS;
	st32(d + LDI(di_nlink), 2);
	st64(d + LDI(di_size), in->dlen);
	d[LDI(di_forkoff)] = in->afork ? 24 : 0;
	d[LDI(di_aformat)] = in->afork ? XFS_DINODE_FMT_LOCAL : XFS_DINODE_FMT_EXTENTS;
	st32(d + LDI(di_gen), 7);
	st32(d + LDI(di_next_unlinked), NULLAGINO);
	st64(d + LDI(di_ino), in->ino);
	op(b, tid, 0, d, sizeof(d));
	/* the kernel logs a local fork rounded up to 4 bytes */
	if (in->dfork)
		op(b, tid, 0, in->dfork, (in->dlen + 3) & ~3u);
	if (in->afork)
		op(b, tid, 0, in->afork, (in->alen + 3) & ~3u);
}

/* A shortform directory header: @count entries, 4-byte inode numbers. */
static uint32_t sf_dir_hdr(uint8_t *p, uint8_t count, uint32_t parent)
{
	p[0] = count;
	p[1] = 0;
	put_be32(p + 2, parent);
	return 6;
}

/* A shortform entry claiming @namelen bytes of name, holding @name's. */
static uint32_t sf_dir_entry(uint8_t *p, uint8_t namelen, const char *name, uint16_t offset,
			     uint32_t ino)
{
	uint32_t n = (uint32_t)strlen(name);

	p[0] = namelen;
	put_be16(p + 1, offset);
	memcpy(p + 3, name, n);
	put_be32(p + 3 + n, ino);
	return 3 + n + 4;
}

/* A shortform attr fork of @count entries whose header says @totsize. */
static uint32_t sf_attr(uint8_t *p, uint16_t totsize, uint8_t count, uint8_t namelen,
			uint8_t valuelen, const char *nameval)
{
	uint32_t n = (uint32_t)strlen(nameval);

	put_be16(p, totsize);
	p[2] = count;
	p[3] = 0;
	p[4] = namelen;
	p[5] = valuelen;
	p[6] = 0;
	memcpy(p + 7, nameval, n);
	return 7 + n;
}

/*
 * The inodes: 0x80 holds "a" (0x82) and "b" (0x81), then an entry with no
 * name; 0x81 holds "loop" (0x80), so 0x80 and 0x81 are each other's
 * parent, and claims four entries; 0x83's only name runs past its fork;
 * 0x82's attr fork claims more than it holds, 0x84's value runs past it.
 */
static void names_inodes(struct obuf *b, uint32_t tid)
{
	/* zeroed: a fork is logged rounded up to 4 bytes */
	uint8_t d80[64] = { 0 }, d81[64] = { 0 }, d83[64] = { 0 };
	uint8_t a82[32] = { 0 }, a84[32] = { 0 };
	uint32_t n80, n81, n83, l82, l84;

	n80 = sf_dir_hdr(d80, 3, 0x81);
	n80 += sf_dir_entry(d80 + n80, 1, "a", 0x60, 0x82);
	n80 += sf_dir_entry(d80 + n80, 1, "b", 0x70, 0x81);
	n80 += sf_dir_entry(d80 + n80, 0, "", 0x80, 0x85);
	n81 = sf_dir_hdr(d81, 4, 0x80);
	n81 += sf_dir_entry(d81 + n81, 4, "loop", 0x60, 0x80);
	n83 = sf_dir_hdr(d83, 1, 0x80);
	n83 += sf_dir_entry(d83 + n83, 200, "long", 0x60, 0x86);
	l82 = sf_attr(a82, 64, 1, 4, 1, "user1");
	l84 = sf_attr(a84, 14, 2, 4, 60, "userval");
	trans_begin(b, tid, 5);
	names_inode_item(b, tid, &(struct names_inode){ 0x80, S_IFDIR | 0755, d80, n80, NULL, 0 });
	names_inode_item(b, tid, &(struct names_inode){ 0x81, S_IFDIR | 0755, d81, n81, NULL, 0 });
	names_inode_item(b, tid, &(struct names_inode){ 0x83, S_IFDIR | 0755, d83, n83, NULL, 0 });
	names_inode_item(b, tid, &(struct names_inode){ 0x82, S_IFREG | 0644, NULL, 0, a82, l82 });
	names_inode_item(b, tid, &(struct names_inode){ 0x84, S_IFREG | 0644, NULL, 0, a84, l84 });
	op(b, tid, XLOG_COMMIT_TRANS, NULL, 0);
}

/*
 * 0x80 and 0x81 again, whole now, each with an entry added for the other
 * ("b2" and "loop2") and 0x81 with "new" (0x88): the path of 0x88 runs
 * into the loop.
 */
static void names_relog(struct obuf *b, uint32_t tid)
{
	uint8_t d80[64] = { 0 }, d81[64] = { 0 };
	uint32_t n80 = sf_dir_hdr(d80, 3, 0x81), n81 = sf_dir_hdr(d81, 3, 0x80);

	n80 += sf_dir_entry(d80 + n80, 1, "a", 0x60, 0x82);
	n80 += sf_dir_entry(d80 + n80, 1, "b", 0x70, 0x81);
	n80 += sf_dir_entry(d80 + n80, 2, "b2", 0x80, 0x81);
	n81 += sf_dir_entry(d81 + n81, 4, "loop", 0x60, 0x80);
	n81 += sf_dir_entry(d81 + n81, 5, "loop2", 0x70, 0x80);
	n81 += sf_dir_entry(d81 + n81, 3, "new", 0x80, 0x88);
	trans_begin(b, tid, 2);
	names_inode_item(b, tid, &(struct names_inode){ 0x80, S_IFDIR | 0755, d80, n80, NULL, 0 });
	names_inode_item(b, tid, &(struct names_inode){ 0x81, S_IFDIR | 0755, d81, n81, NULL, 0 });
	op(b, tid, XLOG_COMMIT_TRANS, NULL, 0);
}

/* A buffer item logging the 128-byte chunks of @blk that @map has set. */
static void names_buf_item(struct obuf *b, uint32_t tid, uint64_t daddr, unsigned int blft,
			   const uint8_t *blk, uint32_t map)
{
	uint8_t f[28];
	/* a region per run of set bits: the bits whose lower neighbour is clear */
	uint16_t nregs = (uint16_t)(1 + __builtin_popcount(map & ~(map << 1)));

	fmt(f, sizeof(f), XFS_LI_BUF, nregs);
	st16(f + 4, (uint16_t)(blft << XFS_BLFT_SHIFT));
	st16(f + 6, NAMES_BLOCK / BB);
	st64(f + 8, daddr);
	st32(f + 16, 1);
	st32(f + 20, map);
	op(b, tid, 0, f, sizeof(f));
	for (uint32_t i = 0; i < 32;) {
		uint32_t j = i;

		if (!(map & (1u << i))) {
			i++;
			continue;
		}
		while (j < 32 && (map & (1u << j)))
			j++;
		op(b, tid, 0, blk + i * XFS_BLF_CHUNK, (j - i) * XFS_BLF_CHUNK);
		i = j;
	}
}

/* A data entry at @off of @blk; its size. */
static uint32_t data_entry(uint8_t *blk, uint32_t off, uint64_t ino, const char *name)
{
	uint32_t n = (uint32_t)strlen(name), size = (8 + 1 + n + 2 + 7) & ~7u;

	put_be64(blk + off, ino);
	blk[off + 8] = (uint8_t)n;
	memcpy(blk + off + 9, name, n);
	put_be16(blk + off + size - 2, (uint16_t)off);
	return size;
}

/* A free entry of @size bytes at @off. */
static void data_free(uint8_t *blk, uint32_t off, uint32_t size)
{
	put_be16(blk + off, XFS_DIR2_DATA_FREE_TAG);
	put_be16(blk + off + 2, (uint16_t)size);
	put_be16(blk + off + size - 2, (uint16_t)off);
}

/*
 * A v5 directory data block of directory 0x80: ".", "..", "f1", then free
 * space; where the free space starts.
 */
static uint32_t dir_block(uint8_t *blk, uint64_t daddr)
{
	uint32_t off = sizeof(struct xfs_dir3_data_hdr);

	memset(blk, 0, NAMES_BLOCK);
	put_be32(blk, XFS_DIR3_DATA_MAGIC);
	put_be64(blk + offsetof(struct xfs_dir3_blk_hdr, blkno), daddr);
	put_be64(blk + offsetof(struct xfs_dir3_blk_hdr, owner), 0x80);
	off += data_entry(blk, off, 0x80, ".");
	off += data_entry(blk, off, 0x81, "..");
	off += data_entry(blk, off, 0x90 + daddr, "f1");
	data_free(blk, off, NAMES_BLOCK - off);
	return off;
}

/* A v5 attr leaf of inode 0x82 with one local value. */
static void attr_leaf(uint8_t *blk, uint16_t count)
{
	const uint32_t hdr = sizeof(struct xfs_attr3_leaf_hdr), name = NAMES_BLOCK - 16;

	memset(blk, 0, NAMES_BLOCK);
	put_be16(blk + offsetof(struct xfs_da_blkinfo, magic), XFS_ATTR3_LEAF_MAGIC);
	put_be64(blk + offsetof(struct xfs_da3_blkinfo, owner), 0x82);
	put_be16(blk + offsetof(struct xfs_attr3_leaf_hdr, count), count);
	put_be32(blk + hdr, 0x1234);			/* hashval */
	put_be16(blk + hdr + 4, (uint16_t)name);	/* nameidx */
	blk[hdr + 6] = XFS_ATTR_LOCAL;
	blk[name + 1] = 3;				/* valuelen */
	blk[name + 2] = 4;				/* namelen */
	memcpy(blk + name + 3, "leafval", 7);
}

/*
 * Directory blocks and the leaf, whole (@damaged false) or with a name
 * running past the block, a free entry of length 0, a tag that is not its
 * entry's offset, and a leaf claiming 65535 entries.
 */
static void names_blocks(struct obuf *b, uint32_t tid, bool damaged)
{
	uint8_t blk[NAMES_BLOCK];
	const uint32_t tail = NAMES_BLOCK - 24, dotdot = sizeof(struct xfs_dir3_data_hdr) + 16;

	trans_begin(b, tid, 4);
	for (uint32_t i = 0; i < 3; i++) {
		uint64_t daddr = NAMES_DIR_DADDR + i * (NAMES_BLOCK / BB);
		uint32_t map = 0xffffffffu, free_at = dir_block(blk, daddr);

		if (damaged && i == 0) {
			/* the free space ends before "tail", whose length says 40 */
			data_free(blk, free_at, tail - free_at);
			data_entry(blk, tail, 0x99, "tail");
			blk[tail + 8] = 40;
			map = 1u | 1u << 31;
		} else if (damaged && i == 1) {
			put_be16(blk + free_at + 2, 0);
			map = 1;
		} else if (damaged) {
			blk[dotdot + 16 - 1] ^= 0x08;	/* the tag of ".." */
			map = 1;
		}
		names_buf_item(b, tid, daddr, XFS_BLFT_DIR_DATA_BUF, blk, map);
	}
	attr_leaf(blk, damaged ? 0xffff : 1);
	names_buf_item(b, tid, NAMES_ATTR_DADDR, XFS_BLFT_ATTR_LEAF_BUF, blk,
		       damaged ? 1 : 0xffffffffu);
	op(b, tid, XLOG_COMMIT_TRANS, NULL, 0);
}

/* The hostile names seeds: inodes, the blocks whole, then damaged. */
static void names_seeds(const char *dir, const char *name)
{
	struct obuf b = { 0 };
	char nm[256];

	synth_be = false;
	names_inodes(&b, 0x5eed0010);
	synth_rec(&b);
	names_blocks(&b, 0x5eed0011, false);
	synth_rec(&b);
	names_blocks(&b, 0x5eed0012, true);
	names_relog(&b, 0x5eed0013);
	synth_rec(&b);
	free(b.p);
	snprintf(nm, sizeof(nm), "%s-names", name);
	seed(dir, nm, nrecs - 3, 3, false, true);
	seed(dir, nm, nrecs - 3, 3, true, true);
	seed(dir, nm, nrecs - 3, 1, false, true);
}

static void synth(const char *dir, const char *name)
{
	struct obuf b = { 0 };
	uint8_t big[600];
	char nm[256];

	/* record 1: everything little-endian */
	synth_be = false;
	synth_trans(&b, 0x5eed0001);
	synth_rec(&b);
	/* record 2: everything big-endian, then a region continued into 3 */
	synth_be = true;
	synth_trans(&b, 0x5eed0002);
	synth_be = false;
	op(&b, 0x5eed0003, XLOG_START_TRANS, NULL, 0);
	st32(big, XFS_TRANS_HEADER_MAGIC);
	st32(big + 4, 1); st32(big + 8, 0x5eed0003); st32(big + 12, 2);
	op(&b, 0x5eed0003, 0, big, 16);
	fmt(big, 28, XFS_LI_BUF, 2);
	st16(big + 6, 8);
	st64(big + 8, 8192);
	st32(big + 16, 1);
	st32(big + 20, 0xf);
	op(&b, 0x5eed0003, 0, big, 28);
	memset(big, 0xcd, sizeof(big));
	op(&b, 0x5eed0003, XLOG_CONTINUE_TRANS, big, 300);
	synth_rec(&b);
	/* record 3: the rest of the region, commit */
	op(&b, 0x5eed0003, XLOG_WAS_CONT_TRANS | XLOG_END_TRANS, big, 212);
	op(&b, 0x5eed0003, XLOG_COMMIT_TRANS, NULL, 0);
	synth_rec(&b);
	free(b.p);

	snprintf(nm, sizeof(nm), "%s-synth", name);
	seed(dir, nm, 0, 3, false, false);
	seed(dir, nm, 0, 3, false, true);
	seed(dir, nm, 0, 3, true, true);
	seed(dir, nm, 0, 1, false, true);
	seed(dir, nm, 1, 1, false, true);
	/* a small log whose only record crosses the physical end */
	seed(dir, nm, 0, 1, true, false);
	names_seeds(dir, name);
}

static void usage(void) __attribute__((noreturn));
static void usage(void)
{
	fprintf(stderr, "usage: xls-seedgen [-f] [-l LOGDEV] [-n MAX] INPUT OUTDIR NAME\n"
			"       xls-seedgen -S OUTDIR NAME\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct xls_source_opts o = { 0 };
	bool synthetic = false;
	int c;

	while ((c = getopt(argc, argv, "fl:n:S")) != -1) {
		switch (c) {
		case 'S': synthetic = true; break;
		case 'f': o.bare_log = true; break;
		case 'l': o.logdev = optarg; break;
		case 'n': max_seeds = (unsigned int)strtoul(optarg, NULL, 0); break;
		default: usage();
		}
	}
	if (synthetic) {
		if (argc - optind != 2)
			usage();
		synth(argv[optind], argv[optind + 1]);
		printf("synthetic: %u seeds\n", written);
		return 0;
	}
	if (argc - optind != 3)
		usage();
	o.path = argv[optind];
	o.force = false;
	load(&o);
	if (nrecs == 0) {
		fprintf(stderr, "xls-seedgen: %s: no records between tail and head\n", o.path);
		return 0;
	}
	seeds(argv[optind + 1], argv[optind + 2]);
	printf("%s: %zu records, %u seeds\n", o.path, nrecs, written);
	for (size_t i = 0; i < nrecs; i++) {
		free(recs[i].hdr);
		free(recs[i].data);
	}
	free(recs);
	return 0;
}
