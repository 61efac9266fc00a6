/*
 * A map from one 64-bit key to a 64-bit value, for what is kept per inode
 * by the hundred thousand (recovery's LSN of each inode it replayed,
 * files' inodes and summaries, the names): a slot is the key and the value,
 * 16 bytes, where struct xls_hashmap's pair of keys, value and state take
 * 24.  Linear probing, at most 3/4 full, grown by doubling; no deletion.
 * Key 0 (no inode has it, but a hostile log may name it) is kept beside
 * the slots, since an empty slot's key is 0.
 */
#ifndef XLS_INOMAP_H
#define XLS_INOMAP_H

#include <stdbool.h>
#include <stdint.h>

struct xls_inoslot {
	uint64_t	key;		/* 0: empty */
	uint64_t	v;
};

struct xls_inomap {
	struct xls_inoslot	*slot;
	uint32_t		cap;	/* a power of two, or 0 before the first put */
	uint32_t		used;	/* slots used, key 0 not counted */
	uint32_t		shift;	/* 64 - log2(cap) */
	bool			has_zero;
	uint64_t		zero_v;
};

#define XLS_INOMAP_INIT	{ NULL, 0, 0, 0, false, 0 }

static inline uint32_t xls_inomap_hash(uint64_t key, uint32_t shift)
{
	return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> shift);
}

/* The value of @key, NULL when it has none; valid until the next put. */
static inline uint64_t *xls_inomap_find(const struct xls_inomap *m, uint64_t key)
{
	if (!key)
		return m->has_zero ? (uint64_t *)&m->zero_v : NULL;
	if (!m->cap)
		return NULL;
	for (uint32_t h = xls_inomap_hash(key, m->shift);; h = (h + 1) & (m->cap - 1)) {
		struct xls_inoslot *s = &m->slot[h];

		if (s->key == key)
			return &s->v;
		if (!s->key)
			return NULL;
	}
}

/* @key's value becomes @v; 0, or -1 when out of memory (the map unchanged). */
int xls_inomap_put(struct xls_inomap *m, uint64_t key, uint64_t v);

/* Keys in the map, key 0 included. */
static inline uint32_t xls_inomap_count(const struct xls_inomap *m)
{
	return m->used + (m->has_zero ? 1u : 0u);
}

/*
 * The next entry from *@pos (start at 0), in no order: false at the end.
 * The map must not change during the walk.
 */
bool xls_inomap_next(const struct xls_inomap *m, uint32_t *pos, uint64_t *key, uint64_t *v);

void xls_inomap_free(struct xls_inomap *m);

#endif /* XLS_INOMAP_H */
