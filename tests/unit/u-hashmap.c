/*
 * base/hashmap: puts, finds and deletes in random order checked against a
 * plain array of the keys that should be present, including keys that
 * collide in the hash and the churn of the open-transaction table (one
 * entry added, one removed); and that deletes clear the tombstones that
 * end no probe, so that such churn does not fill the table with them.
 */
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "base/hashmap.h"

#define NKEYS	4096u

struct model {
	uint64_t	a[NKEYS], b[NKEYS];
	uint32_t	v[NKEYS];
	bool		in[NKEYS];
};

/* Keys with few distinct bits, as daddrs and tids are, and some equal a. */
static void model_init(struct model *m)
{
	memset(m, 0, sizeof(*m));
	for (uint32_t i = 0; i < NKEYS; i++) {
		m->a[i] = (uint64_t)(i / 4) * 8;
		m->b[i] = i % 4;
		m->v[i] = i * 7 + 1;
	}
}

static bool model_agrees(const struct xls_hashmap *h, const struct model *m)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < NKEYS; i++) {
		const uint32_t *v = xls_hashmap_find(h, m->a[i], m->b[i]);

		if (m->in[i] != (v != NULL) || (v && *v != m->v[i]))
			return false;
		n += m->in[i];
	}
	return n == h->used;
}

static void test_hashmap__random(struct tap *t)
{
	static struct model m;
	struct xls_hashmap h = XLS_HASHMAP_INIT;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	bool ok = true, put_ok = true;

	model_init(&m);
	for (uint32_t step = 0; step < 200000 && ok; step++) {
		uint32_t i = (uint32_t)(tap_rand(&seed) % NKEYS);

		if (m.in[i]) {
			xls_hashmap_del(&h, m.a[i], m.b[i]);
			m.in[i] = false;
		} else {
			put_ok &= xls_hashmap_put(&h, m.a[i], m.b[i], m.v[i]) == 0;
			m.in[i] = true;
		}
		if (step % 997 == 0)
			ok = model_agrees(&h, &m);
	}
	tap_ok(t, put_ok, "every put has room");
	tap_ok(t, ok && model_agrees(&h, &m),
	       "random puts and deletes: the map holds exactly the model's keys");
	tap_ok(t, h.used + h.dead <= h.cap / 4 * 3, "never more than 3/4 full, tombstones counted");
	xls_hashmap_free(&h);
}

/* One in, one out, a few open at a time: the open transactions. */
static void test_hashmap__churn(struct tap *t)
{
	struct xls_hashmap h = XLS_HASHMAP_INIT;
	uint32_t most_dead = 0;
	bool ok = true;

	for (uint64_t tid = 1; tid <= 100000 && ok; tid++) {
		ok = xls_hashmap_put(&h, tid * 0x1000193, tid, (uint32_t)tid) == 0;
		if (tid > 3) {
			uint64_t old = tid - 3;

			xls_hashmap_del(&h, old * 0x1000193, old);
			ok &= xls_hashmap_find(&h, old * 0x1000193, old) == NULL;
		}
		for (uint64_t live = tid > 2 ? tid - 2 : 1; live <= tid && ok; live++) {
			const uint32_t *v = xls_hashmap_find(&h, live * 0x1000193, live);

			ok = v && *v == (uint32_t)live;
		}
		if (h.dead > most_dead)
			most_dead = h.dead;
	}
	tap_ok(t, ok, "churn of three open keys: each found until deleted, none after");
	tap_ok(t, h.used == 3 && h.cap == 64, "churn: three live, the table never grew (cap %u)",
	       h.cap);
	/* without the clearing, tombstones pile up to 3/4 of the slots */
	tap_ok(t, most_dead <= 8, "churn: at most 8 tombstones at a time (saw %u)", most_dead);
	xls_hashmap_free(&h);
}

/* A run of colliding keys deleted from the middle: the rest still found. */
static void test_hashmap__collisions(struct tap *t)
{
	struct xls_hashmap h = XLS_HASHMAP_INIT;
	uint32_t want = xls_hashmap_hash(1, 0, 64 - 6), n = 0;
	uint64_t keys[16];
	bool ok = true;

	/* keys that hash to the same slot of the 64-slot table */
	for (uint64_t a = 1; n < 16 && a < 10000000; a++)
		if (xls_hashmap_hash(a, 0, 64 - 6) == want)
			keys[n++] = a;
	for (uint32_t i = 0; i < n; i++)
		ok &= xls_hashmap_put(&h, keys[i], 0, i) == 0;
	ok &= h.cap == 64;
	for (uint32_t i = 0; i < n; i += 2)
		xls_hashmap_del(&h, keys[i], 0);
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t *v = xls_hashmap_find(&h, keys[i], 0);

		ok &= i % 2 ? v && *v == i : v == NULL;
	}
	tap_ok(t, n == 16 && ok, "16 keys of one slot, every other deleted: the others found");
	for (uint32_t i = 1; i < n; i += 2)
		xls_hashmap_del(&h, keys[i], 0);
	tap_ok(t, h.used == 0 && h.dead == 0, "all deleted: no tombstone left (%u)", h.dead);
	xls_hashmap_free(&h);
}

int main(void)
{
	struct tap t = { 0 };

	test_hashmap__random(&t);
	test_hashmap__churn(&t);
	test_hashmap__collisions(&t);
	return tap_done(&t);
}
