#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fullio.h"
#include "base/spillpool.h"
#include "base/vec.h"

#define MAX_BYTES	(1u << 31)

void xls_spillpool_init(struct xls_spillpool *sp, uint64_t mem_max)
{
	memset(sp, 0, sizeof(*sp));
	sp->mem_max = mem_max;
	sp->fd = -1;
	for (uint32_t f = 0; f < XLS_SPILLPOOL_FRAMES; f++)
		sp->frame_page[f] = UINT32_MAX;
}

/* Empty; the first page's memory kept for the next adds when it has any. */
static void empty(struct xls_spillpool *sp, bool keep_first)
{
	bool keep = keep_first && sp->npages && sp->pages[0].mem;

	for (uint32_t i = keep ? 1 : 0; i < sp->npages; i++)
		free(sp->pages[i].mem);
	for (uint32_t f = 0; f < XLS_SPILLPOOL_FRAMES; f++)
		sp->frame_page[f] = UINT32_MAX;
	sp->npages = keep ? 1 : 0;
	sp->mem = keep ? sp->pages[0].cap : 0;
	if (keep)
		sp->pages[0].used = 0;
	sp->first_in_mem = sp->used = 0;
	sp->file_end = 0;
	sp->error = 0;
}

void xls_spillpool_reset(struct xls_spillpool *sp)
{
	empty(sp, true);
}

void xls_spillpool_free(struct xls_spillpool *sp)
{
	empty(sp, false);
	xls_vec_free(sp->pages);
	for (uint32_t f = 0; f < XLS_SPILLPOOL_FRAMES; f++)
		free(sp->frame[f]);
	if (sp->fd >= 0)
		close(sp->fd);
	xls_spillpool_init(sp, sp->mem_max);
}

static bool failed(struct xls_spillpool *sp, int e)
{
	if (!sp->error)
		sp->error = e;
	return false;
}

/* The oldest page in memory, not the last, out to the end of the file. */
static bool spill_one(struct xls_spillpool *sp)
{
	struct xls_spillpool_page *pg;
	int rc;

	if (!sp->pages || sp->first_in_mem >= sp->npages)
		return failed(sp, EINVAL);
	pg = &sp->pages[sp->first_in_mem];

	if (sp->fd < 0) {
		sp->fd = xls_tmpfile(&sp->dir);
		if (sp->fd < 0)
			return failed(sp, errno ? errno : EIO);
	}
	rc = xls_pwrite_fully(sp->fd, sp->file_end, pg->mem, pg->used, NULL);
	if (rc)
		return failed(sp, -rc);
	pg->file_off = sp->file_end;
	sp->file_end += pg->used;
	sp->spilled += pg->used;
	sp->mem -= pg->cap;
	free(pg->mem);
	pg->mem = NULL;
	sp->first_in_mem++;
	return true;
}

/* A new last page, of room for @len at least, the old ones out past the bound. */
static bool page_new(struct xls_spillpool *sp, uint32_t len)
{
	struct xls_spillpool_page *pg;
	uint32_t cap = len > XLS_SPILLPOOL_PAGE ? len : XLS_SPILLPOOL_PAGE;

	/* the first page starts small: most pools hold a few items */
	if (!sp->npages && len <= 4096)
		cap = 4096;
	while (sp->npages && sp->first_in_mem < sp->npages &&
	       sp->mem + cap > sp->mem_max)
		if (!spill_one(sp))
			return false;
	if (!xls_vec_grow((void **)&sp->pages, sp->npages, &sp->cappages, sizeof(*pg)))
		return failed(sp, ENOMEM);
	pg = &sp->pages[sp->npages];
	memset(pg, 0, sizeof(*pg));
	pg->mem = malloc(cap);
	if (!pg->mem)
		return failed(sp, ENOMEM);
	pg->start = sp->used;
	pg->cap = cap;
	sp->mem += cap;
	sp->npages++;
	return true;
}

/* The last page, grown to room for @len more while it is the only one. */
static bool room(struct xls_spillpool *sp, uint32_t len)
{
	struct xls_spillpool_page *pg = sp->npages ? &sp->pages[sp->npages - 1] : NULL;

	if (pg && pg->cap - pg->used >= len)
		return true;
	if (pg && sp->npages == 1 && pg->mem && pg->cap < XLS_SPILLPOOL_PAGE &&
	    (uint64_t)pg->used + len <= XLS_SPILLPOOL_PAGE) {
		uint32_t cap = pg->cap;
		uint8_t *m;

		while (cap - pg->used < len)
			cap *= 2;
		m = realloc(pg->mem, cap);
		if (!m)
			return failed(sp, ENOMEM);
		sp->mem += cap - pg->cap;
		pg->mem = m;
		pg->cap = cap;
		return true;
	}
	return page_new(sp, len);
}

uint8_t *xls_spillpool_add(struct xls_spillpool *sp, const void *src, uint32_t len,
			   uint32_t *off)
{
	struct xls_spillpool_page *pg;
	uint8_t *at;

	if (sp->error || len > MAX_BYTES - sp->used || !room(sp, len ? len : 1))
		return NULL;
	pg = &sp->pages[sp->npages - 1];
	at = pg->mem + pg->used;
	if (src)
		memcpy(at, src, len);
	else
		memset(at, 0, len);
	*off = sp->used;
	pg->used += len;
	sp->used += len;
	return at;
}

/* The page that holds offset @off: the last whose start is not past it. */
static uint32_t page_of(const struct xls_spillpool *sp, uint32_t off)
{
	uint32_t lo = 0, hi = sp->npages;

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (sp->pages[mid].start <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Page @p read back into a frame: the one it is in, or the least recently used. */
static const uint8_t *frame_of(struct xls_spillpool *sp, uint32_t p)
{
	const struct xls_spillpool_page *pg = &sp->pages[p];
	uint32_t f, victim = 0;
	int rc;

	for (f = 0; f < XLS_SPILLPOOL_FRAMES; f++) {
		if (sp->frame_page[f] == p) {
			sp->frame_used[f] = ++sp->tick;
			return sp->frame[f];
		}
		if (sp->frame_used[f] < sp->frame_used[victim])
			victim = f;
	}
	if (sp->frame_cap[victim] < pg->used) {
		uint8_t *m = realloc(sp->frame[victim], pg->used);

		if (!m) {
			failed(sp, ENOMEM);
			return NULL;
		}
		sp->frame[victim] = m;
		sp->frame_cap[victim] = pg->used;
	}
	sp->frame_page[victim] = UINT32_MAX;
	rc = xls_pread_fully(sp->fd, pg->file_off, sp->frame[victim], pg->used, NULL);
	if (rc) {
		failed(sp, -rc);
		return NULL;
	}
	sp->frame_page[victim] = p;
	sp->frame_used[victim] = ++sp->tick;
	return sp->frame[victim];
}

const uint8_t *xls_spillpool_at(struct xls_spillpool *sp, uint32_t off, uint32_t len)
{
	uint32_t p;
	const struct xls_spillpool_page *pg;
	const uint8_t *base;

	if (sp->error || !sp->npages || off > sp->used || len > sp->used - off)
		return NULL;
	/* nothing at the end: where the next add goes, in the last page */
	if (off == sp->used) {
		pg = &sp->pages[sp->npages - 1];
		return pg->mem ? pg->mem + pg->used : NULL;
	}
	p = page_of(sp, off);
	pg = &sp->pages[p];
	if (off - pg->start + (uint64_t)len > pg->used)
		return NULL;
	base = pg->mem ? pg->mem : frame_of(sp, p);
	return base ? base + (off - pg->start) : NULL;
}

uint64_t xls_spillpool_mem(const struct xls_spillpool *sp)
{
	uint64_t n = sp->mem;

	for (uint32_t f = 0; f < XLS_SPILLPOOL_FRAMES; f++)
		n += sp->frame_cap[f];
	return n;
}

bool xls_spillpool_write(struct xls_spillpool *sp, uint32_t off, const void *src, uint32_t len)
{
	struct xls_spillpool_page *pg;
	uint32_t p;
	int rc;

	if (sp->error || !sp->npages || off >= sp->used || len > sp->used - off)
		return false;
	p = page_of(sp, off);
	pg = &sp->pages[p];
	if (off - pg->start + (uint64_t)len > pg->used)
		return false;
	if (pg->mem) {
		memcpy(pg->mem + (off - pg->start), src, len);
		return true;
	}
	rc = xls_pwrite_fully(sp->fd, pg->file_off + (off - pg->start), src, len, NULL);
	if (rc)
		return failed(sp, -rc);
	for (uint32_t f = 0; f < XLS_SPILLPOOL_FRAMES; f++)
		if (sp->frame_page[f] == p)
			memcpy(sp->frame[f] + (off - pg->start), src, len);
	return true;
}
