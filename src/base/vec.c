#include <stdlib.h>
#include <string.h>

#include "base/bigmem.h"
#include "base/vec.h"

bool xls_vec_grow(void **base, uint32_t n, uint32_t *cap, size_t elem)
{
	uint32_t ncap;
	void *p;

	if (n < *cap)
		return true;
	ncap = *cap ? *cap * 2 : 64;
	p = ncap > *cap ? xls_big_realloc(*base, (size_t)ncap * elem) : NULL;
	if (!p)
		return false;
	*base = p;
	*cap = ncap;
	return true;
}

void *xls_vec_push(void **base, uint32_t *n, uint32_t *cap, size_t elem)
{
	if (!xls_vec_grow(base, *n, cap, elem))
		return NULL;
	return (uint8_t *)*base + (size_t)(*n)++ * elem;
}

bool xls_pool_add(struct xls_pool *pl, const void *src, uint32_t len, uint32_t *off)
{
	if (len > UINT32_MAX - pl->used)
		return false;
	if (pl->used + len > pl->cap) {
		uint64_t ncap = pl->cap ? pl->cap : 4096;
		uint8_t *p;

		while (ncap < (uint64_t)pl->used + len)
			ncap *= 2;
		if (ncap > UINT32_MAX)
			ncap = UINT32_MAX;
		p = xls_big_realloc(pl->p, ncap);
		if (!p)
			return false;
		pl->p = p;
		pl->cap = (uint32_t)ncap;
	}
	if (len && src)
		memcpy(pl->p + pl->used, src, len);
	else if (len)
		memset(pl->p + pl->used, 0, len);
	*off = pl->used;
	pl->used += len;
	return true;
}

void xls_vec_free(void *base)
{
	xls_big_free(base);
}

void xls_pool_free(struct xls_pool *pl)
{
	xls_big_free(pl->p);
	memset(pl, 0, sizeof(*pl));
}

int xls_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}
