/*
 * A set of inode numbers, each with a few flag bits, kept by groups of 64
 * neighbouring numbers (an inode chunk's worth): a bit per flag per inode
 * in the group's masks.  For what is kept per inode by the million where
 * a few bits say all: an inode chunk the log allocates and fills costs 48
 * bytes and a hash slot (under one byte an inode), where struct
 * xls_inoidx takes 13 bytes an inode.  A log touching one inode per
 * chunk costs more per inode (about 80 bytes), as many groups as inodes.
 */
#ifndef XLS_INOFLAGS_H
#define XLS_INOFLAGS_H

#include <stdbool.h>
#include <stdint.h>
#include "base/hashmap.h"

/* Flags an inode may have: bits 0 .. XLS_INOFLAGS_BITS - 1. */
#define XLS_INOFLAGS_BITS	4u

struct xls_inoflags_group {
	uint64_t	first;				/* inode number of bit 0 */
	uint64_t	mask[XLS_INOFLAGS_BITS];	/* bit i: inode first + i */
	uint64_t	member;		/* bit i: inode first + i is in the set */
};

struct xls_inoflags {
	struct xls_hashmap		idx;	/* first -> groups[] */
	struct xls_inoflags_group	*group;
	uint32_t			n, cap;
	uint64_t			count;	/* inodes in the set */
};

#define XLS_INOFLAGS_INIT	{ XLS_HASHMAP_INIT, NULL, 0, 0, 0 }

void xls_inoflags_free(struct xls_inoflags *s);

/*
 * @ino in the set (it may be already), its flags @clear taken off, then
 * @set added.  0, or -1 out of memory (the set is as it was).
 */
int xls_inoflags_update(struct xls_inoflags *s, uint64_t ino, uint32_t clear, uint32_t set);

/* Is @ino in the set?  Its flags in *@flags when it is (@flags may be NULL). */
bool xls_inoflags_get(const struct xls_inoflags *s, uint64_t ino, uint32_t *flags);

static inline uint64_t xls_inoflags_count(const struct xls_inoflags *s)
{
	return s->count;
}

/*
 * The inode numbers of the set in increasing order, into @out (room for
 * xls_inoflags_count() of them): sorting the groups, not the inodes.
 * 0, or -1 out of memory.
 */
int xls_inoflags_sorted(const struct xls_inoflags *s, uint64_t *out);

#endif /* XLS_INOFLAGS_H */
