#include <stdlib.h>

#include "base/vec.h"

bool xls_vec_grow(void **base, uint32_t n, uint32_t *cap, size_t elem)
{
	uint32_t ncap;
	void *p;

	if (n < *cap)
		return true;
	ncap = *cap ? *cap * 2 : 64;
	p = ncap > *cap ? realloc(*base, (size_t)ncap * elem) : NULL;
	if (!p)
		return false;
	*base = p;
	*cap = ncap;
	return true;
}
