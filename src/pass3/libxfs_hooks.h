// SPDX-License-Identifier: GPL-2.0
/*
 * Pass 3 stage: the calls xfsprogs' sources make into pass 3 where
 * tools/libxfs-busy compiles them again -- the allocator's four busy-extent
 * calls (libxfs_priv_busy.h), the defer code's two tracepoints
 * (libxfs_trace_hooks.h) -- declared once, for them and for the files
 * that define them (libxfs_busy.c, libxfs_ckpt.c, through libxfs_work.h).
 * tools/libxfs-busy compiles them with -I src, to find it.  Included after
 * libxfs's headers, whose types it uses.
 */
#ifndef XLS_LIBXFS_HOOKS_H
#define XLS_LIBXFS_HOOKS_H

struct xfs_trans;
struct xfs_group;
struct xfs_defer_pending;

void xfs_extent_busy_insert(struct xfs_trans *tp, struct xfs_group *xg, xfs_agblock_t bno,
			    xfs_extlen_t len, unsigned int flags);
bool xfs_extent_busy_trim(struct xfs_group *xg, xfs_extlen_t minlen, xfs_extlen_t maxlen,
			  xfs_agblock_t *bno, xfs_extlen_t *len, unsigned *busy_gen);
void xfs_extent_busy_reuse(struct xfs_group *xg, xfs_agblock_t fbno, xfs_extlen_t flen,
			   bool userdata);
int xfs_extent_busy_flush(struct xfs_trans *tp, struct xfs_group *xg, unsigned busy_gen,
			  uint32_t alloc_flags);

void xls_libxfs_ckpt_intent(const struct xfs_defer_pending *dfp);
void xls_libxfs_ckpt_intent_done(const struct xfs_defer_pending *dfp);

#endif /* XLS_LIBXFS_HOOKS_H */
