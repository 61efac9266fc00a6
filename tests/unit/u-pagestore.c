/*
 * base/pagestore: records written and read back in random order through a
 * cache of a few pages (pages evicted, written out, read back), against a
 * plain array; a new record reads as zeros; a pinned record keeps its
 * address and bytes while thousands of others come and go; with every
 * page in the cache, no file is made; with every slot pinned, a clear
 * failure.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "base/pagestore.h"

#define NREC	50000u
#define RSIZE	24u

static void pattern(uint8_t *p, uint32_t idx, uint32_t gen)
{
	for (uint32_t i = 0; i < RSIZE; i++)
		p[i] = (uint8_t)(idx * 7 + gen * 13 + i);
}

static void test_pagestore__random(struct tap *t)
{
	static uint32_t gen[NREC];	/* 0: never written */
	struct xls_pagestore s;
	uint64_t seed = 0x13198a2e03707344ull;
	uint8_t want[RSIZE], zero[RSIZE] = { 0 };
	bool ok = true;

	tap_ok(t, xls_pagestore_init(&s, RSIZE, 4ull * RSIZE * 128) == 0 && s.nslots == 4,
	       "a cache of four pages");
	for (uint32_t step = 0; step < 4 * NREC && ok; step++) {
		uint32_t idx = (uint32_t)(tap_rand(&seed) % NREC);
		uint8_t *p = xls_pagestore_at(&s, idx);

		if (!p) {
			ok = false;
			break;
		}
		if (gen[idx])
			pattern(want, idx, gen[idx]);
		ok = !memcmp(p, gen[idx] ? want : zero, RSIZE);
		if (step % 3 == 0)
			pattern(p, idx, gen[idx] = step + 1);
	}
	tap_ok(t, ok && !s.error, "random reads and writes agree with the model");
	tap_ok(t, s.fd >= 0 && s.reads > 1000 && s.writes > 1000,
	       "pages went out and came back (%llu written, %llu read)",
	       (unsigned long long)s.writes, (unsigned long long)s.reads);
	{
		uint8_t *held = xls_pagestore_pin(&s, 12345), copy[RSIZE];
		bool same = held != NULL;

		if (held) {
			pattern(held, 12345, gen[12345] = 999999);
			memcpy(copy, held, RSIZE);
		}
		for (uint32_t i = 0; i < 5000 && same; i++)
			same = xls_pagestore_at(&s, (i * 131) % NREC) != NULL;
		same = same && !memcmp(held, copy, RSIZE) && xls_pagestore_at(&s, 12345) == held;
		xls_pagestore_unpin(&s, 12345);
		tap_ok(t, same, "a pinned record stays where it is while others come and go");
	}
	{
		bool pinned = true;

		for (uint32_t i = 0; i < s.nslots; i++)
			pinned &= xls_pagestore_pin(&s, i << XLS_PAGESTORE_PAGE_SHIFT) != NULL;
		tap_ok(t, pinned && !xls_pagestore_at(&s, NREC - 1) && s.error,
		       "every slot pinned: a new page is refused, and said");
	}
	xls_pagestore_free(&s);
}

static void test_pagestore__fits(struct tap *t)
{
	struct xls_pagestore s;
	bool ok = xls_pagestore_init(&s, 96, 1u << 20) == 0;

	for (uint32_t i = 0; i < 5000 && ok; i++) {
		uint32_t *p = xls_pagestore_at(&s, i);

		ok = p && (*p = i + 1);
	}
	for (uint32_t i = 0; i < 5000 && ok; i++)
		ok = *(uint32_t *)xls_pagestore_at(&s, i) == i + 1;
	tap_ok(t, ok && s.fd < 0 && !s.writes, "all in the cache: no file made");
	xls_pagestore_free(&s);
}

int main(void)
{
	struct tap t = { 0 };

	test_pagestore__random(&t);
	test_pagestore__fits(&t);
	return tap_done(&t);
}
