/*
 * u-region's random sweep: 20,000 random bitmaps with random region cuts,
 * checked against a bit-at-a-time reference written here (the only place
 * in the project where bits are walked singly for reconstruction).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "u-region.h"

/* ---- bit-at-a-time reference ---------------------------------------- */

static bool
ref_bit(const uint32_t *map, unsigned int b)
{
	return (map[b / 32] >> (b % 32)) & 1;
}

/*
 * Recovery's placement restated one bit at a time: skip clear bits, measure
 * the run by stepping over set bits, copy min(run, len / 128) chunks.  Runs
 * come from a separate scan, and a placed region is a split point when it
 * does not start its run.
 */
static void
ref_reconstruct(const uint32_t *map, unsigned int words,
		const uint32_t *lens, uint32_t nlens, uint32_t buf_chunks,
		struct ref *r)
{
	unsigned int nbits = words * 32, bit = 0, i;
	bool stopped = false;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < nlens; i++) {
		uint32_t run = 0, take, len = lens[i];

		if (len % 128)
			r->problems |= XLS_RP_LEN_NOT_CHUNK;
		if (len < 128)
			r->problems |= XLS_RP_EMPTY_REGION;
		if (stopped)
			continue;
		while (bit < nbits && !ref_bit(map, bit))
			bit++;
		if (bit >= nbits) {
			r->problems |= XLS_RP_REGIONS_LEFT;
			stopped = true;
			continue;
		}
		while (bit + run < nbits && ref_bit(map, bit + run))
			run++;
		take = len / 128 < run ? len / 128 : run;
		if (len > run * 128)
			r->problems |= XLS_RP_REGION_TOO_LONG;
		r->places[r->nplaces++] = (struct ep){ bit, take, len };
		bit += take;
	}
	if (!stopped)
		for (unsigned int b = bit; b < nbits; b++)
			if (ref_bit(map, b)) {
				r->problems |= XLS_RP_BITS_LEFT;
				break;
			}

	for (unsigned int b = 0; b < nbits;) {
		if (!ref_bit(map, b)) {
			b++;
			continue;
		}
		r->runs[r->nruns] = (struct er){ b, 0, 0 };
		while (b < nbits && ref_bit(map, b)) {
			r->runs[r->nruns].nchunks++;
			b++;
		}
		r->nruns++;
	}
	for (i = 0; i < r->nplaces; i++) {
		const struct ep *p = &r->places[i];

		if (p->nchunks == 0)
			continue;
		for (uint32_t k = 0; k < r->nruns; k++) {
			struct er *run = &r->runs[k];

			if (p->first < run->first ||
			    p->first >= run->first + run->nchunks)
				continue;
			run->nregions++;
			if (p->first != run->first)
				r->splits[r->nsplits++] = (struct es){
					k, p->first, p->first * 128 % 4096 == 0 };
			break;
		}
	}
	for (unsigned int b = 0; b < nbits; b++) {
		if (!ref_bit(map, b))
			continue;
		if (b < buf_chunks)
			r->dirty++;
		else
			r->problems |= XLS_RP_BITS_BEYOND_BUF;
	}
}

/* ---- random bitmaps with random cuts -------------------------------- */

static uint32_t
rng(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (uint32_t)(*state >> 16);
}

static uint32_t
rng_below(uint64_t *state, uint32_t n)
{
	return n ? rng(state) % n : 0;
}

/* Compare module and reference; describe the first difference. */
static bool
u_compare(const struct xls_region_result *m, const struct ref *r,
	  char *why, size_t whysz)
{
	if (m->problems != r->problems) {
		snprintf(why, whysz, "problems %#x vs %#x", m->problems,
			 r->problems);
		return false;
	}
	if (m->nplaces != r->nplaces || !u_places(m, r->places, r->nplaces)) {
		snprintf(why, whysz, "places (%u vs %u)", m->nplaces, r->nplaces);
		return false;
	}
	if (!u_runs(m, r->runs, r->nruns)) {
		snprintf(why, whysz, "runs (%u vs %u)", m->nruns, r->nruns);
		return false;
	}
	if (!u_splits(m, r->splits, r->nsplits)) {
		snprintf(why, whysz, "splits (%u vs %u)", m->nsplits, r->nsplits);
		return false;
	}
	if (m->dirty_chunks != r->dirty) {
		snprintf(why, whysz, "dirty %u vs %u", m->dirty_chunks, r->dirty);
		return false;
	}
	{
		uint32_t split_runs = 0;

		for (uint32_t k = 0; k < r->nruns; k++)
			split_runs += r->runs[k].nregions > 1;
		if (m->nsplit_runs != split_runs) {
			snprintf(why, whysz, "split runs %u vs %u",
				 m->nsplit_runs, split_runs);
			return false;
		}
	}
	return true;
}

void
test_region__random(struct u_ctx *u)
{
	static const uint32_t density[] = { 50, 300, 500, 800, 950, 990 };
	unsigned int bad = 0, bad_cut = 0, clean = 0, mangled = 0;
	unsigned long splits = 0, page_splits = 0;
	uint32_t lens[U_MAX_REG], cuts[U_MAX_REG];
	char why[128];
	struct tb t;

	for (unsigned int n = 0; n < U_RANDOM; n++) {
		uint16_t blf_len = (uint16_t)(1 + rng_below(&u->rng, 128));
		uint32_t chunks = blf_len * 4u;
		uint32_t words = (chunks + 31) / 32;
		uint32_t p = density[rng_below(&u->rng, ARRAY_SIZE(density))];
		uint32_t nlens = 0, ncuts = 0, nruns = 0, budget;
		bool mangle = rng_below(&u->rng, 4) == 0;

		tb_init(&t, blf_len, words);
		/* set bits one at a time, sometimes past the buffer's end */
		for (uint32_t b = 0; b < words * 32; b++)
			if ((b < chunks || rng_below(&u->rng, 8) == 0) &&
			    rng_below(&u->rng, 1000) < p)
				tb_set(&t, b, 1);

		/* count runs, then cut each into 1..3 pieces within budget */
		for (uint32_t b = 0; b < words * 32; b++)
			if (ref_bit(t.blf.blf_data_map, b) &&
			    (b == 0 || !ref_bit(t.blf.blf_data_map, b - 1)))
				nruns++;
		budget = 256 - nruns;
		for (uint32_t b = 0; b < words * 32;) {
			uint32_t len = 0, pieces, left;

			if (!ref_bit(t.blf.blf_data_map, b)) {
				b++;
				continue;
			}
			while (b + len < words * 32 &&
			       ref_bit(t.blf.blf_data_map, b + len))
				len++;
			pieces = 1 + rng_below(&u->rng, 3);
			if (pieces > len)
				pieces = len;
			if (pieces - 1 > budget)
				pieces = budget + 1;
			budget -= pieces - 1;
			left = len;
			for (uint32_t k = 0; k < pieces; k++) {
				uint32_t c = k + 1 == pieces ? left :
					1 + rng_below(&u->rng, left - (pieces - 1 - k));

				cuts[ncuts++] = c;
				left -= c;
			}
			b += len;
		}
		for (uint32_t k = 0; k < ncuts; k++)
			lens[nlens++] = cuts[k] * 128;

		if (mangle) {
			/* odd lengths, short/long/empty regions, drop or add */
			for (uint32_t k = 0; k < nlens; k++)
				if (rng_below(&u->rng, 3) == 0)
					lens[k] = rng_below(&u->rng, (cuts[k] + 3) * 128);
			if (nlens && rng_below(&u->rng, 3) == 0)
				nlens--;
			else if (nlens < 256 && rng_below(&u->rng, 2) == 0)
				lens[nlens++] = rng_below(&u->rng, 1024);
			mangled++;
		} else {
			clean++;
		}

		for (uint32_t k = 0; k < nlens; k++)
			tb_add(&t, lens[k]);
		xls_region_reconstruct(&t.it, &t.blf, &u->r);
		ref_reconstruct(t.blf.blf_data_map, words, lens, nlens,
				chunks, &u->ref);
		if (!u_compare(&u->r, &u->ref, why, sizeof(why))) {
			if (bad++ < U_MAX_DIAG)
				tap_diag("map %u (len %u, %s): %s", n, blf_len,
					 mangle ? "mangled" : "clean", why);
		}
		/* a clean cut must come back exactly as it was written */
		if (!mangle) {
			bool ok = u->r.nplaces == ncuts &&
				  (u->r.problems & ~(unsigned int)XLS_RP_BITS_BEYOND_BUF) == 0;

			for (uint32_t k = 0; ok && k < ncuts; k++)
				ok = u->r.places[k].nchunks == cuts[k];
			if (!ok && bad_cut++ < U_MAX_DIAG)
				tap_diag("map %u: clean cut not reproduced (%s)",
					 n, u_pstr(u->r.problems));
		}
		splits += u->r.nsplits;
		for (uint32_t k = 0; k < u->r.nsplits_stored; k++)
			page_splits += u->r.splits[k].page_boundary;
		tb_free(&t);
	}
	tap_ok(&u->t, bad == 0,
	       "%u random maps (%u clean cuts, %u mangled) match the bit-at-a-time reference (%u differ)",
	       U_RANDOM, clean, mangled, bad);
	tap_ok(&u->t, bad_cut == 0, "clean cuts reconstruct to the written pieces (%u differ)",
	       bad_cut);
	tap_ok(&u->t, splits > 1000 && page_splits > 0,
	       "random cuts exercised %lu splits, %lu on page boundaries",
	       splits, page_splits);
}
