/*
 * Semantics stage: what the log does to each file, in recovery order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/ondisk.h"
#include "base/vec.h"
#include <xfs/xfs_da_format.h>
#include "recover/recover.h"
#include "replay/overlay.h"
#include "semantics/dirent.h"
#include "semantics/files.h"
#include "semantics/fsview.h"
#include "semantics/names.h"
#include "semantics/owner.h"
#include "semantics/xattr.h"

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

/* An inode as the log said last. */
struct ino_state {
	bool		known;		/* a core to compare with */
	struct xls_inode_core c;
	uint8_t		*sf;		/* a shortform directory's fork, or NULL */
	uint32_t	sf_len;
	uint8_t		*asf;		/* a shortform attr fork, or NULL */
	uint32_t	asf_len;
};

struct xls_files {
	const struct xls_source		*src;
	struct xls_overlay		view;		/* the log's view of dir blocks */
	struct xls_fsview		disk;
	struct xls_names		names;
	struct xls_hashmap		idx;		/* ino -> inos[] */
	struct ino_state		*inos;
	uint32_t			ninos, capinos;
	const struct xls_files_sink	*sink;
	/* the events of the transaction at hand, paired into moves at its end */
	struct xls_file_event		*pend;
	uint32_t			npend, cappend;
	uint8_t				*pool;		/* their names */
	uint32_t			used, pcap;
	const struct xls_rtrans		*rt;
	struct xls_dirent_set		before, after;
	struct xls_xattr_set		abefore, aafter;
	uint8_t				*blk;		/* a block read from the view */
	uint32_t			blk_cap;
	/* adds of the transaction by inode, to pair with removes */
	struct xls_hashmap		adds;
	struct xls_hashmap		created;	/* inodes it creates */
	bool				replayed;	/* the item at hand */
	int				rc;
	bool				nomem;
};

/* ------------------------------------------------------------------ */

struct xls_files *xls_files_new(const struct xls_source *src, struct xls_error *err)
{
	struct xls_files *f = calloc(1, sizeof(*f));

	if (!f) {
		xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory");
		return NULL;
	}
	f->src = src;
	xls_overlay_init(&f->view, src, (1u << XFS_BLFT_DIR_BLOCK_BUF) |
			 (1u << XFS_BLFT_DIR_DATA_BUF) | (1u << XFS_BLFT_ATTR_LEAF_BUF),
			 XLS_OVERLAY_MAX_BYTES);
	f->view.all_items = true;
	f->disk.src = src;
	xls_names_init(&f->names, &f->disk);
	return f;
}

void xls_files_free(struct xls_files *f)
{
	if (!f)
		return;
	xls_overlay_release(&f->view);
	xls_names_release(&f->names);
	xls_hashmap_free(&f->idx);
	for (uint32_t i = 0; i < f->ninos; i++) {
		free(f->inos[i].sf);
		free(f->inos[i].asf);
	}
	xls_xattr_set_free(&f->abefore);
	xls_xattr_set_free(&f->aafter);
	free(f->inos);
	free(f->pend);
	free(f->pool);
	xls_dirent_set_free(&f->before);
	xls_dirent_set_free(&f->after);
	xls_hashmap_free(&f->adds);
	xls_hashmap_free(&f->created);
	free(f->blk);
	free(f);
}

bool xls_files_path(struct xls_files *f, uint64_t ino, char *buf, size_t bufsz)
{
	return xls_names_path(&f->names, ino, buf, bufsz);
}

/* ------------------------------------------------------------------ */
/* events of the transaction at hand */

/* @len bytes of @s kept for the transaction; an offset, UINT32_MAX if none. */
static uint32_t keep_name(struct xls_files *f, const uint8_t *s, uint32_t len)
{
	uint32_t off = f->used;

	if (!len || !s)
		return UINT32_MAX;
	while (f->used + len > f->pcap) {
		uint32_t ncap = f->pcap ? f->pcap * 2 : 4096;
		uint8_t *p = ncap > f->pcap ? realloc(f->pool, ncap) : NULL;

		if (!p) {
			f->nomem = true;
			return UINT32_MAX;
		}
		f->pool = p;
		f->pcap = ncap;
	}
	memcpy(f->pool + off, s, len);
	f->used += len;
	return off;
}

static struct xls_file_event *event(struct xls_files *f, uint64_t ino, enum xls_fev ev)
{
	struct xls_file_event *e;

	if (!xls_vec_grow((void **)&f->pend, f->npend, &f->cappend, sizeof(*e))) {
		f->nomem = true;
		return NULL;
	}
	e = &f->pend[f->npend++];
	memset(e, 0, sizeof(*e));
	e->seq = f->rt->seq;
	e->tid = f->rt->t->tid;
	e->lsn = f->rt->t->lsn;
	e->ino = ino;
	e->ev = ev;
	e->replayed = f->replayed;
	/* names are pool offsets until the transaction is flushed */
	e->name_len = e->new_name_len = 0;
	return e;
}

static void set_name(struct xls_files *f, struct xls_file_event *e, const uint8_t *name,
		     uint32_t len, bool second)
{
	uint32_t off = keep_name(f, name, len);

	if (off == UINT32_MAX)
		return;
	if (second) {
		e->new_name = (const uint8_t *)(uintptr_t)off;
		e->new_name_len = len;
	} else {
		e->name = (const uint8_t *)(uintptr_t)off;
		e->name_len = len;
	}
}

static bool same_name(const struct xls_files *f, const struct xls_file_event *a,
		      const struct xls_file_event *b)
{
	return a->name_len == b->name_len &&
	       !memcmp(f->pool + (uintptr_t)a->name, f->pool + (uintptr_t)b->name, a->name_len);
}

/*
 * Within one transaction a remove and an add of the same inode are a move
 * (rename) -- or nothing, when directory and name are the same (a
 * shortform directory converted to a block).
 */
static void pair_moves(struct xls_files *f)
{
	uint32_t removes = 0;

	for (uint32_t i = 0; i < f->npend; i++)
		removes += f->pend[i].ev == XLS_FEV_DIRENT_REMOVE;
	if (!removes)
		return;
	/* the first add of each inode: a big checkpoint has thousands */
	xls_hashmap_clear(&f->adds);
	for (uint32_t i = f->npend; i-- > 0;)
		if (f->pend[i].ev == XLS_FEV_DIRENT_ADD &&
		    xls_hashmap_put(&f->adds, f->pend[i].ino, 0, i))
			f->nomem = true;
	for (uint32_t i = 0; i < f->npend; i++) {
		struct xls_file_event *rm = &f->pend[i];
		const uint32_t *first;

		if (rm->ev != XLS_FEV_DIRENT_REMOVE)
			continue;
		first = xls_hashmap_find(&f->adds, rm->ino, 0);
		for (uint32_t j = first ? *first : f->npend; j < f->npend; j++) {
			struct xls_file_event *add = &f->pend[j];

			if (add->ev != XLS_FEV_DIRENT_ADD || add->ino != rm->ino)
				continue;
			if (add->dir == rm->dir && same_name(f, add, rm)) {
				add->ev = rm->ev = XLS_FEV_COUNT;	/* dropped */
				break;
			}
			rm->ev = XLS_FEV_DIRENT_MOVE;
			rm->new_dir = add->dir;
			rm->new_name = add->name;
			rm->new_name_len = add->name_len;
			add->ev = XLS_FEV_COUNT;
			break;
		}
	}
}

static bool is_attr_set(enum xls_fev ev)
{
	return ev == XLS_FEV_XATTR_SET || ev == XLS_FEV_PPTR_SET;
}

/*
 * An attr removed from one form and set in another in one transaction
 * (shortform to leaf, leaf to shortform) is no event, or a replace when
 * its value changed.
 */
static void pair_attrs(struct xls_files *f)
{
	for (uint32_t i = 0; i < f->npend; i++) {
		struct xls_file_event *rm = &f->pend[i];

		if (rm->ev != XLS_FEV_XATTR_REMOVE && rm->ev != XLS_FEV_PPTR_REMOVE)
			continue;
		for (uint32_t j = 0; j < f->npend; j++) {
			struct xls_file_event *set = &f->pend[j];

			if (!is_attr_set(set->ev) || set->ino != rm->ino || set->dir != rm->dir ||
			    (set->ev == XLS_FEV_PPTR_SET) != (rm->ev == XLS_FEV_PPTR_REMOVE) ||
			    !same_name(f, set, rm))
				continue;
			if (set->new_value == rm->old_value || set->ev == XLS_FEV_PPTR_SET)
				set->ev = XLS_FEV_COUNT;
			else
				set->ev = XLS_FEV_XATTR_REPLACE;
			rm->ev = XLS_FEV_COUNT;
			break;
		}
	}
}

/* An unsure add stays when the transaction creates its inode. */
static void confirm_unsure(struct xls_files *f)
{
	bool any = false;

	for (uint32_t i = 0; i < f->npend && !any; i++)
		any = f->pend[i].unsure && f->pend[i].ev == XLS_FEV_DIRENT_ADD;
	if (!any)
		return;
	xls_hashmap_clear(&f->created);
	for (uint32_t i = 0; i < f->npend; i++)
		if (f->pend[i].ev == XLS_FEV_CREATED &&
		    xls_hashmap_put(&f->created, f->pend[i].ino, 0, i))
			f->nomem = true;
	for (uint32_t i = 0; i < f->npend; i++)
		if (f->pend[i].unsure && f->pend[i].ev == XLS_FEV_DIRENT_ADD &&
		    !xls_hashmap_find(&f->created, f->pend[i].ino, 0))
			f->pend[i].ev = XLS_FEV_COUNT;
}

static void flush(struct xls_files *f)
{
	pair_moves(f);
	confirm_unsure(f);
	pair_attrs(f);
	/* the names first: each event of the transaction then has its path */
	for (uint32_t i = 0; i < f->npend; i++) {
		struct xls_file_event *e = &f->pend[i];

		e->name = e->name_len ? f->pool + (uintptr_t)e->name : NULL;
		e->new_name = e->new_name_len ? f->pool + (uintptr_t)e->new_name : NULL;
		if (e->ev == XLS_FEV_DIRENT_ADD && e->dir)
			xls_names_learn(&f->names, e->ino, e->dir, e->name, e->name_len);
		else if (e->ev == XLS_FEV_DIRENT_MOVE && e->new_dir)
			xls_names_learn(&f->names, e->ino, e->new_dir, e->new_name, e->new_name_len);
		else if (e->ev == XLS_FEV_PPTR_SET && e->dir)
			xls_names_learn(&f->names, e->ino, e->dir, e->name, e->name_len);
	}
	for (uint32_t i = 0; i < f->npend && !f->rc; i++)
		if (f->pend[i].ev != XLS_FEV_COUNT && f->sink->event)
			f->rc = f->sink->event(f->sink->ctx, &f->pend[i]);
	f->npend = 0;
	f->used = 0;
}

/* ------------------------------------------------------------------ */
/* directory entries: before and after */

/* The entries of before and after that differ, as events of directory @dir. */
static void diff_entries(struct xls_files *f, uint64_t dir)
{
	struct xls_dirent_set *a = &f->before, *b = &f->after;
	uint32_t i = 0, j = 0;

	/* most of a block logged again is as it was: only the rest is sorted */
	xls_dirent_set_drop_same(a, b);
	xls_dirent_set_sort(a);
	xls_dirent_set_sort(b);
	while (i < a->n || j < b->n) {
		int c = i == a->n ? 1 : j == b->n ? -1 : xls_dirent_set_cmp(a, i, b, j, true);
		const struct xls_dirent_set *s = c < 0 ? a : b;
		uint32_t k = c < 0 ? i : j;
		struct xls_file_event *e;

		if (!c) {
			i++;
			j++;
			continue;
		}
		e = event(f, s->e[k].ino, c < 0 ? XLS_FEV_DIRENT_REMOVE : XLS_FEV_DIRENT_ADD);
		if (e) {
			e->dir = dir;
			set_name(f, e, xls_dirent_set_name(s, k), s->e[k].len, false);
		}
		if (c < 0)
			i++;
		else
			j++;
	}
	if (a->nomem || b->nomem)
		f->nomem = true;
}

/* ------------------------------------------------------------------ */
/* attrs: before and after */

/* An attr event of inode @ino: "ns.name", or a parent pointer's entry name. */
static void attr_event(struct xls_files *f, uint64_t ino, const struct xls_xattr_set *s,
		       uint32_t k, bool set)
{
	const struct xls_xattr_rec *x = &s->e[k];
	bool pptr = x->flags & XFS_ATTR_PARENT;
	struct xls_file_event *e;
	char name[300];
	uint32_t n;

	e = event(f, ino, pptr ? (set ? XLS_FEV_PPTR_SET : XLS_FEV_PPTR_REMOVE) :
		  (set ? XLS_FEV_XATTR_SET : XLS_FEV_XATTR_REMOVE));
	if (!e)
		return;
	e->dir = x->parent;
	if (set)
		e->new_value = x->vhash;
	else
		e->old_value = x->vhash;
	n = xls_xattr_set_name(s, k, name, sizeof(name));
	set_name(f, e, (const uint8_t *)name, n, false);
}

static void diff_attrs(struct xls_files *f, uint64_t ino)
{
	struct xls_xattr_set *a = &f->abefore, *b = &f->aafter;
	uint32_t i = 0, j = 0;

	xls_xattr_set_sort(a);
	xls_xattr_set_sort(b);
	while (i < a->n || j < b->n) {
		int c = i == a->n ? 1 : j == b->n ? -1 : xls_xattr_set_cmp(a, i, b, j);

		if (c < 0) {
			attr_event(f, ino, a, i++, false);
		} else if (c > 0) {
			attr_event(f, ino, b, j++, true);
		} else {
			if (a->e[i].vhash != b->e[j].vhash) {
				attr_event(f, ino, a, i, false);
				attr_event(f, ino, b, j, true);
			}
			i++;
			j++;
		}
	}
	if (a->nomem || b->nomem)
		f->nomem = true;
}

static void aents_reset(struct xls_files *f)
{
	xls_xattr_set_reset(&f->abefore);
	xls_xattr_set_reset(&f->aafter);
}

static bool is_dir_data(unsigned int blft)
{
	return blft == XFS_BLFT_DIR_BLOCK_BUF || blft == XFS_BLFT_DIR_DATA_BUF;
}

/* The LSN a v5 block header records, 0 if none. */
static uint64_t header_lsn(const uint8_t *blk, uint32_t len)
{
	uint32_t m = len >= 4 ? xls_be32(blk) : 0;

	if ((m == XFS_DIR3_BLOCK_MAGIC || m == XFS_DIR3_DATA_MAGIC) &&
	    len >= offsetof(struct xfs_dir3_blk_hdr, lsn) + 8)
		return xls_be64(blk + offsetof(struct xfs_dir3_blk_hdr, lsn));
	return 0;
}

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

	blk = malloc(bytes);
	if (!blk) {
		f->nomem = true;
		return;
	}
	xls_dirent_set_reset(&f->before);
	xls_dirent_set_reset(&f->after);
	if (xls_overlay_read(&f->view, rb->blkno, 0, blk, bytes, &seen) == 0 && seen &&
	    xls_dir_is_data_block(blk, bytes)) {
		xls_dir_block_walk(&f->src->geo, blk, bytes, xls_dirent_set_add, &f->before);
		xls_owner_from_header(&f->src->geo, rb->blkno, rb->len, blk, bytes, &o);
		diff_entries(f, o.has_ino ? o.ino : 0);
		xls_overlay_forget(&f->view, rb->blkno);
	} else if (seen && xls_attr_is_leaf(blk, bytes)) {
		aents_reset(f);
		xls_attr_leaf_walk(blk, bytes, xls_xattr_set_add, &f->abefore);
		if (xls_owner_from_header(&f->src->geo, rb->blkno, rb->len, blk, bytes, &o) &&
		    o.has_ino)
			diff_attrs(f, o.ino);
		xls_overlay_forget(&f->view, rb->blkno);
	}
	free(blk);
}

/* The entries that overlap the regions an item logs: only they can change. */
struct in_regions {
	struct xls_dirent_set		*set;
	const struct xls_geometry	*g;
	const struct xls_region_place	*p;
	uint32_t			n, at;
};

static int collect_logged(void *ctx, const struct xls_dirent *e)
{
	struct in_regions *r = ctx;
	uint32_t end = e->offset + xls_dirent_size(r->g, e->namelen);

	/* entries come in offset order, and so do the places */
	while (r->at < r->n && r->p[r->at].offset + r->p[r->at].len <= e->offset)
		r->at++;
	if (r->at == r->n || r->p[r->at].offset >= end)
		return 0;
	return xls_dirent_set_add(r->set, e);
}

static uint8_t *scratch(struct xls_files *f, uint32_t bytes)
{
	if (bytes > f->blk_cap) {
		uint8_t *p = realloc(f->blk, bytes);

		if (!p) {
			f->nomem = true;
			return NULL;
		}
		f->blk = p;
		f->blk_cap = bytes;
	}
	return f->blk;
}

/*
 * The 128-byte chunks of @blk (the block before the item) that the item's
 * logged bytes change, as places in @out (at most XLS_BLF_BITS_PER_WORD *
 * XFS_BLF_DATAMAP_SIZE); their number.  A relogged region mostly holds
 * what the block already has.
 */
static uint32_t changed_chunks(const struct xls_rbuf *rb, const uint8_t *blk, uint32_t bytes,
			       struct xls_region_place *out)
{
	const uint8_t *src = rb->data;
	uint32_t n = 0;

	for (uint32_t i = 0; i < rb->res->nplaces; i++) {
		const struct xls_region_place *p = &rb->res->places[i];

		for (uint32_t off = 0; off < p->len && (uint64_t)p->offset + off < bytes;
		     off += XFS_BLF_CHUNK) {
			uint32_t len = p->len - off < XFS_BLF_CHUNK ? p->len - off : XFS_BLF_CHUNK;

			if (!memcmp(blk + p->offset + off, src + off, len))
				continue;
			if (n && out[n - 1].offset + out[n - 1].len == p->offset + off) {
				out[n - 1].len += len;
				continue;
			}
			out[n].offset = p->offset + off;
			out[n].len = len;
			n++;
		}
		src += p->len;
	}
	return n;
}

/*
 * The first item of a block the disk holds a later state of: its logged
 * entries, each an unsure add (confirm_unsure keeps those the transaction
 * creates or moves).
 */
static void unsure_entries(struct xls_files *f, const struct xls_rbuf *rb, const uint8_t *blk,
			   uint32_t bytes)
{
	struct in_regions logged = { &f->after, &f->src->geo, rb->res->places, rb->res->nplaces, 0 };
	uint32_t first = f->npend;
	struct xls_owner o;

	xls_dirent_set_reset(&f->after);
	xls_dir_block_walk(&f->src->geo, blk, bytes, collect_logged, &logged);
	if (!xls_owner_from_header(&f->src->geo, rb->blkno, rb->len, blk, bytes, &o))
		o.has_ino = false;
	for (uint32_t k = 0; k < f->after.n; k++) {
		struct xls_file_event *e = event(f, f->after.e[k].ino, XLS_FEV_DIRENT_ADD);

		if (!e)
			return;
		e->dir = o.has_ino ? o.ino : 0;
		set_name(f, e, xls_dirent_set_name(&f->after, k), f->after.e[k].len, false);
	}
	for (uint32_t i = first; i < f->npend; i++)
		f->pend[i].unsure = true;
}

static void take_dir_buf(struct xls_files *f, const struct xls_rtrans *rt,
			 const struct xls_ritem *ri)
{
	const struct xls_rbuf *rb = ri->buf;
	const struct xls_geometry *g = &f->src->geo;
	uint32_t bytes = rb->len * BBSIZE, nchanged;
	uint8_t *blk = scratch(f, bytes);
	struct xls_region_place changed[XFS_BLF_DATAMAP_SIZE * XLS_BLF_BITS_PER_WORD];
	struct in_regions before = { &f->before, g, changed, 0, 0 };
	struct in_regions after = { &f->after, g, changed, 0, 0 };
	struct xls_owner o;
	bool seen, known;

	if (!blk)
		return;
	xls_dirent_set_reset(&f->before);
	xls_dirent_set_reset(&f->after);
	/* the log's view before the item: the disk the first time, if older */
	known = xls_overlay_read(&f->view, rb->blkno, 0, blk, bytes, &seen) == 0;
	if (known && !seen && g->crc) {
		uint64_t lsn = header_lsn(blk, bytes);

		known = !lsn || lsn < rt->t->lsn;
	}
	nchanged = known ? changed_chunks(rb, blk, bytes, changed) : 0;
	before.n = after.n = nchanged;
	if (nchanged)
		xls_dir_block_walk(g, blk, bytes, collect_logged, &before);
	xls_overlay_take(&f->view, rt, ri);
	if (nchanged && xls_overlay_read(&f->view, rb->blkno, 0, blk, bytes, NULL) == 0) {
		xls_dir_block_walk(g, blk, bytes, collect_logged, &after);
		xls_owner_from_header(g, rb->blkno, rb->len, blk, bytes, &o);
		diff_entries(f, o.has_ino ? o.ino : 0);
	} else if (!known && xls_overlay_read(&f->view, rb->blkno, 0, blk, bytes, NULL) == 0) {
		unsure_entries(f, rb, blk, bytes);
	}
	if (f->before.nomem || f->after.nomem)
		f->nomem = true;
}

/* An attr leaf block as the log leaves it: attrs set and removed. */
static void take_attr_buf(struct xls_files *f, const struct xls_rtrans *rt,
			  const struct xls_ritem *ri)
{
	const struct xls_rbuf *rb = ri->buf;
	const struct xls_geometry *g = &f->src->geo;
	uint32_t bytes = rb->len * BBSIZE;
	uint8_t *blk = malloc(bytes);
	struct xls_owner o;
	bool seen, known;

	if (!blk) {
		f->nomem = true;
		return;
	}
	aents_reset(f);
	known = xls_overlay_read(&f->view, rb->blkno, 0, blk, bytes, &seen) == 0;
	if (known && !seen && g->crc && bytes >= offsetof(struct xfs_da3_blkinfo, lsn) + 8 &&
	    xls_attr_is_leaf(blk, bytes)) {
		uint64_t lsn = xls_be64(blk + offsetof(struct xfs_da3_blkinfo, lsn));

		known = !lsn || lsn < rt->t->lsn;
	}
	if (known)
		xls_attr_leaf_walk(blk, bytes, xls_xattr_set_add, &f->abefore);
	xls_overlay_take(&f->view, rt, ri);
	if (known && xls_overlay_read(&f->view, rb->blkno, 0, blk, bytes, NULL) == 0) {
		xls_attr_leaf_walk(blk, bytes, xls_xattr_set_add, &f->aafter);
		if (xls_owner_from_header(g, rb->blkno, rb->len, blk, bytes, &o) && o.has_ino)
			diff_attrs(f, o.ino);
	}
	free(blk);
}

/* ------------------------------------------------------------------ */
/* inodes */

static struct ino_state *state_of(struct xls_files *f, uint64_t ino, bool *fresh)
{
	uint32_t *idx = xls_hashmap_find(&f->idx, ino, 0);
	struct ino_state *s;

	*fresh = false;
	if (idx)
		return &f->inos[*idx];
	if (!xls_vec_grow((void **)&f->inos, f->ninos, &f->capinos, sizeof(*s)) ||
	    xls_hashmap_put(&f->idx, ino, 0, f->ninos)) {
		f->nomem = true;
		return NULL;
	}
	s = &f->inos[f->ninos++];
	memset(s, 0, sizeof(*s));
	*fresh = true;
	return s;
}

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
	uint8_t dino[2048];
	const uint8_t *fork;
	uint32_t flen;

	if (g->inode_size > sizeof(dino) || xls_fsview_read_inode(&f->disk, ino, dino, NULL))
		return;
	if (g->crc && xls_be16(dino) == XFS_DINODE_MAGIC) {
		uint64_t dlsn = xls_be64(dino + offsetof(struct xfs_dinode, di_lsn));

		if (dlsn && dlsn != UINT64_MAX && dlsn >= lsn)
			return;		/* the disk is newer: no baseline */
	}
	xls_fsview_core(g, dino, &s->c);
	s->known = true;
	fork = xls_fsview_attr_fork(g, dino, &flen);
	if (fork && !xls_inode_core_free(&s->c) && s->c.aformat == XFS_DINODE_FMT_LOCAL) {
		s->asf = malloc(flen ? flen : 1);
		if (s->asf) {
			memcpy(s->asf, fork, flen);
			s->asf_len = flen;
		}
	}
	fork = xls_fsview_data_fork(g, dino, &flen);
	if (!xls_inode_core_free(&s->c) && S_ISDIR(s->c.mode) &&
	    s->c.format == XFS_DINODE_FMT_LOCAL) {
		uint32_t used = s->c.size < flen ? (uint32_t)s->c.size : flen;

		s->sf = malloc(used ? used : 1);
		if (s->sf) {
			memcpy(s->sf, fork, used);
			s->sf_len = used;
		}
	}
}

/* A field that changed from @old to @now; NULL when it did not. */
static struct xls_file_event *value_event(struct xls_files *f, uint64_t ino, enum xls_fev ev,
					  uint64_t old, uint64_t now, bool replayed)
{
	struct xls_file_event *e;

	if (old == now)
		return NULL;
	e = event(f, ino, ev);
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
		e = event(f, ino, XLS_FEV_CREATED);
		if (e) {
			e->new_value = b->gen;
			e->old_value = b->mode;
			e->replayed = replayed;
		}
		return;
	}
	if (!afree && bfree) {
		e = event(f, ino, XLS_FEV_FREED);
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
	bool local = !xls_inode_core_free(now) && S_ISDIR(now->mode) &&
		     now->format == XFS_DINODE_FMT_LOCAL;
	uint64_t parent;

	if (local && !(in->fields & XFS_ILOG_DDATA))
		return;		/* the fork is not logged: as it was */
	xls_dirent_set_reset(&f->before);
	xls_dirent_set_reset(&f->after);
	if (s->sf)
		xls_dir_sf_walk(g, s->sf, s->sf_len, &parent, xls_dirent_set_add, &f->before);
	if (local && in->dfork)
		xls_dir_sf_walk(g, in->dfork, in->dfork_len, &parent, xls_dirent_set_add, &f->after);
	if (s->known && (s->sf || local))
		diff_entries(f, ino);
	free(s->sf);
	s->sf = NULL;
	s->sf_len = 0;
	if (local && in->dfork) {
		uint32_t used = now->size < in->dfork_len ? (uint32_t)now->size : in->dfork_len;

		s->sf = malloc(used ? used : 1);
		if (s->sf) {
			memcpy(s->sf, in->dfork, used);
			s->sf_len = used;
		}
	}
}

/* A shortform attr fork as logged: attrs set and removed. */
static void asf_events(struct xls_files *f, uint64_t ino, struct ino_state *s,
		       const struct xls_rinode *in, const struct xls_inode_core *now)
{
	bool local = !xls_inode_core_free(now) && now->aformat == XFS_DINODE_FMT_LOCAL &&
		     now->forkoff;

	if (local && !(in->fields & XFS_ILOG_ADATA))
		return;		/* the fork is not logged: as it was */
	if (!local && !s->asf)
		return;
	aents_reset(f);
	if (s->asf)
		xls_attr_sf_walk(s->asf, s->asf_len, xls_xattr_set_add, &f->abefore);
	if (local && in->afork)
		xls_attr_sf_walk(in->afork, in->afork_len, xls_xattr_set_add, &f->aafter);
	if (s->known)
		diff_attrs(f, ino);
	free(s->asf);
	s->asf = NULL;
	s->asf_len = 0;
	if (local && in->afork) {
		s->asf = malloc(in->afork_len ? in->afork_len : 1);
		if (s->asf) {
			memcpy(s->asf, in->afork, in->afork_len);
			s->asf_len = in->afork_len;
		}
	}
}

static void take_inode(struct xls_files *f, const struct xls_rtrans *rt,
		       const struct xls_ritem *ri)
{
	struct xls_inode_core now;
	struct ino_state *s;
	bool fresh;

	if (!ri->inode || !ri->inode->has_core)
		return;
	s = state_of(f, ri->ino, &fresh);
	if (!s)
		return;
	if (fresh)
		baseline(f, ri->ino, rt->t->lsn, s);
	core_of_log(&ri->inode->core, &now);
	if (s->known)
		core_events(f, ri->ino, &s->c, &now, ri->decision == XLS_RD_REPLAY);
	sf_events(f, ri->ino, s, ri->inode, &now);
	asf_events(f, ri->ino, s, ri->inode, &now);
	s->c = now;
	s->known = true;
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
		e = event(f, in->ino, in->op == XFS_BMAP_MAP ? XLS_FEV_MAP : XLS_FEV_UNMAP);
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
	e = event(f, in->ino, ev);
	if (!e)
		return;
	set_name(f, e, in->name, in->name_len, false);
	if (in->has_parent)
		e->dir = in->parent_ino;
	if (ev == XLS_FEV_PPTR_REPLACE) {
		set_name(f, e, in->new_name, in->new_name_len, true);
		if (in->has_new_parent)
			e->new_dir = in->new_parent_ino;
	}
}

/* ------------------------------------------------------------------ */
/* recovery's sink */

static int on_trans(void *ctx, const struct xls_rtrans *rt)
{
	struct xls_files *f = ctx;

	flush(f);
	f->rt = rt->replayed ? rt : NULL;
	return f->rc ? f->rc : f->nomem ? -ENOMEM : 0;
}

static int on_item(void *ctx, const struct xls_rtrans *rt, const struct xls_ritem *ri)
{
	struct xls_files *f = ctx;

	if (!f->rt)
		return 0;
	f->replayed = ri->decision == XLS_RD_REPLAY || ri->decision == XLS_RD_REPLAY_ALWAYS;
	if (ri->buf && (ri->buf->blf_flags & XFS_BLF_CANCEL))
		cancel_dir_buf(f, ri);
	else if (ri->buf && is_dir_data(ri->buf->blft) && ri->buf->data &&
		 ri->decision != XLS_RD_FAIL)
		take_dir_buf(f, rt, ri);
	else if (ri->buf && ri->buf->blft == XFS_BLFT_ATTR_LEAF_BUF && ri->buf->data &&
		 ri->decision != XLS_RD_FAIL)
		take_attr_buf(f, rt, ri);
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

	memset(&fd, 0, sizeof(fd));
	fd.kind = "files_bound";
	fd.offset = -1;
	snprintf(fd.msg, sizeof(fd.msg), "more than %llu bytes of directory and attr blocks: %llu "
		 "later items of blocks past the bound were compared with the disk, not with the "
		 "log's view; their entry and xattr events are approximate",
		 (unsigned long long)f->view.max_bytes, (unsigned long long)f->view.not_taken);
	return f->sink->report ? xls_report_finding(f->sink->report, &fd) : 0;
}

int xls_files_run(struct xls_files *f, struct xls_log *log, const struct xls_head_tail *ht,
		  const struct xls_files_sink *sink, struct xls_error *err)
{
	/* only the blocks files reads are decided */
	struct xls_recover_opts ro = {
		.keep_types = f->view.types, .keep_inodes = true, .keep_intents = true,
		.quiet = true, .only_types = f->view.types,
	};
	struct xls_recover_sink rs = {
		.ctx = f, .trans = on_trans, .item = on_item, .report = sink->report,
	};
	struct xls_recover *r;
	int rc;

	f->sink = sink;
	r = xls_recover_new(f->src, &ro, err);
	if (!r)
		return -1;
	rc = xls_recover_run(r, log, ht, &rs, err);
	if (!rc)
		flush(f);
	xls_recover_free(r);
	if (rc == -ENOMEM || f->nomem || f->view.out_of_memory)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory");
	if (!rc && !f->rc && f->view.full)
		rc = approximate(f);
	return rc ? rc : f->rc;
}
