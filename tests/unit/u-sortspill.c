/*
 * base/sortspill: records of random keys (many alike) and lengths (0 to
 * the largest) added, read back merged, checked against the model sorted
 * stably by key -- with every record in memory, with batches small
 * enough for dozens of runs in the file, and for hundreds (merged into
 * one each XLS_SORTSPILL_RUNS); read twice (rewound), peeked, and a record
 * too long refused.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "base/sortspill.h"

#define NREC	20000u

struct rec {
	uint64_t	key;
	uint32_t	seq, len;
};

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Record @seq's bytes: its number, then a pattern of it, @len bytes in all. */
static void fill_bytes(uint8_t *p, uint32_t seq, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i < 4 ? seq >> (8 * i) : seq * 31 + i);
}

/* Read all back: in the model's order, each with its bytes? */
static bool reads_back(struct xls_sortspill *s, const struct rec *want, uint32_t n)
{
	uint8_t expect[XLS_SORTSPILL_REC_MAX];
	uint32_t i = 0, len;
	uint64_t key, peeked;
	const uint8_t *p;
	bool ok = xls_sortspill_rewind(s) == 0;

	while (ok && xls_sortspill_peek(s, &peeked) && (p = xls_sortspill_next(s, &key, &len))) {
		ok = i < n && key == peeked && key == want[i].key && len == want[i].len;
		if (ok) {
			fill_bytes(expect, want[i].seq, len);
			ok = !memcmp(p, expect, len);
		}
		i++;
	}
	return ok && i == n && !s->error;
}

static void run(struct tap *t, uint32_t batch_bytes, const char *what)
{
	static struct rec model[NREC];
	static uint8_t bytes[XLS_SORTSPILL_REC_MAX];
	struct xls_sortspill s;
	uint64_t seed = 0x452821e638d01377ull;
	bool add_ok = true;

	xls_sortspill_init(&s, batch_bytes);
	for (uint32_t i = 0; i < NREC; i++) {
		uint32_t r = (uint32_t)tap_rand(&seed);

		model[i].key = r % 7 ? tap_rand(&seed) % 3000 : (uint64_t)r << 32;
		model[i].seq = i;
		model[i].len = i % 500 == 0 ? XLS_SORTSPILL_REC_MAX : r % 40;
		fill_bytes(bytes, i, model[i].len);
		add_ok &= xls_sortspill_add(&s, model[i].key, bytes, model[i].len) == 0;
	}
	qsort(model, NREC, sizeof(*model), cmp_rec);
	tap_ok(t, add_ok && s.nrun < XLS_SORTSPILL_RUNS && s.count == NREC,
	       "%s: every record added (%u runs in the file)", what, s.nrun);
	tap_ok(t, reads_back(&s, model, NREC), "%s: read back by key, alike keys as added", what);
	tap_ok(t, reads_back(&s, model, NREC), "%s: rewound, the same again", what);
	tap_ok(t, xls_sortspill_add(&s, 1, bytes, 1) == -EINVAL,
	       "%s: no record added once reading", what);
	xls_sortspill_free(&s);
}

int main(void)
{
	struct tap t = { 0 };
	struct xls_sortspill s;
	uint8_t big[XLS_SORTSPILL_REC_MAX + 1] = { 0 };
	uint64_t key;
	uint32_t len;

	run(&t, 64u << 20, "in memory");
	run(&t, 16u << 10, "in runs");
	run(&t, 2u << 10, "runs merged");
	xls_sortspill_init(&s, 1u << 20);
	tap_ok(&t, xls_sortspill_add(&s, 1, big, sizeof(big)) == -E2BIG, "a record too long is refused");
	xls_sortspill_free(&s);
	xls_sortspill_init(&s, 1u << 20);
	tap_ok(&t, xls_sortspill_rewind(&s) == 0 && !xls_sortspill_peek(&s, &key) &&
	       !xls_sortspill_next(&s, &key, &len), "empty: nothing to read");
	xls_sortspill_free(&s);
	return tap_done(&t);
}
