/*
 * Memory for what grows large while a log is read: tables and arrays that
 * double (xls_big_realloc), and many small images or strings that live
 * until the end (struct xls_arena).
 *
 * Why not malloc alone: each first touch of a 4 KiB page is a page fault,
 * and growing by realloc copies everything into fresh pages, faulting
 * again.  On a virtual machine a fault can cost 10 us or more, and lost or
 * files on a 1 GiB log made some 20,000 of them.  Past XLS_BIG_MIN bytes
 * these live in anonymous mappings advised for transparent huge pages (one
 * fault per 2 MiB where the system allows them) and grow by moving the
 * mapped pages (mremap), not by copying them.  Built with AddressSanitizer,
 * all of it is plain malloc, so that overruns are still caught.
 */
#ifndef XLS_BIGMEM_H
#define XLS_BIGMEM_H

#include <stddef.h>
#include <stdint.h>

/* Below this, memory comes from malloc (and the sanitizers see it). */
#define XLS_BIG_MIN	(512u << 10)

/*
 * Resize @p (NULL: new) to hold @size bytes, keeping its contents, like
 * realloc(), aligned to 64 bytes; NULL when out of memory, @p then
 * unchanged.  Memory from here must be given back with xls_big_free(),
 * never free().
 */
void *xls_big_realloc(void *p, size_t size);
/* @size zero bytes, 64-aligned. */
void *xls_big_zalloc(size_t size);
void xls_big_free(void *p);

/*
 * Bump allocation from chunks of XLS_ARENA_CHUNK bytes, each a mapping as
 * above: addresses stay put until xls_arena_release().  Freed pieces of a
 * size class (a multiple of 512 bytes up to 64 KiB, the sizes of block
 * images) are kept on a list for the next piece of that size.
 */
#define XLS_ARENA_CHUNK		(4u << 20)
#define XLS_ARENA_CLASSES	128u		/* 512 .. 65536 bytes */

struct xls_arena {
	uint8_t		**chunks;
	uint32_t	nchunks, capchunks;
	size_t		used;		/* of the last chunk */
	void		*free_list[XLS_ARENA_CLASSES];
};

/* @size bytes, 8-aligned; NULL when out of memory or larger than a chunk. */
void *xls_arena_alloc(struct xls_arena *a, size_t size);

/* The same, zeroed (a piece of a fresh chunk is zero already). */
void *xls_arena_zalloc(struct xls_arena *a, size_t size);

/* Give back a piece of a size class (others stay until release). */
void xls_arena_put(struct xls_arena *a, void *p, size_t size);

void xls_arena_release(struct xls_arena *a);

#endif /* XLS_BIGMEM_H */
