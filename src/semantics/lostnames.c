#include <errno.h>
#include <string.h>

#include "base/ondisk.h"
#include <xfs/xfs_da_format.h>
#include "semantics/lostnames.h"

void xls_lost_names_init(struct xls_lost_names *n, const struct xls_fsview *view)
{
	memset(n, 0, sizeof(*n));
	n->g = &view->src->geo;
	xls_names_init(&n->names, view);
	xls_sortspill_init(&n->leaves, XLS_LOST_LEAF_MEM);
}

void xls_lost_names_release(struct xls_lost_names *n)
{
	xls_names_release(&n->names);
	xls_sortspill_free(&n->leaves);
}

/*
 * A directory's name (or an entry's of no file type) into names, another's
 * into the spill.  What xls_names_learn() would ignore goes there, to be
 * ignored.
 */
int xls_lost_names_learn(struct xls_lost_names *n, uint64_t dir,
			 const struct xls_dirent_set *set, uint32_t k)
{
	const struct xls_dirent_rec *e = &set->e[k];
	struct xls_leaf_name leaf = { .dir = dir };

	if (!n->g->has_ftype || e->ftype == XFS_DIR3_FT_UNKNOWN || e->ftype == XFS_DIR3_FT_DIR ||
	    !e->len || !dir || e->ino == dir || e->ino == n->g->root_ino) {
		xls_names_learn(&n->names, e->ino, dir, xls_dirent_set_name(set, k), e->len);
		return 0;
	}
	memcpy(leaf.name, xls_dirent_set_name(set, k), e->len);
	return xls_sortspill_add(&n->leaves, e->ino, &leaf, (uint32_t)(sizeof(leaf.dir) + e->len));
}

/*
 * The name the spill keeps for @ino, if any: the last one learnt, as
 * xls_names_learn() has the latest win.
 */
static void find_leaf(struct xls_lost_names *n, uint64_t ino)
{
	uint64_t key, prev = n->asked;
	const void *rec;
	uint32_t len;

	if (prev == ino && ino)
		return;
	n->named = false;
	n->asked = 0;
	if ((!n->leaves.reading || ino < prev) && xls_sortspill_rewind(&n->leaves))
		return;
	n->asked = ino;
	while (xls_sortspill_peek(&n->leaves, &key) && key <= ino &&
	       (rec = xls_sortspill_next(&n->leaves, &key, &len))) {
		if (key < ino || len <= sizeof(n->leaf.dir))
			continue;
		memcpy(&n->leaf, rec, len);
		n->len = len - (uint32_t)sizeof(n->leaf.dir);
		n->named = true;
	}
}

const char *xls_lost_names_path(struct xls_lost_names *n, uint64_t ino, char *buf,
				size_t bufsz)
{
	find_leaf(n, ino);
	if (n->named)
		return xls_names_entry_path(&n->names, n->leaf.dir, n->leaf.name, n->len, buf,
					    bufsz, NULL) ? buf : NULL;
	return xls_names_path(&n->names, ino, buf, bufsz, NULL) ? buf : NULL;
}

int xls_lost_names_error(const struct xls_lost_names *n, struct xls_error *err)
{
	int error = xls_names_file_error(&n->names);
	const char *dir = n->names.names.dir;

	if (!error && n->leaves.error != ENOMEM) {
		error = n->leaves.error;
		dir = n->leaves.dir;
	}
	if (!error)
		return 0;
	return xls_error_set(err, XLS_EXIT_INPUT, "cannot keep the names of inodes in a "
			     "temporary file in '%s' (TMPDIR): %s", dir ? dir : "/tmp",
			     strerror(error));
}
