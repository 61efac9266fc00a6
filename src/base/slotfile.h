/*
 * Block images out of memory: an unlinked temporary file (base/fullio.h's
 * xls_tmpfile) of places, each as long as the image put there, a place
 * given back taken again by the next image of its length.  For what must
 * stay to the end of a step but need not stay in memory: the file grows
 * to the most images out at once, not to every image that ever left.
 */
#ifndef XLS_SLOTFILE_H
#define XLS_SLOTFILE_H

#include <stdint.h>

/* Lengths of places kept apart for reuse: 512-byte multiples to 64 KiB. */
#define XLS_SLOTFILE_CLASSES	128u

struct xls_slotfile {
	int		fd;		/* -1 until the first put */
	const char	*dir;		/* where it is, for messages */
	int		error;		/* errno of the first failure; 0 none */
	uint64_t	end;		/* bytes of places made */
	/* the places given back, by length class: a stack each */
	uint64_t	*free_off[XLS_SLOTFILE_CLASSES];
	uint32_t	nfree[XLS_SLOTFILE_CLASSES], capfree[XLS_SLOTFILE_CLASSES];
};

/* An empty file: none made yet. */
void xls_slotfile_init(struct xls_slotfile *sf);
void xls_slotfile_release(struct xls_slotfile *sf);

/*
 * @len bytes of @img (a multiple of 512, at most 64 KiB) into a place;
 * its offset in *@off.  0, or -errno (sf->error).
 */
int xls_slotfile_put(struct xls_slotfile *sf, const void *img, uint32_t len, uint64_t *off);

/* The @len bytes at place @off back into @img: 0, or -errno. */
int xls_slotfile_get(struct xls_slotfile *sf, uint64_t off, void *img, uint32_t len);

/* Place @off, of @len bytes, free for the next put of that length. */
void xls_slotfile_drop(struct xls_slotfile *sf, uint64_t off, uint32_t len);

#endif /* XLS_SLOTFILE_H */
