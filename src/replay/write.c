/*
 * Replay stage: the filesystem as recovery leaves it, written into a copy.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fullio.h"
#include "base/ondisk.h"
#include "base/vec.h"
#include "replay/apply.h"
#include "replay/write.h"

int xls_replay_write_init(struct xls_replay_write *w, const struct xls_source *src, int fd,
			  const char *path, int log_fd, const char *log_path, uint64_t log_base,
			  struct xls_error *err)
{
	*w = (struct xls_replay_write){
		.src = src, .fd = fd, .path = path, .log_fd = log_fd, .log_path = log_path,
		.log_base = log_base, .err = err,
	};
	xls_slotfile_init(&w->out);
	w->buf = malloc(XFS_MAX_BLOCKSIZE);
	if (!w->buf)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for a block buffer of "
				     "the writes to '%s'", path);
	return 0;
}

void xls_replay_write_release(struct xls_replay_write *w)
{
	free(w->buf);
	xls_hashmap_free(&w->compound_idx);
	xls_vec_free(w->compounds);
	xls_hashmap_free(&w->held_idx);
	xls_vec_free(w->held);
	xls_arena_release(&w->images);
	xls_slotfile_release(&w->out);
	w->held = NULL;
	w->buf = NULL;
	w->compounds = NULL;
}

/* ------------------------------------------------------------------ */
/* I/O on the copy: whole, retried, every error named with its byte */

enum io_op { IO_READ, IO_WRITE, IO_SYNC };

static int io_error(struct xls_replay_write *w, enum io_op op, const char *path,
		    uint64_t off, int e)
{
	static const char *const verb[] = { [IO_READ] = "read", [IO_WRITE] = "write",
					    [IO_SYNC] = "sync" };

	/* a new file that cannot be written is the output's failure, the device's the input's */
	if (w->err->status == XLS_EXIT_OK)
		xls_error_set(w->err, w->in_place || op == IO_READ ? XLS_EXIT_INPUT :
			      XLS_EXIT_INTERNAL,
			      "cannot %s '%s' at byte %llu: %s", verb[op], path,
			      (unsigned long long)off, strerror(e));
	return -1;
}

static int read_full(struct xls_replay_write *w, int fd, const char *path, uint64_t off,
		     uint8_t *buf, size_t len)
{
	size_t done;
	int rc = xls_pread_fully(fd, off, buf, len, &done);

	if (rc && rc != -ENODATA)
		return io_error(w, IO_READ, path, off + done, -rc);
	memset(buf + done, 0, len - done);	/* past the end of the copy: a hole there */
	return 0;
}

static int write_full(struct xls_replay_write *w, int fd, const char *path, uint64_t off,
		      const uint8_t *buf, size_t len)
{
	size_t done;
	int rc = xls_pwrite_fully(fd, off, buf, len, &done);

	if (rc)
		return io_error(w, IO_WRITE, path, off + done, -rc);
	w->count.bytes += len;
	return 0;
}

/* ------------------------------------------------------------------ */
/* buffers held from their replay to their write-back */

static int out_failed(struct xls_replay_write *w)
{
	return xls_error_set(w->err, XLS_EXIT_INTERNAL, "cannot keep the buffers held until "
			     "written back in a temporary file in %s: %s",
			     w->out.dir ? w->out.dir : "$TMPDIR", strerror(w->out.error));
}

/*
 * Room in memory for @bytes more of held images: others sent out to the
 * file, the clock's hand passing over held[] -- never @keep, the one
 * about to be handed over.  Past the bound only when none is left in
 * memory to send.
 */
static int make_room(struct xls_replay_write *w, uint64_t bytes, uint32_t keep)
{
	for (uint32_t tries = 0; w->held_mem + bytes > XLS_REPLAY_HELD_MEM && tries < w->nheld;
	     tries++) {
		uint32_t i = w->hand++ % w->nheld;
		struct xls_replay_held *h = &w->held[i];
		uint32_t n = h->len * BBSIZE;

		if (i == keep || !h->img)
			continue;
		if (xls_slotfile_put(&w->out, h->img, n, &h->out_off))
			return out_failed(w);
		xls_arena_put(&w->images, h->img, n);
		h->img = NULL;
		w->held_mem -= n;
		w->count.held_out += n;
	}
	return 0;
}

/*
 * The image of held[@i], in memory: valid until the next call that may
 * send images out (held_img, hold).  NULL after an error.
 */
static uint8_t *held_img(struct xls_replay_write *w, uint32_t i)
{
	struct xls_replay_held *h = &w->held[i];
	uint32_t n = h->len * BBSIZE;
	uint8_t *img;

	if (h->img)
		return h->img;
	if (make_room(w, n, i))
		return NULL;
	img = xls_arena_alloc(&w->images, n);
	if (!img) {
		xls_error_set(w->err, XLS_EXIT_INTERNAL,
			      "out of memory for the buffers held until written back");
		return NULL;
	}
	if (xls_slotfile_get(&w->out, h->out_off, img, n)) {
		xls_arena_put(&w->images, img, n);
		out_failed(w);
		return NULL;
	}
	xls_slotfile_drop(&w->out, h->out_off, n);
	h->img = img;
	w->held_mem += n;
	return img;
}

/*
 * The buffer (@blkno, @len) as replay holds it: the held image, or made
 * from the copy (@fresh: zeros, for a cluster an icreate initialises).
 * NULL when out of memory.
 */
static uint8_t *hold(struct xls_replay_write *w, int64_t blkno, uint32_t len, bool fresh)
{
	uint32_t *idx = xls_hashmap_find(&w->held_idx, (uint64_t)blkno, len);
	size_t bytes = (size_t)len * BBSIZE;
	struct xls_replay_held *h;
	uint8_t *img;

	if (idx)
		return held_img(w, *idx);
	if (make_room(w, bytes, UINT32_MAX))
		return NULL;
	img = fresh ? xls_arena_zalloc(&w->images, bytes) : xls_arena_alloc(&w->images, bytes);
	if (!img || !xls_vec_grow((void **)&w->held, w->nheld, &w->capheld, sizeof(*w->held)) ||
	    xls_hashmap_put(&w->held_idx, (uint64_t)blkno, len, w->nheld)) {
		xls_error_set(w->err, XLS_EXIT_INTERNAL,
			      "out of memory for the buffers held until written back");
		return NULL;
	}
	if (!fresh && read_full(w, w->fd, w->path, (uint64_t)blkno * BBSIZE, img, bytes))
		return NULL;
	h = &w->held[w->nheld++];
	h->blkno = blkno;
	h->len = len;
	h->img = img;
	w->held_bytes += bytes;
	w->held_mem += bytes;
	if (w->held_bytes > w->count.held_max)
		w->count.held_max = w->held_bytes;
	return img;
}

/*
 * Recovery fails a block outside the data device before it replays it
 * (xls_recover_daddr_out_of_range); a write there would grow the copy
 * or land past the device, so it is refused here too, whatever the log.
 */
static int write_block(struct xls_replay_write *w, int64_t blkno, uint32_t len,
		       const uint8_t *img)
{
	uint64_t size = xls_geo_device_bytes(&w->src->geo);

	if (blkno < 0 || (uint64_t)blkno > size / BBSIZE || len > size / BBSIZE - (uint64_t)blkno)
		return xls_error_set(w->err, XLS_EXIT_INTERNAL, "refusing to write buffer 0x%llx "
				     "(%u sectors) of '%s' past the end of the filesystem (%llu "
				     "bytes)", (unsigned long long)blkno, len, w->path,
				     (unsigned long long)size);
	return write_full(w, w->fd, w->path, (uint64_t)blkno * BBSIZE, img, (size_t)len * BBSIZE);
}

/* The buffer written, or (@write false) dropped: it is held no longer. */
static int release(struct xls_replay_write *w, uint32_t i, bool write)
{
	const uint8_t *img = write ? held_img(w, i) : NULL;
	struct xls_replay_held h = w->held[i];
	uint32_t n = h.len * BBSIZE;
	int rc = 0;

	if (write)
		rc = img ? write_block(w, h.blkno, h.len, img) : -1;
	xls_hashmap_del(&w->held_idx, (uint64_t)h.blkno, h.len);
	if (h.img) {
		xls_arena_put(&w->images, h.img, n);
		w->held_mem -= n;
	} else {
		xls_slotfile_drop(&w->out, h.out_off, n);
	}
	w->held_bytes -= n;
	/* the last one takes its place */
	if (i != --w->nheld) {
		w->held[i] = w->held[w->nheld];
		*xls_hashmap_find(&w->held_idx, (uint64_t)w->held[i].blkno, w->held[i].len) = i;
	}
	return rc;
}

/* @len 512-byte blocks at @blkno as recovery has them now: held, else in the copy. */
static int current_bytes(struct xls_replay_write *w, int64_t blkno, uint32_t len, uint8_t *to)
{
	uint32_t *idx = xls_hashmap_find(&w->held_idx, (uint64_t)blkno, len);

	if (idx) {
		const uint8_t *img = held_img(w, *idx);

		if (!img)
			return -1;
		memcpy(to, img, (size_t)len * BBSIZE);
		return 0;
	}
	return read_full(w, w->fd, w->path, (uint64_t)blkno * BBSIZE, to, (size_t)len * BBSIZE);
}

static bool sane(int64_t blkno, uint32_t len)
{
	return blkno >= 0 && (uint64_t)blkno < (UINT64_MAX >> 10) && len &&
	       (uint64_t)len * BBSIZE <= XFS_MAX_BLOCKSIZE;
}

/* ------------------------------------------------------------------ */
/* items, as recovery replays them */

/*
 * The image writer as a block provider: every block an item changes,
 * held until written back (icreate's clusters fresh, as
 * xfs_ialloc_inode_init makes them).
 */
static int provide(void *ctx, const struct xls_ritem *ri, enum xls_apply_what what,
		   int64_t blkno, uint32_t len, bool fresh, uint8_t **buf)
{
	struct xls_replay_write *w = ctx;

	(void)ri;
	(void)what;
	if (!sane(blkno, len))
		return 0;
	*buf = hold(w, blkno, len, fresh);
	return *buf ? 1 : -1;
}

/* The compound being placed covers its block: kept, replacing what was known of it. */
static void keep_placed(struct xls_replay_write *w)
{
	const struct xls_replay_compound *c = &w->placing;
	uint32_t covered = 0, *idx;

	for (uint32_t i = 0; i < c->npieces; i++)
		covered += c->piece[i].len * BBSIZE;
	if (covered != c->bytes)
		return;
	w->placing_on = false;
	idx = xls_hashmap_find(&w->compound_idx, (uint64_t)c->first, 0);
	if (!idx) {
		if (!xls_vec_grow((void **)&w->compounds, w->ncompounds, &w->capcompounds,
				  sizeof(*w->compounds)) ||
		    xls_hashmap_put(&w->compound_idx, (uint64_t)c->first, 0, w->ncompounds))
			return;
		idx = xls_hashmap_find(&w->compound_idx, (uint64_t)c->first, 0);
		w->ncompounds++;
	}
	w->compounds[*idx] = *c;
}

/*
 * Where the segments of a multi-extent directory block lie: its block is
 * known by the segment with the header, those after it in the
 * transaction by their offset in it -- exact only when no clean extent,
 * which nothing logs, may come before.  A transaction that logs every
 * segment places the block whole.
 */
static void place_segment(struct xls_replay_write *w, const struct xls_rtrans *rt,
			  const struct xls_rbuf *rb)
{
	struct xls_replay_compound *c = &w->placing;

	if (rb->seg == 1 && rb->block_start && rb->block_bytes <= XFS_MAX_BLOCKSIZE) {
		c->first = rb->blkno;
		c->bytes = rb->block_bytes;
		c->npieces = 0;
		w->placing_on = true;
		w->cur_tid = rt->t->tid;
		w->cur_id = rb->compound;
	} else if (!w->placing_on || w->cur_tid != rt->t->tid || w->cur_id != rb->compound) {
		return;
	}
	if (!rb->seg_offset_exact || c->npieces == XLS_COMPOUND_PIECES ||
	    rb->seg_offset + (uint64_t)rb->len * BBSIZE > c->bytes) {
		w->placing_on = false;
		return;
	}
	c->piece[c->npieces].offset = (uint32_t)rb->seg_offset;
	c->piece[c->npieces].blkno = rb->blkno;
	c->piece[c->npieces].len = rb->len;
	c->npieces++;
	keep_placed(w);
}

int xls_replay_write_item(void *ctx, const struct xls_rtrans *rt, const struct xls_ritem *ri)
{
	struct xls_replay_write *w = ctx;

	struct xls_apply_count n = { 0 };
	const struct xls_block_provider p = { .ctx = w, .get = provide };
	int rc;

	if (ri->buf && ri->buf->compound)
		place_segment(w, rt, ri->buf);
	rc = xls_apply_item(&w->src->geo, rt, ri, &p, &n);
	w->count.buffers += n.buffers;
	w->count.inodes += n.inodes;
	w->count.inode_errors += n.inode_errors;
	w->count.clusters += n.clusters;
	w->count.dquots += n.dquots;
	return rc;
}

/* ------------------------------------------------------------------ */
/* write-back */

/*
 * The multi-extent directory block whose first segment is @wr, read whole
 * from its segments, its header stamped as the directory's verifier
 * stamps a whole block; *@done false when its segments do not cover it.
 */
static int write_whole_block(struct xls_replay_write *w, const struct xls_rwrite *wr,
			     bool *done)
{
	uint32_t *idx = xls_hashmap_find(&w->compound_idx, (uint64_t)wr->blkno, 0);
	const struct xls_replay_compound *c;
	uint32_t covered = 0;
	uint8_t *img;

	*done = false;
	if (!idx)
		return 0;
	c = &w->compounds[*idx];
	for (uint32_t i = 0; i < c->npieces; i++)
		covered += c->piece[i].len * BBSIZE;
	if (!c->npieces || covered != c->bytes || c->piece[0].offset != 0)
		return 0;
	for (uint32_t i = 0; i < c->npieces; i++)
		if (current_bytes(w, c->piece[i].blkno, c->piece[i].len,
				  w->buf + c->piece[i].offset))
			return -1;
	xls_recover_stamp(&w->src->geo, w->buf, c->bytes, wr->stamp_lsn);
	*done = true;
	w->count.assembled++;
	idx = xls_hashmap_find(&w->held_idx, (uint64_t)wr->blkno, wr->len);
	if (!idx)
		return 0;
	img = held_img(w, *idx);
	if (!img)
		return -1;
	/* its header, as stamped */
	memcpy(img, w->buf, (size_t)wr->len * BBSIZE);
	return release(w, *idx, true);
}

/* A buffer the kernel does not write: the copy keeps what the device holds. */
static int keep_on_disk(struct xls_replay_write *w, const struct xls_rwrite *wr,
			const uint32_t *idx)
{
	if (w->count.failed < sizeof(w->failed) / sizeof(w->failed[0])) {
		w->failed[w->count.failed].blkno = wr->blkno;
		w->failed[w->count.failed].len = wr->len;
	}
	w->count.failed++;
	return idx ? release(w, *idx, false) : 0;
}

int xls_replay_write_back(void *ctx, const struct xls_rwrite *wr)
{
	struct xls_replay_write *w = ctx;
	uint32_t *idx = xls_hashmap_find(&w->held_idx, (uint64_t)wr->blkno, wr->len);
	uint8_t *img;
	bool done;

	if (!sane(wr->blkno, wr->len))
		return 0;
	if (wr->state == XLS_RW_FAILS && wr->limit && w->force) {
		if (write_whole_block(w, wr, &done))
			return -1;
		if (done)
			return 0;
	}
	if (wr->state == XLS_RW_FAILS)
		return keep_on_disk(w, wr, idx);
	if (wr->state == XLS_RW_SHUT_DOWN) {
		w->count.not_written++;
		if (!w->force)
			return idx ? release(w, *idx, false) : 0;
	}
	if (!idx)	/* nothing replayed into it here */
		return 0;
	/* xfs_buf_verify_write: the verifier's LSN and CRC on what is written */
	img = held_img(w, *idx);
	if (!img)
		return -1;
	xls_recover_stamp(&w->src->geo, img, wr->len * BBSIZE, wr->stamp_lsn);
	w->count.stamped++;
	return release(w, *idx, true);
}

int xls_replay_write_flushed(void *ctx)
{
	struct xls_replay_write *w = ctx;

	/* the inode clusters inode items replayed into: xfs_inode_buf_ops stamps nothing */
	while (w->nheld)
		if (release(w, w->nheld - 1, true))
			return -1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* after recovery */

#define SB_AT(f)	offsetof(struct xfs_dsb, f)
#define AGF_AT(f)	offsetof(struct xfs_agf, f)
#define AGI_AT(f)	offsetof(struct xfs_agi, f)

/* The AG header at sector @sect of AG @ag, its @field of 4 bytes. */
static int ag_field(struct xls_replay_write *w, uint32_t ag, uint32_t sect, size_t field,
		    uint32_t *v)
{
	const struct xls_replay_sbgeo *sg = &w->sbgeo;
	uint64_t off = (uint64_t)ag * sg->agblocks * sg->blocksize + (uint64_t)sect * sg->sectsize;
	uint8_t hdr[512];

	if (read_full(w, w->fd, w->path, off, hdr, sizeof(hdr)))
		return -1;
	*v = xls_be32(hdr + field);
	return 0;
}

int xls_replay_write_check_sb(struct xls_replay_write *w)
{
	struct xls_replay_sbgeo *sg = &w->sbgeo;
	uint8_t sb[512];
	const char *why;

	w->sbgeo_ok = false;
	if (read_full(w, w->fd, w->path, 0, sb, sizeof(sb)))
		return -1;
	sg->blocksize = xls_be32(sb + SB_AT(sb_blocksize));
	sg->sectsize = xls_be16(sb + SB_AT(sb_sectsize));
	sg->agblocks = xls_be32(sb + SB_AT(sb_agblocks));
	sg->agcount = xls_be32(sb + SB_AT(sb_agcount));
	sg->dblocks = xls_be64(sb + SB_AT(sb_dblocks));
	why = xls_sb_geometry_refused(sb);
	if (why)
		return xls_error_set(w->err, XLS_EXIT_FINDINGS, "'%s': the superblock recovery "
				     "leaves fails the kernel's check (%s): its mount reads it back "
				     "once recovery is done and fails there (\"SB sanity check "
				     "failed\", EFSCORRUPTED), the log left dirty; replay stops there "
				     "too; xfs_repair is what is left", w->path, why);
	w->sbgeo_ok = true;
	w->sb_past_ag = xls_sb_first_ag_past(sb, xls_geo_device_bytes(&w->src->geo));
	w->sb_past_device = w->sb_past_ag != UINT32_MAX;
	return 0;
}

/*
 * The quota fields as the kernel writes the superblock back: read in
 * (xfs_sb_quota_from_disk: a quota inode of 0 is none, NULLFSINO; on v4
 * the "other" flags become group or project ones, and a project quota
 * inode moves from sb_gquotino), the flags reset when the mount has no
 * quota (xfs_mount_reset_sbqflags, "resetting quota flags"), written out
 * (xfs_sb_quota_to_disk: v4 folds them back, keeps a group quota inode
 * only where one is on, and zeroes sb_pquotino, past its superblock).
 * Metadir filesystems keep their quota inodes elsewhere: left as they are.
 */
static void quota_fields(uint8_t *sb, bool v5, bool reset)
{
	const uint16_t other = XFS_GQUOTA_ENFD | XFS_GQUOTA_CHKD | XFS_PQUOTA_ENFD |
			       XFS_PQUOTA_CHKD;
	uint16_t q = xls_be16(sb + SB_AT(sb_qflags)), disk;
	uint64_t u = xls_be64(sb + SB_AT(sb_uquotino)), gq = xls_be64(sb + SB_AT(sb_gquotino));
	uint64_t pq = v5 ? xls_be64(sb + SB_AT(sb_pquotino)) : 0;

	if (xls_be32(sb + SB_AT(sb_features_incompat)) & XFS_SB_FEAT_INCOMPAT_METADIR)
		return;
	u = u ? u : NULLFSINO;
	gq = gq ? gq : NULLFSINO;
	pq = pq ? pq : NULLFSINO;
	if (!v5) {
		bool prj = q & XFS_PQUOTA_ACCT;

		if (q & XFS_OQUOTA_ENFD)
			q |= prj ? XFS_PQUOTA_ENFD : XFS_GQUOTA_ENFD;
		if (q & XFS_OQUOTA_CHKD)
			q |= prj ? XFS_PQUOTA_CHKD : XFS_GQUOTA_CHKD;
		q &= (uint16_t)~(XFS_OQUOTA_ENFD | XFS_OQUOTA_CHKD);
		if (prj && gq != NULLFSINO) {
			pq = gq;
			gq = NULLFSINO;
		}
	}
	if (reset)
		q = 0;
	xls_put_be64(sb + SB_AT(sb_uquotino), u);
	if (v5) {
		xls_put_be16(sb + SB_AT(sb_qflags), q);
		xls_put_be64(sb + SB_AT(sb_gquotino), gq);
		xls_put_be64(sb + SB_AT(sb_pquotino), pq);
		return;
	}
	disk = q & (uint16_t)~other;
	if (q & (XFS_PQUOTA_ENFD | XFS_GQUOTA_ENFD))
		disk |= XFS_OQUOTA_ENFD;
	if (q & (XFS_PQUOTA_CHKD | XFS_GQUOTA_CHKD))
		disk |= XFS_OQUOTA_CHKD;
	xls_put_be16(sb + SB_AT(sb_qflags), disk);
	if (q & XFS_GQUOTA_ACCT)
		xls_put_be64(sb + SB_AT(sb_gquotino), gq);
	else if (q & XFS_PQUOTA_ACCT)
		xls_put_be64(sb + SB_AT(sb_gquotino), pq);
	else if (gq == NULLFSINO && pq == NULLFSINO)
		xls_put_be64(sb + SB_AT(sb_gquotino), NULLFSINO);
	xls_put_be64(sb + SB_AT(sb_pquotino), 0);
}

int xls_replay_write_superblock(struct xls_replay_write *w)
{
	const struct xls_geometry *g = &w->src->geo;
	uint64_t icount = 0, ifree = 0, fdblocks = 0;
	uint32_t sectsize = w->sbgeo.sectsize, v;
	uint8_t *sb = w->buf;
	bool lazy;

	if (!w->sbgeo_ok)
		return xls_error_set(w->err, XLS_EXIT_INTERNAL, "superblock written unchecked");
	if (read_full(w, w->fd, w->path, 0, sb, 512))
		return -1;
	lazy = g->crc || (xls_be16(sb + SB_AT(sb_versionnum)) & XFS_SB_VERSION_MOREBITSBIT &&
			  xls_be32(sb + SB_AT(sb_features2)) & XFS_SB_VERSION2_LAZYSBCOUNTBIT);
	/*
	 * Without lazy counters the log carries every change to them; the
	 * sum fails at the device's end, and the unmount that follows writes
	 * them as read.
	 */
	for (uint32_t ag = 0; lazy && ag < w->sbgeo.agcount && !w->sb_past_device; ag++) {
		if (ag_field(w, ag, 1, AGF_AT(agf_freeblks), &v))
			return -1;
		fdblocks += v;
		if (ag_field(w, ag, 1, AGF_AT(agf_flcount), &v))
			return -1;
		fdblocks += v;
		if (ag_field(w, ag, 1, AGF_AT(agf_btreeblks), &v))
			return -1;
		fdblocks += v;
		if (ag_field(w, ag, 2, AGI_AT(agi_count), &v))
			return -1;
		icount += v;
		if (ag_field(w, ag, 2, AGI_AT(agi_freecount), &v))
			return -1;
		ifree += v;
	}
	if (read_full(w, w->fd, w->path, 0, sb, sectsize))
		return -1;
	if (lazy && !w->sb_past_device) {
		xls_put_be64(sb + SB_AT(sb_icount), icount);
		xls_put_be64(sb + SB_AT(sb_ifree), ifree);
		xls_put_be64(sb + SB_AT(sb_fdblocks), fdblocks);
	}
	quota_fields(sb, g->crc, w->quota_reset);
	xls_recover_stamp(g, sb, sectsize, 0);
	return write_full(w, w->fd, w->path, 0, sb, sectsize);
}

int xls_replay_read_data(struct xls_replay_write *w, uint64_t off, uint8_t *buf, size_t len)
{
	return read_full(w, w->fd, w->path, off, buf, len);
}

int xls_replay_write_data(struct xls_replay_write *w, uint64_t off, const uint8_t *buf,
			  size_t len)
{
	return write_full(w, w->fd, w->path, off, buf, len);
}

int xls_replay_write_put_log(void *ctx, uint32_t blk, const uint8_t *buf, uint32_t nblks)
{
	struct xls_replay_write *w = ctx;

	return write_full(w, w->log_fd, w->log_path, w->log_base + (uint64_t)blk * BBSIZE, buf,
			  (size_t)nblks * BBSIZE);
}

int xls_replay_write_sync(struct xls_replay_write *w)
{
	if (fdatasync(w->fd) != 0)
		return io_error(w, IO_SYNC, w->path, 0, errno);
	if (w->log_fd != w->fd && fdatasync(w->log_fd) != 0)
		return io_error(w, IO_SYNC, w->log_path, 0, errno);
	return 0;
}

int xls_replay_write_clean_log(struct xls_replay_write *w, const struct xls_log *log,
			       const struct xls_head_tail *found, uint64_t unmount_lsn)
{
	uint32_t fmt = found->last_fmt == XLOG_FMT_LINUX_BE ? XLOG_FMT_LINUX_BE : XLOG_FMT_LINUX_LE;
	struct xls_head_tail moved = *found;
	const struct xls_head_tail *ht = found;

	if (found->state != XLS_LOG_DIRTY)
		return 0;
	/* the pass-3 checkpoints before it: the unmount record at the last one's LSN */
	if (unmount_lsn && unmount_lsn != xls_lsn(found->curr_cycle, found->curr_block)) {
		if (xls_log_write_pad(log, found, unmount_lsn, fmt, 0, &moved.last_rec_blk,
				      xls_replay_write_put_log, w))
			return io_error(w, IO_WRITE, w->log_path, w->log_base, EIO);
		moved.curr_cycle = xls_lsn_cycle(unmount_lsn);
		moved.curr_block = xls_lsn_block(unmount_lsn);
		ht = &moved;
	}
	/* the stale blocks durable first: the unmount record, last, makes the log clean */
	if (xls_log_write_stale(log, ht, fmt, xls_replay_write_put_log, w) ||
	    xls_replay_write_sync(w))
		return -1;
	/* a transaction id of the log's own, so that the same log cleans the same way */
	if (xls_log_write_unmount(log, ht, fmt, (uint32_t)ht->last_lsn ^ 0x584c5300u,
				  xls_replay_write_put_log, w))
		return -1;
	return xls_replay_write_sync(w);
}
