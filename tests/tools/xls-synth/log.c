/*
 * xls-synth's writer: byte order, records, the in-core log (iclogs),
 * checkpoints, and the log as mkfs formats it.
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
 */
#include <stdlib.h>
#include <string.h>

#include "base/crc32c.h"
#include "synth.h"

/* ------------------------------------------------------------------ */
/* byte order */

void put_be16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
void put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, (uint16_t)(v >> 16));
	put_be16(p + 2, (uint16_t)v);
}
void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}
void put_le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}
void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}
uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

uint64_t mklsn(uint32_t cycle, uint32_t blk)
{
	return (uint64_t)cycle << 32 | blk;
}

static uint32_t roundup32(uint32_t v, uint32_t to)
{
	return (v + to - 1) / to * to;
}

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

uint32_t rec_total(const struct rec *r)
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
void rec_emit(struct synth *s, struct rec *r)
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
uint32_t rec_recrc_phys(struct synth *s, uint32_t blk)
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
struct rec *ic_sync(struct synth *s)
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

struct tinfo *tinfo_get(struct synth *s, uint32_t tid)
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
/* checkpoints */

void ck_add(struct ckpt *c, struct item *it)
{
	if (c->nitems == MAX_ITEMS)
		die("too many items");
	c->items[c->nitems++] = it;
}

/* The commit record of an open checkpoint (xlog_cil_write_commit_record). */
void w_commit(struct synth *s, uint32_t tid)
{
	struct lv lv = { .n = 1 };
	struct tinfo *t = tinfo_get(s, tid);

	lv.v[0] = (struct iov){ .flags = XLOG_COMMIT_TRANS, .clientid = XFS_TRANSACTION };
	w_begin(s);
	t->commit_lsn = ic_lsn(s);
	w_lv(s, tid, &lv);
}

/* Write checkpoint @c under a new tid; returns the tid. */
uint32_t w_ckpt(struct synth *s, struct ckpt *c)
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
struct rec *w_unmount(struct synth *s)
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
uint32_t w_fill_to(struct synth *s, uint32_t room, int64_t blkno)
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
void fill_cycle(struct synth *s, uint32_t cycle, uint32_t from, uint32_t to)
{
	uint32_t len = 2;

	for (uint32_t blk = from; blk + len <= to; blk += len)
		mkfs_record(s, cycle, blk, len * BB, mklsn(cycle, blk >= len ? blk - len : 0));
}

/* The same, ending exactly at @to (a last record of 3 blocks if need be). */
void fill_exact(struct synth *s, uint32_t cycle, uint32_t from, uint32_t to)
{
	uint32_t end = from + (to - from - 2) / 2 * 2;

	if (to < from + 2)
		die("fill_exact: %u..%u holds no record", from, to);
	fill_cycle(s, cycle, from, end);
	mkfs_record(s, cycle, end, (to - end) * BB, mklsn(cycle, end));
}

/* A freshly made (or repaired) filesystem's log, head after the record. */
void format_log(struct synth *s, uint32_t cycle)
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
