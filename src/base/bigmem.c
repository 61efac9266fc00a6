#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/bigmem.h"

#define HUGE_PAGE	(2u << 20)	/* x86-64; elsewhere only alignment */

/*
 * Under AddressSanitizer everything comes from malloc, a piece at a time,
 * so that an overrun of a block image or a table is still caught.
 */
#if defined(__SANITIZE_ADDRESS__)
#define PLAIN_MALLOC	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PLAIN_MALLOC	1
#endif
#endif
#ifndef PLAIN_MALLOC
#define PLAIN_MALLOC	0
#endif
/* Before each block: whether it is mapped, and how much.  64 bytes keep
 * the contents cache-line aligned in a mapping. */
#define HEAD_BYTES	64u

struct big_head {
	size_t	map_bytes;	/* 0: the block is from malloc */
	size_t	size;		/* asked for, of a malloc'd block */
};

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

/* @bytes (a multiple of HUGE_PAGE) at an address aligned to HUGE_PAGE. */
static uint8_t *map_aligned(size_t bytes)
{
	size_t span = bytes + HUGE_PAGE;
	uint8_t *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *q;

	if (p == MAP_FAILED)
		return NULL;
	q = (uint8_t *)round_up((uintptr_t)p, HUGE_PAGE);
	if (q > p)
		munmap(p, (size_t)(q - p));
	if (q + bytes < p + span)
		munmap(q + bytes, (size_t)(p + span - (q + bytes)));
#ifdef MADV_HUGEPAGE
	/* advice only: without huge pages this is an ordinary mapping */
	madvise(q, bytes, MADV_HUGEPAGE);
#endif
	return q;
}

static struct big_head *head_of(void *p)
{
	return (struct big_head *)((uint8_t *)p - HEAD_BYTES);
}

/*
 * Block @h (NULL: none) into a new mapping for @size bytes: a mapped one
 * by moving its pages to the front (no copy, no new faults), a malloc'd
 * one by copying.
 */
static void *to_mapping(struct big_head *h, size_t size)
{
	size_t bytes = round_up(HEAD_BYTES + size, HUGE_PAGE);
	uint8_t *n = map_aligned(bytes);

	if (!n)
		return NULL;
	if (h && h->map_bytes) {
		if (mremap(h, h->map_bytes, h->map_bytes, MREMAP_MAYMOVE | MREMAP_FIXED, n) != n) {
			memcpy(n, h, h->map_bytes);
			munmap(h, h->map_bytes);
		}
	} else if (h) {
		memcpy(n + HEAD_BYTES, (uint8_t *)h + HEAD_BYTES, h->size);
		free(h);
	}
	((struct big_head *)n)->map_bytes = bytes;
	return n + HEAD_BYTES;
}

void *xls_big_realloc(void *p, size_t size)
{
	struct big_head *h = p ? head_of(p) : NULL, *n;

	if (size > SIZE_MAX - HUGE_PAGE - HEAD_BYTES)
		return NULL;
	if (h && h->map_bytes && HEAD_BYTES + size <= h->map_bytes)
		return p;	/* never shrunk: it grows again soon */
	if ((h && h->map_bytes) || (size >= XLS_BIG_MIN && !PLAIN_MALLOC))
		return to_mapping(h, size);
	/* not realloc: the contents stay aligned to 64 bytes, as in a mapping */
	n = aligned_alloc(HEAD_BYTES, round_up(HEAD_BYTES + size, HEAD_BYTES));
	if (!n)
		return NULL;
	n->map_bytes = 0;
	n->size = size;
	if (h) {
		memcpy((uint8_t *)n + HEAD_BYTES, p, h->size < size ? h->size : size);
		free(h);
	}
	return (uint8_t *)n + HEAD_BYTES;
}

void *xls_big_zalloc(size_t size)
{
	void *p = xls_big_realloc(NULL, size);

	/* a fresh mapping is zero already, and touching it would fault it in */
	if (p && !head_of(p)->map_bytes)
		memset(p, 0, size);
	return p;
}

void xls_big_free(void *p)
{
	struct big_head *h;

	if (!p)
		return;
	h = head_of(p);
	if (h->map_bytes)
		munmap(h, h->map_bytes);
	else
		free(h);
}

/* ------------------------------------------------------------------ */

static int size_class(size_t size)
{
	if (size == 0 || size % 512 || size / 512 > XLS_ARENA_CLASSES)
		return -1;
	return (int)(size / 512) - 1;
}

static bool arena_new_chunk(struct xls_arena *a, size_t size)
{
	uint8_t *c;

	if (a->nchunks == a->capchunks) {
		uint32_t cap = a->capchunks ? 2 * a->capchunks : 16;
		uint8_t **n = realloc(a->chunks, sizeof(*n) * cap);

		if (!n)
			return false;
		a->chunks = n;
		a->capchunks = cap;
	}
	c = PLAIN_MALLOC ? malloc(size) : map_aligned(XLS_ARENA_CHUNK);
	if (!c)
		return false;
	a->chunks[a->nchunks++] = c;
	a->used = PLAIN_MALLOC ? XLS_ARENA_CHUNK : 0;
	return true;
}

/* A piece of size class @cls given back earlier, or NULL. */
static void *arena_reuse(struct xls_arena *a, int cls)
{
	void *p;

	if (cls < 0 || !a->free_list[cls])
		return NULL;
	p = a->free_list[cls];
	memcpy(&a->free_list[cls], p, sizeof(void *));
	return p;
}

void *xls_arena_zalloc(struct xls_arena *a, size_t size)
{
	void *p = arena_reuse(a, size_class(size));

	if (p) {
		memset(p, 0, size);
		return p;
	}
	p = xls_arena_alloc(a, size);
	if (p && PLAIN_MALLOC)
		memset(p, 0, size);
	return p;
}

void *xls_arena_alloc(struct xls_arena *a, size_t size)
{
	void *p = arena_reuse(a, size_class(size));

	if (p)
		return p;
	size = round_up(size ? size : 1, 8);
	if (size > XLS_ARENA_CHUNK)
		return NULL;
	if ((!a->nchunks || a->used + size > XLS_ARENA_CHUNK) && !arena_new_chunk(a, size))
		return NULL;
	if (PLAIN_MALLOC)
		return a->chunks[a->nchunks - 1];	/* a piece of its own */
	p = a->chunks[a->nchunks - 1] + a->used;
	a->used += size;
	return p;
}

void xls_arena_put(struct xls_arena *a, void *p, size_t size)
{
	int cls = size_class(size);

	if (!p || cls < 0)
		return;
	memcpy(p, &a->free_list[cls], sizeof(void *));
	a->free_list[cls] = p;
}

void xls_arena_release(struct xls_arena *a)
{
	for (uint32_t i = 0; i < a->nchunks; i++) {
		if (PLAIN_MALLOC)
			free(a->chunks[i]);
		else
			munmap(a->chunks[i], XLS_ARENA_CHUNK);
	}
	free(a->chunks);
	memset(a, 0, sizeof(*a));
}
