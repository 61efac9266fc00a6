/*
 * Report stage: the files commands write, never one that exists, never
 * half-made (newfile.c), and the spool for output that must follow
 * something known only at the end.
 */
#ifndef XLS_NEWFILE_H
#define XLS_NEWFILE_H

#include <stdio.h>
#include "base/err.h"

/*
 * A new file: it must not exist, and it gets its name only once complete.
 * xls_newfile_check() before a scan, so that a path that cannot be written
 * fails at once (exit 3); open, write to @f, then commit (or abort:
 * nothing is left).  Commit makes the bytes durable before the name.
 */
struct xls_newfile {
	const char	*path;
	int		fd;
	FILE		*f;
	char		tmp[4200];	/* the hidden name, without O_TMPFILE */
};
int xls_newfile_check(const char *path, struct xls_error *err);
int xls_newfile_open(struct xls_newfile *nf, const char *path, struct xls_error *err);
int xls_newfile_commit(struct xls_newfile *nf, struct xls_error *err);
void xls_newfile_abort(struct xls_newfile *nf);

/*
 * An unnamed temporary file in $TMPDIR (or /tmp) to hold output that must
 * follow something only known at the end; NULL, with errno, if none can be
 * made.
 */
FILE *xls_spool_new(void);

/* Copy all of @spool to @to; 0, or -1 on a read or write error. */
int xls_unspool(FILE *spool, FILE *to);

#endif /* XLS_NEWFILE_H */
