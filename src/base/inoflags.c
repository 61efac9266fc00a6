#include <stdlib.h>
#include <string.h>

#include "base/inoflags.h"
#include "base/vec.h"

#define GROUP_INODES	64u

void xls_inoflags_free(struct xls_inoflags *s)
{
	xls_hashmap_free(&s->idx);
	xls_vec_free(s->group);
	*s = (struct xls_inoflags)XLS_INOFLAGS_INIT;
}

static struct xls_inoflags_group *find(const struct xls_inoflags *s, uint64_t first)
{
	const uint32_t *v = xls_hashmap_find(&s->idx, first, 0);

	return v ? &s->group[*v] : NULL;
}

int xls_inoflags_update(struct xls_inoflags *s, uint64_t ino, uint32_t clear, uint32_t set)
{
	uint64_t first = ino & ~(uint64_t)(GROUP_INODES - 1), bit = 1ull << (ino - first);
	struct xls_inoflags_group *g = find(s, first);

	if (!g) {
		if (!xls_vec_grow((void **)&s->group, s->n, &s->cap, sizeof(*s->group)) ||
		    xls_hashmap_put(&s->idx, first, 0, s->n))
			return -1;
		g = &s->group[s->n++];
		memset(g, 0, sizeof(*g));
		g->first = first;
	}
	if (!(g->member & bit)) {
		g->member |= bit;
		s->count++;
	}
	for (uint32_t f = 0; f < XLS_INOFLAGS_BITS; f++) {
		if (clear & (1u << f))
			g->mask[f] &= ~bit;
		if (set & (1u << f))
			g->mask[f] |= bit;
	}
	return 0;
}

bool xls_inoflags_get(const struct xls_inoflags *s, uint64_t ino, uint32_t *flags)
{
	uint64_t first = ino & ~(uint64_t)(GROUP_INODES - 1), bit = 1ull << (ino - first);
	const struct xls_inoflags_group *g = find(s, first);
	uint32_t v = 0;

	if (!g || !(g->member & bit))
		return false;
	for (uint32_t f = 0; f < XLS_INOFLAGS_BITS; f++)
		if (g->mask[f] & bit)
			v |= 1u << f;
	if (flags)
		*flags = v;
	return true;
}

int xls_inoflags_sorted(const struct xls_inoflags *s, uint64_t *out)
{
	uint64_t *first = malloc(sizeof(*first) * (s->n ? s->n : 1)), n = 0;

	if (!first)
		return -1;
	for (uint32_t i = 0; i < s->n; i++)
		first[i] = s->group[i].first;
	qsort(first, s->n, sizeof(*first), xls_cmp_u64);
	for (uint32_t i = 0; i < s->n; i++) {
		uint64_t m = find(s, first[i])->member;

		while (m) {
			out[n++] = first[i] + (uint64_t)__builtin_ctzll(m);
			m &= m - 1;
		}
	}
	free(first);
	return 0;
}
