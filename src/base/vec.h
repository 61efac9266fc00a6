/*
 * Growable arrays: room for one more element of @elem bytes in *@base,
 * which holds @n of *@cap, doubling (from 64); false when out of memory
 * (the array is then as it was).  Large arrays live in mappings
 * (base/bigmem.h), so they grow without copying.
 */
#ifndef XLS_VEC_H
#define XLS_VEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool xls_vec_grow(void **base, uint32_t n, uint32_t *cap, size_t elem);

/* The same, then the new element, uninitialised, counted in *@n; NULL when out of memory. */
void *xls_vec_push(void **base, uint32_t *n, uint32_t *cap, size_t elem);

/* An array grown by xls_vec_grow (base/bigmem.h: not free()). */
void xls_vec_free(void *base);

/* qsort()'s comparison of two uint64_t: an array of inode numbers, in order. */
int xls_cmp_u64(const void *a, const void *b);

/* Bytes (names) kept one after another and addressed by their offset. */
struct xls_pool {
	uint8_t		*p;
	uint32_t	used, cap;
};

/*
 * Append @len bytes of @src (NULL: @len zero bytes); their offset in *@off.
 * False when out of memory or past 4 GiB (the pool is then as it was).
 */
bool xls_pool_add(struct xls_pool *pl, const void *src, uint32_t len, uint32_t *off);

void xls_pool_free(struct xls_pool *pl);

#endif /* XLS_VEC_H */
