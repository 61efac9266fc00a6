/*
 * xls-synth: write XFS logs with chosen content, record by record the way
 * the kernel writes them, for the xfs_logscope tests.
 *
 *   xls-synth [options] SCENARIO OUTPUT   write OUTPUT, print its manifest
 *   xls-synth -C MANIFEST JSON [KINDS]    check decoder JSON against a manifest
 *   xls-synth -l                          list the scenarios
 *
 * OUTPUT is a small sparse filesystem image (a superblock at byte 0 that
 * libblkid and xfs_logscope accept, and the internal log at sb_logstart),
 * or with -f the bare log.  Options:
 *
 *   -f          write a bare log, no superblock
 *   -4          v4 superblock (v2 log: LOGV2BIT set); default v5
 *   -1          v1 log: v4 superblock without LOGV2BIT, h_version 1
 *   -u BYTES    log stripe unit (v2); records are rounded up to it
 *   -b BYTES    log buffer size, h_size (default 32 KiB, or the stripe unit)
 *   -S BYTES    log sector size (512 or 4096; 4096 implies -u 4096 at least)
 *   -E          written by a big-endian machine: h_fmt XLOG_FMT_LINUX_BE,
 *               transaction headers and item formats big-endian
 *   -L BYTES    log size (default 2 MiB)
 *   -c CYCLE    first cycle (default 1); above 1 the log is first formatted
 *               as libxfs_log_clear() does: an unmount record in CYCLE at
 *               block 0, every other block in records of CYCLE - 1
 *   -U          end with a clean unmount record
 *
 * The writer mirrors fs/xfs/xfs_log.c and xfs_log_cil.c (Linux 6.x):
 *
 *  - a checkpoint is a START op (length 0) and the transaction header
 *    (xfs_trans_header, th_type XFS_TRANS_CHECKPOINT, th_num_items = the
 *    number of item regions) as the first log vector, one log vector per
 *    item with one op per region (lengths rounded up to 4 bytes), then a
 *    separate write of the COMMIT op (xlog_cil_build_trans_hdr,
 *    xlog_cil_write_commit_record);
 *  - each write first switches to a new iclog when less than two op headers
 *    fit (xlog_state_get_iclog_space); a log vector that does not fit is
 *    written region by region (xlog_write_partial): a new iclog when at most
 *    an op header fits, a region cut with XLOG_CONTINUE_TRANS, its rest in
 *    the next iclogs under XLOG_WAS_CONT_TRANS ops, the last one with
 *    XLOG_END_TRANS;
 *  - an iclog of h_size bytes has h_size - hblks * 512 bytes of payload;
 *    at sync (xlog_sync) the write is rounded up to the stripe unit (or to
 *    512 bytes), h_len is the payload plus that roundoff for a v2 log and
 *    the payload alone for v1, the first word of every 512-byte payload
 *    block is saved in h_cycle_data / the extended headers' xh_cycle_data
 *    and replaced by the cycle (xlog_pack_data), every extended header gets
 *    xh_cycle, blocks written past the physical end of the log get cycle+1
 *    (skipping XLOG_HEADER_MAGIC_NUM; xlog_split_iclog), and h_crc is the
 *    CRC32C of the 328-byte header with h_crc zero, the extended headers
 *    1 .. ceil(h_len / 32 KiB) - 1 (v2) and h_len bytes of payload, as
 *    written (xlog_cksum), stored little-endian;
 *  - the next record starts after this one, rounded up to the stripe unit,
 *    with cycle + 1 past the end of the log (xlog_state_switch_iclogs);
 *    h_prev_block is the previous record's block.
 *
 * Only CRC32C and the xfsprogs header constants and structure offsets are
 * shared with xfs_logscope: nothing here uses the decoder to make its input.
 *
 * The manifest printed on stdout says what the decoder must find, one line
 * per fact: "KIND FRAGMENT..." where every FRAGMENT is a "key":value pair
 * exactly as xfs_logscope --json prints it.  -C checks a JSON Lines file
 * against the manifest lines of the given kinds (comma-separated; all when
 * omitted; MANIFEST "-" is standard input, for expectations written in a
 * test): each line must match a JSON object of that kind holding all its
 * fragments, and "count KIND N" lines give the exact number of objects of
 * a kind.  Lines starting with '#' are not checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/ondisk.h"
#include "base/crc32c.h"

#define BB		512u
#define OPHDR		((uint32_t)sizeof(xlog_op_header_t))		/* 12 */
#define THDR		((uint32_t)sizeof(struct xfs_trans_header))	/* 16 */
#define CYCLE_WORDS	(XLOG_HEADER_CYCLE_SIZE / BB)			/* 64 */
#define BLF_FIXED	((uint32_t)offsetof(struct xfs_buf_log_format, blf_data_map))
#define MAP_WORDS	XFS_BLF_DATAMAP_SIZE				/* 17 */
#define MAX_IOV		320
#define MAX_ITEMS	64
#define MAX_TRANS	256
#define RH(f)		offsetof(xlog_rec_header_t, f)
#define XH(f)		offsetof(xlog_rec_ext_header_t, f)
#define OH(f)		offsetof(xlog_op_header_t, f)
#define BLF(f)		offsetof(struct xfs_buf_log_format, f)

/* Filesystem geometry of the image: 2 AGs of 16 MiB, 4 KiB blocks. */
#define FS_BLOCKSIZE	4096u
#define FS_BLOCKLOG	12u
#define FS_AGBLOCKS	4096u
#define FS_AGBLKLOG	12u
#define FS_AGCOUNT	2u
#define FS_LOGSTART	1024u		/* fsblock of the internal log (4 MiB) */

static const char *prog = "xls-synth";

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* ------------------------------------------------------------------ */
/* memory: everything lives until exit, then is freed (LeakSanitizer) */

static void **allocs;
static size_t nallocs, capallocs;

static void *zalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die("out of memory");
	if (nallocs == capallocs) {
		size_t cap = capallocs ? capallocs * 2 : 256;
		void **a = realloc(allocs, cap * sizeof(*a));

		if (!a)
			die("out of memory");
		allocs = a;
		capallocs = cap;
	}
	allocs[nallocs++] = p;
	return p;
}

static void free_all(void)
{
	for (size_t i = 0; i < nallocs; i++)
		free(allocs[i]);
	free(allocs);
	allocs = NULL;
	nallocs = capallocs = 0;
}

/* ------------------------------------------------------------------ */
/* byte order */

static void put_be16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, (uint16_t)(v >> 16));
	put_be16(p + 2, (uint16_t)v);
}
static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}
static void put_le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}
static void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}
static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t mklsn(uint32_t cycle, uint32_t blk)
{
	return (uint64_t)cycle << 32 | blk;
}

static uint32_t roundup32(uint32_t v, uint32_t to)
{
	return (v + to - 1) / to * to;
}

/* ------------------------------------------------------------------ */
/* state */

struct rec {
	uint32_t	blk, cycle;
	uint32_t	version, h_size, hblks;
	uint32_t	h_len;		/* as written */
	uint32_t	data_len;	/* payload bytes on disk: whole blocks */
	uint32_t	used;		/* bytes of ops (h_len - used is unused) */
	uint32_t	nops;
	uint32_t	fmt;
	uint32_t	prev_block;
	uint64_t	tail_lsn;
	uint8_t		*data;		/* data_len bytes, before cycle stamping */
	uint32_t	*stamp;		/* per-block cycle stamps, NULL: h_cycle */
	bool		crc_zero;	/* store 0 (mkfs) */
	uint32_t	crc_xor;	/* break the stored CRC */
	uint32_t	crc;		/* the CRC computed */
	bool		show;		/* the decoder walks it (tail .. head) */
	bool		wrapped;
	uint32_t	bad_stamps;	/* expected bad_cycle_blocks */
	bool		walk_set;	/* the op walk stops early: */
	uint32_t	walk_ops;	/*   ops walked */
	uint32_t	walk_used;	/*   bytes walked */
};

/* What one checkpoint wrote, for the manifest. */
struct tinfo {
	uint32_t	tid;
	uint64_t	lsn, commit_lsn;
	uint32_t	th_num_items, items, regions, records;
	uint64_t	last_rec_lsn;
	uint64_t	op_bytes;	/* every op header of the tid */
	uint64_t	region_bytes;
	const char	*state;		/* NULL: committed */
	bool		hide;		/* print nothing */
	bool		brief;		/* print tid, lsn and state only */
	bool		any_state;	/* print no state (the decoder may differ) */
};

/* What a buffer item is, for the manifest. */
struct binfo {
	uint32_t	tid, index;
	int64_t		blkno;
	uint32_t	len_bb, flags, map_size, blf_size;
	uint32_t	regions, runs, split_runs;
	uint64_t	dirty_bytes, data_bytes, log_cost;
	uint32_t	nreg;
	uint32_t	reg_off[MAX_IOV], reg_len[MAX_IOV];
	uint32_t	nsplit;
	uint32_t	split_chunk[MAX_IOV];
	bool		hide;
};

struct synth {
	/* options */
	bool		bare, be, unmount;
	int		sb_version, log_version;
	uint32_t	sunit, h_size, logsect, log_bytes, first_cycle;
	/* geometry */
	uint32_t	nblks, hblks, ic_size, roundoff;
	uint8_t		uuid[16];
	uint8_t		*log;
	/* the log head */
	uint32_t	cycle, blk, prev_blk;
	uint64_t	tail_lsn;
	/* the iclog being filled */
	bool		ic_open;
	uint8_t		*ic;
	uint32_t	off, nops, ic_blk, ic_cycle;
	/* what was written */
	struct rec	**recs;
	uint32_t	nrecs, caprecs;
	struct tinfo	trans[MAX_TRANS];
	uint32_t	ntrans;
	struct binfo	*bufs[MAX_TRANS * 4];
	uint32_t	nbufs;
	uint32_t	next_tid;
	uint32_t	nwritten;		/* records synced from iclogs */
	/* expectations the scenario adjusts */
	bool		torn_expected;
	uint32_t	head_override;		/* +1: head_blk expected */
	uint32_t	tail_moved;		/* +1: tail_blk expected */
	const char	*out;
};

/* ------------------------------------------------------------------ */
/* records: pack, stamp, split, checksum, write */

static struct rec *rec_new(struct synth *s)
{
	struct rec *r = zalloc(sizeof(*r));

	if (s->nrecs == s->caprecs) {
		uint32_t cap = s->caprecs ? s->caprecs * 2 : 64;
		struct rec **a = zalloc(cap * sizeof(*a));

		if (s->nrecs)
			memcpy(a, s->recs, s->nrecs * sizeof(*a));
		s->recs = a;
		s->caprecs = cap;
	}
	s->recs[s->nrecs++] = r;
	r->version = (uint32_t)s->log_version;
	r->h_size = s->h_size;
	r->hblks = s->hblks;
	r->fmt = s->be ? XLOG_FMT_LINUX_BE : XLOG_FMT_LINUX_LE;
	r->show = true;
	return r;
}

static uint32_t rec_total(const struct rec *r)
{
	return r->hblks + r->data_len / BB;
}

/* The saved-word slot of payload block @i in the header blocks @h. */
static uint8_t *cycle_slot(uint8_t *h, uint32_t i)
{
	if (i < CYCLE_WORDS)
		return h + RH(h_cycle_data) + 4 * i;
	return h + (size_t)(i / CYCLE_WORDS) * BB + XH(xh_cycle_data) + 4 * (i % CYCLE_WORDS);
}

/* CRC of a record laid out contiguously in @buf (header blocks, payload). */
static uint32_t rec_cksum(const struct synth *s, const uint8_t *buf, uint32_t hblks,
			  uint32_t h_len)
{
	static const uint8_t zero[4];
	const size_t coff = RH(h_crc);
	uint32_t crc = ~0u, xheads;

	crc = xls_crc32c_update(crc, buf, coff);
	crc = xls_crc32c_update(crc, zero, 4);
	crc = xls_crc32c_update(crc, buf + coff + 4, sizeof(xlog_rec_header_t) - coff - 4);
	if (s->log_version == 2) {
		xheads = (h_len + XLOG_HEADER_CYCLE_SIZE - 1) / XLOG_HEADER_CYCLE_SIZE;
		for (uint32_t i = 1; i < xheads && i < hblks; i++)
			crc = xls_crc32c_update(crc, buf + (size_t)i * BB,
						sizeof(xlog_rec_ext_header_t));
	}
	crc = xls_crc32c_update(crc, buf + (size_t)hblks * BB, h_len);
	return ~crc;
}

static void phys_write(struct synth *s, uint32_t blk, const uint8_t *buf, uint32_t n)
{
	for (uint32_t b = 0; b < n; b++)
		memcpy(s->log + (size_t)((blk + b) % s->nblks) * BB, buf + (size_t)b * BB, BB);
}

static void phys_read(const struct synth *s, uint32_t blk, uint8_t *buf, uint32_t n)
{
	for (uint32_t b = 0; b < n; b++)
		memcpy(buf + (size_t)b * BB, s->log + (size_t)((blk + b) % s->nblks) * BB, BB);
}

/* Lay the record out as xlog_sync() writes it and put it in the log. */
static void rec_emit(struct synth *s, struct rec *r)
{
	uint32_t dblks = r->data_len / BB, total = rec_total(r);
	uint8_t *buf = calloc(total, BB);
	uint8_t *h = buf, *d;

	if (!buf)
		die("out of memory");
	if (total > s->nblks)
		die("record of %u blocks in a log of %u", total, s->nblks);
	d = buf + (size_t)r->hblks * BB;
	put_be32(h + RH(h_magicno), XLOG_HEADER_MAGIC_NUM);
	put_be32(h + RH(h_cycle), r->cycle);
	put_be32(h + RH(h_version), r->version);
	put_be32(h + RH(h_len), r->h_len);
	put_be64(h + RH(h_lsn), mklsn(r->cycle, r->blk));
	put_be64(h + RH(h_tail_lsn), r->tail_lsn);
	put_be32(h + RH(h_prev_block), r->prev_block);
	put_be32(h + RH(h_num_logops), r->nops);
	put_be32(h + RH(h_fmt), r->fmt);
	memcpy(h + RH(h_fs_uuid), s->uuid, 16);
	put_be32(h + RH(h_size), r->h_size);
	memcpy(d, r->data, r->data_len);

	/* xlog_pack_data */
	for (uint32_t i = 0; i < dblks; i++) {
		uint8_t *w = d + (size_t)i * BB;

		if (i >= CYCLE_WORDS * r->hblks)
			die("%u payload blocks need more than %u header blocks", dblks, r->hblks);
		memcpy(cycle_slot(h, i), w, 4);
		put_be32(w, r->stamp ? r->stamp[i] : r->cycle);
	}
	for (uint32_t j = 1; j < r->hblks; j++)
		put_be32(h + (size_t)j * BB + XH(xh_cycle), r->cycle);

	/* xlog_split_iclog: the part past the end of the log is in cycle + 1 */
	r->wrapped = r->blk + total > s->nblks;
	if (r->wrapped) {
		for (uint32_t b = s->nblks - r->blk; b < total; b++) {
			uint32_t c = get_be32(buf + (size_t)b * BB) + 1;

			if (c == XLOG_HEADER_MAGIC_NUM)
				c++;
			put_be32(buf + (size_t)b * BB, c);
		}
	}

	/* xlog_cksum */
	r->crc = rec_cksum(s, buf, r->hblks, r->h_len);
	if (!r->crc_zero)
		put_le32(h + RH(h_crc), r->crc ^ r->crc_xor);
	phys_write(s, r->blk, buf, total);
	free(buf);
}

/*
 * Recompute the stored CRC of the record whose header is at @blk from the
 * bytes in the log, whatever its header says (for hostile records).
 */
static uint32_t rec_recrc_phys(struct synth *s, uint32_t blk)
{
	uint8_t hdr[BB], *buf;
	uint32_t h_len, h_size, hblks, total, crc;

	phys_read(s, blk, hdr, 1);
	h_len = get_be32(hdr + RH(h_len));
	h_size = get_be32(hdr + RH(h_size));
	hblks = s->log_version == 2 && h_size > XLOG_HEADER_CYCLE_SIZE ?
		(h_size + XLOG_HEADER_CYCLE_SIZE - 1) / XLOG_HEADER_CYCLE_SIZE : 1;
	total = hblks + (h_len + BB - 1) / BB;
	if (total > s->nblks)
		die("record at %u: %u blocks", blk, total);
	buf = calloc(total, BB);
	if (!buf)
		die("out of memory");
	phys_read(s, blk, buf, total);
	crc = rec_cksum(s, buf, hblks, h_len);
	put_le32(buf + RH(h_crc), crc);
	phys_write(s, blk, buf, 1);
	free(buf);
	return crc;
}

/* ------------------------------------------------------------------ */
/* the in-core log: xlog_write, xlog_sync, xlog_state_switch_iclogs */

static uint32_t ic_room(const struct synth *s)
{
	return s->ic_open ? s->ic_size - s->off : s->ic_size;
}

static void ic_open(struct synth *s)
{
	if (s->ic_open)
		return;
	s->ic_open = true;
	s->off = 0;
	s->nops = 0;
	s->ic_blk = s->blk;
	s->ic_cycle = s->cycle;
	memset(s->ic, 0, s->ic_size);
}

static uint64_t ic_lsn(const struct synth *s)
{
	return mklsn(s->ic_cycle, s->ic_blk);
}

/* Sync the current iclog to the log; returns its record, or NULL. */
static struct rec *ic_sync(struct synth *s)
{
	uint32_t count_init, count;
	struct rec *r;

	if (!s->ic_open || s->off == 0) {
		s->ic_open = false;
		return NULL;
	}
	count_init = s->hblks * BB + s->off;
	count = roundup32(count_init, s->roundoff);
	r = rec_new(s);
	r->blk = s->ic_blk;
	r->cycle = s->ic_cycle;
	r->h_len = s->log_version == 2 ? count - s->hblks * BB : s->off;
	r->data_len = count - s->hblks * BB;
	r->used = s->off;
	r->nops = s->nops;
	r->tail_lsn = s->tail_lsn;
	r->prev_block = s->prev_blk;
	r->data = zalloc(r->data_len);
	memcpy(r->data, s->ic, s->off);
	rec_emit(s, r);
	s->nwritten++;

	s->prev_blk = s->ic_blk;
	s->blk = s->ic_blk + count / BB;
	if (s->roundoff > BB)
		s->blk = roundup32(s->blk, s->roundoff / BB);
	if (s->blk >= s->nblks) {
		s->blk -= s->nblks;
		if (++s->cycle == XLOG_HEADER_MAGIC_NUM)
			s->cycle++;
	}
	s->ic_open = false;
	return r;
}

static struct tinfo *tinfo_get(struct synth *s, uint32_t tid)
{
	for (uint32_t i = 0; i < s->ntrans; i++)
		if (s->trans[i].tid == tid)
			return &s->trans[i];
	if (s->ntrans == MAX_TRANS)
		die("too many transactions");
	memset(&s->trans[s->ntrans], 0, sizeof(s->trans[0]));
	s->trans[s->ntrans].tid = tid;
	return &s->trans[s->ntrans++];
}

/* One op header and its payload into the open iclog. */
static void ic_op(struct synth *s, uint32_t tid, uint8_t clientid, uint8_t flags,
		  const uint8_t *p, uint32_t len)
{
	uint8_t *o = s->ic + s->off;
	struct tinfo *t = tinfo_get(s, tid);

	if (!s->ic_open || s->off + OPHDR + len > s->ic_size)
		die("internal: op of %u bytes does not fit", len);
	put_be32(o + OH(oh_tid), tid);
	put_be32(o + OH(oh_len), len);
	o[OH(oh_clientid)] = clientid;
	o[OH(oh_flags)] = flags;
	put_be16(o + OH(oh_res2), 0);
	if (len)
		memcpy(o + OPHDR, p, len);
	s->off += OPHDR + len;
	s->nops++;
	t->op_bytes += OPHDR;
	if (t->last_rec_lsn != ic_lsn(s)) {
		t->last_rec_lsn = ic_lsn(s);
		t->records++;
	}
}

/* xlog_state_get_iclog_space: less than two op headers left, next iclog. */
static void w_begin(struct synth *s)
{
	if (s->ic_open && ic_room(s) < 2 * OPHDR)
		ic_sync(s);
	ic_open(s);
}

static void w_more_space(struct synth *s)
{
	ic_sync(s);
	ic_open(s);
}

struct iov {
	const uint8_t	*p;
	uint32_t	len;		/* payload, a multiple of 4 */
	uint8_t		flags;		/* op flags (START, COMMIT, UNMOUNT) */
	uint8_t		clientid;
};

struct lv {
	uint32_t	n;
	struct iov	v[MAX_IOV];
	uint32_t	ops;		/* op headers written for it */
};

/* xlog_write for one log vector: whole, or region by region. */
static void w_lv(struct synth *s, uint32_t tid, struct lv *lv)
{
	uint32_t bytes = 0;

	for (uint32_t i = 0; i < lv->n; i++)
		bytes += OPHDR + lv->v[i].len;
	if (bytes <= ic_room(s)) {				/* xlog_write_full */
		for (uint32_t i = 0; i < lv->n; i++) {
			ic_op(s, tid, lv->v[i].clientid, lv->v[i].flags,
			      lv->v[i].p, lv->v[i].len);
			lv->ops++;
		}
		return;
	}
	for (uint32_t i = 0; i < lv->n; i++) {			/* xlog_write_partial */
		const struct iov *v = &lv->v[i];
		uint32_t ilen = OPHDR + v->len, rlen, done;
		uint8_t fl;

		if (ic_room(s) <= OPHDR)
			w_more_space(s);
		rlen = ilen < ic_room(s) ? ilen : ic_room(s);
		if (rlen == ilen) {
			ic_op(s, tid, v->clientid, v->flags, v->p, v->len);
			lv->ops++;
			continue;
		}
		ic_op(s, tid, v->clientid, v->flags | XLOG_CONTINUE_TRANS, v->p, rlen - OPHDR);
		lv->ops++;
		done = rlen - OPHDR;
		do {
			uint32_t left, room, n;

			w_more_space(s);
			left = v->len - done;
			room = ic_room(s) - OPHDR;
			fl = XLOG_WAS_CONT_TRANS | (left <= room ? XLOG_END_TRANS : XLOG_CONTINUE_TRANS);
			n = left < room ? left : room;
			ic_op(s, tid, XFS_TRANSACTION, fl, v->p + done, n);
			lv->ops++;
			done += n;
		} while (fl & XLOG_CONTINUE_TRANS);
	}
}

/* ------------------------------------------------------------------ */
/* items, in the byte order of the machine that wrote them */

static void put_i16(const struct synth *s, uint8_t *p, uint16_t v)
{
	if (s->be)
		put_be16(p, v);
	else
		put_le16(p, v);
}
static void put_i32(const struct synth *s, uint8_t *p, uint32_t v)
{
	if (s->be)
		put_be32(p, v);
	else
		put_le32(p, v);
}
static void put_i64(const struct synth *s, uint8_t *p, uint64_t v)
{
	if (s->be)
		put_be64(p, v);
	else
		put_le64(p, v);
}

struct item {
	struct lv	lv;
	struct binfo	*buf;		/* buffer items: what the manifest says */
};

/* A buffer log item: which chunks are dirty and how runs are cut. */
struct buf_spec {
	int64_t		blkno;
	uint16_t	len_bb;		/* blf_len */
	uint16_t	flags;		/* blf_flags, buffer type included */
	uint32_t	map[MAP_WORDS];
	uint32_t	cuts[32];	/* chunks where a run is cut (page ends) */
	uint32_t	ncuts;
	/* corruptions */
	bool		set_map_size;
	uint32_t	map_size;	/* blf_map_size as logged */
	bool		set_map_words;
	uint32_t	map_words;	/* words of bitmap in the format region */
	bool		set_blf_size;
	uint16_t	blf_size;
	uint32_t	extra_regions;	/* regions after the map's last */
	uint32_t	drop_regions;	/* regions of the map left out */
	uint16_t	type;		/* 0: XFS_LI_BUF */
};

static void set_bits(struct buf_spec *b, uint32_t first, uint32_t n)
{
	for (uint32_t c = first; c < first + n; c++)
		b->map[c / 32] |= 1u << (c % 32);
}

static bool map_bit(const uint32_t *map, uint32_t words, uint32_t c)
{
	return c / 32 < words && (map[c / 32] >> (c % 32)) & 1;
}

static uint16_t blft(uint16_t type)
{
	return (uint16_t)(type << XFS_BLFT_SHIFT);
}

static const char *const blft_names[] = {
	"unknown", "udquot", "pdquot", "gdquot", "btree", "agf", "agfl", "agi",
	"dino", "symlink", "dir_block", "dir_data", "dir_free", "dir_leaf1",
	"dir_leafn", "da_node", "attr_leaf", "attr_rmt", "sb", "rtbitmap",
	"rtsummary",
};

/* Chunk contents: recognisable, different for every chunk and buffer. */
static void fill_chunk(uint8_t *p, int64_t blkno, uint32_t chunk)
{
	for (uint32_t i = 0; i < XFS_BLF_CHUNK; i++)
		p[i] = (uint8_t)(blkno * 31 + chunk * 7 + i);
}

/*
 * xfs_buf_item_format_segment: the format (offsetof(blf_data_map) +
 * map_size words), then one region per run of set bits, cut where the spec
 * says (a run crossing a page of an unmapped buffer, before Linux 6.15).
 */
static struct item *buf_item(struct synth *s, const struct buf_spec *b)
{
	struct item *it = zalloc(sizeof(*it));
	struct binfo *bi = zalloc(sizeof(*bi));
	uint32_t chunks = (uint32_t)b->len_bb * BB / XFS_BLF_CHUNK;
	uint32_t need = (chunks + 31) / 32, map_size, words, flen, nreg = 0;
	uint32_t start[MAX_IOV], len[MAX_IOV];
	uint32_t reg_run[MAX_IOV], run = 0;
	uint8_t *f;

	map_size = b->set_map_size ? b->map_size : need;
	words = b->set_map_words ? b->map_words : map_size;
	if (words > MAP_WORDS)
		die("buffer spec: %u map words", words);

	/* regions: runs of the map, cut at the spec's cuts */
	for (uint32_t c = 0; c < need * 32; c++) {
		bool set = map_bit(b->map, need, c);
		bool prev = c > 0 && map_bit(b->map, need, c - 1);
		bool cut = false;

		for (uint32_t k = 0; k < b->ncuts; k++)
			cut |= b->cuts[k] == c;
		if (!set)
			continue;
		if (!prev)
			run++;
		if (!prev || cut) {
			if (nreg == MAX_IOV - 1)
				die("buffer spec: too many regions");
			start[nreg] = c;
			len[nreg] = 0;
			reg_run[nreg] = run;
			nreg++;
		}
		len[nreg - 1]++;
	}
	bi->runs = run;
	for (uint32_t r = 1, n = 1; r <= nreg; r++) {
		/* a run covered by more than one region is a split run */
		if (r < nreg && reg_run[r] == reg_run[r - 1]) {
			if (++n == 2)
				bi->split_runs++;
			bi->split_chunk[bi->nsplit++] = start[r];
		} else {
			n = 1;
		}
	}
	for (uint32_t c = 0; c < need * 32 && c < chunks; c++)
		bi->dirty_bytes += map_bit(b->map, need, c) ? XFS_BLF_CHUNK : 0;
	if (nreg < b->drop_regions)
		die("buffer spec: cannot drop %u of %u regions", b->drop_regions, nreg);
	nreg -= b->drop_regions;

	/* the format region */
	flen = BLF_FIXED + 4 * words;
	f = zalloc(flen);
	put_i16(s, f + BLF(blf_type), b->type ? b->type : XFS_LI_BUF);
	put_i16(s, f + BLF(blf_size), b->set_blf_size ? b->blf_size :
		(uint16_t)(1 + nreg + b->extra_regions));
	put_i16(s, f + BLF(blf_flags), b->flags);
	put_i16(s, f + BLF(blf_len), b->len_bb);
	put_i64(s, f + BLF(blf_blkno), (uint64_t)b->blkno);
	put_i32(s, f + BLF(blf_map_size), map_size);
	for (uint32_t w = 0; w < words; w++)
		put_i32(s, f + BLF_FIXED + 4 * w, w < MAP_WORDS ? b->map[w] : 0);
	it->lv.v[it->lv.n++] = (struct iov){ .p = f, .len = flen, .clientid = XFS_TRANSACTION };

	bi->blkno = b->blkno;
	bi->len_bb = b->len_bb;
	bi->flags = b->flags;
	bi->map_size = map_size;
	bi->log_cost = flen;
	for (uint32_t r = 0; r < nreg + b->extra_regions; r++) {
		uint32_t first = r < nreg ? start[r] : chunks + r;	/* extras: anything */
		uint32_t n = r < nreg ? len[r] : 1;
		uint8_t *d = zalloc((size_t)n * XFS_BLF_CHUNK);

		for (uint32_t c = 0; c < n; c++)
			fill_chunk(d + (size_t)c * XFS_BLF_CHUNK, b->blkno, first + c);
		it->lv.v[it->lv.n++] = (struct iov){
			.p = d, .len = n * XFS_BLF_CHUNK, .clientid = XFS_TRANSACTION };
		if (r < nreg && bi->nreg < MAX_IOV) {
			bi->reg_off[bi->nreg] = first * XFS_BLF_CHUNK;
			bi->reg_len[bi->nreg++] = n * XFS_BLF_CHUNK;
		}
		bi->data_bytes += (uint64_t)n * XFS_BLF_CHUNK;
		bi->log_cost += (uint64_t)n * XFS_BLF_CHUNK;
	}
	bi->regions = nreg + b->extra_regions;
	bi->blf_size = 1 + bi->regions;
	it->buf = bi;
	return it;
}

/* An item of a type no kernel knows: a 16-byte format and one data region. */
static struct item *odd_item(struct synth *s, uint16_t type)
{
	struct item *it = zalloc(sizeof(*it));
	uint8_t *f = zalloc(16), *d = zalloc(64);

	put_i16(s, f, type);
	put_i16(s, f + 2, 2);
	put_i32(s, f + 4, 0x5a5a5a5a);
	for (int i = 0; i < 64; i++)
		d[i] = (uint8_t)i;
	it->lv.v[it->lv.n++] = (struct iov){ .p = f, .len = 16, .clientid = XFS_TRANSACTION };
	it->lv.v[it->lv.n++] = (struct iov){ .p = d, .len = 64, .clientid = XFS_TRANSACTION };
	return it;
}

/* ------------------------------------------------------------------ */
/* checkpoints */

struct ckpt {
	uint32_t	nitems;
	struct item	*items[MAX_ITEMS];
	bool		no_commit;	/* leave it open */
};

static void ck_add(struct ckpt *c, struct item *it)
{
	if (c->nitems == MAX_ITEMS)
		die("too many items");
	c->items[c->nitems++] = it;
}

/* The commit record of an open checkpoint (xlog_cil_write_commit_record). */
static void w_commit(struct synth *s, uint32_t tid)
{
	struct lv lv = { .n = 1 };
	struct tinfo *t = tinfo_get(s, tid);

	lv.v[0] = (struct iov){ .flags = XLOG_COMMIT_TRANS, .clientid = XFS_TRANSACTION };
	w_begin(s);
	t->commit_lsn = ic_lsn(s);
	w_lv(s, tid, &lv);
}

/* Write checkpoint @c under a new tid; returns the tid. */
static uint32_t w_ckpt(struct synth *s, struct ckpt *c)
{
	uint32_t tid = s->next_tid++, niov = 0;
	struct lv *hdr = zalloc(sizeof(*hdr));
	uint8_t *th = zalloc(THDR);
	struct tinfo *t;

	for (uint32_t i = 0; i < c->nitems; i++)
		niov += c->items[i]->lv.n;
	put_i32(s, th + offsetof(struct xfs_trans_header, th_magic), XFS_TRANS_HEADER_MAGIC);
	put_i32(s, th + offsetof(struct xfs_trans_header, th_type), XFS_TRANS_CHECKPOINT);
	/* th_tid holds the big-endian tid in a host-order field */
	put_be32(th + offsetof(struct xfs_trans_header, th_tid), tid);
	put_i32(s, th + offsetof(struct xfs_trans_header, th_num_items), niov);
	hdr->n = 2;
	hdr->v[0] = (struct iov){ .flags = XLOG_START_TRANS, .clientid = XFS_TRANSACTION };
	hdr->v[1] = (struct iov){ .p = th, .len = THDR, .clientid = XFS_TRANSACTION };

	w_begin(s);
	t = tinfo_get(s, tid);
	t->lsn = ic_lsn(s);
	t->th_num_items = niov;
	w_lv(s, tid, hdr);
	for (uint32_t i = 0; i < c->nitems; i++) {
		struct item *it = c->items[i];

		w_lv(s, tid, &it->lv);
		for (uint32_t r = 0; r < it->lv.n; r++)
			t->region_bytes += it->lv.v[r].len;
		t->regions += it->lv.n;
		if (it->buf) {
			it->buf->tid = tid;
			it->buf->index = t->items;
			it->buf->log_cost += (uint64_t)it->lv.ops * OPHDR;
			if (s->nbufs < sizeof(s->bufs) / sizeof(s->bufs[0]))
				s->bufs[s->nbufs++] = it->buf;
		}
		t->items++;
	}
	if (!c->no_commit)
		w_commit(s, tid);
	else
		t->state = "incomplete";
	return tid;
}

/* The unmount record (xlog_unmount_write), in an iclog of its own. */
static struct rec *w_unmount(struct synth *s)
{
	uint8_t *u = zalloc(8);
	struct lv lv = { .n = 1 };
	uint32_t tid = s->next_tid++;
	struct rec *last = s->nrecs ? s->recs[s->nrecs - 1] : NULL;

	ic_sync(s);
	if (last)
		s->tail_lsn = mklsn(last->cycle, last->blk);
	put_i16(s, u, XLOG_UNMOUNT_TYPE);
	lv.v[0] = (struct iov){ .p = u, .len = 8, .flags = XLOG_UNMOUNT_TRANS,
				.clientid = XFS_LOG };
	w_begin(s);
	w_lv(s, tid, &lv);
	tinfo_get(s, tid)->hide = true;
	return ic_sync(s);
}

/*
 * A filler checkpoint that leaves exactly @room bytes in the current iclog
 * (so that the next write splits where a test wants it): buffer items whose
 * sizes add up.  Starts a fresh iclog first when the current one is short.
 */
static uint32_t w_fill_to(struct synth *s, uint32_t room, int64_t blkno)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		struct ckpt c = { 0 };
		uint32_t avail, x;

		w_begin(s);
		avail = ic_room(s);
		if (avail < room + 52 + 180 || room < 12 || room % 4) {
			w_more_space(s);
			continue;
		}
		x = avail - room - 52;		/* bytes for the items' ops */
		while (x > 40000) {		/* whole 16 KiB buffers */
			struct buf_spec b = { .blkno = blkno, .len_bb = 32,
					      .flags = blft(XFS_BLFT_DINO_BUF) };

			set_bits(&b, 0, 128);
			ck_add(&c, buf_item(s, &b));
			blkno += 32;
			x -= 12 + BLF_FIXED + 16 + 12 + 16384;
		}
		for (uint32_t ms = 1; ms <= 16; ms++) {
			for (uint32_t n = 1; n <= 16 * ms && n < 64; n++) {
				int64_t rem = (int64_t)x - 12 - BLF_FIXED - 4 * ms - 12 * (int64_t)n;
				uint32_t k;

				if (rem < 128 * (int64_t)n || rem % 128)
					continue;
				k = (uint32_t)(rem / 128);
				if (k + n - 1 > 32 * ms)
					continue;
				{
					struct buf_spec b = { .blkno = blkno,
						.len_bb = (uint16_t)(ms * 8),
						.flags = blft(XFS_BLFT_BTREE_BUF) };

					for (uint32_t r = 0; r + 1 < n; r++)
						set_bits(&b, 2 * r, 1);
					set_bits(&b, 2 * (n - 1), k - (n - 1));
					ck_add(&c, buf_item(s, &b));
				}
				w_ckpt(s, &c);
				if (ic_room(s) != room)
					die("internal: filler left %u bytes, not %u", ic_room(s), room);
				return s->next_tid - 1;
			}
		}
		w_more_space(s);
	}
	die("cannot fill an iclog to leave %u bytes", room);
}

/* ------------------------------------------------------------------ */
/* formatting: what mkfs / xfs_repair write (libxfs_log_clear) */

/* One record as libxfs_log_header() writes it: an unmount record, CRC 0. */
static struct rec *mkfs_record(struct synth *s, uint32_t cycle, uint32_t blk,
			       uint32_t len_bytes, uint64_t tail)
{
	struct rec *r = rec_new(s);
	uint32_t hdrs = 1, total;
	uint8_t *o;

	if (s->log_version == 2 && len_bytes > XLOG_HEADER_CYCLE_SIZE)
		hdrs = (len_bytes + XLOG_HEADER_CYCLE_SIZE - 1) / XLOG_HEADER_CYCLE_SIZE;
	total = len_bytes > 2 * BB ? len_bytes : 2 * BB;
	r->blk = blk;
	r->cycle = cycle;
	r->hblks = hdrs;
	r->h_size = len_bytes > XLOG_BIG_RECORD_BSIZE ? len_bytes : XLOG_BIG_RECORD_BSIZE;
	r->h_len = total - hdrs * BB;
	r->data_len = r->h_len;
	r->used = OPHDR + 8;
	r->nops = 1;
	r->prev_block = 0xffffffffu;
	r->tail_lsn = tail;
	r->crc_zero = true;
	r->show = false;
	r->data = zalloc(r->data_len);
	o = r->data;
	put_be32(o + OH(oh_tid), 0xb0c0d0d0u);
	put_be32(o + OH(oh_len), 8);
	o[OH(oh_clientid)] = XFS_LOG;
	o[OH(oh_flags)] = XLOG_UNMOUNT_TRANS;
	put_i16(s, o + OPHDR, XLOG_UNMOUNT_TYPE);
	rec_emit(s, r);
	return r;
}

/* Fill [from, to) with libxfs_log_clear's records of @cycle. */
static void fill_cycle(struct synth *s, uint32_t cycle, uint32_t from, uint32_t to)
{
	uint32_t len = 2;

	for (uint32_t blk = from; blk + len <= to; blk += len)
		mkfs_record(s, cycle, blk, len * BB, mklsn(cycle, blk >= len ? blk - len : 0));
}

/* A freshly made (or repaired) filesystem's log, head after the record. */
static void format_log(struct synth *s, uint32_t cycle)
{
	uint32_t len = s->log_version == 2 && s->sunit ? s->sunit / BB : 2;

	if (len < 2)
		len = 2;
	if (cycle > 1) {
		fill_cycle(s, cycle - 1, len, s->nblks);
		mkfs_record(s, cycle, 0, len * BB, mklsn(cycle - 1, s->nblks - len));
	} else {
		mkfs_record(s, cycle, 0, len * BB, mklsn(cycle, 0));
	}
	s->cycle = cycle;
	s->blk = len;
	s->prev_blk = 0;
	s->tail_lsn = mklsn(cycle, len);
}

/* ------------------------------------------------------------------ */
/* buffers the scenarios log */

/* A 16 KiB inode cluster buffer (512-byte inodes), unmapped: chunks 30..33
 * dirty, cut at the 4 KiB page boundary (chunk 32) as kernels before 6.15
 * logged it. */
static struct item *b_icluster16(struct synth *s, int64_t blkno)
{
	struct buf_spec b = { .blkno = blkno, .len_bb = 32,
			      .flags = XFS_BLF_INODE_BUF | blft(XFS_BLFT_DINO_BUF),
			      .cuts = { 32 }, .ncuts = 1 };

	set_bits(&b, 30, 4);
	return buf_item(s, &b);
}

/* A 32 KiB inode cluster: a lone chunk, a run 62..66 cut at 64 (8 KiB) and
 * a run 95..97 cut at 96 (12 KiB). */
static struct item *b_icluster32(struct synth *s, int64_t blkno)
{
	struct buf_spec b = { .blkno = blkno, .len_bb = 64,
			      .flags = XFS_BLF_INODE_BUF | blft(XFS_BLFT_DINO_BUF),
			      .cuts = { 64, 96 }, .ncuts = 2 };

	set_bits(&b, 0, 1);
	set_bits(&b, 62, 5);
	set_bits(&b, 95, 3);
	return buf_item(s, &b);
}

/* A 4 KiB directory data block: runs {0}, {5..7}, {31}. */
static struct item *b_dir4k(struct synth *s, int64_t blkno)
{
	struct buf_spec b = { .blkno = blkno, .len_bb = 8,
			      .flags = blft(XFS_BLFT_DIR_DATA_BUF) };

	set_bits(&b, 0, 1);
	set_bits(&b, 5, 3);
	set_bits(&b, 31, 1);
	return buf_item(s, &b);
}

/* A 64 KiB directory block: word 0 = 0xf0f0f0f0, word 15 = 0x80000001. */
static struct item *b_dir64k(struct synth *s, int64_t blkno)
{
	struct buf_spec b = { .blkno = blkno, .len_bb = 128,
			      .flags = blft(XFS_BLFT_DIR_BLOCK_BUF) };

	b.map[0] = 0xf0f0f0f0u;
	b.map[15] = 0x80000001u;
	return buf_item(s, &b);
}

/* An 8 KiB buffer with a run cut off a page boundary (chunk 12, 1536). */
static struct item *b_oddcut(struct synth *s, int64_t blkno)
{
	struct buf_spec b = { .blkno = blkno, .len_bb = 16,
			      .flags = blft(XFS_BLFT_ATTR_LEAF_BUF),
			      .cuts = { 12 }, .ncuts = 1 };

	set_bits(&b, 10, 4);
	return buf_item(s, &b);
}

/* An 8 KiB mapped buffer: run 30..33 across 4 KiB, one region (6.15+). */
static struct item *b_nocut(struct synth *s, int64_t blkno)
{
	struct buf_spec b = { .blkno = blkno, .len_bb = 16,
			      .flags = blft(XFS_BLFT_DA_NODE_BUF) };

	set_bits(&b, 30, 4);
	return buf_item(s, &b);
}

/* A whole buffer of @bb basic blocks, all dirty: one region. */
static struct item *b_full(struct synth *s, int64_t blkno, uint16_t bb, uint16_t type)
{
	struct buf_spec b = { .blkno = blkno, .len_bb = bb, .flags = blft(type) };

	set_bits(&b, 0, (uint32_t)bb * BB / XFS_BLF_CHUNK);
	return buf_item(s, &b);
}

/* One small checkpoint: an AGI-like sector and a btree block. */
static uint32_t small_ckpt(struct synth *s, int64_t blkno)
{
	struct ckpt c = { 0 };
	struct buf_spec agi = { .blkno = 2, .len_bb = 1, .flags = blft(XFS_BLFT_AGI_BUF) };
	struct buf_spec bt = { .blkno = blkno, .len_bb = 8, .flags = blft(XFS_BLFT_BTREE_BUF) };

	set_bits(&agi, 0, 1);
	set_bits(&bt, 0, 1);
	set_bits(&bt, 3, 2);
	ck_add(&c, buf_item(s, &agi));
	ck_add(&c, buf_item(s, &bt));
	return w_ckpt(s, &c);
}

/* Twelve small checkpoints, one record each: the base of the corruptions. */
static void twelve(struct synth *s)
{
	for (int i = 0; i < 12; i++) {
		small_ckpt(s, 0x1000 + 8 * i);
		ic_sync(s);
	}
}

/* The shown record number @n (0-based) in write order. */
static struct rec *shown_rec(struct synth *s, uint32_t n)
{
	for (uint32_t i = 0; i < s->nrecs; i++)
		if (s->recs[i]->show && n-- == 0)
			return s->recs[i];
	die("no record %u", n);
}

/* Payload offset of op @k of record @r (walking the ops as written). */
static uint32_t op_offset(const struct rec *r, uint32_t k)
{
	uint32_t off = 0;

	for (uint32_t i = 0; i < k; i++)
		off += OPHDR + get_be32(r->data + off + OH(oh_len));
	return off;
}

/* ------------------------------------------------------------------ */
/* scenarios */

struct scenario {
	const char	*name;
	void		(*run)(struct synth *s);
	const char	*help;
};

/* No manifest: xfs_logscope refuses a log without a record (exit 3). */
static void sc_zeroed(struct synth *s)
{
	(void)s;
}

static void sc_clean(struct synth *s)
{
	(void)s;
}

static void sc_bufs(struct synth *s)
{
	struct ckpt c1 = { 0 }, c2 = { 0 };

	ck_add(&c1, b_icluster16(s, 0x100));
	ck_add(&c1, b_icluster32(s, 0x140));
	ck_add(&c1, b_dir4k(s, 0x200));
	ck_add(&c1, b_oddcut(s, 0x300));
	ck_add(&c1, b_nocut(s, 0x320));
	w_ckpt(s, &c1);
	ic_sync(s);
	ck_add(&c2, b_dir64k(s, 0x400));
	ck_add(&c2, b_icluster16(s, 0x100));
	w_ckpt(s, &c2);
	ic_sync(s);
}

static void sc_cont(struct synth *s)
{
	struct ckpt c1 = { 0 }, c2 = { 0 }, c3 = { 0 }, c4 = { 0 };

	/* a 64 KiB region: CONTINUE, WAS_CONT|CONTINUE..., WAS_CONT|END */
	ck_add(&c1, b_full(s, 0x800, 128, XFS_BLFT_DIR_DATA_BUF));
	w_ckpt(s, &c1);
	/* leave 32 bytes: the start op fits, the header is cut 8 + 8 */
	w_fill_to(s, 32, 0x4000);
	ck_add(&c2, b_dir4k(s, 0x900));
	w_ckpt(s, &c2);
	/* leave 100 bytes: start, header and format fit, leaving exactly an
	 * op header's worth, so the data region goes whole to the next iclog */
	w_fill_to(s, 100, 0x6000);
	ck_add(&c3, b_full(s, 0xa00, 32, XFS_BLFT_DINO_BUF));
	w_ckpt(s, &c3);
	/* leave 60 bytes: start and header fit, the buffer format region is
	 * cut after 8 bytes (type, size, flags, len) */
	w_fill_to(s, 60, 0x8000);
	ck_add(&c4, b_icluster32(s, 0x140));
	w_ckpt(s, &c4);
	ic_sync(s);
}

/* Cycle N written all round, then a checkpoint across the end into N+1. */
static void wrap_common(struct synth *s, uint32_t start_back)
{
	uint32_t n = s->first_cycle > 1 ? s->first_cycle : 7;

	fill_cycle(s, n, 0, s->nblks);
	s->cycle = n;
	s->blk = s->nblks - start_back;
	if (s->roundoff > BB)
		s->blk = s->blk / (s->roundoff / BB) * (s->roundoff / BB);
	s->prev_blk = s->blk - 2;
	s->tail_lsn = mklsn(n, s->blk);
}

static void sc_wrap(struct synth *s)
{
	struct ckpt c = { 0 }, c3 = { 0 };
	uint32_t back = 60;

	if (s->roundoff > BB)
		back = 2 * s->roundoff / BB + s->roundoff / BB / 2;
	wrap_common(s, back);
	small_ckpt(s, 0x2000);
	ic_sync(s);
	ck_add(&c, b_full(s, 0xc00, 128, XFS_BLFT_DIR_DATA_BUF));
	ck_add(&c, b_icluster16(s, 0x100));
	w_ckpt(s, &c);
	ic_sync(s);
	ck_add(&c3, b_dir4k(s, 0x200));
	w_ckpt(s, &c3);
	ic_sync(s);
}

/*
 * Records that end exactly at the end of the log: every block is in one
 * cycle, and the head is block 0 of the next (xlog_find_head, "the entire
 * log should have cycle number last_half_cycle").
 */
static void sc_wrap_exact(struct synth *s)
{
	uint32_t per = 0, n = 5;

	/* the size of one small checkpoint's record */
	wrap_common(s, s->nblks / 2);
	small_ckpt(s, 0x2000);
	per = rec_total(ic_sync(s));
	shown_rec(s, 0)->show = false;
	s->trans[0].hide = true;
	for (uint32_t i = 0; i < s->nbufs; i++)
		s->bufs[i]->hide = true;
	s->blk = s->nblks - n * per;
	s->prev_blk = s->blk - 2;
	s->tail_lsn = mklsn(s->cycle, s->blk);
	for (uint32_t i = 0; i < n; i++) {
		small_ckpt(s, 0x2000 + 8 * i);
		ic_sync(s);
	}
	if (s->blk != 0)
		die("wrap-exact: the records end at %u", s->blk);
}

/* The header of a record in the last block, its extended header at 0. */
static void wrap_hdr(struct synth *s, bool last)
{
	struct ckpt c = { 0 }, c2 = { 0 };

	if (s->hblks < 2)
		die("wrap-hdr needs extended headers: use -b 65536 or more");
	wrap_common(s, 1);
	ck_add(&c, b_full(s, 0xc00, 64, XFS_BLFT_DIR_DATA_BUF));
	w_ckpt(s, &c);
	ic_sync(s);
	if (last)
		return;
	ck_add(&c2, b_dir4k(s, 0x200));
	w_ckpt(s, &c2);
	ic_sync(s);
}

static void sc_wrap_hdr(struct synth *s)
{
	wrap_hdr(s, false);
}

/* The same record, and the last before the head. */
static void sc_wrap_hdr_last(struct synth *s)
{
	wrap_hdr(s, true);
}

/* The wrap scenario with the CRC of the record across the end broken: the
 * head goes back before the end of the log, into the previous cycle. */
static void sc_wrap_torn(struct synth *s)
{
	struct rec *bad = NULL;

	sc_wrap(s);
	for (uint32_t i = 0; i < s->nrecs && !bad; i++)
		if (s->recs[i]->show && s->recs[i]->wrapped)
			bad = s->recs[i];
	if (!bad)
		die("wrap-torn: no wrapped record");
	bad->crc_xor = 0x80000000u;
	rec_emit(s, bad);
	for (uint32_t i = 0; i < s->nrecs; i++)
		if (s->recs[i]->show && mklsn(s->recs[i]->cycle, s->recs[i]->blk) >=
					mklsn(bad->cycle, bad->blk))
			s->recs[i]->show = false;
	s->trans[1].hide = true;
	s->trans[2].hide = true;
	s->head_override = bad->blk + 1;
	s->torn_expected = true;
}

/*
 * T1 committed; T2 in R2 without its commit; T2's commit and T3 in R3.
 * @before, when not NULL, gets a copy of the log as it was before R3.
 */
static struct rec *torn_base(struct synth *s, uint32_t *t2, uint32_t *t3,
			     uint8_t **before)
{
	struct ckpt c2 = { .no_commit = true }, c3 = { 0 };
	struct rec *r3;

	small_ckpt(s, 0x1000);
	ic_sync(s);
	ck_add(&c2, b_icluster16(s, 0x100));
	ck_add(&c2, b_dir4k(s, 0x200));
	*t2 = w_ckpt(s, &c2);
	ic_sync(s);
	w_commit(s, *t2);
	tinfo_get(s, *t2)->state = NULL;
	ck_add(&c3, b_full(s, 0x300, 8, XFS_BLFT_BTREE_BUF));
	*t3 = w_ckpt(s, &c3);
	if (before) {
		*before = zalloc((size_t)s->nblks * BB);
		memcpy(*before, s->log, (size_t)s->nblks * BB);
	}
	r3 = ic_sync(s);
	return r3;
}

static void torn_expect(struct synth *s, struct rec *bad, uint32_t t2, uint32_t t3)
{
	struct tinfo *t;

	for (uint32_t i = 0; i < s->nrecs; i++)
		if (s->recs[i]->blk >= bad->blk && s->recs[i]->show)
			s->recs[i]->show = false;
	t = tinfo_get(s, t2);
	t->state = "incomplete";
	t->brief = true;
	tinfo_get(s, t3)->hide = true;
	s->head_override = bad->blk + 1;
}

static void sc_torn_crc(struct synth *s)
{
	uint32_t t2, t3;
	struct rec *r3 = torn_base(s, &t2, &t3, NULL);

	r3->crc_xor = 0x00ff00ffu;
	rec_emit(s, r3);
	torn_expect(s, r3, t2, t3);
	s->torn_expected = true;
}

static void sc_torn_stale(struct synth *s)
{
	uint32_t t2, t3;
	uint8_t *before;
	struct rec *r3 = torn_base(s, &t2, &t3, &before);
	uint32_t hole = r3->blk + r3->hblks + 1;

	if (rec_total(r3) < r3->hblks + 3)
		die("torn-stale: record too short");
	/* the second payload block never reached the disk: what was there */
	memcpy(s->log + (size_t)hole * BB, before + (size_t)hole * BB, BB);
	torn_expect(s, r3, t2, t3);
}

/* A bad CRC in the last 8 records but not the last: the head moves back to
 * it and the good record after it is dropped too (xlog_verify_head). */
static void sc_torn_mid(struct synth *s)
{
	uint32_t t2, t3, t4;
	struct rec *r3 = torn_base(s, &t2, &t3, NULL);

	t4 = small_ckpt(s, 0x3000);
	ic_sync(s);
	r3->crc_xor = 0x01000000u;
	rec_emit(s, r3);
	torn_expect(s, r3, t2, t3);
	tinfo_get(s, t4)->hide = true;
	s->torn_expected = true;
}

static void sc_crc_mid(struct synth *s)
{
	struct rec *r;

	twelve(s);
	r = shown_rec(s, 1);
	r->crc_xor = 0xdeadbeefu;
	rec_emit(s, r);
	printf("finding \"finding\":\"crc\" \"lsn\":\"%u/%u\" \"rec_blk\":%u\n", r->cycle, r->blk, r->blk);
	printf("count finding 1\n");
}

/*
 * A bad CRC in the record after the tail of a nearly full log: within
 * XLOG_MAX_ICLOGS buffers of the head going forward, so xlog_verify_tail
 * takes it for a tail overwritten by a torn write and moves the tail past
 * it.  Needs a log of at most 8 record buffers (-L 262144).
 */
static void sc_crc_tail(struct synth *s)
{
	struct rec *r;

	if (s->nblks > XLOG_MAX_ICLOGS * s->h_size / BB)
		die("crc-tail needs a log of at most %u bytes", XLOG_MAX_ICLOGS * s->h_size);
	twelve(s);
	r = shown_rec(s, 1);
	r->crc_xor = 0xdeadbeefu;
	rec_emit(s, r);
	r->show = false;
	shown_rec(s, 0)->show = false;
	s->trans[0].hide = true;
	s->trans[1].hide = true;
	for (uint32_t i = 0; i < s->nbufs; i++)
		if (s->bufs[i]->tid == s->trans[0].tid || s->bufs[i]->tid == s->trans[1].tid)
			s->bufs[i]->hide = true;
	s->tail_moved = shown_rec(s, 0)->blk + 1;
	printf("count finding 0\n");
}

/* A record header overwritten by a data block of the same cycle. */
static void sc_magic_mid(struct synth *s)
{
	struct rec *r;
	uint8_t *h;

	twelve(s);
	r = shown_rec(s, 2);
	h = s->log + (size_t)r->blk * BB;
	for (uint32_t i = 0; i < BB; i++)
		h[i] = (uint8_t)(i * 13 + 5);
	put_be32(h, r->cycle);
	r->show = false;
	tinfo_get(s, s->trans[2].tid)->hide = true;
	printf("finding \"finding\":\"header\" \"rec_blk\":%u\n", r->blk);
	printf("count finding 1\n");
}

/* A header with the magic but garbage after it. */
static void sc_hdr_garbage(struct synth *s)
{
	struct rec *r;
	uint8_t *h;

	twelve(s);
	r = shown_rec(s, 2);
	h = s->log + (size_t)r->blk * BB;
	for (uint32_t i = 4; i < BB; i++)
		h[i] = (uint8_t)(i * 29 + 3);
	put_be32(h + RH(h_cycle), r->cycle);
	r->show = false;
	tinfo_get(s, s->trans[2].tid)->hide = true;
	printf("finding \"finding\":\"header\" \"rec_blk\":%u\n", r->blk);
	printf("count finding 1\n");
}

/* h_len larger than any record buffer. */
static void sc_hlen_big(struct synth *s)
{
	struct rec *r;

	twelve(s);
	r = shown_rec(s, 2);
	r->h_len = 2 * XLOG_MAX_RECORD_BSIZE;
	put_be32(s->log + (size_t)r->blk * BB + RH(h_len), r->h_len);
	rec_recrc_phys(s, r->blk);
	r->show = false;
	tinfo_get(s, s->trans[2].tid)->hide = true;
	printf("finding \"finding\":\"header\" \"rec_blk\":%u\n", r->blk);
	printf("count finding 1\n");
}

/* h_len two blocks longer than the record, CRC made to match: the record
 * swallows the next record's header, whose magic is a bad cycle stamp. */
static void sc_hlen_long(struct synth *s)
{
	struct rec *r, *next;

	twelve(s);
	r = shown_rec(s, 2);
	next = shown_rec(s, 3);
	r->h_len += 2 * BB;
	put_be32(s->log + (size_t)r->blk * BB + RH(h_len), r->h_len);
	r->crc = rec_recrc_phys(s, r->blk);
	r->data_len += 2 * BB;
	r->bad_stamps = 1;
	next->show = false;
	tinfo_get(s, s->trans[3].tid)->hide = true;
	printf("finding \"finding\":\"cycle\" \"rec_blk\":%u\n", r->blk);
	printf("finding \"finding\":\"header\" \"rec_blk\":%u\n", next->blk + 2);
	printf("count finding 2\n");
}

/* oh_len of the first item region runs past the record. */
static void sc_ohlen_big(struct synth *s)
{
	struct rec *r;
	uint32_t off;
	struct tinfo *t;

	twelve(s);
	r = shown_rec(s, 2);
	off = op_offset(r, 2);
	put_be32(r->data + off + OH(oh_len), 0x7fff0000u);
	rec_emit(s, r);
	t = &s->trans[2];
	t->any_state = true;	/* incomplete or corrupt: see t0500-synth-corrupt */
	r->walk_set = true;
	r->walk_ops = 2;
	r->walk_used = off;
	for (uint32_t i = 0; i < s->nbufs; i++)
		if (s->bufs[i]->tid == t->tid)
			s->bufs[i]->hide = true;
	printf("finding \"finding\":\"op\" \"rec_blk\":%u \"offset\":%u\n", r->blk, off);
	printf("count finding 1\n");
}

/* One stamped word of a payload block says another cycle (CRC matches). */
static void sc_cycle_mid(struct synth *s)
{
	struct rec *r;

	twelve(s);
	r = shown_rec(s, 2);
	r->stamp = zalloc(r->data_len / BB * sizeof(uint32_t));
	for (uint32_t i = 0; i < r->data_len / BB; i++)
		r->stamp[i] = r->cycle;
	r->stamp[r->data_len / BB - 1] = r->cycle + 1;
	r->bad_stamps = 1;
	rec_emit(s, r);
	printf("finding \"finding\":\"cycle\" \"lsn\":\"%u/%u\"\n", r->cycle, r->blk);
	printf("count finding 1\n");
}

/* Buffer formats that disagree with themselves or their regions. */
static void sc_bad_bufs(struct synth *s)
{
	struct ckpt c = { 0 };
	struct buf_spec big = { .blkno = 0x500, .len_bb = 128,
				.flags = blft(XFS_BLFT_DIR_BLOCK_BUF),
				.set_map_size = true, .map_size = 40,
				.set_map_words = true, .map_words = 17 };
	struct buf_spec m17 = { .blkno = 0x600, .len_bb = 128,
				.flags = blft(XFS_BLFT_DIR_BLOCK_BUF),
				.set_map_size = true, .map_size = 17 };
	struct buf_spec shrt = { .blkno = 0x700, .len_bb = 32,
				 .flags = blft(XFS_BLFT_DINO_BUF),
				 .set_map_words = true, .map_words = 2 };
	struct buf_spec left = { .blkno = 0x800, .len_bb = 8,
				 .flags = blft(XFS_BLFT_BTREE_BUF), .extra_regions = 1 };
	struct buf_spec bits = { .blkno = 0x900, .len_bb = 8,
				 .flags = blft(XFS_BLFT_BTREE_BUF), .drop_regions = 2 };
	struct buf_spec size = { .blkno = 0xa00, .len_bb = 8,
				 .flags = blft(XFS_BLFT_BTREE_BUF),
				 .set_blf_size = true, .blf_size = 5 };

	set_bits(&big, 0, 2);
	set_bits(&m17, 0, 2);
	set_bits(&shrt, 3, 2);
	set_bits(&left, 0, 1);
	set_bits(&left, 4, 1);
	set_bits(&bits, 0, 1);
	set_bits(&bits, 4, 1);
	set_bits(&bits, 8, 1);
	set_bits(&size, 2, 1);
	ck_add(&c, buf_item(s, &big));
	ck_add(&c, buf_item(s, &m17));
	ck_add(&c, buf_item(s, &shrt));
	ck_add(&c, buf_item(s, &left));
	ck_add(&c, buf_item(s, &bits));
	ck_add(&c, buf_item(s, &size));	/* last: its missing regions end it */
	w_ckpt(s, &c);
	ic_sync(s);
	for (uint32_t i = 0; i < s->nbufs; i++)
		s->bufs[i]->hide = true;
}

/* blf_size 0, then blf_size 300: recovery stops (-EFSCORRUPTED). */
static void sc_blf_size(struct synth *s, uint16_t size)
{
	struct ckpt c = { 0 }, c2 = { 0 };
	struct buf_spec b = { .blkno = 0x500, .len_bb = 8, .flags = blft(XFS_BLFT_BTREE_BUF),
			      .set_blf_size = true, .blf_size = size };
	struct tinfo *t;

	small_ckpt(s, 0x1000);
	set_bits(&b, 0, 1);
	ck_add(&c, buf_item(s, &b));
	ck_add(&c, b_dir4k(s, 0x200));
	w_ckpt(s, &c);
	t = &s->trans[1];
	t->state = "corrupt";
	t->brief = true;
	ic_sync(s);
	ck_add(&c2, b_dir4k(s, 0x240));
	w_ckpt(s, &c2);
	ic_sync(s);
	for (uint32_t i = 0; i < s->nbufs; i++)
		if (s->bufs[i]->tid == t->tid)
			s->bufs[i]->hide = true;
	printf("finding \"finding\":\"trans_corrupt\" \"tid\":\"0x%x\"\n", t->tid);
	printf("count finding 1\n");
}

static void sc_blf_size0(struct synth *s)
{
	sc_blf_size(s, 0);
}

static void sc_blf_size_huge(struct synth *s)
{
	sc_blf_size(s, 300);
}

static void sc_unknown_item(struct synth *s)
{
	struct ckpt c = { 0 };

	ck_add(&c, b_dir4k(s, 0x200));
	ck_add(&c, odd_item(s, 0x1299));
	ck_add(&c, b_icluster16(s, 0x100));
	w_ckpt(s, &c);
	ic_sync(s);
	printf("finding \"finding\":\"item_type\" \"tid\":\"0x%x\"\n", s->trans[0].tid);
	printf("item \"tid\":\"0x%x\" \"index\":1 \"item\":\"unknown\" \"type_code\":\"0x1299\" \"size\":2 \"regions\":2\n",
	       s->trans[0].tid);
	printf("count finding 1\n");
}

static void sc_truncated(struct synth *s)
{
	sc_bufs(s);
}

static const struct scenario scenarios[] = {
	{ "zeroed",	sc_zeroed,	"a log of zeros (mkfs never ran on it)" },
	{ "clean",	sc_clean,	"only the unmount record mkfs writes" },
	{ "bufs",	sc_bufs,	"buffer items: runs split at page boundaries and elsewhere" },
	{ "cont",	sc_cont,	"a 64 KiB region over three records, a header split 8+8" },
	{ "wrap",	sc_wrap,	"a checkpoint whose records wrap past the end of the log" },
	{ "wrap-exact",	sc_wrap_exact,	"records that end exactly at the end of the log" },
	{ "wrap-hdr",	sc_wrap_hdr,	"a record header in the last block, its extended header at 0" },
	{ "wrap-hdr-last", sc_wrap_hdr_last, "the same record, last before the head" },
	{ "wrap-torn",	sc_wrap_torn,	"the wrap scenario, the CRC of the record across the end broken" },
	{ "torn-crc",	sc_torn_crc,	"the last record's CRC broken" },
	{ "torn-stale",	sc_torn_stale,	"a block of the last record never written" },
	{ "torn-mid",	sc_torn_mid,	"a bad CRC in the last 8 records, a good record after it" },
	{ "crc-mid",	sc_crc_mid,	"a bad CRC far from the head" },
	{ "crc-tail",	sc_crc_tail,	"a bad CRC at the tail of a full log: the tail moves" },
	{ "magic-mid",	sc_magic_mid,	"a record header overwritten by data" },
	{ "hdr-garbage", sc_hdr_garbage, "a record header with the magic and garbage" },
	{ "hlen-big",	sc_hlen_big,	"h_len beyond any record buffer" },
	{ "hlen-long",	sc_hlen_long,	"h_len two blocks too long, CRC matching" },
	{ "ohlen-big",	sc_ohlen_big,	"oh_len beyond the record" },
	{ "cycle-mid",	sc_cycle_mid,	"a payload block stamped with another cycle" },
	{ "bad-bufs",	sc_bad_bufs,	"map sizes, region counts and blf_size that disagree" },
	{ "blf-size0",	sc_blf_size0,	"a buffer format with blf_size 0" },
	{ "blf-size-huge", sc_blf_size_huge, "a buffer format with blf_size 300" },
	{ "unknown-item", sc_unknown_item, "an item of type 0x1299 between two buffers" },
	{ "truncated",	sc_truncated,	"the bufs image cut in the middle of the log" },
};

/* ------------------------------------------------------------------ */
/* the manifest */

static void print_manifest(struct synth *s)
{
	uint32_t nshow = 0, wrapped = 0, bad = 0, committed = 0, incomplete = 0, corrupt = 0;
	uint32_t ntrans = 0, nbufs = 0, nany = 0;
	struct rec *last = NULL;

	for (uint32_t i = 0; i < s->nrecs; i++) {
		struct rec *r = s->recs[i];

		if (!r->show)
			continue;
		nshow++;
		wrapped += r->wrapped;
		bad += r->crc_xor != 0;
		if (!last || mklsn(r->cycle, r->blk) > mklsn(last->cycle, last->blk))
			last = r;
		printf("record \"lsn\":\"%u/%u\" \"blk\":%u \"cycle\":%u \"version\":%u"
		       " \"h_len\":%u \"h_size\":%u \"hblks\":%u \"data_blks\":%u"
		       " \"ops\":%u \"ops_walked\":%u \"unused\":%u \"tail_lsn\":\"%u/%u\""
		       " \"prev_block\":%u \"h_crc\":\"0x%x\" \"crc_calc\":\"0x%x\""
		       " \"crc\":\"%s\" \"wrapped\":%s \"bad_cycle_blocks\":%u",
		       r->cycle, r->blk, r->blk, r->cycle, r->version, r->h_len, r->h_size,
		       r->hblks, r->data_len / BB, r->nops, r->walk_set ? r->walk_ops : r->nops,
		       r->h_len - (r->walk_set ? r->walk_used : r->used),
		       (uint32_t)(r->tail_lsn >> 32), (uint32_t)r->tail_lsn, r->prev_block,
		       r->crc ^ r->crc_xor, r->crc,
		       r->crc_xor ? "BAD" : "ok",
		       r->wrapped ? "true" : "false", r->bad_stamps);
		printf("\n");
	}
	printf("count record %u\n", nshow);
	for (uint32_t i = 0; i < s->ntrans; i++) {
		struct tinfo *t = &s->trans[i];

		if (t->hide)
			continue;
		ntrans++;
		if (t->any_state) {
			nany++;
			printf("trans \"tid\":\"0x%x\" \"lsn\":\"%u/%u\"\n",
			       t->tid, (uint32_t)(t->lsn >> 32), (uint32_t)t->lsn);
			continue;
		}
		if (!t->state)
			committed++;
		else if (!strcmp(t->state, "incomplete"))
			incomplete++;
		else if (!strcmp(t->state, "corrupt"))
			corrupt++;
		printf("trans \"tid\":\"0x%x\" \"lsn\":\"%u/%u\" \"state\":\"%s\"",
		       t->tid, (uint32_t)(t->lsn >> 32), (uint32_t)t->lsn,
		       t->state ? t->state : "committed");
		if (!t->brief)
			printf(" \"commit_lsn\":\"%u/%u\" \"th_type\":%u \"th_num_items\":%u"
			       " \"items\":%u \"regions\":%u \"records\":%u"
			       " \"region_bytes\":%llu",
			       (uint32_t)(t->commit_lsn >> 32), (uint32_t)t->commit_lsn,
			       XFS_TRANS_CHECKPOINT, t->th_num_items, t->items, t->regions,
			       t->records, (unsigned long long)t->region_bytes);
		printf("\n");
		/* every op header of the transaction (start, header, regions,
		 * continuations, commit): commented out, see t0500-synth-corrupt */
		if (!t->brief)
			printf("# trans \"tid\":\"0x%x\" \"op_bytes\":%llu\n",
			       t->tid, (unsigned long long)t->op_bytes);
	}
	printf("count trans %u\n", ntrans);
	for (uint32_t i = 0; i < s->nbufs; i++) {
		struct binfo *b = s->bufs[i];
		unsigned int type = (b->flags & XFS_BLFT_MASK) >> XFS_BLFT_SHIFT;
		uint64_t bytes = (uint64_t)b->len_bb * BB;

		if (b->hide || tinfo_get(s, b->tid)->hide)
			continue;
		nbufs++;
		printf("buf \"tid\":\"0x%x\" \"item\":%u \"blkno\":\"0x%llx\" \"len\":%llu"
		       " \"type\":\"%s\"", b->tid, b->index, (unsigned long long)b->blkno,
		       (unsigned long long)bytes, type < 21 ? blft_names[type] : "?");
		if (b->flags & XFS_BLF_INODE_BUF)
			printf(" \"flags\":\"inode_buf\"");
		printf(" \"map_size\":%u \"regions\":%u \"runs\":%u \"split_runs\":%u"
		       " \"dirty_bytes\":%llu \"dirty_pct\":%.4f \"data_bytes\":%llu"
		       " \"log_cost\":%llu \"problems\":\"\" \"region_list\":[",
		       b->map_size, b->regions, b->runs, b->split_runs,
		       (unsigned long long)b->dirty_bytes,
		       bytes ? 100.0 * (double)b->dirty_bytes / (double)bytes : 0.0,
		       (unsigned long long)b->data_bytes, (unsigned long long)b->log_cost);
		for (uint32_t r = 0; r < b->nreg; r++)
			printf("%s{\"offset\":%u,\"len\":%u}", r ? "," : "", b->reg_off[r], b->reg_len[r]);
		printf("] \"split_list\":[");
		for (uint32_t k = 0; k < b->nsplit; k++)
			printf("%s{\"chunk\":%u,\"offset\":%u,\"page_boundary\":%s}", k ? "," : "",
			       b->split_chunk[k], b->split_chunk[k] * XFS_BLF_CHUNK,
			       b->split_chunk[k] * XFS_BLF_CHUNK % 4096 ? "false" : "true");
		printf("]\n");
		printf("item \"tid\":\"0x%x\" \"index\":%u \"item\":\"buf\" \"type_code\":\"0x%x\""
		       " \"size\":%u \"regions\":%u \"blkno\":\"0x%llx\" \"len\":%u \"bytes\":%llu"
		       " \"map_size\":%u \"flags\":\"0x%x\" \"buf_type\":\"%s\" \"data_bytes\":%llu\n",
		       b->tid, b->index, XFS_LI_BUF, b->blf_size, b->regions + 1,
		       (unsigned long long)b->blkno, b->len_bb, (unsigned long long)bytes,
		       b->map_size, b->flags, type < 21 ? blft_names[type] : "?",
		       (unsigned long long)b->data_bytes);
	}
	printf("count buf %u\n", nbufs);
	printf("info \"state\":\"%s\" \"records\":%u \"records_wrapped\":%u \"crc_bad\":%u"
	       " \"trans_committed\":%u \"torn_head\":%s \"tail_moved\":%s",
	       s->unmount || !s->nwritten ? "clean" : "dirty",
	       nshow, wrapped, bad, committed,
	       s->torn_expected ? "true" : "false", s->tail_moved ? "true" : "false");
	if (!nany)
		printf(" \"trans_incomplete\":%u \"trans_corrupt\":%u", incomplete, corrupt);
	if (!s->bare)
		printf(" \"log_version\":%d \"sector_size\":%u \"log_sunit\":%u"
		       " \"crc\":%s \"sb_version\":%d \"log_offset\":%u \"log_blocks\":%u",
		       s->log_version, s->logsect, s->sunit,
		       s->sb_version == 5 ? "true" : "false", s->sb_version,
		       FS_LOGSTART * FS_BLOCKSIZE, s->nblks);
	else
		printf(" \"log_location\":\"bare\" \"log_blocks\":%u", s->nblks);
	if (s->torn_expected)
		printf(" \"torn_from_blk\":%u", s->blk);
	if (last && !s->unmount) {
		printf(" \"head_blk\":%u \"tail_blk\":%u \"last_lsn\":\"%u/%u\" \"tail_lsn\":\"%u/%u\"",
		       s->head_override ? s->head_override - 1 : s->blk,
		       s->tail_moved ? s->tail_moved - 1 : (uint32_t)last->tail_lsn,
		       last->cycle, last->blk,
		       (uint32_t)(last->tail_lsn >> 32), (uint32_t)last->tail_lsn);
	} else {
		/* clean: the head is after the unmount record, the tail too */
		printf(" \"head_blk\":%u \"tail_blk\":%u", s->blk, s->blk);
	}
	printf("\n");
}

/* ------------------------------------------------------------------ */
/* the output: an image with a superblock, or the bare log */

static void write_sb(const struct synth *s, uint8_t *sb)
{
	uint16_t ver;
	uint32_t logblocks = s->log_bytes / FS_BLOCKSIZE;
	bool v5 = s->sb_version == 5;
	uint32_t isize = v5 ? 512 : 256, ilog = v5 ? 9 : 8;

#define SBF(f)	(sb + offsetof(struct xfs_dsb, f))
	memset(sb, 0, BB);
	put_be32(SBF(sb_magicnum), XFS_SB_MAGIC);
	put_be32(SBF(sb_blocksize), FS_BLOCKSIZE);
	put_be64(SBF(sb_dblocks), (uint64_t)FS_AGBLOCKS * FS_AGCOUNT);
	memcpy(SBF(sb_uuid), s->uuid, 16);
	put_be64(SBF(sb_logstart), FS_LOGSTART);
	put_be64(SBF(sb_rootino), 128);
	put_be64(SBF(sb_rbmino), 129);
	put_be64(SBF(sb_rsumino), 130);
	put_be32(SBF(sb_rextsize), 1);
	put_be32(SBF(sb_agblocks), FS_AGBLOCKS);
	put_be32(SBF(sb_agcount), FS_AGCOUNT);
	put_be32(SBF(sb_logblocks), logblocks);
	if (v5)
		ver = XFS_SB_VERSION_5 | XFS_SB_VERSION_NLINKBIT | XFS_SB_VERSION_ALIGNBIT |
		      XFS_SB_VERSION_LOGV2BIT | XFS_SB_VERSION_EXTFLGBIT |
		      XFS_SB_VERSION_DIRV2BIT | XFS_SB_VERSION_MOREBITSBIT;
	else
		ver = XFS_SB_VERSION_4 | XFS_SB_VERSION_NLINKBIT | XFS_SB_VERSION_ALIGNBIT |
		      XFS_SB_VERSION_EXTFLGBIT | XFS_SB_VERSION_DIRV2BIT |
		      XFS_SB_VERSION_MOREBITSBIT |
		      (s->log_version == 2 ? XFS_SB_VERSION_LOGV2BIT : 0) |
		      (s->logsect > BB ? XFS_SB_VERSION_SECTORBIT : 0);
	put_be16(SBF(sb_versionnum), ver);
	put_be16(SBF(sb_sectsize), 512);
	put_be16(SBF(sb_inodesize), (uint16_t)isize);
	put_be16(SBF(sb_inopblock), (uint16_t)(FS_BLOCKSIZE / isize));
	memcpy(SBF(sb_fname), "synth", 5);
	*SBF(sb_blocklog) = FS_BLOCKLOG;
	*SBF(sb_sectlog) = 9;
	*SBF(sb_inodelog) = (uint8_t)ilog;
	*SBF(sb_inopblog) = (uint8_t)(FS_BLOCKLOG - ilog);
	*SBF(sb_agblklog) = FS_AGBLKLOG;
	*SBF(sb_imax_pct) = 25;
	put_be64(SBF(sb_icount), 64);
	put_be64(SBF(sb_ifree), 61);
	put_be64(SBF(sb_fdblocks), (uint64_t)FS_AGBLOCKS * FS_AGCOUNT - logblocks - 64);
	put_be64(SBF(sb_uquotino), ~0ull);
	put_be64(SBF(sb_gquotino), ~0ull);
	put_be32(SBF(sb_inoalignmt), v5 ? 4 : 2);
	if (v5 || s->logsect > BB) {
		uint8_t lg = 9;

		while ((1u << lg) < s->logsect)
			lg++;
		*SBF(sb_logsectlog) = lg;
		put_be16(SBF(sb_logsectsize), (uint16_t)s->logsect);
	}
	put_be32(SBF(sb_logsunit), s->log_version == 2 ? (s->sunit ? s->sunit : 1) : 0);
	put_be32(SBF(sb_features2), XFS_SB_VERSION2_LAZYSBCOUNTBIT | XFS_SB_VERSION2_ATTR2BIT |
		 XFS_SB_VERSION2_PROJID32BIT | (v5 ? XFS_SB_VERSION2_CRCBIT | XFS_SB_VERSION2_FTYPE : 0));
	memcpy(SBF(sb_bad_features2), SBF(sb_features2), 4);
	if (v5) {
		put_be32(SBF(sb_features_incompat), XFS_SB_FEAT_INCOMPAT_FTYPE);
		put_be64(SBF(sb_pquotino), ~0ull);
		put_le32(SBF(sb_crc), xls_crc32c(sb, BB));	/* sb_crc was zero */
	}
#undef SBF
}

static void write_output(struct synth *s, const char *path, uint64_t truncate_at)
{
	uint64_t log_off = s->bare ? 0 : (uint64_t)FS_LOGSTART * FS_BLOCKSIZE;
	uint64_t size = s->bare ? (uint64_t)s->nblks * BB :
			(uint64_t)FS_AGBLOCKS * FS_AGCOUNT * FS_BLOCKSIZE;
	const size_t chunk = 65536;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die("cannot create '%s': %s", path, strerror(errno));
	if (ftruncate(fd, (off_t)size) < 0)
		die("cannot size '%s': %s", path, strerror(errno));
	if (!s->bare) {
		uint8_t sb[BB];

		write_sb(s, sb);
		if (pwrite(fd, sb, BB, 0) != BB)
			die("cannot write '%s'", path);
	}
	/* the log, leaving holes where it is zero */
	for (size_t o = 0; o < (size_t)s->nblks * BB; o += chunk) {
		size_t n = (size_t)s->nblks * BB - o < chunk ? (size_t)s->nblks * BB - o : chunk;
		bool zero = true;

		for (size_t i = 0; i < n && zero; i++)
			zero = s->log[o + i] == 0;
		if (!zero && pwrite(fd, s->log + o, n, (off_t)(log_off + o)) != (ssize_t)n)
			die("cannot write '%s': %s", path, strerror(errno));
	}
	if (truncate_at && ftruncate(fd, (off_t)truncate_at) < 0)
		die("cannot truncate '%s': %s", path, strerror(errno));
	if (close(fd) < 0)
		die("cannot write '%s': %s", path, strerror(errno));
}

/* ------------------------------------------------------------------ */
/* -C: check decoder JSON Lines against the manifest */

static char *slurp_line(FILE *f)
{
	size_t cap = 256, n = 0;
	char *b = malloc(cap);
	int c;

	if (!b)
		die("out of memory");
	while ((c = getc(f)) != EOF && c != '\n') {
		if (n + 1 == cap) {
			char *nb = realloc(b, cap *= 2);

			if (!nb)
				die("out of memory");
			b = nb;
		}
		b[n++] = (char)c;
	}
	if (c == EOF && n == 0) {
		free(b);
		return NULL;
	}
	b[n] = '\0';
	return b;
}

static bool kind_selected(const char *kinds, const char *kind)
{
	size_t n = strlen(kind);

	if (!kinds)
		return true;
	for (const char *p = kinds; *p; ) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && !strncmp(p, kind, n))
			return true;
		p += len + (e ? 1 : 0);
	}
	return false;
}

/* Does JSON object @j hold "key":value @frag as a whole member? */
static bool has_member(const char *j, const char *frag)
{
	size_t n = strlen(frag);

	for (const char *p = strstr(j, frag); p; p = strstr(p + 1, frag))
		if (p > j && (p[-1] == ',' || p[-1] == '{') && (p[n] == ',' || p[n] == '}'))
			return true;
	return false;
}

static int check(const char *manifest, const char *json, const char *kinds)
{
	FILE *mf = strcmp(manifest, "-") ? fopen(manifest, "r") : stdin;
	FILE *jf = fopen(json, "r");
	char **lines = NULL, *l;
	size_t n = 0, cap = 0;
	int bad = 0, checked = 0;

	if (!mf || !jf)
		die("cannot open '%s' or '%s'", manifest, json);
	while ((l = slurp_line(jf))) {
		if (n == cap) {
			char **nl = realloc(lines, (cap = cap ? cap * 2 : 64) * sizeof(*nl));

			if (!nl)
				die("out of memory");
			lines = nl;
		}
		lines[n++] = l;
	}
	while ((l = slurp_line(mf))) {
		char kind[64], prefix[96], *frags, *save = NULL;
		int best = -1, best_i = -1;

		if (sscanf(l, "%63s", kind) != 1 || kind[0] == '#') {
			free(l);
			continue;
		}
		if (!strcmp(kind, "count")) {
			char what[64];
			unsigned int want, have = 0;

			if (sscanf(l, "count %63s %u", what, &want) == 2 && kind_selected(kinds, what)) {
				snprintf(prefix, sizeof(prefix), "{\"kind\":\"%s\",", what);
				for (size_t i = 0; i < n; i++)
					have += !strncmp(lines[i], prefix, strlen(prefix));
				checked++;
				if (have != want) {
					printf("count %s: %u in the output, %u expected\n", what, have, want);
					bad++;
				}
			}
			free(l);
			continue;
		}
		if (!kind_selected(kinds, kind)) {
			free(l);
			continue;
		}
		checked++;
		snprintf(prefix, sizeof(prefix), "{\"kind\":\"%s\",", kind);
		for (size_t i = 0; i < n; i++) {
			char *copy, *f;
			int hits = 0, all = 1;

			if (strncmp(lines[i], prefix, strlen(prefix)))
				continue;
			copy = strdup(l + strlen(kind));
			if (!copy)
				die("out of memory");
			for (f = strtok_r(copy, " \t", &save); f; f = strtok_r(NULL, " \t", &save)) {
				if (has_member(lines[i], f))
					hits++;
				else
					all = 0;
			}
			free(copy);
			if (all) {
				best = -2;
				break;
			}
			if (hits > best) {
				best = hits;
				best_i = (int)i;
			}
		}
		if (best != -2) {
			bad++;
			printf("missing: %s\n", l);
			if (best_i >= 0) {
				printf("closest: %s\n", lines[best_i]);
				frags = strdup(l + strlen(kind));
				if (!frags)
					die("out of memory");
				for (char *f = strtok_r(frags, " \t", &save); f;
				     f = strtok_r(NULL, " \t", &save))
					if (!has_member(lines[best_i], f))
						printf("  differs: %s\n", f);
				free(frags);
			}
		}
		free(l);
	}
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	if (mf != stdin)
		fclose(mf);
	fclose(jf);
	if (!checked) {
		printf("nothing in the manifest for kinds %s\n", kinds ? kinds : "(any)");
		return 1;
	}
	return bad ? 1 : 0;
}

/* ------------------------------------------------------------------ */

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [-f] [-1|-4] [-u SUNIT] [-b HSIZE] [-S SECTSIZE] [-E] [-L LOGBYTES]\n"
		"          [-c CYCLE] [-U] SCENARIO OUTPUT\n"
		"       %s -C MANIFEST|- JSON [KIND[,KIND...]]\n"
		"       %s -l\n", prog, prog, prog);
	exit(2);
}

static uint32_t num(const char *arg)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 0);
	if (errno || *end || v > UINT32_MAX)
		die("bad number '%s'", arg);
	return (uint32_t)v;
}

int main(int argc, char **argv)
{
	struct synth *s = zalloc(sizeof(*s));
	const struct scenario *sc = NULL;
	uint64_t truncate_at = 0;
	int opt;

	s->sb_version = 5;
	s->log_version = 2;
	s->logsect = BB;
	s->log_bytes = 2u << 20;
	s->first_cycle = 1;
	while ((opt = getopt(argc, argv, "f14u:b:S:EL:c:UC:lh")) != -1) {
		switch (opt) {
		case 'f': s->bare = true; break;
		case '1': s->log_version = 1; s->sb_version = 4; break;
		case '4': s->sb_version = 4; break;
		case 'u': s->sunit = num(optarg); break;
		case 'b': s->h_size = num(optarg); break;
		case 'S': s->logsect = num(optarg); break;
		case 'E': s->be = true; break;
		case 'L': s->log_bytes = num(optarg); break;
		case 'c': s->first_cycle = num(optarg); break;
		case 'U': s->unmount = true; break;
		case 'C':
			if (optind + 1 != argc && optind + 2 != argc)
				usage();
			opt = check(optarg, argv[optind], optind + 2 == argc ? argv[optind + 1] : NULL);
			free_all();
			return opt;
		case 'l':
			for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
				printf("%-14s %s\n", scenarios[i].name, scenarios[i].help);
			free_all();
			return 0;
		default:
			usage();
		}
	}
	if (optind + 2 != argc)
		usage();
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		if (!strcmp(argv[optind], scenarios[i].name))
			sc = &scenarios[i];
	if (!sc)
		die("unknown scenario '%s' (-l lists them)", argv[optind]);
	s->out = argv[optind + 1];

	/* geometry, checked as mkfs and mount would */
	if (s->logsect != 512 && s->logsect != 4096)
		die("log sector size must be 512 or 4096");
	if (s->logsect > BB && s->sunit < s->logsect)
		s->sunit = s->logsect;		/* mkfs: lsunit = log sector size */
	if (s->log_version == 1 && (s->sunit || s->logsect > BB))
		die("a v1 log has no stripe unit and 512-byte sectors");
	if (s->sunit && (s->sunit % BB || s->sunit > XLOG_MAX_RECORD_BSIZE))
		die("bad log stripe unit %u", s->sunit);
	if (!s->h_size)
		s->h_size = s->sunit > XLOG_BIG_RECORD_BSIZE ? s->sunit : XLOG_BIG_RECORD_BSIZE;
	if (s->h_size < XLOG_MIN_RECORD_BSIZE || s->h_size > XLOG_MAX_RECORD_BSIZE ||
	    (s->h_size & (s->h_size - 1)) || (s->log_version == 1 && s->h_size > XLOG_BIG_RECORD_BSIZE))
		die("bad log buffer size %u", s->h_size);
	if (s->sunit > s->h_size)
		die("the log buffer size must be at least the stripe unit");
	if (s->log_bytes % FS_BLOCKSIZE || s->log_bytes < (64u << 10) ||
	    s->log_bytes > (FS_AGBLOCKS - FS_LOGSTART) * FS_BLOCKSIZE)
		die("bad log size %u", s->log_bytes);
	if (!s->first_cycle || s->first_cycle >= XLOG_HEADER_MAGIC_NUM)
		die("bad cycle");
	s->nblks = s->log_bytes / BB;
	s->hblks = s->log_version == 2 && s->h_size > XLOG_HEADER_CYCLE_SIZE ?
		   s->h_size / XLOG_HEADER_CYCLE_SIZE : 1;
	s->ic_size = s->h_size - s->hblks * BB;
	s->roundoff = s->log_version == 2 && s->sunit > 1 ? s->sunit : BB;
	s->log = zalloc((size_t)s->nblks * BB);
	s->ic = zalloc(s->ic_size);
	s->next_tid = 0x0c0ffee0;
	for (int i = 0; i < 16; i++)
		s->uuid[i] = (uint8_t)(0x5e + i * 0x11);

	if (strcmp(sc->name, "zeroed") != 0 && strncmp(sc->name, "wrap", 4) != 0)
		format_log(s, s->first_cycle);
	sc->run(s);
	if (s->unmount)
		w_unmount(s);
	ic_sync(s);
	if (s->unmount) {
		/* clean: the tail is the head, nothing is walked */
		for (uint32_t i = 0; i < s->nrecs; i++)
			s->recs[i]->show = false;
		for (uint32_t i = 0; i < s->ntrans; i++)
			s->trans[i].hide = true;
	}
	if (!strcmp(sc->name, "truncated")) {
		if (s->bare)
			die("truncated: an image, not -f");
		truncate_at = (uint64_t)FS_LOGSTART * FS_BLOCKSIZE + s->log_bytes / 2;
	}
	write_output(s, s->out, truncate_at);
	if (strcmp(sc->name, "zeroed") && strcmp(sc->name, "truncated"))
		print_manifest(s);
	if (fflush(stdout) || ferror(stdout))
		die("write error on standard output");
	free_all();
	return 0;
}
