/*
 * Replay stage: the copies replay writes into, made from the input.
 */
#ifndef XLS_REPLAY_COPY_H
#define XLS_REPLAY_COPY_H

#include "base/err.h"
#include "base/finding.h"
#include "source/source.h"

/*
 * The data device of @src into the empty file @fd (@path, for errors),
 * sized as the device (a metadump: as xfs_mdrestore sizes it), holes
 * kept: a reflink when the host filesystem shares blocks, else
 * copy_file_range() over the data extents, else reads; a metadump or a
 * compressed input restored block by block.  Progress to @progress.
 */
int xls_replay_copy_data(const struct xls_source *src, int fd, const char *path,
			 const struct xls_report_sink *progress, struct xls_error *err);

/* The external log of @src into the empty file @fd, at the offset it has on its device. */
int xls_replay_copy_log(const struct xls_source *src, int fd, const char *path,
			struct xls_error *err);

#endif /* XLS_REPLAY_COPY_H */
