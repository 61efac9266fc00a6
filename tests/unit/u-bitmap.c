/*
 * Word-at-a-time bitmap scans against bit-at-a-time references, on random
 * maps and on the patterns where word-level code usually goes wrong: word
 * boundaries, the last bit of the map, all-ones words, starts past the end.
 */
#include <limits.h>
#include <string.h>

#include "tap.h"
#include "base/bitmap.h"

#define U_SEED		0x2545f4914f6cdd1dull
#define U_MAX_WORDS	17u
#define U_RANDOM_MAPS	100000u
#define U_PAST_END	40u
#define U_MAX_DIAG	5u

struct u_stats {
	unsigned long	maps;
	unsigned long	cmps;
	unsigned int	bad_next;
	unsigned int	bad_contig;
	unsigned int	bad_pop;
};

struct u_totals {
	unsigned long	maps;
	unsigned long	cmps;
};

/*
 * ---- bit-at-a-time reference: the only place bits are walked singly ----
 *
 * Answers for every start position of one map, filled in one backward walk
 * over the bits from these recurrences, which are the definitions:
 *   next[i]   = i if bit i is set, else next[i + 1]; next[nbits] = -1
 *   contig[i] = contig[i + 1] + 1 if bit i is set, else 0; contig[nbits] = 0
 *   pop[n]    = pop[n - 1] + bit n - 1; pop[0] = 0
 * Asking a naive scan for each start instead costs O(bits^2) per map, too
 * slow for 100,000 maps in a unit test.
 */
#define U_MAX_BITS	(U_MAX_WORDS * 32)

struct u_ref {
	unsigned int	nbits;
	int		next[U_MAX_BITS + 1];
	unsigned int	contig[U_MAX_BITS + 1];
	unsigned int	pop[U_MAX_BITS + 1];
};

static bool
u_ref_bit(const uint32_t *map, unsigned int i)
{
	return (map[i / 32] >> (i % 32)) & 1;
}

static void
u_ref_build(struct u_ref *r, const uint32_t *map, unsigned int words)
{
	unsigned int nbits = words * 32;

	r->nbits = nbits;
	r->next[nbits] = -1;
	r->contig[nbits] = 0;
	for (unsigned int i = nbits; i-- > 0;) {
		bool set = u_ref_bit(map, i);

		r->next[i] = set ? (int)i : r->next[i + 1];
		r->contig[i] = set ? r->contig[i + 1] + 1 : 0;
	}
	r->pop[0] = 0;
	for (unsigned int n = 1; n <= nbits; n++)
		r->pop[n] = r->pop[n - 1] + u_ref_bit(map, n - 1);
}

static int
u_ref_next_bit(const struct u_ref *r, unsigned int start)
{
	return start < r->nbits ? r->next[start] : -1;
}

static unsigned int
u_ref_contig_bits(const struct u_ref *r, unsigned int start)
{
	return start < r->nbits ? r->contig[start] : 0;
}

static unsigned int
u_ref_popcount_bits(const struct u_ref *r, unsigned int nbits)
{
	return r->pop[nbits < r->nbits ? nbits : r->nbits];
}

/* ---- map construction ---- */

static void
u_set_bit(uint32_t *map, unsigned int i)
{
	map[i / 32] |= UINT32_C(1) << (i % 32);
}

static void
u_set_run(uint32_t *map, unsigned int first, unsigned int len)
{
	for (unsigned int i = first; i < first + len; i++)
		u_set_bit(map, i);
}

/* Each bit set with probability k/64, k drawn per map: 0 to all ones. */
static void
u_random_density(uint32_t *map, unsigned int words, uint64_t *rng)
{
	uint64_t k = tap_rand(rng) % 65;

	for (unsigned int i = 0; i < words * 32; i++)
		if (tap_rand(rng) % 64 < k)
			u_set_bit(map, i);
}

/* Alternating clear and set runs of random length, often whole words. */
static void
u_random_runs(uint32_t *map, unsigned int words, uint64_t *rng)
{
	unsigned int nbits = words * 32;
	unsigned int i = 0;
	bool set = tap_rand(rng) & 1;

	while (i < nbits) {
		unsigned int len = 1 + (unsigned int)(tap_rand(rng) % 96);

		if (len > nbits - i)
			len = nbits - i;
		if (set)
			u_set_run(map, i, len);
		i += len;
		set = !set;
	}
}

/* ---- checking ---- */

static void
u_check_next(const uint32_t *map, unsigned int words, unsigned int start,
	     const struct u_ref *r, struct u_stats *s)
{
	int got = xls_next_bit(map, words, start);
	int want = u_ref_next_bit(r, start);

	s->cmps++;
	if (got != want && s->bad_next++ < U_MAX_DIAG)
		tap_diag("next_bit(words %u, start %u) = %d, want %d",
			 words, start, got, want);
}

static void
u_check_contig(const uint32_t *map, unsigned int words, unsigned int start,
	       const struct u_ref *r, struct u_stats *s)
{
	unsigned int got = xls_contig_bits(map, words, start);
	unsigned int want = u_ref_contig_bits(r, start);

	s->cmps++;
	if (got != want && s->bad_contig++ < U_MAX_DIAG)
		tap_diag("contig_bits(words %u, start %u) = %u, want %u",
			 words, start, got, want);
}

static void
u_check_pop(const uint32_t *map, unsigned int words, unsigned int nbits,
	    const struct u_ref *r, struct u_stats *s)
{
	unsigned int got = xls_popcount_bits(map, words, nbits);
	unsigned int want = u_ref_popcount_bits(r, nbits);

	s->cmps++;
	if (got != want && s->bad_pop++ < U_MAX_DIAG)
		tap_diag("popcount_bits(words %u, nbits %u) = %u, want %u",
			 words, nbits, got, want);
}

/*
 * Every start and every nbits up to 40 bits past the end, plus values whose
 * word index would overflow a naive words * 32 bound.  The map is checked
 * from a copy followed by all-ones words, so reading past map_words shows
 * up as a wrong answer even without a sanitizer.
 */
static void
u_check_map(const uint32_t *orig, unsigned int words, struct u_stats *s)
{
	const unsigned int far[] = { UINT_MAX, UINT_MAX - 31, INT_MAX,
				     (unsigned int)INT_MAX + 1 };
	unsigned int nbits = words * 32;
	uint32_t map[U_MAX_WORDS + 2];
	struct u_ref r;

	memcpy(map, orig, words * sizeof(map[0]));
	for (unsigned int w = words; w < U_MAX_WORDS + 2; w++)
		map[w] = 0xffffffffu;
	u_ref_build(&r, map, words);
	s->maps++;
	for (unsigned int i = 0; i <= nbits + U_PAST_END; i++) {
		u_check_next(map, words, i, &r, s);
		u_check_contig(map, words, i, &r, s);
		u_check_pop(map, words, i, &r, s);
	}
	for (size_t i = 0; i < sizeof(far) / sizeof(far[0]); i++) {
		u_check_next(map, words, far[i], &r, s);
		u_check_contig(map, words, far[i], &r, s);
		u_check_pop(map, words, far[i], &r, s);
	}
}

static void
u_report(struct tap *t, const char *what, const struct u_stats *s,
	 struct u_totals *tot)
{
	tap_ok(t, s->bad_next == 0, "next_bit matches reference on %lu %s",
	       s->maps, what);
	tap_ok(t, s->bad_contig == 0, "contig_bits matches reference on %lu %s",
	       s->maps, what);
	tap_ok(t, s->bad_pop == 0, "popcount_bits matches reference on %lu %s",
	       s->maps, what);
	tot->maps += s->maps;
	tot->cmps += s->cmps;
}

/* ---- categories ---- */

static void
u_test_random(struct tap *t, uint64_t *rng, struct u_totals *tot)
{
	struct u_stats s = { 0 };
	uint32_t map[U_MAX_WORDS];

	for (unsigned int i = 0; i < U_RANDOM_MAPS; i++) {
		unsigned int words = 1 + i % U_MAX_WORDS;

		memset(map, 0, sizeof(map));
		if (tap_rand(rng) & 1)
			u_random_density(map, words, rng);
		else
			u_random_runs(map, words, rng);
		u_check_map(map, words, &s);
	}
	u_report(t, "random maps", &s, tot);
}

static void
u_test_uniform(struct tap *t, struct u_totals *tot)
{
	const uint32_t fill[] = { 0, 0xffffffffu, 0x55555555u, 0xaaaaaaaau };
	struct u_stats s = { 0 };
	uint32_t map[U_MAX_WORDS];

	for (unsigned int words = 1; words <= U_MAX_WORDS; words++) {
		for (size_t f = 0; f < sizeof(fill) / sizeof(fill[0]); f++) {
			for (unsigned int w = 0; w < words; w++)
				map[w] = fill[f];
			u_check_map(map, words, &s);
		}
	}
	u_report(t, "all-zero/all-one/alternating maps", &s, tot);
}

static unsigned int
u_min(unsigned int a, unsigned int b)
{
	return a < b ? a : b;
}

/* A run of @before bits below boundary @b and @after bits from it on. */
static void
u_check_boundary_run(unsigned int words, unsigned int b, unsigned int before,
		     unsigned int after, struct u_stats *s)
{
	uint32_t map[U_MAX_WORDS];

	before = u_min(before, b);
	after = u_min(after, words * 32 - b);
	memset(map, 0, sizeof(map));
	u_set_run(map, b - before, before + after);
	u_check_map(map, words, s);
}

/* One run of each tested length straddling each word boundary. */
static void
u_test_boundary_runs(struct tap *t, struct u_totals *tot)
{
	const unsigned int side[] = { 1, 2, 31, 32, 33, 64, 65 };
	const size_t nside = sizeof(side) / sizeof(side[0]);
	struct u_stats s = { 0 };

	for (unsigned int words = 2; words <= U_MAX_WORDS; words++)
		for (unsigned int b = 32; b < words * 32; b += 32)
			for (size_t i = 0; i < nside; i++)
				for (size_t j = 0; j < nside; j++)
					u_check_boundary_run(words, b, side[i],
							     side[j], &s);
	u_report(t, "maps with one run across a word boundary", &s, tot);
}

/* Runs of every length ending on the last bit, alone or after a gap. */
static void
u_test_tail_runs(struct tap *t, struct u_totals *tot)
{
	struct u_stats s = { 0 };
	uint32_t map[U_MAX_WORDS];

	for (unsigned int words = 1; words <= U_MAX_WORDS; words++) {
		unsigned int nbits = words * 32;

		for (unsigned int len = 1; len <= nbits; len++) {
			memset(map, 0, sizeof(map));
			u_set_run(map, nbits - len, len);
			u_check_map(map, words, &s);
			if (len + 2 <= nbits) {
				u_set_bit(map, 0);
				u_check_map(map, words, &s);
			}
		}
	}
	u_report(t, "maps with a run ending on the last bit", &s, tot);
}

/* A single set bit at every position, and a single clear bit likewise. */
static void
u_test_lone_bits(struct tap *t, struct u_totals *tot)
{
	struct u_stats s = { 0 };
	uint32_t map[U_MAX_WORDS];

	for (unsigned int words = 1; words <= U_MAX_WORDS; words++) {
		for (unsigned int pos = 0; pos < words * 32; pos++) {
			memset(map, 0, sizeof(map));
			u_set_bit(map, pos);
			u_check_map(map, words, &s);
			for (unsigned int w = 0; w < words; w++)
				map[w] = ~map[w];
			u_check_map(map, words, &s);
		}
	}
	u_report(t, "maps with a lone set or clear bit", &s, tot);
}

static void
u_test_empty(struct tap *t)
{
	const uint32_t map[1] = { 0xffffffffu };

	tap_ok(t, xls_next_bit(map, 0, 0) == -1 &&
		  xls_contig_bits(map, 0, 0) == 0 &&
		  xls_popcount_bits(map, 0, 64) == 0,
	       "a zero-word map has no set bits");
}

int
main(void)
{
	struct tap t = { 0 };
	struct u_totals tot = { 0 };
	uint64_t rng = U_SEED;

	tap_diag("xorshift64 seed 0x%016llx", (unsigned long long)U_SEED);
	u_test_empty(&t);
	u_test_uniform(&t, &tot);
	u_test_boundary_runs(&t, &tot);
	u_test_tail_runs(&t, &tot);
	u_test_lone_bits(&t, &tot);
	u_test_random(&t, &rng, &tot);
	tap_diag("%lu maps, %lu comparisons against the references",
		 tot.maps, tot.cmps);
	return tap_done(&t);
}
