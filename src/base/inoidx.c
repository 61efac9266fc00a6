#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/inoidx.h"

#define MIN_CAP		64u
#define MAX_CAP		(1u << 27)	/* a shard's: 2^31 slots in all */

/*
 * Inode numbers come by the cluster: the eight of a group of eight share
 * a hash and take neighbouring slots, so that a log's run through a
 * cluster reads one cache line of the table, not one (and a page) each.
 */
#define GROUP_BITS	3u

static uint32_t hash32(uint32_t lo)
{
	return (lo >> GROUP_BITS) * 0x9e3779b9u;
}

static struct xls_inoidx_shard *shard_of(const struct xls_inoidx_table *t, uint32_t h)
{
	return (struct xls_inoidx_shard *)&t->shard[h >> (32 - XLS_INOIDX_SHARD_BITS)];
}

/* The table of high part @hi, or NULL; the last one made is looked at first. */
static const struct xls_inoidx_table *table_of(const struct xls_inoidx *m, uint32_t hi)
{
	if (m->ntab && m->tab[m->last].hi == hi)
		return &m->tab[m->last];
	for (uint32_t i = 0; i < m->ntab; i++)
		if (m->tab[i].hi == hi)
			return &m->tab[i];
	return NULL;
}

/* @lo's slot in @s: its own, or the empty one where it would go. */
static struct xls_inoidx_slot *slot_find(const struct xls_inoidx_shard *s, uint32_t lo)
{
	/* the bits below the shard's, scaled to the slots, pick the group's first */
	uint64_t below = (uint32_t)(hash32(lo) << XLS_INOIDX_SHARD_BITS);
	uint32_t h = (uint32_t)((below * s->cap) >> 32) + (lo & ((1u << GROUP_BITS) - 1));

	for (h = h < s->cap ? h : h - s->cap;; h = h + 1 < s->cap ? h + 1 : 0) {
		struct xls_inoidx_slot *sl = &s->slot[h];

		if (sl->v == XLS_INOIDX_NONE || sl->lo == lo)
			return sl;
	}
}

static int shard_init(struct xls_inoidx_shard *s, uint32_t cap)
{
	s->slot = malloc((size_t)cap * sizeof(*s->slot));
	if (!s->slot)
		return -1;
	memset(s->slot, 0xff, (size_t)cap * sizeof(*s->slot));
	s->cap = cap;
	s->used = 0;
	return 0;
}

/* Into half as many slots again. */
static int grow(struct xls_inoidx_shard *s)
{
	struct xls_inoidx_shard n;

	if (s->cap >= MAX_CAP || shard_init(&n, s->cap + s->cap / 2))
		return -1;
	for (uint32_t i = 0; i < s->cap; i++)
		if (s->slot[i].v != XLS_INOIDX_NONE)
			*slot_find(&n, s->slot[i].lo) = s->slot[i];
	n.used = s->used;
	free(s->slot);
	*s = n;
	return 0;
}

static int table_new(struct xls_inoidx *m, uint32_t hi)
{
	struct xls_inoidx_table *t = &m->tab[m->ntab];

	memset(t, 0, sizeof(*t));
	t->hi = hi;
	for (uint32_t i = 0; i < XLS_INOIDX_SHARDS; i++)
		if (shard_init(&t->shard[i], MIN_CAP)) {
			while (i--)
				free(t->shard[i].slot);
			return -1;
		}
	m->last = m->ntab++;
	return 0;
}

uint32_t xls_inoidx_find(const struct xls_inoidx *m, uint64_t ino)
{
	const struct xls_inoidx_table *t = table_of(m, (uint32_t)(ino >> 32));
	const uint64_t *v;

	if (t)
		return slot_find(shard_of(t, hash32((uint32_t)ino)), (uint32_t)ino)->v;
	v = xls_inomap_find(&m->more, ino);
	return v ? (uint32_t)*v : XLS_INOIDX_NONE;
}

int xls_inoidx_put(struct xls_inoidx *m, uint64_t ino, uint32_t v)
{
	const struct xls_inoidx_table *t = table_of(m, (uint32_t)(ino >> 32));
	struct xls_inoidx_shard *s;
	struct xls_inoidx_slot *sl;

	if (v == XLS_INOIDX_NONE)
		return -1;
	if (!t && m->ntab == XLS_INOIDX_TABLES)
		return xls_inomap_put(&m->more, ino, v);
	if (!t) {
		if (table_new(m, (uint32_t)(ino >> 32)))
			return -1;
		t = &m->tab[m->last];
	}
	s = shard_of(t, hash32((uint32_t)ino));
	sl = slot_find(s, (uint32_t)ino);
	if (sl->v == XLS_INOIDX_NONE) {
		/* at most 3/4 full: every probe ends at an empty slot */
		if ((uint64_t)(s->used + 1) * 4 >= (uint64_t)s->cap * 3) {
			if (grow(s))
				return -1;
			sl = slot_find(s, (uint32_t)ino);
		}
		s->used++;
	}
	sl->lo = (uint32_t)ino;
	sl->v = v;
	return 0;
}

bool xls_inoidx_next(const struct xls_inoidx *m, struct xls_inoidx_pos *pos, uint64_t *ino,
		     uint32_t *v)
{
	uint64_t v64;

	for (; pos->tab < m->ntab; pos->tab++, pos->shard = 0)
		for (; pos->shard < XLS_INOIDX_SHARDS; pos->shard++, pos->slot = 0) {
			const struct xls_inoidx_shard *s = &m->tab[pos->tab].shard[pos->shard];

			while (pos->slot < s->cap) {
				const struct xls_inoidx_slot *sl = &s->slot[pos->slot++];

				if (sl->v == XLS_INOIDX_NONE)
					continue;
				*ino = (uint64_t)m->tab[pos->tab].hi << 32 | sl->lo;
				*v = sl->v;
				return true;
			}
		}
	if (!xls_inomap_next(&m->more, &pos->more, ino, &v64))
		return false;
	*v = (uint32_t)v64;
	return true;
}

uint64_t xls_inoidx_count(const struct xls_inoidx *m)
{
	uint64_t n = xls_inomap_count(&m->more);

	for (uint32_t i = 0; i < m->ntab; i++)
		for (uint32_t j = 0; j < XLS_INOIDX_SHARDS; j++)
			n += m->tab[i].shard[j].used;
	return n;
}

uint64_t xls_inoidx_bytes(const struct xls_inoidx *m)
{
	uint64_t n = (uint64_t)m->more.cap * sizeof(struct xls_inoslot);

	for (uint32_t i = 0; i < m->ntab; i++)
		for (uint32_t j = 0; j < XLS_INOIDX_SHARDS; j++)
			n += (uint64_t)m->tab[i].shard[j].cap * sizeof(struct xls_inoidx_slot);
	return n;
}

void xls_inoidx_free(struct xls_inoidx *m)
{
	for (uint32_t i = 0; i < m->ntab; i++)
		for (uint32_t j = 0; j < XLS_INOIDX_SHARDS; j++)
			free(m->tab[i].shard[j].slot);
	xls_inomap_free(&m->more);
	memset(m, 0, sizeof(*m));
}
