/*
 * Source stage: a device that is not read in place but through an index
 * of extents -- the blocks an xfs_metadump carries, or the non-zero blocks
 * of a decompressed image -- each at an offset of one file (the metadump
 * itself, or the spool: an unlinked temporary file).
 */
#ifndef XLS_EXTMAP_H
#define XLS_EXTMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/err.h"

/* foff of an extent the input carries as zeros: nothing to read */
#define XLS_EXTENT_ZEROS	UINT64_MAX

struct xls_extent {
	uint64_t	off;	/* byte offset on the device */
	uint64_t	len;	/* bytes */
	uint64_t	foff;	/* where they are in the map's file, or XLS_EXTENT_ZEROS */
	uint64_t	seq;	/* order in the input: of two copies the later is read */
};

struct xls_extmap {
	int			fd;		/* the file @foff points into (not owned) */
	uint64_t		dev_bytes;	/* size of the device it stands for */
	bool			holes_absent;	/* metadump: a hole is a block not carried */
	size_t			nprotect;	/* the first extents, read over later copies */
	struct xls_extent	*e;		/* sorted by @off, disjoint once finished */
	size_t			n, cap;
	uint64_t		nseq;		/* extents added */
	uint64_t		overlap_bytes;	/* bytes carried more than once */
};

/* Append an extent (any order), merged with the last one when they are adjacent. */
int xls_extmap_add(struct xls_extmap *m, uint64_t off, uint64_t len, uint64_t foff);

/*
 * The extents added so far are read over any later copy of their bytes
 * (xfs_mdrestore writes the superblock sector again at the end).
 */
void xls_extmap_protect(struct xls_extmap *m);

/*
 * Sort, and resolve overlaps as xfs_mdrestore does (it writes the extents
 * in order, so the later copy is what a restored image holds; but see
 * xls_extmap_protect).  0 or -ENOMEM.
 */
int xls_extmap_finish(struct xls_extmap *m);

/*
 * Read @len bytes at device byte @off into @buf: holes read as zeros.
 * 0, or -errno (-ENODATA beyond the device or the file).  Safe from
 * several threads at once.
 */
int xls_extmap_read(const struct xls_extmap *m, uint64_t off, void *buf, size_t len);

/* The size of the device the map stands for. */
uint64_t xls_extmap_size(const struct xls_extmap *m);

/* Bytes of [@off, @off + @len) the map does not carry. */
uint64_t xls_extmap_missing(const struct xls_extmap *m, uint64_t off, uint64_t len);

void xls_extmap_free(struct xls_extmap *m);

/* Are all @len bytes of @p zero? */
bool xls_all_zero(const uint8_t *p, size_t len);

#endif /* XLS_EXTMAP_H */
