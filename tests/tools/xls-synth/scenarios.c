/*
 * xls-synth's scenarios: what each writes, the damage it does to the log
 * and the expectations it adjusts (records and transactions hidden,
 * findings printed into the manifest), and the table -l lists.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "synth.h"

/* ------------------------------------------------------------------ */
/* scenarios */

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
	t->any_state = true;	/* incomplete or corrupt: see t0502-synth-corrupt */
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

/*
 * A growfs the device does not hold: the superblock logged with a third
 * AG, dblocks past the end of the image.  Its geometry is sound, so its
 * write verifier passes; the kernel reads it back once recovery is done,
 * and its mount fails reading the new AG's headers past the device.
 */
static void sb_logged(struct synth *s, uint32_t agcount, uint64_t dblocks)
{
	struct ckpt c = { 0 };
	struct buf_spec b = { .blkno = 0, .len_bb = 1, .flags = blft(XFS_BLFT_SB_BUF) };
	struct item *it;
	uint8_t sb[BB];

	set_bits(&b, 0, 3);
	it = buf_item(s, &b);
	write_sb(s, sb);
	put_be32(sb + offsetof(struct xfs_dsb, sb_agcount), agcount);
	put_be64(sb + offsetof(struct xfs_dsb, sb_dblocks), dblocks);
	/* the one data region: chunks 0..2 of the superblock */
	memcpy((uint8_t *)(uintptr_t)it->lv.v[1].p, sb, 3 * XFS_BLF_CHUNK);
	ck_add(&c, it);
	w_ckpt(s, &c);
	ic_sync(s);
}

static void sc_sb_grown(struct synth *s)
{
	sb_logged(s, FS_AGCOUNT + 1, (uint64_t)FS_AGBLOCKS * (FS_AGCOUNT + 1));
}

/* The superblock logged with an AG count its blocks do not fill. */
static void sc_sb_badgeo(struct synth *s)
{
	sb_logged(s, 0x40000000u, (uint64_t)FS_AGBLOCKS * FS_AGCOUNT);
}

/*
 * A clean log whose head came round into a checkpoint B of the cycle
 * before: the stale walk (trans --stale) finds B whole (@where 0: the head
 * stopped at B's first record), partial from its second record (1), or
 * partial after the rest of its first record (2).  B is three records:
 * a 64 KiB region over all three, then two items in the last.  After B, a
 * checkpoint a crash left without its commit, then one with its tid again:
 * two transactions, never one.  Nothing is active; what the stale walk
 * must find goes into the manifest as "# stale " lines.
 */
static void stale_over(struct synth *s, int where)
{
	const uint32_t n = 7;
	struct ckpt b = { 0 }, x = { 0 };
	uint32_t rb, rx, rc, tid_b, tid_x, head;
	struct rec *r1, *r2;

	fill_cycle(s, n, 0, s->nblks);
	s->cycle = n;
	s->blk = s->nblks / 4;
	s->prev_blk = s->blk - 2;
	s->tail_lsn = mklsn(n, s->blk);
	small_ckpt(s, 0x2000);		/* overwritten by the next cycle */
	ic_sync(s);
	rb = s->nrecs;
	ck_add(&b, b_full(s, 0xc00, 128, XFS_BLFT_DIR_DATA_BUF));
	ck_add(&b, b_icluster16(s, 0x100));
	ck_add(&b, b_dir4k(s, 0x200));
	tid_b = w_ckpt(s, &b);
	ic_sync(s);
	if (s->nrecs - rb != 3)
		die("stale: B is %u records, not 3", s->nrecs - rb);
	r1 = s->recs[rb];
	r2 = s->recs[rb + 1];
	rx = s->nrecs;
	ck_add(&x, b_dir4k(s, 0x300));
	x.no_commit = true;
	tid_x = w_ckpt(s, &x);
	ic_sync(s);
	rc = s->nrecs;
	s->next_tid = tid_x;
	small_ckpt(s, 0x2100);
	ic_sync(s);
	fill_exact(s, n, s->blk, s->nblks);
	/* the next cycle, up to the head, its last record an unmount */
	head = where == 0 ? r1->blk : where == 1 ? r2->blk : r1->blk + 3;
	fill_exact(s, n + 1, 0, head);
	s->cycle = n + 1;
	s->blk = head;
	for (uint32_t i = 0; i < s->nrecs; i++)
		s->recs[i]->show = false;
	for (uint32_t i = 0; i < s->ntrans; i++)
		s->trans[i].hide = true;
	/* the 64 KiB region's format and first part are B's first record */
	if (where == 0)
		printf("# stale trans \"tid\":\"0x%x\" \"lsn\":\"%u/%u\" \"state\":\"committed\" \"items\":3 \"regions\":%u \"records\":3 \"stale\":true\n",
		       tid_b, n, r1->blk, b.items[0]->lv.n + b.items[1]->lv.n + b.items[2]->lv.n);
	else
		printf("# stale trans \"tid\":\"0x%x\" \"lsn\":\"%u/%u\" \"state\":\"committed\" \"items\":2 \"regions\":%u \"records\":2 \"partial\":true \"skipped_ops\":2 \"stale\":true\n",
		       tid_b, n, r2->blk, b.items[1]->lv.n + b.items[2]->lv.n);
	if (where == 2)
		printf("# stale stale_gap \"blk\":%u \"blks\":%u\n", head, r2->blk - head);
	printf("# stale count stale_gap %u\n", where == 2 ? 1 : 0);
	printf("# stale trans \"tid\":\"0x%x\" \"lsn\":\"%u/%u\" \"state\":\"incomplete\" \"items\":1 \"stale\":true\n",
	       tid_x, n, s->recs[rx]->blk);
	printf("# stale trans \"tid\":\"0x%x\" \"lsn\":\"%u/%u\" \"state\":\"committed\" \"items\":2 \"stale\":true\n",
	       tid_x, n, s->recs[rc]->blk);
}

static void sc_stale_whole(struct synth *s)
{
	stale_over(s, 0);
}

static void sc_stale_partial(struct synth *s)
{
	stale_over(s, 1);
}

static void sc_stale_gap(struct synth *s)
{
	stale_over(s, 2);
}

static void sc_truncated(struct synth *s)
{
	sc_bufs(s);
}

const struct scenario scenarios[] = {
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
	{ "sb-grown",	sc_sb_grown,	"the superblock logged with an AG past the end of the image" },
	{ "sb-badgeo",	sc_sb_badgeo,	"the superblock logged with 2^30 AGs in 2 AGs' blocks" },
	{ "stale-whole", sc_stale_whole, "a clean log, the head at the first record of a stale checkpoint" },
	{ "stale-partial", sc_stale_partial, "the same, the head at its second record: partial" },
	{ "stale-gap",	sc_stale_gap,	"the same, the head in its first record: a gap, then partial" },
	{ "truncated",	sc_truncated,	"the bufs image cut in the middle of the log" },
};

const size_t nscenarios = sizeof(scenarios) / sizeof(scenarios[0]);
