/*
 * Replay stage: pass 3's staged writes, logged then written (commit.h).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fullio.h"
#include "base/hashmap.h"
#include "base/ondisk.h"
#include "base/vec.h"
#include "pass3/stage.h"
#include "replay/commit.h"

#define CHUNK		XFS_BLF_CHUNK
#define MAP_WORDS	(XFS_MAX_BLOCKSIZE / CHUNK / 32)
/* xlog_recover_add_to_trans refuses an item of more regions (XLOG_MAX_REGIONS_IN_ITEM) */
#define MAX_REGIONS	(XFS_MAX_BLOCKSIZE / CHUNK / 2 + 1)
#define BLF_HEAD	((uint32_t)offsetof(struct xfs_buf_log_format, blf_data_map))
#define DONE_BYTES	16u
#define EXTENT_BYTES	16u

/* One block pass 3 wrote. */
struct staged {
	uint64_t	off;		/* bytes, on the data device */
	uint32_t	len;
	uint64_t	at;		/* where its last bytes are in the stage: the order of writes */
	uint8_t		ckpt;		/* the checkpoint whose LSN they carry */
	bool		stale;		/* in a range the kernel never writes */
	bool		sb;		/* the primary superblock: the unmount's to write */
	/* what its checkpoint logs of it: its changed chunks, and its type */
	uint16_t	nregions;
	uint16_t	blft;
	uint32_t	map[MAP_WORDS];
};

struct commit {
	struct xls_replay_write		*w;
	const struct xls_pass3_commit_in *in;
	struct staged			*b;
	uint32_t			n, cap;
	struct xls_hashmap		idx;	/* (off, len) -> b[] + 1 */
	struct xls_byte_range		*stale;	/* never written */
	uint32_t			nstale, capstale;
	bool				log_dev;	/* it wrote the external log */
	bool				be;		/* the log's byte order */
	uint32_t			region_max;	/* bytes an op holds */
	uint8_t				*old, *new;	/* XFS_MAX_BLOCKSIZE each */
	uint8_t				*item;		/* one item's format or done item */
};

static int fail(struct commit *c, const char *what, int e)
{
	return xls_error_set(c->w->err, XLS_EXIT_INTERNAL, "pass 3 on '%s': %s: %s",
			     c->w->path, what, strerror(e));
}

/* ------------------------------------------------------------------ */
/* the stage read back */

static struct staged *block_of(struct commit *c, uint64_t off, uint32_t len)
{
	uint32_t *i = xls_hashmap_find(&c->idx, off, len);
	struct staged *b;

	if (i)
		return &c->b[*i - 1];
	b = xls_vec_push((void **)&c->b, &c->n, &c->cap, sizeof(*b));
	if (!b || xls_hashmap_put(&c->idx, off, len, c->n)) {
		if (b)
			c->n--;
		return NULL;
	}
	memset(b, 0, sizeof(*b));
	b->off = off;
	b->len = len;
	return b;
}

static int load(struct commit *c)
{
	uint64_t at = 0;

	for (;;) {
		struct xls_stage_rec rec;
		size_t got = 0;
		int rc = xls_pread_fully(c->in->stage_fd, at, &rec, sizeof(rec), &got);

		if (rc == -ENODATA && !got)
			return 0;
		if (rc)
			return fail(c, "reading its staged writes back", rc == -ENODATA ? EIO : -rc);
		if (rec.ckpt == XLS_STAGE_STALE) {
			struct xls_byte_range *r = xls_vec_push((void **)&c->stale, &c->nstale,
								&c->capstale, sizeof(*r));

			if (!r)
				return fail(c, "the ranges never written", ENOMEM);
			*r = (struct xls_byte_range){ rec.off, rec.len };
			at += sizeof(rec);
			continue;
		}
		if (rec.len > XFS_MAX_BLOCKSIZE || rec.len % BBSIZE || rec.ckpt >= c->in->res->nckpts)
			return fail(c, "its staged writes", EINVAL);
		if (rec.dev != XLS_STAGE_DATA) {
			c->log_dev = true;
		} else {
			struct staged *b = block_of(c, rec.off, (uint32_t)rec.len);

			if (!b)
				return fail(c, "the blocks it wrote", ENOMEM);
			b->at = at + sizeof(rec);
			b->ckpt = rec.ckpt;
		}
		at += sizeof(rec) + rec.len;
	}
}

static void mark_stale(struct commit *c)
{
	for (uint32_t i = 0; i < c->n; i++)
		for (uint32_t r = 0; r < c->nstale; r++)
			if (c->b[i].off < c->stale[r].off + c->stale[r].len &&
			    c->stale[r].off < c->b[i].off + c->b[i].len)
				c->b[i].stale = true;
}

/* A quota inode field as the unmount step writes it: 0 is none (quota_fields). */
static uint64_t quota_ino(const uint8_t *sb, size_t off)
{
	uint64_t ino = xls_be64(sb + off);

	return ino ? ino : NULLFSINO;
}

/*
 * The primary superblock pass 3 leaves: with lazy counters the kernel's
 * pass 3 does not log it, and its unmount writes it (replay's finish
 * step: the counters summed from the AG headers, the quota inodes with 0
 * as none).  True when it differs from what pass 2 left in those alone,
 * its LSN and its CRC.
 */
static bool sb_counters_only(const struct commit *c, uint32_t len)
{
	static const struct { size_t off, len; } rewritten[] = {
		{ offsetof(struct xfs_dsb, sb_icount), 8 }, { offsetof(struct xfs_dsb, sb_ifree), 8 },
		{ offsetof(struct xfs_dsb, sb_fdblocks), 8 },
		{ offsetof(struct xfs_dsb, sb_crc), 4 }, { offsetof(struct xfs_dsb, sb_lsn), 8 },
		{ offsetof(struct xfs_dsb, sb_uquotino), 8 },
		{ offsetof(struct xfs_dsb, sb_gquotino), 8 },
		{ offsetof(struct xfs_dsb, sb_pquotino), 8 },
	};
	const size_t qino[] = { offsetof(struct xfs_dsb, sb_uquotino),
				offsetof(struct xfs_dsb, sb_gquotino),
				offsetof(struct xfs_dsb, sb_pquotino) };
	bool metadir = xls_be32(c->new + offsetof(struct xfs_dsb, sb_features_incompat)) &
		       XFS_SB_FEAT_INCOMPAT_METADIR;

	if (len < sizeof(struct xfs_dsb))
		return false;
	for (size_t q = 0; q < sizeof(qino) / sizeof(qino[0]); q++)
		if (metadir ? xls_be64(c->old + qino[q]) != xls_be64(c->new + qino[q]) :
		    quota_ino(c->old, qino[q]) != quota_ino(c->new, qino[q]))
			return false;
	for (uint32_t i = 0; i < len; i++) {
		bool may = false;

		for (size_t m = 0; m < sizeof(rewritten) / sizeof(rewritten[0]); m++)
			may |= i >= rewritten[m].off && i < rewritten[m].off + rewritten[m].len;
		if (!may && c->old[i] != c->new[i])
			return false;
	}
	return true;
}

static int by_off(const void *a, const void *b)
{
	const struct staged *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off ? 1 : x->len < y->len ? -1 : x->len > y->len;
}

static int by_stage(const void *a, const void *b)
{
	const struct staged *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

static int read_stage(struct commit *c, uint64_t at, uint8_t *buf, uint32_t len)
{
	int rc = xls_pread_fully(c->in->stage_fd, at, buf, len, NULL);

	return rc ? fail(c, "reading its staged writes back", rc == -ENODATA ? EIO : -rc) : 0;
}

/* @b as pass 3 leaves it into c->new, and as it was before into c->old. */
static int versions(struct commit *c, const struct staged *b)
{
	if (read_stage(c, b->at, c->new, b->len))
		return -1;
	return xls_replay_read_data(c->w, b->off, c->old, b->len);
}

/*
 * The primary superblock left to the unmount step when pass 3 changed
 * only its counters (b->sb); else it is written as libxfs left it, and
 * plan() says the checkpoints cannot be logged.  0, or -1 (I/O, set).
 */
static int settle_sb(struct commit *c)
{
	for (uint32_t i = 0; i < c->n; i++) {
		struct staged *b = &c->b[i];

		if (b->off || b->stale)
			continue;
		if (versions(c, b))
			return -1;
		b->sb = sb_counters_only(c, b->len);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* what each checkpoint logs */

/* Regions of the run of @n chunks: one per contiguous piece an op holds. */
static uint32_t run_regions(const struct commit *c, uint32_t n)
{
	uint32_t per = c->region_max / CHUNK;

	return (n + per - 1) / per;
}

/* Block @b's chunks that pass 3 changes, its type; why it cannot be logged, or NULL. */
static const char *plan_block(struct commit *c, struct staged *b)
{
	uint32_t chunks = b->len / CHUNK, run = 0, regions = 0;

	memset(b->map, 0, sizeof(b->map));
	for (uint32_t i = 0; i < chunks; i++) {
		bool dirty = memcmp(c->old + (size_t)i * CHUNK, c->new + (size_t)i * CHUNK, CHUNK);

		if (dirty) {
			b->map[i / 32] |= 1u << (i % 32);
			run++;
		}
		if ((!dirty || i + 1 == chunks) && run) {
			regions += run_regions(c, run);
			run = 0;
		}
	}
	b->nregions = (uint16_t)(regions > MAX_REGIONS ? MAX_REGIONS : regions);
	if (!regions)
		return NULL;
	if (regions + 1 > MAX_REGIONS)
		return "a block changed in more pieces than a log item holds";
	b->blft = (uint16_t)xls_blk_log_type(&c->w->src->geo, c->new, b->len);
	if (b->blft == XFS_BLFT_UNKNOWN_BUF)
		return "a block whose type its magic does not tell";
	return NULL;
}

static const char *plan(struct commit *c, uint32_t *items)
{
	memset(items, 0, c->in->res->nckpts * sizeof(*items));
	if (c->log_dev)
		return "it wrote the external log";
	for (uint32_t i = 0; i + 1 < c->n; i++)
		if (c->b[i].off + c->b[i].len > c->b[i + 1].off)
			return "it wrote blocks that overlap";
	for (uint32_t i = 0; i < c->n; i++) {
		struct staged *b = &c->b[i];
		const char *why;

		if (b->stale)
			continue;
		if (versions(c, b))
			return "";
		if (b->sb)
			continue;
		if (b->off == 0)
			return "it changed the superblock beyond its counters";
		if ((why = plan_block(c, b)))
			return why;
		/*
		 * inode clusters carry no LSN to stamp (each inode its own):
		 * with the last checkpoint, the others no longer than the kernel's
		 */
		if (b->blft == XFS_BLFT_DINO_BUF)
			b->ckpt = (uint8_t)(c->in->res->nckpts - 1);
		items[b->ckpt] += b->nregions != 0;
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* the transactions */

static void put16(const struct commit *c, uint8_t *p, uint16_t v)
{
	p[c->be ? 0 : 1] = (uint8_t)(v >> 8);
	p[c->be ? 1 : 0] = (uint8_t)v;
}

static void put32(const struct commit *c, uint8_t *p, uint32_t v)
{
	put16(c, p + (c->be ? 0 : 2), (uint16_t)(v >> 16));
	put16(c, p + (c->be ? 2 : 0), (uint16_t)v);
}

static void put64(const struct commit *c, uint8_t *p, uint64_t v)
{
	put32(c, p + (c->be ? 0 : 4), (uint32_t)(v >> 32));
	put32(c, p + (c->be ? 4 : 0), (uint32_t)v);
}

static uint16_t done_type(uint16_t intent)
{
	switch (intent) {
	case XFS_LI_EFI:	return XFS_LI_EFD;
	case XFS_LI_RUI:	return XFS_LI_RUD;
	case XFS_LI_CUI:	return XFS_LI_CUD;
	case XFS_LI_BUI:	return XFS_LI_BUD;
	case XFS_LI_XMI:	return XFS_LI_XMD;
	case XFS_LI_ATTRI:	return XFS_LI_ATTRD;
	}
	return 0;
}

/*
 * The done item of each intent the first checkpoint finished, as the
 * kernel logs it: an EFD with the extents freed (xfs_efd_log_format_64),
 * the others their intent's id alone.
 */
static int log_done_items(struct commit *c, struct xls_log_writer *lw, uint32_t tid)
{
	const struct xls_pending_intents *in = c->in->intents;

	for (uint32_t i = 0; in && i < in->n; i++) {
		const struct xls_pending_intent *p = &in->in[i];
		bool efd = p->type == XFS_LI_EFI;
		uint32_t len = DONE_BYTES + (efd ? p->count * EXTENT_BYTES : 0);
		uint8_t *d = c->item;

		if (!done_type(p->type) || len > c->region_max ||
		    (efd && (uint64_t)p->first + p->count > in->next))
			return -1;
		memset(d, 0, len);
		put16(c, d, done_type(p->type));
		put16(c, d + 2, 1);
		if (efd)
			put32(c, d + 4, p->count);
		put64(c, d + 8, p->id);
		for (uint32_t e = 0; efd && e < p->count; e++) {
			put64(c, d + DONE_BYTES + e * EXTENT_BYTES, in->ext[p->first + e].startblock);
			put32(c, d + DONE_BYTES + e * EXTENT_BYTES + 8, in->ext[p->first + e].len);
		}
		if (xls_log_writer_op(lw, tid, 0, d, len))
			return -1;
	}
	return 0;
}

static uint32_t done_items(const struct commit *c)
{
	return c->in->intents ? c->in->intents->n : 0;
}

/* Block @b's buffer item: its format, then each changed run. */
static int log_block(struct commit *c, struct xls_log_writer *lw, uint32_t tid,
		     const struct staged *b)
{
	uint32_t words = (b->len / CHUNK + 31) / 32, chunks = b->len / CHUNK;
	uint32_t fmt = BLF_HEAD + 4 * words;
	uint8_t *f = c->item;

	if (read_stage(c, b->at, c->new, b->len))
		return -2;
	memset(f, 0, fmt);
	put16(c, f + offsetof(struct xfs_buf_log_format, blf_type), XFS_LI_BUF);
	put16(c, f + offsetof(struct xfs_buf_log_format, blf_size), (uint16_t)(1 + b->nregions));
	put16(c, f + offsetof(struct xfs_buf_log_format, blf_flags),
	      (uint16_t)(b->blft << XFS_BLFT_SHIFT));
	put16(c, f + offsetof(struct xfs_buf_log_format, blf_len), (uint16_t)(b->len / BBSIZE));
	put64(c, f + offsetof(struct xfs_buf_log_format, blf_blkno), b->off / BBSIZE);
	put32(c, f + offsetof(struct xfs_buf_log_format, blf_map_size), words);
	for (uint32_t i = 0; i < words; i++)
		put32(c, f + BLF_HEAD + 4 * i, b->map[i]);
	if (xls_log_writer_op(lw, tid, 0, f, fmt))
		return -1;
	/* each contiguous run, cut where an op is full (recovery takes a run in pieces) */
	for (uint32_t i = 0; i < chunks;) {
		uint32_t n = 0;

		if (!(b->map[i / 32] & (1u << (i % 32)))) {
			i++;
			continue;
		}
		while (i + n < chunks && (b->map[(i + n) / 32] & (1u << ((i + n) % 32))) &&
		       (n + 1) * CHUNK <= c->region_max)
			n++;
		if (xls_log_writer_op(lw, tid, 0, c->new + (size_t)i * CHUNK, n * CHUNK))
			return -1;
		i += n;
	}
	return 0;
}

/*
 * Checkpoint @k as one transaction: start, header, its items, its commit
 * record.  0, -1 when the log cannot take it, -2 on an I/O error (set).
 */
static int log_ckpt(struct commit *c, struct xls_log_writer *lw, int k, uint32_t items)
{
	/* a transaction id of the log's own, so that the same log gets the same one */
	uint32_t tid = (uint32_t)c->in->found->last_lsn ^ 0x584c5350u ^ (uint32_t)k;
	uint8_t th[sizeof(struct xfs_trans_header)];

	memset(th, 0, sizeof(th));
	put32(c, th + offsetof(struct xfs_trans_header, th_magic), XFS_TRANS_HEADER_MAGIC);
	put32(c, th + offsetof(struct xfs_trans_header, th_type), XFS_TRANS_CHECKPOINT);
	put32(c, th + offsetof(struct xfs_trans_header, th_tid), tid);
	put32(c, th + offsetof(struct xfs_trans_header, th_num_items), items);
	if (xls_log_writer_op(lw, tid, XLOG_START_TRANS, NULL, 0) ||
	    xls_log_writer_op(lw, tid, 0, th, sizeof(th)) ||
	    (k == 0 && log_done_items(c, lw, tid)))
		return -1;
	for (uint32_t i = 0; i < c->n; i++) {
		int rc;

		if (!c->b[i].stale && !c->b[i].sb && c->b[i].ckpt == k && c->b[i].nregions &&
		    (rc = log_block(c, lw, tid, &c->b[i])))
			return rc;
	}
	return xls_log_writer_commit(lw, tid) ? -1 : 0;
}

/*
 * The records put while the checkpoints are formatted, kept to be
 * written last first: until the one at the head is written, the head is
 * found where it was (the blocks before the rest are of the cycle
 * before: xlog_find_verify_cycle), and the log recovers as found.
 */
struct held_rec {
	uint32_t	blk, nblks;
	uint32_t	at;		/* in struct records.bytes */
};

struct records {
	struct held_rec	*r;
	uint32_t	n, cap;
	struct xls_pool	bytes;
};

static int hold_record(void *ctx, uint32_t blk, const uint8_t *buf, uint32_t nblks)
{
	struct records *h = ctx;
	struct held_rec *r = xls_vec_push((void **)&h->r, &h->n, &h->cap, sizeof(*r));

	if (!r)
		return -1;
	r->blk = blk;
	r->nblks = nblks;
	if (!xls_pool_add(&h->bytes, buf, nblks * BBSIZE, &r->at)) {
		h->n--;
		return -1;
	}
	return 0;
}

/*
 * The checkpoints formatted through @put into @ctx (NULL: counted only):
 * the first at the head found, each next one where its blocks' LSN says.
 * 0; 1 when they do not fit (one past the next one's LSN, or all past
 * what the log has free ahead of the head); -1 on an I/O error.
 */
static int log_ckpts(struct commit *c, const uint32_t *items, xls_log_put_fn put, void *ctx,
		     struct xls_log_writer *lw)
{
	const struct xls_head_tail *ht = c->in->found;
	const struct xls_pass3_result *res = c->in->res;
	uint32_t fmt = ht->last_fmt == XLOG_FMT_LINUX_BE ? XLOG_FMT_LINUX_BE : XLOG_FMT_LINUX_LE;
	int rc = 0;

	if (xls_log_writer_init(lw, c->in->log, ht, fmt, put, ctx))
		return 1;
	for (uint32_t k = 0; !rc && k < res->nckpts; k++) {
		uint32_t n = items[k] + (k == 0 ? done_items(c) : 0);

		if (!n)
			continue;
		if (k && res->ckpt_lsn[k] != res->ckpt_lsn[0] &&
		    xls_log_writer_pad_to(lw, res->ckpt_lsn[k]))
			rc = -1;
		if (!rc)
			rc = log_ckpt(c, lw, (int)k, n);
	}
	if (rc == -2)
		return -1;
	if (rc)
		return 1;
	/* inside what the kernel clears ahead of the head, with room for the unmount record */
	return lw->blocks + lw->room / BBSIZE + 2 * xls_log_writer_hblks(lw) >
	       xls_log_stale_reach(c->in->log, ht) ? 1 : 0;
}

/* The held records written, the last first, then made durable. */
static int write_records(struct commit *c, const struct records *h)
{
	for (uint32_t i = h->n; i-- > 0;)
		if (xls_replay_write_put_log(c->w, h->r[i].blk, h->bytes.p + h->r[i].at,
					     h->r[i].nblks))
			return -1;
	return xls_replay_write_sync(c->w);
}

/* ------------------------------------------------------------------ */

/* Every block's last bytes written, in the order pass 3 wrote them. */
static int write_blocks(struct commit *c, struct xls_pass3_commit_out *out)
{
	if (c->n)
		qsort(c->b, c->n, sizeof(*c->b), by_stage);
	for (uint32_t i = 0; i < c->n; i++) {
		const struct staged *b = &c->b[i];

		out->dropped += b->stale;
		if (b->stale || b->sb)
			continue;
		if (read_stage(c, b->at, c->new, b->len) ||
		    xls_replay_write_data(c->w, b->off, c->new, b->len))
			return -1;
		out->blocks++;
	}
	return xls_replay_write_sync(c->w);
}

static int commit(struct commit *c, struct xls_pass3_commit_out *out)
{
	uint32_t fmt = c->in->found->last_fmt == XLOG_FMT_LINUX_BE ? XLOG_FMT_LINUX_BE :
		       XLOG_FMT_LINUX_LE;
	struct records held = { 0 };
	struct xls_log_writer lw = { 0 };
	uint32_t items[XLS_PASS3_CKPTS];
	const char *why;
	int rc;

	if (load(c))
		return -1;
	mark_stale(c);
	if (settle_sb(c))
		return -1;
	if (c->n)
		qsort(c->b, c->n, sizeof(*c->b), by_off);
	why = plan(c, items);
	if (why && !*why)
		return -1;
	rc = why ? 1 : log_ckpts(c, items, NULL, NULL, &lw);
	if (!why && rc)
		why = "its checkpoints do not fit in the log ahead of the head";
	xls_log_writer_release(&lw);
	if (rc < 0)
		return -1;
	if (why) {
		snprintf(out->not_logged, sizeof(out->not_logged), "%s", why);
		return c->in->must_log ? 0 : write_blocks(c, out);
	}
	rc = log_ckpts(c, items, hold_record, &held, &lw);
	if (!rc) {
		out->log_blocks = lw.blocks;
		out->head = *c->in->found;
		out->head.curr_cycle = lw.cycle;
		out->head.curr_block = lw.blk;
		out->head.last_rec_blk = lw.prev_blk;
		out->head.last_lsn = lw.last_lsn;
	}
	xls_log_writer_release(&lw);
	/* the blocks a crash may have left ahead of the head cleared first, as a mount does */
	if (!rc && (xls_log_write_stale_ahead(c->in->log, c->in->found, fmt,
					      xls_replay_write_put_log, c->w) ||
		    xls_replay_write_sync(c->w) || write_records(c, &held)))
		rc = -1;
	else if (rc > 0)
		rc = fail(c, "its checkpoints, counted then formatted", ENOMEM);
	xls_vec_free(held.r);
	xls_pool_free(&held.bytes);
	if (rc)
		return -1;
	/* logged and durable before a block of theirs is written */
	out->logged = true;
	return write_blocks(c, out);
}

int xls_pass3_commit(struct xls_replay_write *w, const struct xls_pass3_commit_in *in,
		     struct xls_pass3_commit_out *out)
{
	struct commit c = {
		.w = w, .in = in,
		.be = in->found->last_fmt == XLOG_FMT_LINUX_BE,
	};
	struct xls_log_writer probe;
	int rc;

	memset(out, 0, sizeof(*out));
	/* what one op of a record holds, in whole chunks */
	if (xls_log_writer_init(&probe, in->log, in->found, XLOG_FMT_LINUX_LE, NULL, NULL))
		return fail(&c, "the log's record size", EINVAL);
	c.region_max = (probe.room - (uint32_t)sizeof(struct xlog_op_header)) / CHUNK * CHUNK;
	xls_log_writer_release(&probe);
	c.old = malloc(2 * (size_t)XFS_MAX_BLOCKSIZE + c.region_max);
	if (!c.old)
		return fail(&c, "its blocks", ENOMEM);
	c.new = c.old + XFS_MAX_BLOCKSIZE;
	c.item = c.new + XFS_MAX_BLOCKSIZE;
	rc = commit(&c, out);
	free(c.old);
	xls_vec_free(c.b);
	xls_vec_free(c.stale);
	xls_hashmap_free(&c.idx);
	return rc;
}
