/*
 * Records in pages, pages in a cache over a temporary file (pagestore.h).
 * Every page in the cache counts as changed: a caller may write through
 * any address it is given, so an evicted page is always written back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fullio.h"
#include "base/pagestore.h"

int xls_pagestore_init(struct xls_pagestore *s, uint32_t rec_size, uint64_t cache_bytes)
{
	uint64_t page_bytes = (uint64_t)rec_size << XLS_PAGESTORE_PAGE_SHIFT;
	uint64_t nslots = page_bytes ? cache_bytes / page_bytes : 0;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (!rec_size || page_bytes > UINT32_MAX)
		return -EINVAL;
	s->rec_size = rec_size;
	s->page_bytes = (uint32_t)page_bytes;
	s->nslots = nslots < 2 ? 2 : nslots > (1u << 20) ? 1u << 20 : (uint32_t)nslots;
	s->cache = malloc((size_t)s->nslots * s->page_bytes);
	s->slot_page = malloc(sizeof(*s->slot_page) * s->nslots);
	s->pins = calloc(s->nslots, sizeof(*s->pins));
	s->used = calloc(s->nslots, sizeof(*s->used));
	if (!s->cache || !s->slot_page || !s->pins || !s->used) {
		xls_pagestore_free(s);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < s->nslots; i++)
		s->slot_page[i] = XLS_PAGESTORE_NONE;
	return 0;
}

void xls_pagestore_free(struct xls_pagestore *s)
{
	if (s->fd >= 0)
		close(s->fd);
	free(s->cache);
	free(s->slot_page);
	free(s->pins);
	free(s->used);
	free(s->page_slot);
	free(s->on_file);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

static void *fail(struct xls_pagestore *s, int error)
{
	if (!s->error)
		s->error = error ? error : EIO;
	return NULL;
}

/* Pages up to @page known, new ones neither cached nor on the file. */
static bool room_for_page(struct xls_pagestore *s, uint32_t page)
{
	uint32_t cap = s->cappages ? s->cappages : 64;
	uint32_t *ps;
	uint8_t *of;

	if (page < s->npages)
		return true;
	if (page == XLS_PAGESTORE_NONE)
		return false;
	while (cap <= page)
		cap = cap > UINT32_MAX / 2 ? UINT32_MAX : cap * 2;
	if (cap > s->cappages) {
		if (!(ps = realloc(s->page_slot, sizeof(*ps) * cap)))
			return false;
		s->page_slot = ps;
		if (!(of = realloc(s->on_file, cap)))
			return false;
		s->on_file = of;
		s->cappages = cap;
	}
	for (uint32_t p = s->npages; p <= page; p++) {
		s->page_slot[p] = XLS_PAGESTORE_NONE;
		s->on_file[p] = 0;
	}
	s->npages = page + 1;
	return true;
}

/* A slot for a page: a free one, else the clock's next unpinned one, emptied. */
static uint32_t free_slot(struct xls_pagestore *s)
{
	for (uint32_t tries = 0; tries < 2 * s->nslots + 1; tries++) {
		uint32_t slot = s->hand, page = s->slot_page[slot];

		s->hand = s->hand + 1 == s->nslots ? 0 : s->hand + 1;
		if (page == XLS_PAGESTORE_NONE)
			return slot;
		if (s->pins[slot])
			continue;
		if (s->used[slot]) {
			s->used[slot] = 0;
			continue;
		}
		if (s->fd < 0 && (s->fd = xls_tmpfile(&s->dir)) < 0) {
			fail(s, errno);
			return XLS_PAGESTORE_NONE;
		}
		{
			int rc = xls_pwrite_fully(s->fd, (uint64_t)page * s->page_bytes,
						  s->cache + (size_t)slot * s->page_bytes,
						  s->page_bytes, NULL);

			if (rc) {
				fail(s, -rc);
				return XLS_PAGESTORE_NONE;
			}
		}
		s->writes++;
		s->on_file[page] = 1;
		s->page_slot[page] = XLS_PAGESTORE_NONE;
		s->slot_page[slot] = XLS_PAGESTORE_NONE;
		return slot;
	}
	fail(s, ENOMEM);	/* every slot pinned */
	return XLS_PAGESTORE_NONE;
}

void *xls_pagestore_fetch(struct xls_pagestore *s, uint32_t idx)
{
	uint32_t page = idx >> XLS_PAGESTORE_PAGE_SHIFT, slot;

	if (s->error)
		return NULL;
	if (!room_for_page(s, page))
		return fail(s, ENOMEM);
	slot = s->page_slot[page];
	if (slot == XLS_PAGESTORE_NONE) {
		uint8_t *p;

		if ((slot = free_slot(s)) == XLS_PAGESTORE_NONE)
			return NULL;
		p = s->cache + (size_t)slot * s->page_bytes;
		if (s->on_file[page]) {
			int rc = xls_pread_fully(s->fd, (uint64_t)page * s->page_bytes, p,
						 s->page_bytes, NULL);

			if (rc)
				return fail(s, -rc);
			s->reads++;
		} else {
			memset(p, 0, s->page_bytes);
		}
		s->page_slot[page] = slot;
		s->slot_page[slot] = page;
	}
	s->used[slot] = 1;
	return s->cache + (size_t)slot * s->page_bytes +
	       (size_t)(idx & ((1u << XLS_PAGESTORE_PAGE_SHIFT) - 1)) * s->rec_size;
}

void *xls_pagestore_pin(struct xls_pagestore *s, uint32_t idx)
{
	void *p = xls_pagestore_at(s, idx);

	if (p)
		s->pins[s->page_slot[idx >> XLS_PAGESTORE_PAGE_SHIFT]]++;
	return p;
}

void xls_pagestore_unpin(struct xls_pagestore *s, uint32_t idx)
{
	uint32_t page = idx >> XLS_PAGESTORE_PAGE_SHIFT;

	if (page < s->npages && s->page_slot[page] != XLS_PAGESTORE_NONE &&
	    s->pins[s->page_slot[page]])
		s->pins[s->page_slot[page]]--;
}
