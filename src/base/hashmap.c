#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/bigmem.h"
#include "base/hashmap.h"

#define MAX_CAP		(1u << 30)

/* Rehash into a table that has room for one more live entry. */
static int rehash(struct xls_hashmap *m)
{
	uint32_t ncap = m->cap ? m->cap : 64;
	struct xls_hashslot *old = m->slot, *ns;
	uint32_t ocap = m->cap;

	/* only grow when live entries need it; otherwise just drop the dead */
	if ((uint64_t)(m->used + 1) * 2 >= ncap)
		ncap *= 2;
	if (ncap > MAX_CAP)
		return -1;
	ns = xls_big_zalloc((size_t)ncap * sizeof(*ns));
	if (!ns)
		return -1;
	m->slot = ns;
	m->cap = ncap;
	m->shift = 64 - (uint32_t)__builtin_ctz(ncap);
	m->used = m->dead = 0;
	for (uint32_t i = 0; i < ocap; i++) {
		uint32_t h;

		if (old[i].state != XLS_SLOT_USED)
			continue;
		for (h = xls_hashmap_hash(old[i].a, old[i].b, m->shift); ns[h].state != XLS_SLOT_EMPTY;
		     h = (h + 1) & (ncap - 1))
			;
		ns[h] = old[i];
		m->used++;
	}
	xls_big_free(old);
	return 0;
}

int xls_hashmap_put(struct xls_hashmap *m, uint64_t a, uint64_t b, uint32_t v)
{
	uint32_t h;

	/* at most 3/4 full, tombstones counted: every probe ends */
	if ((uint64_t)(m->used + m->dead + 1) * 4 >= (uint64_t)m->cap * 3 &&
	    rehash(m))
		return -1;
	for (h = xls_hashmap_hash(a, b, m->shift); m->slot[h].state == XLS_SLOT_USED;
	     h = (h + 1) & (m->cap - 1))
		;
	if (m->slot[h].state == XLS_SLOT_DEAD)
		m->dead--;
	m->slot[h].a = a;
	m->slot[h].b = b;
	m->slot[h].v = v;
	m->slot[h].state = XLS_SLOT_USED;
	m->used++;
	return 0;
}

void xls_hashmap_del(struct xls_hashmap *m, uint64_t a, uint64_t b)
{
	uint32_t *v = xls_hashmap_find(m, a, b);
	struct xls_hashslot *s;

	if (!v)
		return;
	s = (struct xls_hashslot *)((char *)v - offsetof(struct xls_hashslot, v));
	s->state = XLS_SLOT_DEAD;
	m->used--;
	m->dead++;
	/*
	 * A tombstone just before an empty slot ends no probe that the empty
	 * slot would not end: empty it, and the run of tombstones before it.
	 * A map whose entries come and go one at a time (the open
	 * transactions) then stays nearly free of them, instead of probing
	 * through up to three quarters of its slots until the next rehash.
	 */
	for (uint32_t h = (uint32_t)(s - m->slot);
	     m->slot[(h + 1) & (m->cap - 1)].state == XLS_SLOT_EMPTY &&
	     m->slot[h].state == XLS_SLOT_DEAD;
	     h = (h - 1) & (m->cap - 1)) {
		m->slot[h].state = XLS_SLOT_EMPTY;
		m->dead--;
	}
}

bool xls_hashmap_next(const struct xls_hashmap *m, uint32_t *pos, uint64_t *a,
		      uint64_t *b, uint32_t *v)
{
	for (; *pos < m->cap; (*pos)++) {
		const struct xls_hashslot *s = &m->slot[*pos];

		if (s->state != XLS_SLOT_USED)
			continue;
		*a = s->a;
		*b = s->b;
		*v = s->v;
		(*pos)++;
		return true;
	}
	return false;
}

void xls_hashmap_clear(struct xls_hashmap *m)
{
	if (m->slot)
		memset(m->slot, 0, sizeof(*m->slot) * m->cap);
	m->used = m->dead = 0;
}

void xls_hashmap_free(struct xls_hashmap *m)
{
	xls_big_free(m->slot);
	memset(m, 0, sizeof(*m));
}
