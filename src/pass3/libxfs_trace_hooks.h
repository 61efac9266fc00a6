// SPDX-License-Identifier: GPL-2.0
/*
 * Pass 3 stage: xfsprogs' xfs_trace.h with two of the kernel's
 * tracepoints made calls.  tools/libxfs-busy copies this, as xfs_trace.h,
 * beside the libxfs sources it compiles again; xfs_defer.c includes it as
 * its own.  Where the kernel logs an intent for a piece of deferred work
 * (xfs_defer_create_intents) and its done item (xfs_defer_finish_one),
 * libxfs logs nothing; the checkpoint model (libxfs_ckpt.c) needs both,
 * since an intent whose done item falls in a later checkpoint is in the
 * log, where one whose done item follows in its own checkpoint is not.
 */
#ifndef XLS_LIBXFS_TRACE_HOOKS_H
#define XLS_LIBXFS_TRACE_HOOKS_H

#include <include/xfs_trace.h>

#include "pass3/libxfs_hooks.h"

#undef trace_xfs_defer_create_intent
#define trace_xfs_defer_create_intent(mp, dfp)	xls_libxfs_ckpt_intent(dfp)
#undef trace_xfs_defer_pending_finish
#define trace_xfs_defer_pending_finish(mp, dfp)	xls_libxfs_ckpt_intent_done(dfp)

#endif /* XLS_LIBXFS_TRACE_HOOKS_H */
