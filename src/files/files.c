/*
 * Files stage: what the log does to each file, in recovery order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/ondisk.h"
#include "base/vec.h"
#include <xfs/xfs_da_format.h>
#include "files/run.h"

static const char *const fev_names[XLS_FEV_COUNT] = {
	"created", "freed", "reused", "mode", "uid", "gid", "size", "nlink", "extents",
	"atime", "mtime", "ctime", "dirent_add", "dirent_remove", "dirent_move",
	"xattr_set", "xattr_remove", "xattr_replace", "pptr_set", "pptr_remove",
	"pptr_replace", "map", "unmap",
};

const char *xls_fev_name(enum xls_fev e)
{
	return e < XLS_FEV_COUNT ? fev_names[e] : "?";
}

/* ------------------------------------------------------------------ */

/* The logview's inodes: a directory the log has logged, as it left it. */
static const uint8_t *log_dir_inode(void *ctx, uint64_t ino)
{
	const struct xls_files *f = ctx;
	const uint32_t *i = xls_hashmap_find(&f->forks_idx, ino, 0);

	return i ? f->forks[*i]->dino : NULL;
}

struct xls_files *xls_files_new(const struct xls_source *src, uint64_t mem_bytes,
				uint64_t max_bytes, struct xls_error *err)
{
	struct xls_files *f = calloc(1, sizeof(*f));

	if (!f) {
		xls_error_set(err, XLS_EXIT_INTERNAL,
			      "out of memory for the state of the files stage");
		return NULL;
	}
	if (xls_pagestore_init(&f->states, sizeof(struct ino_state), XLS_FILES_STATE_MEM)) {
		free(f);
		xls_error_set(err, XLS_EXIT_INTERNAL,
			      "out of memory for the state of the files stage");
		return NULL;
	}
	f->src = src;
	xls_spillq_init(&f->out.spill);
	f->out.hold_mem = XLS_FILES_HOLD_MEM;
	f->out.last = UINT32_MAX;
	/* bmap btree blocks too: a directory in btree form maps its blocks there */
	xls_overlay_init(&f->view, src, (1u << XFS_BLFT_DIR_BLOCK_BUF) |
			 (1u << XFS_BLFT_DIR_DATA_BUF) | (1u << XFS_BLFT_ATTR_LEAF_BUF) |
			 (1u << XFS_BLFT_BTREE_BUF), mem_bytes, max_bytes);
	f->view.all_items = true;
	f->disk.src = src;
	xls_fsview_clusters_init(&f->clusters);
	/*
	 * The disk view reads each inode's baseline once, as the log first
	 * names it, through the clusters the log's view keeps too (the
	 * device's bytes only), a cluster whole only for its second inode in
	 * a row: on a log of new inodes they come cluster after cluster
	 * (inodes1g: 2.1 million preads of one inode before), on an
	 * item-dense one in no order a cluster would serve (22,000 reads of
	 * 2,781 clusters there even with 256 of them kept).
	 */
	f->disk.clusters = &f->clusters;
	f->disk.clusters_lazy = true;
	f->logview.src = src;
	f->logview.ovl = &f->view;
	f->logview.clusters = &f->clusters;
	f->logview.inode = log_dir_inode;
	f->logview.inode_ctx = f;
	xls_names_init(&f->names, &f->logview);
	return f;
}

void xls_files_free(struct xls_files *f)
{
	if (!f)
		return;
	xls_overlay_release(&f->view);
	xls_fsview_clusters_release(&f->clusters);
	xls_names_release(&f->names);
	xls_inoidx_free(&f->idx);
	for (uint32_t i = 0; i < f->nforks; i++) {
		free(f->forks[i]->sf);
		free(f->forks[i]->asf);
		free(f->forks[i]->dino);
		free(f->forks[i]);
	}
	xls_vec_free(f->forks);
	xls_hashmap_free(&f->forks_idx);
	xls_xattr_set_free(&f->abefore);
	xls_xattr_set_free(&f->aafter);
	xls_pagestore_free(&f->states);
	xls_vec_free(f->pend);
	xls_pool_free(&f->pool);
	xls_dirent_set_free(&f->before);
	xls_dirent_set_free(&f->after);
	xls_hashmap_free(&f->adds);
	xls_hashmap_free(&f->later_idx);
	xls_vec_free(f->later);
	xls_hashmap_free(&f->created);
	xls_hashmap_free(&f->malformed);
	free(f->blk);
	xls_files_out_release(&f->out);
	free(f->dir.before);
	free(f->dir.after);
	free(f);
}

void xls_files_set_hold_mem(struct xls_files *f, uint64_t bytes)
{
	f->out.hold_mem = bytes;
}

bool xls_files_path(struct xls_files *f, uint64_t ino, char *buf, size_t bufsz, size_t *len)
{
	return xls_names_path(&f->names, ino, buf, bufsz, len);
}

bool xls_files_event_path(struct xls_files *f, const struct xls_file_event *e, char *buf,
			  size_t bufsz, size_t *len)
{
	switch (e->ev) {
	case XLS_FEV_DIRENT_ADD: case XLS_FEV_DIRENT_REMOVE:
	case XLS_FEV_PPTR_SET: case XLS_FEV_PPTR_REMOVE:
		if (e->dir && e->name_len)
			return xls_names_entry_path(&f->names, e->dir, e->name, e->name_len, buf,
						    bufsz, len);
		break;
	case XLS_FEV_DIRENT_MOVE: case XLS_FEV_PPTR_REPLACE:
		if (e->new_dir && e->new_name_len)
			return xls_names_entry_path(&f->names, e->new_dir, e->new_name,
						    e->new_name_len, buf, bufsz, len);
		break;
	default:
		break;
	}
	return xls_names_path(&f->names, e->ino, buf, bufsz, len);
}

/* ------------------------------------------------------------------ */
/* directory blocks a cancel record frees */

/*
 * A cancel record frees the block: its entries, as the log left them, go
 * (they come back in a shortform fork or another block in the same
 * transaction when the directory shrinks, and the pair is then no event).
 */
static void cancel_dir_buf(struct xls_files *f, const struct xls_ritem *ri)
{
	const struct xls_rbuf *rb = ri->buf;
	uint32_t bytes = rb->len * BBSIZE;
	uint8_t *blk;
	struct xls_owner o;
	bool seen;

	blk = xls_files_scratch(f, bytes);
	if (!blk)
		return;
	xls_dirent_set_reset(&f->before);
	xls_dirent_set_reset(&f->after);
	if (xls_overlay_read(&f->view, rb->blkno, 0, blk, bytes, &seen) == 0 && seen &&
	    xls_dir_is_data_block(blk, bytes)) {
		xls_dir_block_walk(&f->src->geo, blk, bytes, xls_dirent_set_add, &f->before);
		xls_owner_from_header(&f->src->geo, rb->blkno, rb->len, blk, bytes, &o);
		xls_files_diff_entries(f, o.has_ino ? o.ino : 0);
		xls_overlay_forget(&f->view, rb->blkno);
	} else if (seen && xls_attr_is_leaf(blk, bytes)) {
		xls_files_attrs_reset(f);
		xls_attr_leaf_walk(blk, bytes, xls_xattr_set_add, &f->abefore);
		if (xls_owner_from_header(&f->src->geo, rb->blkno, rb->len, blk, bytes, &o) &&
		    o.has_ino)
			xls_files_diff_attrs(f, o.ino);
		xls_overlay_forget(&f->view, rb->blkno);
	} else if (seen) {
		xls_overlay_forget(&f->view, rb->blkno);	/* a bmap btree block */
	}
}







/* ------------------------------------------------------------------ */
/* inodes */

static uint64_t ts_ns(const struct xls_log_ts *t, bool bigtime)
{
	if (bigtime)
		return t->v - XLS_BIGTIME_OFFSET_NS;
	return (uint64_t)((int64_t)t->sec * 1000000000ll + t->nsec);
}

static void core_of_log(const struct xls_log_dinode *ld, struct xls_inode_core *c)
{
	bool bigtime = xls_log_dinode_flags2(ld) & XFS_DIFLAG2_BIGTIME;

	memset(c, 0, sizeof(*c));
	c->valid = ld->di_magic == XFS_DINODE_MAGIC;
	c->mode = ld->di_mode;
	c->version = (uint8_t)ld->di_version;
	c->format = (uint8_t)ld->di_format;
	c->aformat = (uint8_t)ld->di_aformat;
	c->forkoff = ld->di_forkoff;
	c->uid = ld->di_uid;
	c->gid = ld->di_gid;
	c->nlink = ld->di_nlink;
	c->gen = ld->di_gen;
	c->size = (uint64_t)ld->di_size;
	c->nextents = xls_log_dinode_nextents(ld);
	c->atime = ts_ns(&ld->di_atime, bigtime);
	c->mtime = ts_ns(&ld->di_mtime, bigtime);
	c->ctime = ts_ns(&ld->di_ctime, bigtime);
	c->crtime = ld->di_version >= 3 ? ts_ns(&ld->di_crtime, bigtime) : 0;
}

/* The inode on disk as the baseline, when it is older than @lsn. */
static void baseline(struct xls_files *f, uint64_t ino, uint64_t lsn, struct ino_state *s)
{
	const struct xls_geometry *g = &f->src->geo;
	struct xls_inode_core c;
	uint8_t dino[2048];
	const uint8_t *fork;
	uint32_t flen;

	/* before the tail, the disk holds a later state of every inode */
	if (f->stale || g->inode_size > sizeof(dino) ||
	    xls_fsview_read_inode(&f->disk, ino, dino, NULL))
		return;
	if (g->crc && xls_be16(dino) == XFS_DINODE_MAGIC) {
		uint64_t dlsn = xls_be64(dino + offsetof(struct xfs_dinode, di_lsn));

		if (dlsn && dlsn != UINT64_MAX && dlsn >= lsn)
			return;		/* the disk is newer: no baseline */
	}
	xls_fsview_core(g, dino, &c);
	xls_files_core_set(s, &c);
	s->known = true;
	fork = xls_fsview_attr_fork(g, dino, &flen);
	if (fork && !xls_inode_core_free(&c) && c.aformat == XFS_DINODE_FMT_LOCAL)
		xls_files_keep_fork(f, s, true, fork, flen);
	fork = xls_fsview_data_fork(g, dino, &flen);
	if (!xls_inode_core_free(&c) && S_ISDIR(c.mode) && c.format == XFS_DINODE_FMT_LOCAL)
		xls_files_keep_fork(f, s, false, fork, c.size < flen ? (uint32_t)c.size : flen);
}

/* A field that changed from @old to @now; NULL when it did not. */
static struct xls_file_event *value_event(struct xls_files *f, uint64_t ino, enum xls_fev ev,
					  uint64_t old, uint64_t now, bool replayed)
{
	struct xls_file_event *e;

	if (old == now)
		return NULL;
	e = xls_fevent(f, ino, ev);
	if (!e)
		return NULL;
	e->old_value = old;
	e->new_value = now;
	e->replayed = replayed;
	return e;
}

/* Timestamps are signed nanoseconds: flag one that goes back, or before crtime. */
static void time_event(struct xls_files *f, uint64_t ino, enum xls_fev ev, uint64_t old,
		       uint64_t now, uint64_t crtime, bool replayed)
{
	struct xls_file_event *e = value_event(f, ino, ev, old, now, replayed);

	if (!e)
		return;
	e->backwards = (int64_t)now < (int64_t)old;
	e->before_crtime = crtime && (int64_t)now < (int64_t)crtime;
}

static void core_events(struct xls_files *f, uint64_t ino, const struct xls_inode_core *a,
			const struct xls_inode_core *b, bool replayed)
{
	bool afree = xls_inode_core_free(a), bfree = xls_inode_core_free(b);
	struct xls_file_event *e;

	if (afree && !bfree) {
		e = xls_fevent(f, ino, XLS_FEV_CREATED);
		if (e) {
			e->new_value = b->gen;
			e->old_value = b->mode;
			e->replayed = replayed;
			xls_files_core_state(b, &e->created);
		}
		return;
	}
	if (!afree && bfree) {
		e = xls_fevent(f, ino, XLS_FEV_FREED);
		if (e)
			e->replayed = replayed;
		return;
	}
	if (afree)
		return;
	if (a->gen != b->gen || (a->mode & S_IFMT) != (b->mode & S_IFMT)) {
		value_event(f, ino, XLS_FEV_REUSED, a->gen, b->gen, replayed);
		if (a->gen == b->gen)
			value_event(f, ino, XLS_FEV_REUSED, a->mode, b->mode, replayed);
		return;
	}
	value_event(f, ino, XLS_FEV_MODE, a->mode, b->mode, replayed);
	value_event(f, ino, XLS_FEV_UID, a->uid, b->uid, replayed);
	value_event(f, ino, XLS_FEV_GID, a->gid, b->gid, replayed);
	value_event(f, ino, XLS_FEV_SIZE, a->size, b->size, replayed);
	value_event(f, ino, XLS_FEV_NLINK, a->nlink, b->nlink, replayed);
	value_event(f, ino, XLS_FEV_EXTENTS, a->nextents, b->nextents, replayed);
	time_event(f, ino, XLS_FEV_ATIME, a->atime, b->atime, b->crtime, replayed);
	time_event(f, ino, XLS_FEV_MTIME, a->mtime, b->mtime, b->crtime, replayed);
	time_event(f, ino, XLS_FEV_CTIME, a->ctime, b->ctime, b->crtime, replayed);
}

static void sf_events(struct xls_files *f, uint64_t ino, struct ino_state *s,
		      const struct xls_rinode *in, const struct xls_inode_core *now)
{
	const struct xls_geometry *g = &f->src->geo;
	const struct ino_forks *fk = xls_ino_forks(f, s);
	bool local = !xls_inode_core_free(now) && S_ISDIR(now->mode) &&
		     now->format == XFS_DINODE_FMT_LOCAL;
	/* what the kernel reads of the fork: di_size bytes (xfs_iformat_local) */
	uint32_t used = local && in->dfork ?
			(now->size < in->dfork_len ? (uint32_t)now->size : in->dfork_len) : 0;
	uint64_t parent;
	uint32_t first;

	if (local && !(in->fields & XFS_ILOG_DDATA))
		return;		/* the fork is not logged: as it was */
	if (local && in->dfork && xls_files_fork_same(fk->sf, fk->sf_len, in->dfork, used))
		return;		/* logged again as it was: the same entries */
	xls_dirent_set_reset(&f->before);
	xls_dirent_set_reset(&f->after);
	if (fk->sf)
		xls_dir_sf_walk(g, fk->sf, fk->sf_len, &parent, xls_dirent_set_add, &f->before);
	if (local && in->dfork)
		xls_files_malformed(f, XLS_FILES_SF_DIR, ino,
				    xls_dir_sf_walk(g, in->dfork, used, &parent,
						    xls_dirent_set_add, &f->after));
	first = f->npend;
	if (s->known && (fk->sf || local))
		xls_files_diff_entries(f, ino);
	/*
	 * Before the tail, a block that becomes this fork is not known whole
	 * (its freeing tells no entry): its entries here are unsure adds,
	 * kept only where the transaction creates or moves the inode.
	 */
	if (f->stale && !fk->sf && local)
		for (uint32_t i = first; i < f->npend; i++)
			f->pend[i].unsure = true;
	xls_files_keep_fork(f, s, false, local ? in->dfork : NULL, used);
}

/*
 * A directory's inode as the log leaves it, for the names' look-ups: the
 * disk's inode the first time (its fork where the item logs none), then
 * every item written in as recovery writes it.
 */
static void keep_dir_inode(struct xls_files *f, const struct xls_ritem *ri,
			   struct ino_state *s, const struct xls_inode_core *now)
{
	const struct xls_geometry *g = &f->src->geo;
	struct ino_forks *fk;
	const char *why;

	if (xls_inode_core_free(now) || !S_ISDIR(now->mode) || !g->inode_size ||
	    g->inode_size > 2048) {
		if (s->has_forks) {
			fk = xls_files_forks(f, s);
			free(fk->dino);
			fk->dino = NULL;
		}
		return;
	}
	fk = xls_files_forks(f, s);
	if (!fk)
		return;
	fk->ino = ri->ino;
	if (!fk->dino) {
		fk->dino = malloc(g->inode_size);
		if (!fk->dino) {
			f->nomem = true;
			return;
		}
		if (xls_fsview_read_inode(&f->disk, ri->ino, fk->dino, NULL) ||
		    xls_be16(fk->dino) != XFS_DINODE_MAGIC) {
			memset(fk->dino, 0, g->inode_size);
			fk->dino[0] = XFS_DINODE_MAGIC >> 8;
			fk->dino[1] = XFS_DINODE_MAGIC & 0xff;
		}
	}
	(void)xls_recover_apply_dinode(g, ri->inode, 0,
				       fk->dino, &why);
	xls_names_view_changed(&f->names);
}

/*
 * keep_dir_inode, and the blocks a directory's inode item maps anew
 * (xls_files_dir_remap): against the disk's mapping where the log shows
 * the inode first, else where its extents in the inode change.  (A bmap
 * btree's own changes come as its buffer items, before the inode's: the
 * log's view then holds the new mapping only.)
 */
static void remap_dir(struct xls_files *f, const struct xls_ritem *ri, struct ino_state *s,
		      const struct xls_inode_core *now)
{
	const struct xls_geometry *g = &f->src->geo;
	uint8_t before[2048];
	const struct ino_forks *fk = xls_ino_forks(f, s);
	bool first = !fk->dino, have;

	if (f->stale || xls_inode_core_free(now) || !S_ISDIR(now->mode) ||
	    (now->format != XFS_DINODE_FMT_EXTENTS && now->format != XFS_DINODE_FMT_BTREE) ||
	    (!first && now->format != XFS_DINODE_FMT_EXTENTS) ||
	    (!first && (s->nextents == now->nextents && s->format == now->format)) ||
	    !g->inode_size || g->inode_size > sizeof(before)) {
		keep_dir_inode(f, ri, s, now);
		return;
	}
	have = !first || !xls_fsview_read_inode(&f->disk, ri->ino, before, NULL);
	if (!first)
		memcpy(before, fk->dino, g->inode_size);
	keep_dir_inode(f, ri, s, now);
	fk = xls_ino_forks(f, s);
	if (have && fk->dino)
		xls_files_dir_remap(f, ri->ino, before, first, fk->dino);
}

static void take_inode(struct xls_files *f, const struct xls_rtrans *rt,
		       const struct xls_ritem *ri)
{
	struct xls_inode_core now, was;
	struct ino_state *s;
	uint32_t idx;

	if (!ri->inode || !ri->inode->has_core)
		return;
	idx = xls_files_state_index(f, ri->ino);
	/* pinned: an event going out may look up or add another state */
	if (idx == UINT32_MAX)
		return;
	s = xls_pagestore_pin(&f->states, idx);
	if (!s) {
		xls_files_state_failed(f);
		return;
	}
	if (!s->seen)
		baseline(f, ri->ino, rt->t->lsn, s);
	s->seen = true;
	core_of_log(&ri->inode->core, &now);
	if (s->known) {
		xls_files_core_get(s, &was);
		core_events(f, ri->ino, &was, &now, f->replayed && ri->decision == XLS_RD_REPLAY);
	}
	sf_events(f, ri->ino, s, ri->inode, &now);
	xls_files_asf_events(f, ri->ino, s, ri->inode, &now);
	remap_dir(f, ri, s, &now);
	xls_files_core_set(s, &now);
	s->known = true;
	/* the items of an inode replay from the first whose LSN beats the disk's on */
	s->last_skipped = !f->stale && ri->decision != XLS_RD_REPLAY;
	xls_pagestore_unpin(&f->states, idx);
}

/* ------------------------------------------------------------------ */
/* intents */

static void take_intent(struct xls_files *f, const struct xls_ritem *ri)
{
	const struct xls_rintent_data *in = ri->intent;
	struct xls_file_event *e;
	enum xls_fev ev;

	if (in->type == XFS_LI_BUI) {
		if (in->op != XFS_BMAP_MAP && in->op != XFS_BMAP_UNMAP)
			return;
		e = xls_fevent(f, in->ino, in->op == XFS_BMAP_MAP ? XLS_FEV_MAP : XLS_FEV_UNMAP);
		if (e) {
			e->startoff = in->startoff;
			e->startblock = in->startblock;
			e->len = in->len;
		}
		return;
	}
	switch (in->op) {
	case XFS_ATTRI_OP_FLAGS_SET:		ev = XLS_FEV_XATTR_SET; break;
	case XFS_ATTRI_OP_FLAGS_REMOVE:		ev = XLS_FEV_XATTR_REMOVE; break;
	case XFS_ATTRI_OP_FLAGS_REPLACE:	ev = XLS_FEV_XATTR_REPLACE; break;
	case XFS_ATTRI_OP_FLAGS_PPTR_SET:	ev = XLS_FEV_PPTR_SET; break;
	case XFS_ATTRI_OP_FLAGS_PPTR_REMOVE:	ev = XLS_FEV_PPTR_REMOVE; break;
	case XFS_ATTRI_OP_FLAGS_PPTR_REPLACE:	ev = XLS_FEV_PPTR_REPLACE; break;
	default:				return;
	}
	e = xls_fevent(f, in->ino, ev);
	if (!e)
		return;
	xls_fevent_name(f, e, in->name, in->name_len, false);
	if (in->has_parent)
		e->dir = in->parent_ino;
	if (ev == XLS_FEV_PPTR_REPLACE) {
		xls_fevent_name(f, e, in->new_name, in->new_name_len, true);
		if (in->has_new_parent)
			e->new_dir = in->new_parent_ino;
	}
}

/* ------------------------------------------------------------------ */
/* recovery's sink */

static int on_trans(void *ctx, const struct xls_rtrans *rt)
{
	struct xls_files *f = ctx;

	xls_files_dir_flush(f);
	xls_files_flush(f);
	f->rt = rt->replayed ? rt : NULL;
	return f->rc ? f->rc : f->nomem ? -ENOMEM : 0;
}

static int on_item(void *ctx, const struct xls_rtrans *rt, const struct xls_ritem *ri)
{
	struct xls_files *f = ctx;

	if (!f->rt)
		return 0;
	f->replayed = !f->stale &&
		      (ri->decision == XLS_RD_REPLAY || ri->decision == XLS_RD_REPLAY_ALWAYS);
	if (!ri->buf || !xls_files_is_dir_data(ri->buf->blft) ||
	    (ri->buf->blf_flags & XFS_BLF_CANCEL))
		xls_files_dir_flush(f);
	if (ri->buf && (ri->buf->blf_flags & XFS_BLF_CANCEL) && f->stale)
		xls_overlay_forget(&f->view, ri->buf->blkno);	/* its entries are not known */
	else if (ri->buf && (ri->buf->blf_flags & XFS_BLF_CANCEL))
		cancel_dir_buf(f, ri);
	else if (ri->buf && xls_files_is_dir_data(ri->buf->blft) && ri->buf->data &&
		 ri->decision != XLS_RD_FAIL)
		xls_files_take_dir_buf(f, rt, ri);
	else if (ri->buf && ri->buf->blft == XFS_BLFT_ATTR_LEAF_BUF && ri->buf->data &&
		 ri->decision != XLS_RD_FAIL)
		xls_files_take_attr_buf(f, rt, ri);
	else if (ri->buf && ri->buf->blft == XFS_BLFT_BTREE_BUF)
		xls_overlay_take(&f->view, rt, ri);	/* bmbt: the log's view of the maps */
	else if (ri->has_ino)
		take_inode(f, rt, ri);
	else if (ri->intent)
		take_intent(f, ri);
	return f->rc ? f->rc : f->nomem ? -ENOMEM : 0;
}

/* The view's bound was reached: what became approximate, as a finding. */
static int approximate(struct xls_files *f)
{
	struct xls_finding fd;

	xls_finding_make(&fd, XLS_FIND_FILES_BOUND, NULL,
			 "more than %llu bytes of directory and attr blocks: %llu "
			 "later items of blocks past the bound were compared with the disk, not "
			 "with the log's view; their entry and xattr events are approximate",
			 (unsigned long long)f->view.max_bytes, (unsigned long long)f->view.not_taken);
	return f->sink->report ? xls_report_finding(f->sink->report, &fd) : 0;
}

/*
 * At the end, every directory the log leaves, read whole through the
 * log's view: the entries it never logged (on the disk, unchanged) name
 * the inodes whose name the log removed while another link stays, and
 * those it never named.
 */
static void sweep_dirs(struct xls_files *f)
{
	/*
	 * The blocks the log took were named when first seen (v5: their
	 * headers name the directory), and changed since as events.
	 */
	uint64_t *order = malloc(sizeof(*order) * (f->nforks ? f->nforks : 1));

	if (!order) {
		f->nomem = true;
		return;
	}
	/* in the order the log first named the inodes, as their states are */
	for (uint32_t i = 0; i < f->nforks; i++)
		order[i] = (uint64_t)xls_inoidx_find(&f->idx, f->forks[i]->ino) << 32 | i;
	qsort(order, f->nforks, sizeof(*order), xls_cmp_u64);
	f->logview.skip_held = f->src->geo.crc;
	for (uint32_t i = 0; i < f->nforks; i++) {
		const struct ino_forks *fk = f->forks[(uint32_t)order[i]];
		struct xls_names_dir d = { &f->names, fk->ino };
		uint64_t parent;

		if (fk->dino)
			xls_fsview_dir(&f->logview, d.dir, &parent, xls_names_learn_entry, &d);
	}
	f->logview.skip_held = false;
	free(order);
}

static int on_stale_gap(void *ctx, const struct xls_stale_gap *g)
{
	struct xls_files *f = ctx;

	/* no transaction goes on across it: the one at hand is over */
	xls_files_dir_flush(f);
	xls_files_flush(f);
	return f->sink->stale_gap ? f->sink->stale_gap(f->sink->ctx, g) : 0;
}

void xls_files_set_quota(struct xls_files *f, const struct xls_quota_opts *q)
{
	f->quota = *q;
}

int xls_files_run(struct xls_files *f, struct xls_log *log, const struct xls_head_tail *ht,
		  bool stale, const struct xls_files_sink *sink, struct xls_error *err)
{
	/*
	 * Only the blocks files reads are decided: of the btree blocks the
	 * bmap btree's, which recovery keeps whatever only_types says.
	 */
	struct xls_recover_opts ro = {
		.keep_types = f->view.types, .keep_inodes = true, .keep_intents = true,
		.quiet = true, .only_types = f->view.types & ~(1u << XFS_BLFT_BTREE_BUF),
		.quota = f->quota,
		.stale = stale,
	};
	struct xls_recover_sink rs = {
		.ctx = f, .trans = on_trans, .item = on_item, .report = sink->report,
		.stale_gap = stale ? on_stale_gap : NULL,
	};
	struct xls_recover *r;
	int rc;

	f->sink = sink;
	f->stale = stale;
	r = xls_recover_new(f->src, &ro, err);
	if (!r)
		return -1;
	rc = xls_recover_run(r, log, ht, &rs, err);
	if (!rc) {
		xls_files_dir_flush(f);
		xls_files_flush(f);
		sweep_dirs(f);
		xls_files_out_drain(f, true);
		xls_files_out_summaries(f);
	}
	xls_recover_free(r);
	if (xls_overlay_error(&f->view, err))
		return -1;
	if (xls_names_file_error(&f->names))
		xls_files_tmp_failed(f, f->names.names.dir, xls_names_file_error(&f->names));
	if (f->tmp_error)
		return xls_error_set(err, XLS_EXIT_INPUT, "cannot keep the inodes' states and names in a "
				     "temporary file in '%s' (TMPDIR): %s",
				     f->tmp_dir ? f->tmp_dir : "/tmp", strerror(f->tmp_error));
	if (rc == -ENOMEM || f->nomem)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the inodes, "
				     "directories and events the files stage follows");
	if (f->names.dropped)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the names of "
				     "inodes: %llu names dropped, paths incomplete",
				     (unsigned long long)f->names.dropped);
	if (f->out.spill.error)
		return xls_error_set(err, XLS_EXIT_INPUT, "cannot keep the events waiting for a path "
				     "in a temporary file in '%s' (TMPDIR): %s",
				     f->out.spill.dir ? f->out.spill.dir : "$TMPDIR",
				     strerror(f->out.spill.error));
	if (!rc && !f->rc && f->view.full)
		rc = approximate(f);
	return rc ? rc : f->rc;
}
