/*
 * base/inomap: puts (new keys and overwrites) in random order, key 0
 * among them, checked against a plain array of what should be present;
 * every entry walked once; and the table at most 3/4 full as it grows.
 */
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "base/inomap.h"

#define NKEYS	20000u

struct model {
	uint64_t	key[NKEYS];
	uint64_t	v[NKEYS];
	bool		in[NKEYS];
};

/*
 * Inode numbers as a log names them: runs of 64 in a chunk, chunks far
 * apart; key 0 too, and values with their high bits set.
 */
static void model_init(struct model *m)
{
	memset(m, 0, sizeof(*m));
	for (uint32_t i = 0; i < NKEYS; i++) {
		m->key[i] = i ? ((uint64_t)(i / 64) << 24) | (i % 64) : 0;
		m->v[i] = ((uint64_t)i << 40) | (i * 7 + 1);
	}
}

static bool model_agrees(const struct xls_inomap *h, const struct model *m)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < NKEYS; i++) {
		const uint64_t *v = xls_inomap_find(h, m->key[i]);

		if (m->in[i] != (v != NULL) || (v && *v != m->v[i]))
			return false;
		n += m->in[i];
	}
	return n == xls_inomap_count(h);
}

static void test_inomap__random(struct tap *t)
{
	static struct model m;
	struct xls_inomap h = XLS_INOMAP_INIT;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	bool put_ok = true, ok = true, full_ok = true;

	model_init(&m);
	for (uint32_t step = 0; step < 3 * NKEYS; step++) {
		uint32_t i = (uint32_t)(tap_rand(&seed) % NKEYS);

		/* a third of the puts overwrite a key that is there */
		if (m.in[i])
			m.v[i] ^= tap_rand(&seed);
		put_ok &= xls_inomap_put(&h, m.key[i], m.v[i]) == 0;
		m.in[i] = true;
		full_ok &= (uint64_t)h.used * 4 < (uint64_t)h.cap * 3;
		if (step % 997 == 0)
			ok &= model_agrees(&h, &m);
	}
	tap_ok(t, put_ok, "every put has room");
	tap_ok(t, ok && model_agrees(&h, &m), "puts and overwrites: finds agree with the model");
	tap_ok(t, full_ok, "never 3/4 full");
	tap_ok(t, m.in[0] && xls_inomap_find(&h, 0) && *xls_inomap_find(&h, 0) == m.v[0],
	       "key 0 is kept, beside the slots");
	xls_inomap_free(&h);
	tap_ok(t, !xls_inomap_find(&h, m.key[1]) && !xls_inomap_find(&h, 0) &&
	       xls_inomap_count(&h) == 0, "freed: empty, and usable again");
}

static void test_inomap__walk(struct tap *t)
{
	static struct model m;
	static bool seen[NKEYS];
	struct xls_inomap h = XLS_INOMAP_INIT;
	uint32_t pos = 0, n = 0;
	uint64_t key, v;
	bool ok = true;

	model_init(&m);
	for (uint32_t i = 0; i < NKEYS; i += 3) {
		ok &= xls_inomap_put(&h, m.key[i], m.v[i]) == 0;
		m.in[i] = true;
	}
	memset(seen, 0, sizeof(seen));
	while (xls_inomap_next(&h, &pos, &key, &v)) {
		uint32_t i = key ? (uint32_t)(key >> 24) * 64 + (uint32_t)(key & 63) : 0;

		ok &= i < NKEYS && m.in[i] && !seen[i] && m.v[i] == v;
		if (i < NKEYS)
			seen[i] = true;
		n++;
	}
	tap_ok(t, ok && n == xls_inomap_count(&h) && n == (NKEYS + 2) / 3,
	       "a walk gives each entry once, key 0 among them (%u of %u)", n,
	       xls_inomap_count(&h));
	xls_inomap_free(&h);
}

int main(void)
{
	struct tap t = { 0 };

	test_inomap__random(&t);
	test_inomap__walk(&t);
	return tap_done(&t);
}
