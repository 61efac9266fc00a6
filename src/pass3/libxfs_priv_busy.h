// SPDX-License-Identifier: GPL-2.0
/*
 * Pass 3 stage: xfsprogs' libxfs_priv.h with the kernel's busy extents.
 * tools/libxfs-busy copies this, as libxfs_priv.h, beside the allocator's
 * sources it compiles again; they include it as their own.  xfsprogs'
 * header is included whole (by the tree's top, -I..), then its no-op
 * busy-extent macros give way to the functions of libxfs_busy.c.
 */
#ifndef XLS_LIBXFS_PRIV_BUSY_H
#define XLS_LIBXFS_PRIV_BUSY_H

#include <libxfs/libxfs_priv.h>

#undef xfs_extent_busy_insert
#undef xfs_extent_busy_trim
#undef xfs_extent_busy_reuse
#undef xfs_extent_busy_flush

struct xfs_trans;
struct xfs_group;

void xfs_extent_busy_insert(struct xfs_trans *tp, struct xfs_group *xg, xfs_agblock_t bno,
			    xfs_extlen_t len, unsigned int flags);
bool xfs_extent_busy_trim(struct xfs_group *xg, xfs_extlen_t minlen, xfs_extlen_t maxlen,
			  xfs_agblock_t *bno, xfs_extlen_t *len, unsigned *busy_gen);
void xfs_extent_busy_reuse(struct xfs_group *xg, xfs_agblock_t fbno, xfs_extlen_t flen,
			   bool userdata);
int xfs_extent_busy_flush(struct xfs_trans *tp, struct xfs_group *xg, unsigned busy_gen,
			  uint32_t alloc_flags);

#endif /* XLS_LIBXFS_PRIV_BUSY_H */
