/*
 * Recovery stage: buffer items, as fs/xfs/xfs_buf_item_recover.c handles
 * them.
 *
 *  - xlog_recover_buf_commit_pass1(): each committed XFS_BLF_CANCEL item adds
 *    a reference to the cancel table entry for (blf_blkno, blf_len).
 *  - xlog_recover_buf_commit_pass2(): a cancel item drops a reference
 *    (xlog_put_buffer_cancelled); any other buffer in the table is skipped
 *    (xlog_is_buffer_cancelled); else the block is read and, on v5, its LSN
 *    taken from where its current magic says (xlog_recover_get_buf_lsn);
 *    LSN != 0, != -1 and >= the transaction's LSN skips the item.
 *  - xlog_recover_do_reg_buffer(), xlog_recover_do_inode_buffer(): what a
 *    replay copies; xlog_recover_validate_buf_type(): which verifier is
 *    attached (and the warning when the magic does not fit the type), and
 *    that the write verifier stamps the transaction's LSN when the delwri
 *    list is written.
 *
 * The first HEAD_BYTES of every buffer recovery touches are simulated
 * through the run, so that a later transaction sees what the kernel's
 * would: magic, LSN and UUID.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uuid/uuid.h>

#include "base/bitmap.h"
#include "base/crc32c.h"
#include "recover/recover_priv.h"

/* ------------------------------------------------------------------ */
/* pass 1 */

/* Pass 1 needs a buffer item's format only: its flags, its iovec check. */
static void rbuf_capture1(struct xls_recover *r, struct tstore *ts,
			  struct rrec *rec, const struct xls_item *it)
{
	const char *why;

	(void)r;
	(void)ts;
	rec->parsed = xls_buf_format_parse(it, &rec->blf, &why) == 0;
	rec->bad_iovec = !rec->parsed || !xls_buf_format_iovec_ok(&rec->blf);
}

/* A committed buffer item: a cancel record adds a reference. */
static void rbuf_commit1(struct xls_recover *r, const struct xls_trans *t,
			 const struct rrec *rec)
{
	uint32_t *refs;

	if (rec->bad_iovec) {
		xls_recover_fail(r, t->lsn, XLS_RFAIL_PASS1_LOG, "bad buffer log item size",
				 "transaction 0x%08x: bad buffer log item size", t->tid);
		return;
	}
	if (!(rec->blf.blf_flags & XFS_BLF_CANCEL))
		return;
	refs = xls_hashmap_find(&r->cancel, (uint64_t)rec->blf.blf_blkno,
				rec->blf.blf_len);
	if (refs)
		(*refs)++;
	else if (xls_hashmap_put(&r->cancel, (uint64_t)rec->blf.blf_blkno,
				 rec->blf.blf_len, 1))
		r->err = -ENOMEM;
}

/* ------------------------------------------------------------------ */
/* capture */

/* The logged bytes of chunks 0..3, which decide magic, LSN and UUID. */
static void capture_patch(struct xls_recover *r, struct tstore *ts,
			  struct rrec *rec, const struct xls_item *it,
			  const struct xls_region_result *res)
{
	uint8_t patch[HEAD_BYTES];
	uint8_t mask = 0;

	memset(patch, 0, sizeof(patch));
	for (uint32_t i = 0; i < res->nplaces && i + 1 < it->nregions; i++) {
		const struct xls_region_place *p = &res->places[i];

		if (p->offset >= HEAD_BYTES || p->nchunks == 0)
			continue;
		for (uint32_t c = 0; c < p->nchunks && p->first_chunk + c < HEAD_CHUNKS; c++) {
			uint32_t off = (p->first_chunk + c) << XFS_BLF_SHIFT;

			memcpy(patch + off, it->regions[i + 1].data +
			       ((uint64_t)c << XFS_BLF_SHIFT), XFS_BLF_CHUNK);
			mask |= (uint8_t)(1u << (p->first_chunk + c));
		}
	}
	rec->patch_mask = mask;
	rec->patch_off = UINT32_MAX;
	if (!mask)
		return;
	rec->patch_off = xls_rstore_bytes(ts, patch, HEAD_BYTES);
	if (rec->patch_off == UINT32_MAX) {
		rec->patch_mask = 0;
		r->err = -ENOMEM;
	}
}

/*
 * history: the logged bytes of every place, concatenated -- in one piece
 * of the store, which keeps only each piece whole (base/spillpool.h).
 */
static void capture_data(struct xls_recover *r, struct tstore *ts,
			 struct rrec *rec, const struct xls_item *it,
			 const struct xls_region_result *res)
{
	uint64_t total = 0;
	uint8_t *at;

	rec->data_off = UINT32_MAX;
	rec->data_len = 0;
	for (uint32_t i = 0; i < res->nplaces && i + 1 < it->nregions; i++)
		total += res->places[i].len;
	if (!total)
		return;
	at = total <= UINT32_MAX ? xls_rstore_reserve(ts, (uint32_t)total, &rec->data_off) : NULL;
	if (!at) {
		rec->data_off = UINT32_MAX;
		r->err = -ENOMEM;
		return;
	}
	/* a region shorter than a chunk is placed with nothing to copy */
	for (uint32_t i = 0; i < res->nplaces && i + 1 < it->nregions; i++) {
		if (it->regions[i + 1].data)
			memcpy(at, it->regions[i + 1].data, res->places[i].len);
		at += res->places[i].len;	/* else zeros, as reserved */
	}
	rec->data_len = (uint32_t)total;
}

/*
 * xlog_recover_do_inode_buffer(): for each inode slot, the bitmap run
 * that holds its di_next_unlinked, and the value logged there.  Like the
 * kernel, the region index counts runs, not regions, so a run split over
 * two regions makes it read the wrong region: readable says so.
 */
static void capture_unlinked(struct xls_recover *r, struct tstore *ts,
			     struct rrec *rec, const struct xls_item *it)
{
	const uint32_t *map = rec->blf.blf_data_map;
	unsigned int words = rec->blf.map_words;
	uint32_t inodes, item_index = 0, reg_off = 0, reg_bytes = 0, nbits = 0;
	int bit = 0;

	rec->unl_off = ts->nunl;
	rec->nunl = 0;
	if (!r->g->inode_size)
		return;
	inodes = ((uint32_t)rec->blf.blf_len * BBSIZE) >> r->g->inode_log;
	for (uint32_t i = 0; i < inodes; i++) {
		uint32_t nu = i * r->g->inode_size + offsetof(struct xfs_dinode, di_next_unlinked);
		struct xls_runlinked *u;
		const struct xls_region *reg;
		uint64_t roff;

		while (nu >= reg_off + reg_bytes) {
			bit = xls_next_bit(map, words, (unsigned int)bit + nbits);
			if (bit < 0)
				return;
			nbits = xls_contig_bits(map, words, (unsigned int)bit);
			reg_off = (uint32_t)bit << XFS_BLF_SHIFT;
			reg_bytes = nbits << XFS_BLF_SHIFT;
			item_index++;
		}
		if (nu < reg_off)
			continue;
		u = xls_vec_push((void **)&ts->unl, &ts->nunl, &ts->capunl, sizeof(*u));
		if (!u) {
			r->err = -ENOMEM;
			return;
		}
		rec->nunl++;
		u->slot = i;
		u->offset = nu;
		u->value = 0;
		reg = item_index < it->nregions ? &it->regions[item_index] : NULL;
		roff = (uint64_t)nu - reg_off;
		u->readable = reg && reg->data && roff + 4 <= reg->len;
		if (u->readable) {
			u->value = xls_be32(reg->data + roff);
			if (u->value == 0)
				rec->unl_zero = true;
		}
	}
}

/* Pass 2: regions, head bytes, unlinked fields. */
static void rbuf_capture2(struct xls_recover *r, struct tstore *ts, struct rrec *rec,
			  const struct xls_item *it)
{
	struct xls_buf_analysis *ba = r->ba;

	xls_buf_analyse(it, ba);
	rec->parsed = ba->parsed;
	rec->patch_off = rec->data_off = UINT32_MAX;
	/* xfs_buf_log_check_iovec: the fixed part and blf_map_size words */
	rec->bad_iovec = !ba->parsed || !xls_buf_format_iovec_ok(&ba->blf);
	if (!ba->parsed)
		return;
	rec->blf = ba->blf;
	rec->rlen_off = ts->nrlens;
	rec->nrlen = 0;
	for (uint32_t i = 1; i < it->nregions; i++) {
		uint32_t *l = xls_vec_push((void **)&ts->rlens, &ts->nrlens,
				       &ts->caprlens, sizeof(*l));

		if (!l) {
			r->err = -ENOMEM;
			return;
		}
		*l = it->regions[i].len;
		rec->nrlen++;
	}
	if (ba->blf.blf_flags & XFS_BLF_CANCEL)
		return;
	if (ba->blf.blf_flags & XFS_BLF_INODE_BUF)
		capture_unlinked(r, ts, rec, it);
	else
		capture_patch(r, ts, rec, it, &ba->res);
	if ((r->opt.keep && ba->blf.blf_blkno == r->opt.keep_blkno) ||
	    (r->opt.keep_types & (1u << ba->blft)))
		capture_data(r, ts, rec, it, &ba->res);
}

/* ------------------------------------------------------------------ */
/* compound buffers: one format per extent of a multi-extent block */

static bool is_dir_type(unsigned int blft)
{
	switch (blft) {
	case XFS_BLFT_DIR_BLOCK_BUF: case XFS_BLFT_DIR_DATA_BUF:
	case XFS_BLFT_DIR_FREE_BUF: case XFS_BLFT_DIR_LEAF1_BUF:
	case XFS_BLFT_DIR_LEAFN_BUF: case XFS_BLFT_DA_NODE_BUF:
		return true;
	}
	return false;
}

/* The first bytes the item will leave in its buffer: state, then patch. */
static void item_head(struct xls_recover *r, struct tstore *ts,
		      const struct rrec *rec, struct rstate *st, uint8_t *out)
{
	const uint8_t *patch = xls_rstore_at(ts, rec->patch_off);

	memcpy(out, st->head, HEAD_BYTES);
	if (!patch) {
		if (rec->patch_off != UINT32_MAX)
			r->err = -EIO;
		return;
	}
	for (uint32_t c = 0; c < HEAD_CHUNKS; c++)
		if (rec->patch_mask & (1u << c))
			memcpy(out + (c << XFS_BLF_SHIFT), patch + (c << XFS_BLF_SHIFT),
			       XFS_BLF_CHUNK);
}

/*
 * Does the segment carry the block's header: the magic its type expects
 * and, on v5, the header's own daddr equal to the segment's (dir3 and da3
 * headers record xfs_buf_daddr(), the first extent's daddr)?
 */
static bool seg_is_block_start(struct xls_recover *r, struct tstore *ts,
			       const struct rrec *rec)
{
	struct rstate *st = xls_rstate_get(r, rec->blf.blf_blkno, rec->blf.blf_len);
	uint8_t head[HEAD_BYTES];
	unsigned int blft = xls_blft(rec->blf.blf_flags);
	const char *warn;
	uint64_t hblkno;

	if (!st)
		return false;
	item_head(r, ts, rec, st, head);
	if (xls_blk_validate_type(r->g, blft, head, st->head_len, &warn) != XLS_BLK_TYPE_OPS)
		return false;
	if (!r->g->crc)
		return true;
	hblkno = xls_blk_header_daddr(blft, head);
	return hblkno == (uint64_t)rec->blf.blf_blkno;
}

static void close_group(struct xls_recover *r, struct tstore *ts, uint32_t first,
			uint32_t n, uint32_t *ncompound)
{
	struct rrec head, s;
	uint32_t total = 0;
	bool exact;

	if (!n)
		return;
	xls_rstore_rec(ts, first, &head);
	/* one da_node block start alone may well be a whole attr block */
	if (n == 1 && head.block_start &&
	    xls_blft(head.blf.blf_flags) == XFS_BLFT_DA_NODE_BUF)
		return;
	for (uint32_t i = 0; i < n; i++)
		total += (uint32_t)xls_rstore_rec(ts, first + i, &s)->blf.blf_len * BBSIZE;
	exact = head.block_start && total == r->g->dir_block_size;
	(*ncompound)++;
	r->sum.compound_buffers++;
	r->sum.compound_segments += n;
	total = 0;
	for (uint32_t i = 0; i < n; i++) {
		xls_rstore_rec(ts, first + i, &s);
		s.compound = *ncompound;
		s.seg = i + 1;
		s.nseg = n;
		s.seg_offset = total;
		s.seg_exact = exact || (head.block_start && i == 0);
		total += (uint32_t)s.blf.blf_len * BBSIZE;
		if (xls_rstore_update(ts, first + i, &s))
			r->err = -ENOMEM;
	}
}

void xls_rbuf_find_compounds(struct xls_recover *r, struct tstore *ts)
{
	uint32_t first = 0, n = 0, bytes = 0, ncompound = 0;
	uint16_t flags = 0;

	if (!r->g->dir_block_size || r->g->dir_block_size <= r->g->blocksize)
		return;
	for (uint32_t i = 0; i < ts->nrecs; i++) {
		struct rrec scratch;
		const struct rrec *rec = xls_rstore_rec(ts, i, &scratch);
		uint32_t seg_bytes = (uint32_t)rec->blf.blf_len * BBSIZE;
		bool cand = rec->type == XFS_LI_BUF && rec->parsed &&
			    !(rec->blf.blf_flags & XFS_BLF_INODE_BUF) &&
			    is_dir_type(xls_blft(rec->blf.blf_flags)) &&
			    seg_bytes < r->g->dir_block_size;

		if (!cand) {
			close_group(r, ts, first, n, &ncompound);
			n = 0;
			continue;
		}
		scratch.block_start = !(rec->blf.blf_flags & XFS_BLF_CANCEL) &&
				      seg_is_block_start(r, ts, rec);
		if (xls_rstore_update(ts, i, &scratch))
			r->err = -ENOMEM;
		if (n && rec->blf.blf_flags == flags && !rec->block_start &&
		    bytes + seg_bytes <= r->g->dir_block_size) {
			n++;
			bytes += seg_bytes;
			continue;
		}
		close_group(r, ts, first, n, &ncompound);
		first = i;
		n = 1;
		bytes = seg_bytes;
		flags = rec->blf.blf_flags;
	}
	close_group(r, ts, first, n, &ncompound);
}

/* ------------------------------------------------------------------ */
/* pass 2: deciding */

/* xlog_recover_get_buf_lsn() on the simulated block, into a decision. */
static void decide_by_block(struct decide_ctx *d, struct rstate *st)
{
	struct xls_recover *r = d->r;
	struct xls_rbuf *rb = &d->rb;
	unsigned int blft = rb->blft;
	struct blk_id id;
	const char *where;

	rb->block_read = st->readable || st->replayed;
	rb->from_replay = st->replayed;
	rb->block_absent = !st->replayed && st->absent;
	if (rb->block_absent)
		r->sum.absent_reads++;
	where = st->replayed ? "as recovery left it" : "on disk";
	xls_blk_identify(r->g, st->head, st->head_len, &id);
	rb->magic = id.magic;
	rb->magic_name = id.name;
	if (!r->data_dev) {
		xls_decide_always(d, XLS_RR_UNREAD, "no data device to read the block from: recovery "
			   "replays it unless the block carries a newer LSN");
		return;
	}
	if (!r->g->crc) {
		xls_decide_always(d, XLS_RR_V4, "v4 filesystem: no LSN to compare");
		return;
	}
	if (!rb->block_read) {
		xls_decide_always(d, XLS_RR_UNREAD, "the block cannot be read: recovery would fail to read it");
		return;
	}
	if (!r->g->has_rtgroups && (blft == XFS_BLFT_RTBITMAP_BUF ||
			       blft == XFS_BLFT_RTSUMMARY_BUF)) {
		xls_decide_always(d, XLS_RR_RT_NO_HEADER, "rt bitmap and summary blocks carry no LSN");
		return;
	}
	switch (id.kind) {
	case BLK_ATTR_RMT:
		xls_decide_always(d, XLS_RR_ATTR_RMT, "remote attribute block (%s): written synchronously, no LSN", where);
		return;
	case BLK_DQUOT:
		xls_decide_always(d, XLS_RR_DQUOT_BUF, "dquot block (%s): each dquot has its own LSN", where);
		return;
	case BLK_DINODE:
		xls_decide_always(d, XLS_RR_INODE_BUF, "inode block (%s): each inode has its own LSN", where);
		return;
	case BLK_UNKNOWN:
		xls_decide_always(d, XLS_RR_UNKNOWN_MAGIC, "no known magic at the block start %s (0x%08x)",
			   where, id.magic);
		return;
	case BLK_LSN:
		break;
	}
	if (memcmp(st->head + id.uuid_off, r->g->meta_uuid, 16) != 0) {
		char u[40];

		uuid_unparse_lower(st->head + id.uuid_off, u);
		xls_decide_always(d, XLS_RR_FOREIGN_UUID, "%s block %s carries UUID %s, not this filesystem's",
			   id.name, where, u);
		return;
	}
	rb->has_lsn = true;
	rb->block_lsn = xls_be64(st->head + id.lsn_off);
	if (rb->block_lsn == NULL_LSN) {
		xls_decide_always(d, XLS_RR_LSN_NULL, "%s block %s has LSN -1", id.name, where);
		return;
	}
	if (rb->block_lsn != 0 && rb->block_lsn >= d->t->lsn) {
		d->ri.decision = XLS_RD_SKIP_LSN;
		d->ri.reason = XLS_RWHY_LSN_NEWER;
		xls_rdetail(d, "%s block LSN %u/%u %s >= %u/%u", id.name,
			    xls_lsn_cycle(rb->block_lsn), xls_lsn_block(rb->block_lsn),
			    where, xls_lsn_cycle(d->t->lsn), xls_lsn_block(d->t->lsn));
		return;
	}
	d->ri.decision = XLS_RD_REPLAY;
	d->ri.reason = rb->block_lsn ? XLS_RWHY_LSN_OLDER : XLS_RWHY_LSN_ZERO;
	xls_rdetail(d, "%s block LSN %u/%u %s < %u/%u", id.name,
		    xls_lsn_cycle(rb->block_lsn), xls_lsn_block(rb->block_lsn),
		    where, xls_lsn_cycle(d->t->lsn), xls_lsn_block(d->t->lsn));
}

/*
 * The write verifier of a replayed v5 buffer checks the header it writes:
 * the UUID is this filesystem's and the recorded daddr the buffer's own
 * (xfs_dir3_data_verify, xfs_btree_sblock_v5hdr_verify, ...).  What it
 * will find; recovery fails only when the buffer is written.
 */
static const char *check_written(const struct xls_recover *r, const struct rstate *st)
{
	struct blk_id id;

	if (!st->readable && !st->replayed)
		return NULL;
	/* xfs_sb_write_verify runs xfs_validate_sb_common on what it writes */
	if (st->head_len >= 512 && xls_be32(st->head) == XFS_SB_MAGIC &&
	    xls_sb_geometry_refused(st->head))
		return xls_sb_geometry_refused(st->head);
	xls_blk_identify(r->g, st->head, st->head_len, &id);
	if (id.kind != BLK_LSN)
		return NULL;
	if (memcmp(st->head + id.uuid_off, r->g->meta_uuid, 16) != 0)
		return "the header still carries a foreign UUID after replay";
	if (id.blkno_off && id.blkno_off + 8 <= st->head_len &&
	    xls_be64(st->head + id.blkno_off) != (uint64_t)st->blkno)
		return "the header records another daddr after replay";
	return NULL;
}

/* What the buffer's write verifier will find, as this replay leaves it. */
static void set_write_fail(struct decide_ctx *d, struct rstate *st, const char *what)
{
	st->write_fail = what;
	st->fail_tid = d->t->tid;
	d->ri.write_fails = what;
}

/* Replay into the simulated head; validate and queue as the kernel does. */
static void apply_replay(struct decide_ctx *d, const struct rrec *rec,
			 struct rstate *st)
{
	struct xls_recover *r = d->r;
	struct xls_rbuf *rb = &d->rb;
	const char *warn = NULL;
	bool dquot = rec->blf.blf_flags &
		     (XFS_BLF_UDQUOT_BUF | XFS_BLF_PDQUOT_BUF | XFS_BLF_GDQUOT_BUF);

	if (rec->blf.blf_flags & XFS_BLF_INODE_BUF) {
		/* only di_next_unlinked fields: magic and LSN stay as they are */
		st->has_ops = false;
		xls_rstate_queue(r, st);
		/* v5 attaches the inode buffer verifier, which wants inodes */
		if (r->g->crc) {
			st->verifier = true;
			set_write_fail(d, st, st->head_len < 2 || xls_be16(st->head) != XFS_DINODE_MAGIC ?
				       "the inode buffer verifier finds no inode" : NULL);
		}
		return;
	}
	item_head(r, d->ts, rec, st, st->head);
	if (rec->patch_mask)
		st->replayed = true;
	if (dquot) {
		/* xlog_recover_do_dquot_buffer: NULLCOMMITLSN, nothing stamped */
		if (r->g->crc && st->head_len >= 2 && xls_be16(st->head) == XFS_DQUOT_MAGIC)
			st->verifier = true;
		xls_rstate_queue(r, st);
		return;
	}
	if (r->g->crc) {
		st->has_ops = xls_blk_validate_type(r->g, rb->blft, st->head, st->head_len,
						    &warn) == XLS_BLK_TYPE_OPS;
		st->verifier |= st->has_ops;
		rb->kernel_warning = warn;
		if (warn)
			r->sum.kernel_warnings++;
		if (st->has_ops) {
			st->stamp_lsn = d->t->lsn;
			set_write_fail(d, st, check_written(r, st));
		}
	}
	xls_rstate_queue(r, st);
}

/*
 * xlog_recover_do_primary_sb_buffer: the primary superblock, replayed,
 * becomes the in-core one (a growfs); an AG count that shrinks fails
 * recovery there, before any write-back.
 */
static void primary_sb(struct decide_ctx *d, const struct rstate *st)
{
	struct xls_recover *r = d->r;
	uint32_t agcount;

	if (d->rb.blft != XFS_BLFT_SB_BUF || d->rb.blkno != XFS_SB_DADDR || st->head_len < 512 ||
	    !st->replayed)
		return;
	agcount = xls_be32(st->head + offsetof(struct xfs_dsb, sb_agcount));
	if (agcount >= r->sb_agcount) {
		r->sb_agcount = agcount;
		return;
	}
	d->ri.decision = XLS_RD_FAIL;
	d->ri.reason = XLS_RWHY_AGCOUNT_SHRINK;
	d->ri.fail_why = "Shrinking AG count in log recovery not supported";
	xls_recover_fail(r, d->t->lsn, (struct xls_rfail){ XLS_RSTOP_PASS2, XLS_RCAUSE_METADATA,
			 XLS_EFSCORRUPTED }, "Shrinking AG count in log recovery not supported",
			 "transaction 0x%08x: the primary superblock it logs has %u AGs, %u before: "
			 "recovery cannot shrink a filesystem", d->t->tid, agcount, r->sb_agcount);
}

static void seg_notes(struct decide_ctx *d, const struct rrec *rec, struct rstate *st)
{
	struct xls_rbuf *rb = &d->rb;
	bool replayed = d->ri.decision == XLS_RD_REPLAY ||
			d->ri.decision == XLS_RD_REPLAY_ALWAYS;
	unsigned int blft = rb->blft;

	if (!rec->compound)
		return;
	rb->compound = rec->compound;
	rb->seg = rec->seg;
	rb->nseg = rec->nseg;
	rb->block_bytes = d->r->g->dir_block_size;
	rb->seg_offset = rec->seg_offset;
	rb->seg_offset_exact = rec->seg_exact;
	rb->block_start = rec->block_start;
	if (rec->blf.blf_flags & XFS_BLF_CANCEL) {
		rb->seg_note = "a cancel of one extent of the block";
		return;
	}
	if (!rec->block_start) {
		rb->seg_note = "starts inside the block: recovery reads it as a buffer of its own, "
			       "where the magic its type expects cannot be";
		return;
	}
	rb->seg_note = "carries the block header: recovery reads it as a buffer of its own, "
		       "shorter than the block";
	if (!replayed || !d->r->g->crc || rb->kernel_warning)
		return;
	if (blft == XFS_BLFT_DIR_DATA_BUF || blft == XFS_BLFT_DIR_BLOCK_BUF)
		set_write_fail(d, st, xls_short_dir_fail);
	else
		d->ri.write_fails = "the block's verifier runs on this shorter buffer, and may fail";
}

/* Recovery's placement of @rec's regions again, from the lengths kept. */
static void place_regions(struct xls_recover *r, const struct tstore *ts,
			  const struct rrec *rec)
{
	struct xls_item it;

	for (uint32_t i = 0; i < rec->nrlen && i + 1 < XLS_MAX_REGIONS_IN_ITEM; i++) {
		r->regs[i + 1].data = NULL;
		r->regs[i + 1].len = ts->rlens[rec->rlen_off + i];
	}
	r->regs[0].data = NULL;
	r->regs[0].len = (uint32_t)(offsetof(struct xfs_buf_log_format, blf_data_map) +
				    4 * rec->blf.map_words);
	memset(&it, 0, sizeof(it));
	it.type = XFS_LI_BUF;
	it.nregions = rec->nrlen + 1 < XLS_MAX_REGIONS_IN_ITEM ? rec->nrlen + 1 :
		      XLS_MAX_REGIONS_IN_ITEM;
	it.regions = r->regs;
	xls_region_reconstruct(&it, &rec->blf, r->res);
}

void xls_rbuf_fill(struct decide_ctx *d, const struct rrec *rec)
{
	struct xls_recover *r = d->r;
	struct xls_rbuf *rb = &d->rb;

	memset(rb, 0, sizeof(*rb));
	rb->magic_name = "";
	rb->blkno = rec->blf.blf_blkno;
	rb->len = rec->blf.blf_len;
	rb->blf_flags = rec->blf.blf_flags;
	rb->blft = xls_blft(rec->blf.blf_flags);
	rb->blf = &rec->blf;
	rb->res = r->res;
	/* no one looks at the regions of a buffer history does not show */
	if (d->quiet && rec->data_off == UINT32_MAX)
		memset(r->res, 0, offsetof(struct xls_region_result, places));
	else
		place_regions(r, d->ts, rec);
	rb->dirty_pct = r->res->buf_bytes ?
			100.0 * (double)r->res->dirty_bytes / (double)r->res->buf_bytes : 0;
	rb->nunlinked = rec->nunl;
	rb->unlinked = rec->nunl ? d->ts->unl + rec->unl_off : NULL;
	rb->data = xls_rstore_at(d->ts, rec->data_off);
	d->ri.buf = rb;
}

/*
 * A skipped buffer gets its read verifier run instead of the write one
 * (xlog_recover_buf_commit_pass2); what fails it fails recovery.  Two
 * checks every v5 verifier makes are modelled: the CRC over the buffer
 * (xfs_buf_verify_cksum) and the LSN not ahead of the log head
 * (xfs_log_check_lsn).  Only for a block still as it is on disk.
 */
static void verify_skipped(struct decide_ctx *d, struct rstate *st)
{
	struct xls_recover *r = d->r;
	struct xls_rbuf *rb = &d->rb;
	uint64_t bytes = (uint64_t)rb->len * BBSIZE;
	char says[XLS_RECOVER_WHY];
	struct blk_id id;
	uint8_t *buf;

	if (st->replayed || !st->readable)
		return;
	xls_blk_identify(r->g, st->head, st->head_len, &id);
	if (id.kind != BLK_LSN)
		return;
	if (rb->block_lsn > r->curr_lsn) {
		d->ri.fail_why = "the read verifier finds the block's LSN ahead of the log head "
				 "(Metadata has LSN ahead of current LSN): recovery fails";
		snprintf(says, sizeof(says), "Corruption warning: Metadata has LSN (%u:%u) ahead of "
			 "current LSN (%u:%u). Please unmount and run xfs_repair (>= v4.3) to "
			 "resolve.", xls_lsn_cycle(rb->block_lsn), xls_lsn_block(rb->block_lsn),
			 xls_lsn_cycle(r->curr_lsn), xls_lsn_block(r->curr_lsn));
		xls_recover_fail(r, d->t->lsn, (struct xls_rfail){ XLS_RSTOP_PASS2,
				 XLS_RCAUSE_METADATA, XLS_EFSCORRUPTED }, says,
				 "buffer 0x%llx: block LSN %u/%u is ahead of the log head",
		     (unsigned long long)rb->blkno, xls_lsn_cycle(rb->block_lsn),
		     xls_lsn_block(rb->block_lsn));
		return;
	}
	if (!id.crc_off || bytes > XFS_MAX_BLOCKSIZE || id.crc_off + 4 > bytes)
		return;
	buf = malloc(bytes);
	if (!buf) {
		r->err = -ENOMEM;
		return;
	}
	if (xls_source_read_data(r->src, (uint64_t)rb->blkno * BBSIZE, buf, bytes) == 0) {
		uint32_t crc, stored = xls_le32(buf + id.crc_off);

		memset(buf + id.crc_off, 0, 4);
		crc = xls_crc32c(buf, bytes);
		if (crc != stored) {
			d->ri.fail_why = "the read verifier finds a bad CRC in the block: "
					 "recovery fails (EFSBADCRC)";
			xls_blk_verifier_says(&id, rb->blkno, true, says, sizeof(says));
			xls_recover_fail(r, d->t->lsn, (struct xls_rfail){ XLS_RSTOP_PASS2,
					 XLS_RCAUSE_METADATA, XLS_EFSBADCRC }, says,
					 "buffer 0x%llx: skipped, and its on-disk CRC is bad",
					 (unsigned long long)rb->blkno);
		}
	}
	free(buf);
}

/* xlog_recover_buf_commit_pass2() for @rec. */
static void rbuf_decide(struct decide_ctx *d, const struct rrec *rec)
{
	struct xls_recover *r = d->r;
	struct xls_rbuf *rb = &d->rb;
	struct rstate *st;
	uint32_t *refs;

	xls_rbuf_fill(d, rec);
	r->sum.buffers++;
	refs = xls_hashmap_find(&r->cancel, (uint64_t)rb->blkno, rb->len);
	rb->cancel_refs = refs ? *refs : 0;
	if (rb->blf_flags & XFS_BLF_CANCEL) {
		if (refs) {
			d->ri.decision = XLS_RD_CANCEL;
			d->ri.reason = XLS_RWHY_CANCEL_RECORD;
			xls_rdetail(d, "drops a cancel reference: %u -> %u%s", *refs, *refs - 1,
				 *refs == 1 ? ", entry removed: later uses of the block replay" : "");
			if (--*refs == 0)
				xls_hashmap_del(&r->cancel, (uint64_t)rb->blkno, rb->len);
			return;
		}
		/* xlog_put_buffer_cancelled ASSERTs and goes on to replay */
	} else if (refs) {
		d->ri.decision = XLS_RD_SKIP_CANCELLED;
		d->ri.reason = XLS_RWHY_CANCELLED;
		xls_rdetail(d, "(0x%llx, %u) is cancelled later in the log: %u cancel record%s to come",
			 (unsigned long long)rb->blkno, rb->len, *refs, *refs == 1 ? "" : "s");
		return;
	}
	if (xls_recover_daddr_out_of_range(d, rb->blkno, rb->len, "buffer"))
		return;
	st = xls_rstate_get(r, rb->blkno, rb->len);
	if (!st) {
		r->err = -ENOMEM;
		return;
	}
	decide_by_block(d, st);
	if (rb->block_absent)
		xls_rdetail_append(d, ": the block is absent from the metadump (read as zeros)");
	/* the head as read, and after apply_replay as replayed */
	if (st->readable || st->replayed) {
		rb->head = st->head;
		rb->head_len = st->head_len;
	}
	if (d->ri.decision == XLS_RD_SKIP_LSN) {
		const char *warn;

		/* validate_buf_type(NULLCOMMITLSN) only warns of an unknown type */
		switch (xls_blk_validate_type(r->g, rb->blft, st->head, st->head_len, &warn)) {
		case XLS_BLK_TYPE_UNKNOWN:
			rb->kernel_warning = warn;
			r->sum.kernel_warnings++;
			break;
		case XLS_BLK_TYPE_BAD_MAGIC:
			break;
		case XLS_BLK_TYPE_OPS:
			verify_skipped(d, st);
			break;
		}
		seg_notes(d, rec, st);
		return;
	}
	if ((rb->blf_flags & XFS_BLF_INODE_BUF) && rec->unl_zero) {
		d->ri.decision = XLS_RD_FAIL;
		d->ri.reason = XLS_RWHY_BAD_UNLINKED;
		d->ri.fail_why = "Trying to replay bad (0) inode di_next_unlinked field";
		xls_recover_fail(r, d->t->lsn, (struct xls_rfail){ XLS_RSTOP_PASS2, XLS_RCAUSE_LOG,
				 XLS_EFSCORRUPTED }, "Internal error *logged_nextp == 0",
				 "transaction 0x%08x: inode buffer 0x%llx logs a di_next_unlinked of 0",
		     d->t->tid, (unsigned long long)rb->blkno);
		return;
	}
	if ((rb->blf_flags & (XFS_BLF_UDQUOT_BUF | XFS_BLF_PDQUOT_BUF | XFS_BLF_GDQUOT_BUF))) {
		uint32_t type = 0;

		if (rb->blf_flags & XFS_BLF_UDQUOT_BUF)
			type |= XFS_DQTYPE_USER;
		if (rb->blf_flags & XFS_BLF_PDQUOT_BUF)
			type |= XFS_DQTYPE_PROJ;
		if (rb->blf_flags & XFS_BLF_GDQUOT_BUF)
			type |= XFS_DQTYPE_GROUP;
		/* xlog_recover_do_dquot_buffer */
		if (!r->sum.quota_flags) {
			d->ri.decision = XLS_RD_SKIP_QUOTAOFF;
			d->ri.reason = XLS_RWHY_NOQUOTA;
			xls_rdetail(d, "the mount has no quota: dquot buffers are not replayed");
			return;
		}
		if (r->quotaoffs & type) {
			d->ri.decision = XLS_RD_SKIP_QUOTAOFF;
			d->ri.reason = XLS_RWHY_QUOTAOFF;
			xls_rdetail(d, "a QUOTAOFF item turned this quota type off");
			return;
		}
	}
	apply_replay(d, rec, st);
	primary_sb(d, st);
	seg_notes(d, rec, st);
}

static void rbuf_decide_parsed(struct decide_ctx *d, const struct rrec *rec)
{
	if (rec->parsed)
		rbuf_decide(d, rec);
	else
		xls_rdetail(d, "unreadable buffer format");
}

/*
 * xls_recover_opts.only_types: is buffer item @it one pass 2 leaves out?
 * A btree block is kept when its logged header says bmbt, or says nothing.
 */
static bool rbuf_left_out(const struct xls_recover *r, const struct xls_item *it)
{
	struct xls_buf_format blf;
	const char *why;
	unsigned int blft;

	if (xls_buf_format_parse(it, &blf, &why) || (blf.blf_flags & XFS_BLF_CANCEL))
		return false;
	blft = xls_blft(blf.blf_flags);
	if (r->opt.only_types & (1u << blft))
		return false;
	if (blft == XFS_BLFT_BTREE_BUF && (r->opt.only_types & (1u << XFS_BLFT_BTREE_BUF)))
		return false;
	if (blft == XFS_BLFT_BTREE_BUF && it->nregions > 1 && (blf.blf_data_map[0] & 1) &&
	    it->regions[1].data && it->regions[1].len >= 4) {
		uint32_t m = xls_be32(it->regions[1].data);

		return m != XFS_BMAP_MAGIC && m != XFS_BMAP_CRC_MAGIC;
	}
	return blft != XFS_BLFT_BTREE_BUF;
}

/* Does @rec write to the block kept for history (xls_recover_opts.keep_blkno)? */
static bool rbuf_writes_kept(const struct xls_recover *r, const struct rrec *rec)
{
	return rec->parsed && rec->blf.blf_blkno == r->opt.keep_blkno;
}

const struct xls_recover_ops xls_rbuf_ops = {
	.capture1	= rbuf_capture1,
	.commit1	= rbuf_commit1,
	.capture2	= rbuf_capture2,
	.decide		= rbuf_decide_parsed,
	.writes_kept	= rbuf_writes_kept,
	.left_out	= rbuf_left_out,
};
