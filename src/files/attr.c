/*
 * Files stage: xattrs and parent pointers set and removed,
 * from shortform attr forks and attr leaf blocks.
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

/* An attr event of inode @ino: "ns.name", or a parent pointer's entry name. */
static void attr_event(struct xls_files *f, uint64_t ino, const struct xls_xattr_set *s,
		       uint32_t k, bool set)
{
	const struct xls_xattr_rec *x = &s->e[k];
	bool pptr = x->flags & XFS_ATTR_PARENT;
	struct xls_file_event *e;
	char name[300];
	uint32_t n;

	e = xls_fevent(f, ino, pptr ? (set ? XLS_FEV_PPTR_SET : XLS_FEV_PPTR_REMOVE) :
		  (set ? XLS_FEV_XATTR_SET : XLS_FEV_XATTR_REMOVE));
	if (!e)
		return;
	e->dir = x->parent;
	if (set)
		e->new_value = x->vhash;
	else
		e->old_value = x->vhash;
	n = xls_xattr_set_name(s, k, name, sizeof(name));
	xls_fevent_name(f, e, (const uint8_t *)name, n, false);
}

void xls_files_diff_attrs(struct xls_files *f, uint64_t ino)
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

void xls_files_attrs_reset(struct xls_files *f)
{
	xls_xattr_set_reset(&f->abefore);
	xls_xattr_set_reset(&f->aafter);
}

/* An attr leaf block as the log leaves it: attrs set and removed. */
void xls_files_take_attr_buf(struct xls_files *f, const struct xls_rtrans *rt,
			  const struct xls_ritem *ri)
{
	const struct xls_rbuf *rb = ri->buf;
	const struct xls_geometry *g = &f->src->geo;
	uint32_t bytes = rb->len * BBSIZE;
	uint8_t *blk = xls_files_scratch(f, bytes);
	struct xls_owner o;
	bool seen, known;

	if (!blk)
		return;
	xls_files_attrs_reset(f);
	/*
	 * Before the tail the view mixes the disk's later state with what the
	 * log logged: the attrs it shows are not the log's.
	 */
	if (f->stale) {
		xls_overlay_take(&f->view, rt, ri);
		return;
	}
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
		xls_files_malformed(f, XLS_FILES_ATTR_LEAF, (uint64_t)rb->blkno,
				    xls_attr_leaf_walk(blk, bytes, xls_xattr_set_add, &f->aafter));
		if (xls_owner_from_header(g, rb->blkno, rb->len, blk, bytes, &o) && o.has_ino)
			xls_files_diff_attrs(f, o.ino);
	}
}

/* A shortform attr fork as logged: attrs set and removed. */
void xls_files_asf_events(struct xls_files *f, uint64_t ino, struct ino_state *s,
		       const struct xls_rinode *in, const struct xls_inode_core *now)
{
	bool local = !xls_inode_core_free(now) && now->aformat == XFS_DINODE_FMT_LOCAL &&
		     now->forkoff;

	const struct ino_forks *fk = xls_ino_forks(f, s);

	if (local && !(in->fields & XFS_ILOG_ADATA))
		return;		/* the fork is not logged: as it was */
	if (!local && !fk->asf)
		return;
	if (local && in->afork &&
	    xls_files_fork_same(fk->asf, fk->asf_len, in->afork, in->afork_len))
		return;		/* logged again as it was: the same attrs */
	xls_files_attrs_reset(f);
	if (fk->asf)
		xls_attr_sf_walk(fk->asf, fk->asf_len, xls_xattr_set_add, &f->abefore);
	if (local && in->afork)
		xls_files_malformed(f, XLS_FILES_SF_ATTR, ino,
				    xls_attr_sf_walk(in->afork, in->afork_len, xls_xattr_set_add,
						     &f->aafter));
	if (s->known)
		xls_files_diff_attrs(f, ino);
	xls_files_keep_fork(f, s, true, local ? in->afork : NULL, in->afork_len);
}
