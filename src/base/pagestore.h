/*
 * An array of fixed-size records by the million, out of memory: records
 * addressed by index, kept in pages of 128 records in an unlinked
 * temporary file (base/fullio.h's xls_tmpfile), the pages in use in a
 * cache of a given size.  A page not in the cache is read back, or is
 * zeros when never written; room for it is made by a clock sweep, the
 * page it evicts written back first.  No file is made while every page
 * fits in the cache.
 *
 * A record's address holds until the next access to another page, unless
 * its page is pinned (xls_pagestore_pin): for a record held while others
 * are made or looked up.
 */
#ifndef XLS_PAGESTORE_H
#define XLS_PAGESTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define XLS_PAGESTORE_PAGE_SHIFT	7u	/* 128 records a page */
#define XLS_PAGESTORE_NONE		UINT32_MAX

struct xls_pagestore {
	uint32_t	rec_size;
	uint32_t	page_bytes;	/* rec_size << XLS_PAGESTORE_PAGE_SHIFT */
	uint32_t	nslots;		/* pages the cache holds */
	uint8_t		*cache;		/* nslots pages */
	uint32_t	*slot_page;	/* the page in each slot, or NONE */
	uint16_t	*pins;		/* of each slot */
	uint8_t		*used;		/* each slot's clock bit */
	uint32_t	hand;
	/* each page: its slot or NONE; whether the file holds it */
	uint32_t	*page_slot;
	uint8_t		*on_file;
	uint32_t	npages, cappages;
	int		fd;		/* -1 until a page is written out */
	const char	*dir;		/* where the file is, for messages */
	int		error;		/* errno of the first failure; 0 none */
	uint64_t	reads, writes;	/* pages moved, for the curious */
};

/*
 * Records of @rec_size bytes in a cache of about @cache_bytes (at least
 * two pages): 0, or -ENOMEM.
 */
int xls_pagestore_init(struct xls_pagestore *s, uint32_t rec_size, uint64_t cache_bytes);
void xls_pagestore_free(struct xls_pagestore *s);

/* The slow way of xls_pagestore_at: its page brought into the cache. */
void *xls_pagestore_fetch(struct xls_pagestore *s, uint32_t idx);

/*
 * Record @idx (zeros until written), to read or change; NULL on a failure
 * (s->error: the file, or every slot pinned).
 */
static inline void *xls_pagestore_at(struct xls_pagestore *s, uint32_t idx)
{
	uint32_t page = idx >> XLS_PAGESTORE_PAGE_SHIFT, slot;

	if (page < s->npages && (slot = s->page_slot[page]) != XLS_PAGESTORE_NONE) {
		s->used[slot] = 1;
		return s->cache + (size_t)slot * s->page_bytes +
		       (size_t)(idx & ((1u << XLS_PAGESTORE_PAGE_SHIFT) - 1)) * s->rec_size;
	}
	return xls_pagestore_fetch(s, idx);
}

/* Record @idx, its page held in the cache until unpinned; NULL as xls_pagestore_at. */
void *xls_pagestore_pin(struct xls_pagestore *s, uint32_t idx);
void xls_pagestore_unpin(struct xls_pagestore *s, uint32_t idx);

#endif /* XLS_PAGESTORE_H */
