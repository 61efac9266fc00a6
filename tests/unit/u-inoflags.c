/*
 * base/inoflags: updates in random order (flags set and cleared, inodes
 * added again) checked against a plain array of what should be there --
 * dense runs of an inode chunk, single inodes far apart, inode numbers
 * past 2^32 and both ends of a group; the sorted walk against the model
 * sorted; and the size per inode the header promises for a dense log.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "base/inoflags.h"

#define NKEYS	20000u
#define ALL	((1u << XLS_INOFLAGS_BITS) - 1)

struct model {
	uint64_t	key[NKEYS];
	uint32_t	flags[NKEYS];
	bool		in[NKEYS];
};

/* Half in dense chunks, a quarter one per chunk, a quarter past 2^32. */
static void model_init(struct model *m)
{
	memset(m, 0, sizeof(*m));
	for (uint32_t i = 0; i < NKEYS; i++) {
		if (i < NKEYS / 2)
			m->key[i] = 4096 + i;
		else if (i < NKEYS * 3 / 4)
			m->key[i] = (uint64_t)i << 12 | (i % 2 ? 63 : 0);
		else
			m->key[i] = (uint64_t)(i % 37 + 1) << 36 | (uint64_t)i * 131;
	}
}

static bool model_agrees(const struct xls_inoflags *s, const struct model *m)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < NKEYS; i++) {
		uint32_t f = 0xdead;
		bool in = xls_inoflags_get(s, m->key[i], &f);

		if (in != m->in[i] || (in && f != m->flags[i]))
			return false;
		n += m->in[i];
	}
	return n == xls_inoflags_count(s);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void test_inoflags__random(struct tap *t)
{
	static struct model m;
	static uint64_t want[NKEYS], got[NKEYS];
	struct xls_inoflags s = XLS_INOFLAGS_INIT;
	uint64_t seed = 0x243f6a8885a308d3ull;
	uint32_t nwant = 0;
	bool put_ok = true, ok = true;

	model_init(&m);
	for (uint32_t step = 0; step < 3 * NKEYS; step++) {
		uint32_t i = (uint32_t)(tap_rand(&seed) % NKEYS);
		uint32_t clear = (uint32_t)tap_rand(&seed) & ALL, set = (uint32_t)tap_rand(&seed) & ALL;

		/* a few without flags: in the set all the same */
		if (step % 11 == 0)
			set = 0;
		put_ok &= xls_inoflags_update(&s, m.key[i], clear, set) == 0;
		m.flags[i] = m.in[i] ? (m.flags[i] & ~clear) | set : set;
		m.in[i] = true;
		if (step % 997 == 0)
			ok &= model_agrees(&s, &m);
	}
	tap_ok(t, put_ok, "every update has room");
	tap_ok(t, ok && model_agrees(&s, &m), "flags set and cleared agree with the model");
	tap_ok(t, !xls_inoflags_get(&s, 4095, NULL) && !xls_inoflags_get(&s, 1ull << 40, NULL),
	       "an inode never added is not in the set, though its group may be");
	for (uint32_t i = 0; i < NKEYS; i++)
		if (m.in[i])
			want[nwant++] = m.key[i];
	qsort(want, nwant, sizeof(*want), cmp_u64);
	tap_ok(t, xls_inoflags_sorted(&s, got) == 0 && nwant == xls_inoflags_count(&s) &&
	       !memcmp(got, want, sizeof(*want) * nwant),
	       "the sorted walk gives each inode once, in order (%u)", nwant);
	xls_inoflags_free(&s);
	tap_ok(t, !xls_inoflags_get(&s, m.key[0], NULL) && xls_inoflags_count(&s) == 0 &&
	       xls_inoflags_update(&s, m.key[0], 0, 1) == 0 && xls_inoflags_count(&s) == 1,
	       "freed: empty, and usable again");
	xls_inoflags_free(&s);
}

/* A million inodes in whole chunks: about a byte each, not xls_inoidx's 13. */
static void test_inoflags__dense(struct tap *t)
{
	struct xls_inoflags s = XLS_INOFLAGS_INIT;
	uint64_t bytes;
	bool ok = true;

	for (uint32_t i = 0; i < 1000000; i++)
		ok &= xls_inoflags_update(&s, 128 + (uint64_t)i, 0, i % 3 ? 1 : 2) == 0;
	bytes = (uint64_t)s.cap * sizeof(*s.group) + (uint64_t)s.idx.cap * sizeof(*s.idx.slot);
	tap_ok(t, ok && xls_inoflags_count(&s) == 1000000 && s.n == (128 + 999999) / 64 - 128 / 64 + 1,
	       "a million inodes in %u groups", s.n);
	tap_ok(t, bytes < 2000000, "%llu bytes in all", (unsigned long long)bytes);
	xls_inoflags_free(&s);
}

int main(void)
{
	struct tap t = { 0 };

	test_inoflags__random(&t);
	test_inoflags__dense(&t);
	return tap_done(&t);
}
