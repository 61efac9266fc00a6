/*
 * Errors as values: a status that maps to the exit code and one sentence
 * naming the input and the LSN or byte offset.
 */
#ifndef XLS_ERR_H
#define XLS_ERR_H

/* Exit codes, documented in xfs_logscope(8). */
enum xls_exit {
	XLS_EXIT_OK = 0,	/* decoded, nothing to report */
	XLS_EXIT_FINDINGS = 1,	/* decoded, with findings (CRC, corruption) */
	XLS_EXIT_USAGE = 2,	/* bad command line */
	XLS_EXIT_INPUT = 3,	/* input unreadable, not XFS, or no usable log */
	XLS_EXIT_INTERNAL = 4,	/* out of memory, write error on output */
};

struct xls_error {
	enum xls_exit	status;
	char		msg[512];
};

/* Record the first error into @e (later ones are ignored); returns -1. */
int xls_error_set(struct xls_error *e, enum xls_exit status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* XLS_ERR_H */
