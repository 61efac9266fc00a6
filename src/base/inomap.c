#include <string.h>

#include "base/bigmem.h"
#include "base/inomap.h"

#define MAX_CAP		(1u << 30)

/* Into twice the slots. */
static int grow(struct xls_inomap *m)
{
	uint32_t ncap = m->cap ? m->cap * 2 : 64, shift;
	struct xls_inoslot *ns;

	if (ncap > MAX_CAP)
		return -1;
	ns = xls_big_zalloc((size_t)ncap * sizeof(*ns));
	if (!ns)
		return -1;
	shift = 64 - (uint32_t)__builtin_ctz(ncap);
	for (uint32_t i = 0; i < m->cap; i++) {
		uint32_t h;

		if (!m->slot[i].key)
			continue;
		for (h = xls_inomap_hash(m->slot[i].key, shift); ns[h].key; h = (h + 1) & (ncap - 1))
			;
		ns[h] = m->slot[i];
	}
	xls_big_free(m->slot);
	m->slot = ns;
	m->cap = ncap;
	m->shift = shift;
	return 0;
}

int xls_inomap_put(struct xls_inomap *m, uint64_t key, uint64_t v)
{
	uint64_t *old = xls_inomap_find(m, key);
	uint32_t h;

	if (old) {
		*old = v;
		return 0;
	}
	if (!key) {
		m->has_zero = true;
		m->zero_v = v;
		return 0;
	}
	/* at most 3/4 full: every probe ends at an empty slot */
	if ((uint64_t)(m->used + 1) * 4 >= (uint64_t)m->cap * 3 && grow(m))
		return -1;
	for (h = xls_inomap_hash(key, m->shift); m->slot[h].key; h = (h + 1) & (m->cap - 1))
		;
	m->slot[h].key = key;
	m->slot[h].v = v;
	m->used++;
	return 0;
}

bool xls_inomap_next(const struct xls_inomap *m, uint32_t *pos, uint64_t *key, uint64_t *v)
{
	/* position 0 is key 0's, then slot i is position i + 1 */
	if (*pos == 0) {
		(*pos)++;
		if (m->has_zero) {
			*key = 0;
			*v = m->zero_v;
			return true;
		}
	}
	for (; *pos <= m->cap; (*pos)++) {
		const struct xls_inoslot *s = &m->slot[*pos - 1];

		if (!s->key)
			continue;
		*key = s->key;
		*v = s->v;
		(*pos)++;
		return true;
	}
	return false;
}

void xls_inomap_free(struct xls_inomap *m)
{
	xls_big_free(m->slot);
	memset(m, 0, sizeof(*m));
}
