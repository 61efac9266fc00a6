/*
 * base/bigmem: arrays that grow from malloc into mappings and keep every
 * byte on the way, and an arena whose pieces stay put and are reused by
 * size class.  Contents are checked against a pattern that depends on the
 * position, so that a copy or a page move that lost or shifted bytes shows.
 */
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "base/bigmem.h"
#include "base/vec.h"

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 2654435761u >> 13);
}

static void fill(uint8_t *p, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		p[i] = pattern(i);
}

static bool intact(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != pattern(i))
			return false;
	return true;
}

/* 4 KiB doubling to 32 MiB: malloc, then a mapping, then mapping moves. */
static void test_bigmem__grow(struct tap *t)
{
	uint8_t *p = NULL;
	size_t have = 0;
	bool ok = true, aligned = true;

	for (size_t size = 4096; size <= (32u << 20); size *= 2) {
		uint8_t *n = xls_big_realloc(p, size);

		if (!n) {
			ok = false;
			break;
		}
		p = n;
		aligned &= ((uintptr_t)p & 63) == 0;
		ok &= intact(p, have);
		fill(p, have, size);
		have = size;
	}
	tap_ok(t, ok && intact(p, have), "grown from 4 KiB to 32 MiB, past XLS_BIG_MIN, every byte kept");
	tap_ok(t, aligned, "64-byte aligned at every size");
	p = xls_big_realloc(p, 1000);
	tap_ok(t, p && intact(p, 1000), "shrinking keeps the front");
	xls_big_free(p);
	xls_big_free(NULL);
}

static void test_bigmem__zalloc(struct tap *t)
{
	size_t sizes[] = { 1, 4096, XLS_BIG_MIN - 1, XLS_BIG_MIN, 3u << 20 };
	bool ok = true;

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint8_t *p = xls_big_zalloc(sizes[k]);

		if (!p) {
			ok = false;
			continue;
		}
		for (size_t i = 0; i < sizes[k]; i++)
			ok &= p[i] == 0;
		xls_big_free(p);
	}
	tap_ok(t, ok, "zalloc gives zeros on both sides of XLS_BIG_MIN");
}

/* A vec grown one element at a time, as the semantics stage grows its. */
static void test_bigmem__vec(struct tap *t)
{
	uint64_t *v = NULL;
	uint32_t n = 0, cap = 0;
	bool ok = true;

	for (uint32_t i = 0; i < 300000 && ok; i++) {
		ok = xls_vec_grow((void **)&v, n, &cap, sizeof(*v));
		if (ok)
			v[n++] = (uint64_t)i * 0x9e3779b97f4a7c15ull;
	}
	for (uint32_t i = 0; i < n && ok; i++)
		ok = v[i] == (uint64_t)i * 0x9e3779b97f4a7c15ull;
	tap_ok(t, ok && n == 300000, "a vec of 300,000 words (2.3 MiB) kept every element");
	xls_vec_free(v);
}

static void test_bigmem__arena(struct tap *t)
{
	struct xls_arena a = { 0 };
	uint8_t *first[64], *again;
	bool ok = true, apart = true;

	for (int i = 0; i < 64; i++) {
		first[i] = xls_arena_alloc(&a, 4096);
		ok &= first[i] != NULL && ((uintptr_t)first[i] & 7) == 0;
		if (first[i])
			memset(first[i], i, 4096);
	}
	for (int i = 0; i < 64 && ok; i++)
		for (int j = 0; j < 4096; j++)
			apart &= first[i][j] == (uint8_t)i;
	tap_ok(t, ok && apart, "64 pieces of 4 KiB, 8-aligned, none overlapping");
	xls_arena_put(&a, first[10], 4096);
	again = xls_arena_alloc(&a, 4096);
	tap_ok(t, again == first[10], "a piece given back is the next of its size class");
	again = xls_arena_alloc(&a, 8192);
	tap_ok(t, again && again != first[10], "another size class does not take it");
	xls_arena_put(&a, first[20], 4096);
	again = xls_arena_zalloc(&a, 4096);
	ok = again == first[20];
	for (int j = 0; ok && j < 4096; j++)
		ok = again[j] == 0;
	again = xls_arena_zalloc(&a, 4096);
	for (int j = 0; again && ok && j < 4096; j++)
		ok = again[j] == 0;
	tap_ok(t, ok && again, "zalloc: a reused piece and a new one are zero");
	ok = true;
	/* more than a chunk in all: a second chunk, the first still valid */
	for (int i = 0; i < 2000 && ok; i++)
		ok = xls_arena_alloc(&a, 4096) != NULL;
	tap_ok(t, ok && a.nchunks >= 2 && first[63][4095] == 63,
	       "past one chunk: a new chunk, earlier pieces untouched");
	tap_ok(t, xls_arena_alloc(&a, XLS_ARENA_CHUNK + 1) == NULL,
	       "a piece larger than a chunk is refused");
	xls_arena_release(&a);
	tap_ok(t, a.nchunks == 0 && a.chunks == NULL, "release leaves an empty arena");
}

int main(void)
{
	struct tap t = { 0 };

	test_bigmem__grow(&t);
	test_bigmem__zalloc(&t);
	test_bigmem__vec(&t);
	test_bigmem__arena(&t);
	return tap_done(&t);
}
