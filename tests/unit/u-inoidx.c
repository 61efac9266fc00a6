/*
 * base/inoidx: puts (new inode numbers and overwrites) in random order,
 * checked against a plain array of what should be present -- inode
 * numbers below 2^32 by the thousand, and ones of 100 high parts, more
 * than the map has tables for, so that its spill-over map is used too;
 * low parts 0 and 0xffffffff among them.  Each shard at most 3/4 full,
 * 8 bytes a slot.
 */
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "base/inoidx.h"

#define NKEYS	30000u
#define NHIGH	100u	/* high parts of the keys past the first 20,000 */

struct model {
	uint64_t	key[NKEYS];
	uint32_t	v[NKEYS];
	bool		in[NKEYS];
};

/*
 * The first 20,000: runs of 64 in chunks far apart, below 2^32 (one
 * table), low part 0 first; then 10,000 over NHIGH high parts, low part
 * 0xffffffff among them.
 */
static void model_init(struct model *m)
{
	memset(m, 0, sizeof(*m));
	for (uint32_t i = 0; i < NKEYS; i++) {
		if (i < 20000)
			m->key[i] = ((uint64_t)(i / 64) << 20) | (i % 64);
		else
			m->key[i] = ((uint64_t)(1 + i % NHIGH) << 32) |
				    (i % 7 ? i * 2654435761u : 0xffffffffu - i / 700);
		m->v[i] = i * 7 + 1;
	}
}

static bool model_agrees(const struct xls_inoidx *h, const struct model *m)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < NKEYS; i++) {
		uint32_t v = xls_inoidx_find(h, m->key[i]);

		if (m->in[i] != (v != XLS_INOIDX_NONE) || (m->in[i] && v != m->v[i]))
			return false;
		n += m->in[i];
	}
	return n == xls_inoidx_count(h);
}

static bool tables_not_full(const struct xls_inoidx *h)
{
	for (uint32_t i = 0; i < h->ntab; i++)
		for (uint32_t j = 0; j < XLS_INOIDX_SHARDS; j++) {
			const struct xls_inoidx_shard *s = &h->tab[i].shard[j];

			if ((uint64_t)s->used * 4 >= (uint64_t)s->cap * 3)
				return false;
		}
	return true;
}

static void test_inoidx__random(struct tap *t)
{
	static struct model m;
	struct xls_inoidx h = XLS_INOIDX_INIT;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	bool put_ok = true, ok = true, full_ok = true;

	model_init(&m);
	for (uint32_t step = 0; step < 3 * NKEYS; step++) {
		uint32_t i = (uint32_t)(tap_rand(&seed) % NKEYS);

		/* a third of the puts overwrite a key that is there */
		if (m.in[i])
			m.v[i] = (uint32_t)(tap_rand(&seed) % XLS_INOIDX_NONE);
		put_ok &= xls_inoidx_put(&h, m.key[i], m.v[i]) == 0;
		m.in[i] = true;
		full_ok &= tables_not_full(&h);
		if (step % 997 == 0)
			ok &= model_agrees(&h, &m);
	}
	tap_ok(t, put_ok, "every put has room");
	tap_ok(t, ok && model_agrees(&h, &m), "puts and overwrites: finds agree with the model");
	tap_ok(t, full_ok, "no table ever 3/4 full");
	tap_ok(t, h.ntab == XLS_INOIDX_TABLES && xls_inomap_count(&h.more) > 0,
	       "past %u high parts, the spill-over map holds the rest (%u)",
	       XLS_INOIDX_TABLES, xls_inomap_count(&h.more));
	{
		struct xls_inoidx_pos pos = XLS_INOIDX_POS0;
		uint64_t ino, walked = 0;
		uint32_t v;
		bool walk_ok = true;

		/* each once, with its value: the model's keys are distinct */
		while (xls_inoidx_next(&h, &pos, &ino, &v)) {
			bool found = false;

			for (uint32_t i = 0; i < NKEYS && !found; i++)
				found = m.in[i] && m.key[i] == ino && m.v[i] == v;
			walk_ok &= found;
			walked++;
		}
		tap_ok(t, walk_ok && walked == xls_inoidx_count(&h),
		       "a walk gives each entry with its value, tables and spill-over (%llu)",
		       (unsigned long long)walked);
	}
	tap_ok(t, xls_inoidx_put(&h, 5ull << 40, XLS_INOIDX_NONE) != 0 &&
	       xls_inoidx_find(&h, 5ull << 40) == XLS_INOIDX_NONE, "the empty mark is refused as a value");
	xls_inoidx_free(&h);
	tap_ok(t, xls_inoidx_find(&h, m.key[1]) == XLS_INOIDX_NONE && xls_inoidx_count(&h) == 0,
	       "freed: empty, and usable again");
}

/* A million inode numbers of one high part: 8 bytes a slot, as said. */
static void test_inoidx__compact(struct tap *t)
{
	struct xls_inoidx h = XLS_INOIDX_INIT;
	bool ok = true;

	for (uint32_t i = 0; i < 1000000; i++)
		ok &= xls_inoidx_put(&h, 128 + (uint64_t)i, i) == 0;
	for (uint32_t i = 0; i < 1000000; i += 999)
		ok &= xls_inoidx_find(&h, 128 + (uint64_t)i) == i;
	tap_ok(t, ok && xls_inoidx_count(&h) == 1000000, "a million found");
	/*
	 * Grown by half again, every shard between half and 3/4 full once
	 * grown: 8 bytes a slot, at most 16 bytes an inode number.
	 */
	for (uint32_t i = 0; i < XLS_INOIDX_SHARDS; i++) {
		const struct xls_inoidx_shard *s = &h.tab[0].shard[i];

		ok &= (uint64_t)s->used * 2 >= s->cap && (uint64_t)s->used * 4 < (uint64_t)s->cap * 3;
	}
	tap_ok(t, ok && xls_inoidx_bytes(&h) <= 1000000ull * 16,
	       "every shard between half and 3/4 full, %llu bytes in all",
	       (unsigned long long)xls_inoidx_bytes(&h));
	tap_ok(t, h.tab[0].shard[0].used > 55000 && h.tab[0].shard[0].used < 70000,
	       "the shards share the inode numbers (%u in the first)", h.tab[0].shard[0].used);
	xls_inoidx_free(&h);
}

int main(void)
{
	struct tap t = { 0 };

	test_inoidx__random(&t);
	test_inoidx__compact(&t);
	return tap_done(&t);
}
