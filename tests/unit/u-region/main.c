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
#include "u-region.h"

struct tap T;
struct xls_region_result R;	/* ~12 KiB: keep it off the stack */

int
main(void)
{
	test_region__single_full_run();
	test_region__two_runs();
	test_region__split_page_boundary();
	test_region__split_not_page();
	test_region__split_three_ways();
	test_region__len_not_chunk();
	test_region__region_too_long();
	test_region__regions_left();
	test_region__bits_left();
	test_region__bits_beyond_buf();
	test_region__map_too_big();
	test_region__map_short();
	test_region__size_mismatch();
	test_region__empty_region();
	test_region__full_64k();
	test_region__dir_scattered();
	test_region__through_parse();
	test_region__problems_str();
	test_region__caps();
	test_region__random();
	return tap_done(&T);
}
