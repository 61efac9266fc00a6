// SPDX-License-Identifier: GPL-2.0
/*
 * Pass 3 stage: xfsprogs' libxfs_priv.h with the kernel's busy extents.
 * tools/libxfs-busy copies this, as libxfs_priv.h, beside the allocator's
 * sources it compiles again; they include it as their own.  xfsprogs'
 * header is included whole (by the tree's top, -I..), then its no-op
 * busy-extent macros give way to the functions of libxfs_busy.c
 * (libxfs_hooks.h, found through -I src).
 */
#ifndef XLS_LIBXFS_PRIV_BUSY_H
#define XLS_LIBXFS_PRIV_BUSY_H

#include <libxfs/libxfs_priv.h>

#undef xfs_extent_busy_insert
#undef xfs_extent_busy_trim
#undef xfs_extent_busy_reuse
#undef xfs_extent_busy_flush

#include "pass3/libxfs_hooks.h"

#endif /* XLS_LIBXFS_PRIV_BUSY_H */
