/*
 * Growable arrays: room for one more element of @elem bytes in *@base,
 * which holds @n of *@cap, doubling (from 64); false when out of memory
 * (the array is then as it was).
 */
#ifndef XLS_VEC_H
#define XLS_VEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool xls_vec_grow(void **base, uint32_t n, uint32_t *cap, size_t elem);

#endif /* XLS_VEC_H */
