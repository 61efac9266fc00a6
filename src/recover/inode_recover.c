/*
 * Recovery stage: inode items and icreate items.
 *
 *  - xlog_recover_inode_commit_pass2(): skipped when the cluster buffer is
 *    cancelled or the on-disk v3 inode's LSN is newer (v4: di_flushiter);
 *    a replay converts the log dinode to disk order (xfs_log_dinode_to_disk,
 *    di_lsn set to the transaction's LSN, di_next_unlinked left alone),
 *    writes the device number and the forks (a bmbt root converted to its
 *    on-disk form) and recomputes the inode CRC.
 *  - xlog_recover_icreate_commit_pass2(): one inode chunk at most; skipped
 *    when any of its cluster buffers is cancelled, else
 *    xfs_ialloc_inode_init() writes fresh inodes into each.
 *
 * What a replay writes is also exported (recover.h) for the image of a
 * buffer as recovery leaves it (replay/).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/crc32c.h"
#include "base/strfmt.h"
#include "recover/recover_priv.h"

#define LD(f)	offsetof(struct xfs_log_dinode, f)
#define DI(f)	offsetof(struct xfs_dinode, f)


/* ------------------------------------------------------------------ */
/* capture */

static void rinode_capture(struct xls_recover *r, struct tstore *ts, struct rrec *rec,
			   const struct xls_item *it)
{
	struct xls_item_problems p = { 0, 0, "" };
	struct xls_inode_item ino;
	struct rkept_inode kept;
	struct xls_rinode *k = &kept.ino;

	xls_inode_item_parse(it, &ino, &p);
	rec->ilf_fmt_len = ino.fmt_len;
	if (!ino.has_format || !ino.format_exact)
		return;
	rec->has_ino = true;
	rec->ino = ino.ilf_ino;
	rec->iblkno = ino.ilf_blkno;
	rec->ilen = (uint32_t)ino.ilf_len;
	rec->iboff = (uint32_t)ino.ilf_boffset;
	rec->ldi_flushiter = ino.has_core ? ino.core.di_flushiter : 0;
	/* history: what the item logged, when it writes into the kept buffer */
	if (!r->opt.keep_inodes && (!r->opt.keep || rec->iblkno != r->opt.keep_blkno))
		return;
	memset(&kept, 0, sizeof(kept));
	k->fields = ino.ilf_fields;
	k->rdev = ino.ilf_rdev;
	k->has_core = ino.has_core;
	k->core = ino.core;
	kept.dfork_off = kept.afork_off = UINT32_MAX;
	if (ino.data_fork) {
		kept.dfork_off = xls_rstore_bytes(ts, ino.data_fork->data, ino.data_fork->len);
		k->dfork_len = ino.data_fork->len;
	}
	if (ino.attr_fork) {
		kept.afork_off = xls_rstore_bytes(ts, ino.attr_fork->data, ino.attr_fork->len);
		k->afork_len = ino.attr_fork->len;
	}
	rec->kept_off = xls_rstore_bytes(ts, &kept, sizeof(kept));
	if ((ino.data_fork && kept.dfork_off == UINT32_MAX) ||
	    (ino.attr_fork && kept.afork_off == UINT32_MAX) || rec->kept_off == UINT32_MAX) {
		r->err = -ENOMEM;
		return;
	}
	rec->kept_inode = true;
}

static void ricreate_capture(struct xls_recover *r, struct tstore *ts, struct rrec *rec,
			     const struct xls_item *it)
{
	struct xls_item_problems p = { 0, 0, "" };
	struct xls_icreate_item ic;

	(void)r;
	(void)ts;
	xls_icreate_item_parse(it, &ic, &p);
	if (!ic.has_format)
		return;
	rec->has_icl = true;
	rec->icl.ag = ic.icl_ag;
	rec->icl.agbno = ic.icl_agbno;
	rec->icl.count = ic.icl_count;
	rec->icl.length = ic.icl_length;
	rec->icl.isize = ic.icl_isize;
	rec->icl.gen = ic.icl_gen;
}

static void inode_what(const struct rrec *rec, char *buf, size_t bufsz)
{
	if (rec->has_ino)
		xls_snprintf(buf, bufsz, "ino 0x%llx in buffer 0x%llx+%u",
			 (unsigned long long)rec->ino, (unsigned long long)rec->iblkno,
			 rec->iboff);
	else
		xls_snprintf(buf, bufsz, "inode format region of %u bytes", rec->ilf_fmt_len);
}

static void icreate_what(const struct rrec *rec, char *buf, size_t bufsz)
{
	if (rec->has_icl)
		snprintf(buf, bufsz, "initialise %u inodes at AG %u block 0x%x",
			 rec->icl.count, rec->icl.ag, rec->icl.agbno);
	else
		buf[0] = '\0';
}

/* ------------------------------------------------------------------ */
/* what a replay writes */

/* xfs_log_dinode_to_disk_ts(): bigtime is one 64-bit count, else sec, nsec */
static void put_ts(uint8_t *to, const struct xls_log_ts *ts, bool bigtime)
{
	if (bigtime) {
		xls_put_be64(to, ts->v);
		return;
	}
	xls_put_be32(to, (uint32_t)ts->sec);
	xls_put_be32(to + 4, (uint32_t)ts->nsec);
}

/* xfs_log_dinode_to_disk(): every field to big-endian, di_lsn = @lsn. */
static void log_dinode_to_disk(const struct xls_log_dinode *ld, uint8_t *dip,
			       uint64_t lsn)
{
	uint8_t version = (uint8_t)ld->di_version;
	uint64_t flags2 = xls_log_dinode_flags2(ld);
	bool bigtime = version >= 3 && (flags2 & XFS_DIFLAG2_BIGTIME);

	xls_put_be16(dip + DI(di_magic), ld->di_magic);
	xls_put_be16(dip + DI(di_mode), ld->di_mode);
	dip[DI(di_version)] = version;
	dip[DI(di_format)] = (uint8_t)ld->di_format;
	/* di_onlink, di_metatype since Linux 6.13: zero unless a metadata inode */
	xls_put_be16(dip + DI(di_onlink), ld->di_metatype);
	xls_put_be32(dip + DI(di_uid), ld->di_uid);
	xls_put_be32(dip + DI(di_gid), ld->di_gid);
	xls_put_be32(dip + DI(di_nlink), ld->di_nlink);
	xls_put_be16(dip + DI(di_projid_lo), ld->di_projid_lo);
	xls_put_be16(dip + DI(di_projid_hi), ld->di_projid_hi);
	put_ts(dip + DI(di_atime), &ld->di_atime, bigtime);
	put_ts(dip + DI(di_mtime), &ld->di_mtime, bigtime);
	put_ts(dip + DI(di_ctime), &ld->di_ctime, bigtime);
	xls_put_be64(dip + DI(di_size), (uint64_t)ld->di_size);
	xls_put_be64(dip + DI(di_nblocks), ld->di_nblocks);
	xls_put_be32(dip + DI(di_extsize), ld->di_extsize);
	dip[DI(di_forkoff)] = ld->di_forkoff;
	dip[DI(di_aformat)] = (uint8_t)ld->di_aformat;
	xls_put_be32(dip + DI(di_dmevmask), ld->di_dmevmask);
	xls_put_be16(dip + DI(di_dmstate), ld->di_dmstate);
	xls_put_be16(dip + DI(di_flags), ld->di_flags);
	xls_put_be32(dip + DI(di_gen), ld->di_gen);
	if (version == 3) {
		xls_put_be64(dip + DI(di_changecount), ld->di_changecount);
		put_ts(dip + DI(di_crtime), &ld->di_crtime, bigtime);
		xls_put_be64(dip + DI(di_flags2), flags2);
		xls_put_be32(dip + DI(di_cowextsize), ld->di_cowextsize);
		xls_put_be64(dip + DI(di_ino), ld->di_ino);
		xls_put_be64(dip + DI(di_lsn), lsn);
		memset(dip + DI(di_pad2), 0, sizeof(((struct xfs_dinode *)0)->di_pad2));
		memcpy(dip + DI(di_uuid), ld->di_uuid, 16);
		xls_put_be64(dip + DI(di_v3_pad), 0);
	} else {
		/*
		 * xlog_recover_inode_commit_pass2 "takes the opportunity to
		 * reset the flush iteration count" of a v1/v2 inode it replays
		 */
		xls_put_be16(dip + DI(di_flushiter), 0);
		memset(dip + DI(di_v2_pad), 0, 6);
	}
	/* the unions: the same bytes read as the other members */
	if (version >= 3 && (flags2 & XFS_DIFLAG2_NREXT64)) {
		xls_put_be64(dip + DI(di_big_nextents), ld->di_big_nextents);
		xls_put_be32(dip + DI(di_big_anextents), ld->di_nextents);
		xls_put_be16(dip + DI(di_nrext64_pad), ld->di_anextents);
	} else {
		xls_put_be32(dip + DI(di_nextents), ld->di_nextents);
		xls_put_be16(dip + DI(di_anextents), ld->di_anextents);
	}
}

/*
 * xfs_bmbt_to_bmdr(): an in-memory bmbt root (long btree header, keys,
 * pointers after maxrecs keys) to the on-disk root (level, numrecs, keys,
 * pointers after the fork's maxrecs keys).  Bounded by both sizes.
 */
static void bmbt_to_bmdr(bool crc, const uint8_t *rb, uint32_t rlen, uint8_t *db,
			 uint32_t dlen)
{
	uint32_t hdr = crc ? XFS_BTREE_LBLOCK_CRC_LEN : XFS_BTREE_LBLOCK_LEN;
	uint32_t rmax, dmax, n;

	if (rlen < hdr || dlen < 4)
		return;
	rmax = (rlen - hdr) / 16;
	dmax = (dlen - 4) / 16;
	n = xls_be16(rb + 6);
	memcpy(db, rb + 4, 4);		/* bb_level, bb_numrecs */
	if (n > rmax)
		n = rmax;
	if (n > dmax)
		n = dmax;
	memcpy(db + 4, rb + hdr, (size_t)n * 8);
	memcpy(db + 4 + (size_t)dmax * 8, rb + hdr + (size_t)rmax * 8, (size_t)n * 8);
}

static void copy_fork(const uint8_t *fork, uint32_t len, uint32_t kind_flags,
		      bool crc, uint8_t *dst, uint32_t room)
{
	if (!fork)
		return;
	if (kind_flags & (XFS_ILOG_DBROOT | XFS_ILOG_ABROOT)) {
		bmbt_to_bmdr(crc, fork, len, dst, room);
		return;
	}
	memcpy(dst, fork, len < room ? len : room);
}

int xls_recover_apply_dinode(const struct xls_geometry *g, const struct xls_rinode *in,
			     uint64_t lsn, uint8_t *dip, const char **why)
{
	const struct xls_log_dinode *ld;
	uint32_t isize = g->inode_size, core, lit, forkoff, dsize, asize;

	*why = NULL;
	if (!in || !isize || !in->has_core) {
		*why = "inode item regions not kept";
		return -1;
	}
	if (xls_be16(dip) != XFS_DINODE_MAGIC) {
		*why = "Bad inode magic number: recovery fails";
		return -1;
	}
	/* a v3 log dinode is the whole struct, an older one ends before di_next_unlinked */
	ld = &in->core;
	if (ld->len < (ld->di_version >= 3 ? XLS_LOG_DINODE_V3_SIZE : XLS_LOG_DINODE_V2_SIZE) ||
	    ld->di_magic != XFS_DINODE_MAGIC) {
		*why = "Bad inode log record: recovery fails";
		return -1;
	}
	log_dinode_to_disk(ld, dip, lsn);
	core = dip[DI(di_version)] >= 3 ? sizeof(struct xfs_dinode) : DI(di_crc);
	lit = isize > core ? isize - core : 0;
	forkoff = (uint32_t)dip[DI(di_forkoff)] << 3;
	dsize = forkoff && forkoff < lit ? forkoff : lit;
	asize = forkoff && forkoff < lit ? lit - forkoff : 0;
	if (in->fields & XFS_ILOG_DEV && lit >= 4)
		xls_put_be32(dip + core, in->rdev);
	if (in->fields & XFS_ILOG_DFORK)
		copy_fork(in->dfork, in->dfork_len, in->fields & XFS_ILOG_DFORK, g->crc,
			  dip + core, dsize);
	if (in->fields & XFS_ILOG_AFORK)
		copy_fork(in->afork, in->afork_len, in->fields & XFS_ILOG_AFORK, g->crc,
			  dip + core + dsize, asize);
	return 0;
}

int xls_recover_apply_inode(const struct xls_geometry *g, const struct xls_ritem *ri,
			    uint64_t lsn, uint8_t *buf, uint32_t len, bool no_crc,
			    const char **why)
{
	uint32_t isize = g->inode_size;

	*why = NULL;
	if (!ri->inode || !isize || !ri->inode->has_core) {
		*why = "inode item regions not kept";
		return -1;
	}
	if ((uint64_t)ri->ino_boffset + isize > len) {
		*why = "ilf_boffset past the buffer";
		return -1;
	}
	if (xls_recover_apply_dinode(g, ri->inode, lsn, buf + ri->ino_boffset, why))
		return -1;
	if (g->crc && !no_crc)
		xls_recover_inode_crc(buf, len, isize, ri->ino_boffset / isize);
	return 0;
}

uint32_t xls_recover_cluster_bb(const struct xls_geometry *g)
{
	return g->inode_cluster_blocks && g->block_log ?
	       g->inode_cluster_blocks << (g->block_log - 9) : 0;
}

/* The daddr of cluster buffer @i of icreate @ic. */
static uint64_t icreate_daddr(const struct xls_geometry *g, const struct xls_ricreate *ic,
			      uint32_t i)
{
	return ((uint64_t)ic->ag * g->ag_blocks + ic->agbno +
		(uint64_t)i * g->inode_cluster_blocks) << (g->block_log - 9);
}

int xls_recover_icreate_each(const struct xls_geometry *g, const struct xls_ritem *ri,
			     xls_icreate_cluster_fn cluster, void *ctx)
{
	const struct xls_ricreate *ic = ri->icreate;
	uint32_t bb = xls_recover_cluster_bb(g);
	int done = 0;

	if (!ic || ri->decision != XLS_RD_REPLAY || !g->inode_cluster_blocks || !g->ag_blocks ||
	    !g->inode_size || !bb)
		return 0;
	for (uint32_t j = 0; j < ic->length / g->inode_cluster_blocks; j++) {
		uint8_t *buf = NULL;
		int got = cluster(ctx, (int64_t)icreate_daddr(g, ic, j), bb, &buf);

		if (got < 0)
			return -1;
		if (got == 0 || !buf)
			continue;
		xls_recover_init_inodes(g, ic, j, buf, bb * BBSIZE);
		done++;
	}
	return done;
}

bool xls_recover_apply_icreate(const struct xls_geometry *g, const struct xls_ritem *ri,
			       int64_t blkno, uint8_t *buf, uint32_t len)
{
	const struct xls_ricreate *ic = ri->icreate;
	uint32_t nbufs;

	if (!ic || ri->decision != XLS_RD_REPLAY || !g->inode_cluster_blocks ||
	    !g->ag_blocks || !g->inode_size)
		return false;
	nbufs = ic->length / g->inode_cluster_blocks;
	if (len != xls_recover_cluster_bb(g) * BBSIZE)
		return false;
	for (uint32_t j = 0; j < nbufs; j++) {
		if (icreate_daddr(g, ic, j) != (uint64_t)blkno)
			continue;
		xls_recover_init_inodes(g, ic, j, buf, len);
		return true;
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* deciding */

/* The LSN the last replay of inode @ino wrote into it, or 0. */
static uint64_t ino_replayed_lsn(const struct xls_recover *r, uint64_t ino)
{
	uint32_t i = xls_inoidx_find(&r->inolsn, ino);

	return i < r->nlsns ? r->lsns[i] : 0;
}

static void ino_set_lsn(struct xls_recover *r, uint64_t ino, uint64_t lsn)
{
	/* transactions come in LSN order: the last LSN kept, or a new one */
	if (!r->nlsns || r->lsns[r->nlsns - 1] != lsn) {
		uint64_t *l = xls_vec_push((void **)&r->lsns, &r->nlsns, &r->caplsns, sizeof(*l));

		if (!l) {
			r->err = -ENOMEM;
			return;
		}
		*l = lsn;
	}
	if (xls_inoidx_put(&r->inolsn, ino, r->nlsns - 1))
		r->err = -ENOMEM;
}

bool xls_rstate_icreated(struct xls_recover *r, int64_t blkno, uint32_t len)
{
	const uint32_t *idx = xls_hashmap_find(&r->bufidx, (uint64_t)blkno, len);

	return idx && r->states[*idx].icreated;
}

/*
 * xlog_recover_icreate_commit_pass2(): skipped when any of its cluster
 * buffers is cancelled, else xfs_ialloc_inode_init() writes fresh inodes
 * into each: their buffers then carry the inode magic.
 */
static void ricreate_decide(struct decide_ctx *d, const struct rrec *rec)
{
	struct xls_recover *r = d->r;
	const struct xls_geometry *g = r->g;
	uint32_t nbufs, cancelled = 0, bb;

	char what[96];

	icreate_what(rec, what, sizeof(what));
	xls_rdetail(d, "%s", what);
	if (!rec->has_icl || !g->inode_cluster_blocks || !g->ag_blocks)
		return;
	/* xlog_recover_icreate_commit_pass2: one inode chunk at most */
	if (!rec->icl.count || !rec->icl.length || rec->icl.length % g->inode_cluster_blocks ||
	    (uint64_t)rec->icl.length << g->block_log > 64ull * g->inode_size ||
	    !rec->icl.agbno || rec->icl.agbno >= g->ag_blocks ||
	    (g->ag_count && rec->icl.ag >= g->ag_count)) {
		d->ri.decision = XLS_RD_FAIL;
		d->ri.reason = XLS_RWHY_BAD_ICREATE;
		d->ri.fail_why = "bad icreate parameters: recovery fails";
		xls_recover_fail(r, d->t->lsn, (struct xls_rfail){ XLS_RSTOP_PASS2, XLS_RCAUSE_LOG,
				 XLS_EINVAL }, "xlog_recover_do_icreate_trans: bad ...",
				 "transaction 0x%08x: bad icreate item", d->t->tid);
		return;
	}
	nbufs = rec->icl.length / g->inode_cluster_blocks;
	bb = g->inode_cluster_blocks << (g->block_log - 9);
	for (uint32_t i = 0; i < nbufs; i++) {
		uint64_t daddr = icreate_daddr(g, &rec->icl, i);

		if (xls_hashmap_find(&r->cancel, daddr, bb))
			cancelled++;
	}
	if (cancelled) {
		d->ri.decision = XLS_RD_SKIP_CANCELLED;
		d->ri.reason = XLS_RWHY_CANCELLED;
		xls_rdetail(d, "%s: %u of %u cluster buffers cancelled%s",
			 what, cancelled, nbufs,
			 cancelled != nbufs ? " (partial inode chunk cancellation, skipped icreate)" : "");
		return;
	}
	/* xfs_ialloc_inode_init gets each cluster's buffer: in range, or it fails */
	for (uint32_t i = 0; i < nbufs; i++)
		if (xls_recover_daddr_out_of_range(d, (int64_t)icreate_daddr(g, &rec->icl, i), bb,
						   "inode cluster of an icreate"))
			return;
	d->ri.decision = XLS_RD_REPLAY;
	d->ri.reason = XLS_RWHY_ICREATE;
	for (uint32_t i = 0; i < nbufs; i++) {
		struct rstate *st = xls_rstate_icreate(r, (int64_t)icreate_daddr(g, &rec->icl, i),
						       bb, &rec->icl, i);

		if (!st) {
			r->err = -ENOMEM;
			return;
		}
		st->replayed = true;
		st->has_ops = false;
		/* xfs_ialloc_inode_init: inode buffer verifier, fresh inodes */
		st->verifier = r->g->crc;
		st->write_fail = NULL;
		xls_rstate_queue(r, st);
	}
}

/* The largest cluster buffer read to verify it; inode clusters are 64 KiB at most. */
#define INOBUF_MAX	(256u * 1024)
#define INOBUF_GOOD	UINT32_MAX

/*
 * xfs_inode_buf_verify, as the read of an inode item's cluster buffer
 * from the device runs it: every inode of it must carry the inode magic,
 * a version the superblock allows, and a di_next_unlinked that is
 * NULLAGINO or an inode of the AG (bounded here by the AG's size; the
 * kernel also refuses the inodes of the AG headers' blocks).  The slot of
 * the first bad inode, or INOBUF_GOOD.
 */
static uint32_t inobuf_verify(const struct xls_geometry *g, const uint8_t *buf, uint32_t bytes)
{
	uint64_t agino_end = g->ag_blocks ? (uint64_t)g->ag_blocks << g->inopb_log : UINT64_MAX;

	for (uint32_t i = 0; (uint64_t)(i + 1) * g->inode_size <= bytes; i++) {
		const uint8_t *dip = buf + (size_t)i * g->inode_size;
		uint8_t version = dip[offsetof(struct xfs_dinode, di_version)];
		uint32_t unlinked = xls_be32(dip + offsetof(struct xfs_dinode, di_next_unlinked));

		if (xls_be16(dip) != XFS_DINODE_MAGIC ||
		    (g->crc ? version != 3 : version != 1 && version != 2) ||
		    (unlinked != NULLAGINO && unlinked >= agino_end))
			return i;
	}
	return INOBUF_GOOD;
}

/* The slot of the inode at @blkno, @boffset among those kept. */
static struct rdisk_ino *disk_slot(struct xls_recover *r, int64_t blkno, uint32_t boffset)
{
	uint64_t h = ((uint64_t)blkno * 0x9e3779b97f4a7c15ull) ^ boffset;

	if (!r->diskinos &&
	    !(r->diskinos = calloc(XLS_RECOVER_DISKINO_SLOTS, sizeof(*r->diskinos))))
		return NULL;
	return &r->diskinos[(h ^ (h >> 29)) & (XLS_RECOVER_DISKINO_SLOTS - 1)];
}

/* What the decision reads of the inode @dino, at @boffset of cluster @blkno. */
static void disk_fields(const uint8_t *dino, int64_t blkno, uint32_t boffset,
			struct rdisk_ino *out)
{
	out->blkno = blkno;
	out->boffset = boffset;
	out->magic = xls_be16(dino) == XFS_DINODE_MAGIC;
	out->version = dino[offsetof(struct xfs_dinode, di_version)];
	out->lsn = xls_be64(dino + offsetof(struct xfs_dinode, di_lsn));
	out->flushiter = xls_be16(dino + offsetof(struct xfs_dinode, di_flushiter));
	out->used = true;
}

/*
 * The inodes of cluster @blkno, just read (@bytes of @buf), kept for
 * disk_inode(): an item of any of them finds its inode without a read of
 * its own.  The device does not change, so what is kept stays true.
 */
static void keep_cluster(struct xls_recover *r, int64_t blkno, const uint8_t *buf,
			 uint64_t bytes)
{
	for (uint32_t off = 0; off + sizeof(struct xfs_dinode) <= bytes; off += r->g->inode_size) {
		struct rdisk_ino *slot = disk_slot(r, blkno, off);

		if (!slot)
			return;
		disk_fields(buf + off, blkno, off, slot);
	}
}

/*
 * The first inode item of a cluster buffer reads it from the device with
 * the inode buffer verifier (xfs_buf_read(..., &xfs_inode_buf_ops)); the
 * verdict is kept for the later ones, which find it in the buffer cache.
 * A buffer an earlier replay or icreate of this recovery wrote is not
 * judged: only its first 512 bytes are simulated.
 */
static uint32_t inobuf_check(struct xls_recover *r, int64_t blkno, uint32_t len)
{
	const uint32_t *seen = xls_hashmap_find(&r->inobufs, (uint64_t)blkno, len);
	const uint32_t *idx = xls_hashmap_find(&r->bufidx, (uint64_t)blkno, len);
	uint64_t bytes = (uint64_t)len * BBSIZE;
	uint32_t verdict = INOBUF_GOOD;
	uint8_t *buf;

	if (seen)
		return *seen;
	if (!r->data_dev || !r->g->inode_size || blkno < 0 || !len || bytes > INOBUF_MAX ||
	    (idx && (r->states[*idx].replayed || r->states[*idx].icreated)))
		return INOBUF_GOOD;
	buf = malloc(bytes);
	if (!buf) {
		r->err = -ENOMEM;
		return INOBUF_GOOD;
	}
	if (xls_source_read_data(r->src, (uint64_t)blkno * BBSIZE, buf, bytes) == 0) {
		verdict = inobuf_verify(r->g, buf, (uint32_t)bytes);
		keep_cluster(r, blkno, buf, bytes);
	}
	free(buf);
	if (xls_hashmap_put(&r->inobufs, (uint64_t)blkno, len, verdict))
		r->err = -ENOMEM;
	return verdict;
}

/*
 * The inode of @rec as the device holds it (where the item says it lies,
 * as the kernel reads it), from what an earlier item read or into @buf;
 * NULL when it cannot be read (no data device, out of range, an I/O
 * error).
 */
static const struct rdisk_ino *disk_inode(struct xls_recover *r, const struct rrec *rec,
					  struct rdisk_ino *buf)
{
	const struct rdisk_ino *kept = disk_slot(r, rec->iblkno, rec->iboff);
	uint8_t dino[sizeof(struct xfs_dinode)];

	if (kept && kept->used && kept->blkno == rec->iblkno && kept->boffset == rec->iboff)
		return kept;
	if (!r->data_dev || rec->iblkno < 0 || (uint64_t)rec->iblkno >= (UINT64_MAX >> 10) ||
	    xls_source_read_data(r->src, (uint64_t)rec->iblkno * BBSIZE + rec->iboff, dino,
				 sizeof(dino)))
		return NULL;
	disk_fields(dino, rec->iblkno, rec->iboff, buf);
	return buf;
}

/*
 * Keep what was read of an inode the item did not replay, for its next
 * items, in the slot of its place (the last one read there): a replayed
 * v5 inode is judged by its replay's LSN from then on, and needs none.
 */
static void keep_disk_inode(struct xls_recover *r, const struct rdisk_ino *di)
{
	struct rdisk_ino *slot = disk_slot(r, di->blkno, di->boffset);

	if (slot)
		*slot = *di;
}

/*
 * xlog_recover_inode_commit_pass2, as far as the decision goes: skipped
 * when the cluster buffer is cancelled, or when the v3 inode's LSN is
 * newer than the transaction (strictly: checkpoints can share an LSN), or
 * on v4 when its di_flushiter is.  A replay writes the transaction's LSN
 * into di_lsn (xfs_log_dinode_to_disk).
 */
static void rinode_decide(struct decide_ctx *d, const struct rrec *rec)
{
	struct xls_recover *r = d->r;
	const struct rdisk_ino *disk = NULL;
	struct rdisk_ino read;
	uint64_t lsn = 0;
	const char *where = "on disk";
	bool v3 = false;
	uint32_t slot;

	/* the detail begins with what the item is; the decision follows it */
	if (!d->quiet)
		inode_what(rec, d->ri.detail, sizeof(d->ri.detail));
	d->ri.has_ino = rec->has_ino;
	d->ri.ino = rec->ino;
	d->ri.ino_blkno = rec->iblkno;
	d->ri.ino_len = rec->ilen;
	d->ri.ino_boffset = rec->iboff;
	if (!rec->has_ino)
		return;
	if (xls_hashmap_find(&r->cancel, (uint64_t)rec->iblkno, rec->ilen)) {
		d->ri.decision = XLS_RD_SKIP_CANCELLED;
		d->ri.reason = XLS_RWHY_CANCELLED;
		xls_rdetail_append(d, ": its cluster buffer is cancelled");
		return;
	}
	if (xls_recover_daddr_out_of_range(d, rec->iblkno, rec->ilen,
					   "inode cluster buffer"))
		return;
	slot = inobuf_check(r, rec->iblkno, rec->ilen);
	if (slot != INOBUF_GOOD) {
		char says[160];
		bool absent;

		d->ri.decision = XLS_RD_FAIL;
		d->ri.reason = XLS_RWHY_BAD_INODE_BUF;
		d->ri.fail_why = "the read verifier of its cluster buffer finds a bad inode "
				 "(xfs_inode_buf_verify): metadata corruption, recovery fails";
		xls_rdetail_appendf(d, ": inode %u of the cluster buffer has no valid inode "
				    "magic, version or di_next_unlinked", slot);
		absent = xls_source_data_missing(r->src, (uint64_t)rec->iblkno * BBSIZE,
						 (uint64_t)rec->ilen * BBSIZE) != 0;
		if (absent) {
			xls_rdetail_append(d, ": the block is absent from the metadump (read as zeros)");
			r->sum.absent_reads++;
		}
		/* xfs_inode_buf_verify, with no fail address: its caller's */
		snprintf(says, sizeof(says), "Metadata corruption detected at __xfs_buf_ioend, "
			 "xfs_inode block 0x%llx xfs_inode_buf_verify",
			 (unsigned long long)rec->iblkno);
		/* the failure turns on a block the metadump lacks */
		if (xls_recover_fail(r, d->t->lsn, (struct xls_rfail){ XLS_RSTOP_PASS2,
				     XLS_RCAUSE_METADATA, XLS_EFSCORRUPTED }, says,
				     "inode cluster buffer 0x%llx (%u bytes) fails its read verifier "
				     "for inode 0x%llx: inode %u of it is not valid",
				     (unsigned long long)rec->iblkno, rec->ilen * BBSIZE,
				     (unsigned long long)rec->ino, slot))
			r->sum.fail_absent = absent;
		return;
	}
	d->ri.decision = XLS_RD_REPLAY;
	d->ri.reason = XLS_RWHY_LSN_OLDER;
	lsn = ino_replayed_lsn(r, rec->ino);
	if (lsn) {
		v3 = r->g->crc;
		where = "as recovery left it";
	} else if (xls_rstate_icreated(r, rec->iblkno, rec->ilen)) {
		xls_rdetail_append(d, ": inode initialised by an icreate replay");
	} else if (r->data_dev && rec->iblkno >= 0 &&
		   (uint64_t)rec->iblkno < (UINT64_MAX >> 10) &&
		   xls_source_data_missing(r->src, (uint64_t)rec->iblkno * BBSIZE + rec->iboff,
					   sizeof(struct xfs_dinode))) {
		/* zeros, as xfs_mdrestore leaves it: no magic, so no LSN to compare */
		xls_rdetail_append(d, ": the inode is absent from the metadump (read as zeros)");
		r->sum.absent_reads++;
	} else if ((disk = disk_inode(r, rec, &read)) && disk->magic) {
		v3 = disk->version >= 3;
		lsn = v3 ? disk->lsn : 0;
		if (!r->g->crc && rec->ldi_flushiter < disk->flushiter) {
			d->ri.decision = XLS_RD_SKIP_LSN;
			d->ri.reason = XLS_RWHY_FLUSHITER_NEWER;
			xls_rdetail_append(d, ": the on-disk inode was flushed later");
			if (disk == &read)
				keep_disk_inode(r, disk);
			return;
		}
	}
	if (v3 && lsn && lsn != NULL_LSN) {
		if (lsn > d->t->lsn) {
			d->ri.decision = XLS_RD_SKIP_LSN;
			d->ri.reason = XLS_RWHY_LSN_NEWER;
		}
		xls_rdetail_appendf(d, ": inode LSN %u/%u %s %s %u/%u",
				    xls_lsn_cycle(lsn), xls_lsn_block(lsn), where,
				    lsn > d->t->lsn ? ">" : "<=",
				    xls_lsn_cycle(d->t->lsn), xls_lsn_block(d->t->lsn));
	}
	if (d->ri.decision == XLS_RD_REPLAY && r->g->crc)
		ino_set_lsn(r, rec->ino, d->t->lsn);
	else if (disk == &read)
		keep_disk_inode(r, disk);
}

static bool rinode_writes_kept(const struct xls_recover *r, const struct rrec *rec)
{
	return rec->has_ino && rec->iblkno == r->opt.keep_blkno;
}

/* An icreate may initialise the kept block, whichever it is: always said. */
static bool ricreate_writes_kept(const struct xls_recover *r, const struct rrec *rec)
{
	(void)r;
	(void)rec;
	return true;
}

const struct xls_recover_ops xls_rinode_ops = {
	.capture2	= rinode_capture,
	.decide		= rinode_decide,
	.writes_kept	= rinode_writes_kept,
};

const struct xls_recover_ops xls_ricreate_ops = {
	.capture2	= ricreate_capture,
	.decide		= ricreate_decide,
	.writes_kept	= ricreate_writes_kept,
};
