/*
 * An append-only store of bytes found again by offset, like struct
 * xls_pool, whose memory stays bounded: bytes go into pages, and past
 * @mem_max bytes of pages the oldest go to an unlinked temporary file
 * (base/fullio.h's xls_tmpfile), written once, in order, each read back
 * into one of XLS_SPILLPOOL_FRAMES frames when asked for.  For what a
 * checkpoint's items leave for its commit, read back in the order they
 * came: a checkpoint of 240,000 inode items keeps 70 MiB of them.
 */
#ifndef XLS_SPILLPOOL_H
#define XLS_SPILLPOOL_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Bytes of a page, unless one add is more: each from malloc, mapped on
 * its own (glibc maps what is over 128 KiB), so that memory is what the
 * pages hold -- not a 2 MiB huge page each, as base/bigmem.h would give.
 */
/* -DXLS_SPILLPOOL_PAGE=... in CFLAGS: a build that spills all the time, to test it */
#ifndef XLS_SPILLPOOL_PAGE
#define XLS_SPILLPOOL_PAGE	(256u << 10)
#endif
#define XLS_SPILLPOOL_FRAMES	4u		/* pages read back at once */

struct xls_spillpool_page {
	uint32_t	start;		/* the pool's offset of its first byte */
	uint32_t	used, cap;
	uint8_t		*mem;		/* NULL: in the file at file_off */
	uint64_t	file_off;
};

struct xls_spillpool {
	uint64_t			mem_max;	/* bytes of pages kept in memory */
	uint64_t			mem;		/* bytes of pages in memory */
	struct xls_spillpool_page	*pages;
	uint32_t			npages, cappages;
	uint32_t			first_in_mem;	/* pages before it are in the file */
	uint32_t			used;		/* bytes added */
	int				fd;		/* -1 until a page goes out */
	const char			*dir;
	int				error;		/* errno of the first failure */
	uint64_t			file_end;
	uint64_t			spilled;	/* bytes written to the file, in all */
	/* pages read back: which (UINT32_MAX none), their bytes, last use */
	uint32_t			frame_page[XLS_SPILLPOOL_FRAMES];
	uint8_t				*frame[XLS_SPILLPOOL_FRAMES];
	uint32_t			frame_cap[XLS_SPILLPOOL_FRAMES];
	uint64_t			frame_used[XLS_SPILLPOOL_FRAMES];
	uint64_t			tick;
};

void xls_spillpool_init(struct xls_spillpool *sp, uint64_t mem_max);
void xls_spillpool_free(struct xls_spillpool *sp);

/* Empty again (its file, if any, kept for the next pages). */
void xls_spillpool_reset(struct xls_spillpool *sp);

/*
 * Append @len bytes of @src (NULL: zeros); their offset in *@off.  Where
 * they are, to be filled or changed until the next add; NULL when out of
 * memory, past 2 GiB or the file failed (sp->error).
 */
uint8_t *xls_spillpool_add(struct xls_spillpool *sp, const void *src, uint32_t len,
			   uint32_t *off);

/*
 * The bytes at @off, @len of them at least, and the rest of the add that
 * made them (one add is never split across pages; @len never reaches
 * into the next add): valid until XLS_SPILLPOOL_FRAMES other pages have
 * been read back, or the next add.  NULL when out of range or the file
 * failed.
 */
const uint8_t *xls_spillpool_at(struct xls_spillpool *sp, uint32_t off, uint32_t len);

/*
 * Change @len bytes at @off, which one add made, to @src's, wherever they
 * are: false when out of range or the file failed.
 */
bool xls_spillpool_write(struct xls_spillpool *sp, uint32_t off, const void *src, uint32_t len);

/* Bytes in memory now, pages and frames. */
uint64_t xls_spillpool_mem(const struct xls_spillpool *sp);

#endif /* XLS_SPILLPOOL_H */
