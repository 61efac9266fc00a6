/*
 * Files stage: the events of the transaction at hand -- made,
 * named, paired into moves and form changes, flushed to the sink.
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

/* @len bytes of @s kept for the transaction; an offset, UINT32_MAX if none. */
static uint32_t keep_name(struct xls_files *f, const uint8_t *s, uint32_t len)
{
	uint32_t off;

	if (!len || !s)
		return UINT32_MAX;
	if (!xls_pool_add(&f->pool, s, len, &off)) {
		f->nomem = true;
		return UINT32_MAX;
	}
	return off;
}

struct xls_file_event *xls_fevent(struct xls_files *f, uint64_t ino, enum xls_fev ev)
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

void xls_fevent_name(struct xls_files *f, struct xls_file_event *e, const uint8_t *name,
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
	       !memcmp(f->pool.p + (uintptr_t)a->name, f->pool.p + (uintptr_t)b->name, a->name_len);
}

static bool is_dirent_add(enum xls_fev ev)
{
	return ev == XLS_FEV_DIRENT_ADD;
}

static bool is_attr_set(enum xls_fev ev)
{
	return ev == XLS_FEV_XATTR_SET || ev == XLS_FEV_PPTR_SET;
}

static bool is_created(enum xls_fev ev)
{
	return ev == XLS_FEV_CREATED;
}

/*
 * @m: inode -> index of its first pending event of a kind, so that pairing
 * looks from there and not from the start: a big checkpoint has thousands.
 */
static void index_first(struct xls_files *f, struct xls_hashmap *m, bool (*kind)(enum xls_fev))
{
	xls_hashmap_clear(m);
	for (uint32_t i = 0; i < f->npend; i++)
		if (kind(f->pend[i].ev) && !xls_hashmap_find(m, f->pend[i].ino, 0) &&
		    xls_hashmap_put(m, f->pend[i].ino, 0, i))
			f->nomem = true;
}

/*
 * Within one transaction a remove and an add of the same inode are a move
 * (rename) -- or nothing, when directory and name are the same (a
 * shortform directory converted to a block).
 */
/*
 * The add of @rm's inode that pairs with remove @rm: with @exact, one of
 * the same name in the same directory (the entry only changed form, a
 * shortform fork become a block); else any.  NULL: none.
 */
static struct xls_file_event *pair_add(struct xls_files *f, const struct xls_file_event *rm,
				       bool exact)
{
	const uint32_t *first = xls_hashmap_find(&f->adds, rm->ino, 0);

	for (uint32_t j = first ? *first : f->npend; j < f->npend; j++) {
		struct xls_file_event *add = &f->pend[j];

		if (add->ev == XLS_FEV_DIRENT_ADD && add->ino == rm->ino &&
		    (!exact || (add->dir == rm->dir && same_name(f, add, rm))))
			return add;
	}
	return NULL;
}

/*
 * A remove and an add of one inode in one transaction: the same entry
 * (no event), else a move.  Every remove finds its exact add first, so
 * that a hard link's other names do not pass for a move.
 */
static void pair_moves(struct xls_files *f)
{
	uint32_t removes = 0;

	for (uint32_t i = 0; i < f->npend; i++)
		removes += f->pend[i].ev == XLS_FEV_DIRENT_REMOVE;
	if (!removes)
		return;
	index_first(f, &f->adds, is_dirent_add);
	for (int exact = 1; exact >= 0; exact--)
		for (uint32_t i = 0; i < f->npend; i++) {
			struct xls_file_event *rm = &f->pend[i], *add;

			if (rm->ev != XLS_FEV_DIRENT_REMOVE || !(add = pair_add(f, rm, exact)))
				continue;
			if (exact) {
				add->ev = rm->ev = XLS_FEV_COUNT;	/* dropped */
				continue;
			}
			rm->ev = XLS_FEV_DIRENT_MOVE;
			rm->new_dir = add->dir;
			rm->new_name = add->name;
			rm->new_name_len = add->name_len;
			add->ev = XLS_FEV_COUNT;
		}
}

/*
 * An attr removed from one form and set in another in one transaction
 * (shortform to leaf, leaf to shortform) is no event, or a replace when
 * its value changed.
 */
static void pair_attrs(struct xls_files *f)
{
	bool any = false;

	for (uint32_t i = 0; i < f->npend && !any; i++)
		any = f->pend[i].ev == XLS_FEV_XATTR_REMOVE || f->pend[i].ev == XLS_FEV_PPTR_REMOVE;
	if (!any)
		return;
	index_first(f, &f->adds, is_attr_set);
	for (uint32_t i = 0; i < f->npend; i++) {
		struct xls_file_event *rm = &f->pend[i];
		const uint32_t *first;

		if (rm->ev != XLS_FEV_XATTR_REMOVE && rm->ev != XLS_FEV_PPTR_REMOVE)
			continue;
		first = xls_hashmap_find(&f->adds, rm->ino, 0);
		for (uint32_t j = first ? *first : f->npend; j < f->npend; j++) {
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
	index_first(f, &f->created, is_created);
	/*
	 * Kept too: the entry of an inode whose every known link was removed
	 * before -- the other half of a rename, logged later.
	 */
	for (uint32_t i = 0; i < f->npend; i++)
		if (f->pend[i].unsure && f->pend[i].ev == XLS_FEV_DIRENT_ADD &&
		    !xls_hashmap_find(&f->created, f->pend[i].ino, 0) &&
		    !xls_names_unlinked(&f->names, f->pend[i].ino))
			f->pend[i].ev = XLS_FEV_COUNT;
}

void xls_files_flush(struct xls_files *f)
{
	pair_moves(f);
	confirm_unsure(f);
	pair_attrs(f);
	/* the names first: each event of the transaction then has its path */
	for (uint32_t i = 0; i < f->npend; i++) {
		struct xls_file_event *e = &f->pend[i];

		e->name = e->name_len ? f->pool.p + (uintptr_t)e->name : NULL;
		e->new_name = e->new_name_len ? f->pool.p + (uintptr_t)e->new_name : NULL;
		if (e->ev == XLS_FEV_DIRENT_ADD && e->dir)
			xls_names_learn(&f->names, e->ino, e->dir, e->name, e->name_len);
		else if (e->ev == XLS_FEV_DIRENT_REMOVE && e->dir)
			xls_names_removed(&f->names, e->ino, e->dir, e->name, e->name_len);
		else if (e->ev == XLS_FEV_DIRENT_MOVE && e->new_dir) {
			/* the old link goes: a hard link's other names stay */
			if (e->dir)
				xls_names_removed(&f->names, e->ino, e->dir, e->name,
						  e->name_len);
			xls_names_learn(&f->names, e->ino, e->new_dir, e->new_name, e->new_name_len);
		}
		else if (e->ev == XLS_FEV_PPTR_SET && e->dir)
			xls_names_learn(&f->names, e->ino, e->dir, e->name, e->name_len);
	}
	for (uint32_t i = 0; i < f->npend && !f->rc; i++)
		if (f->pend[i].ev != XLS_FEV_COUNT)
			xls_files_out_put(f, &f->pend[i]);
	xls_files_out_drain(f, false);
	f->npend = 0;
	f->pool.used = 0;
}

uint8_t *xls_files_scratch(struct xls_files *f, uint32_t bytes)
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

struct ino_forks *xls_files_forks(struct xls_files *f, struct ino_state *s)
{
	const uint32_t *i = s->has_forks ? xls_hashmap_find(&f->forks_idx, s->ino, 0) : NULL;
	struct ino_forks *fk;

	if (i)
		return f->forks[*i];
	fk = calloc(1, sizeof(*fk));
	if (!fk || !xls_vec_grow((void **)&f->forks, f->nforks, &f->capforks, sizeof(*f->forks)) ||
	    xls_hashmap_put(&f->forks_idx, s->ino, 0, f->nforks)) {
		free(fk);
		f->nomem = true;
		return NULL;
	}
	fk->ino = s->ino;
	f->forks[f->nforks++] = fk;
	s->has_forks = true;
	return fk;
}

/*
 * Keep @len bytes of a shortform fork at @fork (NULL: none) as *@kept, for
 * the next item of the inode to compare with; the copy's memory is reused.
 */
static void keep_bytes(struct xls_files *f, uint8_t **kept, uint32_t *kept_len,
		       const uint8_t *fork, uint32_t len)
{
	uint8_t *p = *kept;

	if (fork && (!p || *kept_len != len)) {
		p = realloc(*kept, len ? len : 1);
		if (!p)
			f->nomem = true;
	}
	if (!fork || !p) {
		free(*kept);
		*kept = NULL;
		*kept_len = 0;
		return;
	}
	memcpy(p, fork, len);
	*kept = p;
	*kept_len = len;
}

void xls_files_keep_fork(struct xls_files *f, struct ino_state *s, bool attr,
			 const uint8_t *fork, uint32_t len)
{
	struct ino_forks *fk;

	/* most inodes keep no fork: they get no struct ino_forks for none */
	if (!s->has_forks && !fork)
		return;
	fk = xls_files_forks(f, s);
	if (!fk)
		return;
	if (attr)
		keep_bytes(f, &fk->asf, &fk->asf_len, fork, len);
	else
		keep_bytes(f, &fk->sf, &fk->sf_len, fork, len);
}

bool xls_files_fork_same(const uint8_t *kept, uint32_t kept_len, const uint8_t *fork,
			 uint32_t len)
{
	return kept && kept_len == len && memcmp(kept, fork, len) == 0;
}

static const char *const struct_names[] = {
	[XLS_FILES_SF_DIR] = "the shortform directory of inode",
	[XLS_FILES_DIR_BLOCK] = "directory block at daddr",
	[XLS_FILES_SF_ATTR] = "the shortform attr fork of inode",
	[XLS_FILES_ATTR_LEAF] = "attr leaf block at daddr",
};

/*
 * A directory or attr structure the log leaves malformed: the kernel's
 * verifiers would refuse it, and its entries are read only up to the
 * problem.  Said once for each problem of each one: a block logged again
 * and again (dirfrag's 64 KiB blocks logged an extent at a time) would
 * otherwise say it at every item.
 */
void xls_files_malformed(struct xls_files *f, enum xls_files_struct what, uint64_t id,
			 uint32_t problems)
{
	const struct xls_trans *t = f->rt ? f->rt->t : NULL;
	uint32_t *seen = problems ? xls_hashmap_find(&f->malformed, id, what) : NULL;
	struct xls_finding_at at = { 0 };
	struct xls_finding fd;
	char names[128];
	int rc;

	if (!problems || (seen && !(problems & ~*seen)))
		return;
	if (seen)
		*seen |= problems;
	else if (xls_hashmap_put(&f->malformed, id, what, problems))
		f->nomem = true;
	if (!f->sink->report || f->rc)
		return;
	if (t) {
		at.lsn = t->lsn;
		at.rec_blk = (uint32_t)t->lsn;
		at.has_tid = true;
		at.tid = t->tid;
	}
	xls_dir_problems_str(problems, names, sizeof(names));
	xls_finding_make(&fd, XLS_FIND_FILES_MALFORMED, &at,
			 "%s 0x%llx as the log leaves it is malformed (%s): "
			 "only what comes before the problem is read", struct_names[what],
			 (unsigned long long)id, names);
	rc = xls_report_finding(f->sink->report, &fd);
	if (rc)
		f->rc = rc;
}
