/*
 * Semantics stage: the inode -> (parent, name) map and paths.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "semantics/names.h"

void xls_names_init(struct xls_names *m, const struct xls_fsview *view)
{
	memset(m, 0, sizeof(*m));
	m->view = view;
}

void xls_names_release(struct xls_names *m)
{
	xls_hashmap_free(&m->idx);
	xls_hashmap_free(&m->tried);
	xls_vec_free(m->names);
	xls_pool_free(&m->pool);
	memset(m, 0, sizeof(*m));
}

void xls_names_learn(struct xls_names *m, uint64_t ino, uint64_t parent,
		     const uint8_t *name, uint32_t len)
{
	uint32_t *idx = xls_hashmap_find(&m->idx, ino, 0);
	struct xls_name *e;
	uint32_t off;

	if (len > 255)
		return;
	if (idx) {
		e = &m->names[*idx];
		if (e->parent == parent && e->len == len && !memcmp(m->pool.p + e->name, name, len))
			return;
	} else {
		if (m->n == XLS_NAMES_MAX) {
			m->full = true;
			return;
		}
		/* grown by moving pages (base/bigmem.h): it reaches tens of MiB */
		if (!xls_vec_grow((void **)&m->names, m->n, &m->cap, sizeof(*m->names)))
			return;
		if (xls_hashmap_put(&m->idx, ino, 0, m->n))
			return;
		e = &m->names[m->n++];
	}
	if (!xls_pool_add(&m->pool, name, len, &off)) {
		e->len = 0;
		return;
	}
	e->parent = parent;
	e->name = off;
	e->len = (uint8_t)len;
}

void xls_names_forget(struct xls_names *m, uint64_t ino, uint64_t parent)
{
	uint32_t *idx = xls_hashmap_find(&m->idx, ino, 0);

	if (idx && m->names[*idx].parent == parent)
		m->names[*idx].parent = 0;
}

/* Looking up the name of directory @ino in its parent. */
struct lookup {
	uint64_t	want;
	struct xls_names *m;
	uint64_t	parent;
	bool		found;
};

static int find_child(void *ctx, const struct xls_dirent *e)
{
	struct lookup *lk = ctx;

	if (e->ino != lk->want)
		return 0;
	xls_names_learn(lk->m, e->ino, lk->parent, e->name, e->namelen);
	lk->found = true;
	return 1;
}

static int ignore(void *ctx, const struct xls_dirent *e)
{
	(void)ctx;
	(void)e;
	return 0;
}

/* A directory the log does not name: its ".." and its parent's entry. */
static uint32_t look_up(struct xls_names *m, uint64_t ino)
{
	struct lookup lk = { .want = ino, .m = m };
	uint64_t parent = 0, pp;
	uint32_t *idx;

	/* the view does not change: one look-up per inode */
	if (!m->view || xls_hashmap_find(&m->tried, ino, 0))
		return UINT32_MAX;
	if (m->tried.used < XLS_NAMES_MAX)
		(void)xls_hashmap_put(&m->tried, ino, 0, 1);
	xls_fsview_dir(m->view, ino, &parent, ignore, NULL);
	if (!parent || parent == ino)
		return UINT32_MAX;
	lk.parent = parent;
	xls_fsview_dir(m->view, parent, &pp, find_child, &lk);
	if (!lk.found)
		return UINT32_MAX;
	idx = xls_hashmap_find(&m->idx, ino, 0);
	return idx ? *idx : UINT32_MAX;
}

static bool named(const struct xls_names *m, uint32_t i)
{
	return i != UINT32_MAX && m->names[i].parent && m->names[i].len;
}

bool xls_names_path(struct xls_names *m, uint64_t ino, char *buf, size_t bufsz, size_t *len)
{
	/* indices: a look-up may move the array */
	uint32_t chain[XLS_NAMES_MAX_DEPTH];
	uint64_t root = m->view ? m->view->src->geo.root_ino : 0, at = ino;
	uint32_t depth = 0;
	size_t n = 0;
	bool reached = false;

	if (!bufsz)
		return false;
	while (depth < XLS_NAMES_MAX_DEPTH) {
		uint32_t *idx, i;

		if (at == root) {
			reached = true;
			break;
		}
		idx = xls_hashmap_find(&m->idx, at, 0);
		i = idx ? *idx : UINT32_MAX;
		if (!named(m, i))
			i = look_up(m, at);
		if (!named(m, i))
			break;
		chain[depth++] = i;
		at = m->names[i].parent;
	}
	buf[0] = '\0';
	if (depth == XLS_NAMES_MAX_DEPTH) {
		m->loops++;
		n = (size_t)snprintf(buf, bufsz, "?0x%llx (a loop)", (unsigned long long)ino);
		depth = 0;	/* no names after it */
	} else if (!reached) {
		n = (size_t)snprintf(buf, bufsz, "?0x%llx", (unsigned long long)at);
	} else if (!depth) {
		n = (size_t)snprintf(buf, bufsz, "/");
	}
	/* one path for each of a million events: copied, not printed */
	for (uint32_t i = depth; i-- > 0;) {
		const struct xls_name *e = &m->names[chain[i]];

		if (n + 1 + e->len >= bufsz)
			break;
		buf[n++] = '/';
		memcpy(buf + n, m->pool.p + e->name, e->len);
		n += e->len;
	}
	n = n < bufsz ? n : bufsz - 1;
	buf[n] = '\0';
	/* the caller's strlen() of what was just copied in stalled on it */
	if (len)
		*len = n;
	return reached;
}
