/*
 * u-region's hand-made cases: one per split and inconsistency kind, a
 * format decoded from little-endian bytes, problem names, and the caps on
 * the result arrays.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "u-region.h"

/* ---- hand-made cases ------------------------------------------------ */

void
test_region__single_full_run(struct u_ctx *u)
{
	static const struct ep ep[] = { { 0, 32, 4096 } };
	static const struct er er[] = { { 0, 32, 1 } };
	struct tb t;

	tb_init(&t, 8, 1);
	tb_set(&t, 0, 32);
	tb_add(&t, 4096);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, 0) && u_places(&u->r, ep, 1) && u_runs(&u->r, er, 1) &&
		   u->r.nsplits == 0 && u->r.nsplit_runs == 0 && u->r.nregions == 1 &&
		   u->r.dirty_chunks == 32 && u->r.dirty_bytes == 4096 &&
		   u->r.buf_bytes == 4096 && u->r.data_bytes == 4096,
	       "4 KiB buffer, one full run in one region");
	tb_free(&t);
}

void
test_region__two_runs(struct u_ctx *u)
{
	static const struct ep ep[] = { { 2, 3, 384 }, { 10, 2, 256 } };
	static const struct er er[] = { { 2, 3, 1 }, { 10, 2, 1 } };
	struct tb t;
	char map[64];

	tb_init(&t, 8, 1);
	tb_set(&t, 2, 3);
	tb_set(&t, 10, 2);
	tb_add(&t, 384);
	tb_add(&t, 256);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, 0) && u_places(&u->r, ep, 2) && u_runs(&u->r, er, 2) &&
		   u->r.nsplits == 0 && u->r.dirty_chunks == 5 &&
		   u->r.dirty_bytes == 640 && u->r.data_bytes == 640,
	       "two runs, two regions, no split");
	xls_region_map_str(&t.blf, &u->r, 0, map, sizeof(map));
	tap_ok(&u->t, strcmp(map, "..###.....##....................") == 0,
	       "map string of two runs: '%s'", map);
	tb_free(&t);
}

/* The inode-cluster case: a run across the 4 KiB page at chunk 32. */
void
test_region__split_page_boundary(struct u_ctx *u)
{
	static const struct ep ep[] = { { 30, 2, 256 }, { 32, 3, 384 } };
	static const struct er er[] = { { 30, 5, 2 } };
	static const struct es es[] = { { 0, 32, true } };
	struct tb t;
	char map[600], want[600];

	tb_init(&t, 128, 16);
	tb_set(&t, 30, 5);
	tb_add(&t, 256);
	tb_add(&t, 384);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, 0) && u_places(&u->r, ep, 2) && u_runs(&u->r, er, 1) &&
		   u_splits(&u->r, es, 1) && u->r.nsplit_runs == 1 &&
		   u->r.places[0].offset == 3840 && u->r.places[1].offset == 4096 &&
		   u->r.splits[0].offset == 4096 && u->r.splits[0].page_boundary &&
		   u->r.dirty_chunks == 5 && u->r.buf_bytes == 65536,
	       "64 KiB buffer, run 30-34 split at chunk 32 (offset 4096, page boundary)");

	memset(want, '.', 512);
	want[512] = '\0';
	memcpy(want + 30, "##|##", 5);
	xls_region_map_str(&t.blf, &u->r, 0, map, sizeof(map));
	tap_ok(&u->t, strcmp(map, want) == 0, "map string marks the split with '|'");
	xls_region_map_str(&t.blf, &u->r, 64, map, sizeof(map));
	tap_ok(&u->t, strlen(map) == 64 && map[3] == '#' && map[4] == '|' &&
		   map[2] == '.' && map[5] == '.',
	       "map string grouped by 8 chunks at width 64: '%.8s...'", map);
	xls_region_map_str(&t.blf, &u->r, 0, map, 10);
	tap_ok(&u->t, strcmp(map, ".........") == 0,
	       "map string truncated to the buffer size");
	tb_free(&t);
}

void
test_region__split_not_page(struct u_ctx *u)
{
	static const struct ep ep[] = { { 5, 2, 256 }, { 7, 3, 384 },
					{ 20, 1, 128 } };
	static const struct er er[] = { { 5, 5, 2 }, { 20, 1, 1 } };
	static const struct es es[] = { { 0, 7, false } };
	struct tb t;

	tb_init(&t, 8, 1);
	tb_set(&t, 5, 5);
	tb_set(&t, 20, 1);
	tb_add(&t, 256);
	tb_add(&t, 384);
	tb_add(&t, 128);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, 0) && u_places(&u->r, ep, 3) && u_runs(&u->r, er, 2) &&
		   u_splits(&u->r, es, 1) && u->r.nsplit_runs == 1 &&
		   u->r.splits[0].offset == 896,
	       "run 5-9 split at chunk 7 (offset 896, not a page boundary)");
	tb_free(&t);
}

/* A run cut in three: two split points in one run, and a second split run. */
void
test_region__split_three_ways(struct u_ctx *u)
{
	static const struct ep ep[] = { { 0, 1, 128 }, { 1, 1, 128 },
					{ 2, 1, 128 }, { 40, 8, 1024 },
					{ 48, 4, 512 } };
	static const struct er er[] = { { 0, 3, 3 }, { 40, 12, 2 } };
	static const struct es es[] = { { 0, 1, false }, { 0, 2, false },
					{ 1, 48, false } };
	struct tb t;

	tb_init(&t, 16, 2);
	tb_set(&t, 0, 3);
	tb_set(&t, 40, 12);
	tb_add(&t, 128);
	tb_add(&t, 128);
	tb_add(&t, 128);
	tb_add(&t, 1024);
	tb_add(&t, 512);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, 0) && u_places(&u->r, ep, 5) && u_runs(&u->r, er, 2) &&
		   u_splits(&u->r, es, 3) && u->r.nsplit_runs == 2 && u->r.nsplits == 3,
	       "a run in three regions and a run across a word in two");
	tb_free(&t);
}

void
test_region__len_not_chunk(struct u_ctx *u)
{
	/* 300 bytes in a 3-chunk run: 2 whole chunks, the next region the rest */
	static const struct ep ep1[] = { { 4, 2, 300 }, { 6, 1, 128 } };
	static const struct es es1[] = { { 0, 6, false } };
	/* 300 bytes in a 2-chunk run: the run is copied, 44 bytes unused */
	static const struct ep ep2[] = { { 4, 2, 300 } };
	struct tb t;

	tb_init(&t, 8, 1);
	tb_set(&t, 4, 3);
	tb_add(&t, 300);
	tb_add(&t, 128);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_LEN_NOT_CHUNK) && u_places(&u->r, ep1, 2) &&
		   u_splits(&u->r, es1, 1) && u->r.data_bytes == 428,
	       "300-byte region in a 3-chunk run: trimmed to 2 chunks, split");
	tb_free(&t);

	tb_init(&t, 8, 1);
	tb_set(&t, 4, 2);
	tb_add(&t, 300);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_LEN_NOT_CHUNK | XLS_RP_REGION_TOO_LONG) &&
		   u_places(&u->r, ep2, 1) && u->r.places[0].len == 256,
	       "300-byte region in a 2-chunk run: run copied, rest too long");
	tb_free(&t);
}

void
test_region__region_too_long(struct u_ctx *u)
{
	/* the excess of region 1 is dropped; region 2 still lands on run 2 */
	static const struct ep ep[] = { { 0, 2, 512 }, { 8, 2, 256 } };
	static const struct er er[] = { { 0, 2, 1 }, { 8, 2, 1 } };
	struct tb t;

	tb_init(&t, 8, 1);
	tb_set(&t, 0, 2);
	tb_set(&t, 8, 2);
	tb_add(&t, 512);
	tb_add(&t, 256);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_REGION_TOO_LONG) && u_places(&u->r, ep, 2) &&
		   u_runs(&u->r, er, 2) && u->r.nsplits == 0 &&
		   u->r.places[0].len == 256 && u->r.data_bytes == 768,
	       "region of 4 chunks on a 2-chunk run: 2 copied, next region on the next run");
	tb_free(&t);
}

void
test_region__regions_left(struct u_ctx *u)
{
	static const struct ep ep[] = { { 0, 2, 256 } };
	struct tb t;

	tb_init(&t, 8, 1);
	tb_set(&t, 0, 2);
	tb_add(&t, 256);
	tb_add(&t, 128);
	tb_add(&t, 128);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_REGIONS_LEFT) && u_places(&u->r, ep, 1) &&
		   u->r.nregions == 3 && u->r.data_bytes == 512,
	       "two regions left after the last set bit");
	tb_free(&t);
}

void
test_region__bits_left(struct u_ctx *u)
{
	static const struct ep ep[] = { { 0, 2, 256 } };
	static const struct er er[] = { { 0, 2, 1 }, { 4, 2, 0 } };
	struct tb t;

	tb_init(&t, 8, 1);
	tb_set(&t, 0, 2);
	tb_set(&t, 4, 2);
	tb_add(&t, 256);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_BITS_LEFT) && u_places(&u->r, ep, 1) &&
		   u_runs(&u->r, er, 2) && u->r.dirty_chunks == 4,
	       "a run left when the regions are exhausted");
	tb_free(&t);

	/* no data region at all */
	tb_init(&t, 8, 1);
	tb_set(&t, 3, 1);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_BITS_LEFT) && u->r.nplaces == 0 &&
		   u->r.nregions == 0 && u->r.nruns == 1,
	       "bits set but no data region");
	tb_free(&t);

	/* the tail of a run left after a short last region */
	tb_init(&t, 8, 1);
	tb_set(&t, 0, 4);
	tb_add(&t, 256);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_BITS_LEFT) && u->r.nplaces == 1 &&
		   u->r.places[0].nchunks == 2 && u->r.runs[0].nregions == 1,
	       "the tail of a run left after a short last region");
	tb_free(&t);
}

void
test_region__bits_beyond_buf(struct u_ctx *u)
{
	static const struct ep ep[] = { { 1, 1, 128 }, { 5, 1, 128 } };
	struct tb t;

	/* 512-byte buffer: 4 chunks, one map word; bit 5 is past its end */
	tb_init(&t, 1, 1);
	tb_set(&t, 1, 1);
	tb_set(&t, 5, 1);
	tb_add(&t, 128);
	tb_add(&t, 128);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_BITS_BEYOND_BUF) && u_places(&u->r, ep, 2) &&
		   u->r.dirty_chunks == 1 && u->r.dirty_bytes == 128 &&
		   u->r.buf_bytes == 512 && u->r.nruns == 2,
	       "set bit past a 512-byte buffer (placed as recovery would)");
	tb_free(&t);
}

void
test_region__map_too_big(struct u_ctx *u)
{
	struct tb t;

	tb_init(&t, 128, 18);
	tb_set(&t, 0, 1);
	tb_add(&t, 128);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_MAP_TOO_BIG) && t.blf.map_words == 17 &&
		   u->r.nplaces == 1,
	       "blf_map_size 18 (beyond XFS_BLF_DATAMAP_SIZE)");
	tb_free(&t);

	tb_init(&t, 8, 2);
	tb_set(&t, 0, 1);
	tb_add(&t, 128);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_MAP_TOO_BIG),
	       "blf_map_size 2 for a 4 KiB buffer (1 word needed)");
	tb_free(&t);

	tb_init(&t, 8, 2);
	tb_set(&t, 40, 1);
	tb_add(&t, 128);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_MAP_TOO_BIG | XLS_RP_BITS_BEYOND_BUF) &&
		   u->r.dirty_chunks == 0 && u->r.places[0].first_chunk == 40,
	       "oversized map with a bit in its extra word");
	tb_free(&t);

	tb_init(&t, 1, 1);	/* 4 chunks still need one word */
	tb_set(&t, 0, 4);
	tb_add(&t, 512);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, 0), "512-byte buffer with a one-word map is fine");
	tb_free(&t);
}

void
test_region__map_short(struct u_ctx *u)
{
	struct tb t;

	tb_init(&t, 8, 1);
	free((void *)t.r[0].data);
	t.r[0].data = u_alloc_region((uint32_t)U_FIXED, 0);
	t.r[0].len = (uint32_t)U_FIXED;	/* no room for the map word */
	t.blf.map_words = 0;
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_MAP_SHORT) && u->r.nruns == 0,
	       "format region without room for blf_map_size words");
	tb_free(&t);
}

void
test_region__size_mismatch(struct u_ctx *u)
{
	struct tb t;

	tb_init(&t, 8, 1);
	tb_set(&t, 0, 2);
	tb_add(&t, 256);
	t.blf.blf_size = 3;
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_SIZE_MISMATCH) && u->r.nplaces == 1 &&
		   u->r.nregions == 1,
	       "blf_size 3 with 2 regions present");
	tb_free(&t);
}

void
test_region__empty_region(struct u_ctx *u)
{
	static const struct ep ep1[] = { { 0, 0, 0 }, { 0, 2, 256 } };
	static const struct ep ep2[] = { { 3, 0, 50 }, { 3, 0, 0 } };
	static const struct er er1[] = { { 0, 2, 1 } };
	struct tb t;

	/* recovery copies nothing and retries the same bit with the next one */
	tb_init(&t, 8, 1);
	tb_set(&t, 0, 2);
	tb_add(&t, 0);
	tb_add(&t, 256);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_EMPTY_REGION) && u_places(&u->r, ep1, 2) &&
		   u_runs(&u->r, er1, 1) && u->r.nsplits == 0,
	       "0-length region: nothing copied, next region at the same bit");
	tb_free(&t);

	/* only short regions: the walk ends with the regions, bits left */
	tb_init(&t, 8, 1);
	tb_set(&t, 3, 2);
	tb_add(&t, 50);
	tb_add(&t, 0);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, XLS_RP_EMPTY_REGION | XLS_RP_LEN_NOT_CHUNK |
			      XLS_RP_BITS_LEFT) &&
		   u_places(&u->r, ep2, 2) && u->r.runs[0].nregions == 0,
	       "regions shorter than a chunk never advance; bounded by the regions");
	tb_free(&t);
}

void
test_region__full_64k(struct u_ctx *u)
{
	static const struct ep ep[] = { { 0, 512, 65536 } };
	static const struct er er[] = { { 0, 512, 1 } };
	struct tb t;
	char map[600];

	tb_init(&t, 128, 16);
	tb_set(&t, 0, 512);
	tb_add(&t, 65536);
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, 0) && u_places(&u->r, ep, 1) && u_runs(&u->r, er, 1) &&
		   u->r.dirty_chunks == 512 && u->r.dirty_bytes == 65536 &&
		   u->r.data_bytes == 65536,
	       "64 KiB buffer, all 512 chunks dirty in one region");
	xls_region_map_str(&t.blf, &u->r, 32, map, sizeof(map));
	tap_ok(&u->t, strcmp(map, "################################") == 0,
	       "map string of a full buffer at width 32");
	tb_free(&t);

	/* the same run logged as 16 page-sized regions: 15 page splits */
	tb_init(&t, 128, 16);
	tb_set(&t, 0, 512);
	for (int i = 0; i < 16; i++)
		tb_add(&t, 4096);
	u_run(u, &t);
	{
		bool ok = u_problems(u, 0) && u->r.nplaces == 16 && u->r.nruns == 1 &&
			  u->r.runs[0].nregions == 16 && u->r.nsplit_runs == 1 &&
			  u->r.nsplits == 15;

		for (uint32_t i = 0; ok && i < u->r.nsplits_stored; i++)
			ok = u->r.splits[i].chunk == 32 * (i + 1) &&
			     u->r.splits[i].page_boundary;
		tap_ok(&u->t, ok, "64 KiB run in 16 page-sized regions: 15 page-boundary splits");
	}
	tb_free(&t);
}

void
test_region__dir_scattered(struct u_ctx *u)
{
	static const struct er all[] = {
		{ 0, 1, 1 }, { 7, 2, 1 }, { 30, 4, 1 }, { 63, 2, 1 },
		{ 100, 1, 1 }, { 127, 3, 1 }, { 200, 10, 1 }, { 255, 3, 1 },
		{ 300, 1, 1 }, { 383, 33, 1 }, { 470, 2, 1 }, { 511, 1, 1 },
	};
	struct ep ep[ARRAY_SIZE(all)];
	uint32_t dirty = 0;
	struct tb t;

	tb_init(&t, 128, 16);
	t.blf.blf_flags = XFS_BLFT_DIR_DATA_BUF << XFS_BLFT_SHIFT;
	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		tb_set(&t, all[i].first, all[i].nchunks);
		tb_add(&t, all[i].nchunks * 128);
		ep[i] = (struct ep){ all[i].first, all[i].nchunks,
				     all[i].nchunks * 128 };
		dirty += all[i].nchunks;
	}
	u_run(u, &t);
	tap_ok(&u->t, u_problems(u, 0) && u_places(&u->r, ep, ARRAY_SIZE(all)) &&
		   u_runs(&u->r, all, ARRAY_SIZE(all)) && u->r.nsplits == 0 &&
		   u->r.dirty_chunks == dirty && u->r.dirty_bytes == dirty * 128ull &&
		   u->r.data_bytes == dirty * 128ull,
	       "64 KiB dir buffer, a dozen scattered runs across words (%u chunks)",
	       dirty);
	tb_free(&t);
}

/* The page-boundary case decoded from a little-endian format region. */
void
test_region__through_parse(struct u_ctx *u)
{
	uint8_t raw[U_FIXED + 16 * 4];
	struct xls_region reg[3];
	struct xls_item it;
	struct xls_buf_format blf;
	const char *why = NULL;
	static const struct es es[] = { { 0, 32, true } };
	int rc;

	memset(raw, 0, sizeof(raw));
	raw[0] = XFS_LI_BUF & 0xff;
	raw[1] = XFS_LI_BUF >> 8;
	raw[2] = 3;				/* blf_size */
	raw[4] = 0;				/* blf_flags: dino type */
	raw[5] = (uint8_t)((XFS_BLFT_DINO_BUF << XFS_BLFT_SHIFT) >> 8);
	raw[6] = 128;				/* blf_len */
	raw[8] = 0x40;				/* blf_blkno */
	raw[16] = 16;				/* blf_map_size */
	raw[U_FIXED + 3] = 0xc0;		/* bits 30, 31 */
	raw[U_FIXED + 4] = 0x07;		/* bits 32..34 */

	reg[0].data = u_alloc_region(sizeof(raw), 0);
	memcpy((void *)reg[0].data, raw, sizeof(raw));
	reg[0].len = sizeof(raw);
	reg[1].data = u_alloc_region(256, 1);
	reg[1].len = 256;
	reg[2].data = u_alloc_region(384, 2);
	reg[2].len = 384;
	memset(&it, 0, sizeof(it));
	it.type = XFS_LI_BUF;
	it.size = 3;
	it.endian = XLS_LITTLE_ENDIAN;
	it.nregions = 3;
	it.regions = reg;

	rc = xls_buf_format_parse(&it, &blf, &why);
	tap_ok(&u->t, rc == 0 && blf.blf_len == 128 && blf.blf_map_size == 16 &&
		   blf.map_words == 16 && blf.blf_data_map[0] == 0xc0000000u &&
		   blf.blf_data_map[1] == 7,
	       "little-endian inode cluster format parses");
	xls_region_reconstruct(&it, &blf, &u->r);
	tap_ok(&u->t, u_problems(u, 0) && u->r.nplaces == 2 &&
		   u->r.places[0].offset == 3840 && u->r.places[0].len == 256 &&
		   u->r.places[1].offset == 4096 && u->r.places[1].len == 384 &&
		   u_splits(&u->r, es, 1) && u->r.nsplit_runs == 1,
	       "parsed format: split at chunk 32, offset 4096, page boundary");
	for (int i = 0; i < 3; i++)
		free((void *)reg[i].data);
}

void
test_region__problems_str(struct u_ctx *u)
{
	char buf[256];

	xls_region_problems_str(0, buf, sizeof(buf));
	tap_ok(&u->t, buf[0] == '\0', "no problems: empty string");
	xls_region_problems_str(XLS_RP_LEN_NOT_CHUNK | XLS_RP_BITS_LEFT, buf,
				sizeof(buf));
	tap_ok(&u->t, strcmp(buf, "len_not_chunk|bits_left") == 0,
	       "problem names: '%s'", buf);
	xls_region_problems_str(0x1ff, buf, sizeof(buf));
	tap_ok(&u->t, strcmp(buf, "len_not_chunk|region_too_long|regions_left|"
			       "bits_left|bits_beyond_buf|map_too_big|map_short|"
			       "size_mismatch|empty_region") == 0,
	       "all nine problem names");
	xls_region_problems_str(XLS_RP_MAP_SHORT | 0x1000, buf, sizeof(buf));
	tap_ok(&u->t, strcmp(buf, "map_short|UNKNOWN(0x1000)") == 0,
	       "unknown bit named: '%s'", buf);
	xls_region_problems_str(XLS_RP_LEN_NOT_CHUNK, buf, 4);
	tap_ok(&u->t, strlen(buf) == 3, "problem names truncated to the buffer");
}

/* Arrays are capped even for a map with more runs than a buffer can have. */
void
test_region__caps(struct u_ctx *u)
{
	struct tb t;
	bool ok;

	/* 17 words of alternating bits: 272 runs; 270 one-chunk regions */
	tb_init(&t, 128, 17);
	for (unsigned int w = 0; w < 17; w++)
		t.blf.blf_data_map[w] = 0x55555555u;
	for (int i = 0; i < 270; i++)
		tb_add(&t, 128);
	u_run(u, &t);
	ok = u->r.nruns == 272 && u->r.nruns_stored == XLS_MAX_REGIONS_IN_ITEM &&
	     u->r.nplaces == XLS_MAX_REGIONS_IN_ITEM && u->r.nregions == 270 &&
	     u->r.nsplits == 0 && u->r.dirty_chunks == 256;
	for (uint32_t k = 0; ok && k < u->r.nruns_stored; k++)
		ok = u->r.runs[k].nregions == 1 && u->r.runs[k].first_chunk == 2 * k;
	tap_ok(&u->t, ok && (u->r.problems & XLS_RP_MAP_TOO_BIG) &&
		   (u->r.problems & XLS_RP_BITS_BEYOND_BUF) &&
		   (u->r.problems & XLS_RP_BITS_LEFT),
	       "272 runs, 270 regions: counts exact, arrays capped at %d (%s)",
	       XLS_MAX_REGIONS_IN_ITEM, u_pstr(u->r.problems));
	tb_free(&t);

	/* an item with no regions at all, and a 0-length buffer */
	{
		struct xls_item it;
		struct xls_buf_format blf;
		char map[8];

		memset(&it, 0, sizeof(it));
		memset(&blf, 0, sizeof(blf));
		xls_region_reconstruct(&it, &blf, &u->r);
		xls_region_map_str(&blf, &u->r, 0, map, sizeof(map));
		tap_ok(&u->t, u->r.nregions == 0 && u->r.nplaces == 0 && u->r.nruns == 0 &&
			   map[0] == '\0' && u->r.problems == 0,
		       "empty item and 0-length buffer");
	}
}
