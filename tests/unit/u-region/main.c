/*
 * Unit tests for the region stage: hand-made buffer formats and region
 * lengths for every split and inconsistency kind, one format decoded from
 * little-endian bytes through xls_buf_format_parse(), and 20,000 random
 * bitmaps with random region cuts checked against a bit-at-a-time reference
 * written here (the only place in the project where bits are walked singly
 * for reconstruction).
 *
 * Every region is malloc'ed at its exact length so that ASan would catch a
 * read past one; the module under test should never read region data at all.
 *
 * The tests are in pieces sharing u-region.h: helpers.c builds the items
 * and compares results, cases.c has the hand-made cases, random.c the
 * reference and the random sweep; main() here runs them in order.
 */
#include <stdlib.h>

#include "u-region.h"

int
main(void)
{
	struct u_ctx *u = calloc(1, sizeof(*u));
	int rc;

	if (!u)
		return 99;
	u->rng = U_SEED;
	test_region__single_full_run(u);
	test_region__two_runs(u);
	test_region__split_page_boundary(u);
	test_region__split_not_page(u);
	test_region__split_three_ways(u);
	test_region__len_not_chunk(u);
	test_region__region_too_long(u);
	test_region__regions_left(u);
	test_region__bits_left(u);
	test_region__bits_beyond_buf(u);
	test_region__map_too_big(u);
	test_region__map_short(u);
	test_region__size_mismatch(u);
	test_region__empty_region(u);
	test_region__full_64k(u);
	test_region__dir_scattered(u);
	test_region__through_parse(u);
	test_region__problems_str(u);
	test_region__caps(u);
	test_region__random(u);
	rc = tap_done(&u->t);
	free(u);
	return rc;
}
