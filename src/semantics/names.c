/*
 * Semantics stage: the inode -> (parent, name) map and paths.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ondisk.h"
#include "semantics/names.h"

_Static_assert(sizeof(struct xls_name) == 32, "a name is 32 bytes in its page");

void xls_names_init(struct xls_names *m, const struct xls_fsview *view)
{
	memset(m, 0, sizeof(*m));
	m->view = view;
	/* out of memory: no name is kept, each counted as dropped */
	m->names_ok = !xls_pagestore_init(&m->names, sizeof(struct xls_name), XLS_NAMES_MEM);
}

void xls_names_release(struct xls_names *m)
{
	xls_inoidx_free(&m->idx);
	xls_hashmap_free(&m->alt);
	xls_vec_free(m->links);
	xls_hashmap_free(&m->tried);
	xls_pagestore_free(&m->names);
	xls_pool_free(&m->pool);
	memset(m, 0, sizeof(*m));
}

int xls_names_file_error(const struct xls_names *m)
{
	return m->names.error == ENOMEM ? 0 : m->names.error;
}

/* Name @i, valid until another is asked for; NULL when it cannot be had (dropped). */
static struct xls_name *name_at(struct xls_names *m, uint32_t i)
{
	struct xls_name *e = m->names_ok ? xls_pagestore_at(&m->names, i) : NULL;

	if (!e)
		m->dropped++;
	return e;
}

static bool named(struct xls_names *m, uint32_t i)
{
	const struct xls_name *e = i != UINT32_MAX ? name_at(m, i) : NULL;

	return e && e->parent && e->len;
}

static const uint8_t *name_bytes(const struct xls_names *m, const struct xls_name *e)
{
	return e->len <= XLS_NAME_INLINE ? e->bytes : m->pool.p + e->name;
}

/* @len bytes of @name as @e's: false when the pool has no room (dropped). */
static bool set_name(struct xls_names *m, struct xls_name *e, const uint8_t *name, uint32_t len)
{
	if (len <= XLS_NAME_INLINE) {
		memcpy(e->bytes, name, len);
		return true;
	}
	return xls_pool_add(&m->pool, name, len, &e->name);
}

static bool is_link(const struct xls_names *m, const struct xls_name *e, uint64_t parent,
		    const uint8_t *name, uint32_t len)
{
	return e->parent == parent && e->len == len && !memcmp(name_bytes(m, e), name, len);
}

static bool current(const struct xls_name *e)
{
	return e->len && e->level >= XLS_NAME_SEEN;
}

/* The other link of @ino that is (@parent, @name), or UINT32_MAX; *@prev the one before. */
static uint32_t find_other(const struct xls_names *m, uint64_t ino, uint64_t parent,
			   const uint8_t *name, uint32_t len, uint32_t *prev)
{
	uint32_t *head = xls_hashmap_find(&m->alt, ino, 0);

	*prev = UINT32_MAX;
	for (uint32_t i = head ? *head : UINT32_MAX; i != UINT32_MAX; i = m->links[i].next) {
		if (is_link(m, &m->links[i].link, parent, name, len))
			return i;
		*prev = i;
	}
	return UINT32_MAX;
}

/* Link @i of @ino's other links out of its chain (its slot is not reused). */
static void unlink_other(struct xls_names *m, uint64_t ino, uint32_t i, uint32_t prev)
{
	uint32_t next = m->links[i].next;

	if (prev != UINT32_MAX)
		m->links[prev].next = next;
	else if (next != UINT32_MAX)
		*xls_hashmap_find(&m->alt, ino, 0) = next;
	else
		xls_hashmap_del(&m->alt, ino, 0);
}

/* The link @e of @ino kept among its other links: it still names the inode. */
static void keep_other(struct xls_names *m, uint64_t ino, const struct xls_name *e)
{
	uint32_t *head = xls_hashmap_find(&m->alt, ino, 0), i = m->nlinks, n = 0;

	/* a file of thousands of links: XLS_NAMES_LINKS of them are enough */
	for (uint32_t j = head ? *head : UINT32_MAX; j != UINT32_MAX; j = m->links[j].next)
		if (++n == XLS_NAMES_LINKS)
			return;
	if (m->n + m->nlinks >= XLS_NAMES_MAX) {
		m->full = true;
		return;
	}
	if (!xls_vec_grow((void **)&m->links, m->nlinks, &m->caplinks, sizeof(*m->links)) ||
	    (!head && xls_hashmap_put(&m->alt, ino, 0, i))) {
		m->dropped++;
		return;
	}
	m->links[i].link = *e;
	m->links[i].next = head ? *head : UINT32_MAX;
	if (head)
		*head = i;
	m->nlinks++;
}

/* A link of @ino seen in place besides the one it goes by. */
static void keep_seen(struct xls_names *m, uint64_t ino, uint64_t parent, const uint8_t *name,
		      uint32_t len)
{
	struct xls_name e = { .parent = parent, .len = (uint8_t)len, .level = XLS_NAME_SEEN };

	if (set_name(m, &e, name, len))
		keep_other(m, ino, &e);
	else
		m->dropped++;
}

/* The removed name @ino goes by: another link of it still there instead, if any. */
static void promote_other(struct xls_names *m, uint64_t ino, struct xls_name *e)
{
	uint32_t *head = xls_hashmap_find(&m->alt, ino, 0), prev = UINT32_MAX;

	for (uint32_t i = head ? *head : UINT32_MAX; i != UINT32_MAX; i = m->links[i].next) {
		if (current(&m->links[i].link)) {
			*e = m->links[i].link;
			unlink_other(m, ino, i, prev);
			return;
		}
		prev = i;
	}
}

static void learn(struct xls_names *m, uint64_t ino, uint64_t parent, const uint8_t *name,
		  uint32_t len, enum xls_name_level level)
{
	uint32_t idx = xls_inoidx_find(&m->idx, ino);
	struct xls_name *e;

	if (len > 255 || !len || !parent || parent == ino)
		return;
	if (idx != XLS_INOIDX_NONE) {
		uint32_t prev, other;

		/* @e stays: nothing below asks for another name */
		if (!(e = name_at(m, idx)))
			return;
		if (is_link(m, e, parent, name, len)) {
			if (level == XLS_NAME_CHANGED || e->level < level)
				e->level = (uint8_t)level;
			return;
		}
		other = find_other(m, ino, parent, name, len, &prev);
		/*
		 * Another link seen in place while the inode goes by a name
		 * still there: kept, for when that name is removed.
		 */
		if (level == XLS_NAME_SEEN && named(m, idx) && current(e)) {
			if (other == UINT32_MAX)
				keep_seen(m, ino, parent, name, len);
			return;
		}
		if (level != XLS_NAME_CHANGED && named(m, idx) && e->level >= level)
			return;
		if (other != UINT32_MAX)
			unlink_other(m, ino, other, prev);
		/* a new link besides one still there: both name the inode */
		if (level == XLS_NAME_CHANGED && named(m, idx) && current(e))
			keep_other(m, ino, e);
	} else {
		if (m->n + m->nlinks >= XLS_NAMES_MAX) {
			m->full = true;
			return;
		}
		if (!(e = name_at(m, m->n)))
			return;
		if (xls_inoidx_put(&m->idx, ino, m->n)) {
			m->dropped++;
			return;
		}
		m->n++;
	}
	if (!set_name(m, e, name, len)) {
		e->len = 0;
		m->dropped++;
		return;
	}
	e->parent = parent;
	e->len = (uint8_t)len;
	e->level = (uint8_t)level;
}

void xls_names_learn(struct xls_names *m, uint64_t ino, uint64_t parent,
		     const uint8_t *name, uint32_t len)
{
	learn(m, ino, parent, name, len, XLS_NAME_CHANGED);
}

void xls_names_learn_weak(struct xls_names *m, uint64_t ino, uint64_t parent,
			  const uint8_t *name, uint32_t len)
{
	learn(m, ino, parent, name, len, XLS_NAME_SEEN);
}

void xls_names_removed(struct xls_names *m, uint64_t ino, uint64_t parent,
		       const uint8_t *name, uint32_t len)
{
	uint32_t idx = xls_inoidx_find(&m->idx, ino);
	uint32_t prev, other;
	struct xls_name *e;

	if (idx == XLS_INOIDX_NONE || !(e = name_at(m, idx)))
		return;
	if (is_link(m, e, parent, name, len)) {
		e->level = XLS_NAME_REMOVED;
		promote_other(m, ino, e);
		return;
	}
	other = find_other(m, ino, parent, name, len, &prev);
	if (other != UINT32_MAX)
		unlink_other(m, ino, other, prev);
}

int xls_names_learn_entry(void *ctx, const struct xls_dirent *e)
{
	struct xls_names_dir *d = ctx;

	if (!xls_dirent_is_dot(e))
		learn(d->m, e->ino, d->dir, e->name, e->namelen, XLS_NAME_SEEN);
	return 0;
}

bool xls_names_unlinked(struct xls_names *m, uint64_t ino)
{
	uint32_t idx = xls_inoidx_find(&m->idx, ino);
	const struct xls_name *e = idx != XLS_INOIDX_NONE ? name_at(m, idx) : NULL;

	/* a removed name is the one the path goes by only when no other link is there */
	return e && e->len && e->level == XLS_NAME_REMOVED;
}

/* ------------------------------------------------------------------ */
/* look-ups in the view */

/* A parent pointer of the inode, learnt weakly; the first one does. */
static int learn_pptr(void *ctx, const struct xls_xattr *a)
{
	struct xls_names_dir *d = ctx;
	uint64_t parent;
	uint32_t gen;

	if (!xls_xattr_parent(a, &parent, &gen))
		return 0;
	learn(d->m, d->dir, parent, a->name, a->namelen, XLS_NAME_SEEN);
	return 1;
}

/*
 * Was @ino looked up in vain since the view last changed enough?  Each
 * failure doubles the changes a next try waits for.
 */
static bool tried_lately(struct xls_names *m, uint64_t ino)
{
	uint32_t *t = xls_hashmap_find(&m->tried, ino, 0);

	if (!t) {
		if (m->tried.used < XLS_NAMES_MAX)
			(void)xls_hashmap_put(&m->tried, ino, 0, m->epoch);
		return false;
	}
	if (m->epoch - *t < (*t > 16 ? *t : 16))
		return true;
	*t = m->epoch;
	return false;
}

/*
 * An inode not named yet: its parent pointers, or for a directory its
 * ".." and every entry of its parent (they are all worth knowing: a big
 * parent is read once, not once per child).
 */
static uint32_t look_up(struct xls_names *m, uint64_t ino)
{
	struct xls_names_dir d = { .m = m, .dir = ino };
	uint64_t parent = 0, pp;
	uint32_t idx;

	if (!m->view || tried_lately(m, ino))
		return UINT32_MAX;
	m->lookups++;
	if (m->view->src->geo.has_parent)
		xls_fsview_attrs(m->view, ino, learn_pptr, &d);
	idx = xls_inoidx_find(&m->idx, ino);
	if (idx != XLS_INOIDX_NONE && named(m, idx))
		return idx;
	xls_fsview_dir(m->view, ino, &parent, xls_dirent_ignore, NULL);
	if (!parent || parent == ino)
		return UINT32_MAX;
	d.dir = parent;
	xls_fsview_dir(m->view, parent, &pp, xls_names_learn_entry, &d);
	idx = xls_inoidx_find(&m->idx, ino);
	return idx;
}

/* ------------------------------------------------------------------ */
/* paths */

/*
 * The chain of names from @ino up to the root, into @chain (indices into
 * names: a look-up may move the array); its depth, or -1 when it does not
 * reach the root: *@stuck is then the inode with no name where it stops,
 * 0 for a loop (or a chain deeper than XLS_NAMES_MAX_DEPTH).
 */
static int chain_of(struct xls_names *m, uint64_t ino, bool current, uint32_t *chain,
		    uint32_t *depth, uint64_t *stuck)
{
	uint64_t root = m->view ? m->view->src->geo.root_ino : 0, at = ino;

	*depth = 0;
	*stuck = 0;
	while (*depth < XLS_NAMES_MAX_DEPTH) {
		const struct xls_name *e;
		uint32_t idx;
		uint32_t i;

		if (at == root)
			return 0;
		idx = xls_inoidx_find(&m->idx, at);
		i = idx;
		if (!named(m, i))
			i = look_up(m, at);
		if (!named(m, i)) {
			*stuck = at;
			return -1;
		}
		/* named(): it can be had */
		e = name_at(m, i);
		if (current && e->level == XLS_NAME_REMOVED)
			return -1;
		chain[(*depth)++] = i;
		at = e->parent;
	}
	m->loops++;
	*depth = 0;
	return -1;
}

/* "/a/b" of @depth names of @chain, then @tail, into @buf; its length. */
static size_t put_path(struct xls_names *m, const uint32_t *chain, uint32_t depth,
		       const uint8_t *tail, uint32_t tail_len, char *buf, size_t bufsz)
{
	size_t n = 0;

	/* one path for each of a million events: copied, not printed */
	for (uint32_t i = depth; i-- > 0;) {
		const struct xls_name *e = name_at(m, chain[i]);

		if (!e || n + 1 + e->len >= bufsz)
			break;
		buf[n++] = '/';
		memcpy(buf + n, name_bytes(m, e), e->len);
		n += e->len;
	}
	if (tail && n + 1 + tail_len < bufsz) {
		buf[n++] = '/';
		memcpy(buf + n, tail, tail_len);
		n += tail_len;
	}
	buf[n] = '\0';
	return n;
}

bool xls_names_path_part(struct xls_names *m, uint64_t ino, const uint8_t *tail,
			 uint32_t tail_len, char *buf, size_t bufsz, size_t *len, uint64_t *stuck)
{
	uint32_t chain[XLS_NAMES_MAX_DEPTH], depth;
	size_t n = 0;
	int rc;

	*stuck = 0;
	if (bufsz < 2) {
		if (bufsz)
			buf[0] = '\0';
		if (len)
			*len = 0;
		return false;
	}
	rc = chain_of(m, ino, false, chain, &depth, stuck);
	if (rc == 0 || *stuck)
		n = put_path(m, chain, depth, tail, tail_len, buf, bufsz);
	else
		buf[0] = '\0';
	if (rc == 0 && !n) {
		buf[n++] = '/';
		buf[n] = '\0';
	}
	/* the caller's strlen() of what was just copied in stalled on it */
	if (len)
		*len = n;
	return rc == 0;
}

bool xls_names_path(struct xls_names *m, uint64_t ino, char *buf, size_t bufsz, size_t *len)
{
	uint64_t stuck;
	bool whole = xls_names_path_part(m, ino, NULL, 0, buf, bufsz, len, &stuck);

	if (!whole && bufsz) {
		buf[0] = '\0';
		if (len)
			*len = 0;
	}
	return whole;
}

bool xls_names_final_path(struct xls_names *m, uint64_t ino, char *buf, size_t bufsz,
			  size_t *len)
{
	uint32_t chain[XLS_NAMES_MAX_DEPTH], depth;
	uint64_t stuck;
	size_t n = 0;

	if (bufsz < 2)
		return false;
	if (chain_of(m, ino, true, chain, &depth, &stuck) == 0)
		n = put_path(m, chain, depth, NULL, 0, buf, bufsz);
	else
		depth = UINT32_MAX;
	if (depth != UINT32_MAX && !n)
		buf[n++] = '/';
	buf[n] = '\0';
	if (len)
		*len = n;
	return depth != UINT32_MAX;
}

bool xls_names_entry_path(struct xls_names *m, uint64_t dir, const uint8_t *name,
			  uint32_t namelen, char *buf, size_t bufsz, size_t *len)
{
	uint64_t stuck;
	bool whole = namelen && name &&
		     xls_names_path_part(m, dir, name, namelen, buf, bufsz, len, &stuck);

	if (!whole && bufsz) {
		buf[0] = '\0';
		if (len)
			*len = 0;
	}
	return whole;
}
