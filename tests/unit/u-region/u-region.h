/*
 * u-region's private header: the limits of the tests, hand-built buffer
 * items, the expected placements, runs and splits, and the bit-at-a-time
 * reference the random sweep checks the module against.
 */
#ifndef XLS_U_REGION_H
#define XLS_U_REGION_H

#include <stdbool.h>
#include <stdint.h>
#include "tap.h"
#include "items/region.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define U_MAX_REG	300u		/* more than a kernel item may hold */
#define U_MAX_WORDS	XFS_BLF_DATAMAP_SIZE
#define U_MAX_BITS	(U_MAX_WORDS * 32u)
#define U_FIXED		offsetof(struct xfs_buf_log_format, blf_data_map)
#define U_SEED		0x9e3779b97f4a7c15ull
#define U_RANDOM	20000u
#define U_MAX_DIAG	5u

struct tb {
	struct xls_item		it;
	struct xls_region	r[U_MAX_REG];
	struct xls_buf_format	blf;
};

struct ep { uint32_t first, nchunks, region_len; };
struct er { uint32_t first, nchunks, nregions; };
struct es { uint32_t run, chunk; bool page; };

struct ref {
	uint32_t	nplaces;
	struct ep	places[U_MAX_REG];
	uint32_t	nruns;
	struct er	runs[U_MAX_BITS / 2 + 1];
	uint32_t	nsplits;
	struct es	splits[U_MAX_REG];
	uint32_t	dirty;
	unsigned int	problems;
};

/*
 * What every test shares, made by main() and handed to each: the TAP
 * state, the result under test (~12 KiB: off the stack), the reference's
 * result and the random sweep's generator.
 */
struct u_ctx {
	struct tap			t;
	struct xls_region_result	r;
	struct ref			ref;
	uint64_t			rng;
};

/* helpers.c: hand-built items and checks */
uint8_t *u_alloc_region(uint32_t len, uint8_t fill);
void tb_init(struct tb *t, uint16_t blf_len, uint32_t map_size);
void tb_set(struct tb *t, unsigned int first, unsigned int n);
void tb_add(struct tb *t, uint32_t len);
void tb_free(struct tb *t);
bool u_places(const struct xls_region_result *r, const struct ep *e, size_t n);
bool u_runs(const struct xls_region_result *r, const struct er *e, size_t n);
bool u_splits(const struct xls_region_result *r, const struct es *e, size_t n);
const char *u_pstr(unsigned int p);
void u_run(struct u_ctx *u, struct tb *t);
bool u_problems(struct u_ctx *u, unsigned int want);

/* cases.c: the hand-made cases, run by main() */
void test_region__single_full_run(struct u_ctx *u);
void test_region__two_runs(struct u_ctx *u);
void test_region__split_page_boundary(struct u_ctx *u);
void test_region__split_not_page(struct u_ctx *u);
void test_region__split_three_ways(struct u_ctx *u);
void test_region__len_not_chunk(struct u_ctx *u);
void test_region__region_too_long(struct u_ctx *u);
void test_region__regions_left(struct u_ctx *u);
void test_region__bits_left(struct u_ctx *u);
void test_region__bits_beyond_buf(struct u_ctx *u);
void test_region__map_too_big(struct u_ctx *u);
void test_region__map_short(struct u_ctx *u);
void test_region__size_mismatch(struct u_ctx *u);
void test_region__empty_region(struct u_ctx *u);
void test_region__full_64k(struct u_ctx *u);
void test_region__dir_scattered(struct u_ctx *u);
void test_region__through_parse(struct u_ctx *u);
void test_region__problems_str(struct u_ctx *u);
void test_region__caps(struct u_ctx *u);

/* random.c: the reference and the random sweep */
void test_region__random(struct u_ctx *u);

#endif /* XLS_U_REGION_H */
