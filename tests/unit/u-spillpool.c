/*
 * base/spillpool: adds of every length from 0 to past a page, many
 * megabytes of them under a bound of 1 MiB, so that most pages go to the
 * file; each add found again by its offset, byte for byte, read forwards,
 * backwards and at random (every frame reused); changes written into
 * pages in memory and in the file read back; memory never past the bound
 * and the frames; an emptied pool used again.  Each add's bytes are a
 * pattern of its number and position, so a lost, shifted or misplaced
 * byte shows.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "base/spillpool.h"

#define NADDS	6000u
#define BOUND	(1u << 20)

static uint8_t pattern(uint32_t n, uint32_t i)
{
	return (uint8_t)((n * 2654435761u + i * 40503u) >> 11);
}

static uint32_t length_of(uint32_t n)
{
	if (n % 977 == 0)
		return XLS_SPILLPOOL_PAGE + 4096;	/* an add past a page */
	if (n % 89 == 0)
		return 0;
	return (n * 7919u) % 3000u;
}

static bool add(struct xls_spillpool *sp, uint32_t n, uint32_t *off)
{
	static uint8_t buf[XLS_SPILLPOOL_PAGE + 4096];
	uint32_t len = length_of(n);
	uint8_t *at;

	for (uint32_t i = 0; i < len; i++)
		buf[i] = pattern(n, i);
	at = xls_spillpool_add(sp, buf, len, off);
	return at && memcmp(at, buf, len) == 0;
}

static bool is(struct xls_spillpool *sp, uint32_t n, uint32_t off)
{
	uint32_t len = length_of(n);
	const uint8_t *p = xls_spillpool_at(sp, off, len);

	if (!p)
		return false;
	for (uint32_t i = 0; i < len; i++)
		if (p[i] != pattern(n, i))
			return false;
	return true;
}

static void test_spillpool__found(struct tap *t)
{
	static uint32_t off[NADDS];
	struct xls_spillpool sp;
	uint64_t seed = 12345;
	bool add_ok = true, fwd = true, back = true, rnd = true, mem_ok = true;

	xls_spillpool_init(&sp, BOUND);
	for (uint32_t n = 0; n < NADDS; n++) {
		add_ok &= add(&sp, n, &off[n]);
		mem_ok &= sp.mem <= BOUND + XLS_SPILLPOOL_PAGE + 4096;
	}
	tap_ok(t, add_ok, "%u adds, %u bytes", NADDS, sp.used);
	tap_ok(t, sp.spilled > sp.used / 2, "most went to the file (%llu bytes)",
	       (unsigned long long)sp.spilled);
	for (uint32_t n = 0; n < NADDS; n++)
		fwd &= is(&sp, n, off[n]);
	for (uint32_t n = NADDS; n-- > 0;)
		back &= is(&sp, n, off[n]);
	for (uint32_t k = 0; k < 3 * NADDS; k++) {
		uint32_t n = (uint32_t)(tap_rand(&seed) % NADDS);

		rnd &= is(&sp, n, off[n]);
	}
	tap_ok(t, fwd && back && rnd, "each add found again: forwards, backwards, at random");
	tap_ok(t, mem_ok && xls_spillpool_mem(&sp) <=
	       BOUND + XLS_SPILLPOOL_PAGE + 4096 + XLS_SPILLPOOL_FRAMES * (XLS_SPILLPOOL_PAGE + 4096),
	       "memory within the bound, a page and the frames (%llu bytes)",
	       (unsigned long long)xls_spillpool_mem(&sp));
	tap_ok(t, !xls_spillpool_at(&sp, sp.used + 1, 0) && !xls_spillpool_at(&sp, off[1], sp.used),
	       "past the end: NULL");

	/* a change in a page of the file and one in memory */
	{
		uint8_t x[16];
		const uint8_t *p;

		memset(x, 0xa5, sizeof(x));
		p = xls_spillpool_write(&sp, off[3] + 1, x, sizeof(x)) ?
		    xls_spillpool_at(&sp, off[3], length_of(3)) : NULL;
		tap_ok(t, p && memcmp(p + 1, x, sizeof(x)) == 0 && p[0] == pattern(3, 0) &&
		       p[17] == pattern(3, 17), "a change written into the file is read back");
		p = xls_spillpool_write(&sp, off[NADDS - 2], x, 4) ?
		    xls_spillpool_at(&sp, off[NADDS - 2], 4) : NULL;
		tap_ok(t, p && memcmp(p, x, 4) == 0, "a change in memory too");
	}
	xls_spillpool_reset(&sp);
	tap_ok(t, sp.used == 0 && add(&sp, 7, &off[0]) && off[0] == 0 && is(&sp, 7, 0),
	       "emptied, and used again from offset 0");
	xls_spillpool_free(&sp);
}

int main(void)
{
	struct tap t = { 0 };

	test_spillpool__found(&t);
	return tap_done(&t);
}
