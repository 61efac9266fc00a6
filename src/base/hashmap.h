/*
 * A small open-addressing hash map from a pair of 64-bit keys to a 32-bit
 * value (usually an index into the caller's own array): the open
 * transactions by tid, the buffers and inodes recovery tracks, the hottest
 * buffers of the statistics.  Linear probing, tombstones on delete (those
 * before an empty slot cleared at once), grown by doubling; at most 2^30
 * slots.
 */
#ifndef XLS_HASHMAP_H
#define XLS_HASHMAP_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct xls_hashslot {
	uint64_t	a, b;
	uint32_t	v;
	uint8_t		state;		/* 0 empty, 1 used, 2 deleted */
};

struct xls_hashmap {
	struct xls_hashslot	*slot;
	uint32_t		cap;	/* a power of two, or 0 before the first put */
	uint32_t		used;
	uint32_t		dead;
	uint32_t		shift;	/* 64 - log2(cap) */
};

/* An empty map needs no allocation: zero it, or use this. */
#define XLS_HASHMAP_INIT	{ NULL, 0, 0, 0, 0 }

enum { XLS_SLOT_EMPTY, XLS_SLOT_USED, XLS_SLOT_DEAD };

/*
 * Fibonacci hashing, the top bits of the product being the well mixed
 * ones; @b (a length, a tid's LSN) is rotated into the half of @a that
 * daddrs and inode numbers rarely use.
 */
static inline uint32_t xls_hashmap_hash(uint64_t a, uint64_t b, uint32_t shift)
{
	return (uint32_t)(((a ^ (b << 32 | b >> 32)) * 0x9e3779b97f4a7c15ull) >> shift);
}

/*
 * The value of (@a, @b), or NULL; valid until the next put or delete.
 * Inline: the hottest lookups of the tool (a buffer per buffer item).  The
 * map is never more than 3/4 full, tombstones included, so every probe
 * meets an empty slot and ends.
 */
static inline uint32_t *xls_hashmap_find(const struct xls_hashmap *m, uint64_t a,
					 uint64_t b)
{
	if (!m->cap)
		return NULL;
	for (uint32_t h = xls_hashmap_hash(a, b, m->shift);; h = (h + 1) & (m->cap - 1)) {
		struct xls_hashslot *s = &m->slot[h];

		if (s->state == XLS_SLOT_EMPTY)
			return NULL;
		if (s->a == a && s->b == b && s->state == XLS_SLOT_USED)
			return &s->v;
	}
}

/* Add (@a, @b) -> @v; the key must not be present.  0, or -1 (memory). */
int xls_hashmap_put(struct xls_hashmap *m, uint64_t a, uint64_t b, uint32_t v);

/* Remove (@a, @b); nothing happens when it is not present. */
void xls_hashmap_del(struct xls_hashmap *m, uint64_t a, uint64_t b);

/*
 * Walk the entries in slot order: start with *@pos = 0; true and the entry
 * while there is one.  The map must not change during the walk.
 */
bool xls_hashmap_next(const struct xls_hashmap *m, uint32_t *pos, uint64_t *a,
		      uint64_t *b, uint32_t *v);

/* Forget every entry, keeping the memory. */
void xls_hashmap_clear(struct xls_hashmap *m);

/* Free the slots; the map is empty and reusable afterwards. */
void xls_hashmap_free(struct xls_hashmap *m);

#endif /* XLS_HASHMAP_H */
