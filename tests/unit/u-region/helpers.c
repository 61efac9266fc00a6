/*
 * u-region's helpers: buffer items built by hand with every region
 * malloc'ed at its exact length, and the checks of the module's places,
 * runs, splits and problems.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "u-region.h"

/* ---- hand-built buffer items ---------------------------------------- */

uint8_t *
u_alloc_region(uint32_t len, uint8_t fill)
{
	uint8_t *p = malloc(len);

	if (p)
		memset(p, fill, len);
	return p;
}

/*
 * A buffer of @blf_len basic blocks whose format logs @map_size words; the
 * format region is exactly as long as the writer makes it (fixed part plus
 * map_size words) and blf_size follows the regions added.
 */
void
tb_init(struct tb *t, uint16_t blf_len, uint32_t map_size)
{
	uint32_t flen = (uint32_t)U_FIXED + 4u * map_size;

	memset(t, 0, sizeof(*t));
	t->blf.blf_type = XFS_LI_BUF;
	t->blf.blf_len = blf_len;
	t->blf.blf_blkno = 0x1000;
	t->blf.blf_map_size = map_size;
	t->blf.map_words = map_size < U_MAX_WORDS ? map_size : U_MAX_WORDS;
	t->r[0].data = u_alloc_region(flen, 0);
	t->r[0].len = flen;
	t->it.type = XFS_LI_BUF;
	t->it.endian = XLS_LITTLE_ENDIAN;
	t->it.regions = t->r;
	t->it.nregions = 1;
	t->it.size = 1;
	t->blf.blf_size = 1;
}

void
tb_set(struct tb *t, unsigned int first, unsigned int n)
{
	for (unsigned int b = first; b < first + n && b < U_MAX_BITS; b++)
		t->blf.blf_data_map[b / 32] |= 1u << (b % 32);
}

void
tb_add(struct tb *t, uint32_t len)
{
	uint32_t i = t->it.nregions;

	if (i >= U_MAX_REG)
		return;
	t->r[i].data = u_alloc_region(len, (uint8_t)(0xa0 + i));
	t->r[i].len = len;
	t->it.nregions++;
	t->it.size = (uint16_t)t->it.nregions;
	t->blf.blf_size = (uint16_t)t->it.nregions;
}

void
tb_free(struct tb *t)
{
	for (uint32_t i = 0; i < t->it.nregions; i++)
		free((void *)t->r[i].data);
	t->it.nregions = 0;
}

/* ---- expectations --------------------------------------------------- */

bool
u_places(const struct xls_region_result *r, const struct ep *e, size_t n)
{
	if (r->nplaces != n)
		return false;
	for (size_t i = 0; i < n; i++) {
		const struct xls_region_place *p = &r->places[i];

		if (p->first_chunk != e[i].first || p->nchunks != e[i].nchunks ||
		    p->region_len != e[i].region_len ||
		    p->offset != e[i].first * 128 ||
		    p->len != e[i].nchunks * 128)
			return false;
	}
	return true;
}

bool
u_runs(const struct xls_region_result *r, const struct er *e, size_t n)
{
	if (r->nruns != n || r->nruns_stored != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (r->runs[i].first_chunk != e[i].first ||
		    r->runs[i].nchunks != e[i].nchunks ||
		    r->runs[i].nregions != e[i].nregions)
			return false;
	return true;
}

bool
u_splits(const struct xls_region_result *r, const struct es *e, size_t n)
{
	if (r->nsplits != n || r->nsplits_stored != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (r->splits[i].run != e[i].run ||
		    r->splits[i].chunk != e[i].chunk ||
		    r->splits[i].offset != e[i].chunk * 128 ||
		    r->splits[i].page_boundary != e[i].page)
			return false;
	return true;
}

const char *
u_pstr(unsigned int p)
{
	static char buf[256];

	xls_region_problems_str(p, buf, sizeof(buf));
	return buf;
}

/* Run the module and say which problems were found when they differ. */
void
u_run(struct u_ctx *u, struct tb *t)
{
	xls_region_reconstruct(&t->it, &t->blf, &u->r);
}

bool
u_problems(struct u_ctx *u, unsigned int want)
{
	if (u->r.problems == want)
		return true;
	tap_diag("problems: got '%s', want '%s'", u_pstr(u->r.problems),
		 u_pstr(want));
	return false;
}
