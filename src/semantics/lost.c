/*
 * Semantics stage: what zeroing the log would lose, as the difference of
 * the filesystem recovery leaves and the one on the device.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/bigmem.h"
#include "base/ondisk.h"
#include "base/vec.h"
#include "semantics/fsview.h"
#include "semantics/lost.h"
#include "semantics/names.h"
#include "semantics/owner.h"

/* What made an inode worth comparing. */
#define TOUCH_INODE	1u	/* an inode item replayed */
#define TOUCH_DIR	2u	/* a directory block it owns replayed */
/*
 * Its last inode item is skipped because its cluster is cancelled later:
 * the chunk is freed, and recovery leaves the inode free (the inode btree
 * says so) whatever its stale core on disk says.
 */
#define TOUCH_FREED	4u

/* The device side of a directory: entries to free inodes left out. */
struct disk_side {
	struct xls_dirent_set	set;
	const struct xls_fsview	*view;
	struct xls_hashmap	*linked;	/* every inode named, remembered */
	struct xls_hashmap	*chunks;	/* the chunk of every inode named */
};

struct xls_lost {
	const struct xls_source		*src;
	struct xls_overlay		ovl;
	struct xls_fsview		disk, final;
	struct xls_fsview_clusters	clusters;	/* shared by both views */
	struct xls_hashmap		inobt;		/* the disk's, by chunk */
	struct xls_hashmap		touched;	/* ino -> TOUCH_* */
	struct xls_names		names;
	struct xls_lost_summary		sum;
	struct xls_lost_dirent		*dirents;
	uint32_t			ndirents, capdirents;
	struct xls_lost_inode		*inodes;
	uint32_t			ninodes, capinodes;
	struct xls_lost_xattr		*xattrs;
	uint32_t			nxattrs, capxattrs;
	struct xls_lost_apart		*aparts;
	uint32_t			naparts, capaparts;
	struct xls_lost_found		*founds;
	uint32_t			nfounds, capfounds;
	/* inodes an entry on the disk side of a compared directory names */
	struct xls_hashmap		disk_linked;
	/* and their chunks, whatever their cores say */
	struct xls_hashmap		disk_chunks;
	/* the strings and changes the results point to, freed at the end */
	struct xls_arena		kept;
	bool				nomem;
};

/* ------------------------------------------------------------------ */
/* memory */

/* xls_vec_push, out of memory said in *@nomem. */
static void *push(void **base, uint32_t *n, uint32_t *cap, size_t elem, bool *nomem)
{
	void *p = xls_vec_push(base, n, cap, elem);

	if (!p)
		*nomem = true;
	return p;
}

/* A copy of @len bytes of @s as a string the results keep. */
static const char *keep_str(struct xls_lost *l, const char *s, size_t len)
{
	char *p = xls_arena_alloc(&l->kept, len + 1);

	if (!p) {
		l->nomem = true;
		return "";
	}
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

struct xls_lost *xls_lost_new(const struct xls_source *src, uint64_t mem_bytes,
			      uint64_t max_bytes, struct xls_error *err)
{
	struct xls_lost *l = calloc(1, sizeof(*l));
	uint32_t types = (1u << XFS_BLFT_DIR_BLOCK_BUF) | (1u << XFS_BLFT_DIR_DATA_BUF) |
			 (1u << XFS_BLFT_BTREE_BUF) | (1u << XFS_BLFT_DINO_BUF) |
			 (1u << XFS_BLFT_ATTR_LEAF_BUF);

	if (!l) {
		xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory");
		return NULL;
	}
	l->src = src;
	xls_overlay_init(&l->ovl, src, types, mem_bytes, max_bytes);
	l->disk.src = l->final.src = src;
	l->disk.cache = &l->inobt;
	l->final.ovl = &l->ovl;
	xls_fsview_clusters_init(&l->clusters);
	l->disk.clusters = l->final.clusters = &l->clusters;
	xls_names_init(&l->names, &l->final);
	l->sum.overlay_max = l->ovl.max_bytes;
	return l;
}

void xls_lost_free(struct xls_lost *l)
{
	if (!l)
		return;
	xls_overlay_release(&l->ovl);
	xls_fsview_clusters_release(&l->clusters);
	xls_hashmap_free(&l->touched);
	xls_hashmap_free(&l->inobt);
	xls_names_release(&l->names);
	xls_arena_release(&l->kept);
	xls_vec_free(l->dirents);
	xls_vec_free(l->inodes);
	xls_vec_free(l->xattrs);
	xls_vec_free(l->aparts);
	xls_vec_free(l->founds);
	xls_hashmap_free(&l->disk_linked);
	xls_hashmap_free(&l->disk_chunks);
	free(l);
}

/* ------------------------------------------------------------------ */
/* recovery's items */

static void touch(struct xls_lost *l, uint64_t ino, uint32_t why)
{
	uint32_t *v = xls_hashmap_find(&l->touched, ino, 0);

	if (v)
		*v |= why;
	else if (xls_hashmap_put(&l->touched, ino, 0, why))
		l->nomem = true;
}

static bool is_dir_data(unsigned int blft)
{
	return blft == XFS_BLFT_DIR_BLOCK_BUF || blft == XFS_BLFT_DIR_DATA_BUF;
}

static int on_item(void *ctx, const struct xls_rtrans *rt, const struct xls_ritem *ri)
{
	struct xls_lost *l = ctx;
	bool replayed = ri->decision == XLS_RD_REPLAY || ri->decision == XLS_RD_REPLAY_ALWAYS;

	xls_overlay_take(&l->ovl, rt, ri);
	if (ri->has_ino && ri->decision == XLS_RD_SKIP_CANCELLED)
		touch(l, ri->ino, TOUCH_FREED);
	if (!replayed)
		return 0;
	if (ri->has_ino && ri->decision == XLS_RD_REPLAY) {
		uint32_t *v = xls_hashmap_find(&l->touched, ri->ino, 0);

		/* a chunk reused after its last cancel: the inode lives again */
		if (v)
			*v = (*v & ~TOUCH_FREED) | TOUCH_INODE;
		else
			touch(l, ri->ino, TOUCH_INODE);
	}
	if (ri->buf && (is_dir_data(ri->buf->blft) || ri->buf->blft == XFS_BLFT_ATTR_LEAF_BUF) &&
	    ri->buf->head) {
		struct xls_owner o;

		if (xls_owner_from_header(&l->src->geo, ri->buf->blkno, ri->buf->len,
					  ri->buf->head, ri->buf->head_len, &o) && o.has_ino)
			touch(l, o.ino, TOUCH_DIR);
	}
	return l->nomem ? -ENOMEM : 0;
}

static int on_trans(void *ctx, const struct xls_rtrans *rt)
{
	struct xls_lost *l = ctx;
	struct xls_lost_apart *a;

	if (rt->replayed)
		return 0;
	a = push((void **)&l->aparts, &l->naparts, &l->capaparts, sizeof(*a), &l->nomem);
	if (!a)
		return -ENOMEM;
	memset(a, 0, sizeof(*a));
	a->kind = rt->t->state == XLS_TRANS_CORRUPT ? "corrupt" : "discarded";
	a->tid = rt->t->tid;
	a->lsn = rt->t->lsn;
	snprintf(a->what, sizeof(a->what), "%u items: %s", rt->nitems,
		 rt->t->state == XLS_TRANS_CORRUPT ? "recovery stops at this corrupt transaction" :
		 "no commit record: recovery drops it too");
	return 0;
}

static int on_intent(void *ctx, const struct xls_rintent *in)
{
	struct xls_lost *l = ctx;
	struct xls_lost_apart *a = push((void **)&l->aparts, &l->naparts, &l->capaparts,
					sizeof(*a), &l->nomem);

	if (!a)
		return -ENOMEM;
	memset(a, 0, sizeof(*a));
	a->kind = in->kind;
	a->tid = in->tid;
	a->lsn = in->lsn;
	a->id = in->id;
	snprintf(a->what, sizeof(a->what), "%s", in->what);
	return 0;
}

/* ------------------------------------------------------------------ */
/* one directory, both sides */

/*
 * xfs_repair junks an entry to an inode whose core is free.  Not to one
 * the inode btree calls free, or whose chunk it does not hold: repair
 * trusts an inode's core over the record's free bit ("correcting imap"),
 * and checks the chunk of an inode an entry names that no record holds
 * (its uncertain inodes), keeping it when the inode is in use.
 */
static int collect_disk(void *ctx, const struct xls_dirent *e)
{
	struct disk_side *s = ctx;
	uint64_t chunk = e->ino & ~(uint64_t)(XFS_INODES_PER_CHUNK - 1);
	uint8_t dino[2048];
	struct xls_inode_core c;

	if (!xls_hashmap_find(s->chunks, chunk, 0) && xls_hashmap_put(s->chunks, chunk, 0, 1))
		s->set.nomem = true;
	if (xls_fsview_read_inode(s->view, e->ino, dino, NULL) == 0) {
		xls_fsview_core(&s->view->src->geo, dino, &c);
		if (xls_inode_core_free(&c))
			return 0;
	}
	if (!xls_hashmap_find(s->linked, e->ino, 0) && xls_hashmap_put(s->linked, e->ino, 0, 1))
		s->set.nomem = true;
	return xls_dirent_set_add(&s->set, e);
}

static void add_dirent(struct xls_lost *l, uint64_t dir, const struct xls_dirent_set *s,
		       uint32_t k, bool add)
{
	struct xls_lost_dirent *d = push((void **)&l->dirents, &l->ndirents, &l->capdirents,
					 sizeof(*d), &l->nomem);

	if (!d)
		return;
	d->dir = dir;
	d->ino = s->e[k].ino;
	d->add = add;
	d->name = keep_str(l, (const char *)xls_dirent_set_name(s, k), s->e[k].len);
	d->dir_path = NULL;
	if (add)
		l->sum.dirents_added++;
	else
		l->sum.dirents_removed++;
}

static bool freed(const struct xls_lost *l, uint64_t ino)
{
	const uint32_t *v = xls_hashmap_find(&l->touched, ino, 0);

	return v && (*v & TOUCH_FREED);
}

static void compare_dir(struct xls_lost *l, uint64_t dir)
{
	struct disk_side disk = { .view = &l->disk, .linked = &l->disk_linked,
				  .chunks = &l->disk_chunks };
	struct xls_dirent_set *d = &disk.set, f = { 0 };
	uint64_t parent;
	uint32_t i = 0, j = 0;

	l->sum.dir_problems |= xls_fsview_dir(&l->disk, dir, &parent, collect_disk, &disk) &
			       ~XLS_FSVIEW_NOT_DIR;
	if (!freed(l, dir))
		l->sum.dir_problems |= xls_fsview_dir(&l->final, dir, &parent, xls_dirent_set_add,
						      &f) & ~XLS_FSVIEW_NOT_DIR;
	if (d->nomem || f.nomem)
		l->nomem = true;
	l->sum.dirs_compared++;
	xls_dirent_set_sort(d);
	xls_dirent_set_sort(&f);
	for (uint32_t k = 0; k < f.n; k++)
		xls_names_learn(&l->names, f.e[k].ino, dir, xls_dirent_set_name(&f, k), f.e[k].len);
	while (i < d->n || j < f.n) {
		int c = i == d->n ? 1 : j == f.n ? -1 : xls_dirent_set_cmp(d, i, &f, j, false);

		if (c < 0) {
			add_dirent(l, dir, d, i++, false);
		} else if (c > 0) {
			add_dirent(l, dir, &f, j++, true);
		} else {
			if (d->e[i].ino != f.e[j].ino) {
				add_dirent(l, dir, d, i, false);
				add_dirent(l, dir, &f, j, true);
			}
			i++;
			j++;
		}
	}
	xls_dirent_set_free(d);
	xls_dirent_set_free(&f);
}

/* ------------------------------------------------------------------ */
/* one inode's attrs, both sides */

static void add_xattr(struct xls_lost *l, uint64_t ino, const struct xls_xattr_set *s,
		      uint32_t k, const char *op)
{
	struct xls_lost_xattr *x = push((void **)&l->xattrs, &l->nxattrs, &l->capxattrs,
					sizeof(*x), &l->nomem);
	char name[300];
	uint32_t n;

	if (!x)
		return;
	n = xls_xattr_set_name(s, k, name, sizeof(name));
	x->ino = ino;
	x->name = keep_str(l, name, n);
	x->op = op;
	x->parent = s->e[k].parent;
	x->path = NULL;
	l->sum.xattrs_changed++;
}

static void compare_attrs(struct xls_lost *l, uint64_t ino)
{
	struct xls_xattr_set d = { 0 }, f = { 0 };
	uint32_t i = 0, j = 0;

	l->sum.dir_problems |= xls_fsview_attrs(&l->disk, ino, xls_xattr_set_add, &d) &
			       ~XLS_FSVIEW_NOT_DIR;
	if (!freed(l, ino))
		l->sum.dir_problems |= xls_fsview_attrs(&l->final, ino, xls_xattr_set_add, &f) &
				       ~XLS_FSVIEW_NOT_DIR;
	if (d.nomem || f.nomem)
		l->nomem = true;
	xls_xattr_set_sort(&d);
	xls_xattr_set_sort(&f);
	while (i < d.n || j < f.n) {
		int c = i == d.n ? 1 : j == f.n ? -1 : xls_xattr_set_cmp(&d, i, &f, j);

		if (c < 0) {
			add_xattr(l, ino, &d, i++, "remove");
		} else if (c > 0) {
			add_xattr(l, ino, &f, j++, "add");
		} else {
			if (d.e[i].vhash != f.e[j].vhash)
				add_xattr(l, ino, &f, j, "replace");
			i++;
			j++;
		}
	}
	xls_xattr_set_free(&d);
	xls_xattr_set_free(&f);
}

/* ------------------------------------------------------------------ */
/* one inode, both sides */

static void change(struct xls_lost_change *ch, uint32_t *n, const char *field,
		   uint64_t disk, uint64_t rec)
{
	if (disk == rec)
		return;
	ch[*n].field = field;
	ch[*n].disk = disk;
	ch[*n].recovered = rec;
	(*n)++;
}

#define NFIELDS	16

static void compare_inode(struct xls_lost *l, uint64_t ino, struct xls_inode_core *dc,
			  struct xls_inode_core *fc)
{
	struct xls_lost_change ch[NFIELDS], *keep;
	struct xls_lost_inode *in;
	bool dfree = xls_inode_core_free(dc), ffree = xls_inode_core_free(fc);
	uint32_t n = 0;

	l->sum.inodes_compared++;
	/* free on the disk, free again as recovery leaves it: nothing to lose */
	if (dfree && ffree)
		return;
	change(ch, &n, "mode", dc->mode, fc->mode);
	change(ch, &n, "gen", dc->gen, fc->gen);
	change(ch, &n, "nlink", dc->nlink, fc->nlink);
	change(ch, &n, "uid", dc->uid, fc->uid);
	change(ch, &n, "gid", dc->gid, fc->gid);
	change(ch, &n, "size", dc->size, fc->size);
	change(ch, &n, "nblocks", dc->nblocks, fc->nblocks);
	change(ch, &n, "nextents", dc->nextents, fc->nextents);
	change(ch, &n, "anextents", dc->anextents, fc->anextents);
	change(ch, &n, "format", dc->format, fc->format);
	change(ch, &n, "aformat", dc->aformat, fc->aformat);
	change(ch, &n, "flags", dc->flags, fc->flags);
	change(ch, &n, "mtime", dc->mtime, fc->mtime);
	change(ch, &n, "ctime", dc->ctime, fc->ctime);
	change(ch, &n, "atime", dc->atime, fc->atime);
	change(ch, &n, "crtime", dc->crtime, fc->crtime);
	if (!n)
		return;
	in = push((void **)&l->inodes, &l->ninodes, &l->capinodes, sizeof(*in), &l->nomem);
	keep = in ? xls_arena_alloc(&l->kept, sizeof(*keep) * n) : NULL;
	if (!in || !keep) {
		if (in)
			l->ninodes--;
		l->nomem = true;
		return;
	}
	memcpy(keep, ch, sizeof(*keep) * n);
	in->ino = ino;
	in->mode = ffree ? dc->mode : fc->mode;
	in->changes = keep;
	in->nchanges = n;
	in->path = NULL;
	if (dfree == ffree) {
		in->what = "changed";
		l->sum.inodes_changed++;
	} else if (dfree) {
		in->what = "created";
		l->sum.inodes_created++;
	} else {
		in->what = "freed";
		l->sum.inodes_freed++;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int no_entry(void *ctx, const struct xls_dirent *e)
{
	(void)ctx;
	(void)e;
	return 0;
}

/*
 * The parent of a directory recovery touches holds its entry, which
 * xfs_repair junks when the directory's inode is free in the on-disk
 * inode btree: compare those parents too, once.
 */
static void compare_parents(struct xls_lost *l, const uint64_t *inos, uint32_t n)
{
	struct xls_hashmap done = XLS_HASHMAP_INIT;

	for (uint32_t i = 0; i < n && !l->nomem; i++) {
		uint64_t p[2];

		xls_fsview_dir(&l->disk, inos[i], &p[0], no_entry, NULL);
		xls_fsview_dir(&l->final, inos[i], &p[1], no_entry, NULL);
		for (int k = 0; k < 2; k++) {
			if (!p[k] || p[k] == inos[i] || xls_hashmap_find(&l->touched, p[k], 0) ||
			    xls_hashmap_find(&done, p[k], 0))
				continue;
			if (xls_hashmap_put(&done, p[k], 0, 1)) {
				l->nomem = true;
				break;
			}
			compare_dir(l, p[k]);
		}
	}
	xls_hashmap_free(&done);
}

static void compare_all(struct xls_lost *l)
{
	const struct xls_geometry *g = &l->src->geo;
	uint64_t *inos, a, b;
	uint32_t n = 0, pos = 0, v;
	uint8_t dino[2048];

	if (!g->inode_size || g->inode_size > sizeof(dino))
		return;
	inos = malloc(sizeof(*inos) * (l->touched.used ? l->touched.used : 1));
	if (!inos) {
		l->nomem = true;
		return;
	}
	while (n < l->touched.used && xls_hashmap_next(&l->touched, &pos, &a, &b, &v))
		inos[n++] = a;
	qsort(inos, n, sizeof(*inos), cmp_u64);
	for (uint32_t i = 0; i < n && !l->nomem; i++) {
		struct xls_inode_core dc, fc;

		memset(&dc, 0, sizeof(dc));
		memset(&fc, 0, sizeof(fc));
		if (xls_fsview_read_inode(&l->disk, inos[i], dino, NULL) == 0)
			xls_fsview_core(g, dino, &dc);
		if (xls_fsview_read_inode(&l->final, inos[i], dino, &fc.written) == 0 &&
		    !freed(l, inos[i]))
			xls_fsview_core(g, dino, &fc);
		compare_inode(l, inos[i], &dc, &fc);
		compare_attrs(l, inos[i]);
		if ((!xls_inode_core_free(&dc) && S_ISDIR(dc.mode)) ||
		    (!xls_inode_core_free(&fc) && S_ISDIR(fc.mode)))
			compare_dir(l, inos[i]);
	}
	compare_parents(l, inos, n);
	free(inos);
}

/*
 * What xfs_repair -L puts in lost+found: an inode that recovery names
 * (an entry it adds) but that no entry on the disk side of any directory
 * compared names, whose chunk repair finds (a record of the disk's inode
 * btree holds it, or an entry on the disk names another inode of it) and
 * whose core on the disk is in use (repair trusts the core over the
 * record's free bit) with a data fork whose map reads (else repair clears
 * it), so that repair finds it with no parent.  Directories the log does not touch are not
 * read: a link there is not seen.
 */
static void find_lost_found(struct xls_lost *l)
{
	const struct xls_geometry *g = &l->src->geo;
	struct xls_hashmap seen = XLS_HASHMAP_INIT;
	uint8_t dino[2048];

	if (!g->inode_size || g->inode_size > sizeof(dino))
		return;
	for (uint32_t i = 0; i < l->ndirents && !l->nomem; i++) {
		const struct xls_lost_dirent *d = &l->dirents[i];
		struct xls_lost_found *lf;
		struct xls_inode_core c;

		if (!d->add || d->ino == g->root_ino || xls_hashmap_find(&l->disk_linked, d->ino, 0) ||
		    xls_hashmap_find(&seen, d->ino, 0))
			continue;
		if (xls_hashmap_put(&seen, d->ino, 0, 1)) {
			l->nomem = true;
			break;
		}
		/* repair finds it in its chunk: a record holds it, or it checks a sibling */
		if ((!xls_hashmap_find(&l->disk_chunks,
				       d->ino & ~(uint64_t)(XFS_INODES_PER_CHUNK - 1), 0) &&
		     xls_fsview_inode_chunk(&l->disk, d->ino) != 1) ||
		    xls_fsview_read_inode(&l->disk, d->ino, dino, NULL))
			continue;
		xls_fsview_core(g, dino, &c);
		/* a bmap btree that does not read is a bad data fork: repair clears it */
		if (xls_inode_core_free(&c) ||
		    (xls_fsview_map_problems(&l->disk, d->ino) & XLS_FSVIEW_UNREADABLE))
			continue;
		lf = push((void **)&l->founds, &l->nfounds, &l->capfounds, sizeof(*lf), &l->nomem);
		if (!lf)
			break;
		lf->ino = d->ino;
		lf->mode = c.mode;
		lf->path = NULL;
		l->sum.lost_found++;
	}
	xls_hashmap_free(&seen);
}

static int cmp_found(const void *a, const void *b)
{
	const struct xls_lost_found *x = a, *y = b;

	return (x->ino > y->ino) - (x->ino < y->ino);
}

/* Paths, once every directory compared has taught its names. */
static void name_all(struct xls_lost *l)
{
	char path[4096];

	for (uint32_t i = 0; i < l->ndirents; i++)
		if (xls_names_path(&l->names, l->dirents[i].dir, path, sizeof(path), NULL))
			l->dirents[i].dir_path = keep_str(l, path, strlen(path));
	for (uint32_t i = 0; i < l->ninodes; i++)
		if (xls_names_path(&l->names, l->inodes[i].ino, path, sizeof(path), NULL))
			l->inodes[i].path = keep_str(l, path, strlen(path));
	for (uint32_t i = 0; i < l->nxattrs; i++)
		if (xls_names_path(&l->names, l->xattrs[i].ino, path, sizeof(path), NULL))
			l->xattrs[i].path = keep_str(l, path, strlen(path));
	for (uint32_t i = 0; i < l->nfounds; i++)
		if (xls_names_path(&l->names, l->founds[i].ino, path, sizeof(path), NULL))
			l->founds[i].path = keep_str(l, path, strlen(path));
}

int xls_lost_run(struct xls_lost *l, struct xls_log *log, const struct xls_head_tail *ht,
		 const struct xls_report_sink *report, struct xls_error *err)
{
	/*
	 * Only the blocks compared are decided (bmbt among the btrees), the
	 * AGIs, whose unlinked buckets are work recovery finishes, and the
	 * superblock, which the mount reads back (mount_fails_after).
	 */
	struct xls_recover_opts ro = {
		.keep_types = l->ovl.types, .keep_inodes = true, .quiet = true,
		.only_types = (l->ovl.types & ~(1u << XFS_BLFT_BTREE_BUF)) |
			      (1u << XFS_BLFT_AGI_BUF) | (1u << XFS_BLFT_SB_BUF),
	};
	struct xls_recover_sink sink = {
		.ctx = l, .item = on_item, .trans = on_trans, .intent = on_intent,
		.report = report,
	};
	const struct xls_recover_summary *rs;
	struct xls_recover *r;
	int rc;

	if (l->src->data_fd < 0 || !l->src->geo.has_sb)
		return xls_error_set(err, XLS_EXIT_USAGE,
				     "lost compares with the filesystem on the data device: "
				     "'%s' is a bare log", l->src->path);
	r = xls_recover_new(l->src, &ro, err);
	if (!r)
		return -1;
	rc = xls_recover_run(r, log, ht, &sink, err);
	rs = xls_recover_summary(r);
	l->sum.recovery = *rs;
	xls_recover_free(r);
	if (xls_overlay_error(&l->ovl, err))
		return -1;
	if (rc == -ENOMEM || l->nomem)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory");
	if (rc)
		return rc;
	compare_all(l);
	find_lost_found(l);
	if (l->nfounds)
		qsort(l->founds, l->nfounds, sizeof(*l->founds), cmp_found);
	name_all(l);
	l->sum.metadata_bytes = l->ovl.replayed_bytes;
	l->sum.overlay_full = l->ovl.full;
	l->sum.overlay_bytes = l->ovl.bytes;
	l->sum.overlay_spilled = l->ovl.spilled;
	if (l->nomem)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory");
	return 0;
}

const struct xls_lost_summary *xls_lost_summary(const struct xls_lost *l)
{
	return &l->sum;
}

const struct xls_lost_dirent *xls_lost_dirents(const struct xls_lost *l, uint32_t *n)
{
	*n = l->ndirents;
	return l->dirents;
}

const struct xls_lost_inode *xls_lost_inodes(const struct xls_lost *l, uint32_t *n)
{
	*n = l->ninodes;
	return l->inodes;
}

const struct xls_lost_xattr *xls_lost_xattrs(const struct xls_lost *l, uint32_t *n)
{
	*n = l->nxattrs;
	return l->xattrs;
}

const struct xls_lost_found *xls_lost_founds(const struct xls_lost *l, uint32_t *n)
{
	*n = l->nfounds;
	return l->founds;
}

const struct xls_lost_apart *xls_lost_aparts(const struct xls_lost *l, uint32_t *n)
{
	*n = l->naparts;
	return l->aparts;
}
