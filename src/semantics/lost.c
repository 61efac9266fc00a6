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
#include "base/inoflags.h"
#include "base/ondisk.h"
#include "base/vec.h"
#include "semantics/fsview.h"
#include "semantics/lost.h"
#include "semantics/lostlist.h"
#include "semantics/lostnames.h"
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
	struct xls_quota_opts		quota;		/* the mount recovery stands for */
	struct xls_overlay		ovl;
	struct xls_fsview		disk, final;
	struct xls_fsview_clusters	clusters;	/* shared by both views */
	struct xls_hashmap		inobt;		/* the disk's, by chunk */
	struct xls_inoflags		touched;	/* ino -> TOUCH_* */
	struct xls_lost_names		names;
	struct xls_lost_summary		sum;
	/*
	 * The two lists that grow with the log, a record per entry or inode
	 * recovery makes (millions on a log of new files), kept in the order
	 * they are printed, past a bound in a temporary file.
	 */
	struct xls_lost_lists		lists;
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
	/* inodes in use on the disk that recovery frees */
	uint64_t			*freed;
	uint32_t			nfreed, capfreed;
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
		xls_error_set(err, XLS_EXIT_INTERNAL,
			      "out of memory for the state of the lost stage");
		return NULL;
	}
	l->src = src;
	xls_overlay_init(&l->ovl, src, types, mem_bytes, max_bytes);
	l->disk.src = l->final.src = src;
	l->disk.cache = &l->inobt;
	l->final.ovl = &l->ovl;
	xls_fsview_clusters_init(&l->clusters);
	l->disk.clusters = l->final.clusters = &l->clusters;
	xls_lost_names_init(&l->names, &l->final);
	xls_lost_lists_init(&l->lists);
	l->sum.overlay_max = l->ovl.max_bytes;
	return l;
}

void xls_lost_free(struct xls_lost *l)
{
	if (!l)
		return;
	xls_overlay_release(&l->ovl);
	xls_fsview_clusters_release(&l->clusters);
	xls_inoflags_free(&l->touched);
	xls_hashmap_free(&l->inobt);
	xls_lost_names_release(&l->names);
	xls_arena_release(&l->kept);
	xls_lost_lists_free(&l->lists);
	xls_vec_free(l->xattrs);
	xls_vec_free(l->aparts);
	xls_vec_free(l->founds);
	xls_vec_free(l->freed);
	xls_hashmap_free(&l->disk_linked);
	xls_hashmap_free(&l->disk_chunks);
	free(l);
}

/* ------------------------------------------------------------------ */
/* recovery's items */

/* @ino's TOUCH_* flags: none, (@clear) taken off, then @why added. */
static void touch(struct xls_lost *l, uint64_t ino, uint32_t clear, uint32_t why)
{
	if (xls_inoflags_update(&l->touched, ino, clear, why))
		l->nomem = true;
}

static bool touched(const struct xls_lost *l, uint64_t ino)
{
	return xls_inoflags_get(&l->touched, ino, NULL);
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
		touch(l, ri->ino, 0, TOUCH_FREED);
	if (!replayed)
		return 0;
	/* a chunk reused after its last cancel: the inode lives again */
	if (ri->has_ino && ri->decision == XLS_RD_REPLAY)
		touch(l, ri->ino, TOUCH_FREED, TOUCH_INODE);
	if (ri->buf && (is_dir_data(ri->buf->blft) || ri->buf->blft == XFS_BLFT_ATTR_LEAF_BUF) &&
	    ri->buf->head) {
		struct xls_owner o;

		if (xls_owner_from_header(&l->src->geo, ri->buf->blkno, ri->buf->len,
					  ri->buf->head, ri->buf->head_len, &o) && o.has_ino)
			touch(l, o.ino, 0, TOUCH_DIR);
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
 * Does xfs_repair clear inode @ino, in use (core @c)?  So it does when its
 * data fork's bmap btree does not read ("bad data fork"), and when it is a
 * directory whose first block does not read as a directory data block
 * (never written, the log relogging it): repair junks the block, finds no
 * "." and clears the inode, whatever its other blocks hold.
 */
static bool repair_clears(const struct xls_fsview *v, uint64_t ino,
			  const struct xls_inode_core *c)
{
	if (c->format == XFS_DINODE_FMT_BTREE &&
	    (xls_fsview_map_problems(v, ino) & XLS_FSVIEW_UNREADABLE))
		return true;
	return S_ISDIR(c->mode) && c->format != XFS_DINODE_FMT_LOCAL &&
	       xls_fsview_dir_first_not_data(v, ino);
}

/*
 * xfs_repair junks an entry to an inode whose core is free, or to one it
 * clears (repair_clears).  Not to one the inode btree calls
 * free, or whose chunk it does not hold: repair trusts an inode's core
 * over the record's free bit ("correcting imap"), and checks the chunk of
 * an inode an entry names that no record holds (its uncertain inodes),
 * keeping it when the inode is in use.
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
		if (xls_inode_core_free(&c) || repair_clears(s->view, e->ino, &c))
			return 0;
	}
	if (!xls_hashmap_find(s->linked, e->ino, 0) && xls_hashmap_put(s->linked, e->ino, 0, 1))
		s->set.nomem = true;
	return xls_dirent_set_add(&s->set, e);
}

static void add_dirent(struct xls_lost *l, uint64_t dir, const struct xls_dirent_set *s,
		       uint32_t k, bool add)
{
	if (xls_lost_lists_add_dirent(&l->lists, dir, s->e[k].ino, xls_dirent_set_name(s, k),
				      s->e[k].len, add)) {
		l->nomem = true;
		return;
	}
	if (add)
		l->sum.dirents_added++;
	else
		l->sum.dirents_removed++;
}

bool xls_lost_next_dirent(struct xls_lost *l, struct xls_lost_cursor *c,
			  struct xls_lost_dirent *d)
{
	return xls_lost_lists_next_dirent(&l->lists, c, d);
}

bool xls_lost_next_inode(struct xls_lost *l, struct xls_lost_cursor *c,
			 struct xls_lost_inode *in)
{
	return xls_lost_lists_next_inode(&l->lists, c, in);
}

int xls_lost_read_error(const struct xls_lost *l, struct xls_error *err)
{
	if (xls_lost_names_error(&l->names, err))
		return -1;
	return xls_lost_lists_error(&l->lists, err);
}

static bool freed(const struct xls_lost *l, uint64_t ino)
{
	uint32_t v;

	return xls_inoflags_get(&l->touched, ino, &v) && (v & TOUCH_FREED);
}

static void compare_dir(struct xls_lost *l, uint64_t dir)
{
	struct disk_side disk = { .view = &l->disk, .linked = &l->disk_linked,
				  .chunks = &l->disk_chunks };
	struct xls_dirent_set *d = &disk.set, f = { 0 };
	uint64_t parent;
	uint32_t i = 0, j = 0;

	l->sum.dir_problems |= xls_fsview_dir(&l->disk, dir, &parent, collect_disk, &disk) &
			       ~(XLS_FSVIEW_NOT_DIR | XLS_FSVIEW_FIRST_NOT_DATA);
	if (!freed(l, dir))
		l->sum.dir_problems |= xls_fsview_dir(&l->final, dir, &parent, xls_dirent_set_add,
						      &f) & ~(XLS_FSVIEW_NOT_DIR | XLS_FSVIEW_FIRST_NOT_DATA);
	if (d->nomem || f.nomem)
		l->nomem = true;
	l->sum.dirs_compared++;
	xls_dirent_set_sort(d);
	xls_dirent_set_sort(&f);
	for (uint32_t k = 0; k < f.n; k++)
		if (xls_lost_names_learn(&l->names, dir, &f, k) == -ENOMEM)
			l->nomem = true;
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

/*
 * @unfound: repair -L never finds the inode (unfound()): no disk side.
 * @is_freed: recovery frees it (freed()): no recovered side.
 */
static void compare_attrs(struct xls_lost *l, uint64_t ino, bool unfound, bool is_freed)
{
	struct xls_xattr_set d = { 0 }, f = { 0 };
	uint32_t i = 0, j = 0;

	if (!unfound)
		l->sum.dir_problems |= xls_fsview_attrs(&l->disk, ino, xls_xattr_set_add, &d) &
				       ~XLS_FSVIEW_NOT_DIR;
	if (!is_freed)
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

#define NFIELDS	XLS_LF_NFIELDS

const char *xls_lost_field_name(enum xls_lost_field f)
{
	static const char *const names[NFIELDS] = {
		[XLS_LF_MODE] = "mode", [XLS_LF_GEN] = "gen", [XLS_LF_NLINK] = "nlink",
		[XLS_LF_UID] = "uid", [XLS_LF_GID] = "gid", [XLS_LF_SIZE] = "size",
		[XLS_LF_NBLOCKS] = "nblocks", [XLS_LF_NEXTENTS] = "nextents",
		[XLS_LF_ANEXTENTS] = "anextents", [XLS_LF_FORMAT] = "format",
		[XLS_LF_AFORMAT] = "aformat", [XLS_LF_FLAGS] = "flags", [XLS_LF_MTIME] = "mtime",
		[XLS_LF_CTIME] = "ctime", [XLS_LF_ATIME] = "atime", [XLS_LF_CRTIME] = "crtime",
	};

	return f < NFIELDS ? names[f] : "?";
}

void xls_lost_inode_change(const struct xls_lost_inode *in, uint32_t i,
			   struct xls_lost_change *ch)
{
	uint32_t f = 0, k = 0;

	for (; f < NFIELDS; f++)
		if ((in->fields & (1u << f)) && k++ == i)
			break;
	ch->field = (enum xls_lost_field)f;
	ch->disk = in->disk ? in->disk[i] : 0;
	ch->recovered = in->recovered[i];
}

/* The values of @c's fields, by enum xls_lost_field. */
static void core_values(const struct xls_inode_core *c, uint64_t v[NFIELDS])
{
	const uint64_t all[NFIELDS] = {
		[XLS_LF_MODE] = c->mode, [XLS_LF_GEN] = c->gen, [XLS_LF_NLINK] = c->nlink,
		[XLS_LF_UID] = c->uid, [XLS_LF_GID] = c->gid, [XLS_LF_SIZE] = c->size,
		[XLS_LF_NBLOCKS] = c->nblocks, [XLS_LF_NEXTENTS] = c->nextents,
		[XLS_LF_ANEXTENTS] = c->anextents, [XLS_LF_FORMAT] = c->format,
		[XLS_LF_AFORMAT] = c->aformat, [XLS_LF_FLAGS] = c->flags,
		[XLS_LF_MTIME] = c->mtime, [XLS_LF_CTIME] = c->ctime,
		[XLS_LF_ATIME] = c->atime, [XLS_LF_CRTIME] = c->crtime,
	};

	memcpy(v, all, sizeof(all));
}

static void compare_inode(struct xls_lost *l, uint64_t ino, struct xls_inode_core *dc,
			  struct xls_inode_core *fc)
{
	uint64_t dv[NFIELDS], fv[NFIELDS], disk[NFIELDS], rec[NFIELDS];
	bool dfree = xls_inode_core_free(dc), ffree = xls_inode_core_free(fc), dzero = true;
	uint32_t n = 0, fields = 0;

	l->sum.inodes_compared++;
	/* free on the disk, free again as recovery leaves it: nothing to lose */
	if (dfree && ffree)
		return;
	core_values(dc, dv);
	core_values(fc, fv);
	for (uint32_t f = 0; f < NFIELDS; f++) {
		if (dv[f] == fv[f])
			continue;
		fields |= 1u << f;
		disk[n] = dv[f];
		rec[n++] = fv[f];
		dzero &= dv[f] == 0;
	}
	if (!n)
		return;
	if (xls_lost_lists_add_inode(&l->lists, ino, ffree ? dc->mode : fc->mode,
				     (uint16_t)fields, n, dfree == ffree ? XLS_LOST_CHANGED :
				     dfree ? XLS_LOST_CREATED : XLS_LOST_FREED,
				     dzero ? NULL : disk, rec)) {
		l->nomem = true;
		return;
	}
	if (dfree == ffree) {
		l->sum.inodes_changed++;
	} else if (dfree) {
		l->sum.inodes_created++;
	} else {
		uint64_t *f = push((void **)&l->freed, &l->nfreed, &l->capfreed, sizeof(*f),
				   &l->nomem);

		if (f)
			*f = ino;
		l->sum.inodes_freed++;
	}
}

/*
 * The parent of a directory recovery touches holds its entry, which
 * xfs_repair junks when the directory's inode is free in the on-disk
 * inode btree: compare those parents too, once.  @dirs: the touched
 * inodes either view holds as a directory (no other has a parent).
 */
static void compare_parents(struct xls_lost *l, const uint64_t *dirs, uint32_t n)
{
	struct xls_hashmap done = XLS_HASHMAP_INIT;

	for (uint32_t i = 0; i < n && !l->nomem; i++) {
		uint64_t p[2];

		xls_fsview_dir(&l->disk, dirs[i], &p[0], xls_dirent_ignore, NULL);
		xls_fsview_dir(&l->final, dirs[i], &p[1], xls_dirent_ignore, NULL);
		for (int k = 0; k < 2; k++) {
			if (!p[k] || p[k] == dirs[i] || touched(l, p[k]) ||
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

/* Both cores of @ino, zeroed where a view has none (or leaves it free). */
static void read_cores(struct xls_lost *l, uint64_t ino, uint8_t *dino, bool is_freed,
		       struct xls_inode_core *dc, struct xls_inode_core *fc)
{
	const struct xls_geometry *g = &l->src->geo;

	memset(dc, 0, sizeof(*dc));
	memset(fc, 0, sizeof(*fc));
	if (xls_fsview_read_inode(&l->disk, ino, dino, NULL) == 0)
		xls_fsview_core(g, dino, dc);
	if (xls_fsview_read_inode(&l->final, ino, dino, &fc->written) == 0 && !is_freed)
		xls_fsview_core(g, dino, fc);
}

/*
 * Does xfs_repair -L never find inode @ino, though its core on the disk is
 * in use?  Repair reads the chunks its inode btree's records hold and
 * those an entry on the disk names (find_lost_found); an inode of another
 * chunk that no entry on the disk names is not seen, and is gone with its
 * xattrs.  So it is when the log alone holds its chunk's allocation (the
 * inode btree's blocks, relogged, never written back) while its cluster
 * reached the disk.  Known once every directory is compared.
 */
static bool unfound(struct xls_lost *l, uint64_t ino)
{
	uint64_t chunk = ino & ~(uint64_t)(XFS_INODES_PER_CHUNK - 1);

	return ino != l->src->geo.root_ino && !xls_hashmap_find(&l->disk_linked, ino, 0) &&
	       !xls_hashmap_find(&l->disk_chunks, chunk, 0) &&
	       xls_fsview_inode_chunk(&l->disk, ino) == 0;
}

/*
 * The inodes that entries recovery adds name and that recovery does not
 * touch, sorted and each once: read in inode order, one read of the
 * device's cluster serves all of its inodes (the entries name them in
 * no order).  Returns how many, in *@out (xls_vec_free()), or -1 out
 * of memory.
 */
static int64_t untouched_named(struct xls_lost *l, uint64_t **out)
{
	uint64_t *v = NULL;
	uint32_t n = 0, cap = 0, u = 0;

	struct xls_lost_cursor c = { 0, 0 };
	struct xls_lost_dirent d;

	while (xls_lost_next_dirent(l, &c, &d)) {
		uint64_t *slot;

		if (!d.add || touched(l, d.ino))
			continue;
		if (!(slot = xls_vec_push((void **)&v, &n, &cap, sizeof(*v)))) {
			xls_vec_free(v);
			return -1;
		}
		*slot = d.ino;
	}
	if (l->lists.read_failed) {
		xls_vec_free(v);
		return -1;
	}
	if (n)
		qsort(v, n, sizeof(*v), xls_cmp_u64);
	for (uint32_t i = 0; i < n; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	*out = v;
	return u;
}

/*
 * The inodes an entry recovery adds names, that recovery does not touch
 * but repair never finds: they go with their xattrs (their entry is
 * already counted).  Added to @inos (@n of them, sorted), which grows;
 * returns the new count.
 */
static uint32_t add_unfound(struct xls_lost *l, uint64_t **inos, uint32_t n, uint8_t *dino)
{
	const struct xls_geometry *g = &l->src->geo;
	uint64_t *cand = NULL, *grown;
	int64_t ncand = untouched_named(l, &cand);
	uint32_t extra = 0;

	if (ncand < 0) {
		l->nomem = true;
		return n;
	}
	for (int64_t i = 0; i < ncand && !l->nomem; i++) {
		struct xls_inode_core c;

		if (!unfound(l, cand[i]) || xls_fsview_read_inode(&l->disk, cand[i], dino, NULL))
			continue;
		xls_fsview_core(g, dino, &c);
		if (!xls_inode_core_free(&c))
			cand[extra++] = cand[i];
	}
	if (extra && !l->nomem) {
		grown = realloc(*inos, sizeof(**inos) * (n + extra));
		if (!grown) {
			l->nomem = true;
		} else {
			*inos = grown;
			memcpy(*inos + n, cand, sizeof(*cand) * extra);
			n += extra;
			qsort(*inos, n, sizeof(**inos), xls_cmp_u64);
		}
	}
	xls_vec_free(cand);
	return n;
}

/*
 * The directories among @inos (sorted), each compared.  They are all
 * found first, their cores read in inode order: a comparison reads the
 * inodes its entries name, in no order, and would push the cluster of
 * the next inode out of the cache.  Returns, in *@out (xls_vec_free()),
 * the inodes a view holds as a directory, the freed ones' final cores
 * too: compare_parents' walk, which on a log of new files is a small
 * part of @inos.
 */
static uint32_t compare_dirs(struct xls_lost *l, const uint64_t *inos, uint32_t n,
			     uint8_t *dino, uint64_t **out)
{
	uint64_t *dirs = NULL, *any = NULL;
	uint32_t ndirs = 0, capdirs = 0, nany = 0, capany = 0;

	for (uint32_t i = 0; i < n && !l->nomem; i++) {
		struct xls_inode_core dc, fc;
		bool disk_dir, final_dir;
		uint64_t *slot;

		read_cores(l, inos[i], dino, false, &dc, &fc);
		disk_dir = !xls_inode_core_free(&dc) && S_ISDIR(dc.mode);
		final_dir = !xls_inode_core_free(&fc) && S_ISDIR(fc.mode);
		if ((disk_dir || (final_dir && !freed(l, inos[i]))) &&
		    (slot = push((void **)&dirs, &ndirs, &capdirs, sizeof(*dirs), &l->nomem)))
			*slot = inos[i];
		if ((disk_dir || final_dir) &&
		    (slot = push((void **)&any, &nany, &capany, sizeof(*any), &l->nomem)))
			*slot = inos[i];
	}
	for (uint32_t i = 0; i < ndirs && !l->nomem; i++)
		compare_dir(l, dirs[i]);
	xls_vec_free(dirs);
	*out = any;
	return nany;
}

/*
 * Every inode recovery touches: first the directories, which teach what
 * entries the disk holds, then each inode and its xattrs against the disk,
 * or against nothing when repair never finds it.
 */
static void compare_all(struct xls_lost *l)
{
	const struct xls_geometry *g = &l->src->geo;
	uint64_t *inos, *dirs, ntouched = xls_inoflags_count(&l->touched);
	uint32_t n = (uint32_t)ntouched, ndirs;
	uint8_t dino[2048];

	if (!g->inode_size || g->inode_size > sizeof(dino))
		return;
	inos = malloc(sizeof(*inos) * (ntouched ? ntouched : 1));
	if (!inos || xls_inoflags_sorted(&l->touched, inos)) {
		l->nomem = true;
		free(inos);
		return;
	}
	ndirs = compare_dirs(l, inos, n, dino, &dirs);
	compare_parents(l, dirs, ndirs);
	xls_vec_free(dirs);
	n = add_unfound(l, &inos, n, dino);
	for (uint32_t i = 0; i < n && !l->nomem; i++) {
		bool fr = freed(l, inos[i]), gone;
		struct xls_inode_core dc, fc;

		read_cores(l, inos[i], dino, fr, &dc, &fc);
		gone = !xls_inode_core_free(&dc) && unfound(l, inos[i]);
		if (gone)
			memset(&dc, 0, sizeof(dc));
		compare_inode(l, inos[i], &dc, &fc);
		compare_attrs(l, inos[i], gone, fr);
	}
	free(inos);
}

/*
 * What xfs_repair -L puts in lost+found: an inode that recovery names
 * (an entry it adds) or frees, but that no entry on the disk side of any
 * directory compared names, whose chunk repair finds (a record of the
 * disk's inode btree holds it, or an entry on the disk names another inode
 * of it) and whose core on the disk is in use (repair trusts the core over
 * the record's free bit) and that repair does not clear (repair_clears),
 * so that repair finds it with no parent.  Directories the log
 * does not touch are not read: a link there is not seen.
 */
static void found_unlinked(struct xls_lost *l, uint64_t ino, uint8_t *dino)
{
	const struct xls_geometry *g = &l->src->geo;
	struct xls_lost_found *lf;
	struct xls_inode_core c;

	if (ino == g->root_ino || xls_hashmap_find(&l->disk_linked, ino, 0))
		return;
	/* repair finds it in its chunk: a record holds it, or it checks a sibling */
	if ((!xls_hashmap_find(&l->disk_chunks, ino & ~(uint64_t)(XFS_INODES_PER_CHUNK - 1), 0) &&
	     xls_fsview_inode_chunk(&l->disk, ino) != 1) ||
	    xls_fsview_read_inode(&l->disk, ino, dino, NULL))
		return;
	xls_fsview_core(g, dino, &c);
	if (xls_inode_core_free(&c) || repair_clears(&l->disk, ino, &c))
		return;
	lf = push((void **)&l->founds, &l->nfounds, &l->capfounds, sizeof(*lf), &l->nomem);
	if (!lf)
		return;
	lf->ino = ino;
	lf->mode = c.mode;
	lf->path = NULL;
	l->sum.lost_found++;
}

/*
 * The inodes entries added name and those recovery frees, each once, in
 * inode order: an array of them is a third of a hash set's size (this
 * ran at lost's peak of memory), and their cores are read cluster by
 * cluster.
 */
static void find_lost_found(struct xls_lost *l)
{
	const struct xls_geometry *g = &l->src->geo;
	struct xls_lost_cursor c = { 0, 0 };
	struct xls_lost_dirent d;
	uint64_t *inos;
	uint32_t n = 0, k = 0;
	uint8_t dino[2048];

	if (!g->inode_size || g->inode_size > sizeof(dino))
		return;
	inos = malloc(sizeof(*inos) * ((size_t)l->lists.ndirents + l->nfreed + 1));
	if (!inos) {
		l->nomem = true;
		return;
	}
	while (xls_lost_next_dirent(l, &c, &d))
		if (d.add)
			inos[n++] = d.ino;
	for (uint32_t i = 0; i < l->nfreed; i++)
		inos[n++] = l->freed[i];
	qsort(inos, n, sizeof(*inos), xls_cmp_u64);
	for (uint32_t i = 0; i < n && !l->nomem; i++) {
		if (k && inos[i] == inos[k - 1])
			continue;
		inos[k++] = inos[i];
		found_unlinked(l, inos[i], dino);
	}
	free(inos);
}

void xls_lost_set_quota(struct xls_lost *l, const struct xls_quota_opts *q) { l->quota = *q; }

const char *xls_lost_path(struct xls_lost *l, uint64_t ino, char *buf, size_t bufsz)
{
	return xls_lost_names_path(&l->names, ino, buf, bufsz);
}

int xls_lost_run(struct xls_lost *l, struct xls_log *log, const struct xls_head_tail *ht,
		 const struct xls_report_sink *report, struct xls_error *err)
{
	/*
	 * Only the blocks compared are decided (bmbt among the btrees), the
	 * superblock the mount reads back (mount_fails_after), and what pass
	 * 3 reads to find its work: AGIs, inode buffers, AGFs and, with
	 * reflink, the btrees (the refcount btree's CoW staging extents).
	 */
	struct xls_recover_opts ro = {
		.keep_types = l->ovl.types, .keep_inodes = true, .quiet = true, .quota = l->quota,
		.only_types = (l->ovl.types & ~(1u << XFS_BLFT_BTREE_BUF)) |
			      (1u << XFS_BLFT_AGI_BUF) | (1u << XFS_BLFT_SB_BUF) |
			      (1u << XFS_BLFT_DINO_BUF) | (1u << XFS_BLFT_AGF_BUF) |
			      (l->src->geo.has_reflink ? 1u << XFS_BLFT_BTREE_BUF : 0),
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
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the inodes and "
				     "directories recovery replays, kept to compare");
	if (rc)
		return rc;
	compare_all(l);
	find_lost_found(l);
	if (xls_lost_names_error(&l->names, err))
		return -1;
	l->sum.metadata_bytes = l->ovl.replayed_bytes;
	l->sum.overlay_full = l->ovl.full;
	l->sum.overlay_bytes = l->ovl.bytes;
	l->sum.overlay_spilled = l->ovl.spilled;
	if (l->nomem)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the comparison of "
				     "the replayed inodes with the device");
	if (l->names.names.dropped)
		return xls_error_set(err, XLS_EXIT_INTERNAL, "out of memory for the names of "
				     "inodes: %llu names dropped, paths incomplete",
				     (unsigned long long)l->names.names.dropped);
	return 0;
}

const struct xls_lost_summary *xls_lost_summary(const struct xls_lost *l)
{
	return &l->sum;
}

/* What the comparison found, kind by kind: each list and its length. */
#define LOST_LIST(type, fn, list)						\
	const struct type *fn(const struct xls_lost *l, uint32_t *n)		\
	{									\
		*n = l->n##list;						\
		return l->list;							\
	}
LOST_LIST(xls_lost_xattr, xls_lost_xattrs, xattrs)
LOST_LIST(xls_lost_found, xls_lost_founds, founds)
LOST_LIST(xls_lost_apart, xls_lost_aparts, aparts)
